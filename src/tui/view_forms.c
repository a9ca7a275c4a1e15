/* view_forms.c - draw the forms (a dialog's typed fields and its preview
 * pane) and the log screen, through view.c's box, colours and wrapping. */
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "form.h"
#include "front/glyphs.h"
#include "shortstroke/cmdlog.h"
#include "tui.h"
#include "view.h"

#define ROWS_MAX 400

/* How a field's value shows: "[20%_     ]", "< hpa >", "[x]". */
static void field_value(const struct tui_field *x, bool focus, char *buf, size_t len)
{
	switch (x->kind) {
	case TUI_FIELD_TEXT:
		snprintf(buf, len, "[%s%s]", x->text, focus ? "_" : "");
		return;
	case TUI_FIELD_CHOICE:
		if (x->typed[0] && (x->match < 0 || x->choice[x->match].why_not[0]))
			snprintf(buf, len, "< %s? >  %s", x->typed,
				 x->match < 0 ? "(no such option)" : "(not offered)");
		else if (x->nchoices && !x->choice[x->cur].why_not[0])
			snprintf(buf, len, "< %s >", x->choice[x->cur].name);
		else
			snprintf(buf, len, "< none offered >");
		return;
	case TUI_FIELD_CHECK:
		snprintf(buf, len, "[%c]%s", x->on ? 'x' : ' ',
			 x->why_off[0] ? "  (not here)" : "");
		return;
	}
}

#define HELP_PARAS 3

/* What is said under the fields for the one with the focus: its hint; for
 * a choice the options offered and why not the others; for a box that
 * cannot be set, why. */
static void field_help(const struct tui_field *x, char (*p)[1400])
{
	char no[1300];
	size_t used = 0;

	snprintf(p[0], sizeof(p[0]), "%s", x->hint);
	p[1][0] = p[2][0] = '\0';
	if (x->kind == TUI_FIELD_CHOICE) {
		for (unsigned k = 0; k < x->nchoices && used < sizeof(p[1]); k++)
			if (!x->choice[k].why_not[0])
				used += (size_t)snprintf(
				    p[1] + used, sizeof(p[1]) - used, "%s%s",
				    used ? ", " : "Offered: ", x->choice[k].name);
		tui_field_not_offered(x, no, sizeof(no));
		if (no[0])
			snprintf(p[2], sizeof(p[2]), "Not offered: %s", no);
	} else if (x->kind == TUI_FIELD_CHECK && x->why_off[0]) {
		snprintf(p[1], sizeof(p[1]), "Not here: %s", x->why_off);
	}
}

/* Rows of the screen given to n rows of text wanted, out of *left. */
static int take(int n, int *left)
{
	int k = n < *left ? n : *left;

	*left -= k;
	return k;
}

/* Draw the paragraphs p[0..n) wrapped at width from y on, at most max rows;
 * the rows drawn. */
static int paras_draw(int y, int x, const char *const *p, int n, int width, int max)
{
	int used = 0;

	for (int i = 0; i < n && used < max; i++)
		used += p[i][0] ? tui_wrap_draw(y + used, x, p[i], width, max - used) : 1;
	return used;
}

/*
 * The box: its title, the dialog's lines, the preview pane, the fields, what
 * the focused field is about, the refusal, the keys. On a short screen the
 * fields come first (the one with the focus among them), then the refusal
 * and the keys; the pane, the field's help and the lines get what is left.
 */
