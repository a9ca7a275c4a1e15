/* The TUI model without curses: dialogs whose Enter is refused or replaced
 * by an alert, the help box's scrolling, q with jobs running, the drive
 * table from list's column registry, the rescan job (the UI answers keys
 * while it runs; the selection and the marks follow the disks across it),
 * the SMART and zone reports read by a job into a pager. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture.h"
#include "front/table.h"
#include "shortstroke/enclosure.h"
#include "tui/tui.h"
#include "tui_fixture.h"

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
	struct tui_help *h;

	(void)state;
	tui_help_open(&m, &tui_main_screen);
	h = help_of(&m);
	assert_non_null(h);
	h->max = 12; /* set by the view from the screen's height */
	h->page = 5; /* the rows it shows */
	for (int i = 0; i < 15; i++)
		tui_handle_key(&m, TK_DOWN);
	assert_int_equal(h->top, 12);
	/* PgUp/PgDn: a page, the rows shown, within the text */
	tui_handle_key(&m, TK_PGUP);
	assert_int_equal(h->top, 7);
	tui_handle_key(&m, TK_PGUP);
	tui_handle_key(&m, TK_PGUP);
	assert_int_equal(h->top, 0);
	tui_handle_key(&m, TK_PGDN);
	assert_int_equal(h->top, 5);
	tui_handle_key(&m, TK_PGDN);
	tui_handle_key(&m, TK_PGDN);
	assert_int_equal(h->top, 12);
	assert_non_null(help_of(&m));
	assert_int_equal(tui_handle_key(&m, 'x'), TUI_REDRAW);
	assert_null(help_of(&m));
	/* q closes it, as it closes every other screen: no quitting */
	tui_help_open(&m, &tui_main_screen);
	assert_int_equal(tui_handle_key(&m, 'q'), TUI_REDRAW);
	assert_null(help_of(&m));
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
	static const char *const want[] = { "DEVICE", "TRAN",	 "MODEL", "SERIAL", "SIZE",
					    "NATIVE", "LIMITED", "RPM",	  "STATE" };
	struct ss_error err = { 0 };
	struct table *t = tui_drive_table(&err);
	struct tui_model m = { 0 };
	struct tui_env env;
	char buf[256];
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

	env_up(&m, &env, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
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
	env_down(&m, &env);
	assert_null(m.drives);
}

/* Entries as a scan gives them: spec, serial, WWN. */
static void entry(struct dev_entry *e, const char *spec, const char *serial, const char *wwn)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->spec, sizeof(e->spec), "%s", spec);
	e->identified = true;
	snprintf(e->info.serial, sizeof(e->info.serial), "%s", serial);
	snprintf(e->info.wwn, sizeof(e->info.wwn), "%s", wwn);
}

/* A model of n drives sim:dK (serial SK), none of them scanned from a rig. */
static void drives(struct tui_model *m, size_t n)
{
	struct dev_entry *devs = calloc(n, sizeof(*devs));
	char(*health)[TUI_HEALTH_LEN] = calloc(n, sizeof(*health));
	char spec[16], serial[16];

	assert_non_null(devs);
	assert_non_null(health);
	for (size_t i = 0; i < n; i++) {
		snprintf(spec, sizeof(spec), "sim:d%zu", i);
		snprintf(serial, sizeof(serial), "S%zu", i);
		entry(&devs[i], spec, serial, "");
	}
	tui_model_swap(m, devs, n, health);
}

/* The dialog's text, its lines one after the other. */
static const char *dialog_text(const struct tui_dialog *d, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->lines.n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s\n", d->lines.v[i]);
	return buf;
}

/* A batch of 8 of which 7 fail: every one named in the summary, the status
 * line counts them and says they are marked; the failed ones marked, the
 * done one not; a dialog open meanwhile keeps its place and the summary
 * comes after it; a retry that goes well unmarks what the failure marked,
 * and a batch that goes well leaves the user's marks; a job stopped with
 * the abort key is neither done nor failed. */
