/* planner.c - the planner screen's model: a form of goals over the selected
 * (or marked) drives, solved again through libraidplan on every change
 * (milliseconds, in-process), the ranked layouts, and the chosen one saved
 * with the plan-file writer `plan -O` uses. No curses here: view.c draws
 * struct tui_planner. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/layouts.h"
#include "shortstroke/planfile.h"
#include "shortstroke/planspec.h"
#include "shortstroke/units.h"
#include "tui.h"

#define MAX_TARGETS PLAN_MAX_DISKS

const char *const tui_plan_field_names[TPF_COUNT] = {
	[TPF_LEVEL] = "RAID level",  [TPF_CAPACITY] = "Capacity",     [TPF_IOPS] = "IOPS",
	[TPF_ACCESS] = "Access ms",  [TPF_TOLERATE] = "Tolerates",    [TPF_STROKE] = "Stroke",
	[TPF_WORKLOAD] = "Workload", [TPF_CONTROLLER] = "Controller",
};

static bool is_choice(unsigned f)
{
	return f == TPF_LEVEL || f == TPF_WORKLOAD || f == TPF_CONTROLLER;
}

static void tui_planner_free(struct tui_planner *p)
{
	if (!p)
		return;
	rp_solution_free(p->sol);
	rp_eval_free(p->one);
	free(p->pool);
	free(p->rd);
	free(p);
}

static void level_text(const struct rp_layout *l, char *buf, size_t len)
{
	if (l->level == RP_LEVEL_10 || l->level == RP_LEVEL_01)
		snprintf(buf, len, "%s (%u copies)", rp_level_name(l->level), l->copies);
	else if (l->level == RP_LEVEL_50 || l->level == RP_LEVEL_60)
		snprintf(buf, len, "%s (%u groups)", rp_level_name(l->level), l->groups);
	else
		snprintf(buf, len, "%s", rp_level_name(l->level));
}

static double fig(const struct rp_eval *ev, int id)
{
	const struct rp_figure *f = rp_eval_figure(ev, id);

	return f && f->valid && isfinite(f->value) ? f->value : NAN;
}

/* closest: ev is p->sol's closest layout ci (its shortfall is shown). */
static void add_row(struct tui_planner *p, const struct rp_eval *ev, bool closest, size_t ci)
{
	const struct rp_layout *l = rp_eval_layout(ev);
	struct tui_plan_row *r;
	double v;

	if (p->nrows >= TUI_PLAN_ROWS)
		return;
	for (size_t i = 0; i < p->nrows; i++)
		if (layout_same_but_chunk(rp_eval_layout(p->evs[i]), l))
			return;
	r = &p->rows[p->nrows];
	memset(r, 0, sizeof(*r));
	p->evs[p->nrows++] = ev;
	level_text(l, r->level, sizeof(r->level));
	r->disks = l->n_disks;
	r->stroke = l->stroke;
	v = fig(ev, RP_FIG_USABLE_CAPACITY);
	r->capacity = isfinite(v) && v > 0 ? (uint64_t)v : 0;
	r->iops = fig(ev, RP_FIG_MIXED_IOPS);
	r->access_ms = fig(ev, RP_FIG_ACCESS_TIME);
	v = fig(ev, RP_FIG_FAILURES_TOLERATED);
	r->tolerates = isfinite(v) && v > 0 ? (unsigned)v : 0;
	r->mttdl_h = fig(ev, RP_FIG_MTTDL);
	if (closest)
		layout_shortfall_text(p->sol, ci, r->shortfall, sizeof(r->shortfall));
}

static void clear_result(struct tui_planner *p)
{
	rp_solution_free(p->sol);
	p->sol = NULL;
	rp_eval_free(p->one);
	p->one = NULL;
	p->nrows = 0;
	p->met = false;
	p->message[0] = p->unmet[0] = p->error[0] = '\0';
	p->evaluated = 0;
}

/* Goals from the form, with the refusals and defaults of `plan` (one
 * parser, planspec.h); false with p->error when a field is wrong. */
