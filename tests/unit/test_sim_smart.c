/* test_sim_smart.c - the simulator's SMART, self-tests, log pages and
 * zones, driven through the real operations (smart_read, selftest_*,
 * zones_report, zones_geometry) so that both sides are checked together:
 * what the simulated drive answers and what the parsers make of it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/ata_smart.h"
#include "shortstroke/drive.h"
#include "shortstroke/sat.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sim.h"
#include "shortstroke/smart.h"
#include "shortstroke/zbc.h"
#include "shortstroke/zones.h"

#include "fixture.h"
#include "ops/smart_priv.h"

static const char rig_json[] =
    "{\n"
    "  \"time_scale\": 0,\n"
    "  \"drives\": [\n"
    "    {\"id\": \"sata0\", \"personality\": \"sata\", \"model\": \"SIM SATA SMART\",\n"
    "     \"serial\": \"SS0001\", \"firmware\": \"FW000001\", \"wwn\": \"5000c50012345678\",\n"
    "     \"blocks\": 2000000, \"smart\": {\"temperature\": 40, \"power_on_hours\": 1234,\n"
    "     \"crc_errors\": 1}},\n"
    "    {\"id\": \"sas0\", \"personality\": \"sas\", \"vendor\": \"SIMVEND\", \"model\": \"SIMSAS\",\n"
    "     \"serial\": \"SAS0001\", \"firmware\": \"S001\", \"wwn\": \"5000cca000000010\",\n"
    "     \"blocks\": 2000000, \"rpm\": 15000, \"smart\": {\"temperature\": 33,\n"
    "     \"power_on_hours\": 600}},\n"
    "    {\"id\": \"smr0\", \"personality\": \"sata\", \"model\": \"SIM SMR\", \"serial\": \"Z1\",\n"
    "     \"firmware\": \"Z0000001\", \"blocks\": 200000, \"zoned\": \"host-managed\",\n"
    "     \"zone_size_mb\": 1, \"conventional_zones\": 4, \"smart\": true},\n"
    "    {\"id\": \"zbc0\", \"personality\": \"sas\", \"vendor\": \"SIMVEND\", \"model\": \"SIMZBC\",\n"
    "     \"serial\": \"ZB1\", \"firmware\": \"Z001\", \"wwn\": \"5000cca000000020\",\n"
    "     \"blocks\": 100000, \"zoned\": \"host-managed\", \"zone_size_mb\": 1,\n"
    "     \"conventional_zones\": 2, \"smart\": true},\n"
    "    {\"id\": \"plain\", \"personality\": \"sata\", \"model\": \"NO SMART\", \"serial\": \"N1\",\n"
    "     \"firmware\": \"N0000001\", \"blocks\": 100000}\n"
    "  ]\n"
    "}\n";

struct fx {
	struct sim_rig *rig;
	char dir[64];
};

static struct ss_error err;

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || fixture_rig_load(rig_json, NULL, &f->rig)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sim_rig_free(f->rig);
	free(f);
	return 0;
}

/* A drive over the sim transport, identified like the CLI does */
static struct drive *open_drive(struct sim_rig *rig, const char *id, struct drive_info *info)
{
	struct sim_drive *sd = sim_rig_find(rig, id);
	struct transport *t = NULL;
	struct drive *d = NULL;

	assert_non_null(sd);
	assert_int_equal(transport_open_sim(sd, &t, &err), 0);
	assert_int_equal(drive_new(t, TRAN_UNKNOWN, &d, &err), 0);
	memset(info, 0, sizeof(*info));
	assert_int_equal(drive_identify(d, info, &err), 0);
	return d;
}

/* A progress sink that lets virtual time pass at every report */
struct clock_sink {
	struct sim_drive *d;
	uint64_t step_ns;
	unsigned reports;
	double last_fraction;
};

static void sink_report(void *arg, double fraction, const char *phase, double eta)
{
	struct clock_sink *c = arg;

	(void)phase;
	(void)eta;
	c->reports++;
	c->last_fraction = fraction;
	sim_drive_advance_clock(c->d, c->step_ns);
}

static bool sink_cancelled(void *arg)
{
	(void)arg;
	return false;
}

#define SEC 1000000000ULL

/* ---- ATA SMART ---- */

static const struct smart_attr *attr(const struct smart_report *r, uint8_t id)
{
	for (size_t i = 0; i < r->nattrs; i++)
		if (r->attrs[i].id == id)
			return &r->attrs[i];
	return NULL;
}

