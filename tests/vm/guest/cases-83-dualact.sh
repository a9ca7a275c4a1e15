# A dual-actuator drive (issue 29.1): the simulator's SATA drive with two
# actuators served through TCMU. The kernel reads its ranges from VPD page
# B9h (sd, since Linux 5.19) and shows them in
# queue/independent_access_ranges; shortstroke reads them through SG_IO
# (the ATA log 47h through SAT), refuses an end cut, and the partition
# method puts a partition at the outer edge of each range, which md RAID 0
# stripes; undone (array stopped, superblocks zeroed, restore).
# Its own TCMU rig (cases-79 tore the shared one down).
DUAL_OK=""
if want ss-tcmu-dualact; then
	. /vmtest/tcmu.sh
	if tcmu_setup /vmtest/dualact-rig.json /var/lib/shortstroke-dualact /tmp/simd-dual.log \
		> /tmp/dual-setup.out 2>&1; then
		DUAL_OK=1
	else
		NFAIL=$((NFAIL + 1))
		echo "VMTEST FAIL setup-tcmu-dualact: see below"
		sed 's/^/    | /' /tmp/dual-setup.out
		tail -n 20 /tmp/simd-dual.log 2>/dev/null | sed 's/^/    simd| /'
	fi
fi

# the kernel's ranges of sdX: "sector+nr_sectors ..." (sd reads VPD B9h on a
# revalidation after the first scan: a rescan when none are there yet)
dual_iar() {
	_q=/sys/block/$1/queue/independent_access_ranges
	[ -d $_q/0 ] || echo 1 > /sys/block/$1/device/rescan
	for _r in $_q/[0-9]*; do
		[ -d "$_r" ] && printf '%s+%s ' "$(cat $_r/sector)" "$(cat $_r/nr_sectors)"
	done
}

ss_dualact() {
	[ -n "$DUAL_OK" ] || fail "TCMU setup failed (see setup-tcmu-dualact)"
	dv=$(tcmu_dev tdual)
	[ -n "$dv" ] || fail "no sd disk for sim:tdual"
	expect_eq "the kernel's independent_access_ranges" "$(dual_iar $dv)" \
		"0+4194304 4194304+4194304 "
	ss_json dual-info info -J /dev/$dv
	expect_eq "info: actuators" "$(jget $F .actuators)" 2
	expect_eq "info: range 1" "$(jget $F .actuator_ranges[1].lba)" 4194304
	run $SS limit --percent 25 --yes /dev/$dv
	expect_eq "an end cut: refused" "$RC" 3
	expect_grep "... saying why" $ERR "actuator 1.s range cut away"
	must $SS limit --percent 25 --method partition --yes /dev/$dv
	# 25 % of each 4194304-block range, at its outer edge, on MiB boundaries
	i=0
	while [ ! -b /dev/${dv}2 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	expect_eq "partition 1" "$(cat /sys/block/$dv/${dv}1/start)+$(cat /sys/block/$dv/${dv}1/size)" \
		"2048+1046528"
	expect_eq "partition 2" "$(cat /sys/block/$dv/${dv}2/start)+$(cat /sys/block/$dv/${dv}2/size)" \
		"4194304+1048576"
	# striped: md RAID 0 over the two actuators' partitions
	must mdadm --create /dev/md/dualact --run --level=0 --raid-devices=2 --chunk=512 \
		/dev/${dv}1 /dev/${dv}2
	expect_grep "md raid0 over both partitions" /proc/mdstat "raid0 ${dv}2\[1\] ${dv}1\[0\]|raid0 ${dv}1\[0\] ${dv}2\[1\]"
	must dd if=/dev/md/dualact of=/dev/null bs=1M count=16 iflag=direct
	# undone
	must mdadm --stop /dev/md/dualact
	must mdadm --zero-superblock /dev/${dv}1 /dev/${dv}2
	must $SS restore --yes /dev/$dv
	i=0
	while [ -b /dev/${dv}1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/${dv}1 ] && fail "partition 1 still there after restore"
	ss_json dual-after info -J /dev/$dv
	expect_eq "restored: free" "$(jget $F .state)" free
	return 0
}
t ss-tcmu-dualact ss_dualact

if [ -n "$DUAL_OK" ]; then
	mdadm --stop /dev/md/dualact > /dev/null 2>&1
	tcmu_teardown > /dev/null 2>&1 || echo "VMTEST INFO tcmu-dualact: teardown reported an error"
	DUAL_OK=""
fi
