# plan: ranked layouts, one layout evaluated, --explain, the plan file and its check

run "$PROG" --demo plan sim:sas15k --disks 4 --model-of sim:sas15k --level 10 --capacity 200G
expect "plan: RAID 10 of four 15K450s for 200 GiB" 0 \
	"^ +1 10 +4 +2 +[0-9]+ +23\.9 +215 GB" "1 layout meets the goals"
expect "plan: a simulated drive's mechanics come from the rig, the rest by class" 0 "" \
	"note: capacity and rpm from the drive, its seek times, transfer rates, command overhead, queue depth and write cache from the rig; MTTF and URE rate are defaults for its class: sim:sas15k$"
expect "plan: says the extra disks are copies" 0 "" "3 of the 4 disks are copies of sim:sas15k"

# a plan never holds a disk apply would refuse: left out, saying which and why (issue 25.3);
# the demo rig's sim:sata320 is security-frozen
run "$PROG" --demo plan sim:sas15k sim:sata250 sim:sata320 sim:sata-hpa --tolerate 1 -O "$TMP/frozen.json"
expect "plan: a security-frozen disk is left out, saying why" 0 "" \
	"^note: left out, 'apply' would refuse it \(the drive is security-frozen.*\): sim:sata320$"
python3 -c "import json,sys; d=[x['device'] for x in json.load(open(sys.argv[1]))['disks']]; assert 'sim:sata320' not in d, d" "$TMP/frozen.json" \
	&& pass "plan -O: the frozen disk is not in the plan file" || fail "plan -O: the frozen disk is not in the plan file" "$(cat "$TMP/frozen.json")"
# notes: once per distinct note, with the disks they concern (not two lines per disk)
[ "$(printf '%s\n' "$ERR" | grep -c '^note: capacity and rpm from the drive')" = 1 ] &&
	printf '%s\n' "$ERR" | grep -q "from the rig; MTTF and URE rate are defaults for its class: sim:sas15k, sim:sata250, sim:sata-hpa$" \
	&& pass "plan: one note for the disks whose mechanics come from the rig, naming them" \
	|| fail "plan: one note for the disks whose mechanics come from the rig" "$ERR"
[ "$(printf '%s\n' "$ERR" | grep -c '^note:')" -le 5 ] && pass "plan: 5 notes at most for 4 disks" \
	|| fail "plan: 5 notes at most for 4 disks" "$ERR"
# (sim:sata-hpa carries a vendor's HPA: planned on what it has now, which apply can use)
expect "plan: a disk limited by another tool is planned on what it has now" 0 "" \
	"^note: limited by another than shortstroke \(nothing journaled\): the plan uses what it has now.*: sim:sata-hpa \(488386584 of 976773168 blocks\)$"
run "$PROG" --demo apply "$TMP/frozen.json" --name fz --dry-run
printf '%s\n%s\n' "$OUT" "$ERR" | grep -q "sata320\|frozen\|fewer than the plan" && fail "apply --dry-run of that plan: no member refused" "$OUT" "$ERR" \
	|| pass "apply --dry-run of that plan: no member refused"
run "$PROG" --demo plan sim:sata320 --level 0 --stroke 50%
expect "plan: every disk named left out: refused (exit 3), the note says why" 3 "" \
	"every disk named is one 'apply' would refuse now"
# protected, in use, another rpm class than asked (--rpm with DEVICEs: the class asked)
printf 'serial:STF607MS2A4K7P\n' >"$SHORTSTROKE_PROTECT_FILE"
run "$PROG" --demo plan sim:sas15k sim:sata250 sim:sata-hpa --level 1 --stroke 50%
expect "plan: a protected disk is left out" 0 "" "^note: left out, 'apply' would refuse it \(refused, the disk is protected.*: sim:sata250$"
: >"$SHORTSTROKE_PROTECT_FILE"
run "$PROG" --demo plan --rpm 7200 sim:sas15k sim:sata250 sim:sata-hpa --level 1 --stroke 50%
expect "plan --rpm with DEVICEs: a disk of another class is left out" 0 "^ +1 1 +2 " \
	"^note: left out, 'apply' would refuse it \(a 15000 rpm disk, not of the 7200 rpm class asked\): sim:sas15k$"
