/* layouts.c - an array layout as both front ends show it (layouts.h). */
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
