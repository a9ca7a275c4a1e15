# tui_lib.sh - drive the TUI in tmux, for the t_tui*.sh case files.
# tui_start NAME W H ARGS...  a TUI ("$PROG ARGS") in a fresh tmux server of
#                             that size; "TUI-EXITED <status>" shows when it ends
#                             (ASAN_OPTIONS and UBSAN_OPTIONS are passed on, and
#                             the VAR=VALUE words of TUI_ENV: LC_ALL=C, NO_COLOR=1;
#                             ESCDELAY 300 ms, TUI_ESCDELAY to change it: a mouse
#                             report or an arrow key that tmux writes while the
#                             machine is busy can reach the TUI in pieces, and
#                             ncurses's 25 ms then reads its Esc as the Esc key)
# tui_keys KEYS...            tmux send-keys to it
# tui_wait PATTERN            poll the screen for up to 10 s; SCREEN holds it
# tui_check NAME PATTERN      pass when the screen shows PATTERN and the TUI
#                             still runs (did not crash or quit)
# tui_type TEXT               clear an input field, type TEXT, Enter
# tui_put TEXT                clear a field however long, type TEXT (no Enter)
# tui_stop                    end the tmux server (and the TUI with it)
# tui_holds NAME FN           pass when FN (a test of $SCREEN) holds, the screen read
#                             again for up to 10 s (a capture can land mid-redraw)
# screen_has NAME PATTERN     pass when the last screen read shows PATTERN
# screen_lacks NAME PATTERN   pass when it does not

tui_start() {
	tui_sock="$TMP/tui-$1.sock"
	tui_w=$2 tui_h=$3
	shift 3
	tmux -S "$tui_sock" -f /dev/null new-session -d -s tui -x "$tui_w" -y "$tui_h" \
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR SHORTSTROKE_PROTECT_FILE=$SHORTSTROKE_PROTECT_FILE ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} TERM=xterm-256color ESCDELAY=${TUI_ESCDELAY:-300} ${TUI_ENV:-} $PROG $*; echo TUI-EXITED \$?; sleep 20"
}
tui_keys() { tmux -S "$tui_sock" send-keys -t tui "$@"; }
tui_stop() { [ -z "${tui_sock:-}" ] || tmux -S "$tui_sock" kill-server 2>/dev/null; }
tui_wait() {
	i=0
	while [ $i -lt 100 ]; do
		SCREEN=$(tmux -S "$tui_sock" capture-pane -p -t tui 2>/dev/null)
		printf '%s\n' "$SCREEN" | grep -qE -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
tui_check() {
	if tui_wait "$2" && ! printf '%s\n' "$SCREEN" | grep -q "TUI-EXITED"; then
		pass "$1"
	else
		fail "$1" "$SCREEN"
	fi
}
tui_holds() {
	i=0
	while [ $i -lt 100 ]; do
		SCREEN=$(tmux -S "$tui_sock" capture-pane -p -t tui 2>/dev/null)
		"$2" && { pass "$1"; return 0; }
		sleep 0.1
		i=$((i + 1))
	done
	fail "$1" "$SCREEN"
}
screen_has() {
	if printf '%s\n' "$SCREEN" | grep -qE -- "$2"; then pass "$1"; else fail "$1" "$SCREEN"; fi
}
screen_lacks() {
	if printf '%s\n' "$SCREEN" | grep -qE -- "$2"; then fail "$1" "$SCREEN"; else pass "$1"; fi
}
tui_type() {
	tui_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
	tui_keys -l -- "$1"
	tui_keys Enter
}
tui_put() {
	tui_keys -N 120 BSpace
	[ -z "$1" ] || tui_keys -l -- "$1"
}

# What a refused or cancelled dialog must leave as it was (t_tui_limit.sh, t_tui_bench.sh, ...):
# drive_state ID [RIG]    what simulated drive ID (of the demo rig, or of RIG, a rig file's
#                         name without .json) holds that a command can change, one line: its
#                         capacity, HPA/AMAC/DCO/security settings, format, write cache, faults,
#                         self-test and error logs, and its data image (made by the first write;
#                         zeros stay holes, so a write shows as the image, its blocks as data);
#                         not its clock, its head or its traffic counters (saved lazily)
# journal_lines           the journal's lines (0 when there is none)
# rig_state_dir [RIG]      where the drives of the demo rig (or of the rig file named RIG.json)
#                         keep their state: <state>/sim/demo, <state>/sim/RIG-<hash of its path>
rig_state_dir() {
	if [ -z "$1" ]; then echo "$SHORTSTROKE_STATE_DIR/sim/demo"; else echo "$SHORTSTROKE_STATE_DIR"/sim/"$1"-*; fi
}
drive_state() {
	python3 - "$(rig_state_dir "${2:-}")/$1" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1] + ".json"))
for k in ("clock_ns", "saved_at_realtime_ns", "head_lba", "next_lba", "counters"):
    d.pop(k, None)
d.get("smart", {}).pop("power_on_hours", None)
d.get("smart", {}).pop("temperature", None)
img = sys.argv[1] + ".img"
st = os.stat(img) if os.path.exists(img) else None
print(json.dumps(d, sort_keys=True), "image:", (st.st_size, st.st_blocks) if st else None)
PY
}
journal_lines() {
	if [ -f "$SHORTSTROKE_STATE_DIR/journal.jsonl" ]; then
		wc -l <"$SHORTSTROKE_STATE_DIR/journal.jsonl"
	else
		echo 0
	fi
}
