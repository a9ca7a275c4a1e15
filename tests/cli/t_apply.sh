# apply / array on simulated drives: binding, identity, placeholders, every refusal, the
# dry run, the transaction and its rollback at each step, kill -9 and the re-run, undo,
# replace. mdadm is tests/cli/fake-mdadm.sh (SHORTSTROKE_MDADM): it writes nothing to the
# disks; what needs a kernel array runs in the guest (tests/vm/guest/cases-77-tcmu-apply.sh).

AR_RIG=$HERE/../data/array-rig.json
AR_FAKE=$HERE/fake-mdadm.sh
AR=$TMP/ar
mkdir -p "$AR/root/proc" "$AR/nomd/proc" "$AR/bin"
echo "Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]" >"$AR/root/proc/mdstat"
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
# a fake mkfs (in $AR/bin, first on PATH for the commands that ask for one)
printf '#!/bin/sh\necho "mkfs $*" >>"%s/log"\n[ -z "${FAKE_MKFS_FAIL:-}" ]\n' "$AR" >"$AR/bin/mkfs.ext4"
chmod +x "$AR/bin/mkfs.ext4"
: >"$AR/log"

# ss ARGS: shortstroke on the array rig with md "present" (a sysroot whose /proc/mdstat lists
# every personality) and the fake mdadm
ss() {
	env SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" SHORTSTROKE_MDADM="$AR_FAKE" \
		SHORTSTROKE_MODPROBE=false FAKE_MDADM_LOG="$AR/log" FAKE_MDADM_STATE="$AR/md.state" \
		PATH="$AR/bin:$PATH" "$PROG" "$@"
}
cap() { ss info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
jlines() { [ -f "$J" ] && wc -l <"$J" || echo 0; }
full=195312500
# every drive of the list at its full capacity?
all_full() {
	for d in "$@"; do [ "$(cap "$d")" = $full ] || { echo "$d: $(cap "$d")"; return 1; }; done
}
recstate() { python3 -c "import json; print(json.load(open('$SHORTSTROKE_STATE_DIR/arrays/$1.json'))['state'])"; }

cd "$AR" || exit 1
ss plan --level 10 --stroke 25% sim:a1 sim:a2 sim:s1 sim:s2 -O r10.json >/dev/null 2>&1
ss plan --level 5 --stroke 25% sim:s1 sim:a1 sim:s2 sim:a2 sim:s3 -O r5.json >/dev/null 2>&1
ss plan --disks 4 --model-of sim:a1 --level 0 --stroke 25% sim:a1 -O ph.json >/dev/null 2>&1
[ -f r10.json ] && [ -f r5.json ] && [ -f ph.json ] && pass "apply: plans written" || fail "apply: plans written"
lim=$(python3 -c "import json; print(json.load(open('r10.json'))['disks'][0]['limit_blocks'])")

# --- no md on this machine: said before a member is touched ---------------------------------
run env SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/nomd" SHORTSTROKE_MODPROBE=false \
	"$PROG" apply r10.json --name fast0 --yes
expect "apply: no md (no /proc/mdstat, modprobe -n fails): refused" 1 "" "this kernel has no md.*nothing was changed"
all_full sim:a1 sim:a2 sim:s1 sim:s2 >/dev/null && [ "$(jlines)" = 0 ] \
	&& pass "apply: no md: no member touched, nothing journaled" || fail "apply: no md: no member touched" "$(cat "$J" 2>&1)"
if [ ! -e /proc/mdstat ] && ! modprobe -n -q md_mod 2>/dev/null; then
	run env SHORTSTROKE_RIG="$AR_RIG" "$PROG" apply r10.json --name fast0 --yes
	expect "apply: this host has no md: refused" 1 "" "this kernel has no md"
	run env SHORTSTROKE_RIG="$AR_RIG" "$PROG" apply r10.json --name fast0 --dry-run
	expect "apply --dry-run on this host: every step, then why it would stop" 1 \
		"would run: mdadm --create /dev/md/fast0" ""
	printf '%s\n' "$OUT" | grep -q "a real run would stop before the first change: this kernel has no md" \
		&& pass "apply --dry-run: the reason it would stop" || fail "apply --dry-run: the reason it would stop" "$OUT"
else
	skip "apply: this host's md refusal" "this host has md"
fi
run env SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/nomd" SHORTSTROKE_MDADM="$AR/bin/none" \
	"$PROG" apply r10.json --name fast0 --yes
expect "apply: mdadm not installed: refused" 1 "" "mdadm is not installed"
mkdir -p "$AR/r1only/proc"
echo "Personalities : [raid1]" >"$AR/r1only/proc/mdstat"
run env SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/r1only" SHORTSTROKE_MDADM="$AR_FAKE" \
	SHORTSTROKE_MODPROBE=false "$PROG" apply r10.json --name fast0 --yes
expect "apply: no raid10 personality: refused" 1 "" "personality for RAID 10 \(raid10\) is not loaded"
# a safety refusal is reported first, before the md one
ss protect add serial:SAS00002 >/dev/null 2>&1 || printf 'serial:SAS00002\n' >>"$SHORTSTROKE_PROTECT_FILE"
run env SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/nomd" SHORTSTROKE_MODPROBE=false \
	"$PROG" apply r10.json --name fast0 --yes
expect "apply: a protected member is refused (exit 3) before the md check" 3 "" "sim:s2.*protect"
printf '%s\n' "$ERR" | grep -q "no md" && fail "apply: protected: no md message after the refusal" "$ERR" \
	|| pass "apply: protected: the safety refusal alone"
run ss apply r10.json --name fast0 --yes
expect "apply: a protected member is refused (md present)" 3 "" "sim:s2"
all_full sim:a1 sim:a2 sim:s1 >/dev/null && pass "apply: protected: nothing changed" || fail "apply: protected: nothing changed"
: >"$SHORTSTROKE_PROTECT_FILE"

# --- dry run ----------------------------------------------------------------------------------
run ss apply r10.json --name fast0 --mkfs ext4 --dry-run
expect "apply --dry-run (md present): exit 0" 0 "dry run: nothing was sent"
for pat in "^sim:a1: commands that would be sent:" "ATA SET ACCESSIBLE MAX ADDRESS" \
	"^sim:s2: commands that would be sent:" "MODE SELECT\(10\)" \
	"would run: .*fake-mdadm.sh --create /dev/md/fast0 --run --metadata=1.2 --level=10 --raid-devices=4 --chunk=512K --layout=n2 --bitmap=internal --name=fast0 sim:a1 sim:a2 sim:s1 sim:s2" \
	"would run: mkfs.ext4 -F -q -b 4096 -E stride=128,stripe_width=256 /dev/md/fast0"; do
	printf '%s\n' "$OUT" | grep -qE -- "$pat" && pass "apply --dry-run shows /$pat/" || fail "apply --dry-run shows /$pat/" "$OUT"
done
all_full sim:a1 sim:a2 sim:s1 sim:s2 >/dev/null && [ "$(jlines)" = 0 ] && [ ! -s "$AR/log" ] \
	&& pass "apply --dry-run: nothing sent, journaled or run" || fail "apply --dry-run: nothing sent" "$(cat "$AR/log")"
run ss apply r5.json --name r5 --mkfs ext4 --dry-run
expect "apply --dry-run RAID 5: no layout, ext4 stripe over 4 data disks" 0 \
	"--level=5 --raid-devices=5 --chunk=512K --bitmap=internal --name=r5 sim:s1 sim:a1 sim:s2 sim:a2 sim:s3"
printf '%s\n' "$OUT" | grep -q "stride=128,stripe_width=512" && pass "apply --dry-run RAID 5: stripe_width 4 x stride" \
	|| fail "apply --dry-run RAID 5: stripe_width 4 x stride" "$OUT"
run ss apply r10.json --name fast0 --dry-run -J
printf '%s' "$OUT" | python3 -c "
import json,sys; o=json.load(sys.stdin); a=o['array']
assert o['ok'] and o['changed'] is False and a['level']=='10' and len(a['members'])==4 and a['members'][3]['device']=='sim:s2', o
assert 'MODE SELECT' in o['log']" && pass "apply --dry-run -J" || fail "apply --dry-run -J" "$OUT"

# --- binding and identity ----------------------------------------------------------------------
run ss apply ph.json --name ph --dry-run
expect "apply: placeholders need --members" 2 "" "placeholders: name them with --members"
run ss apply ph.json --name ph --dry-run --members sim:a2 sim:a3
expect "apply: --members of the wrong count" 2 "" "4 members \(3 placeholders\)"
run ss apply ph.json --name ph --dry-run --members sim:a2 sim:a3 sim:a4
expect "apply: placeholders bound by --members in layout order" 0 "sim:a1 sim:a2 sim:a3 sim:a4$"
run ss apply ph.json --name ph --dry-run --members sim:a1 sim:a4 sim:a3 sim:a2
expect "apply: --members for every member, in order" 0 "sim:a1 sim:a4 sim:a3 sim:a2$"
run ss apply ph.json --name ph --dry-run --members sim:a3 sim:a4 sim:a2 sim:big
expect "apply: a named member bound to another disk: refused" 3 "" "sim:a3 \(member 1\): not the disk the plan recorded: serial AMAC-0003, the plan has AMAC-0001"
run ss apply r10.json --name fast0 --dry-run --members sim:a1 sim:a3 sim:s1 sim:s2
expect "apply: identity mismatch (serial) is refused, naming the disk" 3 "" "sim:a3 \(member 2\): not the disk"
run ss apply ph.json --name ph --dry-run --members sim:a2 sim:a3 sim:big
expect "apply: a bigger disk of the same kind fills a placeholder" 0 "sim:big"
run ss apply ph.json --name ph --dry-run --members sim:a2 sim:a3 sim:small
expect "apply: a placeholder smaller than the disk it copies: refused" 3 "" "sim:small \(member 4\): 97656250 blocks, smaller than"
run ss apply ph.json --name ph --dry-run --members sim:a2 sim:a3 sim:slow
expect "apply: a placeholder of another rpm class: refused" 3 "" "sim:slow \(member 4\): a 5400 rpm disk"
run ss apply ph.json --name ph --dry-run --members sim:a2 sim:a3 sim:k4
expect "apply: a placeholder with another block size: refused" 3 "" "sim:k4 \(member 4\): 4096-byte blocks"
run ss apply ph.json --name ph --dry-run --members sim:a2 sim:a2 sim:a3
expect "apply: the same disk twice" 2 "" "named twice"

# --- levels md cannot build ---------------------------------------------------------------------
run ss plan --level 0 --stroke 25% sim:smr sim:k4 -O smr.json
expect "plan: a host-managed SMR disk is kept out of md layouts" 2 "" "sim:smr.*host-managed"
# a plan file that names one all the same (written by hand, or by an older version)
ss plan --level 0 --stroke 25% sim:k4 sim:a1 -O smr.json >/dev/null 2>&1
ss info -J sim:smr | python3 -c '
import json, sys
smr = json.load(sys.stdin)
p = json.load(open("smr.json"))
for d in p["disks"]:
    if d.get("device") == "sim:k4":
        d.update(device="sim:smr", serial=smr["serial"], wwn=smr["wwn"], model=smr["model"])
json.dump(p, open("smr.json", "w"), indent=2)
'
run ss apply smr.json --name z --yes
expect "apply: a host-managed SMR member: refused with the reason" 1 "" "sim:smr|host-managed SMR disk.*cannot be an md member"

# a plan made for a hardware RAID controller: apply builds md, whose figures differ (issue 28.2)
ss plan --level 1 --stroke 25% sim:a1 sim:a2 --controller hw-raid -O hw.json >/dev/null 2>&1
run ss apply hw.json --name hw --dry-run
expect "apply: a plan made for hw-raid is refused, with what to do" 1 "" \
	"refused: the plan was made for a hardware RAID controller .*plan again with --controller md or hba"
[ ! -e "$SHORTSTROKE_STATE_DIR/arrays/hw.json" ] && pass "apply of a hw-raid plan: no record written" ||
	fail "apply of a hw-raid plan: no record written"

# --- nested levels: RAID 50 as a RAID 0 over RAID 5 arrays, 0+1 as a RAID 1 over RAID 0s --------
ss plan --level 50 --stroke 25% sim:a1 sim:a2 sim:a3 sim:s1 sim:s2 sim:s3 -O r50.json >/dev/null 2>&1
ss plan --level 0+1 --stroke 25% sim:a1 sim:a2 sim:s1 sim:s2 -O r01.json >/dev/null 2>&1
run ss apply r50.json --name r50 --mkfs ext4 --dry-run
expect "apply --dry-run RAID 50: the first RAID 5, of the first group" 0 \
	"would run: .*--create /dev/md/r50.0 --run --metadata=1.2 --level=5 --raid-devices=3 --chunk=512K --bitmap=internal --name=r50.0 sim:a1 sim:a2 sim:a3$"
expect "apply --dry-run RAID 50: the second RAID 5" 0 \
	"would run: .*--create /dev/md/r50.1 .*--level=5 --raid-devices=3 .*--name=r50.1 sim:s1 sim:s2 sim:s3$"
expect "apply --dry-run RAID 50: the RAID 0 over them, no bitmap" 0 \
	"would run: .*--create /dev/md/r50 --run --metadata=1.2 --level=0 --raid-devices=2 --chunk=512K --name=r50 /dev/md/r50.0 /dev/md/r50.1$"
expect "apply --dry-run RAID 50: ext4 over 4 data disks" 0 "mkfs.ext4 .*stride=128,stripe_width=512 /dev/md/r50$"
run ss apply r01.json --name r01 --dry-run
expect "apply --dry-run RAID 0+1: two RAID 0, no bitmap" 0 \
	"--create /dev/md/r01.1 --run --metadata=1.2 --level=0 --raid-devices=2 --chunk=512K --name=r01.1 sim:s1 sim:s2$"
expect "apply --dry-run RAID 0+1: a RAID 1 over them" 0 \
	"--create /dev/md/r01 --run --metadata=1.2 --level=1 --raid-devices=2 --bitmap=internal --name=r01 /dev/md/r01.0 /dev/md/r01.1$"
run ss apply r50.json --name r50 --conf "$AR/r50.conf" --yes
expect "apply RAID 50: created" 0 "^/dev/md/r50: created: RAID 50 over 6 members: RAID 0 over 2 RAID 5 arrays of 3$"
[ "$(grep -c '^ARRAY /dev/md/r50' "$AR/r50.conf")" = 3 ] && head -1 "$AR/r50.conf" | grep -q "^ARRAY /dev/md/r50.0 " \
	&& pass "apply RAID 50: three ARRAY lines, the inner arrays first" || fail "apply RAID 50: ARRAY lines" "$(cat "$AR/r50.conf")"
python3 -c "
import json; r = json.load(open('$SHORTSTROKE_STATE_DIR/arrays/r50.json'))
assert r['level'] == '50' and [i['md_dev'] for i in r['inner']] == ['/dev/md/r50.0', '/dev/md/r50.1'], r
assert all(i['uuid'] for i in r['inner']) and r['uuid'] and r['members'][0]['rpm'] == 7200 and r['members'][3]['tran'] == 'sas', r
" && pass "apply RAID 50: one record holds the array and its inner arrays" || fail "apply RAID 50: the record"
run ss array status r50
expect "array status RAID 50: the shape" 0 "^/dev/md/r50: RAID 50 over 6 members: RAID 0 over 2 RAID 5 arrays of 3, chunk 512 KiB; done"
expect "array status RAID 50: each inner array" 0 "^md /dev/md/r50.1: raid5 over 3 devices"
expect "array status RAID 50: a member's inner array" 0 "^sim:s2: 48826368 blocks .*limited\\), by scsi-resize, in /dev/md/r50.1$"
# replace a failed member of the second group: mdadm on its inner array; the member taken out
# is let go at once (md metadata wiped, capacity restored)
: >"$AR/log"
run env FAKE_MDADM_REMOVE_OK=1 SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" \
	SHORTSTROKE_MDADM="$AR_FAKE" FAKE_MDADM_LOG="$AR/log" FAKE_MDADM_STATE="$AR/md.state" \
	"$PROG" array replace r50 sim:s2 sim:s4 --yes
expect "array replace RAID 50: done" 0 "^/dev/md/r50.1: sim:s4 added in the place of sim:s2"
grep -q "^mdadm /dev/md/r50.1 --remove sim:s2$" "$AR/log" && grep -q "^mdadm /dev/md/r50.1 --add sim:s4$" "$AR/log" \
	&& pass "array replace RAID 50: --remove and --add on the inner array of the member" \
	|| fail "array replace RAID 50: mdadm on the inner array" "$(cat "$AR/log")"
expect "array replace of a failed member: it is let go at once" 0 "^sim:s2: left the array, back to its original capacity$"
grep -q "^mdadm --zero-superblock sim:s2$" "$AR/log" && [ "$(cap sim:s2)" = $full ] && [ "$(cap sim:s4)" = 48826368 ] \
	&& pass "array replace: the failed member wiped and restored, the new one limited" \
	|| fail "array replace: failed member restored" "s2 $(cap sim:s2) s4 $(cap sim:s4)" "$(cat "$AR/log")"
run ss array status r50
expect "array status after replace: the new member in its group's array" 0 "^sim:s4: 48826368 blocks .*, in /dev/md/r50.1$"
expect "array status after replace: the member taken out, restored" 0 "^sim:s2: replaced, left the array: $full blocks \\(restored\\)$"
: >"$AR/log"
run ss array undo r50 --yes
expect "array undo RAID 50" 0 "undone: every member restored"
tr '\n' '|' <"$AR/log" | grep -q -- "--stop /dev/md/r50|.*--zero-superblock /dev/md/r50.0|.*--zero-superblock /dev/md/r50.1|.*--stop /dev/md/r50.0|.*--stop /dev/md/r50.1|.*--zero-superblock sim:a1" \
	&& pass "array undo RAID 50: the array stopped, its superblocks on the inner arrays wiped, they stopped, then the members" \
	|| fail "array undo RAID 50: order of mdadm calls" "$(cat "$AR/log")"
all_full sim:a1 sim:a2 sim:a3 sim:s1 sim:s2 sim:s3 sim:s4 && pass "array undo RAID 50: every member back" \
	|| fail "array undo RAID 50: every member back"
[ ! -s "$AR/r50.conf" ] && pass "array undo RAID 50: the three ARRAY lines removed" || fail "array undo RAID 50: conf" "$(cat "$AR/r50.conf")"
rm -f "$AR/md.state"

# --- the later steps, checked first --------------------------------------------------------------
j0=$(jlines)
mkdir -p "$AR/root/dev/md" && : >"$AR/root/dev/md/taken"
run ss apply r10.json --name taken --yes
expect "apply: the name is taken (/dev/md/NAME exists)" 1 "" "/dev/md/taken already exists"
rm -f "$AR/root/dev/md/taken"
run env SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" SHORTSTROKE_MDADM="$AR_FAKE" \
	PATH=/nonexistent "$PROG" apply r10.json --name fast0 --mkfs ext4 --yes
expect "apply --mkfs: mkfs missing is refused first" 1 "" "mkfs.ext4 is not installed"
run ss apply r10.json --name fast0 --conf /nonexistent/mdadm.conf --yes
expect "apply --conf: an unwritable file is refused first (exit 2, an output path)" 2 "" "nonexistent"
all_full sim:a1 sim:a2 sim:s1 sim:s2 >/dev/null && [ "$(jlines)" = "$j0" ] \
	&& pass "apply: the pre-checks changed nothing" || fail "apply: the pre-checks changed nothing"
run ss apply r10.json --name fast0
expect "apply: not confirmed without --yes in a script" 3 "" "not confirmed"

# --- the transaction ------------------------------------------------------------------------------
: >"$AR/log"
run ss apply r10.json --name fast0 --mkfs ext4 --conf "$AR/mdadm.conf" --yes
expect "apply RAID 10: done" 0 "/dev/md/fast0: created: RAID 10 over 4 members, ext4"
for d in sim:a1 sim:a2 sim:s1 sim:s2; do
	[ "$(cap $d)" = "$lim" ] || { fail "apply: $d limited to the plan's $lim" "$(cap $d)"; continue; }
	pass "apply: $d limited to the plan's limit"
done
grep -q "^mdadm --create /dev/md/fast0 --run --metadata=1.2 --level=10 --raid-devices=4 --chunk=512K --layout=n2 --bitmap=internal --name=fast0 sim:a1 sim:a2 sim:s1 sim:s2$" "$AR/log" \
	&& grep -q "^mdadm --detail --export /dev/md/fast0" "$AR/log" \
	&& grep -q "^mkfs -F -q -b 4096 -E stride=128,stripe_width=256 /dev/md/fast0$" "$AR/log" \
	&& pass "apply: mdadm --create, --detail --export, mkfs by argv" || fail "apply: mdadm and mkfs calls" "$(cat "$AR/log")"
grep -q "^ARRAY /dev/md/fast0 metadata=1.2 UUID=01234567:89abcdef:01234567:89abcdef name=fakehost:fast0$" "$AR/mdadm.conf" \
	&& pass "apply --conf: the ARRAY line appended" || fail "apply --conf: the ARRAY line" "$(cat "$AR/mdadm.conf" 2>&1)"
[ "$(recstate fast0)" = done ] && pass "apply: the record says done" || fail "apply: the record says done" "$(recstate fast0)"
for ev in array-apply array-create array-created; do
	[ "$(grep -c "\"event\":\"$ev\".*\"method\":\"md:fast0\"" "$J")" = 4 ] \
		&& pass "journal: $ev for each member" || fail "journal: $ev for each member" "$(cat "$J")"
done
grep -q '"event":"limit-done","device":"sim:a1".*"original_blocks":195312500' "$J" \
	&& pass "journal: the members' original capacities" || fail "journal: the members' original capacities"
n=$(jlines)
: >"$AR/log"
run ss apply r10.json --name fast0 --yes
expect "apply again: a no-op that says so" 0 "already applied.*nothing to do"
[ "$(jlines)" = "$n" ] && [ ! -s "$AR/log" ] && pass "apply again: nothing journaled, mdadm not run" \
	|| fail "apply again: nothing journaled, mdadm not run" "$(cat "$AR/log")"
run ss apply r5.json --name fast0 --yes
expect "apply of another plan under a taken name: refused" 1 "" "the name fast0 is taken"
run ss array list
expect "array list" 0 "^fast0 +done +10 +25.0% +25.0 GB +sim:a1,sim:a2,sim:s1,sim:s2$"
run ss array list -J
printf '%s' "$OUT" | python3 -c "
import json,sys; a=json.load(sys.stdin)['arrays'][0]
assert a['name']=='fast0' and a['state']=='done' and [m['state'] for m in a['members']]==['limited']*4
assert a['members'][0]['before_blocks']==$full and a['members'][0]['limit_blocks']==$lim" \
	&& pass "array list -J" || fail "array list -J" "$OUT"
run ss array status fast0
expect "array status: md and every member's limit from the drive" 0 "md: raid10 over 4 devices"
[ "$(printf '%s\n' "$OUT" | grep -c "blocks (the limit is $lim: limited)")" = 4 ] \
	&& pass "array status: each member limited" || fail "array status: each member limited" "$OUT"

# --- undo refusals, then undo ------------------------------------------------------------------------
mkdir -p "$AR/root/proc/self"
echo "/dev/md/fast0 /srv ext4 rw 0 0" >"$AR/root/proc/self/mounts"
run ss array undo fast0 --yes
expect "array undo: a mounted array is refused" 3 "" "mounted on /srv"
# a mount point with a space (\040 in the table: libmount undoes it), by the kernel name, in
# mountinfo (what Linux has)
printf '%s\n' "36 25 9:127 / /srv/my\\040data rw,relatime shared:1 - ext4 /dev/md127 rw" \
	>"$AR/root/proc/self/mountinfo"
ln -sf ../md127 "$AR/root/dev/md/fast0"
run ss array undo fast0 --yes
expect "array undo: mounted by its kernel name on a path with a space: refused" 3 "" \
	"/dev/md/fast0 is mounted on /srv/my data; unmount it first"
rm -f "$AR/root/proc/self/mounts" "$AR/root/proc/self/mountinfo" "$AR/root/dev/md/fast0"
ln -sf ../md127 "$AR/root/dev/md/fast0"
mkdir -p "$AR/root/sys/block/md127/md" "$AR/root/sys/block/md127/holders/dm-0"
echo clean >"$AR/root/sys/block/md127/md/array_state"
run ss array undo fast0 --yes
expect "array undo: an array held by LVM/dm is refused" 3 "" "held by dm-0"
rm -rf "$AR/root/sys/block/md127/holders" "$AR/root/dev/md/fast0"
[ "$(cap sim:a1)" = "$lim" ] && pass "array undo refused: nothing changed" || fail "array undo refused: nothing changed"

# --- replace -----------------------------------------------------------------------------------------
run ss array replace fast0 sim:s2 sim:k4 --yes
expect "array replace: a disk unlike the members is refused" 3 "" "sim:k4: 4096-byte blocks"
run ss array replace fast0 sim:s2 sim:a1 --yes
expect "array replace: a member cannot replace another" 2 "" "already a member"
# the class of the member it replaces: rpm and transport, --force overrides
run ss array replace fast0 sim:a2 sim:slow --yes
expect "array replace: a disk of another rpm class is refused" 3 "" \
	"sim:slow: a 5400 rpm disk in the place of a 7200 rpm member: .*--force takes it"
run ss array replace fast0 sim:a2 sim:slow --dry-run --force
expect "array replace --force: another class taken, and said" 0 \
	"sim:slow: replaces sim:a2 in /dev/md/fast0: .* by amac; a 5400 rpm disk in the place of a 7200 rpm member \\(--force\\)"
[ "$(cap sim:slow)" = $full ] && pass "array replace --dry-run: nothing sent" || fail "array replace --dry-run: nothing sent"
: >"$AR/log"
run ss array replace fast0 sim:s2 sim:s3 --yes
expect "array replace: done" 0 "sim:s3 added in the place of sim:s2"
expect "array replace: the member taken out stays in md as the copy's source, said with what to do" 0 "" \
	"sim:s2: in /dev/md/fast0 as the source of the copy onto sim:s3 until the rebuild ends; then 'mdadm /dev/md/fast0 --remove sim:s2' and 'shortstroke restore sim:s2'"
[ "$(cap sim:s3)" = "$lim" ] && pass "array replace: the new disk gets exactly the members' limit" \
	|| fail "array replace: the new disk gets the members' limit" "$(cap sim:s3)"
grep -q "^mdadm /dev/md/fast0 --add-spare sim:s3$" "$AR/log" && grep -q "^mdadm /dev/md/fast0 --replace sim:s2 --with sim:s3$" "$AR/log" \
	&& pass "array replace: an active member: --add-spare, then --replace" || fail "array replace: mdadm calls" "$(cat "$AR/log")"
grep -q '"event":"array-replace"' "$J" && pass "journal: array-replace" || fail "journal: array-replace"
run ss array list
expect "array list after replace" 0 "sim:a1,sim:a2,sim:s1,sim:s3$"
run ss array status fast0
expect "array status after replace: the slots counted, the one replaced said" 0 \
	"^/dev/md/fast0: RAID 10 over 4 members, chunk 512 KiB; done \\(step: done\\); 1 member replaced since, listed last$"
expect "array status after replace: the member taken out, still limited, with what remains" 0 \
	"^sim:s2: replaced, left the array: $lim blocks \\(still to do\\): in /dev/md/fast0 as the source of the copy"
run ss array status fast0 -J
json_check "array status -J after replace: 4 members, 1 replaced with its todo" \
	'len(d["members"]) == 4 and [m["device"] for m in d["replaced"]] == ["sim:s2"] and d["replaced"][0]["todo"].startswith("in /dev/md/fast0")'

: >"$AR/log"
run ss array undo fast0 --yes
expect "array undo" 0 "undone: every member restored"
all_full sim:a1 sim:a2 sim:s1 sim:s3 sim:s2 && pass "array undo: every member back to its original capacity, the one replaced too" \
	|| fail "array undo: members back"
grep -q "^mdadm --stop /dev/md/fast0$" "$AR/log" && [ "$(grep -c -- "--zero-superblock" "$AR/log")" = 4 ] \
	&& pass "array undo: stop, zero-superblock each member" || fail "array undo: mdadm calls" "$(cat "$AR/log")"
[ "$(recstate fast0)" = undone ] && pass "array undo: the record says undone" || fail "array undo: record"
expect "array undo: the member replaced, still limited, restored too" 0 "^sim:s2: restored to $full blocks"
run ss array replace fast0 sim:s1 sim:s4 --yes
expect "array replace of an undone array: refused" 1 "" "/dev/md/fast0 is undone, not a complete array"
run ss array undo fast0 --yes
expect "array undo again: nothing to do" 0 "already undone"

# --- rollback at each step -----------------------------------------------------------------------------
# a member's limit fails: the first, the middle, the last of RAID 5 over s1 a1 s2 a2 s3
for m in s1 s2 s3; do
	ss sim fault sim:$m abort:55 >/dev/null
	run ss apply r5.json --name r5 --yes
	ss sim fault --clear sim:$m >/dev/null
	expect "apply: the limit of sim:$m fails: exit 1, rolled back" 1 "" \
		"sim:$m: command 0x55 failed.*rolled back: every member is back to its original capacity"
	all_full sim:s1 sim:a1 sim:s2 sim:a2 sim:s3 && pass "apply: sim:$m failed: every member at its original capacity" \
		|| fail "apply: sim:$m failed: members restored"
	[ "$(recstate r5)" = undone ] && pass "apply: sim:$m failed: the record says undone" || fail "record after sim:$m" "$(recstate r5)"
done
grep -q '"event":"array-undone".*"method":"md:r5"' "$J" && pass "journal: array-undone" || fail "journal: array-undone"
# mdadm --create fails; then the check of what md built; then mkfs
for step in create detail mkfs; do
	: >"$AR/log"
	if [ $step = mkfs ]; then
		run env SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" \
			SHORTSTROKE_MDADM="$AR_FAKE" FAKE_MDADM_LOG="$AR/log" FAKE_MDADM_STATE="$AR/md.state" \
			FAKE_MKFS_FAIL=1 PATH="$AR/bin:$PATH" "$PROG" apply r5.json --name r5 --mkfs ext4 --yes
	else
		run env FAKE_MDADM_FAIL=$step SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" \
			SHORTSTROKE_MDADM="$AR_FAKE" FAKE_MDADM_LOG="$AR/log" FAKE_MDADM_STATE="$AR/md.state" \
			"$PROG" apply r5.json --name r5 --yes
	fi
	expect "apply: $step fails: exit 1, rolled back" 1 "" "rolled back: every member is back"
	all_full sim:s1 sim:a1 sim:s2 sim:a2 sim:s3 && pass "apply: $step failed: members restored" \
		|| fail "apply: $step failed: members restored"
	[ "$(grep -c -- "--zero-superblock" "$AR/log")" = 5 ] && pass "apply: $step failed: md metadata of this run wiped" \
		|| fail "apply: $step failed: zero-superblock" "$(cat "$AR/log")"
	case $step in
	create) grep -q -- "--stop" "$AR/log" && fail "apply: create failed: no array to stop" "$(cat "$AR/log")" \
		|| pass "apply: create failed: no array to stop" ;;
	mkfs) grep -q -- "--stop /dev/md/r5" "$AR/log" && pass "apply: mkfs failed: the array stopped" \
		|| fail "apply: mkfs failed: the array stopped" "$(cat "$AR/log")" ;;
	esac
	rm -f "$AR/md.state"
