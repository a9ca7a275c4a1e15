# The state directory and the files a command opens are another user's to plant nothing in
# (issue 24, items 3 and 4): a state directory that another user can write (mode, group,
# owner, a parent without the sticky bit, a link of theirs) is refused with how to fix it;
# links, hard links, FIFOs and devices planted in it while it was open (user nobody, through
# setpriv) are refused one by one, their targets unchanged; report, plan and protect paths
# are not written through another user's link; nothing at a journal, rig, plan or protect
# path hangs a command.

SD_OK=1
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
	skip "planted links" "needs root, setpriv and the user nobody"
	SD_OK=0
fi

# as_nobody CMD...: run CMD as user nobody (no groups)
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# sd_run NAME STATE CMD...: run a command as root with STATE as the state directory, bounded
# in time (a FIFO must not hang it); sets OUT, ERR, RC
sd_run() {
	sd_state=$1
	shift
	OUT=$(SHORTSTROKE_STATE_DIR="$sd_state" timeout 30 "$@" 2>"$TMP/stderr")
	RC=$?
	ERR=$(cat "$TMP/stderr")
}
sum_of() { sha256sum "$1" | cut -c1-64; }
# refused NAME PATTERN [CODE]: exit CODE (3: refused for safety), stderr says PATTERN and
# "refused", no hang
refused() {
	if [ "$RC" = 124 ]; then
		fail "$1" "hung (killed after 30 s)"
	elif [ "$RC" != "${3:-3}" ]; then
		fail "$1" "exit $RC, expected ${3:-3}" "stderr: $ERR"
	elif ! printf '%s\n' "$ERR" | grep -q "refused" ||
		! printf '%s\n' "$ERR" | grep -qE -- "$2"; then
		fail "$1" "stderr lacks /$2/ or 'refused'" "stderr: $ERR"
	else
		pass "$1"
	fi
}
# unchanged NAME FILE SUM OWNER: FILE still has SUM and OWNER (its size first: a file
# truncated up to a drive's size is not read through)
unchanged() {
	if [ "$(stat -c %s "$2")" = 33 ] && [ "$(sum_of "$2")" = "$3" ] &&
		[ "$(stat -c %U "$2")" = "$4" ]; then
		pass "$1"
	else
		fail "$1" "$(ls -l "$2")"
	fi
}

