# depop: storage element depopulation on simulated SAS and SATA drives: info's elements and
# their health (a weak head at its limit), the refusals (usage, no such element, a drive
# without the feature, not confirmed, a limited disk, the last element), a dry run that sends
# nothing, the removal (erased, smaller, journaled with the element, idempotent), a limit
# that starts from the new native capacity, the restore, and kill -9 / SIGTERM while the
# drive works (the next run watches it to its end and closes the record); a zoned SATA disk
# retires an element by REMOVE ELEMENT AND MODIFY ZONES (its zones go offline), a zoned SAS
# disk is refused.

cat >"$TMP/drig.json" <<'RIG'
{
  "time_scale": 100000,
  "drives": [
    { "id": "sas", "personality": "sas", "vendor": "SEAGATE", "model": "ST4000NM0025", "serial": "DPSAS001",
      "firmware": "E001", "wwn": "5000c500a1b2c3d4", "blocks": 195312500, "rpm": 7200, "heads": 4,
      "depop": true, "smart": true, "faults": ["weak-head:2"] },
    { "id": "sata", "personality": "sata", "model": "ST4000NM0035", "serial": "DPSATA01",
      "firmware": "SN01", "blocks": 195312500, "rpm": 7200, "heads": 4, "depop": true, "amac": true },
    { "id": "plain", "personality": "sata", "model": "ST1000DM003", "serial": "PLAIN001",
      "firmware": "CC45", "blocks": 195312500, "rpm": 7200 }
  ]
}
RIG
D="$PROG --rig $TMP/drig.json"
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
lines() { [ -f "$J" ] && wc -l <"$J" || echo 0; }
blocks() { $D info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }

# --- info: the elements and their health --------------------------------------------------
run $D info sim:sas
expect "info: the elements" 0 "^Elements: +4 storage elements, 0 depopulated \(at most 3\)$"
expect "info: the weak head is element 3, at its limit" 0 "^  element 3: +at limit \(health 100\), 25.0 GB  <- near its limit$"
expect "info: a sound element" 0 "^  element 1: +ok \(health 1\), 25.0 GB$"
run $D info -J sim:sata
json_check "info -J: elements of a SATA drive (ATA GET PHYSICAL ELEMENT STATUS)" \
	"d['elements']['total'] == 4 and [e['health'] for e in d['elements']['list']] == [1, 1, 1, 1] and d['elements']['list'][0]['capacity_blocks'] == 48828125"
run $D info -J sim:plain
json_check "info -J: a drive without the feature has no elements" "'elements' not in d"

# --- qualify: the weak head fails SMART as the drive rates it, and the zone profile ----------
run $D qualify sim:sas
expect "qualify: element 3 at its limit fails the SMART check" 1 "^  smart +FAIL +storage element 3 at limit \(health 100\): 'shortstroke depop --element 3' retires it$"
expect "qualify: the zone profile dips where the weak head reads" 1 "^  zones +FAIL .*a weak head\?"
run $D qualify -J sim:sas
json_check "qualify -J: the elements beside SMART" "[e['near_limit'] for e in d['disks'][0]['smart']['elements']] == [False, False, True, False]"

# --- refusals ---------------------------------------------------------------------------------
run $D depop --yes sim:sas
expect "no element named: usage" 2 "" "which element"
run $D depop --element 0 --yes sim:sas
expect "element 0: usage" 2 "" "not an element identifier"
run $D depop --element 3 --restore --yes sim:sas
expect "--element and --restore: usage" 2 "" "not both"
run $D depop --element 9 --yes sim:sas
expect "an element the drive lacks: usage, listing them" 2 "" "no element 9 \(its elements: 1, 2, 3, 4\)"
run $D depop --element 1 --yes sim:plain
expect "a drive without the feature" 1 "" "reports no storage elements.*nothing sent"
run $D depop --element 3 sim:sas </dev/null
expect "no --yes and no terminal: refused" 3 "" "not confirmed"
[ "$(lines)" = 0 ] && pass "refusals journal nothing" || fail "refusals journal nothing" "$(cat "$J")"

