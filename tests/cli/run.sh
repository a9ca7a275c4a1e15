#!/bin/sh
# run.sh PROG [FILE...] - the CLI tests: every tests/cli/t_*.sh (or the FILEs named)
# against the simulator.
# Closing line: "cli: N passed, N failed" (", N skipped" when checks could not run here).
set -u
PROG=$(realpath "${1:-build/shortstroke}")
[ $# -gt 0 ] && shift
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$HERE/golden
export PROG GOLDEN
. "$HERE/lib.sh"

[ $# -gt 0 ] || set -- "$HERE"/t_*.sh
for t in "$@"; do
	TMP=$(mktemp -d)
	export SHORTSTROKE_STATE_DIR="$TMP/state"
	# an empty protect file: one named in the environment must be readable
	export SHORTSTROKE_PROTECT_FILE="$TMP/protect.conf"
	: >"$SHORTSTROKE_PROTECT_FILE"
	# never the machine's /etc/shortstroke/shortstroke.conf (an empty file)
	export SHORTSTROKE_CONFIG=/dev/null
	# the TUI's tui.conf: never the user's own
	export XDG_CONFIG_HOME="$TMP/config"
	unset SHORTSTROKE_RIG SHORTSTROKE_SYSROOT
	echo "# $(basename "$t")"
	. "$t"
	rm -rf "$TMP"
done
[ "$SKIP" -eq 0 ] || echo "skipped:$SKIPPED_NAMES"
echo "cli: $PASS passed, $FAIL failed$([ "$SKIP" -eq 0 ] || echo ", $SKIP skipped")"
[ "$FAIL" -eq 0 ] || { echo "failed:$FAILED_NAMES"; exit 1; }
