# limit / restore on the simulated drives: every method, rule and fault,
# checking what the drive ended with, the journal, the output and the exit code.

J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
blocks() { "$PROG" --demo info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
lines() { [ -f "$J" ] && wc -l <"$J" || echo 0; }
# expected: floor(native * pct / 100) rounded down to 1 MiB of 512-byte blocks
pct_blocks() { python3 -c "n=$1*$2//100; print(n - n % 2048)"; }

# --- HPA on a SATA disk ------------------------------------------------------
want=$(pct_blocks 488397168 20)
run "$PROG" --demo limit --percent 20 --yes sim:sata250
expect "limit --percent 20: HPA on sim:sata250" 0 "^sim:sata250: limited to $want blocks .* by hpa$"
[ "$(blocks sim:sata250)" = "$want" ] && pass "drive reports the limit" || fail "drive reports the limit" "$(blocks sim:sata250)"
run "$PROG" --demo list -o DEVICE,LIMITED -r -n
expect "list shows it limited to 20% by hpa" 0 "^sim:sata250 20.0%\\\\x20of\\\\x20250\\\\x20GB,\\\\x20hpa$"
grep -q '"event":"limit","device":"sim:sata250"' "$J" && grep -q '"event":"limit-done"' "$J" \
	&& pass "journal: limit and limit-done" || fail "journal: limit and limit-done" "$(cat "$J" 2>&1)"
grep -q "\"original_blocks\":488397168,\"target_blocks\":$want" "$J" \
	&& pass "journal: original and target" || fail "journal: original and target" "$(cat "$J")"

n=$(lines)
run "$PROG" --demo limit --percent 20 --yes sim:sata250
expect "second run is a no-op" 0 "already limited to $want blocks.*nothing sent"
[ "$(lines)" = "$n" ] && pass "no-op writes no journal entry" || fail "no-op writes no journal entry"

run "$PROG" --demo limit --percent 30 --yes sim:sata250
expect "a second permanent SET MAX in one power cycle is refused by the drive" 1 "" "refused SET MAX ADDRESS twice.*power-cycle"
[ "$(blocks sim:sata250)" = "$want" ] && pass "refused change left the drive as it was" || fail "refused change left the drive as it was"

run "$PROG" --demo sim power-cycle sim:sata250
expect "sim power-cycle" 0 "power-cycled"
[ "$(blocks sim:sata250)" = "$want" ] && pass "a non-volatile limit survives a power cycle" || fail "a non-volatile limit survives a power cycle" "$(blocks sim:sata250)"

run "$PROG" --demo restore --yes sim:sata250
expect "restore from the journal" 0 "^sim:sata250: restored to 488397168 blocks .* by hpa$"
[ "$(blocks sim:sata250)" = 488397168 ] && pass "drive back to native" || fail "drive back to native"
grep -q '"event":"restore-done","device":"sim:sata250"' "$J" && pass "journal: restore-done" || fail "journal: restore-done"
run "$PROG" --demo restore --yes sim:sata250
expect "restore again is a no-op" 0 "nothing sent"

# --- volatile HPA: a power cycle undoes it -------------------------------------
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo limit --size 100GB --volatile --yes sim:sata250
want=$(python3 -c "n=100*10**9//512; print(n - n % 2048)")
expect "limit --volatile" 0 "limited to $want blocks .*volatile"
run "$PROG" --demo sim power-cycle sim:sata250
[ "$(blocks sim:sata250)" = 488397168 ] && pass "volatile limit gone after a power cycle" || fail "volatile limit gone after a power cycle" "$(blocks sim:sata250)"

# --- AMAC on the SMR disk ---------------------------------------------------------
run "$PROG" --demo limit --size 2TB --yes sim:smr
expect "AMAC preferred where supported" 0 "by amac$"
run "$PROG" --demo restore --yes sim:smr
expect "restore AMAC" 0 "by amac$"

# --- DCO -------------------------------------------------------------------------
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo limit --method dco --percent 50 --yes sim:sata250
expect "DCO set" 0 "by dco$"
run "$PROG" --demo info -J sim:sata250
json_check "DCO lowers the native max too" "d['native_blocks'] == d['capacity_blocks'] < 488397168"
run "$PROG" --demo restore --yes sim:sata250
expect "DCO restore" 0 "restored to 488397168 blocks .* by dco$"

# --- security frozen ------------------------------------------------------------
run "$PROG" --demo limit --percent 50 --yes sim:sata320
expect "security-frozen drive: clear message, failure" 1 "" "security-frozen.*a power cycle or reboot does not help.*hot-plug it"

# --- SCSI resize and format ---------------------------------------------------------
want=$(pct_blocks 879097968 10)
run "$PROG" --demo limit --percent 10 --yes sim:sas15k
expect "SCSI resize by MODE SELECT" 0 "limited to $want blocks .* by scsi-resize$"
[ "$(blocks sim:sas15k)" = "$want" ] && pass "READ CAPACITY shows the resize" || fail "READ CAPACITY shows the resize"
run "$PROG" --demo restore --yes sim:sas15k
expect "SCSI restore to the journaled original" 0 "restored to 879097968 blocks"

run "$PROG" --demo limit --method scsi-format --size 100GB --yes sim:sas4kn
want=$(python3 -c "n=100*10**9//4096; print(n - n % 256)")
expect "FORMAT UNIT to a block count (4Kn)" 0 "limited to $want blocks .* by scsi-format$"
run "$PROG" --demo restore --yes sim:sas4kn
expect "restore a formatted disk" 0 "restored to 488378646 blocks"

run "$PROG" --demo sim fault sim:sas15k ignore-mode-select
run "$PROG" --demo limit --percent 10 --yes sim:sas15k
expect "a drive that ignores MODE SELECT is caught" 1 "" "did not take it"
run "$PROG" --demo sim fault --clear sim:sas15k

# --- dry run --------------------------------------------------------------------
n=$(lines)
run "$PROG" --demo limit --percent 50 --dry-run sim:sata250
expect "--dry-run prints the ATA PASS-THROUGH CDBs" 0 "^  85 0[67] .*SET MAX ADDRESS EXT"
[ "$(blocks sim:sata250)" = 488397168 ] && pass "--dry-run changed nothing" || fail "--dry-run changed nothing"
[ "$(lines)" = "$n" ] && pass "--dry-run journals nothing" || fail "--dry-run journals nothing"
run "$PROG" --demo limit --percent 10 --dry-run sim:sas15k
expect "--dry-run prints MODE SELECT" 0 "^  55 11 .*MODE SELECT"

# --- confirmation and safety ---------------------------------------------------------
run "$PROG" --demo limit --percent 50 sim:sata250 </dev/null
expect "no --yes and no terminal: refused" 3 "" "not confirmed.*--yes"
"$PROG" --demo protect add sim:sata250 >/dev/null
run "$PROG" --demo limit --percent 50 --yes sim:sata250
expect "protected drive refused" 3 "" "refused, the disk is protected"
[ "$(blocks sim:sata250)" = 488397168 ] && pass "protected drive unchanged" || fail "protected drive unchanged"
"$PROG" --demo protect remove sim:sata250 >/dev/null

# --- bad input ---------------------------------------------------------------------
run "$PROG" --demo limit --yes sim:sata250
expect "no size" 2 "" "how much to keep"
run "$PROG" --demo limit --size 0 --yes sim:sata250
expect "size zero" 2 "" "greater than zero"
run "$PROG" --demo limit --percent 150 --yes sim:sata250
expect "percent over 100" 2 "" "not in \(0, 100\]"
run "$PROG" --demo limit --size 1TB --yes sim:sata250
expect "beyond the native max" 2 "" "beyond the native maximum"
run "$PROG" --demo limit --size 500MB --yes sim:sata250
expect "under 1 GiB needs --force" 2 "" "under 1 GiB.*--force"
run "$PROG" --demo limit --size 10GB --percent 5 --yes sim:sata250
expect "two sizes" 2 "" "only one of"
run "$PROG" --demo limit --method magic --percent 5 --yes sim:sata250
expect "unknown method" 2 "" "unknown method 'magic'"
run "$PROG" --demo limit --method dco --percent 50 --yes sim:sas15k
expect "method the drive lacks" 1 "" "does not support the dco method"
run "$PROG" --demo limit --percent 50 --yes
expect "no device" 2 "" "name at least one device"
run "$PROG" --demo limit --percent 50 --yes /dev/nonexistent-disk
expect "unknown device" 2 "" "nonexistent-disk"

# --- batches ---------------------------------------------------------------------------
# a disk that fails the checks (sim:sata320 is security-frozen): no disk is changed
run "$PROG" --demo limit --percent 50 --yes -J sim:sata250 sim:sata320
expect "batch with a disk that fails the checks: nothing changed, exit 1" 1
json_check "batch JSON: one result per disk, the good one not sent" \
	"[(r['device'], r['ok']) for r in d['results']] == [('sim:sata250', False), ('sim:sata320', False)] and 'nothing sent' in d['results'][0]['error'] and 'security-frozen' in d['results'][1]['error']"
run "$PROG" --demo info -J sim:sata250
json_check "the good disk of that batch was not limited" "d['capacity_blocks'] == 488397168"
# a disk that fails during the batch (its MODE SELECT aborted): exit 4
run "$PROG" --demo sim fault sim:sas15k abort:55
run "$PROG" --demo limit --percent 50 --yes -J sim:sata250 sim:sas15k
expect "batch with one failure during the run exits 4" 4
json_check "batch JSON: one result per disk" \
	"[(r['device'], r['ok']) for r in d['results']] == [('sim:sata250', True), ('sim:sas15k', False)]"
run "$PROG" --demo sim fault --clear sim:sas15k
run "$PROG" --demo restore --yes sim:sas15k
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo restore --yes -J --model 'Hitachi HDT*'
json_check "restore --model selects by model" "[r['device'] for r in d['results']] == ['sim:sata250'] and d['results'][0]['after_blocks'] == 488397168"

# --- the partition method: a GPT on the outer part, only when asked ------------------
run "$PROG" --demo limit --method partition --size 100GB --yes sim:sas15k
want=$(python3 -c "n=100*10**9//512; print(n - n % 2048)")
expect "partition method" 0 "limited to $want blocks .* by partition$"
gpt_end() {
	python3 - "$SHORTSTROKE_STATE_DIR/sim/demo/$1.img" "$2" <<'PY'
import struct, sys
f = open(sys.argv[1], 'rb'); bs = int(sys.argv[2])
f.seek(bs); h = f.read(92)
if h[:8] != b'EFI PART': print('none'); sys.exit()
entries = struct.unpack_from('<Q', h, 72)[0]
f.seek(entries * bs); e = f.read(128)
print(struct.unpack_from('<Q', e, 40)[0] + 1)
PY
}
[ "$(gpt_end sas15k 512)" = "$want" ] && pass "the GPT's partition ends at the limit" || fail "the GPT's partition ends at the limit" "$(gpt_end sas15k 512)"
[ "$(blocks sim:sas15k)" = 879097968 ] && pass "partition method leaves the drive's capacity alone" || fail "partition method leaves the drive's capacity alone"
run "$PROG" --demo restore --yes sim:sas15k
expect "restore wipes the GPT" 0 "by partition$"
[ "$(gpt_end sas15k 512)" = none ] && pass "no GPT after restore" || fail "no GPT after restore"

# --- a format interrupted by power loss ------------------------------------------------------
run "$PROG" --demo sim fault sim:sas4kn format-power-loss
run "$PROG" --demo limit --method scsi-format --size 100GB --yes sim:sas4kn
[ "$RC" -ne 0 ] && pass "format interrupted: limit fails" || fail "format interrupted: limit fails" "$OUT"
run "$PROG" --demo sim power-cycle sim:sas4kn
run "$PROG" --demo sim fault --clear sim:sas4kn
run "$PROG" --demo limit --percent 10 --yes sim:sas4kn
expect "medium format corrupted: says so and offers the reformat" 1 "" "MEDIUM FORMAT CORRUPTED.*--method scsi-format"
run "$PROG" --demo limit --method scsi-format --size 100GB --yes sim:sas4kn
expect "a new format cures it" 0 "by scsi-format$"
run "$PROG" --demo restore --yes sim:sas4kn
expect "and restore works after it" 0 "restored to 488378646 blocks"

# --- faults: aborted command, a drive that vanishes ------------------------------------
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo sim fault sim:sata250 abort:37:2
run "$PROG" --demo limit --percent 40 --yes sim:sata250
expect "SET MAX aborted twice: the pair is retried, then a clear failure" 1 "" "refused SET MAX ADDRESS twice"
run "$PROG" --demo sim fault --clear sim:sata250
run "$PROG" --demo sim fault sim:sata250 abort:37:1
run "$PROG" --demo limit --percent 40 --yes sim:sata250
expect "SET MAX aborted once: the retried pair succeeds" 0 "by hpa$"
run "$PROG" --demo sim fault --clear sim:sata250
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo restore --yes sim:sata250
run "$PROG" --demo sim fault sim:sas15k vanish-after:6
run "$PROG" --demo limit --percent 10 --yes sim:sas15k
[ "$RC" -ne 0 ] && pass "a drive that vanishes mid-operation fails cleanly (exit $RC)" || fail "a drive that vanishes mid-operation fails cleanly"
run "$PROG" --demo sim power-cycle sim:sas15k
run "$PROG" --demo sim fault --clear sim:sas15k

# --- a SAT layer answering in fixed-format sense (LBA 47:24 lost): D_SENSE toggled -------
cat >"$TMP/fixed.json" <<'RIG'
{ "drives": [
  { "id": "fixed", "personality": "sata", "vendor": "ATA", "model": "ST3500418AS", "serial": "9VM1ABCD",
    "firmware": "CC38", "wwn": "5000c5001a2b3c4d", "blocks": 976773168, "logical_block": 512,
    "physical_block": 512, "rpm": 7200, "form_factor": "3.5", "hpa": { "supported": true },
    "d_sense": false }
] }
RIG
run "$PROG" --rig "$TMP/fixed.json" info -J sim:fixed
json_check "fixed-format sense: info does not guess the native max" "d['native_blocks'] is None"
run "$PROG" --rig "$TMP/fixed.json" limit --percent 50 --yes sim:fixed
expect "fixed-format sense: limit reads the native max with D_SENSE on" 0 "limited to 488386560 blocks"
grep -q '"serial":"9VM1ABCD".*"native_blocks":976773168' "$J" && pass "journal has the true native max" || fail "journal has the true native max"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['dsense'] is False else 1)" \
	"$(echo "$SHORTSTROKE_STATE_DIR"/sim/fixed-*)/fixed.json" && pass "D_SENSE switched back off" || fail "D_SENSE switched back off"