run "$PROG" --demo plan --rpm 7200 --model-of sim:sas15k --disks 4 --level 10 --stroke 50%
expect "plan --rpm with --model-of: one or the other" 2 "" "--rpm with --model-of"

run "$PROG" --demo plan sim:sas15k --disks 4 --model-of sim:sas15k --level 10 --capacity 200G -J
expect "plan -J" 0
json_check "plan -J: root key plans, numbers as numbers" \
	"d['plans'][0]['level'] == '10' and d['plans'][0]['disks'] == 4 and \
	 isinstance(d['plans'][0]['capacity'], int) and isinstance(d['plans'][0]['iops'], float) and \
	 d['plans'][0]['capacity'] >= 200 * 2**30"
json_check "plan -J: every default column, notes and the message" \
	"set(d['plans'][0]) == {'rank','level','disks','groups','chunk','stroke','capacity', \
	 'seq-read','seq-write','iops','iops-qd1','access','tolerates','rebuild','mttdl','ure', \
	 'risk','warnings'} and len(d['notes']) >= 2 and d['unmet'] == [] and 'meets' in d['message'] and \
	 d['plans'][0]['risk'] in ('low', 'medium', 'high') and d['reason'].startswith('RAID 10 on 4 disks is first')"

# the datasheet calibration case: a 15K450 at full stroke, QD 1, about 6 ms
run "$PROG" --demo plan sim:sas15k --level 0 --stroke 100% --explain
expect "plan --explain: the 15K450 calibration (access near 6 ms)" 0 \
	"average access time: (5\.[5-9]|6\.[0-4])[0-9]* ms"
expect "plan --explain: formula, source and inputs" 0 "formula: .*sqrt"
expect "plan --explain: sources named" 0 "source: +Ruemmler & Wilkes"
expect "plan --explain: inputs listed" 0 "inputs: radial stroke f = 1"
expect "plan --explain: warnings section" 0 "^Warnings:"
run "$PROG" --demo plan sim:sas15k --level 0 --stroke 100% -J --explain
json_check "plan -J --explain: figures with formulas and inputs" \
	"[f for f in d['explain']['figures'] if f['key'] == 'access_time'][0]['value'] > 5.4 and \
	 [f for f in d['explain']['figures'] if f['key'] == 'access_time'][0]['value'] < 6.5 and \
	 all(f['formula'] and f['source'] for f in d['explain']['figures'] if f['value'] is not None)"

# shorter strokes are faster
run "$PROG" --demo plan sim:sas15k --level 0 --stroke 10% -o ACCESS -n -r
acc10=$OUT
run "$PROG" --demo plan sim:sas15k --level 0 --stroke 100% -o ACCESS -n -r
if awk -v a="$acc10" -v b="$OUT" 'BEGIN { exit !(a < b) }'; then
	pass "plan: a 10% stroke accesses faster than full stroke ($acc10 < $OUT ms)"
else
	fail "plan: a 10% stroke accesses faster than full stroke" "$acc10 vs $OUT"
fi

# goals met, several layouts ranked; impossible goals name the goal
run "$PROG" --demo plan sim:sas15k sim:sata250 sim:sata320 --capacity 200G --tolerate 1
expect "plan: goals met, ranked" 0 "^ +1 " "layouts? meets? the goals"
run "$PROG" --demo plan sim:sas15k sim:sata250 sim:sata320 --capacity 20T
expect "plan: impossible capacity exits 1 and names the goal" 1 "SHORTFALL" \
	"no layout reaches the capacity goal of 21.99 TB: at most"
