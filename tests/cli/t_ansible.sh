# contrib/ansible: the shortstroke role run by ansible-playbook against three
# hosts (all connection: local), each with its own rig, state directory and
# protect file. h2 has a disk with a failing SMART health, h3 a protected
# one. Qualify (fetched reports, fleet summary, h2 fails alone), limit in
# check mode (nothing sent), limit, a re-run (unchanged), the refusal on h3.
# Then apply of a RAID 1 plan on two more drives per host (md is
# tests/cli/fake-mdadm.sh through shortstroke_environment): check mode, the
# apply (h1 with mkfs), h3 refused (a protected member), a re-run, the undo.

if ! command -v ansible-playbook >/dev/null 2>&1; then
	fail "ansible-playbook is installed (tests/deps.sh check: ansible-core)"
else
# the collection shortstroke.disks as ansible finds it: ansible_collections/NS/NAME
mkdir -p "$TMP/collections/ansible_collections/shortstroke"
ln -s "$(cd "$HERE/../../contrib/ansible" && pwd)" "$TMP/collections/ansible_collections/shortstroke/disks"
export ANSIBLE_COLLECTIONS_PATH="$TMP/collections" ANSIBLE_HOME="$TMP/ansible" ANSIBLE_LOCAL_TEMP="$TMP/ansible/tmp" \
	ANSIBLE_REMOTE_TEMP="$TMP/ansible/rtmp" ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 \
	ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_STDOUT_CALLBACK=default \
	ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
for h in h1 h2 h3; do
	mkdir -p "$TMP/$h/bin"
	smart=true
	[ $h = h2 ] && smart='true, "faults": ["smart-degrade:2000"]'
	cat >"$TMP/$h/rig.json" <<RIG
{ "drives": [
  { "id": "a", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "$h-S1",
    "firmware": "N003", "wwn": "5000c5000000000${h#h}", "blocks": 4194304, "smart": true },
  { "id": "b", "personality": "sata", "model": "WDC WD20EFRX-68EUZN0", "serial": "$h-W1",
    "firmware": "82.00A82", "blocks": 8388608, "hpa": true, "smart": $smart }
] }
RIG
	# the drives of the apply tests, and a sysroot whose /proc/mdstat has md
	cat >"$TMP/$h/arig.json" <<RIG
{ "drives": [
  { "id": "c1", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "$h-C1",
    "firmware": "N003", "wwn": "5000c5000000010${h#h}", "blocks": 4194304 },
  { "id": "c2", "personality": "sas", "vendor": "SEAGATE", "model": "ST900MM0168", "serial": "$h-C2",
    "firmware": "N003", "wwn": "5000c5000000020${h#h}", "blocks": 4194304 }
] }
RIG
	mkdir -p "$TMP/$h/root/proc" "$TMP/$h/fbin"
	echo "Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]" >"$TMP/$h/root/proc/mdstat"
	"$PROG" --rig "$TMP/$h/arig.json" --state-dir "$TMP/$h/state" plan --level 1 --stroke 25% \
		sim:c1 sim:c2 -O "$TMP/$h/r1.json" >/dev/null 2>&1
done
# a fake mkfs for h1's --mkfs ext4
printf '#!/bin/sh\necho "mkfs $*" >>"%s/h1/mdadm.log"\n' "$TMP" >"$TMP/h1/fbin/mkfs.ext4"
chmod +x "$TMP/h1/fbin/mkfs.ext4"
: >"$TMP/h1/protect.conf"; : >"$TMP/h2/protect.conf"
echo "serial:h3-W1" >"$TMP/h3/protect.conf"
python3 - "$TMP" "$PROG" "$HERE/fake-mdadm.sh" >"$TMP/inventory.yml" <<'PY'
import json, os, sys
tmp, prog, mdadm = sys.argv[1:4]
def array(h):
    a = dict(name='fast0', plan='%s/%s/r1.json' % (tmp, h))
    if h == 'h1':
        a.update(mkfs='ext4', conf='%s/h1/mdadm.conf' % tmp)
    return a
