# reapply: volatile limits put back after a power cycle on the disk with the
# journaled serial/WWN, permanent ones verified, missing / changed / protected
# disks reported and not touched, one disk named (the udev path), -J, --dry-run.

mkdir -p "$TMP/r1" "$TMP/r2"
cat >"$TMP/r1/rig.json" <<'RIG'
{ "drives": [
  { "id": "v", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-V1",
    "wwn": "50014ee000000001", "firmware": "82.00A82", "blocks": 8388608, "hpa": true },
  { "id": "w", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-W1",
    "wwn": "50014ee000000002", "firmware": "82.00A82", "blocks": 8388608, "hpa": true },
  { "id": "p", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S-P1",
    "wwn": "5000c50000000003", "firmware": "N003", "blocks": 8388608 },
  { "id": "gone", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-G1",
    "wwn": "50014ee000000004", "firmware": "82.00A82", "blocks": 8388608, "hpa": true }
] }
RIG
R="$PROG --rig $TMP/r1/rig.json"
cp "$TMP/r1/rig.json" "$TMP/rig-first.json" # the rig as it was, for the kill cases below
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
blk() { $R info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }

run $R reapply
expect "reapply: an empty journal is nothing to do" 0 "^reapply: nothing to re-apply"

run $R limit --blocks 4194304 --volatile --yes sim:v sim:w sim:gone
expect "three volatile limits" 0
run $R limit --blocks 2097152 --yes sim:p
expect "one permanent limit" 0
run $R reapply -J
expect "reapply before a power cycle: all in place" 0
json_check "reapply -J: in place, nothing changed" 'sorted(r["device"] for r in d["results"]) == ["sim:gone", "sim:p", "sim:v", "sim:w"] and all(r["status"] == "in-place" and r["changed"] is False and r["ok"] for r in d["results"])'

"$PROG" --rig "$TMP/r1/rig.json" sim power-cycle sim:v sim:w sim:p >/dev/null
[ "$(blk sim:v)" = 8388608 ] && pass "the power cycle undid the volatile limit" || fail "the power cycle undid the volatile limit" "$(blk sim:v)"

n=$(wc -l <"$J")
run $R reapply --dry-run
expect "reapply --dry-run: the commands" 0 "^  85 .*ATA SET MAX ADDRESS EXT \\(volatile\\)$"
expect "reapply --dry-run: says nothing was sent" 0 "^sim:v: dry run: would limit to 4194304 blocks"
[ "$(blk sim:v)" = 8388608 ] && [ "$(wc -l <"$J")" = "$n" ] && pass "dry run: drive and journal untouched" \
	|| fail "dry run: drive and journal untouched" "$(blk sim:v)"

# the udev path: one disk named; the others are left for the boot run
run $R reapply sim:w
expect "reapply DEVICE: that disk only" 0 "^sim:w: re-applied: limited to 4194304 blocks"
[ "$(blk sim:w)" = 4194304 ] && [ "$(blk sim:v)" = 8388608 ] && pass "reapply DEVICE touched only that disk" \
	|| fail "reapply DEVICE touched only that disk" "w=$(blk sim:w) v=$(blk sim:v)"
run $R reapply sim:nosuch
expect "reapply of an unknown disk: a usage error" 2 "" "sim:nosuch: no such drive in the rig"

# a protected disk is refused; the others go ahead
"$PROG" --rig "$TMP/r1/rig.json" protect add sim:v >/dev/null
run $R reapply -J
expect "reapply with a protected disk: refused, a partial batch (exit 4)" 4
json_check "protected: refused, others in place" '(x := {r["device"]: r for r in d["results"]}) and x["sim:v"]["status"] == "refused" and "protected" in x["sim:v"]["error"] and "force" not in x["sim:v"]["error"] and x["sim:w"]["status"] == "in-place" and x["sim:p"]["status"] == "in-place"'
[ "$(blk sim:v)" = 8388608 ] && pass "protected disk untouched" || fail "protected disk untouched"
"$PROG" --rig "$TMP/r1/rig.json" protect remove sim:v >/dev/null

run $R reapply -J
expect "reapply after the power cycle" 0
json_check "reapply -J: re-applied and verified" '(x := {r["device"]: r for r in d["results"]}) and x["sim:v"]["status"] == "reapplied" and x["sim:v"]["changed"] is True and x["sim:v"]["after_blocks"] == 4194304 and x["sim:p"]["status"] == "in-place"'
[ "$(blk sim:v)" = 4194304 ] && pass "the drive has the limit again" || fail "the drive has the limit again" "$(blk sim:v)"
run $R reapply -J
json_check "reapply again: idempotent" 'all(r["status"] == "in-place" and r["changed"] is False for r in d["results"])'
run $R restore --yes sim:w
run $R reapply -J
json_check "a restored disk is no longer re-applied" '"sim:w" not in [r["device"] for r in d["results"]]'

