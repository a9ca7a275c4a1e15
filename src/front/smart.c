/* smart.c - a disk's health as `smart` and the TUI's SMART view show it
 * (smart.h). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "record.h"
#include "shortstroke/devices.h"
#include "shortstroke/smart.h"
#include "smart.h"
#include "table.h"

#define HOT_C 55 /* a temperature worth a mark */

const struct col_def smart_attr_cols[AC_COUNT] = {
	[AC_ID] = { "ID", COL_U64, true, 0, 0, "attribute number" },
	[AC_NAME] = { "NAME", COL_STR, false, 0, 0, "attribute name (libatasmart's)" },
	[AC_VALUE] = { "VALUE", COL_U64, true, 0, 0, "normalized value now (higher is better)" },
	[AC_WORST] = { "WORST", COL_U64, true, 0, 0, "worst normalized value seen" },
	[AC_THRESH] = { "THRESH", COL_U64, true, 0, 0,
			"threshold: at or below it the attribute fails" },
	[AC_RAW] = { "RAW", COL_U64, true, 0, 0, "raw value (48 bits, little-endian)" },
	[AC_PRETTY] = { "PRETTY", COL_STR, false, 0, 0,
			"raw value in a human unit, as libatasmart reads it" },
	[AC_FLAGS] = { "FLAGS", COL_STR, false, 0, 0,
		       "P pre-failure, O online, S speed, R error rate, C event count, K "
		       "self-preserving" },
	[AC_TYPE] = { "TYPE", COL_STR, false, 0, 0, "pre-failure or old-age" },
	[AC_STATUS] = { "STATUS", COL_STR, false, 0, 0,
			"ok, FAILING (at or below the threshold now), failed-in-past, or warn" },
};

enum st_col { SC_NUM, SC_TEST, SC_MODE, SC_RESULT, SC_HOURS, SC_LBA, SC_COUNT };
static const struct col_def st_cols[SC_COUNT] = {
	[SC_NUM] = { "NUM", COL_U64, true, 0, 0, "1 is the newest" },
	[SC_TEST] = { "TEST", COL_STR, false, 0, 0, "short, extended, conveyance, other" },
	[SC_MODE] = { "MODE", COL_STR, false, 0, 0, "background or captive/foreground" },
	[SC_RESULT] = { "RESULT", COL_STR, false, 0, 0, "how it ended" },
	[SC_HOURS] = { "HOURS", COL_U64, true, 0, 0, "power-on hours when it ended" },
	[SC_LBA] = { "LBA", COL_U64, true, 0, 0, "first failing LBA" },
};
#define ST_DEFAULT "NUM,TEST,RESULT,HOURS,LBA"

enum err_col {
	EC_LOG,
	EC_CORRECTED,
	EC_DELAYED,
	EC_RETRIES,
	EC_PROCESSED,
	EC_UNCORRECTED,
	EC_COUNT
};
static const struct col_def err_cols[EC_COUNT] = {
	[EC_LOG] = { "LOG", COL_STR, false, 0, 0,
		     "read, write or verify (log pages 03h, 02h, 05h)" },
	[EC_CORRECTED] = { "CORRECTED", COL_U64, true, 0, 0,
			   "errors corrected (fast and with delay)" },
	[EC_DELAYED] = { "DELAYED", COL_U64, true, 0, 0, "errors corrected with possible delay" },
	[EC_RETRIES] = { "RETRIES", COL_U64, true, 0, 0, "total rereads or rewrites" },
	[EC_PROCESSED] = { "PROCESSED", COL_SIZE, true, 0, 0, "bytes processed" },
	[EC_UNCORRECTED] = { "UNCORRECTED", COL_U64, true, 0, 0, "uncorrected errors" },
};
#define ERR_DEFAULT "LOG,CORRECTED,DELAYED,RETRIES,PROCESSED,UNCORRECTED"

static void attr_flags(const struct smart_attr *a, char *buf)
{
	const char letters[] = "POSRCK";

	for (unsigned i = 0; i < 6; i++)
		buf[i] = (a->flags & (1u << i)) ? letters[i] : '-';
	buf[6] = '\0';
}

