# apply / array as the issue's "What a user does" runs them, on ten simulated disks of one
# model (sim:sdb .. sim:sdk): plan --disks 8 --model-of, apply --dry-run, apply --mkfs xfs,
# array list, status, replace, undo; the mkfs alignment of RAID 10 of 8, RAID 5 of 5 and
# RAID 6 of 6 at a 512 KiB chunk; a placeholder that is limited now (judged by its journaled
# original); undo of an array that holds an LVM label or an md superblock with no holder in
# sysfs. mdadm and mkfs are fakes (tests/cli/fake-mdadm.sh): nothing needs a kernel array.

RV=$TMP/rv
mkdir -p "$RV/root/proc" "$RV/root/dev/md" "$RV/bin"
echo "Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]" >"$RV/root/proc/mdstat"
python3 - "$RV/rig.json" <<'EOF'
import json, sys
drives = [{"id": "sd" + c, "personality": "sas", "vendor": "SEAGATE", "model": "ST4000NM0023",
           "serial": "Z1Z%04d" % i, "firmware": "0004", "wwn": "5000c5007%07x" % i,
           "blocks": 7814037168, "rpm": 7200} for i, c in enumerate("bcdefghijk")]
json.dump({"drives": drives}, open(sys.argv[1], "w"), indent=1)
EOF
for fs in ext4 xfs; do
	printf '#!/bin/sh\necho "mkfs.%s $*" >>"%s/log"\n' $fs "$RV" >"$RV/bin/mkfs.$fs"
	chmod +x "$RV/bin/mkfs.$fs"