# the rig's drives changed: "gone" unplugged, "v" swapped for a disk of
# another size that carries the same serial and WWN (the rig file edited in
# place: a rig's state is its own; r2/rig.json is a link to it)
python3 -c '
import json, sys
r = json.load(sys.stdin)
r["drives"] = [d for d in r["drives"] if d["id"] != "gone"]
for d in r["drives"]:
    if d["id"] == "v":
        d["id"] = "v2"; d["blocks"] = 16777216
json.dump(r, sys.stdout)' <"$TMP/r1/rig.json" >"$TMP/r2/rig.json"
mv "$TMP/r2/rig.json" "$TMP/r1/rig.json" && ln -s "$TMP/r1/rig.json" "$TMP/r2/rig.json"
run "$PROG" --rig "$TMP/r2/rig.json" reapply -J
expect "a changed disk fails, the others pass: exit 4" 4
json_check "missing and changed are reported" '(x := {r["status"]: r for r in d["results"]}) and x["missing"]["device"] == "WD-G1" and x["missing"]["ok"] and x["changed"]["device"] == "sim:v2" and not x["changed"]["ok"] and "not touched" in x["changed"]["error"] and x["in-place"]["device"] == "sim:p"'
run "$PROG" --rig "$TMP/r2/rig.json" reapply
expect "missing: text" 4 "^WD-G1: missing: no attached disk has serial WD-G1" \
	"^shortstroke: reapply: 1 of the 3 disks failed \(see above\)$"
expect "a changed disk: its line on stdout with the others (a report)" 4 "^sim:v2: .*not touched"
# the lines in device order (the rig's, as list shows them), the journaled disks not attached
# last; not in the order of the journal, where sim:gone came before sim:p
order=$(printf "%s\n" "$OUT" | sed "s/: .*//" | tr "\n" " ")
[ "$order" = "sim:v2 sim:p WD-G1 " ] && pass "reapply: one line per disk, in device order" ||
	fail "reapply: one line per disk, in device order" "$order"
run "$PROG" --rig "$TMP/r2/rig.json" reapply -J
json_check "reapply -J: results in device order" '[r["device"] for r in d["results"]] == ["sim:v2", "sim:p", "WD-G1"]'
run "$PROG" --rig "$TMP/r2/rig.json" info -J sim:v2
json_check "the changed disk was not touched" 'd["capacity_blocks"] == 16777216'

run $R reapply --help
expect "reapply --help" 0 "^Usage: shortstroke reapply"
run $R reapply --bogus
expect "reapply: unknown option" 2

# --- reapply DEV talks to DEV only (the udev rule and shortstroke-reapply@.service) -------------
# On a rig of 64 drives, one disk named: -v prints every command sent, and every one goes to
# that disk (whether another disk carries its serial is read from the rig's records).
mkdir -p "$TMP/r64"
python3 - "$TMP/r64/rig.json" <<'PY'
import json, sys
json.dump({"time_scale": 0, "drives": [
    {"id": "e%02d" % i, "personality": "sata", "model": "WDC WD1000AAKS", "serial": "WD-E%04d" % i,
     "firmware": "01.03B01", "blocks": 8388608, "hpa": True} for i in range(64)]},
    open(sys.argv[1], "w"))
PY
R64="$PROG --rig $TMP/r64/rig.json"
SAVED_STATE=$SHORTSTROKE_STATE_DIR
export SHORTSTROKE_STATE_DIR=$TMP/r64/state
$R64 limit --blocks 4194304 --volatile --yes sim:e07 sim:e40 >/dev/null
$R64 sim power-cycle sim:e07 sim:e40 >/dev/null
run $R64 -v reapply sim:e07
expect "reapply DEV on a 64-drive rig: re-applied" 0 "^sim:e07: re-applied: limited to 4194304 blocks"
others=$(printf '%s\n' "$ERR" | grep ': cdb: ' | grep -v '^sim:e07: ' | cut -d: -f1-2 | sort -u | head -5)
n=$(printf '%s\n' "$ERR" | grep -c '^sim:e07: cdb: ')
[ -z "$others" ] && [ "$n" -gt 0 ] && pass "reapply DEV: every command went to DEV ($n commands)" ||
	fail "reapply DEV: every command went to DEV" "to others: $others"
e40=$($R64 info -J sim:e40 | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])")
[ "$e40" = 8388608 ] && pass "reapply DEV: the other journaled disk is left for its own run" ||
	fail "reapply DEV: the other journaled disk is left for its own run"
