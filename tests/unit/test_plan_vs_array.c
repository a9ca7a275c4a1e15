/* test_plan_vs_array.c - libraidplan's array figures against what the simulated I/O engine
 * measures on a simulated md array of the same disks (issue 16, "Proof"): RAID 0, 10, 5, 6
 * and 50 of 2 to 8 disks, sequential read and write and 64 KiB random writes at queue
 * depths 1 and 16, without and with a path cap; within 10 %.
 *
 * The disks are the demo rig's 15K SAS drive eight times; the planner gets the simulator's
 * own mechanics (plan_fixture.h), md's default chunk of 512 KiB, the full stroke, and the
 * rig's path cap as its controller cap. The simulated array is a fresh rig for every
 * measurement (virtual time: deterministic, host-independent):
 *
 * - sequential: requests of one full stripe (the data chunks of a row, as a file system
 *   aligned to the array writes them), two outstanding, 1 s, MB/s, against the planner's
 *   figures at the outer edge (RP_FIG_SEQ_READ_START, RP_FIG_SEQ_WRITE_START);
 * - random writes: 64 KiB at random 64 KiB-aligned offsets, QD 1 for 4 s and QD 16 for 2 s,
 *   IOPS, against RP_FIG_RAND_WRITE_QD1 and RP_FIG_RAND_WRITE_QD.
 *
 * Each case prints a row of the table in docs/planning-model.md; every case must agree
 * within 10 %. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raidplan.h"
#include "shortstroke/io.h"
#include "shortstroke/sim.h"
#include "sim/sim_priv.h"

#include "fixture.h"
#include "plan_fixture.h"

#define TOLERANCE 0.10
#define DISKS 8
#define CHUNK_KIB 512
#define CAP_MBPS 250.0

enum wl { SEQ_READ, SEQ_WRITE, RAND_WRITE_QD1, RAND_WRITE_QD16, WL_COUNT };

static const char *const wl_name[WL_COUNT] = { "seq read", "seq write", "64K rand write QD1",
					       "64K rand write QD16" };
static const char *const wl_unit[WL_COUNT] = { "MB/s", "MB/s", "IOPS", "IOPS" };

struct layout {
	int level;    /* md's: 0, 10, 5, 6, 50 */
	int rp_level; /* the planner's */
	unsigned n;
};

/* Data chunks of a row: what a full-stripe request holds. */
static unsigned data_chunks(const struct layout *l)
{
	switch (l->level) {
	case 0:
		return l->n;
	case 10:
		return l->n / 2;
	case 5:
		return l->n - 1;
	case 6:
		return l->n - 2;
	default:
		return l->n - 2; /* 50: two groups of RAID 5 */
	}
}

/* A fresh rig: the demo's 15K drive DISKS times, the array "a" over the first l->n. */
static struct sim_rig *rig_of(const struct layout *l, bool capped)
{
	char json[8192];
	size_t len;
	struct sim_rig *rig = NULL;

	len = (size_t)snprintf(json, sizeof(json), "{\"time_scale\": 0, \"drives\": [");
	for (unsigned i = 0; i < DISKS; i++)
		len += (size_t)snprintf(
		    json + len, sizeof(json) - len,
		    "%s{\"id\": \"d%u\", \"personality\": \"sas\", \"vendor\": \"HITACHI\", "
		    "\"model\": \"HUS154545VLS300\", \"serial\": \"JWV2S8K%u\", "
		    "\"firmware\": \"SA07\", \"wwn\": \"5000cca00b3c1f2%u\", "
		    "\"blocks\": 879097968, \"rpm\": 15000, \"media\": {\"avg_seek_ms\": 3.3, "
		    "\"track_to_track_ms\": 0.4, \"full_stroke_ms\": 6.5, \"outer_mbps\": 157, "
		    "\"inner_mbps\": 98}}",
		    i ? ", " : "", i, i, i);
	len += (size_t)snprintf(
	    json + len, sizeof(json) - len,
	    "], \"arrays\": [{\"name\": \"a\", \"level\": %d, \"chunk_kib\": %d, "
	    "\"members\": [",
	    l->level, CHUNK_KIB);
	for (unsigned i = 0; i < l->n; i++)
		len += (size_t)snprintf(json + len, sizeof(json) - len, "%s\"d%u\"", i ? ", " : "",
					i);
	if (capped)
		snprintf(json + len, sizeof(json) - len,
			 "], \"path\": {\"read_mbps\": %g, \"write_mbps\": %g}}]}", CAP_MBPS,
			 CAP_MBPS);
	else
		snprintf(json + len, sizeof(json) - len, "]}]}");
	assert_int_equal(fixture_rig_load(json, NULL, &rig), 0);
	return rig;
}

