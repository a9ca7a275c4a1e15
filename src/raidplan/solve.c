/* solve.c - rp_solve: search layouts for goals, rank the Pareto-best.
 *
 * Search space: every level of the mask; every disk count n up to the
 * limit, taking the n "best" disks (largest first, then the fastest);
 * for RAID 10 / 0+1 2 or 3 copies, for RAID 50 / 60 every group count that
 * divides n; every chunk 4 KiB .. 1 MiB; one stroke per combination:
 *   - with a capacity goal, the exact smallest stroke that reaches it
 *     (shorter is always faster, so it is the best stroke);
 *   - without one, the deepest stroke of the 1 % grid that still meets
 *     the speed goals (full stroke when there are none).
 * Ranking (docs/planning-model.md): fewest disks, then most workload
 * IOPS, shortest access time, most failures tolerated, longest MTTDL,
 * most capacity. A layout is kept when no layout ranked before it is at
 * least as good in all six; the first max_results kept are returned.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raidplan/raidplan_priv.h"

#define GRID 100 /* stroke grid: 1 % steps */
#define TOL 1e-9 /* relative tolerance of goal checks */

struct cand {
	int level;
	unsigned n, copies, groups;
	double chunk, stroke;
	int risk; /* 0 low, 1 medium, 2 high: the first ranking key */
	double iops, access, tol, mttdl, cap;
	double dist; /* sum of shortfalls */
	bool ok;
	/* its speed not computed (try_layout): LAZY_SPEED, an upper bound
	 * showed it cannot meet the speed goals (needed only if no layout meets
	 * them); LAZY_RISK, it is in a riskier band than low and a riskier
	 * layout with fewer disks met the goals (needed only if the low-risk
	 * layouts do not settle the answer); LAZY_DIST, there are no speed
	 * goals and its capacity or tolerance miss theirs: its distance is
	 * known, its speed only breaks ties among the closest */
	int lazy;
};

enum { LAZY_NONE, LAZY_SPEED, LAZY_RISK, LAZY_DIST, LAZY_KINDS };

/* How far a layout is from each goal. */
struct shortfall {
	double gap[RP_GOAL_COUNT];
	double total; /* sum of the gaps: the "distance" used to rank */
};

struct rp_solution {
	struct rp_eval **best;
	size_t n_best;
	struct rp_eval **close;
	struct shortfall *sf;
	size_t n_close;
	unsigned unmet;
	double bestv[RP_GOAL_COUNT];
	size_t evaluated;
	int truncated;
	char msg[512];
	char why[512]; /* why layout 0 is first */
};

/* Above this many distinct disk models the search aggregates from prefix
 * tables on the stroke grid (see approx_agg) instead of class by class. */
#define MAX_EXACT_CLASSES 32

/* Prefix sums / minima over the sorted disks at one grid stroke. */
struct pre {
	double seek, alpha, beta, inv_rate, sigma, k;
	double re_min, rh_min, rh_media_min;
};

/* Prefix values that do not depend on the stroke. */
struct pre_fixed {
	double t2t, ovh, trev, inv_mttf, csum, ure, rs_min, qlim, wcache_mb, link_min;
	unsigned defaults;
	bool seek_fallback, iface_bound;
};

/* A class of identical disks (link aside) inside the sorted order. */
struct dclass {
	const struct rp_dmodel *m;
	unsigned count; /* members of the current prefix */
};

struct search {
	const struct rp_path *path; /* NULL or &path_in */
	const struct rp_goals *goals;
	const struct rp_workload *wlp;
	/* the caller's structs as the library's (abi.c) */
	struct rp_path path_in;
	struct rp_link *links_in;
	struct rp_goals goals_in;
	struct rp_workload wl_in;
	struct rp_size_share sizes_in[RP_MAX_SIZES];
	struct rp_wl wl;
	struct rp_wl wl_bound; /* wl, its IOPS figures upper bounds (pruning) */
	struct rp_dmodel *dm;
	unsigned *order;  /* disk indices, best first */
	unsigned *cls_of; /* class of order[i] */
	struct dclass *cls;
	unsigned n_cls, n_max;
	unsigned n_usable; /* disks that can be md members (not host-managed) */
	unsigned n_all;
	double chunks[16];
	unsigned n_chunks;
	unsigned chunk_i; /* the chunk try_layout has, an index of chunks[] */
	/* the current prefix */
	unsigned n;
	double cmin;
	double zone; /* the largest zone of the prefix's members; 0: none */
	struct rp_caps caps;
	struct rp_agg grid[GRID + 1];
	bool grid_ok[GRID + 1];
	/* many distinct disks: prefix tables over the stroke grid */
	bool approx;
	struct pre *pre;      /* [(GRID + 1) * n_max], by grid index then position */
	struct pre_fixed *pf; /* [n_max] */
	/* results */
	struct cand *c;
	size_t n_c, cap_c;
	size_t evaluated;
	bool any_geom;
	bool any_ok;		   /* a layout met the goals: the closest are not needed */
	size_t n_lazy[LAZY_KINDS]; /* candidates left lazy, by LAZY_* */
	unsigned risky_ok_n;	   /* the fewest disks of a riskier layout meeting the goals */
	double best_cap, best_tol, best_iops, best_access;
	struct cand best_cap_c;
	bool best_pass;
	/* the ranked answer as far as the prefixes searched settle it */
	struct cand *kept;
	unsigned n_kept, k;
	size_t prefix_start; /* first candidate of the current prefix */
	bool settled;	     /* no larger prefix can change the answer */
	/* the k smallest distances of the candidates so far (unordered) */
	double *near;
	unsigned n_near;
	double near_max; /* the largest of them once there are k */
	/* the current prefix: the aggregate at the last capacity stroke, and
	 * the safety figures of the last geometry (chunks do not change them) */
	struct rp_agg agg_c;
	double agg_c_stroke;
	bool agg_c_ok;
	struct rp_geom safe_g;
	const struct rp_agg *safe_a;
	double safe_tol, safe_mttdl;
	int safe_risk;
	bool safe_ok;
	/* the best pass: a RAID 50 / 60 chunk (by level, chunk index) whose
	 * figures are every such group count's was seen at this prefix */
	bool same_groups_seen[2][16];
	/* the speed goals' stroke rounded to whole zones */
	struct rp_agg agg_z;
	/* for the reason layout 0 is first: the feasible layout with the
	 * fewest disks in a riskier band */
	struct cand riskier;
	bool have_riskier;
};

