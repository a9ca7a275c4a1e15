#!/bin/sh
# run.sh PROG - make bench: shortstroke's I/O engine against fio (and zcav)
# on the same file-backed loop devices, in one run, printing the ratios.
# Measures only; asserts nothing. Needs root (losetup).
#
#   BENCH_GIB=2       size of the main loop device (GiB)
#   BENCH_SECONDS=5   length of one timed run
#   BENCH_REPS=3      runs of each measurement, ours and fio interleaved;
#                     the median is reported (this machine's neighbours are
#                     noisy: one run proves little)
#   BENCH_DIR=/var/tmp  where the backing files go (a real filesystem, not tmpfs)
set -eu
PROG=$(realpath "${1:-build/shortstroke}")
GIB=${BENCH_GIB:-2}
SECS=${BENCH_SECONDS:-5}
REPS=${BENCH_REPS:-3}
BASE=${BENCH_DIR:-/var/tmp}

say() { printf '%s\n' "$*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
	say "bench: needs root (loop devices); run: sudo make bench"
	exit 1
fi
for t in losetup python3; do
	command -v "$t" >/dev/null || { say "bench: $t is missing"; exit 1; }
done
want=""
command -v fio >/dev/null || want="$want fio"
command -v zcav >/dev/null || want="$want bonnie++"
if [ -n "$want" ]; then
	say "bench: installing$want"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends $want >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 &&
			apt-get install -y -q --no-install-recommends $want >/dev/null 2>&1; } || true
fi
command -v fio >/dev/null || { say "bench: fio is not available"; exit 1; }
HAVE_ZCAV=1
command -v zcav >/dev/null || HAVE_ZCAV=0

fstype=$(stat -f -c %T "$BASE")
case "$fstype" in
tmpfs | ramfs) say "bench: $BASE is $fstype; set BENCH_DIR to a real filesystem"; exit 1 ;;
esac
WORK=$(mktemp -d "$BASE/ssbench.XXXXXX")
LOOPS=""
cleanup() {
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

LOOP=""
mkloop() { # FILE MIB: a file of random data (nothing compresses or dedups), attached
	dd if=/dev/urandom of="$1" bs=1M count="$2" status=none
	LOOP=$(losetup -f --show "$1")
	LOOPS="$LOOPS $LOOP"
}

say "bench: creating a ${GIB} GiB loop device and 4 x 512 MiB ones in $WORK ($fstype)"
mkloop "$WORK/main.img" $((GIB * 1024))
MAIN=$LOOP
mkloop "$WORK/p1.img" 512
P1=$LOOP
mkloop "$WORK/p2.img" 512
P2=$LOOP
mkloop "$WORK/p3.img" 512
P3=$LOOP
mkloop "$WORK/p4.img" 512
P4=$LOOP
RES="$WORK/results"
: >"$RES"

# record KEY VALUE
record() { echo "$1 $2" >>"$RES"; }

# ours WORKLOAD QD DEV...: prints "mbps iops cpu_s bytes" (sums over devices)
ours() {
	wl=$1 qd=$2
	shift 2
	"$PROG" bench -w "$wl" --qd "$qd" --time "${SECS}s" -J "$@" | python3 -c '
import json, sys
d = json.load(sys.stdin)["results"]
bad = [r for r in d if not r["ok"]]
if bad:
    sys.exit("ours: " + str(bad[0]["error"]))
runs = [r["runs"][0] for r in d]
print(sum(r["mbps"] for r in runs), sum(r["iops"] for r in runs),
      sum(r["cpu_s"] for r in runs), sum(r["bytes"] for r in runs))'
}

# fio_run RW BS QD DEV...: the same four numbers from fio's JSON report
fio_run() {
	rw=$1 bs=$2 qd=$3
	shift 3
	args=""
	i=0
	for dev in "$@"; do
		args="$args --name=j$i --filename=$dev"
		i=$((i + 1))
	done
	# norandommap: our engine draws offsets without a coverage map, as
	# fio then does
	fio --ioengine=io_uring --direct=1 --rw="$rw" --bs="$bs" --iodepth="$qd" \
		--time_based --runtime="$SECS" --norandommap --randrepeat=0 \
		--output-format=json $args | python3 -c '
import json, sys
jobs = json.load(sys.stdin)["jobs"]
mbps = sum(j["read"]["bw_bytes"] for j in jobs) / 1e6
iops = sum(j["read"]["iops"] for j in jobs)
cpu = sum((j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1000.0 for j in jobs)
print(mbps, iops, cpu, sum(j["read"]["io_bytes"] for j in jobs))'
}

# measure NAME: REPS interleaved runs of ours and fio for one case
measure_seq() {
	for r in $(seq "$REPS"); do
		set -- $(ours seq-read 8 "$MAIN")
		record ours_seq_mbps "$1"
		record ours_seq_cpu_gib "$(python3 -c "print($3 / ($4 / 2**30))")"
		set -- $(fio_run read 1M 8 "$MAIN")
		record fio_seq_mbps "$1"
		record fio_seq_cpu_gib "$(python3 -c "print($3 / ($4 / 2**30))")"
	done
}

measure_rand() {
	for r in $(seq "$REPS"); do
		set -- $(ours random-access 32 "$MAIN")
		record ours_rand_iops "$2"
		record ours_rand_cpu_gib "$(python3 -c "print($3 / ($4 / 2**30))")"
		set -- $(fio_run randread 4k 32 "$MAIN")
		record fio_rand_iops "$2"
		record fio_rand_cpu_gib "$(python3 -c "print($3 / ($4 / 2**30))")"
	done
}

measure_parallel() {
	for r in $(seq "$REPS"); do
		sum=0
		for l in $P1 $P2 $P3 $P4; do
			set -- $(ours seq-read 8 "$l")
			sum=$(python3 -c "print($sum + $1)")
		done
		record ours_single_sum "$sum"
		set -- $(ours seq-read 8 $P1 $P2 $P3 $P4)
		record ours_parallel "$1"
		sum=0
		for l in $P1 $P2 $P3 $P4; do
			set -- $(fio_run read 1M 8 "$l")
			sum=$(python3 -c "print($sum + $1)")
		done
		record fio_single_sum "$sum"
		set -- $(fio_run read 1M 8 $P1 $P2 $P3 $P4)
		record fio_parallel "$1"
	done
}

measure_zones() {
	t0=$(date +%s.%N)
	"$PROG" profile --points 200 -J "$MAIN" >"$WORK/profile.json"
	t1=$(date +%s.%N)
	python3 - "$WORK/profile.json" "$t0" "$t1" >>"$RES" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))["results"][0]["profile"]
rates = [s["mbps"] for s in p["samples"] if s["mbps"]]
print("ours_zone_mbps", sum(rates) / len(rates))
print("ours_zone_points", len(rates))
print("ours_zone_wall", float(sys.argv[3]) - float(sys.argv[2]))
print("ours_zone_zones", len(p["zones"]))
EOF
	if [ "$HAVE_ZCAV" = 1 ]; then
		t0=$(date +%s.%N)
		zcav -c 1 -b 64 "$MAIN" >"$WORK/zcav.txt" 2>&1 || true
		t1=$(date +%s.%N)
		python3 - "$WORK/zcav.txt" "$t0" "$t1" >>"$RES" <<'EOF'
import sys
rates = []
for line in open(sys.argv[1]):
    f = line.lstrip("#").split()
    if len(f) == 3:
        try:
            t = float(f[2])
            float(f[0])
        except ValueError:
            continue
        if t > 0:
            rates.append(64 * 1.048576 / t)  # 64 MiB blocks, MB/s
if rates:
    print("zcav_zone_mbps", sum(rates) / len(rates))
    print("zcav_zone_points", len(rates))
print("zcav_zone_wall", float(sys.argv[3]) - float(sys.argv[2]))
EOF
	fi
}

