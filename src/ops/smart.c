/*
 * smart.c - drive health and self-tests: the common API (smart_read,
 * selftest_*), which hands SCSI drives to smart_scsi.c, and the ATA half:
 * SMART data, thresholds, status and logs read through drive_ata(),
 * parsed by the drive layer (ata_smart.h) and handed to libatasmart as a
 * blob (the record format of sk_disk_set_blob).
 */
#include <stddef.h>

#include <atasmart.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/ata.h"
#include "shortstroke/ata_smart.h"
#include "shortstroke/devices.h"
#include "shortstroke/smart.h"
#include "smart_priv.h"

/* SMART feature register values (ACS-3 7.48) */
#define SMART_READ_DATA 0xd0
#define SMART_READ_THRESHOLDS 0xd1
#define SMART_EXEC_OFFLINE 0xd4
#define SMART_READ_LOG 0xd5
#define SMART_RETURN_STATUS 0xda

#define LOG_SUMMARY_ERROR 0x01
#define LOG_SELFTEST 0x06
#define LOG_EXT_SELFTEST 0x07

#define OFFLINE_SHORT 0x01
#define OFFLINE_EXTENDED 0x02
#define OFFLINE_CONVEYANCE 0x03
#define OFFLINE_SELECTIVE 0x04
#define SMART_WRITE_LOG 0xd6
#define LOG_SELECTIVE 0x09
#define OFFLINE_ABORT 0x7f

/* SkSmartOverall values, kept as ints in the report */
#define OVERALL_NONE -1

static void fill_entry(struct selftest_entry *e, uint8_t code, uint8_t status, uint16_t hours,
		       uint64_t lba, bool lba_all_ones);
static void attr_cb(SkDisk *sk, const SkSmartAttributeParsedData *a, void *arg);
static void key_figures(struct smart_report *r);
static const struct smart_attr *find_bad_attr(const struct smart_report *r, bool now);
static void ata_verdict(struct smart_report *r, uint64_t bad);
static int smart_cmd(struct drive *d, uint8_t feature, uint8_t lba_low, uint8_t *buf,
		     struct ss_error *err);
static int ata_read_selftest_log(struct drive *d, const struct ata_identify *id,
				 struct selftest_entry *out, size_t max, size_t *count,
				 struct ss_error *err);
static int ata_check_smart(struct drive *d, const struct drive_info *info, struct ss_error *err);
static int smart_read_ata(struct drive *d, const struct drive_info *info, struct smart_report *out,
			  struct ss_error *err);
static int ata_selftest_start(struct drive *d, const struct drive_info *info,
			      enum selftest_kind kind, struct ss_error *err);
static int ata_selftest_poll(struct drive *d, const struct drive_info *info,
			     struct selftest_status *st, struct ss_error *err);
static void nap_ms(unsigned ms);

/* ---- ATA, pure: log entries and the blob ------------------------------------ */

/* A self-test log descriptor or execution status byte as an entry. */
static void fill_entry(struct selftest_entry *e, uint8_t code, uint8_t status, uint16_t hours,
		       uint64_t lba, bool lba_all_ones)
{
	uint8_t nib = status >> 4;

	memset(e, 0, sizeof(*e));
	e->code = code;
	e->captive = code & 0x80;
	switch (code & 0x7f) {
	case OFFLINE_SHORT:
		e->kind = SELFTEST_SHORT;
		break;
	case OFFLINE_EXTENDED:
		e->kind = SELFTEST_EXTENDED;
		break;
	case OFFLINE_CONVEYANCE:
		e->kind = SELFTEST_CONVEYANCE;
		break;
	case OFFLINE_SELECTIVE:
		e->kind = SELFTEST_SELECTIVE;
		break;
	default:
		e->kind = SELFTEST_NONE;
		break;
	}
	e->status = nib;
	e->running = nib == ATA_SELFTEST_IN_PROGRESS;
	e->passed = nib == 0;
	e->aborted = nib == 1 || nib == 2;
	e->failed = nib >= 3 && nib <= 8;
	e->remaining_pct = e->running ? (status & 0x0f) * 10u : 0;
	e->power_on_hours = hours;
	e->lba_valid = e->failed && !lba_all_ones;
	e->failing_lba = e->lba_valid ? lba : 0;
	if (e->running)
		snprintf(e->result, sizeof(e->result), "in progress, %u%% remaining",
			 e->remaining_pct);
	else
		snprintf(e->result, sizeof(e->result), "%s", ata_smart_selftest_status_text(nib));
}