hosts = {h: dict(shortstroke_rig='%s/%s/rig.json' % (tmp, h),
                 shortstroke_state_dir='%s/%s/state' % (tmp, h),
                 shortstroke_protect_file='%s/%s/protect.conf' % (tmp, h),
                 shortstroke_bin='%s/%s/bin/shortstroke' % (tmp, h),
                 apply_rig='%s/%s/arig.json' % (tmp, h), apply_sysroot='%s/%s/root' % (tmp, h),
                 apply_arrays=[array(h)],
                 shortstroke_environment=dict(
                     SHORTSTROKE_MDADM=mdadm, SHORTSTROKE_MODPROBE='false',
                     FAKE_MDADM_LOG='%s/%s/mdadm.log' % (tmp, h),
                     FAKE_MDADM_STATE='%s/%s/md.state' % (tmp, h),
                     PATH='%s/%s/fbin:%s' % (tmp, h, os.environ['PATH'])))
         for h in ('h1', 'h2', 'h3')}
print(json.dumps({'fleet': {'hosts': hosts, 'vars': dict(
    ansible_connection='local', ansible_python_interpreter='/usr/bin/python3',
    shortstroke_install_src=prog, shortstroke_fetch_dir=tmp + '/fleet',
    # the default shortstroke_report_dir, one directory per inventory host, under $TMP
    shortstroke_report_base=tmp + '/reports',
    shortstroke_limits=[{'disks': ['sim:b'], 'percent': 50}])}}))
PY
for a in qualify limit; do
	printf -- '- hosts: fleet\n  gather_facts: false\n  roles:\n    - role: shortstroke.disks.shortstroke\n      shortstroke_action: %s\n' \
		$a >"$TMP/$a.yml"
done
# apply.yml / undo.yml: the role on the apply drives, each host's apply_arrays (undo: state absent)
for a in apply undo; do
	st=; [ $a = undo ] && st=" | map('combine', {'state': 'absent'}) | list"
	printf -- '- hosts: fleet\n  gather_facts: false\n  roles:\n    - role: shortstroke.disks.shortstroke\n      shortstroke_action: apply\n      shortstroke_rig: "{{ apply_rig }}"\n      shortstroke_sysroot: "{{ apply_sysroot }}"\n      shortstroke_arrays: "{{ apply_arrays%s }}"\n' \
		"$st" >"$TMP/$a.yml"
done
play() { OUT=$(ansible-playbook -i "$TMP/inventory.yml" "$@" 2>&1); RC=$?; ERR=; }
# recap HOST: "ok=N changed=N ... failed=N" of the play recap
recap() { printf '%s\n' "$OUT" | sed -n "/PLAY RECAP/,\$ s/^$1 *: //p" | tr -s ' '; }
blk() { "$PROG" --rig "$TMP/$1/rig.json" --state-dir "$TMP/$1/state" info -J sim:b |
	python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }

# --- qualify ---------------------------------------------------------------------------
play "$TMP/qualify.yml"
expect "ansible qualify: the play fails for h2 only (exit 2)" 2 "h2 .*qualification|FAILED"
expect "ansible qualify: h2's task names the disk and the reason" 2 "h2: sim:b \\(WDC WD20EFRX-68EUZN0 h2-W1\\): smart: FAILED: SMART health"
cmp -s "$PROG" "$TMP/h3/bin/shortstroke" && [ -x "$TMP/h3/bin/shortstroke" ] \
	&& pass "the role installed the controller's build on each host" || fail "the role installed the controller's build on each host"
case "$(recap h1)" in *failed=0*) pass "recap: h1 not failed" ;; *) fail "recap: h1 not failed" "$(recap h1)" ;; esac
case "$(recap h2)" in *failed=1*) pass "recap: h2 failed" ;; *) fail "recap: h2 failed" "$(recap h2)" ;; esac
case "$(recap h3)" in *failed=0*) pass "recap: h3 not failed" ;; *) fail "recap: h3 not failed" "$(recap h3)" ;; esac
for h in h1 h2 h3; do
	[ -s "$TMP/fleet/$h/qualify.json" ] && grep -q "<html" "$TMP/fleet/$h/qualify.html" \
		&& pass "fetched $h's JSON and HTML" || fail "fetched $h's JSON and HTML" "$(ls -R "$TMP/fleet" 2>&1)"
