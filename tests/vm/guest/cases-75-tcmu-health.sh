# SCSI health as smartctl and sg3_utils read it, on a simulated SAS disk the
# kernel sees as an sd disk: `smart -J` and `info -J` agree with
# `smartctl -x` (grown defect list, error counter log, start-stop cycles,
# non-medium errors), `sg_logs` (non-medium errors, background scans) and
# `sg_reassign --grown` on the same drive, after faults grew its defects
# and errors; `smart -j`'s smartctl keys agree with `smartctl -j` on a
# simulated SATA disk; the surface scan finds slow blocks through the
# kernel on a paced drive.

# health_json NAME ARGS...: shortstroke ARGS (exit 0 PASSED or 5 WARNING:
# both are answers), JSON flattened into $F.
health_json() {
	_n=$1
	shift
	need_ss
	run $SS "$@"
	case $RC in
	0 | 5) ;;
	*) fail "$* exited $RC: $(cat $ERR)" ;;
	esac
	cp $OUT /tmp/$_n.json
	jflat /tmp/$_n.json
	F=/tmp/$_n.json.flat
}

# num_after FILE ERE: the first number after the match of ERE on a line.
num_after() {
	awk -v re="$2" 'match($0, re) { s = substr($0, RSTART + RLENGTH); if (match(s, /[0-9]+/)) { print substr(s, RSTART, RLENGTH); exit } }' "$1"
}

ss_tcmu_health() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsas)
	sg=/dev/$(tcmu_sg $dv)
	must tcmu_fault tsas smart-degrade:4:2
	must tcmu_fault tsas medium-error:12345
	# two commands the drive fails for no medium reason: non-medium errors
	must tcmu_fault tsas abort:00:2
	run sg_turs $sg
	run sg_turs $sg
	# a read of the bad block: an uncorrected read error (the kernel may retry)
	run dd if=/dev/$dv of=/dev/null bs=512 skip=12345 count=1 iflag=direct
	health_json tcmu-health smart -J /dev/$dv
	expect_eq verdict "$(jget $F .disks[0].verdict)" WARNING
	expect_eq "grown defects" "$(jget $F .disks[0].grown_defects)" 4
	expect_eq "reallocated is the grown list" "$(jget $F .disks[0].reallocated)" 4
	run smartctl -x $sg
	cp $OUT /tmp/smartctl-x.txt
	expect_grep "smartctl: the grown list" /tmp/smartctl-x.txt "Elements in grown defect list: 4"
	_rd=$(awk '$1 == "read:" { print $5, $8; exit }' /tmp/smartctl-x.txt)
	[ -n "$_rd" ] || fail "smartctl -x printed no error counter log"
	expect_eq "read errors corrected, uncorrected (smartctl -x)" \
		"$(jget $F .disks[0].corrected_errors.read) $(jget $F .disks[0].uncorrected_errors.read)" "$_rd"
	_unc=$(jget $F .disks[0].uncorrected_errors.read)
	[ "$_unc" -ge 3 ] || fail "uncorrected read errors $_unc: expected the 2 pending + the read of LBA 12345"
	expect_eq "start-stop cycles (smartctl -x)" "$(jget $F .disks[0].start_stop_cycles)" \
		"$(num_after /tmp/smartctl-x.txt 'Accumulated start-stop cycles:')"
	expect_eq "non-medium errors" "$(jget $F .disks[0].non_medium_errors)" 2
	expect_eq "non-medium errors (smartctl -x)" "$(jget $F .disks[0].non_medium_errors)" \
		"$(num_after /tmp/smartctl-x.txt 'Non-medium error count:')"
	must sg_logs -p 0x6 $sg
	expect_eq "non-medium errors (sg_logs -p 0x6)" "$(jget $F .disks[0].non_medium_errors)" \
		"$(num_after $OUT '[Nn]on-medium error count')"
	must sg_logs -p 0x15 $sg
	cp $OUT /tmp/sglogs15.txt
	expect_eq "background scans (sg_logs -p 0x15)" "$(jget $F .disks[0].background_scan.scans_performed)" \
		"$(num_after /tmp/sglogs15.txt '[Bb]ackground scans performed')"
	if command -v sg_reassign > /dev/null; then
		must sg_reassign --grown $sg
		expect_grep "sg_reassign --grown" $OUT "[^0-9]4[^0-9]*$"
	fi
	health_json tcmu-health-info info -J /dev/$dv
	expect_eq "info: health" "$(jget $F .health.verdict)" WARNING
	expect_eq "info: grown defects" "$(jget $F .health.grown_defects)" 4
	must tcmu_fault --clear tsas
}
t ss-tcmu-health-vs-smartctl ss_tcmu_health

