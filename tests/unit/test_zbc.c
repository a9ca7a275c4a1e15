/*
 * test_zbc.c - the zone list parser (ZBC big-endian, ZAC little-endian),
 * the REPORT ZONES builders, the summary, and zones_report() paging
 * through a large zone list over a loopback transport that answers
 * REPORT ZONES (SCSI) and REPORT ZONES EXT (ATA PASS-THROUGH) from a
 * table of zones.
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
#include "shortstroke/zbc.h"
#include "shortstroke/zones.h"

/* A ZBC answer written from ZBC-2 6.x: header (3 zones, SAME 0, max LBA
 * 0x2ffff), then 2 descriptors (the allocation length cut the third). */
static const uint8_t zbc_answer[64 * 3] = {
	/* header */
	[3] = 0xc0, /* ZONE LIST LENGTH 192 */
	[4] = 0x00, /* SAME */
	[13] = 0x02,
	[14] = 0xff,
	[15] = 0xff, /* MAXIMUM LBA 0x2ffff */
	/* zone 0: conventional, not write pointer, 0x10000 blocks at 0 */
	[64 + 0] = 0x01,
	[64 + 1] = 0x00,
	[64 + 13] = 0x01, /* length 0x10000 */
	[64 + 24] = 0xff,
	[64 + 25] = 0xff,
	[64 + 26] = 0xff,
	[64 + 27] = 0xff,
	[64 + 28] = 0xff,
	[64 + 29] = 0xff,
	[64 + 30] = 0xff,
	[64 + 31] = 0xff,
	/* zone 1: sequential write required, implicitly open, RESET, at
	 * 0x10000, write pointer 0x10800 */
	[128 + 0] = 0x02,
	[128 + 1] = 0x21,
	[128 + 13] = 0x01,
	[128 + 21] = 0x01, /* start 0x10000 */
	[128 + 29] = 0x01,
	[128 + 30] = 0x08, /* wp 0x10800 */
};

/* The same zones as ZAC returns them: little-endian fields. */
static const uint8_t zac_answer[64 * 3] = {
	[0] = 0xc0,	   [8] = 0xff,	      [9] = 0xff,	 [10] = 0x02,
	[64 + 0] = 0x01,   [64 + 1] = 0x00,   [64 + 10] = 0x01,	 [64 + 24] = 0xff,
	[64 + 25] = 0xff,  [64 + 26] = 0xff,  [64 + 27] = 0xff,	 [64 + 28] = 0xff,
	[64 + 29] = 0xff,  [64 + 30] = 0xff,  [64 + 31] = 0xff,	 [128 + 0] = 0x02,
	[128 + 1] = 0x21,  [128 + 10] = 0x01, [128 + 18] = 0x01, [128 + 25] = 0x08,
	[128 + 26] = 0x01,
};

static void check_two(const struct zone_list_hdr *h, const struct zone_desc *z, size_t n)
{
	assert_int_equal(h->list_len, 192);
	assert_int_equal(h->total, 3);
	assert_int_equal(h->here, 2);
	assert_true(h->max_lba == 0x2ffff);
	assert_int_equal(n, 2);
	assert_int_equal(z[0].type, ZONE_TYPE_CONVENTIONAL);
	assert_int_equal(z[0].cond, ZONE_COND_NOT_WP);
	assert_true(z[0].len == 0x10000);
	assert_true(z[0].start == 0);
	assert_int_equal(z[1].type, ZONE_TYPE_SEQ_REQUIRED);
	assert_int_equal(z[1].cond, ZONE_COND_IMP_OPEN);
	assert_true(z[1].reset);
	assert_false(z[1].non_seq);
	assert_true(z[1].start == 0x10000);
	assert_true(z[1].wp == 0x10800);
}

static void test_parse_zbc_zac(void **state)
{
	struct zone_list_hdr h;
	struct zone_desc z[4];
	size_t n;

	assert_int_equal(zones_parse_list(zbc_answer, sizeof(zbc_answer), false, &h, z, 4, &n), 0);
	check_two(&h, z, n);
	assert_false(h.truncated);
	memset(z, 0, sizeof(z));
	assert_int_equal(zones_parse_list(zac_answer, sizeof(zac_answer), true, &h, z, 4, &n), 0);
	check_two(&h, z, n);
	/* read with the wrong byte order the numbers are nonsense: the
	 * caller must say which it has */
	assert_int_equal(zones_parse_list(zac_answer, sizeof(zac_answer), false, &h, z, 4, &n), 0);
	assert_true(h.list_len != 192);
}

