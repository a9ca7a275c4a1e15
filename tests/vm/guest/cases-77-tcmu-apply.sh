# apply / array on the real kernel: plans applied to TCMU-served simulated drives (HPA on
# SATA, MODE SELECT resize on SAS), the real mdadm and md, mkfs.ext4, a checksummed file
# written and read back, array undo back to the original capacities (sysfs, hdparm -N,
# sg_readcap), a kill -9 in the middle of apply, array replace of a failed member.
# The drives: tap1 tap2 (SATA), tbp1..tbp7 (SAS), 512 MiB each; stroke 12.5% = 64 MiB per member
# (small: md resyncs them in seconds).

AP_FULL=1048576
AP_LIM=131072

# ap_sizes BLOCKS ID...: each drive has BLOCKS 512-byte blocks, by sysfs and by the drive
# (hdparm -N on SATA: the accessible max; sg_readcap on SAS)
ap_sizes() {
	_want=$1
	shift
	for _id in "$@"; do
		_dv=$(tcmu_dev $_id)
		[ -n "$_dv" ] || fail "no disk for sim:$_id"
		expect_eq "$_id ($_dv) bytes (sysfs)" $(sys_bytes $_dv) $((_want * 512))
		case $_id in
		tap*)
			run hdparm -N /dev/$_dv
			expect_grep "$_id hdparm -N" $OUT "max sectors += $_want/$AP_FULL"
			;;
		*)
			run sg_readcap /dev/$_dv
			expect_grep "$_id sg_readcap" $OUT "Number of logical blocks=$_want\$"
			;;
		esac
	done
}

# ap_devs ID...: their /dev nodes
ap_devs() {
	for _id in "$@"; do echo /dev/$(tcmu_dev $_id); done
}

# ap_write NAME: a checksummed file on the array's filesystem, read back after a remount
ap_write() {
	mkdir -p /mnt/$1
	must mount -t ext4 /dev/md/$1 /mnt/$1
	must dd if=/dev/urandom of=/mnt/$1/data bs=1M count=8
	(cd /mnt/$1 && sha256sum data) > /tmp/$1.sum
	must umount /mnt/$1
	ap_readback $1
}
ap_readback() {
	must mount -t ext4 /dev/md/$1 /mnt/$1
	(cd /mnt/$1 && sha256sum -c /tmp/$1.sum) || fail "$1: the file does not read back"
	echo "ok: $1: the checksummed file reads back"
}

