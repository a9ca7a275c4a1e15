# t_blob.sh - drives seeded from saved IDENTIFY + SMART blobs (rig "smart_blob"):
# `sim save-blob` writes what skdump --save writes, and a drive seeded from a
# blob (saved from the simulator's own drives, and real drives' blobs from
# libatasmart's tests in tests/data/blobs) answers info, smart and limit as
# libatasmart's skdump --load reads the same file.

BLOBDIR=$TMP/blobs
mkdir -p "$BLOBDIR"

# --- sim save-blob ---
for id in sata250 sata320 sata-hpa smr; do
	run "$PROG" --demo sim save-blob "sim:$id" "$BLOBDIR/$id.blob"
	expect "save-blob: sim:$id" 0 "^sim:$id: 1572 bytes of IDENTIFY and SMART data saved to"
done
run "$PROG" --demo sim save-blob sim:sas15k "$BLOBDIR/x.blob"
expect "save-blob: a SAS drive has none" 2 "" "sim:sas15k is a SAS drive"
run "$PROG" --demo sim save-blob sim:sata250 "$TMP/no/such/dir/x.blob"
expect "save-blob: an output that cannot be written" 2 "" "x.blob"
run "$PROG" --demo sim save-blob sim:sata250
expect "save-blob: both arguments" 2 "" "save-blob: sim:ID FILE"

