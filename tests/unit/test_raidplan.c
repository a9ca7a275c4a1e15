/* test_raidplan.c - libraidplan: formulas, properties, calibration, bad input, solver. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "raidplan.h"
#include "raidplan/raidplan_priv.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* A disk with everything given, so that no default interferes. */
static struct rp_disk disk15k(void)
{
	struct rp_disk d;

	rp_disk_init(&d);
	d.capacity = 1000000000000ull; /* 1 TB */
	d.rpm = 15000;
	d.seek_t2t_ms = 0.2;
	d.seek_avg_ms = 3.4;
	d.seek_full_ms = 6.6;
	d.outer_mbps = 200;
	d.inner_mbps = 100;
	d.overhead_ms = 0.3;
	d.mttf_hours = 1e6;
	d.ure_per_bit = 1e-14;
	d.queue_depth = 64;
	d.write_cache = RP_WCACHE_OFF;
	return d;
}

static struct rp_layout layout(int level, unsigned n, double stroke)
{
	struct rp_layout l;

	rp_layout_init(&l);
	l.level = level;
	l.n_disks = n;
	l.stroke = stroke;
	return l;
}

static struct rp_workload wl_simple(double read, double rnd, uint64_t bytes, unsigned qd)
{
	struct rp_workload w;

	rp_workload_init(&w);
	w.read_share = read;
	w.random_share = rnd;
	w.request_bytes = bytes;
	w.queue_depth = qd;
	return w;
}

/* A profile's workload, asserting success. */
static struct rp_workload profile(int prof, unsigned qd)
{
	struct rp_workload w;

	rp_workload_init(&w);
	assert_int_equal(rp_workload_profile(prof, qd, &w, NULL), 0);
	return w;
}

#define PT(px, py)                                                                                 \
	{                                                                                          \
		RP_SIZED(struct rp_point), .x = (px), .y = (py)                                    \
	}

/* Evaluate, asserting success. */
static struct rp_eval *eval_ok(const struct rp_disk *d, size_t n, const struct rp_path *p,
			       const struct rp_layout *l, const struct rp_workload *w)
{
	struct rp_error err = { 0 };
	struct rp_eval *ev = NULL;
	int rc = rp_evaluate(d, n, p, l, w, &ev, &err);

	if (rc)
		print_error("rp_evaluate: %d %s\n", rc, err.msg);
	assert_int_equal(rc, 0);
	assert_non_null(ev);
	return ev;
}

static struct rp_disk *disks_n(size_t n, struct rp_disk d)
{
	struct rp_disk *v = calloc(n, sizeof(*v));
	size_t i;

	assert_non_null(v);
	for (i = 0; i < n; i++)
		v[i] = d;
	return v;
}

/* ---- versions and names ---------------------------------------------- */

static void test_version(void **state)
{
	int lv;

	(void)state;
	assert_int_equal(rp_api_version(), RP_API_VERSION);
	assert_int_equal(rp_api_version(), 2);
	assert_string_equal(rp_version(), RP_VERSION_STRING);
	assert_memory_equal(rp_version(), "2.", 2);
	assert_string_equal(rp_strerror(-EINVAL), "invalid input");
	assert_int_equal(rp_level_parse("RAID 0+1", &lv, NULL), 0);
	assert_int_equal(lv, RP_LEVEL_01);
	assert_int_equal(rp_level_parse("raid60", &lv, NULL), 0);
	assert_int_equal(lv, RP_LEVEL_60);
	assert_int_equal(rp_level_parse("7", &lv, NULL), -EINVAL);
	assert_int_equal(rp_profile_parse("File-Server", &lv, NULL), 0);
	assert_int_equal(lv, RP_PROFILE_FILESERVER);
	assert_string_equal(rp_level_name(RP_LEVEL_01), "0+1");
	assert_null(rp_level_name(42));
}

/* ---- formulas against hand computation ---------------------------------- */

/*
 * Cheetah 15K.7: T 0.2, A 3.4, F 6.6 ms.
 *   b = 5A - 5F/3 - 10T/3 = 17 - 11 - 0.6667 = 5.3333
 *   a = 8F/3 - 5A + 7T/3 = 17.6 - 17 + 0.4667 = 1.0667
 * checks: t(1) = 0.2 + 1.0667 + 5.3333 = 6.6; band(1) = 0.2 + 1.0667/3 +
 * 8/15 * 5.3333 = 0.2 + 0.3556 + 2.8444 = 3.4.
 * band(0.1) = 0.2 + 1.0667*0.1/3 + 0.5333*5.3333*sqrt(0.1)
 *           = 0.2 + 0.03556 + 0.89949 = 1.13505 ms
 */
static void test_seek_fit(void **state)
{
	struct rp_dmodel m;
	double a, b;
	bool fb;

	(void)state;
	rp_seek_fit(0.2, 3.4, 6.6, &a, &b, &fb);
	NEAR(a, 1.0666667, 1e-6);
	NEAR(b, 5.3333333, 1e-6);
	assert_false(fb);
	memset(&m, 0, sizeof(m));
	m.t2t = 0.2;
	m.seek_a = a;
	m.seek_b = b;
	NEAR(rp_seek_band(&m, 1.0), 3.4, 1e-9);
	NEAR(rp_seek_band(&m, 0.1), 1.1350479, 1e-6);
	NEAR(m.t2t + a + b, 6.6, 1e-9);

	/* T 0.8, A 8.5, F 10: a = 26.667 - 42.5 + 1.867 < 0, so a = 0 and
	 * b = 15 (A - T) / 8 = 15 * 7.7 / 8 = 14.4375; band(1) = 0.8 + 8/15 b = 8.5 */
	rp_seek_fit(0.8, 8.5, 10, &a, &b, &fb);
	assert_true(fb);
	NEAR(a, 0, 1e-12);
	NEAR(b, 14.4375, 1e-9);
	/* T 0.8, A 8.5, F 30: b = 42.5 - 50 - 2.667 < 0, so b = 0 and a = 3 (A - T) = 23.1 */
	rp_seek_fit(0.8, 8.5, 30, &a, &b, &fb);
	assert_true(fb);
	NEAR(a, 23.1, 1e-9);
	NEAR(b, 0, 1e-12);
}

/*
 * Zone bit recording, k = 0.5, c = 0.1 (docs/models.md: "7.7 %"):
 *   s = (1 - sqrt(1 - 0.1 * 0.75)) / 0.5 = (1 - 0.9617692) / 0.5 = 0.0764616
 * Rate at the band's inner edge, Ro = 100: Ro (1 - s (1 - k)) = 96.1769 MB/s.
 * Harmonic mean over the band (numeric integration of 1/R by hand-written
 * Python, 1e5 steps): 98.0885 MB/s = (100 + 96.1769) / 2.
 */
static void test_zbr(void **state)
{
	struct rp_dmodel m;
	struct rp_band b;

	(void)state;
	NEAR(rp_zbr_stroke(0.1, 0.5), 0.0764616, 1e-6);
	NEAR(rp_zbr_stroke(1.0, 0.5), 1.0, 1e-12);
	NEAR(rp_zbr_stroke(0.3, 1.0), 0.3, 1e-12); /* no ZBR: s = c */
	NEAR(rp_zbr_stroke(0.0, 0.5), 0.0, 1e-12);
	memset(&m, 0, sizeof(m));
	m.ro = 100;
	m.k = 0.5;
	m.t2t = 1;
	rp_dmodel_band(&m, 0.1, &b);
	NEAR(b.sigma, 0.0764616, 1e-6);
	NEAR(b.rate_end, 100 * (1 - 0.0764616 * 0.5), 1e-4);
	NEAR(b.rate_end, 96.17692, 1e-4);
	NEAR(b.rate_h, 98.08846, 1e-4);
	NEAR(b.rate_start, 100, 1e-12);
}

/*
 * Slowest of m, nearest of D (in revolutions):
 *   W(1,1) = 1/2; W(3,1) = 3/4 (docs/models.md n/(n+1)); W(1,2) = 1/3 (T/(D+1));
 *   W(2,2) = 1 - Int (1-u^2)^2 = 1 - (1 - 2/3 + 1/5) = 2/3 - 1/5 = 0.466667.
 * SPTF (queue.c) against a brute-force integral below.
 */

/* E[shortest of q] positioning beyond T, brute force: the distance u has
 * density 2(1 - u), the wait is uniform on [0, R), and
 * E = Int_0^inf P(min > x) dx = Int (1 - F(x))^q dx, F by a midpoint sum
 * over the wait of P(seek excess <= x - w). */
static double brute_excess(double alpha, double beta, double r, double q)
{
	double y1 = alpha + beta, xmax = y1 + r, sum = 0;
	int i, j, nx = 3000, nw = 300;

	for (i = 0; i < nx; i++) {
		double x = xmax * (i + 0.5) / nx, f = 0;

		for (j = 0; j < nw; j++) {
			double w = r * (j + 0.5) / nw, y = x - w, u, v;

			if (y <= 0)
				continue;
			/* alpha u + beta sqrt(u) = y */
			v = alpha > 0 ? (-beta + sqrt(beta * beta + 4 * alpha * y)) / (2 * alpha)
				      : y / beta;
			u = v * v > 1 ? 1 : v * v;
			f += 1 - (1 - u) * (1 - u);
		}
		sum += pow(1 - f / nw, q);
	}
	return sum * xmax / nx;
}

static void test_sptf(void **state)
{
	static const double band[][3] = {
		{ 1.77, 4.33, 4.0 }, /* 15k full stroke: seek beyond T wider than a turn */
		{ 0.05, 0.75, 4.0 }, /* 15k at 4 %: a turn dominates */
		{ 3.0, 9.0, 8.33 },  /* 7200 rpm full stroke */
		{ 5.0, 0.0, 6.0 },   /* linear fit fallback */
	};
	struct rp_memo *mm = rp_memo_new();
	size_t b;

	(void)state;
	assert_non_null(mm);
	for (b = 0; b < sizeof(band) / sizeof(band[0]); b++) {
		double al = band[b][0], be = band[b][1], r = band[b][2];
		double e1 = brute_excess(al, be, r, 1), prev = 1, q;

		/* E_1 is the mean: alpha/3 + 8 beta/15 + R/2 */
		NEAR(e1, al / 3 + 8 * be / 15 + r / 2, 2e-3 * e1);
		NEAR(rp_sptf_ratio(NULL, al, be, r, 1), 1, 0);
		NEAR(rp_sptf_ratio(NULL, al, be, r, 0.5), 1, 0);
		for (q = 2; q <= 64; q *= 2) {
			double want = brute_excess(al, be, r, pow(q, RP_SPTF_GAMMA)) / e1;
			double got = rp_sptf_ratio(NULL, al, be, r, q);

			print_message("band %zu q %2.0f: r %.5f (brute force %.5f)\n", b, q, got,
				      want);
			NEAR(got, want, 2e-3);
			NEAR(rp_sptf_exact(al, be, r, q), want, 1e-3);
			assert_true(got < prev);
			prev = got;
		}
		/* the memo gives the same bits, whatever was asked before */
		for (q = 1.3; q < 400; q = q * 1.21 + 0.3) {
			double a = rp_sptf_ratio(NULL, al, be, r, q);

			assert_true(rp_sptf_ratio(mm, al, be, r, q) == a);
			assert_true(rp_sptf_ratio(mm, be, al + 0.1, r, q) ==
				    rp_sptf_ratio(NULL, be, al + 0.1, r, q));
		}
	}
	free(mm);
}

static void test_rot_ncq(void **state)
{
	(void)state;
	NEAR(rp_rot_wait(NULL, 1, 1), 0.5, 1e-12);
	NEAR(rp_rot_wait(NULL, 3, 1), 0.75, 1e-12);
	NEAR(rp_rot_wait(NULL, 1, 2), 1.0 / 3.0, 1e-9);
	NEAR(rp_rot_wait(NULL, 2, 2), 0.4666667, 1e-6);
	NEAR(rp_rot_wait(NULL, 1, 3), 0.25, 1e-9);
	NEAR(rp_rot_wait(NULL, 0, 1), 0, 1e-12);
	/* with a memo: the same bits, whatever was asked before */
	{
		struct rp_memo *mm = rp_memo_new();
		double m;

		assert_non_null(mm);
		for (m = 0.5; m < 2000; m = m * 1.37 + 0.25) {
			double a = rp_rot_wait(NULL, m, 2 + fmod(m, 3));

			assert_true(rp_rot_wait(mm, m, 2 + fmod(m, 3)) == a);
			assert_true(rp_rot_wait(mm, m, 2 + fmod(m, 3)) == a);
			assert_true(rp_rot_wait(mm, m, 5) == rp_rot_wait(NULL, m, 5));
		}
		free(mm);
	}
}

