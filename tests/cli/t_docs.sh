# Every command answers --help; the examples of README, the man page and --help run as
# written; the man page's TUI keys are the TUI's key tables; nothing points outside the
# repository. (The man pages' rendering: t_man.sh.)

for c in $("$PROG" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	run "$PROG" "$c" --help
	expect "$c --help" 0 "Usage: shortstroke"
done

# Every example command of README.md, of the man page's EXAMPLES and of each command's --help
# runs as written on the demo rig: /dev/sdX become simulated drives (the map below), --demo is
# added, the examples of one place (README, the man page, one command's --help) run in order
# in a fresh state dir (so "plan -O plan.json" then "plan --check plan.json" works), and one
# that would ask for the serial on a terminal gets --yes. Each must exit 0 unless docs_want
# says otherwise (and why).
DOCS_ROOT=$HERE/../..
# sdb is SAS so that limit and then restore both work without the power cycle an HPA disk
# needs between two changes; the 2 TB and 14 TB disks stay out of the globs (a qualification
# of them takes minutes).
DOCS_DISKS="sda=sim:sata320 sdb=sim:sas15k sdc=sim:sata250 sdd=sim:sata-hpa"
# one line per example: WHERE <tab> AS WRITTEN <tab> AS RUN (a sh -c command line)
docs_examples() {
	python3 - "$DOCS_ROOT/README.md" "$DOCS_ROOT/docs/man/shortstroke.8" "$PROG" "$DOCS_DISKS" <<'PY'
import fnmatch, re, shlex, subprocess, sys
readme, man, prog, disks = sys.argv[1:5]
disks = [kv.split("=", 1) for kv in disks.split()]
out = []
for n, line in enumerate(open(readme), 1):
    # code blocks are indented by 4; a trailing "# ..." is a comment
    m = re.match(r"    (shortstroke(\s.*)?)$", line.rstrip("\n"))
    if m:
        out.append(("README.md:%d" % n, re.sub(r"\s+#.*$", "", m.group(1)).strip()))
inex = False
for n, line in enumerate(open(man), 1):
    line = line.rstrip("\n")
    if line.startswith(".SH"):
        inex = line.strip() == ".SH EXAMPLES"
    elif inex and line.startswith("shortstroke"):
        out.append(("shortstroke.8:%d" % n, line.replace("\\-", "-")))
helptext = subprocess.run([prog, "--help"], capture_output=True, text=True).stdout
cmds = re.findall(r"^  ([a-z]+) ", helptext.split("Commands:")[1].split("\n\n")[0], re.M)
for c in cmds:
    h = subprocess.run([prog, c, "--help"], capture_output=True, text=True).stdout
    on = False
    lines = h.splitlines()
    for k, line in enumerate(lines):
        if re.match(r"Examples?:", line):
            on = True
        elif on and line.startswith("  shortstroke"):
            # an example continued on the next lines (a trailing backslash) is one command
            cmd, j = line.strip(), k
            while cmd.endswith("\\") and j + 1 < len(lines):
                j += 1
                cmd = cmd[:-1].rstrip() + " " + lines[j].strip()
            out.append(("%s --help" % c, cmd))
        elif on and not line.startswith("  "):
            on = False

def disk(w):
    if not w.startswith("/dev/sd"):
        return [w]
    m = [sim for name, sim in disks if fnmatch.fnmatchcase(name, w[5:])]
    return m or [w]

def one(cmd):
    # one shortstroke command (a pipe or a redirection after it is kept as written)
    rest = ""
    m = re.search(r"\s([|>].*)$", cmd)
    if m:
        cmd, rest = cmd[:m.start()], " " + m.group(1)
    words = [x for w in shlex.split(cmd)[1:] for x in disk(w)]
    if not any(w in ("--demo", "--rig") for w in words):
        words.insert(0, "--demo")
    sub = next((w for w in words if not w.startswith("-") and w != "--demo"), "")
    if sub in ("limit", "restore") and not set(words) & {"--yes", "-y", "--dry-run"}:
        words.append("--yes")
    return '"$PROG" ' + " ".join(shlex.quote(w) for w in words) + rest

for where, cmd in out:
    if cmd == "shortstroke":
        continue  # the TUI needs a terminal: tests/cli/t_tui.sh drives it in tmux
    run = "; ".join(one(c.strip()) for c in cmd.split("; "))
    print("%s\t%s\t%s" % (where, cmd, run))
PY
}
# the exit an example is documented to give when it is not 0; "skip: why" when it cannot run
docs_want() {
	case $1 in
	# sim:sata-hpa has a pending sector: smart says WARNING (exit 5, "smart --help"), and
	# qualify fails its SMART check while the others pass (exit 4, "qualify --help")
	"shortstroke smart /dev/sd[b-e]" | "shortstroke smart -a /dev/sd[b-e]") echo 5 ;;
	"shortstroke qualify "*"/dev/sd[b-y]") echo 4 ;;
	"shortstroke qualify --profile full "*)
		echo "skip: a full surface scan of three demo disks takes minutes of CPU" ;;
	# a dry run exits 1 where a real run would stop: on a kernel without md
	"shortstroke apply "*"--dry-run"*)
		{ [ -e /proc/mdstat ] || modprobe -n -q md_mod 2>/dev/null; } && echo 0 || echo 1 ;;
	# a real apply, and the array it made: md, and placeholders like the disk they copy
	"shortstroke apply "* | "shortstroke array "[rsu]*)
		echo "skip: needs md and disks of one model (the demo rig has one of each); t_apply_review.sh runs apply and array as docs/arrays.md writes them, the guest on md" ;;
	*"| jq "*) command -v jq >/dev/null 2>&1 && echo 0 || echo "skip: jq is not installed" ;;
	# an NVMe namespace: the demo rig has no NVMe drive (t_nvme's rig runs it)
	"shortstroke format --lba-format "*"/dev/nvme"*) echo "skip: the demo rig holds no NVMe drive" ;;
	*) echo 0 ;;
	esac
}
docs_count=0
docs_old=$PWD
docs_group=""
TAB=$(printf '\t')
docs_examples >"$TMP/examples"
while IFS="$TAB" read -r where cmd as; do
	if [ "${where%%:*}" != "$docs_group" ]; then
		docs_group=${where%%:*}
		docs_dir=$(mktemp -d "$TMP/docs.XXXXXX")
		cd "$docs_dir" || exit 1
		SHORTSTROKE_STATE_DIR=$docs_dir/state
	fi
	docs_count=$((docs_count + 1))
	want=$(docs_want "$cmd")
	case $want in
	skip:*) skip "docs: $where: $cmd" "${want#skip: }"; continue ;;
	esac
	run sh -c "$as" </dev/null
	expect "docs: $where: $cmd (as: $as)" "$want"
