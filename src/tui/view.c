/* view.c - draw the model: title, drive table, detail pane, key line. */
#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/drives.h"
#include "front/record.h"
#include "front/table.h"
#include "form.h"
#include "shortstroke/units.h"
#include "tui.h"
#include "view.h"

enum { PAIR_TITLE = 1, PAIR_FREE, PAIR_INUSE, PAIR_PROTECTED, PAIR_HEAD };

static bool colour;

void tui_colors_init(void)
{
	colour = has_colors() && getenv("NO_COLOR") == NULL;
	if (!colour)
		return;
	start_color();
	use_default_colors();
	init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_FREE, COLOR_GREEN, -1);
	init_pair(PAIR_INUSE, COLOR_YELLOW, -1);
	init_pair(PAIR_PROTECTED, COLOR_RED, -1);
	init_pair(PAIR_HEAD, COLOR_CYAN, -1);
}

static attr_t attr_title(void)
{
	return colour ? COLOR_PAIR(PAIR_TITLE) | A_BOLD : A_REVERSE | A_BOLD;
}

attr_t tui_attr_title(void)
{
	return attr_title();
}

static attr_t attr_state(enum dev_state s);

attr_t tui_attr_alert(void)
{
	return attr_state(DEV_PROTECTED);
}

attr_t tui_attr_good(void)
{
	return attr_state(DEV_FREE);
}

attr_t tui_attr_head(void)
{
	return colour ? COLOR_PAIR(PAIR_HEAD) | A_BOLD : A_BOLD;
}

static attr_t attr_state(enum dev_state s)
{
	switch (s) {
	case DEV_FREE:
		return colour ? COLOR_PAIR(PAIR_FREE) : A_NORMAL;
	case DEV_IN_USE:
	case DEV_UNKNOWN:
		return colour ? COLOR_PAIR(PAIR_INUSE) : A_UNDERLINE;
	default:
		return colour ? COLOR_PAIR(PAIR_PROTECTED) | A_BOLD : A_BOLD;
	}
}

/* The STATE cell of a drive a job is working on: a progress bar. */
static bool task_cell(const struct tui_model *m, const struct dev_entry *e, int width,
		      char *buf, size_t len)
{
	char bar[21], eta[24];
	struct job_status st;
	struct tui_task *t = tui_task_for((struct tui_model *)m, e->spec);
	unsigned fill;

	if (!t)
		return false;
	job_status(t->job, &st);
	fill = (unsigned)(st.fraction * 20.0 + 0.5);
	for (unsigned k = 0; k < 20; k++)
		bar[k] = k < fill ? '#' : '.';
	bar[20] = '\0';
	if (st.eta_s >= 0)
		duration_human(st.eta_s, eta, sizeof(eta));
	else
		snprintf(eta, sizeof(eta), "--");
	if (width < 40) /* a narrow screen: the figures without the bar */
		snprintf(buf, len, "%.0f%% %s %s", st.fraction * 100.0, t->what, eta);
	else
		snprintf(buf, len, "%s [%s] %3.0f%% %s %s", t->what, bar, st.fraction * 100.0,
			 eta, st.phase);
	return true;
}

/* A row of the drive table (e NULL: the header), with the columns the
 * screen is wide enough for. */
