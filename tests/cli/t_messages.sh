# What the user is told is what happened (issue 24, item 6): a change whose "done" record
# could not be journaled (its file system full) says the disk WAS changed and how it is
# undone; every error line of a batch names its disk; list shows a simulated drive that does
# not answer, with its error; names with control characters are refused and never printed
# raw; a BIOS-frozen drive's advice fits its state; an output path that cannot be written is
# exit 2 in every command.

cat >"$TMP/m-rig.json" <<'RIG'
{ "drives": [
  { "id": "d0", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "M-0",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true },
  { "id": "d1", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "M-1",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true },
  { "id": "d2", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "M-2",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true }
] }
RIG
M="$PROG --rig $TMP/m-rig.json"
msize() { SHORTSTROKE_STATE_DIR=$1 $M info -J "$2" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }

# --- the journal's file system full -----------------------------------------------------------
# The state directory is a 64 KiB tmpfs, its sim/ a link to a directory elsewhere (the drives'
# state has room); the journal is padded so that the "limit" record ends just short of a page
# and the rest of the tmpfs is filled: "limit" is written, the change made, "limit-done" finds
# no room.
FULL="$TMP/full"
if [ "$(id -u)" = 0 ] && mkdir -m 755 "$FULL" && mount -t tmpfs -o size=64k,mode=0755 tmpfs "$FULL" 2>/dev/null; then
	mkdir -m 755 "$TMP/full-sim" && ln -s "$TMP/full-sim" "$FULL/sim"
	# the length of the "limit" record this command writes, from a run elsewhere
	SHORTSTROKE_STATE_DIR="$TMP/measure" $M limit --blocks 29999104 --yes sim:d0 >/dev/null 2>&1
	L=$(head -n1 "$TMP/measure/journal.jsonl" | wc -c) # with its newline
	# a padding line (blanks are no record) so that journal + "limit" ends 8 bytes short of 4096
	python3 -c "import sys; sys.stdout.write(' ' * (4096 - 8 - $L - 1) + '\n')" >"$FULL/journal.jsonl"
	: >"$FULL/journal.lock" && mkdir -m 755 "$FULL/locks" && : >"$FULL/locks/M-0.lock"
	dd if=/dev/zero of="$FULL/filler" bs=4096 2>/dev/null
	run env SHORTSTROKE_STATE_DIR="$FULL" $M limit --blocks 29999104 --yes sim:d0
	expect "journal full after the change: a failure" 1 "" \
		"sim:d0: the disk WAS changed: limited to 29999104 blocks \\(15.4 GB\\) by hpa, but the journal's record that the limit is done could not be written \\(cannot write the journal $FULL/journal.jsonl: No space left on device\\)"
	expect "journal full after the change: how it is undone" 1 "" \
		"Its original capacity is journaled: once the journal's file system has room, 'shortstroke restore' undoes the limit"
	! printf '%s\n' "$ERR" | grep -q "nothing was changed" && pass "... and not 'nothing was changed'" ||
		fail "... and not 'nothing was changed'" "$ERR"
	[ "$(msize "$FULL" sim:d0)" = 29999104 ] && pass "the disk was indeed changed" ||
		fail "the disk was indeed changed" "$(msize "$FULL" sim:d0)"
	# three disks, the journal full before anything: each error line names its disk
	run env SHORTSTROKE_STATE_DIR="$FULL" $M limit --blocks 29999104 --yes sim:d1 sim:d2
	n=$(printf '%s\n' "$ERR" | grep -c "No space left on device")
	named=$(printf '%s\n' "$ERR" | grep -cE "^shortstroke: sim:d[12]: nothing sent: cannot write the journal")
	[ "$RC" = 1 ] && [ "$n" = 2 ] && [ "$named" = 2 ] &&
		pass "journal full before the change: each error line names its disk, says nothing was sent" ||
		fail "journal full before the change: each error line names its disk, says nothing was sent" \
			"exit $RC" "$ERR"
	[ "$(msize "$FULL" sim:d1)" = 67108864 ] && pass "... and nothing was sent" ||
		fail "... and nothing was sent" "$(msize "$FULL" sim:d1)"
	# room again: restore undoes the limit from the journaled original
	rm -f "$FULL/filler"
	"$PROG" --rig "$TMP/m-rig.json" --state-dir "$FULL" sim power-cycle sim:d0 >/dev/null
	run env SHORTSTROKE_STATE_DIR="$FULL" $M restore --yes sim:d0
	expect "room again: restore undoes it, as the message said" 0 "restored to 67108864 blocks"
	umount "$FULL"
else
	skip "journal on a full file system" "needs root to mount a tmpfs"
fi

