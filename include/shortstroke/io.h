/* io.h - the I/O engine: a workload (sequential or random, reads, writes
 * or a mix, one block size or an IOMeter size distribution, a queue
 * depth, an LBA span, a time and/or byte limit) run against a device,
 * with throughput, IOPS and a per-request latency histogram.
 *
 * Engines plug in through struct io_engine_ops (as transports do):
 * "uring" runs on a block device (or a file) with liburing and O_DIRECT;
 * "sim" runs on a simulated drive in virtual time, sending READ(16) and
 * WRITE(16) through the sim transport and letting the drive pick queued
 * commands by shortest positioning time. docs/io-engine.md has the model.
 */
#ifndef SHORTSTROKE_IO_H
#define SHORTSTROKE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"
#include "shortstroke/progress.h"

struct sim_drive;
struct sim_array;
struct dev_env;

#define IO_QD_MAX 256
#define IO_BS_MIN 512u
#define IO_BS_MAX (4u << 20)
#define IO_SIZES_MAX 16

/* ---- random numbers: xoshiro256** seeded through splitmix64 ---- */

struct io_rng {
	uint64_t s[4];
};

void io_rng_seed(struct io_rng *r, uint64_t seed);
uint64_t io_rng_next(struct io_rng *r);
/* Uniform in [0, n); n 0 gives 0. */
uint64_t io_rng_below(struct io_rng *r, uint64_t n);

/* ---- latency histogram ----
 * Log-linear buckets (HdrHistogram-like): exact below 64 ns, then 32
 * buckets per power of two, so a percentile is within 3 % of the truth.
 * Values above IO_HIST_MAX_NS land in the last bucket; min, max and the
 * sum are kept exactly. */
#define IO_HIST_SUB 32u
#define IO_HIST_MAX_SHIFT 36u /* buckets up to 2^42 ns (73 minutes) */
#define IO_HIST_BUCKETS (2 * IO_HIST_SUB + IO_HIST_MAX_SHIFT * IO_HIST_SUB)

struct io_hist {
	uint64_t count;
	uint64_t min_ns, max_ns;
	double sum_ns;
	uint64_t bucket[IO_HIST_BUCKETS];
};

void io_hist_init(struct io_hist *h);
void io_hist_add(struct io_hist *h, uint64_t ns);
void io_hist_merge(struct io_hist *dst, const struct io_hist *src);
/* The value at percentile p (0-100): the middle of its bucket, clamped to
 * [min, max]. 0 for an empty histogram. */
uint64_t io_hist_percentile(const struct io_hist *h, double p);
double io_hist_mean(const struct io_hist *h);
/* Bucket index of a value, and a bucket's range [low, high]. */
unsigned io_hist_bucket_of(uint64_t ns);
void io_hist_bucket_range(unsigned i, uint64_t *low, uint64_t *high);

/* ---- jobs ---- */

/* A failed request: first_lba is the first block that failed when the
 * device says so (a short read or the sense INFORMATION field), else the
 * request's first block; blocks runs to the request's end. Return 0 to go
 * on, a negative errno to stop the run with it. */
typedef int (*io_error_fn)(void *arg, uint64_t first_lba, uint32_t blocks, bool write, int error);

/* A request completed (failed ones too, error the negative errno, after
 * on_error was called): its first block, size, and latency from when it
 * was handed to the device to its completion. */
typedef void (*io_done_fn)(void *arg, uint64_t lba, uint32_t blocks, bool write, int error,
			   uint64_t lat_ns);

struct io_size_weight {
	uint32_t bytes;
	uint32_t weight;
};

struct io_job {
	unsigned read_pct;   /* share of reads, 0-100 */
	unsigned random_pct; /* share of random offsets, 0-100; the rest continue
				 * sequentially from the previous request */
	uint32_t bs;	     /* request size in bytes; 0 when sizes[] is used */
	struct io_size_weight sizes[IO_SIZES_MAX];
	unsigned nsizes;    /* a size distribution; sizes below the logical
				 * block are rounded up to it */
	unsigned qd;	    /* requests in flight, 1-256 */
	uint64_t start_lba; /* span [start_lba, end_lba); end 0: the capacity */
	uint64_t end_lba;
	uint64_t time_ns;	/* stop issuing after this long; 0: no time limit */
	uint64_t bytes;		/* stop after this many bytes; 0: no byte limit */
	uint32_t align;		/* random offsets are multiples of this many bytes;
				 * 0: the request size (fio's default) */
	uint64_t seed;		/* the same seed gives the same offsets */
	bool continue_on_error; /* report failed requests and go on */
	io_error_fn on_error;	/* may be NULL; called for each failed request */
	void *on_error_arg;
	io_done_fn on_done; /* may be NULL; called for every completed request */
	/* a butterfly seek pattern instead of sequential or random offsets:
	 * alternately one request at the outer and one at the inner end of the
	 * span, each pair a step closer to the middle (500 pairs a pass), then
	 * again from the ends (openSeaChest's butterfly test) */
	bool butterfly;
	/* the span repeated: random offsets fall in the span moved on by k x
	 * band_blocks, k one of 0 .. bands - 1 picked at random (the same
	 * stroke of each actuator's range of a multi-actuator drive, as the
	 * partition method cuts it); 0 or 1: the span alone */
	unsigned bands;
	uint64_t band_blocks;
	void *on_done_arg;
	const struct progress_sink *progress;
	const char *phase; /* progress text, "" when NULL */
};

/* Defaults: sequential reads of 1 MiB at QD 1 over the whole device. */
void io_job_init(struct io_job *job);

