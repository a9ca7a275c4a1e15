#!/bin/sh
# Run every unit test binary in DIR; print a closing "N passed, N failed" line.
set -u
dir=${1:-build/san/tests}
pass=0; fail=0; failed=""
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	case "$t" in *.d) continue ;; esac
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $(basename "$t")"; fi
done
echo "unit: $pass passed, $fail failed"
[ -n "$failed" ] && echo "failed:$failed"
[ "$fail" -eq 0 ]
