# locate / fault DEV: a disk's enclosure slot LEDs through SES, on the demo rig's enclosure
# (sim:jbod0, the six demo drives in slots 0-5) and on a rig without one; info shows the slot.

encl_state() { cat "$SHORTSTROKE_STATE_DIR"/sim/demo/jbod0.encl 2>/dev/null | tr '\n' ' '; }

run "$PROG" --demo info sim:sata250
expect "info: the slot that holds the disk, its LEDs" 0 \
	"^Enclosure: +sim:jbod0 slot 1 \\(Slot 01\\), locate off, fault off$"
run "$PROG" --demo -v locate sim:sata250
expect "locate: the slot's locate LED on" 0 "^sim:sata250: sim:jbod0 slot 1 \\(Slot 01\\): locate on, fault off$"
n=$(printf '%s\n' "$ERR" | grep -c '^sim:sata250: cdb:')
s=$(printf '%s\n' "$ERR" | grep -c '^sim:jbod0: cdb: 1d ')
[ "$s" = 1 ] && ! printf '%s\n' "$ERR" | grep -E '^sim:sata250: cdb: (1d|55|85 .* (f9|37|c0))' >/dev/null &&
	pass "locate: one SEND DIAGNOSTIC to the enclosure, only identification to the disk ($n commands)" ||
	fail "locate: what was sent" "$ERR"
[ "$(encl_state)" = "ident=01000000 fault=00000000 " ] && pass "the enclosure keeps the LED (slot 1 only)" ||
	fail "enclosure state" "$(encl_state)"
run "$PROG" --demo fault -J sim:sas15k sim:sata250
json_check "fault -J: both slots' fault LEDs on, the locate LED of slot 1 kept" \
	"[(r['device'], r['enclosure']['slot'], r['enclosure']['element'], r['enclosure']['fault'], r['enclosure']['locate']) for r in d['results']] == [('sim:sas15k', 0, 'Slot 00', True, False), ('sim:sata250', 1, 'Slot 01', True, True)] and all(r['ok'] and r['enclosure']['name'] == 'sim:jbod0' for r in d['results'])"
run "$PROG" --demo info -J sim:sata250
json_check "info -J: enclosure object" \
	"d['enclosure'] == {'name': 'sim:jbod0', 'id': '5000ccab0c7e5000', 'vendor': 'SIMENCL', 'product': 'SAS JBOD 8', 'slot': 1, 'element': 'Slot 01', 'status': 'OK', 'locate': True, 'fault': True}"
run "$PROG" --demo locate --off sim:sata250
expect "locate --off: the locate LED off, the fault LED kept" 0 "locate off, fault on$"
run "$PROG" --demo fault --off sim:sas15k sim:sata250
expect "fault --off" 0
[ "$(encl_state)" = "ident=00000000 fault=00000000 " ] && pass "every LED off again" || fail "LEDs off" "$(encl_state)"

# the LEDs as a second tool sees them: the Enclosure Status page read through the simulator
run "$PROG" --demo locate sim:smr
run "$PROG" --demo info sim:smr
expect "a later run reads the LED back from the enclosure" 0 "^Enclosure: +sim:jbod0 slot 4 \\(Slot 04\\), locate on"

# the enclosure is no drive
run "$PROG" --demo info sim:jbod0
expect "info of the enclosure: not a drive" 2 "" "sim:jbod0 is a simulated enclosure, not a drive"

# a rig without an enclosure
RIG=$TMP/noencl.json
"$PROG" sim rig | python3 -c "import json,sys; d=json.load(sys.stdin); d.pop('enclosures'); json.dump(d, sys.stdout)" >"$RIG"
run "$PROG" --rig "$RIG" locate sim:sata250
expect "locate with no enclosure: says so, exit 1" 1 "" "sim:sata250: no SES enclosure is attached"
run "$PROG" --rig "$RIG" info -J sim:sata250
json_check "info -J without an enclosure: null" "d['enclosure'] is None"
# a drive in no slot of the enclosures there are
"$PROG" sim rig | python3 -c "import json,sys; d=json.load(sys.stdin); d['enclosures'][0]['slots'][2] = None; json.dump(d, sys.stdout)" >"$RIG"
run "$PROG" --rig "$RIG" locate -J sim:sata320 sim:sata250
expect "locate of a disk in no slot and one in a slot: exit 4" 4
json_check "locate -J: which failed and why" \
	"[r['ok'] for r in d['results']] == [False, True] and 'in no slot of the SES enclosures attached (sim:jbod0)' in d['results'][0]['error']"
run "$PROG" --demo locate
expect "locate without a disk: usage" 2 "" "name a disk"
run "$PROG" --demo fault sim:nope
expect "fault of an unknown disk: usage" 2 "" "sim:nope"

# qualify --locate-failed: the failed disk's slot lit, the one that passed left dark
"$PROG" --demo locate --off sim:smr >/dev/null
run "$PROG" --demo qualify --locate-failed -J sim:sas15k sim:sata320
expect "qualify --locate-failed: one passed, one failed" 4
json_check "qualify --locate-failed -J: the failed disk's slot is named and lit, the other untouched" \
	"(x := {r['device']: r for r in d['disks']}) and x['sim:sata320']['verdict'] == 'FAIL' and x['sim:sata320']['located']['slot'] == 2 and x['sim:sata320']['located']['locate'] is True and 'located' not in x['sim:sas15k']"
[ "$(encl_state)" = "ident=00100000 fault=00000000 " ] && pass "qualify --locate-failed: only slot 2's locate LED on" ||
	fail "qualify --locate-failed: LEDs" "$(encl_state)"
run "$PROG" --demo qualify --locate-failed sim:sata320
expect "qualify --locate-failed: text" 1 "^  locate LED: on at sim:jbod0 slot 2 \\(Slot 02\\)$"
run "$PROG" --rig "$RIG" qualify --locate-failed sim:sata320
expect "qualify --locate-failed with the disk in no slot: said, the verdict unchanged" 1 \
	"^  locate LED: not lit: in no slot of the SES enclosures attached \\(sim:jbod0\\)$"
