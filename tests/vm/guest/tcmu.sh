# Serve the simulator's drives to the guest's kernel as SCSI disks:
# one TCMU user backstore per rig drive, a tcm_loop target with a LUN per
# drive, and shortstroke-simd answering the commands (busybox sh, sourced).
# docs/tcmu.md has the same steps by hand.
#
#   tcmu_setup RIG STATE_DIR LOG      everything; sets TCMU_DRIVES
#   tcmu_dev ID                       the sdX of rig drive ID (by its serial)
#   tcmu_simd_start / tcmu_simd_stop  the handler alone
#   tcmu_teardown                     everything, in reverse order
#
# Naming: backstore core/user_1/ID (dev_config=shortstroke/ID), target
# loopback/$TCMU_WWN/tpgt_1, LUN lun_I for the I-th drive of the rig.

CFS=/sys/kernel/config/target
TCMU_HBA=user_1
TCMU_WWN=naa.5001405000000001
TCMU_NEXUS=naa.5001405000000002
TCMU_DRIVES=""
TCMU_RIG=""
TCMU_STATE=""
TCMU_LOG=""
SIMD=/usr/bin/shortstroke-simd
# Seconds before the kernel gives up on a command the handler never
# answers (target_core_user's cmd_time_out, default 30).
TCMU_CMD_TIMEOUT=${TCMU_CMD_TIMEOUT:-8}

# tcmu_rig_drives RIG: "id blocks logical_block serial" per drive, from
# the rig file flattened by json.awk.
tcmu_rig_drives() {
	awk -f $JSON_AWK "$1" | awk -F= '
		match($1, /^\.drives\[[0-9]+\]\./) {
			i = substr($1, 9) + 0
			k = substr($1, RLENGTH + 1)
			v = substr($0, length($1) + 2)
			if (i + 1 > n) n = i + 1
			if (k == "id") id[i] = v
			else if (k == "blocks") bl[i] = v
			else if (k == "logical_block") lb[i] = v
			else if (k == "serial") sn[i] = v
		}
		END { for (i = 0; i < n; i++) print id[i], bl[i], (lb[i] ? lb[i] : 512), sn[i] }'
}

tcmu_modules() {
	for _m in configfs target_core_user tcm_loop; do
		load_module $_m || return 1
	done
	grep -q " /sys/kernel/config configfs" /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config || return 1
	[ -d $CFS/core ] || { echo "no $CFS/core after loading target_core_mod"; return 1; }
}

# tcmu_backstore ID BLOCKS LBLOCK: create and enable core/user_1/ID.
tcmu_backstore() {
	_d=$CFS/core/$TCMU_HBA/$1
	mkdir -p $_d || return 1
	echo -n "dev_size=$(($2 * $3)),dev_config=shortstroke/$1,hw_block_size=$3" \
		> $_d/control || { echo "$_d/control refused the parameters"; return 1; }
	echo $TCMU_CMD_TIMEOUT > $_d/attrib/cmd_time_out 2>/dev/null ||
		echo "note: $_d/attrib/cmd_time_out not set"
	echo 1 > $_d/enable || { echo "$_d: enable failed"; return 1; }
}