int smart_ata_parse_selftest_log(const uint8_t *buf, size_t len, bool ext,
				 struct selftest_entry *out, size_t max, size_t *count)
{
	struct ata_selftest_desc d[SELFTEST_LOG_MAX];
	int rc;

	rc = ata_smart_parse_selftest_log(buf, len, ext, d,
					  max < SELFTEST_LOG_MAX ? max : SELFTEST_LOG_MAX, count);
	for (size_t i = 0; i < *count; i++)
		fill_entry(&out[i], d[i].test, d[i].status, d[i].hours, d[i].lba, d[i].lba_unset);
	return rc;
}

int smart_ata_build_blob(const uint8_t *identify, const uint8_t *data, const uint8_t *thresholds,
			 int status, uint8_t *out, size_t out_max, size_t *out_len)
{
	const struct {
		const char *tag;
		const uint8_t *p;
	} recs[] = {
		{ "IDFY", identify },
		{ "SMST", NULL },
		{ "SMDT", data },
		{ "SMTH", thresholds },
	};
	size_t need = 0, off = 0;

	*out_len = 0;
	if (!identify)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		if (i == 1)
			need += status >= 0 ? 12 : 0;
		else if (recs[i].p)
			need += 8 + ATA_SMART_SECTOR;
	}
	if (need > out_max)
		return -ENOSPC;
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		if (i == 1 && status < 0)
			continue;
		if (i != 1 && !recs[i].p)
			continue;
		memcpy(out + off, recs[i].tag, 4);
		if (i == 1) {
			sg_put_unaligned_be32(4, out + off + 4);
			sg_put_unaligned_be32(status ? 1 : 0, out + off + 8);
			off += 12;
		} else {
			sg_put_unaligned_be32(ATA_SMART_SECTOR, out + off + 4);
			memcpy(out + off + 8, recs[i].p, ATA_SMART_SECTOR);
			off += 8 + ATA_SMART_SECTOR;
		}
	}
	*out_len = off;
	return 0;
}

/* ---- libatasmart ------------------------------------------------------------ */

struct attr_ctx {
	struct smart_report *r;
	size_t cap;
	bool nomem;
};

static void attr_cb(SkDisk *sk, const SkSmartAttributeParsedData *a, void *arg)
{
	struct attr_ctx *c = arg;
	struct smart_report *r = c->r;
	struct smart_attr *o;
	const char *unit;

	(void)sk;
	if (c->nomem)
		return;
	if (r->nattrs == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		struct smart_attr *n = realloc(r->attrs, cap * sizeof(*n));

		if (!n) {
			c->nomem = true;
			return;
		}
		r->attrs = n;
		c->cap = cap;
	}
	o = &r->attrs[r->nattrs++];
	memset(o, 0, sizeof(*o));
	o->id = a->id;
	snprintf(o->name, sizeof(o->name), "%s", a->name ? a->name : "");
	o->flags = a->flags;
	o->prefailure = a->prefailure;
	o->online = a->online;
	o->current = a->current_value;
	o->worst = a->worst_value;
	o->threshold = a->threshold;
	o->current_valid = a->current_value_valid;
	o->worst_valid = a->worst_value_valid;
	o->threshold_valid = a->threshold_valid;
	memcpy(o->raw, a->raw, sizeof(o->raw));
	o->pretty = a->pretty_value;
	unit = sk_smart_attribute_unit_to_string(a->pretty_unit);
	snprintf(o->pretty_unit, sizeof(o->pretty_unit), "%s", unit ? unit : "?");
	o->good_now = a->good_now;
	o->good_now_valid = a->good_now_valid;
	o->good_past = a->good_in_the_past;
	o->good_past_valid = a->good_in_the_past_valid;
	o->warn = a->warn;
}

/* Reallocated, pending, offline uncorrectable, CRC errors by the names
 * libatasmart gives the attributes (its quirk table renames some). */
static void key_figures(struct smart_report *r)
{
	static const struct {
		const char *name;
		size_t off;
	} keys[] = {
		{ "reallocated-sector-count", offsetof(struct smart_report, reallocated) },
		{ "current-pending-sector", offsetof(struct smart_report, pending) },
		{ "offline-uncorrectable", offsetof(struct smart_report, offline_uncorrectable) },
		{ "udma-crc-error-count", offsetof(struct smart_report, crc_errors) },
	};

	for (size_t i = 0; i < r->nattrs; i++) {
		const struct smart_attr *a = &r->attrs[i];

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			struct smart_num *n = (struct smart_num *)((char *)r + keys[k].off);

			if (strcmp(a->name, keys[k].name) || !strcmp(a->pretty_unit, "?"))
				continue;
			if (!n->known || (int64_t)a->pretty > n->value) {
				n->known = true;
				n->value = (int64_t)a->pretty;
			}
		}
	}
}

