#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/units.h"

static void test_size_units(void **state)
{
	struct size_spec s;

	(void)state;
	assert_int_equal(size_parse("44GB", &s, NULL), 0);
	assert_int_equal(s.kind, SIZE_BYTES);
	assert_true(s.bytes == 44000000000ULL);
	assert_int_equal(size_parse("41GiB", &s, NULL), 0);
	assert_true(s.bytes == 41ULL << 30);
	assert_int_equal(size_parse("44G", &s, NULL), 0); /* util-linux: G is GiB */
	assert_true(s.bytes == 44ULL << 30);
	assert_int_equal(size_parse("1.5T", &s, NULL), 0);
	assert_true(s.bytes == (3ULL << 40) / 2);
	assert_int_equal(size_parse("2TB", &s, NULL), 0);
	assert_true(s.bytes == 2000000000000ULL);
	assert_int_equal(size_parse("512B", &s, NULL), 0);
	assert_true(s.bytes == 512);
	assert_int_equal(size_parse("10%", &s, NULL), 0);
	assert_int_equal(s.kind, SIZE_PERCENT);
	assert_true(s.percent == 10.0);
	assert_int_equal(size_parse("879097968", &s, NULL), 0);
	assert_int_equal(s.kind, SIZE_BLOCKS);
	assert_true(s.blocks == 879097968ULL);
}

static void test_size_bad(void **state)
{
	struct ss_error err;
	struct size_spec s;
	const char *bad[] = { "",	   "0",	   "0G",  "-5G", "G",
			      "10XB",	   "101%", "1.5", "abc", "99999999999999999999999",
			      "20000000P", " 5G",  "5 G" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_not_equal(size_parse(bad[i], &s, &err), 0);
		assert_true(err.code < 0);
		if (bad[i][0])
			assert_non_null(strstr(err.msg, bad[i]));
	}
	/* a number written in another base or notation is not parsed: not "zero" */
	for (size_t i = 0; i < 3; i++) {
		static const char *const other[] = { "0x10G", "1e3G", "1,5G" };
		char want[64];

		memset(&err, 0, sizeof(err));
		assert_int_equal(size_parse(other[i], &s, &err), -EINVAL);
		snprintf(want, sizeof(want), "invalid size '%s': the number cannot be parsed",
			 other[i]);
		assert_int_equal(strncmp(err.msg, want, strlen(want)), 0);
	}
	assert_int_equal(size_parse("0G", &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "must be greater than zero"));
}

static void test_u64(void **state)
{
	uint64_t v;

	(void)state;
	/* counts are decimal: a leading 0 is not octal, 0x is not hex */
	assert_int_equal(u64_parse("0100000000", &v), 0);
	assert_true(v == 100000000);
	assert_int_not_equal(u64_parse("0x5F5E100", &v), 0);
	assert_int_not_equal(u64_parse(" 12", &v), 0);
	assert_int_not_equal(u64_parse("+12", &v), 0);
	assert_int_equal(u64_parse("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_not_equal(u64_parse("18446744073709551616", &v), 0);
	assert_int_not_equal(u64_parse("-1", &v), 0);
	assert_int_not_equal(u64_parse("12x", &v), 0);
	assert_int_not_equal(u64_parse("", &v), 0);
}

static void test_decimal(void **state)
{
	const char *rest;
	double v;

	(void)state;
	assert_int_equal(decimal_parse("12.5", &v, NULL), 0);
	assert_true(v == 12.5);
	assert_int_equal(decimal_parse(".5%", &v, &rest), 0);
	assert_true(v == 0.5);
	assert_string_equal(rest, "%");
	assert_int_equal(decimal_parse("010", &v, NULL), 0);
	assert_true(v == 10);
	/* strtod takes all of these */
	assert_int_not_equal(decimal_parse("0x32", &v, NULL), 0);
	assert_int_not_equal(decimal_parse("0x32", &v, &rest), 0);
	assert_int_not_equal(decimal_parse("1e2", &v, NULL), 0);
	assert_int_not_equal(decimal_parse("inf", &v, NULL), 0);
	assert_int_not_equal(decimal_parse("nan", &v, NULL), 0);
	assert_int_not_equal(decimal_parse("-1", &v, NULL), 0);
	assert_int_not_equal(decimal_parse(" 1", &v, NULL), 0);
	assert_int_not_equal(decimal_parse(".", &v, NULL), 0);
	assert_int_not_equal(decimal_parse("", &v, NULL), 0);
}

static void test_human(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(size_human(879097968ULL * 512, buf, sizeof(buf)), "450 GB");
	assert_string_equal(size_human(488397168ULL * 512, buf, sizeof(buf)), "250 GB");
	assert_string_equal(size_human(2000398934016ULL, buf, sizeof(buf)), "2.00 TB");
	assert_string_equal(size_human(999, buf, sizeof(buf)), "999 B");
	assert_string_equal(size_human(1500000, buf, sizeof(buf)), "1.50 MB");
	assert_string_equal(duration_human(3725, buf, sizeof(buf)), "1h02m");
	assert_string_equal(duration_human(187, buf, sizeof(buf)), "3m07s");
	assert_string_equal(duration_human(12.4, buf, sizeof(buf)), "12s");
	assert_string_equal(duration_human(-1, buf, sizeof(buf)), "0s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_units), cmocka_unit_test(test_size_bad),
		cmocka_unit_test(test_u64),	   cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_human),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
