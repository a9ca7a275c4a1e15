/* zprofile.c - the zone-bit-recording profile: sample the sequential read
 * rate across the disk, find the zones from the steps in the curve, and
 * list where a short-stroke limit could cut.
 *
 * Sampling: point i starts at LBA i x (capacity - sample) / (n - 1),
 * rounded down to 1 MiB. One request of bs there first puts the heads in
 * place (not timed); then sample_bytes are read sequentially from where it
 * ended, at QD 1 (as zcav reads), and the rate is bytes / time.
 *
 * Zoning: each rate is replaced by the median of it and its neighbours
 * (one odd sample does not make a zone); a zone starts at the first
 * sample whose rate differs from the current zone's first rate by more
 * than step_pct % of the outer rate. A staircase curve gives its steps;
 * a smooth decline gives bands step_pct wide. A boundary lies halfway
 * between the last sample of one zone and the first of the next.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/zprofile.h"

#define MIB (1u << 20)

void zprofile_free(struct zprofile *z)
{
	if (!z)
		return;
	free(z->points);
	free(z->zones);
	free(z->cuts);
	free(z);
}

static double med3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	if (b > c)
		b = c;
	return a > b ? a : b;
}

/* Median of each good sample and its good neighbours. */
static void smooth(struct zprofile_point *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int l = (int)i - 1, r = (int)i + 1;

		if (p[i].error) {
			p[i].smooth_mbps = 0;
			continue;
		}
		while (l >= 0 && p[l].error)
			l--;
		while (r < (int)n && p[r].error)
			r++;
		if (l >= 0 && r < (int)n)
			p[i].smooth_mbps = med3(p[l].mbps, p[i].mbps, p[r].mbps);
		else
			p[i].smooth_mbps = p[i].mbps; /* an end: nothing to compare with */
	}
}

