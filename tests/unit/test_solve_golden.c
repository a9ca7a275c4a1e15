/* test_solve_golden.c - rp_solve's ranked output on a fixed set of cases,
 * against tests/data/solve_golden.txt.
 *
 * The data file was written by the solver before it was made faster
 * (`build/tests/test_solve_golden --write tests/data/solve_golden.txt`
 * on that code), so a change that makes it faster must reproduce every
 * layout, figure, warning and shortfall it returns, to the last bit.
 * How many layouts the search evaluated is not part of the output.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raidplan.h"

#define GOLDEN "tests/data/solve_golden.txt"
#define MAX_DISKS 1000

struct gcase {
	const char *name;
	unsigned n;
	int kind; /* 0 identical, 1 four models, 2 all different, 3 mixed SATA/SAS */
	int profile;
	unsigned qd;
	struct rp_goals g;
	int path; /* 0 none, 1 controller + bus caps, 2 shared links */
};

static const struct gcase cases[] = {
	{ "identical 1000, database QD64, capacity",
	  1000,
	  0,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 20e12, .min_iops = 5000, .min_failures = 1 },
	  0 },
	{ "identical 1000, fileserver QD256, capacity",
	  1000,
	  0,
	  RP_PROFILE_FILESERVER,
	  256,
	  { .min_capacity = 20e12, .min_iops = 5000, .min_failures = 1 },
	  0 },
	{ "4 models 1000, fileserver QD256, capacity",
	  1000,
	  1,
	  RP_PROFILE_FILESERVER,
	  256,
	  { .min_capacity = 20e12, .min_iops = 5000, .min_failures = 1 },
	  0 },
	{ "all different 1000, fileserver QD256, capacity",
	  1000,
	  2,
	  RP_PROFILE_FILESERVER,
	  256,
	  { .min_capacity = 20e12, .min_iops = 5000, .min_failures = 1 },
	  0 },
	{ "all different 1000, database QD64, no capacity",
	  1000,
	  2,
	  RP_PROFILE_DATABASE,
	  64,
	  { .max_access_ms = 4.5, .min_iops = 5000 },
	  0 },
	{ "4 models 1000, impossible capacity",
	  1000,
	  1,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 1e18 },
	  0 },
	{ "identical 24, database QD32, capacity",
	  24,
	  0,
	  RP_PROFILE_DATABASE,
	  32,
	  { .min_capacity = 4e12, .min_failures = 2 },
	  0 },
	{ "identical 24, webserver QD1, speed",
	  24,
	  0,
	  RP_PROFILE_WEBSERVER,
	  1,
	  { .min_iops = 1500, .max_access_ms = 5 },
	  0 },
	{ "4 models 60, workstation QD16, capacity",
	  60,
	  1,
	  RP_PROFILE_WORKSTATION,
	  16,
	  { .min_capacity = 30e12, .min_iops = 3000, .min_failures = 1 },
	  0 },
	{ "all different 60, fileserver QD64, speed",
	  60,
	  2,
	  RP_PROFILE_FILESERVER,
	  64,
	  { .min_iops = 8000 },
	  0 },
	{ "all different 200, seq read QD4, capacity",
	  200,
	  2,
	  RP_PROFILE_SEQ_READ,
	  4,
	  { .min_capacity = 50e12 },
	  0 },
	{ "mixed 48, random access QD64, capacity, caps",
	  48,
	  3,
	  RP_PROFILE_RANDOM_ACCESS,
	  64,
	  { .min_capacity = 8e12, .min_iops = 4000, .min_failures = 1 },
	  1 },
	{ "mixed 48, seq write QD8, links",
	  48,
	  3,
	  RP_PROFILE_SEQ_WRITE,
	  8,
	  { .min_capacity = 5e12 },
	  2 },
	{ "identical 12, database QD64, RAID 10 and 6 only",
	  12,
	  0,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 1e12,
	    .level_mask = RP_LEVEL_BIT(RP_LEVEL_10) | RP_LEVEL_BIT(RP_LEVEL_6) },
	  0 },
	{ "4 models 100, database QD64, max 16 disks, 64 KiB chunk",
	  100,
	  1,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 5e12, .max_disks = 16, .chunk_bytes = 65536 },
	  0 },
	{ "identical 40, fileserver QD32, 3 results",
	  40,
	  0,
	  RP_PROFILE_FILESERVER,
	  32,
	  { .min_capacity = 6e12, .max_results = 3, .rebuild_mbps = 80, .replace_hours = 4 },
	  0 },
	{ "all different 100, database QD64, unmet speed",
	  100,
	  2,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_iops = 1e9 },
	  0 },
	{ "4 models 8, workstation QD1, three failures",
	  8,
	  1,
	  RP_PROFILE_WORKSTATION,
	  1,
	  { .min_failures = 3, .min_capacity = 1e12 },
	  0 },
	{ "identical 300, random access QD256, no goals",
	  300,
	  0,
	  RP_PROFILE_RANDOM_ACCESS,
	  256,
	  { .max_results = 20 },
	  0 },
	{ "mixed 120, webserver QD128, access goal, links",
	  120,
	  3,
	  RP_PROFILE_WEBSERVER,
	  128,
	  { .max_access_ms = 6, .min_capacity = 10e12 },
	  2 },
	/* the rest of make bench's 1,000-disk cases (tests/bench/raidplan_bench.c),
	 * recorded before the solver was made faster for them (issue 28) */
	{ "identical 1000, database QD64, no capacity",
	  1000,
	  0,
	  RP_PROFILE_DATABASE,
	  64,
	  { .max_access_ms = 4.5, .min_iops = 5000 },
	  0 },
	{ "identical 1000, impossible capacity",
	  1000,
	  0,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 1e18 },
	  0 },
	{ "4 models 1000, database QD64, capacity",
	  1000,
	  1,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 20e12, .min_iops = 5000, .min_failures = 1 },
	  0 },
	{ "4 models 1000, database QD64, no capacity",
	  1000,
	  1,
	  RP_PROFILE_DATABASE,
	  64,
	  { .max_access_ms = 4.5, .min_iops = 5000 },
	  0 },
	{ "all different 1000, database QD64, capacity",
	  1000,
	  2,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 20e12, .min_iops = 5000, .min_failures = 1 },
	  0 },
	{ "all different 1000, impossible capacity",
	  1000,
	  2,
	  RP_PROFILE_DATABASE,
	  64,
	  { .min_capacity = 1e18 },
	  0 },
};