done

# a rollback that fails (an HPA member: one SET MAX per power cycle) leaves the record saying
# what remains, and array undo finishes it after the power cycle
ss plan --level 1 --stroke 25% sim:h1 sim:s4 -O h.json >/dev/null 2>&1
run env FAKE_MDADM_FAIL=create SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" \
	SHORTSTROKE_MDADM="$AR_FAKE" "$PROG" apply h.json --name h --yes
expect "apply: a failed rollback says what remains" 1 "" "the rollback is incomplete: .*sim:h1.*array undo h"
[ "$(recstate h)" = rollback-incomplete ] && pass "apply: failed rollback: record rollback-incomplete" \
	|| fail "apply: failed rollback: record" "$(recstate h)"
[ "$(cap sim:s4)" = $full ] && pass "apply: the failed rollback went on past the HPA member: sim:s4 restored" \
	|| fail "apply: the failed rollback went on past the HPA member" "sim:s4: $(cap sim:s4)"
run ss array status h
expect "array status: shows what remains" 0 "remains: .*sim:h1"
run ss array undo h --yes
expect "array undo before the power cycle fails again" 1 "" "sim:h1"
ss sim power-cycle sim:h1 >/dev/null
run ss array undo h --yes
expect "array undo after the power cycle finishes the rollback" 0 "undone"
all_full sim:h1 sim:s4 && pass "array undo: the failed rollback finished" || fail "array undo: failed rollback finished"

