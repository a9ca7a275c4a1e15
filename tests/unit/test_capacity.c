/* test_capacity.c - capacity operations on drives of the in-memory demo rig:
 * zone boundaries on SMR disks (cap_plan_zones, and cap_limit's guard for a
 * plan that was not rounded), restore planning with nothing journaled, and
 * the table of limit methods (every entry whole, auto's pick in order). */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/capacity.h"
#include "shortstroke/sim.h"

struct rigdrive {
	struct sim_rig *rig;
	struct drive *d;
	struct dev_entry e;
	char dir[64];
};

static void open_drive(const char *id, struct rigdrive *r)
{
	struct ss_error err = { 0 };
	struct transport *t;
	struct sim_drive *sd;

	memset(r, 0, sizeof(*r));
	assert_int_equal(sim_rig_demo(NULL, &r->rig, &err), 0);
	sd = sim_rig_find(r->rig, id);
	assert_non_null(sd);
	assert_int_equal(transport_open_sim(sd, &t, &err), 0);
	assert_int_equal(drive_new(t, TRAN_UNKNOWN, &r->d, &err), 0);
	snprintf(r->e.spec, sizeof(r->e.spec), "sim:%s", id);
	r->e.sim = true;
	assert_int_equal(drive_identify(r->d, &r->e.info, &err), 0);
	snprintf(r->dir, sizeof(r->dir), "/tmp/test_capacity.XXXXXX");
	assert_non_null(mkdtemp(r->dir));
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void close_drive(struct rigdrive *r)
{
	drive_free(r->d);
	sim_rig_free(r->rig);
	nftw(r->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static uint64_t blocks_now(struct rigdrive *r)
{
	struct ss_error err = { 0 };
	struct drive_info i;

	assert_int_equal(drive_identify(r->d, &i, &err), 0);
	return i.capacity_blocks;
}

static void plan_percent(struct rigdrive *r, double pct, struct cap_plan *p)
{
	struct cap_request req = { .method = CAP_AUTO, .by = CAP_BY_PERCENT, .percent = pct };
	struct ss_error err = { 0 };

	assert_int_equal(cap_plan_limit(&r->e.info, NULL, &req, p, &err), 0);
}

/* Plan pct % of drive id and round it with cap_plan_zones; the target
 * before rounding goes into *before. */
static void plan_rounded(const char *id, double pct, struct rigdrive *r, struct cap_plan *p,
			 uint64_t *before)
{
	struct ss_error err = { 0 };

	open_drive(id, r);
	plan_percent(r, pct, p);
	*before = p->target;
	assert_int_equal(cap_plan_zones(r->d, &r->e.info, p, &err), 0);
}

static void test_zones_rounded(void **state)
{
	struct rigdrive r;
	struct cap_plan p;
	uint64_t before;

	(void)state;
	plan_rounded("smr", 30, &r, &p, &before);
	assert_int_equal(r.e.info.zoned, ZONED_HOST_MANAGED);
	assert_true(p.target < before);
	assert_int_equal(p.target % 65536, 0); /* 256 MiB zones of 4 KiB blocks */
	assert_true(before - p.target < 65536);
	assert_non_null(strstr(p.note, "rounded down to a zone boundary"));
	close_drive(&r);
}

static void test_zone_guard(void **state)
{
	struct ss_error err = { 0 };
	struct cap_result res;
	struct rigdrive r;
	struct cap_plan p;
	struct cap_ctx c;
	uint64_t native;

	(void)state;
	open_drive("smr", &r);
	native = blocks_now(&r);
	plan_percent(&r, 30, &p); /* not rounded, as a front end might forget */
	c = (struct cap_ctx){ .d = r.d, .e = &r.e, .state_dir = r.dir };
	assert_int_equal(cap_limit(&c, &p, &res, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not on a zone boundary"));
	assert_int_equal(blocks_now(&r), native);
	assert_int_equal(cap_plan_zones(r.d, &r.e.info, &p, &err), 0);
	assert_int_equal(cap_limit(&c, &p, &res, &err), 0);
	assert_int_equal(blocks_now(&r), p.target);
	close_drive(&r);
}

static void test_not_zoned(void **state)
{
	struct rigdrive r;
	struct cap_plan p;
	uint64_t before;

	(void)state;
	plan_rounded("sas15k", 30, &r, &p, &before);
	assert_int_equal(p.target, before);
	close_drive(&r);
}

static void test_restore_unjournaled(void **state)
{
	struct ss_error err = { 0 };
	struct cap_plan p;
	struct rigdrive r;
	struct cap_ctx c;

	(void)state;
	open_drive("sata-hpa", &r);
	c = (struct cap_ctx){ .d = r.d, .e = &r.e, .state_dir = r.dir };
	assert_int_equal(cap_plan_restore(&c, CAP_AUTO, false, &p, &err), -EPERM);
	assert_non_null(strstr(err.msg, "nothing journaled"));
	assert_non_null(strstr(err.msg, "488386584 blocks (250 GB)"));
	assert_non_null(strstr(err.msg, "976773168 blocks (500 GB)"));
	c.to_native = true;
	assert_int_equal(cap_plan_restore(&c, CAP_AUTO, false, &p, &err), 0);
	assert_int_equal(p.target, 976773168);
	assert_non_null(strstr(p.note, "the native maximum"));
	assert_int_equal(p.method, CAP_HPA);
	close_drive(&r);
}

/* Every method of the table is whole, and found by its id and its name. */
static void test_method_table(void **state)
{
	const struct cap_method_ops *o;
	enum cap_method m;
	size_t k;

	(void)state;
	for (k = 0; (o = cap_method_at(k)); k++) {
		assert_non_null(o->name);
		assert_true(o->name[0] != '\0');
		/* the warnings name its command; --list-methods says what it is */
		assert_non_null(o->command);
		assert_non_null(o->help);
		assert_true(o->help[0] != '\0' && !strchr(o->help, '\n'));
		assert_int_equal(cap_flags(o->id), o->flags);
		assert_non_null(o->set);
		assert_non_null(o->restore);
		assert_true(o->need != 0);
		assert_ptr_equal(cap_method_get(o->id), o);
		assert_string_equal(cap_method_name(o->id), o->name);
		assert_int_equal(cap_method_parse(o->name, &m), 0);
		assert_int_equal(m, o->id);
		assert_int_equal(cap_method_flags(o->name), o->flags);
		for (size_t j = 0; j < k; j++) {
			assert_true(cap_method_at(j)->id != o->id);
			assert_true(cap_method_at(j)->need != o->need);
		}
		/* auto takes a method of the drive's own command set */
		if (o->flags & CAPM_AUTO)
			assert_true(!!(o->flags & CAPM_ATA) != !!(o->flags & CAPM_SCSI));
	}
	/* every value of the enum but CAP_AUTO, each once */
	for (m = CAP_AUTO + 1; cap_method_get(m); m++)
		;
	assert_int_equal((size_t)m - 1, k);
	assert_true(k >= CAP_PARTITION);
	assert_null(cap_method_get(CAP_AUTO));
	assert_string_equal(cap_method_name(CAP_AUTO), "auto");
	assert_int_equal(cap_method_parse("auto", &m), 0);
	assert_int_equal(m, CAP_AUTO);
	assert_int_equal(cap_method_parse("gpt", &m), -EINVAL);
	assert_int_equal(cap_method_flags("gpt"), 0);
	assert_true(cap_method_flags("partition") & CAPM_KEEPS_SIZE);
	assert_true(cap_method_flags("scsi-format") & CAPM_DESTROYS);
	assert_true(cap_method_flags("hpa") & CAPM_VOLATILE);
	assert_false(cap_method_flags("amac") & CAPM_VOLATILE);
}

/* The list an unknown --method is answered with (limit, restore; apply
 * leaves out what keeps the size). */
static void test_method_names(void **state)
{
	char buf[128], small[12];

	(void)state;
	cap_method_names(buf, sizeof(buf), 0);
	assert_string_equal(buf,
			    "auto, amac, hpa, dco, scsi-resize, scsi-format, nvme-ns, partition");
	cap_method_names(buf, sizeof(buf), CAPM_KEEPS_SIZE);
	assert_string_equal(buf, "auto, amac, hpa, dco, scsi-resize, scsi-format, nvme-ns");
	cap_method_names(buf, sizeof(buf), CAPM_ATA | CAPM_NVME | CAPM_KEEPS_SIZE);
	assert_string_equal(buf, "auto, scsi-resize, scsi-format");
	cap_method_names(small, sizeof(small), 0); /* cut, still a string */
	assert_string_equal(small, "auto, amac,");
	cap_method_list(buf, sizeof(buf), CAPM_AUTO, 0, ", else ");
	assert_string_equal(buf, "amac, else hpa, else scsi-resize");
	cap_method_list(buf, sizeof(buf), 0, CAPM_AUTO | CAPM_SCSI | CAPM_NVME | CAPM_PROBE_UNDO,
			" or ");
	assert_string_equal(buf, "dco or partition");
	cap_method_list(buf, sizeof(buf), CAPM_ACCESSIBLE | CAPM_SETS_NATIVE, 0, ", ");
	assert_string_equal(buf, "");
	cap_methods_text(METHOD_HPA | METHOD_PARTITION | METHOD_AMAC, buf, sizeof(buf));
	assert_string_equal(buf, "amac,hpa,partition");
	cap_methods_text(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* What the front ends say about a change comes from the method's flags:
 * the same sentence in the CLI's prompt and the TUI's dialog. */
static void test_warnings(void **state)
{
	char buf[256];

	(void)state;
	cap_change_warning(CAP_SCSI_FORMAT, false, buf, sizeof(buf));
	assert_string_equal(buf, "FORMAT UNIT destroys every byte on the drive.");
	cap_change_warning(CAP_SCSI_FORMAT, true, buf, sizeof(buf));
	assert_string_equal(buf, "FORMAT UNIT destroys every byte on the drive.");
	cap_change_warning(CAP_HPA, false, buf, sizeof(buf));
	assert_string_equal(buf, "Data beyond the new end becomes unreachable.");
	cap_change_warning(CAP_SCSI_RESIZE, true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Nothing on it is lost"));
	cap_change_warning(CAP_PARTITION, true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "partition table it wrote is wiped"));
	cap_no_abort_text(CAP_SCSI_FORMAT, false, buf, sizeof(buf));
	assert_non_null(strstr(buf, "a format in progress cannot be aborted: FORMAT UNIT runs"));
	cap_no_abort_text(CAP_AMAC, true, buf, sizeof(buf));
	assert_string_equal(buf, "a restore cannot be aborted halfway; it ends in a moment");
	/* no journal: no note; a volatile change or a method without the rule: none */
	{
		struct drive_info i = { .serial = "S1" };

		assert_false(
		    cap_power_cycle_note("/nonexistent", &i, CAP_HPA, false, buf, sizeof(buf)));
		assert_false(
		    cap_power_cycle_note("/nonexistent", &i, CAP_AMAC, false, buf, sizeof(buf)));
	}
}

static const char *picked(unsigned methods, bool ata, bool vol)
{
	struct drive_info i = { .ata = ata, .methods = methods };
	const struct cap_method_ops *o = cap_method_pick(&i, vol);

	return o ? o->name : "none";
}

/* Auto walks the table in order: AMAC, HPA, SCSI resize, within the drive's
 * command set; a trial (volatile) takes the first with a volatile form. */
static void test_method_pick(void **state)
{
	struct drive_info i = { .ata = true,
				.logical_block = 512,
				.physical_block = 512,
				.capacity_blocks = 976773168,
				.native_blocks = 976773168,
				.methods = METHOD_AMAC | METHOD_HPA };
	struct cap_request req = { .method = CAP_AUTO, .by = CAP_BY_PERCENT, .percent = 50 };
	struct ss_error err = { 0 };
	struct cap_plan p;

	(void)state;
	assert_string_equal(picked(METHOD_AMAC | METHOD_HPA | METHOD_DCO, true, false), "amac");
	assert_string_equal(picked(METHOD_AMAC | METHOD_HPA, true, true), "hpa");
	assert_string_equal(picked(METHOD_AMAC, true, true), "amac");
	assert_string_equal(picked(METHOD_HPA | METHOD_DCO | METHOD_PARTITION, true, false), "hpa");
	assert_string_equal(picked(METHOD_DCO | METHOD_PARTITION, true, false), "none");
	assert_string_equal(picked(METHOD_SCSI_RESIZE | METHOD_SCSI_FORMAT, false, false),
			    "scsi-resize");
	assert_string_equal(picked(METHOD_SCSI_FORMAT | METHOD_PARTITION, false, false), "none");
	assert_string_equal(picked(METHOD_SCSI_RESIZE, true, false), "none");
	assert_string_equal(picked(METHOD_AMAC | METHOD_HPA, false, false), "none");

	assert_int_equal(cap_plan_limit(&i, NULL, &req, &p, &err), 0);
	assert_int_equal(p.method, CAP_AMAC);
	assert_int_equal(p.target, 976773168 / 2 / 2048 * 2048);
	req.volatile_ = true;
	assert_int_equal(cap_plan_limit(&i, NULL, &req, &p, &err), 0);
	assert_int_equal(p.method, CAP_HPA);
	i.methods = METHOD_AMAC; /* no volatile form: refused, not made permanent */
	assert_int_equal(cap_plan_limit(&i, NULL, &req, &p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--volatile needs the HPA method"));
	i.methods = METHOD_DCO;
	req.volatile_ = false;
	assert_int_equal(cap_plan_limit(&i, NULL, &req, &p, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "supports none of AMAC, HPA or a SCSI resize"));
}

/* Whether a method is offered on a drive, whatever the size, with the same
 * reasons cap_plan_limit refuses it with; and a command as --dry-run lists
 * it. */
static void test_method_usable(void **state)
{
	struct drive_info i = { .ata = true,
				.logical_block = 512,
				.physical_block = 512,
				.capacity_blocks = 976773168,
				.native_blocks = 976773168,
				.methods = METHOD_HPA | METHOD_DCO | METHOD_PARTITION };
	struct cap_request req = { .method = CAP_AMAC, .by = CAP_BY_PERCENT, .percent = 50 };
	struct ss_error err = { 0 }, why = { 0 };
	struct xcmd x = { .cdb = { 0x85, 0x07, 0x00 }, .cdb_len = 3 };
	struct cap_plan p;
	char text[128];

	(void)state;
	assert_int_equal(cap_method_usable(&i, cap_method_get(CAP_HPA), "sim:x", &err), 0);
	assert_int_equal(cap_method_usable(&i, cap_method_get(CAP_AMAC), "sim:x", &why),
			 -EOPNOTSUPP);
	assert_string_equal(why.msg, "sim:x: the drive does not support the amac method (it "
				     "supports: hpa,dco,partition)");
	/* the same reason the plan gives */
	assert_int_equal(cap_plan_limit(&i, NULL, &req, &p, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "does not support the amac method"));
	/* the method's own rules: DCO behind an HPA, HPA on a frozen drive */
	i.capacity_blocks = 488386584;
	assert_int_equal(cap_method_usable(&i, cap_method_get(CAP_DCO), "sim:x", &why), -EACCES);
	assert_non_null(strstr(why.msg, "an HPA is in effect"));
	i.sec_frozen = true;
	assert_int_equal(cap_method_usable(&i, cap_method_get(CAP_HPA), "sim:x", &why), -EACCES);
	assert_non_null(strstr(why.msg, "security-frozen"));
	/* partition on a host-managed zoned disk: its fits hook */
	i.zoned = ZONED_HOST_MANAGED;
	assert_int_equal(cap_method_usable(&i, cap_method_get(CAP_PARTITION), "sim:x", &why),
			 -EOPNOTSUPP);
	assert_non_null(strstr(why.msg, "host-managed zoned disk cannot take the partition"));

	cap_cmd_text(&x, "ATA SOMETHING", text, sizeof(text));
	assert_string_equal(text, "85 07 00  ATA SOMETHING");
	x.cdb_len = 0;
	cap_cmd_text(&x, NULL, text, sizeof(text));
	assert_string_equal(text, "  ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zones_rounded), cmocka_unit_test(test_zone_guard),
		cmocka_unit_test(test_not_zoned),     cmocka_unit_test(test_restore_unjournaled),
		cmocka_unit_test(test_method_table),  cmocka_unit_test(test_method_names),
		cmocka_unit_test(test_warnings),      cmocka_unit_test(test_method_pick),
		cmocka_unit_test(test_method_usable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
