/* view.c - draw the model: title, drive table, detail pane, key line. */
#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/drives.h"
#include "front/glyphs.h"
#include "front/record.h"
#include "front/table.h"
#include "form.h"
#include "shortstroke/units.h"
#include "tui.h"
#include "view.h"

static int tui_wrap_rows_ind(const char *p, int width, int ind);
static int tui_wrap_draw_ind(int y, int x, const char *p, int width, int ind, int max);
static void tui_box_foot(int y0, int x0, int h, int w, attr_t a, const char *foot);

enum { PAIR_TITLE = 1, PAIR_FREE, PAIR_INUSE, PAIR_PROTECTED };

static bool colour;

void tui_colors_init(void)
{
	const char *no = getenv("NO_COLOR");

	/* no-color.org: set and not empty */
	colour = has_colors() && !(no && *no);
	if (!colour)
		return;
	start_color();
	use_default_colors();
	init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_FREE, COLOR_GREEN, -1);
	/* on the terminal's own background, light or dark: no yellow or cyan
	 * text (unreadable on white), no blue (unreadable on black); headings
	 * bold and underlined in the terminal's own colour */
	init_pair(PAIR_INUSE, COLOR_MAGENTA, -1);
	init_pair(PAIR_PROTECTED, COLOR_RED, -1);
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

attr_t tui_attr_head(void)
{
	return A_BOLD | A_UNDERLINE;
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

void tui_put(int y, int x, const char *s, int cols)
{
	if (cols > 0 && y >= 0 && y < LINES && x >= 0 && x < COLS)
		mvaddnstr(y, x, s,
			  (int)glyphs_bytes(s, (size_t)(cols < COLS - x ? cols : COLS - x)));
}

int tui_put_cut(int y, int x, const char *s, int cols)
{
	char buf[1024];

	if (cols > COLS - x)
		cols = COLS - x;
	if (cols <= 0)
		return 0;
	tui_cut(s, cols, buf, sizeof(buf));
	tui_put(y, x, buf, cols);
	return (int)glyphs_cols(buf);
}

const char *tui_cut(const char *s, int cols, char *buf, size_t len)
{
	size_t b;

	if (cols < 1 || glyphs_cols(s) <= (size_t)cols) {
		snprintf(buf, len, "%s", cols < 1 ? "" : s);
		return buf;
	}
	b = glyphs_bytes(s, (size_t)cols - 1);
	snprintf(buf, len, "%.*s%s", (int)b, s, glyphs()->cut);
	return buf;
}

/* A frame's line of n cells from (y, x). */
static void rule(int y, int x, int n)
{
	for (int i = 0; i < n && x + i < COLS; i++)
		tui_put(y, x + i, glyphs()->h, 1);
}

void tui_keybar(const struct tui_model *m, const struct tui_keylabel *k, size_t n,
		const char *status)
{
	struct tui_model *mm = (struct tui_model *)m;
	int y = LINES - 1, x = 0, need = 0, sw = status && status[0] ? (int)glyphs_cols(status) : 0;
	bool skip[TUI_MAX_HITS] = { false };

	mm->nhits = 0;
	move(y, 0);
	clrtoeol();
	if (n > TUI_MAX_HITS)
		n = TUI_MAX_HITS;
	for (size_t i = 0; i < n; i++)
		need += (int)(glyphs_cols(k[i].key) + glyphs_cols(k[i].label)) + 2;
	/* a status that fits whole once labels before the last (close) are left
	 * out, from the right: they go (the pager's place in its text) */
	if (sw && need + sw > COLS) {
		int drop = need;

		for (size_t i = n - 1; n > 2 && i-- > 1 && drop + sw > COLS;)
			drop -= (int)(glyphs_cols(k[i].key) + glyphs_cols(k[i].label)) + 2;
		for (size_t i = n - 1; n > 2 && drop + sw <= COLS && i-- > 1 && need + sw > COLS;) {
			skip[i] = true;
			need -= (int)(glyphs_cols(k[i].key) + glyphs_cols(k[i].label)) + 2;
		}
	}
	for (size_t i = 0; i < n && x < COLS; i++) {
		int kl = (int)glyphs_cols(k[i].key), ll = (int)glyphs_cols(k[i].label);

		if (skip[i])
			continue;
		if (x + kl + ll + 1 > COLS)
			break;
		attron(A_BOLD);
		tui_put(y, x, k[i].key, COLS - x);
		attroff(A_BOLD);
		attron(attr_title());
		mvaddch(y, x + kl, ' ');
		tui_put(y, x + kl + 1, k[i].label, COLS - x - kl - 1);
		attroff(attr_title());
		if (mm->nhits < TUI_MAX_HITS)
			mm->hits[mm->nhits++] = (struct tui_hit){ y, x, x + kl + 1 + ll,
								  k[i].code };
		x += kl + 1 + ll + 1;
	}
	/* the status after the labels: whole, or cut (with its mark) where
	 * enough of it shows to be read, else not at all (no fragment) */
	if (status && status[0] && x + 2 < COLS &&
	    ((int)glyphs_cols(status) <= COLS - x - 1 || COLS - x - 1 >= 24))
		tui_put_cut(y, x + 1, status, COLS - x - 1);
}

/* The STATE cell of a drive a job is working on: a progress bar. */
static bool task_cell(const struct tui_model *m, const struct dev_entry *e, int width, char *buf,
		      size_t len)
{
	char bar[4 * 20 + 1], eta[24];
	struct job_status st;
	struct tui_task *t = tui_task_for((struct tui_model *)m, e->spec);

	if (!t)
		return false;
	job_status(t->job, &st);
	glyphs_bar(st.fraction, 1.0, 20, NULL, false, bar, sizeof(bar));
	if (st.eta_s >= 0)
		duration_human(st.eta_s, eta, sizeof(eta));
	else
		snprintf(eta, sizeof(eta), "--");
	if (width < 40) { /* a narrow screen: the figures without the bar, what fits */
		snprintf(buf, len, "%.0f%% %s %s", st.fraction * 100.0, t->what, eta);
		if ((int)glyphs_cols(buf) > width)
			snprintf(buf, len, "%.0f%% %s", st.fraction * 100.0, t->what);
	} else
		snprintf(buf, len, "%s [%s] %3.0f%% %s %s", t->what, bar, st.fraction * 100.0, eta,
			 st.phase);
	return true;
}

enum { TABLE_COLS = 32, LAST_MIN = 30 };

/* The drive table's column widths at this screen width (-1: the column is
 * left out): the registry's, the last one the rest of the line; on a wide
 * screen a column whose values are longer (a model's name) grows to them
 * while the last keeps LAST_MIN columns. */
static void col_widths(const struct tui_model *m, int *w)
{
	const struct table *t = m->drives;
	unsigned n = t ? table_cols(t) : 0;
	int x = 1, last = -1;
	char buf[256];

	for (unsigned c = 0; c < n && c < TABLE_COLS; c++) {
		const struct col_def *def = table_col(t, c);

		w[c] = -1;
		if (tui_col_min(table_col_id(t, c)) > COLS)
			continue;
		w[c] = def->width ? def->width : (int)strlen(def->name) + 12;
		last = (int)c;
	}
	for (unsigned c = 0; c < n && c < TABLE_COLS; c++)
		if (w[c] >= 0 && (int)c != last)
			x += w[c] + 1;
	for (unsigned c = 0; COLS >= 120 && c < n && c < TABLE_COLS; c++) {
		int want = w[c];

		if (w[c] < 0 || (int)c == last)
			continue;
		for (size_t r = 0; r < m->n && r < table_rows(t); r++) {
			int l = (int)glyphs_cols(
			    table_cell_text(t, (unsigned)r, c, 0, 0, buf, sizeof(buf)));

			want = l > want ? l : want;
		}
		if (want > w[c] && COLS - x - 1 - (want - w[c]) >= LAST_MIN) {
			x += want - w[c];
			w[c] = want;
		}
	}
	if (last >= 0)
		w[last] = COLS - x - 1;
}

/* A row of the drive table (e NULL: the header), with the columns the
 * screen is wide enough for (col_widths). */
static void draw_row(int y, const struct tui_model *m, const struct dev_entry *e, bool sel,
		     const int *cw)
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
	for (unsigned c = 0; t && c < table_cols(t) && c < TABLE_COLS && x < COLS; c++) {
		const struct col_def *def = table_col(t, c);
		int w = cw[c];
		bool state = table_col_id(t, c) == DRV_STATE;

		if (w < 0)
			continue;
		if (e && state && task_cell(m, e, w, buf, sizeof(buf)))
			;
		else if (e)
			table_cell_text(t, (unsigned)idx, c, 0, w, buf, sizeof(buf));
		else /* the sort column: ^ ascending, v descending */
			snprintf(buf, sizeof(buf), "%s%s", def->name,
				 m->sort_by != table_col_id(t, c) + 1 ? ""
				 : m->sort_desc			      ? "v"
								      : "^");
		if (e && state && !sel)
			attron(attr_state(e->state));
		if (e) /* a value longer than its column: cut, and said so */
			tui_put_cut(y, x, buf, w > 0 ? w : 0);
		else
			tui_put(y, x, buf, w > 0 ? w : 0);
		if (e && state && !sel)
			attroff(attr_state(e->state));
		x += w + 1;
	}
	if (sel)
		attroff(A_REVERSE);
}

