/* disk.c - one disk's mechanics: defaults, seek curve, zone bit recording. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "raidplan/raidplan_priv.h"

#define GB 1e9
#define TB 1e12

/* Datasheet-style figures by rpm class (docs/planning-model.md). */
struct rpm_class {
	double rpm;
	double t2t, avg, full; /* ms */
	double k;	       /* inner / outer rate */
	double cap_step[3];    /* capacity thresholds, bytes */
	double outer[4];       /* outer MB/s below each threshold, and above */
	bool enterprise;
};

static const struct rpm_class classes[] = {
	{ 15000, 0.2, 3.4, 6.6, 0.6, { 200 * GB, 500 * GB, 1e30 }, { 125, 160, 200, 200 }, true },
	{ 10000, 0.3, 4.0, 7.5, 0.6, { 300 * GB, 1 * TB, 1e30 }, { 130, 170, 220, 220 }, true },
	{ 7200, 0.8, 8.5, 16.0, 0.5, { 500 * GB, 2 * TB, 8 * TB }, { 100, 150, 200, 250 }, false },
	{ 5400, 1.0, 12.0, 22.0, 0.5, { 1 * TB, 4 * TB, 1e30 }, { 100, 150, 180, 180 }, false },
};

#define N_CLASSES (sizeof(classes) / sizeof(classes[0]))

static const struct rpm_class *class_of(double rpm)
{
	const struct rpm_class *best = &classes[0];
	size_t i;

	for (i = 1; i < N_CLASSES; i++)
		if (fabs(classes[i].rpm - rpm) < fabs(best->rpm - rpm))
			best = &classes[i];
	return best;
}

static double default_outer(const struct rpm_class *c, double cap)
{
	int i;

	for (i = 0; i < 3; i++)
		if (cap < c->cap_step[i])
			return c->outer[i];
	return c->outer[3];
}

/*
 * Fit t(x) = T + a x + b sqrt(x) to track-to-track T, average A, full F
 * (docs/models.md, derived): the all-pairs average has E[x] = 1/3,
 * E[sqrt x] = 8/15, so A = T + a/3 + 8b/15 and F = T + a + b.
 * Falls back when a < 0 (a = 0, b = 15(A-T)/8: keeps A, gives up F) and
 * when b < 0 (b = 0, a = 3(A-T): keeps A, a linear curve).
 */
void rp_seek_fit(double t, double avg, double full, double *a, double *b, bool *fallback)
{
	*a = (8.0 / 3.0) * full - 5.0 * avg + (7.0 / 3.0) * t;
	*b = 5.0 * avg - (5.0 / 3.0) * full - (10.0 / 3.0) * t;
	*fallback = false;
	if (*a < 0) {
		*a = 0;
		*b = 15.0 * (avg - t) / 8.0;
		*fallback = true;
	} else if (*b < 0) {
		*b = 0;
		*a = 3.0 * (avg - t);
		*fallback = true;
	}
}

/* Piecewise-linear y(x) through pts, flat beyond the ends. */
static double curve_at(const struct rp_xy *p, unsigned n, double x)
{
	unsigned i;

	if (x <= p[0].x)
		return p[0].y;
	for (i = 1; i < n; i++) {
		if (x <= p[i].x) {
			double w = (x - p[i - 1].x) / (p[i].x - p[i - 1].x);

			return p[i - 1].y + w * (p[i].y - p[i - 1].y);
		}
	}
	return p[n - 1].y;
}

#define NQUAD 64

/*
 * Average seek between two random points of an outer band spanning a
 * fraction f of the full stroke. The distance u (in units of the band)
 * has density 2(1-u) (docs/models.md); for the fit the integral is closed:
 * T + a f/3 + (8/15) b sqrt(f).
 */
double rp_seek_band(const struct rp_dmodel *m, double f)
{
	double s = 0;
	int i;

	if (f <= 0)
		return m->t2t;
	if (f > 1)
		f = 1;
	if (!m->n_seek)
		return m->t2t + m->seek_a * f / 3.0 + (8.0 / 15.0) * m->seek_b * sqrt(f);
	for (i = 0; i < NQUAD; i++) {
		double u = (i + 0.5) / NQUAD;

		s += 2.0 * (1.0 - u) * curve_at(m->seek, m->n_seek, f * u);
	}
	return s / NQUAD;
}