static const char *attr_status(const struct smart_attr *a)
{
	if (a->good_now_valid && !a->good_now)
		return "FAILING";
	if (a->good_past_valid && !a->good_past)
		return "failed-in-past";
	if (a->warn)
		return "warn";
	return "ok";
}

static struct table *attr_table(const struct smart_report *r, const char *sel)
{
	struct table *t = table_new(smart_attr_cols, AC_COUNT, SMART_ATTR_DEFAULT, sel, NULL);
	char buf[64];

	if (!t)
		return NULL;
	for (size_t i = 0; i < r->nattrs; i++) {
		const struct smart_attr *a = &r->attrs[i];

		table_add_row(t);
		table_set_u64(t, AC_ID, a->id);
		table_set_str(t, AC_NAME, a->name);
		if (a->current_valid)
			table_set_u64(t, AC_VALUE, a->current);
		if (a->worst_valid)
			table_set_u64(t, AC_WORST, a->worst);
		if (a->threshold_valid)
			table_set_u64(t, AC_THRESH, a->threshold);
		table_set_u64(t, AC_RAW, sg_get_unaligned_le48(a->raw));
		smart_attr_pretty(a, buf, sizeof(buf));
		table_set_str(t, AC_PRETTY, buf);
		attr_flags(a, buf);
		table_set_str(t, AC_FLAGS, buf);
		table_set_str(t, AC_TYPE, a->prefailure ? "pre-failure" : "old-age");
		table_set_str(t, AC_STATUS, attr_status(a));
	}
	return t;
}

static struct table *st_table(const struct smart_report *r, unsigned flags)
{
	struct table *t = table_new(
	    st_cols, SC_COUNT, (flags & TABLE_JSON) ? "NUM,TEST,MODE,RESULT,HOURS,LBA" : ST_DEFAULT,
	    NULL, NULL);

	for (size_t i = 0; t && i < r->nselftests; i++) {
		const struct selftest_entry *e = &r->selftests[i];

		table_add_row(t);
		table_set_u64(t, SC_NUM, i + 1);
		table_set_str(t, SC_TEST, selftest_kind_name(e->kind));
		table_set_str(t, SC_MODE,
			      e->captive ? (r->ata ? "captive" : "foreground")
					 : (r->ata ? "off-line" : "background"));
		table_set_str(t, SC_RESULT, e->result);
		table_set_u64(t, SC_HOURS, e->power_on_hours);
		if (e->lba_valid)
			table_set_u64(t, SC_LBA, e->failing_lba);
	}
	return t;
}

/* The three error counter pages of a SCSI report, by name. */
struct err_log {
	const char *name;
	enum smart_page_state st;
	const struct log_errors *e;
};

static void err_logs(const struct smart_scsi_pages *p, struct err_log logs[3])
{
	logs[0] = (struct err_log){ "read", p->read_st, &p->read_err };
	logs[1] = (struct err_log){ "write", p->write_st, &p->write_err };
	logs[2] = (struct err_log){ "verify", p->verify_st, &p->verify_err };
}

static struct table *err_table(const struct smart_report *r, const char *sel)
{
	const struct smart_scsi_pages *p = &r->scsi;
	struct err_log logs[3];
	struct table *t = table_new(err_cols, EC_COUNT, ERR_DEFAULT, sel, NULL);

	err_logs(p, logs);
	for (size_t i = 0; t && i < 3; i++) {
		const struct log_errors *e = logs[i].e;

		if (logs[i].st != SMART_PAGE_OK)
			continue;
		table_add_row(t);
		table_set_str(t, EC_LOG, logs[i].name);
		if (e->has[LOG_ERR_TOTAL_CORRECTED])
			table_set_u64(t, EC_CORRECTED, e->count[LOG_ERR_TOTAL_CORRECTED]);
		if (e->has[LOG_ERR_CORRECTED_DELAYED])
			table_set_u64(t, EC_DELAYED, e->count[LOG_ERR_CORRECTED_DELAYED]);
		if (e->has[LOG_ERR_TOTAL_RETRIES])
			table_set_u64(t, EC_RETRIES, e->count[LOG_ERR_TOTAL_RETRIES]);
		if (e->has[LOG_ERR_BYTES_PROCESSED])
			table_set_size(t, EC_PROCESSED, e->count[LOG_ERR_BYTES_PROCESSED]);
		if (e->has[LOG_ERR_UNCORRECTED])
			table_set_u64(t, EC_UNCORRECTED, e->count[LOG_ERR_UNCORRECTED]);
	}
	return t;
}