static int check_goals(const struct rp_goals *g, struct rp_error *err)
{
	if (!rp_in(g->min_capacity, 0, 1e30))
		return rp_err(err, -EINVAL, "capacity goal %g bytes is outside 0 .. 1e30",
			      g->min_capacity);
	if (!rp_in(g->min_iops, 0, 1e15))
		return rp_err(err, -EINVAL, "IOPS goal %g is outside 0 .. 1e15", g->min_iops);
	if (!rp_in(g->max_access_ms, 0, 1e9))
		return rp_err(err, -EINVAL, "access time goal %g ms is outside 0 .. 1e9",
			      g->max_access_ms);
	if (g->level_mask >= (1u << RP_LEVEL_COUNT))
		return rp_err(err, -EINVAL, "level mask 0x%x names unknown levels", g->level_mask);
	if (g->max_results > 1000)
		return rp_err(err, -EINVAL, "%u results asked: at most 1000", g->max_results);
	if (g->chunk_bytes && (g->chunk_bytes < RP_MIN_CHUNK || g->chunk_bytes > RP_MAX_CHUNK ||
			       g->chunk_bytes % 512))
		return rp_err(
		    err, -EINVAL,
		    "chunk size %llu bytes: use a multiple of 512 between 512 B and 1 GiB",
		    (unsigned long long)g->chunk_bytes);
	if (g->rebuild_mbps != 0 && (!rp_in(g->rebuild_mbps, 0, 1e6) || g->rebuild_mbps < 0))
		return rp_err(err, -EINVAL, "rebuild rate %g MB/s is outside (0, 1e6]",
			      g->rebuild_mbps);
	if (g->replace_hours != 0 && (!rp_in(g->replace_hours, 0, 1e6) || g->replace_hours < 0))
		return rp_err(err, -EINVAL, "replacement time %g h is outside (0, 1e6]",
			      g->replace_hours);
	return 0;
}

/* Random 4 KiB access time of a disk over its full stroke: the sort key. */
static double disk_speed_key(const struct rp_dmodel *m)
{
	struct rp_band b;

	rp_dmodel_band(m, 1.0, &b);
	return m->ovh + b.seek + m->trev / 2 + 4096.0 / (b.rate_h * 1e3);
}

struct order_ctx {
	const struct rp_dmodel *dm;
	const double *key;
};