static void test_batch_summary(void **state)
{
	struct tui_model m = { 0 };
	struct tui_batch *b;
	struct tui_dialog *form;
	char text[4096], why[64], spec[16];

	(void)state;
	drives(&m, 8);
	for (size_t i = 0; i < 8; i++)
		m.marked[i] = true;
	form = tui_dialog_new("A form the user types in");
	assert_non_null(form);
	form->input = true;
	m.dlg = form;
	b = tui_batch_new("limit", "Limit", 'l');
	assert_non_null(b);
	for (size_t i = 0; i < 8; i++) {
		snprintf(spec, sizeof(spec), "sim:d%zu", i);
		tui_batch_add(b, spec);
	}
	tui_batch_seal(&m, b); /* started: nothing ended yet */
	for (size_t i = 8; i-- > 0;) {
		snprintf(spec, sizeof(spec), "sim:d%zu", i);
		snprintf(why, sizeof(why), "sim:d%zu: the drive refused SET MAX", i);
		tui_batch_ended(&m, b, spec, i ? -EIO : 0, i ? why : "limited to 10 blocks");
	}
	/* the form is still the one shown; the summary waits behind it */
	assert_ptr_equal(m.dlg, form);
	assert_non_null(m.queued);
	assert_string_equal(m.status,
			    "limit: 1 done, 7 failed; the 7 failed are marked: l retries them");
	assert_false(m.marked[0]);
	for (size_t i = 1; i < 8; i++)
		assert_true(m.marked[i]);
	assert_true(m.rescan_pending);
	m.rescan_pending = false;   /* no rig: no rescan here */
	tui_handle_key(&m, TK_ESC); /* the form closes: the summary shows */
	assert_non_null(m.dlg);
	assert_null(m.queued);
	assert_string_equal(m.dlg->title, "Limit: 1 done, 7 failed");
	assert_true(m.dlg->alert);
	dialog_text(m.dlg, text, sizeof(text));
	for (size_t i = 1; i < 8; i++) {
		snprintf(why, sizeof(why), "  sim:d%zu: the drive refused SET MAX\n", i);
		assert_non_null(strstr(text, why));
	}
	assert_non_null(strstr(text, "Done:\n  sim:d0: limited to 10 blocks\n"));
	/* a key in the summary leaves the status line's message */
	tui_handle_key(&m, TK_ENTER);
	assert_null(m.dlg);
	assert_non_null(strstr(m.status, "7 failed"));

	/* the retry on the 7: 5 go well, 2 fail again: those 2 marked */
	b = tui_batch_new("limit", "Limit", 'l');
	for (size_t i = 1; i < 8; i++) {
		snprintf(spec, sizeof(spec), "sim:d%zu", i);
		tui_batch_add(b, spec);
	}
	for (size_t i = 1; i < 8; i++) {
		snprintf(spec, sizeof(spec), "sim:d%zu", i);
		tui_batch_ended(&m, b, spec, i <= 2 ? -EIO : 0, i <= 2 ? "refused" : "limited");
	}
	tui_batch_seal(&m, b);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(m.marked[i], i == 1 || i == 2);
	assert_string_equal(m.dlg->title, "Limit: 5 done, 2 failed");
	tui_handle_key(&m, TK_ESC);
	/* the last 2 go well: unmarked (the failure had marked them) */
	b = tui_batch_new("limit", "Limit", 'l');
	tui_batch_add(b, "sim:d1");
	tui_batch_add(b, "sim:d2");
	tui_batch_seal(&m, b);
	tui_batch_ended(&m, b, "sim:d1", 0, "limited");
	tui_batch_ended(&m, b, "sim:d2", 0, "limited");
	for (size_t i = 0; i < 8; i++)
		assert_false(m.marked[i]);
	assert_string_equal(m.status, "limit: 2 done");
	assert_string_equal(m.dlg->title, "Limit: 2 done");
	assert_false(m.dlg->alert);
	tui_handle_key(&m, TK_ESC);

	/* marks the user made stay when a batch goes well; one drive: the status
	 * line alone says its result */
	m.marked[5] = true;
	b = tui_batch_new("bench", "Benchmark", 'b');
	tui_batch_add(b, "sim:d5");
	tui_batch_seal(&m, b);
	tui_batch_ended(&m, b, "sim:d5", 0, "random-access QD 1 80 IOPS");
	assert_true(m.marked[5]);
	assert_null(m.dlg);
	assert_string_equal(m.status, "sim:d5: random-access QD 1 80 IOPS");

	/* stopped by the abort key: counted apart, no dialog, the mark stays */
	b = tui_batch_new("short self-test", "Self-test", 't');
	tui_batch_add(b, "sim:d5");
	tui_batch_add(b, "sim:d6");
	tui_batch_seal(&m, b);
	tui_batch_ended(&m, b, "sim:d5", -ECANCELED, "aborted on the drive");
	tui_batch_ended(&m, b, "sim:d6", -ECANCELED, "aborted on the drive");
	assert_null(m.dlg);
	assert_true(m.marked[5]);
	assert_string_equal(m.status, "short self-test: 0 done, 2 stopped");

	/* none could start: the summary names each, with why */
	b = tui_batch_new("qualify", "Qualify", 'Q');
	tui_batch_ended(&m, b, "sim:d3", -ENODEV, "sim:d3: the drive does not answer");
	tui_batch_seal(&m, b);
	assert_non_null(m.dlg);
	assert_string_equal(m.dlg->title, "Qualify: 0 done, 1 failed");
	assert_non_null(strstr(dialog_text(m.dlg, text, sizeof(text)),
			       "  sim:d3: the drive does not answer\n"));
	assert_true(m.marked[3]);
	tui_model_fini(&m);
}