static const struct rp_link links[] = {
	{ RP_SIZED(struct rp_link), .mbps = 300 },
	{ RP_SIZED(struct rp_link), .mbps = 600 },
	{ RP_SIZED(struct rp_link), .mbps = 1200 },
};

static void fill(struct rp_disk *v, unsigned n, int kind, int path)
{
	unsigned i;

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
		if (kind == 3 && i % 3) {
			v[i].rpm = 7200;
			v[i].seek_avg_ms = 8.5;
			v[i].outer_mbps = 105 + i % 2 * 20;
			v[i].inner_mbps = 55;
			v[i].capacity = 2000000000000ull + (i % 2) * 1000000000000ull;
			v[i].link_mbps = 300;
		}
		if (path == 2)
			v[i].shared_link = i % 4; /* 0: none */
	}
}

static void put_eval(FILE *f, const char *what, size_t i, const struct rp_eval *ev)
{
	const struct rp_layout *l = rp_eval_layout(ev);
	uint64_t h = 1469598103934665603ull;
	size_t j;
	int id;

	for (j = 0; l->members && j < l->n_disks; j++)
		h = (h ^ l->members[j]) * 1099511628211ull;
	fprintf(f,
		"%s %zu: level %s n %u groups %u copies %u chunk %llu stroke %.17g "
		"members %016llx\n",
		what, i, rp_level_name(l->level), l->n_disks, l->groups, l->copies,
		(unsigned long long)l->chunk_bytes, l->stroke, (unsigned long long)h);
	for (id = 0; id < rp_figure_count(); id++) {
		const struct rp_figure *fg = rp_eval_figure(ev, id);

		fprintf(f, "  %s %d %.17g\n", fg->key, fg->valid, fg->value);
	}
	for (j = 0; j < rp_eval_warning_count(ev); j++) {
		const struct rp_warning *w = rp_eval_warning(ev, j);

		fprintf(f, "  warning %d %.17g %s\n", w->id, w->value, w->text);
	}
}