/*
 * Stroke fraction s needed for capacity fraction c (docs/models.md):
 * s = (1 - sqrt(1 - c(1-k^2))) / (1 - k), written as
 * c (1 + k) / (1 + sqrt(1 - c(1-k^2))) so that k = 1 needs no division by 0.
 */
double rp_zbr_stroke(double c, double k)
{
	double beta = 1.0 - k * k;

	return c * (1.0 + k) / (1.0 + sqrt(1.0 - c * beta));
}

/*
 * The band's seek beyond T as alpha u + beta sqrt(u), u the distance in
 * units of the band's radial width f (docs/planning-model.md, 1.8): for the
 * fit, alpha = a f and beta = b sqrt(f) exactly; for a measured curve, the
 * fit of 1.3 to the band's own average (b->seek) and full-width seek.
 */
static void band_fit(const struct rp_dmodel *m, struct rp_band *b)
{
	double f = b->sigma > 1 ? 1 : b->sigma;
	bool fallback;

	if (f <= 0) {
		b->alpha = b->beta = 0;
		return;
	}
	if (!m->n_seek) {
		b->alpha = m->seek_a * f;
		b->beta = m->seek_b * sqrt(f);
		return;
	}
	rp_seek_fit(m->t2t, fmax(b->seek, m->t2t), fmax(curve_at(m->seek, m->n_seek, f), b->seek),
		    &b->alpha, &b->beta, &fallback);
	b->alpha = fmax(b->alpha, 0);
	b->beta = fmax(b->beta, 0);
}

void rp_dmodel_band(const struct rp_dmodel *m, double c, struct rp_band *b)
{
	if (c < 0)
		c = 0;
	if (c > 1)
		c = 1;
	if (!m->n_zone) {
		double root = sqrt(1.0 - c * (1.0 - m->k * m->k));

		b->sigma = rp_zbr_stroke(c, m->k);
		b->rate_start = m->ro;
		/* docs/models.md: Rmax (1 - s(1-k)) = Rmax sqrt(1 - c(1-k^2)) */
		b->rate_end = m->ro * root;
		/* derived: rate(c') = Ro sqrt(1 - c' beta); the harmonic mean
		 * over [0, c] works out to the mean of both edges. */
		b->rate_h = m->ro * (1.0 + root) / 2.0;
	} else {
		double r1 = curve_at(m->zone, m->n_zone, 1.0);
		double inv = 0;
		int i;

		b->rate_start = m->ro;
		b->rate_end = curve_at(m->zone, m->n_zone, c);
		/* rate is proportional to radius at constant linear density */
		if (m->ro - r1 > 1e-9 * m->ro)
			b->sigma = (m->ro - b->rate_end) / (m->ro - r1);
		else
			b->sigma = c;
		if (c <= 0) {
			b->rate_h = m->ro;
		} else {
			for (i = 0; i < NQUAD; i++)
				inv += 1.0 / curve_at(m->zone, m->n_zone, c * (i + 0.5) / NQUAD);
			b->rate_h = NQUAD / inv;
		}
	}
	b->seek = rp_seek_band(m, b->sigma);
	band_fit(m, b);
}

static size_t memo_slot(double a, double b)
{
	uint64_t x, y;

	memcpy(&x, &a, sizeof(x));
	memcpy(&y, &b, sizeof(y));
	x = (x ^ (y * 0xff51afd7ed558ccdULL)) * 0x9e3779b97f4a7c15ULL;
	return (size_t)(x >> 40) % RP_MEMO_SLOTS;
}

struct rp_memo *rp_memo_new(void)
{
	struct rp_memo *m = malloc(sizeof(*m));
	size_t i;

	if (!m)
		return NULL;
	memset(m, 0, sizeof(*m));
	for (i = 0; i < RP_MEMO_SLOTS; i++)
		m->rot[i].m = NAN; /* equal to nothing */
	return m;
}

