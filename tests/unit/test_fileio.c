/* test_fileio.c - the output-path check (file_check_writable) and the atomic writer. */
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

/* The state directory's files: a directory others can write in is refused
 * (with the chmod that fixes it), a parent with the sticky bit is not; no
 * symbolic link, FIFO, device or hard-linked file is opened, a FIFO
 * without waiting; files are created with O_EXCL. */
static void test_private(void **state)
{
	struct ss_error err = { 0 };
	char d[300], p[340], q[340];
	struct stat st;
	int fd;

	(void)state;
	snprintf(d, sizeof(d), "%s/state", fixture_dir);
	assert_int_equal(file_state_dir(d, "locks", &err), 0);
	assert_int_equal(stat(d, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* writable by others: refused, and how to fix it said */
	assert_int_equal(chmod(d, 0777), 0);
	snprintf(p, sizeof(p), "%s/journal.jsonl", d);
	assert_int_equal(file_open_private(p, O_RDWR | O_CREAT, 0644, "the journal", &err), -EPERM);
	assert_non_null(strstr(err.msg, "is writable by group and others (mode 0777)"));
	assert_non_null(strstr(err.msg, "chmod go-w "));
	assert_int_equal(access(p, F_OK), -1); /* nothing made */
	assert_int_equal(file_state_dir(d, NULL, &err), -EPERM);
	assert_non_null(strstr(err.msg, "the state directory "));
	/* with the sticky bit: still refused for the directory itself ... */
	assert_int_equal(chmod(d, 01777), 0);
	assert_int_equal(file_dir_check(d, true, "x", &err), -EPERM);
	/* ... but fine above it (as /tmp) */
	snprintf(q, sizeof(q), "%s/locks", d);
	assert_int_equal(file_dir_check(q, true, "x", &err), 0);
	assert_int_equal(chmod(d, 0775), 0); /* a group's, without it: refused above too */
	assert_int_equal(file_dir_check(q, true, "x", &err), -EPERM);
	assert_non_null(strstr(err.msg, "writable by its group (mode 0775)"));
	assert_non_null(strstr(err.msg, "(or chmod +t"));
	assert_int_equal(chmod(d, 0755), 0);

	/* created with O_EXCL, opened again, regular and ours */
	fd = file_open_private(p, O_RDWR | O_CREAT, 0644, "the journal", &err);
	assert_true(fd >= 0);
	close(fd);
	fd = file_open_private(p, O_RDONLY, 0, "the journal", &err);
	assert_true(fd >= 0);
	close(fd);
	/* none: -ENOENT without O_CREAT */
	snprintf(q, sizeof(q), "%s/none", d);
	assert_int_equal(file_open_private(q, O_RDONLY, 0, "the journal", &err), -ENOENT);
	/* a symbolic link: refused, to a file or to nothing */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink(q, p), 0);
	assert_int_equal(file_open_private(p, O_RDWR | O_CREAT, 0644, "the journal", &err), -EPERM);
	assert_non_null(strstr(err.msg, "refused: it is a symbolic link"));
	assert_int_equal(access(q, F_OK), -1); /* not created through it */
	assert_int_equal(file_write_private(p, "x", 1, 0644, "the state", &err), -EPERM);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* a FIFO: refused at once (an open would wait for a writer) */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(file_open_private(p, O_RDONLY, 0, "the journal", &err), -EPERM);
	assert_non_null(strstr(err.msg, "it is a FIFO, not a regular file"));
	assert_int_equal(file_open_input(p, "the rig file", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is a FIFO, not a file to read"));
	/* a hard link: may be any file planted under the name */
	assert_int_equal(unlink(p), 0);
	fd = file_open_private(q, O_RDWR | O_CREAT, 0644, "x", &err);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(link(q, p), 0);
	assert_int_equal(file_open_private(p, O_RDONLY, 0, "the journal", &err), -EPERM);
	assert_non_null(strstr(err.msg, "has 2 hard links"));
	/* a file of another user's (root may make one): refused, not truncated */
	if (geteuid() == 0) {
		assert_int_equal(unlink(p), 0);
		assert_int_equal(file_write_private(p, "theirs\n", 7, 0644, "x", &err), 0);
		assert_int_equal(chown(p, 65534, 65534), 0);
		assert_int_equal(file_open_private(p, O_RDWR | O_TRUNC, 0, "the journal", &err),
				 -EPERM);
		assert_non_null(strstr(err.msg, "belongs to "));
		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_size, 7);
		/* and a directory of another user's */
		assert_int_equal(chown(d, 65534, 65534), 0);
		assert_int_equal(file_dir_check(d, true, "x", &err), -EPERM);
		assert_non_null(strstr(err.msg, "not to root or you"));
		assert_int_equal(chown(d, 0, 0), 0);
		/* an output through a link of another user's, or into a directory of
		 * theirs: refused, the file it points to unchanged */
		snprintf(q, sizeof(q), "%s/out.json", fixture_dir);
		assert_int_equal(file_write_atomic(q, "mine\n", 5, 0644, "the plan", &err), 0);
		snprintf(p, sizeof(p), "%s/their-link.json", fixture_dir);
		assert_int_equal(symlink(q, p), 0);
		assert_int_equal(lchown(p, 65534, 65534), 0);
		assert_int_equal(file_check_writable(p, "--output-plan", &err), -EACCES);
		assert_int_equal(file_write_atomic(p, "x", 1, 0644, "the plan", &err), -EACCES);
		assert_non_null(strstr(err.msg, "a symbolic link that belongs to "));
		read_back(q, "mine\n");
		assert_int_equal(lchown(p, 0, 0), 0);
		assert_int_equal(chown(fixture_dir, 65534, 65534), 0);
		assert_int_equal(file_write_atomic(p, "x", 1, 0644, "the plan", &err), -EACCES);
		assert_non_null(strstr(err.msg, "not written through: refused: directory "));
		assert_int_equal(chown(fixture_dir, 0, 0), 0);
		read_back(q, "mine\n");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),	   cmocka_unit_test(test_check_then_write),
		cmocka_unit_test(test_mkdirs),	   cmocka_unit_test(test_lock_try),
		cmocka_unit_test(test_not_a_file), cmocka_unit_test(test_private),
	};

	return cmocka_run_group_tests_name("fileio", tests, fixture_dir_setup,
					   fixture_dir_teardown);
}
