# make bench's device-bound section, as a smoke run (DEV_SMOKE=1: a few
# seconds, one case of each kind): it runs, prints its table, and leaves no
# loop device or cgroup behind. Its figures are not checked here (timing
# on a shared machine); make bench prints them.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && command -v fio >/dev/null &&
	{ [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ] ||
		grep -qsw io /sys/fs/cgroup/cgroup.controllers; }; then
	run env DEV_SMOKE=1 BENCH_DIR="$TMP" sh "$GOLDEN/../../bench/devbound.sh" "$PROG"
	expect "devbound: smoke run" 0 "^  seq read 512 KiB QD 8, MB/s +150 +[0-9.]+ +[0-9.]+ +[0-9.]+ "
	expect "devbound: random row" 0 "^  4 KiB random read QD 32, IOPS +180 +[0-9.]+"
	expect "devbound: parallel row" 0 "^  ours: seq read 512 KiB QD 8, MB/s, 2 devices: parallel [0-9.]+, sum of singles [0-9.]+: parallel / sum of singles [0-9.]+$"
	expect "devbound: profile row" 0 "^  profile \(4 processes\): 2 devices at once"
	cg=$(printf '%s\n' "$ERR" | sed -n 's/.*throttle group \([^ ]*\).*/\1/p')
	[ -n "$cg" ] && [ ! -e "$cg" ] && ! losetup -a | grep -q "$TMP/" &&
		pass "devbound: its loop devices and cgroup are removed" ||
		fail "devbound: its loop devices and cgroup are removed" "group: $cg" "$(losetup -a)"
else
	echo "# skipped: devbound needs root, losetup, fio and the blkio/io cgroup controller"
fi
