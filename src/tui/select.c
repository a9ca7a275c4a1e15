/* select.c - many disks (no curses): the rows the drive table shows, sorted
 * by any of its columns and narrowed by a filter typed live; marking what
 * the filter shows, inverting the marks; the column chooser (Setup) and the
 * file that remembers its choice ($XDG_CONFIG_HOME/shortstroke/tui.conf). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "front/drives.h"
#include "shortstroke/fileio.h"
#include "shortstroke/smart.h"
#include "tui.h"

_Static_assert(DRV_COUNT <= sizeof(((struct tui_setup *)0)->ids) / sizeof(unsigned),
	       "struct tui_setup holds every column of the registry");

/* What the table keeps at any width (80x24 shows these): never removed. */
static const unsigned required_cols[] = { DRV_DEVICE, DRV_SIZE, DRV_LIMITED, DRV_STATE };

bool tui_col_required(unsigned id)
{
	for (size_t i = 0; i < sizeof(required_cols) / sizeof(required_cols[0]); i++)
		if (required_cols[i] == id)
			return true;
	return false;
}

int tui_col_min(unsigned id)
{
	for (const struct tui_col *c = tui_cols; c->name; c++)
		if (!strcmp(c->name, drive_cols[id].name))
			return c->min_cols;
	return 100; /* a column the defaults leave out: on a wide screen */
}

/* ---- the rows shown -------------------------------------------------------------- */

static bool has(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle) != NULL;
}

bool tui_filter_match(const struct dev_entry *e, const char *filter)
{
	const struct drive_info *i = &e->info;
	char state[256];

	if (!filter[0])
		return true;
	dev_state_text(e, state, sizeof(state));
	return has(e->spec, filter) || has(i->model, filter) || has(i->vendor, filter) ||
	       has(i->serial, filter) || has(e->sys_serial, filter) || has(i->wwn, filter) ||
	       has(e->sys_wwn, filter) || has(state, filter) ||
	       has(drive_tran_name(i->tran), filter);
}

/* The table's column index of the sort, or -1 (scan order). */
static int sort_index(const struct tui_model *m)
{
	if (!m->sort_by || !m->drives)
		return -1;
	for (unsigned c = 0; c < table_cols(m->drives); c++)
		if (table_col_id(m->drives, c) + 1 == m->sort_by)
			return (int)c;
	return -1;
}

static int view_cmp(const void *pa, const void *pb, void *arg)
{
	const struct tui_model *m = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = table_cell_cmp(m->drives, (unsigned)a, (unsigned)b, (unsigned)sort_index(m));

	if (m->sort_desc)
		c = -c;
	return c ? c : (a > b) - (a < b); /* equal: in scan order */
}

/* Rebuild view from devs, the filter and the sort; the selection stays on
 * its drive while shown, else goes to the first shown. */
static void tui_view_update(struct tui_model *m)
{
	size_t *v = realloc(m->view, (m->n ? m->n : 1) * sizeof(*v));
	bool sel_shown = false;

	if (!v) {
		m->nview = 0; /* out of memory: nothing shown rather than a stale row */
		return;
	}
	m->view = v;
	m->nview = 0;
	for (size_t i = 0; i < m->n; i++)
		if (tui_filter_match(&m->devs[i], m->filter))
			v[m->nview++] = i;
	if (sort_index(m) < 0)
		m->sort_by = 0; /* its column was taken out of the table */
	else if (m->drives && table_rows(m->drives) == m->n)
		qsort_r(v, m->nview, sizeof(*v), view_cmp, m);
	for (size_t k = 0; k < m->nview; k++)
		sel_shown |= v[k] == m->sel;
	if (!sel_shown && m->nview)
		m->sel = v[0];
}

size_t tui_view_pos(const struct tui_model *m)
{
	for (size_t k = 0; k < m->nview; k++)
		if (m->view[k] == m->sel)
			return k;
	return 0;
}

bool tui_view_select(struct tui_model *m, size_t pos)
{
	if (pos >= m->nview)
		return false;
	m->sel = m->view[pos];
	return true;
}

/* ---- the drive table's columns ------------------------------------------------ */

/* A drive table of the columns (a comma list of the registry's names, ""
 * or NULL: tui_cols); NULL with err for a name the registry has not. */
