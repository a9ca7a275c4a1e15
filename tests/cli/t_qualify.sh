# qualify: the checks on the demo drives, the sibling comparison (three
# identical SAS disks, one slow:2), medium errors (FAIL with the LBAs, the
# others PASS), a disk that vanishes mid-scan, -J, the HTML report, the
# thresholds file (errors before any I/O) and the exit codes.

cat >"$TMP/qrig.json" <<'RIG'
{
  "time_scale": 1000,
  "drives": [
    { "id": "a", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S4A0001",
      "firmware": "N003", "wwn": "5000c50000000001", "blocks": 4194304, "rpm": 10000, "smart": true },
    { "id": "b", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S4A0002",
      "firmware": "N003", "wwn": "5000c50000000002", "blocks": 4194304, "rpm": 10000, "smart": true },
    { "id": "c", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S4A0003",
      "firmware": "N003", "wwn": "5000c50000000003", "blocks": 4194304, "rpm": 10000, "smart": true,
      "faults": ["slow:2"] },
    { "id": "bad", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-WCC4M0000001",
      "firmware": "82.00A82", "blocks": 4194304, "smart": true,
      "faults": ["medium-error:1000000-1000099", "medium-error:3000000"] },
    { "id": "gone", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-WCC4M0000002",
      "firmware": "82.00A82", "blocks": 4194304, "smart": true, "faults": ["vanish-after:300"] }
  ]
}
RIG
Q="$PROG --rig $TMP/qrig.json"

# --- the demo drives, quick profile ----------------------------------------------------
run "$PROG" --demo qualify sim:sas15k sim:sata250 sim:sata320
expect "qualify: summary table" 4 "^DEVICE +MODEL +SERIAL +IDENTITY +SMART +SELFTEST +SCAN +ZONES +ACCESS +SIBLINGS +RESULT$"
expect "qualify: the 15K SAS disk passes" 4 "^sim:sas15k +HUS154545VLS300 +JWV2S8KC +PASS +PASS +SKIP +PASS +PASS +PASS +SKIP +PASS$"
expect "qualify: reallocated sectors fail SMART" 4 "^  smart +FAIL .*reallocated 3 \\(at most 0\\)"
expect "qualify: quick has no self-test" 4 "^  selftest +SKIP +not in the quick profile$"
expect "qualify: the closing line" 4 "^qualify \\(quick profile, virtual time\\): 2 of 3 disks passed$"

run "$PROG" --demo qualify -J sim:sas15k
expect "qualify -J: all pass, exit 0" 0
json_check "qualify -J: shape" 'd["profile"] == "quick" and d["passed"] == 1 and d["failed"] == 0 and len(d["disks"]) == 1 and d["thresholds"]["max_temperature_c"] == 55'
json_check "qualify -J: every check" 'list(d["disks"][0]["checks"]) == ["identity","smart","selftest","scan","zones","access","siblings"] and all(c["result"] in ("PASS","FAIL","SKIP") and c["detail"] for c in d["disks"][0]["checks"].values())'
json_check "qualify -J: figures as numbers" '(x := d["disks"][0]) and 150 < x["zone_profile"]["outer_mbps"] < 158 and len(x["zone_profile"]["samples"]) == 40 and [r["qd"] for r in x["access"]["runs"]] == [1, 32] and 4 < x["access"]["access_ms"] < 7 and x["scan"]["bad_blocks"] == 0 and x["smart"]["temperature_c"] == 34 and x["verdict"] == "PASS" and x["virtual_time"] is True'

run "$PROG" --demo qualify sim:sata320
expect "qualify: every disk failed, exit 1" 1 "^sim:sata320 .* FAIL$"

# --- siblings: one of three identical disks is slow ----------------------------------------
run $Q qualify -J sim:a sim:b sim:c
expect "qualify siblings: mixed, exit 4" 4
json_check "qualify siblings: the slow disk is flagged" '(x := {r["device"]: r for r in d["disks"]}) and x["sim:c"]["checks"]["siblings"]["result"] == "FAIL" and x["sim:c"]["siblings"]["slowdown_percent"] > 40 and x["sim:c"]["verdict"] == "FAIL"'
json_check "qualify siblings: the others pass" '(x := {r["device"]: r for r in d["disks"]}) and all(x[k]["checks"]["siblings"]["result"] == "PASS" and x[k]["verdict"] == "PASS" and x[k]["siblings"]["count"] == 3 for k in ("sim:a", "sim:b"))'
run $Q qualify sim:a sim:b sim:c
expect "qualify siblings: text" 4 "^  siblings +FAIL +[0-9]+% slower than the median of the 3 disks of this model"

