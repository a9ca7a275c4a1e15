# Many disks in the TUI, in tmux, with a rig of 24 drives (three models, every size its own):
# sorting by a column (< >) puts the rows in the order of that column's values, as numbers
# (I reverses it); the filter (/) narrows the rows as each letter is typed and Enter keeps
# it; * marks what the filter shows and the limit form lists exactly those drives; i inverts
# the marks of the rows shown; Setup (C) adds a column (WWN), which shows on the screen, is
# written to $XDG_CONFIG_HOME/shortstroke/tui.conf and is there again after a restart; a
# misspelt column in tui.conf is reported and the default columns are used; at 80x24 the
# sort, the filter, the marks and Setup work too, and the sort is kept in tui.conf on quitting.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	export XDG_CONFIG_HOME="$TMP/config" # (run.sh's too)
	# the rig: d01..d24; models by thirds, sizes all different and not in the order of
	# the names (blocks = 2000000 + 100000 * ((k * 7) mod 24))
	{
		echo '{ "time_scale": 1000, "drives": ['
		k=1
		while [ $k -le 24 ]; do
			n=$(printf %02d $k)
			case $((k % 3)) in
			0) model=ST4000NM0035 pers=sata vendor=ATA ;;
			1) model=HUS726T4TALA6L4 pers=sata vendor=ATA ;;
			*) model=ST900MM0168 pers=sas vendor=SEAGATE ;;
			esac
			blocks=$((2000000 + 100000 * ((k * 7) % 24)))
			[ $k -eq 1 ] || echo ','
			printf '{ "id": "d%s", "personality": "%s", "vendor": "%s", "model": "%s", ' \
				"$n" "$pers" "$vendor" "$model"
			printf '"serial": "ZC%s%s", ' "$n" "$((k * 37 % 1000))"
			printf '"firmware": "SN03", "wwn": "5000c50000aa00%s", "blocks": %s, "rpm": 7200 }' \
				"$n" "$blocks"
			k=$((k + 1))
		done
		echo '] }'
	} >"$TMP/rack.json"
	# what the rig says, a line per drive: name, blocks, model
	python3 - "$TMP/rack.json" >"$TMP/rack.txt" <<'PY'
import json, sys
for d in json.load(open(sys.argv[1]))["drives"]:
    print("sim:" + d["id"], d["blocks"], d["model"])
