/* raidplan_bench.c - time rp_solve on 1,000 disks (identical, 4 models,
 * all different) for a few workloads. Not part of `make check`. Prints
 * the fastest of 5 runs, wall and CPU time, and the layouts evaluated.
 *
 *   cc -O2 -Iinclude -Isrc tests/bench/raidplan_bench.c build/libraidplan.a -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "raidplan.h"

static double now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define REPS 5

static void fill(struct rp_disk *v, size_t n, int kind)
{
	size_t i;

	for (i = 0; i < n; i++) {
		rp_disk_init(&v[i]);
		v[i].rpm = 15000;
		v[i].seek_avg_ms = 3.3;
		v[i].outer_mbps = 157;
		v[i].capacity = 450000000000ull;
		if (kind == 1)
			v[i].capacity = (i % 4 + 1) * 500000000000ull;
		if (kind == 2)
			v[i].capacity = 400000000000ull + i * 1000000000ull;
	}
}

/* Each case REPS times: the fastest wall and CPU time (this machine's
 * neighbours make one run prove little; CPU time is what the solve costs). */
static int run(const char *what, struct rp_disk *v, size_t n, int profile, unsigned qd,
	       const struct rp_goals *g)
{
	struct rp_workload w;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };
	double wall = 1e9, cpu = 1e9, t0, c0;
	int r;

	rp_workload_init(&w);
	rp_workload_profile(profile, qd, &w, NULL);
	for (r = 0; r < REPS; r++) {
		rp_solution_free(sol);
		t0 = now(CLOCK_MONOTONIC);
		c0 = now(CLOCK_PROCESS_CPUTIME_ID);
		if (rp_solve(v, n, NULL, &w, g, &sol, &err)) {
			fprintf(stderr, "%s: %s\n", what, err.msg);
			return 1;
		}
		c0 = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
		t0 = now(CLOCK_MONOTONIC) - t0;
		wall = t0 < wall ? t0 : wall;
		cpu = c0 < cpu ? c0 : cpu;
	}
	printf("%-44s %6.1f ms %6.1f ms %8zu  %s\n", what, wall * 1e3, cpu * 1e3,
	       rp_solution_evaluated(sol), rp_solution_message(sol));
	rp_solution_free(sol);
	return 0;
}

int main(void)
{
	static const char *const kinds[] = { "identical", "4 models", "all different" };
	size_t n = 1000;
	struct rp_disk *v = calloc(n, sizeof(*v));
	struct rp_goals g;
	char name[80];
	int kind, rc = 0;

	if (!v)
		return 1;
	printf("%-44s %9s %9s %8s  %s\n", "case (fastest of 5)", "wall", "CPU", "layouts",
	       "outcome");
	for (kind = 0; kind < 3; kind++) {
		fill(v, n, kind);
		rp_goals_init(&g);
		g.min_capacity = 20e12;
		g.min_iops = 5000;
		g.min_failures = 1;
		snprintf(name, sizeof(name), "%s, database QD64, capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_DATABASE, 64, &g);
		snprintf(name, sizeof(name), "%s, fileserver QD256, capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_FILESERVER, 256, &g);
		rp_goals_init(&g);
		g.max_access_ms = 4.5;
		g.min_iops = 5000;
		snprintf(name, sizeof(name), "%s, database QD64, no capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_DATABASE, 64, &g);
		rp_goals_init(&g);
		g.min_capacity = 1e18;
		snprintf(name, sizeof(name), "%s, impossible capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_DATABASE, 64, &g);
	}
	free(v);
	return rc;
}
