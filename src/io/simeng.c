/* simeng.c - the simulated engine: the same jobs over a simulated drive,
 * in virtual time.
 *
 * Every request goes to the drive as a READ(16) or WRITE(16) CDB through
 * the sim transport and the drive layer, as any command does. The run's
 * clock is the sum of the drive's service times (xcmd.duration_ns) and
 * of the destages its scheduler chose to do first (sim_drive_destage): a
 * closed loop, so the drive is never idle while the run lasts (it
 * destages in the transfer time of cached writes when nothing else waits
 * for the mechanics, sim_cache.c). With qd requests outstanding the drive
 * holds up to its queue depth of them (sim_drive_queue_depth: the rig's
 * "queue_depth", by default NCQ's 32 on SATA, 64 on SAS; the rest wait in
 * the host's queue) and its scheduler picks the next one, each with the
 * time it has waited in the drive (sim_drive_schedule: aged shortest
 * positioning time first, a write its write cache takes first while it
 * has room, destages as the cache fills). A request's latency is its
 * completion time minus the time it was queued. Reads are sent with
 * xcmd.discard (no job looks at the data, so the drive need not copy it);
 * writes send zeros from one reusable buffer (the payload of a benchmark
 * does not matter to the model).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_priv.h"
#include "shortstroke/drive.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sense.h"
#include "shortstroke/sim.h"

#define REPORT_EVERY 512u

struct sdev {
	struct sim_drive *sd;
	struct drive *d;
	struct io_geom g;
	unsigned drive_queue;
	bool write;
	void *buf;
	size_t buflen;
};

struct sreq {
	uint64_t lba;
	uint64_t t_queued; /* handed to the drive (the host's queue) */
	uint64_t t_drive;  /* entered the drive's own queue, UINT64_MAX not yet */
	uint32_t blocks;
	bool write;
};

unsigned io_sim_queue_depth(const struct sim_drive *sd)
{
	unsigned n = sim_drive_queue_depth(sd);

	return n ? n : 1;
}

int io_sim_drive_open(struct sim_drive *sd, struct drive **d, struct io_geom *g,
		      struct ss_error *err)
{
	struct transport *tr;
	int rc;

	*d = NULL;
	memset(g, 0, sizeof(*g));
	rc = transport_open_sim(sd, &tr, err);
	if (rc)
		return rc;
	rc = drive_new(tr, TRAN_UNKNOWN, d, err); /* the transport names it sim:ID */
	if (rc) {
		transport_close(tr);
		return rc;
	}
	rc = drive_read_capacity(*d, &g->blocks, &g->lblock, &g->pblock, err);
	if (!rc && (!g->lblock || !g->blocks))
		rc = ss_error_set(err, -EIO, "%s reports no capacity", drive_name(*d));
	g->mem_align = 4096;
	return rc;
}

static int s_open(const struct io_target *t, void **priv, struct io_geom *g, struct ss_error *err)
{
	struct sdev *s;
	int rc;

	if (!t->sim)
		return ss_error_set(err, -EINVAL, "sim engine: no simulated drive");
	s = calloc(1, sizeof(*s));
	if (!s)
		return ss_error_nomem(err);
	s->sd = t->sim;
	s->write = t->write;
	rc = io_sim_drive_open(t->sim, &s->d, &s->g, err);
	if (rc)
		goto fail;
	s->drive_queue = io_sim_queue_depth(t->sim);
	*g = s->g;
	*priv = s;
	return 0;
fail:
	drive_free(s->d);
	free(s);
	return rc;
}

static void s_close(void *priv)
{
	struct sdev *s = priv;

	if (!s)
		return;
	drive_free(s->d);
	free(s->buf);
	free(s);
}

static int need_buffer(struct sdev *s, size_t len)
{
	void *p;

	if (s->buflen >= len)
		return 0;
	if (posix_memalign(&p, 4096, len))
		return -ENOMEM;
	memset(p, 0, len);
	free(s->buf);
	s->buf = p;
	s->buflen = len;
	return 0;
}

/* Which of the first n queued requests the drive serves next, or
 * SIM_SCHED_DESTAGE. Requests enter the drive's queue in order as it has
 * room; the time they did is what their wait counts from. */
static unsigned pick(const struct sdev *s, struct sreq *q, struct sim_queued *v, unsigned n,
		     uint64_t now)
{
	if (n > s->drive_queue)
		n = s->drive_queue;
	for (unsigned i = 0; i < n; i++) {
		if (q[i].t_drive == UINT64_MAX)
			q[i].t_drive = now;
		v[i] = (struct sim_queued){ q[i].lba, q[i].blocks, q[i].write, now - q[i].t_drive };
	}
	return sim_drive_schedule(s->sd, v, n);
}

/* A request the drive failed. Returns true to stop the run. */
/* The error the kernel's block layer gives for what the drive said, so
 * that a job's callbacks see the same on a simulated and a real disk: a
 * medium error is -ENODATA (BLK_STS_MEDIUM), a record not found or an LBA
 * out of range stays -ERANGE, an aborted command -ECANCELED, the rest -EIO. */
static int block_errno(const struct scsi_sense *sense, int rc)
{
	if (rc == -ENODEV || !sense->valid)
		return rc;
	if (sense->key == SK_MEDIUM_ERROR)
		return sense->asc == 0x14 ? -ERANGE : -ENODATA;
	return rc;
}

/* A command that failed: the request, what was sent, the drive's answer */
struct failure {
	const struct sreq *r;
	const struct xcmd *c;
	const struct scsi_sense *sense;
	int rc;
	const struct ss_error *cerr;
	uint64_t lat;
};