static void test_ata_smart_healthy(void **state)
{
	struct fx *f = *state;
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sata0", &info);
	struct smart_report r;

	assert_true(info.ata);
	assert_true(info.smart_supported && info.smart_enabled);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_true(r.ata);
	assert_int_equal(r.verdict, SMART_PASSED);
	assert_int_equal(r.ata_status, 1);
	assert_true(r.data.checksum_ok);
	assert_true(r.data.selftest_supported && r.data.conveyance_supported);
	assert_int_equal(r.data.short_minutes, 2);
	assert_true(r.data.extended_minutes >= 1);
	assert_int_equal(r.nattrs, 14);
	assert_true(r.temperature_c.known);
	assert_int_equal(r.temperature_c.value, 40);
	assert_int_equal(r.power_on_hours.value, 1234);
	assert_int_equal(r.reallocated.value, 0);
	assert_int_equal(r.pending.value, 0);
	assert_int_equal(r.crc_errors.value, 1);
	assert_non_null(attr(&r, 5));
	assert_int_equal(attr(&r, 5)->threshold, 36);
	assert_true(attr(&r, 5)->prefailure);
	assert_non_null(attr(&r, 194));
	assert_true(r.errlog_read);
	assert_int_equal(r.errlog.error_count, 0);
	assert_true(r.errlog.checksum_ok);
	assert_true(r.selftest_log_read);
	assert_int_equal(r.nselftests, 0);
	smart_report_fini(&r);
	drive_free(d);
}

static void test_ata_smart_faults(void **state)
{
	struct fx *f = *state;
	struct sim_drive *sd = sim_rig_find(f->rig, "sata0");
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sata0", &info);
	struct smart_report r;

	/* a few bad sectors: a warning */
	assert_int_equal(sim_drive_inject(sd, "smart-degrade:10:2", &err), 0);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_WARNING);
	assert_int_equal(r.reallocated.value, 10);
	assert_int_equal(r.pending.value, 2);
	assert_int_equal(r.ata_status, 1);
	assert_non_null(strstr(r.reason, "12 bad sectors"));
	smart_report_fini(&r);

	/* beyond the threshold: the drive's own status says so */
	sim_drive_clear_faults(sd);
	assert_int_equal(sim_drive_inject(sd, "smart-degrade:1280", &err), 0);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_int_equal(r.ata_status, 0);
	assert_int_equal(attr(&r, 5)->current, 36);
	smart_report_fini(&r);
	sim_drive_clear_faults(sd);
	assert_int_equal(sim_drive_inject(sd, "smart-degrade:1279", &err), 0);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.ata_status, 1);
	assert_int_equal(r.verdict, SMART_WARNING);
	smart_report_fini(&r);

	/* smart-fail: RETURN STATUS threshold exceeded */
	sim_drive_clear_faults(sd);
	assert_int_equal(sim_drive_inject(sd, "smart-fail", &err), 0);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_int_equal(r.ata_status, 0);
	assert_non_null(strstr(r.reason, "FAILING"));
	smart_report_fini(&r);

	/* no-smart: IDENTIFY says so, the commands abort */
	sim_drive_clear_faults(sd);
	assert_int_equal(sim_drive_inject(sd, "no-smart", &err), 0);
	drive_free(d);
	d = open_drive(f->rig, "sata0", &info);
	assert_false(info.smart_supported);
	assert_int_equal(smart_read(d, &info, &r, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "SMART is not supported"));
	/* ask anyway: a drive that claims SMART and aborts it fails, it is
	 * not "a drive without SMART" */
	info.smart_supported = info.smart_enabled = true;
	assert_int_equal(smart_read(d, &info, &r, &err), -EIO);
	assert_non_null(strstr(err.msg, "aborted SMART READ DATA"));
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), -EIO);
	sim_drive_clear_faults(sd);
	drive_free(d);

	/* a drive without SMART in the rig */
	d = open_drive(f->rig, "plain", &info);
	assert_false(info.smart_supported);
	assert_int_equal(smart_read(d, &info, &r, &err), -EOPNOTSUPP);
	drive_free(d);
}

/* Raw ATA: RETURN STATUS registers, a bad LBA mid/high, SMART disabled */
static void test_ata_smart_raw(void **state)
{
	struct fx *f = *state;
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sata0", &info);
	struct ata_regs regs;
	struct ata_tf tf;
	uint8_t buf[512];

	ata_tf_smart(&tf, 0xda, 0, 0);
	assert_int_equal(drive_ata(d, &tf, true, NULL, &regs, &err), 0);
	assert_int_equal(ata_smart_status_from_regs(&regs), 1);
	ata_tf_smart(&tf, 0xd0, 0, 1);
	tf.lba = 0; /* LBA mid/high not 4Fh/C2h */
	assert_int_equal(drive_ata(d, &tf, false, buf, NULL, &err), -EOPNOTSUPP);
	/* SMART DISABLE OPERATIONS: then only ENABLE answers */
	ata_tf_smart(&tf, 0xd9, 0, 0);
	assert_int_equal(drive_ata(d, &tf, false, NULL, NULL, &err), 0);
	ata_tf_smart(&tf, 0xd0, 0, 1);
	assert_int_equal(drive_ata(d, &tf, false, buf, NULL, &err), -EOPNOTSUPP);
	drive_free(d);
	d = open_drive(f->rig, "sata0", &info);
	assert_true(info.smart_supported);
	assert_false(info.smart_enabled);
	ata_tf_smart(&tf, 0xd8, 0, 0);
	assert_int_equal(drive_ata(d, &tf, false, NULL, NULL, &err), 0);
	ata_tf_smart(&tf, 0xd0, 0, 1);
	assert_int_equal(drive_ata(d, &tf, false, buf, NULL, &err), 0);
	/* the GPL directory lists the extended self-test log */
	ata_tf_read_log_ext(&tf, 0x00, 0, 1);
	assert_int_equal(drive_ata(d, &tf, false, buf, NULL, &err), 0);
	assert_int_equal(buf[0], 1);
	assert_int_equal(buf[2 * 7], 1);
	ata_tf_read_log_ext(&tf, 0x30, 0, 1); /* not emulated */
	assert_int_equal(drive_ata(d, &tf, false, buf, NULL, &err), -EOPNOTSUPP);
	drive_free(d);
}

