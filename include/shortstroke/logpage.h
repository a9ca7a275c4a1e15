/* logpage.h - SCSI LOG SENSE answers (SPC-4, SBC-3): the page header, the
 * parameter walk, and typed accessors for the pages a health check reads.
 *
 * Parsers are pure and never read past the length they are given. A page
 * whose PAGE LENGTH overruns the buffer (the allocation length cut it, or
 * the device lied) is parsed up to the end of the buffer and flagged
 * `truncated`; so is a parameter whose length runs past the page. They
 * return -EPROTO only when there is no header (fewer than 4 bytes) or the
 * page code is not the one the accessor decodes.
 */
#ifndef SHORTSTROKE_LOGPAGE_H
#define SHORTSTROKE_LOGPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOG_PAGE_SUPPORTED 0x00
#define LOG_PAGE_WRITE_ERRORS 0x02
#define LOG_PAGE_READ_ERRORS 0x03
#define LOG_PAGE_VERIFY_ERRORS 0x05
#define LOG_PAGE_NON_MEDIUM 0x06
#define LOG_PAGE_TEMPERATURE 0x0d
#define LOG_PAGE_START_STOP 0x0e
#define LOG_PAGE_SELFTEST 0x10
#define LOG_PAGE_BG_SCAN 0x15
#define LOG_PAGE_IE 0x2f

/* A parsed page header; buf stays the caller's. */
struct log_page {
	const uint8_t *buf;
	uint8_t code; /* PAGE CODE (5:0) */
	uint8_t subpage;
	bool spf;	   /* SPF: a subpage format */
	bool ds;	   /* DS: parameters are not saveable */
	uint16_t page_len; /* PAGE LENGTH as the device says it */
	size_t len;	   /* bytes of parameters actually present */
	bool truncated;	   /* page_len overran the buffer, or a parameter the page */
};

/* One log parameter; val points into the page, len bytes. */
struct log_param {
	uint16_t code;
	uint8_t control; /* DU, TSD, ETC, TMC, FORMAT AND LINKING */
	uint8_t len;
	const uint8_t *val;
};

/* Header of a LOG SENSE answer. -EPROTO when len < 4. */
int logpage_parse(const uint8_t *buf, size_t len, struct log_page *out);

/* Walk the parameters: *off starts at 0. Returns 1 with p filled, 0 at
 * the end; a parameter that runs past the page ends the walk and sets
 * pg->truncated. */
int logpage_next_param(struct log_page *pg, size_t *off, struct log_param *p);

/* The first parameter with this code: 0, or -ENOENT. */
int logpage_find_param(struct log_page *pg, uint16_t code, struct log_param *p);

/* A counter parameter as an unsigned big-endian number (1..8 bytes, or
 * longer with the extra leading bytes zero). -ERANGE when it does not fit
 * 64 bits, -ENODATA when the parameter is empty. */
int log_param_u64(const struct log_param *p, uint64_t *v);

/* ---- typed pages ---------------------------------------------------- */

/* 0x00: supported pages */
struct log_supported {
	uint8_t pages[64];
	unsigned count;
	bool truncated;
};
int logpage_parse_supported(const uint8_t *buf, size_t len, struct log_supported *out);
bool log_supported_has(const struct log_supported *s, uint8_t page);

/* 0x02 write, 0x03 read, 0x05 verify error counters (SBC). The index is
 * the parameter code. */
enum log_err_counter {
	LOG_ERR_CORRECTED_FAST = 0, /* corrected without substantial delay */
	LOG_ERR_CORRECTED_DELAYED,  /* corrected with possible delays */
	LOG_ERR_TOTAL_RETRIES,	    /* total rewrites or rereads */
	LOG_ERR_TOTAL_CORRECTED,    /* total errors corrected */
	LOG_ERR_ALGORITHM_RUNS,	    /* times the correction algorithm ran */
	LOG_ERR_BYTES_PROCESSED,    /* total bytes processed */
	LOG_ERR_UNCORRECTED,	    /* total uncorrected errors */
	LOG_ERR_NCOUNTERS
};
struct log_errors {
	uint8_t page;
	bool has[LOG_ERR_NCOUNTERS];
	uint64_t count[LOG_ERR_NCOUNTERS];
	bool overflow; /* a counter did not fit 64 bits (saturated) */
	bool truncated;
};
/* page must be 0x02, 0x03 or 0x05 (the one buf holds). */
int logpage_parse_errors(const uint8_t *buf, size_t len, struct log_errors *out);