/* ---- key figures ---- */

struct figure {
	const char *label, *key, *unit;
	const struct smart_num *n;
	bool alarm;
};

/* An NVMe drive's health log: text lines and JSON keys (smartctl's names) */
static void nvme_fields(struct record *text, struct record *d, const struct nvme_health *h)
{
	char cw[200];

	nvme_critical_warning_text(h->critical_warning, cw, sizeof(cw));
	if (text) {
		record_text(text, "Critical warning", "0x%02x%s%s%s", h->critical_warning,
			    cw[0] ? " (" : "", cw, cw[0] ? ")  (!)" : "");
		record_text(text, "Available spare", "%u%% (threshold %u%%)%s", h->available_spare,
			    h->available_spare_threshold,
			    h->available_spare < h->available_spare_threshold ? "  (!)" : "");
		record_text(text, "Percentage used", "%u%%%s", h->percentage_used,
			    h->percentage_used >= 100 ? "  (!)" : "");
		record_text(text, "Media errors", "%" PRIu64 "%s", h->media_errors,
			    h->media_errors ? "  (!)" : "");
	}
	record_set_u64(d, "critical_warning", h->critical_warning);
	record_set_u64(d, "available_spare", h->available_spare);
	record_set_u64(d, "available_spare_threshold", h->available_spare_threshold);
	record_set_u64(d, "percentage_used", h->percentage_used);
	record_set_u64(d, "media_errors", h->media_errors);
}

/* smartctl's nvme_smart_health_information_log */
static void nvme_smartctl_log(struct record *d, const struct nvme_health *h)
{
	struct record *o = record_set_object(d, "nvme_smart_health_information_log"), *t;

	record_set_u64(o, "critical_warning", h->critical_warning);
	record_set_i64(o, "temperature", h->temperature_c);
	record_set_u64(o, "available_spare", h->available_spare);
	record_set_u64(o, "available_spare_threshold", h->available_spare_threshold);
	record_set_u64(o, "percentage_used", h->percentage_used);
	record_set_u64(o, "data_units_read", h->data_units_read);
	record_set_u64(o, "data_units_written", h->data_units_written);
	record_set_u64(o, "host_reads", h->host_reads);
	record_set_u64(o, "host_writes", h->host_writes);
	record_set_u64(o, "controller_busy_time", h->controller_busy_time);
	record_set_u64(o, "power_cycles", h->power_cycles);
	record_set_u64(o, "power_on_hours", h->power_on_hours);
	record_set_u64(o, "unsafe_shutdowns", h->unsafe_shutdowns);
	record_set_u64(o, "media_errors", h->media_errors);
	record_set_u64(o, "num_err_log_entries", h->num_err_log_entries);
	record_set_u64(o, "warning_temp_time", h->warning_temp_time);
	record_set_u64(o, "critical_comp_time", h->critical_comp_time);
	t = record_set_list(o, "temperature_sensors");
	for (unsigned i = 0; i < 8; i++)
		if (h->temperature_sensors[i] != INT32_MIN)
			record_set_i64(t, NULL, h->temperature_sensors[i]);
}

static unsigned figures(const struct smart_report *r, struct figure *f)
{
	unsigned n = 0;

	f[n++] = (struct figure){ "Temperature", "temperature_c", "C", &r->temperature_c,
				  r->temperature_c.known && r->temperature_c.value >= HOT_C };
	f[n++] = (struct figure){ "Power-on hours", "power_on_hours", NULL, &r->power_on_hours,
				  false };
	if (r->nvme) /* the rest are ATA's and SCSI's */
		return n;
	/* on SCSI the grown defect list: the blocks the drive reassigned */
	f[n++] = (struct figure){ r->ata ? "Reallocated" : "Grown defects", "reallocated",
				  r->ata ? "sectors" : "blocks", &r->reallocated,
				  r->reallocated.known && r->reallocated.value > 0 };
	f[n++] = (struct figure){ "Pending", "pending", "sectors", &r->pending,
				  r->pending.known && r->pending.value > 0 };
	f[n++] = (struct figure){ "Offline uncorrectable", "offline_uncorrectable", "sectors",
				  &r->offline_uncorrectable,
				  r->offline_uncorrectable.known &&
				      r->offline_uncorrectable.value > 0 };
	f[n++] = (struct figure){ "CRC errors", "crc_errors", NULL, &r->crc_errors,
				  r->crc_errors.known && r->crc_errors.value > 0 };
	return n;
}

