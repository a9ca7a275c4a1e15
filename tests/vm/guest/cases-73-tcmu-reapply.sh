# reapply through the real kernel: a volatile HPA on a TCMU drive, a power
# cycle of the simulated drive (the limit is gone: READ CAPACITY and, after a
# rescan, the kernel see the full size), `reapply` finds the drive by its
# serial/WWN and puts the limit back, and the kernel sees it again; the
# hot-add path (`reapply /dev/X`) sends commands to that disk alone.
# Then libata.ignore_hpa=1 on the running kernel: list warns.

ss_tcmu_reapply() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsata)
	cap_run tsata limit --yes --volatile --blocks 2097152
	expect_grep "volatile limit" $OUT "limited to 2097152 blocks .*volatile"
	size_check tsata 2097152
	must tcmu_power_cycle tsata
	must sg_readcap -l /dev/$dv
	expect_grep "after the power cycle: the drive is back to full size" $OUT \
		"Number of logical blocks=8388608\$"
	echo 1 > /sys/block/$dv/device/rescan
	expect_eq "the kernel sees the full size" "$(cat /sys/block/$dv/size)" 8388608
	must $SS reapply --dry-run
	expect_grep "dry run: the SET MAX it would send" $OUT "ATA SET MAX ADDRESS EXT \\(volatile\\)"
	expect_eq "dry run: nothing sent" "$(cat /sys/block/$dv/size)" 8388608
	ss_json tcmu-reapply reapply -J
	i=$(jindex $F .results serial "$(rig_get tsata serial)")
	[ -n "$i" ] || fail "tsata not in reapply -J"
	expect_eq "reapply status" "$(jget $F ".results[$i].status")" reapplied
	expect_eq "reapply device" "$(jget $F ".results[$i].device")" /dev/$dv
	expect_eq "reapply after_blocks" "$(jget $F ".results[$i].after_blocks")" 2097152
	size_check tsata 2097152
	must hdparm -N /dev/$dv
	expect_grep "hdparm -N sees the HPA" $OUT "max sectors += 2097152/8388608, HPA is enabled"
	# the hot-add path: one disk named; it already has its limit
	ss_json tcmu-reapply-dev reapply -J /dev/$dv
	expect_eq "reapply DEVICE: in place" "$(jget $F .results[0].status)" in-place
	expect_eq "reapply DEVICE: one result" "$(jhas $F .results[1].status && echo 2 || echo 1)" 1
	# ... and it sends nothing to another disk (the AHCI, scsi_debug and other TCMU disks of
	# the guest): whether one carries the same serial is read from sysfs; -v shows every command
	must tcmu_power_cycle tsata
	echo 1 > /sys/block/$dv/device/rescan
	must $SS -v reapply /dev/$dv
	expect_grep "reapply DEVICE after a power cycle" $OUT "^/dev/$dv: re-applied: limited to 2097152 blocks"
	n=$(grep -c ': cdb: ' $ERR)
	others=$(grep ': cdb: ' $ERR | grep -v "^/dev/$dv: " | cut -d: -f1 | sort -u | tr '\n' ' ')
	[ "$n" -gt 0 ] && [ -z "$others" ] || fail "reapply /dev/$dv: commands to other disks: $others"
	echo "ok: reapply /dev/$dv: $n commands, every one to /dev/$dv"
	size_check tsata 2097152
	# a trial is undone as a trial (a volatile SET MAX: the drive's permanent maximum was
	# never changed), so the permanent limit that follows it still has the one permanent
	# SET MAX of this power cycle
	cap_run tsata restore --yes
	expect_grep "the trial restored as a trial" $OUT "by hpa \\(volatile, as the trial limit was"
	size_check tsata 8388608
	cap_run tsata limit --yes --blocks 2097152
	expect_grep "the permanent limit after the trial" $OUT "limited to 2097152 blocks .*by hpa\$"
	size_check tsata 2097152
	must tcmu_power_cycle tsata
	echo 1 > /sys/block/$dv/device/rescan
	size_check tsata 2097152
	cap_run tsata restore --yes
	size_check tsata 8388608
}
t ss-tcmu-reapply ss_tcmu_reapply

# A file system made while the disk was limited: after the power cycle its
# signature alone does not stop the re-apply (it gives the file system back
# the size it was made at); once mounted, the disk is in use and refused.
ss_tcmu_reapply_inuse() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsata)
	cap_run tsata limit --yes --volatile --blocks 2097152
	size_check tsata 2097152
	must mkfs.ext4 -q -F -E lazy_itable_init=1,nodiscard /dev/$dv
	must tcmu_power_cycle tsata
	echo 1 > /sys/block/$dv/device/rescan
	expect_eq "full size after the power cycle" "$(cat /sys/block/$dv/size)" 8388608
	ss_json tcmu-reapply-fs reapply -J /dev/$dv
	expect_eq "a signature only: re-applied" "$(jget $F .results[0].status)" reapplied
	size_check tsata 2097152
	mkdir -p /mnt/tra
	must mount -t ext4 /dev/$dv /mnt/tra
	must tcmu_power_cycle tsata
	run $SS reapply -J /dev/$dv
	umount /mnt/tra
	expect_eq "mounted: refused, exit" $RC 3
	cp $OUT /tmp/tra.json
	jflat /tmp/tra.json
	expect_eq "mounted: status" "$(jget /tmp/tra.json.flat .results[0].status)" refused
	expect_match "mounted: the reason" "$(jget /tmp/tra.json.flat .results[0].error)" "mounted at /mnt/tra"
	must sg_readcap -l /dev/$dv
	expect_grep "the refused disk was not touched" $OUT "Number of logical blocks=8388608\$"
	# clean up for the next cases: no signature, the journal closed
	must dd if=/dev/zero of=/dev/$dv bs=1M count=4 conv=fsync
	echo 1 > /sys/block/$dv/device/rescan
	cap_run tsata restore --yes
	size_check tsata 8388608
}
t ss-tcmu-reapply-inuse ss_tcmu_reapply_inuse

# libata.ignore_hpa=1 on the running kernel (a writable module parameter):
# list warns once on stderr (the AHCI disks are libata's); 0 again: silent.
ss_reapply_ignore_hpa() {
	need_ss
	p=/sys/module/libata/parameters/ignore_hpa
	[ -w $p ] || fail "$p is not writable"
	old=$(cat $p)
	echo 1 > $p
	run $SS list -n -o DEVICE
	echo $old > $p
	[ $RC -eq 0 ] || fail "list exited $RC"
	expect_grep "the warning" $ERR "^shortstroke: warning: the running kernel has libata.ignore_hpa=1 \\($p = 1\\)"
	run $SS list -n -o DEVICE
	# list's other stderr line (no protect file in force) is not this warning
	grep -q "ignore_hpa" $ERR && fail "a warning with ignore_hpa=$old: $(cat $ERR)"
	echo "ok: no warning with ignore_hpa=$old"
}
t ss-reapply-ignore-hpa ss_reapply_ignore_hpa
