#!/bin/sh
# devbound.sh PROG - the device-bound part of make bench: loop devices
# throttled to disk-like rates by the block cgroup controller (cgroup v1
# blkio.throttle.*, or io.max on cgroup v2), in a child group made for the
# run and removed after it. Ours and fio side by side, interleaved, the
# median of the runs, each as MB/s or IOPS and as the fraction of the
# throttle reached; N devices in parallel against the sum of single runs;
# qualify and profile on 4 devices at once against the slowest single one.
# Measures only; asserts nothing. Needs root (losetup, cgroups).
#
#   DEV_SECONDS=2    length of one timed run
#   DEV_REPS=3       runs of each single-device case (median reported)
#   DEV_PAR_REPS=2   runs of each parallel case
#   DEV_SMOKE=1      a few seconds in all: every section once, tiny runs
#                    (make check runs this to see that the section works)
#   BENCH_DIR=/var/tmp  where the (sparse) backing files go
#   DEV_RESULTS=FILE also keep the raw figures (KEY VALUE lines) there
set -eu
PROG=$(realpath "${1:-build/shortstroke}")
SECS=${DEV_SECONDS:-2}
REPS=${DEV_REPS:-3}
PREPS=${DEV_PAR_REPS:-2}
SMOKE=${DEV_SMOKE:-0}
BASE=${BENCH_DIR:-/var/tmp}
NDEV=8
. "$(dirname "$0")/lib.sh"

# Disk-like rates: sequential bytes/s, random 4 KiB IOPS.
# 7200 rpm SATA: 150 MB/s, 180 IOPS; 15k rpm SAS: 200 MB/s, 400 IOPS.
PROFILES="7200:150000000:180 15k:200000000:400"
SEQ_BS=512k
QUAL_POINTS=40
RAND_QDS="1 32 64"
FULL=1
if [ "$SMOKE" = 1 ]; then
	# one case of each kind: fio alone takes a second to start and stop
	SECS=0.3
	REPS=1
	PREPS=1
	NDEV=2
	PROFILES="7200:150000000:180"
	QUAL_POINTS=4
	RAND_QDS=32
	FULL=0
fi

if [ "$(id -u)" -ne 0 ]; then
	say "devbound: needs root (loop devices, cgroups)"
	exit 1
fi
for t in losetup lsblk fio python3; do
	command -v "$t" >/dev/null || { say "devbound: $t is missing"; exit 1; }
done

