/*
 * smart_scsi.c - health of SCSI/SAS drives from their LOG SENSE pages
 * (SPC-4, SBC-3) and self-tests by SEND DIAGNOSTIC. ASC/ASCQ text comes
 * from sg3_utils' sg_lib.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/scsi.h"
#include "shortstroke/smart.h"
#include "smart_priv.h"

#define LOG_BUF_MAX 0xfffc	 /* LOG SENSE allocation length is 16 bits */
#define SPC_SHORT_SELFTEST_S 120 /* SPC-4: a short self-test takes 2 minutes at most */

static void entry_from_log(const struct log_selftest_entry *in, struct selftest_entry *out);
static int read_page(struct drive *d, const struct log_supported *sup, uint8_t page, uint8_t *buf,
		     size_t *got, enum smart_page_state *st);
static void scsi_figures(struct smart_report *r);
static int read_selftest_page(struct drive *d, struct log_selftest *st, struct ss_error *err);
static int selftest_time(struct drive *d, unsigned *seconds);
static int request_sense_progress(struct drive *d, struct scsi_sense *s);
static int send_diag(struct drive *d, uint8_t code, struct ss_error *err);
static void read_grown_defects(struct drive *d, struct smart_scsi_pages *p);

int smart_scsi_log_sense(struct drive *d, uint8_t page, uint8_t *buf, size_t max, size_t *got,
			 struct ss_error *err)
{
	uint8_t cdb[10];
	size_t need, hdr;
	unsigned n;
	int rc;

	*got = 0;
	if (max < 4)
		return ss_error_set(err, -EINVAL, "LOG SENSE buffer too small");
	if (max > LOG_BUF_MAX)
		max = LOG_BUF_MAX;
	/* the header first, for the page length */
	n = scsi_build_log_sense(cdb, false, 1, page, 0, 0, 4);
	rc = drive_scsi_in(d, cdb, n, buf, 4, &hdr, NULL, err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, rc, "%s: log page 0x%02x is not supported by this drive",
				    drive_name(d), page);
	if (rc)
		return rc;
	if (hdr < 4)
		return ss_error_set(err, -EPROTO, "%s: log page 0x%02x: short header",
				    drive_name(d), page);
	need = 4 + (size_t)sg_get_unaligned_be16(buf + 2);
	if (need > max)
		need = max;
	n = scsi_build_log_sense(cdb, false, 1, page, 0, 0, (uint16_t)need);
	rc = drive_scsi_in(d, cdb, n, buf, need, got, NULL, err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, rc, "%s: log page 0x%02x is not supported by this drive",
				    drive_name(d), page);
	return rc;
}

/* A SCSI self-test log entry (page 0x10) as a struct selftest_entry. */
static void entry_from_log(const struct log_selftest_entry *in, struct selftest_entry *out)
{
	char asc[80];

	memset(out, 0, sizeof(*out));
	out->code = in->code;
	out->kind = (in->code == SCSI_SELFTEST_BG_SHORT || in->code == SCSI_SELFTEST_FG_SHORT)
			? SELFTEST_SHORT
		    : (in->code == SCSI_SELFTEST_BG_EXTENDED ||
		       in->code == SCSI_SELFTEST_FG_EXTENDED)
			? SELFTEST_EXTENDED
			: SELFTEST_NONE;
	out->captive = in->code == SCSI_SELFTEST_FG_SHORT || in->code == SCSI_SELFTEST_FG_EXTENDED;
	out->status = in->result;
	out->running = in->result == LOG_ST_RESULT_IN_PROGRESS;
	out->passed = in->result == LOG_ST_RESULT_OK;
	out->aborted = in->result == LOG_ST_RESULT_ABORTED_CMD ||
		       in->result == LOG_ST_RESULT_ABORTED_OTHER;
	out->failed = in->result >= LOG_ST_RESULT_UNKNOWN_ERROR &&
		      in->result <= LOG_ST_RESULT_FAILED_SEGN;
	out->power_on_hours = in->power_on_hours;
	out->lba_valid = out->failed && in->lba_valid;
	out->failing_lba = out->lba_valid ? in->first_failure_lba : 0;
	out->sense_key = in->sense_key;
	out->asc = in->asc;
	out->ascq = in->ascq;
	if (out->failed && in->asc) {
		log_asc_text(in->asc, in->ascq, asc, sizeof(asc));
		snprintf(out->result, sizeof(out->result), "%s (%s)",
			 log_selftest_result_text(in->result), asc);
	} else {
		snprintf(out->result, sizeof(out->result), "%s",
			 log_selftest_result_text(in->result));
	}
}

