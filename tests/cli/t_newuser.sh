# What a new user (or a hostile tester) tried that changed a disk it should have refused, or
# answered wrongly. What a drive was sent is read from the -v trace: changes() lists the
# commands of a trace that change a drive's capacity, data or settings.

changes() {
	grep -E "\[(ATA SET MAX|ATA SET ACCESSIBLE|ATA FREEZE ACCESSIBLE|ATA DEVICE CONFIGURATION (SET|RESTORE|FREEZE)|ATA SECURITY|ATA WRITE|Mode select|Write|Format|Unmap)" "$1"
}
# run_traced CMD...: as run, with -v's trace of every command sent kept in $TMP/trace and left
# out of ERR (put -v in CMD)
run_traced() {
	OUT=$("$@" 2>"$TMP/trace")
	RC=$?
	ERR=$(grep -v ': cdb: ' "$TMP/trace")
}
# sent_nothing NAME FILE: the trace FILE holds no command that changes a drive
sent_nothing() {
	if changes "$2" >/dev/null; then
		fail "$1" "$(changes "$2")"
	else
		pass "$1"
	fi
}

# --- restore --method dco of a disk shortstroke never limited ---------------------------------
# A vendor's DCO lowered this disk's native max (80 of its 100 GB). Nothing is journaled, and
# the disk is at its (lowered) native max: restore --method dco must not send DEVICE
# CONFIGURATION RESTORE, which would give it the factory 100 GB back.
NU_DCO=$TMP/nu-dco.json
cat >"$NU_DCO" <<'EOF'
{ "time_scale": 0, "drives": [
  { "id": "vdco", "personality": "sata", "model": "VENDOR DCO 80G", "serial": "VDCO0001",
    "firmware": "F1", "wwn": "5000c500c00000d1", "blocks": 156250000, "hpa": true,
    "dco": { "supported": true, "factory_blocks": 195312500 } }
] }
EOF
for m in dco auto; do
	run_traced "$PROG" --rig "$NU_DCO" -v restore --yes ${m:+--method $m} sim:vdco
	if [ $m = dco ]; then
		expect "restore --method dco, nothing journaled, a vendor's DCO: refused (exit 3)" 3 "" \
			"sim:vdco: refused: nothing journaled.*DCO"
	else
		expect "restore, nothing journaled, at the DCO-lowered native max: nothing to do" 0 \
			"already at 156250000 blocks"
	fi
	sent_nothing "restore --method $m of a vendor's DCO: nothing changing sent" "$TMP/trace"
done
run "$PROG" --rig "$NU_DCO" info -J sim:vdco
json_check "the vendor's DCO is still in place" "d['capacity_blocks'] == 156250000"
# --to-native is the explicit way, and with --method dco it goes to the factory maximum
run "$PROG" --rig "$NU_DCO" restore --yes --to-native --method dco sim:vdco
expect "restore --to-native --method dco: the factory maximum" 0 "restored to 195312500 blocks"

# --- an empty global option (an unset shell variable) ----------------------------------------
# --state-dir "" put the simulator state and the journal in / (/sim, /journal.jsonl); --sysroot ""
# read the real machine. Run from a directory of our own, so nothing lands in the current one.
mkdir -p "$TMP/nu-cwd"
for o in --state-dir --sysroot --rig --protect-file; do
	run sh -c 'cd "$1" && shift && exec "$@"' sh "$TMP/nu-cwd" "$PROG" --demo "$o" "" limit --size 100GB \
		--dry-run sim:sata250
	expect "$o \"\": a usage error (exit 2)" 2 "" "option '$o' needs a value, not an empty string"
	run sh -c 'cd "$1" && shift && exec "$@"' sh "$TMP/nu-cwd" "$PROG" --demo "$o=" list
	expect "$o=: a usage error (exit 2)" 2 "" "option '$o' needs a value, not an empty string"
done
[ -z "$(ls -A "$TMP/nu-cwd")" ] && pass "empty global options: nothing written in the current directory" ||
	fail "empty global options: nothing written in the current directory" "$(ls -A "$TMP/nu-cwd")"

# --- one disk named twice (/dev/sdb and its /dev/disk/by-id link) ------------------------------
# Two rig drives with one identity stand in for two names of one disk: the batch ran two jobs
# on it at once, changed it by the first, refused the second as "another shortstroke process"
# and exited 4. Now it is a usage error before anything is sent.
NU_DUP=$TMP/nu-dup.json
cat >"$NU_DUP" <<'EOF2'
{ "time_scale": 0, "drives": [
  { "id": "d1", "personality": "sata", "model": "DUP 100G", "serial": "SAME0001", "firmware": "F1",
    "wwn": "5000c500c0000009", "blocks": 195312500, "hpa": true, "amac": true },
  { "id": "d2", "personality": "sata", "model": "DUP 100G", "serial": "SAME0001", "firmware": "F1",
    "wwn": "5000c500c0000009", "blocks": 195312500, "hpa": true, "amac": true },
  { "id": "d3", "personality": "sata", "model": "DUP 100G", "serial": "OTHER001", "firmware": "F1",
    "blocks": 195312500, "hpa": true, "amac": true }
] }
EOF2
run_traced "$PROG" --rig "$NU_DUP" -v limit --size 50GB --yes sim:d1 sim:d3 sim:d2
expect "limit of one disk under two names: a usage error (exit 2)" 2 "" \
	"sim:d2: the same disk as sim:d1 \(serial SAME0001, WWN 5000c500c0000009\): name each disk once"
