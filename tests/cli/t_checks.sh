# Checks that must come before the work: output columns, output paths, bad options; one
# line per error, each name once; the order of what selftest --wait prints; the serial
# prompt; skipped checks in the summary.

# no_output NAME: nothing on stdout (the command did no work before failing)
no_output() {
	if [ -z "$OUT" ]; then pass "$1"; else fail "$1" "stdout: $OUT"; fi
}
# one_error NAME: stderr is one "shortstroke: ..." line, and at most the "Try" hint after it
one_error() {
	n=$(printf '%s\n' "$ERR" | grep -vc "^Try 'shortstroke ")
	if [ "$n" = 1 ] && printf '%s\n' "$ERR" | head -n 1 | grep -q '^shortstroke: '; then
		pass "$1"
	else
		fail "$1" "stderr has $n lines besides the hint:" "$ERR"
	fi
}

# ---- -o: an unknown column is exit 2 before any I/O, in every command ----
# (sim:nosuch: the column is refused before the device is even looked up)
for c in "list" "protect" "smart sim:nosuch" "bench sim:nosuch" "zones sim:nosuch" \
	"plan sim:nosuch sim:sata250" "plan --check $TMP/no-such-plan.json"; do
	run "$PROG" --demo $c -o BAR
	expect "$c -o BAR: unknown column, exit 2" 2 "" "unknown column: BAR"
	one_error "$c -o BAR: one error line"
done
run "$PROG" --demo protect add -o BAR --serial ABC123
expect "protect add -o BAR: exit 2" 2 "" "unknown column: BAR"
run "$PROG" --demo protect list
expect "protect add -o BAR: the file did not change" 0
printf '%s\n' "$OUT" | grep -q ABC123 && fail "protect add -o BAR: ABC123 not added" "$OUT" || pass "protect add -o BAR: ABC123 not added"
run "$PROG" --demo bench -t 1s -o BAR sim:sata250
expect "bench -o BAR sim:sata250: exit 2" 2 "" "unknown column: BAR"
no_output "bench -o BAR sim:sata250: no benchmark ran"
run "$PROG" --demo zones -o BAR sim:smr
expect "zones -o BAR sim:smr (no zone table asked for): still exit 2" 2 "" "unknown column: BAR"
run "$PROG" --demo zones --measure -o BAR sim:sata250
expect "zones --measure -o BAR: exit 2" 2 "" "unknown column: BAR"
no_output "zones --measure -o BAR: nothing measured"
run "$PROG" --demo plan --disks 4 --rpm 7200 --disk-size 500GB -o BAR
expect "plan --disks 4 -o BAR: exit 2" 2 "" "unknown column: BAR"
no_output "plan -o BAR: no plan printed"
# the columns of both zones tables are good names
run sh -c '"$PROG" --demo zones -a -o START,TYPE sim:smr | head -n 12'
expect "zones -a -o START,TYPE sim:smr: zone columns accepted" 0 "^ +START +TYPE$"
# commands without -o say so, before anything is read
for c in info qualify profile "selftest --short" "limit --size 100GB --yes" "restore --yes"; do
	run "$PROG" --demo $c -o BAR sim:sata250
	expect "$c -o BAR: unknown option, exit 2" 2 "" "^shortstroke: ${c%% *}: unknown option '-o'$"
	one_error "$c -o BAR: one error line"
	no_output "$c -o BAR: nothing done"
done

# ---- output paths are checked before the work ----
run "$PROG" --demo qualify --report "$TMP/no/such/dir/x.html" sim:sata250
expect "qualify --report into a missing directory: exit 2" 2 "" "--report .*/no/such/dir/x.html: directory .*: No such file or directory"
one_error "qualify --report into a missing directory: one line"
no_output "qualify --report into a missing directory: no disk qualified"
run "$PROG" --demo qualify --report "$TMP" sim:sata250
expect "qualify --report DIRECTORY: exit 2" 2 "" "is a directory"
no_output "qualify --report DIRECTORY: no disk qualified"
: >"$TMP/afile"
run "$PROG" --demo qualify --report "$TMP/afile/x.html" sim:sata250
expect "qualify --report under a file: exit 2" 2 "" "is not a directory"
run "$PROG" --demo plan --disks 4 --rpm 7200 --disk-size 500GB -O "$TMP/no/such/plan.json"
expect "plan -O into a missing directory: exit 2" 2 "" "--output-plan .*/no/such/plan.json: directory"
one_error "plan -O into a missing directory: one line"
no_output "plan -O into a missing directory: no plan computed"
run "$PROG" --demo plan --disks 4 --rpm 7200 --disk-size 500GB -O "$TMP"
expect "plan -O DIRECTORY: exit 2" 2 "" "is a directory"
run "$PROG" --demo plan --disks 4 --rpm 7200 --disk-size 500GB -O "$TMP/plan.json"
expect "plan -O into a good directory still writes the plan" 0
[ -s "$TMP/plan.json" ] && pass "plan -O: the file is there" || fail "plan -O: the file is there"
if [ "$(id -u)" = 0 ]; then
	skip "qualify --report into a read-only directory" "root may write in any directory"
else
	mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
	run "$PROG" --demo qualify --report "$TMP/ro/x.html" sim:sata250
	expect "qualify --report into a read-only directory: exit 2" 2 "" "cannot write in"
	chmod 755 "$TMP/ro"
