# smart and selftest on the simulated drives: verdicts of the demo disks, every SMART
# fault, self-tests on several disks at once, a failing test with its LBA, JSON shapes.
# Power-on hours follow the virtual clock (at the demo's time_scale an hour passes every
# 3.6 s), so the goldens leave that line out.

nohours() { OUT=$(printf '%s\n' "$OUT" | grep -v 'Power-on hours'); }
fault() { "$PROG" --demo sim fault "$@" >/dev/null; }
clear() { "$PROG" --demo sim fault --clear "$1" >/dev/null; }

# --- verdicts of the demo rig -------------------------------------------------------------
run "$PROG" --demo smart sim:sata250
expect "healthy SATA disk: PASSED" 0 "^sim:sata250: PASSED$"
expect "key figures, a CRC error marked" 0 "Temperature: +38 C$" 
expect "CRC errors marked as alarming" 0 "CRC errors: +2  \(!\)$"
nohours
golden smart_sata250.txt
run "$PROG" --demo smart -a -o ID,NAME,VALUE,WORST,THRESH,FLAGS,STATUS sim:sata250
nohours
golden smart_sata250_attrs.txt
run "$PROG" --demo smart sim:sas15k
expect "healthy SAS disk: PASSED from its log pages" 0 "^sim:sas15k: PASSED$"
nohours
golden smart_sas15k.txt
run "$PROG" --demo smart sim:sata250 sim:smr sim:sas15k sim:sas4kn
expect "all healthy: exit 0" 0
run "$PROG" --demo smart sim:sata320
expect "reallocated sectors: WARNING with the reason, exit 5" 5 \
	"^sim:sata320: WARNING: 3 bad sectors \(reallocated 3, pending 0\)$"
expect "the reallocated count is marked" 5 "Reallocated: +3 sectors  \(!\)"
run "$PROG" --demo smart sim:sata-hpa sim:sata250
expect "a pending sector: WARNING; mixed with PASSED exits 5" 5 "^sim:sata-hpa: WARNING: .*pending 1"

# --- JSON ------------------------------------------------------------------------------------
run "$PROG" --demo smart -J sim:sata250 sim:sas15k
expect "smart -J" 0
json_check "JSON: one object per disk, verdicts and figures" \
	"[(x['device'], x['verdict'], x['type']) for x in d['disks']] == [('sim:sata250', 'PASSED', 'ata'), ('sim:sas15k', 'PASSED', 'scsi')] and d['disks'][0]['temperature_c'] == 38 and d['disks'][0]['crc_errors'] == 2 and d['disks'][0]['alarms'] == ['crc_errors'] and d['disks'][0]['reason'] is None"
json_check "JSON: the ATA attribute table (14 attributes, lsblk keys)" \
	"[a['id'] for a in d['disks'][0]['attributes']] == [1, 3, 4, 5, 7, 9, 10, 12, 193, 194, 196, 197, 198, 199] and d['disks'][0]['attributes'][3] == {'id': 5, 'name': 'reallocated-sector-count', 'value': 100, 'worst': 100, 'thresh': 36, 'raw': 0, 'pretty': '0 sectors', 'flags': 'PO--CK', 'status': 'ok'} and d['disks'][0]['return_status'] == 'good' and d['disks'][0]['smart_status'] == {'passed': True}"
json_check "JSON: SCSI error counters and log page states" \
	"[c['log'] for c in d['disks'][1]['error_counters']] == ['read', 'write', 'verify'] and d['disks'][1]['log_pages']['informational_exceptions'] == 'ok' and d['disks'][1]['temperature_c'] == 34 and d['disks'][1]['selftests'] == []"

# --- faults ------------------------------------------------------------------------------------
fault sim:sata250 smart-degrade:10:2
run "$PROG" --demo smart sim:sata250
expect "smart-degrade under the threshold: WARNING" 5 "^sim:sata250: WARNING: 12 bad sectors \(reallocated 10, pending 2\)$"
clear sim:sata250
fault sim:sata250 smart-degrade:2000:5
run "$PROG" --demo smart -a sim:sata250
expect "smart-degrade over the threshold: FAILED, status says so" 1 "^sim:sata250: FAILED: .*FAILING"
expect "the attribute below its threshold is flagged" 1 "^  5 reallocated-sector-count +1 +1 +36 +2000 .*FAILING$"
expect "SMART status threshold exceeded" 1 "SMART status: +threshold exceeded \(!\)"
clear sim:sata250
run "$PROG" --demo smart sim:sata250
expect "clearing the fault brings it back" 0 "PASSED"
fault sim:sata250 smart-fail
run "$PROG" --demo smart -J sim:sata250
expect "smart-fail: exit 1" 1
json_check "smart-fail: FAILED with the reason, status threshold-exceeded" \
	"d['disks'][0]['verdict'] == 'FAILED' and 'FAILING' in d['disks'][0]['reason'] and d['disks'][0]['return_status'] == 'threshold-exceeded' and d['disks'][0]['smart_status'] == {'passed': False}"
