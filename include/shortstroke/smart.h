/* smart.h - drive health (SMART) and self-tests, ATA and SCSI.
 *
 * ATA: IDENTIFY, SMART READ DATA / READ THRESHOLDS / RETURN STATUS and
 * the logs are read through drive_ata() (the same path for real and
 * simulated disks) and handed to libatasmart as a blob for attribute
 * names, pretty values and its overall assessment. SCSI: the LOG SENSE
 * pages of logpage.h. Both end in one plain struct smart_report.
 *
 * The pure parts (the blob, the self-test log as entries, the verdict
 * from a blob or from SCSI pages) are declared here too, so that tests
 * and fuzz targets drive them without a device; the ATA data and log
 * parsers are the drive layer's (ata_smart.h).
 */
#ifndef SHORTSTROKE_SMART_H
#define SHORTSTROKE_SMART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata_smart.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/job.h"
#include "shortstroke/logpage.h"
#include "shortstroke/nvme.h"
#include "shortstroke/scsi.h"

enum smart_verdict {
	SMART_UNKNOWN = 0,
	SMART_PASSED,
	SMART_WARNING,
	SMART_FAILED,
};
const char *smart_verdict_name(enum smart_verdict v); /* "PASSED", ... "UNKNOWN" */

/* A figure the drive may or may not report. */
struct smart_num {
	bool known;
	int64_t value;
};

/* One ATA attribute, as libatasmart decoded it. */
struct smart_attr {
	uint8_t id;
	char name[48]; /* libatasmart's name, "attribute-N" if unknown */
	uint16_t flags;
	bool prefailure, online;
	uint8_t current, worst, threshold;
	bool current_valid, worst_valid, threshold_valid;
	uint8_t raw[6];
	uint64_t pretty;      /* in pretty_unit */
	char pretty_unit[12]; /* "ms", "mK", "sectors", "%", "MB", "" none, "?" unknown */
	bool good_now, good_now_valid;
	bool good_past, good_past_valid;
	bool warn; /* libatasmart's own flag */
};

/* "34 C", "12.5 h", "3 sectors", "1234": pretty value in a human unit. */
void smart_attr_pretty(const struct smart_attr *a, char *buf, size_t len);

enum selftest_kind {
	SELFTEST_NONE = 0,
	SELFTEST_SHORT,
	SELFTEST_EXTENDED,
	SELFTEST_CONVEYANCE, /* ATA only */
	SELFTEST_SELECTIVE,  /* ATA only: the spans of the selective self-test log */
};
const char *selftest_kind_name(enum selftest_kind k); /* "short", "extended", ... */

/* One entry of a self-test log (ATA 0x06/0x07 or SCSI page 0x10),
 * newest first. */
struct selftest_entry {
	enum selftest_kind kind; /* SELFTEST_NONE for an offline/vendor test */
	uint8_t code;	/* ATA: LBA low of the test (0x01, 0x82, ...); SCSI: self-test code */
	bool captive;	/* ATA captive / SCSI foreground */
	uint8_t status; /* ATA: status nibble (7:4 of the status byte); SCSI: result */
	bool running, passed, failed, aborted;
	unsigned remaining_pct; /* ATA, while running */
	uint32_t power_on_hours;
	bool lba_valid;
	uint64_t failing_lba;
	uint8_t sense_key, asc, ascq; /* SCSI */
	char result[96];	      /* "completed without error", "failed: read element", ... */
};
#define SELFTEST_LOG_MAX 21

/* ---- ATA, pure ------------------------------------------------------------- */

/* A self-test log (ata_smart_parse_selftest_log) as entries: kind,
 * outcome and result text. At most max (SELFTEST_LOG_MAX at most) stored,
 * newest first. -EPROTO when len < 512. */
int smart_ata_parse_selftest_log(const uint8_t *buf, size_t len, bool ext,
				 struct selftest_entry *out, size_t max, size_t *count);

/*
 * The blob libatasmart's sk_disk_set_blob() accepts: a sequence of
 * records, each a 4-byte tag (the ASCII bytes "IDFY", "SMST", "SMDT",
 * "SMTH" in that order in memory), a 4-byte big-endian length and the
 * payload: IDENTIFY (512 bytes), SMART status (4 bytes, big-endian 1
 * good / 0 bad), SMART data (512), SMART thresholds (512). identify is
 * required; data, thresholds may be NULL; status < 0 leaves the status
 * record out. Returns 0 and *out_len, -ENOSPC when out_max is too small
 * (SMART_BLOB_MAX always fits), -EINVAL without identify.
 */
