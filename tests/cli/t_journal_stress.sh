# Nothing lost under load: 256 simulated SATA disks that came with an HPA of
# their own, limited in one parallel batch (--percent 30), power-cycled and
# restored, over and over; the same with kill -9 at random points of the
# batches; and two processes on the two halves of one rig at once. Every
# disk must get its own original back each time (not the native max).
# Then the boot path: reapply killed at random points, each followed by a
# reapply that must put every volatile limit back.
# STRESS_SEED=N repeats a run's random kill points; STRESS_DRIVES and
# STRESS_KILLS change the size of the run.
#
# The state lives in /dev/shm when it can: a kill -9 loses nothing a tmpfs
# keeps (the page cache outlives the process), and the fsyncs of 256 disks'
# journal records and state files on a real disk would cost minutes.

ST_N=${STRESS_DRIVES:-256}
ST_BATCH_RUNS=4
ST_KILLS_MIN=${STRESS_KILLS:-20}
ST_TWO_RUNS=3
seed=${STRESS_SEED:-$(date +%s)}
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	ST_DIR=$(mktemp -d /dev/shm/ss-stress.XXXXXX)
else
	ST_DIR="$TMP/stress"
	mkdir -p "$ST_DIR"
fi
export SHORTSTROKE_STATE_DIR="$ST_DIR/state"
RIG="$ST_DIR/fleet.json"
python3 - "$RIG" "$ST_N" <<'EOF'
import json, sys
n = int(sys.argv[2])
drives = []
for i in range(n):
    blocks = 195371568                      # 100 GB
    drives.append({"id": "d%03d" % i, "personality": "sata", "model": "WDC WD1000AAKS",
                   "serial": "WD-S%06d" % i, "firmware": "01.03B01", "blocks": blocks,
                   # each disk its own vendor HPA: the original to get back
                   "hpa": {"supported": True, "max": blocks - (i + 1) * 500000}})
json.dump({"time_scale": 1000, "drives": drives}, open(sys.argv[1], "w"))
EOF
FLEET="$PROG --rig $RIG"
ALL=$(python3 -c "print(' '.join('sim:d%03d' % i for i in range($ST_N)))")
HALF_A=$(python3 -c "print(' '.join('sim:d%03d' % i for i in range($ST_N // 2)))")
HALF_B=$(python3 -c "print(' '.join('sim:d%03d' % i for i in range($ST_N // 2, $ST_N)))")

sizes() { $FLEET list -J -o DEVICE,SIZE >"$1"; }
# differ ORIG NOW: how many disks' sizes in NOW differ from ORIG (a disk
# missing from NOW counts as differing)
differ() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
a = {d["device"]: d["size"] for d in json.load(open(sys.argv[1]))["drives"]}
b = {d["device"]: d["size"] for d in json.load(open(sys.argv[2]))["drives"]}
print(sum(1 for k in a if b.get(k) != a[k]))
EOF
}
ms() { date +%s%N | cut -c1-13; }
# rand_ms MAX: a random number of milliseconds in [0, MAX)
ST_RN=0
rand_ms() {
	ST_RN=$((ST_RN + 1))
	awk -v s="$seed" -v n="$ST_RN" -v m="$1" 'BEGIN { srand(s * 1000 + n); printf "%d", rand() * m }'
}
# kill_at MS CMD...: run CMD, kill -9 it after MS ms; counts kills that
# found it still running
ST_KILLS=0
ST_MISSED=0
kill_at() {
	t=$1
	shift
	"$@" >/dev/null 2>&1 &
	kpid=$!
	sleep "$(awk -v t="$t" 'BEGIN { printf "%.3f", t / 1000 }')"
	if kill -9 "$kpid" 2>/dev/null; then
		ST_KILLS=$((ST_KILLS + 1))
	else
		ST_MISSED=$((ST_MISSED + 1))
	fi
	wait "$kpid" 2>/dev/null
}
ST_LOST=0
ST_LIMITS=0
ST_BAD=""
# check WHAT: every original back
check_back() {
	sizes "$ST_DIR/now.json"
	l=$(differ "$ST_DIR/orig.json" "$ST_DIR/now.json")
	ST_LOST=$((ST_LOST + l))
	[ "$l" = 0 ] || ST_BAD="$ST_BAD
  $1: $l originals lost"
}

sizes "$ST_DIR/orig.json"
[ "$(python3 -c "import json; print(len(json.load(open('$ST_DIR/orig.json'))['drives']))")" = "$ST_N" ] &&
	pass "stress: $ST_N simulated disks with an HPA of their own" ||
	fail "stress: $ST_N simulated disks with an HPA of their own" "$(cat "$ST_DIR/orig.json")"

