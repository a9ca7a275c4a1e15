/* model.c - what the TUI shows, refreshed without curses: the marks, the
 * dialogs, the jobs on drives, the pager and the help box (screens of the
 * stack, stack.c), the key that goes to the screen in focus (the drive list
 * comes from the rescan job, jobs.c). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "front/drives.h"
#include "tui.h"

static bool tui_tasks_poll(struct tui_model *m);

const struct tui_col tui_cols[] = {
	{ "DEVICE", 0 },  { "TRAN", 0 },     { "MODEL", 0 }, { "SERIAL", 118 }, { "SIZE", 0 },
	{ "NATIVE", 90 }, { "LIMITED", 60 }, { "RPM", 100 }, { "STATE", 0 },	{ NULL, 0 },
};

struct table *tui_drive_table(struct ss_error *err)
{
	char names[256];
	size_t used = 0;
	struct table *t;

	names[0] = '\0';
	for (const struct tui_col *c = tui_cols; c->name && used < sizeof(names); c++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
					 used ? "," : "", c->name);
	t = table_new(drive_cols, DRV_COUNT, names, NULL, err);
	if (!t)
		ss_error_prefix(err, "the drive table: ");
	return t;
}

void tui_model_fini(struct tui_model *m)
{
	for (unsigned i = 0; i < m->ntasks; i++) {
		job_cancel(m->tasks[i].job);
		job_wait(m->tasks[i].job, NULL);
	}
	while (m->ntasks)
		tui_tasks_poll(m);
	tui_bg_stop_all(m, 2.0);
	tui_dialog_free(m->dlg);
	m->dlg = NULL;
	while (m->queued) {
		struct tui_dialog *d = m->queued;

		m->queued = d->next;
		tui_dialog_free(d);
	}
	tui_screen_close_all(m);
	free(m->view);
	m->view = NULL;
	m->nview = 0;
	free(m->devs);
	free(m->marked);
	free(m->failmark);
	free(m->health);
	table_free(m->drives);
	m->drives = NULL;
	m->devs = NULL;
	m->marked = NULL;
	m->failmark = NULL;
	m->health = NULL;
	m->n = 0;
}

/* Moves in the order shown (sorted, filtered). */
void tui_model_move(struct tui_model *m, long delta)
{
	long s;

	if (m->n == 0 || m->nview == 0)
		return;
	s = (long)tui_view_pos(m) + delta;
	if (s < 0)
		s = 0;
	if (s >= (long)m->nview)
		s = (long)m->nview - 1;
	m->sel = m->view[s];
}

void tui_status(struct tui_model *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->status, sizeof(m->status), fmt, ap);
	va_end(ap);
}

/* ---- dialogs ---------------------------------------------------------------- */

struct tui_dialog *tui_dialog_new(const char *title)
{
	struct tui_dialog *d = calloc(1, sizeof(*d));

	if (d)
		snprintf(d->title, sizeof(d->title), "%s", title);
	return d;
}

void tui_dialog_line(struct tui_dialog *d, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	tui_lines_vadd(&d->lines, fmt, ap);
	va_end(ap);
}

void tui_dialog_free(struct tui_dialog *d)
{
	if (!d)
		return;
	if (d->busy) {
		/* its submit is still running (an alert replaced it): the key
		 * handler frees it when submit returns */
		d->dead = true;
		return;
	}
	if (d->free_arg)
		d->free_arg(d->arg);
	tui_form_free(d->form);
	tui_lines_clear(&d->lines);
	free(d);
}

enum tui_action tui_dialog_error(struct tui_dialog *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->error, sizeof(d->error), fmt, ap);
	va_end(ap);
	d->alert = true;
	return TUI_REDRAW;
}

enum tui_action tui_alert(struct tui_model *m, const char *title, const char *fmt, ...)
{
	struct tui_dialog *d = tui_dialog_new(title);
	va_list ap;