/*
 * Expected wait, in revolutions, for the slowest of m independent disks
 * when each may read the nearest of D copies (derived): with the nearest
 * copy's wait distributed as min of D uniforms, E[max of m] =
 * 1 - Int_0^1 (1 - u^D)^m du = 1 - B(1/D, m+1) / D. D = 1 gives
 * docs/models.md's m/(m+1), m = 1 gives 1/(D+1). Real m interpolates.
 */
static double rot_wait_copies(double m, double copies)
{
	double inv, lb;
	int s1, s2, s3;

	inv = 1.0 / copies;
	lb = lgamma_r(inv, &s1) + lgamma_r(m + 1.0, &s2) - lgamma_r(m + 1.0 + inv, &s3);
	return 1.0 - exp(lb) * inv;
}

double rp_rot_wait(struct rp_memo *memo, double m, double copies)
{
	size_t i;

	if (m <= 0)
		return 0;
	if (copies <= 1)
		return m / (m + 1.0);
	if (!memo)
		return rot_wait_copies(m, copies);
	i = memo_slot(m, copies);
	if (memo->rot[i].m != m || memo->rot[i].copies != copies) {
		memo->rot[i].m = m;
		memo->rot[i].copies = copies;
		memo->rot[i].v = rot_wait_copies(m, copies);
	}
	return memo->rot[i].v;
}

/* The caller's curve of n points read into pts (checked there, before the
 * model smooths it). */
static int read_curve(const struct rp_point *p, size_t n, bool zero_ok, double ymax,
		      const char *what, size_t idx, struct rp_xy *pts, struct rp_error *err)
{
	size_t i;
	int rc;

	if (!p)
		return rp_err(err, -EINVAL, "disk %zu: %s has %zu points but no data", idx, what,
			      n);
	if (n > RP_CURVE_MAX)
		return rp_err(err, -E2BIG, "disk %zu: %s has %zu points, at most %d are taken", idx,
			      what, n, RP_CURVE_MAX);
	if ((rc = rp_in_points(p, n, pts, what, idx, err)))
		return rc;
	for (i = 0; i < n; i++) {
		if (!rp_in(pts[i].x, 0, 1) || (!zero_ok && pts[i].x <= 0))
			return rp_err(err, -EINVAL, "disk %zu: %s point %zu: x must be in %s1]",
				      idx, what, i, zero_ok ? "[0, " : "(0, ");
		if (i && !(pts[i].x > pts[i - 1].x))
			return rp_err(err, -EINVAL,
				      "disk %zu: %s point %zu: x must increase from point to point",
				      idx, what, i);
		if (!rp_in(pts[i].y, 0, ymax) || pts[i].y <= 0)
			return rp_err(err, -EINVAL,
				      "disk %zu: %s point %zu: value must be in (0, %g]", idx, what,
				      i, ymax);
	}
	return 0;
}

/* A field that is 0 ("default") or inside (0, hi]. */
static int check_opt(double v, double hi, const char *what, size_t idx, struct rp_error *err)
{
	if (v == 0)
		return 0;
	if (!rp_in(v, 0, hi) || v < 0)
		return rp_err(err, -EINVAL, "disk %zu: %s %g must be 0 (default) or in (0, %g]",
			      idx, what, v, hi);
	return 0;
}

static int build_seek(const struct rp_disk *d, size_t idx, const struct rpm_class *cl,
		      struct rp_dmodel *m, struct rp_error *err)
{
	int rc;
	size_t i;