static int order_cmp(const void *pa, const void *pb, void *arg)
{
	const struct order_ctx *x = arg;
	const struct rp_dmodel *sort_dm = x->dm;
	const double *sort_key = x->key;
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
	bool hma = sort_dm[a].zoned == RP_ZONED_HOST_MANAGED;
	bool hmb = sort_dm[b].zoned == RP_ZONED_HOST_MANAGED;

	/* md cannot use host-managed zoned disks: last, never taken */
	if (hma != hmb)
		return hma ? 1 : -1;
	if (sort_dm[a].cap != sort_dm[b].cap)
		return sort_dm[a].cap > sort_dm[b].cap ? -1 : 1;
	if (sort_key[a] != sort_key[b])
		return sort_key[a] < sort_key[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Same model apart from the shared link. The models were zeroed before
 * they were filled (padding included) and never copied by assignment. */
static bool same_class(const struct rp_dmodel *a, const struct rp_dmodel *b)
{
	size_t l0 = offsetof(struct rp_dmodel, link), l1 = offsetof(struct rp_dmodel, defaults);
	size_t end = offsetof(struct rp_dmodel, seek);

	if (a->cap != b->cap) /* the usual difference, without a call */
		return false;
	return memcmp(a, b, l0) == 0 &&
	       memcmp((const char *)a + l1, (const char *)b + l1, end - l1) == 0 &&
	       memcmp(a->seek, b->seek, sizeof(a->seek[0]) * a->n_seek) == 0 &&
	       memcmp(a->zone, b->zone, sizeof(a->zone[0]) * a->n_zone) == 0;
}

static int prepare(struct search *s, const struct rp_disk *disks, size_t n_disks,
		   struct rp_error *err)
{
	double *key;
	unsigned i, j;
	int rc;

	s->n_all = (unsigned)n_disks;
	s->dm = calloc(n_disks, sizeof(*s->dm));
	s->order = calloc(n_disks, sizeof(*s->order));
	s->cls_of = calloc(n_disks, sizeof(*s->cls_of));
	s->cls = calloc(n_disks, sizeof(*s->cls));
	key = calloc(n_disks, sizeof(*key));
	if (!s->dm || !s->order || !s->cls_of || !s->cls || !key) {
		free(key);
		return rp_err(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n_disks; i++) {
		struct rp_disk d;

		if ((rc = rp_in_disk(disks, i, &d, err)) ||
		    (rc = rp_dmodel_build(&d, i, s->path, &s->dm[i], err))) {
			free(key);
			return rc;
		}
		key[i] = disk_speed_key(&s->dm[i]);
		s->order[i] = i;
		if (s->dm[i].zoned != RP_ZONED_HOST_MANAGED)
			s->n_usable++;
		if (i && s->dm[i].flash != s->dm[0].flash) {
			free(key);
			return rp_err(err, -EINVAL,
				      "disk %u is %s and disk 0 %s: flash drives and disks are "
				      "not planned together (plan them apart)",
				      i, s->dm[i].flash ? "a flash drive" : "a disk",
				      s->dm[0].flash ? "a flash drive" : "a disk");
		}
	}
	qsort_r(s->order, n_disks, sizeof(*s->order), order_cmp,
		&(struct order_ctx){ .dm = s->dm, .key = key });
	free(key);
	for (i = 0; i < n_disks; i++) {
		const struct rp_dmodel *m = &s->dm[s->order[i]];

		for (j = 0; j < s->n_cls; j++)
			if (same_class(s->cls[j].m, m))
				break;
		if (j == s->n_cls)
			s->cls[s->n_cls++].m = m;
		s->cls_of[i] = j;
	}
	return 0;
}

/*
 * Prefix tables for the approximate mode: each member i is evaluated at
 * capacity fraction c = grid stroke, not stroke * cmin / C_i <= stroke.
 * A deeper band is never faster, so the approximation is pessimistic for
 * the larger members; the layouts returned are re-evaluated exactly.
 */
static int build_prefix(struct search *s)
{
	unsigned i, j, n = s->n_max;

	s->pre = calloc((size_t)(GRID + 1) * n, sizeof(*s->pre));
	s->pf = calloc(n, sizeof(*s->pf));
	if (!s->pre || !s->pf)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct rp_dmodel *m = &s->dm[s->order[i]];
		struct pre_fixed *f = &s->pf[i];
		double rs = m->iface > 0 ? fmin(m->ro, m->iface) : m->ro;

		if (i)
			*f = s->pf[i - 1];
		else
			f->rs_min = f->qlim = f->wcache_mb = f->link_min = DBL_MAX;
		f->t2t += m->t2t;
		f->ovh += m->ovh;
		f->trev += m->trev;
		f->inv_mttf += 1 / m->mttf;
		f->csum += m->cap;
		f->ure = fmax(f->ure, m->ure);
		f->rs_min = fmin(f->rs_min, rs);
		f->qlim = fmin(f->qlim, m->qdepth);
		f->wcache_mb = fmin(f->wcache_mb, m->wcache ? m->cache_mb : 0);
		f->link_min = fmin(f->link_min, m->iface > 0 ? m->iface : RP_DEF_DISK_LINK_MBPS);
		f->defaults |= m->defaults;
		f->seek_fallback |= m->seek_fallback;
		f->iface_bound |= m->iface > 0 && m->iface < m->ro;
		for (j = 1; j <= GRID; j++) {
			struct pre *p = &s->pre[(size_t)j * n + i];
			struct rp_band b;
			double re, rh;

			rp_dmodel_band(m, j / (double)GRID, &b);
			re = m->iface > 0 ? fmin(b.rate_end, m->iface) : b.rate_end;
			rh = m->iface > 0 ? fmin(b.rate_h, m->iface) : b.rate_h;
			if (i) {
				*p = s->pre[(size_t)j * n + i - 1];
			} else {
				memset(p, 0, sizeof(*p));
				p->re_min = p->rh_min = p->rh_media_min = DBL_MAX;
			}
			p->seek += b.seek;
			p->alpha += b.alpha;
			p->beta += b.beta;
			p->inv_rate += 1 / b.rate_h;
			p->sigma += b.sigma;
			p->k += m->k;
			p->re_min = fmin(p->re_min, re);
			p->rh_min = fmin(p->rh_min, rh);
			p->rh_media_min = fmin(p->rh_media_min, b.rate_h);
		}
	}
	return 0;
}

static void approx_agg(struct search *s, double stroke, struct rp_agg *a)
{
	unsigned i = s->n - 1, j = (unsigned)ceil(stroke * GRID - 1e-9);
	const struct pre *p;
	const struct pre_fixed *f = &s->pf[i];
	double n = s->n;

	if (j < 1)
		j = 1;
	if (j > GRID)
		j = GRID;
	p = &s->pre[(size_t)j * s->n_max + i];
	memset(a, 0, sizeof(*a));
	a->n = s->n;
	a->cmin = s->cmin;
	a->cmax = s->dm[s->order[0]].cap;
	a->csum = f->csum;
	a->used = stroke * s->cmin;
	a->sigma = p->sigma / n;
	a->seek = p->seek / n;
	a->alpha = p->alpha / n;
	a->beta = p->beta / n;
	a->t2t = f->t2t / n;
	a->ovh = f->ovh / n;
	a->trev = f->trev / n;
	a->inv_rate = p->inv_rate / n;
	a->k = p->k / n;
	a->rs_min = f->rs_min;
	a->re_min = p->re_min;
	a->rh_min = p->rh_min;
	a->rh_media_min = p->rh_media_min;
	a->inv_mttf = f->inv_mttf / n;
	a->ure = f->ure;
	a->qlim = f->qlim;
	a->wcache_mb = f->wcache_mb;
	a->link_min = f->link_min;
	a->defaults = f->defaults;
	a->seek_fallback = f->seek_fallback;
	a->iface_bound = f->iface_bound;
}

static void agg_at(struct search *s, double stroke, struct rp_agg *a)
{
	unsigned j;

	if (s->approx) {
		approx_agg(s, stroke, a);
		return;
	}
	rp_agg_reset(a);
	for (j = 0; j < s->n_cls; j++)
		if (s->cls[j].count)
			rp_agg_add(a, s->cls[j].m, s->cls[j].count, s->cmin, stroke);
	rp_agg_finish(a, stroke);
}

static const struct rp_agg *grid_agg(struct search *s, unsigned i)
{
	if (!s->grid_ok[i]) {
		agg_at(s, i / (double)GRID, &s->grid[i]);
		s->grid_ok[i] = true;
	}
	return &s->grid[i];
}

static double shortfalls(const struct rp_goals *g, const struct cand *c, double *gap)
{
	double sum = 0;
	int i;

	for (i = 0; i < RP_GOAL_COUNT; i++)
		gap[i] = 0;
	if (g->min_capacity > 0 && c->cap < g->min_capacity * (1 - TOL))
		gap[RP_GOAL_CAPACITY] = (g->min_capacity - c->cap) / g->min_capacity;
	if (g->min_iops > 0 && c->iops < g->min_iops * (1 - TOL))
		gap[RP_GOAL_IOPS] = (g->min_iops - c->iops) / g->min_iops;
	if (g->max_access_ms > 0 && c->access > g->max_access_ms * (1 + TOL))
		gap[RP_GOAL_ACCESS] = (c->access - g->max_access_ms) / g->max_access_ms;
	if (c->tol < g->min_failures)
		gap[RP_GOAL_FAILURES] = g->min_failures - c->tol;
	for (i = 0; i < RP_GOAL_COUNT; i++)
		sum += gap[i];
	return sum;
}

static bool speed_ok(const struct rp_goals *g, const struct rp_numbers *o)
{
	if (g->min_iops > 0 && o->mixed < g->min_iops * (1 - TOL))
		return false;
	if (g->max_access_ms > 0 && o->access > g->max_access_ms * (1 + TOL))
		return false;
	return true;
}

static int push(struct search *s, const struct cand *c)
{
	if (s->n_c == s->cap_c) {
		size_t nc = s->cap_c ? 2 * s->cap_c : 1024;
		struct cand *p = realloc(s->c, nc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->c = p;
		s->cap_c = nc;
	}
	s->c[s->n_c++] = *c;
	return 0;
}

/* What the search ranks by (the workload's IOPS and access time; the
 * other figures of rp_numbers_speed are not needed until a layout is
 * returned, rp_eval_models). */
static void numbers_at(struct search *s, const struct rp_geom *g, const struct rp_agg *a,
		       struct rp_numbers *o)
{
	rp_numbers_mixed(g, a, &s->caps, &s->wl, o);
	s->evaluated++;
}

/* The same with the closed loop's throughput replaced by an upper bound
 * (model.c, fork_join_bound): o->mixed is at least the layout's IOPS, the
 * access time is exact. A few table look-ups, no loop. */
static void bound_at(struct search *s, const struct rp_geom *g, const struct rp_agg *a,
		     struct rp_numbers *o)
{
	rp_numbers_mixed(g, a, &s->caps, &s->wl_bound, o);
}

/* Keep the k smallest distances seen (k = the closest layouts returned). */
static void note_dist(struct search *s, double d)
{
	unsigned i, worst = 0;

	if (s->n_near < s->k) {
		s->near[s->n_near++] = d;
		if (s->n_near < s->k)
			return;
	} else if (d < s->near_max) {
		for (i = 1; i < s->k; i++)
			if (s->near[i] > s->near[worst])
				worst = i;
		s->near[worst] = d;
	} else {
		return;
	}
	s->near_max = s->near[0];
	for (i = 1; i < s->k; i++)
		if (s->near[i] > s->near_max)
			s->near_max = s->near[i];
}

/*
 * A layout whose usable capacity (and tolerance) are known before its
 * numbers are computed can be left out when they alone put it further from
 * the goals than k layouts already found: it then meets no goal set (so it
 * is not among the best), and with a larger distance it ranks after those k
 * among the closest. The shortfall sum over non-negative gaps only grows
 * with the gaps left out here (rounding is monotone), so this distance is
 * a lower bound of the layout's own.
 */
static bool cannot_place(struct search *s, const struct rp_geom *g, double cap)
{
	struct cand c;
	double gap[RP_GOAL_COUNT];

	if (s->best_pass || s->n_near < s->k)
		return false;
	memset(&c, 0, sizeof(c));
	c.cap = cap;
	c.tol = rp_level_tolerated(g);
	c.iops = DBL_MAX;
	return shortfalls(s->goals, &c, gap) > s->near_max;
}

/* rp_numbers_safety does not depend on the chunk: once per geometry. */
static void safety_at(struct search *s, const struct rp_geom *g, const struct rp_agg *ap,
		      struct rp_numbers *o)
{
	if (!s->safe_ok || s->safe_a != ap || s->safe_g.level != g->level || s->safe_g.n != g->n ||
	    s->safe_g.copies != g->copies || s->safe_g.groups != g->groups ||
	    s->safe_g.stroke != g->stroke || s->safe_g.rebuild_mbps != g->rebuild_mbps ||
	    s->safe_g.replace_h != g->replace_h) {
		rp_numbers_safety(g, ap, &s->caps, o);
		s->safe_g = *g;
		s->safe_a = ap;
		s->safe_tol = o->tolerated;
		s->safe_mttdl = o->mttdl_h;
		s->safe_risk = o->risk;
		s->safe_ok = true;
	}
	o->tolerated = s->safe_tol;
	o->mttdl_h = s->safe_mttdl;
	o->risk = s->safe_risk;
}

/* With a capacity goal: the exact smallest stroke that reaches it. */
static double cap_stroke(const struct search *s, const struct rp_geom *g)
{
	double st = s->goals->min_capacity / (g->ndata * s->cmin) * (1 + 1e-12);

	return st > 1 ? 1 : rp_zone_stroke(st, s->cmin, s->zone, true);
}

/* One level/variant/chunk at the current prefix. */
static int try_layout(struct search *s, struct rp_geom *g)
{
	const struct rp_goals *goals = s->goals;
	struct rp_numbers o;
	const struct rp_agg *ap;
	struct cand c;
	double gap[RP_GOAL_COUNT];

	memset(&c, 0, sizeof(c));
	if (s->best_pass) {
		/* the fastest this layout gets: the shallowest grid stroke; its
		 * access time is exact in the bound, and its IOPS need the loop
		 * only when their bound could beat the best so far */
		ap = grid_agg(s, 1);
		g->stroke = 1.0 / GRID;
		/* RAID 0+1's IOPS and access time are RAID 10's of the same copies
		 * (the same operations: they differ in what survives a failure) */
		if (g->level == RP_LEVEL_01 &&
		    (!goals->level_mask || (goals->level_mask & RP_LEVEL_BIT(RP_LEVEL_10))))
			return 0;
		if ((g->level == RP_LEVEL_50 || g->level == RP_LEVEL_60) &&
		    rp_speed_same_groups(g, &s->wl)) {
			bool *seen = &s->same_groups_seen[g->level == RP_LEVEL_60][s->chunk_i];

			if (*seen)
				return 0; /* the same IOPS and access time as one seen */
			*seen = true;
		}
		bound_at(s, g, ap, &o);
		if (s->best_access == 0 || o.access < s->best_access)
			s->best_access = o.access;
		if (o.mixed > s->best_iops) {
			numbers_at(s, g, ap, &o);
			if (o.mixed > s->best_iops)
				s->best_iops = o.mixed;
		}
		return 0;
	}
	if (goals->min_capacity > 0) {
		g->stroke = cap_stroke(s, g);
		if (cannot_place(s, g, g->ndata * (g->stroke * s->cmin)))
			return 0;
		if (!s->agg_c_ok || s->agg_c_stroke != g->stroke) {
			agg_at(s, g->stroke, &s->agg_c);
			s->agg_c_stroke = g->stroke;
			s->agg_c_ok = true;
		}
		ap = &s->agg_c;
	} else if (goals->min_iops > 0 || goals->max_access_ms > 0) {
		unsigned lo = 1, hi = GRID, mid;

		/* deepest grid stroke meeting the speed goals (monotone) */
		numbers_at(s, g, grid_agg(s, lo), &o);
		if (speed_ok(goals, &o)) {
			while (lo < hi) {
				mid = (lo + hi + 1) / 2;
				numbers_at(s, g, grid_agg(s, mid), &o);
				if (speed_ok(goals, &o))
					lo = mid;
				else
					hi = mid - 1;
			}
		}
		g->stroke = lo / (double)GRID;
		ap = grid_agg(s, lo);
	} else {
		g->stroke = 1;
		if (cannot_place(s, g, g->ndata * (g->stroke * s->cmin)))
			return 0;
		ap = grid_agg(s, GRID);
	}
	if (s->zone > 0 && goals->min_capacity <= 0) {
		/* zoned members: whole zones, the shallower (never slower) side */
		g->stroke = rp_zone_stroke(g->stroke, s->cmin, s->zone, false);
		agg_at(s, g->stroke, &s->agg_z);
		ap = &s->agg_z;
	}
	c.level = g->level;
	c.n = g->n;
	c.copies = g->copies;
	c.groups = g->groups;
	c.chunk = g->chunk;
	c.stroke = g->stroke;
	safety_at(s, g, ap, &o);
	c.tol = o.tolerated;
	c.mttdl = o.mttdl_h;
	c.risk = o.risk;
	c.cap = g->ndata * ap->used; /* o.usable, before the speed is computed */
	if (goals->min_iops > 0) {
		/* an upper bound of its IOPS below the goal: it meets no goal
		 * set, and once a layout has, it is not needed at all; before,
		 * it is kept lazy, for the closest should none meet them */
		bound_at(s, g, ap, &o);
		if (!speed_ok(goals, &o)) {
			if (s->any_ok)
				return 0;
			c.lazy = LAZY_SPEED;
		}
	}
	/* a riskier layout than low ranks after every low-risk one, and the
	 * riskier layout the reason names is the one with the fewest disks:
	 * past its prefix, only needed if the low-risk ones leave room */
	if (!c.lazy && c.risk > 0 && s->risky_ok_n && g->n > s->risky_ok_n)
		c.lazy = LAZY_RISK;
	if (c.lazy) {
		s->n_lazy[c.lazy]++;
		return push(s, &c);
	}
	/* no speed goal: the distance is the capacity's and tolerance's, known
	 * now; one that misses them needs its speed only among the closest */
	if (!(goals->min_iops > 0) && !(goals->max_access_ms > 0)) {
		c.dist = shortfalls(goals, &c, gap);
		if (c.dist > 0) {
			c.lazy = LAZY_DIST;
			s->n_lazy[c.lazy]++;
			note_dist(s, c.dist);
			return push(s, &c);
		}
	}
	numbers_at(s, g, ap, &o);
	c.iops = o.mixed;
	c.access = o.access;
	c.dist = shortfalls(goals, &c, gap);
	c.ok = c.dist == 0;
	s->any_ok |= c.ok;
	if (c.ok && c.risk > 0 && !s->risky_ok_n)
		s->risky_ok_n = g->n;
	note_dist(s, c.dist);
	return push(s, &c);
}

static int try_geom(struct search *s, const struct rp_layout *l)
{
	struct rp_geom g;
	unsigned i;
	double full;
	int rc;

	if (rp_geom_build(l, s->n, &g, NULL))
		return 0;
	s->any_geom = true;
	full = g.ndata * s->cmin;
	if (full > s->best_cap) {
		s->best_cap = full;
		memset(&s->best_cap_c, 0, sizeof(s->best_cap_c));
		s->best_cap_c.level = g.level;
		s->best_cap_c.n = g.n;
	}
	if (rp_level_tolerated(&g) > s->best_tol)
		s->best_tol = rp_level_tolerated(&g);
	if (s->settled)
		return 0;
	/* the capacity is that of every chunk (the full stroke bounds it when
	 * a speed goal sets the stroke) */
	if (cannot_place(
		s, &g, g.ndata * ((s->goals->min_capacity > 0 ? cap_stroke(s, &g) : 1) * s->cmin)))
		return 0;
	for (i = 0; i < s->n_chunks; i++) {
		g.chunk = s->chunks[i];
		s->chunk_i = i;
		if ((rc = try_layout(s, &g)))
			return rc;
	}
	return 0;
}

static int try_prefix(struct search *s)
{
	struct rp_layout l;
	unsigned mask = s->goals->level_mask ? s->goals->level_mask : (1u << RP_LEVEL_COUNT) - 1;
	int level, rc;
	unsigned v;

	memset(&l, 0, sizeof(l));
	l.n_disks = s->n;
	l.stroke = 1;
	l.rebuild_mbps = s->goals->rebuild_mbps;
	l.replace_hours = s->goals->replace_hours;
	for (level = 0; level < RP_LEVEL_COUNT; level++) {
		if (!(mask & RP_LEVEL_BIT(level)))
			continue;
		l.level = level;
		l.copies = l.groups = 0;
		switch (level) {
		case RP_LEVEL_10:
		case RP_LEVEL_01:
			for (v = 2; v <= 3; v++) {
				l.copies = v;
				if ((rc = try_geom(s, &l)))
					return rc;
			}
			break;
		case RP_LEVEL_50:
		case RP_LEVEL_60:
			for (v = 2; v <= s->n / 3; v++) {
				if (s->n % v)
					continue;
				l.groups = v;
				if ((rc = try_geom(s, &l)))
					return rc;
			}
			break;
		default:
			if ((rc = try_geom(s, &l)))
				return rc;
		}
	}
	return 0;
}

static int rank_cmp(const void *pa, const void *pb);
static bool dominates(const struct cand *a, const struct cand *b);

/*
 * After a prefix: rank its feasible low-risk layouts and keep those that no
 * layout kept before dominates, as collect_best will. The risk band is the
 * first ranking key and none is below low; then disks, and every layout of
 * a prefix has its n disks. So once k low-risk layouts are kept and one
 * more is not dominated, the answer (k layouts, "more exist") is what the
 * whole search would give: larger prefixes only add layouts ranked after
 * these. The search then goes on only for what the summary reports (the
 * most capacity and tolerance any geometry gives).
 */
static int settle_prefix(struct search *s)
{
	size_t i, j, n_ok = 0;
	struct cand *ok;

	if (s->best_pass || s->settled)
		return 0;
	for (i = s->prefix_start; i < s->n_c; i++)
		n_ok += s->c[i].ok && !s->c[i].risk;
	if (!n_ok)
		return 0;
	ok = malloc(n_ok * sizeof(*ok));
	if (!ok)
		return -ENOMEM;
	for (i = s->prefix_start, j = 0; i < s->n_c; i++)
		if (s->c[i].ok && !s->c[i].risk)
			ok[j++] = s->c[i];
	qsort(ok, n_ok, sizeof(*ok), rank_cmp);
	for (i = 0; i < n_ok && !s->settled; i++) {
		bool dom = false;

		for (j = 0; j < s->n_kept && !dom; j++)
			dom = dominates(&s->kept[j], &ok[i]);
		if (dom)
			continue;
		if (s->n_kept == s->k)
			s->settled = true;
		else
			s->kept[s->n_kept++] = ok[i];
	}
	free(ok);
	return 0;
}

static int run(struct search *s)
{
	unsigned i, *lcount = NULL, link_id = 0;
	double ratio = 0, iface = 0;
	size_t nl = s->path ? s->path->n_links : 0;
	int rc = 0;

	for (i = 0; i < s->n_cls; i++)
		s->cls[i].count = 0;
	s->zone = 0;
	if (nl && !(lcount = calloc(nl + 1, sizeof(*lcount))))
		return -ENOMEM;
	for (s->n = 1; s->n <= s->n_max; s->n++) {
		const struct rp_dmodel *m = &s->dm[s->order[s->n - 1]];

		s->cls[s->cls_of[s->n - 1]].count++;
		s->cmin = m->cap; /* sorted by capacity, largest first */
		s->zone = fmax(s->zone, m->zone_b);
		if (m->link) {
			double r = s->path->links[m->link - 1].mbps / ++lcount[m->link];

			/* a link's share only shrinks as members join it */
			if (ratio == 0 || r < ratio) {
				ratio = r;
				link_id = m->link;
			}
		}
		if (m->iface > 0 && (iface == 0 || m->iface < iface))
			iface = m->iface;
		rp_caps_build(s->path, iface * s->n, ratio, link_id, s->n, &s->caps);
		memset(s->grid_ok, 0, sizeof(s->grid_ok));
		memset(s->same_groups_seen, 0, sizeof(s->same_groups_seen));
		s->agg_c_ok = s->safe_ok = false;
		s->prefix_start = s->n_c;
		if ((rc = try_prefix(s)) || (rc = settle_prefix(s)))
			break;
	}
	free(lcount);
	return rc;
}

/* The prefix of the first n disks as run() leaves it when it reaches n
 * (classes counted, smallest capacity, largest zone, the path's caps),
 * computed afresh. */
static void set_prefix(struct search *s, unsigned n, unsigned *lcount)
{
	size_t nl = s->path ? s->path->n_links : 0;
	double ratio = 0, iface = 0;
	unsigned i, link_id = 0;

	for (i = 0; i < s->n_cls; i++)
		s->cls[i].count = 0;
	for (i = 0; i <= nl; i++)
		lcount[i] = 0;
	s->zone = 0;
	for (i = 0; i < n; i++) {
		const struct rp_dmodel *m = &s->dm[s->order[i]];

		s->cls[s->cls_of[i]].count++;
		s->zone = fmax(s->zone, m->zone_b);
		if (m->link)
			lcount[m->link]++;
		if (m->iface > 0 && (iface == 0 || m->iface < iface))
			iface = m->iface;
	}
	for (i = 1; i <= nl; i++)
		if (lcount[i] && (ratio == 0 || s->path->links[i - 1].mbps / lcount[i] < ratio)) {
			ratio = s->path->links[i - 1].mbps / lcount[i];
			link_id = i;
		}
	s->n = n;
	s->cmin = s->dm[s->order[n - 1]].cap;
	rp_caps_build(s->path, iface * n, ratio, link_id, n, &s->caps);
	memset(s->grid_ok, 0, sizeof(s->grid_ok));
	s->agg_c_ok = s->safe_ok = false;
}

/*
 * No layout met the goals: the closest are ranked by distance, so the
 * candidates left lazy (try_layout) get their figures now, computed as the
 * search would have (the same prefix, aggregate and caps).
 */
static int resolve_lazy(struct search *s, int which, double max_dist)
{
	size_t nl = s->path ? s->path->n_links : 0, i;
	unsigned *lcount = calloc(nl + 1, sizeof(*lcount)), n = 0;
	double gap[RP_GOAL_COUNT];

	if (!lcount)
		return -ENOMEM;
	for (i = 0; i < s->n_c; i++) {
		struct cand *c = &s->c[i];
		struct rp_layout l;
		struct rp_geom g;
		struct rp_numbers o;
		struct rp_agg a;

		if (c->lazy != which || c->dist > max_dist)
			continue;
		if (c->n != n)
			set_prefix(s, n = c->n, lcount);
		memset(&l, 0, sizeof(l));
		l.level = c->level;
		l.n_disks = c->n;
		l.copies = c->level == RP_LEVEL_10 || c->level == RP_LEVEL_01 ? c->copies : 0;
		l.groups = c->level == RP_LEVEL_50 || c->level == RP_LEVEL_60 ? c->groups : 0;
		l.chunk_bytes = (uint64_t)c->chunk;
		l.stroke = c->stroke;
		l.rebuild_mbps = s->goals->rebuild_mbps;
		l.replace_hours = s->goals->replace_hours;
		if (rp_geom_build(&l, c->n, &g, NULL))
			continue; /* it was built once: cannot fail */
		agg_at(s, c->stroke, &a);
		numbers_at(s, &g, &a, &o);
		c->iops = o.mixed;
		c->access = o.access;
		c->dist = shortfalls(s->goals, c, gap);
		c->ok = c->dist == 0;
		s->any_ok |= c->ok;
		c->lazy = LAZY_NONE;
	}
	s->n_lazy[which] = 0;
	free(lcount);
	return 0;
}

/* The lazy candidates the answer needs: the riskier ones unless the
 * low-risk ones settled it, then, if none meets the goals, those an upper
 * bound left out (the closest are ranked by distance). */
static int resolve_needed(struct search *s)
{
	int rc = 0;

	if (!s->settled && s->n_lazy[LAZY_RISK])
		rc = resolve_lazy(s, LAZY_RISK, INFINITY);
	if (!rc && !s->any_ok && s->n_lazy[LAZY_SPEED])
		rc = resolve_lazy(s, LAZY_SPEED, INFINITY);
	/* the closest are the k smallest distances, ties ranked by speed: the
	 * lazy ones no further than the k-th (s->near holds the k smallest) */
	if (!rc && !s->any_ok && s->n_lazy[LAZY_DIST])
		rc = resolve_lazy(s, LAZY_DIST, s->n_near < s->k ? INFINITY : s->near_max);
	return rc;
}

/* Rank: lowest risk band, fewest disks, most IOPS, least access time, most
 * tolerance, longest MTTDL, most capacity; then a fixed order for ties. */
static int rank_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

#define BY(x, better)                                                                              \
	if (a->x != b->x)                                                                          \
		return (a->x better b->x) ? -1 : 1;
	BY(risk, <)
	BY(n, <)
	BY(iops, >)
	BY(access, <)
	BY(tol, >)
	BY(mttdl, >)
	BY(cap, >)
	BY(level, <)
	BY(chunk, >)
	BY(stroke, <)
	BY(copies, <)
	BY(groups, <)
#undef BY
	return 0;
}

static int close_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->dist != b->dist)
		return a->dist < b->dist ? -1 : 1;
	return rank_cmp(pa, pb);
}

