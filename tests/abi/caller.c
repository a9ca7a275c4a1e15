/* caller.c - a program linked against libraidplan.so, for tests/abi/run.sh:
 * built against one header, run against the library of another, it must
 * print the same (a compatible change) or be refused with -E2BIG (a newer
 * program that sets a field the library does not know).
 *
 * Prints the library's version, every figure of one evaluation (four
 * different disks, one with a zone profile, two behind a shared link, a
 * custom workload) and the solver's ranked layouts. NEW_FIELD (a field
 * name) sets that field of disk 2 to NEW_VALUE (default 0: unset). */
#include <stdio.h>
#include <stdlib.h>

#include "raidplan.h"

#ifndef NEW_VALUE
#define NEW_VALUE 0
#endif

static void put_eval(const struct rp_eval *ev)
{
	const struct rp_layout *l = rp_eval_layout(ev);

	printf("layout %s n %u groups %u copies %u chunk %llu stroke %.17g\n",
	       rp_level_name(l->level), l->n_disks, l->groups, l->copies,
	       (unsigned long long)l->chunk_bytes, l->stroke);
	for (int id = 0; id < rp_figure_count(); id++)
		printf("  %s %.17g\n", rp_figure_key(id), rp_eval_value(ev, id));
	for (size_t i = 0; i < rp_eval_warning_count(ev); i++)
		printf("  warning %s\n", rp_warning_key(rp_eval_warning(ev, i)->id));
}

int main(void)
{
	static const struct rp_point zones[] = {
		{ RP_SIZED(struct rp_point), .x = 0, .y = 210 },
		{ RP_SIZED(struct rp_point), .x = 0.5, .y = 180 },
		{ RP_SIZED(struct rp_point), .x = 1, .y = 110 },
	};
	static const struct rp_size_share sizes[] = {
		{ RP_SIZED(struct rp_size_share), .bytes = 4096, .share = 3 },
		{ RP_SIZED(struct rp_size_share), .bytes = 65536, .share = 1 },
	};
	struct rp_link link;
	struct rp_path path;
	struct rp_disk d[4];
	struct rp_layout l;
	struct rp_workload w;
	struct rp_goals g;
	struct rp_error err = { 0 };
	struct rp_eval *ev = NULL;
	struct rp_solution *sol = NULL;
	int rc;

	printf("libraidplan %s, API %d (built against %s)\n", rp_version(), rp_api_version(),
	       RP_VERSION_STRING);
	rp_link_init(&link);
	link.mbps = 250;
	rp_path_init(&path);
	path.controller_mbps = 1200;
	path.links = &link;
	path.n_links = 1;
	for (int i = 0; i < 4; i++) {
		rp_disk_init(&d[i]);
		d[i].capacity = 600000000000ull + (uint64_t)i * 100000000000ull;
		d[i].rpm = i == 3 ? 10000 : 15000;
		d[i].seek_avg_ms = 3.4;
		d[i].shared_link = i < 2;
	}
	d[1].zone_profile = zones;
	d[1].n_zone_profile = 3;
#ifdef NEW_FIELD
	d[2].NEW_FIELD = NEW_VALUE;
#endif
	rp_layout_init(&l);
	l.level = RP_LEVEL_5;
	l.n_disks = 4;
	l.stroke = 0.3;
	rp_workload_init(&w);
	w.read_share = 0.7;
	w.random_share = 1;
	w.queue_depth = 16;
	w.sizes = sizes;
	w.n_sizes = 2;
	rc = rp_evaluate(d, 4, &path, &l, &w, &ev, &err);
	if (rc) {
		printf("rp_evaluate: %d %s: %s\n", rc, rp_strerror(rc), err.msg);
		return 3;
	}
	put_eval(ev);
	rp_eval_free(ev);

	rp_goals_init(&g);
	g.min_capacity = 1e12;
	g.min_failures = 1;
	g.max_results = 4;
	rc = rp_solve(d, 4, &path, &w, &g, &sol, &err);
	if (rc) {
		printf("rp_solve: %d %s: %s\n", rc, rp_strerror(rc), err.msg);
		return 3;
	}
	printf("solve: %s\n", rp_solution_message(sol));
	for (size_t i = 0; i < rp_solution_count(sol); i++)
		put_eval(rp_solution_get(sol, i));
	rp_solution_free(sol);
	return 0;
}
