/* qualify.h - pre-deployment qualification of disks: identity, SMART
 * verdict, a short self-test, a surface read scan with a bad-block list,
 * the zone profile, access time and IOPS, each checked against thresholds
 * a user can edit, then disks of the same model compared with each other.
 * Reads only: nothing here writes to a disk. docs/qualify.md has the
 * profiles, the thresholds file and the rules. */
#ifndef SHORTSTROKE_QUALIFY_H
#define SHORTSTROKE_QUALIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/io.h"
#include "shortstroke/job.h"
#include "shortstroke/smart.h"
#include "shortstroke/zprofile.h"

/* ---- profiles ---- */

enum qualify_profile {
	QUALIFY_QUICK = 0, /* sampled scan, short sweeps, no self-test */
	QUALIFY_STANDARD,  /* short self-test, 10 % of the disk scanned */
	QUALIFY_FULL,	   /* short self-test, the whole disk scanned */
};
const char *qualify_profile_name(enum qualify_profile p);	     /* "quick", ... */
int qualify_profile_parse(const char *s, enum qualify_profile *out); /* -EINVAL */

#define QUALIFY_QD_MAX 4

/* What a profile does on a disk of a given capacity. */
struct qualify_plan {
	bool selftest;		     /* short self-test */
	unsigned scan_stripes;	     /* evenly spaced stretches read */
	uint64_t scan_stripe_bytes;  /* each; the whole disk: 1 stripe */
	double scan_share_pct;	     /* share of the disk read */
	uint32_t scan_bs;	     /* request size of the scan */
	unsigned zone_points;	     /* zone profile samples */
	uint64_t zone_sample;	     /* bytes read per sample */
	unsigned qd[QUALIFY_QD_MAX]; /* random 4 KiB reads at these depths */
	unsigned nqd;
	uint64_t access_ns; /* per queue depth */
};
void qualify_plan_for(enum qualify_profile p, uint64_t capacity_bytes, struct qualify_plan *out);

/* ---- thresholds ---- */

struct qualify_thresholds {
	double max_temperature_c;
	double max_reallocated;
	double max_pending;
	double max_offline_uncorrectable;
	double max_bad_blocks;
	double min_seq_read_mbps;    /* outer-zone sequential read */
	double min_inner_read_mbps;  /* innermost zone; 0: not checked */
	double max_access_ms;	     /* mean random 4 KiB read at QD 1 */
	double min_iops_qd32;	     /* 0: not checked */
	double sibling_slowdown_pct; /* slower than the model's median by more */
};

void qualify_thresholds_default(struct qualify_thresholds *t);

/*
 * Parse a thresholds file over t (keys not given keep their value):
 * `key = value` lines, `#` comments, blank lines. text need not end in
 * NUL (len bytes are read). An unknown key, a key given twice, a value
 * that is not a number (or not a whole number where one is needed) or is
 * out of range: -EINVAL with "NAME:LINE: ..." in err; t is then left
 * unchanged.
 */
int qualify_thresholds_parse(const char *text, size_t len, const char *name,
			     struct qualify_thresholds *t, struct ss_error *err);
/* Read a file and parse it (at most 1 MiB). -errno when unreadable. */
int qualify_thresholds_load(const char *path, struct qualify_thresholds *t, struct ss_error *err);
/* t as a commented file that parses back to t; *out freed with free(). */
int qualify_thresholds_format(const struct qualify_thresholds *t, char **out, struct ss_error *err);

/* The keys in file order: i from 0 while it returns non-NULL; *value
 * gets t's value of that key. */
const char *qualify_thresholds_key(unsigned i, const struct qualify_thresholds *t, double *value);

/* ---- results ---- */

enum qualify_status {
	QUALIFY_SKIP = 0, /* not run in this profile, or not supported */
	QUALIFY_PASS,
	QUALIFY_FAIL,
};
const char *qualify_status_name(enum qualify_status s); /* "PASS", "FAIL", "SKIP" */

enum qualify_check {
	QC_IDENTITY = 0,
	QC_SMART,
	QC_SELFTEST,
	QC_SCAN,
	QC_ZONES,
	QC_ACCESS,
	QC_SIBLINGS,
	QC_COUNT,
};
const char *qualify_check_name(enum qualify_check c); /* "identity", "smart", ... */

struct qualify_check_result {
	enum qualify_status status;
	char detail[256];
};

/* A run of unreadable blocks [lba, lba + blocks). */
struct qualify_bad_range {
	uint64_t lba;
	uint64_t blocks;
};
#define QUALIFY_BAD_RANGES_MAX 1024