/*
 * One disk, RAID 0 of 1, full stroke, 4 KiB random reads, QD1
 * (disk15k: T 0.2 A 3.4 F 6.6, 200/100 MB/s, overhead 0.3):
 *   access = 0.3 + 3.4 + 60000/15000/2 + 4096 B / ((200 + 100)/2 MB/s)
 *          = 0.3 + 3.4 + 2.0 + 0.0273067 = 5.7273067 ms; IOPS = 174.602
 * RAID 5 of 5 disks, 4 KiB random writes, QD1: read old data + parity
 * (slowest of 2: 2/3 rev), write a revolution later:
 *   0.3 + 3.4 + 4 * 2/3 + 4 + 0.0273067 = 10.394 ms
 * and at a deep queue a closed loop of requests of 2 reads then 2 writes
 * on disks chosen at random (fj_iops).
 */

/* disk15k's time per disk operation at full stroke with qd queued
 * (docs/planning-model.md 1.8): T + (E1 - T) r(qd), the band's fit
 * a = (8/3) 6.6 - 5 3.4 + (7/3) 0.2, b = 5 3.4 - (5/3) 6.6 - (10/3) 0.2,
 * plus ageing: served at E1 = 5.4 ms once the wait passes qd revolutions
 * and (full seek 6.6 + rev 4 - pos) / 0.02. */
static double top15k(double qd, double xfer)
{
	double a = 8.0 / 3 * 6.6 - 17 + 7.0 / 3 * 0.2, b = 17 - 5.0 / 3 * 6.6 - 10.0 / 3 * 0.2;
	double pos = 0.2 + 5.2 * rp_sptf_ratio(NULL, a, b, 4.0, qd), top = 0.3 + pos + xfer;
	double lim = qd * 4.0 + (6.6 + 4.0 - pos) / 0.02;

	return top + exp(-lim / (qd * top)) * (5.4 - pos);
}

/* The disks' operations per ms with m (whole) outstanding on n disks of
 * queue depth 64, the long way: every term of Binomial(m, 1/n). */
static double fj_rate(unsigned n, double m, double xfer, double *busy)
{
	double p = 1.0 / n, x = 0;

	*busy = 1 - pow(1 - p, m);
	for (double j = 1; j <= m; j++)
		x += exp(lgamma(m + 1) - lgamma(j + 1) - lgamma(m - j + 1) + j * log(p) +
			 (m - j) * log(1 - p)) /
		     top15k(fmin(j, 64), xfer);
	return n * x;
}

/* IOPS of q requests in a closed loop, each k1 operations on distinct
 * disks then k2 (docs/planning-model.md 2.3): m outstanding, linear
 * between whole m; a phase takes H(k) x the wait + the service + rev x
 * (k / (k + 1) - 1/2); q (k1 + k2) = X x (the phases), by bisection. */
static double fj_iops(unsigned n, double q, unsigned k1, unsigned k2, double xfer)
{
	double lo = 0, hi = q * (k1 + k2), x = 0;
	double h1 = k1 == 1 ? 1 : 1.5, h2 = k2 == 0 ? 0 : k2 == 1 ? 1 : 1.5;

	assert_true(k1 <= 2 && k2 <= 2);
	for (int i = 0; i < 200; i++) {
		double m = (lo + hi) / 2, m0 = floor(m), b0, b1, x0, x1, busy, s, w, t;

		x0 = fj_rate(n, m0, xfer, &b0);
		x1 = fj_rate(n, m0 + 1, xfer, &b1);
		x = x0 + (m - m0) * (x1 - x0);
		busy = b0 + (m - m0) * (b1 - b0);
		s = n * busy / x;
		w = fmax(0, m / x - s);
		t = h1 * w + s + 4.0 * (k1 / (k1 + 1.0) - 0.5);
		if (k2)
			t += h2 * w + s + 4.0 * (k2 / (k2 + 1.0) - 0.5);
		if (x * t > q * (k1 + k2))
			hi = m;
		else
			lo = m;
	}
	return 1000 * x / (k1 + k2);
}

static void test_access_formula(void **state)
{
	struct rp_disk d = disk15k(), *v = disks_n(5, d);
	struct rp_layout l = layout(RP_LEVEL_0, 1, 1.0);
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	struct rp_eval *ev = eval_ok(&d, 1, NULL, &l, &w);
	double xfer = 4096.0 / 150e3;

	(void)state;
	NEAR(rp_eval_value(ev, RP_FIG_ACCESS_TIME), 5.7273067, 1e-6);
	NEAR(rp_eval_value(ev, RP_FIG_RAND_READ_QD1), 1000 / 5.7273067, 1e-3);
	NEAR(rp_eval_value(ev, RP_FIG_BAND_SEEK), 3.4, 1e-9);
	NEAR(rp_eval_value(ev, RP_FIG_ROTATION), 2.0, 1e-12);
	rp_eval_free(ev);

	l = layout(RP_LEVEL_5, 5, 1.0);
	w = wl_simple(0, 1, 4096, 1);
	ev = eval_ok(v, 5, NULL, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_ACCESS_TIME), 0.3 + 3.4 + 4.0 * 2 / 3 + 4.0 + xfer, 1e-6);
	rp_eval_free(ev);

	/* q = 64 on 5 disks: a write reads 2 and writes 2; a read is one
	 * operation, 64 outstanding, a busy disk holding 12.8 / (1 - 0.8^64) */
	w.queue_depth = 64;
	ev = eval_ok(v, 5, NULL, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_RAND_WRITE_QD), fj_iops(5, 64, 2, 2, xfer), 1e-6);
	NEAR(rp_eval_value(ev, RP_FIG_RAND_READ_QD), fj_iops(5, 64, 1, 0, xfer), 1e-6);
	NEAR(rp_eval_value(ev, RP_FIG_QUEUE_POSITION),
	     0.2 + 5.2 * rp_sptf_ratio(NULL, 8.0 / 3 * 6.6 - 17 + 7.0 / 3 * 0.2,
				       17 - 5.0 / 3 * 6.6 - 10.0 / 3 * 0.2, 4.0,
				       12.8 / (1 - pow(0.8, 64))),
	     1e-9);
	rp_eval_free(ev);
	/* deeper than the disks take (64 by class for 15k rpm): the disks
	 * choose among 64 at most */
	w.queue_depth = 320;
	ev = eval_ok(v, 5, NULL, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_RAND_WRITE_QD), fj_iops(5, 320, 2, 2, xfer), 1e-6);
	rp_eval_free(ev);
	/* one disk is never idle: 1 / t_op at its queue */
	l = layout(RP_LEVEL_0, 1, 1.0);
	w = wl_simple(1, 1, 4096, 16);
	ev = eval_ok(&d, 1, NULL, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_RAND_READ_QD), 1000 / top15k(16, xfer), 1e-6);
	rp_eval_free(ev);
	free(v);
}

/*
 * Mixed IOPS, docs/models.md: 1 / (r / IOPS_r + w / IOPS_w). RAID 5 of 5,
 * 4 KiB, r = 0.7, deep queue, no caps: a read is 1 operation, a write 2
 * reads then 2 writes (fj_iops).
 */
static void test_mixed_formula(void **state)
{
	struct rp_disk *v = disks_n(5, disk15k());
	struct rp_layout l = layout(RP_LEVEL_5, 5, 1.0);
	struct rp_workload w = wl_simple(0.7, 1, 4096, 256);
	struct rp_eval *ev = eval_ok(v, 5, NULL, &l, &w);
	double xfer = 4096.0 / 150e3;
	double rr = fj_iops(5, 256, 1, 0, xfer), rw = fj_iops(5, 256, 2, 2, xfer);

	(void)state;
	NEAR(rp_eval_value(ev, RP_FIG_RAND_READ_QD), rr, 1e-6);
	NEAR(rp_eval_value(ev, RP_FIG_RAND_WRITE_QD), rw, 1e-6);
	NEAR(rp_eval_value(ev, RP_FIG_MIXED_IOPS), 1 / (0.7 / rr + 0.3 / rw), 1e-6);
	rp_eval_free(ev);
	free(v);
}

/*
 * Reliability, MTTF 1e6 h, replace 24 h, rebuild 3.6e11 B at 100 MB/s = 1 h
 * (stroke 0.36 of 1 TB; band rate >= 150 MB/s so the limit binds): MTTR 25 h.
 *   RAID 5, N 5:   1e12 / (5*4*25)        = 2e9 h
 *   RAID 6, N 6:   1e18 / (6*5*4*25^2)    = 1.3333e13 h
 *   RAID 10, N 4:  1e12 / (4*25)          = 1e10 h
 *   RAID 1, N 2:   1e12 / (2*25)          = 2e10 h
 *   RAID 0+1, N 4: 1e12 / (4*2*25)        = 5e9 h
 *   RAID 50, 10 in 2 groups of 5: 2e9 / 2 = 1e9 h
 *   RAID 0, N 4:   1e6 / 4                = 2.5e5 h
 * URE, RAID 5 of 5, p = 1e-14: B = 8 * 3.6e11 * 4 = 1.152e13 bits,
 *   1 - (1 - 1e-14)^1.152e13 = 1 - exp(-0.1152) = 0.1088121
 * RAID 10: B = 8 * 3.6e11 = 2.88e12: 0.0283892
 */
static void test_reliability(void **state)
{
	static const struct {
		int level;
		unsigned n, groups;
		double mttdl;
	} cases[] = {
		{ RP_LEVEL_5, 5, 0, 2e9 },   { RP_LEVEL_6, 6, 0, 1e18 / 75000 },
		{ RP_LEVEL_10, 4, 0, 1e10 }, { RP_LEVEL_1, 2, 0, 2e10 },
		{ RP_LEVEL_01, 4, 0, 5e9 },  { RP_LEVEL_50, 10, 2, 1e9 },
		{ RP_LEVEL_0, 4, 0, 2.5e5 },
	};
	struct rp_disk *v = disks_n(10, disk15k());
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rp_layout l = layout(cases[i].level, cases[i].n, 0.36);
		struct rp_eval *ev;

		l.groups = cases[i].groups;
		l.rebuild_mbps = 100;
		l.replace_hours = 24;
		ev = eval_ok(v, 10, NULL, &l, &w);
		NEAR(rp_eval_value(ev, RP_FIG_MTTDL) / cases[i].mttdl, 1.0, 1e-9);
		if (cases[i].level != RP_LEVEL_0)
			NEAR(rp_eval_value(ev, RP_FIG_REBUILD_TIME), 1.0, 1e-9);
		else
			assert_int_equal(rp_eval_figure(ev, RP_FIG_REBUILD_TIME)->valid, 0);
		if (cases[i].level == RP_LEVEL_5)
			NEAR(rp_eval_value(ev, RP_FIG_URE_REBUILD), 0.1088121, 1e-6);
		if (cases[i].level == RP_LEVEL_10)
			NEAR(rp_eval_value(ev, RP_FIG_URE_REBUILD), 0.0283892, 1e-6);
		rp_eval_free(ev);
	}
	free(v);
}

/* Usable capacity and the level tables, 6 disks of 1 TB at stroke 0.5:
 *   RAID 0: 6 * 0.5 TB = 3 TB; RAID 10: 1.5 TB; RAID 5: 2.5 TB; RAID 6: 2 TB;
 *   RAID 50 (2 groups): 2 TB; sequential read start RAID 5: 5 * 200 MB/s. */