done
OUT=$(cat "$TMP/fleet/fleet.json" 2>/dev/null)
json_check "fleet.json: every host, h2 failed with the reason" 'd["hosts"] == ["h1", "h2", "h3"] and d["failed_hosts"] == ["h2"] and d["passed"] == 4 and d["failed"] == 1 and (x := [r for r in d["disks"] if r["verdict"] == "FAIL"][0]) and x["host"] == "h2" and x["serial"] == "h2-W1" and "SMART health" in x["reasons"][0]'
json_check "no disks named: every free disk (h3's protected disk left out)" '[(r["host"], r["device"]) for r in d["disks"]] == [("h1", "sim:a"), ("h1", "sim:b"), ("h2", "sim:a"), ("h2", "sim:b"), ("h3", "sim:a")]'
grep -q '<a href="h2/qualify.html">h2</a>' "$TMP/fleet/fleet.html" && grep -q 'hosts with a failure: h2' "$TMP/fleet/fleet.html" \
	&& ! grep -qE '(src|href)="https?:' "$TMP/fleet/fleet.html" \
	&& pass "fleet.html: self-contained, links each host's report, names h2" \
	|| fail "fleet.html: self-contained, links each host's report, names h2" "$(cat "$TMP/fleet/fleet.html")"
# the page in the report's style: its table and PASS/FAIL classes, a row per host, print CSS
grep -q '<td class="fail">FAIL</td>' "$TMP/fleet/fleet.html" && grep -q '<h2>Hosts</h2>' "$TMP/fleet/fleet.html" &&
	grep -q 'td.pass,span.pass{background:#dff3e3' "$TMP/fleet/fleet.html" && grep -q '@media print{' "$TMP/fleet/fleet.html" &&
	[ "$(grep -c '<tr><td><a href="h[123]/qualify.html">h[123]</a></td><td class="num">' "$TMP/fleet/fleet.html")" = 3 ] &&
	pass "fleet.html: in the qualify report's style, a row per host" ||
	fail "fleet.html: in the qualify report's style, a row per host" "$(cat "$TMP/fleet/fleet.html")"
for h in h1 h2 h3; do
	[ "$(python3 -c "import json; print(json.load(open('$TMP/reports/$h/qualify.json'))['written_for_host'])")" = $h ] \
		|| miss="$miss $h"
done
[ -z "${miss:-}" ] && pass "each host's report in its own default directory (shortstroke_report_dir per inventory host), marked with its name" \
	|| fail "each host's report in its own default directory" "$miss" "$(ls -R "$TMP/reports" 2>&1 | head)"

# check mode: nothing run on a disk, no report written on a host, nothing fetched, no
# summary written (the reports on the hosts and the controller keep their content and time)
files() { find "$TMP/reports" "$TMP/fleet" -type f | sort | xargs ls -l --time-style=+%s.%N | awk '{ print $6, $7 }' | xargs -n 2 sh -c 'echo "$0 $(md5sum <"$1")"'; }
before=$(files)
play "$TMP/qualify.yml" --check -v
expect "ansible qualify --check: every host ok (a failed disk fails no host: nothing ran)" 0
[ "$before" = "$(files)" ] && pass "qualify --check: no report written on a host, nothing fetched, no summary written" \
	|| fail "qualify --check: no report written on a host, nothing fetched, no summary written" "$before" "$(files)"
case "$OUT" in *"would qualify sim:a, sim:b"*) pass "qualify --check names the disks it would qualify" ;;
*) fail "qualify --check names the disks it would qualify" "$OUT" ;; esac

# the summary again in check mode, and for real: the same reports, nothing changes
sum=$(md5sum "$TMP/fleet/fleet.json" "$TMP/fleet/fleet.html")
printf -- '- hosts: localhost\n  gather_facts: false\n  tasks:\n    - name: summary\n      shortstroke.disks.fleet_summary:\n        dir: %s\n        hosts: [h1, h2, h3]\n' \
	"$TMP/fleet" >"$TMP/summary.yml"
