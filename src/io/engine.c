/* engine.c - the engine registry, job validation, the request generator,
 * the latency histogram, the PRNG and the IOMeter workloads. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "io/io_priv.h"
#include "raidplan.h"
#include "shortstroke/devsrc.h"

#define MAX_ENGINES 8

/* ---- PRNG ---------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void io_rng_seed(struct io_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t io_rng_next(struct io_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t io_rng_below(struct io_rng *r, uint64_t n)
{
	if (n <= 1)
		return 0;
	/* Lemire's multiply-shift; the bias (n / 2^64) is far below measurement */
	return (uint64_t)(((unsigned __int128)io_rng_next(r) * n) >> 64);
}

/* ---- histogram ------------------------------------------------------------- */

void io_hist_init(struct io_hist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned io_hist_bucket_of(uint64_t ns)
{
	unsigned msb, shift, i;

	if (ns < 2 * IO_HIST_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	shift = msb - 5; /* ns >> shift in [32, 64) */
	if (shift > IO_HIST_MAX_SHIFT)
		return IO_HIST_BUCKETS - 1;
	i = shift * IO_HIST_SUB + (unsigned)(ns >> shift);
	return i < IO_HIST_BUCKETS ? i : IO_HIST_BUCKETS - 1;
}

void io_hist_bucket_range(unsigned i, uint64_t *low, uint64_t *high)
{
	unsigned shift;
	uint64_t mant;

	if (i < 2 * IO_HIST_SUB) {
		*low = *high = i;
		return;
	}
	shift = i / IO_HIST_SUB - 1;
	mant = i - shift * IO_HIST_SUB;
	*low = mant << shift;
	*high = ((mant + 1) << shift) - 1;
}

void io_hist_add(struct io_hist *h, uint64_t ns)
{
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += (double)ns;
	h->bucket[io_hist_bucket_of(ns)]++;
}

void io_hist_merge(struct io_hist *dst, const struct io_hist *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	for (unsigned i = 0; i < IO_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

double io_hist_mean(const struct io_hist *h)
{
	return h->count ? h->sum_ns / (double)h->count : 0;
}

uint64_t io_hist_percentile(const struct io_hist *h, double p)
{
	uint64_t rank, seen = 0, low, high, v;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min_ns;
	if (p >= 100)
		return h->max_ns;
	/* the smallest value with at least p % of the samples at or below it */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < IO_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		io_hist_bucket_range(i, &low, &high);
		v = low + (high - low) / 2;
		if (v < h->min_ns)
			v = h->min_ns;
		if (v > h->max_ns)
			v = h->max_ns;
		return v;
	}
	return h->max_ns;
}

/* ---- workloads ---------------------------------------------------------------- */

/* Each workload is libraidplan's IOMeter profile of the same name
 * (rp_workload_profile: docs/models.md's table, docs/planning-model.md
 * 2.4), so that the planner's figures and the engine's measurements speak
 * of one workload; random-write is random-access's requests written. */
static const struct {
	int profile;	  /* enum rp_profile */
	const char *name; /* NULL: the profile's name */
	bool iometer;	  /* an IOMeter access specification: its sizes are its own */
} wl_profile[IO_WL_COUNT] = {
	[IO_WL_SEQ_READ] = { RP_PROFILE_SEQ_READ, NULL, false },
	[IO_WL_SEQ_WRITE] = { RP_PROFILE_SEQ_WRITE, NULL, false },
	[IO_WL_RANDOM_ACCESS] = { RP_PROFILE_RANDOM_ACCESS, NULL, false },
	[IO_WL_DATABASE] = { RP_PROFILE_DATABASE, NULL, true },
	[IO_WL_FILESERVER] = { RP_PROFILE_FILESERVER, NULL, true },
	[IO_WL_WEBSERVER] = { RP_PROFILE_WEBSERVER, NULL, true },
	[IO_WL_WORKSTATION] = { RP_PROFILE_WORKSTATION, NULL, true },
	[IO_WL_RANDOM_WRITE] = { RP_PROFILE_RANDOM_ACCESS, "random-write", false },
};

/* The workload's profile; false for an unknown workload. */
static bool wl_get(enum io_workload w, struct rp_workload *p)
{
	if ((unsigned)w >= IO_WL_COUNT)
		return false;
	rp_workload_init(p);
	/* a known profile at queue depth 1 cannot fail */
	if (rp_workload_profile(wl_profile[w].profile, 1, p, NULL))
		return false;
	if (wl_profile[w].name)
		p->read_share = 0; /* random-write: every request written */
	return true;
}

const char *io_workload_name(enum io_workload w)
{
	if ((unsigned)w >= IO_WL_COUNT)
		return "?";
	return wl_profile[w].name ? wl_profile[w].name : rp_profile_name(wl_profile[w].profile);
}

/* 512 B, 8 KiB, 1 MiB: a request size as the workloads are defined */
static void req_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned u = 0;

	while (u + 1 < sizeof(unit) / sizeof(unit[0]) && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, unit[u]);
}

void io_workload_text(enum io_workload w, char *buf, size_t len)
{
	struct rp_workload p;
	char lo[24], hi[24];
	int rd, rnd;

	if (!wl_get(w, &p)) {
		snprintf(buf, len, "?");
		return;
	}
	if (p.n_sizes) {
		uint64_t min = UINT64_MAX, max = 0;

		for (size_t i = 0; i < p.n_sizes; i++) {
			uint64_t b = RP_ELEM(struct rp_size_share, p.sizes, i)->bytes;

			min = b < min ? b : min;
			max = b > max ? b : max;
		}
		req_size(min, lo, sizeof(lo));
		req_size(max, hi, sizeof(hi));
	} else {
		req_size(p.request_bytes, lo, sizeof(lo));
		hi[0] = '\0';
	}
	rd = (int)lround(p.read_share * 100);
	rnd = (int)lround(p.random_share * 100);
	snprintf(buf, len, "%s%s%s%s, %d %% reads, %d %% random%s%s",
		 wl_profile[w].iometer ? "IOMeter: " : "", lo, hi[0] ? " to " : "", hi, rd, rnd,
		 wl_profile[w].iometer ? "" : " (--bs changes the size)",
		 rd < 100 ? "; it writes: --destructive" : "");
}

void io_workload_names(char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < IO_WL_COUNT && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					io_workload_name((enum io_workload)i));
}

int io_workload_parse(const char *name, enum io_workload *out, struct ss_error *err)
{
	char names[256];

	for (unsigned i = 0; i < IO_WL_COUNT; i++) {
		if (!strcmp(name, io_workload_name((enum io_workload)i))) {
			*out = (enum io_workload)i;
			return 0;
		}
	}
	io_workload_names(names, sizeof(names));
	return ss_error_usage(err, -EINVAL, "unknown workload '%s' (%s)", name, names);
}

bool io_workload_fixed_size(enum io_workload w)
{
	return (unsigned)w < IO_WL_COUNT && !wl_profile[w].iometer;
}

bool io_workload_writes(enum io_workload w)
{
	struct rp_workload p;

	return wl_get(w, &p) && p.read_share < 1;
}

void io_job_set_workload(struct io_job *job, enum io_workload w)
{
	struct rp_workload p;
	unsigned i;

	if (!wl_get(w, &p) && !wl_get(IO_WL_WORKSTATION, &p))
		return;
	job->read_pct = (unsigned)lround(p.read_share * 100);
	job->random_pct = (unsigned)lround(p.random_share * 100);
	job->nsizes = 0;
	job->bs = 0;
	if (!p.n_sizes) {
		job->bs = (uint32_t)p.request_bytes;
		return;
	}
	for (i = 0; i < p.n_sizes && i < IO_SIZES_MAX; i++) {
		const struct rp_size_share *sz = RP_ELEM(struct rp_size_share, p.sizes, i);

		job->sizes[i].bytes = (uint32_t)sz->bytes;
		job->sizes[i].weight = (uint32_t)lround(sz->share);
	}
	job->nsizes = i;
}

void io_job_init(struct io_job *job)
{
	memset(job, 0, sizeof(*job));
	io_job_set_workload(job, IO_WL_SEQ_READ);
	job->qd = 1;
	job->seed = 1;
}

/* ---- validation ------------------------------------------------------------------ */

static uint32_t round_up_u32(uint32_t v, uint32_t m)
{
	return (v + m - 1) / m * m;
}

uint32_t io_job_max_bytes(const struct io_job *job, uint32_t lblock)
{
	uint32_t m = job->bs;

	if (!lblock)
		lblock = 512;
	for (unsigned i = 0; i < job->nsizes && i < IO_SIZES_MAX; i++)
		if (round_up_u32(job->sizes[i].bytes, lblock) > m)
			m = round_up_u32(job->sizes[i].bytes, lblock);
	return m;
}

static int check_size(uint32_t bs, uint32_t lblock, bool dist, struct ss_error *err)
{
	if (bs < IO_BS_MIN || bs > IO_BS_MAX || bs % 512)
		return ss_error_set(err, -EINVAL,
				    "block size %u B is not supported: give 512 B to 4 MiB in "
				    "multiples of 512 B",
				    bs);
	if (!dist && bs % lblock)
		return ss_error_set(err, -EINVAL,
				    "block size %u B is not a multiple of the disk's %u-byte "
				    "logical block",
				    bs, lblock);
	return 0;
}

int io_job_check(const struct io_job *job, const struct io_geom *g, bool writable,
		 struct ss_error *err)
{
	uint64_t end, span, total = 0;
	uint32_t maxb;
	int rc;

	if (!job || !g || !g->lblock || !g->blocks)
		return ss_error_set(err, -EINVAL, "no job or an empty device");
	if (job->qd < 1 || job->qd > IO_QD_MAX)
		return ss_error_set(err, -EINVAL, "queue depth %u is not supported: give 1 to %u",
				    job->qd, IO_QD_MAX);
	if (job->read_pct > 100 || job->random_pct > 100)
		return ss_error_set(err, -EINVAL, "read and random shares are percentages (0-100)");
	if (job->nsizes > IO_SIZES_MAX)
		return ss_error_set(err, -EINVAL, "at most %u sizes in a distribution",
				    IO_SIZES_MAX);
	if (job->nsizes && job->bs)
		return ss_error_set(err, -EINVAL,
				    "give one block size or a size distribution, "
				    "not both");
	if (!job->nsizes) {
		rc = check_size(job->bs, g->lblock, false, err);
		if (rc)
			return rc;
	}
	for (unsigned i = 0; i < job->nsizes; i++) {
		rc = check_size(job->sizes[i].bytes, g->lblock, true, err);
		if (rc)
			return rc;
		total += job->sizes[i].weight;
	}
	if (job->nsizes && !total)
		return ss_error_set(err, -EINVAL, "the size distribution has no weight");
	if (job->align && job->align % g->lblock)
		return ss_error_set(err, -EINVAL,
				    "alignment %u B is not a multiple of the %u-byte logical block",
				    job->align, g->lblock);
	if (!job->time_ns && !job->bytes)
		return ss_error_set(err, -EINVAL,
				    "give a time or a byte limit (a time of 0 "
				    "runs nothing)");
	end = job->end_lba ? job->end_lba : g->blocks;
	if (job->bands > 1 && (job->band_blocks < end - job->start_lba ||
			       (uint64_t)(job->bands - 1) * job->band_blocks > g->blocks - end))
		return ss_error_set(err, -ERANGE,
				    "%u bands of %llu blocks do not fit the span or the disk",
				    job->bands, (unsigned long long)job->band_blocks);
	if (end > g->blocks)
		return ss_error_set(err, -ERANGE,
				    "span [%llu, %llu) goes beyond the disk's %llu blocks",
				    (unsigned long long)job->start_lba, (unsigned long long)end,
				    (unsigned long long)g->blocks);
	if (job->start_lba >= end)
		return ss_error_set(err, -ERANGE, "span [%llu, %llu) is empty",
				    (unsigned long long)job->start_lba, (unsigned long long)end);
	span = end - job->start_lba;
	maxb = io_job_max_bytes(job, g->lblock);
	if (span < maxb / g->lblock)
		return ss_error_set(err, -ERANGE,
				    "span of %llu blocks is smaller than one %u-byte request",
				    (unsigned long long)span, maxb);
	if (job->read_pct < 100 && !writable)
		return ss_error_set(err, -EPERM,
				    "the job writes but the device was opened read-only");
	return 0;
}

/* ---- request generator --------------------------------------------------------------- */

void io_gen_init(struct io_gen *g, const struct io_job *job, const struct io_geom *geom)
{
	uint64_t cum = 0;

	memset(g, 0, sizeof(*g));
	g->job = job;
	g->lblock = geom->lblock;
	g->start = job->start_lba;
	g->end = job->end_lba ? job->end_lba : geom->blocks;
	g->next_seq = g->start;
	g->limit = job->bytes;
	g->align_blocks = job->align ? job->align / geom->lblock : 0;
	io_rng_seed(&g->rng, job->seed);
	if (job->nsizes) {
		g->nsizes = job->nsizes;
		for (unsigned i = 0; i < job->nsizes; i++) {
			g->size_blocks[i] = round_up_u32(job->sizes[i].bytes, g->lblock) /
					    g->lblock;
			cum += job->sizes[i].weight;
			g->cum_weight[i] = cum;
		}
	} else {
		g->nsizes = 1;
		g->size_blocks[0] = job->bs / g->lblock;
		g->cum_weight[0] = 1;
	}
	for (unsigned i = 0; i < g->nsizes; i++)
		if (g->size_blocks[i] > g->max_blocks)
			g->max_blocks = g->size_blocks[i];
}

static uint32_t pick_size(struct io_gen *g)
{
	uint64_t w;
	unsigned i;

	if (g->nsizes == 1)
		return g->size_blocks[0];
	w = io_rng_below(&g->rng, g->cum_weight[g->nsizes - 1]);
	for (i = 0; i < g->nsizes - 1 && w >= g->cum_weight[i]; i++)
		;
	return g->size_blocks[i];
}

static uint64_t random_lba(struct io_gen *g, uint32_t blocks)
{
	uint64_t a = g->align_blocks ? g->align_blocks : blocks, first, last;

	uint64_t band = g->job->bands > 1 ? io_rng_below(&g->rng, g->job->bands) : 0;

	first = (g->start + a - 1) / a * a;
	last = g->end - blocks;
	if (first > last)
		return g->start + band * g->job->band_blocks;
	return first + io_rng_below(&g->rng, (last - first) / a + 1) * a +
	       band * g->job->band_blocks;
}

#define BUTTERFLY_PAIRS 500

/* Request k of a butterfly pass: pair k/2, the outer end for an even k, the
 * inner end for an odd one, both a step nearer the middle each pair. */
static void butterfly_lba(struct io_gen *g, uint32_t blocks, struct io_req *r)
{
	uint64_t a = g->align_blocks ? g->align_blocks : blocks, span, step, i;

	span = g->end - g->start > blocks ? g->end - g->start - blocks : 0;
	step = span / 2 / BUTTERFLY_PAIRS;
	i = g->nreq / 2 % BUTTERFLY_PAIRS;
	if (g->nreq % 2 == 0)
		r->lba = g->start + i * step;
	else
		r->lba = g->start + span - i * step;
	r->lba -= (r->lba - g->start) % a;
	r->blocks = blocks;
	r->write = g->job->read_pct < 100 && io_rng_below(&g->rng, 100) >= g->job->read_pct;
	g->next_seq = r->lba + blocks;
	g->issued += (uint64_t)blocks * g->lblock;
	g->nreq++;
}

bool io_gen_next(struct io_gen *g, struct io_req *r)
{
	const struct io_job *job = g->job;
	uint64_t bytes;
	uint32_t blocks;
	bool rnd;

	if (g->limit && g->issued >= g->limit)
		return false;
	blocks = pick_size(g);
	if (g->limit) {
		bytes = g->limit - g->issued;
		if ((uint64_t)blocks * g->lblock > bytes)
			blocks = (uint32_t)((bytes + g->lblock - 1) / g->lblock);
	}
	if (job->butterfly) {
		butterfly_lba(g, blocks, r);
		return true;
	}
	rnd = job->random_pct >= 100 ? true
	      : job->random_pct == 0 ? false
				     : io_rng_below(&g->rng, 100) < job->random_pct;
	r->write = job->read_pct >= 100 ? false
		   : job->read_pct == 0 ? true
					: io_rng_below(&g->rng, 100) >= job->read_pct;
	if (rnd) {
		r->lba = random_lba(g, blocks);
	} else {
		if (g->next_seq + blocks > g->end)
			g->next_seq = g->start; /* wrap around the span */
		r->lba = g->next_seq;
	}
	r->blocks = blocks;
	g->next_seq = r->lba + blocks;
	g->issued += (uint64_t)blocks * g->lblock;
	return true;
}

/* ---- results ------------------------------------------------------------------------------ */

/* Rates, percentiles and averages of res from its counters and histogram. */
static void io_result_finish(struct io_result *res)
{
	double s = (double)res->elapsed_ns / 1e9;
	const struct io_hist *h = &res->hist;

	res->mbps = s > 0 ? (double)res->bytes / 1e6 / s : 0;
	res->iops = s > 0 ? (double)res->ios / s : 0;
	res->lat_avg_ns = io_hist_mean(h);
	res->lat_min_ns = h->min_ns;
	res->lat_p50_ns = io_hist_percentile(h, 50);
	res->lat_p90_ns = io_hist_percentile(h, 90);
	res->lat_p99_ns = io_hist_percentile(h, 99);
	res->lat_p999_ns = io_hist_percentile(h, 99.9);
	res->lat_max_ns = h->max_ns;
}

/* User + system CPU seconds of the calling thread. */
static double io_thread_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

uint64_t io_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- registry ---------------------------------------------------------------------------- */

static const struct io_engine_ops *engines[MAX_ENGINES];
static unsigned nengines;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static int reg_locked(const struct io_engine_ops *ops, struct ss_error *err)
{
	if (!ops || !ops->name || !ops->name[0])
		return ss_error_set(err, -EINVAL, "I/O engine without a name");
	if (!ops->open || !ops->close || !ops->run)
		return ss_error_set(err, -EINVAL,
				    "I/O engine %s lacks a required hook (open, close, run)",
				    ops->name);
	if (ops->caps & ~IO_CAP_ALL)
		return ss_error_set(err, -EINVAL,
				    "I/O engine %s has unknown capability bits "
				    "0x%x",
				    ops->name, ops->caps & ~IO_CAP_ALL);
	for (unsigned i = 0; i < nengines; i++)
		if (!strcmp(engines[i]->name, ops->name))
			return ss_error_set(err, -EEXIST, "I/O engine %s is already registered",
					    ops->name);
	if (nengines >= MAX_ENGINES)
		return ss_error_set(err, -ENOSPC, "too many I/O engines");
	engines[nengines++] = ops;
	return 0;
}

static void register_builtin(void)
{
	pthread_mutex_lock(&reg_lock);
	reg_locked(&io_engine_uring, NULL);
	reg_locked(&io_engine_sim, NULL);
	reg_locked(&io_engine_sim_array, NULL);
	pthread_mutex_unlock(&reg_lock);
}

int io_engine_register(const struct io_engine_ops *ops, struct ss_error *err)
{
	int rc;

	pthread_once(&builtin_once, register_builtin);
	pthread_mutex_lock(&reg_lock);
	rc = reg_locked(ops, err);
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

const struct io_engine_ops *io_engine_find(const char *name)
{
	const struct io_engine_ops *found = NULL;

	pthread_once(&builtin_once, register_builtin);
	pthread_mutex_lock(&reg_lock);
	for (unsigned i = 0; i < nengines && name; i++)
		if (!strcmp(engines[i]->name, name))
			found = engines[i];
	pthread_mutex_unlock(&reg_lock);
	return found;
}

/* ---- devices ----------------------------------------------------------------------------- */

struct io_dev {
	const struct io_engine_ops *ops;
	void *priv;
	struct io_geom geom;
	bool write;
};

int io_dev_open(const char *engine, const struct io_target *t, struct io_dev **out,
		struct ss_error *err)
{
	const struct io_engine_ops *ops = io_engine_find(engine);
	struct io_dev *dev;
	int rc;

	*out = NULL;
	if (!ops)
		return ss_error_set(err, -ENOENT, "no I/O engine named %s", engine ? engine : "");
	if (t->write && !(ops->caps & IO_CAP_WRITE))
		return ss_error_set(err, -EOPNOTSUPP, "the %s engine cannot write", ops->name);
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return ss_error_nomem(err);
	dev->ops = ops;
	dev->write = t->write;
	rc = ops->open(t, &dev->priv, &dev->geom, err);
	if (rc) {
		free(dev);
		return rc;
	}
	*out = dev;
	return 0;
}

int io_dev_open_name(const char *name, struct dev_env *env, bool write, struct io_dev **out,
		     struct ss_error *err)
{
	struct io_target t = { .write = write };
	const struct dev_source_ops *src;
	struct dev_io dio;
	int rc;

	*out = NULL;
	rc = dev_env_source(env, name, &src, err);
	if (!rc)
		rc = src->io(env, name, &dio, err);
	if (rc)
		return rc;
	t.path = dio.path;
	t.sim = dio.drive;
	t.array = dio.array;
	return io_dev_open(dio.engine, &t, out, err);
}

void io_dev_close(struct io_dev *dev)
{
	if (!dev)
		return;
	dev->ops->close(dev->priv);
	free(dev);
}

const struct io_geom *io_dev_geom(const struct io_dev *dev)
{
	return &dev->geom;
}

const struct io_engine_ops *io_dev_engine(const struct io_dev *dev)
{
	return dev->ops;
}

int io_dev_run(struct io_dev *dev, const struct io_job *job, struct io_result *res,
	       struct ss_error *err)
{
	double cpu0;
	int rc;

	memset(res, 0, sizeof(*res));
	io_hist_init(&res->hist);
	rc = io_job_check(job, &dev->geom, dev->write, err);
	if (!rc && dev->ops->check)
		rc = dev->ops->check(dev->priv, job, err);
	if (rc)
		return rc;
	res->virtual_time = dev->ops->caps & IO_CAP_VIRTUAL_TIME;
	cpu0 = io_thread_cpu_s();
	rc = dev->ops->run(dev->priv, job, res, err);
	res->cpu_s = io_thread_cpu_s() - cpu0;
	io_result_finish(res);
	return rc;
}