run "$PROG" --demo plan sim:sas15k sim:sata250 --tolerate 3 -J
expect "plan: impossible failure goal exits 1" 1
json_check "plan -J, goals unmet: plans empty, closest listed, goal named" \
	"d['plans'] == [] and len(d['closest']) >= 1 and d['unmet'] == ['failures'] and \
	 'tolerates 3 failures' in d['message']"
run "$PROG" --demo plan sim:sas15k --level 0 --stroke 50% --capacity 1T
expect "plan: one layout that misses a goal exits 1" 1 "" "does not meet the goal: capacity"

# without disks: datasheet defaults, said so
run "$PROG" plan --disks 6 --rpm 10000 --disk-size 300GB --level 6 --iops 500
expect "plan --disks N alone: defaults, said so" 0 "^ +1 6 " "no disks named: 6 datasheet-style disks of 300 GB, 10000 rpm"

# the plan file: write, check, JSON check
run "$PROG" --demo plan sim:sas15k --disks 4 --model-of sim:sas15k --level 10 --capacity 200G \
	--output-plan "$TMP/plan.json"
expect "plan --output-plan" 0 "" "plan written to"
OUT=$(cat "$TMP/plan.json")
json_check "plan file: format, disks, layout, limit 1 MiB aligned" \
	"d['format'] == 'shortstroke-plan' and d['version'] == 1 and len(d['disks']) == 4 and \
	 d['disks'][0]['device'] == 'sim:sas15k' and d['disks'][0]['serial'] and \
	 d['disks'][1]['placeholder'] and d['layout']['level'] == '10' and \
	 d['layout']['limit_bytes'] % 2**20 == 0 and \
	 d['disks'][0]['limit_blocks'] * 512 == d['layout']['limit_bytes'] and \
	 d['layout']['limit_bytes'] <= d['layout']['stroke'] * 879097968 * 512 and \
	 d['workload']['profile'] == 'database' and d['goals']['capacity_bytes'] == 200 * 2**30 and \
	 d['predicted']['access_time'] > 0"
if ls "$TMP" | grep -q 'plan.json.tmp'; then fail "plan file: no temp file left" "$(ls "$TMP")"; else pass "plan file: no temp file left"; fi
run "$PROG" plan --check "$TMP/plan.json"
expect "plan --check: valid, re-evaluated" 0 "^Layout: +RAID 10 on 4 disks"
printf '%s\n' "$OUT" | tail -n 1 | grep -q "valid; the figures match the plan's$" &&
	! printf '%s\n' "$ERR" | grep -q "valid;" && pass "plan --check: the verdict on stdout, last (issue 25.6)" ||
	fail "plan --check: the verdict on stdout, last" "stdout: $OUT" "stderr: $ERR"
expect "plan --check: the table" 0 "^ +1 10 +4 "
run "$PROG" plan --check "$TMP/plan.json" -J --explain
json_check "plan --check -J" \
	"d['valid'] and d['plan']['layout']['level'] == '10' and d['differences'] == [] and \
	 len(d['plans']) == 1 and 'figures' in d['explain']"
run "$PROG" --demo plan sim:sas15k --level 0 --stroke 25% -O "$TMP/one.json" -J
expect "plan -O with one evaluated layout" 0
run "$PROG" plan --check "$TMP/one.json" -o LEVEL,STROKE,LIMIT -r -n -b
expect "plan --check of an evaluated layout" 0 "^0 25\.0 112523739136$"

