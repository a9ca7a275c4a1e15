# numbers on the command line are decimal: strtoull(..., 0) read a leading 0
# as octal and 0x as hex, strtod took 0x, 1e2, inf and nan

run "$PROG" --demo limit --dry-run --blocks 0100000000 sim:sata250
expect "limit --blocks with a leading 0 is decimal" 0 "-> 99999744 blocks \(51.2 GB" ""

for bad in 0x5F5E100 0X5F5E100 1e8 +100000000 " 100000000" -1 100000000.0; do
	run "$PROG" --demo limit --dry-run --blocks "$bad" sim:sata250
	expect "limit --blocks '$bad' is a usage error" 2 "" "--blocks"
	run "$PROG" --demo limit --dry-run --lba "$bad" sim:sata250
	expect "limit --lba '$bad' is a usage error" 2 "" "--lba"
done

run "$PROG" --demo limit --dry-run --lba 0177777777 sim:sata250
expect "limit --lba with a leading 0 is decimal" 0 "-> 17777[0-9]{4} blocks \(91.0 GB" ""

for bad in 0x32 1e1 inf nan; do
	run "$PROG" --demo limit --dry-run --percent "$bad" sim:sata250
	expect "limit --percent '$bad' is a usage error" 2 "" "--percent"
	run "$PROG" --demo plan --disks 4 --stroke "$bad"
	expect "plan --stroke '$bad' is a usage error" 2 "" "--stroke"
	run "$PROG" --demo plan --disks 4 --access-ms "$bad"
	expect "plan --access-ms '$bad' is a usage error" 2 "" "--access-ms"
	run "$PROG" --demo profile --keep "$bad" sim:sata250
	expect "profile --keep '$bad' is a usage error" 2 "" "--keep"
	run "$PROG" --demo bench --time "${bad}s" sim:sata250
	expect "bench --time '${bad}s' is a usage error" 2 "" "--time"
done

for opt in "plan --disks 0x4" "plan --disks 04x" "bench --seed 0x10 sim:sata250" \
	"qualify --seed 0x10 sim:sata250" "zones --measure --points 0x10 sim:sata250" \
	"profile --points 0x10 sim:sata250"; do
	# shellcheck disable=SC2086
	run "$PROG" --demo $opt
	expect "$opt is a usage error" 2 "" ""
done

run "$PROG" --demo plan --disks 010 --level 10 --stroke 0.25 -J
expect "plan --disks 010 is ten disks" 0 '"n_disks": 10|"disks": 10' ""
