/* test_sim.c - the drive simulator, driven through the "sim" transport with
 * CDBs built here (ATA commands through the SAT builder), answers checked
 * byte by byte. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/sat.h"
#include "shortstroke/sim.h"
#include "shortstroke/transport.h"
#include "sim/sim_priv.h"

#include "fixture.h"

/* ---- the test rig ---- */

static const char test_rig[] =
    "{\n"
    "  \"time_scale\": 0,\n"
    "  \"drives\": [\n"
    "    {\"id\": \"sata0\", \"personality\": \"sata\", \"model\": \"SIM SATA DISK 1000\",\n"
    "     \"serial\": \"SIMS0001\", \"firmware\": \"FW000001\", \"wwn\": \"5000c50012345678\",\n"
    "     \"blocks\": 2000000, \"physical_block\": 4096, \"rpm\": 7200,\n"
    "     \"hpa\": {\"supported\": true}, \"dco\": {\"supported\": true,\n"
    "     \"factory_blocks\": 2100000}, \"security\": {\"supported\": true}, \"smart\": true},\n"
    "    {\"id\": \"sas0\", \"personality\": \"sas\", \"vendor\": \"SIMVEND\", \"model\": "
    "\"SIMSAS15\",\n"
    "     \"serial\": \"SAS00001\", \"firmware\": \"S001\", \"wwn\": \"5000cca000000010\",\n"
    "     \"blocks\": 1000000, \"rpm\": 15000, \"form_factor\": \"2.5\"},\n"
    "    {\"id\": \"amac0\", \"personality\": \"sata\", \"model\": \"SIM AMAC\", \"serial\": "
    "\"AM1\",\n"
    "     \"firmware\": \"A1\", \"blocks\": 500000, \"amac\": true, \"d_sense\": false},\n"
    "    {\"id\": \"sata28\", \"personality\": \"sata\", \"model\": \"OLD\", \"serial\": "
    "\"OLD1\",\n"
    "     \"firmware\": \"O1\", \"blocks\": 100000, \"lba48\": false, \"hpa\": true},\n"
    "    {\"id\": \"big0\", \"personality\": \"sas\", \"vendor\": \"BIG\", \"model\": \"BIG\",\n"
    "     \"serial\": \"B1\", \"firmware\": \"B001\", \"wwn\": \"5000000000000b00\",\n"
    "     \"blocks\": 5000000000, \"logical_block\": 512, \"physical_block\": 4096,\n"
    "     \"faults\": [\"medium-error:4000000000\"]}\n"
    "  ]\n"
    "}\n";

struct fx {
	struct sim_rig *rig;
	struct transport *t[16];
	char dir[64];
};

static struct ss_error err;

static struct transport *open_t(struct fx *f, const char *id)
{
	struct sim_drive *d = sim_rig_find(f->rig, id);
	unsigned i;

	assert_non_null(d);
	for (i = 0; i < 16 && f->t[i]; i++)
		if (f->t[i]->priv == d)
			return f->t[i];
	assert_true(i < 16);
	assert_int_equal(transport_open_sim(d, &f->t[i], &err), 0);
	return f->t[i];
}

static void close_all(struct fx *f)
{
	unsigned i;

	for (i = 0; i < 16; i++) {
		transport_close(f->t[i]);
		f->t[i] = NULL;
	}
	sim_rig_free(f->rig);
	f->rig = NULL;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || fixture_rig_load(test_rig, NULL, &f->rig)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	close_all(f);
	free(f);
	return 0;
}

/* ---- commands ---- */

static int cmd(struct transport *t, struct xcmd *c, const uint8_t *cdb, unsigned len,
	       enum xfer_dir dir, void *buf, size_t n)
{
	fixture_xcmd(c, cdb, len, dir, buf, n);
	return transport_exec(t, c, &err);
}

struct atacmd {
	uint8_t command;
	uint16_t feature, count;
	uint64_t lba;
	bool ext;
	enum ata_proto proto;
	bool write;
	unsigned blocks;
};

static int ata(struct transport *t, struct xcmd *c, struct atacmd a, bool ck, void *buf, size_t n)
{
	struct ata_tf tf;
	uint8_t cdb[16];

	memset(&tf, 0, sizeof(tf));
	tf.command = a.command;
	tf.feature = a.feature;
	tf.count = a.count;
	tf.lba = a.lba;
	tf.device = 0x40;
	tf.ext = a.ext;
	tf.proto = a.proto ? a.proto : ATA_PROTO_NON_DATA;
	tf.write = a.write;
	tf.xfer_blocks = a.blocks;
	sat_build_ata_pt16(cdb, &tf, ck);
	return cmd(t, c, cdb, 16, n ? (a.write ? XFER_TO_DEV : XFER_FROM_DEV) : XFER_NONE, buf, n);
}

#define NONDATA(cmd_, feat_, cnt_, lba_, ext_)                                                     \
	((struct atacmd){ .command = (cmd_),                                                       \
			  .feature = (feat_),                                                      \
			  .count = (cnt_),                                                         \
			  .lba = (lba_),                                                           \
			  .ext = (ext_),                                                           \
			  .proto = ATA_PROTO_NON_DATA })

static const struct atacmd IDENTIFY = {
	.command = 0xec, .count = 1, .proto = ATA_PROTO_PIO_IN, .blocks = 1
};

/* ---- sense helpers: both formats ---- */

static bool is_desc(const struct xcmd *c)
{
	return (c->sense[0] & 0x7f) >= 0x72;
}

static uint8_t s_key(const struct xcmd *c)
{
	return is_desc(c) ? c->sense[1] & 0x0f : c->sense[2] & 0x0f;
}

static uint8_t s_asc(const struct xcmd *c)
{
	return is_desc(c) ? c->sense[2] : c->sense[12];
}

static uint8_t s_ascq(const struct xcmd *c)
{
	return is_desc(c) ? c->sense[3] : c->sense[13];
}

static const uint8_t *s_find(const struct xcmd *c, uint8_t type)
{
	unsigned off = 8, end = 8u + c->sense[7];

	if (end > c->sense_len)
		end = c->sense_len;
	while (off + 2 <= end) {
		if (c->sense[off] == type)
			return &c->sense[off];
		off += 2u + c->sense[off + 1];
	}
	return NULL;
}

static uint32_t s_progress(const struct xcmd *c)
{
	const uint8_t *p;

	if (is_desc(c)) {
		p = s_find(c, 0x02);
		assert_non_null(p);
		assert_true(p[4] & 0x80);
		return (uint32_t)(p[5] << 8 | p[6]);
	}
	assert_true(c->sense[15] & 0x80);
	return (uint32_t)(c->sense[16] << 8 | c->sense[17]);
}

static uint64_t s_info(const struct xcmd *c)
{
	const uint8_t *p;
	uint64_t v = 0;
	int i;

	if (is_desc(c)) {
		p = s_find(c, 0x00);
		assert_non_null(p);
		for (i = 0; i < 8; i++)
			v = v << 8 | p[4 + i];
		return v;
	}
	assert_true(c->sense[0] & 0x80);
	return (uint64_t)c->sense[3] << 24 | (uint64_t)c->sense[4] << 16 |
	       (uint64_t)c->sense[5] << 8 | c->sense[6];
}

static struct ata_regs s_regs(const struct xcmd *c)
{
	struct ata_regs r;
	const uint8_t *p;

	memset(&r, 0, sizeof(r));
	assert_int_equal(c->status, SCSI_STATUS_CHECK_CONDITION);
	assert_int_equal(s_asc(c), 0x00);
	assert_int_equal(s_ascq(c), 0x1d);
	if (is_desc(c)) {
		p = s_find(c, 0x09);
		assert_non_null(p);
		assert_int_equal(p[1], 0x0c);
		r.ext = p[2] & 1;
		r.error = p[3];
		r.count = (uint16_t)(p[4] << 8 | p[5]);
		r.lba = (uint64_t)p[6] << 24 | p[7] | (uint64_t)p[8] << 32 | (uint64_t)p[9] << 8 |
			(uint64_t)p[10] << 40 | (uint64_t)p[11] << 16;
		r.device = p[12];
		r.status = p[13];
	} else {
		r.error = c->sense[3];
		r.status = c->sense[4];
		r.device = c->sense[5];
		r.count = c->sense[6];
		r.ext = c->sense[8] & 0x80;
		r.lba = c->sense[9] | (uint64_t)c->sense[10] << 8 | (uint64_t)c->sense[11] << 16;
	}
	return r;
}

static void expect_abrt(const struct xcmd *c)
{
	struct ata_regs r = s_regs(c);

	assert_int_equal(s_key(c), 0x0b);
	assert_int_equal(r.status, 0x51);
	assert_int_equal(r.error, 0x04);
}

static void expect_ok(const struct xcmd *c)
{
	if (c->status != SCSI_STATUS_GOOD)
		fprintf(stderr, "status %u sense %02x/%02x/%02x\n", c->status, s_key(c), s_asc(c),
			s_ascq(c));
	assert_int_equal(c->status, SCSI_STATUS_GOOD);
}

static void expect_sense(const struct xcmd *c, uint8_t key, uint8_t asc, uint8_t ascq)
{
	assert_int_equal(c->status, SCSI_STATUS_CHECK_CONDITION);
	assert_int_equal(s_key(c), key);
	assert_int_equal(s_asc(c), asc);
	assert_int_equal(s_ascq(c), ascq);
}

