/* log.c - L: every command sent to a drive this session, with its status,
 * as `-v` prints it (the CDB in hex and by name, the data, the status and
 * the sense decoded), so that an administrator sees what the tool did to a
 * disk. The commands come from the transport's watch hook into a cmdlog
 * (ops) that tui_main installs; this screen shows a copy of what it keeps,
 * filtered by device (or by a command's name), with the medium's reads and
 * writes (a benchmark's, a scan's) hidden unless asked for. No curses here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "shortstroke/cmdlog.h"
#include "tui.h"

struct cmdlog *tui_cmdlog_start(void)
{
	/* the process's: a job stuck in a drive's command may still log after
	 * the screen has closed, so it lives until the process ends */
	static struct cmdlog *log;

	if (!log) {
		log = cmdlog_new(CMDLOG_KEEP, CMDLOG_KEEP_MEDIA);
		cmdlog_install(log);
	}
	return log;
}

static void tui_log_free(struct tui_logview *v)
{
	if (!v)
		return;
	free(v->e);
	free(v->rows);
	free(v);
}

/* The rows the filter lets through; the selection stays on its command. */
static void log_filter(struct tui_logview *v)
{
	uint64_t seq = v->nrows && v->sel < v->nrows ? v->e[v->rows[v->sel]].seq : 0;
	size_t *rows = malloc((v->n ? v->n : 1) * sizeof(*rows));
	size_t k = 0;

	if (!rows)
		return;
	for (size_t i = 0; i < v->n; i++) {
		const struct cmdlog_entry *e = &v->e[i];

		if (!v->media && cmdlog_entry_media(e))
			continue;
		if (v->filter[0] && !strcasestr(e->dev, v->filter)) {
			struct cmdlog_text t;

			cmdlog_entry_text(e, &t);
			if (!strcasestr(t.name, v->filter))
				continue;
		}
		rows[k++] = i;
	}
	free(v->rows);
	v->rows = rows;
	v->nrows = k;
	v->sel = k ? k - 1 : 0;
	if (!v->follow)
		for (size_t r = 0; r < k; r++)
			if (v->e[rows[r]].seq >= seq) {
				v->sel = r;
				break;
			}
}

/* Copy the log again (when it has new entries) and filter it. */
static void log_refresh(struct tui_model *m, struct tui_logview *v, bool force)
{
	uint64_t last = cmdlog_last(m->cmdlog);
	struct cmdlog_entry *e;
	size_t n;

	if (!force && last == v->last)
		return;
	if (last != v->last || !v->e) {
		if (cmdlog_copy(m->cmdlog, &e, &n, &v->dropped))
			return;
		free(v->e);
		v->e = e;
		v->n = n;
		v->last = last;
	}
	log_filter(v);
}

enum tui_action tui_log_open(struct tui_model *m)
{
	struct tui_logview *v;

	if (!m->cmdlog)
		return tui_alert(m, "Command log", "No command log in this session.");
	v = calloc(1, sizeof(*v));
	if (!v)
		return tui_alert(m, "Command log", "out of memory");
	v->follow = true;
	log_refresh(m, v, true);
	return tui_screen_open(m, &tui_log_screen, v);
}

static void log_move(struct tui_logview *v, long delta)
{
	long s = (long)v->sel + delta;

	if (!v->nrows)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)v->nrows)
		s = (long)v->nrows - 1;
	v->sel = (size_t)s;
	v->follow = v->sel + 1 == v->nrows;
}

/* Typing the filter (a device, or a command's name): live, Enter keeps it,
 * Esc drops it. */
static enum tui_action filter_key(struct tui_model *m, struct tui_logview *v, int key)
{
	size_t len = strlen(v->filter);

	if (key == TK_ENTER) {
		v->editing = false;
		return TUI_REDRAW;
	}
	if (key == TK_ESC) {
		v->editing = false;
		v->filter[0] = '\0';
	} else if (key == TK_BACKSPACE) {
		if (len)
			v->filter[len - 1] = '\0';
	} else if (key >= 0x20 && key < 0x7f && len + 1 < sizeof(v->filter)) {
		v->filter[len] = (char)key;
		v->filter[len + 1] = '\0';
	} else {
		return TUI_NONE;
	}
	log_refresh(m, v, true);
	return TUI_REDRAW;
}

/* The commands sent since the last tick: shown as they come. */
static enum tui_action log_tick(struct tui_model *m, void *data)
{
	struct tui_logview *v = data;
	uint64_t last = v->last;