done
: >"$RV/log"
rv() {
	env SHORTSTROKE_RIG="$RV/rig.json" SHORTSTROKE_SYSROOT="$RV/root" \
		SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" SHORTSTROKE_MODPROBE=false \
		FAKE_MDADM_LOG="$RV/log" FAKE_MDADM_STATE="$RV/md.state" PATH="$RV/bin:$PATH" \
		"$PROG" "$@"
}
rvcap() { rv info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
cd "$RV" || exit 1

# --- the issue's commands, as written (sim:sdX for /dev/sdX) ---------------------------------
run rv plan --disks 8 --model-of sim:sdb --level 10 --capacity 2T -O r10.json
expect "review: plan --disks 8 --model-of --level 10 --capacity 2T -O" 0 "" "plan written to r10.json"
n=$(python3 -c "import json; print(len(json.load(open('r10.json'))['disks']))")
lim=$(python3 -c "import json; print(json.load(open('r10.json'))['disks'][0]['limit_blocks'])")
set -- sim:sdb sim:sdc sim:sdd sim:sde sim:sdf sim:sdg sim:sdh sim:sdi
run rv apply r10.json --members "$@" --name fast0 --dry-run
if [ "$n" = 8 ]; then
	expect "review: apply --members sd[b-i] --dry-run (an 8-disk plan)" 0 "dry run: nothing was sent"
else
	# the planner chose fewer of the 8 disks: the refusal says how many and why
	expect "review: apply with 8 --members for a $n-disk plan: says the layout's count" 2 "" \
		"8 devices given, but the plan's layout has $n members \(all placeholders\): give --members with $n devices.*--disks"
fi
members=$(echo "$@" | cut -d' ' -f1-"$n")
run rv apply r10.json --members $members --name fast0 --dry-run
expect "review: apply --dry-run: every member's CDB, mdadm, nothing sent" 0 \
	"would run: .*--create /dev/md/fast0 --run --metadata=1.2 --level=10 --raid-devices=$n "
[ "$(printf '%s\n' "$OUT" | grep -c ": commands that would be sent:")" = "$n" ] \
	&& printf '%s\n' "$OUT" | grep -q "MODE SELECT(10)" && [ ! -s "$RV/log" ] \
	&& pass "review: apply --dry-run: a CDB list for each of the $n members" \
	|| fail "review: apply --dry-run: CDBs per member" "$OUT"
# -J on a refusal: the object too (ok false, changed false, the reason), not an empty stdout
echo Z1Z0003 >"$SHORTSTROKE_PROTECT_FILE"
run rv apply r10.json --members $members --name fast0 --yes -J
[ "$RC" = 3 ] && json_check "review: apply -J refused (a protected member): JSON with the reason" \
	"d['ok'] is False and d['changed'] is False and 'sim:sde: refused, the disk is protected' in d['error']" \
	|| fail "review: apply -J refused: exit 3" "exit $RC" "$ERR"
: >"$SHORTSTROKE_PROTECT_FILE"
run env SHORTSTROKE_RIG="$RV/rig.json" SHORTSTROKE_SYSROOT="$RV/nomd" SHORTSTROKE_MODPROBE=false \
	"$PROG" apply r10.json --members $members --name fast0 --yes -J
[ "$RC" = 1 ] && json_check "review: apply -J with no md: JSON with the reason" \
	"d['ok'] is False and d['changed'] is False and 'this kernel has no md' in d['error']" \
	|| fail "review: apply -J no md: exit 1" "exit $RC" "$ERR"
run rv apply r10.json --members $members --name fast0 --mkfs xfs
expect "review: apply --mkfs xfs without --yes in a script: refused" 3 "" "not confirmed.*--yes"
run rv apply r10.json --members $members --name fast0 --mkfs xfs --yes
expect "review: apply --mkfs xfs --yes" 0 "/dev/md/fast0: created: RAID 10 over $n members, xfs"
grep -q "^mkfs.xfs -f -q -d su=[0-9]*k,sw=[0-9]* /dev/md/fast0$" "$RV/log" \
	&& pass "review: mkfs.xfs run with su and sw" || fail "review: mkfs.xfs run" "$(cat "$RV/log")"
run rv array list
expect "review: array list" 0 "^fast0 +done +10 "
run rv array list -J
json_check "review: array list -J" "d['arrays'][0]['name'] == 'fast0' and len(d['arrays'][0]['members']) == $n"
run rv array status fast0
expect "review: array status fast0" 0 "^sim:sdc: $lim blocks \(the limit is $lim: limited\)"
new=sim:sdj
run rv array replace fast0 sim:sdc $new --yes
expect "review: array replace fast0 sim:sdc sim:sdj" 0 "$new added in the place of sim:sdc"
[ "$(rvcap $new)" = "$lim" ] && pass "review: the new disk gets the members' limit" \
	|| fail "review: the new disk gets the members' limit" "$(rvcap $new)"
# re-running the completed apply after a replace is still the no-op (the array this plan made)
: >"$RV/log"
run rv apply r10.json --members $members --name fast0 --yes
expect "review: apply again after a replace: a no-op that says so" 0 \
	"already applied from .*r10.json \(RAID 10 over $n members, 1 replaced since.*nothing to do"
[ ! -s "$RV/log" ] && pass "review: apply again after a replace: mdadm not run" \
	|| fail "review: apply again after a replace: mdadm not run" "$(cat "$RV/log")"

# --- undo: the array holds another layer's label, but nothing holds it in sysfs ---------------
# (an LVM volume group not active, an outer md array stopped): refused, exit 3, nothing changed;
# every md superblock version is seen (0.90 and 1.0 at the end of the device, 1.1/1.2 at its
# start; libblkid's probes, as in-use detection uses them), images as libblkid checks them
python3 "$HERE/mklabels.py" lvm root/dev/md/fast0
run rv array undo fast0 --yes
expect "review: array undo of an array holding an LVM PV label: refused" 3 "" \
	"/dev/md/fast0 holds an LVM physical volume"
for v in 0.90 1.0 1.1 1.2; do
	python3 "$HERE/mklabels.py" md$v root/dev/md/fast0
	run rv array undo fast0 --yes
	expect "review: array undo of an array holding an md $v superblock: refused" 3 "" \
		"/dev/md/fast0 holds an md member \\(superblock $v"
done
[ "$(rvcap sim:sdb)" = "$lim" ] && pass "review: undo refused: nothing restored" \
	|| fail "review: undo refused: nothing restored" "$(rvcap sim:sdb)"
: >root/dev/md/fast0
run rv array undo fast0 --yes
expect "review: array undo fast0" 0 "undone: every member restored"
rm -f root/dev/md/fast0
[ "$(rvcap sim:sdb)" = 7814037168 ] && pass "review: undo: members back" || fail "review: undo: members back"
rv restore --yes sim:sdc >/dev/null 2>&1

# --- on a terminal: apply asks each member's serial, then draws a progress line per member ---------
rv plan --level 1 --stroke 20% sim:sdh sim:sdi -O t1.json >/dev/null 2>&1
run rv apply t1.json --members sim:sdh --name t1 --dry-run
expect "review: --members of the wrong count for a plan of named disks" 2 "" \
	"1 device given, but the plan has 2 members, all named: give --members with 2 devices, in layout order, or none"
OUT=$(env SHORTSTROKE_RIG="$RV/rig.json" SHORTSTROKE_SYSROOT="$RV/root" \
	SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" SHORTSTROKE_MODPROBE=false \
	FAKE_MDADM_LOG="$RV/log" FAKE_MDADM_STATE="$RV/md.state" python3 - "$PROG" <<'PY' 2>&1
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "apply", "t1.json", "--name", "t1"])
buf, end, asked = b"", time.time() + 30, 0
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.5)
    if not r:
        continue
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    buf += d
    while buf.count(b"to skip: ") > asked:
        serial = buf.split(b"Type its serial number (")[asked + 1].split(b")")[0]
        os.write(fd, serial + b"\n")
        asked += 1