void tui_draw_form(const struct tui_dialog *d)
{
	static char rows[ROWS_MAX][256];
	struct tui_form *f = d->form;
	attr_t a = tui_attr_title(), al = tui_attr_alert() | A_BOLD;
	int w = COLS - 2 < 100 ? COLS - 2 : 100, tw, lw = 0, x0, y0, y, h, left;
	int intro = 0, nhelp = 0, nhp = 0, nerr, npane = 0, nkeys, nfields, first = 0;
	int r_intro, r_pane, r_help, r_err, r_keys, r_gap;
	char help[HELP_PARAS][1400], keys[200], buf[512];
	const char *const *lines = (const char *const *)d->lines.v, *hp[HELP_PARAS];
	bool choices = false;

	if (w < 30)
		w = COLS;
	tw = w - 4 > 1 ? w - 4 : 1;
	for (size_t i = 0; i < d->lines.n; i++)
		intro += lines[i][0] ? tui_wrap_rows(lines[i], tw) : 1;
	for (unsigned i = 0; i < f->n; i++) {
		int l = (int)strlen(f->f[i].label);

		lw = l > lw ? l : lw;
		choices |= f->f[i].kind != TUI_FIELD_TEXT;
	}
	if (lw > tw / 2)
		lw = tw / 2;
	help[0][0] = help[1][0] = help[2][0] = '\0';
	if (f->n)
		field_help(&f->f[f->focus], help);
	for (int i = 0; i < HELP_PARAS; i++) {
		if (!help[i][0])
			continue;
		hp[nhp++] = help[i];
		nhelp += tui_wrap_rows(help[i], tw);
	}
	nerr = d->error[0] ? tui_wrap_rows(d->error, tw) : 0;
	snprintf(keys, sizeof(keys), "%s%s%sEnter go on  Esc cancel",
		 f->n > 1 ? "Tab/Up/Down field  " : "", choices ? "Left/Right/Space change  " : "",
		 f->pane.n ? "PgUp/PgDn preview  " : "");
	nkeys = tui_wrap_rows(keys, tw);
	for (size_t i = 0; i < f->pane.n && npane < ROWS_MAX; i++)
		npane += tui_wrap_into(f->pane.v[i], tw - 2, 6, rows + npane, ROWS_MAX - npane);

	/* the rows: the title and the fields first, then the rest as it fits */
	left = LINES - 1;
	nfields = take((int)f->n, &left);
	if (nfields < (int)f->n && (int)f->focus >= nfields)
		first = (int)f->focus - nfields + 1; /* the fields around the focus */
	r_err = take(nerr, &left);
	r_keys = take(nkeys, &left);
	r_pane = npane ? take(npane + 1, &left) : 0;
	if (r_pane == 1) { /* a title alone: none */
		r_pane = 0;
		left++;
	}
	r_help = take(nhelp, &left);
	r_intro = take(intro, &left);
	r_gap = take(f->n ? 2 : 1, &left); /* before the fields, and the bottom row */
	h = 1 + r_intro + r_pane + nfields + r_help + r_err + r_keys + r_gap;
	f->pane_max = r_pane && npane > r_pane - 1 ? (size_t)(npane - (r_pane - 1)) : 0;
	if (f->pane_top > f->pane_max)
		f->pane_top = f->pane_max;
	y0 = (LINES - h) / 2;
	x0 = (COLS - w) / 2;
	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	tui_box(y0, x0, h, w, a, d->title);
	if (d->alert) /* the title row says it is a refusal; its text is below */
		tui_box(y0, x0, 1, w, tui_attr_alert() | A_REVERSE, d->title);
	y = y0 + 1;
	attron(a);
	y += paras_draw(y, x0 + 2, lines, (int)d->lines.n, tw, r_intro);
	attroff(a);
	if (r_pane) {
		int top = (int)f->pane_top;

		attron(a | A_BOLD);
		if (npane > r_pane - 1)
			snprintf(buf, sizeof(buf), "%s (lines %d-%d of %d, PgUp/PgDn)",
				 f->pane_title, top + 1, top + r_pane - 1, npane);
		else
			snprintf(buf, sizeof(buf), "%s", f->pane_title);
		tui_put(y++, x0 + 2, buf, tw);
		attroff(a | A_BOLD);
		for (int i = 0; i < r_pane - 1; i++, y++) {
			mvhline(y, x0 + 2, ' ', tw);
			tui_put(y, x0 + 3, rows[top + i], tw - 2);
		}
	}
	attron(a);
	if (f->n && r_gap > 1)
		y++;
	for (int i = first; i < first + nfields; i++, y++) {
		bool focus = i == (int)f->focus;

		if (i == f->bad) /* the field the refusal below is about */
			attron(al | A_REVERSE);
		tui_put(y, x0 + 2, f->f[i].label, lw);
		if (i == f->bad) {
			attroff(al | A_REVERSE);
			attron(a);
		}
		field_value(&f->f[i], focus, buf, sizeof(buf));
		if (focus)
			attron(A_REVERSE);
		tui_put(y, x0 + 3 + lw, buf, tw - lw - 1 > 0 ? tw - lw - 1 : 0);
		if (focus)
			attroff(A_REVERSE);
	}
	y += paras_draw(y, x0 + 2, hp, nhp, tw, r_help);
	attroff(a);
	if (r_err) {
		attron(d->alert ? al : a);
		y += tui_wrap_draw(y, x0 + 2, d->error, tw, r_err);
		attroff(d->alert ? al : a);
	}
	attron(a);
	tui_wrap_draw(y, x0 + 2, keys, tw, r_keys);
	attroff(a);
}

/* ---- the log screen --------------------------------------------------------------- */

