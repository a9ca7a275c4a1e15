#!/bin/sh
# check-methods.sh [ROOT] - no front end or operation decides by a limit method's identity:
# every CAP_<METHOD> value of enum cap_method (include/shortstroke/capacity.h), CAP_AUTO
# aside, is named only in src/ops/capacity/ (the engine and the methods' own files) and in
# the header that declares it. Everything above decides by the method's CAPM_* flags and
# says what the capacity engine writes (docs/architecture.md, "Add a limit method").
# Closing line: "methods: N method ids, N files checked, N uses outside src/ops/capacity/".
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
hdr=$root/include/shortstroke/capacity.h
ids=$(sed -n '/^enum cap_method {/,/^};/p' "$hdr" | grep -o '\bCAP_[A-Z0-9_]*' | grep -v '^CAP_AUTO$')
if [ -z "$ids" ]; then
	echo "check-methods: no enum cap_method in $hdr" >&2
	exit 2
fi
files=$(cd "$root" && find src include -name '*.[ch]' ! -path 'src/ops/capacity/*' \
	! -path include/shortstroke/capacity.h | sort)
pat=$(printf '%s\n' $ids | paste -sd'|' -)
bad=$(cd "$root" && printf '%s\n' $files | xargs grep -nwE "$pat" /dev/null)
n=0
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed 's/^\([^:]*:[0-9]*\):.*/\1: a limit method by its id: decide by its CAPM_* flags/' >&2
	n=$(printf '%s\n' "$bad" | wc -l)
fi
echo "methods: $(printf '%s\n' $ids | wc -l) method ids, $(printf '%s\n' $files | wc -l) files checked, $n uses outside src/ops/capacity/"
[ "$n" = 0 ]
