/* test_probe.c - probe_path on drives of the demo rig, with the simulator playing bridges
 * that drop the returned registers, drop MODE SELECT or reject an opcode; the method table
 * of the steps; the refusal limit's check gives. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/probe.h"
#include "shortstroke/sim.h"

struct rd {
	struct sim_rig *rig;
	struct sim_drive *sd;
	struct drive *d;
	struct drive_info i;
};

static void open_drive(const char *id, const char *fault, struct rd *r)
{
	struct ss_error err = { 0 };
	struct transport *t;

	memset(r, 0, sizeof(*r));
	assert_int_equal(sim_rig_demo(NULL, &r->rig, &err), 0);
	r->sd = sim_rig_find(r->rig, id);
	assert_non_null(r->sd);
	assert_int_equal(transport_open_sim(r->sd, &t, &err), 0);
	assert_int_equal(drive_new(t, TRAN_UNKNOWN, &r->d, &err), 0);
	assert_int_equal(drive_identify(r->d, &r->i, &err), 0);
	if (fault)
		assert_int_equal(sim_drive_inject(r->sd, fault, &err), 0);
}

static void close_drive(struct rd *r)
{
	drive_free(r->d);
	sim_rig_free(r->rig);
}

static void run(struct rd *r, struct probe_report *p)
{
	struct ss_error err = { 0 };

	assert_int_equal(probe_path(r->d, &r->i, PROBE_ALL_STEPS, p, &err), 0);
}

static void test_steps_for(void **state)
{
	unsigned ata = PROBE_STEP_BIT(PROBE_NATIVE_MAX) | PROBE_STEP_BIT(PROBE_IDENTIFY);
	unsigned scsi = PROBE_STEP_BIT(PROBE_MODE_SENSE) | PROBE_STEP_BIT(PROBE_MODE_SELECT);

	(void)state;
	assert_int_equal(probe_steps_for(METHOD_HPA), ata);
	assert_int_equal(probe_steps_for(METHOD_AMAC), ata);
	assert_int_equal(probe_steps_for(METHOD_DCO), ata);
	assert_int_equal(probe_steps_for(METHOD_SCSI_RESIZE), scsi);
	assert_int_equal(probe_steps_for(METHOD_SCSI_FORMAT), scsi);
	assert_int_equal(probe_steps_for(METHOD_PARTITION), 0);
	assert_string_equal(probe_step_name(PROBE_MODE_SELECT), "mode-select");
	assert_string_equal(probe_verdict_name(PROBE_UNSURE), "inconclusive");
}

static void test_clean_paths(void **state)
{
	struct probe_report p;
	struct rd r;

	(void)state;
	open_drive("sata250", NULL, &r);
	run(&r, &p);
	for (unsigned s = 0; s < PROBE_NSTEPS; s++)
		assert_int_equal(p.verdict[s], PROBE_PASSED);
	assert_int_equal(p.carries, r.i.methods);
	assert_int_equal(p.blocked, 0);
	assert_non_null(strstr(p.detail[PROBE_NATIVE_MAX], "488397168 blocks"));
	close_drive(&r);

	open_drive("sas15k", NULL, &r);
	run(&r, &p);
	assert_int_equal(p.verdict[PROBE_NATIVE_MAX], PROBE_NOT_RUN);
	assert_int_equal(p.verdict[PROBE_IDENTIFY], PROBE_NOT_RUN);
	assert_int_equal(p.verdict[PROBE_MODE_SELECT], PROBE_PASSED);
	assert_int_equal(p.carries, METHOD_SCSI_RESIZE | METHOD_SCSI_FORMAT | METHOD_PARTITION);
	close_drive(&r);

	/* an HPA set: the native max above the capacity is no mangling */
	open_drive("sata-hpa", NULL, &r);
	run(&r, &p);
	assert_int_equal(p.verdict[PROBE_NATIVE_MAX], PROBE_PASSED);
	close_drive(&r);
}

static void test_drop_registers(void **state)
{
	struct ss_error err = { 0 };
	struct probe_report p;
	struct rd r;

	(void)state;
	open_drive("sata250", "drop-registers", &r);
	run(&r, &p);
	assert_int_equal(p.verdict[PROBE_NATIVE_MAX], PROBE_FAILED);
	assert_int_equal(p.verdict[PROBE_IDENTIFY], PROBE_PASSED); /* data in still passes */
	assert_true(p.blocked & METHOD_HPA);
	assert_true(p.blocked & METHOD_DCO);
	assert_int_equal(p.carries, METHOD_PARTITION);
	assert_int_equal(probe_method_check(&p, METHOD_HPA, "sim:sata250", &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "cannot carry the hpa method"));
	assert_non_null(strstr(err.msg, "--method partition"));
	assert_int_equal(probe_method_check(&p, METHOD_PARTITION, "sim:sata250", &err), 0);
	close_drive(&r);
}

static void test_mode_select_paths(void **state)
{
	struct ss_error err = { 0 };
	struct probe_report p;
	struct rd r;

	(void)state;
	open_drive("sas15k", "drop-mode-select", &r);
	run(&r, &p);
	assert_int_equal(p.verdict[PROBE_MODE_SENSE], PROBE_PASSED);
	assert_int_equal(p.verdict[PROBE_MODE_SELECT], PROBE_FAILED);
	assert_non_null(strstr(p.detail[PROBE_MODE_SELECT], "drops MODE SELECT"));
	assert_int_equal(p.blocked, METHOD_SCSI_RESIZE | METHOD_SCSI_FORMAT);
	assert_int_equal(probe_method_check(&p, METHOD_SCSI_RESIZE, "sim:sas15k", &err),
			 -EOPNOTSUPP);
	close_drive(&r);

	open_drive("sas15k", "reject:55", &r);
	run(&r, &p);
	assert_int_equal(p.verdict[PROBE_MODE_SELECT], PROBE_FAILED);
	close_drive(&r);

	open_drive("sas15k", "reject:5a", &r);
	run(&r, &p);
	assert_int_equal(p.verdict[PROBE_MODE_SENSE], PROBE_FAILED);
	assert_int_equal(p.verdict[PROBE_MODE_SELECT], PROBE_NOT_RUN);
	assert_int_equal(p.blocked, METHOD_SCSI_RESIZE | METHOD_SCSI_FORMAT);
	close_drive(&r);

	/* aborted by the drive: nothing said of the path */
	open_drive("sas15k", "abort:55", &r);
	run(&r, &p);
	assert_int_equal(p.verdict[PROBE_MODE_SELECT], PROBE_UNSURE);
	assert_int_equal(p.blocked, 0);
	assert_int_equal(p.carries, METHOD_PARTITION);
	assert_int_equal(probe_method_check(&p, METHOD_SCSI_RESIZE, "sim:sas15k", &err), 0);
	close_drive(&r);
}

static void test_gone(void **state)
{
	struct ss_error err = { 0 };
	struct probe_report p;
	struct rd r;

	(void)state;
	open_drive("sas15k", "vanish-after:0", &r);
	assert_int_equal(probe_path(r.d, &r.i, PROBE_ALL_STEPS, &p, &err), -ENODEV);
	close_drive(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps_for),      cmocka_unit_test(test_clean_paths),
		cmocka_unit_test(test_drop_registers), cmocka_unit_test(test_mode_select_paths),
		cmocka_unit_test(test_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
