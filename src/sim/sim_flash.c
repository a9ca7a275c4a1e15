/* sim_flash.c - a flash drive: NAND in erase blocks behind a page-mapped
 * FTL with greedy garbage collection, TRIM and UNMAP, a write buffer, and
 * the time the dies take (docs/flash.md).
 *
 * The FTL maps 4 KiB pages (the mapping unit of today's SSDs). A write goes
 * to the open block's next free page; the old copy becomes invalid. When
 * fewer than GC_RESERVE blocks are free, garbage collection takes the block
 * with the fewest valid pages (greedy), moves them to the write frontier
 * and erases it. TRIM / UNMAP invalidate pages without writing: what the
 * host never writes is spare area, so the write amplification of random
 * writes falls as the spare grows (Hu et al. 2009; Desnoyers 2012).
 *
 * Scale: the FTL holds at most FTL_MAX_PAGES logical pages. A larger drive
 * is modelled by the same flash with proportionally fewer blocks: host page
 * u is FTL page u * L / U. Under uniform random writes that is the same
 * process on fewer pages (the write amplification of greedy GC depends on
 * the spare factor and the pages per block, not on the number of blocks
 * once there are hundreds); a TRIM shorter than one FTL page frees nothing.
 *
 * The FTL is built on a flash drive's first read or write in a process:
 * the mapped pages written once in order, then as many random overwrites
 * of them as PRECONDITION times their number, as SNIA's performance test
 * specification preconditions a drive, so that a benchmark starts in the
 * steady state of what is mapped. What persists is which pages are mapped.
 *
 * Time: each command costs the drive's overhead and the transfer over the
 * host link; a write is taken into the write buffer (cache_mib) while it
 * has room, and its flash work (its programs, and the reads, programs and
 * erases of the garbage collection it sets off) is spread over the dies,
 * which work in parallel: the back end serves work / dies. A write waits
 * for buffer room when the back end is behind; FUA, or the write cache
 * off, waits for its programs. A read takes one page read per page it
 * touches that is mapped, over the dies. The model keeps its own clock,
 * moved by its commands and by idle time, so it stays deterministic.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <scsi/sg_unaligned.h>

#include "shortstroke/sense.h"
#include "sim/sim_priv.h"

#define UNIT 4096u		 /* the FTL's page: the host's mapping unit */
#define FTL_MAX_PAGES (1u << 19) /* logical pages the FTL holds at most */
#define GC_RESERVE 2u		 /* free blocks garbage collection keeps */
#define PRECONDITION 3u		 /* random overwrites per mapped page */
#define NONE 0xffffffffu	 /* an unmapped page, an empty slot */
#define MAX_EXTENTS 4096u	 /* unmapped ranges persisted */
#define TRIM_ENTRY_BLOCKS 65535u /* an ATA DSM range entry's length */

enum { B_FREE = 0, B_OPEN, B_CLOSED };

struct sim_ftl {
	uint64_t units;		     /* host pages of the native capacity */
	uint32_t L;		     /* logical pages */
	uint32_t np;		     /* pages per erase block */
	uint32_t nblocks;	     /* physical blocks */
	uint32_t *map;		     /* logical -> physical, NONE */
	uint32_t *rmap;		     /* physical -> logical, NONE */
	uint32_t *valid;	     /* per block */
	int32_t *next, *prev, *head; /* closed blocks in lists by valid count */
	uint8_t *bstate;
	uint32_t *freeq, nfree;
	uint32_t open, wp;
	uint64_t mapped;
	uint64_t rng;
	struct sim_flash_stats st;
};

bool sim_flash_on(const struct sim_drive *d)
{
	return d && d->cfg.flash.on;
}

/* Micron MT29F64G08CBAAA (25 nm MLC, ONFI 2.2) data sheet, "Features":
 * 8 KiB pages (8,192 + 448 bytes), 256 pages per block, 2 planes, read
 * page 75 us (max), program page 1,300 us (typ), erase block 3.8 ms (typ).
 * 8 dies and 7.37 % spare (256 GiB of flash for 256 GB) are typical of a
 * 256 GB SATA SSD of that generation (docs/flash.md). */
