/* The TUI's forms without curses (form.h): a text field's default replaced
 * by the first key, choices with options not offered (Left/Right pass them
 * over, a name typed picks one, Enter refuses a name that is no option or
 * one not offered), check boxes that cannot be set, the moves between
 * fields and the preview pane; then the forms of the actions on the demo
 * rig: limit (the methods a drive lacks and why, volatile only with HPA,
 * refusals that send nothing, the preview's commands as --dry-run lists
 * them, the serial, the job), restore, the self-test kinds, bench (its
 * refusals, the run kept per disk and compared with the next), and the log
 * of the commands sent. */
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
#include "shortstroke/bench.h"
#include "shortstroke/cmdlog.h"
#include "shortstroke/journal.h"
#include "tui/form.h"
#include "tui/tui.h"
#include "tui_fixture.h"

static int submits;

static enum tui_action count_submit(struct tui_model *m, struct tui_dialog *d)
{
	(void)m;
	(void)d;
	submits++;
	return TUI_REDRAW;
}

static void keys(struct tui_model *m, const char *s)
{
	for (; *s; s++)
		tui_handle_key(m, (unsigned char)*s);
}

/* A dialog of a text field with a default, a choice of a, b (not offered)
 * and c, and a check box that cannot be set. */
static struct tui_dialog *sample(void)
{
	struct tui_dialog *d = tui_dialog_new("Sample");
	struct tui_form *f = tui_dialog_form(d);
	struct tui_field *x;

	assert_non_null(f);
	tui_form_text(f, "Size", "1MiB", "a size");
	x = tui_form_choice(f, "Kind", "a kind");
	tui_field_option(x, "alpha", NULL);
	tui_field_option(x, "beta", "beta: the drive has none");
	tui_field_option(x, "gamma", NULL);
	x = tui_form_check(f, "Volatile", false, "a trial");
	snprintf(x->why_off, sizeof(x->why_off), "only HPA has a volatile form");
	tui_form_check(f, "Destructive", false, NULL);
	d->submit = count_submit;
	return d;
}

static void test_text_default(void **state)
{
	struct tui_model m = { 0 };
	struct tui_field *x;

	(void)state;
	m.dlg = sample();
	x = &m.dlg->form->f[0];
	assert_true(x->pristine);
	assert_string_equal(x->text, "1MiB");
	keys(&m, "4K");
	assert_string_equal(x->text, "4K"); /* the first key replaced the default */
	tui_handle_key(&m, TK_BACKSPACE);
	assert_string_equal(x->text, "4");
	/* Backspace on a default clears it */
	x->pristine = true;
	tui_handle_key(&m, TK_BACKSPACE);
	assert_string_equal(x->text, "");
	tui_handle_key(&m, TK_ESC);
	assert_null(m.dlg);
}

static void test_choice(void **state)
{
	struct tui_model m = { 0 };
	struct tui_field *x;
	char buf[200];

	(void)state;
	submits = 0;
	m.dlg = sample();
	x = &m.dlg->form->f[1];
	assert_string_equal(tui_field_choice(x), "alpha");
	tui_handle_key(&m, TK_TAB);
	assert_int_equal(m.dlg->form->focus, 1);
	/* Left/Right pass over what is not offered, and wrap */
	tui_handle_key(&m, TK_RIGHT);
	assert_string_equal(tui_field_choice(x), "gamma");
	tui_handle_key(&m, TK_RIGHT);
	assert_string_equal(tui_field_choice(x), "alpha");
	tui_handle_key(&m, TK_LEFT);
	assert_string_equal(tui_field_choice(x), "gamma");
	tui_field_not_offered(x, buf, sizeof(buf));
	assert_string_equal(buf, "beta: the drive has none");
	/* a name not offered: Enter says why and does not submit */
	keys(&m, "b");
	assert_int_equal(x->match, 1);
	tui_handle_key(&m, TK_ENTER);
	assert_int_equal(submits, 0);
	assert_string_equal(m.dlg->error, "beta: not offered: beta: the drive has none");
	assert_int_equal(m.dlg->form->bad, 1);
	/* no such option */
	tui_handle_key(&m, TK_BACKSPACE);
	keys(&m, "xyz");
	assert_int_equal(x->match, -1);
	tui_handle_key(&m, TK_ENTER);
	assert_int_equal(submits, 0);
	assert_string_equal(m.dlg->error, "'xyz' is not a kind: alpha, beta or gamma");
	/* an edit clears the refusal; a name typed picks the option */
	tui_handle_key(&m, TK_BACKSPACE);
	assert_string_equal(m.dlg->error, "");
	assert_int_equal(m.dlg->form->bad, -1);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	keys(&m, "G");
	assert_string_equal(tui_field_choice(x), "gamma");
	tui_handle_key(&m, TK_ENTER);
	assert_int_equal(submits, 1);
	assert_string_equal(x->typed, "");
	tui_dialog_free(m.dlg);
}