#define SMART_BLOB_MAX (3 * (8 + ATA_SMART_SECTOR) + 12)
int smart_ata_build_blob(const uint8_t *identify, const uint8_t *data, const uint8_t *thresholds,
			 int status, uint8_t *out, size_t out_max, size_t *out_len);

/*
 * What libatasmart's skdump --save writes for an ATA drive, read through
 * the drive: IDENTIFY and, with SMART supported and enabled, SMART READ
 * DATA, READ THRESHOLDS (when answered) and RETURN STATUS, as the blob
 * above. A simulated drive can be seeded from it ("smart_blob" in a rig,
 * docs/simulator.md). -EOPNOTSUPP for a SCSI drive.
 */
int smart_ata_read_blob(struct drive *d, const struct drive_info *info, uint8_t *blob, size_t max,
			size_t *len, struct ss_error *err);

/* ---- the report ------------------------------------------------------------ */

enum smart_page_state {
	SMART_PAGE_NOT_SUPPORTED = 0, /* the drive does not list or rejects it */
	SMART_PAGE_OK,
	SMART_PAGE_ERROR, /* listed, but reading or parsing it failed */
};
const char *smart_page_state_name(enum smart_page_state s); /* "not supported", ... */

struct smart_scsi_pages {
	struct log_supported supported;
	enum smart_page_state write_st, read_st, verify_st, non_medium_st, temp_st, start_stop_st,
	    selftest_st, bg_scan_st, ie_st;
	struct log_errors write_err, read_err, verify_err;
	struct log_non_medium non_medium;
	struct log_temperature temp;
	struct log_start_stop start_stop;
	struct log_selftest selftest;
	struct log_bgscan bg_scan;
	struct log_ie ie;
	/* READ DEFECT DATA (12), else (10): the grown defect list's header
	 * (its count is the drive's reallocated blocks) */
	enum smart_page_state defects_st;
	struct scsi_defect_list defects;
};

struct smart_report {
	bool ata;
	enum smart_verdict verdict;
	char reason[256]; /* one line; "" for PASSED */
	/* what raised a WARNING: sector or defect counts (reallocated,
	 * pending, offline uncorrectable, grown defects: a caller with its
	 * own limits for them may judge those itself), anything else */
	bool warn_counts, warn_other;

	/* key figures; known false when the drive does not report them */
	struct smart_num temperature_c;
	struct smart_num power_on_hours;
	struct smart_num reallocated; /* ATA attribute 5; SCSI the grown defect list */
	struct smart_num pending;
	struct smart_num offline_uncorrectable;
	struct smart_num crc_errors;

	/* ATA */
	struct smart_attr *attrs; /* owned */
	size_t nattrs;
	int ata_status; /* RETURN STATUS: 1 good, 0 exceeded, -1 unknown */
	int overall;	/* libatasmart SkSmartOverall, -1 when it gave none */
	struct ata_smart_data data;
	bool selftest_log_read;
	bool errlog_read;
	struct ata_smart_errlog errlog;

	/* both: the self-test log, newest first */
	struct selftest_entry selftests[SELFTEST_LOG_MAX];
	size_t nselftests;

	/* SCSI */
	struct smart_scsi_pages scsi;

	/* NVMe: the SMART / Health Information log */
	bool nvme;
	struct nvme_health nv;
};

/* NVMe: verdict, reason and key figures from out->nv (and the self-test
 * entries): a critical warning of spare, reliability or read-only media
 * FAILED; temperature, percentage used at 100 or more, media errors a
 * WARNING. Pure. */
void smart_nvme_evaluate(struct smart_report *out);
/* An NVMe self-test log entry as a report's entry. Pure. */
void smart_nvme_entry(const struct nvme_st_entry *in, struct selftest_entry *out);

void smart_report_fini(struct smart_report *r);

/*
 * ATA: feed libatasmart the blob and fill verdict, reason, key figures
 * and attributes of out (which should be zeroed first; attrs is
 * allocated). The self-test log, when out->nselftests is already set,
 * takes part in the verdict. -EINVAL when libatasmart refuses the blob,
 * -ENOMEM.
 */
int smart_ata_evaluate(const uint8_t *blob, size_t blob_len, struct smart_report *out,
		       struct ss_error *err);

/* SCSI: verdict, reason and key figures from out->scsi (and the
 * self-test entries derived from it). Pure. */
void smart_scsi_evaluate(struct smart_report *out);

