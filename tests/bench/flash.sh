#!/bin/sh
# flash.sh PROG - a simulated SATA SSD's steady-state random 4 KiB writes at 0, 7, 28 and 50 %
# spare (the share of its capacity a limit hides, TRIMmed first), measured by `bench` on the
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
cc -O2 -I"$ROOT/include" "$HERE/flash_plan.c" "$BUILD/libraidplan.a" -lm -o "$WORK/flash_plan"
cat >"$WORK/rig.json" <<RIG
{ "time_scale": 0, "drives": [
  { "id": "ssd", "personality": "sata", "model": "Crucial_CT256M4SSD2", "serial": "FLASHBENCH1",
    "firmware": "070H", "wwn": "500a075100000001", "blocks": 500118192, "hpa": true,
    "flash": {"dies": $DIES} } ] }
RIG
printf '%-6s %-8s %10s %10s %8s\n' SPARE WA-PLAN SIM-IOPS PLAN-IOPS PLAN/SIM
for spare in 0 7 28 50; do
	st="$WORK/state-$spare"
	mkdir -p "$st"
	chmod 700 "$st"
	S="$PROG --rig $WORK/rig.json --state-dir $st"
	[ "$spare" = 0 ] || $S limit --yes --percent $((100 - spare)) sim:ssd >/dev/null
	sim=$($S bench -w random-write -q 32 -t 30s --destructive --yes -J sim:ssd |
		python3 -c "import json,sys; print(json.load(sys.stdin)['results'][0]['runs'][0]['iops'])")
	used=$(python3 -c "print((100 - $spare) / 100)")
	set -- $("$WORK/flash_plan" "$used" "$DIES" 20 600)
	python3 -c "print('%-6s %-8.3f %10.0f %10.0f %8.3f' % ('$spare%', $2, $sim, $1, $1 / $sim))"
done
