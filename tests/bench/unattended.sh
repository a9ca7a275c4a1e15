#!/bin/sh
# unattended.sh PROG - make bench: the paths that run as root with nobody
# watching, at scale. Measures and prints; asserts nothing.
#
# 1. The boot storm: a rig of N simulated drives with volatile limits, power-
#    cycled; one `reapply` of all (the boot unit) against N `reapply DEV` at
#    once (the udev rule starts one per disk), N = 32, 64, 128. Target: the
#    storm within 2x the single run at 128.
# 2. A journal of years: 256 disks limited, then BENCH_JOURNAL_OPS operations
#    (1,000,000) appended as the tool writes them (journal_bench.c: a boot's
#    re-apply, now and then a restore and the limit again), compacted on the
#    way; then `list` and `reapply` of all. Target: list under 0.2 s and 50 MB,
#    reapply under 1 s.
#
#   BENCH_DIR=/var/tmp      the boot storm's state directories (a real file
#                           system: the boot's journal is on one)
#   BENCH_REPS=3            runs of each boot measurement; the median is printed
#   BOOT_SIZES="32 64 128"
#   BENCH_JOURNAL_OPS=1000000
#   BENCH_JOURNAL_DIR=/dev/shm  where the journal of years is written: its 3
#                           million appends are each fsynced, which on this
#                           machine's disk would take hours; the CPU, memory and
#                           file sizes measured are the same
set -eu
PROG=$(realpath "${1:-build/shortstroke}")
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${BENCH_DIR:-/var/tmp}
REPS=${BENCH_REPS:-3}
SIZES=${BOOT_SIZES:-32 64 128}
OPS=${BENCH_JOURNAL_OPS:-1000000}
JBASE=${BENCH_JOURNAL_DIR:-/dev/shm}
[ -d "$JBASE" ] && [ -w "$JBASE" ] || JBASE=$BASE
WORK=$(mktemp -d "$BASE/ssboot.XXXXXX")
JWORK=$(mktemp -d "$JBASE/ssjournal.XXXXXX")
trap 'rm -rf "$WORK" "$JWORK"' EXIT INT TERM
say() { printf '%s\n' "$*" >&2; }
ms() { date +%s%N | cut -c1-13; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# rig FILE N ID: N simulated SATA disks, each with an HPA of its own, ids IDnnn
rig() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
n = int(sys.argv[2])
json.dump({"time_scale": 1000, "drives": [
    {"id": "%s%03d" % (sys.argv[3], i), "personality": "sata", "model": "WDC WD1000AAKS",
     "serial": "WD-%s%06d" % (sys.argv[3].upper(), i), "firmware": "01.03B01",
     "blocks": 195371568, "hpa": True} for i in range(n)]}, open(sys.argv[1], "w"))
EOF
}
# at_limits RIG WANT: how many disks do not have the size WANT (list -J) records
at_limits() {
	"$PROG" --rig "$1" list -J -o DEVICE,SIZE 2>/dev/null | python3 -c '
import json, sys
want = {d["device"]: d["size"] for d in json.load(open(sys.argv[1]))["drives"]}
now = {d["device"]: d["size"] for d in json.load(sys.stdin)["drives"]}
print(sum(1 for k in want if now.get(k) != want[k]))' "$2"
}

# ---- 1. the boot storm ------------------------------------------------------------------
say "bench: boot storm: N parallel 'reapply DEV' against one 'reapply', N = $SIZES ($REPS runs each, state in $BASE)"
printf '\nboot storm (simulated disks with volatile limits, power-cycled; state on %s)\n' \
	"$(stat -f -c %T "$BASE")"
printf '  %5s  %14s  %14s  %7s  %s\n' disks "one reapply" "N reapply DEV" ratio "after them"
for n in $SIZES; do
	r="$WORK/boot$n.json"
	rig "$r" "$n" d
	export SHORTSTROKE_STATE_DIR="$WORK/state$n"
	all=$(python3 -c "print(' '.join('sim:d%03d' % i for i in range($n)))")
	"$PROG" --rig "$r" limit --volatile --percent 30 --yes $all >/dev/null 2>&1
	"$PROG" --rig "$r" list -J -o DEVICE,SIZE >"$WORK/want$n.json" 2>/dev/null
	singles="" storms="" lost=0 failed=0
	k=0
	while [ $k -lt "$REPS" ]; do
		k=$((k + 1))
		"$PROG" --rig "$r" sim power-cycle $all >/dev/null
		t0=$(ms)
		"$PROG" --rig "$r" reapply >/dev/null 2>&1 || failed=$((failed + 1))
		singles="$singles $(($(ms) - t0))"
		lost=$((lost + $(at_limits "$r" "$WORK/want$n.json")))
		"$PROG" --rig "$r" sim power-cycle $all >/dev/null
		: >"$WORK/storm-failed"
		t0=$(ms)
		for d in $all; do
			"$PROG" --rig "$r" reapply "$d" >/dev/null 2>&1 || echo x >>"$WORK/storm-failed" &
		done
		wait
		storms="$storms $(($(ms) - t0))"
		failed=$((failed + $(wc -l <"$WORK/storm-failed")))
		lost=$((lost + $(at_limits "$r" "$WORK/want$n.json")))
	done
	s=$(echo "$singles" | median)
	p=$(echo "$storms" | median)
	printf '  %5s  %11.2f s  %11.2f s  %6.1fx  %s lost, %s runs failed%s\n' "$n" \
		"$(echo "$s" | awk '{print $1/1000}')" "$(echo "$p" | awk '{print $1/1000}')" \
		"$(awk -v a="$p" -v b="$s" 'BEGIN { print a / b }')" "$lost" "$failed" \
		"$([ "$n" = 128 ] && echo "   (target: storm within 2x at 128)")"