	if (!d)
		return TUI_REDRAW;
	va_start(ap, fmt);
	vsnprintf(d->error, sizeof(d->error), fmt, ap); /* drawn wrapped to the box */
	va_end(ap);
	d->alert = true;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

void tui_notice_dialog(struct tui_model *m, struct tui_dialog *d)
{
	struct tui_dialog **at = &m->queued;

	if (!d)
		return;
	if (!m->dlg) {
		m->dlg = d;
		return;
	}
	while (*at)
		at = &(*at)->next;
	*at = d;
}

void tui_notice(struct tui_model *m, const char *title, const char *fmt, ...)
{
	struct tui_dialog *d = tui_dialog_new(title);
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	vsnprintf(d->error, sizeof(d->error), fmt, ap);
	va_end(ap);
	d->alert = true;
	tui_notice_dialog(m, d);
}

long tui_page_step(int key, size_t page)
{
	long p = page ? (long)page : 1;

	return key == TK_PGUP ? -p : p;
}

/* A text's first row shown after a key (Up/k, Down/j a row, PgUp/PgDn and
 * Space a page, Home/g, End/G the ends), within 0..max; other keys leave it. */
static void tui_scroll(size_t *top, size_t max, size_t page, int key)
{
	long t = (long)*top;

	switch (key) {
	case TK_UP:
	case 'k':
		t--;
		break;
	case TK_DOWN:
	case 'j':
		t++;
		break;
	case TK_HOME:
	case 'g':
		t = 0;
		break;
	case TK_END:
	case 'G':
		t = (long)max;
		break;
	case TK_PGUP:
	case TK_PGDN:
	case ' ':
		t += tui_page_step(key == ' ' ? TK_PGDN : key, page);
		break;
	default:
		return;
	}
	*top = t < 0 ? 0 : t > (long)max ? max : (size_t)t;
}

/* A key to the dialog (m->dlg is data): a resize redraws it where it is. */
static enum tui_action dialog_key(struct tui_model *m, void *data, int key)
{
	struct tui_dialog *d = data;
	size_t len = strlen(d->text);
	enum tui_action a;

