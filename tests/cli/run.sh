#!/bin/sh
# run.sh PROG - the CLI tests: every tests/cli/t_*.sh against the simulator.
# Closing line: "cli: N passed, N failed, N skipped" (each skip named above it).
set -u
PROG=$(realpath "${1:-build/shortstroke}")
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$HERE/golden
export PROG GOLDEN
. "$HERE/lib.sh"

for t in "$HERE"/t_*.sh; do
	TMP=$(mktemp -d)
	export SHORTSTROKE_STATE_DIR="$TMP/state"
	# an empty protect file: one named in the environment must be readable
	export SHORTSTROKE_PROTECT_FILE="$TMP/protect.conf"
	: >"$SHORTSTROKE_PROTECT_FILE"
	unset SHORTSTROKE_RIG SHORTSTROKE_SYSROOT
	echo "# $(basename "$t")"
	. "$t"
	rm -rf "$TMP"
done
[ "$SKIP" -eq 0 ] || echo "skipped:$SKIPPED_NAMES"
echo "cli: $PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ] || { echo "failed:$FAILED_NAMES"; exit 1; }
