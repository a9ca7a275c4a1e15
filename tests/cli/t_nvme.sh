# NVMe drives on the simulator's NVMe personality: list, info, smart, selftest,
# bench, qualify; limit by namespace management (nvme-ns) and restore, what is
# refused and why, the journal, a limit killed half-way; format to another LBA
# format.

RIG="$TMP/nvme-rig.json"
cat >"$RIG" <<'EOF'
{ "drives": [
  { "id": "nv", "personality": "nvme", "model": "SIM NVMe 960", "serial": "NV0001",
    "firmware": "1.0", "blocks": 1875385008, "logical_block": 512, "wwn": "0x5000000000000a01",
    "nvme": { "lba_formats": [512, 4096], "percentage_used": 3 } },
  { "id": "fixed", "personality": "nvme", "model": "SIM NVMe FIXED", "serial": "NV0002",
    "firmware": "1.0", "blocks": 1000000, "logical_block": 4096,
    "nvme": { "namespace_management": false } },
  { "id": "worn", "personality": "nvme", "model": "SIM NVMe WORN", "serial": "NV0003",
    "firmware": "1.0", "blocks": 1000000, "logical_block": 512,
    "nvme": { "available_spare": 5, "available_spare_threshold": 10, "percentage_used": 104,
              "media_errors": 7 } }
] }
EOF
J="$SHORTSTROKE_STATE_DIR/journal.jsonl"
S="$PROG --rig $RIG"
blocks() { $S info -J "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
lines() { [ -f "$J" ] && wc -l <"$J" || echo 0; }

# --- identification --------------------------------------------------------------
run $S list -o DEVICE,TRAN,SIZE,NATIVE -r -n
expect "list: NVMe drives with their transport" 0 "^sim:nv nvme 960\\\\x20GB 960\\\\x20GB$"
run $S info -J sim:nv
json_check "info -J: namespace, formats, methods" 'd["tran"] == "nvme" and d["nvme"]["nsid"] == 1 and d["nvme"]["namespace_management"] and [f["bytes"] for f in d["nvme"]["lba_formats"]] == [512, 4096] and d["nvme"]["lba_formats"][0]["in_use"] and "nvme-ns" in d["methods"] and d["wwn"] == "eui.5000000000000a01" and d["native_blocks"] == 1875385008'
run $S info sim:fixed
expect "info: a controller without namespace management" 0 "^NVMe: +version 1.4, namespace 1, controller 1, Format NVM, self-test$"

# --- health -----------------------------------------------------------------------
run $S smart sim:nv
expect "smart: PASSED with spare and percentage used" 0 "Available spare: +100% \\(threshold 10%\\)"
run $S smart -j sim:nv
json_check "smart -j: smartctl's NVMe health keys" '(x := d["disks"][0]) and x["type"] == "nvme" and x["nvme_smart_health_information_log"]["percentage_used"] == 3 and x["nvme_smart_health_information_log"]["available_spare_threshold"] == 10 and x["smart_status"]["passed"] is True and x["temperature"]["current"] == 35'
run $S smart sim:worn
expect "smart: spare below its threshold FAILS" 1 "FAILED: critical warning 0x01: available spare below threshold"
run $S smart -j sim:worn
json_check "smart -j: the critical warning, smartctl's passed false" '(x := d["disks"][0]) and x["critical_warning"] == 1 and x["smart_status"]["passed"] is False and x["media_errors"] == 7'

run $S selftest --short --wait sim:nv
expect "selftest --short on NVMe" 0 "short self-test completed without error"
run $S selftest --conveyance sim:nv
expect "selftest --conveyance: NVMe has none" 1 "" "no conveyance self-test"
run $S smart -J sim:nv
json_check "the self-test log read back" '(t := d["disks"][0]["selftests"]) and t[0]["test"] == "short" and t[0]["result"] == "completed without error"'

run $S bench -w random-access -q 1 -t 1s -J sim:nv
json_check "bench on NVMe (virtual time)" 'd["results"][0]["virtual_time"] and d["results"][0]["runs"][0]["iops"] > 5000 and d["results"][0]["runs"][0]["errors"] == 0'
run $S qualify sim:nv
expect "qualify: the NVMe health fields" 0 "smart +PASS +PASSED, 35 C, spare 100% \\(threshold 10%\\), 3% used, 0 media errors"
run $S qualify sim:worn
expect "qualify: a worn NVMe drive fails" 1 "smart +FAIL +FAILED: critical warning"

# --- limit: what is refused ----------------------------------------------------------
n=$(lines)
run $S limit --percent 50 --yes sim:nv
expect "auto on NVMe: no HPA, nvme-ns named" 1 "" "an NVMe drive has no Host Protected Area; --method nvme-ns deletes the namespace"
run $S limit --method hpa --percent 50 --yes sim:nv
expect "hpa on NVMe refused" 1 "" "the hpa method is not for NVMe drives"
run $S limit --method nvme-ns --percent 50 --yes sim:fixed
expect "no namespace management: said plainly" 1 "" "does not offer namespace management \\(OACS bit 3\\).*no Host Protected Area"
run $S limit --method nvme-ns --percent 50 sim:nv </dev/null
expect "nvme-ns destroys data: not without --yes" 3 "" "not confirmed: limit destroys data"
run $S limit --method nvme-ns --percent 50 --dry-run sim:nv
expect "dry run: delete, create, attach shown" 0 "opc 0d nsid 1 cdw10 00000001 .*delete namespace 1.*" ""
printf '%s\n' "$OUT" | grep -q "create a namespace of 937691136 blocks, LBA format 0" && printf '%s\n' "$OUT" | grep -q "attach namespace 1 to controller 1" \
	&& pass "dry run: the create and the attach" || fail "dry run: the create and the attach" "$OUT"
[ "$(blocks sim:nv)" = 1875385008 ] && [ "$(lines)" = "$n" ] && pass "refusals and the dry run sent and journaled nothing" \
	|| fail "refusals and the dry run sent and journaled nothing" "$(blocks sim:nv) $(lines)"

# --- limit and restore ----------------------------------------------------------------
run $S limit --method nvme-ns --percent 50 --yes sim:nv
expect "limit by nvme-ns" 0 "^sim:nv: limited to 937691136 blocks \\(480 GB\\) by nvme-ns$"
[ "$(blocks sim:nv)" = 937691136 ] && pass "the namespace is smaller" || fail "the namespace is smaller" "$(blocks sim:nv)"
grep -q '"event":"limit-done","device":"sim:nv".*"method":"nvme-ns","block_len":512,"native_blocks":1875385008,"original_blocks":1875385008,"target_blocks":937691136' "$J" \
	&& pass "journal: method, block size, original and target" || fail "journal: method, block size, original and target" "$(tail -2 "$J")"
run $S list -o DEVICE,LIMITED -r -n
expect "list: limited by nvme-ns" 0 "^sim:nv 50.0%\\\\x20of\\\\x20960\\\\x20GB,\\\\x20nvme-ns$"
run $S restore --yes sim:nv
expect "restore creates the original namespace" 0 "^sim:nv: restored to 1875385008 blocks \\(960 GB\\) by nvme-ns$"
[ "$(blocks sim:nv)" = 1875385008 ] && pass "back to the whole NVM capacity" || fail "back to the whole NVM capacity" "$(blocks sim:nv)"

# --- stopped half-way ---------------------------------------------------------------------
run $S sim fault sim:nv abort:15
run $S limit --method nvme-ns --percent 25 --yes sim:nv
expect "attach refused after the delete: said what to do" 1 "" "the namespace was deleted, then attaching the new one failed.*'shortstroke restore sim:nv'"
run $S info -J sim:nv
json_check "no active namespace: capacity 0 of the NVM capacity" 'd["capacity_blocks"] == 0 and d["nvme"]["nsid"] == 0 and d["limited"]["method"] == "nvme-ns" and d["native_blocks"] == 1875385008'
tail -1 "$J" | grep -q '"event":"limit","device":"sim:nv"' && pass "the journal's record stays open" || fail "the journal's record stays open" "$(tail -1 "$J")"
run $S sim fault --clear sim:nv
run $S restore --yes sim:nv
expect "restore after a half-done limit" 0 "restored to 1875385008 blocks"
[ "$(blocks sim:nv)" = 1875385008 ] && pass "the unattached namespace replaced by the original" || fail "the unattached namespace replaced by the original" "$(blocks sim:nv)"

# killed while the drive deletes the namespace (its answer held back 3 s)
run $S sim fault sim:nv delay:3000:0d
k=$(python3 "$HERE/killat.py" records 1 "$J" -- $S limit --method nvme-ns --percent 30 --yes sim:nv)
tail -1 "$J" | grep -q '"event":"limit","device":"sim:nv"' && [ "$k" = killed ] \
	&& pass "killed after the journal's limit record" || fail "killed after the journal's limit record" "$k $(tail -1 "$J")"
run $S sim fault --clear sim:nv
sleep 3 # the killed process's delete has reached the drive
run $S restore --yes sim:nv
expect "restore after the kill" 0 "(restored to|already at) 1875385008 blocks"
[ "$(blocks sim:nv)" = 1875385008 ] && tail -1 "$J" | grep -q '"event":"restore-done"' \
	&& pass "the drive and the journal whole after the kill" || fail "the drive and the journal whole after the kill" "$(blocks sim:nv) $(tail -1 "$J")"

# --- format to another LBA format -------------------------------------------------------
run $S format --sector-size 4096 --dry-run sim:nv
expect "format --dry-run" 0 "opc 80 nsid 1 cdw10 00000001 .*LBA format 1 \\(4096 bytes; destroys all data\\)"
run $S format --lba-format 1 sim:nv </dev/null
expect "format: not without --yes" 3 "" "not confirmed"
run $S format --lba-format 7 --yes sim:nv
expect "format: an LBA format not offered" 2 "" "offers no LBA format 7 \\(it offers 0: 512 bytes, 1: 4096 bytes\\)"
run $S format --sector-size 4K --yes -J sim:nv
json_check "format to 4096-byte blocks" '(x := d["results"][0]) and x["ok"] and x["block_len"] == 4096 and x["blocks"] == 234423126'
run $S info -J sim:nv
json_check "info: 4096-byte blocks" 'd["logical_block"] == 4096 and d["capacity_blocks"] == 234423126 and d["nvme"]["lba_formats"][1]["in_use"]'
run $S format --sector-size 4096 --yes sim:fixed
expect "format: already in that format" 0 "already in LBA format 1 \\(4096 bytes\\); nothing sent"
run $S format --lba-format 0 --yes sim:nv
expect "format back to 512" 0 "formatted to LBA format 0: 1875385008 blocks of 512 bytes"
run $S format --lba-format 0 --yes sim:nonesuch
expect "format: an unknown drive" 2