# array undo goes on past a member that refuses (the HPA member before its power cycle),
# restores the others and lists what remains and why (issue 24, item 6)
ss sim power-cycle sim:h1 >/dev/null
ss plan --level 10 --stroke 25% sim:h1 sim:s4 sim:s3 sim:a4 -O hu.json >/dev/null 2>&1
run ss apply hu.json --name hu --yes
expect "apply with an HPA member: done" 0 "created"
run ss array undo hu --yes
expect "array undo, HPA member in the same power cycle: incomplete (exit 1), naming it and why" 1 \
	"^sim:h1: NOT restored: the drive refused SET MAX ADDRESS twice" \
	"undo incomplete, 1 of 4 members still to restore: sim:h1: the drive refused SET MAX ADDRESS twice.*power-cycle the drive and retry; 'shortstroke array undo hu' again finishes it"
all_full sim:s4 sim:s3 sim:a4 && pass "array undo: every other member restored past the one that refused" \
	|| fail "array undo: the others restored past the one that refused"
[ "$(cap sim:h1)" = "$lim" ] && [ "$(recstate hu)" = rollback-incomplete ] \
	&& pass "array undo: the refusing member kept limited, the record rollback-incomplete" \
	|| fail "array undo: the refusing member" "$(cap sim:h1) $(recstate hu)"