static struct table *tui_drive_table_of(const char *columns, struct ss_error *err)
{
	struct table *t;

	if (!columns || !columns[0])
		return tui_drive_table(err);
	t = table_new(drive_cols, DRV_COUNT, DRIVE_COLS_DEFAULT, columns, err);
	if (!t)
		ss_error_prefix(err, "the drive table: ");
	return t;
}

/* The verdict that starts the rescan's SMART line ("PASSED: ...; 38 C"),
 * for the HEALTH column; NULL when the line is empty or an error. */
static const char *health_verdict(const struct tui_model *m, size_t i)
{
	if (!m->health || !m->health[i][0])
		return NULL;
	for (int v = SMART_UNKNOWN; v <= SMART_FAILED; v++) {
		const char *name = smart_verdict_name((enum smart_verdict)v);
		size_t l = strlen(name);

		if (!strncmp(m->health[i], name, l) && strchr(":;", m->health[i][l]))
			return name;
	}
	return NULL;
}

void tui_table_rebuild(struct tui_model *m)
{
	struct ss_error err = { 0 };

	table_free(m->drives);
	m->drives = tui_drive_table_of(m->columns, &err);
	if (!m->drives) { /* checked when chosen: cannot happen, but not blank */
		m->columns[0] = '\0';
		m->drives = tui_drive_table(&err);
	}
	for (size_t i = 0; m->drives && i < m->n; i++)
		drive_row(m->drives, &m->devs[i], health_verdict(m, i));
	tui_view_update(m);
}

/* A column list the table can take: every name known, DEVICE, SIZE,
 * LIMITED and STATE among them. 0, or -EINVAL with why in msg. */
static int columns_check(const char *list, char *msg, size_t len)
{
	struct ss_error terr = { 0 };
	struct table *t;
	bool seen[DRV_COUNT] = { false };

	t = table_new(drive_cols, DRV_COUNT, DRIVE_COLS_DEFAULT, list, &terr);
	if (!t) {
		snprintf(msg, len, "%s", terr.msg);
		return -EINVAL;
	}
	for (unsigned c = 0; c < table_cols(t); c++)
		seen[table_col_id(t, c)] = true;
	table_free(t);
	for (size_t i = 0; i < sizeof(required_cols) / sizeof(required_cols[0]); i++) {
		if (seen[required_cols[i]])
			continue;
		snprintf(msg, len,
			 "%s is left out (DEVICE, SIZE, LIMITED and STATE are always "
			 "shown)",
			 drive_cols[required_cols[i]].name);
		return -EINVAL;
	}
	return 0;
}

/* ---- tui.conf ---------------------------------------------------------------------- */

int tui_conf_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (x && x[0] == '/')
		snprintf(buf, len, "%s/shortstroke/tui.conf", x);
	else if (home && home[0])
		snprintf(buf, len, "%s/.config/shortstroke/tui.conf", home);
	else
		return -ENOENT;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "SIZE" or "-SIZE" (descending): the sort, when a column of m's table. */
static int sort_set(struct tui_model *m, const char *v)
{
	bool desc = *v == '-';
	struct ss_error err = { 0 };
	struct table *t = tui_drive_table_of(m->columns, &err);
	int rc = -EINVAL;

	for (unsigned c = 0; t && c < table_cols(t); c++) {
		if (strcasecmp(table_col(t, c)->name, v + desc))
			continue;
		m->sort_by = table_col_id(t, c) + 1;
		m->sort_desc = desc;
		rc = 0;
		break;
	}
	table_free(t);
	return rc;
}

/* A line of tui.conf that is wrong: the first one is said in msg, the
 * others counted. */