run $R64 -v reapply sim:e07 sim:e12
expect "reapply DEV DEV: in place; nothing journaled" 0 "^sim:e07: limit in place" "^sim:e12: cdb"
printf '%s\n' "$OUT" | grep -q "^sim:e12: nothing journaled for this disk" &&
	pass "reapply DEV: a disk with nothing journaled says so" || fail "reapply DEV: a disk with nothing journaled says so" "$OUT"
others=$(printf '%s\n' "$ERR" | grep ': cdb: ' | grep -v '^sim:e07: \|^sim:e12: ' | head -3)
[ -z "$others" ] && pass "reapply DEV DEV: commands to those two only" ||
	fail "reapply DEV DEV: commands to those two only" "$others"
export SHORTSTROKE_STATE_DIR=$SAVED_STATE

# --- a killed reapply never leaves a limit off while saying all is well --------------------------
# A reapply writes a "restore-done" (cause "lapsed": the volatile limit was found undone), then
# "limit", then "limit-done". Killed between them, the journal says so; the next reapply must put
# the limit back all the same. The records a kill leaves are appended here as reapply writes them.
# forge SERIAL EVENT [CAUSE] [TARGET]: a copy of the disk's last limit-done as EVENT
forge() {
	python3 - "$J" "$@" <<'PY'
import json, sys
j, serial, event = sys.argv[1:4]
cause = sys.argv[4] if len(sys.argv) > 4 else ""
target = int(sys.argv[5]) if len(sys.argv) > 5 else None
last = [r for r in map(json.loads, open(j)) if r.get("serial") == serial and r["event"] == "limit-done"][-1]
r = dict(last, event=event, time="2026-01-01T00:00:00Z")
r.pop("cause", None)
r.pop("snapshot", None)
if cause:
    r["cause"] = cause
if event == "restore-done":
    r["target_blocks"] = r["original_blocks"]
if target is not None:
    r["target_blocks"] = target
open(j, "a").write(json.dumps(r, separators=(",", ":")) + "\n")
PY
}
# the rig's first drives again (the swap above edited the file; their state is the rig's own)
cp "$TMP/rig-first.json" "$TMP/r1/rig.json"
run $R limit --blocks 4194304 --volatile --yes sim:v sim:w
expect "two volatile limits for the kill cases" 0
"$PROG" --rig "$TMP/r1/rig.json" sim power-cycle sim:v sim:w >/dev/null
forge WD-V1 restore-done lapsed	 # killed after its first record
forge WD-W1 restore-done lapsed
forge WD-W1 limit		 # killed after the limit record, before the SET MAX
run $R reapply -J
expect "after a killed reapply: exit 0" 0
json_check "killed after the lapsed close / after the limit record: both re-applied" '(x := {r["device"]: r for r in d["results"]}) and x["sim:v"]["status"] == "reapplied" and x["sim:w"]["status"] == "reapplied"'
[ "$(blk sim:v)" = 4194304 ] && [ "$(blk sim:w)" = 4194304 ] && pass "after a killed reapply: both disks at their limit" ||
	fail "after a killed reapply: both disks at their limit" "v=$(blk sim:v) w=$(blk sim:w)"

# a limit of another size the user started, killed before it completed: not decidable; named, exit 1
forge WD-W1 limit "" 2097152
run $R reapply
expect "a limit that never completed, disk at the old limit: named, not 0" 4 \
	"^sim:w: the last limit \(2097152 blocks .*\) never completed, and the disk has 4194304 blocks: whether it should carry that limit cannot be told"
"$PROG" --rig "$TMP/r1/rig.json" sim power-cycle sim:w >/dev/null
run $R reapply sim:w
expect "... and at its original after a power cycle: named, exit 1" 1 \
	"^sim:w: the last limit .* never completed, and the disk has 8388608 blocks \(its original\)"
[ "$(blk sim:w)" = 8388608 ] && pass "an undecidable disk is not touched" || fail "an undecidable disk is not touched" "$(blk sim:w)"
run $R limit --blocks 2097152 --volatile --yes sim:w
run $R reapply sim:w
expect "the limit run again settles it" 0 "^sim:w: limit in place: 2097152 blocks"

# the user's restore after a kill left a lapsed close: restore journals it, reapply leaves the disk
"$PROG" --rig "$TMP/r1/rig.json" sim power-cycle sim:v >/dev/null
forge WD-V1 restore-done lapsed
run $R restore --yes sim:v
expect "restore after a lapsed close: nothing to send" 0 "^sim:v: already restored"
run $R reapply -J
json_check "a disk the user restored is not re-applied" '"sim:v" not in [r["device"] for r in d["results"]]'
[ "$(blk sim:v)" = 8388608 ] && pass "the restored disk keeps its full size" || fail "the restored disk keeps its full size" "$(blk sim:v)"
