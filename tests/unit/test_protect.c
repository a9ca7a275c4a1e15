/* test_protect.c - the protect file: parsing, matching, errors, rewriting. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/protect.h"

#include "fixture.h"

static struct protect_list *parse_ok(const char *text)
{
	struct protect_list *l = NULL;
	struct ss_error err = { 0 };

	assert_int_equal(protect_parse(text, strlen(text), "t.conf", &l, &err), 0);
	assert_non_null(l);
	return l;
}

static void parse_fails(const char *text, const char *msg)
{
	struct protect_list *l = (struct protect_list *)1;
	struct ss_error err = { 0 };

	assert_int_equal(protect_parse(text, strlen(text), "t.conf", &l, &err), -EINVAL);
	assert_null(l);
	if (!strstr(err.msg, msg))
		fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	return buf;
}

static void spew(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_default_path(void **state)
{
	assert_string_equal(protect_default_path(), "/etc/shortstroke/protect.conf");
}

static void test_parse_forms(void **state)
{
	struct protect_list *l;
	enum protect_kind k;
	const char *v;
	unsigned line;

	l = parse_ok("# boot mirror\n"
		     "\n"
		     "serial:ZFL0ABCD\n"
		     "  wwn: 0x5000C500A1B2C3D4   # the other one\n"
		     "\tWD-WCC7K1234567\t\r\n"
		     "SERIAL:abc#def\n"
		     "wwn:naa.50014ee2b5c6d7e8");
	assert_int_equal(protect_count(l), 5);
	assert_int_equal(protect_get(l, 0, &k, &v, &line), 0);
	assert_int_equal(k, PROTECT_SERIAL);
	assert_string_equal(v, "ZFL0ABCD");
	assert_int_equal(line, 3);
	assert_int_equal(protect_get(l, 1, &k, &v, &line), 0);
	assert_int_equal(k, PROTECT_WWN);
	assert_string_equal(v, "0x5000C500A1B2C3D4");
	assert_int_equal(line, 4);
	assert_int_equal(protect_get(l, 2, &k, &v, &line), 0);
	assert_int_equal(k, PROTECT_ANY);
	assert_string_equal(v, "WD-WCC7K1234567");
	assert_int_equal(protect_get(l, 3, &k, &v, NULL), 0);
	assert_string_equal(v, "abc#def"); /* '#' inside a word is kept */
	assert_int_equal(protect_get(l, 5, &k, &v, &line), -ERANGE);
	protect_free(l);

	l = parse_ok("");
	assert_int_equal(protect_count(l), 0);
	assert_false(protect_match(l, "X", "0x1"));
	protect_free(l);
	l = parse_ok("# only a comment\n\n   \n");
	assert_int_equal(protect_count(l), 0);
	protect_free(l);
}

static void test_match(void **state)
{
	struct protect_list *l;

	l = parse_ok("serial:ZFL0ABCD\n"
		     "wwn:0x5000C500A1B2C3D4\n"
		     "WD-WCC7K1234567\n"
		     "50014ee2b5c6d7e8\n"
		     "wwn:eui.0025385B71B0A3C2\n");
	/* serial, any case, trimmed */
	assert_true(protect_match(l, "ZFL0ABCD", NULL));
	assert_true(protect_match(l, "zfl0abcd", ""));
	assert_true(protect_match(l, "   ZFL0ABCD", NULL));
	assert_false(protect_match(l, "ZFL0ABC", NULL));
	/* a serial entry is not a WWN */
	assert_false(protect_match(l, NULL, "ZFL0ABCD"));
	/* WWN in every spelling */
	assert_true(protect_match(l, NULL, "0x5000c500a1b2c3d4"));
	assert_true(protect_match(l, NULL, "5000C500A1B2C3D4"));
	assert_true(protect_match(l, NULL, "naa.5000c500a1b2c3d4"));
	assert_true(protect_match(l, NULL, "wwn-0x5000c500a1b2c3d4"));
	assert_false(protect_match(l, NULL, "0x5000c500a1b2c3d5"));
	/* a WWN entry is not a serial */
	assert_false(protect_match(l, "0x5000C500A1B2C3D4", NULL));
	/* untagged: serial or WWN */
	assert_true(protect_match(l, "WD-WCC7K1234567", NULL));
	assert_true(protect_match(l, NULL, "0x50014EE2B5C6D7E8"));
	assert_true(protect_match(l, NULL, "naa.50014ee2b5c6d7e8"));
	assert_true(protect_match(l, "50014EE2B5C6D7E8", NULL));
	/* eui */
	assert_true(protect_match(l, NULL, "eui.0025385b71b0a3c2"));
	assert_false(protect_match(l, NULL, "0x0025385b71b0a3c2"));
	/* nothing given, nothing matched */
	assert_false(protect_match(l, NULL, NULL));
	assert_false(protect_match(l, "", ""));
	assert_false(protect_match(NULL, "ZFL0ABCD", NULL));
	protect_free(l);
}

