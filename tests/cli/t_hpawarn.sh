# libata.ignore_hpa=1 undoes every HPA: list warns (one line on stderr) when
# the captured system's kernel has it, or its boot configuration sets it for
# the next boot; nothing is said without it, nor for simulated drives.
# (info and limit on a real SATA disk: tests/vm/guest/cases-82-reapply.sh)

R=$TMP/root
cp -a "$HERE/../data/sysroot" "$R"
L="$PROG --sysroot $R list -n -o DEVICE"
run $L
expect "list: no warning on a plain system" 0 "^/dev/sda$"
[ -z "$ERR" ] && pass "list: stderr empty" || fail "list: stderr empty" "$ERR"

mkdir -p "$R/sys/module/libata/parameters"
echo 0 >"$R/sys/module/libata/parameters/ignore_hpa"
run $L
[ -z "$ERR" ] && pass "ignore_hpa = 0: no warning" || fail "ignore_hpa = 0: no warning" "$ERR"
echo 1 >"$R/sys/module/libata/parameters/ignore_hpa"
run $L
expect "ignore_hpa = 1: the list itself unchanged" 0 "^/dev/sda$"
expect "ignore_hpa = 1: a warning line naming the parameter and what to do" 0 "" \
	"^shortstroke: warning: the running kernel has libata.ignore_hpa=1 \\(/sys/module/libata/parameters/ignore_hpa = 1\\): .*undone at boot.*Remove the option.*--method dco"
[ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] && pass "one warning line for all disks" || fail "one warning line for all disks" "$ERR"
run "$PROG" --sysroot "$R" --demo list -n -o DEVICE
[ -z "$ERR" ] && pass "simulated drives: no warning" || fail "simulated drives: no warning" "$ERR"
rm "$R/sys/module/libata/parameters/ignore_hpa"

printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda2 quiet libata.ignore_hpa=1\n' >"$R/proc/cmdline"
run $L
expect "the kernel command line" 0 "" "running kernel has libata.ignore_hpa=1 \\(/proc/cmdline"
printf 'BOOT_IMAGE=/vmlinuz nolibata.ignore_hpa=1 libata.ignore_hpa=0\n' >"$R/proc/cmdline"
run $L
[ -z "$ERR" ] && pass "=0 and a longer word are not it" || fail "=0 and a longer word are not it" "$ERR"

mkdir -p "$R/etc/default" "$R/etc/modprobe.d"
printf '# libata.ignore_hpa=1 in a comment\nGRUB_CMDLINE_LINUX_DEFAULT="quiet libata.ignore_hpa=1"\n' >"$R/etc/default/grub"
run $L
expect "grub: the next boot" 0 "" "the next boot sets libata.ignore_hpa=1 \\(/etc/default/grub.*at the next boot"
rm "$R/etc/default/grub"
printf 'options libata noacpi=1 ignore_hpa=1\n' >"$R/etc/modprobe.d/libata.conf"
printf 'options libata ignore_hpa=1\n' >"$R/etc/modprobe.d/libata.conf.disabled"
run $L
expect "modprobe.d: the next boot, *.conf only" 0 "" "the next boot sets libata.ignore_hpa=1 \\(/etc/modprobe.d/libata.conf: options libata ignore_hpa=1\\): "
