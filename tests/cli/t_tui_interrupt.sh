# Ctrl-C in the TUI (issue 24, item 5): with no job running it quits and gives the terminal
# back; with a job running it asks first, as q does, and n stays.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	rig="$TMP/ti-rig.json"
	"$PROG" --demo sim rig | sed 's/"time_scale": *[0-9.]*/"time_scale": 1/' >"$rig"

	tui_start ti0 80 24 --rig "$rig"
	tui_wait "rig .* [0-9]+ drives" >/dev/null
	tui_keys C-c
	if tui_wait "TUI-EXITED 0"; then pass "tui: Ctrl-C with no job running quits (exit 0)"; else
		fail "tui: Ctrl-C with no job running quits (exit 0)" "$SCREEN"; fi
	tui_stop

	tui_start ti1 80 24 --rig "$rig"
	tui_wait "rig .* [0-9]+ drives" >/dev/null
	tui_keys j t l Enter
	tui_wait "sim:sata250 .* [0-9]+% self-test" >/dev/null
	tui_keys C-c
	tui_check "tui: Ctrl-C with a self-test running asks first" "Quit while jobs run\?"
	tui_keys n Enter
	tui_check "tui: n stays, the job goes on" "not quitting: 1 job running"
	tui_keys C-c
	tui_wait "Quit while jobs run\?" >/dev/null
	tui_keys y Enter
	if tui_wait "TUI-EXITED 0"; then pass "tui: Ctrl-C then y quits"; else
		fail "tui: Ctrl-C then y quits" "$SCREEN"; fi
	tui_stop
else
	skip "tui Ctrl-C" "tmux is not installed"
fi
