/*
 * test_logpage.c - LOG SENSE page parsers from answers written by hand
 * from SPC-4 (7.3) and SBC-3 (6.4), with truncated and malformed variants
 * of each.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/logpage.h"

/* ---- header and parameter walk ------------------------------------------ */

static void test_header(void **state)
{
	/* DS=1 SPF=1 page 0x0D subpage 0x01, length 0 */
	static const uint8_t a[] = { 0xcd, 0x01, 0x00, 0x00 };
	struct log_page pg;

	assert_int_equal(logpage_parse(a, sizeof(a), &pg), 0);
	assert_true(pg.ds);
	assert_true(pg.spf);
	assert_int_equal(pg.code, 0x0d);
	assert_int_equal(pg.subpage, 0x01);
	assert_int_equal(pg.len, 0);
	assert_false(pg.truncated);
	assert_int_equal(logpage_parse(a, 3, &pg), -EPROTO);
	assert_int_equal(logpage_parse(NULL, 0, &pg), -EPROTO);
}

static void test_param_overrun(void **state)
{
	/* page says 8 bytes of parameters; the second parameter claims 10 */
	static const uint8_t a[] = {
		0x06, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x02, 0x02,
		0x00, 0x09, 0x00, 0x01, 0x02, 0x0a, 0x00, 0x00,
	};
	struct log_page pg;
	struct log_param p;
	size_t off = 0;

	assert_int_equal(logpage_parse(a, sizeof(a), &pg), 0);
	assert_false(pg.truncated);
	assert_int_equal(logpage_next_param(&pg, &off, &p), 1);
	assert_int_equal(p.code, 0);
	assert_int_equal(p.len, 2);
	assert_int_equal(logpage_next_param(&pg, &off, &p), 0);
	assert_true(pg.truncated);
	assert_int_equal(logpage_find_param(&pg, 0x0001, &p), -ENOENT);
}

