# The TUI's rescan and reports as jobs, in tmux: while a drive keeps the scan
# waiting (another process holds the simulated drive's state lock, as a
# 'shortstroke' command working on it would) the screen still answers keys,
# with a spinner and "scanning N/M drives" in the status line; s and z show
# the text `smart -a -l` and `zones --measure` print for the drive.

# hold_start ID: take sim:ID's lock of the demo rig until hold_stop
hold_start() {
	mkdir -p "$SHORTSTROKE_STATE_DIR/sim/demo"
	: >"$TMP/hold"
	flock "$SHORTSTROKE_STATE_DIR/sim/demo/$1.lock" \
		sh -c "while [ -e '$TMP/hold' ]; do sleep 0.05; done" &
	hold_pid=$!
	# the lock is taken once flock runs its command
	i=0
	while [ $i -lt 50 ] && ! pgrep -P "$hold_pid" >/dev/null 2>&1; do sleep 0.05; i=$((i + 1)); done
}
hold_stop() {
	rm -f "$TMP/hold"
	wait "$hold_pid" 2>/dev/null
}
# spinner_turns NAME: the status line's spinner shows, and turns
spinner_turns() {
	first=$(printf '%s\n' "$SCREEN" | sed -n 's/^ \([|/\\-]\) scanning .*/\1/p' | tail -1)
	turned=""
	for k in 1 2 3 4 5 6 7 8; do
		sleep 0.3
		tui_wait "scanning" >/dev/null
		now=$(printf '%s\n' "$SCREEN" | sed -n 's/^ \([|/\\-]\) scanning .*/\1/p' | tail -1)
		[ -n "$first" ] && [ -n "$now" ] && [ "$now" != "$first" ] && { turned=1; break; }
	done
	if [ -n "$turned" ]; then pass "$1"; else fail "$1" "$SCREEN"; fi
}

