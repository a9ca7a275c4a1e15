# The TUI's screen in tmux: UTF-8 frames and charts and the ASCII fallback in
# the C locale, the key bar that follows the screen on top, the help box
# wrapped and scrolled at 80x24, a resize that keeps the selection and the
# typed input, NO_COLOR, and the mouse (SGR sequences, as xterm sends them):
# a click on a row, a click on a key bar label, the wheel.

# scr_start NAME W H ENV...: the demo rig's TUI with ENV (LANG=..., NO_COLOR=1)
scr_start() {
	n=$1 w=$2 h=$3
	shift 3
	TUI_ENV="$*"
	tui_start "$n" "$w" "$h" --demo
	TUI_ENV=
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
}
# click X Y: button 1 pressed and released at column X, row Y (1-based)
click() {
	tui_keys -l "$(printf '\033[<0;%s;%sM' "$1" "$2")"
	tui_keys -l "$(printf '\033[<0;%s;%sm' "$1" "$2")"
}
# wheel down|up X Y
wheel() {
	b=65
	[ "$1" = up ] && b=64
	tui_keys -l "$(printf '\033[<%s;%s;%sM' "$b" "$2" "$3")"
}
# label_x TEXT: the column (1-based) where TEXT starts on the bottom row
label_x() {
	last=$(printf '%s\n' "$SCREEN" | tail -n 1)
	case $last in *"$1"*) ;; *) echo 0; return ;; esac
	pre=${last%%"$1"*}
	echo $(($(printf '%s' "$pre" | wc -m) + 1))
}

if ! command -v tmux >/dev/null 2>&1; then
	fail "t_tui_screen: tmux is installed (tests/deps.sh check installs it)"