static void test_capacity_table(void **state)
{
	static const struct {
		int level;
		double cap, seq;
	} cases[] = {
		{ RP_LEVEL_0, 3e12, 1200 },   { RP_LEVEL_10, 1.5e12, 600 },
		{ RP_LEVEL_01, 1.5e12, 600 }, { RP_LEVEL_5, 2.5e12, 1000 },
		{ RP_LEVEL_6, 2e12, 800 },    { RP_LEVEL_50, 2e12, 800 },
		{ RP_LEVEL_1, 0.5e12, 200 },
	};
	struct rp_disk *v = disks_n(6, disk15k());
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rp_layout l = layout(cases[i].level, 6, 0.5);
		struct rp_eval *ev = eval_ok(v, 6, NULL, &l, &w);

		NEAR(rp_eval_value(ev, RP_FIG_USABLE_CAPACITY), cases[i].cap, 1);
		NEAR(rp_eval_value(ev, RP_FIG_SEQ_READ_START), cases[i].seq, 1e-9);
		rp_eval_free(ev);
	}
	free(v);
}

/* ---- datasheet calibration ---------------------------------------------- */

/*
 * Hitachi Ultrastar 15K450: 15000 rpm, 879,097,968 x 512 B, average seek
 * 3.3 ms read, 157 MB/s outer; track-to-track and full stroke from the 15k
 * defaults (0.2, 6.6 ms), inner rate default k = 0.6 (94.2 MB/s), overhead
 * default of the enterprise class 0.2 ms (the simulator's SAS default):
 *   0.2 + 3.3 + 2.0 + 4096 / ((157 + 94.2)/2 * 1e3) = 5.5326 ms
 * Published reviews measured about 5.5 - 6 ms random access for this class
 * of disk (issue 6 says "about 6 ms"); the band 5.3 - 6.5 ms allows the
 * +-0.3 ms spread of command overhead between hosts.
 */
static void test_calibration_15k450(void **state)
{
	struct rp_disk d;
	struct rp_layout l = layout(RP_LEVEL_0, 1, 1.0);
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	struct rp_eval *ev;
	double acc;

	(void)state;
	rp_disk_init(&d);
	d.capacity = 879097968ull * 512;
	d.rpm = 15000;
	d.seek_avg_ms = 3.3;
	d.outer_mbps = 157;
	ev = eval_ok(&d, 1, NULL, &l, &w);
	acc = rp_eval_value(ev, RP_FIG_ACCESS_TIME);
	print_message("15K450 4 KiB random read, QD1, full stroke: %.3f ms (%.0f IOPS)\n", acc,
		      rp_eval_value(ev, RP_FIG_RAND_READ_QD1));
	assert_true(acc >= 5.3 && acc <= 6.5);
	NEAR(acc, 0.2 + 3.3 + 2.0 + 4096 / ((157 + 94.2) / 2 * 1e3), 1e-6);
	assert_true(rp_eval_has_warning(ev, RP_WARN_DEFAULTS));
	/* the defaults are listed with separators (issue 31.3: they ran
	 * together, "seek times transfer rates command overhead") */
	for (size_t i = 0; i < rp_eval_warning_count(ev); i++)
		if (rp_eval_warning(ev, i)->id == RP_WARN_DEFAULTS)
			assert_non_null(strstr(rp_eval_warning(ev, i)->text,
					       "for: seek times, transfer rates, command overhead, "
					       "MTTF, URE rate, queue depth, write cache ("));
	rp_eval_free(ev);
}

/* ---- properties ---------------------------------------------------------- */

static void test_prop_stroke_monotone(void **state)
{
	static const double rpms[] = { 5400, 7200, 10000, 15000 };
	static const struct rp_point seek_curve[] = {
		PT(0.001, 0.8), PT(0.05, 2.5), PT(0.2, 5), PT(0.5, 9), PT(1.0, 15),
	};
	static const struct rp_point zones[] = {
		PT(0, 210), PT(0.3, 190), PT(0.31, 195), PT(0.6, 160), PT(1.0, 100),
	};
	static const int levels[] = { RP_LEVEL_0, RP_LEVEL_1, RP_LEVEL_10, RP_LEVEL_5, RP_LEVEL_6 };
	unsigned r, li, s, variant;

	(void)state;
	for (variant = 0; variant < 3; variant++) {
		for (r = 0; r < 4; r++) {
			struct rp_disk d;
			struct rp_disk *v;

			rp_disk_init(&d);
			d.capacity = 2000000000000ull;
			d.rpm = rpms[r];
			if (variant == 1) {
				d.seek_curve = seek_curve;
				d.n_seek_curve = 5;
			}
			if (variant == 2) {
				d.zone_profile = zones;
				d.n_zone_profile = 5;
			}
			v = disks_n(6, d);
			for (li = 0; li < 5; li++) {
				double prev_acc = 0, prev_iops = 1e300;

				for (s = 1; s <= 100; s++) {
					struct rp_layout l = layout(levels[li], 6, s / 100.0);
					struct rp_workload w;
					struct rp_eval *ev;
					double acc, iops;

					w = profile(RP_PROFILE_FILESERVER, 8);
					ev = eval_ok(v, 6, NULL, &l, &w);
					acc = rp_eval_value(ev, RP_FIG_ACCESS_TIME);
					iops = rp_eval_value(ev, RP_FIG_MIXED_IOPS);
					assert_true(acc >= prev_acc - 1e-9);
					assert_true(iops <= prev_iops * (1 + 1e-9));
					prev_acc = acc;
					prev_iops = iops;
					rp_eval_free(ev);
				}
			}
			free(v);
		}
	}
}

/* RAID 0 sequential read grows by one disk's rate per disk up to the
 * controller's 1000 MB/s, then stays there, with a warning naming it. */
static void test_prop_raid0_cap(void **state)
{
	struct rp_disk *v = disks_n(16, disk15k());
	struct rp_path p = { RP_SIZED(struct rp_path), .controller_mbps = 1000 };
	struct rp_workload w = wl_simple(1, 0, 1 << 20, 4);
	unsigned n;

	(void)state;
	for (n = 1; n <= 16; n++) {
		struct rp_layout l = layout(RP_LEVEL_0, n, 1.0);
		struct rp_eval *ev = eval_ok(v, 16, &p, &l, &w);
		double seq = rp_eval_value(ev, RP_FIG_SEQ_READ_START);

		if (n * 200.0 <= 1000) {
			NEAR(seq, n * 200.0, 1e-9);
		} else {
			NEAR(seq, 1000, 1e-9);
			assert_true(rp_eval_has_warning(ev, RP_WARN_CAP_CONTROLLER));
		}
		rp_eval_free(ev);
	}
	free(v);
}

/* A shared link (port multiplier, 300 MB/s) for 4 of 8 disks: the array
 * gets at most 300 * 8 / 4 = 600 MB/s of evenly spread traffic. */
static void test_prop_shared_link(void **state)
{
	struct rp_disk *v = disks_n(8, disk15k());
	struct rp_link link = { RP_SIZED(struct rp_link), .mbps = 300 };
	struct rp_path p = { RP_SIZED(struct rp_path), .links = &link, .n_links = 1 };
	struct rp_layout l = layout(RP_LEVEL_0, 8, 1.0);
	struct rp_workload w = wl_simple(1, 0, 1 << 20, 4);
	struct rp_eval *ev;
	unsigned i;

	(void)state;
	for (i = 0; i < 4; i++)
		v[i].shared_link = 1;
	ev = eval_ok(v, 8, &p, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_SEQ_READ_START), 600, 1e-9);
	assert_true(rp_eval_has_warning(ev, RP_WARN_CAP_LINK));
	rp_eval_free(ev);
	free(v);
}

/* Brute force over every failure subset: all subsets of size <= the
 * tolerated count survive, and some subset of one more does not. */
static void test_prop_tolerance(void **state)
{
	static const struct {
		int level;
		unsigned n, copies, groups;
	} cases[] = {
		{ RP_LEVEL_0, 4, 0, 0 },   { RP_LEVEL_1, 3, 0, 0 },   { RP_LEVEL_10, 8, 2, 0 },
		{ RP_LEVEL_10, 9, 3, 0 },  { RP_LEVEL_01, 8, 2, 0 },  { RP_LEVEL_5, 3, 0, 0 },
		{ RP_LEVEL_5, 9, 0, 0 },   { RP_LEVEL_6, 4, 0, 0 },   { RP_LEVEL_6, 10, 0, 0 },
		{ RP_LEVEL_50, 12, 0, 3 }, { RP_LEVEL_60, 12, 0, 2 },
	};
	struct rp_disk *v = disks_n(12, disk15k());
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rp_layout l = layout(cases[i].level, cases[i].n, 1.0);
		struct rp_eval *ev;
		unsigned tol, mask, failed[16];
		bool some_lost = false;

		l.copies = cases[i].copies;
		l.groups = cases[i].groups;
		ev = eval_ok(v, 12, NULL, &l, &w);
		tol = (unsigned)rp_eval_value(ev, RP_FIG_FAILURES_TOLERATED);
		rp_eval_free(ev);
		if (cases[i].level == RP_LEVEL_5)
			assert_int_equal(tol, 1);
		if (cases[i].level == RP_LEVEL_6)
			assert_int_equal(tol, 2);
		for (mask = 0; mask < (1u << l.n_disks); mask++) {
			unsigned k = 0, b;
			int rc;

			for (b = 0; b < l.n_disks; b++)
				if (mask & (1u << b))
					failed[k++] = b;
			if (k > tol + 1)
				continue;
			rc = rp_layout_survives(&l, failed, k, NULL);
			assert_true(rc == 0 || rc == 1);
			if (k <= tol)
				assert_int_equal(rc, 1);
			else if (!rc)
				some_lost = true;
		}
		assert_true(some_lost);
	}
	free(v);
}

/* Capacity never exceeds the sum of the disks, with mixed sizes too. */
static void test_prop_capacity_bound(void **state)
{
	static const int levels[] = { RP_LEVEL_0, RP_LEVEL_1, RP_LEVEL_10, RP_LEVEL_01,
				      RP_LEVEL_5, RP_LEVEL_6, RP_LEVEL_50, RP_LEVEL_60 };
	struct rp_disk v[12];
	struct rp_workload w = wl_simple(0.5, 1, 8192, 4);
	unsigned seed = 12345, trial, li, i;

	(void)state;
	for (trial = 0; trial < 40; trial++) {
		double sum = 0;

		for (i = 0; i < 12; i++) {
			v[i] = disk15k();
			seed = seed * 1103515245u + 12345u;
			v[i].capacity = 100000000000ull + (uint64_t)(seed % 4000) * 1000000000ull;
			sum += (double)v[i].capacity;
		}
		for (li = 0; li < 8; li++) {
			struct rp_layout l = layout(levels[li], 12, (trial % 10 + 1) / 10.0);
			struct rp_eval *ev = eval_ok(v, 12, NULL, &l, &w);

			assert_true(rp_eval_value(ev, RP_FIG_USABLE_CAPACITY) <= sum);
			assert_true(rp_eval_has_warning(ev, RP_WARN_MIXED_SIZES));
			rp_eval_free(ev);
		}
	}
}

/* The mix lies between the pure-read and pure-write figures. */
static void test_prop_mixed_between(void **state)
{
	static const int levels[] = { RP_LEVEL_0, RP_LEVEL_10, RP_LEVEL_5, RP_LEVEL_6 };
	struct rp_disk *v = disks_n(8, disk15k());
	unsigned li, r, qd, p;

	(void)state;
	for (li = 0; li < 4; li++) {
		for (r = 0; r <= 10; r++) {
			for (qd = 1; qd <= 256; qd *= 4) {
				for (p = 0; p < 2; p++) {
					struct rp_layout l = layout(levels[li], 8, 0.3);
					struct rp_workload w;
					struct rp_eval *ev;
					double rr, rw, mx;

					if (p)
						w = profile(RP_PROFILE_WEBSERVER, qd);
					else
						w = wl_simple(0, 1, 8192, qd);
					w.read_share = r / 10.0;
					ev = eval_ok(v, 8, NULL, &l, &w);
					rr = rp_eval_value(ev, RP_FIG_RAND_READ_QD);
					rw = rp_eval_value(ev, RP_FIG_RAND_WRITE_QD);
					mx = rp_eval_value(ev, RP_FIG_MIXED_IOPS);
					assert_true(mx >= fmin(rr, rw) * (1 - 1e-9));
					assert_true(mx <= fmax(rr, rw) * (1 + 1e-9));
					if (r == 10)
						NEAR(mx / rr, 1, 1e-9);
					rp_eval_free(ev);
				}
			}
		}
	}
	free(v);
}

/* ---- warnings -------------------------------------------------------------- */

