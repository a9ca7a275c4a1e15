# limit on a flash drive (issue 30.1, docs/flash.md): the range it hides is TRIMmed (ATA) or
# UNMAPped (SCSI) first, then the max is set, verified and journaled; the preview says what
# happens to the data there, and says so when the drive's TRIM is not deterministic or absent;
# restore brings the capacity back; the spare area it gives shows in sustained random writes;
# a limit killed with its SET MAX in flight is restored from the journal.

cat >"$TMP/fl-rig.json" <<'RIG'
{ "time_scale": 0, "drives": [
  { "id": "ssd", "personality": "sata", "model": "Crucial_CT256M4SSD2", "serial": "FL-SSD",
    "firmware": "070H", "wwn": "500a075100000001", "blocks": 4194304, "hpa": true,
    "flash": {} },
  { "id": "sas", "personality": "sas", "vendor": "HGST", "model": "HUSMM1620ASS200",
    "serial": "FL-SAS", "firmware": "A204", "wwn": "5000cca04e000002", "blocks": 4194304,
    "flash": {"trim": "nondeterministic"} },
  { "id": "notrim", "personality": "sata", "model": "OLD SSD", "serial": "FL-OLD",
    "firmware": "1.0", "blocks": 4194304, "hpa": true, "flash": {"trim": "none"} },
  { "id": "ws", "personality": "sas", "vendor": "HGST", "model": "HUSMM1620ASS200",
    "serial": "FL-WS", "firmware": "A204", "wwn": "5000cca04e000003", "blocks": 4194304,
    "flash": {"unmap": false} },
  { "id": "hdd", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "FL-HDD",
    "firmware": "82.00A82", "blocks": 4194304, "hpa": true }
] }
RIG
FL="$PROG --rig $TMP/fl-rig.json"
FLJ="$SHORTSTROKE_STATE_DIR/journal.jsonl"
fl_count() { grep -c "\"serial\":\"$1\".*\"event\":\"$2\"\|\"event\":\"$2\".*\"serial\":\"$1\"" "$FLJ" 2>/dev/null || true; }
fl_iops() { $FL bench -w random-write -q 32 -t 2s --destructive --yes -J sim:ssd |
	python3 -c "import json,sys; d=json.load(sys.stdin); print(int(d['results'][0]['runs'][0]['iops']))"; }

# --- the preview: TRIM first, what the data becomes ------------------------------------------
run $FL limit --dry-run --percent 72 sim:ssd
expect "dry run: the preview says the hidden range is TRIMmed and reads zeros" 0 \
	"flash: the data in LBA [0-9]+-4194303 .* is discarded first \\(TRIM\\): it reads back as zeros"
dsm=$(printf '%s\n' "$OUT" | grep -n "DATA SET MANAGEMENT" | head -1 | cut -d: -f1)
setmax=$(printf '%s\n' "$OUT" | grep -n "SET MAX ADDRESS" | head -1 | cut -d: -f1)
[ -n "$dsm" ] && [ -n "$setmax" ] && [ "$dsm" -lt "$setmax" ] &&
	pass "dry run: DATA SET MANAGEMENT (TRIM) comes before SET MAX ADDRESS" ||
	fail "dry run: DATA SET MANAGEMENT (TRIM) comes before SET MAX ADDRESS" "$OUT"

run $FL limit --dry-run --percent 72 sim:sas
expect "SAS: UNMAP, and a drive that does not say what it reads back is named so" 0 \
	"discarded first \\(UNMAP\\): the drive does not say what it reads back \\(not deterministic\\)"
run $FL limit --dry-run --percent 72 sim:notrim
expect "no TRIM: the preview says the drive gains no spare area" 0 \
	"takes no TRIM or UNMAP: the data in LBA .* stays on the flash, so the drive gains no spare"
run $FL limit --dry-run --percent 72 sim:hdd
if printf '%s\n' "$OUT" | grep -q "flash:\|TRIM"; then
	fail "a disk: no TRIM, no flash note" "$OUT"
else
	pass "a disk: no TRIM, no flash note"
fi

# --- the limit: TRIM, SET MAX, verified, journaled; the spare shows --------------------------
before=$(fl_iops)
run $FL limit --yes -v --percent 72 sim:ssd
expect "limit: TRIM sent, then the max set and verified" 0 "limited to 30[0-9]{5} blocks" \
	"DATA SET MANAGEMENT|cdb: 85 0d 06"
[ "$(fl_count FL-SSD limit)" = 1 ] && [ "$(fl_count FL-SSD limit-done)" = 1 ] &&
	pass "limit: journaled (limit, limit-done)" || fail "limit: journaled (limit, limit-done)" "$(cat "$FLJ")"
