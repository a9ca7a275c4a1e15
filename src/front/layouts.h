/* layouts.h - an array layout of the planner (libraidplan) as both front
 * ends show it: `plan` and the TUI planner. */
#ifndef SHORTSTROKE_FRONT_LAYOUTS_H
#define SHORTSTROKE_FRONT_LAYOUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "raidplan.h"

/* How far closest layout i of sol is from each goal it misses:
 * "capacity -12%,failures -1". */
void layout_shortfall_text(const struct rp_solution *sol, size_t i, char *buf, size_t len);
/* The same layout but for the chunk (the closest list has every chunk of
 * one layout, which read alike). */
bool layout_same_but_chunk(const struct rp_layout *a, const struct rp_layout *b);
/* The goals of g an evaluated layout misses (RP_GOAL_BIT()s; 0: it meets
 * them all): one layout evaluated at a stroke, as a search would judge it. */
unsigned layout_goals_missed(const struct rp_goals *g, const struct rp_eval *ev);

#endif