/* ---- self-tests ---- */

static void test_selftest_ata(void **state)
{
	struct fx *f = *state;
	struct sim_drive *sd = sim_rig_find(f->rig, "sata0");
	struct clock_sink cs = { .d = sd, .step_ns = 30 * SEC };
	struct progress_sink sink = { sink_report, sink_cancelled, &cs };
	struct selftest_status st = { .kind = SELFTEST_SHORT };
	struct selftest_entry log[SELFTEST_LOG_MAX];
	struct smart_report r;
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sata0", &info);
	size_t n;

	/* short: two minutes of virtual time */
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), 0);
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), -EBUSY);
	sim_drive_advance_clock(sd, 60 * SEC);
	assert_int_equal(selftest_poll(d, &info, &st, &err), 0);
	assert_true(st.running);
	assert_true(st.fraction_valid);
	assert_true(st.fraction >= 0.4 && st.fraction <= 0.6);
	assert_int_equal(st.expected_s, 120);
	assert_int_equal(selftest_wait(d, &info, SELFTEST_SHORT, &sink, &err), 0);
	assert_true(cs.reports >= 2);
	assert_int_equal(selftest_log(d, &info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(log[0].kind, SELFTEST_SHORT);
	assert_true(log[0].passed);

	/* extended over a medium error: stops there, status 7, the LBA */
	assert_int_equal(sim_drive_inject(sd, "medium-error:1500000-1500009", &err), 0);
	cs.step_ns = 120 * SEC;
	assert_int_equal(selftest_start(d, &info, SELFTEST_EXTENDED, &err), 0);
	assert_int_equal(selftest_wait(d, &info, SELFTEST_EXTENDED, &sink, &err), -EIO);
	assert_non_null(strstr(err.msg, "first failing LBA 1500000"));
	assert_int_equal(selftest_log(d, &info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_true(log[0].failed);
	assert_int_equal(log[0].status, 7);
	assert_true(log[0].lba_valid);
	assert_int_equal(log[0].failing_lba, 1500000);
	assert_true(log[1].passed);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_non_null(strstr(r.reason, "at LBA 1500000"));
	assert_int_equal(r.data.selftest_byte >> 4, 7);
	smart_report_fini(&r);

	/* conveyance ignores the surface; selftest-fail fails any test */
	assert_int_equal(selftest_start(d, &info, SELFTEST_CONVEYANCE, &err), 0);
	assert_int_equal(selftest_wait(d, &info, SELFTEST_CONVEYANCE, &sink, &err), 0);
	sim_drive_clear_faults(sd);
	assert_int_equal(sim_drive_inject(sd, "selftest-fail:4242", &err), 0);
	assert_int_equal(selftest_start(d, &info, SELFTEST_CONVEYANCE, &err), 0);
	assert_int_equal(selftest_wait(d, &info, SELFTEST_CONVEYANCE, &sink, &err), -EIO);
	assert_non_null(strstr(err.msg, "4242"));
	sim_drive_clear_faults(sd);

	/* abort */
	assert_int_equal(selftest_start(d, &info, SELFTEST_EXTENDED, &err), 0);
	sim_drive_advance_clock(sd, 10 * SEC);
	assert_int_equal(selftest_abort(d, &info, &err), 0);
	memset(&st, 0, sizeof(st));
	assert_int_equal(selftest_poll(d, &info, &st, &err), 0);
	assert_false(st.running);
	assert_true(st.has_last && st.last.aborted);
	assert_int_equal(selftest_wait(d, &info, SELFTEST_EXTENDED, NULL, &err), -ECANCELED);

	/* a power cycle interrupts a running test */
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), 0);
	sim_drive_power_cycle(sd);
	assert_int_equal(selftest_log(d, &info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(log[0].status, 2);
	assert_true(log[0].aborted);
	drive_free(d);
}

static void test_selftest_scsi(void **state)
{
	struct fx *f = *state;
	struct sim_drive *sd = sim_rig_find(f->rig, "sas0");
	struct clock_sink cs = { .d = sd, .step_ns = 30 * SEC };
	struct progress_sink sink = { sink_report, sink_cancelled, &cs };
	struct selftest_status st = { 0 };
	struct selftest_entry log[SELFTEST_LOG_MAX];
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sas0", &info);
	size_t n;

	assert_false(info.ata);
	assert_true(info.smart_supported && info.smart_enabled); /* page 1Ch, DEXCPT clear */
	assert_int_equal(selftest_start(d, &info, SELFTEST_CONVEYANCE, &err), -EOPNOTSUPP);
	/* nothing to abort: the drive refuses */
	assert_int_equal(selftest_abort(d, &info, &err), -EOPNOTSUPP);
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), 0);
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), -EBUSY);
	sim_drive_advance_clock(sd, 30 * SEC);
	assert_int_equal(selftest_poll(d, &info, &st, &err), 0);
	assert_true(st.running);
	assert_int_equal(st.kind, SELFTEST_SHORT);
	assert_true(st.fraction_valid);
	assert_true(st.fraction > 0.2 && st.fraction < 0.3);
	assert_int_equal(st.expected_s, 120);
	assert_int_equal(selftest_wait(d, &info, SELFTEST_SHORT, &sink, &err), 0);
	assert_int_equal(selftest_log(d, &info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_true(log[0].passed);
	assert_int_equal(log[0].power_on_hours, 600);

	/* extended: the Control page says how long */
	memset(&st, 0, sizeof(st));
	assert_int_equal(selftest_start(d, &info, SELFTEST_EXTENDED, &err), 0);
	assert_int_equal(selftest_poll(d, &info, &st, &err), 0);
	assert_int_equal(st.kind, SELFTEST_EXTENDED);
	assert_true(st.expected_s >= 60 && st.expected_s % 60 == 0);
	assert_int_equal(selftest_abort(d, &info, &err), 0);

	/* a failing test, with its LBA and sense */
	assert_int_equal(sim_drive_inject(sd, "selftest-fail:777", &err), 0);
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), 0);
	assert_int_equal(selftest_wait(d, &info, SELFTEST_SHORT, &sink, &err), -EIO);
	assert_non_null(strstr(err.msg, "first failing LBA 777"));
	assert_int_equal(selftest_log(d, &info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_true(log[0].failed);
	assert_int_equal(log[0].failing_lba, 777);
	assert_int_equal(log[0].sense_key, 3);
	assert_int_equal(log[0].asc, 0x11);
	assert_true(log[1].aborted);
	sim_drive_clear_faults(sd);
	drive_free(d);
}

/* ---- SCSI log pages ---- */

static void test_scsi_pages(void **state)
{
	struct fx *f = *state;
	struct sim_drive *sd = sim_rig_find(f->rig, "sas0");
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sas0", &info);
	struct smart_report r;
	struct xcmd c;
	uint8_t buf[8 * 512];
	size_t got;

	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_false(r.ata);
	assert_int_equal(r.verdict, SMART_PASSED);
	assert_int_equal(r.scsi.supported.count, 10);
	assert_int_equal(r.scsi.read_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.write_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.verify_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.non_medium_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.start_stop_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.selftest_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.bg_scan_st, SMART_PAGE_OK);
	assert_int_equal(r.scsi.ie_st, SMART_PAGE_OK);
	assert_int_equal(r.temperature_c.value, 33);
	assert_int_equal(r.scsi.temp.reference_c, 60);
	assert_int_equal(r.power_on_hours.value, 600);
	assert_true(r.scsi.start_stop.has_cycles);
	assert_string_equal(r.scsi.start_stop.mfg_year, "2009");
	assert_true(r.scsi.ie.has && r.scsi.ie.asc == 0);
	smart_report_fini(&r);

	/* reads count; one into a medium error is an uncorrected read error */
	assert_int_equal(sim_drive_inject(sd, "medium-error:5000", &err), 0);
	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_read16(c.cdb, 4992, 16, false);
	c.dir = XFER_FROM_DEV;
	c.data = buf;
	c.data_len = 16 * 512;
	assert_int_equal(drive_scsi(d, &c, NULL, &err), -EIO);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_WARNING);
	assert_true(r.scsi.read_err.count[LOG_ERR_UNCORRECTED] == 1);
	assert_true(r.scsi.read_err.count[LOG_ERR_BYTES_PROCESSED] == 8 * 512);
	assert_int_equal(r.scsi.bg_scan.count, 1);
	assert_true(r.scsi.bg_scan.e[0].lba == 5000);
	smart_report_fini(&r);
	sim_drive_clear_faults(sd);

	/* informational exceptions */
	assert_int_equal(sim_drive_inject(sd, "smart-fail", &err), 0);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_int_equal(r.scsi.ie.asc, 0x5d);
	assert_int_equal(r.scsi.ie.ascq, 0x00);
	smart_report_fini(&r);
	sim_drive_clear_faults(sd);
	assert_int_equal(sim_drive_inject(sd, "smart-degrade:5000", &err), 0);
	assert_int_equal(smart_read(d, &info, &r, &err), 0);
	assert_int_equal(r.verdict, SMART_FAILED);
	assert_int_equal(r.scsi.ie.ascq, 0x14);
	smart_report_fini(&r);
	sim_drive_clear_faults(sd);

	/* an unsupported page: INVALID FIELD IN CDB */
	assert_int_equal(smart_scsi_log_sense(d, 0x18, buf, sizeof(buf), &got, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "0x18 is not supported"));
	/* the parameter pointer: from parameter 5 on */
	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_log_sense(c.cdb, false, 1, 0x03, 0, 5, 512);
	c.dir = XFER_FROM_DEV;
	c.data = buf;
	c.data_len = 512;
	assert_int_equal(drive_scsi(d, &c, NULL, &err), 0);
	assert_int_equal(buf[2] << 8 | buf[3], 2 * 12);
	assert_int_equal(buf[4] << 8 | buf[5], 5);

	/* no-smart: no LOG SENSE at all */
	assert_int_equal(sim_drive_inject(sd, "no-smart", &err), 0);
	assert_int_equal(smart_read(d, &info, &r, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "not supported"));
	sim_drive_clear_faults(sd);
	drive_free(d);
}

