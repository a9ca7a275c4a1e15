/* sim_array.c - simulated md arrays: what md makes of a request.
 *
 * Pure layout: array blocks to member commands, as md(4) and the kernel's md
 * drivers lay them out (docs/simulator.md, "Arrays", has the sources):
 *
 * - RAID 0: chunk c on member c mod n, at row c / n.
 * - RAID 1: every member holds the whole array; no chunks.
 * - RAID 10, "near" copies k: the copies of chunk c sit at positions
 *   p = c k + j (j < k) of the rows of n chunks: member p mod n, row p / n.
 * - RAID 5 and 6, left-symmetric (md's default): stripe s of a group of g
 *   members has its parity P on member g - 1 - (s mod g), RAID 6's Q on the
 *   next one (mod g), and data chunk i on member (P + 1 + i) mod g (RAID 5)
 *   or (P + 2 + i) mod g (RAID 6): the data starts after the parity and
 *   wraps around.
 * - RAID 50 and 60: RAID 0, with the same chunk, over groups of RAID 5 or 6
 *   (chunk c goes to group c mod G as that group's chunk c / G).
 *
 * Writes to RAID 5/6 go by stripe and row, the way md's stripe cache
 * decides: sim_md_stripe_write. Timing is the I/O engine's (src/io).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_priv.h"

/* ---- the rig's arrays --------------------------------------------------- */

unsigned sim_rig_array_count(const struct sim_rig *rig)
{
	return rig ? rig->narrays : 0;
}

struct sim_array *sim_rig_array(struct sim_rig *rig, unsigned i)
{
	return rig && i < rig->narrays ? &rig->arrays[i] : NULL;
}

struct sim_array *sim_rig_find_array(struct sim_rig *rig, const char *name)
{
	for (unsigned i = 0; rig && name && i < rig->narrays; i++)
		if (!strcmp(rig->arrays[i].name, name))
			return &rig->arrays[i];
	return NULL;
}

const char *sim_array_name(const struct sim_array *a)
{
	return a->name;
}

const char *sim_array_level_text(const struct sim_array *a)
{
	switch (a->level) {
	case 0:
		return "RAID 0";
	case 1:
		return "RAID 1";
	case 10:
		return "RAID 10";
	case 5:
		return "RAID 5";
	case 6:
		return "RAID 6";
	case 50:
		return "RAID 50";
	default:
		return "RAID 60";
	}
}

unsigned sim_array_members(const struct sim_array *a)
{
	return a->n;
}

struct sim_drive *sim_array_member(const struct sim_array *a, unsigned i)
{
	return i < a->n ? a->member[i] : NULL;
}

void sim_array_path(const struct sim_array *a, double *read_mbps, double *write_mbps)
{
	*read_mbps = a->read_mbps;
	*write_mbps = a->write_mbps;
}

uint64_t sim_array_latency_ns(const struct sim_array *a)
{
	return (uint64_t)((a->latency_us + a->per_member_us * a->n) * 1e3 + 0.5);
}

unsigned sim_array_stripe_cache(const struct sim_array *a)
{
	return a->stripe_cache;
}

/* ---- geometry ------------------------------------------------------------ */

static bool is_parity(int level)
{
	return level == 5 || level == 6 || level == 50 || level == 60;
}

int sim_md_check(int level, unsigned n, unsigned copies, unsigned groups, struct ss_error *err)
{
	unsigned k, g, per;

	if (level != 0 && level != 1 && level != 10 && !is_parity(level))
		return ss_error_set(
		    err, -EINVAL, "RAID %d is not modelled: give 0, 1, 10, 5, 6, 50 or 60", level);
	if (n > SIM_ARRAY_MAX_MEMBERS)
		return ss_error_set(err, -EINVAL, "at most %d members, it has %u",
				    SIM_ARRAY_MAX_MEMBERS, n);
	switch (level) {
	case 0:
	case 1:
		if (n < 2)
			return ss_error_set(
			    err, -EINVAL, "RAID %d needs at least 2 members, it has %u", level, n);
		if (level == 1 && copies && copies != n)
			return ss_error_set(
			    err, -EINVAL, "RAID 1 keeps a copy on every member: copies must be %u",
			    n);
		return 0;
	case 10:
		k = copies ? copies : 2;
		if (k < 2 || n < k)
			return ss_error_set(
			    err, -EINVAL,
			    "RAID 10 with %u near copies needs at least %u members, it has %u", k,
			    k < 2 ? 2 : k, n);
		return 0;
	case 5:
	case 6:
		if (n < (level == 5 ? 3u : 4u))
			return ss_error_set(err, -EINVAL,
					    "RAID %d needs at least %u members, it has %u", level,
					    level == 5 ? 3u : 4u, n);
		return 0;
	default:
		g = groups ? groups : 2;
		per = level == 50 ? 3 : 4;
		if (g < 2 || n % g || n / g < per)
			return ss_error_set(
			    err, -EINVAL,
			    "RAID %d in %u groups needs a multiple of %u members with at least "
			    "%u in each group, it has %u",
			    level, g, g, per, n);
		return 0;
	}
}

