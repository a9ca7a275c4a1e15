# Helpers for the guest test cases (busybox sh). Sourced by main.sh.
#
# A case is a shell function run in a subshell by `t NAME FUNCTION`:
#   - it passes when the function returns 0;
#   - `fail "reason"` ends it as failed with that reason;
#   - everything it prints (and every `run` command with its output) is kept
#     and printed under the FAIL line, and only then.
# Result lines:  VMTEST PASS name | VMTEST FAIL name: reason | VMTEST SKIP name: why

VT=/vmtest
JSON_AWK=$VT/json.awk
NPASS=0
NFAIL=0
NSKIP=0
ONLY=""
CASE_TIMEOUT=60
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	vmtest.only=*) ONLY=${arg#vmtest.only=} ;;
	vmtest.case_timeout=*) CASE_TIMEOUT=${arg#vmtest.case_timeout=} ;;
	esac
done

# want NAME: is this case selected by vmtest.only= (an ERE)?
want() {
	[ -z "$ONLY" ] && return 0
	echo "$1" | grep -Eq -- "$ONLY"
}

fail() {
	echo "$*" > /tmp/case.reason
	exit 1
}

# t NAME FUNCTION [ARGS...]: run one case.
t() {
	_name=$1
	shift
	want "$_name" || return 0
	rm -f /tmp/case.reason /tmp/case.timeout
	_t0=$(cut -d' ' -f1 /proc/uptime)
	( set +e; "$@" ) > /tmp/case.out 2>&1 &
	_pid=$!
	# Watchdog: a hung case ends as failed, the suite goes on.
	( sleep $CASE_TIMEOUT && echo y > /tmp/case.timeout && kill -KILL $_pid ) \
		> /dev/null 2>&1 &
	_wd=$!
	wait $_pid
	_rc=$?
	kill $_wd 2> /dev/null
	[ -f /tmp/case.timeout ] && echo "timed out after ${CASE_TIMEOUT}s" > /tmp/case.reason
	_t1=$(cut -d' ' -f1 /proc/uptime)
	_secs=$(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.1f", b - a }')
	if [ $_rc -eq 0 ]; then
		NPASS=$((NPASS + 1))
		echo "VMTEST PASS $_name (${_secs}s)"
	else
		NFAIL=$((NFAIL + 1))
		_why=$(cat /tmp/case.reason 2>/dev/null)
		[ -n "$_why" ] || _why="case exited $_rc"
		echo "VMTEST FAIL $_name: $_why"
		sed 's/^/    | /' /tmp/case.out
	fi
}

# skip NAME REASON: report a case that cannot run here.
skip() {
	want "$1" || return 0
	NSKIP=$((NSKIP + 1))
	echo "VMTEST SKIP $1: $2"
}

# run CMD...: run a command, keep its stdout in $OUT and stderr in $ERR,
# echo both into the case log, set RC and return its status.
OUT=/tmp/run.out
ERR=/tmp/run.err
run() {
	echo "\$ $*"
	"$@" > $OUT 2> $ERR
	RC=$?
	cat $OUT
	[ -s $ERR ] && sed 's/^/stderr: /' $ERR
	[ $RC -eq 0 ] || echo "(exit $RC)"
	return $RC
}

# must CMD...: run, and fail the case when the command fails.
must() {
	run "$@" || fail "'$*' exited $RC"
}

# The shortstroke binary under test.
SS=/usr/bin/shortstroke
need_ss() {
	[ -x $SS ] || fail "shortstroke binary not in the guest (missing on the host when the initramfs was built)"
}

# --- JSON -----------------------------------------------------------------

# jflat FILE: flatten JSON into FILE.flat (see json.awk); fail on bad JSON.
jflat() {
	awk -f $JSON_AWK "$1" > "$1.flat" 2> /tmp/json.err ||
		fail "output is not valid JSON: $(cat /tmp/json.err)"
}

# jget FLATFILE PATH: the value at PATH (e.g. .drives[0].model), "" if absent.
# jhas FLATFILE PATH: is PATH present?
jget() {
	awk -v p="$2=" 'index($0, p) == 1 { print substr($0, length(p) + 1); exit }' "$1"
}
jhas() {
	awk -v p="$2=" 'index($0, p) == 1 { f = 1; exit } END { exit !f }' "$1"
}

# jindex FLATFILE ARRAY KEY VALUE: index i such that ARRAY[i].KEY == VALUE.
jindex() {
	awk -v a="$2[" -v k="].$3=$4" 'index($0, a) == 1 {
		r = substr($0, length(a) + 1); i = r; sub(/\].*/, "", i)
		if (substr(r, length(i) + 1) == k) { print i; exit }
	}' "$1"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1 is '$2', expected '$3'"
	echo "ok: $1 = '$2'"
}

# expect_match WHAT GOT ERE
expect_match() {
	echo "$2" | grep -Eq -- "$3" || fail "$1 is '$2', expected to match /$3/"
	echo "ok: $1 = '$2' ~ /$3/"
}

