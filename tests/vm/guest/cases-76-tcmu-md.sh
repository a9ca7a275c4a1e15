# A short-stroked md array: two simulated disks (one SATA limited by HPA,
# one SAS by MODE SELECT) limited to half, assembled by mdadm as RAID 0;
# the array's size is what the limits give, not what the disks had.
ss_tcmu_md() {
	need_tcmu
	d1=$(tcmu_dev tmd1)
	d2=$(tcmu_dev tmd2)
	must $SS limit --yes --percent 50 /dev/$d1 /dev/$d2
	lim1=$(sys_bytes $d1)
	lim2=$(sys_bytes $d2)
	expect_eq "$d1 bytes" $lim1 2147483648
	expect_eq "$d2 bytes" $lim2 2147483648
	run mdadm --create /dev/md7 --run --level=0 --chunk=512 --raid-devices=2 \
		--metadata=1.2 /dev/$d1 /dev/$d2
	ok=$RC
	run mdadm --examine /dev/$d1
	off=$(awk '/Data Offset/ { print $4; exit }' $OUT)
	run cat /proc/mdstat
	mdstat_kib=$(awk '$1 == "md7" { getline; print $1; exit }' $OUT)
	run mdadm --detail /dev/md7
	detail_kib=$(awk -F': ' '/Array Size/ { split($2, a, " "); print a[1]; exit }' $OUT)
	list_state $d1
	st=$STATE
	# a member of an active array is refused
	run $SS limit --yes --percent 40 /dev/$d1
	rc_member=$RC
	run mdadm --stop /dev/md7
	run mdadm --zero-superblock /dev/$d1 /dev/$d2
	[ $ok -eq 0 ] || fail "mdadm --create failed"
	[ -n "$off" ] || fail "no data offset in mdadm --examine"
	# per member: (limit - data offset) rounded down to the chunk
	per=$(( (lim1 / 1024 - off / 2) / 512 * 512 ))
	expect_eq "md7 size in /proc/mdstat (KiB)" "$mdstat_kib" $((2 * per))
	expect_eq "md7 Array Size (KiB)" "$detail_kib" $((2 * per))
	expect_match "$d1 state while a member" "$st" '^in-use.*md7'
	expect_eq "limit on an active member: exit" $rc_member 3
	# one non-volatile SET MAX per power cycle (tmd1 is SATA/HPA)
	must tcmu_power_cycle tmd1
	must $SS restore --yes /dev/$d1 /dev/$d2
	expect_eq "$d1 bytes restored" $(sys_bytes $d1) 4294967296
	expect_eq "$d2 bytes restored" $(sys_bytes $d2) 4294967296
}
t ss-tcmu-md-raid0 ss_tcmu_md
