# A simulated rig's state belongs to that rig (issue 24, item 7): rA/fleet.json, rB/fleet.json
# and fleet.v2.json (one name up to the first dot, drives of the same ids, other serials) keep
# states of their own, and a state saved for a drive of another serial is refused.

mkdir -p "$TMP/rA" "$TMP/rB"
# rig_of SERIAL-PREFIX: a rig of two SATA drives, ids d0 and d1
rig_of() {
	cat <<RIG
{ "drives": [
  { "id": "d0", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "$1-0",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true },
  { "id": "d1", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "$1-1",
    "firmware": "82.00A82", "blocks": 67108864, "hpa": true }
] }
RIG
}
rig_of RA >"$TMP/rA/fleet.json"
rig_of RB >"$TMP/rB/fleet.json"
rig_of RV2 >"$TMP/fleet.v2.json"
size_of() {
	"$PROG" --rig "$1" info -J "$2" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"
}

run "$PROG" --rig "$TMP/rA/fleet.json" limit --blocks 29999104 --yes sim:d0
expect "rA/fleet.json: sim:d0 limited" 0 "limited to 29999104 blocks"
[ "$(size_of "$TMP/rA/fleet.json" sim:d0)" = 29999104 ] &&
	pass "rA's drive keeps its limit" || fail "rA's drive keeps its limit"
b=$(size_of "$TMP/rB/fleet.json" sim:d0)
[ "$b" = 67108864 ] && pass "rB/fleet.json (same file name, other serials): its sim:d0 is at full size" ||
	fail "rB/fleet.json (same file name, other serials): its sim:d0 is at full size" "$b blocks"
b=$(size_of "$TMP/fleet.v2.json" sim:d0)
[ "$b" = 67108864 ] && pass "fleet.v2.json (same name up to the dot): its sim:d0 is at full size" ||
	fail "fleet.v2.json (same name up to the dot): its sim:d0 is at full size" "$b blocks"
run "$PROG" --rig "$TMP/rB/fleet.json" list -J
json_check "rB lists its own serials, nothing limited" \
	'[(x["serial"], x["size"]) for x in d["drives"]] == [("RB-0", 34359738368), ("RB-1", 34359738368)]'
n=$(ls -d "$SHORTSTROKE_STATE_DIR"/sim/fleet-* | wc -l)
[ "$n" = 3 ] && pass "three rigs, three state directories" ||
	fail "three rigs, three state directories" "$(ls "$SHORTSTROKE_STATE_DIR"/sim)"

# the same rig named another way (relative, through a link) is the same rig
ln -s "$TMP/rA" "$TMP/rA-link"
b=$(cd "$TMP" && size_of rA-link/fleet.json sim:d0)
[ "$b" = 29999104 ] && pass "rA named through a link and relatively: the same state" ||
	fail "rA named through a link and relatively: the same state" "$b blocks"

# the rig file edited: sim:d0 is now another drive (another serial); its saved state is refused
sed -i 's/"RA-0"/"RA-9"/' "$TMP/rA/fleet.json"
run "$PROG" --rig "$TMP/rA/fleet.json" list
expect "a state saved for another serial: refused, named" 2 "" \
	"d0.json: the state was saved for the drive with serial RA-0, but the rig gives sim:d0 serial RA-9: it is another drive's; remove it to start afresh"