done <"$TMP/examples"
cd "$docs_old" || exit 1
SHORTSTROKE_STATE_DIR=$TMP/state
if [ "$docs_count" -ge 35 ]; then
	pass "docs: $docs_count example commands found in README.md, shortstroke.8 and --help"
else
	fail "docs: example commands found in README.md, shortstroke.8 and --help" "only $docs_count: has the extraction broken?"
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
            if ref.startswith("share/"):
                continue  # a path in an installed tree (make install), not in the repository
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

# docs/architecture.md's layers and "may include" table hold for every #include of src/
# (tests/check-layers.sh reads both from the document); known violations, if any, are listed
# here as comments.
layers=$(sh "$DOCS_ROOT/tests/check-layers.sh" "$DOCS_ROOT" 2>&1); rc=$?
printf '%s\n' "$layers" | sed -n 's/^known/# known/p'
if [ $rc = 0 ] && printf '%s\n' "$layers" |
	grep -q '^layers: [0-9]* includes in [0-9]* files checked, 0 violations$'; then
	pass "layers: every folder includes what docs/architecture.md says it may"
else
	fail "layers: every folder includes what docs/architecture.md says it may" "$layers"
fi
# ... and the check can fail: a copy of the tree with one wrong include of each kind
layers_try() { # NAME EXPECTED-LINE: run the check (the script LAYERS_SH, by default the
	# repository's) on $TMP/layers, expect exit 1 and the line
	out=$(sh "${LAYERS_SH:-$DOCS_ROOT/tests/check-layers.sh}" "$TMP/layers" 2>&1); rc=$?
	if [ $rc = 1 ] && printf '%s\n' "$out" | grep -q -- "$2"; then
		pass "layers: the check fails on $1"
	else
		fail "layers: the check fails on $1" "exit $rc: $out"
	fi
}
layers_fresh() {
	rm -rf "$TMP/layers" && mkdir -p "$TMP/layers/docs" &&
		cp -R "$DOCS_ROOT/src" "$DOCS_ROOT/include" "$TMP/layers/" &&
		cp "$DOCS_ROOT/docs/architecture.md" "$TMP/layers/docs/"
}
layers_fresh
printf '#include "shortstroke/devices.h"\n' >>"$TMP/layers/src/util/units.c"
layers_try "util including ops" \
	"^src/util/units.c:[0-9]*: src/util may not include shortstroke/devices.h (of src/ops)$"
layers_fresh
printf '#include "shortstroke/drive.h"\n' >>"$TMP/layers/src/sim/sim_rig.c"
layers_try "the simulator including drive.h (only the codecs are allowed)" \
	"^src/sim/sim_rig.c:[0-9]*: src/sim may not include shortstroke/drive.h"
