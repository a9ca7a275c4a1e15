/* sim_cache.c - the write cache: a write with WCE set returns once its data
 * is in the cache (command overhead + transfer over the host link) while
 * the cache has room; the cache is written to the medium (destaged) in the
 * background, the piece whose positioning time from the heads is shortest
 * first; a full cache makes a write wait for destaging; FLUSH CACHE and
 * SYNCHRONIZE CACHE wait for all of it.
 *
 * Virtual time, and deterministic: the destager works in the time it is
 * given ("credit"): while the drive serves cached writes with nothing else
 * waiting for the mechanics (they are free while the host link moves
 * data), and while it idles (sim_drive_idle, sim_drive_advance_clock; real
 * time between commands is not counted, as elsewhere in the media model);
 * the drive's scheduler also has it write a piece instead of serving a
 * command as the cache fills (sim_sched.c, sim_cache_destage_ns). A
 * command that needs the mechanics (a read, a write-through, a verify)
 * finds a piece under way still positioning given up (nothing is written
 * yet: it stays cached and the heads are taken to be where they were) and
 * one that writes finishing first. Timing only: the data is in the store
 * as soon as it is written, and a power cycle forgets the cache without
 * losing it.
 *
 * The dirty extents sit in buckets by LBA. Seek time grows with distance,
 * so the search for the nearest extent walks buckets outwards from the
 * heads and stops in each direction once the seek to a bucket's edge
 * alone is longer than the best positioning time found.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_priv.h"

#define WC_BUCKETS 1024u
#define PIECE_BYTES (1u << 20) /* a destage writes at most this much at once */

static double cache_bytes(const struct sim_drive *d)
{
	return d->cfg.cache_mib * 1048576.0;
}

static int wc_setup(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;
	unsigned i;

	if (w->b)
		return 0;
	w->nb = WC_BUCKETS;
	w->span = sim_media_span(d);
	w->b = calloc(w->nb, sizeof(*w->b));
	w->edge_s = calloc(w->nb + 1, sizeof(*w->edge_s));
	if (!w->b || !w->edge_s) {
		free(w->b);
		free(w->edge_s);
		w->b = NULL;
		w->edge_s = NULL;
		return -ENOMEM;
	}
	for (i = 0; i <= w->nb; i++)
		w->edge_s[i] = sim_media_stroke(d, (uint64_t)((double)w->span * i / w->nb));
	w->cap_bytes = (uint64_t)cache_bytes(d);
	w->link_bps = sim_link_mbps(d) * 1e6 / 1e9;
	return 0;
}

static unsigned bucket_of(const struct sim_wcache *w, uint64_t lba)
{
	if (lba >= w->span)
		return w->nb - 1;
	return (unsigned)((double)lba * w->nb / (double)w->span);
}