run ss array status hu
expect "array status: what remains, and why" 0 "^remains: sim:h1: the drive refused SET MAX ADDRESS twice"
expect "array status: the others restored" 0 "^sim:s4: $full blocks \\(the limit is $lim: restored\\)"
ss sim power-cycle sim:h1 >/dev/null
run ss array undo hu --yes
expect "array undo after the power cycle: the rest" 0 "^sim:h1: restored to $full"
all_full sim:h1 sim:s4 sim:s3 sim:a4 && [ "$(recstate hu)" = undone ] \
	&& pass "array undo: finished after the power cycle" || fail "array undo: finished after the power cycle"

# --- kill -9 in the middle, then a re-run finishes; or array undo ---------------------------------------
ss sim power-cycle sim:h1 >/dev/null
for how in rerun undo; do
	# (a shell in between reports the kill to the captured stderr, not to the test log)
	run sh -c '"$@"' _ env FAKE_MDADM_KILL=create SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" \
		SHORTSTROKE_MDADM="$AR_FAKE" FAKE_MDADM_STATE="$AR/md.state" "$PROG" apply r10.json --name k --yes
	[ "$RC" = 137 ] && [ "$(recstate k)" = creating ] && [ "$(cap sim:a1)" = "$lim" ] \
		&& pass "kill -9 at mdadm --create ($how): the record says creating, members limited" \
		|| fail "kill -9 at mdadm --create ($how)" "rc $RC, $(recstate k)" "$ERR"
	if [ $how = rerun ]; then
		run ss apply r10.json --name k --yes
		expect "apply after kill -9: the earlier run rolled back, then applied" 0 \
			"/dev/md/k: created" "stopped at 'mdadm --create': rolling it back first"
		[ "$(recstate k)" = done ] && [ "$(cap sim:s2)" = "$lim" ] && pass "apply after kill -9: done" \
			|| fail "apply after kill -9: done"
		run ss array undo k --yes
	else
		run ss array undo k --yes
	fi
	expect "array undo after kill -9 ($how)" 0 "undone"
	all_full sim:a1 sim:a2 sim:s1 sim:s2 && pass "kill -9 ($how): members back to their original capacity" \
		|| fail "kill -9 ($how): members back"
	rm -f "$AR/md.state"