# --- medium errors: FAIL with the LBAs, the others unaffected ----------------------------------
run $Q qualify --profile full -J sim:bad sim:a
expect "qualify medium errors: mixed, exit 4" 4
json_check "qualify medium errors: the bad blocks" '(x := d["disks"][0]) and x["verdict"] == "FAIL" and x["checks"]["scan"]["result"] == "FAIL" and x["scan"]["bad_ranges"] == [{"first_lba": 1000000, "last_lba": 1000099, "blocks": 100}, {"first_lba": 3000000, "last_lba": 3000000, "blocks": 1}] and x["scan"]["bad_blocks"] == 101 and x["scan"]["share_percent"] == 100'
json_check "qualify medium errors: the self-test fails too" 'd["disks"][0]["checks"]["selftest"]["result"] == "FAIL" and "1000000" in d["disks"][0]["checks"]["selftest"]["detail"]'
json_check "qualify medium errors: the other disk passes" 'd["disks"][1]["verdict"] == "PASS" and d["disks"][1]["checks"]["scan"]["result"] == "PASS"'
run $Q qualify --profile full sim:bad
expect "qualify medium errors: text lists the LBAs" 1 "^  bad blocks: LBA 1000000-1000099 \\(100 blocks\\)$"

# --- a disk that vanishes mid-scan ----------------------------------------------------------------
run $Q qualify --profile full -J sim:gone sim:b
expect "qualify vanished disk: mixed, exit 4" 4 "" "sim:gone: the disk stopped answering during the surface scan"
json_check "qualify vanished disk: FAIL with a clear message" '(x := d["disks"][0]) and x["verdict"] == "FAIL" and x["vanished"] is True and x["checks"]["scan"]["result"] == "FAIL" and "stopped answering" in x["checks"]["scan"]["detail"] and x["checks"]["zones"]["result"] == "SKIP"'
json_check "qualify vanished disk: the other passes" 'd["disks"][1]["verdict"] == "PASS"'

# --- the HTML report ---------------------------------------------------------------------------------
run $Q qualify --report "$TMP/r.html" sim:a sim:b sim:c
expect "qualify --report" 4
cat >"$TMP/html_check.py" <<'PY'
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "embed", "source", "track", "wbr", "param"}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.svgs, self.errors = [], [], []
        self.tags = set()
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        a = dict(attrs)
        if tag == "svg":
            self.svgs.append({"shapes": 0})
        if tag in ("polyline", "path") and self.svgs:
            data = a.get("points") or a.get("d") or ""
            if data.strip():
                self.svgs[-1]["shapes"] += 1
        for k, v in attrs:
            if v and ("http://" in v or "https://" in v) and k != "xmlns":
                self.errors.append("external resource: %s=%s" % (k, v))
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.tags.add(tag)
        a = dict(attrs)
        if tag in ("polyline", "path") and self.svgs:
            if (a.get("points") or a.get("d") or "").strip():
                self.svgs[-1]["shapes"] += 1
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unexpected </%s> (open: %s)" % (tag, self.stack[-3:]))
        else:
            self.stack.pop()
p = P()
text = open(sys.argv[1], encoding="utf-8").read()
p.feed(text); p.close()
if p.stack: p.errors.append("unclosed: %s" % p.stack)
if "script" in p.tags: p.errors.append("a script")
if "link" in p.tags: p.errors.append("a link element")
want = int(sys.argv[2])
if len(p.svgs) != want: p.errors.append("%d svgs, expected %d" % (len(p.svgs), want))
if any(s["shapes"] == 0 for s in p.svgs): p.errors.append("an svg without a path or polyline")
for e in p.errors: print(e)
sys.exit(1 if p.errors else 0)
PY
if python3 "$TMP/html_check.py" "$TMP/r.html" 13 >"$TMP/hc" 2>&1; then
	pass "qualify --report: well-formed, no scripts or external resources, 4 charts per disk and the comparison"
