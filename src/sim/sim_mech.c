/* sim_mech.c - a simulated drive's mechanics for the planner: what its rig
 * configures (docs/simulator.md), so that `plan sim:ID` and `bench sim:ID`
 * speak of the same drive. */
#include <string.h>

#include "shortstroke/devsrc.h"
#include "sim/sim_priv.h"

void sim_drive_mechanics(const struct sim_drive *d, struct dev_mechanics *m)
{
	const struct sim_config *c = &d->cfg;

	memset(m, 0, sizeof(*m));
	m->t2t_ms = c->media.t2t_ms;
	m->avg_ms = c->media.avg_seek_ms;
	m->full_ms = c->media.full_ms;
	m->outer_mbps = c->media.outer_mbps;
	m->inner_mbps = c->media.inner_mbps;
	m->overhead_ms = (double)(c->overhead_ns + CONTROL_CMD_NS) / 1e6;
	m->queue_depth = c->queue_depth;
	m->write_cache = d->st.wce;
	m->cache_mb = c->cache_mib * 1.048576;
	m->link_mbps = sim_link_mbps(d);
	m->actuators = sim_drive_actuators(d);
}
