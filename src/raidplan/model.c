/* model.c - arrays: geometry, workload, caps, and the numbers of a layout. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "raidplan/raidplan_priv.h"

/* fmin and fmax for the loop's hot paths, where no argument is NaN or a
 * signed zero: the same value, without the library call. */
static inline double min2(double a, double b)
{
	return b < a ? b : a;
}

static inline double max2(double a, double b)
{
	return b > a ? b : a;
}

static bool is_mirror(int level)
{
	return level == RP_LEVEL_1 || level == RP_LEVEL_10 || level == RP_LEVEL_01;
}

static bool is_parity(int level)
{
	return level == RP_LEVEL_5 || level == RP_LEVEL_6 || level == RP_LEVEL_50 ||
	       level == RP_LEVEL_60;
}

int rp_geom_build(const struct rp_layout *l, size_t n_avail, struct rp_geom *g,
		  struct rp_error *err)
{
	unsigned n = l->n_disks, min;
	const char *name = rp_level_name(l->level);

	memset(g, 0, sizeof(*g));
	if (!name)
		return rp_err(err, -EINVAL,
			      "unknown RAID level %d: use 0, 1, 10, 0+1, 5, 6, 50 or 60", l->level);
	g->level = l->level;
	min = rp_level_min_disks(l->level);
	if (n < 1)
		return rp_err(err, -EINVAL, "the layout has no disks");
	if (n > n_avail || n > RP_MAX_DISKS)
		return rp_err(err, -EINVAL, "the layout takes %u disks but %zu are given", n,
			      n_avail);
	if (n < min)
		return rp_err(err, -EINVAL, "RAID %s needs at least %u disks; the layout has %u",
			      name, min, n);
	if (!rp_in(l->stroke, 0, 1) || l->stroke <= 0)
		return rp_err(
		    err, -EINVAL,
		    "stroke %g is outside (0, 1]: it is the capacity fraction used per disk",
		    l->stroke);
	g->stroke = l->stroke;
	if (l->chunk_bytes && (l->chunk_bytes < RP_MIN_CHUNK || l->chunk_bytes > RP_MAX_CHUNK ||
			       l->chunk_bytes % 512))
		return rp_err(
		    err, -EINVAL,
		    "chunk size %llu bytes: use a multiple of 512 between 512 B and 1 GiB",
		    (unsigned long long)l->chunk_bytes);
	g->chunk = (double)(l->chunk_bytes ? l->chunk_bytes : RP_DEF_CHUNK);
	if (l->rebuild_mbps != 0 && (!rp_in(l->rebuild_mbps, 0, 1e6) || l->rebuild_mbps < 0))
		return rp_err(err, -EINVAL, "rebuild rate %g MB/s is outside (0, 1e6]",
			      l->rebuild_mbps);
	if (l->replace_hours != 0 && (!rp_in(l->replace_hours, 0, 1e6) || l->replace_hours < 0))
		return rp_err(err, -EINVAL, "replacement time %g h is outside (0, 1e6]",
			      l->replace_hours);
	g->rebuild_mbps = l->rebuild_mbps ? l->rebuild_mbps : RP_DEF_REBUILD_MBPS;
	g->replace_h = l->replace_hours ? l->replace_hours : RP_DEF_REPLACE_H;
	g->n = n;
	g->copies = 1;
	g->groups = 1;
	g->gsize = n;

	switch (l->level) {
	case RP_LEVEL_0:
		g->ndata = n;
		break;
	case RP_LEVEL_1:
		if (l->copies && l->copies != n)
			return rp_err(err, -EINVAL,
				      "RAID 1 keeps a copy on every disk: copies %u must equal the "
				      "%u disks (or be 0)",
				      l->copies, n);
		g->copies = n;
		g->ndata = 1;
		break;
	case RP_LEVEL_10:
	case RP_LEVEL_01:
		g->copies = l->copies ? l->copies : 2;
		if (g->copies < 2 || n % g->copies || n / g->copies < 2)
			return rp_err(
			    err, -EINVAL,
			    "RAID %s with %u copies needs a multiple of %u disks, at least "
			    "%u; the layout has %u",
			    name, g->copies, g->copies, 2 * g->copies, n);
		g->ndata = n / g->copies;
		break;
	case RP_LEVEL_5:
	case RP_LEVEL_6:
	case RP_LEVEL_50:
	case RP_LEVEL_60:
		g->parity = (l->level == RP_LEVEL_5 || l->level == RP_LEVEL_50) ? 1 : 2;
		if (l->level == RP_LEVEL_50 || l->level == RP_LEVEL_60) {
			g->groups = l->groups ? l->groups : 2;
			if (g->groups < 2 || n % g->groups || n / g->groups < g->parity + 2)
				return rp_err(
				    err, -EINVAL,
				    "RAID %s in %u groups needs a multiple of %u disks with "
				    "at least %u per group; the layout has %u",
				    name, g->groups, g->groups, g->parity + 2, n);
		}
		g->gsize = n / g->groups;
		g->ndata = g->groups * (g->gsize - g->parity);
		break;
	}
	return 0;
}

bool rp_speed_same_groups(const struct rp_geom *g, const struct rp_wl *w)
{
	double dg = (double)g->gsize - g->parity;
	unsigned i;

	if (g->groups < 2 || !g->parity || w->rnd != 1 || !(1.0 + g->parity < dg - 1.0))
		return false;
	for (i = 0; i < w->n; i++) {
		double s = w->bytes[i], m = 1.0 + (s - fmin(s, 4096.0)) / g->chunk;

		if (w->share[i] > 0 && (m > g->groups || m > g->ndata))
			return false;
	}
	return true;
}