/* A counter of an error counter page, 0 when the page or counter is not there. */
static uint64_t err_count(const struct log_errors *e, enum smart_page_state st,
			  enum log_err_counter c)
{
	return st == SMART_PAGE_OK && e->has[c] ? e->count[c] : 0;
}

/* {"read": N, "write": N, "verify": N} of one counter, null for a page the
 * drive does not keep; returns the sum. */
static uint64_t err_object(struct record *d, const char *key, const struct smart_scsi_pages *p,
			   enum log_err_counter c)
{
	struct err_log logs[3];
	struct record *o = record_set_object(d, key);
	uint64_t sum = 0;

	err_logs(p, logs);
	for (size_t i = 0; i < 3; i++) {
		if (logs[i].st == SMART_PAGE_OK && logs[i].e->has[c]) {
			record_set_u64(o, logs[i].name, logs[i].e->count[c]);
			sum += logs[i].e->count[c];
		} else {
			record_set_null(o, logs[i].name);
		}
	}
	return sum;
}

/* The background scan page: status, scans, what they found (a text line
 * on text when not NULL, JSON "background_scan" on d). */
static void bg_scan_fields(struct record *text, struct record *d, const struct smart_scsi_pages *p)
{
	static const char *const status[] = {
		"no scan active",
		"background medium scan active",
		"pre-scan active",
		"halted: fatal error",
		"halted: vendor pattern",
		"halted: PLIST errors",
		"halted: vendor reason",
		"halted: temperature",
		"waiting for the scan time",
		"halted: waiting for the scan interval",
	};
	const struct log_bgscan *b = &p->bg_scan;
	const char *st;
	struct record *o;

	if (p->bg_scan_st != SMART_PAGE_OK || !b->has_status) {
		record_set_null(d, "background_scan");
		return;
	}
	st = b->status < sizeof(status) / sizeof(status[0]) ? status[b->status] : "reserved";
	if (text)
		record_text(text, "Background scans", "%u performed, %u medium error%s logged (%s)",
			    b->scans_performed, b->total, b->total == 1 ? "" : "s", st);
	o = record_set_object(d, "background_scan");
	record_set_str(o, "status", st);
	record_set_u64(o, "scans_performed", b->scans_performed);
	record_set_u64(o, "medium_scans_performed", b->medium_scans_performed);
	record_set_double(o, "progress_percent", b->progress * 100.0 / 65536.0);
	record_set_u64(o, "medium_errors", b->total);
}

static const char *ie_text(const struct smart_scsi_pages *p, char *buf, size_t len)
{
	snprintf(buf, len, "none");
	if (p->ie.asc)
		log_asc_text(p->ie.asc, p->ie.ascq, buf, len);
	return buf;
}

/* Non-medium errors and start-stop cycles: text lines on text (smart's
 * labels, or info's shorter ones), JSON on d. */
static void counts_fields(struct record *text, struct record *d, const struct smart_scsi_pages *p,
			  bool brief)
{
	if (p->non_medium_st == SMART_PAGE_OK && p->non_medium.has_count) {
		if (!brief)
			record_text(text, "Non-medium errors", "%" PRIu64, p->non_medium.count);
		record_set_u64(d, "non_medium_errors", p->non_medium.count);
	} else {
		record_set_null(d, "non_medium_errors");
	}
	if (p->start_stop_st == SMART_PAGE_OK && p->start_stop.has_cycles) {
		record_text(text, brief ? "Start-stop" : "Start-stop cycles",
			    "%" PRIu32 "%s of %" PRIu32 " specified", p->start_stop.cycles,
			    brief ? " cycles" : "", p->start_stop.specified_cycles);
		record_set_u64(d, "start_stop_cycles", p->start_stop.cycles);
	} else {
		record_set_null(d, "start_stop_cycles");
	}
}

