# Flash drives through the real kernel (issue 30.1, docs/flash.md): the simulator's SSDs served
# by TCMU as sd disks. The kernel's sd driver reads READ CAPACITY (16) LBPME and the VPD pages
# B0h / B2h and takes discards (UNMAP on the SAS drive, WRITE SAME (16) with UNMAP on the SATA
# one, as behind libata); `limit` through SG_IO TRIMs (ATA DATA SET MANAGEMENT) or UNMAPs the range
# it hides, then sets the max, and the kernel sees the new size. Its own rig and TCMU setup,
# torn down at the end (after cases-79 tore the main one down).
. /vmtest/tcmu.sh

FL_RIG=/vmtest/flash-rig.json
FL_STATE=/var/lib/shortstroke-flash
FL_OK=""
SIMD_LOG=/tmp/simd-flash.log
if want ss-tcmu-flash; then
	if tcmu_setup $FL_RIG $FL_STATE $SIMD_LOG > /tmp/tcmu-flash-setup.out 2>&1; then
		FL_OK=1
	else
		NFAIL=$((NFAIL + 1))
		echo "VMTEST FAIL setup-tcmu-flash: see below"
		sed 's/^/    | /' /tmp/tcmu-flash-setup.out
		tail -n 30 $SIMD_LOG 2>/dev/null | sed 's/^/    simd| /'
	fi
fi

need_flash() {
	[ -n "$FL_OK" ] || fail "TCMU setup failed (see setup-tcmu-flash)"
	simd_running || fail "shortstroke-simd is not running"
}

# fl_unmapped ID: the FTL pages the drive's state says are unmapped
fl_unmapped() {
	awk -f $JSON_AWK $FL_STATE/sim/flash-rig-*/$1.json |
		awk -F= '$1 ~ /^\.flash_unmapped\[[0-9]+\]\[[01]\]$/ { v[n++] = $2 }
			END { s = 0; for (i = 0; i + 1 < n; i += 2) s += v[i + 1] - v[i] + 1; print s + 0 }'
}

# The kernel takes discards as the VPD pages say: UNMAP (SAS), WRITE SAME (16) (SATA)
ss_tcmu_flash_lbp() {
	need_flash
	for id in fsas fsata; do
		dv=$(tcmu_dev $id)
		mode=$(cat /sys/block/$dv/device/scsi_disk/*/provisioning_mode)
		echo "$id ($dv): provisioning_mode $mode, discard_max_bytes $(cat /sys/block/$dv/queue/discard_max_bytes)"
		[ "$(cat /sys/block/$dv/queue/discard_max_bytes)" -gt 0 ] ||
			fail "$id: the kernel takes no discards"
		case $id in
		fsas) expect_eq "$id provisioning_mode" "$mode" unmap ;;
		fsata) expect_eq "$id provisioning_mode" "$mode" writesame_16 ;;
		esac
	done
	# every page mapped by a write, 1 MiB of it discarded by the kernel
	dv=$(tcmu_dev fsas)
	must dd if=/dev/zero of=/dev/$dv bs=1M count=4 oflag=direct
	before=$(fl_unmapped fsas)
	must blkdiscard -o 0 -l 1048576 /dev/$dv
	after=$(fl_unmapped fsas)
	echo "fsas: unmapped pages $before -> $after"
	[ "$after" -gt "$before" ] || fail "blkdiscard unmapped nothing ($before -> $after)"
	expect_grep "the handler saw the kernel's UNMAP" $SIMD_LOG "fsas #[0-9]+ \\[42 "
}
t ss-tcmu-flash-lbp ss_tcmu_flash_lbp

# limit through SG_IO: TRIM / UNMAP, then the max; the kernel sees the new size; restore
# fl_limit ID PATTERN: the command PATTERN names is sent before the max
fl_limit() {
	dv=$(tcmu_dev $1)
	must $SS limit --yes --percent 50 -v /dev/$dv
	expect_grep "$1: $3 sent" $ERR "$2"
	expect_grep "$1: the preview" $OUT "flash: the data in LBA 4194304-8388607 .* is discarded first"
	expect_eq "$1 ($dv) /sys/block/$dv/size" "$(cat /sys/block/$dv/size)" 4194304
}
ss_tcmu_flash_limit_sata() {
	need_flash
	need_ss
	fl_limit fsata "cdb: 85 0d 06 " TRIM
	must tcmu_power_cycle fsata
	must $SS restore --yes /dev/$(tcmu_dev fsata)
	expect_eq "fsata restored" "$(cat /sys/block/$(tcmu_dev fsata)/size)" 8388608
}
t ss-tcmu-flash-limit-sata ss_tcmu_flash_limit_sata

ss_tcmu_flash_limit_sas() {
	need_flash
	need_ss
	# 8 MiB written into the half the limit hides
	must dd if=/dev/zero of=/dev/$(tcmu_dev fsas) bs=1M count=8 seek=3072 oflag=direct
	u1=$(fl_unmapped fsas)
	fl_limit fsas "cdb: 42 00 " UNMAP
	# what was written there is unmapped again
	u2=$(fl_unmapped fsas)
	echo "fsas: unmapped FTL pages $u1 -> $u2"
	[ "$u2" -gt "$u1" ] || fail "fsas: the hidden half is not unmapped ($u1 -> $u2)"
	must $SS restore --yes /dev/$(tcmu_dev fsas)
	expect_eq "fsas restored" "$(cat /sys/block/$(tcmu_dev fsas)/size)" 8388608
}
t ss-tcmu-flash-limit-sas ss_tcmu_flash_limit_sas

if [ -n "$FL_OK" ]; then
	fl_end() {
		tcmu_teardown || fail "teardown reported an error"
		expect_eq "shortstroke-simd exit status" "$SIMD_RC" 0
	}
	t ss-tcmu-flash-teardown fl_end
	FL_OK=""
	tcmu_teardown > /dev/null 2>&1
fi
