# The TUI's jobs in tmux: the abort key (a self-test is stopped inside the
# drive, a format cannot be aborted and the TUI says so), q while a
# self-test runs (asks, then leaves it running in the drive), and the help
# box wrapped to the screen's width and scrolled on a short screen.
# The rig runs in real time (time_scale 1) so that a long self-test and a
# format are still running when the keys arrive.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	rig="$TMP/rig.json"
	"$PROG" --demo sim rig | sed 's/"time_scale": *[0-9.]*/"time_scale": 1/' >"$rig"

	# the abort key and quitting with a self-test running
	tui_start st 80 24 --rig "$rig"
	tui_wait "rig .* [0-9]+ drives" >/dev/null
	tui_keys a
	tui_check "tui jobs: a with no job says so" "No job is running on sim:sas15k"
	tui_keys Escape j t l Enter
	tui_check "tui jobs: a long self-test runs, its progress shown at 80 columns" \
		"sim:sata250 .* [0-9]+% self-test *$"
	tui_keys a
	tui_check "tui jobs: a asks before aborting the self-test" "sim:sata250: self-test"
	tui_keys n Enter
	tui_check "tui jobs: n aborts nothing" "nothing aborted"
	tui_keys a y Enter
	tui_check "tui jobs: a y aborts the self-test on the drive" \
		"extended self-test was aborted on the drive"
	run "$PROG" --rig "$rig" selftest --status sim:sata250
	expect "tui jobs: the drive's log shows the self-test aborted by the host" 0 \
		"no self-test running; last: .*abort"
	tui_keys t l Enter
	tui_wait "sim:sata250 .*self-test" >/dev/null
	tui_keys q
	tui_check "tui jobs: q with a self-test running asks first" "Quit while jobs run\?"
	tui_keys n Enter
	tui_check "tui jobs: n stays" "not quitting: 1 job running"
	tui_keys q y Enter
	if tui_wait "TUI-EXITED 0"; then pass "tui jobs: q y leaves with the self-test running"; else fail "tui jobs: q y leaves with the self-test running" "$SCREEN"; fi
	run "$PROG" --rig "$rig" selftest --status sim:sata250
	expect "tui jobs: the self-test goes on inside the drive after quitting" 0 \
		"self-test: [0-9]+% done"
	tui_stop

	# a format cannot be aborted, and q does not leave it
	sed 's/"time_scale": *1,/"time_scale": 1000,/' "$rig" >"$rig.fast" && cp "$rig.fast" "$rig"
	"$PROG" --rig "$rig" limit --method scsi-format --size 100GB --yes sim:sas15k >/dev/null
	sed 's/"time_scale": *1000,/"time_scale": 1,/' "$rig" >"$rig.fast" && cp "$rig.fast" "$rig"
	tui_start fmt 120 40 --rig "$rig"
	tui_wait "rig .* [0-9]+ drives" >/dev/null
	tui_keys r
	tui_wait "To +< original >" >/dev/null
	tui_keys Enter
	tui_check "tui jobs: restore by format shows what the disk gets back" \
		"gets back 879097968 blocks \(450 GB, the journaled original\)"
	tui_keys JWV2S8KC Enter
	tui_wait "sim:sas15k .*restore" >/dev/null
	tui_keys a
	tui_check "tui jobs: a format in progress cannot be aborted: said so" \
		"format in progress cannot be aborted"
	tui_keys Escape q
	tui_check "tui jobs: q while a format runs: refused, with the reason" \
		"cannot be left"
	tui_stop

	# help: wrapped to the width at 200 columns, scrolled at 80x24
	tui_start help 200 50 --demo
	tui_wait "demo rig" >/dev/null
	tui_keys '?'
	tui_check "tui help: at 200 columns a long key line is not cut" \
		"a +abort the job on the selected \(or marked\) drives \(a self-test stops inside the drive; a format cannot be aborted\)"
	tui_check "tui help: at 200 columns the planner's line is whole" \
		"p +plan an array of the selected \(or marked\) drives: goals, layouts, save"
	tui_keys x
	tmux -S "$tui_sock" resize-window -t tui -x 80 -y 24 2>/dev/null
	tui_keys '?'
	tui_check "tui help: at 80x24 the box says it scrolls" "lines 1-[0-9]+ of [0-9]+"
	# the first screenful: the end of the text is below, not drawn over the key line
	if ! printf '%s\n' "$SCREEN" | grep -q "job shows its progress" &&
	   printf '%s\n' "$SCREEN" | tail -n 1 | grep -q "PgDn page down"; then
		pass "tui help: at 80x24 the box ends above the key line"
	else
		fail "tui help: at 80x24 the box ends above the key line" "$SCREEN"
	fi
	tui_keys NPage NPage NPage NPage # (clamped at the end)
	tui_check "tui help: PgDn scrolls to the end of the help" "job shows its progress"
	tui_keys x q
	if tui_wait "TUI-EXITED 0"; then pass "tui help: quits after the help"; else fail "tui help: quits after the help" "$SCREEN"; fi
	tui_stop
else
	fail "t_tui_jobs: tmux is installed (tests/deps.sh check installs it)"
fi
