/* The TUI's screen without curses: the glyph sets (column counts of UTF-8,
 * bars in eighths or ASCII cells), the mouse mapped to the model (a click on
 * a key bar label is its key, on a table row selects it, the wheel is three
 * keys), a dialog whose text does not fit scrolls instead of closing, d;
 * the stack of screens and their key tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "front/glyphs.h"
#include "tui/form.h"
#include "tui/tui.h"

static void test_glyph_columns(void **state)
{
	(void)state;
	assert_int_equal(glyphs_cols("abc"), 3);
	assert_int_equal(glyphs_cols("─│┌"), 3);
	assert_int_equal(glyphs_cols("a█b"), 3);
	/* bytes of at most n columns, never half a character */
	assert_int_equal(glyphs_bytes("a█b", 2), 4);
	assert_int_equal(glyphs_bytes("a█b", 1), 1);
	assert_int_equal(glyphs_bytes("abc", 9), 3);
	assert_int_equal(glyphs_bytes("▁▂", 0), 0);
}

static void test_glyph_bars(void **state)
{
	char buf[64];

	(void)state;
	glyphs_use(false);
	assert_false(glyphs()->utf8);
	glyphs_bar(0.5, 1.0, 10, NULL, false, buf, sizeof(buf));
	assert_string_equal(buf, "#####.....");
	glyphs_bar(3, 4, 4, glyphs()->before, true, buf, sizeof(buf));
	assert_string_equal(buf, "=== ");
	glyphs_bar(2, 1, 3, NULL, true, buf, sizeof(buf)); /* over the scale: full */
	assert_string_equal(buf, "###");
	glyphs_use(true);
	assert_true(glyphs()->utf8);
	/* 1.5 of 4 cells: one whole, one half (four eighths) */
	glyphs_bar(1.5, 4, 4, NULL, true, buf, sizeof(buf));
	assert_string_equal(buf, "█▌  ");
	glyphs_bar(0.25, 1.0, 4, NULL, false, buf, sizeof(buf));
	assert_string_equal(buf, "█░░░");
	/* a short buffer: whole characters only */
	glyphs_bar(1, 1, 4, NULL, false, buf, 8);
	assert_string_equal(buf, "██");
	glyphs_use(false);
}

static void test_mouse(void **state)
{
	struct tui_model m = { 0 };
	struct dev_entry devs[12] = { 0 };
	size_t view[12];

	(void)state;
	for (int i = 0; i < 12; i++) {
		snprintf(devs[i].spec, sizeof(devs[i].spec), "sim:d%d", i);
		view[i] = (size_t)i; /* the rows shown: all, in scan order */
	}
	m.devs = devs;
	m.n = 12;
	m.view = view;
	m.nview = 12;
	m.scanned = true;
	m.top = 2; /* as the view left it: rows 2.. of the table from screen row 2 */
	m.rows_y = 2;
	m.rows_n = 5;
	/* a click on the fourth row shown: the table's row top + 3 */
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 5, 10), TUI_REDRAW);
	assert_int_equal(m.sel, 5);
	/* below the rows shown: nothing */
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 7, 10), TUI_NONE);
	assert_int_equal(m.sel, 5);
	/* the wheel: three rows at a time, stopping at the ends */
	tui_mouse(&m, TUI_WHEEL_DOWN, 5, 10);
	assert_int_equal(m.sel, 8);
	tui_mouse(&m, TUI_WHEEL_DOWN, 5, 10);
	tui_mouse(&m, TUI_WHEEL_DOWN, 5, 10);
	assert_int_equal(m.sel, 11);
	tui_mouse(&m, TUI_WHEEL_UP, 5, 10);
	assert_int_equal(m.sel, 8);
	/* a label of the key bar is its key: "? help" opens the help */
	m.hits[0] = (struct tui_hit){ 23, 0, 6, '?' };
	m.hits[1] = (struct tui_hit){ 23, 7, 15, 0 }; /* "j/k move": no one key */
	m.nhits = 2;
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 23, 8), TUI_NONE);
	assert_null(tui_screen_find(&m, &tui_help_screen));
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 23, 3), TUI_REDRAW);
	assert_non_null(tui_screen_find(&m, &tui_help_screen));
	/* with the help over it, a click on the table selects nothing */
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 3, 10), TUI_NONE);
	assert_int_equal(m.sel, 8);
	/* the arrays screen on top: a click selects an array, not a drive */
	tui_screen_close(&m, tui_screen_find(&m, &tui_help_screen));
	struct tui_arrays *arr = calloc(1, sizeof(*arr));

	assert_non_null(arr);
	arr->n = 3;
	tui_screen_open(&m, &tui_arrays_screen, arr);
	m.rows_y = 2;
	m.rows_n = 3;
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 4, 1), TUI_REDRAW);
	assert_int_equal(arr->sel, 2);
	assert_int_equal(m.sel, 8);
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 5, 1), TUI_NONE);
	tui_screen_close(&m, arr);
	m.devs = NULL;
	m.n = 0;
}