static void draw_row(int y, const struct tui_model *m, const struct dev_entry *e, bool sel)
{
	const struct table *t = m->drives;
	int x = 1;
	char buf[256];
	size_t idx = e ? (size_t)(e - m->devs) : 0;

	if (e && m->marked && m->marked[idx])
		mvaddch(y, 0, '*');

	if (sel)
		attron(A_REVERSE);
	mvhline(y, 1, ' ', COLS - 1);
	for (unsigned c = 0; t && c < table_cols(t) && x < COLS; c++) {
		const struct col_def *def = table_col(t, c);
		/* the rest of the line; not the last column: as wide as its heading */
		int w = def->width ? def->width
			: c + 1 < table_cols(t) ? (int)strlen(def->name) + 12 : COLS - x - 1;
		bool state = table_col_id(t, c) == DRV_STATE;

		if (tui_col_min(table_col_id(t, c)) > COLS)
			continue;
		if (e && state && task_cell(m, e, w, buf, sizeof(buf)))
			;
		else if (e)
			table_cell_text(t, (unsigned)idx, c, 0, w, buf, sizeof(buf));
		else /* the sort column: ^ ascending, v descending */
			snprintf(buf, sizeof(buf), "%s%s", def->name,
				 m->sort_by != table_col_id(t, c) + 1 ? "" : m->sort_desc ? "v" : "^");
		if (e && state && !sel)
			attron(attr_state(e->state));
		mvaddnstr(y, x, buf, w < COLS - x ? (w > 0 ? w : 0) : COLS - x); /* never wraps */
		if (e && state && !sel)
			attroff(attr_state(e->state));
		x += w + 1;
	}
	if (sel)
		attroff(A_REVERSE);
}

static void draw_detail(int y0, int h, const struct tui_model *m)
{
	const struct dev_entry *e = &m->devs[m->sel];
	struct record *r = record_new();
	unsigned n, rows, col_w;
	const char *label, *text;
	char buf[512];

	if (m->health && m->health[m->sel][0])
		record_text(r, "SMART health", "%s", m->health[m->sel]);
	describe_drive(r, e);
	n = record_count(r);
	/* two columns of fields when the screen is wide enough */
	rows = (COLS >= 120 && (int)n > h) ? (n + 1) / 2 : n;
	col_w = rows < n ? (unsigned)COLS / 2 : (unsigned)COLS;
	for (unsigned i = 0; i < n; i++) {
		int y = y0 + (int)(i % rows);
		int x = 1 + (int)((i / rows) * col_w);

		if (y >= y0 + h)
			continue;
		record_get_line(r, i, &label, &text);
		snprintf(buf, sizeof(buf), "%s:", label);
		attron(A_BOLD);
		mvaddnstr(y, x, buf, 16);
		attroff(A_BOLD);
		snprintf(buf, sizeof(buf), "%s", text);
		if (x + 17 < COLS)
			mvaddnstr(y, x + 17, buf, (int)col_w - 19 > 0 ? (int)col_w - 19 : 0);
	}
	record_free(r);
}

/* The length of the next row of p at most width wide: cut at the last
 * space that fits, else in the middle of a word. */
size_t tui_wrap_cut(const char *p, int width)
{
	size_t n = strlen(p), cut;

	if (width < 1)
		width = 1;
	if (n <= (size_t)width)
		return n;
	for (cut = (size_t)width; cut > 0 && p[cut] != ' '; cut--)
		;
	return cut ? cut : (size_t)width;
}

/* Rows that text needs at width (a paragraph per line of the dialog). */
int tui_wrap_rows(const char *p, int width)
{
	int rows = 0;

	while (*p) {
		p += tui_wrap_cut(p, width);
		while (*p == ' ')
			p++;
		rows++;
	}
	return rows;
}

