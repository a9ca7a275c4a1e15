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
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <dirent.h>

#include "shortstroke/journal.h"
#include "shortstroke/reapply.h"

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

/* ---- NUL bytes and torn records anywhere ------------------------------------------ */

static void write_bytes(const void *data, size_t len)
{
	char path[300];
	FILE *f;

	journal_path(fixture_dir, path, sizeof(path));
	f = fopen(path, "a");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* A power loss left NUL bytes where the last write was never fsynced: the
 * next append closes that line, and it stays a torn record (a warning)
 * instead of a line that cannot be read, which would stop every command. */
static void test_nul_bytes(void **state)
{
	static const char zeros[300];
	struct journal_entry e, got;
	struct ss_error err = { 0 };

	(void)state;
	warnings_reset();
	e = entry("limit", "S1", 900, 450);
	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
	write_bytes(zeros, sizeof(zeros));
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), 0);
	e = entry("limit", "S2", 800, 400);
	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
	for (int k = 0; k < 3; k++) { /* every command, not only the next one */
		assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), 0);
		assert_true(got.original_blocks == 900);
		assert_int_equal(journal_original(fixture_dir, "S2", "", &got, &err), 0);
		assert_true(got.original_blocks == 800);
		assert_int_equal(got.line, 3);
	}
	assert_non_null(strstr(warned[nwarned - 1], "journal.jsonl:2: an incomplete record"));
	/* NUL bytes in the middle of a line, a whole record after them */
	write_raw("{\"time\":\"2026-01-01T00:00:00Z\",\"event\":\"limit\",\"serial\":\"S3\"");
	write_bytes(zeros, 40);
	write_raw("{\"event\":\"limit\",\"serial\":\"S4\",\"original_blocks\":44,"
		  "\"block_len\":512}\n");
	e = entry("limit", "S5", 700, 350);
	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
	assert_int_equal(journal_original(fixture_dir, "S4", "", &got, &err), 0);
	assert_true(got.original_blocks == 44);
	assert_int_equal(journal_original(fixture_dir, "S3", "", &got, &err), -ENOENT);
	assert_int_equal(journal_original(fixture_dir, "S5", "", &got, &err), 0);
	assert_non_null(strstr(warned[nwarned - 1], "journal.jsonl:4: an incomplete record"));
	journal_set_warn(NULL, NULL);
}

/* A record torn short, the next one written after it on the same line (a
 * journal of a version that did not close a torn tail): the torn one is
 * skipped with one warning, the whole one is read, nothing fails. */
static void test_torn_mid_line(void **state)
{
	struct journal_entry e, got;
	struct ss_error err = { 0 };

	(void)state;
	warnings_reset();
	write_raw("{\"time\":\"2026-01-01T00:00:00Z\",\"event\":\"restore-done\",\"serial\":\"S1\","
		  "\"orig");
	e = entry("limit", "S1", 900, 450);
	snprintf(e.time, sizeof(e.time), "2026-01-01T00:00:01Z");
	{
		char line[600];

		journal_entry_text(&e, line, sizeof(line));
		strcat(line, "\n");
		write_raw(line);
	}
	write_raw("{\"time\":\"2026-01-01T00:00:02Z\",\"event\":\"limit\",\"serial\":\"S2\",");
	e = entry("limit", "S2", 800, 400);
	snprintf(e.time, sizeof(e.time), "2026-01-01T00:00:03Z");
	{
		char line[600];

		journal_entry_text(&e, line, sizeof(line));
		strcat(line, "\n");
		write_raw(line);
	}
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), 0);
	assert_true(got.original_blocks == 900);
	assert_int_equal(journal_original(fixture_dir, "S2", "", &got, &err), 0);
	assert_true(got.original_blocks == 800);
	assert_int_equal(nwarned, 1); /* one warning for both */
	assert_non_null(strstr(warned[0], "2 incomplete records (lines 1, 2"));
	/* not a prefix of a record: still a line that cannot be read */
	write_raw("{\"event\":\"limit\",\"serial\":\"S1\",garbage{\"time\":\"x\"}\n");
	assert_int_equal(journal_original(fixture_dir, "S1", "", &got, &err), -EBADMSG);
	journal_set_warn(NULL, NULL);
}

/* ---- compaction ---------------------------------------------------------------------- */

/* The compaction tests write thousands of records, each fsynced: in /dev/shm
 * when there is one (the logic is the same; a disk's fsyncs would cost
 * tens of seconds on a shared machine). */
