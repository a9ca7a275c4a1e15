/*
 * logpage.c - parsers of SCSI LOG SENSE answers (SPC-4 7.3, SBC-3 6.4).
 * Every offset is checked against the page end, which is itself limited
 * to the buffer the caller gives.
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_lib.h>
#include <scsi/sg_unaligned.h>

#include "shortstroke/logpage.h"

#define LOG_HDR_LEN 4
#define LOG_PARAM_HDR_LEN 4

static int typed_header(const uint8_t *buf, size_t len, uint8_t page, struct log_page *pg);
static void ascii_copy(const uint8_t *src, size_t n, char *out, size_t outlen);
static bool all_zero(const uint8_t *p, size_t n);

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Printable ASCII only ('?' for the rest), NUL terminated. */
static void ascii_copy(const uint8_t *src, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < outlen; i++)
		out[o++] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
	out[o] = '\0';
}

int logpage_parse(const uint8_t *buf, size_t len, struct log_page *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < LOG_HDR_LEN)
		return -EPROTO;
	out->buf = buf;
	out->ds = buf[0] & 0x80;
	out->spf = buf[0] & 0x40;
	out->code = buf[0] & 0x3f;
	out->subpage = buf[1];
	out->page_len = sg_get_unaligned_be16(buf + 2);
	out->len = out->page_len;
	if (LOG_HDR_LEN + out->len > len) {
		out->len = len - LOG_HDR_LEN;
		out->truncated = true;
	}
	return 0;
}

int logpage_next_param(struct log_page *pg, size_t *off, struct log_param *p)
{
	size_t end = LOG_HDR_LEN + pg->len;
	size_t o = LOG_HDR_LEN + *off;
	const uint8_t *h;

	memset(p, 0, sizeof(*p));
	if (o >= end)
		return 0;
	if (o + LOG_PARAM_HDR_LEN > end) {
		pg->truncated = true;
		return 0;
	}
	h = pg->buf + o;
	if (o + LOG_PARAM_HDR_LEN + h[3] > end) {
		pg->truncated = true;
		return 0;
	}
	p->code = sg_get_unaligned_be16(h);
	p->control = h[2];
	p->len = h[3];
	p->val = h + LOG_PARAM_HDR_LEN;
	*off += LOG_PARAM_HDR_LEN + (size_t)h[3];
	return 1;
}

int logpage_find_param(struct log_page *pg, uint16_t code, struct log_param *p)
{
	size_t off = 0;

	while (logpage_next_param(pg, &off, p) == 1)
		if (p->code == code)
			return 0;
	memset(p, 0, sizeof(*p));
	return -ENOENT;
}

int log_param_u64(const struct log_param *p, uint64_t *v)
{
	size_t n = p->len;
	const uint8_t *q = p->val;

	*v = 0;
	if (!n)
		return -ENODATA;
	if (n > 8) {
		if (!all_zero(q, n - 8)) {
			*v = UINT64_MAX;
			return -ERANGE;
		}
		q += n - 8;
		n = 8;
	}
	*v = sg_get_unaligned_be((int)n, q);
	return 0;
}

/* Header of a typed page: -EPROTO without one or for another page code. */
static int typed_header(const uint8_t *buf, size_t len, uint8_t page, struct log_page *pg)
{
	int rc = logpage_parse(buf, len, pg);

	if (rc)
		return rc;
	if (pg->code != page)
		return -EPROTO;
	return 0;
}

/* ---- 0x00 supported pages ----------------------------------------------- */

int logpage_parse_supported(const uint8_t *buf, size_t len, struct log_supported *out)
{
	struct log_page pg;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = typed_header(buf, len, LOG_PAGE_SUPPORTED, &pg);
	if (rc)
		return rc;
	out->truncated = pg.truncated;
	/* With SPF set (subpage 0xFF) the list holds page/subpage pairs. */
	for (size_t i = 0; i < pg.len; i += pg.spf ? 2 : 1) {
		uint8_t code = buf[LOG_HDR_LEN + i] & 0x3f;

		if (pg.spf && i + 1 < pg.len && buf[LOG_HDR_LEN + i + 1] != 0)
			continue; /* a subpage: we only list the pages */
		if (log_supported_has(out, code))
			continue;
		if (out->count >= sizeof(out->pages)) {
			out->truncated = true;
			break;
		}
		out->pages[out->count++] = code;
	}
	return 0;
}

bool log_supported_has(const struct log_supported *s, uint8_t page)
{
	for (unsigned i = 0; i < s->count; i++)
		if (s->pages[i] == page)
			return true;
	return false;
}

/* ---- 0x02 / 0x03 / 0x05 error counters ---------------------------------- */

