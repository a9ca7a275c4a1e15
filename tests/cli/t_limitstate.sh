# every limited disk shows as limited, with its original size and method:
# from the drive where it can say (HPA, AMAC, DCO), from the journal where it
# cannot (a SCSI resize or format, the partition method); and what the planner
# and limit --percent take as the full size

lim() { "$PROG" --demo list -o DEVICE,LIMITED -n | awk -v d="$1" '$1 == d { $1 = ""; sub(/^ /, ""); print }'; }
limcheck() { # NAME DEVICE EXPECTED
	got=$(lim "$2")
	[ "$got" = "$3" ] && pass "$1" || fail "$1" "LIMITED '$got', expected '$3'"
}

"$PROG" --demo limit --size 90GB --yes sim:sas15k >/dev/null
limcheck "list: a SCSI resize shows, from the journal" sim:sas15k "20.0% of 450 GB, scsi-resize (journal)"
"$PROG" --demo limit -m dco --size 200GB --yes sim:sata250 >/dev/null
limcheck "list: DCO shows, from the drive's DCO maximum" sim:sata250 "80.0% of 250 GB, dco"
"$PROG" --demo limit -m partition --size 100GB --yes sim:sas4kn >/dev/null
limcheck "list: the partition method shows, from the journal" sim:sas4kn "5.0% of 2.00 TB, partition (journal)"
"$PROG" --demo limit --percent 50 --yes sim:smr >/dev/null
limcheck "list: AMAC shows, from the drive" sim:smr "50.0% of 14.0 TB, amac"
limcheck "list: an HPA the disk came with shows" sim:sata-hpa "50.0% of 500 GB, hpa"
limcheck "list: a disk never limited" sim:sata320 "no"

run "$PROG" --demo list -J
json_check "list -J: limited is one type, an object or null" \
	"all(x['limited'] is None or isinstance(x['limited'], dict) for x in d['drives'])"
json_check "list -J: the resized SAS disk, journal, 450 GB original" \
	"[(x['limited']['method'], x['limited']['source'], x['limited']['original_blocks'], x['limited']['limit_blocks']) for x in d['drives'] if x['device'] == 'sim:sas15k'] == [('scsi-resize', 'journal', 879097968, 175779840)]"
json_check "list -J: the partition method: the partition is what is in use" \
	"[(x['limited']['method'], x['limited']['limit_bytes'] <= 100 * 10**9 < x['limited']['original_bytes']) for x in d['drives'] if x['device'] == 'sim:sas4kn'] == [('partition', True)]"
json_check "list -J: DCO from the drive, 250 GB original" \
	"[(x['limited']['method'], x['limited']['source'], x['limited']['original_blocks']) for x in d['drives'] if x['device'] == 'sim:sata250'] == [('dco', 'drive', 488397168)]"

run "$PROG" --demo info sim:sas15k
expect "info: limited, by what, from where" 0 \
	"^Limited: +yes, 20.0% of 450 GB \\(879097968 blocks\\) in use, by scsi-resize \\(from the journal"
run "$PROG" --demo info -J sim:sas15k
json_check "info -J: limited object" "d['limited']['method'] == 'scsi-resize' and d['limited']['source'] == 'journal'"
run "$PROG" --demo info -J sim:sata320
json_check "info -J: not limited is null, not false" "d['limited'] is None"

# what a percentage and the planner take as the full disk
run "$PROG" --demo limit --dry-run --percent 50 sim:sas15k
expect "limit --percent on a resized SAS disk: of the journaled original" 0 \
	"-> 439547904 blocks \\(225 GB, 50.0% of 450 GB, the journaled original\\)"
run "$PROG" --demo limit --dry-run --percent 40 sim:sata-hpa
expect "limit --percent on an ATA disk: of the native maximum" 0 "40.0% of 500 GB\\) by hpa"
run "$PROG" --demo plan --disks 2 --level 0 --stroke 20% -o LEVEL,DISKS,STROKE,CAPACITY -n sim:sas15k
expect "plan: a resized SAS disk is planned on its journaled original" 0 "180 GB" \
	"limited now: the plan uses the journaled original: sim:sas15k \(175779840 of 879097968 blocks\)"
if printf '%s' "$ERR" | grep -q "uses its current capacity"; then
	fail "plan: not on the current 90 GB" "$ERR"
else
	pass "plan: not on the current 90 GB"
fi

# restored: no longer limited
"$PROG" --demo restore --yes sim:sas15k >/dev/null
limcheck "list: restored SCSI disk is no longer limited" sim:sas15k "-"
"$PROG" --demo restore --yes sim:sas4kn >/dev/null
limcheck "list: restored partition disk is no longer limited" sim:sas4kn "-"

# a format: the drive cannot say either
"$PROG" --demo limit -m scsi-format --size 100GB --yes sim:sas15k >/dev/null
limcheck "list: a SCSI format shows, from the journal" sim:sas15k "22.2% of 450 GB, scsi-format (journal)"

# neither a native max nor a journal: the current capacity, said so
SHORTSTROKE_STATE_DIR="$TMP/limitstate-fresh"
run "$PROG" --demo limit --dry-run --percent 50 sim:sas15k
expect "limit --percent with nothing to go by: of the current capacity, said so" 0 \
	"50.0% of 450 GB, the current capacity\\)"
SHORTSTROKE_STATE_DIR="$TMP/state"

# DCO sets the native max itself: its full size is the DCO maximum, and the
# same limit run again is a no-op, not "beyond the native maximum"
SHORTSTROKE_STATE_DIR="$TMP/limitstate-dco"
"$PROG" --demo limit -m dco --size 200GB --yes sim:sata250 >/dev/null
run "$PROG" --demo limit -m dco --size 200GB --yes sim:sata250
expect "limit -m dco run twice: the second is a no-op" 0 "already limited to 390623232 blocks" ""
run "$PROG" --demo limit --dry-run -m dco --percent 90 sim:sata250
expect "limit -m dco --percent: of the DCO maximum, said so" 0 \
	"90.0% of 250 GB, the DCO maximum\\) by dco"
SHORTSTROKE_STATE_DIR="$TMP/state"
