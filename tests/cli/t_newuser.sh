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
	run "$PROG" --demo plan --level 1 --stroke 25% sim:sata250 sim:sata320 -O "$TMP/nu-null"
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
run "$PROG" --demo plan --level 1 --stroke 25% sim:sata250 sim:sata320 -O "$TMP/nu-link.json"
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
"$PROG" --rig "$NU_USB" limit --volatile --size 50GB --yes sim:u1 >/dev/null
"$PROG" --rig "$NU_USB" sim power-cycle sim:u1 sim:u2 >/dev/null
for a in "" "sim:u2"; do
	run_traced "$PROG" --rig "$NU_USB" -v reapply $a
	expect "reapply ${a:-(all)}: two disks with the journaled serial: failed, none touched" 1 "" \
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
