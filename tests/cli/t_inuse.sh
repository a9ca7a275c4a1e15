# In use: partition tables and signatures are read through the drive (READ(16) through the
# transport), so a simulated disk is as safe as a kernel disk. The data of a simulated drive is
# the sparse image <state>/sim/demo/<id>.img (byte for byte), so a test can put a label there.

img_of() { printf '%s/sim/demo/%s.img' "$SHORTSTROKE_STATE_DIR" "$1"; }
state_of() {
	"$PROG" --demo list -J | python3 -c "import json,sys
for d in json.load(sys.stdin)['drives']:
    if d['device'] == '$1': print(d['state'])"
}
blocks_of() {
	"$PROG" --demo info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"
}

# the GPT the partition method writes makes the disk in use
run "$PROG" --demo limit --method partition --size 100GB --yes sim:sas15k
expect "partition method on sim:sas15k" 0 "limited to .* by partition"
st=$(state_of sim:sas15k)
[ "$st" = "in-use: partition table (gpt)" ] && pass "list: the GPT on a simulated disk is seen" ||
	fail "list: the GPT on a simulated disk is seen" "state: $st"
run "$PROG" --demo info sim:sas15k
expect "info: the GPT on a simulated disk is seen" 0 "^State: +in-use: partition table \(gpt\)"
before=$(blocks_of sim:sas15k)
run "$PROG" --demo limit --size 50GB --yes sim:sas15k
expect "limit below its own partition: refused" 3 "" "sim:sas15k: refused, the disk is in-use: partition table \(gpt\)"
after=$(blocks_of sim:sas15k)
[ "$before" = "$after" ] && pass "refused: the capacity is unchanged ($after blocks)" ||
	fail "refused: the capacity is unchanged" "$before -> $after"
for m in scsi-resize scsi-format partition; do
	run "$PROG" --demo limit --method $m --size 50GB --yes sim:sas15k
	expect "in use by its GPT: $m refused" 3 "" "refused, the disk is in-use"
done
# restore takes back the label limit wrote (its only "use"), and then the disk is free
run "$PROG" --demo restore --yes sim:sas15k
expect "restore removes the partition it wrote" 0 "restored to .* by partition"
st=$(state_of sim:sas15k)
[ "$st" = "free" ] && pass "after restore: free" || fail "after restore: free" "state: $st"

# the backup GPT at the end of the disk is read too (the primary header wiped): a probe of
# the first MiBs only would find the protective MBR alone ("PMBR")
run "$PROG" --demo limit --method partition --size 100GB --yes sim:sata320
expect "partition method on sim:sata320" 0 "by partition"
dd if=/dev/zero of="$(img_of sata320)" bs=512 seek=1 count=1 conv=notrunc 2>/dev/null
st=$(state_of sim:sata320)
[ "$st" = "in-use: partition table (gpt)" ] && pass "the backup GPT at the end is seen" ||
	fail "the backup GPT at the end is seen" "state: $st"

# a filesystem written straight onto a simulated disk (no partition table)
if command -v mkfs.ext4 >/dev/null; then
	truncate -s 8M "$TMP/fs.img"
	mkfs.ext4 -q -F "$TMP/fs.img" >/dev/null 2>&1
	dd if="$TMP/fs.img" of="$(img_of sata250)" bs=1M count=8 conv=notrunc,sparse 2>/dev/null
	st=$(state_of sim:sata250)
	[ "$st" = "in-use: filesystem ext4" ] && pass "an ext4 filesystem on a simulated disk is seen" ||
		fail "an ext4 filesystem on a simulated disk is seen" "state: $st"
	for m in auto hpa amac dco; do
		run "$PROG" --demo limit --method $m --size 100GB --yes sim:sata250
		expect "ext4 on the disk: $m refused" 3 "" "refused, the disk is in-use: filesystem ext4"
	done
	run "$PROG" --demo restore --yes sim:sata250
	expect "ext4 on the disk: restore refused" 3 "" "in-use: filesystem ext4"
	run "$PROG" --demo bench --workload seq-write --destructive --time 1s --yes sim:sata250
	expect "ext4 on the disk: bench --destructive refused" 3 "" "in-use: filesystem ext4"
	run "$PROG" --demo limit --size 100GB --yes --force sim:sata250
	expect "ext4 on the disk: --force --yes overrides in a script" 0 "limited to"
else
	skip "ext4 filesystem on a simulated disk" "mkfs.ext4 not found"
fi

# a drive whose blocks cannot be read cannot be checked: in use, to be safe
run "$PROG" --demo sim fault sim:sas4kn medium-error:0-7
expect "fault: medium error at LBA 0" 0
st=$(state_of sim:sas4kn)
case $st in
"in-use: could not be probed:"*) pass "unreadable label area: in use ($st)" ;;
*) fail "unreadable label area: in use" "state: $st" ;;
esac
run "$PROG" --demo limit --size 100GB --yes sim:sas4kn
expect "unreadable label area: limit refused" 3 "" "could not be probed"
run "$PROG" --demo sim fault --clear sim:sas4kn