_, st = os.waitpid(pid, 0)
sys.stdout.write(buf.decode(errors="replace").replace("\r", ""))
print("ASKED %d EXIT %d" % (asked, os.WEXITSTATUS(st)))
PY
)
printf '%s\n' "$OUT" | grep -q "ASKED 2 EXIT 0$" && printf '%s\n' "$OUT" | grep -q "/dev/md/t1: created" \
	&& pass "review: apply on a terminal: each member's serial asked, then created" \
	|| fail "review: apply on a terminal: serials asked" "$OUT"
for k in 1 2; do
	printf '%s\n' "$OUT" | grep -q "  member $k \[####################\] 100% " \
		&& pass "review: apply on a terminal: member $k's progress line" \
		|| fail "review: apply on a terminal: member $k's progress line" "$OUT"
done
rv array undo t1 --yes >/dev/null 2>&1

# --- replace --wait: md says "idle" until the queued recovery runs; --wait follows it to the end --
rv apply t1.json --name t1 --yes >/dev/null 2>&1
md=root/sys/block/md127/md
mkdir -p $md && ln -sf ../md127 root/dev/md/t1
echo clean >$md/array_state && echo idle >$md/sync_action && echo none >$md/sync_completed && echo 1 >$md/degraded
(sleep 1; echo "50 / 100" >$md/sync_completed; echo recover >$md/sync_action
 sleep 1; echo idle >$md/sync_action; echo none >$md/sync_completed; echo 0 >$md/degraded) &
# (md says the array is degraded: sim:sdi has failed, md lets it go at once)
run env FAKE_MDADM_REMOVE_OK=1 SHORTSTROKE_RIG="$RV/rig.json" SHORTSTROKE_SYSROOT="$RV/root" \
	SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" SHORTSTROKE_MODPROBE=false FAKE_MDADM_LOG="$RV/log" \
	FAKE_MDADM_STATE="$RV/md.state" "$PROG" array replace t1 sim:sdi sim:sdk --yes --wait
wait
expect "review: array replace --wait: the rebuild's progress once md starts it, then done" 0 \
	"sim:sdk added in the place of sim:sdi" "^/dev/md/t1: recover 50.0%$"
expect "review: array replace --wait: rebuild done" 0 "^/dev/md/t1: rebuild done \\(clean\\)$"
expect "review: array replace: the failed member let go, restored" 0 "^sim:sdi: left the array, back to its original capacity$"
rm -rf root/sys root/dev/md/t1
rv array undo t1 --yes >/dev/null 2>&1
rv restore --yes sim:sdi >/dev/null 2>&1

# --- --conf: the ARRAY line appended; array undo takes it out again, and nothing else -------------
printf 'DEVICE partitions\nARRAY /dev/md/other metadata=1.2 UUID=aaaa:bbbb name=h:other\n' >mdadm.conf
run rv apply t1.json --name t1 --conf mdadm.conf --yes
expect "review: apply --conf" 0 "ARRAY line appended to mdadm.conf"
grep -q "^ARRAY /dev/md/t1 metadata=1.2 UUID=01234567:89abcdef:01234567:89abcdef name=fakehost:t1$" mdadm.conf \
	&& pass "review: apply --conf: the ARRAY line in the file" || fail "review: apply --conf: the line" "$(cat mdadm.conf)"
run rv array undo t1 --dry-run
expect "review: array undo --dry-run: would remove the ARRAY line" 0 \
	"would remove the ARRAY line of /dev/md/t1 \(UUID=01234567:89abcdef:01234567:89abcdef\) from $RV/mdadm.conf"
grep -q "md/t1" mdadm.conf && pass "review: array undo --dry-run: the file unchanged" \
	|| fail "review: array undo --dry-run: the file unchanged" "$(cat mdadm.conf)"