else
	fail "qualify --report: well-formed, no scripts or external resources, 4 charts per disk and the comparison" "$(cat "$TMP/hc")"
fi
grep -q '<th>Reason</th>' "$TMP/r.html" && grep -q '<td class="reason">.*<b>siblings</b>: [0-9]*% slower than the median' "$TMP/r.html" &&
	grep -q '<td class="reason">all checks passed</td>' "$TMP/r.html" &&
	pass "qualify --report: the summary says why each disk failed" || fail "qualify --report: the summary says why each disk failed"
grep -q 'The disks against the median of their model (the band: within 15%)' "$TMP/r.html" &&
	grep -q '<rect class="band"' "$TMP/r.html" && grep -q 'class="out"' "$TMP/r.html" &&
	pass "qualify --report: one chart compares the disks with the sibling band, the slow one outside it" ||
	fail "qualify --report: one chart compares the disks with the sibling band, the slow one outside it"
grep -q '@media print{' "$TMP/r.html" && grep -q 'break-inside:avoid' "$TMP/r.html" &&
	pass "qualify --report: print CSS keeps charts and tables whole" || fail "qualify --report: print CSS keeps charts and tables whole"
grep -q '<td class="fail">FAIL</td><td class="reason">' "$TMP/r.html" && grep -q '<title>Disk qualification</title>' "$TMP/r.html" &&
	pass "qualify --report: the summary says which failed" || fail "qualify --report: the summary says which failed"
ls "$TMP"/r.html.tmp.* >/dev/null 2>&1 && fail "qualify --report: no temporary file left" || pass "qualify --report: no temporary file left"
run $Q qualify --report /nonexistent-dir/r.html sim:a
expect "qualify --report into a missing directory: an error before any disk is read" 2 "" "--report /nonexistent-dir/r.html: directory /nonexistent-dir: No such file"

