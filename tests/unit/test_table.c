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

#include "front/table.h"

static const struct col_def cols[] = {
	{ "NAME", COL_STR, false, 0, "name" },
	{ "SIZE", COL_SIZE, true, 0, "size" },
	{ "RPM", COL_U64, true, 0, "rpm" },
	{ "ROTA", COL_BOOL, false, 0, "rotational" },
	{ "LIMITED", COL_LIMIT, true, 1, "limited" },
	{ "LOG-SEC", COL_U64, true, 0, "logical block" },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

static char *render(struct table *t, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	table_print(t, f, flags, "drives");
	fclose(f);
	return buf;
}

static struct table *two_rows(const char *sel)
{
	char msg[128];
	struct table *t = table_new(cols, NCOLS, "NAME,SIZE,RPM,LIMITED", sel, msg, sizeof(msg));
	json_object *lim;

	assert_non_null(t);
	table_add_row(t);
	table_set_str(t, "NAME", "sim:a b");
	table_set_size(t, "SIZE", 450098159616ULL);
	table_set_u64(t, "RPM", 15000);
	table_set_bool(t, "ROTA", true);
	lim = json_object_new_object();
	json_object_object_add(lim, "percent", json_object_new_double(50.0));
	table_set_limit(t, "LIMITED", "50.0%", lim);
	table_set_u64(t, "LOG-SEC", 512);
	table_add_row(t);
	table_set_str(t, "NAME", "c");
	table_set_size(t, "SIZE", 1000);
	table_set_limit(t, "LIMITED", "no", NULL);
	return t;
}

static void test_text(void **state)
{
	struct table *t = two_rows(NULL);
	char *s = render(t, 0);

	(void)state;
	assert_string_equal(s, "NAME       SIZE   RPM LIMITED\n"
			       "sim:a b  450 GB 15000   50.0%\n"
			       "c       1.00 kB     -      no\n");
	free(s);
	s = render(t, TABLE_RAW | TABLE_NOHEADINGS | TABLE_BYTES);
	assert_string_equal(s, "sim:a\\x20b 450098159616 15000 50.0%\n"
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
	char msg[128];
	struct table *t;
	char *s;

	(void)state;
	t = table_new(cols, NCOLS, "NAME,SIZE", "rpm,name", msg, sizeof(msg));
	assert_non_null(t);
	table_add_row(t);
	table_set_str(t, "NAME", "x");
	table_set_u64(t, "RPM", 7200);
	s = render(t, 0);
	assert_string_equal(s, " RPM NAME\n7200 x\n");
	free(s);
	table_free(t);

	assert_null(table_new(cols, NCOLS, "NAME", "NAME,NOPE", msg, sizeof(msg)));
	assert_string_equal(msg, "unknown column: NOPE (see --list-columns)");
	assert_null(table_new(cols, NCOLS, "NAME", ",", msg, sizeof(msg)));
}

/* The check a command makes before any I/O agrees with table_new. */
static void test_check_columns(void **state)
{
	char msg[128];

	(void)state;
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "+rpm,LOG-SEC", msg,
					     sizeof(msg)), 0);
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "SIZE,BAR", msg, sizeof(msg)),
			 -EINVAL);
	assert_string_equal(msg, "unknown column: BAR (see --list-columns)");
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "+BAR", msg, sizeof(msg)),
			 -EINVAL);
	assert_int_equal(table_check_columns(cols, NCOLS, "NAME", "", msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "no columns selected");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_check_columns),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