void sim_flash_defaults(struct sim_flash_cfg *f)
{
	f->page_kib = 8;
	f->planes = 2;
	f->block_pages = 256;
	f->dies = 8;
	f->read_us = 75;
	f->program_us = 1300;
	f->erase_ms = 3.8;
	f->spare_pct = 7.37;
	f->fresh = false;
	f->trim = SIM_TRIM_RZAT;
	f->unmap = true;
}

static uint64_t host_units(const struct sim_drive *d)
{
	uint64_t u = d->cfg.blocks * d->cfg.lblock / UNIT;

	return u ? u : 1;
}

static uint32_t ftl_pages(const struct sim_drive *d)
{
	uint64_t u = host_units(d);

	return u > FTL_MAX_PAGES ? FTL_MAX_PAGES : (uint32_t)u;
}

/* FTL page of host page u */
static uint32_t page_of(const struct sim_drive *d, uint64_t u)
{
	uint64_t U = host_units(d);
	uint32_t L = ftl_pages(d);

	if (u >= U)
		u = U - 1;
	return (uint32_t)((unsigned __int128)u * L / U);
}

/* The FTL pages whose host pages all lie in [u0, u1): [*m0, *m1) */
static void pages_inside(const struct sim_drive *d, uint64_t u0, uint64_t u1, uint32_t *m0,
			 uint32_t *m1)
{
	uint64_t U = host_units(d);
	uint32_t L = ftl_pages(d);
	unsigned __int128 a = (unsigned __int128)u0 * L;

	if (u1 > U)
		u1 = U;
	*m0 = (uint32_t)((a + U - 1) / U);
	*m1 = (uint32_t)((unsigned __int128)u1 * L / U);
	if (*m1 < *m0)
		*m1 = *m0;
}

/* ---- the unmapped extents (what persists) ---- */

static int ext_add(struct sim_flash *fl, uint32_t first, uint32_t last)
{
	struct sim_flash_ext *e = fl->ext;
	uint32_t i = 0, j, n = fl->next;

	/* sorted and apart: [i, j) are the extents it touches, merged into it */
	while (i < n && (uint64_t)e[i].last + 1 < first)
		i++;
	for (j = i; j < n && e[j].first <= (uint64_t)last + 1; j++) {
		if (e[j].first < first)
			first = e[j].first;
		if (e[j].last > last)
			last = e[j].last;
	}
	if (j == i) { /* none: room for one more */
		if (n == fl->next_cap) {
			uint32_t cap = fl->next_cap ? 2 * fl->next_cap : 8;
			struct sim_flash_ext *x = realloc(fl->ext, cap * sizeof(*x));

			if (!x)
				return -ENOMEM;
			fl->ext = e = x;
			fl->next_cap = cap;
		}
		memmove(e + i + 1, e + i, (n - i) * sizeof(*e));
		n++;
	} else if (j > i + 1) {
		memmove(e + i + 1, e + j, (n - j) * sizeof(*e));
		n -= j - i - 1;
	}
	e[i].first = first;
	e[i].last = last;
	fl->next = n;
	return 0;
}

int sim_flash_init(struct sim_drive *d)
{
	struct sim_flash *fl = &d->fl;

	memset(fl, 0, sizeof(*fl));
	if (!sim_flash_on(d))
		return 0;
	if (d->cfg.flash.fresh)
		return ext_add(fl, 0, ftl_pages(d) - 1);
	return 0;
}

static void ftl_free(struct sim_ftl *f)
{
	if (!f)
		return;
	free(f->map);
	free(f->rmap);
	free(f->valid);
	free(f->next);
	free(f->prev);
	free(f->head);
	free(f->bstate);
	free(f->freeq);
	free(f);
}

void sim_flash_fini(struct sim_drive *d)
{
	ftl_free(d->fl.ftl);
	free(d->fl.ext);
	free(d->fl.fifo);
	memset(&d->fl, 0, sizeof(d->fl));
}

/* ---- the FTL ---- */

static void list_del(struct sim_ftl *f, uint32_t b)
{
	int32_t p = f->prev[b], n = f->next[b];

	if (p >= 0)
		f->next[p] = n;
	else
		f->head[f->valid[b]] = n;
	if (n >= 0)
		f->prev[n] = p;
}

