/* test_ses.c - the SES codec (ses.h) on pages laid out by hand from SES-3's tables, and
 * the simulator's enclosure answering them: configuration, status, element descriptors,
 * additional element status (with and without element indexes), the control page that
 * lights one slot's LED and leaves the rest. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "shortstroke/ses.h"
#include "shortstroke/sim.h"

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* 01h: one enclosure, types: 2 power supplies (02h), 3 array device slots (17h) */
static size_t config_page(uint8_t *b, uint32_t gen)
{
	size_t n = 8;

	memset(b, 0, 256);
	b[0] = 0x01;
	b[7] = (uint8_t)gen;
	b[n + 2] = 2;
	b[n + 3] = 36;
	put64(b + n + 4, 0x5001122334455660ULL);
	memcpy(b + n + 12, "ACME    ", 8);
	memcpy(b + n + 20, "JBOD-3          ", 16);
	memcpy(b + n + 36, "0102", 4);
	n += 40;
	b[n] = 0x02;
	b[n + 1] = 2;
	b[n + 4] = 0x17;
	b[n + 5] = 3;
	n += 8;
	put16(b + 2, (unsigned)(n - 4));
	return n;
}

/* 02h: PSU overall + 2, slot overall + 3; slot 1 ident on, slot 2 fault requested and off */
static size_t status_page(uint8_t *b, uint32_t gen)
{
	size_t n = 8 + 4 * 3 + 4 * 4;

	memset(b, 0, 256);
	b[0] = 0x02;
	b[7] = (uint8_t)gen;
	b[12] = b[16] = 0x01;	 /* the power supplies */
	b[24] = 0x01;		 /* slot 0 */
	b[28] = 0x01;		 /* slot 1 */
	b[28 + 2] = 0x02;	 /* IDENT */
	b[32] = 0x05;		 /* slot 2: not installed */
	b[32 + 3] = 0x20 | 0x10; /* FAULT REQSTD, DEVICE OFF */
	b[32 + 2] = 0x40;	 /* DO NOT REMOVE */
	put16(b + 2, (unsigned)(n - 4));
	return n;
}

static void test_builders(void **state)
{
	uint8_t cdb[6];

	(void)state;
	assert_int_equal(ses_build_receive_diag(cdb, 0x0a, 0x1234), 6);
	assert_memory_equal(cdb, ((uint8_t[]){ 0x1c, 0x01, 0x0a, 0x12, 0x34, 0x00 }), 6);
	assert_int_equal(ses_build_send_diag(cdb, 56), 6);
	assert_memory_equal(cdb, ((uint8_t[]){ 0x1d, 0x10, 0x00, 0x00, 0x38, 0x00 }), 6);
}

static void test_config(void **state)
{
	struct ses_config c;
	struct ses_elem e;
	uint8_t b[256];
	size_t n = config_page(b, 7);

	(void)state;
	assert_int_equal(ses_parse_config(b, n, &c), 0);
	assert_int_equal(c.generation, 7);
	assert_int_equal(c.ntypes, 2);
	assert_int_equal(c.types[1].type, SES_TYPE_ARRAY_DEVICE_SLOT);
	assert_int_equal(c.types[1].count, 3);
	assert_true(c.logical_id == 0x5001122334455660ULL);
	assert_string_equal(c.vendor, "ACME");
	assert_string_equal(c.product, "JBOD-3");
	assert_string_equal(c.revision, "0102");
	/* element indexes: overall elements not counted, or counted */
	assert_int_equal(ses_elem_index(&c, (struct ses_elem){ 1, 2 }), 4);
	assert_int_equal(ses_elem_index(&c, (struct ses_elem){ 1, 3 }), -1);
	assert_int_equal(ses_elem_at(&c, 3, false, &e), 0);
	assert_int_equal(e.type_index, 1);
	assert_int_equal(e.nth, 1);
	assert_int_equal(ses_elem_at(&c, 3, true, &e), -ENOENT); /* the slots' overall */
	assert_int_equal(ses_elem_at(&c, 5, true, &e), 0);
	assert_int_equal(e.nth, 1);
	assert_int_equal(ses_elem_at(&c, 5, false, &e), -ENOENT);
	assert_false(ses_elem_is_slot(&c, (struct ses_elem){ 0, 0 }));
	assert_true(ses_elem_is_slot(&c, (struct ses_elem){ 1, 0 }));
	/* truncated, wrong page, more type headers than bytes */
	assert_int_equal(ses_parse_config(b, n - 1, &c), -EPROTO);
	assert_int_equal(ses_parse_config(b, 7, &c), -EPROTO);
	b[0] = 0x02;
	assert_int_equal(ses_parse_config(b, n, &c), -EPROTO);
	b[0] = 0x01;
	b[10] = 9;
	assert_int_equal(ses_parse_config(b, n, &c), -EPROTO);
}

