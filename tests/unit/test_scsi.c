/*
 * test_scsi.c - SCSI builders (byte-exact CDBs, SPC-4 / SBC-4 / ZBC) and
 * parsers of answers written by hand from the same standards.
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

/* ---- builders ---------------------------------------------------------- */

static void test_build_tur_request_sense(void **state)
{
	uint8_t cdb[6];
	static const uint8_t tur[6] = { 0x00, 0, 0, 0, 0, 0 };
	static const uint8_t rs_desc[6] = { 0x03, 0x01, 0, 0, 0xfc, 0 };
	static const uint8_t rs_fixed[6] = { 0x03, 0x00, 0, 0, 0x12, 0 };

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_test_unit_ready(cdb), 6);
	assert_memory_equal(cdb, tur, 6);
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_request_sense(cdb, true, 252), 6);
	assert_memory_equal(cdb, rs_desc, 6);
	assert_int_equal(scsi_build_request_sense(cdb, false, 18), 6);
	assert_memory_equal(cdb, rs_fixed, 6);
}

static void test_build_inquiry(void **state)
{
	uint8_t cdb[6];
	static const uint8_t std[6] = { 0x12, 0x00, 0x00, 0x00, 0x24, 0x00 };
	static const uint8_t vpd83[6] = { 0x12, 0x01, 0x83, 0x10, 0x00, 0x00 };

	memset(cdb, 0xee, sizeof(cdb));
	/* the page is ignored (must be 0) for a standard INQUIRY */
	assert_int_equal(scsi_build_inquiry(cdb, false, 0x83, 36), 6);
	assert_memory_equal(cdb, std, 6);
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_inquiry(cdb, true, VPD_DEVICE_ID, 0x1000), 6);
	assert_memory_equal(cdb, vpd83, 6);
}

static void test_build_read_capacity(void **state)
{
	uint8_t cdb[16];
	static const uint8_t rc10[10] = { 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t rc16[16] = { 0x9e, 0x10, 0,    0,	  0,	0,    0, 0,
					  0,	0,    0x00, 0x00, 0x00, 0x20, 0, 0 };

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_read_capacity10(cdb), 10);
	assert_memory_equal(cdb, rc10, 10);
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_read_capacity16(cdb, 32), 16);
	assert_memory_equal(cdb, rc16, 16);
}

static void test_build_mode_sense_select(void **state)
{
	uint8_t cdb[10];
	/* LLBAA, all pages and subpages, current values */
	static const uint8_t all[10] = { 0x5a, 0x10, 0x3f, 0xff, 0, 0, 0, 0xff, 0xfc, 0 };
	/* DBD, changeable values of the caching page */
	static const uint8_t chg[10] = { 0x5a, 0x08, 0x48, 0x00, 0, 0, 0, 0x00, 0xfc, 0 };
	static const uint8_t sel[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0x00, 0x18, 0 };
	static const uint8_t sel_sp[10] = { 0x55, 0x11, 0, 0, 0, 0, 0, 0x01, 0x00, 0 };

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_mode_sense10(cdb, true, false, 0, 0x3f, 0xff, 0xfffc), 10);
	assert_memory_equal(cdb, all, 10);
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_mode_sense10(cdb, false, true, 1, 0x08, 0, 0xfc), 10);
	assert_memory_equal(cdb, chg, 10);
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_mode_select10(cdb, true, false, 24), 10);
	assert_memory_equal(cdb, sel, 10);
	assert_int_equal(scsi_build_mode_select10(cdb, true, true, 256), 10);
	assert_memory_equal(cdb, sel_sp, 10);
}

static void test_build_format_unit(void **state)
{
	uint8_t cdb[6], hdr[4];
	static const uint8_t fmt_data[6] = { 0x04, 0x10, 0, 0, 0, 0 };
	static const uint8_t fmt_plain[6] = { 0x04, 0x00, 0, 0, 0, 0 };
	/* FMTPINFO=2 (type 1 protection), FMTDATA, CMPLST, DLF 0 */
	static const uint8_t fmt_prot[6] = { 0x04, 0x98, 0, 0, 0, 0 };
	static const uint8_t hdr_immed[4] = { 0x00, 0x02, 0x00, 0x00 };
	static const uint8_t hdr_wait[4] = { 0x00, 0x00, 0x00, 0x00 };

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_format_unit(cdb, 0, true, false, 0), 6);
	assert_memory_equal(cdb, fmt_data, 6);
	assert_int_equal(scsi_build_format_unit(cdb, 0, false, false, 0), 6);
	assert_memory_equal(cdb, fmt_plain, 6);
	assert_int_equal(scsi_build_format_unit(cdb, 2, true, true, 0), 6);
	assert_memory_equal(cdb, fmt_prot, 6);
	memset(hdr, 0xee, sizeof(hdr));
	assert_int_equal(scsi_build_format_param_header(hdr, true), 4);
	assert_memory_equal(hdr, hdr_immed, 4);
	assert_int_equal(scsi_build_format_param_header(hdr, false), 4);
	assert_memory_equal(hdr, hdr_wait, 4);
}

