# lib.sh - helpers shared by the benchmark scripts (sourced; POSIX sh).
# Needs PROG (our binary) and SECS (length of one timed run, seconds; may be
# a fraction) set by the caller; RUN_IN, when set, prefixes every run.

say() { printf '%s\n' "$*" >&2; }

# secs_arg: SECS as a --time / --runtime argument (milliseconds)
secs_arg() { awk -v s="$SECS" 'BEGIN { printf "%dms\n", s * 1000 + 0.5 }'; }

# ours_bench FORMAT-ARGS WORKLOAD QD DEV... [-- EXTRA...]: one bench run of
# every DEV at once (in parallel) with EXTRA options
ours_bench() {
	fmt=$1 wl=$2 qd=$3
	shift 3
	devs="" extra=""
	while [ $# -gt 0 ]; do
		if [ "$1" = "--" ]; then
			shift
			extra="$*"
			break
		fi
		devs="$devs $1"
		shift
	done
	# shellcheck disable=SC2086
	${RUN_IN:-} "$PROG" bench -w "$wl" --qd "$qd" --time "$(secs_arg)" $fmt $extra $devs
}

# fio_job FORMAT RW BS QD DEV...: one fio job per DEV, all at once
fio_job() {
	fmt=$1 rw=$2 bs=$3 qd=$4
	shift 4
	args=""
	i=0
	for dev in "$@"; do
		args="$args --name=j$i --filename=$dev"
		i=$((i + 1))
	done
	# norandommap: our engine draws offsets without a coverage map, as
	# fio then does
	# shellcheck disable=SC2086
	${RUN_IN:-} fio --ioengine=io_uring --direct=1 --rw="$rw" --bs="$bs" --iodepth="$qd" \
		--time_based --runtime="$(secs_arg)" --norandommap --randrepeat=0 \
		$fmt $args
}

# ours WORKLOAD QD DEV... [-- EXTRA...]: prints "mbps iops cpu_s bytes"
# (sums over the devices)
ours() {
	ours_bench -J "$@" | python3 -c '
import json, sys
d = json.load(sys.stdin)["results"]
bad = [r for r in d if not r["ok"]]
if bad:
    sys.exit("ours: " + str(bad[0]["error"]))
runs = [r["runs"][0] for r in d]
print(sum(r["mbps"] for r in runs), sum(r["iops"] for r in runs),
      sum(r["cpu_s"] for r in runs), sum(r["bytes"] for r in runs))'
}

# fio_run RW BS QD DEV...: the same four numbers from fio's JSON report
# (read and write added up)
fio_run() {
	fio_job --output-format=json "$@" | python3 -c '
import json, sys
jobs = json.load(sys.stdin)["jobs"]
rw = ("read", "write")
mbps = sum(j[k]["bw_bytes"] for j in jobs for k in rw) / 1e6
iops = sum(j[k]["iops"] for j in jobs for k in rw)
cpu = sum((j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1000.0 for j in jobs)
print(mbps, iops, cpu, sum(j[k]["io_bytes"] for j in jobs for k in rw))'
}

# Without python (whose start takes up to a second on a loaded machine),
# for many short runs: "mbps iops", summed over the devices.
ours_rate() {
	ours_bench "-r -n -o MB/S,IOPS" "$@" 2>/dev/null |
		awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { m += $1; i += $2; n++ }
		     END { if (n) print m, i; else exit 1 }'
}

# terse v3: fields 7, 8 are read KiB/s and IOPS; 48, 49 the same for writes
fio_rate() {
	fio_job "--output-format=terse --terse-version=3" "$@" |
		awk -F';' 'NF > 100 { m += ($7 + $48) * 1024 / 1e6; i += $8 + $49; n++ }
			   END { if (n) print m, i; else exit 1 }'
}
