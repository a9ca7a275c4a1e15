/* test_fileio.c - the output-path check (file_check_writable) and the atomic writer. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/fileio.h"

#include "fixture.h"

static void test_check(void **state)
{
	struct ss_error err = { 0 };
	char p[256], cwd[4096];
	FILE *f;

	(void)state;
	/* a new file in an existing directory, and a file that exists */
	snprintf(p, sizeof(p), "%s/report.html", fixture_dir);
	assert_int_equal(file_check_writable(p, "--report", &err), 0);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(file_check_writable(p, "--report", &err), 0);
	/* a bare name: the current directory */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(fixture_dir), 0);
	assert_int_equal(file_check_writable("x.html", "--report", &err), 0);
	assert_int_equal(chdir(cwd), 0);

	/* a missing directory */
	snprintf(p, sizeof(p), "%s/no/such/report.html", fixture_dir);
	assert_int_equal(file_check_writable(p, "--report", &err), -ENOENT);
	assert_non_null(strstr(err.msg, "--report "));
	assert_non_null(strstr(err.msg, "/no/such: No such file or directory"));
	/* a directory where a file should be, with or without the slash */
	assert_int_equal(file_check_writable(fixture_dir, "--report", &err), -EISDIR);
	assert_non_null(strstr(err.msg, "is a directory"));
	snprintf(p, sizeof(p), "%s/", fixture_dir);
	assert_int_equal(file_check_writable(p, "--report", &err), -EISDIR);
	/* a file where the directory should be */
	snprintf(p, sizeof(p), "%s/report.html/x", fixture_dir);
	assert_int_equal(file_check_writable(p, "--report", &err), -ENOTDIR);
	assert_int_equal(file_check_writable("", "--report", &err), -EINVAL);
	/* a directory nobody may write in (root may: not checked then) */
	if (geteuid() != 0) {
		snprintf(p, sizeof(p), "%s/ro", fixture_dir);
		assert_int_equal(mkdir(p, 0555), 0);
		snprintf(p, sizeof(p), "%s/ro/x.html", fixture_dir);
		assert_int_equal(file_check_writable(p, "--report", &err), -EACCES);
	}
}

/* What the check lets through, the writer can write. */
static void test_check_then_write(void **state)
{
	struct ss_error err = { 0 };
	char p[256], buf[16] = { 0 };
	FILE *f;

	(void)state;
	snprintf(p, sizeof(p), "%s/plan.json", fixture_dir);
	assert_int_equal(file_check_writable(p, "--output-plan", &err), 0);
	assert_int_equal(file_write_atomic(p, "{}\n", 3, 0644, "the plan", &err), 0);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "{}\n");
}

