/* simarray.c - the simulated engine over a simulated md array: the jobs of
 * the sim engine (simeng.c) run on an array of the rig's drives, in virtual
 * time (docs/simulator.md, "Arrays"; docs/io-engine.md).
 *
 * An event-driven simulation. Each array request waits the controller's
 * latency, then becomes the member commands md would send (sim_md_map; a
 * parity write goes by stripe, sim_md_stripe_write, its writes sent once its
 * reads are done). Each member drive keeps its own queue: it holds up to its
 * queue depth of commands and its scheduler picks the next one
 * (sim_drive_schedule, as in simeng.c), or a destage of its write cache,
 * which occupies the member as a command would; a command takes what the
 * drive says it took (xcmd.duration_ns). A
 * path cap is one link that the members' data crosses in turn, at the rig's
 * MB/s for each direction: a write's data when its drive starts the
 * command (it positions meanwhile; the command ends when both are done), a
 * read's as the drive reads it (it streams during the end of the command;
 * what the link could not take by then follows). A link that keeps up adds
 * nothing; a busy one makes the commands wait for it. A request completes
 * when its last member command does; its latency runs from the moment it
 * was handed to the array.
 *
 * The members' platters turn independently, as spindles that are not
 * synchronised do (SBC's rotational position locking, RPL, is off unless
 * set up): each drive starts at its own rotational phase and turns on while
 * it waits for the others (sim_drive_idle, told before its next pick; its
 * write cache destages meanwhile), and its speed differs from its
 * nominal one by up to DRIFT, so that the drives' relative phases wander
 * over a run as real ones do over a longer one. Member i starts at phase
 * frac(i sqrt 2) of a turn with a speed offset of DRIFT frac(1/2 + i phi)
 * (spread evenly, whatever the number of members). A write to two copies
 * then waits for the slower of two rotational latencies that differ.
 *
 * md's stripe cache keeps what was read and written of a stripe once the
 * write is done: a later write to it reads only what the cache does not
 * hold, until the least recently used stripes leave the cache (its size is
 * the array's stripe_cache, md's stripe_cache_size, in 4 KiB rows).
 *
 * md's choices: a read of mirrored data goes to the copy md's read_balance
 * picks (RAID 1: the member whose last read it continues, else an idle
 * one, else the nearest head; RAID 10 near: an idle copy, else the nearest
 * head; a member's head is where its last completed command ended). A
 * stripe takes one write at a time: the parts of later requests for a
 * stripe that is being written wait, merged, and go together when it is
 * done (so a sequential stream can fill a stripe); requests handed over at
 * the same moment are merged the same way (the block layer's plug). Writes
 * are O_DIRECT's, marked synchronous: md starts them at once, it does not
 * hold them back to gather more.
 *
 * Reads are sent with xcmd.discard; writes send zeros. A member command
 * that fails fails its request (this is a model for timing: md would read
 * the other copy or reconstruct).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_priv.h"
#include "shortstroke/drive.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sim.h"

#define REPORT_EVERY 256u
#define DRIFT 5e-3 /* speeds spread over 0.5 % of the nominal */
#define STRIPE_BUCKETS 1024u

struct areq;
struct sjob;

/* One member command. */
struct mop {
	struct sjob *job;
	unsigned member;
	uint64_t lba;
	uint32_t blocks;
	bool write, after;
	uint64_t dur; /* what the drive took */
};

/* One member drive. Its queue is FIFO, the drive's own queue its first
 * depth entries. */
struct amember {
	struct sim_drive *sd;
	struct drive *d;
	unsigned depth;
	struct mop **q;
	uint64_t *t_drive;	 /* when each entered the drive's own queue */
	struct sim_queued *view; /* what the drive sees of its queue */
	unsigned nq, capq;
	struct mop *cur;    /* in service */
	bool destaging;	    /* its write cache's piece in service, no command */
	unsigned pending;   /* md's nr_pending: sent, not completed */
	uint64_t head;	    /* md's head_position: where the last completed one ended */
	uint64_t next_seq;  /* RAID 1: where the last read sent to it ended */
	uint64_t idle_from; /* when its last command ended (the run's clock) */
	uint64_t turned_to; /* up to when its speed's drift was added */
	double drift;	    /* its speed's deviation, 0 .. DRIFT */
};

/* The member commands of a request (or, for a parity write, of a stripe:
 * possibly for several requests). */
