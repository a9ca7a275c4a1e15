/* The TUI's many disks without curses (select.c): the table sorted by any
 * column through the registry's typed cells, the filter typed live, marks
 * by the filter and inverted, what actions reach, the column chooser and
 * tui.conf, and a rescan that reorders the drives under a sort. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture.h"
#include "front/drives.h"
#include "front/table.h"
#include "tui/tui.h"
#include "tui_fixture.h"

static void keys(struct tui_model *m, const char *s)
{
	for (; *s; s++)
		tui_handle_key(m, (unsigned char)*s);
}

static uint64_t bytes(const struct tui_model *m, size_t i)
{
	return m->devs[i].info.capacity_blocks * m->devs[i].info.logical_block;
}

/* The view's specs, comma separated. */
static const char *shown(const struct tui_model *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < m->nview && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? "," : "",
					 m->devs[m->view[k]].spec);
	return buf;
}

/* > steps the sort to the next column, I inverts it: sizes sort as
 * numbers (2.00 TB after 450 GB, not as text); < before the first column
 * is the scan order again. */
static void test_sort(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env env;
	char buf[512];
	unsigned size_col = 0;

	(void)state;
	env_up(&m, &env, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	assert_true(m.n >= 6);
	assert_int_equal(m.nview, m.n);
	for (size_t k = 0; k < m.n; k++)
		assert_int_equal(m.view[k], k); /* as scanned */
	for (unsigned c = 0; c < table_cols(m.drives); c++)
		if (table_col_id(m.drives, c) == DRV_SIZE)
			size_col = c;
	assert_true(size_col > 0);
	for (unsigned c = 0; c <= size_col; c++)
		tui_handle_key(&m, '>');
	assert_int_equal(m.sort_by, DRV_SIZE + 1);
	assert_string_equal(m.status, "sorted by SIZE, ascending");
	for (size_t k = 1; k < m.nview; k++)
		assert_true(bytes(&m, m.view[k - 1]) <= bytes(&m, m.view[k]));
	assert_true(bytes(&m, m.view[0]) < bytes(&m, m.view[m.nview - 1]));
	tui_handle_key(&m, 'I');
	assert_string_equal(m.status, "sorted by SIZE, descending");
	for (size_t k = 1; k < m.nview; k++)
		assert_true(bytes(&m, m.view[k - 1]) >= bytes(&m, m.view[k]));
	tui_select_line(&m, buf, sizeof(buf));
	assert_string_equal(buf, "sort SIZE desc");
	/* moving follows the order shown */
	tui_handle_key(&m, 'g');
	assert_int_equal(m.sel, m.view[0]);
	tui_handle_key(&m, 'j');
	assert_int_equal(m.sel, m.view[1]);
	/* a row by its position shown (a click) */
	assert_true(tui_view_select(&m, 2));
	assert_int_equal(m.sel, m.view[2]);
	assert_int_equal(tui_view_pos(&m), 2);
	assert_false(tui_view_select(&m, m.nview));
	assert_int_equal(m.sel, m.view[2]);
	/* back to the scan order */
	for (unsigned c = 0; c <= size_col; c++)
		tui_handle_key(&m, '<');
	assert_int_equal(m.sort_by, 0);
	assert_string_equal(m.status, "sorted as scanned");
	for (size_t k = 0; k < m.n; k++)
		assert_int_equal(m.view[k], k);
	/* < from the scan order: the last column */
	tui_handle_key(&m, '<');
	assert_int_equal(m.sort_by, table_col_id(m.drives, table_cols(m.drives) - 1) + 1);
	env_down(&m, &env);
}

/* The cells compare by type: numbers in text as numbers, sizes as bytes,
 * a limit by its share, unset first. */
static void test_cell_cmp(void **state)
{
	struct table *t = table_new(drive_cols, DRV_COUNT, "DEVICE,SIZE,RPM", NULL, NULL);

	(void)state;
	assert_non_null(t);
	table_add_row(t);
	table_set_str(t, DRV_DEVICE, "sim:d10");
	table_set_size(t, DRV_SIZE, 2000000000000ULL);
	table_add_row(t);
	table_set_str(t, DRV_DEVICE, "sim:d2");
	table_set_size(t, DRV_SIZE, 450000000000ULL);
	table_set_u64(t, DRV_RPM, 7200);
	assert_true(table_cell_cmp(t, 1, 0, 0) < 0); /* d2 before d10 */
	assert_true(table_cell_cmp(t, 1, 0, 1) < 0); /* 450 GB before 2.00 TB */
	assert_true(table_cell_cmp(t, 0, 1, 2) < 0); /* no RPM first */
	assert_int_equal(table_cell_cmp(t, 0, 0, 1), 0);
	table_free(t);
}

/* / types a filter, live: each letter narrows the rows, Backspace widens
 * them; the selection stays on its drive while shown; Enter keeps the
 * filter, Esc clears it. */
static void test_filter(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env env;
	char buf[512];
	size_t sas = 0, before;

	(void)state;
	env_up(&m, &env, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	for (size_t i = 0; i < m.n; i++)
		sas += m.devs[i].info.tran == TRAN_SAS;
	assert_true(sas > 0 && sas < m.n);
	m.sel = row_of(&m, "sim:sas4kn");
	tui_handle_key(&m, '/');
	assert_true(m.filtering);
	keys(&m, "sa");
	before = m.nview;
	keys(&m, "s");
	assert_true(m.nview <= before);
	assert_int_equal(m.nview, sas);
	for (size_t k = 0; k < m.nview; k++)
		assert_int_equal(m.devs[m.view[k]].info.tran, TRAN_SAS);
	assert_string_equal(m.devs[m.sel].spec, "sim:sas4kn"); /* still shown */
	/* q and j are letters of the filter while it is typed */
	keys(&m, "q");
	assert_int_equal(m.nview, 0);
	tui_select_line(&m, buf, sizeof(buf));
	assert_non_null(strstr(buf, "filter 'sasq'_: 0 of"));
	/* nothing shown: an action says so and does nothing */
	tui_handle_key(&m, TK_ENTER);
	assert_false(m.filtering);
	assert_int_equal(tui_handle_key(&m, 'l'), TUI_REDRAW);
	assert_null(m.dlg);
	assert_non_null(strstr(m.status, "filter matches none"));
	{
		size_t idx[8];

		assert_int_equal(tui_targets(&m, idx, 8), 0);
	}
	tui_handle_key(&m, '/');
	tui_handle_key(&m, TK_BACKSPACE);
	assert_int_equal(m.nview, sas);
	/* a serial, any case */
	tui_handle_key(&m, TK_ESC);
	assert_false(m.filtering);
	assert_string_equal(m.filter, "");
	assert_int_equal(m.nview, m.n);
	tui_handle_key(&m, '/');
	keys(&m, "k4k1n2"); /* sim:sas4kn's serial is K4K1N2VB */
	tui_handle_key(&m, TK_ENTER);
	assert_int_equal(m.nview, 1);
	assert_string_equal(m.devs[m.view[0]].spec, "sim:sas4kn");
	assert_string_equal(m.filter, "k4k1n2");
	/* the state and the WWN match too */
	assert_true(tui_filter_match(&m.devs[0], "FREE"));
	assert_false(tui_filter_match(&m.devs[0], "in-use"));
	if (m.devs[0].info.wwn[0])
		assert_true(tui_filter_match(&m.devs[0], m.devs[0].info.wwn + 4));
	/* Esc on the main screen clears a kept filter */
	tui_handle_key(&m, TK_ESC);
	assert_int_equal(m.nview, m.n);
	env_down(&m, &env);
}

/* * marks what the filter shows, i inverts the marks of the rows shown;
 * actions reach the marked drives shown, never one the filter hides. */
static void test_marks(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env env;
	size_t idx[16], n, sata = 0;
	char line[200];

	(void)state;
	env_up(&m, &env, NULL);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	tui_handle_key(&m, '/');
	keys(&m, "sata");
	tui_handle_key(&m, TK_ENTER);
	tui_handle_key(&m, '*');
	for (size_t i = 0; i < m.n; i++) {
		bool is = m.devs[i].info.tran == TRAN_SATA;

		sata += is;
		assert_int_equal(m.marked[i], is);
	}
	assert_true(sata >= 2);
	n = tui_targets(&m, idx, 16);
	assert_int_equal(n, sata);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(m.devs[idx[k]].info.tran, TRAN_SATA);
	/* unmark one, invert: only that one is marked */
	tui_handle_key(&m, 'g');
	tui_handle_key(&m, ' ');
	assert_false(m.marked[m.view[0]]);
	tui_handle_key(&m, 'i');
	for (size_t k = 0; k < m.nview; k++)
		assert_int_equal(m.marked[m.view[k]], k == 0);
	/* no message: the status line counts the marks */
	assert_string_equal(m.status, "");
	tui_count_line(&m, line, sizeof(line));
	assert_non_null(strstr(line, ", 1 marked: actions apply to it"));
	/* a filter that hides the mark: no target is marked, the selected
	 * one shown is the target */
	tui_handle_key(&m, TK_ESC);
	tui_handle_key(&m, '/');
	keys(&m, "sas");
	tui_handle_key(&m, TK_ENTER);
	n = tui_targets(&m, idx, 16);
	assert_int_equal(n, 1);
	assert_int_equal(idx[0], m.sel);
	assert_int_equal(m.devs[idx[0]].info.tran, TRAN_SAS);
	tui_handle_key(&m, 'i');
	tui_count_line(&m, line, sizeof(line));
	assert_non_null(strstr(line, "hidden by the filter"));
	tui_handle_key(&m, 'U');
	for (size_t i = 0; i < m.n; i++)
		assert_false(m.marked[i]);
	env_down(&m, &env);
}

#define RIG_DRIVE(id, serial, blocks)                                                              \
	"{\"id\": \"" id "\", \"personality\": \"sata\", \"model\": \"SIM DISK\", "                \
	"\"serial\": \"" serial "\", \"firmware\": \"1.0\", \"blocks\": " blocks "}"

/* Sorted by SIZE, a rescan that finds the disks in another order (and
 * under other names): the marks and the selection stay on the same disks,
 * the rows in the order of the sort. */
static void test_rescan_sorted(void **state)
{
	struct tui_model m = { 0 };
	struct tui_env t;
	char buf[256];

	(void)state;
	env_up(&m, &t,
	       "{\"drives\": [" RIG_DRIVE("d1", "SA", "3000000") ", " RIG_DRIVE(
		   "d2", "SB", "1000000") ", " RIG_DRIVE("d3", "SC", "2000000") "]}");
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	assert_int_equal(m.n, 3);
	while (m.sort_by != DRV_SIZE + 1)
		tui_handle_key(&m, '>');
	assert_string_equal(shown(&m, buf, sizeof(buf)), "sim:d2,sim:d3,sim:d1");
	m.sel = row_of(&m, "sim:d3");
	m.marked[row_of(&m, "sim:d1")] = true;
	m.marked[row_of(&m, "sim:d2")] = true;

	assert_int_equal(
	    fixture_write_file(
		t.rig, "{\"drives\": [" RIG_DRIVE("e1", "SC", "2000000") ", " RIG_DRIVE(
			   "e2", "SA", "3000000") ", " RIG_DRIVE("e3", "SB", "1000000") "]}"),
	    0);
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);
	assert_int_equal(m.n, 3);
	assert_string_equal(shown(&m, buf, sizeof(buf)), "sim:e3,sim:e1,sim:e2");
	assert_string_equal(m.devs[m.sel].spec, "sim:e1"); /* SC */
	assert_true(m.marked[row_of(&m, "sim:e2")]);	   /* SA */
	assert_true(m.marked[row_of(&m, "sim:e3")]);	   /* SB */
	assert_false(m.marked[row_of(&m, "sim:e1")]);
	assert_int_equal(tui_view_pos(&m), 1);
	env_down(&m, &t);
}

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Setup: a column shown (before STATE), one moved, a required one refused;
 * Enter takes them into the table and writes tui.conf, which the next start
 * reads; a misspelt or a missing required column there is reported and the
 * defaults used. */
static void test_setup_conf(void **state)
{
	struct tui_model m = { 0 }, m2 = { 0 };
	struct tui_env env;
	struct ss_error msg = { 0 };
	char cfg[300], path[400], text[1024];
	unsigned wwn = 0, k;

	(void)state;
	env_up(&m, &env, NULL);
	snprintf(cfg, sizeof(cfg), "%s/config", env.dir);
	setenv("XDG_CONFIG_HOME", cfg, 1);
	assert_int_equal(tui_conf_path(path, sizeof(path)), 0);
	assert_non_null(strstr(path, "/config/shortstroke/tui.conf"));
	assert_int_equal(tui_conf_load(&m, &msg), 0); /* none: the defaults */
	assert_string_equal(m.columns, "");
	/* before the first scan: the columns the table will have */
	tui_handle_key(&m, 'C');
	assert_non_null(setup_of(&m));
	tui_setup_columns(setup_of(&m), text, sizeof(text));
	assert_string_equal(text, "DEVICE,TRAN,MODEL,SERIAL,SIZE,NATIVE,LIMITED,RPM,STATE");
	tui_handle_key(&m, TK_ESC);
	assert_null(setup_of(&m));
	assert_int_equal(tui_model_refresh(&m), 0);
	settle(&m);

	tui_handle_key(&m, 'C');
	assert_non_null(setup_of(&m));
	/* STATE cannot go */
	for (k = 0; setup_of(&m)->ids[k] != DRV_STATE; k++)
		tui_handle_key(&m, 'j');
	tui_handle_key(&m, ' ');
	assert_true(setup_of(&m)->on[k]);
	assert_non_null(strstr(setup_of(&m)->msg, "STATE stays"));
	/* WWN on: it goes before STATE */
	while (setup_of(&m)->ids[setup_of(&m)->cur] != DRV_WWN)
		tui_handle_key(&m, 'j');
	tui_handle_key(&m, ' ');
	assert_int_equal(setup_of(&m)->ids[k], DRV_WWN);
	assert_int_equal(setup_of(&m)->ids[k + 1], DRV_STATE);
	/* moved up once, past RPM */
	tui_handle_key(&m, '[');
	tui_setup_columns(setup_of(&m), text, sizeof(text));
	assert_string_equal(text, "DEVICE,TRAN,MODEL,SERIAL,SIZE,NATIVE,LIMITED,WWN,RPM,STATE");
	tui_handle_key(&m, TK_ENTER);
	assert_null(setup_of(&m));
	assert_non_null(strstr(m.status, "columns saved to"));
	for (unsigned c = 0; c < table_cols(m.drives); c++)
		if (table_col_id(m.drives, c) == DRV_WWN)
			wwn = c;
	assert_int_equal(wwn, 7);
	assert_int_equal(table_rows(m.drives), m.n);
	read_file(path, text, sizeof(text));
	assert_non_null(strstr(text, "\ncolumns=DEVICE,TRAN,MODEL,SERIAL,SIZE,NATIVE,LIMITED,WWN,"
				     "RPM,STATE\n"));

	/* the next start */
	assert_int_equal(tui_conf_load(&m2, &msg), 0);
	assert_string_equal(msg.msg, "");
	assert_string_equal(m2.columns,
			    "DEVICE,TRAN,MODEL,SERIAL,SIZE,NATIVE,LIMITED,WWN,RPM,STATE");

	/* misspelt */
	assert_int_equal(
	    fixture_write_file(path, "# mine\ncolumns=DEVICE,SIZE,WWNN,LIMITED,STATE\n"), 0);
	memset(&m2, 0, sizeof(m2));
	assert_int_not_equal(tui_conf_load(&m2, &msg), 0);
	assert_non_null(strstr(msg.msg, "tui.conf line 2: unknown column: WWNN"));
	assert_non_null(strstr(msg.msg, "the default columns are used"));
	assert_string_equal(m2.columns, "");
	/* STATE left out */
	assert_int_equal(fixture_write_file(path, "columns=DEVICE,SIZE,LIMITED\n"), 0);
	assert_int_not_equal(tui_conf_load(&m2, &msg), 0);
	assert_non_null(strstr(msg.msg, "STATE is left out"));
	assert_string_equal(m2.columns, "");
	/* an unknown setting */
	assert_int_equal(fixture_write_file(path, "colums=DEVICE\n"), 0);
	assert_int_not_equal(tui_conf_load(&m2, &msg), 0);
	assert_non_null(strstr(msg.msg, "no setting 'colums'"));
	/* several wrong lines: the first is said, the others counted */
	assert_int_equal(fixture_write_file(path, "columns=DEVICE,NOSUCH,SIZE\nsort=%n%s\n"
						  "garbage\n"),
			 0);
	memset(&m2, 0, sizeof(m2));
	assert_int_not_equal(tui_conf_load(&m2, &msg), 0);
	assert_non_null(strstr(msg.msg,
			       "3 lines of tui.conf are wrong; the first: tui.conf line 1: "
			       "unknown column: NOSUCH"));
	assert_true(m2.conf_bad);

	/* the sort: read, checked against the table's columns, written on
	 * quitting when it changed (not over a file with a mistake) */
	assert_int_equal(fixture_write_file(path, "columns=DEVICE,SIZE,LIMITED,STATE\n"
						  "sort=-size\n"),
			 0);
	memset(&m2, 0, sizeof(m2));
	assert_int_equal(tui_conf_load(&m2, &msg), 0);
	assert_int_equal(m2.sort_by, DRV_SIZE + 1);
	assert_true(m2.sort_desc);
	assert_int_equal(tui_conf_quit(&m2, &msg), 0); /* unchanged: not written */
	m2.sort_by = DRV_DEVICE + 1;
	m2.sort_desc = false;
	assert_int_equal(tui_conf_quit(&m2, &msg), 0);
	read_file(path, text, sizeof(text));
	assert_non_null(strstr(text, "\ncolumns=DEVICE,SIZE,LIMITED,STATE\nsort=DEVICE\n"));
	assert_int_equal(fixture_write_file(path, "columns=DEVICE,SIZE,LIMITED,STATE\n"
						  "sort=RPM\n"),
			 0);
	memset(&m2, 0, sizeof(m2));
	assert_int_not_equal(tui_conf_load(&m2, &msg), 0);
	assert_non_null(strstr(msg.msg, "line 2: sort=RPM is no column of the table"));
	assert_int_equal(m2.sort_by, 0);
	m2.sort_by = DRV_SIZE + 1;
	assert_int_equal(tui_conf_quit(&m2, &msg), 0);
	read_file(path, text, sizeof(text));
	assert_non_null(strstr(text, "sort=RPM")); /* the user's to mend */

	/* d: the defaults again; Esc leaves the table as it is */
	tui_handle_key(&m, TK_F2);
	assert_non_null(setup_of(&m));
	tui_handle_key(&m, 'd');
	tui_setup_columns(setup_of(&m), text, sizeof(text));
	assert_string_equal(text, "DEVICE,TRAN,MODEL,SERIAL,SIZE,NATIVE,LIMITED,RPM,STATE");
	tui_handle_key(&m, TK_ESC);
	assert_null(setup_of(&m));
	assert_int_equal(table_cols(m.drives), 10);
	unsetenv("XDG_CONFIG_HOME");
	env_down(&m, &env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort),	      cmocka_unit_test(test_cell_cmp),
		cmocka_unit_test(test_filter),	      cmocka_unit_test(test_marks),
		cmocka_unit_test(test_rescan_sorted), cmocka_unit_test(test_setup_conf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
