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
expect "missing: text" 4 "^WD-G1: missing: no attached disk has serial WD-G1" "sim:v2: .*not touched"
run "$PROG" --rig "$TMP/r2/rig.json" info -J sim:v2
json_check "the changed disk was not touched" 'd["capacity_blocks"] == 16777216'

run $R reapply --help
expect "reapply --help" 0 "^Usage: shortstroke reapply"
run $R reapply --bogus
expect "reapply: unknown option" 2
