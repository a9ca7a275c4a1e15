/* test_plan_vs_bench.c - libraidplan's one-disk figures against what the
 * simulated I/O engine measures on the same disk (issue 6, "Checks of the
 * model"; issue 16, queueing): 4 KiB random reads at queue depth 1, at
 * 100 %, 25 % and 10 % stroke (bench --span), average access time and IOPS
 * within 10 %; and the IOMeter profiles (database, fileserver, webserver,
 * workstation, random-access) at strokes 100, 25, 10, 4 % and queue depths
 * 1, 4, 16, 32, 64, the workload's IOPS within 10 %, on the 15K SAS and the
 * 7200 rpm SATA drive of the demo rig (the SATA drive's write cache off:
 * the positioning and queueing models; with it on, the write cache model
 * at queue depth 1, docs/planning-model.md 7.2 says why not deeper).
 *
 * The planner is given the simulator's own mechanics (seek times, rates,
 * rpm, the command overhead and the 20 us every command takes), read from
 * the rig, so that the check compares the two models and not two sets of
 * figures. With only capacity and rpm, the planner's defaults by class
 * must agree too: its command overhead is the simulator's default for the
 * drive's personality (0.2 ms SAS, 0.5 ms SATA). Virtual time only:
 * the result does not depend on the host. docs/planning-model.md has the
 * figures. Last, published measurements of a real 15K drive short-stroked,
 * as loose bands (test_published_15k450 says how loose and why). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "raidplan.h"
#include "shortstroke/io.h"
#include "shortstroke/sim.h"
#include "sim/sim_priv.h"

#include "fixture.h"
#include "plan_fixture.h"

#define TOLERANCE 0.10
#define RUN_NS (30ull * 1000000000ull) /* 30 s of virtual time per case */

struct measured {
	double iops, avg_ms;
};

struct predicted {
	double iops, access_ms;
};

static void predict(const struct rp_disk *rd, double stroke, struct predicted *p)
{
	struct rp_eval *ev = fixture_plan_one(rd, RP_PROFILE_RANDOM_ACCESS, stroke, 1);

	p->access_ms = rp_eval_value(ev, RP_FIG_ACCESS_TIME);
	p->iops = rp_eval_value(ev, RP_FIG_RAND_READ_QD1);
	rp_eval_free(ev);
}

/* bench --workload random-access --qd 1 --span stroke, on a fresh rig */
static void measure(const char *id, double stroke, struct measured *out)
{
	struct sim_rig *rig = NULL;
	struct io_dev *dev = NULL;
	struct ss_error err = { 0 };
	struct io_result res;
	struct io_job j;

	assert_int_equal(sim_rig_demo(NULL, &rig, &err), 0);
	assert_int_equal(fixture_sim_io(rig, id, false, &dev, &err), 0);
	io_job_init(&j);
	io_job_set_workload(&j, IO_WL_RANDOM_ACCESS);
	j.qd = 1;
	j.time_ns = RUN_NS;
	j.seed = 1;
	j.end_lba = (uint64_t)((double)io_dev_geom(dev)->blocks * stroke);
	assert_int_equal(io_dev_run(dev, &j, &res, &err), 0);
	assert_true(res.virtual_time);
	out->iops = res.iops;
	out->avg_ms = res.lat_avg_ns / 1e6;
	io_dev_close(dev);
	sim_rig_free(rig);
}