static void test_warnings(void **state)
{
	struct rp_disk *v = disks_n(16, disk15k());
	struct rp_layout l = layout(RP_LEVEL_5, 15, 1.0);
	struct rp_workload w = wl_simple(0.5, 1, 65536, 4);
	struct rp_eval *ev;

	(void)state;
	ev = eval_ok(v, 16, NULL, &l, &w);
	assert_true(rp_eval_has_warning(ev, RP_WARN_RAID5_WIDE));
	assert_false(rp_eval_has_warning(ev, RP_WARN_CHUNK_SMALL));
	assert_false(rp_eval_has_warning(ev, RP_WARN_DEFAULTS));
	rp_eval_free(ev);

	l = layout(RP_LEVEL_0, 4, 1.0);
	l.chunk_bytes = 4096;
	ev = eval_ok(v, 16, NULL, &l, &w);
	assert_true(rp_eval_has_warning(ev, RP_WARN_CHUNK_SMALL));
	NEAR(rp_eval_warning(ev, 0)->value, 1.0, 1e-12);
	rp_eval_free(ev);

	/* 1 TB disks at stroke 1e-9: 1000 bytes per disk */
	l = layout(RP_LEVEL_0, 4, 1e-9);
	ev = eval_ok(v, 16, NULL, &l, &w);
	assert_true(rp_eval_has_warning(ev, RP_WARN_CAPACITY_TINY));
	rp_eval_free(ev);

	/* mixed sizes: 1 TB + 3 TB + 1 TB waste 2 TB */
	v[1].capacity = 3000000000000ull;
	l = layout(RP_LEVEL_5, 3, 1.0);
	ev = eval_ok(v, 16, NULL, &l, &w);
	assert_true(rp_eval_has_warning(ev, RP_WARN_MIXED_SIZES));
	NEAR(rp_eval_warning(ev, 0)->value, 2e12, 1);
	rp_eval_free(ev);

	/* 14 desktop 8 TB disks in RAID 5: a rebuild reads 13 * 8 TB * 8 bits
	 * = 8.3e14 bits at 1e-14: URE almost certain */
	v[1].capacity = 1000000000000ull;
	{
		struct rp_disk dd;
		struct rp_disk *dv;

		rp_disk_init(&dd);
		dd.capacity = 8000000000000ull;
		dd.rpm = 7200;
		dv = disks_n(14, dd);
		l = layout(RP_LEVEL_5, 14, 1.0);
		ev = eval_ok(dv, 14, NULL, &l, &w);
		assert_true(rp_eval_has_warning(ev, RP_WARN_URE_LIKELY));
		assert_true(rp_eval_has_warning(ev, RP_WARN_DEFAULTS));
		assert_true(rp_eval_value(ev, RP_FIG_URE_REBUILD) > 0.99);
		rp_eval_free(ev);
		free(dv);
	}
	free(v);
}

/* Every figure explains itself: formula, source and inputs. */
static void test_explain(void **state)
{
	struct rp_disk *v = disks_n(6, disk15k());
	struct rp_layout l = layout(RP_LEVEL_6, 6, 0.25);
	struct rp_workload w;
	struct rp_eval *ev;
	int i;

	(void)state;
	w = profile(RP_PROFILE_DATABASE, 16);
	ev = eval_ok(v, 6, NULL, &l, &w);
	for (i = 0; i < rp_figure_count(); i++) {
		const struct rp_figure *f = rp_eval_figure(ev, i);

		assert_non_null(f);
		assert_int_equal(f->id, i);
		assert_non_null(f->key);
		assert_non_null(f->formula);
		assert_non_null(f->source);
		assert_true(f->n_inputs >= 1);
		assert_true(isfinite(f->value));
	}
	assert_null(rp_eval_figure(ev, rp_figure_count()));
	assert_int_equal(rp_eval_layout(ev)->chunk_bytes, 512 * 1024);
	rp_eval_free(ev);
	free(v);
}

/* ---- the ABI: sized structs (docs/planning-model.md, "The library's ABI") ----- */

/* The counts the *_COUNT enumerators were, and the names they bound. */
static void test_counts(void **state)
{
	struct rp_disk *v = disks_n(6, disk15k());
	struct rp_layout l = layout(RP_LEVEL_5, 6, 0.5);
	struct rp_workload w = profile(RP_PROFILE_DATABASE, 16);
	struct rp_eval *ev;
	int i, j;

	(void)state;
	assert_int_equal(rp_level_count(), 8);
	assert_int_equal(rp_profile_count(), 7);
	assert_int_equal(rp_figure_count(), 30);
	assert_int_equal(rp_warning_count(), 15);
	assert_int_equal(rp_goal_count(), 6);
	assert_string_equal(rp_level_name(rp_level_count() - 1), "60");
	assert_null(rp_level_name(rp_level_count()));
	assert_string_equal(rp_profile_name(rp_profile_count() - 1), "random-access");
	assert_null(rp_profile_name(rp_profile_count()));
	assert_string_equal(rp_goal_name(rp_goal_count() - 1), "level");
	assert_null(rp_goal_name(rp_goal_count()));
	assert_null(rp_figure_key(rp_figure_count()));
	assert_null(rp_figure_key(-1));
	assert_string_equal(rp_warning_key(RP_WARN_DEFAULTS), "defaults");
	assert_string_equal(rp_warning_key(rp_warning_count() - 1), "zoned");
	assert_string_equal(rp_figure_key(rp_figure_count() - 1), "stroke_gain");
	assert_null(rp_warning_key(rp_warning_count()));
	assert_null(rp_warning_key(-1));
	for (i = 0; i < rp_warning_count(); i++)
		for (j = 0; j < i; j++)
			assert_string_not_equal(rp_warning_key(i), rp_warning_key(j));
	/* the figure keys are the figures' own */
	ev = eval_ok(v, 6, NULL, &l, &w);
	for (i = 0; i < rp_figure_count(); i++)
		assert_string_equal(rp_figure_key(i), rp_eval_figure(ev, i)->key);
	rp_eval_free(ev);
	free(v);
}

/* An error whose message names what is wrong. */
static void expect_msg(int rc, const struct rp_error *err, int want, const char *a, const char *b)
{
	if (rc != want || !strstr(err->msg, a) || (b && !strstr(err->msg, b)))
		print_error("rc %d, \"%s\"; want %d with \"%s\" and \"%s\"\n", rc, err->msg, want,
			    a, b ? b : "");
	assert_int_equal(rc, want);
	assert_non_null(strstr(err->msg, a));
	if (b)
		assert_non_null(strstr(err->msg, b));
}

static int eval_rc(const struct rp_disk *d, size_t n, const struct rp_path *p,
		   const struct rp_layout *l, const struct rp_workload *w, struct rp_error *err)
{
	struct rp_eval *ev = NULL;
	int rc;

	memset(err, 0, sizeof(*err));
	rc = rp_evaluate(d, n, p, l, w, &ev, err);
	if (rc)
		assert_null(ev);
	rp_eval_free(ev);
	return rc;
}

/* Size 0, a size below 2.0's and a size no struct has are refused, and
 * the message names the struct and its init function. */
static void test_sizes_refused(void **state)
{
	struct rp_disk v[2] = { disk15k(), disk15k() }, d;
	struct rp_layout l = layout(RP_LEVEL_0, 2, 0.5), x;
	struct rp_workload w = wl_simple(1, 1, 4096, 4), y;
	struct rp_size_share sizes[2] = { { RP_SIZED(struct rp_size_share), 4096, 1 },
					  { RP_SIZED(struct rp_size_share), 65536, 1 } };
	struct rp_point pts[2] = { PT(0.5, 5), PT(1, 9) };
	struct rp_link link = { RP_SIZED(struct rp_link), .mbps = 300 };
	struct rp_path p = { RP_SIZED(struct rp_path), .links = &link, .n_links = 1 };
	struct rp_goals g;
	struct rp_solution *sol = NULL;
	struct rp_error err;
	unsigned failed = 0;

	(void)state;
	assert_int_equal(eval_rc(v, 2, &p, &l, &w, &err), 0);
	x = l, x.size = 0;
	expect_msg(eval_rc(v, 2, &p, &x, &w, &err), &err, -EINVAL, "struct rp_layout: size is 0",
		   "rp_layout_init()");
	x = l, x.size = 8;
	expect_msg(eval_rc(v, 2, &p, &x, &w, &err), &err, -EINVAL, "struct rp_layout: size 8",
		   "libraidplan 2.0");
	x = l, x.size = sizeof(x) - 1;
	expect_msg(eval_rc(v, 2, &p, &x, &w, &err), &err, -EINVAL, "struct rp_layout", "below");
	x = l, x.size = 1u << 20; /* never read that far */
	expect_msg(eval_rc(v, 2, &p, &x, &w, &err), &err, -EINVAL, "struct rp_layout",
		   "not initialised");
	y = w, y.size = 0;
	expect_msg(eval_rc(v, 2, &p, &l, &y, &err), &err, -EINVAL, "struct rp_workload",
		   "rp_workload_init()");
	y = w, y.sizes = sizes, y.n_sizes = 2;
	assert_int_equal(eval_rc(v, 2, &p, &l, &y, &err), 0);
	sizes[1].size = 0;
	expect_msg(eval_rc(v, 2, &p, &l, &y, &err), &err, -EINVAL,
		   "workload size 1: struct rp_size_share: size 0 differs from workload size 0's",
		   NULL);
	sizes[1].size = sizes[0].size;
	p.size = 4;
	expect_msg(eval_rc(v, 2, &p, &l, &w, &err), &err, -EINVAL, "struct rp_path: size 4",
		   "rp_path_init()");
	p.size = sizeof(p);
	link.size = 0;
	expect_msg(eval_rc(v, 2, &p, &l, &w, &err), &err, -EINVAL,
		   "shared link 1: struct rp_link: size is 0", NULL);
	link.size = sizeof(link);
	d = v[1];
	v[1].size = 0;
	expect_msg(eval_rc(v, 2, &p, &l, &w, &err), &err, -EINVAL,
		   "disk 1: struct rp_disk: size 0 differs from disk 0's", "rp_disk_init()");
	v[0].size = 0;
	expect_msg(eval_rc(v, 2, &p, &l, &w, &err), &err, -EINVAL,
		   "disk 0: struct rp_disk: size is 0", NULL);
	v[0] = v[1] = d;
	v[1].zone_profile = pts;
	v[1].n_zone_profile = 2;
	pts[0].x = 0;
	assert_int_equal(eval_rc(v, 2, &p, &l, &w, &err), 0);
	pts[1].size = 16;
	expect_msg(eval_rc(v, 2, &p, &l, &w, &err), &err, -EINVAL,
		   "disk 1: zone profile point 1: struct rp_point: size 16 differs", NULL);
	pts[1].size = sizeof(pts[1]);
	/* the solver's goals, the other entry points */
	rp_goals_init(&g);
	g.min_capacity = 1e12;
	assert_int_equal(rp_solve(v, 2, &p, &w, &g, &sol, &err), 0);
	rp_solution_free(sol);
	g.size = 0;
	expect_msg(rp_solve(v, 2, &p, &w, &g, &sol, &err), &err, -EINVAL,
		   "struct rp_goals: size is 0", "rp_goals_init()");
	assert_null(sol);
	x = l, x.size = 0;
	expect_msg(rp_layout_survives(&x, &failed, 1, &err), &err, -EINVAL, "struct rp_layout",
		   NULL);
	assert_int_equal(rp_layout_survives(&l, &failed, 1, &err), 0);
	y.size = 0;
	expect_msg(rp_workload_profile(RP_PROFILE_DATABASE, 4, &y, &err), &err, -EINVAL,
		   "struct rp_workload: size is 0", NULL);
}

/* Bytes a program built against a newer header has beyond this library's
 * structs. */
#define EXTRA 24

/* n structs of elem bytes as a newer program's: stride elem + EXTRA, tail 0. */
static void *grown(const void *src, size_t n, size_t elem)
{
	size_t stride = elem + EXTRA, i;
	unsigned char *b = calloc(n, stride);
	uint32_t size = (uint32_t)stride;

	assert_non_null(b);
	for (i = 0; i < n; i++) {
		memcpy(b + i * stride, (const char *)src + i * elem, elem);
		memcpy(b + i * stride, &size, sizeof(size));
	}
	return b;
}