static const struct smart_attr *find_bad_attr(const struct smart_report *r, bool now)
{
	for (size_t i = 0; i < r->nattrs; i++) {
		const struct smart_attr *a = &r->attrs[i];

		if (!a->prefailure)
			continue;
		if (now && a->good_now_valid && !a->good_now)
			return a;
		if (!now && a->good_past_valid && !a->good_past)
			return a;
	}
	return NULL;
}

static void ata_verdict(struct smart_report *r, uint64_t bad)
{
	const struct smart_attr *a;

	switch (r->overall) {
	case SK_SMART_OVERALL_BAD_STATUS:
		smart_report_verdict(r, SMART_FAILED,
				     "SMART health self-assessment: FAILING (the drive predicts "
				     "its own failure)");
		return;
	case SK_SMART_OVERALL_BAD_SECTOR_MANY:
		/* libatasmart versions differ in when they say "many" (Debian's
		 * drops the log2 heuristic); name the attribute when one is
		 * below its threshold */
		a = find_bad_attr(r, true);
		if (a)
			smart_report_verdict(
			    r, SMART_FAILED,
			    "%" PRIu64 " bad sector%s; pre-failure attribute %s (%u) "
			    "at or below its threshold: value %u, threshold %u",
			    bad, bad == 1 ? "" : "s", a->name, a->id, a->current, a->threshold);
		else
			smart_report_verdict(r, SMART_FAILED,
					     "%" PRIu64
					     " bad sector%s (reallocated + pending): too many",
					     bad, bad == 1 ? "" : "s");
		return;
	case SK_SMART_OVERALL_GOOD:
		smart_report_verdict(r, SMART_PASSED, "%s", "");
		break;
	default:
		break;
	}
	/* the rest, also when libatasmart gave no overall (no status) */
	a = find_bad_attr(r, true);
	if (a) {
		smart_report_verdict(r, SMART_FAILED,
				     "pre-failure attribute %s (%u) at or below its threshold: "
				     "value %u, threshold %u",
				     a->name, a->id, a->current, a->threshold);
		return;
	}
	if (bad > 0)
		smart_report_count_warning(
		    r, "%" PRIu64 " bad sector%s (reallocated %" PRId64 ", pending %" PRId64 ")",
		    bad, bad == 1 ? "" : "s", r->reallocated.known ? r->reallocated.value : 0,
		    r->pending.known ? r->pending.value : 0);
	a = find_bad_attr(r, false);
	if (a)
		smart_report_verdict(r, SMART_WARNING,
				     "pre-failure attribute %s (%u) was at or below its threshold "
				     "in the past: worst %u, threshold %u",
				     a->name, a->id, a->worst, a->threshold);
	if (r->offline_uncorrectable.known && r->offline_uncorrectable.value > 0)
		smart_report_count_warning(r, "%" PRId64 " offline-uncorrectable sectors",
					   r->offline_uncorrectable.value);
	if (r->overall == OVERALL_NONE)
		smart_report_verdict(r, SMART_UNKNOWN,
				     "the drive did not return its SMART health status");
}

int smart_ata_evaluate(const uint8_t *blob, size_t blob_len, struct smart_report *out,
		       struct ss_error *err)
{
	struct attr_ctx ctx = { .r = out };
	const SkSmartParsedData *spd;
	SkSmartOverall ov;
	uint64_t v, bad = 0;
	SkDisk *sk = NULL;