struct sjob {
	struct sjob *prev, *next; /* the run's live jobs */
	struct areq **reqs;
	unsigned nreqs, capreqs;
	bool stripe;
	unsigned group;
	uint64_t key; /* stripe: its number */
	struct sim_md_part *parts;
	unsigned nparts, capparts;
	struct sim_md_ops ops;
	unsigned reads_left, left;
	bool sent_after;
	int rc;
};

/* One array request. */
struct areq {
	struct areq *prev, *next; /* the run's live requests */
	uint64_t lba;
	uint32_t blocks;
	bool write;
	uint64_t t_queued;
	unsigned jobs_left;
	int rc;
	struct ss_error err;
};

/* A stripe being written (active) and what waits for it. */
struct stripe_ent {
	unsigned group;
	uint64_t stripe;
	struct sjob *active, *waiting;
	bool dirty; /* may start its waiting job at the end of this moment */
	struct stripe_ent *next;
	/* md's stripe cache: what it holds of the stripe, the rows that takes,
	 * and its place among the idle stripes, least recently used first */
	struct sim_md_cached *cache;
	unsigned rows;
	struct stripe_ent *lru_prev, *lru_next;
	bool in_lru;
};

enum ev_type { EV_START, EV_DONE, EV_XFER };

struct ev {
	uint64_t t, seq;
	enum ev_type type;
	unsigned member;
	void *p;
};

struct aeng {
	struct sim_array *a;
	struct sim_md g;
	unsigned nm; /* members opened */
	struct io_geom geom;
	struct amember m[SIM_ARRAY_MAX_MEMBERS];
	void *buf;
	size_t buflen;
	double ns_per_byte[2]; /* the path: [0] reads, [1] writes; 0 no cap */
	double link_free;      /* when the path is free again (ns) */
	uint64_t latency_ns;
	/* the run */
	uint64_t now, seq;
	struct ev *heap;
	unsigned nheap, capheap;
	struct stripe_ent *bucket[STRIPE_BUCKETS];
	struct stripe_ent **dirty;
	unsigned ndirty, capdirty;
	struct stripe_ent *lru_head, *lru_tail; /* idle stripes the cache holds rows of */
	unsigned cached_rows, cache_rows_max;	/* md's stripe_cache_size, per group */
	bool stop;
	int rc;
	struct ss_error *err;
	const struct io_job *job;
	struct io_result *res;
	struct io_gen gen;
	bool gen_done;
	unsigned done;
	struct sjob *jobs; /* live: freed when done, or when the run stops */
	struct areq *reqs;
};

/* Make room for one more element in *v (n used of *cap, elements of size bytes). */
static int grow(void *v, unsigned n, unsigned *cap, size_t size)
{
	void **pv = v;
	unsigned c;
	void *p;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 16;
	p = realloc(*pv, c * size);
	if (!p)
		return -ENOMEM;
	*pv = p;
	*cap = c;
	return 0;
}

/* ---- open ---------------------------------------------------------------------- */

static void a_close(void *priv)
{
	struct aeng *e = priv;

	if (!e)
		return;
	for (unsigned i = 0; i < e->nm; i++)
		drive_free(e->m[i].d);
	free(e->buf);
	free(e);
}

