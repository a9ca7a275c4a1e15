#!/bin/sh
# Run every fuzz target built under a prefix for a few seconds each.
#
#   tests/fuzz/run.sh BUILD_PREFIX SECONDS
#
# For each executable BUILD_PREFIX_* (e.g. build/fuzz/fuzz/fuzz_sense), run
# it with -max_total_time=SECONDS on a temporary copy of its seed corpus
# tests/fuzz/corpus/<name>/ (the repository corpus is never written to).
# A target fails when libFuzzer exits non-zero (crash, leak, timeout,
# sanitizer report); its reproducer is kept and its path printed.
# Prints a closing "fuzz: N passed, N failed" line; exits 1 if any failed.
set -u

prefix=${1:-build/fuzz/fuzz}
secs=${2:-8}
here=$(cd "$(dirname "$0")" && pwd)
corpus_root="$here/corpus"

case "$secs" in
''|*[!0-9]*) echo "run.sh: SECONDS must be a whole number, got '$secs'" >&2; exit 2 ;;
esac

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

work=$(mktemp -d "${TMPDIR:-/tmp}/shortstroke-fuzz.XXXXXX") || exit 1
keep=0
cleanup() { [ "$keep" -eq 1 ] || rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

pass=0; fail=0; failed=""
for bin in "$prefix"_*; do
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	case "$bin" in *.d|*.o) continue ;; esac
	name=$(basename "$bin")
	corpus="$work/$name/corpus"
	artifacts="$work/$name/artifacts"
	mkdir -p "$corpus" "$artifacts"
	if [ -d "$corpus_root/$name" ]; then
		cp -R "$corpus_root/$name/." "$corpus/"
	else
		echo "fuzz: $name: no seed corpus in $corpus_root/$name, starting empty" >&2
	fi
	log="$work/$name/log"
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
		echo "fuzz: $name ok (${runs:-?} runs in ${secs}s)"
		pass=$((pass + 1))
	else
		keep=1
		echo "fuzz: $name FAILED; log: $log"
		for a in "$artifacts"/*; do
			[ -e "$a" ] && echo "fuzz: $name reproducer: $a"
		done
		tail -n 30 "$log" | sed "s/^/  $name: /"
		fail=$((fail + 1))
		failed="$failed $name"
	fi
done

if [ $((pass + fail)) -eq 0 ]; then
	echo "fuzz: no targets found at ${prefix}_*" >&2
	echo "fuzz: 0 passed, 1 failed"
	exit 1
fi
echo "fuzz: $pass passed, $fail failed"
[ -n "$failed" ] && echo "failed:$failed"
[ "$fail" -eq 0 ]