run $D depop --element 3 --dry-run sim:sas
expect "dry run: the CDB" 0 "9e 18 00 00 00 00 00 00 00 00 00 00 00 03 00 00  REMOVE ELEMENT AND TRUNCATE"
run $D depop --element 2 --dry-run sim:sata
expect "dry run (SATA): ATA 7Ch through SAT, element in COUNT" 0 "85 07 00 00 00 00 02 00 00 00 00 00 00 40 7c 00  REMOVE ELEMENT AND TRUNCATE"
[ "$(blocks sim:sas)" = 195312500 ] && [ "$(lines)" = 0 ] && pass "dry run sends nothing" \
	|| fail "dry run sends nothing" "$(blocks sim:sas)" "$(cat "$J" 2>&1)"

# --- the removal ------------------------------------------------------------------------------
run $D depop --element 3 --yes sim:sas
expect "depop: element 3 retired" 0 "^sim:sas: element 3 depopulated: 146484375 blocks \(75.0 GB\), erased"
[ "$(blocks sim:sas)" = 146484375 ] && pass "the drive is 3/4 of its size" || fail "the drive is 3/4 of its size" "$(blocks sim:sas)"
run $D info sim:sas
expect "info: element 3 depopulated, may come back" 0 "^  element 3: +depopulated \(health 255\), 25.0 GB, may be restored$"
run $D qualify sim:sas
expect "qualify after retiring the weak head: it passes" 0 "^sim:sas .* PASS +PASS +SKIP +PASS +PASS +PASS +SKIP +PASS$"
grep -q '"event":"depop","device":"sim:sas".*"native_blocks":195312500,"original_blocks":195312500,"target_blocks":146484375.*"element":3' "$J" &&
	grep -q '"event":"depop-done","device":"sim:sas".*"native_blocks":146484375.*"element":3' "$J" &&
	pass "journal: depop and depop-done with the element" || fail "journal: depop and depop-done with the element" "$(cat "$J")"
run $D restore --yes sim:sas
expect "restore offers RESTORE ELEMENTS AND REBUILD" 3 "" "1 storage element retired: 'shortstroke depop --restore sim:sas' brings it back"
n=$(lines)
run $D depop --element 3 --yes sim:sas
expect "again: nothing to send" 0 "element 3 is depopulated already; nothing to send"
[ "$(lines)" = "$n" ] && pass "a no-op journals nothing" || fail "a no-op journals nothing"

# SATA: the native maximum moves; a limit then starts from it
run $D depop --element 2 --yes -J sim:sata
json_check "depop -J (SATA)" "d['results'][0]['element'] == 2 and d['results'][0]['after_blocks'] == 146484375 and d['results'][0]['changed']"
run $D info -J sim:sata
json_check "SATA: native and accessible maximum both the new capacity" "d['capacity_blocks'] == 146484375 and d['native_blocks'] == 146484375"
run $D limit --percent 50 --yes sim:sata
want=$(python3 -c "n=146484375*50//100; print(n - n % 2048)")
expect "a limit is a share of the new native capacity" 0 "limited to $want blocks"
run $D depop --element 1 --yes sim:sata
expect "a limited disk is refused: restore first" 3 "" "is limited \(by amac.*restore sim:sata' first"
run $D restore --yes sim:sata
expect "restore the limit" 0 "restored to 146484375 blocks"
run $D depop --element 1 --yes sim:sata
expect "element 1 too" 0 "element 1 depopulated: 97656250 blocks"
run $D depop --element 3 --yes sim:sata
expect "element 3 too" 0 "element 3 depopulated: 48828125 blocks"
run $D depop --element 4 --yes sim:sata
expect "the last element is refused" 1 "" "element 4 is the last one that holds data; nothing sent"

# --- plan: the new capacity, and the weak element named ----------------------------------------
run $D plan sim:sas sim:sata --level 1
expect "plan: a retired element noted" 0 "" "1 of 4 storage elements retired: the plan takes the native capacity it has now.*sim:sas"

