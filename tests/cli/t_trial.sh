# A trial (volatile) limit is undone as a trial (issue 25, item 2): restoring
# it sends a volatile SET MAX ADDRESS while the drive still has it, nothing
# once a power cycle undid it, so the permanent limit that follows a trial
# still has its one permanent SET MAX of the power cycle; the preview tells
# the drive's real state.

mkdir -p "$TMP/tr"
cat >"$TMP/tr/rig.json" <<'RIG'
{ "drives": [
  { "id": "v", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-T1",
    "wwn": "50014ee000000011", "firmware": "82.00A82", "blocks": 8388608, "hpa": true },
  { "id": "p", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-T2",
    "wwn": "50014ee000000012", "firmware": "82.00A82", "blocks": 8388608, "hpa": true }
] }
RIG
R="$PROG --rig $TMP/tr/rig.json"
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
tblk() { $R info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
# the journal's newest record of event E for the disk: its volatile flag
jvol() {
	python3 -c "import json,sys
r=[json.loads(l) for l in open('$J') if l.strip()]
r=[x for x in r if x['device']=='$1' and x['event']=='$2']
print(r[-1].get('volatile') if r else 'none')"
}

# the issue's sequence: trial, power cycle, reapply, restore, then the real limit
run $R limit --blocks 4194304 --volatile --yes sim:v
expect "trial: limit --volatile" 0 "by hpa \\(volatile: a power cycle undoes it\\)"
"$PROG" --rig "$TMP/tr/rig.json" sim power-cycle sim:v >/dev/null
run $R reapply sim:v
expect "trial: reapply after the power cycle" 0 "^sim:v: re-applied"
run $R restore --dry-run sim:v
expect "trial: the restore's preview says volatile, as the trial was" 0 \
	"restore to 8388608 blocks .* by hpa \\(volatile, as the trial limit was\\)"
expect "trial: the restore's dry run sends a volatile SET MAX" 0 "SET MAX ADDRESS EXT \\(volatile\\)$"
printf '%s\n' "$OUT" | grep -q "non-volatile" &&
	fail "trial: no permanent SET MAX in the restore's dry run" "$OUT" ||
	pass "trial: no permanent SET MAX in the restore's dry run"
printf '%s\n%s\n' "$OUT" "$ERR" | grep -q "a permanent SET MAX ADDRESS was sent" &&
	fail "trial: the restore's preview has no one-per-power-cycle warning" "$OUT" ||
	pass "trial: the restore's preview has no one-per-power-cycle warning"
run $R restore --yes sim:v
expect "trial: restore" 0 "restored to 8388608 blocks .* by hpa \\(volatile, as the trial limit was"
[ "$(jvol sim:v restore-done)" = True ] && pass "trial: the journal's restore-done is volatile" ||
	fail "trial: the journal's restore-done is volatile" "$(jvol sim:v restore-done)"
run $R limit --blocks 4194304 --yes sim:v
expect "trial: the permanent limit after the trial succeeds" 0 "^sim:v: limited to 4194304 blocks .* by hpa$"
printf '%s\n%s\n' "$OUT" "$ERR" | grep -q "a permanent SET MAX ADDRESS was sent" &&
	fail "trial: the permanent limit's preview has no warning" "$OUT" ||
	pass "trial: the permanent limit's preview has no warning"
[ "$(tblk sim:v)" = 4194304 ] && pass "trial: the drive has the permanent limit" ||
	fail "trial: the drive has the permanent limit" "$(tblk sim:v)"
"$PROG" --rig "$TMP/tr/rig.json" sim power-cycle sim:v >/dev/null
[ "$(tblk sim:v)" = 4194304 ] && pass "trial: the permanent limit outlives a power cycle" ||
	fail "trial: the permanent limit outlives a power cycle" "$(tblk sim:v)"

# a trial a power cycle undid: restore sends nothing and says why
run $R limit --blocks 4194304 --volatile --yes sim:p
"$PROG" --rig "$TMP/tr/rig.json" sim power-cycle sim:p >/dev/null
run $R -v restore --yes sim:p
expect "trial undone by a power cycle: restore says so" 0 \
	"already at 8388608 blocks.*a power cycle already undid the trial \\(volatile\\) limit; nothing sent"
printf '%s\n%s\n' "$OUT" "$ERR" | grep -q "SET MAX" &&
	fail "trial undone by a power cycle: no SET MAX sent" "$ERR" ||
	pass "trial undone by a power cycle: no SET MAX sent"
run $R limit --blocks 6291456 --yes sim:p
expect "trial undone by a power cycle: the permanent limit succeeds" 0 "^sim:p: limited to 6291456 blocks"

# a permanent limit over a trial: the drive's permanent maximum changed, so
# its restore is permanent (the trial's volatile restore would come back at
# the permanent limit after the next power cycle)
"$PROG" --rig "$TMP/tr/rig.json" sim power-cycle sim:p >/dev/null
run $R restore --yes sim:p
"$PROG" --rig "$TMP/tr/rig.json" sim power-cycle sim:p >/dev/null
run $R limit --blocks 6291456 --volatile --yes sim:p
"$PROG" --rig "$TMP/tr/rig.json" sim power-cycle sim:p >/dev/null
run $R reapply sim:p
run $R limit --blocks 4194304 --yes sim:p
expect "a permanent limit over a reapplied trial" 0
"$PROG" --rig "$TMP/tr/rig.json" sim power-cycle sim:p >/dev/null
run $R restore --dry-run sim:p
expect "restore after trial then permanent: a permanent SET MAX" 0 "SET MAX ADDRESS EXT \\(non-volatile\\)$"