/* ---- defects: the grown defect list, reassigning, slow blocks ---- */

/* READ(16) or WRITE(16) of n blocks: the result, and its time in *ns */
static int rw16(struct drive *d, bool write, uint64_t lba, uint32_t n, struct scsi_sense *s,
		uint64_t *ns)
{
	static uint8_t buf[64 * 512];
	struct xcmd c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.cdb_len = write ? scsi_build_write16(c.cdb, lba, n, false)
			  : scsi_build_read16(c.cdb, lba, n, false);
	c.dir = write ? XFER_TO_DEV : XFER_FROM_DEV;
	c.data = buf;
	c.data_len = (size_t)n * 512;
	rc = drive_scsi(d, &c, s, &err);
	if (ns)
		*ns = c.duration_ns;
	return rc;
}

static int write16(struct drive *d, uint64_t lba, uint32_t n, struct scsi_sense *s)
{
	return rw16(d, true, lba, n, s, NULL);
}

static uint64_t read_ns(struct drive *d, uint64_t lba, uint32_t n, int *rc)
{
	uint64_t ns = 0;

	*rc = rw16(d, false, lba, n, NULL, &ns);
	return ns;
}

/* REASSIGN BLOCKS of one LBA */
static int reassign(struct drive *d, uint64_t lba, struct scsi_sense *s)
{
	uint8_t list[16];
	struct xcmd c;

	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_reassign_blocks(c.cdb);
	c.dir = XFER_TO_DEV;
	c.data = list;
	c.data_len = scsi_build_reassign_list(&lba, 1, list, sizeof(list));
	return drive_scsi(d, &c, s, &err);
}

