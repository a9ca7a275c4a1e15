# The TUI in tmux on the demo rig: table, selection, detail pane, help, quit.

if ! command -v tmux >/dev/null 2>&1; then
	fail "tui: tmux is installed (tests/deps.sh check installs it)"
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
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR SHORTSTROKE_PROTECT_FILE=$SHORTSTROKE_PROTECT_FILE TERM=xterm-256color $PROG --demo; echo TUI-EXITED \$?; sleep 5"
	if wait_for "shortstroke - demo rig - [0-9]+ drives"; then pass "tui: opens on the demo rig"; else fail "tui: opens on the demo rig" "$SCREEN"; fi
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
	# limit from the TUI: size dialog, serial confirmation, job, new size in the table
	tmx send-keys -t tui g j l
	if wait_for "Limit \(short-stroke\)"; then pass "tui: l opens the limit dialog"; else fail "tui: l opens the limit dialog" "$SCREEN"; fi
	tmx send-keys -t tui 2 0 % Enter
	if wait_for "Type the serial \(STF607MS2A4K7P\)"; then pass "tui: the plan asks for the serial"; else fail "tui: the plan asks for the serial" "$SCREEN"; fi
	if printf '%s\n' "$SCREEN" | grep -q "20.0% of 250 GB) by hpa"; then pass "tui: the plan shows size and method"; else fail "tui: the plan shows size and method" "$SCREEN"; fi
	tmx send-keys -t tui WRONG Enter
	if wait_for "Not the serial"; then pass "tui: a wrong serial is not accepted"; else fail "tui: a wrong serial is not accepted" "$SCREEN"; fi
	tmx send-keys -t tui BSpace BSpace BSpace BSpace BSpace STF607MS2A4K7P Enter
	if wait_for "sim:sata250 +sata .* 50.0 GB +(250 GB +)?20\.0%"; then pass "tui: limit ran; the table shows 20.0%"; else fail "tui: limit ran; the table shows 20.0%" "$SCREEN"; fi
	if wait_for "sim:sata250: limited to 97679360 blocks"; then pass "tui: status line reports the result (limit's line)"; else fail "tui: status line reports the result (limit's line)" "$SCREEN"; fi
	# restore in the same power cycle: the drive refuses; the TUI says why
	tmx send-keys -t tui r
	if wait_for "To +< original >"; then pass "tui: r opens the restore form"; else fail "tui: r opens the restore form" "$SCREEN"; fi
	tmx send-keys -t tui Enter
	if wait_for "Confirm restore"; then pass "tui: r asks to confirm a restore"; else fail "tui: r asks to confirm a restore" "$SCREEN"; fi
	tmx send-keys -t tui STF607MS2A4K7P Enter
	if wait_for "Restore: 0 done, 1 failed" && printf '%s\n' "$SCREEN" | grep -q "sim:sata250: the drive refused SET MAX"; then pass "tui: a refused restore is shown, with why"; else fail "tui: a refused restore is shown, with why" "$SCREEN"; fi
	tmx send-keys -t tui Escape P
	if wait_for "1 simulated drive power-cycled"; then pass "tui: P power-cycles a simulated drive"; else fail "tui: P power-cycles a simulated drive" "$SCREEN"; fi
	tmx send-keys -t tui r
	wait_for "To +< original >" >/dev/null
	tmx send-keys -t tui Enter
	wait_for "Confirm restore" >/dev/null
	tmx send-keys -t tui STF607MS2A4K7P Enter
	if wait_for "sim:sata250 +sata .* 250 GB +(250 GB +)?no"; then pass "tui: restore after a power cycle"; else fail "tui: restore after a power cycle" "$SCREEN"; fi
	# a protected drive is refused in the TUI too
	"$PROG" --demo protect add sim:sata320 >/dev/null
	tmx send-keys -t tui R j l
	if wait_for "Refused"; then pass "tui: protected drive refused"; else fail "tui: protected drive refused" "$SCREEN"; fi
	tmx send-keys -t tui Escape
	"$PROG" --demo protect remove sim:sata320 >/dev/null
	tmx send-keys -t tui q
	if wait_for "TUI-EXITED 0"; then pass "tui: q quits with status 0"; else fail "tui: q quits with status 0" "$SCREEN"; fi
	tmx kill-server 2>/dev/null
fi