/* The whole ranked output of one case, as text. */
static void put_case(FILE *f, const struct gcase *c)
{
	static struct rp_disk v[MAX_DISKS];
	struct rp_path path;
	struct rp_workload w;
	struct rp_goals goals = c->g;
	struct rp_solution *sol = NULL;
	struct rp_error err = { 0 };
	size_t i;
	int g, j;

	fill(v, c->n, c->kind, c->path);
	rp_path_init(&path);
	rp_workload_init(&w);
	goals.size = sizeof(goals); /* the table gives the fields */
	if (c->path == 1) {
		path.controller_mbps = 2000;
		path.bus_mbps = 3200;
	} else if (c->path == 2) {
		path.links = links;
		path.n_links = 3;
	}
	assert_int_equal(rp_workload_profile(c->profile, c->qd, &w, NULL), 0);
	fprintf(f, "case %s\n", c->name);
	if (rp_solve(v, c->n, c->path ? &path : NULL, &w, &goals, &sol, &err)) {
		fprintf(f, "error %s\n", err.msg);
		return;
	}
	fprintf(f, "message %s\n", rp_solution_message(sol));
	fprintf(f, "count %zu closest %zu unmet %#x truncated %d\n", rp_solution_count(sol),
		rp_solution_closest_count(sol), rp_solution_unmet(sol), rp_solution_truncated(sol));
	for (g = 0; g < rp_goal_count(); g++)
		fprintf(f, "best %s %.17g\n", rp_goal_name(g), rp_solution_best(sol, g));
	for (i = 0; i < rp_solution_count(sol); i++)
		put_eval(f, "layout", i, rp_solution_get(sol, i));
	for (i = 0; i < rp_solution_closest_count(sol); i++) {
		put_eval(f, "closest", i, rp_solution_closest(sol, i));
		fprintf(f, "  shortfall %.17g", rp_solution_closest_distance(sol, i));
		for (j = 0; j < rp_goal_count(); j++)
			fprintf(f, " %.17g", rp_solution_closest_gap(sol, i, j));
		fprintf(f, "\n");
	}
	rp_solution_free(sol);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 65536 > cap) {
			char *p = realloc(buf, cap = 2 * cap + 65536);

			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r);
	fclose(f);
	*len = n;
	return buf;
}

/* The golden file holds the cases in order: find the text of case i. */
static const char *case_text(const char *all, size_t len, size_t i, size_t *out)
{
	const char *p = all, *end = all + len, *next;
	size_t k = 0;

	for (;;) {
		if (end - p < 5 || memcmp(p, "case ", 5))
			return NULL;
		next = p + 1;
		while (next < end &&
		       !(next[-1] == '\n' && end - next >= 5 && !memcmp(next, "case ", 5)))
			next++;
		if (k++ == i) {
			*out = (size_t)(next - p);
			return p;
		}
		p = next;
	}
}

static void test_cases(void **state)
{
	size_t len = 0, i;
	char *all = slurp(GOLDEN, &len);

	(void)state;
	if (!all)
		fail_msg("%s: cannot read (run the tests from the top of the tree)", GOLDEN);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = NULL;
		size_t glen = 0, wlen = 0;
		FILE *f = open_memstream(&got, &glen);
		const char *want = case_text(all, len, i, &wlen);

		assert_non_null(f);
		put_case(f, &cases[i]);
		fclose(f);
		if (!want)
			fail_msg("%s: no case %zu (%s)", GOLDEN, i, cases[i].name);
		if (glen != wlen || memcmp(got, want, glen)) {
			size_t k = 0, line = 1;

			while (k < glen && k < wlen && got[k] == want[k])
				line += got[k++] == '\n';
			fail_msg("case %zu (%s): output differs from %s at line %zu of the case", i,
				 cases[i].name, GOLDEN, line);
		}
		free(got);
	}
	free(all);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
	};
	size_t i;

	if (argc == 3 && !strcmp(argv[1], "--write")) {
		FILE *f = fopen(argv[2], "w");

		if (!f)
			return 1;
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			put_case(f, &cases[i]);
		return fclose(f) ? 1 : 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
