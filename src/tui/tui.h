/* tui.h - the interactive front end. The model is filled by code that never
 * touches curses; views only draw from the model; key handlers return what
 * happened. tui.c alone starts and stops curses. */
#ifndef SHORTSTROKE_TUI_H
#define SHORTSTROKE_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/devices.h"

struct tui_model {
	struct ss_ctx *ctx;
	struct dev_entry *devs;
	size_t n;
	size_t sel;		/* selected row */
	size_t top;		/* first row shown */
	bool help;		/* the help overlay is open */
	char status[256];	/* bottom line message */
	char source[128];	/* "demo rig", "rig FILE", "this machine" */
};

enum tui_action {
	TUI_NONE,		/* key not handled */
	TUI_REDRAW,
	TUI_RESCAN,
	TUI_QUIT,
};

/* model.c (no curses) */
int tui_model_refresh(struct tui_model *m);
void tui_model_free(struct tui_model *m);
void tui_model_move(struct tui_model *m, long delta);
enum tui_action tui_handle_key(struct tui_model *m, int key);

/* view.c */
void tui_colors_init(void);
void tui_draw(const struct tui_model *m);

/* keys the model understands (curses KEY_* are mapped to these in tui.c) */
enum {
	TK_UP = 0x1001,
	TK_DOWN,
	TK_HOME,
	TK_END,
	TK_PGUP,
	TK_PGDN,
	TK_RESIZE,
	TK_F5,
};

#endif
