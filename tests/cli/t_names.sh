# Names typed outside the program agree with the program's tables (issue 27.2): the limit
# methods (`limit --list-methods`, from the capacity engine's method table) with the bash and
# zsh completions' answers and the choices of the Ansible modules and role; the bench
# workloads (`bench --list-workloads`, the I/O engine's table) with the completions'; the
# simulator's fault names (`sim fault --list`, sim_fault.c's table) with docs/simulator.md.
# Each check fails naming what differs.

ROOT=$HERE/../..
run "$PROG" limit --list-methods
expect "limit --list-methods: auto first, then the table, each with what it does" 0 \
	"^ +auto  amac, else hpa, else scsi-resize: the first the drive supports"
methods=$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')
run "$PROG" restore --list-methods
[ "$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')" = "$methods" ] &&
	pass "restore --list-methods: the same list" ||
	fail "restore --list-methods: the same list" "limit: $methods" "restore: $OUT"
# every name limit answers an unknown method with, and only those
run "$PROG" --demo limit --size 10GB -m bogus sim:sata250
want=$(printf '%s' "$methods" | sed 's/ $//; s/ /, /g')
expect "limit -m bogus: the same names" 2 "" "unknown method 'bogus' \($want\)"

sorted() { printf '%s\n' "$@" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' '; }
same() { # NAME WANT GOT
	if [ "$(sorted $2)" = "$(sorted $3)" ]; then pass "$1"; else fail "$1" "want: $(sorted $2)" "got:  $(sorted $3)"; fi
}

# completion (as t_completion.sh drives it)
cat >"$TMP/c.bash" <<'EOF2'
. "$1"; shift
line=$1
COMP_LINE=$line COMP_POINT=${#line}
IFS=$'\n' COMP_WORDS=($(printf '%s' "$line" | tr -s ' ' '\n'))
unset IFS
case $line in *' ') COMP_WORDS+=("") ;; esac
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_shortstroke
printf '%s\n' "${COMPREPLY[@]}"
EOF2
bcomp() { bash "$TMP/c.bash" "$ROOT/contrib/completion/shortstroke.bash" "$1" 2>/dev/null | tr '\n' ' '; }
same "bash completion of --method: the method table" "$methods" "$(bcomp "$PROG limit --method ")"
run "$PROG" bench --list-workloads
expect "bench --list-workloads: each with its sizes and shares" 0 \
	"^ +database  IOMeter: 8 KiB, 67 % reads, 100 % random"
workloads=$(printf '%s\n' "$OUT" | awk '{ print $1 }' | tr '\n' ' ')
same "bash completion of --workload: the workload table" "$workloads" "$(bcomp "$PROG bench -w ")"
run "$PROG" --demo bench -w bogus sim:sata250
want=$(printf '%s' "$workloads" | sed 's/ $//; s/ /, /g')
expect "bench -w bogus: the same names" 2 "" "unknown workload 'bogus' \($want\)"
if command -v zsh >/dev/null 2>&1; then
	cat >"$TMP/c.zsh" <<'EOF2'
compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift
	print -r -- $@ }
source $1 >/dev/null; shift
words=("$@"); CURRENT=$#words; PREFIX=$words[-1]; _shortstroke
EOF2
	zcomp() { zsh -f "$TMP/c.zsh" "$ROOT/contrib/completion/_shortstroke" "$@" 2>/dev/null; }
	same "zsh completion of --method: the method table" "$methods" "$(zcomp "$PROG" limit -m "")"
	same "zsh completion of --workload: the workload table" "$workloads" "$(zcomp "$PROG" bench --workload "")"
else
	skip "zsh completion: the method and workload tables" "zsh is not installed"
fi

# the Ansible modules' method choices (documentation and argument spec) and the role's
# limit_method choices
ansible=$(python3 - "$ROOT/contrib/ansible" <<'PY'
import re, sys
root = sys.argv[1]
for mod in ("limit", "apply"):
    src = open("%s/plugins/modules/%s.py" % (root, mod)).read()
    doc = re.search(r"^  method:\n(?:    .*\n)*?    choices: \[(.*)\]", src, re.M)
    code = re.search(r"method=dict\([^)]*choices=\[([^\]]*)\]", src, re.S)
    print("%s.py DOCUMENTATION:%s" % (mod, "".join((doc.group(1) if doc else "").split())))
    print("%s.py argument_spec:%s" % (mod, "".join((code.group(1) if code else "").replace("'", "").split())))
spec = open("%s/roles/shortstroke/meta/argument_specs.yml" % root).read()
m = re.search(r"^ +limit_method:\n(?: +.*\n)*? +choices: \[(.*)\]", spec, re.M)
print("argument_specs.yml limit_method:%s" % "".join((m.group(1) if m else "").split()))
PY
)
printf '%s\n' "$ansible" | while IFS=: read -r where list; do
	same "ansible $where: the method table" "$methods" "$(printf '%s' "$list" | tr ',' ' ')"
done >"$TMP/ansible.out"
cat "$TMP/ansible.out"
PASS=$((PASS + $(grep -c '^ok - ' "$TMP/ansible.out")))
n=$(grep -c '^not ok - ' "$TMP/ansible.out")
[ "$n" = 0 ] || fail "ansible choices: $n disagree with limit --list-methods (above)"
[ "$(grep -c '^ok - ' "$TMP/ansible.out")" = 5 ] ||
	fail "ansible: five lists of choices found (limit.py and apply.py twice, the role once)" "$ansible"

# the simulator's fault names, each described in docs/simulator.md
run "$PROG" sim fault --list
expect "sim fault --list: the fault table" 0 "^medium-error$"
missing=
for f in $OUT; do
	grep -q "^| \`$f[:[\`]" "$ROOT/docs/simulator.md" || missing="$missing $f"
done
[ -z "$missing" ] && [ -n "$OUT" ] && pass "docs/simulator.md describes every fault of sim fault --list (its table's rows)" ||
	fail "docs/simulator.md describes every fault of sim fault --list (its table's rows)" "missing:$missing"
want=$(printf '%s\n' $OUT | paste -sd, - | sed 's/,/, /g')
run "$PROG" --demo sim fault sim:sata320 bogus
expect "sim fault bogus: the same names" 2 "" "unknown fault \"bogus\" \($want\)"
