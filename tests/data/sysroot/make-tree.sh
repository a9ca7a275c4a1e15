#!/bin/bash
# make-tree.sh - regenerate this captured-style tree (see README).
set -e
# Run from anywhere: rebuilds sys/, dev/ and proc/ next to this script.
R=$(cd "$(dirname "$0")" && pwd)
cd "$R" && rm -rf sys dev proc
w() { mkdir -p "$(dirname "$1")"; printf '%s\n' "$2" > "$1"; }
keep() { mkdir -p "$1"; : > "$1/.keep"; }
vpd80() { mkdir -p "$(dirname "$1")"; local s="$2"; printf "\\x00\\x80\\x00\\x$(printf %02x ${#s})%s" "$s" > "$1"; }
# scsidev DEVDIR HCTL VENDOR MODEL REV WWID SERIAL SG
scsidev() {
	local d=sys/devices/$1
	w $d/vendor "$3"; w $d/model "$4"; w $d/rev "$5"
	[ -n "$6" ] && w $d/wwid "$6"
	[ -n "$7" ] && vpd80 $d/vpd_pg80 "$7"
	keep $d/scsi_device/$2
	[ -n "$8" ] && keep $d/scsi_generic/$8
	w $d/type 0
}
# blk DEVDIR NAME DEV SIZE LBS PBS ROT REMOVABLE [devicelink]
blk() {
	local d=sys/devices/$1/block/$2
	w $d/dev "$3"; w $d/size "$4"; w $d/removable "$8"; w $d/ro 0
	w $d/queue/logical_block_size "$5"; w $d/queue/physical_block_size "$6"
	w $d/queue/rotational "$7"
	keep $d/holders; keep $d/slaves
	[ -n "$9" ] && ln -s "$9" $d/device
	ln -s ../devices/$1/block/$2 sys/block/$2
	mkdir -p sys/dev/block
	ln -s ../../devices/$1/block/$2 sys/dev/block/$3
	: > dev/$2
	echo "$2 $3" >> dev/.devnums
}
# part DEVDIR DISK NAME DEV PARTNO START SIZE
part() {
	local d=sys/devices/$1/block/$2/$3
	w $d/dev "$4"; w $d/partition "$5"; w $d/start "$6"; w $d/size "$7"; w $d/ro 0
	keep $d/holders
	ln -s ../../devices/$1/block/$2/$3 sys/dev/block/$4
	: > dev/$3
	echo "$3 $4" >> dev/.devnums
}
mkdir -p sys/block dev proc/self
cat > dev/.devnums <<X
# Stand-in device nodes: name below dev/, major:minor (see README)
X

ATA1=pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0
scsidev $ATA1 0:0:0:0 "ATA     " "ST2000DM008-2FR1" "0001" naa.5000c500a1b2c3d4 "            ZFL0ABCD" sg0
blk $ATA1 sda 8:0 3907029168 512 4096 1 0 ../../../0:0:0:0
part $ATA1 sda sda1 8:1 1 2048 3907026944

SAS0=pci0000:00/0000:00:03.0/0000:03:00.0/host1/port-1:0/end_device-1:0/target1:0:0/1:0:0:0
scsidev $SAS0 1:0:0:0 "SEAGATE " "ST600MM0009     " "0004" naa.5000c5008e1f2a3b "S0M1ABCD0000K1234567" sg1
blk $SAS0 sdb 8:16 1172123568 512 512 1 0 ../../../1:0:0:0
part $SAS0 sdb sdb1 8:17 1 2048 1172121520

USB=pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0
scsidev $USB 6:0:0:0 "SanDisk " "Ultra           " "1.00" "t10.SanDisk Ultra            4C530001230515109033" "" sg2
blk $USB sdc 8:32 62530624 512 512 0 1 ../../../6:0:0:0

ATA2=pci0000:00/0000:00:1f.2/ata2/host2/target2:0:0/2:0:0:0
scsidev $ATA2 2:0:0:0 "ATA     " "WDC WD40EFRX-68N" "0A82" naa.50014ee2b5c6d7e8 "     WD-WCC7K1234567" sg3
blk $ATA2 sdd 8:48 7814037168 512 4096 1 0 ../../../2:0:0:0

SAS1=pci0000:00/0000:00:03.0/0000:03:00.0/host1/port-1:1/end_device-1:1/target1:0:1/1:0:1:0
scsidev $SAS1 1:0:1:0 "HGST    " "HUC156060CSS200 " "A3B0" naa.5000cca0a1b2c3d4 "0BG1XYZW" sg4
blk $SAS1 sde 8:64 1172123568 4096 4096 1 0 ../../../1:0:1:0

ATA3=pci0000:00/0000:00:1f.2/ata3/host3/target3:0:0/3:0:0:0
scsidev $ATA3 3:0:0:0 "HL-DT-ST" "DVDRAM GH24NSD1 " "LG00" "" "" sg5
w sys/devices/$ATA3/type 5
blk $ATA3 sr0 11:0 2097151 2048 2048 1 1 ../../../3:0:0:0

VIO=pci0000:00/0000:00:02.0/virtio1
w sys/devices/$VIO/vendor 0x1af4
w sys/devices/$VIO/device 0x0002
blk $VIO vda 254:0 41943040 512 512 1 0 ../../../virtio1
w sys/devices/$VIO/block/vda/serial "QEMU-VDA-0001"
part $VIO vda vda1 254:1 1 2048 41940992

blk virtual loop0 7:0 0 512 512 1 0
blk virtual md0 9:0 7813774336 512 4096 0 0
w sys/devices/virtual/block/md0/md/level raid1
ln -s ../../../../pci0000:00/0000:00:1f.2/ata2/host2/target2:0:0/2:0:0:0/block/sdd sys/devices/virtual/block/md0/slaves/sdd
rm sys/devices/virtual/block/md0/slaves/.keep
ln -s ../../../../../../../../../virtual/block/md0 sys/devices/$ATA2/block/sdd/holders/md0
rm sys/devices/$ATA2/block/sdd/holders/.keep

mkdir -p dev/disk/by-id
ln -s ../../sda dev/disk/by-id/ata-ST2000DM008-2FR102_ZFL0ABCD
ln -s ../../sda1 dev/disk/by-id/ata-ST2000DM008-2FR102_ZFL0ABCD-part1
ln -s ../../sdb dev/disk/by-id/wwn-0x5000c5008e1f2a3b
ln -s ../../vda dev/disk/by-id/virtio-QEMU-VDA-0001

cat > proc/self/mountinfo <<X
21 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro
22 21 0:20 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
23 21 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
24 21 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=8123456k,nr_inodes=2030864,mode=755
25 21 8:17 / /srv rw,relatime shared:30 - xfs /dev/sdb1 rw,attr2,inode64,logbufs=8,logbsize=32k,noquota
26 21 9:0 / /data rw,relatime shared:31 - ext4 /dev/md0 rw
X
printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/sda1                               partition\t1953513472\t0\t\t-2\n' > proc/swaps
