/* test_nvme.c - the NVMe codec (builders' dwords, parsers against libnvme's
 * structures) and the simulator's NVMe personality through drive_nvme:
 * identify, SMART log, self-test, format, namespace management. */
#include <endian.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <libnvme.h>

#include "fixture.h"
#include "shortstroke/drive.h"
#include "shortstroke/nvme.h"
#include "shortstroke/sim.h"
#include "shortstroke/smart.h"

static void test_builders(void **state)
{
	uint8_t buf[NVME_ID_LEN];
	struct xcmd c;

	(void)state;
	nvme_build_identify(&c, 0x01, 0, buf);
	assert_int_equal(c.kind, XCMD_NVME_ADMIN);
	assert_int_equal(c.nvme.opcode, 0x06);
	assert_int_equal(c.nvme.cdw10, 1);
	assert_int_equal(c.dir, XFER_FROM_DEV);
	assert_int_equal(c.data_len, 4096);

	/* NUMDL: dwords 0's based in bits 31:16 of CDW10 */
	nvme_build_get_log(&c, 0x02, 0xffffffffu, buf, 512);
	assert_int_equal(c.nvme.opcode, 0x02);
	assert_int_equal(c.nvme.cdw10, 0x02u | (127u << 16));
	assert_int_equal(c.nvme.cdw11, 0);
	assert_int_equal(c.nvme.nsid, 0xffffffffu);

	nvme_build_selftest(&c, 1, NVME_ST_EXTENDED);
	assert_int_equal(c.nvme.opcode, 0x14);
	assert_int_equal(c.nvme.cdw10, 2);
	assert_int_equal(c.dir, XFER_NONE);

	/* LBAF 3:0, SES 11:9, LBAFU 13:12 */
	nvme_build_format(&c, 1, 0x11, 1);
	assert_int_equal(c.nvme.opcode, 0x80);
	assert_int_equal(c.nvme.cdw10, 0x1u | 1u << 9 | 1u << 12);

	nvme_build_ns_create(&c, buf, 1000, 1);
	assert_int_equal(c.nvme.opcode, 0x0d);
	assert_int_equal(c.nvme.cdw10, 0);
	assert_int_equal(c.dir, XFER_TO_DEV);
	{
		const struct nvme_id_ns *ns = (const void *)buf;

		assert_int_equal(le64toh(ns->nsze), 1000);
		assert_int_equal(le64toh(ns->ncap), 1000);
		assert_int_equal(ns->flbas, 1);
	}
	nvme_build_ns_delete(&c, 7);
	assert_int_equal(c.nvme.nsid, 7);
	assert_int_equal(c.nvme.cdw10, 1);
	nvme_build_ns_attach(&c, 1, true, 0x21, buf);
	assert_int_equal(c.nvme.opcode, 0x15);
	assert_int_equal(buf[0], 1);
	assert_int_equal(buf[2], 0x21);

	nvme_build_rw(&c, true, 1, 0x123456789ull, 8, buf, 4096);
	assert_int_equal(c.kind, XCMD_NVME_IO);
	assert_int_equal(c.nvme.opcode, 0x01);
	assert_int_equal(c.nvme.cdw10, 0x23456789u);
	assert_int_equal(c.nvme.cdw11, 0x1u);
	assert_int_equal(c.nvme.cdw12, 7);
}

