# A SES enclosure of the simulator served to the guest's kernel through TCMU (peripheral
# device type 0Dh): the kernel's ses driver makes /sys/class/enclosure of it, sg_ses reads
# it, and `shortstroke locate/fault` set the slot LEDs that sg_ses then reads back. Its own
# rig (/vmtest/ses-rig.json: a SAS and a SATA drive in slots 0 and 2 of a 4-slot JBOD),
# handler and tcm_loop target, set up and torn down here (cases-7* are done by now).
. /vmtest/tcmu.sh

SES_OK=""
SES_LOG=/tmp/simd-ses.log

# The sg node of the TCMU enclosure ("" while there is none).
ses_sg() {
	for _g in /sys/class/scsi_generic/*; do
		[ "$(cat $_g/device/type 2>/dev/null)" = 13 ] &&
			[ "$(trim < $_g/device/vendor)" = SSTEST ] && { basename $_g; return 0; }
	done
}

ses_setup() {
	TCMU_RIG=/vmtest/ses-rig.json
	TCMU_STATE=/var/lib/shortstroke-ses
	TCMU_LOG=$SES_LOG
	: > $TCMU_LOG
	mkdir -p $TCMU_STATE
	load_module ses || { echo "no ses module"; return 1; }
	tcmu_modules || return 1
	TCMU_DRIVES=$(tcmu_rig_drives $TCMU_RIG)
	echo "$TCMU_DRIVES" | while read -r _id _bl _lb _sn; do
		tcmu_backstore $_id $_bl $_lb || exit 1
	done || return 1
	# the enclosure: LIO wants a size; nothing reads it (every command goes to the handler)
	tcmu_backstore tencl 2048 512 || return 1
	tcmu_simd_start || return 1
	_t=$CFS/loopback/$TCMU_WWN/tpgt_1
	mkdir -p $_t/lun || return 1
	echo -n $TCMU_NEXUS > $_t/nexus || return 1
	_n=0
	for _id in $(echo "$TCMU_DRIVES" | awk '{ print $1 }') tencl; do
		mkdir $_t/lun/lun_$_n || return 1
		ln -s $CFS/core/$TCMU_HBA/$_id $_t/lun/lun_$_n/$_id || return 1
		_n=$((_n + 1))
	done
	_i=0
	while [ $_i -lt 300 ]; do
		[ -n "$(tcmu_dev tses1)" ] && [ -n "$(tcmu_dev tses2)" ] && [ -n "$(ses_sg)" ] &&
			[ -n "$(ls /sys/class/enclosure 2>/dev/null)" ] && return 0
		_i=$((_i + 1))
		sleep 0.1
	done
	echo "after 30 s: tses1='$(tcmu_dev tses1)' tses2='$(tcmu_dev tses2)' sg='$(ses_sg)'" \
		"enclosure class: '$(ls /sys/class/enclosure 2>/dev/null)'"
	return 1
}

if want ss-ses; then
	if ses_setup > /tmp/ses-setup.out 2>&1; then
		SES_OK=1
	else
		NFAIL=$((NFAIL + 1))
		echo "VMTEST FAIL setup-ses: see below"
		sed 's/^/    | /' /tmp/ses-setup.out
		tail -n 30 $SES_LOG 2>/dev/null | sed 's/^/    simd| /'
		dmesg | tail -n 30 | sed 's/^/    dmesg| /'
	fi
fi

need_ses() {
	need_ss
	[ -n "$SES_OK" ] || fail "SES setup failed (see setup-ses)"
}

# sg_ses's view of slot N's LED (ident or fault): 0 or 1
ses_led() { sg_ses --dev-slot-num=$1 --get=$2 /dev/$(ses_sg) 2>&1 | trim; }

# The kernel sees an enclosure of 4 slots; sg_ses reads its pages.
ss_ses_kernel() {
	need_ses
	e=$(ls /sys/class/enclosure | head -n 1)
	echo "enclosure class: $e: $(cat /sys/class/enclosure/$e/components) components"
	expect_eq components "$(cat /sys/class/enclosure/$e/components)" 4
	must sg_ses --page=1 /dev/$(ses_sg)
	expect_grep stdout $OUT "SSTEST"
	expect_grep stdout $OUT "Array device slot"
	must sg_ses --page=0xa /dev/$(ses_sg)
	expect_grep stdout $OUT "5000cca0b0000082"
}
t ss-ses-kernel ss_ses_kernel

# locate and fault through the kernel's sg node, read back by sg_ses and by the kernel.
ss_ses_leds() {
	need_ses
	d1=$(tcmu_dev tses1)
	d2=$(tcmu_dev tses2)
	expect_eq slot0-ident-before "$(ses_led 0 ident)" 0
	must $SS locate /dev/$d1 /dev/$d2
	expect_grep stdout $OUT "/dev/$d1: /dev/$(ses_sg) slot 0 \\(Slot 00\\): locate on, fault off"
	expect_grep stdout $OUT "/dev/$d2: /dev/$(ses_sg) slot 2 \\(Slot 02\\): locate on"
	expect_eq "sg_ses slot 0 ident" "$(ses_led 0 ident)" 1
	expect_eq "sg_ses slot 2 ident" "$(ses_led 2 ident)" 1
	expect_eq "sg_ses slot 1 ident (empty)" "$(ses_led 1 ident)" 0
	e=$(ls /sys/class/enclosure | head -n 1)
	expect_eq "kernel: Slot 00 locate" "$(cat "/sys/class/enclosure/$e/Slot 00/locate")" 1
	must $SS fault /dev/$d2
	expect_eq "sg_ses slot 2 fault" "$(ses_led 2 fault)" 1
	must $SS locate --off /dev/$d1 /dev/$d2
	expect_eq "sg_ses slot 0 ident off" "$(ses_led 0 ident)" 0
	expect_eq "sg_ses slot 2 fault kept" "$(ses_led 2 fault)" 1
	must $SS info -J /dev/$d2
	jflat $OUT
	expect_eq "info: slot" "$(jget $OUT.flat .enclosure.slot)" 2
	expect_eq "info: fault" "$(jget $OUT.flat .enclosure.fault)" true
	# sg_ses sets, shortstroke reads
	must sg_ses --dev-slot-num=0 --set=ident /dev/$(ses_sg)
	must $SS info -J /dev/$d1
	jflat $OUT
	expect_eq "info after sg_ses --set=ident" "$(jget $OUT.flat .enclosure.locate)" true
	must $SS fault --off /dev/$d2
	must $SS locate --off /dev/$d1
}
t ss-ses-leds ss_ses_leds

# probe through the real path (SG_IO -> sd -> tcm_loop -> TCMU -> the handler): the SATA
# drive's returned registers and IDENTIFY, both drives' MODE SENSE / no-change MODE SELECT;
# then the handler plays a bridge that drops the registers: probe says so, limit refuses hpa
# before anything is changed, and the size stays.
ss_ses_probe() {
	need_ses
	d1=$(tcmu_dev tses1)
	d2=$(tcmu_dev tses2)
	must $SS probe -J /dev/$d2
	jflat $OUT
	expect_eq "sata native-max" "$(jget $OUT.flat '.steps[0].verdict')" passed
	expect_match "sata native-max detail" "$(jget $OUT.flat '.steps[0].detail')" \
		"native maximum 1048576 blocks"
	expect_eq "sata carries hpa" "$(jget $OUT.flat '.carries[0]')" hpa
	expect_eq "sata identify" "$(jget $OUT.flat '.steps[1].verdict')" passed
	expect_eq "sata mode-select" "$(jget $OUT.flat '.steps[3].verdict')" passed
	must $SS probe -J /dev/$d1
	jflat $OUT
	expect_eq "sas mode-sense" "$(jget $OUT.flat '.steps[2].verdict')" passed
	expect_eq "sas mode-select" "$(jget $OUT.flat '.steps[3].verdict')" passed
	tcmu_fault tses2 drop-registers || fail "fault not injected"
	run $SS probe /dev/$d2
	[ $RC -eq 1 ] || fail "probe behind a path that drops registers exited $RC, expected 1"
	expect_grep stdout $OUT "native-max: *failed: CK_COND was ignored"
	before=$(sys_bytes $d2)
	run $SS limit --method hpa --percent 50 --force --yes /dev/$d2
	[ $RC -eq 1 ] || fail "limit by hpa exited $RC, expected 1"
	expect_grep stderr $ERR "this path cannot carry the hpa method"
	expect_eq size-unchanged "$(sys_bytes $d2)" "$before"
	tcmu_fault --clear tses2 || fail "fault not cleared"
}
t ss-ses-probe ss_ses_probe

if [ -n "$SES_OK" ]; then
	tcmu_teardown > /tmp/ses-teardown.out 2>&1 ||
		{ echo "VMTEST FAIL ses-teardown: see below"; sed 's/^/    | /' /tmp/ses-teardown.out;
		  NFAIL=$((NFAIL + 1)); }
	SES_OK=""
fi
