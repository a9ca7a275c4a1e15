/* test_io.c - the I/O engine: registration, job validation, histogram
 * math, PRNG reproducibility, the request generator, the simulated
 * engine's model checks (on VIRTUAL time: deterministic) and the uring
 * engine on a loop device (skipped without root or losetup). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/io_priv.h"
#include "raidplan.h"
#include "shortstroke/io.h"
#include "shortstroke/sim.h"

#include "fixture.h"

static const char rig_json[] =
    "{\"time_scale\": 0, \"drives\": [\n"
    " {\"id\": \"k15\", \"personality\": \"sas\", \"vendor\": \"HITACHI\",\n"
    "  \"model\": \"HUS154545VLS300\", \"serial\": \"T1\", \"firmware\": \"SA07\",\n"
    "  \"wwn\": \"5000cca00b3c1f20\", \"blocks\": 879097968, \"rpm\": 15000,\n"
    "  \"media\": {\"avg_seek_ms\": 3.3, \"track_to_track_ms\": 0.4,\n"
    "   \"full_stroke_ms\": 6.5, \"outer_mbps\": 157, \"inner_mbps\": 98}},\n"
    " {\"id\": \"bad\", \"personality\": \"sata\", \"model\": \"M\", \"serial\": \"S2\",\n"
    "  \"firmware\": \"F1\", \"blocks\": 2000000, \"rpm\": 7200,\n"
    "  \"faults\": [\"medium-error:1000-1003\"]}\n"
    "]}";

static struct sim_rig *rig_load(void)
{
	struct sim_rig *rig = NULL;
	struct ss_error err = { 0 };

	assert_int_equal(sim_rig_load_string(rig_json, "test", NULL, &rig, &err), 0);
	return rig;
}

static struct io_dev *sim_dev(struct sim_rig *rig, const char *id, bool write)
{
	struct io_dev *dev = NULL;
	struct ss_error err = { 0 };

	assert_int_equal(fixture_sim_io(rig, id, write, &dev, &err), 0);
	return dev;
}

/* ---- registration ---- */

static int fake_open(const struct io_target *t, void **priv, struct io_geom *g,
		     struct ss_error *err)
{
	(void)t;
	(void)err;
	*priv = NULL;
	g->lblock = 512;
	g->blocks = 1 << 20;
	return 0;
}

static void fake_close(void *priv)
{
	(void)priv;
}

static int fake_run(void *priv, const struct io_job *job, struct io_result *res,
		    struct ss_error *err)
{
	(void)priv;
	(void)err;
	res->ios = job->qd;
	res->elapsed_ns = 1000000000ULL;
	return 0;
}

static void test_register(void **state)
{
	static const struct io_engine_ops noname = { .open = fake_open,
						     .close = fake_close,
						     .run = fake_run };
	static const struct io_engine_ops norun = { .name = "norun",
						    .open = fake_open,
						    .close = fake_close };
	static const struct io_engine_ops badcaps = { .name = "caps",
						      .caps = 1u << 30,
						      .open = fake_open,
						      .close = fake_close,
						      .run = fake_run };
	static const struct io_engine_ops dup = {
		.name = "sim", .open = fake_open, .close = fake_close, .run = fake_run
	};
	static const struct io_engine_ops fake = {
		.name = "fake", .open = fake_open, .close = fake_close, .run = fake_run
	};
	struct ss_error err = { 0 };
	struct io_target t = { 0 };
	struct io_dev *dev;
	struct io_job job;
	struct io_result res;

	(void)state;
	assert_non_null(io_engine_find("uring"));
	assert_non_null(io_engine_find("sim"));
	assert_null(io_engine_find("nope"));
	assert_int_equal(io_engine_register(&noname, &err), -EINVAL);
	assert_int_equal(io_engine_register(&norun, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "required hook"));
	assert_int_equal(io_engine_register(&badcaps, &err), -EINVAL);
	assert_int_equal(io_engine_register(&dup, &err), -EEXIST);
	assert_int_equal(io_engine_register(&fake, &err), 0);
	assert_int_equal(io_dev_open("fake", &t, &dev, &err), 0);
	io_job_init(&job);
	job.qd = 7;
	job.time_ns = 1000;
	assert_int_equal(io_dev_run(dev, &job, &res, &err), 0);
	assert_int_equal(res.ios, 7);
	assert_true(res.iops > 6.99 && res.iops < 7.01);
	t.write = true;
	io_dev_close(dev);
	assert_int_equal(io_dev_open("fake", &t, &dev, &err), -EOPNOTSUPP);
	assert_int_equal(io_dev_open("nope", &t, &dev, &err), -ENOENT);
}

