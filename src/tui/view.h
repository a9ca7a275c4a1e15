/* view.h - what view.c gives the other views (view_forms.c): the colours,
 * a box over the screen, text wrapped to a width. Curses is theirs alone. */
#ifndef SHORTSTROKE_TUI_VIEW_H
#define SHORTSTROKE_TUI_VIEW_H

#include <curses.h>

attr_t tui_attr_title(void);	/* a box, the title bar */
attr_t tui_attr_alert(void);	/* a refusal, an error */
attr_t tui_attr_good(void);	/* done, passed */
attr_t tui_attr_head(void);	/* a table's heading */

/* A box of h rows and w columns at (y0, x0) in a, its title on the top row
 * (NULL: none). */
void tui_box(int y0, int x0, int h, int w, attr_t a, const char *title);

/* The length of p's next row at most width wide: cut at the last space that
 * fits, else in the middle of a word. */
size_t tui_wrap_cut(const char *p, int width);
/* Rows text needs wrapped at width; draw it wrapped from (y, x), at most
 * max rows, the rows drawn. */
int tui_wrap_rows(const char *p, int width);
/* p wrapped at width into rows, a continuation indented by ind (where the
 * width leaves room for it); an empty p is one empty row. The rows made, at
 * most max. */
int tui_wrap_into(const char *p, int width, int ind, char (*rows)[256], int max);
int tui_wrap_draw(int y, int x, const char *p, int width, int max);

/* view_setup.c: the column chooser (Setup) over the screen */
struct tui_model;
void tui_draw_setup(const struct tui_model *m);

#endif
