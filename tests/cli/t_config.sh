# The configuration file (/etc/shortstroke/shortstroke.conf, here through
# SHORTSTROKE_CONFIG): its state_dir and protect_file are used when neither an
# option nor the environment names one; `config` says which is in force and
# from where; `config --has-journal` (the units' condition) follows a moved
# state directory; a file that does not parse stops every command (exit 2).

C=$TMP/shortstroke.conf
printf '# a comment\n\nstate_dir = %s/moved\nprotect_file=%s/prot.conf\n' "$TMP" "$TMP" >"$C"
: >"$TMP/prot.conf"
cfg() { ( unset SHORTSTROKE_STATE_DIR SHORTSTROKE_PROTECT_FILE; SHORTSTROKE_CONFIG=$C "$@" ); }

OUT=$(cfg "$PROG" config -J 2>&1); RC=$?; ERR=
json_check "config -J: the file's state_dir and protect_file, with their origin" \
	"d['config_file'] == '$C' and d['config_file_present'] and d['state_dir'] == '$TMP/moved' and d['state_dir_from'] == 'configuration file' and d['protect_file'] == '$TMP/prot.conf' and d['protect_file_from'] == 'configuration file' and not d['journal_present']"
OUT=$(cfg "$PROG" config --state-dir "$TMP/opt" -J 2>&1)
json_check "config: --state-dir wins over the file" "d['state_dir'] == '$TMP/opt' and d['state_dir_from'] == '--state-dir'"
OUT=$(cfg env SHORTSTROKE_STATE_DIR="$TMP/env" "$PROG" config -J 2>&1)
json_check "config: SHORTSTROKE_STATE_DIR wins over the file" "d['state_dir'] == '$TMP/env' and d['state_dir_from'] == 'SHORTSTROKE_STATE_DIR'"
OUT=$(cfg "$PROG" config 2>&1); RC=$?; ERR=
expect "config: the text form names the file and the origin" 0 "^State directory: +$TMP/moved \\(configuration file; not present\\)"

# the units' condition: no journal in the moved state directory, then one
OUT=$(cfg "$PROG" config --has-journal 2>&1); RC=$?; ERR=
expect "config --has-journal: no journal yet: exit 1, silent" 1
[ -z "$OUT" ] && pass "config --has-journal prints nothing" || fail "config --has-journal prints nothing" "$OUT"
OUT=$(cfg "$PROG" --demo limit --yes --percent 50 sim:sata250 2>&1); RC=$?; ERR=
expect "limit with the file's state directory" 0
[ -s "$TMP/moved/journal.jsonl" ] && [ ! -e "$TMP/state/journal.jsonl" ] \
	&& pass "the journal went to the file's state_dir" || fail "the journal went to the file's state_dir" "$(ls -R "$TMP" 2>&1 | head -n 20)"
OUT=$(cfg "$PROG" config --has-journal 2>&1); RC=$?; ERR=
expect "config --has-journal follows the moved state directory: exit 0" 0

# the file's protect file protects
serial=$(cfg "$PROG" --demo info -J sim:sata320 | python3 -c "import json,sys; print(json.load(sys.stdin)['serial'])")
echo "serial:$serial" >"$TMP/prot.conf"
OUT=$(cfg "$PROG" --demo limit --yes --percent 50 sim:sata320 2>&1); RC=$?; ERR=
expect "the file's protect_file is in force: refused" 3 "protect"
rm "$TMP/prot.conf"
OUT=$(cfg "$PROG" --demo list 2>&1); RC=$?; ERR=
expect "the file's protect_file missing: exit 2, named with the file" 2 "$C: protect_file $TMP/prot.conf: no such file"