/* Temperature (0x0D, else 0x2F), power-on hours (0x15) and the grown
 * defect list as the reallocated count. */
static void scsi_figures(struct smart_report *r)
{
	const struct smart_scsi_pages *p = &r->scsi;

	if (p->temp_st == SMART_PAGE_OK && p->temp.has_current) {
		r->temperature_c.known = true;
		r->temperature_c.value = p->temp.current_c;
	} else if (p->ie_st == SMART_PAGE_OK && p->ie.has_temperature) {
		r->temperature_c.known = true;
		r->temperature_c.value = p->ie.temperature_c;
	}
	if (p->bg_scan_st == SMART_PAGE_OK && p->bg_scan.has_status) {
		r->power_on_hours.known = true;
		r->power_on_hours.value = p->bg_scan.power_on_minutes / 60;
	}
	if (p->defects_st == SMART_PAGE_OK && p->defects.count_known) {
		r->reallocated.known = true;
		r->reallocated.value = p->defects.count;
	}
}

void smart_scsi_evaluate(struct smart_report *r)
{
	const struct smart_scsi_pages *p = &r->scsi;
	const struct {
		enum smart_page_state st;
		const struct log_errors *e;
		const char *what;
	} errs[] = {
		{ p->read_st, &p->read_err, "read" },
		{ p->write_st, &p->write_err, "write" },
		{ p->verify_st, &p->verify_err, "verify" },
	};
	bool sources = false;

	r->ata = false;
	scsi_figures(r);
	r->nselftests = 0;
	if (p->selftest_st == SMART_PAGE_OK) {
		for (unsigned i = 0; i < p->selftest.count && r->nselftests < SELFTEST_LOG_MAX; i++)
			if (!p->selftest.e[i].empty)
				entry_from_log(&p->selftest.e[i], &r->selftests[r->nselftests++]);
		sources = true;
	}
	if (p->ie_st == SMART_PAGE_OK && p->ie.has)
		sources = true;
	if (p->defects_st == SMART_PAGE_OK)
		sources = true;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (errs[i].st == SMART_PAGE_OK)
			sources = true;
	if (sources)
		smart_report_verdict(r, SMART_PASSED, "%s", "");
	else
		smart_report_verdict(r, SMART_UNKNOWN,
				     "the drive reports no health log pages (informational "
				     "exceptions 0x2F, error counters 0x02/0x03/0x05, self-tests "
				     "0x10) and no grown defect list");

	if (p->ie_st == SMART_PAGE_OK && p->ie.has && p->ie.asc) {
		char asc[128];

		log_asc_text(p->ie.asc, p->ie.ascq, asc, sizeof(asc));
		smart_report_verdict(r, SMART_FAILED, "informational exception: %s (%02x/%02x)",
				     asc, p->ie.asc, p->ie.ascq);
	}
	smart_report_selftests_verdict(r);
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		const struct log_errors *e = errs[i].e;

		if (errs[i].st == SMART_PAGE_OK && e->has[LOG_ERR_UNCORRECTED] &&
		    e->count[LOG_ERR_UNCORRECTED] > 0)
			smart_report_verdict(r, SMART_WARNING, "%" PRIu64 " uncorrected %s errors",
					     e->count[LOG_ERR_UNCORRECTED], errs[i].what);
	}
	if (r->reallocated.known && r->reallocated.value > 0)
		smart_report_count_warning(
		    r, "%" PRId64 " grown defect%s (blocks the drive reassigned)",
		    r->reallocated.value, r->reallocated.value == 1 ? "" : "s");
}

/* The grown defect list's length (READ DEFECT DATA (12), else (10), as
 * smartctl reads it: the header only, in the bytes-from-index format the
 * drive may answer in another). A drive that has neither command: not
 * supported. */
