/*
 * test_ata_smart.c - the parsers of what the ATA SMART commands return
 * (ata_smart.h): SMART READ DATA, the self-test logs 06h and 07h as
 * descriptors, the summary error log, the RETURN STATUS registers. Each
 * structure is written here byte by byte from ACS-3, with its checksum;
 * a changed byte must show as a bad checksum, a short buffer as -EPROTO.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/ata_smart.h"

#include "fixture.h"

/* byte 511: the two's complement of the sum of bytes 0-510 */
static void seal(uint8_t *s)
{
	uint8_t sum = 0;

	for (int i = 0; i < 511; i++)
		sum = (uint8_t)(sum + s[i]);
	s[511] = (uint8_t)(0x100 - sum);
}

/* SMART READ DATA with an empty attribute table (fixture_smart_fields) */
static void make_data(uint8_t *data, uint8_t st_byte)
{
	memset(data, 0, 512);
	data[0] = 0x10; /* revision */
	fixture_smart_fields(data, st_byte);
	seal(data);
}

static void test_parse_data(void **state)
{
	uint8_t data[512];
	struct ata_smart_data d;

	make_data(data, 0xf3);
	assert_int_equal(ata_smart_parse_data(data, sizeof(data), &d), 0);
	assert_int_equal(d.offline_status, 0x82);
	assert_int_equal(d.selftest_byte, 0xf3);
	assert_int_equal(d.offline_seconds, 0x210);
	assert_int_equal(d.offline_caps, 0x7b);
	assert_int_equal(d.smart_caps, 0x0003);
	assert_true(d.selftest_supported);
	assert_true(d.conveyance_supported);
	assert_true(d.abort_supported);
	assert_true(d.errlog_supported);
	assert_int_equal(d.short_minutes, 2);
	assert_int_equal(d.extended_minutes, 480);
	assert_int_equal(d.conveyance_minutes, 5);
	assert_true(d.checksum_ok);

	/* one changed byte: the fields still come, the checksum says so */
	data[100] ^= 1;
	assert_int_equal(ata_smart_parse_data(data, sizeof(data), &d), 0);
	assert_false(d.checksum_ok);
	assert_int_equal(d.extended_minutes, 480);

	/* a one-byte extended time; no capabilities */
	make_data(data, 0x00);
	data[373] = 20;
	data[367] = 0;
	data[370] = 0;
	seal(data);
	assert_int_equal(ata_smart_parse_data(data, sizeof(data), &d), 0);
	assert_int_equal(d.extended_minutes, 20);
	assert_false(d.selftest_supported);
	assert_false(d.conveyance_supported);
	assert_false(d.abort_supported);
	assert_false(d.errlog_supported);
	assert_true(d.checksum_ok);

	/* short: nothing read, all zero */
	assert_int_equal(ata_smart_parse_data(data, 511, &d), -EPROTO);
	assert_int_equal(d.extended_minutes, 0);
	assert_false(d.checksum_ok);
	assert_int_equal(ata_smart_parse_data(NULL, 512, &d), -EPROTO);
}

static void test_status_text(void **state)
{
	assert_string_equal(ata_smart_selftest_status_text(0x0), "completed without error");
	assert_string_equal(ata_smart_selftest_status_text(0x1), "aborted by the host");
	assert_string_equal(ata_smart_selftest_status_text(0x7), "the read element failed");
	assert_string_equal(ata_smart_selftest_status_text(ATA_SELFTEST_IN_PROGRESS),
			    "in progress");
	assert_string_equal(ata_smart_selftest_status_text(0x9), "reserved status");
}

/* Log 06h: slot 0 a short test that passed (no LBA: all ones), slot 1 an
 * extended captive test failed in the read element at LBA 0xabcdef, slot 2
 * a conveyance test whose LBA field holds the 28-bit all-ones form; index 3
 * (slot 2 newest). */
static void make_log06(uint8_t *log)
{
	uint8_t *d;

	memset(log, 0, 512);
	log[0] = 0x01;
	d = log + 2;
	d[0] = 0x01;
	d[1] = 0x00;
	d[2] = 0x00; /* 256 h */
	d[3] = 0x01;
	d[4] = 0x00;
	memset(d + 5, 0xff, 4);
	d = log + 2 + 24;
	d[0] = 0x82;
	d[1] = 0x73; /* read element (7), 30 % left when it stopped */
	d[2] = 0x05; /* 261 h */
	d[3] = 0x01;
	d[4] = 0x02; /* checkpoint */
	d[5] = 0xef;
	d[6] = 0xcd;
	d[7] = 0xab;
	d[8] = 0x00;
	d = log + 2 + 48;
	d[0] = 0x03;
	d[1] = 0x00;
	d[2] = 0x10; /* 272 h */
	d[3] = 0x01;
	d[5] = 0xff;
	d[6] = 0xff;
	d[7] = 0xff;
	d[8] = 0x0f;
	log[508] = 3;
	seal(log);
}