done
# --- -J: "changed" says whether this run changed anything --------------------------------------
# chg LABEL RC OK CHANGED LOG-REGEX: the exit code and the object apply -J / array undo -J printed
chg() {
	[ "$RC" = "$2" ] && printf '%s' "$OUT" | python3 -c "
import json, re, sys; o = json.load(sys.stdin)
assert o['ok'] is $3 and o['changed'] is $4 and re.search(sys.argv[1], o['log']), o" "$5" \
		&& pass "$1" || fail "$1" "exit $RC, expected $2" "$OUT" "$ERR"
}
ss plan --level 1 --stroke 25% sim:a3 sim:a4 -O j1.json >/dev/null 2>&1
run env FAKE_MDADM_FAIL=create SHORTSTROKE_RIG="$AR_RIG" SHORTSTROKE_SYSROOT="$AR/root" \
	SHORTSTROKE_MDADM="$AR_FAKE" "$PROG" apply j1.json --name j1 --yes -J
chg "apply -J failed, rolled back: ok false, changed true (members and record were)" 1 \
	False True "rolling back"
n=$(jlines)
run ss apply j1.json --name j1 --dry-run -J
chg "apply --dry-run -J: changed false" 0 True False "dry run: nothing was sent"
[ "$(jlines)" = "$n" ] && [ "$(recstate j1)" = undone ] && pass "apply --dry-run -J: nothing journaled" \
	|| fail "apply --dry-run -J: nothing journaled" "$(recstate j1)"