else
	. "$HERE/tui_lib.sh"

	# ---- UTF-8 at 80x24: frames, the key bar, the help box, the mouse ----
	scr_start utf 80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8
	tui_check "tui screen utf-8 80x24: the table keeps DEVICE, SIZE, LIMITED, STATE" \
		"DEVICE .* SIZE +LIMITED +STATE"
	screen_lacks "tui screen utf-8 80x24: no SERIAL column at 80 columns" " SERIAL "
	screen_has "tui screen utf-8 80x24: the detail pane's rule is box drawing" "── sim:sas15k ──"
	screen_lacks "tui screen utf-8 80x24: no ACS letters (qqqq) for the lines" "qqqq"
	screen_has "tui screen utf-8 80x24: the key bar labels" "^\? help j/k move Space mark l limit"
	[ "$(printf '%s\n' "$SCREEN" | wc -l)" -le 24 ] && pass "tui screen utf-8 80x24: 24 rows" ||
		fail "tui screen utf-8 80x24: 24 rows" "$SCREEN"

	tui_keys l
	tui_check "tui screen utf-8: the limit dialog is framed" "┌─ Limit \(short-stroke\) ─+┐"
	tui_wait "^Enter go on Esc cancel" >/dev/null
	last=$(printf '%s\n' "$SCREEN" | tail -n 1)
	if printf '%s\n' "$last" | grep -q "^Enter go on Esc cancel" &&
	   ! printf '%s\n' "$last" | grep -q "l limit"; then
		pass "tui screen utf-8: the key bar changes when a dialog opens"
	else
		fail "tui screen utf-8: the key bar changes when a dialog opens" "$SCREEN"
	fi
	# a click on "Esc cancel" in the key bar acts as Esc
	click "$(label_x "Esc cancel")" 24
	tui_check "tui screen utf-8: a click on the Esc label closes the dialog" "^\? help j/k move"
	screen_lacks "tui screen utf-8: ... the dialog is gone" "Limit \(short-stroke\)"

	# the mouse: a click on the third row selects sim:sata320
	click 5 5
	tui_check "tui screen mouse: a click on a row selects it" "Device: +sim:sata320"
	screen_has "tui screen mouse: ... and the table shows it selected" "── sim:sata320 ──"
	wheel down 5 5
	tui_check "tui screen mouse: the wheel moves three rows down" "Device: +sim:sata-hpa"
	wheel up 5 5
	tui_check "tui screen mouse: the wheel moves back up" "Device: +sim:sata320"
	tui_wait "^\? help" >/dev/null
	click "$(label_x "? help")" 24
	tui_check "tui screen mouse: a click on the ? label opens the help" \
		"┌─ shortstroke - keys ─+┐"

	# the help: framed, every row inside the frame, wrapped at words
	bad=$(printf '%s\n' "$SCREEN" | awk '/│/ && !/│$/' | head -n 3)
	if [ -z "$bad" ] && printf '%s\n' "$SCREEN" | grep -q "└─ lines 1-[0-9]* of [0-9]*"; then
		pass "tui screen help 80x24: every row ends at the frame; it says it scrolls"
	else
		fail "tui screen help 80x24: every row ends at the frame; it says it scrolls" "$SCREEN"
	fi
	if printf '%s\n' "$SCREEN" | grep -qE "│ +l +limit the selected \(or marked\) drives \(a preview, then the +│" &&
	   printf '%s\n' "$SCREEN" | grep -qE "│ +serial\) +│"; then
		pass "tui screen help 80x24: a long key line wraps at a word, under its text"
	else
		fail "tui screen help 80x24: a long key line wraps at a word, under its text" "$SCREEN"
	fi
	screen_lacks "tui screen help 80x24: the last line is below" "job shows its progress"
	screen_has "tui screen help 80x24: the key bar shows the help's keys" "PgDn page down"
	tui_keys NPage NPage NPage
	tui_check "tui screen help 80x24: PgDn reaches the last line" "job shows its progress\. +│"
	tui_keys Escape

	# a report in the pager: block elements in the zone chart, the wheel scrolls it
	tui_keys z
	tui_check "tui screen utf-8: the zone chart is block elements" "│█+[▁▂▃▄▅▆▇]*"
	screen_has "tui screen utf-8: the chart's axis" "└────"
	screen_has "tui screen pager: its key bar" "q close +lines 1-[0-9]+ of [0-9]+"
	wheel down 10 10
	tui_check "tui screen mouse: the wheel scrolls the pager" "lines 4-[0-9]+ of [0-9]+"
	tui_keys q

	# resize: the selection and an open dialog with its typed text stay
	tui_keys l
	tui_wait "Limit \(short-stroke\)" >/dev/null
	tui_keys -l 20%
	tmux -S "$tui_sock" resize-window -t tui -x 200 -y 60
	tui_check "tui screen resize to 200x60: the dialog and what was typed stay" "Size +\[20%_"
	tui_keys Escape
	tui_check "tui screen 200x60: the whole key bar" "d detail C columns R rescan"
	screen_has "tui screen resize to 200x60: the selection stays" "Device: +sim:sata320"
	screen_has "tui screen 200x60: more columns (SERIAL, NATIVE, RPM)" \
		"DEVICE .*SERIAL .*NATIVE .*RPM +STATE"
	tmux -S "$tui_sock" resize-window -t tui -x 80 -y 24
	tui_check "tui screen resize back to 80x24: the selection stays" "── sim:sata320 ──"
	# d hides the detail pane: the table takes the screen
	tui_keys d
	tui_check "tui screen: d hides the detail pane" "detail pane hidden"
	screen_lacks "tui screen: ... no detail left" "Device: +sim:"
	tui_keys d q
	if tui_wait "TUI-EXITED 0"; then pass "tui screen utf-8: quits with 0"; else fail "tui screen utf-8: quits with 0" "$SCREEN"; fi
	tui_stop

	# ---- the C locale: ASCII frames and charts --------------------------------
	scr_start c 80 24 LANG=C LC_ALL=C
	tui_check "tui screen C locale: the detail pane's rule is ASCII" "^-- sim:sas15k ---"
	screen_lacks "tui screen C locale: no box drawing" "[─│┌┐└┘]"
	tui_keys '?'
	tui_check "tui screen C locale: the help is framed in ASCII" "^\+- shortstroke - keys -+\+$"
	screen_lacks "tui screen C locale: ... no box drawing in it" "[─│┌┐└┘▼]"
	tui_keys Escape j z
	tui_check "tui screen C locale: the zone chart is #" "\|#+ *$"
	screen_lacks "tui screen C locale: ... no block elements" "[▁▂▃▄▅▆▇█]"
	tui_keys q l
	tui_check "tui screen C locale: a dialog framed in ASCII" "^ \+- Limit \(short-stroke\) -+\+$"
	# each screen has its own key bar
	tui_keys Escape p
	tui_check "tui screen 80x24: the planner's key bar" "^Tab field Left/Right choose"
	tui_keys Escape A
	tui_check "tui screen 80x24: the arrays screen's key bar" "^j/k select Enter detail u undo q close R reload"
	tui_keys Escape L
	tui_check "tui screen 80x24: the log's key bar" "^j/k move PgUp page up PgDn page down / filter"
	tui_keys /
	tui_check "tui screen 80x24: ... and while its filter is typed" "^Enter keep it Esc drop it"
	tui_keys Escape q q
	tui_wait "TUI-EXITED 0" >/dev/null
	tui_stop

	# ---- NO_COLOR at 200x60: no colour, selection in reverse video -------------
	scr_start nocolor 200 60 LANG=C.UTF-8 NO_COLOR=1
	tui_keys j
	tui_wait "Device: +sim:sata250" >/dev/null
	raw=$(tmux -S "$tui_sock" capture-pane -e -p -t tui)
	if ! printf '%s\n' "$raw" | grep -qE "$(printf '\033')\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5)m" &&
	   printf '%s\n' "$raw" | grep -qE "$(printf '\033')\[7msim:sata250 "; then
		pass "tui screen NO_COLOR: no colour; the selected row in reverse video"
	else
		fail "tui screen NO_COLOR: no colour; the selected row in reverse video" "$raw"
	fi
	screen_has "tui screen NO_COLOR: states are words" "sim:sata250 .* free"
	tui_keys q
	tui_wait "TUI-EXITED 0" >/dev/null
	tui_stop
fi
