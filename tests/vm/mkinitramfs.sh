#!/bin/sh
# Build the base initramfs for the real-kernel suite.
#   tests/vm/mkinitramfs.sh KVER PROG OUT_DIR
# Prints the path of the base cpio (uncompressed, newc). The archive holds
# busybox, the kernel modules the suite needs (with their dependencies and a
# fresh modules.dep), the peer tools and PROG with every shared library they
# load. It is cached under OUT_DIR keyed on the sha256 of every input file,
# so a second run with the same inputs only hashes.
# The test scripts and /init are NOT in it: run.sh appends them as a second,
# tiny cpio, so editing a test never rebuilds this archive.
set -eu

kver=$1
prog=$2
out=$3
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Modules loaded in the guest; their dependencies are resolved below.
# configfs, target_core_*, tcm_loop and uio are for the TCMU cases (cases-70).
MODULES="ahci libata sd_mod sg scsi_debug md_mod raid0 raid1 raid10 raid456 \
ext4 loop configfs target_core_mod target_core_user tcm_loop uio"

# Peer tools copied with their libraries (whatever is missing on the host is
# skipped with a warning: the cases that need it then fail in the guest).
TOOLS="sg_inq sg_readcap sg_vpd sg_modes sg_logs sg_rep_zones sg_turs \
sg_sat_identify sg_dd sg_raw sg_format sg_requests sg_reassign sg_get_elem_status smartctl hdparm mdadm mke2fs wipefs \
blkid setpriv unshare blkdiscard"

die() { echo "mkinitramfs: $*" >&2; exit 1; }

modroot=/lib/modules/$kver
[ -d "$modroot" ] || die "no $modroot (install linux-image-amd64)"
busybox=$(command -v busybox) || die "busybox not found (install busybox-static)"
ldd "$busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "$busybox is not static (install busybox-static)"

# --- collect inputs -------------------------------------------------------
# modorder: one line per wanted module, "name dep dep ... name" in load
# order, soft dependencies included (busybox modprobe does not follow those).
modorder=$(for m in $MODULES; do
	deps=$(modprobe --show-depends -S "$kver" "$m") || die "module $m not found for $kver"
	echo "$m $(echo "$deps" | awk '$1 == "insmod" { n = $2; sub(/.*\//, "", n); sub(/\.ko.*/, "", n); printf "%s ", n }')"
done)
mods=$(for m in $MODULES; do
	modprobe --show-depends -S "$kver" "$m"
done | awk '$1 == "insmod" { print $2 }' | sort -u)

tools=""
for t in $TOOLS; do
	p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$t" || true)
	if [ -n "$p" ]; then tools="$tools $(readlink -f "$p")"
	else echo "mkinitramfs: warning: $t not on host, not in guest" >&2
	fi
done

[ -x "$prog" ] || prog=""
# The TCMU handler built beside PROG serves simulated drives to the guest's
# kernel (tests/vm/guest/cases-70-tcmu.sh).
simd=""
[ -n "$prog" ] && [ -x "$(dirname "$prog")/shortstroke-simd" ] &&
	simd=$(dirname "$prog")/shortstroke-simd
[ -n "$simd" ] || echo "mkinitramfs: warning: no shortstroke-simd beside $2, the TCMU cases will fail" >&2
# Libraries: "name => /path (addr)" and the loader "/lib64/ld-linux... (addr)".
libs_of() {
	ldd "$@" 2>/dev/null | awk '
		$2 == "=>" && $3 ~ /^\// { print $1 " " $3 }
		$1 ~ /^\// && $2 ~ /^\(/ { print "LOADER " $1 }' | sort -u
}
libs=$(libs_of $tools $prog $simd)
missing=$(ldd $tools $prog $simd 2>/dev/null | grep 'not found' || true)
[ -z "$missing" ] || echo "mkinitramfs: warning: unresolved libraries:
$missing" >&2

# --- cache key ------------------------------------------------------------
self=$(readlink -f "$0")
key=$( {
	echo "kver $kver"
	echo "modules $MODULES"
	echo "prog ${prog:-none} simd ${simd:-none}"
	sha256sum "$self" "$busybox" $mods $tools $prog $simd $(echo "$libs" | awk '{ print $2 }') \
		"$modroot/modules.builtin" "$modroot/modules.order" /etc/mke2fs.conf 2>/dev/null
} | sha256sum | cut -c1-16)
cpio_out=$out/base-$key.cpio
if [ -s "$cpio_out" ]; then
	echo "$cpio_out"
	exit 0
fi

# --- stage ----------------------------------------------------------------
stage=$out/stage.$$
rm -rf "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"
cd "$stage"
mkdir -p usr/bin usr/sbin usr/lib/x86_64-linux-gnu usr/lib64 dev proc sys run tmp \
	mnt etc root var/run
ln -s usr/bin bin
ln -s usr/sbin sbin
ln -s usr/lib lib
ln -s usr/lib64 lib64

cp "$busybox" usr/bin/busybox
for t in $tools; do
	n=$(basename "$t")
	cp "$t" "usr/sbin/$n"
done
[ -f usr/sbin/mke2fs ] && ln -sf mke2fs usr/sbin/mkfs.ext4
[ -f /etc/mke2fs.conf ] && cp /etc/mke2fs.conf etc/
if [ -n "$prog" ]; then
	cp "$prog" usr/bin/shortstroke
fi
if [ -n "$simd" ]; then
	cp "$simd" usr/bin/shortstroke-simd
fi
# State of the simulated drives the TCMU cases serve (the rig file travels
# with the test scripts: /vmtest/tcmu-rig.json).
mkdir -p var/lib/shortstroke-sim
echo "$libs" | while read -r name path; do
	[ -n "$name" ] || continue
	if [ "$name" = LOADER ]; then
		mkdir -p "./$(dirname "$path")"
		[ -e "./$path" ] || cp -L "$path" "./$path"
	else
		cp -L "$path" "usr/lib/x86_64-linux-gnu/$name"
	fi
done
# mdadm runs without udev in the guest.
mkdir -p etc/mdadm run/mdadm
echo "CREATE owner=root group=disk mode=0660 auto=yes" > etc/mdadm/mdadm.conf
echo "root:x:0:0:root:/root:/bin/sh" > etc/passwd
echo "root:x:0:" > etc/group
echo "disk:x:6:" >> etc/group

mdir=usr/lib/modules/$kver
mkdir -p "$mdir"
for m in $mods; do
	rel=${m#"$modroot"/}
	mkdir -p "$mdir/$(dirname "$rel")"
	cp "$m" "$mdir/$rel"
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -f "$modroot/$f" ] && cp "$modroot/$f" "$mdir/"
done
depmod -b "$stage" "$kver"
echo "$modorder" > etc/vmtest-modorder

find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 > "$cpio_out.tmp"
cd - >/dev/null
mv "$cpio_out.tmp" "$cpio_out"
# Keep only the newest few cached archives.
ls -t "$out"/base-*.cpio 2>/dev/null | tail -n +4 | while read -r old; do rm -f "$old"; done
echo "$cpio_out"