layers_fresh
printf '#include "cli/cli.h"\n' >>"$TMP/layers/src/tui/model.c"
layers_try "a new TUI file including cli.h" \
	"^src/tui/model.c:[0-9]*: the TUI includes the CLI (cli/cli.h)$"
layers_fresh
sed -i 's/^| `src\/util` | \(.*\) | the C library only |$/| `src\/util` | \1 | `io` |/' \
	"$TMP/layers/docs/architecture.md"
printf '#include "shortstroke/io.h"\n' >>"$TMP/layers/src/util/units.c"
layers_try "an include of a higher layer the table allows" \
	"^src/util/units.c:[0-9]*: src/util (layer 0) includes shortstroke/io.h of a higher layer (src/io, layer 4)$"
layers_try "a circle of includes between folders" \
	"^include circle between folders [a-z >-]*util -> io: .*, util -> io at src/util/units.c:[0-9]* (shortstroke/io.h)$"
# No violation is known today, so a copy of the script gets a made-up one: listed, not failed,
# while the include is there, and a failure once it is gone.
layers_fresh
mkdir -p "$TMP/layers/tests"
sed 's|^KNOWN = {$|&\n    ("src/tui/model.c", "shortstroke/sim.h"): "a known violation for the test",|' \
	"$DOCS_ROOT/tests/check-layers.sh" >"$TMP/layers/tests/check-layers.sh"
printf '#include "shortstroke/sim.h"\n' >>"$TMP/layers/src/tui/model.c"
out=$(sh "$TMP/layers/tests/check-layers.sh" "$TMP/layers" 2>&1); rc=$?
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q \
	"^known: src/tui/model.c:[0-9]*: src/tui may not include shortstroke/sim.h (of src/sim); a known violation for the test$"; then
	pass "layers: a known violation is listed, not failed"
else
	fail "layers: a known violation is listed, not failed" "exit $rc: $out"
fi
sed -i '/#include "shortstroke\/sim.h"/d' "$TMP/layers/src/tui/model.c"
LAYERS_SH=$TMP/layers/tests/check-layers.sh
layers_try "a known violation that is gone" \
	"^known violation src/tui/model.c includes shortstroke/sim.h is gone"
unset LAYERS_SH
layers_fresh
sed -i 's/^\(| `src\/io` | .*\) | `util`, `drive`, `sim`, `raidplan` |$/\1 | `util`, `drive`, `simm`, `raidplan` |/' \
	"$TMP/layers/docs/architecture.md"
layers_try "a folder the table does not have" "io may include .simm., which is no folder of the table"
layers_fresh
: >"$TMP/layers/include/shortstroke/extra.h"
printf '#include "shortstroke/extra.h"\n' >>"$TMP/layers/src/ops/job.c"
layers_try "a public header no folder owns" "no folder owns shortstroke/extra.h"
rm -rf "$TMP/layers"

# The top level is the one the project names: Makefile, src, include, tests, docs, contrib and
# README.md (dotfiles aside).
if top=$(git -C "$DOCS_ROOT" ls-files 2>/dev/null) && [ -n "$top" ]; then
	top=$(printf '%s\n' "$top" | sed 's|/.*||' | grep -v '^\.' | sort -u | tr '\n' ' ')
	if [ "$top" = "Makefile README.md contrib docs include src tests " ]; then
		pass "top level: Makefile README.md contrib docs include src tests"
	else
		fail "top level: Makefile README.md contrib docs include src tests" "found: $top"
	fi
else
	skip "top level: Makefile README.md contrib docs include src tests" "not a git checkout"
fi

# No limit method is named by its id above the capacity engine (tests/check-methods.sh): the
# front ends and operations decide by its CAPM_* flags (issue 27.1) ...
out=$(sh "$DOCS_ROOT/tests/check-methods.sh" "$DOCS_ROOT" 2>&1); rc=$?
if [ $rc = 0 ] && printf '%s\n' "$out" |
	grep -q '^methods: [1-9][0-9]* method ids, [0-9]* files checked, 0 uses outside src/ops/capacity/$'; then
	pass "methods: no CAP_<METHOD> id outside src/ops/capacity/"
else
	fail "methods: no CAP_<METHOD> id outside src/ops/capacity/" "$out"
fi
# ... and the check fails on a copy of the tree where a front end tests one
rm -rf "$TMP/methods" && mkdir -p "$TMP/methods" && cp -R "$DOCS_ROOT/src" "$DOCS_ROOT/include" "$TMP/methods/"
printf 'static int f(enum cap_method m) { return m == CAP_HPA; }\n' >>"$TMP/methods/src/tui/limit.c"
out=$(sh "$DOCS_ROOT/tests/check-methods.sh" "$TMP/methods" 2>&1); rc=$?
if [ $rc = 1 ] && printf '%s\n' "$out" | grep -q "^src/tui/limit.c:[0-9]*: a limit method by its id" &&
	printf '%s\n' "$out" | grep -q ", 1 uses outside src/ops/capacity/$"; then
	pass "methods: the check fails on a method id in the TUI"