PY
	# rows: the table's drive names on the screen, in order
	rows() { printf '%s\n' "$SCREEN" | sed -n 's/^[ *]\(sim:d[0-9][0-9]\) .*/\1/p'; }
	marked() { printf '%s\n' "$SCREEN" | sed -n 's/^\*\(sim:d[0-9][0-9]\) .*/\1/p'; }
	# on NAME WANT FN: what FN (rows, marked) reads off the screen is WANT; the screen is
	# read again for up to 10 s, until it is (a capture can land in the middle of a redraw)
	on() {
		j=0
		while [ $j -lt 100 ]; do
			SCREEN=$(tmux -S "$tui_sock" capture-pane -p -t tui 2>/dev/null)
			[ "$($3)" = "$2" ] && break
			sleep 0.1
			j=$((j + 1))
		done
		same "$1" "$2" "$($3)"
	}
	# same NAME WANT GOT: two lists the same
	same() {
		if [ -n "$2" ] && [ "$2" = "$3" ]; then pass "$1"; else
			fail "$1" "want: $(echo $2) got: $(echo $3)
$SCREEN"; fi
	}

	export SHORTSTROKE_STATE_DIR="$TMP/rack"
	tui_start rack 200 60 --rig "$TMP/rack.json"
	tui_check "tui disks: the rack of 24" "rig .* 24 drives"
	on "tui disks: all 24 rows shown, as scanned" "$(awk '{print $1}' "$TMP/rack.txt")" rows
	rows >"$TMP/scan.txt"

	# sort: DEVICE TRAN MODEL SERIAL SIZE: five steps to the right
	tui_keys '>' '>' '>' '>' '>'
	tui_check "tui disks: > to SIZE: the header marks it" "SIZE\^"
	tui_check "tui disks: the title says the sort" "sort SIZE asc"
	on "tui disks: sorted by SIZE, as numbers" \
		"$(sort -k2,2n "$TMP/rack.txt" | awk '{print $1}')" rows
	tui_keys I
	tui_check "tui disks: I reverses the order" "SIZEv"
	on "tui disks: sorted by SIZE, descending" \
		"$(sort -k2,2nr "$TMP/rack.txt" | awk '{print $1}')" rows
	tui_keys '<' '<' '<' '<' '<'
	tui_check "tui disks: < back to the scan order" "sorted as scanned"
	on "tui disks: the scan order again" "$(cat "$TMP/scan.txt")" rows

	# the filter, live: each letter narrows
	tui_keys /
	tui_keys -l S
	tui_check "tui disks: / shows the filter as it is typed" "Filter: S_"
	n1=$(rows | wc -l)
	tui_keys -l T4
	tui_check "tui disks: ST4 typed" "Filter: ST4_ +\(8 of 24\)"
	n2=$(rows | wc -l)
	if [ "$n2" -lt "$n1" ] && [ "$n2" -eq 8 ]; then pass "tui disks: the rows narrow as letters come ($n1, $n2)"
	else fail "tui disks: the rows narrow as letters come ($n1, $n2)" "$SCREEN"; fi
	on "tui disks: the rows shown are the ST4000 drives" \
		"$(grep ST4000 "$TMP/rack.txt" | awk '{print $1}')" rows
	tui_keys Enter
	tui_check "tui disks: Enter keeps the filter, the title says it" "filter 'ST4': 8 of 24"

	# * marks what the filter shows; the limit form lists exactly those
	tui_keys '*'
	tui_check "tui disks: * marks the 8 shown" "8 marked"
	on "tui disks: the marked rows" "$(grep ST4000 "$TMP/rack.txt" | awk '{print $1}')" \
		marked
	tui_keys l
	tui_wait "Size +\[_\]" >/dev/null
	# the form lists the first ones, then "... and N more"
	listed=$(printf '%s\n' "$SCREEN" | grep -o 'sim:d[0-9][0-9]  ST4000NM0035  [^ ]* [GT]B' |
		awk '{print $1}')
	nl=$(printf '%s\n' "$listed" | wc -l)
	more=$(printf '%s\n' "$SCREEN" | sed -n 's/.*\.\.\. and \([0-9]*\) more.*/\1/p')
	others=$(printf '%s\n' "$SCREEN" | grep -c 'sim:d[0-9][0-9]  \(HUS726\|ST900\)')
	same "tui disks: l lists the marked drives" \
		"$(grep ST4000 "$TMP/rack.txt" | awk '{print $1}' | head -"$nl")" "$listed"
	same "tui disks: l: 8 drives in all" 8 "$((nl + ${more:-0}))"
	if [ "$others" -eq 0 ]; then pass "tui disks: l lists no other drive"; else
		fail "tui disks: l lists no other drive" "$SCREEN"; fi
	tui_keys Escape
	tui_wait "j/k move" >/dev/null

	# Esc clears the filter; i inverts the marks shown: the other 16
	tui_keys Escape
	tui_check "tui disks: Esc clears the filter" "shortstroke - rig .* 24 drives *$"
	tui_keys i
	tui_check "tui disks: i over all 24" "16 marked"
	on "tui disks: the 16 marked are the other models" \
		"$(grep -v ST4000 "$TMP/rack.txt" | awk '{print $1}')" marked
	# i with the filter: only the rows shown change
	tui_keys / S T 4 Enter i
	tui_check "tui disks: i over the 8 shown" "24 marked"
	tui_keys i
	tui_check "tui disks: i again: the 8 shown unmarked, the others kept" \
		"16 marked \(16 hidden by the filter"
	tui_keys U
	tui_check "tui disks: U unmarks all" "24 drives, none marked"
	tui_keys Escape

	# Setup: WWN shown
	tui_keys C
	tui_check "tui disks: C opens Setup with the registry's columns" "\[ \] WWN"
	tui_check "tui disks: Setup: STATE always shown" "\[x\] STATE +\(always\)"
	# DEVICE TRAN MODEL SERIAL SIZE NATIVE LIMITED RPM STATE VENDOR FIRMWARE WWN
	tui_keys j j j j j j j j Space
	tui_check "tui disks: STATE cannot be removed" "STATE stays"
	tui_keys j j j Space
	tui_check "tui disks: WWN ticked, before STATE" "\[x\] WWN"
	tui_keys Enter
	tui_check "tui disks: WWN in the table" " WWN +STATE"
	tui_check "tui disks: a WWN on screen" "5000c50000aa0017"
	conf="$XDG_CONFIG_HOME/shortstroke/tui.conf"
	if grep -qx "columns=DEVICE,TRAN,MODEL,SERIAL,SIZE,NATIVE,LIMITED,RPM,WWN,STATE" "$conf" 2>/dev/null
	then pass "tui disks: tui.conf keeps the columns"
	else fail "tui disks: tui.conf keeps the columns" "$(cat "$conf" 2>&1)"; fi
	tui_keys q
	if tui_wait "TUI-EXITED 0"; then pass "tui disks: q quits"; else fail "tui disks: q quits" "$SCREEN"; fi
	tui_stop

	tui_start rack2 200 60 --rig "$TMP/rack.json"
	tui_check "tui disks: after a restart, WWN again" " WWN +STATE"
	tui_check "tui disks: after a restart, a WWN on screen" "5000c50000aa0003"
	tui_stop

	# a misspelt column: said, the defaults used
	printf 'columns=DEVICE,SIZE,WWNN,LIMITED,STATE\n' >"$conf"
	tui_start rack3 200 60 --rig "$TMP/rack.json"
	tui_check "tui disks: a misspelt column in tui.conf is reported" \
		"tui.conf line 1: unknown column: WWNN .*the default columns are used"
	tui_check "tui disks: the default columns" " RPM +STATE"
	if printf '%s\n' "$SCREEN" | grep -q " WWN "; then
		fail "tui disks: no WWN with the defaults" "$SCREEN"
	else pass "tui disks: no WWN with the defaults"; fi
	tui_stop
	rm -f "$conf"

	# 80x24: sort and filter
	tui_start rack80 80 24 --rig "$TMP/rack.json"
	tui_wait "rig .* 24 drives" >/dev/null
	tui_keys '>' '>' '>' '>' '>' I
	tui_check "tui disks 80x24: SIZE descending" "SIZEv"
	tui_check "tui disks 80x24: the selection stays on its drive" "Device: +sim:d01"
	tui_keys g
	tui_wait "Device: +$(sort -k2,2nr "$TMP/rack.txt" | awk '{print $1; exit}')" >/dev/null
	on "tui disks 80x24: the first rows, biggest first" \
		"$(sort -k2,2nr "$TMP/rack.txt" | awk '{print $1}' | head -$(rows | wc -l))" rows
	tui_keys /
	tui_keys -l sas
	tui_check "tui disks 80x24: the filter on the key line" "Filter: sas_ +\(8 of 24\)"
	on "tui disks 80x24: the sas drives, biggest first" \
		"$(grep ST900 "$TMP/rack.txt" | sort -k2,2nr | awk '{print $1}')" rows
	tui_keys Enter '*'
	tui_check "tui disks 80x24: * marks the 8 shown" "8 marked"
	# Setup fits: its last column and its keys on the screen
	tui_keys C
	tui_check "tui disks 80x24: Setup shows every column" "\[ \] ZONED"
	tui_check "tui disks 80x24: Setup's keys" "Space show/hide .*Enter save"
	tui_keys Escape
	tui_check "tui disks 80x24: Esc closes Setup, the table as it was" " SIZEv +LIMITED +STATE"
	# the sort is kept in tui.conf on quitting, and there at the next start
	tui_keys q
	if tui_wait "TUI-EXITED 0" && grep -qx "sort=-SIZE" "$conf" 2>/dev/null; then
		pass "tui disks 80x24: q keeps the sort in tui.conf"
	else fail "tui disks 80x24: q keeps the sort in tui.conf" "$(cat "$conf" 2>&1)"; fi
	tui_stop
	tui_start rack80b 80 24 --rig "$TMP/rack.json"
	tui_check "tui disks 80x24: after a restart, sorted by SIZE descending" "sort SIZE desc"
	tui_check "tui disks 80x24: after a restart, the header marks it" " SIZEv +LIMITED"
	tui_stop
else
	skip "tui disks" "no tmux"
fi