static bool goals_of(struct tui_planner *p, struct rp_goals *g, double *stroke, char *note,
		     size_t len)
{
	const char *const *name = tui_plan_field_names;
	struct ss_error err = { 0 };
	uint64_t bytes;
	bool bad;

	rp_goals_init(g);
	g->max_results = 100;
	*stroke = 0;
	note[0] = '\0';
	if (p->level >= 0)
		g->level_mask = RP_LEVEL_BIT(p->level);
	bad = (p->text[TPF_CAPACITY][0] &&
	       plan_size_parse(name[TPF_CAPACITY], p->text[TPF_CAPACITY], &bytes, &err)) ||
	      (p->text[TPF_IOPS][0] &&
	       plan_positive_parse(name[TPF_IOPS], p->text[TPF_IOPS], &g->min_iops, &err)) ||
	      (p->text[TPF_ACCESS][0] && plan_positive_parse(name[TPF_ACCESS], p->text[TPF_ACCESS],
							     &g->max_access_ms, &err)) ||
	      (p->text[TPF_TOLERATE][0] &&
	       plan_count_parse(name[TPF_TOLERATE], p->text[TPF_TOLERATE], 0, PLAN_MAX_DISKS,
				&g->min_failures, &err)) ||
	      (p->text[TPF_STROKE][0] &&
	       plan_stroke_parse(name[TPF_STROKE], p->text[TPF_STROKE], stroke, &err));
	if (bad) {
		snprintf(p->error, sizeof(p->error), "%s", err.msg);
		return false;
	}
	if (p->text[TPF_CAPACITY][0])
		g->min_capacity = (double)bytes;
	if (!p->text[TPF_TOLERATE][0])
		g->min_failures = plan_tolerate_default(g->level_mask, name[TPF_TOLERATE], note,
							len);
	if (*stroke && p->level < 0) {
		snprintf(p->error, sizeof(p->error),
			 "%s evaluates one layout: choose a RAID level (Left/Right on it)",
			 name[TPF_STROKE]);
		return false;
	}
	return true;
}

/* The path of the controller chosen (its figures are the library's defaults). */
static void path_of(const struct tui_planner *p, struct rp_path *path)
{
	rp_path_init(path);
	path->controller = p->controller;
}

/* The one layout a Stroke asks for: the level chosen over every drive. */
static void evaluate_one(struct tui_planner *p, const struct rp_path *path,
			 const struct rp_workload *wl, const struct rp_goals *g, double stroke)
{
	struct rp_error rerr = { 0 };
	struct rp_layout l;
	unsigned missed;
	size_t used = 0;

	rp_layout_init(&l);
	l.level = p->level;
	l.n_disks = (unsigned)p->n;
	l.stroke = stroke;
	if (rp_evaluate(p->rd, p->n, path, &l, wl, &p->one, &rerr)) {
		snprintf(p->error, sizeof(p->error), "RAID %s on %zu disks: %s",
			 rp_level_name(p->level), p->n, rerr.msg);
		return;
	}
	p->evaluated = 1;
	missed = layout_goals_missed(g, p->one);
	p->met = !missed;
	add_row(p, p->one, false, 0);
	for (int k = 0; k < rp_goal_count(); k++)
		if ((missed & RP_GOAL_BIT(k)) && used < sizeof(p->unmet))
			used += (size_t)snprintf(p->unmet + used, sizeof(p->unmet) - used, "%s%s",
						 used ? ", " : "", rp_goal_name(k));
	snprintf(p->message, sizeof(p->message), "%s",
		 missed ? "the layout does not meet the goals"
			: "one layout, at the stroke given (no search)");
}

