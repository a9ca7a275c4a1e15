# make install-contrib (part of make install): the units with the program's
# path filled in and their sandbox rated, the udev rule kept aside (not
# enabled), the completions and the Ansible collection where bash-completion,
# zsh and ansible find them, the configuration file (all commented).

D=$TMP/root
OUT=$(make --no-print-directory -C "$HERE/../.." install-contrib DESTDIR="$D" PREFIX=/usr 2>&1); RC=$?; ERR=
expect "make install-contrib" 0
missing=
for f in lib/systemd/system/shortstroke-reapply.service lib/systemd/system/shortstroke-reapply@.service \
	share/shortstroke/udev/60-shortstroke-reapply.rules share/bash-completion/completions/shortstroke \
	share/zsh/site-functions/_shortstroke share/shortstroke/README.md share/shortstroke/shortstroke.conf \
	share/ansible/collections/ansible_collections/shortstroke/disks/galaxy.yml \
	share/ansible/collections/ansible_collections/shortstroke/disks/roles/shortstroke/tasks/qualify.yml \
	share/ansible/collections/ansible_collections/shortstroke/disks/plugins/modules/limit.py \
	share/ansible/collections/ansible_collections/shortstroke/disks/plugins/modules/apply.py \
	share/ansible/collections/ansible_collections/shortstroke/disks/plugins/module_utils/shortstroke.py; do
	[ -f "$D/usr/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass "installed: units, udev rule, completions, the Ansible collection, the configuration file" || fail "installed: units, udev rule, completions, the Ansible collection, the configuration file" "missing:$missing"
[ ! -e "$D/usr/lib/udev/rules.d/60-shortstroke-reapply.rules" ] && [ "$(cd "$D/etc" && find . ! -type d)" = ./shortstroke/shortstroke.conf ] \
	&& ! grep -q '^[a-z]' "$D/etc/shortstroke/shortstroke.conf" \
	&& pass "nothing enabled: no rule in rules.d; in /etc only the configuration file, every line commented" \
	|| fail "nothing enabled: no rule in rules.d; in /etc only the configuration file, every line commented" "$(find "$D/etc")"
u=$D/usr/lib/systemd/system/shortstroke-reapply.service
grep -q '^ExecStart=/usr/bin/shortstroke reapply$' "$u" && grep -q '^ExecStart=/usr/bin/shortstroke reapply /dev/%I$' "$D/usr/lib/systemd/system/shortstroke-reapply@.service" \
	&& ! grep -rq '@BINDIR@' "$D/usr/lib/systemd" && pass "units: the program's path filled in" || fail "units: the program's path filled in" "$(grep ExecStart "$D"/usr/lib/systemd/system/*)"
grep -q '^DefaultDependencies=no$' "$u" && grep -q '^Before=local-fs-pre.target mdmonitor.service' "$u" \
	&& pass "boot unit: early, before local-fs-pre and mdmonitor" || fail "boot unit: early, before local-fs-pre and mdmonitor" "$(cat "$u")"
# the state directory comes from the configuration file, through the program: no fixed
# path in a condition or the environment
for n in shortstroke-reapply.service shortstroke-reapply@.service; do
	f=$D/usr/lib/systemd/system/$n
	grep -q '^ExecCondition=/usr/bin/shortstroke config --has-journal$' "$f" &&
		! grep -q '^ConditionPathExists=\|^Environment=SHORTSTROKE_STATE_DIR' "$f" &&
		pass "$n: its condition asks shortstroke (the configuration file's state_dir)" ||
		fail "$n: its condition asks shortstroke (the configuration file's state_dir)" "$(grep -v '^#' "$f")"
	# early boot: nothing that orders the unit after the local file systems
	! grep -qE '^(PrivateTmp|StateDirectory|LogsDirectory|CacheDirectory|WorkingDirectory)=' "$f" &&
		pass "$n: no option that needs the local file systems" ||
		fail "$n: no option that needs the local file systems" "$(grep -E '^(PrivateTmp|StateDirectory|WorkingDirectory)' "$f")"
done
# both units carry the same sandbox
# (from its comment to the end of [Service]: the boot unit alone has an [Install])
sandbox() { sed -n '/^# The sandbox/,/^\[/{/^\[/d;/^$/d;p}' "$D/usr/lib/systemd/system/$1"; }
h1=$(sandbox shortstroke-reapply.service)
h2=$(sandbox shortstroke-reapply@.service)
[ -n "$h1" ] && [ "$h1" = "$h2" ] && pass "both units carry the same sandbox" || fail "both units carry the same sandbox" "$h1" "$h2"
if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir -p "$D/usr/bin" && cp "$PROG" "$D/usr/bin/shortstroke"
	for n in shortstroke-reapply.service shortstroke-reapply@sdb.service; do
		OUT=$(systemd-analyze verify --man=no --root="$D" "/usr/lib/systemd/system/$n" 2>&1); RC=$?; ERR=
		[ $RC = 0 ] && [ -z "$OUT" ] && pass "systemd-analyze verify $n" || fail "systemd-analyze verify $n" "$OUT"
		# the exposure systemd-analyze security rates (issue 31: 9.5 before the sandbox)
		OUT=$(systemd-analyze security --offline=true --root="$D" "$n" 2>&1)
		x=$(printf '%s\n' "$OUT" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p')
		if [ -n "$x" ] && awk -v x="$x" 'BEGIN { exit !(x < 5) }'; then
			pass "systemd-analyze security $n: exposure $x, under 5"
		else
			fail "systemd-analyze security $n: exposure under 5" "${x:-no figure}" "$(printf '%s\n' "$OUT" | grep '✗')"
		fi
	done
else
	skip "systemd-analyze verify and security of the units" "systemd-analyze is not installed"
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

# make install and make uninstall (Debian's multiarch libdir, sbin for the daemon): every
# installed man page has its program or library function, every program its page; the
# uninstall leaves nothing but the configuration file (as a package's purge would)
D=$TMP/root-all
OUT=$(make --no-print-directory -C "$HERE/../.." install DESTDIR="$D" PREFIX=/usr BUILD="$(dirname "$PROG")" 2>&1); RC=$?; ERR=
expect "make install" 0
ma=$(cc -print-multiarch)
[ -x "$D/usr/bin/shortstroke" ] && [ -x "$D/usr/sbin/shortstroke-simd" ] && [ -f "$D/usr/lib/$ma/libraidplan.so.2" ] \
	&& [ -f "$D/usr/lib/$ma/pkgconfig/raidplan.pc" ] && [ -f "$D/etc/shortstroke/shortstroke.conf" ] \
	&& [ -f "$D/usr/share/ansible/collections/ansible_collections/shortstroke/disks/galaxy.yml" ] \
	&& pass "installed: shortstroke in bin, shortstroke-simd in sbin, the library in lib/$ma, the configuration file, the collection" \
	|| fail "installed: shortstroke in bin, shortstroke-simd in sbin, the library in lib/$ma, the configuration file, the collection" "$(cd "$D" && find . -maxdepth 4 | sort | head -n 40)"
miss=
for m in "$D"/usr/share/man/man8/*.8; do
	n=$(basename "$m" .8)
	[ -x "$D/usr/bin/$n" ] || [ -x "$D/usr/sbin/$n" ] || miss="$miss page-without-program:$n"
done
for p in "$D"/usr/bin/* "$D"/usr/sbin/*; do
	[ -f "$D/usr/share/man/man8/$(basename "$p").8" ] || [ -f "$D/usr/share/man/man1/$(basename "$p").1" ] ||
		miss="$miss program-without-page:$(basename "$p")"
done
for m in "$D"/usr/share/man/man3/*.3; do
	n=$(basename "$m" .3)
	[ "$n" = raidplan ] || grep -q "^RP_EXPORT .*[ *]$n(" "$HERE/../../include/raidplan.h" || miss="$miss page-without-function:$n"
done
[ -z "$miss" ] && pass "every installed man page has its program (or function), every program its page" \
	|| fail "every installed man page has its program (or function), every program its page" "$miss"
echo "# a local change" >>"$D/etc/shortstroke/shortstroke.conf"
OUT=$(make --no-print-directory -C "$HERE/../.." install-contrib DESTDIR="$D" PREFIX=/usr 2>&1)
grep -q "a local change" "$D/etc/shortstroke/shortstroke.conf" && pass "make install keeps an existing configuration file" \
	|| fail "make install keeps an existing configuration file"
OUT=$(make --no-print-directory -C "$HERE/../.." uninstall DESTDIR="$D" PREFIX=/usr BUILD="$(dirname "$PROG")" 2>&1); RC=$?; ERR=
expect "make uninstall" 0
left=$(cd "$D" && find . ! -type d | sort)
[ "$left" = "./etc/shortstroke/shortstroke.conf" ] && [ ! -d "$D/usr" ] \
	&& pass "make uninstall removed everything it installed (and its empty directories), kept the configuration" \
	|| fail "make uninstall removed everything it installed (and its empty directories), kept the configuration" "$left" "$(cd "$D" && find . -type d | head)"
