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
#include "sim/sim_priv.h"

#define FIXTURE_SIM_CONTROL_MS 0.02 /* CONTROL_CMD_NS in src/sim/sim_drive.c */

/* The planner's disk, from the simulator's configuration of drive d. */
static inline void fixture_plan_disk(const struct sim_drive *d, struct rp_disk *rd)
{
	const struct sim_config *c = &d->cfg;
	uint64_t blocks = c->dco_factory > c->blocks ? c->dco_factory : c->blocks;

	rp_disk_init(rd);
	rd->capacity = blocks * c->lblock;
	rd->rpm = c->rpm;
	rd->seek_t2t_ms = c->media.t2t_ms;
	rd->seek_avg_ms = c->media.avg_seek_ms;
	rd->seek_full_ms = c->media.full_ms;
	rd->outer_mbps = c->media.outer_mbps;
	rd->inner_mbps = c->media.inner_mbps;
	rd->overhead_ms = (double)c->overhead_ns / 1e6 + FIXTURE_SIM_CONTROL_MS;
}

#endif