static void check_disk(const char *id)
{
	static const double strokes[] = { 1.0, 0.25, 0.10 };
	struct sim_rig *rig = NULL;
	struct ss_error err = { 0 };
	struct rp_disk rd, def;

	assert_int_equal(sim_rig_demo(NULL, &rig, &err), 0);
	assert_non_null(sim_rig_find(rig, id));
	fixture_plan_disk(sim_rig_find(rig, id), &rd);
	sim_rig_free(rig);
	/* what `plan DEVICE` knows today: capacity and rpm, the rest defaults
	 * by class (printed for docs/planning-model.md, not asserted) */
	rp_disk_init(&def);
	def.capacity = rd.capacity;
	def.rpm = rd.rpm;
	/* ... whose command overhead is the simulator's default (the demo
	 * drives take it): the same prediction with it given explicitly */
	{
		struct rp_disk given = def;
		struct predicted a, b;

		given.overhead_ms = rd.overhead_ms - FIXTURE_SIM_CONTROL_MS;
		predict(&def, 1.0, &a);
		predict(&given, 1.0, &b);
		print_message("%-8s class default overhead: access %.4f ms, with the "
			      "simulator's %.3f ms: %.4f ms\n",
			      id, a.access_ms, given.overhead_ms, b.access_ms);
		assert_true(fabs(a.access_ms - b.access_ms) < 1e-9);
	}
	for (size_t i = 0; i < sizeof(strokes) / sizeof(strokes[0]); i++) {
		struct predicted p, pd;
		struct measured m;
		double e_ms, e_iops;

		predict(&rd, strokes[i], &p);
		predict(&def, strokes[i], &pd);
		measure(id, strokes[i], &m);
		e_ms = (p.access_ms - m.avg_ms) / m.avg_ms;
		e_iops = (p.iops - m.iops) / m.iops;
		print_message("%-8s stroke %5.1f%%: access %.3f ms predicted, %.3f measured "
			      "(%+.1f%%); QD1 IOPS %.1f predicted, %.1f measured (%+.1f%%)\n",
			      id, 100 * strokes[i], p.access_ms, m.avg_ms, 100 * e_ms, p.iops,
			      m.iops, 100 * e_iops);
		print_message("%-8s   with class defaults: access %.3f ms (%+.1f%%), "
			      "QD1 IOPS %.1f (%+.1f%%)\n",
			      id, pd.access_ms, 100 * (pd.access_ms - m.avg_ms) / m.avg_ms, pd.iops,
			      100 * (pd.iops - m.iops) / m.iops);
		assert_true(e_ms > -TOLERANCE && e_ms < TOLERANCE);
		assert_true(e_iops > -TOLERANCE && e_iops < TOLERANCE);
	}
}

static void test_sas15k(void **state)
{
	(void)state;
	check_disk("sas15k");
}

static void test_sata7200(void **state)
{
	(void)state;
	check_disk("sata250");
}

/* ---- the IOMeter profiles at queue depths ------------------------------------ */

#define PROFILE_RUN_NS (20ull * 1000000000ull) /* 20 s of virtual time per case */

static const struct {
	int rp;		     /* enum rp_profile */
	enum io_workload io; /* the engine's same workload */
} profiles[] = {
	{ RP_PROFILE_DATABASE, IO_WL_DATABASE },
	{ RP_PROFILE_FILESERVER, IO_WL_FILESERVER },
	{ RP_PROFILE_WEBSERVER, IO_WL_WEBSERVER },
	{ RP_PROFILE_WORKSTATION, IO_WL_WORKSTATION },
	{ RP_PROFILE_RANDOM_ACCESS, IO_WL_RANDOM_ACCESS },
};
static const double grid_strokes[] = { 1.0, 0.25, 0.10, 0.04 };
static const unsigned grid_qds[] = { 1, 4, 16, 32, 64 };

/* bench -w PROFILE --qd qd --span stroke on a fresh rig; wce: the drive's
 * write cache as the rig has it (true) or turned off (false). IOPS. */
static double measure_wl(const char *id, enum io_workload w, double stroke, unsigned qd, bool wce)
{
	struct sim_rig *rig = NULL;
	struct io_dev *dev = NULL;
	struct ss_error err = { 0 };
	struct sim_drive *d;
	struct io_result res;
	struct io_job j;
	double iops;

	assert_int_equal(sim_rig_demo(NULL, &rig, &err), 0);
	d = sim_rig_find(rig, id);
	assert_non_null(d);
	if (!wce)
		d->st.wce = d->st.saved_wce = false;
	assert_int_equal(fixture_sim_io(rig, id, io_workload_writes(w), &dev, &err), 0);
	io_job_init(&j);
	io_job_set_workload(&j, w);
	j.qd = qd;
	j.time_ns = PROFILE_RUN_NS;
	j.seed = 1;
	j.end_lba = (uint64_t)((double)io_dev_geom(dev)->blocks * stroke);
	assert_int_equal(io_dev_run(dev, &j, &res, &err), 0);
	assert_true(res.virtual_time);
	iops = res.iops;
	io_dev_close(dev);
	sim_rig_free(rig);
	return iops;
}