/* a is at least as good as b in every ranked objective */
static bool dominates(const struct cand *a, const struct cand *b)
{
	return a->risk <= b->risk && a->n <= b->n && a->iops >= b->iops && a->access <= b->access &&
	       a->tol >= b->tol && a->mttdl >= b->mttdl && a->cap >= b->cap;
}

static int make_eval(const struct rp_disk *disks, size_t n_disks, struct search *s,
		     const struct cand *c, struct rp_eval **ev, struct rp_error *err)
{
	struct rp_layout l;

	memset(&l, 0, sizeof(l));
	l.level = c->level;
	l.n_disks = c->n;
	l.members = s->order;
	l.copies = c->level == RP_LEVEL_10 || c->level == RP_LEVEL_01 ? c->copies : 0;
	l.groups = c->level == RP_LEVEL_50 || c->level == RP_LEVEL_60 ? c->groups : 0;
	l.chunk_bytes = (uint64_t)c->chunk;
	l.stroke = c->stroke;
	l.rebuild_mbps = s->goals->rebuild_mbps;
	l.replace_hours = s->goals->replace_hours;
	(void)disks; /* their models were built once, by prepare() */
	return rp_eval_models(s->dm, n_disks, s->path, &l, s->wlp, ev, err);
}

static void free_search(struct search *s)
{
	free(s->pre);
	free(s->pf);
	free(s->dm);
	free(s->order);
	free(s->cls_of);
	free(s->cls);
	free(s->c);
	free(s->kept);
	free(s->near);
	free(s->wl.memo);
	free(s->links_in);
}