static void test_build_log_diag(void **state)
{
	uint8_t cdb[10];
	/* LOG SENSE, cumulative values (pc 1) of the informational
	 * exceptions page 0x2f, 1 KiB */
	static const uint8_t log[10] = { 0x4d, 0x00, 0x6f, 0x00, 0, 0x00, 0x00, 0x04, 0x00, 0 };
	static const uint8_t log_sub[10] = { 0x4d, 0x01, 0x4d, 0x01, 0, 0x00, 0x05, 0x00, 0xfc, 0 };
	static const uint8_t diag_bg_short[6] = { 0x1d, 0x20, 0, 0, 0, 0 };
	static const uint8_t diag_fg_ext[6] = { 0x1d, 0xc0, 0, 0, 0, 0 };
	static const uint8_t diag_default[6] = { 0x1d, 0x14, 0, 0, 0, 0 };
	static const uint8_t diag_abort[6] = { 0x1d, 0x80, 0, 0, 0, 0 };

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_log_sense(cdb, false, 1, 0x2f, 0, 0, 1024), 10);
	assert_memory_equal(cdb, log, 10);
	assert_int_equal(scsi_build_log_sense(cdb, true, 1, 0x0d, 1, 5, 252), 10);
	assert_memory_equal(cdb, log_sub, 10);
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_send_diagnostic(cdb, SCSI_SELFTEST_BG_SHORT, false, false, 0),
			 6);
	assert_memory_equal(cdb, diag_bg_short, 6);
	assert_int_equal(
	    scsi_build_send_diagnostic(cdb, SCSI_SELFTEST_FG_EXTENDED, false, false, 0), 6);
	assert_memory_equal(cdb, diag_fg_ext, 6);
	assert_int_equal(scsi_build_send_diagnostic(cdb, 0, true, true, 0), 6);
	assert_memory_equal(cdb, diag_default, 6);
	assert_int_equal(scsi_build_send_diagnostic(cdb, SCSI_SELFTEST_BG_ABORT, false, false, 0),
			 6);
	assert_memory_equal(cdb, diag_abort, 6);
}

static void test_build_rw(void **state)
{
	uint8_t cdb[16];
	static const uint8_t r10[10] = { 0x28, 0x00, 0x12, 0x34, 0x56, 0x78, 0, 0x01, 0x00, 0 };
	static const uint8_t w10[10] = { 0x2a, 0x08, 0x00, 0x00, 0x00, 0x01, 0, 0x00, 0x08, 0 };
	static const uint8_t r16[16] = { 0x88, 0x08, 0x00, 0x00, 0x01, 0x23, 0x45, 0x67,
					 0x89, 0xab, 0x00, 0x00, 0x00, 0x08, 0,	   0 };
	static const uint8_t w16[16] = { 0x8a, 0x00, 0x00, 0x00, 0x00, 0x03, 0xa3, 0x81,
					 0x2a, 0xaf, 0x00, 0x01, 0x00, 0x00, 0,	   0 };
	static const uint8_t sync[10] = { 0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_read10(cdb, 0x12345678, 256, false), 10);
	assert_memory_equal(cdb, r10, 10);
	assert_int_equal(scsi_build_write10(cdb, 1, 8, true), 10);
	assert_memory_equal(cdb, w10, 10);
	assert_int_equal(scsi_build_read16(cdb, 0x0123456789abULL, 8, true), 16);
	assert_memory_equal(cdb, r16, 16);
	assert_int_equal(scsi_build_write16(cdb, 0x3a3812aafULL, 65536, false), 16);
	assert_memory_equal(cdb, w16, 16);
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_sync_cache10(cdb), 10);
	assert_memory_equal(cdb, sync, 10);
}

static void test_build_report_zones(void **state)
{
	uint8_t cdb[16];
	static const uint8_t all[16] = { 0x95, 0x00, 0,	   0,	 0,    0,    0,	   0,
					 0,    0,    0x00, 0x01, 0x00, 0x00, 0x00, 0 };
	/* from zone 0x80000, partial, reporting option 0x3f (non-WP zones) */
	static const uint8_t part[16] = { 0x95, 0x00, 0,    0,	  0,	0,    0,    0x08,
					  0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0xbf, 0 };

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_build_report_zones(cdb, 0, 65536, 0, false), 16);
	assert_memory_equal(cdb, all, 16);
	assert_int_equal(scsi_build_report_zones(cdb, 0x80000, 4096, 0x3f, true), 16);
	assert_memory_equal(cdb, part, 16);
}

/* ---- standard INQUIRY -------------------------------------------------- */