# expect_grep WHAT FILE ERE: a line of FILE matches ERE.
expect_grep() {
	grep -Eq -- "$3" "$2" || fail "$1: no line matches /$3/"
	echo "ok: $1 ~ /$3/"
}

# --- disks ----------------------------------------------------------------

trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

# sys_serial sdX: unit serial number (VPD page 0x80) from sysfs.
sys_serial() {
	if [ -r /sys/block/$1/device/vpd_pg80 ]; then
		tail -c +5 /sys/block/$1/device/vpd_pg80 | tr -d '\000' | trim
	fi
}
sys_model() { trim < /sys/block/$1/device/model; }
sys_vendor() { trim < /sys/block/$1/device/vendor; }
sys_bytes() { echo $(($(cat /sys/block/$1/size) * 512)); }

# sd_disks: every sd* disk, one per line.
sd_disks() {
	for _b in /sys/block/sd*; do
		[ -e "$_b" ] && echo "${_b##*/}"
	done
}

# dev_by_serial SERIAL: sdX with that unit serial number.
dev_by_serial() {
	for _d in $(sd_disks); do
		[ "$(sys_serial $_d)" = "$1" ] && { echo $_d; return 0; }
	done
	return 1
}

# sdebug_disks: sd disks of scsi_debug, in name order.
sdebug_disks() {
	for _d in $(sd_disks); do
		[ "$(sys_model $_d)" = scsi_debug ] && echo $_d
	done
}

# sdebug_load N ARGS...: (re)load scsi_debug with ARGS and wait until N
# disks of it are present; sets SDEBUG to their names.
sdebug_load() {
	_n=$1
	shift
	sdebug_unload
	# delay=0: answer at once (the default, one jiffy per command, makes
	# every I/O 4 ms slower under TCG).
	echo "\$ modprobe scsi_debug delay=0 $*"
	modprobe scsi_debug delay=0 "$@" || return 1
	_i=0
	while [ $_i -lt 100 ]; do
		SDEBUG=$(sdebug_disks | tr '\n' ' ')
		set -- $SDEBUG
		[ $# -ge $_n ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "scsi_debug: $# disk(s) after 10 s, expected $_n"
	return 1
}
sdebug_unload() {
	grep -q '^scsi_debug ' /proc/modules || return 0
	for _m in $(awk '$1 ~ /^md[0-9]/ { print $1 }' /proc/mdstat 2>/dev/null); do
		mdadm --stop /dev/$_m > /dev/null 2>&1
	done
	rmmod scsi_debug
}

# load_module NAME: modprobe NAME after its soft dependencies (busybox
# modprobe only follows modules.dep), in the order the host's kmod gave.
load_module() {
	_deps=$(awk -v m="$1" '$1 == m { $1 = ""; print; exit }' /etc/vmtest-modorder)
	[ -n "$_deps" ] || _deps=$1
	for _m in $_deps; do
		grep -q "^$(echo $_m | tr - _) " /proc/modules && continue
		modprobe "$_m" || return 1
	done
}

# jkey FLATFILE PATH: PATH is present as a scalar, an array or an object.
jkey() {
	awk -v p="$2" 'index($0, p) == 1 && index("=[.", substr($0, length(p) + 1, 1)) > 0 { f = 1; exit }
		END { exit !f }' "$1"
}

# ahci_letter sdX: A, B, C, F or G for the AHCI disks, "" for any other.
ahci_letter() {
	case "$1" in
	"$DEV_A") echo A ;;
	"$DEV_B") echo B ;;
	"$DEV_C") echo C ;;
	"$DEV_F") echo F ;;
	"$DEV_G") echo G ;;
	esac
}

# ss_json NAME ARGS...: run shortstroke ARGS (must succeed), keep its output
# as /tmp/NAME.json, flatten it to /tmp/NAME.json.flat and set F to that.
ss_json() {
	_n=$1
	shift
	need_ss
	must $SS "$@"
	cp $OUT /tmp/$_n.json
	jflat /tmp/$_n.json
	F=/tmp/$_n.json.flat
}

# list_state sdX: set STATE to the "state" of /dev/sdX in a fresh `list -J`.
# Never ends the case (callers clean up first): on error STATE says why.
list_state() {
	STATE="(no shortstroke binary in the guest)"
	[ -x $SS ] || return 1
	STATE="(list -J exited non-zero)"
	run $SS list -J || return 1
	STATE="(list -J printed invalid JSON)"
	awk -f $JSON_AWK $OUT > /tmp/list-state.flat || return 1
	_i=$(jindex /tmp/list-state.flat .drives device /dev/$1)
	STATE="(/dev/$1 not in list -J)"
	[ -n "$_i" ] || return 1
	STATE=$(jget /tmp/list-state.flat ".drives[$_i].state")
}