/* The swap alone: rows reorder, one disk vanishes, one is new, names
 * change; the selection and the marks follow the disks by serial, else
 * WWN, else name; the status line's count follows the list's, another
 * message stays. */
static void test_swap_keeps_disks(void **state)
{
	struct tui_model m = { 0 };
	struct dev_entry *devs = calloc(5, sizeof(*devs));
	char(*health)[TUI_HEALTH_LEN] = calloc(5, sizeof(*health));
	char line[200];

	(void)state;
	assert_non_null(devs);
	assert_non_null(health);
	entry(&devs[0], "/dev/sda", "SA", "");
	entry(&devs[1], "/dev/sdb", "SB", "");
	entry(&devs[2], "/dev/sdc", "SC", "");
	entry(&devs[3], "/dev/sdd", "", "5000c500aaaaaaaa");
	entry(&devs[4], "/dev/sde", "", "");
	tui_model_swap(&m, devs, 5, health);
	assert_int_equal(m.n, 5);
	assert_int_equal(table_rows(m.drives), 5);
	/* no message: the status line counts the drives and the marks */
	assert_string_equal(m.status, "");
	tui_count_line(&m, line, sizeof(line));
	assert_string_equal(line, "5 drives, none marked: actions apply to the selected one");
	m.sel = 2;	    /* SC */
	m.marked[0] = true; /* SA */
	m.marked[1] = true; /* SB: vanishes */
	m.marked[3] = true; /* the WWN */
	m.marked[4] = true; /* the name */

	devs = calloc(5, sizeof(*devs));
	health = calloc(5, sizeof(*health));
	assert_non_null(devs);
	assert_non_null(health);
	entry(&devs[0], "/dev/sdf", "SX", "");		     /* new */
	entry(&devs[1], "/dev/sda", "SC", "");		     /* SC, renamed */
	entry(&devs[2], "/dev/sde", "", "");		     /* the same name */
	entry(&devs[3], "/dev/sdb", "", "5000c500aaaaaaaa"); /* the WWN, renamed */
	entry(&devs[4], "/dev/sdc", "SA", "");		     /* SA, renamed */
	snprintf(health[1], sizeof(health[1]), "PASSED");
	tui_model_swap(&m, devs, 5, health);
	assert_int_equal(m.n, 5);
	assert_int_equal(m.sel, 1);
	assert_false(m.marked[0]);
	assert_false(m.marked[1]);
	assert_true(m.marked[2]);
	assert_true(m.marked[3]);
	assert_true(m.marked[4]);
	assert_string_equal(m.health[1], "PASSED");
	assert_int_equal(table_rows(m.drives), 5);

	/* the selected disk vanishes: the selection stays on its row, within
	 * the list */
	devs = calloc(1, sizeof(*devs));
	health = calloc(1, sizeof(*health));
	assert_non_null(devs);
	assert_non_null(health);
	entry(&devs[0], "/dev/sdf", "SX", "");
	tui_model_swap(&m, devs, 1, health);
	assert_int_equal(m.sel, 0);
	assert_false(m.marked[0]);
	/* the count is the new list's */
	tui_count_line(&m, line, sizeof(line));
	assert_string_equal(line, "1 drive, none marked: actions apply to the selected one");

	/* a message in the status line is not a count: it stays */
	tui_status(&m, "sim:sdf: limited to 10G");
	devs = calloc(2, sizeof(*devs));
	health = calloc(2, sizeof(*health));
	assert_non_null(devs);
	assert_non_null(health);
	entry(&devs[0], "/dev/sdf", "SX", "");
	entry(&devs[1], "/dev/sdg", "SY", "");
	tui_model_swap(&m, devs, 2, health);
	assert_string_equal(m.status, "sim:sdf: limited to 10G");
	tui_model_fini(&m);
}