int tui_wrap_into(const char *p, int width, int ind, char (*rows)[256], int max)
{
	int n = 0, in = 0;

	if (!*p && max > 0) {
		rows[n++][0] = '\0';
		return n;
	}
	while (*p && n < max) {
		size_t cut = tui_wrap_cut(p, width - in);

		snprintf(rows[n++], sizeof(rows[0]), "%*s%.*s", in, "", (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		if (width > ind + 10)
			in = ind;
	}
	return n;
}

/* Draw p wrapped at width from (y, x), at most max rows; the rows drawn. */
int tui_wrap_draw(int y, int x, const char *p, int width, int max)
{
	int rows = 0;

	while (*p && rows < max) {
		size_t cut = tui_wrap_cut(p, width);

		mvaddnstr(y + rows, x, p, (int)cut);
		p += cut;
		while (*p == ' ')
			p++;
		rows++;
	}
	return rows;
}

/* The help box: as wide as the longest line needs (up to the screen), its
 * lines wrapped to that width, scrolled by m->help_top when the screen is
 * too short. */
static void draw_help(const struct tui_model *m)
{
	static const char *const head[] = {
		"shortstroke - keys",
		"",
		"  Up/Down, j/k   move the selection",
		"  Home/End, g/G  first / last drive",
		"  PgUp/PgDn      ten drives up / down",
		"  Space          mark / unmark a drive (actions apply to marked)",
		"  R, F5          rescan the drives",
	};
	static const char *const tail[] = {
		"  ?              this help",
		"  q              quit (with jobs running: asks first; self-tests go on inside "
		"the drives)",
		"",
		"The detail pane shows what 'shortstroke info' prints for the selected drive. "
		"STATE tells whether a drive is free to change, in use (mounted, a RAID/LVM "
		"member, has partitions) or protected (listed in the protect file); a running "
		"job shows its progress.",
	};
	enum { MAXL = 48, MAXR = 160, IND = 17 };
	const char *lines[MAXL];
	char acts[24][200], rows[MAXR][256], foot[128];
	int n = 0, nr = 0, k = 0, longest = 0, w, tw, vis, top, y0, x0;
	struct tui_model *mm = (struct tui_model *)m;

	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		lines[n++] = head[i];
	for (const struct tui_key_action *a = tui_actions; a->run && k < 24; a++, k++) {
		snprintf(acts[k], sizeof(acts[k]), "  %-14s %s", a->keyname, a->help);
		lines[n++] = acts[k];
	}
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]) && n < MAXL; i++)
		lines[n++] = tail[i];
	for (int i = 0; i < n; i++)
		if ((int)strlen(lines[i]) > longest)
			longest = (int)strlen(lines[i]);
	w = COLS - 2 < longest + 4 ? COLS - 2 : longest + 4;
	if (w < 24)
		w = COLS;
	tw = w - 4 > 1 ? w - 4 : 1;
	/* wrap: a key line's continuation goes under its text */
	for (int i = 0; i < n && nr < MAXR; i++)
		nr += tui_wrap_into(lines[i], tw, lines[i][0] == ' ' && lines[i][1] == ' ' ? IND : 0,
				    rows + nr, MAXR - nr);
	vis = LINES - 4 < nr ? LINES - 4 : nr;
	if (vis < 1)
		vis = 1;
	mm->help_max = (size_t)(nr - vis);
	if (mm->help_top > mm->help_max)
		mm->help_top = mm->help_max;
	top = (int)mm->help_top;
	if (nr > vis)
		snprintf(foot, sizeof(foot), "lines %d-%d of %d: j/k PgUp/PgDn scroll, any other "
			 "key closes", top + 1, top + vis, nr);
	else
		snprintf(foot, sizeof(foot), "Press any key to close.");
	y0 = (LINES - vis - 3) / 2;
	x0 = (COLS - w) / 2;
	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	attron(attr_title());
	for (int i = 0; i < vis + 3 && y0 + i < LINES; i++) {
		mvhline(y0 + i, x0, ' ', w);
		if (i > 0 && i <= vis)
			mvaddnstr(y0 + i, x0 + 2, rows[top + i - 1], tw);
	}
	mvaddnstr(y0 + vis + 2 < LINES ? y0 + vis + 2 : LINES - 1, x0 + 2, foot, tw);
	attroff(attr_title());
}

void tui_box(int y0, int x0, int h, int w, attr_t a, const char *title)
{
	char buf[256];

	attron(a);
	for (int i = 0; i < h && y0 + i < LINES; i++)
		mvhline(y0 + i, x0, ' ', w);
	if (title) {
		snprintf(buf, sizeof(buf), " %s ", title);
		mvaddnstr(y0, x0 + 2, buf, w - 4);
	}
	attroff(a);
}