static int shm_setup(void **state)
{
	(void)state;
	snprintf(fixture_dir, sizeof(fixture_dir), "/dev/shm/ss-test_journal-XXXXXX");
	if (access("/dev/shm", W_OK) || !mkdtemp(fixture_dir))
		return fixture_dir_setup(state);
	return 0;
}

/* What every reader of the history reads of one disk (see keep_for_query in
 * journal.c): the original, the newest record, the last change, and what
 * reapply folds. */
struct view {
	int orig_rc, last_rc;
	struct journal_entry orig, last, change;
	bool has_change;
};

static int change_cb(void *arg, const struct journal_entry *e)
{
	struct view *v = arg;
	bool done = !strcmp(e->event, "limit-done") || !strcmp(e->event, "restore-done");

	if (done && e->original_blocks != e->target_blocks) {
		v->change = *e;
		v->has_change = true;
	}
	return 0;
}

static void view_of(const char *dir, const char *serial, const char *wwn, struct view *v)
{
	struct ss_error err = { 0 };

	memset(v, 0, sizeof(*v));
	v->orig_rc = journal_original(dir, serial, wwn, &v->orig, &err);
	v->last_rc = journal_last(dir, serial, wwn, &v->last, &err);
	assert_int_equal(journal_for_disk(dir, serial, wwn, change_cb, v, &err), 0);
}

/* The same record, wherever it was read (line and snapshot mark aside). */
static void same_record(const struct journal_entry *a, const struct journal_entry *b)
{
	struct journal_entry x = *a, y = *b;

	x.line = y.line = 0;
	x.snapshot = y.snapshot = false;
	memset(x.time, 0, sizeof(x.time)); /* two journals written apart */
	memset(y.time, 0, sizeof(y.time));
	assert_memory_equal(&x, &y, sizeof(x));
}

static void same_view(const struct view *a, const struct view *b)
{
	assert_int_equal(a->orig_rc, b->orig_rc);
	assert_int_equal(a->last_rc, b->last_rc);
	if (!a->orig_rc)
		same_record(&a->orig, &b->orig);
	if (!a->last_rc)
		same_record(&a->last, &b->last);
	assert_int_equal(a->has_change, b->has_change);
	if (a->has_change)
		same_record(&a->change, &b->change);
}

/* Disks as a fleet may have them: some with a WWN, two behind USB bridges
 * that share a serial and have none, two that share a serial and have
 * their own WWNs, one whose records once lacked its WWN. */
static const char *const serials[] = { "A1", "B2", "USB0", "USB0", "BR1", "BR1", "C3", "C3" };
static const char *const wwns[] = {
	"5000c500aaaa0001", "", "", "", "5000c500bbbb0001", "5000C500BBBB0002",
	"5000c500cccc0001", ""
};
#define NDISK (sizeof(serials) / sizeof(serials[0]))

static const char *const events[] = { "limit",	      "limit-done",   "restore",     "restore-done",
				      "restore-done", "restore-done", "array-create" };
static const char *const causes[] = {
	"", "", "", "", JOURNAL_CAUSE_LAPSED, JOURNAL_CAUSE_FAILED, ""
};

static void random_history(const char *dir, unsigned seed, unsigned n)
{
	struct ss_error err = { 0 };

	srand(seed);
	for (unsigned k = 0; k < n; k++) {
		unsigned d = (unsigned)rand() % NDISK, ev = (unsigned)rand() % 7;
		struct journal_entry e = entry(events[ev], serials[d],
					       1000000 - (rand() % 4) * 1000,
					       500000 + (uint64_t)(rand() % 3) * 1000);

		snprintf(e.wwn, sizeof(e.wwn), "%s", wwns[d]);
		snprintf(e.cause, sizeof(e.cause), "%s", causes[ev]);
		e.volatile_ = rand() % 2;
		if (rand() % 5 == 0)
			e.original_blocks = e.target_blocks; /* a no-op */
		assert_int_equal(journal_append(dir, &e, &err), 0);
	}
}

/* Every way a disk of the fleet can be asked for, each view before and after. */
#define NQUERY (NDISK + 4)
static void views(const char *dir, struct view *v)
{
	for (unsigned d = 0; d < NDISK; d++)
		view_of(dir, serials[d], wwns[d], &v[d]);
	view_of(dir, "BR1", "", &v[NDISK]);		       /* the bridge's serial alone */
	view_of(dir, "", "5000c500bbbb0002", &v[NDISK + 1]);   /* a WWN alone */
	view_of(dir, "C3", "5000c500ffff0000", &v[NDISK + 2]); /* a WWN no record has */
	view_of(dir, "A1", "5000C500CCCC0001", &v[NDISK + 3]); /* a cross of two disks' */
}