int rp_wl_build(const struct rp_workload *w, struct rp_wl *o, struct rp_error *err)
{
	double sum = 0;
	size_t i;

	memset(o, 0, sizeof(*o));
	if (!w)
		return rp_err(err, -EINVAL, "no workload given");
	if (!rp_in(w->read_share, 0, 1))
		return rp_err(err, -EINVAL, "read share %g is outside 0..1", w->read_share);
	if (!rp_in(w->random_share, 0, 1))
		return rp_err(err, -EINVAL, "random share %g is outside 0..1", w->random_share);
	if (w->queue_depth < 1 || w->queue_depth > RP_MAX_QD)
		return rp_err(err, -EINVAL, "queue depth %u is outside 1..%u", w->queue_depth,
			      RP_MAX_QD);
	o->read = w->read_share;
	o->rnd = w->random_share;
	o->qd = w->queue_depth;
	if (!w->n_sizes) {
		if (w->request_bytes < 1 || w->request_bytes > RP_MAX_REQUEST)
			return rp_err(err, -EINVAL,
				      "request size %llu bytes is outside 1 B .. 1 GiB",
				      (unsigned long long)w->request_bytes);
		o->n = 1;
		o->bytes[0] = (double)w->request_bytes;
		o->share[0] = 1;
	} else {
		if (!w->sizes)
			return rp_err(err, -EINVAL, "the workload lists %zu sizes but no data",
				      w->n_sizes);
		if (w->n_sizes > RP_MAX_SIZES)
			return rp_err(err, -E2BIG, "the workload lists %zu sizes, at most %u",
				      w->n_sizes, RP_MAX_SIZES);
		for (i = 0; i < w->n_sizes; i++) {
			if (w->sizes[i].bytes < 1 || w->sizes[i].bytes > RP_MAX_REQUEST)
				return rp_err(
				    err, -EINVAL,
				    "workload size %zu: %llu bytes is outside 1 B .. 1 GiB", i,
				    (unsigned long long)w->sizes[i].bytes);
			if (!rp_in(w->sizes[i].share, 0, 1e9))
				return rp_err(err, -EINVAL,
					      "workload size %zu: share %g is outside 0 .. 1e9", i,
					      w->sizes[i].share);
			o->bytes[i] = (double)w->sizes[i].bytes;
			o->share[i] = w->sizes[i].share;
			sum += w->sizes[i].share;
		}
		if (!(sum > 0))
			return rp_err(err, -EINVAL, "the workload's size shares add up to 0");
		o->n = (unsigned)w->n_sizes;
		for (i = 0; i < o->n; i++)
			o->share[i] /= sum;
	}
	for (i = 0; i < o->n; i++) {
		o->mean_bytes += o->share[i] * o->bytes[i];
		if (o->share[i] > 0 && o->bytes[i] > o->max_bytes)
			o->max_bytes = o->bytes[i];
	}
	return 0;
}

static int check_cap(double v, const char *what, struct rp_error *err)
{
	if (v == 0)
		return 0;
	if (!rp_in(v, 0, 1e9) || v < 0)
		return rp_err(err, -EINVAL, "%s %g MB/s must be 0 (no cap) or in (0, 1e9]", what,
			      v);
	return 0;
}

int rp_path_check(const struct rp_path *p, struct rp_error *err)
{
	size_t i;
	int rc;

	if (!p)
		return 0;
	if ((rc = check_cap(p->controller_mbps, "controller bandwidth", err)) ||
	    (rc = check_cap(p->bus_mbps, "bus bandwidth", err)) ||
	    (rc = check_cap(p->controller_write_mbps, "controller write bandwidth", err)) ||
	    (rc = check_cap(p->bus_write_mbps, "bus write bandwidth", err)) ||
	    (rc = check_cap(p->cache_mbps, "controller cache rate", err)))
		return rc;
	if (!rp_in(p->latency_ms, 0, 1000) || !rp_in(p->latency_per_disk_ms, 0, 100))
		return rp_err(err, -EINVAL,
			      "controller latency %g ms + %g ms per disk: use 0 .. 1000 ms and "
			      "0 .. 100 ms",
			      p->latency_ms, p->latency_per_disk_ms);
	if (!rp_in(p->cache_mb, 0, 1e7))
		return rp_err(err, -EINVAL, "controller cache %g MB must be 0 (none) or up to 1e7",
			      p->cache_mb);
	if (!rp_controller_name(p->controller))
		return rp_err(err, -EINVAL, "controller %d: use 0 (md), 1 (hba) or 2 (hw-raid)",
			      p->controller);
	if (!rp_in(p->member_efficiency, 0, 1) || !rp_in(p->write_ratio, 0, 1))
		return rp_err(err, -EINVAL,
			      "controller member efficiency %g and write ratio %g: each 0 (the "
			      "controller's default) or a share up to 1",
			      p->member_efficiency, p->write_ratio);
	if (p->full_stripe < RP_STRIPE_DEFAULT || p->full_stripe > RP_STRIPE_RMW)
		return rp_err(err, -EINVAL,
			      "full stripe %d: use 0 (by controller), 1 (full stripes) or 2 "
			      "(read-modify-write)",
			      p->full_stripe);
	if (p->reserved || p->reserved2)
		return rp_err(err, -EINVAL, "the path's reserved fields must be 0");
	if (p->n_links && !p->links)
		return rp_err(err, -EINVAL, "the path lists %zu shared links but no data",
			      p->n_links);
	if (p->n_links > RP_MAX_DISKS)
		return rp_err(err, -E2BIG, "the path lists %zu shared links, at most %u",
			      p->n_links, RP_MAX_DISKS);
	for (i = 0; i < p->n_links; i++)
		if (!rp_in(p->links[i].mbps, 0, 1e9) || p->links[i].mbps <= 0)
			return rp_err(err, -EINVAL, "shared link %zu: %g MB/s is outside (0, 1e9]",
				      i + 1, p->links[i].mbps);
	return 0;
}

static void cap_take(double *total, int *which, double v, int id)
{
	if (v > 0 && (*total == 0 || v < *total)) {
		*total = v;
		*which = id;
	}
}

/*
 * Caps on the members' total traffic (docs/models.md): the controller, the
 * bus, and each shared link carrying n_L of the n members' equal shares
 * (so the total is at most link * n / n_L; link_ratio = min link / n_L).
 * iface_total = n * the slowest own link: with traffic spread evenly the
 * slowest member's link fills first.
 */
void rp_caps_build(const struct rp_path *p, double iface_total, double link_ratio, unsigned link_id,
		   unsigned n, struct rp_caps *c)
{
	bool hw = p && p->controller == RP_CTRL_HW_RAID;

	memset(c, 0, sizeof(*c));
	c->eff = 1;
	c->wratio = 1;
	if (p) {
		/* the controller's figures (docs/planning-model.md 2.6) */
		c->ctrl = p->controller;
		c->eff = p->member_efficiency > 0 ? p->member_efficiency
			 : hw			  ? RP_HW_EFFICIENCY
						  : 1;
		c->wratio = p->write_ratio > 0 ? p->write_ratio : hw ? RP_HW_WRITE_RATIO : 1;
		c->rmw = p->full_stripe == RP_STRIPE_RMW ||
			 (p->full_stripe == RP_STRIPE_DEFAULT && hw && !(p->cache_mb > 0));
		c->controller = p->controller_mbps;
		c->bus = p->bus_mbps;
		c->controller_w = p->controller_write_mbps ? p->controller_write_mbps
							   : c->controller * c->wratio;
		c->bus_w = p->bus_write_mbps ? p->bus_write_mbps : c->bus;
		c->lat = p->latency_ms + p->latency_per_disk_ms * n;
		c->cache_mb = p->cache_mb;
		c->cache_mbps = p->cache_mbps;
	}
	c->link = link_ratio > 0 ? link_ratio * n : 0;
	c->link_id = link_id;
	cap_take(&c->total, &c->which, c->controller, RP_CAP_CONTROLLER);
	cap_take(&c->total, &c->which, c->bus, RP_CAP_BUS);
	cap_take(&c->total, &c->which, c->link, RP_CAP_LINK);
	cap_take(&c->total, &c->which, iface_total, RP_CAP_INTERFACE);
	cap_take(&c->total_w, &c->which_w, c->controller_w, RP_CAP_CONTROLLER);
	cap_take(&c->total_w, &c->which_w, c->bus_w, RP_CAP_BUS);
	cap_take(&c->total_w, &c->which_w, c->link, RP_CAP_LINK);
	cap_take(&c->total_w, &c->which_w, iface_total, RP_CAP_INTERFACE);
}