# smart -j gives the keys a script written for smartctl's JSON reads, with
# the values smartctl gives for the same simulated SATA disk (SAT ATA
# PASS-THROUGH through the kernel): identity, capacity, the health status,
# temperature, the attribute table's names and raw values. (LIO answers
# INQUIRY itself, so smartctl is told -d sat; its text is compared.)
ss_tcmu_smartctl_json() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsata)
	# a unit attention left from the handler's start: smartctl does not
	# retry it (we do, once); TEST UNIT READY takes it
	run sg_turs /dev/$dv
	run sg_turs /dev/$dv
	run smartctl -d sat -i -H -A /dev/$dv
	grep -q "unit attention" $OUT && run smartctl -d sat -i -H -A /dev/$dv
	cp $OUT /tmp/smartctl.txt
	T=/tmp/smartctl.txt
	health_json tcmu-smart-j smart -j /dev/$dv
	_v() { sed -n "s/^$1: *//p" $T | head -n 1; }
	expect_eq "model_name" "$(jget $F .disks[0].model_name)" "$(_v 'Device Model')"
	expect_eq "serial_number" "$(jget $F .disks[0].serial_number)" "$(_v 'Serial Number')"
	expect_eq "firmware_version" "$(jget $F .disks[0].firmware_version)" "$(_v 'Firmware Version')"
	expect_eq "user_capacity.bytes" "$(jget $F .disks[0].user_capacity.bytes)" \
		"$(_v 'User Capacity' | sed 's/ bytes.*//; s/,//g')"
	_h=$(sed -n 's/^SMART overall-health self-assessment test result: //p' $T)
	expect_eq "smart_status.passed (smartctl: $_h)" "$(jget $F .disks[0].smart_status.passed)" \
		"$([ "$_h" = PASSED ] && echo true || echo false)"
	_n=0
	for _id in 1 3 4 5 9 12 194 197 198 199; do
		_line=$(awk -v id=$_id '$1 == id && NF >= 10 { print; exit }' $T)
		[ -n "$_line" ] || continue
		_oi=$(jindex $F .disks[0].ata_smart_attributes.table id $_id)
		[ -n "$_oi" ] || fail "attribute $_id: smartctl lists it, smart -j does not"
		expect_eq "attribute $_id name" "$(jget $F .disks[0].ata_smart_attributes.table[$_oi].name)" \
			"$(echo "$_line" | awk '{ print $2 }')"
		expect_eq "attribute $_id raw.string" \
			"$(jget $F .disks[0].ata_smart_attributes.table[$_oi].raw.string)" \
			"$(echo "$_line" | awk '{ print $10 }')"
		_n=$((_n + 1))
	done
	[ $_n -ge 6 ] || fail "only $_n attributes to compare (smartctl: $(cat $T))"
	expect_eq "temperature.current is attribute 194" "$(jget $F .disks[0].temperature.current)" \
		"$(awk '$1 == 194 { print $10; exit }' $T)"
}
t ss-tcmu-smartctl-json ss_tcmu_smartctl_json