static void list_add(struct sim_ftl *f, uint32_t b)
{
	int32_t h = f->head[f->valid[b]];

	f->prev[b] = -1;
	f->next[b] = h;
	if (h >= 0)
		f->prev[h] = (int32_t)b;
	f->head[f->valid[b]] = (int32_t)b;
}

static void invalidate(struct sim_ftl *f, uint32_t phys)
{
	uint32_t b = phys / f->np;

	f->rmap[phys] = NONE;
	if (f->bstate[b] == B_CLOSED) {
		list_del(f, b);
		f->valid[b]--;
		list_add(f, b);
	} else {
		f->valid[b]--;
	}
}

/* Program logical page m at the write frontier (a new block from the free
 * ones when the open one is full) */
static void program(struct sim_ftl *f, uint32_t m)
{
	uint32_t phys;

	if (f->wp == f->np) {
		f->bstate[f->open] = B_CLOSED;
		list_add(f, f->open);
		f->open = f->freeq[--f->nfree];
		f->bstate[f->open] = B_OPEN;
		f->wp = 0;
	}
	phys = f->open * f->np + f->wp++;
	f->rmap[phys] = m;
	f->map[m] = phys;
	f->valid[f->open]++;
	f->st.programs++;
}

/* Greedy: the closed block with the fewest valid pages, its valid pages
 * moved, erased. False when no block would gain anything. */
static bool collect(struct sim_ftl *f)
{
	uint32_t v, b, i;

	for (v = 0; v < f->np && f->head[v] < 0; v++)
		;
	if (v >= f->np)
		return false;
	b = (uint32_t)f->head[v];
	list_del(f, b);
	f->bstate[b] = B_FREE; /* taken out: not a victim twice */
	for (i = 0; i < f->np && f->valid[b]; i++) {
		uint32_t m = f->rmap[b * f->np + i];

		if (m == NONE)
			continue;
		f->rmap[b * f->np + i] = NONE;
		f->valid[b]--;
		program(f, m);
		f->st.gc_moves++;
	}
	f->valid[b] = 0;
	f->freeq[f->nfree++] = b;
	f->st.erases++;
	return true;
}

static void ftl_write(struct sim_ftl *f, uint32_t m)
{
	if (f->map[m] != NONE)
		invalidate(f, f->map[m]);
	else
		f->mapped++;
	while (f->nfree < GC_RESERVE && collect(f))
		;
	program(f, m);
	f->st.host_pages++;
}

static void ftl_trim(struct sim_ftl *f, uint32_t m)
{
	if (f->map[m] == NONE)
		return;
	invalidate(f, f->map[m]);
	f->map[m] = NONE;
	f->mapped--;
}

static uint64_t rnd(struct sim_ftl *f)
{
	/* xorshift64* */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545f4914f6cdd1dULL;
}

static bool ext_has(const struct sim_flash *fl, uint32_t m, uint32_t *i)
{
	while (*i < fl->next && fl->ext[*i].last < m)
		(*i)++;
	return *i < fl->next && fl->ext[*i].first <= m;
}

