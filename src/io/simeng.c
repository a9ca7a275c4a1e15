/* simeng.c - the simulated engine: the same jobs over a simulated drive,
 * in virtual time.
 *
 * Every request goes to the drive as a READ(16) or WRITE(16) CDB (an NVMe
 * drive: an NVMe Read or Write, drive_build_rw) through the sim transport
 * and the drive layer, as any command does. The run's
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
 * does not matter to the model). A drive with several actuators serves
 * one request per actuator at a time, each on a clock of its own
 * (run_multi); an NVMe drive's flash dies serve theirs in parallel, the
 * transfers sharing the host link (run_flash).
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

/* How a request ended: the request, what was sent, the drive's answer
 * (crc, sense, cerr) and when (done, on the run's clock) */
struct outcome {
	const struct sreq *r;
	const struct xcmd *c;
	const struct scsi_sense *sense;
	int crc;
	const struct ss_error *cerr;
	uint64_t done;
};

static bool failed(struct sdev *s, const struct io_job *job, const struct outcome *o,
		   struct io_result *res, int *run_rc, struct ss_error *err)
{
	const struct sreq *r = o->r;
	const struct xcmd *c = o->c;
	const struct scsi_sense *sense = o->sense;
	int rc = o->crc;
	uint64_t first = r->lba, lat = o->done - r->t_queued;
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
		*err = *o->cerr;
		return true;
	}
	if (job->on_error)
		cb = job->on_error(job->on_error_arg, first, (uint32_t)(r->lba + r->blocks - first),
				   r->write, block_errno(sense, rc));
	if (job->on_done)
		job->on_done(job->on_done_arg, r->lba, r->blocks, r->write, block_errno(sense, rc),
			     lat);
	if (!cb && job->continue_on_error)
		return false;
	*run_rc = cb ? cb : rc;
	if (cb)
		ss_error_set(err, cb, "%s: stopped at LBA %llu", drive_name(s->d),
			     (unsigned long long)first);
	else
		ss_error_set(err, rc, "%s (LBA %llu)", o->cerr->msg, (unsigned long long)first);
	return true;
}

/* Send r to the drive: 0 or the drive's error, with what it said and
 * the time it took (c->duration_ns). */
static int serve(struct sdev *s, const struct sreq *r, struct xcmd *c, struct scsi_sense *sense,
		 struct ss_error *cerr)
{
	drive_build_rw(s->d, c, r->write, r->lba, r->blocks, false);
	c->data = s->buf;
	c->data_len = (size_t)r->blocks * s->g.lblock;
	c->discard = !r->write; /* nothing here looks at what was read */
	return drive_rw(s->d, c, sense, cerr);
}

/* A request that ended at done: counted, or its failure handled. Returns
 * true to stop the run. */
static bool finish(struct sdev *s, const struct io_job *job, const struct outcome *o,
		   struct io_result *res, int *rc, struct ss_error *err)
{
	const struct sreq *r = o->r;
	const struct xcmd *c = o->c;
	uint64_t done = o->done;

	if (o->crc)
		return failed(s, job, o, res, rc, err);
	io_hist_add(&res->hist, done - r->t_queued);
	if (job->on_done)
		job->on_done(job->on_done_arg, r->lba, r->blocks, r->write, 0, done - r->t_queued);
	res->bytes += c->data_len;
	res->ios++;
	if (r->write)
		res->writes++;
	else
		res->reads++;
	return false;
}

/* Every REPORT_EVERY requests: progress, and whether the user stopped it. */
static bool report(const struct io_job *job, const struct io_gen *gen, unsigned done, uint64_t vt,
		   int *rc, struct ss_error *err)
{
	double f;

	if (done % REPORT_EVERY)
		return false;
	f = job->time_ns ? (double)vt / (double)job->time_ns : 0;
	if (job->bytes && (double)gen->issued / (double)job->bytes > f)
		f = (double)gen->issued / (double)job->bytes;
	progress_report(job->progress, f > 1 ? 1 : f, job->phase ? job->phase : "", -1);
	if (progress_cancelled(job->progress)) {
		*rc = ss_error_set(err, -ECANCELED, "cancelled");
		return true;
	}
	return false;
}

