# The man pages render without warnings. GROFF names the program (t_checks.sh sets a
# missing one to see the skip reported).

for m in "$HERE"/../../docs/man/*.8; do
	if ! command -v "${GROFF:-groff}" >/dev/null 2>&1; then
		skip "man page $(basename "$m") renders cleanly" "${GROFF:-groff} is not installed"
		continue
	fi
	w=$("${GROFF:-groff}" -man -ww -z "$m" 2>&1)
	[ -z "$w" ] && pass "man page $(basename "$m") renders cleanly" || fail "man page $(basename "$m")" "$w"
done
