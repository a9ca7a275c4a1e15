# A disk with unreadable sectors: scsi_debug with opts=2 answers reads of
# LBAs 8192..8207 with MEDIUM ERROR, unrecovered read error (03/11/00).
BAD_LBA=8192
BAD_COUNT=16
DEV_M=""
if sdebug_load 1 dev_size_mb=16 opts=2 medium_error_start=$BAD_LBA \
	medium_error_count=$BAD_COUNT > /tmp/setup.out 2>&1; then
	DEV_M=$(echo $SDEBUG)
	echo "VMTEST INFO scsi_debug with medium errors M=$DEV_M"
else
	echo "VMTEST FAIL setup-scsi-debug-medium: modprobe scsi_debug opts=2 failed"
	sed 's/^/    | /' /tmp/setup.out
	NFAIL=$((NFAIL + 1))
fi

peer_medium() {
	[ -n "$DEV_M" ] || fail "no disk with medium errors"
	sg=$(ls /sys/block/$DEV_M/device/scsi_generic)
	must dd if=/dev/$DEV_M of=/dev/null bs=64k count=$((BAD_LBA / 128)) iflag=direct
	run dd if=/dev/$DEV_M of=/dev/null bs=512 skip=$BAD_LBA count=1 iflag=direct &&
		fail "reading LBA $BAD_LBA succeeded"
	expect_grep "dd error (EIO or ENODATA)" $ERR "I/O error|No data available"
	# The same LBA through the sg node: sg_dd exits 3, "medium or hardware error".
	run sg_dd if=/dev/$sg of=/dev/null bs=512 skip=$((BAD_LBA + 4)) count=1
	expect_eq "sg_dd exit status" $RC 3
	expect_grep "sg_dd" $ERR "unrecovered error"
	must dd if=/dev/$DEV_M of=/dev/null bs=512 skip=$((BAD_LBA + BAD_COUNT)) count=16 iflag=direct
}
t peer-medium-error peer_medium

# The bad sectors do not get in the way of identifying the disk.
ss_info_bad() {
	[ -n "$DEV_M" ] || fail "no disk with medium errors"
	ss_json info-bad info -J /dev/$DEV_M
	expect_eq capacity_bytes "$(jget $F .capacity_bytes)" 16777216
}
t ss-info-medium-error-disk ss_info_bad

# A full qualification scans the whole disk through the kernel: the unreadable
# range is reported exactly, and the disk FAILs.
ss_qualify_bad() {
	[ -n "$DEV_M" ] || fail "no disk with medium errors"
	need_ss
	run $SS qualify --profile full /dev/$DEV_M
	expect_eq "qualify exit status" $RC 1
	expect_grep "qualify output" $OUT "scan +FAIL"
	expect_grep "bad-block range" $OUT "$BAD_LBA-$((BAD_LBA + BAD_COUNT - 1))"
}
t ss-qualify-medium-errors ss_qualify_bad