for mode in --check ""; do
	# shellcheck disable=SC2086 # mode is a word or none
	play "$TMP/summary.yml" $mode
	case "$RC $(recap localhost)" in "0 "*changed=0*) pass "fleet_summary ${mode:-again}: the same reports, changed=0" ;;
	*) fail "fleet_summary ${mode:-again}: the same reports, changed=0" "$RC $(recap localhost)" "$OUT" ;; esac
done
[ "$sum" = "$(md5sum "$TMP/fleet/fleet.json" "$TMP/fleet/fleet.html")" ] && pass "fleet_summary: the files untouched" \
	|| fail "fleet_summary: the files untouched"
# a stale summary in check mode: changed, and nothing written
echo '{}' >"$TMP/fleet/fleet.json"
play "$TMP/summary.yml" --check
case "$RC $(recap localhost)" in "0 "*changed=1*) pass "fleet_summary --check with a stale summary: changed=1" ;;
*) fail "fleet_summary --check with a stale summary: changed=1" "$RC $(recap localhost)" "$OUT" ;; esac
[ "$(cat "$TMP/fleet/fleet.json")" = '{}' ] && pass "fleet_summary --check wrote nothing" || fail "fleet_summary --check wrote nothing"
play "$TMP/summary.yml"
OUT=$(cat "$TMP/fleet/fleet.json")
json_check "fleet_summary rewrites a stale summary" 'd["failed_hosts"] == ["h2"]'

# hosts that share one report directory on one machine (a rehearsal with one report dir
# for all): each host's fetched report names the host that wrote it, and the summary
# does not take another host's report as this host's
play "$TMP/qualify.yml" -e shortstroke_report_dir="$TMP/shared" -e shortstroke_fetch_dir="$TMP/fleet2"
OUT=$(cat "$TMP/fleet2/fleet.json" 2>/dev/null)
json_check "a shared report directory: the hosts whose report another host wrote are named, with why" \
	'len([r for r in d["disks"] if r["verdict"] == "NO REPORT" and "share one report directory" in r["reasons"][0]]) == 2'

# --- the configuration file: written from shortstroke_config, read by the program ----------
printf -- '- hosts: h1\n  gather_facts: false\n  roles:\n    - role: shortstroke.disks.shortstroke\n      shortstroke_action: limit\n      shortstroke_limits: []\n      shortstroke_config_path: %s\n      shortstroke_config: {state_dir: %s}\n' \
	"$TMP/h1/shortstroke.conf" "$TMP/h1/cstate" >"$TMP/config.yml"
play "$TMP/config.yml"
case "$RC $(recap h1)" in "0 "*changed=1*) pass "role: shortstroke_config written (changed)" ;;
*) fail "role: shortstroke_config written (changed)" "$RC $(recap h1)" "$OUT" ;; esac
OUT=$(env -u SHORTSTROKE_STATE_DIR SHORTSTROKE_CONFIG="$TMP/h1/shortstroke.conf" "$PROG" config -J 2>&1)
json_check "the program reads the file the role wrote" "d['state_dir'] == '$TMP/h1/cstate' and d['state_dir_from'] == 'configuration file'"
play "$TMP/config.yml"
case "$RC $(recap h1)" in "0 "*changed=0*) pass "role: shortstroke_config again: changed=0" ;;
*) fail "role: shortstroke_config again: changed=0" "$RC $(recap h1)" "$OUT" ;; esac

# --- limit: check mode, the change, a re-run, the refusal ------------------------------------
play "$TMP/limit.yml" --check
expect "ansible limit --check: h3 refused" 2 "h3.*refused.*protected"
case "$(recap h1)" in *changed=1*failed=0*) pass "check mode: h1 would change" ;; *) fail "check mode: h1 would change" "$(recap h1)" ;; esac
[ "$(blk h1)" = 8388608 ] && [ ! -e "$TMP/h1/state/journal.jsonl" ] && pass "check mode sent nothing, journaled nothing" \
	|| fail "check mode sent nothing, journaled nothing" "$(blk h1)"

