# shortstroke list: every sd disk of the guest, with what sysfs says of it.

# Transport of scsi_debug disks: the tool may call them sas (VPD 0x83 says
# SAS, as smartctl reports) or scsi (no transport class in sysfs).
SDEBUG_TRAN='^(sas|scsi)$'

ss_list_json() {
	ss_json list list -J
	n=0
	for d in $(sd_disks); do
		n=$((n + 1))
		i=$(jindex $F .drives device /dev/$d)
		[ -n "$i" ] || fail "/dev/$d is not in list -J"
		P=".drives[$i]"
		expect_eq "$d size" "$(jget $F $P.size)" "$(sys_bytes $d)"
		expect_eq "$d serial" "$(jget $F $P.serial)" "$(sys_serial $d)"
		l=$(ahci_letter $d)
		if [ -n "$l" ]; then
			eval "model=\$${l}_MODEL fw=\$${l}_FW"
			expect_eq "$d tran" "$(jget $F $P.tran)" sata
			expect_eq "$d model (full ATA model)" "$(jget $F $P.model)" "$model"
			expect_eq "$d firmware" "$(jget $F $P.firmware)" "$fw"
		else
			expect_match "$d tran" "$(jget $F $P.tran)" "$SDEBUG_TRAN"
			expect_match "$d model" "$(jget $F $P.model)" scsi_debug
			expect_eq "$d firmware" "$(jget $F $P.firmware)" "$(trim < /sys/block/$d/device/rev)"
		fi
		jkey $F $P.state || fail "$d has no state"
	done
	expect_eq "number of drives" "$(grep -c '^\.drives\[[0-9]*\]\.device=' $F)" "$n"
}
t ss-list-json ss_list_json

# A blank disk and an unused scsi_debug disk are free.
ss_list_free() {
	ss_json list list -J
	for d in $DEV_B $DEV_D; do
		i=$(jindex $F .drives device /dev/$d)
		[ -n "$i" ] || fail "/dev/$d is not in list -J"
		expect_eq "$d state" "$(jget $F ".drives[$i].state")" free
	done
}
t ss-list-free ss_list_free

# The plain table names every disk.
ss_list_text() {
	need_ss
	must $SS list
	for d in $(sd_disks); do
		expect_grep "/dev/$d listed" $OUT "/dev/$d( |$)"
	done
}
t ss-list-text ss_list_text
