/* actions.c - the drive table's screen: its keys (the table the help lists)
 * and what they start. Each action builds dialogs and jobs on the model;
 * none of it touches curses (view.c draws the table). */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shortstroke/enclosure.h"
#include "shortstroke/smart.h"
#include "shortstroke/units.h"
#include "form.h"
#include "tui.h"

#define MAX_TARGETS 64

static enum tui_action act_power_cycle(struct tui_model *m)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct ss_error err = { 0 };
	char skipped[320] = "";
	size_t used = 0;
	unsigned done = 0;

	if (!n)
		return TUI_NONE;
	if (device_power_cycle(m->ctx, NULL, true, &err))
		return tui_alert(m, "Power cycle",
				 "Only simulated drives can be power-cycled "
				 "from here: %s",
				 err.msg);
	for (size_t i = 0; i < n; i++) {
		const char *spec = m->devs[idx[i]].spec;
		bool can = !device_power_cycle(m->ctx, spec, true, &err);
		const char *why = !can			  ? "not a simulated drive"
				  : tui_task_for(m, spec) ? "a job is running on it"
							  : NULL;

		if (why) {
			if (used < sizeof(skipped))
				used += (size_t)snprintf(skipped + used, sizeof(skipped) - used,
							 "%s%s: %s", used ? "; " : "", spec, why);
			continue;
		}
		if (device_power_cycle(m->ctx, spec, false, &err))
			return tui_alert(m, "Power cycle", "%s: %s", spec, err.msg);
		done++;
	}
	tui_status(m, "%u simulated drive%s power-cycled", done, done == 1 ? "" : "s");
	if (skipped[0])
		tui_alert(m, "Power cycle", "%u power-cycled. Not power-cycled: %s", done, skipped);
	return TUI_RESCAN;
}

/* The locate LED of the selected (or marked) drives' enclosure slots, each
 * turned over (on where it was off), as 'shortstroke locate' sets it. */
static enum tui_action act_locate(struct tui_model *m)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	char said[400] = "", where[300];
	size_t used = 0;

	for (size_t i = 0; i < n; i++) {
		const struct dev_entry *e = &m->devs[idx[i]];
		struct ss_error err = { 0 };
		struct encl_slot s;

		if (encl_find(m->ctx, e, &s, &err) ||
		    encl_set_leds(m->ctx, &s, !s.st.ident, -1, &err))
			return tui_alert(m, "Locate", "%s", err.msg);
		encl_slot_text(&s, where, sizeof(where));
		if (used < sizeof(said))
			used += (size_t)snprintf(said + used, sizeof(said) - used, "%s%s %s",
						 used ? "; " : "", where,
						 s.st.ident ? "on" : "off");
	}
	if (n)
		tui_status(m, "locate LED: %s", said);
	return TUI_REDRAW;
}

/* ---- self-test: a job on the drive with a progress bar --------------------------- */

struct st_op {
	struct drive *d;
	struct dev_entry e;
	enum selftest_kind kind;
	atomic_bool abort;	 /* set by the abort key: stop it inside the drive too */
	struct tui_batch *batch; /* the summary it ends in */
};

static int st_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct st_op *op = arg;
	int rc;

	rc = selftest_wait(op->d, &op->e.info, op->kind, sink, err);
	if (rc != -ECANCELED || !atomic_load(&op->abort))
		return rc;
	rc = selftest_abort(op->d, &op->e.info, err);
	if (rc)
		return rc;
	return ss_error_set(err, -ECANCELED, "%s: the %s self-test was aborted on the drive",
			    op->e.spec, selftest_kind_name(op->kind));
}

static void st_abort(struct tui_task *t)
{
	struct st_op *op = t->arg;

	atomic_store(&op->abort, true);
	job_cancel(t->job);
}

static void st_finish(struct tui_model *m, struct tui_task *t, int rc, const struct ss_error *err)
{
	struct st_op *op = t->arg;
	char done[200];

	snprintf(done, sizeof(done), "%s self-test completed without error",
		 selftest_kind_name(op->kind));
	tui_batch_ended(m, op->batch, op->e.spec, rc, rc ? err->msg : done);
	drive_free(op->d);
	free(op);
}

