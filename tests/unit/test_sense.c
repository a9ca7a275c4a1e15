/*
 * test_sense.c - sense decoding (through sg_lib) of fixed and descriptor
 * sense written by hand from SPC-4 and SAT-3, including the ATA registers
 * of ATA PASS-THROUGH in both formats.
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
#include "shortstroke/sense.h"

/* fixed: ILLEGAL REQUEST, invalid field in CDB, SKS field pointer byte 1 */
static const uint8_t fx_invalid_cdb[18] = {
	0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00,
	0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0xc0, 0x00, 0x01,
};

/* fixed: MEDIUM ERROR at LBA 0x123456 (VALID + INFORMATION) */
static const uint8_t fx_medium[18] = {
	0xf0, 0x00, 0x03, 0x00, 0x12, 0x34, 0x56, 0x0a, 0x00,
	0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* fixed: NOT READY, format in progress, SKS progress 0x4000 (25%) */
static const uint8_t fx_format[18] = {
	0x70, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00,
	0x00, 0x00, 0x00, 0x04, 0x04, 0x00, 0x80, 0x40, 0x00,
};

/* descriptor: NOT READY, format in progress, SKS descriptor 0x8000 (50%) */
static const uint8_t ds_format[16] = {
	0x72, 0x02, 0x04, 0x04, 0x00, 0x00, 0x00, 0x08,
	0x02, 0x06, 0x00, 0x00, 0x80, 0x80, 0x00, 0x00,
};

/* descriptor: MEDIUM ERROR, information descriptor LBA 0x123456789 */
static const uint8_t ds_medium[20] = {
	0x72, 0x03, 0x11, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x0a,
	0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x67, 0x89,
};

/* descriptor: RECOVERED ERROR, ATA PASS-THROUGH information available,
 * ATA Status Return with EXTEND: READ NATIVE MAX EXT = 0x3a3812aaf */
static const uint8_t ds_ata_ext[22] = {
	0x72, 0x01, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x0e, 0x09, 0x0c, 0x01,
	0x00, 0x00, 0x01, 0xa3, 0xaf, 0x03, 0x2a, 0x00, 0x81, 0x40, 0x50,
};

/* descriptor: the same for a 28-bit READ NATIVE MAX = 0x950f8af (LBA
 * 27:24 in the device register), garbage in the HOB bytes */
static const uint8_t ds_ata_28[22] = {
	0x72, 0x01, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x0e, 0x09, 0x0c, 0x00,
	0x00, 0xff, 0x01, 0xee, 0xaf, 0xee, 0xf8, 0xee, 0x50, 0x49, 0x50,
};

/* descriptor: ABORTED COMMAND, information descriptor first, then the
 * ATA return of a failed SET MAX (status ERR, error ABRT) */
static const uint8_t ds_ata_abort[34] = {
	0x72, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1a, 0x00, 0x0a, 0x80, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x09, 0x0c, 0x01, 0x04,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x51,
};

/* fixed: ATA PASS-THROUGH registers as SAT-3 puts them: error 0, status
 * 0x50, device 0x40, count 1; EXTEND + LBA UPPER NONZERO; LBA 23:0 0x812aaf */
static const uint8_t fx_ata[18] = {
	0x70, 0x00, 0x01, 0x00, 0x50, 0x40, 0x01, 0x0a, 0xa0,
	0xaf, 0x2a, 0x81, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x00,
};

static void test_fixed_basic(void **state)
{
	struct scsi_sense s;
	char line[160];

	assert_int_equal(scsi_sense_decode(fx_invalid_cdb, sizeof(fx_invalid_cdb), &s), 0);
	assert_true(s.valid);
	assert_false(s.descriptor);
	assert_false(s.deferred);
	assert_int_equal(s.key, SK_ILLEGAL_REQUEST);
	assert_int_equal(s.asc, 0x24);
	assert_int_equal(s.ascq, 0x00);
	assert_false(s.info_valid);
	assert_false(s.progress_valid); /* SKS here is a field pointer */
	assert_false(s.ata_valid);
	scsi_sense_describe(&s, line, sizeof(line));
	assert_string_equal(line, "Illegal Request: Invalid field in cdb (0x24/0x00)");
}

static void test_fixed_info(void **state)
{
	struct scsi_sense s;

	assert_int_equal(scsi_sense_decode(fx_medium, sizeof(fx_medium), &s), 0);
	assert_int_equal(s.key, SK_MEDIUM_ERROR);
	assert_int_equal(s.asc, 0x11);
	assert_true(s.info_valid);
	assert_int_equal(s.info, 0x123456);
}

static void test_fixed_progress(void **state)
{
	struct scsi_sense s;
	char line[160];

	assert_int_equal(scsi_sense_decode(fx_format, sizeof(fx_format), &s), 0);
	assert_int_equal(s.key, SK_NOT_READY);
	assert_int_equal(s.asc, 0x04);
	assert_int_equal(s.ascq, 0x04);
	assert_true(s.progress_valid);
	assert_int_equal(s.progress, 0x4000);
	scsi_sense_describe(&s, line, sizeof(line));
	assert_string_equal(line, "Not Ready: Logical unit not ready, format in progress "
				  "(0x04/0x04), progress 25%");
	/* cut before the SKS bytes: no progress, still decoded */
	assert_int_equal(scsi_sense_decode(fx_format, 17, &s), 0);
	assert_true(s.valid);
	assert_false(s.progress_valid);
}

static void test_descriptor_progress_info(void **state)
{
	struct scsi_sense s;

	assert_int_equal(scsi_sense_decode(ds_format, sizeof(ds_format), &s), 0);
	assert_true(s.descriptor);
	assert_int_equal(s.key, SK_NOT_READY);
	assert_int_equal(s.asc, 0x04);
	assert_int_equal(s.ascq, 0x04);
	assert_true(s.progress_valid);
	assert_int_equal(s.progress, 0x8000);
	assert_false(s.ata_valid);

	assert_int_equal(scsi_sense_decode(ds_medium, sizeof(ds_medium), &s), 0);
	assert_int_equal(s.key, SK_MEDIUM_ERROR);
	assert_true(s.info_valid);
	assert_int_equal(s.info, 0x123456789ULL);
	assert_false(s.progress_valid);
}

static void test_descriptor_ata_ext(void **state)
{
	struct scsi_sense s;

	assert_int_equal(scsi_sense_decode(ds_ata_ext, sizeof(ds_ata_ext), &s), 0);
	assert_int_equal(s.key, SK_RECOVERED_ERROR);
	assert_int_equal(s.asc, 0x00);
	assert_int_equal(s.ascq, 0x1d);
	assert_true(s.ata_valid);
	assert_false(s.ata_fixed);
	assert_true(s.ata.ext);
	assert_int_equal(s.ata.status, 0x50);
	assert_int_equal(s.ata.error, 0x00);
	assert_int_equal(s.ata.device, 0x40);
	assert_int_equal(s.ata.count, 1);
	assert_int_equal(s.ata.lba, 0x3a3812aafULL);
	assert_int_equal(ata_regs_lba(&s.ata, true), 0x3a3812aafULL);
}

static void test_descriptor_ata_28(void **state)
{
	struct scsi_sense s;

	assert_int_equal(scsi_sense_decode(ds_ata_28, sizeof(ds_ata_28), &s), 0);
	assert_true(s.ata_valid);
	assert_false(s.ata.ext);
	assert_int_equal(s.ata.count, 1); /* HOB ignored without EXTEND */
	assert_int_equal(s.ata.lba, 0x50f8af);
	assert_int_equal(s.ata.device, 0x49);
	assert_int_equal(ata_regs_lba(&s.ata, false), 0x950f8af);
}

static void test_descriptor_ata_abort(void **state)
{
	struct scsi_sense s;
	char line[160];

	assert_int_equal(scsi_sense_decode(ds_ata_abort, sizeof(ds_ata_abort), &s), 0);
	assert_int_equal(s.key, SK_ABORTED_COMMAND);
	assert_true(s.info_valid);
	assert_int_equal(s.info, 7);
	assert_true(s.ata_valid);
	assert_int_equal(s.ata.status, 0x51);
	assert_int_equal(s.ata.error, 0x04);
	assert_true(s.ata.status & ATA_STAT_ERR);
	assert_true(s.ata.error & ATA_ERR_ABRT);
	scsi_sense_describe(&s, line, sizeof(line));
	assert_string_equal(line, "Aborted Command: No additional sense information "
				  "(0x00/0x00), ATA status 0x51 error 0x04");
	/* ATA descriptor cut short: the rest still decodes */
	assert_int_equal(scsi_sense_decode(ds_ata_abort, 33, &s), 0);
	assert_true(s.valid);
	assert_true(s.info_valid);
	assert_false(s.ata_valid);
	assert_int_equal(scsi_sense_decode(ds_ata_abort, 22, &s), 0);
	assert_false(s.ata_valid);
}

/* An ATA Return descriptor's type byte in the very last byte sg_lib may
 * read: its length byte lies beyond the buffer and is never read (ASan). */
static void test_descriptor_ata_at_end(void **state)
{
	uint8_t *b = calloc(1, 8 + 255);
	struct scsi_sense s;

	(void)state;
	assert_non_null(b);
	b[0] = 0x72;
	b[1] = SK_ABORTED_COMMAND;
	b[7] = 255;
	b[8] = 0x80; /* a vendor descriptor of 252 bytes: 8 .. 261 */
	b[9] = 252;
	b[262] = 0x09; /* ATA Status Return, cut after its type byte */
	assert_int_equal(scsi_sense_decode(b, 8 + 255, &s), 0);
	assert_true(s.valid);
	assert_false(s.ata_valid);
	free(b);
}

static void test_fixed_ata(void **state)
{
	struct scsi_sense s;
	uint8_t b[18];

	assert_int_equal(scsi_sense_decode(fx_ata, sizeof(fx_ata), &s), 0);
	assert_false(s.descriptor);
	assert_int_equal(s.key, SK_RECOVERED_ERROR);
	assert_true(s.ata_valid);
	assert_true(s.ata_fixed);
	assert_true(s.ata.ext);
	assert_true(s.ata_lba_upper_nz);
	assert_false(s.ata_count_upper_nz);
	assert_int_equal(s.ata.error, 0x00);
	assert_int_equal(s.ata.status, 0x50);
	assert_int_equal(s.ata.device, 0x40);
	assert_int_equal(s.ata.count, 1);
	assert_int_equal(s.ata.lba, 0x812aaf);
	assert_false(s.info_valid); /* INFORMATION held registers */

	/* not EXTEND, count upper non-zero flag, VALID bit set */
	memcpy(b, fx_ata, sizeof(b));
	b[0] = 0xf0;
	b[8] = 0x40;
	assert_int_equal(scsi_sense_decode(b, sizeof(b), &s), 0);
	assert_true(s.ata_valid);
	assert_false(s.ata.ext);
	assert_true(s.ata_count_upper_nz);
	assert_false(s.ata_lba_upper_nz);
	assert_false(s.info_valid);

	/* other ASC/ASCQ: INFORMATION is an LBA, not registers */
	b[13] = 0x00;
	b[12] = 0x11;
	assert_int_equal(scsi_sense_decode(b, sizeof(b), &s), 0);
	assert_false(s.ata_valid);
	assert_true(s.info_valid);

	/* cut before ASC/ASCQ: no ATA registers */
	assert_int_equal(scsi_sense_decode(fx_ata, 13, &s), 0);
	assert_true(s.valid);
	assert_false(s.ata_valid);
	/* ADDITIONAL SENSE LENGTH too short to cover ASC/ASCQ */
	memcpy(b, fx_ata, sizeof(b));
	b[7] = 0x04;
	assert_int_equal(scsi_sense_decode(b, sizeof(b), &s), 0);
	assert_false(s.ata_valid);
}

static void test_deferred(void **state)
{
	struct scsi_sense s;
	uint8_t b[18];

	memcpy(b, fx_medium, sizeof(b));
	b[0] = 0xf1;
	assert_int_equal(scsi_sense_decode(b, sizeof(b), &s), 0);
	assert_true(s.deferred);
	assert_false(s.descriptor);
	memcpy(b, ds_format, sizeof(ds_format));
	b[0] = 0x73;
	assert_int_equal(scsi_sense_decode(b, sizeof(ds_format), &s), 0);
	assert_true(s.deferred);
	assert_true(s.descriptor);
}

static void test_invalid(void **state)
{
	struct scsi_sense s;
	char line[64];
	static const uint8_t zero[18];
	static const uint8_t bad[18] = { 0x7f, 0x00, 0x05 };
	size_t len;

	assert_int_equal(scsi_sense_decode(zero, sizeof(zero), &s), -EINVAL);
	assert_false(s.valid);
	assert_int_equal(scsi_sense_decode(bad, sizeof(bad), &s), -EINVAL);
	assert_int_equal(scsi_sense_decode(fx_medium, 0, &s), -EINVAL);
	assert_int_equal(scsi_sense_decode(NULL, 18, &s), -EINVAL);
	for (len = 1; len < 8; len++) {
		assert_int_equal(scsi_sense_decode(fx_medium, len, &s), -EPROTO);
		assert_false(s.valid);
		assert_int_equal(scsi_sense_decode(ds_ata_ext, len, &s), -EPROTO);
	}
	/* every length from 8 up decodes without reading past it */
	for (len = 8; len <= sizeof(ds_ata_abort); len++)
		assert_int_equal(scsi_sense_decode(ds_ata_abort, len, &s), 0);
	scsi_sense_describe(&s, line, 0);
	scsi_sense_decode(zero, sizeof(zero), &s);
	scsi_sense_describe(&s, line, sizeof(line));
	assert_string_equal(line, "no sense data");
	/* a small buffer is truncated, NUL terminated */
	scsi_sense_decode(fx_invalid_cdb, sizeof(fx_invalid_cdb), &s);
	scsi_sense_describe(&s, line, 8);
	assert_string_equal(line, "Illegal");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_basic),
		cmocka_unit_test(test_fixed_info),
		cmocka_unit_test(test_fixed_progress),
		cmocka_unit_test(test_descriptor_progress_info),
		cmocka_unit_test(test_descriptor_ata_ext),
		cmocka_unit_test(test_descriptor_ata_28),
		cmocka_unit_test(test_descriptor_ata_abort),
		cmocka_unit_test(test_descriptor_ata_at_end),
		cmocka_unit_test(test_fixed_ata),
		cmocka_unit_test(test_deferred),
		cmocka_unit_test(test_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
