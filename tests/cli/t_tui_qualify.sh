# The qualify form in tmux, at 80x24 and 200x60: a thresholds file that cannot be read or does
# not parse, a report path that cannot be written and a seed in letters are refused before any
# disk is read (no job, no report); three disks of one model, one slow: the table of one row
# per disk with the outlier marked, every check below, the HTML report written to the path
# chosen; the standard profile runs the self-test; an edited thresholds file is used.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	cat >"$TMP/qrig.json" <<'RIG'
{
  "time_scale": 1000,
  "drives": [
    { "id": "a", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S4A0001",
      "firmware": "N003", "wwn": "5000c50000000001", "blocks": 4194304, "rpm": 10000, "smart": true },
    { "id": "b", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S4A0002",
      "firmware": "N003", "wwn": "5000c50000000002", "blocks": 4194304, "rpm": 10000, "smart": true },
    { "id": "c", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S4A0003",
      "firmware": "N003", "wwn": "5000c50000000003", "blocks": 4194304, "rpm": 10000, "smart": true,
      "faults": ["slow:2"] }
  ]
}
RIG
	"$PROG" qualify --print-thresholds |
		sed 's/^sibling_slowdown_pct = 15$/sibling_slowdown_pct = 99/; s/^min_seq_read_mbps = 80$/min_seq_read_mbps = 10/' >"$TMP/thr.conf"
	printf 'max_temperature_c = 50\nmax_temprature = 40\n' >"$TMP/bad.conf"
	for size in 80x24 200x60; do
		w=${size%x*} h=${size#*x}
		export SHORTSTROKE_STATE_DIR="$TMP/q-$size"
		report="$TMP/report-$size.html"
		tui_start q$size "$w" "$h" --rig "$TMP/qrig.json"
		tui_wait "rig .* 3 drives" >/dev/null
		tui_keys Space Space Space Q
		tui_check "tui qualify $size: Q opens the form, quick by default" "Profile +< quick >"
		tui_keys Right Right Right
		tui_check "tui qualify $size: every profile offered, burnin the last" "Profile +< burnin >"
		tui_keys Left Left Left
		tui_check "tui qualify $size: ... and back to quick" "Profile +< quick >"
		tui_keys Tab
		tui_put "$TMP/no-such.conf"
		tui_keys Enter
		tui_check "tui qualify $size: a thresholds file that is not there: refused" \
			"no-such.conf: No such file"
		tui_put "$TMP/bad.conf"
		tui_keys Enter
		tui_check "tui qualify $size: a thresholds file that does not parse: refused" \
			"bad.conf:2: unknown key 'max_temprature'"
		tui_put ""
		tui_keys Tab
		tui_put "$TMP/no/such/dir/r.html"
		tui_keys Enter
		tui_check "tui qualify $size: a report path that cannot be written: refused" \
			"Report .*no/such/dir/r.html: directory"
		tui_put "$TMP"
		tui_keys Enter
		tui_check "tui qualify $size: a report path that is a directory: refused" \
			"Report $TMP: "
		tui_put ""
		tui_keys Tab
		tui_type 1x
		tui_check "tui qualify $size: a seed in letters: refused" "Seed '1x' is not a number"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		# (the key bar's "Q qualify" aside)
		if ! printf '%s\n' "$SCREEN" | sed '$d' | grep -q "qualify" && [ ! -e "$report" ]; then
			pass "tui qualify $size: refusals and Esc: nothing started"
		else
			fail "tui qualify $size: refusals and Esc: nothing started" "$SCREEN"
		fi

		# the quick profile with a report: the table, the outlier, the report
		tui_keys Q Tab Tab
		tui_keys -l "$report"
		tui_keys Enter
		tui_check "tui qualify $size: the results" "Qualification \(quick profile, read-only\)"
		if [ "$w" -ge 100 ]; then
			tui_check "tui qualify $size: the table qualify prints, with OUTLIER" \
				"^DEVICE +SERIAL +IDENTITY +SMART +SELFTEST +SCAN +ZONES +ACCESS +SIBLINGS +RESULT +OUTLIER"
			tui_check "tui qualify $size: a row per disk, the others pass" \
				"^sim:a +S4A0001 +PASS +PASS +SKIP +PASS +PASS +PASS +PASS +PASS +-$"
			tui_check "tui qualify $size: the slow disk's row: FAIL, an outlier" \
				"^sim:c +S4A0003 .* FAIL +FAIL +[0-9]+%"
		else
			# 80 columns: a row on one line, OUTLIER left out (the outliers are
			# said above the table), and that said
			tui_check "tui qualify $size: the table qualify prints, OUTLIER left out" \
				"^DEVICE +SERIAL +IDENTITY +SMART +SELFTEST +SCAN +ZONES +ACCESS +SIBLINGS +RESULT$"
			tui_check "tui qualify $size: a row per disk on one line, the others pass" \
				"^sim:a +S4A0001 +PASS +PASS +SKIP +PASS +PASS +PASS +PASS +PASS$"
			tui_check "tui qualify $size: the slow disk's row: FAIL" \
				"^sim:c +S4A0003 .* FAIL +FAIL$"
			tui_check "tui qualify $size: the column left out is said" \
				"^\(OUTLIER left out at this width: each disk's checks below\)"
		fi
		tui_check "tui qualify $size: the outliers said above the table" \
			"^  << sim:c: [0-9]+% slower in"
		tui_keys G
		tui_check "tui qualify $size: ... and under its checks" \
			"<< outlier: [0-9]+% slower in .* than the other 2 disks of its model"
		tui_keys g
		tui_check "tui qualify $size: the closing line" \
			"qualify \(quick profile, virtual time\): 2 of 3 disks passed"
		tui_check "tui qualify $size: the report written" "report written to $report"
		grep -q "<title>Disk qualification</title>" "$report" 2>/dev/null &&
			grep -q "S4A0003" "$report" &&
			pass "tui qualify $size: the HTML report is at the path chosen, with every disk" ||
			fail "tui qualify $size: the HTML report is at the path chosen, with every disk"
		tui_keys q

		# standard profile, the edited thresholds: the self-test runs, no outlier
		tui_keys Q Right Tab
		tui_keys -l "$TMP/thr.conf"
		tui_keys Enter
		tui_check "tui qualify $size: the standard profile" "Qualification \(standard profile"
		tui_check "tui qualify $size: ... runs the self-test" "^  selftest +PASS"
		tui_check "tui qualify $size: the thresholds file is used: all pass" \
			"qualify \(standard profile, virtual time\): 3 of 3 disks passed"
		tui_keys q
		tui_stop
	done
else
	fail "t_tui_qualify: tmux is installed (tests/deps.sh check installs it)"
fi