/* Start the test on one drive (one command, on this thread, so that a
 * refusal shows in the dialog) and a job that watches it, in batch b. */
static int st_start_one(struct tui_model *m, const char *spec, enum selftest_kind kind,
			struct tui_batch *b, struct ss_error *err)
{
	struct st_op *op;
	int rc;

	if (tui_task_for(m, spec))
		return ss_error_set(err, -EBUSY, "%s: a job is running on it", spec);
	op = calloc(1, sizeof(*op));
	if (!op)
		return ss_error_nomem(err);
	op->kind = kind;
	op->batch = b;
	atomic_init(&op->abort, false);
	rc = device_open(m->ctx, spec, false, &op->d, &op->e, err);
	if (!rc)
		rc = selftest_start(op->d, &op->e.info, kind, err);
	if (!rc && tui_task_start(m, spec, "self-test", st_job, op, st_finish))
		rc = ss_error_set(err, -EBUSY, "%s: cannot start a job", spec);
	if (rc) {
		drive_free(op->d);
		free(op);
		return rc;
	}
	tui_task_for(m, spec)->abort = st_abort;
	tui_batch_add(b, spec);
	return 0;
}

/* The self-tests each target has, read when the dialog opens (by name: a
 * rescan may reorder the table meanwhile). */
struct st_flow {
	size_t n;
	char spec[MAX_TARGETS][256];
	struct selftest_caps caps[MAX_TARGETS];
};

static const enum selftest_kind st_kinds[] = { SELFTEST_SHORT, SELFTEST_EXTENDED,
					       SELFTEST_CONVEYANCE };
static const char *const st_names[] = { "short", "long", "conveyance" };

static enum tui_action st_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct st_flow *f = d->arg;
	const char *name = tui_field_choice(&d->form->f[0]);
	enum selftest_kind kind = SELFTEST_SHORT;
	char failed[sizeof(d->error)] = "", what[48];
	size_t used = 0;
	unsigned started = 0;
	struct tui_batch *b;

	for (size_t k = 0; k < 3; k++)
		if (!strcmp(name, st_names[k]))
			kind = st_kinds[k];
	snprintf(what, sizeof(what), "%s self-test", selftest_kind_name(kind));
	b = tui_batch_new(what, "Self-test", 't');
	for (size_t i = 0; i < f->n; i++) {
		struct ss_error err = { 0 };
		const char *why = f->caps[i].why_not[kind];

		if (!f->caps[i].has[kind])
			ss_error_set(&err, -EOPNOTSUPP, "%s", why);
		else if (!st_start_one(m, f->spec[i], kind, b, &err)) {
			started++;
			continue;
		}
		tui_batch_ended(m, b, f->spec[i], err.code ? err.code : -EIO, err.msg);
		if (used < sizeof(failed))
			used += (size_t)snprintf(failed + used, sizeof(failed) - used, "%s%s",
						 used ? "; " : "", err.msg);
	}
	if (!started) { /* nothing runs: the dialog stays, for another kind */
		tui_batch_free(b);
		return tui_dialog_error(d, "%s", failed);
	}
	m->dlg = NULL; /* the caller frees d */
	if (failed[0])
		tui_status(m, "%s started on %u of %zu drives (the others: see why)", what, started,
			   f->n);
	else
		tui_status(m, "%s started on %u drive%s", what, started, started == 1 ? "" : "s");
	if (failed[0]) /* said now too: the summary comes when the tests have run */
		tui_notice(m, "Self-test", "Started on %u of %zu drives. Not started: %s", started,
			   f->n, failed);
	tui_batch_seal(m, b);
	return TUI_REDRAW;
}

static enum tui_action act_selftest(struct tui_model *m)
{
	size_t idx[MAX_TARGETS];
	struct st_flow *f;
	struct tui_dialog *d;
	struct tui_form *fm;
	struct tui_field *x;
	char hint[240], mins[3][32];

