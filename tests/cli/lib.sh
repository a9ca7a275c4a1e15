# lib.sh - helpers for the CLI tests. Sourced by run.sh and the case files.
# Each check prints "ok - NAME" or "not ok - NAME" with what differed.
# Drives of the demo rig (--demo): what listings and the TUI header count
DEMO_DRIVES=11

PASS=0
FAIL=0
SKIP=0
FAILED_NAMES=""
SKIPPED_NAMES=""

pass() { PASS=$((PASS + 1)); echo "ok - $1"; }
# skip NAME REASON: a check that could not run here; counted and named in the summary
skip() {
	SKIP=$((SKIP + 1)); SKIPPED_NAMES="$SKIPPED_NAMES
  $1: $2"
	echo "skip - $1: $2"
}
fail() {
	FAIL=$((FAIL + 1)); FAILED_NAMES="$FAILED_NAMES
  $1"
	echo "not ok - $1"
	shift
	[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /'
}

# run CMD...: runs with a fresh state dir per test file; sets OUT, ERR, RC
run() {
	OUT=$("$@" 2>"$TMP/stderr")
	RC=$?
	ERR=$(cat "$TMP/stderr")
}

# expect NAME RC [GREP-PATTERN-IN-STDOUT] [GREP-PATTERN-IN-STDERR]
expect() {
	name=$1 rc=$2 pat_out=${3:-} pat_err=${4:-}
	if [ "$RC" != "$rc" ]; then
		fail "$name" "exit $RC, expected $rc" "stdout: $OUT" "stderr: $ERR"
		return
	fi
	if [ -n "$pat_out" ] && ! printf '%s\n' "$OUT" | grep -qE -- "$pat_out"; then
		fail "$name" "stdout lacks /$pat_out/" "stdout: $OUT"
		return
	fi
	if [ -n "$pat_err" ] && ! printf '%s\n' "$ERR" | grep -qE -- "$pat_err"; then
		fail "$name" "stderr lacks /$pat_err/" "stderr: $ERR"
		return
	fi
	pass "$name"
}

# golden NAME: compare OUT with tests/cli/golden/NAME (UPDATE=1 rewrites it)
golden() {
	g="$GOLDEN/$1"
	if [ "${UPDATE:-0}" = 1 ]; then
		printf '%s\n' "$OUT" >"$g"
		pass "$1 (golden updated)"
		return
	fi
	if [ ! -f "$g" ]; then
		fail "$1" "missing golden file $g (run with UPDATE=1 and review it)"
		return
	fi
	if printf '%s\n' "$OUT" | diff -u "$g" - >"$TMP/diff"; then
		pass "$1"
	else
		fail "$1" "$(cat "$TMP/diff")"
	fi
}

# json_ok NAME: OUT parses as JSON (python3 is on every Debian machine)
json_check() {
	name=$1 expr=$2
	if printf '%s' "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if ($expr) else 1)" 2>"$TMP/jerr"; then
		pass "$name"
	else
		fail "$name" "JSON check failed: $expr" "$(cat "$TMP/jerr")" "stdout: $OUT"
	fi
}