	if (!d->form && d->top_max &&
	    (key == TK_UP || key == TK_DOWN || key == TK_PGUP || key == TK_PGDN || key == TK_HOME ||
	     key == TK_END || (!d->input && (key == 'j' || key == 'k')))) {
		/* its text does not fit: it scrolls (j/k too where nothing is typed) */
		tui_scroll(&d->top, d->top_max, d->page, key);
		return TUI_REDRAW;
	}
	if (key == TK_ESC || (!d->input && !d->submit)) {
		m->dlg = NULL;
		tui_dialog_free(d);
		return TUI_REDRAW;
	}
	if (d->form && key != TK_ENTER)
		return tui_form_key(d, key);
	if (d->form)
		d->alert = false; /* a refusal of the last Enter is said again if it holds */
	if (key == TK_ENTER) {
		if (!d->submit) {
			m->dlg = NULL;
			tui_dialog_free(d);
			return TUI_REDRAW;
		}
		d->error[0] = '\0';
		if (d->form && tui_form_resolve(d))
			return TUI_REDRAW;
		d->busy = true;
		a = d->submit(m, d);
		d->busy = false;
		if (m->dlg == d && d->dead)
			m->dlg = NULL;
		if (m->dlg != d)
			tui_dialog_free(d);
		return a == TUI_NONE ? TUI_REDRAW : a;
	}
	if (!d->input)
		return TUI_NONE;
	if (key == TK_BACKSPACE) {
		if (len)
			d->text[len - 1] = '\0';
		return TUI_REDRAW;
	}
	if (key >= 0x20 && key < 0x7f && len + 1 < sizeof(d->text)) {
		d->text[len] = (char)key;
		d->text[len + 1] = '\0';
		return TUI_REDRAW;
	}
	return TUI_NONE;
}

/* What dialog_key does with the keys (a dialog and a form answer from it
 * rather than from their tables, which the help and the man page list;
 * test_tui_screen checks that each key listed is taken). */
/* clang-format off */
static const struct tui_key dialog_keys[] = {
	{ .key = TK_ENTER, .name = "Enter", .help = "go on (a message: close it)" },
	{ .key = TK_ESC, .name = "Esc", .help = "cancel: nothing has been sent" },
	{ .key = TK_BACKSPACE, .name = "Backspace", .help = "erase what was typed" },
	{ .key = TK_UP, .more = { TK_DOWN, TK_PGUP, TK_PGDN }, .name = "Up/Down, PgUp/PgDn",
	  .help = "scroll a text longer than the screen, a line or a page (j/k too where "
		  "nothing is typed; its frame says which lines show)" },
	{ .key = TK_HOME, .more = { TK_END }, .name = "Home/End",
	  .help = "its first lines, its last" },
	{ .name = "any other key", .help = "close a message that asks nothing" },
	{ .name = NULL },
};

static const struct tui_key form_keys[] = {
	{ .key = TK_TAB, .more = { TK_DOWN, TK_BTAB, TK_UP }, .name = "Tab/Down, Shift-Tab/Up",
	  .help = "the next field, the one before" },
	{ .key = TK_LEFT, .more = { TK_RIGHT, ' ' }, .name = "Left/Right, Space",
	  .help = "change a choice or a box" },
	{ .key = 'y', .more = { 'n', 'x' }, .name = "y/n, x",
	  .help = "tick a box, clear it, turn it over" },
	{ .name = "typing", .help = "replaces a field's default; a choice's name picks it" },
	{ .key = TK_BACKSPACE, .name = "Backspace", .help = "erase what was typed" },
	{ .key = TK_PGUP, .more = { TK_PGDN }, .name = "PgUp/PgDn", .help = "scroll the preview" },
	{ .key = TK_ENTER, .name = "Enter",
	  .help = "go on (an option that is not offered, or a value that does not parse, is "
		  "refused in the form, which stays open)" },
	{ .key = TK_ESC, .name = "Esc", .help = "cancel: nothing has been sent" },
	{ .name = NULL },
};
/* clang-format on */

const struct tui_screen_ops tui_dialog_screen = {
	.title = "A dialog",
	.flags = TUI_SCREEN_OVERLAY,
	.keys = dialog_keys,
	.key = dialog_key,
	.draw = tui_draw_dialog,
};

const struct tui_screen_ops tui_form_screen = {
	.title = "A form (l, r, t, b, Q)",
	.flags = TUI_SCREEN_OVERLAY,
	.keys = form_keys,
	.key = dialog_key,
	.draw = tui_draw_dialog,
};

/* ---- jobs ------------------------------------------------------------------- */

struct tui_task *tui_task_for(struct tui_model *m, const char *spec)
{
	for (unsigned i = 0; i < m->ntasks; i++)
		if (!strcmp(m->tasks[i].spec, spec))
			return &m->tasks[i];
	return NULL;
}

int tui_task_start(struct tui_model *m, const char *spec, const char *what, job_fn fn, void *arg,
		   void (*finish)(struct tui_model *, struct tui_task *, int,
				  const struct ss_error *))
{
	struct ss_error err = { 0 };
	struct tui_task *t;
	int rc;

	if (m->ntasks >= TUI_MAX_TASKS)
		return -EBUSY;
	t = &m->tasks[m->ntasks];
	memset(t, 0, sizeof(*t));
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	snprintf(t->what, sizeof(t->what), "%s", what);
	t->arg = arg;
	t->finish = finish;
	rc = job_start(spec, fn, arg, &t->job, &err);
	if (rc)
		return rc;
	m->ntasks++;
	return 0;
}

/* Reap ended jobs; true when something changed on screen. */
static bool tui_tasks_poll(struct tui_model *m)
{
	bool changed = false;

	for (unsigned i = 0; i < m->ntasks;) {
		struct tui_task t = m->tasks[i];
		struct job_status st;
		struct ss_error err = { 0 };
		int rc;

		job_status(t.job, &st);
		changed = true; /* progress moved */
		if (!st.done) {
			i++;
			continue;
		}
		rc = job_wait(t.job, &err);
		job_free(t.job);
		memmove(&m->tasks[i], &m->tasks[i + 1], (m->ntasks - i - 1) * sizeof(m->tasks[0]));
		m->ntasks--;
		if (t.finish)
			t.finish(m, &t, rc, &err);
	}
	if (!m->ntasks && m->rescan_pending)
		tui_model_refresh(m);
	return changed;
}

/* Only drives the table shows: a mark the filter hides is left out, so
 * that an action never reaches a disk that is not on the screen. */
size_t tui_targets(const struct tui_model *m, size_t *idx, size_t max)
{
	size_t k = 0;
	bool sel_shown = false;

	for (size_t v = 0; v < m->nview && k < max; v++) {
		size_t i = m->view[v];

		sel_shown |= i == m->sel;
		if (m->marked && m->marked[i])
			idx[k++] = i;
	}
	if (!m->view && m->n) /* no view yet: every row is shown */
		for (size_t i = 0; i < m->n && k < max; i++)
			if (m->marked && m->marked[i])
				idx[k++] = i;
	if (k == 0 && m->n && max && (sel_shown || !m->view))
		idx[k++] = m->sel;
	return k;
}

bool tui_targets_busy(struct tui_model *m)
{
	size_t idx[TUI_MAX_TASKS], n = tui_targets(m, idx, TUI_MAX_TASKS);

	for (size_t i = 0; i < n; i++) {
		if (!tui_task_for(m, m->devs[idx[i]].spec))
			continue;
		tui_alert(m, "Busy", "%s: a job is running on it; wait for it to end.",
			  m->devs[idx[i]].spec);
		return true;
	}
	return false;
}

/* ---- a job on each target ------------------------------------------------------ */

struct fanout {
	const struct tui_fanout_ops *ops;
	unsigned pending; /* jobs running, and one held while starting */
	unsigned started;
	void *flow;
	struct tui_batch *batch; /* how each drive ended: the summary */
};

struct fanout_op {
	struct fanout *f;
	void *op;
	char spec[256];
};

static int fanout_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct fanout_op *o = arg;