# ---- the throttle group ----
CG="" CG_KIND=""
if [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	CG_KIND=v1
	CG=/sys/fs/cgroup/blkio/ssbench.$$
elif [ -e /sys/fs/cgroup/cgroup.controllers ] &&
	grep -qw io /sys/fs/cgroup/cgroup.controllers; then
	CG_KIND=v2
	grep -qw io /sys/fs/cgroup/cgroup.subtree_control ||
		echo +io >/sys/fs/cgroup/cgroup.subtree_control
	CG=/sys/fs/cgroup/ssbench.$$
else
	say "devbound: no blkio (cgroup v1) or io (cgroup v2) controller"
	exit 1
fi

WORK=$(mktemp -d "$BASE/ssdev.XXXXXX")
LOOPS=""
cleanup() {
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG" 2>/dev/null || true
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
mkdir "$CG"

# cg_exec CMD...: CMD inside the throttle group
cg_exec() { sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
RUN_IN=cg_exec

# throttle RBPS WBPS RIOPS WIOPS DEV...: limits on each DEV (0: none)
throttle() {
	rb=$1 wb=$2 ri=$3 wi=$4
	shift 4
	for dev in "$@"; do
		mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
		if [ "$CG_KIND" = v1 ]; then
			echo "$mm $rb" >"$CG/blkio.throttle.read_bps_device"
			echo "$mm $wb" >"$CG/blkio.throttle.write_bps_device"
			echo "$mm $ri" >"$CG/blkio.throttle.read_iops_device"
			echo "$mm $wi" >"$CG/blkio.throttle.write_iops_device"
		else
			m() { [ "$1" = 0 ] && echo max || echo "$1"; }
			echo "$mm rbps=$(m "$rb") wbps=$(m "$wb") riops=$(m "$ri") wiops=$(m "$wi")" \
				>"$CG/io.max"
		fi
	done
}

# ---- devices: sparse 1 GiB files (the throttle, not the file, sets the pace) ----
DEVS=""
for i in $(seq "$NDEV"); do
	truncate -s 1G "$WORK/d$i.img"
	l=$(losetup -f --show "$WORK/d$i.img")
	LOOPS="$LOOPS $l"
	DEVS="$DEVS $l"
done
# The loop devices are buffered: a first read of a part of the backing file
# fills page-cache pages (zeros), which on a loaded machine can be slower
# than the throttle. Read each device once, untimed, so that
# every run is paced by the throttle alone.
for dev in $DEVS; do
	dd if="$dev" of=/dev/null bs=1M iflag=direct status=none
done
# shellcheck disable=SC2086
set -- $DEVS
D1=$1
say "devbound: $NDEV loop devices in the throttle group $CG ($CG_KIND), ${SECS} s runs, median of $REPS"

RES="$WORK/results"
: >"$RES"
record() { echo "$1 $2" >>"$RES"; }

# pair KEY OURS_WL OURS_EXTRA FIO_RW FIO_BS QD FIELD DEV...: one interleaved
# run of each; FIELD 1 = MB/s, 2 = IOPS; OURS_WL "-": fio only
pair() {
	key=$1 wl=$2 extra=$3 rw=$4 bs=$5 qd=$6 f=$7
	shift 7
	if [ "$wl" != - ]; then
		# shellcheck disable=SC2086
		r=$(ours_rate "$wl" "$qd" "$@" -- $extra)
		record "ours_$key" "$(pick "$f" $r)"
	fi
	r=$(fio_rate "$rw" "$bs" "$qd" "$@")
	# shellcheck disable=SC2086
	record "fio_$key" "$(pick "$f" $r)"
}
# pick FIELD MBPS IOPS ...: the one asked for
pick() {
	[ $# -ge 3 ] || { say "devbound: a run gave no figures"; exit 1; }
	if [ "$1" = 1 ]; then echo "$2"; else echo "$3"; fi
}

# ---- one device, each rate ----
for p in $PROFILES; do
	name=${p%%:*} rest=${p#*:}
	bps=${rest%%:*} iops=${rest#*:}
	record "limit_${name}_bps" "$bps"
	record "limit_${name}_iops" "$iops"
	say "devbound: $name: sequential read and write ($SEQ_BS, QD 8), 4 KiB random read QD 1, 32, 64"
	for r in $(seq "$REPS"); do
		throttle "$bps" "$bps" 0 0 "$D1"
		pair "${name}_seqr" seq-read "--bs $SEQ_BS" read "$SEQ_BS" 8 1 "$D1"
		if [ "$FULL" = 1 ]; then
			pair "${name}_seqw" seq-write "--bs $SEQ_BS --destructive --yes" write \
				"$SEQ_BS" 8 1 "$D1"
			[ "$name" != 7200 ] || pair "${name}_seqr1m" seq-read "--bs 1M" read 1M 8 1 "$D1"
		fi
		throttle "$bps" "$bps" "$iops" "$iops" "$D1"
		for q in $RAND_QDS; do
			pair "${name}_rand$q" random-access "" randread 4k "$q" 2 "$D1"
		done
	done
done

# ---- N devices at once against the sum of single runs (7200 rpm rates) ----
p=${PROFILES%% *}
rest=${p#*:}
bps=${rest%%:*} iops=${rest#*:}
# shellcheck disable=SC2086
set -- $DEVS
N4=4
FIRST4="$1 $2 ${3:-} ${4:-}"
if [ "$NDEV" -lt 4 ]; then
	N4=$NDEV
	FIRST4=$DEVS
fi
say "devbound: $N4 and $NDEV devices in parallel against single runs ($PREPS runs)"
# par KEY OURS_WL OURS_EXTRA FIO_RW FIO_BS QD FIELD
par() {
	key=$1 wl=$2 extra=$3 rw=$4 bs=$5 qd=$6 f=$7
	for r in $(seq "$PREPS"); do
		for who in ours fio; do
			i=0
			for dev in $DEVS; do
				i=$((i + 1))
				if [ "$who" = ours ]; then
					# shellcheck disable=SC2086
					r=$(ours_rate "$wl" "$qd" "$dev" -- $extra)
				else
					r=$(fio_rate "$rw" "$bs" "$qd" "$dev")
				fi
				# shellcheck disable=SC2086
				record "${who}_${key}_single$i" "$(pick "$f" $r)"
			done
			for set_ in "$N4:$FIRST4" "$NDEV:$DEVS"; do
				n=${set_%%:*} devs=${set_#*:}
				if [ "$who" = ours ]; then
					# shellcheck disable=SC2086
					r=$(ours_rate "$wl" "$qd" $devs -- $extra)
				else
					# shellcheck disable=SC2086
					r=$(fio_rate "$rw" "$bs" "$qd" $devs)
				fi
				# shellcheck disable=SC2086
				record "${who}_${key}_par$n" "$(pick "$f" $r)"
			done
		done
	done
}
# shellcheck disable=SC2086
throttle "$bps" "$bps" 0 0 $DEVS
par seqr seq-read "--bs $SEQ_BS" read "$SEQ_BS" 8 1
if [ "$FULL" = 1 ]; then
	# shellcheck disable=SC2086
	throttle "$bps" "$bps" "$iops" "$iops" $DEVS
	par rand32 random-access "" randread 4k 32 2
fi

# ---- qualify (scan, profile, access) and profile: 4 at once vs single ----
say "devbound: qualify --profile quick and profile --points $QUAL_POINTS, each device alone and $N4 at once"
wall() { # CMD...: runs CMD in the group, prints its wall time
	t0=$(date +%s.%N)
	cg_exec "$@" >/dev/null || true # a verdict of FAIL is still a timing
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
# shellcheck disable=SC2086
throttle "$bps" "$bps" "$iops" "$iops" $DEVS
i=0
for dev in $FIRST4; do
	i=$((i + 1))
	# qualify --profile quick takes 4 s of random reads at least: not in
	# the smoke run
	[ "$SMOKE" = 1 ] || record qual_single$i "$(wall "$PROG" qualify --profile quick "$dev")"
	record prof_single$i "$(wall "$PROG" profile --points "$QUAL_POINTS" "$dev")"
done
# shellcheck disable=SC2086
[ "$SMOKE" = 1 ] || record qual_par "$(wall "$PROG" qualify --profile quick $FIRST4)"
# the surface scan alone (128 KiB blocks, QD 1, as MHDD reads): qualify's
# scan rate on one device against fio reading the same way, and the
# throttle: the scan must keep the disk busy. A disk streams sequential
# reads at its media rate whatever the request size: the bytes throttle
# alone here (the IOPS cap models seeks, which a sequential scan does not pay)
throttle "$bps" "$bps" 0 0 "$D1"
[ "$SMOKE" = 1 ] || for r in $(seq "$REPS"); do
	cg_exec "$PROG" qualify --profile quick -J "$D1" >"$WORK/scan.json" 2>"$WORK/scan.err" || true
	if s=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["disks"][0]["scan"]["mbps"])' \
		"$WORK/scan.json" 2>&1); then
		record scan_ours "$s"
	else
		say "devbound: qualify's scan gave no figure: $s $(head -c 300 "$WORK/scan.err")"
	fi
	# shellcheck disable=SC2046
	record scan_fio "$(pick 1 $(fio_rate read 128k 1 "$D1"))"
done
throttle "$bps" "$bps" "$iops" "$iops" "$D1"
t0=$(date +%s.%N)
for dev in $FIRST4; do
	cg_exec "$PROG" profile --points "$QUAL_POINTS" "$dev" >/dev/null &
done
wait
t1=$(date +%s.%N)
record prof_par "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"

[ -z "${DEV_RESULTS:-}" ] || cp "$RES" "$DEV_RESULTS"
python3 - "$RES" "$SECS" "$REPS" "$PREPS" "$NDEV" "$(fio --version)" "$CG_KIND" \
	"$(uname -r)" "$(nproc)" <<'EOF'
import statistics, sys
vals = {}
for line in open(sys.argv[1]):
    k, v = line.split()
    vals.setdefault(k, []).append(float(v))
med = {k: statistics.median(v) for k, v in vals.items()}
secs, reps, preps, ndev, fio, kind, kernel, cpus = sys.argv[2:10]
ndev = int(ndev)

print()
print(f"device-bound: loop devices throttled by the {kind} block cgroup, {fio}, "
      f"kernel {kernel}, {cpus} CPUs; median of {reps} runs x {secs} s")
print(f"{'measure':<34} {'throttle':>9} {'ours':>9} {'of thr.':>8} {'fio':>9} "
      f"{'of thr.':>8} {'ours/fio':>9}")
rows = [("seqr", "seq read 512 KiB QD 8, MB/s", "bps"),
        ("seqr1m", "seq read 1 MiB QD 8, MB/s", "bps"),
        ("seqw", "seq write 512 KiB QD 8, MB/s", "bps"),
        ("rand1", "4 KiB random read QD 1, IOPS", "iops"),
        ("rand32", "4 KiB random read QD 32, IOPS", "iops"),
        ("rand64", "4 KiB random read QD 64, IOPS", "iops")]
for prof in ("7200", "15k"):
    if f"limit_{prof}_bps" not in med:
        continue
    print(f"{prof} rpm rates")
    for key, label, unit in rows:
        o, f = med.get(f"ours_{prof}_{key}"), med.get(f"fio_{prof}_{key}")
        if f is None:
            continue
        lim = med[f"limit_{prof}_{unit}"]
        if unit == "bps":
            lim /= 1e6
        if o is None:
            print(f"  {label:<32} {lim:>9.0f} {'-':>9} {'-':>8} {f:>9.1f} "
                  f"{f / lim:>8.3f} {'-':>9}  (fio only: bench writes to disks only)")
            continue
        print(f"  {label:<32} {lim:>9.0f} {o:>9.1f} {o / lim:>8.3f} {f:>9.1f} "
              f"{f / lim:>8.3f} {o / f:>9.3f}")
print("  targets: >= 0.95 of the throttle, >= 0.98 x fio")
print()
print(f"parallel, 7200 rpm rates, median of {preps} runs x {secs} s")
for key, label in (("seqr", "seq read 512 KiB QD 8, MB/s"),
                   ("rand32", "4 KiB random read QD 32, IOPS")):
    for who in ("ours", "fio"):
        singles = [med.get(f"{who}_{key}_single{i}") for i in range(1, ndev + 1)]
        if None in singles:
            continue
        for n in sorted({min(4, ndev), ndev}):
            p = med.get(f"{who}_{key}_par{n}")
            if p is None:
                continue
            s = sum(singles[:n])
            print(f"  {who}: {label}, {n} devices: parallel {p:.1f}, sum of singles "
                  f"{s:.1f}: parallel / sum of singles {p / s:.3f}")
print("  target: >= 0.9 with 8 devices")
print()
if "scan_ours" in med and "scan_fio" in med:
    lim = med["limit_7200_bps"] / 1e6
    o, f = med["scan_ours"], med["scan_fio"]
    print(f"  surface scan, 128 KiB at QD 1, MB/s: throttle {lim:.0f}, qualify's scan {o:.1f} "
          f"({o / lim:.3f} of it), fio {f:.1f} ({f / lim:.3f}): scan / fio {o / f:.3f} "
          f"(target >= 0.95)")
for key, label in (("qual", "qualify --profile quick"), ("prof", "profile (4 processes)")):
    singles = [v for k, v in med.items() if k.startswith(key + "_single")]
    p = med.get(key + "_par")
    if singles and p:
        print(f"  {label}: {len(singles)} devices at once {p:.2f} s, slowest alone "
              f"{max(singles):.2f} s: {p / max(singles):.3f} (target <= 1.10)")
EOF