/* ---- validation ---- */

static void test_validate(void **state)
{
	struct io_geom g = { .lblock = 512, .pblock = 4096, .blocks = 1000000 };
	struct io_geom g4k = { .lblock = 4096, .pblock = 4096, .blocks = 1000000 };
	struct ss_error err = { 0 };
	struct io_job j;

	(void)state;
	io_job_init(&j);
	j.time_ns = 1000000000ULL;
	assert_int_equal(io_job_check(&j, &g, false, &err), 0);

	j.qd = 0;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "queue depth 0"));
	j.qd = 257;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
	j.qd = 256;
	assert_int_equal(io_job_check(&j, &g, false, &err), 0);

	j.bs = 256;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "block size 256 B is not supported"));
	j.bs = 8u << 20;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
	j.bs = 1000;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
	j.bs = 512;
	assert_int_equal(io_job_check(&j, &g4k, false, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "4096-byte logical block"));
	j.bs = 4u << 20;
	assert_int_equal(io_job_check(&j, &g, false, &err), 0);

	j.bs = 4096;
	j.end_lba = 1000001;
	assert_int_equal(io_job_check(&j, &g, false, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "beyond the disk"));
	j.start_lba = 500;
	j.end_lba = 500;
	assert_int_equal(io_job_check(&j, &g, false, &err), -ERANGE);
	j.end_lba = 504; /* 4 blocks: smaller than one 4 KiB request */
	assert_int_equal(io_job_check(&j, &g, false, &err), -ERANGE);
	j.start_lba = 0;
	j.end_lba = 0;

	j.time_ns = 0;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "time"));
	j.bytes = 1 << 20;
	assert_int_equal(io_job_check(&j, &g, false, &err), 0);

	j.read_pct = 67;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EPERM);
	assert_int_equal(io_job_check(&j, &g, true, &err), 0);
	j.read_pct = 101;
	assert_int_equal(io_job_check(&j, &g, true, &err), -EINVAL);
	j.read_pct = 100;

	j.align = 100;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
	j.align = 0;

	io_job_set_workload(&j, IO_WL_WEBSERVER);
	assert_int_equal(j.bs, 0);
	assert_int_equal(j.nsizes, 10);
	assert_int_equal(io_job_check(&j, &g, false, &err), 0);
	/* on a 4Kn disk the 512 B share is rounded up to the block */
	assert_int_equal(io_job_check(&j, &g4k, false, &err), 0);
	j.bs = 4096;
	assert_int_equal(io_job_check(&j, &g, false, &err), -EINVAL);
}