#define RIG_DRIVE(id, serial)                                                                      \
	"{\"id\": \"" id "\", \"personality\": \"sata\", \"model\": \"SIM DISK\", "                \
	"\"serial\": \"" serial "\", \"firmware\": \"1.0\", \"blocks\": 2000000, \"smart\": true}"

/* The rescan job on a rig: the drives answer in a new order, one is gone,
 * their names changed; the selection and the marks stay on the same disks. */
static void test_rescan_job_swap(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env t;

	(void)state;
	/* it splits RIG_DRIVE's arguments to fill the line */
	/* clang-format off */
	env_up(&m, &t, "{\"drives\": [" RIG_DRIVE("d1", "SA") ", " RIG_DRIVE("d2", "SB") ", "
		       RIG_DRIVE("d3", "SC") "]}");
	/* clang-format on */
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	assert_int_equal(m.n, 3);
	assert_string_equal(m.source + strlen("rig "), t.rig);
	m.sel = row_of(&m, "sim:d3");
	m.marked[row_of(&m, "sim:d1")] = true;
	m.marked[row_of(&m, "sim:d2")] = true;

	/* clang-format off */
	assert_int_equal(fixture_write_file(t.rig, "{\"drives\": [" RIG_DRIVE("e1", "SC") ", "
					   RIG_DRIVE("e2", "SX") ", " RIG_DRIVE("e3", "SA") "]}"),
			 0);
	/* clang-format on */
	assert_int_equal(tui_model_refresh(&m), 0);
	assert_non_null(m.scan);
	/* a second request while it runs is coalesced into one more scan */
	assert_int_equal(tui_model_refresh(&m), 0);
	assert_int_equal(tui_model_refresh(&m), 0);
	assert_true(m.rescan_pending);
	settle(&m);
	assert_int_equal(m.n, 3);
	assert_string_equal(m.devs[m.sel].spec, "sim:e1"); /* SC */
	assert_true(m.marked[row_of(&m, "sim:e3")]);	   /* SA */
	assert_false(m.marked[row_of(&m, "sim:e1")]);
	assert_false(m.marked[row_of(&m, "sim:e2")]); /* new; SB's mark is gone */
	assert_non_null(strstr(m.health[m.sel], "PASSED"));
	env_down(&m, &t);
}

/* Take sim:ID's state lock of the demo rig (under dir) as another process
 * using the drive would: a command to it waits until it is let go. */
static int hold_drive(const char *dir, const char *id)
{
	char path[400];
	int fd;

	snprintf(path, sizeof(path), "%s/sim", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sim/demo", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sim/demo/%s.lock", dir, id);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	return fd;
}

/* While the scan waits on a slow drive the UI answers: the status line
 * says it scans, help opens, an action that needs the list says to wait,
 * q quits; the list arrives once the drive answers. */