	if (!m->n)
		return TUI_NONE;
	f = calloc(1, sizeof(*f));
	fm = f ? tui_form_open(m, "SMART self-test", f, free, st_submit) : NULL;
	if (!fm)
		return f ? TUI_REDRAW : tui_alert(m, "Self-test", "out of memory");
	d = m->dlg;
	f->n = tui_targets(m, idx, MAX_TARGETS);
	memset(mins, 0, sizeof(mins));
	for (size_t i = 0; i < f->n; i++) {
		const char *spec = f->spec[i];
		struct selftest_caps *c = &f->caps[i];
		struct ss_error err = { 0 };
		struct drive *dr = NULL;
		struct dev_entry e;

		snprintf(f->spec[i], sizeof(f->spec[i]), "%s", m->devs[idx[i]].spec);
		/* a drive a job runs on is not sent anything now: st_start_one says why */
		c->has[SELFTEST_SHORT] = c->has[SELFTEST_EXTENDED] = c->has[SELFTEST_CONVEYANCE] =
		    true;
		if (tui_task_for(m, spec))
			continue;
		if (device_open(m->ctx, spec, false, &dr, &e, &err) ||
		    selftest_caps(dr, &e.info, c, &err))
			for (size_t k = 0; k < 3; k++) {
				c->has[st_kinds[k]] = false;
				snprintf(c->why_not[st_kinds[k]], sizeof(c->why_not[0]), "%s",
					 err.msg);
			}
		drive_free(dr);
		for (size_t k = 0; k < 3; k++)
			if (c->minutes[st_kinds[k]] && !mins[k][0])
				snprintf(mins[k], sizeof(mins[k]), ", about %u min",
					 c->minutes[st_kinds[k]]);
	}
	snprintf(hint, sizeof(hint),
		 "short%s; long: the whole surface%s; conveyance (ATA): transport damage%s. "
		 "The drives run it inside; a aborts it, q leaves it running.",
		 mins[0][0] ? mins[0] : ", about 2 min", mins[1], mins[2]);
	x = tui_form_choice(fm, "Kind", hint);
	for (size_t k = 0; k < 3; k++) {
		char why[400] = "";
		size_t used = 0;
		bool any = false;

		/* offered when one drive has it; the others say why when it starts */
		for (size_t i = 0; i < f->n; i++) {
			any |= f->caps[i].has[st_kinds[k]];
			if (!f->caps[i].has[st_kinds[k]] && used < sizeof(why))
				used += (size_t)snprintf(why + used, sizeof(why) - used, "%s%s",
							 used ? "; " : "",
							 f->caps[i].why_not[st_kinds[k]]);
		}
		tui_field_option(x, st_names[k], any ? NULL : why);
	}
	tui_dialog_line(d, "Runs on the selected (or marked) drives, inside each drive (it "
			   "reads only); progress shows in the table.");
	return TUI_REDRAW;
}

/* ---- the abort key and quitting while jobs run ------------------------------------ */

static bool said_yes(const char *t)
{
	return !strcasecmp(t, "y") || !strcasecmp(t, "yes");
}

/* One line about a running job, e.g. sim:sata250: self-test 40% 1 h 12 min left */
static void task_line(struct tui_task *t, char *buf, size_t len)
{
	struct job_status st;
	char eta[24] = "";

	job_status(t->job, &st);
	if (st.eta_s >= 0)
		duration_human(st.eta_s, eta, sizeof(eta));
	snprintf(buf, len, "%s: %s %.0f%%%s%s", t->spec, t->what, st.fraction * 100.0,
		 eta[0] ? ", left " : "", eta);
}

/* The specs the abort dialog was opened on (the jobs may end meanwhile). */
struct abort_list {
	size_t n;
	char spec[MAX_TARGETS][256];
};

static enum tui_action abort_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct abort_list *l = d->arg;
	unsigned done = 0;

	if (!said_yes(d->text)) {
		m->dlg = NULL;
		tui_status(m, "nothing aborted");
		return TUI_REDRAW;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct tui_task *t = tui_task_for(m, l->spec[i]);

		if (!t || t->no_abort[0])
			continue;
		if (t->abort)
			t->abort(t);
		else
			job_cancel(t->job);
		done++;
	}
	m->dlg = NULL;
	tui_status(m, "aborting %u job%s...", done, done == 1 ? "" : "s");
	return TUI_REDRAW;
}