if [ "$SD_OK" = 1 ]; then
	chmod 755 "$TMP" # nobody passes through (root's, not writable by others)
	V="$TMP/victims"
	mkdir -p "$V"
	printf 'root:precious:19000:0:99999:7:::\n' >"$V/shadow"
	V_SUM=$(sum_of "$V/shadow")
	D="$PROG --demo"

	# --- 1. a state directory another user could plant in is refused, with the fix -----------
	mkdir -m 0777 "$TMP/s-world"
	sd_run "$TMP/s-world" $D list
	refused "a world-writable state directory: refused" \
		"directory $TMP/s-world is writable by group and others \\(mode 0777\\).*chmod go-w $TMP/s-world"
	[ ! -e "$TMP/s-world/journal.jsonl" ] && [ ! -e "$TMP/s-world/sim" ] &&
		pass "a world-writable state directory: nothing made in it" ||
		fail "a world-writable state directory: nothing made in it" "$(ls -la "$TMP/s-world")"
	mkdir -m 1777 "$TMP/s-sticky"
	sd_run "$TMP/s-sticky" $D limit --size 100GB --yes sim:sata250
	refused "a state directory writable by all even with the sticky bit: refused" \
		"$TMP/s-sticky is writable by group and others \\(mode 1777\\)"
	mkdir -m 0775 "$TMP/s-group" && chgrp nogroup "$TMP/s-group"
	sd_run "$TMP/s-group" $D limit --size 100GB --yes sim:sata250
	refused "a group-writable state directory: refused" \
		"is writable by its group \\(mode 0775\\).*chmod go-w $TMP/s-group"
	mkdir -m 0755 "$TMP/s-nobody" && chown nobody "$TMP/s-nobody"
	sd_run "$TMP/s-nobody" $D limit --size 100GB --yes sim:sata250
	refused "a state directory of another user's: refused" \
		"directory $TMP/s-nobody belongs to user nobody \\(uid 65534\\), not to root or you"
	mkdir -m 0777 "$TMP/p-open" && mkdir -m 0755 "$TMP/p-open/state"
	sd_run "$TMP/p-open/state" $D reapply
	refused "a state directory under a parent others can write: refused" \
		"directory $TMP/p-open is writable by group and others.*chmod go-w $TMP/p-open \\(or chmod \\+t"
	# /tmp's way is fine: a parent writable by all with the sticky bit, the directory root's
	mkdir -m 1777 "$TMP/p-sticky" && mkdir -m 0755 "$TMP/p-sticky/state"
	sd_run "$TMP/p-sticky/state" $D limit --size 100GB --yes sim:sata250
	expect "a private state directory under a sticky parent: accepted" 0 "limited to"
	# the state directory named through a link nobody planted in a sticky directory
	as_nobody ln -s "$TMP/p-sticky/state" "$TMP/p-sticky/via-link"
	sd_run "$TMP/p-sticky/via-link" $D list
	refused "a state directory reached through another user's link: refused" \
		"$TMP/p-sticky/via-link is a symbolic link that belongs to user nobody"

	# --- 2. planted while the directory was open, refused after it was closed ----------------
	# plant STATE: make the state directory (as a run of root's would), open it to all, let
	# nobody plant with the commands that follow, then close it again (chmod 755)
	prep() {
		rm -rf "$1"
		SHORTSTROKE_STATE_DIR="$1" $D limit --size 100GB --yes sim:sata250 >/dev/null 2>&1
		SHORTSTROKE_STATE_DIR="$1" $D sim power-cycle sim:sata250 >/dev/null 2>&1
		SHORTSTROKE_STATE_DIR="$1" $D restore --yes sim:sata250 >/dev/null 2>&1
		chmod 0777 "$1" "$1/sim/demo" "$1/locks"
	}
	closeup() { chmod 0755 "$1" "$1/sim/demo" "$1/locks"; }
	S="$TMP/st"

	# each kind of link: WHAT (the file name under the state directory), the command run
	for plant in journal.jsonl journal.lock sim/demo/sata250.img sim/demo/sata250.lock \
		sim/demo/sata250.json locks/5000cca215c3e8a1.lock; do
		prep "$S"
		cp "$V/shadow" "$V/t" && chmod 600 "$V/t"
		as_nobody rm -f "$S/$plant"
		as_nobody ln -s "$V/t" "$S/$plant"
		closeup "$S"
		sd_run "$S" $D limit --size 100GB --yes sim:sata250
		refused "a symbolic link planted at $plant: refused" \
			"$S/$plant: refused: it is a symbolic link"
		unchanged "a symbolic link planted at $plant: its target unchanged" "$V/t" "$V_SUM" root
		! grep -q precious "$TMP/stderr" && pass "$plant: nothing of the target printed" ||
			fail "$plant: nothing of the target printed" "$ERR"
	done
	# the locks directory replaced by a link to a directory nobody owns: no lock made there
	prep "$S"
	mkdir -m 0777 "$TMP/nobody-dir" && chown nobody "$TMP/nobody-dir"
	as_nobody mv "$S/locks" "$S/locks.old"
	as_nobody ln -s "$TMP/nobody-dir" "$S/locks"
	closeup "$S" 2>/dev/null; chmod 755 "$S" "$S/sim/demo"
	sd_run "$S" $D limit --size 100GB --yes sim:sata250
	refused "the locks directory replaced by another user's link: refused" \
		"$S/locks is a symbolic link that belongs to user nobody"
	[ -z "$(ls -A "$TMP/nobody-dir")" ] && pass "no lock file made where the link points" ||
		fail "no lock file made where the link points" "$(ls -la "$TMP/nobody-dir")"
	# a hard link to a file of nobody's, and a regular file of nobody's holding a secret
	prep "$S"
	as_nobody sh -c "printf 'SECRET of nobody\n' >'$TMP/nobody-dir/own'"
	rm -f "$S/journal.jsonl"
	as_nobody ln "$TMP/nobody-dir/own" "$S/journal.jsonl"
	closeup "$S"
	sd_run "$S" $D limit --size 100GB --yes sim:sata250
	refused "a hard link planted as the journal: refused" \
		"journal $S/journal.jsonl: refused: it belongs to user nobody"
	! grep -q SECRET "$TMP/stderr" && [ "$(cat "$TMP/nobody-dir/own")" = "SECRET of nobody" ] &&
		pass "the hard link's file: not printed, not changed" ||
		fail "the hard link's file: not printed, not changed" "$ERR"
	prep "$S"
	rm -f "$S/journal.jsonl"
	as_nobody sh -c "printf 'SECRET not json\n' >'$S/journal.jsonl'"
	closeup "$S"
	sd_run "$S" $D list
	refused "list: a journal file of another user's: refused" "belongs to user nobody"
	! grep -q SECRET "$TMP/stderr" && pass "list: its content is not printed" ||
		fail "list: its content is not printed" "$ERR"
	# a FIFO and a device at the journal's path: refused at once, even by list (item 4)
	for kind in fifo dev; do
		prep "$S"
		rm -f "$S/journal.jsonl"
		if [ $kind = fifo ]; then as_nobody mkfifo "$S/journal.jsonl"; else mknod "$S/journal.jsonl" c 1 3; fi
		closeup "$S"
		sd_run "$S" $D list
		refused "list: a $kind at the journal's path: refused, no hang" \
			"journal $S/journal.jsonl: refused: it is a (FIFO|character device)"
		sd_run "$S" $D limit --size 100GB --yes sim:sata250
		refused "limit: a $kind at the journal's path: refused, no hang" "it is a"
	done
	rm -rf "$S"

	# --- 3. outputs a user names: not through another user's link -----------------------------
	mkdir -m 1777 "$TMP/shared"
	cp "$V/shadow" "$V/r" && chmod 644 "$V/r"
	as_nobody ln -s "$V/r" "$TMP/shared/plan.json"
	run $D plan --level 1 --stroke 25% sim:sata250 sim:sata320 -O "$TMP/shared/plan.json"
	refused "plan -O a link of nobody's in a sticky directory: refused" \
		"plan.json: refused: it is a symbolic link that belongs to user nobody" 2
	as_nobody ln -s "$V/r" "$TMP/shared/report.html"
	run $D qualify --report "$TMP/shared/report.html" sim:sata250
	refused "qualify --report a link of nobody's: refused before the run" \
		"report.html: refused: it is a symbolic link that belongs to user nobody" 2
	unchanged "the outputs' link target unchanged" "$V/r" "$V_SUM" root
	# a link of root's into a directory nobody controls: not written through
	as_nobody sh -c ": >'$TMP/nobody-dir/plan.json'"
	ln -s "$TMP/nobody-dir/plan.json" "$TMP/root-link.json"
	run $D plan --level 1 --stroke 25% sim:sata250 sim:sata320 -O "$TMP/root-link.json"
	refused "plan -O a link into a directory nobody owns: refused" \
		"not written through: refused: directory $TMP/nobody-dir belongs to user nobody" 2
	[ ! -s "$TMP/nobody-dir/plan.json" ] && pass "nothing written into nobody's directory" ||
		fail "nothing written into nobody's directory" "$(ls -la "$TMP/nobody-dir")"
	# the protect file: in a directory nobody controls, or a link of nobody's
	printf 'serial:XYZ\n' >"$TMP/nobody-dir/protect.conf"
	run $D --protect-file "$TMP/nobody-dir/protect.conf" list
	refused "a protect file in a directory of another user's: refused" \
		"directory $TMP/nobody-dir belongs to user nobody" 2
	as_nobody ln -s "$V/r" "$TMP/shared/protect.conf"
	run $D --protect-file "$TMP/shared/protect.conf" protect add --serial NEW1
	refused "protect add through a link of nobody's: refused" \
		"protect.conf: refused: it is a symbolic link that belongs to user nobody" 2
	unchanged "protect add: the link's target unchanged" "$V/r" "$V_SUM" root
