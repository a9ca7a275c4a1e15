# probe DEV: will the path pass the commands of the limit methods? The simulator plays a bridge
# that drops the returned ATA registers (drop-registers), one that drops MODE SELECT
# (drop-mode-select) and one that does not pass an opcode at all (reject:OP); limit's checks
# refuse the method such a path cannot carry before anything is changed.

J=$SHORTSTROKE_STATE_DIR/journal.jsonl
# sent NAME: how many commands of that name -v traced ("Mode select(10)")
sent() { printf '%s\n' "$ERR" | grep -cF "[$1]"; }
lines() { [ -f "$J" ] && wc -l <"$J" || echo 0; }

run "$PROG" --demo probe sim:sata250
expect "probe: a SATA disk on a clean path carries hpa and dco" 0 \
	"^native-max: +passed: native maximum 488397168 blocks"
printf '%s\n' "$OUT" | grep -qE "^Carries: +hpa,dco,partition$" && printf '%s\n' "$OUT" | grep -qE "^Cannot carry: +none$" &&
	pass "probe: carries every method of the drive" || fail "probe: carries" "$OUT"
run "$PROG" --demo probe -J sim:sas15k
json_check "probe -J: a SAS disk: mode steps passed, ATA steps not run, every method carried" \
	"[s['verdict'] for s in d['steps']] == ['not run', 'not run', 'passed', 'passed'] and d['carries'] == ['scsi-resize', 'scsi-format', 'partition'] and d['blocked'] == [] and d['device'] == 'sim:sas15k'"

# a bridge that ignores CK_COND: no registers, so hpa/dco are blocked
"$PROG" --demo sim fault sim:sata250 drop-registers >/dev/null
run "$PROG" --demo probe -J sim:sata250
expect "probe: registers dropped: exit 1" 1
json_check "probe -J: registers dropped: native-max failed, hpa and dco blocked, partition carried" \
	"d['steps'][0]['verdict'] == 'failed' and 'CK_COND was ignored' in d['steps'][0]['detail'] and d['steps'][1]['verdict'] == 'passed' and d['blocked'] == ['hpa', 'dco'] and d['carries'] == ['partition']"
run "$PROG" --demo -v limit --percent 50 --yes sim:sata250
expect "limit by hpa behind a path that drops registers: refused in the checks" 1 "" \
	"sim:sata250: this path cannot carry the hpa method: CK_COND was ignored.*Nothing was changed.*--method partition"
[ "$(printf '%s\n' "$ERR" | grep -cE '^sim:sata250: cdb: 85 .* (f9|37) 00 ')" = 0 ] && [ "$(lines)" = 0 ] &&
	pass "limit refused: no SET MAX sent, nothing journaled" || fail "limit refused: nothing sent" "$ERR"
run "$PROG" --demo limit --percent 50 --method partition --yes sim:sata250
expect "the partition method passes the same path" 0 "limited to 244197376 blocks .* by partition"
run "$PROG" --demo restore --yes sim:sata250
expect "and restore takes it back" 0 "restored to 488397168 blocks"
"$PROG" --demo sim fault --clear sim:sata250 >/dev/null

# a bridge that answers MODE SELECT GOOD and takes none of its data
"$PROG" --demo sim fault sim:sas15k drop-mode-select >/dev/null
run "$PROG" --demo probe sim:sas15k
expect "probe: MODE SELECT dropped: exit 1" 1 \
	"^mode-select: +failed: answered GOOD but took none of its 24 bytes: the path drops MODE SELECT"
printf '%s\n' "$OUT" | grep -qE "^Cannot carry: +scsi-resize,scsi-format$" &&
	pass "probe: MODE SELECT dropped: scsi-resize and scsi-format blocked" || fail "probe: blocked methods" "$OUT"
before=$(lines)
run "$PROG" --demo limit --percent 50 --yes -J sim:sas15k
expect "limit by scsi-resize behind a path that drops MODE SELECT: refused" 1
json_check "limit -J: the refusal names the probe step" \
	"'cannot carry the scsi-resize method' in d['results'][0]['error'] and '(probe step mode-select)' in d['results'][0]['error']"
[ "$(lines)" = "$before" ] && pass "limit refused: nothing journaled" || fail "limit refused: journal" "$(cat "$J")"
run "$PROG" --demo info -J sim:sas15k
json_check "the disk keeps its capacity" "d['capacity_blocks'] == 879097968"
"$PROG" --demo sim fault --clear sim:sas15k >/dev/null

# a bridge that does not pass MODE SELECT at all; a dry run sends no MODE SELECT, not even the probe's
"$PROG" --demo sim fault sim:sas15k reject:55 >/dev/null
run "$PROG" --demo probe sim:sas15k
expect "probe: MODE SELECT rejected (ILLEGAL REQUEST)" 1 \
	"^mode-select: +failed: command 0x55 failed: Illegal Request: Invalid command operation code"
run "$PROG" --demo -v limit --percent 50 --dry-run sim:sas15k
expect "limit --dry-run: the probe's MODE SELECT is not sent" 0 "dry run: would limit"
[ "$(sent 'Mode select(10)')" = 0 ] && pass "limit --dry-run: no MODE SELECT reached the drive" ||
	fail "limit --dry-run: MODE SELECT sent" "$ERR"
"$PROG" --demo sim fault --clear sim:sas15k >/dev/null

# a command the drive aborts says nothing of the path: inconclusive, not held against the method
"$PROG" --demo sim fault sim:sas15k abort:55 >/dev/null
run "$PROG" --demo probe -J sim:sas15k
expect "probe: MODE SELECT aborted by the drive: exit 0" 0
json_check "probe -J: aborted: inconclusive, scsi methods neither carried nor blocked" \
	"d['steps'][3]['verdict'] == 'inconclusive' and d['blocked'] == [] and d['unknown'] == ['scsi-resize', 'scsi-format']"
"$PROG" --demo sim fault --clear sim:sas15k >/dev/null

# a disk in use gets no MODE SELECT unless --force
"$PROG" --demo limit --method partition --size 100GB --yes sim:sas15k >/dev/null
run "$PROG" --demo -v probe sim:sas15k
expect "probe of a disk in use: the MODE SELECT is not sent" 0 \
	"^mode-select: +not run: not sent: the disk is in use; --force to send it"
[ "$(sent 'Mode select(10)')" = 0 ] && pass "probe of a disk in use: no MODE SELECT reached it" ||
	fail "probe in use: MODE SELECT sent" "$ERR"
run "$PROG" --demo -v probe --force sim:sas15k
expect "probe --force of a disk in use: sent and passed" 0 "^mode-select: +passed"
[ "$(sent 'Mode select(10)')" = 1 ] && pass "probe --force: one MODE SELECT" || fail "probe --force: MODE SELECT count" "$ERR"
"$PROG" --demo restore --yes sim:sas15k >/dev/null

run "$PROG" --demo sim fault sim:sas15k reject:zz
expect "reject:<op> takes one hex byte" 2 "" "opcode must be one hex byte|expected reject"
run "$PROG" --demo probe
expect "probe without a device: usage" 2 "" "name a device"
run "$PROG" --demo probe sim:nonexistent
expect "probe of an unknown device: usage" 2 "" "nonexistent"
