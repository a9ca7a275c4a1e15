#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "shortstroke/job.h"

static void nap(void)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Reports 10 steps; fails at the end if asked to. */
static int steps(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	int *fail = arg;

	for (int i = 1; i <= 10; i++) {
		progress_report(sink, i / 10.0, i < 10 ? "scanning" : "done", -1);
		nap();
	}
	if (*fail)
		return ss_error_set(err, -EIO, "medium error at LBA %d", 42);
	return 0;
}

static int until_cancelled(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	(void)arg;
	progress_report(sink, 0.5, "waiting", 12.0);
	while (!progress_cancelled(sink))
		nap();
	return ss_error_set(err, -ECANCELED, "cancelled");
}

static void test_success(void **state)
{
	struct job *j;
	struct job_status st;
	struct ss_error err = { 0 };
	int fail = 0;

	(void)state;
	assert_int_equal(job_start("a", steps, &fail, &j, &err), 0);
	assert_string_equal(job_name(j), "a");
	assert_int_equal(job_wait(j, &err), 0);
	job_status(j, &st);
	assert_true(st.done);
	assert_true(st.fraction == 1.0);
	assert_string_equal(st.phase, "done");
	job_free(j);
}

static void test_failure_carries_error(void **state)
{
	struct job *j;
	struct ss_error err = { 0 };
	int fail = 1;

	(void)state;
	assert_int_equal(job_start("b", steps, &fail, &j, &err), 0);
	assert_int_equal(job_wait(j, &err), -EIO);
	assert_string_equal(err.msg, "medium error at LBA 42");
	job_free(j);
}

static void test_cancel_and_eta(void **state)
{
	struct job *j;
	struct job_status st;
	struct ss_error err = { 0 };

	(void)state;
	assert_int_equal(job_start("c", until_cancelled, NULL, &j, &err), 0);
	do {
		nap();
		job_status(j, &st);
	} while (st.fraction < 0.5);
	assert_false(st.done);
	assert_true(st.eta_s == 12.0); /* the operation's own estimate wins */
	assert_string_equal(st.phase, "waiting");
	job_cancel(j);
	assert_int_equal(job_wait(j, &err), -ECANCELED);
	job_status(j, &st);
	assert_true(st.cancel_requested);
	job_free(j);
}

static void test_null_sink(void **state)
{
	(void)state;
	progress_report(NULL, 0.5, "x", 1);
	assert_false(progress_cancelled(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_success),
		cmocka_unit_test(test_failure_carries_error),
		cmocka_unit_test(test_cancel_and_eta),
		cmocka_unit_test(test_null_sink),
	};

	return cmocka_run_group_tests_name("job", tests, NULL, NULL);
}