static void test_status_and_control(void **state)
{
	struct ses_slot_status st;
	struct ses_config c;
	uint8_t cfg[256], b[256], out[256];
	size_t n, olen;

	(void)state;
	assert_int_equal(ses_parse_config(cfg, config_page(cfg, 7), &c), 0);
	n = status_page(b, 7);
	assert_int_equal(ses_parse_slot_status(b, n, &c, (struct ses_elem){ 1, 1 }, &st), 0);
	assert_int_equal(st.code, 1);
	assert_true(st.ident);
	assert_false(st.fault_reqstd);
	assert_int_equal(ses_parse_slot_status(b, n, &c, (struct ses_elem){ 1, 2 }, &st), 0);
	assert_int_equal(st.code, 5);
	assert_string_equal(ses_status_code_name(st.code), "not installed");
	assert_true(st.fault_reqstd && st.device_off && st.do_not_remove && !st.ident);
	/* a power supply is no slot; a stale generation; cut short */
	assert_int_equal(ses_parse_slot_status(b, n, &c, (struct ses_elem){ 0, 1 }, &st), -ENOENT);
	b[7] = 8;
	assert_int_equal(ses_parse_slot_status(b, n, &c, (struct ses_elem){ 1, 1 }, &st), -ESTALE);
	b[7] = 7;
	assert_int_equal(ses_parse_slot_status(b, n - 4, &c, (struct ses_elem){ 1, 2 }, &st),
			 -EPROTO);

	/* slot 2: ident on, the fault kept, DEVICE OFF and DO NOT REMOVE kept, nothing else
	 * selected; the expected generation code is the status page's */
	memset(out, 0xee, sizeof(out));
	assert_int_equal(ses_build_slot_control(b, n, &c, (struct ses_elem){ 1, 2 }, 1, -1, out,
						sizeof(out), &olen),
			 0);
	assert_int_equal(olen, n);
	assert_int_equal(out[0], 0x02);
	assert_int_equal(out[7], 7);
	assert_int_equal(out[2] << 8 | out[3], n - 4);
	for (size_t k = 8; k < n; k += 4)
		if (k != 32)
			assert_int_equal(out[k], 0); /* not selected */
	assert_memory_equal(out + 32, ((uint8_t[]){ 0x80, 0x00, 0x42, 0x30 }), 4);
	/* slot 1: ident off, fault on */
	assert_int_equal(ses_build_slot_control(b, n, &c, (struct ses_elem){ 1, 1 }, 0, 1, out,
						sizeof(out), &olen),
			 0);
	assert_memory_equal(out + 28, ((uint8_t[]){ 0x80, 0x00, 0x00, 0x20 }), 4);
	assert_int_equal(
	    ses_build_slot_control(b, n, &c, (struct ses_elem){ 1, 1 }, 0, 1, out, 8, &olen),
	    -ENOSPC);
}