# malformed plan files: one clear line naming the field, exit 2
sed 's/"stroke": [0-9.e-]*/"stroke": 1.5/' "$TMP/plan.json" >"$TMP/bad1.json"
run "$PROG" plan --check "$TMP/bad1.json"
expect "plan --check: bad stroke names the field" 2 "" "bad1.json: layout.stroke: expected a number in \(0, 1\], got 1.5"
sed 's/"limit_blocks": [0-9]*/"limit_blocks": 12345/' "$TMP/plan.json" >"$TMP/bad2.json"
run "$PROG" plan --check "$TMP/bad2.json"
expect "plan --check: limits that disagree" 2 "" "disks\[0\].limit_blocks: 12345 does not match"
printf '{ "format": "shortstroke-plan", "version": 1, ' >"$TMP/bad3.json"
run "$PROG" plan --check "$TMP/bad3.json"
expect "plan --check: truncated JSON" 2 "" "bad3.json: not valid JSON at line 1"
printf '{ "format": "other" }' >"$TMP/bad4.json"
run "$PROG" plan --check "$TMP/bad4.json"
expect "plan --check: not a plan" 2 "" "not a shortstroke plan"
run "$PROG" plan --check "$TMP/missing.json"
expect "plan --check: missing file" 2 "" "cannot open the plan"
if [ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ]; then pass "plan --check: one line"; else fail "plan --check: one line" "$ERR"; fi

# bad input: one clear line, exit 2
run "$PROG" --demo plan sim:sas15k --disks 4 --level 7
expect "plan: unknown level" 2 "" "unknown RAID level \"7\""
run "$PROG" plan --disks 4 --workload olap
expect "plan: unknown workload" 2 "" "unknown workload 'olap'"
run "$PROG" plan --disks 0
expect "plan: --disks 0" 2 "" "--disks: expected a whole number 1 .."
run "$PROG" plan --disks 4 --capacity 0
expect "plan: zero capacity" 2 "" "--capacity: invalid size '0'"
run "$PROG" plan --disks 4 --capacity -2T
expect "plan: negative capacity" 2 "" "--capacity: invalid size '-2T'"
run "$PROG" plan --disks 4 --disk-size 0
expect "plan: zero disk size" 2 "" "--disk-size: invalid size"
run "$PROG" plan --disks 4 --iops -5
expect "plan: negative IOPS" 2 "" "--iops: expected a number greater than 0"
run "$PROG" --demo plan sim:sas15k sim:sata250 --level 10
expect "plan: a level that needs more disks" 2 "" "RAID 10 needs at least 4 disks; 2 are given"
run "$PROG" plan --disks 3 --level 6 --stroke 50%
expect "plan: one layout, too few disks" 2 "" "RAID 6 needs at least 4 disks; 3 are given"
run "$PROG" plan --disks 4 --stroke 0%
expect "plan: a 0% stroke" 2 "" "--stroke: expected a percent"
run "$PROG" plan --disks 4 --stroke 25%
expect "plan: --stroke without --level" 2 "" "give one --level"
run "$PROG" plan --disks 4 --chunk 3K
expect "plan: chunk not a power of two" 2 "" "--chunk: a chunk is a power of two"
run "$PROG" plan
expect "plan: nothing to plan with" 2 "" "name the disks \(DEVICE...\) or give --disks N"
run "$PROG" --demo plan sim:nope
expect "plan: unknown device" 2 "" "sim:nope"
run "$PROG" --demo plan sim:sas15k sim:sas15k
expect "plan: a disk named twice" 2 "" "named twice"
run "$PROG" --demo plan sim:sas15k sim:sata250 --disks 1
expect "plan: fewer --disks than devices" 2 "" "--disks 1 but 2 devices named"
run "$PROG" plan --disks 4 --bogus
expect "plan: unknown option" 2 "" "unknown option '--bogus'"
run "$PROG" plan --check "$TMP/plan.json" --capacity 1T
expect "plan --check takes no goals" 2 "" "--check FILE takes only"
run "$PROG" plan --disks 4 -o RANK,BOGUS
expect "plan: unknown column" 2 "" "unknown column: BOGUS"

# defaults an engineer would sign: one failure tolerated unless asked otherwise, the risk
# band ranked first, and --explain says why the first is first
run "$PROG" plan --disks 60 --rpm 10000 --disk-size 2.4TB --capacity 40TB --explain
expect "plan: no --tolerate: one failure, said so" 0 "" \
	"no --tolerate: layouts survive one failed disk"
expect "plan: 60 x 2.4 TB 10k, 40 TB: the first layout is low risk and tolerates a failure" 0 \
	"^ +1 6 +19 .* low "
