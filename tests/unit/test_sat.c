/* test_sat.c - ATA PASS-THROUGH CDBs and ATA Status Return sense, byte by
 * byte against the SAT-3 layouts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/sat.h"

static struct ata_tf tf_make(uint8_t cmd, uint16_t feature, uint16_t count, uint64_t lba,
			     uint8_t device, bool ext, enum ata_proto proto, unsigned blocks,
			     bool write)
{
	struct ata_tf tf;

	memset(&tf, 0, sizeof(tf));
	tf.command = cmd;
	tf.feature = feature;
	tf.count = count;
	tf.lba = lba;
	tf.device = device;
	tf.ext = ext;
	tf.proto = proto;
	tf.xfer_blocks = blocks;
	tf.write = write;
	return tf;
}

static void test_build_read_native_max_ext(void **state)
{
	static const uint8_t want[16] = { 0x85, 0x07, 0x20, 0, 0, 0,	0,    0,
					  0,	0,    0,    0, 0, 0x40, 0x27, 0 };
	struct ata_tf tf = tf_make(0x27, 0, 0, 0, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	uint8_t cdb[16];

	(void)state;
	assert_int_equal(sat_build_ata_pt16(cdb, &tf, true), 16);
	assert_memory_equal(cdb, want, 16);
}

static void test_build_identify(void **state)
{
	/* PIO data-in: PROTOCOL 4, T_DIR=1, BYT_BLOK=1, T_LENGTH=2 (COUNT) */
	static const uint8_t want[16] = { 0x85, 0x08, 0x0e, 0, 0, 0,	0x01, 0,
					  0,	0,    0,    0, 0, 0x40, 0xec, 0 };
	struct ata_tf tf = tf_make(0xec, 0, 1, 0, 0x40, false, ATA_PROTO_PIO_IN, 1, false);
	uint8_t cdb[16];

	(void)state;
	sat_build_ata_pt16(cdb, &tf, false);
	assert_memory_equal(cdb, want, 16);
}

static void test_build_set_max_ext(void **state)
{
	/* LBA 0x123456789abc: 31:24 in byte 7, 7:0 in 8, 39:32 in 9, 15:8 in
	 * 10, 47:40 in 11, 23:16 in 12 */
	static const uint8_t want[16] = { 0x85, 0x07, 0x00, 0x00, 0x00, 0x00, 0x01, 0x56,
					  0xbc, 0x34, 0x9a, 0x12, 0x78, 0x40, 0x37, 0x00 };
	struct ata_tf tf = tf_make(0x37, 0, 1, 0x123456789abcULL, 0x40, true, ATA_PROTO_NON_DATA, 0,
				   false);
	uint8_t cdb[16];

	(void)state;
	sat_build_ata_pt16(cdb, &tf, false);
	assert_memory_equal(cdb, want, 16);
}

static void test_build_28bit_lba_in_device(void **state)
{
	static const uint8_t want[16] = { 0x85, 0x06, 0x20, 0, 0x00, 0,	   0x00, 0,
					  0xf0, 0,    0xde, 0, 0xbc, 0x4a, 0xf9, 0 };
	struct ata_tf tf = tf_make(0xf9, 0, 0, 0x0abcdef0, 0x40, false, ATA_PROTO_NON_DATA, 0,
				   false);
	uint8_t cdb[16];

	(void)state;
	sat_build_ata_pt16(cdb, &tf, true);
	assert_memory_equal(cdb, want, 16);
}

