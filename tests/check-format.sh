#!/bin/sh
# check-format.sh [--fix] - every C file of src, include and tests as .clang-format writes it.
# Lists the files clang-format would change and closes with "format: N passed, N failed"
# (the closing line make check sums up); exits 1 when any differs. --fix rewrites them
# (make format). clang-format 14 (tests/deps.sh check): other versions format differently.
set -u
cd "$(dirname "$0")/.." || exit 2
cf=$(command -v clang-format-14 || command -v clang-format) || {
	echo "check-format: clang-format not found (tests/deps.sh check installs it)" >&2
	exit 2
}
ver=$("$cf" --version | sed -nE 's/.*version ([0-9]+)\..*/\1/p')
[ "$ver" = 14 ] || echo "check-format: $cf is version $ver, .clang-format is tuned for 14" >&2
files=$(find src include tests -name '*.[ch]' -type f | LC_ALL=C sort)
if [ "${1:-}" = --fix ]; then
	# shellcheck disable=SC2086
	exec "$cf" -i --style=file $files
fi
pass=0; fail=0
for f in $files; do
	if "$cf" --style=file "$f" | cmp -s "$f" -; then
		pass=$((pass + 1))
	else
		echo "  $f"
		fail=$((fail + 1))
	fi
done
[ "$fail" -eq 0 ] || echo "check-format: $fail files differ from .clang-format; 'make format' rewrites them"
echo "format: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