	out->ata = true;
	out->overall = OVERALL_NONE;
	if (sk_disk_open(NULL, &sk) < 0)
		return ss_error_set(err, -ENOMEM, "libatasmart: out of memory");
	if (sk_disk_set_blob(sk, blob, blob_len) < 0) {
		sk_disk_free(sk);
		return ss_error_set(err, -EINVAL, "libatasmart refused the SMART data blob");
	}
	if (sk_disk_smart_parse(sk, &spd) < 0) {
		sk_disk_free(sk);
		return ss_error_set(err, -EINVAL, "libatasmart: no SMART data to parse");
	}
	if (sk_disk_smart_parse_attributes(sk, attr_cb, &ctx) < 0 || ctx.nomem) {
		sk_disk_free(sk);
		return ss_error_set(err, -ENOMEM, "out of memory reading SMART attributes");
	}
	if (sk_disk_smart_get_overall(sk, &ov) == 0)
		out->overall = (int)ov;
	if (sk_disk_smart_get_temperature(sk, &v) == 0) {
		out->temperature_c.known = true;
		out->temperature_c.value = ((int64_t)v - 273150 + 500) / 1000;
	}
	if (sk_disk_smart_get_power_on(sk, &v) == 0) {
		out->power_on_hours.known = true;
		out->power_on_hours.value = (int64_t)(v / 3600000ULL);
	}
	if (sk_disk_smart_get_bad(sk, &v) == 0)
		bad = v;
	sk_disk_free(sk);

	key_figures(out);
	ata_verdict(out, bad);
	smart_report_selftests_verdict(out);
	return 0;
}

/* ---- ATA through the transport ------------------------------------------------ */

/* A one-sector SMART command (READ DATA, THRESHOLDS, READ LOG) into buf. */
static int smart_cmd(struct drive *d, uint8_t feature, uint8_t lba_low, uint8_t *buf,
		     struct ss_error *err)
{
	struct ata_tf tf;

	memset(buf, 0, ATA_SMART_SECTOR);
	ata_tf_smart(&tf, feature, lba_low, 1);
	return drive_ata(d, &tf, false, buf, NULL, err);
}

static int ata_check_smart(struct drive *d, const struct drive_info *info, struct ss_error *err)
{
	if (!info->smart_supported)
		return ss_error_set(err, -EOPNOTSUPP, "%s: SMART is not supported by this drive",
				    drive_name(d));
	if (!info->smart_enabled)
		return ss_error_set(
		    err, -EOPNOTSUPP,
		    "%s: SMART is disabled on this drive; enable it (smartctl -s on) "
		    "and retry",
		    drive_name(d));
	return 0;
}

/* SMART READ DATA of a drive that reports SMART supported and enabled
 * (ata_check_smart passed): an abort is the drive failing the feature it
 * claims, not a drive without SMART. */
static int read_smart_data(struct drive *d, uint8_t *data, struct ss_error *err)
{
	struct ss_error e2 = { 0 };
	int rc = smart_cmd(d, SMART_READ_DATA, 0, data, &e2);

	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EIO,
				    "%s: the drive reports SMART supported and enabled (IDENTIFY) "
				    "but aborted SMART READ DATA (ATA ABRT): its SMART data cannot "
				    "be read",
				    drive_name(d));
	if (rc && err)
		*err = e2;
	return rc;
}

/* Self-test log: SMART log 0x06, else GPL log 0x07 (first page). */
static int ata_read_selftest_log(struct drive *d, const struct ata_identify *id,
				 struct selftest_entry *out, size_t max, size_t *count,
				 struct ss_error *err)
{
	uint8_t buf[ATA_SMART_SECTOR];
	struct ss_error e2 = { 0 };
	struct ata_tf tf;
	int rc;

	*count = 0;
	rc = smart_cmd(d, SMART_READ_LOG, LOG_SELFTEST, buf, &e2);
	if (rc == 0)
		return smart_ata_parse_selftest_log(buf, sizeof(buf), false, out, max, count);
	if (id && id->gpl) {
		memset(buf, 0, sizeof(buf));
		ata_tf_read_log_ext(&tf, LOG_EXT_SELFTEST, 0, 1);
		if (drive_ata(d, &tf, false, buf, NULL, NULL) == 0)
			return smart_ata_parse_selftest_log(buf, sizeof(buf), true, out, max,
							    count);
	}
	return ss_error_set(err, rc, "%s: cannot read the self-test log: %s", drive_name(d),
			    e2.msg);
}

/* What skdump --save reads: IDENTIFY; with SMART, READ DATA, THRESHOLDS
 * (have_thr when the drive gives them) and RETURN STATUS (status 1 good,
 * 0 threshold exceeded, -1 no answer). */
struct ata_blob_parts {
	uint8_t ident[ATA_SMART_SECTOR], data[ATA_SMART_SECTOR], thr[ATA_SMART_SECTOR];
	bool have_data, have_thr;
	int status;
};

static int ata_read_blob_parts(struct drive *d, bool smart, struct ata_blob_parts *p,
			       struct ss_error *err)
{
	struct ata_regs regs;
	struct ata_tf tf;
	int rc;

