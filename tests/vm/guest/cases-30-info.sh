# shortstroke info on real disks, and its refusals.

INFO_KEYS="device vendor model serial firmware wwn tran logical_block physical_block
capacity_blocks capacity_bytes native_blocks rpm form_factor methods smart_supported
security zoned"

info_keys() {
	for k in $INFO_KEYS; do
		jkey $F .$k || fail "info -J has no '$k'"
	done
	echo "ok: every documented key is present"
}

# The AHCI disk through libata's SAT: IDENTIFY (model, serial, firmware,
# WWN, rotation rate) and READ NATIVE MAX ADDRESS (native_blocks).
ss_info_ata() {
	ss_json info-ata info -J /dev/$DEV_A
	info_keys
	blocks=$((A_BYTES / 512))
	expect_eq device "$(jget $F .device)" /dev/$DEV_A
	expect_eq model "$(jget $F .model)" "$A_MODEL"
	expect_eq serial "$(jget $F .serial)" "$A_SERIAL"
	expect_eq firmware "$(jget $F .firmware)" "$A_FW"
	expect_eq tran "$(jget $F .tran)" sata
	expect_match wwn "$(jget $F .wwn | tr A-F a-f)" "^(0x|naa\.)?${A_WWN#0x}\$"
	expect_eq logical_block "$(jget $F .logical_block)" 512
	expect_eq physical_block "$(jget $F .physical_block)" 512
	expect_eq capacity_blocks "$(jget $F .capacity_blocks)" $blocks
	expect_eq capacity_bytes "$(jget $F .capacity_bytes)" $A_BYTES
	expect_eq native_blocks "$(jget $F .native_blocks)" $blocks
	expect_eq rpm "$(jget $F .rpm)" $A_RPM
	expect_eq smart_supported "$(jget $F .smart_supported)" true
}
t ss-info-ata ss_info_ata

# scsi_debug: INQUIRY, VPD 0x80, READ CAPACITY.
ss_info_scsi() {
	ss_json info-scsi info -J /dev/$DEV_D
	info_keys
	expect_eq device "$(jget $F .device)" /dev/$DEV_D
	expect_eq vendor "$(jget $F .vendor)" Linux
	expect_match model "$(jget $F .model)" scsi_debug
	expect_eq serial "$(jget $F .serial)" "$(sys_serial $DEV_D)"
	expect_eq firmware "$(jget $F .firmware)" "$(trim < /sys/block/$DEV_D/device/rev)"
	expect_match tran "$(jget $F .tran)" "$SDEBUG_TRAN"
	expect_eq logical_block "$(jget $F .logical_block)" 512
	expect_eq capacity_blocks "$(jget $F .capacity_blocks)" 131072
	expect_eq capacity_bytes "$(jget $F .capacity_bytes)" 67108864
}
t ss-info-scsi ss_info_scsi

# refused DEV ERE: `info DEV` exits 1 or 2 with one line on stderr matching ERE.
refused() {
	need_ss
	run $SS info "$1"
	case $RC in 1 | 2) ;; *) fail "info $1 exited $RC, expected 1 or 2" ;; esac
	expect_eq "lines on stderr" "$(grep -c . $ERR)" 1
	expect_grep "error message" $ERR "$2"
}
ss_info_partition() { refused /dev/${DEV_A}1 "/dev/${DEV_A}1.*partition|partition.*/dev/${DEV_A}1"; }
t ss-info-partition-refused ss_info_partition
ss_info_loop() { refused /dev/loop0 "/dev/loop0"; }
t ss-info-loop-refused ss_info_loop
ss_info_missing() { refused /dev/sdz "/dev/sdz"; }
t ss-info-missing-refused ss_info_missing