static void test_build_pio_out_and_feature_ext(void **state)
{
	/* DCO SET: PIO data-out, T_DIR=0 */
	static const uint8_t dco[16] = { 0x85, 0x0a, 0x06, 0, 0xc3, 0,	  0x01, 0,
					 0,    0,    0,	   0, 0,    0x40, 0xb1, 0 };
	/* AMAC SET ACCESSIBLE MAX: feature 0x0001 over both bytes */
	static const uint8_t amac[16] = { 0x85, 0x07, 0x20, 0x00, 0x01, 0,    0,    0x00,
					  0x0f, 0x00, 0x42, 0x00, 0x00, 0x40, 0x78, 0 };
	struct ata_tf tf = tf_make(0xb1, 0xc3, 1, 0, 0x40, false, ATA_PROTO_PIO_OUT, 1, true);
	uint8_t cdb[16];

	(void)state;
	sat_build_ata_pt16(cdb, &tf, false);
	assert_memory_equal(cdb, dco, 16);
	tf = tf_make(0x78, 0x0001, 0, 0x420f, 0x40, true, ATA_PROTO_NON_DATA, 0, false);
	sat_build_ata_pt16(cdb, &tf, true);
	assert_memory_equal(cdb, amac, 16);
}

static void test_parse_round_trip(void **state)
{
	struct ata_tf in = tf_make(0x25, 0x0000, 0x0100, 0x0000aabbccddULL, 0x40, true,
				   ATA_PROTO_DMA, 0x100, false);
	struct ata_tf out;
	struct sat_pt_fields f;
	uint8_t cdb[16];
	bool ck = true;

	(void)state;
	sat_build_ata_pt16(cdb, &in, false);
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &out, &ck), 0);
	assert_false(ck);
	assert_int_equal(out.command, 0x25);
	assert_int_equal(out.count, 0x100);
	assert_true(out.lba == 0xaabbccddULL);
	assert_true(out.ext);
	assert_int_equal(out.proto, ATA_PROTO_DMA);
	assert_int_equal(out.xfer_blocks, 0x100);
	assert_false(out.write);
	assert_int_equal(sat_parse_ata_pt_fields(cdb, 16, &out, &f), 0);
	assert_int_equal(f.t_length, 2);
	assert_true(f.t_dir);
	assert_true(f.byt_blok);
	assert_int_equal(f.t_value, 0x100);

	/* 28-bit: LBA 27:24 come back from DEVICE */
	in = tf_make(0xf9, 0, 1, 0x0abcdef0, 0x40, false, ATA_PROTO_NON_DATA, 0, false);
	sat_build_ata_pt16(cdb, &in, true);
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &out, &ck), 0);
	assert_true(ck);
	assert_true(out.lba == 0x0abcdef0);
	assert_int_equal(out.device, 0x4a);
	assert_false(out.ext);
}

static void test_parse_pt12(void **state)
{
	/* IDENTIFY DEVICE in ATA PASS-THROUGH (12) */
	static const uint8_t cdb[12] = { 0xa1, 0x08, 0x0e, 0x00, 0x01, 0x00,
					 0x00, 0x00, 0x40, 0xec, 0x00, 0x00 };
	static const uint8_t rnm[12] = { 0xa1, 0x06, 0x20, 0x00, 0x00, 0x11,
					 0x22, 0x33, 0x45, 0xf8, 0x00, 0x00 };
	struct ata_tf tf;
	bool ck;

	(void)state;
	assert_int_equal(sat_parse_ata_pt(cdb, 12, &tf, &ck), 0);
	assert_int_equal(tf.command, 0xec);
	assert_int_equal(tf.count, 1);
	assert_int_equal(tf.proto, ATA_PROTO_PIO_IN);
	assert_int_equal(tf.xfer_blocks, 1);
	assert_false(ck);
	assert_int_equal(sat_parse_ata_pt(rnm, 12, &tf, &ck), 0);
	assert_true(ck);
	assert_true(tf.lba == 0x05332211);
	assert_int_equal(tf.device, 0x45);
}

static void test_parse_bytes_and_t_type(void **state)
{
	/* T_LENGTH=2, BYT_BLOK=0: COUNT holds bytes (0x0200 = one block);
	 * T_TYPE=1: the unit is the logical sector, reported raw */
	uint8_t cdb[16] = { 0x85, 0x09, 0x1a, 0, 0, 0x02, 0x00, 0, 0, 0, 0, 0, 0, 0x40, 0x25, 0 };
	struct sat_pt_fields f;
	struct ata_tf tf;

	(void)state;
	assert_int_equal(sat_parse_ata_pt_fields(cdb, 16, &tf, &f), 0);
	assert_true(f.t_type);
	assert_false(f.byt_blok);
	assert_int_equal(f.t_value, 0x200);
	assert_int_equal(tf.xfer_blocks, 1);
	assert_int_equal(f.protocol, 4);
}