/* The planner's workload IOPS for one disk at a stroke and queue depth. */
static double predict_wl(const struct rp_disk *rd, int profile, double stroke, unsigned qd)
{
	struct rp_eval *ev = fixture_plan_one(rd, profile, stroke, qd);
	double v = rp_eval_value(ev, RP_FIG_MIXED_IOPS);

	rp_eval_free(ev);
	return v;
}

/* The planner's disk as the simulator configures the drive; wce false:
 * its write cache turned off. */
static void rig_disk(const char *id, bool wce, struct rp_disk *rd)
{
	struct sim_rig *rig = NULL;
	struct ss_error err = { 0 };
	struct sim_drive *d;

	assert_int_equal(sim_rig_demo(NULL, &rig, &err), 0);
	d = sim_rig_find(rig, id);
	assert_non_null(d);
	if (!wce)
		d->st.wce = d->st.saved_wce = false;
	fixture_plan_disk(d, rd);
	sim_rig_free(rig);
}

/* One row of the grid: a profile at a stroke, every queue depth; fills
 * e[q] with (predicted - measured) / measured and prints the row. */
static void grid_row(const char *label, const char *id, const struct rp_disk *rd, size_t p,
		     size_t s, bool wce, double *e)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "%s %-13s %3.0f%%:", label,
			 rp_profile_name(profiles[p].rp), 100 * grid_strokes[s]);

	for (size_t q = 0; q < sizeof(grid_qds) / sizeof(grid_qds[0]); q++) {
		double got = measure_wl(id, profiles[p].io, grid_strokes[s], grid_qds[q], wce);
		double want = predict_wl(rd, profiles[p].rp, grid_strokes[s], grid_qds[q]);

		e[q] = (want - got) / got;
		n += snprintf(line + n, sizeof(line) - (size_t)n, " QD%u %.0f/%.0f %+.1f%%",
			      grid_qds[q], want, got, 100 * e[q]);
	}
	print_message("%s\n", line);
}

/* Every profile, stroke and queue depth of the grid within TOLERANCE;
 * prints the table docs/planning-model.md 7.1 shows. */
static void check_grid(const char *id, bool wce)
{
	struct rp_disk rd;
	double worst = 0, e[sizeof(grid_qds) / sizeof(grid_qds[0])];
	char label[16];

	rig_disk(id, wce, &rd);
	snprintf(label, sizeof(label), "%-8s", id);
	for (size_t p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++)
		for (size_t s = 0; s < sizeof(grid_strokes) / sizeof(grid_strokes[0]); s++) {
			grid_row(label, id, &rd, p, s, wce, e);
			for (size_t q = 0; q < sizeof(grid_qds) / sizeof(grid_qds[0]); q++) {
				if (fabs(e[q]) > worst)
					worst = fabs(e[q]);
				if (!(fabs(e[q]) < TOLERANCE))
					print_message("OUT OF TOLERANCE: %s QD%u\n", id,
						      grid_qds[q]);
				assert_true(fabs(e[q]) < TOLERANCE);
			}
		}
	print_message("%-8s largest difference %.1f%%\n", id, 100 * worst);
}

static void test_grid_sas15k(void **state)
{
	(void)state;
	check_grid("sas15k", true); /* SAS: the write cache is off by default */
}

static void test_grid_sata250(void **state)
{
	(void)state;
	check_grid("sata250", false);
}

/* The SATA drive as shipped, its write cache on: the cached-write model
 * at queue depth 1 for the profiles with writes; deeper printed only (the
 * simulator's drive destages the nearest of the thousands of extents it
 * caches, which the model does not count: docs/planning-model.md 7.2). */