expect "plan --explain: why the first is first" 0 \
	"^Why: RAID 6 on 19 disks is first: .*lowest risk band \(low\).*RAID 5 on 18 disks meets the goals with fewer disks but in the high risk band"
expect "plan --explain: the queue's positioning with its inputs" 0 \
	"positioning at the workload's queue: [0-9.]+ ms" "" 
expect "plan --explain: SPTF named and sourced" 0 "Worthington, Ganger & Patt 1994"
expect "plan --explain: the risk band with its sources" 0 "source: +HPE \(RAID 5 over 14: medium\), NetApp"
run "$PROG" plan --disks 60 --rpm 10000 --disk-size 2.4TB --capacity 40TB --tolerate 0 -o RANK,LEVEL,DISKS,RISK -r
expect "plan --tolerate 0: RAID 0 allowed but its risk ranks it after the safe layouts" 0 \
	"^1 6 19 low$"
run "$PROG" plan --disks 60 --rpm 10000 --disk-size 2.4TB --capacity 40TB --level 0 -o LEVEL,DISKS,RISK,MTTDL -r
expect "plan --level 0: RAID 0 on 17 disks, high risk (MTTDL 7 years)" 0 "^0 17 high 7$"
run "$PROG" plan --disks 8 --level 5 --stroke 100% --disk-size 2TB -o LEVEL,RISK,WARNINGS -r
expect "plan: RAID 5 of 8: no width warning (HPE: more than 14), high risk by its URE" 0 "^5 high ure-likely$"

# command queuing: beyond the disks' queue depth (--mech queue=) nothing more comes
run "$PROG" plan --disks 1 --rpm 15000 --level 0 --stroke 100% --workload random-access --qd 32 \
	--mech queue=32 -o IOPS -r -n
q32=$OUT
run "$PROG" plan --disks 1 --rpm 15000 --level 0 --stroke 100% --workload random-access --qd 64 \
	--mech queue=32 -o IOPS -r -n
q64=$OUT
run "$PROG" plan --disks 1 --rpm 15000 --level 0 --stroke 100% --workload random-access --qd 64 \
	-o IOPS -r -n
q64d=$OUT
if [ -n "$q32" ] && [ "$q32" = "$q64" ] && awk -v a="$q64" -v b="$q64d" 'BEGIN { exit !(b > a) }'; then
	pass "plan: queue depth 64 on a disk that queues 32 = QD 32 ($q32); 64 queued: $q64d"
else
	fail "plan: flat beyond the disk's queue depth" "qd32 $q32, qd64 $q64, qd64 with 64 queued $q64d"
fi
run "$PROG" plan --disks 1 --rpm 15000 --level 0 --stroke 10% --workload random-access --qd 16 \
	--mech t2t=0.4,avg=3.3,full=6.5,outer=157,inner=98,overhead=0.07 -o QUEUE-POS,ACCESS -r
expect "plan --mech: the mechanics given, SPTF at QD 16 on a 10 % stroke" 0 "^[01]\.[0-9]+ 3\.[0-9]+$"
run "$PROG" plan --disks 1 --level 0 --stroke 50% --mech avg=3.3,queue=0
expect "plan --mech: a bad queue depth" 2 "" "--mech: queue: expected the commands the disk queues"
run "$PROG" plan --disks 1 --level 0 --stroke 50% --mech speed=3
expect "plan --mech: an unknown key" 2 "" "--mech: unknown key 'speed'"

