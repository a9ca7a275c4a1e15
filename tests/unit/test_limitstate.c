/* test_limitstate.c - is a disk limited, by what, from where (list, info,
 * the planner and limit --percent all go by this). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/capacity.h"
#include "shortstroke/journal.h"

#include "fixture.h"

static struct drive_info ata(uint64_t cap, uint64_t native, uint64_t dco)
{
	struct drive_info i;

	memset(&i, 0, sizeof(i));
	i.ata = true;
	i.logical_block = 512;
	i.capacity_blocks = cap;
	i.native_blocks = native;
	i.dco_max_blocks = dco;
	i.methods = METHOD_HPA | METHOD_DCO | METHOD_PARTITION;
	return i;
}

static struct drive_info scsi(uint64_t cap)
{
	struct drive_info i;

	memset(&i, 0, sizeof(i));
	i.logical_block = 512;
	i.capacity_blocks = cap;
	i.methods = METHOD_SCSI_RESIZE | METHOD_SCSI_FORMAT | METHOD_PARTITION;
	return i;
}

static struct journal_entry rec(const char *method, uint64_t original, uint64_t target)
{
	struct journal_entry j;

	memset(&j, 0, sizeof(j));
	snprintf(j.event, sizeof(j.event), "limit");
	snprintf(j.method, sizeof(j.method), "%s", method);
	j.block_len = 512;
	j.original_blocks = original;
	j.target_blocks = target;
	return j;
}

static void test_from_the_drive(void **state)
{
	struct drive_info i = ata(500, 1000, 1000);
	struct journal_entry j = rec("amac", 1000, 500);
	struct dev_limit l;

	(void)state;
	cap_limit_state(&i, NULL, &l);
	assert_true(l.limited);
	assert_false(l.from_journal);
	assert_string_equal(l.method, "hpa");
	assert_int_equal(l.original_blocks, 1000);
	assert_int_equal(l.limit_blocks, 500);
	/* the journal tells AMAC from HPA; the numbers stay the drive's */
	cap_limit_state(&i, &j, &l);
	assert_string_equal(l.method, "amac");
	assert_false(l.from_journal);
	/* DCO: the native max itself is below the DCO maximum */
	i = ata(800, 800, 1000);
	cap_limit_state(&i, NULL, &l);
	assert_true(l.limited);
	assert_string_equal(l.method, "dco");
	assert_int_equal(l.original_blocks, 1000);
	/* not limited */
	i = ata(1000, 1000, 1000);
	cap_limit_state(&i, NULL, &l);
	assert_false(l.limited);
}

static void test_from_the_journal(void **state)
{
	struct drive_info i = scsi(200);
	struct journal_entry j = rec("scsi-resize", 1000, 200);
	struct dev_limit l;

	(void)state;
	cap_limit_state(&i, NULL, &l);
	assert_false(l.limited); /* nothing tells */
	cap_limit_state(&i, &j, &l);
	assert_true(l.limited);
	assert_true(l.from_journal);
	assert_string_equal(l.method, "scsi-resize");
	assert_int_equal(l.original_blocks, 1000);
	assert_int_equal(l.limit_blocks, 200);
	/* the partition method: the disk keeps its size, the partition is in use */
	i = scsi(1000);
	j = rec("partition", 1000, 300);
	cap_limit_state(&i, &j, &l);
	assert_true(l.limited);
	assert_string_equal(l.method, "partition");
	assert_int_equal(l.limit_blocks, 300);
}

static void test_stale_journal(void **state)
{
	struct drive_info i = scsi(1000);
	struct journal_entry j = rec("scsi-resize", 1000, 200);
	struct dev_limit l;

	(void)state;
	/* restored by another tool: the record no longer matches the drive */
	cap_limit_state(&i, &j, &l);
	assert_false(l.limited);
	/* another block size: not this format any more */
	i = scsi(200);
	j.block_len = 4096;
	cap_limit_state(&i, &j, &l);
	assert_false(l.limited);
}