	return o->f->ops->run(o->op, sink, err);
}

/* One fewer pending; after the last, the run's end, then the summary. */
static void fanout_release(struct tui_model *m, struct fanout *f)
{
	if (--f->pending)
		return;
	if (f->batch)
		f->batch->results_shown = f->started != 0;
	f->ops->end(m, f->flow, f->started, f->batch);
	tui_batch_seal(m, f->batch);
	free(f->flow);
	free(f);
}

/* One drive's end. */
static void fanout_done(struct tui_model *m, struct fanout_op *o, int rc,
			const struct ss_error *err)
{
	struct fanout *f = o->f;
	char result[640] = "";

	f->ops->done(m, f->flow, o->op, rc, err, result, sizeof(result));
	tui_batch_ended(m, f->batch, o->spec, rc, rc ? err->msg : result);
	free(o->op);
	free(o);
	fanout_release(m, f);
}

static void fanout_finish(struct tui_model *m, struct tui_task *t, int rc,
			  const struct ss_error *err)
{
	fanout_done(m, t->arg, rc, err);
}

enum tui_action tui_fanout_start(struct tui_model *m, const struct tui_fanout_ops *ops, void *arg,
				 unsigned *started)
{
	size_t idx[TUI_MAX_TASKS], n = tui_targets(m, idx, TUI_MAX_TASKS);
	struct fanout *f;

	*started = 0;
	if (!n)
		return TUI_NONE;
	if (tui_targets_busy(m))
		return TUI_REDRAW;
	f = calloc(1, sizeof(*f));
	if (f)
		f->flow = calloc(1, ops->flow_size ? ops->flow_size : 1);
	if (!f || !f->flow) {
		free(f);
		return tui_alert(m, ops->title, "out of memory");
	}
	f->ops = ops;
	f->batch = tui_batch_new(ops->what, ops->title, ops->key);
	if (ops->setup)
		ops->setup(f->flow, arg);
	if (f->batch)
		f->batch->reads_only = !ops->changes || !ops->changes(f->flow);
	f->pending = 1; /* held while starting */
	for (size_t i = 0; i < n; i++) {
		const struct dev_entry *e = &m->devs[idx[i]];
		struct fanout_op *o = calloc(1, sizeof(*o));
		struct ss_error err = { 0 };
		int rc;

		if (o)
			o->op = calloc(1, ops->op_size);
		if (!o || !o->op || ops->prepare(m, f->flow, e, o->op, &err)) {
			/* left out: the summary says why */
			tui_batch_ended(m, f->batch, e->spec, err.code ? err.code : -ENOMEM,
					err.msg[0] ? err.msg : "out of memory");
			if (o)
				free(o->op);
			free(o);
			continue;
		}
		o->f = f;
		snprintf(o->spec, sizeof(o->spec), "%s", e->spec);
		f->pending++;
		tui_batch_add(f->batch, e->spec);
		rc = tui_task_start(m, e->spec, ops->what, fanout_job, o, fanout_finish);
		if (rc) {
			ss_error_set(&err, rc, "%s: cannot start the %s job", e->spec, ops->what);
			fanout_done(m, o, rc, &err);
			continue;
		}
		f->started++;
	}
	*started = f->started;
	fanout_release(m, f); /* the hold */
	return TUI_REDRAW;
}

