# bad input: one clear line naming the device and why, non-zero exit

run "$PROG" --demo info sim:nosuch
expect "info: unknown simulated drive" 2 "" "sim:nosuch: no such drive in the rig"

run "$PROG" info sim:sas15k
expect "info: sim: without a rig" 2 "" "names a simulated drive; give --demo or --rig FILE"

run "$PROG" info /dev/nonexistent-disk
expect "info: nonexistent device" 2 "" "/dev/nonexistent-disk"

run "$PROG" info /etc/hostname
expect "info: a regular file" 2 "" "/etc/hostname.*not a block device"

if [ -b /dev/loop0 ]; then
	run "$PROG" info /dev/loop0
	expect "info: a loop device" 2 "" "/dev/loop0.*loop"
else
	skip "info: a loop device" "no /dev/loop0 here"
fi
if [ -b /dev/vda ]; then
	run "$PROG" info /dev/vda
	expect "info: a virtio disk" 2 "" "/dev/vda.*(virtio|not a SCSI)"
else
	skip "info: a virtio disk" "no /dev/vda here"
fi

run "$PROG" --sysroot "$HERE/../data/sysroot" info /dev/sda1
expect "info: a partition" 2 "" "partition of /dev/sda"

run "$PROG" info
expect "info: no device" 2 "" "name a device"

run "$PROG" --demo info sim:sas15k sim:sata250
expect "info: two devices" 2 "" "one device at a time"

run "$PROG" nosuchcommand
expect "unknown command" 2 "" "unknown command 'nosuchcommand'"

run "$PROG" --demo --rig /dev/null list
expect "--demo with --rig" 2 "" "use one"

run "$PROG" --rig
expect "--rig without a file" 2 "" "needs a value"

run "$PROG" --rig "$TMP/missing.json" list
expect "missing rig file" 2 "" "missing.json"

printf '{ "drives": [\n  { "id": "a", "personality": "sas",\n    "blocks": -5 }\n] }\n' >"$TMP/bad.json"
run "$PROG" --rig "$TMP/bad.json" list
expect "malformed rig: line and field" 2 "" 'bad.json:3:.*"blocks"'
if [ -z "$OUT" ]; then pass "malformed rig: nothing half-loaded"; else fail "malformed rig: nothing half-loaded" "$OUT"; fi

printf '{ "drives": [ { "id": "a", ' >"$TMP/trunc.json"
run "$PROG" --rig "$TMP/trunc.json" list
expect "truncated rig file" 2 "" "trunc.json:1"

run "$PROG" --help
expect "--help lists the commands" 0 "list +list the disks"
run "$PROG" list --help
expect "list --help" 0 "Default columns"
run "$PROG" help info
expect "help info" 0 "Usage: shortstroke info"
run "$PROG" --version
expect "--version" 0 "^shortstroke [0-9]"
run "$PROG" </dev/null
expect "no command without a terminal prints usage" 2 "" "Usage: shortstroke"