expect "... and the other disks are sent nothing" 2 "" "sim:d3: nothing sent"
sent_nothing "one disk under two names: nothing changing sent" "$TMP/trace"
run "$PROG" --rig "$NU_DUP" bench --workload seq-write --destructive --time 1s --yes sim:d1 sim:d2
expect "bench --destructive of one disk under two names: exit 2" 2 "" "sim:d2: the same disk as sim:d1"
run "$PROG" --rig "$NU_DUP" limit --size 50GB --yes sim:d1 sim:d3
expect "two different disks (one without a WWN) are not the same disk" 0 "sim:d3: limited to"
run "$PROG" --rig "$NU_DUP" restore --yes sim:d1 sim:d2 sim:d3
expect "restore of one disk under two names: exit 2" 2 "" "sim:d2: the same disk as sim:d1"

# --- --serial or --model given twice -------------------------------------------------------------
# only the last one was used: "limit --serial A --serial B" limited B alone and said nothing of A
for c in "limit --size 100GB --dry-run" "restore --dry-run" "selftest --status" "qualify" \
	"bench --time 100ms"; do
	run "$PROG" --demo $c --serial STF607MS2A4K7P --serial JWV2S8KC
	expect "${c%% *} --serial twice: a usage error" 2 "" "--serial given twice"
	run "$PROG" --demo $c --model 'Hitachi*' --model 'HUS*'
	expect "${c%% *} --model twice: a usage error" 2 "" "--model given twice"
done

# --- an output file that is not a file ----------------------------------------------------------
# "plan -O /dev/null" as root renamed the plan over /dev/null: a regular file from then on.
# A character device of our own (1,3 is what /dev/null is) stands in for it.
if [ "$(id -u)" = 0 ] && mknod "$TMP/nu-null" c 1 3 2>/dev/null; then
	run "$PROG" --demo plan --level 1 --stroke 25% sim:sata250 sim:sata-hpa -O "$TMP/nu-null"
	expect "plan -O a character device: a usage error" 2 "" \
		"--output-plan $TMP/nu-null: is a character device, not a file to write"
	run "$PROG" --demo qualify --report "$TMP/nu-null" sim:sata250
	expect "qualify --report a character device: refused before the run" 2 "" \
		"--report $TMP/nu-null: is a character device"
	run "$PROG" --demo --protect-file "$TMP/nu-null" protect add --serial NU0001
	expect "protect add to a character device: refused" 2 "" "nu-null: not a regular file"
	[ -c "$TMP/nu-null" ] && pass "the character device is still one" ||
		fail "the character device is still one" "$(ls -l "$TMP/nu-null")"
else
	skip "plan -O a character device" "needs root to make a device node"
fi
# a symbolic link to the plan file is written through: the link stays
: >"$TMP/nu-plan.json"
ln -s "$TMP/nu-plan.json" "$TMP/nu-link.json"
run "$PROG" --demo plan --level 1 --stroke 25% sim:sata250 sim:sata-hpa -O "$TMP/nu-link.json"
expect "plan -O a symbolic link" 0
[ -L "$TMP/nu-link.json" ] && grep -q shortstroke-plan "$TMP/nu-plan.json" &&
	pass "plan -O a symbolic link: the link stays, its file has the plan" ||
	fail "plan -O a symbolic link: the link stays, its file has the plan" "$(ls -l "$TMP"/nu-*.json)"

# --- restore --method partition of a disk shortstroke never limited -------------------------------
# a GPT another tool wrote (here: one the partition method wrote under another state directory,
# so this journal knows nothing of it); the disk is at its native max, so restore let the
# partition method's restore run, and --force (for the in-use GPT) wiped the table
NU_OTHER="$TMP/nu-other-state"
SHORTSTROKE_STATE_DIR=$NU_OTHER "$PROG" --demo limit --method partition --size 100GB --yes sim:sata250 >/dev/null
"$PROG" --demo list >/dev/null	# makes this state directory's drive files
cp --sparse=always "$NU_OTHER/sim/demo/sata250.img" "$SHORTSTROKE_STATE_DIR/sim/demo/sata250.img"
run_traced "$PROG" --demo -v restore --yes --force --method partition sim:sata250
expect "restore --force --method partition, nothing journaled: refused" 3 "" \
	"sim:sata250: refused: nothing journaled"
sent_nothing "restore --method partition of a foreign GPT: nothing written" "$TMP/trace"
run "$PROG" --demo info sim:sata250
expect "the foreign GPT is still there" 0 "^State: +in-use: partition table \(gpt\)"