play "$TMP/limit.yml"
expect "ansible limit: h3's refusal shown, the others done" 2 "h3.*shortstroke limit refused: sim:b: .*protected"
case "$(recap h1)" in *changed=1*failed=0*) pass "limit: h1 changed" ;; *) fail "limit: h1 changed" "$(recap h1)" ;; esac
case "$(recap h2)" in *changed=1*failed=0*) pass "limit: h2 changed" ;; *) fail "limit: h2 changed" "$(recap h2)" ;; esac
case "$(recap h3)" in *changed=0*failed=1*) pass "limit: h3 failed, unchanged" ;; *) fail "limit: h3 failed, unchanged" "$(recap h3)" ;; esac
[ "$(blk h1)" = 4194304 ] && [ "$(blk h2)" = 4194304 ] && [ "$(blk h3)" = 8388608 ] \
	&& pass "the drives: h1, h2 limited to 50%, h3 untouched" || fail "the drives: h1, h2 limited to 50%, h3 untouched" "$(blk h1) $(blk h2) $(blk h3)"

play "$TMP/limit.yml" --limit h1,h2
expect "ansible limit again" 0
case "$(recap h1) $(recap h2)" in *changed=0*changed=0*) pass "re-run: unchanged (idempotent)" ;; *) fail "re-run: unchanged (idempotent)" "$(recap h1) / $(recap h2)" ;; esac
# --- apply: check mode, the apply, h3's refusal, a re-run, the undo ------------------------------
echo "serial:h3-C2" >>"$TMP/h3/protect.conf"
# acap HOST DRIVE: a drive's capacity on the apply rig
acap() { "$PROG" --rig "$TMP/$1/arig.json" --state-dir "$TMP/$1/state" info -J "sim:$2" |
	python3 -c "import json,sys; print(json.load(sys.stdin)['capacity_blocks'])"; }
# snap HOST: the journal and the array records of the state dir, with their checksums (the
# simulated drives keep their own state there too, which any command touches)
snap() { (cd "$TMP/$1/state" && find journal.jsonl arrays -type f 2>/dev/null | sort | xargs md5sum); }
before="$(snap h1)$(snap h2)"
play "$TMP/apply.yml" --check
expect "ansible apply --check: h3 refused (a protected member)" 2 "h3.*sim:c2: refused, the disk is protected"
case "$(recap h1) $(recap h2)" in *changed=1*failed=0*changed=1*failed=0*) pass "apply check mode: h1, h2 would change" ;;
*) fail "apply check mode: h1, h2 would change" "$(recap h1) / $(recap h2)" ;; esac
[ "$before" = "$(snap h1)$(snap h2)" ] && [ ! -e "$TMP/h1/state/arrays/fast0.json" ] && [ ! -s "$TMP/h1/mdadm.log" ] \
	&& [ "$(acap h1 c1)" = 4194304 ] && pass "apply check mode: state dir and journal unchanged, nothing run or sent" \
	|| fail "apply check mode: state dir and journal unchanged, nothing run or sent" "$before" "$(snap h1)$(snap h2)"

play "$TMP/apply.yml"
expect "ansible apply: h3's refusal shown, the others done" 2 "h3.*shortstroke apply refused: sim:c2: refused, the disk is protected"
case "$(recap h1)" in *changed=1*failed=0*) pass "apply: h1 changed" ;; *) fail "apply: h1 changed" "$(recap h1)" ;; esac
case "$(recap h2)" in *changed=1*failed=0*) pass "apply: h2 changed" ;; *) fail "apply: h2 changed" "$(recap h2)" ;; esac
case "$(recap h3)" in *changed=0*failed=1*) pass "apply: h3 failed, unchanged" ;; *) fail "apply: h3 failed, unchanged" "$(recap h3)" ;; esac
lim=$(python3 -c "import json; print(json.load(open('$TMP/h1/r1.json'))['disks'][0]['limit_blocks'])")
[ "$(acap h1 c1)" = "$lim" ] && [ "$(acap h1 c2)" = "$lim" ] && [ "$(acap h2 c2)" = "$lim" ] \
	&& [ "$(acap h3 c1)" = 4194304 ] && [ "$(acap h3 c2)" = 4194304 ] \
	&& pass "apply: h1, h2 members at the plan's limit, h3 untouched" \
	|| fail "apply: h1, h2 members at the plan's limit, h3 untouched" "$(acap h1 c1) $(acap h2 c2) $(acap h3 c1)"