enum { DETAIL_FIELDS = 64 };

/* The selected drive's fields, a value longer than its column wrapped under
 * itself; two columns of fields from 120 columns on. A field that does not
 * fit whole is left for the detail view (Enter), and the last row says so. */
static void draw_detail(int y0, int h, const struct tui_model *m)
{
	const struct dev_entry *e = &m->devs[m->sel];
	struct record *r = record_new();
	int n, ncol = COLS >= 120 ? 2 : 1, col_w = COLS / ncol, vw = col_w - 19, total = 0;
	int need[DETAIL_FIELDS], split, left = 0, room = h;
	const char *label, *text;
	char buf[512];

	if (m->health && m->health[m->sel][0])
		record_text(r, "SMART health", "%s", m->health[m->sel]);
	describe_drive(r, e);
	n = (int)record_count(r);
	if (n > DETAIL_FIELDS)
		n = DETAIL_FIELDS;
	for (int i = 0; i < n; i++) {
		record_get_line(r, i, &label, &text);
		need[i] = vw > 0 && text[0] ? tui_wrap_rows(text, vw) : 1;
		total += need[i] ? need[i] : 1;
	}
	/* the second column starts at the field where the first has half */
	split = n;
	for (int i = 0, acc = 0; ncol == 2 && i < n; acc += need[i++])
		if (acc >= (total + 1) / 2) {
			split = i;
			break;
		}
	for (int c = 0, want = 0; c < ncol; c++, want = 0) {
		for (int i = c ? split : 0; i < (c ? n : split); i++)
			want += need[i];
		if (want > h)
			room = h - 1; /* the last row says what is left out */
	}
	for (int c = 0; c < ncol; c++) {
		int first = c ? split : 0, last = c ? n : split, x = 1 + c * col_w, y = y0;

		for (int i = first; i < last; i++) {
			if (y + need[i] > y0 + room) {
				left += last - i;
				break;
			}
			record_get_line(r, i, &label, &text);
			snprintf(buf, sizeof(buf), "%s:", label);
			attron(A_BOLD);
			tui_put(y, x, buf, 16);
			attroff(A_BOLD);
			if (x + 17 < COLS && vw > 0 && text[0])
				tui_wrap_draw(y, x + 17, text, vw, need[i]);
			y += need[i];
		}
	}
	if (left) {
		snprintf(buf, sizeof(buf), "%s %d more field%s: Enter shows every detail",
			 glyphs()->cut, left, left == 1 ? "" : "s");
		attron(A_BOLD);
		tui_put_cut(y0 + h - 1, 1, buf, COLS - 2);
		attroff(A_BOLD);
	}
	record_free(r);
}

