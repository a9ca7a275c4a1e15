/*
 * test_elem.c - the storage element codec: GET PHYSICAL ELEMENT STATUS
 * answers (SCSI big-endian, ATA little-endian, cut short), the health
 * classes, and the bytes of every builder (SCSI CDBs, ATA task files as
 * ATA PASS-THROUGH (16) carries them).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/elem.h"
#include "shortstroke/sat.h"

/* An answer written from SBC-4's table: 4 elements on the drive, 2
 * returned, element 3 being depopulated, at most 2 may be, 1 is.
 * Element 1: storage, health 0x20, 0x1000 blocks, RALWD clear. Element 3:
 * depopulating (0xfe), capacity not specified, RALWD set. */
static const uint8_t scsi_answer[32 * 3] = {
	[3] = 4,	  [7] = 2,	    [11] = 3,	      [13] = 2,		[15] = 1,
	[32 + 7] = 1,	  [32 + 14] = 0x01, [32 + 15] = 0x20, [32 + 22] = 0x10, [64 + 7] = 3,
	[64 + 13] = 0x01, [64 + 14] = 0x01, [64 + 15] = 0xfe, [64 + 16] = 0xff, [64 + 17] = 0xff,
	[64 + 18] = 0xff, [64 + 19] = 0xff, [64 + 20] = 0xff, [64 + 21] = 0xff, [64 + 22] = 0xff,
	[64 + 23] = 0xff,
};

/* The same as ATA returns it: little-endian fields. */
static const uint8_t ata_answer[32 * 3] = {
	[0] = 4,	  [4] = 2,	    [8] = 3,	      [12] = 2,		[14] = 1,
	[32 + 4] = 1,	  [32 + 14] = 0x01, [32 + 15] = 0x20, [32 + 17] = 0x10, [64 + 4] = 3,
	[64 + 13] = 0x01, [64 + 14] = 0x01, [64 + 15] = 0xfe, [64 + 16] = 0xff, [64 + 17] = 0xff,
	[64 + 18] = 0xff, [64 + 19] = 0xff, [64 + 20] = 0xff, [64 + 21] = 0xff, [64 + 22] = 0xff,
	[64 + 23] = 0xff,
};

static void check_answer(const struct elem_status_hdr *h, const struct elem_desc *d, size_t n)
{
	assert_int_equal(h->total, 4);
	assert_int_equal(h->returned, 2);
	assert_int_equal(h->depop_id, 3);
	assert_int_equal(h->max_depop, 2);
	assert_int_equal(h->depopulated, 1);
	assert_int_equal(h->here, 2);
	assert_int_equal(n, 2);
	assert_int_equal(d[0].id, 1);
	assert_int_equal(d[0].type, ELEM_TYPE_STORAGE);
	assert_int_equal(d[0].health, 0x20);
	assert_false(d[0].restore_ok);
	assert_int_equal(d[0].capacity, 0x1000);
	assert_int_equal(d[1].id, 3);
	assert_true(d[1].restore_ok);
	assert_int_equal(d[1].health, ELEM_HEALTH_DEPOPULATING);
	assert_true(d[1].capacity == ELEM_CAPACITY_UNSPECIFIED);
}

static void test_parse_scsi(void **state)
{
	struct elem_status_hdr h;
	struct elem_desc d[4];
	size_t n;

	(void)state;
	assert_int_equal(elem_parse_status(scsi_answer, sizeof(scsi_answer), false, &h, d, 4, &n),
			 0);
	check_answer(&h, d, n);
}

static void test_parse_ata(void **state)
{
	struct elem_status_hdr h;
	struct elem_desc d[4];
	size_t n;

	(void)state;
	assert_int_equal(elem_parse_status(ata_answer, sizeof(ata_answer), true, &h, d, 4, &n), 0);
	check_answer(&h, d, n);
	/* the other byte order reads other numbers: the flag matters */
	assert_int_equal(elem_parse_status(ata_answer, sizeof(ata_answer), false, &h, d, 4, &n), 0);
	assert_int_not_equal(h.total, 4);
}

static void test_parse_short(void **state)
{
	struct elem_status_hdr h;
	struct elem_desc d[4];
	size_t n = 99;

	(void)state;
	assert_int_equal(elem_parse_status(scsi_answer, 15, false, &h, d, 4, &n), -EPROTO);
	assert_int_equal(n, 0);
	assert_int_equal(elem_parse_status(NULL, 0, false, &h, d, 4, &n), -EPROTO);
	/* the header alone (an allocation length of 32) */
	assert_int_equal(elem_parse_status(scsi_answer, 32, false, &h, d, 4, &n), 0);
	assert_int_equal(h.total, 4);
	assert_int_equal(h.here, 0);
	assert_int_equal(n, 0);
	/* one descriptor and half of the next: the half is dropped */
	assert_int_equal(elem_parse_status(scsi_answer, 80, false, &h, d, 4, &n), 0);
	assert_int_equal(h.here, 1);
	assert_int_equal(n, 1);
	assert_int_equal(d[0].id, 1);
	/* room for one: one stored, two here */
	assert_int_equal(elem_parse_status(scsi_answer, sizeof(scsi_answer), false, &h, d, 1, &n),
			 0);
	assert_int_equal(h.here, 2);
	assert_int_equal(n, 1);
}

