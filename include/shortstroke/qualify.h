/* qualify.h - pre-deployment qualification of disks: identity, SMART
 * verdict, a short self-test, a surface read scan with a bad-block list,
 * the zone profile, access time and IOPS, each checked against thresholds
 * a user can edit, then disks of the same model compared with each other.
 * Reads only, unless the caller asks for --remap (qualify_opts.remap). docs/qualify.md has the
 * profiles, the thresholds file and the rules. */
#ifndef SHORTSTROKE_QUALIFY_H
#define SHORTSTROKE_QUALIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/depop.h"
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
	QUALIFY_BURNIN,	   /* full, a selective self-test of the accessible span, then a
			    * butterfly seek test and a random-read soak */
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
	uint64_t access_ns;    /* per queue depth */
	bool selective;	       /* the self-test: selective over the accessible span (ATA),
			     * extended (SCSI), not short */
	uint64_t butterfly_ns; /* burnin: the butterfly seek test, 0 none */
	uint64_t soak_ns;      /* burnin: random 4 KiB reads at soak_qd, 0 none */
	unsigned soak_qd;
};
void qualify_plan_for(enum qualify_profile p, uint64_t capacity_bytes, struct qualify_plan *out);

/* ---- the surface scan's latency classes ----
 * Every block the scan reads (one request of QUALIFY_SCAN_BLOCK bytes,
 * MHDD's and Victoria's 256 sectors of 512 bytes) is graded by its
 * command's latency: below each of the 5 edges (thresholds
 * `scan_classes_ms`, MHDD's and whdd's 3, 10, 50, 150, 500 ms by default),
 * or at or above the last; a failed read by its error kind. */
#define QUALIFY_SCAN_BLOCK (128u << 10)
#define QUALIFY_CLASS_EDGES 5
#define QUALIFY_CLASSES (QUALIFY_CLASS_EDGES + 1)
enum qualify_err_kind {
	QE_UNC = 0, /* uncorrectable: a medium error (the kernel's -ENODATA) */
	QE_IDNF,    /* ID / record not found, LBA out of range */
	QE_ABRT,    /* aborted, or failed for another reason (-EIO) */
	QE_TIMEOUT, /* the command timed out */
	QE_KINDS,
};
const char *qualify_err_kind_name(enum qualify_err_kind k); /* "UNC", "IDNF", ... */
/* The kind of a failed read's negative errno. */
enum qualify_err_kind qualify_err_kind_of(int error);
/* The class of a latency (0 .. QUALIFY_CLASSES - 1) for these edges. */
unsigned qualify_class_of(double ms, const double *edges_ms);
#define QUALIFY_MAP_BINS 100 /* the scan map's positions across the disk */
#define QUALIFY_SLOWEST 20   /* the slowest blocks kept */
#define QUALIFY_REMAP_MAX 256

/* ---- thresholds ---- */

struct qualify_thresholds {
	double max_temperature_c;
	double max_reallocated;
	double max_pending;
	double max_offline_uncorrectable;
	double max_bad_blocks;
	double max_slow_500ms;			     /* blocks read in 500 ms or more */
	double max_slow_150ms_per_gib;		     /* blocks in 150 ms or more, per GiB scanned */
	double scan_classes_ms[QUALIFY_CLASS_EDGES]; /* the class edges, increasing */
	double min_seq_read_mbps;		     /* outer-zone sequential read */
	double min_inner_read_mbps;		     /* innermost zone; 0: not checked */
	double max_access_ms;			     /* mean random 4 KiB read at QD 1 */
	double min_iops_qd32;			     /* 0: not checked */
	double sibling_slowdown_pct;		     /* slower than the model's median by more */
	double profile_dip_pct;	     /* a profile sample this much below its neighbours */
	double max_profile_dips_pct; /* dips allowed, % of the samples (2 at least) */
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
 * gets t's value of that key (the first of a list). */
const char *qualify_thresholds_key(unsigned i, const struct qualify_thresholds *t, double *value);
/* How many values key i holds (1, or QUALIFY_CLASS_EDGES for
 * scan_classes_ms), and where they are in t. */
unsigned qualify_thresholds_values(unsigned i, const struct qualify_thresholds *t,
				   const double **values);

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
	char detail[512];
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

	/* storage elements (heads) and their health, read beside SMART:
	 * one near its limit is named in the SMART check, one at or beyond
	 * it fails it (elements.supported false: the drive reports none) */
	struct depop_status elements;