	p->have_data = p->have_thr = false;
	p->status = -1;
	ata_tf_identify(&tf);
	rc = drive_ata(d, &tf, false, p->ident, NULL, err);
	if (rc || !smart)
		return rc;
	rc = read_smart_data(d, p->data, err);
	if (rc)
		return rc;
	p->have_data = true;
	p->have_thr = smart_cmd(d, SMART_READ_THRESHOLDS, 0, p->thr, NULL) == 0;
	ata_tf_smart(&tf, SMART_RETURN_STATUS, 0, 0);
	if (drive_ata(d, &tf, true, NULL, &regs, NULL) == 0) {
		rc = ata_smart_status_from_regs(&regs);
		p->status = rc >= 0 ? rc : -1;
	}
	return 0;
}

int smart_ata_read_blob(struct drive *d, const struct drive_info *info, uint8_t *blob, size_t max,
			size_t *len, struct ss_error *err)
{
	struct ata_blob_parts p;
	int rc;

	*len = 0;
	if (!info->ata)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: not an ATA drive: it has no IDENTIFY + SMART blob",
				    drive_name(d));
	rc = ata_read_blob_parts(d, info->smart_supported && info->smart_enabled, &p, err);
	if (rc)
		return rc;
	rc = smart_ata_build_blob(p.ident, p.have_data ? p.data : NULL, p.have_thr ? p.thr : NULL,
				  p.status, blob, max, len);
	if (rc)
		return ss_error_set(err, rc, "%s: cannot build the SMART blob", drive_name(d));
	return 0;
}

static int smart_read_ata(struct drive *d, const struct drive_info *info, struct smart_report *out,
			  struct ss_error *err)
{
	struct ata_blob_parts p;
	uint8_t blob[SMART_BLOB_MAX], log[ATA_SMART_SECTOR];
	const struct ata_identify *id = drive_ata_identify(d);
	const char *name = drive_name(d);
	size_t blen;
	int rc;

	rc = ata_check_smart(d, info, err);
	if (rc)
		return rc;
	rc = ata_read_blob_parts(d, true, &p, err);
	if (rc)
		return rc;
	ata_smart_parse_data(p.data, sizeof(p.data), &out->data);
	out->ata_status = p.status;

	if (out->data.selftest_supported || (id && id->smart_selftest))
		out->selftest_log_read = ata_read_selftest_log(d, id, out->selftests,
							       SELFTEST_LOG_MAX, &out->nselftests,
							       NULL) == 0;
	if (out->data.errlog_supported &&
	    smart_cmd(d, SMART_READ_LOG, LOG_SUMMARY_ERROR, log, NULL) == 0)
		out->errlog_read = ata_smart_parse_error_log(log, sizeof(log), &out->errlog) == 0;

	rc = smart_ata_build_blob(p.ident, p.data, p.have_thr ? p.thr : NULL, p.status, blob,
				  sizeof(blob), &blen);
	if (rc)
		return ss_error_set(err, rc, "%s: cannot build the SMART blob", name);
	rc = smart_ata_evaluate(blob, blen, out, err);
	if (rc)
		ss_error_subject(err, name);
	return rc;
}

int smart_read(struct drive *d, const struct drive_info *info, struct smart_report *out,
	       struct ss_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->ata_status = -1;
	out->overall = OVERALL_NONE;
	if (info->ata)
		rc = smart_read_ata(d, info, out, err);
	else if (info->tran == TRAN_NVME)
		rc = smart_nvme_read(d, info, out, err);
	else
		rc = smart_scsi_read(d, info, out, err);
	if (rc)
		smart_report_fini(out);
	return rc;
}

/* ---- self-tests: ATA half ------------------------------------------------------ */

/* Every kind refused for one reason. */
static void caps_none(struct selftest_caps *c, const char *why)
{
	for (unsigned k = SELFTEST_SHORT; k <= SELFTEST_CONVEYANCE; k++) {
		c->has[k] = false;
		snprintf(c->why_not[k], sizeof(c->why_not[k]), "%s", why);
	}
}

/* The self-tests the SMART data says the drive has; sd gets the data. */
static int ata_selftest_caps(struct drive *d, const struct drive_info *info,
			     struct ata_smart_data *sd, struct selftest_caps *c,
			     struct ss_error *err)
{
	const char *name = drive_name(d);
	uint8_t data[ATA_SMART_SECTOR];
	struct ss_error why = { 0 };
	int rc;

