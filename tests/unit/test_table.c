#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "front/drives.h"
#include "front/record.h"
#include "front/table.h"

enum { C_NAME, C_SIZE, C_RPM, C_ROTA, C_LIMITED, C_LOG_SEC, C_COUNT };
static const struct col_def cols[C_COUNT] = {
	[C_NAME] = { "NAME", COL_STR, false, 0, 0, "name" },
	[C_SIZE] = { "SIZE", COL_SIZE, true, 0, 9, "size" },
	[C_RPM] = { "RPM", COL_U64, true, 0, 0, "rpm" },
	[C_ROTA] = { "ROTA", COL_BOOL, false, 0, 0, "rotational" },
	[C_LIMITED] = { "LIMITED", COL_LIMIT, true, 1, 0, "limited" },
	[C_LOG_SEC] = { "LOG-SEC", COL_U64, true, 0, 0, "logical block" },
};
#define NCOLS C_COUNT

static char *render(struct table *t, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	table_print(t, f, flags, "drives");
	fclose(f);
	return buf;
}

/* A drive limited to half of 1000 blocks of 512 bytes by hpa. */
static void half_limited(struct dev_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->info.logical_block = 512;
	e->limit.limited = true;
	snprintf(e->limit.method, sizeof(e->limit.method), "hpa");
	e->limit.original_blocks = 1000;
	e->limit.limit_blocks = 500;
}

static struct table *two_rows(const char *sel)
{
	struct ss_error msg = { 0 };
	struct table *t = table_new(cols, NCOLS, "NAME,SIZE,RPM,LIMITED", sel, &msg);
	struct dev_entry e;

	assert_non_null(t);
	table_add_row(t);
	table_set_str(t, C_NAME, "sim:a b");
	table_set_size(t, C_SIZE, 450098159616ULL);
	table_set_u64(t, C_RPM, 15000);
	table_set_bool(t, C_ROTA, true);
	half_limited(&e);
	table_set_limit(t, C_LIMITED, &e);
	table_set_u64(t, C_LOG_SEC, 512);
	table_add_row(t);
	table_set_str(t, C_NAME, "c");
	table_set_size(t, C_SIZE, 1000);
	memset(&e, 0, sizeof(e));
	e.info.native_blocks = 2; /* not limited, and the drive says so */
	table_set_limit(t, C_LIMITED, &e);
	return t;
}

static void test_text(void **state)
{
	struct table *t = two_rows(NULL);
	char *s = render(t, 0);

	(void)state;
	assert_string_equal(s, "NAME       SIZE   RPM              LIMITED\n"
			       "sim:a b  450 GB 15000 50.0% of 512 kB, hpa\n"
			       "c       1.00 kB     -                   no\n");
	free(s);
	s = render(t, TABLE_RAW | TABLE_NOHEADINGS | TABLE_BYTES);
	assert_string_equal(s,
			    "sim:a\\x20b 450098159616 15000 50.0%\\x20of\\x20512\\x20kB,\\x20hpa\n"
			    "c 1000  no\n");
	free(s);
	table_free(t);
}

static void test_json(void **state)
{
	struct table *t = two_rows("+ROTA,LOG-SEC");
	char *s = render(t, TABLE_JSON);

	(void)state;
	assert_non_null(strstr(s, "\"drives\""));
	assert_non_null(strstr(s, "\"size\": 450098159616"));
	assert_non_null(strstr(s, "\"rpm\": null"));
	/* one type: an object, or null */
	assert_non_null(strstr(s, "\"limited\": {"));
	assert_non_null(strstr(s, "\"percent\": 50.0"));
	assert_non_null(strstr(s, "\"limited\": null"));
	assert_null(strstr(s, "\"limited\": false"));
	assert_non_null(strstr(s, "\"rota\": true"));
	assert_non_null(strstr(s, "\"log-sec\": 512"));
	free(s);
	table_free(t);
}

static void test_selection(void **state)
{
	struct ss_error msg = { 0 };
	struct table *t;
	char *s;

	(void)state;
	t = table_new(cols, NCOLS, "NAME,SIZE", "rpm,name", &msg);
	assert_non_null(t);
	table_add_row(t);
	table_set_str(t, C_NAME, "x");
	table_set_u64(t, C_RPM, 7200);
	table_set_u64(t, C_LOG_SEC, 512); /* not selected: left out */
	s = render(t, 0);
	assert_string_equal(s, " RPM NAME\n7200 x\n");
	free(s);
	table_free(t);

	assert_null(table_new(cols, NCOLS, "NAME", "NAME,NOPE", &msg));
	assert_string_equal(msg.msg, "unknown column: NOPE (see --list-columns)");
	assert_true(msg.usage);
	assert_null(table_new(cols, NCOLS, "NAME", ",", &msg));
}