static int ftl_build(struct sim_drive *d)
{
	const struct sim_flash_cfg *c = &d->cfg.flash;
	struct sim_flash *fl = &d->fl;
	struct sim_ftl *f;
	uint64_t phys, want, n, tries;
	uint32_t m, i, b, e = 0;

	if (fl->ftl)
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->units = host_units(d);
	f->L = ftl_pages(d);
	f->np = c->block_pages * c->page_kib * 1024 / UNIT;
	if (f->np < 2)
		f->np = 2;
	phys = (uint64_t)((double)f->L * (1 + c->spare_pct / 100) + 0.5);
	f->nblocks = (uint32_t)((phys + f->np - 1) / f->np);
	/* room for the frontier and the reserve beyond the logical pages */
	if (f->nblocks < (f->L + f->np - 1) / f->np + GC_RESERVE + 2)
		f->nblocks = (f->L + f->np - 1) / f->np + GC_RESERVE + 2;
	n = (uint64_t)f->nblocks * f->np;
	f->map = malloc((size_t)f->L * sizeof(*f->map));
	f->rmap = malloc((size_t)n * sizeof(*f->rmap));
	f->valid = calloc(f->nblocks, sizeof(*f->valid));
	f->next = malloc(f->nblocks * sizeof(*f->next));
	f->prev = malloc(f->nblocks * sizeof(*f->prev));
	f->head = malloc((f->np + 1) * sizeof(*f->head));
	f->bstate = calloc(f->nblocks, 1);
	f->freeq = malloc(f->nblocks * sizeof(*f->freeq));
	if (!f->map || !f->rmap || !f->valid || !f->next || !f->prev || !f->head || !f->bstate ||
	    !f->freeq) {
		ftl_free(f);
		return -ENOMEM;
	}
	memset(f->map, 0xff, (size_t)f->L * sizeof(*f->map));
	memset(f->rmap, 0xff, (size_t)n * sizeof(*f->rmap));
	for (i = 0; i <= f->np; i++)
		f->head[i] = -1;
	for (b = 0; b < f->nblocks; b++)
		f->freeq[f->nfree++] = f->nblocks - 1 - b;
	f->open = f->freeq[--f->nfree];
	f->bstate[f->open] = B_OPEN;
	f->rng = d->cfg.unit.seed ^ 0x9e3779b97f4a7c15ULL;
	if (!f->rng)
		f->rng = 1;
	/* precondition: the mapped pages in order, then random overwrites */
	for (m = 0; m < f->L; m++)
		if (!ext_has(fl, m, &e))
			ftl_write(f, m);
	want = f->mapped * PRECONDITION;
	for (n = 0, tries = 0; n < want && tries < 4 * want; tries++) {
		m = (uint32_t)(rnd(f) % f->L);
		if (f->map[m] == NONE)
			continue;
		ftl_write(f, m);
		n++;
	}
	memset(&f->st, 0, sizeof(f->st));
	fl->saved_mapped = f->mapped;
	fl->ftl = f;
	fl->next = 0; /* the map says it now */
	return 0;
}

/* Whether FTL page m is mapped, the FTL built or not */
static bool is_mapped(const struct sim_drive *d, uint32_t m)
{
	const struct sim_flash *fl = &d->fl;
	uint32_t lo = 0, hi = fl->next;

	if (fl->ftl)
		return fl->ftl->map[m] != NONE;
	while (lo < hi) { /* the extents are sorted and apart */
		uint32_t mid = lo + (hi - lo) / 2;

		if (fl->ext[mid].last < m)
			lo = mid + 1;
		else
			hi = mid;
	}
	return !(lo < fl->next && fl->ext[lo].first <= m);
}

/* ---- persistence ---- */

struct json_object *sim_flash_to_json(const struct sim_drive *d)
{
	const struct sim_flash *fl = &d->fl;
	struct json_object *arr = json_object_new_array();
	struct sim_flash_ext ext[MAX_EXTENTS];
	uint32_t n = 0, m, i;

	if (!arr)
		return NULL;
	if (fl->ftl) {
		const struct sim_ftl *f = fl->ftl;

		for (m = 0; m < f->L; m++) {
			if (f->map[m] != NONE)
				continue;
			if (n && ext[n - 1].last + 1 == m) {
				ext[n - 1].last = m;
				continue;
			}
			if (n == MAX_EXTENTS) {
				/* the shortest goes: taken as mapped (less spare than
				 * there is, never more) */
				uint32_t s = 0;

				for (i = 1; i < n; i++)
					if (ext[i].last - ext[i].first < ext[s].last - ext[s].first)
						s = i;
				memmove(ext + s, ext + s + 1, (n - s - 1) * sizeof(*ext));
				n--;
			}
			ext[n].first = ext[n].last = m;
			n++;
		}
		for (i = 0; i < n; i++) {
			struct json_object *e = json_object_new_array();

			json_object_array_add(e, json_object_new_int64(ext[i].first));
			json_object_array_add(e, json_object_new_int64(ext[i].last));
			json_object_array_add(arr, e);
		}
		return arr;
	}
	for (i = 0; i < fl->next; i++) {
		struct json_object *e = json_object_new_array();

		json_object_array_add(e, json_object_new_int64(fl->ext[i].first));
		json_object_array_add(e, json_object_new_int64(fl->ext[i].last));
		json_object_array_add(arr, e);
	}
	return arr;
}

