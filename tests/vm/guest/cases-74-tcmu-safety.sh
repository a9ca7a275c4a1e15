# Safety on the real kernel: a simulated disk holding a mounted ext4 is
# refused by every method (exit 3), its bytes and size unchanged, and no
# capacity-changing command reaches the drive (checked in the handler's
# per-command log).

# changing_cmds ID FROM_LINE: commands after line FROM_LINE of the handler
# log that would change drive ID's capacity (SET MAX, AMAC set/freeze,
# DCO SET, MODE SELECT, FORMAT UNIT), one per line.
changing_cmds() {
	tail -n +$(($2 + 1)) $SIMD_LOG | awk -v id="$1" '
		$2 != id || $4 !~ /^\[/ { next }
		{
			sub(/^[^[]*\[/, ""); sub(/\].*/, "")
			n = split($0, b, " ")
			op = b[1]
			if (op == "15" || op == "55" || op == "04") { print; next }
			if (op == "85" && n >= 15) { cmd = b[15]; feat = b[5] }
			else if (op == "a1" && n >= 10) { cmd = b[10]; feat = b[4] }
			else next
			if (cmd == "37" || cmd == "f9" || cmd == "39" || cmd == "8b") print
			else if (cmd == "78" && (feat == "02" || feat == "03")) print
			else if (cmd == "b1" && feat != "c2") print
		}'
}

ss_tcmu_inuse() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tfs)
	# no lazy init: the kernel zeroing inode tables after mount would change the
	# bytes this case checks for untouched
	must mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -L tcmu-fs /dev/$dv
	mkdir -p /mnt/tfs
	must mount -t ext4 /dev/$dv /mnt/tfs
	echo "kept safe" > /mnt/tfs/file
	sync
	must dd if=/dev/$dv of=/tmp/tfs.before bs=1M count=8 iflag=direct
	sum0=$(md5sum < /tmp/tfs.before)
	size0=$(cat /sys/block/$dv/size)
	from=$(wc -l < $SIMD_LOG)
	bad=""
	for m in auto amac hpa dco scsi-resize scsi-format partition; do
		if [ $m = auto ]; then
			run $SS limit --yes --percent 50 /dev/$dv
		else
			run $SS limit --yes --percent 50 --method $m /dev/$dv
		fi
		[ $RC -eq 3 ] || bad="$bad $m:exit$RC"
	done
	run $SS restore --yes /dev/$dv
	[ $RC -eq 3 ] || bad="$bad restore:exit$RC"
	list_state $dv
	st=$STATE
	must dd if=/dev/$dv of=/tmp/tfs.after bs=1M count=8 iflag=direct
	sum1=$(md5sum < /tmp/tfs.after)
	size1=$(cat /sys/block/$dv/size)
	sent=$(changing_cmds tfs $from)
	run cat /mnt/tfs/file
	got=$(cat $OUT)
	run umount /mnt/tfs
	[ -z "$bad" ] || fail "not refused with exit 3:$bad"
	expect_match "$dv state" "$st" '^in-use.*mounted'
	expect_eq "first 8 MiB md5" "$sum1" "$sum0"
	expect_eq "size (sectors)" "$size1" "$size0"
	expect_eq "file" "$got" "kept safe"
	[ -z "$sent" ] || fail "capacity-changing commands reached the drive: $sent"
}
t ss-tcmu-inuse-mounted ss_tcmu_inuse