# --- surface scan latency classes, slow blocks, --remap ----------------------------------------------
cat >"$TMP/slow.json" <<'RIG'
{
  "time_scale": 1000,
  "retries": {"outer_ppm": 50, "inner_ppm": 200},
  "drives": [
    { "id": "s", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "S4B0001",
      "firmware": "N003", "wwn": "5000c50000000011", "blocks": 4194304, "rpm": 10000, "smart": true,
      "faults": ["medium-error:5000-5003", "slow-block:6000-6007:700", "slow-block:3000:200"] },
    { "id": "t", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-WCC4M0000011",
      "firmware": "82.00A82", "blocks": 4194304, "smart": true,
      "faults": ["medium-error:5000-5003", "slow-block:6000-6007:700"] },
    { "id": "ok", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "WD-WCC4M0000012",
      "firmware": "82.00A82", "blocks": 4194304, "smart": true, "hpa": {"supported": true} }
  ]
}
RIG
QS="$PROG --rig $TMP/slow.json"
run $QS qualify -J sim:s sim:ok
expect "qualify slow blocks: mixed, exit 4" 4
json_check "qualify slow blocks: graded into MHDD's classes, the slow ones found" '(x := d["disks"][0]["scan"]) and [c["below_ms"] for c in x["classes"]] == [3, 10, 50, 150, 500, None] and x["classes"][4]["blocks"] == 1 and x["classes"][5]["blocks"] == 1 and x["slow_150ms"] == 2 and x["slow_500ms"] == 1 and x["block_bytes"] == 131072 and sum(c["blocks"] for c in x["classes"]) + sum(x["errors"].values()) == 2048 and x["errors"] == {"UNC": 1, "IDNF": 0, "ABRT": 0, "TIMEOUT": 0} and x["bad_blocks_by_kind"]["UNC"] == 4'
json_check "qualify slow blocks: the slowest first, with their LBA" '(x := d["disks"][0]["scan"]) and x["slowest"][0]["lba"] == 5888 and 700 <= x["slowest"][0]["ms"] < 720 and x["slowest"][1]["lba"] == 2816 and 200 <= x["slowest"][1]["ms"] < 220 and x["slowest"][0]["ms"] >= x["slowest"][1]["ms"] >= x["slowest"][2]["ms"]'
json_check "qualify slow blocks: the map holds every block, by position" '(m := d["disks"][0]["scan"]["map"]) and m["bins"] == 100 and len(m["cells"]) == 100 and sum(sum(c) for c in m["cells"]) == 2048 and m["cells"][0][5] == 1 and m["cells"][0][6] == 1'
json_check "qualify slow blocks: the scan check says why it failed" '(c := d["disks"][0]["checks"]["scan"]) and c["result"] == "FAIL" and "1 block of 500 ms or more (at most 0)" in c["detail"] and "2 blocks of 150 ms or more" in c["detail"]'
json_check "qualify slow blocks: a healthy disk with retries passes" '(x := d["disks"][1]) and x["checks"]["scan"]["result"] == "PASS" and x["scan"]["slow_150ms"] == 0 and x["scan"]["remap"] is None'
json_check "qualify slow blocks: thresholds and classes in JSON" 'd["thresholds"]["scan_classes_ms"] == [3, 10, 50, 150, 500] and d["thresholds"]["max_slow_500ms"] == 0 and d["thresholds"]["max_slow_150ms_per_gib"] == 0.01'
run $QS qualify sim:s
expect "qualify slow blocks: counts per class in text" 1 "^  scan blocks \(128 KiB\) by latency: <3 ms [0-9]+, <10 ms [0-9]+, <50 ms [0-9]+, <150 ms 0, <500 ms 1, >=500 ms 1; failed reads: UNC 1, IDNF 0, ABRT 0, TIMEOUT 0$"
expect "qualify slow blocks: the slowest in text" 1 "^  slowest blocks: LBA 5888 70[0-9]\.[0-9] ms, LBA 2816 20[0-9]\.[0-9] ms"
printf 'max_slow_500ms = 1\nmax_slow_150ms_per_gib = 9\nmax_bad_blocks = 4\nscan_classes_ms = 5, 20, 50, 200, 600\n' >"$TMP/lenient.conf"
run $QS qualify -J -t "$TMP/lenient.conf" sim:s
json_check "qualify slow blocks: Victoria's classes and lenient limits pass it" '(x := d["disks"][0]["scan"]) and [c["below_ms"] for c in x["classes"]] == [5, 20, 50, 200, 600, None] and x["classes"][4]["blocks"] == 1 and x["classes"][5]["blocks"] == 1 and d["disks"][0]["checks"]["scan"]["result"] == "PASS"'
printf 'scan_classes_ms = 3, 10, 50\n' >"$TMP/badcls.conf"
run $QS qualify -t "$TMP/badcls.conf" sim:s
expect "qualify: too few class edges, exit 2" 2 "" "badcls.conf:1: scan_classes_ms: 5 values expected, 3 given"
printf 'scan_classes_ms = 3, 10, 5, 150, 500\n' >"$TMP/badcls.conf"
run $QS qualify -t "$TMP/badcls.conf" sim:s
expect "qualify: class edges must increase, exit 2" 2 "" "the values must increase \(5 after 10\)"

