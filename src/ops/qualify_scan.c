/* qualify_scan.c - the surface scan of qualification (docs/qualify.md,
 * "Surface scan"): stretches of the disk read sequentially, one block of
 * QUALIFY_SCAN_BLOCK bytes at a time (queue depth 1, as MHDD, Victoria and
 * whdd read), every block graded by its command's latency into classes
 * and a map across the disk, the slowest kept; failed reads told apart by
 * their error kind and re-read block by block for the exact unreadable
 * blocks; then the thresholds. And --remap: what the scan found unreadable
 * or slow rewritten so that the drive reassigns it, and read again. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qualify_priv.h"
#include "shortstroke/scsi.h"
#include "shortstroke/units.h"

#define GIB (1024.0 * 1024 * 1024)
#define REMAP_IO_MAX 256 /* blocks per rewrite command */

static const char *const kind_names[QE_KINDS] = { "UNC", "IDNF", "ABRT", "TIMEOUT" };

const char *qualify_err_kind_name(enum qualify_err_kind k)
{
	return (unsigned)k < QE_KINDS ? kind_names[k] : "?";
}

enum qualify_err_kind qualify_err_kind_of(int error)
{
	switch (error) {
	case -ENODATA: /* BLK_STS_MEDIUM: an unrecovered read error */
	case -EBADMSG:
		return QE_UNC;
	case -ERANGE: /* the simulated engine: LBA out of range, record not found */
	case -EREMOTEIO:
	case -ENXIO:
		return QE_IDNF;
	case -ETIMEDOUT:
		return QE_TIMEOUT;
	default:
		return QE_ABRT;
	}
}

unsigned qualify_class_of(double ms, const double *edges)
{
	unsigned c = 0;

	while (c < QUALIFY_CLASS_EDGES && ms >= edges[c])
		c++;
	return c;
}

/* ---- grading ---- */

static void keep_slowest(struct qualify_result *r, uint64_t lba, uint32_t blocks, double ms)
{
	unsigned i = r->nslowest < QUALIFY_SLOWEST ? r->nslowest : QUALIFY_SLOWEST - 1;

	if (r->nslowest == QUALIFY_SLOWEST && ms <= r->slowest[i].ms)
		return;
	/* insert, slowest first */
	while (i > 0 && r->slowest[i - 1].ms < ms) {
		r->slowest[i] = r->slowest[i - 1];
		i--;
	}
	r->slowest[i] = (struct qualify_slow_block){ lba, blocks, ms };
	if (r->nslowest < QUALIFY_SLOWEST)
		r->nslowest++;
}

/* Every block read: its class, its place on the map, the slowest, the
 * remap's candidates. */
static void scan_done(void *arg, uint64_t lba, uint32_t blocks, bool write, int error,
		      uint64_t lat_ns)
{
	struct qrun *q = arg;
	struct qualify_result *r = q->r;
	unsigned bin = q->cap_blocks ? (unsigned)(lba * QUALIFY_MAP_BINS / q->cap_blocks) : 0;
	double ms = (double)lat_ns / 1e6;
	unsigned c;

	(void)write;
	if (bin >= QUALIFY_MAP_BINS)
		bin = QUALIFY_MAP_BINS - 1;
	if (error) {
		r->scan_err[qualify_err_kind_of(error)]++;
		r->scan_map[bin][QUALIFY_CLASSES]++;
		return;
	}
	c = qualify_class_of(ms, r->scan_classes_ms);
	r->scan_class[c]++;
	r->scan_map[bin][c]++;
	if (ms >= 150)
		r->slow_150ms++;
	if (ms >= 500)
		r->slow_500ms++;
	keep_slowest(r, lba, blocks, ms);
	if (q->o->remap && ms >= (q->o->remap_above_ms > 0 ? q->o->remap_above_ms : 150)) {
		if (q->nslow < QUALIFY_REMAP_MAX)
			q->slow[q->nslow++] = (struct qrun_slow){ lba, blocks, ms };
		else
			q->slow_lost = true;
	}
}

/* ---- failed reads: which blocks, and of what kind ---- */