static void test_choice_none_offered(void **state)
{
	struct tui_model m = { 0 };
	struct tui_dialog *d = tui_dialog_new("None");
	struct tui_field *x = tui_form_choice(tui_dialog_form(d), "Kind", NULL);

	(void)state;
	submits = 0;
	tui_field_option(x, "short", "sim:x: SMART is not supported by this drive");
	tui_field_option(x, "long", "sim:x: SMART is not supported by this drive");
	assert_string_equal(tui_field_choice(x), "");
	assert_false(tui_field_select(x, "long"));
	d->submit = count_submit;
	m.dlg = d;
	tui_handle_key(&m, TK_RIGHT); /* nothing to move to */
	tui_handle_key(&m, TK_ENTER);
	assert_int_equal(submits, 0);
	assert_non_null(strstr(d->error, "No kind is offered: sim:x: SMART is not supported"));
	tui_dialog_free(d);
}

static void test_check_and_moves(void **state)
{
	struct tui_model m = { 0 };
	struct tui_form *f;

	(void)state;
	m.dlg = sample();
	f = m.dlg->form;
	/* Up from the first field wraps to the last; Shift-Tab goes back */
	tui_handle_key(&m, TK_UP);
	assert_int_equal(f->focus, 3);
	tui_handle_key(&m, TK_BTAB);
	assert_int_equal(f->focus, 2);
	/* a box that cannot be set says why and stays off */
	tui_handle_key(&m, ' ');
	assert_false(f->f[2].on);
	assert_string_equal(m.dlg->error, "Volatile: only HPA has a volatile form");
	tui_handle_key(&m, TK_DOWN);
	tui_handle_key(&m, ' ');
	assert_true(f->f[3].on);
	assert_string_equal(m.dlg->error, "");
	tui_handle_key(&m, 'n');
	assert_false(f->f[3].on);
	tui_handle_key(&m, 'y');
	assert_true(f->f[3].on);
	/* a key no field takes leaves the refusal as it was */
	snprintf(m.dlg->error, sizeof(m.dlg->error), "kept");
	assert_int_equal(tui_handle_key(&m, 'q'), TUI_NONE);
	assert_string_equal(m.dlg->error, "kept");
	/* the pane scrolls within what the view leaves */
	for (int i = 0; i < 30; i++)
		tui_lines_add(&f->pane, "line %d", i);
	f->pane_max = 18;
	tui_handle_key(&m, TK_PGDN);
	tui_handle_key(&m, TK_PGDN);
	tui_handle_key(&m, TK_PGDN);
	assert_int_equal(f->pane_top, 18);
	tui_handle_key(&m, TK_PGUP);
	assert_int_equal(f->pane_top, 8);
	tui_handle_key(&m, TK_ESC); /* frees the form, its pane and the dialog */
	assert_null(m.dlg);
}

/* ---- the actions' forms on the demo rig ---------------------------------------- */

static void select_drive(struct tui_model *m, const char *spec)
{
	m->sel = row_of(m, spec);
}

