/* threads.c - libraidplan is thread-safe as raidplan(3) says: threads solve and
 * evaluate at once on shared inputs, and read one shared solution and
 * evaluation, while ThreadSanitizer watches (tests/abi/run.sh builds the
 * library's sources and this file with -fsanitize=thread). Each thread's
 * results must equal the ones computed before the threads started. Prints
 * "threads: ok" and exits 0, or says what differed. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "raidplan.h"

#define THREADS 4
#define ROUNDS 3

static struct rp_disk disks[6];
static struct rp_point curve[3];
static struct rp_layout layout;
static struct rp_workload wl;
static struct rp_goals goals;
static const struct rp_solution *shared_sol; /* read by every thread */
static const struct rp_eval *shared_ev;
static double want_iops, want_first;
static size_t want_count;

static int one_round(void)
{
	struct rp_solution *sol = NULL;
	struct rp_eval *ev = NULL;
	struct rp_error err;
	struct rp_layout copy;
	int bad = 0;

	if (rp_evaluate(disks, 6, NULL, &layout, &wl, &ev, &err) ||
	    rp_solve(disks, 6, NULL, &wl, &goals, &sol, &err)) {
		fprintf(stderr, "threads: %s\n", err.msg);
		return 1;
	}
	bad |= rp_eval_value(ev, RP_FIG_MIXED_IOPS) != want_iops;
	bad |= rp_solution_count(sol) != want_count;
	bad |= rp_solution_count(sol) &&
	       rp_eval_value(rp_solution_get(sol, 0), RP_FIG_USABLE_CAPACITY) != want_first;
	/* the shared objects: only read */
	bad |= rp_eval_value(shared_ev, RP_FIG_MIXED_IOPS) != want_iops;
	bad |= rp_solution_count(shared_sol) != want_count;
	bad |= strlen(rp_solution_message(shared_sol)) == 0;
	RP_COPY(&copy, rp_eval_layout(shared_ev));
	bad |= copy.level != RP_LEVEL_10;
	for (size_t i = 0; i < rp_eval_warning_count(shared_ev); i++)
		bad |= rp_eval_warning(shared_ev, i)->text[0] == '\0';
	bad |= strcmp(rp_level_name(RP_LEVEL_10), "10") != 0;
	rp_eval_free(ev);
	rp_solution_free(sol);
	return bad;
}

static void *worker(void *arg)
{
	int *bad = arg;

	for (int r = 0; r < ROUNDS; r++)
		*bad |= one_round();
	return NULL;
}

int main(void)
{
	struct rp_solution *sol;
	struct rp_eval *ev;
	struct rp_error err;
	pthread_t t[THREADS];
	int bad[THREADS] = { 0 }, any = 0;

	for (int i = 0; i < 3; i++) {
		rp_point_init(&curve[i]);
		curve[i].x = (i + 1) / 3.0;
		curve[i].y = 1.0 + 4.0 * i;
	}
	for (int i = 0; i < 6; i++) {
		rp_disk_init(&disks[i]);
		disks[i].capacity = 1000000000000ULL;
		disks[i].rpm = 7200;
		disks[i].seek_curve = curve;
		disks[i].n_seek_curve = 3;
	}
	rp_layout_init(&layout);
	layout.level = RP_LEVEL_10;
	layout.n_disks = 4;
	layout.stroke = 0.3;
	rp_workload_init(&wl);
	rp_goals_init(&goals);
	goals.min_failures = 1;
	goals.min_capacity = 1e12;
	goals.level_mask = RP_LEVEL_BIT(RP_LEVEL_1) | RP_LEVEL_BIT(RP_LEVEL_10);
	goals.chunk_bytes = 512 * 1024;
	if (rp_workload_profile(RP_PROFILE_DATABASE, 8, &wl, &err) ||
	    rp_evaluate(disks, 6, NULL, &layout, &wl, &ev, &err) ||
	    rp_solve(disks, 6, NULL, &wl, &goals, &sol, &err)) {
		fprintf(stderr, "threads: %s\n", err.msg);
		return 1;
	}
	shared_ev = ev;
	shared_sol = sol;
	want_iops = rp_eval_value(ev, RP_FIG_MIXED_IOPS);
	want_count = rp_solution_count(sol);
	want_first = want_count ? rp_eval_value(rp_solution_get(sol, 0), RP_FIG_USABLE_CAPACITY)
				: 0;
	if (!want_count || isnan(want_iops)) {
		fprintf(stderr, "threads: the single-threaded run found nothing to compare\n");
		return 1;
	}
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, &bad[i]);
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		any |= bad[i];
	}
	rp_eval_free(ev);
	rp_solution_free(sol);
	if (any) {
		fprintf(stderr,
			"threads: a thread's results differed from the single-threaded run\n");
		return 1;
	}
	printf("threads: ok, %d threads x %d rounds, %zu layouts\n", THREADS, ROUNDS, want_count);
	return 0;
}
