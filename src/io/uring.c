/* uring.c - the liburing engine: O_DIRECT on a block device (or a file),
 * qd requests kept in flight, per-request latency from clock_gettime at
 * submission and completion, failed requests reported by LBA.
 *
 * Buffers: one per slot, aligned to the logical block and at least 4096,
 * registered with the ring (fixed buffers) as is the file. At large
 * request sizes times deep queues the slots share BUF_BUDGET bytes: data
 * read is never looked at, and what is written is one random pattern.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/io_priv.h"

#define BUF_BUDGET (256u << 20)
#define MEM_ALIGN 4096u
#define REPORT_NS 100000000ULL /* progress every 100 ms */

struct udev {
	int fd;
	bool write;
	char path[256];
	struct io_geom g;
};

struct slot {
	uint64_t lba;
	uint64_t t_submit;
	uint32_t blocks;
	unsigned buf;
	bool write;
};

struct urun {
	struct udev *u;
	const struct io_job *job;
	struct io_result *res;
	struct io_uring ring;
	bool ring_ok, fixed_file, fixed_buf;
	uint8_t *mem;
	size_t bufsz;
	unsigned nbuf;
	struct slot *slots;
	unsigned *free_slots;
	unsigned nfree;
	unsigned inflight;
	struct io_gen gen;
	bool stop;
	int rc;
};

static int u_open(const struct io_target *t, void **priv, struct io_geom *g, struct ss_error *err)
{
	struct udev *u;
	struct stat st;
	int flags = (t->write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC;
	int lb = 0;
	unsigned pb = 0;
	uint64_t size = 0;

	if (!t->path || !t->path[0])
		return ss_error_set(err, -EINVAL, "uring engine: no device path");
	if (stat(t->path, &st))
		return ss_error_set(err, -errno, "%s: %s", t->path, strerror(errno));
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return ss_error_set(err, -ENOTBLK, "%s is not a block device", t->path);
	/* a block device opened for writing is opened exclusively: the
	 * kernel refuses (EBUSY) while it is mounted or held */
	if (t->write && S_ISBLK(st.st_mode))
		flags |= O_EXCL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return ss_error_nomem(err);
	u->fd = open(t->path, flags);
	if (u->fd < 0) {
		int e = errno;

		free(u);
		if (e == EINVAL)
			return ss_error_set(err, -EINVAL,
					    "%s does not support direct I/O (O_DIRECT)", t->path);
		if (e == EBUSY)
			return ss_error_set(err, -EBUSY,
					    "%s is in use (mounted or held); not "
					    "opened for writing",
					    t->path);
		return ss_error_set(err, -e, "%s: %s", t->path, strerror(e));
	}
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(u->fd, BLKSSZGET, &lb) || ioctl(u->fd, BLKPBSZGET, &pb) ||
		    ioctl(u->fd, BLKGETSIZE64, &size)) {
			int e = errno;

			close(u->fd);
			free(u);
			return ss_error_set(err, -e, "%s: cannot read its geometry: %s", t->path,
					    strerror(e));
		}
	} else {
		lb = 512;
		pb = 4096;
		size = (uint64_t)st.st_size;
	}
	if (lb < 512)
		lb = 512;
	u->g.lblock = (uint32_t)lb;
	u->g.pblock = pb >= (unsigned)lb ? pb : (uint32_t)lb;
	u->g.blocks = size / (uint64_t)lb;
	u->g.mem_align = (uint32_t)lb > MEM_ALIGN ? (uint32_t)lb : MEM_ALIGN;
	u->write = t->write;
	snprintf(u->path, sizeof(u->path), "%s", t->path);
	*g = u->g;
	*priv = u;
	return 0;
}

static void u_close(void *priv)
{
	struct udev *u = priv;

	if (!u)
		return;
	close(u->fd);
	free(u);
}