/* ---- operations ------------------------------------------------------------ */

/*
 * Read a drive's health. ATA: the SMART data, thresholds, status, the
 * self-test log and the summary error log; SCSI: the log pages the drive
 * lists. -EOPNOTSUPP "<dev>: SMART is not supported by this drive" (or
 * "... is disabled ...") when there is nothing to read.
 */
int smart_read(struct drive *d, const struct drive_info *info, struct smart_report *out,
	       struct ss_error *err);
/* The same of the drive spec names, opened for reading only (read-only
 * commands): what list's HEALTH column reads. */
struct ss_ctx;
int smart_read_named(struct ss_ctx *ctx, const char *spec, struct smart_report *out,
		     struct ss_error *err);

/* Start a self-test in the background (ATA off-line mode, SCSI
 * background). -EOPNOTSUPP when the drive has no such test or rejects
 * it, -EBUSY when one is already running. */
int selftest_start(struct drive *d, const struct drive_info *info, enum selftest_kind kind,
		   struct ss_error *err);

/* The self-tests a drive has: per kind (SELFTEST_SHORT..CONVEYANCE), whether
 * it has it, else why not (a sentence naming the drive: no SMART, SMART
 * disabled, no such test), and the minutes the drive says it takes (0:
 * unknown). ATA: from the SMART data (one read); SCSI: short and extended. */
struct selftest_caps {
	bool has[SELFTEST_CONVEYANCE + 1];
	char why_not[SELFTEST_CONVEYANCE + 1][200];
	unsigned minutes[SELFTEST_CONVEYANCE + 1];
};
int selftest_caps(struct drive *d, const struct drive_info *info, struct selftest_caps *out,
		  struct ss_error *err);

/*
 * A self-test of [first, last] only, where the drive can: ATA writes the
 * span into the selective self-test log (SMART WRITE LOG 09h, one span)
 * and starts the selective test (EXECUTE OFF-LINE IMMEDIATE 04h); *kind is
 * SELFTEST_SELECTIVE. SCSI has no selective self-test: the extended
 * background test runs, over the whole disk, and *kind says
 * SELFTEST_EXTENDED. -EOPNOTSUPP when an ATA drive has no selective test,
 * -EINVAL for a span beyond the disk.
 */
int selftest_start_span(struct drive *d, const struct drive_info *info, uint64_t first,
			uint64_t last, enum selftest_kind *kind, struct ss_error *err);

/* Abort a running self-test. */
int selftest_abort(struct drive *d, const struct drive_info *info, struct ss_error *err);

struct selftest_status {
	/* in: the kind the caller started, SELFTEST_NONE if unknown; used for
	 * the expected duration when the drive does not say which test runs */
	enum selftest_kind kind;
	/* out */
	bool running;
	double fraction; /* done, 0..1 (ATA in steps of 0.1) */
	bool fraction_valid;
	unsigned expected_s; /* the drive's expected duration, 0 unknown */
	double eta_s;	     /* < 0 unknown */
	bool has_last;	     /* last: the newest finished test (when not running) */
	struct selftest_entry last;
	char text[128]; /* "extended self-test: 40% done", "last: completed ..." */
};
int selftest_poll(struct drive *d, const struct drive_info *info, struct selftest_status *st,
		  struct ss_error *err);

/* The self-test log, newest first: at most max (SELFTEST_LOG_MAX fits all). */
int selftest_log(struct drive *d, const struct drive_info *info, struct selftest_entry *out,
		 size_t max, size_t *count, struct ss_error *err);

/*
 * Poll until the running self-test ends, reporting progress into sink.
 * 0 when it completed without error; -EIO with the result when it
 * failed; -ECANCELED when it was aborted, or when sink asked to stop
 * (the test then goes on inside the drive; selftest_abort stops it).
 * kind: what the caller started (for the ETA), SELFTEST_NONE if unknown.
 */
int selftest_wait(struct drive *d, const struct drive_info *info, enum selftest_kind kind,
		  const struct progress_sink *sink, struct ss_error *err);

/* Raise r's verdict to v (never lower it) with a one-line reason; the
 * reason of the worst finding wins, the first one among equals. */
void smart_report_verdict(struct smart_report *r, enum smart_verdict v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for a WARNING raised by a sector or defect count (warn_counts). */
void smart_report_count_warning(struct smart_report *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The self-test rule of both verdicts: the newest finished test in
 * r->selftests failed -> FAILED; an older one failed -> WARNING. */
void smart_report_selftests_verdict(struct smart_report *r);

#endif