/* Parse the fields and solve again; fills rows, message, error. */
static void tui_planner_update(struct tui_planner *p)
{
	struct rp_error rerr = { 0 };
	struct rp_workload wl;
	struct rp_path path;
	struct rp_goals g;
	char note[200];
	double stroke;
	size_t n;

	clear_result(p);
	p->saved[0] = '\0';
	if (!goals_of(p, &g, &stroke, note, sizeof(note)))
		return;
	if (p->level >= 0 && rp_level_min_disks(p->level) > p->n) {
		snprintf(
		    p->message, sizeof(p->message),
		    "RAID %s needs at least %u disks; %zu %s marked (Space on the drive table)",
		    rp_level_name(p->level), rp_level_min_disks(p->level), p->n,
		    p->n == 1 ? "is" : "are");
		snprintf(p->unmet, sizeof(p->unmet), "%s", rp_goal_name(RP_GOAL_LEVEL));
		return;
	}
	rp_workload_init(&wl);
	path_of(p, &path);
	if (rp_workload_profile(p->profile, TUI_PLAN_QD, &wl, &rerr)) {
		snprintf(p->error, sizeof(p->error), "%s", rerr.msg);
		return;
	}
	if (stroke) {
		evaluate_one(p, &path, &wl, &g, stroke);
		return;
	}
	if (rp_solve(p->rd, p->n, &path, &wl, &g, &p->sol, &rerr)) {
		snprintf(p->error, sizeof(p->error), "%s", rerr.msg);
		return;
	}
	p->evaluated = rp_solution_evaluated(p->sol);
	/* the default said, as plan says it */
	snprintf(p->message, sizeof(p->message), "%s%s%s%s", rp_solution_message(p->sol),
		 note[0] ? " (" : "", note, note[0] ? ")" : "");
	n = rp_solution_count(p->sol);
	p->met = n > 0;
	if (p->met) {
		for (size_t i = 0; i < n && p->nrows < TUI_PLAN_ROWS; i++)
			add_row(p, rp_solution_get(p->sol, i), false, 0);
	} else {
		unsigned m = rp_solution_unmet(p->sol);
		size_t used = 0;

		for (int k = 0; k < rp_goal_count(); k++)
			if ((m & RP_GOAL_BIT(k)) && used < sizeof(p->unmet))
				used += (size_t)snprintf(p->unmet + used, sizeof(p->unmet) - used,
							 "%s%s", used ? ", " : "", rp_goal_name(k));
		for (size_t i = 0; i < rp_solution_closest_count(p->sol); i++)
			add_row(p, rp_solution_closest(p->sol, i), true, i);
	}
	if (p->chosen >= p->nrows)
		p->chosen = 0;
}

enum tui_action tui_planner_open(struct tui_model *m)
{
	size_t *idx, k, left = 0;
	struct tui_planner *p;
	struct ss_error err = { 0 };

	if (!m->n)
		return TUI_NONE;
	idx = calloc(m->n, sizeof(*idx));
	p = calloc(1, sizeof(*p));
	if (!idx || !p)
		goto nomem;
	k = tui_targets(m, idx, m->n);
	p->pool = calloc(k, sizeof(*p->pool));
	p->rd = calloc(k, sizeof(*p->rd));
	if (!p->pool || !p->rd)
		goto nomem;
	for (size_t i = 0; i < k; i++) {
		const char *spec = m->devs[idx[i]].spec;
		struct plan_pick pick = { .member = true };
		int rc = plan_disk_from_device(m->ctx, spec, &pick, &p->pool[p->n], &p->notes,
					       &err);

		if (rc == -EBUSY) { /* left out, as plan leaves it out: a note says why */
			plan_note_left_out(&p->notes, spec, &err);
			left++;
			continue;
		}
		if (rc) {
			free(idx);
			tui_planner_free(p);
			return tui_alert(m, "Planner", "%s", err.msg);
		}
		plan_disk_rp(&p->pool[p->n], &p->rd[p->n]);
		p->n++;
	}
	free(idx);
	if (!p->n) {
		enum tui_action a = tui_alert(
		    m, "Planner",
		    "Every drive marked is one 'apply' would refuse now; nothing to plan "
		    "with. %s",
		    p->notes.n ? p->notes.text[0] : "");

		tui_planner_free(p);
		return a;
	}
	(void)left;
	p->level = -1;
	p->profile = RP_PROFILE_DATABASE;
	p->field = TPF_CAPACITY;
	tui_planner_update(p);
	return tui_screen_open(m, &tui_planner_screen, p);
nomem:
	free(idx);
	tui_planner_free(p);
	return tui_alert(m, "Planner", "out of memory");
}

/* ---- saving ------------------------------------------------------------------ */

struct plan *tui_planner_plan(const struct tui_planner *p, struct ss_error *err)
{
	struct tui_planner *pp = (struct tui_planner *)p;
	struct rp_workload wl;
	struct rp_path path;
	struct rp_goals g;
	struct plan_source src;
	char note[200];
	double stroke;