static void test_health(void **state)
{
	(void)state;
	assert_int_equal(elem_health_class(0), ELEM_NOT_REPORTED);
	assert_int_equal(elem_health_class(1), ELEM_OK);
	assert_int_equal(elem_health_class(0x63), ELEM_OK);
	assert_int_equal(elem_health_class(0x64), ELEM_AT_LIMIT);
	assert_int_equal(elem_health_class(0x65), ELEM_OVER_LIMIT);
	assert_int_equal(elem_health_class(0xcf), ELEM_OVER_LIMIT);
	assert_int_equal(elem_health_class(0xd0), ELEM_RESERVED);
	assert_int_equal(elem_health_class(0xfa), ELEM_RESERVED);
	assert_int_equal(elem_health_class(0xfb), ELEM_RESTORE_ERROR);
	assert_int_equal(elem_health_class(0xfc), ELEM_RESTORING);
	assert_int_equal(elem_health_class(0xfd), ELEM_DEPOP_ERROR);
	assert_int_equal(elem_health_class(0xfe), ELEM_DEPOPULATING);
	assert_int_equal(elem_health_class(0xff), ELEM_DEPOPULATED);
	assert_string_equal(elem_health_name(0x10), "ok");
	assert_string_equal(elem_health_name(0x64), "at limit");
	assert_string_equal(elem_health_name(0xff), "depopulated");
	assert_false(elem_health_near_limit(ELEM_HEALTH_NEAR - 1));
	assert_true(elem_health_near_limit(ELEM_HEALTH_NEAR));
	assert_true(elem_health_near_limit(0x64));
	assert_true(elem_health_near_limit(0x90));
	assert_false(elem_health_near_limit(0xff));
	assert_true(elem_health_in_service(0x90));
	assert_false(elem_health_in_service(0xff));
	assert_false(elem_health_in_service(0xfe));
}

static void test_scsi_builders(void **state)
{
	static const uint8_t get[16] = {
		0x9e, 0x17, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0x02, 0, 0x41, 0
	};
	static const uint8_t rem[16] = { 0x9e, 0x18, 0, 0, 0, 0, 0x12, 0x34,
					 0x56, 0x78, 0, 0, 0, 3, 0,    0 };
	static const uint8_t res[16] = { 0x9e, 0x19 };
	static const uint8_t zon[16] = {
		0x9e, 0x1a, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x02, 0x03, 0x04
	};
	uint8_t cdb[16];

	(void)state;
	assert_int_equal(
	    elem_build_get_status(cdb, 5, 0x200, ELEM_FILTER_OUT_OF_SPEC, ELEM_REPORT_STORAGE), 16);
	assert_memory_equal(cdb, get, 16);
	assert_int_equal(elem_build_remove(cdb, 3, 0x12345678), 16);
	assert_memory_equal(cdb, rem, 16);
	assert_int_equal(elem_build_restore(cdb), 16);
	assert_memory_equal(cdb, res, 16);
	assert_int_equal(elem_build_remove_zones(cdb, 0x01020304), 16);
	assert_memory_equal(cdb, zon, 16);
}

static void test_ata_builders(void **state)
{
	struct ata_tf tf, back;
	uint8_t cdb[16];

	(void)state;
	elem_tf_get_status(&tf, 2, 1, ELEM_FILTER_ALL, ELEM_REPORT_STORAGE);
	assert_int_equal(tf.command, 0x12);
	assert_int_equal(tf.proto, ATA_PROTO_DMA);
	assert_true(tf.ext);
	assert_int_equal(tf.feature, 0x0100);
	assert_int_equal(tf.lba, 2);
	assert_int_equal(tf.count, 1);
	assert_int_equal(tf.xfer_blocks, 1);
	/* through SAT: FEATURE 15:8 in CDB byte 3, a DMA data-in of one block */
	sat_build_ata_pt16(cdb, &tf, false);
	assert_int_equal(cdb[14], 0x12);
	assert_int_equal(cdb[3], 0x01);
	assert_int_equal(cdb[4], 0x00);
	assert_int_equal(cdb[6], 1);
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &back, NULL), 0);
	assert_int_equal(back.feature, 0x0100);
	assert_int_equal(back.xfer_blocks, 1);

	elem_tf_remove(&tf, 0x00070003, 999999);
	assert_int_equal(tf.command, 0x7c);
	assert_int_equal(tf.proto, ATA_PROTO_NON_DATA);
	assert_int_equal(tf.count, 3);
	assert_int_equal(tf.feature, 7);
	assert_int_equal(tf.lba, 999999);
	assert_int_equal(elem_tf_element(&tf), 0x00070003);
	sat_build_ata_pt16(cdb, &tf, false);
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &back, NULL), 0);
	assert_int_equal(elem_tf_element(&back), 0x00070003);
	assert_int_equal(back.lba, 999999);

	elem_tf_restore(&tf);
	assert_int_equal(tf.command, 0x7d);
	assert_int_equal(tf.count, 0);
	assert_int_equal(tf.lba, 0);
	elem_tf_remove_zones(&tf, 2);
	assert_int_equal(tf.command, 0x7e);
	assert_int_equal(elem_tf_element(&tf), 2);
	assert_int_equal(tf.lba, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_scsi),    cmocka_unit_test(test_parse_ata),
		cmocka_unit_test(test_parse_short),   cmocka_unit_test(test_health),
		cmocka_unit_test(test_scsi_builders), cmocka_unit_test(test_ata_builders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