static void test_errors(void **state)
{
	char big[600];

	parse_fails("serial:A\nseriel:B\n", "t.conf:2: unknown kind \"seriel\"");
	parse_fails("\n\nwwn:xyz\n", "t.conf:3: \"xyz\" is not a WWN");
	parse_fails("wwn:0x\n", "t.conf:1:");
	parse_fails("serial:\n", "t.conf:1: serial entry has no value");
	parse_fails("serial:  # nothing\n", "t.conf:1: serial entry has no value");
	parse_fails("#\nABC DEF\n", "t.conf:2: \"ABC DEF\" has whitespace");
	parse_fails("ABC\x01\n", "t.conf:1: value has a non-printable");
	parse_fails("serial:ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDE\n",
		    "t.conf:1: value is 65 characters long");
	parse_fails("wwn:0x1234567890123456789012345678901234\n", "not a WWN");
	memset(big, 'A', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	parse_fails(big, "t.conf:1: line longer than");

	/* a NUL byte inside the buffer */
	{
		static const char nul[] = "serial:A\nserial:B\0C\n";
		struct protect_list *l = NULL;
		struct ss_error err = { 0 };

		assert_int_equal(protect_parse(nul, sizeof(nul) - 1, "t.conf", &l, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "t.conf:2: NUL byte"));
	}
}

static void test_load(void **state)
{
	struct protect_list *l = NULL;
	struct ss_error err = { 0 };
	char path[128];

	/* missing: empty list */
	snprintf(path, sizeof(path), "%s/none.conf", fixture_dir);
	assert_int_equal(protect_load(path, &l, &err), 0);
	assert_int_equal(protect_count(l), 0);
	protect_free(l);

	snprintf(path, sizeof(path), "%s/p.conf", fixture_dir);
	spew(path, "# x\nserial:ZFL0ABCD\n");
	assert_int_equal(protect_load(path, &l, &err), 0);
	assert_true(protect_match(l, "ZFL0ABCD", NULL));
	protect_free(l);

	/* malformed: path and line */
	spew(path, "# x\nserial:ZFL0ABCD\nbogus:1\n");
	assert_int_equal(protect_load(path, &l, &err), -EINVAL);
	assert_null(l);
	assert_non_null(strstr(err.msg, "p.conf:3: unknown kind"));
	assert_int_equal(strncmp(err.msg, fixture_dir, strlen(fixture_dir)), 0);

	/* a directory is not a protect file */
	assert_int_equal(protect_load(fixture_dir, &l, &err), -EISDIR);
	assert_null(l);

	/* unreadable (root reads everything; only check when not root) */
	if (geteuid() != 0) {
		spew(path, "serial:A\n");
		chmod(path, 0);
		assert_int_equal(protect_load(path, &l, &err), -EACCES);
		assert_non_null(strstr(err.msg, "p.conf"));
	}
	unlink(path);
}

static void test_add_remove(void **state)
{
	struct protect_list *l = NULL;
	struct ss_error err = { 0 };
	char path[128], tmp[160];
	struct stat st;

	/* created with its directory when missing */
	snprintf(path, sizeof(path), "%s/etc/protect.conf", fixture_dir);
	assert_int_equal(protect_add(path, PROTECT_SERIAL, "ZFL0ABCD", &err), 0);
	assert_string_equal(slurp(path), "serial:ZFL0ABCD\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);

	/* comments and layout kept; a missing final newline mended */
	spew(path, "# boot disks\nserial:ZFL0ABCD   # sda\n\n# spare\nWD-WCC7K1234567");
	chmod(path, 0600);
	assert_int_equal(protect_add(path, PROTECT_WWN, "0x5000C500A1B2C3D4", &err), 0);
	assert_string_equal(slurp(path), "# boot disks\nserial:ZFL0ABCD   # sda\n\n# spare\n"
					 "WD-WCC7K1234567\nwwn:0x5000C500A1B2C3D4\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600); /* mode kept */
	assert_int_equal(protect_add(path, PROTECT_ANY, "S0M1ABCD", &err), 0);

	/* already there, in another spelling */
	assert_int_equal(protect_add(path, PROTECT_WWN, "naa.5000c500a1b2c3d4", &err), -EEXIST);
	assert_non_null(strstr(err.msg, "protect.conf:6"));
	assert_int_equal(protect_add(path, PROTECT_SERIAL, "zfl0abcd", &err), -EEXIST);
	assert_int_equal(protect_add(path, PROTECT_ANY, "ZFL0ABCD", &err), -EEXIST);
	/* a bad value is refused before anything is written */
	assert_int_equal(protect_add(path, PROTECT_WWN, "not-hex", &err), -EINVAL);
	assert_int_equal(protect_add(path, PROTECT_SERIAL, "two words", &err), -EINVAL);
	assert_int_equal(protect_add(path, PROTECT_SERIAL, "", &err), -EINVAL);

	assert_int_equal(protect_load(path, &l, &err), 0);
	assert_int_equal(protect_count(l), 4);
	assert_true(protect_match(l, NULL, "wwn-0x5000c500a1b2c3d4"));
	assert_true(protect_match(l, "s0m1abcd", NULL));
	protect_free(l);

	/* remove: the entry's line goes, the comments stay */
	assert_int_equal(protect_remove(path, PROTECT_SERIAL, "ZFL0ABCD", &err), 0);
	assert_string_equal(slurp(path), "# boot disks\n\n# spare\n"
					 "WD-WCC7K1234567\nwwn:0x5000C500A1B2C3D4\nS0M1ABCD\n");
	assert_int_equal(protect_remove(path, PROTECT_ANY, "0x5000c500a1b2c3d4", &err), 0);
	assert_int_equal(protect_remove(path, PROTECT_SERIAL, "wd-wcc7k1234567", &err), 0);
	assert_string_equal(slurp(path), "# boot disks\n\n# spare\nS0M1ABCD\n");
	/* kinds must agree: a WWN is not removed as a serial */
	assert_int_equal(protect_add(path, PROTECT_WWN, "0x5000c500a1b2c3d4", &err), 0);
	assert_int_equal(protect_remove(path, PROTECT_SERIAL, "0x5000c500a1b2c3d4", &err), -ENOENT);
	assert_int_equal(protect_remove(path, PROTECT_SERIAL, "NOPE", &err), -ENOENT);
	assert_non_null(strstr(err.msg, "NOPE is not listed"));

	/* duplicates by hand: all of them go */
	spew(path, "A1\n# keep\nserial:a1\nwwn:0xA1\n");
	assert_int_equal(protect_remove(path, PROTECT_SERIAL, "A1", &err), 0);
	assert_string_equal(slurp(path), "# keep\nwwn:0xA1\n");

	/* a malformed file is not rewritten */
	spew(path, "serial:A\nbogus:B\n");
	assert_int_equal(protect_add(path, PROTECT_SERIAL, "C", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not changed"));
	assert_string_equal(slurp(path), "serial:A\nbogus:B\n");
	assert_int_equal(protect_remove(path, PROTECT_SERIAL, "A", &err), -EINVAL);
	assert_string_equal(slurp(path), "serial:A\nbogus:B\n");

	/* no temporary files left behind */
	snprintf(tmp, sizeof(tmp), "%s/etc", fixture_dir);
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) -eq 1", tmp);
		assert_int_equal(system(cmd), 0);
	}

	/* a symlinked protect file keeps being a symlink */
	{
		char link[160];

		snprintf(link, sizeof(link), "%s/link.conf", fixture_dir);
		spew(path, "serial:A\n");
		assert_int_equal(symlink(path, link), 0);
		assert_int_equal(protect_add(link, PROTECT_SERIAL, "B", &err), 0);
		assert_int_equal(lstat(link, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		assert_string_equal(slurp(path), "serial:A\nserial:B\n");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_path), cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_match),	     cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load),	     cmocka_unit_test(test_add_remove),
	};

	return cmocka_run_group_tests(tests, fixture_dir_setup, fixture_dir_teardown);
}
