/* test_sim_dualact.c - the simulator's multi-actuator drives: the ranges
 * they report (the ATA log 47h through SAT, VPD page B9h on SAS and as
 * libata translates it) read back by identification, the rig's checks,
 * and the timing in virtual time: two head stacks serve their ranges at
 * the same time, so random IOPS of the two ranges add up to twice what a
 * drive of one range does at half the queue depth, while one sequential
 * stream runs at its range's rate. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "shortstroke/drive.h"
#include "shortstroke/io.h"
#include "shortstroke/sim.h"

#define S_NS 1000000000ull

/* A dual-actuator drive and a drive that is one of its actuators: half
 * the blocks over the same stroke, the same mechanics */
#define MECH                                                                                       \
	"\"rpm\": 7200, \"media\": {\"avg_seek_ms\": 8.5, \"track_to_track_ms\": 0.8,"             \
	" \"full_stroke_ms\": 16, \"outer_mbps\": 270, \"inner_mbps\": 130}, \"heads\": 16"
static const char rig_json[] =
    "{\"time_scale\": 0, \"drives\": [\n"
    " {\"id\": \"dual\", \"personality\": \"sata\", \"model\": \"M2\", \"serial\": \"D1\","
    "  \"firmware\": \"F1\", \"blocks\": 35156656128, \"actuators\": 2, " MECH "},\n"
    " {\"id\": \"half\", \"personality\": \"sata\", \"model\": \"M1\", \"serial\": \"H1\","
    "  \"firmware\": \"F1\", \"blocks\": 17578328064, " MECH "},\n"
    " {\"id\": \"dualsas\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M2S\","
    "  \"serial\": \"D2\", \"firmware\": \"F001\", \"wwn\": \"5000c500d1e2f3b8\","
    "  \"blocks\": 35156656128, \"actuators\": 2, " MECH "}\n"
    "]}";

static struct sim_rig *rig;

static int setup(void **state)
{
	(void)state;
	return fixture_rig_load(rig_json, NULL, &rig);
}

static int teardown(void **state)
{
	(void)state;
	sim_rig_free(rig);
	return 0;
}

static void identify(const char *id, struct drive_info *out)
{
	struct ss_error err = { 0 };
	struct transport *tr;
	struct drive *d;

	assert_int_equal(transport_open_sim(sim_rig_find(rig, id), &tr, &err), 0);
	assert_int_equal(drive_new(tr, TRAN_UNKNOWN, &d, &err), 0);
	assert_int_equal(drive_identify(d, out, &err), 0);
	drive_free(d);
}

static void test_ranges(void **state)
{
	static const char *const ids[] = { "dual", "dualsas" };
	struct drive_info i;

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		identify(ids[k], &i);
		assert_int_equal(i.ranges.n, 2);
		assert_true(cpr_valid(&i.ranges, i.capacity_blocks));
		assert_int_equal(i.ranges.r[1].lba, 17578328064ull);
		assert_int_equal(i.ranges.r[0].elements, 8); /* 16 heads, two stacks */
	}
	assert_true(i.ata == false);
	identify("half", &i);
	assert_int_equal(i.ranges.n, 0);
	assert_int_equal(sim_drive_actuators(sim_rig_find(rig, "dual")), 2);
	assert_int_equal(sim_drive_actuators(sim_rig_find(rig, "half")), 1);
	assert_int_equal(sim_drive_actuator_of(sim_rig_find(rig, "dual"), 17578328063ull), 0);
	assert_int_equal(sim_drive_actuator_of(sim_rig_find(rig, "dual"), 17578328064ull), 1);
}

static void test_rig_checks(void **state)
{
	struct sim_rig *r = NULL;
	struct ss_error err = { 0 };

	(void)state;
	assert_int_not_equal(
	    sim_rig_load_string(
		"{\"drives\": [{\"id\": \"z\", \"personality\": \"sata\","
		" \"model\": \"M\", \"serial\": \"S\", \"firmware\": \"F\","
		" \"blocks\": 1000000, \"actuators\": 2, \"zoned\": \"host-aware\"}]}",
		"t.json", NULL, &r, &err),
	    0);
	assert_non_null(strstr(err.msg, "actuators"));
	memset(&err, 0, sizeof(err));
	assert_int_not_equal(
	    sim_rig_load_string("{\"drives\": [{\"id\": \"z\", \"personality\": \"sata\","
				" \"model\": \"M\", \"serial\": \"S\", \"firmware\": \"F\","
				" \"blocks\": 1000000, \"actuators\": 5}]}",
				"t.json", NULL, &r, &err),
	    0);
	assert_non_null(strstr(err.msg, "actuators"));
}

static void run(const char *id, enum io_workload w, unsigned qd, double span, struct io_result *res)
{
	struct sim_rig *fresh = NULL;
	struct ss_error err = { 0 };
	struct io_dev *dev = NULL;
	struct io_job j;

	assert_int_equal(fixture_rig_load(rig_json, NULL, &fresh), 0);
	assert_int_equal(fixture_sim_io(fresh, id, false, &dev, &err), 0);
	io_job_init(&j);
	io_job_set_workload(&j, w);
	j.qd = qd;
	j.time_ns = 20 * S_NS;
	j.seed = 7;
	j.end_lba = (uint64_t)((double)io_dev_geom(dev)->blocks * span);
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_true(res->virtual_time);
	print_message("%-5s %-13s QD %2u: %7.1f IOPS %7.1f MB/s\n", id, io_workload_name(w), qd,
		      res->iops, res->mbps);
	io_dev_close(dev);
	sim_rig_free(fresh);
}

static void test_random_adds_up(void **state)
{
	static const unsigned qds[] = { 4, 16, 32 };
	struct io_result d, h;

	(void)state;
	/* one command at a time: nothing to overlap */
	run("dual", IO_WL_RANDOM_ACCESS, 1, 1.0, &d);
	run("half", IO_WL_RANDOM_ACCESS, 1, 1.0, &h);
	assert_true(fabs(d.iops / h.iops - 1) < 0.10);
	for (unsigned k = 0; k < 3; k++) {
		run("dual", IO_WL_RANDOM_ACCESS, qds[k], 1.0, &d);
		run("half", IO_WL_RANDOM_ACCESS, qds[k] / 2, 1.0, &h);
		/* the two ranges' IOPS add up: each holds about half the queue,
		 * unevenly at a small depth (all four in one range at times) */
		assert_true(d.iops > (qds[k] < 16 ? 1.65 : 1.85) * h.iops);
		assert_true(d.iops < 2.05 * h.iops);
	}
}

static void test_sequential_per_range(void **state)
{
	struct io_result d, h;

	(void)state;
	/* one stream: the outer edge of actuator 0's range, as fast as the
	 * outer edge of a drive of one range */
	run("dual", IO_WL_SEQ_READ, 1, 0.2, &d);
	run("half", IO_WL_SEQ_READ, 1, 0.4, &h);
	assert_true(fabs(d.mbps / h.mbps - 1) < 0.02);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_rig_checks),
		cmocka_unit_test(test_random_adds_up),
		cmocka_unit_test(test_sequential_per_range),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