static int64_t grown(struct drive *d, const struct drive_info *info, enum smart_verdict *v)
{
	struct smart_report r;
	int64_t n;

	assert_int_equal(smart_read(d, info, &r, &err), 0);
	assert_int_equal(r.scsi.defects_st, SMART_PAGE_OK);
	assert_true(r.scsi.defects.glist && r.scsi.defects.count_known);
	assert_true(r.reallocated.known);
	assert_int_equal(r.reallocated.value, (int64_t)r.scsi.defects.count);
	n = r.reallocated.value;
	if (v)
		*v = r.verdict;
	smart_report_fini(&r);
	return n;
}

static void test_scsi_defects(void **state)
{
	struct fx *f = *state;
	struct sim_drive *sd = sim_rig_find(f->rig, "sas0");
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sas0", &info);
	enum smart_verdict v;
	struct scsi_defect_list dl;
	struct scsi_sense sense;
	uint8_t buf[512];
	int64_t base;
	size_t got;
	unsigned n;
	int rc;

	sim_drive_clear_faults(sd);
	base = grown(d, &info, NULL);
	/* smart-degrade grows the list: a WARNING that names it */
	assert_int_equal(sim_drive_inject(sd, "smart-degrade:7", &err), 0);
	assert_int_equal(grown(d, &info, &v), base + 7);
	assert_int_equal(v, SMART_WARNING);
	sim_drive_clear_faults(sd);

	/* a slow block reads, late; an unreadable one fails */
	assert_int_equal(sim_drive_inject(sd, "slow-block:6000-6003:250", &err), 0);
	assert_int_equal(sim_drive_inject(sd, "medium-error:5000-5003", &err), 0);
	assert_true(read_ns(d, 6002, 1, &rc) >= 250000000ULL);
	assert_int_equal(rc, 0);
	assert_true(read_ns(d, 6100, 1, &rc) < 50000000ULL);
	read_ns(d, 5000, 8, &rc);
	assert_int_equal(rc, -EIO);
	/* writing them reassigns what the faults covered: 4 + 2 blocks */
	assert_int_equal(write16(d, 4998, 8, NULL), 0);
	assert_int_equal(write16(d, 6000, 2, NULL), 0);
	assert_int_equal(grown(d, &info, NULL), base + 6);
	read_ns(d, 5000, 8, &rc);
	assert_int_equal(rc, 0);
	assert_true(read_ns(d, 6000, 2, &rc) < 50000000ULL);
	assert_true(read_ns(d, 6002, 2, &rc) >= 250000000ULL); /* not written: still slow */
	/* a write of a good block reassigns nothing */
	assert_int_equal(write16(d, 100, 8, NULL), 0);
	assert_int_equal(grown(d, &info, NULL), base + 6);

	/* REASSIGN BLOCKS: any listed block, a good one too; one beyond the
	 * disk is refused and nothing is reassigned */
	memset(&sense, 0, sizeof(sense));
	assert_int_equal(reassign(d, 7000, NULL), 0);
	assert_int_equal(grown(d, &info, NULL), base + 7);
	assert_int_equal(reassign(d, 1ULL << 40, &sense), -ERANGE);
	assert_int_equal(sense.asc, 0x21);
	assert_int_equal(grown(d, &info, NULL), base + 7);

	/* READ DEFECT DATA (10), short block format: 4 bytes an entry; an
	 * unknown format comes back in bytes from index, recovered */
	{
		uint8_t cdb[12];

		n = scsi_build_read_defect10(cdb, false, true, SCSI_DEFECT_SHORT_BLOCK, 512);
		assert_int_equal(drive_scsi_in(d, cdb, n, buf, 512, &got, NULL, &err), 0);
		assert_int_equal(scsi_parse_defect_header(buf, got, false, &dl), 0);
		assert_int_equal(dl.format, SCSI_DEFECT_SHORT_BLOCK);
		assert_int_equal(dl.count, base + 7);
		assert_int_equal(got, 4 + 4 * (base + 7));
		n = scsi_build_read_defect12(cdb, false, true, SCSI_DEFECT_EXT_PHYS_SECTOR, 0, 8);
		assert_int_equal(drive_scsi_in(d, cdb, n, buf, 8, &got, &sense, &err), 0);
		assert_int_equal(sense.key, 0x01);
		assert_int_equal(sense.asc, 0x1c);
		assert_int_equal(scsi_parse_defect_header(buf, got, true, &dl), 0);
		assert_int_equal(dl.format, SCSI_DEFECT_BYTES_FROM_INDEX);
		assert_int_equal(dl.count, base + 7);
	}
	sim_drive_clear_faults(sd);
	drive_free(d);
}