static void test_scan_keeps_ui(void **state)
{
	struct tui_model m = { 0 };
	struct timespec ms = { 0, 20 * 1000000 };
	struct tui_env t;
	int fd;

	(void)state;
	env_up(&m, &t, NULL);
	fd = hold_drive(t.dir, "sas15k");
	assert_int_equal(tui_model_refresh(&m), 0);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(tui_handle_key(&m, TK_TICK), TUI_REDRAW); /* the spinner */
		nanosleep(&ms, NULL);
	}
	assert_non_null(m.scan);
	assert_false(m.scanned);
	{
		char line[160];

		tui_bg_line(m.scan, line, sizeof(line));
		assert_non_null(strchr("|/-\\", line[0]));
		assert_string_equal(line + 1, " scanning the drives"); /* the rig waits */
	}
	assert_int_equal(tui_handle_key(&m, 'l'), TUI_REDRAW);
	assert_null(m.dlg);
	assert_string_equal(m.status, "scanning, wait: the drive list is not read yet");
	assert_int_equal(tui_handle_key(&m, '?'), TUI_REDRAW);
	assert_non_null(help_of(&m));
	assert_int_equal(tui_handle_key(&m, TK_TICK), TUI_REDRAW);
	tui_handle_key(&m, 'x');
	assert_null(help_of(&m));
	assert_int_equal(tui_handle_key(&m, 'q'), TUI_QUIT);
	assert_non_null(m.scan);
	assert_int_equal(flock(fd, LOCK_UN), 0);
	settle(&m);
	assert_int_equal(m.n, 9);
	assert_string_equal(m.source, "demo rig");

	/* a rescan: the old list stays usable while it waits */
	assert_int_equal(flock(fd, LOCK_EX), 0);
	m.sel = 0;
	assert_int_equal(tui_model_refresh(&m), 0);
	for (int i = 0; i < 5; i++) {
		tui_handle_key(&m, TK_TICK);
		nanosleep(&ms, NULL);
	}
	assert_non_null(m.scan);
	assert_int_equal(tui_handle_key(&m, 'j'), TUI_REDRAW);
	assert_int_equal(m.sel, 1);
	tui_handle_key(&m, ' ');
	assert_true(m.marked[1]);
	assert_int_equal(flock(fd, LOCK_UN), 0);
	settle(&m);
	assert_int_equal(m.sel, 2); /* Space moved it on */
	assert_true(m.marked[1]);
	close(fd);
	env_down(&m, &t);
}

static void assert_has_line(const struct tui_pager *p, const char *line)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->lines[i], line))
			return;
	fail_msg("the pager has no line \"%s\"", line);
}

/* s and z: a job reads the report while the pager spins; the pager then
 * shows what `smart -a -l` and `zones --measure` print. Esc stops one
 * still being read. */
