/*
 * test_smart.c - SMART: the libatasmart blob (its bytes, then parsed by
 * libatasmart), the verdicts of a good disk and of failing ones, the ATA
 * self-test logs as entries (the byte parsers are test_ata_smart.c's), the
 * SCSI verdict from log pages, and the operations over loopback drives: a
 * SATA disk behind SAT answering SMART commands, and a SAS disk answering
 * LOG SENSE and SEND DIAGNOSTIC. Answers are written from ACS-3, SAT-3,
 * SPC-4 and SBC-3.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/sat.h"
#include "shortstroke/scsi.h"
#include "shortstroke/smart.h"

#include "fixture.h"

/* ---- ATA structures, built from the spec ------------------------------------- */

static void checksum(uint8_t *s)
{
	uint8_t sum = 0;

	for (int i = 0; i < 511; i++)
		sum = (uint8_t)(sum + s[i]);
	s[511] = (uint8_t)(0x100 - sum);
}

/* IDENTIFY DEVICE: model "TEST DISK 1000" (words 27-46, byte-swapped),
 * SMART supported (word 82 bit 0), enabled (word 85 bit 0), self-test
 * (word 84 bit 1) and GPL (word 84 bit 5). */
static void make_identify(uint8_t *id)
{
	const char *model = "TEST DISK 1000                          ";

	memset(id, 0, 512);
	for (int i = 0; i < 40; i += 2) {
		id[54 + i] = (uint8_t)model[i + 1];
		id[54 + i + 1] = (uint8_t)model[i];
	}
	id[164] = 0x01;
	id[168] = 0x22;
	id[170] = 0x01;
}

struct attr_def {
	uint8_t id;
	uint16_t flags;
	uint8_t cur, worst;
	uint64_t raw;
	uint8_t thr;
};

static const struct attr_def good_attrs[] = {
	{ 1, 0x000f, 100, 100, 0, 6 },	 /* raw read error rate */
	{ 5, 0x0033, 100, 100, 0, 36 },	 /* reallocated sectors */
	{ 9, 0x0032, 99, 99, 12345, 0 }, /* power-on hours */
	{ 194, 0x0022, 35, 45, 35, 0 },	 /* temperature */
	{ 197, 0x0032, 100, 100, 0, 0 }, /* pending */
	{ 198, 0x0030, 100, 100, 0, 0 }, /* offline uncorrectable */
	{ 199, 0x003e, 200, 200, 2, 0 }, /* UDMA CRC errors */
};
#define NATTRS (sizeof(good_attrs) / sizeof(good_attrs[0]))

/* SMART READ DATA and READ THRESHOLDS (ACS-3 / ATA8 tables) */
static void make_smart(uint8_t *data, uint8_t *thr, const struct attr_def *a, size_t n,
		       uint8_t st_byte)
{
	memset(data, 0, 512);
	memset(thr, 0, 512);
	data[0] = 0x10;
	thr[0] = 0x10;
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = data + 2 + 12 * i, *t = thr + 2 + 12 * i;

		p[0] = a[i].id;
		p[1] = (uint8_t)a[i].flags;
		p[2] = (uint8_t)(a[i].flags >> 8);
		p[3] = a[i].cur;
		p[4] = a[i].worst;
		for (int b = 0; b < 6; b++)
			p[5 + b] = (uint8_t)(a[i].raw >> (8 * b));
		t[0] = a[i].id;
		t[1] = a[i].thr;
	}
	fixture_smart_fields(data, st_byte);
	checksum(data);
	checksum(thr);
}

static int eval(const struct attr_def *a, size_t n, int status, struct smart_report *r)
{
	uint8_t id[512], data[512], thr[512], blob[SMART_BLOB_MAX];
	struct ss_error err = { 0 };
	size_t len;

	make_identify(id);
	make_smart(data, thr, a, n, 0x00);
	assert_int_equal(smart_ata_build_blob(id, data, thr, status, blob, sizeof(blob), &len), 0);
	memset(r, 0, sizeof(*r));
	return smart_ata_evaluate(blob, len, r, &err);
}

static const struct smart_attr *find_attr(const struct smart_report *r, uint8_t id)
{
	for (size_t i = 0; i < r->nattrs; i++)
		if (r->attrs[i].id == id)
			return &r->attrs[i];
	return NULL;
}