clear sim:sata250
fault sim:sas15k smart-fail
run "$PROG" --demo smart sim:sas15k
expect "SAS smart-fail: informational exception 5Dh" 1 "^sim:sas15k: FAILED: informational exception: Failure prediction threshold exceeded \(5d/00\)$"
clear sim:sas15k
fault sim:sas15k smart-degrade:2000:3
run "$PROG" --demo smart -a sim:sas15k
expect "SAS degrade: too many block reassigns" 1 "too many block reassigns \(5d/14\)"
expect "SAS degrade: uncorrected read errors counted" 1 "^read +2000 +2000 .* 3$"
clear sim:sas15k
# the grown defect list (READ DEFECT DATA) is a SAS disk's reallocated count
fault sim:sas15k smart-degrade:5
run "$PROG" --demo smart sim:sas15k
expect "SAS grown defects: WARNING that names them" 5 "^sim:sas15k: WARNING: 5 grown defects \(blocks the drive reassigned\)$"
expect "SAS grown defects: marked" 5 "^  Grown defects: +5 blocks  \(!\)$"
run "$PROG" --demo smart -J sim:sas15k
json_check "SAS grown defects in JSON: reallocated, grown_defects, the counters" \
	"(x := d['disks'][0]) and x['reallocated'] == 5 and x['grown_defects'] == 5 and x['log_pages']['grown_defect_list'] == 'ok' and x['corrected_errors']['read'] == 5 and x['uncorrected_errors'] == {'read': 0, 'write': 0, 'verify': 0} and x['background_scan']['medium_errors'] == 0 and x['start_stop_cycles'] > 0"
run "$PROG" --demo info -J sim:sas15k
json_check "info: the health summary of a SAS disk" \
	"d['health']['verdict'] == 'WARNING' and d['health']['grown_defects'] == 5 and d['health']['non_medium_errors'] == 0"
clear sim:sas15k
fault sim:sas15k abort:b7
run "$PROG" --demo smart -J sim:sas15k
expect "READ DEFECT DATA refused: the rest is still read" 0
json_check "READ DEFECT DATA refused: the list's state says so" \
	"d['disks'][0]['log_pages']['grown_defect_list'] == 'error' and d['disks'][0]['reallocated'] is None"
clear sim:sas15k
fault sim:smr no-smart
run "$PROG" --demo smart sim:smr
expect "no-smart: could not be read, its own exit 6" 6 "" "^shortstroke: sim:smr: SMART is not supported by this drive$"
run "$PROG" --demo smart -J sim:smr sim:sata250
expect "no-smart in a batch: exit 6" 6
json_check "no-smart in JSON: UNKNOWN with the error; the other disk still read" \
	"d['disks'][0]['verdict'] == 'UNKNOWN' and 'not supported' in d['disks'][0]['error'] and d['disks'][1]['verdict'] == 'PASSED'"
clear sim:smr
fault sim:sas4kn no-smart
run "$PROG" --demo smart sim:sas4kn
expect "SAS without SMART: no log pages" 6 "" "sim:sas4kn: .*not supported"
clear sim:sas4kn
# exit codes apart: FAILED beats no verdict beats WARNING; the JSON says which
fault sim:smr no-smart
fault sim:sata250 smart-fail
run "$PROG" --demo smart -J sim:smr sim:sata250 sim:sata320
expect "FAILED with a no-verdict and a WARNING disk: exit 1" 1
json_check "smart -J: the exit status in the tool's object" "d['shortstroke']['exit_status'] == 1 and d['json_format_version'] == [1, 0]"
clear sim:sata250
run "$PROG" --demo smart sim:smr sim:sata320
expect "no verdict with a WARNING disk: exit 6" 6
clear sim:smr

