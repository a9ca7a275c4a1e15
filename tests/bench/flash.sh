#!/bin/sh
# flash.sh PROG - simulated SATA SSDs' steady-state random 4 KiB writes at 0, 7, 28 and 50 %
# spare (the share of each drive's capacity a limit hides, TRIMmed first): one drive, and RAID 0
# and RAID 1 of two (md arrays of the rig, docs/simulator.md), measured by `bench` on the
# simulator and planned by libraidplan (docs/flash.md, "Spare area and random writes"), side by
# side. No root needed: `make bench-flash`.
set -eu
PROG=${1:-build/shortstroke}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$(dirname "$PROG")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ssflash.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
DIES=8
TIME=${FLASH_BENCH_TIME:-30s}
cc -O2 -I"$ROOT/include" "$HERE/flash_plan.c" "$BUILD/libraidplan.a" -lm -o "$WORK/flash_plan"
drive() { # ID SERIAL
	printf '{ "id": "%s", "personality": "sata", "model": "Crucial_CT256M4SSD2", "serial": "%s",
	  "firmware": "070H", "blocks": 500118192, "hpa": true, "flash": {"dies": %s} }' "$1" "$2" $DIES
}
cat >"$WORK/rig.json" <<RIG
{ "time_scale": 0, "drives": [ $(drive ssd FLASHBENCH1), $(drive a FLASHBENCH2), $(drive b FLASHBENCH3) ],
  "arrays": [ { "name": "r0", "level": 0, "members": ["a", "b"] },
              { "name": "r1", "level": 1, "members": ["a", "b"] } ] }
RIG
iops() { # STATE DEVICE: random-write IOPS at queue depth 32, virtual time
	$PROG --rig "$WORK/rig.json" --state-dir "$1" bench -w random-write -q 32 -t "$TIME" \
		--destructive --yes -J "$2" |
		python3 -c "import json,sys; print(json.load(sys.stdin)['results'][0]['runs'][0]['iops'])"
}
row() { # WHAT SPARE SIM PLAN
	python3 -c "print('%-10s %-6s %10.0f %10.0f %8.3f' % ('$1', '$2%', $3, $4, $4 / $3))"
}
printf '%-10s %-6s %10s %10s %8s\n' DRIVES SPARE SIM-IOPS PLAN-IOPS PLAN/SIM
for spare in 0 7 28 50; do
	st="$WORK/state-$spare"
	mkdir -p "$st"
	chmod 700 "$st"
	S="$PROG --rig $WORK/rig.json --state-dir $st"
	[ "$spare" = 0 ] || $S limit --yes --percent $((100 - spare)) sim:ssd sim:a sim:b >/dev/null
	used=$(python3 -c "print((100 - $spare) / 100)")
	set -- $("$WORK/flash_plan" "$used" "$DIES" 20 600)
	echo "# $spare % spare: planned write amplification $2"
	row "one SSD" $spare "$(iops "$st" sim:ssd)" "$1"
	row "RAID 0 x2" $spare "$(iops "$st" sim:md:r0)" "$("$WORK/flash_plan" "$used" $DIES 20 600 0 2)"
	row "RAID 1 x2" $spare "$(iops "$st" sim:md:r1)" "$("$WORK/flash_plan" "$used" $DIES 20 600 1 2)"
done