/* SAS disk: PDT 0, SPC-4 (6), response data format 2, 36 bytes shown */
static const uint8_t inq_sas[36] = {
	0x00, 0x00, 0x06, 0x12, 0x1f, 0x00, 0x10, 0x02, 'S', 'E', 'A', 'G',
	'A',  'T',  'E',  ' ',	'S',  'T',  '3',  '6',	'0', '0', '0', '5',
	'7',  'S',  'S',  ' ',	' ',  ' ',  ' ',  ' ',	'0', '0', '0', '8',
};

/* READ DEFECT DATA (10)/(12) and REASSIGN BLOCKS (SBC-3 5.13, 5.14, 5.20) */
static void test_defects(void **state)
{
	uint8_t cdb[12], list[4 + 16];
	static const uint8_t rd10[10] = { 0x37, 0, 0x0c, 0, 0, 0, 0, 0, 0x04, 0 };
	static const uint8_t rd12[12] = { 0xb7, 0x1b, 0, 0, 0, 2, 0, 0, 0x01, 0, 0, 0 };
	static const uint8_t ra[6] = { 0x07, 0x03, 0, 0, 0, 0 };
	static const uint8_t hdr10[4] = { 0, 0x0c, 0x00, 0x18 };
	static const uint8_t hdr12[8] = { 0, 0x1b, 0x00, 0x02, 0, 0, 0x01, 0x00 };
	static const uint8_t vendor[4] = { 0, 0x0e, 0x00, 0x30 };
	static const uint64_t lbas[2] = { 0x1234, 0x100000000ULL };
	static const uint8_t want_list[20] = { 0,    0,	   0, 16, 0, 0, 0, 0, 0, 0,
					       0x12, 0x34, 0, 0,  0, 1, 0, 0, 0, 0 };
	struct scsi_defect_list dl;

	(void)state;
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(
	    scsi_build_read_defect10(cdb, false, true, SCSI_DEFECT_BYTES_FROM_INDEX, 4), 10);
	assert_memory_equal(cdb, rd10, 10);
	assert_int_equal(scsi_build_read_defect12(cdb, true, true, SCSI_DEFECT_LONG_BLOCK, 2, 256),
			 12);
	assert_memory_equal(cdb, rd12, 12);
	assert_int_equal(scsi_build_reassign_blocks(cdb), 6);
	assert_memory_equal(cdb, ra, 6);
	assert_int_equal(scsi_build_reassign_list(lbas, 2, list, sizeof(list)), 20);
	assert_memory_equal(list, want_list, 20);
	assert_int_equal(scsi_build_reassign_list(lbas, 2, list, 19), 0);

	/* (10): the grown list, bytes from index, 24 bytes: 3 entries */
	assert_int_equal(scsi_parse_defect_header(hdr10, sizeof(hdr10), false, &dl), 0);
	assert_true(dl.glist && !dl.plist);
	assert_int_equal(dl.format, SCSI_DEFECT_BYTES_FROM_INDEX);
	assert_int_equal(dl.length, 24);
	assert_true(dl.count_known);
	assert_int_equal(dl.count, 3);
	/* (12): both lists, long block, generation 2, 256 bytes: 32 entries */
	assert_int_equal(scsi_parse_defect_header(hdr12, sizeof(hdr12), true, &dl), 0);
	assert_true(dl.glist && dl.plist);
	assert_int_equal(dl.generation, 2);
	assert_int_equal(dl.count, 32);
	/* a vendor format has no standard descriptor size; short headers */
	assert_int_equal(scsi_parse_defect_header(vendor, sizeof(vendor), false, &dl), 0);
	assert_false(dl.count_known);
	assert_int_equal(dl.length, 48);
	assert_int_equal(scsi_parse_defect_header(hdr10, 3, false, &dl), -EPROTO);
	assert_int_equal(scsi_parse_defect_header(hdr12, 7, true, &dl), -EPROTO);
	assert_int_equal(scsi_parse_defect_header(NULL, 8, true, &dl), -EPROTO);
}

static void test_parse_inquiry(void **state)
{
	struct scsi_inquiry inq;
	uint8_t b[40];

	assert_int_equal(scsi_parse_inquiry(inq_sas, sizeof(inq_sas), &inq), 0);
	assert_int_equal(inq.pdt, PDT_DISK);
	assert_int_equal(inq.qualifier, 0);
	assert_false(inq.removable);
	assert_int_equal(inq.version, 6);
	assert_string_equal(inq.vendor, "SEAGATE");
	assert_string_equal(inq.product, "ST3600057SS");
	assert_string_equal(inq.revision, "0008");

	/* host-managed ZBC, qualifier 1, removable, a control byte and NUL
	 * padding in the strings */
	memcpy(b, inq_sas, 36);
	b[0] = 0x20 | PDT_ZBC;
	b[1] = 0x80;
	memcpy(b + 8, "ATA\0\0\0\0\0", 8);
	memcpy(b + 16, "HSH721414AL\x01N6M ", 16);
	memcpy(b + 32, "\0\0\0\0", 4);
	assert_int_equal(scsi_parse_inquiry(b, 36, &inq), 0);
	assert_int_equal(inq.pdt, PDT_ZBC);
	assert_int_equal(inq.qualifier, 1);
	assert_true(inq.removable);
	assert_string_equal(inq.vendor, "ATA");
	assert_string_equal(inq.product, "HSH721414AL?N6M");
	assert_string_equal(inq.revision, "");
}

