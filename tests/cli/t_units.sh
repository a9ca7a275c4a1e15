# Units that differ as real ones do: a 24-drive rig of one model with the
# model's spread (seek, rate, rotational speed, overhead; seeded by serial
# and the rig's seed), re-reads per zone, 8 surfaces, and one unit with a
# weak head. Over UNIT_SEEDS seeds (3 here; 20 for the issue's count, about
# half a minute), no healthy unit is an outlier and the weak one is
# flagged every time, by its siblings and by its profile's shape.

cat >"$TMP/genrig.py" <<'PY'
import json, sys
seed, weak = int(sys.argv[1]), int(sys.argv[2])
drives = []
for i in range(24):
    d = {"id": "d%02d" % i, "personality": "sas", "vendor": "SEAGATE", "model": "ST4000NM0023",
         "serial": "Z1Z%05d" % (1000 + i), "firmware": "0004", "wwn": "5000c5%010x" % (0x100000 + i),
         "blocks": 7814037168, "rpm": 7200, "smart": True, "heads": 8,
         "media": {"avg_seek_ms": 8.5, "track_to_track_ms": 0.5, "full_stroke_ms": 16,
                   "outer_mbps": 175, "inner_mbps": 85}}
    if i == weak:
        d["faults"] = ["weak-head:5"]
    drives.append(d)
print(json.dumps({"time_scale": 1000, "seed": seed,
                  "spread": {"seek_pct": 2, "rate_pct": 1.5, "rpm_pct": 0.1, "overhead_pct": 5},
                  "retries": {"outer_ppm": 20, "inner_ppm": 80}, "drives": drives}))
PY
cat >"$TMP/count.py" <<'PY'
import json, sys
weak = int(sys.argv[2]); d = json.load(open(sys.argv[1]))
fp = []
for i, x in enumerate(d["disks"]):
    c = x["checks"]
    if i == weak:
        print("weak", int(c["siblings"]["result"] == "FAIL"), int(c["zones"]["result"] == "FAIL"),
              x["zone_profile"]["dips"], round(x["siblings"]["slowdown_percent"], 1))
    elif x["verdict"] != "PASS":
        fp.append(x["device"])
print("healthy", len(fp), " ".join(fp))
PY
seeds=${UNIT_SEEDS:-3}
: >"$TMP/units.out"
for s in $(seq 1 "$seeds"); do
	w=$((s * 7 % 24))
	python3 "$TMP/genrig.py" "$s" "$w" >"$TMP/units.json"
	SHORTSTROKE_STATE_DIR="$TMP/units-state-$s" "$PROG" --rig "$TMP/units.json" qualify -J \
		$(for i in $(seq -w 0 23); do echo "sim:d$i"; done) >"$TMP/units-q.json"
	python3 "$TMP/count.py" "$TMP/units-q.json" "$w" >>"$TMP/units.out" 2>&1 ||
		echo "seed $s: no JSON from qualify" >>"$TMP/units.out"
done
sum=$(awk '$1 == "weak" { n++; s += $2; z += $3 } $1 == "healthy" { fp += $2 }
	END { printf "%d %d %d %d", n, s, z, fp }' "$TMP/units.out")
echo "# $seeds seeds: weak heads flagged by siblings, by profile shape; false outliers of $((seeds * 23)): $sum"
set -- $sum
[ "$1" = "$seeds" ] && [ "$2" = "$seeds" ] && pass "units: the weak head is flagged by its siblings every time ($2 of $seeds)" ||
	fail "units: the weak head is flagged by its siblings every time" "$(cat "$TMP/units.out")"
[ "$3" = "$seeds" ] && pass "units: the weak head is flagged by its profile's shape every time ($3 of $seeds)" ||
	fail "units: the weak head is flagged by its profile's shape every time" "$(cat "$TMP/units.out")"
[ "$4" = 0 ] && pass "units: no false outlier among $((seeds * 23)) healthy units" ||
	fail "units: no false outlier among healthy units" "$(cat "$TMP/units.out")"

# the units differ, the same serial is the same unit on every run
python3 "$TMP/genrig.py" 1 99 >"$TMP/units.json"
run "$PROG" --rig "$TMP/units.json" qualify -J sim:d00 sim:d01
json_check "units: siblings differ by a few percent" '(a := d["disks"][0]["zone_profile"]["outer_mbps"]) != (b := d["disks"][1]["zone_profile"]["outer_mbps"]) and abs(a - b) / a < 0.1'
o1=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["disks"][0]["zone_profile"]["outer_mbps"], d["disks"][0]["access"]["access_ms"])')
run "$PROG" --rig "$TMP/units.json" qualify -J sim:d00
o2=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["disks"][0]["zone_profile"]["outer_mbps"], d["disks"][0]["access"]["access_ms"])')
[ "$o1" = "$o2" ] && pass "units: the same unit on every run ($o1)" || fail "units: the same unit on every run" "$o1" "$o2"
run "$PROG" --rig "$TMP/units.json" qualify sim:d00 sim:d01 sim:d02
expect "units: the sibling check names the profile comparison" 0 "^  siblings +PASS +within 15% of the median of the 3 disks of this model"

# a bad weak-head spec is an error
run "$PROG" --rig "$TMP/units.json" sim fault sim:d00 weak-head:40
expect "units: weak-head on a surface past 31 is refused" 2 "" "the head is a number from 0 to 31"
