# limit on QEMU's AHCI disks through libata: what the drive cannot do is
# refused with nothing changed; the partition method works through SG_IO.

# QEMU's IDENTIFY advertises no HPA, AMAC or DCO (and aborts SET MAX).
ss_limit_ahci_unsupported() {
	need_ss
	before=$(sys_bytes $DEV_B)
	run $SS limit --method hpa --percent 50 --yes /dev/$DEV_B
	[ $RC -eq 1 ] || fail "limit --method hpa exited $RC, expected 1"
	expect_grep stderr $ERR "does not support the hpa method"
	run $SS limit --percent 50 --yes /dev/$DEV_B
	[ $RC -eq 1 ] || fail "limit (auto) exited $RC, expected 1"
	expect_grep stderr $ERR "supports none of AMAC, HPA or a SCSI resize"
	expect_eq size-unchanged "$(sys_bytes $DEV_B)" "$before"
}
t ss-limit-ahci-unsupported ss_limit_ahci_unsupported

# The partition method: a GPT written with WRITE(16) through libata's SAT,
# the kernel re-reads it (BLKRRPART); restore wipes it again.
ss_limit_ahci_partition() {
	need_ss
	before=$(sys_bytes $DEV_B)
	run $SS limit --method partition --size 512MiB --force --yes /dev/$DEV_B
	[ $RC -eq 0 ] || fail "limit --method partition exited $RC"
	expect_grep stdout $OUT "by partition"
	[ -d /sys/block/$DEV_B/${DEV_B}1 ] || fail "the kernel shows no ${DEV_B}1"
	end=$(( $(cat /sys/block/$DEV_B/${DEV_B}1/start) + $(cat /sys/block/$DEV_B/${DEV_B}1/size) ))
	expect_eq partition-end-blocks "$end" $((512 * 2048))
	expect_eq disk-size-unchanged "$(sys_bytes $DEV_B)" "$before"
	list_state $DEV_B
	expect_match state-after "$STATE" "partition"
	run $SS limit --method partition --size 512MiB --yes /dev/$DEV_B
	[ $RC -eq 3 ] || fail "a second limit on the now-partitioned disk exited $RC, expected 3"
	run $SS restore --yes /dev/$DEV_B
	[ $RC -eq 0 ] || fail "restore of the partition method exited $RC"
	[ ! -d /sys/block/$DEV_B/${DEV_B}1 ] || fail "${DEV_B}1 still there after restore"
	list_state $DEV_B
	expect_eq state-restored "$STATE" free
}
t ss-limit-ahci-partition ss_limit_ahci_partition