/* mkdir -p: every missing level, nothing for what exists, and the level that failed named. */
static void test_mkdirs(void **state)
{
	struct ss_error err = { 0 };
	char p[300], q[320];
	struct stat st;
	FILE *f;

	(void)state;
	snprintf(p, sizeof(p), "%s/a/b/c", fixture_dir);
	assert_int_equal(file_mkdirs(p, &err), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(file_mkdirs(p, &err), 0);	  /* already there */
	snprintf(p, sizeof(p), "%s/a/b/c/", fixture_dir); /* a trailing slash is the same */
	assert_int_equal(file_mkdirs(p, &err), 0);

	snprintf(p, sizeof(p), "%s/a/file", fixture_dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(q, sizeof(q), "%s/d/e", p);
	assert_int_equal(file_mkdirs(q, &err), -ENOTDIR);
	snprintf(q, sizeof(q), "cannot create %s/d: Not a directory", p);
	assert_string_equal(err.msg, q);
}

/* One holder at a time: a second open of the lock file is refused with
 * -EBUSY (flock holds per open file, even in one process) and says nothing,
 * for the caller to name who holds it; once closed, it can be taken. */
static void test_lock_try(void **state)
{
	struct ss_error err = { 0 };
	char p[300];
	int a, b;

	(void)state;
	snprintf(p, sizeof(p), "%s/x.lock", fixture_dir);
	assert_int_equal(file_lock_try(p, &a, &err), 0);
	assert_true(a >= 0);
	assert_int_equal(file_lock_try(p, &b, &err), -EBUSY);
	assert_int_equal(b, -1);
	assert_string_equal(err.msg, "");
	close(a);
	assert_int_equal(file_lock_try(p, &b, &err), 0);
	close(b);
	snprintf(p, sizeof(p), "%s/no/such/dir/x.lock", fixture_dir);
	assert_int_equal(file_lock_try(p, &b, &err), -ENOENT);
	assert_int_equal(b, -1);
	assert_non_null(strstr(err.msg, "cannot open "));
}

static void read_back(const char *path, const char *want)
{
	char buf[64] = { 0 };
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, want);
}

/* Nothing but a regular file is replaced: "plan -O /dev/null" run as root
 * renamed the plan over /dev/null, which was then a regular file. A
 * symbolic link is written through (the link stays). */
static void test_not_a_file(void **state)
{
	struct ss_error err = { 0 };
	char p[256], link[256], real[256];
	struct stat st;

	(void)state;
	snprintf(p, sizeof(p), "%s/fifo", fixture_dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(file_check_writable(p, "--output-plan", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is a FIFO, not a file to write"));
	assert_int_equal(file_write_atomic(p, "{}\n", 3, 0644, "the plan", &err), -EINVAL);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	/* a character device (root may make one; /dev/null is not touched) */
	snprintf(p, sizeof(p), "%s/null", fixture_dir);
	if (mknod(p, S_IFCHR | 0644, makedev(1, 3)) == 0) {
		assert_int_equal(file_write_atomic(p, "{}\n", 3, 0644, "the plan", &err), -EINVAL);
		assert_non_null(strstr(err.msg, "the plan "));
		assert_non_null(strstr(err.msg, "is a character device"));
		assert_int_equal(lstat(p, &st), 0);
		assert_true(S_ISCHR(st.st_mode));
	}
	assert_int_equal(file_check_writable("/dev/null", "--report", &err), -EINVAL);
	/* a directory is still "a directory" */
	assert_int_equal(file_write_atomic(fixture_dir, "x", 1, 0644, "the plan", &err), -EISDIR);

	/* a symbolic link: the file it points to is replaced, the link stays */
	snprintf(real, sizeof(real), "%s/real.json", fixture_dir);
	snprintf(link, sizeof(link), "%s/link.json", fixture_dir);
	assert_int_equal(file_write_atomic(real, "old\n", 4, 0644, "the plan", &err), 0);
	assert_int_equal(symlink(real, link), 0);
	assert_int_equal(file_check_writable(link, "--output-plan", &err), 0);
	assert_int_equal(file_write_atomic(link, "new\n", 4, 0644, "the plan", &err), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	read_back(real, "new\n");
	/* a link to a device is refused like the device; a link to nothing too */
	snprintf(link, sizeof(link), "%s/tonull", fixture_dir);
	assert_int_equal(symlink("/dev/null", link), 0);
	assert_int_equal(file_write_atomic(link, "x", 1, 0644, "the plan", &err), -EINVAL);
	snprintf(link, sizeof(link), "%s/dangling", fixture_dir);
	snprintf(real, sizeof(real), "%s/no/such", fixture_dir);
	assert_int_equal(symlink(real, link), 0);
	assert_int_equal(file_write_atomic(link, "x", 1, 0644, "the plan", &err), -ENOENT);
	assert_non_null(strstr(err.msg, "a symbolic link to nothing"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),	   cmocka_unit_test(test_check_then_write),
		cmocka_unit_test(test_mkdirs),	   cmocka_unit_test(test_lock_try),
		cmocka_unit_test(test_not_a_file),
	};

	return cmocka_run_group_tests_name("fileio", tests, fixture_dir_setup,
					   fixture_dir_teardown);
}
