# plan: ranked layouts, one layout evaluated, --explain, the plan file and its check

run "$PROG" --demo plan sim:sas15k --disks 4 --model-of sim:sas15k --level 10 --capacity 200G
expect "plan: RAID 10 of four 15K450s for 200 GiB" 0 \
	"^ +1 10 +4 +2 +[0-9]+ +23\.9 +215 GB" "1 layout meets the goals"
expect "plan: says which figures are datasheet defaults" 0 "" \
	"note: sim:sas15k: capacity and rpm \(15000\) from the drive; seek times"
expect "plan: says the extra disks are copies" 0 "" "3 of the 4 disks are copies of sim:sas15k"

run "$PROG" --demo plan sim:sas15k --disks 4 --model-of sim:sas15k --level 10 --capacity 200G -J
expect "plan -J" 0
json_check "plan -J: root key plans, numbers as numbers" \
	"d['plans'][0]['level'] == '10' and d['plans'][0]['disks'] == 4 and \
	 isinstance(d['plans'][0]['capacity'], int) and isinstance(d['plans'][0]['iops'], float) and \
	 d['plans'][0]['capacity'] >= 200 * 2**30"
json_check "plan -J: every default column, notes and the message" \
	"set(d['plans'][0]) == {'rank','level','disks','groups','chunk','stroke','capacity', \
	 'seq-read','seq-write','iops','iops-qd1','access','tolerates','rebuild','mttdl','ure', \
	 'warnings'} and len(d['notes']) >= 2 and d['unmet'] == [] and 'meets' in d['message']"

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
expect "plan --check: valid, re-evaluated" 0 "^Layout: +RAID 10 on 4 disks" "valid; the figures match"
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

# help and columns
run "$PROG" plan --help
expect "plan --help: examples" 0 "Examples:"
expect "plan --help: the goals" 0 "--capacity SIZE"
run "$PROG" plan --list-columns
expect "plan --list-columns" 0 "MTTDL +mean time to data loss, years"
run "$PROG" plan --disks 4 --level 5 --capacity 1T -o +LIMIT,RADIAL,SEEK
expect "plan -o +COLUMNS" 0 "WARNINGS +LIMIT +RADIAL +SEEK"