static void same_eval(const struct rp_eval *a, const struct rp_eval *b)
{
	int i;

	for (i = 0; i < rp_figure_count(); i++) {
		const struct rp_figure *fa = rp_eval_figure(a, i), *fb = rp_eval_figure(b, i);

		assert_memory_equal(&fa->value, &fb->value, sizeof(fa->value));
		assert_int_equal(fa->valid, fb->valid);
	}
	assert_int_equal(rp_eval_warning_count(a), rp_eval_warning_count(b));
	for (i = 0; i < (int)rp_eval_warning_count(a); i++)
		assert_string_equal(rp_eval_warning(a, i)->text, rp_eval_warning(b, i)->text);
	assert_int_equal(rp_eval_layout(a)->n_disks, rp_eval_layout(b)->n_disks);
}

/* A nonzero byte beyond what the library knows: -E2BIG, naming the offset. */
static void expect_e2big(unsigned char *tail, size_t known, const struct rp_disk *d,
			 const struct rp_path *p, const struct rp_layout *l,
			 const struct rp_workload *w, const char *name)
{
	struct rp_error err;
	char want[64];

	*tail = 1;
	snprintf(want, sizeof(want), "field at offset %zu unknown", known + 3);
	expect_msg(eval_rc(d, 4, p, l, w, &err), &err, -E2BIG, name, want);
	assert_non_null(strstr(err.msg, "older than the program"));
	*tail = 0;
	assert_int_equal(eval_rc(d, 4, p, l, w, &err), 0);
}

/*
 * A program built against a newer header: every struct EXTRA bytes longer
 * (arrays at that stride), the bytes beyond this library's structs 0. The
 * figures are the same to the bit; a nonzero byte there is -E2BIG.
 */
static void test_sizes_newer_program(void **state)
{
	struct rp_point zones[3] = { PT(0, 200), PT(0.5, 170), PT(1, 100) };
	struct rp_point seeks[3] = { PT(0.01, 1), PT(0.3, 4), PT(1, 7) };
	struct rp_link links[2] = { { RP_SIZED(struct rp_link), .mbps = 300 },
				    { RP_SIZED(struct rp_link), .mbps = 150 } };
	struct rp_size_share sizes[3] = { { RP_SIZED(struct rp_size_share), 4096, 5 },
					  { RP_SIZED(struct rp_size_share), 65536, 2 },
					  { RP_SIZED(struct rp_size_share), 1 << 20, 1 } };
	struct rp_disk v[4], v2[4], *gd;
	struct rp_path p = { RP_SIZED(struct rp_path), .controller_mbps = 900, .links = links,
			     .n_links = 2 },
		       p2, *gp;
	unsigned members[4] = { 3, 1, 0, 2 };
	struct rp_layout l = layout(RP_LEVEL_5, 4, 0.4), *gl;
	struct rp_workload w = wl_simple(0.7, 0.9, 0, 32), w2, *gw;
	struct rp_goals g, *gg;
	struct rp_point *gz, *gs;
	struct rp_link *glk;
	struct rp_size_share *gsz;
	struct rp_solution *s0 = NULL, *s1 = NULL;
	struct rp_eval *e0, *e1;
	struct rp_error err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		v[i] = disk15k();
		v[i].capacity = 1000000000000ull + i * 100000000000ull; /* each its own */
		v[i].shared_link = (unsigned)(i % 3);
	}
	v[1].zone_profile = zones;
	v[1].n_zone_profile = 3;
	v[2].seek_curve = seeks;
	v[2].n_seek_curve = 3;
	l.members = members;
	w.sizes = sizes;
	w.n_sizes = 3;
	e0 = eval_ok(v, 4, &p, &l, &w);

	/* the same inputs, as the newer program lays them out */
	gz = grown(zones, 3, sizeof(zones[0]));
	gs = grown(seeks, 3, sizeof(seeks[0]));
	memcpy(v2, v, sizeof(v));
	v2[1].zone_profile = gz;
	v2[2].seek_curve = gs;
	gd = grown(v2, 4, sizeof(v2[0]));
	glk = grown(links, 2, sizeof(links[0]));
	p2 = p;
	p2.links = glk;
	gp = grown(&p2, 1, sizeof(p2));
	gl = grown(&l, 1, sizeof(l));
	gsz = grown(sizes, 3, sizeof(sizes[0]));
	w2 = w;
	w2.sizes = gsz;
	gw = grown(&w2, 1, sizeof(w2));
	assert_int_equal(rp_evaluate(gd, 4, gp, gl, gw, &e1, &err), 0);
	same_eval(e0, e1);
	/* the stride is element 0's size: disk 3 is read where it is */
	assert_int_equal(rp_eval_layout(e1)->members[0], 3);
	rp_eval_free(e1);

	/* the solver: the same ranked answer */
	rp_goals_init(&g);
	g.min_capacity = 1e12;
	g.max_results = 5;
	gg = grown(&g, 1, sizeof(g));
	assert_int_equal(rp_solve(v, 4, &p, &w, &g, &s0, &err), 0);
	assert_int_equal(rp_solve(gd, 4, gp, gw, gg, &s1, &err), 0);
	assert_true(rp_solution_count(s0) >= 1);
	assert_int_equal(rp_solution_count(s0), rp_solution_count(s1));
	for (i = 0; i < rp_solution_count(s0); i++)
		same_eval(rp_solution_get(s0, i), rp_solution_get(s1, i));
	rp_solution_free(s0);
	rp_solution_free(s1);

	/* a field this library does not know, set: -E2BIG naming its offset */
	expect_e2big((unsigned char *)gd + 2 * (sizeof(struct rp_disk) + EXTRA) +
			 sizeof(struct rp_disk) + 3,
		     sizeof(struct rp_disk), gd, gp, gl, gw, "disk 2: struct rp_disk");
	expect_e2big((unsigned char *)gz + 2 * (sizeof(struct rp_point) + EXTRA) +
			 sizeof(struct rp_point) + 3,
		     sizeof(struct rp_point), gd, gp, gl, gw,
		     "disk 1: zone profile point 2: struct rp_point");
	expect_e2big((unsigned char *)gs + sizeof(struct rp_point) + 3, sizeof(struct rp_point), gd,
		     gp, gl, gw, "disk 2: seek curve point 0: struct rp_point");
	expect_e2big((unsigned char *)glk + 2 * sizeof(struct rp_link) + EXTRA + 3,
		     sizeof(struct rp_link), gd, gp, gl, gw, "shared link 2: struct rp_link");
	expect_e2big((unsigned char *)gp + sizeof(struct rp_path) + 3, sizeof(struct rp_path), gd,
		     gp, gl, gw, "struct rp_path");
	expect_e2big((unsigned char *)gl + sizeof(struct rp_layout) + 3, sizeof(struct rp_layout),
		     gd, gp, gl, gw, "struct rp_layout");
	expect_e2big((unsigned char *)gw + sizeof(struct rp_workload) + 3,
		     sizeof(struct rp_workload), gd, gp, gl, gw, "struct rp_workload");
	expect_e2big((unsigned char *)gsz + sizeof(struct rp_size_share) + 3,
		     sizeof(struct rp_size_share), gd, gp, gl, gw,
		     "workload size 0: struct rp_size_share");
	((unsigned char *)gg)[sizeof(struct rp_goals) + EXTRA - 1] = 1;
	expect_msg(rp_solve(gd, 4, gp, gw, gg, &s1, &err), &err, -E2BIG, "struct rp_goals",
		   "older than the program");
	assert_null(s1);
	rp_eval_free(e0);
	free(gz), free(gs), free(gd), free(glk), free(gp), free(gl), free(gsz), free(gw), free(gg);
}

/* RP_ELEM, RP_COPY and rp_workload_profile with a larger caller's struct. */
static void test_sized_helpers(void **state)
{
	struct rp_disk *v = disks_n(4, disk15k());
	struct rp_layout l = layout(RP_LEVEL_10, 4, 0.5), c;
	struct rp_workload w = profile(RP_PROFILE_FILESERVER, 4), *gw;
	struct rp_eval *ev;
	unsigned char *tail;
	size_t i;

	(void)state;
	/* the profile's sizes, read at their stride */
	assert_true(w.n_sizes >= 4);
	assert_int_equal(RP_ELEM(struct rp_size_share, w.sizes, 3)->bytes, 4096);
	assert_int_equal(RP_ELEM(struct rp_size_share, w.sizes, 3)->size,
			 sizeof(struct rp_size_share));
	/* a copy of the evaluated layout: this program's size, the fields */
	ev = eval_ok(v, 4, NULL, &l, &w);
	memset(&c, 0x5a, sizeof(c));
	RP_COPY(&c, rp_eval_layout(ev));
	assert_int_equal(c.size, sizeof(c));
	assert_int_equal(c.copies, 2);
	assert_int_equal(c.chunk_bytes, 512 * 1024);
	assert_ptr_equal(c.members, rp_eval_layout(ev)->members);
	rp_eval_free(ev);
	/* from a larger struct (a newer library's): what this header knows */
	gw = grown(&w, 1, sizeof(w));
	memset(&w, 0x5a, sizeof(w));
	RP_COPY(&w, gw);
	assert_int_equal(w.size, sizeof(w));
	assert_int_equal(w.queue_depth, 4);
	/* the profile into a newer program's struct: its fields set, the
	 * bytes the library does not know left as they were */
	memset(gw, 0, sizeof(w));
	gw->size = sizeof(w) + EXTRA;
	tail = (unsigned char *)gw + sizeof(w);
	memset(tail, 0xa5, EXTRA);
	assert_int_equal(rp_workload_profile(RP_PROFILE_DATABASE, 8, gw, NULL), 0);
	assert_int_equal(gw->size, sizeof(w) + EXTRA);
	assert_int_equal(gw->queue_depth, 8);
	assert_int_equal(gw->request_bytes, 8192);
	for (i = 0; i < EXTRA; i++)
		assert_int_equal(tail[i], 0xa5);
	free(gw);
	free(v);
}

/* ---- bad input ------------------------------------------------------------- */

static void expect_einval(const struct rp_disk *d, size_t n, const struct rp_path *p,
			  const struct rp_layout *l, const struct rp_workload *w)
{
	struct rp_error err = { 0 };
	struct rp_eval *ev = (struct rp_eval *)&err;
	int rc = rp_evaluate(d, n, p, l, w, &ev, &err);

	assert_true(rc < 0);
	assert_int_equal(err.code, rc);
	assert_true(strlen(err.msg) > 0);
	assert_null(ev);
}