# custom workloads and the path
run "$PROG" plan --disks 8 --rpm 7200 --level 10 --stroke 50% --workload custom:bs=64K,read=0,random=1 --explain
expect "plan --workload custom: one size" 0 "^Workload: custom: 65.5 kB, 0 % reads, 100 % random, queue depth 16"
run "$PROG" plan --disks 8 --rpm 7200 --level 10 --stroke 50% --workload 'custom:bs=4K:60/64K:40,read=70%' -o IOPS -r
expect "plan --workload custom: a mix of sizes" 0 "^[0-9.]+$"
run "$PROG" plan --disks 8 --workload custom:read=0.5
expect "plan --workload custom without a size" 2 "" "give the request size, bs=SIZE"
run "$PROG" plan --disks 8 --workload custom:bs=64K,read=2
expect "plan --workload custom: a share above 1" 2 "" "read: expected a share"
run "$PROG" plan --disks 8 --rpm 7200 --level 0 --stroke 100% --workload seq-write \
	--controller-mbps 1200/300 -o SEQ-READ,SEQ-WRITE,WARNINGS -r
expect "plan: a controller whose writes saturate lower than its reads" 0 "^1200 300 cap-controller"
run "$PROG" plan --disks 4 --rpm 15000 --level 0 --stroke 100% --workload random-access --qd 1 \
	-o ACCESS -r -n
a0=$OUT
run "$PROG" plan --disks 4 --rpm 15000 --level 0 --stroke 100% --workload random-access --qd 1 \
	--controller-latency 0.1+0.05 -o ACCESS -r -n
if awk -v a="$a0" -v b="$OUT" 'BEGIN { d = b - a; exit !(d > 0.299 && d < 0.301) }'; then
	pass "plan --controller-latency 0.1+0.05 on 4 disks adds 0.3 ms ($a0 -> $OUT)"
else
	fail "plan --controller-latency 0.1+0.05 on 4 disks adds 0.3 ms" "$a0 -> $OUT"
fi
run "$PROG" plan --disks 4 --rpm 15000 --level 5 --stroke 100% --controller-cache 1G@1500 \
	--controller-mbps 2000/1000 --explain
expect "plan --controller-cache: the write burst" 0 "write burst into the controller cache: 1000\.0 MB/s"
run "$PROG" plan --disks 4 --controller-cache 12
expect "plan --controller-cache: a size needs a unit" 2 "" "--controller-cache: '12': expected a cache size"
run "$PROG" plan --disks 4 --controller-latency 2ms
expect "plan --controller-latency: bad value" 2 "" "--controller-latency: '2ms'"

# degraded and rebuilding arrays: RAID 5, 50 and 10 compared
for lv in "5 --disks 8" "50 --disks 8" "10 --disks 8"; do
	# shellcheck disable=SC2086 # the words
	run "$PROG" plan --rpm 15000 --level $lv --stroke 50% -o LEVEL,IOPS,DEGRADED,REBUILD-IOPS,REBUILD-LOAD -r -n
	set -- $OUT
	if [ "$#" = 5 ] && awk -v h="$2" -v d="$3" -v r="$4" 'BEGIN { exit !(d < h && r < d && r > 0) }'; then
		pass "plan: RAID $1 degraded ($3) and rebuilding ($4) below healthy ($2); rebuild under load $5 h"
	else
		fail "plan: RAID $lv degraded and rebuilding below healthy" "$OUT"
	fi
done
run "$PROG" plan --disks 6 --rpm 15000 --level 6 --stroke 50% -o DEGRADED,DEGRADED2 -r -n
set -- $OUT
if awk -v a="$1" -v b="$2" 'BEGIN { exit !(b < a) }'; then pass "plan: RAID 6 with two lost below one lost"; else fail "plan: RAID 6 with two lost" "$OUT"; fi

# an old plan file (no libraidplan 2.1 fields) still loads
cat >"$TMP/old.json" <<'EOF2'
{ "format": "shortstroke-plan", "version": 1, "created": "2024-05-01T12:00:00Z",
  "generator": "shortstroke 0.1.0, libraidplan 2.0.0",
  "disks": [ { "device": "sim:sas15k", "placeholder": false, "model_of": null, "serial": "JWV2S8KC",
      "wwn": "5000cca00b3c1f20", "model": "HUS154545VLS300", "capacity_blocks": 879097968,
      "block_size": 512, "limit_blocks": 219772928, "rpm": 15000 } ],
  "layout": { "level": "0", "copies": 0, "groups": 0, "chunk_bytes": 524288, "stroke": 0.25,
      "limit_bytes": 112523739136, "rebuild_mbps": 204.8, "replace_hours": 24 },
  "workload": { "profile": "database", "read_share": 0.67, "random_share": 1,
      "request_bytes": 8192, "sizes": [], "queue_depth": 16 },
  "path": { "controller_mbps": 0, "bus_mbps": 0 },
  "predicted": { "usable_capacity": 112523739136 } }