# SMART, self-test and zone views
if command -v tmux >/dev/null 2>&1; then
	sock="$TMP/tmux2.sock" # a fresh server: the last one may still be going away
	tmx -f /dev/null new-session -d -s tui2 -x 120 -y 40 \
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR SHORTSTROKE_PROTECT_FILE=$SHORTSTROKE_PROTECT_FILE TERM=xterm-256color $PROG --demo; echo TUI-EXITED \$?; sleep 5"
	wait_for2() {
		i=0
		while [ $i -lt 100 ]; do
			SCREEN=$(tmx capture-pane -p -t tui2 2>/dev/null)
			printf '%s\n' "$SCREEN" | grep -qE -- "$1" && return 0
			sleep 0.1
			i=$((i + 1))
		done
		return 1
	}
	if wait_for2 "SMART health: +UNKNOWN|SMART health: +PASSED"; then pass "tui: the detail pane shows the SMART verdict"; else fail "tui: the detail pane shows the SMART verdict" "$SCREEN"; fi
	tmx send-keys -t tui2 j s
	# the pager opens at once with a spinner; the report follows when it is read
	if wait_for2 "reallocated-sector-count" && printf '%s\n' "$SCREEN" | grep -q "SMART of sim:sata250"; then pass "tui: s shows the SMART report with attributes"; else fail "tui: s shows the SMART report with attributes" "$SCREEN"; fi
	tmx send-keys -t tui2 q t Enter
	if wait_for2 "short self-test completed without error"; then pass "tui: t runs a self-test to the end"; else fail "tui: t runs a self-test to the end" "$SCREEN"; fi
	tmx send-keys -t tui2 j j j z
	if wait_for2 "conventional" && printf '%s\n' "$SCREEN" | grep -q "Zones of sim:smr"; then pass "tui: z shows the zones of the SMR disk"; else fail "tui: z shows the zones of the SMR disk" "$SCREEN"; fi
	for k in 1 2 3 4 5 6; do
		printf '%s\n' "$SCREEN" | grep -q "Read rate across the disk" && break
		tmx send-keys -t tui2 NPage
		wait_for2 "Read rate across the disk" >/dev/null
	done
	if printf '%s\n' "$SCREEN" | grep -q "Read rate across the disk"; then pass "tui: the zone view draws the measured profile as a chart"; else fail "tui: the zone view draws the measured profile as a chart" "$SCREEN"; fi
	tmx send-keys -t tui2 q q
	if wait_for2 "TUI-EXITED 0"; then pass "tui: quits after the views"; else fail "tui: quits after the views" "$SCREEN"; fi
	tmx kill-server 2>/dev/null
fi