static void test_parsers(void **state)
{
	struct nvme_id_ctrl id;
	struct nvme_id_ns ns;
	struct nvme_smart_log s;
	struct nvme_self_test_log l;
	struct nvme_ctrl_info ci;
	struct nvme_ns_info ni;
	struct nvme_health h;
	struct nvme_st_log sl;
	char text[200];

	(void)state;
	memset(&id, 0, sizeof(id));
	memcpy(id.sn, "S123  ", 6);
	memset(id.mn, ' ', sizeof(id.mn));
	memcpy(id.mn, "ACME NV1", 8);
	memcpy(id.fr, "1.2.3   ", 8);
	id.oacs = htole16(NVME_CTRL_OACS_NS_MGMT | NVME_CTRL_OACS_SELF_TEST);
	id.tnvmcap[0] = 0x00;
	id.tnvmcap[1] = 0x10; /* 4096 bytes */
	id.tnvmcap[8] = 0;
	id.ver = htole32(0x00010400);
	assert_int_equal(nvme_parse_id_ctrl(&id, sizeof(id), &ci), 0);
	assert_string_equal(ci.serial, "S123");
	assert_string_equal(ci.model, "ACME NV1");
	assert_string_equal(ci.firmware, "1.2.3");
	assert_true(ci.can_ns_mgmt);
	assert_true(ci.can_selftest);
	assert_false(ci.can_format);
	assert_int_equal(ci.tnvmcap, 4096);
	assert_int_equal(nvme_parse_id_ctrl(&id, 100, &ci), -EPROTO);
	/* a 128-bit count beyond 64 bits saturates */
	id.tnvmcap[9] = 1;
	nvme_parse_id_ctrl(&id, sizeof(id), &ci);
	assert_true(ci.tnvmcap == UINT64_MAX);

	memset(&ns, 0, sizeof(ns));
	ns.nsze = htole64(2000);
	ns.nlbaf = 1;
	ns.flbas = 1;
	ns.lbaf[0].ds = 9;
	ns.lbaf[1].ds = 12;
	ns.lbaf[1].ms = htole16(8);
	assert_int_equal(nvme_parse_id_ns(&ns, sizeof(ns), &ni), 0);
	assert_int_equal(ni.nsze, 2000);
	assert_int_equal(ni.nlbaf, 2);
	assert_int_equal(ni.flbas, 1);
	assert_int_equal(ni.lbaf[0].bytes, 512);
	assert_int_equal(ni.lbaf[1].bytes, 4096);
	assert_int_equal(ni.lbaf[1].meta, 8);
	/* a nonsense data size is not offered */
	ns.lbaf[1].ds = 40;
	nvme_parse_id_ns(&ns, sizeof(ns), &ni);
	assert_int_equal(ni.lbaf[1].bytes, 0);

	memset(&s, 0, sizeof(s));
	s.critical_warning = NVME_CW_SPARE | NVME_CW_READ_ONLY;
	s.temperature[0] = (uint8_t)(310 & 0xff);
	s.temperature[1] = (uint8_t)(310 >> 8);
	s.avail_spare = 5;
	s.spare_thresh = 10;
	s.percent_used = 101;
	s.media_errors[0] = 3;
	s.power_on_hours[0] = 0x10;
	s.power_on_hours[1] = 0x01;
	s.temp_sensor[1] = htole16(320);
	assert_int_equal(nvme_parse_smart_log(&s, sizeof(s), &h), 0);
	assert_int_equal(h.temperature_c, 37);
	assert_int_equal(h.available_spare, 5);
	assert_int_equal(h.percentage_used, 101);
	assert_int_equal(h.media_errors, 3);
	assert_int_equal(h.power_on_hours, 0x110);
	assert_int_equal(h.temperature_sensors[0], INT32_MIN);
	assert_int_equal(h.temperature_sensors[1], 47);
	nvme_critical_warning_text(h.critical_warning, text, sizeof(text));
	assert_string_equal(text, "available spare below threshold, media read-only");

	/* the verdict: spare below its threshold fails the drive */
	{
		struct smart_report r;

		memset(&r, 0, sizeof(r));
		r.nvme = true;
		r.nv = h;
		smart_nvme_evaluate(&r);
		assert_int_equal(r.verdict, SMART_FAILED);
		assert_non_null(strstr(r.reason, "available spare below threshold"));
		r.verdict = SMART_UNKNOWN;
		r.nv.critical_warning = 0;
		smart_nvme_evaluate(&r);
		assert_int_equal(r.verdict, SMART_WARNING);
	}

	memset(&l, 0, sizeof(l));
	for (unsigned i = 0; i < NVME_LOG_ST_MAX_RESULTS; i++)
		l.result[i].dsts = 0x0f;
	l.current_operation = 2;
	l.completion = 40;
	l.result[0].dsts = 0x17; /* short, known segment failed */
	l.result[0].vdi = NVME_ST_VALID_DIAG_INFO_FLBA;
	l.result[0].flba = htole64(1234);
	l.result[0].seg = 2;
	l.result[1].dsts = 0x20;
	assert_int_equal(nvme_parse_st_log(&l, sizeof(l), &sl), 0);
	assert_int_equal(sl.current, 2);
	assert_int_equal(sl.completion, 40);
	assert_int_equal(sl.n, 2);
	assert_int_equal(sl.e[0].code, 1);
	assert_int_equal(sl.e[0].result, 7);
	assert_true(sl.e[0].flba_valid);
	assert_int_equal(sl.e[0].flba, 1234);
	assert_int_equal(sl.e[1].code, 2);
	{
		struct selftest_entry e;

		smart_nvme_entry(&sl.e[0], &e);
		assert_int_equal(e.kind, SELFTEST_SHORT);
		assert_true(e.failed);
		assert_true(e.lba_valid);
		smart_nvme_entry(&sl.e[1], &e);
		assert_int_equal(e.kind, SELFTEST_EXTENDED);
		assert_true(e.passed);
	}
	assert_int_equal(nvme_parse_st_log(&l, 10, &sl), -EPROTO);
}

