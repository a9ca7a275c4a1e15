# every fault the simulator can inject (docs/simulator.md), under every command
# that talks to a drive: a drive that fails is exit 1, never 2 (the usage
# error, for what the user typed). Each run starts from a fresh state; four
# fault cases run at a time (most of the time is the commands' polling).

FAULT_STATE=$SHORTSTROKE_STATE_DIR
FAULT_RES="$TMP/fault-results"
: >"$FAULT_RES"

ata_ops="ec 27 f8 37 f9 78 b1 b0 b2 2f 25 c8 4a"
scsi_ops="12 9e 25 5a 1a 55 15 04 03 4d 1d 1c 28 88 a0 95"
other_faults="ignore-mode-select medium-error:0-2000000 vanish-after:0 vanish-after:2
vanish-after:4 vanish-after:6 format-power-loss format-power-loss:0 frozen slow:3
smart-degrade:2000:10 smart-fail selftest-fail:1000 no-smart"

# fault_case DRIVE FAULT: each command on a fresh copy of the drive with the
# fault; one line per run in $FAULT_RES: "ok" or what went wrong
fault_case() {
	drive=$1 fault=$2 n=0
	for cmd in "info" "smart" "limit --percent 50 --yes" "limit -m scsi-format --percent 40 --yes" \
		"restore --yes" "selftest --short --wait" "zones" "bench --time 1s"; do
		n=$((n + 1))
		SHORTSTROKE_STATE_DIR="$TMP/fault-$drive-$fault-$n"
		export SHORTSTROKE_STATE_DIR
		case $cmd in
		restore*)
			# something to restore: a limit, then a power cycle (one change
			# per power cycle on ATA), then the fault
			"$PROG" --demo limit --percent 50 --yes "$drive" >/dev/null 2>&1
			"$PROG" --demo sim power-cycle "$drive" >/dev/null 2>&1 ;;
		*scsi-format*)
			# a format takes a while: only on SAS, with the faults of a format
			case $drive:$fault in
			*sata*|*:abort:[12]*|*:abort:[89a]*|*:smart*|*:selftest*|*:no-smart|*:slow*|*:medium*|*:frozen) continue ;;
			esac ;;
		esac
		if ! "$PROG" --demo sim fault "$drive" "$fault" >/dev/null 2>"$SHORTSTROKE_STATE_DIR.err"; then
			echo "sim fault $drive $fault: $(cat "$SHORTSTROKE_STATE_DIR.err")" >>"$FAULT_RES"
			continue
		fi
		# shellcheck disable=SC2086
		"$PROG" --demo $cmd "$drive" >/dev/null 2>"$SHORTSTROKE_STATE_DIR.err" </dev/null
		rc=$?
		# smart has two codes of its own: 5 WARNING, 6 no verdict
		if [ "$rc" = 2 ] || { [ "$rc" -gt 4 ] && ! { [ "$cmd" = smart ] && [ "$rc" -le 6 ]; }; }; then
			echo "$fault on $drive, $cmd: exit $rc: $(head -c 300 "$SHORTSTROKE_STATE_DIR.err")" >>"$FAULT_RES"
		else
			echo ok >>"$FAULT_RES"
		fi
		rm -rf "$SHORTSTROKE_STATE_DIR" "$SHORTSTROKE_STATE_DIR.err"
	done
}

FAULT_JOBS=0
fault_bg() {
	fault_case "$@" &
	FAULT_JOBS=$((FAULT_JOBS + 1))
	if [ "$FAULT_JOBS" -ge 4 ]; then
		wait
		FAULT_JOBS=0
	fi
}
for op in $ata_ops; do fault_bg sim:sata250 "abort:$op"; done
for op in $scsi_ops; do fault_bg sim:sas15k "abort:$op"; done
# the host-managed SMR disk: AMAC and ZAC
for op in 78 4a ec b0; do fault_bg sim:smr "abort:$op"; done
for f in $other_faults; do
	fault_bg sim:sata250 "$f"
	fault_bg sim:sas15k "$f"