# --remap: refused without confirmation, then done with --yes: before and after per block
run $QS qualify --remap sim:s </dev/null
expect "qualify --remap without --yes in a script: refused, exit 3" 3 "" "sim:s: not confirmed: remap destroys data; pass --yes in scripts"
run $QS qualify --yes sim:s
expect "qualify --yes without --remap: usage error" 2 "" "--yes goes with --remap"
run $QS qualify --remap --remap-above 0 --yes sim:s
expect "qualify --remap-above 0: usage error" 2 "" "--remap-above '0': give a latency in ms above 0"
"$PROG" --rig "$TMP/slow.json" protect add sim:t >/dev/null
run $QS qualify --remap --yes sim:s sim:t
expect "qualify --remap on a protected disk: refused, nothing sent, exit 3" 3 "" "sim:t.*protected"
"$PROG" --rig "$TMP/slow.json" protect remove sim:t >/dev/null
run $QS qualify -J --remap --yes --report "$TMP/remap.html" sim:s sim:t
expect "qualify --remap: both disks still fail (what was found stands)" 1
json_check "qualify --remap SAS: REASSIGN BLOCKS for the unreadable, WRITE of its data for the slow, all read fine after" '(r := d["disks"][0]["scan"]["remap"]) and [(x["lba"], x["blocks"], x["action"], x["after_ok"]) for x in r] == [(5000, 4, "REASSIGN BLOCKS", True), (2816, 256, "WRITE (its data)", True), (5888, 256, "WRITE (its data)", True)] and r[0]["before"] == "unreadable (UNC)" and r[2]["before"].startswith("70") and all(x["after_ms"] < 50 for x in r) and "remapped 3 of 3 runs" in d["disks"][0]["checks"]["scan"]["detail"]'
json_check "qualify --remap ATA: zeros written where unreadable" '(r := d["disks"][1]["scan"]["remap"]) and [(x["lba"], x["action"]) for x in r] == [(5000, "WRITE (zeros: unreadable)"), (5888, "WRITE (its data)")] and all(x["after_ok"] for x in r)'
grep -q "<h3>Remap (--remap)</h3>" "$TMP/remap.html" && grep -q "REASSIGN BLOCKS" "$TMP/remap.html" &&
	pass "qualify --remap: the report lists what was rewritten" || fail "qualify --remap: the report lists what was rewritten"
run $QS qualify -J sim:s sim:t
json_check "qualify after --remap: the blocks read fine, the drives count them as reallocated" 'all(x["checks"]["scan"]["result"] == "PASS" and x["scan"]["bad_blocks"] == 0 for x in d["disks"]) and d["disks"][0]["smart"]["grown_defects"] == 13 and d["disks"][1]["smart"]["reallocated"] == 12'

# --- burnin: the selective self-test of the kept region, the butterfly, the soak ---------------------
"$PROG" --rig "$TMP/slow.json" limit --percent 50 --yes sim:ok >/dev/null
run $QS qualify --profile burnin --butterfly 5s --soak 10s -J --report "$TMP/burnin.html" sim:ok sim:s
json_check "qualify burnin: ATA runs the selective self-test of the kept region" '(x := d["disks"][0]) and x["checks"]["selftest"]["result"] == "PASS" and "selective self-test of LBA 0-2097151, the accessible span (the kept region)" in x["checks"]["selftest"]["detail"] and x["selftest_scope"].startswith("selective")'
json_check "qualify burnin: SCSI runs the extended one and says it covered the whole disk" '"it covered the whole disk (SCSI has no selective self-test)" in d["disks"][1]["checks"]["selftest"]["detail"]'
json_check "qualify burnin: the butterfly and the soak, with their figures" '(b := d["disks"][0]["burnin"]) and b["butterfly"]["qd"] == 1 and 4.9 < b["butterfly"]["seconds"] < 5.2 and b["butterfly"]["reads"] > 100 and b["soak"]["qd"] == 32 and b["soak"]["reads"] > 500 and b["soak"]["failed_reads"] == 0 and "butterfly seek test 5s" in d["disks"][0]["checks"]["access"]["detail"]'
json_check "qualify burnin: the soak meets the unreadable block of the other disk" 'd["disks"][1]["burnin"]["soak"]["failed_reads"] >= 0 and d["profile"] == "burnin"'
if python3 "$TMP/html_check.py" "$TMP/burnin.html" 13 >"$TMP/hc" 2>&1; then
	pass "qualify --report burnin: two more latency histograms per disk"
else
	fail "qualify --report burnin: two more latency histograms per disk" "$(cat "$TMP/hc")"
fi
run $QS qualify --soak 10s sim:ok
expect "qualify --soak without burnin: usage error" 2 "" "--butterfly and --soak go with --profile burnin"
run $QS qualify --profile burnin --soak forever sim:ok
expect "qualify --soak nonsense: usage error" 2 "" "--soak 'forever': give a duration"
"$PROG" --rig "$TMP/slow.json" restore --yes sim:ok >/dev/null