static void test_write_cache_sata250(void **state)
{
	static const int checked[] = { RP_PROFILE_DATABASE, RP_PROFILE_FILESERVER,
				       RP_PROFILE_WORKSTATION };
	struct rp_disk rd;

	(void)state;
	rig_disk("sata250", true, &rd);
	assert_int_equal(rd.write_cache, RP_WCACHE_ON);
	for (size_t p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++) {
		bool assert_qd1 = profiles[p].rp == checked[0] || profiles[p].rp == checked[1] ||
				  profiles[p].rp == checked[2];

		if (profiles[p].rp == RP_PROFILE_WEBSERVER ||
		    profiles[p].rp == RP_PROFILE_RANDOM_ACCESS)
			continue; /* no writes */
		for (size_t s = 0; s < sizeof(grid_strokes) / sizeof(grid_strokes[0]); s++) {
			double e[sizeof(grid_qds) / sizeof(grid_qds[0])];

			grid_row("sata250 cache on", "sata250", &rd, p, s, true, e);
			if (assert_qd1)
				assert_true(fabs(e[0]) < TOLERANCE); /* grid_qds[0] is 1 */
		}
	}
}

/*
 * Published measurements (docs/planning-model.md 7.3), as loose bands:
 * real hardware, not the simulator. Tom's Hardware, "Accelerate Your Hard
 * Drive By Short Stroking" (P. Schmid, A. Roos, 5 March 2009,
 * https://www.tomshardware.com/reviews/short-stroking-hdd,2157-7.html and
 * -5.html): one Hitachi Ultrastar 15K450 (450 GB SAS) on an Adaptec RAID
 * 5805, IOMeter's database, fileserver, workstation and webserver
 * patterns, the drive limited to 450, 44 and 20 GB: "I/O performance
 * effectively doubles at high command queue depths" (database, fileserver,
 * workstation), "running individual commands, the performance benefit
 * still is 65%", webserver "more than 100%", access time "decrease by
 * 40%". The planner gets the 15K450's average read seek from its
 * specification (3.3 ms, 450 GB model; Hitachi Ultrastar 15K450 FC-AL
 * specification, 4.5.1) and the rest by class (1.1).
 *
 * How loose, and why: +-20 % on a gain (+-10 points on the access time's
 * reduction). The article gives rounded words read off its charts, does
 * not say which of the two short strokes or which "high" queue depth the
 * words describe (the checks take 44 GB for the first and the access time,
 * 20 GB for the deep queue's doubling), the drive sat behind a RAID
 * controller with its own cache and latency, it is one drive, and only
 * its average seek is known.
 */
static void disk_15k450(struct rp_disk *rd)
{
	rp_disk_init(rd);
	rd->capacity = 450000000000ull;
	rd->rpm = 15000;
	rd->seek_avg_ms = 3.3;
}

static double gain_15k450(int profile, double gb, unsigned qd)
{
	struct rp_disk rd;

	disk_15k450(&rd);
	return predict_wl(&rd, profile, gb / 450.0, qd) / predict_wl(&rd, profile, 1.0, qd);
}

static void test_published_15k450(void **state)
{
	static const int doubling[] = { RP_PROFILE_DATABASE, RP_PROFILE_FILESERVER,
					RP_PROFILE_WORKSTATION };
	struct rp_disk rd;
	struct predicted full, shortp;

	(void)state;
	for (size_t i = 0; i < sizeof(doubling) / sizeof(doubling[0]); i++) {
		double g1 = gain_15k450(doubling[i], 44, 1), g64 = gain_15k450(doubling[i], 20, 64);

		print_message("15K450 %-11s QD1 x%.2f at 44 GB (published x1.65), QD64 x%.2f at "
			      "20 GB (published x2)\n",
			      rp_profile_name(doubling[i]), g1, g64);
		assert_true(g1 > 1.65 * 0.8 && g1 < 1.65 * 1.2);
		assert_true(g64 > 2.0 * 0.8 && g64 < 2.0 * 1.2);
	}
	/* webserver: "more than 100%" */
	assert_true(gain_15k450(RP_PROFILE_WEBSERVER, 20, 64) > 2.0 * 0.8);
	/* access time: 40 % shorter */
	disk_15k450(&rd);
	predict(&rd, 1.0, &full);
	predict(&rd, 44.0 / 450.0, &shortp);
	print_message("15K450 access %.2f -> %.2f ms at 44 GB: %.0f%% shorter (published 40%%)\n",
		      full.access_ms, shortp.access_ms,
		      100 * (1 - shortp.access_ms / full.access_ms));
	assert_true(fabs((1 - shortp.access_ms / full.access_ms) - 0.40) < 0.10);
}

