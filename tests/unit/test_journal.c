#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "shortstroke/journal.h"

#include "fixture.h"

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
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), -ENOENT);

	snprintf(sub, sizeof(sub), "%s/nested/state", fixture_dir); /* created on demand */
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
	assert_string_equal(got.node, ""); /* no node: none written, none read */

	/* an array event names the node md was given */
	e = entry("array-create", "S1", 1000000, 500000);
	snprintf(e.node, sizeof(e.node), "/dev/sdb1");
	assert_int_equal(journal_append(sub, &e, &err), 0);
	assert_int_equal(journal_last(sub, "S1", "", &got, &err), 0);
	assert_string_equal(got.event, "array-create");
	assert_string_equal(got.node, "/dev/sdb1");
}

static void test_wwn_match(void **state)
{
	struct journal_entry e, got;
	struct ss_error err = { 0 };

	(void)state;
	e = entry("limit", "", 10, 5);
	snprintf(e.wwn, sizeof(e.wwn), "5000CCA012345678");
	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
	assert_int_equal(journal_original(fixture_dir, "", "5000cca012345678", &got, &err), 0);
	assert_true(got.original_blocks == 10);
}

/* Two disks with one serial (a USB bridge's) and their own WWNs: each
 * finds its own record, never the other's. */
static void test_shared_serial_two_wwns(void **state)
{
	struct journal_entry a, b, got;
	struct ss_error err = { 0 };

	(void)state;
	a = entry("limit", "BRIDGE01", 10, 5);
	snprintf(a.wwn, sizeof(a.wwn), "5000cca0000000aa");
	assert_int_equal(journal_append(fixture_dir, &a, &err), 0);
	assert_int_equal(journal_original(fixture_dir, "BRIDGE01", "5000cca0000000bb", &got, &err),
			 -ENOENT);
	b = entry("limit", "BRIDGE01", 20, 7);
	snprintf(b.wwn, sizeof(b.wwn), "5000cca0000000bb");
	assert_int_equal(journal_append(fixture_dir, &b, &err), 0);
	assert_int_equal(journal_original(fixture_dir, "BRIDGE01", "5000CCA0000000AA", &got, &err),
			 0);
	assert_true(got.original_blocks == 10);
	assert_int_equal(journal_original(fixture_dir, "BRIDGE01", "5000cca0000000bb", &got, &err),
			 0);
	assert_true(got.original_blocks == 20);
	/* a record without a WWN is found by its serial */
	assert_int_equal(journal_original(fixture_dir, "BRIDGE01", "", &got, &err), 0);
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
	    journal_parse_line("{\"event\":\"limit\",\"serial\":\"a\",\"target_blocks\":-1}", 49,
			       &e, &err),
	    0);
	assert_non_null(strstr(err.msg, "target_blocks"));

	journal_path(fixture_dir, path, sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"event\":\"limit\",\"serial\":\"S9\",\"original_blocks\":5}\n", f);
	fputs("garbage\n", f);
	fclose(f);
	assert_int_equal(journal_original(fixture_dir, "S9", "", &got, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "journal.jsonl:2:"));
}

/* ---- concurrency, torn lines, old journals, absurd records ---------------- */

static char warned[4][700];
static unsigned nwarned;

static void take_warning(void *arg, const char *msg)
{
	(void)arg;
	if (nwarned < 4)
		snprintf(warned[nwarned], sizeof(warned[0]), "%s", msg);
	nwarned++;
}

static void warnings_reset(void)
{
	nwarned = 0;
	memset(warned, 0, sizeof(warned));
	journal_set_warn(take_warning, NULL);
}

#define WRITERS 8
#define PER_WRITER 150

static void append_many(const char *who)
{
	for (unsigned i = 0; i < PER_WRITER; i++) {
		struct journal_entry e = entry("limit", who, 1000000 + i, 500000);
		struct ss_error err = { 0 };

		snprintf(e.device, sizeof(e.device), "sim:%s-%u", who, i);
		if (journal_append(fixture_dir, &e, &err))
			fail_msg("append: %s", err.msg);
	}
}

static void *writer_thread(void *arg)
{
	append_many(arg);
	return NULL;
}

struct tally {
	unsigned seen[PER_WRITER];
	unsigned total;
};

static int tally_cb(void *arg, const struct journal_entry *e)
{
	struct tally *t = arg;

	t->total++;
	if (e->original_blocks >= 1000000 && e->original_blocks < 1000000 + PER_WRITER)
		t->seen[e->original_blocks - 1000000]++;
	return 0;
}

