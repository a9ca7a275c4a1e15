# Ctrl-C and SIGTERM stop a batch cleanly (issue 24, item 5): no new command is sent, the
# commands in flight finish and their journal records are closed, each disk says where it
# stands (a FORMAT UNIT started goes on inside the drive, and restore finishes it), exit 130 or
# 143; a second Ctrl-C within 2 s stops at once. The simulated drives answer the command under
# test late (the delay fault), so that the signal finds it in flight; every wait below is for
# what the test expects (the journal's records, the drive's state file), not a fixed sleep.

cat >"$TMP/sg-rig.json" <<'RIG'
{ "drives": [
  { "id": "a", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "SG-A",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true },
  { "id": "b", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "SG-B",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true },
  { "id": "c", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "SG-C",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true },
  { "id": "s1", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168",
    "serial": "SG-S1", "wwn": "5000c50000005101", "firmware": "N003", "blocks": 8388608 },
  { "id": "s2", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168",
    "serial": "SG-S2", "wwn": "5000c50000005102", "firmware": "N003", "blocks": 8388608 }
] }
RIG
SG="$PROG --rig $TMP/sg-rig.json"
SGJ="$SHORTSTROKE_STATE_DIR/journal.jsonl"
sg_fault() { for d in $2; do $SG sim fault "sim:$d" "$1" >/dev/null; done; }
sg_clear() { for d in $1; do $SG sim fault --clear "sim:$d" >/dev/null; done; }
sg_size() { $SG info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
# sg_count EVENT: the journal's records of that event
sg_count() { grep -c "\"event\":\"$1\"" "$SGJ" 2>/dev/null || true; }
# sg_until CMD...: wait for CMD to succeed, up to 30 s; false when it never does
sg_until() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -ge 600 ] && return 1
		sleep 0.05
	done
}
# sg_start ARGS...: the command in the background, SIGINT as a terminal gives it (a shell
# ignores it in its background jobs); SG_PID, output in $TMP/sg-out and $TMP/sg-err
sg_start() {
	env --default-signal=INT $SG "$@" >"$TMP/sg-out" 2>"$TMP/sg-err" &
	SG_PID=$!
}
sg_end() {
	wait "$SG_PID"
	RC=$?
	OUT=$(cat "$TMP/sg-out")
	ERR=$(cat "$TMP/sg-err")
}
sg_limits() { [ "$(sg_count limit)" = "$1" ]; }
# sg_sent KEY IDS: every drive of IDS has taken its SET MAX (its state file says KEY, saved
# before the late answer): the command is in flight
sg_sent() {
	for d in $2; do
		grep -q "\"$1\": true" "$(echo "$SHORTSTROKE_STATE_DIR"/sim/sg-rig-*)/$d.json" || return 1
	done
}

# --- SIGINT with the commands in flight: they finish, their records are closed -------------------
sg_fault delay:1000:37 "a b c" # SET MAX ADDRESS EXT answers 1 s late
sg_start limit --blocks 29999104 --yes sim:a sim:b sim:c
sg_until sg_sent nv_setmax_done "a b c" # every drive took SET MAX, its answer on its way
kill -INT "$SG_PID"
sg_end
expect "SIGINT mid-batch: exit 130" 130 "" "interrupted \\(SIGINT\\): stopping: no new command is sent"
expect "SIGINT mid-batch: the commands in flight finished, each disk says so" 130 \
	"^sim:c: limited to 29999104 blocks" "limit: stopped by SIGINT: 3 disks done, 0 not"
[ "$(sg_count limit-done)" = 3 ] && [ "$(sg_size sim:b)" = 29999104 ] &&
	pass "SIGINT mid-batch: every journal record closed (limit-done), the disks limited" ||
	fail "SIGINT mid-batch: every journal record closed (limit-done), the disks limited" \
		"$(cat "$SGJ")"
sg_clear "a b c"
$SG sim power-cycle sim:a sim:b sim:c >/dev/null
run $SG restore --yes sim:a sim:b sim:c
expect "after the stop: restore brings all back" 0 "^sim:a: restored to 67108864 blocks"

# --- SIGTERM (systemctl stop) before the change was sent: nothing sent, nothing journaled --------
# The SAS drives answer TEST UNIT READY 2 s late: the job's first command (after the
# identification, which does not count), sent before anything is journaled.
sg_fault delay:2000:00 "s1 s2"
rm -f "$SHORTSTROKE_STATE_DIR"/locks/5000c5000000510*.lock
sg_start limit --method scsi-resize --blocks 4194304 --yes sim:s1 sim:s2
sg_jobs() { [ -e "$SHORTSTROKE_STATE_DIR/locks/5000c50000005101.lock" ] &&
	[ -e "$SHORTSTROKE_STATE_DIR/locks/5000c50000005102.lock" ]; }