/* One actuator: a closed loop on one clock. */
static int run_one(struct sdev *s, const struct io_job *job, struct io_gen *gen, struct sreq *q,
		   struct sim_queued *v, unsigned n, struct io_result *res, struct ss_error *err)
{
	struct io_req nr;
	uint64_t vt = 0;
	unsigned done = 0;
	bool stop = false;
	int rc = 0;

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
		crc = serve(s, &r, &c, &sense, &cerr);
		vt += c.duration_ns;
		memmove(q + i, q + i + 1, (n - i - 1) * sizeof(*q));
		n--;
		if (finish(s, job, &(struct outcome){ &r, &c, &sense, crc, &cerr, vt }, res, &rc,
			   err))
			break;
		if (job->time_ns && vt >= job->time_ns)
			break; /* time is up: what is still queued is not counted */
		if (report(job, gen, ++done, vt, &rc, err))
			break;
		if (!stop && io_gen_next(gen, &nr))
			q[n++] = (struct sreq){ nr.lba, vt, UINT64_MAX, nr.blocks, nr.write };
		else
			stop = true;
	}
	res->elapsed_ns = vt;
	return rc;
}

/* Several actuators (sim_drive_actuators): each serves the requests of its
 * range on a clock of its own, so two of them position and transfer at
 * the same time. A discrete-event loop: the actuator that can start first
 * (free, with a request of its range that has arrived) picks among those
 * by the drive's scheduler; a request ends at its start plus the time the
 * drive says, and the next one of the closed loop arrives then. A run of
 * time_ns counts what ended by then. */
static int run_multi(struct sdev *s, const struct io_job *job, struct io_gen *gen, struct sreq *q,
		     struct sim_queued *v, unsigned n, struct io_result *res, struct ss_error *err)
{
	unsigned nact = sim_drive_actuators(s->sd), done = 0, *map;
	uint64_t free_at[CPR_MAX] = { 0 }, end = 0;
	struct io_req nr;
	bool stop = false;
	int rc = 0;

	map = calloc(job->qd, sizeof(*map));
	if (!map)
		return ss_error_nomem(err);
	while (n) {
		struct ss_error cerr = { 0 };
		struct scsi_sense sense;
		struct xcmd c;
		unsigned win = n < s->drive_queue ? n : s->drive_queue, a, best = nact, m, i;
		uint64_t start[CPR_MAX], now, fin;
		struct sreq r;
		int crc;

		for (a = 0; a < CPR_MAX; a++)
			start[a] = UINT64_MAX;
		for (i = 0; i < win; i++) {
			a = sim_drive_actuator_of(s->sd, q[i].lba);
			uint64_t t = q[i].t_queued > free_at[a] ? q[i].t_queued : free_at[a];

			if (t < start[a])
				start[a] = t;
		}
		for (a = 0; a < nact; a++)
			if (start[a] != UINT64_MAX && (best == nact || start[a] < start[best]))
				best = a;
		if (best == nact)
			break; /* cannot be: every request is some actuator's */
		now = start[best];
		if (job->time_ns && now >= job->time_ns)
			break; /* time is up */
		/* the requests of its range that have arrived, as the drive holds them */
		for (i = m = 0; i < win; i++) {
			if (sim_drive_actuator_of(s->sd, q[i].lba) != best || q[i].t_queued > now)
				continue;
			if (q[i].t_drive == UINT64_MAX)
				q[i].t_drive = now;
			v[m] = (struct sim_queued){ q[i].lba, q[i].blocks, q[i].write,
						    now - q[i].t_drive };
			map[m++] = i;
		}
		i = sim_drive_schedule(s->sd, v, m);
		if (i == SIM_SCHED_DESTAGE) {
			uint64_t t = sim_drive_destage(s->sd);

			free_at[best] = now + t;
			if (t)
				continue;
			i = 0;
		}
		i = map[i];
		r = q[i];
		crc = serve(s, &r, &c, &sense, &cerr);
		fin = now + c.duration_ns;
		free_at[best] = fin;
		memmove(q + i, q + i + 1, (n - i - 1) * sizeof(*q));
		n--;
		if (!job->time_ns || fin <= job->time_ns) {
			if (fin > end)
				end = fin;
			if (finish(s, job, &(struct outcome){ &r, &c, &sense, crc, &cerr, fin },
				   res, &rc, err))
				break;
		}
		if (report(job, gen, ++done, now, &rc, err))
			break;
		if (!stop && io_gen_next(gen, &nr))
			q[n++] = (struct sreq){ nr.lba, fin, UINT64_MAX, nr.blocks, nr.write };
		else
			stop = true;
	}
	res->elapsed_ns = job->time_ns && end < job->time_ns && n ? job->time_ns : end;
	free(map);
	return rc;
}