static const char rig_json[] =
    "{ \"drives\": ["
    " { \"id\": \"n\", \"personality\": \"nvme\", \"model\": \"SIM NV\", \"serial\": \"NV1\","
    "   \"firmware\": \"1.0\", \"blocks\": 800000, \"logical_block\": 512,"
    "   \"nvme\": { \"lba_formats\": [512, 4096], \"percentage_used\": 7 } },"
    " { \"id\": \"f\", \"personality\": \"nvme\", \"model\": \"SIM NV FIXED\", \"serial\": \"NV2\","
    "   \"firmware\": \"1.0\", \"blocks\": 100000, \"logical_block\": 4096,"
    "   \"nvme\": { \"namespace_management\": false } },"
    " { \"id\": \"s\", \"personality\": \"sas\", \"vendor\": \"SEAGATE\", \"model\": \"ST\","
    "   \"serial\": \"S1\", \"firmware\": \"0001\", \"blocks\": 100000, \"wwn\": \"0x5000c50000000001\" }"
    "] }";

static struct drive *open_drive(struct sim_rig *rig, const char *id)
{
	struct transport *t;
	struct drive *d;

	assert_int_equal(transport_open_sim(sim_rig_find(rig, id), &t, NULL), 0);
	assert_int_equal(drive_new(t, TRAN_UNKNOWN, &d, NULL), 0);
	return d;
}

static uint16_t send(struct drive *d, struct xcmd *c)
{
	struct ss_error err = { 0 };

	drive_nvme(d, c, &err);
	return c->nvme.status & 0x7ff;
}