int sim_array_md(const struct sim_array *a, uint64_t member_blocks, uint32_t lblock,
		 struct sim_md *g, struct ss_error *err)
{
	uint64_t rows;

	memset(g, 0, sizeof(*g));
	if (sim_md_check(a->level, a->n, a->copies, a->groups, err)) {
		ss_error_prefix(err, "array %s: ", a->name);
		return -EINVAL;
	}
	if (!lblock || ((uint64_t)a->chunk_kib * 1024) % lblock)
		return ss_error_set(err, -EINVAL,
				    "array %s: a chunk of %u KiB is no multiple of the members' "
				    "%u-byte blocks",
				    a->name, a->chunk_kib, lblock);
	g->level = a->level;
	g->n = a->n;
	g->copies = a->level == 1 ? a->n : a->level == 10 ? (a->copies ? a->copies : 2) : 1;
	g->groups = a->level == 50 || a->level == 60 ? (a->groups ? a->groups : 2) : 1;
	g->gsize = a->n / g->groups;
	g->parity = a->level == 5 || a->level == 50 ? 1 : a->level == 6 || a->level == 60 ? 2 : 0;
	g->dg = g->gsize - g->parity;
	g->chunk = (uint64_t)a->chunk_kib * 1024 / lblock;
	g->row_blocks = lblock < 4096 ? 4096 / lblock : 1;
	if (a->level == 1) {
		g->member_blocks = member_blocks;
		g->blocks = member_blocks;
	} else {
		rows = member_blocks / g->chunk;
		g->member_blocks = rows * g->chunk;
		if (a->level == 0)
			g->blocks = g->member_blocks * g->n;
		else if (a->level == 10)
			g->blocks = rows * g->n / g->copies * g->chunk;
		else
			g->blocks = g->member_blocks * g->groups * g->dg;
	}
	if (!g->blocks)
		return ss_error_set(err, -EINVAL,
				    "array %s: members of %llu blocks hold no chunk of %u KiB",
				    a->name, (unsigned long long)member_blocks, a->chunk_kib);
	return 0;
}

/* ---- member commands -------------------------------------------------------- */

/* Append op, merged into a command on the same member that it continues or
 * precedes (the block layer merges the pieces of one request). */