after=$(fl_iops)
[ "$after" -gt $((before * 3 / 2)) ] &&
	pass "28 % spare handed back: sustained random writes $before -> $after IOPS" ||
	fail "28 % spare handed back: sustained random writes $before -> $after IOPS"

# --- SAS without UNMAP: WRITE SAME (16) with UNMAP and a block of zeros, as Linux's sd ----------
run $FL limit --yes -v --percent 72 sim:ws
expect "no UNMAP (VPD B2h LBPU 0): WRITE SAME (16) with UNMAP, a block of zeros" 0 \
	"discarded first \\(WRITE SAME \\(16\\) with UNMAP\\): it reads back as zeros" \
	"cdb: 93 08 00 00 00 00 00 2e 10 00 .*out 512 bytes -> GOOD"

# --- restore (a permanent SET MAX takes a power cycle first) ---------------------------------
$FL sim power-cycle sim:ssd >/dev/null
run $FL restore --yes sim:ssd
expect "restore brings the capacity back" 0 "restored to 4194304 blocks"

# --- killed with SET MAX in flight: the TRIM done, the journal open; restore takes it back ---
$FL sim power-cycle sim:ssd >/dev/null
$FL sim fault sim:ssd delay:30000:37 >/dev/null
$FL limit --yes --percent 50 sim:ssd >"$TMP/fl-out" 2>&1 &
pid=$!
i=0
until grep -q '"nv_setmax_done": true' "$(echo "$SHORTSTROKE_STATE_DIR"/sim/fl-rig-*)/ssd.json" 2>/dev/null; do
	i=$((i + 1))
	[ $i -ge 600 ] && break
	sleep 0.05
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
$FL sim fault --clear sim:ssd >/dev/null
[ "$(fl_count FL-SSD limit)" = 2 ] && [ "$(fl_count FL-SSD limit-done)" = 1 ] &&
	pass "killed in flight: the limit journaled, not completed" ||
	fail "killed in flight: the limit journaled, not completed" "$(cat "$FLJ")"
$FL sim power-cycle sim:ssd >/dev/null
run $FL restore --yes sim:ssd
expect "killed in flight: restore takes the disk back from the journal" 0 "restored to 4194304 blocks"

# --- the TUI's limit dialog on the demo rig's SSD: the preview says what happens ----------------
if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	for size in 80x24 200x60; do
		w=${size%x*} h=${size#*x}
		export SHORTSTROKE_STATE_DIR="$TMP/fl-tui-$size"
		tui_start fl$size "$w" "$h" --demo
		tui_wait "demo rig - 7 drives" >/dev/null
		tui_keys G l # sim:ssd, the last drive
		tui_type 72%
		tui_check "tui $size: the limit preview on an SSD: TRIM first, zeros after a restore" \
			"Flash: +the data in LBA 360083456-500118191 .*discarded"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		[ ! -s "$SHORTSTROKE_STATE_DIR/journal.jsonl" ] &&
			pass "tui $size: Esc: nothing journaled" || fail "tui $size: Esc: nothing journaled"
		tui_stop
	done
else
	skip "tui: the limit preview on an SSD" "tmux is not installed"
fi

# --- plan: SSD members, a stroke that is spare; the plan file keeps them ----------------------
P="$PROG --demo --state-dir $TMP/fl-plan"
W="--workload custom:bs=4K,read=0,random=1 --qd 32"
run $P plan --disks 2 --model-of sim:ssd $W --level 1 --stroke 100% -n -r -o IOPS
full=$OUT
run $P plan --disks 2 --model-of sim:ssd $W --level 1 --stroke 72% -n -r -o IOPS -O "$TMP/fl-plan.json"
expect "plan: SSD members: a flash drive's stroke is its share used" 0 "" "a flash drive: its stroke is the share"
[ "${OUT%%.*}" -gt $((${full%%.*} * 3)) ] &&
	pass "plan: 28 % spare: RAID 1 of two SSDs sustains over 3x the random writes ($full -> $OUT)" ||
	fail "plan: 28 % spare: RAID 1 of two SSDs sustains over 3x the random writes ($full -> $OUT)"
grep -q '"flash": true' "$TMP/fl-plan.json" && pass "plan -O: the members are flash drives" ||
	fail "plan -O: the members are flash drives" "$(cat "$TMP/fl-plan.json")"
run $P plan --check "$TMP/fl-plan.json"
expect "plan --check: the figures match" 0 "valid; the figures match the plan's"
run $P plan --disks 4 --model-of sim:ssd $W --level 10 --iops 20000 --top 1 -n -r -o STROKE
expect "plan: an IOPS goal on SSDs gives a stroke under 100 % (spare with the level)" 0 "^(8|7|6|5)[0-9]\\."
run $P plan sim:ssd sim:sata250
expect "plan: SSDs and disks together: refused" 2 "" "flash drives and disks are not planned together"