# ap_sync_wait NAME: until md's resync or recovery is over (mdadm --wait exits 1 when there
# was none to wait for)
ap_sync_wait() {
	_k=$(readlink /dev/md/$1)
	_k=${_k##*/}
	_i=0
	while [ "$(cat /sys/block/$_k/md/sync_action 2>/dev/null)" != idle ] && [ $_i -lt 600 ]; do
		sleep 0.2
		_i=$((_i + 1))
	done
	expect_eq "$1 sync_action" "$(cat /sys/block/$_k/md/sync_action)" idle
}

# ap_apply LEVEL NAME ID...: plan LEVEL at stroke 12.5% over the drives, apply it with ext4,
# check md and the members, write the file
ap_apply() {
	_lvl=$1 _name=$2
	shift 2
	must $SS plan --level $_lvl --stroke 12.5% $(ap_devs "$@") -O /tmp/$_name.json
	must $SS apply /tmp/$_name.json --name $_name --mkfs ext4 --yes
	expect_grep "$_name created" $OUT "/dev/md/$_name: created: RAID $_lvl over $# members, ext4"
	expect_grep "$_name ARRAY line" $OUT "^ARRAY /dev/md/$_name metadata=1.2 UUID="
	run mdadm --detail --export /dev/md/$_name
	expect_grep "$_name md level" $OUT "^MD_LEVEL=raid$_lvl\$"
	expect_grep "$_name md devices" $OUT "^MD_DEVICES=$#\$"
	ap_sizes $AP_LIM "$@"
	run $SS array status $_name
	[ "$(grep -c "the limit is $AP_LIM: limited" $OUT)" = $# ] || fail "array status: not every member limited"
	ap_write $_name
}

# ap_undo NAME ID...: undo refused while mounted, then done; members back to full
ap_undo() {
	_name=$1
	shift
	run $SS array undo $_name --yes
	expect_eq "array undo of a mounted array: exit" $RC 3
	must umount /mnt/$_name
	_k=$(readlink /dev/md/$_name)
	_k=${_k##*/}
	[ -n "$_k" ] && [ -e /sys/block/$_k/md ] || fail "/dev/md/$_name is no md device before undo"
	must $SS array undo $_name --yes
	[ -e /sys/block/$_k/md ] && fail "$_k (/dev/md/$_name) still there after undo"
	grep "^$_k " /proc/mdstat && fail "$_k still in /proc/mdstat"
	ap_sizes $AP_FULL "$@"
	for _id in "$@"; do
		run mdadm --examine /dev/$(tcmu_dev $_id)
		[ $RC -ne 0 ] || fail "$_id: md superblock left after undo"
	done
}

# these cases build and resync real arrays through one handler thread: more time each
AP_CASE_TIMEOUT=$CASE_TIMEOUT
[ "$CASE_TIMEOUT" -lt 200 ] && CASE_TIMEOUT=200

ss_tcmu_apply_raid0() {
	need_tcmu
	ap_apply 0 ap0 tap1 tbp1
	# bench on the array and on one member, beside the plan's prediction (docs/arrays.md)
	must umount /mnt/ap0
	for _d in /dev/md/ap0 /dev/$(tcmu_dev tbp1); do
		must $SS bench $_d --workload seq-read --qd 1,4 --time 1s
		sed "s|^|VMTEST INFO bench $_d: |" $OUT > /dev/console
	done
	must $SS plan --check /tmp/ap0.json
	grep -E "SEQ|^ *1 " $OUT | sed "s|^|VMTEST INFO plan ap0: |" > /dev/console
	must mount -t ext4 /dev/md/ap0 /mnt/ap0
	# one non-volatile SET MAX per power cycle: the HPA member's restore needs one first
	must tcmu_power_cycle tap1
	ap_undo ap0 tap1 tbp1
}
t ss-tcmu-apply-raid0-undo ss_tcmu_apply_raid0

ss_tcmu_apply_raid10() {
	need_tcmu
	must tcmu_power_cycle tap1 tap2
	ap_apply 10 ap10 tap1 tbp1 tap2 tbp2
	run mdadm --detail --export /dev/md/ap10
	must tcmu_power_cycle tap1 tap2
	ap_undo ap10 tap1 tbp1 tap2 tbp2
}
t ss-tcmu-apply-raid10-undo ss_tcmu_apply_raid10

ss_tcmu_apply_raid5_replace() {
	need_tcmu
	ap_apply 5 ap5 tbp1 tbp2 tbp3
	must umount /mnt/ap5
	old=/dev/$(tcmu_dev tbp2)
	new=/dev/$(tcmu_dev tbp4)
	ap_sync_wait ap5
	must mdadm /dev/md/ap5 --fail $old
	must $SS array replace ap5 $old $new --yes --wait
	expect_grep "replace: added" $OUT "added in the place of $old"
	# the failed member taken out is let go at once: its superblock wiped, its capacity back
	expect_grep "replace: the failed member let go" $OUT "left the array, back to its original capacity"
	expect_eq "the new member's bytes: the members' limit" $(sys_bytes ${new#/dev/}) $((AP_LIM * 512))
	ap_sync_wait ap5
	run mdadm --detail /dev/md/ap5
	expect_grep "ap5 clean after the rebuild" $OUT "State : clean *\$"
	grep -q "$new" $OUT || fail "$new is not in the array"
	ap_sizes $AP_FULL tbp2
	run mdadm --examine $old
	[ $RC -ne 0 ] || fail "tbp2: md superblock left after it was replaced"
	ap_readback ap5
	ap_undo ap5 tbp1 tbp4 tbp3
}
t ss-tcmu-apply-raid5-replace-undo ss_tcmu_apply_raid5_replace

# RAID 50 as md builds it (members of 32 MiB): a RAID 5 per group (/dev/md/ap50.0 over tbp1-3, ap50.1 over
# tbp4-6), a RAID 0 over them, one record; a failed member of the second group replaced by
# tbp7 in its inner array (the member taken out wiped and restored at once), the file read
# back; undo stops the three arrays and restores every member.
ss_tcmu_apply_raid50() {
	need_tcmu
	# (a stroke of 32 MiB: md resyncs two RAID 5 and rebuilds one within the case's time)
	AP50_LIM=65536
	must $SS plan --level 50 --stroke 6.25% $(ap_devs tbp1 tbp2 tbp3 tbp4 tbp5 tbp6) -O /tmp/ap50.json
	rm -f /tmp/ap50.conf
	must $SS apply /tmp/ap50.json --name ap50 --mkfs ext4 --conf /tmp/ap50.conf --yes
	expect_grep "ap50 created" $OUT \
		"/dev/md/ap50: created: RAID 50 over 6 members: RAID 0 over 2 RAID 5 arrays of 3, ext4"
	run mdadm --detail --export /dev/md/ap50
	expect_grep "ap50: md RAID 0" $OUT "^MD_LEVEL=raid0\$"
	expect_grep "ap50: over 2 devices" $OUT "^MD_DEVICES=2\$"
	for _k in 0 1; do
		run mdadm --detail --export /dev/md/ap50.$_k
		expect_grep "ap50.$_k: md RAID 5" $OUT "^MD_LEVEL=raid5\$"
		expect_grep "ap50.$_k: over 3 devices" $OUT "^MD_DEVICES=3\$"
	done
	run mdadm --detail /dev/md/ap50.1
	for _id in tbp4 tbp5 tbp6; do
		grep -q "/dev/$(tcmu_dev $_id)\$" $OUT || fail "$_id is not in /dev/md/ap50.1"
	done
	expect_eq "ap50: ARRAY lines (two inner, one outer)" "$(grep -c '^ARRAY /dev/md/ap50' /tmp/ap50.conf)" 3
	ap_sizes $AP50_LIM tbp1 tbp2 tbp3 tbp4 tbp5 tbp6
	ap_write ap50
	must umount /mnt/ap50
	ap_sync_wait ap50.0
	ap_sync_wait ap50.1
	old=/dev/$(tcmu_dev tbp5)
	new=/dev/$(tcmu_dev tbp7)
	must mdadm /dev/md/ap50.1 --fail $old
	must $SS array replace ap50 $old $new --yes --wait
	expect_grep "ap50 replace: in the inner array" $OUT "^/dev/md/ap50.1: .* added in the place of $old"
	expect_grep "ap50 replace: rebuilt" $OUT "^/dev/md/ap50.1: rebuild done"
	expect_grep "ap50 replace: the member taken out let go" $OUT "left the array, back to its original capacity"
	ap_sizes $AP50_LIM tbp7
	ap_sizes $AP_FULL tbp5
	run mdadm --examine $old
	[ $RC -ne 0 ] || fail "tbp5: md superblock left after it was replaced"
	run mdadm --detail /dev/md/ap50.1
	expect_grep "ap50.1 clean after the rebuild" $OUT "State : clean *\$"
	grep -q "$new\$" $OUT || fail "$new is not in /dev/md/ap50.1"
	run $SS array status ap50
	expect_grep "ap50 status: the new member in its inner array" $OUT ", in /dev/md/ap50.1\$"
	expect_grep "ap50 status: the one replaced" $OUT "replaced, left the array: $AP_FULL blocks \\(restored\\)\$"
	ap_readback ap50
	ap_undo ap50 tbp1 tbp2 tbp3 tbp4 tbp6 tbp7
	for _k in 0 1; do
		[ -e /dev/md/ap50.$_k ] && [ -e /sys/block/$(readlink /dev/md/ap50.$_k | sed 's|.*/||')/md ] &&
			fail "/dev/md/ap50.$_k still there after undo"
	done
	expect_eq "ap50 undo: the ARRAY lines taken out" "$(grep -c '^ARRAY' /tmp/ap50.conf)" 0
}
t ss-tcmu-apply-raid50-replace-undo ss_tcmu_apply_raid50

# kill -9 right after mdadm --create (a wrapper around the real mdadm does it): the next
# apply finds the record, rolls the unfinished run back (stops the real array, wipes its
# superblocks, restores the members) and applies afresh; array undo then restores all.
ss_tcmu_apply_kill() {
	need_tcmu
	printf '#!/bin/sh\nmdadm "$@"\nrc=$?\ncase " $* " in *" --create "*) kill -9 $PPID ;; esac\nexit $rc\n' \
		> /tmp/mdadm-kill.sh
	chmod +x /tmp/mdadm-kill.sh
	must $SS plan --level 0 --stroke 12.5% $(ap_devs tbp1 tbp3) -O /tmp/apk.json
	# a member holding a filesystem is refused before anything is changed
	must mkfs.ext4 -F -q /dev/$(tcmu_dev tbp3)
	run $SS apply /tmp/apk.json --name apk --yes
	expect_eq "apply with a member in use: exit" $RC 3
	expect_grep "the member in use is named" $ERR "$(tcmu_dev tbp3)"
	ap_sizes $AP_FULL tbp1 tbp3
	must dd if=/dev/zero of=/dev/$(tcmu_dev tbp3) bs=1M count=4
	run env SHORTSTROKE_MDADM=/tmp/mdadm-kill.sh $SS apply /tmp/apk.json --name apk --yes
	expect_eq "apply killed: exit" $RC 137
	expect_grep "the record says creating" /var/lib/shortstroke/arrays/apk.json '"state": *"creating"'
	[ -e /dev/md/apk ] || fail "the killed run's array is not there"
	ap_sizes $AP_LIM tbp1 tbp3
	must $SS apply /tmp/apk.json --name apk --yes
	expect_grep "rolled back first" $ERR "stopped at 'mdadm --create': rolling it back first"
	expect_grep "then applied" $OUT "/dev/md/apk: created"
	must $SS apply /tmp/apk.json --name apk --yes
	expect_grep "a re-run is a no-op" $OUT "already applied"
	must $SS array undo apk --yes
	ap_sizes $AP_FULL tbp1 tbp3
}
t ss-tcmu-apply-kill-undo ss_tcmu_apply_kill
CASE_TIMEOUT=$AP_CASE_TIMEOUT
