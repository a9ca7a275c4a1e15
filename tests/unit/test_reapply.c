/* The bookkeeping of reapply: which journaled limits are open, which disk
 * carries them (serial/WWN, never the name), and what state the disk is in. */
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

#include "shortstroke/reapply.h"

#include "fixture.h"

static struct journal_entry rec(const char *event, const char *serial, const char *wwn,
				uint64_t target, bool vol)
{
	struct journal_entry e;

	memset(&e, 0, sizeof(e));
	snprintf(e.event, sizeof(e.event), "%s", event);
	snprintf(e.device, sizeof(e.device), "/dev/sdb");
	snprintf(e.serial, sizeof(e.serial), "%s", serial);
	snprintf(e.wwn, sizeof(e.wwn), "%s", wwn);
	snprintf(e.model, sizeof(e.model), "WDC WD20EFRX");
	snprintf(e.method, sizeof(e.method), "hpa");
	e.block_len = 512;
	e.native_blocks = 1000000;
	e.original_blocks = 1000000;
	e.target_blocks = target;
	e.volatile_ = vol;
	return e;
}

static void put(struct journal_entry e)
{
	struct ss_error err = { 0 };

	assert_int_equal(journal_append(fixture_dir, &e, &err), 0);
}

static void test_same_disk(void **state)
{
	struct journal_entry e = rec("limit-done", "S1", "5000c500a1b2c3d4", 1, false);

	(void)state;
	assert_true(reapply_same_disk(&e, "S1", "5000C500A1B2C3D4"));
	assert_true(reapply_same_disk(&e, "S1", "")); /* no WWN now: the serial decides */
	assert_true(reapply_same_disk(&e, "", "5000c500a1b2c3d4"));
	assert_false(reapply_same_disk(&e, "S2", "5000c500a1b2c3d4")); /* a clash: not it */
	assert_false(reapply_same_disk(&e, "S1", "5000c500a1b2c3d5"));
	assert_false(reapply_same_disk(&e, "", ""));
	e.wwn[0] = '\0';
	assert_false(reapply_same_disk(&e, "", "5000c500a1b2c3d4")); /* nothing shared */
}