# --- reapply with two attached disks of one serial (USB bridges, no WWN) ------------------------
# the volatile limit of one went back on the first disk found with the serial: after a reboot
# that may be the other one, and a limit on it cuts its data short
NU_USB=$TMP/nu-usb.json
cat >"$NU_USB" <<'EOF2'
{ "time_scale": 0, "drives": [
  { "id": "u1", "personality": "sata", "model": "USB BRIDGE DISK", "serial": "000000000001",
    "firmware": "F1", "blocks": 195312500, "hpa": true },
  { "id": "u2", "personality": "sata", "model": "USB BRIDGE DISK", "serial": "000000000001",
    "firmware": "F1", "blocks": 195312500, "hpa": true }
] }
EOF2
NU_SAVED=$SHORTSTROKE_STATE_DIR
SHORTSTROKE_STATE_DIR=$TMP/nu-usb-state	# a journal of its own
"$PROG" --rig "$NU_USB" limit --volatile --size 50GB --yes --force sim:u1 >/dev/null
"$PROG" --rig "$NU_USB" sim power-cycle sim:u1 sim:u2 >/dev/null
for a in "" "sim:u2"; do
	run_traced "$PROG" --rig "$NU_USB" -v reapply $a
	expect "reapply ${a:-(all)}: two disks with the journaled serial: failed, none touched" 1 \
		"more than one attached disk has serial 000000000001.*none is touched"
	sent_nothing "reapply ${a:-(all)}: two disks with the journaled serial: nothing sent" "$TMP/trace"
done
SHORTSTROKE_STATE_DIR=$NU_SAVED

# --- limit above what the disk has now, over an HPA shortstroke did not set ----------------------
# sim:sata-hpa came with a vendor's HPA: 250 of its 500 GB. "limit --size 400GB" (or --percent
# 80, a share of the native 500) raised it to 400 GB: a "limit" that exposed 150 GB of the hidden
# area, which restore refuses to do without --to-native.
for a in "--size 400GB" "--percent 80" "--blocks 781248512"; do
	run_traced "$PROG" --demo -v limit $a --yes sim:sata-hpa
	expect "limit $a over a vendor's HPA at 250 GB: refused" 2 "" \
		"sim:sata-hpa: .*more than the 488386584 blocks \(250 GB\) it has now.*restore --to-native"
	sent_nothing "limit $a over a vendor's HPA: nothing changing sent" "$TMP/trace"
done
run "$PROG" --demo limit --size 100GB --yes sim:sata-hpa
expect "limit under the vendor's HPA still works" 0 "sim:sata-hpa: limited to 195311616 blocks"
# once limited by shortstroke, a new limit may go back up to the journaled original, not above
# (a power cycle between: HPA takes one permanent change per power cycle)
"$PROG" --demo sim power-cycle sim:sata-hpa >/dev/null
run "$PROG" --demo limit --size 200GB --yes sim:sata-hpa
expect "a new limit up to the journaled original" 0 "limited to 390623232 blocks"
run "$PROG" --demo limit --size 300GB --yes sim:sata-hpa
expect "a new limit above the journaled original: refused" 2 "" \
	"more than the 488386584 blocks \(250 GB\) it had before shortstroke limited it"
"$PROG" --demo sim power-cycle sim:sata-hpa >/dev/null
run "$PROG" --demo restore --yes sim:sata-hpa
expect "restore: back to the vendor's HPA" 0 "restored to 488386584 blocks"
# the same over a vendor's DCO (80 of its 100 GB): DCO SET up to the factory maximum was allowed
run_traced env SHORTSTROKE_STATE_DIR="$TMP/nu-dco-state" "$PROG" --rig "$NU_DCO" -v limit --method dco \
	--size 90GB --yes sim:vdco
expect "limit --method dco above a vendor's DCO: refused" 2 "" \
	"sim:vdco: .*more than the 156250000 blocks \(80.0 GB\) it has now"
sent_nothing "limit --method dco above a vendor's DCO: nothing changing sent" "$TMP/trace"

# --- array undo after the device names moved (a reboot) -----------------------------------------
# The record keeps each member's node; after a reboot that node may be another disk. undo ran
# mdadm --zero-superblock on it without a look (restore checked the serial, the wipe did not),
# wiping the md metadata of a disk that is no member of this array.
NU_AR=$TMP/nu-ar
mkdir -p "$NU_AR/root/proc"
echo "Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]" >"$NU_AR/root/proc/mdstat"
: >"$NU_AR/log"
nu_ss() {
	env SHORTSTROKE_STATE_DIR="$NU_AR/state" SHORTSTROKE_RIG="$HERE/../data/array-rig.json" \
		SHORTSTROKE_SYSROOT="$NU_AR/root" SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" \
		SHORTSTROKE_MODPROBE=false FAKE_MDADM_LOG="$NU_AR/log" \
		FAKE_MDADM_STATE="$NU_AR/md.state" "$PROG" "$@"
}
nu_ss plan --level 1 --stroke 25% sim:a1 sim:a2 -O "$NU_AR/r1.json" >/dev/null 2>&1
nu_ss apply "$NU_AR/r1.json" --name moved --yes >/dev/null 2>&1
# member 1's names now lead to sim:a3, a disk of no array of ours
python3 - "$NU_AR/state/arrays/moved.json" <<'EOF2'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d['members'][0]['device'] = d['members'][0]['node'] = 'sim:a3'
json.dump(d, open(p, 'w'), indent=1)
EOF2
: >"$NU_AR/log"
run nu_ss array undo moved --yes
expect "array undo, a member's node now another disk: incomplete (exit 1)" 1 "" \
	"sim:a3 is now serial AMAC-0003, not the member AMAC-0001"
if grep -q -- "--zero-superblock sim:a3" "$NU_AR/log"; then
	fail "array undo: no mdadm --zero-superblock of the disk that moved in" "$(cat "$NU_AR/log")"
else
	pass "array undo: no mdadm --zero-superblock of the disk that moved in"
