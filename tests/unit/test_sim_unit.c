/*
 * test_sim_unit.c - units that differ as real ones do (src/sim/sim_unit.c):
 * a model's spread drawn per serial (the same unit on every load, another
 * with another rig seed), the media's re-reads per zone, the weak head that
 * slows its own surface only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "shortstroke/devsrc.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sim.h"

#define DRIVE(id, serial)                                                                          \
	"{\"id\": \"" id "\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\", "     \
	"\"serial\": \"" serial "\", \"firmware\": \"F001\", \"wwn\": \"5000c50000000001\", "      \
	"\"blocks\": 4194304, \"rpm\": 7200, \"heads\": 4}"

static struct sim_rig *load(const char *head)
{
	char json[2048];
	struct sim_rig *rig = NULL;

	snprintf(json, sizeof(json), "{%s \"time_scale\": 0, \"drives\": [%s, %s, %s]}", head,
		 DRIVE("a", "SN-A"), DRIVE("b", "SN-B"), DRIVE("c", "SN-C"));
	assert_int_equal(fixture_rig_load(json, NULL, &rig), 0);
	return rig;
}

static void mech(struct sim_rig *rig, const char *id, struct dev_mechanics *m)
{
	sim_drive_mechanics(sim_rig_find(rig, id), m);
}

static void test_spread(void **state)
{
	const char *spread = "\"spread\": {\"seek_pct\": 3, \"rate_pct\": 2, \"rpm_pct\": 0.2, "
			     "\"overhead_pct\": 5},";
	char head[256];
	struct sim_rig *plain = load(""), *r1 = load(spread), *again = load(spread), *r2;
	struct dev_mechanics p, a, b, a2, a3;

	(void)state;
	/* no spread: every unit is the model */
	mech(plain, "a", &p);
	mech(plain, "b", &b);
	assert_memory_equal(&p, &b, sizeof(p));
	/* with it: units differ, by a few percent */
	mech(r1, "a", &a);
	mech(r1, "b", &b);
	assert_true(a.avg_ms != b.avg_ms && a.outer_mbps != b.outer_mbps);
	assert_true(a.overhead_ms != b.overhead_ms);
	assert_true(a.avg_ms > p.avg_ms * 0.91 && a.avg_ms < p.avg_ms * 1.09);
	assert_true(a.outer_mbps > p.outer_mbps * 0.93 && a.outer_mbps < p.outer_mbps * 1.07);
	/* seek times scale together, inner and outer rates too */
	assert_true(a.t2t_ms / p.t2t_ms > a.avg_ms / p.avg_ms - 1e-9 &&
		    a.t2t_ms / p.t2t_ms < a.avg_ms / p.avg_ms + 1e-9);
	/* the same serials, the same seed: the same units on every load */
	mech(again, "a", &a2);
	assert_memory_equal(&a, &a2, sizeof(a));
	/* another seed: another batch */
	snprintf(head, sizeof(head), "\"seed\": 7, %s", spread);
	r2 = load(head);
	mech(r2, "a", &a3);
	assert_true(a3.avg_ms != a.avg_ms);
	sim_rig_free(plain);
	sim_rig_free(r1);
	sim_rig_free(again);
	sim_rig_free(r2);
}

/* A READ(16) of n blocks at lba: its time */
static uint64_t read_ns(struct sim_drive *d, uint64_t lba, uint32_t n)
{
	static uint8_t buf[2048 * 512];
	struct ss_error err = { 0 };
	uint8_t cdb[16];
	struct xcmd c;

	scsi_build_read16(cdb, lba, n, false);
	fixture_xcmd(&c, cdb, 16, XFER_FROM_DEV, buf, (size_t)n * 512);
	c.discard = true;
	assert_int_equal(sim_drive_exec(d, &c, &err), 0);
	assert_int_equal(c.status, 0);
	return c.duration_ns;
}

static void test_weak_head(void **state)
{
	struct sim_rig *rig = load("");
	struct sim_drive *d = sim_rig_find(rig, "a");
	struct ss_error err = { 0 };
	uint64_t chunk = 4194304 / (64 * 4); /* 64 bands of 4 surfaces */
	uint64_t t0, t1, w0, w1;

	(void)state;
	/* 1 MiB from the start of a chunk of surface 0 and of surface 1, each
	 * after a read of the block before (sequential: no positioning) */
	read_ns(d, 10 * chunk - 1, 1);
	t0 = read_ns(d, 10 * chunk, 2048);
	read_ns(d, 13 * chunk - 1, 1);
	t1 = read_ns(d, 13 * chunk, 2048);
	assert_true(t1 > t0 * 0.9 && t1 < t0 * 1.1);
	assert_int_equal(sim_drive_inject(d, "weak-head:1:50", &err), 0);
	read_ns(d, 10 * chunk - 1, 1);
	w0 = read_ns(d, 10 * chunk, 2048); /* surface 2 (10 mod 4): as before */
	read_ns(d, 13 * chunk - 1, 1);
	w1 = read_ns(d, 13 * chunk, 2048); /* surface 1: half the rate, and re-reads */
	assert_true(w0 == t0);
	assert_true(w1 > t1 * 1.9);
	/* a head the drive does not have changes nothing */
	sim_drive_clear_faults(d);
	assert_int_equal(sim_drive_inject(d, "weak-head:9", &err), 0);
	read_ns(d, 13 * chunk - 1, 1);
	assert_true(read_ns(d, 13 * chunk, 2048) == t1);
	sim_drive_clear_faults(d);
	assert_int_equal(sim_drive_inject(d, "weak-head:32", &err), -EINVAL);
	assert_int_equal(sim_drive_inject(d, "weak-head:1:100", &err), -EINVAL);
	sim_rig_free(rig);
}

static void test_retries(void **state)
{
	struct sim_rig *rig = load("\"retries\": {\"outer_ppm\": 100000, \"inner_ppm\": 100000},");
	struct sim_drive *d = sim_rig_find(rig, "a");
	uint64_t first[64], slow = 0;

	(void)state;
	/* one granule (64 KiB) at a time, sequential: a tenth of them pay
	 * re-reads of a revolution (8.3 ms) each */
	read_ns(d, 1023, 1);
	for (unsigned i = 0; i < 64; i++) {
		first[i] = read_ns(d, 1024 + 128 * (uint64_t)i, 128);
		slow += first[i] > 8000000;
	}
	assert_true(slow >= 1 && slow <= 20);
	/* the same granules, the same re-reads: a marginal sector stays one */
	read_ns(d, 1023, 1);
	for (unsigned i = 0; i < 64; i++)
		assert_true(read_ns(d, 1024 + 128 * (uint64_t)i, 128) == first[i]);
	sim_rig_free(rig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_weak_head),
		cmocka_unit_test(test_retries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