run ss apply j1.json --name j1 --yes -J
chg "apply -J: changed true" 0 True True "created: RAID 1 over 2 members"
n=$(jlines)
run ss apply j1.json --name j1 --yes -J
chg "apply -J again: changed false" 0 True False "already applied: nothing to do"
[ "$(jlines)" = "$n" ] && pass "apply -J again: nothing journaled" || fail "apply -J again: nothing journaled"
run ss array undo j1 --dry-run -J
chg "array undo --dry-run -J: changed false" 0 True False "would restore"
[ "$(recstate j1)" = done ] && [ "$(cap sim:a3)" = "$lim" ] && pass "array undo --dry-run -J: nothing changed" \
	|| fail "array undo --dry-run -J: nothing changed" "$(recstate j1)"
run ss array undo j1 --yes -J
chg "array undo -J: changed true" 0 True True "undone: every member restored"
all_full sim:a3 sim:a4 && pass "array undo -J: members back" || fail "array undo -J: members back"
run ss array undo j1 --yes -J
chg "array undo -J again: JSON, changed false" 0 True False "already undone"
rm -f "$AR/md.state"

# --- the stroke's limit: none for a full stroke, rounded once at plan time for a short one -------
plimit() { python3 -c "import json; print(' '.join(str(d['limit_blocks']) for d in json.load(open('$1'))['disks']))"; }
ss plan --level 1 --stroke 100% sim:a3 sim:big -O whole.json >/dev/null 2>&1
bigfull=$(cap sim:big)
[ "$(plimit whole.json)" = "$full $full" ] && pass "plan at 100 %: the limit is the smallest member whole" \
	|| fail "plan at 100 %: the limit is the smallest member whole" "$(plimit whole.json)"
: >"$AR/log"
n=$(jlines)
run ss apply whole.json --name whole --dry-run
expect "apply --dry-run of a full-stroke plan: no limit step" 0 \
	"sim:big: used whole \(a full-stroke plan\): no limit sent"
if printf '%s\n' "$OUT" | grep -q "commands that would be sent\|SET ACCESSIBLE\|rounds to"; then
	fail "apply --dry-run, full stroke: nothing for the drives' capacity" "$OUT"
else
	pass "apply --dry-run, full stroke: nothing for the drives' capacity"
fi
run ss apply whole.json --name whole --yes
expect "apply of a full-stroke plan (members of 100 GB and 200 GB): done" 0 \
	"sim:a3: used whole \(a full-stroke plan\): no limit sent"
[ "$(cap sim:a3)" = $full ] && [ "$(cap sim:big)" = "$bigfull" ] \
	&& pass "apply, full stroke: every member keeps its capacity" \
	|| fail "apply, full stroke: every member keeps its capacity" "$(cap sim:a3) $(cap sim:big)"
grep -q "^mdadm --create /dev/md/whole .* sim:a3 sim:big$" "$AR/log" \
	&& pass "apply, full stroke: md gets the whole disks" || fail "apply, full stroke: md gets the whole disks" "$(cat "$AR/log")"
