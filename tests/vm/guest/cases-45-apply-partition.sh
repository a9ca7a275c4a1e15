# apply over partitions on the real kernel: QEMU's AHCI disks F and G (256 MiB, 7200 rpm,
# blank) have no HPA, AMAC or DCO, so their capacity cannot change: apply limits them with a
# GPT partition written through SG_IO (libata's SAT), the kernel re-reads it (BLKRRPART), and
# md is given /dev/sdX1. Each case leaves F and G as it found them: no partition table.
# Stroke 25% of 256 MiB: the limit is 131072 blocks, the partition 2048..131071 (129024 blocks).

PA_FULL=524288
PA_LIM=131072
PA_PART=129024

# pa_bare sdX...: no partition (sysfs), no signature (wipefs, blkid -p), the whole size,
# free in list
pa_bare() {
	for _d in "$@"; do
		ls -d /sys/block/$_d/${_d}[0-9]* 2>/dev/null && fail "$_d still has a partition"
		run wipefs /dev/$_d
		[ $RC -eq 0 ] && [ ! -s $OUT ] || fail "$_d: wipefs finds a signature"
		run blkid -p /dev/$_d
		[ $RC -eq 2 ] || fail "$_d: blkid -p finds something (exit $RC)"
		expect_eq "$_d blocks" "$(cat /sys/block/$_d/size)" $PA_FULL
		list_state $_d
		expect_eq "$_d state" "$STATE" free
	done
}

# pa_parts sdX...: the kernel shows partition 1 at 1 MiB, to the limit; the disk keeps its size
pa_parts() {
	for _d in "$@"; do
		[ -d /sys/block/$_d/${_d}1 ] || fail "the kernel shows no ${_d}1"
		expect_eq "${_d}1 start" "$(cat /sys/block/$_d/${_d}1/start)" 2048
		expect_eq "${_d}1 size" "$(cat /sys/block/$_d/${_d}1/size)" $PA_PART
		expect_eq "$_d blocks (unchanged)" "$(cat /sys/block/$_d/size)" $PA_FULL
	done
}