/* 0x06: non-medium error count */
struct log_non_medium {
	bool has_count;
	uint64_t count;
	bool truncated;
};
int logpage_parse_non_medium(const uint8_t *buf, size_t len, struct log_non_medium *out);

/* 0x0D: temperature, degrees Celsius; 0xFF from the device means "not
 * available" and leaves has_ false. */
struct log_temperature {
	bool has_current;
	uint8_t current_c;
	bool has_reference;
	uint8_t reference_c; /* the maximum the device is rated for */
	bool truncated;
};
int logpage_parse_temperature(const uint8_t *buf, size_t len, struct log_temperature *out);

/* 0x0E: start-stop cycle counter */
struct log_start_stop {
	bool has_mfg_date;
	char mfg_year[5], mfg_week[3]; /* ASCII, as the device gave them */
	bool has_acct_date;
	char acct_year[5], acct_week[3];
	bool has_specified_cycles, has_cycles;
	uint32_t specified_cycles; /* over the device lifetime */
	uint32_t cycles;	   /* accumulated start-stop cycles */
	bool has_specified_load_unload, has_load_unload;
	uint32_t specified_load_unload;
	uint32_t load_unload;
	bool truncated;
};
int logpage_parse_start_stop(const uint8_t *buf, size_t len, struct log_start_stop *out);

/* 0x10: self-test results, 20 entries, parameter 1 the most recent. */
#define LOG_SELFTEST_ENTRIES 20
#define LOG_ST_RESULT_OK 0x0
#define LOG_ST_RESULT_ABORTED_CMD 0x1 /* SEND DIAGNOSTIC abort */
#define LOG_ST_RESULT_ABORTED_OTHER 0x2
#define LOG_ST_RESULT_UNKNOWN_ERROR 0x3
#define LOG_ST_RESULT_FAILED 0x4 /* segment unknown */
#define LOG_ST_RESULT_FAILED_SEG1 0x5
#define LOG_ST_RESULT_FAILED_SEG2 0x6
#define LOG_ST_RESULT_FAILED_SEGN 0x7
#define LOG_ST_RESULT_IN_PROGRESS 0xf
struct log_selftest_entry {
	uint16_t param; /* 1..20 */
	uint8_t code;	/* SELF-TEST CODE (7:5): 1 bg short, 2 bg ext, 5/6 fg */
	uint8_t result; /* SELF-TEST RESULTS (3:0) */
	uint8_t number; /* SELF-TEST NUMBER */
	uint16_t power_on_hours;
	bool lba_valid; /* ADDRESS OF FIRST FAILURE is not all ones */
	uint64_t first_failure_lba;
	uint8_t sense_key, asc, ascq;
	bool empty; /* an unused slot (all zero) */
};
struct log_selftest {
	struct log_selftest_entry e[LOG_SELFTEST_ENTRIES];
	unsigned count; /* entries stored, in parameter-code order */
	bool truncated;
};
int logpage_parse_selftest(const uint8_t *buf, size_t len, struct log_selftest *out);
/* "completed without error", "failed in the second segment", ... */
const char *log_selftest_result_text(uint8_t result);

/* 0x15: background scan results (SBC-3) */
#define LOG_BGSCAN_MAX 64
struct log_bgscan_entry {
	uint16_t param;
	uint32_t power_on_minutes;
	uint8_t reassign_status; /* REASSIGN STATUS (7:4) */
	uint8_t sense_key, asc, ascq;
	uint64_t lba;
};
struct log_bgscan {
	bool has_status;
	uint32_t power_on_minutes; /* accumulated, from parameter 0 */
	uint8_t status;		   /* BACKGROUND SCAN STATUS */
	uint16_t scans_performed;
	uint16_t progress; /* of 65536 */
	uint16_t medium_scans_performed;
	struct log_bgscan_entry e[LOG_BGSCAN_MAX];
	unsigned count; /* stored */
	unsigned total; /* medium scan parameters seen */
	bool truncated;
};
int logpage_parse_bg_scan(const uint8_t *buf, size_t len, struct log_bgscan *out);

/* 0x2F: informational exceptions */
struct log_ie {
	bool has;	      /* parameter 0 present */
	uint8_t asc, ascq;    /* 0/0: no exception */
	bool has_temperature; /* most recent temperature reading, not 0xFF */
	uint8_t temperature_c;
	bool truncated;
};
int logpage_parse_ie(const uint8_t *buf, size_t len, struct log_ie *out);

/* ASC/ASCQ as text, by sg3_utils' sg_get_asc_ascq_str ("Failure prediction
 * threshold exceeded", ...). */
void log_asc_text(uint8_t asc, uint8_t ascq, char *buf, size_t len);

#endif
