# The handler under bad input and faults: malformed and unsupported CDBs
# get the drive's sense answer and the handler goes on; a client killed
# mid-I/O does not disturb it; faults injected into the rig's state reach
# the kernel after a SIGHUP; stopped while commands are in flight, the
# kernel gets errors (never a hang) and a restarted handler serves again.

# raw SG ARGS...: sg_raw, output kept (it exits non-zero on CHECK CONDITION).
ss_tcmu_bad_cdb() {
	need_tcmu
	sg=/dev/$(tcmu_sg $(tcmu_dev tsas))
	sa=/dev/$(tcmu_sg $(tcmu_dev tsata))
	from=$(wc -l < $SIMD_LOG)
	# a unit attention an earlier case left (REPORTED LUNS DATA HAS CHANGED
	# when devices were added) is taken first: it would answer the first CDB
	sg_turs $sg >/dev/null 2>&1; sg_turs $sa >/dev/null 2>&1
	# an opcode no drive has
	run sg_raw -v $sg c0 00 00 00 00 00
	expect_grep "unknown opcode" $ERR "Illegal Request|ILLEGAL REQUEST"
	expect_grep "unknown opcode asc" $ERR "[Ii]nvalid command operation code"
	# INQUIRY: a page code without EVPD
	run sg_raw -v -r 96 $sg 12 00 83 00 60 00
	expect_grep "inquiry page without EVPD" $ERR "[Ii]nvalid field in cdb"
	# READ(16) far beyond the capacity
	run sg_raw -v -r 512 $sg 88 00 00 00 ff ff ff ff 00 00 00 00 00 01 00 00
	expect_grep "read beyond capacity" $ERR "[Ll]ogical block address out of range"
	# MODE SELECT(10) with a parameter list that lies about its length
	run sg_raw -v -s 8 -i /dev/zero $sg 55 10 00 00 00 00 00 00 08 00
	echo "mode select of garbage: exit $RC"
	# vendor-specific 16-byte opcode, all ones
	run sg_raw -v $sg ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff
	expect_grep "vendor opcode" $ERR "Illegal Request|ILLEGAL REQUEST"
	# ATA PASS-THROUGH with a nonsense protocol and command on the SATA one
	run sg_raw -v -r 512 $sa 85 1f 0e 00 00 00 01 00 00 00 00 00 00 40 ee 00
	echo "nonsense ATA pass-through: exit $RC"
	# ATA PASS-THROUGH to the SAS drive (not a SATL)
	run sg_raw -v -r 512 $sg 85 08 0e 00 00 00 01 00 00 00 00 00 00 40 ec 00
	expect_grep "ATA PT on SAS" $ERR "Illegal Request|ILLEGAL REQUEST"
	# still alive and answering
	simd_running || fail "shortstroke-simd died"
	must sg_turs $sg
	must sg_readcap $sg
	must sg_turs $sa
	# (this case's lines only: a handler stopped by an earlier case says
	# "N failed (stopping or no answer), 0 malformed" when it drains)
	bad=$(tail -n +$((from + 1)) $SIMD_LOG | grep -E "no longer served| [1-9][0-9]* malformed")
	[ -z "$bad" ] || fail "handler dropped a device: $bad"
	return 0
}
t ss-tcmu-bad-cdb ss_tcmu_bad_cdb

# A reader killed in the middle of a transfer: the handler answers what it
# got, nothing hangs, the disk reads fine afterwards.
ss_tcmu_client_gone() {
	need_tcmu
	dv=$(tcmu_dev tsas)
	dd if=/dev/$dv of=/dev/null bs=1M count=256 iflag=direct 2>/dev/null &
	p=$!
	sleep 0.5
	kill -KILL $p
	wait $p
	simd_running || fail "shortstroke-simd died"
	must timeout 20 dd if=/dev/$dv of=/dev/null bs=64k count=16 iflag=direct
	must sg_turs /dev/$dv
}
t ss-tcmu-client-gone ss_tcmu_client_gone

