# A SAS disk in the middle of a format (a `limit --method scsi-format` killed
# with -9) and one whose format was cut by a power loss: info, list, restore,
# a second process and a re-run of the same limit all work and say so.

cat >"$TMP/fmt.json" <<'EOF'
{ "time_scale": 25, "drives": [
  { "id": "fmt0", "personality": "sas", "vendor": "SIMVEND", "model": "SIMFMT10",
    "serial": "FMT00001", "firmware": "F001", "wwn": "5000cca0000f0001",
    "blocks": 19531250, "media": { "outer_mbps": 100, "inner_mbps": 100 } } ] }
EOF
FMT="$PROG --rig $TMP/fmt.json"

# until_formatting: poll info -J (up to 10 s) until the format shows
until_formatting() {
	i=0
	while [ $i -lt 100 ]; do
		$FMT info -J sim:fmt0 2>/dev/null | grep -q '"in-progress"' && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# a format of 10 GB: about 112 virtual seconds, 4.5 s at time_scale 25
$FMT limit --method scsi-format --size 5GB --yes sim:fmt0 >"$TMP/fmt1.out" 2>&1 &
pid=$!
if until_formatting; then
	# a second process on the same disk, while the first one changes it
	run $FMT limit --method scsi-format --size 4GB --yes sim:fmt0
	expect "mid-format: a second process on the disk is refused" 1 "" \
		"another shortstroke process is changing this disk \(serial FMT00001\)"
	kill -9 $pid
	wait $pid 2>/dev/null

	run $FMT info sim:fmt0
	expect "mid-format: info works and says so" 0 "^Format: +in progress, [0-9]+ % "
	expect "mid-format: info: the capacity is unknown" 0 "^Capacity: +unknown while formatting"
	expect "mid-format: info: the state" 0 "^State: +formatting [0-9]+ %$"
	run $FMT info -J sim:fmt0
	json_check "mid-format: info -J: format in progress, capacity null" \
		"d['format']['state'] == 'in-progress' and 0 <= d['format']['progress'] <= 100 and d['capacity_blocks'] is None"
	run $FMT list
	expect "mid-format: list shows the drive, state formatting N %" 0 \
		"^sim:fmt0 +sas +SIMFMT10 +FMT00001 +F001 +- .*formatting [0-9]+ %$"
	run $FMT restore --dry-run sim:fmt0
	expect "mid-format: restore --dry-run says so, sends nothing" 0 \
		"dry run: the drive is in the middle of a format; .*nothing was sent"
	run $FMT limit --method scsi-format --size 5GB --yes sim:fmt0
	expect "mid-format: the re-run watches the format to its end" 0 \
		"a format is in progress \([0-9]+ %\): watching it to its end, then limiting by scsi-format"
	expect "mid-format: ... and then finds the disk limited" 0 \
		"^sim:fmt0: watched the format in progress to its end; already limited to 9764864 blocks \(5.00 GB\); nothing sent$"
	run $FMT info -J sim:fmt0
	json_check "mid-format: after the format: 5 GB, no format state" \
		"d['capacity_blocks'] == 9764864 and 'format' not in d"

	# restore killed in the middle of its format, then restore again
	$FMT restore --yes sim:fmt0 >"$TMP/fmt2.out" 2>&1 &
	pid=$!
	if until_formatting; then
		kill -9 $pid
		wait $pid 2>/dev/null
		run $FMT restore --yes sim:fmt0
		expect "mid-format: restore watches the format, then finishes" 0 \
			"^sim:fmt0: watched the format in progress to its end; already at 19531250 blocks"
		run $FMT info -J sim:fmt0
		json_check "mid-format: restore brought the original back" \
			"d['capacity_blocks'] == 19531250"
	else
		kill -9 $pid 2>/dev/null
		fail "mid-format: restore's format was seen running" "$(cat "$TMP/fmt2.out")"
	fi
else
	kill -9 $pid 2>/dev/null
	fail "mid-format: the format was seen running" "$(cat "$TMP/fmt1.out")"
fi

# --- a power loss in the middle of the format --------------------------------------------
run "$PROG" --demo sim fault sim:sas4kn format-power-loss:40
run "$PROG" --demo limit --method scsi-format --size 100GB --yes sim:sas4kn
expect "power loss mid-format: the run fails (exit 1, not 2) and says what to do" 1 "" \
	"the format failed after the block count had been set to [0-9]+ \(MODE SELECT\): the drive lost power during a format.*run the same command again"
run "$PROG" --demo sim power-cycle sim:sas4kn
run "$PROG" --demo list
expect "power loss: list shows the corrupted medium" 0 \
	"^sim:sas4kn .* medium format corrupted$"
run "$PROG" --demo info sim:sas4kn
expect "power loss: info shows the corrupted medium" 0 \
	"^Format: +MEDIUM FORMAT CORRUPTED: a format was interrupted"
expect "power loss: info: the state" 0 "^State: +medium format corrupted$"
run "$PROG" --demo info -J sim:sas4kn
json_check "power loss: info -J format.state" "d['format']['state'] == 'corrupted'"
if command -v tmux >/dev/null 2>&1; then
	sock="$TMP/tmux-fmt.sock"
	tmux -S "$sock" -f /dev/null new-session -d -s fmt -x 140 -y 40 \
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR SHORTSTROKE_PROTECT_FILE=$SHORTSTROKE_PROTECT_FILE TERM=xterm-256color $PROG --demo; sleep 5"
	tui_wait() {
		i=0
		while [ $i -lt 100 ]; do
			SCREEN=$(tmux -S "$sock" capture-pane -p -t fmt 2>/dev/null)
			printf '%s\n' "$SCREEN" | grep -qE -- "$1" && return 0
			sleep 0.1
			i=$((i + 1))
		done
		return 1
	}
	if tui_wait "sim:sas4kn .* medium format corrupted"; then
		pass "power loss: the TUI's state column shows the corrupted medium"
	else
		fail "power loss: the TUI's state column shows the corrupted medium" "$SCREEN"
	fi
	tmux -S "$sock" send-keys -t fmt j j j
	if tui_wait "Format: +MEDIUM FORMAT CORRUPTED"; then
		pass "power loss: the TUI's detail pane shows the corrupted medium"
	else
		fail "power loss: the TUI's detail pane shows the corrupted medium" "$SCREEN"
	fi
	tmux -S "$sock" send-keys -t fmt q
	tmux -S "$sock" kill-server 2>/dev/null
else
	fail "power loss: tmux is installed for the TUI check (tests/deps.sh check installs it)"
fi
run "$PROG" --demo limit --method scsi-format --size 100GB --yes sim:sas4kn
expect "power loss: the re-run formats again, one result line" 0 \
	"again \(the medium is corrupted: a format was interrupted\) by scsi-format"
if printf '%s\n' "$OUT" | grep -q "nothing sent"; then
	fail "power loss: the re-run does not also say 'nothing sent'" "$OUT"
else
	pass "power loss: the re-run does not also say 'nothing sent'"
fi
[ "$(printf '%s\n' "$OUT" | grep -c '^sim:sas4kn: limited to 24413952 blocks .* by scsi-format$')" = 1 ] &&
	pass "power loss: limited once, by scsi-format" ||
	fail "power loss: limited once, by scsi-format" "$OUT"
run "$PROG" --demo list
expect "power loss: after the new format the disk is free" 0 "^sim:sas4kn .* free$"