static void test_full_capacity(void **state)
{
	struct drive_info i = ata(500, 1000, 1000);
	struct journal_entry j = rec("scsi-resize", 1000, 200);
	uint64_t b;

	(void)state;
	assert_int_equal(cap_full_capacity(&i, NULL, &b), CAP_FULL_NATIVE);
	assert_int_equal(b, 1000);
	i = scsi(200);
	assert_int_equal(cap_full_capacity(&i, &j, &b), CAP_FULL_JOURNAL);
	assert_int_equal(b, 1000);
	assert_int_equal(cap_full_capacity(&i, NULL, &b), CAP_FULL_CURRENT);
	assert_int_equal(b, 200);
	assert_string_equal(cap_full_source_name(CAP_FULL_JOURNAL), "the journaled original");
}

/* A volatile HPA: the journal's newest record says so, for the capacity the
 * drive has now; a permanent one after it, or a power cycle, and it is not. */
static void test_volatile(void **state)
{
	struct drive_info i = ata(500, 1000, 1000);
	struct journal_entry orig = rec("hpa", 1000, 500), last = rec("hpa", 1000, 500);
	struct dev_limit l;

	(void)state;
	snprintf(last.event, sizeof(last.event), "limit-done");
	last.volatile_ = true;
	cap_limit_state(&i, &orig, &l);
	assert_true(cap_limit_volatile(&i, &l, &last));
	assert_false(cap_limit_volatile(&i, &l, NULL));
	/* an intent not done, another size, a permanent change */
	snprintf(last.event, sizeof(last.event), "limit");
	assert_false(cap_limit_volatile(&i, &l, &last));
	snprintf(last.event, sizeof(last.event), "limit-done");
	last.target_blocks = 400;
	assert_false(cap_limit_volatile(&i, &l, &last));
	last.target_blocks = 500;
	last.volatile_ = false;
	assert_false(cap_limit_volatile(&i, &l, &last));
	/* the drive at its native max again (power-cycled): not limited at all */
	last.volatile_ = true;
	i = ata(1000, 1000, 1000);
	cap_limit_state(&i, &orig, &l);
	assert_false(cap_limit_volatile(&i, &l, &last));
}

/* The GPT the partition method wrote may be taken back by restore when it is
 * the disk's only use: not when its partition holds a filesystem; an md
 * superblock there only when the disk is a member being taken down. */
static void test_label_is_ours(void **state)
{
	struct journal_entry j = rec("partition", 1000, 400);
	struct dev_entry e;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.info = scsi(1000);
	snprintf(e.info.serial, sizeof(e.info.serial), "PART0001");
	e.state = DEV_IN_USE;
	e.label_only = true;
	assert_false(cap_label_is_ours(fixture_dir, &e, false)); /* nothing journaled */
	snprintf(j.serial, sizeof(j.serial), "PART0001");
	assert_int_equal(journal_append(fixture_dir, &j, NULL), 0);
	assert_true(cap_label_is_ours(fixture_dir, &e, false));
	assert_true(cap_label_is_ours(fixture_dir, &e, true));

	e.part_data = true; /* partition 1 holds linux_raid_member signature */
	assert_false(cap_label_is_ours(fixture_dir, &e, false));
	assert_true(cap_label_is_ours(fixture_dir, &e, true));
	e.part_not_md = true; /* ... or a filesystem */
	assert_false(cap_label_is_ours(fixture_dir, &e, false));
	assert_false(cap_label_is_ours(fixture_dir, &e, true));

	e.part_data = e.part_not_md = false;
	e.label_only = false; /* the partition is mounted or held */
	assert_false(cap_label_is_ours(fixture_dir, &e, false));
	assert_false(cap_label_is_ours(fixture_dir, &e, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_the_drive),
		cmocka_unit_test(test_from_the_journal),
		cmocka_unit_test(test_stale_journal),
		cmocka_unit_test(test_full_capacity),
		cmocka_unit_test(test_volatile),
		cmocka_unit_test_setup_teardown(test_label_is_ours, fixture_dir_setup,
						fixture_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
