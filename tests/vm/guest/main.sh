# Guest side of the real-kernel suite, run by /init (busybox sh).
# Loads the modules, finds the disks, then sources every cases-*.sh in name
# order; each one runs its cases with `t` (see lib.sh). Ends with
# "VMTEST DONE ..." which the host waits for.
. /vmtest/lib.sh
. /vmtest/vmtest.conf

# --- modules and disks ------------------------------------------------------
for m in ahci sd_mod sg ext4 loop md_mod raid0 raid1 raid10 raid456; do
	load_module $m 2>/tmp/modprobe.err ||
		echo "VMTEST FAIL setup-modprobe-$m: $(cat /tmp/modprobe.err)"
done

# The AHCI disks ($AHCI_DISKS), found by the serial numbers QEMU was given.
i=0
while :; do
	DEV_A=$(dev_by_serial "$A_SERIAL")
	DEV_B=$(dev_by_serial "$B_SERIAL")
	DEV_C=$(dev_by_serial "$C_SERIAL")
	DEV_F=$(dev_by_serial "$F_SERIAL")
	DEV_G=$(dev_by_serial "$G_SERIAL")
	[ -n "$DEV_A" ] && [ -n "$DEV_B" ] && [ -n "$DEV_C" ] && [ -n "$DEV_F" ] && [ -n "$DEV_G" ] &&
		break
	i=$((i + 1))
	if [ $i -ge 200 ]; then
		echo "VMTEST FAIL setup-ahci-disks: A='$DEV_A' B='$DEV_B' C='$DEV_C' F='$DEV_F' G='$DEV_G' after 20 s"
		for d in $(sd_disks); do
			echo "    | $d model='$(sys_model $d)' serial='$(sys_serial $d)'"
		done
		break
	fi
	sleep 0.1
done
echo "VMTEST INFO disks A=$DEV_A B=$DEV_B C=$DEV_C F=$DEV_F G=$DEV_G at $(cut -d' ' -f1 /proc/uptime)s"

for f in /vmtest/cases-*.sh; do
	[ -f "$f" ] && . "$f"
done

sdebug_unload
if [ $NFAIL -gt 0 ]; then
	echo "VMTEST INFO kernel log follows"
	dmesg | tail -n 80 | sed 's/^/    dmesg| /'
fi
echo "VMTEST DONE passed=$NPASS failed=$NFAIL skipped=$NSKIP guest_uptime=$(cut -d' ' -f1 /proc/uptime)s"
