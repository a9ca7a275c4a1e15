/* fuzz_raidplan.c - libFuzzer target: arbitrary (absurd, NaN, inf) inputs to
 * rp_evaluate, rp_solve and rp_layout_survives must give an error code or
 * finite figures, never a crash or undefined behaviour. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "raidplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct src {
	const uint8_t *p;
	size_t n;
};

static uint8_t byte(struct src *s)
{
	uint8_t b;

	if (!s->n)
		return 0;
	b = *s->p++;
	s->n--;
	return b;
}

static uint64_t u64(struct src *s)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | byte(s);
	return v;
}

/* Mostly plausible numbers, sometimes raw bit patterns (NaN, inf, denormals). */
static double num(struct src *s)
{
	static const double special[] = {0,   -1,	1,	   0.5,	 1e-300, 1e300,
					 NAN, INFINITY, -INFINITY, -0.0, 7200,	 15000,
					 3.3, 157,	1e12,	   4096};
	uint8_t sel = byte(s);
	uint64_t bits;
	double d;

	if (sel < 64)
		return special[sel % 16];
	if (sel < 128) {
		bits = u64(s);
		memcpy(&d, &bits, sizeof(d));
		return d;
	}
	return (double)(sel - 128) * (1.0 + byte(s)) / 16.0;
}

static uint64_t size_val(struct src *s)
{
	uint8_t sel = byte(s);

	if (sel < 32)
		return u64(s);
	return (uint64_t)(sel + 1) << (byte(s) % 48);
}

static void points(struct src *s, struct rp_point *pt, size_t *n)
{
	size_t i;

	*n = byte(s) % 8;
	for (i = 0; i < *n; i++) {
		pt[i].x = num(s);
		pt[i].y = num(s);
	}
}

#define MAXD 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct src s = {data, size};
	struct rp_disk disks[MAXD];
	struct rp_point seek[MAXD][8], zone[MAXD][8];
	struct rp_link links[3];
	struct rp_path path;
	struct rp_layout l;
	struct rp_workload w;
	struct rp_size_share sizes[6];
	struct rp_goals g;
	struct rp_error err;
	struct rp_eval *ev = NULL;
	struct rp_solution *sol = NULL;
	unsigned members[MAXD], failed[MAXD];
	size_t nd, i, nf;
	int rc, j;

	nd = byte(&s) % MAXD + 1;
	for (i = 0; i < nd; i++) {
		struct rp_disk *d = &disks[i];

		rp_disk_init(d);
		d->capacity = size_val(&s);
		if (byte(&s) & 1) {
			d->rpm = num(&s);
			d->seek_t2t_ms = num(&s);
			d->seek_avg_ms = num(&s);
			d->seek_full_ms = num(&s);
			d->outer_mbps = num(&s);
			d->inner_mbps = num(&s);
			d->link_mbps = num(&s);
			d->overhead_ms = num(&s);
			d->mttf_hours = num(&s);
			d->ure_per_bit = num(&s);
		}
		if (byte(&s) & 1) {
			points(&s, seek[i], &d->n_seek_curve);
			d->seek_curve = seek[i];
		}
		if (byte(&s) & 1) {
			points(&s, zone[i], &d->n_zone_profile);
			d->zone_profile = zone[i];
		}
		d->shared_link = byte(&s) % 5;
	}
	memset(&path, 0, sizeof(path));
	path.controller_mbps = num(&s);
	path.bus_mbps = num(&s);
	path.n_links = byte(&s) % 4;
	for (i = 0; i < path.n_links; i++)
		links[i].mbps = num(&s);
	path.links = links;

	memset(&l, 0, sizeof(l));
	l.level = (int)(byte(&s) % 10) - 1;
	l.n_disks = byte(&s) % (MAXD + 2);
	l.groups = byte(&s) % 5;
	l.copies = byte(&s) % 5;
	l.chunk_bytes = size_val(&s);
	l.stroke = num(&s);
	l.rebuild_mbps = num(&s);
	l.replace_hours = num(&s);
	if (byte(&s) & 1) {
		for (i = 0; i < MAXD; i++)
			members[i] = byte(&s) % (MAXD + 1);
		l.members = members;
	}

	memset(&w, 0, sizeof(w));
	if (byte(&s) & 1) {
		rp_workload_profile(byte(&s) % (RP_PROFILE_COUNT + 1), byte(&s), &w, NULL);
	} else {
		w.read_share = num(&s);
		w.random_share = num(&s);
		w.request_bytes = size_val(&s);
		w.queue_depth = (unsigned)size_val(&s);
		w.n_sizes = byte(&s) % 7;
		for (i = 0; i < w.n_sizes; i++) {
			sizes[i].bytes = size_val(&s);
			sizes[i].share = num(&s);
		}
		w.sizes = sizes;
	}

	memset(&err, 0, sizeof(err));
	rc = rp_evaluate(disks, nd, byte(&s) & 1 ? &path : NULL, &l, &w, &ev, &err);
	if (rc == 0) {
		for (j = 0; j < RP_FIG_COUNT; j++)
			if (!isfinite(rp_eval_value(ev, j)))
				abort();
		for (i = 0; i < rp_eval_warning_count(ev); i++)
			if (!rp_eval_warning(ev, i))
				abort();
		rp_eval_free(ev);
	} else if (ev || !err.msg[0]) {
		abort();
	}

	nf = byte(&s) % (MAXD + 1);
	for (i = 0; i < nf; i++)
		failed[i] = byte(&s) % (MAXD + 1);
	rp_layout_survives(&l, failed, nf, &err);

	memset(&g, 0, sizeof(g));
	g.min_capacity = num(&s);
	g.min_iops = num(&s);
	g.max_access_ms = num(&s);
	g.min_failures = byte(&s) % 4;
	g.max_disks = byte(&s) % (MAXD + 1);
	g.level_mask = byte(&s) & 1 ? (unsigned)u64(&s) : 0;
	g.chunk_bytes = byte(&s) & 1 ? size_val(&s) : 0;
	g.max_results = byte(&s) % 20;
	rc = rp_solve(disks, nd, &path, &w, &g, &sol, &err);
	if (rc == 0) {
		for (i = 0; i < rp_solution_count(sol); i++)
			if (!isfinite(rp_eval_value(rp_solution_get(sol, i), RP_FIG_MIXED_IOPS)))
				abort();
		for (i = 0; i < rp_solution_closest_count(sol); i++)
			if (!rp_solution_closest(sol, i, NULL))
				abort();
		(void)rp_solution_message(sol);
		rp_solution_free(sol);
	} else if (sol) {
		abort();
	}
	return 0;
}
