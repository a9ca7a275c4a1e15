# Every screen of the TUI at 80x24 and at 200x60, in UTF-8 (the cut mark "…") and in the C
# locale ("~") (issue 25, item 5): the title keeps the filter and shortens the rig's path;
# a value longer than its column is cut with the mark; the detail pane says what it leaves
# out and Enter shows all of it; at 200x60 the details are in two columns; PgDn moves a
# page in the table, the help, a report and a dialog; q closes the help; a message on the
# status line goes with the next key; the planner's header is cut with the mark, its
# closest layouts show SHORT OF whole, ^N shows its notes, its key bar keeps Esc close; the
# arrays screen's rows end in the mark, its step line is whole, Enter shows a record; a
# SMART report's rows are one line each; the log's key bar keeps q close.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	# a rack of 24 (three models), in a directory whose name makes the path long
	LD="$TMP/racks-of-the-burn-in-room-number-three"
	mkdir -p "$LD"
	python3 - "$LD/rack.json" <<'PY'
import json, sys
models = [("ST4000NM0035", "sata", "ATA"), ("HGST HUS726T4TALA6L4V1A", "sata", "ATA"),
          ("ST900MM0168", "sas", "SEAGATE")]
drives = []
for k in range(1, 25):
    model, pers, vendor = models[k % 3]
    drives.append({"id": "d%02d" % k, "personality": pers, "vendor": vendor, "model": model,
                   "serial": "ZC%02d%d" % (k, k * 37 % 1000), "firmware": "SN03",
                   "wwn": "5000c50000aa00%02d" % k, "blocks": 2000000 + 100000 * ((k * 7) % 24),
                   "rpm": 7200, "smart": True})