static void test_pending(void **state)
{
	struct journal_entry *p, *st;
	struct ss_error err = { 0 };
	size_t n, ns;

	(void)state;
	assert_int_equal(reapply_pending(fixture_dir, &p, &n, &st, &ns, &err), 0); /* no journal */
	assert_int_equal(n, 0);
	/* A: volatile, done; B: done then restored; C: a limit that never
	 * completed after a done one; D: volatile replaced by a permanent one */
	put(rec("limit", "A", "", 500000, true));
	put(rec("limit-done", "A", "", 500000, true));
	put(rec("limit", "B", "", 400000, true));
	put(rec("limit-done", "B", "", 400000, true));
	put(rec("restore", "B", "", 1000000, false));
	put(rec("restore-done", "B", "", 1000000, false));
	put(rec("limit-done", "C", "", 300000, true));
	put(rec("limit", "C", "", 200000, true));
	put(rec("limit-done", "D", "", 600000, true));
	put(rec("restore-done", "D", "", 1000000, false));
	put(rec("limit", "D", "", 700000, false));
	put(rec("limit-done", "D", "", 700000, false));
	assert_int_equal(reapply_pending(fixture_dir, &p, &n, &st, &ns, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(p[0].serial, "A");
	assert_true(p[0].volatile_);
	assert_int_equal(p[0].target_blocks, 500000);
	assert_string_equal(p[1].serial, "D");
	assert_false(p[1].volatile_);
	assert_int_equal(p[1].target_blocks, 700000);
	assert_int_equal(ns, 1);
	assert_string_equal(st[0].serial, "C");
	assert_int_equal(st[0].target_blocks, 200000);
	free(p);
	free(st);
}

static struct journal_entry closed(const char *serial, const char *cause)
{
	struct journal_entry e = rec("restore-done", serial, "", 1000000, true);

	snprintf(e.cause, sizeof(e.cause), "%s", cause);
	return e;
}

/* What a killed reapply leaves (it writes a lapsed close, then "limit", then
 * "limit-done"): the done limit is still wanted, whatever the cut. What the
 * user does is followed: a restore ends it, a new limit that never completed
 * is reported (stale) with its own record. */
static void test_pending_after_kills(void **state)
{
	struct journal_entry *p, *st;
	struct ss_error err = { 0 };
	size_t n, ns;

	(void)state;
	/* E: killed after the lapsed close */
	put(rec("limit", "E", "", 500000, true));
	put(rec("limit-done", "E", "", 500000, true));
	put(closed("E", JOURNAL_CAUSE_LAPSED));
	/* F: killed after the "limit" of the same limit */
	put(rec("limit-done", "F", "", 500000, true));
	put(closed("F", JOURNAL_CAUSE_LAPSED));
	put(rec("limit", "F", "", 500000, true));
	/* G: the re-apply failed and the drive did not take it */
	put(rec("limit-done", "G", "", 500000, true));
	put(closed("G", JOURNAL_CAUSE_LAPSED));
	put(rec("limit", "G", "", 500000, true));
	put(closed("G", JOURNAL_CAUSE_FAILED));
	/* H: a new limit of the user's failed cleanly: the done one stays */
	put(rec("limit-done", "H", "", 500000, true));
	put(rec("limit", "H", "", 250000, true));
	put(closed("H", JOURNAL_CAUSE_FAILED));
	/* I: the user's restore, after a lapsed close: nothing wanted */
	put(rec("limit-done", "I", "", 500000, true));
	put(closed("I", JOURNAL_CAUSE_LAPSED));
	put(closed("I", ""));
	/* J: a new limit of the user's, killed: stale with it */
	put(rec("limit-done", "J", "", 500000, true));
	put(closed("J", JOURNAL_CAUSE_LAPSED));
	put(rec("limit", "J", "", 250000, true));
	/* K: the same limit re-applied after a new one was started: back to done */
	put(rec("limit-done", "K", "", 500000, true));
	put(rec("limit", "K", "", 250000, true));
	put(rec("limit", "K", "", 500000, true));
	assert_int_equal(reapply_pending(fixture_dir, &p, &n, &st, &ns, &err), 0);
	assert_int_equal(n, 5);
	assert_string_equal(p[0].serial, "E");
	assert_string_equal(p[1].serial, "F");
	assert_string_equal(p[2].serial, "G");
	assert_string_equal(p[3].serial, "H");
	assert_int_equal(p[3].target_blocks, 500000);
	assert_string_equal(p[4].serial, "K");
	for (size_t i = 0; i < n; i++)
		assert_string_equal(p[i].event, "limit-done");
	assert_int_equal(ns, 1);
	assert_string_equal(st[0].serial, "J");
	assert_string_equal(st[0].event, "limit");
	assert_int_equal(st[0].target_blocks, 250000);
	free(p);
	free(st);
}

static void test_malformed_journal(void **state)
{
	struct journal_entry *p;
	struct ss_error err = { 0 };
	char path[300];
	size_t n;
	FILE *f;

	(void)state;
	put(rec("limit-done", "A", "", 500000, true));
	journal_path(fixture_dir, path, sizeof(path));
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("{not json\n", f);
	fclose(f);
	assert_int_equal(reapply_pending(fixture_dir, &p, &n, NULL, NULL, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "journal.jsonl:2:"));
	assert_null(p);
}

static void test_find_and_check(void **state)
{
	struct journal_entry e = rec("limit-done", "S1", "", 500000, true);
	struct dev_entry devs[3];
	char why[400];

	(void)state;
	memset(devs, 0, sizeof(devs));
	for (int i = 0; i < 3; i++) {
		devs[i].identified = true;
		snprintf(devs[i].info.model, sizeof(devs[i].info.model), "WDC WD20EFRX");
		devs[i].info.logical_block = 512;
		devs[i].info.native_blocks = 1000000;
		devs[i].info.capacity_blocks = 1000000;
	}
	/* the journal's device name (/dev/sdb) means nothing: sdb is another disk now */
	snprintf(devs[0].spec, sizeof(devs[0].spec), "/dev/sdb");
	snprintf(devs[0].info.serial, sizeof(devs[0].info.serial), "S0");
	snprintf(devs[1].spec, sizeof(devs[1].spec), "/dev/sdc");
	snprintf(devs[1].info.serial, sizeof(devs[1].info.serial), "S1");
	devs[1].identified = false; /* not identified: never matched */
	snprintf(devs[2].spec, sizeof(devs[2].spec), "/dev/sdd");
	snprintf(devs[2].info.serial, sizeof(devs[2].info.serial), "S1");
	assert_int_equal(reapply_find(&e, devs, 3), 2);
	assert_int_equal(reapply_find(&e, devs, 2), -1);
	/* two attached disks carry the journaled serial (no WWN to tell them
	 * apart: disks behind USB bridges): neither is taken for it */
	devs[1].identified = true;
	assert_int_equal(reapply_find(&e, devs, 3), REAPPLY_AMBIGUOUS);
	devs[1].identified = false;

	assert_int_equal(reapply_check(&e, &devs[2].info, why, sizeof(why)), REAPPLY_NEEDED);
	devs[2].info.capacity_blocks = 500000;
	assert_int_equal(reapply_check(&e, &devs[2].info, why, sizeof(why)), REAPPLY_IN_PLACE);
	devs[2].info.capacity_blocks = 750000;
	assert_int_equal(reapply_check(&e, &devs[2].info, why, sizeof(why)), REAPPLY_CHANGED);
	assert_non_null(strstr(why, "750000 blocks"));
	devs[2].info.capacity_blocks = 1000000;
	e.volatile_ = false;
	assert_int_equal(reapply_check(&e, &devs[2].info, why, sizeof(why)), REAPPLY_LOST);
	assert_non_null(strstr(why, "ignore_hpa"));
	e.volatile_ = true;
	devs[2].info.logical_block = 4096;
	assert_int_equal(reapply_check(&e, &devs[2].info, why, sizeof(why)), REAPPLY_CHANGED);
	devs[2].info.logical_block = 512;
	snprintf(devs[2].info.model, sizeof(devs[2].info.model), "ST2000DM008");
	assert_int_equal(reapply_check(&e, &devs[2].info, why, sizeof(why)), REAPPLY_CHANGED);
	assert_string_equal(reapply_state_name(REAPPLY_CHANGED), "changed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_disk),
		cmocka_unit_test_setup_teardown(test_pending, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_pending_after_kills, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_malformed_journal, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test(test_find_and_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