/* -a: the attribute table (ATA) or the error counters (SCSI) in text; d
 * takes t. */
static void attrs_text(struct record *d, struct table *t, const struct smart_view *o)
{
	if (!o->attrs) {
		table_free(t);
		return;
	}
	record_line(d, "%s", "");
	if (t)
		record_table(d, t);
}

/* The SCSI disk's log pages: what it says, and the state of each page. */
static void scsi_fields(struct record *d, const struct smart_report *r, const struct smart_view *o)
{
	const struct smart_scsi_pages *p = &r->scsi;
	uint64_t ur = err_count(&p->read_err, p->read_st, LOG_ERR_UNCORRECTED),
		 uw = err_count(&p->write_err, p->write_st, LOG_ERR_UNCORRECTED),
		 uv = err_count(&p->verify_err, p->verify_st, LOG_ERR_UNCORRECTED);
	struct table *t = err_table(r, NULL);
	bool ie = p->ie_st == SMART_PAGE_OK && p->ie.has;
	struct record *pages;
	char asc[96];

	if (p->defects_st == SMART_PAGE_OK && p->defects.count_known)
		record_set_u64(d, "grown_defects", p->defects.count);
	else
		record_set_null(d, "grown_defects");
	record_text(d, "Corrected errors", "read %" PRIu64 ", write %" PRIu64 ", verify %" PRIu64,
		    err_count(&p->read_err, p->read_st, LOG_ERR_TOTAL_CORRECTED),
		    err_count(&p->write_err, p->write_st, LOG_ERR_TOTAL_CORRECTED),
		    err_count(&p->verify_err, p->verify_st, LOG_ERR_TOTAL_CORRECTED));
	err_object(d, "corrected_errors", p, LOG_ERR_TOTAL_CORRECTED);
	record_text(d, "Uncorrected errors",
		    "read %" PRIu64 ", write %" PRIu64 ", verify %" PRIu64 "%s", ur, uw, uv,
		    ur + uw + uv ? "  (!)" : "");
	err_object(d, "uncorrected_errors", p, LOG_ERR_UNCORRECTED);
	if (t)
		record_set_table(d, "error_counters", t);
	else
		record_set_null(d, "error_counters");
	counts_fields(d, d, p, false);
	bg_scan_fields(d, d, p);
	if (ie)
		record_text(d, "Informational exc.", "%s%s", ie_text(p, asc, sizeof(asc)),
			    p->ie.asc ? "  (!)" : "");
	record_set_str(d, "informational_exception",
		       ie && p->ie.asc ? ie_text(p, asc, sizeof(asc)) : NULL);
	pages = record_set_object(d, "log_pages");
	record_set_str(pages, "write_errors", smart_page_state_name(p->write_st));
	record_set_str(pages, "read_errors", smart_page_state_name(p->read_st));
	record_set_str(pages, "verify_errors", smart_page_state_name(p->verify_st));
	record_set_str(pages, "temperature", smart_page_state_name(p->temp_st));
	record_set_str(pages, "selftest", smart_page_state_name(p->selftest_st));
	record_set_str(pages, "background_scan", smart_page_state_name(p->bg_scan_st));
	record_set_str(pages, "informational_exceptions", smart_page_state_name(p->ie_st));
	record_set_str(pages, "non_medium_errors", smart_page_state_name(p->non_medium_st));
	record_set_str(pages, "start_stop", smart_page_state_name(p->start_stop_st));
	record_set_str(pages, "grown_defect_list", smart_page_state_name(p->defects_st));
	attrs_text(d, t, o);
}

/* One disk's health: the verdict, the key figures, the attribute table
 * (ATA) or the log pages (SCSI), the self-test log. */