	memset(c, 0, sizeof(*c));
	memset(sd, 0, sizeof(*sd));
	if (ata_check_smart(d, info, &why)) {
		caps_none(c, why.msg);
		return 0;
	}
	rc = read_smart_data(d, data, err);
	if (rc)
		return rc;
	ata_smart_parse_data(data, sizeof(data), sd);
	if (!sd->selftest_supported) {
		ss_error_set(&why, -EOPNOTSUPP, "%s: the drive has no SMART self-tests", name);
		caps_none(c, why.msg);
		return 0;
	}
	c->has[SELFTEST_SHORT] = c->has[SELFTEST_EXTENDED] = true;
	c->minutes[SELFTEST_SHORT] = sd->short_minutes;
	c->minutes[SELFTEST_EXTENDED] = sd->extended_minutes;
	c->has[SELFTEST_CONVEYANCE] = sd->conveyance_supported;
	if (sd->conveyance_supported)
		c->minutes[SELFTEST_CONVEYANCE] = sd->conveyance_minutes;
	else
		snprintf(c->why_not[SELFTEST_CONVEYANCE], sizeof(c->why_not[0]),
			 "%s: the drive has no conveyance self-test", name);
	return 0;
}

int selftest_caps(struct drive *d, const struct drive_info *info, struct selftest_caps *out,
		  struct ss_error *err)
{
	struct ata_smart_data sd;

	if (info->ata)
		return ata_selftest_caps(d, info, &sd, out, err);
	if (info->tran == TRAN_NVME)
		return smart_nvme_selftest_caps(info, drive_name(d), out);
	memset(out, 0, sizeof(*out));
	out->has[SELFTEST_SHORT] = out->has[SELFTEST_EXTENDED] = true;
	snprintf(out->why_not[SELFTEST_CONVEYANCE], sizeof(out->why_not[0]),
		 "%s: SCSI drives have no conveyance self-test (short or extended only)",
		 drive_name(d));
	return 0;
}

static int ata_selftest_start(struct drive *d, const struct drive_info *info,
			      enum selftest_kind kind, struct ss_error *err)
{
	const char *name = drive_name(d);
	struct selftest_caps caps;
	struct ata_smart_data sd;
	struct ata_tf tf;
	uint8_t sub;
	int rc;

	rc = ata_selftest_caps(d, info, &sd, &caps, err);
	if (rc)
		return rc;
	if (kind >= SELFTEST_SHORT && kind <= SELFTEST_CONVEYANCE && !caps.has[kind])
		return ss_error_set(err, -EOPNOTSUPP, "%s", caps.why_not[kind]);
	if ((sd.selftest_byte >> 4) == ATA_SELFTEST_IN_PROGRESS)
		return ss_error_set(err, -EBUSY,
				    "%s: a self-test is already running (%u%% remaining); abort "
				    "it first",
				    name, (sd.selftest_byte & 0x0f) * 10u);
	switch (kind) {
	case SELFTEST_SHORT:
		sub = OFFLINE_SHORT;
		break;
	case SELFTEST_EXTENDED:
		sub = OFFLINE_EXTENDED;
		break;
	case SELFTEST_CONVEYANCE:
		sub = OFFLINE_CONVEYANCE;
		break;
	default:
		return ss_error_set(err, -EINVAL, "%s: unknown self-test kind", name);
	}
	ata_tf_smart(&tf, SMART_EXEC_OFFLINE, sub, 0);
	rc = drive_ata(d, &tf, false, NULL, NULL, err);
	if (rc == -EOPNOTSUPP) /* its SMART data says it has the test */
		return ss_error_set(err, -EIO,
				    "%s: the drive reports the %s self-test (SMART data) but "
				    "aborted SMART EXECUTE OFF-LINE IMMEDIATE for it (ATA ABRT)",
				    name, selftest_kind_name(kind));
	return rc;
}

static int ata_selftest_poll(struct drive *d, const struct drive_info *info,
			     struct selftest_status *st, struct ss_error *err)
{
	uint8_t data[ATA_SMART_SECTOR];
	struct ata_smart_data sd;
	struct selftest_entry log[SELFTEST_LOG_MAX];
	size_t n = 0;
	unsigned minutes = 0;
	int rc;