static void test_bad_input(void **state)
{
	struct rp_disk v[4] = { disk15k(), disk15k(), disk15k(), disk15k() };
	struct rp_layout l = layout(RP_LEVEL_0, 2, 0.5);
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	struct rp_point bad_pts[2] = { PT(0.5, 100), PT(0.2, 90) };
	unsigned dup[2] = { 1, 1 };
	struct rp_layout x;
	struct rp_workload y;
	struct rp_disk d;
	struct rp_path p = { RP_SIZED(struct rp_path), .controller_mbps = NAN };
	struct rp_error err = { 0 };
	int lv;

	(void)state;
	/* NULL pointers */
	expect_einval(NULL, 4, NULL, &l, &w);
	expect_einval(v, 4, NULL, NULL, &w);
	expect_einval(v, 4, NULL, &l, NULL);
	assert_int_equal(rp_evaluate(v, 4, NULL, &l, &w, NULL, &err), -EINVAL);
	assert_int_equal(rp_evaluate(v, 4, NULL, &l, &w, NULL, NULL), -EINVAL);
	expect_einval(v, 0, NULL, &l, &w);
	/* stroke 0, > 1, NaN, negative */
	x = l, x.stroke = 0, expect_einval(v, 4, NULL, &x, &w);
	x = l, x.stroke = 1.0001, expect_einval(v, 4, NULL, &x, &w);
	x = l, x.stroke = NAN, expect_einval(v, 4, NULL, &x, &w);
	x = l, x.stroke = -0.5, expect_einval(v, 4, NULL, &x, &w);
	/* unknown level, level needing more disks */
	x = l, x.level = 7, expect_einval(v, 4, NULL, &x, &w);
	x = l, x.level = -1, expect_einval(v, 4, NULL, &x, &w);
	x = layout(RP_LEVEL_6, 3, 1), expect_einval(v, 4, NULL, &x, &w);
	x = layout(RP_LEVEL_5, 5, 1), expect_einval(v, 4, NULL, &x, &w);
	x = layout(RP_LEVEL_10, 3, 1), expect_einval(v, 4, NULL, &x, &w);
	x = layout(RP_LEVEL_0, 0, 1), expect_einval(v, 4, NULL, &x, &w);
	/* chunk, members */
	x = l, x.chunk_bytes = 1000, expect_einval(v, 4, NULL, &x, &w);
	x = l, x.members = dup, expect_einval(v, 4, NULL, &x, &w);
	dup[0] = 9;
	x = l, x.members = dup, expect_einval(v, 4, NULL, &x, &w);
	x = l, x.rebuild_mbps = -1, expect_einval(v, 4, NULL, &x, &w);
	/* disks: zero size, negative rpm, NaN seek, inner > outer, bad curves */
	d = v[0], d.capacity = 0, expect_einval(&d, 1, NULL, &x, &w);
	x = layout(RP_LEVEL_0, 1, 1);
	d = v[0], d.capacity = 0, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.rpm = -7200, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.rpm = 1e9, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.seek_avg_ms = NAN, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.seek_avg_ms = -3, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.seek_avg_ms = 0.1, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.seek_full_ms = 1, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.inner_mbps = 300, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.outer_mbps = INFINITY, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.n_zone_profile = 2, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.zone_profile = bad_pts, d.n_zone_profile = 2,
	expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.seek_curve = bad_pts, d.n_seek_curve = 2, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.shared_link = 1, expect_einval(&d, 1, NULL, &x, &w);
	d = v[0], d.mttf_hours = -1, expect_einval(&d, 1, NULL, &x, &w);
	/* workloads */
	y = w, y.request_bytes = 0, expect_einval(v, 4, NULL, &l, &y);
	y = w, y.queue_depth = 0, expect_einval(v, 4, NULL, &l, &y);
	y = w, y.read_share = NAN, expect_einval(v, 4, NULL, &l, &y);
	y = w, y.random_share = 1.5, expect_einval(v, 4, NULL, &l, &y);
	y = w, y.n_sizes = 3, expect_einval(v, 4, NULL, &l, &y);
	/* path */
	expect_einval(v, 4, &p, &l, &w);
	/* names and helpers */
	assert_int_equal(rp_level_parse(NULL, &lv, NULL), -EINVAL);
	assert_int_equal(rp_profile_parse("oltp", &lv, &err), -EINVAL);
	assert_int_equal(rp_workload_profile(99, 4, &y, NULL), -EINVAL);
	assert_int_equal(rp_workload_profile(RP_PROFILE_DATABASE, 0, &y, NULL), -EINVAL);
	assert_int_equal(rp_layout_survives(NULL, NULL, 0, NULL), -EINVAL);
	assert_int_equal(rp_layout_survives(&l, NULL, 1, NULL), -EINVAL);
	dup[0] = 7;
	assert_int_equal(rp_layout_survives(&l, dup, 1, NULL), -EINVAL);
	assert_null(rp_eval_figure(NULL, 0));
	assert_int_equal(rp_eval_warning_count(NULL), 0);
	rp_eval_free(NULL);
	rp_solution_free(NULL);
}

static void test_bad_solver_input(void **state)
{
	struct rp_disk v[2] = { disk15k(), disk15k() };
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	struct rp_goals g;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };

	(void)state;
	rp_goals_init(&g);
	assert_int_equal(rp_solve(NULL, 2, NULL, &w, &g, &sol, &err), -EINVAL);
	assert_int_equal(rp_solve(v, 2, NULL, NULL, &g, &sol, &err), -EINVAL);
	assert_int_equal(rp_solve(v, 2, NULL, &w, NULL, &sol, &err), -EINVAL);
	assert_int_equal(rp_solve(v, 2, NULL, &w, &g, NULL, &err), -EINVAL);
	g.min_capacity = NAN;
	assert_int_equal(rp_solve(v, 2, NULL, &w, &g, &sol, &err), -EINVAL);
	g.min_capacity = -1;
	assert_int_equal(rp_solve(v, 2, NULL, &w, &g, &sol, &err), -EINVAL);
	g.min_capacity = 0;
	g.level_mask = 1u << 20;
	assert_int_equal(rp_solve(v, 2, NULL, &w, &g, &sol, &err), -EINVAL);
	assert_true(strlen(err.msg) > 0);
	assert_null(sol);
}

/* ---- solver ------------------------------------------------------------------ */

static bool ranked_before(const struct rp_eval *a, const struct rp_eval *b)
{
	const struct rp_layout *la = rp_eval_layout(a), *lb = rp_eval_layout(b);
	double ra = rp_eval_value(a, RP_FIG_RISK), rb = rp_eval_value(b, RP_FIG_RISK);

	if (ra != rb)
		return ra < rb;
	if (la->n_disks != lb->n_disks)
		return la->n_disks < lb->n_disks;
	return rp_eval_value(a, RP_FIG_MIXED_IOPS) >= rp_eval_value(b, RP_FIG_MIXED_IOPS) * 0.999;
}

static void test_solver_meets_goals(void **state)
{
	struct rp_disk *v = disks_n(24, disk15k());
	struct rp_workload w;
	struct rp_goals g;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };
	size_t i, n;

	(void)state;
	w = profile(RP_PROFILE_DATABASE, 16);
	rp_goals_init(&g);
	g.min_capacity = 3e12;
	g.min_iops = 2000;
	g.max_access_ms = 6.0;
	g.min_failures = 1;
	g.max_disks = 16;
	assert_int_equal(rp_solve(v, 24, NULL, &w, &g, &sol, &err), 0);
	n = rp_solution_count(sol);
	print_message("solver: %s (%zu evaluated)\n", rp_solution_message(sol),
		      rp_solution_evaluated(sol));
	assert_true(n >= 1);
	assert_int_equal(rp_solution_unmet(sol), 0);
	for (i = 0; i < n; i++) {
		const struct rp_eval *ev = rp_solution_get(sol, i);
		const struct rp_layout *l = rp_eval_layout(ev);

		assert_true(rp_eval_value(ev, RP_FIG_USABLE_CAPACITY) >= 3e12 * (1 - 1e-9));
		assert_true(rp_eval_value(ev, RP_FIG_MIXED_IOPS) >= 2000 * (1 - 1e-9));
		assert_true(rp_eval_value(ev, RP_FIG_ACCESS_TIME) <= 6.0 * (1 + 1e-9));
		assert_true(rp_eval_value(ev, RP_FIG_FAILURES_TOLERATED) >= 1);
		assert_true(l->n_disks <= 16);
		assert_true(l->stroke > 0 && l->stroke <= 1);
		if (i)
			assert_true(ranked_before(rp_solution_get(sol, i - 1), ev));
	}
	assert_null(rp_solution_get(sol, n));
	rp_solution_free(sol);

	/* a fixed level */
	g.level_mask = RP_LEVEL_BIT(RP_LEVEL_10);
	assert_int_equal(rp_solve(v, 24, NULL, &w, &g, &sol, &err), 0);
	assert_true(rp_solution_count(sol) >= 1);
	for (i = 0; i < rp_solution_count(sol); i++)
		assert_int_equal(rp_eval_layout(rp_solution_get(sol, i))->level, RP_LEVEL_10);
	rp_solution_free(sol);

	/* 40 different disks (more models than the exact search takes): the
	 * search approximates, the returned layouts are evaluated exactly */
	for (i = 0; i < 24; i++)
		v[i].capacity = 1000000000000ull + i * 20000000000ull;
	{
		struct rp_disk *many = disks_n(40, disk15k());

		for (i = 0; i < 40; i++)
			many[i].capacity = 1000000000000ull + i * 20000000000ull;
		rp_goals_init(&g);
		g.min_capacity = 5e12;
		g.min_iops = 2500;
		g.min_failures = 2;
		assert_int_equal(rp_solve(many, 40, NULL, &w, &g, &sol, &err), 0);
		assert_true(rp_solution_count(sol) >= 1);
		for (i = 0; i < rp_solution_count(sol); i++) {
			const struct rp_eval *ev = rp_solution_get(sol, i);

			assert_true(rp_eval_value(ev, RP_FIG_USABLE_CAPACITY) >= 5e12 * (1 - 1e-9));
			assert_true(rp_eval_value(ev, RP_FIG_MIXED_IOPS) >= 2500 * (1 - 1e-9));
			assert_true(rp_eval_value(ev, RP_FIG_FAILURES_TOLERATED) >= 2);
		}
		rp_solution_free(sol);
		free(many);
	}

	/* no capacity goal: the deepest stroke meeting the speed goals */
	rp_goals_init(&g);
	g.max_access_ms = 5.0;
	g.max_disks = 4;
	assert_int_equal(rp_solve(v, 24, NULL, &w, &g, &sol, &err), 0);
	assert_true(rp_solution_count(sol) >= 1);
	for (i = 0; i < rp_solution_count(sol); i++)
		assert_true(rp_eval_value(rp_solution_get(sol, i), RP_FIG_ACCESS_TIME) <= 5.0);
	rp_solution_free(sol);
	free(v);
}

static void test_solver_impossible(void **state)
{
	struct rp_disk *v = disks_n(8, disk15k());
	struct rp_workload w;
	struct rp_goals g;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };

	(void)state;
	w = profile(RP_PROFILE_DATABASE, 16);
	rp_goals_init(&g);
	g.min_capacity = 20e12; /* 8 x 1 TB hold 8 TB */
	g.min_failures = 1;
	assert_int_equal(rp_solve(v, 8, NULL, &w, &g, &sol, &err), 0);
	assert_int_equal(rp_solution_count(sol), 0);
	assert_true(rp_solution_unmet(sol) & RP_GOAL_BIT(RP_GOAL_CAPACITY));
	assert_false(rp_solution_unmet(sol) & RP_GOAL_BIT(RP_GOAL_FAILURES));
	assert_non_null(strstr(rp_solution_message(sol), "capacity"));
	print_message("impossible: %s\n", rp_solution_message(sol));
	NEAR(rp_solution_best(sol, RP_GOAL_CAPACITY), 8e12, 1);
	assert_true(rp_solution_closest_count(sol) >= 1);
	assert_non_null(rp_solution_closest(sol, 0));
	assert_true(rp_solution_closest_gap(sol, 0, RP_GOAL_CAPACITY) > 0);
	assert_true(rp_solution_closest_distance(sol, 0) >=
		    rp_solution_closest_gap(sol, 0, RP_GOAL_CAPACITY));
	assert_true(isnan(rp_solution_closest_gap(sol, 0, rp_goal_count())));
	assert_true(isnan(rp_solution_closest_gap(sol, rp_solution_closest_count(sol), 0)));
	assert_true(isnan(rp_solution_closest_distance(sol, rp_solution_closest_count(sol))));
	assert_null(rp_solution_closest(sol, rp_solution_closest_count(sol)));
	rp_solution_free(sol);

	/* a level that needs more disks than allowed */
	rp_goals_init(&g);
	g.level_mask = RP_LEVEL_BIT(RP_LEVEL_60);
	g.max_disks = 5;
	assert_int_equal(rp_solve(v, 8, NULL, &w, &g, &sol, &err), 0);
	assert_int_equal(rp_solution_count(sol), 0);
	assert_true(rp_solution_unmet(sol) & RP_GOAL_BIT(RP_GOAL_LEVEL));
	rp_solution_free(sol);

	/* goals that hold alone but not together */
	rp_goals_init(&g);
	g.min_capacity = 7e12;
	g.min_failures = 2;
	assert_int_equal(rp_solve(v, 8, NULL, &w, &g, &sol, &err), 0);
	assert_int_equal(rp_solution_count(sol), 0);
	assert_int_equal(rp_solution_unmet(sol), 0);
	assert_true(rp_solution_closest_count(sol) >= 1);
	rp_solution_free(sol);
	free(v);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 1,000 disks: report the time (not asserted: sanitizers slow it down). */
