#!/bin/sh
# run.sh [BUILD] - libraidplan's ABI, the suite of `make check-abi` (part of make check);
# docs/planning-model.md, "The library's ABI". BUILD holds the freshly built library
# (default build). Closing line: "abi: N passed, N failed".
#   - its soname (libraidplan.so.RP_API_VERSION, the links beside it) and its exports
#     (exactly the RP_EXPORT functions of include/raidplan.h, each in a RAIDPLAN_ node);
#   - abidiff of the baseline of its soname, tests/abi/libraidplan.so.N.abi, against it, with
#     the suppressions of tests/abi/libraidplan.suppr (members appended to the sized
#     structs), and the public structs' layouts (layout.py);
#   - that the check tells, on patched copies of the library built in a temporary directory:
#     a field appended to struct rp_disk passes, and a program built against the old header
#     runs on that library unchanged, while one built against the new header that sets the
#     field is refused by the old library (-E2BIG); a member's type changed, a function
#     removed, an enumerator's value changed fail; a function added is a compatible
#     addition (make abi-baseline);
#   - make install DESTDIR=...: the library, its links, raidplan.pc and raidplan.h, and a
#     program built with pkg-config runs against the installed library; a static one with
#     pkg-config --static; raidplan(3)'s example; a man page per exported function;
#   - the library under ThreadSanitizer (threads.c), as raidplan(3) claims it thread-safe.
# run.sh --baseline [BUILD]: record BUILD's library as the baseline (make abi-baseline).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUPPR=$HERE/libraidplan.suppr
ABIDW="abidw --no-corpus-path --no-comp-dir-path --short-locs --drop-private-types --load-all-types"

hdr_value() { sed -n "s/^#define $1 \"*\([^\"]*\)\"*\$/\1/p" "$2"; }
MAJOR=$(hdr_value RP_API_VERSION "$ROOT/include/raidplan.h")
VERSION=$(hdr_value RP_VERSION_STRING "$ROOT/include/raidplan.h")
BASELINE=$HERE/libraidplan.so.$MAJOR.abi
# the next minor version, the last field of struct rp_disk (abi.c's SIZED line) and the last
# version node of the map: where the self-tests below append a field, a version, a node
MINOR=$(echo "$VERSION" | cut -d. -f2)
NEXT_VERSION=$MAJOR.$((MINOR + 1)).0
DISK_LAST=$(sed -n 's/^SIZED(rp_disk, "rp_disk_init()", [a-z_0-9]*, \([a-z_0-9]*\));$/\1/p' \
	"$ROOT/src/raidplan/abi.c")