static bool failed(struct sdev *s, const struct io_job *job, const struct failure *fl,
		   struct io_result *res, int *run_rc, struct ss_error *err)
{
	const struct sreq *r = fl->r;
	const struct xcmd *c = fl->c;
	const struct scsi_sense *sense = fl->sense;
	int rc = fl->rc;
	uint64_t first = r->lba;
	uint32_t lb = s->g.lblock;
	int cb = 0;

	if (sense->valid && sense->info_valid && sense->info >= r->lba &&
	    sense->info < r->lba + r->blocks)
		first = sense->info;
	else if (c->resid < c->data_len)
		first = r->lba + (c->data_len - c->resid) / lb;
	res->bytes += (first - r->lba) * lb;
	if (!res->errors)
		res->first_error_lba = first;
	res->errors++;
	/* a drive that no longer answers ends the run whatever was asked */
	if (rc == -ENODEV) {
		*run_rc = rc;
		*err = *fl->cerr;
		return true;
	}
	if (job->on_error)
		cb = job->on_error(job->on_error_arg, first, (uint32_t)(r->lba + r->blocks - first),
				   r->write, block_errno(sense, rc));
	if (job->on_done)
		job->on_done(job->on_done_arg, r->lba, r->blocks, r->write, block_errno(sense, rc),
			     fl->lat);
	if (!cb && job->continue_on_error)
		return false;
	*run_rc = cb ? cb : rc;
	if (cb)
		ss_error_set(err, cb, "%s: stopped at LBA %llu", drive_name(s->d),
			     (unsigned long long)first);
	else
		ss_error_set(err, rc, "%s (LBA %llu)", fl->cerr->msg, (unsigned long long)first);
	return true;
}

static int s_run(void *priv, const struct io_job *job, struct io_result *res, struct ss_error *err)
{
	struct sdev *s = priv;
	struct io_gen gen;
	struct sreq *q;
	struct sim_queued *v;
	struct io_req nr;
	uint64_t vt = 0;
	unsigned n = 0, done = 0;
	bool stop = false;
	int rc = 0;

	if (need_buffer(s, io_job_max_bytes(job, s->g.lblock)))
		return ss_error_nomem(err);
	q = calloc(job->qd, sizeof(*q));
	v = calloc(job->qd, sizeof(*v));
	if (!q || !v) {
		rc = ss_error_nomem(err);
		goto out;
	}
	io_gen_init(&gen, job, &s->g);
	while (n < job->qd && io_gen_next(&gen, &nr))
		q[n++] = (struct sreq){ nr.lba, 0, UINT64_MAX, nr.blocks, nr.write };

	while (n) {
		struct ss_error cerr = { 0 };
		struct scsi_sense sense;
		struct xcmd c;
		unsigned i = pick(s, q, v, n, vt);
		struct sreq r;
		int crc;

		if (i == SIM_SCHED_DESTAGE) {
			uint64_t t = sim_drive_destage(s->sd);

			vt += t;
			if (t)
				continue;
			i = 0; /* nothing to destage after all */
		}
		r = q[i];
		memset(&c, 0, sizeof(c));
		c.cdb_len = r.write ? scsi_build_write16(c.cdb, r.lba, r.blocks, false)
				    : scsi_build_read16(c.cdb, r.lba, r.blocks, false);
		c.dir = r.write ? XFER_TO_DEV : XFER_FROM_DEV;
		c.data = s->buf;
		c.data_len = (size_t)r.blocks * s->g.lblock;
		c.discard = !r.write; /* nothing here looks at what was read */
		crc = drive_scsi(s->d, &c, &sense, &cerr);
		vt += c.duration_ns;
		memmove(q + i, q + i + 1, (n - i - 1) * sizeof(*q));
		n--;
		if (crc) {
			struct failure fl = { &r, &c, &sense, crc, &cerr, vt - r.t_queued };

			if (failed(s, job, &fl, res, &rc, err))
				break;
		} else {
			io_hist_add(&res->hist, vt - r.t_queued);
			if (job->on_done)
				job->on_done(job->on_done_arg, r.lba, r.blocks, r.write, 0,
					     vt - r.t_queued);
			res->bytes += c.data_len;
			res->ios++;
			if (r.write)
				res->writes++;
			else
				res->reads++;
		}
		if (job->time_ns && vt >= job->time_ns)
			break; /* time is up: what is still queued is not counted */
		if (++done % REPORT_EVERY == 0) {
			double f = job->time_ns ? (double)vt / (double)job->time_ns : 0;

			if (job->bytes && (double)gen.issued / (double)job->bytes > f)
				f = (double)gen.issued / (double)job->bytes;
			progress_report(job->progress, f > 1 ? 1 : f, job->phase ? job->phase : "",
					-1);
			if (progress_cancelled(job->progress)) {
				rc = ss_error_set(err, -ECANCELED, "cancelled");
				break;
			}
		}
		if (!stop && io_gen_next(&gen, &nr))
			q[n++] = (struct sreq){ nr.lba, vt, UINT64_MAX, nr.blocks, nr.write };
		else
			stop = true;
	}
	res->elapsed_ns = vt;
out:
	free(q);
	free(v);
	return rc;
}

const struct io_engine_ops io_engine_sim = {
	.name = "sim",
	.caps = IO_CAP_WRITE | IO_CAP_QUEUE | IO_CAP_VIRTUAL_TIME | IO_CAP_ERROR_LBA,
	.open = s_open,
	.close = s_close,
	.run = s_run,
};