static const char *pane_find(const struct tui_form *f, const char *s)
{
	for (size_t i = 0; i < f->pane.n; i++)
		if (strstr(f->pane.v[i], s))
			return f->pane.v[i];
	return NULL;
}

static const struct tui_choice *option(const struct tui_field *x, const char *name)
{
	for (unsigned k = 0; k < x->nchoices; k++)
		if (!strcmp(x->choice[k].name, name))
			return &x->choice[k];
	fail_msg("no option %s", name);
	return NULL;
}

/* The capacity the drive reports now. */
static uint64_t capacity(struct tui_model *m, const char *spec)
{
	struct ss_error err = { 0 };
	struct drive *d = NULL;
	struct dev_entry e;

	assert_int_equal(device_open(m->ctx, spec, false, &d, &e, &err), 0);
	drive_free(d);
	return e.info.capacity_blocks;
}

/* Type into the field with the focus, replacing what it holds. */
static void field_type(struct tui_model *m, const char *s)
{
	struct tui_field *x = &m->dlg->form->f[m->dlg->form->focus];

	x->text[0] = '\0';
	x->pristine = false;
	keys(m, s);
}

static void test_limit_form(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env t;
	struct tui_form *f;
	struct journal_entry j;
	uint64_t before;

	(void)state;
	env_up(&m, &t, NULL);
	/* room for the rescan after the limit (identification and SMART of every
	 * drive of the demo rig, which grows) behind the SET MAX looked for below */
	m.cmdlog = cmdlog_new(CMDLOG_KEEP, 16);
	cmdlog_install(m.cmdlog);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	select_drive(&m, "sim:sata250");
	before = capacity(&m, "sim:sata250");
	tui_handle_key(&m, 'l');
	assert_non_null(m.dlg);
	f = m.dlg->form;
	assert_non_null(f);
	assert_string_equal(m.dlg->title, "Limit (short-stroke)");
	/* the methods from the table: auto first, one the drive lacks says why */
	assert_string_equal(f->f[1].choice[0].name, "auto");
	assert_non_null(
	    strstr(option(&f->f[1], "amac")->why_not, "does not support the amac method"));
	assert_string_equal(option(&f->f[1], "hpa")->why_not, "");
	/* refusals inside the form, nothing sent */
	keys(&m, "abc");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "invalid size 'abc'"));
	field_type(&m, "101%");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "at most 100%"));
	field_type(&m, "900GB");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "beyond the native maximum"));
	field_type(&m, "20%");
	tui_handle_key(&m, TK_TAB);
	keys(&m, "amac");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "amac: not offered"));
	assert_int_equal(f->focus, 1);
	/* volatile only where the method has it: dco has none */
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	keys(&m, "dco");
	assert_string_equal(tui_field_choice(&f->f[1]), "dco");
	assert_true(f->f[2].why_off[0]);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	keys(&m, "hpa");
	assert_false(f->f[2].why_off[0]);
	tui_handle_key(&m, TK_TAB);
	tui_handle_key(&m, ' ');
	assert_true(f->f[2].on);
	tui_handle_key(&m, TK_ENTER);
	/* the preview: the plan and the commands as limit --dry-run lists them */
	assert_string_equal(m.dlg->title, "Confirm limit");
	f = m.dlg->form;
	assert_non_null(pane_find(f, "After:    97679360 blocks (50.0 GB, 20.0% of 250 GB) by hpa "
				     "(volatile"));
	assert_non_null(pane_find(f, "Restore:  gets back 488397168 blocks (250 GB)"));
	assert_non_null(pane_find(f, "    85 07 00 00 00 00 00 05 ff 00 77 00 d2 40 37 00  ATA SET "
				     "MAX ADDRESS EXT (volatile)"));
	keys(&m, "WRONG");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "Not the serial"));
	assert_int_equal(m.ntasks, 0);
	tui_handle_key(&m, TK_ESC);
	assert_null(m.dlg);
	assert_int_equal(capacity(&m, "sim:sata250"), before);
	assert_int_equal(journal_original(t.dir, "STF607MS2A4K7P", "", &j, NULL), -ENOENT);

	/* again, confirmed: the job limits the drive, volatile */
	tui_handle_key(&m, 'l');
	keys(&m, "20%");
	tui_handle_key(&m, TK_TAB);
	keys(&m, "hpa");
	tui_handle_key(&m, TK_TAB);
	tui_handle_key(&m, 'y');
	tui_handle_key(&m, TK_ENTER);
	keys(&m, "STF607MS2A4K7P");
	tui_handle_key(&m, TK_ENTER);
	assert_null(m.dlg);
	assert_int_equal(m.ntasks, 1);
	settle_jobs(&m, true);
	assert_int_equal(capacity(&m, "sim:sata250"), 97679360);
	assert_int_equal(journal_original(t.dir, "STF607MS2A4K7P", "", &j, NULL), 0);
	assert_true(j.volatile_);
	assert_true(m.devs[row_of(&m, "sim:sata250")].limit.volatile_);

	/* the log: the SET MAX sent, as -v prints it, filtered by device */
	tui_handle_key(&m, 'L');
	assert_non_null(tui_screen_find(&m, &tui_log_screen));
	{
		struct tui_logview *v = tui_screen_find(&m, &tui_log_screen);
		bool seen = false;
		char line[1200];

		for (size_t r = 0; r < v->nrows; r++) {
			cmdlog_entry_line(&v->e[v->rows[r]], line, sizeof(line));
			if (strstr(line, "sim:sata250: cdb: 85 07 00 00 00 00 00 05 ff 00 77 00 d2 "
					 "40 37 00  [ATA SET MAX ADDRESS EXT] no data -> "))
				seen = true;
			assert_false(cmdlog_entry_media(&v->e[v->rows[r]]));
		}
		assert_true(seen);
		tui_handle_key(&m, '/');
		keys(&m, "sas15k");
		tui_handle_key(&m, TK_ENTER);
		assert_true(v->nrows > 0);
		for (size_t r = 0; r < v->nrows; r++)
			assert_string_equal(v->e[v->rows[r]].dev, "sim:sas15k");
		tui_handle_key(&m, 'd'); /* the filter off */
		tui_handle_key(&m, 'd'); /* the selected drive's */
		assert_string_equal(v->filter, "sim:sata250");
		tui_handle_key(&m, 'q');
		assert_null(tui_screen_find(&m, &tui_log_screen));
	}

	/* restore: the form, the preview, the serial */
	tui_handle_key(&m, 'r');
	assert_string_equal(m.dlg->title, "Restore");
	tui_handle_key(&m, TK_ENTER);
	assert_string_equal(m.dlg->title, "Confirm restore");
	assert_non_null(pane_find(m.dlg->form, "gets back 488397168 blocks (250 GB, the journaled "
					       "original) by hpa"));
	keys(&m, "STF607MS2A4K7P");
	tui_handle_key(&m, TK_ENTER);
	settle_jobs(&m, true);
	assert_int_equal(capacity(&m, "sim:sata250"), before);
	cmdlog_install(NULL);
	env_down(&m, &t);
	cmdlog_free(m.cmdlog);
}