static int push(struct sim_md_ops *ops, const struct sim_md_op *op)
{
	for (unsigned i = ops->n; i-- > 0;) {
		struct sim_md_op *o = &ops->v[i];

		if (o->member != op->member || o->write != op->write || o->after != op->after ||
		    (uint64_t)o->blocks + op->blocks > UINT32_MAX)
			continue;
		if (o->lba + o->blocks == op->lba) {
			o->blocks += op->blocks;
			return 0;
		}
		if (op->lba + op->blocks == o->lba) {
			o->lba = op->lba;
			o->blocks += op->blocks;
			return 0;
		}
	}
	if (ops->n == ops->cap) {
		unsigned cap = ops->cap ? 2 * ops->cap : 16;
		struct sim_md_op *v = realloc(ops->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ops->v = v;
		ops->cap = cap;
	}
	ops->v[ops->n++] = *op;
	return 0;
}

void sim_md_stripe_members(const struct sim_md *g, unsigned group, uint64_t stripe, unsigned *data,
			   int *p, int *q)
{
	unsigned base = group * g->gsize;
	unsigned pd = g->gsize - 1 - (unsigned)(stripe % g->gsize);
	unsigned first = pd + g->parity; /* data starts after P (and Q) */

	*p = (int)(base + pd);
	*q = g->parity > 1 ? (int)(base + (pd + 1) % g->gsize) : -1;
	for (unsigned i = 0; i < g->dg; i++)
		data[i] = base + (first + i) % g->gsize;
}

/* A parity array's data chunk c: its group, stripe and index in the stripe. */
static void parity_chunk(const struct sim_md *g, uint64_t c, unsigned *group, uint64_t *stripe,
			 unsigned *i)
{
	uint64_t gc = c / g->groups;

	*group = (unsigned)(c % g->groups);
	*stripe = gc / g->dg;
	*i = (unsigned)(gc % g->dg);
}

/* What sim_md_map was asked: the direction, how to choose a copy, where the commands go */
struct map_to {
	bool write;
	sim_md_choose_fn choose;
	void *arg;
	struct sim_md_ops *ops;
};

/* Read one copy of (or write every copy of) a piece held on several members. */
static int put_copies(const struct map_to *m, const unsigned *member, const uint64_t *lba,
		      unsigned k, uint32_t blocks)
{
	struct sim_md_ops *ops = m->ops;
	unsigned pick;

	if (m->write) {
		for (unsigned j = 0; j < k; j++) {
			struct sim_md_op op = { member[j], lba[j], blocks, true, false };

			if (push(ops, &op))
				return -ENOMEM;
		}
		return 0;
	}
	pick = m->choose ? m->choose(m->arg, member, lba, k, blocks) : 0;
	if (pick >= k)
		pick = 0;
	{
		struct sim_md_op op = { member[pick], lba[pick], blocks, false, false };

		return push(ops, &op);
	}
}

int sim_md_map(const struct sim_md *g, uint64_t lba, uint32_t blocks, bool write,
	       sim_md_choose_fn choose, void *arg, struct sim_md_ops *ops)
{
	unsigned member[SIM_ARRAY_MAX_MEMBERS];
	uint64_t at[SIM_ARRAY_MAX_MEMBERS];
	uint64_t end = lba + blocks;
	const struct map_to m = { write, choose, arg, ops };

	if (write && is_parity(g->level))
		return -EINVAL; /* by stripe: sim_md_parts, sim_md_stripe_write */
	if (g->level == 1) {
		for (unsigned j = 0; j < g->n; j++) {
			member[j] = j;
			at[j] = lba;
		}
		return put_copies(&m, member, at, g->n, blocks);
	}
	while (lba < end) {
		uint64_t c = lba / g->chunk, off = lba % g->chunk;
		uint32_t len = (uint32_t)(g->chunk - off < end - lba ? g->chunk - off : end - lba);
		struct sim_md_op op = { 0, 0, len, write, false };
		int rc = 0;

		if (g->level == 0) {
			op.member = (unsigned)(c % g->n);
			op.lba = c / g->n * g->chunk + off;
			rc = push(ops, &op);
		} else if (g->level == 10) {
			for (unsigned j = 0; j < g->copies; j++) {
				uint64_t p = c * g->copies + j;

				member[j] = (unsigned)(p % g->n);
				at[j] = p / g->n * g->chunk + off;
			}
			rc = put_copies(&m, member, at, g->copies, len);
		} else {
			unsigned data[SIM_ARRAY_MAX_MEMBERS], group, i;
			uint64_t stripe;
			int p, q;

			parity_chunk(g, c, &group, &stripe, &i);
			sim_md_stripe_members(g, group, stripe, data, &p, &q);
			op.member = data[i];
			op.lba = stripe * g->chunk + off;
			rc = push(ops, &op);
		}
		if (rc)
			return rc;
		lba += len;
	}
	return 0;
}

unsigned sim_md_parts(const struct sim_md *g, uint64_t lba, uint32_t blocks,
		      struct sim_md_part *parts, unsigned max)
{
	/* per group: the part still open (a group's pieces of one request are
	 * consecutive in its data) */
	uint64_t open_stripe[SIM_ARRAY_MAX_MEMBERS], open_end[SIM_ARRAY_MAX_MEMBERS];
	unsigned open_idx[SIM_ARRAY_MAX_MEMBERS];
	bool open[SIM_ARRAY_MAX_MEMBERS] = { false };
	uint64_t end = lba + blocks;
	unsigned n = 0;

	while (lba < end) {
		uint64_t c = lba / g->chunk, off = lba % g->chunk, stripe, d;
		uint64_t len = g->chunk - off < end - lba ? g->chunk - off : end - lba;
		unsigned group, i;

		parity_chunk(g, c, &group, &stripe, &i);
		d = i * g->chunk + off;
		if (open[group] && open_stripe[group] == stripe && open_end[group] == d) {
			open_end[group] = d + len;
			if (open_idx[group] < max)
				parts[open_idx[group]].end = d + len;
		} else {
			open[group] = true;
			open_stripe[group] = stripe;
			open_end[group] = d + len;
			open_idx[group] = n;
			if (n < max)
				parts[n] = (struct sim_md_part){ group, stripe, d, d + len };
			n++;
		}
		lba += len;
	}
	return n;
}

/* Sort and deduplicate v[0..n) (small n). */
static unsigned sort_unique(uint64_t *v, unsigned n)
{
	unsigned m = 0;

	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (unsigned i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/* Whether row offset x of data chunk i is written by one of the parts. */
static bool written(const struct sim_md *g, const struct sim_md_part *r, unsigned nr, unsigned i,
		    uint64_t x)
{
	uint64_t d = i * g->chunk + x;

	for (unsigned j = 0; j < nr; j++)
		if (r[j].start <= d && d < r[j].end)
			return true;
	return false;
}

/* Whether block b (data 0 .. dg-1, P, Q) of the stripe holds row x up to date. */
static bool cached_at(const struct sim_md *g, const struct sim_md_cached *c, unsigned b, uint64_t x)
{
	uint64_t row = x / g->row_blocks;

	return c && row < SIM_MD_ROWS_MAX && (c->up[b][row / 64] >> (row % 64) & 1);
}

static void cache_rows(const struct sim_md *g, struct sim_md_cached *c, unsigned b, uint64_t x,
		       uint64_t y)
{
	for (uint64_t row = x / g->row_blocks;
	     c && row * g->row_blocks < y && row < SIM_MD_ROWS_MAX; row++)
		c->up[b][row / 64] |= 1ULL << (row % 64);
}

unsigned sim_md_cached_rows(const struct sim_md *g, const struct sim_md_cached *c)
{
	unsigned n = 0, blocks = g->dg + g->parity;

	for (unsigned w = 0; w < SIM_MD_ROWS_MAX / 64; w++) {
		uint64_t any = 0;

		for (unsigned b = 0; b < blocks; b++)
			any |= c->up[b][w];
		n += (unsigned)__builtin_popcountll(any);
	}
	return n;
}

/* A stripe being written: where its chunks are (members data[], parity p
 * and q), its cache entry, where the commands go and the rows by way. */
struct stripe_put {
	const struct sim_md *g;
	uint64_t stripe;
	unsigned data[SIM_ARRAY_MAX_MEMBERS];
	int p, q;
	struct sim_md_cached *cache;
	struct sim_md_ops *ops;
	struct sim_md_how *how;
};

/* The commands of the rows [x, y) of a stripe whose data chunks in mask are
 * written. */
static int put_rows(const struct stripe_put *sp, uint64_t mask, uint64_t x, uint64_t y)
{
	const struct sim_md *g = sp->g;
	const unsigned *data = sp->data;
	int p = sp->p, q = sp->q;
	struct sim_md_cached *cache = sp->cache;
	struct sim_md_ops *ops = sp->ops;
	struct sim_md_how *how = sp->how;
	uint64_t stripe = sp->stripe;
	unsigned blocks = g->dg + g->parity, member[SIM_ARRAY_MAX_MEMBERS];
	unsigned rmw = 0, rcw = 0, way; /* way: 0 no reads, 1 rmw, 2 rcw */
	bool up[SIM_ARRAY_MAX_MEMBERS], written_b[SIM_ARRAY_MAX_MEMBERS];
	uint64_t at = stripe * g->chunk + x;
	uint32_t len = (uint32_t)(y - x);
	int rc = 0;

	for (unsigned b = 0; b < blocks; b++) {
		member[b] = b < g->dg ? data[b] : (unsigned)(b == g->dg ? p : q);
		written_b[b] = b >= g->dg || (mask >> b & 1); /* parity is always written */
		up[b] = cached_at(g, cache, b, x);
		if (written_b[b] && !up[b])
			rmw++;
		if (!written_b[b] && !up[b])
			rcw++;
	}
	/* md: read-modify-write only when it reads fewer, and reads at all;
	 * reconstruct-write on a tie */
	way = rmw < rcw && rmw > 0 ? 1 : rcw <= rmw && rcw > 0 ? 2 : 0;
	for (unsigned b = 0; b < blocks && !rc; b++) {
		struct sim_md_op rd = { member[b], at, len, false, false };

		if (!up[b] && ((way == 1 && written_b[b]) || (way == 2 && !written_b[b]))) {
			rc = push(ops, &rd);
			cache_rows(g, cache, b, x, y);
		}
	}
	for (unsigned b = 0; b < blocks && !rc; b++) {
		struct sim_md_op wr = { member[b], at, len, true, way != 0 };

		if (written_b[b]) {
			rc = push(ops, &wr);
			cache_rows(g, cache, b, x, y);
		}
	}
	if (how)
		*((unsigned)__builtin_popcountll(mask) == g->dg ? &how->full
		  : way == 1					? &how->rmw
		  : way == 2					? &how->rcw
								: &how->cached) += len;
	return rc;
}

int sim_md_stripe_write(const struct sim_md *g, const struct sim_md_write *w,
			struct sim_md_ops *ops, struct sim_md_how *how)
{
	struct stripe_put sp = { g, w->stripe, { 0 }, 0, 0, w->cache, ops, how };
	const struct sim_md_part *r = w->parts;
	struct sim_md_cached *cache = w->cache;
	unsigned nb = 0, blocks = g->dg + g->parity, nr = w->nparts, group = w->group;
	uint64_t rows = (g->chunk + g->row_blocks - 1) / g->row_blocks, *bp;
	int rc = 0;

	if (how)
		memset(how, 0, sizeof(*how));
	if (!is_parity(g->level) || group >= g->groups)
		return -EINVAL;
	if (rows > SIM_MD_ROWS_MAX)
		rows = SIM_MD_ROWS_MAX;
	/* row offsets where what is written, or what the cache holds, changes */
	bp = malloc((2 * (size_t)nr * g->dg + 2 + (cache ? rows : 0)) * sizeof(*bp));
	if (!bp)
		return -ENOMEM;
	bp[nb++] = 0;
	bp[nb++] = g->chunk;
	for (unsigned j = 0; j < nr; j++) {
		for (unsigned i = 0; i < g->dg; i++) {
			uint64_t lo = i * g->chunk, hi = lo + g->chunk;
			uint64_t a = r[j].start > lo ? r[j].start : lo;
			uint64_t b = r[j].end < hi ? r[j].end : hi;

			if (a < b) {
				bp[nb++] = a - lo;
				bp[nb++] = b - lo;
			}
		}
	}
	for (uint64_t row = 1; cache && row < rows; row++)
		for (unsigned b = 0; b < blocks; b++)
			if (cached_at(g, cache, b, row * g->row_blocks) !=
			    cached_at(g, cache, b, (row - 1) * g->row_blocks)) {
				bp[nb++] = row * g->row_blocks;
				break;
			}
	nb = sort_unique(bp, nb);
	sim_md_stripe_members(g, group, w->stripe, sp.data, &sp.p, &sp.q);
	/* the row ranges are disjoint: what one adds to the cache does not change
	 * what the next finds (but for writes of less than a 4 KiB row) */
	for (unsigned e = 0; e + 1 < nb && !rc; e++) {
		uint64_t mask = 0;

		for (unsigned i = 0; i < g->dg; i++)
			if (written(g, r, nr, i, bp[e]))
				mask |= 1ULL << i;
		if (mask)
			rc = put_rows(&sp, mask, bp[e], bp[e + 1]);
	}
	free(bp);
	return rc;
}