int sim_flash_from_json(struct sim_drive *d, struct json_object *arr)
{
	struct sim_flash *fl = &d->fl;
	uint32_t L = ftl_pages(d);
	size_t i, n;

	if (!sim_flash_on(d) || !arr || !json_object_is_type(arr, json_type_array))
		return 0;
	ftl_free(fl->ftl);
	fl->ftl = NULL;
	fl->next = 0;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		int64_t a = json_object_get_int64(json_object_array_get_idx(e, 0));
		int64_t b = json_object_get_int64(json_object_array_get_idx(e, 1));

		if (a < 0 || b < a || b >= (int64_t)L)
			continue;
		if (ext_add(fl, (uint32_t)a, (uint32_t)b))
			return -ENOMEM;
	}
	return 0;
}

/* ---- time ---- */

static double link_ns(const struct sim_drive *d, uint64_t bytes)
{
	return (double)bytes / (sim_link_mbps(d) * 1e6 / 1e9);
}

/* Buffered writes whose programs ended by t leave the buffer */
static void drain(struct sim_flash *fl, uint64_t t)
{
	while (fl->fn && fl->fifo[fl->fhead].done_ns <= t) {
		fl->buffered -= fl->fifo[fl->fhead].bytes;
		fl->fhead = (fl->fhead + 1) % fl->fcap;
		fl->fn--;
	}
}

/* When room for bytes is free in a buffer of cap bytes */
static uint64_t room_at(const struct sim_flash *fl, uint64_t bytes, uint64_t cap, uint64_t now)
{
	uint64_t left = fl->buffered, t = now;
	uint32_t i;

	for (i = 0; i < fl->fn && left + bytes > cap && left; i++) {
		const struct sim_flash_io *e = &fl->fifo[(fl->fhead + i) % fl->fcap];

		left -= e->bytes;
		t = e->done_ns;
	}
	return t;
}

static int fifo_push(struct sim_flash *fl, uint64_t done, uint64_t bytes)
{
	if (fl->fn == fl->fcap) {
		uint32_t cap = fl->fcap ? 2 * fl->fcap : 64, i;
		struct sim_flash_io *x = malloc(cap * sizeof(*x));

		if (!x)
			return -ENOMEM;
		for (i = 0; i < fl->fn; i++)
			x[i] = fl->fifo[(fl->fhead + i) % fl->fcap];
		free(fl->fifo);
		fl->fifo = x;
		fl->fcap = cap;
		fl->fhead = 0;
	}
	fl->fifo[(fl->fhead + fl->fn) % fl->fcap] = (struct sim_flash_io){ done, bytes };
	fl->fn++;
	fl->buffered += bytes;
	return 0;
}

/* The die time of what the FTL did between two snapshots of its counts */
static double work_ns(const struct sim_flash_cfg *c, const struct sim_flash_stats *a,
		      const struct sim_flash_stats *b)
{
	double per_prog = (double)c->page_kib * c->planes * 1024 / UNIT;
	double per_read = (double)c->page_kib * 1024 / UNIT;

	return (double)(b->programs - a->programs) * c->program_us * 1e3 / per_prog +
	       (double)(b->gc_moves - a->gc_moves) * c->read_us * 1e3 / per_read +
	       (double)(b->erases - a->erases) * c->erase_ms * 1e6;
}

static uint64_t to_ns(double t)
{
	return t <= 0 ? 0 : t > 1e18 ? (uint64_t)1e18 : (uint64_t)(t + 0.5);
}

