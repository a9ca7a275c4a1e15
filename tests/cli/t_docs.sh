# Every command answers --help; the man pages render without warnings.

for c in $("$PROG" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	run "$PROG" "$c" --help
	expect "$c --help" 0 "Usage: shortstroke"
done
# GROFF names the program (t_checks.sh sets a missing one to see the skip reported)
for m in "$HERE"/../../man/*.8; do
	if ! command -v "${GROFF:-groff}" >/dev/null 2>&1; then
		skip "man page $(basename "$m") renders cleanly" "${GROFF:-groff} is not installed"
		continue
	fi
	w=$("${GROFF:-groff}" -man -ww -z "$m" 2>&1)
	[ -z "$w" ] && pass "man page $(basename "$m") renders cleanly" || fail "man page $(basename "$m")" "$w"
done

# Every example command of README.md and the man page's EXAMPLES runs as written on the demo
# rig: /dev/sdX become simulated drives (below), --demo is added, the examples run in order in
# this file's fresh state dir, and one that would ask for the serial on a terminal gets --yes.
# Each must exit 0 unless docs_want says otherwise (and why).
DOCS_ROOT=$HERE/../..
docs_examples() {
	python3 - "$DOCS_ROOT/README.md" "$DOCS_ROOT/man/shortstroke.8" <<'PY'
import re, sys
readme, man = sys.argv[1], sys.argv[2]
for n, line in enumerate(open(readme), 1):
    # code blocks are indented by 4; a trailing "# ..." is a comment
    m = re.match(r"    (shortstroke(\s.*)?)$", line.rstrip("\n"))
    if m:
        print("README.md:%d\t%s" % (n, re.sub(r"\s+#.*$", "", m.group(1)).strip()))
inex = False
for n, line in enumerate(open(man), 1):
    line = line.rstrip("\n")
    if line.startswith(".SH"):
        inex = line.strip() == ".SH EXAMPLES"
    elif inex and line.startswith("shortstroke"):
        print("shortstroke.8:%d\t%s" % (n, line.replace("\\-", "-")))
PY
}
# /dev/sdX on the demo rig; a glob such as /dev/sd[b-e] takes every mapped name it matches.
# sdb is SAS so that limit and then restore both work without the power cycle an HPA disk
# needs between two changes; the 2 TB and 14 TB disks stay out of the globs (a standard
# qualification of them takes a minute).
DOCS_DISKS="sda=sim:sata320 sdb=sim:sas15k sdc=sim:sata250 sdd=sim:sata-hpa"
docs_map() {
	out=""
	for w in $1; do
		case $w in
		/dev/sd*)
			m=""
			for kv in $DOCS_DISKS; do
				# shellcheck disable=SC2254
				case ${kv%%=*} in ${w#/dev/}) m="$m ${kv#*=}" ;; esac
			done
			[ -n "$m" ] || m=" $w"
			w=${m# }
			;;
		esac
		out="$out $w"
	done
	echo "${out# }"
}
# the exit an example is documented to give when it is not 0
docs_want() {
	case $1 in
	# sim:sata-hpa has a pending sector: smart says WARNING (exit 4, "smart --help"), and
	# qualify fails its SMART check while the others pass (exit 4, "qualify --help")
	"shortstroke smart /dev/sd[b-e]" | "shortstroke qualify "*"/dev/sd[b-y]") echo 4 ;;
	*) echo 0 ;;
	esac
}
docs_count=0
docs_dir=$(mktemp -d)
docs_old=$PWD
cd "$docs_dir" || exit 1
TAB=$(printf '\t')
docs_examples >"$TMP/examples"
while IFS="$TAB" read -r where cmd; do
	args=$(docs_map "${cmd#shortstroke}")
	case " $args " in
	"  ")
		# the TUI needs a terminal: tests/cli/t_tui.sh drives it in tmux
		continue ;;
	esac
	case " $args " in *" --demo "* | *" --rig "*) ;; *) args="--demo $args" ;; esac
	case " $args " in
	*" limit "* | *" restore "*)
		case " $args " in
		*" --yes "* | *" -y "* | *" --dry-run "* | *" -n "*) ;;
		*) args="$args --yes" ;;
		esac ;;
	esac
	want=$(docs_want "$cmd")
	docs_count=$((docs_count + 1))
	eval "run \"\$PROG\" $args" </dev/null
	expect "docs: $where: $cmd (as: shortstroke $args)" "$want"
done <"$TMP/examples"
cd "$docs_old" || exit 1
rm -rf "$docs_dir"
if [ "$docs_count" -ge 20 ]; then
	pass "docs: $docs_count example commands found in README.md and shortstroke.8"
else
	fail "docs: example commands found in README.md and shortstroke.8" "only $docs_count: has the extraction broken?"
fi

# Whatever a user is pointed to is in the repository: nothing refers to the "shared" folder
# beside it, and every markdown page a file names (the design or models page, docs/...) is here.
refs=$(python3 - "$DOCS_ROOT" <<'PY'
import os, re, sys
root = os.path.realpath(sys.argv[1])
files, names = [], set()
for d, dirs, fs in os.walk(root):
    top = os.path.relpath(d, root) == "."
    dirs[:] = [x for x in dirs if x != ".git" and not (top and x.startswith("build"))]
    for f in fs:
        files.append(os.path.join(d, f))
        names.add(f)
for p in files:
    try:
        text = open(p, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    rel = os.path.relpath(p, root)
    for n, line in enumerate(text.splitlines(), 1):
        line = re.sub(r"\\f[BIRP]", " ", line)  # man page font changes
        if re.search(r"(\.\.|/work)/shar[e]d\b", line):
            print("%s:%d: points outside the repository: %s" % (rel, n, line.strip()))
        for m in re.finditer(r"(?<![\w$./-])[\w./-]*\b[\w-]+\.md\b", line):
            ref = m.group(0)
            if "/" in ref:
                ok = any(os.path.exists(c) for c in (os.path.join(root, ref.lstrip("./")),
                                                     os.path.join(os.path.dirname(p), ref)))
            else:
                ok = ref in names
            if not ok:
                print("%s:%d: %s is not in the repository" % (rel, n, ref))
for must in ("README.md", "docs/architecture.md"):
    if not os.path.exists(os.path.join(root, must)):
        print("%s is missing" % must)
PY
)
if [ -z "$refs" ]; then
	pass "docs: every file a user is pointed to is in the repository"
else
	fail "docs: every file a user is pointed to is in the repository" "$refs"
fi
if grep -q '`docs/architecture.md`' "$DOCS_ROOT/README.md"; then
	pass "docs: README links docs/architecture.md"
else
	fail "docs: README links docs/architecture.md"
fi
run "$PROG" --demo plan sim:sas15k --level 0 --stroke 100% --explain
if printf '%s\n' "$OUT" | grep -q "source: .*docs/models.md" && [ -f "$DOCS_ROOT/docs/models.md" ]; then
	pass "plan --explain: its sources are files of the repository (docs/models.md)"
else
	fail "plan --explain: its sources are files of the repository (docs/models.md)" "$OUT"
fi