fi

# --- messages that named the wrong thing ----------------------------------------------------------
# a zoned disk whose zone report fails: "sim:smr: sim:smr: ..."
"$PROG" --demo sim fault sim:smr abort:4a >/dev/null
run "$PROG" --demo limit --size 100GB --yes sim:smr
expect "limit, the zone report rejected: the device named once" 1 "" "^shortstroke: sim:smr: [^s]"
"$PROG" --demo sim fault --clear sim:smr >/dev/null
# array replace's refusals said "apply:"
nu_ss plan --level 1 --stroke 25% sim:a3 sim:a4 -O "$NU_AR/r1b.json" >/dev/null 2>&1
nu_ss apply "$NU_AR/r1b.json" --name repl --yes >/dev/null 2>&1
run nu_ss array replace repl sim:a3 sim:a4 --yes
expect "array replace NEW already a member: said by array replace" 2 "" \
	"^shortstroke: array replace: sim:a4 is already a member of repl"

# --- a real device named with --demo or --rig -------------------------------------------------------
# "--demo" reads as "a sandbox", but a /dev path named with it was the real disk: bench
# --destructive --demo wrote over a loop device, and limit --demo would have limited a real disk
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	truncate -s 64M "$TMP/nu-loop.img"
	nu_loop=$(losetup -f --show "$TMP/nu-loop.img" 2>/dev/null)
	if [ -n "$nu_loop" ]; then
		before=$(md5sum <"$TMP/nu-loop.img")
		run "$PROG" --demo bench --workload seq-write --destructive --time 100ms --yes "$nu_loop"
		expect "bench --destructive --demo of a real block device: a usage error" 2 "" \
			"$nu_loop names a real device, but --demo is given"
		run "$PROG" --rig "$NU_DCO" bench --time 100ms "$nu_loop"
		expect "bench --rig of a real block device: a usage error" 2 "" \
			"$nu_loop names a real device, but --rig \(or SHORTSTROKE_RIG\) is given"
		sync
		[ "$(md5sum <"$TMP/nu-loop.img")" = "$before" ] && pass "the loop device's bytes are unchanged" ||
			fail "the loop device's bytes are unchanged"
		losetup -d "$nu_loop"
	else
		skip "bench --demo of a loop device" "cannot attach a loop device here"
	fi
else
	skip "bench --demo of a loop device" "needs root and losetup"
fi
# a captured tree's disk stands in for a real one: the same refusal, whatever the command
for c in "limit --size 10GB --dry-run" "restore --dry-run" "info" "smart" "protect add"; do
	run "$PROG" --demo --sysroot "$HERE/../data/sysroot" $c /dev/sdc
	expect "${c%% *} --demo /dev/sdc: a usage error" 2 "" "/dev/sdc names a real device, but --demo is given"
done

# --- a loop of symbolic links is a bad name (exit 2), as a missing device is --------------------
ln -s "$TMP/nu-loop-b" "$TMP/nu-loop-a"
ln -s "$TMP/nu-loop-a" "$TMP/nu-loop-b"
for c in info "limit --size 10GB --dry-run"; do
	run "$PROG" $c "$TMP/nu-loop-a"
	expect "${c%% *} of a loop of symbolic links: a usage error" 2 "" "nu-loop-a: a loop of symbolic links"
done

# --- --serial or --model that names no disk: a bad name (exit 2), as an unknown device is ----------
run "$PROG" --demo limit --size 100GB --yes --serial STF607MS2A4K7Q
expect "limit --serial of no disk: a usage error" 2 "" "limit: no disk has serial STF607MS2A4K7Q"
run "$PROG" --demo selftest --short --model 'NOSUCH*'
expect "selftest --model of no disk: a usage error" 2 "" "selftest: no disk has a model matching NOSUCH\*"

# --- restore of a partition method's partition that holds data ----------------------------------
# limit --method partition wrote a GPT, and a filesystem was then made in its partition (an ext4
# image at 1 MiB: inside partition 1). restore wiped the GPT (exit 0) and the filesystem was
# unreachable: the in-use probe read the disk's first and last MiB, not its partitions.
# nu_ext4_at FILE OFFSET: an ext4 filesystem (8 MiB) written into FILE at byte OFFSET
nu_ext4_at() {
	[ -f "$TMP/nu-ext4.img" ] || { truncate -s 8M "$TMP/nu-ext4.img" &&
		mkfs.ext4 -q -F "$TMP/nu-ext4.img" >/dev/null 2>&1; }
	dd if="$TMP/nu-ext4.img" of="$1" bs=1M seek=$(($2 / 1048576)) conv=notrunc,sparse status=none
}
# nu_md_at FILE OFFSET: an md 1.2 superblock (as mdadm --create writes on a member) at OFFSET + 4 KiB
nu_md_at() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
sb = bytearray(260)
struct.pack_into('<II', sb, 0, 0xa92b4efc, 1)       # magic, major version
sb[16:32] = bytes(range(1, 17))                     # set uuid
sb[32:40] = b'host:md0'
struct.pack_into('<IIQII', sb, 72, 1, 0, 1 << 20, 0, 2)   # raid1, size, 2 disks
struct.pack_into('<QQQ', sb, 128, 2048, 1 << 20, 8)       # data offset, size, super offset
struct.pack_into('<I', sb, 220, 2)                  # max_dev
s = sum(struct.unpack_from('<65I', sb))
struct.pack_into('<I', sb, 216, ((s & 0xffffffff) + (s >> 32)) & 0xffffffff)
with open(sys.argv[1], 'r+b') as f:
    f.seek(int(sys.argv[2]) + 4096)
    f.write(sb)