void smart_disk_record(struct record *d, const struct dev_entry *e, const struct smart_report *r,
		       const struct smart_view *o)
{
	struct figure f[8];
	unsigned nf = figures(r, f);
	struct record *alarms;
	struct table *t;

	record_style(d, 2, 22, true);
	if (r->verdict == SMART_PASSED)
		record_line(d, "%s: PASSED", e->spec);
	else
		record_line(d, "%s: %s: %s", e->spec, smart_verdict_name(r->verdict), r->reason);
	record_set_str(d, "device", e->spec);
	record_set_str(d, "model", e->info.model);
	record_set_str(d, "serial", e->info.serial);
	record_set_str(d, "type", r->ata ? "ata" : r->nvme ? "nvme" : "scsi");
	record_set_str(d, "verdict", smart_verdict_name(r->verdict));
	record_set_str(d, "reason", r->reason[0] ? r->reason : NULL);
	record_text(d, "Drive", "%s (%s)", e->info.model, e->info.serial);
	if (r->ata)
		record_text(d, "SMART status", "%s",
			    r->ata_status == 1	 ? "good"
			    : r->ata_status == 0 ? "threshold exceeded (!)"
						 : "not returned");
	for (unsigned i = 0; i < nf; i++) {
		if (!f[i].n->known) {
			record_set_null(d, f[i].key);
			continue;
		}
		record_text(d, f[i].label, "%" PRId64 "%s%s%s", f[i].n->value, f[i].unit ? " " : "",
			    f[i].unit ? f[i].unit : "", f[i].alarm ? "  (!)" : "");
		record_set_i64(d, f[i].key, f[i].n->value);
	}
	alarms = record_set_list(d, "alarms");
	for (unsigned i = 0; i < nf; i++)
		if (f[i].alarm)
			record_set_str(alarms, NULL, f[i].key);
	if (r->ata) {
		record_set_str(d, "return_status",
			       r->ata_status < 0 ? NULL
			       : r->ata_status	 ? "good"
						 : "threshold-exceeded");
		t = attr_table(r, o->columns);
		if (!t)
			t = attr_table(r, NULL);
		if (t)
			record_set_table(d, "attributes", t);
		else
			record_set_null(d, "attributes");
		attrs_text(d, t, o);
		if (r->errlog_read)
			record_set_u64(d, "error_count", r->errlog.error_count);
		else
			record_set_null(d, "error_count");
	} else if (r->nvme) {
		nvme_fields(d, d, &r->nv);
	} else {
		scsi_fields(d, r, o);
	}
	t = st_table(r, TABLE_JSON);
	if (t)
		record_set_table(d, "selftests", t);
	else
		record_set_null(d, "selftests");
	table_free(t);
	record_set_null(d, "error");
	if (!o->log)
		return;
	record_line(d, "%s", "");
	if (!r->nselftests)
		record_line(d, "  %s",
			    r->ata && !r->selftest_log_read ? "self-test log: not read"
							    : "no self-tests logged");
	else if ((t = st_table(r, 0)))
		record_table(d, t);
	if (r->ata && r->errlog_read) {
		char newest[160] = "";

		if (r->errlog.count)
			snprintf(newest, sizeof(newest),
				 "; newest: command 0x%02x, error 0x%02x, status 0x%02x at "
				 "LBA %" PRIu32 ", %u power-on hours",
				 r->errlog.e[0].command, r->errlog.e[0].error,
				 r->errlog.e[0].status, r->errlog.e[0].lba,
				 r->errlog.e[0].power_on_hours);
		record_line(d, "%s", "");
		record_line(d, "  ATA error log: %u error%s%s", r->errlog.error_count,
			    r->errlog.error_count == 1 ? "" : "s", newest);
	}
}