void rp_agg_reset(struct rp_agg *g)
{
	memset(g, 0, sizeof(*g));
	g->cmin = DBL_MAX;
	g->qlim = DBL_MAX;
	g->wcache_mb = DBL_MAX;
	g->link_min = DBL_MAX;
	g->rs_min = g->re_min = g->rh_min = g->rh_media_min = DBL_MAX;
}

/* Add count members like m to the aggregate; each uses stroke*cmin bytes. */
void rp_agg_add(struct rp_agg *g, const struct rp_dmodel *m, unsigned count, double cmin,
		double stroke)
{
	struct rp_band b;
	double w = count, rs, re, rh;

	rp_dmodel_band(m, stroke * cmin / m->cap, &b);
	g->n += count;
	g->csum += w * m->cap;
	if (m->cap < g->cmin)
		g->cmin = m->cap;
	if (m->cap > g->cmax)
		g->cmax = m->cap;
	g->sigma += w * b.sigma;
	g->seek += w * b.seek;
	g->alpha += w * b.alpha;
	g->beta += w * b.beta;
	g->t2t += w * m->t2t;
	g->ovh += w * m->ovh;
	g->trev += w * m->trev;
	g->inv_rate += w / b.rate_h;
	g->k += w * m->k;
	g->inv_mttf += w / m->mttf;
	rs = b.rate_start;
	re = b.rate_end;
	rh = b.rate_h;
	if (m->iface > 0) {
		if (m->iface < rs)
			g->iface_bound = true;
		rs = fmin(rs, m->iface);
		re = fmin(re, m->iface);
		rh = fmin(rh, m->iface);
	}
	g->rs_min = fmin(g->rs_min, rs);
	g->re_min = fmin(g->re_min, re);
	g->rh_min = fmin(g->rh_min, rh);
	g->rh_media_min = fmin(g->rh_media_min, b.rate_h);
	if (m->ure > g->ure)
		g->ure = m->ure;
	g->qlim = fmin(g->qlim, m->qdepth);
	g->wcache_mb = fmin(g->wcache_mb, m->wcache ? m->cache_mb : 0);
	g->link_min = fmin(g->link_min, m->iface > 0 ? m->iface : RP_DEF_DISK_LINK_MBPS);
	g->zone = fmax(g->zone, m->zone_b);
	g->host_managed |= m->zoned == RP_ZONED_HOST_MANAGED;
	g->defaults |= m->defaults;
	g->seek_fallback |= m->seek_fallback;
	if (m->flash) {
		/* the share used is the stroke: the rest is spare (docs/flash.md) */
		double used = fmin(1, stroke * cmin / m->cap);

		g->n_flash += count;
		g->fl_w_unit += w * rp_flash_write_unit_ms(&m->fl, (1 + m->fl_spare) / used - 1);
		g->fl_read += w * m->fl_read_ms;
	}
}

void rp_agg_finish(struct rp_agg *g, double stroke)
{
	double n = g->n ? g->n : 1;

	g->sigma /= n;
	g->seek /= n;
	g->alpha /= n;
	g->beta /= n;
	g->t2t /= n;
	g->ovh /= n;
	g->trev /= n;
	g->inv_rate /= n;
	g->k /= n;
	g->inv_mttf /= n;
	g->used = stroke * g->cmin;
	if (g->n_flash) {
		g->fl_w_unit /= g->n_flash;
		g->fl_read /= g->n_flash;
	}
}

double rp_zone_stroke(double stroke, double cmin, double zone, bool up)
{
	double k;

	if (zone <= 0 || cmin <= 0)
		return stroke;
	k = stroke * cmin / zone;
	k = up ? ceil(k - 1e-9) : floor(k + 1e-9);
	if (k < 1)
		k = 1;
	return fmin(k * zone / cmin, 1.0);
}

double rp_level_tolerated(const struct rp_geom *g)
{
	switch (g->level) {
	case RP_LEVEL_1:
	case RP_LEVEL_10:
	case RP_LEVEL_01:
		return g->copies - 1;
	case RP_LEVEL_5:
	case RP_LEVEL_50:
		return 1;
	case RP_LEVEL_6:
	case RP_LEVEL_60:
		return 2;
	default:
		return 0;
	}
}

/* One request of a size: QD1 latency, disk operations, bytes per operation. */
struct req {
	double lat1; /* ms */
	double ops;  /* disk operations per request */
	double x;    /* bytes per operation */
	double m;    /* chunks touched */
	double wops; /* of the operations, disk writes */
	double k1;   /* operations sent at once (a request's first phase) */
	double k2;   /* operations sent once those are done (a parity write's writes) */
	bool write;
	bool cached; /* a write the controller's cache takes */
};

/*
 * A disk write its volatile write cache takes (docs/planning-model.md
 * 1.9): the host waits for the command and the transfer over the link,
 * and the drive writes the data later, choosing among everything cached
 * (cache / x extents when it is full) the one nearest the heads; in a
 * steady stream each write costs the disk the longer of the two (the
 * mechanics work while the link does). 0 when the members write through.
 */
static double cached_write_ms(const struct rp_agg *a, const struct rp_wl *w, double x,
			      struct rp_cache_info *ci)
{
	double pos1 = a->seek + a->trev / 2.0, n, ratio, destage, host;

	if (!(a->wcache_mb > 0))
		return 0;
	if (a->n_flash) {
		/* a flash drive: its dies' time for the pages written, at the
		 * write amplification of its spare (docs/flash.md) */
		destage = ceil(x / 4096) * a->fl_w_unit;
		host = a->ovh + x / (a->link_min * 1e3);
		if (ci) {
			memset(ci, 0, sizeof(*ci));
			ci->bytes = x;
			ci->destage = destage;
			ci->host = host;
			ci->t_w = fmax(host, destage);
		}
		return fmax(host, destage);
	}
	n = fmax(1.0, a->wcache_mb * 1e6 / x);
	ratio = rp_sptf_ratio(w->memo, a->alpha, a->beta, a->trev, n);
	destage = a->t2t + (pos1 - a->t2t) * ratio + x * a->inv_rate * 1e-3;
	host = a->ovh + x / (a->link_min * 1e3);
	if (ci) {
		ci->bytes = x;
		ci->extents = n;
		ci->ratio = ratio;
		ci->destage = destage;
		ci->host = host;
		ci->t_w = fmax(host, destage);
	}
	return fmax(host, destage);
}

/* Expected chunks touched by an aligned request (derived): 1 + (S - a)/C. */
static double chunks_touched(const struct rp_geom *g, double s)
{
	double a = fmin(s, 4096.0);
	double m = 1.0 + (s - a) / g->chunk;

	return fmin(m, (double)g->ndata);
}

