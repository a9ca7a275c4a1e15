/* raidplan_bench.c - time rp_solve on 1,000 disks (identical, 4 models,
 * all different) for a few workloads. Not part of `make check`.
 *
 *   cc -O2 -Iinclude -Isrc tests/bench/raidplan_bench.c build/libraidplan.a -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "raidplan.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

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

static int run(const char *what, struct rp_disk *v, size_t n, int profile, unsigned qd,
	       const struct rp_goals *g)
{
	struct rp_workload w;
	struct rp_solution *sol;
	struct rp_error err = {0};
	double t0, t1;

	rp_workload_profile(profile, qd, &w, NULL);
	t0 = now();
	if (rp_solve(v, n, NULL, &w, g, &sol, &err)) {
		fprintf(stderr, "%s: %s\n", what, err.msg);
		return 1;
	}
	t1 = now();
	printf("%-40s %7.3f s  %8zu layouts  %s\n", what, t1 - t0, rp_solution_evaluated(sol),
	       rp_solution_message(sol));
	rp_solution_free(sol);
	return 0;
}

int main(void)
{
	static const char *const kinds[] = {"identical", "4 models", "all different"};
	size_t n = 1000;
	struct rp_disk *v = calloc(n, sizeof(*v));
	struct rp_goals g;
	char name[80];
	int kind, rc = 0;

	if (!v)
		return 1;
	for (kind = 0; kind < 3; kind++) {
		fill(v, n, kind);
		memset(&g, 0, sizeof(g));
		g.min_capacity = 20e12;
		g.min_iops = 5000;
		g.min_failures = 1;
		snprintf(name, sizeof(name), "%s, database QD64, capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_DATABASE, 64, &g);
		snprintf(name, sizeof(name), "%s, fileserver QD256, capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_FILESERVER, 256, &g);
		memset(&g, 0, sizeof(g));
		g.max_access_ms = 4.5;
		g.min_iops = 5000;
		snprintf(name, sizeof(name), "%s, database QD64, no capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_DATABASE, 64, &g);
		memset(&g, 0, sizeof(g));
		g.min_capacity = 1e18;
		snprintf(name, sizeof(name), "%s, impossible capacity", kinds[kind]);
		rc |= run(name, v, n, RP_PROFILE_DATABASE, 64, &g);
	}
	free(v);
	return rc;
}