# RAID 1 over F and G, auto: their methods leave only the partition. apply (checked first
# with --dry-run), md over sdX1 (/proc/mdstat, mdadm --detail), ext4 and a checksummed file
# read back after a remount, array status, a re-run that is a no-op, array undo (refused while
# mounted), then no partition table and no md device left.
ss_ahci_apply_partition() {
	need_ss
	f=$DEV_F g=$DEV_G
	[ -n "$f" ] && [ -n "$g" ] || fail "no AHCI disks F and G"
	pa_bare $f $g
	must $SS plan --level 1 --stroke 25% /dev/$f /dev/$g -O /tmp/pa.json
	must $SS apply /tmp/pa.json --name pa --mkfs ext4 --dry-run
	expect_grep "dry run: auto takes the partition" $OUT \
		"^/dev/$f: member 1, .* by partition; md gets its partition /dev/${f}1\$"
	expect_grep "dry run: the partition step" $OUT \
		"^/dev/$f: would wait for /dev/${f}1: partition 1, blocks 2048\.\.$((PA_LIM - 1)) \($PA_PART blocks for md\)"
	expect_grep "dry run: the GPT's commands" $OUT "WRITE\(16\) LBA 0, .*\(GPT\)"
	expect_grep "dry run: md over the partitions" $OUT \
		"would run: mdadm --create /dev/md/pa .* /dev/${f}1 /dev/${g}1\$"
	[ -d /sys/block/$f/${f}1 ] && fail "the dry run wrote a partition"

	must $SS apply /tmp/pa.json --name pa --mkfs ext4 --yes
	expect_grep "created" $OUT "/dev/md/pa: created: RAID 1 over 2 members, ext4"
	expect_grep "md gets the partition" $OUT "^/dev/$g: md gets /dev/${g}1\$"
	pa_parts $f $g
	must cat /proc/mdstat
	k=$(readlink /dev/md/pa)
	k=${k##*/}
	expect_grep "mdstat: md over the partitions" $OUT \
		"^$k : active raid1 (${f}1\[0\] ${g}1\[1\]|${g}1\[1\] ${f}1\[0\])"
	must mdadm --detail /dev/md/pa
	expect_grep "mdadm --detail: ${f}1" $OUT "active sync +/dev/${f}1\$"
	expect_grep "mdadm --detail: ${g}1" $OUT "active sync +/dev/${g}1\$"
	expect_grep "the record names the partitions" /var/lib/shortstroke/arrays/pa.json \
		"\"node\": *\"/dev/${f}1\""
	expect_grep "the journal names the node md got" /var/lib/shortstroke/journal.jsonl \
		"\"event\":\"array-created\",\"device\":\"/dev/$f\",\"node\":\"/dev/${f}1\""
	must $SS array status pa
	expect_grep "array status" $OUT \
		"^/dev/$f: $PA_FULL blocks, its partition /dev/${f}1 ends at block $PA_LIM \(the limit is $PA_LIM: limited\), by partition\$"
	list_state $f
	expect_match "$f state while a member" "$STATE" "^in-use"

	mkdir -p /mnt/pa
	must mount -t ext4 /dev/md/pa /mnt/pa
	must dd if=/dev/urandom of=/mnt/pa/data bs=1M count=8
	(cd /mnt/pa && sha256sum data) > /tmp/pa.sum
	must umount /mnt/pa
	must mount -t ext4 /dev/md/pa /mnt/pa
	(cd /mnt/pa && sha256sum -c /tmp/pa.sum) || fail "the file does not read back"
	must $SS apply /tmp/pa.json --name pa --mkfs ext4 --yes
	expect_grep "a re-run is a no-op" $OUT "already applied"

	run $SS array undo pa --yes
	expect_eq "array undo of a mounted array: exit" $RC 3
	must umount /mnt/pa
	must $SS array undo pa --yes
	expect_grep "undo zeroes the partitions' superblocks" $OUT "^/dev/${f}1: md metadata wiped\$"
	expect_grep "undo takes the GPT back" $OUT "^/dev/$g: restored to $PA_FULL blocks .* by partition\$"
	[ -e /sys/block/$k ] && fail "$k (/dev/md/pa) still there after undo"
	grep "^$k " /proc/mdstat && fail "$k still in /proc/mdstat"
	pa_bare $f $g
}
t ss-ahci-apply-partition-undo ss_ahci_apply_partition

# RAID 0 over F and G, the plan naming the partition method; mdadm (a wrapper around the real
# one) creates the array, then fails: the rollback stops it, zeroes the superblocks on the
# partitions and takes both GPTs back.
ss_ahci_apply_partition_rollback() {
	need_ss
	f=$DEV_F g=$DEV_G
	[ -n "$f" ] && [ -n "$g" ] || fail "no AHCI disks F and G"
	printf '#!/bin/sh\nmdadm "$@"\nrc=$?\ncase " $* " in *" --create "*) echo "mdadm-fail: --create made it, failing" >&2; exit 1 ;; esac\nexit $rc\n' \
		> /tmp/mdadm-fail.sh
	chmod +x /tmp/mdadm-fail.sh
	must $SS plan --level 0 --stroke 25% /dev/$f /dev/$g --method partition -O /tmp/pr.json
	expect_grep "the plan names the method" /tmp/pr.json '"method": *"partition"'
	run env SHORTSTROKE_MDADM=/tmp/mdadm-fail.sh $SS apply /tmp/pr.json --name pr --yes
	expect_eq "apply: exit" $RC 1
	expect_grep "md got the partitions" $OUT "^running: .* /dev/${f}1 /dev/${g}1\$"
	expect_grep "rolled back" $ERR "rolled back: every member is back to its original capacity"
	expect_grep "the array stopped" $OUT "^/dev/md/pr: stopped\$"
	expect_grep "superblocks zeroed" $OUT "^/dev/${g}1: md metadata wiped\$"
	expect_grep "GPT taken back" $OUT "^/dev/$f: restored to $PA_FULL blocks .* by partition\$"
	expect_grep "the record says undone" /var/lib/shortstroke/arrays/pr.json '"state": *"undone"'
	grep -q "${f}1" /proc/mdstat && fail "${f}1 still in /proc/mdstat"
	pa_bare $f $g
}
t ss-ahci-apply-partition-rollback ss_ahci_apply_partition_rollback