# --- restore ------------------------------------------------------------------------------------
run $D depop --restore --yes sim:sata
expect "restore the elements" 0 "^sim:sata: elements restored: 195312500 blocks \(100 GB\), erased$"
run $D info -J sim:sata
json_check "every element back" "d['capacity_blocks'] == 195312500 and d['elements']['depopulated'] == 0"
grep -q '"event":"elements-restore-done","device":"sim:sata"' "$J" && pass "journal: elements-restore-done" || fail "journal: elements-restore-done"
run $D depop --restore --yes sim:sata
expect "restore again: nothing to send" 0 "no element is depopulated; nothing to send"

# --- a zoned disk: REMOVE ELEMENT AND MODIFY ZONES (ATA 7Eh): the element's zones go offline -----
cat >"$TMP/zrig.json" <<'RIG'
{ "time_scale": 100000,
  "drives": [
    { "id": "zsata", "personality": "sata", "model": "ST14000NM0428", "serial": "DPZSATA1",
      "firmware": "SN02", "blocks": 195312500, "rpm": 7200, "heads": 4, "depop": true,
      "zoned": "host-managed", "zone_size_mb": 256, "conventional_zones": 4 },
    { "id": "zsas", "personality": "sas", "vendor": "SEAGATE", "model": "ST14000NM0448",
      "serial": "DPZSAS01", "firmware": "E002", "wwn": "5000c500a1b2c3e1", "blocks": 195312500,
      "rpm": 7200, "heads": 4, "depop": true, "zoned": "host-managed" } ] }
RIG
Z="$PROG --rig $TMP/zrig.json"
zcond() { $Z zones -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['conditions'].get('$2', 0))"; }
n=$(lines)
run $Z depop --element 2 --dry-run sim:zsata
expect "zoned dry run: ATA 7Eh through SAT, element in COUNT" 0 \
	"85 07 00 00 00 00 02 00 00 00 00 00 00 40 7e 00  REMOVE ELEMENT AND MODIFY ZONES"
expect "zoned dry run: the plan says the capacity stays" 0 "by REMOVE ELEMENT AND MODIFY ZONES: its zones go offline.*the capacity stays 100 GB"
[ "$(zcond sim:zsata offline)" = 0 ] && [ "$(lines)" = "$n" ] && pass "zoned dry run sends nothing" ||
	fail "zoned dry run sends nothing" "$(zcond sim:zsata offline)" "$(lines)"
run $Z depop --element 2 --yes sim:zsata
expect "zoned: element 2 retired, its zones offline, the capacity kept" 0 \
	"^sim:zsata: element 2 depopulated: 93 zones read offline \('shortstroke zones sim:zsata'\), the capacity stays 195312500 blocks \(100 GB\)$"
run $Z zones sim:zsata
expect "zones after: every 4th zone (element 2's) offline" 0 "^By condition: 3 not-write-pointer, 277 empty, 93 offline$"
zb=$($Z info -J sim:zsata | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])")
[ "$zb" = 195312500 ] && pass "zoned: the capacity stays" || fail "zoned: the capacity stays" "$zb"
run $Z info sim:zsata
expect "zoned: info says element 2 is depopulated" 0 "^  element 2: +depopulated \(health 255\)"
grep -q '"event":"depop-done","device":"sim:zsata".*"native_blocks":195312500.*"element":2' "$J" &&
	pass "zoned: journal depop-done with the element" || fail "zoned: journal depop-done with the element" "$(cat "$J")"
run $Z depop --element 3 --yes sim:zsata
expect "zoned: a second element" 0 "element 3 depopulated: 186 zones read offline"
run $Z depop --restore --yes sim:zsata
expect "zoned: restore brings the zones back" 0 "elements restored: 195312500 blocks"
[ "$(zcond sim:zsata offline)" = 0 ] && pass "zoned: no zone offline after the restore" ||
	fail "zoned: no zone offline after the restore" "$(zcond sim:zsata offline)"