static uint16_t idw(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

static void id_string(const uint8_t *id, unsigned w, unsigned n, char *out)
{
	unsigned i;

	for (i = 0; i < 2 * n; i++)
		out[i] = (char)id[2 * w + (i ^ 1)];
	out[2 * n] = '\0';
}

static uint64_t be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static uint64_t rc16(struct transport *t, uint32_t *blen, uint8_t *exp)
{
	uint8_t cdb[16] = { 0x9e, 0x10 }, b[32];
	struct xcmd c;

	cdb[13] = 32;
	assert_int_equal(cmd(t, &c, cdb, 16, XFER_FROM_DEV, b, sizeof(b)), 0);
	expect_ok(&c);
	assert_int_equal(c.resid, 0);
	if (blen)
		*blen = (uint32_t)be(b + 8, 4);
	if (exp)
		*exp = b[13] & 0x0f;
	return be(b, 8) + 1;
}

static void identify(struct transport *t, uint8_t id[512])
{
	struct xcmd c;

	assert_int_equal(ata(t, &c, IDENTIFY, false, id, 512), 0);
	expect_ok(&c);
	assert_int_equal(c.resid, 0);
}

static uint64_t read_native_max_ext(struct transport *t)
{
	struct xcmd c;
	struct ata_regs r;

	assert_int_equal(ata(t, &c, NONDATA(0x27, 0, 0, 0, true), true, NULL, 0), 0);
	r = s_regs(&c);
	assert_int_equal(s_key(&c), 0x01);
	assert_int_equal(r.status, 0x50);
	assert_true(r.ext);
	return r.lba;
}

static void set_max_ext(struct transport *t, struct xcmd *c, uint64_t lba, bool nv)
{
	assert_int_equal(ata(t, c, NONDATA(0x37, 0, nv ? 1 : 0, lba, true), false, NULL, 0), 0);
}

/* ---- tests ---- */

static void test_demo_rig(void **state)
{
	static const struct {
		const char *id;
		uint64_t blocks;
		uint32_t blen;
	} want[] = {
		{ "sas15k", 879097968ULL, 512 },    { "sata250", 488397168ULL, 512 },
		{ "sata320", 625142448ULL, 512 },   { "sas4kn", 488378646ULL, 4096 },
		{ "smr", 3418095616ULL, 4096 },	    { "sata-hpa", 488386584ULL, 512 },
		{ "exos-sas", 7814037168ULL, 512 }, { "exos-sata", 3907029168ULL, 512 },
		{ "ssd", 500118192ULL, 512 },
	};
	struct fx f = { 0 };
	uint8_t rc10[10] = { 0x25 }, b[8];
	struct xcmd c;
	uint32_t blen;
	unsigned i;

	(void)state;
	assert_int_equal(sim_rig_demo(NULL, &f.rig, &err), 0);
	assert_int_equal(sim_rig_count(f.rig), sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct transport *t = open_t(&f, want[i].id);

		assert_true(rc16(t, &blen, NULL) == want[i].blocks);
		assert_int_equal(blen, want[i].blen);
		assert_int_equal(cmd(t, &c, rc10, 10, XFER_FROM_DEV, b, 8), 0);
		expect_ok(&c);
		/* READ CAPACITY (10) says all ones past 2^32 blocks */
		assert_true(be(b, 4) == (want[i].blocks - 1 > 0xffffffffULL ? 0xffffffffULL
									    : want[i].blocks - 1));
	}
	/* the HPA of sata-hpa: native is twice the current */
	assert_true(read_native_max_ext(open_t(&f, "sata-hpa")) == 976773167ULL);
	assert_string_equal(sim_drive_personality(sim_rig_find(f.rig, "smr")), "sata");
	assert_string_equal(sim_drive_personality(sim_rig_find(f.rig, "sas15k")), "sas");
	assert_non_null(strstr(sim_rig_demo_json(), "HUS154545VLS300"));
	close_all(&f);
}

static void test_identify_words(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sata0");
	uint8_t id[512], sum = 0;
	char s[64];
	unsigned i;

	identify(t, id);
	assert_int_equal(idw(id, 0), 0x0040);
	id_string(id, 10, 10, s);
	assert_string_equal(s, "SIMS0001            ");
	id_string(id, 23, 4, s);
	assert_string_equal(s, "FW000001");
	id_string(id, 27, 20, s);
	assert_string_equal(s, "SIM SATA DISK 1000                      ");
	/* 2,000,000 = 0x1e8480 */
	assert_int_equal(idw(id, 60), 0x8480);
	assert_int_equal(idw(id, 61), 0x001e);
	assert_int_equal(idw(id, 100), 0x8480);
	assert_int_equal(idw(id, 101), 0x001e);
	assert_int_equal(idw(id, 102), 0);
	assert_int_equal(idw(id, 103), 0);
	assert_int_equal(idw(id, 69) & 0x0008, 0); /* no AMAC: no words 230-233 */
	assert_int_equal(idw(id, 75), 31);
	assert_true(idw(id, 76) & 0x0100); /* NCQ */
	assert_true(idw(id, 80) & 0x0100); /* ATA8-ACS */
	assert_true(idw(id, 82) & 0x0400); /* HPA supported */
	assert_true(idw(id, 82) & 0x0002); /* security */
	assert_true(idw(id, 82) & 0x0001); /* SMART */
	assert_true(idw(id, 83) & 0x0400); /* 48-bit */
	assert_true(idw(id, 83) & 0x0800); /* DCO */
	assert_int_equal(idw(id, 83) & 0xc000, 0x4000);
	assert_int_equal(idw(id, 84) & 0xc000, 0x4000);
	assert_true(idw(id, 84) & 0x0100); /* WWN */
	assert_true(idw(id, 85) & 0x0400);
	assert_true(idw(id, 86) & 0x0400);
	assert_int_equal(idw(id, 106), 0x6003); /* 8 logical per physical */
	assert_int_equal(idw(id, 108), 0x5000);
	assert_int_equal(idw(id, 109), 0xc500);
	assert_int_equal(idw(id, 110), 0x1234);
	assert_int_equal(idw(id, 111), 0x5678);
	assert_int_equal(idw(id, 119) & 0x0100, 0); /* no AMAC */
	assert_int_equal(idw(id, 128), 0x0021);	    /* supported, enhanced erase */
	assert_int_equal(idw(id, 168), 2);	    /* 3.5" */
	assert_int_equal(idw(id, 217), 7200);
	assert_int_equal(id[510], 0xa5);
	for (i = 0; i < 512; i++)
		sum = (uint8_t)(sum + id[i]);
	assert_int_equal(sum, 0);
}

static void test_read_native_max(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sata0");
	struct transport *o = open_t(f, "sata28");
	struct ata_regs r;
	struct xcmd c;

	assert_true(read_native_max_ext(t) == 1999999);
	/* without CK_COND a successful command is just GOOD */
	assert_int_equal(ata(t, &c, NONDATA(0x27, 0, 0, 0, true), false, NULL, 0), 0);
	expect_ok(&c);
	assert_int_equal(c.sense_len, 0);
	/* 28-bit: LBA 27:24 in DEVICE; 99999 = 0x1869f */
	assert_int_equal(ata(o, &c, NONDATA(0xf8, 0, 0, 0, false), true, NULL, 0), 0);
	r = s_regs(&c);
	assert_false(r.ext);
	assert_true(r.lba == 0x01869f);
	assert_int_equal(r.device, 0x40);
	/* a 28-bit drive aborts the EXT form */
	assert_int_equal(ata(o, &c, NONDATA(0x27, 0, 0, 0, true), true, NULL, 0), 0);
	expect_abrt(&c);
}

static void test_set_max_rules(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "sata0");
	struct transport *t = open_t(f, "sata0");
	uint8_t id[512], buf[512], rd10[10] = { 0x28 };
	struct xcmd c;

	/* not preceded by READ NATIVE MAX EXT */
	set_max_ext(t, &c, 999999, true);
	expect_abrt(&c);
	/* non-volatile limit */
	read_native_max_ext(t);
	set_max_ext(t, &c, 999999, true);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 1000000);
	assert_true(sim_drive_capacity(d) == 1000000);
	identify(t, id);
	assert_int_equal(idw(id, 100), 1000000 & 0xffff);
	assert_int_equal(idw(id, 101), 1000000 >> 16);
	assert_int_equal(idw(id, 60), 1000000 & 0xffff);
	/* a second non-volatile SET MAX in the same power cycle */
	read_native_max_ext(t);
	set_max_ext(t, &c, 1999999, true);
	expect_abrt(&c);
	assert_true(rc16(t, NULL, NULL) == 1000000);
	/* volatile ones are fine */
	read_native_max_ext(t);
	set_max_ext(t, &c, 1499999, false);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 1500000);
	/* power cycle: the volatile value is gone, the rule resets */
	sim_drive_power_cycle(d);
	assert_true(rc16(t, NULL, NULL) == 1000000);
	read_native_max_ext(t);
	set_max_ext(t, &c, 1999999, true);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 2000000);
	sim_drive_power_cycle(d);
	/* READ NATIVE MAX (28-bit) does not arm SET MAX EXT */
	assert_int_equal(ata(t, &c, NONDATA(0xf8, 0, 0, 0, false), true, NULL, 0), 0);
	set_max_ext(t, &c, 1000, false);
	expect_abrt(&c);
	/* any command in between breaks the pair: IDENTIFY, a READ */
	read_native_max_ext(t);
	identify(t, id);
	set_max_ext(t, &c, 1000, false);
	expect_abrt(&c);
	read_native_max_ext(t);
	rd10[8] = 1;
	assert_int_equal(cmd(t, &c, rd10, 10, XFER_FROM_DEV, buf, 512), 0);
	expect_ok(&c);
	set_max_ext(t, &c, 1000, false);
	expect_abrt(&c);
	/* beyond the native max */
	read_native_max_ext(t);
	set_max_ext(t, &c, 2000000, false);
	expect_abrt(&c);
	/* SET MAX FREEZE LOCK (F9h feature 04h): until the next power cycle */
	assert_int_equal(ata(t, &c, NONDATA(0xf9, 0x04, 0, 0, false), false, NULL, 0), 0);
	expect_ok(&c);
	read_native_max_ext(t);
	set_max_ext(t, &c, 1000, false);
	expect_abrt(&c);
	sim_drive_power_cycle(d);
	read_native_max_ext(t);
	set_max_ext(t, &c, 999, false);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 1000);
	/* READ beyond the limit: LBA OUT OF RANGE */
	rd10[5] = 0xe8;
	rd10[4] = 0x03; /* LBA 1000 */
	assert_int_equal(cmd(t, &c, rd10, 10, XFER_FROM_DEV, buf, 512), 0);
	expect_sense(&c, 0x05, 0x21, 0x00);
	/* SECURITY FREEZE LOCK also stops SET MAX */
	sim_drive_power_cycle(d);
	assert_int_equal(ata(t, &c, NONDATA(0xf5, 0, 0, 0, false), false, NULL, 0), 0);
	expect_ok(&c);
	identify(t, id);
	assert_true(idw(id, 128) & 0x0008);
	read_native_max_ext(t);
	set_max_ext(t, &c, 999, false);
	expect_abrt(&c);
}

