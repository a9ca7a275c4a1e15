# zones: the ZAC zones of the host-managed SMR disk, the notch pages of the SAS disks,
# and a clear refusal where a drive reports nothing.

# --- the host-managed SMR disk (REPORT ZONES EXT through SAT) -----------------------------
run "$PROG" --demo zones sim:smr
expect "zones on the SMR disk" 0 "^Zones: +52156 \(268 MB each\)$"
expect "summary by type" 0 "^By type: +524 conventional, 51632 seq-required$"
expect "summary by condition" 0 "^By condition: +524 not-write-pointer, 51632 empty$"
golden zones_smr.txt
run "$PROG" --demo zones -J sim:smr
json_check "zones -J: the summary" \
	"d['zoned'] == 'host-managed' and d['zones'] == 52156 and d['zone_blocks'] == 65536 and d['types'] == {'conventional': 524, 'seq_required': 51632} and d['conditions'] == {'not_write_pointer': 524, 'empty': 51632} and d['max_lba'] == 3418095615 and d['written_blocks'] == 0 and 'zone_list' not in d"
run "$PROG" --demo zones --all -r -n -o START,TYPE,CONDITION,WP sim:smr
expect "zones --all" 0 "^0 conventional not-write-pointer $"
n=$(printf '%s\n' "$OUT" | grep -c -E '^[0-9]+ (conventional|seq-required) ')
[ "$n" = 52156 ] && pass "--all: one row per zone" || fail "--all: one row per zone" "$n rows"
printf '%s\n' "$OUT" | grep -q "^34340864 seq-required empty 34340864$" \
	&& pass "--all: the first sequential zone, its write pointer at its start" \
	|| fail "--all: the first sequential zone, its write pointer at its start"
run "$PROG" --demo zones --all -J sim:smr
json_check "zones --all -J: every zone" \
	"len(d['zone_list']) == 52156 and d['zone_list'][524] == {'start': 34340864, 'length': 65536, 'type': 'seq-required', 'condition': 'empty', 'wp': 34340864} and d['zone_list'][0]['wp'] is None"

# --- SAS disks: geometry pages and the notch table ---------------------------------------------
run "$PROG" --demo zones sim:sas15k
expect "zones on a SAS disk: the notch page" 0 "^Notch page \(0Ch\): +18 recording zones \(notches\), LBA boundaries$"
expect "rigid geometry" 0 "^Rigid geometry \(04h\): .* 15000 rpm$"
expect "the notch table" 0 "^ +18 +840931368 +879097967 "
golden zones_sas15k.txt
run "$PROG" --demo zones -J sim:sas4kn
json_check "zones -J on the 4Kn SAS disk: 30 contiguous notches over the whole disk" \
	"len(n := d['notch_list']) == d['notches'] == 30 and n[0]['first-lba'] == 0 and n[-1]['last-lba'] == 488378645 and all(n[i]['first-lba'] == n[i-1]['last-lba'] + 1 for i in range(1, 30)) and all(n[i]['spt'] < n[i-1]['spt'] for i in range(1, 30)) and d['bytes_per_sector'] == 4096"
run "$PROG" --demo zones -J sim:sas15k
json_check "listing the notches puts the active notch back (sizes shrink inwards)" \
	"len(n := d['notch_list']) == 18 and all(n[i]['size'] <= n[i-1]['size'] for i in range(1, len(n)))"

# --- nothing to report ---------------------------------------------------------------------------
run "$PROG" --demo zones sim:sata250
expect "a conventional SATA disk: a clear message, exit 1" 1 "" \
	"^shortstroke: sim:sata250: reports no zone information: not a zoned drive, and no geometry mode pages"
[ -z "$OUT" ] && pass "no empty table pretending all is well" || fail "no empty table pretending all is well" "$OUT"

# --- bad input -------------------------------------------------------------------------------------
run "$PROG" --demo zones
expect "zones without a device" 2 "" "name a device"
run "$PROG" --demo zones sim:smr sim:sas15k
expect "zones: one device at a time" 2 "" "one device at a time"
run "$PROG" --demo zones --all -o START,NOPE sim:smr
expect "zones: unknown column" 2 "" "NOPE"
run "$PROG" --demo zones sim:nosuch
expect "zones: unknown device" 2 "" "nosuch"
run "$PROG" zones --help
expect "zones --help" 0 "notches"

# --- zones --measure: the measured profile beside what the drive reports -------------------------
run "$PROG" --demo zones --measure --points 40 sim:sata250
expect "zones --measure on a SATA disk that reports no zones" 0 "^Read rate across the disk, MB/s \\(40 samples\\):$"
expect "zones --measure: the note" 0 "^Note: +the drive reports no geometry mode pages .*the profile below is measured$"
expect "zones --measure: the zone table" 0 "^ZONE +START +END +SAMPLES +AVG-MB/S +MIN-MB/S +MAX-MB/S$"
expect "zones --measure: a recommended cut" 0 "recommended$"
run "$PROG" --demo zones --measure -p 30 sim:sas15k
expect "zones --measure on a SAS disk: the notches and the profile" 0 "^ +18 +840931368 +879097967 "
expect "zones --measure on a SAS disk: the chart" 0 "^Read rate across the disk, MB/s \\(30 samples\\):$"
run "$PROG" --demo zones --measure -p 30 -J sim:sas15k
json_check "zones --measure -J: measured points and the profile" \
	"len(d['measured']) == 30 and d['measured'][0]['lba'] == 0 and all(p['mib_per_s'] > 0 for p in d['measured']) and len(d['profile']['zones']) == len(d['profile']['cuts']) and 150 < d['profile']['outer_mbps'] <= 157 and len(d['notch_list']) == 18"
run "$PROG" --demo zones --points 30 sim:sas15k
expect "zones --points without --measure" 2 "" "--points goes with --measure"
run "$PROG" --demo zones --measure --points 1 sim:sas15k
expect "zones --measure --points 1" 2 "" "--points '1': give 2 to 10000"