static void draw_dialog(const struct tui_dialog *d)
{
	if (d->form) {
		tui_draw_form(d);
		return;
	}
	int w = COLS - 4 < 78 ? COLS - 4 : 78;
	int tw = w - 4 > 1 ? w - 4 : 1;
	int rows = d->error[0] ? tui_wrap_rows(d->error, tw) : 0;
	int h, y0, x0 = (COLS - w) / 2, y, stop;
	attr_t a = d->alert ? attr_state(DEV_PROTECTED) | A_REVERSE : attr_title();
	char buf[256];

	for (unsigned i = 0; i < d->nlines; i++)
		rows += d->lines[i][0] ? tui_wrap_rows(d->lines[i], tw) : 1;
	h = rows + (d->input ? 4 : 3);
	if (h > LINES)
		h = LINES;
	y0 = (LINES - h) / 2;
	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	tui_box(y0, x0, h, w, a, d->title);
	attron(a);
	/* the text stops short of the input line, which stays on the screen */
	stop = d->input ? y0 + h - 2 : LINES - 1;
	y = y0 + 1;
	for (unsigned i = 0; i < d->nlines && y < stop; i++)
		y += d->lines[i][0] ? tui_wrap_draw(y, x0 + 2, d->lines[i], tw, stop - y) : 1;
	if (d->error[0] && y < stop) {
		attron(A_BOLD);
		y += tui_wrap_draw(y, x0 + 2, d->error, tw, stop - y);
		attroff(A_BOLD);
	}
	attroff(a);
	if (d->input) {
		y = y0 + h - 2;
		attron(a);
		mvaddnstr(y, x0 + 2, d->prompt, w - 4);
		attroff(a);
		snprintf(buf, sizeof(buf), " %s_", d->text);
		mvhline(y, x0 + 3 + (int)strlen(d->prompt), ' ', w - 5 - (int)strlen(d->prompt));
		mvaddnstr(y, x0 + 3 + (int)strlen(d->prompt), buf,
			  w - 5 - (int)strlen(d->prompt));
	} else {
		attron(a);
		mvaddnstr(y0 + h - 1, x0 + 2, d->submit ? "Enter goes on, Esc cancels." :
			  "Press any key.", w - 4);
		attroff(a);
	}
}