# The planner (p) and the quick benchmark (b)
if command -v tmux >/dev/null 2>&1; then
	sock="$TMP/tmux3.sock"
	tmx -f /dev/null new-session -d -s tui3 -x 120 -y 40 \
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR SHORTSTROKE_PROTECT_FILE=$SHORTSTROKE_PROTECT_FILE TERM=xterm-256color $PROG --demo; echo TUI-EXITED \$?; sleep 5"
	wait_for3() {
		i=0
		while [ $i -lt 100 ]; do
			SCREEN=$(tmx capture-pane -p -t tui3 2>/dev/null)
			printf '%s\n' "$SCREEN" | grep -qE -- "$1" && return 0
			sleep 0.1
			i=$((i + 1))
		done
		return 1
	}
	wait_for3 "shortstroke - demo rig" >/dev/null
	# mark the first four drives and sim:sata-hpa, open the planner on them: the
	# security-frozen sim:sata320 is left out, as plan leaves it out, saying why
	tmx send-keys -t tui3 Space Space Space Space j Space p
	if wait_for3 "Planner - 4 drives: sim:sas15k sim:sata250 sim:sas4kn sim:sata-hpa"; then pass "tui: p opens the planner on the marked drives"; else fail "tui: p opens the planner on the marked drives" "$SCREEN"; fi
	if wait_for3 "note: left out, 'apply' would refuse it \\(the drive is security-frozen"; then pass "tui: planner: a frozen drive is left out, saying why"; else fail "tui: planner: a frozen drive is left out, saying why" "$SCREEN"; fi
	tmx send-keys -t tui3 2 0 0 G
	if wait_for3 "Capacity +\[200G_" && wait_for3 "layouts meet the goals" && printf '%s\n' "$SCREEN" | grep -qE "^> 1 +[0-9]"; then pass "tui: planner: a capacity goal gives ranked layouts"; else fail "tui: planner: a capacity goal gives ranked layouts" "$SCREEN"; fi
	if printf '%s\n' "$SCREEN" | grep -qE "LEVEL +DISKS +STROKE +CAPACITY +IOPS +ACC-MS +TOL +MTTDL-Y"; then pass "tui: planner: the layout table's columns"; else fail "tui: planner: the layout table's columns" "$SCREEN"; fi
	# RAID 10 only: every row is RAID 10
	tmx send-keys -t tui3 BTab Right Right Right
	if wait_for3 "RAID level +\[10 " && wait_for3 "^> 1 +10 \(2 copies\) +4 "; then pass "tui: planner: the level choice re-solves"; else fail "tui: planner: the level choice re-solves" "$SCREEN"; fi
	# the CLI's defaults and refusals (one parser, planspec.h): one failure tolerated by
	# default and said; 0 taken; a stroke of 50% evaluates the one layout; nonsense refused
	# with plan's sentence
	if wait_for3 "no Tolerates: layouts survive one failed disk" && printf '%s\n' "$SCREEN" | grep -qE "^> 1 +10 .* 1 +[0-9.e+]+ *$"; then pass "tui: planner: Tolerates empty: one failure, said so"; else fail "tui: planner: Tolerates empty: one failure, said so" "$SCREEN"; fi
	tmx send-keys -t tui3 Down Down Down Down 0
	if wait_for3 "Tolerates +\[0_" && wait_for3 "layouts? meets? the goals" && ! printf '%s\n' "$SCREEN" | grep -q "expected a whole number"; then pass "tui: planner: Tolerates 0 accepted"; else fail "tui: planner: Tolerates 0 accepted" "$SCREEN"; fi
	tmx send-keys -t tui3 BSpace Down 5 0 %
	if wait_for3 "Stroke +\[50%_" && wait_for3 "^> 1 +10 \(2 copies\) +4 +50\.0%" && wait_for3 "one layout, at the stroke given"; then pass "tui: planner: Stroke 50% evaluates that one layout"; else fail "tui: planner: Stroke 50% evaluates that one layout" "$SCREEN"; fi
	tmx send-keys -t tui3 BSpace BSpace BSpace 1 5 0 %
	if wait_for3 "Stroke: expected a percent \(25%\) or a fraction \(0.25\) above 0 and at most 100%, got '150%'"; then pass "tui: planner: Stroke 150% refused with plan's sentence"; else fail "tui: planner: Stroke 150% refused with plan's sentence" "$SCREEN"; fi
	tmx send-keys -t tui3 BSpace BSpace BSpace BSpace 5 0 % Up Up Up Up Up Left Left Left
	if wait_for3 "Stroke evaluates one layout: choose a RAID level"; then pass "tui: planner: a stroke needs a level, as --stroke does"; else fail "tui: planner: a stroke needs a level" "$SCREEN"; fi
	tmx send-keys -t tui3 Right Right Right Down Down Down Down Down BSpace BSpace BSpace Up Up Up Up Up
	wait_for3 "RAID level +\[10 " >/dev/null
	tmx send-keys -t tui3 Left Left Left Tab Tab 9 9 9 9 9
	if wait_for3 "Impossible \(unmet: iops\): no layout reaches 99999 IOPS"; then pass "tui: planner: an impossible goal is named"; else fail "tui: planner: an impossible goal is named" "$SCREEN"; fi
	tmx send-keys -t tui3 s
	if wait_for3 "nothing to save"; then pass "tui: planner: nothing to save when no layout fits"; else fail "tui: planner: nothing to save when no layout fits" "$SCREEN"; fi
	tmx send-keys -t tui3 Escape BSpace BSpace BSpace BSpace BSpace
	if wait_for3 "layouts meet the goals"; then pass "tui: planner: deleting the goal gives layouts again"; else fail "tui: planner: deleting the goal gives layouts again" "$SCREEN"; fi
	tmx send-keys -t tui3 PageDown s
	if wait_for3 "Save plan" && wait_for3 "Layout 2: RAID"; then pass "tui: planner: s asks where to save the chosen layout"; else fail "tui: planner: s asks where to save the chosen layout" "$SCREEN"; fi
	tmx send-keys -t tui3 "$TMP/tui-plan.json" Enter
	if wait_for3 "plan written to $TMP/tui-plan.json"; then pass "tui: planner: plan saved"; else fail "tui: planner: plan saved" "$SCREEN"; fi
	if "$PROG" --demo plan --check "$TMP/tui-plan.json" >"$TMP/tui-check.out" 2>&1 &&
		grep -q "valid; the figures match the plan's" "$TMP/tui-check.out"; then
		pass "tui: planner: the saved plan passes plan --check"
	else
		fail "tui: planner: the saved plan passes plan --check" "$(cat "$TMP/tui-check.out")"
	fi
	# the controller (issue 28.2): hw-raid re-solves, and the plan saved says so
	tmx send-keys -t tui3 Tab Tab Tab Tab Tab Right Right
	if wait_for3 "Controller +\[hw-raid" && wait_for3 "layouts meet the goals"; then pass "tui: planner: the controller choice re-solves"; else fail "tui: planner: the controller choice re-solves" "$SCREEN"; fi
	tmx send-keys -t tui3 s
	wait_for3 "Save plan" >/dev/null
	tmx send-keys -t tui3 "$TMP/tui-plan-hw.json" Enter
	if wait_for3 "plan written to $TMP/tui-plan-hw.json" && grep -q '"controller": "hw-raid"' "$TMP/tui-plan-hw.json" &&
		"$PROG" --demo plan --check "$TMP/tui-plan-hw.json" 2>&1 | grep -q "valid; the figures match the plan's"; then
		pass "tui: planner: a hw-raid plan is saved with its controller and passes plan --check"
	else
		fail "tui: planner: a hw-raid plan is saved with its controller and passes plan --check" "$SCREEN"
	fi
	tmx send-keys -t tui3 Escape
	if wait_for3 "shortstroke - demo rig"; then pass "tui: planner: Esc closes it"; else fail "tui: planner: Esc closes it" "$SCREEN"; fi
	# b on the four marked drives: the form's defaults, jobs, then the results in a pager
	tmx send-keys -t tui3 b
	wait_for3 "Workload +< random-access >" >/dev/null
	tmx send-keys -t tui3 Enter
	if wait_for3 "Benchmark: random-access, 5s per queue depth" && printf '%s\n' "$SCREEN" | grep -qE "^sim:sas15k +HUS154545VLS300" &&
	   printf '%s\n' "$SCREEN" | grep -qE "^ +1 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +- +-$"; then pass "tui: b benchmarks the drives and shows the results"; else fail "tui: b benchmarks the drives and shows the results" "$SCREEN"; fi
	tmx send-keys -t tui3 q q
	if wait_for3 "TUI-EXITED 0"; then pass "tui: quits after the planner and the benchmark"; else fail "tui: quits after the planner and the benchmark" "$SCREEN"; fi
	tmx kill-server 2>/dev/null