static enum tui_action act_abort(struct tui_model *m)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct abort_list *l;
	struct tui_dialog *d;
	char line[200], why[320] = "";
	size_t used = 0;

	if (!n)
		return TUI_NONE;
	l = calloc(1, sizeof(*l));
	if (!l)
		return tui_alert(m, "Abort", "out of memory");
	d = tui_dialog_new("Abort jobs");
	for (size_t i = 0; i < n; i++) {
		struct tui_task *t = tui_task_for(m, m->devs[idx[i]].spec);

		if (!t)
			continue;
		if (t->no_abort[0]) {
			if (used < sizeof(why))
				used += (size_t)snprintf(why + used, sizeof(why) - used, "%s%s: %s",
							 used ? "; " : "", t->spec, t->no_abort);
			continue;
		}
		task_line(t, line, sizeof(line));
		if (l->n < TUI_DIALOG_LINES - 3)
			tui_dialog_line(d, "%s", line);
		snprintf(l->spec[l->n++], sizeof(l->spec[0]), "%s", t->spec);
	}
	if (!l->n) {
		free(l);
		tui_dialog_free(d);
		if (why[0])
			return tui_alert(m, "Abort", "%s", why);
		return tui_alert(m, "Abort", "No job is running on %s.",
				 n == 1 ? m->devs[idx[0]].spec : "the marked drives");
	}
	tui_dialog_line(d, "A self-test is stopped inside the drive; a benchmark or a");
	tui_dialog_line(d, "qualification stops here.");
	if (why[0])
		tui_dialog_error(d, "Not aborted: %s", why);
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Abort %s? [y/N]:", l->n == 1 ? "it" : "them");
	d->submit = abort_submit;
	d->arg = l;
	d->free_arg = free;
	m->dlg = d;
	return TUI_REDRAW;
}

static enum tui_action quit_submit(struct tui_model *m, struct tui_dialog *d)
{
	if (said_yes(d->text))
		return TUI_QUIT;
	m->dlg = NULL;
	tui_status(m, "not quitting: %u job%s running", m->ntasks, m->ntasks == 1 ? "" : "s");
	return TUI_REDRAW;
}

enum tui_action tui_quit(struct tui_model *m)
{
	struct tui_dialog *d;
	char line[200];
	unsigned shown = 0;