json.dump({"time_scale": 1000, "drives": drives}, open(sys.argv[1], "w"))
PY
	# arrays for the A screen: made by apply with the fake mdadm (as t_apply.sh)
	LA="$TMP/layout-arrays"
	mkdir -p "$LA/root/proc"
	echo "Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]" >"$LA/root/proc/mdstat"
	la_env="SHORTSTROKE_RIG=$HERE/../data/array-rig.json SHORTSTROKE_SYSROOT=$LA/root SHORTSTROKE_MDADM=$HERE/fake-mdadm.sh SHORTSTROKE_MODPROBE=false FAKE_MDADM_LOG=$LA/log FAKE_MDADM_STATE=$LA/md.state"
	export SHORTSTROKE_STATE_DIR="$TMP/layout-state"
	(
		cd "$LA" || exit 1
		env $la_env "$PROG" plan --level 10 --stroke 25% sim:a1 sim:a2 sim:a3 sim:a4 sim:s1 \
			sim:s2 -O r10.json
		env $la_env "$PROG" apply r10.json --name fast0-for-the-db --yes
	) >/dev/null 2>&1
	[ -f "$SHORTSTROKE_STATE_DIR/arrays/fast0-for-the-db.json" ] &&
		pass "tui layout: an array to show (apply with the fake mdadm)" ||
		fail "tui layout: an array to show (apply with the fake mdadm)"


	for case in "80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8" "200 60 LANG=C LC_ALL=C" \
		"80 24 LANG=C LC_ALL=C"; do
		set -- $case
		w=$1 h=$2
		shift 2
		envs="$*"
		TUI_ENV="$envs"
		loc=utf-8 cut="…" dn="▼" up="▲"
		case "$envs" in *LANG=C\ *) loc=C cut="~" dn="v" up="\\^" ;; esac
		tag="tui layout ${w}x$h $loc"

		# ---- the main screen: 24 drives, a long rig path, a filter --------------
		tui_start "l$w$loc" "$w" "$h" --rig "$LD/rack.json"
		TUI_ENV=
		tui_check "$tag: the rack of 24" "24 drives"
		tui_keys / S T 4 Enter
		tui_check "$tag: the title keeps the filter whole" \
			"24 drives - filter 'ST4': 8 of 24 *$"
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: ... and says the rig by its file's name" \
				"^ shortstroke - rig rack\.json - 24 drives"
		else
			tui_check "$tag: ... and the rig's whole path" "rig $LD/rack\.json"
		fi
		tui_keys Escape
		tui_wait "24 drives *$" >/dev/null
		# a model's name longer than its column: cut, with the mark; on a wide screen
		# the column is as wide as it
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: a model cut with the mark" "^ sim:d01 +sata +HGST HUS726T4TALA6L4V$cut "
		else
			tui_check "$tag: a model whole on a wide screen" \
				"^ sim:d01 +sata +HGST HUS726T4TALA6L4V1A +ZC"
		fi
		# the detail pane: what it leaves out is said; Enter shows all of it
		if [ "$w" -lt 120 ]; then
			tui_check "$tag: the detail pane says what it leaves out" \
				"^ $cut [0-9]+ more fields: Enter shows every detail"
		else
			tui_check "$tag: 200 columns: the details in two columns" \
				"^ SMART health: .{70,} [A-Z][A-Za-z -]+: +[^ ]"
			screen_lacks "$tag: ... all of them shown" "more fields: Enter"
		fi
		tui_keys Enter
		tui_check "$tag: Enter: every detail of the drive" "^ Details of sim:d[0-9]+"
		tui_keys G
		tui_check "$tag: ... to the last field" "^State: +free"
		tui_keys q
		# PgDn moves a page of the table: at 80x24 the rows shown; at 200x60 to the end
		tui_keys g NPage
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: PgDn moves the selection a page (9 rows) down" \
				"Device: +sim:d10"
			tui_keys NPage
			tui_check "$tag: ... and another" "Device: +sim:d19"
			tui_keys PPage
			tui_check "$tag: PgUp a page up" "Device: +sim:d10"
		else
			tui_check "$tag: PgDn moves the selection a page: the last row" \
				"Device: +sim:d24"
		fi
		# a message goes with the next key; the status line then counts
		tui_keys d
		tui_check "$tag: d: its message" "detail pane hidden \(d toggles it\)"
		tui_keys d k
		tui_check "$tag: a key later: the message is gone, the count is back" \
			"^ 24 drives, none marked: actions apply to the selected one"

		# ---- the help: q closes it, PgDn moves a page --------------------------
		tui_keys '?'
		tui_check "$tag: the help" "shortstroke - keys"
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: the help shows its first page" "lines 1-21 of [0-9]+ $dn"
			tui_keys NPage
			tui_check "$tag: PgDn: the help's next page" "lines 22-42 of [0-9]+ $up$dn"
		else
			tui_check "$tag: the help fits whole" "any key closes"
		fi
		tui_keys q
		tui_check "$tag: q closes the help; the TUI stays" "^\? help j/k move"
		screen_lacks "$tag: ... the help is gone" "shortstroke - keys"

		# ---- a report: SMART rows on one line; PgDn a page ----------------------
		tui_keys s
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: the SMART report" "^ +5 reallocated-sector-count "
			tui_check "$tag: an attribute's row on one line" "^ +5 reallocated-sector-count .* ok$"
			tui_keys G
			tui_check "$tag: RAW is left out, and that said" \
				"^\(RAW left out at this width: 'shortstroke smart -a sim:d"
			tui_keys g
			tui_wait "lines 1-" >/dev/null
			# PgDn: the next page (the lines shown), or the last one
			n=$(printf '%s\n' "$SCREEN" | sed -n 's/.*lines 1-\([0-9]*\) of \([0-9]*\).*/\1 \2/p')
			set -- $n
			want=$(($1 + 1))
			[ $want -gt $(($2 - $1 + 1)) ] && want=$(($2 - $1 + 1))
			tui_keys NPage
			tui_check "$tag: PgDn: the report's next page" "lines $want-$2 of $2"
		else
			tui_check "$tag: the SMART report" "^sim:d[0-9]+: PASSED"
			tui_check "$tag: the report fits whole" "lines 1-([0-9]+) of \1 *$"
		fi
		tui_keys q

		# ---- the log: its key bar keeps q close, a long name is cut -------------
		tui_keys L
		tui_check "$tag: the log" "Commands sent this session"
		tui_check "$tag: the log's key bar keeps q close" "^j/k move PgUp .* q close"
		tui_keys q

		# ---- the planner: 8 drives, its header, its key bar, the closest layouts --
		tui_keys / S T 4 Enter '*' p
		tui_check "$tag: the planner on the 8" "Planner - 8 drives: sim:d03"
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: the planner's header cut with the mark" "^ Planner - 8 drives: .*$cut$"
		else
			tui_check "$tag: the planner's header lists all 8" "sim:d21 sim:d24 *$"
		fi
		tui_check "$tag: the planner's key bar keeps Esc close" "^Tab field .* Esc close"
		tui_keys -l 100T
		tui_check "$tag: the closest layouts: SHORT OF" "CLOSEST LEVEL .* SHORT OF"
		tui_check "$tag: ... each layout's shortfall whole" "capacity -[0-9]+%$"
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: the notes left out are said" "more notes: \^N shows them all"
		fi
		tui_keys C-n
		tui_check "$tag: ^N: every note" "Planner: the notes on the drives"
		tui_keys q
		tui_wait "Planner - 8" >/dev/null
		tui_put ""
		tui_keys s
		tui_wait "Save plan" >/dev/null
		tui_type "$TMP/plan-$w$loc.json"
		tui_check "$tag: saved: said on the planner's status row" "plan written to $TMP/plan-$w"
		tui_keys Tab
		tui_wait "Tolerates +\[" >/dev/null
		tui_check "$tag: a key later: the message is gone" "Planner - 8"
		screen_lacks "$tag: ... no 'plan written' left" "plan written"
		tui_keys Escape
		tui_stop

		# ---- the arrays screen -------------------------------------------------------
		TUI_ENV="$envs"
		PROG_SAVED=$PROG
		PROG="env $la_env $PROG_SAVED"
		tui_start "a$w$loc" "$w" "$h"
		PROG=$PROG_SAVED
		TUI_ENV=
		tui_wait "rig .* 14 drives|14 drives" >/dev/null
		tui_keys A
		tui_check "$tag: the arrays screen" "Arrays shortstroke created - 1"
		tui_check "$tag: the array's row" "^> fast0-for-the-db +done +10 "
		if [ "$w" -lt 100 ]; then
			tui_check "$tag: its members cut with the mark" "^> fast0-for-the-db .*$cut$"
			tui_check "$tag: a member's row in sizes" \
				"sim:a1 +AMAC-0001 +limited +25\.0 GB of 100 GB amac"
		else
			tui_check "$tag: all its members" "sim:a1,sim:a2,sim:a3,sim:a4,sim:s1,sim:s2 *$"
			tui_check "$tag: a member's row in blocks" \
				"sim:a1 +AMAC-0001 +limited +48826368 of 195312500 blocks"
		fi
		tui_check "$tag: its step said whole" "step: done"
		tui_check "$tag: the arrays' key bar keeps q close" "^j/k select .* q close"
		tui_keys Enter
		tui_check "$tag: Enter: every field of the record" "Array fast0-for-the-db: every field"
		tui_check "$tag: ... its members" "^  sim:a1 +limited: 48826368 of 195312500 blocks"
		tui_keys q
		tui_check "$tag: q: back on the arrays screen" "Arrays shortstroke created - 1"
		tui_keys q q
		tui_wait "TUI-EXITED 0" >/dev/null
		tui_stop
	done
else
	fail "t_tui_layout: tmux is installed (tests/deps.sh check installs it)"
fi