# a link planted where the rewrite's temporary file goes is removed, never followed
printf 'keep me\n' >victim && ln -sf "$RV/victim" mdadm.conf.ss-tmp
run rv array undo t1 --yes
expect "review: array undo: the ARRAY line removed from the --conf file" 0 "$RV/mdadm.conf: the ARRAY line removed"
[ "$(cat victim)" = "keep me" ] && [ ! -e mdadm.conf.ss-tmp ] && [ ! -L mdadm.conf.ss-tmp ] \
	&& pass "review: array undo: a link at mdadm.conf.ss-tmp not followed" \
	|| fail "review: array undo: a link at mdadm.conf.ss-tmp not followed" "$(cat victim; ls -l)"
[ "$(cat mdadm.conf)" = "$(printf 'DEVICE partitions\nARRAY /dev/md/other metadata=1.2 UUID=aaaa:bbbb name=h:other')" ] \
	&& pass "review: array undo: the rest of the file kept" || fail "review: array undo: the rest kept" "$(cat mdadm.conf)"

# --- one run per array: while another process holds the array's lock, apply, undo and replace
# refuse (exit 1) and change nothing; an unfinished record is a dead run's, never a running one's
lk="$SHORTSTROKE_STATE_DIR/arrays/t1.lock"
mkdir -p "$SHORTSTROKE_STATE_DIR/arrays"
: >"$RV/log"
run flock "$lk" env SHORTSTROKE_RIG="$RV/rig.json" SHORTSTROKE_SYSROOT="$RV/root" \
	SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" SHORTSTROKE_MODPROBE=false FAKE_MDADM_LOG="$RV/log" \
	"$PROG" apply t1.json --name t1 --yes
expect "review: apply while another process works on the array: refused" 1 "" \
	"another shortstroke process is working on the array t1 right now.*nothing was changed"
[ ! -e "$SHORTSTROKE_STATE_DIR/arrays/t1.json" ] || [ "$(python3 -c "import json; print(json.load(open('$SHORTSTROKE_STATE_DIR/arrays/t1.json'))['state'])")" = undone ] \
	&& [ ! -s "$RV/log" ] && [ "$(rvcap sim:sdh)" = 7814037168 ] \
	&& pass "review: apply refused by the lock: nothing changed" || fail "review: apply refused by the lock: nothing changed"
rv apply t1.json --name t1 --yes >/dev/null 2>&1
for cmd in "array undo t1 --yes" "array replace t1 sim:sdi sim:sdk --yes"; do
	run flock "$lk" env SHORTSTROKE_RIG="$RV/rig.json" SHORTSTROKE_SYSROOT="$RV/root" \
		SHORTSTROKE_MDADM="$HERE/fake-mdadm.sh" SHORTSTROKE_MODPROBE=false "$PROG" $cmd
	expect "review: $cmd while the array is locked: refused" 1 "" "another shortstroke process is working on the array t1"
done
[ "$(rvcap sim:sdh)" != 7814037168 ] && [ "$(rvcap sim:sdk)" = 7814037168 ] \
	&& pass "review: undo, replace refused by the lock: nothing changed" || fail "review: undo, replace refused by the lock"
run rv array undo t1 --yes
expect "review: array undo once the lock is free" 0 "undone"

# --- a placeholder limited now is judged by its journaled original ------------------------------
rv limit --percent 50 --yes sim:sdk >/dev/null 2>&1
rv plan --disks 2 --model-of sim:sdb --level 1 --stroke 25% -O ph.json >/dev/null 2>&1
run rv apply ph.json --members sim:sdb sim:sdk --name ph --dry-run
expect "review: a placeholder limited by 'limit' before: its original capacity counts" 0 \
	"sim:sdk: member 2, .*the journaled original"
rv restore --yes sim:sdk >/dev/null 2>&1

# --- mkfs alignment (512 KiB chunk, 4 KiB blocks): stride 128, 4 data disks each ---------------
set -- sim:sdb sim:sdc sim:sdd sim:sde sim:sdf sim:sdg sim:sdh sim:sdi
for lv in 10:8 5:5 6:6; do
	l=${lv%:*} k=${lv#*:}
	rv plan --level "$l" --chunk 512K --stroke 25% $(echo "$@" | cut -d' ' -f1-"$k") -O m$l.json >/dev/null 2>&1
	run rv apply m$l.json --name m$l --mkfs ext4 --dry-run
	expect "review: RAID $l of $k: ext4 stride=128,stripe_width=512" 0 \
		"would run: mkfs.ext4 -F -q -b 4096 -E stride=128,stripe_width=512 /dev/md/m$l$"
	run rv apply m$l.json --name m$l --mkfs xfs --dry-run
	expect "review: RAID $l of $k: xfs su=512k,sw=4" 0 "would run: mkfs.xfs -f -q -d su=512k,sw=4 /dev/md/m$l$"
done
cd "$HERE" || exit 1
