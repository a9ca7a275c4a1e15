# The benchmark form in tmux, at 80x24 and 200x60: the workload, queue depths, span, time and
# seed chosen reach the run kept in <state>/bench/SERIAL.jsonl; a second run shows the first
# beside it with the change in %, and after a limit the gain; the chart of IOPS by queue depth;
# refused input in every field (letters, 0, 300, a span beyond the disk, a duration that is
# none, a request size a profile fixes, a write without Destructive, a wrong serial, Esc)
# runs nothing: no run kept, nothing written to the drive; a write benchmark with Destructive
# and the serial typed writes.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	# runs FIELD...: the kept runs of sim:sas15k, one line each, FIELDs of each
	runs() {
		f="$SHORTSTROKE_STATE_DIR/bench/JWV2S8KC.jsonl"
		[ -f "$f" ] || return 0
		python3 - "$f" "$@" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    out = []
    for k in sys.argv[2:]:
        out.append(str([p["qd"] for p in r["runs"]]) if k == "qd" else str(r[k]))
    print(" ".join(out))
PY
	}
	# bench_random: random-access at QD 1 and 16, 1 s each, over the whole disk
	bench_random() {
		tui_keys b
		tui_wait "Workload" >/dev/null
		tui_keys Tab
		tui_put 1,16
		tui_keys Tab Tab
		tui_type 1s
	}
	for size in 80x24 200x60; do
		w=${size%x*} h=${size#*x}
		export SHORTSTROKE_STATE_DIR="$TMP/bench-$size"
		tui_start bench$size "$w" "$h" --demo
		tui_wait "demo rig - [0-9]+ drives" >/dev/null
		before=$(drive_state sas15k)
		tui_keys b
		tui_check "tui bench $size: b opens the form, random-access by default" \
			"Workload +< random-access >"
		tui_check "tui bench $size: queue depths by default" "Queue depths +\[1,4,16,32\]"
		tui_keys Tab
		tui_type 1,x
		tui_check "tui bench $size: letters in the queue depths: refused" \
			"Queue depths '1,x': give queue depths of 1 to 256"
		tui_type 0
		tui_check "tui bench $size: queue depth 0: refused" "Queue depths '0'"
		tui_type 300
		tui_check "tui bench $size: queue depth 300: refused" "Queue depths '300'"
		tui_put 2,8
		tui_keys Tab
		tui_type 900GB
		tui_check "tui bench $size: a span beyond the disk: refused" \
			"sim:sas15k: --span 900 GB is beyond the disk \(450 GB\)"
		tui_type 101%
		tui_check "tui bench $size: a span of 101%: refused" "Span: invalid size '101%'"
		tui_put 50%
		tui_keys Tab
		tui_type soon
		tui_check "tui bench $size: a time that is no duration: refused" "Time 'soon'"
		tui_type 0s
		tui_check "tui bench $size: a time of 0: refused" "Time '0s'"
		tui_put 1s
		tui_keys Tab
		tui_type 100
		tui_check "tui bench $size: a request size not of 512: refused" "Request size '100'"
		tui_put ""
		tui_keys BTab BTab BTab BTab
		tui_keys -l webserver
		tui_keys Tab Tab Tab Tab
		tui_type 4K
		tui_check "tui bench $size: a request size the profile fixes: refused" \
			"the webserver profile fixes its own request sizes"
		tui_put ""
		tui_keys BTab BTab BTab BTab
		tui_keys -l seq-write
		tui_keys Enter
		tui_check "tui bench $size: a write without Destructive: refused" \
			"The seq-write workload writes to the disk and destroys the data in"
		tui_keys Space Enter
		tui_check "tui bench $size: a write asks for the serial" "Confirm write benchmark"
		tui_check "tui bench $size: ... saying what is overwritten" \
			"seq-write, 1M requests, over 225 GB"
		tui_type WRONG
		tui_check "tui bench $size: a wrong serial: refused" "Not the serial"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		[ "$(drive_state sas15k)" = "$before" ] && [ -z "$(runs time)" ] &&
			pass "tui bench $size: refusals and Esc: nothing written, no run kept" ||
			fail "tui bench $size: refusals and Esc: nothing written, no run kept" \
				"$(runs time)"

		# the options reach the run: webserver, QD 2 and 8, half the disk, 1 s, seed 7
		tui_keys b
		tui_wait "Workload" >/dev/null
		tui_keys -l webserver
		tui_keys Tab
		tui_put 2,8
		tui_keys Tab
		tui_put 50%
		tui_keys Tab
		tui_put 1s
		tui_keys Tab Tab
		tui_type 7
		tui_check "tui bench $size: the results" "Benchmark: webserver, 1s per queue depth"
		tui_check "tui bench $size: ... a row per queue depth" \
			"^ +8 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +- +-$"
		tui_check "tui bench $size: ... no earlier run" "before: no earlier webserver run"
		tui_check "tui bench $size: ... the chart of IOPS by queue depth" \
			"QD +2 (\||│)(#|█)+[▏▎▍▌▋▊▉]? *(\||│) [0-9]+"
		case "$(runs workload qd span_blocks capacity_blocks time_per_qd_s)" in
		"webserver [2, 8] 439548984 879097968 1.0") pass "tui bench $size: the run kept as chosen" ;;
		*) fail "tui bench $size: the run kept as chosen" "$(runs workload qd span_blocks capacity_blocks time_per_qd_s)" ;;
		esac
		tui_keys q

		# random-access over the whole disk, then after a limit to 20 %: the gain
		bench_random
		tui_wait "Benchmark: random-access" >/dev/null
		tui_keys q
		"$PROG" --demo limit -p 20 --yes sim:sas15k >/dev/null
		tui_keys R
		tui_wait "sim:sas15k .* 20.0%" >/dev/null
		bench_random
		tui_check "tui bench $size: after a limit, the earlier run beside it" \
			"before: the run of .* over 450 GB \(100% of 450 GB\)"
		tui_check "tui bench $size: ... the gain in %" "^ +1 +[0-9]+ .* +[0-9]+ +\+[0-9]+\.[0-9]%$"
		tui_check "tui bench $size: ... the earlier run in the chart" "(\||│)(=|▒)+ *(\||│) [0-9]+ before"
		tui_keys q
		[ "$(runs workload | grep -c random-access)" = 2 ] &&
			pass "tui bench $size: each run kept" || fail "tui bench $size: each run kept" "$(runs time workload)"
		"$PROG" --demo restore --yes sim:sas15k >/dev/null

		# a write benchmark, confirmed: it writes
		tui_keys R b
		tui_wait "Workload" >/dev/null
		tui_keys -l seq-write
		tui_keys Tab
		tui_put 1
		tui_keys Tab
		tui_put 1GB
		tui_keys Tab
		tui_put 100ms
		tui_keys Tab Tab Tab Space Enter
		tui_wait "Confirm write benchmark" >/dev/null
		tui_type JWV2S8KC
		tui_check "tui bench $size: a confirmed write benchmark runs" \
			"Benchmark: seq-write, 0.1s per queue depth"
		[ "$(drive_state sas15k)" != "$before" ] &&
			pass "tui bench $size: ... and wrote to the drive" ||
			fail "tui bench $size: ... and wrote to the drive"
		tui_keys q
		tui_stop
	done
else
	fail "t_tui_bench: tmux is installed (tests/deps.sh check installs it)"
fi