static void req_read(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		     const struct rp_wl *w, double s, struct req *r)
{
	double copies = g->level == RP_LEVEL_1 || g->level == RP_LEVEL_10 || g->level == RP_LEVEL_01
			    ? g->copies
			    : 1;

	r->m = chunks_touched(g, s);
	r->x = s / r->m;
	r->ops = r->k1 = r->m;
	r->wops = r->k2 = 0;
	r->write = r->cached = false;
	r->lat1 = c->lat + a->ovh + a->seek + a->trev * rp_rot_wait(w->memo, r->m, copies) +
		  r->x * a->inv_rate * 1e-3 + a->fl_read;
}

static void req_write(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		      const struct rp_wl *w, double s, struct req *r)
{
	double xfer, base, cw;

	r->m = chunks_touched(g, s);
	r->x = s / r->m;
	r->write = true;
	r->cached = false;
	r->k2 = 0;
	xfer = r->x * a->inv_rate * 1e-3;
	base = c->lat + a->ovh + a->seek;
	cw = cached_write_ms(a, w, r->x, NULL);
	if (is_mirror(g->level)) {
		r->ops = r->wops = r->k1 = r->m * g->copies;
		r->lat1 = cw > 0 ? c->lat + cw
				 : base + a->trev * rp_rot_wait(w->memo, r->ops, 1) + xfer;
	} else if (is_parity(g->level)) {
		double p = g->parity, dg = g->gsize - g->parity;
		double gt = fmin(r->m, (double)g->groups), k = r->m / gt;
		double rmw = 2.0 * (k + p), rcw = dg + p;
		/* md reads the fewer blocks: k + p (read-modify-write) or dg - k
		 * (reconstruct-write), reconstruct-write on a tie (raid5.c,
		 * handle_stripe_dirtying, rmw_level at its default) */
		bool use_rmw = k + p < dg - k;

		if (k >= dg) {
			/* full stripes: no reads */
			r->ops = r->wops = r->k1 = gt * (dg + p) * k / dg;
			r->lat1 = cw > 0 ? c->lat + cw
					 : base + a->trev * rp_rot_wait(w->memo, gt * (dg + p), 1) +
					       xfer;
		} else if (use_rmw) {
			/* read old data + parity, write both a revolution later (or
			 * into the disks' caches) */
			r->ops = gt * rmw;
			r->wops = r->k1 = r->k2 = gt * (k + p);
			r->lat1 = base + a->trev * rp_rot_wait(w->memo, gt * (k + p), 1) +
				  (cw > 0 ? xfer + cw : a->trev + xfer);
		} else {
			/* read the other data chunks, then write data + parity to
			 * members that took no part in the reads: a seek of their own */
			r->ops = gt * rcw;
			r->k1 = gt * (dg - k);
			r->wops = r->k2 = gt * (k + p);
			r->lat1 = base + a->trev * rp_rot_wait(w->memo, gt * (dg - k), 1) + xfer +
				  (cw > 0
				       ? cw
				       : a->seek + a->trev * rp_rot_wait(w->memo, gt * (k + p), 1) +
					     xfer);
		}
	} else {
		r->ops = r->wops = r->k1 = r->m;
		r->lat1 = cw > 0 ? c->lat + cw
				 : base + a->trev * rp_rot_wait(w->memo, r->m, 1) + xfer;
	}
	/* a write-back controller cache takes the write at its rate: the host
	 * waits for that, the disks destage behind it */
	if (c->cache_mb > 0 && s <= c->cache_mb * 1e6) {
		double rate = c->cache_mbps > 0 ? c->cache_mbps : c->total_w;

		r->cached = true;
		r->lat1 = c->lat + (rate > 0 ? s / (rate * 1e3) : 0);
	}
}

/* ms per disk operation of x bytes when the drive chooses among qd: SPTF
 * positioning (docs/planning-model.md 1.8) and the ageing term. */
static double op_ms(const struct rp_agg *a, const struct rp_wl *w, double x, double qd,
		    struct rp_queue_info *qi)
{
	double pos1 = a->seek + a->trev / 2.0, pos = pos1, ratio = 1, age = 0, top;

	if (a->n_flash) {
		/* a flash drive: a page read and the transfer; nothing to order */
		top = a->ovh + a->fl_read + x * a->inv_rate * 1e-3;
		if (qi) {
			memset(qi, 0, sizeof(*qi));
			qi->qd = qd;
			qi->qeff = 1;
			qi->ratio = 1;
			qi->top = top;
		}
		return top;
	}
	if (qd > 1) {
		ratio = rp_sptf_ratio(w->memo, a->alpha, a->beta, a->trev, qd);
		pos = a->t2t + (pos1 - a->t2t) * ratio;
	}
	top = a->ovh + pos + x * a->inv_rate * 1e-3;
	/* ageing (docs/planning-model.md 1.8): a request still queued after
	 * the drive's ageing bound is served first, at the positioning of a
	 * queue of one; the wait in a queue of qd taken exponential */
	if (qd > 1) {
		double lim = qd * a->trev +
			     (a->t2t + a->alpha + a->beta + a->trev - pos) / RP_AGE_WEIGHT;
		double z = lim / (qd * top);

		/* beyond 50 the share (< 2e-22) no longer moves top's last bit */
		age = z < 50 ? exp(-z) : 0;
		top += age * (pos1 - pos);
	}
	if (qi) {
		qi->qd = qd;
		qi->qeff = qd > 1 ? pow(qd, RP_SPTF_GAMMA) : 1;
		qi->ratio = ratio;
		qi->pos = pos;
		qi->age = age;
		qi->top = top;
	}
	return top;
}

/* H(k) = 1 + 1/2 + ... + 1/k, linear between whole k: the mean of the
 * largest of k independent exponential times of mean 1. */
static double harmonic(double k)
{
	double h = 0, i, n = floor(k);

	if (k <= 0)
		return 0;
	if (n > 64) /* Euler-Maclaurin: the error is below 1e-9 */
		h = log(n) + 0.57721566490153286 + 1 / (2 * n) - 1 / (12 * n * n);
	else
		for (i = 1; i <= n; i++)
			h += 1.0 / i;
	return h + (k - n) / (n + 1.0);
}

/* A closed loop of requests over the disks (fork_join_rate): the disks'
 * time per operation at each queue, computed once asked for. */
struct fj {
	const struct rp_agg *a;
	const struct rp_wl *w;
	const struct req *r;
	unsigned n;
	double share, lat;
	double h1, h2, rot1, rot2; /* the phases' H(k) and rotational terms */
	double *top;		   /* at j queued; 0: not yet computed (the memo's, or own) */
	double own[RP_MAX_QUEUE + 1];
	struct {
		double m, rate, busy, mean; /* fj_rate_whole at m; m < 0: empty */
	} seen[4];
	unsigned next;
};