void smart_health_record(struct record *r, const struct smart_report *rep, const char *why)
{
	const struct smart_scsi_pages *p;
	struct record *h;

	if (!rep) {
		record_text(r, "Health", "not read: %s", why ? why : "no SMART");
		record_set_null(r, "health");
		return;
	}
	h = record_set_object(r, "health");
	p = &rep->scsi;
	if (rep->verdict == SMART_PASSED)
		record_text(r, "Health", "PASSED");
	else
		record_text(r, "Health", "%s: %s", smart_verdict_name(rep->verdict), rep->reason);
	record_set_str(h, "verdict", smart_verdict_name(rep->verdict));
	record_set_str(h, "reason", rep->reason[0] ? rep->reason : NULL);
	if (rep->nvme) {
		nvme_fields(r, h, &rep->nv);
		return;
	}
	if (rep->reallocated.known) {
		record_text(r, rep->ata ? "Reallocated" : "Grown defects", "%" PRId64 " %s%s",
			    rep->reallocated.value, rep->ata ? "sectors" : "blocks",
			    rep->reallocated.value > 0 ? "  (!)" : "");
		record_set_i64(h, "reallocated", rep->reallocated.value);
	} else {
		record_set_null(h, "reallocated");
	}
	if (rep->ata) {
		if (rep->pending.known) {
			record_text(r, "Pending", "%" PRId64 " sectors%s", rep->pending.value,
				    rep->pending.value > 0 ? "  (!)" : "");
			record_set_i64(h, "pending", rep->pending.value);
		} else {
			record_set_null(h, "pending");
		}
		return;
	}
	if (p->defects_st == SMART_PAGE_OK && p->defects.count_known)
		record_set_u64(h, "grown_defects", p->defects.count);
	else
		record_set_null(h, "grown_defects");
	{
		uint64_t c = err_object(h, "corrected_errors", p, LOG_ERR_TOTAL_CORRECTED);
		uint64_t u = err_object(h, "uncorrected_errors", p, LOG_ERR_UNCORRECTED);

		record_text(r, "Error counters", "%" PRIu64 " corrected, %" PRIu64 " uncorrected%s",
			    c, u, u ? "  (!)" : "");
	}
	counts_fields(r, h, p, true);
	if (p->bg_scan_st == SMART_PAGE_OK && p->bg_scan.has_status)
		record_text(r, "Medium scans", "%u in the background, %u medium error%s logged",
			    p->bg_scan.scans_performed, p->bg_scan.total,
			    p->bg_scan.total == 1 ? "" : "s");
	bg_scan_fields(NULL, h, p);
}

/* smartctl's default attribute names (its drivedb's "DEFAULT" entry), by id */
static const struct {
	uint8_t id;
	const char *name;
} smartctl_names[] = {
	{ 1, "Raw_Read_Error_Rate" },
	{ 2, "Throughput_Performance" },
	{ 3, "Spin_Up_Time" },
	{ 4, "Start_Stop_Count" },
	{ 5, "Reallocated_Sector_Ct" },
	{ 7, "Seek_Error_Rate" },
	{ 8, "Seek_Time_Performance" },
	{ 9, "Power_On_Hours" },
	{ 10, "Spin_Retry_Count" },
	{ 11, "Calibration_Retry_Count" },
	{ 12, "Power_Cycle_Count" },
	{ 183, "Runtime_Bad_Block" },
	{ 184, "End-to-End_Error" },
	{ 187, "Reported_Uncorrect" },
	{ 188, "Command_Timeout" },
	{ 189, "High_Fly_Writes" },
	{ 190, "Airflow_Temperature_Cel" },
	{ 191, "G-Sense_Error_Rate" },
	{ 192, "Power-Off_Retract_Count" },
	{ 193, "Load_Cycle_Count" },
	{ 194, "Temperature_Celsius" },
	{ 195, "Hardware_ECC_Recovered" },
	{ 196, "Reallocated_Event_Count" },
	{ 197, "Current_Pending_Sector" },
	{ 198, "Offline_Uncorrectable" },
	{ 199, "UDMA_CRC_Error_Count" },
	{ 200, "Multi_Zone_Error_Rate" },
	{ 220, "Disk_Shift" },
	{ 222, "Loaded_Hours" },
	{ 240, "Head_Flying_Hours" },
	{ 241, "Total_LBAs_Written" },
	{ 242, "Total_LBAs_Read" },
};

/* smartctl's name of an ATA attribute (its drivedb's defaults), or NULL */
static const char *smart_smartctl_attr_name(uint8_t id)
{
	for (size_t i = 0; i < sizeof(smartctl_names) / sizeof(smartctl_names[0]); i++)
		if (smartctl_names[i].id == id)
			return smartctl_names[i].name;
	return NULL;
}

/* smartctl's attribute flags string: "POSRCK" with '-' for a flag not set,
 * and its flag object */
