# A batch in the TUI reports every drive (issue 25, item 1), in tmux at 80x24 (UTF-8) and
# 200x60 (C locale): 8 drives of which 7 refuse SET MAX ADDRESS (abort:37): the summary
# "Limit: 1 done, 7 failed" names each of the 7 with its reason (scrolled with PgDn at
# 80x24) and the one done with its result; the status line says so and that the 7 failed
# are marked; the rows show the drives' new state (the done one 30.0% and unmarked, the 7
# marked); l then retries the 7 alone. The issue's 2-drive case: both named, both marked,
# the status line tells the truth about the marks. A self-test that fails while a form is
# open: the form keeps what was typed, the summary comes once it is closed, and the table
# shows the job's end meanwhile. A benchmark with a drive that fails: the summary over the
# results, which say it too.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	# eight SATA drives with an HPA; all but the first refuse SET MAX ADDRESS EXT
	python3 - "$TMP/rig8.json" <<'PY'
import json, sys
drives = []
for k in range(8):
    d = {"id": "sata2t-%d" % k, "personality": "sata", "vendor": "ATA", "model": "ST2000DM001",
         "serial": "Z1E%05d" % k, "firmware": "CC26", "wwn": "5000c500aabb%04d" % k,
         "blocks": 3907029168, "rpm": 7200, "hpa": True, "smart": True}
    if k:
        d["faults"] = ["abort:37"]
    drives.append(d)
json.dump({"time_scale": 1000, "drives": drives}, open(sys.argv[1], "w"))
PY
	# bt_limit SERIAL...: the limit form on what is marked, 30 %, each serial typed
	bt_limit() {
		tui_keys l
		tui_wait "Size +\[_\]" >/dev/null
		tui_keys -l 30%
		tui_keys Enter
		for s in "$@"; do
			tui_wait "Type the serial \($s\)" >/dev/null
			tui_keys -l "$s"
			tui_keys Enter
		done
	}
	# dialog_text: the summary's text, every page of it (PgDn until its foot has no more
	# below), a line each, the frame taken off
	dialog_text() {
		all=""
		j=0
		while [ $j -lt 20 ]; do
			all="$all
$SCREEN"
			printf '%s\n' "$SCREEN" | grep -qE "lines [0-9]+-[0-9]+ of [0-9]+ (▲|\^)?(▼|v) " || break
			foot=$(printf '%s\n' "$SCREEN" | grep -oE "lines [0-9]+-[0-9]+ of [0-9]+")
			tui_keys NPage
			k=0
			while [ $k -lt 50 ]; do
				SCREEN=$(tmux -S "$tui_sock" capture-pane -p -t tui 2>/dev/null)
				printf '%s\n' "$SCREEN" | grep -qF "$foot" || break
				sleep 0.1
				k=$((k + 1))
			done
			j=$((j + 1))
		done
		printf '%s\n' "$all" | sed -n 's/^.*[│|] *\(.*[^ ]\) *[│|].*$/\1/p'
	}
	rows() { printf '%s\n' "$SCREEN" | grep -E "^[ *]sim:sata2t-"; }
	# the rows after the 8: the done one limited and unmarked, the 7 marked
	rows_after8() {
		rows | grep -qE "^ sim:sata2t-0 .* 600 GB .* 30\.0% " &&
			[ "$(rows | grep -cE '^\*sim:sata2t-[1-7] .* 2\.00 TB .* no ')" -eq 7 ]
	}
	# the rows after the 2: those two marked, no other
	rows_after2() {
		[ "$(rows | grep -c '^\*')" -eq 2 ] && rows | grep -q '^\*sim:sata2t-1 ' &&
			rows | grep -q '^\*sim:sata2t-3 '
	}

	for case in "80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8" "200 60 LANG=C LC_ALL=C"; do
		set -- $case
		w=$1 h=$2
		shift 2
		size=${w}x$h
		export SHORTSTROKE_STATE_DIR="$TMP/b8-$size"
		TUI_ENV="$*"
		tui_start b8$size "$w" "$h" --rig "$TMP/rig8.json"
		TUI_ENV=
		tui_wait "rig .* 8 drives" >/dev/null
		tui_keys '*'
		tui_check "tui batch $size: * marks the 8; the status line says so" \
			"8 drives, 8 marked: actions apply to them"
		bt_limit Z1E00000 Z1E00001 Z1E00002 Z1E00003 Z1E00004 Z1E00005 Z1E00006 Z1E00007
		tui_check "tui batch $size: the summary: 1 done, 7 failed" "Limit: 1 done, 7 failed"
		text=$(dialog_text)
		k=1
		named=0
		while [ $k -le 7 ]; do
			printf '%s\n' "$text" | grep -q "^sim:sata2t-$k: the drive refused SET MAX ADDRESS" &&
				named=$((named + 1))
			k=$((k + 1))
		done
		if [ $named -eq 7 ]; then
			pass "tui batch $size: each of the 7 failed drives named with its reason"
		else
			fail "tui batch $size: each of the 7 failed drives named with its reason" \
				"$named of 7 named:
$text"
		fi
		if printf '%s\n' "$text" | grep -q "^Done:" &&
			printf '%s\n' "$text" | grep -q "^sim:sata2t-0: limited to 1172107264 blocks"; then
			pass "tui batch $size: the one done with limit's line"
		else
			fail "tui batch $size: the one done with limit's line" "$text"
		fi
		tui_keys Escape
		tui_check "tui batch $size: closed: the status line: the counts and the marks" \
			"limit: 1 done, 7 failed; the 7 failed are marked: l retries them"
		# the next key makes the message stale: the status line counts the marks
		tui_keys G
		tui_check "tui batch $size: a key later: the status line counts the marks" \
			"8 drives, 7 marked: actions apply to them"
		tui_holds "tui batch $size: the rows: the done one limited and unmarked, the 7 marked" \
			rows_after8
		# the retry is one key: l on the 7 failed alone
		tui_keys l
		tui_wait "Size +\[_\]" >/dev/null
		if printf '%s\n' "$SCREEN" | grep -q "sim:sata2t-1  ST2000DM001" &&
			! printf '%s\n' "$SCREEN" | grep -q "sim:sata2t-0  ST2000DM001" &&
			printf '%s\n' "$SCREEN" | grep -q "\.\.\. and 1 more"; then
			pass "tui batch $size: l retries the 7 failed, not the one done"
		else
			fail "tui batch $size: l retries the 7 failed, not the one done" "$SCREEN"
		fi
		tui_keys Escape
		tui_stop
	done

	# the issue's case: two drives that refuse, marked; both named, both stay marked
	export SHORTSTROKE_STATE_DIR="$TMP/b2"
	TUI_ENV="LANG=C LC_ALL=C"
	tui_start b2 80 24 --rig "$TMP/rig8.json"
	TUI_ENV=
	tui_wait "rig .* 8 drives" >/dev/null
	tui_keys j Space j Space
	tui_check "tui batch 2 drives: two marked" "8 drives, 2 marked"
	bt_limit Z1E00001 Z1E00003
	tui_check "tui batch 2 drives: the summary: 0 done, 2 failed" "Limit: 0 done, 2 failed"
	tui_check "tui batch 2 drives: sim:sata2t-1 named with why" \
		"sim:sata2t-1: the drive refused SET MAX ADDRESS"
	tui_check "tui batch 2 drives: sim:sata2t-3 named with why" \
		"sim:sata2t-3: the drive refused SET MAX ADDRESS"
	tui_keys Enter
	tui_check "tui batch 2 drives: the status line: both failed, both marked" \
		"limit: 0 done, 2 failed; the 2 failed are marked: l retries them"
	tui_keys k
	tui_check "tui batch 2 drives: a key later: 2 marked, as the table shows" \
		"8 drives, 2 marked"
	tui_holds "tui batch 2 drives: the two failed are the two marked" rows_after2
	# a key makes a message stale: after a move the status line counts again
	tui_keys U
	tui_check "tui batch 2 drives: U: none marked, said" "8 drives, none marked"
	tui_stop

	# a self-test fails while a form is open: the form keeps what was typed, the table
	# shows the job's end meanwhile, and the summary comes once the form is closed
	cat >"$TMP/strig.json" <<'RIG'
{ "time_scale": 20, "drives": [
 { "id": "a", "personality": "sata", "vendor": "ATA", "model": "ST2000DM001", "serial": "STA0001",
   "firmware": "CC26", "blocks": 3907029168, "hpa": true, "smart": true,
   "faults": ["selftest-fail:3900000000"] },
 { "id": "b", "personality": "sata", "vendor": "ATA", "model": "ST2000DM001", "serial": "STA0002",
   "firmware": "CC26", "blocks": 3907029168, "hpa": true, "smart": true,
   "faults": ["medium-error:10000-20000"] }
] }
RIG
	export SHORTSTROKE_STATE_DIR="$TMP/bst"
	rows_ab() {
		printf '%s\n' "$SCREEN" | grep -qE "^ sim:b +sata .* 20\.0% " &&
			printf '%s\n' "$SCREEN" | grep -qE "^ sim:a .*self-test"
	}
	tui_start bst 80 24 --rig "$TMP/strig.json"
	tui_wait "rig .* 2 drives" >/dev/null
	tui_keys t
	tui_wait "Kind +< short >" >/dev/null
	tui_keys Enter
	tui_check "tui batch self-test: started" "sim:a .*self-test"
	tui_keys j l
	tui_wait "Size +\[_\]" >/dev/null
	tui_keys -l 20
	# the test ends in about 6 s: the row goes back to free under the open form
	tui_check "tui batch self-test: its end shows in the table under the open form" \
		"^\*sim:a +sata .* free *$"
	tui_check "tui batch self-test: the form keeps what was typed" "Size +\[20_"
	tui_keys Escape
	tui_check "tui batch self-test: the summary once the form is closed" \
		"Self-test: 0 done, 1 failed"
	tui_check "tui batch self-test: ... with why" "sim:a: the short self-test ended in error"
	tui_keys Escape
	tui_check "tui batch self-test: the failed drive is marked" "^\*sim:a "

	# a limit while a long self-test runs on the other drive: the limited drive's row shows
	# its new state at once (the rescan waits for the self-test; the row does not)
	tui_keys U g t
	tui_wait "Kind +< short >" >/dev/null
	tui_keys Right Enter
	tui_check "tui batch rows: a long self-test runs on sim:a" "^ sim:a .*self-test"
	tui_keys j l
	tui_wait "Size +\[_\]" >/dev/null
	tui_keys -l 20%
	tui_keys Enter
	tui_wait "Type the serial \(STA0002\)" >/dev/null
	tui_keys -l STA0002
	tui_keys Enter
	tui_check "tui batch rows: the limit's line on the status line" "sim:b: limited to "
	tui_holds "tui batch rows: sim:b's row limited while sim:a's self-test runs" rows_ab
	tui_keys g a
	tui_wait "Abort it\? \[y/N\]" >/dev/null
	tui_keys y Enter
	tui_check "tui batch rows: the self-test stopped: counted so" \
		"sim:a: the extended self-test was aborted"

	# a benchmark of both: the one with medium errors fails; the summary over the results
	tui_keys U g Space Space b
	tui_wait "Workload" >/dev/null
	tui_keys -l seq-read
	tui_keys Tab
	tui_put 1
	tui_keys Tab Tab
	tui_type 100ms
	tui_check "tui batch bench: the summary: 1 done, 1 failed" "Benchmark: 1 done, 1 failed"
	tui_check "tui batch bench: ... the failed one named with why" \
		"sim:b: .*Unrecovered read error"
	tui_keys Escape
	tui_check "tui batch bench: the results' head says it too" \
		"^bench: 1 done, 1 failed\.$"
	tui_check "tui batch bench: ... and the results' title" "Benchmark: .*: 1 done, 1 failed"
	tui_keys q
	tui_check "tui batch bench: the failed one marked, the done one not" "^\*sim:b "
	tui_check "tui batch bench: ... sim:a unmarked" "^ sim:a "
	tui_stop
else
	fail "t_tui_batch: tmux is installed (tests/deps.sh check installs it)"
fi
