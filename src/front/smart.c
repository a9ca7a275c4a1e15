/* smart.c - a disk's health as `smart` and the TUI's SMART view show it
 * (smart.h). */
#include <inttypes.h>
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

static struct table *attr_table(const struct smart_report *r, const char *sel, char *eb, size_t el)
{
	struct table *t = table_new(smart_attr_cols, AC_COUNT, SMART_ATTR_DEFAULT, sel, eb, el);
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
	    NULL, NULL, 0);

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

static struct table *err_table(const struct smart_report *r, const char *sel, char *eb, size_t el)
{
	const struct smart_scsi_pages *p = &r->scsi;
	const struct {
		const char *name;
		enum smart_page_state st;
		const struct log_errors *e;
	} logs[] = {
		{ "read", p->read_st, &p->read_err },
		{ "write", p->write_st, &p->write_err },
		{ "verify", p->verify_st, &p->verify_err },
	};
	struct table *t = table_new(err_cols, EC_COUNT, ERR_DEFAULT, sel, eb, el);

	for (size_t i = 0; t && i < sizeof(logs) / sizeof(logs[0]); i++) {
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

static unsigned figures(const struct smart_report *r, struct figure *f)
{
	unsigned n = 0;

	f[n++] = (struct figure){ "Temperature", "temperature_c", "C", &r->temperature_c,
				  r->temperature_c.known && r->temperature_c.value >= HOT_C };
	f[n++] = (struct figure){ "Power-on hours", "power_on_hours", NULL, &r->power_on_hours,
				  false };
	f[n++] = (struct figure){ "Reallocated", "reallocated", "sectors", &r->reallocated,
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

static uint64_t uncorrected(const struct smart_report *r, const struct log_errors *e,
			    enum smart_page_state st)
{
	(void)r;
	return st == SMART_PAGE_OK && e->has[LOG_ERR_UNCORRECTED] ? e->count[LOG_ERR_UNCORRECTED]
								  : 0;
}

static const char *ie_text(const struct smart_scsi_pages *p, char *buf, size_t len)
{
	snprintf(buf, len, "none");
	if (p->ie.asc)
		log_asc_text(p->ie.asc, p->ie.ascq, buf, len);
	return buf;
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
	uint64_t ur = uncorrected(r, &p->read_err, p->read_st),
		 uw = uncorrected(r, &p->write_err, p->write_st),
		 uv = uncorrected(r, &p->verify_err, p->verify_st);
	struct table *t = err_table(r, NULL, NULL, 0);
	bool ie = p->ie_st == SMART_PAGE_OK && p->ie.has;
	struct record *pages;
	char asc[96];

	record_text(d, "Uncorrected errors",
		    "read %" PRIu64 ", write %" PRIu64 ", verify %" PRIu64 "%s", ur, uw, uv,
		    ur + uw + uv ? "  (!)" : "");
	if (t)
		record_set_table(d, "error_counters", t);
	else
		record_set_null(d, "error_counters");
	if (p->non_medium_st == SMART_PAGE_OK && p->non_medium.has_count)
		record_u64(d, "Non-medium errors", "non_medium_errors", p->non_medium.count, NULL);
	else
		record_set_null(d, "non_medium_errors");
	if (p->start_stop_st == SMART_PAGE_OK && p->start_stop.has_cycles) {
		record_text(d, "Start-stop cycles", "%" PRIu32 " of %" PRIu32 " specified",
			    p->start_stop.cycles, p->start_stop.specified_cycles);
		record_set_u64(d, "start_stop_cycles", p->start_stop.cycles);
	} else {
		record_set_null(d, "start_stop_cycles");
	}
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
	record_set_str(d, "type", r->ata ? "ata" : "scsi");
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
		record_set_str(d, "smart_status",
			       r->ata_status < 0 ? NULL
			       : r->ata_status	 ? "good"
						 : "threshold-exceeded");
		t = attr_table(r, o->columns, NULL, 0);
		if (!t)
			t = attr_table(r, NULL, NULL, 0);
		if (t)
			record_set_table(d, "attributes", t);
		else
			record_set_null(d, "attributes");
		attrs_text(d, t, o);
		if (r->errlog_read)
			record_set_u64(d, "error_count", r->errlog.error_count);
		else
			record_set_null(d, "error_count");
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
