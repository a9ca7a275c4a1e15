/* The TUI model without curses: dialogs whose Enter is refused or replaced
 * by an alert, the help box's scrolling, q with jobs running, the drive
 * table from list's column registry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fixture.h"
#include "front/table.h"
#include "tui/tui.h"

static int arg_frees;

static void count_free(void *arg)
{
	arg_frees++;
	free(arg);
}

static struct tui_dialog *dialog_with(enum tui_action (*submit)(struct tui_model *,
								 struct tui_dialog *))
{
	struct tui_dialog *d = tui_dialog_new("Test");

	assert_non_null(d);
	d->input = true;
	d->submit = submit;
	d->arg = malloc(16);
	d->free_arg = count_free;
	return d;
}

static void type(struct tui_model *m, const char *s)
{
	for (; *s; s++)
		tui_handle_key(m, (unsigned char)*s);
}

/* A submit that replaces its own dialog with an alert (the limit dialog
 * did this for a size the drive refuses): the dialog and its argument are
 * freed once, after submit has returned. */
static enum tui_action alert_submit(struct tui_model *m, struct tui_dialog *d)
{
	enum tui_action a = tui_alert(m, "Refused", "%s: no", d->text);

	/* the argument is still there while submit runs */
	memset(d->arg, 0, 16);
	return a;
}

static void test_alert_from_submit(void **state)
{
	struct tui_model m = { 0 };

	(void)state;
	arg_frees = 0;
	m.dlg = dialog_with(alert_submit);
	type(&m, "900GB");
	assert_int_equal(tui_handle_key(&m, TK_ENTER), TUI_REDRAW);
	assert_non_null(m.dlg);
	assert_string_equal(m.dlg->title, "Refused");
	assert_string_equal(m.dlg->error, "900GB: no");
	assert_int_equal(arg_frees, 1);
	/* any key closes the alert */
	assert_int_equal(tui_handle_key(&m, 'x'), TUI_REDRAW);
	assert_null(m.dlg);
}

static enum tui_action inline_submit(struct tui_model *m, struct tui_dialog *d)
{
	(void)m;
	if (strcmp(d->text, "ok"))
		return tui_dialog_error(d, "'%s' is refused", d->text);
	m->dlg = NULL;
	return TUI_REDRAW;
}

static void test_refusal_inline(void **state)
{
	struct tui_model m = { 0 };
	struct tui_dialog *d;

	(void)state;
	arg_frees = 0;
	d = m.dlg = dialog_with(inline_submit);
	type(&m, "bad");
	tui_handle_key(&m, TK_ENTER);
	assert_ptr_equal(m.dlg, d);
	assert_string_equal(d->error, "'bad' is refused");
	assert_true(d->alert);
	assert_int_equal(arg_frees, 0);
	/* a resize keeps the dialog and asks for a redraw */
	assert_int_equal(tui_handle_key(&m, TK_RESIZE), TUI_REDRAW);
	assert_ptr_equal(m.dlg, d);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	type(&m, "ok");
	tui_handle_key(&m, TK_ENTER);
	assert_null(m.dlg);
	assert_int_equal(arg_frees, 1);
}

static void test_help_scrolls(void **state)
{
	struct tui_model m = { 0 };

	(void)state;
	m.help = true;
	m.help_max = 5; /* set by the view from the screen's height */
	for (int i = 0; i < 9; i++)
		tui_handle_key(&m, TK_DOWN);
	assert_int_equal(m.help_top, 5);
	tui_handle_key(&m, TK_PGUP);
	assert_int_equal(m.help_top, 0);
	tui_handle_key(&m, TK_PGDN);
	assert_int_equal(m.help_top, 5);
	assert_true(m.help);
	assert_int_equal(tui_handle_key(&m, 'x'), TUI_REDRAW);
	assert_false(m.help);
}

static int wait_cancel(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	(void)arg;
	(void)err;
	struct timespec ms = { 0, 1000000 };

	while (!progress_cancelled(sink))
		nanosleep(&ms, NULL);
	return 0;
}