PY
}
if command -v mkfs.ext4 >/dev/null; then
	"$PROG" --demo limit --method partition --size 100GB --yes sim:sas15k >/dev/null
	nu_ext4_at "$SHORTSTROKE_STATE_DIR/sim/demo/sas15k.img" 1048576
	run_traced "$PROG" --demo -v restore --yes sim:sas15k
	expect "restore, ext4 in the partition it wrote: refused (exit 3), saying what is there" 3 "" \
		"sim:sas15k: refused, the disk is in-use: partition table \(gpt\); partition 1 holds filesystem ext4"
	sent_nothing "restore, ext4 in its partition: nothing changing sent" "$TMP/trace"
	run_traced "$PROG" --demo -v limit --method partition --size 50GB --yes sim:sas15k
	expect "limit again, ext4 in its partition: refused (exit 3)" 3 "" \
		"sim:sas15k: refused, the disk is in-use: partition table \(gpt\); partition 1 holds filesystem ext4"
	sent_nothing "limit again, ext4 in its partition: nothing changing sent" "$TMP/trace"
	run "$PROG" --demo info sim:sas15k
	expect "the GPT and its filesystem are still there" 0 "^State: +in-use: partition table \(gpt\); partition 1 holds filesystem ext4"
	run "$PROG" --demo restore --yes --force sim:sas15k
	expect "restore --force --yes (a script's explicit override) takes the GPT back" 0 "restored to"
else
	skip "restore of a partition that holds ext4" "mkfs.ext4 not found"
fi

# array undo and apply's rollback take the partitions' GPTs back too: md's superblock on a
# member's partition is expected (md's stop and --zero-superblock deal with it; the fake mdadm
# writes none, so one is put there), anything else there is refused
nu_img() { printf '%s/%s.img' "$(echo "$NU_AR"/state/sim/array-rig-*)" "$1"; }
nu_ss plan --level 1 --stroke 25% sim:s1 sim:s2 --method partition -O "$NU_AR/s12.json" >/dev/null 2>&1
nu_ss apply "$NU_AR/s12.json" --name parts --yes >/dev/null 2>&1
nu_md_at "$(nu_img s1)" 1048576
nu_md_at "$(nu_img s2)" 1048576
if command -v mkfs.ext4 >/dev/null; then
	cp --sparse=always "$(nu_img s2)" "$TMP/nu-s2.img"
	nu_ext4_at "$(nu_img s2)" 1048576
	: >"$NU_AR/log"
	run nu_ss array undo parts --yes
	expect "array undo, ext4 in a member's partition: refused (exit 3)" 3 "" \
		"refused: sim:s2 \(member 2\) is in-use: partition table \(gpt\); partition 1 holds filesystem ext4"
	[ ! -s "$NU_AR/log" ] && [ "$(python3 -c "import json; print(json.load(open('$NU_AR/state/arrays/parts.json'))['state'])")" = done ] &&
		pass "array undo refused: mdadm not run, the array still recorded" ||
		fail "array undo refused: mdadm not run, the array still recorded" "$(cat "$NU_AR/log")"
	cp --sparse=always "$TMP/nu-s2.img" "$(nu_img s2)"
else
	skip "array undo, ext4 in a member's partition" "mkfs.ext4 not found"
fi
run nu_ss array undo parts --yes
expect "array undo, md superblocks in the members' partitions: undone" 0 "undone: every member restored"
# a rollback: a disk that held ext4 at 1 MiB (its old GPT wiped, so it is free) shows it again
# in the partition the apply wrote; the rollback leaves that GPT and says why
if command -v mkfs.ext4 >/dev/null; then
	nu_ss plan --level 1 --stroke 25% sim:s3 sim:s4 --method partition -O "$NU_AR/s34.json" >/dev/null 2>&1
	nu_ext4_at "$(nu_img s4)" 1048576
	export FAKE_MDADM_FAIL=create
	run nu_ss apply "$NU_AR/s34.json" --name parts2 --yes
	unset FAKE_MDADM_FAIL
	expect "apply's rollback, ext4 in a member's new partition: that GPT is left" 1 "" \
		"the rollback is incomplete: .*sim:s4: refused, the disk is in-use: partition table \(gpt\); partition 1 holds filesystem ext4"
fi

# --- zones of a disk in use or protected: read-only commands only ---------------------------------
# listing the notches selects each one with MODE SELECT (then puts the active one back): a setting
# of a disk the user may not change. Now only the pages are read, and a line says why.
"$PROG" --demo limit --method partition --size 100GB --yes sim:sas15k >/dev/null
run_traced "$PROG" --demo -v zones sim:sas15k
expect "zones of a disk in use: the pages, and why the notch list is missing" 0 \
	"^Notch list: +in use: per-zone notch detail needs MODE SELECT; --force to allow$"
sent_nothing "zones of a disk in use: no MODE SELECT" "$TMP/trace"
printf '%s\n' "$OUT" | grep -q "^Notch page (0Ch): .*18 recording zones" &&
	pass "zones of a disk in use: the notch page itself is read" ||
	fail "zones of a disk in use: the notch page itself is read" "$OUT"