# --- SAS health: the grown defect list is the reallocated count, and its threshold applies ----------
"$PROG" --demo sim fault sim:sas4kn smart-degrade:3 >/dev/null
run "$PROG" --demo qualify -J sim:sas4kn --report "$TMP/sas.html"
expect "qualify SAS grown defects: FAIL" 1
json_check "qualify SAS grown defects: max_reallocated applies" '(x := d["disks"][0]) and x["checks"]["smart"]["result"] == "FAIL" and "grown defects 3 (at most 0)" in x["checks"]["smart"]["detail"] and x["smart"]["reallocated"] == 3 and x["smart"]["grown_defects"] == 3 and x["smart"]["scsi"]["corrected_errors"]["read"] >= 3 and x["smart"]["scsi"]["uncorrected_errors"]["read"] == 0 and x["smart"]["scsi"]["start_stop_cycles"] > 0 and x["smart"]["scsi"]["background_scans"] is not None'
grep -q "Grown defects (READ DEFECT DATA)</td><td class=\"num warn\">3</td>" "$TMP/sas.html" &&
	pass "qualify --report: the health table shows the grown defects" ||
	fail "qualify --report: the health table shows the grown defects"
printf 'max_reallocated = 5\n' >"$TMP/thr5.conf"
run "$PROG" --demo qualify -t "$TMP/thr5.conf" sim:sas4kn
expect "qualify SAS grown defects within max_reallocated: PASS" 0 "^  smart +PASS +WARNING"
"$PROG" --demo sim fault --clear sim:sas4kn >/dev/null
run "$PROG" --demo qualify -J sim:sata250
json_check "qualify ATA: no SCSI health" 'd["disks"][0]["smart"]["scsi"] is None and d["disks"][0]["smart"]["grown_defects"] is None'

# --- thresholds --------------------------------------------------------------------------------------
run "$PROG" qualify --print-thresholds
expect "qualify --print-thresholds" 0 "^max_temperature_c = 55$"
printf '%s\n' "$OUT" | sed 's/^sibling_slowdown_pct = 15$/sibling_slowdown_pct = 99/; s/^min_seq_read_mbps = 80$/min_seq_read_mbps = 10/' >"$TMP/thr.conf"
run $Q qualify -J -t "$TMP/thr.conf" sim:a sim:b sim:c
json_check "qualify -t: an edited file is used" 'd["thresholds"]["sibling_slowdown_pct"] == 99 and all(x["verdict"] == "PASS" for x in d["disks"])'
run "$PROG" qualify -t "$TMP/thr.conf" --print-thresholds
expect "qualify --print-thresholds shows the file's values" 0 "^sibling_slowdown_pct = 99$"
printf 'max_temperature_c = 50\n\nmax_temprature = 40\n' >"$TMP/bad.conf"
# a rig that does not exist: the thresholds are read before anything else
run "$PROG" --rig "$TMP/no-such-rig.json" qualify -t "$TMP/bad.conf" sim:a
expect "qualify: unknown key, exit 2 before any I/O" 2 "" "bad.conf:3: unknown key 'max_temprature'"
[ -z "$OUT" ] && pass "qualify: bad thresholds print nothing on stdout" || fail "qualify: bad thresholds print nothing on stdout" "$OUT"
printf 'max_bad_blocks = some\n' >"$TMP/bad2.conf"
run "$PROG" --rig "$TMP/no-such-rig.json" qualify -t "$TMP/bad2.conf" sim:a
expect "qualify: malformed value, exit 2" 2 "" "bad2.conf:1: max_bad_blocks: 'some' is not a number"
run "$PROG" qualify -t "$TMP/missing.conf" sim:a
expect "qualify: missing thresholds file, exit 2" 2 "" "missing.conf: No such file"

# --- bad input, read-only on protected disks ------------------------------------------------------------
run "$PROG" --demo qualify --profile thorough sim:sas15k
expect "qualify: unknown profile" 2 "" "unknown profile 'thorough' \\(quick, standard, full, burnin\\)"
run "$PROG" --demo qualify
expect "qualify without a device" 2 "" "name at least one device"
run "$PROG" --demo qualify sim:nope
expect "qualify unknown drive" 2 "" "no such drive"
"$PROG" --demo protect add sim:sas15k >/dev/null
run "$PROG" --demo qualify sim:sas15k
expect "qualify reads a protected disk, and says so" 0 "^  note: protected.*qualified anyway, read-only"
"$PROG" --demo protect remove sim:sas15k >/dev/null