	/* SMART */
	bool smart_read;
	enum smart_verdict smart_verdict;
	struct smart_num temperature_c, reallocated, pending, offline_uncorrectable;
	struct smart_num power_on_hours;
	/* SCSI: the log pages beside the verdict (reallocated above is the
	 * grown defect list); counters per read, write, verify */
	struct qualify_scsi_health {
		bool read; /* a SCSI drive whose log pages were read */
		bool has_counters[3];
		uint64_t corrected[3], uncorrected[3];
		struct smart_num non_medium, start_stop_cycles;
		bool bg_scan;
		unsigned bg_scans, bg_medium_errors;
	} scsi;
	/* NVMe: the SMART / Health log beside the verdict */
	bool nvme_read;
	struct nvme_health nvme;

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
	/* the scan's latency classes: every block read (QUALIFY_SCAN_BLOCK
	 * bytes, one request) graded by its latency, failed ones by kind */
	uint32_t scan_block_bytes;
	double scan_classes_ms[QUALIFY_CLASS_EDGES]; /* the edges used */
	uint64_t scan_class[QUALIFY_CLASSES];	     /* blocks read, per class */
	uint64_t scan_err[QE_KINDS];		     /* failed reads, per kind */
	uint64_t bad_kind[QE_KINDS];		     /* unreadable blocks, per kind */
	uint64_t slow_150ms, slow_500ms;	     /* blocks read in 150 / 500 ms or more */
	/* the map: per position across the disk (QUALIFY_MAP_BINS of its
	 * capacity), blocks of each class, then failed reads */
	uint32_t scan_map[QUALIFY_MAP_BINS][QUALIFY_CLASSES + 1];
	struct qualify_slow_block {
		uint64_t lba;
		uint32_t blocks;
		double ms;
	} slowest[QUALIFY_SLOWEST]; /* slowest first */
	unsigned nslowest;
	/* --remap: each block (or run of blocks) rewritten, before and after */
	struct qualify_remap *remap; /* owned */
	unsigned nremap;
	bool remap_ran, remap_truncated;

	/* zone profile (owned) */
	struct zprofile *zp;
	double mean_mbps; /* capacity-weighted mean of the profile */
	/* its shape: samples more than profile_dip_pct below the median of
	 * their neighbours (3 on each side), and the deepest, % */
	unsigned profile_dips;
	double profile_dip_worst_pct;

	/* access time and IOPS: random 4 KiB reads */
	unsigned nqd;
	unsigned qd[QUALIFY_QD_MAX];
	double iops[QUALIFY_QD_MAX];
	double lat_avg_ms[QUALIFY_QD_MAX];
	double lat_p99_ms[QUALIFY_QD_MAX];
	double access_ms; /* mean latency at QD 1 */
	uint64_t access_errors;
	struct io_hist hist; /* latency at QD 1 */

	/* burnin: the butterfly seek test and the random-read soak */
	struct qualify_stress {
		bool ran;
		unsigned qd;
		uint64_t time_ns, ios, errors;
		double iops, avg_ms, p99_ms, max_ms;
		struct io_hist hist;
	} butterfly, soak;
	char selftest_scope[128]; /* what the self-test covered */

	/* siblings */
	unsigned siblings;	  /* disks of the same model, this one included */
	double slowdown_pct;	  /* worst, against the model's median; < 0 faster */
	char slowdown_metric[48]; /* "sequential read", "IOPS at QD 1", ... */
	/* the zone profile sample by sample against the model's median
	 * profile: the slowdown a tenth of the samples reach, % */
	double profile_slowdown_pct;
	bool profile_compared;
};

/* One block or run of blocks --remap rewrote: what the scan saw, what was
 * sent, what a read gives after. */
enum qualify_remap_why { QR_UNREADABLE, QR_SLOW };
struct qualify_remap {
	uint64_t lba;
	uint32_t blocks;
	enum qualify_remap_why why;
	int before_kind;  /* unreadable: enum qualify_err_kind */
	double before_ms; /* slow: the scan's latency */
	char action[48];  /* "REASSIGN BLOCKS", "WRITE (its data)", "WRITE (zeros)" */
	int rc;		  /* the action's result, 0 done */
	char error[160];  /* why it failed */
	bool after_ok;	  /* the re-read succeeded */
	int after_kind;	  /* else its kind */
	double after_ms;
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
	/* --remap: after the scan, rewrite the blocks it found unreadable or
	 * read in remap_above_ms or more (ATA: WRITE of the LBA; SCSI:
	 * REASSIGN BLOCKS for an unreadable one, a WRITE of its data for a
	 * slow one), then read them again. Writes: the caller opened d for
	 * writing, checked it and had it confirmed. */
	bool remap;
	double remap_above_ms;		/* 0: 150 */
	uint64_t butterfly_ns, soak_ns; /* burnin: other durations than the plan's, 0 keeps */
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