EOF2
run "$PROG" plan --check "$TMP/old.json" -o LEVEL,STROKE -r
expect "plan --check: a plan file of libraidplan 2.0 still loads" 0 "^0 25\.0$"
run "$PROG" --demo plan sim:sas15k sim:sata250 --level 0 --stroke 20% --mech queue=16,wcache=on \
	--controller-mbps 900/400 --controller-latency 0.05+0.01 --workload custom:bs=16K,read=0.5 \
	-O "$TMP/new.json" -J
expect "plan -O with the new inputs" 0
OUT=$(cat "$TMP/new.json")
json_check "plan file: the new inputs written" \
	"d['disks'][0]['queue_depth'] == 16 and d['disks'][0]['write_cache'] == 'on' and \
	 d['path']['controller_write_mbps'] == 400 and d['path']['latency_per_disk_ms'] == 0.01 and \
	 d['workload']['profile'] is None and d['workload']['request_bytes'] == 16384"
run "$PROG" plan --check "$TMP/new.json"
expect "plan --check: the new inputs read back, the figures match" 0 "valid; the figures match"
sed 's/"write_cache": "on"/"write_cache": "maybe"/' "$TMP/new.json" >"$TMP/bad5.json"
run "$PROG" plan --check "$TMP/bad5.json"
expect "plan --check: a bad write_cache" 2 "" "disks\[0\].write_cache: expected \"on\" or \"off\""

# help and columns
run "$PROG" plan --help
expect "plan --help: examples" 0 "Examples:"
expect "plan --help: the goals" 0 "--capacity SIZE"
expect "plan --help: the new options" 0 "--mech KEY=V" "" 
expect "plan --help: custom workloads" 0 "custom:bs=SIZE"
expect "plan --help: path options" 0 "--controller-latency MS"
run "$PROG" plan --list-columns
expect "plan --list-columns" 0 "MTTDL +mean time to data loss, years"
run "$PROG" plan --disks 4 --level 5 --capacity 1T -o +LIMIT,RADIAL,SEEK
expect "plan -o +COLUMNS" 0 "WARNINGS +LIMIT +RADIAL +SEEK"

# the controller (issue 28.2): md the default, hw-raid's figures from measurements, each given
# instead by the --controller-* options; a plan file keeps the controller
run "$PROG" plan --disks 6 --rpm 7200 --level 5 --stroke 100% --workload seq-write -o SEQ-READ,SEQ-WRITE -r -n
md_out=$OUT
run "$PROG" plan --disks 6 --rpm 7200 --level 5 --stroke 100% --workload seq-write --controller hba -o SEQ-READ,SEQ-WRITE -r -n
if [ "$OUT" = "$md_out" ]; then pass "plan --controller hba: as md"; else fail "plan --controller hba: as md" "$md_out / $OUT"; fi
run "$PROG" plan --disks 6 --rpm 7200 --level 5 --stroke 100% --workload seq-write --controller hw-raid -o SEQ-READ,SEQ-WRITE -r -n
if awk -v a="$md_out" -v b="$OUT" 'BEGIN { split(a, x, " "); split(b, y, " "); exit !(y[1] < x[1] && y[2] < y[1] / 3) }'; then
	pass "plan --controller hw-raid: members stream slower, parity writes read-modify-write ($md_out -> $OUT)"
else
	fail "plan --controller hw-raid: members stream slower, parity writes read-modify-write" "$md_out -> $OUT"