static int a_open(const struct io_target *t, void **priv, struct io_geom *g, struct ss_error *err)
{
	struct aeng *e;
	uint64_t min_blocks = UINT64_MAX;
	uint32_t lblock = 0, pblock = 0;
	double rd, wr;
	int rc = 0;

	if (!t->array)
		return ss_error_set(err, -EINVAL, "sim-array engine: no simulated array");
	e = calloc(1, sizeof(*e));
	if (!e)
		return ss_error_nomem(err);
	e->a = t->array;
	for (unsigned i = 0; i < sim_array_members(e->a) && !rc; i++) {
		struct amember *m = &e->m[i];
		struct io_geom mg;

		m->sd = sim_array_member(e->a, i);
		m->depth = io_sim_queue_depth(m->sd);
		/* its own phase and speed */
		sim_drive_turn(m->sd, (uint64_t)(sim_drive_rev_ns(m->sd) * fmod(i * M_SQRT2, 1.0)));
		m->drift = DRIFT * fmod(0.5 + i * 0.6180339887498949, 1.0);
		rc = io_sim_drive_open(m->sd, &m->d, &mg, err);
		e->nm = i + 1; /* a_close frees what opened */
		if (rc)
			break;
		if (mg.blocks < min_blocks)
			min_blocks = mg.blocks;
		if (!lblock) {
			lblock = mg.lblock;
			pblock = mg.pblock;
		} else if (mg.lblock != lblock) {
			rc = ss_error_set(err, -EINVAL, "%s has %u-byte blocks, the others %u",
					  drive_name(m->d), mg.lblock, lblock);
		}
	}
	if (!rc)
		rc = sim_array_md(e->a, min_blocks, lblock, &e->g, err);
	if (rc) {
		a_close(e);
		return rc;
	}
	sim_array_path(e->a, &rd, &wr);
	e->ns_per_byte[0] = rd > 0 ? 1e3 / rd : 0; /* MB/s = bytes per us */
	e->ns_per_byte[1] = wr > 0 ? 1e3 / wr : 0;
	e->latency_ns = sim_array_latency_ns(e->a);
	e->cache_rows_max = sim_array_stripe_cache(e->a) * e->g.groups;
	e->geom.lblock = lblock;
	e->geom.pblock = pblock;
	e->geom.blocks = e->g.blocks;
	e->geom.mem_align = 4096;
	*g = e->geom;
	*priv = e;
	return 0;
}

/* ---- events ---------------------------------------------------------------------- */