sg_until sg_jobs # both jobs took their disk's lock: the batch runs
n0=$(sg_count limit)
kill -TERM "$SG_PID"
sg_end
expect "SIGTERM before the change: exit 143" 143 "" "terminated \\(SIGTERM\\): stopping"
expect "SIGTERM before the change: each disk stopped, nothing sent" 143 "" \
	"sim:s2: stopped before anything was sent to it; not changed"
sg_clear "s1 s2"
[ "$(sg_count limit)" = "$n0" ] && [ "$(sg_size sim:s1)" = 8388608 ] && [ "$(sg_size sim:s2)" = 8388608 ] &&
	pass "SIGTERM before the change: nothing journaled, both disks unchanged" ||
	fail "SIGTERM before the change: nothing journaled, both disks unchanged" "$(cat "$SGJ")"

# --- a second Ctrl-C within 2 s: at once ----------------------------------------------------------
$SG sim power-cycle sim:a >/dev/null # a permanent SET MAX again, and nv_setmax_done clear
sg_fault delay:30000:37 "a"
sg_start limit --blocks 29999104 --yes sim:a
sg_until sg_sent nv_setmax_done a
kill -INT "$SG_PID"
sg_until grep -q interrupted "$TMP/sg-err"
kill -INT "$SG_PID"
sg_end
[ "$RC" = 130 ] && ! printf '%s\n' "$ERR" | grep -q "stopped by SIGINT" &&
	! printf '%s\n' "$OUT" | grep -q "limited to" &&
	pass "a second Ctrl-C within 2 s: stops at once, the command in flight not waited for" ||
	fail "a second Ctrl-C within 2 s: stops at once, the command in flight not waited for" \
		"exit $RC" "$OUT" "$ERR"
sg_clear "a"
# killed with its SET MAX in flight (as kill -9): the drive took it, the journal has no
# limit-done; restore takes it back (its original is journaled)
$SG sim power-cycle sim:a >/dev/null
run $SG restore --yes sim:a
expect "after the second Ctrl-C: restore takes the disk back" 0 "^sim:a: restored to 67108864 blocks"

# --- a FORMAT UNIT in flight goes on inside the drive; restore finishes it ------------------------
sed 's/^{ "drives"/{ "time_scale": 10, "drives"/' "$TMP/sg-rig.json" >"$TMP/sgf-rig.json"
SGF="$PROG --rig $TMP/sgf-rig.json"
env --default-signal=INT $SGF limit --method scsi-format --blocks 4194304 --yes sim:s1 \
	>"$TMP/sg-out" 2>"$TMP/sg-err" &
SG_PID=$!
sg_formatting() { grep -q '"active": true' "$(echo "$SHORTSTROKE_STATE_DIR"/sim/sgf-rig-*)/s1.json" 2>/dev/null; }
sg_until sg_formatting
kill -INT "$SG_PID"
sg_end
expect "SIGINT while a format runs: exit 130, the format goes on inside the drive" 130 "" \
	"sim:s1: stopped watching the format.*a FORMAT UNIT cannot be stopped, it goes on inside the drive"
expect "SIGINT while a format runs: how restore finishes it" 130 "" \
	"'shortstroke restore sim:s1' waits for it to end and brings back the journaled original capacity"
run $SGF info sim:s1
expect "the drive is still formatting" 0 "^Format: +in progress"
run $SGF restore --yes sim:s1
expect "restore waits for the format and brings the original back" 0 \
	"watched the format in progress to its end; restored to 8388608 blocks"

# --- reapply, as systemd stops its unit (SIGTERM): the same clean end -----------------------------
run $SG limit --blocks 29999104 --volatile --yes sim:a sim:b
$SG sim power-cycle sim:a sim:b >/dev/null
sg_fault delay:1000:37 "a b"
n0=$(sg_count limit)
sg_start reapply
sg_until sg_sent vol_active "a b"
kill -TERM "$SG_PID"
sg_end
expect "reapply stopped by SIGTERM: exit 143, the limits in flight re-applied and said" 143 \
	"^sim:b: re-applied: limited to 29999104 blocks" "reapply: stopped by SIGTERM"
[ "$(sg_size sim:a)" = 29999104 ] && [ "$(tail -n 2 "$SGJ" | grep -c '"event":"limit-done"')" = 2 ] &&
	pass "reapply stopped: its records closed" || fail "reapply stopped: its records closed" "$(tail -n 4 "$SGJ")"
sg_clear "a b"
