/* layouts.c - an array layout as both front ends show it (layouts.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "layouts.h"

void layout_shortfall_text(const struct rp_solution *sol, size_t i, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int g = 0; g < rp_goal_count(); g++) {
		double gap = rp_solution_closest_gap(sol, i, g);

		if (!(gap > 0) || used >= len)
			continue;
		if (g == RP_GOAL_FAILURES)
			used += (size_t)snprintf(buf + used, len - used, "%s%s -%.0f",
						 used ? "," : "", rp_goal_name(g), gap);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%s -%.0f%%",
						 used ? "," : "", rp_goal_name(g), 100 * gap);
	}
}

bool layout_same_but_chunk(const struct rp_layout *a, const struct rp_layout *b)
{
	return a->level == b->level && a->n_disks == b->n_disks && a->groups == b->groups &&
	       a->copies == b->copies && a->stroke == b->stroke &&
	       !memcmp(a->members, b->members, a->n_disks * sizeof(*a->members));
}

static double fig_of(const struct rp_eval *ev, int id)
{
	const struct rp_figure *f = rp_eval_figure(ev, id);

	return f && f->valid ? f->value : NAN;
}

unsigned layout_goals_missed(const struct rp_goals *g, const struct rp_eval *ev)
{
	unsigned m = 0;

	if (g->min_capacity > 0 &&
	    !(fig_of(ev, RP_FIG_USABLE_CAPACITY) >= g->min_capacity * (1 - 1e-9)))
		m |= RP_GOAL_BIT(RP_GOAL_CAPACITY);
	if (g->min_iops > 0 && !(fig_of(ev, RP_FIG_MIXED_IOPS) >= g->min_iops * (1 - 1e-9)))
		m |= RP_GOAL_BIT(RP_GOAL_IOPS);
	if (g->max_access_ms > 0 &&
	    !(fig_of(ev, RP_FIG_ACCESS_TIME) <= g->max_access_ms * (1 + 1e-9)))
		m |= RP_GOAL_BIT(RP_GOAL_ACCESS);
	if (fig_of(ev, RP_FIG_FAILURES_TOLERATED) < g->min_failures)
		m |= RP_GOAL_BIT(RP_GOAL_FAILURES);
	return m;
}
