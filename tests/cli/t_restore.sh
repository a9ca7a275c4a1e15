# restore: only what shortstroke limited (the journal says so), and the size it gives back is
# shown before anything is sent. A disk that came with an HPA (a vendor's recovery area) is
# refused; --to-native is the explicit way to its native maximum.

blocks_of() {
	"$PROG" --demo info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"
}

# sim:sata-hpa came with an HPA: 250 GB of a native 500 GB, nothing journaled
run "$PROG" --demo restore --yes sim:sata-hpa
expect "restore of an HPA it never set: refused" 3 "" \
	"nothing journaled.*488386584 blocks \(250 GB\).*native maximum of 976773168 blocks \(500 GB\).*--to-native"
[ "$(blocks_of sim:sata-hpa)" = 488386584 ] && pass "refused: the vendor's HPA is still there" ||
	fail "refused: the vendor's HPA is still there" "$(blocks_of sim:sata-hpa) blocks"
run "$PROG" --demo restore --dry-run sim:sata-hpa
expect "restore --dry-run of an HPA it never set: refused too" 3 "" "nothing journaled"
run "$PROG" --demo restore --dry-run --to-native sim:sata-hpa
expect "restore --dry-run --to-native: the size it will get back" 0 \
	"would restore to 976773168 blocks \(500 GB, the native maximum\) by hpa; nothing was sent"
run "$PROG" --demo restore --to-native sim:sata-hpa </dev/null
expect "restore --to-native asks for confirmation (no --yes, no terminal)" 3 "" "not confirmed"
[ "$(blocks_of sim:sata-hpa)" = 488386584 ] && pass "not confirmed: nothing changed" ||
	fail "not confirmed: nothing changed" "$(blocks_of sim:sata-hpa) blocks"
run "$PROG" --demo restore --to-native --yes sim:sata-hpa
expect "restore --to-native --yes" 0 "restored to 976773168 blocks \(500 GB\) by hpa"
run "$PROG" --demo limit --to-native --size 100GB --yes sim:sata250
expect "--to-native is for restore only" 2 "" "--to-native goes with restore"

# a disk at its native maximum with nothing journaled: nothing to do
run "$PROG" --demo restore --yes sim:sata250
expect "restore at the native maximum, nothing journaled: a no-op" 0 "nothing sent"
# a SCSI disk that reports no native maximum and has nothing journaled: refused
run "$PROG" --demo restore --yes sim:sas15k
expect "SCSI disk, nothing journaled: refused" 3 "" \
	"nothing journaled.*879097968 blocks \(450 GB\) and no native maximum reported"

# the journaled original is what restore gives back, shown in the plan and the dry run
run "$PROG" --demo limit --size 100GB --yes sim:sata250
expect "limit sim:sata250" 0 "limited to"
run "$PROG" --demo restore --dry-run sim:sata250
expect "restore --dry-run: the journaled original" 0 \
	"restore to 488397168 blocks \(250 GB, the journaled original\) by hpa"
expect "restore --dry-run: the result line says it too" 0 \
	"dry run: would restore to 488397168 blocks \(250 GB, the journaled original\) by hpa"

# a check that can be made before the confirmation is made before it: a security-frozen
# drive refuses SET MAX, so it is refused before any serial is asked for
run "$PROG" --demo restore --to-native --method hpa sim:sata320 </dev/null
expect "frozen drive: refused before the confirmation" 1 "" "security-frozen"
case $ERR in
*"not confirmed"*) fail "frozen drive: no confirmation asked for" "$ERR" ;;
*) pass "frozen drive: no confirmation asked for" ;;
esac

# what the drive will refuse is said before the serial is asked for: a second permanent
# SET MAX in one power cycle (the journal hints at it), and DCO while an HPA is in effect
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo restore --yes sim:sata250
expect "restore sim:sata250 (after a power cycle)" 0 "restored to 488397168 blocks"
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo limit --percent 20 --yes sim:sata250
expect "limit sim:sata250 by HPA" 0 "by hpa"
run "$PROG" --demo limit --percent 30 sim:sata250 </dev/null
expect "second permanent SET MAX: the plan warns before the confirmation" 3 \
	"note: a permanent SET MAX ADDRESS was sent to it at .*one per power cycle" "not confirmed"
run "$PROG" --demo limit --method dco --percent 30 sim:sata250 </dev/null
expect "DCO with an HPA in effect: refused before the confirmation" 1 "" \
	"an HPA is in effect.*restore the HPA first"
case $ERR in
*"not confirmed"*) fail "DCO with an HPA in effect: no confirmation asked for" "$ERR" ;;
*) pass "DCO with an HPA in effect: no confirmation asked for" ;;
esac
run "$PROG" --demo sim power-cycle sim:sata250
run "$PROG" --demo restore --yes sim:sata250
expect "restore sim:sata250" 0 "restored to 488397168 blocks"
