# A batch stopped by SIGTERM (systemctl stop) through the real kernel: the served drive
# answers SET MAX ADDRESS EXT 2 s late (the simulator's delay fault), the signal comes while
# the command is in flight through SG_IO; the command finishes, the limit is verified and
# journaled, the kernel sees the new size, and the command exits 143. (SIGTERM, not SIGINT:
# a case runs in the background, where the shell ignores SIGINT, and an ignored signal stays
# ignored.)

ss_tcmu_sigterm() {
	need_tcmu
	need_ss
	dv=$(tcmu_dev tsata)
	run sg_turs /dev/$dv # takes a unit attention left from the setup (when run alone)
	must tcmu_power_cycle tsata
	size_check tsata 8388608
	must tcmu_fault tsata delay:2000:37
	$SS limit --yes --blocks 4194304 /dev/$dv > /tmp/sigterm.out 2> /tmp/sigterm.err &
	pid=$!
	# the drive took SET MAX (its state file says so): the answer is on its way
	i=0
	until grep -q '"nv_setmax_done": true' $TCMU_STATE/sim/tcmu-rig-*/tsata.json; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "SET MAX never reached the drive: $(cat /tmp/sigterm.err)"
		sleep 0.1
	done
	kill -TERM $pid
	wait $pid
	expect_eq "SIGTERM with SET MAX in flight: exit" $? 143
	expect_grep "the command in flight finished, the disk says so" /tmp/sigterm.out \
		"/dev/$dv: limited to 4194304 blocks"
	expect_grep "the stop is said" /tmp/sigterm.err "limit: stopped by SIGTERM: 1 disk done"
	must tcmu_fault --clear tsata
	size_check tsata 4194304
	expect_grep "the journal closed the record" /var/lib/shortstroke/journal.jsonl \
		'"event":"limit-done","device":"/dev/'"$dv"'".*"target_blocks":4194304'
	must tcmu_power_cycle tsata
	cap_run tsata restore --yes
	size_check tsata 8388608
}
t ss-tcmu-sigterm ss_tcmu_sigterm
