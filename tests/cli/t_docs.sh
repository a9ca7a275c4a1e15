# Every command answers --help; the man pages render without warnings.

for c in $("$PROG" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	run "$PROG" "$c" --help
	expect "$c --help" 0 "Usage: shortstroke"
done
if command -v groff >/dev/null 2>&1; then
	for m in "$HERE"/../../man/*.8; do
		w=$(groff -man -ww -z "$m" 2>&1)
		[ -z "$w" ] && pass "man page $(basename "$m") renders cleanly" || fail "man page $(basename "$m")" "$w"
	done
else
	skip "the man pages render cleanly" "groff not found"
fi
