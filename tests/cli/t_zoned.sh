# Zoned (SMR) disks: only the methods that work on them are offered, limits end on a zone
# boundary, and host-managed disks stay out of md layouts. A change that fails leaves the
# journal closed (or closable by restore).

J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
last_event() {
	[ -f "$J" ] || { echo none; return; }
	python3 -c "import json,sys
ev = [json.loads(l) for l in open('$J') if json.loads(l)['device'] == '$1']
print(ev[-1]['event'] if ev else 'none')"
}

# sim:smr is host-managed: its last blocks are a sequential-write-required zone, where a
# backup GPT cannot be written in place
run "$PROG" --demo info -J sim:smr
json_check "host-managed: partition is not offered" "d['methods'] == ['amac']"
run "$PROG" --demo limit -m partition --percent 30 --yes sim:smr
expect "host-managed: the partition method is refused before anything is sent" 1 "" \
	"host-managed zoned disk cannot take the partition method"
run "$PROG" --demo zones -J sim:smr
json_check "host-managed: nothing was written" "d['written_blocks'] == 0"
[ "$(last_event sim:smr)" = none ] && pass "host-managed: nothing journaled" ||
	fail "host-managed: nothing journaled" "$(last_event sim:smr)"

# a limit on a zoned disk ends on a zone boundary, and the plan says so
zl=$(printf '%s' "$OUT" | python3 -c "import json,sys; print(json.load(sys.stdin)['zone_blocks'])")
run "$PROG" --demo limit --percent 30 --dry-run sim:smr
expect "zoned: the plan says the limit is rounded to a zone boundary" 0 \
	"rounded down to a zone boundary \(the start of zone [0-9]+; zones of 268 MB\) by amac"
run "$PROG" --demo limit --percent 30 --yes -J sim:smr
json_check "zoned: the limit is a whole number of zones" \
	"d['results'][0]['ok'] and d['results'][0]['after_blocks'] % ${zl:-0} == 0 and d['results'][0]['after_blocks'] < 1025428480"
run "$PROG" --demo limit --percent 30 --yes sim:smr
expect "zoned: a re-run is a no-op" 0 "nothing sent"
run "$PROG" --demo restore --yes sim:smr
expect "zoned: restore" 0 "restored to 3418095616 blocks"

# host-managed disks cannot be md members: plan leaves them out with the reason
run "$PROG" --demo plan sim:smr sim:smr sim:smr sim:smr --level 5
expect "plan: host-managed disks refused" 2 "" "host-managed SMR disk.*Linux md"
run "$PROG" --demo plan --disks 4 --model-of sim:smr
expect "plan --model-of a host-managed disk: refused" 2 "" "host-managed SMR disk.*Linux md"

# a change that fails before anything took leaves no open journal record
run "$PROG" --demo sim fault sim:sas15k abort:8a
run "$PROG" --demo limit -m partition --size 100GB --yes sim:sas15k
expect "partition method with every WRITE aborted: fails" 1 "" "0x8a"
[ "$(last_event sim:sas15k)" = restore-done ] && pass "failed change: the journal record is closed" ||
	fail "failed change: the journal record is closed" "last event: $(last_event sim:sas15k)"
run "$PROG" --demo sim fault --clear sim:sas15k
run "$PROG" --demo list -o DEVICE,STATE -J
json_check "failed change: the disk is free" \
	"[x['state'] for x in d['drives'] if x['device'] == 'sim:sas15k'] == ['free']"
run "$PROG" --demo sim fault sim:sas15k abort:55
run "$PROG" --demo limit --size 100GB --yes sim:sas15k
expect "resize with MODE SELECT aborted: fails" 1
[ "$(last_event sim:sas15k)" = restore-done ] && pass "failed resize: the journal record is closed" ||
	fail "failed resize: the journal record is closed" "last event: $(last_event sim:sas15k)"
run "$PROG" --demo sim fault --clear sim:sas15k

# a write benchmark on a host-managed disk would fail part-way: refused before any write
run "$PROG" --demo bench --workload database --destructive --yes --time 1s --qd 1 sim:smr
expect "host-managed: write benchmark refused" 1 "" "host-managed zoned disk.*write benchmarks are not run"
run "$PROG" --demo zones -J sim:smr
json_check "host-managed: the refused benchmark wrote nothing" "d['written_blocks'] == 0"
run "$PROG" --demo bench --workload random-access --time 1s --qd 1 sim:smr
expect "host-managed: a read benchmark runs" 0 "random-access"
