/* screen.c - what the screen's layout asks of the model: the detail pane
 * toggle (d) and the mouse, from what the view recorded of where it drew
 * (the key bar's labels, the rows of the list on top: the drive table, the
 * log, the arrays). No curses here: tui.c
 * turns the terminal's mouse events into tui_mouse calls. */
#include "form.h"
#include "tui.h"

enum tui_action tui_detail_toggle(struct tui_model *m)
{
	m->detail_off = !m->detail_off;
	tui_status(m, "detail pane %s (d toggles it)", m->detail_off ? "hidden" : "shown");
	return TUI_REDRAW;
}

/* Nothing over the drive table: no dialog, screen or help. */
static bool main_screen(const struct tui_model *m)
{
	return !m->dlg && !m->pager && !m->planner && !m->arrays && !m->applying && !m->logview &&
	       !m->help && !m->setup;
}

enum tui_action tui_mouse(struct tui_model *m, enum tui_mouse_kind kind, int y, int x)
{
	enum tui_action a = TUI_NONE;
	size_t row;

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
	if (m->rows_y < 0 || y < m->rows_y || y >= m->rows_y + (int)m->rows_n || m->dlg)
		return TUI_NONE;
	row = (size_t)(y - m->rows_y);
	/* the list on top whose rows the view drew there */
	if (m->logview && !m->logview->editing && m->logview->top + row < m->logview->nrows) {
		m->logview->sel = m->logview->top + row;
		return TUI_REDRAW;
	}
	if (m->arrays && !m->applying && !m->logview && row < m->arrays->n) {
		m->arrays->sel = row;
		return TUI_REDRAW;
	}
	if (main_screen(m) && tui_view_select(m, m->top + row))
		return TUI_REDRAW;
	return TUI_NONE;
}