static void test_set_max_28bit(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sata28");
	struct xcmd c;
	uint8_t id[512];

	assert_int_equal(ata(t, &c, NONDATA(0xf8, 0, 0, 0, false), true, NULL, 0), 0);
	assert_int_equal(ata(t, &c, NONDATA(0xf9, 0, 1, 49999, false), false, NULL, 0), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 50000);
	identify(t, id);
	assert_int_equal(idw(id, 60), 50000);
	assert_int_equal(idw(id, 61), 0);
	assert_int_equal(idw(id, 100), 0); /* no 48-bit */
	assert_int_equal(idw(id, 83) & 0x0400, 0);
}

static void test_amac(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "amac0");
	struct transport *t = open_t(f, "amac0");
	struct ata_regs r;
	struct xcmd c;
	uint8_t id[512];

	/* GET NATIVE MAX ADDRESS EXT, answered in fixed sense (d_sense false) */
	assert_int_equal(ata(t, &c, NONDATA(0x78, 0x0000, 0, 0, true), true, NULL, 0), 0);
	assert_int_equal(c.sense[0], 0xf0);
	assert_int_equal(c.sense_len, 18);
	r = s_regs(&c);
	assert_int_equal(s_key(&c), 0x01);
	assert_true(r.ext);
	assert_true(r.lba == 499999);
	/* SET ACCESSIBLE MAX ADDRESS: no READ NATIVE MAX needed, repeatable */
	assert_int_equal(ata(t, &c, NONDATA(0x78, 0x0001, 0, 249999, true), false, NULL, 0), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 250000);
	assert_int_equal(ata(t, &c, NONDATA(0x78, 0x0001, 0, 299999, true), false, NULL, 0), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 300000);
	identify(t, id);
	assert_true(idw(id, 119) & 0x0100);
	assert_true(idw(id, 69) & 0x0008);
	assert_int_equal(idw(id, 230), 300000 & 0xffff);
	assert_int_equal(idw(id, 231), 300000 >> 16);
	assert_int_equal(idw(id, 100), 300000 & 0xffff);
	assert_int_equal(idw(id, 82) & 0x0400, 0); /* no HPA */
	/* HPA commands abort on an AMAC-only drive */
	assert_int_equal(ata(t, &c, NONDATA(0x27, 0, 0, 0, true), true, NULL, 0), 0);
	expect_abrt(&c);
	/* beyond native */
	assert_int_equal(ata(t, &c, NONDATA(0x78, 0x0001, 0, 500000, true), false, NULL, 0), 0);
	expect_abrt(&c);
	assert_int_equal(c.sense[0], 0xf0);
	assert_int_equal(c.sense[2], 0x0b);
	/* FREEZE ACCESSIBLE MAX ADDRESS */
	assert_int_equal(ata(t, &c, NONDATA(0x78, 0x0002, 0, 0, true), false, NULL, 0), 0);
	expect_ok(&c);
	assert_int_equal(ata(t, &c, NONDATA(0x78, 0x0001, 0, 499999, true), false, NULL, 0), 0);
	expect_abrt(&c);
	sim_drive_power_cycle(d);
	assert_true(rc16(t, NULL, NULL) == 300000); /* non-volatile */
	assert_int_equal(ata(t, &c, NONDATA(0x78, 0x0001, 0, 499999, true), false, NULL, 0), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 500000);
	/* a drive without AMAC aborts it */
	assert_int_equal(ata(open_t(f, "sata0"), &c, NONDATA(0x78, 0, 0, 0, true), true, NULL, 0),
			 0);
	expect_abrt(&c);
}

static void dco_fill(uint8_t b[512], uint64_t max)
{
	uint8_t sum = 0;
	unsigned i;

	memset(b, 0, 512);
	b[0] = 0x02;
	for (i = 0; i < 4; i++) {
		b[6 + 2 * i] = (uint8_t)(max >> (16 * i));
		b[7 + 2 * i] = (uint8_t)(max >> (16 * i + 8));
	}
	b[510] = 0xa5;
	for (i = 0; i < 511; i++)
		sum = (uint8_t)(sum + b[i]);
	b[511] = (uint8_t)(0x100 - sum);
}

static const struct atacmd DCO_ID = {
	.command = 0xb1, .feature = 0xc2, .count = 1, .proto = ATA_PROTO_PIO_IN, .blocks = 1
};
static const struct atacmd DCO_SET = { .command = 0xb1,
				       .feature = 0xc3,
				       .count = 1,
				       .proto = ATA_PROTO_PIO_OUT,
				       .write = true,
				       .blocks = 1 };

static void test_dco(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "sata0");
	struct transport *t = open_t(f, "sata0");
	uint8_t b[512], sum = 0;
	struct xcmd c;
	unsigned i;

	assert_int_equal(ata(t, &c, DCO_ID, false, b, 512), 0);
	expect_ok(&c);
	assert_int_equal(idw(b, 0), 0x0002);
	/* factory max LBA 2,099,999 = 0x200b1f in words 3-6 */
	assert_int_equal(idw(b, 3), 0x0b1f);
	assert_int_equal(idw(b, 4), 0x0020);
	assert_int_equal(idw(b, 5), 0);
	assert_true(idw(b, 7) & 0x0080); /* HPA */
	for (i = 0; i < 512; i++)
		sum = (uint8_t)(sum + b[i]);
	assert_int_equal(sum, 0);
	/* DCO SET to 1,800,000 sectors */
	dco_fill(b, 1799999);
	assert_int_equal(ata(t, &c, DCO_SET, false, b, 512), 0);
	expect_ok(&c);
	assert_true(read_native_max_ext(t) == 1799999);
	assert_true(rc16(t, NULL, NULL) == 1800000);
	/* a bad checksum, a max beyond the factory value */
	dco_fill(b, 1699999);
	b[511] ^= 1;
	assert_int_equal(ata(t, &c, DCO_SET, false, b, 512), 0);
	expect_abrt(&c);
	dco_fill(b, 2100000);
	assert_int_equal(ata(t, &c, DCO_SET, false, b, 512), 0);
	expect_abrt(&c);
	/* with an HPA set, RESTORE aborts */
	read_native_max_ext(t);
	set_max_ext(t, &c, 999999, false);
	expect_ok(&c);
	assert_int_equal(ata(t, &c, NONDATA(0xb1, 0xc0, 0, 0, false), false, NULL, 0), 0);
	expect_abrt(&c);
	sim_drive_power_cycle(d); /* the volatile HPA goes */
	assert_int_equal(ata(t, &c, NONDATA(0xb1, 0xc0, 0, 0, false), false, NULL, 0), 0);
	expect_ok(&c);
	assert_true(read_native_max_ext(t) == 2099999);
	assert_true(rc16(t, NULL, NULL) == 2100000);
	/* FREEZE LOCK: SET, RESTORE abort; IDENTIFY still answers */
	assert_int_equal(ata(t, &c, NONDATA(0xb1, 0xc1, 0, 0, false), false, NULL, 0), 0);
	expect_ok(&c);
	dco_fill(b, 1799999);
	assert_int_equal(ata(t, &c, DCO_SET, false, b, 512), 0);
	expect_abrt(&c);
	assert_int_equal(ata(t, &c, NONDATA(0xb1, 0xc0, 0, 0, false), false, NULL, 0), 0);
	expect_abrt(&c);
	assert_int_equal(ata(t, &c, DCO_ID, false, b, 512), 0);
	expect_ok(&c);
	sim_drive_power_cycle(d);
	dco_fill(b, 1799999);
	assert_int_equal(ata(t, &c, DCO_SET, false, b, 512), 0);
	expect_ok(&c);
	/* no DCO on the AMAC drive */
	assert_int_equal(ata(open_t(f, "amac0"), &c, DCO_ID, false, b, 512), 0);
	expect_abrt(&c);
}

static void test_security_frozen_demo(void **state)
{
	struct fx f = { 0 };
	struct transport *t;
	struct sim_drive *d;
	struct xcmd c;
	uint8_t id[512];

	(void)state;
	assert_int_equal(sim_rig_demo(NULL, &f.rig, &err), 0);
	d = sim_rig_find(f.rig, "sata320");
	t = open_t(&f, "sata320");
	identify(t, id);
	assert_int_equal(idw(id, 128) & 0x000f, 0x0009); /* supported, frozen */
	read_native_max_ext(t);
	set_max_ext(t, &c, 300000000, true);
	expect_abrt(&c);
	/* a power cycle (suspend/resume, hot-plug) thaws it */
	sim_drive_power_cycle(d);
	identify(t, id);
	assert_int_equal(idw(id, 128) & 0x0008, 0);
	read_native_max_ext(t);
	set_max_ext(t, &c, 299999999, true);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 300000000);
	close_all(&f);
}

static void test_inquiry_sas(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sas0");
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 96, 0 }, b[600];
	struct xcmd c;

	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 96), 0);
	expect_ok(&c);
	assert_int_equal(b[0], 0x00);
	assert_int_equal(b[2], 0x06);
	assert_int_equal(b[4], 91);
	assert_memory_equal(b + 8, "SIMVEND SIMSAS15        S001", 28);
	/* allocation length 5: five bytes, the rest is residual */
	cdb[4] = 5;
	memset(b, 0xee, sizeof(b));
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 96), 0);
	expect_ok(&c);
	assert_int_equal(c.resid, 91);
	assert_int_equal(b[5], 0xee);
	/* VPD 00 */
	cdb[1] = 1;
	cdb[4] = 255;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 255), 0);
	expect_ok(&c);
	assert_int_equal(b[1], 0x00);
	assert_int_equal(b[3], 4);
	assert_memory_equal(b + 4, "\x00\x80\x83\xb1", 4);
	/* VPD 80 */
	cdb[2] = 0x80;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 255), 0);
	assert_int_equal(b[3], 8);
	assert_memory_equal(b + 4, "SAS00001", 8);
	/* VPD 83: NAA of the LU, then the SAS target port (protocol 6) */
	cdb[2] = 0x83;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 255), 0);
	expect_ok(&c);
	assert_memory_equal(b + 4, "\x01\x03\x00\x08\x50\x00\xcc\xa0\x00\x00\x00\x10", 12);
	assert_memory_equal(b + 16, "\x61\x93\x00\x08\x50\x00\xcc\xa0\x00\x00\x00\x11", 12);
	assert_int_equal(be(b + 2, 2), 12 + 12 + 8 + 12);
	/* VPD B1: 15000 rpm, 2.5" */
	cdb[2] = 0xb1;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 255), 0);
	assert_int_equal(be(b + 2, 2), 0x3c);
	assert_int_equal(be(b + 4, 2), 15000);
	assert_int_equal(b[7] & 0x0f, 3);
	/* no ATA information page on SAS; unknown page */
	cdb[2] = 0x89;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 255), 0);
	expect_sense(&c, 0x05, 0x24, 0x00);
	assert_int_equal(c.sense[0], 0x70);  /* SAS default: fixed */
	assert_int_equal(c.sense[15], 0xc0); /* SKSV, C/D: a CDB field */
	assert_int_equal(c.sense[17], 2);    /* byte 2 */
	/* not supported by SAS: ATA PASS-THROUGH */
	assert_int_equal(ata(t, &c, IDENTIFY, false, b, 512), 0);
	expect_sense(&c, 0x05, 0x20, 0x00);
}