/* The check a command makes before any I/O agrees with table_new. */
static void test_check_columns(void **state)
{
	struct ss_error msg = { 0 };

	(void)state;
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", NULL, &msg), 0);
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "+rpm,LOG-SEC", &msg), 0);
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "SIZE,BAR", &msg), -EINVAL);
	assert_string_equal(msg.msg, "unknown column: BAR (see --list-columns)");
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "+BAR", &msg), -EINVAL);
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "", &msg), -EINVAL);
	assert_string_equal(msg.msg, "no columns selected");
}

static char *render_record(const struct record *r, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	record_print(r, f, flags);
	fclose(f);
	return buf;
}

/* One record, filled once: its text lines and its JSON, each in the order
 * filled; nested objects and lists, a table, null, a parsed document. */
static void test_record(void **state)
{
	struct record *r = record_new(), *o, *l, *x;
	struct table *t = two_rows("NAME,RPM");
	char *s;

	(void)state;
	record_str(r, "Device", "device", "sim:a");
	record_str(r, "Vendor", "vendor", "");
	record_u64(r, "Logical block", "logical_block", 512, "bytes");
	record_text(r, "Limited", "no");
	record_set_null(r, "limited");
	o = record_set_object(r, "checks");
	record_style(o, 2, 9, false);
	record_text(o, "scan", "PASS  %u bad", 0u);
	x = record_set_object(o, "scan");
	record_set_str(x, "result", "PASS");
	record_set_i64(x, "bad", -1);
	l = record_set_list(r, "members");
	record_set_str(l, NULL, "sim:b");
	record_set_null(l, NULL);
	record_set_double(l, NULL, 2.5);
	record_set_bool(r, "ok", true);
	record_set_json_text(r, "plan", "{ \"version\": 1 }");
	record_set_json_text(r, "broken", "{");
	record_set_table(r, "rows", t);
	record_line(r, "%s", "");
	record_table(r, t);

	s = render_record(r, 0);
	assert_string_equal(s, "Device:        sim:a\n"
			       "Vendor:        -\n"
			       "Logical block: 512 bytes\n"
			       "Limited:       no\n"
			       "  scan      PASS  0 bad\n"
			       "\n"
			       "NAME      RPM\n"
			       "sim:a b 15000\n"
			       "c           -\n");
	free(s);
	s = render_record(r, TABLE_JSON);
	assert_string_equal(s, "{\n"
			       "  \"device\": \"sim:a\",\n"
			       "  \"vendor\": null,\n"
			       "  \"logical_block\": 512,\n"
			       "  \"limited\": null,\n"
			       "  \"checks\": {\n"
			       "    \"scan\": {\n"
			       "      \"result\": \"PASS\",\n"
			       "      \"bad\": -1\n"
			       "    }\n"
			       "  },\n"
			       "  \"members\": [\n"
			       "    \"sim:b\",\n"
			       "    null,\n"
			       "    2.5\n"
			       "  ],\n"
			       "  \"ok\": true,\n"
			       "  \"plan\": {\n"
			       "    \"version\": 1\n"
			       "  },\n"
			       "  \"broken\": null,\n"
			       "  \"rows\": [\n"
			       "    {\n"
			       "      \"name\": \"sim:a b\",\n"
			       "      \"rpm\": 15000\n"
			       "    },\n"
			       "    {\n"
			       "      \"name\": \"c\",\n"
			       "      \"rpm\": null\n"
			       "    }\n"
			       "  ]\n"
			       "}\n");
	free(s);
	/* the label lines of the record itself, for the TUI's detail pane */
	assert_int_equal(record_count(r), 5);
	{
		const char *label, *text;

		record_get_line(r, 2, &label, &text);
		assert_string_equal(label, "Logical block");
		assert_string_equal(text, "512 bytes");
		record_get_line(r, 4, &label, &text);
		assert_string_equal(label, "");
	}
	record_free(r);
}