else
	fail "methods: the check fails on a method id in the TUI" "exit $rc: $out"
fi

# The man page's synopsis of each command and its --help name the same options (issue 25.6):
# every option --help lists is in the synopsis (its long or its short form), and every long
# option of the synopsis is in --help.
man_syn=$(python3 - "$HERE/../../docs/man/shortstroke.8" "$PROG" <<'PY'
import re, subprocess, sys
man, prog = sys.argv[1], sys.argv[2]
text = open(man).read()
helptext = subprocess.run([prog, "--help"], capture_output=True, text=True).stdout
cmds = re.findall(r"^  ([a-z]+) ", helptext.split("Commands:")[1].split("\n\n")[0], re.M)
sect = text.split(".SH COMMANDS")[1].split("\n.SH ")[0]
bad = []
for c in cmds:
    m = re.search(r"^\.B %s\b(.*)$" % re.escape(c), sect, re.M)
    if not m:
        bad.append("%s: no synopsis in the man page" % c)
        continue
    syn = re.sub(r"\\f[BIRP]", "", m.group(1)).replace("\\-", "-")
    man_long = set(re.findall(r"(--[a-z][a-z0-9-]*)", syn))
    man_short = set(re.findall(r"(?<![\w-])(-[a-zA-Z])\b", syn))
    h = subprocess.run([prog, c, "--help"], capture_output=True, text=True).stdout
    opts = []  # (short or None, long), from the option lines of --help
    for line in h.splitlines():
        mm = re.match(r"^\s+(-[a-zA-Z]), (--[a-z][a-z0-9-]*)", line) or \
            re.match(r"^\s+()(--[a-z][a-z0-9-]*)", line)
        if not mm:
            continue
        opts.append((mm.group(1) or None, mm.group(2)))
        # "-n, --noheadings, -r, --raw" and "--model P, --serial S": more on the line
        rest = line[mm.end():].split("  ")[0]
        opts += [(a or None, b) for a, b in re.findall(r", (?:(-[a-zA-Z]), )?(--[a-z][a-z0-9-]*)", rest)]
    for s, l in opts:
        if l != "--help" and l not in man_long and (s is None or s not in man_short):
            bad.append("%s: %s is in --help, not in the man page's synopsis" % (c, l))
    for l in sorted(man_long):
        if l not in h:
            bad.append("%s: %s is in the man page's synopsis, not in --help" % (c, l))
print("\n".join(bad))
PY
)
[ -z "$man_syn" ] && pass "man page: each command's synopsis names the options of its --help, and only those" ||
	fail "man page: each command's synopsis names the options of its --help, and only those" "$man_syn"

# The man page's TUI keys (tui's "Keys." list) are the screens' key tables, as
# "tui --list-keys" prints them: the same screens, keys and words, in the same order.
keys_diff=$(python3 - "$DOCS_ROOT/docs/man/shortstroke.8" "$PROG" <<'PY'
import re, subprocess, sys
man, prog = sys.argv[1:3]
want = [l.split("\t") for l in subprocess.run([prog, "tui", "--list-keys"], capture_output=True,
                                              text=True).stdout.splitlines()]
got, on, title = [], False, None
for n, line in enumerate(open(man), 1):
    line = line.rstrip("\n")
    if line.startswith('.\\" tui-keys begin'):
        on = True
    elif line.startswith('.\\" tui-keys end'):
        on = False
    elif on and line.startswith(".B "):
        title = line[3:].rstrip(":")
    elif on and not line.startswith("."):
        m = re.fullmatch(r"\\fB(.+?)\\fR (.+)[;.]", line)
        if not m:
            print("shortstroke.8:%d: not a key line (\\fBKEYS\\fR what;): %s" % (n, line))
            sys.exit(0)
        got.append([title] + [g.replace("\\-", "-") for g in m.groups()])
if not want:
    print("tui --list-keys printed nothing")
for i in range(max(len(want), len(got))):
    w = want[i] if i < len(want) else "(nothing more)"
    g = got[i] if i < len(got) else "(nothing more)"
    if w != g:
        print("key %d: the tables say %s, the man page %s" % (i + 1, w, g))
        break
PY
)
if [ -z "$keys_diff" ]; then
	pass "man page: the TUI's keys are its key tables' (tui --list-keys, $("$PROG" tui --list-keys | wc -l) keys)"
else
	fail "man page: the TUI's keys are its key tables'" "$keys_diff"
fi