# the keys a script written for smartctl's JSON finds; -j is -J
run "$PROG" --demo smart -j sim:sata250 sim:sas15k
expect "smart -j" 0
json_check "smartctl keys: identity, status, temperature, power-on time" \
	"(x := d['disks'][0]) and x['model_name'] == 'Hitachi HDT721025SLA380' and x['serial_number'] == 'STF607MS2A4K7P' and x['firmware_version'] == 'ST6OA3AB' and x['user_capacity'] == {'blocks': 488397168, 'bytes': 250059350016} and x['smart_status'] == {'passed': True} and x['temperature'] == {'current': 38} and x['power_on_time']['hours'] >= 31877 and d['shortstroke']['version'][0] >= 0"
json_check "smartctl keys: the attribute table with smartctl's names, raw value and string" \
	"(t := {a['id']: a for a in d['disks'][0]['ata_smart_attributes']['table']}) and t[5]['name'] == 'Reallocated_Sector_Ct' and t[5]['libatasmart_name'] == 'reallocated-sector-count' and t[199]['raw'] == {'value': 2, 'string': '2'} and t[194]['name'] == 'Temperature_Celsius' and t[194]['raw']['string'] == '38' and t[5]['flags']['prefailure'] is True and t[9]['flags']['string'] == '-O--C-'"
json_check "smartctl keys: a SAS disk's grown defect list" "d['disks'][1]['scsi_grown_defect_list'] == 0 and d['disks'][1]['smart_status'] == {'passed': True} and 'ata_smart_attributes' not in d['disks'][1]"
fault sim:sata250 smart-fail
run "$PROG" --demo smart -j sim:sata250
json_check "smartctl keys: a failing drive does not pass" "d['disks'][0]['smart_status'] == {'passed': False}"
clear sim:sata250

# --- self-tests ---------------------------------------------------------------------------------
run "$PROG" --demo selftest --short --wait sim:sata250 sim:sas15k
expect "short self-test on two disks at once, --wait" 0 "^sim:sata250: short self-test completed without error$"
expect "... the SAS disk too" 0 "^sim:sas15k: short self-test completed without error$"
expect "... with the log" 0 "^  1 +short +completed without error"
run "$PROG" --demo smart -l -J sim:sata250 sim:sas15k
json_check "the self-test logs hold the result" \
	"[x['selftests'][0]['result'] for x in d['disks']] == ['completed without error'] * 2"

# the long tests of the two biggest disks: they outlast this file (hours of virtual time)
run "$PROG" --demo selftest --long sim:smr sim:sas4kn
expect "extended self-test started, with its duration" 0 "^sim:smr: extended self-test started, about 22h41m"
expect "... SAS: the Control page's time" 0 "^sim:sas4kn: extended self-test started, about 3h18m"
run "$PROG" --demo selftest --short sim:smr
expect "a second test while one runs: refused" 1 "" "already running.*abort it first"
run "$PROG" --demo selftest --status sim:smr sim:sas4kn
expect "--status: progress" 0 "^sim:smr: self-test: [0-9]+% done"
expect "--status: SAS progress with ETA" 0 "^sim:sas4kn: extended self-test: [0-9]+% done, about"
run "$PROG" --demo selftest --status -J sim:sas4kn
json_check "--status JSON" "d['results'][0]['running'] is True and d['results'][0]['percent_done'] >= 0 and d['results'][0]['eta_s'] > 0"
run "$PROG" --demo selftest --abort sim:smr sim:sas4kn
expect "--abort" 0 "^sim:smr: self-test aborted$"
expect "--abort SAS" 0 "^sim:sas4kn: extended aborted$"
run "$PROG" --demo selftest --status sim:smr
expect "after --abort: the last result" 0 "no self-test running; last: extended aborted by the host$"
run "$PROG" --demo selftest --abort sim:smr
expect "--abort with nothing running" 0 "nothing to abort"
run "$PROG" --demo smart sim:smr sim:sas4kn
expect "an aborted test does not fail the disk" 0 "^sim:smr: PASSED"

fault sim:sata320 medium-error:100000000-100000099
run "$PROG" --demo selftest --short --wait sim:sata320
expect "a self-test over a medium error fails with its LBA" 1 "^  1 +short +the read element failed +[0-9]+ +100000000$" \
	"sim:sata320: the short self-test ended in error: the read element failed, first failing LBA 100000000"
run "$PROG" --demo smart sim:sata320
expect "then smart says FAILED, with the LBA" 1 "^sim:sata320: FAILED: the last self-test \(short\) ended in error: .* at LBA 100000000$"
clear sim:sata320

