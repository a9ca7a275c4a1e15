/*
 * test_sim_flash.c - the simulator's flash drive (src/sim/sim_flash.c,
 * docs/flash.md): greedy garbage collection's write amplification against
 * the analytic model, TRIM through ATA DATA SET MANAGEMENT and UNMAP / WRITE
 * SAME (16) with UNMAP, what IDENTIFY and the VPD pages say, and the spare a
 * TRIM gives persisting in the state directory.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "raidplan.h"
#include "shortstroke/ata.h"
#include "shortstroke/drive.h"
#include "shortstroke/sat.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sim.h"

/* 1 GiB of 512-byte blocks: 262,144 pages of 4 KiB, the FTL at full scale */
#define SSD(id, pers, extra)                                                                       \
	"{\"id\": \"" id "\", \"personality\": \"" pers                                            \
	"\", \"vendor\": \"V\", \"model\": \"M\", "                                                \
	"\"serial\": \"SN-" id "\", \"firmware\": \"F001\", \"wwn\": \"5000c50000000001\", "       \
	"\"blocks\": 2097152, \"flash\": {" extra "}}"

static struct sim_rig *load(const char *drives, const char *state)
{
	char json[2048];
	struct sim_rig *rig = NULL;

	snprintf(json, sizeof(json), "{\"time_scale\": 0, \"drives\": [%s]}", drives);
	assert_int_equal(fixture_rig_load(json, state, &rig), 0);
	return rig;
}

static int cmd(struct sim_drive *d, const uint8_t *cdb, unsigned len, enum xfer_dir dir, void *buf,
	       size_t n, struct xcmd *c)
{
	struct ss_error err = { 0 };

	fixture_xcmd(c, cdb, len, dir, buf, n);
	return sim_drive_exec(d, c, &err);
}

static uint64_t rnd_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* n random 4 KiB writes over the first pages 4 KiB pages: their total time */
static uint64_t random_writes(struct sim_drive *d, uint64_t pages, unsigned n)
{
	static uint8_t buf[4096];
	uint64_t t = 0;
	uint8_t cdb[16];
	struct xcmd c;

	for (unsigned i = 0; i < n; i++) {
		scsi_build_write16(cdb, (rnd() % pages) * 8, 8, false);
		assert_int_equal(cmd(d, cdb, 16, XFER_TO_DEV, buf, sizeof(buf), &c), 0);
		assert_int_equal(c.status, 0);
		t += c.duration_ns;
	}
	return t;
}

static void unmap_tail(struct sim_drive *d, uint64_t from, uint64_t to)
{
	uint8_t cdb[16];
	struct xcmd c;

	scsi_build_write_same16(cdb, from, (uint32_t)(to - from), true, true);
	assert_int_equal(cmd(d, cdb, 16, XFER_NONE, NULL, 0, &c), 0);
	assert_int_equal(c.status, 0);
}

/* Greedy GC under uniform random writes: its write amplification at the
 * spare the drive has, and the IOPS that follow, within a few percent of
 * the analytic model (docs/flash.md) and falling as the spare shrinks */
static void test_write_amplification(void **state)
{
	static const double keep[] = { 1.0, 0.93, 0.72, 0.5 };
	double last_wa = 1e9;

	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		struct sim_rig *rig = load(SSD("f", "sas", ""), NULL);
		struct sim_drive *d = sim_rig_find(rig, "f");
		uint64_t pages = (uint64_t)(262144 * keep[k]);
		struct sim_flash_stats st;
		double wa, model;

		if (keep[k] < 1)
			unmap_tail(d, pages * 8, 2097152);
		/* to the steady state of the new spare, then measured */
		random_writes(d, pages, (unsigned)(2 * pages));
		sim_drive_flash_stats_reset(d);
		random_writes(d, pages, 100000);
		assert_int_equal(sim_drive_flash_stats(d, &st), 0);
		assert_int_equal(st.host_pages, 100000);
		wa = (double)st.programs / (double)st.host_pages;
		model = rp_flash_write_amp(st.spare);
		printf("keep %.2f: spare %.3f, WA %.3f (model %.3f)\n", keep[k], st.spare, wa,
		       model);
		assert_true(fabs(wa / model - 1) < 0.05);
		assert_true(wa < last_wa);
		last_wa = wa;
		sim_rig_free(rig);
	}
}

/* TRIM through SAT: the range reads zeros, the pages are unmapped; IDENTIFY
 * says TRIM and deterministic zeros; a disk without flash aborts it */
