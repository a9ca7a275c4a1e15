/*
 * test_geometry.c - the geometry mode page parsers (SBC-2 Format Device
 * 0x03, Rigid Disk Geometry 0x04, Notch and Partition 0x0C), the notch
 * MODE SELECT builder and the Control page's self-test time, from a MODE
 * SENSE (10) answer written by hand, and truncated variants.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/scsi.h"

/* MODE SENSE (10), DBD: header, then pages 0x03, 0x04, 0x0C, 0x0A. */
static const uint8_t answer[] = {
	0x00,
	0x5a,
	0x00,
	0x10,
	0x00,
	0x00,
	0x00,
	0x00, /* mode data length 0x5a */
	/* 0x03 format device (PS set) */
	0x83,
	0x16,
	0x00,
	0x2a, /* tracks per zone 42 */
	0x00,
	0x08, /* alternate sectors per zone */
	0x00,
	0x00,
	0x00,
	0x00, /* alternate tracks per zone / per LU */
	0x03,
	0x20, /* sectors per track 800 */
	0x02,
	0x00, /* bytes per physical sector 512 */
	0x00,
	0x01, /* interleave */
	0x00,
	0x0f, /* track skew 15 */
	0x00,
	0x1e, /* cylinder skew 30 */
	0x40,
	0x00,
	0x00,
	0x00, /* HSEC */
	/* 0x04 rigid disk geometry */
	0x04,
	0x16,
	0x01,
	0x86,
	0xa0, /* cylinders 100000 */
	0x08, /* heads */
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x01,
	0x86,
	0xa1, /* landing zone */
	0x00,
	0x00,
	0x00,
	0x3a,
	0x98, /* 15000 rpm */
	0x00,
	0x00,
	/* 0x0C notch: ND, LPN, 16 notches, active 3, LBA 0x1000..0x1fff,
	 * pages notched: 0x03 */
	0x0c,
	0x16,
	0xc0,
	0x00,
	0x00,
	0x10,
	0x00,
	0x03,
	0x00,
	0x00,
	0x10,
	0x00,
	0x00,
	0x00,
	0x1f,
	0xff,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x08,
	/* 0x0A control: extended self-test completion time 0x0e10 s */
	0x0a,
	0x0a,
	0x02,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x0e,
	0x10,
};

static const uint8_t *page(uint8_t code, size_t *plen)
{
	struct scsi_mode10 m;

	assert_int_equal(scsi_parse_mode_sense10(answer, sizeof(answer), &m), 0);
	return scsi_mode_find_page(answer, sizeof(answer), &m, code, 0, plen);
}

static void test_format_page(void **state)
{
	struct scsi_format_page f;
	const uint8_t *p;
	size_t n;

	assert_int_equal(sizeof(answer), 0x5a + 2);
	p = page(MODE_PAGE_FORMAT, &n);
	assert_non_null(p);
	assert_int_equal(scsi_parse_format_page(p, n, &f), 0);
	assert_int_equal(f.tracks_per_zone, 42);
	assert_int_equal(f.alt_sectors_per_zone, 8);
	assert_int_equal(f.sectors_per_track, 800);
	assert_int_equal(f.bytes_per_sector, 512);
	assert_int_equal(f.interleave, 1);
	assert_int_equal(f.track_skew, 15);
	assert_int_equal(f.cylinder_skew, 30);
	assert_true(f.hsec);
	assert_false(f.ssec);
	/* truncated page and wrong page */
	assert_int_equal(scsi_parse_format_page(p, 20, &f), -EPROTO);
	assert_int_equal(scsi_parse_format_page(p, 1, &f), -EPROTO);
	assert_int_equal(scsi_parse_format_page(page(MODE_PAGE_RIGID, &n), n, &f), -EPROTO);
	assert_int_equal(scsi_parse_format_page(NULL, 0, &f), -EPROTO);
}

static void test_rigid_page(void **state)
{
	struct scsi_rigid_page r;
	const uint8_t *p;
	size_t n;

	p = page(MODE_PAGE_RIGID, &n);
	assert_non_null(p);
	assert_int_equal(scsi_parse_rigid_page(p, n, &r), 0);
	assert_int_equal(r.cylinders, 100000);
	assert_int_equal(r.heads, 8);
	assert_int_equal(r.landing_zone_cyl, 100001);
	assert_int_equal(r.rpm, 15000);
	assert_int_equal(scsi_parse_rigid_page(p, 21, &r), -EPROTO);
	/* a short page length (an old drive without the rotation rate) */
	{
		uint8_t old[20];

		memcpy(old, p, sizeof(old));
		old[1] = 0x12;
		assert_int_equal(scsi_parse_rigid_page(old, sizeof(old), &r), -EPROTO);
	}
}

static void test_notch_page(void **state)
{
	struct scsi_notch_page np;
	const uint8_t *p;
	uint8_t out[64];
	size_t n, olen;

	p = page(MODE_PAGE_NOTCH, &n);
	assert_non_null(p);
	assert_int_equal(scsi_parse_notch_page(p, n, &np), 0);
	assert_true(np.nd);
	assert_true(np.lpn);
	assert_int_equal(np.max_notches, 16);
	assert_int_equal(np.active_notch, 3);
	assert_int_equal(np.start, 0x1000);
	assert_int_equal(np.end, 0x1fff);
	assert_true(np.pages_notched == 0x08);
	assert_int_equal(scsi_parse_notch_page(p, 23, &np), -EPROTO);

	/* MODE SELECT parameter list for notch 7 */
	assert_int_equal(scsi_build_notch_select(p, n, 7, out, sizeof(out), &olen), 0);
	assert_int_equal(olen, 8 + 24);
	{
		static const uint8_t hdr[8] = { 0 };
		uint8_t want[24];

		memcpy(want, p, 24);
		want[0] &= 0x3f;
		want[6] = 0x00;
		want[7] = 0x07;
		assert_memory_equal(out, hdr, 8);
		assert_memory_equal(out + 8, want, 24);
	}
	assert_int_equal(scsi_build_notch_select(p, n, 7, out, 31, &olen), -ENOSPC);
	assert_int_equal(scsi_build_notch_select(p, 10, 7, out, sizeof(out), &olen), -EPROTO);
}

static void test_control_time(void **state)
{
	const uint8_t *p;
	uint16_t s;
	size_t n;

	p = page(MODE_PAGE_CONTROL, &n);
	assert_non_null(p);
	assert_int_equal(scsi_parse_control_selftest_time(p, n, &s), 0);
	assert_int_equal(s, 3600);
	assert_int_equal(scsi_parse_control_selftest_time(p, 11, &s), -EPROTO);
	assert_int_equal(s, 0);
}

static void test_truncated_answer(void **state)
{
	struct scsi_mode10 m;
	size_t n;

	/* the allocation length cut the answer inside the notch page: the
	 * pages before it are found, the notch page is not */
	assert_int_equal(scsi_parse_mode_sense10(answer, 8 + 24 + 24 + 10, &m), 0);
	assert_non_null(scsi_mode_find_page(answer, 8 + 24 + 24 + 10, &m, MODE_PAGE_RIGID, 0, &n));
	assert_null(scsi_mode_find_page(answer, 8 + 24 + 24 + 10, &m, MODE_PAGE_NOTCH, 0, &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_page),	 cmocka_unit_test(test_rigid_page),
		cmocka_unit_test(test_notch_page),	 cmocka_unit_test(test_control_time),
		cmocka_unit_test(test_truncated_answer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