static void test_solver_1000(void **state)
{
	struct rp_disk *v = disks_n(1000, disk15k());
	struct rp_workload w;
	struct rp_goals g;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };
	double t0, t1;
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		v[i].capacity = (i % 4 + 1) * 500000000000ull; /* 4 models */
	w = profile(RP_PROFILE_FILESERVER, 256);
	rp_goals_init(&g);
	g.min_capacity = 50e12;
	g.min_iops = 20000;
	g.min_failures = 2;
	t0 = now();
	assert_int_equal(rp_solve(v, 1000, NULL, &w, &g, &sol, &err), 0);
	t1 = now();
	print_message(
	    "solver, 1000 disks (4 sizes), fileserver QD256: %.3f s, %zu layouts evaluated, "
	    "%zu returned: %s\n",
	    t1 - t0, rp_solution_evaluated(sol), rp_solution_count(sol), rp_solution_message(sol));
	assert_true(rp_solution_count(sol) >= 1);
	rp_solution_free(sol);
	free(v);
}

/* ---- issue 16: queue depth, path, cache, degraded, risk, zones --------------- */

static double value_of(const struct rp_disk *v, size_t n, const struct rp_path *p,
		       struct rp_layout l, struct rp_workload w, int id)
{
	struct rp_eval *ev = eval_ok(v, n, p, &l, &w);
	double x = rp_eval_value(ev, id);

	rp_eval_free(ev);
	return x;
}

/* Beyond a disk's queue depth the figures stay flat; below it they grow. */
static void test_queue_depth(void **state)
{
	struct rp_disk d = disk15k();
	struct rp_layout l = layout(RP_LEVEL_0, 1, 1.0);
	double q16, q32, q64, q128;

	(void)state;
	d.queue_depth = 32;
	q16 = value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 16), RP_FIG_RAND_READ_QD);
	q32 = value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 32), RP_FIG_RAND_READ_QD);
	q64 = value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 64), RP_FIG_RAND_READ_QD);
	q128 = value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 128), RP_FIG_RAND_READ_QD);
	assert_true(q16 < q32);
	assert_true(q32 == q64 && q64 == q128);
	d.queue_depth = 64;
	assert_true(value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 64), RP_FIG_RAND_READ_QD) > q64);
	/* by class: 64 for 15k rpm (SAS), 32 for 7200 (SATA) */
	d.queue_depth = 0;
	assert_true(value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 64), RP_FIG_QUEUE_POSITION) ==
		    value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 128), RP_FIG_QUEUE_POSITION));
	d.rpm = 7200;
	d.queue_depth = 0;
	assert_true(value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 32), RP_FIG_RAND_READ_QD) ==
		    value_of(&d, 1, NULL, l, wl_simple(1, 1, 4096, 64), RP_FIG_RAND_READ_QD));
}

/* Read and write caps apart, a latency per member, a controller cache. */
static void test_path_terms(void **state)
{
	struct rp_disk *v = disks_n(8, disk15k());
	struct rp_layout l = layout(RP_LEVEL_0, 8, 1.0);
	struct rp_path p;
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	double a0, a1;

	(void)state;
	rp_path_init(&p);
	p.controller_mbps = 1200;
	p.controller_write_mbps = 300;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_READ_START), 1200, 1e-9);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 300, 1e-9);
	/* RAID 10 writes twice: the user sees half the write cap */
	l = layout(RP_LEVEL_10, 8, 1.0);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 150, 1e-9);
	/* latency: 0.1 + 0.05 x 8 members on every request's QD 1 time */
	l = layout(RP_LEVEL_0, 8, 1.0);
	rp_path_init(&p);
	a0 = value_of(v, 8, &p, l, w, RP_FIG_ACCESS_TIME);
	p.latency_ms = 0.1;
	p.latency_per_disk_ms = 0.05;
	a1 = value_of(v, 8, &p, l, w, RP_FIG_ACCESS_TIME);
	NEAR(a1 - a0, 0.5, 1e-9);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_PATH_LATENCY), 0.5, 1e-12);
	/* a write-back cache: writes at QD 1 take the cache's time, 64 KiB at
	 * 1000 MB/s = 0.065536 ms plus the latency; the burst figure is its rate */
	p.cache_mb = 1024;
	p.cache_mbps = 1000;
	w = wl_simple(0, 1, 65536, 1);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_ACCESS_TIME), 0.5 + 65536 / 1e6, 1e-9);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_WRITE_BURST), 1000, 1e-9);
	rp_path_init(&p);
	assert_false(value_of(v, 8, &p, l, w, RP_FIG_WRITE_BURST) > 0);
	free(v);
}

/* What does the RAID (issue 28.2, docs/planning-model.md 2.6): md and hba as
 * before; hw-raid's members stream at 0.94 of their rate, its write cap is
 * 0.75 of a read cap given alone, a parity write without a write-back cache
 * reads, modifies and writes each chunk; each figure can be given instead. */
static void test_controller(void **state)
{
	struct rp_disk *v = disks_n(8, disk15k());
	struct rp_layout l = layout(RP_LEVEL_0, 8, 1.0);
	struct rp_workload w = wl_simple(0, 0, 1 << 20, 4);
	struct rp_path p;
	struct rp_error err = { 0 };
	struct rp_eval *ev = NULL;
	double md_r, md_w, rmw, x;
	int k;

	(void)state;
	assert_string_equal(rp_controller_name(RP_CTRL_MD), "md");
	assert_string_equal(rp_controller_name(RP_CTRL_HW_RAID), "hw-raid");
	assert_null(rp_controller_name(3));
	assert_int_equal(rp_controller_parse("HW_RAID", &k, &err), 0);
	assert_int_equal(k, RP_CTRL_HW_RAID);
	assert_int_equal(rp_controller_parse("raid", &k, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "use md, hba or hw-raid"));
	rp_path_init(&p);
	md_r = value_of(v, 8, &p, l, w, RP_FIG_SEQ_READ_START);
	md_w = value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_CONTROLLER), RP_CTRL_MD, 0);
	p.controller = RP_CTRL_HBA;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_READ_START), md_r, 0);
	p.controller = RP_CTRL_HW_RAID;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_READ_START), 0.94 * md_r, 1e-9);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 0.94 * md_w, 1e-9);
	p.member_efficiency = 0.5; /* given: overrides */
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_READ_START), 0.5 * md_r, 1e-9);
	p.member_efficiency = 0;
	/* a read cap alone: the write cap is 0.75 of it; a write cap given wins */
	p.controller_mbps = 400;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 300, 1e-9);
	p.controller_write_mbps = 350;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 350, 1e-9);
	p.controller_write_mbps = 0;
	p.write_ratio = 0.5;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 200, 1e-9);
	rp_path_init(&p);
	/* RAID 5 of 8, 512 KiB chunks, no cache: each chunk read, modified and
	 * written a revolution later by 2 members, 4 chunks at once:
	 * x = 524288 / (0.94 x 200 x 1e3) ms, 4 x 524288 / (max(4, x) + x) / 1e3 */
	l = layout(RP_LEVEL_5, 8, 1.0);
	p.controller = RP_CTRL_HW_RAID;
	x = 524288 / (0.94 * 200 * 1e3);
	rmw = value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START);
	NEAR(rmw, 4 * 524288 / (fmax(4, x) + x) / 1e3, 1e-9);
	ev = eval_ok(v, 8, &p, &l, &w);
	NEAR(rp_eval_figure(ev, RP_FIG_CONTROLLER)->inputs[7].value, 0, 0); /* no full stripes */
	rp_eval_free(ev);
	/* with a write-back cache the controller writes full stripes: 7 streams */
	p.cache_mb = 512;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 7 * 0.94 * 200, 1e-9);
	p.cache_mb = 0;
	p.full_stripe = RP_STRIPE_FULL;
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 7 * 0.94 * 200, 1e-9);
	p.controller = RP_CTRL_MD;
	p.full_stripe = RP_STRIPE_RMW; /* asked for on md too */
	x = 524288 / (200 * 1e3);
	NEAR(value_of(v, 8, &p, l, w, RP_FIG_SEQ_WRITE_START), 4 * 524288 / (fmax(4, x) + x) / 1e3,
	     1e-9);
	/* bad input */
	rp_path_init(&p);
	p.controller = 5;
	l = layout(RP_LEVEL_0, 1, 1.0);
	assert_int_equal(rp_evaluate(v, 1, &p, &l, &w, &ev, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "controller 5"));
	rp_path_init(&p);
	p.member_efficiency = 1.5;
	assert_int_equal(rp_evaluate(v, 1, &p, &l, &w, &ev, &err), -EINVAL);
	rp_path_init(&p);
	p.full_stripe = 9;
	assert_int_equal(rp_evaluate(v, 1, &p, &l, &w, &ev, &err), -EINVAL);
	rp_path_init(&p);
	p.reserved = 1;
	assert_int_equal(rp_evaluate(v, 1, &p, &l, &w, &ev, &err), -EINVAL);
	free(v);
}

/* The stroke's gain (issue 28.1): the workload IOPS over the same layout's
 * at the full stroke, 1 at the full stroke, above 1 shorter. */
static void test_stroke_gain(void **state)
{
	struct rp_disk d = disk15k();
	struct rp_layout l = layout(RP_LEVEL_0, 1, 1.0);
	struct rp_workload w = profile(RP_PROFILE_DATABASE, 1);
	double full, g;

	(void)state;
	NEAR(value_of(&d, 1, NULL, l, w, RP_FIG_STROKE_GAIN), 1, 1e-12);
	full = value_of(&d, 1, NULL, l, w, RP_FIG_MIXED_IOPS);
	l.stroke = 0.1;
	g = value_of(&d, 1, NULL, l, w, RP_FIG_STROKE_GAIN);
	NEAR(g, value_of(&d, 1, NULL, l, w, RP_FIG_MIXED_IOPS) / full, 1e-12);
	assert_true(g > 1.5 && g < 2);
}

/* The disk's write cache: a cached write costs the longer of the command
 * and the destage of the nearest of cache/size extents. */
static void test_disk_write_cache(void **state)
{
	struct rp_disk d = disk15k();
	struct rp_layout l = layout(RP_LEVEL_0, 1, 1.0);
	struct rp_workload w = wl_simple(0, 1, 8192, 1);
	double a = 8.0 / 3 * 6.6 - 17 + 7.0 / 3 * 0.2, b = 17 - 5.0 / 3 * 6.6 - 10.0 / 3 * 0.2;
	double xfer = 8192.0 / 150e3, destage, off, on;

	(void)state;
	off = value_of(&d, 1, NULL, l, w, RP_FIG_RAND_WRITE_QD1);
	/* written through: the cached-write figure is 0 */
	assert_true(value_of(&d, 1, NULL, l, w, RP_FIG_CACHED_WRITE) == 0);
	d.write_cache = RP_WCACHE_ON;
	d.cache_mb = 16;
	d.link_mbps = 600;
	destage = 0.2 + 5.2 * rp_sptf_ratio(NULL, a, b, 4.0, 16e6 / 8192) + xfer;
	on = value_of(&d, 1, NULL, l, w, RP_FIG_RAND_WRITE_QD1);
	NEAR(on, 1000 / fmax(0.3 + 8192 / 600e3, destage), 1e-6);
	/* the figure --explain shows is that t_w */
	NEAR(value_of(&d, 1, NULL, l, w, RP_FIG_CACHED_WRITE), fmax(0.3 + 8192 / 600e3, destage),
	     1e-9);
	assert_true(on > 2 * off);
	/* reads are not cached */
	w = wl_simple(1, 1, 8192, 1);
	NEAR(value_of(&d, 1, NULL, l, w, RP_FIG_RAND_READ_QD1), 1000 / (5.7 + xfer), 1e-6);
}

