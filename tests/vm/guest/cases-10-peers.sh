# Peer tools against the guest's disks: proves the disks are what the other
# cases assume, and records what QEMU and scsi_debug answer.
# Setup for cases-10..40: two plain scsi_debug disks (64 MiB each, separate
# stores so they can be md members) and disk C's ext4 mounted on /mnt/fs.

if sdebug_load 2 dev_size_mb=64 add_host=2 per_host_store=1 > /tmp/setup.out 2>&1; then
	set -- $SDEBUG
	DEV_D=$1
	DEV_E=$2
	echo "VMTEST INFO scsi_debug D=$DEV_D E=$DEV_E"
else
	echo "VMTEST FAIL setup-scsi-debug: modprobe scsi_debug failed"
	sed 's/^/    | /' /tmp/setup.out
	NFAIL=$((NFAIL + 1))
fi
mkdir -p /mnt/fs
if ! mount -t ext4 /dev/$DEV_C /mnt/fs 2> /tmp/setup.out; then
	echo "VMTEST FAIL setup-mount: mount /dev/$DEV_C: $(cat /tmp/setup.out)"
	NFAIL=$((NFAIL + 1))
fi

# sg_inq: libata's SAT layer answers INQUIRY with vendor ATA and the first 16
# characters of the ATA model.
peer_sg_inq() {
	for d in A B C; do
		eval "dev=\$DEV_$d model=\$${d}_MODEL serial=\$${d}_SERIAL"
		must sg_inq /dev/$dev
		expect_grep "$dev vendor" $OUT "Vendor identification: ATA *$"
		p=$(echo "$model" | cut -c1-16)
		expect_grep "$dev product" $OUT "Product identification: $p *$"
		expect_grep "$dev serial" $OUT "Unit serial number: $serial *$"
	done
}
t peer-sg-inq-ata peer_sg_inq

# sg_readcap: READ CAPACITY on scsi_debug.
peer_sg_readcap() {
	must sg_readcap /dev/$DEV_D
	expect_grep "blocks" $OUT "Number of logical blocks=131072$"
	expect_grep "block length" $OUT "Logical block length=512 bytes"
	expect_grep "size" $OUT "Device size: 67108864 bytes"
}
t peer-sg-readcap-sdebug peer_sg_readcap

# smartctl: QEMU answers IDENTIFY and SMART READ DATA through SAT.
peer_smartctl() {
	must smartctl -i -A /dev/$DEV_A
	expect_grep "model" $OUT "^Device Model: +$A_MODEL\$"
	expect_grep "serial" $OUT "^Serial Number: +$A_SERIAL\$"
	expect_grep "firmware" $OUT "^Firmware Version: +$A_FW\$"
	expect_grep "capacity" $OUT "^User Capacity: +$(echo $A_BYTES | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta') bytes"
	expect_grep "rpm" $OUT "^Rotation Rate: +$A_RPM rpm"
	expect_grep "SMART available" $OUT "^SMART support is: +Available"
	expect_grep "SMART attributes" $OUT "^ +9 Power_On_Hours "
}
t peer-smartctl-ata peer_smartctl

# hdparm -N: QEMU implements READ NATIVE MAX ADDRESS (EXT); no HPA is set.
peer_hdparm_native() {
	blocks=$((A_BYTES / 512))
	must hdparm -N /dev/$DEV_A
	expect_grep "native max" $OUT "max sectors += $blocks/$blocks, HPA is disabled"
}
t peer-hdparm-native-max peer_hdparm_native

# hdparm -N pN: QEMU does NOT implement SET MAX ADDRESS: the drive aborts the
# command (ATA status 0x41, error 0x04 ABRT) and nothing changes.
peer_hdparm_setmax() {
	blocks=$((B_BYTES / 512))
	run hdparm -N p$((blocks - 1000)) --yes-i-know-what-i-am-doing /dev/$DEV_B
	must hdparm -N /dev/$DEV_B
	expect_grep "native max unchanged" $OUT "max sectors += $blocks/$blocks, HPA is disabled"
	expect_eq "sysfs size" "$(cat /sys/block/$DEV_B/size)" "$blocks"
}
t peer-hdparm-set-max-rejected peer_hdparm_setmax

# smartctl on scsi_debug: a SAS-like disk (SCSI transport SAS in VPD 0x83).
peer_smartctl_sdebug() {
	must smartctl -i /dev/$DEV_D
	expect_grep "product" $OUT "^Product: +scsi_debug"
	expect_grep "transport" $OUT "^Transport protocol: +SAS"
}
t peer-smartctl-sdebug peer_smartctl_sdebug

# ATA PASS-THROUGH (12 and 16) through libata's SAT: IDENTIFY DEVICE.
peer_sat_identify() {
	# model number: words 27-46 of IDENTIFY, two characters a word, swapped
	want=$(printf "%-40s" "$A_MODEL" | od -An -tx1 -v | tr -d " \n" | sed "s/\(..\)\(..\)/\2\1/g")
	for len in 12 16; do
		echo "\$ sg_sat_identify --len=$len -r /dev/$DEV_A > /tmp/ident"
		sg_sat_identify --len=$len -r /dev/$DEV_A > /tmp/ident ||
			fail "sg_sat_identify --len=$len exited $?"
		expect_eq "IDENTIFY bytes, ATA PASS-THROUGH($len)" "$(wc -c < /tmp/ident)" 512
		got=$(dd if=/tmp/ident bs=2 skip=27 count=20 2>/dev/null | od -An -tx1 -v | tr -d " \n")
		expect_eq "IDENTIFY model (hex), ATA PASS-THROUGH($len)" "$got" "$want"
	done
	must sg_sat_identify -i /dev/$DEV_A
	expect_grep "WWN" $OUT "^$A_WWN\$"
}
t peer-sat-identify peer_sat_identify

# MODE SENSE and LOG SENSE on scsi_debug and on the AHCI disk (SAT).
peer_modes_logs() {
	for d in $DEV_D $DEV_A; do
		must sg_modes -a /dev/$d
		expect_grep "$d caching page" $OUT "^>> Caching,"
		run sg_logs /dev/$d
		echo "(sg_logs on $d exited $RC)"
	done
	must sg_logs /dev/$DEV_D
	expect_grep "scsi_debug log pages" $OUT "Supported log pages"
}
t peer-sg-modes-logs peer_modes_logs
