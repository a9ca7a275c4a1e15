# list against the demo rig, a rig file, a captured sysfs tree and this host

run "$PROG" --demo list
expect "list --demo" 0 "sim:sas15k +sas +HUS154545VLS300"
golden list_demo.txt

run "$PROG" list --demo -J
expect "list -J (global option after the command)" 0
golden list_demo.json
json_check "list -J: nine drives, numbers as numbers" \
	"len(d['drives']) == 9 and all(isinstance(x['size'], int) for x in d['drives'])"
json_check "list -J: the 15K450 holds 879,097,968 blocks of 512" \
	"[x['size'] for x in d['drives'] if x['device'] == 'sim:sas15k'] == [879097968 * 512]"
json_check "list -J: the disk with an HPA is limited, by hpa, from its native max" \
	"[(x['limited']['method'], x['limited']['source'], x['limited']['original_blocks'], 0 < x['limited']['percent'] < 100) for x in d['drives'] if x['device'] == 'sim:sata-hpa'] == [('hpa', 'drive', 976773168, True)]"
json_check "list -J: limited is an object or null, never false or a number" \
	"all(x['limited'] is None or isinstance(x['limited'], dict) for x in d['drives']) and [x['limited'] for x in d['drives'] if x['device'] == 'sim:sata250'] == [None]"

run "$PROG" --demo list -o DEVICE,SIZE -n -r -b
expect "list -o -n -r -b" 0 "^sim:sas15k 450098159616$"
if printf '%s\n' "$OUT" | grep -q DEVICE; then fail "list -n prints no header" "$OUT"; else pass "list -n prints no header"; fi

run "$PROG" --demo list -o +WWN,METHODS
expect "list -o +WWN appends" 0 "STATE +WWN +METHODS"

run "$PROG" --demo list --list-columns
expect "list --list-columns" 0 "LIMITED +no, or the share in use of the original capacity"

run "$PROG" --demo list -o DEVICE,BOGUS
expect "list: unknown column is a usage error" 2 "" "unknown column: BOGUS"

run "$PROG" --demo list extra
expect "list: stray argument is a usage error" 2 "" "unexpected argument 'extra'"

# the protect file marks a drive protected (by serial or WWN)
serial=$("$PROG" --demo list -o DEVICE,SERIAL -n -r | awk '$1 == "sim:sata250" { print $2 }')
printf '# test\nserial:%s\n' "$serial" >"$SHORTSTROKE_PROTECT_FILE"
run "$PROG" --demo list -o DEVICE,STATE -r -n
expect "list: a protected drive says so" 0 "^sim:sata250 protected:"
: >"$SHORTSTROKE_PROTECT_FILE"

# a rig file of our own, loaded through the same parser
"$PROG" --demo list -o DEVICE -n -r >/dev/null
cat >"$TMP/rig.json" <<'RIG'
{ "drives": [
  { "id": "one", "personality": "sas", "vendor": "SEAGATE", "model": "ST3300657SS",
    "serial": "3SJ0TEST", "firmware": "0008", "wwn": "5000c50012345678",
    "blocks": 585937500, "logical_block": 512, "physical_block": 512, "rpm": 15000,
    "form_factor": "3.5" }
] }
RIG
run "$PROG" --rig "$TMP/rig.json" list -J
json_check "list --rig FILE" "[x['model'] for x in d['drives']] == ['ST3300657SS']"
SHORTSTROKE_RIG="$TMP/rig.json" run "$PROG" list -o DEVICE -n
expect "SHORTSTROKE_RIG names the rig" 0 "^sim:one$"

# a captured sysfs tree: enumeration and in-use reasons without a device
run "$PROG" --sysroot "$HERE/../data/sysroot" list -o DEVICE,TRAN,STATE -r
expect "list --sysroot: captured disks with their state" 0 "^/dev/"
golden list_sysroot.txt

# this machine: no disk we can talk to is an empty table, exit 0
if [ ! -e /sys/class/scsi_disk ] || [ -z "$(ls /sys/class/scsi_disk 2>/dev/null)" ]; then
	run "$PROG" list -J
	expect "list on a machine without SCSI/ATA disks: exit 0" 0
	json_check "list on a machine without SCSI/ATA disks: empty" "d == {'drives': []}"
