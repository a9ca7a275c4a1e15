/* model.c - what the TUI shows, refreshed without curses: the marks, the
 * dialog, the jobs on drives, the pager, the keys (the drive list comes
 * from the rescan job, jobs.c). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "front/drives.h"
#include "tui.h"

const struct tui_col tui_cols[] = {
	{ "DEVICE", 0 },  { "TRAN", 0 },     { "MODEL", 0 }, { "SERIAL", 118 }, { "SIZE", 0 },
	{ "NATIVE", 90 }, { "LIMITED", 60 }, { "RPM", 100 }, { "STATE", 0 },	{ NULL, 0 },
};

struct table *tui_drive_table(struct ss_error *err)
{
	char names[256], msg[128];
	size_t used = 0;
	struct table *t;

	names[0] = '\0';
	for (const struct tui_col *c = tui_cols; c->name && used < sizeof(names); c++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
					 used ? "," : "", c->name);
	t = table_new(drive_cols, DRV_COUNT, names, NULL, msg, sizeof(msg));
	if (!t)
		ss_error_set(err, -EINVAL, "the drive table: %s", msg);
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

/* PgUp/PgDn: a page, the rows shown (page: the view's last count of them). */
static long page_step(int key, size_t page)
{
	long p = page ? (long)page : 1;

	return key == TK_PGUP ? -p : p;
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
		long step = key == TK_UP || key == 'k'	   ? -1
			    : key == TK_DOWN || key == 'j' ? 1
			    : key == TK_HOME		   ? -(long)d->top_max
			    : key == TK_END		   ? (long)d->top_max
							   : page_step(key, d->page);
		long top = (long)d->top + step;

		d->top = top < 0 ? 0 : top > (long)d->top_max ? d->top_max : (size_t)top;
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

const struct tui_screen_ops tui_dialog_screen = {
	.title = "a dialog",
	.flags = TUI_SCREEN_OVERLAY,
	.key = dialog_key,
	.draw = tui_draw_dialog,
};

const struct tui_screen_ops tui_form_screen = {
	.title = "a form",
	.flags = TUI_SCREEN_OVERLAY,
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

bool tui_tasks_poll(struct tui_model *m)
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

void tui_pager_free(struct tui_pager *p)
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

static enum tui_action pager_key(struct tui_model *m, void *data, int key)
{
	struct tui_pager *p = data;

	switch (key) {
	case 'q':
	case TK_ESC:
	case TK_ENTER:
		/* a report still being read is stopped; its result is dropped */
		tui_bg_cancel(p->loading);
		tui_screen_close(m, p);
		return TUI_REDRAW;
	case TK_UP:
	case 'k':
		if (p->top)
			p->top--;
		return TUI_REDRAW;
	case TK_DOWN:
	case 'j':
		if (p->top < p->top_max)
			p->top++;
		return TUI_REDRAW;
	case TK_PGUP:
		p->top = p->top > p->page ? p->top - p->page : 0;
		return TUI_REDRAW;
	case TK_PGDN:
	case ' ':
		/* the lines the screen showed (wrapped lines take more rows) */
		p->top = p->top + p->page < p->top_max ? p->top + p->page : p->top_max;
		return TUI_REDRAW;
	case TK_HOME:
	case 'g':
		p->top = 0;
		return TUI_REDRAW;
	case TK_END:
	case 'G':
		/* the last screenful, not the last line alone */
		p->top = p->top_max;
		return TUI_REDRAW;
	default:
		return TUI_NONE;
	}
}

static void pager_close(void *data)
{
	tui_pager_free(data);
}

const struct tui_screen_ops tui_pager_screen = {
	.title = "a report",
	.key = pager_key,
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

/* The help box: arrows, j/k and PgUp/PgDn scroll it (a page: the rows it
 * shows); any other key closes it, q and Esc as on every screen. */
static enum tui_action help_key(struct tui_model *m, void *data, int key)
{
	struct tui_help *h = data;

	switch (key) {
	case TK_UP:
	case 'k':
		if (h->top)
			h->top--;
		return TUI_REDRAW;
	case TK_DOWN:
	case 'j':
		if (h->top < h->max)
			h->top++;
		return TUI_REDRAW;
	case TK_PGUP:
	case TK_PGDN:
	case ' ': {
		long top = (long)h->top + page_step(key == ' ' ? TK_PGDN : key, h->page);

		h->top = top < 0 ? 0 : top > (long)h->max ? h->max : (size_t)top;
		return TUI_REDRAW;
	}
	case TK_HOME:
	case 'g':
		h->top = 0;
		return TUI_REDRAW;
	case TK_END:
	case 'G':
		h->top = h->max;
		return TUI_REDRAW;
	default:
		tui_screen_close(m, h);
		return TUI_REDRAW;
	}
}

const struct tui_screen_ops tui_help_screen = {
	.title = "the help",
	.flags = TUI_SCREEN_OVERLAY,
	.key = help_key,
	.draw = tui_draw_help,
	.close = free,
};

/* A key to the drive table. */
static enum tui_action main_key(struct tui_model *m, void *data, int key)
{
	(void)data;
	if (m->filtering) {
		enum tui_action a = tui_filter_key(m, key);

		/* what it does not take (ticks, moves, resize, ^Q) goes on below */
		if (a != TUI_NONE)
			return a;
	}
	switch (key) {
	case 'q':
	case 'Q' - '@': /* ^Q */
		return tui_quit(m);
	case TK_UP:
	case 'k':
		tui_model_move(m, -1);
		return TUI_REDRAW;
	case TK_DOWN:
	case 'j':
		tui_model_move(m, 1);
		return TUI_REDRAW;
	case TK_HOME:
	case 'g':
		tui_model_move(m, -(long)m->n);
		return TUI_REDRAW;
	case TK_END:
	case 'G':
		tui_model_move(m, (long)m->n);
		return TUI_REDRAW;
	case TK_PGUP:
	case TK_PGDN:
		tui_model_move(m, page_step(key, m->page));
		return TUI_REDRAW;
	case ' ':
		if (m->n && m->marked && (m->nview || !m->view)) { /* never a hidden one */
			m->marked[m->sel] = !m->marked[m->sel];
			if (m->failmark) /* the user's mark now */
				m->failmark[m->sel] = false;
			tui_model_move(m, 1);
		}
		return TUI_REDRAW;
	case '?':
	case 'h':
		return tui_help_open(m, &tui_main_screen);
	case TK_F5:
	case 'R':
		return TUI_RESCAN;
	case TK_ENTER:
		return m->scanned ? tui_detail_open(m) : TUI_NONE;
	case 'L' - '@': /* ^L */
		return TUI_REDRAW;
	case TK_ESC: /* a filter kept with Enter goes */
		return m->filter[0] ? tui_filter_clear(m) : TUI_NONE;
	case TK_F2:
		key = 'C';
		goto action;
	case TK_F4:
		key = '/';
		goto action;
	default:
action:
		return tui_keys_run(m, tui_actions, NULL, key);
	}
}

const struct tui_screen_ops tui_main_screen = {
	.title = "the drive table",
	.key = main_key,
	.draw = tui_draw_main,
	.click = tui_main_click,
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