for f in "$HERE"/../data/blobs/*--*; do
	cp "$f" "$BLOBDIR/"
done

# a rig of drives seeded from them (paths relative to the rig file)
{
	echo '{"time_scale": 0, "drives": ['
	sep=""
	for f in "$BLOBDIR"/*.blob "$BLOBDIR"/*--*; do
		b=$(basename "$f")
		id=$(printf '%s' "$b" | tr -c 'A-Za-z0-9._\n-' '_' | cut -c1-32)
		printf '%s {"id": "%s", "personality": "sata", "smart_blob": "%s"}' "$sep" "$id" "$b"
		sep=",
"
	done
	echo ']}'
} >"$BLOBDIR/rig.json"
RIG=$BLOBDIR/rig.json

run "$PROG" --rig "$RIG" list -o DEVICE,MODEL -n
expect "blob rig: every drive loads" 0 "sim:WDC_WD5000AAKS--00TMA0-12.01C01 +WDC WD5000AAKS-00TMA0"

# The blob drive of a demo drive is the same drive to info
for id in sata250 sata320 sata-hpa smr; do
	run "$PROG" --demo info -J "sim:$id"
	printf '%s' "$OUT" >"$TMP/a.json"
	run "$PROG" --rig "$RIG" info -J "sim:$id.blob"
	printf '%s' "$OUT" >"$TMP/b.json"
	if python3 - "$TMP/a.json" "$TMP/b.json" "$id" >"$TMP/why" 2>&1 <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
keys = ["model", "serial", "firmware", "wwn", "tran", "logical_block", "physical_block",
        "capacity_blocks", "rpm", "form_factor", "lba48", "security", "smart_supported",
        "smart_enabled", "ncq"]
# sata-hpa: the blob's capacity is the accessible one, so no HPA on the blob drive;
# smr: host-managed shows in the ATA signature, not in IDENTIFY (no partition method
# on the demo's), so the blob drive is not zoned unless the rig says "zoned"
if sys.argv[3] not in ("sata-hpa", "smr"):
    keys += ["methods", "native_blocks", "hpa_set"]
bad = [(k, a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)]
for k, x, y in bad:
    print("%s: demo %r, blob drive %r" % (k, x, y))
sys.exit(1 if bad else 0)
EOF
	then
		pass "blob of sim:$id: info -J as the demo drive's"
	else
		fail "blob of sim:$id: info -J as the demo drive's" "$(cat "$TMP/why")"
	fi
done

# --- against skdump --load ---
SKDUMP=$(command -v skdump 2>/dev/null || { [ -x /usr/sbin/skdump ] && echo /usr/sbin/skdump; })
if [ -z "$SKDUMP" ]; then
	skip "blobs: skdump --load agrees" \
		"skdump (package libatasmart-bin) is not installed; tests/deps.sh check installs it"
else
	cat >"$TMP/compare.py" <<'EOF'
# compare.py BLOB SKDUMP-OUT INFO-JSON SMART-JSON LIMIT-RC LIMIT-OUT WHAT
import json, re, struct, sys

blob, skf, infof, smartf, lrc, lout, what = sys.argv[1:8]
sk = open(skf, errors="replace").read()
sk = re.sub(r"\x1b\[[0-9;]*m", "", sk)
info = json.load(open(infof))
smart = json.load(open(smartf))["disks"][0]
bad = []

def skfield(name):
    m = re.search(r"^%s: \[(.*)\]$" % re.escape(name), sk, re.M)
    return m.group(1) if m else None

def word(idf, w):
    return struct.unpack_from("<H", idf, 2 * w)[0]

# the IDENTIFY record, read here from the file
data = open(blob, "rb").read()
off, idf = 0, None
while off + 8 <= len(data):
    tag, n = data[off:off + 4], struct.unpack(">I", data[off + 4:off + 8])[0]
    if tag == b"IDFY":
        idf = data[off + 8:off + 8 + n]
    off += 8 + n

if what == "identity":
    for k, name in (("model", "Model"), ("serial", "Serial"), ("firmware", "Firmware")):
        if info[k] != skfield(name):
            bad.append("%s: info %r, skdump %r" % (k, info[k], skfield(name)))
        if smart.get(k, info[k]) != info[k]:
            bad.append("%s: smart %r, info %r" % (k, smart.get(k), info[k]))
    # skdump has no size for a blob: IDENTIFY words 100-103 (48-bit) or 60-61
    cap48 = sum(word(idf, 100 + i) << (16 * i) for i in range(4))
    cap = cap48 if (word(idf, 83) & 0x0400) and cap48 else word(idf, 60) | word(idf, 61) << 16
    if info["capacity_blocks"] != cap:
        bad.append("capacity: info %r, IDENTIFY %r" % (info["capacity_blocks"], cap))
elif what == "attributes":
    rows = {}
    for line in sk.splitlines():
        m = re.match(r"^\s*(\d+) \S+\s+(\d+)\s+(\d+)\s+(\S+)\s.*\s(0x[0-9a-f]{12})\s", line)
        if m:
            raw = bytes.fromhex(m.group(5)[2:])
            rows[int(m.group(1))] = (int(m.group(2)), int(m.group(3)), m.group(4),
                                     int.from_bytes(raw, "little"))
    got = {a["id"]: a for a in smart["attributes"]}
    if not rows:
        bad.append("no attributes in skdump's output")
    if sorted(rows) != sorted(got):
        bad.append("attribute ids: skdump %s, smart %s" % (sorted(rows), sorted(got)))
    for i, (v, w, t, raw) in rows.items():
        a = got.get(i)
        if not a:
            continue
        if (a["value"], a["worst"], a["raw"]) != (v, w, raw):
            bad.append("attribute %d: smart value/worst/raw %r, skdump %r" %
                       (i, (a["value"], a["worst"], a["raw"]), (v, w, raw)))
        if t != "n/a" and a["thresh"] != int(t):
            bad.append("attribute %d: smart threshold %r, skdump %s" % (i, a["thresh"], t))
elif what == "verdict":
    good = skfield("SMART Disk Health Good") or re.search(
        r"^SMART Disk Health Good: (\S+)", sk, re.M).group(1)
    want = "good" if good == "yes" else "bad"
    if smart["return_status"] != want:
        bad.append("health: smart %r, skdump 'Good: %s'" % (smart["return_status"], good))
    overall = re.search(r"^Overall Status: (\S+)", sk, re.M).group(1)
    verdict = {"GOOD": "PASSED", "BAD_ATTRIBUTE_IN_THE_PAST": "WARNING",
               "BAD_SECTOR": "WARNING", "BAD_ATTRIBUTE_NOW": "FAILED",
               "BAD_SECTOR_MANY": "FAILED", "BAD_STATUS": "FAILED"}[overall]
    if smart["verdict"] != verdict:
        bad.append("verdict: smart %s, skdump %s (%s)" % (smart["verdict"], overall, verdict))
elif what == "method":
    # auto's preference (AMAC, HPA, DCO, a partition) on the blob's IDENTIFY
    # bits, which skdump does not print: read here from the file
    amac = (word(idf, 86) & 0x8000) and (word(idf, 119) & 0xc000) == 0x4000 and \
        (word(idf, 119) & 0x0100)
    hpa = word(idf, 82) & 0x0400
    dco = word(idf, 83) & 0x0800
    frozen = word(idf, 128) & 0x0008
    lout = open(lout).read()
    if amac:
        want = "amac"
    elif hpa:
        want = "hpa"
    elif dco:
        want = "dco"
    else:
        want = "partition"
    if want == "hpa" and frozen:
        if lrc == "0" or "security-frozen" not in lout:
            bad.append("security frozen (word 128 bit 3): limit should refuse, exit %s: %s" %
                       (lrc, lout))
    elif lrc != "0" or not re.search(r"by %s; nothing was sent" % want, lout):
        bad.append("limit should pick %s, exit %s: %s" % (want, lrc, lout))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
	for f in "$BLOBDIR"/*--* "$BLOBDIR"/*.blob; do
		b=$(basename "$f")
		id=$(printf '%s' "$b" | tr -c 'A-Za-z0-9._\n-' '_' | cut -c1-32)
		"$SKDUMP" --load="$f" >"$TMP/sk.txt" 2>&1
		run "$PROG" --rig "$RIG" info -J "sim:$id"
		printf '%s' "$OUT" >"$TMP/info.json"
		run "$PROG" --rig "$RIG" smart -J "sim:$id"
		printf '%s' "$OUT" >"$TMP/smart.json"
		run "$PROG" --rig "$RIG" limit --percent 50 --dry-run "sim:$id"
		printf '%s\n%s\n' "$OUT" "$ERR" >"$TMP/limit.txt"
		lrc=$RC
		for what in identity attributes verdict method; do
			if python3 "$TMP/compare.py" "$f" "$TMP/sk.txt" "$TMP/info.json" \
				"$TMP/smart.json" "$lrc" "$TMP/limit.txt" "$what" >"$TMP/why" 2>&1; then
				pass "blob $b: $what as skdump --load"
			else
				fail "blob $b: $what as skdump --load" "$(cat "$TMP/why")"
			fi
		done
	done
	# a blob the simulator saves from a blob drive is the blob again
	run "$PROG" --rig "$RIG" sim save-blob sim:WDC_WD5000AAKS--00TMA0-12.01C01 "$TMP/again.blob"
	if [ "$RC" = 0 ] && cmp -s "$TMP/again.blob" "$BLOBDIR/WDC_WD5000AAKS--00TMA0-12.01C01"; then
		pass "blob: saved again from its drive, byte for byte"
	else
		fail "blob: saved again from its drive, byte for byte" "exit $RC: $ERR"
	fi
fi

# --- what the rig overrides ---
cat >"$BLOBDIR/over.json" <<'EOF'
{"time_scale": 0, "drives": [
 {"id": "o", "personality": "sata", "smart_blob": "sata250.blob",
  "serial": "OVERRIDE7", "rpm": 5400, "queue_depth": 1, "write_cache": false}
]}
EOF
run "$PROG" --rig "$BLOBDIR/over.json" info -J sim:o
json_check "blob + overrides: serial, rpm, no NCQ at depth 1" \
	"d['serial'] == 'OVERRIDE7' and d['rpm'] == 5400 and d['ncq'] is False and d['model'] == 'Hitachi HDT721025SLA380'"

# --- malformed blobs are rig errors: file, line, field, reason ---
head -c 700 "$BLOBDIR/sata250.blob" >"$BLOBDIR/short.blob"
printf '{"drives": [\n {"id": "s", "personality": "sata",\n  "smart_blob": "short.blob"}]}\n' \
	>"$BLOBDIR/bad.json"
run "$PROG" --rig "$BLOBDIR/bad.json" list
expect "blob: a short one is a rig error" 2 "" \
	"bad.json:3: drive \"s\": field \"smart_blob\": .*short.blob: 700 bytes: record \"SMDT\" at byte 532 says 512 bytes, only 160 follow"
printf '{"drives": [\n {"id": "s", "personality": "sata",\n  "smart_blob": "nothere.blob"}]}\n' \
	>"$BLOBDIR/bad.json"
run "$PROG" --rig "$BLOBDIR/bad.json" list
expect "blob: a missing one is a rig error" 2 "" \
	"bad.json:3: drive \"s\": field \"smart_blob\": .*nothere.blob: cannot open it"