# files that do not parse: one sentence with the file and line, exit 2, nothing run
for bad in 'stat_dir = /x|line 1: unknown key .stat_dir.' 'state_dir = rel/dir|line 1: state_dir must be an absolute path' \
	'state_dir|line 1: not KEY = VALUE' 'state_dir = /a\nstate_dir = /b|line 2: state_dir is set twice' \
	'state_dir =|line 1: state_dir must be an absolute path$'; do
	printf "${bad%%|*}\n" >"$TMP/bad.conf"
	OUT=$(SHORTSTROKE_CONFIG=$TMP/bad.conf "$PROG" --demo list 2>&1); RC=$?; ERR=
	expect "a bad configuration file: ${bad%%|*}" 2 "^shortstroke: SHORTSTROKE_CONFIG: $TMP/bad.conf ${bad#*|}"
done
OUT=$(SHORTSTROKE_CONFIG=$TMP/none.conf "$PROG" --demo list 2>&1); RC=$?; ERR=
expect "SHORTSTROKE_CONFIG naming no file: exit 2" 2 "SHORTSTROKE_CONFIG: configuration file $TMP/none.conf: No such file"
OUT=$(SHORTSTROKE_CONFIG=$TMP/bad.conf "$PROG" --version 2>&1); RC=$?; ERR=
expect "--version works with a bad configuration file" 0 "^shortstroke "
OUT=$("$PROG" config extra 2>&1); RC=$?; ERR=
expect "config: an extra argument is a usage error" 2 "unexpected argument 'extra'"

# the defaults of limit's --method and --align; the options win
printf 'limit_method = hpa\nlimit_align = 4MiB\n' >"$TMP/defaults.conf"
OUT=$(SHORTSTROKE_CONFIG=$TMP/defaults.conf "$PROG" config -J 2>&1)
json_check "config -J: limit_method and limit_align from the file" "d['limit_method'] == 'hpa' and d['limit_align'] == 4194304"
OUT=$("$PROG" config -J 2>&1)
json_check "config -J: the built-in defaults (auto, 1 MiB)" "d['limit_method'] == 'auto' and d['limit_align'] == 1048576"
blocks() { sed -n 's/.* -> \([0-9]*\) blocks .* by \([a-z-]*\).*/\1 \2/p' | head -n 1; }
a=$(SHORTSTROKE_CONFIG=$TMP/defaults.conf "$PROG" --demo limit --dry-run --size 100GB sim:sata250 2>&1 | blocks)
b=$("$PROG" --demo limit --dry-run --size 100GB sim:sata250 2>&1 | blocks)
c=$(SHORTSTROKE_CONFIG=$TMP/defaults.conf "$PROG" --demo limit --dry-run --size 100GB --align 1MiB --method dco sim:sata250 2>&1 | blocks)
[ "$a" = "195305472 hpa" ] && [ "$b" = "195311616 hpa" ] && [ "$c" = "195311616 dco" ] \
	&& pass "limit: the file's limit_align (4 MiB) and limit_method; --align and --method win" \
	|| fail "limit: the file's limit_align (4 MiB) and limit_method; --align and --method win" "$a / $b / $c"
# the file's method is used: the demo's security-frozen SATA disk refuses hpa, as --method hpa
OUT=$(SHORTSTROKE_CONFIG=$TMP/defaults.conf "$PROG" --demo limit --dry-run --size 100GB sim:sata320 2>&1); RC=$?; ERR=
expect "limit: the file's limit_method hpa on a frozen disk: refused as --method hpa is" 1 "security-frozen"
for bad in 'limit_method = foo|unknown limit_method .foo. \(auto, amac' 'limit_align = 10%|limit_align: give a size' \
	'limit_align = 0|limit_align: invalid size'; do
	printf '%s\n' "${bad%%|*}" >"$TMP/bad.conf"
	OUT=$(SHORTSTROKE_CONFIG=$TMP/bad.conf "$PROG" --demo list 2>&1); RC=$?; ERR=
	expect "a bad default: ${bad%%|*}" 2 "^shortstroke: SHORTSTROKE_CONFIG: $TMP/bad.conf line 1: ${bad#*|}"
done