void rp_solution_free(struct rp_solution *sol)
{
	size_t i;

	if (!sol)
		return;
	for (i = 0; i < sol->n_best; i++)
		rp_eval_free(sol->best[i]);
	for (i = 0; i < sol->n_close; i++)
		rp_eval_free(sol->close[i]);
	free(sol->best);
	free(sol->close);
	free(sol->sf);
	free(sol);
}

static void size_text(char *buf, size_t len, double bytes)
{
	static const char *const u[] = { "B", "KB", "MB", "GB", "TB", "PB", "EB" };
	int i = 0;

	while (bytes >= 1000 && i < 6) {
		bytes /= 1000;
		i++;
	}
	snprintf(buf, len, "%.4g %s", bytes, u[i]);
}

static void append(char *msg, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *msg, size_t len, const char *fmt, ...)
{
	size_t used = strlen(msg);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(msg + used, len - used, fmt, ap);
	va_end(ap);
}

/* Which goals no layout meets on its own, and the sentence saying so. */
static void explain_unmet(struct search *s, struct rp_solution *sol)
{
	const struct rp_goals *g = s->goals;
	char b1[32], b2[32];

	sol->msg[0] = '\0';
	if (!s->any_geom) {
		sol->unmet |= RP_GOAL_BIT(RP_GOAL_DISKS) | RP_GOAL_BIT(RP_GOAL_LEVEL);
		snprintf(sol->msg, sizeof(sol->msg),
			 "no layout of the chosen level(s) fits %u disk(s); the level needs more "
			 "disks",
			 s->n_max);
		if (s->n_usable < s->n_all)
			append(sol->msg, sizeof(sol->msg),
			       " (%u host-managed zoned disk(s) cannot be md members)",
			       s->n_all - s->n_usable);
		return;
	}
	if (g->min_capacity > 0 && s->best_cap < g->min_capacity * (1 - TOL)) {
		sol->unmet |= RP_GOAL_BIT(RP_GOAL_CAPACITY);
		size_text(b1, sizeof(b1), g->min_capacity);
		size_text(b2, sizeof(b2), s->best_cap);
		append(sol->msg, sizeof(sol->msg),
		       "no layout reaches the capacity goal of %s: at most %s (RAID %s, %u disks, "
		       "full stroke). ",
		       b1, b2, rp_level_name(s->best_cap_c.level), s->best_cap_c.n);
	}
	if (g->min_failures > s->best_tol) {
		sol->unmet |= RP_GOAL_BIT(RP_GOAL_FAILURES);
		append(sol->msg, sizeof(sol->msg),
		       "no layout tolerates %u failures: at most %.0f with these disks. ",
		       g->min_failures, s->best_tol);
	}
	if (g->min_iops > 0 && s->best_iops < g->min_iops * (1 - TOL)) {
		sol->unmet |= RP_GOAL_BIT(RP_GOAL_IOPS);
		append(sol->msg, sizeof(sol->msg),
		       "no layout reaches %.0f IOPS: at most %.0f (at a 1 %% stroke). ",
		       g->min_iops, s->best_iops);
	}
	if (g->max_access_ms > 0 && s->best_access > g->max_access_ms * (1 + TOL)) {
		sol->unmet |= RP_GOAL_BIT(RP_GOAL_ACCESS);
		append(sol->msg, sizeof(sol->msg),
		       "no layout gets the access time to %.2f ms: %.2f ms at best (at a 1 %% "
		       "stroke). ",
		       g->max_access_ms, s->best_access);
	}
	if (!sol->unmet)
		append(sol->msg, sizeof(sol->msg), "each goal can be met, but not all together. ");
	append(sol->msg, sizeof(sol->msg), "The closest layouts are listed.");
}

