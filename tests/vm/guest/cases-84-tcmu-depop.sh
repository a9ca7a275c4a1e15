# storage element depopulation through SG_IO on a simulated SAS disk (tdepop: 4 heads, the
# second weak) the kernel sees as an sd disk: sg3_utils' sg_get_elem_status reads the elements
# and their health as the simulator reports them; depop retires element 2, the kernel and
# READ CAPACITY see the disk 3/4 of its size, and the restore brings it back.

# A TCMU target of its own (tcmu-depop-rig.json), after cases-79 tore the shared one down.
. /vmtest/tcmu.sh
DEPOP_TCMU=""
if want ss-tcmu-depop; then
	if tcmu_setup /vmtest/tcmu-depop-rig.json /var/lib/shortstroke-sim84 /tmp/simd84.log \
		> /tmp/tcmu84-setup.out 2>&1; then
		DEPOP_TCMU=1
	else
		sed 's/^/    | /' /tmp/tcmu84-setup.out
	fi
fi

# depop_size ID BLOCKS: the kernel and READ CAPACITY say BLOCKS (of 512 bytes)
depop_size() {
	_dv=$(tcmu_dev $1)
	expect_eq "$1 ($_dv) /sys/block/$_dv/size" "$(cat /sys/block/$_dv/size)" $2
	must sg_readcap -l /dev/$_dv
	expect_grep "$1 sg_readcap" $OUT "Number of logical blocks=$2\$"
}

ss_tcmu_depop() {
	[ -n "$DEPOP_TCMU" ] || fail "TCMU setup for tdepop failed"
	need_ss
	dv=$(tcmu_dev tdepop)
	must sg_get_elem_status -m 256 /dev/$dv
	expect_grep "sg_get_elem_status: 4 elements" $OUT "Number of descriptors: 4"
	expect_grep "sg_get_elem_status: element 2 at its limit" $OUT \
		"identifier: 0x0+2 .*health: at manufacturer's specification limits"
	expect_grep "sg_get_elem_status: element 1 within" $OUT \
		"identifier: 0x0+1 .*health: within manufacturer's specification limits"
	must $SS info /dev/$dv
	expect_grep "info: element 2 near its limit" $OUT "element 2: +at limit \(health 100\)"
	must $SS depop --yes --element 2 /dev/$dv
	expect_grep "depop" $OUT "element 2 depopulated: 1572864 blocks"
	depop_size tdepop 1572864
	must sg_get_elem_status -m 256 /dev/$dv
	expect_grep "sg_get_elem_status: element 2 depopulated" $OUT \
		"identifier: 0x0+2 .*depopulation completed, no errors"
	must $SS depop --yes --restore /dev/$dv
	depop_size tdepop 2097152
}
t ss-tcmu-depop ss_tcmu_depop
if [ -n "$DEPOP_TCMU" ]; then
	tcmu_teardown > /dev/null 2>&1
	DEPOP_TCMU=""
fi
