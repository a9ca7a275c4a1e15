# make install-contrib (part of make install): the units with the program's
# path filled in, the udev rule kept aside (not enabled), the completions and
# the Ansible role where bash-completion, zsh and a roles_path find them.

D=$TMP/root
OUT=$(make --no-print-directory -C "$HERE/../.." install-contrib DESTDIR="$D" PREFIX=/usr 2>&1); RC=$?; ERR=
expect "make install-contrib" 0
missing=
for f in lib/systemd/system/shortstroke-reapply.service lib/systemd/system/shortstroke-reapply@.service \
	share/shortstroke/udev/60-shortstroke-reapply.rules share/bash-completion/completions/shortstroke \
	share/zsh/site-functions/_shortstroke share/shortstroke/README.md \
	share/shortstroke/ansible/roles/shortstroke/tasks/qualify.yml \
	share/shortstroke/ansible/roles/shortstroke/library/shortstroke_limit.py \
	share/shortstroke/ansible/roles/shortstroke/tasks/apply.yml \
	share/shortstroke/ansible/roles/shortstroke/library/shortstroke_apply.py \
	share/shortstroke/ansible/roles/shortstroke/module_utils/shortstroke.py; do
	[ -f "$D/usr/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass "installed: units, udev rule, completions, role" || fail "installed: units, udev rule, completions, role" "missing:$missing"
[ ! -e "$D/usr/lib/udev/rules.d/60-shortstroke-reapply.rules" ] && [ ! -e "$D/etc" ] \
	&& pass "nothing enabled: no rule in rules.d, nothing in /etc" || fail "nothing enabled: no rule in rules.d, nothing in /etc"
u=$D/usr/lib/systemd/system/shortstroke-reapply.service
grep -q '^ExecStart=/usr/bin/shortstroke reapply$' "$u" && grep -q '^ExecStart=/usr/bin/shortstroke reapply /dev/%I$' "$D/usr/lib/systemd/system/shortstroke-reapply@.service" \
	&& ! grep -rq '@BINDIR@' "$D/usr/lib/systemd" && pass "units: the program's path filled in" || fail "units: the program's path filled in" "$(grep ExecStart "$D"/usr/lib/systemd/system/*)"
grep -q '^DefaultDependencies=no$' "$u" && grep -q '^Before=local-fs-pre.target mdmonitor.service' "$u" \
	&& pass "boot unit: early, before local-fs-pre and mdmonitor" || fail "boot unit: early, before local-fs-pre and mdmonitor" "$(cat "$u")"
if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir -p "$D/usr/bin" && cp "$PROG" "$D/usr/bin/shortstroke"
	for n in shortstroke-reapply.service shortstroke-reapply@sdb.service; do
		OUT=$(systemd-analyze verify --man=no --root="$D" "/usr/lib/systemd/system/$n" 2>&1); RC=$?; ERR=
		[ $RC = 0 ] && [ -z "$OUT" ] && pass "systemd-analyze verify $n" || fail "systemd-analyze verify $n" "$OUT"
	done
fi

# make install-man (part of make install): every page of docs/man/, where man finds it.
D=$TMP/root-man
OUT=$(make --no-print-directory -C "$HERE/../.." install-man DESTDIR="$D" PREFIX=/usr 2>&1); RC=$?; ERR=
expect "make install-man" 0
missing=
for m in "$HERE"/../../docs/man/*.8; do
	cmp -s "$m" "$D/usr/share/man/man8/$(basename "$m")" || missing="$missing $(basename "$m")"
done
[ -z "$missing" ] && [ -f "$D/usr/share/man/man8/shortstroke.8" ] \
	&& [ -f "$D/usr/share/man/man8/shortstroke-simd.8" ] \
	&& pass "installed: the man pages of docs/man (shortstroke.8, shortstroke-simd.8)" \
	|| fail "installed: the man pages of docs/man (shortstroke.8, shortstroke-simd.8)" \
		"missing or different:$missing; $(ls -R "$D" 2>&1)"