static void test_parse_truncated(void **state)
{
	struct zone_list_hdr h;
	struct zone_desc z[4];
	size_t n;

	/* no header */
	assert_int_equal(zones_parse_list(zbc_answer, 63, false, &h, z, 4, &n), -EPROTO);
	assert_int_equal(n, 0);
	/* a descriptor and a half: one stored, flagged */
	assert_int_equal(zones_parse_list(zbc_answer, 64 + 64 + 32, false, &h, z, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(h.here, 1);
	assert_true(h.truncated);
	/* room for one only */
	assert_int_equal(zones_parse_list(zbc_answer, sizeof(zbc_answer), false, &h, z, 1, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(h.here, 2);
	/* header only, no room */
	assert_int_equal(zones_parse_list(zbc_answer, sizeof(zbc_answer), false, &h, NULL, 0, &n),
			 0);
	assert_int_equal(n, 0);
	assert_int_equal(h.total, 3);
}

static void test_parse_list_len_short(void **state)
{
	uint8_t a[64 * 3];
	struct zone_list_hdr h;
	struct zone_desc z[4];
	size_t n;

	/* the list length announces one zone: the second descriptor in the
	 * buffer is not used */
	memcpy(a, zbc_answer, sizeof(a));
	a[3] = 0x40;
	assert_int_equal(zones_parse_list(a, sizeof(a), false, &h, z, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(h.total, 1);
}

static void test_builders(void **state)
{
	static const uint8_t want[16] = { 0x95, 0x00, 0,    0,	  0,	0,    0,    0x01,
					  0x23, 0x45, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00 };
	uint8_t cdb[16];
	struct ata_tf tf;

	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(zones_build_report_scsi(cdb, 0x12345, 0x10000), 16);
	assert_memory_equal(cdb, want, 16);
	zones_tf_report(&tf, 0x12345, 128);
	assert_int_equal(tf.command, ATA_ZAC_MGMT_IN);
	assert_int_equal(tf.feature, 0);
	assert_int_equal(tf.count, 128);
	assert_true(tf.lba == 0x12345);
	assert_true(tf.ext);
	assert_int_equal(tf.proto, ATA_PROTO_DMA);
	assert_int_equal(tf.xfer_blocks, 128);
	assert_false(tf.write);
}

static void test_summary(void **state)
{
	const struct zone_desc z[] = {
		{ ZONE_TYPE_CONVENTIONAL, ZONE_COND_NOT_WP, false, false, 100, 0, 0 },
		{ ZONE_TYPE_SEQ_REQUIRED, ZONE_COND_EMPTY, false, false, 100, 100, 100 },
		{ ZONE_TYPE_SEQ_REQUIRED, ZONE_COND_IMP_OPEN, false, false, 100, 200, 250 },
		{ ZONE_TYPE_SEQ_REQUIRED, ZONE_COND_FULL, false, false, 100, 300, 400 },
		{ ZONE_TYPE_SEQ_PREFERRED, ZONE_COND_CLOSED, true, false, 100, 400, 410 },
		{ ZONE_TYPE_SEQ_OR_BEFORE, ZONE_COND_EXP_OPEN, false, false, 100, 500, 501 },
		{ ZONE_TYPE_SEQ_REQUIRED, ZONE_COND_OFFLINE, false, false, 100, 600, 0 },
		{ ZONE_TYPE_SEQ_REQUIRED, ZONE_COND_READ_ONLY, false, false, 100, 700, 0 },
	};
	struct zone_summary s;

	zones_summarize(z, sizeof(z) / sizeof(z[0]), &s);
	assert_int_equal(s.zones, 8);
	assert_int_equal(s.conventional, 1);
	assert_int_equal(s.seq_required, 5);
	assert_int_equal(s.seq_preferred, 1);
	assert_int_equal(s.seq_or_before, 1);
	assert_int_equal(s.not_wp, 1);
	assert_int_equal(s.empty, 1);
	assert_int_equal(s.imp_open, 1);
	assert_int_equal(s.exp_open, 1);
	assert_int_equal(s.closed, 1);
	assert_int_equal(s.full, 1);
	assert_int_equal(s.offline, 1);
	assert_int_equal(s.read_only, 1);
	assert_int_equal(s.conventional_blocks, 100);
	assert_int_equal(s.sequential_blocks, 700);
	assert_int_equal(s.written_blocks, 50 + 100 + 10 + 1);
	assert_string_equal(zone_type_name(ZONE_TYPE_SEQ_REQUIRED), "seq-required");
	assert_string_equal(zone_cond_name(ZONE_COND_FULL), "full");
	assert_string_equal(zone_cond_name(0x9), "reserved");
}

/* ---- loopback drive ---------------------------------------------------------- */

#define FAKE_ZONES 2500
#define FAKE_ZLEN 0x80000ULL

struct fake_zdisk {
	bool ata;    /* answer REPORT ZONES EXT, little-endian */
	bool reject; /* ILLEGAL REQUEST / ABRT to everything */
	unsigned commands;
};

static void put(uint8_t *p, unsigned n, uint64_t v, bool le)
{
	for (unsigned i = 0; i < n; i++)
		p[le ? i : n - 1 - i] = (uint8_t)(v >> (8 * i));
}

/* Fill buf (len bytes) with the zone list from the zone holding lba. */
static void fake_list(uint8_t *buf, size_t len, uint64_t lba, bool le)
{
	uint64_t first = lba / FAKE_ZLEN;
	uint64_t total = first < FAKE_ZONES ? FAKE_ZONES - first : 0;
	size_t room = (len - 64) / 64;

	memset(buf, 0, len);
	put(buf, 4, total * 64, le);
	put(buf + 8, 8, FAKE_ZONES * FAKE_ZLEN - 1, le);
	for (size_t i = 0; i < room && i < total; i++) {
		uint8_t *d = buf + 64 + i * 64;
		uint64_t z = first + i;

		d[0] = z < 4 ? ZONE_TYPE_CONVENTIONAL : ZONE_TYPE_SEQ_REQUIRED;
		d[1] = (uint8_t)((z < 4	     ? ZONE_COND_NOT_WP
				  : z < 1000 ? ZONE_COND_FULL
					     : ZONE_COND_EMPTY)
				 << 4);
		put(d + 8, 8, FAKE_ZLEN, le);
		put(d + 16, 8, z * FAKE_ZLEN, le);
		put(d + 24, 8, z < 1000 ? (z + 1) * FAKE_ZLEN : z * FAKE_ZLEN, le);
	}
}

static int fake_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	struct fake_zdisk *f = t->priv;
	struct ata_regs r;
	struct ata_tf tf;

	f->commands++;
	if (f->reject) {
		c->status = SCSI_STATUS_CHECK_CONDITION;
		if (c->cdb[0] == SCSI_ATA_PT16) {
			memset(&r, 0, sizeof(r));
			r.status = ATA_STAT_DRDY | ATA_STAT_ERR;
			r.error = ATA_ERR_ABRT;
			c->sense_len = sat_build_ata_return_sense(c->sense, sizeof(c->sense), true,
								  &r);
		} else {
			/* fixed sense: ILLEGAL REQUEST, INVALID COMMAND OPERATION CODE */
			memset(c->sense, 0, 18);
			c->sense[0] = 0x70;
			c->sense[2] = SK_ILLEGAL_REQUEST;
			c->sense[7] = 10;
			c->sense[12] = 0x20;
			c->sense_len = 18;
		}
		return 0;
	}
	if (f->ata) {
		assert_int_equal(c->cdb[0], SCSI_ATA_PT16);
		assert_int_equal(sat_parse_ata_pt(c->cdb, c->cdb_len, &tf, NULL), 0);
		assert_int_equal(tf.command, ATA_ZAC_MGMT_IN);
		assert_int_equal(c->data_len, (size_t)tf.xfer_blocks * 512);
		fake_list(c->data, c->data_len, tf.lba, true);
	} else {
		uint64_t lba = 0;
		uint32_t alloc = 0;

		assert_int_equal(c->cdb[0], SCSI_ZBC_IN);
		for (int i = 2; i < 10; i++)
			lba = lba << 8 | c->cdb[i];
		for (int i = 10; i < 14; i++)
			alloc = alloc << 8 | c->cdb[i];
		assert_int_equal(alloc, c->data_len);
		fake_list(c->data, c->data_len, lba, false);
	}
	c->status = SCSI_STATUS_GOOD;
	return 0;
}

static void fake_close(struct transport *t)
{
	(void)t;
}

static const struct transport_ops fake_ops = { "fake", fake_exec, fake_close, 0 };

static struct drive *fake_drive(struct transport *t, struct fake_zdisk *f)
{
	struct drive *d;

	assert_int_equal(transport_init(t, &fake_ops, f, "fake:smr", NULL), 0);
	assert_int_equal(drive_new(t, TRAN_UNKNOWN, &d, NULL), 0);
	return d;
}

static void check_report(const struct zone_report *r)
{
	assert_int_equal(r->count, FAKE_ZONES);
	assert_true(r->max_lba == FAKE_ZONES * FAKE_ZLEN - 1);
	for (size_t i = 0; i < r->count; i++)
		assert_true(r->zones[i].start == i * FAKE_ZLEN);
	assert_int_equal(r->summary.conventional, 4);
	assert_int_equal(r->summary.seq_required, FAKE_ZONES - 4);
	assert_int_equal(r->summary.full, 996);
	assert_int_equal(r->summary.empty, FAKE_ZONES - 1000);
}

static void test_report_scsi_paged(void **state)
{
	struct fake_zdisk f = { 0 };
	struct drive_info info = { .zoned = ZONED_HOST_MANAGED };
	struct zone_report r;
	struct ss_error err = { 0 };
	struct transport t;
	struct drive *d = fake_drive(&t, &f);

	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_false(r.zac);
	check_report(&r);
	assert_int_equal(f.commands, 3); /* 1023 + 1023 + 454 */
	zone_report_fini(&r);
	drive_free(d);
}

static void test_report_ata_paged(void **state)
{
	struct fake_zdisk f = { .ata = true };
	struct drive_info info = { .zoned = ZONED_HOST_AWARE, .ata = true };
	struct zone_report r;
	struct ss_error err = { 0 };
	struct transport t;
	struct drive *d = fake_drive(&t, &f);

	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_true(r.zac);
	check_report(&r);
	zone_report_fini(&r);
	drive_free(d);
}

static void test_report_not_zoned(void **state)
{
	struct fake_zdisk f = { .reject = true };
	struct drive_info info = { .zoned = ZONED_NONE };
	struct zone_report r;
	struct ss_error err = { 0 };
	struct transport t;
	struct drive *d = fake_drive(&t, &f);

	/* a conventional disk: refused before anything is sent */
	assert_int_equal(zones_report(d, &info, &r, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "fake:smr: not a zoned drive (no ZBC/ZAC zones)"));
	assert_int_equal(f.commands, 0);
	/* drive-managed hides its zones */
	info.zoned = ZONED_DEVICE_MANAGED;
	assert_int_equal(zones_report(d, &info, &r, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "not a zoned drive"));
	/* said to be zoned, but the drive rejects the command: said so, not "not zoned" */
	info.zoned = ZONED_HOST_AWARE;
	assert_int_equal(zones_report(d, &info, &r, &err), -EOPNOTSUPP);
	assert_string_equal(err.msg, "fake:smr: the drive rejected REPORT ZONES (ILLEGAL REQUEST): "
				     "it reports itself host-aware, but its zones cannot be read");
	info.ata = true;
	assert_int_equal(zones_report(d, &info, &r, &err), -EOPNOTSUPP);
	assert_string_equal(err.msg, "fake:smr: the drive aborted REPORT ZONES EXT (ATA ABRT): it "
				     "reports itself host-aware, but its zones cannot be read");
	assert_null(r.zones);
	drive_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_zbc_zac),
		cmocka_unit_test(test_parse_truncated),
		cmocka_unit_test(test_parse_list_len_short),
		cmocka_unit_test(test_builders),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_report_scsi_paged),
		cmocka_unit_test(test_report_ata_paged),
		cmocka_unit_test(test_report_not_zoned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