say "bench: sequential read, 1 MiB, QD 8 ($REPS x ${SECS}s each, ours and fio interleaved)"
measure_seq
say "bench: 4 KiB random read, QD 32"
measure_rand
say "bench: zone sweep"
measure_zones
say "bench: 4 loop devices in parallel"
measure_parallel

python3 - "$RES" "$GIB" "$SECS" "$REPS" "$HAVE_ZCAV" "$(fio --version)" "$fstype" <<'EOF'
import statistics, sys
vals = {}
for line in open(sys.argv[1]):
    k, v = line.split()
    vals.setdefault(k, []).append(float(v))
med = {k: statistics.median(v) for k, v in vals.items()}
gib, secs, reps, zcav, fio, fs = sys.argv[2:8]

def row(name, ours, other, note=""):
    o, f = med.get(ours), med.get(other)
    if o is None or f is None:
        print(f"{name:<40} {'-':>12} {'-':>12} {'-':>9}  {note}")
        return
    print(f"{name:<40} {o:>12.3f} {f:>12.3f} {o / f:>9.3f}  {note}")

print()
print(f"shortstroke vs {fio}: loop devices on {fs}, {gib} GiB main, "
      f"median of {reps} runs x {secs} s")
print(f"{'measure':<40} {'ours':>12} {'fio':>12} {'ours/fio':>9}")
row("seq read 1 MiB QD 8, MB/s", "ours_seq_mbps", "fio_seq_mbps", "target >= 0.98")
row("4 KiB random read QD 32, IOPS", "ours_rand_iops", "fio_rand_iops", "target >= 0.95")
row("CPU s per GiB, seq read", "ours_seq_cpu_gib", "fio_seq_cpu_gib", "lower is better")
row("CPU s per GiB, 4K random read", "ours_rand_cpu_gib", "fio_rand_cpu_gib",
    "lower is better")
row("4 loops parallel, aggregate MB/s", "ours_parallel", "fio_parallel")
row("4 loops, sum of single runs, MB/s", "ours_single_sum", "fio_single_sum")
for who in ("ours", "fio"):
    a, s = med.get(who + "_parallel"), med.get(who + "_single_sum")
    if a and s:
        print(f"{'  ' + who + ': parallel / sum of singles':<40} {a / s:>12.3f}")
print()
print(f"{'zone sweep':<40} {'ours':>12} {'zcav':>12} {'ours/zcav':>9}")
if zcav != "1":
    print("zcav (bonnie++) is not available: zone sweep shown for ours only")
row("mean read rate over the sweep, MB/s", "ours_zone_mbps", "zcav_zone_mbps")
row("samples", "ours_zone_points", "zcav_zone_points",
    "ours: 200 x 4 MiB; zcav reads every 64 MiB block")
row("wall time, s", "ours_zone_wall", "zcav_zone_wall")
if "ours_zone_zones" in med:
    print(f"{'zones found (a loop device is flat)':<40} {med['ours_zone_zones']:>12.0f}")
EOF

# The RAID planner's solver on 1,000 disks (pure computation, no device).
bdir=$(dirname "$PROG")
if [ -f "$bdir/libraidplan.a" ] && cc -O2 -Iinclude -Isrc tests/bench/raidplan_bench.c \
	"$bdir/libraidplan.a" -lm -o "$bdir/raidplan_bench"; then
	echo
	echo "libraidplan solver, 1,000 disks (wall time per solve):"
	"$bdir/raidplan_bench"
fi