static void read_grown_defects(struct drive *d, struct smart_scsi_pages *p)
{
	uint8_t cdb[12], buf[8];
	size_t got = 0;
	unsigned n;
	int rc;

	p->defects_st = SMART_PAGE_NOT_SUPPORTED;
	n = scsi_build_read_defect12(cdb, false, true, SCSI_DEFECT_BYTES_FROM_INDEX, 0, 8);
	rc = drive_scsi_in(d, cdb, n, buf, 8, &got, NULL, NULL);
	if (rc == 0 && scsi_parse_defect_header(buf, got, true, &p->defects) == 0) {
		p->defects_st = p->defects.glist ? SMART_PAGE_OK : SMART_PAGE_ERROR;
		return;
	}
	if (rc == -ENODEV || (rc && rc != -EOPNOTSUPP)) {
		p->defects_st = SMART_PAGE_ERROR;
		return;
	}
	n = scsi_build_read_defect10(cdb, false, true, SCSI_DEFECT_BYTES_FROM_INDEX, 4);
	rc = drive_scsi_in(d, cdb, n, buf, 4, &got, NULL, NULL);
	if (rc == -EOPNOTSUPP)
		return;
	if (rc || scsi_parse_defect_header(buf, got, false, &p->defects))
		p->defects_st = SMART_PAGE_ERROR;
	else
		p->defects_st = p->defects.glist ? SMART_PAGE_OK : SMART_PAGE_ERROR;
}

/* Read one listed page into buf; the state says what became of it. */
static int read_page(struct drive *d, const struct log_supported *sup, uint8_t page, uint8_t *buf,
		     size_t *got, enum smart_page_state *st)
{
	int rc;

	*st = SMART_PAGE_NOT_SUPPORTED;
	if (!log_supported_has(sup, page))
		return -EOPNOTSUPP;
	rc = smart_scsi_log_sense(d, page, buf, LOG_BUF_MAX, got, NULL);
	if (rc) {
		*st = rc == -EOPNOTSUPP ? SMART_PAGE_NOT_SUPPORTED : SMART_PAGE_ERROR;
		return rc;
	}
	return 0;
}

int smart_scsi_read(struct drive *d, const struct drive_info *info, struct smart_report *out,
		    struct ss_error *err)
{
	struct smart_scsi_pages *p = &out->scsi;
	uint8_t *buf;
	size_t got;
	int rc;

	buf = malloc(LOG_BUF_MAX);
	if (!buf)
		return ss_error_nomem(err);
	rc = smart_scsi_log_sense(d, LOG_PAGE_SUPPORTED, buf, LOG_BUF_MAX, &got, err);
	if (rc == -EOPNOTSUPP) {
		free(buf);
		return ss_error_set(err, rc,
				    "%s: the drive has no log pages (LOG SENSE): SMART is not "
				    "supported by this drive",
				    drive_name(d));
	}
	if (rc == 0 && logpage_parse_supported(buf, got, &p->supported))
		rc = ss_error_set(err, -EPROTO, "%s: malformed list of supported log pages",
				  drive_name(d));
	if (rc) {
		free(buf);
		return rc;
	}

#define READ_PAGE(code, state, parse, dst)                                                         \
	do {                                                                                       \
		if (read_page(d, &p->supported, code, buf, &got, &p->state) == 0)                  \
			p->state = parse(buf, got, &p->dst) ? SMART_PAGE_ERROR : SMART_PAGE_OK;    \
	} while (0)

	READ_PAGE(LOG_PAGE_WRITE_ERRORS, write_st, logpage_parse_errors, write_err);
	READ_PAGE(LOG_PAGE_READ_ERRORS, read_st, logpage_parse_errors, read_err);
	READ_PAGE(LOG_PAGE_VERIFY_ERRORS, verify_st, logpage_parse_errors, verify_err);
	READ_PAGE(LOG_PAGE_NON_MEDIUM, non_medium_st, logpage_parse_non_medium, non_medium);
	READ_PAGE(LOG_PAGE_TEMPERATURE, temp_st, logpage_parse_temperature, temp);
	READ_PAGE(LOG_PAGE_START_STOP, start_stop_st, logpage_parse_start_stop, start_stop);
	READ_PAGE(LOG_PAGE_SELFTEST, selftest_st, logpage_parse_selftest, selftest);
	READ_PAGE(LOG_PAGE_BG_SCAN, bg_scan_st, logpage_parse_bg_scan, bg_scan);
	READ_PAGE(LOG_PAGE_IE, ie_st, logpage_parse_ie, ie);
#undef READ_PAGE
	free(buf);
	read_grown_defects(d, p);
	(void)info;
	smart_scsi_evaluate(out);
	return 0;
}