run "$PROG" --demo zones --force sim:sas15k
expect "zones --force of a disk in use: the notch list" 0 "^ +18 +840931368 +879097967 "
"$PROG" --demo info -J sim:sas4kn | python3 -c "import json,sys; print('serial:' + json.load(sys.stdin)['serial'])" \
	>"$SHORTSTROKE_PROTECT_FILE"
run_traced "$PROG" --demo -v zones -J sim:sas4kn
json_check "zones -J of a protected disk: notch_list_missing says why" \
	"d['notch_list_missing'] == 'protected: per-zone notch detail needs MODE SELECT; --force to allow' and 'notch_list' not in d"
sent_nothing "zones of a protected disk: no MODE SELECT" "$TMP/trace"
: >"$SHORTSTROKE_PROTECT_FILE"
"$PROG" --demo restore --yes sim:sas15k >/dev/null

# --- a drive that stops answering during the in-use probe ------------------------------------------
# it was "refused, the disk is in-use: could not be probed" (exit 3): a dead drive is a failure
# (exit 1), not a safety refusal; it is still not changed, --force or not
nu_before_read=$("$PROG" --demo -v info sim:sata320 2>&1 >/dev/null | sed -n '/\[Read(16)\]/{=;q}')
for f in "" --force; do
	"$PROG" --demo sim fault sim:sata320 vanish-after:$((nu_before_read)) >/dev/null
	run_traced "$PROG" --demo -v limit --size 100GB --yes $f sim:sata320
	expect "limit${f:+ $f}, the drive stops answering during the in-use probe: failed (exit 1)" 1 "" \
		"sim:sata320: the drive does not answer any more .*\(reading its labels, to check whether it is in use\)"
	sent_nothing "limit${f:+ $f}, the drive stops answering: nothing changing sent" "$TMP/trace"
	"$PROG" --demo sim power-cycle sim:sata320 >/dev/null
done
# a block that cannot be read is still in use (what it holds is unknown): refused, exit 3
"$PROG" --demo sim fault sim:sata320 medium-error:0-7 >/dev/null
run "$PROG" --demo limit --size 100GB --yes sim:sata320
expect "limit, the label area unreadable: still refused for safety (exit 3)" 3 "" \
	"sim:sata320: refused, the disk is in-use: could not be probed: .*Medium Error"
"$PROG" --demo sim fault --clear sim:sata320 >/dev/null

# --- apply: a placeholder bound to a disk the plan names already, under another name ----------------
# (/dev/sdb and its by-id link; here two rig drives with one identity): apply limited the first,
# the second was refused by its lock as "another shortstroke process", and it was rolled back.
# Now it is a usage error before anything is sent, as in a batch.
"$PROG" --rig "$NU_DUP" plan --disks 2 --model-of sim:d1 --level 1 --stroke 25% sim:d1 \
	-O "$TMP/nu-dup-plan.json" >/dev/null 2>&1
run_traced env SHORTSTROKE_STATE_DIR="$TMP/nu-dup-state" SHORTSTROKE_SYSROOT="$NU_AR/root" \
	SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" SHORTSTROKE_MODPROBE=false FAKE_MDADM_LOG="$NU_AR/log" \
	"$PROG" --rig "$NU_DUP" -v apply "$TMP/nu-dup-plan.json" --name dup --members sim:d2 --yes
expect "apply --members, a placeholder bound to the planned disk's other name: a usage error" 2 "" \
	"sim:d2: the same disk as sim:d1 \(serial SAME0001, WWN 5000c500c0000009\): name each disk once"
sent_nothing "apply, one disk under two names: nothing changing sent" "$TMP/trace"
[ ! -e "$TMP/nu-dup-state/journal.jsonl" ] && pass "apply, one disk under two names: nothing journaled" ||
	fail "apply, one disk under two names: nothing journaled" "$(cat "$TMP/nu-dup-state/journal.jsonl")"

# --- limit / restore of a disk whose serial another attached disk carries (no WWN) -------------------
# the journal is keyed by serial (or WWN): a record of one is the other's too, so restoring one
# closed the other's record, or restored it to the other's original. A single run refuses such a
# disk (exit 3) and names the other; --force is the explicit override.
NU_USB_STATE=$TMP/nu-usb2-state
for c in "limit --size 50GB" "restore"; do
	run_traced env SHORTSTROKE_STATE_DIR="$NU_USB_STATE" "$PROG" --rig "$NU_USB" -v $c --yes sim:u1
	expect "${c%% *} of a disk whose serial another attached disk has: refused (exit 3)" 3 "" \
		"sim:u1: refused: sim:u2 has the same serial number \(000000000001\) and no WWN tells them apart"
	sent_nothing "${c%% *} of a disk whose serial another disk has: nothing changing sent" "$TMP/trace"
done
run env SHORTSTROKE_STATE_DIR="$NU_USB_STATE" "$PROG" --rig "$NU_USB" limit --size 50GB --yes --force sim:u1
expect "limit --force --yes of such a disk: the explicit override" 0 "sim:u1: limited to"
run env SHORTSTROKE_STATE_DIR="$NU_USB_STATE" "$PROG" --rig "$NU_USB" restore --yes sim:u2
expect "restore of the other one: refused, its record would be sim:u1's" 3 "" \
	"sim:u2: refused: sim:u1 has the same serial number"