[ "$(tail -n +$((n + 1)) "$J" | grep -c '"event":"limit')" = 0 ] \
	&& pass "apply, full stroke: no limit journaled" \
	|| fail "apply, full stroke: no limit journaled" "$(tail -n +$((n + 1)) "$J")"
run ss array status whole
expect "array status: the members used whole, as applied" 0 "sim:big: $bigfull blocks: used whole"
run ss array replace whole sim:a3 sim:small --yes
expect "array replace, full stroke: a disk smaller than md's members is refused" 3 "" "sim:small: 97656250 blocks"
run ss array replace whole sim:a3 sim:a4 --yes
expect "array replace, full stroke: the new disk is used whole too" 0 \
	"sim:a4: used whole \(a full-stroke array\): no limit sent"
[ "$(cap sim:a4)" = $full ] && pass "array replace, full stroke: the new disk keeps its capacity" \
	|| fail "array replace, full stroke: the new disk keeps its capacity" "$(cap sim:a4)"
run ss array undo whole --yes
expect "array undo of a full-stroke array: nothing to restore" 0 "sim:a4: used whole: nothing to restore"
[ "$(cap sim:a3)" = $full ] && [ "$(cap sim:a4)" = $full ] && [ "$(cap sim:big)" = "$bigfull" ] \
	&& pass "array undo, full stroke: capacities unchanged" || fail "array undo, full stroke: capacities unchanged"
rm -f "$AR/md.state"
# a stroke whose exact share is no whole MiB: the plan holds the rounded limit, the members end at it
ss plan --level 1 --stroke 33.3% sim:a3 sim:a4 -O third.json >/dev/null 2>&1
tl=$(plimit third.json | cut -d' ' -f1)
[ -n "$tl" ] && [ $((tl % 2048)) = 0 ] && [ "$tl" -lt $((full / 3)) ] && [ "$(plimit third.json)" = "$tl $tl" ] \
	&& pass "plan at 33.3 %: limit_blocks already rounded to the MiB the limit sets" \
	|| fail "plan at 33.3 %: limit_blocks rounded" "$(plimit third.json)"
run ss apply third.json --name third --yes
expect "apply of a short stroke that needed rounding: done" 0 "created: RAID 1 over 2 members"
[ "$(cap sim:a3)" = "$tl" ] && [ "$(cap sim:a4)" = "$tl" ] \
	&& pass "apply, short stroke: the members end exactly at the plan's limit_blocks" \
	|| fail "apply, short stroke: the members end at the plan's limit_blocks" "$(cap sim:a3) $(cap sim:a4) $tl"
run ss array undo third --yes
expect "array undo of the short stroke" 0 "undone: every member restored"
all_full sim:a3 sim:a4 && pass "array undo, short stroke: members back" || fail "array undo, short stroke: members back"
rm -f "$AR/md.state"

# --- arrays over partitions ---------------------------------------------------------------------
# p1..p3: SATA disks with no HPA, AMAC or DCO (behind a controller that blocks them, like QEMU's
# AHCI disk): auto gives them the partition method and md their partition, sim:ID-part1 (the
# simulator's name for it, as udev's by-id links end in -part1). q1 (AMAC) and r1 (SAS) keep a
# method that changes the drive's capacity unless the plan or --method names the partition.
PR=$AR/part-rig.json
cat >"$PR" <<'RIG'
{ "drives": [
 {"id": "p1", "personality": "sata", "vendor": "SSTEST", "model": "SSTEST PLAIN 100G",
  "serial": "PLAIN-0001", "firmware": "F1", "wwn": "5000c500d0000001", "blocks": 195312500, "rpm": 7200},
 {"id": "p2", "personality": "sata", "vendor": "SSTEST", "model": "SSTEST PLAIN 100G",
  "serial": "PLAIN-0002", "firmware": "F1", "wwn": "5000c500d0000002", "blocks": 195312500, "rpm": 7200},
 {"id": "p3", "personality": "sata", "vendor": "SSTEST", "model": "SSTEST PLAIN 100G",
  "serial": "PLAIN-0003", "firmware": "F1", "wwn": "5000c500d0000003", "blocks": 195312500, "rpm": 7200},
 {"id": "q1", "personality": "sata", "vendor": "SSTEST", "model": "SSTEST PLAIN 100G",
  "serial": "AMAC-Q001", "firmware": "F1", "wwn": "5000c500d0000011", "blocks": 195312500, "rpm": 7200,
  "hpa": {"supported": true}, "amac": true},
 {"id": "r1", "personality": "sas", "vendor": "SSTEST", "model": "SSSAS100G",
  "serial": "SASR0001", "firmware": "S1", "wwn": "5000cca0d0000021", "blocks": 195312500, "rpm": 7200}
] }
RIG
sp() { env SHORTSTROKE_RIG="$PR" SHORTSTROKE_SYSROOT="$AR/root" SHORTSTROKE_MDADM="$AR_FAKE" \
	SHORTSTROKE_MODPROBE=false FAKE_MDADM_LOG="$AR/log" FAKE_MDADM_STATE="$AR/md.state" \
	PATH="$AR/bin:$PATH" "$PROG" "$@"; }
pcap() { sp info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
pstate() { sp list -J | python3 -c "import json,sys; print([d['state'] for d in json.load(sys.stdin)['drives'] if d['device']=='$1'][0])"; }
# gpt_end ID: where partition 1 of the GPT on the simulated drive's image ends, or "none"
gpt_end() {
	python3 - "$(echo "$SHORTSTROKE_STATE_DIR"/sim/part-rig-*)/$1.img" <<'PY'
import struct, sys
try:
    f = open(sys.argv[1], 'rb')
except OSError:
    print('none'); sys.exit()
f.seek(512); h = f.read(92)
if h[:8] != b'EFI PART': print('none'); sys.exit()
f.seek(struct.unpack_from('<Q', h, 72)[0] * 512)
print(struct.unpack_from('<Q', f.read(128), 40)[0] + 1)
PY
}
# bare ID...: full capacity, no GPT, free
bare() {
	for d in "$@"; do
		[ "$(pcap sim:$d)" = $full ] && [ "$(gpt_end $d)" = none ] && [ "$(pstate sim:$d)" = free ] \
			|| { echo "sim:$d: $(pcap sim:$d) blocks, GPT end $(gpt_end $d), $(pstate sim:$d)"; return 1; }
	done
}
sp plan --level 1 --stroke 25% sim:p1 sim:q1 -O pq.json >/dev/null 2>&1
sp plan --level 0 --stroke 25% sim:p1 sim:p2 sim:p3 -O p3.json >/dev/null 2>&1
run sp plan --level 1 --stroke 25% sim:q1 sim:r1 --method partition -O qr.json
expect "plan --method partition: written into the plan file" 0
python3 -c "import json; assert [d['method'] for d in json.load(open('qr.json'))['disks']] == ['partition']*2" \
	&& pass "plan --method: every member's method in the plan" || fail "plan --method: in the plan" "$(cat qr.json)"
run sp plan --level 1 --stroke 25% sim:q1 sim:r1 --method partition
expect "plan --method without -O: usage" 2 "" "--method goes into the plan file"
run sp plan --level 1 --stroke 25% sim:q1 sim:r1 --method gpt -O x.json
expect "plan --method: an unknown method" 2 "" "unknown method 'gpt'"
plim=$(python3 -c "import json; print(json.load(open('pq.json'))['disks'][0]['limit_blocks'])")

run sp apply pq.json --name pq --dry-run
expect "apply --dry-run: auto takes the partition where the drive has no other method" 0 \
	"sim:p1: would wait for sim:p1-part1: partition 1, blocks 2048\.\.$((plim - 1)) \($((plim - 2048)) blocks for md\)"
for pat in "^sim:p1: commands that would be sent:" "WRITE\(16\) LBA 0, .* blocks \(GPT\)" \
	"ATA SET ACCESSIBLE MAX ADDRESS" \
	"would run: .*fake-mdadm.sh --create /dev/md/pq --run --metadata=1.2 --level=1 --raid-devices=2 --bitmap=internal --name=pq sim:p1-part1 sim:q1$"; do
	printf '%s\n' "$OUT" | grep -qE -- "$pat" && pass "apply --dry-run (partition) shows /$pat/" \
		|| fail "apply --dry-run (partition) shows /$pat/" "$OUT"
done
printf '%s\n' "$OUT" | grep -q "sim:p1: member 1, .* by partition; md gets its partition sim:p1-part1" \
	&& printf '%s\n' "$OUT" | grep -q "sim:q1: member 2, .* by amac$" \
	&& pass "apply --dry-run: each member's method (q1 keeps amac)" || fail "apply --dry-run: methods" "$OUT"
bare p1 q1 >/dev/null && pass "apply --dry-run (partition): nothing written" || fail "apply --dry-run (partition): nothing written"

# a member that holds a partition table already is in use: refused before anything changes
sp limit --method partition --percent 10 --yes sim:p3 >/dev/null 2>&1
run sp apply p3.json --name p3 --yes
expect "apply: a member with a partition table is refused" 3 "" "sim:p3.*partition table"
[ "$(gpt_end p1)" = none ] && [ "$(gpt_end p2)" = none ] && pass "apply refused: no GPT written on the others" \
	|| fail "apply refused: no GPT written on the others"
sp restore --yes sim:p3 >/dev/null 2>&1

# mdadm --create fails: the partitions' md metadata wiped, the GPTs removed, the record undone
: >"$AR/log"
run env FAKE_MDADM_FAIL=create SHORTSTROKE_RIG="$PR" SHORTSTROKE_SYSROOT="$AR/root" \
	SHORTSTROKE_MDADM="$AR_FAKE" FAKE_MDADM_LOG="$AR/log" "$PROG" apply p3.json --name p3 --yes
expect "apply over partitions: create fails: rolled back" 1 "sim:p3: md gets sim:p3-part1" \
	"rolled back: every member is back to its original capacity"
grep -q -- "--create .* sim:p1-part1 sim:p2-part1 sim:p3-part1$" "$AR/log" \
	&& [ "$(grep -c -- "--zero-superblock sim:p[123]-part1$" "$AR/log")" = 3 ] \
	&& pass "apply over partitions: md given the partitions, their metadata wiped" \
	|| fail "apply over partitions: mdadm calls" "$(cat "$AR/log")"
bare p1 p2 p3 && pass "rollback: no partition table left, every member free" || fail "rollback: members bare"
[ "$(recstate p3)" = undone ] && pass "rollback: the record says undone" || fail "rollback: record" "$(recstate p3)"

# the plan names the partition method: disks that could change their capacity keep it
: >"$AR/log"
n=$(jlines)
run sp apply qr.json --name qr --yes
expect "apply: the plan's partition method" 0 "/dev/md/qr: created: RAID 1 over 2 members"
grep -q -- "--create .* sim:q1-part1 sim:r1-part1$" "$AR/log" && pass "apply: md given the partitions sim:q1-part1 sim:r1-part1" \
	|| fail "apply: md given the partitions" "$(cat "$AR/log")"
[ "$(pcap sim:q1)" = $full ] && [ "$(pcap sim:r1)" = $full ] && [ "$(gpt_end q1)" = "$plim" ] && [ "$(gpt_end r1)" = "$plim" ] \
	&& pass "apply by partition: capacities kept, each GPT's partition ends at the limit" \
	|| fail "apply by partition: GPTs" "$(gpt_end q1) $(gpt_end r1)"
python3 -c "
import json; a = json.load(open('$SHORTSTROKE_STATE_DIR/arrays/qr.json'))
assert [(m['node'], m['method'], m['state']) for m in a['members']] == [('sim:q1-part1', 'partition', 'limited'), ('sim:r1-part1', 'partition', 'limited')], a" \
	&& pass "the record: each member's node (its partition) and method" || fail "the record: partition nodes"
[ "$(tail -n +$((n + 1)) "$J" | grep -c '"event":"array-created","device":"sim:[qr]1","node":"sim:[qr]1-part1"')" = 2 ] \
	&& pass "journal: array-created names the node md was given" || fail "journal: the node md got" "$(tail -n 4 "$J")"
run sp array status qr
expect "array status: a partition member's limit is where its partition ends" 0 \
	"^sim:q1: $full blocks, its partition sim:q1-part1 ends at block $plim \(the limit is $plim: limited\), by partition$"
run sp array status qr -J
json_check "array status -J: method, node, partition_end_blocks" \
	"[(m['method'], m['node'], m['partition_end_blocks'], m['limited']) for m in d['members']] == [('partition', 'sim:q1-part1', $plim, True), ('partition', 'sim:r1-part1', $plim, True)]"
[ "$(pstate sim:q1)" != free ] && pass "a partition member is not free (its GPT)" || fail "a partition member is not free"
: >"$AR/log"
run sp apply qr.json --name qr --yes
expect "apply over partitions again: a no-op" 0 "already applied"
[ ! -s "$AR/log" ] && pass "apply over partitions again: mdadm not run" || fail "apply again: mdadm not run" "$(cat "$AR/log")"

# replace: the new disk gets the same partition, md --add of its partition node
run sp array replace qr sim:r1-part1 sim:p3 --yes
expect "array replace: a disk of another transport is refused" 3 "" \
	"sim:p3: a sata disk in the place of a sas member: .*--force takes it"
: >"$AR/log"
run sp array replace qr sim:r1-part1 sim:p3 --yes --force
expect "array replace of a partition member (named by its node)" 0 "sim:p3 added in the place of sim:r1-part1"
grep -q -- "--add-spare sim:p3-part1$" "$AR/log" && grep -q -- "--replace sim:r1-part1 --with sim:p3-part1$" "$AR/log" \
	&& pass "array replace: mdadm --add-spare and --replace with the partition nodes" \
	|| fail "array replace: partition nodes" "$(cat "$AR/log")"
[ "$(gpt_end p3)" = "$plim" ] && [ "$(pcap sim:p3)" = $full ] && pass "array replace: the new disk's partition ends at the limit" \
	|| fail "array replace: the new disk's partition" "$(gpt_end p3)"
run sp restore --yes sim:r1
expect "the replaced partition member: restore takes its GPT away" 0 "by partition"
[ "$(gpt_end r1)" = none ] && pass "the replaced member: no GPT left" || fail "the replaced member: no GPT left"

# undo: stop, zero the partitions' superblocks, every member's GPT removed
: >"$AR/log"
run sp array undo qr --yes
expect "array undo over partitions" 0 "undone: every member restored"
grep -q -- "^mdadm --stop /dev/md/qr$" "$AR/log" && grep -q -- "--zero-superblock sim:q1-part1$" "$AR/log" \
	&& grep -q -- "--zero-superblock sim:p3-part1$" "$AR/log" \
	&& pass "array undo: mdadm --zero-superblock on the partitions" || fail "array undo: mdadm calls" "$(cat "$AR/log")"
bare q1 p3 && pass "array undo: no partition table left, capacity back, free" || fail "array undo: members bare"
[ "$(recstate qr)" = undone ] && pass "array undo over partitions: the record says undone" || fail "array undo: record"

run sp apply qr.json --name qr2 --method amac --dry-run
expect "apply --method overrides the plan's method" 1 "" "sim:r1: .*does not support the amac method"
# a whole-disk member cannot be replaced by a disk that only a partition can limit: the
# partition would give md a MiB less than the member it replaces
run sp apply pq.json --name pq --yes
expect "apply: auto, one partition member and one AMAC member" 0 "/dev/md/pq: created"
run sp array replace pq sim:q1 sim:p2 --yes
expect "array replace: a partition smaller than the whole-disk member is refused" 3 "" \
	"sim:p2: only a partition can limit it, which would give md $((plim - 2048)) blocks, fewer than the $plim"
bare p2 && pass "array replace refused: the new disk untouched" || fail "array replace refused: untouched"
# q1 is pq's member now: another array may not have it (the records say so; the fake mdadm
# wrote no superblock that would make it in use)
run sp apply qr.json --name qr2 --dry-run
expect "apply: a member of another array (its record) is refused" 3 "" \
	"sim:q1 \(member 1\): a member of the array pq \(/dev/md/pq, member 2, done\)"
run sp array undo pq --yes
expect "array undo (partition and AMAC members)" 0 "undone"
bare p1 && [ "$(pcap sim:q1)" = $full ] && pass "array undo: both members back" || fail "array undo: both members back"
rm -f "$AR/md.state"

run ss array bogus
expect "array: an unknown subcommand" 2 "" "unknown subcommand"
run ss array undo nosuch --yes
expect "array undo of an unknown name" 2 "" "no array 'nosuch'"
run ss apply r10.json --name 'bad/name' --dry-run
expect "apply --name with a slash" 2 "" "only letters"
cd "$HERE" || exit 1