/* ---- pager ------------------------------------------------------------------- */

static void tui_pager_free(struct tui_pager *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->lines[i]);
	free(p->lines);
	free(p);
}

void tui_pager_set_text(struct tui_pager *p, const char *text)
{
	const char *s = text;

	for (size_t i = 0; i < p->n; i++)
		free(p->lines[i]);
	free(p->lines);
	p->lines = NULL;
	p->n = 0;
	p->top = 0;
	while (*s) {
		size_t len = strcspn(s, "\n");
		char **nl = realloc(p->lines, (p->n + 1) * sizeof(*nl));

		if (!nl)
			break;
		p->lines = nl;
		p->lines[p->n] = strndup(s, len);
		if (!p->lines[p->n])
			break;
		p->n++;
		s += len;
		if (*s == '\n')
			s++;
	}
}

enum tui_action tui_pager_show(struct tui_model *m, struct tui_pager *p)
{
	struct tui_screen top = tui_screen_top(m);

	if (top.ops != &tui_pager_screen)
		return tui_screen_open(m, &tui_pager_screen, p);
	/* a report replaces the one on top: closing it goes back to what
	 * was under both */
	m->screens[m->nscreens - 1].data = p;
	tui_pager_free(top.data);
	return TUI_REDRAW;
}

void tui_pager_open(struct tui_model *m, const char *title, const char *text)
{
	struct tui_pager *p = calloc(1, sizeof(*p));

	if (!p)
		return;
	snprintf(p->title, sizeof(p->title), "%s", title);
	tui_pager_set_text(p, text);
	tui_pager_show(m, p);
}

static enum tui_action pager_scroll(struct tui_model *m, void *data, int key)
{
	struct tui_pager *p = data;

	(void)m;
	/* a page: the lines the screen showed (wrapped lines take more rows);
	 * the end: the last screenful, not the last line alone */
	tui_scroll(&p->top, p->top_max, p->page, key);
	return TUI_REDRAW;
}

static enum tui_action pager_done(struct tui_model *m, void *data, int key)
{
	struct tui_pager *p = data;

	(void)key;
	/* a report still being read is stopped; its result is dropped */
	tui_bg_cancel(p->loading);
	tui_screen_close(m, p);
	return TUI_REDRAW;
}

static void pager_close(void *data)
{
	tui_pager_free(data);
}

/* clang-format off */
static const struct tui_key pager_keys[] = {
	{ .key = TK_UP, .more = { 'k', TK_DOWN, 'j' }, .name = "Up/Down, j/k", .run = pager_scroll,
	  .help = "scroll a line" },
	{ .key = TK_PGUP, .more = { TK_PGDN, ' ' }, .name = "PgUp/PgDn, Space", .run = pager_scroll,
	  .help = "scroll a page (Space: down)" },
	{ .key = TK_HOME, .more = { 'g', TK_END, 'G' }, .name = "Home/End, g/G",
	  .run = pager_scroll, .help = "the first page, the last" },
	{ .key = 'q', .more = { TK_ESC, TK_ENTER }, .name = "q, Esc, Enter", .run = pager_done,
	  .help = "close it (a report still being read is stopped)" },
	{ .name = NULL },
};

