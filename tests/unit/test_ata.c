/*
 * test_ata.c - ATA task files (every field, against ACS-3/ACS-4 and ZAC)
 * and the IDENTIFY DEVICE parser, on IDENTIFY data laid out word by word
 * from ACS-4.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/ata.h"

/* ---- task files -------------------------------------------------------- */

static void check_tf(const struct ata_tf *tf, uint8_t command, uint16_t feature, uint16_t count,
		     uint64_t lba, uint8_t device, bool ext, enum ata_proto proto, unsigned xfer,
		     bool write)
{
	assert_int_equal(tf->command, command);
	assert_int_equal(tf->feature, feature);
	assert_int_equal(tf->count, count);
	assert_int_equal(tf->lba, lba);
	assert_int_equal(tf->device, device);
	assert_int_equal(tf->ext, ext);
	assert_int_equal(tf->proto, proto);
	assert_int_equal(tf->xfer_blocks, xfer);
	assert_int_equal(tf->write, write);
}

static void test_tf_identify_native_max(void **state)
{
	struct ata_tf tf;

	memset(&tf, 0xee, sizeof(tf));
	ata_tf_identify(&tf);
	check_tf(&tf, 0xec, 0, 1, 0, 0x00, false, ATA_PROTO_PIO_IN, 1, false);
	memset(&tf, 0xee, sizeof(tf));
	ata_tf_read_native_max(&tf, false);
	check_tf(&tf, 0xf8, 0, 0, 0, 0x40, false, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_read_native_max(&tf, true);
	check_tf(&tf, 0x27, 0, 0, 0, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
}

static void test_tf_set_max(void **state)
{
	struct ata_tf tf;

	memset(&tf, 0xee, sizeof(tf));
	/* 28-bit: LBA 27:24 go to device 3:0; non-volatile: VV=1 */
	ata_tf_set_max_address(&tf, false, 0x950f8af, false);
	check_tf(&tf, 0xf9, 0, 1, 0x50f8af, 0x49, false, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_set_max_address(&tf, false, 0x0fffffff, true);
	check_tf(&tf, 0xf9, 0, 0, 0xffffff, 0x4f, false, ATA_PROTO_NON_DATA, 0, false);
	/* 48-bit */
	ata_tf_set_max_address(&tf, true, 0x3a3812aafULL, false);
	check_tf(&tf, 0x37, 0, 1, 0x3a3812aafULL, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_set_max_address(&tf, true, 0x12a19e0afULL, true);
	check_tf(&tf, 0x37, 0, 0, 0x12a19e0afULL, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_set_max_freeze_lock(&tf);
	check_tf(&tf, 0xf9, 0x04, 0, 0, 0x00, false, ATA_PROTO_NON_DATA, 0, false);
}

static void test_tf_amac_dco(void **state)
{
	struct ata_tf tf;

	memset(&tf, 0xee, sizeof(tf));
	ata_tf_amac_get_native(&tf);
	check_tf(&tf, 0x78, 0x0000, 0, 0, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_amac_set_accessible(&tf, 0x12a19e0afULL);
	check_tf(&tf, 0x78, 0x0001, 0, 0x12a19e0afULL, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_amac_freeze(&tf);
	check_tf(&tf, 0x78, 0x0002, 0, 0, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_dco_identify(&tf);
	check_tf(&tf, 0xb1, 0xc2, 1, 0, 0x00, false, ATA_PROTO_PIO_IN, 1, false);
	ata_tf_dco_restore(&tf);
	check_tf(&tf, 0xb1, 0xc0, 0, 0, 0x00, false, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_dco_freeze(&tf);
	check_tf(&tf, 0xb1, 0xc1, 0, 0, 0x00, false, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_dco_set(&tf);
	check_tf(&tf, 0xb1, 0xc3, 1, 0, 0x00, false, ATA_PROTO_PIO_OUT, 1, true);
}

static void test_tf_smart_logs(void **state)
{
	struct ata_tf tf;

	memset(&tf, 0xee, sizeof(tf));
	/* SMART: LBA mid 0x4f, high 0xc2 */
	ata_tf_smart(&tf, 0xd0, 0, 0);
	check_tf(&tf, 0xb0, 0xd0, 1, 0xc24f00, 0x00, false, ATA_PROTO_PIO_IN, 1, false);
	ata_tf_smart(&tf, 0xd1, 0, 1);
	check_tf(&tf, 0xb0, 0xd1, 1, 0xc24f00, 0x00, false, ATA_PROTO_PIO_IN, 1, false);
	ata_tf_smart(&tf, 0xda, 0, 0);
	check_tf(&tf, 0xb0, 0xda, 0, 0xc24f00, 0x00, false, ATA_PROTO_NON_DATA, 0, false);
	/* self-test log (0x06), 1 block */
	ata_tf_smart(&tf, 0xd5, 0x06, 1);
	check_tf(&tf, 0xb0, 0xd5, 1, 0xc24f06, 0x00, false, ATA_PROTO_PIO_IN, 1, false);
	/* extended self-test, off-line mode */
	ata_tf_smart(&tf, 0xd4, 0x02, 0);
	check_tf(&tf, 0xb0, 0xd4, 0, 0xc24f02, 0x00, false, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_smart(&tf, 0xd6, 0x80, 2);
	check_tf(&tf, 0xb0, 0xd6, 2, 0xc24f80, 0x00, false, ATA_PROTO_PIO_OUT, 2, true);
	/* READ LOG EXT: log 0x30 (IDENTIFY DEVICE data) page 0x0102, 1 block:
	 * LBA 7:0 log, 15:8 page 7:0, 39:32 page 15:8 */
	ata_tf_read_log_ext(&tf, 0x30, 0x0102, 1);
	check_tf(&tf, 0x2f, 0, 1, 0x0100000230ULL, 0x00, true, ATA_PROTO_PIO_IN, 1, false);
	ata_tf_read_log_ext(&tf, 0x00, 0, 0);
	check_tf(&tf, 0x2f, 0, 0, 0, 0x00, true, ATA_PROTO_PIO_IN, 65536, false);
}

static void test_tf_misc(void **state)
{
	struct ata_tf tf;

	memset(&tf, 0xee, sizeof(tf));
	ata_tf_security_freeze_lock(&tf);
	check_tf(&tf, 0xf5, 0, 0, 0, 0, false, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_check_power_mode(&tf);
	check_tf(&tf, 0xe5, 0, 0, 0, 0, false, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_flush_cache_ext(&tf);
	check_tf(&tf, 0xea, 0, 0, 0, 0, true, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_read_verify_ext(&tf, 0x123456789aULL, 65536);
	check_tf(&tf, 0x42, 0, 0, 0x123456789aULL, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	ata_tf_read_verify_ext(&tf, 0, 256);
	check_tf(&tf, 0x42, 0, 256, 0, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	/* REPORT ZONES EXT: action 0 in FEATURE 7:0, PARTIAL + options in 15:8 */
	ata_tf_report_zones_ext(&tf, 0x80000, 16, 0, false);
	check_tf(&tf, 0x4a, 0x0000, 16, 0x80000, 0x40, true, ATA_PROTO_DMA, 16, false);
	ata_tf_report_zones_ext(&tf, 0, 1, 0x3f, true);
	check_tf(&tf, 0x4a, 0xbf00, 1, 0, 0x40, true, ATA_PROTO_DMA, 1, false);
}

static void test_regs_lba(void **state)
{
	struct ata_regs r = { .lba = 0xabcdef123456ULL, .device = 0xe7 };

	assert_int_equal(ata_regs_lba(&r, true), 0xabcdef123456ULL);
	assert_int_equal(ata_regs_lba(&r, false), 0x7123456);
}

/* ---- IDENTIFY DEVICE --------------------------------------------------- */

static void put_word(uint8_t *id, unsigned w, uint16_t v)
{
	id[2 * w] = (uint8_t)v;
	id[2 * w + 1] = (uint8_t)(v >> 8);
}

static void put_qword(uint8_t *id, unsigned w, uint64_t v)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		put_word(id, w + i, (uint16_t)(v >> (16 * i)));
}

/* ATA string: space padded, first character of each pair in the high byte */
static void put_string(uint8_t *id, unsigned w, unsigned nwords, const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i < 2 * nwords; i++)
		id[2 * w + (i ^ 1)] = (uint8_t)(i < n ? s[i] : ' ');
}

static void seal(uint8_t *id)
{
	uint8_t sum = 0;
	unsigned i;

	id[510] = 0xa5;
	for (i = 0; i < 511; i++)
		sum = (uint8_t)(sum + id[i]);
	id[511] = (uint8_t)-sum;
}

/* A 4 TB 7200 rpm 512e SATA disk, ACS-3 style. */
static void make_identify(uint8_t *id)
{
	memset(id, 0, 512);
	put_word(id, 0, 0x0040);
	put_string(id, 10, 10, "     WD-WCC4E1234567");
	put_string(id, 23, 4, "82.00A82");
	put_string(id, 27, 20, "WDC WD40EFRX-68WT0N0");
	put_word(id, 49, 0x2f00);
	put_word(id, 60, 0xffff);
	put_word(id, 61, 0x0fff);
	put_word(id, 75, 0x001f);
	put_word(id, 76, 0x010e);
	put_word(id, 80, 0x07f0);
	put_word(id, 82, 0x746b); /* SMART, security, HPA supported */
	put_word(id, 83, 0x7c01); /* valid, 48-bit, DCO */
	put_word(id, 84, 0x6123); /* valid, WWN, GPL, self-test */
	put_word(id, 85, 0x7469); /* SMART and HPA enabled */
	put_word(id, 86, 0xbc01); /* 119-120 valid, 48-bit */
	put_word(id, 87, 0x6123);
	put_qword(id, 100, 7814037168ULL);
	put_word(id, 106, 0x6003); /* 8 logical per physical */
	put_word(id, 108, 0x5001);
	put_word(id, 109, 0x4ee2);
	put_word(id, 110, 0x0abc);
	put_word(id, 111, 0xdef0);
	put_word(id, 119, 0x4100); /* valid, AMAC */
	put_word(id, 128, 0x0029); /* supported, frozen, enhanced erase */
	put_word(id, 168, 0x0002);
	put_word(id, 217, 7200);
	seal(id);
}

static void test_identify_full(void **state)
{
	struct ata_identify id;
	uint8_t buf[512];

	make_identify(buf);
	assert_int_equal(ata_parse_identify(buf, sizeof(buf), &id), 0);
	assert_string_equal(id.model, "WDC WD40EFRX-68WT0N0");
	assert_string_equal(id.serial, "WD-WCC4E1234567");
	assert_string_equal(id.firmware, "82.00A82");
	assert_int_equal(id.wwn, 0x50014ee20abcdef0ULL);
	assert_true(id.lba48);
	assert_int_equal(id.capacity28, 0x0fffffff);
	assert_int_equal(id.capacity48, 7814037168ULL);
	assert_int_equal(id.capacity_ext, 0);
	assert_int_equal(id.capacity, 7814037168ULL);
	assert_int_equal(id.logical_size, 512);
	assert_int_equal(id.physical_size, 4096);
	assert_int_equal(id.rotation_rate, 7200);
	assert_int_equal(id.form_factor, 2);
	assert_int_equal(id.major_version, 0x07f0);
	assert_true(id.smart_supported);
	assert_true(id.smart_enabled);
	assert_true(id.hpa_supported);
	assert_true(id.hpa_enabled);
	assert_true(id.amac_supported);
	assert_true(id.dco_supported);
	assert_true(id.sec_supported);
	assert_false(id.sec_enabled);
	assert_false(id.sec_locked);
	assert_true(id.sec_frozen);
	assert_false(id.sec_count_expired);
	assert_true(id.ncq);
	assert_int_equal(id.ncq_depth, 32);
	assert_int_equal(id.zoned, 0);
	assert_true(id.smart_selftest);
	assert_true(id.gpl);
	assert_true(id.checksum_valid);
}

static void test_identify_ext_4kn_zoned(void **state)
{
	struct ata_identify id;
	uint8_t buf[512];

	make_identify(buf);
	/* ACS-4: extended number of user addressable sectors, host aware */
	put_word(buf, 69, 0x0009);
	put_qword(buf, 100, 0xffffffffULL);
	put_qword(buf, 230, 27344764928ULL);
	/* 4Kn: logical sector 2048 words, one per physical */
	put_word(buf, 106, 0x5000);
	put_word(buf, 117, 0x0800);
	put_word(buf, 118, 0x0000);
	put_word(buf, 217, 0x0001);
	put_word(buf, 168, 0x0003);
	seal(buf);
	assert_int_equal(ata_parse_identify(buf, sizeof(buf), &id), 0);
	assert_int_equal(id.capacity_ext, 27344764928ULL);
	assert_int_equal(id.capacity, 27344764928ULL);
	assert_int_equal(id.capacity48, 0xffffffffULL);
	assert_int_equal(id.logical_size, 4096);
	assert_int_equal(id.physical_size, 4096);
	assert_int_equal(id.zoned, 1);
	assert_int_equal(id.rotation_rate, 1);
	assert_int_equal(id.form_factor, 3);
}

static void test_identify_28bit_and_validity(void **state)
{
	struct ata_identify id;
	uint8_t buf[512];

	make_identify(buf);
	/* an old 80 GB disk: no 48-bit, 156301488 sectors */
	put_word(buf, 60, 0xf8b0);
	put_word(buf, 61, 0x0950);
	put_qword(buf, 100, 0);
	put_word(buf, 83, 0x4000);
	put_word(buf, 86, 0x0000);
	put_word(buf, 106, 0x0000); /* not valid: 512/512 */
	put_word(buf, 255, 0x0000); /* no signature: nothing to check */
	assert_int_equal(ata_parse_identify(buf, sizeof(buf), &id), 0);
	assert_false(id.lba48);
	assert_int_equal(id.capacity, 156301488);
	assert_int_equal(id.physical_size, 512);
	assert_false(id.amac_supported); /* word 86 bit 15 clear */
	assert_true(id.checksum_valid);

	/* words 82/83, 84 and 87 not valid: their bits mean nothing */
	make_identify(buf);
	put_word(buf, 83, 0xffff);
	put_word(buf, 84, 0x0000);
	put_word(buf, 87, 0x8000);
	put_word(buf, 119, 0xc100);
	seal(buf);
	assert_int_equal(ata_parse_identify(buf, sizeof(buf), &id), 0);
	assert_false(id.hpa_supported);
	assert_false(id.smart_supported);
	assert_false(id.smart_enabled);
	assert_false(id.hpa_enabled);
	assert_false(id.lba48);
	assert_false(id.gpl);
	assert_false(id.amac_supported);
	assert_int_equal(id.wwn, 0);
	assert_int_equal(id.capacity, 0x0fffffff);
	assert_true(id.sec_supported); /* word 128 still says so */
}

static void test_identify_checksum_and_truncated(void **state)
{
	struct ata_identify id;
	uint8_t buf[512];
	size_t len;

	make_identify(buf);
	buf[100] ^= 0x01;
	assert_int_equal(ata_parse_identify(buf, sizeof(buf), &id), -EPROTO);
	assert_false(id.checksum_valid);
	assert_string_equal(id.model, "WDC WD40EFRX-68WT0N0"); /* still filled */

	/* words 117-118 absurd (found by the fuzzer: 0x38333732 words
	 * overflowed the byte count) */
	make_identify(buf);
	put_word(buf, 106, 0x746b);
	put_word(buf, 117, 0x3732);
	put_word(buf, 118, 0x3833);
	seal(buf);
	assert_int_equal(ata_parse_identify(buf, sizeof(buf), &id), -EPROTO);
	assert_int_equal(id.logical_size, 512);
	assert_true(id.physical_size >= id.logical_size);
	put_word(buf, 117, 0x00ff); /* shorter than 256 words */
	put_word(buf, 118, 0x0000);
	seal(buf);
	assert_int_equal(ata_parse_identify(buf, sizeof(buf), &id), -EPROTO);

	make_identify(buf);
	for (len = 0; len < 512; len += 37)
		assert_int_equal(ata_parse_identify(buf, len, &id), -EPROTO);
	assert_int_equal(ata_parse_identify(buf, 511, &id), -EPROTO);
	assert_int_equal(ata_parse_identify(NULL, 512, &id), -EPROTO);
}

/* Byte 511 makes the 512 bytes sum to 0: the value set is the one ACS
 * gives (two's complement of the sum of bytes 0-510), and one changed
 * byte anywhere, the checksum byte included, is found. */
static void test_checksum(void **state)
{
	uint8_t buf[512];

	memset(buf, 0, sizeof(buf));
	assert_true(ata_checksum_ok(buf));
	for (unsigned i = 0; i < 511; i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	buf[511] = 0x55;
	assert_false(ata_checksum_ok(buf));
	ata_checksum_set(buf);
	/* bytes 0-510 sum to 0x04 (mod 256): 913668 = 0xdf104 */
	assert_int_equal(buf[511], 0x100 - 0x04);
	assert_true(ata_checksum_ok(buf));
	buf[0] ^= 0x80;
	assert_false(ata_checksum_ok(buf));
	buf[0] ^= 0x80;
	buf[511]++;
	assert_false(ata_checksum_ok(buf));
	/* a structure with its signature: the checksum covers it */
	make_identify(buf);
	assert_true(ata_checksum_ok(buf));
	buf[510] = 0;
	assert_false(ata_checksum_ok(buf));
}

static void test_id_string(void **state)
{
	/* "WDC " as stored: byte-swapped per word, with a control byte and
	 * NUL padding */
	static const uint8_t raw[12] = { 'D', 'W', ' ', 'C', 'A', 0x07, 'B', 'C', 0, 0, 0, 0 };
	char out[16], small[4];

	ata_id_string(raw, 0, 6, out, sizeof(out));
	assert_string_equal(out, "WDC ?ACB");
	ata_id_string(raw, 0, 6, small, sizeof(small));
	assert_string_equal(small, "WDC");
	ata_id_string(raw, 4, 2, out, sizeof(out));
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tf_identify_native_max),
		cmocka_unit_test(test_tf_set_max),
		cmocka_unit_test(test_tf_amac_dco),
		cmocka_unit_test(test_tf_smart_logs),
		cmocka_unit_test(test_tf_misc),
		cmocka_unit_test(test_regs_lba),
		cmocka_unit_test(test_identify_full),
		cmocka_unit_test(test_identify_ext_4kn_zoned),
		cmocka_unit_test(test_identify_28bit_and_validity),
		cmocka_unit_test(test_identify_checksum_and_truncated),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_id_string),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