static bool ev_before(const struct ev *x, const struct ev *y)
{
	return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static int ev_push(struct aeng *e, uint64_t t, enum ev_type type, unsigned member, void *p)
{
	unsigned i;

	if (grow(&e->heap, e->nheap, &e->capheap, sizeof(*e->heap)))
		return -ENOMEM;
	i = e->nheap++;
	e->heap[i] = (struct ev){ t, e->seq++, type, member, p };
	while (i && ev_before(&e->heap[i], &e->heap[(i - 1) / 2])) {
		struct ev x = e->heap[i];

		e->heap[i] = e->heap[(i - 1) / 2];
		e->heap[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
	return 0;
}

static struct ev ev_pop(struct aeng *e)
{
	struct ev top = e->heap[0];
	unsigned i = 0;

	e->heap[0] = e->heap[--e->nheap];
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, s = i;

		if (l < e->nheap && ev_before(&e->heap[l], &e->heap[s]))
			s = l;
		if (r < e->nheap && ev_before(&e->heap[r], &e->heap[s]))
			s = r;
		if (s == i)
			break;
		{
			struct ev x = e->heap[i];

			e->heap[i] = e->heap[s];
			e->heap[s] = x;
		}
		i = s;
	}
	return top;
}

/* Stop the run with an error (the first one counts). */
static void fail_run(struct aeng *e, int rc)
{
	e->stop = true;
	if (!e->rc)
		e->rc = rc;
}

static void no_memory(struct aeng *e)
{
	if (!e->rc)
		ss_error_nomem(e->err);
	fail_run(e, -ENOMEM);
}

/* The path: data of bytes crosses it from from_ns on (or when it is free);
 * returns when it has crossed. */
static uint64_t link_cross(struct aeng *e, uint64_t bytes, bool write, double from_ns)
{
	double per = e->ns_per_byte[write], start;

	if (per <= 0)
		return e->now;
	start = e->link_free > from_ns ? e->link_free : from_ns;
	e->link_free = start + per * (double)bytes;
	return (uint64_t)(e->link_free + 0.999999);
}

/* ---- members ----------------------------------------------------------------------- */

static int member_enqueue(struct amember *m, struct mop *op)
{
	unsigned cq = m->capq, ct = m->capq, cv = m->capq;

	/* arrays of one capacity */
	if (grow(&m->q, m->nq, &cq, sizeof(*m->q)) ||
	    grow(&m->t_drive, m->nq, &ct, sizeof(*m->t_drive)) ||
	    grow(&m->view, m->nq, &cv, sizeof(*m->view)))
		return -ENOMEM;
	m->capq = cq;
	m->q[m->nq] = op;
	m->t_drive[m->nq] = UINT64_MAX;
	m->nq++;
	return 0;
}

/* Which queued command the drive serves next (as simeng.c's pick). */
static unsigned member_pick(struct amember *m, uint64_t now)
{
	unsigned n = m->nq < m->depth ? m->nq : m->depth;

	for (unsigned i = 0; i < n; i++) {
		const struct mop *op = m->q[i];

		if (m->t_drive[i] == UINT64_MAX)
			m->t_drive[i] = now;
		m->view[i] = (struct sim_queued){ op->lba, op->blocks, op->write,
						  now - m->t_drive[i] };
	}
	return sim_drive_schedule(m->sd, m->view, n);
}

static void job_op_failed(struct aeng *e, struct sjob *j, int rc, const struct ss_error *cerr)
{
	if (!j->rc)
		j->rc = rc;
	for (unsigned i = 0; i < j->nreqs; i++) {
		if (!j->reqs[i]->rc) {
			j->reqs[i]->rc = rc;
			j->reqs[i]->err = *cerr;
		}
	}
	if (rc == -ENODEV) { /* a drive that no longer answers ends the run */
		if (!e->rc)
			*e->err = *cerr;
		fail_run(e, rc);
	}
}

/* An idle member with commands queued starts the next one. */
static void member_kick(struct aeng *e, unsigned mi)
{
	struct amember *m = &e->m[mi];
	struct ss_error cerr = { 0 };
	struct scsi_sense sense;
	struct xcmd c;
	struct mop *op;
	uint64_t end;
	unsigned i;
	int crc;

	if (m->cur || m->destaging || !m->nq || e->stop)
		return;
	{
		/* idle (its write cache destaged meanwhile), and the drift of
		 * its speed since the last command */
		uint64_t idle = e->now > m->idle_from ? e->now - m->idle_from : 0;
		uint64_t drift = (uint64_t)(m->drift * (double)(e->now - m->turned_to));

		m->turned_to = e->now;
		m->idle_from = e->now;
		if (idle)
			sim_drive_idle(m->sd, idle);
		if (drift)
			sim_drive_turn(m->sd, drift);
	}
	i = member_pick(m, e->now);
	if (i == SIM_SCHED_DESTAGE) {
		uint64_t t = sim_drive_destage(m->sd);

		if (t) {
			m->destaging = true;
			if (ev_push(e, e->now + t, EV_DONE, mi, NULL))
				no_memory(e);
			return;
		}
		i = 0;
	}
	op = m->q[i];
	memmove(m->q + i, m->q + i + 1, (m->nq - i - 1) * sizeof(*m->q));
	memmove(m->t_drive + i, m->t_drive + i + 1, (m->nq - i - 1) * sizeof(*m->t_drive));
	m->nq--;
	memset(&c, 0, sizeof(c));
	c.cdb_len = op->write ? scsi_build_write16(c.cdb, op->lba, op->blocks, false)
			      : scsi_build_read16(c.cdb, op->lba, op->blocks, false);
	c.dir = op->write ? XFER_TO_DEV : XFER_FROM_DEV;
	c.data = e->buf;
	c.data_len = (size_t)op->blocks * e->geom.lblock;
	c.discard = !op->write;
	crc = drive_scsi(m->d, &c, &sense, &cerr);
	if (crc)
		job_op_failed(e, op->job, crc, &cerr);
	m->cur = op;
	op->dur = c.duration_ns;
	end = e->now + c.duration_ns;
	if (op->write && e->ns_per_byte[1] > 0) {
		/* the data crosses the path while the drive positions */
		uint64_t t = link_cross(e, c.data_len, true, (double)e->now);

		end = t > end ? t : end;
	}
	if (ev_push(e, end, EV_DONE, mi, NULL))
		no_memory(e);
}

/* ---- jobs and requests ---------------------------------------------------------------- */

static int send_op(struct aeng *e, struct mop *op)
{
	struct amember *m = &e->m[op->member];

	m->pending++;
	return member_enqueue(m, op);
}

/* Send the job's commands that may go now: the first ones, or (after) those
 * that waited for its reads. */
static int send_ops(struct aeng *e, struct sjob *j, bool after)
{
	for (unsigned i = 0; i < j->ops.n; i++) {
		const struct sim_md_op *o = &j->ops.v[i];
		struct mop *op;

		if (o->after != after)
			continue;
		op = malloc(sizeof(*op));
		if (!op)
			return -ENOMEM;
		*op = (struct mop){ j, o->member, o->lba, o->blocks, o->write, o->after, 0 };
		if (send_op(e, op)) {
			free(op);
			return -ENOMEM;
		}
	}
	return 0;
}

/* The run's live jobs and requests: doubly linked, so that a stopped run frees
 * what is left. */
#define LIST_ADD(head, x)                                                                          \
	do {                                                                                       \
		(x)->prev = NULL;                                                                  \
		(x)->next = (head);                                                                \
		if (head)                                                                          \
			(head)->prev = (x);                                                        \
		(head) = (x);                                                                      \
	} while (0)
#define LIST_DEL(head, x)                                                                          \
	do {                                                                                       \
		if ((x)->prev)                                                                     \
			(x)->prev->next = (x)->next;                                               \
		else                                                                               \
			(head) = (x)->next;                                                        \
		if ((x)->next)                                                                     \
			(x)->next->prev = (x)->prev;                                               \
	} while (0)

static struct sjob *job_new(struct aeng *e)
{
	struct sjob *j = calloc(1, sizeof(*j));

	if (j)
		LIST_ADD(e->jobs, j);
	return j;
}

static void job_free(struct aeng *e, struct sjob *j)
{
	if (!j)
		return;
	LIST_DEL(e->jobs, j);
	free(j->reqs);
	free(j->parts);
	free(j->ops.v);
	free(j);
}

static int job_add_req(struct sjob *j, struct areq *r)
{
	if (grow(&j->reqs, j->nreqs, &j->capreqs, sizeof(*j->reqs)))
		return -ENOMEM;
	j->reqs[j->nreqs++] = r;
	r->jobs_left++;
	return 0;
}

/* Count the job's commands and send the first ones. */
static int job_start(struct aeng *e, struct sjob *j)
{
	j->left = j->ops.n;
	j->reads_left = 0;
	for (unsigned i = 0; i < j->ops.n; i++)
		if (!j->ops.v[i].write)
			j->reads_left++;
	if (!j->left)
		return -EINVAL; /* every request moves a block at least */
	if (send_ops(e, j, false))
		return -ENOMEM;
	if (!j->reads_left) {
		j->sent_after = true;
		return send_ops(e, j, true);
	}
	return 0;
}

static struct stripe_ent *stripe_find(struct aeng *e, unsigned group, uint64_t stripe, bool make)
{
	unsigned b = (unsigned)((stripe * 31 + group) % STRIPE_BUCKETS);
	struct stripe_ent *s;

	for (s = e->bucket[b]; s; s = s->next)
		if (s->group == group && s->stripe == stripe)
			return s;
	if (!make)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->group = group;
	s->stripe = stripe;
	s->next = e->bucket[b];
	e->bucket[b] = s;
	return s;
}

static void lru_unlink(struct aeng *e, struct stripe_ent *s)
{
	if (!s->in_lru)
		return;
	if (s->lru_prev)
		s->lru_prev->lru_next = s->lru_next;
	else
		e->lru_head = s->lru_next;
	if (s->lru_next)
		s->lru_next->lru_prev = s->lru_prev;
	else
		e->lru_tail = s->lru_prev;
	s->lru_prev = s->lru_next = NULL;
	s->in_lru = false;
}

static void stripe_drop(struct aeng *e, struct stripe_ent *s)
{
	unsigned b = (unsigned)((s->stripe * 31 + s->group) % STRIPE_BUCKETS);
	struct stripe_ent **pp = &e->bucket[b];

	lru_unlink(e, s);
	e->cached_rows -= s->rows;
	while (*pp != s)
		pp = &(*pp)->next;
	*pp = s->next;
	free(s->cache);
	free(s);
}

/* What the cache holds of stripe s now (after a write), and room made for it:
 * the least recently used idle stripes leave; if s alone is more than the
 * cache holds, it keeps nothing of s either. */
static void stripe_account(struct aeng *e, struct stripe_ent *s)
{
	unsigned rows = s->cache ? sim_md_cached_rows(&e->g, s->cache) : 0;

	e->cached_rows += rows - s->rows;
	s->rows = rows;
	while (e->cached_rows > e->cache_rows_max && e->lru_head && e->lru_head != s)
		stripe_drop(e, e->lru_head);
	if (e->cached_rows > e->cache_rows_max && s->cache) {
		memset(s->cache, 0, sizeof(*s->cache));
		e->cached_rows -= s->rows;
		s->rows = 0;
	}
}

/* A stripe nothing is written to any more: the cache keeps what it holds of
 * it, as its most recently used idle stripe. */
static void stripe_idle(struct aeng *e, struct stripe_ent *s)
{
	stripe_account(e, s);
	if (!s->rows) {
		stripe_drop(e, s);
		return;
	}
	s->lru_prev = e->lru_tail;
	s->lru_next = NULL;
	if (e->lru_tail)
		e->lru_tail->lru_next = s;
	else
		e->lru_head = s;
	e->lru_tail = s;
	s->in_lru = true;
}

static int mark_dirty(struct aeng *e, struct stripe_ent *s)
{
	if (s->dirty)
		return 0;
	if (grow(&e->dirty, e->ndirty, &e->capdirty, sizeof(*e->dirty)))
		return -ENOMEM;
	e->dirty[e->ndirty++] = s;
	s->dirty = true;
	return 0;
}

/* A part of request r for stripe (group, stripe): joins the stripe's waiting job. */
static int stripe_add(struct aeng *e, struct areq *r, const struct sim_md_part *p)
{
	struct stripe_ent *s = stripe_find(e, p->group, p->stripe, true);
	struct sjob *j;

	if (!s)
		return -ENOMEM;
	j = s->waiting;
	if (!j) {
		j = job_new(e);
		if (!j)
			return -ENOMEM;
		j->stripe = true;
		j->group = p->group;
		j->key = p->stripe;
		s->waiting = j;
	}
	if (grow(&j->parts, j->nparts, &j->capparts, sizeof(*j->parts)))
		return -ENOMEM;
	j->parts[j->nparts++] = *p;
	if (job_add_req(j, r))
		return -ENOMEM;
	return s->active ? 0 : mark_dirty(e, s);
}

/* The end of a moment: stripes with nothing being written start what waits. */
static int stripes_settle(struct aeng *e)
{
	for (unsigned i = 0; i < e->ndirty; i++) {
		struct stripe_ent *s = e->dirty[i];
		struct sjob *j = s->waiting;

		s->dirty = false;
		if (s->active)
			continue;
		if (!j) {
			stripe_idle(e, s);
			continue;
		}
		lru_unlink(e, s);
		stripe_account(e, s); /* the last write's rows, if it just ended */
		s->active = j;
		s->waiting = NULL;
		if (!s->cache && !(s->cache = calloc(1, sizeof(*s->cache))))
			return -ENOMEM;
		if (sim_md_stripe_write(
			&e->g,
			&(struct sim_md_write){ j->group, j->key, j->parts, j->nparts, s->cache },
			&j->ops, NULL) ||
		    job_start(e, j))
			return -ENOMEM;
	}
	e->ndirty = 0;
	return 0;
}

/* md's read_balance (see the top of the file). */
static unsigned choose_copy(void *arg, const unsigned *member, const uint64_t *lba, unsigned k,
			    uint32_t blocks)
{
	struct aeng *e = arg;
	uint64_t best_d = UINT64_MAX;
	unsigned best = 0, pick = k;
	int idle = -1;

	for (unsigned j = 0; j < k && pick == k; j++) {
		const struct amember *m = &e->m[member[j]];
		uint64_t d = lba[j] > m->head ? lba[j] - m->head : m->head - lba[j];

		if (e->g.level == 1 && m->next_seq == lba[j])
			pick = j; /* RAID 1: a sequential read stays on its member */
		if (!m->pending && idle < 0)
			idle = (int)j;
		if (d < best_d) {
			best_d = d;
			best = j;
		}
	}
	if (pick == k)
		pick = idle >= 0 ? (unsigned)idle : best;
	e->m[member[pick]].next_seq = lba[pick] + blocks;
	return pick;
}

static int req_start(struct aeng *e, struct areq *r)
{
	struct sjob *j;

	if (r->write && e->g.parity) {
		struct sim_md_part stack[16], *parts = stack;
		unsigned n = sim_md_parts(&e->g, r->lba, r->blocks, parts, 16);
		int rc = 0;

		if (n > 16) {
			parts = malloc(n * sizeof(*parts));
			if (!parts)
				return -ENOMEM;
			sim_md_parts(&e->g, r->lba, r->blocks, parts, n);
		}
		for (unsigned i = 0; i < n && !rc; i++)
			rc = stripe_add(e, r, &parts[i]);
		if (parts != stack)
			free(parts);
		return rc;
	}
	j = job_new(e);
	if (!j || job_add_req(j, r) ||
	    sim_md_map(&e->g, r->lba, r->blocks, r->write, choose_copy, e, &j->ops) ||
	    job_start(e, j))
		return -ENOMEM; /* the run stops; run_fini frees it */
	return 0;
}

/* Hand the next request of the job to the array (now). */
static int req_next(struct aeng *e)
{
	struct io_req nr;
	struct areq *r;

	if (e->gen_done || e->stop || !io_gen_next(&e->gen, &nr)) {
		e->gen_done = true;
		return 0;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->lba = nr.lba;
	r->blocks = nr.blocks;
	r->write = nr.write;
	r->t_queued = e->now;
	LIST_ADD(e->reqs, r);
	return ev_push(e, e->now + e->latency_ns, EV_START, 0, r);
}

/* A failed request: as simeng.c's, the whole request counts as failed. */
static void req_failed(struct aeng *e, struct areq *r)
{
	const struct io_job *job = e->job;
	int cb = 0;

	if (!e->res->errors)
		e->res->first_error_lba = r->lba;
	e->res->errors++;
	if (job->on_error)
		cb = job->on_error(job->on_error_arg, r->lba, r->blocks, r->write, r->rc);
	if (job->on_done)
		job->on_done(job->on_done_arg, r->lba, r->blocks, r->write, r->rc,
			     e->now - r->t_queued);
	if (!cb && job->continue_on_error)
		return;
	if (cb)
		ss_error_set(e->err, cb, "sim:md:%s: stopped at LBA %llu", sim_array_name(e->a),
			     (unsigned long long)r->lba);
	else
		ss_error_set(e->err, r->rc, "%s (array LBA %llu)", r->err.msg,
			     (unsigned long long)r->lba);
	fail_run(e, cb ? cb : r->rc);
}

static void req_done(struct aeng *e, struct areq *r)
{
	struct io_result *res = e->res;
	const struct io_job *job = e->job;

	LIST_DEL(e->reqs, r);
	if (r->rc) {
		req_failed(e, r);
	} else {
		io_hist_add(&res->hist, e->now - r->t_queued);
		if (job->on_done)
			job->on_done(job->on_done_arg, r->lba, r->blocks, r->write, 0,
				     e->now - r->t_queued);
		res->bytes += (uint64_t)r->blocks * e->geom.lblock;
		res->ios++;
		if (r->write)
			res->writes++;
		else
			res->reads++;
	}
	res->elapsed_ns = e->now;
	free(r);
	if (job->time_ns && e->now >= job->time_ns)
		e->stop = true; /* time is up: what is still queued is not counted */
	if (!e->stop && ++e->done % REPORT_EVERY == 0) {
		double f = job->time_ns ? (double)e->now / (double)job->time_ns : 0;

		if (job->bytes && (double)e->gen.issued / (double)job->bytes > f)
			f = (double)e->gen.issued / (double)job->bytes;
		progress_report(job->progress, f > 1 ? 1 : f, job->phase ? job->phase : "", -1);
		if (progress_cancelled(job->progress)) {
			ss_error_set(e->err, -ECANCELED, "cancelled");
			fail_run(e, -ECANCELED);
		}
	}
	if (!e->stop && req_next(e))
		no_memory(e);
}

static void job_done(struct aeng *e, struct sjob *j)
{
	if (j->stripe) {
		struct stripe_ent *s = stripe_find(e, j->group, j->key, false);

		if (s) {
			s->active = NULL;
			if (mark_dirty(e, s))
				no_memory(e);
		}
	}
	for (unsigned i = 0; i < j->nreqs; i++)
		if (--j->reqs[i]->jobs_left == 0)
			req_done(e, j->reqs[i]);
	job_free(e, j);
}

/* A member command is over: the drive did it and its data crossed the path. */
static void op_done(struct aeng *e, struct mop *op)
{
	struct sjob *j = op->job;

	e->m[op->member].pending--;
	if (!op->write && --j->reads_left == 0 && !j->sent_after) {
		j->sent_after = true;
		if (!e->stop && send_ops(e, j, true))
			no_memory(e);
	}
	free(op);
	if (--j->left == 0)
		job_done(e, j);
}

static void handle(struct aeng *e, const struct ev *v)
{
	struct amember *m;
	struct mop *op;

	switch (v->type) {
	case EV_START:
		if (req_start(e, v->p))
			no_memory(e);
		break;
	case EV_DONE:
		m = &e->m[v->member];
		if (m->destaging) { /* the drive's own work: nothing completes */
			m->destaging = false;
			m->idle_from = e->now;
			break;
		}
		op = m->cur;
		m->cur = NULL;
		m->head = op->lba + op->blocks;
		m->idle_from = e->now;
		if (!op->write && e->ns_per_byte[0] > 0) {
			/* streamed from the end of the command back as far as the
			 * link could take it (not before the command began) */
			uint64_t bytes = (uint64_t)op->blocks * e->geom.lblock;
			double x = e->ns_per_byte[0] * (double)bytes;
			double from = (double)e->now - (x < (double)op->dur ? x : (double)op->dur);
			uint64_t t = link_cross(e, bytes, false, from);

			if (t > e->now) {
				if (ev_push(e, t, EV_XFER, v->member, op))
					no_memory(e);
				break;
			}
		}
		op_done(e, op);
		break;
	case EV_XFER:
		op_done(e, v->p);
		break;
	}
}

/* Free what a stopped run left: queued commands, stripes, jobs, requests. */
static void run_fini(struct aeng *e)
{
	for (unsigned i = 0; i < e->nm; i++) {
		struct amember *m = &e->m[i];

		for (unsigned k = 0; k < m->nq; k++)
			free(m->q[k]);
		free(m->cur);
		free(m->q);
		free(m->t_drive);
		free(m->view);
		m->q = NULL;
		m->t_drive = NULL;
		m->view = NULL;
		m->nq = m->capq = m->pending = 0;
		m->cur = NULL;
		m->destaging = false;
		m->idle_from = m->turned_to = 0; /* the next run's clock starts at 0 */
	}
	for (unsigned i = 0; i < e->nheap; i++)
		if (e->heap[i].type == EV_XFER)
			free(e->heap[i].p); /* a command; EV_START's request is in e->reqs */
	for (unsigned b = 0; b < STRIPE_BUCKETS; b++) {
		while (e->bucket[b]) {
			struct stripe_ent *st = e->bucket[b];

			e->bucket[b] = st->next;
			free(st->cache);
			free(st);
		}
	}
	e->lru_head = e->lru_tail = NULL;
	e->cached_rows = 0;
	while (e->jobs)
		job_free(e, e->jobs);
	while (e->reqs) {
		struct areq *r = e->reqs;

		LIST_DEL(e->reqs, r);
		free(r);
	}
	free(e->heap);
	free(e->dirty);
	e->heap = NULL;
	e->dirty = NULL;
	e->nheap = e->capheap = e->ndirty = e->capdirty = 0;
}

static int a_run(void *priv, const struct io_job *job, struct io_result *res, struct ss_error *err)
{
	struct aeng *e = priv;
	size_t need = io_job_max_bytes(job, e->geom.lblock);

	if (need < e->g.chunk * e->geom.lblock)
		need = e->g.chunk * e->geom.lblock;
	if (e->buflen < need) {
		void *p;

		if (posix_memalign(&p, 4096, need))
			return ss_error_nomem(err);
		memset(p, 0, need);
		free(e->buf);
		e->buf = p;
		e->buflen = need;
	}
	e->now = e->seq = 0;
	e->link_free = 0;
	e->stop = e->gen_done = false;
	e->rc = 0;
	e->err = err;
	e->job = job;
	e->res = res;
	e->done = 0;
	io_gen_init(&e->gen, job, &e->geom);
	for (unsigned i = 0; i < job->qd && !e->rc; i++)
		if (req_next(e))
			no_memory(e);
	while (e->nheap && !e->stop) {
		struct ev v = ev_pop(e);

		e->now = v.t;
		handle(e, &v);
		/* everything of this moment first, then the stripes and the drives */
		while (e->nheap && e->heap[0].t == e->now && !e->stop) {
			v = ev_pop(e);
			handle(e, &v);
		}
		if (!e->stop && stripes_settle(e))
			no_memory(e);
		for (unsigned i = 0; i < e->g.n && !e->stop; i++)
			member_kick(e, i);
	}
	run_fini(e);
	return e->rc;
}

const struct io_engine_ops io_engine_sim_array = {
	.name = "sim-array",
	.caps = IO_CAP_WRITE | IO_CAP_QUEUE | IO_CAP_VIRTUAL_TIME | IO_CAP_ERROR_LBA,
	.open = a_open,
	.close = a_close,
	.run = a_run,
};
