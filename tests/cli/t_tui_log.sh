# The log screen (L) in tmux, at 80x24 and 200x60: every command sent this session with its
# status, the selected one as -v prints it (the same line), filtered by device or by a
# command's name (live as it is typed, d for the drive selected in the table), the medium's
# reads and writes of a benchmark hidden until m shows them, how many are kept.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	export SHORTSTROKE_STATE_DIR="$TMP/log"
	# what -v prints for sim:sas15k's READ CAPACITY (16)
	vline=$("$PROG" --demo -v info sim:sas15k 2>&1 >/dev/null | grep -m1 "Read capacity(16)" |
		sed 's/[][()]/\\&/g')
	for size in 80x24 200x60; do
		w=${size%x*} h=${size#*x}
		tui_start log$size "$w" "$h" --demo
		tui_wait "demo rig - [0-9]+ drives" >/dev/null
		tui_keys L
		tui_check "tui log $size: L opens the log, saying how many are kept" \
			"Commands sent this session: [0-9]+ shown, [0-9]+ kept"
		tui_keys /
		tui_keys -l "identify device"
		tui_keys Enter
		tui_check "tui log $size: the scan's commands, with their status" \
			"sim:sata250 +ATA IDENTIFY DEVICE +GOOD"
		tui_keys / Escape
		tui_wait "Device or command: all" >/dev/null
		# (filtered: the demo rig's later drives' commands fill the screen at 80x24)
		tui_keys /
		tui_keys -l "native max"
		tui_keys Enter
		tui_check "tui log $size: a CHECK CONDITION with the registers is done" \
			"ATA READ NATIVE MAX ADDRESS EXT +CHECK CONDITION \(recovered\)"
		tui_keys / Escape
		tui_wait "Device or command: all" >/dev/null
		tui_keys /
		tui_keys -l "capacity(16)"
		tui_check "tui log $size: the filter applies as it is typed" \
			"Device or command: capacity\(16\)_"
		tui_keys Enter g
		tui_wait "^ sim:sas15k: cdb: 9e 10" >/dev/null
		if printf '%s\n' "$SCREEN" | grep -E "^ ([0-9:.]+ +)?sim:[^ ]+ " | grep -v ": cdb: " | grep -vF "Read capacity(16)" | grep -q .; then
			fail "tui log $size: only the commands that match" "$SCREEN"
		else
			pass "tui log $size: only the commands that match"
		fi
		if [ "$w" -ge 120 ]; then
			tui_check "tui log $size: the selected command as -v prints it" "^ $vline"
		else
			tui_check "tui log $size: the selected command as -v prints it" \
				"^ sim:sas15k: cdb: 9e 10 00 00 00 00 00 00 00 00 00 00 00 20 00 00"
		fi
		tui_keys / Escape
		tui_keys q j d
		tui_keys L
		tui_wait "Commands sent" >/dev/null
		tui_keys d
		tui_check "tui log $size: d: the drive selected in the table" \
			"Device or command: sim:sata250"
		if printf '%s\n' "$SCREEN" | grep -E "^ ([0-9:.]+ +)?sim:[^ ]+ " | grep -v ": cdb: " | grep -vF "sim:sata250" | grep -q .; then
			fail "tui log $size: d shows that drive's commands alone" "$SCREEN"
		else
			pass "tui log $size: d shows that drive's commands alone"
		fi
		tui_keys d q
		# a benchmark's reads: hidden, then shown with m
		tui_keys k b
		tui_wait "Workload" >/dev/null
		tui_keys Tab
		tui_put 1
		tui_keys Tab Tab
		tui_type 100ms
		tui_wait "Benchmark: random-access" >/dev/null
		tui_keys q L
		tui_check "tui log $size: the medium's reads are hidden" \
			"Reads/writes of the medium: hidden \(m shows them\)"
		if printf '%s\n' "$SCREEN" | grep -q "Read(16)"; then
			fail "tui log $size: no read of the benchmark listed" "$SCREEN"
		else
			pass "tui log $size: no read of the benchmark listed"
		fi
		tui_keys m
		tui_check "tui log $size: m shows the benchmark's reads" "sim:sas15k +Read\(16\) +GOOD"
		tui_keys q
		tui_check "tui log $size: q closes the log" "j/k move"
		tui_stop
	done
else
	fail "t_tui_log: tmux is installed (tests/deps.sh check installs it)"
fi
