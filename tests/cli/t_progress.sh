# Progress lines are drawn with the terminal's capabilities (terminfo), on stderr, only when
# stdout and stderr are terminals: a pseudo-terminal from script(1) with TERM=xterm and
# TERM=vt52 (whose clear-to-end-of-line is ESC K, not ESC [ K), stdout to a file, TERM=dumb.

if ! command -v script >/dev/null 2>&1; then
	skip "progress lines through terminfo" "script(1) is not installed (bsdutils)"
else
# pty TERM CMD: run CMD (sh -c) on a pseudo-terminal, the session's bytes in $TMP/ts
pty() { TERM=$1 script -qec "$2" "$TMP/ts" >/dev/null 2>&1; sed -i '1d;$d' "$TMP/ts"; }
m="\"$PROG\" --demo zones --measure --points 16 sim:sata250"
pty xterm "$m"
el=$(tput -T xterm el)
grep -q "zone profile: *[0-9]*%" "$TMP/ts" && grep -qF "$el" "$TMP/ts" \
	&& pass "a terminal (xterm): the progress line, cleared with terminfo's el" \
	|| fail "a terminal (xterm): the progress line, cleared with terminfo's el" "$(od -c "$TMP/ts" | head)"
pty vt52 "$m"
esc=$(printf '\033')
grep -q "zone profile: *[0-9]*%" "$TMP/ts" && grep -qF "${esc}K" "$TMP/ts" && ! grep -qF "${esc}[" "$TMP/ts" \
	&& pass "a vt52: its own el (ESC K), no ANSI sequence" \
	|| fail "a vt52: its own el (ESC K), no ANSI sequence" "$(od -c "$TMP/ts" | head)"
pty xterm "$m >$TMP/out.txt"
! grep -q "zone profile" "$TMP/ts" && ! grep -qF "$esc" "$TMP/ts" && [ -s "$TMP/out.txt" ] \
	&& pass "stdout not a terminal: no progress line, no escape" \
	|| fail "stdout not a terminal: no progress line, no escape" "$(od -c "$TMP/ts" | head)"
pty dumb "$m"
! grep -q "zone profile: " "$TMP/ts" && ! grep -qF "$esc" "$TMP/ts" \
	&& pass "TERM=dumb (no cursor movement): no progress line" \
	|| fail "TERM=dumb (no cursor movement): no progress line" "$(od -c "$TMP/ts" | head)"
fi