# Fault injection through the state directory: `shortstroke sim fault`
# writes the drive's state, SIGHUP makes the handler reload it; a read of
# the bad LBAs then fails in the kernel with MEDIUM ERROR.
ss_tcmu_fault() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsas)
	must tcmu_fault tsas medium-error:4096-4111
	run dd if=/dev/$dv of=/dev/null bs=512 skip=4100 count=1 iflag=direct
	rc=$RC
	cp $ERR /tmp/fault.err
	run sg_dd if=/dev/$(tcmu_sg $dv) of=/dev/null bs=512 skip=4100 count=1
	sgrc=$RC
	cp $ERR /tmp/fault.sgerr
	must tcmu_fault --clear tsas
	[ $rc -ne 0 ] || fail "reading a bad LBA succeeded"
	expect_grep "dd error" /tmp/fault.err "I/O error|No data available"
	expect_eq "sg_dd exit (medium error)" $sgrc 3
	must dd if=/dev/$dv of=/dev/null bs=512 skip=4100 count=1 iflag=direct
}
t ss-tcmu-fault-medium ss_tcmu_fault

# Stopped with commands in flight (--pace and a slow:200 fault: every read
# takes 200 x the media model's time, so SIGTERM lands while one is being
# served and others wait in the ring): the reader
# gets an I/O error quickly, the handler exits 0; a command sent while no
# handler runs fails after target_core_user's cmd_time_out (set to
# $TCMU_CMD_TIMEOUT s); a new handler serves the disk again.
ss_tcmu_stop() {
	need_tcmu
	dv=$(tcmu_dev tsata)
	tcmu_simd_stop TERM || fail "the handler did not stop"
	expect_eq "exit status on SIGTERM (idle)" "$SIMD_RC" 0
	tcmu_simd_start --pace || fail "cannot restart the handler with --pace"
	must tcmu_fault tsata slow:200
	t0=$(cut -d' ' -f1 /proc/uptime)
	( timeout 60 dd if=/dev/$dv of=/dev/null bs=4M count=50 iflag=direct \
		> /tmp/stop.dd 2>&1; echo $? > /tmp/stop.rc ) &
	sleep 1.5
	grep -q "tsata #[0-9]* \[28 \|tsata #[0-9]* \[88 " $SIMD_LOG || fail "no paced read reached the handler"
	tcmu_simd_stop TERM
	st=$SIMD_RC
	i=0
	while [ ! -f /tmp/stop.rc ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	t1=$(cut -d' ' -f1 /proc/uptime)
	cat /tmp/stop.dd
	simd_tail 4
	expect_eq "exit status on SIGTERM (busy)" "$st" 0
	[ -f /tmp/stop.rc ] || fail "the reader still hangs 30 s after the handler stopped"
	[ "$(cat /tmp/stop.rc)" -ne 0 ] || fail "the reader did not see an error"
	expect_grep "failed while stopping" $SIMD_LOG "[1-9][0-9]* failed \(stopping"
	echo "reader ended $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }')s after it started"
	# no handler at all: the kernel times the command out, an error
	t0=$(cut -d' ' -f1 /proc/uptime)
	run timeout 40 dd if=/dev/$dv of=/dev/null bs=512 count=1 skip=12345 iflag=direct
	rc=$RC
	t1=$(cut -d' ' -f1 /proc/uptime)
	el=$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%d", b - a }')
	echo "read without a handler: exit $rc after ${el}s"
	tcmu_simd_start || fail "cannot restart the handler"
	must tcmu_fault --clear tsata
	[ $rc -ne 0 ] || fail "a read without a handler succeeded"
	[ $rc -ne 124 ] || fail "a read without a handler hung until timeout(1) killed it"
	must timeout 20 dd if=/dev/$dv of=/dev/null bs=64k count=16 iflag=direct
	must sg_turs /dev/$dv
}
t ss-tcmu-stop-inflight ss_tcmu_stop