	rp_workload_init(&wl);
	if (!p || p->chosen >= p->nrows || !goals_of(pp, &g, &stroke, note, sizeof(note)) ||
	    rp_workload_profile(p->profile, TUI_PLAN_QD, &wl, NULL)) {
		ss_error_set(err, -EINVAL, "The layouts changed; Esc, then choose one again.");
		return NULL;
	}
	path_of(p, &path);
	src = (struct plan_source){
		.pool = p->pool,
		.profile = p->profile,
		.wl = &wl,
		.path = &path,
		.goals = &g,
		.notes = &p->notes,
	};
	return plan_from_eval(&src, p->evs[p->chosen], err);
}

static enum tui_action save_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct tui_planner *p = tui_screen_find(m, &tui_planner_screen);
	struct ss_error err = { 0 };
	struct plan *plan;

	if (!p)
		return tui_dialog_error(d, "The planner is closed: nothing to save.");
	if (!d->text[0])
		return tui_dialog_error(d, "A file name, please.");
	plan = tui_planner_plan(p, &err);
	if (!plan || planfile_write(d->text, plan, &err)) {
		plan_free(plan);
		return tui_dialog_error(d, "%s", err.msg);
	}
	plan_free(plan);
	snprintf(p->saved, sizeof(p->saved), "plan written to %s (layout %zu: RAID %s)", d->text,
		 p->chosen + 1, p->rows[p->chosen].level);
	tui_status(m, "%s", p->saved);
	m->dlg = NULL; /* the caller frees d */
	return TUI_REDRAW;
}

static enum tui_action planner_save(struct tui_model *m, struct tui_planner *p)
{
	struct tui_dialog *d;