	if (d->n_seek_curve) {
		rc = read_curve(d->seek_curve, d->n_seek_curve, false, 1000, "seek curve", idx,
				m->seek, err);
		if (rc)
			return rc;
		m->n_seek = (unsigned)d->n_seek_curve;
		for (i = 1; i < d->n_seek_curve; i++) {
			/* seek time never falls with distance: smooth noise */
			if (m->seek[i].y < m->seek[i - 1].y)
				m->seek[i].y = m->seek[i - 1].y;
		}
		m->t2t = m->seek[0].y;
		m->seek_full = m->seek[m->n_seek - 1].y;
		m->seek_avg = rp_seek_band(m, 1.0);
		return 0;
	}
	m->t2t = d->seek_t2t_ms ? d->seek_t2t_ms : cl->t2t;
	m->seek_avg = d->seek_avg_ms ? d->seek_avg_ms : cl->avg;
	m->seek_full = d->seek_full_ms ? d->seek_full_ms : cl->full;
	if (!d->seek_t2t_ms || !d->seek_avg_ms || !d->seek_full_ms)
		m->defaults |= RP_DEF_SEEK;
	if (m->seek_avg < m->t2t)
		return rp_err(
		    err, -EINVAL,
		    "disk %zu: average seek %g ms is below the track-to-track seek %g ms%s", idx,
		    m->seek_avg, m->t2t,
		    d->seek_t2t_ms ? "" : " (a default: give the track-to-track seek)");
	if (m->seek_full < m->seek_avg)
		return rp_err(err, -EINVAL,
			      "disk %zu: full-stroke seek %g ms is below the average seek %g ms%s",
			      idx, m->seek_full, m->seek_avg,
			      d->seek_full_ms ? "" : " (a default: give the full-stroke seek)");
	rp_seek_fit(m->t2t, m->seek_avg, m->seek_full, &m->seek_a, &m->seek_b, &m->seek_fallback);
	return 0;
}

static int build_rate(const struct rp_disk *d, size_t idx, const struct rpm_class *cl,
		      struct rp_dmodel *m, struct rp_error *err)
{
	int rc;
	size_t i;

	if (d->n_zone_profile) {
		rc = read_curve(d->zone_profile, d->n_zone_profile, true, 100000, "zone profile",
				idx, m->zone, err);
		if (rc)
			return rc;
		m->n_zone = (unsigned)d->n_zone_profile;
		for (i = 1; i < d->n_zone_profile; i++) {
			/* outer zones are never slower: smooth noise */
			if (m->zone[i].y > m->zone[i - 1].y)
				m->zone[i].y = m->zone[i - 1].y;
		}
		m->ro = m->zone[0].y;
		m->k = curve_at(m->zone, m->n_zone, 1.0) / m->ro;
		return 0;
	}
	if ((rc = check_opt(d->outer_mbps, 100000, "outer rate (MB/s)", idx, err)) ||
	    (rc = check_opt(d->inner_mbps, 100000, "inner rate (MB/s)", idx, err)))
		return rc;
	if (d->outer_mbps && d->inner_mbps) {
		if (d->inner_mbps > d->outer_mbps)
			return rp_err(err, -EINVAL,
				      "disk %zu: inner rate %g MB/s exceeds the outer rate %g MB/s",
				      idx, d->inner_mbps, d->outer_mbps);
		m->ro = d->outer_mbps;
		m->k = d->inner_mbps / d->outer_mbps;
		return 0;
	}
	m->defaults |= RP_DEF_RATE;
	m->k = cl->k;
	if (d->outer_mbps)
		m->ro = d->outer_mbps;
	else if (d->inner_mbps)
		m->ro = d->inner_mbps / cl->k;
	else
		m->ro = default_outer(cl, m->cap);
	return 0;
}