	log_refresh(m, v, false);
	return v->last != last ? TUI_REDRAW : TUI_NONE;
}

static enum tui_action log_step(struct tui_model *m, void *data, int key)
{
	struct tui_logview *v = data;
	long all = (long)v->nrows;

	(void)m;
	log_move(v, key == TK_UP || key == 'k'	   ? -1
		    : key == TK_DOWN || key == 'j' ? 1
		    : key == TK_PGUP		   ? -10
		    : key == TK_HOME || key == 'g' ? -all
		    : key == TK_END || key == 'G'  ? all
						   : 10);
	return TUI_REDRAW;
}

static enum tui_action log_filter_start(struct tui_model *m, void *data, int key)
{
	struct tui_logview *v = data;

	(void)m;
	(void)key;
	v->editing = true;
	return TUI_REDRAW;
}

/* the drive selected in the table, or all of them again */
static enum tui_action log_this_drive(struct tui_model *m, void *data, int key)
{
	struct tui_logview *v = data;

	(void)key;
	if (v->filter[0] || !m->n)
		v->filter[0] = '\0';
	else
		snprintf(v->filter, sizeof(v->filter), "%s", m->devs[m->sel].spec);
	log_refresh(m, v, true);
	return TUI_REDRAW;
}

static enum tui_action log_media(struct tui_model *m, void *data, int key)
{
	struct tui_logview *v = data;

	(void)key;
	v->media = !v->media;
	log_refresh(m, v, true);
	return TUI_REDRAW;
}

static enum tui_action log_done(struct tui_model *m, void *data, int key)
{
	(void)key;
	tui_screen_close(m, data);
	return TUI_REDRAW;
}

/* clang-format off */
static const struct tui_key log_keys[] = {
	{ .key = TK_UP, .more = { 'k', TK_DOWN, 'j' }, .name = "Up/Down, j/k", .run = log_step,
	  .help = "select a command (on the newest, the newest as they come)" },
	{ .key = TK_PGUP, .more = { TK_PGDN, ' ' }, .name = "PgUp/PgDn, Space", .run = log_step,
	  .help = "ten commands up / down" },
	{ .key = TK_HOME, .more = { 'g', TK_END, 'G' }, .name = "Home/End, g/G", .run = log_step,
	  .help = "the oldest command kept, the newest" },
	{ .key = '/', .name = "/", .run = log_filter_start,
	  .help = "filter by a device's or a command's name as it is typed (Enter keeps it, "
		  "Esc drops it)" },
	{ .key = 'd', .name = "d", .run = log_this_drive,
	  .help = "the drive selected in the table alone (again: all)" },
	{ .key = 'm', .name = "m", .run = log_media,
	  .help = "show / hide the reads and writes of the medium (a benchmark's, a scan's)" },
	{ .key = 'q', .more = { TK_ESC }, .name = "q, Esc", .run = log_done, .help = "close it" },
	{ .name = NULL },
};

/* q close among those an 80-column bar shows */
static const struct tui_keylabel log_bar[] = {
	{ "j/k", "move", 0 },	{ "PgUp", "page up", TK_PGUP }, { "PgDn", "page down", TK_PGDN },
	{ "/", "filter", '/' }, { "d", "this drive", 'd' },	{ "q", "close", 'q' },
	{ "m", "reads/writes", 'm' },
};
/* clang-format on */

/* A key to the log: to its filter while that is typed, else its table's. */
static enum tui_action log_key(struct tui_model *m, void *data, int key)
{
	struct tui_logview *v = data;

	if (v->editing)
		return filter_key(m, v, key);
	return tui_keys_run(m, log_keys, data, key);
}

/* A click on a command's row selects it (not while the filter is typed). */
static enum tui_action log_click(struct tui_model *m, void *data, size_t row)
{
	struct tui_logview *v = data;

	(void)m;
	if (v->editing || v->top + row >= v->nrows)
		return TUI_NONE;
	v->sel = v->top + row;
	return TUI_REDRAW;
}

static void log_close(void *data)
{
	tui_log_free(data);
}

const struct tui_screen_ops tui_log_screen = {
	.title = "The log (L)",
	.keys = log_keys,
	.bar = log_bar,
	.nbar = sizeof(log_bar) / sizeof(log_bar[0]),
	.key = log_key,
	.tick = log_tick,
	.draw = tui_draw_log,
	.click = log_click,
	.close = log_close,
};