done
unset SHORTSTROKE_STATE_DIR

# ---- 2. a journal of years ---------------------------------------------------------------
bdir=$(dirname "$PROG")
say "bench: a journal of years: $OPS operations on 256 disks (state in $JBASE)"
if ! cc -O2 -I"$HERE/../../include" "$HERE/journal_bench.c" "$bdir/libshortstroke.a" \
	$(pkg-config --libs json-c) -lpthread -lm -o "$bdir/journal_bench"; then
	say "bench: journal_bench does not build; section skipped"
	exit 0
fi
r="$JWORK/fleet.json"
rig "$r" 256 f
all=$(python3 -c "print(' '.join('sim:f%03d' % i for i in range(256)))")
# timed NAME CMD...: "NAME seconds MB exit" of one run of CMD (wall time, peak RSS)
timed() {
	name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$JWORK/time" "$@" >/dev/null 2>"$JWORK/err" && rc=0 || rc=$?
	echo "$name $(awk '{ printf "%.3f %.1f", $1, $2 / 1024 }' "$JWORK/time") $rc"
}
# measure: list and reapply of all (after a power cycle), REPS runs each; the disks not at
# their limit after each reapply
measure() {
	k=0
	while [ $k -lt "$REPS" ]; do
		k=$((k + 1))
		timed list "$PROG" --rig "$r" list
		"$PROG" --rig "$r" sim power-cycle $all >/dev/null
		timed reapply "$PROG" --rig "$r" reapply
		echo "lost $(at_limits "$r" "$JWORK/want.json")"
	done
}
# fleet DIR: 256 disks limited (volatile), their state and journal in DIR
fleet() {
	export SHORTSTROKE_STATE_DIR="$1"
	"$PROG" --rig "$r" limit --volatile --percent 30 --yes $all >/dev/null 2>&1
	"$PROG" --rig "$r" list -J -o DEVICE,SIZE >"$JWORK/want.json" 2>/dev/null
}
fleet "$JWORK/state"
measure >"$JWORK/fresh"
"$bdir/journal_bench" "$SHORTSTROKE_STATE_DIR" "$OPS" >"$JWORK/gen"
measure >"$JWORK/aged"
# the reference: the journal as main's code left it (never compacted), at 400,000 records
say "bench: the same, never compacted, at 400,000 records"
fleet "$JWORK/state-ref"
"$bdir/journal_bench" --no-compact "$SHORTSTROKE_STATE_DIR" 133333 >"$JWORK/gen-ref"
measure >"$JWORK/ref"
unset SHORTSTROKE_STATE_DIR
python3 - "$JWORK" "$REPS" <<'EOF'
import statistics, sys
d, reps = sys.argv[1], sys.argv[2]
def read(name):
    v = {}
    for l in open(f"{d}/{name}"):
        f = l.split()
        v.setdefault(f[0], []).append(f[1:])
    return v
cols = (("fresh", "fresh journal"), ("aged", "after the operations"),
        ("ref", "never compacted, 400k records"))
runs = {c: read(c) for c, _ in cols}
print()
print(f"a journal of years (256 simulated disks with volatile limits; the median of {reps} runs,"
      " the largest RSS)")
print("  " + open(f"{d}/gen").read().strip())
print("  reference: " + open(f"{d}/gen-ref").read().strip())
print("  " + " " * 9 + "".join(f"{t:>32}" for _, t in cols) + "   target")
for k, target in (("list", "< 0.2 s, < 50 MB"), ("reapply", "< 1 s (re-applies all 256)")):
    cells = []
    for c, _ in cols:
        r = runs[c][k]
        s = statistics.median(float(x[0]) for x in r)
        mb = max(float(x[1]) for x in r)
        bad = sum(1 for x in r if x[2] != "0")
        cells.append(f"{s:7.3f} s {mb:7.1f} MB" + (f" {bad} failed" if bad else ""))
    print(f"  {k:<9}" + "".join(f"{c:>32}" for c in cells) + f"   {target}")
print("  disks not at their limit after a reapply: " +
      ", ".join(f"{sum(int(x[0]) for x in runs[c]['lost'])} ({t})" for c, t in cols))
EOF
