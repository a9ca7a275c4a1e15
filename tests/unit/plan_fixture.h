/*
 * plan_fixture.h - what the cross-checks of libraidplan against the simulator share: the
 * planner's disk made from a simulated drive's own mechanics, so that a check compares the
 * two models and not two sets of figures.
 *
 * Header only; include after raidplan.h and sim/sim_priv.h.
 */
#ifndef SS_TEST_PLAN_FIXTURE_H
#define SS_TEST_PLAN_FIXTURE_H

#include "raidplan.h"
#include "shortstroke/planning.h"
#include "shortstroke/sim.h"
#include "sim/sim_priv.h"

#define FIXTURE_SIM_CONTROL_MS (CONTROL_CMD_NS / 1e6) /* every command's own time */

/* The planner's disk, from the simulator's configuration of drive d: its
 * capacity and rpm, and the mechanics `plan sim:ID` takes (seek times,
 * rates, the drive's overhead plus every command's, queue depth, write
 * cache, link: sim_drive_mechanics, plan_disk_mechanics). */
static inline void fixture_plan_disk(const struct sim_drive *d, struct rp_disk *rd)
{
	const struct sim_config *c = &d->cfg;
	uint64_t blocks = c->dco_factory > c->blocks ? c->dco_factory : c->blocks;
	struct dev_mechanics m;

	sim_drive_mechanics(d, &m);
	rp_disk_init(rd);
	rd->capacity = blocks * c->lblock;
	rd->rpm = c->rpm;
	plan_disk_mechanics(&m, rd);
}

/* The planner's figures for one disk alone (RAID 0 of 1) at a stroke, under
 * a profile at a queue depth; freed with rp_eval_free. */
static inline struct rp_eval *fixture_plan_one(const struct rp_disk *rd, int profile, double stroke,
					       unsigned qd)
{
	struct rp_layout l = { RP_SIZED(struct rp_layout), .level = RP_LEVEL_0, .n_disks = 1,
			       .stroke = stroke };
	struct rp_workload wl;
	struct rp_error err = { 0 };
	struct rp_eval *ev = NULL;

	rp_workload_init(&wl);
	assert_int_equal(rp_workload_profile(profile, qd, &wl, &err), 0);
	assert_int_equal(rp_evaluate(rd, 1, NULL, &l, &wl, &ev, &err), 0);
	return ev;
}

#endif