/* ---- zones ---- */

static const struct zone_desc *zone_at(const struct zone_report *r, size_t i)
{
	assert_true(i < r->count);
	return &r->zones[i];
}

static void test_zones_zac(void **state)
{
	struct fx *f = *state;
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "smr0", &info);
	struct zone_report r;
	struct scsi_sense s;
	struct ata_tf tf;
	uint8_t buf[8 * 512];

	assert_int_equal(info.zoned, ZONED_HOST_MANAGED);
	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_true(r.zac);
	assert_int_equal(r.count, 98); /* 200000 blocks in 2048-block zones */
	assert_int_equal(r.summary.conventional, 4);
	assert_int_equal(r.summary.seq_required, 94);
	assert_int_equal(r.summary.empty, 94);
	assert_int_equal(r.summary.not_wp, 4);
	assert_true(r.max_lba == 199999);
	assert_int_equal(zone_at(&r, 97)->len, 200000 - 97 * 2048);
	assert_int_equal(r.same, 0);
	zone_report_fini(&r);

	/* writes: at the write pointer fine, elsewhere refused */
	assert_int_equal(write16(d, 5 * 2048, 8, &s), 0);
	assert_int_equal(write16(d, 5 * 2048 + 8, 8, &s), 0);
	assert_int_equal(write16(d, 5 * 2048, 8, &s), -ERANGE);
	assert_int_equal(s.asc, 0x21);
	assert_int_equal(s.ascq, 0x04); /* UNALIGNED WRITE COMMAND */
	assert_int_equal(write16(d, 6 * 2048 - 4, 8, &s), -ERANGE);
	assert_int_equal(s.ascq, 0x05);		     /* WRITE BOUNDARY VIOLATION */
	assert_int_equal(write16(d, 100, 8, &s), 0); /* conventional: anywhere */
	assert_int_equal(write16(d, 3 * 2048 - 4, 8, &s), 0);
	/* ATA WRITE DMA EXT off the write pointer: the device aborts */
	memset(&tf, 0, sizeof(tf));
	tf.command = ATA_WRITE_DMA_EXT;
	tf.proto = ATA_PROTO_DMA;
	tf.ext = true;
	tf.count = 8;
	tf.lba = 7 * 2048 + 16;
	tf.device = 0x40;
	tf.xfer_blocks = 8;
	tf.write = true;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(drive_ata(d, &tf, false, buf, NULL, &err), -EOPNOTSUPP);
	tf.lba = 7 * 2048;
	assert_int_equal(drive_ata(d, &tf, false, buf, NULL, &err), 0);
	/* fill zone 8 */
	for (unsigned i = 0; i < 2048 / 64; i++)
		assert_int_equal(write16(d, 8 * 2048 + i * 64, 64, &s), 0);

	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_int_equal(zone_at(&r, 5)->cond, ZONE_COND_IMP_OPEN);
	assert_true(zone_at(&r, 5)->wp == 5 * 2048 + 16);
	assert_int_equal(zone_at(&r, 7)->cond, ZONE_COND_IMP_OPEN);
	assert_true(zone_at(&r, 7)->wp == 7 * 2048 + 8);
	assert_int_equal(zone_at(&r, 8)->cond, ZONE_COND_FULL);
	assert_int_equal(r.summary.imp_open, 2);
	assert_int_equal(r.summary.full, 1);
	assert_int_equal(r.summary.empty, 91);
	assert_true(r.summary.written_blocks == 16 + 8 + 2048);
	zone_report_fini(&r);

	/* RESET WRITE POINTER (ZAC MANAGEMENT OUT) of zone 5, then of all */
	memset(&tf, 0, sizeof(tf));
	tf.command = 0x9f;
	tf.proto = ATA_PROTO_NON_DATA;
	tf.ext = true;
	tf.feature = 0x04;
	tf.lba = 5 * 2048;
	tf.device = 0x40;
	assert_int_equal(drive_ata(d, &tf, false, NULL, NULL, &err), 0);
	tf.lba = 5 * 2048 + 1; /* not a zone start */
	assert_int_equal(drive_ata(d, &tf, false, NULL, NULL, &err), -EOPNOTSUPP);
	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_int_equal(zone_at(&r, 5)->cond, ZONE_COND_EMPTY);
	assert_int_equal(r.summary.imp_open, 1);
	zone_report_fini(&r);
	tf.feature = 0x0104; /* ALL */
	tf.lba = 0;
	assert_int_equal(drive_ata(d, &tf, false, NULL, NULL, &err), 0);
	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_int_equal(r.summary.empty, 94);
	zone_report_fini(&r);

	/* the SATL translates ZBC IN too (big-endian, as libata) */
	drive_free(d);
}