	rc = ata_check_smart(d, info, err);
	if (rc)
		return rc;
	rc = read_smart_data(d, data, err);
	if (rc)
		return rc;
	ata_smart_parse_data(data, sizeof(data), &sd);
	switch (st->kind) {
	case SELFTEST_SHORT:
		minutes = sd.short_minutes;
		break;
	case SELFTEST_EXTENDED:
		minutes = sd.extended_minutes;
		break;
	case SELFTEST_CONVEYANCE:
		minutes = sd.conveyance_minutes;
		break;
	default:
		break;
	}
	st->expected_s = minutes * 60u;
	st->running = (sd.selftest_byte >> 4) == ATA_SELFTEST_IN_PROGRESS;
	if (st->running) {
		unsigned rem = (sd.selftest_byte & 0x0f) * 10u;

		if (rem > 100)
			rem = 100;
		st->fraction = (100 - rem) / 100.0;
		st->fraction_valid = true;
		st->eta_s = st->expected_s ? st->expected_s * (rem / 100.0) : -1;
		snprintf(st->text, sizeof(st->text), "%s%sself-test: %u%% done",
			 st->kind ? selftest_kind_name(st->kind) : "", st->kind ? " " : "",
			 100 - rem);
		return 0;
	}
	st->fraction = 1.0;
	st->fraction_valid = true;
	st->eta_s = 0;
	/* the result: the log's newest entry has the LBA; the status byte
	 * says it too when the log cannot be read */
	if (ata_read_selftest_log(d, drive_ata_identify(d), log, SELFTEST_LOG_MAX, &n, NULL) == 0 &&
	    n > 0) {
		st->last = log[0];
	} else {
		fill_entry(&st->last, 0, sd.selftest_byte, 0, 0, true);
		st->last.kind = st->kind;
	}
	st->has_last = true;
	snprintf(st->text, sizeof(st->text), "last self-test: %s", st->last.result);
	return 0;
}

int selftest_start(struct drive *d, const struct drive_info *info, enum selftest_kind kind,
		   struct ss_error *err)
{
	if (kind != SELFTEST_SHORT && kind != SELFTEST_EXTENDED && kind != SELFTEST_CONVEYANCE)
		return ss_error_set(err, -EINVAL, "%s: unknown self-test kind", drive_name(d));
	if (info->ata)
		return ata_selftest_start(d, info, kind, err);
	if (info->tran == TRAN_NVME) {
		struct selftest_caps caps;

		smart_nvme_selftest_caps(info, drive_name(d), &caps);
		if (!caps.has[kind])
			return ss_error_set(err, -EOPNOTSUPP, "%s", caps.why_not[kind]);
		return smart_nvme_selftest_start(d, kind, err);
	}
	return smart_scsi_selftest_start(d, kind, err);
}

int selftest_start_span(struct drive *d, const struct drive_info *info, uint64_t first,
			uint64_t last, enum selftest_kind *kind, struct ss_error *err)
{
	const char *name = drive_name(d);
	uint8_t buf[ATA_SMART_SECTOR];
	struct selftest_caps caps;
	struct ata_smart_data sd;
	struct ata_tf tf;
	int rc;

	if (first > last || (info->capacity_blocks && last >= info->capacity_blocks))
		return ss_error_set(err, -EINVAL,
				    "%s: the span %" PRIu64 "-%" PRIu64
				    " is not within the disk's %" PRIu64 " blocks",
				    name, first, last, info->capacity_blocks);
	if (info->tran == TRAN_NVME) {
		/* nor has NVMe: the extended one, whole namespace */
		*kind = SELFTEST_EXTENDED;
		return selftest_start(d, info, SELFTEST_EXTENDED, err);
	}
	if (!info->ata) {
		/* SCSI has no selective self-test: the extended one, whole disk */
		*kind = SELFTEST_EXTENDED;
		return smart_scsi_selftest_start(d, SELFTEST_EXTENDED, err);
	}
	*kind = SELFTEST_SELECTIVE;
	rc = ata_selftest_caps(d, info, &sd, &caps, err);
	if (rc)
		return rc;
	if (!caps.has[SELFTEST_SHORT])
		return ss_error_set(err, -EOPNOTSUPP, "%s", caps.why_not[SELFTEST_SHORT]);
	if (!(sd.offline_caps & 0x40))
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive has no selective self-test (SMART data byte "
				    "367 bit 6)",
				    name);
	if ((sd.selftest_byte >> 4) == ATA_SELFTEST_IN_PROGRESS)
		return ss_error_set(err, -EBUSY,
				    "%s: a self-test is already running (%u%% remaining); abort "
				    "it first",
				    name, (sd.selftest_byte & 0x0f) * 10u);
	ata_smart_build_selective_log(buf, &first, &last, 1);
	ata_tf_smart(&tf, SMART_WRITE_LOG, LOG_SELECTIVE, 1);
	rc = drive_ata(d, &tf, false, buf, NULL, err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, rc,
				    "%s: the drive refused the selective self-test log (SMART "
				    "WRITE LOG 09h)",
				    name);
	if (rc)
		return rc;
	ata_tf_smart(&tf, SMART_EXEC_OFFLINE, OFFLINE_SELECTIVE, 0);
	rc = drive_ata(d, &tf, false, NULL, NULL, err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EIO,
				    "%s: the drive reports a selective self-test but aborted "
				    "SMART EXECUTE OFF-LINE IMMEDIATE for it (ATA ABRT)",
				    name);
	return rc;
}