static const char *const band_names[] = { "low", "medium", "high" };

static void cand_name(const struct cand *c, char *buf, size_t len)
{
	snprintf(buf, len, "RAID %s on %u disks", rp_level_name(c->level), c->n);
}

/* The first ranking key in which a comes before b, as a phrase. */
static void key_diff(const struct cand *a, const struct cand *b, char *buf, size_t len)
{
	if (a->risk != b->risk)
		snprintf(buf, len, "a lower risk band (%s, not %s)", band_names[a->risk],
			 band_names[b->risk]);
	else if (a->n != b->n)
		snprintf(buf, len, "fewer disks (%u, not %u)", a->n, b->n);
	else if (a->iops != b->iops)
		snprintf(buf, len, "more IOPS (%.0f, not %.0f)", a->iops, b->iops);
	else if (a->access != b->access)
		snprintf(buf, len, "a shorter access time (%.2f ms, not %.2f ms)", a->access,
			 b->access);
	else if (a->tol != b->tol)
		snprintf(buf, len, "more failures tolerated (%.0f, not %.0f)", a->tol, b->tol);
	else if (a->mttdl != b->mttdl)
		snprintf(buf, len, "a longer MTTDL (%.3g years, not %.3g)", a->mttdl / 8766.0,
			 b->mttdl / 8766.0);
	else if (a->cap != b->cap)
		snprintf(buf, len, "more capacity");
	else
		snprintf(buf, len, "the tie order (level, larger chunk, shorter stroke)");
}

