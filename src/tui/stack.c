/* stack.c - the screens on the terminal, one over the other: the drive
 * table at the bottom, then what keys opened over it (the planner, a report,
 * the help), each a table of hooks (struct tui_screen_ops) with the state it
 * owns. Keys and ticks go to the screen on top, or to the dialog over it;
 * the screens are drawn from the last one that fills the terminal up. A
 * screen answers keys from its key table (struct tui_key), which is also
 * what the help box, `tui --help` and the man page list. No curses here: the
 * draw hooks are the views'. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

/* in the order tui --help lists them */
const struct tui_screen_ops *const tui_screen_list[] = {
	&tui_main_screen,
	&tui_help_screen,
	&tui_dialog_screen,
	&tui_form_screen,
	&tui_pager_screen,
	&tui_planner_screen,
	&tui_arrays_screen,
	&tui_applying_screen,
	&tui_log_screen,
	&tui_setup_screen,
	NULL,
};

enum tui_action tui_screen_open(struct tui_model *m, const struct tui_screen_ops *ops, void *data)
{
	if (!data)
		return tui_alert(m, "Screens", "out of memory");
	if (m->nscreens >= TUI_MAX_SCREENS) {
		if (ops->close)
			ops->close(data);
		return tui_alert(
		    m, "Screens",
		    "%u screens are open: close one (q or Esc) before opening another.",
		    m->nscreens);
	}
	m->screens[m->nscreens++] = (struct tui_screen){ ops, data };
	return TUI_REDRAW;
}

void tui_screen_close(struct tui_model *m, void *data)
{
	for (unsigned i = m->nscreens; data && i-- > 0;) {
		const struct tui_screen_ops *ops = m->screens[i].ops;

		if (m->screens[i].data != data)
			continue;
		memmove(&m->screens[i], &m->screens[i + 1],
			(m->nscreens - i - 1) * sizeof(m->screens[0]));
		m->nscreens--;
		if (ops->close)
			ops->close(data);
		return;
	}
}

void tui_screen_close_all(struct tui_model *m)
{
	while (m->nscreens)
		tui_screen_close(m, m->screens[m->nscreens - 1].data);
}

void *tui_screen_find(const struct tui_model *m, const struct tui_screen_ops *ops)
{
	for (unsigned i = m->nscreens; i-- > 0;)
		if (m->screens[i].ops == ops)
			return m->screens[i].data;
	return NULL;
}

struct tui_screen tui_screen_top(const struct tui_model *m)
{
	if (m->nscreens)
		return m->screens[m->nscreens - 1];
	return (struct tui_screen){ &tui_main_screen, NULL };
}

struct tui_screen tui_screen_focus(const struct tui_model *m)
{
	if (m->dlg)
		return (struct tui_screen){ m->dlg->form ? &tui_form_screen : &tui_dialog_screen,
					    m->dlg };
	return tui_screen_top(m);
}

const struct tui_key *tui_key_find(const struct tui_key *keys, int key)
{
	for (const struct tui_key *k = keys; key && k && k->name; k++) {
		if (k->key == key)
			return k;
		for (size_t i = 0; i < sizeof(k->more) / sizeof(k->more[0]) && k->more[i]; i++)
			if (k->more[i] == key)
				return k;
	}
	return NULL;
}

enum tui_action tui_keys_run(struct tui_model *m, const struct tui_key *keys, void *data, int key)
{
	const struct tui_key *k = tui_key_find(keys, key);

	if (!k)
		return TUI_NONE;
	if (k->drives && !m->scanned) {
		tui_status(m, "scanning, wait: the drive list is not read yet");
		return TUI_REDRAW;
	}
	if (k->drives && m->n && !m->nview && m->view) {
		tui_status(m, "no drive is shown: the filter matches none (Esc clears it)");
		return TUI_REDRAW;
	}
	if (k->run)
		return k->run(m, data, key);
	return k->act ? k->act(m) : TUI_NONE;
}

enum tui_action tui_screen_key(struct tui_model *m, int key)
{
	struct tui_screen s = tui_screen_focus(m);

	if (key == TK_RESIZE)
		return TUI_REDRAW; /* every screen draws itself at the new size */
	if (key == TK_TICK)
		return s.ops->tick ? s.ops->tick(m, s.data) : TUI_NONE;
	if (s.ops->key)
		return s.ops->key(m, s.data, key);
	return tui_keys_run(m, s.ops->keys, s.data, key);
}

void tui_screens_draw(const struct tui_model *m)
{
	unsigned from = m->nscreens;

	/* the last screen that fills the terminal (the drive table when
	 * there is none), and the boxes over it */
	while (from && (m->screens[from - 1].ops->flags & TUI_SCREEN_OVERLAY))
		from--;
	if (!from)
		tui_main_screen.draw(m, NULL);
	for (unsigned i = from ? from - 1 : 0; i < m->nscreens; i++)
		m->screens[i].ops->draw(m, m->screens[i].data);
	if (m->dlg)
		tui_screen_focus(m).ops->draw(m, m->dlg);
}

void tui_keys_lines(const struct tui_screen_ops *ops, int width, struct tui_lines *out)
{
	for (const struct tui_key *k = ops->keys; k && k->name; k++)
		if (k->help)
			tui_lines_add(out, "  %-*s %s", width, k->name, k->help);
}

void tui_help_text(const struct tui_screen_ops *of, struct tui_lines *out)
{
	tui_keys_lines(of, 14, out);
	tui_lines_add(out, "%s", "");
	tui_lines_add(out, "%s",
		      "The key bar at the bottom shows the keys of the screen on top; a click on "
		      "a label acts as its key. In a dialog, Up/Down and PgUp/PgDn scroll a text "
		      "that does not fit; in a form, Tab moves between fields.");
	if (of->about) {
		tui_lines_add(out, "%s", "");
		tui_lines_add(out, "%s", of->about);
	}
}