int selftest_abort(struct drive *d, const struct drive_info *info, struct ss_error *err)
{
	struct ata_tf tf;
	int rc;

	if (info->tran == TRAN_NVME)
		return smart_nvme_selftest_abort(d, err);
	if (!info->ata)
		return smart_scsi_selftest_abort(d, err);
	rc = ata_check_smart(d, info, err);
	if (rc)
		return rc;
	ata_tf_smart(&tf, SMART_EXEC_OFFLINE, OFFLINE_ABORT, 0);
	rc = drive_ata(d, &tf, false, NULL, NULL, err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, rc, "%s: the drive refused to abort the self-test",
				    drive_name(d));
	return rc;
}

int selftest_poll(struct drive *d, const struct drive_info *info, struct selftest_status *st,
		  struct ss_error *err)
{
	enum selftest_kind kind = st->kind;

	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->eta_s = -1;
	if (info->ata)
		return ata_selftest_poll(d, info, st, err);
	if (info->tran == TRAN_NVME)
		return smart_nvme_selftest_poll(d, info, st, err);
	return smart_scsi_selftest_poll(d, st, err);
}

int selftest_log(struct drive *d, const struct drive_info *info, struct selftest_entry *out,
		 size_t max, size_t *count, struct ss_error *err)
{
	int rc;

	*count = 0;
	if (info->tran == TRAN_NVME)
		return smart_nvme_selftest_log(d, out, max, count, err);
	if (!info->ata)
		return smart_scsi_selftest_log(d, out, max, count, err);
	rc = ata_check_smart(d, info, err);
	if (rc)
		return rc;
	return ata_read_selftest_log(d, drive_ata_identify(d), out, max, count, err);
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int selftest_wait(struct drive *d, const struct drive_info *info, enum selftest_kind kind,
		  const struct progress_sink *sink, struct ss_error *err)
{
	struct selftest_status st;
	unsigned delay = 50;
	char phase[128];
	int rc;

	for (;;) {
		if (progress_cancelled(sink))
			return ss_error_set(
			    err, -ECANCELED,
			    "%s: stopped watching; the self-test goes on inside the "
			    "drive (selftest --abort stops it)",
			    drive_name(d));
		memset(&st, 0, sizeof(st));
		st.kind = kind;
		rc = selftest_poll(d, info, &st, err);
		if (rc)
			return rc;
		if (!st.running)
			break;
		snprintf(phase, sizeof(phase), "%s", st.text);
		progress_report(sink, st.fraction_valid ? st.fraction : 0, phase, st.eta_s);
		nap_ms(delay);
		if (delay < 2000)
			delay *= 2;
	}
	progress_report(sink, 1.0, st.text, 0);
	if (!st.has_last || st.last.passed)
		return 0;
	if (st.last.aborted)
		return ss_error_set(err, -ECANCELED, "%s: the self-test was %s", drive_name(d),
				    st.last.result);
	if (st.last.failed) {
		if (st.last.lba_valid)
			return ss_error_set(
			    err, -EIO,
			    "%s: the %s self-test ended in error: %s, first failing LBA "
			    "%" PRIu64,
			    drive_name(d), selftest_kind_name(st.last.kind), st.last.result,
			    st.last.failing_lba);
		return ss_error_set(err, -EIO, "%s: the %s self-test ended in error: %s",
				    drive_name(d), selftest_kind_name(st.last.kind),
				    st.last.result);
	}
	return 0;
}

int smart_read_named(struct ss_ctx *ctx, const char *spec, struct smart_report *out,
		     struct ss_error *err)
{
	struct dev_entry e;
	struct drive *d = NULL;
	int rc = device_open(ctx, spec, false, &d, &e, err);

	if (!rc)
		rc = smart_read(d, &e.info, out, err);
	drive_free(d);
	return rc;
}