uint64_t sim_flash_io_ns(struct sim_drive *d, uint64_t lba, uint64_t n, bool write, bool fua)
{
	const struct sim_flash_cfg *c = &d->cfg.flash;
	struct sim_flash *fl = &d->fl;
	uint64_t lb = d->cfg.lblock, bytes = n * lb;
	uint64_t u0 = lba * lb / UNIT, u1 = ((lba + n) * lb + UNIT - 1) / UNIT, u;
	uint64_t now, start, accept, dur;
	double ovh = (double)d->cfg.overhead_ns;
	struct sim_ftl *f;

	/* the command's control time (sim_drive_exec's) passed first: the dies
	 * worked meanwhile */
	fl->t_ns += CONTROL_CMD_NS;
	now = fl->t_ns;
	if (!write) {
		/* a read needs no FTL built: what is unmapped is known without it */
		uint64_t pages = 0, per = c->page_kib * 1024 / UNIT, last = UINT64_MAX;

		for (u = u0; u < u1; u++) {
			if (is_mapped(d, page_of(d, u)) && u / per != last) {
				pages++;
				last = u / per;
			}
		}
		dur = to_ns(ovh + link_ns(d, bytes) +
			    (double)((pages + c->dies - 1) / c->dies) * c->read_us * 1e3);
		fl->t_ns += dur;
		return dur;
	}
	if (ftl_build(d))
		return to_ns(ovh + link_ns(d, bytes)); /* no memory for the model */
	f = fl->ftl;
	drain(fl, now);
	start = now;
	if (fl->buffered && fl->buffered + bytes > (uint64_t)(d->cfg.cache_mib * 1048576.0)) {
		start = room_at(fl, bytes, (uint64_t)(d->cfg.cache_mib * 1048576.0), now);
		drain(fl, start);
	}
	accept = start + to_ns(ovh + link_ns(d, bytes));
	{
		struct sim_flash_stats before = f->st;
		double w;

		for (u = u0; u < u1; u++)
			ftl_write(f, page_of(d, u));
		/* pages mapped anew persist once they add up to a 1/1024 of the
		 * drive (a save per write would cost a benchmark dearly) */
		if (f->mapped > fl->saved_mapped + f->L / 1024) {
			fl->saved_mapped = f->mapped;
			d->dirty = true;
		}
		w = work_ns(c, &before, &f->st);
		if (fl->backend_ns < accept)
			fl->backend_ns = accept;
		fl->backend_ns += to_ns(w / c->dies);
	}
	if (fua || !d->st.wce || fifo_push(fl, fl->backend_ns, bytes))
		dur = (fl->backend_ns > accept ? fl->backend_ns : accept) - now;
	else
		dur = accept - now;
	fl->t_ns = now + dur;
	return dur;
}

/* TRIM / UNMAP of [lba, lba+n): its pages unmapped; zeros in the store when
 * the drive reads zeros after it. Returns its time. */
static uint64_t sim_flash_trim(struct sim_drive *d, uint64_t lba, uint64_t n)
{
	struct sim_flash *fl = &d->fl;
	uint64_t lb = d->cfg.lblock;
	uint64_t u0 = (lba * lb + UNIT - 1) / UNIT, u1 = (lba + n) * lb / UNIT;
	uint32_t m0, m1, m;

	if (d->cfg.flash.trim == SIM_TRIM_RZAT)
		sim_store_discard(d, lba * lb, n * lb);
	d->dirty = true;
	if (u1 <= u0)
		return 0;
	pages_inside(d, u0, u1, &m0, &m1);
	if (m1 <= m0)
		return 0;
	if (fl->ftl) {
		for (m = m0; m < m1; m++)
			ftl_trim(fl->ftl, m);
	} else if (ext_add(fl, m0, m1 - 1)) {
		return 0;
	}
	/* the map is updated in DRAM: a few ns per page */
	return (uint64_t)(m1 - m0) * 4;
}

uint64_t sim_flash_flush_ns(struct sim_drive *d)
{
	struct sim_flash *fl = &d->fl;
	uint64_t now = fl->t_ns, dur = fl->backend_ns > now ? fl->backend_ns - now : 0;

	fl->t_ns += dur;
	drain(fl, fl->t_ns);
	return dur;
}

void sim_flash_idle(struct sim_drive *d, uint64_t ns)
{
	d->fl.t_ns += ns;
	drain(&d->fl, d->fl.t_ns);
}

int sim_drive_flash_stats(struct sim_drive *d, struct sim_flash_stats *out)
{
	const struct sim_ftl *f;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!sim_flash_on(d))
		return -EOPNOTSUPP;
	pthread_mutex_lock(&d->lock);
	rc = ftl_build(d);
	if (!rc) {
		f = d->fl.ftl;
		*out = f->st;
		out->pages = f->L;
		out->mapped = f->mapped;
		out->spare = f->mapped ? (double)f->nblocks * f->np / (double)f->mapped - 1 : 0;
	}
	pthread_mutex_unlock(&d->lock);
	return rc;
}

void sim_drive_flash_stats_reset(struct sim_drive *d)
{
	if (!sim_flash_on(d))
		return;
	pthread_mutex_lock(&d->lock);
	if (d->fl.ftl)
		memset(&d->fl.ftl->st, 0, sizeof(d->fl.ftl->st));
	pthread_mutex_unlock(&d->lock);
}