fault sim:sas4kn selftest-fail:12345
run "$PROG" --demo selftest --short --wait -J sim:sas4kn sim:sata-hpa
expect "selftest-fail in a batch: exit 4" 4
json_check "JSON: the failing disk with the LBA, the other passed" \
	"[(r['device'], r['ok'], r['passed']) for r in d['results']] == [('sim:sas4kn', False, False), ('sim:sata-hpa', True, True)] and d['results'][0]['log'][0]['lba'] == 12345 and 'first failing LBA 12345' in d['results'][0]['error']"
clear sim:sas4kn

fault sim:smr no-smart
run "$PROG" --demo selftest --short sim:smr
expect "self-test on a disk without SMART" 1 "" "^shortstroke: sim:smr: SMART is not supported by this drive$"
clear sim:smr
run "$PROG" --demo selftest --conveyance sim:sas15k
expect "conveyance on SAS: rejected with the reason" 1 "" "no conveyance self-test"
run "$PROG" --demo selftest --conveyance --wait sim:smr
expect "conveyance on SATA" 0 "conveyance self-test completed without error"

# --selective: the accessible span (sata-hpa: the HPA the demo set, the kept region), and SCSI
# runs the extended test over the whole disk
run "$PROG" --demo selftest --selective -J sim:sata-hpa
expect "selftest --selective" 0
json_check "selftest --selective: ATA tests the accessible span" '(a := d["results"][0]) and a["test"] == "selective" and a["first_lba"] == 0 and a["last_lba"] == 488386583 and a["whole_disk"] is False and a["started"]'
run "$PROG" --demo selftest --status sim:sata-hpa
expect "selftest --selective: it runs" 0 "self-test: [0-9]+% done"
"$PROG" --demo selftest --abort sim:sata-hpa >/dev/null
run "$PROG" --demo selftest --selective -J sim:sas15k
json_check "selftest --selective on SCSI: the extended test, the whole disk" '(a := d["results"][0]) and a["test"] == "extended" and a["whole_disk"] is True and a["started"]'
"$PROG" --demo selftest --abort sim:sas15k >/dev/null
run "$PROG" --demo selftest --selective sim:sas15k
expect "selftest --selective on SCSI says the whole disk" 0 "^sim:sas15k: extended self-test \\(SCSI has no selective self-test: it covers the whole disk\\) started"
"$PROG" --demo selftest --abort sim:sas15k >/dev/null
fault sim:sata-hpa medium-error:5000
run "$PROG" --demo selftest --selective --span 4000-6000 --wait sim:sata-hpa
expect "selftest --selective: a bad block in the span fails it, with its LBA" 1 "" "the selective self-test ended in error: .*first failing LBA 5000"
run "$PROG" --demo selftest --selective --span 6000-7000 --wait -J sim:sata-hpa
json_check "selftest --selective: a bad block outside the span does not; the log names it" '(a := d["results"][0]) and a["passed"] and a["log"][0]["test"] == "selective" and a["log"][0]["result"] == "completed without error"'
run "$PROG" --demo selftest --selective --span 6000-7000 --wait sim:sata-hpa
expect "selftest --selective: the result names the span" 0 "selective self-test of LBA 6000-7000 completed without error"
clear sim:sata-hpa
run "$PROG" --demo selftest --selective --span 7000-6000 sim:sata-hpa
expect "selftest --span backwards: usage error" 2 "" "FIRST <= LAST"
run "$PROG" --demo selftest --short --span 0-5 sim:sata-hpa
expect "selftest --span without --selective: usage error" 2 "" "--span goes with --selective"

# --- bad input -----------------------------------------------------------------------------------
run "$PROG" --demo selftest sim:sata250
expect "selftest without a test" 2 "" "which test"
run "$PROG" --demo selftest --short --long sim:sata250
expect "two tests" 2 "" "give one of"
run "$PROG" --demo selftest --status --wait sim:sata250
expect "--wait with --status" 2 "" "--wait goes with"
run "$PROG" --demo selftest --short
expect "no device" 2 "" "name at least one device"
run "$PROG" --demo smart
expect "smart without a device" 2 "" "name at least one device"
run "$PROG" --demo smart -o ID,BOGUS sim:sata250
expect "unknown column" 2 "" "BOGUS"
run "$PROG" --demo smart sim:nosuch
expect "unknown device" 2 "" "nosuch"
run "$PROG" smart --help
expect "smart --help explains the verdicts and exit codes" 0 "WARNING  look closer" 
run "$PROG" selftest --help
expect "selftest --help" 0 "--wait"
