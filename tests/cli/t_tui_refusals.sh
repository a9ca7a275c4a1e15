# The TUI in tmux: every dialog gets refused and nonsense input and must
# stay up and say why inside the dialog (limit, restore, planner fields and
# save, self-test, bench, qualify, power cycle), at 80x24 and at 120x40.
# Each dialog gets a fresh TUI, so that one crash does not hide another.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	# rf_fresh NAME [RIG-ARGS]: a new TUI (on the demo rig) at $w x $h
	rf_fresh() {
		n=$1
		shift
		[ $# -gt 0 ] || set -- --demo
		tui_stop
		tui_start "$n$size" "$w" "$h" "$@"
		tui_wait "rig.* - [0-9]+ drives" >/dev/null
	}
	# a rig in real time: a long self-test stays busy while the keys arrive
	"$PROG" --demo sim rig | sed 's/"time_scale": *[0-9.]*/"time_scale": 1/' >"$TMP/slow.json"
	for size in 80x24 120x40; do
		w=${size%x*} h=${size#*x}
		st="$TMP/state-$size"
		export SHORTSTROKE_STATE_DIR="$st"
		"$PROG" --demo sim fault sim:sata320 no-smart >/dev/null
		"$PROG" --demo limit --size 20% --yes sim:sas4kn >/dev/null
		# medium errors everywhere but the first and last MiB, where the in-use
		# probe reads (an unreadable label would make the disk "in use")
		cap=$("$PROG" --demo info -J sim:sas4kn | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])")
		"$PROG" --demo sim fault sim:sas4kn "medium-error:256-$((cap - 257))" >/dev/null
		# limit: sizes the drive refuses, sizes that do not parse
		rf_fresh limit
		tui_keys j l
		tui_wait "Limit \(short-stroke\)" >/dev/null
		tui_type 900GB
		tui_check "tui $size: limit 900GB: refused inline (beyond native)" "900 GB\) is|^ *[A-Z]? *beyond the native"
		tui_type 100MB
		tui_check "tui $size: limit 100MB: refused inline (under 1 GiB)" "under 1 GiB"
		tui_type 0
		tui_check "tui $size: limit 0: refused inline" "greater than zero"
		tui_type 101%
		tui_check "tui $size: limit 101%: refused inline" "at most 100%"
		tui_type 'x!y'
		tui_check "tui $size: limit nonsense: refused inline" "expected a number"
		tui_keys Tab Left Right Up Down PageUp PageDown BTab
		tui_type 20%
		tui_check "tui $size: limit: after refusals a good size asks for the serial" \
			"Type the serial \(STF607MS2A4K7P\)"
		tui_type WRONG
		tui_check "tui $size: limit: a wrong serial is refused inline" "Not the serial"
		tui_keys Escape j l
		tui_wait "Limit \(short-stroke\)" >/dev/null
		tui_type 20%
		tui_check "tui $size: limit on a frozen drive: refused inline" "security-frozen"

		# restore: what the drive gets back, or why not
		rf_fresh restore
		tui_keys j r
		tui_wait "To +< original >" >/dev/null
		tui_keys Enter
		tui_check "tui $size: restore of a full-size drive: nothing to do, inline" \
			"Nothing to do: already at 488397168 blocks \(250 GB"
		tui_keys Enter j j r
		tui_wait "To +< original >" >/dev/null
		tui_keys Enter
		tui_check "tui $size: restore shows the size the disk gets back" \
			"gets back 488378646 blocks \(2.00 TB, the journaled original\)"
		tui_type WRONG
		tui_check "tui $size: restore: a wrong serial is refused inline" "Not the serial"
		tui_keys Escape g j j j j j r
		tui_wait "To +< original >" >/dev/null
		tui_keys Enter
		# a drive that came with an HPA and has no journal entry: either the
		# native size it would get back, or restore's refusal (with --to-native)
		tui_check "tui $size: restore without a journal: the size, or the refusal" \
			"gets back 976773168 blocks \(500 GB, the native maximum\)|Refused: .*sim:sata-hpa"
		tui_keys Escape

		# self-test: nonsense kinds, a test the drive has not, a drive without SMART
		rf_fresh selftest
		tui_keys t
		tui_wait "SMART self-test" >/dev/null
		tui_type xyz
		tui_check "tui $size: self-test: an unknown kind is refused inline" "'xyz' is not a kind"
		tui_type c
		tui_check "tui $size: self-test: conveyance on SAS is refused inline" \
			"no conveyance self-test"
		tui_keys Escape j j t
		tui_wait "SMART self-test" >/dev/null
		tui_type s
		tui_check "tui $size: self-test on a drive without SMART: refused inline" \
			"sim:sata320: .*SMART"
		tui_keys Escape

		# planner: fields that do not parse, a file that cannot be written
		rf_fresh planner
		tui_keys j p
		tui_wait "Planner - 1 drive" >/dev/null
		tui_keys -l 'abc'
		tui_check "tui $size: planner: a capacity that is not a size" "Capacity: "
		tui_keys BSpace BSpace BSpace Tab
		tui_keys -l -- '-5'
		tui_check "tui $size: planner: a negative IOPS goal" "IOPS: expected a number greater than 0, got '-5'"
		tui_keys BSpace BSpace Tab Tab
		tui_keys -l '1.5'
		tui_check "tui $size: planner: half a disk to tolerate" "Tolerates: expected a whole number 0 .. [0-9]+, got '1.5'"
		# (one drive: a layout to save tolerates no failure)
		tui_keys BSpace BSpace BSpace
		tui_keys -l 0
		tui_keys BTab BTab BTab s
		tui_wait "Save plan" >/dev/null
		tui_keys Enter
		tui_check "tui $size: planner: save without a name: inline" "A file name, please"
		tui_type "$TMP/no/such/dir/plan.json"
		tui_check "tui $size: planner: save to a missing directory: refused inline" \
			"no/such/dir/plan.json"
		tui_keys Escape Escape

		# bench and qualify on a drive that fails
		rf_fresh bench
		tui_keys j j j b
		tui_wait "Workload +< random-access >" >/dev/null
		tui_keys Enter
		tui_check "tui $size: bench on a drive with medium errors: the summary says why" \
			"Benchmark: 0 done, 1 failed"
		screen_has "tui $size: ... naming the drive" "sim:sas4kn: .*(medium|read)"
		tui_keys Escape
		tui_check "tui $size: ... and the results say it too" "sim:sas4kn: benchmark failed"
		tui_keys q Q
		tui_wait "Profile +< quick >" >/dev/null
		tui_keys Enter
		tui_check "tui $size: qualify on a drive with medium errors: says why" \
			"^sim:sas4kn .*FAIL"
		tui_keys q

		# power cycle, bench and qualify on a drive a job runs on
		rf_fresh busy --rig "$TMP/slow.json"
		tui_keys t
		tui_wait "SMART self-test" >/dev/null
		tui_type l
		tui_keys P
		tui_check "tui $size: P skips a drive a job runs on, and says so" \
			"sim:sas15k: a job is running on it"
		tui_keys Escape b
		tui_check "tui $size: b on a busy drive: refused" "a job is running on it"
		tui_keys Escape Q
		tui_check "tui $size: Q on a busy drive: refused" "a job is running on it"
		tui_keys Escape

		tui_check "tui $size: still running after every refusal" "j/k move"
		if [ "$(printf '%s\n' "$SCREEN" | wc -l)" -le "$h" ]; then
			pass "tui $size: the screen fits $size"
		else
			fail "tui $size: the screen fits $size" "$SCREEN"
		fi
		tui_stop
	done

	# a resize while a dialog is open redraws at the new size; the dialog stays
	size=120x40 w=120 h=40
	rf_fresh resize
	tui_keys j l
	tui_wait "Limit \(short-stroke\)" >/dev/null
	tui_type 900GB
	tui_wait "900 GB" >/dev/null
	tmux -S "$tui_sock" resize-window -t tui -x 80 -y 24 2>/dev/null
	if tui_wait "^ DEVICE +TRAN +MODEL +SIZE +LIMITED" && tui_wait "900 GB\) is" &&
	   [ "$(printf '%s\n' "$SCREEN" | wc -l)" -le 24 ]; then
		pass "tui: a resize redraws the screen under an open dialog, refusal kept"
	else
		fail "tui: a resize redraws the screen under an open dialog, refusal kept" "$SCREEN"
	fi
	tui_type 20%
	tui_check "tui: the dialog still works after the resize" "Type the serial"
	tui_stop
else
	fail "t_tui_refusals: tmux is installed (tests/deps.sh check installs it)"
fi