static void test_inquiry_sata(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sata0");
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 96, 0 }, b[600], id[512];
	struct xcmd c;

	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 96), 0);
	assert_memory_equal(b + 8, "ATA     SIM SATA DISK 100001", 28); /* rev: fw[4..7] */
	cdb[1] = 1;
	cdb[2] = 0x89;
	cdb[3] = 0x02;
	cdb[4] = 0x40;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 600), 0);
	expect_ok(&c);
	assert_int_equal(c.resid, 600 - 572);
	assert_int_equal(be(b + 2, 2), 0x238);
	assert_int_equal(b[36], 0x34); /* D2H FIS */
	assert_int_equal(b[56], 0xec);
	identify(t, id);
	assert_memory_equal(b + 60, id, 512);
	/* VPD 83: serial, T10 "ATA", NAA */
	cdb[2] = 0x83;
	cdb[3] = 0;
	cdb[4] = 255;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 255), 0);
	assert_memory_equal(b + 4, "\x02\x00\x00\x14SIMS0001", 12);
	assert_memory_equal(b + 28,
			    "\x02\x01\x00\x44"
			    "ATA     SIM SATA",
			    20);
	assert_memory_equal(b + 100, "\x01\x03\x00\x08\x50\x00\xc5\x00\x12\x34\x56\x78", 12);
	/* VPD 00 lists 89 */
	cdb[2] = 0;
	assert_int_equal(cmd(t, &c, cdb, 6, XFER_FROM_DEV, b, 255), 0);
	assert_memory_equal(b + 4, "\x00\x80\x83\x89\xb1", 5);
}

static void test_read_capacity(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "big0");
	uint8_t rc10[10] = { 0x25 }, b[32];
	struct xcmd c;
	uint32_t blen;
	uint8_t exp;

	assert_int_equal(cmd(t, &c, rc10, 10, XFER_FROM_DEV, b, 8), 0);
	expect_ok(&c);
	assert_memory_equal(b, "\xff\xff\xff\xff\x00\x00\x02\x00", 8);
	assert_true(rc16(t, &blen, &exp) == 5000000000ULL);
	assert_int_equal(exp, 3);
	assert_int_equal(rc16(open_t(f, "sata0"), NULL, &exp), 2000000);
	assert_int_equal(exp, 3);
	/* READ CAPACITY (16) honours its allocation length */
	{
		uint8_t cdb[16] = { 0x9e, 0x10 };

		cdb[13] = 12;
		memset(b, 0xee, sizeof(b));
		assert_int_equal(cmd(t, &c, cdb, 16, XFER_FROM_DEV, b, 32), 0);
		expect_ok(&c);
		assert_int_equal(c.resid, 20);
		assert_int_equal(b[12], 0xee);
	}
}

static unsigned mode_sense10(struct transport *t, struct xcmd *c, bool llbaa, uint8_t pc,
			     uint8_t page, uint8_t *b, unsigned alloc)
{
	uint8_t cdb[10] = { 0x5a };

	cdb[1] = llbaa ? 0x10 : 0;
	cdb[2] = (uint8_t)(pc << 6 | page);
	cdb[7] = (uint8_t)(alloc >> 8);
	cdb[8] = (uint8_t)alloc;
	assert_int_equal(cmd(t, c, cdb, 10, XFER_FROM_DEV, b, alloc), 0);
	return (unsigned)be(b, 2) + 2;
}

static const uint8_t *find_page(const uint8_t *b, unsigned n, uint8_t page)
{
	unsigned off = 8 + (unsigned)be(b + 6, 2);

	while (off + 2 <= n) {
		if ((b[off] & 0x3f) == page)
			return b + off;
		off += 2u + b[off + 1];
	}
	return NULL;
}

static void test_mode_sense(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sas0");
	struct transport *s = open_t(f, "sata0");
	uint8_t b[512], cdb6[6] = { 0x1a, 0, 0x3f, 0, 255, 0 };
	const uint8_t *p;
	struct xcmd c;
	unsigned n;

	/* LLBAA: a 16-byte block descriptor */
	n = mode_sense10(t, &c, true, 0, 0x3f, b, 512);
	expect_ok(&c);
	assert_int_equal(b[4] & 1, 1);
	assert_int_equal(be(b + 6, 2), 16);
	assert_true(be(b + 8, 8) == 1000000);
	assert_int_equal(be(b + 20, 4), 512);
	/* 01h, 03h, 04h, 08h, 0Ah and the notch page 0Ch (no SMART: no 1Ch) */
	assert_int_equal(n, 8 + 16 + 12 + 24 + 24 + 20 + 12 + 24);
	assert_non_null(find_page(b, n, 0x0c));
	assert_null(find_page(b, n, 0x1c));
	assert_non_null(find_page(b, n, 0x01));
	assert_non_null(p = find_page(b, n, 0x04));
	assert_int_equal(be(p + 20, 2), 15000);
	assert_non_null(find_page(b, n, 0x03));
	assert_non_null(p = find_page(b, n, 0x0a));
	assert_int_equal(p[2] & 0x04, 0); /* SAS: fixed sense by default */
	assert_int_equal(p[0], 0x8a);	  /* PS */
	/* short descriptor, one page */
	n = mode_sense10(t, &c, false, 0, 0x08, b, 512);
	assert_int_equal(be(b + 6, 2), 8);
	assert_int_equal(be(b + 8, 4), 1000000);
	assert_int_equal(be(b + 13, 3), 512);
	assert_int_equal(n, 8 + 8 + 20);
	assert_int_equal(b[16], 0x88);
	assert_int_equal(b[18] & 0x04, 0); /* WCE: a SAS drive ships with it off */
	/* changeable: WCE only */
	mode_sense10(t, &c, false, 1, 0x08, b, 512);
	assert_int_equal(b[18], 0x04);
	assert_int_equal(be(b + 8, 4), 0xffffffff);
	/* truncated by the allocation length; the length field still says all */
	n = mode_sense10(t, &c, false, 0, 0x3f, b, 10);
	assert_int_equal(c.resid, 0);
	assert_true(n > 10);
	/* MODE SENSE (6) */
	assert_int_equal(cmd(t, &c, cdb6, 6, XFER_FROM_DEV, b, 255), 0);
	expect_ok(&c);
	assert_int_equal(b[3], 8);
	assert_int_equal(b[0] + 1, 4 + 8 + 12 + 24 + 24 + 20 + 12 + 24);
	/* SATA: D_SENSE set by default, no geometry pages, no saved values */
	n = mode_sense10(s, &c, false, 0, 0x0a, b, 512);
	expect_ok(&c);
	assert_int_equal(be(b + 8, 4), 2000000);
	assert_int_equal(b[16], 0x0a);
	assert_int_equal(b[18] & 0x04, 0x04);
	mode_sense10(s, &c, false, 0, 0x04, b, 512);
	expect_sense(&c, 0x05, 0x24, 0x00);
	assert_int_equal(c.sense[0], 0x72);
	/* SATA: the write cache is on by default, current and default */
	mode_sense10(s, &c, false, 0, 0x08, b, 512);
	expect_ok(&c);
	assert_int_equal(b[18] & 0x04, 0x04);
	mode_sense10(s, &c, false, 2, 0x08, b, 512);
	expect_ok(&c);
	assert_int_equal(b[18] & 0x04, 0x04);
	mode_sense10(s, &c, false, 3, 0x08, b, 512);
	expect_sense(&c, 0x05, 0x39, 0x00);
}

static int mode_select10(struct transport *t, struct xcmd *c, uint8_t flags, const uint8_t *p,
			 unsigned n)
{
	uint8_t cdb[10] = { 0x55 };

	cdb[1] = flags;
	cdb[7] = (uint8_t)(n >> 8);
	cdb[8] = (uint8_t)n;
	return cmd(t, c, cdb, 10, XFER_TO_DEV, (void *)p, n);
}