/*
 * The calibration set (docs/planning-model.md 7.3, issue 28): the short
 * stroke's gain in workload IOPS, short over full, on the demo rig's 15K SAS
 * drive (the Ultrastar 15K450's mechanics) at 44 GB (90,151,200 blocks, "the
 * first three zones") and 20 GB, and on its 7,200 rpm SATA drive (the
 * Deskstar 7K1000.B's, write cache on as it ships) at 33 GB and 12 GB of
 * 250 GB, in the database, fileserver and workstation profiles at queue
 * depths 1 and 32: the planner's gain against the simulator's, within 10 %
 * (asserted), and the published effect beside them (printed: Tom's Hardware
 * 2009 gives the 15K drive +65 % at QD 1 and about +100 % deep, the SATA
 * drive +40 to +60 %; which configuration each word describes it does not
 * say, docs/planning-model.md 7.3).
 */
static void test_calibration(void **state)
{
	static const struct {
		const char *id, *config, *published1, *published32;
		double stroke;
	} cfg[] = {
		{ "sas15k", "44 GB", "+65 %", "about +100 %", 90151200.0 / 879097968.0 },
		{ "sas15k", "20 GB", "+65 %", "about +100 %", 20e9 / (879097968.0 * 512) },
		{ "sata250", "33 GB", "+40 to +60 %", "+40 to +60 %", 33e9 / (488397168.0 * 512) },
		{ "sata250", "12 GB", "+40 to +60 %", "+40 to +60 %", 12e9 / (488397168.0 * 512) },
	};
	static const size_t prof[] = { 0, 1, 3 }; /* database, fileserver, workstation */
	static const unsigned qds[] = { 1, 32 };
	double worst = 0;

	(void)state;
	for (size_t c = 0; c < sizeof(cfg) / sizeof(cfg[0]); c++) {
		struct rp_disk rd;

		rig_disk(cfg[c].id, true, &rd);
		for (size_t p = 0; p < sizeof(prof) / sizeof(prof[0]); p++)
			for (size_t q = 0; q < sizeof(qds) / sizeof(qds[0]); q++) {
				int rp = profiles[prof[p]].rp;
				enum io_workload io = profiles[prof[p]].io;
				double plan = predict_wl(&rd, rp, cfg[c].stroke, qds[q]) /
					      predict_wl(&rd, rp, 1.0, qds[q]);
				double sim = measure_wl(cfg[c].id, io, cfg[c].stroke, qds[q],
							true) /
					     measure_wl(cfg[c].id, io, 1.0, qds[q], true);
				double e = plan / sim - 1;

				print_message(
				    "| %s | %s | %s | %u | %s | %+.0f %% | %+.0f %% | %+.1f "
				    "%% |\n",
				    cfg[c].id, cfg[c].config, rp_profile_name(rp), qds[q],
				    q ? cfg[c].published32 : cfg[c].published1, 100 * (plan - 1),
				    100 * (sim - 1), 100 * e);
				if (fabs(e) > worst)
					worst = fabs(e);
				assert_true(fabs(e) < TOLERANCE);
			}
	}
	print_message("calibration: planner's gains within %.1f %% of the simulator's\n",
		      100 * worst);
}

/* The same seed gives the same measurement: the check is deterministic. */
static void test_deterministic(void **state)
{
	struct measured a, b;

	(void)state;
	measure("sas15k", 0.25, &a);
	measure("sas15k", 0.25, &b);
	assert_true(a.iops == b.iops && a.avg_ms == b.avg_ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sas15k),		 cmocka_unit_test(test_sata7200),
		cmocka_unit_test(test_deterministic),	 cmocka_unit_test(test_grid_sas15k),
		cmocka_unit_test(test_grid_sata250),	 cmocka_unit_test(test_write_cache_sata250),
		cmocka_unit_test(test_published_15k450), cmocka_unit_test(test_calibration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
