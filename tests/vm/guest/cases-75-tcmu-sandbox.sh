# reapply in the boot unit's sandbox (contrib/systemd/shortstroke-reapply.service), as far
# as the guest holds it without systemd: the capability bounding set CAP_SYS_RAWIO alone
# (setpriv; CapabilityBoundingSet=), no new privileges (NoNewPrivileges=), a network
# namespace of its own (PrivateNetwork=), /usr and /etc read-only but /etc/shortstroke
# (ProtectSystem=full, ReadWritePaths=-/etc/shortstroke), /root and /home empty and
# read-only (ProtectHome=). The state directory is moved to /etc/shortstroke/state by a
# configuration file, as an admin whose /var is mounted late does. Not held here: the
# system call filter and the device cgroup, which only systemd sets
# (tests/cli/t_install.sh rates them with systemd-analyze security).

# sandbox BOUNDING CMD...: CMD in that sandbox, with setpriv's --bounding-set BOUNDING
sandbox() {
	_b=$1
	shift
	/usr/sbin/unshare -m -n -- sh -c '
		for d in /usr /etc; do
			mount --bind $d $d && mount -o remount,bind,ro $d || exit 97
		done
		mount --bind /etc/shortstroke /etc/shortstroke &&
			mount -o remount,bind,rw /etc/shortstroke || exit 97
		for d in /root /home; do
			[ -d $d ] && { mount -t tmpfs -o ro,mode=0755 tmpfs $d || exit 97; }
		done
		b=$1
		shift
		exec /usr/sbin/setpriv --no-new-privs --bounding-set "$b" --inh-caps -all "$@"' sh "$_b" "$@"
}

ss_tcmu_reapply_sandbox() {
	need_tcmu
	need_ss
	# util-linux's (busybox's sh runs its own applets of these names before PATH)
	for _t in setpriv unshare; do
		[ -x /usr/sbin/$_t ] || fail "/usr/sbin/$_t is not in the guest (util-linux on the host)"
	done
	mkdir -p /etc/shortstroke/state
	echo "state_dir = /etc/shortstroke/state" > /tmp/sandbox.conf
	export SHORTSTROKE_CONFIG=/tmp/sandbox.conf
	dv=$(tcmu_dev tsata)
	cap_run tsata limit --yes --volatile --blocks 2097152
	[ -s /etc/shortstroke/state/journal.jsonl ] || fail "the journal is not in the configuration file's state_dir"
	size_check tsata 2097152
	must tcmu_power_cycle tsata
	echo 1 > /sys/block/$dv/device/rescan
	expect_eq "after the power cycle: full size" "$(cat /sys/block/$dv/size)" 8388608

	# what the sandbox holds: the capabilities, the network, the read-only system
	run sandbox -all,+sys_rawio sh -c 'grep ^CapEff /proc/self/status; grep ^NoNewPrivs /proc/self/status;
		tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "; touch /usr/x 2>&1 || echo usr-ro;
		touch /etc/shortstroke/state/x && rm /etc/shortstroke/state/x && echo state-rw'
	expect_grep "sandbox: CAP_SYS_RAWIO alone" $OUT "^CapEff:[[:space:]]*0000000000020000\$"
	expect_grep "sandbox: no new privileges" $OUT "^NoNewPrivs:[[:space:]]*1\$"
	expect_eq "sandbox: no network but lo" "$(grep -v -e Cap -e NoNew -e usr-ro -e state-rw -e touch: $OUT)" lo
	expect_grep "sandbox: /usr read-only" $OUT "^usr-ro\$"
	expect_grep "sandbox: the state directory writable" $OUT "^state-rw\$"

	# the unit's condition and its reapply, in the sandbox
	run sandbox -all,+sys_rawio $SS config --has-journal
	expect_eq "sandbox: config --has-journal finds the moved journal" $RC 0
	# without CAP_SYS_RAWIO the kernel refuses ATA PASS-THROUGH: the sandbox holds it back
	run sandbox -all $SS reapply -J /dev/$dv
	[ $RC -ne 0 ] || fail "reapply without CAP_SYS_RAWIO succeeded: the sandbox did not hold"
	cat $OUT $ERR > /tmp/sbx-no-cap.txt
	expect_grep "no capability: the kernel's refusal, and what to do" /tmp/sbx-no-cap.txt \
		"the kernel refused the command \\(Operation not permitted\\): sending it needs the CAP_SYS_RAWIO capability"
	expect_eq "no capability: nothing re-applied" "$(cat /sys/block/$dv/size)" 8388608
	run sandbox -all,+sys_rawio $SS reapply -J /dev/$dv
	expect_eq "sandbox: reapply exit" $RC 0
	cp $OUT /tmp/sbx.json
	jflat /tmp/sbx.json
	expect_eq "sandbox: reapplied" "$(jget /tmp/sbx.json.flat .results[0].status)" reapplied
	size_check tsata 2097152
	cap_run tsata restore --yes
	size_check tsata 8388608
	rm -rf /etc/shortstroke
}
t ss-tcmu-reapply-sandbox ss_tcmu_reapply_sandbox