static void test_param_u64(void **state)
{
	static const uint8_t v12[] = { 0, 0, 0, 0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
	static const uint8_t big[] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct log_param p = { .len = 12, .val = v12 };
	uint64_t v;

	assert_int_equal(log_param_u64(&p, &v), 0);
	assert_true(v == 0x0102030405060708ULL);
	p.val = big;
	assert_int_equal(log_param_u64(&p, &v), -ERANGE);
	assert_true(v == UINT64_MAX);
	p.len = 0;
	assert_int_equal(log_param_u64(&p, &v), -ENODATA);
}

/* ---- 0x00 ----------------------------------------------------------------- */

static const uint8_t supported[] = {
	0x00, 0x00, 0x00, 0x0a, 0x00, 0x02, 0x03, 0x05, 0x06, 0x0d, 0x0e, 0x10, 0x15, 0x2f,
};

static void test_supported(void **state)
{
	struct log_supported s;

	assert_int_equal(logpage_parse_supported(supported, sizeof(supported), &s), 0);
	assert_int_equal(s.count, 10);
	assert_false(s.truncated);
	assert_true(log_supported_has(&s, 0x2f));
	assert_true(log_supported_has(&s, 0x15));
	assert_false(log_supported_has(&s, 0x18));
}

static void test_supported_truncated(void **state)
{
	struct log_supported s;

	/* allocation length cut the list after 4 codes */
	assert_int_equal(logpage_parse_supported(supported, 8, &s), 0);
	assert_true(s.truncated);
	assert_int_equal(s.count, 4);
	assert_true(log_supported_has(&s, 0x05));
	assert_false(log_supported_has(&s, 0x06));
	/* another page code */
	assert_int_equal(logpage_parse_supported((const uint8_t[]){ 0x0d, 0, 0, 0 }, 4, &s),
			 -EPROTO);
}

static void test_supported_subpages(void **state)
{
	/* SPF set, subpage 0xFF: page/subpage pairs, subpages skipped */
	static const uint8_t a[] = { 0x40, 0xff, 0x00, 0x08, 0x00, 0x00,
				     0x00, 0xff, 0x0d, 0x00, 0x0d, 0x01 };
	struct log_supported s;

	assert_int_equal(logpage_parse_supported(a, sizeof(a), &s), 0);
	assert_int_equal(s.count, 2);
	assert_int_equal(s.pages[0], 0x00);
	assert_int_equal(s.pages[1], 0x0d);
}

/* ---- 0x03 read error counters -------------------------------------------- */

static const uint8_t read_errors[] = {
	0x03, 0x00, 0x00, 0x40, 0x00, 0x00, 0x02, 0x04,
	0x00, 0x00, 0x00, 0x05,				/* corrected fast: 5 */
	0x00, 0x01, 0x02, 0x02, 0x00, 0x07,		/* corrected delayed: 7 (2 bytes) */
	0x00, 0x02, 0x02, 0x04, 0x00, 0x00, 0x01, 0x00, /* rereads: 256 */
	0x00, 0x03, 0x02, 0x04, 0x00, 0x00, 0x00, 0x0c, /* total corrected: 12 */
	0x00, 0x04, 0x02, 0x04, 0x00, 0x00, 0x00, 0x0d, /* algorithm runs: 13 */
	0x00, 0x05, 0x02, 0x08, 0x00, 0x00, 0x00, 0x12, /* bytes processed */
	0x34, 0x56, 0x78, 0x9a, 0x00, 0x06, 0x02, 0x04,
	0x00, 0x00, 0x00, 0x02,		    /* uncorrected: 2 */
	0x80, 0x00, 0x02, 0x02, 0xbe, 0xef, /* vendor specific */
};

static void test_errors(void **state)
{
	struct log_errors e;

	assert_int_equal(sizeof(read_errors), 4 + 0x40);
	assert_int_equal(logpage_parse_errors(read_errors, sizeof(read_errors), &e), 0);
	assert_int_equal(e.page, LOG_PAGE_READ_ERRORS);
	assert_false(e.truncated);
	for (int i = 0; i < LOG_ERR_NCOUNTERS; i++)
		assert_true(e.has[i]);
	assert_int_equal(e.count[LOG_ERR_CORRECTED_FAST], 5);
	assert_int_equal(e.count[LOG_ERR_CORRECTED_DELAYED], 7);
	assert_int_equal(e.count[LOG_ERR_TOTAL_RETRIES], 256);
	assert_int_equal(e.count[LOG_ERR_TOTAL_CORRECTED], 12);
	assert_true(e.count[LOG_ERR_BYTES_PROCESSED] == 0x123456789aULL);
	assert_int_equal(e.count[LOG_ERR_UNCORRECTED], 2);
	assert_false(e.overflow);
}

static void test_errors_truncated(void **state)
{
	struct log_errors e;

	/* cut inside the uncorrected-errors parameter */
	assert_int_equal(logpage_parse_errors(read_errors, 4 + 0x40 - 10, &e), 0);
	assert_true(e.truncated);
	assert_true(e.has[LOG_ERR_BYTES_PROCESSED]);
	assert_false(e.has[LOG_ERR_UNCORRECTED]);
	/* the header alone: nothing, flagged */
	assert_int_equal(logpage_parse_errors(read_errors, 4, &e), 0);
	assert_true(e.truncated);
	assert_false(e.has[LOG_ERR_CORRECTED_FAST]);
	/* a page that is no error counter page */
	assert_int_equal(logpage_parse_errors((const uint8_t[]){ 0x06, 0, 0, 0 }, 4, &e), -EPROTO);
	assert_int_equal(logpage_parse_errors(read_errors, 2, &e), -EPROTO);
}

/* ---- 0x06, 0x0D, 0x0E ------------------------------------------------------ */

static void test_non_medium(void **state)
{
	static const uint8_t a[] = { 0x06, 0x00, 0x00, 0x06, 0x00, 0x00, 0x02, 0x02, 0x00, 0x09 };
	struct log_non_medium n;

	assert_int_equal(logpage_parse_non_medium(a, sizeof(a), &n), 0);
	assert_true(n.has_count);
	assert_int_equal(n.count, 9);
	assert_int_equal(logpage_parse_non_medium(a, 8, &n), 0);
	assert_true(n.truncated);
	assert_false(n.has_count);
}

static void test_temperature(void **state)
{
	static const uint8_t a[] = {
		0x0d, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x03, 0x02, 0x00, 0x23, /* 35 C */
		0x00, 0x01, 0x03, 0x02, 0x00, 0x41,			    /* reference 65 C */
	};
	static const uint8_t na[] = {
		0x0d, 0x00, 0x00, 0x06, 0x00, 0x00, 0x03, 0x02, 0x00, 0xff,
	};
	struct log_temperature t;

	assert_int_equal(logpage_parse_temperature(a, sizeof(a), &t), 0);
	assert_true(t.has_current);
	assert_int_equal(t.current_c, 35);
	assert_true(t.has_reference);
	assert_int_equal(t.reference_c, 65);
	/* 0xFF: not available, never a number */
	assert_int_equal(logpage_parse_temperature(na, sizeof(na), &t), 0);
	assert_false(t.has_current);
	/* cut after the first parameter */
	assert_int_equal(logpage_parse_temperature(a, 12, &t), 0);
	assert_true(t.truncated);
	assert_true(t.has_current);
	assert_false(t.has_reference);
}

static void test_start_stop(void **state)
{
	static const uint8_t a[] = {
		0x0e, 0x00, 0x00, 0x34, 0x00, 0x01, 0x01, 0x06, '2',  '0',  '1',
		'9',  '1',  '2',  0x00, 0x02, 0x02, 0x06, ' ',	' ',  ' ',  ' ',
		' ',  ' ',  0x00, 0x03, 0x01, 0x04, 0x00, 0x00, 0xc3, 0x50, /* 50000 */
		0x00, 0x04, 0x03, 0x04, 0x00, 0x00, 0x01, 0x2c,		    /* 300 */
		0x00, 0x05, 0x01, 0x04, 0x00, 0x09, 0x27, 0xc0,		    /* 600000 */
		0x00, 0x06, 0x03, 0x04, 0x00, 0x00, 0x04, 0xd2,		    /* 1234 */
	};
	struct log_start_stop s;

	assert_int_equal(sizeof(a), 4 + 0x34);
	assert_int_equal(logpage_parse_start_stop(a, sizeof(a), &s), 0);
	assert_true(s.has_mfg_date);
	assert_string_equal(s.mfg_year, "2019");
	assert_string_equal(s.mfg_week, "12");
	assert_true(s.has_acct_date);
	assert_true(s.has_specified_cycles && s.specified_cycles == 50000);
	assert_true(s.has_cycles && s.cycles == 300);
	assert_true(s.has_specified_load_unload && s.specified_load_unload == 600000);
	assert_true(s.has_load_unload && s.load_unload == 1234);
	assert_false(s.truncated);
	/* cut inside the accumulated cycles parameter */
	assert_int_equal(logpage_parse_start_stop(a, 4 + 30, &s), 0);
	assert_true(s.truncated);
	assert_true(s.has_specified_cycles);
	assert_false(s.has_cycles);
}

/* ---- 0x10 self-test results ------------------------------------------------ */

static const uint8_t selftest[] = {
	0x10,
	0x00,
	0x00,
	0x3c,
	/* 1: background short (1), failed in the first segment (5), #7,
	 * 0x1234 hours, first failure LBA 123456, MEDIUM ERROR 11/00 */
	0x00,
	0x01,
	0x03,
	0x10,
	0x25,
	0x07,
	0x12,
	0x34,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x01,
	0xe2,
	0x40,
	0x03,
	0x11,
	0x00,
	0x00,
	/* 2: background extended (2), completed (0), #6, no failure LBA */
	0x00,
	0x02,
	0x03,
	0x10,
	0x40,
	0x06,
	0x12,
	0x00,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0xff,
	0x00,
	0x00,
	0x00,
	0x00,
	/* 3: unused */
	0x00,
	0x03,
	0x03,
	0x10,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
};

static void test_selftest(void **state)
{
	struct log_selftest s;

	assert_int_equal(sizeof(selftest), 4 + 0x3c);
	assert_int_equal(logpage_parse_selftest(selftest, sizeof(selftest), &s), 0);
	assert_int_equal(s.count, 3);
	assert_false(s.truncated);
	assert_int_equal(s.e[0].param, 1);
	assert_int_equal(s.e[0].code, 1);
	assert_int_equal(s.e[0].result, LOG_ST_RESULT_FAILED_SEG1);
	assert_int_equal(s.e[0].number, 7);
	assert_int_equal(s.e[0].power_on_hours, 0x1234);
	assert_true(s.e[0].lba_valid);
	assert_true(s.e[0].first_failure_lba == 123456);
	assert_int_equal(s.e[0].sense_key, 3);
	assert_int_equal(s.e[0].asc, 0x11);
	assert_false(s.e[0].empty);
	assert_int_equal(s.e[1].code, 2);
	assert_int_equal(s.e[1].result, LOG_ST_RESULT_OK);
	assert_false(s.e[1].lba_valid);
	assert_true(s.e[2].empty);
	assert_string_equal(log_selftest_result_text(5), "failed in the first segment");
}

static void test_selftest_truncated(void **state)
{
	struct log_selftest s;
	uint8_t shortp[4 + 12];

	/* cut in the middle of the second entry */
	assert_int_equal(logpage_parse_selftest(selftest, 4 + 20 + 10, &s), 0);
	assert_true(s.truncated);
	assert_int_equal(s.count, 1);
	/* a parameter too short for an entry is skipped and flagged */
	memcpy(shortp,
	       (const uint8_t[]){ 0x10, 0, 0, 12, 0x00, 0x01, 0x03, 0x08, 0x25, 0x07, 0, 0, 0, 0, 0,
				  0 },
	       sizeof(shortp));
	assert_int_equal(logpage_parse_selftest(shortp, sizeof(shortp), &s), 0);
	assert_int_equal(s.count, 0);
	assert_true(s.truncated);
}

/* ---- 0x15 background scan -------------------------------------------------- */

static const uint8_t bgscan[] = {
	0x15,
	0x00,
	0x00,
	0x28,
	/* status: 100000 minutes, status 4, 42 scans, progress 50%, 3 medium scans */
	0x00,
	0x00,
	0x03,
	0x0c,
	0x00,
	0x01,
	0x86,
	0xa0,
	0x00,
	0x04,
	0x00,
	0x2a,
	0x80,
	0x00,
	0x00,
	0x03,
	/* medium scan 1: minute 98304, reassign 5, MEDIUM ERROR 11/04, LBA 12345 */
	0x00,
	0x01,
	0x03,
	0x14,
	0x00,
	0x01,
	0x80,
	0x00,
	0x53,
	0x11,
	0x04,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x30,
	0x39,
};

static void test_bg_scan(void **state)
{
	struct log_bgscan b;

	assert_int_equal(sizeof(bgscan), 4 + 0x28);
	assert_int_equal(logpage_parse_bg_scan(bgscan, sizeof(bgscan), &b), 0);
	assert_true(b.has_status);
	assert_int_equal(b.power_on_minutes, 100000);
	assert_int_equal(b.status, 4);
	assert_int_equal(b.scans_performed, 42);
	assert_int_equal(b.progress, 0x8000);
	assert_int_equal(b.medium_scans_performed, 3);
	assert_int_equal(b.count, 1);
	assert_int_equal(b.total, 1);
	assert_int_equal(b.e[0].power_on_minutes, 98304);
	assert_int_equal(b.e[0].reassign_status, 5);
	assert_int_equal(b.e[0].sense_key, 3);
	assert_int_equal(b.e[0].asc, 0x11);
	assert_int_equal(b.e[0].ascq, 0x04);
	assert_true(b.e[0].lba == 12345);
	/* cut inside the medium scan parameter */
	assert_int_equal(logpage_parse_bg_scan(bgscan, sizeof(bgscan) - 4, &b), 0);
	assert_true(b.truncated);
	assert_true(b.has_status);
	assert_int_equal(b.count, 0);
}

/* ---- 0x2F informational exceptions ----------------------------------------- */

static void test_ie(void **state)
{
	static const uint8_t fail[] = { 0x2f, 0x00, 0x00, 0x08, 0x00, 0x00,
					0x03, 0x04, 0x5d, 0x00, 0x28, 0x00 };
	static const uint8_t ok[] = { 0x2f, 0x00, 0x00, 0x07, 0x00, 0x00,
				      0x03, 0x03, 0x00, 0x00, 0xff };
	struct log_ie ie;
	char txt[128];

	assert_int_equal(logpage_parse_ie(fail, sizeof(fail), &ie), 0);
	assert_true(ie.has);
	assert_int_equal(ie.asc, 0x5d);
	assert_int_equal(ie.ascq, 0x00);
	assert_true(ie.has_temperature);
	assert_int_equal(ie.temperature_c, 40);
	assert_int_equal(logpage_parse_ie(ok, sizeof(ok), &ie), 0);
	assert_true(ie.has);
	assert_int_equal(ie.asc, 0);
	assert_false(ie.has_temperature);
	/* truncated inside the parameter: nothing claimed */
	assert_int_equal(logpage_parse_ie(fail, 9, &ie), 0);
	assert_true(ie.truncated);
	assert_false(ie.has);

	log_asc_text(0x5d, 0x00, txt, sizeof(txt));
	assert_non_null(strstr(txt, "threshold exceeded"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_param_overrun),
		cmocka_unit_test(test_param_u64),
		cmocka_unit_test(test_supported),
		cmocka_unit_test(test_supported_truncated),
		cmocka_unit_test(test_supported_subpages),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_errors_truncated),
		cmocka_unit_test(test_non_medium),
		cmocka_unit_test(test_temperature),
		cmocka_unit_test(test_start_stop),
		cmocka_unit_test(test_selftest),
		cmocka_unit_test(test_selftest_truncated),
		cmocka_unit_test(test_bg_scan),
		cmocka_unit_test(test_ie),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