# two WWNs that differ tell the disks apart; one disk without a WWN does not
NU_WWN=$TMP/nu-wwn.json
cat >"$NU_WWN" <<'EOF2'
{ "time_scale": 0, "drives": [
  { "id": "w1", "personality": "sata", "model": "SAME SERIAL", "serial": "SS0001", "firmware": "F1",
    "wwn": "5000c500c0000101", "blocks": 195312500, "hpa": true },
  { "id": "w2", "personality": "sata", "model": "SAME SERIAL", "serial": "SS0001", "firmware": "F1",
    "wwn": "5000c500c0000102", "blocks": 195312500, "hpa": true },
  { "id": "w3", "personality": "sata", "model": "SAME SERIAL", "serial": "SS0003", "firmware": "F1",
    "wwn": "5000c500c0000103", "blocks": 195312500, "hpa": true },
  { "id": "w4", "personality": "sata", "model": "SAME SERIAL", "serial": "SS0003", "firmware": "F1",
    "blocks": 195312500, "hpa": true }
] }
EOF2
run env SHORTSTROKE_STATE_DIR="$TMP/nu-wwn-state" "$PROG" --rig "$NU_WWN" limit --size 50GB --yes --dry-run sim:w1
expect "one serial, two WWNs that differ: not refused" 0 "sim:w1: commands that would be sent"
run env SHORTSTROKE_STATE_DIR="$TMP/nu-wwn-state" "$PROG" --rig "$NU_WWN" limit --size 50GB --yes --dry-run sim:w3
expect "one serial, one of the disks without a WWN: refused" 3 "" \
	"sim:w3: refused: sim:w4 has the same serial number \(SS0003\)"

# --- array replace: a NEW disk that another shortstroke array has as a member ------------------------
# the fake mdadm writes no superblock, so only the records show it (on real disks md's
# superblock makes it in use): replace limited it and gave it to the second array too
nu_ss plan --level 1 --stroke 25% sim:big sim:s1 -O "$NU_AR/r1c.json" >/dev/null 2>&1
run nu_ss apply "$NU_AR/r1c.json" --name other --yes
expect "apply of another array over sim:big" 0 "/dev/md/other: created"
: >"$NU_AR/log"
run_traced nu_ss -v array replace repl sim:a3 sim:big --yes
expect "array replace, NEW a member of another array: refused (exit 3)" 3 "" \
	"sim:big: a member of the array other \(/dev/md/other, member 1, done\), as shortstroke's records have it"
sent_nothing "array replace, NEW another array's member: nothing changing sent" "$TMP/trace"
[ ! -s "$NU_AR/log" ] && pass "array replace, NEW another array's member: mdadm not run" ||
	fail "array replace, NEW another array's member: mdadm not run" "$(cat "$NU_AR/log")"

# --- small things a new user tripped over -------------------------------------------------------------
# reapply with a name that is no disk: exit 1 ("not a disk shortstroke can talk to"); a bad name
# is a usage error (2), as --help says, found before any disk is read
run_traced "$PROG" --demo -v reapply sim:nosuch sim:sata250
expect "reapply sim:nosuch: a usage error (exit 2)" 2 "" \
	"reapply: sim:nosuch: no such drive in the rig \(see 'shortstroke list'\)"
grep -q ': cdb: ' "$TMP/trace" && fail "reapply sim:nosuch: no disk read" "$(head -3 "$TMP/trace")" ||
	pass "reapply sim:nosuch: no disk read"
# smart of a FAILED disk and a typo: exit 2 hid the FAILED result printed before it. Every name is
# checked first now: the typo is a usage error before any disk is read (nothing is printed as
# read); without the typo the FAILED disk gives its exit 1
"$PROG" --demo sim fault sim:sata250 smart-fail >/dev/null
run_traced "$PROG" --demo -v smart sim:sata250 sim:nosuch
expect "smart FAILED-disk typo: a usage error, nothing read" 2 "" \
	"sim:nosuch: no such drive in the rig"
[ -z "$OUT" ] && ! grep -q ': cdb: ' "$TMP/trace" && pass "smart FAILED-disk typo: no disk read" ||
	fail "smart FAILED-disk typo: no disk read" "$OUT" "$(head -3 "$TMP/trace")"
run "$PROG" --demo smart sim:sata250
expect "smart of the FAILED disk alone: exit 1" 1 "^sim:sata250: FAILED"
"$PROG" --demo sim fault --clear sim:sata250 >/dev/null
# extra arguments were ignored: "qualify --print-thresholds sim:sata250" printed the thresholds and
# exited 0 (the disk was not qualified), "sim rig extra" printed the rig
run "$PROG" --demo qualify --print-thresholds sim:sata250
expect "qualify --print-thresholds DEVICE: a usage error" 2 "" \
	"qualify: --print-thresholds takes no device \('sim:sata250'\)"
[ -z "$OUT" ] && pass "qualify --print-thresholds DEVICE: nothing printed" ||
	fail "qualify --print-thresholds DEVICE: nothing printed" "$OUT"