struct io_result {
	uint64_t bytes, ios, reads, writes;
	uint64_t errors;	  /* failed requests (continue_on_error) */
	uint64_t first_error_lba; /* valid when errors > 0 */
	uint64_t elapsed_ns;	  /* virtual time on the sim engine */
	bool virtual_time;
	double mbps; /* 10^6 bytes per second */
	double iops;
	double lat_avg_ns;
	uint64_t lat_min_ns, lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns, lat_max_ns;
	double cpu_s;	     /* user + system CPU of the running thread */
	struct io_hist hist; /* per-request latency */
};

/* ---- workloads (IOMeter access specifications, docs/models.md) ---- */

enum io_workload {
	IO_WL_SEQ_READ = 0,
	IO_WL_SEQ_WRITE,
	IO_WL_RANDOM_ACCESS, /* 4 KiB random reads */
	IO_WL_DATABASE,	     /* 8 KiB, 67 % reads, 100 % random */
	IO_WL_FILESERVER,    /* 512 B-64 KiB mix, 80 % reads, 100 % random */
	IO_WL_WEBSERVER,     /* 512 B-512 KiB mix, 100 % reads, 100 % random */
	IO_WL_WORKSTATION,   /* 8 KiB, 80 % reads, 80 % random */
	IO_WL_RANDOM_WRITE,  /* 4 KiB random writes */
	IO_WL_COUNT,
};

const char *io_workload_name(enum io_workload w);
/* -EINVAL for an unknown name, with err (usage): "unknown workload 'NAME'
 * (the names)". */
int io_workload_parse(const char *name, enum io_workload *out, struct ss_error *err);
/* "seq-read, seq-write, ...": every name io_workload_parse takes. */
void io_workload_names(char *buf, size_t len);
/* What the workload is, one line of bench --list-workloads, from its profile:
 * "IOMeter: 8 KiB, 67 % reads, 100 % random; writes: --destructive". */
void io_workload_text(enum io_workload w, char *buf, size_t len);
/* Fill the job's mix and sizes (keeps qd, span, limits, seed). */
void io_job_set_workload(struct io_job *job, enum io_workload w);
/* True when the workload's size is one block size (--bs may change it). */
bool io_workload_fixed_size(enum io_workload w);
bool io_workload_writes(enum io_workload w);

/* ---- engines ---- */

enum io_cap {
	IO_CAP_WRITE = 1u << 0,	       /* can write */
	IO_CAP_QUEUE = 1u << 1,	       /* requests really overlap at qd > 1 */
	IO_CAP_VIRTUAL_TIME = 1u << 2, /* times are the drive model's */
	IO_CAP_ERROR_LBA = 1u << 3,    /* reports the first failing LBA */
};
#define IO_CAP_ALL (IO_CAP_WRITE | IO_CAP_QUEUE | IO_CAP_VIRTUAL_TIME | IO_CAP_ERROR_LBA)

struct io_geom {
	uint32_t lblock;    /* logical block size */
	uint32_t pblock;    /* physical block size */
	uint64_t blocks;    /* capacity in logical blocks */
	uint32_t mem_align; /* buffer alignment the engine uses */
};

/* What to open: path for "uring", sim for "sim", array for "sim-array".
 * write opens for writing: the caller has done the safety checks
 * (devices.h) before. */
struct io_target {
	const char *path;
	struct sim_drive *sim;
	struct sim_array *array;
	bool write;
};

struct io_engine_ops {
	const char *name; /* required: "uring", "sim" */
	unsigned caps;	  /* IO_CAP_* */
	/* required */
	int (*open)(const struct io_target *t, void **priv, struct io_geom *geom,
		    struct ss_error *err);
	void (*close)(void *priv);
	/* Run a validated job; fill res (also when failing or cancelled:
	 * what was done until then). */
	int (*run)(void *priv, const struct io_job *job, struct io_result *res,
		   struct ss_error *err);
	/* optional: engine-specific checks of a job, after the generic ones */
	int (*check)(void *priv, const struct io_job *job, struct ss_error *err);
};

/* Validate (name, required hooks, known caps, unique name) and add an
 * engine. The built-in "uring" and "sim" are registered on first use. */
int io_engine_register(const struct io_engine_ops *ops, struct ss_error *err);
const struct io_engine_ops *io_engine_find(const char *name);

struct io_dev;

int io_dev_open(const char *engine, const struct io_target *t, struct io_dev **out,
		struct ss_error *err);
/* A device by name, through the device source it belongs to (devsrc.h; env:
 * ctx_sources in devices.h), which says which engine runs on it: a rig's
 * drive the sim engine, a path the uring engine. */
int io_dev_open_name(const char *name, struct dev_env *env, bool write, struct io_dev **out,
		     struct ss_error *err);
void io_dev_close(struct io_dev *dev);
const struct io_geom *io_dev_geom(const struct io_dev *dev);
const struct io_engine_ops *io_dev_engine(const struct io_dev *dev);

/*
 * Check every field of a job against a device's geometry before any I/O:
 * queue depth 1-256, block sizes 512 B-4 MiB in multiples of the logical
 * block, the span inside the disk and holding a request, a time or a
 * byte limit, shares 0-100, alignment. -EINVAL (-ERANGE for a span beyond
 * the disk) with one clear sentence. writable: the device was opened for
 * writing (a job that writes on a read-only device is -EPERM).
 */
int io_job_check(const struct io_job *job, const struct io_geom *g, bool writable,
		 struct ss_error *err);

/* io_job_check, then the engine's run; results computed (rates,
 * percentiles, CPU). -ECANCELED when the progress sink cancelled (res
 * holds what was done). */
int io_dev_run(struct io_dev *dev, const struct io_job *job, struct io_result *res,
	       struct ss_error *err);

#endif