static void test_workloads(void **state)
{
	enum io_workload w;
	struct io_job j;
	unsigned total = 0;

	(void)state;
	for (unsigned i = 0; i < IO_WL_COUNT; i++) {
		assert_int_equal(io_workload_parse(io_workload_name((enum io_workload)i), &w, NULL),
				 0);
		assert_int_equal(w, i);
	}
	{
		struct ss_error err = { 0 };

		assert_int_equal(io_workload_parse("oltp", &w, &err), -EINVAL);
		assert_true(err.usage);
		assert_non_null(strstr(err.msg, "unknown workload 'oltp' (seq-read, "));
		assert_non_null(strstr(err.msg, "random-write"));
	}
	io_job_init(&j);
	io_job_set_workload(&j, IO_WL_FILESERVER);
	for (unsigned i = 0; i < j.nsizes; i++)
		total += j.sizes[i].weight;
	assert_int_equal(total, 100);
	assert_int_equal(j.read_pct, 80);
	io_job_set_workload(&j, IO_WL_WEBSERVER);
	total = 0;
	for (unsigned i = 0; i < j.nsizes; i++)
		total += j.sizes[i].weight;
	assert_int_equal(total, 100);
	io_job_set_workload(&j, IO_WL_DATABASE);
	assert_int_equal(j.bs, 8192);
	assert_int_equal(j.read_pct, 67);
	assert_true(io_workload_writes(IO_WL_DATABASE));
	assert_false(io_workload_writes(IO_WL_WEBSERVER));
	assert_true(io_workload_fixed_size(IO_WL_RANDOM_ACCESS));
	assert_false(io_workload_fixed_size(IO_WL_FILESERVER));
	assert_false(io_workload_fixed_size(IO_WL_DATABASE)); /* IOMeter's 8 KiB: its own */
	assert_true(io_workload_fixed_size(IO_WL_SEQ_WRITE));
	/* sequential requests of 1 MiB in the engine and in the planner (they
	 * were 64 KiB in the planner, issue 28.4) */
	io_job_set_workload(&j, IO_WL_SEQ_WRITE);
	assert_int_equal(j.bs, 1u << 20);
	assert_int_equal(j.read_pct, 0);
	io_job_set_workload(&j, IO_WL_RANDOM_WRITE);
	assert_int_equal(j.bs, 4096);
	assert_int_equal(j.read_pct, 0);
	assert_int_equal(j.random_pct, 100);
}

/* Every workload the engine runs is the planner's profile of the same name,
 * its mix and sizes (issue 28.4: one definition, used by both). */
static void test_workloads_are_the_planners(void **state)
{
	(void)state;
	for (unsigned i = 0; i < IO_WL_COUNT; i++) {
		const char *name = io_workload_name((enum io_workload)i);
		struct rp_workload p;
		struct io_job j;
		int prof;

		if (!strcmp(name, "random-write"))
			continue; /* random-access's requests, written: above */
		assert_int_equal(rp_profile_parse(name, &prof, NULL), 0);
		rp_workload_init(&p);
		assert_int_equal(rp_workload_profile(prof, 1, &p, NULL), 0);
		io_job_init(&j);
		io_job_set_workload(&j, (enum io_workload)i);
		assert_int_equal(j.read_pct, (unsigned)lround(p.read_share * 100));
		assert_int_equal(j.random_pct, (unsigned)lround(p.random_share * 100));
		if (!p.n_sizes) {
			assert_int_equal(j.nsizes, 0);
			assert_int_equal(j.bs, p.request_bytes);
			continue;
		}
		assert_int_equal(j.nsizes, p.n_sizes);
		for (unsigned k = 0; k < j.nsizes; k++) {
			const struct rp_size_share *sz = RP_ELEM(struct rp_size_share, p.sizes, k);

			assert_int_equal(j.sizes[k].bytes, sz->bytes);
			assert_true(fabs(j.sizes[k].weight - sz->share) < 1e-9);
		}
	}
}

/* ---- histogram ---- */

static void test_hist_buckets(void **state)
{
	uint64_t lo, hi, prev_hi = 0;

	(void)state;
	/* buckets tile the range without gaps, each within 1/32 of its value */
	for (unsigned i = 0; i < IO_HIST_BUCKETS; i++) {
		io_hist_bucket_range(i, &lo, &hi);
		if (i)
			assert_int_equal(lo, prev_hi + 1);
		assert_true(hi >= lo);
		if (lo >= 64)
			assert_true((double)(hi - lo + 1) / (double)lo <= 1.0 / 32 + 1e-12);
		assert_int_equal(io_hist_bucket_of(lo), i);
		assert_int_equal(io_hist_bucket_of(hi), i);
		prev_hi = hi;
	}
	assert_int_equal(io_hist_bucket_of(UINT64_MAX), IO_HIST_BUCKETS - 1);
	assert_int_equal(io_hist_bucket_of(0), 0);
	assert_int_equal(io_hist_bucket_of(63), 63);
}

