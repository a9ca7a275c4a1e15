#!/bin/sh
# check-summary.sh DIR SUITE... - the closing lines of make check.
# Each suite's output is DIR/SUITE.log and its exit status DIR/SUITE.rc; every suite closes
# with "SUITE: N passed, N failed[, N skipped]". Prints that line again for each suite (or
# says the suite did not get that far), then "check: N passed, N failed[, N skipped]".
# Exits 1 when any suite failed or exited non-zero.
set -u
dir=$1
shift
tp=0; tf=0; ts=0; bad=0
echo "== make check =="
for s in "$@"; do
	rc=$(cat "$dir/$s.rc" 2>/dev/null || echo "?")
	line=$(grep -E "^$s: [0-9]+ passed, [0-9]+ failed" "$dir/$s.log" 2>/dev/null | tail -n 1)
	if [ -z "$line" ]; then
		echo "$s: no closing line (exit $rc; see $dir/$s.log)"
		tf=$((tf + 1)); bad=1
		continue
	fi
	p=$(echo "$line" | sed -E 's/^[^:]*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/^[^:]*: [0-9]+ passed, ([0-9]+) failed.*/\1/')
	k=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
	tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + ${k:-0}))
	if [ "$rc" != 0 ] && [ "$f" -eq 0 ]; then
		# the suite said nothing failed but did not exit 0: that is a failure too
		echo "$line (but exit $rc; see $dir/$s.log)"
		tf=$((tf + 1)); bad=1
	else
		echo "$line"
		[ "$rc" = 0 ] || bad=1
	fi
	[ "$f" -eq 0 ] || bad=1
done
echo "check: $tp passed, $tf failed$([ "$ts" -eq 0 ] || echo ", $ts skipped")"
[ "$bad" -eq 0 ]