/* ---- blob ------------------------------------------------------------------- */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_blob_bytes(void **state)
{
	uint8_t id[512], data[512], thr[512], blob[SMART_BLOB_MAX];
	size_t len;

	make_identify(id);
	make_smart(data, thr, good_attrs, NATTRS, 0);
	assert_int_equal(smart_ata_build_blob(id, data, thr, 1, blob, sizeof(blob), &len), 0);
	assert_int_equal(len, 3 * (8 + 512) + 12);
	/* IDFY, length 512 big-endian, the IDENTIFY sector */
	assert_memory_equal(blob, "IDFY", 4);
	assert_int_equal(be32(blob + 4), 512);
	assert_memory_equal(blob + 8, id, 512);
	/* SMST, length 4, 1 = good */
	assert_memory_equal(blob + 520, "SMST", 4);
	assert_int_equal(be32(blob + 524), 4);
	assert_int_equal(be32(blob + 528), 1);
	assert_memory_equal(blob + 532, "SMDT", 4);
	assert_int_equal(be32(blob + 536), 512);
	assert_memory_equal(blob + 540, data, 512);
	assert_memory_equal(blob + 1052, "SMTH", 4);
	assert_int_equal(be32(blob + 1056), 512);
	assert_memory_equal(blob + 1060, thr, 512);

	/* status bad: 0; no status: no record; no thresholds */
	assert_int_equal(smart_ata_build_blob(id, data, thr, 0, blob, sizeof(blob), &len), 0);
	assert_int_equal(be32(blob + 528), 0);
	assert_int_equal(smart_ata_build_blob(id, data, NULL, -1, blob, sizeof(blob), &len), 0);
	assert_int_equal(len, 2 * (8 + 512));
	assert_memory_equal(blob + 520, "SMDT", 4);
	/* too small, no identify */
	assert_int_equal(smart_ata_build_blob(id, data, thr, 1, blob, 1000, &len), -ENOSPC);
	assert_int_equal(smart_ata_build_blob(NULL, data, thr, 1, blob, sizeof(blob), &len),
			 -EINVAL);
}

static void test_good_disk(void **state)
{
	struct smart_report r;
	const struct smart_attr *a;
	char txt[32];

	assert_int_equal(eval(good_attrs, NATTRS, 1, &r), 0);
	assert_int_equal(r.verdict, SMART_PASSED);
	assert_string_equal(r.reason, "");
	assert_int_equal(r.nattrs, NATTRS);
	assert_true(r.temperature_c.known);
	assert_int_equal(r.temperature_c.value, 35);
	assert_true(r.power_on_hours.known);
	assert_int_equal(r.power_on_hours.value, 12345);
	assert_true(r.reallocated.known && r.reallocated.value == 0);
	assert_true(r.pending.known && r.pending.value == 0);
	assert_true(r.offline_uncorrectable.known && r.offline_uncorrectable.value == 0);
	assert_true(r.crc_errors.known && r.crc_errors.value == 2);

	a = find_attr(&r, 5);
	assert_non_null(a);
	assert_string_equal(a->name, "reallocated-sector-count");
	assert_true(a->prefailure);
	assert_int_equal(a->current, 100);
	assert_int_equal(a->worst, 100);
	assert_true(a->threshold_valid);
	assert_int_equal(a->threshold, 36);
	assert_true(a->good_now_valid && a->good_now);
	assert_string_equal(a->pretty_unit, "sectors");
	a = find_attr(&r, 194);
	assert_non_null(a);
	assert_string_equal(a->pretty_unit, "mK");
	smart_attr_pretty(a, txt, sizeof(txt));
	assert_string_equal(txt, "35 C");
	a = find_attr(&r, 9);
	smart_attr_pretty(a, txt, sizeof(txt));
	assert_string_equal(txt, "12345.0 h");
	smart_report_fini(&r);
}

