/* view.h - what view.c gives the other views (view_forms.c): the colours,
 * a box over the screen, text wrapped to a width. Curses is theirs alone. */
#ifndef SHORTSTROKE_TUI_VIEW_H
#define SHORTSTROKE_TUI_VIEW_H

#include <curses.h>

#include "tui.h"

attr_t tui_attr_title(void); /* a box, the title bar */
attr_t tui_attr_alert(void); /* a refusal, an error */
attr_t tui_attr_head(void);  /* a table's heading */

/* A framed box of h rows and w columns at (y0, x0) in a, its title on the
 * top row (NULL: none); the text goes inside, from (y0 + 1, x0 + 2). */
void tui_box(int y0, int x0, int h, int w, attr_t a, const char *title);

/* Rows text needs wrapped at width; draw it wrapped from (y, x), at most
 * max rows, the rows drawn. */
int tui_wrap_rows(const char *p, int width);
/* p wrapped at width into rows, a continuation indented by ind (where the
 * width leaves room for it); an empty p is one empty row. The rows made, at
 * most max. */
int tui_wrap_into(const char *p, int width, int ind, char (*rows)[256], int max);
int tui_wrap_draw(int y, int x, const char *p, int width, int max);

/* s from (y, x), at most cols columns of the screen (UTF-8 glyphs are one
 * column each; a character is never cut). */
void tui_put(int y, int x, const char *s, int cols);
/* s from (y, x) in at most cols columns; a longer s is cut, its last column
 * glyphs()->cut ("…", "~" in ASCII). The columns drawn. */
int tui_put_cut(int y, int x, const char *s, int cols);
/* s cut so (as tui_put_cut draws it) into buf; returns buf. */
const char *tui_cut(const char *s, int cols, char *buf, size_t len);

/* The key bar on the bottom row, the labels that fit, then status; the
 * labels' places go into the model for the mouse. */
void tui_keybar(const struct tui_model *m, const struct tui_keylabel *k, size_t n,
		const char *status);
#define TUI_KEYS(k) (k), sizeof(k) / sizeof((k)[0])

#endif
