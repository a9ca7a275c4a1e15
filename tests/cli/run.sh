#!/bin/sh
# run.sh PROG - the CLI tests: every tests/cli/t_*.sh against the simulator.
# Closing line: "cli: N passed, N failed".
set -u
PROG=$(realpath "${1:-build/shortstroke}")
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$HERE/golden
export PROG GOLDEN
. "$HERE/lib.sh"

for t in "$HERE"/t_*.sh; do
	TMP=$(mktemp -d)
	export SHORTSTROKE_STATE_DIR="$TMP/state"
	export SHORTSTROKE_PROTECT_FILE="$TMP/protect.conf"
	unset SHORTSTROKE_RIG SHORTSTROKE_SYSROOT
	echo "# $(basename "$t")"
	. "$t"
	rm -rf "$TMP"
done
echo "cli: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ] || { echo "failed:$FAILED_NAMES"; exit 1; }
