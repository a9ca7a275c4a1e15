/* test_zprofile.c - zone boundaries and cut points from synthetic curves,
 * and a sweep of a simulated drive (virtual time). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/sim.h"
#include "shortstroke/zprofile.h"

#include "fixture.h"

#define N 100
#define BLOCKS 100000000ULL

static void fill_lbas(struct zprofile_point *p, unsigned n)
{
	memset(p, 0, n * sizeof(*p));
	for (unsigned i = 0; i < n; i++)
		p[i].lba = BLOCKS / n * i;
}

/* A staircase: 4 zones of 25 samples at 150, 140, 125, 100 MB/s, with
 * +-0.5 % jitter and one wild sample. */
static void test_staircase(void **state)
{
	static const double level[4] = { 150, 140, 125, 100 };
	struct zprofile_point p[N];
	struct ss_error err = { 0 };
	struct zprofile *z;

	(void)state;
	fill_lbas(p, N);
	for (unsigned i = 0; i < N; i++)
		p[i].mbps = level[i / 25] * (1 + 0.005 * ((int)(i * 7 % 5) - 2) / 2.0);
	p[40].mbps = 60; /* one odd sample: the median filter drops it */
	assert_int_equal(zprofile_from_points(p, N, BLOCKS, 512, NULL, &z, &err), 0);
	assert_int_equal(z->nzones, 4);
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(z->zones[k].first_point, k * 25);
		assert_int_equal(z->zones[k].npoints, 25);
		assert_true(fabs(z->zones[k].avg_mbps - level[k]) < 1.0);
	}
	/* boundaries halfway between the samples either side */
	assert_int_equal(z->zones[0].first_lba, 0);
	assert_int_equal(z->zones[1].first_lba, (p[24].lba + p[25].lba) / 2);
	assert_int_equal(z->zones[3].end_lba, BLOCKS);
	assert_true(fabs(z->outer_mbps - 150) < 1.0);
	assert_true(fabs(z->inner_mbps - 100) < 1.0);

	/* cuts: one per zone, the last the whole disk */
	assert_int_equal(z->ncuts, 4);
	assert_true(z->cuts[0].blocks <= z->zones[0].end_lba);
	assert_int_equal(z->cuts[0].blocks % 2048, 0); /* 1 MiB of 512 B blocks */
	assert_true(fabs(z->cuts[0].capacity_pct - 24.5) < 0.1);
	assert_true(fabs(z->cuts[1].worst_pct - 140.0 / 150 * 100) < 1.0);
	assert_int_equal(z->cuts[3].blocks, BLOCKS);
	assert_true(fabs(z->cuts[3].worst_mbps - 100) < 1.0);
	/* the deepest cut keeping 90 % of the outer rate: end of zone 1 */
	assert_int_equal(z->recommended, 1);
	assert_true(z->cuts[1].recommended);
	assert_false(z->cuts[0].recommended);
	/* average over what is kept: capacity-weighted */
	assert_true(fabs(z->cuts[1].avg_mbps - 145) < 1.0);
	zprofile_free(z);
}

/* A smooth decline (the simulator's model): bands step_pct wide. */
static void test_smooth(void **state)
{
	struct zprofile_point p[N];
	struct zprofile_opts o = { .step_pct = 5 };
	struct ss_error err = { 0 };
	struct zprofile *z;

	(void)state;
	fill_lbas(p, N);
	for (unsigned i = 0; i < N; i++)
		p[i].mbps = 160 - 0.8 * i; /* 160 down to 80.8 */
	assert_int_equal(zprofile_from_points(p, N, BLOCKS, 512, &o, &z, &err), 0);
	/* a 5 % band of 160 is 8 MB/s = 10 samples wide; 79 MB/s of decline */
	assert_true(z->nzones >= 9 && z->nzones <= 11);
	for (unsigned k = 0; k < z->nzones; k++)
		assert_true(z->zones[k].max_mbps - z->zones[k].min_mbps <= 8.0 + 1e-9);
	for (unsigned k = 1; k < z->ncuts; k++) {
		assert_true(z->cuts[k].blocks > z->cuts[k - 1].blocks);
		assert_true(z->cuts[k].worst_mbps < z->cuts[k - 1].worst_mbps);
	}
	assert_true(z->recommended >= 0);
	assert_true(z->cuts[z->recommended].worst_pct >= 90);
	assert_true(z->cuts[z->recommended + 1].worst_pct < 90);
	zprofile_free(z);
}