static inline double fj_top(struct fj *f, double j)
{
	size_t i = (size_t)(j < f->a->qlim ? j : f->a->qlim); /* fmin, without the call */

	if (!(f->top[i] > 0))
		f->top[i] = op_ms(f->a, f->w, f->r->x, max2(1.0, (double)i * f->share), NULL);
	return f->top[i];
}

/* Where the times per operation go: the memo's table for this band, size
 * and share (shared by every figure and layout that has them), else f's
 * own. */
static void fj_tops(struct fj *f)
{
	const struct rp_agg *a = f->a;
	const double key[RP_TOP_KEYS] = { a->alpha, a->beta,	 a->trev, a->t2t,   a->ovh,
					  a->seek,  a->inv_rate, f->r->x, f->share, a->qlim };
	struct rp_top_memo *t;
	uint64_t h = 0, bits;

	f->top = f->own;
	if (!f->w->memo) {
		memset(f->own, 0, sizeof(f->own));
		return;
	}
	for (int i = 0; i < RP_TOP_KEYS; i++) {
		memcpy(&bits, &key[i], sizeof(bits));
		h = (h ^ bits) * 0x9e3779b97f4a7c15ULL;
	}
	t = &f->w->memo->top[(h >> 40) % RP_TOP_SLOTS];
	if (memcmp(t->key, key, sizeof(key))) {
		/* fj_top reads no index beyond the disks' queue depth, a key */
		memcpy(t->key, key, sizeof(key));
		memset(t->top, 0, sizeof(t->top[0]) * ((size_t)fmin(a->qlim, RP_MAX_QUEUE) + 1));
	}
	f->top = t->top;
}

/* ln |Gamma(x)|: lgamma_r, not lgamma, which writes the global signgam (a
 * data race between two threads planning at once: tests/abi/threads.c) */
static double lgam(double x)
{
	int sign;

	return lgamma_r(x, &sign);
}

/* lgam(k) for a whole k, remembered in the memo (the same bits). */
static double lgam_whole(const struct fj *f, double k)
{
	struct rp_memo *memo = f->w->memo;
	size_t i = (size_t)k;

	if (!memo || k >= RP_LGAMMA_MEMO)
		return lgam(k);
	if (memo->lgam[i] == 0 && k > 2)
		memo->lgam[i] = lgam(k);
	return memo->lgam[i];
}

/* Operations per ms that the n disks complete while m (whole) operations
 * are outstanding, each at one of the disks at random: a disk holds
 * Binomial(m, 1/n) of them, idles with none and with j serves at the
 * positioning of a queue of min(j, the disk's queue depth) x share.
 * busy: the share of the time a disk has work; mean: its queue then. */
static double fj_rate_whole(struct fj *f, double m, double *busy, double *mean)
{
	double p = 1.0 / f->n, mu = m * p, sd = sqrt(m * p * (1 - p)), sum = 0, qsum = 0;
	double lo, hi, j, pj;

	*busy = *mean = 0;
	if (m < 1)
		return 0;
	if (f->n == 1) {
		*busy = 1;
		*mean = m;
		return 1.0 / fj_top(f, m);
	}
	/* the terms beyond 10 standard deviations are below 1e-22 */
	lo = max2(1.0, floor(mu - 10 * sd));
	hi = min2(m, ceil(mu + 10 * sd));
	pj = exp(lgam_whole(f, m + 1) - lgam_whole(f, lo + 1) - lgam_whole(f, m - lo + 1) +
		 lo * log(p) + (m - lo) * log1p(-p));
	for (j = lo; j <= hi; j++) {
		sum += pj / fj_top(f, j);
		qsum += pj * j;
		pj *= (m - j) / (j + 1) * p / (1 - p);
	}
	*busy = -expm1(m * log1p(-p));
	*mean = *busy > 0 ? qsum / *busy : 0;
	return f->n * sum;
}

/* fj_rate_whole, remembered for the last few m (the root finder comes
 * back to the two whole numbers around its answer). */
static double fj_rate_seen(struct fj *f, double m, double *busy, double *mean)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		if (f->seen[i].m == m) {
			*busy = f->seen[i].busy;
			*mean = f->seen[i].mean;
			return f->seen[i].rate;
		}
	i = f->next++ % 4;
	f->seen[i].m = m;
	f->seen[i].rate = fj_rate_whole(f, m, busy, mean);
	f->seen[i].busy = *busy;
	f->seen[i].mean = *mean;
	return f->seen[i].rate;
}

/* The same for m not whole: linear between the whole numbers around it. */
static double fj_rate(struct fj *f, double m, double *busy, double *mean)
{
	double m0 = floor(m), g = m - m0, b1, q1, r0, r1;

	r0 = fj_rate_seen(f, m0, busy, mean);
	if (g <= 0)
		return r0;
	r1 = fj_rate_seen(f, m0 + 1, &b1, &q1);
	*busy += g * (b1 - *busy);
	*mean += g * (q1 - *mean);
	return r0 + g * (r1 - r0);
}

/* A request's time through one phase of k operations sent at once: the
 * slowest of the k waits (H(k) times the mean wait, the waits taken
 * exponential) and of the k services (the service plus the longest of k
 * rotational waits beyond a mean one, rp_rot_wait). */
static void fj_phases(struct fj *f)
{
	f->h1 = harmonic(f->r->k1);
	f->rot1 = f->a->trev * (rp_rot_wait(f->w->memo, f->r->k1, 1) - 0.5);
	f->h2 = harmonic(f->r->k2);
	f->rot2 = f->r->k2 > 0 ? f->a->trev * (rp_rot_wait(f->w->memo, f->r->k2, 1) - 0.5) : 0;
}

/* Little's law over the requests with m operations outstanding: the
 * operations a cycle of every request takes, X x (lat + phases), X the
 * disks' operations per ms; *x: X. */
static double fj_ops(struct fj *f, double m, double *x, double *busy, double *mean)
{
	double wait, serv;

	*x = fj_rate(f, m, busy, mean);
	if (!(*x > 0))
		return 0;
	serv = f->n * *busy / *x;      /* a disk's time per operation served */
	wait = fmax(0, m / *x - serv); /* m / X: an operation's time at its disk */
	return *x * (f->lat + f->h1 * wait + serv + f->rot1 +
		     (f->r->k2 > 0 ? f->h2 * wait + serv + f->rot2 : 0));
}

/*
 * Disk operations per ms of q requests in a closed loop over the disks
 * (docs/planning-model.md 2.3): each request sends k1 operations to
 * distinct disks at random and waits for the slowest (a fork-join), a
 * parity write then k2 more. m operations are outstanding at the disks;
 * a request's cycle is the controller's latency and its phases
 * (fj_phase), and Little's law over the q requests gives q ops = X x
 * cycle (fj_ops), solved for m (regula falsi, Illinois).
 */
static double fork_join_solve(const struct rp_geom *g, const struct rp_agg *a,
			      const struct rp_caps *c, const struct rp_wl *w, const struct req *r,
			      double q, double share, struct rp_queue_info *qi);

/* fork_join_solve, remembered in the memo by every input it reads (the
 * same inputs give the same bits); not when the caller wants its terms. */