static void smartctl_flags(struct record *o, const struct smart_attr *a)
{
	struct record *f = record_set_object(o, "flags");
	char s[8];

	attr_flags(a, s);
	record_set_u64(f, "value", a->flags);
	record_set_str(f, "string", s);
	record_set_bool(f, "prefailure", a->flags & 0x01);
	record_set_bool(f, "updated_online", a->flags & 0x02);
	record_set_bool(f, "performance", a->flags & 0x04);
	record_set_bool(f, "error_rate", a->flags & 0x08);
	record_set_bool(f, "event_count", a->flags & 0x10);
	record_set_bool(f, "auto_keep", a->flags & 0x20);
}

void smart_smartctl_keys(struct record *d, const struct dev_entry *e, const struct smart_report *r)
{
	const struct drive_info *i = &e->info;
	struct record *o, *t;
	char buf[32];

	record_set_str(d, "model_name", i->model[0] ? i->model : NULL);
	record_set_str(d, "serial_number", i->serial[0] ? i->serial : NULL);
	record_set_str(d, "firmware_version", i->firmware[0] ? i->firmware : NULL);
	o = record_set_object(d, "user_capacity");
	record_set_u64(o, "blocks", i->capacity_blocks);
	record_set_u64(o, "bytes", i->capacity_blocks * i->logical_block);
	record_set_u64(d, "logical_block_size", i->logical_block);
	/* smartctl's verdict is the drive's own health status: ATA RETURN
	 * STATUS, SCSI the informational exceptions page (ours, "verdict",
	 * also weighs the attributes, counts and the self-test log) */
	o = record_set_object(d, "smart_status");
	if (r->ata && r->ata_status >= 0)
		record_set_bool(o, "passed", r->ata_status == 1);
	else if (r->nvme) /* smartctl: passed while no critical warning is set */
		record_set_bool(o, "passed", r->nv.critical_warning == 0);
	else if (!r->ata && r->scsi.ie_st == SMART_PAGE_OK && r->scsi.ie.has)
		record_set_bool(o, "passed", r->scsi.ie.asc == 0);
	else
		record_set_null(o, "passed");
	o = record_set_object(d, "temperature");
	if (r->temperature_c.known)
		record_set_i64(o, "current", r->temperature_c.value);
	else
		record_set_null(o, "current");
	o = record_set_object(d, "power_on_time");
	if (r->power_on_hours.known)
		record_set_i64(o, "hours", r->power_on_hours.value);
	else
		record_set_null(o, "hours");
	if (r->nvme) {
		nvme_smartctl_log(d, &r->nv);
		return;
	}
	if (!r->ata) {
		if (r->scsi.defects_st == SMART_PAGE_OK && r->scsi.defects.count_known)
			record_set_u64(d, "scsi_grown_defect_list", r->scsi.defects.count);
		else
			record_set_null(d, "scsi_grown_defect_list");
		return;
	}
	o = record_set_object(d, "ata_smart_attributes");
	t = record_set_list(o, "table");
	for (size_t k = 0; k < r->nattrs; k++) {
		const struct smart_attr *a = &r->attrs[k];
		const char *name = smart_smartctl_attr_name(a->id);
		struct record *x = record_set_object(t, NULL), *raw;
		uint64_t v = sg_get_unaligned_le48(a->raw);

		record_set_u64(x, "id", a->id);
		if (name) {
			record_set_str(x, "name", name);
		} else {
			snprintf(buf, sizeof(buf), "Unknown_Attribute");
			record_set_str(x, "name", buf);
		}
		record_set_str(x, "libatasmart_name", a->name);
		record_set_u64(x, "value", a->current);
		record_set_u64(x, "worst", a->worst);
		record_set_u64(x, "thresh", a->threshold);
		record_set_str(x, "when_failed",
			       a->good_now_valid && !a->good_now     ? "now"
			       : a->good_past_valid && !a->good_past ? "past"
								     : "");
		smartctl_flags(x, a);
		raw = record_set_object(x, "raw");
		record_set_u64(raw, "value", v);
		/* smartctl prints the temperature's low byte (and min/max
		 * when the drive keeps them), the rest as one number */
		if (a->id == 194 || a->id == 190)
			snprintf(buf, sizeof(buf), "%u", a->raw[0]);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, v);
		record_set_str(raw, "string", buf);
	}
}