static int scan_error(void *arg, uint64_t first, uint32_t blocks, bool write, int error)
{
	struct qrun *q = arg;

	(void)write;
	if (q->nsuspects < sizeof(q->suspects_lba) / sizeof(q->suspects_lba[0])) {
		q->suspects_lba[q->nsuspects] = first;
		q->suspects_blocks[q->nsuspects] = blocks;
		q->nsuspects++;
	} else {
		/* too many to look at block by block: keep them as they came */
		qualify_result_add_bad(q->r, first, blocks);
		q->r->bad_kind[qualify_err_kind_of(error)] += blocks;
		q->suspects_lost = true;
	}
	return 0;
}

static int refine_error(void *arg, uint64_t first, uint32_t blocks, bool write, int error)
{
	struct qrun *q = arg;

	(void)write;
	(void)blocks;
	qualify_result_add_bad(q->r, first, 1);
	q->r->bad_kind[qualify_err_kind_of(error)]++;
	return 0;
}

/* A sequential read of [start, start + blocks) in requests of bs_blocks,
 * one at a time, going on past failed ones (reported to on_error). */
static void span_job(struct io_job *job, const struct io_geom *g, uint64_t start, uint64_t blocks,
		     uint64_t bs_blocks, io_error_fn on_error, struct qrun *q)
{
	io_job_init(job);
	job->bs = (uint32_t)(bs_blocks * g->lblock);
	job->qd = 1;
	job->start_lba = start;
	job->end_lba = start + blocks;
	job->bytes = blocks * g->lblock;
	job->continue_on_error = true;
	job->on_error = on_error;
	job->on_error_arg = q;
}

/* Read a failed stretch block by block: which blocks are unreadable. */
static int refine(struct qrun *q, uint64_t lba, uint64_t blocks, struct ss_error *err)
{
	const struct io_geom *g = io_dev_geom(q->io);
	struct io_result res;
	struct io_job job;
	int rc;

	if (blocks > q->refine_budget) {
		qualify_result_add_bad(q->r, lba, blocks);
		q->r->bad_kind[QE_UNC] += blocks;
		return 0;
	}
	q->refine_budget -= blocks;
	span_job(&job, g, lba, blocks, 1, refine_error, q);
	rc = io_dev_run(q->io, &job, &res, err);
	if (rc && rc != -ENODEV && rc != -ECANCELED) {
		/* could not look closer: keep the stretch */
		qualify_result_add_bad(q->r, lba, blocks);
		q->r->bad_kind[QE_ABRT] += blocks;
		return 0;
	}
	return rc;
}

/* Read [start, start + blocks) sequentially in requests of bs_blocks, one
 * at a time: each request's latency is its command's service time. */
static int scan_span(struct qrun *q, uint64_t start, uint64_t blocks, uint64_t bs_blocks,
		     double *elapsed, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	const struct io_geom *g = io_dev_geom(q->io);
	struct progress_sink sub = { qualify_sub_report, qualify_sub_cancelled, q };
	struct io_result res;
	struct io_job job;
	int rc;

	span_job(&job, g, start, blocks, bs_blocks, scan_error, q);
	job.on_done = scan_done;
	job.on_done_arg = q;
	job.progress = &sub;
	memset(&res, 0, sizeof(res));
	rc = io_dev_run(q->io, &job, &res, err);
	r->scan_bytes += res.bytes;
	r->scan_errors += res.errors;
	*elapsed += (double)res.elapsed_ns / 1e9;
	if (res.virtual_time)
		r->virtual_time = true;
	if (rc == -ENODEV)
		ss_error_set(err, rc,
			     "the disk stopped answering during the surface scan (near LBA "
			     "%" PRIu64 "): it vanished or its link went down",
			     res.errors ? res.first_error_lba : start);
	return rc;
}

