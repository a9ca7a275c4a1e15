/* bench.h - what `bench` runs, for every front end: its options as users
 * type them (workload, queue depths, time, span, request size), the checks
 * made before any I/O (a workload that writes, a zoned disk, a span beyond
 * the disk, a job the engine refuses), and each run's results kept per disk
 * in the state directory (<state>/bench/SERIAL.jsonl), so that a later run
 * is compared with an earlier one of the same disk (before and after a
 * limit). The I/O itself is io.h's. */
#ifndef SHORTSTROKE_BENCH_H
#define SHORTSTROKE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/devices.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/io.h"
#include "shortstroke/units.h"

#define BENCH_QD_MAX 16
#define BENCH_TIME_MAX_NS (24ull * 3600 * 1000000000ull)

struct bench_opts {
	enum io_workload wl;
	unsigned qd[BENCH_QD_MAX];
	unsigned nqd;
	uint64_t time_ns; /* per queue depth */
	bool span_given;
	struct size_spec span; /* the outer part of the disk: 10%, 100GB, blocks */
	uint32_t bs;	       /* 0: the workload's */
	uint64_t seed;
	bool destructive; /* writes allowed */
};

/* seq-read, QD 1, 4, 16, 64, 30 s each, the whole disk, seed 1. */
void bench_opts_default(struct bench_opts *o);

/* The parsers of what a user types; err (usage) gets "'S': what to give",
 * for the front end to put after the option's or the field's name
 * ("--qd '0': give queue depths ..."). */
/* "1,4,16": queue depths of 1 to IO_QD_MAX, comma separated, at most
 * BENCH_QD_MAX. -EINVAL. */
int bench_parse_qd(const char *s, struct bench_opts *o, struct ss_error *err);
/* "30s", "500ms", "2m", "1h", "1.5s"; a bare number is seconds; 1 ms to
 * 24 h. -EINVAL (not a duration), -ERANGE. */
int bench_parse_time(const char *s, uint64_t *ns, struct ss_error *err);
/* A request size: 512 B to 4 MiB in multiples of 512; a bare number is
 * bytes. -EINVAL, -ERANGE. */
int bench_parse_bs(const char *s, uint32_t *bs, struct ss_error *err);
/* "4K", "1M", "mixed" (the profile's sizes: job->bs 0). */
const char *bench_bs_text(const struct io_job *job, char *buf, size_t len);

/* The options together, before any disk is opened: a request size given
 * to a profile that fixes its own, a workload that writes without
 * destructive. -EINVAL with the sentence the user sees. */
int bench_opts_check(const struct bench_opts *o, struct ss_error *err);

/* A write benchmark the drive can take at all: a host-managed zoned disk
 * takes writes only at each zone's write pointer. -EOPNOTSUPP. */
int bench_write_fits(const struct drive_info *info, const char *spec, struct ss_error *err);

/*
 * The job at every queue depth on dev (opened for writing when write),
 * checked before any I/O: the workload, request size, time and seed of o,
 * the span of o inside the disk (-ERANGE beyond it), then io_job_check at
 * each queue depth (-EINVAL, -EPERM). job is left at the last queue depth;
 * errors name spec.
 */
int bench_job_plan(const struct bench_opts *o, struct io_dev *dev, bool write, const char *spec,
		   struct io_job *job, struct ss_error *err);

/* The steps of bench_prepare, in order: the one that failed says the front
 * end what to do (an exit code, a form field). */
enum bench_step {
	BENCH_STEP_OPEN,  /* device_open */
	BENCH_STEP_SAFE,  /* device_check_safe: protected or in use (writes) */
	BENCH_STEP_FITS,  /* bench_write_fits */
	BENCH_STEP_IO,	  /* io_dev_open_name: the I/O engine */
	BENCH_STEP_PLAN,  /* bench_job_plan */
	BENCH_STEP_READY, /* nothing failed */
};

/* One disk readied for a benchmark. */
struct bench_target {
	/* in */
	const char *spec;    /* as the user named it; errors name it */
	bool write;	     /* the workload writes */
	bool opened;	     /* e is opened and checked already (the CLI's batch did,
			     with its --force and confirmation): start at FITS */
	bool raw;	     /* a block device without a drive's checks (a loop
			     device, a simulated array): no FITS */
	struct dev_entry *e; /* read when opened, else filled */
	/* out */
	struct io_dev *io; /* the engine, open (the caller closes it) */
	struct io_job job; /* at the last queue depth */
	enum bench_step step;
};

/*
 * The checks and the opening a benchmark needs before any I/O, for every
 * front end: the disk opened (device_open) and, for a workload that writes,
 * checked (device_check_safe, no force: the CLI checks in its batch, with
 * --force, and sets opened); a write the drive cannot take refused
 * (bench_write_fits); the I/O engine opened; the job planned at every queue
 * depth (bench_job_plan). 0 with t->io open, or a negative errno with err
 * naming t->spec, t->step the step that failed and t->io NULL.
 */
int bench_prepare(struct ss_ctx *ctx, const struct bench_opts *o, struct bench_target *t,
		  struct ss_error *err);

/* What a planned job does: "WHO: random-access, 4K requests, over 450 GB
 * (100% of 450 GB)", and with write ": the data there is overwritten". */
void bench_plan_text(const struct bench_opts *o, const struct io_job *job, const struct io_geom *g,
		     const char *who, bool write, char *buf, size_t len);

/* ---- the runs kept per disk ---- */

struct bench_point {
	unsigned qd;
	double iops;
	double mbps;
	double lat_avg_ms;
	double lat_p99_ms;
};

struct bench_run {
	char time[32]; /* "2024-05-01T12:00:00Z" (UTC), set when appended */
	char device[256];
	char serial[64];
	char wwn[64];
	char model[64];
	char workload[32]; /* io_workload_name */
	uint32_t bs;	   /* 0: mixed */
	uint32_t lblock;
	uint64_t span_blocks;	  /* the span measured */
	uint64_t capacity_blocks; /* the disk's capacity then */
	uint64_t time_ns;	  /* per queue depth */
	bool virtual_time;
	unsigned n;
	struct bench_point p[BENCH_QD_MAX];
};

/* Where a disk's runs go: <state_dir>/bench/<key>.jsonl, the key its serial
 * (else its WWN) with every character but letters, digits, '.', '-' and
 * '_' made '_'. -ENOENT when the disk has neither. */
int bench_history_path(const char *state_dir, const char *serial, const char *wwn, char *buf,
		       size_t len);

/* Append r (its time set now) as one JSON line; the directory is made. */
int bench_history_append(const char *state_dir, struct bench_run *r, struct ss_error *err);

/* The newest run kept of the disk with the same workload and request size
 * (look it up before appending the new one): 0 with *out, -ENOENT when
 * there is none. Lines that do not parse are passed over. */
int bench_history_last(const char *state_dir, const char *serial, const char *wwn,
		       const char *workload, uint32_t bs, struct bench_run *out,
		       struct ss_error *err);

/* A run's point at queue depth qd, or NULL. */
const struct bench_point *bench_run_at(const struct bench_run *r, unsigned qd);

#endif
