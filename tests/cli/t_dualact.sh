# Dual-actuator drives (issue 29.1): the demo rig's sim:dual reports two LBA ranges (the ATA
# Concurrent Positioning Ranges log); info and list show them; limit refuses a method that cuts
# the end off (actuator 1's range would go) unless forced, and the partition method puts one
# partition at the outer edge of each range, the same share of each; restore takes it back.

half=15625879552 # each actuator's range: 31251759104 blocks / 2

run "$PROG" --demo info sim:dual
expect "info: the actuators and their ranges" 0 \
	"Actuators: +2: LBA 0-15625879551 \(8.00 TB\), LBA 15625879552-31251759103 \(8.00 TB\)"
run "$PROG" --demo info -J sim:dual
json_check "info -J: actuators and ranges" \
	"d['actuators'] == 2 and [r['lba'] for r in d['actuator_ranges']] == [0, $half] and all(r['blocks'] == $half and r['elements'] == 8 for r in d['actuator_ranges'])"
run "$PROG" --demo info -J sim:sata250
json_check "info -J: one actuator, no ranges" "d['actuators'] == 1 and d['actuator_ranges'] == []"
run "$PROG" --demo list -r -n -o DEVICE,ACTUATORS
expect "list: the ACTUATORS column" 0 "^sim:dual 2$"
expect "list: 1 for a drive of one actuator" 0 "^sim:sas15k 1$"

# an end cut is refused before anything is sent: auto (AMAC here) and HPA alike
run "$PROG" --demo limit --percent 20 --yes sim:dual
expect "limit (auto) on two actuators: refused" 3 "" \
	"has 2 actuators.*actuator 1's from LBA $half.*amac cuts the end.*random IOPS halved.*--method partition"
run "$PROG" --demo limit --percent 20 --method hpa --yes sim:dual
expect "limit --method hpa on two actuators: refused" 3 "" "hpa cuts the end.*--force"
run "$PROG" --demo info -J sim:dual
json_check "refused: nothing changed" "d['capacity_blocks'] == 2 * $half and d['limited'] is None"
[ -e "$SHORTSTROKE_STATE_DIR/journal.jsonl" ] && grep -q '"serial":"ZR70D2A1"' "$SHORTSTROKE_STATE_DIR/journal.jsonl" &&
	fail "refused: nothing journaled" "$(cat "$SHORTSTROKE_STATE_DIR/journal.jsonl")" ||
	pass "refused: nothing journaled"
run "$PROG" --demo limit --percent 20 --method hpa --force --dry-run sim:dual
expect "--force cuts the end all the same (dry run)" 0 "would limit to 6250350592 blocks .* by hpa"

# the partition method: a partition at the outer edge of each range, 20 % of each
run "$PROG" --demo limit --percent 20 --method partition --yes sim:dual
expect "limit --method partition on two actuators" 0 \
	"6250350592 blocks \(3.20 TB, 20.0% of 16.0 TB; the same share of each actuator's range, at its outer edge\) by partition"
expect "limit --method partition: done" 0 "limited to 6250350592 blocks \(3.20 TB\) by partition"
img="$SHORTSTROKE_STATE_DIR/sim/demo/dual.img"
gpt() { # the first three GPT entries of the image: start-end (inclusive) or -
	python3 - "$img" <<'PY'
import struct, sys
f = open(sys.argv[1], "rb")
f.seek(512)
h = f.read(92)
if h[:8] != b"EFI PART":
    print("none"); sys.exit()
f.seek(512 * struct.unpack("<Q", h[72:80])[0])
out = []
for i in range(3):
    e = f.read(128)
    out.append("-" if e[:16] == bytes(16) else "%d-%d" % struct.unpack("<QQ", e[32:48]))
print(" ".join(out))
PY
}
# 20 % of 15625879552 blocks = 3125175910.4, down to a MiB (2048 blocks): 3125174272
got=$(gpt)
want="2048-3125174271 15625879552-18751053823 -"
[ "$got" = "$want" ] && pass "the GPT: one partition at the outer edge of each range" ||
	fail "the GPT: one partition at the outer edge of each range" "got '$got', want '$want'"
run "$PROG" --demo info sim:dual
expect "info: limited by partition" 0 "Limited: +yes, 20.0% of 16.0 TB .* by partition"