/* The detail line: what was read, the bad blocks and the slow ones. */
static void scan_detail(struct qrun *q)
{
	struct qualify_result *r = q->r;
	const struct qualify_plan *p = &q->plan;
	char *d = r->check[QC_SCAN].detail, h[32];
	size_t len = sizeof(r->check[QC_SCAN].detail), l;

	snprintf(d, len,
		 "%s read (%.3g%% of the disk%s), %.1f MB/s, %" PRIu64 " bad block%s, %" PRIu64
		 " slow (150 ms or more)",
		 size_human(r->scan_bytes, h, sizeof(h)), r->scan_share_pct,
		 p->scan_stripes > 1 ? ", sampled" : "", r->scan_mbps, r->bad_blocks,
		 r->bad_blocks == 1 ? "" : "s", r->slow_150ms);
	if (!r->nbad)
		return;
	qualify_add_detail(d, len, "at LBA ");
	for (unsigned i = 0; i < r->nbad && i < 4; i++) {
		l = strlen(d);
		if (r->bad[i].blocks == 1)
			snprintf(d + l, len - l, "%s%" PRIu64, i ? ", " : "", r->bad[i].lba);
		else
			snprintf(d + l, len - l, "%s%" PRIu64 "-%" PRIu64, i ? ", " : "",
				 r->bad[i].lba, r->bad[i].lba + r->bad[i].blocks - 1);
	}
	if (r->nbad > 4) {
		l = strlen(d);
		snprintf(d + l, len - l, " and %u more ranges", r->nbad - 4);
	}
}

/* The thresholds: unreadable blocks, blocks of 500 ms or more, blocks of
 * 150 ms or more per GiB scanned. */
static void scan_verdict(struct qrun *q)
{
	struct qualify_result *r = q->r;
	const struct qualify_thresholds *t = q->thr;
	char *d = r->check[QC_SCAN].detail;
	size_t len = sizeof(r->check[QC_SCAN].detail);
	double gib = (double)r->scan_bytes / GIB, allowed = t->max_slow_150ms_per_gib * gib;
	bool fail = false;

	if ((double)r->bad_blocks > t->max_bad_blocks) {
		fail = true;
		qualify_add_detail(d, len, "at most %.0f unreadable allowed", t->max_bad_blocks);
	}
	if ((double)r->slow_500ms > t->max_slow_500ms) {
		fail = true;
		qualify_add_detail(d, len, "%" PRIu64 " block%s of 500 ms or more (at most %.0f)",
				   r->slow_500ms, r->slow_500ms == 1 ? "" : "s", t->max_slow_500ms);
	}
	if ((double)r->slow_150ms > allowed) {
		fail = true;
		qualify_add_detail(d, len,
				   "%" PRIu64 " block%s of 150 ms or more (at most %.2f in the "
				   "%.2f GiB read, %g per GiB)",
				   r->slow_150ms, r->slow_150ms == 1 ? "" : "s", allowed, gib,
				   t->max_slow_150ms_per_gib);
	}
	r->check[QC_SCAN].status = fail ? QUALIFY_FAIL : QUALIFY_PASS;
}

int qualify_check_scan(struct qrun *q, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	const struct qualify_plan *p = &q->plan;
	const struct io_geom *g = io_dev_geom(q->io);
	uint64_t stripe_blocks = p->scan_stripe_bytes / g->lblock;
	double elapsed = 0;
	int rc = 0;

	q->cap_blocks = g->blocks;
	r->scan_block_bytes = p->scan_bs;
	memcpy(r->scan_classes_ms, q->thr->scan_classes_ms, sizeof(r->scan_classes_ms));
	r->scan_target_bytes = (uint64_t)p->scan_stripes * stripe_blocks * g->lblock;
	r->scan_share_pct = p->scan_share_pct;
	q->refine_budget = 65536;
	for (q->stripe = 0; q->stripe < p->scan_stripes; q->stripe++) {
		uint64_t start, bs_blocks, main_blocks;

		if (p->scan_stripes == 1)
			start = 0;
		else
			start = (g->blocks - stripe_blocks) * q->stripe / (p->scan_stripes - 1);
		start -= start % (MIB / g->lblock ? MIB / g->lblock : 1);
		bs_blocks = p->scan_bs / g->lblock;
		if (!bs_blocks)
			bs_blocks = 1;
		if (bs_blocks > stripe_blocks)
			bs_blocks = stripe_blocks;
		/* whole requests, then the rest in one (a sequential stream
		 * would wrap to the start of the span rather than read it) */
		main_blocks = stripe_blocks / bs_blocks * bs_blocks;
		rc = scan_span(q, start, main_blocks, bs_blocks, &elapsed, err);
		if (!rc && stripe_blocks > main_blocks)
			rc = scan_span(q, start + main_blocks, stripe_blocks - main_blocks,
				       stripe_blocks - main_blocks, &elapsed, err);
		if (rc)
			return rc;
	}
	snprintf(q->text, sizeof(q->text), "surface scan: checking bad blocks");
	for (unsigned i = 0; i < q->nsuspects; i++) {
		rc = refine(q, q->suspects_lba[i], q->suspects_blocks[i], err);
		if (rc == -ENODEV) {
			ss_error_set(err, rc,
				     "the disk stopped answering during the surface scan "
				     "(re-reading bad blocks): it vanished or its link went down");
			return rc;
		}
		if (rc)
			return rc;
	}
	q->text[0] = '\0';
	r->scan_mbps = elapsed > 0 ? (double)r->scan_bytes / elapsed / 1e6 : 0;
	if (r->nbad == 0 && r->scan_errors)
		/* errors without a block to show: count the requests */
		r->bad_blocks = r->scan_errors;
	scan_detail(q);
	scan_verdict(q);
	return 0;
}