static void conf_bad(char *msg, size_t len, unsigned *nbad, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void conf_bad(char *msg, size_t len, unsigned *nbad, const char *fmt, ...)
{
	va_list ap;

	if ((*nbad)++)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
}

/* tui.conf opened to read (a FIFO or a device there is refused, not waited
 * on); NULL with *e set, and msg filled unless there is no file. */
static FILE *conf_open(const char *path, int *e, char *msg, size_t len)
{
	struct ss_error ferr = { 0 };
	int fd = file_open_input(path, "tui.conf", &ferr);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (f)
		return f;
	*e = fd < 0 ? -fd : ENOMEM;
	if (fd >= 0)
		close(fd);
	if (*e != ENOENT)
		snprintf(msg, len, "%s; the defaults are used",
			 ferr.msg[0] ? ferr.msg : strerror(*e));
	return NULL;
}

/* tui_conf_load, what is wrong into msg */
static int conf_load(struct tui_model *m, char *msg, size_t len)
{
	char path[4096], line[512], why[200], sort[40] = "";
	unsigned no = 0, sort_no = 0, nbad = 0;
	int e;
	FILE *f;

	msg[0] = '\0';
	if (tui_conf_path(path, sizeof(path)))
		return 0;
	f = conf_open(path, &e, msg, len);
	if (!f) {
		if (e == ENOENT)
			return 0;
		m->conf_bad = true;
		return -e;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *eq, *key, *val;

		no++;
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			conf_bad(msg, len, &nbad,
				 "tui.conf line %u: not KEY=VALUE; it is left out (%s)", no, path);
			continue;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		if (!strcmp(key, "columns")) {
			if (columns_check(val, why, sizeof(why))) {
				conf_bad(msg, len, &nbad,
					 "tui.conf line %u: %s; the default columns are "
					 "used (%s)",
					 no, why, path);
				continue;
			}
			snprintf(m->columns, sizeof(m->columns), "%s", val);
		} else if (!strcmp(key, "sort")) {
			snprintf(sort, sizeof(sort), "%s", val);
			sort_no = no;
		} else {
			conf_bad(msg, len, &nbad,
				 "tui.conf line %u: no setting '%s' (columns=, sort=); it "
				 "is left out (%s)",
				 no, key, path);
		}
	}
	fclose(f);
	/* the sort: a column of the table (once the columns are known) */
	if (sort[0] && sort_set(m, sort)) {
		conf_bad(msg, len, &nbad,
			 "tui.conf line %u: sort=%s is no column of the table; the "
			 "order is as scanned (%s)",
			 sort_no, sort, path);
	}
	if (nbad > 1) { /* the first is said, after the count (the status row is narrow) */
		char first[512];

		snprintf(first, sizeof(first), "%s", msg);
		snprintf(msg, len, "%u lines of tui.conf are wrong; the first: %s", nbad, first);
	}
	m->conf_sort_by = m->sort_by;
	m->conf_sort_desc = m->sort_desc;
	m->conf_bad = nbad != 0;
	return nbad ? -EINVAL : 0;
}

int tui_conf_load(struct tui_model *m, struct ss_error *err)
{
	char msg[512];
	int rc;

	ss_error_clear(err);
	rc = conf_load(m, msg, sizeof(msg));
	if (rc)
		ss_error_set(err, rc, "%s", msg);
	return rc;
}

/* Write tui.conf: columns (a comma list; "": none, the defaults) and m's
 * sort. */
static int conf_save(const struct tui_model *m, const char *columns, char *path, size_t plen,
		     struct ss_error *err)
{
	char text[600], dir[4096], *slash;
	size_t used;

	if (tui_conf_path(path, plen))
		return ss_error_set(err, -ENOENT,
				    "no $XDG_CONFIG_HOME or $HOME to keep tui.conf in");
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (file_mkdirs(dir, err))
		return err->code;
	used = (size_t)snprintf(
	    text, sizeof(text),
	    "# shortstroke tui settings, written by its Setup screen (C or F2) "
	    "and on quitting\n"
	    "# columns: the drive table's, as 'shortstroke list --list-columns' "
	    "names them\n"
	    "# sort: a column of the table, -NAME descending (< > I)\n");
	if (columns[0] && used < sizeof(text))
		used += (size_t)snprintf(text + used, sizeof(text) - used, "columns=%s\n", columns);
	if (m->sort_by && used < sizeof(text))
		used += (size_t)snprintf(text + used, sizeof(text) - used, "sort=%s%s\n",
					 m->sort_desc ? "-" : "", drive_cols[m->sort_by - 1].name);
	return file_write_atomic(path, text, strlen(text), 0644, "tui.conf", err);
}

int tui_conf_quit(struct tui_model *m, struct ss_error *err)
{
	char path[4096];

	ss_error_clear(err);
	if (m->conf_bad || (m->sort_by == m->conf_sort_by && m->sort_desc == m->conf_sort_desc))
		return 0; /* a file with a mistake is the user's to mend, not overwritten */
	if (conf_save(m, m->columns, path, sizeof(path), err)) {
		ss_error_prefix(err, "the sort is not kept: ");
		return err ? err->code : -EIO;
	}
	m->conf_sort_by = m->sort_by;
	m->conf_sort_desc = m->sort_desc;
	return 0;
}

/* ---- keys of the main screen ------------------------------------------------------- */

static void sort_status(struct tui_model *m)
{
	int c = sort_index(m);

	if (c < 0)
		tui_status(m, "sorted as scanned");
	else
		tui_status(m, "sorted by %s, %s", table_col(m->drives, (unsigned)c)->name,
			   m->sort_desc ? "descending" : "ascending");
}

/* < and >: the sort column one to the left or right among the table's
 * (before the first: scan order). */
static enum tui_action sort_step(struct tui_model *m, int d)
{
	int n = m->drives ? (int)table_cols(m->drives) : 0, c = sort_index(m) + d;

	if (!n)
		return TUI_NONE;
	if (c < -1)
		c = n - 1;
	if (c >= n)
		c = -1;
	m->sort_by = c < 0 ? 0 : table_col_id(m->drives, (unsigned)c) + 1;
	tui_view_update(m);
	sort_status(m);
	return TUI_REDRAW;
}

enum tui_action tui_sort_next(struct tui_model *m)
{
	return sort_step(m, 1);
}

enum tui_action tui_sort_prev(struct tui_model *m)
{
	return sort_step(m, -1);
}

enum tui_action tui_sort_invert(struct tui_model *m)
{
	m->sort_desc = !m->sort_desc;
	tui_view_update(m);
	sort_status(m);
	return TUI_REDRAW;
}

void tui_count_line(const struct tui_model *m, char *buf, size_t len)
{
	size_t marked = 0, hidden;

	for (size_t i = 0; m->marked && i < m->n; i++)
		marked += m->marked[i];
	hidden = marked;
	for (size_t k = 0; m->marked && k < m->nview; k++)
		hidden -= m->marked[m->view[k]];
	if (hidden)
		snprintf(buf, len,
			 "%zu drive%s, %zu marked (%zu hidden by the filter: actions leave "
			 "them out)",
			 m->n, m->n == 1 ? "" : "s", marked, hidden);
	else if (marked)
		snprintf(buf, len, "%zu drive%s, %zu marked: actions apply to %s", m->n,
			 m->n == 1 ? "" : "s", marked, marked == 1 ? "it" : "them");
	else
		snprintf(buf, len, "%zu drive%s, none marked: actions apply to the selected one",
			 m->n, m->n == 1 ? "" : "s");
}

/* The marks changed: the status line's default says how many (the next key
 * would clear a message anyway). */
static void marks_status(struct tui_model *m)
{
	m->status[0] = '\0';
}

/* The user's mark on drive i (no longer one a failed batch made). */
static void mark_set(struct tui_model *m, size_t i, bool on)
{
	m->marked[i] = on;
	if (m->failmark)
		m->failmark[i] = false;
}

enum tui_action tui_mark_shown(struct tui_model *m)
{
	for (size_t k = 0; m->marked && k < m->nview; k++)
		mark_set(m, m->view[k], true);
	marks_status(m);
	return TUI_REDRAW;
}

enum tui_action tui_mark_invert(struct tui_model *m)
{
	for (size_t k = 0; m->marked && k < m->nview; k++)
		mark_set(m, m->view[k], !m->marked[m->view[k]]);
	marks_status(m);
	return TUI_REDRAW;
}

enum tui_action tui_mark_none(struct tui_model *m)
{
	for (size_t i = 0; m->marked && i < m->n; i++)
		mark_set(m, i, false);
	marks_status(m);
	return TUI_REDRAW;
}

/* ---- the filter, typed live ---------------------------------------------------------- */

enum tui_action tui_filter_start(struct tui_model *m)
{
	m->filtering = true;
	return TUI_REDRAW;
}

enum tui_action tui_filter_clear(struct tui_model *m)
{
	m->filter[0] = '\0';
	m->filtering = false;
	tui_view_update(m);
	return TUI_REDRAW;
}

enum tui_action tui_filter_key(struct tui_model *m, int key)
{
	size_t len = strlen(m->filter);

	switch (key) {
	case TK_ENTER:
		m->filtering = false;
		return TUI_REDRAW;
	case TK_ESC:
		return tui_filter_clear(m);
	case TK_BACKSPACE:
		if (len)
			m->filter[len - 1] = '\0';
		break;
	default:
		if (key < 0x20 || key >= 0x7f)
			return TUI_NONE; /* the main screen's (moving, ticks, resize) */
		if (len + 1 >= sizeof(m->filter))
			return TUI_REDRAW;
		m->filter[len] = (char)key;
		m->filter[len + 1] = '\0';
		break;
	}
	tui_view_update(m);
	return TUI_REDRAW;
}

void tui_select_line(const struct tui_model *m, char *buf, size_t len)
{
	int c = sort_index(m);
	size_t used = 0;

	buf[0] = '\0';
	if (c >= 0)
		used += (size_t)snprintf(buf, len, "sort %s %s",
					 table_col(m->drives, (unsigned)c)->name,
					 m->sort_desc ? "desc" : "asc");
	if ((m->filter[0] || m->filtering) && used < len)
		snprintf(buf + used, len - used, "%sfilter '%s'%s: %zu of %zu", used ? ", " : "",
			 m->filter, m->filtering ? "_" : "", m->nview, m->n);
}

/* ---- Setup: the column chooser ---------------------------------------------------------- */

/* Every column of the registry: those t shows first, ticked, in its order
 * (t NULL: none ticked), then the others in the registry's order. */
static void setup_fill(struct tui_setup *s, const struct table *t)
{
	bool in[DRV_COUNT] = { false };
	unsigned k = 0;

	memset(s->on, 0, sizeof(s->on));
	for (unsigned c = 0; t && c < table_cols(t); c++) {
		unsigned id = table_col_id(t, c);

		if (in[id])
			continue;
		in[id] = true;
		s->ids[k] = id;
		s->on[k++] = true;
	}
	for (unsigned id = 0; id < DRV_COUNT; id++)
		if (!in[id])
			s->ids[k++] = id;
	s->n = k;
}

enum tui_action tui_setup_open(struct tui_model *m)
{
	struct tui_setup *s = calloc(1, sizeof(*s));
	struct ss_error err = { 0 };
	/* before the first scan there is no table yet: the columns it will have */
	struct table *own = m->drives ? NULL : tui_drive_table_of(m->columns, &err);

	if (!s) {
		table_free(own);
		return tui_alert(m, "Setup", "out of memory");
	}
	setup_fill(s, m->drives ? m->drives : own);
	table_free(own);
	return tui_screen_open(m, &tui_setup_screen, s);
}

static void setup_swap(struct tui_setup *s, unsigned a, unsigned b)
{
	unsigned id = s->ids[a];
	bool on = s->on[a];

	s->ids[a] = s->ids[b];
	s->on[a] = s->on[b];
	s->ids[b] = id;
	s->on[b] = on;
}

void tui_setup_columns(const struct tui_setup *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < s->n && used < len; k++)
		if (s->on[k])
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 drive_cols[s->ids[k]].name);
}