# --- parallel batches, no fault ----------------------------------------------------------
dur=0
r=0
while [ $r -lt $ST_BATCH_RUNS ]; do
	r=$((r + 1))
	t0=$(ms)
	run $FLEET limit --percent 30 --yes $ALL
	t1=$(ms)
	[ $((t1 - t0)) -gt $dur ] && dur=$((t1 - t0))
	[ "$RC" = 0 ] || ST_BAD="$ST_BAD
  batch run $r: limit exit $RC: $(printf '%s\n' "$ERR" | head -3)"
	sizes "$ST_DIR/now.json"
	l=$(differ "$ST_DIR/orig.json" "$ST_DIR/now.json")
	ST_LIMITS=$((ST_LIMITS + l))
	[ "$l" = "$ST_N" ] || ST_BAD="$ST_BAD
  batch run $r: $((ST_N - l)) disks not limited"
	$FLEET sim power-cycle $ALL >/dev/null
	run $FLEET restore --yes $ALL
	[ "$RC" = 0 ] || ST_BAD="$ST_BAD
  batch run $r: restore exit $RC: $(printf '%s\n' "$ERR" | head -3)"
	check_back "batch run $r"
	$FLEET sim power-cycle $ALL >/dev/null
done

# --- kill -9 at random points of the limit and restore batches ----------------------------
# the window: the longest batch above (at least 200 ms)
[ $dur -lt 200 ] && dur=200
k=0
while [ $ST_KILLS -lt $ST_KILLS_MIN ] && [ $k -lt $((ST_KILLS_MIN * 2)) ]; do
	k=$((k + 1))
	kill_at "$(rand_ms $dur)" $FLEET limit --percent 30 --yes $ALL
	$FLEET sim power-cycle $ALL >/dev/null
	kill_at "$(rand_ms $dur)" $FLEET restore --yes $ALL
	run $FLEET restore --yes $ALL
	[ "$RC" = 0 ] || ST_BAD="$ST_BAD
  kill run $k: restore after the kills exit $RC: $(printf '%s\n' "$ERR" | head -3)"
	check_back "kill run $k"
	$FLEET sim power-cycle $ALL >/dev/null
done
[ $ST_KILLS -ge $ST_KILLS_MIN ] && pass "stress: $ST_KILLS kill -9 landed in the middle of a batch" ||
	fail "stress: at least $ST_KILLS_MIN kill -9 in the middle of a batch" "$ST_KILLS landed, $ST_MISSED came too late"

# --- two processes, one state directory, the two halves of the rig --------------------------
# halves WHAT CMD...: CMD on each half of the rig, by two processes at once
halves() {
	what=$1
	shift
	"$@" $HALF_A >"$ST_DIR/a.out" 2>&1 &
	pa=$!
	"$@" $HALF_B >"$ST_DIR/b.out" 2>&1 &
	pb=$!
	wait $pa
	ra=$?
	wait $pb
	rb=$?
	[ "$ra$rb" = 00 ] || ST_BAD="$ST_BAD
  two-process run $r: $what exits $ra and $rb: $(head -2 "$ST_DIR/a.out" "$ST_DIR/b.out")"
}
r=0
while [ $r -lt $ST_TWO_RUNS ]; do
	r=$((r + 1))
	halves limit $FLEET limit --percent 30 --yes
	sizes "$ST_DIR/now.json"
	l=$(differ "$ST_DIR/orig.json" "$ST_DIR/now.json")
	ST_LIMITS=$((ST_LIMITS + l))
	[ "$l" = "$ST_N" ] || ST_BAD="$ST_BAD
  two-process run $r: $((ST_N - l)) of $ST_N limits undone"
	$FLEET sim power-cycle $ALL >/dev/null
	halves restore $FLEET restore --yes
	check_back "two-process run $r"
	$FLEET sim power-cycle $ALL >/dev/null
done

# --- what is left behind ------------------------------------------------------------------------
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
two=$(grep -c '}{' "$J")
lines=$(wc -l <"$J")
tmps=$(ls "$SHORTSTROKE_STATE_DIR"/sim/fleet-* | grep -c '\.json\.tmp\.')
echo "# stress (seed $seed): $ST_N disks; $ST_BATCH_RUNS batch runs, $k kill runs" \
	"($ST_KILLS kills mid-batch, $ST_MISSED too late), $ST_TWO_RUNS two-process runs;" \
	"$ST_LIMITS limits checked, $lines journal lines, $two with two records;" \
	"$tmps temp files left; lost=$ST_LOST"
[ "$ST_LOST" = 0 ] && [ -z "$ST_BAD" ] && pass "stress: every original back after every run (lost=0)" ||
	fail "stress: every original back after every run (lost=$ST_LOST)" "$ST_BAD"
[ "$two" = 0 ] && pass "stress: one record per journal line" ||
	fail "stress: one record per journal line" "$two lines hold two records"
[ "$tmps" = 0 ] && pass "stress: no temporary state files left after the kills" ||
	fail "stress: no temporary state files left after the kills" \
		"$(ls "$SHORTSTROKE_STATE_DIR"/sim/fleet-* | grep '\.json\.tmp\.')"

