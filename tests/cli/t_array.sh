# Simulated md arrays (docs/simulator.md, "Arrays"): bench and profile on
# sim:md:NAME, its JSON, the write safety of its members, every other command
# refusing it (exit 2), and rig errors in the "arrays" section (exit 2, the
# line and the field).

ARIG="$TMP/arrays.json"
python3 - "$ARIG" <<'EOF'
import json, sys
drives = [{"id": "d%d" % i, "personality": "sas", "vendor": "HITACHI",
           "model": "HUS154545VLS300", "serial": "ARR%04d" % i, "firmware": "SA07",
           "wwn": "5000cca00b3c2f%02x" % i, "blocks": 879097968, "rpm": 15000,
           "media": {"avg_seek_ms": 3.3, "track_to_track_ms": 0.4, "full_stroke_ms": 6.5,
                     "outer_mbps": 157, "inner_mbps": 98}} for i in range(6)]
arrays = [
    {"name": "r0", "level": 0, "members": ["d0", "d1", "d2", "d3"]},
    {"name": "r5", "level": 5, "members": ["d0", "d1", "d2", "d3"], "chunk_kib": 256},
    {"name": "r10", "level": "raid10", "members": ["d0", "d1", "d2", "d3"], "layout": "near"},
    {"name": "r50", "level": 50, "groups": 2, "members": ["d0", "d1", "d2", "d3", "d4", "d5"],
     "path": {"read_mbps": 300, "write_mbps": 200},
     "controller": {"latency_us": 100, "per_member_us": 10}},
]
json.dump({"time_scale": 0, "drives": drives, "arrays": arrays}, open(sys.argv[1], "w"), indent=1)
EOF
A="$PROG --rig $ARIG"

# --- bench: the table and the JSON ---------------------------------------------------
run $A bench -w seq-read --qd 1,4 --time 1s sim:md:r5
expect "array bench: table" 0 "^sim:md:r5 +seq-read +4 +1M "
printf '%s\n' "$OUT" | grep -q "^sim:md:r5: seq-read, 2 queue depths, 1s each (virtual time)$" &&
	pass "array bench: summary line" || fail "array bench: summary line" "$OUT"

run $A bench -w seq-read --bs 2M --qd 2 --time 1s -J sim:md:r0 sim:d0
expect "array bench -J" 0
json_check "array bench -J: the sim-array engine, in virtual time" \
	'd["results"][0]["engine"] == "sim-array" and d["results"][0]["virtual_time"] is True and d["results"][1]["engine"] == "sim"'
# md uses the smallest member's size in whole chunks: 879097968 blocks = 858494 chunks of 512 KiB
json_check "array bench -J: RAID 0 of 4 holds 4 members' whole chunks" \
	'd["results"][0]["capacity_blocks"] == 4 * (879097968 // 1024 * 1024)'
json_check "array bench: RAID 0 of 4 reads four drives' worth" \
	'3.8 < d["results"][0]["runs"][0]["mbps"] / d["results"][1]["runs"][0]["mbps"] < 4.1'
run $A bench -w seq-read --bs 2M --qd 2 --time 1s -J sim:md:r50
json_check "array bench: the path cap of 300 MB/s holds" \
	'290 < d["results"][0]["runs"][0]["mbps"] <= 300'
run $A bench -w random-access --qd 1,16 --time 2s -J sim:md:r10
json_check "array bench: RAID 10 random reads at QD 16 use both copies" \
	'd["results"][0]["runs"][1]["iops"] > 3 * d["results"][0]["runs"][0]["iops"]'
run $A bench -w seq-read --time 1s -J sim:md:r5 sim:md:r5
json_check "array bench: named twice, run once" 'len(d["results"]) == 1'

# --- writes: --destructive, and every member checked as a drive is ------------------------
run $A bench -w seq-write --time 1s sim:md:r5
expect "array bench write without --destructive" 2 "" "add --destructive"
run $A bench -w seq-write --destructive --yes --time 1s -J sim:md:r5
expect "array bench write" 0
json_check "array bench write: writes done" 'd["results"][0]["runs"][0]["writes"] > 0'
echo "ARR0002" >"$SHORTSTROKE_PROTECT_FILE"
run $A bench -w seq-write --destructive --yes --time 1s sim:md:r5
expect "array bench write: a protected member refuses it" 3 "" \
	"sim:md:r5: refused, its member sim:d2 is protected"
run $A bench -w seq-write --destructive --yes --time 1s sim:md:r0
expect "array bench write: so does it for another array" 3 "" "its member sim:d2 is protected"
run $A bench -w seq-write --destructive --yes --force --time 1s sim:md:r5
expect "array bench write: --force --yes overrides" 0
run $A bench -w seq-read --time 1s sim:md:r5
expect "array bench read: a protected member reads" 0
: >"$SHORTSTROKE_PROTECT_FILE"

# --- profile --------------------------------------------------------------------------
run $A profile --points 40 -J sim:md:r0
expect "array profile -J" 0
json_check "array profile: samples over the array" \
	'len(d["results"][0]["profile"]["samples"]) == 40'

# --- everything else refuses an array: exit 2, and why -----------------------------------
for cmd in "info" "smart" "zones" "limit --percent 20 --yes" "restore --yes" \
	"selftest --short" "qualify"; do
	run $A $cmd sim:md:r5
	expect "array refused: $cmd" 2 "" "sim:md:r5 is a simulated (RAID 5 )?array, not a drive"
done
run $A info sim:md:r5
expect "array refused: names the members" 2 "" \
	"only bench and profile run on it; the other commands take its members \(sim:d0 sim:d1 sim:d2 sim:d3\)"
run $A sim power-cycle sim:md:r5
expect "array refused: sim power-cycle" 2 "" "sim:md:r5 is a simulated array, not a drive"
run $A bench --time 1s sim:md:nope
expect "array: unknown name" 2 "" "sim:md:nope: no such array in the rig"
run "$PROG" --demo bench --time 1s sim:md:r5
expect "array: the demo rig has none" 2 "" "sim:md:r5: no such array in the rig"
run $A list -J
json_check "array: list shows the drives, not the arrays" \
	'len(d["drives"]) == 6 and all(x["device"].startswith("sim:d") for x in d["drives"])'

# --- rig errors in "arrays": exit 2, the line and the field ------------------------------
python3 - "$ARIG" "$TMP/bad1.json" "$TMP/bad2.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["arrays"] = [{"name": "x", "level": 5, "members": ["d0", "d9", "d1"]}]
json.dump(r, open(sys.argv[2], "w"), indent=1)
r["arrays"] = [{"name": "x", "level": 6, "members": ["d0", "d1", "d2"]}]
json.dump(r, open(sys.argv[3], "w"), indent=1)
EOF
run "$PROG" --rig "$TMP/bad1.json" list
expect "array rig: an unknown member" 2 "" \
	'bad1.json:[0-9]+: array "x": field "members\[1\]": no drive "d9" in the rig'
run "$PROG" --rig "$TMP/bad2.json" bench --time 1s sim:md:x
expect "array rig: too few members for the level" 2 "" \
	'bad2.json:[0-9]+: array "x": field "members": RAID 6 needs at least 4 members, it has 3'