/* Enter: the table takes the columns, tui.conf keeps them. */
static enum tui_action setup_save(struct tui_model *m, struct tui_setup *s)
{
	struct ss_error err = { 0 };
	char cols[256], path[4096];

	tui_setup_columns(s, cols, sizeof(cols));
	if (columns_check(cols, s->msg, sizeof(s->msg)))
		return TUI_REDRAW;
	snprintf(m->columns, sizeof(m->columns), "%s", cols);
	tui_screen_close(m, s);
	tui_table_rebuild(m);
	if (conf_save(m, cols, path, sizeof(path), &err))
		return tui_alert(m, "Setup",
				 "The columns are shown, but not kept for the next "
				 "start: %s",
				 err.msg);
	m->conf_bad = false; /* written anew */
	m->conf_sort_by = m->sort_by;
	m->conf_sort_desc = m->sort_desc;
	tui_status(m, "columns saved to %s", path);
	return TUI_REDRAW;
}

static enum tui_action setup_cursor(struct tui_model *m, void *data, int key)
{
	struct tui_setup *s = data;
	unsigned c = s->cur;

	(void)m;
	if (key == TK_UP || key == 'k')
		s->cur = c ? c - 1 : 0;
	else if (key == TK_DOWN || key == 'j')
		s->cur = c + 1 < s->n ? c + 1 : c;
	else if (key == TK_HOME || key == 'g')
		s->cur = 0;
	else
		s->cur = s->n ? s->n - 1 : 0;
	s->msg[0] = '\0';
	return TUI_REDRAW;
}