static void test_element_desc(void **state)
{
	static const char *const t[] = { "PSUs",     "PSU A",	"PSU B", "Slots",
					 "Slot 00 ", "Slot 01", "" };
	struct ses_config c;
	uint8_t cfg[256], b[256];
	char out[32];
	size_t n = 8;

	(void)state;
	assert_int_equal(ses_parse_config(cfg, config_page(cfg, 7), &c), 0);
	memset(b, 0, sizeof(b));
	b[0] = 0x07;
	b[7] = 7;
	for (unsigned i = 0; i < 7; i++) {
		size_t l = strlen(t[i]);

		put16(b + n + 2, (unsigned)l);
		memcpy(b + n + 4, t[i], l);
		n += 4 + l;
	}
	put16(b + 2, (unsigned)(n - 4));
	assert_int_equal(
	    ses_parse_element_desc(b, n, &c, (struct ses_elem){ 1, 0 }, out, sizeof(out)), 0);
	assert_string_equal(out, "Slot 00");
	assert_int_equal(
	    ses_parse_element_desc(b, n, &c, (struct ses_elem){ 0, 1 }, out, sizeof(out)), 0);
	assert_string_equal(out, "PSU B");
	assert_int_equal(
	    ses_parse_element_desc(b, n, &c, (struct ses_elem){ 1, 2 }, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(
	    ses_parse_element_desc(b, n - 3, &c, (struct ses_elem){ 1, 2 }, out, sizeof(out)),
	    -EPROTO);
}

/* one SAS descriptor: with EIP (element index, slot number) or without */
static size_t addl_desc(uint8_t *p, bool eip, uint8_t index, uint8_t slot, uint64_t addr)
{
	size_t h = eip ? 8 : 4;

	memset(p, 0, h + 28);
	p[0] = (uint8_t)((eip ? 0x10 : 0) | 6);
	p[1] = (uint8_t)(h + 28 - 2);
	if (eip) {
		p[3] = index;
		p[4] = 1;
		p[7] = slot;
	} else {
		p[2] = 1;
	}
	put64(p + h + 12, addr);
	return h + 28;
}

static void test_addl(void **state)
{
	struct ses_addl a[8];
	struct ses_config c;
	uint8_t cfg[256], b[512];
	unsigned n;
	size_t len = 8;

	(void)state;
	assert_int_equal(ses_parse_config(cfg, config_page(cfg, 7), &c), 0);
	memset(b, 0, sizeof(b));
	b[0] = 0x0a;
	b[7] = 7;
	/* slot 2 first, by element index 4 (overall elements not counted) */
	len += addl_desc(b + len, true, 4, 12, 0x5000c500aaaa0001ULL);
	/* an FC descriptor: skipped */
	b[len] = 0x10 | 0x0;
	b[len + 1] = 2;
	b[len + 3] = 2;
	len += 4;
	/* slot 0 by element index 4 counted with the overall elements (EIIOE) */
	len += addl_desc(b + len, true, 4, 10, 0x5000c500aaaa0002ULL);
	b[len - 36 + 2] = 0x01;
	put16(b + 2, (unsigned)(len - 4));
	assert_int_equal(ses_parse_addl(b, len, &c, a, 8, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(a[0].elem.type_index, 1);
	assert_int_equal(a[0].elem.nth, 2);
	assert_int_equal(a[0].slot, 12);
	assert_true(a[0].sas_addr[0] == 0x5000c500aaaa0001ULL);
	assert_int_equal(a[1].elem.nth, 0);
	assert_int_equal(a[1].slot, 10);

	/* without element indexes: in order of the slots */
	len = 8;
	len += addl_desc(b + len, false, 0, 0, 0x11);
	len += addl_desc(b + len, false, 0, 0, 0x22);
	b[len - 32] |= 0x80; /* the second one INVALID */
	put16(b + 2, (unsigned)(len - 4));
	assert_int_equal(ses_parse_addl(b, len, &c, a, 8, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(a[0].elem.nth, 0);
	assert_int_equal(a[0].slot, -1);
	assert_true(a[0].sas_addr[0] == 0x11);
	/* a descriptor running past the page */
	b[9] = 200;
	assert_int_equal(ses_parse_addl(b, len, &c, a, 8, &n), -EPROTO);
	b[7] = 9;
	assert_int_equal(ses_parse_addl(b, len, &c, a, 8, &n), -ESTALE);
}

/* ---- the simulator's enclosure --------------------------------------------------------------- */

static const char rig_json[] =
    "{\"time_scale\": 0, \"drives\": ["
    " {\"id\": \"s0\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\", \"serial\": \"S0\", \"firmware\": \"F1\","
    "  \"wwn\": \"5000c50000000100\", \"blocks\": 1000000},"
    " {\"id\": \"a0\", \"personality\": \"sata\", \"vendor\": \"V\", \"model\": \"M\", \"serial\": \"A0\", \"firmware\": \"F1\","
    "  \"wwn\": \"5000c50000000200\", \"blocks\": 1000000}],"
    " \"enclosures\": [{\"id\": \"e0\", \"vendor\": \"ACME\", \"slots\": [null, \"a0\", \"s0\"]}]}";

static void rd(struct sim_encl *e, uint8_t page, uint8_t *b, size_t *n)
{
	struct ss_error err = { 0 };
	struct xcmd c;

	memset(&c, 0, sizeof(c));
	c.cdb_len = ses_build_receive_diag(c.cdb, page, 4096);
	c.dir = XFER_FROM_DEV;
	c.data = b;
	c.data_len = 4096;
	assert_int_equal(sim_encl_exec(e, &c, &err), 0);
	assert_int_equal(c.status, 0);
	*n = c.data_len - c.resid;
}

static void test_sim_enclosure(void **state)
{
	struct ss_error err = { 0 };
	struct ses_slot_status st;
	struct ses_addl a[8];
	struct ses_config c;
	struct sim_rig *rig;
	struct sim_encl *e;
	static uint8_t b[4096], out[4096];
	struct xcmd x;
	size_t n, olen;
	unsigned na;
	char d[32];

	(void)state;
	assert_int_equal(fixture_rig_load(rig_json, fixture_dir, &rig), 0);
	e = sim_rig_find_encl(rig, "e0");
	assert_non_null(e);
	assert_int_equal(sim_encl_slots(e), 3);
	assert_null(sim_encl_slot_drive(e, 0));
	rd(e, SES_PAGE_CONFIG, b, &n);
	assert_int_equal(ses_parse_config(b, n, &c), 0);
	assert_string_equal(c.vendor, "ACME");
	assert_int_equal(c.types[1].type, SES_TYPE_ARRAY_DEVICE_SLOT);
	rd(e, SES_PAGE_ADDL_STATUS, b, &n);
	assert_int_equal(ses_parse_addl(b, n, &c, a, 8, &na), 0);
	assert_int_equal(na, 3);
	/* the SAS drive by its target port (WWN + 1), the SATA drive by its WWN */
	assert_true(a[2].sas_addr[0] == 0x5000c50000000101ULL && a[2].slot == 2);
	assert_true(a[1].sas_addr[0] == 0x5000c50000000200ULL);
	assert_true(a[0].sas_addr[0] == 0);
	rd(e, SES_PAGE_ELEMENT_DESC, b, &n);
	assert_int_equal(ses_parse_element_desc(b, n, &c, a[2].elem, d, sizeof(d)), 0);
	assert_string_equal(d, "Slot 02");
	rd(e, SES_PAGE_STATUS, b, &n);
	assert_int_equal(ses_parse_slot_status(b, n, &c, a[0].elem, &st), 0);
	assert_int_equal(st.code, 5); /* empty */
	assert_int_equal(ses_parse_slot_status(b, n, &c, a[2].elem, &st), 0);
	assert_true(st.code == 1 && !st.ident);

	/* SEND DIAGNOSTIC: slot 2's locate LED on; read back, and kept in the state */
	assert_int_equal(
	    ses_build_slot_control(b, n, &c, a[2].elem, 1, -1, out, sizeof(out), &olen), 0);
	memset(&x, 0, sizeof(x));
	x.cdb_len = ses_build_send_diag(x.cdb, (uint16_t)olen);
	x.dir = XFER_TO_DEV;
	x.data = out;
	x.data_len = olen;
	assert_int_equal(sim_encl_exec(e, &x, &err), 0);
	assert_int_equal(x.status, 0);
	sim_rig_free(rig);
	assert_int_equal(fixture_rig_load(rig_json, fixture_dir, &rig), 0);
	e = sim_rig_find_encl(rig, "e0");
	rd(e, SES_PAGE_STATUS, b, &n);
	assert_int_equal(ses_parse_slot_status(b, n, &c, a[2].elem, &st), 0);
	assert_true(st.ident && !st.fault_reqstd);
	assert_int_equal(ses_parse_slot_status(b, n, &c, a[1].elem, &st), 0);
	assert_false(st.ident);

	/* a wrong expected generation code is refused */
	out[7] = 1;
	x.status = 0;
	assert_int_equal(sim_encl_exec(e, &x, &err), 0);
	assert_int_equal(x.status, 2);
	sim_rig_free(rig);
}

static void test_sim_rig_errors(void **state)
{
	static const char *const bad[] = {
		"\"enclosures\": [{\"id\": \"e0\", \"slots\": [\"nope\"]}]",
		"\"enclosures\": [{\"id\": \"e0\", \"slots\": [\"s0\", \"s0\"]}]",
		"\"enclosures\": [{\"id\": \"s0\", \"slots\": [\"s0\"]}]",
		"\"enclosures\": [{\"id\": \"e0\", \"slots\": []}]",
		"\"enclosures\": [{\"id\": \"e0\", \"slots\": [\"s0\"], \"colour\": 1}]",
		"\"enclosures\": [{\"id\": \"e0\", \"slots\": [null], \"wwn\": \"12\"}]",
		"\"enclosures\": [{\"slots\": [null]}]",
	};
	char json[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ss_error err = { 0 };
		struct sim_rig *rig = NULL;

		snprintf(
		    json, sizeof(json),
		    "{\"drives\": [{\"id\": \"s0\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\","
		    " \"serial\": \"S0\", \"firmware\": \"F1\", \"wwn\": \"5000c50000000100\", \"blocks\": 1000000}], %s}",
		    bad[i]);
		assert_int_equal(sim_rig_load_string(json, "t.json", NULL, &rig, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "enclosure"));
		assert_null(rig);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builders),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_status_and_control),
		cmocka_unit_test(test_element_desc),
		cmocka_unit_test(test_addl),
		cmocka_unit_test_setup_teardown(test_sim_enclosure, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test(test_sim_rig_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