static void test_hist_percentiles(void **state)
{
	struct io_hist *h = malloc(sizeof(*h)), *h2 = malloc(sizeof(*h2));
	uint64_t p;

	(void)state;
	io_hist_init(h);
	assert_int_equal(io_hist_percentile(h, 50), 0);
	/* 1..10000 us: p50 = 5 ms, p90 = 9 ms, p99 = 9.9 ms, p99.9 = 9.99 ms */
	for (uint64_t v = 1; v <= 10000; v++)
		io_hist_add(h, v * 1000);
	assert_int_equal(h->count, 10000);
	assert_int_equal(h->min_ns, 1000);
	assert_int_equal(h->max_ns, 10000000);
	assert_true(io_hist_mean(h) > 5000499 && io_hist_mean(h) < 5000501);
	p = io_hist_percentile(h, 50);
	assert_true(p > 5000000 * 0.97 && p < 5000000 * 1.03);
	p = io_hist_percentile(h, 90);
	assert_true(p > 9000000 * 0.97 && p < 9000000 * 1.03);
	p = io_hist_percentile(h, 99);
	assert_true(p > 9900000 * 0.97 && p < 9900000 * 1.03);
	p = io_hist_percentile(h, 99.9);
	assert_true(p > 9990000 * 0.97 && p <= 10000000);
	assert_int_equal(io_hist_percentile(h, 100), 10000000);
	assert_int_equal(io_hist_percentile(h, 0), 1000);

	/* one value: every percentile is that value (clamped to min/max) */
	io_hist_init(h2);
	io_hist_add(h2, 1234567);
	assert_int_equal(io_hist_percentile(h2, 50), 1234567);
	assert_int_equal(io_hist_percentile(h2, 99.9), 1234567);

	/* merging adds counts and keeps the extremes */
	io_hist_merge(h, h2);
	assert_int_equal(h->count, 10001);
	assert_int_equal(h->max_ns, 10000000);
	free(h);
	free(h2);
}

/* ---- PRNG and the generator ---- */

static void test_rng(void **state)
{
	struct io_rng a, b;
	uint64_t counts[10] = { 0 };

	(void)state;
	io_rng_seed(&a, 42);
	io_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(io_rng_next(&a), io_rng_next(&b));
	io_rng_seed(&b, 43);
	assert_true(io_rng_next(&a) != io_rng_next(&b));
	io_rng_seed(&a, 7);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = io_rng_below(&a, 10);

		assert_true(v < 10);
		counts[v]++;
	}
	for (int i = 0; i < 10; i++)
		assert_true(counts[i] > 9500 && counts[i] < 10500);
	assert_int_equal(io_rng_below(&a, 0), 0);
	assert_int_equal(io_rng_below(&a, 1), 0);
}

/* the butterfly: outer and inner ends alternately, converging on the middle */
static void test_butterfly(void **state)
{
	struct io_geom g = { .lblock = 512, .blocks = 1000000 };
	struct io_gen gen;
	struct io_req r;
	struct io_job j;
	uint64_t prev_out = 0, prev_in = UINT64_MAX;

	(void)state;
	io_job_init(&j);
	io_job_set_workload(&j, IO_WL_RANDOM_ACCESS);
	j.butterfly = true;
	j.start_lba = 0;
	j.end_lba = 1000000;
	j.time_ns = 1;
	io_gen_init(&gen, &j, &g);
	for (unsigned i = 0; i < 1000; i++) {
		assert_true(io_gen_next(&gen, &r));
		assert_false(r.write);
		assert_int_equal(r.blocks, 8);
		assert_true(r.lba % 8 == 0 && r.lba + 8 <= 1000000);
		if (i % 2 == 0) {
			assert_true(r.lba < 500000 && (i == 0 || r.lba > prev_out));
			prev_out = r.lba;
		} else {
			assert_true(r.lba >= 500000 - 8 && r.lba < prev_in);
			prev_in = r.lba;
		}
	}
	assert_true(prev_in - prev_out < 4000); /* met in the middle: a few steps apart */
	/* then again from the ends */
	assert_true(io_gen_next(&gen, &r));
	assert_int_equal(r.lba, 0);
}