else
	skip "list on a machine without SCSI/ATA disks" "this machine has SCSI disks"
fi

# protect: add a drive by device, see it, remove it
run "$PROG" --demo protect add sim:sas15k
expect "protect add DEVICE lists serial and WWN" 0 "^serial .*: protected" 
run "$PROG" protect -r -n
expect "protect list" 0 "^wwn "
run "$PROG" --demo list -o DEVICE,STATE -r -n
expect "protected drive in list" 0 "^sim:sas15k protected:"
run "$PROG" --demo protect remove sim:sas15k
expect "protect remove DEVICE" 0 "no longer protected"
run "$PROG" --demo list -o DEVICE,STATE -r -n
expect "drive free again" 0 "^sim:sas15k free$"
run "$PROG" protect add --serial 'bad value with spaces'
expect "protect add: invalid value" 2
run "$PROG" protect add
expect "protect add: nothing named" 2 "" "name one DEVICE"

# a machine with no SCSI/ATA disk: the header alone on stdout, why on stderr, exit 0 (the
# machine was read: it has none; documented in list --help and the man page) (issue 25.6)
mkdir -p "$TMP/noroot/sys/block" "$TMP/noroot/proc/self"
: >"$TMP/noroot/proc/self/mountinfo"
run "$PROG" --sysroot "$TMP/noroot" list
expect "list with no disk: the header, exit 0, and why on stderr" 0 "^DEVICE +TRAN" \
	"^shortstroke: list: no SCSI/SAS or ATA/SATA disk found"
run "$PROG" --sysroot "$TMP/noroot" list -J
json_check "list -J with no disk: an empty list" "d['drives'] == []"

# the "no protect file in force" note: once per boot (per state directory), every time with -v
np_state=$TMP/np-state
for k in 1 2; do
	OUT=$(env -u SHORTSTROKE_PROTECT_FILE SHORTSTROKE_STATE_DIR="$np_state" "$PROG" --demo list 2>&1 >/dev/null)
	eval "np_$k=\$(printf '%s\n' \"\$OUT\" | grep -c 'no protect file in force')"
done
OUT=$(env -u SHORTSTROKE_PROTECT_FILE SHORTSTROKE_STATE_DIR="$np_state" "$PROG" -v --demo list 2>&1 >/dev/null)
np_v=$(printf '%s\n' "$OUT" | grep -c 'no protect file in force')
if [ -e /etc/shortstroke/protect.conf ]; then
	skip "list: the protect note once per boot" "/etc/shortstroke/protect.conf exists on this machine"
elif [ "$np_1" = 1 ] && [ "$np_2" = 0 ] && [ "$np_v" = 1 ]; then
	pass "list: the protect note once per boot, and with -v"
else
	fail "list: the protect note once per boot, and with -v" "first $np_1, second $np_2, -v $np_v"
fi

# HEALTH: the SMART verdict, whose commands are read only when the column is asked for (as
# lsblk reads what only some columns need)
run "$PROG" --demo list -o DEVICE,HEALTH
expect "list -o HEALTH: each drive's SMART verdict" 0 "^sim:sata320 +WARNING$"
expect "list -o HEALTH: a healthy drive PASSED" 0 "^sim:sas15k +PASSED$"
run "$PROG" --demo -v list -o DEVICE,SIZE
if [ "$RC" = 0 ] && ! printf '%s\n%s\n' "$OUT" "$ERR" | grep -qiE "SMART|Log sense"; then
	pass "list without HEALTH: no SMART command and no LOG SENSE sent (-v)"
else
	fail "list without HEALTH: no SMART command and no LOG SENSE sent (-v)" "$ERR"
fi
run "$PROG" --demo -v list -o DEVICE,HEALTH
if printf '%s\n' "$ERR" | grep -q "sim:sata250: cdb: .*SMART READ DATA" &&
	printf '%s\n' "$ERR" | grep -q "sim:sas15k: cdb: 4d .*\[Log sense\]"; then
	pass "list -o +HEALTH: SMART READ DATA (ATA) and LOG SENSE (SCSI) sent for it"
else
	fail "list -o +HEALTH: SMART READ DATA (ATA) and LOG SENSE (SCSI) sent for it" "$ERR"
fi
