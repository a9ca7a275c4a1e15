/* model.c - what the TUI shows, refreshed without curses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

int tui_model_refresh(struct tui_model *m)
{
	struct ss_error err = { 0 };
	struct dev_entry *devs = NULL;
	size_t n = 0;
	int rc;

	rc = devices_list(m->ctx, &devs, &n, &err);
	if (rc) {
		snprintf(m->status, sizeof(m->status), "%s", err.msg);
		return rc;
	}
	free(m->devs);
	m->devs = devs;
	m->n = n;
	if (m->sel >= n)
		m->sel = n ? n - 1 : 0;
	if (m->ctx->demo)
		snprintf(m->source, sizeof(m->source), "demo rig");
	else if (m->ctx->rig_file)
		snprintf(m->source, sizeof(m->source), "rig %s", m->ctx->rig_file);
	else
		snprintf(m->source, sizeof(m->source), "this machine");
	snprintf(m->status, sizeof(m->status), "%zu drive%s", n, n == 1 ? "" : "s");
	return 0;
}

void tui_model_free(struct tui_model *m)
{
	free(m->devs);
	m->devs = NULL;
	m->n = 0;
}

void tui_model_move(struct tui_model *m, long delta)
{
	long s = (long)m->sel + delta;

	if (m->n == 0)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)m->n)
		s = (long)m->n - 1;
	m->sel = (size_t)s;
}

enum tui_action tui_handle_key(struct tui_model *m, int key)
{
	if (m->help) {
		/* any key closes help; q still quits */
		m->help = false;
		return key == 'q' ? TUI_QUIT : TUI_REDRAW;
	}
	switch (key) {
	case 'q':
	case 'Q' - '@': /* ^Q */
		return TUI_QUIT;
	case TK_UP:
	case 'k':
		tui_model_move(m, -1);
		return TUI_REDRAW;
	case TK_DOWN:
	case 'j':
		tui_model_move(m, 1);
		return TUI_REDRAW;
	case TK_HOME:
	case 'g':
		tui_model_move(m, -(long)m->n);
		return TUI_REDRAW;
	case TK_END:
	case 'G':
		tui_model_move(m, (long)m->n);
		return TUI_REDRAW;
	case TK_PGUP:
		tui_model_move(m, -10);
		return TUI_REDRAW;
	case TK_PGDN:
		tui_model_move(m, 10);
		return TUI_REDRAW;
	case '?':
	case 'h':
		m->help = true;
		return TUI_REDRAW;
	case TK_F5:
	case 'R':
		return TUI_RESCAN;
	case TK_RESIZE:
	case 'L' - '@': /* ^L */
		return TUI_REDRAW;
	default:
		return TUI_NONE;
	}
}