static void draw_pager(const struct tui_pager *p)
{
	char buf[256];

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	mvaddnstr(0, 1, p->title, COLS - 2);
	attroff(attr_title());
	if (p->loading) {
		/* still being read: a spinner and what, until the text is there */
		tui_bg_line(p->loading, buf, sizeof(buf));
		mvaddnstr(2, 2, buf, COLS - 3);
		attron(A_REVERSE);
		mvhline(LINES - 1, 0, ' ', COLS);
		mvaddnstr(LINES - 1, 1, "Esc stops it", COLS - 2);
		attroff(A_REVERSE);
		return;
	}
	for (int y = 1; y < LINES - 1 && p->top + (size_t)(y - 1) < p->n; y++)
		mvaddnstr(y, 0, p->lines[p->top + (size_t)(y - 1)], COLS);
	attron(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	mvprintw(LINES - 1, 1, "lines %zu-%zu of %zu  |  j/k PgUp/PgDn scroll  q close",
		 p->n ? p->top + 1 : 0,
		 p->top + (size_t)(LINES - 2) < p->n ? p->top + (size_t)(LINES - 2) : p->n, p->n);
	attroff(A_REVERSE);
}

/* ---- the planner screen ------------------------------------------------------- */

static void planner_field_value(const struct tui_planner *p, unsigned f, char *buf, size_t len)
{
	if (f == TPF_LEVEL)
		snprintf(buf, len, "%s", p->level < 0 ? "any" : rp_level_name(p->level));
	else if (f == TPF_WORKLOAD)
		snprintf(buf, len, "%s", rp_profile_name(p->profile));
	else
		snprintf(buf, len, "%s", p->text[f]);
}

static const char *const planner_hints[TPF_COUNT] = {
	[TPF_LEVEL] = "Left/Right: any, 0, 1, 10, 0+1, 5, 6, 50, 60",
	[TPF_CAPACITY] = "usable capacity at least (500G, 2T); empty: no goal",
	[TPF_IOPS] = "the workload's IOPS at least, at queue depth 16",
	[TPF_ACCESS] = "average random access time at most, ms (QD 1)",
	[TPF_TOLERATE] = "disks that may fail without loss, at least",
	[TPF_WORKLOAD] = "Left/Right: database, fileserver, webserver, ...",
};

static void mttdl_text(double h, char *buf, size_t len)
{
	double y = h / 8766.0;

	if (!isfinite(h))
		snprintf(buf, len, "-");
	else if (y >= 1e6)
		snprintf(buf, len, "%.1e", y);
	else
		snprintf(buf, len, "%.0f", y);
}

static void draw_planner(const struct tui_model *m, const struct tui_planner *p)
{
	char buf[512], v[64], cap[32];
	int y = 0, used;

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	used = snprintf(buf, sizeof(buf), " Planner - %zu drive%s:", p->n, p->n == 1 ? "" : "s");
	for (size_t i = 0; i < p->n && used < (int)sizeof(buf); i++)
		used += snprintf(buf + used, sizeof(buf) - (size_t)used, " %s", p->pool[i].device);
	mvaddnstr(0, 0, buf, COLS);
	attroff(attr_title());

	y = 2;
	for (unsigned f = 0; f < TPF_COUNT; f++, y++) {
		bool cur = f == p->field;

		planner_field_value(p, f, v, sizeof(v));
		attron(A_BOLD);
		mvaddnstr(y, 2, tui_plan_field_names[f], 12);
		attroff(A_BOLD);
		/* 14 columns between the brackets: a longer value is clipped (its
		 * end while it is typed, where the cursor is) */
		if (cur && f != TPF_LEVEL && f != TPF_WORKLOAD)
			snprintf(buf, sizeof(buf), "[%-14s]",
				 strcat(v + (strlen(v) > 13 ? strlen(v) - 13 : 0), "_"));
		else
			snprintf(buf, sizeof(buf), "[%-14.14s]", v);
		if (cur)
			attron(A_REVERSE);
		mvaddnstr(y, 15, buf, COLS - 16);
		if (cur)
			attroff(A_REVERSE);
		if (cur && COLS > 34)
			mvaddnstr(y, 33, planner_hints[f], COLS - 34);
	}
	y++;
	if (p->error[0]) {
		attron(attr_state(DEV_PROTECTED));
		mvaddnstr(y++, 2, p->error, COLS - 3);
		attroff(attr_state(DEV_PROTECTED));
	} else if (!p->met) {
		if (p->unmet[0])
			snprintf(buf, sizeof(buf), "Impossible (unmet: %s): %s", p->unmet,
				 p->message);
		else
			snprintf(buf, sizeof(buf), "Impossible: %s", p->message);
		attron(attr_state(DEV_PROTECTED) | A_BOLD);
		mvaddnstr(y++, 2, buf, COLS - 3);
		attroff(attr_state(DEV_PROTECTED) | A_BOLD);
	} else {
		snprintf(buf, sizeof(buf), "%s (%zu layouts evaluated)", p->message, p->evaluated);
		attron(attr_state(DEV_FREE));
		mvaddnstr(y++, 2, buf, COLS - 3);
		attroff(attr_state(DEV_FREE));
	}
	y++;
	if (p->nrows) {
		snprintf(buf, sizeof(buf), "  %-3s %-15s %5s %7s %9s %8s %7s %4s %9s  %s", "#",
			 p->met ? "LEVEL" : "CLOSEST LEVEL", "DISKS", "STROKE", "CAPACITY",
			 "IOPS", "ACC-MS", "TOL", "MTTDL-Y", p->met ? "" : "SHORT OF");
		attron(colour ? COLOR_PAIR(PAIR_HEAD) | A_BOLD : A_BOLD);
		mvaddnstr(y++, 0, buf, COLS);
		attroff(colour ? COLOR_PAIR(PAIR_HEAD) | A_BOLD : A_BOLD);
	}
	for (size_t i = 0; i < p->nrows && y < LINES - 3; i++, y++) {
		const struct tui_plan_row *r = &p->rows[i];
		attr_t a = A_NORMAL;

		mttdl_text(r->mttdl_h, v, sizeof(v));
		snprintf(buf, sizeof(buf), "%c %-3zu %-15s %5u %6.1f%% %9s %8.0f %7.2f %4u %9s  %s",
			 i == p->chosen ? '>' : ' ', i + 1, r->level, r->disks, 100 * r->stroke,
			 size_human(r->capacity, cap, sizeof(cap)), r->iops, r->access_ms,
			 r->tolerates, v, r->shortfall);
		if (i == 0 && p->met)
			a |= (colour ? COLOR_PAIR(PAIR_FREE) : 0) | A_BOLD;
		if (i == p->chosen)
			a |= A_REVERSE;
		attron(a);
		mvhline(y, 0, ' ', COLS);
		mvaddnstr(y, 0, buf, COLS);
		attroff(a);
	}
	y++;
	for (size_t i = 0; i < p->notes.n && y < LINES - 2; i++, y++) {
		snprintf(buf, sizeof(buf), "note: %s", p->notes.text[i]);
		mvaddnstr(y, 2, buf, COLS - 3);
	}
	if (p->saved[0]) {
		attron(attr_state(DEV_FREE) | A_BOLD);
		mvaddnstr(LINES - 2, 2, p->saved, COLS - 3);
		attroff(attr_state(DEV_FREE) | A_BOLD);
	}
	attron(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	snprintf(buf, sizeof(buf), " Tab/Up/Down field  Left/Right choose  PgUp/PgDn pick layout  "
				   "s/Enter save  ^A apply  Esc close  |  %s", m->status);
	mvaddnstr(LINES - 1, 0, buf, COLS);
	attroff(A_REVERSE);
}

/* ---- arrays: an apply's progress, the arrays screen ---------------------------- */

static void bar_text(double f, char *buf)
{
	unsigned fill = (unsigned)(f * 20.0 + 0.5);

	for (unsigned k = 0; k < 20; k++)
		buf[k] = k < fill ? '#' : '.';
	buf[20] = '\0';
}

static void draw_applying(const struct tui_model *m, struct tui_applying *ap)
{
	char buf[512], bar[21];
	int y = 2;

	erase();
	pthread_mutex_lock(&ap->lock);
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	snprintf(buf, sizeof(buf), " Apply /dev/md/%s - %s", ap->name, ap->title);
	mvaddnstr(0, 0, buf, COLS);
	attroff(attr_title());
	for (size_t i = 0; i < ap->n && y < LINES - 6; i++, y++) {
		bar_text(ap->m[i].fraction, bar);
		snprintf(buf, sizeof(buf), " member %-2zu %-14s %-18s [%s] %3.0f%% %s", i + 1,
			 ap->m[i].spec, ap->m[i].serial, bar, 100.0 * ap->m[i].fraction,
			 ap->m[i].phase);
		mvaddnstr(y, 0, buf, COLS);
	}
	y++;
	attron(A_BOLD);
	snprintf(buf, sizeof(buf), " Step: %s", ap->step);
	mvaddnstr(y++, 0, buf, COLS);
	attroff(A_BOLD);
	if (ap->done) {
		attr_t a = ap->rc ? attr_state(DEV_PROTECTED) | A_BOLD : attr_state(DEV_FREE) | A_BOLD;

		y++;
		attron(a);
		snprintf(buf, sizeof(buf), " %s %s", ap->rc ? "Failed:" : "Done:", ap->result);
		y += tui_wrap_draw(y, 1, buf, COLS - 2, LINES - y - 1);
		attroff(a);
	}
	pthread_mutex_unlock(&ap->lock);
	attron(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	snprintf(buf, sizeof(buf), " %s  |  %s", ap->done ? "any key: the arrays screen"
							 : "running: it cannot be aborted halfway",
		 m->status);
	mvaddnstr(LINES - 1, 0, buf, COLS);
	attroff(A_REVERSE);
}

static double rec_stroke(const struct array_member *m)
{
	return m->before_blocks ? (double)m->limit_blocks / (double)m->before_blocks : 0;
}

static void draw_arrays(const struct tui_model *m, const struct tui_arrays *a)
{
	char buf[512], members[300], h[32];
	int y = 1;

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	snprintf(buf, sizeof(buf), " Arrays shortstroke created - %zu", a->n);
	mvaddnstr(0, 0, buf, COLS);
	attroff(attr_title());
	attron(colour ? COLOR_PAIR(PAIR_HEAD) | A_BOLD : A_BOLD);
	snprintf(buf, sizeof(buf), "  %-20s %-19s %-5s %-7s %-10s %s", "NAME", "STATE", "LEVEL",
		 "STROKE", "LIMIT", "MEMBERS");
	mvaddnstr(y++, 0, buf, COLS);
	attroff(colour ? COLOR_PAIR(PAIR_HEAD) | A_BOLD : A_BOLD);
	if (!a->n)
		mvaddnstr(y++, 2, a->error[0] ? a->error
				 : "No arrays yet: in the planner (p), ^A applies the chosen layout.",
			  COLS - 3);
	for (size_t i = 0; i < a->n && y < LINES / 2; i++, y++) {
		const struct array_rec *r = &a->recs[i];
		size_t used = 0;

		members[0] = '\0';
		for (size_t k = 0; k < r->n && used < sizeof(members); k++)
			if (r->m[k].state != AM_REPLACED)
				used += (size_t)snprintf(members + used, sizeof(members) - used,
							 "%s%s", used ? "," : "", r->m[k].spec);
		snprintf(buf, sizeof(buf), "%c %-20s %-19s %-5s %5.1f%%  %-10s %s",
			 i == a->sel ? '>' : ' ', r->name, array_state_name(r->state), r->level,
			 r->n ? 100.0 * rec_stroke(&r->m[0]) : 0,
			 r->n ? size_human(r->m[0].limit_blocks * r->m[0].block_len, h, sizeof(h))
			      : "-", members);
		if (i == a->sel)
			attron(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
		mvaddnstr(y, 0, buf, COLS);
		if (i == a->sel)
			attroff(A_REVERSE);
	}
	y++;
	if (a->n) {
		const struct array_rec *r = &a->recs[a->sel];

		snprintf(buf, sizeof(buf), " %s: RAID %s, chunk %" PRIu64 " KiB%s%s, created %s; "
			 "step: %s", r->md_dev, r->level, r->chunk_bytes / 1024,
			 r->fs[0] ? ", " : "", r->fs, r->created, r->step);
		attron(A_BOLD);
		mvaddnstr(y++, 0, buf, COLS);
		attroff(A_BOLD);
		if (r->remains[0]) {
			snprintf(buf, sizeof(buf), " remains: %s", r->remains);
			attron(attr_state(DEV_PROTECTED));
			y += tui_wrap_draw(y, 1, buf, COLS - 2, LINES - y - 2);
			attroff(attr_state(DEV_PROTECTED));
		}
		for (size_t k = 0; k < r->n && y < LINES - 2; k++, y++) {
			const struct array_member *mb = &r->m[k];

			snprintf(buf, sizeof(buf), "   %-14s %-18s %-9s %" PRIu64 " of %" PRIu64
				 " blocks (%.1f%%) %s%s", mb->spec, mb->serial,
				 array_mstate_name(mb->state), mb->limit_blocks, mb->before_blocks,
				 100.0 * rec_stroke(mb), mb->method, mb->volatile_ ? ", volatile" : "");
			mvaddnstr(y, 0, buf, COLS);
		}
	}
	if (a->busy[0]) {
		attron(attr_state(DEV_IN_USE) | A_BOLD);
		mvaddnstr(LINES - 2, 1, a->busy, COLS - 2);
		attroff(attr_state(DEV_IN_USE) | A_BOLD);
	}
	attron(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	snprintf(buf, sizeof(buf), " j/k select  u undo  R reload  Esc close  |  %s", m->status);
	mvaddnstr(LINES - 1, 0, buf, COLS);
	attroff(A_REVERSE);
}

void tui_draw(const struct tui_model *m)
{
	if (m->logview) {
		tui_draw_log(m);
		if (m->dlg)
			draw_dialog(m->dlg);
		refresh();
		return;
	}
	if (m->applying || m->arrays) {
		if (m->applying)
			draw_applying(m, m->applying);
		else
			draw_arrays(m, m->arrays);
		if (m->dlg)
			draw_dialog(m->dlg);
		refresh();
		return;
	}
	if (m->pager) {
		draw_pager(m->pager);
		if (m->dlg)
			draw_dialog(m->dlg);
		refresh();
		return;
	}
	if (m->planner) {
		draw_planner(m, m->planner);
		if (m->dlg)
			draw_dialog(m->dlg);
		refresh();
		return;
	}
	int list_h, y, detail_y;
	char buf[256];

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	if (m->scanned) {
		char sel[160];

		tui_select_line(m, sel, sizeof(sel));
		snprintf(buf, sizeof(buf), " shortstroke - %s - %zu drive%s%s%s", m->source, m->n,
			 m->n == 1 ? "" : "s", sel[0] ? " - " : "", sel);
	}
	else
		snprintf(buf, sizeof(buf), " shortstroke - reading the drives");
	mvaddnstr(0, 0, buf, COLS);
	attroff(attr_title());

	/* drive table: up to half the screen */
	list_h = (LINES - 4) / 2;
	if (list_h < 1)
		list_h = 1;
	attron(colour ? COLOR_PAIR(PAIR_HEAD) | A_BOLD : A_BOLD);
	draw_row(1, m, NULL, false);
	attroff(colour ? COLOR_PAIR(PAIR_HEAD) | A_BOLD : A_BOLD);
	{
		struct tui_model *mm = (struct tui_model *)m;

		size_t pos = tui_view_pos(mm);

		if (pos < mm->top)
			mm->top = pos;
		if (pos >= mm->top + (size_t)list_h)
			mm->top = pos - (size_t)list_h + 1;
		if (mm->top >= mm->nview)
			mm->top = 0;
	}
	y = 2;
	/* the rows shown: sorted and filtered (select.c) */
	for (size_t k = m->top; k < m->nview && y < 2 + list_h; k++, y++)
		draw_row(y, m, &m->devs[m->view[k]], m->view[k] == m->sel);
	if (m->n && !m->nview)
		mvaddnstr(2, 1, "No drive matches the filter (Esc clears it).", COLS - 2);
	if (m->n == 0)
		mvaddnstr(2, 1, m->scanned ? "No disks that shortstroke can talk to. Try --demo."
					   : "Scanning the drives (q quits, ? helps) ...",
			  COLS - 2);

	detail_y = 2 + (m->nview < (size_t)list_h ? (int)(m->nview ? m->nview : 1) : list_h) + 1;
	if (m->nview) {
		attron(attr_title());
		mvhline(detail_y - 1 + 0, 0, ACS_HLINE, COLS);
		snprintf(buf, sizeof(buf), " %s ", m->devs[m->sel].spec);
		mvaddnstr(detail_y - 1, 2, buf, COLS - 4);
		attroff(attr_title());
		draw_detail(detail_y, LINES - 1 - detail_y, m);
	}

	attron(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	if (m->scan) {
		/* a rescan runs: its spinner first, the list below is the last one */
		char line[160];

		tui_bg_line(m->scan, line, sizeof(line));
		snprintf(buf, sizeof(buf), " %s%s%s  |  j/k move  ? help  q quit", line,
			 m->status[0] ? "  |  " : "", m->status);
	} else if (m->filtering) {
		snprintf(buf, sizeof(buf), " Filter: %s_  (%zu of %zu)  Enter keeps it  Esc clears it",
			 m->filter, m->nview, m->n);
	} else {
		snprintf(buf, sizeof(buf),
			 " %s  |  j/k move  Space mark  l limit  r restore  ? help  q quit",
			 m->status);
	}
	mvaddnstr(LINES - 1, 0, buf, COLS);
	attroff(A_REVERSE);
	if (m->setup)
		tui_draw_setup(m);
	if (m->help)
		draw_help(m);
	if (m->dlg)
		draw_dialog(m->dlg);
	refresh();
}
