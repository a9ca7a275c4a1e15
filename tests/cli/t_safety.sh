# Safety: in-use and protected disks are refused before anything is sent.

# a captured sysfs tree: /dev/sdb has a partition mounted at /srv
for m in auto hpa amac dco scsi-resize scsi-format partition; do
	run "$PROG" --sysroot "$HERE/../data/sysroot" limit --method $m --percent 10 --yes /dev/sdb
	expect "captured tree: mounted disk refused ($m)" 3 "" "refused, the disk is in-use: mounted at /srv"
done
run "$PROG" --sysroot "$HERE/../data/sysroot" restore --yes /dev/sdd
expect "captured tree: md member refused by restore" 3 "" "member of md0"

# a captured tree's stand-in node holding a filesystem: the signature alone makes the disk in
# use (sde has no mount, no holder, no partition). Without the check the refusal would be
# "no commands can be sent" (exit 2), not this.
if command -v mkfs.ext4 >/dev/null; then
	cp -a "$HERE/../data/sysroot" "$TMP/sysroot"
	run "$PROG" --sysroot "$TMP/sysroot" limit --percent 10 --yes /dev/sde
	expect "captured tree: a disk with nothing on it is not refused for safety" 2 "" \
		"part of the captured tree"
	truncate -s 8M "$TMP/sysroot/dev/sde"
	mkfs.ext4 -q -F "$TMP/sysroot/dev/sde" >/dev/null 2>&1
	run "$PROG" --sysroot "$TMP/sysroot" limit --percent 10 --yes /dev/sde
	expect "captured tree: an ext4 signature makes the disk in use" 3 "" \
		"/dev/sde: refused, the disk is in-use: filesystem ext4"
else
	skip "captured tree: ext4 signature" "mkfs.ext4 not found"
fi

# a loop device holding a mounted filesystem: refused before anything is sent, for every
# method, because it is not a SCSI or ATA disk (the in-use checks of kernel disks are
# tested above on a captured tree and on real disks in tests/vm); its bytes stay as they were
loop_case() {
	img="$TMP/loop.img"
	truncate -s 64M "$img"
	mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || { skip "mounted loop device" "mkfs.ext4 failed"; return; }
	loop=$(losetup -f --show "$img" 2>/dev/null)
	[ -n "$loop" ] || { skip "mounted loop device" "cannot attach a loop device here"; return; }
	mnt="$TMP/mnt"
	mkdir -p "$mnt"
	if ! mount "$loop" "$mnt" 2>/dev/null; then
		losetup -d "$loop"
		skip "mounted loop device" "cannot mount a loop device here"
		return
	fi
	echo data >"$mnt/file"
	sync
	before=$(md5sum "$img" | cut -d' ' -f1)
	why="$loop is a loop device, not a SCSI or ATA disk"
	for m in auto hpa amac dco scsi-resize scsi-format partition; do
		run "$PROG" limit --method $m --percent 10 --yes --force "$loop"
		expect "mounted loop device refused ($m)" 2 "" "$why"
	done
	run "$PROG" restore --yes --force --to-native "$loop"
	expect "mounted loop device: restore refused" 2 "" "$why"
	run "$PROG" bench --workload seq-write --destructive --time 1s --yes --force "$loop"
	# bench writes to a block device that is not a disk only when it is free:
	# the in-use check itself refuses it, --force or not
	expect "mounted loop device: bench --destructive refused" 3 "" "$loop: refused, the device is in use: mounted at"
	sync
	after=$(md5sum "$img" | cut -d' ' -f1)
	[ "$before" = "$after" ] && pass "loop device bytes unchanged" || fail "loop device bytes unchanged"
	umount "$mnt"
	losetup -d "$loop"
}
if [ "$(id -u)" != 0 ]; then
	skip "mounted loop device" "needs root"
elif ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	skip "mounted loop device" "losetup or mkfs.ext4 not found"
else
	loop_case
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

# a protect file that was named but cannot be read protects nothing: exit 2, nothing sent
blocks_of() {
	"$PROG" --demo info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"
}
before=$(blocks_of sim:sas15k)
run "$PROG" --demo --protect-file "$TMP/prot.conff" limit --size 100GB --yes sim:sas15k
expect "--protect-file with a typo: exit 2" 2 "" "--protect-file $TMP/prot.conff: no such file"
run env SHORTSTROKE_PROTECT_FILE="$TMP/nope.conf" "$PROG" --demo limit --size 100GB --yes sim:sas15k
expect "SHORTSTROKE_PROTECT_FILE missing: exit 2" 2 "" "SHORTSTROKE_PROTECT_FILE $TMP/nope.conf: no such file"
printf 'serial:JWV2S8KC\n' >"$TMP/unreadable.conf"
chmod 000 "$TMP/unreadable.conf"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	run setpriv --reuid=65534 --regid=65534 --clear-groups env SHORTSTROKE_STATE_DIR="$TMP/nobody" \
		"$PROG" --demo --protect-file "$TMP/unreadable.conf" limit --size 100GB --yes sim:sas15k
	expect "unreadable --protect-file: exit 2" 2 "" "Permission denied"
elif [ "$(id -u)" != 0 ]; then
	run "$PROG" --demo --protect-file "$TMP/unreadable.conf" limit --size 100GB --yes sim:sas15k
	expect "unreadable --protect-file: exit 2" 2 "" "Permission denied"
else
	skip "unreadable --protect-file" "root reads any file and setpriv is missing"
fi
printf 'two words\n' >"$TMP/bad.conf"
run "$PROG" --demo --protect-file "$TMP/bad.conf" limit --size 100GB --yes sim:sas15k
expect "malformed --protect-file: exit 2" 2 "" "bad.conf:1:"
after=$(blocks_of sim:sas15k)
[ "$before" = "$after" ] && pass "bad protect files: nothing was changed" ||
	fail "bad protect files: nothing was changed" "$before -> $after blocks"