static void test_mode_select_resize(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "sas0");
	struct transport *t = open_t(f, "sas0");
	uint8_t p[64], b[512], bad[4] = { 0x01, 0x02, 0x03, 0x04 };
	struct xcmd c;

	/* header + short block descriptor: 600,000 blocks of 512 */
	memset(p, 0, sizeof(p));
	p[7] = 8;
	p[8 + 1] = 0x09;
	p[8 + 2] = 0x27;
	p[8 + 3] = 0xc0;
	p[8 + 6] = 0x02;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 16), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 600000);
	mode_sense10(t, &c, false, 0, 0x08, b, 512);
	assert_int_equal(be(b + 8, 4), 600000);
	/* beyond the native capacity */
	p[8] = 0x01;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 16), 0);
	expect_sense(&c, 0x05, 0x26, 0x00);
	assert_true(rc16(t, NULL, NULL) == 600000);
	/* all ones: back to native */
	memset(p + 8, 0xff, 4);
	assert_int_equal(mode_select10(t, &c, 0x10, p, 16), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 1000000);
	/* long LBA descriptor */
	memset(p, 0, sizeof(p));
	p[4] = 1;
	p[7] = 16;
	p[8 + 5] = 0x07;
	p[8 + 6] = 0xa1;
	p[8 + 7] = 0x20; /* 500,000 */
	p[8 + 14] = 0x02;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 24), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 500000);
	/* another block length: refused, nothing changes */
	p[8 + 14] = 0x10;
	p[8 + 7] = 0x21;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 24), 0);
	expect_sense(&c, 0x05, 0x26, 0x00);
	assert_int_equal(c.sense[17], 8 + 12); /* field pointer: block length */
	assert_true(rc16(t, NULL, NULL) == 500000);
	/* parameter list shorter than its header */
	assert_int_equal(mode_select10(t, &c, 0x10, bad, 4), 0);
	expect_sense(&c, 0x05, 0x1a, 0x00);
	/* control page: D_SENSE on (current only), a non-changeable byte refused */
	mode_sense10(t, &c, false, 0, 0x0a, b, 512);
	memset(p, 0, sizeof(p));
	memcpy(p + 8, b + 16, 12);
	p[8] &= 0x3f;
	p[8 + 2] |= 0x04;
	p[8 + 3] ^= 0x01;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 20), 0);
	expect_sense(&c, 0x05, 0x26, 0x00);
	assert_int_equal(c.sense[17], 8 + 3);
	p[8 + 3] ^= 0x01;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 20), 0);
	expect_ok(&c);
	assert_int_equal(cmd(t, &c, bad, 4, XFER_NONE, NULL, 0), 0); /* opcode 01h */
	expect_sense(&c, 0x05, 0x20, 0x00);
	assert_int_equal(c.sense[0], 0x72); /* descriptor now */
	/* not saved: a power cycle brings fixed sense back */
	sim_drive_power_cycle(d);
	assert_int_equal(cmd(t, &c, bad, 4, XFER_NONE, NULL, 0), 0);
	assert_int_equal(c.sense[0], 0x70);
	/* saved (SP): survives the power cycle */
	assert_int_equal(mode_select10(t, &c, 0x11, p, 20), 0);
	expect_ok(&c);
	sim_drive_power_cycle(d);
	assert_int_equal(cmd(t, &c, bad, 4, XFER_NONE, NULL, 0), 0);
	assert_int_equal(c.sense[0], 0x72);
	mode_sense10(t, &c, false, 3, 0x0a, b, 512);
	assert_int_equal(b[18] & 0x04, 0x04);
	/* SATA: the SATL ignores the block count; PF is required */
	{
		struct transport *s = open_t(f, "sata0");

		memset(p, 0, sizeof(p));
		p[7] = 8;
		p[8 + 2] = 0x01;
		p[8 + 6] = 0x02;
		assert_int_equal(mode_select10(s, &c, 0x10, p, 16), 0);
		expect_ok(&c);
		assert_true(rc16(s, NULL, NULL) == 2000000);
		assert_int_equal(mode_select10(s, &c, 0x11, p, 16), 0);
		expect_sense(&c, 0x05, 0x24, 0x00);
	}
}

static void tur(struct transport *t, struct xcmd *c)
{
	static const uint8_t cdb[6] = { 0 };

	assert_int_equal(cmd(t, c, cdb, 6, XFER_NONE, NULL, 0), 0);
}

static void write10(struct transport *t, struct xcmd *c, uint32_t lba, uint8_t fill)
{
	uint8_t cdb[10] = { 0x2a }, b[512];

	memset(b, fill, sizeof(b));
	cdb[2] = (uint8_t)(lba >> 24);
	cdb[3] = (uint8_t)(lba >> 16);
	cdb[4] = (uint8_t)(lba >> 8);
	cdb[5] = (uint8_t)lba;
	cdb[8] = 1;
	assert_int_equal(cmd(t, c, cdb, 10, XFER_TO_DEV, b, 512), 0);
}

static int read10(struct transport *t, struct xcmd *c, uint32_t lba, uint16_t n, uint8_t *b,
		  size_t len)
{
	uint8_t cdb[10] = { 0x28 };

	cdb[2] = (uint8_t)(lba >> 24);
	cdb[3] = (uint8_t)(lba >> 16);
	cdb[4] = (uint8_t)(lba >> 8);
	cdb[5] = (uint8_t)lba;
	cdb[7] = (uint8_t)(n >> 8);
	cdb[8] = (uint8_t)n;
	return cmd(t, c, cdb, 10, XFER_FROM_DEV, b, len);
}

static void format_unit(struct transport *t, struct xcmd *c, bool immed)
{
	uint8_t cdb[6] = { 0x04, 0x10 }, hdr[4] = { 0, 0, 0, 0 };

	hdr[1] = immed ? 0x02 : 0;
	assert_int_equal(cmd(t, c, cdb, 6, XFER_TO_DEV, hdr, 4), 0);
}

static void test_format_progress(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "sas0");
	struct transport *t = open_t(f, "sas0");
	uint8_t p[16] = { 0 }, b[512], rs[6] = { 0x03, 0, 0, 0, 32, 0 };
	uint32_t last = 0, prog;
	unsigned steps = 0, mid = 0;
	struct xcmd c;
	uint64_t t0;

	write10(t, &c, 7, 0x5a);
	expect_ok(&c);
	/* mode-select 400,000 blocks, then FORMAT UNIT with IMMED */
	p[7] = 8;
	p[8 + 1] = 0x06;
	p[8 + 2] = 0x1a;
	p[8 + 3] = 0x80;
	p[8 + 6] = 0x02;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 16), 0);
	expect_ok(&c);
	format_unit(t, &c, true);
	expect_ok(&c);
	tur(t, &c);
	expect_sense(&c, 0x02, 0x04, 0x04);
	assert_true(s_progress(&c) < 1000);
	/* media access and READ CAPACITY wait; INQUIRY answers */
	assert_int_equal(read10(t, &c, 0, 1, b, 512), 0);
	expect_sense(&c, 0x02, 0x04, 0x04);
	{
		uint8_t inq[6] = { 0x12, 0, 0, 0, 36, 0 };

		assert_int_equal(cmd(t, &c, inq, 6, XFER_FROM_DEV, b, 36), 0);
		expect_ok(&c);
	}
	/* progress over virtual time, also in REQUEST SENSE (GOOD + sense data) */
	t0 = sim_drive_clock_ns(d);
	for (;;) {
		sim_drive_advance_clock(d, 500000000ULL);
		assert_int_equal(cmd(t, &c, rs, 6, XFER_FROM_DEV, b, 32), 0);
		expect_ok(&c);
		assert_int_equal(c.resid, 32 - 18);
		if ((b[2] & 0x0f) == 0x00)
			break;
		assert_int_equal(b[2] & 0x0f, 0x02);
		assert_int_equal(b[12], 0x04);
		assert_int_equal(b[13], 0x04);
		assert_true(b[15] & 0x80);
		prog = (uint32_t)(b[16] << 8 | b[17]);
		assert_true(prog >= last);
		if (prog > 16384 && prog < 49152)
			mid++;
		last = prog;
		assert_true(++steps < 1000);
	}
	assert_true(mid > 0);
	assert_true(sim_drive_clock_ns(d) - t0 > 2000000000ULL);
	tur(t, &c);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 400000);
	/* the data went with the format */
	assert_int_equal(read10(t, &c, 7, 1, b, 512), 0);
	expect_ok(&c);
	assert_int_equal(b[0], 0);
	assert_int_equal(b[511], 0);
	/* without IMMED the command itself takes the time */
	format_unit(t, &c, false);
	expect_ok(&c);
	assert_true(c.duration_ns > 2000000000ULL);
	/* FORMAT UNIT is not a SATL command */
	format_unit(open_t(f, "sata0"), &c, true);
	expect_sense(&c, 0x05, 0x20, 0x00);
}

static void test_rw_and_sense_formats(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sas0");
	struct transport *s = open_t(f, "sata0");
	struct transport *a = open_t(f, "amac0");
	uint8_t b[4096], op[6] = { 0xc0 };
	struct xcmd c;

	write10(t, &c, 123, 0xa7);
	expect_ok(&c);
	assert_int_equal(read10(t, &c, 123, 1, b, 512), 0);
	expect_ok(&c);
	assert_int_equal(b[0], 0xa7);
	assert_int_equal(b[511], 0xa7);
	assert_true(c.duration_ns > 0);
	/* never written: zeros */
	assert_int_equal(read10(t, &c, 900000, 1, b, 512), 0);
	assert_int_equal(b[100], 0);
	/* buffer smaller than the transfer */
	assert_int_equal(read10(t, &c, 0, 2, b, 512), 0);
	expect_sense(&c, 0x05, 0x24, 0x00);
	/* LBA out of range */
	assert_int_equal(read10(t, &c, 999999, 2, b, 1024), 0);
	expect_sense(&c, 0x05, 0x21, 0x00);
	/* invalid opcode in each sense format */
	assert_int_equal(cmd(s, &c, op, 6, XFER_NONE, NULL, 0), 0);
	assert_int_equal(c.sense[0], 0x72);
	assert_int_equal(c.sense[1], 0x05);
	assert_int_equal(c.sense[2], 0x20);
	assert_int_equal(cmd(a, &c, op, 6, XFER_NONE, NULL, 0), 0);
	assert_int_equal(c.sense[0], 0x70);
	assert_int_equal(c.sense[2], 0x05);
	assert_int_equal(c.sense[12], 0x20);
	assert_int_equal(c.sense_len, 18);
	/* ATA data through pass-through: WRITE DMA EXT, READ DMA EXT */
	{
		struct atacmd w = { .command = 0x35,
				    .count = 1,
				    .lba = 55,
				    .ext = true,
				    .proto = ATA_PROTO_DMA,
				    .write = true,
				    .blocks = 1 };
		struct atacmd r = { .command = 0x25,
				    .count = 1,
				    .lba = 55,
				    .ext = true,
				    .proto = ATA_PROTO_DMA,
				    .blocks = 1 };

		memset(b, 0x3c, 512);
		assert_int_equal(ata(s, &c, w, false, b, 512), 0);
		expect_ok(&c);
		memset(b, 0, 512);
		assert_int_equal(read10(s, &c, 55, 1, b, 512), 0);
		expect_ok(&c);
		assert_int_equal(b[17], 0x3c);
		memset(b, 0, 512);
		assert_int_equal(ata(s, &c, r, false, b, 512), 0);
		expect_ok(&c);
		assert_int_equal(b[511], 0x3c);
		/* beyond the accessible max: IDNF */
		r.lba = 2000000;
		assert_int_equal(ata(s, &c, r, true, b, 512), 0);
		assert_int_equal(s_regs(&c).error & 0x10, 0x10);
	}
	/* an unknown ATA command aborts; CHECK POWER MODE answers FFh */
	assert_int_equal(ata(s, &c, NONDATA(0x99, 0, 0, 0, false), false, NULL, 0), 0);
	expect_abrt(&c);
	assert_int_equal(ata(s, &c, NONDATA(0xe5, 0, 0, 0, false), true, NULL, 0), 0);
	assert_int_equal(s_regs(&c).count, 0xff);
	/* IDENTIFY with the wrong protocol: the SATL refuses the CDB */
	{
		struct atacmd bad = IDENTIFY;

		bad.proto = ATA_PROTO_NON_DATA;
		bad.blocks = 0;
		assert_int_equal(ata(s, &c, bad, false, NULL, 0), 0);
		expect_sense(&c, 0x05, 0x24, 0x00);
	}
}