run "$PROG" --demo restore --yes sim:dual
expect "restore: the partitions go" 0 "restored to 31251759104 blocks \(16.0 TB\) by partition"
got=$(gpt)
[ "$got" = none ] && pass "restore: no GPT left" || fail "restore: no GPT left" "$got"
run "$PROG" --demo info -J sim:dual
json_check "restore: free again" "d['state'] == 'free' and d['limited'] is None"

# a share too small for a partition in a range is refused before anything is written
run "$PROG" --demo limit --blocks 4096 --method partition --force --yes sim:dual
expect "a share too small for each range: refused" 1 "" "leaves no room for a partition"

# the zone profile falls from the outer edge in each range again: no "weak head" for that
run "$PROG" --demo qualify --profile quick sim:dual
expect "qualify: the profile of two ranges is no weak head" 0 "zones +PASS +outer 275.5 MB/s"

# --- apply: md RAID 0 over each disk's partitions (one per actuator), the plan's level over
# those; undo takes it all back. mdadm is tests/cli/fake-mdadm.sh (as in t_apply.sh); the
# guest runs the real one (cases-83).
DA=$TMP/dualapply
mkdir -p "$DA/root/proc"
echo "Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]" >"$DA/root/proc/mdstat"
cat >"$DA/rig.json" <<'RIG'
{"drives": [
 {"id": "m1", "personality": "sata", "model": "DUAL TEST 100G", "serial": "DA-0001", "firmware": "F1",
  "wwn": "5000c500d0000001", "blocks": 195312500, "actuators": 2, "amac": true, "hpa": true},
 {"id": "m2", "personality": "sata", "model": "DUAL TEST 100G", "serial": "DA-0002", "firmware": "F1",
  "wwn": "5000c500d0000002", "blocks": 195312500, "actuators": 2, "amac": true, "hpa": true}
]}
RIG
dss() {
	env SHORTSTROKE_RIG="$DA/rig.json" SHORTSTROKE_SYSROOT="$DA/root" \
		SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" SHORTSTROKE_MODPROBE=false \
		FAKE_MDADM_LOG="$DA/log" FAKE_MDADM_STATE="$DA/md.state" "$PROG" "$@"
}
: >"$DA/log"
run dss plan --level 0 --stroke 25% sim:m1 sim:m2 -O "$DA/r0.json"
expect "plan RAID 0 of two dual-actuator disks" 0
run dss apply "$DA/r0.json" --name dual0 --yes
expect "apply: a RAID 0 per disk over its actuators' partitions" 0 \
	"RAID 0 over 2 disks of 2 actuators: RAID 0 over 2 RAID 0 arrays, each of a disk's 2 partitions"
creates=$(grep -- "--create" "$DA/log" | sed 's/.*--create //')
want="/dev/md/dual0.0 --run --metadata=1.2 --level=0 --raid-devices=2 --chunk=512K --name=dual0.0 sim:m1-part1 sim:m1-part2
/dev/md/dual0.1 --run --metadata=1.2 --level=0 --raid-devices=2 --chunk=512K --name=dual0.1 sim:m2-part1 sim:m2-part2
/dev/md/dual0 --run --metadata=1.2 --level=0 --raid-devices=2 --chunk=512K --name=dual0 /dev/md/dual0.0 /dev/md/dual0.1"
[ "$creates" = "$want" ] && pass "apply: mdadm --create of each disk's stripe, then the array over them" ||
	fail "apply: mdadm --create of each disk's stripe, then the array over them" "$creates"
run dss info -J sim:m2
json_check "apply: the member is limited by partition" "d['limited']['method'] == 'partition'"
run dss array undo dual0 --yes
expect "array undo: every partition's superblock wiped, each disk restored once" 0
zeros=$(grep -c -- "--zero-superblock" "$DA/log")
[ "$zeros" -ge 4 ] && grep -q -- "--zero-superblock.*sim:m1-part2" "$DA/log" &&
	pass "undo: the md superblocks of both partitions of each disk wiped" ||
	fail "undo: the md superblocks of both partitions of each disk wiped" "$(grep -- --zero "$DA/log")"
run dss info -J sim:m1
json_check "undo: the disk is whole again" "d['limited'] is None and d['state'] == 'free'"
run dss apply "$DA/r0.json" --name dual1 --yes
expect "apply again (for status and replace)" 0
run dss array status dual1
expect "array status: each disk's partitions, under its RAID 0" 0 "sim:m1-part2"
run dss array replace dual1 sim:m1 sim:m2 --yes
expect "array replace of a disk of several actuators: not done, said" 1 "" "not done by shortstroke yet; use mdadm"
run dss array undo dual1 --yes
expect "array undo (again)" 0