LAST_NODE=$(grep -oE '^RAIDPLAN_[0-9]+\.[0-9]+' "$ROOT/src/raidplan/raidplan.map" | tail -n 1)
NEXT_NODE=RAIDPLAN_$MAJOR.$((${LAST_NODE##*.} + 1))
export NEXT_NODE LAST_NODE # for the scratch scripts (sh -c)

if [ "${1:-}" = --baseline ]; then
	lib=${2:-build}/libraidplan.so.$VERSION
	$ABIDW --headers-dir "$ROOT/include" --out-file "$BASELINE" "$lib" || exit 1
	echo "${BASELINE#"$ROOT"/}: the ABI of libraidplan $VERSION; commit it"
	exit 0
fi

BUILD=$(cd "${1:-build}" && pwd) || exit 2
LIB=$BUILD/libraidplan.so.$VERSION
WORK=$(mktemp -d "${TMPDIR:-/tmp}/shortstroke-abi.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
. "$ROOT/tests/cli/lib.sh" # pass, fail and their counts

# abi_check LIB HEADERS OUT: LIB's ABI against the baseline. Returns 0 (the same, or
# members appended to sized structs), 1 (a compatible addition: functions or types added) or
# 2 (incompatible); OUT gets the verdict, what to do and abidiff's report.
abi_check() {
	lib=$1 hdrs=$2 out=$3
	if [ ! -f "$BASELINE" ]; then
		echo "no baseline ${BASELINE#"$ROOT"/} for libraidplan.so.$MAJOR: record it with" \
			"'make abi-baseline' and commit it" >"$out"
		return 2
	fi
	if ! $ABIDW --headers-dir "$hdrs" --out-file "$out.abi" "$lib" >"$out" 2>&1; then
		echo "abidw could not read $lib" >>"$out"
		return 2
	fi
	abidiff --non-reachable-types --suppressions "$SUPPR" "$BASELINE" "$out.abi" \
		>"$out.diff" 2>&1
	drc=$?
	python3 "$HERE/layout.py" "$BASELINE" "$out.abi" "$SUPPR" >"$out.layout" 2>&1
	lrc=$?
	# removed or changed functions, variables or types (abidiff's summary lines)
	gone=$(grep -iE "summary: " "$out.diff" | grep -ioE "[0-9]+ (removed|changed)" |
		awk '$1 > 0')
	if [ "$lrc" -ne 0 ] || [ $((drc & 8)) -ne 0 ] || [ -n "$gone" ] ||
		{ [ "$drc" -ne 0 ] && [ "$drc" -ne 4 ]; }; then
		cat >"$out" <<-EOF
		libraidplan's ABI changed incompatibly against ${BASELINE#"$ROOT"/}: a function
		removed or changed, a struct's member changed, an enumerator's value changed (the
		report below). Programs linked against libraidplan.so.$MAJOR would break. Undo it
		(a new field goes at the end of a sized struct: docs/planning-model.md, "The
		library's ABI"), or bump the soname: RP_API_VERSION in include/raidplan.h (the
		soname follows it), a new version node in src/raidplan/raidplan.map, then record
		the new baseline with 'make abi-baseline' and commit it.
		EOF
		rc=2
	elif [ "$drc" -ne 0 ]; then
		cat >"$out" <<-EOF
		libraidplan's ABI grew against ${BASELINE#"$ROOT"/}: functions or types added, nothing
		removed or changed (the report below). A compatible addition: put new functions
		in a new version node of src/raidplan/raidplan.map (RAIDPLAN_$MAJOR.N, after the
		last), raise the minor number of RP_VERSION_STRING, then record the baseline with
		'make abi-baseline' and commit it.
		EOF
		rc=1
	else
		echo "the ABI of ${BASELINE#"$ROOT"/} (members appended to sized structs allowed)" >"$out"
		rc=0
	fi
	{
		echo "--- abidiff $(basename "$BASELINE") $(basename "$lib") (exit $drc)"
		cat "$out.diff"
		[ "$lrc" -eq 0 ] || { echo "--- public struct layouts"; cat "$out.layout"; }
	} >>"$out"
	return $rc
}

# ---- the library as built ---------------------------------------------------------------

if [ ! -f "$LIB" ]; then
	fail "libraidplan.so.$VERSION built" "no $LIB (make raidplan)"
	echo "abi: $PASS passed, $FAIL failed"
	exit 1
fi
soname=$(readelf -d "$LIB" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = "libraidplan.so.$MAJOR" ] &&
	[ "$(readlink "$BUILD/libraidplan.so.$MAJOR")" = "libraidplan.so.$VERSION" ] &&
	[ "$(readlink "$BUILD/libraidplan.so")" = "libraidplan.so.$MAJOR" ]; then
	pass "soname libraidplan.so.$MAJOR, the links beside libraidplan.so.$VERSION"
else
	fail "soname libraidplan.so.$MAJOR, the links beside libraidplan.so.$VERSION" \
		"SONAME '$soname'; $(ls -l "$BUILD"/libraidplan.so*)"
fi

# exports: exactly the header's RP_EXPORT functions, each in a versioned node
grep '^RP_EXPORT' "$ROOT/include/raidplan.h" |
	sed -E 's/^[^(]*[^a-z0-9_](rp_[a-z0-9_]+)\(.*/\1/' | sort >"$WORK/header.txt"
nm -D --defined-only "$LIB" | awk '$2 == "T" { print $3 }' >"$WORK/nm.txt"
sed 's/@.*//' "$WORK/nm.txt" | sort >"$WORK/exports.txt"
unversioned=$(grep -v "@@RAIDPLAN_$MAJOR\." "$WORK/nm.txt")
if cmp -s "$WORK/header.txt" "$WORK/exports.txt" && [ -z "$unversioned" ] &&
	[ "$(wc -l <"$WORK/exports.txt")" -gt 30 ]; then
	pass "exports: the $(wc -l <"$WORK/exports.txt") RP_EXPORT functions of raidplan.h, in RAIDPLAN_$MAJOR.x nodes"
else
	fail "exports: the RP_EXPORT functions of raidplan.h, in RAIDPLAN_$MAJOR.x nodes" \
		"header (<) vs library (>):" "$(diff "$WORK/header.txt" "$WORK/exports.txt")" \
		"not in a RAIDPLAN_$MAJOR.x node: $unversioned"
fi

abi_check "$LIB" "$ROOT/include" "$WORK/built.txt"
case $? in
0) pass "libraidplan.so.$VERSION has $(head -n 1 "$WORK/built.txt")" ;;
*) fail "libraidplan.so.$VERSION has the ABI of ${BASELINE#"$ROOT"/}" "$(cat "$WORK/built.txt")" ;;
esac

# ---- the check tells: patched copies of the library -------------------------------------

# scratch NAME SCRIPT: a copy of the library's sources in $WORK/NAME, SCRIPT run there (sh -c),
# built; prints the library's path (empty when it does not build, the log in NAME.log).
scratch() {
	d=$WORK/$1
	mkdir -p "$d/src"
	cp -R "$ROOT/Makefile" "$ROOT/include" "$d/" && cp -R "$ROOT/src/raidplan" "$d/src/"
	(cd "$d" && sh -c "$2") >"$d.log" 2>&1 &&
		nice make --no-print-directory -C "$d" -j2 BUILD=b raidplan >>"$d.log" 2>&1 &&
		ls "$d"/b/libraidplan.so.*.*.*
}

# expect_check NAME LIB HEADERS RC PATTERN: abi_check gives RC and its message matches PATTERN
expect_check() {
	if [ -z "$2" ]; then
		fail "$1" "the patched library did not build: $(tail -n 20 "$WORK"/*.log)"
		return
	fi
	abi_check "$2" "$3" "$WORK/check.txt"
	got=$?
	if [ "$got" = "$4" ] && grep -qE "$5" "$WORK/check.txt"; then
		pass "$1"
	else
		fail "$1" "abi_check: $got, expected $4 with /$5/" "$(head -n 40 "$WORK/check.txt")"
	fi
}

# A field appended to struct rp_disk, as docs/planning-model.md says: after the last field,
# abi.c's assertion naming it, the minor version raised.
new=$(scratch appended "
	python3 - <<'PY' && grep -q test_appended include/raidplan.h && grep -q 'ure_per_bit, test_appended' src/raidplan/abi.c
import re
h = open('include/raidplan.h').read()
i = h.index('struct rp_disk {')
j = h.index('\n};', i)
h = h[:j] + '\n\tdouble test_appended; /* appended by tests/abi/run.sh */' + h[j:]
h = h.replace('#define RP_VERSION_STRING \"$VERSION\"', '#define RP_VERSION_STRING \"$NEXT_VERSION\"')
open('include/raidplan.h', 'w').write(h)
a = open('src/raidplan/abi.c').read()
a = a.replace('ure_per_bit, $DISK_LAST);', 'ure_per_bit, test_appended);')
open('src/raidplan/abi.c', 'w').write(a)
PY
")
expect_check "check: a field appended to struct rp_disk passes" "$new" "$WORK/appended/include" \
	0 "members appended to sized structs allowed"

# The same program on the old and the new library: one built against this header runs on the
# library with the appended field, the fields it does not have taking their defaults.
caller() { # caller OUT HEADERS CFLAGS...: tests/abi/caller.c linked against $BUILD's library
	out=$1 inc=$2
	shift 2
	cc -std=gnu11 -O1 -I"$inc" "$@" -o "$out" "$HERE/caller.c" -L"$BUILD" -lraidplan -lm
}
if [ -n "$new" ] && caller "$WORK/old_prog" "$ROOT/include" 2>"$WORK/cc.log" &&
	caller "$WORK/new_prog" "$WORK/appended/include" -DNEW_FIELD=test_appended 2>>"$WORK/cc.log" &&
	caller "$WORK/new_prog_set" "$WORK/appended/include" -DNEW_FIELD=test_appended \
		-DNEW_VALUE=4 2>>"$WORK/cc.log"; then
	LD_LIBRARY_PATH=$BUILD "$WORK/old_prog" >"$WORK/old_old.txt" 2>&1
	r1=$?
	LD_LIBRARY_PATH=$(dirname "$new") "$WORK/old_prog" >"$WORK/old_new.txt" 2>&1
	r2=$?
	if [ $r1 = 0 ] && [ $r2 = 0 ] &&
		[ "$(head -n 1 "$WORK/old_new.txt")" = "libraidplan $NEXT_VERSION, API $MAJOR (built against $VERSION)" ] &&
		[ "$(tail -n +2 "$WORK/old_old.txt")" = "$(tail -n +2 "$WORK/old_new.txt")" ] &&
		[ "$(wc -l <"$WORK/old_old.txt")" -gt 40 ]; then
		pass "a program built against raidplan.h $VERSION runs on the library with the field: the same figures"
	else
		fail "a program built against raidplan.h $VERSION runs on the library with the field: the same figures" \
			"exit $r1 / $r2" "$(diff "$WORK/old_old.txt" "$WORK/old_new.txt" | head -n 20)"
	fi
	LD_LIBRARY_PATH=$BUILD "$WORK/new_prog" >"$WORK/new_old.txt" 2>&1
	r1=$?
	LD_LIBRARY_PATH=$BUILD "$WORK/new_prog_set" >"$WORK/newset_old.txt" 2>&1
	r2=$?
	LD_LIBRARY_PATH=$(dirname "$new") "$WORK/new_prog_set" >"$WORK/newset_new.txt" 2>&1
	r3=$?
	if [ $r1 = 0 ] && [ "$(tail -n +2 "$WORK/new_old.txt")" = "$(tail -n +2 "$WORK/old_old.txt")" ] &&
		[ $r2 = 3 ] && grep -qE "^rp_evaluate: -7 .*disk 2: struct rp_disk: this libraidplan \($VERSION\) is older than the program: field at offset [0-9]+ unknown" "$WORK/newset_old.txt" &&
		[ $r3 = 0 ]; then
		pass "a program built against the new header runs on $VERSION with the field unset, is refused (-E2BIG) with it set"
	else
		fail "a program built against the new header runs on $VERSION with the field unset, is refused (-E2BIG) with it set" \
			"unset: exit $r1; set: exit $r2: $(head -n 2 "$WORK/newset_old.txt"); on the new library: exit $r3"
	fi
else
	fail "tests/abi/caller.c builds against both headers" "$(cat "$WORK/cc.log" 2>/dev/null)"
fi

new=$(scratch retyped 'sed -i "s|^\tdouble rpm;|\tfloat rpm;|" include/raidplan.h &&
	grep -q "float rpm;" include/raidplan.h')
expect_check "check: a member whose type changed (rp_disk.rpm double -> float) fails" "$new" \
	"$WORK/retyped/include" 2 "bump the soname"
grep -q "was double rpm at bit 128, is float rpm" "$WORK/check.txt" &&
	pass "check: ... and names the member" ||
	fail "check: ... and names the member" "$(cat "$WORK/check.txt")"

new=$(scratch removed 'sed -i "/^\t\trp_figure_key;/d" src/raidplan/raidplan.map &&
	! grep -q rp_figure_key src/raidplan/raidplan.map')
expect_check "check: a function removed (rp_figure_key) fails" "$new" "$WORK/removed/include" \
	2 "Removed function"

new=$(scratch renumbered 'sed -i "s|^\tRP_LEVEL_01, |\tRP_LEVEL_1E, RP_LEVEL_01, |" include/raidplan.h &&
	grep -q RP_LEVEL_1E include/raidplan.h')
expect_check "check: an enumerator's value changed (a level inserted before RP_LEVEL_01) fails" \
	"$new" "$WORK/renumbered/include" 2 "RP_LEVEL_01' from value '3' to '4'"

new=$(scratch added '
	sed -i "s|^RP_EXPORT int rp_goal_count(void);|&\nRP_EXPORT int rp_abi_test_added(void);|" include/raidplan.h &&
	printf "\nint rp_abi_test_added(void)\n{\n\treturn 1;\n}\n" >>src/raidplan/common.c &&
	printf "\n$NEXT_NODE {\n\tglobal:\n\t\trp_abi_test_added;\n} $LAST_NODE;\n" >>src/raidplan/raidplan.map')
expect_check "check: a function added is a compatible addition (make abi-baseline)" "$new" \
	"$WORK/added/include" 1 "make abi-baseline"

# ---- make install ---------------------------------------------------------------------

D=$WORK/root
if make --no-print-directory -C "$ROOT" install BUILD="${BUILD#"$ROOT"/}" DESTDIR="$D" \
	PREFIX=/usr >"$WORK/install.log" 2>&1; then
	L=$D/usr/lib/$(cc -print-multiarch)
	if [ -f "$L/libraidplan.so.$VERSION" ] && [ ! -L "$L/libraidplan.so.$VERSION" ] &&
		[ "$(readlink "$L/libraidplan.so.$MAJOR")" = "libraidplan.so.$VERSION" ] &&
		[ "$(readlink "$L/libraidplan.so")" = "libraidplan.so.$MAJOR" ] &&
		[ -f "$L/libraidplan.a" ] && cmp -s "$D/usr/include/raidplan.h" "$ROOT/include/raidplan.h" &&
		grep -qx "Version: $VERSION" "$L/pkgconfig/raidplan.pc" &&
		grep -qx "prefix=/usr" "$L/pkgconfig/raidplan.pc" &&
		[ "$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --static --libs raidplan | xargs)" = "-lraidplan -lm" ] &&
		[ "$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --libs raidplan | xargs)" = "-lraidplan" ]; then
		pass "make install: libraidplan.so.$VERSION, .so.$MAJOR and .so links, .a, raidplan.h in the multiarch libdir, raidplan.pc (Version: $VERSION, -lm private)"
	else
		fail "make install: libraidplan.so.$VERSION, .so.$MAJOR and .so links, .a, raidplan.h in the multiarch libdir, raidplan.pc (Version: $VERSION, -lm private)" \
			"$(ls -lR "$D/usr/lib" "$D/usr/include" 2>&1 | head -n 30)" "$(cat "$L/pkgconfig/raidplan.pc" 2>&1)"
	fi
	flags=$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --define-variable=prefix="$D/usr" \
		--cflags --libs raidplan)
	# shellcheck disable=SC2086 # the flags are words
	if cc -std=gnu11 -o "$WORK/installed_prog" "$HERE/caller.c" $flags 2>"$WORK/cc2.log" &&
		readelf -d "$WORK/installed_prog" | grep -q "NEEDED.*\[libraidplan.so.$MAJOR\]" &&
		LD_LIBRARY_PATH=$L "$WORK/installed_prog" >"$WORK/installed.txt" 2>&1 &&
		[ "$(head -n 1 "$WORK/installed.txt")" = "libraidplan $VERSION, API $MAJOR (built against $VERSION)" ]; then
		pass "a program built with pkg-config raidplan needs libraidplan.so.$MAJOR and runs on the installed one"
	else
		fail "a program built with pkg-config raidplan needs libraidplan.so.$MAJOR and runs on the installed one" \
			"flags: $flags" "$(cat "$WORK/cc2.log" "$WORK/installed.txt" 2>&1 | head -n 10)"
	fi
	# the static library with pkg-config --static (-lm from Libs.private)
	flags=$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --define-variable=prefix="$D/usr" \
		--static --cflags --libs raidplan)
	# shellcheck disable=SC2086 # the flags are words
	if cc -std=gnu11 -static -o "$WORK/static_prog" "$HERE/caller.c" $flags 2>"$WORK/cc3.log" &&
		! readelf -d "$WORK/static_prog" 2>/dev/null | grep -q NEEDED &&
		"$WORK/static_prog" >/dev/null 2>&1; then
		pass "a static program built with pkg-config --static raidplan links libraidplan.a and libm"
	else
		fail "a static program built with pkg-config --static raidplan links libraidplan.a and libm" \
			"flags: $flags" "$(head -n 10 "$WORK/cc3.log")"
	fi
	# raidplan(3)'s example, as written, against the installed library
	sed -n '/^\.EX$/,/^\.EE$/p' "$ROOT/docs/man/raidplan.3" | sed '1d;$d' | sed 's/\\e/\\/g' \
		>"$WORK/example.c"
	flags=$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --define-variable=prefix="$D/usr" \
		--cflags --libs raidplan)
	# shellcheck disable=SC2086 # the flags are words
	if cc -std=gnu11 -Wall -Wextra -Werror -o "$WORK/example" "$WORK/example.c" $flags \
		2>"$WORK/cc4.log" && out=$(LD_LIBRARY_PATH=$L "$WORK/example") &&
		echo "$out" | grep -qE '^[0-9]+ IOPS$'; then
		pass "raidplan(3)'s EXAMPLE builds without a warning and runs ($out)"
	else
		fail "raidplan(3)'s EXAMPLE builds without a warning and runs" \
			"$(head -n 10 "$WORK/cc4.log")" "${out:-}"
	fi
	# every function has a man page (a link to its group's), every link a function
	funcs=$(sed -n 's/^RP_EXPORT [^(]*[ *]\(rp_[a-z_0-9]*\)(.*/\1/p' "$ROOT/include/raidplan.h" | sort)
	pages=$(cd "$D/usr/share/man/man3" && ls | grep '^rp_' | sed 's/\.3$//' | sort)
	if [ -n "$funcs" ] && [ "$funcs" = "$pages" ] && [ -f "$D/usr/share/man/man3/raidplan.3" ]; then
		pass "man3: raidplan(3) and a page for each of the $(echo "$funcs" | wc -l) exported functions, none other"
	else
		fail "man3: raidplan(3) and a page for each exported function, none other" \
			"$(printf '%s\n' "$funcs" >"$WORK/f"; printf '%s\n' "$pages" | diff "$WORK/f" -)"
	fi
else
	fail "make install DESTDIR=..." "$(tail -n 20 "$WORK/install.log")"
fi

# ---- thread safety (raidplan(3), THREAD SAFETY) -----------------------------------------
# the library's sources and tests/abi/threads.c under ThreadSanitizer: threads solving and
# evaluating at once on shared inputs and reading one shared solution
if command -v clang >/dev/null 2>&1; then
	if clang -std=gnu11 -g -O1 -fsanitize=thread -D_GNU_SOURCE -DRP_STATIC -I"$ROOT/include" \
		-I"$ROOT/src" "$ROOT"/src/raidplan/*.c "$HERE/threads.c" -o "$WORK/threads" -lm \
		-lpthread 2>"$WORK/tsan-cc.log" &&
		TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$WORK/threads" >"$WORK/tsan.log" 2>&1; then
		pass "thread-safe under ThreadSanitizer: $(tail -n 1 "$WORK/tsan.log")"
	else
		fail "thread-safe under ThreadSanitizer" "$(cat "$WORK/tsan-cc.log" "$WORK/tsan.log" | head -n 30)"
	fi
else
	skip "thread-safe under ThreadSanitizer" "clang is not installed (tests/deps.sh check)"
fi

if [ "$SKIP" -gt 0 ]; then
	echo "abi: $PASS passed, $FAIL failed, $SKIP skipped"
	echo "skipped:$SKIPPED_NAMES"
else
	echo "abi: $PASS passed, $FAIL failed"
fi
[ "$FAIL" -eq 0 ] || { echo "failed:$FAILED_NAMES"; exit 1; }