static void test_parse_inquiry_truncated(void **state)
{
	struct scsi_inquiry inq;
	size_t n;

	for (n = 0; n < 36; n++)
		assert_int_equal(scsi_parse_inquiry(inq_sas, n, &inq), -EPROTO);
}

/* ---- VPD 0x00, 0x80 ---------------------------------------------------- */

static const uint8_t vpd00[10] = { 0x00, 0x00, 0x00, 0x06, 0x00, 0x80, 0x83, 0x86, 0xb0, 0xb1 };

static void test_parse_vpd_supported(void **state)
{
	uint8_t pages[16];
	unsigned n = 99;

	assert_int_equal(scsi_parse_vpd_supported(vpd00, sizeof(vpd00), pages, 16, &n), 0);
	assert_int_equal(n, 6);
	assert_int_equal(pages[0], 0x00);
	assert_int_equal(pages[2], 0x83);
	assert_int_equal(pages[5], 0xb1);
	/* room for 3 only */
	assert_int_equal(scsi_parse_vpd_supported(vpd00, sizeof(vpd00), pages, 3, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(pages[2], 0x83);
}

static void test_parse_vpd_supported_bad(void **state)
{
	uint8_t pages[16], b[10];
	unsigned n;
	size_t len;

	for (len = 0; len < sizeof(vpd00); len++)
		assert_int_equal(scsi_parse_vpd_supported(vpd00, len, pages, 16, &n), -EPROTO);
	memcpy(b, vpd00, sizeof(b));
	b[1] = 0x80; /* wrong page */
	assert_int_equal(scsi_parse_vpd_supported(b, sizeof(b), pages, 16, &n), -EPROTO);
}

static const uint8_t vpd80[24] = {
	0x00, 0x80, 0x00, 0x14, ' ', ' ', ' ', ' ', 'S', '0', 'N', '1',
	'A',  'B',  'C',  'D',	'0', '0', '0', '0', 'C', '1', ' ', ' ',
};

static void test_parse_vpd_serial(void **state)
{
	char serial[32], small[5];
	size_t len;

	assert_int_equal(scsi_parse_vpd_serial(vpd80, sizeof(vpd80), serial, sizeof(serial)), 0);
	assert_string_equal(serial, "S0N1ABCD0000C1");
	/* truncated to what the caller has room for */
	assert_int_equal(scsi_parse_vpd_serial(vpd80, sizeof(vpd80), small, sizeof(small)), 0);
	assert_string_equal(small, "S0N1");
	for (len = 0; len < sizeof(vpd80); len++)
		assert_int_equal(scsi_parse_vpd_serial(vpd80, len, serial, sizeof(serial)),
				 -EPROTO);
	assert_int_equal(scsi_parse_vpd_serial(vpd00, sizeof(vpd00), serial, sizeof(serial)),
			 -EPROTO);
	assert_int_equal(scsi_parse_vpd_serial(vpd80, sizeof(vpd80), serial, 0), -ENOSPC);
}

/* ---- VPD 0x83 ---------------------------------------------------------- */

/* SAS disk: LU NAA 5, LU EUI-64, target port NAA (SAS), relative port */
static const uint8_t vpd83_sas[48] = {
	0x00,
	0x83,
	0x00,
	0x2c,
	/* binary, LU, NAA, 8 bytes */
	0x01,
	0x03,
	0x00,
	0x08,
	0x50,
	0x00,
	0xc5,
	0x00,
	0x12,
	0x34,
	0x56,
	0x78,
	/* binary, LU, EUI-64 */
	0x01,
	0x02,
	0x00,
	0x08,
	0x00,
	0x11,
	0x22,
	0x33,
	0x44,
	0x55,
	0x66,
	0x77,
	/* SAS, binary, PIV, target port, NAA */
	0x61,
	0x93,
	0x00,
	0x08,
	0x50,
	0x00,
	0xc5,
	0x00,
	0x12,
	0x34,
	0x56,
	0x79,
	/* SAS, binary, PIV, target port, relative target port 1 */
	0x61,
	0x94,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x01,
};

/* SATA disk behind libata: EUI-64 first, then NAA, T10 vendor id "ATA" */
static const uint8_t vpd83_sata[56] = {
	0x00,
	0x83,
	0x00,
	0x34,
	0x01,
	0x02,
	0x00,
	0x08,
	0x00,
	0x11,
	0x22,
	0x33,
	0x44,
	0x55,
	0x66,
	0x77,
	/* ASCII, LU, T10 vendor id, 24 bytes */
	0x02,
	0x01,
	0x00,
	0x18,
	'A',
	'T',
	'A',
	' ',
	' ',
	' ',
	' ',
	' ',
	'W',
	'D',
	'C',
	' ',
	'W',
	'D',
	'4',
	'0',
	' ',
	'W',
	'D',
	'-',
	'W',
	'C',
	'C',
	'1',
	/* NAA 5 from the WWN */
	0x01,
	0x03,
	0x00,
	0x08,
	0x50,
	0x01,
	0x4e,
	0xe2,
	0x0a,
	0xbc,
	0xde,
	0xf0,
};

static void test_parse_vpd_devid(void **state)
{
	struct scsi_devid id;

	assert_int_equal(scsi_parse_vpd_devid(vpd83_sas, sizeof(vpd83_sas), &id), 0);
	assert_string_equal(id.lu_id, "5000c50012345678");
	assert_int_equal(id.lu_id_type, 3);
	assert_true(id.has_sas_port);
	assert_true(id.sas_port == 0x5000c50012345679ULL); /* the target port's SAS address */
	assert_false(id.has_ata_info);

	assert_int_equal(scsi_parse_vpd_devid(vpd83_sata, sizeof(vpd83_sata), &id), 0);
	assert_true(id.sas_port == 0);
	assert_string_equal(id.lu_id, "50014ee20abcdef0");
	assert_int_equal(id.lu_id_type, 3);
	assert_false(id.has_sas_port);
	assert_true(id.has_ata_info);
}

static void test_parse_vpd_devid_eui_name_naa6(void **state)
{
	struct scsi_devid id;
	/* EUI-64 only */
	static const uint8_t eui[16] = {
		0x00, 0x83, 0x00, 0x0c, 0x01, 0x02, 0x00, 0x08,
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	};
	/* SCSI name string only (UTF-8, NUL padded to a multiple of 4) */
	static const uint8_t name[28] = {
		0x00, 0x83, 0x00, 0x18, 0x03, 0x08, 0x00, 0x14, 'n', 'a', 'a', '.', '5', '0',
		'0',  '0',  'C',  '5',	'0',  '0',  '1',  '2',	'3', '4', '5', '6', '7', '8',
	};
	/* NAA 5 then NAA 6 (registered extended, 16 bytes): 6 wins */
	static const uint8_t naa6[36] = {
		0x00, 0x83, 0x00, 0x20, 0x01, 0x03, 0x00, 0x08, 0x50, 0x00, 0xc5, 0x00,
		0x12, 0x34, 0x56, 0x78, 0x01, 0x03, 0x00, 0x10, 0x60, 0x0a, 0x0b, 0x0c,
		0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
	};
	static const uint8_t none[8] = { 0x00, 0x83, 0x00, 0x04, 0x61, 0x94, 0x00, 0x00 };

	assert_int_equal(scsi_parse_vpd_devid(eui, sizeof(eui), &id), 0);
	assert_string_equal(id.lu_id, "0011223344556677");
	assert_int_equal(id.lu_id_type, 2);
	assert_int_equal(scsi_parse_vpd_devid(name, sizeof(name), &id), 0);
	assert_string_equal(id.lu_id, "naa.5000C50012345678");
	assert_int_equal(id.lu_id_type, 8);
	assert_int_equal(scsi_parse_vpd_devid(naa6, sizeof(naa6), &id), 0);
	assert_string_equal(id.lu_id, "600a0b0c0d0e0f101112131415161718");
	assert_int_equal(scsi_parse_vpd_devid(none, sizeof(none), &id), 0);
	assert_string_equal(id.lu_id, "");
	assert_int_equal(id.lu_id_type, 0);
	assert_true(id.has_sas_port);
	assert_true(id.sas_port == 0); /* a relative port number is no address */
}

static void test_parse_vpd_devid_bad(void **state)
{
	struct scsi_devid id;
	uint8_t b[48];
	size_t len;

	for (len = 0; len < sizeof(vpd83_sas); len++)
		assert_int_equal(scsi_parse_vpd_devid(vpd83_sas, len, &id), -EPROTO);
	/* a designator longer than the page */
	memcpy(b, vpd83_sas, sizeof(b));
	b[40 + 3] = 0x05;
	assert_int_equal(scsi_parse_vpd_devid(b, sizeof(b), &id), -EPROTO);
	/* page length leaving half a descriptor header */
	memcpy(b, vpd83_sas, sizeof(b));
	b[3] = 0x0e;
	assert_int_equal(scsi_parse_vpd_devid(b, sizeof(b), &id), -EPROTO);
}

/* ---- VPD 0xB1 ---------------------------------------------------------- */

static void test_parse_vpd_bdc(void **state)
{
	struct scsi_bdc bdc;
	uint8_t b[64];
	size_t len;

	memset(b, 0, sizeof(b));
	b[1] = 0xb1;
	b[3] = 0x3c;
	b[4] = 0x3a; /* 15000 rpm */
	b[5] = 0x98;
	b[7] = 0x02; /* 3.5" */
	assert_int_equal(scsi_parse_vpd_bdc(b, sizeof(b), &bdc), 0);
	assert_int_equal(bdc.rotation_rate, 15000);
	assert_int_equal(bdc.form_factor, 2);
	assert_int_equal(bdc.zoned, 0);

	/* SSD, 2.5", host aware */
	b[4] = 0x00;
	b[5] = 0x01;
	b[7] = 0x03;
	b[8] = 0x10;
	assert_int_equal(scsi_parse_vpd_bdc(b, sizeof(b), &bdc), 0);
	assert_int_equal(bdc.rotation_rate, 1);
	assert_int_equal(bdc.form_factor, 3);
	assert_int_equal(bdc.zoned, 1);

	for (len = 0; len < sizeof(b); len++)
		assert_int_equal(scsi_parse_vpd_bdc(b, len, &bdc), -EPROTO);
	b[3] = 0x03; /* page too short for the form factor */
	assert_int_equal(scsi_parse_vpd_bdc(b, sizeof(b), &bdc), -EPROTO);
	b[3] = 0x04; /* ... but long enough without ZONED */
	assert_int_equal(scsi_parse_vpd_bdc(b, sizeof(b), &bdc), 0);
	assert_int_equal(bdc.zoned, 0);
	b[1] = 0xb0;
	assert_int_equal(scsi_parse_vpd_bdc(b, sizeof(b), &bdc), -EPROTO);
}

/* ---- READ CAPACITY ----------------------------------------------------- */

static void test_parse_read_capacity10(void **state)
{
	struct scsi_capacity c;
	static const uint8_t rc[8] = { 0x22, 0xec, 0xb2, 0x5b, 0x00, 0x00, 0x02, 0x00 };
	static const uint8_t big[8] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x02, 0x00 };
	static const uint8_t zero_len[8] = { 0x00, 0x00, 0x10, 0x00, 0, 0, 0, 0 };
	size_t len;

	assert_int_equal(scsi_parse_read_capacity10(rc, sizeof(rc), &c), 0);
	assert_int_equal(c.last_lba, 585937499);
	assert_int_equal(c.blocks, 585937500);
	assert_int_equal(c.block_len, 512);
	/* over 2 TiB: the caller must ask READ CAPACITY (16) */
	assert_int_equal(scsi_parse_read_capacity10(big, sizeof(big), &c), 0);
	assert_int_equal(c.last_lba, 0xffffffffULL);
	assert_int_equal(c.blocks, 0x100000000ULL);
	for (len = 0; len < 8; len++)
		assert_int_equal(scsi_parse_read_capacity10(rc, len, &c), -EPROTO);
	assert_int_equal(scsi_parse_read_capacity10(zero_len, 8, &c), -EPROTO);
}

static void test_parse_read_capacity16(void **state)
{
	struct scsi_capacity c;
	/* 4Kn, 8 TB class: 1953506646 blocks of 4096, one per physical */
	static const uint8_t kn4[32] = {
		0x00, 0x00, 0x00, 0x00, 0x74, 0x70, 0x25, 0x55,
		0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	/* 512e: 15628053168 blocks of 512, 8 per physical (exp 3), LBPME,
	 * lowest aligned LBA 7, RC BASIS 1, P_TYPE 1 + PROT_EN */
	static const uint8_t e512[32] = {
		0x00, 0x00, 0x00, 0x03, 0xa3, 0x81, 0x2a, 0xaf,
		0x00, 0x00, 0x02, 0x00, 0x13, 0x03, 0x80, 0x07,
	};
	size_t len;

	assert_int_equal(scsi_parse_read_capacity16(kn4, sizeof(kn4), &c), 0);
	assert_int_equal(c.last_lba, 1953506645);
	assert_int_equal(c.blocks, 1953506646);
	assert_int_equal(c.block_len, 4096);
	assert_int_equal(c.phys_exp, 0);
	assert_false(c.prot_en);
	assert_int_equal(c.rc_basis, 0);
	assert_int_equal(c.lowest_aligned, 0);

	assert_int_equal(scsi_parse_read_capacity16(e512, sizeof(e512), &c), 0);
	assert_int_equal(c.blocks, 15628053168ULL);
	assert_int_equal(c.block_len, 512);
	assert_int_equal(c.phys_exp, 3);
	assert_true(c.prot_en);
	assert_int_equal(c.rc_basis, 1);
	assert_int_equal(c.lowest_aligned, 7);
	/* 16 bytes are enough for everything we decode */
	assert_int_equal(scsi_parse_read_capacity16(e512, 16, &c), 0);
	for (len = 0; len < 16; len++)
		assert_int_equal(scsi_parse_read_capacity16(e512, len, &c), -EPROTO);
}

/* ---- MODE SENSE (10) --------------------------------------------------- */

/* LONGLBA, one 16-byte descriptor, caching page, control page, control
 * extension subpage: 8 + 16 + 20 + 12 + 32 = 88 bytes, mode data length 86 */
static const uint8_t ms_long[88] = {
	0x00,
	0x56,
	0x00,
	0x10,
	0x01,
	0x00,
	0x00,
	0x10,
	/* 5860533168 blocks of 512 */
	0x00,
	0x00,
	0x00,
	0x01,
	0x5d,
	0x50,
	0xa3,
	0xb0,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x02,
	0x00,
	/* caching page 0x08, length 0x12, PS set */
	0x88,
	0x12,
	0x14,
	0x00,
	0xff,
	0xff,
	0x00,
	0x00,
	0xff,
	0xff,
	0xff,
	0xff,
	0x80,
	0x14,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	/* control page 0x0a, length 0x0a */
	0x0a,
	0x0a,
	0x02,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0xff,
	0xff,
	0x00,
	0x1e,
	/* control extension 0x0a/0x01, SPF, length 0x1c */
	0x4a,
	0x01,
	0x00,
	0x1c,
	0x00,
	0x00,
	0x01,
};

/* short (8-byte) descriptor and rigid disk geometry page 0x04 (15000 rpm) */
static const uint8_t ms_short[40] = {
	0x00, 0x26, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x22, 0xec, 0xb2, 0x5c, 0x00, 0x00,
	0x02, 0x00, 0x04, 0x16, 0x00, 0xe8, 0x4d, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x98, 0x00, 0x00,
};

static void test_parse_mode_sense_long(void **state)
{
	struct scsi_mode10 m;
	const uint8_t *p;
	size_t plen;

	assert_int_equal(scsi_parse_mode_sense10(ms_long, sizeof(ms_long), &m), 0);
	assert_int_equal(m.mode_data_len, 86);
	assert_int_equal(m.dev_specific, 0x10);
	assert_true(m.longlba);
	assert_int_equal(m.bd_len, 16);
	assert_true(m.has_bd);
	assert_int_equal(m.bd_blocks, 5860533168ULL);
	assert_int_equal(m.bd_block_len, 512);
	assert_int_equal(m.pages_off, 24);
	assert_int_equal(m.pages_len, 64);

	p = scsi_mode_find_page(ms_long, sizeof(ms_long), &m, 0x08, 0, &plen);
	assert_ptr_equal(p, ms_long + 24);
	assert_int_equal(plen, 20);
	p = scsi_mode_find_page(ms_long, sizeof(ms_long), &m, 0x0a, 0, &plen);
	assert_ptr_equal(p, ms_long + 44);
	assert_int_equal(plen, 12);
	p = scsi_mode_find_page(ms_long, sizeof(ms_long), &m, 0x0a, 1, &plen);
	assert_ptr_equal(p, ms_long + 56);
	assert_int_equal(plen, 32);
	assert_null(scsi_mode_find_page(ms_long, sizeof(ms_long), &m, 0x1c, 0, &plen));
	assert_int_equal(plen, 0);
	assert_null(scsi_mode_find_page(ms_long, sizeof(ms_long), &m, 0x08, 1, &plen));
}

static void test_parse_mode_sense_short(void **state)
{
	struct scsi_mode10 m;
	const uint8_t *p;
	size_t plen;

	assert_int_equal(scsi_parse_mode_sense10(ms_short, sizeof(ms_short), &m), 0);
	assert_false(m.longlba);
	assert_int_equal(m.bd_len, 8);
	assert_int_equal(m.bd_blocks, 585937500);
	assert_int_equal(m.bd_block_len, 512);
	assert_int_equal(m.pages_off, 16);
	assert_int_equal(m.pages_len, 24);
	p = scsi_mode_find_page(ms_short, sizeof(ms_short), &m, 0x04, 0, &plen);
	assert_ptr_equal(p, ms_short + 16);
	assert_int_equal(plen, 24);
	assert_int_equal((p[20] << 8) | p[21], 15000);
}

static void test_parse_mode_sense_truncated(void **state)
{
	struct scsi_mode10 m;
	uint8_t b[88];
	size_t len, plen;

	/* header or block descriptor cut: an error */
	for (len = 0; len < 24; len++)
		assert_int_equal(scsi_parse_mode_sense10(ms_long, len, &m), -EPROTO);
	for (len = 0; len < 16; len++)
		assert_int_equal(scsi_parse_mode_sense10(ms_short, len, &m), -EPROTO);
	/* page area cut by a small allocation length: parsed, pages that do
	 * not fit are not found */
	assert_int_equal(scsi_parse_mode_sense10(ms_long, 50, &m), 0);
	assert_int_equal(m.pages_len, 26);
	assert_non_null(scsi_mode_find_page(ms_long, 50, &m, 0x08, 0, &plen));
	assert_null(scsi_mode_find_page(ms_long, 50, &m, 0x0a, 0, &plen));
	/* a struct claiming more than the buffer */
	m.pages_len = 100;
	assert_null(scsi_mode_find_page(ms_long, 50, &m, 0x08, 0, &plen));
	/* descriptor length not a multiple of the descriptor size */
	memcpy(b, ms_long, sizeof(b));
	b[7] = 0x0c;
	assert_int_equal(scsi_parse_mode_sense10(b, sizeof(b), &m), -EPROTO);
	/* descriptor longer than the mode data */
	memcpy(b, ms_long, sizeof(b));
	b[1] = 0x10;
	assert_int_equal(scsi_parse_mode_sense10(b, sizeof(b), &m), -EPROTO);
	/* mode data length smaller than the header */
	b[1] = 0x04;
	assert_int_equal(scsi_parse_mode_sense10(b, sizeof(b), &m), -EPROTO);
	/* a page header past the end: subpage header cut */
	memcpy(b, ms_long, sizeof(b));
	assert_int_equal(scsi_parse_mode_sense10(b, 58, &m), 0);
	assert_null(scsi_mode_find_page(b, 58, &m, 0x0a, 1, &plen));
}

static void test_mode_set_bd_blocks(void **state)
{
	uint8_t out[128], inplace[88];
	size_t n;
	static const uint8_t want_long[24] = {
		0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
		0x3b, 0x9a, 0xca, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
	};
	static const uint8_t want_short[16] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08,
		0x0b, 0xeb, 0xc2, 0x00, 0x00, 0x00, 0x02, 0x00,
	};
	static const uint8_t no_bd[8] = { 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };

	memset(out, 0xee, sizeof(out));
	assert_int_equal(
	    scsi_mode_set_bd_blocks(ms_long, sizeof(ms_long), 1000000000, out, sizeof(out), &n), 0);
	assert_int_equal(n, 24);
	assert_memory_equal(out, want_long, 24);
	assert_int_equal(out[24], 0xee); /* pages not copied */

	/* in place */
	memcpy(inplace, ms_long, sizeof(inplace));
	assert_int_equal(scsi_mode_set_bd_blocks(inplace, sizeof(inplace), 1000000000, inplace,
						 sizeof(inplace), &n),
			 0);
	assert_memory_equal(inplace, want_long, 24);

	assert_int_equal(
	    scsi_mode_set_bd_blocks(ms_short, sizeof(ms_short), 200000000, out, sizeof(out), &n),
	    0);
	assert_int_equal(n, 16);
	assert_memory_equal(out, want_short, 16);
	/* 0xffffffff fits; more needs a long descriptor */
	assert_int_equal(scsi_mode_set_bd_blocks(ms_short, sizeof(ms_short), 0xffffffffULL, out,
						 sizeof(out), &n),
			 0);
	assert_int_equal(out[8] & out[9] & out[10] & out[11], 0xff);
	assert_int_equal(scsi_mode_set_bd_blocks(ms_short, sizeof(ms_short), 0x100000000ULL, out,
						 sizeof(out), &n),
			 -EOVERFLOW);
	assert_int_equal(scsi_mode_set_bd_blocks(no_bd, sizeof(no_bd), 1, out, sizeof(out), &n),
			 -EPROTO);
	assert_int_equal(scsi_mode_set_bd_blocks(ms_long, sizeof(ms_long), 1, out, 23, &n),
			 -ENOSPC);
	assert_int_equal(scsi_mode_set_bd_blocks(ms_long, 20, 1, out, sizeof(out), &n), -EPROTO);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_tur_request_sense),
		cmocka_unit_test(test_build_inquiry),
		cmocka_unit_test(test_build_read_capacity),
		cmocka_unit_test(test_build_mode_sense_select),
		cmocka_unit_test(test_build_format_unit),
		cmocka_unit_test(test_build_log_diag),
		cmocka_unit_test(test_build_rw),
		cmocka_unit_test(test_build_report_zones),
		cmocka_unit_test(test_defects),
		cmocka_unit_test(test_parse_inquiry),
		cmocka_unit_test(test_parse_inquiry_truncated),
		cmocka_unit_test(test_parse_vpd_supported),
		cmocka_unit_test(test_parse_vpd_supported_bad),
		cmocka_unit_test(test_parse_vpd_serial),
		cmocka_unit_test(test_parse_vpd_devid),
		cmocka_unit_test(test_parse_vpd_devid_eui_name_naa6),
		cmocka_unit_test(test_parse_vpd_devid_bad),
		cmocka_unit_test(test_parse_vpd_bdc),
		cmocka_unit_test(test_parse_read_capacity10),
		cmocka_unit_test(test_parse_read_capacity16),
		cmocka_unit_test(test_parse_mode_sense_long),
		cmocka_unit_test(test_parse_mode_sense_short),
		cmocka_unit_test(test_parse_mode_sense_truncated),
		cmocka_unit_test(test_mode_set_bd_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