static void pending_of(const char *dir, struct journal_entry **p, size_t *n,
		       struct journal_entry **st, size_t *ns)
{
	struct ss_error err = { 0 };

	assert_int_equal(reapply_pending(dir, p, n, st, ns, &err), 0);
}

static int by_ids(const void *pa, const void *pb)
{
	const struct journal_entry *a = pa, *b = pb;
	int d = strcmp(a->serial, b->serial);

	return d ? d : strcasecmp(a->wwn, b->wwn);
}

/* The same disks with the same records (reapply sorts them by device) */
static void same_pending(struct journal_entry *a, size_t na, struct journal_entry *b, size_t nb)
{
	assert_int_equal(na, nb);
	if (na) {
		qsort(a, na, sizeof(*a), by_ids);
		qsort(b, nb, sizeof(*b), by_ids);
	}
	for (size_t i = 0; i < na; i++)
		same_record(&a[i], &b[i]);
	free(a);
	free(b);
}

static unsigned count_lines(const char *path)
{
	unsigned n = 0;
	int ch;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while ((ch = fgetc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

/* Compacted, the journal answers every reader as the whole one did, is
 * smaller, and the whole one is in journal.d. */
static void test_compact_same_answers(void **state)
{
	struct view before[NQUERY], after[NQUERY];
	struct journal_entry *p0, *p1, *s0, *s1;
	struct ss_error err = { 0 };
	size_t n0, n1, ns0, ns1;
	char path[300], hist[400];

	(void)state;
	journal_path(fixture_dir, path, sizeof(path));
	for (unsigned round = 0; round < 6; round++) {
		unsigned lines;

		random_history(fixture_dir, round * 7919 + 1, 200 + round * 50);
		views(fixture_dir, before);
		pending_of(fixture_dir, &p0, &n0, &s0, &ns0);
		lines = count_lines(path);
		assert_int_equal(journal_compact(fixture_dir, &err), 0);
		views(fixture_dir, after);
		pending_of(fixture_dir, &p1, &n1, &s1, &ns1);
		for (unsigned q = 0; q < NQUERY; q++)
			same_view(&before[q], &after[q]);
		same_pending(p0, n0, p1, n1);
		same_pending(s0, ns0, s1, ns1);
		assert_true(count_lines(path) < lines);
		snprintf(hist, sizeof(hist), "%s/journal.d/journal.%06u.jsonl", fixture_dir,
			 round + 1);
		assert_int_equal(count_lines(hist), lines);
	}
}

/* Past the size, an append compacts by itself (several times over a long
 * history): the journal stays small and reads as the whole one does (the
 * same history written where nothing compacts it). */
static void test_compact_on_append(void **state)
{
	struct view whole[NQUERY], compacted[NQUERY];
	struct journal_entry *p0, *p1, *s0, *s1;
	size_t n0, n1, ns0, ns1;
	char path[300], hist[400], other[300];
	struct stat st;

	(void)state;
	snprintf(other, sizeof(other), "%s/whole", fixture_dir);
	random_history(other, 43, 1500); /* the default size: not compacted */
	journal_set_compact_bytes(16384);
	random_history(fixture_dir, 43, 1500);
	journal_set_compact_bytes(0);
	journal_path(fixture_dir, path, sizeof(path));
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size < 16384 + 1024);
	snprintf(hist, sizeof(hist), "%s/journal.d/journal.000003.jsonl", fixture_dir);
	assert_int_equal(stat(hist, &st), 0);
	journal_path(other, path, sizeof(path));
	assert_int_equal(count_lines(path), 1500);
	views(other, whole);
	views(fixture_dir, compacted);
	for (unsigned q = 0; q < NQUERY; q++)
		same_view(&whole[q], &compacted[q]);
	pending_of(other, &p0, &n0, &s0, &ns0);
	pending_of(fixture_dir, &p1, &n1, &s1, &ns1);
	same_pending(p0, n0, p1, n1);
	same_pending(s0, ns0, s1, ns1);
}

/* A line that cannot be read is kept for a person to see: no compaction. */
static void test_compact_refuses_bad_line(void **state)
{
	struct ss_error err = { 0 };

	(void)state;
	random_history(fixture_dir, 5, 30);
	write_raw("garbage\n");
	assert_int_equal(journal_compact(fixture_dir, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "not compacted until it is repaired"));
}

/* ---- kill -9 at every point of appends and compactions --------------------------------- */

/*
 * The child kills itself (SIGKILL, as kill -9) at its n-th call of fsync,
 * link, rename or unlink, just before or just after it: every step of an
 * append and of a compaction (the stale temporaries removed, the link into
 * journal.d, its fsync, the new journal's fsync, the rename, the directory's
 * fsync) over the rounds. These definitions stand in for the C library's in
 * this program (the journal's code is linked into it); the parent leaves
 * them inert.
 */
static unsigned die_calls, die_at;
static bool die_after;
static int die_fd = -1;

static void die_point(const char *what, bool after)
{
	if (die_fd < 0 || die_calls != die_at || after != die_after)
		return;
	dprintf(die_fd, "%s %s", after ? "after" : "before", what);
	raise(SIGKILL);
}

int fsync(int fd)
{
	int rc;

	die_calls++;
	die_point("fsync", false);
	rc = (int)syscall(SYS_fsync, fd);
	die_point("fsync", true);
	return rc;
}

int link(const char *from, const char *to)
{
	int rc;

	die_calls++;
	die_point("link", false);
	rc = (int)syscall(SYS_link, from, to);
	die_point("link", true);
	return rc;
}

int rename(const char *from, const char *to)
{
	int rc;

	die_calls++;
	die_point("rename", false);
	rc = (int)syscall(SYS_rename, from, to);
	die_point("rename", true);
	return rc;
}

/* fileio's atomic writes rename with renameat, in the directory they hold */
int renameat(int fromfd, const char *from, int tofd, const char *to)
{
	int rc;

	die_calls++;
	die_point("rename", false);
	rc = (int)syscall(SYS_renameat, fromfd, from, tofd, to);
	die_point("rename", true);
	return rc;
}

int unlink(const char *path)
{
	int rc;

	die_calls++;
	die_point("unlink", false);
	rc = (int)syscall(SYS_unlink, path);
	die_point("unlink", true);
	return rc;
}

#define KILL_DISKS 4
#define KILL_ROUNDS 60

/* The child: records with target_blocks = their sequence number, one disk
 * after the other, from start on; after each append its number on ack. */
static void appender(int ack, int report, uint64_t start, unsigned at, bool after)
{
	journal_set_compact_bytes(3000); /* a compaction every score of appends */
	die_fd = report;
	die_calls = 0;
	die_at = at;
	die_after = after;
	for (uint64_t k = start;; k++) {
		struct journal_entry e = entry(k % 3 ? "limit" : "limit-done", "K0", 1 << 30, k);
		struct ss_error err = { 0 };

		e.serial[1] = (char)('0' + k % KILL_DISKS);
		if (journal_append(fixture_dir, &e, &err))
			_exit(2);
		if (write(ack, &k, sizeof(k)) != sizeof(k))
			_exit(3);
	}
}

static int hist_cb(void *arg, const struct journal_entry *e)
{
	unsigned char *seen = arg;

	if (!e->snapshot && e->target_blocks < 1000000)
		seen[e->target_blocks]++;
	return 0;
}

/* The records of journal.d's files that will not change any more (every
 * one but the journal itself under its second name), read once. */
static unsigned char arch_seen[1000000];
static unsigned arch_done;

static void read_archive(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		struct journal_entry e;
		struct ss_error err = { 0 };

		assert_int_equal(journal_parse_line(line, (size_t)n - 1, &e, &err), 0);
		if (!e.snapshot && e.target_blocks < 1000000)
			arch_seen[e.target_blocks]++;
	}
	free(line);
	fclose(f);
}

/* Every record once in the history: the files of journal.d in order, then
 * the journal (its snapshot records are copies). The highest number there. */
static uint64_t check_history(unsigned char *seen, uint64_t acked)
{
	char path[700];
	struct ss_error err = { 0 };
	struct stat live, st;
	uint64_t top = 0;

	memset(&live, 0, sizeof(live));
	journal_path(fixture_dir, path, sizeof(path));
	if (stat(path, &live))
		assert_int_equal(acked, 0); /* killed before the first record */
	for (unsigned n = arch_done + 1;; n++) {
		snprintf(path, sizeof(path), "%s/journal.d/journal.%06u.jsonl", fixture_dir, n);
		if (stat(path, &st))
			break;
		if (st.st_ino == live.st_ino) /* the journal itself: a compaction stopped */
			break;		      /* between its link and its rename */
		read_archive(path);
		arch_done = n;
	}
	memcpy(seen, arch_seen, sizeof(arch_seen));
	assert_int_equal(journal_for_each(fixture_dir, hist_cb, seen, &err), 0);
	for (uint64_t k = 1; k < acked + 1000 && k < 1000000; k++) { /* the child's reach */
		assert_true(seen[k] <= 1);			     /* never twice */
		if (k <= acked)
			assert_int_equal(seen[k], 1); /* never lost */
		if (seen[k])
			top = k;
	}
	assert_true(top <= acked + 1); /* at most the one in flight */
	return top;
}

/* Each disk's newest record is its newest acknowledged one, or the one in
 * flight. */
static void check_newest(uint64_t acked, uint64_t top)
{
	struct ss_error err = { 0 };
	struct journal_entry last;

	for (unsigned d = 0; d < KILL_DISKS && acked >= KILL_DISKS; d++) {
		char serial[3] = { 'K', (char)('0' + d), 0 };
		uint64_t want = acked - ((acked - d) % KILL_DISKS);

		assert_int_equal(journal_last(fixture_dir, serial, "", &last, &err), 0);
		assert_true(last.target_blocks == want ||
			    (last.target_blocks == top && top == acked + 1));
	}
}

static bool temp_there(void)
{
	struct dirent *d;
	bool found = false;
	DIR *dh = opendir(fixture_dir);

	while (dh && !found && (d = readdir(dh)))
		found = !strncmp(d->d_name, "journal.jsonl.tmp.", 18);
	if (dh)
		closedir(dh);
	return found;
}

/* One round: a child appends until it kills itself at call number at. */
static uint64_t kill_round(uint64_t acked, unsigned at, bool after, char *where, size_t len)
{
	int ack[2], rep[2];
	ssize_t n;
	uint64_t k;
	pid_t pid;
	int st;

	assert_int_equal(pipe(ack), 0);
	assert_int_equal(pipe(rep), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ack[0]);
		close(rep[0]);
		appender(ack[1], rep[1], acked + 1, at, after);
	}
	close(ack[1]);
	close(rep[1]);
	while (read(ack[0], &k, sizeof(k)) == sizeof(k))
		acked = k > acked ? k : acked;
	n = read(rep[0], where, len - 1);
	where[n > 0 ? n : 0] = '\0';
	close(ack[0]);
	close(rep[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	return acked;
}

static void test_compact_kill(void **state)
{
	unsigned char *seen = malloc(1000000);
	unsigned linked = 0, renamed = 0, temps = 0, compactions = 0;
	struct ss_error err = { 0 };
	uint64_t acked = 0;

	(void)state;
	assert_non_null(seen);
	for (unsigned round = 0; round < KILL_ROUNDS; round++) {
		char path[300], where[64];
		struct stat st;
		uint64_t top;

		/* calls 1..59 before and after, in an order that mixes them */
		acked = kill_round(acked, 1 + (round * 7) % 59, round % 2, where, sizeof(where));
		journal_path(fixture_dir, path, sizeof(path));
		linked += !stat(path, &st) && st.st_nlink > 1;
		temps += temp_there();
		compactions += strstr(where, "link") || strstr(where, "rename");
		renamed += !strcmp(where, "after rename");
		top = check_history(seen, acked);
		check_newest(acked, top);
		acked = top; /* the next child goes on after the newest record there */
	}
	printf("# compaction kill test: %u kills, %u in a compaction's link or rename, %u left a "
	       "temporary file, %u the journal linked into journal.d and not yet replaced, %u "
	       "right after the rename; nothing lost\n",
	       KILL_ROUNDS, compactions, temps, linked, renamed);
	/* the schedule lands in every step (it is the same at every run) */
	assert_true(temps > 0 && linked > 0 && renamed > 0);
	/* a compaction after all that finishes what was left, temporaries too */
	assert_int_equal(journal_compact(fixture_dir, &err), 0);
	assert_false(temp_there());
	check_history(seen, acked);
	free(seen);
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
		cmocka_unit_test_setup_teardown(test_nul_bytes, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_torn_mid_line, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_compact_same_answers, shm_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_compact_on_append, shm_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_compact_refuses_bad_line, shm_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_compact_kill, shm_setup, fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_disk_lock, fixture_dir_setup,
						fixture_dir_teardown),
	};

	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