static void test_fault_abort(void **state)
{
	struct fx *f = *state;
	struct sim_drive *sas = sim_rig_find(f->rig, "sas0");
	struct sim_drive *sata = sim_rig_find(f->rig, "sata0");
	struct transport *t = open_t(f, "sas0");
	struct transport *s = open_t(f, "sata0");
	uint8_t inq[6] = { 0x12, 0, 0, 0, 36, 0 }, b[512];
	struct xcmd c;

	assert_int_equal(sim_drive_inject(sas, "abort:12:2", &err), 0);
	assert_int_equal(cmd(t, &c, inq, 6, XFER_FROM_DEV, b, 36), 0);
	expect_sense(&c, 0x0b, 0x00, 0x00);
	assert_int_equal(cmd(t, &c, inq, 6, XFER_FROM_DEV, b, 36), 0);
	expect_sense(&c, 0x0b, 0x00, 0x00);
	assert_int_equal(cmd(t, &c, inq, 6, XFER_FROM_DEV, b, 36), 0);
	expect_ok(&c);
	/* an ATA opcode: ABRT in the returned registers */
	assert_int_equal(sim_drive_inject(sata, "abort:ec", &err), 0);
	assert_int_equal(ata(s, &c, IDENTIFY, false, b, 512), 0);
	expect_abrt(&c);
	assert_int_equal(ata(s, &c, IDENTIFY, false, b, 512), 0);
	expect_abrt(&c);
	sim_drive_clear_faults(sata);
	identify(s, b);
	/* bad specs */
	assert_int_equal(sim_drive_inject(sas, "abort:xyz", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "opcode"));
	assert_int_equal(sim_drive_inject(sas, "explode", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown fault"));
	assert_int_equal(sim_drive_inject(sas, "medium-error:9-3", &err), -EINVAL);
}

static void test_fault_ignore_mode_select(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sas0");
	uint8_t p[16] = { 0 };
	struct xcmd c;

	assert_int_equal(sim_drive_inject(sim_rig_find(f->rig, "sas0"), "ignore-mode-select", &err),
			 0);
	p[7] = 8;
	p[8 + 1] = 0x01;
	p[8 + 6] = 0x02;
	assert_int_equal(mode_select10(t, &c, 0x10, p, 16), 0);
	expect_ok(&c);
	assert_true(rc16(t, NULL, NULL) == 1000000);
}

/* A read with xcmd.discard is the full read (status, sense, resid, time)
 * without the data: the buffer is left as it was. */
static void test_read_discard(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sas0");
	uint8_t cdb[10] = { 0x28 }, b[20 * 512];
	struct xcmd c;

	write10(t, &c, 10, 0x77);
	expect_ok(&c);
	cdb[8] = 20;
	memset(b, 0xee, sizeof(b));
	memset(&c, 0, sizeof(c));
	memcpy(c.cdb, cdb, 10);
	c.cdb_len = 10;
	c.dir = XFER_FROM_DEV;
	c.data = b;
	c.data_len = sizeof(b);
	c.discard = true;
	assert_int_equal(transport_exec(t, &c, &err), 0);
	expect_ok(&c);
	assert_int_equal(c.resid, 0);
	assert_true(c.duration_ns > 0);
	assert_int_equal(b[10 * 512], 0xee);
	assert_int_equal(b[0], 0xee);
	/* a bad block is still reported, with how much came before it */
	assert_int_equal(sim_drive_inject(sim_rig_find(f->rig, "sas0"), "medium-error:15", &err),
			 0);
	c.status = 0;
	c.sense_len = 0;
	c.resid = 0;
	assert_int_equal(transport_exec(t, &c, &err), 0);
	expect_sense(&c, 0x03, 0x11, 0x00);
	assert_true(s_info(&c) == 15);
	assert_int_equal(c.resid, 5 * 512);
	assert_int_equal(b[10 * 512], 0xee);
	/* without discard the same read brings the data */
	assert_int_equal(read10(t, &c, 0, 15, b, sizeof(b)), 0);
	expect_ok(&c);
	assert_int_equal(b[10 * 512], 0x77);
	assert_int_equal(b[9 * 512], 0);
}

static void test_fault_medium_error(void **state)
{
	struct fx *f = *state;
	struct transport *t = open_t(f, "sas0");
	struct transport *s = open_t(f, "sata0");
	struct transport *big = open_t(f, "big0");
	uint8_t b[20 * 512], v10[10] = { 0x2f };
	struct ata_regs r;
	struct xcmd c;

	assert_int_equal(
	    sim_drive_inject(sim_rig_find(f->rig, "sas0"), "medium-error:100-199", &err), 0);
	assert_int_equal(read10(t, &c, 0, 20, b, sizeof(b)), 0);
	expect_ok(&c);
	assert_int_equal(read10(t, &c, 90, 20, b, sizeof(b)), 0);
	expect_sense(&c, 0x03, 0x11, 0x00);
	assert_true(s_info(&c) == 100);
	assert_int_equal(c.resid, 10 * 512); /* ten good blocks came first */
	v10[5] = 150;
	v10[8] = 1;
	assert_int_equal(cmd(t, &c, v10, 10, XFER_NONE, NULL, 0), 0);
	expect_sense(&c, 0x03, 0x11, 0x00);
	assert_int_equal(read10(t, &c, 200, 20, b, sizeof(b)), 0);
	expect_ok(&c);
	/* SATA: through the SATL and through pass-through (UNC) */
	assert_int_equal(sim_drive_inject(sim_rig_find(f->rig, "sata0"), "medium-error:5000", &err),
			 0);
	assert_int_equal(read10(s, &c, 4999, 2, b, sizeof(b)), 0);
	expect_sense(&c, 0x03, 0x11, 0x00);
	assert_true(s_info(&c) == 5000);
	{
		struct atacmd rd = { .command = 0x25,
				     .count = 8,
				     .lba = 4996,
				     .ext = true,
				     .proto = ATA_PROTO_DMA,
				     .blocks = 8 };

		assert_int_equal(ata(s, &c, rd, false, b, 8 * 512), 0);
		r = s_regs(&c);
		assert_int_equal(r.status, 0x51);
		assert_int_equal(r.error, 0x40);
		assert_true(r.lba == 5000);
	}
	/* listed in the rig file, on a drive beyond 2^32 blocks (READ (16)) */
	{
		uint8_t cdb[16] = { 0x88 };

		cdb[6] = 0xee;
		cdb[7] = 0x6b;
		cdb[8] = 0x28;
		cdb[9] = 0x00; /* 4,000,000,000 */
		cdb[13] = 1;
		assert_int_equal(cmd(big, &c, cdb, 16, XFER_FROM_DEV, b, 512), 0);
		expect_sense(&c, 0x03, 0x11, 0x00);
		assert_true(s_info(&c) == 4000000000ULL);
	}
}

static void test_fault_vanish(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "sas0");
	struct transport *t = open_t(f, "sas0");
	struct xcmd c;

	assert_int_equal(sim_drive_inject(d, "vanish-after:2", &err), 0);
	tur(t, &c);
	expect_ok(&c);
	tur(t, &c);
	expect_ok(&c);
	memset(&c, 0, sizeof(c));
	c.cdb_len = 6;
	assert_int_equal(transport_exec(t, &c, &err), -ENODEV);
	assert_non_null(strstr(err.msg, "vanish"));
	assert_int_equal(transport_exec(t, &c, &err), -ENODEV);
	sim_drive_power_cycle(d);
	tur(t, &c);
	expect_ok(&c);
}

static void test_fault_format_power_loss(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "sas0");
	struct transport *t = open_t(f, "sas0");
	uint8_t b[512];
	struct xcmd c;
	unsigned i;
	int rc = 0;

	assert_int_equal(sim_drive_inject(d, "format-power-loss", &err), 0);
	format_unit(t, &c, true);
	expect_ok(&c);
	for (i = 0; i < 100; i++) {
		sim_drive_advance_clock(d, 250000000ULL);
		memset(&c, 0, sizeof(c));
		c.cdb_len = 6;
		rc = transport_exec(t, &c, &err);
		if (rc)
			break;
		expect_sense(&c, 0x02, 0x04, 0x04);
		assert_true(s_progress(&c) < 32768 + 2000);
	}
	assert_int_equal(rc, -ENODEV);
	assert_non_null(strstr(err.msg, "power"));
	sim_drive_power_cycle(d);
	tur(t, &c);
	expect_sense(&c, 0x02, 0x31, 0x00); /* not ready: medium format corrupted */
	assert_int_equal(read10(t, &c, 0, 1, b, 512), 0);
	expect_sense(&c, 0x03, 0x31, 0x00);
	write10(t, &c, 0, 1);
	expect_sense(&c, 0x03, 0x31, 0x00);
	/* a completed format repairs it (the fault fired once) */
	format_unit(t, &c, false);
	expect_ok(&c);
	assert_int_equal(read10(t, &c, 0, 1, b, 512), 0);
	expect_ok(&c);
}

static void test_fault_frozen_and_slow(void **state)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, "sata0");
	struct transport *t = open_t(f, "sata0");
	uint8_t id[512];
	uint64_t base;
	struct xcmd c;

	assert_int_equal(sim_drive_inject(d, "frozen", &err), 0);
	identify(t, id);
	assert_true(idw(id, 128) & 0x0008);
	read_native_max_ext(t);
	set_max_ext(t, &c, 1000, false);
	expect_abrt(&c);
	sim_drive_power_cycle(d); /* the "BIOS" freezes it again */
	identify(t, id);
	assert_true(idw(id, 128) & 0x0008);
	sim_drive_clear_faults(d);
	sim_drive_power_cycle(d);
	read_native_max_ext(t);
	set_max_ext(t, &c, 1000, false);
	expect_ok(&c);

	tur(t, &c);
	base = c.duration_ns;
	assert_int_equal(sim_drive_inject(d, "slow:4", &err), 0);
	tur(t, &c);
	assert_true(c.duration_ns == 4 * base);
	assert_int_equal(sim_drive_inject(d, "slow:0.5", &err), -EINVAL);

	/* delay: the answer comes late in real time (never earlier than asked:
	 * a lower bound, which load cannot break), only to the opcode named */
	sim_drive_clear_faults(d);
	assert_int_equal(sim_drive_inject(d, "delay:0", &err), -EINVAL);
	assert_int_equal(sim_drive_inject(d, "delay:40:zz", &err), -EINVAL);
	assert_int_equal(sim_drive_inject(d, "delay:40:00", &err), 0);
	{
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		tur(t, &c);
		clock_gettime(CLOCK_MONOTONIC, &b);
		expect_ok(&c);
		assert_true((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) >=
			    40000000LL);
	}
}