/* Sorted or filtered, a click selects the drive on the row clicked, not the
 * scan's drive of that number. */
static void test_mouse_sorted(void **state)
{
	struct tui_model m = { 0 };
	struct dev_entry devs[6] = { 0 };
	size_t view[3] = { 5, 1, 3 }; /* three shown, in an order of their own */

	(void)state;
	m.devs = devs;
	m.n = 6;
	m.view = view;
	m.nview = 3;
	m.scanned = true;
	m.sel = 5;
	m.rows_y = 2;
	m.rows_n = 3;
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 3, 4), TUI_REDRAW);
	assert_int_equal(m.sel, 1);
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 4, 4), TUI_REDRAW);
	assert_int_equal(m.sel, 3);
	/* below the last row shown: nothing, though devs has more */
	assert_int_equal(tui_mouse(&m, TUI_CLICK, 5, 4), TUI_NONE);
	assert_int_equal(m.sel, 3);
}

static void test_dialog_scrolls(void **state)
{
	struct tui_model m = { 0 };

	(void)state;
	tui_alert(&m, "Long", "%s", "text");
	assert_non_null(m.dlg);
	/* it fits (top_max 0, as the view sets it): a key closes it */
	assert_int_equal(tui_mouse(&m, TUI_WHEEL_DOWN, 5, 5), TUI_NONE);
	assert_non_null(m.dlg);
	assert_int_equal(tui_handle_key(&m, TK_DOWN), TUI_REDRAW);
	assert_null(m.dlg);
	/* it does not fit: arrows and pages scroll it, within its rows */
	tui_alert(&m, "Long", "%s", "text");
	m.dlg->top_max = 12;
	m.dlg->page = 10; /* the rows it shows (the view's): PgUp/PgDn's step */
	tui_handle_key(&m, TK_DOWN);
	tui_handle_key(&m, TK_DOWN);
	assert_int_equal(m.dlg->top, 2);
	tui_handle_key(&m, TK_PGDN);
	assert_int_equal(m.dlg->top, 12);
	tui_mouse(&m, TUI_WHEEL_UP, 5, 5);
	assert_int_equal(m.dlg->top, 9);
	tui_handle_key(&m, TK_PGUP);
	assert_int_equal(m.dlg->top, 0);
	assert_non_null(m.dlg);
	tui_handle_key(&m, TK_ESC);
	assert_null(m.dlg);
}

static void test_detail_toggle(void **state)
{
	struct tui_model m = { 0 };

	(void)state;
	m.scanned = true;
	assert_int_equal(tui_handle_key(&m, 'd'), TUI_REDRAW);
	assert_true(m.detail_off);
	assert_non_null(strstr(m.status, "hidden"));
	tui_handle_key(&m, 'd');
	assert_false(m.detail_off);
}

/* ---- the stack: screens of the test's own, which note what they are asked */

static char trail[64]; /* what the hooks did, in order: "dA" drew A, "kB" a key to B */
static int closed;

static void note(char what, const char *name)
{
	size_t n = strlen(trail);

	if (n + 2 < sizeof(trail)) {
		trail[n] = what;
		trail[n + 1] = name[0];
		trail[n + 2] = '\0';
	}
}

static void fake_draw(const struct tui_model *m, void *data)
{
	(void)m;
	note('d', data);
}

static enum tui_action fake_key(struct tui_model *m, void *data, int key)
{
	(void)m;
	(void)key;
	note('k', data);
	return TUI_REDRAW;
}

static void fake_close(void *data)
{
	note('c', data);
	closed++;
}

static const struct tui_key fake_keys[] = { { .name = "any key", .help = "noted" },
					    { .name = NULL } };
static const struct tui_screen_ops fake_full = {
	.title = "full",
	.keys = fake_keys,
	.key = fake_key,
	.draw = fake_draw,
	.close = fake_close,
};
static const struct tui_screen_ops fake_box = {
	.title = "box",
	.flags = TUI_SCREEN_OVERLAY,
	.keys = fake_keys,
	.key = fake_key,
	.draw = fake_draw,
	.close = fake_close,
};