static int ring_setup(struct urun *r, unsigned entries)
{
	static const unsigned try_flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	struct io_uring_params p;
	int rc = -EINVAL;

	for (unsigned i = 0; i < sizeof(try_flags) / sizeof(try_flags[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = try_flags[i];
		rc = io_uring_queue_init_params(entries, &r->ring, &p);
		if (rc == 0)
			break;
	}
	if (rc)
		return rc;
	r->ring_ok = true;
	r->fixed_file = io_uring_register_files(&r->ring, &r->u->fd, 1) == 0;
	return 0;
}

static int buffers_setup(struct urun *r)
{
	const struct io_job *job = r->job;
	uint32_t maxb = io_job_max_bytes(job, r->u->g.lblock);
	size_t align = r->u->g.mem_align;
	struct iovec *iov;
	void *mem;

	r->bufsz = (maxb + align - 1) / align * align;
	r->nbuf = (unsigned)(BUF_BUDGET / r->bufsz);
	if (r->nbuf < 1)
		r->nbuf = 1;
	if (r->nbuf > job->qd)
		r->nbuf = job->qd;
	if (posix_memalign(&mem, align, r->nbuf * r->bufsz))
		return -ENOMEM;
	r->mem = mem;
	if (job->read_pct < 100) {
		struct io_rng rng;
		uint64_t *p = mem;

		io_rng_seed(&rng, job->seed ^ 0x5eedULL);
		for (size_t i = 0; i < r->nbuf * r->bufsz / 8; i++)
			p[i] = io_rng_next(&rng);
	} else {
		memset(mem, 0, r->nbuf * r->bufsz);
	}
	iov = calloc(r->nbuf, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (unsigned i = 0; i < r->nbuf; i++) {
		iov[i].iov_base = r->mem + (size_t)i * r->bufsz;
		iov[i].iov_len = r->bufsz;
	}
	/* fixed buffers pin memory; without the rlimit for it, go without */
	r->fixed_buf = io_uring_register_buffers(&r->ring, iov, r->nbuf) == 0;
	free(iov);
	return 0;
}

/* Queue the next request in a free slot at time now; false when none. */
static bool queue_one(struct urun *r, uint64_t now)
{
	struct io_uring_sqe *sqe;
	struct io_req q;
	struct slot *s;
	unsigned idx;
	int fd;
	void *buf;
	unsigned len;
	uint64_t off;

	if (r->stop || !r->nfree)
		return false;
	if (!io_gen_next(&r->gen, &q)) {
		r->stop = true;
		return false;
	}
	sqe = io_uring_get_sqe(&r->ring);
	if (!sqe) {
		io_uring_submit(&r->ring);
		sqe = io_uring_get_sqe(&r->ring);
		if (!sqe) {
			r->stop = true;
			return false;
		}
	}
	idx = r->free_slots[--r->nfree];
	s = &r->slots[idx];
	s->lba = q.lba;
	s->blocks = q.blocks;
	s->write = q.write;
	s->t_submit = now;
	s->buf = idx % r->nbuf;
	fd = r->fixed_file ? 0 : r->u->fd;
	buf = r->mem + (size_t)s->buf * r->bufsz;
	len = q.blocks * r->u->g.lblock;
	off = q.lba * r->u->g.lblock;
	if (r->fixed_buf) {
		if (q.write)
			io_uring_prep_write_fixed(sqe, fd, buf, len, off, (int)s->buf);
		else
			io_uring_prep_read_fixed(sqe, fd, buf, len, off, (int)s->buf);
	} else if (q.write) {
		io_uring_prep_write(sqe, fd, buf, len, off);
	} else {
		io_uring_prep_read(sqe, fd, buf, len, off);
	}
	if (r->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, idx);
	r->inflight++;
	return true;
}

static void failed(struct urun *r, const struct slot *s, int res, uint64_t now,
		   struct ss_error *err)
{
	const struct io_job *job = r->job;
	uint32_t lb = r->u->g.lblock;
	uint64_t first = s->lba;
	int e = res < 0 ? res : -EIO;
	int cb = 0;

	if (res >= 0) {
		first = s->lba + (uint64_t)res / lb; /* short: the rest failed */
		r->res->bytes += (uint64_t)res / lb * lb;
	}
	if (!r->res->errors)
		r->res->first_error_lba = first;
	r->res->errors++;
	if (job->on_error)
		cb = job->on_error(job->on_error_arg, first, (uint32_t)(s->lba + s->blocks - first),
				   s->write, e);
	if (job->on_done)
		job->on_done(job->on_done_arg, s->lba, s->blocks, s->write, e, now - s->t_submit);
	if (cb || !job->continue_on_error) {
		if (!r->rc) {
			r->rc = cb ? cb : e;
			if (cb)
				ss_error_set(err, cb, "%s: stopped at LBA %llu", r->u->path,
					     (unsigned long long)first);
			else
				ss_error_set(err, e, "%s: %s failed at LBA %llu (%u blocks): %s",
					     r->u->path, s->write ? "write" : "read",
					     (unsigned long long)first,
					     (unsigned)(s->lba + s->blocks - first), strerror(-e));
		}
		r->stop = true;
	}
}

static void complete(struct urun *r, struct io_uring_cqe *cqe, uint64_t now, struct ss_error *err)
{
	unsigned idx = (unsigned)io_uring_cqe_get_data64(cqe);
	struct slot *s = &r->slots[idx];
	uint32_t len = s->blocks * r->u->g.lblock;

	r->inflight--;
	r->free_slots[r->nfree++] = idx;
	if (cqe->res != (int)len) {
		failed(r, s, cqe->res, now, err);
		return;
	}
	io_hist_add(&r->res->hist, now - s->t_submit);
	if (r->job->on_done)
		r->job->on_done(r->job->on_done_arg, s->lba, s->blocks, s->write, 0,
				now - s->t_submit);
	r->res->bytes += len;
	r->res->ios++;
	if (s->write)
		r->res->writes++;
	else
		r->res->reads++;
}

static double fraction(const struct io_job *job, uint64_t el, uint64_t bytes)
{
	double f = 0, b;

	if (job->time_ns)
		f = (double)el / (double)job->time_ns;
	if (job->bytes) {
		b = (double)bytes / (double)job->bytes;
		if (b > f)
			f = b;
	}
	return f > 1 ? 1 : f;
}

static void urun_fini(struct urun *r)
{
	/*
	 * The ring's teardown is asynchronous (a kernel worker): a file still
	 * registered with it stays open after we close ours, and a block
	 * device opened O_EXCL for writing stays claimed, so a second write
	 * run right after ours found it "in use". Unregistering is synchronous.
	 */
	if (r->ring_ok && r->fixed_file)
		io_uring_unregister_files(&r->ring);
	if (r->ring_ok && r->fixed_buf)
		io_uring_unregister_buffers(&r->ring);
	if (r->ring_ok)
		io_uring_queue_exit(&r->ring);
	free(r->mem);
	free(r->slots);
	free(r->free_slots);
}

static int u_run(void *priv, const struct io_job *job, struct io_result *res, struct ss_error *err)
{
	struct urun r = { .u = priv, .job = job, .res = res };
	uint64_t t0, now, last_report, t_end;
	int rc;

	rc = ring_setup(&r, job->qd);
	if (rc)
		return ss_error_set(err, rc, "io_uring setup failed: %s", strerror(-rc));
	rc = buffers_setup(&r);
	r.slots = calloc(job->qd, sizeof(*r.slots));
	r.free_slots = calloc(job->qd, sizeof(*r.free_slots));
	if (rc || !r.slots || !r.free_slots) {
		urun_fini(&r);
		return ss_error_set(err, -ENOMEM, "out of memory for %u buffers", job->qd);
	}
	for (unsigned i = 0; i < job->qd; i++)
		r.free_slots[r.nfree++] = job->qd - 1 - i;
	io_gen_init(&r.gen, job, &r.u->g);

	t0 = last_report = t_end = io_mono_ns();
	while (queue_one(&r, t0))
		;
	while (r.inflight) {
		struct io_uring_cqe *cqe;
		unsigned head, n = 0;

		rc = io_uring_submit_and_wait(&r.ring, 1);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			if (!r.rc) {
				r.rc = rc;
				ss_error_set(err, rc, "%s: io_uring: %s", r.u->path, strerror(-rc));
			}
			break; /* leaving the ring cancels what is in flight */
		}
		now = io_mono_ns();
		io_uring_for_each_cqe(&r.ring, head, cqe)
		{
			complete(&r, cqe, now, err);
			n++;
		}
		io_uring_cq_advance(&r.ring, n);
		if (n)
			t_end = now;
		if (job->time_ns && now - t0 >= job->time_ns)
			r.stop = true;
		if (now - last_report >= REPORT_NS) {
			last_report = now;
			progress_report(job->progress, fraction(job, now - t0, res->bytes),
					job->phase ? job->phase : "", -1);
			if (progress_cancelled(job->progress) && !r.stop) {
				r.stop = true;
				if (!r.rc) {
					r.rc = -ECANCELED;
					ss_error_set(err, -ECANCELED, "cancelled");
				}
			}
		}
		while (queue_one(&r, now))
			;
	}
	res->elapsed_ns = t_end - t0;
	urun_fini(&r);
	return r.rc;
}

const struct io_engine_ops io_engine_uring = {
	.name = "uring",
	.caps = IO_CAP_WRITE | IO_CAP_QUEUE | IO_CAP_ERROR_LBA,
	.open = u_open,
	.close = u_close,
	.run = u_run,
};