/* The length of the next row of p at most width wide: cut at the last
 * space that fits, else in the middle of a word. */
/* The length of p's next row at most width wide: cut at the last space that
 * fits, else in the middle of a word. */
static size_t tui_wrap_cut(const char *p, int width)
{
	size_t n = strlen(p), cut, fit;

	if (width < 1)
		width = 1;
	fit = glyphs_bytes(p, (size_t)width);
	if (fit >= n)
		return n;
	for (cut = fit; cut > 0 && p[cut] != ' '; cut--)
		;
	return cut ? cut : fit;
}

/* Rows that text needs at width (a paragraph per line of the dialog). */
int tui_wrap_rows(const char *p, int width)
{
	return tui_wrap_rows_ind(p, width, 0);
}

static int tui_wrap_rows_ind(const char *p, int width, int ind)
{
	int rows = 0, in = 0;

	while (*p) {
		p += tui_wrap_cut(p, width - in);
		while (*p == ' ')
			p++;
		rows++;
		in = ind < width - 10 ? ind : 0;
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
	return tui_wrap_draw_ind(y, x, p, width, 0, max);
}

/* tui_wrap_draw with the rows after the first indented by ind columns. */
static int tui_wrap_draw_ind(int y, int x, const char *p, int width, int ind, int max)
{
	int rows = 0, in = 0;

	while (*p && rows < max) {
		size_t cut = tui_wrap_cut(p, width - in);

		if (y + rows >= 0 && y + rows < LINES && x + in < COLS)
			mvaddnstr(y + rows, x + in, p, (int)cut);
		p += cut;
		while (*p == ' ')
			p++;
		rows++;
		in = ind < width - 10 ? ind : 0;
	}
	return rows;
}

/* The help box: the keys of the screen it was opened over (its table), as
 * wide as the longest line needs (up to the screen), framed, its lines
 * wrapped to that width, scrolled by its top when the screen is too short;
 * its key bar under it. */
void tui_draw_help(const struct tui_model *m, void *data)
{
	enum { MAXR = 200, IND = 17 };
	static char rows[MAXR][256];
	struct tui_help *h = data;
	struct tui_lines text = { 0 };
	char foot[128];
	int nr = 0, longest = 0, w, tw, vis, top, y0, x0;

	/* the keys of the screen it was opened over, then what they are about */
	tui_help_text(h->of, &text);
	for (size_t i = 0; i < text.n; i++)
		if ((int)strlen(text.v[i]) > longest && text.v[i][0] == ' ')
			longest = (int)strlen(text.v[i]);
	w = COLS < longest + 4 ? COLS : longest + 4;
	tw = w - 4 > 1 ? w - 4 : 1;
	/* wrap: a key line's continuation goes under its text */
	for (size_t i = 0; i < text.n && nr < MAXR; i++)
		nr += tui_wrap_into(text.v[i], tw,
				    text.v[i][0] == ' ' && text.v[i][1] == ' ' ? IND : 0, rows + nr,
				    MAXR - nr);
	tui_lines_clear(&text);
	vis = LINES - 3 < nr ? LINES - 3 : nr; /* the frame's two rows, the key bar */
	if (vis < 1)
		vis = 1;
	h->max = (size_t)(nr - vis);
	h->page = (size_t)vis;
	if (h->top > h->max)
		h->top = h->max;
	top = (int)h->top;
	if (nr > vis)
		snprintf(foot, sizeof(foot), "lines %d-%d of %d %s%s", top + 1, top + vis, nr,
			 top ? glyphs()->more_up : "", top + vis < nr ? glyphs()->more_down : "");
	else
		snprintf(foot, sizeof(foot), "any key closes");
	y0 = (LINES - 1 - vis - 2) / 2;
	x0 = (COLS - w) / 2;
	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	tui_box(y0, x0, vis + 2, w, attr_title(), "shortstroke - keys");
	attron(attr_title());
	for (int i = 0; i < vis; i++)
		tui_put(y0 + 1 + i, x0 + 2, rows[top + i], tw);
	attroff(attr_title());
	tui_box_foot(y0, x0, vis + 2, w, attr_title(), foot);
	tui_keybar(m, tui_help_screen.bar, tui_help_screen.nbar, "any other key closes");
}

void tui_box(int y0, int x0, int h, int w, attr_t a, const char *title)
{
	const struct glyphs *g = glyphs();
	char buf[256];

	attron(a);
	for (int i = 0; i < h && y0 + i < LINES; i++) {
		mvhline(y0 + i, x0, ' ', w);
		if (w < 2)
			continue;
		tui_put(y0 + i, x0, i == 0 ? g->tl : i == h - 1 ? g->bl : g->v, 1);
		tui_put(y0 + i, x0 + w - 1, i == 0 ? g->tr : i == h - 1 ? g->br : g->v, 1);
		if (i == 0 || i == h - 1)
			rule(y0 + i, x0 + 1, w - 2);
	}
	if (title) {
		snprintf(buf, sizeof(buf), " %s ", title);
		tui_put_cut(y0, x0 + 2, buf, w - 4);
	}
	attroff(a);
}

/* foot on the bottom row of the box tui_box drew. */
static void tui_box_foot(int y0, int x0, int h, int w, attr_t a, const char *foot)
{
	char buf[256];

	snprintf(buf, sizeof(buf), " %s ", foot);
	attron(a);
	tui_put(y0 + h - 1, x0 + 2, buf, w - 4);
	attroff(a);
}

/* A dialog: framed, its lines and its refusal wrapped to the box, scrolled
 * (d->top) when they do not fit over the input line; the keys on the
 * bottom frame and in the key bar. */
void tui_draw_dialog(const struct tui_model *m, void *data)
{
	const struct tui_dialog *d = data;
	static const struct tui_keylabel k_submit[] = {
		{ "Enter", "go on", TK_ENTER },
		{ "Esc", "cancel", TK_ESC },
		{ "PgUp", "up", TK_PGUP },
		{ "PgDn", "down", TK_PGDN },
	};
	static const struct tui_keylabel k_close[] = {
		{ "Enter", "close", TK_ENTER },
		{ "Esc", "close", TK_ESC },
		{ "PgUp", "up", TK_PGUP },
		{ "PgDn", "down", TK_PGDN },
	};
	char(*rows)[256];
	bool *strong;
	struct tui_dialog *md = (struct tui_dialog *)d;
	int w = COLS - 4 < 78 ? COLS - 4 : 78, tw, nr = 0, maxr = 1, vis, h, y0, x0, y, room;
	attr_t a = d->alert ? attr_state(DEV_PROTECTED) | A_REVERSE : attr_title();
	char buf[256], foot[128];

	if (d->form) {
		tui_draw_form(d);
		tui_keybar(m, k_submit, 2, "Tab field  Left/Right change");
		return;
	}
	if (w < 20)
		w = COLS;
	tw = w - 4 > 1 ? w - 4 : 1;
	/* its rows wrapped (a summary of many drives: as many as it needs) */
	for (size_t i = 0; i < d->lines.n; i++)
		maxr += d->lines.v[i][0]
			    ? tui_wrap_rows_ind(d->lines.v[i], tw, d->lines.v[i][0] == ' ' ? 4 : 0)
			    : 1;
	maxr += tui_wrap_rows(d->error, tw);
	rows = malloc((size_t)maxr * sizeof(*rows));
	strong = malloc((size_t)maxr * sizeof(*strong));
	if (!rows || !strong) {
		free(rows);
		free(strong);
		return;
	}
	for (size_t i = 0; i < d->lines.n && nr < maxr; i++) {
		/* a line that is a list's item ("  spec: why") wraps under its text */
		int ind = d->lines.v[i][0] == ' ' ? 4 : 0;
		int k = tui_wrap_into(d->lines.v[i], tw, ind, rows + nr, maxr - nr);

		for (int j = 0; j < k; j++)
			strong[nr + j] = false;
		nr += k;
	}
	if (d->error[0] && nr < maxr) {
		int k = tui_wrap_into(d->error, tw, 0, rows + nr, maxr - nr);

		for (int j = 0; j < k; j++)
			strong[nr + j] = true;
		nr += k;
	}
	/* the screen less the key bar, the frame and the input line */
	room = LINES - 1 - 2 - (d->input ? 2 : 0);
	vis = nr < room ? nr : room;
	if (vis < 1)
		vis = 1;
	md->top_max = nr > vis ? (size_t)(nr - vis) : 0;
	md->page = (size_t)vis;
	if (md->top > md->top_max)
		md->top = md->top_max;
	h = vis + 2 + (d->input ? 2 : 0);
	y0 = (LINES - 1 - h) / 2;
	x0 = (COLS - w) / 2;
	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	tui_box(y0, x0, h, w, a, d->title);
	attron(a);
	for (int i = 0; i < vis && (int)md->top + i < nr; i++) {
		int r = (int)md->top + i;

		if (strong[r])
			attron(A_BOLD);
		tui_put(y0 + 1 + i, x0 + 2, rows[r], tw);
		if (strong[r])
			attroff(A_BOLD);
	}
	attroff(a);
	if (d->input) {
		int pl = (int)strlen(d->prompt);

		y = y0 + h - 2;
		attron(a);
		tui_put(y, x0 + 2, d->prompt, w - 4);
		attroff(a);
		snprintf(buf, sizeof(buf), " %s_", d->text);
		if (w - 5 - pl > 0) {
			mvhline(y, x0 + 3 + pl, ' ', w - 5 - pl);
			/* the end of a long input, where the cursor is */
			tui_put(y, x0 + 3 + pl,
				buf + ((int)strlen(buf) > w - 5 - pl
					   ? (int)strlen(buf) - (w - 5 - pl)
					   : 0),
				w - 5 - pl);
		}
	}
	if (md->top_max)
		snprintf(foot, sizeof(foot), "lines %zu-%zu of %d %s%s PgUp/PgDn scroll",
			 md->top + 1, md->top + (size_t)vis, nr, md->top ? glyphs()->more_up : "",
			 md->top < md->top_max ? glyphs()->more_down : "");
	else
		snprintf(foot, sizeof(foot), "%s",
			 d->submit ? "Enter goes on, Esc cancels." : "Press any key.");
	tui_box_foot(y0, x0, h, w, a, foot);
	if (d->submit)
		tui_keybar(m, k_submit, md->top_max ? 4 : 2, NULL);
	else
		tui_keybar(m, k_close, md->top_max ? 4 : 2, NULL);
	free(rows);
	free(strong);
}

/* Where a pager's line goes on when it wraps: under its second field (a
 * run of two spaces then text) that starts in the left half, else under its
 * own start. */
static int hang_indent(const char *s, int width)
{
	int lead = (int)strspn(s, " "), ind = lead;

	for (int i = lead; s[i] && i < width / 2; i++)
		if (s[i] == ' ' && s[i + 1] == ' ' && s[i + 2] && s[i + 2] != ' ')
			ind = i + 2;
	return ind;
}

static int pager_rows(const char *s, int width)
{
	return s[0] ? tui_wrap_rows_ind(s, width, hang_indent(s, width)) : 1;
}

/* A full-screen text: its lines wrapped to the screen (nothing cut, a
 * wrapped line's rest under its text), from p->top on. */
void tui_draw_pager(const struct tui_model *m, void *data)
{
	const struct tui_pager *p = data;
	static const struct tui_keylabel k_load[] = { { "Esc", "stop it", TK_ESC } };
	struct tui_pager *mp = (struct tui_pager *)p;
	char buf[256];
	size_t last = p->top, full = p->top;
	int y = 1, rows = 0;

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	tui_put_cut(0, 1, p->title, COLS - 2);
	attroff(attr_title());
	/* the last top that still fills the screen: the end's screenful */
	mp->top_max = p->n;
	while (mp->top_max > 0 && rows + pager_rows(p->lines[mp->top_max - 1], COLS) <= LINES - 2)
		rows += pager_rows(p->lines[--mp->top_max], COLS);
	if (mp->top > mp->top_max)
		mp->top = mp->top_max;
	if (p->loading) {
		/* still being read: a spinner and what, until the text is there */
		tui_bg_line(p->loading, buf, sizeof(buf));
		tui_put(2, 2, buf, COLS - 3);
		tui_keybar(m, TUI_KEYS(k_load), NULL);
		return;
	}
	for (size_t i = p->top; i < p->n && y < LINES - 1; i++) {
		int r = tui_wrap_draw_ind(y, 0, p->lines[i], COLS, hang_indent(p->lines[i], COLS),
					  LINES - 1 - y);

		y += r ? r : 1;
		last = i + 1;
		if (r < pager_rows(p->lines[i], COLS))
			full = i; /* cut at the bottom: the next page starts with it */
		else
			full = i + 1;
	}
	mp->page = full > p->top ? full - p->top : 1;
	/* a line cut at the bottom counts as below */
	snprintf(buf, sizeof(buf), "lines %zu-%zu of %zu%s%s", p->n ? p->top + 1 : 0, last, p->n,
		 p->top ? glyphs()->more_up : "", full < p->n ? glyphs()->more_down : "");
	tui_keybar(m, tui_pager_screen.bar, tui_pager_screen.nbar, buf);
}

/* ---- the planner screen ------------------------------------------------------- */

static void planner_field_value(const struct tui_planner *p, unsigned f, char *buf, size_t len)
{
	if (f == TPF_LEVEL)
		snprintf(buf, len, "%s", p->level < 0 ? "any" : rp_level_name(p->level));
	else if (f == TPF_WORKLOAD)
		snprintf(buf, len, "%s", rp_profile_name(p->profile));
	else if (f == TPF_CONTROLLER)
		snprintf(buf, len, "%s", rp_controller_name(p->controller));
	else
		snprintf(buf, len, "%s", p->text[f]);
}

static const char *const planner_hints[TPF_COUNT] = {
	[TPF_LEVEL] = "Left/Right: any, 0, 1, 10, 0+1, 5, 6, 50, 60",
	[TPF_CAPACITY] = "usable capacity at least (500G, 2T); empty: no goal",
	[TPF_IOPS] = "the workload's IOPS at least, at queue depth 16",
	[TPF_ACCESS] = "average random access time at most, ms (QD 1)",
	[TPF_TOLERATE] = "disks that may fail without loss (empty: 1)",
	[TPF_STROKE] = "one layout's stroke (25%, 0.25); empty: search",
	[TPF_WORKLOAD] = "Left/Right: database, fileserver, webserver, ...",
	[TPF_CONTROLLER] = "Left/Right: md (Linux software RAID), hba, hw-raid",
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

void tui_draw_planner(const struct tui_model *m, void *data)
{
	const struct tui_planner *p = data;
	char buf[512], v[64], cap[32];
	int y = 0, used, lw, nw, cw, iw, aw;
	bool mttdl;

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	used = snprintf(buf, sizeof(buf), " Planner - %zu drive%s:", p->n, p->n == 1 ? "" : "s");
	for (size_t i = 0; i < p->n && used < (int)sizeof(buf); i++)
		used += snprintf(buf + used, sizeof(buf) - (size_t)used, " %s", p->pool[i].device);
	tui_put_cut(0, 0, buf, COLS); /* the count first: a long list is cut, and says so */
	attroff(attr_title());

	y = 2;
	for (unsigned f = 0; f < TPF_COUNT; f++, y++) {
		bool cur = f == p->field;

		planner_field_value(p, f, v, sizeof(v));
		attron(A_BOLD);
		tui_put(y, 2, tui_plan_field_names[f], 12);
		attroff(A_BOLD);
		/* 14 columns between the brackets: a longer value is clipped (its
		 * end while it is typed, where the cursor is) */
		if (cur && f != TPF_LEVEL && f != TPF_WORKLOAD && f != TPF_CONTROLLER)
			snprintf(buf, sizeof(buf), "[%-14s]",
				 strcat(v + (strlen(v) > 13 ? strlen(v) - 13 : 0), "_"));
		else
			snprintf(buf, sizeof(buf), "[%-14.14s]", v);
		if (cur)
			attron(A_REVERSE);
		tui_put(y, 15, buf, COLS - 16);
		if (cur)
			attroff(A_REVERSE);
		if (cur && COLS - 34 >= (int)strlen(planner_hints[f]))
			tui_put(y, 33, planner_hints[f], COLS - 34);
	}
	/* a narrow screen: the focused field's hint under the fields, wrapped */
	if (COLS - 34 < (int)strlen(planner_hints[p->field]))
		y += tui_wrap_draw(y, 4, planner_hints[p->field], COLS - 5, 2);
	y++;
	if (p->error[0]) {
		attron(attr_state(DEV_PROTECTED));
		y += tui_wrap_draw(y, 2, p->error, COLS - 3, 3);
		attroff(attr_state(DEV_PROTECTED));
	} else if (!p->met) {
		if (p->unmet[0])
			snprintf(buf, sizeof(buf), "Impossible (unmet: %s): %s", p->unmet,
				 p->message);
		else
			snprintf(buf, sizeof(buf), "Impossible: %s", p->message);
		attron(attr_state(DEV_PROTECTED) | A_BOLD);
		y += tui_wrap_draw(y, 2, buf, COLS - 3, 4);
		attroff(attr_state(DEV_PROTECTED) | A_BOLD);
	} else {
		snprintf(buf, sizeof(buf), "%s (%zu layouts evaluated)", p->message, p->evaluated);
		attron(attr_state(DEV_FREE));
		y += tui_wrap_draw(y, 2, buf, COLS - 3, 3);
		attroff(attr_state(DEV_FREE));
	}
	y++;
	/* the closest layouts' SHORT OF on an 80-column screen: without MTTDL-Y */
	mttdl = p->met || COLS >= 100;
	/* narrower below 100 columns: "10 (3 copies)", "50 (2 groups)"; IOPS to 99999 */
	lw = COLS >= 100 ? 15 : 13;
	nw = COLS >= 100 ? 3 : 2;
	cw = COLS >= 100 ? 9 : 8;
	iw = COLS >= 100 ? 8 : 7;
	aw = COLS >= 100 ? 7 : 6;
	if (p->nrows) {
		snprintf(buf, sizeof(buf), "  %-*s %-*s %5s %7s %*s %*s %*s %4s%*s%s  %s", nw, "#",
			 lw, p->met ? "LEVEL" : "CLOSEST LEVEL", "DISKS", "STROKE", cw, "CAPACITY",
			 iw, "IOPS", aw, "ACC-MS", "TOL", mttdl ? 10 : 0, mttdl ? "MTTDL-Y" : "",
			 "", p->met ? "" : "SHORT OF");
		attron(tui_attr_head());
		tui_put_cut(y++, 0, buf, COLS);
		attroff(tui_attr_head());
	}
	for (size_t i = 0; i < p->nrows && y < LINES - 4; i++, y++) {
		const struct tui_plan_row *r = &p->rows[i];
		attr_t a = A_NORMAL;

		mttdl_text(r->mttdl_h, v, sizeof(v));
		snprintf(buf, sizeof(buf), "%c %-*zu %-*s %5u %6.1f%% %*s %*.0f %*.2f %4u%*s%s  %s",
			 i == p->chosen ? '>' : ' ', nw, i + 1, lw, r->level, r->disks,
			 100 * r->stroke, cw, size_human(r->capacity, cap, sizeof(cap)), iw,
			 r->iops, aw, r->access_ms, r->tolerates,
			 mttdl ? (int)strlen(v) < 10 ? 10 - (int)strlen(v) : 1 : 0, "",
			 mttdl ? v : "", r->shortfall);
		if (i == 0 && p->met)
			a |= (colour ? COLOR_PAIR(PAIR_FREE) : 0) | A_BOLD;
		if (i == p->chosen)
			a |= A_REVERSE;
		attron(a);
		mvhline(y, 0, ' ', COLS);
		tui_put_cut(y, 0, buf, COLS);
		attroff(a);
	}
	y++;
	/* the notes that fit whole above the status row; the last row says
	 * how many are left for ^N */
	for (size_t i = 0; i < p->notes.n; i++) {
		int need;

		snprintf(buf, sizeof(buf), "note: %s", p->notes.text[i]);
		need = tui_wrap_rows_ind(buf, COLS - 3, 6);
		if (y + need > LINES - 2 - (i + 1 < p->notes.n)) {
			snprintf(buf, sizeof(buf), "%s %zu more note%s: ^N shows them all",
				 glyphs()->cut, p->notes.n - i, p->notes.n - i == 1 ? "" : "s");
			if (y < LINES - 2)
				tui_put_cut(y, 2, buf, COLS - 3);
			break;
		}
		y += tui_wrap_draw_ind(y, 2, buf, COLS - 3, 6, need);
	}
	/* the status row: the last action's message ("plan written to ...") */
	if (m->status[0]) {
		attron(A_BOLD);
		tui_put_cut(LINES - 2, 2, m->status, COLS - 3);
		attroff(A_BOLD);
	}
	tui_keybar(m, tui_planner_screen.bar, tui_planner_screen.nbar, NULL);
}

/* ---- arrays: an apply's progress, the arrays screen ---------------------------- */

static void bar_text(double f, char *buf, size_t len)
{
	glyphs_bar(f, 1.0, COLS >= 100 ? 20 : 10, NULL, false, buf, len);
}

void tui_draw_applying(const struct tui_model *m, void *data)
{
	struct tui_applying *ap = data;
	char buf[512], bar[4 * 20 + 1];
	int y = 2;

	erase();
	pthread_mutex_lock(&ap->lock);
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	snprintf(buf, sizeof(buf), " Apply /dev/md/%s - %s", ap->name, ap->title);
	tui_put_cut(0, 0, buf, COLS);
	attroff(attr_title());
	for (size_t i = 0; i < ap->n && y < LINES - 6; i++, y++) {
		bar_text(ap->m[i].fraction, bar, sizeof(bar));
		snprintf(buf, sizeof(buf), " %s%-2zu %-14s %-*s [%s] %3.0f%% %s",
			 COLS >= 100 ? "member " : "", i + 1, ap->m[i].spec, COLS >= 100 ? 18 : 14,
			 ap->m[i].serial, bar, 100.0 * ap->m[i].fraction, ap->m[i].phase);
		tui_put_cut(y, 0, buf, COLS);
	}
	y++;
	attron(A_BOLD);
	snprintf(buf, sizeof(buf), " Step: %s", ap->step);
	y += tui_wrap_draw_ind(y, 0, buf, COLS - 1, 7, 2);
	attroff(A_BOLD);
	if (ap->done) {
		attr_t a = ap->rc ? attr_state(DEV_PROTECTED) | A_BOLD
				  : attr_state(DEV_FREE) | A_BOLD;

		y++;
		attron(a);
		snprintf(buf, sizeof(buf), " %s %s", ap->rc ? "Failed:" : "Done:", ap->result);
		y += tui_wrap_draw(y, 1, buf, COLS - 2, LINES - y - 1);
		attroff(a);
	}
	pthread_mutex_unlock(&ap->lock);
	{
		static const struct tui_keylabel k_done[] = { { "Enter", "the arrays screen",
								TK_ENTER } };

		if (ap->done)
			tui_keybar(m, TUI_KEYS(k_done), m->status);
		else
			tui_keybar(m, NULL, 0, "running: it cannot be aborted halfway");
	}
}

static double rec_stroke(const struct array_member *m)
{
	return m->before_blocks ? (double)m->limit_blocks / (double)m->before_blocks : 0;
}

/* The arrays screen: a row per record (the columns the width allows, the
 * members cut with the cut mark), the selected one below: its device, level
 * and step wrapped, a row per member (sizes in blocks on a wide screen);
 * Enter shows every field of it. */
void tui_draw_arrays(const struct tui_model *m, void *data)
{
	const struct tui_arrays *a = data;
	char buf[512], members[300], h[32], h2[32];
	int y = 1, nw = 4, sw = 5, list_end = LINES / 2, foot = LINES - 2; /* the status row */
	bool wide = COLS >= 100;

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	snprintf(buf, sizeof(buf), " Arrays shortstroke created - %zu", a->n);
	tui_put_cut(0, 0, buf, COLS);
	attroff(attr_title());
	for (size_t i = 0; i < a->n; i++) {
		int l = (int)strlen(a->recs[i].name),
		    s = (int)strlen(array_state_name(a->recs[i].state));

		nw = l > nw ? l : nw;
		sw = s > sw ? s : sw;
	}
	attron(tui_attr_head());
	snprintf(buf, sizeof(buf), "  %-*s %-*s %-5s %6s %9s %s", nw, "NAME", sw, "STATE", "LEVEL",
		 "STROKE", "LIMIT", "MEMBERS");
	tui_put_cut(y++, 0, buf, COLS);
	attroff(tui_attr_head());
	if (!a->n)
		y += tui_wrap_draw(y, 2,
				   a->error[0]
				       ? a->error
				       : "No arrays yet: in the planner (p), ^A applies the "
					 "chosen layout.",
				   COLS - 3, 3);
	((struct tui_model *)m)->rows_y = y; /* for a click on a row */
	((struct tui_model *)m)->rows_n = (unsigned)(a->n < (size_t)(list_end - y)
							 ? a->n
							 : (size_t)(list_end - y > 0 ? list_end - y
										     : 0));
	for (size_t i = 0; i < a->n && y < list_end; i++, y++) {
		const struct array_rec *r = &a->recs[i];
		size_t used = 0;

		members[0] = '\0';
		for (size_t k = 0; k < r->n && used < sizeof(members); k++)
			if (r->m[k].state != AM_REPLACED)
				used += (size_t)snprintf(members + used, sizeof(members) - used,
							 "%s%s", used ? "," : "", r->m[k].spec);
		snprintf(buf, sizeof(buf), "%c %-*s %-*s %-5s %5.1f%% %9s %s",
			 i == a->sel ? '>' : ' ', nw, r->name, sw, array_state_name(r->state),
			 r->level, r->n ? 100.0 * rec_stroke(&r->m[0]) : 0,
			 r->n ? size_human(r->m[0].limit_blocks * r->m[0].block_len, h, sizeof(h))
			      : "-",
			 members);
		if (i == a->sel)
			attron(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
		tui_put_cut(y, 0, buf, COLS);
		if (i == a->sel)
			attroff(A_REVERSE);
	}
	y++;
	if (a->n) {
		const struct array_rec *r = &a->recs[a->sel];
		size_t k;

		snprintf(buf, sizeof(buf),
			 "%s: RAID %s, chunk %" PRIu64 " KiB%s%s, created %s; step: %s", r->md_dev,
			 r->level, r->chunk_bytes / 1024, r->fs[0] ? ", " : "", r->fs, r->created,
			 r->step);
		attron(A_BOLD);
		y += tui_wrap_draw_ind(y, 1, buf, COLS - 2, 2, foot - y);
		attroff(A_BOLD);
		if (r->remains[0] && y < foot) {
			snprintf(buf, sizeof(buf), "remains: %s", r->remains);
			attron(attr_state(DEV_PROTECTED));
			y += tui_wrap_draw_ind(y, 1, buf, COLS - 2, 2, foot - y);
			attroff(attr_state(DEV_PROTECTED));
		}
		for (k = 0; k < r->n && y < foot; k++, y++) {
			const struct array_member *mb = &r->m[k];

			if (y == foot - 1 && k + 1 < r->n)
				break; /* the last row says what is left out */
			if (wide)
				snprintf(buf, sizeof(buf),
					 "   %-14s %-18s %-9s %" PRIu64 " of %" PRIu64
					 " blocks (%.1f%%) %s%s",
					 mb->spec, mb->serial, array_mstate_name(mb->state),
					 mb->limit_blocks, mb->before_blocks,
					 100.0 * rec_stroke(mb), mb->method,
					 mb->volatile_ ? ", volatile" : "");
			else
				snprintf(
				    buf, sizeof(buf), "   %-12s %-14s %-8s %s of %s %s%s", mb->spec,
				    mb->serial, array_mstate_name(mb->state),
				    size_human(mb->limit_blocks * mb->block_len, h, sizeof(h)),
				    size_human(mb->before_blocks * mb->block_len, h2, sizeof(h2)),
				    mb->method, mb->volatile_ ? ", volatile" : "");
			tui_put_cut(y, 0, buf, COLS);
		}
		if (k < r->n && y < LINES - 1) {
			snprintf(buf, sizeof(buf),
				 "   %s %zu more member%s: Enter shows every detail", glyphs()->cut,
				 r->n - k, r->n - k == 1 ? "" : "s");
			attron(A_BOLD);
			tui_put_cut(y, 0, buf, COLS);
			attroff(A_BOLD);
		}
	}
	if (a->busy[0]) {
		attron(attr_state(DEV_IN_USE) | A_BOLD);
		tui_put_cut(LINES - 2, 1, a->busy, COLS - 2);
		attroff(attr_state(DEV_IN_USE) | A_BOLD);
	} else if (m->status[0]) {
		attron(A_BOLD);
		tui_put_cut(LINES - 2, 1, m->status, COLS - 2);
		attroff(A_BOLD);
	}
	tui_keybar(m, tui_arrays_screen.bar, tui_arrays_screen.nbar, NULL);
}

/* The title: the source, the count, the sort and the filter; on a narrow
 * screen the source is said shorter (a rig file by its name), then left
 * out, so that the sort and the filter always show. */
static void main_title(const struct tui_model *m, char *buf, size_t len)
{
	char sel[160], src[128], count[32];
	const char *slash = strrchr(m->source, '/');

	tui_select_line(m, sel, sizeof(sel));
	snprintf(count, sizeof(count), "%zu drive%s", m->n, m->n == 1 ? "" : "s");
	snprintf(src, sizeof(src), "%s", m->source);
	for (int pass = 0; pass < 4; pass++) {
		if (pass == 1 && slash && !strncmp(m->source, "rig ", 4))
			snprintf(src, sizeof(src), "rig %s", slash + 1);
		snprintf(buf, len, " %s%s%s%s%s%s", pass < 3 ? "shortstroke - " : "", src,
			 src[0] ? " - " : "", count, sel[0] ? " - " : "", sel);
		if ((int)glyphs_cols(buf) <= COLS)
			return;
		if (pass == 2)
			src[0] = '\0';
	}
}

/* The main screen: title, the drive table (the columns the width allows),
 * the selected drive's details (d hides them), the status, the key bar. */
void tui_draw_main(const struct tui_model *m, void *data)
{
	struct tui_model *mm = (struct tui_model *)m;
	int list_h, shown, y, detail_y, cw[TABLE_COLS];
	char buf[256];

	(void)data;

	erase();
	attron(attr_title());
	mvhline(0, 0, ' ', COLS);
	if (m->scanned)
		main_title(m, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), " shortstroke - reading the drives");
	tui_put_cut(0, 0, buf, COLS);
	attroff(attr_title());

	/* the table: up to half the screen under the title and the heading,
	 * all of it with the detail pane hidden; the status and key bar rows
	 * below */
	list_h = m->detail_off ? LINES - 4 : (LINES - 5) / 2;
	if (list_h < 1)
		list_h = 1;
	attron(tui_attr_head());
	col_widths(m, cw);
	draw_row(1, m, NULL, false, cw);
	attroff(tui_attr_head());
	{
		size_t pos = tui_view_pos(mm);

		if (pos < mm->top)
			mm->top = pos;
		if (pos >= mm->top + (size_t)list_h)
			mm->top = pos - (size_t)list_h + 1;
		if (mm->top + (size_t)list_h > m->nview) /* a shorter list: its last page full */
			mm->top = m->nview > (size_t)list_h ? m->nview - (size_t)list_h : 0;
	}
	mm->page = (size_t)list_h;
	y = 2;
	/* the rows shown: sorted and filtered (select.c) */
	for (size_t k = m->top; k < m->nview && y < 2 + list_h; k++, y++)
		draw_row(y, m, &m->devs[m->view[k]], m->view[k] == m->sel, cw);
	shown = y - 2;
	mm->rows_y = 2;
	mm->rows_n = (unsigned)shown;
	if (m->n && !m->nview)
		tui_put(2, 1, "No drive matches the filter (Esc clears it).", COLS - 2);
	attron(tui_attr_head());
	if (m->top) /* more rows above, below: said at the heading's end */
		tui_put(1, COLS - 2, glyphs()->more_up, 1);
	if (m->top + (size_t)shown < m->nview)
		tui_put(1, COLS - 1, glyphs()->more_down, 1);
	attroff(tui_attr_head());
	if (m->n == 0)
		tui_put(2, 1,
			m->scanned ? "No disks that shortstroke can talk to. Try --demo."
				   : "Scanning the drives (q quits, ? helps) ...",
			COLS - 2);

	detail_y = 2 + (shown ? shown : 1) + 1;
	if (m->nview && !m->detail_off && detail_y < LINES - 2) {
		attron(attr_title());
		rule(detail_y - 1, 0, COLS);
		snprintf(buf, sizeof(buf), " %s ", m->devs[m->sel].spec);
		tui_put(detail_y - 1, 2, buf, COLS - 4);
		attroff(attr_title());
		draw_detail(detail_y, LINES - 2 - detail_y, m);
	}

	/* the status row: a rescan's spinner first, then the last action's
	 * message, else how many drives there are and are marked */
	buf[0] = '\0';
	if (m->scan)
		tui_bg_line(m->scan, buf, sizeof(buf));
	{
		size_t l = strlen(buf);
		char count[200];

		if (!m->status[0] && m->scanned)
			tui_count_line(m, count, sizeof(count));
		snprintf(buf + l, sizeof(buf) - l, "%s%s", l ? "  |  " : "",
			 m->status[0] ? m->status
			 : m->scanned ? count
				      : "");
	}
	if (m->filtering)
		snprintf(buf, sizeof(buf),
			 "Filter: %s_  (%zu of %zu)  Enter keeps it  Esc clears it", m->filter,
			 m->nview, m->n);
	move(LINES - 2, 0);
	clrtoeol();
	attron(A_BOLD);
	tui_put_cut(LINES - 2, 1, buf, COLS - 2);
	attroff(A_BOLD);
	tui_keybar(m, tui_main_screen.bar, tui_main_screen.nbar, NULL);
}

void tui_draw(const struct tui_model *m)
{
	struct tui_model *mm = (struct tui_model *)m;

	mm->rows_y = -1; /* no list on the screen until one is drawn */
	mm->cols = COLS;
	mm->lines = LINES;
	tui_screens_draw(m);
	refresh();
}