/* Keys go to the screen pushed last, the screens are drawn from the last one
 * that fills the terminal up: one order, the stack's. A screen closed from
 * the middle leaves the others in order; a dialog takes the keys over
 * whatever is on top; a report replaces the report on top; a full stack
 * refuses a screen and frees it. */
static void test_screen_stack(void **state)
{
	static char names[TUI_MAX_SCREENS + 1][2], A[] = "A", B[] = "B", C[] = "C", D[] = "D";
	struct tui_model m = { 0 };

	(void)state;
	trail[0] = '\0';
	closed = 0;
	tui_screen_open(&m, &fake_full, A);
	tui_screen_open(&m, &fake_box, B);
	tui_screen_open(&m, &fake_box, C);
	tui_screens_draw(&m);
	tui_handle_key(&m, 'x');
	assert_string_equal(trail, "dAdBdCkC");
	/* a screen that fills the terminal hides what is under it */
	trail[0] = '\0';
	tui_screen_open(&m, &fake_full, D);
	tui_screens_draw(&m);
	assert_string_equal(trail, "dD");
	/* B closed from the middle: D on top, then C, A under both */
	trail[0] = '\0';
	tui_screen_close(&m, B);
	tui_screen_close(&m, D);
	tui_screens_draw(&m);
	tui_handle_key(&m, 'x');
	assert_string_equal(trail, "cBcDdAdCkC");
	assert_ptr_equal(tui_screen_find(&m, &fake_full), A);
	assert_ptr_equal(tui_screen_find(&m, &fake_box), C);
	assert_null(tui_screen_find(&m, &tui_pager_screen));
	/* a dialog takes the keys; a report a job opens goes under it */
	tui_alert(&m, "Note", "%s", "read it");
	assert_ptr_equal(tui_screen_focus(&m).ops, &tui_dialog_screen);
	tui_pager_open(&m, "Report 1", "one");
	assert_ptr_equal(tui_screen_top(&m).ops, &tui_pager_screen);
	assert_ptr_equal(tui_screen_focus(&m).ops, &tui_dialog_screen);
	assert_int_equal(m.nscreens, 3);
	/* the next report takes its place (one report at a time) */
	tui_pager_open(&m, "Report 2", "two");
	assert_int_equal(m.nscreens, 3);
	assert_string_equal(((struct tui_pager *)tui_screen_find(&m, &tui_pager_screen))->title,
			    "Report 2");
	tui_handle_key(&m, 'x'); /* the alert */
	assert_null(m.dlg);
	tui_handle_key(&m, 'q'); /* the report */
	assert_null(tui_screen_find(&m, &tui_pager_screen));
	trail[0] = '\0';
	tui_handle_key(&m, 'x');
	assert_string_equal(trail, "kC");
	/* full: the screen is refused, freed, and an alert says why */
	for (unsigned i = m.nscreens; i < TUI_MAX_SCREENS; i++) {
		snprintf(names[i], sizeof(names[i]), "%c", 'a' + i);
		assert_int_equal(tui_screen_open(&m, &fake_box, names[i]), TUI_REDRAW);
	}
	closed = 0;
	snprintf(names[TUI_MAX_SCREENS], sizeof(names[0]), "z");
	tui_screen_open(&m, &fake_box, names[TUI_MAX_SCREENS]);
	assert_int_equal(closed, 1);
	assert_int_equal(m.nscreens, TUI_MAX_SCREENS);
	assert_non_null(m.dlg);
	assert_non_null(strstr(m.dlg->error, "close one"));
	/* quitting closes every screen, the top first */
	closed = 0;
	tui_model_fini(&m);
	assert_int_equal(closed, TUI_MAX_SCREENS);
	assert_int_equal(m.nscreens, 0);
}

/* Every screen's key table: each line says its keys and what they do (the
 * help, tui --help and the man page list them), no key is taken by two
 * lines of one table (the second would never run), each line that takes
 * a key runs something unless the screen's key hook answers for the table,
 * and each label of its key bar that a click turns into a key is a key of
 * the table. */