	if (!m->ntasks)
		return TUI_QUIT;
	for (unsigned i = 0; i < m->ntasks; i++)
		if (m->tasks[i].no_abort[0])
			return tui_alert(m, "Jobs are running",
					 "%s: a %s is running and cannot be left: %s. Quit once it "
					 "has ended.",
					 m->tasks[i].spec, m->tasks[i].what, m->tasks[i].no_abort);
	d = tui_dialog_new("Quit while jobs run?");
	for (unsigned i = 0; i < m->ntasks; i++) {
		if (shown >= TUI_DIALOG_LINES - 4)
			break;
		task_line(&m->tasks[i], line, sizeof(line));
		tui_dialog_line(d, "%s", line);
		shown++;
	}
	if (shown < m->ntasks)
		tui_dialog_line(d, "... and %u more", m->ntasks - shown);
	tui_dialog_line(d, "Self-tests go on inside the drives ('shortstroke selftest");
	tui_dialog_line(d, "--status' shows them, '--abort' stops them); the rest stops.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Quit? [y/N]:");
	d->submit = quit_submit;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

/* ---- the keys of the drive table ------------------------------------------------ */

static enum tui_action key_move(struct tui_model *m, void *data, int key)
{
	(void)data;
	if (key == TK_UP || key == 'k' || key == TK_DOWN || key == 'j')
		tui_model_move(m, key == TK_UP || key == 'k' ? -1 : 1);
	else if (key == TK_HOME || key == 'g' || key == TK_END || key == 'G')
		tui_model_move(m, key == TK_HOME || key == 'g' ? -(long)m->n : (long)m->n);
	else
		tui_model_move(m, tui_page_step(key, m->page));
	return TUI_REDRAW;
}

static enum tui_action key_mark(struct tui_model *m)
{
	if (m->n && m->marked && (m->nview || !m->view)) { /* never a hidden one */
		m->marked[m->sel] = !m->marked[m->sel];
		if (m->failmark) /* the user's mark now */
			m->failmark[m->sel] = false;
		tui_model_move(m, 1);
	}
	return TUI_REDRAW;
}

static enum tui_action key_detail(struct tui_model *m)
{
	return m->scanned ? tui_detail_open(m) : TUI_NONE;
}

static enum tui_action key_rescan(struct tui_model *m)
{
	(void)m;
	return TUI_RESCAN;
}

static enum tui_action key_redraw(struct tui_model *m)
{
	(void)m;
	return TUI_REDRAW;
}

static enum tui_action key_help(struct tui_model *m)
{
	return tui_help_open(m, &tui_main_screen);
}

/* Esc: a filter kept with Enter goes. */
static enum tui_action key_unfilter(struct tui_model *m)
{
	return m->filter[0] ? tui_filter_clear(m) : TUI_NONE;
}

/* A key table reads a key a line or two (clang-format would put each field
 * of a designated initializer on a line of its own). */
/* clang-format off */
static const struct tui_key main_keys[] = {
	{ .key = TK_UP, .more = { 'k', TK_DOWN, 'j' }, .name = "Up/Down, j/k", .run = key_move,
	  .help = "move the selection (the mouse: click a row)" },
	{ .key = TK_HOME, .more = { 'g', TK_END, 'G' }, .name = "Home/End, g/G", .run = key_move,
	  .help = "first / last drive" },
	{ .key = TK_PGUP, .more = { TK_PGDN }, .name = "PgUp/PgDn", .run = key_move,
	  .help = "a page of drives up / down (the mouse wheel: three)" },
	{ .key = TK_ENTER, .name = "Enter", .act = key_detail,
	  .help = "every detail of the selected drive (what 'shortstroke info' prints)" },
	{ .key = ' ', .name = "Space", .act = key_mark,
	  .help = "mark / unmark a drive (actions apply to marked)" },
	{ .key = 'R', .more = { TK_F5 }, .name = "R, F5", .act = key_rescan,
	  .help = "rescan the drives" },
	{ .key = 'l', .name = "l", .act = tui_limit_open, .drives = true,
	  .help = "limit the selected (or marked) drives (a preview, then the serial)" },
	{ .key = 'r', .name = "r", .act = tui_restore_open, .drives = true,
	  .help = "restore the selected (or marked) drives (a preview, then the serial)" },
	{ .key = 's', .name = "s", .act = tui_report_smart, .drives = true,
	  .help = "SMART report of the selected drive (what 'smart -a -l' prints)" },
	{ .key = 't', .name = "t", .act = act_selftest, .drives = true,
	  .help = "start a self-test on the selected (or marked) drives" },
	{ .key = 'z', .name = "z", .act = tui_report_zones, .drives = true,
	  .help = "zones of the selected drive (ZBC/ZAC zones, recording zones): what "
		  "'zones --measure' prints, no notch list of a disk in use or protected" },
	{ .key = 'p', .name = "p", .act = tui_planner_open, .drives = true,
	  .help = "plan an array of the selected (or marked) drives: goals, layouts, save" },
	{ .key = 'A', .name = "A", .act = tui_arrays_open,
	  .help = "the arrays shortstroke created (planner a applies a layout): members, "
		  "state, stroke; u undoes one" },
	{ .key = 'b', .name = "b", .act = tui_bench_start, .drives = true,
	  .help = "benchmark the selected (or marked) drives, against their last run" },
	{ .key = 'Q', .name = "Q", .act = tui_qualify_start, .drives = true,
	  .help = "qualify the selected (or marked) drives (read-only checks)" },
	{ .key = 'P', .name = "P", .act = act_power_cycle, .drives = true,
	  .help = "power-cycle simulated drives (volatile limits go)" },
	{ .key = 'e', .name = "e", .act = act_locate, .drives = true,
	  .help = "the locate LED of the selected (or marked) drives' enclosure slots: on, or "
		  "off where it is on (SES, as 'shortstroke locate')" },
	{ .key = 'a', .name = "a", .act = act_abort, .drives = true,
	  .help = "abort the job on the selected (or marked) drives (a self-test stops "
		  "inside the drive; a format cannot be aborted)" },
	{ .key = 'L', .name = "L", .act = tui_log_open,
	  .help = "every command sent to a drive this session, as -v prints it" },
	{ .key = 'd', .name = "d", .act = tui_detail_toggle,
	  .help = "hide / show the detail pane (the table takes the screen)" },
	/* many disks (select.c) */
	{ .key = '>', .name = ">", .act = tui_sort_next,
	  .help = "sort by the next column to the right (after the last: as scanned)" },
	{ .key = '<', .name = "<", .act = tui_sort_prev,
	  .help = "sort by the next column to the left" },
	{ .key = 'I', .name = "I", .act = tui_sort_invert,
	  .help = "invert the sort order" },
	{ .key = '/', .more = { TK_F4 }, .name = "/, F4", .act = tui_filter_start,
	  .help = "filter as you type (model, serial, WWN, state, transport, device); "
		  "Enter keeps it, Esc clears it" },
	{ .key = TK_ESC, .name = "Esc", .act = key_unfilter,
	  .help = "clear the filter kept with Enter" },
	{ .key = '*', .name = "*", .act = tui_mark_shown,
	  .help = "mark every drive the filter shows" },
	{ .key = 'i', .name = "i", .act = tui_mark_invert,
	  .help = "invert the marks of the drives shown" },
	{ .key = 'U', .name = "U", .act = tui_mark_none,
	  .help = "unmark every drive" },
	{ .key = 'C', .more = { TK_F2 }, .name = "C, F2", .act = tui_setup_open,
	  .help = "Setup: the table's columns (shown, order), kept in tui.conf" },
	{ .key = '?', .more = { 'h' }, .name = "?, h", .act = key_help,
	  .help = "this help (q, Esc or any other key closes it)" },
	{ .key = 'L' - '@', .name = "^L", .act = key_redraw,
	  .help = "redraw the screen" },
	{ .key = 'q', .more = { 'Q' - '@' }, .name = "q, ^Q, ^C", .act = tui_quit,
	  .help = "quit (with jobs running: asks first; self-tests go on inside the drives)" },
	{ .name = NULL },
};

/* the key bar, the most used first: what does not fit is in the help */
static const struct tui_keylabel main_bar[] = {
	{ "?", "help", '?' },	   { "j/k", "move", 0 },    { "Space", "mark", ' ' },
	{ "l", "limit", 'l' },	   { "r", "restore", 'r' }, { "b", "bench", 'b' },
	{ "s", "SMART", 's' },	   { "q", "quit", 'q' },    { "Q", "qualify", 'Q' },
	{ "t", "self-test", 't' }, { "z", "zones", 'z' },   { "p", "plan", 'p' },
	{ "/", "filter", '/' },	   { ">", "sort", '>' },    { "*", "mark shown", '*' },
	{ "L", "log", 'L' },	   { "d", "detail", 'd' },  { "C", "columns", 'C' },
	{ "R", "rescan", 'R' },
};
/* clang-format on */

/* A key to the drive table: to the filter first while it is typed. */
static enum tui_action main_key(struct tui_model *m, void *data, int key)
{
	if (m->filtering) {
		enum tui_action a = tui_filter_key(m, key);

		/* what it does not take (moves, ^Q) goes to the table's keys */
		if (a != TUI_NONE)
			return a;
	}
	return tui_keys_run(m, main_keys, data, key);
}

const struct tui_screen_ops tui_main_screen = {
	.title = "The drive table",
	.keys = main_keys,
	.bar = main_bar,
	.nbar = sizeof(main_bar) / sizeof(main_bar[0]),
	.about = "The detail pane shows what 'shortstroke info' prints for the selected drive. "
		 "STATE tells whether a drive is free to change, in use (mounted, a RAID/LVM "
		 "member, has partitions) or protected (listed in the protect file); a running "
		 "job shows its progress.",
	.key = main_key,
	.draw = tui_draw_main,
	.click = tui_main_click,
};