static int grow_zone(struct zprofile *z, unsigned *cap)
{
	struct zprofile_zone *nz;

	if (z->nzones < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 16;
	nz = realloc(z->zones, *cap * sizeof(*nz));
	if (!nz)
		return -ENOMEM;
	z->zones = nz;
	return 0;
}

static void zone_stats(struct zprofile *z, struct zprofile_zone *zn)
{
	double sum = 0;
	unsigned good = 0;

	zn->min_mbps = zn->max_mbps = 0;
	for (unsigned i = zn->first_point; i < zn->first_point + zn->npoints; i++) {
		double v = z->points[i].smooth_mbps;

		if (z->points[i].error)
			continue;
		if (!good || v < zn->min_mbps)
			zn->min_mbps = v;
		if (!good || v > zn->max_mbps)
			zn->max_mbps = v;
		sum += v;
		good++;
	}
	zn->avg_mbps = good ? sum / good : 0;
}

static int find_zones(struct zprofile *z, double step_pct)
{
	double tol = z->outer_mbps * step_pct / 100.0, level = -1;
	unsigned cap = 0;
	struct zprofile_zone *cur = NULL;

	for (unsigned i = 0; i < z->npoints; i++) {
		const struct zprofile_point *p = &z->points[i];

		if (cur && (p->error || level < 0 || fabs(p->smooth_mbps - level) <= tol)) {
			if (!p->error && level < 0)
				level = p->smooth_mbps; /* the zone began with a failed sample */
			cur->npoints++;
			continue;
		}
		if (grow_zone(z, &cap))
			return -ENOMEM;
		cur = &z->zones[z->nzones++];
		memset(cur, 0, sizeof(*cur));
		cur->first_point = i;
		cur->npoints = 1;
		level = p->error ? -1 : p->smooth_mbps;
		if (z->nzones > 1) {
			const struct zprofile_point *prev = &z->points[i - 1];

			cur->first_lba = prev->lba + (p->lba - prev->lba) / 2;
			cur[-1].end_lba = cur->first_lba;
		}
	}
	if (cur)
		cur->end_lba = z->blocks;
	for (unsigned k = 0; k < z->nzones; k++)
		zone_stats(z, &z->zones[k]);
	return 0;
}

static int make_cuts(struct zprofile *z, double keep_pct)
{
	uint64_t mib_blocks = MIB >= z->lblock ? MIB / z->lblock : 1;
	double worst = 0, wsum = 0;

	z->recommended = -1;
	z->cuts = calloc(z->nzones ? z->nzones : 1, sizeof(*z->cuts));
	if (!z->cuts)
		return -ENOMEM;
	for (unsigned k = 0; k < z->nzones; k++) {
		const struct zprofile_zone *zn = &z->zones[k];
		struct zprofile_cut *c = &z->cuts[z->ncuts];

		if (k == 0 || (zn->min_mbps > 0 && zn->min_mbps < worst))
			worst = zn->min_mbps;
		wsum += zn->avg_mbps * (double)(zn->end_lba - zn->first_lba);
		c->zone = k;
		c->blocks = zn->end_lba;
		if (k + 1 < z->nzones)
			c->blocks -= c->blocks % mib_blocks;
		if (!c->blocks)
			continue;
		c->bytes = c->blocks * z->lblock;
		c->capacity_pct = 100.0 * (double)c->blocks / (double)z->blocks;
		c->worst_mbps = worst;
		c->worst_pct = z->outer_mbps > 0 ? 100.0 * worst / z->outer_mbps : 0;
		c->avg_mbps = zn->end_lba ? wsum / (double)zn->end_lba : 0;
		z->ncuts++;
	}
	/* the deepest cut that keeps keep_pct % of the outer rate; none when
	 * the whole disk does (a flat profile gains nothing from a limit) */
	for (unsigned i = 0; i + 1 < z->ncuts; i++)
		if (z->cuts[i].worst_pct >= keep_pct)
			z->recommended = (int)i;
	if (z->ncuts && z->cuts[z->ncuts - 1].worst_pct >= keep_pct)
		z->recommended = -1;
	if (z->recommended >= 0)
		z->cuts[z->recommended].recommended = true;
	return 0;
}

int zprofile_from_points(const struct zprofile_point *points, unsigned n, uint64_t blocks,
			 uint32_t lblock, const struct zprofile_opts *o, struct zprofile **out,
			 struct ss_error *err)
{
	double step = o && o->step_pct > 0 ? o->step_pct : ZPROFILE_STEP_DEFAULT;
	double keep = o && o->keep_pct > 0 ? o->keep_pct : ZPROFILE_KEEP_DEFAULT;
	struct zprofile *z;
	unsigned good = 0, i;

	*out = NULL;
	if (!points || n < 1 || !blocks || !lblock)
		return ss_error_set(err, -EINVAL, "zone profile: no samples");
	if (step >= 100 || keep > 100)
		return ss_error_set(err, -EINVAL, "zone profile: step and keep are percentages");
	for (i = 1; i < n; i++)
		if (points[i].lba <= points[i - 1].lba || points[i].lba >= blocks)
			return ss_error_set(err, -EINVAL,
					    "zone profile: samples must be in LBA order inside "
					    "the disk");
	z = calloc(1, sizeof(*z));
	if (!z)
		return ss_error_nomem(err);
	z->points = calloc(n, sizeof(*z->points));
	if (!z->points) {
		zprofile_free(z);
		return ss_error_nomem(err);
	}
	memcpy(z->points, points, n * sizeof(*points));
	z->npoints = n;
	z->blocks = blocks;
	z->lblock = lblock;
	for (i = 0; i < n; i++) {
		if (z->points[i].mbps <= 0)
			z->points[i].error = true;
		if (z->points[i].error)
			z->errors++;
	}
	smooth(z->points, n);
	/* outer: the best of the first three good samples; inner: the last */
	for (i = 0; i < n && good < 3; i++) {
		if (z->points[i].error)
			continue;
		if (z->points[i].smooth_mbps > z->outer_mbps)
			z->outer_mbps = z->points[i].smooth_mbps;
		good++;
	}
	for (i = n; i-- > 0;) {
		if (!z->points[i].error) {
			z->inner_mbps = z->points[i].smooth_mbps;
			break;
		}
	}
	if (!good) {
		zprofile_free(z);
		return ss_error_set(err, -EIO, "zone profile: every sample failed");
	}
	if (find_zones(z, step) || make_cuts(z, keep)) {
		zprofile_free(z);
		return ss_error_nomem(err);
	}
	*out = z;
	return 0;
}

/* ---- measuring ---------------------------------------------------------------- */

static int read_span(struct io_dev *dev, uint64_t lba, uint64_t bytes, uint32_t bs,
		     const struct zprofile_opts *o, struct io_result *res, struct ss_error *err)
{
	struct io_job job;

	io_job_init(&job);
	job.bs = bs;
	job.qd = 1;
	job.start_lba = lba;
	job.end_lba = lba + bytes / io_dev_geom(dev)->lblock;
	job.bytes = bytes;
	(void)o;
	return io_dev_run(dev, &job, res, err);
}

int zprofile_measure(struct io_dev *dev, const struct zprofile_opts *o, struct zprofile **out,
		     struct ss_error *err)
{
	const struct io_geom *g = io_dev_geom(dev);
	unsigned n = o && o->points ? o->points : ZPROFILE_POINTS_DEFAULT;
	uint64_t sample = o && o->sample_bytes ? o->sample_bytes : ZPROFILE_SAMPLE_DEFAULT;
	uint32_t bs = o && o->bs ? o->bs : MIB;
	uint64_t mib_blocks, room, elapsed = 0;
	struct zprofile_point *pts;
	struct io_result *res;
	bool virt = false;
	int rc = 0;

	*out = NULL;
	if (n < ZPROFILE_POINTS_MIN || n > ZPROFILE_POINTS_MAX)
		return ss_error_set(err, -EINVAL, "%u points: give %u to %u", n,
				    ZPROFILE_POINTS_MIN, ZPROFILE_POINTS_MAX);
	if (bs > sample)
		bs = (uint32_t)sample;
	if (bs < IO_BS_MIN || bs > IO_BS_MAX || bs % g->lblock || sample % g->lblock ||
	    sample > (1ull << 30))
		return ss_error_set(err, -EINVAL,
				    "sample of %llu B in requests of %u B: give whole %u-byte "
				    "blocks, requests of 512 B to 4 MiB, samples up to 1 GiB",
				    (unsigned long long)sample, bs, g->lblock);
	if ((sample + bs) / g->lblock >= g->blocks)
		return ss_error_set(err, -ERANGE, "the disk is smaller than one sample");
	mib_blocks = MIB >= g->lblock ? MIB / g->lblock : 1;
	room = g->blocks - (sample + bs) / g->lblock;
	pts = calloc(n, sizeof(*pts));
	res = calloc(1, sizeof(*res));
	if (!pts || !res) {
		free(pts);
		free(res);
		return ss_error_nomem(err);
	}
	for (unsigned i = 0; i < n; i++) {
		uint64_t lba = (uint64_t)((double)room * i / (n - 1));
		struct ss_error e2 = { 0 };
		uint64_t el;

		lba -= lba % mib_blocks;
		if (i && lba <= pts[i - 1].lba)
			lba = pts[i - 1].lba + 1;
		pts[i].lba = lba;
		progress_report(o ? o->progress : NULL, (double)i / n, "zone profile", -1);
		if (progress_cancelled(o ? o->progress : NULL)) {
			rc = ss_error_set(err, -ECANCELED, "cancelled");
			break;
		}
		rc = read_span(dev, lba, bs, bs, o, res, &e2);
		el = res->elapsed_ns;
		if (!rc)
			rc = read_span(dev, lba + bs / g->lblock, sample, bs, o, res, &e2);
		virt = res->virtual_time;
		elapsed += el + res->elapsed_ns;
		if (rc == -ENODEV || rc == -ECANCELED || rc == -ENOMEM) {
			*err = e2;
			break;
		}
		if (rc || !res->elapsed_ns) {
			pts[i].error = true; /* a read error here: the sweep goes on */
			rc = 0;
			continue;
		}
		pts[i].mbps = (double)res->bytes / 1e6 / ((double)res->elapsed_ns / 1e9);
	}
	free(res);
	if (!rc) {
		rc = zprofile_from_points(pts, n, g->blocks, g->lblock, o, out, err);
		if (!rc) {
			(*out)->virtual_time = virt;
			(*out)->elapsed_s = (double)elapsed / 1e9;
		}
	}
	if (!rc)
		progress_report(o ? o->progress : NULL, 1.0, "zone profile", 0);
	free(pts);
	return rc;
}

int zprofile_measure_node(const char *node, const char *spec, struct dev_env *env,
			  const struct zprofile_opts *o, struct zprofile **out,
			  struct ss_error *err)
{
	struct io_dev *io = NULL;
	int rc;

	rc = io_dev_open_name(node, env, false, &io, err);
	if (!rc) {
		rc = zprofile_measure(io, o, out, err);
		io_dev_close(io);
	}
	if (rc)
		ss_error_subject(err, spec);
	return rc;
}