# tui_gone PATTERN: poll until the screen no longer shows PATTERN (10 s)
tui_gone() {
	i=0
	while [ $i -lt 100 ]; do
		SCREEN=$(tmux -S "$tui_sock" capture-pane -p -t tui 2>/dev/null)
		printf '%s\n' "$SCREEN" | grep -qE -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# same_text NAME ARGS...: the pager on the screen shows what "$PROG --demo
# ARGS" prints, as far as the screen goes (38 rows); power-on hours move on
# between the two reads and are left out
same_text() {
	name=$1
	shift
	"$PROG" --demo "$@" | head -38 | sed 's/ *$//' >"$TMP/cli.raw"
	n=$(wc -l <"$TMP/cli.raw")
	printf '%s\n' "$SCREEN" | sed -n "2,$((n + 1))p" | sed 's/ *$//' >"$TMP/tui.raw"
	grep -vi "power-on.hours" "$TMP/cli.raw" >"$TMP/cli.txt"
	grep -vi "power-on.hours" "$TMP/tui.raw" >"$TMP/tui.txt"
	if [ "$n" -gt 5 ] && cmp -s "$TMP/cli.txt" "$TMP/tui.txt"; then
		pass "$name"
	else
		fail "$name" "$(diff "$TMP/cli.txt" "$TMP/tui.txt"; printf '%s\n' "$SCREEN")"
	fi
}

if command -v tmux >/dev/null 2>&1 && command -v flock >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"

	# the first scan waits on sim:sas15k: the screen says so, an action that
	# needs the list says to wait, help opens, q leaves at once
	hold_start sas15k
	tui_start first 120 40 --demo
	tui_check "tui scan: the first scan shows a spinner in the status line" \
		"^ [|/\\-] scanning"
	tui_check "tui scan: the screen says the drives are being read" "reading the drives"
	tui_keys l
	tui_check "tui scan: l before the list is read: scanning, wait" "scanning, wait"
	tui_keys '?'
	tui_check "tui scan: help opens while the scan waits" "shortstroke - keys"
	tui_keys x q
	if tui_wait "TUI-EXITED 0"; then pass "tui scan: q quits while the scan waits"; else fail "tui scan: q quits while the scan waits" "$SCREEN"; fi
	tui_stop
	hold_stop

	# a rescan waits on sim:sas15k: the old list stays, the keys work on it
	# (in the C locale: the zone chart below in ASCII, as the command prints it)
	TUI_ENV="LC_ALL=C"
	tui_start rescan 120 40 --demo
	TUI_ENV=
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	hold_start sas15k
	tui_keys R
	# (a rig's drives load before they are listed: a drive held keeps the load
	# waiting, "scanning the drives"; a disk that answers slowly to IDENTIFY
	# shows "scanning N/M drives")
	tui_check "tui scan: R: a spinner and scanning in the status line" \
		"^ [|/\\-] scanning (the drives|[0-9]+/7 drives)"
	spinner_turns "tui scan: the spinner turns while the scan waits"
	tui_keys j
	tui_check "tui scan: j moves on the old list during the rescan" "Device: +sim:sata250"
	tui_keys Space
	tui_check "tui scan: Space marks on the old list during the rescan" "^\*sim:sata250"
	tui_keys '?'
	tui_check "tui scan: help opens during the rescan" "shortstroke - keys"
	tui_keys x
	if tui_gone "shortstroke - keys" && printf '%s\n' "$SCREEN" | grep -qE "^ [|/\\-] scanning"; then pass "tui scan: help closes, the scan still runs"; else fail "tui scan: help closes, the scan still runs" "$SCREEN"; fi
	hold_stop
	if tui_gone " scanning " && printf '%s\n' "$SCREEN" | grep -qE "demo rig - [0-9]+ drives" &&
	   printf '%s\n' "$SCREEN" | grep -q "^\*sim:sata250" &&
	   printf '%s\n' "$SCREEN" | grep -qE "Device: +sim:sata320"; then
		pass "tui scan: the new list is in; the selection and the mark stayed on their disks"
	else
		fail "tui scan: the new list is in; the selection and the mark stayed on their disks" "$SCREEN"
	fi

	# s and z: the text the commands print, read by a job
	tui_keys k
	tui_wait "Device: +sim:sata250" >/dev/null
	tui_keys s
	if tui_wait "ATA error log"; then
		same_text "tui scan: s shows what 'smart -a -l' prints" smart -a -l sim:sata250
	else
		fail "tui scan: s shows what 'smart -a -l' prints" "$SCREEN"
	fi
	tui_keys q
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	tui_keys g j j j j j
	tui_wait "Device: +sim:sata-hpa" >/dev/null
	tui_keys k
	tui_wait "Device: +sim:smr" >/dev/null
	tui_keys z
	if tui_wait "Read rate across the disk"; then
		same_text "tui scan: z shows what 'zones --measure' prints" zones --measure sim:smr
	else
		fail "tui scan: z shows what 'zones --measure' prints" "$SCREEN"
	fi
	# a report the drive keeps waiting: the pager spins, Esc stops it
	tui_keys q
	tui_wait "demo rig - [0-9]+ drives" >/dev/null
	tui_keys g
	tui_wait "Device: +sim:sas15k" >/dev/null
	hold_start sas15k
	tui_keys s
	tui_check "tui scan: s on a drive that keeps it waiting: the pager spins" \
		"^  [|/\\-] reading SMART of sim:sas15k"
	tui_keys Escape
	tui_check "tui scan: Esc stops the report and closes the pager" "demo rig - [0-9]+ drives"
	hold_stop
	tui_keys q
	if tui_wait "TUI-EXITED 0"; then pass "tui scan: quits after the reports"; else fail "tui scan: quits after the reports" "$SCREEN"; fi
	tui_stop
else
	fail "t_tui_scan: tmux and flock are installed (tests/deps.sh check installs them)"
fi
