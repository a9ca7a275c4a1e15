#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/journal.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ss-journal-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static struct journal_entry entry(const char *event, const char *serial, uint64_t orig,
				  uint64_t target)
{
	struct journal_entry e;

	memset(&e, 0, sizeof(e));
	snprintf(e.event, sizeof(e.event), "%s", event);
	snprintf(e.device, sizeof(e.device), "sim:x");
	snprintf(e.serial, sizeof(e.serial), "%s", serial);
	snprintf(e.method, sizeof(e.method), "hpa");
	e.block_len = 512;
	e.native_blocks = 1000000;
	e.original_blocks = orig;
	e.target_blocks = target;
	return e;
}

static void test_roundtrip_and_original(void **state)
{
	struct journal_entry e, got;
	struct ss_error err = { 0 };
	char sub[300];

	(void)state;
	/* nothing journaled yet */
	assert_int_equal(journal_original(dir, "S1", "", &got, &err), -ENOENT);

	snprintf(sub, sizeof(sub), "%s/nested/state", dir); /* created on demand */
	e = entry("limit", "S1", 1000000, 500000);
	assert_int_equal(journal_append(sub, &e, &err), 0);
	assert_int_equal(strlen(e.time), 20);
	e = entry("limit-done", "S1", 1000000, 500000);
	assert_int_equal(journal_append(sub, &e, &err), 0);
	e = entry("limit", "OTHER", 77, 7);
	assert_int_equal(journal_append(sub, &e, &err), 0);
	/* a second limit keeps the first original */
	e = entry("limit", "S1", 500000, 250000);
	assert_int_equal(journal_append(sub, &e, &err), 0);

	assert_int_equal(journal_original(sub, "S1", "", &got, &err), 0);
	assert_true(got.original_blocks == 1000000);
	assert_true(got.native_blocks == 1000000);
	assert_string_equal(got.method, "hpa");

	/* restore-done closes it */
	e = entry("restore-done", "S1", 250000, 1000000);
	assert_int_equal(journal_append(sub, &e, &err), 0);
	assert_int_equal(journal_original(sub, "S1", "", &got, &err), -ENOENT);
	assert_int_equal(journal_original(sub, "OTHER", "", &got, &err), 0);
	assert_true(got.original_blocks == 77);
}

static void test_wwn_match(void **state)
{
	struct journal_entry e, got;
	struct ss_error err = { 0 };

	(void)state;
	e = entry("limit", "", 10, 5);
	snprintf(e.wwn, sizeof(e.wwn), "5000CCA012345678");
	assert_int_equal(journal_append(dir, &e, &err), 0);
	assert_int_equal(journal_original(dir, "", "5000cca012345678", &got, &err), 0);
	assert_true(got.original_blocks == 10);
}

static void test_malformed(void **state)
{
	struct journal_entry e, got;
	struct ss_error err = { 0 };
	char path[300];
	FILE *f;

	(void)state;
	assert_int_not_equal(journal_parse_line("{", 1, &e, &err), 0);
	assert_int_not_equal(journal_parse_line("[1]", 3, &e, &err), 0);
	assert_int_not_equal(journal_parse_line("{\"event\":\"limit\"}", 17, &e, &err), 0);
	assert_non_null(strstr(err.msg, "serial"));
	assert_int_not_equal(
		journal_parse_line("{\"event\":\"limit\",\"serial\":\"a\",\"target_blocks\":-1}",
				   49, &e, &err),
		0);
	assert_non_null(strstr(err.msg, "target_blocks"));

	journal_path(dir, path, sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"event\":\"limit\",\"serial\":\"S9\",\"original_blocks\":5}\n", f);
	fputs("garbage\n", f);
	fclose(f);
	assert_int_equal(journal_original(dir, "S9", "", &got, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "journal.jsonl:2:"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip_and_original, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wwn_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
	};

	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