# --- a batch on a terminal: one progress line per disk, with an ETA ---------------------
if command -v tmux >/dev/null 2>&1; then
	cat >"$TMP/slow.json" <<'RIG'
{ "time_scale": 100, "drives": [
  { "id": "a", "personality": "sas", "vendor": "SEAGATE", "model": "ST3300657SS", "serial": "3SJ0AAAA",
    "firmware": "0008", "wwn": "5000c50012340001", "blocks": 585937500, "logical_block": 512,
    "physical_block": 512, "rpm": 15000, "form_factor": "3.5" },
  { "id": "b", "personality": "sas", "vendor": "SEAGATE", "model": "ST3300657SS", "serial": "3SJ0BBBB",
    "firmware": "0008", "wwn": "5000c50012340002", "blocks": 585937500, "logical_block": 512,
    "physical_block": 512, "rpm": 15000, "form_factor": "3.5" }
] }
RIG
	sock="$TMP/tmux-limit.sock"
	tmux -S "$sock" -f /dev/null new-session -d -s lim -x 120 -y 20 \
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR $PROG --rig $TMP/slow.json limit --method scsi-format --size 50GB --yes sim:a sim:b; echo BATCH-EXIT \$?; sleep 30"
	seen=""
	i=0
	while [ $i -lt 300 ]; do
		SCREEN=$(tmux -S "$sock" capture-pane -p -t lim 2>/dev/null)
		if printf '%s\n' "$SCREEN" | grep -qE "^sim:a +\[#*\.+\] +[0-9]+% +[0-9]+[ms].* formatting$" &&
		   printf '%s\n' "$SCREEN" | grep -qE "^sim:b +\[#*\.+\] +[0-9]+%"; then
			seen=yes
		fi
		printf '%s\n' "$SCREEN" | grep -q "BATCH-EXIT" && break
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$seen" ] && pass "batch on a TTY: a progress line per disk with an ETA, mid-format" || fail "batch on a TTY: a progress line per disk with an ETA, mid-format" "$SCREEN"
	printf '%s\n' "$SCREEN" | grep -q "BATCH-EXIT 0" && pass "batch format on two disks done" || fail "batch format on two disks done" "$SCREEN"
	tmux -S "$sock" kill-server 2>/dev/null
