# The man pages render without warnings. GROFF names the program (t_checks.sh sets a
# missing one to see the skip reported).

for m in "$HERE"/../../docs/man/*.8; do
	if ! command -v "${GROFF:-groff}" >/dev/null 2>&1; then
		skip "man page $(basename "$m") renders cleanly" "${GROFF:-groff} is not installed"
		continue
	fi
	w=$("${GROFF:-groff}" -man -ww -z "$m" 2>&1)
	[ -z "$w" ] && pass "man page $(basename "$m") renders cleanly" || fail "man page $(basename "$m")" "$w"
done

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