# --- list: a simulated drive that does not answer -------------------------------------------
"$PROG" --rig "$TMP/m-rig.json" sim fault sim:d1 vanish-after:0 >/dev/null
run $M list
expect "list: a drive that does not answer is listed, exit 4" 4 \
	"^sim:d1 +sata WDC WD20EFRX-68EUZN0 +M-1 .*could not be probed: .*does not answer" \
	"^shortstroke: list: sim:d1: .*does not answer"
run $M list -J
json_check "list -J: it is there with its serial and its error" \
	'[x["serial"] for x in d["drives"]] == ["M-0", "M-1", "M-2"] and "does not answer" in d["drives"][1]["state"]'
"$PROG" --rig "$TMP/m-rig.json" sim fault sim:d0 vanish-after:0 >/dev/null
"$PROG" --rig "$TMP/m-rig.json" sim fault sim:d2 vanish-after:0 >/dev/null
run $M list
expect "list: no drive answers: exit 1, all listed" 1 "^sim:d2 "
"$PROG" --rig "$TMP/m-rig.json" sim power-cycle sim:d0 sim:d1 sim:d2 >/dev/null

# --- names with control characters --------------------------------------------------------------
run $M limit --blocks 29999104 --yes "$(printf 'sim:d0\nsim:d1: limited to 1 blocks by hpa')"
expect "a device name with a newline: refused, exit 2" 2 "" \
	"the device name 'sim:d0\\\\nsim:d1: limited to 1 blocks by hpa' holds a control character"
! printf '%s\n' "$ERR" | grep -q "^sim:d1: limited" && ! printf '%s\n' "$OUT" | grep -q "limited" &&
	pass "... and no forged 'limited' line" || fail "... and no forged 'limited' line" "$OUT" "$ERR"
run $M info "$(printf 'sim:\033[2Jd0')"
expect "an escape sequence in a name: refused, printed escaped" 2 "" "'sim:\\\\x1b\\[2Jd0' holds a control character"
! printf '%s' "$ERR" | grep -q "$(printf '\033')" && pass "... no raw escape on the terminal" ||
	fail "... no raw escape on the terminal" "$ERR"
run $M limit --blocks 29999104 --yes --serial "$(printf 'M-0\nX')"
expect "--serial with a newline: refused" 2 "" "--serial 'M-0\\\\nX' holds a control character"
[ "$(msize "$SHORTSTROKE_STATE_DIR" sim:d0)" = 67108864 ] && pass "control characters: nothing changed" ||
	fail "control characters: nothing changed"

# --- a BIOS-frozen drive: the advice fits its state ---------------------------------------------
run "$PROG" --demo limit --percent 50 --yes sim:sata320
expect "frozen, free: hot-plug it or suspend and resume, not a power cycle" 1 "" \
	"sim:sata320: the drive is security-frozen, by a BIOS that freezes it at every power-on \\(a power cycle or reboot does not help\\): hot-plug it"
"$PROG" --demo --protect-file "$TMP/m-prot.conf" protect add sim:sata320 >/dev/null 2>&1
run "$PROG" --demo --protect-file "$TMP/m-prot.conf" limit --percent 50 --yes --force sim:sata320
expect "frozen, protected (forced): suspend and resume, not unplugging" 1 "" \
	"it is protected, so not one to unplug: suspend the machine to RAM and resume it"
! printf '%s\n' "$ERR" | grep -q "hot-plug" && pass "... and no hot-plug advice for it" ||
	fail "... and no hot-plug advice for it" "$ERR"

# --- an output path that cannot be written: exit 2 in every command ----------------------------
run "$PROG" --demo plan --level 1 --stroke 25% sim:sata250 sim:sas15k -O "$TMP/m-plan.json"
expect "a plan to apply" 0
run "$PROG" --demo apply "$TMP/m-plan.json" --name m1 --dry-run --conf "$TMP/no/such/mdadm.conf"
expect "apply --conf that cannot be written: exit 2" 2 "" "--conf $TMP/no/such/mdadm.conf"
run "$PROG" --demo plan --level 1 --stroke 25% sim:sata250 sim:sas15k -O "$TMP/no/such/p.json"
expect "plan -O that cannot be written: exit 2" 2 "" "--output-plan"
run "$PROG" --demo qualify --report "$TMP/no/such/r.html" sim:sata250
expect "qualify --report that cannot be written: exit 2" 2 "" "--report"
run "$PROG" --demo sim save-blob sim:sata250 "$TMP/no/such/b.bin"
expect "sim save-blob to a path that cannot be written: exit 2" 2 "" "the blob"
: >"$TMP/m-file"
run "$PROG" --demo --protect-file "$TMP/m-file/protect.conf" protect add --serial NEW1
expect "protect add to a protect file that cannot be written: exit 2" 2 "" "m-file"
