/* fuzz_raidplan.c - libFuzzer target: arbitrary (absurd, NaN, inf) inputs to
 * rp_evaluate, rp_solve and rp_layout_survives must give an error code or
 * finite figures, never a crash or undefined behaviour. The structs are
 * sized (docs/planning-model.md, "The library's ABI"): the input's last
 * byte lays them out as a program built against another header would, with
 * a larger size and stride (the tail zero or not), a short size or none. */
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
	static const double special[] = { 0,   -1,	 1,	    0.5,  1e-300, 1e300,
					  NAN, INFINITY, -INFINITY, -0.0, 7200,	  15000,
					  3.3, 157,	 1e12,	    4096 };
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
		rp_point_init(&pt[i]);
		pt[i].x = num(s);
		pt[i].y = num(s);
	}
}

#define MAXD 8
#define EXTRA 16 /* bytes a newer program's structs have */

/* Which struct the sizes are played with, and how (the input's last byte). */
enum { K_DISK, K_POINT, K_LINK, K_PATH, K_LAYOUT, K_WORKLOAD, K_SHARE, K_GOALS, K_N };
enum { M_NONE, M_LARGER, M_TAIL, M_SHORT, M_ZERO, M_N };

struct abi_mode {
	int kind, mode;
};

/*
 * n structs of elem bytes at v laid out for the library: as they are, or
 * (for the kind played with) at the stride elem + EXTRA with a zero tail,
 * a nonzero byte in the last element's tail, a short size or size 0 in
 * the last element. buf holds n * (elem + EXTRA) bytes, aligned.
 */
static const void *lay(const void *v, size_t n, size_t elem, int kind, const struct abi_mode *m,
		       void *buf)
{
	size_t stride = elem + EXTRA, i;
	unsigned char *b = buf;
	uint32_t size;

	if (m->kind != kind || m->mode == M_NONE || !n)
		return v;
	if (m->mode == M_SHORT || m->mode == M_ZERO) {
		memcpy(b, v, n * elem);
		/* short: the size field alone, below every 2.0 size (half a
		 * 2.1 struct may be a whole 2.0 one, which is accepted) */
		size = m->mode == M_SHORT ? (uint32_t)sizeof(uint32_t) : 0;
		memcpy(b + (n - 1) * elem, &size, sizeof(size));
		return b;
	}
	memset(b, 0, n * stride);
	size = (uint32_t)stride;
	for (i = 0; i < n; i++) {
		memcpy(b + i * stride, (const char *)v + i * elem, elem);
		memcpy(b + i * stride, &size, sizeof(size));
	}
	if (m->mode == M_TAIL)
		b[(n - 1) * stride + elem + (n % EXTRA)] = 0x80;
	return b;
}