/* Queue depth, write cache and zones (docs/planning-model.md, 1.1, 1.8). */
static int build_queue(const struct rp_disk *d, size_t idx, const struct rpm_class *cl,
		       struct rp_dmodel *m, struct rp_error *err)
{
	if (d->queue_depth > RP_MAX_QUEUE)
		return rp_err(err, -EINVAL,
			      "disk %zu: queue depth %u must be 0 (by class) or 1 .. %u", idx,
			      d->queue_depth, RP_MAX_QUEUE);
	m->qdepth = d->queue_depth   ? d->queue_depth
		    : cl->enterprise ? RP_QUEUE_ENTERPRISE
				     : RP_QUEUE_DESKTOP;
	if (!d->queue_depth)
		m->defaults |= RP_DEF_QUEUE;
	if (d->write_cache < RP_WCACHE_DEFAULT || d->write_cache > RP_WCACHE_OFF)
		return rp_err(err, -EINVAL,
			      "disk %zu: write cache %d: use 0 (by class), 1 (on) or 2 (off)", idx,
			      d->write_cache);
	m->wcache = d->write_cache == RP_WCACHE_DEFAULT ? !cl->enterprise
							: d->write_cache == RP_WCACHE_ON;
	if (d->write_cache == RP_WCACHE_DEFAULT)
		m->defaults |= RP_DEF_WCACHE;
	m->cache_mb = d->cache_mb ? d->cache_mb : RP_DEF_DISK_CACHE_MB;
	if (d->zoned < RP_ZONED_NONE || d->zoned > RP_ZONED_HOST_MANAGED)
		return rp_err(err, -EINVAL,
			      "disk %zu: zone model %d: use 0 (none), 1 (host-aware) or 2 "
			      "(host-managed)",
			      idx, d->zoned);
	m->zoned = d->zoned;
	if (d->zone_bytes && (d->zone_bytes < 4096 || (double)d->zone_bytes > m->cap))
		return rp_err(
		    err, -EINVAL,
		    "disk %zu: zone size %llu bytes must be 0 (not zoned) or 4 KiB .. the "
		    "capacity",
		    idx, (unsigned long long)d->zone_bytes);
	m->zone_b = (double)d->zone_bytes;
	if (d->reserved)
		return rp_err(err, -EINVAL, "disk %zu: reserved field is %u: it must be 0", idx,
			      d->reserved);
	return 0;
}

/* A flash drive (docs/flash.md): no seek, no rotation; its sequential rate
 * the dies' reads (a multi-plane page each) up to its link; a page read for
 * each random read; its writes priced by rp_flash_write_unit_ms. */
static int build_flash(const struct rp_disk *d, size_t idx, struct rp_dmodel *m,
		       struct rp_error *err)
{
	struct rp_flash *f = &m->fl;
	int rc;

	rp_flash_init(f);
	if ((rc = rp_in_flash(d->flash, f, err)))
		return rp_err(err, rc, "disk %zu: %s", idx, err ? err->msg : "");
	if (f->reserved)
		return rp_err(err, -EINVAL, "disk %zu: flash: reserved field is %u: it must be 0",
			      idx, f->reserved);
	if (!(f->spare >= 0 && f->spare <= 4 && f->dies >= 0 && f->dies <= 1024 && f->planes >= 0 &&
	      f->planes <= 8 && f->page_kib >= 0 && f->page_kib <= 64 && f->block_pages >= 0 &&
	      f->block_pages <= 65536 && f->read_us >= 0 && f->read_us <= 1e4 &&
	      f->program_us >= 0 && f->program_us <= 1e5 && f->erase_ms >= 0 &&
	      f->erase_ms <= 1e3 && f->command_us >= 0 && f->command_us <= 1e5 &&
	      f->link_mbps >= 0 && f->link_mbps <= 1e6))
		return rp_err(err, -EINVAL,
			      "disk %zu: flash: a figure out of range (spare 0..4, dies 0..1024, "
			      "planes 0..8, page 0..64 KiB, block 0..65536 pages, read 0..10000 "
			      "us, program 0..100000 us, erase 0..1000 ms; 0: the default)",
			      idx);
	rp_flash_defaults(f);
	m->flash = true;
	m->fl_spare = f->spare;
	m->fl_read_ms = f->read_us / 1e3;
	m->rpm = 0;
	m->trev = 0;
	m->t2t = m->seek_a = m->seek_b = m->seek_avg = m->seek_full = 0;
	m->k = 1;
	m->iface = d->link_mbps ? d->link_mbps : f->link_mbps;
	m->ro = fmin(f->dies * f->page_kib * f->planes * 1.024 / f->read_us * 1e3, m->iface);
	m->ovh = d->overhead_ms ? d->overhead_ms : f->command_us / 1e3;
	/* a client SSD's figures (assumptions: docs/flash.md) */
	m->mttf = d->mttf_hours ? d->mttf_hours : 1.5e6;
	m->ure = d->ure_per_bit ? d->ure_per_bit : 1e-15;
	m->qdepth = d->queue_depth ? d->queue_depth : RP_QUEUE_DESKTOP;
	m->wcache = d->write_cache != RP_WCACHE_OFF;
	m->cache_mb = d->cache_mb ? d->cache_mb : RP_DEF_DISK_CACHE_MB;
	if (d->zoned != RP_ZONED_NONE || d->zone_bytes)
		return rp_err(err, -EINVAL, "disk %zu: a zoned flash drive is not modelled", idx);
	return 0;
}