static void test_generator(void **state)
{
	struct io_geom g = { .lblock = 512, .blocks = 1000000 };
	struct io_gen g1, g2;
	struct io_req r1, r2;
	struct io_job j;
	unsigned writes = 0, seq = 0;
	uint64_t prev_end = 0;

	(void)state;
	io_job_init(&j);
	io_job_set_workload(&j, IO_WL_WORKSTATION);
	j.seed = 99;
	j.start_lba = 1000;
	j.end_lba = 200000;
	j.time_ns = 1;
	io_gen_init(&g1, &j, &g);
	io_gen_init(&g2, &j, &g);
	for (int i = 0; i < 20000; i++) {
		assert_true(io_gen_next(&g1, &r1));
		assert_true(io_gen_next(&g2, &r2));
		assert_int_equal(r1.lba, r2.lba);
		assert_int_equal(r1.write, r2.write);
		assert_int_equal(r1.blocks, 16);
		assert_true(r1.lba >= 1000 && r1.lba + r1.blocks <= 200000);
		writes += r1.write;
		seq += i && r1.lba == prev_end;
		prev_end = r1.lba + r1.blocks;
	}
	/* 80 % reads, 80 % random (20 % continue the stream) */
	assert_true(writes > 3600 && writes < 4400);
	assert_true(seq > 3600 && seq < 4400);

	/* byte limit: exact, the last request shortened */
	io_job_init(&j);
	j.bs = 65536;
	j.bytes = 3 * 65536 + 4096;
	io_gen_init(&g1, &j, &g);
	for (int i = 0; i < 3; i++) {
		assert_true(io_gen_next(&g1, &r1));
		assert_int_equal(r1.lba, i * 128);
	}
	assert_true(io_gen_next(&g1, &r1));
	assert_int_equal(r1.blocks, 8);
	assert_false(io_gen_next(&g1, &r1));

	/* sequential wraps inside the span; random offsets are aligned */
	io_job_init(&j);
	j.bs = 4096;
	j.start_lba = 10;
	j.end_lba = 42;
	j.time_ns = 1;
	io_gen_init(&g1, &j, &g);
	for (int i = 0; i < 10; i++) {
		assert_true(io_gen_next(&g1, &r1));
		assert_int_equal(r1.lba, 10 + (i % 4) * 8);
	}
	io_job_set_workload(&j, IO_WL_RANDOM_ACCESS);
	j.end_lba = 100000;
	io_gen_init(&g1, &j, &g);
	for (int i = 0; i < 1000; i++) {
		assert_true(io_gen_next(&g1, &r1));
		assert_int_equal(r1.lba % 8, 0);
	}
}

/* ---- the simulated engine: model checks in virtual time ---- */

static double run_iops(struct io_dev *dev, unsigned qd, uint64_t end_lba, double *avg_ms)
{
	struct io_result *res = malloc(sizeof(*res));
	struct ss_error err = { 0 };
	struct io_job j;
	double iops;

	io_job_init(&j);
	io_job_set_workload(&j, IO_WL_RANDOM_ACCESS);
	j.qd = qd;
	j.end_lba = end_lba;
	j.time_ns = 20ULL * 1000000000ULL;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_true(res->virtual_time);
	assert_true(res->elapsed_ns >= j.time_ns);
	assert_true(res->elapsed_ns < j.time_ns + 100000000ULL);
	if (avg_ms)
		*avg_ms = res->lat_avg_ns / 1e6;
	iops = res->iops;
	free(res);
	return iops;
}

static void test_sim_model(void **state)
{
	struct sim_rig *rig = rig_load();
	struct io_dev *dev = sim_dev(rig, "k15", false);
	uint64_t blocks = io_dev_geom(dev)->blocks;
	double avg, qd1, qd32, short1, again;

	(void)state;
	assert_int_equal(blocks, 879097968ULL);
	/* docs/models.md (access time, 15K450 figures): random 4 KiB reads at QD 1, full stroke:
	 * 175-185 IOPS, 5.5-6 ms each */
	qd1 = run_iops(dev, 1, 0, &avg);
	print_message("15K450 4K random QD1: %.1f IOPS, %.2f ms\n", qd1, avg);
	assert_true(qd1 >= 175 && qd1 <= 190);
	assert_true(avg >= 5.2 && avg <= 5.8);
	/* deterministic: the same seed on a fresh drive gives the same result */
	{
		struct sim_rig *rig2 = rig_load();
		struct io_dev *dev2 = sim_dev(rig2, "k15", false);

		again = run_iops(dev2, 1, 0, NULL);
		assert_true(again == qd1);
		io_dev_close(dev2);
		sim_rig_free(rig2);
	}
	/* a 10 % span: shorter seeks */
	short1 = run_iops(dev, 1, blocks / 10, NULL);
	print_message("10%% span QD1: %.1f IOPS\n", short1);
	assert_true(short1 > qd1 * 1.4);
	/* NCQ: the drive picks by positioning time; docs/models.md's first model
	 * E(q) = T + (E(1) - T) q^(-1/3) gives about 490 IOPS at QD 32 */
	qd32 = run_iops(dev, 32, 0, NULL);
	print_message("QD32: %.1f IOPS\n", qd32);
	assert_true(qd32 > 2.0 * qd1);
	assert_true(qd32 > 400 && qd32 < 600);
	assert_true(run_iops(dev, 4, 0, NULL) > qd1);
	io_dev_close(dev);
	sim_rig_free(rig);
}

