# Tear the TCMU disks down again (LUNs, target, handler, backstores) and
# check nothing is left: no sd disk of the rig, no uio device, the handler
# stopped cleanly (exit 0).
tcmu_end() {
	[ -n "$TCMU_OK" ] || fail "TCMU setup failed (see setup-tcmu)"
	for m in $(awk '$1 ~ /^md[0-9]/ { print $1 }' /proc/mdstat); do
		run mdadm --stop /dev/$m
	done
	tcmu_teardown || fail "teardown reported an error"
	TCMU_OK=""
	for id in $(echo "$TCMU_DRIVES" | awk '{ print $1 }'); do
		dv=$(tcmu_dev $id)
		[ -z "$dv" ] || fail "sim:$id is still $dv after teardown"
	done
	ls /sys/class/uio/ | grep -q uio && fail "uio devices left: $(ls /sys/class/uio)"
	expect_eq "shortstroke-simd exit status" "$SIMD_RC" 0
	simd_tail 5
}
if [ -n "$TCMU_OK" ]; then
	t tcmu-teardown tcmu_end
	# whatever the case left (it runs in a subshell)
	TCMU_OK=""
	tcmu_teardown > /dev/null 2>&1
fi