int rp_dmodel_build(const struct rp_disk *d, size_t idx, const struct rp_path *path,
		    struct rp_dmodel *m, struct rp_error *err)
{
	const struct rpm_class *cl;
	double cap = (double)d->capacity;
	int rc;

	memset(m, 0, sizeof(*m));
	if (!rp_in(cap, RP_MIN_CAPACITY, RP_MAX_CAPACITY))
		return rp_err(err, -EINVAL,
			      "disk %zu: capacity %llu bytes is outside 64 KiB .. 1 EiB", idx,
			      (unsigned long long)d->capacity);
	m->cap = cap;
	if (d->flash) {
		if ((rc = build_flash(d, idx, m, err)))
			return rc;
		goto link;
	}
	if (d->rpm != 0 && !rp_in(d->rpm, 3600, 20000))
		return rp_err(err, -EINVAL,
			      "disk %zu: %g rpm is not a spinning disk's speed (0: 7200 assumed, "
			      "or 3600..20000)",
			      idx, d->rpm);
	m->rpm = d->rpm ? d->rpm : 7200;
	if (!d->rpm)
		m->defaults |= RP_DEF_RPM;
	m->trev = 60000.0 / m->rpm;
	cl = class_of(m->rpm);

	if ((rc = check_opt(d->seek_t2t_ms, 1000, "track-to-track seek (ms)", idx, err)) ||
	    (rc = check_opt(d->seek_avg_ms, 1000, "average seek (ms)", idx, err)) ||
	    (rc = check_opt(d->seek_full_ms, 1000, "full-stroke seek (ms)", idx, err)) ||
	    (rc = check_opt(d->cache_mb, 1e6, "cache (MB)", idx, err)) ||
	    (rc = check_opt(d->link_mbps, 1e6, "link rate (MB/s)", idx, err)) ||
	    (rc = check_opt(d->overhead_ms, 100, "overhead (ms)", idx, err)) ||
	    (rc = check_opt(d->mttf_hours, 1e9, "MTTF (hours)", idx, err)) ||
	    (rc = check_opt(d->ure_per_bit, 1e-3, "URE rate (per bit)", idx, err)))
		return rc;
	if ((rc = build_seek(d, idx, cl, m, err)) || (rc = build_rate(d, idx, cl, m, err)))
		return rc;
	m->ovh = d->overhead_ms	  ? d->overhead_ms
		 : cl->enterprise ? RP_DEF_OVERHEAD_ENT_MS
				  : RP_DEF_OVERHEAD_DESK_MS;
	if (!d->overhead_ms)
		m->defaults |= RP_DEF_OVERHEAD;
	m->iface = d->link_mbps;
	m->mttf = d->mttf_hours ? d->mttf_hours : (cl->enterprise ? 1.0e6 : 5.0e5);
	if (!d->mttf_hours)
		m->defaults |= RP_DEF_MTTF;
	m->ure = d->ure_per_bit ? d->ure_per_bit : (cl->enterprise ? 1e-15 : 1e-14);
	if (!d->ure_per_bit)
		m->defaults |= RP_DEF_URE;
	if ((rc = build_queue(d, idx, cl, m, err)))
		return rc;
link:
	if (d->shared_link) {
		size_t nl = path ? path->n_links : 0;

		if (d->shared_link > nl)
			return rp_err(err, -EINVAL,
				      "disk %zu: shared link %u does not exist (the path has %zu)",
				      idx, d->shared_link, nl);
		m->link = d->shared_link;
	}
	return 0;
}
