# format --sector-size: 512e <-> 4Kn on simulated SAS (MODE SELECT of the block length, fast
# FORMAT UNIT) and SATA (SET SECTOR CONFIGURATION EXT) drives: info lists the sizes, the
# refusals (usage, a size not offered, a drive that offers none, not confirmed, a limited
# disk, a path whose MODE SELECT is dropped), the dry run, the change read back and
# journaled, a limit from the new block count, and back again.

cat >"$TMP/frig.json" <<'RIG'
{
  "time_scale": 100000,
  "drives": [
    { "id": "sas", "personality": "sas", "vendor": "SEAGATE", "model": "ST4000NM0025", "serial": "SZSAS001",
      "firmware": "E001", "wwn": "5000c500a1b2c3e4", "blocks": 195312500, "physical_block": 4096,
      "rpm": 7200, "sector_sizes": [512, 4096] },
    { "id": "sata", "personality": "sata", "model": "ST4000NM0035", "serial": "SZSATA01", "firmware": "SN01",
      "blocks": 195312500, "physical_block": 4096, "rpm": 7200, "sector_sizes": [512, 4096], "amac": true },
    { "id": "bridge", "personality": "sas", "vendor": "SEAGATE", "model": "ST4000NM0025", "serial": "SZBRG001",
      "firmware": "E001", "wwn": "5000c500a1b2c3e6", "blocks": 195312500, "physical_block": 4096,
      "rpm": 7200, "sector_sizes": [512, 4096], "faults": ["ignore-mode-select"] },
    { "id": "dropms", "personality": "sas", "vendor": "SEAGATE", "model": "ST4000NM0025", "serial": "SZDMS001",
      "firmware": "E001", "wwn": "5000c500a1b2c3e7", "blocks": 195312500, "physical_block": 4096,
      "rpm": 7200, "sector_sizes": [512, 4096], "faults": ["drop-mode-select"] },
    { "id": "dropreg", "personality": "sata", "model": "ST4000NM0035", "serial": "SZDRG001", "firmware": "SN01",
      "blocks": 195312500, "physical_block": 4096, "rpm": 7200, "sector_sizes": [512, 4096],
      "amac": true, "faults": ["drop-registers"] },
    { "id": "plain", "personality": "sata", "model": "ST1000DM003", "serial": "PLAIN002", "firmware": "CC45",
      "blocks": 195312500, "rpm": 7200 }
  ]
}
RIG
F="$PROG --rig $TMP/frig.json"
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
lines() { [ -f "$J" ] && wc -l <"$J" || echo 0; }
field() { $F info -J "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['$2'])"; }

run $F info sim:sas
expect "info: the sizes offered (VPD B7h), the current one marked" 0 "^Sector sizes: +512 \(now\), 4096$"
run $F info -J sim:sata
json_check "info -J: the sizes offered (ATA log 2Fh)" "d['sector_sizes'] == [512, 4096]"
run $F info -J sim:plain
json_check "info -J: a drive that offers none says nothing" "'sector_sizes' not in d"

run $F format --yes sim:sas
expect "no size: usage" 2 "" "which size"
run $F format --sector-size 520 --yes sim:sas
expect "not a power of two: usage" 2 "" "not a sector size"
run $F format --sector-size 8192 --yes sim:sas
expect "a size not offered: usage, listing them" 2 "" "does not offer 8192-byte sectors \(it offers 512, 4096\)"
run $F format --sector-size 4096 --yes sim:plain
expect "a drive that offers none" 1 "" "offers no other sector size"
run $F format --sector-size 4096 sim:sas </dev/null
expect "no --yes and no terminal: refused" 3 "" "not confirmed"
run $F format --sector-size 512 --yes sim:sas
expect "the size it has: nothing to send" 0 "already 512-byte sectors; nothing to send"
[ "$(lines)" = 0 ] && pass "refusals journal nothing" || fail "refusals journal nothing" "$(cat "$J")"

run $F format --sector-size 4096 --dry-run sim:sas
expect "dry run (SAS): MODE SELECT of the length, fast FORMAT UNIT" 0 \
	"04 10 00 00 01 00  FORMAT UNIT FMTDATA=1 FFMT=01b IMMED=1"
run $F format --sector-size 4096 --dry-run sim:sata
expect "dry run (SATA): SET SECTOR CONFIGURATION EXT" 0 "85 07 00 5a 18 00 01 00 00 00 00 00 00 40 b2 00  SET SECTOR CONFIGURATION EXT"
[ "$(field sim:sas logical_block)" = 512 ] && [ "$(lines)" = 0 ] && pass "dry run sends nothing" || fail "dry run sends nothing"

run $F format --sector-size 4096 --yes sim:sas
expect "SAS to 4Kn" 0 "^sim:sas: now 4096-byte sectors: 24414062 blocks \(100.0 GB\), erased"
[ "$(field sim:sas logical_block)" = 4096 ] && [ "$(field sim:sas capacity_blocks)" = 24414062 ] &&
	pass "READ CAPACITY says 4096 x 24414062" || fail "READ CAPACITY says 4096 x 24414062" "$(field sim:sas logical_block)"
grep -q '"event":"sector-size","device":"sim:sas".*"block_len":512,.*"original_blocks":195312500,"target_blocks":24414062.*"to_block_len":4096' "$J" &&
	grep -q '"event":"sector-size-done","device":"sim:sas".*"to_block_len":4096' "$J" &&
	pass "journal: sector-size and -done with both lengths" || fail "journal: sector-size and -done with both lengths" "$(cat "$J")"
run $F limit --percent 50 --yes sim:sas
want=$(python3 -c "n=24414062*50//100; a=1048576//4096; print(n - n % a)")
expect "a limit counts 4096-byte blocks now" 0 "limited to $want blocks"
run $F format --sector-size 512 --yes sim:sas
expect "a limited disk is refused: restore first" 3 "" "is limited \(by scsi-resize.*restore sim:sas' first"
run $F restore --yes sim:sas
run $F format --sector-size 512 --yes sim:sas
expect "SAS back to 512e: the block count the drive has" 0 "now 512-byte sectors: 195312500 blocks"

run $F format --sector-size 4096 --yes -J sim:sata
json_check "SATA to 4Kn (-J)" "d['results'][0]['sector_size'] == 4096 and d['results'][0]['after_blocks'] == 24414062"
run $F info -J sim:sata
json_check "IDENTIFY: 4096-byte logical sectors, native and accessible maximum in them" \
	"d['logical_block'] == 4096 and d['capacity_blocks'] == 24414062 and d['native_blocks'] == 24414062"

# a bridge that drops MODE SELECT: the path check refuses before anything is sent
run $F format --sector-size 4096 --yes sim:bridge
expect "a path that drops MODE SELECT is found out after the fact: the size is read back" 1 "" "reports 512-byte sectors after the change, not 4096"

# paths that fail probe's pass-through check: refused before anything is sent (--force overrides)
n=$(lines)
run $F format --sector-size 4096 --yes sim:dropms
expect "a bridge that drops MODE SELECT: refused by the probe" 3 "" "failed the pass-through check \(mode-select: .*nothing sent \(--force overrides\)"
run $F format --sector-size 4096 --yes sim:dropreg
expect "a bridge that drops the ATA registers: refused by the probe" 3 "" "failed the pass-through check \(native-max: "
[ "$(lines)" = "$n" ] && [ "$(field sim:dropms logical_block)" = 512 ] && pass "probe refusals send and journal nothing" ||
	fail "probe refusals send and journal nothing" "$(cat "$J")"