static void test_flat_and_errors(void **state)
{
	struct zprofile_point p[N];
	struct ss_error err = { 0 };
	struct zprofile *z;

	(void)state;
	fill_lbas(p, N);
	for (unsigned i = 0; i < N; i++)
		p[i].mbps = 500;
	p[0].error = true; /* a failed first sample joins the first zone */
	p[50].mbps = 0;	   /* a sample with no rate counts as failed */
	assert_int_equal(zprofile_from_points(p, N, BLOCKS, 512, NULL, &z, &err), 0);
	assert_int_equal(z->nzones, 1);
	assert_int_equal(z->errors, 2);
	assert_int_equal(z->recommended, -1); /* flat: nothing to gain */
	assert_int_equal(z->ncuts, 1);
	zprofile_free(z);

	for (unsigned i = 0; i < N; i++)
		p[i].error = true;
	assert_int_equal(zprofile_from_points(p, N, BLOCKS, 512, NULL, &z, &err), -EIO);
	fill_lbas(p, N);
	p[3].lba = p[2].lba;
	assert_int_equal(zprofile_from_points(p, N, BLOCKS, 512, NULL, &z, &err), -EINVAL);
	fill_lbas(p, N);
	p[N - 1].lba = BLOCKS;
	assert_int_equal(zprofile_from_points(p, N, BLOCKS, 512, NULL, &z, &err), -EINVAL);
}

static void test_measure_sim(void **state)
{
	static const char rig[] =
	    "{\"time_scale\": 0, \"drives\": [{\"id\": \"d\", \"personality\": \"sata\",\n"
	    " \"model\": \"M\", \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 488397168,\n"
	    " \"rpm\": 7200, \"media\": {\"outer_mbps\": 105, \"inner_mbps\": 55}},\n"
	    " {\"id\": \"bad\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\",\n"
	    " \"serial\": \"S2\", \"firmware\": \"F1\", \"wwn\": \"5000cca00b3c1f21\",\n"
	    " \"blocks\": 20000000, \"faults\": [\"medium-error:10000000\"]}]}";
	struct sim_rig *r = NULL;
	struct ss_error err = { 0 };
	struct io_dev *dev = NULL;
	struct zprofile_opts o = { .points = 50 };
	struct zprofile *z;

	(void)state;
	assert_int_equal(sim_rig_load_string(rig, "t", NULL, &r, &err), 0);
	assert_int_equal(fixture_sim_io(r, "d", false, &dev, &err), 0);
	assert_int_equal(zprofile_measure(dev, &o, &z, &err), 0);
	assert_true(z->virtual_time);
	assert_int_equal(z->npoints, 50);
	assert_true(z->outer_mbps > 100 && z->outer_mbps <= 105);
	assert_true(z->inner_mbps > 54 && z->inner_mbps < 58);
	assert_true(z->nzones > 5);
	for (unsigned i = 1; i < z->npoints; i++)
		assert_true(z->points[i].mbps <= z->points[i - 1].mbps + 0.5);
	zprofile_free(z);

	o.points = 1;
	assert_int_equal(zprofile_measure(dev, &o, &z, &err), -EINVAL);
	io_dev_close(dev);

	/* a medium error in one sample: marked, the sweep goes on */
	assert_int_equal(fixture_sim_io(r, "bad", false, &dev, &err), 0);
	o.points = 21;
	o.sample_bytes = 1 << 20;
	assert_int_equal(zprofile_measure(dev, &o, &z, &err), 0);
	assert_int_equal(z->errors, 1);
	assert_true(z->points[10].error);
	zprofile_free(z);
	io_dev_close(dev);
	sim_rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_staircase),
		cmocka_unit_test(test_smooth),
		cmocka_unit_test(test_flat_and_errors),
		cmocka_unit_test(test_measure_sim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