/*
 * A flash drive (sim_drive_flash): the requests outstanding proceed in
 * parallel, each on the die its LBA falls on (128 KiB stripes across the
 * dies), a die serving one at a time for the time the drive says the
 * command took; the transfers share the host link, so a request ends when
 * both its die and its turn of the link are done. An event loop: the clock
 * is the time the next request ends, and the closed loop's next one is
 * issued then. A run of time_ns counts what ended by then.
 */
struct fout {
	struct sreq r;
	uint64_t end;
	struct xcmd c;
	struct scsi_sense sense;
	struct ss_error cerr;
	int crc;
};

static void flash_issue(struct sdev *s, struct fout *o, uint64_t now, uint64_t *die_free,
			unsigned dies, uint64_t *link_free, double link_mbps)
{
	uint64_t stripe = (128u << 10) / s->g.lblock, start, done, x;
	unsigned die;

	memset(&o->cerr, 0, sizeof(o->cerr));
	o->crc = serve(s, &o->r, &o->c, &o->sense, &o->cerr);
	die = (unsigned)((o->r.lba / (stripe ? stripe : 1)) % dies);
	start = die_free[die] > now ? die_free[die] : now;
	die_free[die] = start + o->c.duration_ns;
	x = (uint64_t)((double)o->c.data_len * 1000.0 / link_mbps); /* ns on the link */
	done = *link_free + x;
	if (done < die_free[die])
		done = die_free[die];
	*link_free = done;
	o->end = done;
}

static int run_flash(struct sdev *s, const struct io_job *job, struct io_gen *gen,
		     const struct sreq *q, unsigned n, unsigned dies, double link_mbps,
		     struct io_result *res, struct ss_error *err)
{
	uint64_t *die_free = calloc(dies, sizeof(*die_free)), link_free = 0, vt = 0;
	struct fout *o = calloc(n ? n : 1, sizeof(*o));
	struct io_req nr;
	unsigned done = 0;
	int rc = 0;

	if (!die_free || !o) {
		rc = ss_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		o[i].r = q[i];
		flash_issue(s, &o[i], 0, die_free, dies, &link_free, link_mbps);
	}
	while (n) {
		unsigned i = 0;

		for (unsigned k = 1; k < n; k++)
			if (o[k].end < o[i].end)
				i = k;
		vt = o[i].end;
		if (finish(s, job,
			   &(struct outcome){ &o[i].r, &o[i].c, &o[i].sense, o[i].crc, &o[i].cerr,
					      vt },
			   res, &rc, err))
			break;
		if ((job->time_ns && vt >= job->time_ns) || report(job, gen, ++done, vt, &rc, err))
			break;
		if (io_gen_next(gen, &nr)) {
			o[i].r = (struct sreq){ nr.lba, vt, vt, nr.blocks, nr.write };
			flash_issue(s, &o[i], vt, die_free, dies, &link_free, link_mbps);
		} else {
			o[i] = o[--n];
		}
	}
	res->elapsed_ns = vt;
out:
	free(die_free);
	free(o);
	return rc;
}

static int s_run(void *priv, const struct io_job *job, struct io_result *res, struct ss_error *err)
{
	struct sdev *s = priv;
	struct io_gen gen;
	struct sreq *q;
	struct sim_queued *v;
	struct io_req nr;
	unsigned n = 0, dies;
	double link;
	int rc;

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
	if (sim_drive_flash(s->sd, &dies, &link) && link > 0)
		rc = run_flash(s, job, &gen, q, n, dies, link, res, err);
	else if (sim_drive_actuators(s->sd) > 1)
		rc = run_multi(s, job, &gen, q, v, n, res, err);
	else
		rc = run_one(s, job, &gen, q, v, n, res, err);
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