/* every writer's every record is there once, each on a line of its own */
static void check_all_written(const char names[WRITERS][8])
{
	struct ss_error err = { 0 };
	char path[300], *line = NULL;
	size_t cap = 0;
	unsigned lines = 0;
	ssize_t n;
	FILE *f;

	for (unsigned w = 0; w < WRITERS; w++) {
		struct tally t;

		memset(&t, 0, sizeof(t));
		assert_int_equal(journal_for_disk(fixture_dir, names[w], "", tally_cb, &t, &err),
				 0);
		assert_int_equal(t.total, PER_WRITER);
		for (unsigned i = 0; i < PER_WRITER; i++)
			assert_int_equal(t.seen[i], 1);
	}
	journal_path(fixture_dir, path, sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	while ((n = getline(&line, &cap, f)) >= 0) {
		lines++;
		assert_null(strstr(line, "}{"));
		assert_true(n > 2 && line[0] == '{' && line[n - 2] == '}' && line[n - 1] == '\n');
	}
	free(line);
	fclose(f);
	assert_int_equal(lines, WRITERS * PER_WRITER);
}

static void test_concurrent_threads(void **state)
{
	char names[WRITERS][8];
	pthread_t th[WRITERS];

	(void)state;
	for (unsigned w = 0; w < WRITERS; w++) {
		snprintf(names[w], sizeof(names[w]), "T%u", w);
		assert_int_equal(pthread_create(&th[w], NULL, writer_thread, names[w]), 0);
	}
	for (unsigned w = 0; w < WRITERS; w++)
		pthread_join(th[w], NULL);
	check_all_written(names);
}

static void test_concurrent_processes(void **state)
{
	char names[WRITERS][8];
	pid_t pid[WRITERS];

	(void)state;
	for (unsigned w = 0; w < WRITERS; w++) {
		snprintf(names[w], sizeof(names[w]), "P%u", w);
		pid[w] = fork();
		assert_true(pid[w] >= 0);
		if (pid[w] == 0) {
			append_many(names[w]);
			_exit(0);
		}
	}
	for (unsigned w = 0; w < WRITERS; w++) {
		int st;

		assert_int_equal(waitpid(pid[w], &st, 0), pid[w]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	check_all_written(names);
}

static void write_raw(const char *text)
{
	char path[300];
	FILE *f;

	journal_path(fixture_dir, path, sizeof(path));
	f = fopen(path, "a");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_torn_last_line(void **state)
{
	struct journal_entry e, got;
	struct ss_error err = { 0 };
	struct tally t;

	(void)state;
	warnings_reset();
	e = entry("limit", "S1", 900, 450);
	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
	/* a crash in the middle of the next append */
	write_raw(
	    "{\"time\":\"2026-01-01T00:00:00Z\",\"event\":\"restore-done\",\"serial\":\"S1\",\"or");
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), 0);
	assert_true(got.original_blocks == 900);
	assert_int_equal(got.line, 1);
	assert_int_equal(nwarned, 1);
	assert_non_null(strstr(warned[0], "journal.jsonl:2: the last line is incomplete"));
	/* asked again: the same warning is not repeated */
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), 0);
	assert_int_equal(nwarned, 1);

	/* the next append starts a line of its own: nothing after the tear is lost */
	e = entry("limit", "S2", 800, 400);
	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
	assert_int_equal(journal_original(fixture_dir, "S2", "", &got, &err), 0);
	assert_true(got.original_blocks == 800);
	assert_int_equal(got.line, 3);
	memset(&t, 0, sizeof(t));
	assert_int_equal(journal_for_disk(fixture_dir, "S1", "", tally_cb, &t, &err), 0);
	assert_int_equal(t.total, 1);
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), 0); /* still open */
	assert_int_equal(nwarned, 2);
	assert_non_null(strstr(warned[1], "journal.jsonl:2: an incomplete record"));
	journal_set_warn(NULL, NULL);
}

static void test_two_records_on_one_line(void **state)
{
	struct journal_entry got;
	struct ss_error err = { 0 };
	struct tally t;

	(void)state;
	/* what the old two-write() appends left when batch threads interleaved */
	write_raw(
	    "{\"event\":\"limit\",\"serial\":\"A\",\"block_len\":512,\"original_blocks\":1000000}"
	    "{\"event\":\"limit\",\"serial\":\"B\",\"block_len\":512,\"original_blocks\":1000001}\n"
	    "\n"
	    "{\"event\":\"limit-done\",\"serial\":\"A\",\"original_blocks\":1000000}  "
	    "{\"event\":\"restore-done\",\"serial\":\"A\"}"
	    "{\"event\":\"limit\",\"serial\":\"A\",\"block_len\":512,\"original_blocks\":1000002}\n");
	assert_int_equal(journal_original(fixture_dir, "B", "", &got, &err), 0);
	assert_true(got.original_blocks == 1000001);
	assert_int_equal(got.line, 1);
	assert_int_equal(journal_original(fixture_dir, "A", "", &got, &err), 0);
	assert_true(got.original_blocks == 1000002); /* after A's restore-done on line 3 */
	assert_int_equal(got.line, 3);
	memset(&t, 0, sizeof(t));
	assert_int_equal(journal_for_disk(fixture_dir, "A", "", tally_cb, &t, &err), 0);
	assert_int_equal(t.total, 4);
}

