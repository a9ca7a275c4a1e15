/*
 * test_cpr.c - the concurrent positioning ranges codec: the ATA log 47h
 * (little-endian) and VPD page B9h (big-endian) parsed from answers written
 * byte by byte from ACS-5 and SBC-5, the builders the simulator answers
 * with read back, what is refused, and the checks of a range set.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/cpr.h"

/* Two actuators of an 18 TB drive: 17579202560 blocks (0x4_17cd_5800)
 * each, 8 heads each. */
#define HALF 0x417cd5800ull

static void put_le(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_be(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[7 - i] = (uint8_t)(v >> (8 * i));
}

/* Descriptor i at 64 + 32 i: its number, heads, first LBA and LBAs */
static void desc(uint8_t *b, unsigned i, uint8_t heads, uint64_t lba, uint64_t n, bool be)
{
	uint8_t *p = b + 64 + 32 * i;

	p[0] = (uint8_t)i;
	p[1] = heads;
	(be ? put_be : put_le)(p + 8, lba);
	(be ? put_be : put_le)(p + 16, n);
}

static void test_ata_log(void **state)
{
	uint8_t b[512];
	struct cpr_ranges r;

	(void)state;
	memset(b, 0, sizeof(b));
	b[0] = 2;      /* number of descriptors */
	b[64 + 0] = 0; /* range number */
	b[64 + 1] = 8; /* storage elements */
	put_le(b + 64 + 16, HALF);
	b[96 + 0] = 1;
	b[96 + 1] = 8;
	put_le(b + 96 + 8, HALF);
	put_le(b + 96 + 16, HALF);
	assert_int_equal(cpr_parse_ata_log(b, sizeof(b), &r), 0);
	assert_int_equal(r.n, 2);
	assert_true(cpr_multi(&r));
	assert_int_equal(r.r[0].lba, 0);
	assert_int_equal(r.r[0].blocks, HALF);
	assert_int_equal(r.r[1].lba, HALF);
	assert_int_equal(r.r[1].blocks, HALF);
	assert_int_equal(r.r[1].elements, 8);
	assert_true(cpr_valid(&r, 2 * HALF));
	assert_false(cpr_valid(&r, 2 * HALF + 1));
	assert_true(cpr_valid(&r, 0));

	/* out of order numbering, too many descriptors, a short buffer */
	b[96] = 2;
	assert_int_equal(cpr_parse_ata_log(b, sizeof(b), &r), -EPROTO);
	assert_int_equal(r.n, 0);
	b[96] = 1;
	b[0] = 15; /* 64 + 15 x 32 = 544 > 512 */
	assert_int_equal(cpr_parse_ata_log(b, sizeof(b), &r), -EPROTO);
	b[0] = 2;
	assert_int_equal(cpr_parse_ata_log(b, 511, &r), -EPROTO);
	assert_int_equal(cpr_parse_ata_log(NULL, 512, &r), -EPROTO);
}

static void test_vpd(void **state)
{
	uint8_t b[64 + 3 * 32];
	struct cpr_ranges r;

	(void)state;
	memset(b, 0, sizeof(b));
	b[1] = 0xb9;
	b[3] = 60 + 64; /* page length: 64 - 4 + 2 x 32 */
	desc(b, 0, 4, 0, HALF, true);
	desc(b, 1, 4, HALF, HALF, true);
	assert_int_equal(cpr_parse_vpd(b, sizeof(b), &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.r[1].lba, HALF);
	assert_int_equal(r.r[0].blocks, HALF);
	assert_int_equal(r.r[0].elements, 4);

	/* another page, a length past the buffer or not a whole descriptor */
	b[1] = 0xb1;
	assert_int_equal(cpr_parse_vpd(b, sizeof(b), &r), -EPROTO);
	b[1] = 0xb9;
	assert_int_equal(cpr_parse_vpd(b, 64 + 32, &r), -EPROTO);
	b[3] = 60 + 40;
	assert_int_equal(cpr_parse_vpd(b, sizeof(b), &r), -EPROTO);
	/* a page with no descriptor: no ranges, no error */
	b[3] = 60;
	assert_int_equal(cpr_parse_vpd(b, sizeof(b), &r), 0);
	assert_int_equal(r.n, 0);
	assert_false(cpr_multi(&r));
}

static void test_build_roundtrip(void **state)
{
	struct cpr_ranges a, b;
	uint8_t buf[1024];
	size_t n;

	(void)state;
	cpr_split(&a, 2, 1000001, 6);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.r[0].blocks, 500000);
	assert_int_equal(a.r[1].lba, 500000);
	assert_int_equal(a.r[1].blocks, 500001);
	assert_true(cpr_valid(&a, 1000001));

	n = cpr_build_ata_log(&a, buf, sizeof(buf));
	assert_int_equal(n, 512);
	assert_int_equal(buf[0], 2);
	assert_int_equal(buf[96 + 8], 0x20); /* 500000 = 0x7a120, little-endian */
	assert_int_equal(buf[96 + 9], 0xa1);
	assert_int_equal(cpr_parse_ata_log(buf, n, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));

	n = cpr_build_vpd(&a, buf, sizeof(buf));
	assert_int_equal(n, 128);
	assert_int_equal(buf[1], 0xb9);
	assert_int_equal(buf[3], 124);
	assert_int_equal(buf[96 + 15], 0x20); /* big-endian */
	assert_int_equal(cpr_parse_vpd(buf, n, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));

	assert_int_equal(cpr_build_vpd(&a, buf, 127), 0);
	assert_int_equal(cpr_build_ata_log(&a, buf, 511), 0);
}

static void test_checks(void **state)
{
	struct cpr_ranges r;

	(void)state;
	cpr_split(&r, 2, 100, 1);
	assert_int_equal(cpr_range_of(&r, 0), 0);
	assert_int_equal(cpr_range_of(&r, 49), 0);
	assert_int_equal(cpr_range_of(&r, 50), 1);
	assert_int_equal(cpr_range_of(&r, 99), 1);
	assert_int_equal(cpr_range_of(&r, 100), -1);
	/* a gap, an overlap, an empty range */
	r.r[1].lba = 51;
	assert_false(cpr_valid(&r, 0));
	r.r[1].lba = 49;
	assert_false(cpr_valid(&r, 0));
	r.r[1].lba = 50;
	r.r[1].blocks = 0;
	assert_false(cpr_valid(&r, 0));
	/* splits that cannot be */
	cpr_split(&r, 0, 100, 1);
	assert_int_equal(r.n, 0);
	cpr_split(&r, CPR_MAX + 1, 100, 1);
	assert_int_equal(r.n, 0);
	cpr_split(&r, 3, 2, 1);
	assert_int_equal(r.n, 0);
	assert_false(cpr_valid(&r, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ata_log),
		cmocka_unit_test(test_vpd),
		cmocka_unit_test(test_build_roundtrip),
		cmocka_unit_test(test_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
