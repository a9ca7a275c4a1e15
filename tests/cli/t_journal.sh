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

# --- NUL bytes a power loss left at the end: torn, warned about, never a failure ------------------
# (a journal of its own: the one above holds a line of sim:sata320's that cannot be read)
SAVED_STATE=$SHORTSTROKE_STATE_DIR
export SHORTSTROKE_STATE_DIR=$TMP/journal-nul
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
run "$PROG" --demo limit --size 100GB --yes sim:sata250
expect "NUL bytes: a limit first" 0 "limited to"
head -c 512 /dev/zero >>"$J"
run "$PROG" --demo limit --size 100GB --yes sim:sata-hpa
expect "NUL bytes at the end: the next limit goes ahead" 0 "sim:sata-hpa: limited to"
"$PROG" --demo sim power-cycle sim:sata250 sim:sata-hpa >/dev/null
for i in 1 2; do # not only the next command: every one after it
	run "$PROG" --demo restore --yes sim:sata250 sim:sata-hpa
	expect "NUL bytes closed into a line ($i): restore reads on, a warning" 0 \
		"sim:sata250: (restored to 488397168 blocks|already restored)" \
		"warning: .*journal.jsonl:3: an incomplete record \(a write cut short by a crash or a power loss\) is ignored"
done
[ "$(size_of sim:sata-hpa)" = 488386584 ] && pass "NUL bytes: sata-hpa back to its own HPA" ||
	fail "NUL bytes: sata-hpa back to its own HPA" "$(size_of sim:sata-hpa)"

# --- compaction, driven by the commands ------------------------------------------------------------
# A journal of years: 12 disks limited and restored 700 times each (1.8 MB, forged as the tool
# writes them), and sim:sata250 with a volatile limit. The next append compacts it: the history
# goes to journal.d, the journal keeps each disk's records that still decide something, and
# restore, reapply and list read it as they read the whole one.
export SHORTSTROKE_STATE_DIR=$TMP/journal-compact
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
run "$PROG" --demo limit --volatile --size 100GB --yes sim:sata250
expect "compaction: a volatile limit to keep" 0 "limited to"
python3 - "$J" <<'PY'
import json, sys
out = open(sys.argv[1], "a")
for k in range(700):
    for d in range(12):
        base = {"time": "2024-01-01T00:00:00Z", "device": "/dev/sd%s" % chr(98 + d), "serial": "OLD%04d" % d,
                "wwn": "", "model": "WDC WD1000AAKS", "method": "hpa", "block_len": 512,
                "native_blocks": 195371568, "volatile": False}
        for ev, o, t in (("limit", 195371568, 58611470), ("limit-done", 195371568, 58611470),
                         ("restore", 58611470, 195371568), ("restore-done", 58611470, 195371568)):
            out.write(json.dumps(dict(base, event=ev, original_blocks=o, target_blocks=t),
                                 separators=(",", ":")) + "\n")
PY
lines=$(wc -l <"$J")
cp "$J" "$TMP/journal-before"
run "$PROG" --demo limit --size 100GB --yes sim:sata-hpa
expect "compaction: the append that compacts goes ahead" 0 "sim:sata-hpa: limited to"
# the history: the journal as it was, and the record whose append compacted it
H="$SHORTSTROKE_STATE_DIR/journal.d/journal.000001.jsonl"
[ -f "$H" ] && [ "$(wc -l <"$H")" = $((lines + 1)) ] && head -n "$lines" "$H" | cmp -s - "$TMP/journal-before" &&
	pass "compaction: the whole journal is in journal.d ($lines lines, and the one appended)" ||
	fail "compaction: the whole journal is in journal.d" "$(ls -l "$SHORTSTROKE_STATE_DIR"/journal.d 2>&1; wc -l "$H")"
now=$(wc -l <"$J")
[ "$now" -lt 100 ] && pass "compaction: the journal keeps $now lines of $lines" ||
	fail "compaction: the journal is small" "$now lines"
grep -c '"snapshot":true' "$J" | grep -qv '^0$' && pass "compaction: the kept records are marked snapshot" ||
	fail "compaction: the kept records are marked snapshot" "$(head -3 "$J")"
"$PROG" --demo sim power-cycle sim:sata250 >/dev/null
run "$PROG" --demo reapply -J
json_check "compaction: reapply finds the volatile limit in the snapshot" '(x := {r["device"]: r for r in d["results"]}) and x["sim:sata250"]["status"] == "reapplied" and x["sim:sata-hpa"]["status"] == "in-place" and not [r for r in d["results"] if r["device"].startswith("OLD")]'
run "$PROG" --demo list -J -o DEVICE,LIMITED
json_check "compaction: list shows both limits" '(x := {r["device"]: r for r in d["drives"]}) and x["sim:sata250"]["limited"] and x["sim:sata-hpa"]["limited"]'
"$PROG" --demo sim power-cycle sim:sata-hpa >/dev/null
run "$PROG" --demo restore --yes sim:sata250 sim:sata-hpa
expect "compaction: restore takes the originals from the snapshot" 0 \
	"sim:sata-hpa: restored to 488386584 blocks" "^$"
[ "$(size_of sim:sata250)" = 488397168 ] && pass "compaction: sata250 back to its original" ||
	fail "compaction: sata250 back to its original" "$(size_of sim:sata250)"
export SHORTSTROKE_STATE_DIR=$SAVED_STATE

# --- every file the journal (and the bench history) creates, renames or links is made durable -----
# strace shows each: its directory is fsynced after it (the journal, its lock, the disks'
# locks, journal.d and the compaction's link and rename, the bench history).
if command -v strace >/dev/null; then
	export SHORTSTROKE_STATE_DIR=$TMP/journal-sync
	ST=$SHORTSTROKE_STATE_DIR
	mkdir -p "$ST"
	: >"$TMP/sync-before"
	traced() { strace -f -y -qq -o "$TMP/sync.trace" \
		-e trace=open,openat,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,fsync,fdatasync "$@"; }
	traced "$PROG" --demo limit --size 100GB --yes sim:sata250 >/dev/null 2>&1
	run python3 "$HERE/fsynced.py" "$TMP/sync.trace" "$ST" "$TMP/sync-before"
	expect "durable: what a limit creates (journal, locks)" 0
	find "$ST" >"$TMP/sync-before"
	traced "$PROG" --demo bench -w random-access --qd 1 --time 1s sim:sata250 >/dev/null 2>&1
	run python3 "$HERE/fsynced.py" "$TMP/sync.trace" "$ST" "$TMP/sync-before"
	expect "durable: the bench history" 0
	python3 -c "
import sys
r = open(sys.argv[1]).readline()
open(sys.argv[1], 'a').write(r * 5000)" "$ST/journal.jsonl"
	find "$ST" >"$TMP/sync-before"
	"$PROG" --demo sim power-cycle sim:sata250 >/dev/null
	traced "$PROG" --demo restore --yes sim:sata250 >/dev/null 2>&1
	[ -d "$ST/journal.d" ] && pass "durable: a restore compacted the journal" ||
		fail "durable: a restore compacted the journal" "$(ls "$ST")"
	run python3 "$HERE/fsynced.py" "$TMP/sync.trace" "$ST" "$TMP/sync-before"
	expect "durable: the compaction's link and rename" 0
else
	skip "durable" "strace is not installed"
fi
export SHORTSTROKE_STATE_DIR=$SAVED_STATE
