#!/bin/sh
# run.sh PROG - make bench: shortstroke's I/O engine against fio (and zcav)
# on the same file-backed loop devices, in one run, printing the ratios; then
# the unattended paths (unattended.sh: the boot storm of reapply, a journal
# of years). Measures only; asserts nothing. Needs root (losetup).
#
#   BENCH_GIB=2       size of the main loop device (GiB)
#   BENCH_SECONDS=5   length of one timed run
#   BENCH_REPS=3      runs of each measurement, ours and fio interleaved;
#                     the median is reported (this machine's neighbours are
#                     noisy: one run proves little)
#   BENCH_DIR=/var/tmp  where the backing files go (a real filesystem, not tmpfs)
#   BENCH_DEVBOUND=1  also the device-bound section (devbound.sh: loop devices
#                     throttled to disk rates; its DEV_* settings)
set -eu
PROG=$(realpath "${1:-build/shortstroke}")
GIB=${BENCH_GIB:-2}
SECS=${BENCH_SECONDS:-5}
REPS=${BENCH_REPS:-3}
BASE=${BENCH_DIR:-/var/tmp}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

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
	echo "libraidplan solver, 1,000 disks (per solve; target under 50 ms):"
	"$bdir/raidplan_bench"
fi

# The simulator at rack scale: 24 simulated drives qualified at once, fresh
# and after every one had data written; and what a simulated 60 s benchmark
# costs. Virtual time: the CPU time is the cost.
SIM="$WORK/sim"
mkdir -p "$SIM/state"
python3 - "$SIM/rig.json" <<'EOF'
import json, sys
drives = [{"id": "d%02d" % i, "personality": "sata", "model": "Hitachi HDT721025SLA380",
           "serial": "STF607MS2A%04d" % i, "firmware": "ST6OA3AB",
           "wwn": "5000cca215c3%04x" % i, "blocks": 488397168, "rpm": 7200,
           "smart": {"temperature": 38},
           "media": {"avg_seek_ms": 8.5, "track_to_track_ms": 1.0, "full_stroke_ms": 15.1,
                     "outer_mbps": 105, "inner_mbps": 55, "cache_mb": 8}}
          for i in range(24)]
json.dump({"time_scale": 1000, "drives": drives}, open(sys.argv[1], "w"))
EOF
SIMDEVS=$(seq -f "sim:d%02g" 0 23)
# timed NAME CMD...: wall and CPU (user + system of the command, from the
# shell's times: python's own child accounting adds its fork's work)
timed() {
	name=$1
	shift
	t0=$(date +%s.%N)
	cpu=$(
		"$@" >/dev/null || [ $? = 4 ] || { say "bench: $* failed"; exit 1; }
		times # not in a pipeline: that subshell has no children
	)
	t1=$(date +%s.%N)
	record "${name}_cpu" "$(printf '%s\n' "$cpu" | awk 'NR == 2 { split($1, u, "m")
		split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }')"
	record "${name}_wall" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}
export SHORTSTROKE_STATE_DIR="$SIM/state"
say "bench: simulator: qualify --profile standard of 24 drives, fresh and written"
# shellcheck disable=SC2086
timed sim24_fresh "$PROG" --rig "$SIM/rig.json" qualify --profile standard $SIMDEVS
# 20 virtual seconds of sequential writes on each (zeros, as the engine
# writes them: the image keeps its holes), then a partition table (data)
# shellcheck disable=SC2086
"$PROG" --rig "$SIM/rig.json" bench -w seq-write --qd 8 --time 20s --destructive --yes \
	$SIMDEVS >/dev/null
# shellcheck disable=SC2086
"$PROG" --rig "$SIM/rig.json" limit -m partition --size 240GB --yes $SIMDEVS >/dev/null
# shellcheck disable=SC2086
timed sim24_written "$PROG" --rig "$SIM/rig.json" qualify --profile standard $SIMDEVS
say "bench: simulator: 60 s benchmarks"
timed sim60_seqr "$PROG" --demo bench -w seq-read --qd 1 --time 60s sim:sata250
timed sim60_rand "$PROG" --demo bench -w random-access --qd 32 --time 60s sim:sata250
timed sim60_seqw "$PROG" --demo bench -w seq-write --qd 8 --time 60s --destructive --yes \
	sim:sata250
timed sim60_db "$PROG" --demo bench -w database --qd 64 --time 60s --destructive --yes \
	sim:sas15k
unset SHORTSTROKE_STATE_DIR
python3 - "$RES" <<'EOF'
import sys
v = {}
for line in open(sys.argv[1]):
    k, x = line.split()
    v[k] = float(x)
print()
print("simulator (virtual time: the CPU time is the cost)")
for k, label in (("sim24_fresh", "qualify --profile standard, 24 fresh drives"),
                 ("sim24_written", "the same after data was written to each")):
    if k + "_wall" in v:
        print(f"  {label:<48} {v[k + '_wall']:6.2f} s wall {v[k + '_cpu']:6.2f} s CPU"
              "  (target < 10 s wall)")
for k, label in (("sim60_seqr", "seq-read QD 1"), ("sim60_rand", "random-access QD 32"),
                 ("sim60_seqw", "seq-write QD 8 (image file)"),
                 ("sim60_db", "database QD 64 (image file)")):
    if k + "_cpu" in v:
        print(f"  60 s benchmark, {label:<32} {v[k + '_wall']:6.2f} s wall "
              f"{v[k + '_cpu']:6.2f} s CPU  (target < 1 s CPU)")
EOF

if [ "${BENCH_DEVBOUND:-1}" = 1 ]; then
	BENCH_DIR=$BASE sh "$HERE/devbound.sh" "$PROG"
fi

# the unattended paths: the boot storm of reapply, a journal of years
BENCH_DIR=$BASE sh "$HERE/unattended.sh" "$PROG"