# the TUI and the read-only commands check it too
run "$PROG" --demo --protect-file "$TMP/prot.conff" list
expect "list with a missing --protect-file: exit 2" 2 "" "no such file"
# protect add creates the file it is told to
run "$PROG" --demo --protect-file "$TMP/new.conf" protect add sim:sas15k
expect "protect add creates a named file" 0 "protected \($TMP/new.conf\)"
run "$PROG" --demo --protect-file "$TMP/new.conf" info sim:sas15k
expect "info names the protect file in force" 0 "^Protect file: +$TMP/new.conf"
# the default file missing is fine, and info/list say that nothing is protected
if [ ! -e /etc/shortstroke/protect.conf ]; then
	run env -u SHORTSTROKE_PROTECT_FILE "$PROG" --demo info sim:sas15k
	expect "no protect file: info says so" 0 \
		"^Protect file: +none in force \(/etc/shortstroke/protect.conf does not exist\)"
	run env -u SHORTSTROKE_PROTECT_FILE "$PROG" --demo list
	expect "no protect file: list says so" 0 "^sim:sas15k" "no protect file in force"
	run env -u SHORTSTROKE_PROTECT_FILE "$PROG" --demo info -J sim:sas15k
	json_check "no protect file: info -J has protect_file null" "d['protect_file'] is None"
else
	skip "no default protect file" "/etc/shortstroke/protect.conf exists on this machine"
fi

# a batch changes no disk until every named disk has passed its checks
b15=$(blocks_of sim:sas15k)
run "$PROG" --demo limit --size 100GB --yes sim:sas15kk sim:sas15k
expect "batch with a typo: exit 2, the typo named" 2 "" "sim:sas15kk: no such drive"
expect "batch with a typo: the good disk is not sent anything" 2 "" "sim:sas15k: nothing sent"
[ "$(blocks_of sim:sas15k)" = "$b15" ] && pass "batch with a typo: sim:sas15k unchanged" ||
	fail "batch with a typo: sim:sas15k unchanged" "$b15 -> $(blocks_of sim:sas15k)"
run "$PROG" --demo limit --size 300GB --yes sim:sas15k sim:sata250
expect "batch with a size one disk cannot take: exit 2" 2 "" "sim:sata250: .*beyond the native maximum"
[ "$(blocks_of sim:sas15k)" = "$b15" ] && pass "batch with a bad size: sim:sas15k unchanged" ||
	fail "batch with a bad size: sim:sas15k unchanged" "$b15 -> $(blocks_of sim:sas15k)"
serial=$("$PROG" --demo info -J sim:sata250 | python3 -c "import json,sys; print(json.load(sys.stdin)['serial'])")
printf 'serial:%s\n' "$serial" >"$SHORTSTROKE_PROTECT_FILE"
run "$PROG" --demo limit --size 100GB --yes sim:sas15k sim:sata250 sim:nope
expect "batch with a protected disk and a typo: exit 3" 3 "" "sim:sata250: refused, the disk is protected"
expect "batch with a protected disk and a typo: each bad disk named" 3 "" "sim:nope: no such drive"
: >"$SHORTSTROKE_PROTECT_FILE"
[ "$(blocks_of sim:sas15k)" = "$b15" ] && pass "batch with a protected disk: sim:sas15k unchanged" ||
	fail "batch with a protected disk: sim:sas15k unchanged" "$b15 -> $(blocks_of sim:sas15k)"
# restore and bench --destructive too
run "$PROG" --demo limit --size 100GB --yes sim:sas15k
expect "limit sim:sas15k" 0 "limited to"
b15=$(blocks_of sim:sas15k)
run "$PROG" --demo restore --yes sim:sas15k sim:sas15kk
expect "restore batch with a typo: exit 2" 2 "" "sim:sas15k: nothing sent"
[ "$(blocks_of sim:sas15k)" = "$b15" ] && pass "restore batch with a typo: still limited" ||
	fail "restore batch with a typo: still limited" "$b15 -> $(blocks_of sim:sas15k)"
run "$PROG" --demo restore --yes sim:sas15k
expect "restore sim:sas15k" 0 "restored"
run "$PROG" --demo bench --workload seq-write --destructive --time 1s --yes sim:sata250 sim:nope
expect "bench --destructive batch with a typo: exit 2" 2 "" "sim:sata250: nothing sent"
run "$PROG" --demo bench --workload seq-write --destructive --time 1s --yes -J sim:sata250 sim:nope
json_check "bench --destructive batch with a typo: nothing measured" \
	"all(not r['ok'] for r in d['results'])"

# A limit and a restore send nothing to a drive the user did not name: the check that no other
# attached disk shares the serial (the journal's key) reads the other drives' identities from
# what the source keeps of them, not from commands (-v prints every command sent).
run "$PROG" --demo -v limit --percent 20 --yes sim:sata250
expect "a limit of one drive: done" 0
others=$(printf '%s\n' "$ERR" | grep 'cdb:' | grep -v '^sim:sata250: ' | head -3)
[ -z "$others" ] && pass "a limit of one drive sends nothing to the others" ||
	fail "a limit of one drive sends nothing to the others" "$others"
"$PROG" --demo sim power-cycle sim:sata250 >/dev/null # one permanent SET MAX per power cycle
run "$PROG" --demo -v restore --yes sim:sata250
expect "its restore: done" 0
others=$(printf '%s\n' "$ERR" | grep 'cdb:' | grep -v '^sim:sata250: ' | head -3)
[ -z "$others" ] && pass "a restore of one drive sends nothing to the others" ||
	fail "a restore of one drive sends nothing to the others" "$others"