static double measure(const struct layout *l, bool capped, enum wl w)
{
	struct sim_rig *rig = rig_of(l, capped);
	struct io_target t = { .array = sim_rig_find_array(rig, "a"), .write = w != SEQ_READ };
	struct ss_error err = { 0 };
	struct io_dev *dev = NULL;
	struct io_result res;
	struct io_job j;
	double v;

	assert_int_equal(io_dev_open("sim-array", &t, &dev, &err), 0);
	io_job_init(&j);
	j.seed = 1;
	if (w == SEQ_READ || w == SEQ_WRITE) {
		j.read_pct = w == SEQ_READ ? 100 : 0;
		j.random_pct = 0;
		j.bs = data_chunks(l) * CHUNK_KIB * 1024;
		j.qd = 2;
		j.time_ns = 1000000000ULL;
	} else {
		j.read_pct = 0;
		j.random_pct = 100;
		j.bs = 65536;
		j.qd = w == RAND_WRITE_QD1 ? 1 : 16;
		j.time_ns = w == RAND_WRITE_QD1 ? 4000000000ULL : 2000000000ULL;
	}
	if (io_dev_run(dev, &j, &res, &err))
		fail_msg("RAID %d of %u: %s", l->level, l->n, err.msg);
	assert_int_equal(res.errors, 0);
	v = w == SEQ_READ || w == SEQ_WRITE ? res.mbps : res.iops;
	io_dev_close(dev);
	sim_rig_free(rig);
	return v;
}

static double predict(const struct layout *l, bool capped, enum wl w)
{
	struct rp_disk disks[DISKS];
	struct rp_layout lay;
	struct rp_path path;
	struct rp_workload wl;
	struct rp_error err = { 0 };
	struct rp_eval *ev = NULL;
	struct sim_rig *rig = rig_of(l, false);
	double v;

	for (unsigned i = 0; i < DISKS; i++)
		fixture_plan_disk(sim_rig_drive(rig, i), &disks[i]);
	sim_rig_free(rig);
	rp_layout_init(&lay);
	lay.level = l->rp_level;
	lay.n_disks = l->n;
	lay.chunk_bytes = CHUNK_KIB * 1024;
	lay.stroke = 1.0;
	lay.groups = l->level == 50 ? 2 : 0;
	lay.copies = l->level == 10 ? 2 : 0;
	rp_path_init(&path);
	path.controller_mbps = CAP_MBPS;
	rp_workload_init(&wl);
	wl.queue_depth = w == RAND_WRITE_QD16 ? 16 : 1;
	wl.read_share = w == SEQ_READ ? 1 : 0;
	wl.random_share = w == SEQ_READ || w == SEQ_WRITE ? 0 : 1;
	wl.request_bytes = w == SEQ_READ || w == SEQ_WRITE
			       ? (uint64_t)data_chunks(l) * CHUNK_KIB * 1024
			       : 65536;
	if (rp_evaluate(disks, DISKS, capped ? &path : NULL, &lay, &wl, &ev, &err))
		fail_msg("rp_evaluate: %s", err.msg);
	switch (w) {
	case SEQ_READ:
		v = rp_eval_value(ev, RP_FIG_SEQ_READ_START);
		break;
	case SEQ_WRITE:
		v = rp_eval_value(ev, RP_FIG_SEQ_WRITE_START);
		break;
	case RAND_WRITE_QD1:
		v = rp_eval_value(ev, RP_FIG_RAND_WRITE_QD1);
		break;
	default:
		v = rp_eval_value(ev, RP_FIG_RAND_WRITE_QD);
		break;
	}
	rp_eval_free(ev);
	return v;
}

static void check_level(int level, int rp_level, unsigned from, unsigned step)
{
	for (unsigned n = from; n <= DISKS; n += step) {
		struct layout l = { level, rp_level, n };

		for (int capped = 0; capped < 2; capped++) {
			for (int w = 0; w < WL_COUNT; w++) {
				double p = predict(&l, capped, (enum wl)w);
				double m = measure(&l, capped, (enum wl)w);
				double ratio = p / m;
				bool ok = ratio > 1 - TOLERANCE && ratio < 1 + TOLERANCE;

				print_message(
				    "| RAID %d | %u | %s | %s | %.1f %s | %.1f %s | %.3f | %s |\n",
				    level, n, capped ? "250 MB/s" : "-", wl_name[w], p, wl_unit[w],
				    m, wl_unit[w], ratio, ok ? "" : "OUTSIDE");
				if (!ok)
					fail_msg(
					    "RAID %d of %u, %s%s: planner %.1f, simulated %.1f: "
					    "ratio %.3f is outside %.0f %%",
					    level, n, wl_name[w], capped ? " (path cap)" : "", p, m,
					    ratio, 100 * TOLERANCE);
			}
		}
	}
}

static void test_raid0(void **state)
{
	(void)state;
	check_level(0, RP_LEVEL_0, 2, 1);
}

static void test_raid10(void **state)
{
	(void)state;
	check_level(10, RP_LEVEL_10, 4, 2);
}

static void test_raid5(void **state)
{
	(void)state;
	check_level(5, RP_LEVEL_5, 3, 1);
}

static void test_raid6(void **state)
{
	(void)state;
	check_level(6, RP_LEVEL_6, 4, 1);
}

static void test_raid50(void **state)
{
	(void)state;
	check_level(50, RP_LEVEL_50, 6, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid0),  cmocka_unit_test(test_raid10),
		cmocka_unit_test(test_raid5),  cmocka_unit_test(test_raid6),
		cmocka_unit_test(test_raid50),
	};

	print_message(
	    "| level | disks | path cap | workload | planner | simulated | ratio | outside 10 %% |\n");
	print_message("|---|---|---|---|---|---|---|---|\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