static void test_key_tables(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct tui_screen_ops *const *s = tui_screen_list; *s; s++, n++) {
		const struct tui_screen_ops *o = *s;

		assert_non_null(o->title);
		assert_non_null(o->keys);
		assert_non_null(o->draw);
		assert_true(o->keys[0].name != NULL);
		for (const struct tui_key *k = o->keys; k->name; k++) {
			int codes[4] = { k->key, k->more[0], k->more[1], k->more[2] };

			if (!k->help)
				fail_msg("%s: '%s' says nothing", o->title, k->name);
			if (k->key && !k->act && !k->run && !o->key)
				fail_msg("%s: '%s' runs nothing", o->title, k->name);
			for (int c = 0; c < 4; c++)
				if (codes[c] && tui_key_find(o->keys, codes[c]) != k)
					fail_msg("%s: key %#x of '%s' is another line's", o->title,
						 (unsigned)codes[c], k->name);
		}
		for (size_t i = 0; i < o->nbar; i++)
			if (o->bar[i].code && !tui_key_find(o->keys, o->bar[i].code))
				fail_msg("%s: the bar's '%s %s' is no key of its table", o->title,
					 o->bar[i].key, o->bar[i].label);
	}
	assert_int_equal(n, 10);
	/* the drive table's first key and its last: the list's ends are read */
	assert_string_equal(tui_key_find(tui_main_screen.keys, 'k')->name, "Up/Down, j/k");
	assert_string_equal(tui_key_find(tui_main_screen.keys, 'Q' - '@')->name, "q, ^Q, ^C");
	assert_null(tui_key_find(tui_main_screen.keys, 0));
}

static enum tui_action stay_submit(struct tui_model *m, struct tui_dialog *d)
{
	(void)m;
	return tui_dialog_error(d, "stays");
}

/* A dialog (and a form) answer from their key hook: each key their tables
 * list is taken, in a dialog that asks (and scrolls) and in a form of a
 * text field, a choice and a box. */
static void test_dialog_keys(void **state)
{
	struct tui_model m = { 0 };

	(void)state;
	for (const struct tui_key *k = tui_dialog_screen.keys; k->name; k++) {
		int codes[4] = { k->key, k->more[0], k->more[1], k->more[2] };

		for (int c = 0; c < 4; c++) {
			struct tui_dialog *d;

			if (!codes[c])
				continue;
			d = tui_dialog_new("Ask");
			assert_non_null(d);
			d->input = true;
			d->submit = stay_submit;
			d->top_max = 4; /* longer than the box */
			d->page = 2;
			snprintf(d->text, sizeof(d->text), "ab");
			m.dlg = d;
			if (tui_handle_key(&m, codes[c]) == TUI_NONE)
				fail_msg("a dialog does not take '%s' (%#x)", k->name,
					 (unsigned)codes[c]);
			tui_dialog_free(m.dlg);
			m.dlg = NULL;
		}
	}
	/* the line without a key: a message closes on any other */
	tui_alert(&m, "Note", "%s", "read");
	assert_int_equal(tui_handle_key(&m, 'x'), TUI_REDRAW);
	assert_null(m.dlg);
	for (const struct tui_key *k = tui_form_screen.keys; k->name; k++) {
		int codes[4] = { k->key, k->more[0], k->more[1], k->more[2] };

		for (int c = 0; c < 4; c++) {
			struct tui_dialog *d;
			struct tui_form *f;
			struct tui_field *x;

			if (!codes[c])
				continue;
			d = tui_dialog_new("Form");
			f = tui_dialog_form(d);
			assert_non_null(f);
			tui_form_text(f, "Size", "1MiB", "a size");
			x = tui_form_choice(f, "Kind", "a kind");
			tui_field_option(x, "alpha", NULL);
			tui_field_option(x, "gamma", NULL);
			tui_form_check(f, "Volatile", false, "a box");
			d->submit = stay_submit;
			/* Left/Right/Space on the choice, y/n/x on the box */
			f->focus = codes[c] == TK_LEFT || codes[c] == TK_RIGHT || codes[c] == ' '
				       ? 1
				   : codes[c] == 'y' || codes[c] == 'n' || codes[c] == 'x' ? 2
											   : 0;
			m.dlg = d;
			if (tui_handle_key(&m, codes[c]) == TUI_NONE)
				fail_msg("a form does not take '%s' (%#x)", k->name,
					 (unsigned)codes[c]);
			tui_dialog_free(m.dlg);
			m.dlg = NULL;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glyph_columns),  cmocka_unit_test(test_glyph_bars),
		cmocka_unit_test(test_mouse),	       cmocka_unit_test(test_mouse_sorted),
		cmocka_unit_test(test_dialog_scrolls), cmocka_unit_test(test_detail_toggle),
		cmocka_unit_test(test_key_tables),     cmocka_unit_test(test_dialog_keys),
		cmocka_unit_test(test_screen_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