/* Text styles: padded to a width (with and without the colon). */
static void test_record_style(void **state)
{
	struct record *r = record_new();
	char *s;

	(void)state;
	record_style(r, 2, 22, true);
	record_line(r, "sim:a: PASSED");
	record_text(r, "Drive", "M (S)");
	record_u64(r, "Non-medium errors", "non_medium_errors", 3, NULL);
	s = render_record(r, 0);
	assert_string_equal(s, "sim:a: PASSED\n"
			       "  Drive:                 M (S)\n"
			       "  Non-medium errors:     3\n");
	free(s);
	record_style(r, 0, 0, true);
	s = render_record(r, 0);
	assert_string_equal(s, "sim:a: PASSED\nDrive: M (S)\nNon-medium errors: 3\n");
	free(s);
	record_free(r);
}

/* One registry for `list` and the TUI: the same row gives the same cell
 * text, whoever reads it. */
static void test_drive_row(void **state)
{
	struct ss_error msg = { 0 };
	struct table *t = table_new(drive_cols, DRV_COUNT, "DEVICE,TRAN,SIZE,LIMITED,RPM,STATE",
				    NULL, &msg);
	struct dev_entry e;
	char buf[64], *s;

	(void)state;
	assert_non_null(t);
	half_limited(&e);
	snprintf(e.spec, sizeof(e.spec), "sim:ssd");
	e.info.rpm = 1; /* non-rotating */
	e.info.capacity_blocks = 500;
	drive_row(t, &e, "PASSED"); /* HEALTH not selected: left out */
	assert_int_equal(table_rows(t), 1);
	assert_int_equal(table_cols(t), 6);
	assert_int_equal(table_col_id(t, 4), DRV_RPM);
	assert_true(table_has_col(t, DRV_RPM));
	assert_false(table_has_col(t, DRV_HEALTH));
	assert_string_equal(table_col(t, 3)->name, "LIMITED");
	assert_string_equal(table_cell_text(t, 0, 0, 0, 0, buf, sizeof(buf)), "sim:ssd");
	assert_string_equal(table_cell_text(t, 0, 1, 0, 0, buf, sizeof(buf)),
			    "-"); /* no transport */
	assert_string_equal(table_cell_text(t, 0, 2, 0, 0, buf, sizeof(buf)), "256 kB");
	assert_string_equal(table_cell_text(t, 0, 3, 0, 0, buf, sizeof(buf)),
			    "50.0% of 512 kB, hpa");
	assert_string_equal(table_cell_text(t, 0, 4, 0, 0, buf, sizeof(buf)), "0");
	/* a narrow column: the share alone, at the same precision */
	assert_string_equal(table_cell_text(t, 0, 3, 0, 8, buf, sizeof(buf)), "50.0%");
	assert_string_equal(table_cell_text(t, 0, 3, 0, 20, buf, sizeof(buf)),
			    "50.0% of 512 kB, hpa");
	assert_string_equal(table_cell_text(t, 0, 0, 0, 3, buf, sizeof(buf)), "sim:ssd");
	s = render(t, 0);
	assert_non_null(strstr(s, "50.0% of 512 kB, hpa   0"));
	free(s);
	table_free(t);
	/* HEALTH: set from what the front end read for it, "-" when it read nothing */
	t = table_new(drive_cols, DRV_COUNT, DRIVE_COLS_DEFAULT, "DEVICE,HEALTH", &msg);
	assert_non_null(t);
	assert_true(table_has_col(t, DRV_HEALTH));
	drive_row(t, &e, "WARNING");
	drive_row(t, &e, NULL);
	assert_string_equal(table_cell_text(t, 0, 1, 0, 0, buf, sizeof(buf)), "WARNING");
	assert_string_equal(table_cell_text(t, 1, 1, 0, 0, buf, sizeof(buf)), "-");
	table_free(t);
	/* every column of the registry has a name, a help and a width hint but the last */
	for (unsigned i = 0; i < DRV_COUNT; i++) {
		assert_non_null(drive_cols[i].name);
		assert_non_null(drive_cols[i].help);
		assert_true(drive_cols[i].width > 0 || i == DRV_STATE);
	}
	assert_null(table_new(drive_cols, DRV_COUNT, DRIVE_COLS_DEFAULT, "+MODLE", &msg));
	assert_string_equal(msg.msg, "unknown column: MODLE (see --list-columns)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),	  cmocka_unit_test(test_json),
		cmocka_unit_test(test_selection), cmocka_unit_test(test_check_columns),
		cmocka_unit_test(test_record),	  cmocka_unit_test(test_record_style),
		cmocka_unit_test(test_drive_row),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
