#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/error.h"

/* The subject is named once, whoever names it and however often. */
static void test_subject_once(void **state)
{
	struct ss_error err = { 0 };

	(void)state;
	ss_error_set(&err, -EIO, "the drive does not answer");
	assert_int_equal(ss_error_subject(&err, "sim:h1"), -EIO);
	assert_string_equal(err.msg, "sim:h1: the drive does not answer");
	assert_string_equal(err.subject, "sim:h1");
	/* a front end naming it again: no "sim:h1: sim:h1: " */
	ss_error_subject(&err, "sim:h1");
	assert_string_equal(err.msg, "sim:h1: the drive does not answer");
	assert_string_equal(ss_error_bare(&err), "the drive does not answer");
	/* the innermost layer that knew the device wins: a front end's name of
	 * the same disk by another path is not added in front */
	ss_error_subject(&err, "/dev/disk/by-id/x");
	assert_string_equal(err.msg, "sim:h1: the drive does not answer");

	/* a layer that writes the device into its sentence: recorded, not added */
	ss_error_usage(&err, -EINVAL, "sim:h1: unknown fault \"bogus\"");
	assert_string_equal(err.subject, "");
	ss_error_subject(&err, "sim:h1");
	assert_string_equal(err.msg, "sim:h1: unknown fault \"bogus\"");
	assert_string_equal(ss_error_bare(&err), "unknown fault \"bogus\"");
	assert_true(err.usage);
	/* ... but a name that only starts the same is another name */
	ss_error_set(&err, -EIO, "sim:h10: gone");
	ss_error_subject(&err, "sim:h1");
	assert_string_equal(err.msg, "sim:h1: sim:h10: gone");

	/* a new error forgets the old subject */
	ss_error_set(&err, -EIO, "read failed");
	assert_string_equal(err.subject, "");
	assert_string_equal(ss_error_bare(&err), "read failed");
	ss_error_subject(&err, "sim:h2");
	ss_error_clear(&err);
	assert_string_equal(err.subject, "");
	assert_int_equal(ss_error_subject(NULL, "sim:h1"), 0);
	ss_error_set(&err, -EIO, "x");
	ss_error_subject(&err, "");
	assert_string_equal(err.msg, "x");
}

static void test_nomem(void **state)
{
	struct ss_error err = { 0 };

	(void)state;
	assert_int_equal(ss_error_nomem(&err), -ENOMEM);
	assert_int_equal(err.code, -ENOMEM);
	assert_string_equal(err.msg, "out of memory");
	assert_false(err.usage);
	assert_int_equal(ss_error_nomem(NULL), -ENOMEM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject_once),
		cmocka_unit_test(test_nomem),
	};

	return cmocka_run_group_tests_name("error", tests, NULL, NULL);
}
