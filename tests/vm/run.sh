#!/bin/sh
# Real-kernel suite: boot Debian's kernel under QEMU (TCG) with emulated AHCI
# disks and scsi_debug, run tests/vm/guest/ inside, read the results from
# the serial console.
#   tests/vm/run.sh [PROG]          PROG defaults to build/shortstroke
# Environment:
#   VM_ONLY=ERE      run only the cases whose name matches (e.g. VM_ONLY=info)
#   VM_TIMEOUT=SECS  give up on the guest after SECS (default 900)
#   VM_CASE_TIMEOUT=SECS  fail a single case after SECS (default 60)
#   VM_KVER=VERSION  kernel to boot (default: newest with /boot/vmlinuz-*)
#   VM_KEEP_LOG=1    print the guest log even when every case passed
#   VM_SHELL=1       console on this terminal, a guest shell after the cases
# Output: one line per case (PASS/FAIL/SKIP), the guest log on failure, and a
# closing "vm: N passed, N failed". Logs and images are in build/vm/.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=${1:-build/shortstroke}
case "$prog" in /*) ;; *) prog=$PWD/$prog ;; esac
cd "$root"
out=build/vm
timeout=${VM_TIMEOUT:-900}
only=${VM_ONLY:-}

say() { echo "vm: $*"; }
die() { say "$*" >&2; echo "vm: 0 passed, 1 failed"; exit 1; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }

# --- host packages --------------------------------------------------------
if [ "$(id -u)" -eq 0 ]; then
	tests/deps.sh vm || die "could not install the packages for the VM suite"
fi
for c in qemu-system-x86_64 busybox cpio modprobe depmod mkfs.ext4 truncate; do
	PATH=$PATH:/usr/sbin:/sbin command -v "$c" >/dev/null ||
		die "$c missing: run tests/deps.sh vm as root"
done
export PATH=$PATH:/usr/sbin:/sbin

# --- kernel ---------------------------------------------------------------
kver=${VM_KVER:-}
if [ -z "$kver" ]; then
	for k in $(ls /lib/modules 2>/dev/null | sort -V); do
		[ -r "/boot/vmlinuz-$k" ] && kver=$k
	done
fi
[ -n "$kver" ] && [ -r "/boot/vmlinuz-$kver" ] && [ -d "/lib/modules/$kver" ] ||
	die "no kernel with modules found: install linux-image-amd64"

mkdir -p "$out"
[ -x "$prog" ] || say "warning: $prog not found; the shortstroke cases will fail"

# --- initramfs: cached base + the test scripts ----------------------------
t0=$(now_ms)
base=$(tests/vm/mkinitramfs.sh "$kver" "$prog" "$out") || die "initramfs build failed"

# The guest's disks. The guest reads these from /vmtest/vmtest.conf.
# AHCI port, image size, model (<= 40 chars), serial (<= 20), firmware
# (<= 8), rotation rate (1 = non-rotating), WWN. Read through eval below.
# shellcheck disable=SC2034
A_MODEL="SSTEST ALPHA DISK 2G";   A_SERIAL="SSA-0001-ALPHA"
A_FW="SSFW0001"; A_RPM=7200; A_WWN=0x5000c500a1b2c3d4; A_MB=2048
B_MODEL="SSTEST BRAVO DISK 1G";   B_SERIAL="SSB-0002-BRAVO"
B_FW="SSFW0002"; B_RPM=1; B_WWN=0x5000c500a1b2c3d5; B_MB=1024
C_MODEL="SSTEST CHARLIE FS 256M"; C_SERIAL="SSC-0003-CHARLIE"
C_FW="SSFW0003"; C_RPM=5400; C_WWN=0x5000c500a1b2c3d6; C_MB=256
# F, G: blank spinning disks whose capacity cannot change (QEMU has no HPA or AMAC): the
# members of apply's arrays over partitions (cases-45). D and E are scsi_debug's.
F_MODEL="SSTEST FOXTROT 256M";    F_SERIAL="SSF-0006-FOXTROT"
F_FW="SSFW0006"; F_RPM=7200; F_WWN=0x5000c500a1b2c3d7; F_MB=256
G_MODEL="SSTEST GOLF 256M";       G_SERIAL="SSG-0007-GOLF"
G_FW="SSFW0007"; G_RPM=7200; G_WWN=0x5000c500a1b2c3d8; G_MB=256
AHCI_DISKS="A B C F G"
# N: QEMU's NVMe controller (in an NVMe subsystem, for namespace attachment) with one
# namespace on a 256 MiB image (cases-81).
N_SERIAL="SSN-0008-NVME"; N_MB=256

tstage=$out/tests-stage
rm -rf "$tstage"
mkdir -p "$tstage/vmtest"
cp tests/vm/init "$tstage/init"
chmod 755 "$tstage/init"
cp tests/vm/guest/* "$tstage/vmtest/"
{
	echo "KVER='$kver'"
	echo "AHCI_DISKS='$AHCI_DISKS'"
	echo "N_SERIAL='$N_SERIAL' N_BYTES=$((N_MB * 1048576))"
	for d in $AHCI_DISKS; do
		eval "echo \"${d}_MODEL='\$${d}_MODEL' ${d}_SERIAL='\$${d}_SERIAL'\""
		eval "echo \"${d}_FW='\$${d}_FW' ${d}_RPM=\$${d}_RPM ${d}_WWN=\$${d}_WWN\""
		eval "echo \"${d}_BYTES=\$((\$${d}_MB * 1048576))\""
	done
} > "$tstage/vmtest/vmtest.conf"
(cd "$tstage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc --quiet -R 0:0) > "$out/tests.cpio"
cat "$base" "$out/tests.cpio" > "$out/initrd.img"

# --- disk images (fresh every run: the guest writes to them) --------------
rm -f "$out"/disk-*.img
for d in $AHCI_DISKS; do
	eval "mb=\$${d}_MB"
	truncate -s "${mb}M" "$out/disk-$d.img"
done
truncate -s "${N_MB}M" "$out/disk-N.img"
# Disk A: an MBR with two 512 MiB Linux partitions (sda1 at 1 MiB, sda2).
mbr_entry() { # start-LBA size-in-sectors, both < 2^32, as little-endian
	printf '\000\000\002\000\203\376\377\377'
	for v in "$1" "$2"; do
		printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((v & 255)) $((v >> 8 & 255)) \
			$((v >> 16 & 255)) $((v >> 24 & 255)))"
	done
}
{
	mbr_entry 2048 1048576
	mbr_entry 1050624 1048576
	dd if=/dev/zero bs=32 count=1 2>/dev/null
	printf '\125\252'
} | dd of="$out/disk-A.img" bs=1 seek=446 conv=notrunc 2>/dev/null
# Disk C: an ext4 file system on the whole disk (mounted in the guest).
mkfs.ext4 -q -F -L sstest-fs "$out/disk-C.img" >/dev/null ||
	die "mkfs.ext4 on $out/disk-C.img failed"
t1=$(now_ms)
say "kernel $kver, initramfs $(du -k "$out/initrd.img" | cut -f1) KiB, prepared in $(secs $((t1 - t0)))s"

# --- boot -----------------------------------------------------------------
log=$out/console.log
: > "$log"
append="console=ttyS0 panic=-1 quiet loglevel=1 mitigations=off"
[ -n "$only" ] && append="$append vmtest.only=$only"
[ -n "${VM_CASE_TIMEOUT:-}" ] && append="$append vmtest.case_timeout=$VM_CASE_TIMEOUT"
serial="file:$log"
if [ -n "${VM_SHELL:-}" ]; then
	append="$append vmtest.shell=1"
	serial=mon:stdio
fi
set -- -accel tcg -cpu max -smp 1 -m 1024 -nodefaults -no-reboot \
	-display none -monitor none -serial "$serial" \
	-kernel "/boot/vmlinuz-$kver" -initrd "$out/initrd.img" -append "$append" \
	-device ahci,id=ahci
port=0
for d in $AHCI_DISKS; do
	eval "m=\$${d}_MODEL s=\$${d}_SERIAL f=\$${d}_FW r=\$${d}_RPM w=\$${d}_WWN"
	set -- "$@" -drive "if=none,id=disk$d,file=$out/disk-$d.img,format=raw,cache=unsafe" \
		-device "ide-hd,bus=ahci.$port,drive=disk$d,model=$m,serial=$s,ver=$f,rotation_rate=$r,wwn=$w"
	port=$((port + 1))
done
set -- "$@" -drive "if=none,id=diskN,file=$out/disk-N.img,format=raw,cache=unsafe" \
	-device nvme-subsys,id=nvsub,nqn=sstest-nvme \
	-device "nvme,id=nvme0,serial=$N_SERIAL,subsys=nvsub" \
	-device nvme-ns,drive=diskN,bus=nvme0,nsid=1
# A copy of the command line, to boot the same guest by hand.
{
	printf "qemu-system-x86_64"
	for a in "$@"; do printf " '%s'" "$a"; done
	echo
} > "$out/qemu.cmd"

# One QEMU at a time on this machine, whichever tree runs it.
if command -v flock >/dev/null; then
	exec 9> /tmp/shortstroke-vm.lock
	flock -n 9 || { say "waiting for another QEMU run to finish"; flock 9; }
fi

if [ -n "${VM_SHELL:-}" ]; then
	# Interactive: the console on this terminal; after the cases the guest
	# opens a shell (exit it to power off; Ctrl-A X quits QEMU at once).
	say "VM_SHELL: console on this terminal, a shell after the cases"
	exec qemu-system-x86_64 "$@"
fi
t2=$(now_ms)
qemu-system-x86_64 "$@" > "$out/qemu.log" 2>&1 < /dev/null &
qpid=$!
trap 'kill "$qpid" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
printed=0
done_ms=""
timed_out=0
scan() {
	tr -d '\r' < "$log" | grep -a -E '^VMTEST (PASS|FAIL|SKIP) ' > "$out/results.txt" || true
	n=$(wc -l < "$out/results.txt")
	if [ "$n" -gt "$printed" ]; then
		tail -n +$((printed + 1)) "$out/results.txt" | sed 's/^VMTEST /  /'
		printed=$n
	fi
	if [ -z "$done_ms" ] && tr -d '\r' < "$log" | grep -aq '^VMTEST DONE'; then
		done_ms=$(now_ms)
	fi
}
while kill -0 "$qpid" 2>/dev/null; do
	scan
	el=$(($(now_ms) - t2))
	if [ -n "$done_ms" ] && [ $(($(now_ms) - done_ms)) -gt 20000 ]; then
		say "guest reached DONE but did not power off; stopping QEMU"
		kill "$qpid" 2>/dev/null || true
		break
	fi
	if [ "$el" -gt $((timeout * 1000)) ]; then
		say "timeout: guest did not finish in ${timeout}s; stopping QEMU"
		timed_out=1
		kill "$qpid" 2>/dev/null || true
		break
	fi
	sleep 1
done
wait "$qpid" 2>/dev/null || true
trap - EXIT
scan
t3=$(now_ms)

npass=$(grep -c '^VMTEST PASS ' "$out/results.txt" || true)
nfail=$(grep -c '^VMTEST FAIL ' "$out/results.txt" || true)
guest_done=$(tr -d '\r' < "$log" | grep -a '^VMTEST DONE' | head -n 1 || true)
bad=0
if [ -z "$guest_done" ]; then
	bad=1
	nfail=$((nfail + 1))
	if [ "$timed_out" -eq 1 ]; then say "FAIL: guest timed out before VMTEST DONE"
	else say "FAIL: guest stopped before VMTEST DONE"
	fi
	[ -s "$out/qemu.log" ] && { say "qemu said:"; sed 's/^/  /' "$out/qemu.log"; }
fi
[ "$nfail" -gt 0 ] && bad=1
if [ "$bad" -eq 1 ] || [ -n "${VM_KEEP_LOG:-}" ]; then
	echo "----- guest log ($log) -----"
	tr -d '\r' < "$log"
	echo "----- end of guest log -----"
fi
if [ -n "$done_ms" ]; then
	say "boot to DONE $(secs $((done_ms - t2)))s (${guest_done#VMTEST DONE }), QEMU total $(secs $((t3 - t2)))s, whole run $(secs $((t3 - t0)))s"
fi
[ -n "$only" ] && [ "$npass" -eq 0 ] && [ "$nfail" -eq 0 ] && say "warning: VM_ONLY='$only' matched no case"
echo "vm: $npass passed, $nfail failed"
[ "$bad" -eq 0 ]