run "$PROG" sim rig extra
expect "sim rig extra: a usage error" 2 "" "sim: rig takes no argument \('extra'\)"
# apply --name a --name b made the array b and said nothing of a (as --serial twice did)
for o in --name --mkfs --conf --method; do
	case $o in --name) v1=a v2=b ;; --mkfs) v1=ext4 v2=xfs ;; --conf) v1=$TMP/a.conf v2=$TMP/b.conf ;;
	--method) v1=amac v2=hpa ;; esac
	[ $o = --name ] && nm= || nm="--name x"
	run "$PROG" --demo apply "$TMP/nu-plan.json" $nm $o "$v1" $o "$v2" --dry-run
	expect "apply $o twice: a usage error" 2 "" "apply: $o given twice \('$v1', then '$v2'\)"
done
# --size 0x10G: "must be greater than zero" (the 0 before the x was read as the number)
run "$PROG" --demo limit --size 0x10G --dry-run sim:sata320
expect "limit --size 0x10G: the number cannot be parsed" 2 "" \
	"--size: invalid size '0x10G': the number cannot be parsed"
# a host-managed drive that aborts REPORT ZONES EXT was called "not a zoned drive"
"$PROG" --demo sim fault sim:smr abort:4a >/dev/null
run "$PROG" --demo zones sim:smr
expect "zones, REPORT ZONES EXT aborted: the drive aborted the command, not 'not zoned'" 1 "" \
	"^shortstroke: sim:smr: the drive aborted REPORT ZONES EXT \(ATA ABRT\): it reports itself host-managed, but its zones cannot be read$"
"$PROG" --demo sim fault --clear sim:smr >/dev/null

# --- the TUI at its edges ---------------------------------------------------------------------------
if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	NU_SAVED=$SHORTSTROKE_STATE_DIR
	SHORTSTROKE_STATE_DIR=$TMP/nu-tui-state	# a fresh demo rig: every drive free
	# at 20x10 a dialog's input line was drawn below the screen: typing went nowhere visible
	# (the scan runs as a job: l waits for its list, whose count then shows in the status line)
	tui_start nu-small 20 10 --demo
	tui_wait "^ [0-9]+ drives" >/dev/null
	tui_keys l
	tui_check "tui 20x10: the limit dialog's input line is on the screen" "Size +\[_\]"
	tui_keys -l 20
	tui_check "tui 20x10: what is typed shows" "Size +\[20_\]"
	tui_stop
	# a long Tolerates value drew over its field's closing bracket (and into the hint)
	tui_start nu-planner 80 24 --demo
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	tui_keys j p
	tui_wait "Planner - 1 drive" >/dev/null
	tui_keys Tab Tab Tab
	tui_keys -l 12345678901234567890
	tui_check "tui planner: a long Tolerates value is clipped inside its brackets" \
		"^  Tolerates +\[[0-9]{13}_\] +disks that may fail"
	tui_stop
	# a drive that vanished: the header said 5 drives after a rescan, the status line still 6;
	# a drive that does not answer is listed with why (as list shows it), so both count 6
	tui_start nu-vanish 100 30 --demo
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	"$PROG" --demo sim fault sim:sata320 vanish-after:0 >/dev/null
	tui_keys R
	tui_check "tui: a drive vanished: listed with why" "sim:sata320 .*in-use: could not"
	tui_check "tui: a drive vanished: the header still counts it" "demo rig - [0-9]+ drives"
	if printf '%s\n' "$SCREEN" | grep -q "5 drives"; then
		fail "tui: a drive vanished: the status line agrees with the header" "$SCREEN"
	else
		pass "tui: a drive vanished: the status line agrees with the header"
	fi
	tui_stop
	# z reads the zones in a job, not through 'zones': the TUI has no --force, so a disk in use
	# gets no MODE SELECT either (its notches are not walked, and the report says why). MODE
	# SELECT(10) aborts on both SAS disks here, so a walk would show as a failed report, as it
	# does on the free sim:sas4kn. (A state of its own: sim:sata320 vanished above.)
	SHORTSTROKE_STATE_DIR=$TMP/nu-tui-zones
	"$PROG" --demo limit --method partition --size 100GB --yes sim:sas15k >/dev/null
	"$PROG" --demo sim fault sim:sas15k abort:55 >/dev/null
	"$PROG" --demo sim fault sim:sas4kn abort:55 >/dev/null
	tui_start nu-zones 100 40 --demo
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	tui_wait "Device: +sim:sas15k" >/dev/null
	tui_keys z
	tui_check "tui z of a disk in use: the pages, and why the notch list is missing" \
		"^Notch list: +in use: per-zone notch detail needs MODE SELECT; --force to allow"
	if printf '%s\n' "$SCREEN" | grep -q "^Notch page (0Ch): .*18 recording zones" &&
		! printf '%s\n' "$SCREEN" | grep -q "selecting notch"; then
		pass "tui z of a disk in use: no MODE SELECT (none aborted)"
	else
		fail "tui z of a disk in use: no MODE SELECT (none aborted)" "$SCREEN"
	fi
	tui_keys q
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	tui_keys j j j
	tui_wait "Device: +sim:sas4kn" >/dev/null
	tui_keys z
	tui_check "tui z of a free disk: its notches are walked (the MODE SELECT aborted)" \
		"selecting notch 1: sim:sas4kn: command 0x55 failed"
	tui_stop
	SHORTSTROKE_STATE_DIR=$NU_SAVED
else
	skip "the TUI at its edges" "tmux is not installed"
fi