static void test_quit_with_jobs(void **state)
{
	struct tui_model m = { 0 };
	struct ss_error err = { 0 };
	struct tui_task *t;

	(void)state;
	assert_int_equal(tui_handle_key(&m, 'q'), TUI_QUIT);
	t = &m.tasks[0];
	snprintf(t->spec, sizeof(t->spec), "sim:x");
	snprintf(t->what, sizeof(t->what), "self-test");
	assert_int_equal(job_start("sim:x", wait_cancel, NULL, &t->job, &err), 0);
	m.ntasks = 1;
	/* a self-test: q asks, n stays, y quits */
	assert_int_equal(tui_handle_key(&m, 'q'), TUI_REDRAW);
	assert_non_null(m.dlg);
	assert_string_equal(m.dlg->title, "Quit while jobs run?");
	type(&m, "n");
	assert_int_equal(tui_handle_key(&m, TK_ENTER), TUI_REDRAW);
	assert_null(m.dlg);
	tui_handle_key(&m, 'q');
	type(&m, "y");
	assert_int_equal(tui_handle_key(&m, TK_ENTER), TUI_QUIT);
	tui_dialog_free(m.dlg);
	m.dlg = NULL;
	/* a job that cannot be left: q says why and stays */
	snprintf(t->no_abort, sizeof(t->no_abort), "a format in progress cannot be aborted");
	assert_int_equal(tui_handle_key(&m, 'q'), TUI_REDRAW);
	assert_non_null(m.dlg);
	assert_string_equal(m.dlg->title, "Jobs are running");
	assert_non_null(strstr(m.dlg->error, "cannot be aborted"));
	tui_dialog_free(m.dlg);
	job_cancel(t->job);
	job_free(t->job);
}

/* The drive table: names of list's registry, each one known, in the
 * order the screen shows them; a refresh fills a row per drive with the
 * cells `list` prints. */
static void test_drive_table(void **state)
{
	static const char *const want[] = {"DEVICE", "TRAN",	"MODEL", "SERIAL", "SIZE",
					   "NATIVE", "LIMITED", "RPM",	 "STATE"};
	struct ss_error err = {0};
	struct table *t = tui_drive_table(&err);
	struct tui_model m = {0};
	struct ss_ctx ctx;
	char dir[256], buf[256];
	unsigned shown = 0;

	(void)state;
	assert_non_null(t);
	assert_int_equal(table_cols(t), sizeof(want) / sizeof(want[0]));
	for (unsigned i = 0; i < table_cols(t); i++) {
		assert_string_equal(table_col(t, i)->name, want[i]);
		assert_string_equal(tui_cols[i].name, want[i]);
		shown += tui_cols[i].min_cols <= 80;
	}
	assert_null(tui_cols[table_cols(t)].name);
	assert_int_equal(shown, 6); /* at 80 columns: no SERIAL, NATIVE or RPM */
	table_free(t);

	assert_int_equal(fixture_mkdtemp(dir, sizeof(dir)), 0);
	ctx_init(&ctx);
	ctx.demo = true;
	ctx.state_dir = dir;
	m.ctx = &ctx;
	assert_int_equal(tui_model_refresh(&m), 0);
	assert_true(m.n > 0);
	assert_non_null(m.drives);
	assert_int_equal(table_rows(m.drives), m.n);
	for (size_t i = 0; i < m.n; i++) {
		table_cell_text(m.drives, (unsigned)i, 0, 0, 0, buf, sizeof(buf));
		assert_string_equal(buf, m.devs[i].spec);
		if (!strcmp(m.devs[i].spec, "sim:sas15k")) {
			assert_string_equal(
			    table_cell_text(m.drives, (unsigned)i, 7, 0, 0, buf, sizeof(buf)),
			    "15000");
			assert_string_equal(
			    table_cell_text(m.drives, (unsigned)i, 6, 0, 0, buf, sizeof(buf)), "-");
		}
	}
	tui_model_free(&m);
	assert_null(m.drives);
	ctx_fini(&ctx);
	fixture_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alert_from_submit), cmocka_unit_test(test_refusal_inline),
	    cmocka_unit_test(test_help_scrolls),      cmocka_unit_test(test_quit_with_jobs),
	    cmocka_unit_test(test_drive_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