/* ---- self-tests ------------------------------------------------------------- */

static int read_selftest_page(struct drive *d, struct log_selftest *st, struct ss_error *err)
{
	uint8_t *buf = malloc(LOG_BUF_MAX);
	size_t got;
	int rc;

	if (!buf)
		return ss_error_nomem(err);
	rc = smart_scsi_log_sense(d, LOG_PAGE_SELFTEST, buf, LOG_BUF_MAX, &got, err);
	if (rc == -EOPNOTSUPP)
		ss_error_set(err, rc,
			     "%s: the drive keeps no self-test log (log page 0x10 is not "
			     "supported)",
			     drive_name(d));
	else if (rc == 0 && logpage_parse_selftest(buf, got, st))
		rc = ss_error_set(err, -EPROTO, "%s: malformed self-test results page",
				  drive_name(d));
	free(buf);
	return rc;
}

static int send_diag(struct drive *d, uint8_t code, struct ss_error *err)
{
	struct xcmd c;

	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_send_diagnostic(c.cdb, code, false, false, 0);
	c.dir = XFER_NONE;
	return drive_scsi(d, &c, NULL, err);
}

int smart_scsi_selftest_start(struct drive *d, enum selftest_kind kind, struct ss_error *err)
{
	struct log_selftest st;
	struct ss_error e2 = { 0 };
	uint8_t code;
	int rc;

	switch (kind) {
	case SELFTEST_SHORT:
		code = SCSI_SELFTEST_BG_SHORT;
		break;
	case SELFTEST_EXTENDED:
		code = SCSI_SELFTEST_BG_EXTENDED;
		break;
	case SELFTEST_CONVEYANCE:
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: SCSI drives have no conveyance self-test (short or "
				    "extended only)",
				    drive_name(d));
	default:
		return ss_error_set(err, -EINVAL, "%s: unknown self-test kind", drive_name(d));
	}
	if (read_selftest_page(d, &st, NULL) == 0 && st.count > 0 &&
	    st.e[0].result == LOG_ST_RESULT_IN_PROGRESS)
		return ss_error_set(err, -EBUSY,
				    "%s: a self-test is already running; abort it first",
				    drive_name(d));
	rc = send_diag(d, code, &e2);
	if (rc == -EOPNOTSUPP || rc == -EINVAL)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive rejected the %s self-test (%s)", drive_name(d),
				    selftest_kind_name(kind), e2.msg);
	if (rc && err)
		*err = e2;
	return rc;
}

int smart_scsi_selftest_abort(struct drive *d, struct ss_error *err)
{
	struct ss_error e2 = { 0 };
	int rc = send_diag(d, SCSI_SELFTEST_BG_ABORT, &e2);

	if (rc == -EOPNOTSUPP || rc == -EINVAL)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive refused to abort the self-test (%s)",
				    drive_name(d), e2.msg);
	if (rc && err)
		*err = e2;
	return rc;
}

/* Control mode page: EXTENDED SELF-TEST COMPLETION TIME. */
static int selftest_time(struct drive *d, unsigned *seconds)
{
	uint8_t cdb[10], buf[64];
	struct scsi_mode10 m;
	const uint8_t *pg;
	uint16_t s;
	size_t got, plen;
	unsigned n;
	int rc;

	*seconds = 0;
	n = scsi_build_mode_sense10(cdb, false, true, 0, MODE_PAGE_CONTROL, 0, sizeof(buf));
	rc = drive_scsi_in(d, cdb, n, buf, sizeof(buf), &got, NULL, NULL);
	if (rc)
		return rc;
	if (scsi_parse_mode_sense10(buf, got, &m))
		return -EPROTO;
	pg = scsi_mode_find_page(buf, got, &m, MODE_PAGE_CONTROL, 0, &plen);
	if (!pg || scsi_parse_control_selftest_time(pg, plen, &s))
		return -EPROTO;
	*seconds = s;
	return 0;
}