fi
run "$PROG" plan --disks 6 --rpm 7200 --level 5 --stroke 100% --workload seq-write --controller hw-raid \
	--controller-cache 512M --controller-efficiency 1 -o SEQ-READ,SEQ-WRITE -r -n
if [ "$OUT" = "$md_out" ]; then pass "plan --controller hw-raid: a cache gives full stripes, --controller-efficiency 1 the disks' rate"; else fail "plan --controller hw-raid with a cache and efficiency 1" "$md_out / $OUT"; fi
run "$PROG" plan --disks 8 --rpm 15000 --level 0 --stroke 100% --workload seq-write --controller hw-raid \
	--controller-mbps 1000 -o SEQ-WRITE -r -n
expect "plan --controller hw-raid --controller-mbps R: writes cap at 0.75 R" 0 "^750$"
run "$PROG" plan --disks 4 --rpm 15000 --level 5 --stroke 50% --controller hw-raid --explain
expect "plan --explain: the controller's figures and sources" 0 "controller \(0 md, 1 hba, 2 hw-raid\): 2" 
expect "plan --explain: ... the measurement they come from" 0 "MSR-TR-2000-55"
expect "plan --explain: the stroke's gain" 0 "workload IOPS over the full stroke's: 1\.[0-9]+"
run "$PROG" plan --disks 4 --controller raid
expect "plan --controller: an unknown one" 2 "" "--controller: unknown controller \"raid\": use md, hba or hw-raid"
run "$PROG" plan --disks 4 --controller-efficiency 1.5
expect "plan --controller-efficiency above 1" 2 "" "expected a share above 0, up to 1"
run "$PROG" plan --disks 6 --rpm 7200 --level 5 --stroke 100% --controller hw-raid -O "$TMP/hw.json"
run "$PROG" plan --check "$TMP/hw.json" -o SEQ-WRITE -r -n
if grep -q '"controller": "hw-raid"' "$TMP/hw.json" && [ "$RC" = 0 ]; then pass "plan -O: the controller in the plan, plan --check re-evaluates with it"; else fail "plan -O: the controller in the plan" "$(cat "$TMP/hw.json")"; fi
sed 's/"hw-raid"/"raid-card"/' "$TMP/hw.json" >"$TMP/hw-bad.json"
run "$PROG" plan --check "$TMP/hw-bad.json"
expect "plan --check: an unknown controller" 2 "" "path.controller: expected \"md\", \"hba\" or \"hw-raid\""
# the RAID 5 width band follows HPE: more than 14 drives is a medium risk, 14 none
run "$PROG" plan --disks 15 --rpm 15000 --disk-size 100G --level 5 --stroke 100% -o RISK,WARNINGS -r -n
expect "plan: RAID 5 of 15 is medium risk (HPE: more than 14)" 0 "^medium .*raid5-wide"
run "$PROG" plan --disks 14 --rpm 15000 --disk-size 100G --level 5 --stroke 100% -o RISK,WARNINGS -r -n
if printf '%s\n' "$OUT" | grep -q raid5-wide; then fail "plan: RAID 5 of 14 has no width warning" "$OUT"; else pass "plan: RAID 5 of 14 has no width warning"; fi
# README's example runs on --demo as written; a capacity in a binary unit is said in both
# (1.5 TiB is 1.65 TB as sizes are printed) (issue 25.6)
run "$PROG" --demo plan --disks 8 --model-of sim:sas15k --level 10 --capacity 1.5TiB --iops 1200
expect "plan: README's example on the demo rig" 0 "^ +1 10 +8 " \
	"^note: --capacity 1.5TiB is 1.5 TiB, 1.65 TB as sizes are printed here"
run "$PROG" --demo plan --disks 8 --model-of sim:sas15k --level 10 --capacity 1.5TB
printf '%s\n' "$ERR" | grep -q "^note: --capacity" && fail "plan: a decimal --capacity needs no note" "$ERR" ||
	pass "plan: a decimal --capacity needs no note"
