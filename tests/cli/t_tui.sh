# The TUI in tmux on the demo rig: table, selection, detail pane, help, quit.

if ! command -v tmux >/dev/null 2>&1; then
	fail "tui: tmux is installed (scripts/deps.sh check installs it)"
else
	sock="$TMP/tmux.sock"
	tmx() { tmux -S "$sock" "$@"; }
	# wait_for PATTERN: poll the pane for up to 10 s
	wait_for() {
		i=0
		while [ $i -lt 100 ]; do
			SCREEN=$(tmx capture-pane -p -t tui 2>/dev/null)
			printf '%s\n' "$SCREEN" | grep -qE -- "$1" && return 0
			sleep 0.1
			i=$((i + 1))
		done
		return 1
	}
	tmx -f /dev/null new-session -d -s tui -x 120 -y 40 \
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR TERM=xterm-256color $PROG --demo; echo TUI-EXITED \$?; sleep 5"
	if wait_for "shortstroke - demo rig - 6 drives"; then pass "tui: opens on the demo rig"; else fail "tui: opens on the demo rig" "$SCREEN"; fi
	if printf '%s\n' "$SCREEN" | grep -qE "sim:sas15k +sas +HUS154545VLS300"; then pass "tui: drive table"; else fail "tui: drive table" "$SCREEN"; fi
	if printf '%s\n' "$SCREEN" | grep -qE "Model: +HUS154545VLS300"; then pass "tui: detail pane shows the first drive"; else fail "tui: detail pane shows the first drive" "$SCREEN"; fi
	tmx send-keys -t tui j
	if wait_for "Device: +sim:sata250"; then pass "tui: j moves to the second drive"; else fail "tui: j moves to the second drive" "$SCREEN"; fi
	tmx send-keys -t tui Down
	if wait_for "Device: +sim:sata320"; then pass "tui: Down arrow moves"; else fail "tui: Down arrow moves" "$SCREEN"; fi
	tmx send-keys -t tui k
	if wait_for "Device: +sim:sata250"; then pass "tui: k moves up"; else fail "tui: k moves up" "$SCREEN"; fi
	tmx send-keys -t tui '?'
	if wait_for "shortstroke - keys"; then pass "tui: ? opens help"; else fail "tui: ? opens help" "$SCREEN"; fi
	tmx send-keys -t tui x
	if wait_for "Device: +sim:sata250" && ! printf '%s\n' "$SCREEN" | grep -q "shortstroke - keys"; then pass "tui: a key closes help"; else fail "tui: a key closes help" "$SCREEN"; fi
	tmx resize-window -t tui -x 80 -y 24 2>/dev/null || tmx resize-pane -t tui -x 80 -y 24
	if wait_for "Device: +sim:sata250" && [ "$(printf '%s\n' "$SCREEN" | wc -l)" -le 24 ]; then pass "tui: redraws after a resize"; else fail "tui: redraws after a resize" "$SCREEN"; fi
	tmx send-keys -t tui q
	if wait_for "TUI-EXITED 0"; then pass "tui: q quits with status 0"; else fail "tui: q quits with status 0" "$SCREEN"; fi
	tmx kill-server 2>/dev/null
fi