static void test_ata_trim(void **state)
{
	struct sim_rig *rig = load(SSD("t", "sata", "\"state\": \"used\""), NULL);
	struct sim_drive *d = sim_rig_find(rig, "t");
	uint8_t cdb[16], buf[4096], ranges[512], id[512];
	struct sim_flash_stats st;
	struct ata_identify ai;
	struct ata_tf tf;
	struct xcmd c;

	(void)state;
	ata_tf_identify(&tf);
	sat_build_ata_pt16(cdb, &tf, false);
	assert_int_equal(cmd(d, cdb, 16, XFER_FROM_DEV, id, 512, &c), 0);
	assert_int_equal(ata_parse_identify(id, 512, &ai), 0);
	assert_true(ai.trim && ai.trim_drat && ai.trim_rzat);
	assert_int_equal(ai.rotation_rate, 1);
	memset(buf, 0xa5, sizeof(buf));
	scsi_build_write16(cdb, 1000, 8, false);
	assert_int_equal(cmd(d, cdb, 16, XFER_TO_DEV, buf, sizeof(buf), &c), 0);
	assert_int_equal(sim_drive_flash_stats(d, &st), 0);
	assert_int_equal(st.mapped, 262144);
	/* 1 MiB from LBA 0 (two entries: ata_dsm_trim_ranges splits at 65535) */
	assert_int_equal(ata_dsm_trim_ranges(ranges, 512, 0, 2048), 2048);
	ata_tf_dsm_trim(&tf, 1);
	sat_build_ata_pt16(cdb, &tf, false);
	assert_int_equal(cmd(d, cdb, 16, XFER_TO_DEV, ranges, 512, &c), 0);
	assert_int_equal(c.status, 0);
	assert_int_equal(sim_drive_flash_stats(d, &st), 0);
	assert_int_equal(st.mapped, 262144 - 256);
	scsi_build_read16(cdb, 1000, 8, false);
	assert_int_equal(cmd(d, cdb, 16, XFER_FROM_DEV, buf, sizeof(buf), &c), 0);
	for (unsigned i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	/* beyond the capacity: IDNF */
	assert_int_equal(ata_dsm_trim_ranges(ranges, 512, 2097150, 8), 8);
	assert_int_equal(
	    cmd(d, cdb, sat_build_ata_pt16(cdb, &tf, false), XFER_TO_DEV, ranges, 512, &c), 0);
	assert_int_not_equal(c.status, 0);
	sim_rig_free(rig);

	/* a disk: no TRIM in IDENTIFY, the command aborted */
	rig = load("{\"id\": \"h\", \"personality\": \"sata\", \"model\": \"M\", \"serial\": "
		   "\"S\", \"firmware\": \"F\", \"blocks\": 2097152}",
		   NULL);
	d = sim_rig_find(rig, "h");
	ata_tf_identify(&tf);
	sat_build_ata_pt16(cdb, &tf, false);
	assert_int_equal(cmd(d, cdb, 16, XFER_FROM_DEV, id, 512, &c), 0);
	assert_int_equal(ata_parse_identify(id, 512, &ai), 0);
	assert_false(ai.trim);
	ata_dsm_trim_ranges(ranges, 512, 0, 8);
	ata_tf_dsm_trim(&tf, 1);
	assert_int_equal(
	    cmd(d, cdb, sat_build_ata_pt16(cdb, &tf, false), XFER_TO_DEV, ranges, 512, &c), 0);
	assert_int_not_equal(c.status, 0);
	sim_rig_free(rig);
}

/* SAS: VPD B0h / B2h and READ CAPACITY (16) as SBC-4 lays them out; UNMAP
 * frees pages; a drive that does not say what unmapped blocks read */
static void test_scsi_unmap(void **state)
{
	struct sim_rig *rig = load(
	    SSD("u", "sas", "\"trim\": \"rzat\"") "," SSD("n", "sas",
							  "\"trim\": "
							  "\"nondeterministic\""),
	    NULL);
	struct sim_drive *d = sim_rig_find(rig, "u");
	uint8_t cdb[16], buf[64], param[24];
	struct scsi_block_limits bl;
	struct scsi_capacity cap;
	struct sim_flash_stats st;
	struct scsi_lbp lbp;
	struct xcmd c;

	(void)state;
	scsi_build_inquiry(cdb, true, 0xb2, 64);
	assert_int_equal(cmd(d, cdb, 6, XFER_FROM_DEV, buf, 64, &c), 0);
	assert_int_equal(scsi_parse_vpd_lbp(buf, 64, &lbp), 0);
	assert_true(lbp.lbpu && lbp.lbpws);
	assert_int_equal(lbp.lbprz, 1);
	scsi_build_inquiry(cdb, true, 0xb0, 64);
	assert_int_equal(cmd(d, cdb, 6, XFER_FROM_DEV, buf, 64, &c), 0);
	assert_int_equal(scsi_parse_vpd_block_limits(buf, 64, &bl), 0);
	assert_true(bl.max_unmap_lba > 0 && bl.max_unmap_descs > 0);
	assert_int_equal(bl.unmap_granularity, 8);
	scsi_build_read_capacity16(cdb, 32);
	assert_int_equal(cmd(d, cdb, 16, XFER_FROM_DEV, buf, 32, &c), 0);
	assert_int_equal(scsi_parse_read_capacity16(buf, 32, &cap), 0);
	assert_true(cap.lbpme && cap.lbprz);
	scsi_build_unmap(cdb, 24);
	scsi_build_unmap_param(param, 8192, 8192);
	assert_int_equal(cmd(d, cdb, 10, XFER_TO_DEV, param, 24, &c), 0);
	assert_int_equal(c.status, 0);
	assert_int_equal(sim_drive_flash_stats(d, &st), 0);
	assert_int_equal(st.mapped, 262144 - 1024);

	d = sim_rig_find(rig, "n");
	scsi_build_inquiry(cdb, true, 0xb2, 64);
	assert_int_equal(cmd(d, cdb, 6, XFER_FROM_DEV, buf, 64, &c), 0);
	assert_int_equal(scsi_parse_vpd_lbp(buf, 64, &lbp), 0);
	assert_true(lbp.lbpu);
	assert_int_equal(lbp.lbprz, 0);
	sim_rig_free(rig);
}

/* What a TRIM freed stays free in the next process; a drive "new" from the
 * factory maps nothing */
static void test_persist(void **state)
{
	struct sim_flash_stats st;
	struct sim_rig *rig;

	rig = load(SSD("p", "sas", ""), fixture_dir);
	unmap_tail(sim_rig_find(rig, "p"), 1048576, 2097152);
	sim_rig_free(rig);
	rig = load(SSD("p", "sas", ""), fixture_dir);
	assert_int_equal(sim_drive_flash_stats(sim_rig_find(rig, "p"), &st), 0);
	assert_int_equal(st.mapped, 131072);
	sim_rig_free(rig);
	/* ranges unmapped before the FTL is built merge: two apart, then the
	 * one between them */
	rig = load(SSD("m", "sas", ""), NULL);
	unmap_tail(sim_rig_find(rig, "m"), 0, 8192);
	unmap_tail(sim_rig_find(rig, "m"), 16384, 24576);
	unmap_tail(sim_rig_find(rig, "m"), 8192, 16384);
	unmap_tail(sim_rig_find(rig, "m"), 4096, 12288);
	assert_int_equal(sim_drive_flash_stats(sim_rig_find(rig, "m"), &st), 0);
	assert_int_equal(st.mapped, 262144 - 3072);
	sim_rig_free(rig);
	rig = load(SSD("q", "sas", "\"state\": \"new\""), NULL);
	assert_int_equal(sim_drive_flash_stats(sim_rig_find(rig, "q"), &st), 0);
	assert_int_equal(st.mapped, 0);
	(void)state;
	sim_rig_free(rig);
}

/* libraidplan's flash members: a layout's stroke is the share used, the
 * rest spare; RAID 0 of two sustains twice one drive's random writes, a
 * mirror as much as one (each write goes to both), and less spare costs
 * IOPS; flash drives and disks are not planned together */
static double plan_rw(int level, unsigned n, double stroke, const struct rp_flash *f, bool mixed)
{
	struct rp_disk d[4];
	struct rp_layout l;
	struct rp_workload w;
	struct rp_error err;
	struct rp_eval *ev = NULL;
	double v;

	for (unsigned i = 0; i < n; i++) {
		rp_disk_init(&d[i]);
		d[i].capacity = 256060514304ULL;
		d[i].flash = mixed && i ? NULL : f;
	}
	rp_layout_init(&l);
	l.level = level;
	l.n_disks = n;
	l.stroke = stroke;
	rp_workload_init(&w);
	assert_int_equal(rp_workload_profile(RP_PROFILE_RANDOM_ACCESS, 32, &w, NULL), 0);
	if (rp_evaluate(d, n, NULL, &l, &w, &ev, &err)) {
		assert_true(mixed);
		assert_non_null(strstr(err.msg, "mixes flash drives and disks"));
		return NAN;
	}
	v = rp_eval_value(ev, RP_FIG_RAND_WRITE_QD);
	rp_eval_free(ev);
	return v;
}

static void test_planner_members(void **state)
{
	static const double strokes[] = { 1.0, 0.93, 0.72, 0.5 };
	struct rp_flash f;
	double last = 0;

	(void)state;
	rp_flash_init(&f);
	for (unsigned k = 0; k < 4; k++) {
		double one, r0 = plan_rw(RP_LEVEL_0, 2, strokes[k], &f, false);
		double r1 = plan_rw(RP_LEVEL_1, 2, strokes[k], &f, false);

		assert_int_equal(rp_flash_random_write_iops(&f, strokes[k], 4096, &one, NULL), 0);
		printf("stroke %.2f: one %.0f, RAID 0 x2 %.0f, RAID 1 x2 %.0f\n", strokes[k], one,
		       r0, r1);
		assert_true(fabs(r0 / (2 * one) - 1) < 0.05);
		assert_true(fabs(r1 / one - 1) < 0.05);
		assert_true(r0 > last);
		last = r0;
	}
	assert_true(isnan(plan_rw(RP_LEVEL_0, 2, 1.0, &f, true)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planner_members),
		cmocka_unit_test(test_write_amplification),
		cmocka_unit_test(test_ata_trim),
		cmocka_unit_test(test_scsi_unmap),
		cmocka_unit_test_setup_teardown(test_persist, fixture_dir_setup,
						fixture_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