/* A refused size is an error with a message, never a result. */
static int bad_size(const struct abi_mode *m)
{
	return m->mode == M_TAIL || m->mode == M_SHORT || m->mode == M_ZERO;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct src s = { data, size };
	struct abi_mode am = { size ? data[size - 1] % K_N : 0,
			       size ? data[size - 1] / K_N % M_N : 0 };
	struct rp_disk disks[MAXD], dx[MAXD];
	struct rp_point seek[MAXD][8], zone[MAXD][8];
	struct rp_link links[3];
	/* the structs as the library is given them (lay()) */
	_Alignas(16) unsigned char b_disks[MAXD * (sizeof(struct rp_disk) + EXTRA)];
	_Alignas(16) unsigned char b_pts[2 * MAXD][8 * (sizeof(struct rp_point) + EXTRA)];
	_Alignas(16) unsigned char b_links[3 * (sizeof(struct rp_link) + EXTRA)];
	_Alignas(16) unsigned char b_path[sizeof(struct rp_path) + EXTRA];
	_Alignas(16) unsigned char b_layout[sizeof(struct rp_layout) + EXTRA];
	_Alignas(16) unsigned char b_wl[sizeof(struct rp_workload) + EXTRA];
	_Alignas(16) unsigned char b_sizes[6 * (sizeof(struct rp_size_share) + EXTRA)];
	_Alignas(16) unsigned char b_goals[sizeof(struct rp_goals) + EXTRA];
	const struct rp_disk *xd;
	const struct rp_path *xp;
	const struct rp_layout *xl;
	const struct rp_workload *xw;
	const struct rp_goals *xg;
	int bad_in, use_path;
	struct rp_path path, px;
	unsigned flags;
	struct rp_layout l;
	struct rp_workload w, wx;
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
		if (byte(&s) & 1) { /* libraidplan 2.1's fields */
			d->queue_depth = (unsigned)(size_val(&s) % 2048);
			d->write_cache = byte(&s) % 4;
			d->cache_mb = num(&s);
			d->zoned = byte(&s) % 4;
			d->zone_bytes = size_val(&s);
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
		dx[i] = *d;
		if (d->seek_curve)
			dx[i].seek_curve = lay(seek[i], d->n_seek_curve, sizeof(seek[i][0]),
					       K_POINT, &am, b_pts[2 * i]);
		if (d->zone_profile)
			dx[i].zone_profile = lay(zone[i], d->n_zone_profile, sizeof(zone[i][0]),
						 K_POINT, &am, b_pts[2 * i + 1]);
	}
	xd = lay(dx, nd, sizeof(dx[0]), K_DISK, &am, b_disks);
	rp_path_init(&path);
	path.controller_mbps = num(&s);
	path.bus_mbps = num(&s);
	flags = byte(&s);
	if (flags & 1) { /* 2.1: write caps, latency, controller cache */
		path.controller_write_mbps = num(&s);
		path.bus_write_mbps = num(&s);
		path.latency_ms = num(&s);
		path.latency_per_disk_ms = num(&s);
		path.cache_mb = num(&s);
		path.cache_mbps = num(&s);
	}
	if (flags & 2) { /* 2.2: what does the RAID (out of range too) */
		path.controller = (int)(byte(&s) % 5) - 1;
		path.member_efficiency = num(&s);
		path.write_ratio = num(&s);
		path.full_stripe = (int)(byte(&s) % 5) - 1;
	}
	path.n_links = byte(&s) % 4;
	for (i = 0; i < path.n_links; i++) {
		rp_link_init(&links[i]);
		links[i].mbps = num(&s);
	}
	path.links = links;
	px = path;
	px.links = lay(links, path.n_links, sizeof(links[0]), K_LINK, &am, b_links);
	xp = lay(&px, 1, sizeof(px), K_PATH, &am, b_path);

	rp_layout_init(&l);
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

	xl = lay(&l, 1, sizeof(l), K_LAYOUT, &am, b_layout);

	rp_workload_init(&w);
	if (byte(&s) & 1) {
		rp_workload_profile(byte(&s) % (rp_profile_count() + 1), byte(&s), &w, NULL);
	} else {
		w.read_share = num(&s);
		w.random_share = num(&s);
		w.request_bytes = size_val(&s);
		w.queue_depth = (unsigned)size_val(&s);
		w.n_sizes = byte(&s) % 7;
		for (i = 0; i < w.n_sizes; i++) {
			rp_size_share_init(&sizes[i]);
			sizes[i].bytes = size_val(&s);
			sizes[i].share = num(&s);
		}
		w.sizes = sizes;
	}
	wx = w;
	if (w.sizes == sizes)
		wx.sizes = lay(sizes, w.n_sizes, sizeof(sizes[0]), K_SHARE, &am, b_sizes);
	xw = lay(&wx, 1, sizeof(wx), K_WORKLOAD, &am, b_wl);

	/* a refused size is an error whatever the rest (the kinds whose
	 * struct every call reads) */
	bad_in = bad_size(&am) && (am.kind == K_DISK || am.kind == K_LAYOUT ||
				   am.kind == K_WORKLOAD || am.kind == K_PATH);
	memset(&err, 0, sizeof(err));
	use_path = am.kind == K_PATH || (byte(&s) & 1);
	rc = rp_evaluate(xd, nd, use_path ? xp : NULL, xl, xw, &ev, &err);
	if (rc == 0 && bad_in)
		abort();
	if (am.mode == M_LARGER) {
		/* a newer program's layout, its fields unset: the same to the bit */
		struct rp_eval *e2 = NULL;

		if (rp_evaluate(disks, nd, use_path ? &path : NULL, &l, &w, &e2, NULL) != rc)
			abort();
		for (j = 0; rc == 0 && j < rp_figure_count(); j++) {
			double a = rp_eval_value(ev, j), b = rp_eval_value(e2, j);

			if (memcmp(&a, &b, sizeof(a)))
				abort();
		}
		if (rc == 0 && rp_eval_warning_count(ev) != rp_eval_warning_count(e2))
			abort();
		rp_eval_free(e2);
	}
	if (rc == 0) {
		for (j = 0; j < rp_figure_count(); j++)
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
	rc = rp_layout_survives(xl, failed, nf, &err);
	if (rc >= 0 && am.kind == K_LAYOUT && bad_size(&am))
		abort();

	rp_goals_init(&g);
	g.min_capacity = num(&s);
	g.min_iops = num(&s);
	g.max_access_ms = num(&s);
	g.min_failures = byte(&s) % 4;
	g.max_disks = byte(&s) % (MAXD + 1);
	g.level_mask = byte(&s) & 1 ? (unsigned)u64(&s) : 0;
	g.chunk_bytes = byte(&s) & 1 ? size_val(&s) : 0;
	g.max_results = byte(&s) % 20;
	xg = lay(&g, 1, sizeof(g), K_GOALS, &am, b_goals);
	rc = rp_solve(xd, nd, xp, xw, xg, &sol, &err);
	if (rc == 0 && bad_size(&am) && am.kind != K_LAYOUT && (bad_in || am.kind == K_GOALS))
		abort();
	if (rc == 0) {
		for (i = 0; i < rp_solution_count(sol); i++)
			if (!isfinite(rp_eval_value(rp_solution_get(sol, i), RP_FIG_MIXED_IOPS)))
				abort();
		for (i = 0; i < rp_solution_closest_count(sol); i++)
			if (!rp_solution_closest(sol, i) ||
			    !(rp_solution_closest_distance(sol, i) >= 0))
				abort();
		(void)rp_solution_message(sol);
		rp_solution_free(sol);
	} else if (sol) {
		abort();
	}
	return 0;
}