fi

# --- 4. a FIFO or a device where a rig, a plan or the protect file is read: refused at once ----
mkfifo "$TMP/fifo"
OUT=$(timeout 30 "$PROG" --rig "$TMP/fifo" list 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr")
expect "--rig a FIFO: refused, no hang" 2 "" "the rig file $TMP/fifo: is a FIFO, not a file to read"
OUT=$(timeout 30 "$PROG" plan --check "$TMP/fifo" 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr")
expect "plan --check a FIFO: refused, no hang" 2 "" "the plan $TMP/fifo: is a FIFO, not a file to read"
OUT=$(timeout 30 "$PROG" --demo --protect-file "$TMP/fifo" list 2>"$TMP/stderr"); RC=$?
ERR=$(cat "$TMP/stderr")
expect "--protect-file a FIFO: refused, no hang" 2 "" "fifo: not a regular file"
OUT=$(timeout 30 "$PROG" --demo --protect-file "$TMP/fifo" protect add --serial X1 2>"$TMP/stderr")
RC=$?; ERR=$(cat "$TMP/stderr")
expect "protect add to a FIFO: refused, no hang" 2 "" "fifo: not a regular file"
OUT=$(timeout 30 "$PROG" --rig /dev/zero list 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr")
expect "--rig a character device: refused, nothing read" 2 "" "is a character device, not a file to read"