static void test_report_pager(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env t;
	int fd;

	(void)state;
	env_up(&m, &t, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);

	m.sel = row_of(&m, "sim:sata250");
	assert_int_equal(tui_handle_key(&m, 's'), TUI_REDRAW);
	assert_non_null(pager_of(&m));
	assert_non_null(pager_of(&m)->loading);
	assert_string_equal(pager_of(&m)->title, "SMART of sim:sata250  (q closes, arrows scroll)");
	settle(&m);
	assert_null(pager_of(&m)->loading);
	assert_string_equal(pager_of(&m)->lines[0], "sim:sata250: PASSED");
	assert_has_line(pager_of(&m),
			"  Drive:                 Hitachi HDT721025SLA380 (STF607MS2A4K7P)");
	assert_has_line(pager_of(&m), "  CRC errors:            2  (!)");
	assert_has_line(pager_of(&m),
			" ID NAME                     VALUE WORST THRESH          RAW "
			"PRETTY    FLAGS  STATUS");
	assert_has_line(pager_of(&m),
			"  1 raw-read-error-rate        100   100     16            0 0"
			"         PO-R-- ok");
	assert_has_line(pager_of(&m), "  ATA error log: 0 errors");
	tui_handle_key(&m, 'q');
	assert_null(pager_of(&m));

	m.sel = row_of(&m, "sim:smr");
	tui_handle_key(&m, 'z');
	assert_non_null(pager_of(&m));
	settle(&m);
	assert_string_equal(pager_of(&m)->title, "Zones of sim:smr  (q closes, arrows scroll)");
	assert_string_equal(pager_of(&m)->lines[0], "Device:       sim:smr");
	assert_has_line(pager_of(&m), "Zones:        52156 (268 MB each)");
	assert_has_line(pager_of(&m), "Read rate across the disk, MB/s (200 samples):");
	tui_handle_key(&m, TK_ESC);
	assert_null(pager_of(&m));

	/* Esc while the drive keeps it waiting: the pager closes at once, the
	 * job's result is dropped when it ends */
	m.sel = row_of(&m, "sim:sas15k");
	fd = hold_drive(t.dir, "sas15k");
	tui_handle_key(&m, 's');
	assert_non_null(pager_of(&m)->loading);
	assert_int_equal(tui_handle_key(&m, TK_TICK), TUI_REDRAW);
	assert_int_equal(tui_handle_key(&m, TK_ESC), TUI_REDRAW);
	assert_null(pager_of(&m));
	assert_int_equal(flock(fd, LOCK_UN), 0);
	close(fd);
	settle(&m);
	assert_null(pager_of(&m));
	assert_null(m.dlg);
	env_down(&m, &t);
}

/* A report the drive cannot give: an alert with the reason, no pager. */
static void test_report_error(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env t;

	(void)state;
	env_up(&m, &t,
	       "{\"drives\": [{\"id\": \"n1\", \"personality\": \"sata\", "
	       "\"model\": \"SIM DISK\", \"serial\": \"SN1\", \"firmware\": \"1.0\", "
	       "\"blocks\": 2000000, \"faults\": [\"no-smart\"]}]}");
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	assert_int_equal(m.n, 1);
	tui_handle_key(&m, 's');
	settle(&m);
	assert_null(pager_of(&m));
	assert_non_null(m.dlg);
	assert_string_equal(m.dlg->title, "SMART");
	assert_non_null(strstr(m.dlg->error, "sim:n1"));
	env_down(&m, &t);
}

/* e: the locate LED of the selected drive's enclosure slot, on, then off again; the
 * enclosure's own status says so */
static void test_locate_key(void **state)
{
	struct ss_error err = { 0 };
	struct encl_slot s;
	struct tui_model m = { 0 };
	struct tui_env env;
	size_t r;

	(void)state;
	env_up(&m, &env, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	r = row_of(&m, "sim:sata320");
	while (m.sel != r)
		tui_handle_key(&m, m.sel < r ? TK_DOWN : TK_UP);
	assert_int_equal(tui_handle_key(&m, 'e'), TUI_REDRAW);
	assert_non_null(strstr(m.status, "locate LED: sim:jbod0 slot 2 (Slot 02) on"));
	assert_int_equal(encl_find(m.ctx, &m.devs[r], &s, &err), 0);
	assert_true(s.st.ident);
	assert_int_equal(tui_handle_key(&m, 'e'), TUI_REDRAW);
	assert_non_null(strstr(m.status, "slot 2 (Slot 02) off"));
	assert_int_equal(encl_find(m.ctx, &m.devs[r], &s, &err), 0);
	assert_false(s.st.ident);
	env_down(&m, &env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locate_key),	 cmocka_unit_test(test_alert_from_submit),
		cmocka_unit_test(test_refusal_inline),	 cmocka_unit_test(test_help_scrolls),
		cmocka_unit_test(test_quit_with_jobs),	 cmocka_unit_test(test_drive_table),
		cmocka_unit_test(test_swap_keeps_disks), cmocka_unit_test(test_rescan_job_swap),
		cmocka_unit_test(test_scan_keeps_ui),	 cmocka_unit_test(test_report_pager),
		cmocka_unit_test(test_report_error),	 cmocka_unit_test(test_batch_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
