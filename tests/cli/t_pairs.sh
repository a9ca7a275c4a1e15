# list -P: lsblk's KEY="value" pairs, one line per disk, that a shell can eval: names made
# shell variables (LOG-SEC: LOG_SEC), values escaped as lsblk escapes them; WWN as lsblk
# prints it (0x...) in every form; a rig whose model holds a quote, a dollar and a backquote.

cat >"$TMP/rig.json" <<'RIG'
{ "drives": [
  { "id": "q", "personality": "sata", "model": "ODD \"Q\" $HOME `x`", "serial": "Q 1",
    "firmware": "F1", "wwn": "5000c500aabbcc01", "blocks": 8388608 }
] }
RIG
run "$PROG" --rig "$TMP/rig.json" list -P -o DEVICE,MODEL,SERIAL,WWN,LOG-SEC,PHY-SEC,SIZE -b
expect "list -P" 0
[ "$OUT" = 'DEVICE="sim:q" MODEL="ODD \x22Q\x22 \x24HOME \x60x\x60" SERIAL="Q 1" WWN="0x5000c500aabbcc01" LOG_SEC="512" PHY_SEC="512" SIZE="4294967296"' ] \
	&& pass "list -P: shell names, lsblk's escapes, WWN 0x..., -b bytes" || fail "list -P: shell names, lsblk's escapes, WWN 0x..., -b bytes" "$OUT"
# eval it as a script would (the escapes stay literal; nothing is expanded or run)
v=$(sh -c 'eval "$1"; printf "%s|%s|%s|%s" "$DEVICE" "$SERIAL" "$LOG_SEC" "$MODEL"' sh "$OUT")
[ "$v" = 'sim:q|Q 1|512|ODD \x22Q\x22 \x24HOME \x60x\x60' ] && pass "list -P: eval sets the variables and runs nothing" \
	|| fail "list -P: eval sets the variables and runs nothing" "$v"
run "$PROG" --demo list -P
n=$(printf '%s\n' "$OUT" | grep -c '^DEVICE="sim:[a-z0-9-]*" TRAN="[a-z]*" MODEL=".*" STATE="[^"]*"$')
all=$("$PROG" --demo list -J | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["drives"]))')
[ "$RC" = 0 ] && [ "$n" = "$all" ] && pass "list -P: the default columns, one line per disk of the demo rig" \
	|| fail "list -P: the default columns, one line per disk of the demo rig" "$OUT"
run "$PROG" --demo list -P -o DEVICE,NATIVE
printf '%s\n' "$OUT" | grep -q '^DEVICE="sim:sas15k" NATIVE=""$' && pass "list -P: a value nothing tells is empty" \
	|| fail "list -P: a value nothing tells is empty" "$OUT"
run "$PROG" --demo list -J -o DEVICE,WWN
json_check "list -J: wwn as lsblk prints it" 'd["drives"][1]["wwn"] == "0x5000cca215c3e8a1"'
run "$PROG" --demo list -o DEVICE,WWN
expect "list: the WWN column as lsblk prints it" 0 "^sim:sata250 +0x5000cca215c3e8a1$"
# the protect file takes the WWN as list prints it
echo "wwn:0x5000cca215c3e8a1" >"$TMP/prot.conf"
run "$PROG" --demo --protect-file "$TMP/prot.conf" list -P -o DEVICE,STATE
expect "the protect file takes list's WWN" 0 '^DEVICE="sim:sata250" STATE="protected: listed in '
run "$PROG" --demo protect --protect-file "$TMP/prot.conf" -P
expect "protect -P (every listing command)" 0 '^KIND="wwn" VALUE="0x5000cca215c3e8a1" LINE="1"$'