done
wait
SHORTSTROKE_STATE_DIR=$FAULT_STATE
export SHORTSTROKE_STATE_DIR
FAULT_RUNS=$(grep -c . "$FAULT_RES")
if ! grep -qv '^ok$' "$FAULT_RES" && [ "$FAULT_RUNS" -gt 300 ]; then
	pass "faults: $FAULT_RUNS fault runs, none exits 2 (usage) or above 4"
else
	fail "faults: a drive fault is not a usage error ($FAULT_RUNS runs)" "$(grep -v '^ok$' "$FAULT_RES")"
fi

# the messages name what happened, not a guess
SHORTSTROKE_STATE_DIR="$TMP/fault-msg1"
export SHORTSTROKE_STATE_DIR
"$PROG" --demo limit --percent 50 --yes sim:smr >/dev/null 2>&1
"$PROG" --demo sim power-cycle sim:smr >/dev/null
"$PROG" --demo sim fault sim:smr abort:78 >/dev/null
run "$PROG" --demo restore --yes sim:smr
expect "faults: an AMAC abort at restore is an abort, not a known freeze" 1 "" \
	"aborted SET ACCESSIBLE MAX ADDRESS .*ABRT.* gives no reason"
if printf '%s' "$ERR" | grep -q "often by the BIOS"; then
	fail "faults: an AMAC abort is not blamed on the BIOS" "$ERR"
else
	pass "faults: an AMAC abort is not blamed on the BIOS"
fi
SHORTSTROKE_STATE_DIR="$TMP/fault-msg2"
"$PROG" --demo sim fault sim:sas15k format-power-loss >/dev/null
run "$PROG" --demo limit --method scsi-format --percent 40 --yes sim:sas15k
expect "faults: a format lost after MODE SELECT says the block count changed" 1 "" \
	"format failed after the block count had been set to 351637504 \\(MODE SELECT\\): the drive lost power"
SHORTSTROKE_STATE_DIR="$TMP/fault-msg3"
"$PROG" --demo sim fault sim:sata250 vanish-after:6 >/dev/null
run "$PROG" --demo selftest --short --wait sim:sata250
expect "faults: vanish-after:6 under selftest --wait on ATA is a failure" 1 "" "does not answer"
SHORTSTROKE_STATE_DIR="$TMP/fault-msg4"
"$PROG" --demo sim fault sim:sas15k vanish-after:6 >/dev/null
run "$PROG" --demo selftest --short --wait sim:sas15k
expect "faults: vanish-after:6 under selftest --wait on SAS is a failure" 1 "" "does not answer"
SHORTSTROKE_STATE_DIR=$FAULT_STATE
export SHORTSTROKE_STATE_DIR

# DCO under an HPA: the drive shows the HPA, so that is the reason given
SHORTSTROKE_STATE_DIR="$TMP/fault-msg5"
run "$PROG" --demo limit -m dco --percent 50 --yes sim:sata-hpa
# (checked before anything is sent: the drive would abort DCO SET under an HPA)
expect "faults: DCO refused under an HPA says the HPA is the reason" 1 "" \
	"an HPA is in effect .*restore the HPA first"
SHORTSTROKE_STATE_DIR="$TMP/fault-msg6"
"$PROG" --demo sim fault sim:sata250 abort:b1 >/dev/null
# (nothing journaled: --method dco needs --to-native, else it is refused before anything is sent)
run "$PROG" --demo restore --to-native -m dco --yes sim:sata250
expect "faults: a DCO abort is an abort, not a known freeze" 1 "" \
	"aborted DEVICE CONFIGURATION RESTORE \\(ATA ABRT\\) and gives no reason"
SHORTSTROKE_STATE_DIR=$FAULT_STATE
export SHORTSTROKE_STATE_DIR
