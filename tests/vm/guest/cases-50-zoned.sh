# A host-managed zoned disk: scsi_debug reloaded with zbc=host-managed
# (zbc is a load-time parameter: one module load cannot mix zoned and
# plain disks). 64 MiB in 8 MiB zones, the first one conventional.

umount /mnt/fs 2>/dev/null
DEV_Z=""
if sdebug_load 1 dev_size_mb=64 zbc=host-managed zone_size_mb=8 > /tmp/setup.out 2>&1; then
	DEV_Z=$(echo $SDEBUG)
	echo "VMTEST INFO scsi_debug zoned Z=$DEV_Z"
else
	echo "VMTEST FAIL setup-scsi-debug-zoned: modprobe scsi_debug zbc=host-managed failed"
	sed 's/^/    | /' /tmp/setup.out
	NFAIL=$((NFAIL + 1))
fi

peer_zbc() {
	[ -n "$DEV_Z" ] || fail "no zoned disk"
	expect_eq "queue/zoned" "$(cat /sys/block/$DEV_Z/queue/zoned)" host-managed
	expect_eq "queue/nr_zones" "$(cat /sys/block/$DEV_Z/queue/nr_zones)" 8
	expect_eq "queue/chunk_sectors (zone size)" "$(cat /sys/block/$DEV_Z/queue/chunk_sectors)" 16384
	must sg_rep_zones /dev/$DEV_Z
	expect_grep "a conventional zone" $OUT "Zone type: [Cc]onventional"
	expect_grep "sequential-write-required zones" $OUT "Zone type: [Ss]equential write required"
}
t peer-zbc-report-zones peer_zbc

ss_list_zoned() {
	[ -n "$DEV_Z" ] || fail "no zoned disk"
	ss_json list-zoned list -J
	i=$(jindex $F .drives device /dev/$DEV_Z)
	[ -n "$i" ] || fail "/dev/$DEV_Z is not in list -J"
	expect_eq "size" "$(jget $F ".drives[$i].size")" 67108864
}
t ss-list-zoned ss_list_zoned

ss_info_zoned() {
	[ -n "$DEV_Z" ] || fail "no zoned disk"
	ss_json info-zoned info -J /dev/$DEV_Z
	expect_eq zoned "$(jget $F .zoned)" host-managed
	expect_eq capacity_bytes "$(jget $F .capacity_bytes)" 67108864
}
t ss-info-zoned ss_info_zoned
