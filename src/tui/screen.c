/* screen.c - what the screen's layout asks of the model: the detail pane
 * toggle (d) and the mouse, from what the view recorded of where it drew
 * (the key bar's labels, the rows of the list on top: the drive table, the
 * log, the arrays). No curses here: tui.c
 * turns the terminal's mouse events into tui_mouse calls. */
#include <stdio.h>
#include <stdlib.h>

#include "form.h"
#include "front/drives.h"
#include "front/elements.h"
#include "front/record.h"
#include "tui.h"

enum tui_action tui_detail_open(struct tui_model *m)
{
	struct record *r;
	char *text = NULL, title[300];
	size_t len = 0;
	FILE *f;

	if (!m->n || (m->view && !m->nview))
		return TUI_NONE;
	r = record_new();
	f = open_memstream(&text, &len);
	if (!r || !f) {
		record_free(r);
		if (f)
			fclose(f);
		free(text);
		return tui_alert(m, "Details", "out of memory");
	}
	if (m->health && m->health[m->sel][0])
		record_text(r, "SMART health", "%s", m->health[m->sel]);
	describe_drive(r, &m->devs[m->sel]);
	/* the storage elements and sector sizes, read now as info reads them
	 * (harmless reads), unless a job is at work on the drive */
	if (!tui_task_for(m, m->devs[m->sel].spec)) {
		struct ss_error err = { 0 };
		struct dev_entry e;
		struct drive *d = NULL;

		if (device_open(m->ctx, m->devs[m->sel].spec, false, &d, &e, &err) == 0)
			drive_elements_record(r, d, &e.info);
		drive_free(d);
	}
	record_print(r, f, 0);
	record_free(r);
	fclose(f);
	snprintf(title, sizeof(title), "Details of %s (as 'shortstroke info' prints them)",
		 m->devs[m->sel].spec);
	tui_pager_open(m, title, text ? text : "out of memory");
	free(text);
	return TUI_REDRAW;
}

enum tui_action tui_planner_notes(struct tui_model *m)
{
	const struct tui_planner *p = tui_screen_find(m, &tui_planner_screen);
	struct tui_lines l = { 0 };
	char *text;

	if (!p)
		return TUI_NONE;

	for (size_t i = 0; i < p->notes.n; i++)
		tui_lines_add(&l, "note: %s", p->notes.text[i]);
	if (!p->notes.n)
		tui_lines_add(&l, "No notes.");
	text = tui_lines_join(&l);
	tui_lines_clear(&l);
	tui_pager_open(m, "Planner: the notes on the drives planned with",
		       text ? text : "out of memory");
	free(text);
	return TUI_REDRAW;
}

enum tui_action tui_detail_toggle(struct tui_model *m)
{
	m->detail_off = !m->detail_off;
	tui_status(m, "detail pane %s (d toggles it)", m->detail_off ? "hidden" : "shown");
	return TUI_REDRAW;
}

enum tui_action tui_main_click(struct tui_model *m, void *data, size_t row)
{
	(void)data;
	return tui_view_select(m, m->top + row) ? TUI_REDRAW : TUI_NONE;
}

enum tui_action tui_mouse(struct tui_model *m, enum tui_mouse_kind kind, int y, int x)
{
	enum tui_action a = TUI_NONE;
	struct tui_screen s;

	if (kind != TUI_CLICK) {
		if (m->dlg && !m->dlg->form && !m->dlg->top_max)
			return TUI_NONE; /* an arrow would close it */
		for (int i = 0; i < 3; i++) {
			enum tui_action k = tui_handle_key(m,
							   kind == TUI_WHEEL_UP ? TK_UP : TK_DOWN);

			if (k == TUI_NONE)
				break;
			a = k;
		}
		return a;
	}
	for (unsigned i = 0; i < m->nhits; i++) {
		const struct tui_hit *h = &m->hits[i];

		if (y == h->y && x >= h->x0 && x < h->x1)
			return h->key ? tui_handle_key(m, h->key) : TUI_NONE;
	}
	if (m->rows_y < 0 || y < m->rows_y || y >= m->rows_y + (int)m->rows_n)
		return TUI_NONE;
	/* the list the screen on top drew there (a dialog or a box over
	 * it has none) */
	s = tui_screen_focus(m);
	return s.ops->click ? s.ops->click(m, s.data, (size_t)(y - m->rows_y)) : TUI_NONE;
}
