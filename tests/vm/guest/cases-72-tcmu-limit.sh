# limit / restore through SG_IO on simulated disks the kernel sees as sd
# disks: the drive takes the change, the kernel re-reads the size, and the
# peers (sg_readcap, hdparm -N) see the same number.

# size_check ID BLOCKS: the kernel, READ CAPACITY and `info` all say BLOCKS
# (logical blocks of the drive).
size_check() {
	_dv=$(tcmu_dev $1)
	_lb=$(rig_get $1 logical_block)
	[ -n "$_lb" ] || _lb=512
	expect_eq "$1 ($_dv) /sys/block/$_dv/size" "$(cat /sys/block/$_dv/size)" $(($2 * _lb / 512))
	must sg_readcap -l /dev/$_dv
	expect_grep "$1 sg_readcap" $OUT "Number of logical blocks=$2\$"
	ss_json tcmu-size-$1 info -J /dev/$_dv
	expect_eq "$1 info capacity_blocks" "$(jget $F .capacity_blocks)" $2
}

# cap_run ID ARGS...: shortstroke ARGS /dev/sdX of drive ID, must succeed.
cap_run() {
	_id=$1
	shift
	need_ss
	must $SS "$@" /dev/$(tcmu_dev $_id)
}

# HPA on the SATA personality (no AMAC: auto picks hpa).
ss_tcmu_hpa() {
	need_tcmu
	dv=$(tcmu_dev tsata)
	cap_run tsata limit --yes --percent 50
	size_check tsata 4194304
	must hdparm -N /dev/$dv
	expect_grep "hdparm -N after limit" $OUT "max sectors += 4194304/8388608, HPA is enabled"
	ss_json tcmu-hpa info -J /dev/$dv
	expect_eq native_blocks "$(jget $F .native_blocks)" 8388608
	expect_eq limited "$(jget $F .limited.method)" hpa
	expect_eq "limited, from the drive" "$(jget $F .limited.source)" drive
	expect_eq "limited, original" "$(jget $F .limited.original_blocks)" 8388608
	# a drive takes one non-volatile SET MAX per power cycle: the restore
	# needs a power cycle first, as on a real disk
	run $SS restore --yes /dev/$dv
	expect_eq "restore in the same power cycle: exit" $RC 1
	expect_grep "restore refused" $ERR "power-cycle the drive"
	must tcmu_power_cycle tsata
	size_check tsata 4194304
	cap_run tsata restore --yes
	size_check tsata 8388608
	must hdparm -N /dev/$dv
	expect_grep "hdparm -N after restore" $OUT "max sectors += 8388608/8388608, HPA is disabled"
}
t ss-tcmu-limit-hpa ss_tcmu_hpa

# AMAC (ACS-3 Accessible Max Address Configuration), chosen by auto.
ss_tcmu_amac() {
	need_tcmu
	dv=$(tcmu_dev tamac)
	cap_run tamac limit --yes --percent 50 -J
	expect_grep "method" $OUT '"method": *"amac"'
	size_check tamac 4194304
	run hdparm -N /dev/$dv
	ss_json tcmu-amac info -J /dev/$dv
	expect_eq native_blocks "$(jget $F .native_blocks)" 8388608
	cap_run tamac restore --yes
	size_check tamac 8388608
}
t ss-tcmu-limit-amac ss_tcmu_amac

# SAS: MODE SELECT block-descriptor resize (auto), 512 and 4Kn.
ss_tcmu_resize() {
	need_tcmu
	cap_run tsas limit --yes --percent 50 -J
	expect_grep "method" $OUT '"method": *"scsi-resize"'
	size_check tsas 4194304
	cap_run tsas restore --yes
	size_check tsas 8388608
	cap_run tsas4k limit --yes --percent 50
	size_check tsas4k 524288
	cap_run tsas4k restore --yes
	size_check tsas4k 1048576
}
t ss-tcmu-limit-resize ss_tcmu_resize

# SAS: FORMAT UNIT to a block count, the progress polled with REQUEST
# SENSE while the drive formats (time_scale 10: ~2 s real per format).
ss_tcmu_format() {
	need_tcmu
	dv=$(tcmu_dev tsas)
	n0=$(grep -c "^shortstroke-simd: tsas #[0-9]* \[03 " $SIMD_LOG)
	cap_run tsas limit --yes --percent 50 --method scsi-format -J
	expect_grep "method" $OUT '"method": *"scsi-format"'
	n1=$(grep -c "^shortstroke-simd: tsas #[0-9]* \[03 " $SIMD_LOG)
	echo "REQUEST SENSE polls during the format: $((n1 - n0))"
	[ $((n1 - n0)) -ge 2 ] || fail "the format was not polled for progress ($((n1 - n0)) REQUEST SENSE)"
	grep -q "^shortstroke-simd: tsas #[0-9]* \[04 " $SIMD_LOG || fail "no FORMAT UNIT reached the drive"
	size_check tsas 4194304
	cap_run tsas restore --yes -J
	expect_grep "restore method" $OUT '"method": *"scsi-format"'
	size_check tsas 8388608
}
t ss-tcmu-limit-format ss_tcmu_format