static void test_zones_zbc(void **state)
{
	struct fx *f = *state;
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "zbc0", &info);
	struct zone_report r;
	struct scsi_sense s;
	struct xcmd c;
	uint8_t hdr[64 + 64];

	assert_false(info.ata);
	assert_int_equal(info.zoned, ZONED_HOST_MANAGED);
	assert_int_equal(write16(d, 2 * 2048, 32, &s), 0);
	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_false(r.zac);
	assert_int_equal(r.count, 49);
	assert_int_equal(r.summary.conventional, 2);
	assert_int_equal(zone_at(&r, 2)->cond, ZONE_COND_IMP_OPEN);
	assert_true(zone_at(&r, 2)->wp == 2 * 2048 + 32);
	zone_report_fini(&r);
	/* reporting option 02h (implicitly open) and PARTIAL */
	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_report_zones(c.cdb, 0, sizeof(hdr), 0x02, true);
	c.dir = XFER_FROM_DEV;
	c.data = hdr;
	c.data_len = sizeof(hdr);
	assert_int_equal(drive_scsi(d, &c, NULL, &err), 0);
	assert_int_equal(hdr[3], 64);
	assert_int_equal(hdr[64 + 1] >> 4, ZONE_COND_IMP_OPEN);
	/* ZBC OUT RESET WRITE POINTER, ALL */
	memset(&c, 0, sizeof(c));
	c.cdb[0] = 0x94;
	c.cdb[1] = 0x04;
	c.cdb[14] = 0x01;
	c.cdb_len = 16;
	c.dir = XFER_NONE;
	assert_int_equal(drive_scsi(d, &c, NULL, &err), 0);
	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_int_equal(r.summary.empty, 47);
	zone_report_fini(&r);
	drive_free(d);

	/* a conventional drive: a clear refusal */
	d = open_drive(f->rig, "sata0", &info);
	assert_int_equal(zones_report(d, &info, &r, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "not a zoned drive"));
	drive_free(d);
}

static void test_geometry_notches(void **state)
{
	struct fx *f = *state;
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sas0", &info);
	struct zone_geometry g, g2;

	/* not walked (a disk in use): the pages, no notch list */
	assert_int_equal(zones_geometry(d, &info, false, &g, &err), 0);
	assert_true(g.has_format && g.has_rigid && g.has_notch && g.notch.nd);
	assert_true(g.notches_skipped);
	assert_int_equal(g.nnotches, 0);
	assert_null(g.notches);
	zone_geometry_fini(&g);

	assert_int_equal(zones_geometry(d, &info, true, &g, &err), 0);
	assert_false(g.notches_skipped);
	assert_true(g.has_format && g.has_rigid && g.has_notch);
	assert_int_equal(g.rigid.rpm, 15000);
	assert_true(g.notch.nd && g.notch.lpn);
	assert_int_equal(g.notch.active_notch, 0);
	assert_true(g.nnotches >= 16 && g.nnotches <= 30);
	assert_int_equal(g.nnotches, g.notch.max_notches);
	assert_int_equal(g.notches[0].start, 0);
	assert_int_equal(g.notches[g.nnotches - 1].end, 2000000 - 1);
	for (size_t i = 0; i < g.nnotches; i++) {
		assert_true(g.notches[i].lba);
		assert_true(g.notches[i].end >= g.notches[i].start);
		assert_true(g.notches[i].has_format);
		if (i) {
			assert_int_equal(g.notches[i].start, g.notches[i - 1].end + 1);
			/* zone-bit recording: fewer sectors per track inwards,
			 * and less capacity per notch of equal stroke */
			assert_true(g.notches[i].sectors_per_track <
				    g.notches[i - 1].sectors_per_track);
			assert_true(g.notches[i].end - g.notches[i].start <=
				    g.notches[i - 1].end - g.notches[i - 1].start);
		}
	}
	/* the active notch was put back */
	assert_int_equal(zones_geometry(d, &info, true, &g2, &err), 0);
	assert_int_equal(g2.notch.active_notch, 0);
	zone_geometry_fini(&g);
	zone_geometry_fini(&g2);
	drive_free(d);

	/* an ATA disk behind the SATL: no geometry pages */
	d = open_drive(f->rig, "sata0", &info);
	assert_int_equal(zones_geometry(d, &info, true, &g, &err), -EOPNOTSUPP);
	drive_free(d);
}