static void test_sim_sequential(void **state)
{
	struct sim_rig *rig = rig_load();
	struct io_dev *dev = sim_dev(rig, "k15", false);
	struct io_result *res = malloc(sizeof(*res));
	struct ss_error err = { 0 };
	uint64_t blocks = io_dev_geom(dev)->blocks;
	struct io_job j;
	double outer, inner;

	(void)state;
	io_job_init(&j);
	j.qd = 4;
	j.time_ns = 60ULL * 1000000000ULL; /* a "60 s" benchmark */
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	outer = res->mbps;
	print_message("outer seq read: %.1f MB/s, %.3f s CPU for 60 s virtual\n", outer,
		      res->cpu_s);
	assert_true(outer > 150 && outer < 157);
	j.start_lba = blocks - blocks / 100;
	j.end_lba = 0;
	j.time_ns = 5ULL * 1000000000ULL;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	inner = res->mbps;
	assert_true(inner > 95 && inner < 102);
	/* a byte limit stops exactly there */
	j.time_ns = 0;
	j.bytes = 10u << 20;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_int_equal(res->bytes, 10u << 20);
	assert_int_equal(res->ios, 10);
	free(res);
	io_dev_close(dev);
	sim_rig_free(rig);
}

struct errlist {
	uint64_t lba[8];
	unsigned n;
};

static int on_err(void *arg, uint64_t lba, uint32_t blocks, bool write, int error)
{
	struct errlist *l = arg;

	(void)blocks;
	(void)write;
	assert_int_equal(error, -ENODATA); /* a medium error, as the kernel reports it */
	if (l->n < 8)
		l->lba[l->n++] = lba;
	return 0;
}

static int on_err_any(void *arg, uint64_t lba, uint32_t blocks, bool write, int error)
{
	struct errlist *l = arg;

	(void)blocks;
	(void)write;
	(void)error;
	if (l->n < 8)
		l->lba[l->n++] = lba;
	return 0;
}

static void test_sim_errors(void **state)
{
	struct sim_rig *rig = rig_load();
	struct io_dev *dev = sim_dev(rig, "bad", false);
	struct io_result *res = malloc(sizeof(*res));
	struct ss_error err = { 0 };
	struct errlist l = { .n = 0 };
	struct io_job j;

	(void)state;
	/* a scan over the bad range: stops at the first bad LBA by default */
	io_job_init(&j);
	j.bs = 64 * 512;
	j.bytes = 4096 * 512;
	j.end_lba = 4096;
	assert_int_equal(io_dev_run(dev, &j, res, &err), -EIO);
	assert_non_null(strstr(err.msg, "LBA 1000"));
	assert_int_equal(res->first_error_lba, 1000);
	/* continue_on_error: every request is tried, the bad LBA reported */
	j.continue_on_error = true;
	j.on_error = on_err;
	j.on_error_arg = &l;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_int_equal(res->errors, 1);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.lba[0], 1000);
	assert_int_equal(res->ios, 63);
	/* the good blocks before the bad one were read */
	assert_int_equal(res->bytes, (uint64_t)4096 * 512 - (1024 - 1000) * 512);
	/* writing needs a device opened for writing */
	j.read_pct = 0;
	assert_int_equal(io_dev_run(dev, &j, res, &err), -EPERM);
	free(res);
	io_dev_close(dev);
	sim_rig_free(rig);
}