static enum tui_action setup_toggle(struct tui_model *m, void *data, int key)
{
	struct tui_setup *s = data;
	unsigned c = s->cur;

	(void)m;
	(void)key;
	if (s->on[c] && tui_col_required(s->ids[c])) {
		snprintf(s->msg, sizeof(s->msg),
			 "%s stays: DEVICE, SIZE, LIMITED and STATE "
			 "are always shown",
			 drive_cols[s->ids[c]].name);
		return TUI_REDRAW;
	}
	s->on[c] = !s->on[c];
	/* shown: before STATE, which takes the rest of the line */
	for (unsigned k = 0; s->on[c] && k < c; k++) {
		if (!s->on[k] || drive_cols[s->ids[k]].width)
			continue;
		for (unsigned j = c; j > k; j--)
			setup_swap(s, j, j - 1);
		s->cur = k;
		break;
	}
	s->msg[0] = '\0';
	return TUI_REDRAW;
}

static enum tui_action setup_move(struct tui_model *m, void *data, int key)
{
	struct tui_setup *s = data;
	unsigned c = s->cur;

	(void)m;
	if ((key == '[' || key == '-') && c) {
		setup_swap(s, c, c - 1);
		s->cur = c - 1;
	}
	if ((key == ']' || key == '+') && c + 1 < s->n) {
		setup_swap(s, c, c + 1);
		s->cur = c + 1;
	}
	s->msg[0] = '\0';
	return TUI_REDRAW;
}

