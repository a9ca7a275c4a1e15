/* batch.h - what every command that changes disks shares: picking the
 * disks (names, --model/--serial filters), the safety refusal, the
 * confirmation (serial typed on a TTY, --yes in scripts), running one job
 * per disk in parallel with a progress line each, and the results (text or
 * one JSON object per disk, exit 4 for a partial batch). */
#ifndef SHORTSTROKE_CLI_BATCH_H
#define SHORTSTROKE_CLI_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "front/record.h"
#include "shortstroke/job.h"

struct batch_item {
	struct dev_entry e;
	struct drive *d;
	bool ready;    /* opened, safe, planned: will run */
	int rc;	       /* result, or why it was not run */
	int exit_hint; /* EXIT_* for a failure before running */
	struct ss_error err;
	char plan[512];	    /* one line shown before confirmation */
	char warning[160];  /* what the change costs, said when the serial is asked
			       ("" : "All data on it may be lost.") */
	char result[512];   /* one line after */
	struct record *rec; /* per-disk result fields (owned) */
	char *log;	    /* dry-run / verbose command lines (owned) */
	size_t log_len;
	void *op; /* the command's own state */
};

struct batch {
	const char *cmd; /* "limit" */
	struct ss_ctx *ctx;
	struct batch_item *items;
	unsigned n;
	bool json, yes, force, dry_run, verbose;
	const char *model_glob, *serial_filter;
	bool overall;	/* progress: also a line for the whole batch */
	bool log_after; /* text: an item's log goes under its result line
				 * (a report about the disk), not above it (the
				 * commands that led to the result) */
	int exit_code;	/* set by batch_check_all: the batch's exit code */
	bool journaled; /* the change is journaled: refuse a disk whose serial
				 * another attached disk shares (device_check_serial) */
	/* may an unsafe disk go ahead all the same? (restore of the partition
	 * method: the partition table it wrote is the only "use") */
	bool (*allow_unsafe)(struct batch *b, struct batch_item *it);
	/* text: every disk's line on stdout, failures too (a report, as
	 * reapply's), and a count of the failures on stderr */
	bool report_stdout;
};

/* The options every batch command takes the same way, parsed once (as
 * out_opts_take does the output options): --model and --serial (the
 * selection: BATCH_LONG_SELECT), -y/--yes and -f/--force (BATCH_LONG_CONFIRM,
 * "yf" in the short options) and -J/--json (into b->json). */
#define BATCH_OPT_MODEL 0x1201
#define BATCH_OPT_SERIAL 0x1202
/* clang-format off */
#define BATCH_LONG_SELECT                                                \
	{ "model", required_argument, NULL, BATCH_OPT_MODEL },           \
	{ "serial", required_argument, NULL, BATCH_OPT_SERIAL }
#define BATCH_LONG_CONFIRM                                               \
	{ "yes", no_argument, NULL, 'y' },                               \
	{ "force", no_argument, NULL, 'f' }
/* clang-format on */
/* True when opt was one of them; *rc is then EXIT_DONE, or the exit code of
 * a usage error printed (batch_filter). */
bool batch_opts_take(struct batch *b, int opt, const char *arg, int *rc);
/* Add the named devices and those matching --model/--serial. Returns an
 * exit code (EXIT_DONE when at least one disk was named). */
int batch_collect(struct batch *b, int argc, char **argv);
/* Add one item (NULL when that spec is already in the batch). */
struct batch_item *batch_add(struct batch *b, const char *spec);
/* Open each disk read-write and check it is safe (protected / in use
 * refused unless --force; with journaled, a serial another disk shares). */
void batch_open(struct batch *b);
/*
 * Open one disk for reading only (bench, profile, qualify): nothing is
 * refused for being in use or protected, since reading harms nothing; a
 * block device that is not a SCSI/ATA disk (loop, md, NVMe), or a volume of
 * drives (a simulated array, it->e.volume), is taken as it is, with *raw
 * set. With io non-NULL the I/O engine is opened on it too.
 * On failure it->rc and it->exit_hint are set; returns it->rc.
 */
struct io_dev;
int batch_open_reading(struct batch *b, struct batch_item *it, bool *raw, struct io_dev **io);
/*
 * For commands that change disks: every named disk must have passed its
 * checks (opened, identified, safe, planned) before any is changed. When one
 * has not, no disk is changed: the others are marked "nothing sent" and the
 * batch exits 3 when a disk was refused for safety, else 2 when one was bad
 * input (an unknown name, a size the disk cannot take), else 1. Each bad
 * disk's own error is printed by batch_finish. Returns true when all passed.
 */
bool batch_check_all(struct batch *b);
/* Show the plans and get the go-ahead. Returns EXIT_DONE or EXIT_REFUSED. */
int batch_confirm(struct batch *b, const char *action);
/* Run fn for every ready item on its own thread; progress lines on a TTY. */
void batch_run(struct batch *b, job_fn fn);
/* Print results, free everything, and return the batch's exit code. */
int batch_finish(struct batch *b);

/* Append a command line to an item's log (thread-safe per item). */
void batch_log(struct batch_item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The capacity context of an item's job (cmd_capacity.c): its drive, the
 * state directory, dry-run and the command log; a dry run's log gets its
 * header line. */
struct cap_ctx;
void batch_cap_ctx(struct cap_ctx *c, struct batch *b, struct batch_item *it,
		   const struct progress_sink *sink);
/* A cap_show_fn/transport trace that logs "CDB hex  decoded" to the item. */
void batch_show_cmd(void *item, const struct xcmd *c, const char *what);

#endif
