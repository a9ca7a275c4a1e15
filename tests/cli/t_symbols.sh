# Nothing dead, nothing exported by accident (issue 27.6): every function (and variable) an
# object of the build defines as extern is used by another object or by the tests, unless it is
# libraidplan's API or tests/check-symbols.sh's allow list gives a reason. Needs the objects
# of the build the program comes from ($(dirname $PROG)/obj).

SYM_ROOT=$HERE/../..
SYM_OBJ=$(dirname "$PROG")/obj
if [ ! -d "$SYM_OBJ/src" ] || ! command -v nm >/dev/null 2>&1; then
	skip "symbols: no function is extern without a caller outside its file" \
		"no objects in $SYM_OBJ, or no nm"
else
	out=$(sh "$SYM_ROOT/tests/check-symbols.sh" "$SYM_OBJ" "$SYM_ROOT" 2>&1); rc=$?
	if [ $rc = 0 ] && printf '%s\n' "$out" |
		grep -q '^symbols: [0-9]* functions and [0-9]* variables of [0-9]* objects checked, 0 not used outside their file$'; then
		pass "symbols: no function is extern without a caller outside its file"
	else
		fail "symbols: no function is extern without a caller outside its file" "$out"
	fi
fi

# ... and the check can fail: a made-up tree of four files, built here
if command -v cc >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
	r=$TMP/symtree
	mkdir -p "$r/include" "$r/src/simd" "$r/src/zz" "$r/tests/unit" "$r/obj/src/simd" "$r/obj/src/zz"
	cp "$SYM_ROOT/include/raidplan.h" "$r/include/"
	printf 'int zz_lib(void);\nint main(void) { return zz_lib(); }\n' >"$r/src/main.c"
	printf 'int main(void) { return 0; }\n' >"$r/src/simd/simd_main.c"
	cat >"$r/src/zz/zz.c" <<'EOF'
int zz_count = 1;
int zz_lib(void) { return zz_count; }
int zz_local(void) { return 2; }
int zz_dead(void) { return zz_local(); }
int zz_tested(void) { return 3; }
unsigned rp_api_version(void) { return 0; }
EOF
	printf 'int main(void) { return zz_tested(); }\n' >"$r/tests/unit/test_zz.c"
	for f in main simd/simd_main zz/zz; do
		cc -c -o "$r/obj/src/$f.o" "$r/src/$f.c" || break
	done
	out=$(sh "$SYM_ROOT/tests/check-symbols.sh" "$r/obj" "$r" 2>&1); rc=$?
	if [ $rc = 1 ] && [ "$out" = "src/zz/zz.c: zz_count is extern but used in its own file only: make it static
src/zz/zz.c: zz_dead is called nowhere: remove it
src/zz/zz.c: zz_local is extern but used in its own file only: make it static
symbols: 7 functions and 1 variables of 3 objects checked, 3 not used outside their file" ]; then
		pass "symbols: the check fails on a function or variable used in its own file only and on a dead function"
	else
		fail "symbols: the check fails on a function or variable used in its own file only and on a dead function" \
			"exit $rc: $out"
	fi
else
	skip "symbols: the check fails on a function or variable used in its own file only and on a dead function" \
		"no cc or nm"
fi