static const struct tui_keylabel pager_bar[] = {
	{ "j/k", "scroll", 0 },	    { "PgUp", "page up", TK_PGUP }, { "PgDn", "page down", TK_PGDN },
	{ "g/G", "top/end", 0 },    { "q", "close", 'q' },
};
/* clang-format on */

const struct tui_screen_ops tui_pager_screen = {
	.title = "A report (s, z, Enter, the results of b and Q)",
	.keys = pager_keys,
	.bar = pager_bar,
	.nbar = sizeof(pager_bar) / sizeof(pager_bar[0]),
	.draw = tui_draw_pager,
	.close = pager_close,
};

enum tui_action tui_help_open(struct tui_model *m, const struct tui_screen_ops *of)
{
	struct tui_help *h = calloc(1, sizeof(*h));

	if (!h)
		return tui_alert(m, "Help", "out of memory");
	h->of = of;
	return tui_screen_open(m, &tui_help_screen, h);
}

static enum tui_action help_scroll(struct tui_model *m, void *data, int key)
{
	struct tui_help *h = data;

	(void)m;
	tui_scroll(&h->top, h->max, h->page, key);
	return TUI_REDRAW;
}

static enum tui_action help_done(struct tui_model *m, void *data, int key)
{
	(void)key;
	tui_screen_close(m, data);
	return TUI_REDRAW;
}

/* clang-format off */
static const struct tui_key help_keys[] = {
	{ .key = TK_UP, .more = { 'k', TK_DOWN, 'j' }, .name = "Up/Down, j/k", .run = help_scroll,
	  .help = "scroll a line" },
	{ .key = TK_PGUP, .more = { TK_PGDN, ' ' }, .name = "PgUp/PgDn, Space", .run = help_scroll,
	  .help = "scroll a page (Space: down)" },
	{ .key = TK_HOME, .more = { 'g', TK_END, 'G' }, .name = "Home/End, g/G",
	  .run = help_scroll, .help = "the first page, the last" },
	{ .key = 'q', .more = { TK_ESC }, .name = "q, Esc, any other key", .run = help_done,
	  .help = "close it" },
	{ .name = NULL },
};

static const struct tui_keylabel help_bar[] = {
	{ "j/k", "scroll", 0 },		{ "PgUp", "page up", TK_PGUP },
	{ "PgDn", "page down", TK_PGDN }, { "q", "close", 'q' },
};
/* clang-format on */

/* The help box: scrolled by the keys of its table; any other key closes it,
 * q and Esc as on every screen. */
static enum tui_action help_key(struct tui_model *m, void *data, int key)
{
	enum tui_action a = tui_keys_run(m, help_keys, data, key);

	return a != TUI_NONE ? a : help_done(m, data, key);
}

const struct tui_screen_ops tui_help_screen = {
	.title = "The help (?)",
	.flags = TUI_SCREEN_OVERLAY,
	.keys = help_keys,
	.bar = help_bar,
	.nbar = sizeof(help_bar) / sizeof(help_bar[0]),
	.key = help_key,
	.draw = tui_draw_help,
	.close = free,
};

enum tui_action tui_handle_key(struct tui_model *m, int key)
{
	/* the ticks take in what jobs did, whatever screen is open: a job's
	 * end queues what it has to say (tui_notice) behind an open dialog */
	bool bg = key == TK_TICK && tui_bg_poll(m);
	bool tasks = key == TK_TICK && (m->ntasks || m->rescan_pending) && tui_tasks_poll(m);
	bool said = false;
	enum tui_action a;

	/* a message is about the last action: the next key makes it stale (a
	 * key a dialog takes leaves it: it is what the dialog is about) */
	if (key != TK_TICK && key != TK_RESIZE && !m->dlg && m->status[0]) {
		m->status[0] = '\0';
		said = true;
	}
	a = tui_screen_key(m, key);
	if (!m->dlg && m->queued && a != TUI_QUIT) {
		m->dlg = m->queued;
		m->queued = m->dlg->next;
		m->dlg->next = NULL;
		said = true;
	}
	return a == TUI_NONE && (bg || tasks || said) ? TUI_REDRAW : a;
}