/* "12:03:04.123" (local time) */
static void when_text(const struct timespec *t, char *buf, size_t len)
{
	struct tm tm;
	char hms[16];

	localtime_r(&t->tv_sec, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03ld", hms, t->tv_nsec / 1000000);
}

static const struct tui_keylabel log_edit_keys[] = {
	{ "Enter", "keep it", TK_ENTER },
	{ "Esc", "drop it", TK_ESC },
};

void tui_draw_log(const struct tui_model *m, void *data)
{
	const struct tui_logview *v = data;
	struct tui_logview *mv = data;
	int detail_h = COLS >= 120 ? 3 : 4, list_h, y = 1, devw = 14, timew;
	char buf[1200], when[24], name[160], dev[300];
	struct cmdlog_text t;

	erase();
	attron(tui_attr_title());
	mvhline(0, 0, ' ', COLS);
	snprintf(buf, sizeof(buf),
		 " Commands sent this session: %zu shown, %zu kept%s (the newest %d, and %d "
		 "reads/writes)",
		 v->nrows, v->n, v->dropped ? ", older ones dropped" : "", CMDLOG_KEEP,
		 CMDLOG_KEEP_MEDIA);
	if ((int)strlen(buf) > COLS) /* narrow: without what the log keeps */
		snprintf(buf, sizeof(buf), " Commands sent this session: %zu shown, %zu kept%s",
			 v->nrows, v->n, v->dropped ? ", older dropped" : "");
	tui_put(0, 0, buf, COLS);
	attroff(tui_attr_title());
	snprintf(buf, sizeof(buf), " Device or command: %s%s   Reads/writes of the medium: %s",
		 v->filter[0] ? v->filter : (v->editing ? "" : "all"), v->editing ? "_" : "",
		 v->media ? "shown" : "hidden (m shows them)");
	tui_put_cut(y++, 0, buf, COLS);
	for (size_t i = 0; i < v->nrows; i++) {
		int l = (int)strlen(v->e[v->rows[i]].dev);

		devw = l > devw ? l : devw;
	}
	if (devw > COLS / 4)
		devw = COLS / 4;
	/* the time when there is room for it (the detail below has it too) */
	timew = COLS >= 100 ? 13 : 0;
	attron(tui_attr_head());
	snprintf(buf, sizeof(buf), " %-*.*s%-*s %-34s %s", timew, timew, "TIME", devw, "DEVICE",
		 "COMMAND", "STATUS");
	tui_put(y++, 0, buf, COLS);
	attroff(tui_attr_head());
	list_h = LINES - y - detail_h - 2;
	if (list_h < 1)
		list_h = 1;
	if (mv->sel < mv->top)
		mv->top = mv->sel;
	if (mv->sel >= mv->top + (size_t)list_h)
		mv->top = mv->sel - (size_t)list_h + 1;
	if (mv->top + (size_t)list_h > mv->nrows) /* a shorter list: its last page full */
		mv->top = mv->nrows > (size_t)list_h ? mv->nrows - (size_t)list_h : 0;
	if (!v->nrows)
		tui_put(y, 1,
			v->n ? "No command matches (/ types another filter, d the selected drive)."
			     : "No command sent yet.",
			COLS - 2);
	((struct tui_model *)m)->rows_y = y; /* for a click on a row */
	((struct tui_model *)m)->rows_n = (unsigned)(v->nrows - v->top < (size_t)list_h
							 ? v->nrows - v->top
							 : (size_t)list_h);
	for (size_t r = v->top; r < v->nrows && y < 3 + list_h; r++, y++) {
		const struct cmdlog_entry *e = &v->e[v->rows[r]];
		bool sel = r == v->sel;
		bool ok = cmdlog_entry_ok(e);

		cmdlog_entry_text(e, &t);
		when_text(&e->when, when, sizeof(when));
		/* a name longer than its column: cut with the mark (the detail
		 * below has it whole) */
		tui_cut(e->dev, devw, dev, sizeof(dev));
		tui_cut(t.name, 34, name, sizeof(name));
		snprintf(buf, sizeof(buf), " %-*.*s%s%*s %s%*s ", timew, timew, when, dev,
			 devw - (int)glyphs_cols(dev), "", name, 34 - (int)glyphs_cols(name), "");
		if (sel)
			attron(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
		tui_put(y, 0, buf, COLS);
		if (!ok && !sel)
			attron(tui_attr_alert());
		if ((int)strlen(buf) < COLS)
			tui_put(y, (int)strlen(buf), t.status, COLS - (int)strlen(buf));
		if (!ok && !sel)
			attroff(tui_attr_alert());
		if (sel)
			attroff(A_REVERSE);
	}
	/* the selected command as -v prints it, wrapped */
	y = LINES - 1 - detail_h;
	attron(tui_attr_title());
	mvhline(y - 1, 0, ' ', COLS);
	tui_put(y - 1, 1, "as -v prints it:", COLS - 2);
	attroff(tui_attr_title());
	if (v->nrows) {
		const struct cmdlog_entry *e = &v->e[v->rows[v->sel]];
		size_t at;

		cmdlog_entry_line(e, buf, sizeof(buf));
		at = strlen(buf);
		when_text(&e->when, when, sizeof(when));
		if (at < sizeof(buf))
			snprintf(buf + at, sizeof(buf) - at, "  (at %s, %.3f ms)", when,
				 (double)e->duration_ns / 1e6);
		tui_wrap_draw(y, 1, buf, COLS - 2, detail_h);
	}
	if (v->editing)
		tui_keybar(m, TUI_KEYS(log_edit_keys), "type a device or a command's name (live)");
	else
		tui_keybar(m, tui_log_screen.bar, tui_log_screen.nbar, m->status);
}
