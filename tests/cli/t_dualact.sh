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