n=$(lines)
run $Z depop --element 2 --yes sim:zsas
expect "zoned SAS: refused, the ZBC command is not sent" 1 "" \
	"REMOVE ELEMENT AND MODIFY ZONES, which shortstroke sends to ATA \(ZAC\) disks only.*nothing sent"
[ "$(lines)" = "$n" ] && pass "zoned SAS refusal journals nothing" || fail "zoned SAS refusal journals nothing"

# --- stopped while the drive works: it goes on, the next run watches it and records it ---------
cat >"$TMP/slow.json" <<'RIG'
{ "time_scale": 250,
  "drives": [ { "id": "slow", "personality": "sas", "vendor": "SEAGATE", "model": "ST4000NM0025",
    "serial": "DPSLOW01", "firmware": "E001", "wwn": "5000c500a1b2c3d5", "blocks": 195312500,
    "rpm": 7200, "heads": 4, "depop": true } ] }
RIG
S="$PROG --rig $TMP/slow.json"
# SIGTERM once its record is written (the command is sent right after; the drive takes ~3 s)
n=$(lines)
$S depop --element 1 --yes sim:slow >"$TMP/out" 2>"$TMP/err" &
pid=$!
k=0
while [ "$(lines)" = "$n" ] && [ $k -lt 500 ] && kill -0 $pid 2>/dev/null; do sleep 0.02; k=$((k + 1)); done
sleep 0.3
kill -TERM $pid 2>/dev/null
wait $pid
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
expect "SIGTERM while depopulating: 143, the drive goes on" 143 "" "stopped watching the depopulation.*goes on inside the drive"
grep '"serial":"DPSLOW01"' "$J" | tail -1 | grep -q '"event":"depop"' && pass "the record stays open" || fail "the record stays open" "$(cat "$J")"
run $S depop --element 1 --yes sim:slow
expect "the same command watches it to its end and records it" 0 "element 1 depopulated: 146484375 blocks"
grep '"serial":"DPSLOW01"' "$J" | tail -1 | grep -q '"event":"depop-done"' && pass "closed after the watch" || fail "closed after the watch" "$(cat "$J")"
# kill -9 after the record is written: the change may or may not have been sent; the drive says
case $(python3 "$HERE/killat.py" records 1 "$J" -- $S depop --element 2 --yes sim:slow) in
killed | finished) pass "killed after its record" ;;
esac
run $S depop --element 2 --yes sim:slow
case $RC in
0) printf '%s\n' "$OUT" | grep -qE "element 2 depopulated: 97656250 blocks|element 2 is depopulated already" &&
	pass "after kill -9: the next run ends it" || fail "after kill -9: the next run ends it" "$OUT" "$ERR" ;;
*) fail "after kill -9: the next run ends it" "exit $RC" "$OUT" "$ERR" ;;
esac
grep '"serial":"DPSLOW01"' "$J" | tail -1 | grep -q '"event":"depop-done".*"element":2' &&
	pass "after kill -9: the record closed" || fail "after kill -9: the record closed" "$(grep DPSLOW01 "$J")"

# the TUI: Enter on a drive shows its elements and sector sizes, as info prints them
if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	export SHORTSTROKE_STATE_DIR="$TMP/tui-state"
	tui_start dp 100 40 --demo
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	tui_keys / # sim:exos-sas, found by the filter
	tui_keys -l ZC1D5Q7T
	tui_keys Enter Enter
	tui_check "tui: Enter on a drive with elements: each element's health" \
		"element 6: +at limit \(health 100\)"
	tui_keys q Escape / 
	tui_keys -l ZC20HX4M
	tui_keys Enter Enter
	tui_check "tui: Enter: the sector sizes the drive offers" "Sector sizes: +512 \(now\), 4096"
	tui_keys q
	tui_stop
else
	fail "t_depop: tmux is installed (tests/deps.sh check installs it)"
fi
