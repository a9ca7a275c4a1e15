# The self-test form in tmux, at 80x24 and 200x60, on a rig in real time (a long test is
# still running when the keys come): only the kinds the drives have are offered (SAS: short
# and long; an ATA drive: conveyance too; no SMART: none, with why); refused kinds and Esc
# start nothing; long on two marked drives shows a progress bar each; abort stops it inside
# the drive and smart -J's self-test log says so.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	rig="$TMP/strig.json"
	"$PROG" --demo sim rig | sed 's/"time_scale": *[0-9.]*/"time_scale": 1/' >"$rig"
	# last_test DEV: the drive's newest self-test log entry, as smart -J gives it
	last_test() {
		"$PROG" --rig "$rig" smart -J "$1" | python3 -c "import json,sys; t=json.load(sys.stdin)['disks'][0]['selftests']; print(t[0]['result'] if t else 'none')"
	}
	for size in 80x24 200x60; do
		w=${size%x*} h=${size#*x}
		export SHORTSTROKE_STATE_DIR="$TMP/st-$size"
		"$PROG" --rig "$rig" sim fault sim:sata320 no-smart >/dev/null
		tui_start st$size "$w" "$h" --rig "$rig"
		tui_wait "rig .* [0-9]+ drives" >/dev/null
		before=$(drive_state sas15k strig)
		tui_keys t
		tui_check "tui selftest $size: t opens the form, short by default" "Kind +< short >"
		tui_check "tui selftest $size: SAS: short and long offered" "Offered: short, long *(│|\|)?$"
		tui_check "tui selftest $size: SAS: conveyance not offered, and why" \
			"Not offered: sim:sas15k: SCSI drives have no conveyance self-test"
		tui_type xyz
		tui_check "tui selftest $size: a kind that is none: refused" \
			"'xyz' is not a kind: short, long or conveyance"
		tui_type c
		tui_check "tui selftest $size: conveyance on SAS: refused" \
			"conveyance: not offered: sim:sas15k: SCSI drives have no conveyance"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		[ "$(drive_state sas15k strig)" = "$before" ] && [ "$(last_test sim:sas15k)" = none ] &&
			pass "tui selftest $size: refusals and Esc: no self-test started" ||
			fail "tui selftest $size: refusals and Esc: no self-test started" "$(last_test sim:sas15k)"
		tui_keys j t
		tui_check "tui selftest $size: an ATA drive offers conveyance" \
			"Offered: short, long, conveyance"
		tui_keys Escape j t
		tui_check "tui selftest $size: a drive without SMART: none offered, and why" \
			"Not offered: sim:sata320: SMART is not supported by this drive"
		tui_keys Enter
		tui_check "tui selftest $size: ... Enter says so" \
			"No kind is offered: sim:sata320: SMART is not supported"
		tui_keys Escape

		# long on two marked drives: a progress bar each, then abort
		tui_keys g Space Space t
		tui_wait "Kind" >/dev/null
		tui_keys l
		tui_check "tui selftest $size: l picks long" "Kind +< long >"
		tui_keys Enter
		tui_check "tui selftest $size: long started on both" "extended self-test started on 2 drives"
		tui_check "tui selftest $size: the progress of the first" "sim:sas15k .*self-test"
		tui_check "tui selftest $size: the progress of the second" "sim:sata250 .*self-test"
		tui_keys a
		tui_check "tui selftest $size: a asks before aborting them" "Abort them\? \[y/N\]"
		tui_keys y Enter
		tui_check "tui selftest $size: both aborted: the status line counts them" \
			"extended self-test: 0 done, 2 stopped"
		i=0
		while [ $i -lt 50 ] && [ "$(last_test sim:sata250)" = none ]; do sleep 0.1; i=$((i + 1)); done
		case "$(last_test sim:sas15k)" in
		*abort*) pass "tui selftest $size: smart -J shows sim:sas15k's test aborted" ;;
		*) fail "tui selftest $size: smart -J shows sim:sas15k's test aborted" "$(last_test sim:sas15k)" ;;
		esac
		case "$(last_test sim:sata250)" in
		*abort*) pass "tui selftest $size: smart -J shows sim:sata250's test aborted" ;;
		*) fail "tui selftest $size: smart -J shows sim:sata250's test aborted" "$(last_test sim:sata250)" ;;
		esac
		tui_stop
	done
else
	fail "t_tui_selftest: tmux is installed (tests/deps.sh check installs it)"
fi