/* ---- state ---- */

static void test_state_persists(void **state)
{
	char dir[256];
	struct sim_rig *rig = NULL;
	struct drive_info info;
	struct selftest_entry log[SELFTEST_LOG_MAX];
	struct zone_report r;
	struct scsi_sense s;
	struct drive *d;
	size_t n;

	(void)state;
	assert_int_equal(fixture_mkdtemp(dir, sizeof(dir)), 0);
	assert_int_equal(sim_rig_load_string(rig_json, "t.json", dir, &rig, &err), 0);
	d = open_drive(rig, "sata0", &info);
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), 0);
	sim_drive_advance_clock(sim_rig_find(rig, "sata0"), 200 * SEC);
	assert_int_equal(selftest_log(d, &info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(n, 1);
	drive_free(d);
	d = open_drive(rig, "smr0", &info);
	assert_int_equal(write16(d, 10 * 2048, 8, &s), 0);
	drive_free(d);
	d = open_drive(rig, "sas0", &info);
	assert_int_equal(selftest_start(d, &info, SELFTEST_EXTENDED, &err), 0);
	drive_free(d);
	sim_rig_free(rig);

	rig = NULL;
	assert_int_equal(sim_rig_load_string(rig_json, "t.json", dir, &rig, &err), 0);
	d = open_drive(rig, "sata0", &info);
	assert_int_equal(selftest_log(d, &info, log, SELFTEST_LOG_MAX, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_true(log[0].passed);
	drive_free(d);
	d = open_drive(rig, "smr0", &info);
	assert_int_equal(zones_report(d, &info, &r, &err), 0);
	assert_true(zone_at(&r, 10)->wp == 10 * 2048 + 8);
	zone_report_fini(&r);
	assert_int_equal(write16(d, 10 * 2048 + 8, 8, &s), 0);
	drive_free(d);
	d = open_drive(rig, "sas0", &info);
	{
		struct selftest_status st = { 0 };

		assert_int_equal(selftest_poll(d, &info, &st, &err), 0);
		assert_true(st.running);
		assert_int_equal(st.kind, SELFTEST_EXTENDED);
	}
	drive_free(d);
	sim_rig_free(rig);
	assert_int_equal(fixture_rmtree(dir), 0);
}

/* The self-tests a drive has, and why not the others: an ATA drive's SMART
 * data (all three, with the minutes it gives), SCSI (no conveyance), an ATA
 * drive without SMART (none, with the reason selftest_start gives). */
static void test_selftest_caps(void **state)
{
	struct fx *f = *state;
	struct selftest_caps c;
	struct drive_info info;
	struct drive *d = open_drive(f->rig, "sata0", &info);

	assert_int_equal(selftest_caps(d, &info, &c, &err), 0);
	assert_true(c.has[SELFTEST_SHORT] && c.has[SELFTEST_EXTENDED] &&
		    c.has[SELFTEST_CONVEYANCE]);
	assert_int_equal(c.minutes[SELFTEST_SHORT], 2);
	drive_free(d);
	d = open_drive(f->rig, "sas0", &info);
	assert_int_equal(selftest_caps(d, &info, &c, &err), 0);
	assert_true(c.has[SELFTEST_SHORT] && c.has[SELFTEST_EXTENDED]);
	assert_false(c.has[SELFTEST_CONVEYANCE]);
	assert_string_equal(c.why_not[SELFTEST_CONVEYANCE],
			    "sim:sas0: SCSI drives have no conveyance self-test (short or extended "
			    "only)");
	drive_free(d);
	d = open_drive(f->rig, "plain", &info);
	assert_int_equal(selftest_caps(d, &info, &c, &err), 0);
	assert_false(c.has[SELFTEST_SHORT] || c.has[SELFTEST_EXTENDED] ||
		     c.has[SELFTEST_CONVEYANCE]);
	assert_int_equal(selftest_start(d, &info, SELFTEST_SHORT, &err), -EOPNOTSUPP);
	assert_string_equal(c.why_not[SELFTEST_SHORT], err.msg);
	drive_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ata_smart_healthy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ata_smart_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ata_smart_raw, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selftest_ata, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selftest_scsi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scsi_defects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scsi_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zones_zac, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zones_zbc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_geometry_notches, setup, teardown),
		cmocka_unit_test(test_state_persists),
		cmocka_unit_test_setup_teardown(test_selftest_caps, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
