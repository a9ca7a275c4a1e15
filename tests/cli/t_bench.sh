# bench and profile on the demo drives: the shape of the table and the
# JSON, the model's figures (virtual time, so deterministic enough to
# bound), spans, bad input (exit 2 before any I/O) and the write safety.

jq_() { printf '%s' "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# --- the table ---------------------------------------------------------------
run "$PROG" --demo bench -w random-access --qd 1,4 --time 2s sim:sas15k
expect "bench: table" 0 "^DEVICE +WORKLOAD +QD +BS +MB/S +IOPS +AVG-MS +P50-MS +P99-MS$"
[ "$(printf '%s\n' "$OUT" | grep -c '^sim:sas15k random-access')" = 2 ] &&
	pass "bench: one row per queue depth" || fail "bench: one row per queue depth" "$OUT"
printf '%s\n' "$OUT" | grep -q "^sim:sas15k: random-access, 2 queue depths, 2s each (virtual time)$" &&
	pass "bench: summary line" || fail "bench: summary line" "$OUT"

run "$PROG" --demo bench -w random-access --qd 1 --time 2s -o QD,IOPS,P90-MS,P99.9-MS,MAX-MS,VIRTUAL -n sim:sas15k
expect "bench: -o columns" 0 "^ *1 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +yes$"
run "$PROG" --demo bench --list-columns
expect "bench: --list-columns" 0 "P99.9-MS"

# --- JSON: numbers, and the model (docs/models.md's access time, 15K450: QD1 175-185 IOPS) ----------
run "$PROG" --demo bench -w random-access --qd 1,32 --time 10s -J sim:sas15k
expect "bench -J" 0
json_check "bench -J: shape" 'd["results"][0]["ok"] and len(d["results"][0]["runs"]) == 2 and d["results"][0]["virtual_time"] is True and d["results"][0]["block_size"] == 4096'
json_check "bench -J: numbers" 'all(isinstance(r[k], (int, float)) for r in d["results"][0]["runs"] for k in ("mbps","iops","lat_avg_ms","lat_p50_ms","lat_p99_ms","lat_max_ms","cpu_s"))'
json_check "bench: 15K QD1 random 4K is 170-195 IOPS" '170 <= d["results"][0]["runs"][0]["iops"] <= 195'
json_check "bench: QD32 gives more IOPS than QD1 (NCQ)" 'd["results"][0]["runs"][1]["iops"] > 2 * d["results"][0]["runs"][0]["iops"]'
full_qd1=$(jq_ 'd["results"][0]["runs"][0]["iops"]')

# --- span: the outer 10 % without a limit -----------------------------------------
run "$PROG" --demo bench -w random-access --qd 1 --time 10s --span 10% -J sim:sas15k
expect "bench --span 10%" 0
json_check "bench --span: 10 % of the disk" 'abs(d["results"][0]["span_percent"] - 10) < 0.01'
json_check "bench --span: faster than the full stroke" "d['results'][0]['runs'][0]['iops'] > 1.3 * $full_qd1"
run "$PROG" --demo info -J sim:sas15k
json_check "bench --span sets no limit" 'd["capacity_blocks"] == 879097968'
run "$PROG" --demo bench --qd 1 --time 1s --span 100GB -J sim:sas15k
json_check "bench --span 100GB" 'd["results"][0]["span_blocks"] == 100 * 10**9 // 512'

# --- profiles and workloads ---------------------------------------------------------
run "$PROG" --demo bench -w webserver --qd 4 --time 2s -J sim:sata250
json_check "bench webserver: mixed sizes, reads only" 'd["results"][0]["block_size"] is None and d["results"][0]["runs"][0]["writes"] == 0'
run "$PROG" --demo bench -w seq-read --qd 1 --time 5s -J sim:sas15k
json_check "bench seq-read on the outer zone: about 155 MB/s" '145 < d["results"][0]["runs"][0]["mbps"] < 158'

# --- bad input: exit 2 before any I/O ------------------------------------------------
run "$PROG" --demo bench --qd 0 sim:sas15k
expect "bench --qd 0" 2 "" "--qd '0': give queue depths of 1 to 256"
run "$PROG" --demo bench --qd 1,257 sim:sas15k
expect "bench --qd 257" 2 "" "queue depths of 1 to 256"
run "$PROG" --demo bench --qd 1,,4 sim:sas15k
expect "bench --qd 1,,4" 2
run "$PROG" --demo bench --time 0 sim:sas15k
expect "bench --time 0" 2 "" "--time '0'"
run "$PROG" --demo bench --time 5x sim:sas15k
expect "bench --time 5x" 2
run "$PROG" --demo bench --bs 3000 sim:sas15k
expect "bench --bs 3000" 2 "" "block sizes of 512 B to 4 MiB"
run "$PROG" --demo bench --bs 8M sim:sas15k
expect "bench --bs 8M" 2
run "$PROG" --demo bench -w random-access --bs 512 --time 1s sim:sas4kn
expect "bench --bs 512 on a 4Kn disk" 2 "" "not a multiple of the disk's 4096-byte logical block"
run "$PROG" --demo bench -w fileserver --bs 4K sim:sas15k
expect "bench --bs with a profile" 2 "" "fixes its own request sizes"
run "$PROG" --demo bench -w oltp sim:sas15k
expect "bench unknown workload" 2 "" "unknown workload 'oltp'"
run "$PROG" --demo bench --span 1TB --time 1s sim:sas15k
expect "bench --span beyond the disk" 2 "" "--span 1.00 TB is beyond the disk \\(450 GB\\)"
run "$PROG" --demo bench --span 0 sim:sas15k
expect "bench --span 0" 2
run "$PROG" --demo bench
expect "bench without a device" 2 "" "name at least one device"
run "$PROG" --demo bench --time 1s sim:nope
expect "bench unknown drive" 2 "" "no such drive"

# --- writes: --destructive, confirmation, protection ------------------------------------
run "$PROG" --demo bench -w seq-write --time 1s sim:sas15k
expect "bench seq-write needs --destructive" 2 "" "add --destructive"
run "$PROG" --demo bench -w database --time 1s sim:sas15k
expect "bench database (writes) needs --destructive" 2 "" "add --destructive"
run "$PROG" --demo bench -w seq-write --destructive --time 1s --span 16M sim:sas15k </dev/null
expect "bench --destructive without --yes in a script: refused" 3 "" "not confirmed.*pass --yes"
run "$PROG" --demo bench -w database --destructive --yes --qd 4 --time 1s --span 16M -J sim:sas15k
expect "bench --destructive --yes" 0
json_check "bench database: reads and writes" 'd["results"][0]["runs"][0]["writes"] > 0 and d["results"][0]["runs"][0]["reads"] > d["results"][0]["runs"][0]["writes"]'
"$PROG" --demo protect add sim:sata250 >/dev/null
run "$PROG" --demo bench -w seq-write --destructive --yes --time 1s --span 16M sim:sata250
expect "bench --destructive on a protected disk: refused" 3 "" "refused, the disk is protected"
run "$PROG" --demo bench -w seq-read --qd 1 --time 1s sim:sata250
expect "bench reads a protected disk (reading harms nothing)" 0 "^sim:sata250 seq-read"
"$PROG" --demo protect remove sim:sata250 >/dev/null

# --- several disks at once -----------------------------------------------------------------
run "$PROG" --demo bench -w random-access --qd 1 --time 1s -J sim:sas15k sim:sata250 sim:sas4kn
json_check "bench: three disks, one result each" 'len(d["results"]) == 3 and all(r["ok"] for r in d["results"])'

# --- profile ------------------------------------------------------------------------------
run "$PROG" --demo profile --points 60 sim:sas15k
expect "profile: chart" 0 "^Read rate across the disk, MB/s \\(60 samples\\):$"
expect "profile: zones table" 0 "^ZONE +START +END +SAMPLES +AVG-MB/S +MIN-MB/S +MAX-MB/S$"
expect "profile: cuts table" 0 "^CUT +KEEP +KEEP-% +WORST-MB/S +WORST-% +AVG-MB/S +BLOCKS +NOTE$"
expect "profile: a recommended cut" 0 "recommended$"
expect "profile: summary" 0 "^sim:sas15k: 60 samples, [0-9]+ zones, swept in .* \\(virtual time\\)$"
run "$PROG" --demo profile --points 60 -J sim:sas15k
json_check "profile -J: samples" 'len(d["results"][0]["profile"]["samples"]) == 60'
json_check "profile -J: zones and cuts" 'len(d["results"][0]["profile"]["zones"]) > 3 and len(d["results"][0]["profile"]["cuts"]) == len(d["results"][0]["profile"]["zones"])'
json_check "profile -J: outer and inner rates of the 15K model" '150 < d["results"][0]["profile"]["outer_mbps"] <= 157 and 95 < d["results"][0]["profile"]["inner_mbps"] < 100'
json_check "profile -J: the recommended cut keeps 90 %" 'd["results"][0]["profile"]["cuts"][d["results"][0]["profile"]["recommended_cut"]]["worst_percent"] >= 90'
run "$PROG" --demo profile --points 1 sim:sas15k
expect "profile --points 1" 2 "" "--points '1': give 2 to 10000"
run "$PROG" --demo profile --sample 5K sim:sas15k
expect "profile --sample 5K" 2
run "$PROG" --demo profile sim:sas15k sim:sata250
expect "profile: one device" 2 "" "name one device"

# --- writes on a block device that is not a SCSI/ATA disk (a loop device) ---------
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	img="$TMP/raw.img"
	truncate -s 64M "$img"
	loop=$(losetup -f --show "$img" 2>/dev/null)
	if [ -n "$loop" ]; then
		run "$PROG" bench -w seq-write --qd 4 --time 200ms --destructive --yes "$loop"
		expect "bench: seq-write on a free loop device" 0 "^$loop +seq-write +4 +1M "
		# back to back: the device is released when a run ends (the ring's
		# registered file used to keep it claimed a moment longer: about
		# half of such runs found it in use)
		n=0
		for i in 1 2 3 4 5 6 7 8; do
			"$PROG" bench -w seq-write --qd 4 --time 50ms --destructive --yes "$loop" \
				>/dev/null 2>"$TMP/b2b" && n=$((n + 1))
		done
		[ "$n" = 8 ] && pass "bench: 8 write runs back to back all open the device" ||
			fail "bench: 8 write runs back to back all open the device" "$n of 8" \
				"$(cat "$TMP/b2b")"
		run "$PROG" bench -w seq-write --time 200ms --destructive "$loop" </dev/null
		expect "bench: a loop device is not written without --yes" 3 "" "not confirmed"
		losetup -d "$loop"
		mkfs.ext4 -q -F "$img" >/dev/null 2>&1
		loop=$(losetup -f --show "$img" 2>/dev/null)
		before=$(md5sum "$img" | cut -d' ' -f1)
		run "$PROG" bench -w seq-write --time 200ms --destructive --yes "$loop"
		expect "bench: a loop device with a filesystem is refused" 3 "" \
			"refused, the device is in use: filesystem ext4 \\(--force overrides\\)"
		after=$(md5sum "$img" | cut -d' ' -f1)
		[ "$before" = "$after" ] && pass "bench: refused loop device bytes unchanged" ||
			fail "bench: refused loop device bytes unchanged"
		mnt="$TMP/mnt"
		mkdir -p "$mnt"
		if mount "$loop" "$mnt" 2>/dev/null; then
			run "$PROG" bench -w seq-write --time 200ms --destructive --yes --force "$loop"
			expect "bench: a mounted loop device is refused even with --force" 3 "" \
				"refused, the device is in use: mounted at $mnt"
			umount "$mnt"
		fi
		run "$PROG" bench -w seq-write --time 200ms --destructive --yes --force "$loop"
		expect "bench: --force writes over a filesystem signature" 0 "^$loop +seq-write "
		losetup -d "$loop"
	fi
fi