static int request_sense_progress(struct drive *d, struct scsi_sense *s)
{
	uint8_t cdb[6], buf[252];
	unsigned n = scsi_build_request_sense(cdb, false, sizeof(buf));
	size_t got;
	int rc;

	rc = drive_scsi_in(d, cdb, n, buf, sizeof(buf), &got, NULL, NULL);
	if (rc)
		return rc;
	return scsi_sense_decode(buf, got, s);
}

int smart_scsi_selftest_poll(struct drive *d, struct selftest_status *st, struct ss_error *err)
{
	struct log_selftest lst;
	struct scsi_sense s;
	bool have_log, sense_running = false;
	unsigned secs = 0;
	int rc;

	rc = read_selftest_page(d, &lst, err);
	have_log = rc == 0;
	if (rc && rc != -EOPNOTSUPP)
		return rc;
	memset(&s, 0, sizeof(s));
	if (request_sense_progress(d, &s) == 0 && s.valid && s.asc == 0x04 && s.ascq == 0x09)
		sense_running = true; /* LOGICAL UNIT NOT READY, SELF-TEST IN PROGRESS */
	if (!have_log && !sense_running && !s.valid)
		return rc; /* neither a log nor sense to go by: -EOPNOTSUPP from above */

	st->running = sense_running ||
		      (have_log && lst.count > 0 && lst.e[0].result == LOG_ST_RESULT_IN_PROGRESS);
	if (st->running) {
		if (have_log && lst.count > 0) {
			uint8_t code = lst.e[0].code;

			if (code == SCSI_SELFTEST_BG_SHORT || code == SCSI_SELFTEST_FG_SHORT)
				st->kind = SELFTEST_SHORT;
			else if (code == SCSI_SELFTEST_BG_EXTENDED ||
				 code == SCSI_SELFTEST_FG_EXTENDED)
				st->kind = SELFTEST_EXTENDED;
		}
		if (st->kind == SELFTEST_EXTENDED && selftest_time(d, &secs) == 0)
			st->expected_s = secs;
		else if (st->kind == SELFTEST_SHORT)
			st->expected_s = SPC_SHORT_SELFTEST_S;
		if (s.progress_valid) {
			st->fraction = s.progress / 65536.0;
			st->fraction_valid = true;
			if (st->expected_s)
				st->eta_s = st->expected_s * (1.0 - st->fraction);
			snprintf(st->text, sizeof(st->text), "%s%sself-test: %.0f%% done",
				 st->kind ? selftest_kind_name(st->kind) : "", st->kind ? " " : "",
				 st->fraction * 100.0);
		} else {
			snprintf(st->text, sizeof(st->text), "%s%sself-test in progress",
				 st->kind ? selftest_kind_name(st->kind) : "", st->kind ? " " : "");
		}
		return 0;
	}
	st->fraction = 1.0;
	st->fraction_valid = true;
	st->eta_s = 0;
	if (have_log) {
		for (unsigned i = 0; i < lst.count; i++) {
			if (lst.e[i].empty)
				continue;
			entry_from_log(&lst.e[i], &st->last);
			st->has_last = true;
			break;
		}
	}
	snprintf(st->text, sizeof(st->text), "last self-test: %s",
		 st->has_last ? st->last.result : "none logged");
	return 0;
}

int smart_scsi_selftest_log(struct drive *d, struct selftest_entry *out, size_t max, size_t *count,
			    struct ss_error *err)
{
	struct log_selftest lst;
	int rc;

	*count = 0;
	rc = read_selftest_page(d, &lst, err);
	if (rc)
		return rc;
	for (unsigned i = 0; i < lst.count && *count < max; i++)
		if (!lst.e[i].empty)
			entry_from_log(&lst.e[i], &out[(*count)++]);
	return 0;
}
