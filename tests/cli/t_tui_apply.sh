# The TUI's arrays in tmux: from the planner, ^A applies the chosen layout to the marked
# drives (name, filesystem, every member's serial typed; wrong input refused inside the
# dialog with nothing changed; the no-md and protected-member refusals shown before any
# change), the job's progress, the array on the arrays screen (A), and undo from there.
# mdadm is tests/cli/fake-mdadm.sh (as in t_apply.sh): it writes nothing to the disks.

if command -v tmux >/dev/null 2>&1; then
	. "$HERE/tui_lib.sh"
	TA_RIG=$HERE/../data/array-rig.json
	TA_FAKE=$HERE/fake-mdadm.sh
	TA=$TMP/tui-apply
	mkdir -p "$TA/root/proc" "$TA/nomd/proc" "$TA/bin"
	echo "Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]" >"$TA/root/proc/mdstat"
	printf '#!/bin/sh\necho "mkfs $*" >>"%s/log"\n' "$TA" >"$TA/bin/mkfs.ext4"
	chmod +x "$TA/bin/mkfs.ext4"
	: >"$TA/log"
	J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
	TA_PROG=$PROG
	full=195312500
	# ta_env SYSROOT: the environment of a run with md present (root) or absent (nomd)
	ta_env() {
		echo "SHORTSTROKE_SYSROOT=$TA/$1 SHORTSTROKE_MDADM=$TA_FAKE SHORTSTROKE_MODPROBE=false" \
			"FAKE_MDADM_LOG=$TA/log FAKE_MDADM_STATE=$TA/md.state PATH=$TA/bin:$PATH"
	}
	ss() { env $(ta_env root) "$TA_PROG" --rig "$TA_RIG" "$@"; }
	cap() { ss info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
	jlines() { [ -f "$J" ] && wc -l <"$J" || echo 0; }
	# ta_open SYSROOT NAME: a TUI on the array rig, sim:a1 and sim:a2 marked, the
	# planner open on them with RAID 1, and the apply dialog's name asked
	ta_open() {
		tui_stop
		PROG="env $(ta_env "$1") $TA_PROG"
		tui_start "$2" 120 40 --rig "$TA_RIG"
		PROG=$TA_PROG
		tui_wait "rig .* 14 drives" >/dev/null
		tui_keys Space Space p
		tui_wait "Planner - 2 drives" >/dev/null
		# (a third argument: what happens once the planner holds the drives)
		[ -z "${3:-}" ] || eval "$3"
		# RAID 1 with an access time of 7 ms at most: a short stroke (8.6 ms at
		# full stroke, the drives' write caches taking the database's writes)
		tui_keys Up Right Right Down Down Down
		tui_keys -l 7
		tui_wait "RAID level +\[1 " >/dev/null
		tui_wait "> 1 +1 +2 +[1-9][0-9]?\.[0-9]%" >/dev/null
		tui_keys C-a
	}

	# refusals: nothing is changed by any of them
	ta_open nomd nomd
	tui_check "tui apply: ^A in the planner asks for the array's name" \
		"Apply layout: create the md array"
	printf '%s\n' "$SCREEN" | grep -q "member 2: sim:a2 .*serial AMAC-0002" \
		&& pass "tui apply: the dialog lists the layout's members with their serials" \
		|| fail "tui apply: the dialog lists the members" "$SCREEN"
	tui_type 'bad/name'
	tui_check "tui apply: a bad name is refused in the dialog" "only letters, digits"
	tui_type fast0
	tui_check "tui apply: then the filesystem is asked" "Filesystem \[none\]:"
	tui_type btrfs
	tui_check "tui apply: an unknown filesystem is refused in the dialog" "'btrfs': type none, ext4 or xfs"
	tui_type none
	tui_check "tui apply: no md in this kernel: the reason, before anything is changed" \
		"Refused: cannot build the array: this kernel has no md"
	[ "$(cap sim:a1)" = $full ] && [ "$(cap sim:a2)" = $full ] && [ "$(jlines)" = 0 ] \
		&& [ ! -e "$SHORTSTROKE_STATE_DIR/arrays/fast0.json" ] \
		&& pass "tui apply: no md: no member touched, nothing journaled or recorded" \
		|| fail "tui apply: no md: nothing changed" "$(cat "$J" 2>&1)"

	# a drive protected once the planner holds it: apply checks again, in the dialog
	ta_open root prot "printf 'serial:AMAC-0002\\n' >\"\$SHORTSTROKE_PROTECT_FILE\""
	tui_type fast0
	tui_wait "Filesystem" >/dev/null
	tui_type ext4
	tui_check "tui apply: a protected member is refused in the dialog" "Refused: .*sim:a2.*protect"
	: >"$SHORTSTROKE_PROTECT_FILE"

	ta_open root wrong
	tui_type fast0
	tui_wait "Filesystem" >/dev/null
	tui_type ext4
	tui_check "tui apply: each member's serial is asked" "Member 1 of 2: sim:a1 .*serial AMAC-0001"
	tui_type AMAC-0002
	tui_check "tui apply: a wrong serial is refused in the dialog" \
		"Not the serial of sim:a1: type AMAC-0001 to go ahead"
	tui_keys Escape
	tui_check "tui apply: Esc leaves the planner as it was" "Planner - 2 drives"
	[ "$(cap sim:a1)" = $full ] && [ "$(jlines)" = 0 ] && [ ! -s "$TA/log" ] \
		&& pass "tui apply: refused serial: nothing sent, journaled or run" \
		|| fail "tui apply: refused serial: nothing changed" "$(cat "$TA/log")"

	# the apply, end to end
	ta_open root apply
	tui_type fast0
	tui_wait "Filesystem" >/dev/null
	tui_type ext4
	tui_wait "Member 1 of 2" >/dev/null
	tui_type AMAC-0001
	tui_check "tui apply: the second member's serial" "Member 2 of 2: sim:a2"
	tui_type AMAC-0002
	tui_check "tui apply: the progress screen: a bar per member" \
		"member 2 +sim:a2 +AMAC-0002 +\[(#|\.|█|░|▏|▎|▍|▌|▋|▊|▉){20}\]"
	tui_check "tui apply: done, with the array's state" \
		"Done: /dev/md/fast0: created: RAID 1 over 2 members, ext4; state done"
	printf '%s\n' "$SCREEN" | grep -qE "member 1 +sim:a1 .*\[(#|█){20}\] 100%" \
		&& pass "tui apply: the members' bars at 100%" || fail "tui apply: bars at 100%" "$SCREEN"
	tui_keys Enter
	tui_check "tui apply: then the arrays screen shows it" "> fast0 +done +1 .*sim:a1,sim:a2"
	lim=$(python3 -c "import json; print(json.load(open('$SHORTSTROKE_STATE_DIR/arrays/fast0.json'))['members'][0]['limit_blocks'])")
	ss list -J | python3 -c "
import json, sys
d = {x['device']: x for x in json.load(sys.stdin)['drives']}
assert d['sim:a1']['limited'] and d['sim:a2']['limited'], d['sim:a1']
assert d['sim:a1']['size'] == $lim * 512 and d['sim:a2']['size'] == $lim * 512, d['sim:a1']['size']
assert not d['sim:a3']['limited']" \
		&& pass "tui apply: list -J: both members limited to the plan's limit" \
		|| fail "tui apply: list -J: members limited" "$(ss list -J 2>&1)"
	grep -q "^mdadm --create /dev/md/fast0 --run --metadata=1.2 --level=1 --raid-devices=2 .*--name=fast0 sim:a1 sim:a2$" "$TA/log" \
		&& grep -q "^mkfs .*/dev/md/fast0$" "$TA/log" \
		&& pass "tui apply: mdadm --create and mkfs run by argv" || fail "tui apply: mdadm and mkfs" "$(cat "$TA/log")"
	run ss array list
	expect "tui apply: array list shows the TUI's array" 0 "^fast0 +done +1 .*sim:a1,sim:a2$"

	# undo from the arrays screen
	tui_keys u
	tui_check "tui arrays: u asks for the array's name" "Type the array's name \(fast0\):"
	tui_type fast1
	tui_check "tui arrays: a wrong name is refused in the dialog" "Not the name: type fast0 to undo it"
	[ "$(cap sim:a1)" = "$lim" ] && pass "tui arrays: refused undo changed nothing" \
		|| fail "tui arrays: refused undo changed nothing"
	tui_type fast0
	tui_check "tui arrays: undo done" "undone: every member restored"
	tui_check "tui arrays: the screen shows it undone" "> fast0 +undone"
	[ "$(cap sim:a1)" = $full ] && [ "$(cap sim:a2)" = $full ] \
		&& pass "tui arrays: undo restored every member" || fail "tui arrays: undo restored the members" "$(cap sim:a1)"
	grep -q "^mdadm --stop /dev/md/fast0$" "$TA/log" && pass "tui arrays: undo stopped the array" \
		|| fail "tui arrays: undo stopped the array" "$(cat "$TA/log")"
	tui_keys Escape
	tui_check "tui arrays: Esc back to the drive table" "rig .* 14 drives"
	tui_keys A
	tui_check "tui arrays: A opens the arrays screen" "Arrays shortstroke created - 1"
	tui_keys q
	tui_wait "rig .* 14 drives" >/dev/null
	tui_keys q
	if tui_wait "TUI-EXITED 0"; then pass "tui arrays: quits cleanly"; else fail "tui arrays: quits cleanly" "$SCREEN"; fi
	tui_stop
else
	fail "t_tui_apply: tmux is installed (tests/deps.sh check installs it)"
fi