else
	skip "a batch on a terminal: progress lines" "tmux not found"
fi

# -n is --noheadings everywhere (lsblk's); a dry run is --dry-run spelled out. A command that
# changes disks refuses -n (exit 2) and changes nothing: a script that used -n for a dry run
# never runs for real (issue 25.6)
j0=$(wc -l <"$SHORTSTROKE_STATE_DIR/journal.jsonl" 2>/dev/null || echo 0)
b0=$("$PROG" --demo info -J sim:sas15k | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])")
for c in "limit --percent 20 --yes" "restore --yes" "reapply" "array undo fast0 --yes"; do
	run "$PROG" --demo $c -n sim:sas15k
	expect "$c -n: a usage error that says -n is --noheadings, --dry-run spelled out" 2 "" \
		"-n is --noheadings \(as in lsblk\), which ${c%% *} has none of; a dry run is --dry-run, spelled out. Nothing was done"
done
run "$PROG" --demo limit --percent 20 -yn sim:sas15k
expect "limit -yn (bundled): refused too" 2 "" "-n is --noheadings"
b1=$("$PROG" --demo info -J sim:sas15k | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])")
[ "$b0" = "$b1" ] && [ "$(wc -l <"$SHORTSTROKE_STATE_DIR/journal.jsonl" 2>/dev/null || echo 0)" = "$j0" ] \
	&& pass "-n: nothing sent, nothing journaled" || fail "-n: nothing sent, nothing journaled" "$b0 $b1"
run "$PROG" apply plan.json --name x -n
expect "apply -n: refused" 2 "" "-n is --noheadings"
for c in limit restore reapply apply array; do
	"$PROG" $c --help | grep -q -- "-n, --dry-run" && fail "$c --help: no -n for --dry-run" ||
		pass "$c --help: no -n for --dry-run"
done