fi

# ---- a bad option is one line (no getopt message besides ours) ----
for c in $("$PROG" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	case $c in sim | tui) continue ;; esac	# no options of their own
	run "$PROG" --demo "$c" --bogus
	expect "$c --bogus: exit 2" 2 "" "^shortstroke: $c: unknown option '--bogus'$"
	one_error "$c --bogus: one error line"
done
run "$PROG" --bogus list
expect "shortstroke --bogus: an unknown option, not a command" 2 "" "^shortstroke: unknown option '--bogus'$"
one_error "shortstroke --bogus: one error line"
run "$PROG" --demo list -x
expect "list -x: the letter named" 2 "" "^shortstroke: list: unknown option '-x'$"
run "$PROG" --demo limit --size
expect "limit --size (no value): says what is missing" 2 "" "^shortstroke: limit: option '--size' needs a value$"
one_error "limit --size (no value): one error line"
run "$PROG" --demo list --json=yes
expect "list --json=yes: takes no value" 2 "" "^shortstroke: list: option '--json' takes no value$"
SIMD=$(dirname "$PROG")/shortstroke-simd
if [ -x "$SIMD" ]; then
	for a in --bogus -x "--rig" "--demo extra"; do
		run "$SIMD" $a
		expect "shortstroke-simd $a: exit 2" 2
		n=$(printf '%s\n' "$ERR" | wc -l)
		if [ "$n" = 2 ] && printf '%s\n' "$ERR" | head -n 1 | grep -qE "^shortstroke-simd: (unknown option '(--bogus|-x)'|option '--rig' needs a value|unexpected argument 'extra')$"; then
			pass "shortstroke-simd $a: one line and the hint, not the whole usage"
		else
			fail "shortstroke-simd $a: one line and the hint, not the whole usage" "$ERR"
		fi
	done
else
	skip "shortstroke-simd: a bad option is one line" "no $SIMD beside the program"
fi

# ---- each name once ----
# doubled: "sim:x: sim:x: ..." on one line
doubled() {
	if printf '%s\n' "$OUT" "$ERR" | grep -E '(sim:[A-Za-z0-9_-]+): (.*)?\1:'; then
		fail "$1" "a name is repeated:" "$ERR" "$OUT"
	else
		pass "$1"
	fi
}
run "$PROG" --demo sim fault sim:sata320 bogus
expect "sim fault, unknown fault: exit 2" 2 "" "^shortstroke: sim:sata320: unknown fault \"bogus\""
doubled "sim fault, unknown fault: the drive named once"
run "$PROG" --demo sim fault sim:sata-hpa vanish-after:1
run "$PROG" --demo qualify sim:sata-hpa
expect "qualify of a vanished disk: says why" "$RC" "not qualified: the drive does not answer"
doubled "qualify of a vanished disk: the drive named once under its heading"

# ---- selftest --wait: the result line names the disk, its log follows ----
run "$PROG" --demo selftest --short --wait sim:sata250 sim:sas15k
expect "selftest --wait: exit 0" 0
l1=$(printf '%s\n' "$OUT" | sed -n 1p)
l2=$(printf '%s\n' "$OUT" | sed -n 2p)
l4=$(printf '%s\n' "$OUT" | sed -n 4p)
if printf '%s' "$l1" | grep -q "^sim:sata250: short self-test completed" &&
	printf '%s' "$l2" | grep -q "^  NUM " &&
	printf '%s' "$l4" | grep -q "^sim:sas15k: short self-test completed"; then
	pass "selftest --wait: each disk's name, then its log"
else
	fail "selftest --wait: each disk's name, then its log" "$OUT"
fi

# ---- the serial prompt on a terminal ----
prompt=$(python3 - "$PROG" <<'PY' 2>&1
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "--demo", "limit", "--size", "100GB", "sim:sas15k"])
buf, end = b"", time.time() + 20
while b"to skip: " not in buf and time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.5)
    if r:
        try:
            buf += os.read(fd, 4096)
        except OSError:
            break
os.write(fd, b"nope\n")
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.5)
    if not r:
        continue
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    buf += d
_, st = os.waitpid(pid, 0)
sys.stdout.write(buf.decode(errors="replace").replace("\r", ""))
print("EXIT %d" % os.WEXITSTATUS(st))
PY
)
if printf '%s\n' "$prompt" | grep -q "HUS154545VLS300 (JWV2S8KC)\. Data beyond the new end becomes unreachable\." &&
	printf '%s\n' "$prompt" | grep -q "^EXIT 3$"; then
	pass "serial prompt: (SERIAL) without a stray space; a wrong serial is refused"
else
	fail "serial prompt: (SERIAL) without a stray space; a wrong serial is refused" "$prompt"
fi

# ---- a skipped check is counted in the summary ----
run env GROFF="$TMP/no-groff" sh "$HERE/run.sh" "$PROG" "$HERE/t_man.sh"
expect "run.sh: a skip is said, with its reason" 0 "^skip - man page shortstroke.8 renders cleanly: .*no-groff is not installed$"
expect "run.sh: the closing line counts the skips" 0 "^cli: 0 passed, 0 failed, 2 skipped$"
