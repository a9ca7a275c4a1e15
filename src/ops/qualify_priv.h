/* qualify_priv.h - what the parts of qualification share: one disk's run
 * (its plan, thresholds, result and progress over the phases), the helpers
 * that set a check's verdict and detail, and the checks that live in files
 * of their own (qualify_scan.c: the surface scan, its latency classes and
 * the remap). */
#ifndef SHORTSTROKE_QUALIFY_PRIV_H
#define SHORTSTROKE_QUALIFY_PRIV_H

#include "shortstroke/qualify.h"

#define MIB (1024ull * 1024)

enum { PH_SMART, PH_SELFTEST, PH_SCAN, PH_REMAP, PH_ZONES, PH_ACCESS, PH_BURNIN, PH_COUNT };

/* A block the scan found slower than the remap threshold. */
struct qrun_slow {
	uint64_t lba;
	uint32_t blocks;
	double ms;
};

struct qrun {
	const struct qualify_opts *o;
	const struct qualify_thresholds *thr;
	struct qualify_plan plan;
	struct qualify_result *r;
	struct io_dev *io;
	struct drive *d; /* NULL for a device that is no SCSI/ATA disk */
	double weight[PH_COUNT], before[PH_COUNT], total;
	int phase;
	char text[96]; /* phase text of the sub-step */
	/* scan */
	unsigned stripe;
	uint64_t suspects_lba[256];
	uint64_t suspects_blocks[256];
	unsigned nsuspects;
	bool suspects_lost;
	uint64_t refine_budget;
	uint64_t cap_blocks;
	struct qrun_slow slow[QUALIFY_REMAP_MAX]; /* --remap's candidates */
	unsigned nslow;
	bool slow_lost;
	unsigned cur; /* access: the queue depth running */
};

void qualify_report(struct qrun *q, double f, const char *text);
/* A progress sink's hooks for the steps of a phase (arg: the qrun). */
void qualify_sub_report(void *arg, double f, const char *phase, double eta);
bool qualify_sub_cancelled(void *arg);

/* Append "; text" to a detail line (or set it when it is empty). */
void qualify_add_detail(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The surface scan (qualify_scan.c): reads, grades every block, re-reads
 * failed stretches block by block, judges against the thresholds. */
int qualify_check_scan(struct qrun *q, struct ss_error *err);
/* --remap: rewrite what the scan found unreadable or slow, re-read it. */
int qualify_remap_blocks(struct qrun *q, struct ss_error *err);

#endif