/* ---- the uring engine on a loop device ---- */

static bool sh(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	bool ok;

	if (!p)
		return false;
	if (out && len) {
		out[0] = '\0';
		if (fgets(out, (int)len, p))
			out[strcspn(out, "\n")] = '\0';
	}
	ok = pclose(p) == 0;
	return ok;
}

static void test_uring_loop(void **state)
{
	char dir[] = "/var/tmp/test_io.XXXXXX", img[128], cmd[512], loop[64] = "";
	struct io_result *res;
	struct ss_error err = { 0 };
	struct io_dev *dev = NULL;
	struct io_target t = { 0 };
	struct errlist l = { .n = 0 };
	struct io_job j;
	int fd;

	(void)state;
	if (geteuid() != 0 || !sh("command -v losetup >/dev/null 2>&1", NULL, 0))
		skip();
	if (!mkdtemp(dir))
		skip();
	snprintf(img, sizeof(img), "%s/img", dir);
	fd = open(img, O_CREAT | O_RDWR, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 64 << 20), 0); /* sparse, 64 MiB */
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null", img);
	if (!sh(cmd, loop, sizeof(loop)) || !loop[0]) {
		unlink(img);
		rmdir(dir);
		skip();
	}
	res = malloc(sizeof(*res));
	t.path = loop;
	assert_int_equal(io_dev_open("uring", &t, &dev, &err), 0);
	assert_int_equal(io_dev_geom(dev)->blocks * io_dev_geom(dev)->lblock, 64 << 20);

	io_job_init(&j); /* 1 MiB sequential reads of the whole device, QD 4 */
	j.qd = 4;
	j.bytes = 64 << 20;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_int_equal(res->bytes, 64 << 20);
	assert_int_equal(res->ios, 64);
	assert_int_equal(res->hist.count, 64);
	assert_false(res->virtual_time);
	assert_true(res->lat_p50_ns > 0 && res->lat_max_ns >= res->lat_p99_ns);

	io_job_set_workload(&j, IO_WL_RANDOM_ACCESS);
	j.qd = 32;
	j.bytes = 8 << 20;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_int_equal(res->ios, 2048);

	/* a write job on a device opened read-only is refused before any I/O */
	io_job_set_workload(&j, IO_WL_DATABASE);
	assert_int_equal(io_dev_run(dev, &j, res, &err), -EPERM);
	io_dev_close(dev);

	/* writes, when opened for writing */
	t.write = true;
	assert_int_equal(io_dev_open("uring", &t, &dev, &err), 0);
	io_job_set_workload(&j, IO_WL_DATABASE);
	j.qd = 8;
	j.bytes = 4 << 20;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_true(res->writes > 0 && res->reads > 0);
	io_dev_close(dev);

	/* failed requests: reads past the end of a file that shrank under
	 * the engine come back short; each is counted and the run goes on */
	t.path = img;
	t.write = false;
	assert_int_equal(io_dev_open("uring", &t, &dev, &err), 0);
	assert_int_equal(truncate(img, 32 << 20), 0);
	io_job_init(&j);
	j.bytes = 64 << 20;
	j.continue_on_error = true;
	j.on_error = on_err_any;
	j.on_error_arg = &l;
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_int_equal(res->errors, 32);
	assert_int_equal(res->first_error_lba, (32 << 20) / 512);
	assert_int_equal(l.n, 8);
	assert_int_equal(l.lba[0], (32 << 20) / 512);
	io_dev_close(dev);

	snprintf(cmd, sizeof(cmd), "losetup -d %s", loop);
	sh(cmd, NULL, 0);
	unlink(img);
	rmdir(dir);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_workloads_are_the_planners),
		cmocka_unit_test(test_hist_buckets),
		cmocka_unit_test(test_hist_percentiles),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_generator),
		cmocka_unit_test(test_butterfly),
		cmocka_unit_test(test_sim_model),
		cmocka_unit_test(test_sim_sequential),
		cmocka_unit_test(test_sim_errors),
		cmocka_unit_test(test_uring_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