static void test_parse_rejects(void **state)
{
	uint8_t ok[16] = { 0x85, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0xf8, 0 };
	uint8_t cdb[16];
	struct ata_tf tf;

	(void)state;
	assert_int_equal(sat_parse_ata_pt(ok, 16, &tf, NULL), 0);
	assert_int_equal(sat_parse_ata_pt(ok, 12, &tf, NULL), -EINVAL); /* length */
	memcpy(cdb, ok, 16);
	cdb[0] = 0x88;
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &tf, NULL), -EINVAL); /* opcode */
	memcpy(cdb, ok, 16);
	cdb[1] = 2 << 1;
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &tf, NULL), -EINVAL); /* reserved protocol */
	cdb[1] = 13 << 1;
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &tf, NULL), -EINVAL);
	memcpy(cdb, ok, 16);
	cdb[2] = 0x0e; /* non-data with a transfer length */
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &tf, NULL), -EINVAL);
	cdb[1] = 4 << 1; /* PIO in ... */
	cdb[2] = 0x06;	 /* ... but T_DIR=0 */
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &tf, NULL), -EINVAL);
	cdb[2] = 0x08; /* PIO in without T_LENGTH */
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &tf, NULL), -EINVAL);
	cdb[1] = 5 << 1; /* PIO out with T_DIR=1 */
	cdb[2] = 0x0e;
	assert_int_equal(sat_parse_ata_pt(cdb, 16, &tf, NULL), -EINVAL);
}

static void test_return_sense_descriptor(void **state)
{
	/* READ NATIVE MAX EXT of a 488,397,168-sector disk: 0x1d1c596f */
	static const uint8_t want[22] = { 0x72, 0x01, 0x00, 0x1d, 0,	0,    0,    0x0e,
					  0x09, 0x0c, 0x01, 0x00, 0x00, 0x00, 0x1d, 0x6f,
					  0x00, 0x59, 0x00, 0x1c, 0x40, 0x50 };
	struct ata_regs r = { .status = 0x50,
			      .error = 0,
			      .device = 0x40,
			      .count = 0,
			      .lba = 0x1d1c596fULL,
			      .ext = true };
	uint8_t s[64];

	(void)state;
	memset(s, 0xee, sizeof(s));
	assert_int_equal(sat_build_ata_return_sense(s, sizeof(s), true, &r), 22);
	assert_memory_equal(s, want, 22);
	assert_int_equal(s[22], 0xee);
}

static void test_return_sense_error_and_28bit(void **state)
{
	struct ata_regs r = { .status = 0x51,
			      .error = 0x04,
			      .device = 0x4a,
			      .count = 0x12,
			      .lba = 0x00bcdef0,
			      .ext = false };
	static const uint8_t want[22] = { 0x72, 0x0b, 0x00, 0x1d, 0,	0,    0,    0x0e,
					  0x09, 0x0c, 0x00, 0x04, 0x00, 0x12, 0x00, 0xf0,
					  0x00, 0xde, 0x00, 0xbc, 0x4a, 0x51 };
	uint8_t s[22];

	(void)state;
	assert_int_equal(sat_build_ata_return_sense(s, sizeof(s), true, &r), 22);
	assert_memory_equal(s, want, 22);
}