/* Why the first layout is first (rp_solution_reason). */
static void first_reason(const struct search *s, const struct cand *a, const struct cand *b,
			 struct rp_solution *sol)
{
	char na[64], nb[64], d[128];

	cand_name(a, na, sizeof(na));
	snprintf(sol->why, sizeof(sol->why),
		 "%s is first: of the layouts that meet the goals it is in the lowest risk band "
		 "(%s) and has the fewest disks in it; ranked then by IOPS, access time, failures "
		 "tolerated, MTTDL and capacity.",
		 na, band_names[a->risk]);
	if (s->have_riskier) {
		cand_name(&s->riskier, nb, sizeof(nb));
		append(sol->why, sizeof(sol->why),
		       " %s meets the goals with fewer disks but in the %s risk band.", nb,
		       band_names[s->riskier.risk]);
	}
	if (b) {
		cand_name(b, nb, sizeof(nb));
		key_diff(a, b, d, sizeof(d));
		append(sol->why, sizeof(sol->why), " Before the second, %s: %s.", nb, d);
	}
}

static int collect_best(const struct rp_disk *disks, size_t n_disks, struct search *s,
			struct rp_solution *sol, unsigned k, struct rp_error *err)
{
	struct cand **kept;
	size_t i, j, n_ok = 0, n_kept = 0;
	int rc = 0;