static void test_reallocated_over_threshold(void **state)
{
	struct attr_def a[NATTRS];
	struct smart_report r;

	memcpy(a, good_attrs, sizeof(a));
	a[1].cur = 30; /* reallocated sectors: normalised 30 <= threshold 36 */
	a[1].worst = 30;
	a[1].raw = 500;
	assert_int_equal(eval(a, NATTRS, 1, &r), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_non_null(strstr(r.reason, "reallocated-sector-count"));
	assert_non_null(strstr(r.reason, "threshold 36"));
	assert_true(r.reallocated.known && r.reallocated.value == 500);
	smart_report_fini(&r);
}

static void test_some_reallocated(void **state)
{
	struct attr_def a[NATTRS];
	struct smart_report r;

	memcpy(a, good_attrs, sizeof(a));
	a[1].raw = 8; /* 8 reallocated, still far above threshold */
	a[4].raw = 2; /* 2 pending */
	assert_int_equal(eval(a, NATTRS, 1, &r), 0);
	assert_int_equal(r.verdict, SMART_WARNING);
	assert_non_null(strstr(r.reason, "10 bad sectors"));
	assert_int_equal(r.pending.value, 2);
	smart_report_fini(&r);
}

static void test_status_failing_and_unknown(void **state)
{
	struct attr_def a[NATTRS];
	struct smart_report r;

	assert_int_equal(eval(good_attrs, NATTRS, 0, &r), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_non_null(strstr(r.reason, "FAILING"));
	smart_report_fini(&r);
	/* no RETURN STATUS: never PASSED on attributes alone */
	assert_int_equal(eval(good_attrs, NATTRS, -1, &r), 0);
	assert_int_equal(r.verdict, SMART_UNKNOWN);
	assert_non_null(strstr(r.reason, "health status"));
	smart_report_fini(&r);
	/* ... but a bad attribute still fails it */
	memcpy(a, good_attrs, sizeof(a));
	a[0].cur = 5;
	assert_int_equal(eval(a, NATTRS, -1, &r), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_non_null(strstr(r.reason, "raw-read-error-rate"));
	smart_report_fini(&r);
	/* offline uncorrectable sectors warn */
	memcpy(a, good_attrs, sizeof(a));
	a[5].raw = 3;
	assert_int_equal(eval(a, NATTRS, 1, &r), 0);
	assert_int_equal(r.verdict, SMART_WARNING);
	assert_non_null(strstr(r.reason, "3 offline-uncorrectable"));
	smart_report_fini(&r);
}

static void test_blob_refused(void **state)
{
	uint8_t junk[16] = "IDFY";
	struct smart_report r;
	struct ss_error err = { 0 };

	memset(&r, 0, sizeof(r));
	assert_int_equal(smart_ata_evaluate(junk, sizeof(junk), &r, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "libatasmart"));
}

/* ---- ATA parsers ------------------------------------------------------------ */

/* Self-test log (0x06): two descriptors, index 2 -> slot 1 newest */
static void make_selftest_log(uint8_t *log)
{
	memset(log, 0, 512);
	log[0] = 0x01;
	/* slot 0: short off-line (01h), completed (00h), 256 h */
	log[2 + 0] = 0x01;
	log[2 + 1] = 0x00;
	log[2 + 2] = 0x00;
	log[2 + 3] = 0x01;
	log[2 + 5] = 0xff;
	log[2 + 6] = 0xff;
	log[2 + 7] = 0xff;
	log[2 + 8] = 0xff;
	/* slot 1: extended off-line (02h), read failure (7xh), 261 h, LBA 0xabcdef */
	log[26 + 0] = 0x02;
	log[26 + 1] = 0x73;
	log[26 + 2] = 0x05;
	log[26 + 3] = 0x01;
	log[26 + 5] = 0xef;
	log[26 + 6] = 0xcd;
	log[26 + 7] = 0xab;
	log[26 + 8] = 0x00;
	log[508] = 2;
	checksum(log);
}

static void test_selftest_log(void **state)
{
	uint8_t log[512];
	struct selftest_entry e[SELFTEST_LOG_MAX];
	size_t n;

	make_selftest_log(log);
	assert_int_equal(smart_ata_parse_selftest_log(log, sizeof(log), false, e, 21, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(e[0].kind, SELFTEST_EXTENDED);
	assert_true(e[0].failed);
	assert_int_equal(e[0].status, 7);
	assert_true(e[0].lba_valid);
	assert_true(e[0].failing_lba == 0xabcdef);
	assert_int_equal(e[0].power_on_hours, 0x105);
	assert_string_equal(e[0].result, "the read element failed");
	assert_int_equal(e[1].kind, SELFTEST_SHORT);
	assert_true(e[1].passed);
	assert_false(e[1].lba_valid);
	/* max 1, truncated buffer, empty log */
	assert_int_equal(smart_ata_parse_selftest_log(log, sizeof(log), false, e, 1, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(smart_ata_parse_selftest_log(log, 300, false, e, 21, &n), -EPROTO);
	log[508] = 0;
	assert_int_equal(smart_ata_parse_selftest_log(log, sizeof(log), false, e, 21, &n), 0);
	assert_int_equal(n, 0);
	/* an index past the end is clamped, not followed */
	log[508] = 200;
	assert_int_equal(smart_ata_parse_selftest_log(log, sizeof(log), false, e, 21, &n), 0);
	assert_int_equal(n, 2);
}

static void test_ext_selftest_log(void **state)
{
	uint8_t log[512];
	struct selftest_entry e[SELFTEST_LOG_MAX];
	size_t n;

	/* GPL log 0x07: index (2-3) = 1, one descriptor of 26 bytes from 4:
	 * conveyance captive (83h), servo failure (6xh), 48-bit LBA */
	memset(log, 0, sizeof(log));
	log[0] = 0x01;
	log[2] = 0x01;
	log[4 + 0] = 0x83;
	log[4 + 1] = 0x60;
	log[4 + 2] = 0x10;
	log[4 + 5] = 0x01;
	log[4 + 6] = 0x02;
	log[4 + 7] = 0x03;
	log[4 + 8] = 0x04;
	log[4 + 9] = 0x05;
	log[4 + 10] = 0x06;
	assert_int_equal(smart_ata_parse_selftest_log(log, sizeof(log), true, e, 21, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(e[0].kind, SELFTEST_CONVEYANCE);
	assert_true(e[0].captive);
	assert_true(e[0].failed);
	assert_true(e[0].failing_lba == 0x060504030201ULL);
	assert_int_equal(e[0].power_on_hours, 0x10);
}

static void test_selftest_in_verdict(void **state)
{
	uint8_t id[512], data[512], thr[512], blob[SMART_BLOB_MAX], log[512];
	struct smart_report r;
	size_t len;

	make_identify(id);
	make_smart(data, thr, good_attrs, NATTRS, 0x00);
	make_selftest_log(log);
	smart_ata_build_blob(id, data, thr, 1, blob, sizeof(blob), &len);
	memset(&r, 0, sizeof(r));
	assert_int_equal(
	    smart_ata_parse_selftest_log(log, sizeof(log), false, r.selftests, 21, &r.nselftests),
	    0);
	assert_int_equal(smart_ata_evaluate(blob, len, &r, NULL), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_non_null(strstr(r.reason, "last self-test (extended) ended in error"));
	assert_non_null(strstr(r.reason, "LBA 11259375"));
	smart_report_fini(&r);
}

/* ---- SCSI verdict --------------------------------------------------------------- */

static const uint8_t ie_fail[] = { 0x2f, 0, 0, 8, 0, 0, 3, 4, 0x5d, 0x00, 0x26, 0 };
static const uint8_t ie_ok[] = { 0x2f, 0, 0, 8, 0, 0, 3, 4, 0x00, 0x00, 0x26, 0 };
static const uint8_t rd_err[] = { 0x03, 0, 0, 8, 0, 6, 2, 4, 0, 0, 0, 3 };
static const uint8_t temp_pg[] = { 0x0d, 0, 0, 6, 0, 0, 3, 2, 0, 31 };
static const uint8_t st_pg[] = {
	0x10,
	0,
	0,
	0x28,
	/* newest: background extended, failed in segment 2, LBA 0x1000, 03/11/00 */
	0,
	1,
	3,
	0x10,
	0x46,
	2,
	0,
	100,
	0,
	0,
	0,
	0,
	0,
	0,
	0x10,
	0,
	3,
	0x11,
	0,
	0,
	/* older: background short, ok */
	0,
	2,
	3,
	0x10,
	0x20,
	1,
	0,
	90,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0,
	0,
	0,
	0,
};

static void test_scsi_verdict(void **state)
{
	struct smart_report r;

	/* nothing readable: UNKNOWN, figures unknown, pages not supported */
	memset(&r, 0, sizeof(r));
	smart_scsi_evaluate(&r);
	assert_int_equal(r.verdict, SMART_UNKNOWN);
	assert_false(r.temperature_c.known);
	assert_string_equal(smart_page_state_name(r.scsi.ie_st), "not supported");

	/* healthy */
	memset(&r, 0, sizeof(r));
	r.scsi.ie_st = SMART_PAGE_OK;
	logpage_parse_ie(ie_ok, sizeof(ie_ok), &r.scsi.ie);
	r.scsi.temp_st = SMART_PAGE_OK;
	logpage_parse_temperature(temp_pg, sizeof(temp_pg), &r.scsi.temp);
	smart_scsi_evaluate(&r);
	assert_int_equal(r.verdict, SMART_PASSED);
	assert_true(r.temperature_c.known && r.temperature_c.value == 31);
	assert_false(r.power_on_hours.known);
	assert_false(r.reallocated.known);

	/* a grown defect list: the reallocated count, and a warning */
	r.scsi.defects_st = SMART_PAGE_OK;
	r.scsi.defects.glist = true;
	r.scsi.defects.count_known = true;
	r.scsi.defects.count = 2;
	r.verdict = SMART_UNKNOWN;
	smart_scsi_evaluate(&r);
	assert_true(r.reallocated.known && r.reallocated.value == 2);
	assert_int_equal(r.verdict, SMART_WARNING);
	assert_string_equal(r.reason, "2 grown defects (blocks the drive reassigned)");
	r.scsi.defects.count = 0;
	r.reallocated.known = false;
	r.verdict = SMART_UNKNOWN;
	r.reason[0] = '\0';
	smart_scsi_evaluate(&r);
	assert_int_equal(r.verdict, SMART_PASSED);
	assert_true(r.reallocated.known && r.reallocated.value == 0);

	/* uncorrected read errors warn */
	r.scsi.read_st = SMART_PAGE_OK;
	logpage_parse_errors(rd_err, sizeof(rd_err), &r.scsi.read_err);
	r.verdict = SMART_UNKNOWN;
	r.reason[0] = '\0';
	smart_scsi_evaluate(&r);
	assert_int_equal(r.verdict, SMART_WARNING);
	assert_string_equal(r.reason, "3 uncorrected read errors");

	/* the newest self-test failed */
	r.scsi.selftest_st = SMART_PAGE_OK;
	logpage_parse_selftest(st_pg, sizeof(st_pg), &r.scsi.selftest);
	r.verdict = SMART_UNKNOWN;
	r.reason[0] = '\0';
	smart_scsi_evaluate(&r);
	assert_int_equal(r.nselftests, 2);
	assert_int_equal(r.selftests[0].kind, SELFTEST_EXTENDED);
	assert_true(r.selftests[0].failed);
	assert_true(r.selftests[0].failing_lba == 0x1000);
	assert_true(r.selftests[1].passed);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_non_null(strstr(r.reason, "last self-test (extended) ended in error"));

	/* an informational exception fails it, with sg_lib's text */
	r.scsi.selftest_st = SMART_PAGE_NOT_SUPPORTED;
	logpage_parse_ie(ie_fail, sizeof(ie_fail), &r.scsi.ie);
	r.verdict = SMART_UNKNOWN;
	r.reason[0] = '\0';
	smart_scsi_evaluate(&r);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_non_null(strstr(r.reason, "threshold exceeded"));
	assert_non_null(strstr(r.reason, "5d/00"));
}

/* ---- loopback SATA disk behind SAT ---------------------------------------------- */

struct fake_sata {
	uint8_t identify[512], data[512], thr[512], stlog[512];
	int status_good; /* RETURN STATUS answer */
	bool no_thresholds;
	bool fail_test; /* the next self-test fails with a read error */
	int running;	/* polls left of a running test, -1 idle */
	uint8_t running_code;
	unsigned smart_cmds;
};

static void sata_sense(struct xcmd *c, const struct ata_regs *r)
{
	c->status = SCSI_STATUS_CHECK_CONDITION;
	c->sense_len = sat_build_ata_return_sense(c->sense, sizeof(c->sense), true, r);
}

static void sata_abort(struct xcmd *c)
{
	struct ata_regs r = { .status = ATA_STAT_DRDY | ATA_STAT_ERR, .error = ATA_ERR_ABRT };

	sata_sense(c, &r);
}

/* Append a test to the self-test log (0x06) and set the status byte. */
static void sata_finish(struct fake_sata *f)
{
	uint8_t idx = f->stlog[508];
	uint8_t *d = f->stlog + 2 + 24 * (idx % 21);
	uint8_t status = f->fail_test ? 0x70 : 0x00;

	memset(d, 0, 24);
	d[0] = f->running_code;
	d[1] = status;
	d[2] = 0x2c;
	d[3] = 0x01;
	if (f->fail_test) {
		d[5] = 0x40;
		d[6] = 0xe2;
		d[7] = 0x01;
		d[8] = 0x00; /* LBA 123456 */
	} else {
		d[5] = d[6] = d[7] = d[8] = 0xff;
	}
	f->stlog[508] = (uint8_t)(idx % 21 + 1);
	checksum(f->stlog);
	f->data[363] = status;
	checksum(f->data);
	f->running = -1;
}

static int sata_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	struct fake_sata *f = t->priv;
	struct ata_tf tf;
	struct ata_regs r = { .status = ATA_STAT_DRDY };
	bool ck;

	assert_int_equal(c->cdb[0], SCSI_ATA_PT16);
	assert_int_equal(sat_parse_ata_pt(c->cdb, c->cdb_len, &tf, &ck), 0);
	c->status = SCSI_STATUS_GOOD;
	if (tf.command == ATA_IDENTIFY) {
		memcpy(c->data, f->identify, 512);
		return 0;
	}
	if (tf.command != ATA_SMART)
		return sata_abort(c), 0;
	f->smart_cmds++;
	assert_true((tf.lba & 0xffff00) == 0xc24f00);
	switch (tf.feature & 0xff) {
	case 0xd0:
		if (f->running > 0) {
			f->running--;
			f->data[363] = (uint8_t)(0xf0 | (f->running * 3));
			checksum(f->data);
		} else if (f->running == 0) {
			sata_finish(f);
		}
		memcpy(c->data, f->data, 512);
		return 0;
	case 0xd1:
		if (f->no_thresholds)
			return sata_abort(c), 0;
		memcpy(c->data, f->thr, 512);
		return 0;
	case 0xd5:
		if ((tf.lba & 0xff) == 0x06) {
			memcpy(c->data, f->stlog, 512);
			return 0;
		}
		return sata_abort(c), 0;
	case 0xda:
		assert_true(ck);
		r.lba = f->status_good ? 0xc24f00 : 0x2cf400;
		sata_sense(c, &r);
		return 0;
	case 0xd4:
		if ((tf.lba & 0xff) == 0x7f) {
			f->running = -1;
			f->data[363] = 0x10;
			checksum(f->data);
			return 0;
		}
		if ((tf.lba & 0xff) > 3)
			return sata_abort(c), 0;
		f->running_code = (uint8_t)(tf.lba & 0xff);
		f->running = 3;
		f->data[363] = 0xf9;
		checksum(f->data);
		return 0;
	default:
		return sata_abort(c), 0;
	}
}

static void fake_close(struct transport *t)
{
	(void)t;
}

static const struct transport_ops sata_ops = { "fake-sata", sata_exec, fake_close, 0 };

static struct drive *sata_drive(struct transport *t, struct fake_sata *f)
{
	struct drive *d;

	memset(f, 0, sizeof(*f));
	make_identify(f->identify);
	make_smart(f->data, f->thr, good_attrs, NATTRS, 0x00);
	f->stlog[0] = 1;
	checksum(f->stlog);
	f->status_good = 1;
	f->running = -1;
	assert_int_equal(transport_init(t, &sata_ops, f, "fake:sata0", NULL), 0);
	assert_int_equal(drive_new(t, TRAN_SATA, &d, NULL), 0);
	return d;
}

static const struct drive_info sata_info = {
	.ata = true,
	.tran = TRAN_SATA,
	.smart_supported = true,
	.smart_enabled = true,
};

static void test_ata_smart_read(void **state)
{
	struct fake_sata f;
	struct transport t;
	struct drive *d = sata_drive(&t, &f);
	struct smart_report r;
	struct ss_error err = { 0 };

	assert_int_equal(smart_read(d, &sata_info, &r, &err), 0);
	assert_true(r.ata);
	assert_int_equal(r.verdict, SMART_PASSED);
	assert_int_equal(r.ata_status, 1);
	assert_int_equal(r.nattrs, NATTRS);
	assert_int_equal(r.temperature_c.value, 35);
	assert_true(r.selftest_log_read);
	assert_int_equal(r.nselftests, 0);
	assert_int_equal(r.data.extended_minutes, 480);
	smart_report_fini(&r);

	/* health check says failing; thresholds missing */
	f.status_good = 0;
	f.no_thresholds = true;
	assert_int_equal(smart_read(d, &sata_info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_int_equal(r.ata_status, 0);
	smart_report_fini(&r);
	drive_free(d);
}

static void test_ata_no_smart(void **state)
{
	struct fake_sata f;
	struct transport t;
	struct drive *d = sata_drive(&t, &f);
	struct drive_info info = sata_info;
	struct smart_report r;
	struct ss_error err = { 0 };

	info.smart_supported = false;
	assert_int_equal(smart_read(d, &info, &r, &err), -EOPNOTSUPP);
	assert_string_equal(err.msg, "fake:sata0: SMART is not supported by this drive");
	assert_int_equal(f.smart_cmds, 0);
	assert_null(r.attrs);
	info.smart_supported = true;
	info.smart_enabled = false;
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "SMART is disabled"));
	drive_free(d);
}

struct sink_log {
	unsigned reports;
	double last;
	bool cancel;
	char phase[128];
};

static void sink_report(void *arg, double fraction, const char *phase, double eta)
{
	struct sink_log *s = arg;

	s->reports++;
	s->last = fraction;
	snprintf(s->phase, sizeof(s->phase), "%s", phase ? phase : "");
}

static bool sink_cancelled(void *arg)
{
	return ((struct sink_log *)arg)->cancel;
}

static void test_ata_selftest(void **state)
{
	struct fake_sata f;
	struct transport t;
	struct drive *d = sata_drive(&t, &f);
	struct selftest_status st;
	struct selftest_entry log[SELFTEST_LOG_MAX];
	struct sink_log sl = { 0 };
	struct progress_sink sink = { sink_report, sink_cancelled, &sl };
	struct ss_error err = { 0 };
	size_t n;

	assert_int_equal(selftest_start(d, &sata_info, SELFTEST_EXTENDED, &err), 0);
	assert_int_equal(f.running_code, 0x02);
	/* a second start while running: busy */
	assert_int_equal(selftest_start(d, &sata_info, SELFTEST_SHORT, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "already running"));
	/* poll: running, 90% remaining of 480 minutes -> 10% done */
	memset(&st, 0, sizeof(st));
	st.kind = SELFTEST_EXTENDED;
	f.running = 4; /* the next poll leaves 3 x 3 = 9 -> 90% remaining */
	assert_int_equal(selftest_poll(d, &sata_info, &st, &err), 0);
	assert_true(st.running);
	assert_true(st.fraction > 0.09 && st.fraction < 0.11);
	assert_int_equal(st.expected_s, 480 * 60);
	assert_true(st.eta_s > 0.89 * 480 * 60 && st.eta_s < 0.91 * 480 * 60);
	assert_non_null(strstr(st.text, "extended self-test: 10% done"));
	/* wait to the end: progress reported, passed */
	assert_int_equal(selftest_wait(d, &sata_info, SELFTEST_EXTENDED, &sink, &err), 0);
	assert_true(sl.reports >= 2);
	assert_true(sl.last == 1.0);
	assert_int_equal(selftest_log(d, &sata_info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_true(log[0].passed);
	assert_int_equal(log[0].kind, SELFTEST_EXTENDED);

	/* a failing short test: -EIO with the LBA, and the verdict */
	f.fail_test = true;
	assert_int_equal(selftest_start(d, &sata_info, SELFTEST_SHORT, &err), 0);
	assert_int_equal(selftest_wait(d, &sata_info, SELFTEST_SHORT, NULL, &err), -EIO);
	assert_non_null(strstr(err.msg, "short self-test ended in error: the read element failed"));
	assert_non_null(strstr(err.msg, "LBA 123456"));
	{
		struct smart_report r;

		assert_int_equal(smart_read(d, &sata_info, &r, &err), 0);
		assert_int_equal(r.verdict, SMART_FAILED);
		assert_int_equal(r.nselftests, 2);
		smart_report_fini(&r);
	}

	/* cancelled while watching: the test goes on */
	assert_int_equal(selftest_start(d, &sata_info, SELFTEST_CONVEYANCE, &err), 0);
	sl.cancel = true;
	assert_int_equal(selftest_wait(d, &sata_info, SELFTEST_CONVEYANCE, &sink, &err),
			 -ECANCELED);
	assert_non_null(strstr(err.msg, "goes on inside the drive"));
	assert_int_equal(selftest_abort(d, &sata_info, &err), 0);
	memset(&st, 0, sizeof(st));
	assert_int_equal(selftest_poll(d, &sata_info, &st, &err), 0);
	assert_false(st.running);

	/* no conveyance test on this one */
	f.data[367] &= (uint8_t)~0x20;
	checksum(f.data);
	assert_int_equal(selftest_start(d, &sata_info, SELFTEST_CONVEYANCE, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "no conveyance self-test"));
	drive_free(d);
}

/* ---- loopback SAS disk ------------------------------------------------------- */

struct fake_sas {
	bool no_logs;
	bool selftest_running;
	unsigned diag_code;
};

static const uint8_t sas_supported[] = { 0x00, 0, 0, 5, 0x00, 0x03, 0x0d, 0x10, 0x2f };

static void sas_check(struct xcmd *c, uint8_t key, uint8_t asc)
{
	memset(c->sense, 0, 18);
	c->sense[0] = 0x70;
	c->sense[2] = key;
	c->sense[7] = 10;
	c->sense[12] = asc;
	c->sense_len = 18;
	c->status = SCSI_STATUS_CHECK_CONDITION;
}

static void sas_copy(struct xcmd *c, const uint8_t *p, size_t n)
{
	size_t k = n < c->data_len ? n : c->data_len;

	memcpy(c->data, p, k);
	c->resid = c->data_len - k;
}

static int sas_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	struct fake_sas *f = t->priv;
	uint8_t st_run[sizeof(st_pg)];

	c->status = SCSI_STATUS_GOOD;
	switch (c->cdb[0]) {
	case SCSI_LOG_SENSE:
		if (f->no_logs)
			return sas_check(c, SK_ILLEGAL_REQUEST, 0x20), 0;
		switch (c->cdb[2] & 0x3f) {
		case 0x00:
			sas_copy(c, sas_supported, sizeof(sas_supported));
			return 0;
		case 0x03:
			sas_copy(c, rd_err, sizeof(rd_err));
			return 0;
		case 0x0d:
			sas_copy(c, temp_pg, sizeof(temp_pg));
			return 0;
		case 0x10:
			memcpy(st_run, st_pg, sizeof(st_pg));
			if (f->selftest_running)
				st_run[8] = 0x4f; /* extended, in progress */
			sas_copy(c, st_run, sizeof(st_run));
			return 0;
		case 0x2f:
			sas_copy(c, ie_ok, sizeof(ie_ok));
			return 0;
		default:
			return sas_check(c, SK_ILLEGAL_REQUEST, 0x24), 0;
		}
	case SCSI_SEND_DIAGNOSTIC:
		f->diag_code = c->cdb[1] >> 5;
		if (f->diag_code == 4)
			f->selftest_running = false;
		return 0;
	case SCSI_REQUEST_SENSE: {
		uint8_t s[18] = { 0x70, 0, SK_NO_SENSE, 0, 0, 0, 0, 10 };

		if (f->selftest_running) {
			s[12] = 0x04;
			s[13] = 0x09;
			s[15] = 0x80; /* SKSV, progress 0x4000 = 25% */
			s[16] = 0x40;
		}
		sas_copy(c, s, sizeof(s));
		return 0;
	}
	case SCSI_MODE_SENSE10: {
		uint8_t m[8 + 12] = { 0,    18, 0, 0, 0, 0, 0, 0, 0x0a, 0x0a,
				      0x02, 0,	0, 0, 0, 0, 0, 0, 0x0e, 0x10 };

		sas_copy(c, m, sizeof(m));
		return 0;
	}
	default:
		return sas_check(c, SK_ILLEGAL_REQUEST, 0x20), 0;
	}
}

static const struct transport_ops sas_ops = { "fake-sas", sas_exec, fake_close, 0 };

static void test_scsi_ops(void **state)
{
	struct fake_sas f = { 0 };
	struct drive_info info = { .tran = TRAN_SAS };
	struct smart_report r;
	struct selftest_status st;
	struct ss_error err = { 0 };
	struct transport t;
	struct drive *d;

	assert_int_equal(transport_init(&t, &sas_ops, &f, "fake:sas0", NULL), 0);
	assert_int_equal(drive_new(&t, TRAN_SAS, &d, NULL), 0);

	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_false(r.ata);
	assert_int_equal(r.scsi.read_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.write_st, SMART_PAGE_NOT_SUPPORTED);
	assert_int_equal(r.scsi.bg_scan_st, SMART_PAGE_NOT_SUPPORTED);
	assert_int_equal(r.scsi.ie_st, SMART_PAGE_OK);
	assert_int_equal(r.temperature_c.value, 31);
	assert_false(r.power_on_hours.known);
	/* the newest self-test failed: FAILED (worse than 3 uncorrected reads) */
	assert_int_equal(r.verdict, SMART_FAILED);
	smart_report_fini(&r);

	/* self-tests */
	assert_int_equal(selftest_start(d, &info, SELFTEST_EXTENDED, &err), 0);
	assert_int_equal(f.diag_code, SCSI_SELFTEST_BG_EXTENDED);
	assert_int_equal(selftest_start(d, &info, SELFTEST_CONVEYANCE, &err), -EOPNOTSUPP);
	f.selftest_running = true;
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), -EBUSY);
	memset(&st, 0, sizeof(st));
	assert_int_equal(selftest_poll(d, &info, &st, &err), 0);
	assert_true(st.running);
	assert_int_equal(st.kind, SELFTEST_EXTENDED);
	assert_true(st.fraction_valid && st.fraction == 0.25);
	assert_int_equal(st.expected_s, 3600);
	assert_true(st.eta_s == 2700);
	assert_int_equal(selftest_abort(d, &info, &err), 0);
	assert_int_equal(f.diag_code, SCSI_SELFTEST_BG_ABORT);
	memset(&st, 0, sizeof(st));
	assert_int_equal(selftest_poll(d, &info, &st, &err), 0);
	assert_false(st.running);
	assert_true(st.has_last);
	assert_true(st.last.failed);

	/* no log pages at all */
	f.no_logs = true;
	assert_int_equal(smart_read(d, &info, &r, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "SMART is not supported by this drive"));
	drive_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blob_bytes),
		cmocka_unit_test(test_good_disk),
		cmocka_unit_test(test_reallocated_over_threshold),
		cmocka_unit_test(test_some_reallocated),
		cmocka_unit_test(test_status_failing_and_unknown),
		cmocka_unit_test(test_blob_refused),
		cmocka_unit_test(test_selftest_log),
		cmocka_unit_test(test_ext_selftest_log),
		cmocka_unit_test(test_selftest_in_verdict),
		cmocka_unit_test(test_scsi_verdict),
		cmocka_unit_test(test_ata_smart_read),
		cmocka_unit_test(test_ata_no_smart),
		cmocka_unit_test(test_ata_selftest),
		cmocka_unit_test(test_scsi_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