static char *mkstate(void)
{
	char tmpl[256];

	assert_int_equal(fixture_mkdtemp(tmpl, sizeof(tmpl)), 0);
	return strdup(tmpl);
}

static void rmstate(char *dir)
{
	assert_int_equal(fixture_rmtree(dir), 0);
	free(dir);
}

static void test_state_persistence(void **state)
{
	struct fx f = { 0 };
	struct transport *t, *s;
	char *dir = mkstate(), path[512];
	uint8_t b[512];
	struct xcmd c;
	struct stat sb;

	(void)state;
	assert_int_equal(sim_rig_load_string(test_rig, "test.json", dir, &f.rig, &err), 0);
	s = open_t(&f, "sata0");
	t = open_t(&f, "sas0");
	read_native_max_ext(s);
	set_max_ext(s, &c, 999999, true);
	expect_ok(&c);
	read_native_max_ext(s);
	set_max_ext(s, &c, 499999, false); /* volatile, on top */
	expect_ok(&c);
	{
		uint8_t p[16] = { 0 };

		p[7] = 8;
		p[8 + 1] = 0x0a;
		p[8 + 2] = 0xae;
		p[8 + 3] = 0x60; /* 700,000 */
		p[8 + 6] = 0x02;
		assert_int_equal(mode_select10(t, &c, 0x10, p, 16), 0);
		expect_ok(&c);
	}
	write10(t, &c, 1234, 0x77);
	expect_ok(&c);
	assert_int_equal(sim_drive_inject(sim_rig_find(f.rig, "sas0"), "medium-error:42", &err), 0);
	close_all(&f);
	snprintf(path, sizeof(path), "%s/sata0.json", dir);
	assert_int_equal(stat(path, &sb), 0);
	snprintf(path, sizeof(path), "%s/sas0.img", dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_true((uint64_t)sb.st_size == 1000000ULL * 512);
	assert_true((uint64_t)sb.st_blocks * 512 < 1024 * 1024); /* sparse */

	/* a second "process": same rig, same state directory */
	assert_int_equal(sim_rig_load_string(test_rig, "test.json", dir, &f.rig, &err), 0);
	s = open_t(&f, "sata0");
	t = open_t(&f, "sas0");
	assert_true(rc16(s, NULL, NULL) == 500000); /* the drive stayed powered */
	assert_true(rc16(t, NULL, NULL) == 700000);
	assert_int_equal(read10(t, &c, 1234, 1, b, 512), 0);
	expect_ok(&c);
	assert_int_equal(b[0], 0x77);
	assert_int_equal(read10(t, &c, 42, 1, b, 512), 0);
	expect_sense(&c, 0x03, 0x11, 0x00);
	/* still the same power cycle: a second non-volatile SET MAX aborts */
	read_native_max_ext(s);
	set_max_ext(s, &c, 1999999, true);
	expect_abrt(&c);
	sim_drive_power_cycle(sim_rig_find(f.rig, "sata0"));
	assert_true(rc16(s, NULL, NULL) == 1000000);
	close_all(&f);

	/* and the power cycle persisted too */
	assert_int_equal(sim_rig_load_string(test_rig, "test.json", dir, &f.rig, &err), 0);
	s = open_t(&f, "sata0");
	assert_true(rc16(s, NULL, NULL) == 1000000);
	read_native_max_ext(s);
	set_max_ext(s, &c, 1999999, true);
	expect_ok(&c);
	close_all(&f);

	/* a state file that does not fit the rig is refused, nothing loaded */
	snprintf(path, sizeof(path), "%s/sas0.json", dir);
	{
		FILE *fp = fopen(path, "w");

		assert_non_null(fp);
		fputs("{\"version\": 1, \"id\": \"sas0\", \"blocks\": 5, \"logical_block\": 512}\n",
		      fp);
		fclose(fp);
	}
	assert_int_equal(sim_rig_load_string(test_rig, "test.json", dir, &f.rig, &err), -EINVAL);
	assert_null(f.rig);
	assert_non_null(strstr(err.msg, "sas0.json"));
	rmstate(dir);
}

/* Holes of the image read as zeros without the file being read: a scan of
 * a written but sparse image costs what one of a fresh drive does. */
static void test_store_reads_skip_holes(void **state)
{
	static uint8_t b[128 * 512];
	struct fx f = { 0 };
	char *dir = mkstate();
	struct sim_drive *d;
	struct transport *t;
	struct xcmd c;
	uint32_t lba;
	size_t i;

	(void)state;
	assert_int_equal(sim_rig_load_string(test_rig, "test.json", dir, &f.rig, &err), 0);
	d = sim_rig_find(f.rig, "sas0");
	t = open_t(&f, "sas0");
	write10(t, &c, 1234, 0x77);
	expect_ok(&c);
	/* 16 MiB read in 64 KiB commands: only the block written is data */
	for (lba = 0; lba < 32768; lba += 128) {
		assert_int_equal(read10(t, &c, lba, 128, b, sizeof(b)), 0);
		expect_ok(&c);
		for (i = 0; i < sizeof(b); i++)
			if (b[i] != (lba + i / 512 == 1234 ? 0x77 : 0))
				fail_msg("LBA %u byte %zu: %#x", lba, i, b[i]);
	}
	assert_true(d->store.file_read > 0);
	assert_true(d->store.file_read <= 64 * 1024);
	/* data written into the hole just read is seen by the next read */
	write10(t, &c, 20000, 0x55);
	expect_ok(&c);
	assert_int_equal(read10(t, &c, 19968, 128, b, sizeof(b)), 0);
	expect_ok(&c);
	assert_int_equal(b[32 * 512], 0x55);
	assert_int_equal(b[32 * 512 + 511], 0x55);
	assert_int_equal(b[31 * 512], 0);
	assert_int_equal(b[33 * 512], 0);
	/* one write of data, zeros and data over data: each part reads back */
	{
		static uint8_t w[512 * 512];
		uint8_t cdb[10] = { 0x2a };

		cdb[2] = 0x00;
		cdb[3] = 0x01;
		cdb[4] = 0x00; /* LBA 65536 */
		cdb[7] = 0x02; /* 512 blocks */
		memset(w, 0x33, sizeof(w));
		assert_int_equal(cmd(t, &c, cdb, 10, XFER_TO_DEV, w, sizeof(w)), 0);
		expect_ok(&c);
		memset(w, 0, sizeof(w));
		memset(w, 0x11, 128 * 512);
		memset(w + 384 * 512, 0x22, 128 * 512);
		w[200 * 512] = 0x44; /* one byte of data among the zeros */
		assert_int_equal(cmd(t, &c, cdb, 10, XFER_TO_DEV, w, sizeof(w)), 0);
		expect_ok(&c);
		for (lba = 0; lba < 512; lba += 128) {
			assert_int_equal(read10(t, &c, 65536 + lba, 128, b, sizeof(b)), 0);
			expect_ok(&c);
			assert_memory_equal(b, w + lba * 512, sizeof(b));
		}
	}
	close_all(&f);
	rmstate(dir);
}

static void test_format_progress_across_processes(void **state)
{
	struct fx f = { 0 };
	char *dir = mkstate();
	struct sim_drive *d;
	struct xcmd c;
	uint32_t p1;

	(void)state;
	assert_int_equal(sim_rig_load_string(test_rig, "t", dir, &f.rig, &err), 0);
	d = sim_rig_find(f.rig, "sas0");
	format_unit(open_t(&f, "sas0"), &c, true);
	expect_ok(&c);
	sim_drive_advance_clock(d, 1000000000ULL);
	tur(open_t(&f, "sas0"), &c);
	p1 = s_progress(&c);
	close_all(&f);
	assert_int_equal(sim_rig_load_string(test_rig, "t", dir, &f.rig, &err), 0);
	tur(open_t(&f, "sas0"), &c);
	expect_sense(&c, 0x02, 0x04, 0x04);
	assert_true(s_progress(&c) >= p1);
	close_all(&f);
	rmstate(dir);
}

static bool exists(const char *dir, const char *name)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

static void touch(const char *dir, const char *name)
{
	char path[300];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("{ \"half\": ", fp);
	fclose(fp);
}

/*
 * Two rigs on one state directory, as two processes have them: a command
 * sees what the other saved (reloaded under the drive's lock), and each
 * saves only the drives it changed, so neither undoes the other.
 */
static void test_state_shared(void **state)
{
	struct fx a = { 0 }, b = { 0 }, c3 = { 0 };
	char *dir = mkstate();
	struct xcmd c;

	(void)state;
	assert_int_equal(sim_rig_load_string(test_rig, "t", dir, &a.rig, &err), 0);
	assert_int_equal(sim_rig_load_string(test_rig, "t", dir, &b.rig, &err), 0);
	/* a limits sata0 by HPA; b, loaded before, puts a fault on sas0 */
	read_native_max_ext(open_t(&a, "sata0"));
	set_max_ext(open_t(&a, "sata0"), &c, 999999, true);
	expect_ok(&c);
	assert_int_equal(sim_drive_inject(sim_rig_find(b.rig, "sas0"), "abort:00:5", &err), 0);
	/* b's next command to sata0 sees a's limit */
	assert_true(rc16(open_t(&b, "sata0"), NULL, NULL) == 1000000);
	/* the other way round: a sees b's fault */
	tur(open_t(&a, "sas0"), &c);
	expect_sense(&c, 0x0b, 0x00, 0x00);
	/* b ends last: saving every drive would put sata0 back */
	close_all(&a);
	close_all(&b);

	/* what killed processes leave: half-written temporary state files */
	touch(dir, "sata0.json.tmp.4242");
	touch(dir, "sas0.json.tmp.Ab12Cd");
	touch(dir, "keep.txt");
	assert_int_equal(sim_rig_load_string(test_rig, "t", dir, &c3.rig, &err), 0);
	assert_false(exists(dir, "sata0.json.tmp.4242"));
	assert_false(exists(dir, "sas0.json.tmp.Ab12Cd"));
	assert_true(exists(dir, "keep.txt"));
	assert_true(rc16(open_t(&c3, "sata0"), NULL, NULL) == 1000000);
	tur(open_t(&c3, "sas0"), &c); /* 5 - 1 aborts left */
	expect_sense(&c, 0x0b, 0x00, 0x00);
	close_all(&c3);
	rmstate(dir);
}

struct bad_rig {
	const char *json;
	const char *msg; /* the whole message, or a prefix ending in '*' */
};

static void test_rig_errors(void **state)
{
	static const struct bad_rig cases[] = {
		{ "{\"drives\": [\n"
		  "  {\"id\": \"d0\", \"personality\": \"sas\", \"vendor\": \"V\",\n"
		  "   \"model\": \"blocks\", \"serial\": \"S\", \"firmware\": \"F\",\n"
		  "   \"wwn\": \"5000000000000001\", \"blocks\": 10},\n"
		  "  {\"id\": \"sata1\", \"personality\": \"sata\",\n"
		  "   \"model\": \"M\", \"serial\": \"S\", \"firmware\": \"F\",\n"
		  "   \"rpm\": 7200,\n"
		  "   \"blocks\": \"many\"}\n"
		  "]}\n",
		  "rig.json:8: drive \"sata1\": field \"blocks\": expected a positive integer" },
		{ "{\"drives\": [{\"id\": \"d1\", \"personality\": \"sata\",\n"
		  "  \"model\": \"M\", \"serial\": \"S\", \"firmware\": \"F\",\n"
		  "  \"blokcs\": 10}]}",
		  "rig.json:3: drive \"d1\": unknown field \"blokcs\"" },
		{ "{\"drives\": [\n"
		  "  {\"id\": \"d1\", \"personality\": \"sata\",\n"
		  "   \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10}]}",
		  "rig.json:2: drive \"d1\": missing field \"model\"" },
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"sata\", \"model\": \"M\",\n"
		  " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10},\n"
		  " {\"id\": \"b\", \"personality\": \"sata\", \"model\": \"M\",\n"
		  " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10,\n"
		  " \"media\": {\"outer_mbps\": 100,\n"
		  "            \"avg_seek_ms\": -3}}]}",
		  "rig.json:6: drive \"b\": field \"media.avg_seek_ms\": expected a number from "
		  "0.001 to 1000" },
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"sata\", \"model\": \"M\",\n"
		  " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10,\n"
		  " \"faults\": [\"frozen\",\n"
		  "   \"abort:zz\"]}]}",
		  "rig.json:4: drive \"a\": field \"faults[1]\": fault \"abort:zz\": opcode must be "
		  "one hex byte" },
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"sata\", \"model\": \"M\",\n"
		  " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10},\n"
		  " {\"id\": \"a\", \"personality\": \"sata\", \"model\": \"M\",\n"
		  " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10}]}",
		  "rig.json:3: drive \"a\": field \"id\": the id is already used by drive #1" },
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"sata\", \"model\": \"M\",\n"
		  " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10,\n"
		  " \"hpa\": {\"supported\": true,\n"
		  "         \"max\": 11}}]}",
		  "rig.json:4: drive \"a\": field \"hpa.max\": 11 is beyond the native capacity "
		  "(10 blocks)" },
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"sas\", \"vendor\": \"V\",\n"
		  " \"model\": \"M\", \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10,\n"
		  " \"wwn\": \"5000000000000001\", \"amac\": true}]}",
		  "rig.json:3: drive \"a\": field \"amac\": an ATA feature; only a \"sata\" drive "
		  "has it" },
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"sas\", \"vendor\": \"V\",\n"
		  " \"model\": \"M\", \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10,\n"
		  " \"wwn\": \"3000000000000001\"}]}",
		  "rig.json:3: drive \"a\": field \"wwn\": expected an NAA 5*" },
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"ide\"}]}",
		  "rig.json:1: drive \"a\": field \"personality\": expected \"sata\", \"sas\" or \"nvme\"" },
		{ "{\"drives\": [{\"personality\": \"sata\"}]}",
		  "rig.json:1: drive #1: missing field \"id\"" },
		{ "{\"drives\": [],\n \"time_scale\": 1}",
		  "rig.json:1: field \"drives\": expected a "
		  "non-empty array of drives" },
		{ "{\"drives\": [{\"id\": \"a\"}],\n\n \"colour\": 1}",
		  "rig.json:3: unknown field \"colour\"" },
		{ "{\"drives\": [\n  {\"id\": \"a\",,}]}", "rig.json:2: JSON syntax error:*" },
		{ "{\"drives\": [{\"id\": \"a\"}]} x",
		  "rig.json:1: JSON syntax error: text after*" },
		{ "[1, 2]", "rig.json:1: expected an object {\"drives\": [...]}" },
		{ "", "rig.json:1: JSON syntax error:*" },
		/* keys with escapes are found too */
		{ "{\"drives\": [{\"id\": \"a\", \"personality\": \"sata\", \"model\": \"M\",\n"
		  " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 10,\n"
		  " \"\\u0072pm\": 99999}]}",
		  "rig.json:3: drive \"a\": field \"rpm\": expected an integer from 0 to 65534" },
	};
	struct sim_rig *rig;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *m = cases[i].msg;
		size_t n = strlen(m);

		rig = (struct sim_rig *)1;
		ss_error_clear(&err);
		if (sim_rig_load_string(cases[i].json, "rig.json", NULL, &rig, &err) != -EINVAL)
			fail_msg("case %u loaded", i);
		assert_null(rig);
		if (m[n - 1] == '*') {
			if (strncmp(err.msg, m, n - 1))
				fail_msg("case %u: got \"%s\"", i, err.msg);
		} else if (strcmp(err.msg, m)) {
			fail_msg("case %u: got \"%s\"", i, err.msg);
		}
	}
}

