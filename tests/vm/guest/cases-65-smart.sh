# SMART and zones through the real kernel: `smart -J` on the AHCI disk (SG_IO,
# libata's SAT, our IDENTIFY/SMART blob into libatasmart) agrees with `smartctl -A`
# on the same disk; a self-test on it; `zones` on a scsi_debug host-managed disk
# agrees with sg_rep_zones and the zone count it was loaded with; the LOG SENSE
# path of `smart` on scsi_debug gives a verdict, not a crash.
# scsi_debug is reloaded zoned here and put back as cases-60 left it at the end.

# smart -J exits 0 (PASSED), 5 (WARNING), 6 (no verdict) or 1 (FAILED): all are answers.
ss_smart_json() {
	_n=$1
	shift
	need_ss
	run $SS smart -J "$@"
	case $RC in
	0 | 1 | 5 | 6) ;;
	*) fail "smart -J $* exited $RC" ;;
	esac
	cp $OUT /tmp/$_n.json
	jflat /tmp/$_n.json
	F=/tmp/$_n.json.flat
}

ss_smart_ahci() {
	must smartctl -A /dev/$DEV_A
	cp $OUT /tmp/smartctl-A.txt
	ss_smart_json smart-ahci /dev/$DEV_A
	expect_eq type "$(jget $F .disks[0].type)" ata
	expect_match verdict "$(jget $F .disks[0].verdict)" '^(PASSED|WARNING|FAILED|UNKNOWN)$'
	expect_eq "error" "$(jget $F .disks[0].error)" null
	_n=0
	for _id in 1 4 5 9 12; do
		_raw=$(awk -v id=$_id '$1 == id { print $10; exit }' /tmp/smartctl-A.txt)
		[ -n "$_raw" ] || continue
		_i=$(jindex $F .disks[0].attributes id $_id)
		[ -n "$_i" ] || fail "attribute $_id: smartctl lists it, smart -J does not"
		expect_eq "attribute $_id raw" "$(jget $F .disks[0].attributes[$_i].raw)" "$_raw"
		_n=$((_n + 1))
	done
	[ $_n -ge 3 ] || fail "only $_n attributes to compare (smartctl -A: $(cat /tmp/smartctl-A.txt))"
	# the attribute ids are the same set
	_theirs=$(awk '$1 ~ /^[0-9]+$/ && NF >= 10 { print $1 }' /tmp/smartctl-A.txt | sort -n | tr '\n' ' ')
	_ours=$(awk -F= '/^\.disks\[0\]\.attributes\[[0-9]+\]\.id=/ { print $2 }' $F | sort -n | tr '\n' ' ')
	expect_eq "attribute ids" "$_ours" "$_theirs"
}
t ss-smart-ahci-vs-smartctl ss_smart_ahci

ss_selftest_ahci() {
	need_ss
	must $SS selftest --short --wait /dev/$DEV_A
	expect_grep "self-test result" $OUT "short self-test completed without error"
	must smartctl -l selftest /dev/$DEV_A
	expect_grep "smartctl sees the test" $OUT "Short offline +Completed without error"
}
t ss-selftest-ahci ss_selftest_ahci

DEV_ZS=""
if sdebug_load 1 dev_size_mb=64 zbc=host-managed zone_size_mb=8 > /tmp/setup.out 2>&1; then
	DEV_ZS=$(echo $SDEBUG)
	echo "VMTEST INFO scsi_debug zoned again ZS=$DEV_ZS"
else
	echo "VMTEST FAIL setup-scsi-debug-zoned-65: modprobe scsi_debug zbc=host-managed failed"
	sed 's/^/    | /' /tmp/setup.out
	NFAIL=$((NFAIL + 1))
fi

ss_zones_sdebug() {
	[ -n "$DEV_ZS" ] || fail "no zoned disk"
	need_ss
	ss_json zones-sdebug zones -J /dev/$DEV_ZS
	expect_eq zoned "$(jget $F .zoned)" host-managed
	expect_eq "zones (scsi_debug was loaded with 64 MiB in 8 MiB zones)" "$(jget $F .zones)" 8
	expect_eq "zone blocks" "$(jget $F .zone_blocks)" 16384
	expect_eq "the kernel's count" "$(cat /sys/block/$DEV_ZS/queue/nr_zones)" 8
	if command -v sg_rep_zones > /dev/null; then
		must sg_rep_zones /dev/$DEV_ZS
		_conv=$(grep -ci "zone type: conventional" $OUT)
		_seq=$(grep -ci "zone type: sequential write required" $OUT)
		expect_eq "sg_rep_zones: zones" "$((_conv + _seq))" 8
		expect_eq "conventional zones" "$(jget $F .types.conventional)" "$_conv"
		expect_eq "seq-required zones" "$(jget $F .types.seq_required)" "$_seq"
	fi
	ss_json zones-sdebug-all zones --all -J /dev/$DEV_ZS
	expect_eq "zone 1 start" "$(jget $F .zone_list[1].start)" 16384
	expect_eq "zone 1 type" "$(jget $F .zone_list[1].type)" seq-required
	expect_eq "zone 1 write pointer" "$(jget $F .zone_list[1].wp)" 16384
}
t ss-zones-sdebug-vs-sg-rep-zones ss_zones_sdebug

ss_smart_sdebug() {
	[ -n "$DEV_ZS" ] || fail "no scsi_debug disk"
	ss_smart_json smart-sdebug /dev/$DEV_ZS
	expect_eq type "$(jget $F .disks[0].type)" scsi
	expect_match verdict "$(jget $F .disks[0].verdict)" '^(PASSED|WARNING|FAILED|UNKNOWN)$'
	run $SS smart /dev/$DEV_ZS
	expect_grep "a one-word verdict in text" $OUT "^/dev/$DEV_ZS: (PASSED|WARNING|FAILED|UNKNOWN)"
}
t ss-smart-logsense-sdebug ss_smart_sdebug

# as cases-60 left it
sdebug_load 1 dev_size_mb=16 opts=2 medium_error_start=${BAD_LBA:-8192} \
	medium_error_count=${BAD_COUNT:-16} > /tmp/setup.out 2>&1 || {
	echo "VMTEST FAIL setup-scsi-debug-restore-65: reloading scsi_debug failed"
	sed 's/^/    | /' /tmp/setup.out
	NFAIL=$((NFAIL + 1))
}
