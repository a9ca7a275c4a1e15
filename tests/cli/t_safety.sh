# Safety: in-use and protected disks are refused before anything is sent.

# a captured sysfs tree: /dev/sdb has a partition mounted at /srv
for m in auto hpa amac dco scsi-resize scsi-format partition; do
	run "$PROG" --sysroot "$HERE/../data/sysroot" limit --method $m --percent 10 --yes /dev/sdb
	expect "captured tree: mounted disk refused ($m)" 3 "" "refused, the disk is in-use: mounted at /srv"
done
run "$PROG" --sysroot "$HERE/../data/sysroot" restore --yes /dev/sdd
expect "captured tree: md member refused by restore" 3 "" "member of md0"

# a loop device holding a mounted filesystem: refused for every method, bytes unchanged
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	img="$TMP/loop.img"
	truncate -s 64M "$img"
	mkfs.ext4 -q -F "$img" >/dev/null 2>&1
	loop=$(losetup -f --show "$img" 2>/dev/null)
	mnt="$TMP/mnt"
	mkdir -p "$mnt"
	if [ -n "$loop" ] && mount "$loop" "$mnt" 2>/dev/null; then
		echo data >"$mnt/file"
		sync
		before=$(md5sum "$img" | cut -d' ' -f1)
		for m in auto hpa amac dco scsi-resize scsi-format partition; do
			run "$PROG" limit --method $m --percent 10 --yes --force "$loop"
			if [ "$RC" -ne 0 ] && printf '%s' "$ERR" | grep -q "$loop"; then
				pass "mounted loop device refused ($m, exit $RC)"
			else
				fail "mounted loop device refused ($m)" "exit $RC" "$ERR"
			fi
		done
		run "$PROG" restore --yes "$loop"
		[ "$RC" -ne 0 ] && pass "mounted loop device: restore refused" || fail "mounted loop device: restore refused"
		sync
		after=$(md5sum "$img" | cut -d' ' -f1)
		[ "$before" = "$after" ] && pass "loop device bytes unchanged" || fail "loop device bytes unchanged"
		umount "$mnt"
	else
		echo "# skipped: cannot attach or mount a loop device here"
	fi
	[ -n "$loop" ] && losetup -d "$loop"
fi

# protected by WWN, and --force --yes is the explicit override in scripts
wwn=$("$PROG" --demo info -J sim:sas15k | python3 -c "import json,sys; print(json.load(sys.stdin)['wwn'])")
printf 'wwn:0x%s\n' "$wwn" >"$SHORTSTROKE_PROTECT_FILE"
run "$PROG" --demo limit --percent 10 --yes sim:sas15k
expect "protected by WWN: refused" 3 "" "protected"
run "$PROG" --demo limit --percent 10 --yes --force sim:sas15k
expect "--force --yes overrides in a script" 0 "by scsi-resize"
run "$PROG" --demo restore --yes --force sim:sas15k
expect "restore with --force" 0 "restored"
: >"$SHORTSTROKE_PROTECT_FILE"