/* ---- --remap ---- */

/* READ(16) or WRITE(16) of [lba, lba + n) through the drive: the command's
 * time in *ms; on failure the error's kind. */
static int rw(struct qrun *q, bool write, uint64_t lba, uint32_t n, uint8_t *buf, double *ms,
	      int *kind, struct ss_error *err)
{
	struct scsi_sense sense;
	struct xcmd c;
	int rc;

	drive_build_rw(q->d, &c, write, lba, n, false);
	c.data = buf;
	c.data_len = (size_t)n * q->r->info.logical_block;
	memset(&sense, 0, sizeof(sense));
	rc = drive_rw(q->d, &c, &sense, err);
	if (ms)
		*ms = (double)c.duration_ns / 1e6;
	if (rc && kind)
		*kind = qualify_err_kind_of(sense.valid && sense.key == 0x03
						? (sense.asc == 0x14 ? -ERANGE : -ENODATA)
						: rc);
	return rc;
}

/* REASSIGN BLOCKS of [lba, lba + n) (n <= REMAP_IO_MAX). */
static int reassign(struct qrun *q, uint64_t lba, uint32_t n, struct ss_error *err)
{
	uint64_t lbas[REMAP_IO_MAX];
	uint8_t list[4 + 8 * REMAP_IO_MAX];
	struct xcmd c;

	for (uint32_t i = 0; i < n; i++)
		lbas[i] = lba + i;
	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_reassign_blocks(c.cdb);
	c.dir = XFER_TO_DEV;
	c.data = list;
	c.data_len = scsi_build_reassign_list(lbas, n, list, sizeof(list));
	return drive_scsi(q->d, &c, NULL, err);
}

/* One run of blocks: the rewrite, then the read after. */
static void remap_one(struct qrun *q, struct qualify_remap *m, uint8_t *buf)
{
	struct ss_error e = { 0 };
	bool ata = q->r->info.ata;
	int rc, kind = QE_ABRT;

	if (m->why == QR_SLOW) {
		/* keep its data: read it (slowly, as the scan did), write it back */
		rc = rw(q, false, m->lba, m->blocks, buf, NULL, &kind, &e);
		if (rc) {
			m->why = QR_UNREADABLE;
			m->before_kind = kind;
		}
	}
	if (m->why == QR_SLOW) {
		snprintf(m->action, sizeof(m->action), "WRITE (its data)");
		m->rc = rw(q, true, m->lba, m->blocks, buf, NULL, NULL, &e);
	} else if (!ata) {
		snprintf(m->action, sizeof(m->action), "REASSIGN BLOCKS");
		m->rc = reassign(q, m->lba, m->blocks, &e);
	} else {
		memset(buf, 0, (size_t)m->blocks * q->r->info.logical_block);
		snprintf(m->action, sizeof(m->action), "WRITE (zeros: unreadable)");
		m->rc = rw(q, true, m->lba, m->blocks, buf, NULL, NULL, &e);
	}
	if (m->rc) {
		snprintf(m->error, sizeof(m->error), "%s", e.msg);
		if (m->rc == -ENODEV)
			return;
	}
	m->after_ok = rw(q, false, m->lba, m->blocks, buf, &m->after_ms, &m->after_kind, &e) == 0;
}

