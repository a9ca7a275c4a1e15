# In-use detection on a real kernel: a mounted file system and md members.
# The state must say why (the mount, the array), not only "in-use": disk C
# also holds a file system and disk A a partition table, either of which
# makes it in use on its own.

ss_inuse_mounted() {
	must grep "^/dev/$DEV_C /mnt/fs " /proc/mounts
	list_state $DEV_C
	expect_match "$DEV_C state" "$STATE" '^in-use.*mounted'
}
t ss-inuse-mounted ss_inuse_mounted

# md_make DEV PART...: a RAID1 of PARTs (no resync), checked in /proc/mdstat.
md_make() {
	_md=$1
	shift
	must mdadm --create /dev/$_md --run --assume-clean --level=1 --raid-devices=2 \
		--metadata=1.2 "$@"
	must cat /proc/mdstat
	expect_grep "$_md active" $OUT "^$_md : active raid1"
}
md_drop() {
	_md=$1
	shift
	run mdadm --stop /dev/$_md
	run mdadm --zero-superblock "$@"
}

# Whole-disk members (two scsi_debug disks); free again once the array is gone.
ss_inuse_md_whole() {
	need_ss
	md_make md0 /dev/$DEV_D /dev/$DEV_E
	list_state $DEV_D
	sd=$STATE
	list_state $DEV_E
	se=$STATE
	md_drop md0 /dev/$DEV_D /dev/$DEV_E
	expect_match "$DEV_D state" "$sd" '^in-use.*md0'
	expect_match "$DEV_E state" "$se" '^in-use.*md0'
	list_state $DEV_D
	expect_eq "$DEV_D state after mdadm --stop --zero-superblock" "$STATE" free
}
t ss-inuse-md-member ss_inuse_md_whole

# Partitions as members: the disk holding them is in use.
ss_inuse_md_part() {
	need_ss
	md_make md1 /dev/${DEV_A}1 /dev/${DEV_A}2
	list_state $DEV_A
	sa=$STATE
	md_drop md1 /dev/${DEV_A}1 /dev/${DEV_A}2
	expect_match "$DEV_A state" "$sa" '^in-use.*md1'
}
t ss-inuse-md-partition ss_inuse_md_part