	if (!p->met || !p->nrows)
		return tui_alert(
		    m, "Save plan",
		    "No layout meets the goals: nothing to save. Change a goal first.");
	d = tui_dialog_new("Save plan");
	tui_dialog_line(d, "Layout %zu: RAID %s on %u disk%s, stroke %.1f %%.", p->chosen + 1,
			p->rows[p->chosen].level, p->rows[p->chosen].disks,
			p->rows[p->chosen].disks == 1 ? "" : "s", 100 * p->rows[p->chosen].stroke);
	tui_dialog_line(d, "The plan file is what 'shortstroke plan -O FILE' writes;");
	tui_dialog_line(d, "'shortstroke plan --check FILE' re-evaluates it.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "File:");
	d->submit = save_submit;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

/* ---- keys -------------------------------------------------------------------- */

static void choice_step(struct tui_planner *p, int delta)
{
	if (p->field == TPF_LEVEL) {
		/* -1 (any), 0 .. rp_level_count() - 1 */
		p->level += delta;
		if (p->level < -1)
			p->level = rp_level_count() - 1;
		if (p->level >= rp_level_count())
			p->level = -1;
	} else if (p->field == TPF_WORKLOAD) {
		p->profile += delta;
		if (p->profile < 0)
			p->profile = rp_profile_count() - 1;
		if (p->profile >= rp_profile_count())
			p->profile = 0;
	} else {
		p->controller += delta;
		if (!rp_controller_name(p->controller))
			p->controller = delta > 0 ? 0 : RP_CTRL_HW_RAID;
	}
}

static enum tui_action planner_field(struct tui_model *m, void *data, int key)
{
	struct tui_planner *p = data;

	(void)m;
	if (key == TK_TAB || key == TK_DOWN)
		p->field = (p->field + 1) % TPF_COUNT;
	else
		p->field = (p->field + TPF_COUNT - 1) % TPF_COUNT;
	return TUI_REDRAW;
}

static enum tui_action planner_layout(struct tui_model *m, void *data, int key)
{
	struct tui_planner *p = data;

	(void)m;
	if (key == TK_PGDN && p->chosen + 1 < p->nrows)
		p->chosen++;
	if (key == TK_PGUP && p->chosen)
		p->chosen--;
	return TUI_REDRAW;
}

static enum tui_action planner_choose(struct tui_model *m, void *data, int key)
{
	struct tui_planner *p = data;

	(void)m;
	if (!is_choice(p->field))
		return TUI_NONE;
	choice_step(p, key == TK_LEFT ? -1 : 1);
	p->chosen = 0;
	tui_planner_update(p);
	return TUI_REDRAW;
}

static enum tui_action planner_erase(struct tui_model *m, void *data, int key)
{
	struct tui_planner *p = data;
	char *t = p->text[p->field];
	size_t len = strlen(t);

	(void)m;
	(void)key;
	if (is_choice(p->field) || !len)
		return TUI_NONE;
	t[len - 1] = '\0';
	p->chosen = 0;
	tui_planner_update(p);
	return TUI_REDRAW;
}

static enum tui_action planner_save_key(struct tui_model *m, void *data, int key)
{
	(void)key;
	return planner_save(m, data);
}

/* ^A; a on a choice field (a text field takes the letter) */
static enum tui_action planner_apply(struct tui_model *m, void *data, int key)
{
	const struct tui_planner *p = data;

	if (key == 'a' && !is_choice(p->field))
		return TUI_NONE;
	return tui_apply_open(m);
}

static enum tui_action planner_done(struct tui_model *m, void *data, int key)
{
	(void)key;
	tui_screen_close(m, data);
	return TUI_REDRAW;
}

/* clang-format off */
static const struct tui_key planner_keys[] = {
	{ .key = TK_TAB, .more = { TK_DOWN, TK_BTAB, TK_UP }, .name = "Tab/Down, Shift-Tab/Up",
	  .run = planner_field, .help = "the next goal, the one before" },
	{ .key = TK_LEFT, .more = { TK_RIGHT, ' ' }, .name = "Left/Right, Space",
	  .run = planner_choose, .help = "change a choice (the level, the workload, the controller)" },
	{ .name = "typing",
	  .help = "fills a goal (500G, 2T; empty: no goal), taken and refused as 'plan' takes its "
		  "options, with its sentences: Tolerates empty is one failure, 0 none; a Stroke "
		  "(25% or 0.25) evaluates the one layout of the level chosen" },
	{ .key = TK_BACKSPACE, .name = "Backspace", .run = planner_erase,
	  .help = "erase what was typed in a goal" },
	{ .key = TK_PGUP, .more = { TK_PGDN }, .name = "PgUp/PgDn", .run = planner_layout,
	  .help = "pick a layout" },
	{ .key = 's', .more = { TK_ENTER }, .name = "s, Enter", .run = planner_save_key,
	  .help = "save the chosen layout as a plan file" },
	{ .key = 'A' - '@', .more = { 'a' }, .name = "^A, a", .run = planner_apply,
	  .help = "apply it: the array's name, a filesystem, every member's serial typed, then "
		  "the apply with a bar per member (a: on a choice field)" },
	{ .key = 'N' - '@', .name = "^N", .act = tui_planner_notes,
	  .help = "every note on the drives, in a report (the screen shows those that fit)" },
	{ .key = 'q', .more = { TK_ESC }, .name = "q, Esc", .run = planner_done,
	  .help = "close the planner" },
	{ .name = NULL },
};

/* Esc among the first that an 80-column bar shows */
static const struct tui_keylabel planner_bar[] = {
	{ "Tab", "field", TK_TAB },   { "Left/Right", "choose", 0 }, { "PgUp/PgDn", "layout", 0 },
	{ "s", "save", 's' },	      { "^A", "apply", 'A' - '@' },  { "Esc", "close", TK_ESC },
	{ "^N", "notes", 'N' - '@' },
};
/* clang-format on */

/* A key to the planner: its table's, else typed into the goal (a text
 * field; a choice changes by Left/Right or Space). */
static enum tui_action planner_key(struct tui_model *m, void *data, int key)
{
	struct tui_planner *p = data;
	char *t = p->text[p->field];
	size_t len = strlen(t);
	enum tui_action a = tui_keys_run(m, planner_keys, data, key);

	if (a != TUI_NONE)
		return a; /* a key its line leaves (a on a text field) is typed */
	if (is_choice(p->field) || key < 0x21 || key >= 0x7f || len + 1 >= sizeof(p->text[0]))
		return TUI_NONE;
	t[len] = (char)key;
	t[len + 1] = '\0';
	p->chosen = 0;
	tui_planner_update(p);
	return TUI_REDRAW;
}

static void planner_close(void *data)
{
	tui_planner_free(data);
}

const struct tui_screen_ops tui_planner_screen = {
	.title = "The planner (p)",
	.keys = planner_keys,
	.bar = planner_bar,
	.nbar = sizeof(planner_bar) / sizeof(planner_bar[0]),
	.key = planner_key,
	.draw = tui_draw_planner,
	.close = planner_close,
};
