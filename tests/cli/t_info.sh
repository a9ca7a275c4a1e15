# info on every demo drive, text and JSON (the per-test protect file named as PROTECT_FILE)

for id in sas15k sata250 sata320 sas4kn smr sata-hpa; do
	run "$PROG" --demo info "sim:$id"
	expect "info sim:$id" 0 "^Device: +sim:$id$"
	OUT=$(printf '%s\n' "$OUT" | sed "s|$SHORTSTROKE_PROTECT_FILE|PROTECT_FILE|")
	golden "info_$id.txt"
	run "$PROG" --demo info -J "sim:$id"
	expect "info -J sim:$id" 0
	OUT=$(printf '%s\n' "$OUT" | sed "s|$SHORTSTROKE_PROTECT_FILE|PROTECT_FILE|")
	golden "info_$id.json"
done

run "$PROG" --demo info -J sim:sas15k
json_check "info -J: SAS disk fields" \
	"d['tran'] == 'sas' and d['capacity_blocks'] == 879097968 and d['logical_block'] == 512 and d['rpm'] == 15000 and 'scsi-resize' in d['methods'] and 'scsi-format' in d['methods']"
run "$PROG" --demo info -J sim:sata250
json_check "info -J: SATA disk: HPA and DCO, native max reported" \
	"d['tran'] == 'sata' and 'hpa' in d['methods'] and 'dco' in d['methods'] and d['native_blocks'] == 488397168 and d['capacity_bytes'] == 488397168 * 512"
run "$PROG" --demo info -J sim:sata320
json_check "info -J: security frozen" "d['security']['supported'] and d['security']['frozen']"
run "$PROG" --demo info -J sim:sas4kn
json_check "info -J: 4Kn" "d['logical_block'] == 4096 and d['physical_block'] == 4096"
run "$PROG" --demo info -J sim:smr
json_check "info -J: host-managed SMR with AMAC" "d['zoned'] == 'host-managed' and 'amac' in d['methods']"
run "$PROG" --demo info -J sim:sata-hpa
json_check "info -J: an HPA already set" \
	"d['limited']['method'] == 'hpa' and d['limited']['source'] == 'drive' and d['native_blocks'] > d['capacity_blocks']"