	/* feasible candidates to the front, ranked */
	for (i = 0; i < s->n_c; i++)
		if (s->c[i].ok)
			s->c[n_ok++] = s->c[i];
	if (n_ok)
		qsort(s->c, n_ok, sizeof(*s->c), rank_cmp);
	kept = calloc(k, sizeof(*kept));
	sol->best = calloc(k, sizeof(*sol->best));
	if (!kept || !sol->best) {
		free(kept);
		return rp_err(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n_ok; i++) {
		bool dom = false;

		for (j = 0; j < n_kept && !dom; j++)
			dom = dominates(kept[j], &s->c[i]);
		if (dom)
			continue;
		if (n_kept == k) {
			sol->truncated = 1;
			break;
		}
		kept[n_kept++] = &s->c[i];
	}
	for (i = 0; i < n_kept; i++) {
		if ((rc = make_eval(disks, n_disks, s, kept[i], &sol->best[i], err)))
			break;
		sol->n_best++;
	}
	if (n_kept) {
		/* the feasible layout with the fewest disks in a riskier band */
		for (i = 0; i < n_ok; i++)
			if (s->c[i].risk > kept[0]->risk && s->c[i].n < kept[0]->n &&
			    (!s->have_riskier || s->c[i].n < s->riskier.n)) {
				s->riskier = s->c[i];
				s->have_riskier = true;
			}
		first_reason(s, kept[0], n_kept > 1 ? kept[1] : NULL, sol);
	}
	free(kept);
	return rc;
}

/*
 * The first n of c[] in close_cmp order to the front, sorted: the same as
 * sorting them all (close_cmp is a total order on distinct layouts), in one
 * pass with an insertion into the n kept.
 */
static void select_first(struct cand *c, size_t n_c, size_t n)
{
	size_t i, lo, hi, mid;
	struct cand t;

	if (!n)
		return;
	qsort(c, n, sizeof(*c), close_cmp);
	for (i = n; i < n_c; i++) {
		if (close_cmp(&c[i], &c[n - 1]) >= 0)
			continue;
		t = c[i];
		c[i] = c[n - 1];
		for (lo = 0, hi = n - 1; lo < hi;) {
			mid = (lo + hi) / 2;
			if (close_cmp(&t, &c[mid]) < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		memmove(&c[lo + 1], &c[lo], (n - 1 - lo) * sizeof(*c));
		c[lo] = t;
	}
}

static int collect_close(const struct rp_disk *disks, size_t n_disks, struct search *s,
			 struct rp_solution *sol, unsigned k, struct rp_error *err)
{
	size_t i, n = s->n_c < k ? s->n_c : k;
	int rc = 0;

	select_first(s->c, s->n_c, n);
	sol->close = calloc(n ? n : 1, sizeof(*sol->close));
	sol->sf = calloc(n ? n : 1, sizeof(*sol->sf));
	if (!sol->close || !sol->sf)
		return rp_err(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		if ((rc = make_eval(disks, n_disks, s, &s->c[i], &sol->close[i], err)))
			break;
		sol->sf[i].total = shortfalls(s->goals, &s->c[i], sol->sf[i].gap);
		sol->n_close++;
	}
	return rc;
}

int rp_solve(const struct rp_disk *disks, size_t n_disks, const struct rp_path *path,
	     const struct rp_workload *wl, const struct rp_goals *goals, struct rp_solution **out,
	     struct rp_error *err)
{
	struct rp_solution *sol = NULL;
	struct search *s;
	unsigned k;
	uint64_t ch;
	int rc;

	if (out)
		*out = NULL;
	if (!disks || !wl || !goals || !out)
		return rp_err(err, -EINVAL, "rp_solve: %s is NULL",
			      !disks   ? "the disk list"
			      : !wl    ? "the workload"
			      : !goals ? "the goals"
				       : "the result pointer");
	if (n_disks < 1 || n_disks > RP_MAX_DISKS)
		return rp_err(err, -EINVAL, "%zu disks given: 1 .. %u are modelled", n_disks,
			      RP_MAX_DISKS);
	s = calloc(1, sizeof(*s));
	if (!s)
		return rp_err(err, -ENOMEM, "out of memory");
	if ((rc = rp_in_path(path, &s->path_in, &s->links_in, err)) ||
	    (rc = rp_in_workload(wl, &s->wl_in, s->sizes_in, err)) ||
	    (rc = rp_in_goals(goals, &s->goals_in, err)))
		goto out;
	s->path = path ? &s->path_in : NULL;
	s->goals = goals = &s->goals_in;
	s->wlp = &s->wl_in;
	if ((rc = rp_path_check(s->path, err)) || (rc = rp_wl_build(s->wlp, &s->wl, err)) ||
	    (rc = check_goals(goals, err)) || (rc = prepare(s, disks, n_disks, err)))
		goto out;
	s->wl.memo = rp_memo_new();
	if (!s->wl.memo) {
		rc = rp_err(err, -ENOMEM, "out of memory");
		goto out;
	}
	s->wl_bound = s->wl;
	s->wl_bound.bound = true;
	s->n_max = goals->max_disks && goals->max_disks < s->n_usable ? goals->max_disks
								      : s->n_usable;
	if (goals->chunk_bytes)
		s->chunks[s->n_chunks++] = (double)goals->chunk_bytes;
	else
		for (ch = 4096; ch <= (1u << 20); ch *= 2)
			s->chunks[s->n_chunks++] = (double)ch;
	k = goals->max_results ? goals->max_results : 10;
	s->k = k;
	s->kept = calloc(k, sizeof(*s->kept));
	s->near = calloc(k, sizeof(*s->near));
	if (!s->kept || !s->near) {
		rc = rp_err(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (s->n_cls > MAX_EXACT_CLASSES && !s->dm[0].flash) {
		s->approx = true;
		if (build_prefix(s)) {
			rc = rp_err(err, -ENOMEM, "out of memory");
			goto out;
		}
	}

	if ((rc = run(s)) || (rc = resolve_needed(s))) {
		rc = rp_err(err, rc, "out of memory");
		goto out;
	}
	sol = calloc(1, sizeof(*sol));
	if (!sol) {
		rc = rp_err(err, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = collect_best(disks, n_disks, s, sol, k, err)))
		goto out;
	if (!sol->n_best) {
		s->best_pass = true;
		if ((rc = run(s))) {
			rc = rp_err(err, rc, "out of memory");
			goto out;
		}
		explain_unmet(s, sol);
		if ((rc = collect_close(disks, n_disks, s, sol, k, err)))
			goto out;
	} else {
		const struct rp_layout *l = rp_eval_layout(sol->best[0]);

		snprintf(sol->msg, sizeof(sol->msg),
			 "%zu layout%s meet%s the goals%s; best: RAID %s on %u disks at a %.1f %% "
			 "stroke",
			 sol->n_best, sol->n_best == 1 ? "" : "s", sol->n_best == 1 ? "s" : "",
			 sol->truncated ? " (more exist)" : "", rp_level_name(l->level), l->n_disks,
			 100 * l->stroke);
	}
	sol->bestv[RP_GOAL_CAPACITY] = s->best_cap;
	sol->bestv[RP_GOAL_FAILURES] = s->best_tol;
	sol->bestv[RP_GOAL_IOPS] = s->best_iops;
	sol->bestv[RP_GOAL_ACCESS] = s->best_access;
	sol->bestv[RP_GOAL_DISKS] = s->n_max;
	sol->bestv[RP_GOAL_LEVEL] = NAN;
	sol->evaluated = s->evaluated;
	*out = sol;
	sol = NULL;
	rc = 0;
out:
	rp_solution_free(sol);
	free_search(s);
	free(s);
	return rc;
}

size_t rp_solution_count(const struct rp_solution *sol)
{
	return sol ? sol->n_best : 0;
}

const struct rp_eval *rp_solution_get(const struct rp_solution *sol, size_t i)
{
	if (!sol || i >= sol->n_best)
		return NULL;
	return sol->best[i];
}

size_t rp_solution_closest_count(const struct rp_solution *sol)
{
	return sol ? sol->n_close : 0;
}

const struct rp_eval *rp_solution_closest(const struct rp_solution *sol, size_t i)
{
	if (!sol || i >= sol->n_close)
		return NULL;
	return sol->close[i];
}

double rp_solution_closest_gap(const struct rp_solution *sol, size_t i, int goal)
{
	if (!sol || i >= sol->n_close || goal < 0 || goal >= RP_GOAL_COUNT)
		return NAN;
	return sol->sf[i].gap[goal];
}

double rp_solution_closest_distance(const struct rp_solution *sol, size_t i)
{
	if (!sol || i >= sol->n_close)
		return NAN;
	return sol->sf[i].total;
}

unsigned rp_solution_unmet(const struct rp_solution *sol)
{
	return sol ? sol->unmet : 0;
}

double rp_solution_best(const struct rp_solution *sol, int goal)
{
	if (!sol || goal < 0 || goal >= RP_GOAL_COUNT)
		return NAN;
	return sol->bestv[goal];
}

const char *rp_solution_message(const struct rp_solution *sol)
{
	return sol ? sol->msg : "";
}

size_t rp_solution_evaluated(const struct rp_solution *sol)
{
	return sol ? sol->evaluated : 0;
}

int rp_solution_truncated(const struct rp_solution *sol)
{
	return sol ? sol->truncated : 0;
}

const char *rp_solution_reason(const struct rp_solution *sol)
{
	return sol ? sol->why : "";
}