static double fork_join_rate(const struct rp_geom *g, const struct rp_agg *a,
			     const struct rp_caps *c, const struct rp_wl *w, const struct req *r,
			     double q, double share, struct rp_queue_info *qi)
{
	const double key[RP_FJ_KEYS] = { g->n,	 c->lat,  r->ops,      r->k1,	r->k2,	 r->x,
					 q,	 share,	  a->alpha,    a->beta, a->trev, a->t2t,
					 a->ovh, a->seek, a->inv_rate, a->qlim };
	struct rp_fj_memo *e;
	uint64_t h = 0, bits;

	if (qi || !w->memo)
		return fork_join_solve(g, a, c, w, r, q, share, qi);
	for (int i = 0; i < RP_FJ_KEYS; i++) {
		memcpy(&bits, &key[i], sizeof(bits));
		h = (h ^ bits) * 0x9e3779b97f4a7c15ULL;
	}
	e = &w->memo->fj[(h >> 40) % RP_FJ_SLOTS];
	if (memcmp(e->key, key, sizeof(key))) {
		e->x = fork_join_solve(g, a, c, w, r, q, share, NULL);
		memcpy(e->key, key, sizeof(key));
	}
	return e->x;
}

static double fork_join_solve(const struct rp_geom *g, const struct rp_agg *a,
			      const struct rp_caps *c, const struct rp_wl *w, const struct req *r,
			      double q, double share, struct rp_queue_info *qi)
{
	struct fj f; /* not zeroed whole: fj_tops clears what it uses */
	double want = q * r->ops, lo = 0, hi = want, flo = -want, fhi, m = hi, fm, x, busy, mean;
	int i, side = 0;

	f.a = a;
	f.w = w;
	f.r = r;
	f.n = g->n;
	f.share = share;
	f.lat = c->lat;
	f.next = 0;
	for (i = 0; i < 4; i++)
		f.seen[i].m = -1;
	fj_tops(&f);
	fj_phases(&f);
	fhi = fj_ops(&f, hi, &x, &busy, &mean) - want;
	for (i = 0; i < 100 && fhi > 0 && hi - lo > 1e-9 * want; i++) {
		m = (lo * fhi - hi * flo) / (fhi - flo);
		fm = fj_ops(&f, m, &x, &busy, &mean) - want;
		if (fm > 0) {
			hi = m;
			fhi = fm;
			if (side == 1)
				flo /= 2;
			side = 1;
		} else {
			lo = m;
			flo = fm;
			if (side == -1)
				fhi /= 2;
			side = -1;
		}
		if (fabs(fm) < 1e-12 * want)
			break;
	}
	fj_ops(&f, m, &x, &busy, &mean);
	if (qi) {
		op_ms(a, w, r->x, fmax(1.0, fmin(mean, a->qlim) * share), qi);
		qi->held = m;
		qi->busy = busy;
	}
	return x;
}

/*
 * An upper bound of fork_join_rate, for the search's pruning: each of the n
 * disks busy all the time at the shortest time per operation a queue it can
 * hold gives (a disk holds at most the request's operations times q, at
 * most its queue depth; the SPTF ratio falls as the queue grows, and 1 %
 * off it covers the table's interpolation, below 8e-4 of r, docs 1.8; the
 * ageing term only adds).
 */
static double fork_join_bound(const struct rp_geom *g, const struct rp_agg *a,
			      const struct rp_wl *w, const struct req *r, double q, double share)
{
	double qd = max2(1.0, min2(ceil(q * r->ops), a->qlim) * share);
	double pos1 = a->seek + a->trev / 2.0;
	double ratio = qd > 1 ? rp_sptf_ratio(w->memo, a->alpha, a->beta, a->trev, qd) : 1;

	return g->n /
	       (a->ovh + a->t2t + (pos1 - a->t2t) * ratio * 0.99 + r->x * a->inv_rate * 1e-3);
}

/*
 * IOPS at queue depth q: the smaller of Little's law over the QD1 latency
 * (q / lat1), the disks' throughput with SPTF at their queues, of which
 * share are the drive's to choose among, and the path's caps on the bytes
 * moved. Requests the disks serve mechanically (reads, writes through)
 * land at random and wait for their slowest operation (fork_join_rate);
 * writes a cache takes keep the disks' queues full (the controller's
 * destages at the disks' queue depth; the disks' own at their share).
 */
static double req_iops(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		       const struct rp_wl *w, const struct req *r, double q, double share,
		       int *which, struct rp_queue_info *qi)
{
	double qd = max2(1.0,
			 min2(r->cached ? a->qlim : max2(1.0, q * r->ops / g->n), a->qlim) * share);
	double top, little, thru, best, cw;

	little = q * 1000.0 / r->lat1;
	/* writes the disks' caches take cost them the destage instead */
	cw = r->wops > 0 ? cached_write_ms(a, w, r->x, NULL) : 0;
	if (q > 1 && !r->cached && !(cw > 0) && !a->n_flash) {
		thru = 1000.0 / r->ops *
		       (w->bound ? fork_join_bound(g, a, w, r, q, share)
				 : fork_join_rate(g, a, c, w, r, q, share, qi));
	} else {
		top = op_ms(a, w, r->x, qd, qi);
		if (qi) {
			qi->held = q * r->ops;
			qi->busy = 1;
		}
		thru = g->n * 1000.0 /
		       ((r->ops - (cw > 0 ? r->wops : 0)) * top + (cw > 0 ? r->wops * cw : 0));
	}
	best = min2(little, thru);
	*which = RP_CAP_DISKS;
	if ((r->write ? c->total_w : c->total) > 0) {
		double capped = (r->write ? c->total_w : c->total) * 1e6 / (r->ops * r->x);

		if (capped < best) {
			best = capped;
			*which = r->write ? c->which_w : c->which;
		}
	}
	return best;
}

/*
 * Members lost (docs/planning-model.md 2.5): the per-disk load of random
 * reads (lr) and writes (lw) in the group that lost them, relative to the
 * healthy array. Requests spread evenly over the groups, so that group is
 * the bottleneck: the array's random figures divide by the load. wops:
 * a healthy write's disk operations per chunk written.
 */
static void degraded_load(const struct rp_geom *g, unsigned f, double wops, double *lr, double *lw)
{
	double gs = g->gsize, p = g->parity, d = g->copies, cw;

	*lr = *lw = 1;
	if (is_mirror(g->level)) {
		/* f of the d copies (a mirror set, a 0+1 stripe set each) are
		 * down: the others serve the reads; writes go to fewer disks */
		*lr = d / (d - f);
		return;
	}
	if (!is_parity(g->level))
		return;
	/* a read of a lost chunk reads gs - p others; f of gs members down */
	*lr = ((gs - f) + f * (gs - p)) / (gs - f);
	if (f == 1) {
		/* the written chunk lost: read the other data, write the parity
		 * (gs - 1 operations); a parity chunk lost: write what is left
		 * (data only for RAID 5; RAID 6 read-modify-writes the other
		 * parity, 4); else read-modify-write, 2 (1 + p) */
		cw = (gs - 1) / gs + p / gs * (p == 1 ? 1 : 4) + (gs - 1 - p) / gs * 2 * (1 + p);
	} else {
		/* two lost: reconstruct-write the stripe, gs - 2 operations */
		cw = gs - 2;
	}
	*lw = (cw / (gs - f)) / (wops / gs);
	if (*lw < 1)
		*lw = 1;
}