# The handler runs under a small wrapper shell that keeps its exit status:
# /tmp/simd.pid holds its pid, /tmp/simd.rc appears when it ended. This
# works from the subshells `t` runs cases in.
tcmu_simd_start() {
	echo "\$ $SIMD --rig $TCMU_RIG --state-dir $TCMU_STATE -v $* (log $TCMU_LOG)"
	rm -f /tmp/simd.pid /tmp/simd.rc
	_n=$(grep -c "serving [0-9]" $TCMU_LOG)
	( $SIMD --rig $TCMU_RIG --state-dir $TCMU_STATE -v "$@" >> $TCMU_LOG 2>&1 &
	  echo $! > /tmp/simd.pid
	  wait $!
	  echo $? > /tmp/simd.rc ) &
	_i=0
	while [ ! -s /tmp/simd.pid ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	SIMD_PID=$(cat /tmp/simd.pid 2>/dev/null)
	# it has the rings mapped when it says so
	_i=0
	while [ $_i -lt 100 ]; do
		[ "$(grep -c "serving [0-9]" $TCMU_LOG)" -gt "$_n" ] && return 0
		[ -f /tmp/simd.rc ] && break
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "shortstroke-simd did not start:"
	tail -n 20 $TCMU_LOG
	return 1
}

simd_pid() { cat /tmp/simd.pid 2>/dev/null; }
simd_running() { [ -s /tmp/simd.pid ] && [ ! -f /tmp/simd.rc ]; }

# tcmu_simd_stop [SIGNAL]: stop the handler and wait for it (5 s at most);
# sets SIMD_RC to its exit status.
tcmu_simd_stop() {
	SIMD_RC=""
	simd_running || { SIMD_RC=$(cat /tmp/simd.rc 2>/dev/null); return 0; }
	kill -${1:-TERM} $(simd_pid) 2>/dev/null
	_i=0
	while [ ! -f /tmp/simd.rc ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if [ ! -f /tmp/simd.rc ]; then
		echo "shortstroke-simd (pid $(simd_pid)) did not stop in 5 s; killing it"
		kill -KILL $(simd_pid)
		sleep 0.2
		SIMD_RC=$(cat /tmp/simd.rc 2>/dev/null)
		return 1
	fi
	SIMD_RC=$(cat /tmp/simd.rc)
	return 0
}

# tcmu_dev ID: the sd disk serving rig drive ID ("" when there is none).
tcmu_dev() {
	_sn=$(echo "$TCMU_DRIVES" | awk -v id="$1" '$1 == id { print $4 }')
	[ -n "$_sn" ] && dev_by_serial "$_sn"
}

# tcmu_sg sdX: its sg node.
tcmu_sg() { ls /sys/block/$1/device/scsi_generic 2>/dev/null; }

tcmu_setup() {
	TCMU_RIG=$1
	TCMU_STATE=$2
	TCMU_LOG=$3
	: > $TCMU_LOG
	mkdir -p $TCMU_STATE
	tcmu_modules || return 1
	TCMU_DRIVES=$(tcmu_rig_drives $TCMU_RIG)
	[ -n "$TCMU_DRIVES" ] || { echo "no drives in $TCMU_RIG"; return 1; }
	echo "$TCMU_DRIVES" | while read -r _id _bl _lb _sn; do
		tcmu_backstore $_id $_bl $_lb || exit 1
	done || return 1
	tcmu_simd_start || return 1
	# the initiator side: a tcm_loop target, its nexus, one LUN per drive
	_t=$CFS/loopback/$TCMU_WWN/tpgt_1
	mkdir -p $_t/lun || { echo "cannot create $_t"; return 1; }
	echo -n $TCMU_NEXUS > $_t/nexus || { echo "nexus refused"; return 1; }
	_n=0
	for _id in $(echo "$TCMU_DRIVES" | awk '{ print $1 }'); do
		mkdir $_t/lun/lun_$_n || return 1
		ln -s $CFS/core/$TCMU_HBA/$_id $_t/lun/lun_$_n/$_id || return 1
		_n=$((_n + 1))
	done
	# every drive shows up as an sd disk (found by its serial number)
	_i=0
	while :; do
		_miss=""
		for _id in $(echo "$TCMU_DRIVES" | awk '{ print $1 }'); do
			_dv=$(tcmu_dev $_id)
			[ -n "$_dv" ] && [ -n "$(tcmu_sg $_dv)" ] || _miss="$_miss $_id"
		done
		[ -z "$_miss" ] && return 0
		_i=$((_i + 1))
		if [ $_i -ge 300 ]; then
			echo "no sd disk after 30 s for:$_miss"
			return 1
		fi
		sleep 0.1
	done
}

# tcmu_power_cycle ID...: power the drives off and on (`shortstroke sim
# power-cycle` on the handler's state directory, then SIGHUP to reload it).
tcmu_power_cycle() {
	_ids=""
	for _id in "$@"; do _ids="$_ids sim:$_id"; done
	_n=$(grep -c "SIGHUP: rig and state reloaded" $TCMU_LOG)
	$SS --rig $TCMU_RIG --state-dir $TCMU_STATE sim power-cycle $_ids || return 1
	tcmu_simd_reload $_n
}

# tcmu_fault ID SPEC | --clear ID: inject a fault into a served drive.
tcmu_fault() {
	_n=$(grep -c "SIGHUP: rig and state reloaded" $TCMU_LOG)
	if [ "$1" = --clear ]; then
		$SS --rig $TCMU_RIG --state-dir $TCMU_STATE sim fault --clear sim:$2 || return 1
	else
		$SS --rig $TCMU_RIG --state-dir $TCMU_STATE sim fault sim:$1 "$2" || return 1
	fi
	tcmu_simd_reload $_n
}

# tcmu_simd_reload N: SIGHUP the handler, wait for its N+1-th reload line.
tcmu_simd_reload() {
	kill -HUP $(simd_pid) || return 1
	_i=0
	while [ "$(grep -c "SIGHUP: rig and state reloaded" $TCMU_LOG)" -le "$1" ]; do
		_i=$((_i + 1))
		[ $_i -lt 50 ] || { echo "the handler did not reload in 5 s"; return 1; }
		sleep 0.1
	done
}

tcmu_teardown() {
	_t=$CFS/loopback/$TCMU_WWN/tpgt_1
	_rc=0
	# removing a LUN flushes the disk's cache: someone must answer
	simd_running || [ -z "$TCMU_RIG" ] || tcmu_simd_start > /dev/null
	if [ -d $_t ]; then
		for _l in $_t/lun/lun_*; do
			[ -d "$_l" ] || continue
			for _s in $_l/*; do
				[ -L "$_s" ] && rm "$_s"
			done
			rmdir $_l || _rc=1
		done
		rmdir $_t || _rc=1
		rmdir $CFS/loopback/$TCMU_WWN || _rc=1
	fi
	tcmu_simd_stop || _rc=1
	for _b in $CFS/core/$TCMU_HBA/*; do
		[ -d "$_b" ] && [ -f "$_b/control" ] && { rmdir $_b || _rc=1; }
	done
	[ -d $CFS/core/$TCMU_HBA ] && { rmdir $CFS/core/$TCMU_HBA || _rc=1; }
	return $_rc
}