grep -q -- "--create /dev/md/fast0 .*--level=1 --raid-devices=2 .*sim:c1 sim:c2" "$TMP/h2/mdadm.log" \
	&& grep -q "^mkfs .*/dev/md/fast0" "$TMP/h1/mdadm.log" && ! grep -q "^mkfs" "$TMP/h2/mdadm.log" \
	&& grep -q "^ARRAY /dev/md/fast0 " "$TMP/h1/mdadm.conf" && [ ! -e "$TMP/h3/mdadm.log" ] \
	&& pass "apply: mdadm --create on h1, h2; h1's mkfs and ARRAY line; nothing on h3" \
	|| fail "apply: mdadm --create on h1, h2; h1's mkfs and ARRAY line; nothing on h3" "$(cat "$TMP"/h*/mdadm.log 2>&1)"
for h in h1 h2; do
	[ "$(python3 -c "import json; print(json.load(open('$TMP/$h/state/arrays/fast0.json'))['state'])")" = done ] \
		&& pass "apply: $h's record says done" || fail "apply: $h's record says done"
done

before="$(snap h1)$(snap h2)"
play "$TMP/apply.yml" --limit h1,h2
expect "ansible apply again" 0
case "$(recap h1) $(recap h2)" in *changed=0*failed=0*changed=0*failed=0*) pass "apply re-run: changed=0 (idempotent)" ;;
*) fail "apply re-run: changed=0 (idempotent)" "$(recap h1) / $(recap h2)" ;; esac
[ "$before" = "$(snap h1)$(snap h2)" ] && pass "apply re-run: state dirs unchanged" || fail "apply re-run: state dirs unchanged"
play "$TMP/apply.yml" --limit h1,h2 --check
case "$RC $(recap h1) $(recap h2)" in "0 "*changed=0*changed=0*) pass "apply --check after the apply: nothing would change" ;;
*) fail "apply --check after the apply: nothing would change" "$RC $(recap h1) / $(recap h2)" "$OUT" ;; esac

play "$TMP/undo.yml" --limit h1,h2 --check
case "$RC $(recap h1) $(recap h2)" in "0 "*changed=1*changed=1*) pass "undo --check: would change" ;;
*) fail "undo --check: would change" "$RC $(recap h1) / $(recap h2)" "$OUT" ;; esac
[ "$(acap h1 c1)" = "$lim" ] && [ "$before" = "$(snap h1)$(snap h2)" ] && pass "undo --check: nothing changed" \
	|| fail "undo --check: nothing changed" "$before" "$(snap h1)$(snap h2)"
play "$TMP/undo.yml"
expect "ansible undo" 0
case "$(recap h1) $(recap h2) $(recap h3)" in *changed=1*failed=0*changed=1*failed=0*changed=0*failed=0*)
	pass "undo: h1, h2 changed; h3 (never applied) already absent" ;;
*) fail "undo: h1, h2 changed; h3 (never applied) already absent" "$(recap h1) / $(recap h2) / $(recap h3)" ;; esac
[ "$(acap h1 c1)" = 4194304 ] && [ "$(acap h1 c2)" = 4194304 ] && [ "$(acap h2 c1)" = 4194304 ] \
	&& [ "$(acap h2 c2)" = 4194304 ] && grep -q -- "--stop /dev/md/fast0" "$TMP/h2/mdadm.log" \
	&& pass "undo: every member back to its original capacity, the array stopped" \
	|| fail "undo: every member back to its original capacity" "$(acap h1 c1) $(acap h2 c2)"
play "$TMP/undo.yml" --limit h1,h2
case "$RC $(recap h1) $(recap h2)" in "0 "*changed=0*changed=0*) pass "undo re-run: changed=0" ;;
*) fail "undo re-run: changed=0" "$RC $(recap h1) / $(recap h2)" "$OUT" ;; esac
fi