static void test_selftest_kinds(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env t;
	struct tui_field *x;

	(void)state;
	env_up(&m, &t, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	/* SAS: short and long; conveyance says why not */
	select_drive(&m, "sim:sas15k");
	tui_handle_key(&m, 't');
	x = &m.dlg->form->f[0];
	assert_string_equal(option(x, "short")->why_not, "");
	assert_string_equal(option(x, "long")->why_not, "");
	assert_non_null(strstr(option(x, "conveyance")->why_not, "no conveyance self-test"));
	keys(&m, "c");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "conveyance: not offered"));
	assert_int_equal(m.ntasks, 0);
	tui_handle_key(&m, TK_ESC);
	/* an ATA drive with the conveyance test */
	select_drive(&m, "sim:sata250");
	tui_handle_key(&m, 't');
	x = &m.dlg->form->f[0];
	assert_string_equal(option(x, "conveyance")->why_not, "");
	tui_handle_key(&m, TK_ESC);
	env_down(&m, &t);
}

static void test_bench_form(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env t;
	struct bench_run r;
	char path[512];
	FILE *fp;
	int lines = 0, c;

	(void)state;
	env_up(&m, &t, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	select_drive(&m, "sim:sas15k");
	tui_handle_key(&m, 'b');
	assert_string_equal(tui_field_choice(&m.dlg->form->f[0]), "random-access");
	tui_handle_key(&m, TK_TAB);
	field_type(&m, "1,x");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "Queue depths '1,x'"));
	field_type(&m, "2,8");
	tui_handle_key(&m, TK_TAB);
	field_type(&m, "900GB");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "is beyond the disk"));
	field_type(&m, "50%");
	tui_handle_key(&m, TK_TAB);
	field_type(&m, "0s");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "Time '0s'"));
	field_type(&m, "200ms");
	/* a workload that writes without Destructive */
	m.dlg->form->focus = 0;
	keys(&m, "seq-w");
	tui_handle_key(&m, TK_ENTER);
	assert_non_null(strstr(m.dlg->error, "tick Destructive"));
	assert_int_equal(m.dlg->form->focus, 6); /* on the box the refusal is about */
	assert_int_equal(m.ntasks, 0);
	m.dlg->form->focus = 0;
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	tui_handle_key(&m, TK_BACKSPACE);
	keys(&m, "webserver");
	tui_handle_key(&m, TK_ENTER);
	if (m.dlg)
		fail_msg("refused: %s", m.dlg->error);
	settle_jobs(&m, true);
	assert_non_null(pager_of(&m));
	assert_non_null(strstr(pager_of(&m)->title, "Benchmark: webserver"));
	/* the run kept with what the form chose */
	assert_int_equal(bench_history_last(t.dir, "JWV2S8KC", "", "webserver", 0, &r, NULL), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.p[0].qd, 2);
	assert_int_equal(r.p[1].qd, 8);
	assert_true(r.span_blocks * 2 <= r.capacity_blocks + 1 &&
		    r.span_blocks * 2 >= r.capacity_blocks - 1);
	assert_int_equal(r.time_ns, 200000000ull);
	tui_screen_close(&m, pager_of(&m));
	/* again: beside the first run, with the change */
	tui_handle_key(&m, 'b');
	m.dlg->form->focus = 0;
	keys(&m, "webserver");
	tui_handle_key(&m, TK_TAB);
	field_type(&m, "2,8");
	tui_handle_key(&m, TK_TAB);
	field_type(&m, "50%");
	tui_handle_key(&m, TK_TAB);
	field_type(&m, "200ms");
	tui_handle_key(&m, TK_ENTER);
	settle_jobs(&m, true);
	assert_non_null(pager_of(&m));
	{
		bool before = false, change = false;

		for (size_t i = 0; i < pager_of(&m)->n; i++) {
			before |= strstr(pager_of(&m)->lines[i], "before: the run of ") != NULL;
			change |= strstr(pager_of(&m)->lines[i], "%") &&
				  pager_of(&m)->lines[i][0] == ' ' &&
				  strstr(pager_of(&m)->lines[i], "+0.0%") !=
				      NULL; /* the same seed */
		}
		assert_true(before);
		assert_true(change);
	}
	snprintf(path, sizeof(path), "%s/bench/JWV2S8KC.jsonl", t.dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while ((c = fgetc(fp)) != EOF)
		lines += c == '\n';
	fclose(fp);
	assert_int_equal(lines, 2);
	env_down(&m, &t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_default),	    cmocka_unit_test(test_choice),
		cmocka_unit_test(test_choice_none_offered), cmocka_unit_test(test_check_and_moves),
		cmocka_unit_test(test_limit_form),	    cmocka_unit_test(test_selftest_kinds),
		cmocka_unit_test(test_bench_form),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
