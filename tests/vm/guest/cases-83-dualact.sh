# A dual-actuator drive (issue 29.1): the simulator's SATA drive with two
# actuators served through TCMU. The kernel reads its ranges from VPD page
# B9h (sd, since Linux 5.19) and shows them in
# queue/independent_access_ranges; shortstroke reads them through SG_IO
# (the ATA log 47h through SAT), refuses an end cut, and the partition
# method puts a partition at the outer edge of each range; apply builds an
# md RAID 0 per disk over them and a RAID 0 over those; undone.
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
	# apply: a RAID 0 of the two disks, each an md RAID 0 over its actuators'
	# partitions (real mdadm, real md), then undone
	dv2=$(tcmu_dev tdual2)
	[ -n "$dv2" ] || fail "no sd disk for sim:tdual2"
	must $SS plan --level 0 --stroke 25% /dev/$dv /dev/$dv2 -O /tmp/dual-plan.json
	must $SS apply /tmp/dual-plan.json --name dualact --yes
	expect_grep "md: each disk's partitions striped" /proc/mdstat "raid0 ${dv}2\[1\] ${dv}1\[0\]|raid0 ${dv}1\[0\] ${dv}2\[1\]"
	expect_grep "md: the array over them" /proc/mdstat "raid0 md[0-9]+\[1\] md[0-9]+\[0\]|raid0 md[0-9]+\[0\] md[0-9]+\[1\]"
	# 25 % of each 4194304-block range, at its outer edge, on MiB boundaries
	expect_eq "partition 1" "$(cat /sys/block/$dv/${dv}1/start)+$(cat /sys/block/$dv/${dv}1/size)" \
		"2048+1046528"
	expect_eq "partition 2" "$(cat /sys/block/$dv/${dv}2/start)+$(cat /sys/block/$dv/${dv}2/size)" \
		"4194304+1048576"
	expect_eq "partition 2 of the second disk" \
		"$(cat /sys/block/$dv2/${dv2}2/start)+$(cat /sys/block/$dv2/${dv2}2/size)" "4194304+1048576"
	must $SS array undo dualact --yes
	grep -q "${dv}1\|${dv2}2" /proc/mdstat && fail "md still holds a partition after undo"
	i=0
	while [ -b /dev/${dv}1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/${dv}1 ] && fail "partition 1 still there after undo"
	return 0
}
t ss-tcmu-dualact ss_dualact

if [ -n "$DUAL_OK" ]; then
	for md in /dev/md/dualact /dev/md/dualact.0 /dev/md/dualact.1; do
		mdadm --stop $md > /dev/null 2>&1
	done
	tcmu_teardown > /dev/null 2>&1 || echo "VMTEST INFO tcmu-dualact: teardown reported an error"
	DUAL_OK=""
fi