/* the defaults, in their order */
static enum tui_action setup_defaults(struct tui_model *m, void *data, int key)
{
	struct tui_setup *s = data;
	struct ss_error err = { 0 };
	struct table *t = tui_drive_table(&err);

	(void)m;
	(void)key;
	setup_fill(s, t);
	table_free(t);
	s->cur = 0;
	snprintf(s->msg, sizeof(s->msg), "the default columns: Enter keeps them");
	return TUI_REDRAW;
}

static enum tui_action setup_keep(struct tui_model *m, void *data, int key)
{
	(void)key;
	return setup_save(m, data);
}

static enum tui_action setup_cancel(struct tui_model *m, void *data, int key)
{
	(void)key;
	tui_screen_close(m, data);
	return TUI_REDRAW;
}

/* clang-format off */
static const struct tui_key setup_keys[] = {
	{ .key = TK_UP, .more = { 'k', TK_DOWN, 'j' }, .name = "Up/Down, j/k", .run = setup_cursor,
	  .help = "move to a column" },
	{ .key = TK_HOME, .more = { 'g', TK_END, 'G' }, .name = "Home/End, g/G",
	  .run = setup_cursor, .help = "the first column, the last" },
	{ .key = ' ', .name = "Space", .run = setup_toggle,
	  .help = "show or hide it (DEVICE, SIZE, LIMITED and STATE are always shown)" },
	{ .key = '[', .more = { ']', '-', '+' }, .name = "[ ], - +", .run = setup_move,
	  .help = "move it up / down the order" },
	{ .key = 'd', .name = "d", .run = setup_defaults, .help = "the default columns" },
	{ .key = TK_ENTER, .more = { TK_F2 }, .name = "Enter, F2", .run = setup_keep,
	  .help = "keep the choice (in tui.conf)" },
	{ .key = TK_ESC, .more = { 'q' }, .name = "Esc, q", .run = setup_cancel,
	  .help = "leave the table as it was" },
	{ .name = NULL },
};
/* clang-format on */

const struct tui_screen_ops tui_setup_screen = {
	.title = "Setup (C)",
	.flags = TUI_SCREEN_OVERLAY,
	.keys = setup_keys,
	.draw = tui_draw_setup,
	.close = free,
};