/* ---- commands ---- */

/* An unmap of [lba, lba+n) inside the capacity: its time, or false after
 * the sense was set */
static bool unmap_range(struct sim_cmd *sc, uint64_t lba, uint64_t n)
{
	uint64_t cap = sim_capacity(sc->d);

	if (lba > cap || n > cap - lba) {
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x21, 0x00);
		return false;
	}
	sc->media_ns += sim_flash_trim(sc->d, lba, n);
	return true;
}

void sim_scsi_unmap(struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb, *p = sc->out;
	uint32_t len = sg_get_unaligned_be16(cdb + 7), bdl, i;

	if (!sim_flash_on(sc->d) || sc->d->cfg.flash.trim == SIM_TRIM_NONE || sc->d->cfg.sata ||
	    !sc->d->cfg.flash.unmap) {
		sim_bad_opcode(sc);
		return;
	}
	if (cdb[1] & 0x01) {
		sim_bad_cdb(sc, 1, 0); /* ANCHOR: no anchored state */
		return;
	}
	if (len == 0)
		return;
	if (len < 8 || !p || sc->out_len < len) {
		sim_bad_cdb(sc, 7, -1);
		return;
	}
	bdl = sg_get_unaligned_be16(p + 2);
	if (bdl % 16 || 8 + bdl > len) {
		sim_bad_param(sc, 2);
		return;
	}
	if (bdl / 16 > 64) { /* MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT */
		sim_bad_param(sc, 2);
		return;
	}
	sc->moved = len;
	for (i = 0; i < bdl / 16; i++) {
		const uint8_t *e = p + 8 + 16 * i;
		uint64_t lba = sg_get_unaligned_be64(e), n = sg_get_unaligned_be32(e + 8);

		if (lba > sim_capacity(sc->d) || n > sim_capacity(sc->d) - lba) {
			sim_sense(sc, SK_ILLEGAL_REQUEST, 0x21, 0x00); /* nothing unmapped */
			return;
		}
	}
	for (i = 0; i < bdl / 16; i++) {
		const uint8_t *e = p + 8 + 16 * i;

		unmap_range(sc, sg_get_unaligned_be64(e), sg_get_unaligned_be32(e + 8));
	}
}

void sim_scsi_write_same(struct sim_cmd *sc, bool sixteen)
{
	const uint8_t *cdb = sc->c->cdb;
	struct sim_drive *d = sc->d;
	uint64_t lba = sixteen ? sg_get_unaligned_be64(cdb + 2) : sg_get_unaligned_be32(cdb + 2);
	uint64_t n = sixteen ? sg_get_unaligned_be32(cdb + 10) : sg_get_unaligned_be16(cdb + 7);
	bool unmap = cdb[1] & 0x08, ndob = sixteen && (cdb[1] & 0x01);
	uint64_t cap = sim_capacity(d), i;
	uint32_t lb = d->cfg.lblock;

	if (n == 0)
		n = cap > lba ? cap - lba : 0; /* to the end (WSNZ 0) */
	if (lba > cap || n > cap - lba) {
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x21, 0x00);
		return;
	}
	if (!ndob && (!sc->out || sc->out_len < lb)) {
		sim_bad_cdb(sc, sixteen ? 10 : 7, -1);
		return;
	}
	if (!ndob)
		sc->moved = lb; /* the one block it repeats */
	if (unmap && sim_flash_on(d) && d->cfg.flash.trim != SIM_TRIM_NONE) {
		bool zero = ndob;

		for (i = 0; !zero && i < lb && !sc->out[i]; i++)
			;
		zero = zero || i == lb;
		/* the data must be what an unmapped block reads (SBC-4): zeros
		 * where the drive reads zeros after it */
		if (zero) {
			unmap_range(sc, lba, n);
			return;
		}
	}
	if (ndob) {
		sim_bad_cdb(sc, 1, 0); /* NDOB without UNMAP: not emulated */
		return;
	}
	/* written block by block: a time for the whole, the data stored */
	for (i = 0; i < n; i++)
		if (sim_store_write(d, (lba + i) * lb, sc->out, lb)) {
			sim_sense(sc, SK_HARDWARE_ERROR, 0x44, 0x00);
			return;
		}
	sc->media_ns += sim_media_io_ns(d, lba, n, true, false);
}

