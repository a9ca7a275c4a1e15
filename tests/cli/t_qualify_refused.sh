# qualify: a check that could not run on a drive that claims the feature is
# a FAIL with the real reason; SKIP is for a drive without the feature

"$PROG" --demo sim fault sim:sata250 abort:b0 >/dev/null
run "$PROG" --demo info sim:sata250
expect "qualify refused: the drive claims SMART" 0 "^SMART: +supported, enabled"
run "$PROG" --demo smart sim:sata250
expect "qualify refused: smart says the drive aborted what it claims: no verdict, exit 6" 6 "" \
	"reports SMART supported and enabled \\(IDENTIFY\\) but aborted SMART READ DATA"
if printf '%s' "$ERR" | grep -q "SMART is not supported"; then
	fail "qualify refused: smart does not call it unsupported" "$ERR"
else
	pass "qualify refused: smart does not call it unsupported"
fi
run "$PROG" --demo qualify --profile standard sim:sata250
expect "qualify refused: SMART that cannot be read fails the disk" 1 \
	"^  smart +FAIL .*aborted SMART READ DATA" ""
expect "qualify refused: the self-test that cannot start fails too" 1 "^  selftest +FAIL " ""
expect "qualify refused: the disk does not pass" 1 "^sim:sata250 \\(.*\\): FAIL$" ""
run "$PROG" --demo qualify -J sim:sata250
json_check "qualify refused: JSON says fail, with the reason" \
	"d['disks'][0]['checks']['smart']['result'] == 'FAIL' and 'aborted SMART READ DATA' in d['disks'][0]['checks']['smart']['detail'] and not d['disks'][0]['pass']"
"$PROG" --demo sim fault --clear sim:sata250 >/dev/null

# without the feature: a SKIP, and the disk may pass
"$PROG" --demo sim fault sim:sata320 no-smart >/dev/null
run "$PROG" --demo qualify sim:sata320
expect "qualify refused: a drive without SMART skips it" 0 "^  smart +SKIP .*SMART is not supported" ""
"$PROG" --demo sim fault --clear sim:sata320 >/dev/null
"$PROG" --demo sim fault sim:sas15k no-smart >/dev/null
run "$PROG" --demo qualify --profile standard sim:sas15k
expect "qualify refused: a SAS drive without SMART or self-tests skips them" 0 \
	"^  selftest +SKIP " ""
"$PROG" --demo sim fault --clear sim:sas15k >/dev/null