struct qualify_result {
	char device[256];
	struct drive_info info;
	enum qualify_profile profile;
	struct qualify_check_result check[QC_COUNT];
	bool pass;	   /* qualify_result_verdict */
	bool vanished;	   /* the disk stopped answering */
	bool virtual_time; /* measured on the simulator's clock */

	/* SMART */
	bool smart_read;
	enum smart_verdict smart_verdict;
	struct smart_num temperature_c, reallocated, pending, offline_uncorrectable;
	struct smart_num power_on_hours;

	/* surface scan */
	uint64_t scan_bytes;	    /* read */
	uint64_t scan_target_bytes; /* planned */
	double scan_share_pct;
	double scan_mbps;
	uint64_t scan_errors;	       /* failed requests */
	uint64_t bad_blocks;	       /* unreadable logical blocks found */
	struct qualify_bad_range *bad; /* owned, sorted by LBA */
	unsigned nbad;
	bool bad_truncated; /* more ranges than QUALIFY_BAD_RANGES_MAX */

	/* zone profile (owned) */
	struct zprofile *zp;
	double mean_mbps; /* capacity-weighted mean of the profile */

	/* access time and IOPS: random 4 KiB reads */
	unsigned nqd;
	unsigned qd[QUALIFY_QD_MAX];
	double iops[QUALIFY_QD_MAX];
	double lat_avg_ms[QUALIFY_QD_MAX];
	double lat_p99_ms[QUALIFY_QD_MAX];
	double access_ms; /* mean latency at QD 1 */
	uint64_t access_errors;
	struct io_hist hist; /* latency at QD 1 */

	/* siblings */
	unsigned siblings;	  /* disks of the same model, this one included */
	double slowdown_pct;	  /* worst, against the model's median; < 0 faster */
	char slowdown_metric[32]; /* "sequential read", "IOPS at QD 1", ... */
};

void qualify_result_init(struct qualify_result *r, const char *device,
			 const struct drive_info *info, enum qualify_profile p);
void qualify_result_fini(struct qualify_result *r);

/* Add unreadable blocks, merging with neighbours; keeps the list sorted. */
void qualify_result_add_bad(struct qualify_result *r, uint64_t lba, uint64_t blocks);

struct qualify_opts {
	enum qualify_profile profile;
	const struct qualify_thresholds *thr; /* NULL: the defaults */
	uint64_t seed;			      /* random offsets; 0: 1 */
	const struct progress_sink *progress;
};

/*
 * Qualify one disk: d answers the SMART and self-test commands, io reads
 * (opened read-only on the same disk). r was set up with
 * qualify_result_init. Every check gets its PASS/FAIL/SKIP and a detail
 * line. Returns 0 when all ran (whatever they found), -ENODEV when the
 * disk stopped answering (r->vanished, the check that was running
 * FAILs), -ECANCELED when the sink cancelled; err says why.
 */
int qualify_disk(struct drive *d, struct io_dev *io, const struct qualify_opts *o,
		 struct qualify_result *r, struct ss_error *err);

/*
 * Compare disks of the same model (equal info.model): for each of
 * sequential read (outer zone), IOPS at QD 1 and at the deepest queue
 * depth measured, the median of the model's disks; a disk slower than a
 * median by more than thr->sibling_slowdown_pct FAILs its sibling check.
 * A model with one disk, or a disk without the figures: SKIP.
 */
void qualify_compare_siblings(struct qualify_result *const *r, unsigned n,
			      const struct qualify_thresholds *thr);

/* The median of n values (n > 0; v is reordered). */
double qualify_median(double *v, unsigned n);

/* Overall: PASS when no check FAILed and the disk did not vanish; sets
 * and returns r->pass. */
bool qualify_result_verdict(struct qualify_result *r);

/* ---- the HTML report (src/ops/report_html.c) ---- */

struct qualify_report_meta {
	const char *title;     /* NULL: "Disk qualification" */
	const char *generated; /* a date, shown as is; may be NULL */
	enum qualify_profile profile;
	const struct qualify_thresholds *thr;
	const char *host; /* may be NULL */
};

/* One self-contained HTML page (inline CSS, inline SVG charts, no
 * scripts, every text escaped). *out freed with free(). */
int qualify_report_html(const struct qualify_report_meta *m, const struct qualify_result *const *r,
			unsigned n, char **out, size_t *len, struct ss_error *err);
/* The same, written atomically (a temporary file renamed over path). */
int qualify_report_write(const char *path, const struct qualify_report_meta *m,
			 const struct qualify_result *const *r, unsigned n, struct ss_error *err);

#endif
