/*
 * tui_fixture.h - what the TUI's unit tests share: a model on a fresh state
 * directory and the demo rig (or a rig of their own), and ticks as the UI
 * gives them until the background jobs, or the jobs on drives too, have
 * ended. Include after cmocka.h, fixture.h and tui/tui.h.
 */
#ifndef SS_TEST_TUI_FIXTURE_H
#define SS_TEST_TUI_FIXTURE_H

#include <stdbool.h>
#include <string.h>
#include <time.h>

/* Tick (as the UI does every 250 ms) until the scans and the reports have
 * ended, and with tasks the jobs on drives too; fails after 30 s. */
static inline void settle_jobs(struct tui_model *m, bool tasks)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 30000; i++) {
		bool busy = m->scan || !m->scanned || m->rescan_pending || (tasks && m->ntasks);

		for (size_t k = 0; k < TUI_MAX_BG; k++)
			busy |= m->bg[k].job != NULL;
		if (!busy)
			return;
		tui_handle_key(m, TK_TICK);
		nanosleep(&ms, NULL);
	}
	fail_msg("the jobs did not end");
}

static inline void settle(struct tui_model *m)
{
	settle_jobs(m, false);
}

static inline size_t row_of(const struct tui_model *m, const char *spec)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->devs[i].spec, spec))
			return i;
	fail_msg("%s is not listed", spec);
	return 0;
}

/* A model on a fresh state directory and the demo rig, or the rig rig_json
 * (written to dir/rig.json). */
struct tui_env {
	struct ss_ctx ctx;
	char dir[256];
	char rig[300];
};

static inline void env_up(struct tui_model *m, struct tui_env *t, const char *rig_json)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(fixture_mkdtemp(t->dir, sizeof(t->dir)), 0);
	ctx_init(&t->ctx);
	t->ctx.state_dir = t->dir;
	if (rig_json) {
		snprintf(t->rig, sizeof(t->rig), "%s/rig.json", t->dir);
		assert_int_equal(fixture_write_file(t->rig, rig_json), 0);
		t->ctx.rig_file = t->rig;
	} else {
		t->ctx.demo = true;
	}
	m->ctx = &t->ctx;
}

static inline void env_down(struct tui_model *m, struct tui_env *t)
{
	tui_model_fini(m);
	ctx_fini(&t->ctx);
	fixture_rmtree(t->dir);
}

/* The screens open over the drive table, by kind (NULL: none open). */
static inline struct tui_pager *pager_of(const struct tui_model *m)
{
	return tui_screen_find(m, &tui_pager_screen);
}

static inline struct tui_help *help_of(const struct tui_model *m)
{
	return tui_screen_find(m, &tui_help_screen);
}

static inline struct tui_setup *setup_of(const struct tui_model *m)
{
	return tui_screen_find(m, &tui_setup_screen);
}

#endif
