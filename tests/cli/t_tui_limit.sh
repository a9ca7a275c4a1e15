# The limit and restore forms in tmux, at 80x24 and 200x60: refused input in every field
# (letters, 0, 101 %, a size beyond native, under 1 GiB, a method the drive lacks, volatile
# with a method that has none, a bad alignment, a wrong serial, Esc at each step) changes
# nothing (the drive's state, the journal, and the log screen shows no command that changes a
# drive); the preview lists the commands as limit --dry-run does; the options reach the drive
# (hpa + volatile: info shows a volatile HPA, a power cycle undoes it); restore to the journaled
# original, and --to-native of a vendor's HPA.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	# log_has NAME FILTER PATTERN: the log screen filtered by FILTER shows PATTERN; closed after
	log_has() {
		tui_keys L
		tui_wait "Commands sent this session" >/dev/null
		tui_keys /
		tui_keys -l -- "$2"
		tui_keys Enter
		tui_check "$1" "$3"
		tui_keys q
		tui_wait "j/k move" >/dev/null
	}
	# the CLI's dry run: the SET MAX line limit --dry-run prints
	dry=$("$PROG" --demo --state-dir "$TMP/dry" limit --dry-run -p 20 -m hpa --volatile sim:sata250 |
		grep "ATA SET MAX ADDRESS EXT (volatile)" | sed 's/^ *//; s/[()]/\\&/g')
	dryhex=${dry%%  ATA*}
	for size in 80x24 200x60; do
		w=${size%x*} h=${size#*x}
		export SHORTSTROKE_STATE_DIR="$TMP/lim-$size"
		tui_start lim$size "$w" "$h" --demo
		tui_wait "demo rig - [0-9]+ drives" >/dev/null
		before=$(drive_state sata250)
		j0=$(journal_lines)
		tui_keys j l
		tui_check "tui limit $size: l opens the form, Size first" "Size +\[_\]"
		tui_check "tui limit $size: Method defaults to auto" "Method +< auto >"
		tui_check "tui limit $size: Align defaults to 1MiB" "Align +\[1MiB\]"
		tui_type abc
		tui_check "tui limit $size: letters: refused" "invalid size 'abc'"
		tui_type 0
		tui_check "tui limit $size: 0: refused" "must be greater than zero"
		tui_type 101%
		tui_check "tui limit $size: 101%: refused" "at most 100%"
		tui_type 900GB
		tui_check "tui limit $size: beyond native: refused" "\(900 GB\) is beyond"
		tui_type 100MB
		tui_check "tui limit $size: under 1 GiB: refused" "under 1 GiB"
		tui_type 20%
		tui_wait "Confirm limit" >/dev/null
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		tui_keys l Tab
		tui_check "tui limit $size: the methods not offered, and why" \
			"Not offered: sim:sata250: the drive does not support the amac"
		tui_keys -l amac
		tui_keys BTab
		tui_type 20%
		tui_check "tui limit $size: a method the drive lacks: refused" \
			"amac: not offered: sim:sata250: the drive does not support"
		tui_keys BSpace BSpace BSpace BSpace
		tui_keys -l dco
		tui_keys Tab Space
		tui_check "tui limit $size: volatile with DCO: refused" \
			"Volatile: only HPA \(SET MAX ADDRESS\) has a volatile form; dco changes"
		tui_keys Tab
		tui_type 10%
		tui_check "tui limit $size: an alignment that is a percent: refused" "Align: give a size"
		tui_type xyz
		tui_check "tui limit $size: an alignment in letters: refused" "Align: invalid size 'xyz'"
		tui_type 1MiB
		tui_check "tui limit $size: after the refusals, the preview" "Confirm limit"
		tui_type WRONG
		tui_check "tui limit $size: a wrong serial: refused" "Not the serial"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		[ "$(drive_state sata250)" = "$before" ] && [ "$(journal_lines)" = "$j0" ] &&
			pass "tui limit $size: refusals and Esc: the drive and the journal as they were" ||
			fail "tui limit $size: refusals and Esc: the drive and the journal as they were" \
				"$before" "$(drive_state sata250)"
		for c in "set max" "configuration set" "accessible"; do
			log_has "tui limit $size: refusals and Esc: no '$c' was sent" "$c" \
				"No command matches"
		done

		# hpa + volatile: the preview, then the serial
		tui_keys l
		tui_wait "Size" >/dev/null
		tui_keys -l 20%
		tui_keys Tab
		tui_keys -l hpa
		tui_keys Tab Space Enter
		tui_check "tui limit $size: the preview: now, after, what restore gives back" \
			"After: +97679360 blocks \(50.0 GB, 20.0% of 250 GB\) by hpa \(volatile"
		tui_check "tui limit $size: the preview: restore gives back the capacity now" \
			"Restore: +gets back 488397168 blocks \(250 GB\), the capacity it has now"
		if [ "$w" -ge 120 ]; then
			tui_check "tui limit $size: the preview's command is limit --dry-run's line" "$dry"
		else
			tui_check "tui limit $size: the preview's command is limit --dry-run's CDB" "$dryhex"
		fi
		tui_type STF607MS2A4K7P
		tui_check "tui limit $size: the job ran: the status line says what limit prints" \
			"sim:sata250: limited to 97679360 blocks \(50.0 GB\) by hpa"
		run "$PROG" --demo info sim:sata250
		expect "tui limit $size: info shows a volatile HPA" 0 \
			"^Limited: +yes, 20.0% of 250 GB .* by hpa \(volatile: a power cycle undoes it\)"
		run "$PROG" --demo info -J sim:sata250
		json_check "tui limit $size: info -J: limited by a volatile HPA" \
			"d['limited']['method'] == 'hpa' and d['limited']['volatile'] is True and d['capacity_blocks'] == 97679360"
		log_has "tui limit $size: the log shows the SET MAX sent, done" "set max" \
			"sim:sata250 +ATA SET MAX ADDRESS EXT +GOOD"
		# a power cycle undoes it: it was volatile
		"$PROG" --demo sim power-cycle sim:sata250 >/dev/null
		run "$PROG" --demo info -J sim:sata250
		json_check "tui limit $size: a power cycle undid the volatile limit" \
			"d['capacity_blocks'] == 488397168 and d['limited'] is None"

		# restore: the journaled original of a permanent limit
		"$PROG" --demo limit -p 30 --yes sim:sas15k >/dev/null
		tui_keys R g r
		tui_check "tui restore $size: r opens the form" "To +< original >"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		limited=$(drive_state sas15k)
		tui_keys r Enter
		tui_check "tui restore $size: the preview: what it gets back" \
			"After: +gets back 879097968 blocks \(450 GB, the journaled original\)"
		tui_type NOPE
		tui_check "tui restore $size: a wrong serial: refused" "Not the serial"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		[ "$(drive_state sas15k)" = "$limited" ] &&
			pass "tui restore $size: Esc: the drive as it was" ||
			fail "tui restore $size: Esc: the drive as it was"
		tui_keys r Enter
		tui_wait "Confirm restore" >/dev/null
		tui_type JWV2S8KC
		tui_check "tui restore $size: the job ran: the status line says what restore prints" \
			"sim:sas15k: restored to 879097968 blocks"
		run "$PROG" --demo info -J sim:sas15k
		json_check "tui restore $size: back to the original" "d['capacity_blocks'] == 879097968"

		# a vendor's HPA: refused without --to-native, given back with it
		tui_keys g j j j j j r Enter
		tui_check "tui restore $size: a vendor's HPA: refused without --to-native" \
			"Refused: sim:sata-hpa: refused: nothing journaled"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		tui_keys r Right Enter
		tui_check "tui restore $size: --to-native: the native maximum, with its warning" \
			"gets back 976773168 blocks \(500 GB, the native maximum\) by"
		tui_check "tui restore $size: --to-native says what comes back" \
			"what a vendor's HPA or DCO, or another tool, hid"
		tui_type WD-WCAWF1939275
		tui_check "tui restore $size: --to-native ran" "sim:sata-hpa: restored to 976773168 blocks"
		run "$PROG" --demo info -J sim:sata-hpa
		json_check "tui restore $size: the vendor's HPA is gone" "d['capacity_blocks'] == 976773168"
		# two marked drives: every serial is asked before any job; Esc at the second
		# leaves the first, confirmed, as it was
		tui_keys R
		tui_wait "sim:sata-hpa .* (no|500 GB)" >/dev/null
		sas=$(drive_state sas15k)
		sata=$(drive_state sata250)
		tui_keys g Space Space l
		tui_wait "Size" >/dev/null
		tui_type 20%
		tui_check "tui limit $size: two drives: the first one's preview" \
			"Confirm limit \(drive 1 of 2\)"
		tui_type JWV2S8KC
		tui_check "tui limit $size: two drives: then the second one's" \
			"Confirm limit \(drive 2 of 2\)"
		tui_keys Escape
		tui_wait "j/k move" >/dev/null
		[ "$(drive_state sas15k)" = "$sas" ] && [ "$(drive_state sata250)" = "$sata" ] &&
			pass "tui limit $size: two drives, Esc at the second: neither changed" ||
			fail "tui limit $size: two drives, Esc at the second: neither changed"
		if [ "$(printf '%s\n' "$SCREEN" | wc -l)" -le "$h" ]; then
			pass "tui limit $size: the screen fits $size"
		else
			fail "tui limit $size: the screen fits $size" "$SCREEN"
		fi
		tui_stop
	done
else
	fail "t_tui_limit: tmux is installed (tests/deps.sh check installs it)"
fi
