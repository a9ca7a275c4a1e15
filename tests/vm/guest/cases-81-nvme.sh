# NVMe through the kernel's NVMe passthrough ioctls (libnvme): QEMU's NVMe
# controller (disk N, in an NVMe subsystem) listed, identified, its SMART /
# Health log read beside nvme-cli's, a self-test, a format to another LBA
# format and back, and a limit by namespace management as far as QEMU 7.2 goes.

NVME_NS=""
nvme_setup() {
	load_module nvme 2>/tmp/modprobe.err || { echo "modprobe nvme: $(cat /tmp/modprobe.err)"; return 1; }
	i=0
	while [ $i -lt 100 ]; do
		for n in /sys/block/nvme*n*; do
			[ -e "$n" ] || continue
			[ "$(trim < "$n/device/serial")" = "$N_SERIAL" ] && NVME_NS=${n##*/}
		done
		[ -n "$NVME_NS" ] && [ -e /dev/$NVME_NS ] && return 0
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}
# set up when a selected case is one of these (VM_ONLY names one of them, or none)
if [ -z "$ONLY" ] || echo "$ONLY" | grep -q nvme; then
	nvme_setup || echo "VMTEST FAIL setup-nvme: no namespace with serial $N_SERIAL after 10 s"
	echo "VMTEST INFO nvme namespace=$NVME_NS"
fi
NVME_CTRL=${NVME_NS%n*}

need_nvme() {
	need_ss
	[ -n "$NVME_NS" ] || fail "no NVMe namespace (setup-nvme)"
}

# list and info: the namespace is a drive of its own transport
ss_nvme_list() {
	need_nvme
	ss_json nvme-list list -J -o DEVICE,TRAN,SERIAL,SIZE,LOG-SEC,SPARE,USED
	i=$(jindex $F .drives device /dev/$NVME_NS)
	[ -n "$i" ] || fail "/dev/$NVME_NS not in list -J"
	expect_eq tran "$(jget $F ".drives[$i].tran")" nvme
	expect_eq serial "$(jget $F ".drives[$i].serial")" "$N_SERIAL"
	expect_eq size "$(jget $F ".drives[$i].size")" "$N_BYTES"
	expect_match spare "$(jget $F ".drives[$i].spare")" '^[0-9]+$'
	ss_json nvme-info info -J /dev/$NVME_NS
	expect_eq nsid "$(jget $F .nvme.nsid)" 1
	expect_eq capacity "$(jget $F .capacity_bytes)" "$N_BYTES"
	expect_match formats "$(jget $F '.nvme.lba_formats[1].bytes')" '^[0-9]+$'
	must nvme id-ctrl /dev/$NVME_CTRL
	expect_grep nvme-cli-serial $OUT "^sn +: $N_SERIAL"
}
t ss-nvme-list ss_nvme_list

# smart: the SMART / Health log, as nvme-cli reads the same log
ss_nvme_smart() {
	need_nvme
	ss_json nvme-smart smart -j /dev/$NVME_NS
	expect_eq type "$(jget $F '.disks[0].type')" nvme
	must nvme smart-log /dev/$NVME_CTRL
	cp $OUT /tmp/nvme-cli-smart.txt
	for k in available_spare percentage_used critical_warning; do
		ours=$(jget $F ".disks[0].nvme_smart_health_information_log.$k")
		theirs=$(awk -v k="$k" '$1 == k { v = $3; sub(/%$/, "", v); print v + 0 }' /tmp/nvme-cli-smart.txt)
		expect_eq "$k (ours, nvme-cli)" "$ours" "$theirs"
	done
	expect_eq passed "$(jget $F '.disks[0].smart_status.passed')" true
}
t ss-nvme-smart ss_nvme_smart

# selftest: QEMU's controller answers the Device Self-test command, or says
# it has none (OACS bit 4), and the tool says so
ss_nvme_selftest() {
	need_nvme
	ss_json nvme-st-info info -J /dev/$NVME_NS
	if [ "$(jget $F .nvme.self_test)" = true ]; then
		must $SS selftest --short --wait /dev/$NVME_NS
		expect_grep result $OUT "short self-test"
	else
		run $SS selftest --short /dev/$NVME_NS
		[ $RC -ne 0 ] || fail "selftest on a controller without Device Self-test exited 0"
		expect_grep stderr $ERR "no Device Self-test command \\(OACS bit 4\\)"
	fi
}
t ss-nvme-selftest ss_nvme_selftest

# format: to the 4096-byte LBA format and back, the kernel's block size following
ss_nvme_format() {
	need_nvme
	must $SS format --sector-size 4096 --yes /dev/$NVME_NS
	expect_eq kernel-block "$(cat /sys/block/$NVME_NS/queue/logical_block_size)" 4096
	expect_eq kernel-bytes "$(sys_bytes $NVME_NS)" "$N_BYTES"
	ss_json nvme-fmt info -J /dev/$NVME_NS
	expect_eq block "$(jget $F .logical_block)" 4096
	must $SS format --sector-size 512 --yes /dev/$NVME_NS
	expect_eq kernel-block-back "$(cat /sys/block/$NVME_NS/queue/logical_block_size)" 512
}
t ss-nvme-format ss_nvme_format

# limit by namespace management: QEMU 7.2 attaches and detaches namespaces but
# has no Namespace Management command; what it offers decides what is checked
ss_nvme_limit() {
	need_nvme
	ss_json nvme-lim info -J /dev/$NVME_NS
	if [ "$(jget $F .nvme.namespace_management)" = true ]; then
		run $SS limit --method nvme-ns --percent 50 --force --yes /dev/$NVME_NS
		if [ $RC -eq 0 ]; then
			echo "limited and restored by namespace management" > /tmp/nvme-limit.what
			expect_eq limited "$(sys_bytes $NVME_NS)" $((N_BYTES / 2))
			must $SS restore --yes /dev/$NVME_NS
			expect_eq restored "$(sys_bytes $NVME_NS)" "$N_BYTES"
		else
			# the delete was refused before anything changed
			head -1 $ERR > /tmp/nvme-limit.what
			expect_grep stderr $ERR "Namespace Management"
			expect_eq size-kept "$(sys_bytes $NVME_NS)" "$N_BYTES"
		fi
	else
		run $SS limit --method nvme-ns --percent 50 --force --yes /dev/$NVME_NS
		[ $RC -eq 1 ] || fail "limit --method nvme-ns exited $RC, expected 1"
		expect_grep stderr $ERR "does not offer namespace management"
	fi
	run $SS limit --percent 50 --force --yes /dev/$NVME_NS
	[ $RC -eq 1 ] || fail "limit (auto) exited $RC, expected 1"
	expect_grep stderr $ERR "an NVMe drive has no Host Protected Area"
	expect_eq size-unchanged "$(sys_bytes $NVME_NS)" "$N_BYTES"
}
t ss-nvme-limit ss_nvme_limit
[ -f /tmp/nvme-limit.what ] && echo "VMTEST INFO ss-nvme-limit: $(cat /tmp/nvme-limit.what)"

# bench: io_uring on the namespace's block device
ss_nvme_bench() {
	need_nvme
	ss_json nvme-bench bench -w random-access -q 4 -t 1s -J /dev/$NVME_NS
	expect_match iops "$(jget $F '.results[0].runs[0].iops')" '^[0-9]'
	expect_eq errors "$(jget $F '.results[0].runs[0].errors')" 0
}
t ss-nvme-bench ss_nvme_bench