int logpage_parse_errors(const uint8_t *buf, size_t len, struct log_errors *out)
{
	struct log_page pg;
	struct log_param p;
	size_t off = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = logpage_parse(buf, len, &pg);
	if (rc)
		return rc;
	if (pg.code != LOG_PAGE_WRITE_ERRORS && pg.code != LOG_PAGE_READ_ERRORS &&
	    pg.code != LOG_PAGE_VERIFY_ERRORS)
		return -EPROTO;
	out->page = pg.code;
	while (logpage_next_param(&pg, &off, &p) == 1) {
		uint64_t v;

		if (p.code >= LOG_ERR_NCOUNTERS || out->has[p.code])
			continue;
		rc = log_param_u64(&p, &v);
		if (rc == -ENODATA)
			continue;
		if (rc == -ERANGE)
			out->overflow = true;
		out->has[p.code] = true;
		out->count[p.code] = v;
	}
	out->truncated = pg.truncated;
	return 0;
}

/* ---- 0x06 non-medium errors --------------------------------------------- */

int logpage_parse_non_medium(const uint8_t *buf, size_t len, struct log_non_medium *out)
{
	struct log_page pg;
	struct log_param p;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = typed_header(buf, len, LOG_PAGE_NON_MEDIUM, &pg);
	if (rc)
		return rc;
	if (logpage_find_param(&pg, 0x0000, &p) == 0 && log_param_u64(&p, &out->count) != -ENODATA)
		out->has_count = true;
	out->truncated = pg.truncated;
	return 0;
}

/* ---- 0x0D temperature --------------------------------------------------- */

int logpage_parse_temperature(const uint8_t *buf, size_t len, struct log_temperature *out)
{
	struct log_page pg;
	struct log_param p;
	size_t off = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = typed_header(buf, len, LOG_PAGE_TEMPERATURE, &pg);
	if (rc)
		return rc;
	/* parameter 0 temperature, 1 reference temperature: byte 1 of the
	 * value (byte 0 reserved); 0xFF means "not available" */
	while (logpage_next_param(&pg, &off, &p) == 1) {
		if (p.len < 2 || p.val[1] == 0xff)
			continue;
		if (p.code == 0x0000 && !out->has_current) {
			out->has_current = true;
			out->current_c = p.val[1];
		} else if (p.code == 0x0001 && !out->has_reference) {
			out->has_reference = true;
			out->reference_c = p.val[1];
		}
	}
	out->truncated = pg.truncated;
	return 0;
}

/* ---- 0x0E start-stop cycle counter -------------------------------------- */

int logpage_parse_start_stop(const uint8_t *buf, size_t len, struct log_start_stop *out)
{
	struct log_page pg;
	struct log_param p;
	size_t off = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = typed_header(buf, len, LOG_PAGE_START_STOP, &pg);
	if (rc)
		return rc;
	while (logpage_next_param(&pg, &off, &p) == 1) {
		switch (p.code) {
		case 0x0001: /* date of manufacture: YYYY WW in ASCII */
		case 0x0002: /* accounting date */
			if (p.len < 6)
				break;
			if (p.code == 1) {
				out->has_mfg_date = true;
				ascii_copy(p.val, 4, out->mfg_year, sizeof(out->mfg_year));
				ascii_copy(p.val + 4, 2, out->mfg_week, sizeof(out->mfg_week));
			} else {
				out->has_acct_date = true;
				ascii_copy(p.val, 4, out->acct_year, sizeof(out->acct_year));
				ascii_copy(p.val + 4, 2, out->acct_week, sizeof(out->acct_week));
			}
			break;
		case 0x0003:
			if (p.len >= 4) {
				out->has_specified_cycles = true;
				out->specified_cycles = sg_get_unaligned_be32(p.val);
			}
			break;
		case 0x0004:
			if (p.len >= 4) {
				out->has_cycles = true;
				out->cycles = sg_get_unaligned_be32(p.val);
			}
			break;
		case 0x0005:
			if (p.len >= 4) {
				out->has_specified_load_unload = true;
				out->specified_load_unload = sg_get_unaligned_be32(p.val);
			}
			break;
		case 0x0006:
			if (p.len >= 4) {
				out->has_load_unload = true;
				out->load_unload = sg_get_unaligned_be32(p.val);
			}
			break;
		default:
			break;
		}
	}
	out->truncated = pg.truncated;
	return 0;
}

/* ---- 0x10 self-test results --------------------------------------------- */

#define SELFTEST_PARAM_LEN 16

