# The journal as the commands read it: a record checked against the drive
# before restore trusts it, a torn last line, two records on one line from
# an old journal, a line that cannot be read.

J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
size_of() { "$PROG" --demo info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
# forge EVENT ORIGINAL NATIVE [BLOCK_LEN]: a record of sim:sata320's as a hand
# (or a bug) might have written it
forge() {
	printf '{"event":"%s","device":"sim:sata320","serial":"S0MQJ1KP607513","method":"hpa","block_len":%s,"native_blocks":%s,"original_blocks":%s,"target_blocks":1}\n' \
		"$1" "${4:-512}" "$3" "$2" >>"$J"
}

# --- restore checks the record against the drive ------------------------------------
before=$(size_of sim:sata320)
forge restore-done 625142448 625142448
forge limit 1000 625142448
run "$PROG" --demo restore --yes sim:sata320
expect "a record smaller than the drive now: refused (exit 3)" 3 "" \
	"refused: the journal's record \(line [0-9]+\) says an original capacity of 1000 blocks, less than the 625142448 the drive has now"
expect "... and the record is shown" 3 "" 'The record: \{.*"original_blocks":1000,'
forge restore-done 625142448 625142448
forge limit 0 625142448
run "$PROG" --demo restore --yes sim:sata320
expect "a record of 0 blocks: refused" 3 "" "says an original capacity of 0 blocks"
forge restore-done 625142448 625142448
forge limit 725142448 0
run "$PROG" --demo restore --yes sim:sata320
expect "a record beyond the native max: refused" 3 "" \
	"says an original capacity of 725142448 blocks, beyond the drive's native maximum of 625142448"
forge restore-done 625142448 625142448
forge limit 625142448 625142448 3
run "$PROG" --demo restore --yes sim:sata320
expect "a record with a block length of 3: refused" 3 "" "says a block length of 3 bytes"
[ "$(size_of sim:sata320)" = "$before" ] && pass "refused records changed nothing" ||
	fail "refused records changed nothing" "$(size_of sim:sata320) blocks, was $before"
forge restore-done 625142448 625142448

# --- an old journal: two records on one line ------------------------------------------------
run "$PROG" --demo limit --size 100GB --yes sim:sata250 sim:sata-hpa
expect "two disks limited" 0 "sim:sata-hpa: limited to"
# join the two "limit" records as the old two-write() appends could leave them
python3 - "$J" <<'EOF'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
idx = [i for i, l in enumerate(lines) if '"event":"limit"' in l and ('sim:sata250' in l or 'sim:sata-hpa' in l)]
a, b = idx[-2], idx[-1]
lines[a] = lines[a] + lines[b]
del lines[b]
open(p, "w").write("\n".join(lines))
EOF
grep -q '}{' "$J" && pass "the journal now holds two records on one line" ||
	fail "the journal now holds two records on one line" "$(cat "$J")"
run "$PROG" --demo sim power-cycle sim:sata250 sim:sata-hpa
run "$PROG" --demo restore --yes sim:sata250 sim:sata-hpa
expect "both records of the line are read: sata250 back to its original" 0 \
	"sim:sata250: restored to 488397168 blocks"
expect "... and sata-hpa back to its own HPA, not the native max" 0 \
	"sim:sata-hpa: restored to 488386584 blocks"

# a batch run again (after a kill): a disk already restored stays as it is
run "$PROG" --demo restore --yes sim:sata-hpa
expect "restore again: already restored, its own HPA kept" 0 \
	"sim:sata-hpa: already restored to 488386584 blocks \(250 GB; journal line [0-9]+\); nothing sent"
[ "$(size_of sim:sata-hpa)" = 488386584 ] && pass "restore again: the HPA is still there" ||
	fail "restore again: the HPA is still there" "$(size_of sim:sata-hpa) blocks"

# --- a torn last line, an unreadable line of another disk ---------------------------------
printf '{"time":"2026-01-01T00:00:00Z","event":"limit","device":"sim:sata250","serial":"STF6' >>"$J"
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo limit --size 100GB --yes sim:sata250
expect "a torn last line: a warning, not fatal" 0 "limited to" \
	"warning: .*journal.jsonl:[0-9]+: the last line is incomplete \(a write cut short by a crash\)"
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo restore --yes sim:sata250
expect "the record after the torn line is read (restored to the original)" 0 \
	"restored to 488397168 blocks" "journal.jsonl:[0-9]+: an incomplete record .* is ignored"
printf '{"event":"limit","serial":"S0MQJ1KP607513",block_len: 512}\n' >>"$J"
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo limit --size 100GB --yes sim:sata250
expect "an unreadable line of another disk: a warning naming it" 0 "limited to" \
	"journal.jsonl:[0-9]+: a line that cannot be read .* concerns another disk \(serial S0MQJ1KP607513\)"
run "$PROG" --demo restore --yes sim:sata320
expect "an unreadable line of this disk: refused, naming the line" 1 "" \
	"journal.jsonl:[0-9]+: a line that cannot be read .* concerns this disk"