/* The degraded, rebuilding and cached-burst figures. */
static void degraded(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		     struct rp_numbers *o, double tol, double tau1, double tau2)
{
	double pos1 = a->seek + a->trev / 2.0;

	o->deg1 = tol >= 1 ? 1 / tau1 : NAN;
	o->deg2 = tol >= 2 ? 1 / tau2 : NAN;
	/* md resyncs at sync_speed_min while the array is busy: 64 KiB
	 * requests, each a seek away from the workload's */
	o->rb_share = RP_MD_SYNC_MIN_BPS / RP_MD_RESYNC_IO *
		      (a->ovh + pos1 + RP_MD_RESYNC_IO * a->inv_rate * 1e-3) / 1000.0;
	o->rb_iops = tol >= 1 ? o->deg1 * fmax(0, 1 - o->rb_share) : NAN;
	o->rb_loaded_h = tol >= 1 ? a->used / RP_MD_SYNC_MIN_BPS / 3600.0 : NAN;
	o->burst = o->burst_s = NAN;
	if (c->cache_mb > 0) {
		double rate = c->cache_mbps > 0 ? c->cache_mbps : c->total_w;

		if (rate > 0 && c->total_w > 0)
			rate = fmin(rate, c->total_w);
		o->burst = rate > 0 ? rate : NAN;
		/* until the cache is full: it fills at burst - the sustained rate */
		o->burst_s = rate > o->seq[2] ? c->cache_mb / (rate - o->seq[2]) : INFINITY;
	}
}

static double seq_cap(double raw, double cap_total, int which, int *out)
{
	*out = RP_CAP_DISKS;
	if (cap_total > 0 && cap_total < raw) {
		*out = which;
		return cap_total;
	}
	return raw;
}

/*
 * Sequential writes of members streaming at rate MB/s (after the
 * controller's efficiency): streams x rate, or, on a parity level whose
 * controller does not assemble full stripes (docs/planning-model.md 2.6),
 * a read-modify-write of every chunk: its 1 + P members read the chunk and
 * write it back when it comes round again, a revolution after the read
 * began (x = chunk / rate: max(rev, x) + x), n / (1 + P) chunks at once.
 */
static double seq_write_rate(const struct rp_geom *g, const struct rp_agg *a,
			     const struct rp_caps *c, double streams, double rate)
{
	double x, t;

	if (!c->rmw || !is_parity(g->level))
		return streams * rate;
	x = g->chunk / (rate * 1e3);
	t = fmax(a->trev, x) + x;
	return fmin(streams * rate, g->n / (1.0 + g->parity) * g->chunk / t / 1e3);
}

/* full: every figure; else only what mixed and access need (the search's
 * summary pass), computed by the same operations in the same order. */
static void speed(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		  const struct rp_wl *w, struct rp_numbers *o, bool full)
{
	double pg = (double)g->parity * g->groups;
	double wcap, t_r1 = 0, t_rq = 0, t_w1 = 0, t_wq = 0, tau = 0, tau1 = 0, tau2 = 0;
	double tol = rp_level_tolerated(g);
	unsigned i;
	int which;

	o->usable = g->ndata * a->used;
	if (is_mirror(g->level)) {
		o->streams_r = o->streams_w = g->n / (double)g->copies;
		o->amp_w = g->copies;
	} else if (is_parity(g->level)) {
		o->streams_r = o->streams_w = g->n - pg;
		o->amp_w = g->n / (g->n - pg);
	} else {
		o->streams_r = o->streams_w = g->n;
		o->amp_w = 1;
	}
	wcap = c->total_w > 0 ? c->total_w / o->amp_w : 0;
	if (full) {
		o->seq_raw[0] = o->streams_r * (a->rs_min * c->eff);
		o->seq_raw[1] = o->streams_r * (a->re_min * c->eff);
		o->seq_raw[2] = seq_write_rate(g, a, c, o->streams_w, a->rs_min * c->eff);
		o->seq_raw[3] = seq_write_rate(g, a, c, o->streams_w, a->re_min * c->eff);
		o->seq[0] = seq_cap(o->seq_raw[0], c->total, c->which, &o->seq_cap[0]);
		o->seq[1] = seq_cap(o->seq_raw[1], c->total, c->which, &o->seq_cap[1]);
		o->seq[2] = seq_cap(o->seq_raw[2], wcap, c->which_w, &o->seq_cap[2]);
		o->seq[3] = seq_cap(o->seq_raw[3], wcap, c->which_w, &o->seq_cap[3]);
	}
	o->seq_mid_r = seq_cap(o->streams_r * (a->rh_min * c->eff), c->total, c->which, &which);
	o->seq_mid_w = seq_cap(seq_write_rate(g, a, c, o->streams_w, a->rh_min * c->eff), wcap,
			       c->which_w, &which);

	o->pos1 = a->seek + a->trev / 2.0;
	o->access = 0;
	o->m1 = o->ops_w1 = 0;
	o->rnd_cap = RP_CAP_DISKS;
	o->chunk_small_share = 0;
	for (i = 0; i < w->n; i++) {
		struct req rd, wr;
		double sh = w->share[i], s = w->bytes[i];
		double rr1 = 0, rrq, rw1 = 0, rwq, rrm, rwm;

		if (sh <= 0)
			continue;
		req_read(g, a, c, w, s, &rd);
		req_write(g, a, c, w, s, &wr);
		if (full)
			rr1 = req_iops(g, a, c, w, &rd, 1, 1, &which, NULL);
		rrq = req_iops(g, a, c, w, &rd, w->qd, 1, &which, full && !i ? &o->qi : NULL);
		if (which != RP_CAP_DISKS && w->read > 0 && w->rnd > 0)
			o->rnd_cap = which;
		if (full)
			rw1 = req_iops(g, a, c, w, &wr, 1, 1, &which, NULL);
		rwq = req_iops(g, a, c, w, &wr, w->qd, 1, &which, NULL);
		if (full && !i)
			cached_write_ms(a, w, wr.x, &o->ci);
		if (which != RP_CAP_DISKS && w->read < 1 && w->rnd > 0)
			o->rnd_cap = which;
		/* in a mix, the sequential requests queued are not the drive's to
		 * choose (each follows the one it continues): it chooses among the
		 * random share of the queue */
		rrm = rrq;
		rwm = rwq;
		if (w->rnd > 0 && w->rnd < 1 && w->qd > 1) {
			rrm = req_iops(g, a, c, w, &rd, w->qd, w->rnd, &which, NULL);
			rwm = req_iops(g, a, c, w, &wr, w->qd, w->rnd, &which, NULL);
		}
		if (full) {
			t_r1 += sh / rr1;
			t_w1 += sh / rw1;
		}
		t_rq += sh / rrq;
		t_wq += sh / rwq;
		o->access += sh * (w->read * rd.lat1 + (1 - w->read) * wr.lat1);
		o->m1 += sh * rd.m;
		o->ops_w1 += sh * wr.ops;
		tau += sh * (w->rnd * (w->read / rrm + (1 - w->read) / rwm) +
			     (1 - w->rnd) * (w->read * s / (o->seq_mid_r * 1e6) +
					     (1 - w->read) * s / (o->seq_mid_w * 1e6)));
		if (full && tol >= 1) {
			/* members lost: the random part's per-disk load grows in the
			 * bottleneck group (degraded_load); sequential streams keep
			 * their rate */
			double seq = (1 - w->rnd) * (w->read * s / (o->seq_mid_r * 1e6) +
						     (1 - w->read) * s / (o->seq_mid_w * 1e6));

			degraded_load(g, 1, wr.ops / wr.m, &o->load_r1, &o->load_w1);
			tau1 += sh * (w->rnd * (w->read * o->load_r1 / rrm +
						(1 - w->read) * o->load_w1 / rwm) +
				      seq);
			if (tol >= 2) {
				degraded_load(g, 2, wr.ops / wr.m, &o->load_r2, &o->load_w2);
				tau2 += sh * (w->rnd * (w->read * o->load_r2 / rrm +
							(1 - w->read) * o->load_w2 / rwm) +
					      seq);
			}
		}
		/* a sequential request that spans chunks streams from several
		 * disks, as it should: only random ones are counted */
		if (s > g->chunk && w->rnd > 0)
			o->chunk_small_share += sh;
	}
	o->rr1 = full ? 1 / t_r1 : 0;
	o->rrq = 1 / t_rq;
	o->rw1 = full ? 1 / t_w1 : 0;
	o->rwq = 1 / t_wq;
	o->mixed = 1 / tau;
	if (full)
		degraded(g, a, c, o, tol, tau1, tau2);
}