static int bucket_add(struct sim_wcache *w, uint64_t lba, uint32_t blocks)
{
	struct sim_wc_bucket *b = &w->b[bucket_of(w, lba)];

	if (b->n == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 4;
		struct sim_wc_ent *e = realloc(b->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		b->e = e;
		b->cap = cap;
	}
	b->e[b->n++] = (struct sim_wc_ent){ lba, blocks };
	w->nent++;
	return 0;
}

static void bucket_del(struct sim_wcache *w, unsigned k, uint32_t i)
{
	struct sim_wc_bucket *b = &w->b[k];

	b->e[i] = b->e[--b->n];
	w->nent--;
}

/* The extent starting at lba, or NULL */
static struct sim_wc_ent *find(struct sim_wcache *w, uint64_t lba, unsigned *k, uint32_t *i)
{
	struct sim_wc_bucket *b;

	*k = bucket_of(w, lba);
	b = &w->b[*k];
	for (*i = 0; *i < b->n; (*i)++)
		if (b->e[*i].lba == lba)
			return &b->e[*i];
	return NULL;
}

/* The extent with the shortest positioning time from the heads (in *tbest) */
static bool pick(const struct sim_drive *d, unsigned *bk, uint32_t *bi, double *tbest)
{
	const struct sim_wcache *w = &d->wc;
	struct sim_head h;
	double best = 1e300;
	unsigned hb;
	bool found = false, lo_done = false, hi_done = false;

	if (!w->nent)
		return false;
	sim_media_head(d, &h);
	hb = bucket_of(w, d->st.head_lba);
	for (unsigned step = 0; !(lo_done && hi_done); step++) {
		for (int dir = -1; dir <= 1; dir += 2) {
			bool *done = dir < 0 ? &lo_done : &hi_done;
			long kk = (long)hb + dir * (long)step;
			const struct sim_wc_bucket *b;
			double edge;

			if (*done || (step == 0 && dir > 0))
				continue;
			if (kk < 0 || kk >= (long)w->nb) {
				*done = true;
				continue;
			}
			if (step > 0) {
				edge = dir < 0 ? w->edge_s[kk + 1] : w->edge_s[kk];
				if (sim_media_seek(d, edge - h.s) >= best) {
					*done = true;
					continue;
				}
			}
			b = &w->b[kk];
			for (uint32_t i = 0; i < b->n; i++) {
				double t = sim_media_position(d, &h, b->e[i].lba, 0, best);

				if (t < best) {
					best = t;
					*bk = (unsigned)kk;
					*bi = i;
					found = true;
					if (t <= 0)
						goto out;
				}
			}
		}
	}
out:
	*tbest = best;
	return found;
}

/* Start destaging the next piece; false when the cache is empty */
static bool start_next(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;
	uint64_t max = PIECE_BYTES / d->cfg.lblock, lba, piece;
	struct sim_wc_ent *e;
	double t;
	unsigned k;
	uint32_t i;

	if (!w->b || !pick(d, &k, &i, &t))
		return false;
	e = &w->b[k].e[i];
	lba = e->lba;
	piece = e->blocks < max ? e->blocks : (max ? max : 1);
	if (piece == e->blocks) {
		bucket_del(w, k, i);
		if (w->last_valid && w->last_lba == lba)
			w->last_valid = false;
	} else {
		uint32_t rest = (uint32_t)(e->blocks - piece);

		bucket_del(w, k, i);
		/* the rest stays cached (allocation cannot fail: a slot was
		 * just freed when it lands in the same bucket; else it may) */
		if (bucket_add(w, lba + piece, rest) == 0) {
			if (w->last_valid && w->last_lba == lba)
				w->last_lba = lba + piece;
		} else {
			piece += rest; /* no room to keep it apart: all at once */
			if (w->last_valid && w->last_lba == lba)
				w->last_valid = false;
		}
	}
	w->busy = true;
	w->busy_bytes = piece * d->cfg.lblock;
	w->busy_lba = lba;
	w->busy_blocks = (uint32_t)piece;
	w->from_head_lba = d->st.head_lba;
	w->from_next_lba = d->st.next_lba;
	w->from_spin = d->spin;
	w->busy_ns = sim_media_destage_ns(d, lba, piece, &w->busy_pos_ns);
	w->busy_total_ns = w->busy_ns;
	return true;
}

static void finish(struct sim_wcache *w)
{
	w->dirty -= w->busy_bytes < w->dirty ? w->busy_bytes : w->dirty;
	w->destaged += w->busy_bytes;
	w->busy = false;
	w->busy_ns = 0;
	w->busy_bytes = 0;
}

/* Let the destager work for the time it was given; returns what it did not
 * use (the cache went empty) */
static uint64_t run(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;
	uint64_t left;

	while (w->credit_ns > 0) {
		if (!w->busy && !start_next(d)) {
			left = w->credit_ns;
			w->credit_ns = 0; /* nothing to do */
			return left;
		}
		if (w->busy_ns > w->credit_ns) {
			w->busy_ns -= w->credit_ns;
			w->credit_ns = 0;
			return 0;
		}
		w->credit_ns -= w->busy_ns;
		finish(w);
	}
	return 0;
}

bool sim_cache_has_room(const struct sim_drive *d, uint64_t bytes)
{
	return d->wc.dirty + bytes <= (uint64_t)cache_bytes(d);
}

double sim_cache_next_position(const struct sim_drive *d)
{
	double t;
	unsigned k;
	uint32_t i;

	if (!d->wc.b || !pick(d, &k, &i, &t))
		return 1e300;
	return t;
}

uint64_t sim_cache_write_ns(struct sim_drive *d, uint64_t lba, uint64_t blocks)
{
	struct sim_wcache *w = &d->wc;
	uint64_t bytes = blocks * d->cfg.lblock, t = 0, dt;
	struct sim_wc_ent *e = NULL;
	unsigned k;
	uint32_t i;

	if (wc_setup(d))
		return sim_cache_flush_ns(d) + d->cfg.overhead_ns +
		       sim_media_destage_ns(d, lba, blocks, NULL);
	run(d);
	while (w->dirty + bytes > w->cap_bytes) {
		if (!w->busy && !start_next(d))
			break;
		t += w->busy_ns;
		finish(w);
	}
	/* a write continuing the last one extends its extent */
	if (w->last_valid && w->last_end == lba)
		e = find(w, w->last_lba, &k, &i);
	if (e && e->blocks + blocks <= UINT32_MAX) {
		e->blocks += (uint32_t)blocks;
		w->last_end = lba + blocks;
	} else if (bucket_add(w, lba, (uint32_t)blocks) == 0) {
		w->last_valid = true;
		w->last_lba = lba;
		w->last_end = lba + blocks;
	} else {
		/* out of memory: write through */
		return t + sim_cache_flush_ns(d) + d->cfg.overhead_ns +
		       sim_media_destage_ns(d, lba, blocks, NULL);
	}
	w->dirty += bytes;
	dt = d->cfg.overhead_ns + (uint64_t)((double)bytes / w->link_bps);
	if (!d->mech_waiting)
		w->credit_ns += dt; /* the mechanics work while the host link does */
	return t + dt;
}

/* The piece under way ends: its time still to go */
static uint64_t settle(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;
	uint64_t t = 0;

	if (!w->b)
		return 0;
	run(d);
	if (w->busy) {
		t = w->busy_ns;
		finish(w);
	}
	return t;
}

void sim_cache_give_way(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;
	uint64_t done;

	if (!w->b)
		return;
	run(d);
	if (!w->busy)
		return;
	done = w->busy_total_ns - w->busy_ns;
	if (done >= w->busy_pos_ns || bucket_add(w, w->busy_lba, w->busy_blocks))
		return; /* writing (or no memory to keep it apart): it goes on */
	/* still positioning: given up, the heads back where it started while
	 * the platter turned on */
	d->st.head_lba = w->from_head_lba;
	d->st.next_lba = w->from_next_lba;
	d->spin = d->cfg.media.rev_ns > 0
		      ? fmod(w->from_spin + (double)done / d->cfg.media.rev_ns, 1.0)
		      : 0;
	w->busy = false;
	w->busy_ns = 0;
	w->busy_bytes = 0;
}

uint64_t sim_cache_yield_ns(struct sim_drive *d)
{
	sim_cache_give_way(d);
	return settle(d);
}

uint64_t sim_cache_destage_ns(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;
	uint64_t t;

	if (!w->b)
		return 0;
	run(d);
	if (!w->busy && !start_next(d))
		return 0;
	t = w->busy_ns;
	finish(w);
	return t;
}

uint64_t sim_cache_idle_ns(struct sim_drive *d, uint64_t ns)
{
	struct sim_wcache *w = &d->wc;
	uint64_t left;

	if (sim_flash_on(d)) {
		sim_flash_idle(d, ns);
		return ns;
	}
	if (!w->b || (!w->dirty && !w->credit_ns))
		return ns;
	w->credit_ns += ns;
	left = run(d);
	return left < ns ? left : ns;
}

uint64_t sim_cache_flush_ns(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;
	uint64_t t;

	if (sim_flash_on(d))
		return sim_flash_flush_ns(d);
	t = settle(d);
	while (w->b && start_next(d)) {
		t += w->busy_ns;
		finish(w);
	}
	return t;
}

void sim_cache_drop(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;

	if (!w->b)
		return;
	for (unsigned k = 0; k < w->nb; k++)
		w->b[k].n = 0;
	w->nent = 0;
	w->dirty = 0;
	w->credit_ns = 0;
	w->busy = false;
	w->busy_ns = 0;
	w->busy_bytes = 0;
	w->last_valid = false;
}

void sim_cache_fini(struct sim_drive *d)
{
	struct sim_wcache *w = &d->wc;

	if (w->b)
		for (unsigned k = 0; k < w->nb; k++)
			free(w->b[k].e);
	free(w->b);
	free(w->edge_s);
	memset(w, 0, sizeof(*w));
}
