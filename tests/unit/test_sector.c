/*
 * test_sector.c - the sector size codec: VPD B7h and the ATA Sector
 * Configuration log (answers written from SBC-4 and ACS-4, cut short), the
 * SET SECTOR CONFIGURATION EXT task file, the fast FORMAT UNIT and the
 * block length put into a MODE SELECT block descriptor.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/sat.h"
#include "shortstroke/sector.h"

static void test_vpd_b7(void **state)
{
	/* 512 with protection, 4096 without, a zero entry */
	static const uint8_t b7[4 + 24] = {
		0x00, 0xb7, 0x00, 24,			  /* header */
		0x00, 0x00, 0x02, 0x00, 0x0f, 0x0f, 0, 0, /* 512, P_I_I_SUP */
		0x00, 0x00, 0x10, 0x00, 0x00, 0x01, 0, 0, /* 4096 */
		0,    0,    0,	  0,	0,    0,    0, 0, /* 0: skipped */
	};
	struct sector_sizes s;

	(void)state;
	assert_int_equal(sector_parse_vpd_b7(b7, sizeof(b7), &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.s[0].bytes, 512);
	assert_true(s.s[0].pi);
	assert_int_equal(s.s[1].bytes, 4096);
	assert_false(s.s[1].pi);
	assert_non_null(sector_find(&s, 4096));
	assert_null(sector_find(&s, 520));
	/* cut short: PAGE LENGTH past the buffer */
	assert_int_equal(sector_parse_vpd_b7(b7, 20, &s), -EPROTO);
	/* another page */
	{
		uint8_t other[sizeof(b7)];

		memcpy(other, b7, sizeof(b7));
		other[1] = 0xb1;
		assert_int_equal(sector_parse_vpd_b7(other, sizeof(other), &s), -EPROTO);
	}
}

static void test_ata_log(void **state)
{
	uint8_t log[512];
	struct sector_sizes s;

	(void)state;
	memset(log, 0, sizeof(log));
	/* descriptor 0: 512 bytes (256 words), check 0x1234; descriptor 2:
	 * 4096 (2048 words), check 0xbeef; descriptor 1: no check, not offered */
	log[2] = 0x34;
	log[3] = 0x12;
	log[5] = 0x01;
	log[16 + 5] = 0x01;
	log[32 + 2] = 0xef;
	log[32 + 3] = 0xbe;
	log[32 + 5] = 0x08;
	assert_int_equal(sector_parse_ata_log(log, sizeof(log), &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.s[0].bytes, 512);
	assert_int_equal(s.s[0].check, 0x1234);
	assert_int_equal(s.s[0].index, 0);
	assert_int_equal(s.s[1].bytes, 4096);
	assert_int_equal(s.s[1].check, 0xbeef);
	assert_int_equal(s.s[1].index, 2);
	assert_int_equal(sector_parse_ata_log(log, 127, &s), -EPROTO);
}

static void test_builders(void **state)
{
	struct ata_tf tf, back;
	uint8_t cdb[16];
	uint8_t param[16] = { 0, 0, 0, 0, 0, 0, 0, 8, 0xff, 0xff, 0xff, 0xff, 0, 0x00, 0x02, 0x00 };

	(void)state;
	sector_tf_set_config(&tf, 0xbeef, 2);
	assert_int_equal(tf.command, 0xb2);
	assert_int_equal(tf.feature, 0xbeef);
	assert_int_equal(tf.count, 2);
	assert_true(tf.ext);
	sat_build_ata_pt16(cdb, &tf, false);
	assert_int_equal(cdb[3], 0xbe);
	assert_int_equal(cdb[4], 0xef);
	assert_int_equal(cdb[6], 2);
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &back, NULL), 0);
	assert_int_equal(back.feature, 0xbeef);

	assert_int_equal(sector_build_fast_format(cdb), 6);
	assert_int_equal(cdb[0], 0x04);
	assert_int_equal(cdb[1] & 0x10, 0x10); /* FMTDATA */
	assert_int_equal(cdb[4] & 0x03, 0x01); /* FFMT 01b */

	assert_int_equal(sector_mode_set_length(param, sizeof(param), 4096), 0);
	assert_int_equal(param[13], 0x00);
	assert_int_equal(param[14], 0x10);
	assert_int_equal(param[15], 0x00);
	assert_int_equal(param[8], 0xff); /* the block count untouched */
	param[7] = 0;
	assert_int_equal(sector_mode_set_length(param, sizeof(param), 4096), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vpd_b7),
		cmocka_unit_test(test_ata_log),
		cmocka_unit_test(test_builders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