fi

# Q: quick qualification of two marked drives, jobs with progress, results in a pager
if command -v tmux >/dev/null 2>&1; then
	qsock="$TMP/tmux-q.sock"
	tmux -S "$qsock" -f /dev/null new-session -d -s tq -x 120 -y 40 \
		"env SHORTSTROKE_STATE_DIR=$SHORTSTROKE_STATE_DIR SHORTSTROKE_PROTECT_FILE=$SHORTSTROKE_PROTECT_FILE TERM=xterm-256color $PROG --demo; echo TUI-EXITED \$?; sleep 5"
	i=0; SCREEN=""
	while [ $i -lt 100 ] && ! printf '%s\n' "$SCREEN" | grep -q "demo rig"; do
		SCREEN=$(tmux -S "$qsock" capture-pane -p -t tq 2>/dev/null); sleep 0.1; i=$((i + 1))
	done
	tmux -S "$qsock" send-keys -t tq ' ' ' ' Q
	sleep 0.5
	tmux -S "$qsock" send-keys -t tq Enter
	i=0
	while [ $i -lt 200 ] && ! printf '%s\n' "$SCREEN" | grep -q "Qualification (quick profile"; do
		SCREEN=$(tmux -S "$qsock" capture-pane -p -t tq 2>/dev/null); sleep 0.1; i=$((i + 1))
	done
	if printf '%s\n' "$SCREEN" | grep -qE "^sim:sas15k .* PASS$" && printf '%s\n' "$SCREEN" | grep -qE "^sim:sata250 .* PASS$" &&
	   printf '%s\n' "$SCREEN" | grep -qE "^  access +PASS +access [0-9.]+ ms"; then
		pass "tui: Q qualifies the marked drives and shows every check"
	else
		fail "tui: Q qualifies the marked drives and shows every check" "$SCREEN"
	fi
	tmux -S "$qsock" send-keys -t tq q q
	tmux -S "$qsock" kill-server 2>/dev/null
fi
