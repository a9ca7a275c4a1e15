/* test_capacity.c - capacity operations on drives of the in-memory demo rig:
 * zone boundaries on SMR disks (cap_plan_zones, and cap_limit's guard for a
 * plan that was not rounded), and restore planning with nothing journaled. */
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
	assert_int_equal(p.target % 65536, 0);	/* 256 MiB zones of 4 KiB blocks */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zones_rounded),
		cmocka_unit_test(test_zone_guard),
		cmocka_unit_test(test_not_zoned),
		cmocka_unit_test(test_restore_unjournaled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