/* Members lost: the group's per-disk load (docs/planning-model.md 2.5). */
static void test_degraded(void **state)
{
	struct rp_disk *v = disks_n(8, disk15k());
	struct rp_workload w = wl_simple(1, 1, 4096, 64);
	struct rp_layout l;
	struct rp_eval *ev;
	size_t i;

	(void)state;
	/* reads only at a deep queue: RAID 5 and RAID 10 halve, RAID 6 of 8
	 * with one lost (2g-3)/(g-1) = 13/7, with two lost 3 */
	l = layout(RP_LEVEL_5, 8, 1.0);
	ev = eval_ok(v, 8, NULL, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_DEGRADED_IOPS), rp_eval_value(ev, RP_FIG_MIXED_IOPS) / 2,
	     1e-6);
	assert_false(rp_eval_figure(ev, RP_FIG_DEGRADED2_IOPS)->valid);
	assert_true(rp_eval_value(ev, RP_FIG_REBUILD_IOPS) <
		    rp_eval_value(ev, RP_FIG_DEGRADED_IOPS));
	/* md's floor: 1000 KiB/s per device, a member of 1 TB in 976,562.5 s */
	NEAR(rp_eval_value(ev, RP_FIG_REBUILD_LOADED), 1e12 / 1024000.0 / 3600, 1e-6);
	rp_eval_free(ev);
	l = layout(RP_LEVEL_10, 8, 1.0);
	ev = eval_ok(v, 8, NULL, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_DEGRADED_IOPS), rp_eval_value(ev, RP_FIG_MIXED_IOPS) / 2,
	     1e-6);
	rp_eval_free(ev);
	l = layout(RP_LEVEL_6, 8, 1.0);
	ev = eval_ok(v, 8, NULL, &l, &w);
	NEAR(rp_eval_value(ev, RP_FIG_DEGRADED_IOPS), rp_eval_value(ev, RP_FIG_MIXED_IOPS) * 7 / 13,
	     1e-6);
	NEAR(rp_eval_value(ev, RP_FIG_DEGRADED2_IOPS), rp_eval_value(ev, RP_FIG_MIXED_IOPS) / 3,
	     1e-6);
	rp_eval_free(ev);
	/* RAID 0: nothing survives */
	l = layout(RP_LEVEL_0, 8, 1.0);
	ev = eval_ok(v, 8, NULL, &l, &w);
	assert_false(rp_eval_figure(ev, RP_FIG_DEGRADED_IOPS)->valid);
	assert_false(rp_eval_figure(ev, RP_FIG_REBUILD_IOPS)->valid);
	rp_eval_free(ev);
	/* writes: RAID 10 writes fewer copies, no worse; RAID 5 writes worse */
	w = wl_simple(0, 1, 4096, 64);
	for (i = 0; i < 2; i++) {
		l = layout(i ? RP_LEVEL_5 : RP_LEVEL_10, 8, 1.0);
		ev = eval_ok(v, 8, NULL, &l, &w);
		if (i)
			assert_true(rp_eval_value(ev, RP_FIG_DEGRADED_IOPS) <
				    rp_eval_value(ev, RP_FIG_MIXED_IOPS));
		else
			NEAR(rp_eval_value(ev, RP_FIG_DEGRADED_IOPS),
			     rp_eval_value(ev, RP_FIG_MIXED_IOPS), 1e-6);
		rp_eval_free(ev);
	}
	free(v);
}

/* Risk bands: parity width, URE with no redundancy left, MTTDL. */
static void test_risk_bands(void **state)
{
	static const struct {
		int level;
		unsigned n, groups;
		int band;
	} cases[] = {
		/* RAID 5: HPE's "more than 14 drives" is a medium risk (issue 28.2;
		 * it was medium over 7 and high over 14) */
		{ RP_LEVEL_5, 8, 0, 0 },  { RP_LEVEL_5, 14, 0, 0 },  { RP_LEVEL_5, 15, 0, 1 },
		{ RP_LEVEL_5, 29, 0, 1 }, { RP_LEVEL_50, 30, 2, 1 }, { RP_LEVEL_6, 20, 0, 0 },
		{ RP_LEVEL_6, 21, 0, 1 }, { RP_LEVEL_6, 29, 0, 2 },  { RP_LEVEL_10, 30, 0, 0 },
		{ RP_LEVEL_0, 17, 0, 2 },
	};
	struct rp_disk d = disk15k(), *v;
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	size_t i;

	(void)state;
	d.capacity = 100000000000ull; /* 100 GB: no URE, no MTTDL band for the redundant */
	d.ure_per_bit = 1e-16;
	v = disks_n(30, d);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rp_layout l = layout(cases[i].level, cases[i].n, 1.0);
		struct rp_eval *ev;

		l.groups = cases[i].groups;
		ev = eval_ok(v, 30, NULL, &l, &w);
		print_message("RAID %s of %u: risk %.0f\n", rp_level_name(cases[i].level),
			      cases[i].n, rp_eval_value(ev, RP_FIG_RISK));
		NEAR(rp_eval_value(ev, RP_FIG_RISK), cases[i].band, 0);
		if (cases[i].band && cases[i].level == RP_LEVEL_5)
			assert_true(rp_eval_has_warning(ev, RP_WARN_RAID5_WIDE));
		if (cases[i].band && cases[i].level == RP_LEVEL_6)
			assert_true(rp_eval_has_warning(ev, RP_WARN_RAID6_WIDE));
		if (cases[i].level == RP_LEVEL_0)
			assert_true(rp_eval_has_warning(ev, RP_WARN_MTTDL_LOW));
		rp_eval_free(ev);
	}
	free(v);
	/* 2 TB desktop disks in a RAID 5 of 5: 8 x 2e12 x 4 x 1e-14 = 0.64 bits'
	 * worth: 1 - e^-0.64 = 47 % URE with nothing left: high */
	d = disk15k();
	d.capacity = 2000000000000ull;
	v = disks_n(5, d);
	{
		struct rp_layout l = layout(RP_LEVEL_5, 5, 1.0);
		struct rp_eval *ev = eval_ok(v, 5, NULL, &l, &w);

		NEAR(rp_eval_value(ev, RP_FIG_RISK), 2, 0);
		assert_true(rp_eval_has_warning(ev, RP_WARN_URE_LIKELY));
		rp_eval_free(ev);
	}
	free(v);
}

/* The solver never ranks a riskier layout above a safer one, and says why
 * the first is first. */
static void test_solver_risk_first(void **state)
{
	struct rp_disk d = disk15k(), *v;
	struct rp_workload w = profile(RP_PROFILE_DATABASE, 16);
	struct rp_goals g;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };
	size_t i;

	(void)state;
	d.rpm = 10000;
	d.capacity = 2400000000000ull;
	d.ure_per_bit = 1e-15;
	v = disks_n(60, d);
	rp_goals_init(&g);
	g.min_capacity = 40e12;
	g.max_results = 20;
	assert_int_equal(rp_solve(v, 60, NULL, &w, &g, &sol, &err), 0);
	assert_true(rp_solution_count(sol) > 1);
	for (i = 1; i < rp_solution_count(sol); i++)
		assert_true(rp_eval_value(rp_solution_get(sol, i - 1), RP_FIG_RISK) <=
			    rp_eval_value(rp_solution_get(sol, i), RP_FIG_RISK));
	NEAR(rp_eval_value(rp_solution_get(sol, 0), RP_FIG_RISK), 0, 0);
	/* RAID 0 on 17 meets the capacity with fewer disks, in the high band */
	assert_non_null(strstr(rp_solution_reason(sol), "is first"));
	assert_non_null(strstr(rp_solution_reason(sol), "RAID 0 on 17 disks meets the goals with "
							"fewer disks but in the high risk band"));
	print_message("%s\n", rp_solution_reason(sol));
	rp_solution_free(sol);
	free(v);
}

/* Host-managed zoned disks are no md members; strokes on zoned ones are
 * whole zones. */
static void test_zoned(void **state)
{
	struct rp_disk *v = disks_n(4, disk15k());
	struct rp_layout l = layout(RP_LEVEL_10, 4, 0.1);
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	struct rp_goals g;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };
	struct rp_eval *ev = NULL;

	(void)state;
	/* zones of 256 MiB: a 10 % stroke of 1 TB is 100 GB, rounded up to 373 zones */
	for (size_t i = 0; i < 4; i++) {
		v[i].zoned = RP_ZONED_HOST_AWARE;
		v[i].zone_bytes = 256ull << 20;
	}
	ev = eval_ok(v, 4, NULL, &l, &w);
	NEAR(rp_eval_layout(ev)->stroke * 1e12, 373.0 * (256 << 20), 1e-3);
	assert_true(rp_eval_has_warning(ev, RP_WARN_ZONED));
	rp_eval_free(ev);
	v[2].zoned = RP_ZONED_HOST_MANAGED;
	assert_int_equal(rp_evaluate(v, 4, NULL, &l, &w, &ev, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "host-managed"));
	/* the solver leaves the host-managed disk out: RAID 10 needs 4 */
	rp_goals_init(&g);
	g.level_mask = RP_LEVEL_BIT(RP_LEVEL_10);
	assert_int_equal(rp_solve(v, 4, NULL, &w, &g, &sol, &err), 0);
	assert_int_equal(rp_solution_count(sol), 0);
	assert_non_null(strstr(rp_solution_message(sol), "host-managed"));
	rp_solution_free(sol);
	g.level_mask = RP_LEVEL_BIT(RP_LEVEL_1);
	assert_int_equal(rp_solve(v, 4, NULL, &w, &g, &sol, &err), 0);
	assert_true(rp_solution_count(sol) > 0);
	for (size_t i = 0; i < rp_solution_count(sol); i++) {
		const struct rp_layout *sl = rp_eval_layout(rp_solution_get(sol, i));

		for (unsigned k = 0; k < sl->n_disks; k++)
			assert_int_not_equal(sl->members[k], 2);
	}
	rp_solution_free(sol);
	free(v);
}

/* The new fields' bad values name the field. */
static void test_bad_new_input(void **state)
{
	struct rp_disk d = disk15k(), x;
	struct rp_layout l = layout(RP_LEVEL_0, 1, 1.0);
	struct rp_workload w = wl_simple(1, 1, 4096, 1);
	struct rp_path p;
	struct rp_error err = { 0 };
	struct rp_eval *ev = NULL;

	(void)state;
	x = d, x.queue_depth = 2000;
	assert_int_equal(rp_evaluate(&x, 1, NULL, &l, &w, &ev, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "queue depth 2000"));
	x = d, x.write_cache = 3;
	assert_int_equal(rp_evaluate(&x, 1, NULL, &l, &w, &ev, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "write cache 3"));
	x = d, x.zoned = 7;
	assert_int_equal(rp_evaluate(&x, 1, NULL, &l, &w, &ev, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "zone model 7"));
	x = d, x.zone_bytes = 100;
	assert_int_equal(rp_evaluate(&x, 1, NULL, &l, &w, &ev, &err), -EINVAL);
	x = d, x.reserved = 1;
	assert_int_equal(rp_evaluate(&x, 1, NULL, &l, &w, &ev, &err), -EINVAL);
	rp_path_init(&p);
	p.latency_ms = -1;
	assert_int_equal(rp_evaluate(&d, 1, &p, &l, &w, &ev, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "controller latency"));
	rp_path_init(&p);
	p.controller_write_mbps = NAN;
	assert_int_equal(rp_evaluate(&d, 1, &p, &l, &w, &ev, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "controller write bandwidth"));
	rp_path_init(&p);
	p.cache_mb = -5;
	assert_int_equal(rp_evaluate(&d, 1, &p, &l, &w, &ev, &err), -EINVAL);
	assert_null(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_seek_fit),
		cmocka_unit_test(test_zbr),
		cmocka_unit_test(test_rot_ncq),
		cmocka_unit_test(test_sptf),
		cmocka_unit_test(test_access_formula),
		cmocka_unit_test(test_mixed_formula),
		cmocka_unit_test(test_reliability),
		cmocka_unit_test(test_capacity_table),
		cmocka_unit_test(test_calibration_15k450),
		cmocka_unit_test(test_prop_stroke_monotone),
		cmocka_unit_test(test_prop_raid0_cap),
		cmocka_unit_test(test_prop_shared_link),
		cmocka_unit_test(test_prop_tolerance),
		cmocka_unit_test(test_prop_capacity_bound),
		cmocka_unit_test(test_prop_mixed_between),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_sizes_refused),
		cmocka_unit_test(test_sizes_newer_program),
		cmocka_unit_test(test_sized_helpers),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bad_solver_input),
		cmocka_unit_test(test_solver_meets_goals),
		cmocka_unit_test(test_solver_impossible),
		cmocka_unit_test(test_solver_1000),
		cmocka_unit_test(test_queue_depth),
		cmocka_unit_test(test_path_terms),
		cmocka_unit_test(test_disk_write_cache),
		cmocka_unit_test(test_degraded),
		cmocka_unit_test(test_risk_bands),
		cmocka_unit_test(test_controller),
		cmocka_unit_test(test_stroke_gain),
		cmocka_unit_test(test_solver_risk_first),
		cmocka_unit_test(test_zoned),
		cmocka_unit_test(test_bad_new_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