static void test_return_sense_fixed(void **state)
{
	static const uint8_t want28[18] = { 0xf0, 0x00, 0x01, 0x00, 0x50, 0x4a, 0x12, 0x0a, 0x00,
					    0xf0, 0xde, 0xbc, 0x00, 0x1d, 0,	0,    0,    0 };
	static const uint8_t want48[18] = { 0xf0, 0x00, 0x0b, 0x04, 0x51, 0x40, 0x02, 0x0a, 0xe0,
					    0x6f, 0x59, 0x1c, 0x00, 0x1d, 0,	0,    0,    0 };
	struct ata_regs r = { .status = 0x50,
			      .error = 0,
			      .device = 0x4a,
			      .count = 0x12,
			      .lba = 0x00bcdef0,
			      .ext = false };
	uint8_t s[32];

	(void)state;
	assert_int_equal(sat_build_ata_return_sense(s, sizeof(s), false, &r), 18);
	assert_memory_equal(s, want28, 18);
	/* 48-bit: EXTEND, COUNT UPPER NONZERO, LBA UPPER NONZERO */
	r = (struct ata_regs){ .status = 0x51,
			       .error = 0x04,
			       .device = 0x40,
			       .count = 0x0102,
			       .lba = 0x1d1c596fULL,
			       .ext = true };
	assert_int_equal(sat_build_ata_return_sense(s, sizeof(s), false, &r), 18);
	assert_memory_equal(s, want48, 18);
	/* upper bytes zero: only EXTEND */
	r.count = 0x02;
	r.lba = 0x1c596f;
	sat_build_ata_return_sense(s, sizeof(s), false, &r);
	assert_int_equal(s[8], 0x80);
}

static void test_cdb_describe(void **state)
{
	uint8_t cdb[16];
	struct ata_tf tf;
	char buf[96];
	unsigned n;

	(void)state;
	ata_tf_identify(&tf);
	n = sat_build_ata_pt16(cdb, &tf, false);
	sat_cdb_describe(cdb, n, buf, sizeof(buf));
	assert_string_equal(buf, "ATA IDENTIFY DEVICE");
	ata_tf_amac_set_accessible(&tf, 1000);
	n = sat_build_ata_pt16(cdb, &tf, false);
	sat_cdb_describe(cdb, n, buf, sizeof(buf));
	assert_string_equal(buf, "ATA SET ACCESSIBLE MAX ADDRESS EXT");
	tf.command = 0x99; /* not one of ours */
	n = sat_build_ata_pt16(cdb, &tf, false);
	sat_cdb_describe(cdb, n, buf, sizeof(buf));
	assert_string_equal(buf, "ATA command 99h");
	/* SCSI: sg_lib's names, service actions included */
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x12;
	sat_cdb_describe(cdb, 6, buf, sizeof(buf));
	assert_string_equal(buf, "Inquiry");
	cdb[0] = 0x9e;
	cdb[1] = 0x10;
	sat_cdb_describe(cdb, 16, buf, sizeof(buf));
	assert_string_equal(buf, "Read capacity(16)");
	sat_cdb_describe(cdb, 16, buf, 4); /* cut, terminated */
	assert_int_equal(strlen(buf), 3);
}

static void test_return_sense_truncated(void **state)
{
	struct ata_regs r = { .status = 0x50, .device = 0x40 };
	uint8_t s[8];

	(void)state;
	assert_int_equal(sat_build_ata_return_sense(s, sizeof(s), true, &r), 8);
	assert_int_equal(s[0], 0x72);
	assert_int_equal(s[7], 14);
	assert_int_equal(sat_build_ata_return_sense(s, 0, true, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_read_native_max_ext),
		cmocka_unit_test(test_build_identify),
		cmocka_unit_test(test_build_set_max_ext),
		cmocka_unit_test(test_build_28bit_lba_in_device),
		cmocka_unit_test(test_build_pio_out_and_feature_ext),
		cmocka_unit_test(test_parse_round_trip),
		cmocka_unit_test(test_parse_pt12),
		cmocka_unit_test(test_parse_bytes_and_t_type),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_cdb_describe),
		cmocka_unit_test(test_return_sense_descriptor),
		cmocka_unit_test(test_return_sense_error_and_28bit),
		cmocka_unit_test(test_return_sense_fixed),
		cmocka_unit_test(test_return_sense_truncated),
	};

	return cmocka_run_group_tests_name("sat", tests, NULL, NULL);
}