# The surface scan through the kernel (io_uring on the sd disk) finds the
# slow blocks of a simulated drive served in real time (--pace: each
# command answered after the media model's time, a slow block's 700 ms
# included), grades them into the right classes, and tells an unreadable
# block (MEDIUM ERROR, which the kernel reports as -ENODATA) as UNC.
ss_tcmu_scan_slow() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsas)
	tcmu_simd_stop TERM || fail "the handler did not stop"
	tcmu_simd_start --pace || fail "cannot restart the handler with --pace"
	must tcmu_fault tsas slow-block:4096-4103:700
	must tcmu_fault tsas slow-block:1100:250
	must tcmu_fault tsas medium-error:2600
	run $SS qualify -J /dev/$dv
	_rc=$RC
	cp $OUT /tmp/scan-slow.json
	tcmu_simd_stop TERM
	tcmu_simd_start || fail "cannot restart the handler"
	must tcmu_fault --clear tsas
	expect_eq "qualify exit (the scan fails)" $_rc 1
	jflat /tmp/scan-slow.json
	F=/tmp/scan-slow.json.flat
	expect_eq "blocks of 500 ms or more" "$(jget $F .disks[0].scan.slow_500ms)" 1
	expect_eq "blocks of 150 ms or more" "$(jget $F .disks[0].scan.slow_150ms)" 2
	expect_eq "the class >= 500 ms" "$(jget $F .disks[0].scan.classes[5].blocks)" 1
	expect_eq "the class 150-500 ms" "$(jget $F .disks[0].scan.classes[4].blocks)" 1
	expect_eq "the slowest block" "$(jget $F .disks[0].scan.slowest[0].lba)" 4096
	expect_match "its latency" "$(jget $F .disks[0].scan.slowest[0].ms)" '^(7[0-9][0-9]|8[0-9][0-9])(\.|$)'
	expect_eq "the second slowest" "$(jget $F .disks[0].scan.slowest[1].lba)" 1024
	expect_eq "the unreadable block" "$(jget $F .disks[0].scan.bad_ranges[0].first_lba)" 2600
	expect_eq "an unreadable block is UNC (the kernel's -ENODATA)" \
		"$(jget $F .disks[0].scan.bad_blocks_by_kind.UNC)" 1
	expect_eq "scan verdict" "$(jget $F .disks[0].checks.scan.result)" FAIL
}
# a paced quick qualify takes most of a minute under TCG: room for a loaded host
_ct=$CASE_TIMEOUT
[ "$CASE_TIMEOUT" -ge 150 ] || CASE_TIMEOUT=150
t ss-tcmu-scan-slow ss_tcmu_scan_slow
CASE_TIMEOUT=$_ct

# --remap through SG_IO on a simulated SAS disk: the unreadable block gets
# REASSIGN BLOCKS, reads again, and the drive's grown defect list (what
# smartctl -x reports) has grown by one.
ss_tcmu_remap() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsas)
	sg=/dev/$(tcmu_sg $dv)
	must tcmu_fault tsas medium-error:3000
	health_json tcmu-remap-before smart -J /dev/$dv
	_g0=$(jget $F .disks[0].grown_defects)
	run $SS qualify --remap --yes -J /dev/$dv
	cp $OUT /tmp/remap.json
	jflat /tmp/remap.json
	F=/tmp/remap.json.flat
	expect_eq "remap: the unreadable block" "$(jget $F .disks[0].scan.remap[0].lba)" 3000
	expect_eq "remap: REASSIGN BLOCKS" "$(jget $F .disks[0].scan.remap[0].action)" "REASSIGN BLOCKS"
	expect_eq "remap: it reads after" "$(jget $F .disks[0].scan.remap[0].after_ok)" true
	must dd if=/dev/$dv of=/dev/null bs=512 skip=3000 count=1 iflag=direct
	run smartctl -x $sg
	expect_grep "smartctl: the grown list grew by one" $OUT "Elements in grown defect list: $((_g0 + 1))"
	must tcmu_fault --clear tsas
}
t ss-tcmu-remap ss_tcmu_remap
