# -v: every command sent to a drive, with its status (as sg3_utils' -vv), for
# every command of every operation, on stderr

run "$PROG" --demo -v info sim:sas15k
expect "-v info: INQUIRY traced" 0 "" "^sim:sas15k: cdb: 12 00 00 00 60 00  \\[Inquiry\\] in 96 bytes -> GOOD"
expect "-v info: READ CAPACITY(16) traced" 0 "" "\\[Read capacity\\(16\\)\\] in 32 bytes -> GOOD"
n=$(printf '%s\n' "$ERR" | grep -c '^sim:sas15k: cdb: ')
[ "$n" -ge 7 ] && pass "-v info: every identification command ($n)" ||
	fail "-v info: every identification command" "only $n lines" "$ERR"

run "$PROG" --demo -v smart sim:sata250
expect "-v smart: ATA commands by name" 0 "" "85 08 0e 00 d0 00 .*\\[ATA SMART READ DATA\\] in 512 bytes -> GOOD"
expect "-v smart: thresholds too" 0 "" "\\[ATA SMART READ THRESHOLDS\\]"

run "$PROG" --demo -v smart sim:sas15k
expect "-v smart on SAS: LOG SENSE" 0 "" "cdb: 4d .*\\[Log sense\\]"

run "$PROG" --demo -v limit --percent 50 --yes sim:sata250
expect "-v limit: the reads before the change" 0 "" "\\[ATA IDENTIFY DEVICE\\]"
expect "-v limit: the change" 0 "" "\\[ATA SET MAX ADDRESS EXT\\] no data -> GOOD"
if printf '%s\n' "$ERR" | awk '/SET MAX ADDRESS EXT/ { s = NR } /ATA IDENTIFY DEVICE/ { i = NR }
	END { exit !(s && i > s) }'; then
	pass "-v limit: the verification after the change"
else
	fail "-v limit: the verification after the change" "$ERR"
fi
n=$(printf '%s\n' "$ERR" | grep -c 'cdb: ')
[ "$n" -ge 15 ] && pass "-v limit: every command ($n), not only the two that change the disk" ||
	fail "-v limit: every command" "only $n lines" "$ERR"

run "$PROG" --demo -v info -J sim:sata250
json_check "-v info -J: stdout stays JSON" "d['device'] == 'sim:sata250'"

"$PROG" --demo sim fault sim:sas15k abort:5a >/dev/null
run "$PROG" --demo -v info sim:sas15k
expect "-v: a CHECK CONDITION with the sense decoded and in hex" 0 "" \
	"\\[Mode sense\\(10\\)\\].* -> CHECK CONDITION \\(0x02\\): Aborted Command.*; sense: 7[02] "
"$PROG" --demo sim fault --clear sim:sas15k >/dev/null

"$PROG" --demo sim fault sim:sata320 vanish-after:3 >/dev/null
run "$PROG" --demo -v info sim:sata320
good=$(printf '%s\n' "$ERR" | grep -c -- '-> GOOD')
gone=$(printf '%s\n' "$ERR" | grep -c 'not delivered')
[ "$RC" = 1 ] && [ "$good" = 3 ] && [ "$gone" -ge 1 ] &&
	pass "-v: exactly the 3 commands the drive answered, then the one not delivered" ||
	fail "-v: exactly the commands the drive answered" "exit $RC, good $good, gone $gone" "$ERR"
"$PROG" --demo sim power-cycle sim:sata320 >/dev/null

run "$PROG" --demo info sim:sas15k
if printf '%s\n' "$ERR" | grep -q 'cdb: '; then
	fail "without -v: no trace" "$ERR"
else
	pass "without -v: no trace"
fi