int logpage_parse_selftest(const uint8_t *buf, size_t len, struct log_selftest *out)
{
	struct log_page pg;
	struct log_param p;
	size_t off = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = typed_header(buf, len, LOG_PAGE_SELFTEST, &pg);
	if (rc)
		return rc;
	while (logpage_next_param(&pg, &off, &p) == 1) {
		struct log_selftest_entry *e;

		if (p.code < 1 || p.code > LOG_SELFTEST_ENTRIES)
			continue;
		if (p.len < SELFTEST_PARAM_LEN) {
			out->truncated = true;
			continue;
		}
		if (out->count >= LOG_SELFTEST_ENTRIES)
			break;
		e = &out->e[out->count++];
		e->param = p.code;
		e->code = p.val[0] >> 5;
		e->result = p.val[0] & 0x0f;
		e->number = p.val[1];
		e->power_on_hours = sg_get_unaligned_be16(p.val + 2);
		e->first_failure_lba = sg_get_unaligned_be64(p.val + 4);
		e->lba_valid = e->first_failure_lba != UINT64_MAX;
		e->sense_key = p.val[12] & 0x0f;
		e->asc = p.val[13];
		e->ascq = p.val[14];
		e->empty = all_zero(p.val, SELFTEST_PARAM_LEN);
	}
	out->truncated = out->truncated || pg.truncated;
	return 0;
}

const char *log_selftest_result_text(uint8_t result)
{
	switch (result) {
	case LOG_ST_RESULT_OK:
		return "completed without error";
	case LOG_ST_RESULT_ABORTED_CMD:
		return "aborted by the host (SEND DIAGNOSTIC)";
	case LOG_ST_RESULT_ABORTED_OTHER:
		return "aborted (reset or another command)";
	case LOG_ST_RESULT_UNKNOWN_ERROR:
		return "failed: unknown error";
	case LOG_ST_RESULT_FAILED:
		return "failed (segment unknown)";
	case LOG_ST_RESULT_FAILED_SEG1:
		return "failed in the first segment";
	case LOG_ST_RESULT_FAILED_SEG2:
		return "failed in the second segment";
	case LOG_ST_RESULT_FAILED_SEGN:
		return "failed in a later segment";
	case LOG_ST_RESULT_IN_PROGRESS:
		return "in progress";
	default:
		return "reserved result code";
	}
}

/* ---- 0x15 background scan results --------------------------------------- */

#define BGSCAN_STATUS_LEN 12
#define BGSCAN_MEDIUM_LEN 20

int logpage_parse_bg_scan(const uint8_t *buf, size_t len, struct log_bgscan *out)
{
	struct log_page pg;
	struct log_param p;
	size_t off = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = typed_header(buf, len, LOG_PAGE_BG_SCAN, &pg);
	if (rc)
		return rc;
	while (logpage_next_param(&pg, &off, &p) == 1) {
		if (p.code == 0x0000) {
			if (p.len < BGSCAN_STATUS_LEN) {
				out->truncated = true;
				continue;
			}
			out->has_status = true;
			out->power_on_minutes = sg_get_unaligned_be32(p.val);
			out->status = p.val[5];
			out->scans_performed = sg_get_unaligned_be16(p.val + 6);
			out->progress = sg_get_unaligned_be16(p.val + 8);
			out->medium_scans_performed = sg_get_unaligned_be16(p.val + 10);
		} else if (p.code >= 0x0001 && p.code <= 0x0800) {
			struct log_bgscan_entry *e;

			if (p.len < BGSCAN_MEDIUM_LEN) {
				out->truncated = true;
				continue;
			}
			out->total++;
			if (out->count >= LOG_BGSCAN_MAX)
				continue;
			e = &out->e[out->count++];
			e->param = p.code;
			e->power_on_minutes = sg_get_unaligned_be32(p.val);
			e->reassign_status = p.val[4] >> 4;
			e->sense_key = p.val[4] & 0x0f;
			e->asc = p.val[5];
			e->ascq = p.val[6];
			e->lba = sg_get_unaligned_be64(p.val + 12);
		}
	}
	out->truncated = out->truncated || pg.truncated;
	return 0;
}

/* ---- 0x2F informational exceptions -------------------------------------- */

int logpage_parse_ie(const uint8_t *buf, size_t len, struct log_ie *out)
{
	struct log_page pg;
	struct log_param p;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = typed_header(buf, len, LOG_PAGE_IE, &pg);
	if (rc)
		return rc;
	if (logpage_find_param(&pg, 0x0000, &p) == 0) {
		if (p.len >= 2) {
			out->has = true;
			out->asc = p.val[0];
			out->ascq = p.val[1];
		}
		if (p.len >= 3 && p.val[2] != 0xff) {
			out->has_temperature = true;
			out->temperature_c = p.val[2];
		}
	}
	out->truncated = pg.truncated;
	return 0;
}

void log_asc_text(uint8_t asc, uint8_t ascq, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	sg_get_asc_ascq_str(asc, ascq, (int)len, buf);
	/* sg_lib says "Additional sense: Failure prediction threshold exceeded" */
	if (!strncmp(buf, "Additional sense: ", 18))
		memmove(buf, buf + 18, strlen(buf + 18) + 1);
}
