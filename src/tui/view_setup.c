/* view_setup.c - draw the column chooser (Setup, C or F2; select.c's
 * struct tui_setup): every column of the registry, those shown ticked, the
 * one under the cursor with its meaning. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "front/drives.h"
#include "tui.h"
#include "view.h"

void tui_draw_setup(const struct tui_model *m, void *data)
{
	const struct tui_setup *s = data;
	int w = COLS - 2 < 76 ? COLS - 2 : 76, tw = w - 4;
	int vis = (int)s->n, h, y0, x0, top = 0, y;
	char buf[256];

	if (tw < 1)
		tw = 1;
	/* title, the rows, a blank, the help of the row, the message, the keys */
	if (vis > LINES - 7)
		vis = LINES - 7 > 1 ? LINES - 7 : 1;
	if ((int)s->cur >= vis)
		top = (int)s->cur - vis + 1;
	h = vis + 6 < LINES ? vis + 6 : LINES;
	y0 = (LINES - h) / 2 > 0 ? (LINES - h) / 2 : 0;
	x0 = (COLS - w) / 2 > 0 ? (COLS - w) / 2 : 0;
	tui_box(y0, x0, h, w, tui_attr_title(), "Setup - the drive table's columns");
	attron(tui_attr_title());
	y = y0 + 1;
	for (int k = top; k < top + vis && k < (int)s->n; k++, y++) {
		unsigned id = s->ids[k];

		snprintf(buf, sizeof(buf), "[%c] %-9s %s", s->on[k] ? 'x' : ' ',
			 drive_cols[id].name, tui_col_required(id) ? "(always)" : "");
		if (k == (int)s->cur)
			attron(A_REVERSE);
		mvhline(y, x0 + 1, ' ', w - 2);
		mvaddnstr(y, x0 + 2, buf, tw);
		if (k == (int)s->cur)
			attroff(A_REVERSE);
	}
	y++;
	if (y < y0 + h - 2 && s->n)
		mvaddnstr(y++, x0 + 2, drive_cols[s->ids[s->cur]].help, tw);
	attroff(tui_attr_title());
	if (s->msg[0] && y < y0 + h - 1) {
		attron(tui_attr_alert() | A_REVERSE);
		mvaddnstr(y, x0 + 2, s->msg, tw);
		attroff(tui_attr_alert() | A_REVERSE);
	}
	attron(tui_attr_title());
	mvaddnstr(y0 + h - 1, x0 + 2,
		  "Space show/hide  [ ] move  d defaults  Enter save  Esc cancel", tw);
	attroff(tui_attr_title());
}