/* Block Limits (SBC-4 6.6.4): unmap limits, and WRITE SAME's length */
unsigned sim_flash_vpd_b0(const struct sim_drive *d, uint8_t *b)
{
	bool lbp = sim_flash_on(d) && d->cfg.flash.trim != SIM_TRIM_NONE &&
		   (d->cfg.sata || d->cfg.flash.unmap);

	sg_put_unaligned_be16(0x3c, b + 2);
	sg_put_unaligned_be32(0xffff, b + 8); /* MAXIMUM TRANSFER LENGTH */
	if (lbp) {
		/* libata: 65535 blocks per range entry, a 512-byte page of 64 entries */
		sg_put_unaligned_be32(d->cfg.sata ? TRIM_ENTRY_BLOCKS * 64 : 0xffffffff, b + 20);
		sg_put_unaligned_be32(d->cfg.sata ? 1 : 64, b + 24);
		sg_put_unaligned_be32(UNIT / d->cfg.lblock, b + 28); /* OPTIMAL UNMAP GRANULARITY */
	}
	sg_put_unaligned_be64(d->cfg.sata ? TRIM_ENTRY_BLOCKS * 64 : 0xffffffff, b + 36);
	return 64;
}

/* Logical Block Provisioning (SBC-4 6.6.6): LBPU, LBPWS, LBPWS10, LBPRZ */
unsigned sim_flash_vpd_b2(const struct sim_drive *d, uint8_t *b)
{
	enum sim_trim t = sim_flash_on(d) ? d->cfg.flash.trim : SIM_TRIM_NONE;

	sg_put_unaligned_be16(4, b + 2);
	if (t != SIM_TRIM_NONE) {
		/* a SATL (libata) translates WRITE SAME (16) with UNMAP only */
		b[5] = (uint8_t)((d->cfg.sata || !d->cfg.flash.unmap ? 0 : 0x80) | 0x40 |
				 (d->cfg.sata ? 0 : 0x20));
		if (t == SIM_TRIM_RZAT)
			b[5] |= 0x04; /* LBPRZ: 001b, unmapped blocks read zeros */
		if (t != SIM_TRIM_NONDET)
			b[5] |= 0x02; /* ANC_SUP */
		b[6] = 0x02;	      /* provisioning type: thin */
	}
	return 8;
}

uint8_t sim_flash_rc16_bits(const struct sim_drive *d)
{
	enum sim_trim t = sim_flash_on(d) ? d->cfg.flash.trim : SIM_TRIM_NONE;

	if (t == SIM_TRIM_NONE)
		return 0;
	return (uint8_t)(0x80 | (t == SIM_TRIM_RZAT ? 0x40 : 0));
}

/* DATA SET MANAGEMENT, TRIM (ACS-3 7.5): COUNT 512-byte pages of range
 * entries, each 48 bits of LBA and 16 of length (0: unused) */
void sim_ata_dsm(struct sim_ata *a)
{
	struct sim_drive *d = a->sc->d;
	uint64_t max = sim_ata_accessible_max(d);
	size_t pages = a->tf.count, i;

	if (!sim_flash_on(d) || d->cfg.flash.trim == SIM_TRIM_NONE || !(a->tf.feature & 1) ||
	    !pages || pages > 8) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (!sim_ata_data_out_ok(a, pages * 512)) {
		sim_bad_cdb(a->sc, 1, 4);
		return;
	}
	/* every entry checked before any is carried out */
	for (unsigned pass = 0; pass < 2; pass++)
		for (i = 0; i < pages * 64; i++) {
			uint64_t e = sg_get_unaligned_le64(a->sc->out + 8 * i);
			uint64_t lba = e & 0xffffffffffffULL, n = e >> 48;

			if (!n)
				continue;
			if (lba > max || n - 1 > max - lba) {
				sim_ata_abrt(a, ATA_ERR_IDNF | ATA_ERR_ABRT);
				return;
			}
			if (pass)
				a->sc->media_ns += sim_flash_trim(d, lba, n);
		}
	a->sc->moved = pages * 512;
}