static void test_rig_file(void **state)
{
	char *dir = mkstate(), path[512];
	struct sim_rig *rig = NULL;
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/rig.json", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(sim_rig_demo_json(), fp);
	fclose(fp);
	assert_int_equal(sim_rig_load_file(path, NULL, &rig, &err), 0);
	assert_int_equal(sim_rig_count(rig), 9);
	assert_string_equal(sim_drive_id(sim_rig_drive(rig, 5)), "sata-hpa");
	assert_string_equal(sim_drive_id(sim_rig_drive(rig, 7)), "exos-sata");
	assert_string_equal(sim_drive_id(sim_rig_drive(rig, 8)), "ssd");
	assert_null(sim_rig_drive(rig, 9));
	assert_null(sim_rig_find(rig, "nope"));
	sim_rig_free(rig);
	assert_int_equal(sim_rig_load_file("/nonexistent/rig.json", NULL, &rig, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/rig.json"));
	rmstate(dir);
}

/* Random CDBs and buffers at every drive of the demo: answers, no crash. */
static void test_random_cdbs(void **state)
{
	static const uint8_t ops[] = { 0x00, 0x03, 0x04, 0x12, 0x15, 0x1a, 0x25, 0x28,
				       0x2a, 0x2f, 0x35, 0x55, 0x5a, 0x85, 0x88, 0x8a,
				       0x8f, 0x91, 0x9e, 0xa0, 0xa1, 0x4d, 0xff };
	static const uint8_t ata_ops[] = { 0xec, 0xf8, 0x27, 0xf9, 0x37, 0x78, 0xb1,
					   0xf5, 0xe5, 0x25, 0x35, 0x42, 0xea, 0x00 };
	struct fx f = { 0 };
	uint8_t buf[8192];
	uint64_t x = 88172645463325252ULL;
	unsigned i, j;
	struct xcmd c;

	(void)state;
	assert_int_equal(sim_rig_demo(NULL, &f.rig, &err), 0);
	for (i = 0; i < 30000; i++) {
		struct sim_drive *d = sim_rig_drive(f.rig, i % 6);

		memset(&c, 0, sizeof(c));
		for (j = 0; j < 32; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			c.cdb[j] = (uint8_t)x;
		}
		c.cdb[0] = ops[x % sizeof(ops)];
		if (c.cdb[0] == 0x85)
			c.cdb[14] = ata_ops[(x >> 8) % sizeof(ata_ops)];
		if (c.cdb[0] == 0xa1)
			c.cdb[9] = ata_ops[(x >> 8) % sizeof(ata_ops)];
		if ((x >> 16) % 3 == 0) { /* small transfers, low LBAs */
			memset(c.cdb + 2, 0, 6);
			c.cdb[8] = (uint8_t)(x >> 24) & 3;
		}
		c.cdb_len = (unsigned)((x >> 32) % 4 == 0 ? (x >> 40) % 33 : 16);
		if (c.cdb[0] < 0x20 && (x >> 34) % 2)
			c.cdb_len = 6;
		c.dir = (enum xfer_dir)((x >> 44) % 3);
		c.data = (x >> 48) % 8 ? buf : NULL;
		c.data_len = (size_t)((x >> 50) % sizeof(buf));
		if (!c.data && (x >> 58) % 2)
			c.data_len = 0;
		if (sim_drive_exec(d, &c, &err) == 0) {
			assert_true(c.resid <= c.data_len);
			assert_true(c.sense_len <= sizeof(c.sense));
		}
		if (i % 5000 == 0)
			for (j = 0; j < 6; j++)
				sim_drive_power_cycle(sim_rig_drive(f.rig, j));
	}
	close_all(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo_rig),
		cmocka_unit_test_setup_teardown(test_identify_words, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_native_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_max_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_max_28bit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amac, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dco, setup, teardown),
		cmocka_unit_test(test_security_frozen_demo),
		cmocka_unit_test_setup_teardown(test_inquiry_sas, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inquiry_sata, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_capacity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_sense, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_select_resize, setup, teardown),
		cmocka_unit_test_setup_teardown(test_format_progress, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rw_and_sense_formats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_abort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_ignore_mode_select, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_medium_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_vanish, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_format_power_loss, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_frozen_and_slow, setup, teardown),
		cmocka_unit_test(test_state_persistence),
		cmocka_unit_test(test_store_reads_skip_holes),
		cmocka_unit_test_setup_teardown(test_read_discard, setup, teardown),
		cmocka_unit_test(test_format_progress_across_processes),
		cmocka_unit_test(test_state_shared),
		cmocka_unit_test(test_rig_errors),
		cmocka_unit_test(test_rig_file),
		cmocka_unit_test(test_random_cdbs),
	};

	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