static struct qualify_remap *remap_add(struct qualify_result *r, uint64_t lba, uint32_t n,
				       enum qualify_remap_why why)
{
	struct qualify_remap *m;

	if (r->nremap >= QUALIFY_REMAP_MAX) {
		r->remap_truncated = true;
		return NULL;
	}
	m = &r->remap[r->nremap++];
	memset(m, 0, sizeof(*m));
	m->lba = lba;
	m->blocks = n;
	m->why = why;
	return m;
}

/* Is [lba, lba + n) in a bad range (then it is rewritten as unreadable)? */
static bool in_bad(const struct qualify_result *r, uint64_t lba, uint32_t n)
{
	for (unsigned i = 0; i < r->nbad; i++)
		if (r->bad[i].lba < lba + n && lba < r->bad[i].lba + r->bad[i].blocks)
			return true;
	return false;
}

int qualify_remap_blocks(struct qrun *q, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	uint32_t lb = r->info.logical_block ? r->info.logical_block : 512;
	uint8_t *buf;
	unsigned done = 0, total;

	r->remap_ran = true;
	r->remap = calloc(QUALIFY_REMAP_MAX, sizeof(*r->remap));
	buf = malloc((size_t)REMAP_IO_MAX * lb > QUALIFY_SCAN_BLOCK ? (size_t)REMAP_IO_MAX * lb
								    : QUALIFY_SCAN_BLOCK);
	if (!r->remap || !buf) {
		free(buf);
		return ss_error_nomem(err);
	}
	/* the unreadable blocks, in runs of at most REMAP_IO_MAX */
	for (unsigned i = 0; i < r->nbad; i++) {
		for (uint64_t o = 0; o < r->bad[i].blocks; o += REMAP_IO_MAX) {
			uint64_t n = r->bad[i].blocks - o;
			struct qualify_remap *m = remap_add(
			    r, r->bad[i].lba + o, n > REMAP_IO_MAX ? REMAP_IO_MAX : (uint32_t)n,
			    QR_UNREADABLE);

			if (m)
				m->before_kind = QE_UNC;
		}
	}
	for (unsigned i = 0; i < q->nslow; i++) {
		struct qualify_remap *m;

		if (in_bad(r, q->slow[i].lba, q->slow[i].blocks))
			continue;
		m = remap_add(r, q->slow[i].lba, q->slow[i].blocks, QR_SLOW);
		if (m)
			m->before_ms = q->slow[i].ms;
	}
	if (q->slow_lost)
		r->remap_truncated = true;
	total = r->nremap;
	for (unsigned i = 0; i < r->nremap; i++) {
		char text[96];

		snprintf(text, sizeof(text), "remap: block %u of %u", i + 1, total);
		qualify_report(q, total ? (double)i / total : 1, text);
		if (progress_cancelled(q->o->progress)) {
			free(buf);
			return ss_error_set(err, -ECANCELED, "cancelled");
		}
		remap_one(q, &r->remap[i], buf);
		if (r->remap[i].rc == -ENODEV) {
			free(buf);
			return ss_error_set(err, -ENODEV,
					    "the disk stopped answering during the remap (LBA "
					    "%" PRIu64 "): it vanished or its link went down",
					    r->remap[i].lba);
		}
		done += r->remap[i].rc == 0 && r->remap[i].after_ok;
	}
	free(buf);
	if (total)
		qualify_add_detail(r->check[QC_SCAN].detail, sizeof(r->check[QC_SCAN].detail),
				   "remapped %u of %u run%s%s (read fine after)%s", done, total,
				   total == 1 ? "" : "s",
				   r->remap_truncated ? ", more not tried" : "",
				   done < total ? "; see the remap list" : "");
	else
		qualify_add_detail(r->check[QC_SCAN].detail, sizeof(r->check[QC_SCAN].detail),
				   "nothing to remap");
	return 0;
}
