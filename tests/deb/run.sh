#!/bin/sh
# run.sh DIR - the Debian packages (make check-deb, part of make check): build them with
# dpkg-buildpackage (make deb, into DIR), lintian (every tag it prints is a failure; the
# explained ones are in contrib/debian/*.lintian-overrides), then install them into a
# throwaway root with dpkg --root, run the program from the installed files (shortstroke
# --demo list, with the installed configuration file), build and run a program against the
# installed library with its pkg-config file, and purge them: nothing of theirs may stay.
# Closing line: "deb: N passed, N failed".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${1:-build/debian}
. "$ROOT/tests/cli/lib.sh" # pass, fail, skip and their counts
WORK=$(mktemp -d "${TMPDIR:-/tmp}/shortstroke-deb.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

closing() {
	if [ "$SKIP" -gt 0 ]; then
		echo "skipped:$SKIPPED_NAMES"
		echo "deb: $PASS passed, $FAIL failed, $SKIP skipped"
	else
		echo "deb: $PASS passed, $FAIL failed"
	fi
	[ "$FAIL" -eq 0 ] || { echo "failed:$FAILED_NAMES"; exit 1; }
	exit 0
}

missing=
for t in dpkg-buildpackage dh lintian fakeroot; do
	command -v $t >/dev/null 2>&1 || missing="$missing $t"
done
if [ -n "$missing" ]; then
	skip "the Debian packages" "not installed:$missing (tests/deps.sh check: dpkg-dev debhelper lintian fakeroot)"
	closing
fi

t0=$(date +%s)
if make --no-print-directory -C "$ROOT" deb >"$WORK/deb.log" 2>&1; then
	pass "dpkg-buildpackage: $(cd "$ROOT/$DIR" && ls shortstroke_*.deb libraidplan2_*.deb libraidplan-dev_*.deb | tr '\n' ' ')($(($(date +%s) - t0)) s)"
else
	fail "dpkg-buildpackage" "$(tail -n 30 "$WORK/deb.log")"
	closing
fi
cd "$ROOT/$DIR" || exit 2
V=$(dpkg-parsechangelog -l "$ROOT/contrib/debian/changelog" -S Version)
A=$(dpkg --print-architecture)
DEBS="shortstroke_${V}_$A.deb libraidplan2_${V}_$A.deb libraidplan-dev_${V}_$A.deb"

OUT=$(lintian -I --pedantic shortstroke_${V}_$A.changes 2>&1 |
	grep -v '^running with root privileges')
[ -z "$OUT" ] && pass "lintian -I --pedantic: no tag (the explained ones overridden: contrib/debian/shortstroke.lintian-overrides)" \
	|| fail "lintian -I --pedantic: no tag" "$OUT"

# what each package holds
has() { dpkg-deb -c "$1" | awk '{ print $6 }' | grep -qx "$2" || echo " $1:$2"; }
miss=$(has shortstroke_${V}_$A.deb ./usr/bin/shortstroke; has shortstroke_${V}_$A.deb ./usr/sbin/shortstroke-simd
	has shortstroke_${V}_$A.deb ./lib/systemd/system/shortstroke-reapply.service
	has shortstroke_${V}_$A.deb ./lib/systemd/system/shortstroke-reapply@.service
	has shortstroke_${V}_$A.deb ./usr/share/shortstroke/udev/60-shortstroke-reapply.rules
	has shortstroke_${V}_$A.deb ./usr/share/bash-completion/completions/shortstroke
	has shortstroke_${V}_$A.deb ./usr/share/zsh/vendor-completions/_shortstroke
	has shortstroke_${V}_$A.deb ./usr/share/man/man8/shortstroke.8.gz
	has shortstroke_${V}_$A.deb ./usr/share/man/man8/shortstroke-simd.8.gz
	has shortstroke_${V}_$A.deb ./etc/shortstroke/shortstroke.conf
	has shortstroke_${V}_$A.deb ./usr/share/ansible/collections/ansible_collections/shortstroke/disks/galaxy.yml
	has libraidplan2_${V}_$A.deb ./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libraidplan.so.2
	has libraidplan-dev_${V}_$A.deb ./usr/include/raidplan.h
	has libraidplan-dev_${V}_$A.deb ./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libraidplan.a
	has libraidplan-dev_${V}_$A.deb ./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/pkgconfig/raidplan.pc
	has libraidplan-dev_${V}_$A.deb ./usr/share/man/man3/raidplan.3.gz)
[ -z "$miss" ] && pass "the packages hold the program, the daemon, units, udev rule, completions, man pages, configuration, collection; the library; header, .a, .pc, raidplan(3)" \
	|| fail "the packages hold what they should" "missing:$miss"
[ "$(dpkg-deb -I shortstroke_${V}_$A.deb conffiles)" = /etc/shortstroke/shortstroke.conf ] \
	&& pass "shortstroke.conf is a conffile" || fail "shortstroke.conf is a conffile" "$(dpkg-deb -I shortstroke_${V}_$A.deb conffiles 2>&1)"

# a throwaway root: an empty dpkg database; the libraries the program needs are the
# host's (--force-depends); maintainer scripts run outside the root with DPKG_ROOT set
R=$WORK/root
mkdir -p "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/triggers"
: >"$R/var/lib/dpkg/status"; : >"$R/var/lib/dpkg/available"
D="dpkg --root=$R --force-depends --force-script-chrootless --log=/dev/null"
# shellcheck disable=SC2086 # the command and the packages are words
if $D -i $DEBS >"$WORK/install.log" 2>&1 &&
	[ "$(dpkg-query --root="$R" -W -f='${db:Status-Abbrev}\n' shortstroke libraidplan2 libraidplan-dev | sort -u)" = "ii " ]; then
	pass "dpkg --root: the three packages installed (ii)"
else
	fail "dpkg --root: the three packages installed" "$(tail -n 20 "$WORK/install.log")"
fi
OUT=$(SHORTSTROKE_CONFIG=$R/etc/shortstroke/shortstroke.conf SHORTSTROKE_STATE_DIR=$WORK/state \
	"$R/usr/bin/shortstroke" --demo list 2>"$WORK/err"); RC=$?; ERR=$(cat "$WORK/err")
expect "the installed shortstroke --demo list (with the installed configuration file)" 0 "^sim:sas15k +sas "
OUT=$(SHORTSTROKE_CONFIG=$R/etc/shortstroke/shortstroke.conf "$R/usr/sbin/shortstroke-simd" --help 2>&1); RC=$?; ERR=
expect "the installed shortstroke-simd --help" 0 "shortstroke-simd"
ML=$R/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
flags=$(PKG_CONFIG_PATH=$ML/pkgconfig pkg-config --define-variable=prefix="$R/usr" --cflags --libs raidplan)
# shellcheck disable=SC2086 # the flags are words
if cc -std=gnu11 -Wall -Werror -o "$WORK/caller" "$ROOT/tests/abi/caller.c" $flags 2>"$WORK/cc.log" &&
	LD_LIBRARY_PATH=$ML "$WORK/caller" >"$WORK/caller.txt" 2>&1 &&
	grep -q "^libraidplan .*, API 2 " "$WORK/caller.txt"; then
	pass "a program built with the installed raidplan.pc runs on the installed libraidplan.so.2"
else
	fail "a program built with the installed raidplan.pc runs on the installed libraidplan.so.2" "$flags" "$(cat "$WORK/cc.log" "$WORK/caller.txt" 2>&1 | head)"
fi
# shellcheck disable=SC2086
if $D --purge shortstroke libraidplan-dev libraidplan2 >"$WORK/purge.log" 2>&1; then
	left=$(cd "$R" && find . ! -type d ! -path './var/lib/dpkg/*' | sort)
	dirs=$(cd "$R" && find . -mindepth 1 -type d ! -path './var*' | sort)
	[ -z "$left" ] && [ -z "$dirs" ] && [ -z "$(dpkg-query --root="$R" -W 2>/dev/null)" ] \
		&& pass "dpkg --purge: nothing of the packages left (files, directories, the conffile, the database)" \
		|| fail "dpkg --purge: nothing of the packages left" "$left" "$dirs"
else
	fail "dpkg --purge" "$(tail -n 20 "$WORK/purge.log")"
fi
closing