static void test_unreadable_lines(void **state)
{
	struct journal_entry got;
	struct ss_error err = { 0 };

	(void)state;
	warnings_reset();
	write_raw(
	    "{\"event\":\"limit\",\"serial\":\"MINE\",\"block_len\":512,\"original_blocks\":7}\n"
	    "{\"event\":\"limit\",\"serial\":\"OTHER\",\"block_len\":\"x\"}\n"
	    "{\"event\":\"limit\",\"serial\":\"OTHER2\",orig: 5}\n");
	/* other disks' bad lines: warnings naming them, and MINE is read */
	assert_int_equal(journal_original(fixture_dir, "MINE", "", &got, &err), 0);
	assert_true(got.original_blocks == 7);
	assert_int_equal(nwarned, 2);
	assert_non_null(strstr(warned[0], "journal.jsonl:2:"));
	assert_non_null(strstr(warned[0], "serial OTHER)"));
	assert_non_null(strstr(warned[1], "journal.jsonl:3:"));
	assert_non_null(strstr(warned[1], "serial OTHER2"));
	/* for the disk a bad line concerns, it is an error naming the line */
	assert_int_equal(journal_original(fixture_dir, "OTHER", "", &got, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "journal.jsonl:2:"));
	assert_non_null(strstr(err.msg, "concerns this disk"));
	assert_non_null(strstr(err.msg, "block_len"));
	journal_set_warn(NULL, NULL);
}

static void test_absurd_record(void **state)
{
	struct journal_entry e, got;
	struct ss_error err = { 0 };
	char text[1024];

	(void)state;
	e = entry("limit", "S1", 1000000, 500000);
	assert_int_equal(journal_entry_check(&e, &err), 0);
	e.block_len = 3;
	assert_int_equal(journal_entry_check(&e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "block length of 3"));
	e = entry("limit", "S1", 0, 500000);
	assert_int_equal(journal_entry_check(&e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "original capacity of 0"));
	e = entry("limit", "S1", 2000000, 500000); /* native is 1000000 */
	assert_int_equal(journal_entry_check(&e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "beyond the native"));
	e = entry("limit", "S1", UINT64_C(1) << 62, 500000);
	e.native_blocks = 0;
	assert_int_equal(journal_entry_check(&e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "2^60"));

	/* read back, not dropped: the caller decides, and can show it */
	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), 0);
	assert_true(got.original_blocks == UINT64_C(1) << 62);
	assert_int_equal(got.line, 1);
	journal_entry_text(&got, text, sizeof(text));
	assert_non_null(strstr(text, "\"original_blocks\":4611686018427387904"));
	assert_non_null(strstr(text, "\"serial\":\"S1\""));
}

static void test_disk_lock(void **state)
{
	struct ss_error err = { 0 };
	int fd1, fd2;

	(void)state;
	assert_int_equal(journal_lock_disk(fixture_dir, "S1", "", &fd1, &err), 0);
	assert_true(fd1 >= 0);
	/* another holder (another descriptor, as another process has) is refused */
	assert_int_equal(journal_lock_disk(fixture_dir, "S1", "", &fd2, &err), -EBUSY);
	assert_int_equal(fd2, -1);
	assert_non_null(strstr(err.msg, "another shortstroke process"));
	assert_int_equal(journal_lock_disk(fixture_dir, "S2", "", &fd2, &err), 0);
	journal_unlock_disk(fd2);
	journal_unlock_disk(fd1);
	assert_int_equal(journal_lock_disk(fixture_dir, "S1", "", &fd1, &err), 0);
	journal_unlock_disk(fd1);
	assert_int_equal(journal_lock_disk(fixture_dir, "", "", &fd1, &err), 0);
	assert_int_equal(fd1, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip_and_original, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_wwn_match, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_shared_serial_two_wwns, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_malformed, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_threads, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_processes, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_torn_last_line, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_two_records_on_one_line, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_lines, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_absurd_record, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_disk_lock, fixture_dir_setup,
						fixture_dir_teardown),
	};

	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