static void test_sim_nvme(void **state)
{
	struct sim_rig *rig;
	struct drive_info info;
	struct drive *d, *f, *s;
	struct ss_error err = { 0 };
	uint8_t buf[NVME_ID_LEN];
	struct nvme_health h;
	struct xcmd c;

	(void)state;
	assert_int_equal(fixture_rig_load(rig_json, NULL, &rig), 0);
	d = open_drive(rig, "n");
	assert_int_equal(drive_identify(d, &info, &err), 0);
	assert_int_equal(info.tran, TRAN_NVME);
	assert_string_equal(info.serial, "NV1");
	assert_int_equal(info.capacity_blocks, 800000);
	assert_int_equal(info.logical_block, 512);
	assert_int_equal(info.native_blocks, 800000);
	assert_int_equal(info.nvme.nlbaf, 2);
	assert_true(info.nvme.ns_mgmt);
	assert_true(info.methods & METHOD_NVME_NS);

	/* no CDB reaches an NVMe drive, no NVMe command a SAS one */
	s = open_drive(rig, "s");
	assert_int_equal(
	    drive_read_capacity(d, &info.capacity_blocks, &info.logical_block, NULL, &err), 0);
	{
		uint8_t cdb[16] = { 0x9e, 0x10 };
		uint8_t cap[32];

		assert_int_equal(drive_scsi_in(d, cdb, 16, cap, 32, NULL, NULL, &err), -EOPNOTSUPP);
		nvme_build_identify(&c, 0x01, 0, buf);
		assert_int_equal(drive_nvme(s, &c, &err), -EOPNOTSUPP);
	}

	/* SMART log */
	nvme_build_get_log(&c, 0x02, NVME_NSID_ALL_NS, buf, NVME_SMART_LOG_LEN);
	assert_int_equal(send(d, &c), 0);
	nvme_parse_smart_log(buf, NVME_SMART_LOG_LEN, &h);
	assert_int_equal(h.percentage_used, 7);
	assert_int_equal(h.available_spare, 100);

	/* a read past the namespace: LBA out of range */
	nvme_build_rw(&c, false, 1, 800000, 1, buf, 512);
	assert_int_equal(send(d, &c), 0x80);
	/* a write then a read of it */
	memset(buf, 0xa5, 512);
	nvme_build_rw(&c, true, 1, 10, 1, buf, 512);
	assert_int_equal(send(d, &c), 0);
	memset(buf, 0, 512);
	nvme_build_rw(&c, false, 1, 10, 1, buf, 512);
	assert_int_equal(send(d, &c), 0);
	assert_int_equal(buf[511], 0xa5);

	/* format to 4096: 100000 blocks, the data gone */
	nvme_build_format(&c, 1, 7, 0);
	assert_int_equal(send(d, &c), 0x10a); /* Invalid Format */
	nvme_build_format(&c, 1, 1, 0);
	assert_int_equal(send(d, &c), 0);
	assert_int_equal(drive_identify(d, &info, &err), 0);
	assert_int_equal(info.logical_block, 4096);
	assert_int_equal(info.capacity_blocks, 100000);
	nvme_build_rw(&c, false, 1, 1, 1, buf, 4096);
	assert_int_equal(send(d, &c), 0);
	assert_int_equal(buf[0], 0);

	/* namespace management: a second one does not fit NN 1; delete,
	 * create smaller (not active until attached), attach */
	nvme_build_ns_create(&c, buf, 1000, 0);
	assert_int_equal(send(d, &c), 0x116);
	nvme_build_ns_delete(&c, 1);
	assert_int_equal(send(d, &c), 0);
	nvme_build_identify(&c, 0x02, 0, buf);
	assert_int_equal(send(d, &c), 0);
	assert_int_equal(buf[0], 0);
	nvme_build_ns_create(&c, buf, 800001, 0);
	assert_int_equal(send(d, &c), 0x115); /* beyond the NVM capacity */
	nvme_build_ns_create(&c, buf, 600000, 0);
	assert_int_equal(send(d, &c), 0);
	assert_int_equal(c.nvme.result, 1);
	nvme_build_rw(&c, false, 1, 0, 1, buf, 512);
	assert_int_equal(send(d, &c), 0x0b); /* not attached: not active */
	nvme_build_ns_attach(&c, 1, true, info.nvme.cntlid, buf);
	assert_int_equal(send(d, &c), 0);
	nvme_build_ns_attach(&c, 1, true, info.nvme.cntlid, buf);
	assert_int_equal(send(d, &c), 0x118);
	assert_int_equal(drive_identify(d, &info, &err), 0);
	assert_int_equal(info.capacity_blocks, 600000);
	assert_int_equal(info.logical_block, 512);
	assert_int_equal(sim_drive_capacity(sim_rig_find(rig, "n")), 600000);

	/* a self-test: busy while it runs; aborted, logged so */
	nvme_build_selftest(&c, NVME_NSID_ALL_NS, NVME_ST_EXTENDED);
	assert_int_equal(send(d, &c), 0);
	nvme_build_selftest(&c, NVME_NSID_ALL_NS, NVME_ST_SHORT);
	assert_int_equal(send(d, &c), 0x11d);
	nvme_build_selftest(&c, NVME_NSID_ALL_NS, NVME_ST_ABORT);
	assert_int_equal(send(d, &c), 0);
	{
		struct selftest_entry e[4];
		size_t n;

		assert_int_equal(selftest_log(d, &info, e, 4, &n, &err), 0);
		assert_int_equal(n, 1);
		assert_int_equal(e[0].kind, SELFTEST_EXTENDED);
		assert_true(e[0].aborted);
	}

	/* without namespace management: refused as an invalid opcode */
	f = open_drive(rig, "f");
	assert_int_equal(drive_identify(f, &info, &err), 0);
	assert_false(info.nvme.ns_mgmt);
	assert_false(info.methods & METHOD_NVME_NS);
	assert_int_equal(info.native_blocks, 0);
	nvme_build_ns_delete(&c, 1);
	assert_int_equal(drive_nvme(f, &c, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "Namespace Management"));

	drive_free(d);
	drive_free(f);
	drive_free(s);
	sim_rig_free(rig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builders),
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_sim_nvme),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