# --- kill -9 at random points of reapply ---------------------------------------------------------
# A rig of its own (RA_N disks, their state beside the fleet's): volatile limits, a power cycle,
# a reapply killed at a random point of its run, then a reapply: every disk must be at its limit
# again, and the reapply after the kill must exit 0 (whatever the killed one left in the journal:
# a lapsed close, a "limit" without its "limit-done"). Half the kills at a random time of the
# run, half right after a random one of the records it writes (most of the run reads the disks;
# the records are where a kill can cut). STRESS_REAPPLY_KILLS changes the count.
RA_N=12
RA_KILLS_MIN=${STRESS_REAPPLY_KILLS:-50}
RA_RIG="$ST_DIR/boot.json"
python3 - "$RA_RIG" "$RA_N" <<'EOF2'
import json, sys
json.dump({"time_scale": 1000, "drives": [
    {"id": "b%02d" % i, "personality": "sata", "model": "WDC WD1000AAKS", "serial": "WD-B%06d" % i,
     "firmware": "01.03B01", "blocks": 195371568, "hpa": True} for i in range(int(sys.argv[2]))]},
    open(sys.argv[1], "w"))
EOF2
BOOT="$PROG --rig $RA_RIG"
RA_ALL=$(python3 -c "print(' '.join('sim:b%02d' % i for i in range($RA_N)))")
ra_t0=$(ms)
run $BOOT limit --volatile --percent 30 --yes $RA_ALL
[ "$RC" = 0 ] || fail "stress: reapply: volatile limits of $RA_N disks" "$ERR"
# ra_lost: how many disks do not have the size they had after the limit (list, no python: it
# runs after every kill)
$BOOT list -n -o DEVICE,SIZE >"$ST_DIR/ra-limits.txt"
ra_lost() {
	$BOOT list -n -o DEVICE,SIZE 2>/dev/null >"$ST_DIR/ra-now.txt"
	diff "$ST_DIR/ra-limits.txt" "$ST_DIR/ra-now.txt" | grep -c '^<'
}
$BOOT sim power-cycle $RA_ALL >/dev/null
t0=$(ms)
run $BOOT reapply
radur=$(($(ms) - t0))
[ "$RC" = 0 ] && [ "$(ra_lost)" = 0 ] || fail "stress: reapply: a whole run first" "exit $RC: $ERR"
ST_KILLS=0 # kill_at's counts, for these kills
ST_MISSED=0
RA_FAILED=0
RA_LOST=0
RA_BAD=""
k=0
while [ $ST_KILLS -lt $RA_KILLS_MIN ] && [ $k -lt $((RA_KILLS_MIN * 2)) ]; do
	k=$((k + 1))
	$BOOT sim power-cycle $RA_ALL >/dev/null
	if [ $((k % 2)) = 1 ]; then
		at="ms $(rand_ms $radur)"
	else
		at="records $((1 + $(rand_ms $((3 * RA_N)))))"
		at="$at $SHORTSTROKE_STATE_DIR/journal.jsonl"
	fi
	case $(python3 "$HERE/killat.py" $at -- $BOOT reapply) in
	killed) ST_KILLS=$((ST_KILLS + 1)) ;;
	*) ST_MISSED=$((ST_MISSED + 1)) ;;
	esac
	run $BOOT reapply
	if [ "$RC" != 0 ]; then
		RA_FAILED=$((RA_FAILED + 1))
		RA_BAD="$RA_BAD
  kill $k: the reapply after it exited $RC: $(printf '%s\n' "$OUT" "$ERR" | grep -v ': re-applied: \|: limit in place: ' | head -3)"
	fi
	l=$(ra_lost)
	RA_LOST=$((RA_LOST + l))
	[ "$l" = 0 ] || RA_BAD="$RA_BAD
  kill $k: $l disks not at their limit"
done
echo "# stress: reapply of $RA_N disks killed at random points (0-$radur ms, or after one of its" \
	"records): $ST_KILLS kills tried" \
	"($ST_MISSED came too late), $RA_FAILED reapplies after them failed, $RA_LOST limits lost;" \
	"$(($(ms) - ra_t0)) ms"
[ $ST_KILLS -ge $RA_KILLS_MIN ] && pass "stress: $ST_KILLS kill -9 landed in the middle of a reapply" ||
	fail "stress: at least $RA_KILLS_MIN kill -9 in the middle of a reapply" "$ST_KILLS landed, $ST_MISSED came too late"
[ $RA_FAILED = 0 ] && [ $RA_LOST = 0 ] && pass "stress: after every killed reapply, a reapply puts every limit back (exit 0)" ||
	fail "stress: after every killed reapply, a reapply puts every limit back (failed=$RA_FAILED lost=$RA_LOST)" "$RA_BAD"
rm -rf "$ST_DIR"
