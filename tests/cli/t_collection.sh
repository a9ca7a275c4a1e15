# contrib/ansible is the collection shortstroke.disks: ansible-doc documents every module
# (options with the global ones, EXAMPLES, RETURN) and the role; ansible-test sanity and
# ansible-lint's production profile pass. Each tool missing is a skip that names it.

COLL=$(cd "$HERE/../../contrib/ansible" && pwd)
# the collection as ansible finds it: ansible_collections/NAMESPACE/NAME (a copy: ansible-test
# and ansible-lint write caches and results beside the files)
CT=$TMP/ac/ansible_collections/shortstroke/disks
mkdir -p "$(dirname "$CT")" && cp -R "$COLL" "$CT"
export ANSIBLE_COLLECTIONS_PATH="$TMP/ac" ANSIBLE_HOME="$TMP/ansible" ANSIBLE_NOCOLOR=1

if ! command -v ansible-doc >/dev/null 2>&1; then
	skip "ansible-doc documents the modules and the role" "ansible-doc is not installed (ansible-core)"
else
	for m in qualify limit apply fleet_summary; do
		OUT=$(ansible-doc "shortstroke.disks.$m" 2>"$TMP/doc.err"); RC=$?; ERR=$(cat "$TMP/doc.err")
		globals=ok
		[ $m = fleet_summary ] || for o in bin rig demo state_dir protect_file sysroot; do
			printf '%s\n' "$OUT" | grep -q "^[-=] $o\$" || globals="missing $o"
		done
		if [ $RC = 0 ] && [ -z "$ERR" ] && [ "$globals" = ok ] && printf '%s\n' "$OUT" | grep -q '^EXAMPLES:' &&
			printf '%s\n' "$OUT" | grep -q '^RETURN VALUES:' &&
			{ [ $m = fleet_summary ] || printf '%s\n' "$OUT" | grep -q '^- rc$'; }; then
			pass "ansible-doc shortstroke.disks.$m: options (the global ones too), EXAMPLES, RETURN$([ $m = fleet_summary ] || echo " with rc")"
		else
			fail "ansible-doc shortstroke.disks.$m: options (the global ones too), EXAMPLES, RETURN" "exit $RC, globals: $globals" "$ERR" "$(printf '%s\n' "$OUT" | head -n 20)"
		fi
	done
	OUT=$(ansible-doc -t role shortstroke.disks.shortstroke 2>"$TMP/doc.err"); RC=$?; ERR=$(cat "$TMP/doc.err")
	[ $RC = 0 ] && [ -z "$ERR" ] && printf '%s\n' "$OUT" | grep -q 'shortstroke_report_dir' &&
		printf '%s\n' "$OUT" | grep -q 'shortstroke_config' \
		&& pass "ansible-doc -t role shortstroke.disks.shortstroke: the role's argument specs" \
		|| fail "ansible-doc -t role shortstroke.disks.shortstroke: the role's argument specs" "exit $RC" "$ERR"
	# the module names of the role's library (before the collection) still resolve
	OUT=$(ansible-doc shortstroke.disks.shortstroke_limit 2>&1); RC=$?; ERR=
	expect "meta/runtime.yml: shortstroke.disks.shortstroke_limit redirects to shortstroke.disks.limit" 0 "SHORTSTROKE.DISKS.LIMIT"
fi

# ansible-test sanity. Its tests run in virtual environments it fills from PyPI, which this
# machine does not reach: each one it asks for is made here with the system's packages
# instead (Debian's pylint, pycodestyle, yamllint, voluptuous, shellcheck), and the run
# repeated. pslint is skipped: it needs PowerShell, and the collection has no PowerShell.
sanity_missing=
for p in ansible-test pylint pycodestyle yamllint shellcheck; do
	command -v $p >/dev/null 2>&1 || sanity_missing="$sanity_missing $p"
done
/usr/bin/python3 -c 'import voluptuous' 2>/dev/null || sanity_missing="$sanity_missing python3-voluptuous"
if [ -n "$sanity_missing" ]; then
	skip "ansible-test sanity" "not installed:$sanity_missing (tests/deps.sh check)"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		OUT=$(cd "$CT" && HOME=$TMP/home ansible-test sanity --local --python-interpreter /usr/bin/python3 \
			--python "$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" \
			--skip-test pslint 2>&1); RC=$?
		v=$(printf '%s\n' "$OUT" | sed -n 's|^FATAL: Python [0-9.]* at "\(.*\)/bin/python" does not have pip available.*|\1|p')
		[ -n "$v" ] || break
		/usr/bin/python3 -m venv --without-pip --system-site-packages "$v" &&
			/usr/bin/python3 -c 'import json, sys, yaml; json.dump({"yaml": True, "cloader": hasattr(yaml, "CLoader")}, open(sys.argv[1], "w"))' "$v/meta.yaml.json" &&
			echo '[]' >"$v/meta.install.json" && : >"$v/marker.txt" || break
	done
	n=$(printf '%s\n' "$OUT" | grep -c '^Running sanity test')
	[ $RC = 0 ] && [ "$n" -ge 25 ] && pass "ansible-test sanity: $n tests passed (pslint skipped: no PowerShell)" \
		|| fail "ansible-test sanity" "exit $RC, $n tests run" "$(printf '%s\n' "$OUT" | grep -v '^Running sanity' | tail -n 30)"
fi

# ansible-lint, the production profile
if ! command -v ansible-lint >/dev/null 2>&1; then
	skip "ansible-lint --profile production" "ansible-lint is not installed (tests/deps.sh check)"
else
	OUT=$(cd "$CT" && HOME=$TMP/home ansible-lint --profile production --offline --nocolor \
		galaxy.yml meta roles plugins 2>&1); RC=$?; ERR=
	expect "ansible-lint --profile production: passed" 0 "^Passed with production profile: 0 failure\\(s\\), 0 warning\\(s\\)"
fi