void rp_numbers_speed(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		      const struct rp_wl *w, struct rp_numbers *o)
{
	speed(g, a, c, w, o, true);
}

void rp_numbers_mixed(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		      const struct rp_wl *w, struct rp_numbers *o)
{
	speed(g, a, c, w, o, false);
}

/* ln of a mirror set's MTTDL: D copies, serial repair: MTTF^D / (D! MTTR^(D-1)). */
static double ln_mirror(double mttf, double mttr, double d)
{
	return d * log(mttf) - lgam(d + 1.0) - (d - 1.0) * log(mttr);
}

static int band_of(double p)
{
	return p > RP_RISK_HIGH_P ? 2 : p > RP_RISK_MEDIUM_P ? 1 : 0;
}

/* The risk bands (docs/planning-model.md 3.1): the parity group's width,
 * an unrecoverable read error in a rebuild with no redundancy left, and
 * data loss within the service life; the layout's band is the highest. */
static void risk(const struct rp_geom *g, struct rp_numbers *o)
{
	unsigned gs = g->gsize;

	o->risk_width = 0;
	if (g->parity == 1)
		o->risk_width = gs > RP_RAID5_WIDE ? 1 : 0;
	else if (g->parity == 2)
		o->risk_width = gs > RP_RAID6_WIDE ? 2 : gs > RP_RAID6_MEDIUM ? 1 : 0;
	o->risk_ure = isfinite(o->ure_p) && o->ure_left <= 0 ? band_of(o->ure_p) : 0;
	o->p_loss_life = -expm1(-RP_SERVICE_LIFE_H / o->mttdl_h);
	o->risk_mttdl = band_of(o->p_loss_life);
	o->risk = o->risk_width;
	if (o->risk_ure > o->risk)
		o->risk = o->risk_ure;
	if (o->risk_mttdl > o->risk)
		o->risk = o->risk_mttdl;
}

void rp_numbers_safety(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		       struct rp_numbers *o)
{
	double n = g->n, mttf, mttr, ln = 0, readers = 1, parts = 2, rate;

	o->tolerated = rp_level_tolerated(g);
	o->mttf_h = mttf = 1.0 / a->inv_mttf;
	if (g->level == RP_LEVEL_0) {
		o->rebuild_h = o->rebuild_rate = NAN;
		o->mttr_h = g->replace_h;
		o->mttdl_h = mttf / n;
		o->ure_bits = 0;
		o->ure_p = NAN;
		o->ure_left = 0;
		risk(g, o);
		return;
	}
	if (is_parity(g->level)) {
		readers = g->gsize - 1;
		parts = g->gsize;
		o->ure_left = g->parity - 1;
	} else {
		o->ure_left = g->copies - 2.0;
	}
	rate = fmin(a->rh_min, g->rebuild_mbps);
	if (c->total > 0)
		rate = fmin(rate, c->total / parts);
	if (c->total_w > 0)
		rate = fmin(rate, c->total_w); /* the new member is written at the rate */
	o->rebuild_rate = rate;
	o->rebuild_h = a->used / (rate * 1e6) / 3600.0;
	o->mttr_h = mttr = g->replace_h + o->rebuild_h;

	switch (g->level) {
	case RP_LEVEL_1:
		ln = ln_mirror(mttf, mttr, g->copies);
		break;
	case RP_LEVEL_10:
		ln = ln_mirror(mttf, mttr, g->copies) - log(n / g->copies);
		break;
	case RP_LEVEL_01: {
		/* derived: MTTF^D / (N (D-1)! w^(D-1) MTTR^(D-1)), w = N/D */
		double d = g->copies, wd = n / d;

		ln = d * log(mttf) - log(n) - lgam(d) - (d - 1) * log(wd) - (d - 1) * log(mttr);
		break;
	}
	case RP_LEVEL_5:
	case RP_LEVEL_50: {
		double gs = g->gsize;

		ln = 2 * log(mttf) - log(gs * (gs - 1)) - log(mttr) - log((double)g->groups);
		break;
	}
	case RP_LEVEL_6:
	case RP_LEVEL_60: {
		double gs = g->gsize;

		ln = 3 * log(mttf) - log(gs * (gs - 1) * (gs - 2)) - 2 * log(mttr) -
		     log((double)g->groups);
		break;
	}
	}
	o->mttdl_h = exp(fmin(ln, log(1e300)));
	o->ure_bits = 8.0 * a->used * readers;
	/* 1 - (1 - p)^B, computed without cancellation */
	o->ure_p = -expm1(o->ure_bits * log1p(-a->ure));
	risk(g, o);
}

void rp_numbers(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
		const struct rp_wl *w, struct rp_numbers *o)
{
	memset(o, 0, sizeof(*o));
	rp_numbers_speed(g, a, c, w, o);
	rp_numbers_safety(g, a, c, o);
}