static void test_selftest_log06(void **state)
{
	struct ata_selftest_desc e[21];
	uint8_t log[512];
	size_t n;

	make_log06(log);
	assert_int_equal(ata_smart_parse_selftest_log(log, sizeof(log), false, e, 21, &n), 0);
	assert_int_equal(n, 3);
	/* newest first */
	assert_int_equal(e[0].test, 0x03);
	assert_int_equal(e[0].hours, 272);
	assert_true(e[0].lba_unset);
	assert_int_equal(e[1].test, 0x82);
	assert_int_equal(e[1].status, 0x73);
	assert_int_equal(e[1].hours, 261);
	assert_true(e[1].lba == 0xabcdef);
	assert_false(e[1].lba_unset);
	assert_int_equal(e[2].test, 0x01);
	assert_int_equal(e[2].status, 0x00);
	assert_int_equal(e[2].hours, 256);
	assert_true(e[2].lba == 0xffffffffULL);
	assert_true(e[2].lba_unset);

	/* room for one: the newest */
	assert_int_equal(ata_smart_parse_selftest_log(log, sizeof(log), false, e, 1, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(e[0].test, 0x03);
	/* the index wraps: index 1 makes slot 0 newest, then the last slots */
	log[508] = 1;
	assert_int_equal(ata_smart_parse_selftest_log(log, sizeof(log), false, e, 21, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(e[0].test, 0x01);
	assert_int_equal(e[1].test, 0x03);
	assert_int_equal(e[2].test, 0x82);
	/* an index past the end is clamped, not followed */
	log[508] = 200;
	assert_int_equal(ata_smart_parse_selftest_log(log, sizeof(log), false, e, 21, &n), 0);
	assert_int_equal(n, 3);
	/* index 0: nothing written yet */
	log[508] = 0;
	assert_int_equal(ata_smart_parse_selftest_log(log, sizeof(log), false, e, 21, &n), 0);
	assert_int_equal(n, 0);
	/* short */
	assert_int_equal(ata_smart_parse_selftest_log(log, 300, false, e, 21, &n), -EPROTO);
	assert_int_equal(n, 0);
	assert_int_equal(ata_smart_parse_selftest_log(NULL, 512, false, e, 21, &n), -EPROTO);
}

/* GPL log 07h, one page: index (2-3) 2, descriptors of 26 bytes from 4,
 * 48-bit LBA (5-10). */
static void test_selftest_log07(void **state)
{
	struct ata_selftest_desc e[21];
	uint8_t log[1024];
	size_t n;

	memset(log, 0, sizeof(log));
	log[0] = 0x01;
	log[2] = 0x02;
	log[4 + 0] = 0x01; /* short, passed, no LBA */
	log[4 + 2] = 0x20;
	memset(log + 4 + 5, 0xff, 6);
	log[4 + 26 + 0] = 0x83; /* conveyance captive, servo failure */
	log[4 + 26 + 1] = 0x60;
	log[4 + 26 + 2] = 0x10;
	log[4 + 26 + 3] = 0x00;
	for (int i = 0; i < 6; i++)
		log[4 + 26 + 5 + i] = (uint8_t)(i + 1);
	assert_int_equal(ata_smart_parse_selftest_log(log, 512, true, e, 21, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(e[0].test, 0x83);
	assert_int_equal(e[0].status, 0x60);
	assert_int_equal(e[0].hours, 0x10);
	assert_true(e[0].lba == 0x060504030201ULL);
	assert_false(e[0].lba_unset);
	assert_int_equal(e[1].test, 0x01);
	assert_int_equal(e[1].hours, 0x20);
	assert_true(e[1].lba == 0xffffffffffffULL);
	assert_true(e[1].lba_unset);

	/* a second page: descriptor 20 (index 20) is its first slot */
	log[2] = 20;
	log[512 + 4] = 0x02;
	log[512 + 4 + 1] = 0x00;
	log[512 + 4 + 2] = 0x30;
	assert_int_equal(ata_smart_parse_selftest_log(log, sizeof(log), true, e, 3, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(e[0].test, 0x02);
	assert_int_equal(e[0].hours, 0x30);
	assert_int_equal(e[1].test, 0x83);
	assert_int_equal(e[2].test, 0x01);
	assert_int_equal(ata_smart_parse_selftest_log(log, 511, true, e, 21, &n), -EPROTO);
}

/* Summary error log (01h): structure 2 the newest of two; each names the
 * failing command (the fifth command structure) and the error registers. */
static void test_error_log(void **state)
{
	struct ata_smart_errlog el;
	uint8_t log[512], *s;

	memset(log, 0, sizeof(log));
	log[0] = 0x01;
	log[1] = 0x02; /* newest: structure 2 */
	s = log + 2;   /* structure 1: READ DMA EXT failed, UNC */
	s[4 * 12 + 1] = 0x00;
	s[4 * 12 + 7] = 0x25;
	s[60 + 1] = 0x40; /* error: UNC */
	s[60 + 3] = 0x78; /* LBA 0x0a345678 (device bits 3:0 hold 27:24) */
	s[60 + 4] = 0x56;
	s[60 + 5] = 0x34;
	s[60 + 6] = 0xea;
	s[60 + 7] = 0x51;  /* status */
	s[60 + 27] = 0x01; /* state */
	s[60 + 28] = 0x39; /* 12345 h */
	s[60 + 29] = 0x30;
	s = log + 2 + 90; /* structure 2: SMART (B0h, feature D5h) aborted */
	s[4 * 12 + 1] = 0xd5;
	s[4 * 12 + 7] = 0xb0;
	s[60 + 1] = 0x04; /* ABRT */
	s[60 + 7] = 0x51;
	s[60 + 27] = 0x03;
	s[60 + 28] = 0x3a; /* 12346 h */
	s[60 + 29] = 0x30;
	log[452] = 0x07; /* 7 errors over the lifetime */
	seal(log);
	assert_int_equal(ata_smart_parse_error_log(log, sizeof(log), &el), 0);
	assert_int_equal(el.error_count, 7);
	assert_int_equal(el.count, 2);
	assert_true(el.checksum_ok);
	assert_int_equal(el.e[0].command, 0xb0);
	assert_int_equal(el.e[0].feature, 0xd5);
	assert_int_equal(el.e[0].error, 0x04);
	assert_int_equal(el.e[0].state, 0x03);
	assert_int_equal(el.e[0].power_on_hours, 12346);
	assert_int_equal(el.e[1].command, 0x25);
	assert_int_equal(el.e[1].error, 0x40);
	assert_int_equal(el.e[1].status, 0x51);
	assert_int_equal(el.e[1].lba, 0x0a345678);
	assert_int_equal(el.e[1].state, 0x01);
	assert_int_equal(el.e[1].power_on_hours, 12345);

	/* a changed byte: the same entries, the checksum says so */
	log[460] ^= 0x10; /* reserved */
	assert_int_equal(ata_smart_parse_error_log(log, sizeof(log), &el), 0);
	assert_int_equal(el.count, 2);
	assert_false(el.checksum_ok);
	/* index 0 (no error logged) or beyond 5: no entries, the count kept */
	log[1] = 0;
	assert_int_equal(ata_smart_parse_error_log(log, sizeof(log), &el), 0);
	assert_int_equal(el.count, 0);
	assert_int_equal(el.error_count, 7);
	log[1] = 6;
	assert_int_equal(ata_smart_parse_error_log(log, sizeof(log), &el), 0);
	assert_int_equal(el.count, 0);
	assert_int_equal(ata_smart_parse_error_log(log, 100, &el), -EPROTO);
	assert_int_equal(el.error_count, 0);
}

static void test_status_regs(void **state)
{
	struct ata_regs r = { .status = 0x50, .lba = 0xc24f00 };

	assert_int_equal(ata_smart_status_from_regs(&r), 1);
	r.lba = 0x2cf400;
	assert_int_equal(ata_smart_status_from_regs(&r), 0);
	r.lba = 0;
	assert_int_equal(ata_smart_status_from_regs(&r), -EPROTO);
	r.lba = 0xc2f400; /* one half of each */
	assert_int_equal(ata_smart_status_from_regs(&r), -EPROTO);
}

/* the selective self-test log (ACS-3 A.19) */
static void test_selective_log(void **state)
{
	uint8_t b[512];
	uint64_t first[2] = { 0, 0x123456789aULL }, last[2] = { 1000, 0x123456789bULL };

	(void)state;
	assert_int_equal(ata_smart_build_selective_log(b, first, last, 2), 0);
	assert_int_equal(b[0] | b[1] << 8, 1);
	assert_int_equal(b[2 + 8], 0xe8); /* span 1 end 1000, little-endian */
	assert_int_equal(b[2 + 9], 0x03);
	assert_int_equal(b[18], 0x9a); /* span 2 start */
	assert_int_equal(b[22], 0x12);
	assert_int_equal(b[26], 0x9b); /* span 2 end */
	for (unsigned i = 34; i < 511; i++)
		assert_int_equal(b[i], 0);
	assert_true(ata_checksum_ok(b));
	assert_int_equal(ata_smart_build_selective_log(b, first, last, 6), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selective_log),  cmocka_unit_test(test_parse_data),
		cmocka_unit_test(test_status_text),    cmocka_unit_test(test_selftest_log06),
		cmocka_unit_test(test_selftest_log07), cmocka_unit_test(test_error_log),
		cmocka_unit_test(test_status_regs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
