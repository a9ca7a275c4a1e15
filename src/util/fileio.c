#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shortstroke/fileio.h"

int file_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) && errno != EINVAL) /* EINVAL: a file system that cannot */
		rc = -errno;
	close(fd);
	return rc;
}

int file_sync_parent(const char *path)
{
	char buf[PATH_MAX];

	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return -ENAMETOOLONG;
	return file_sync_dir(dirname(buf));
}

int file_open_or_create(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags);

	if (fd >= 0 || errno != ENOENT)
		return fd;
	fd = open(path, flags | O_CREAT | O_EXCL, mode);
	if (fd >= 0) {
		file_sync_parent(path);
		return fd;
	}
	return errno == EEXIST ? open(path, flags) : -1; /* another process made it */
}

/* mkdir of one directory; its parent fsynced when it was made. */
static int mkdir_one(const char *dir, struct ss_error *err)
{
	if (mkdir(dir, 0755) == 0) {
		file_sync_parent(dir);
		return 0;
	}
	if (errno != EEXIST)
		return ss_error_set(err, -errno, "cannot create %s: %s", dir, strerror(errno));
	return 0;
}

int file_mkdirs(const char *path, struct ss_error *err)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);
	int rc;

	if (len == 0 || len >= sizeof(buf))
		return ss_error_set(err, -ENAMETOOLONG, "cannot create %s: %s", path,
				    strerror(ENAMETOOLONG));
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		rc = mkdir_one(buf, err);
		if (rc)
			return rc;
		*p = '/';
	}
	return mkdir_one(buf, err);
}

/* What is at path, for a message: "a character device". */
static const char *kind_of(mode_t m)
{
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/*
 * The file a write to path replaces, in out: path itself, or what the
 * symbolic link path points to (so the link stays). Anything there but a
 * regular file is refused: the rename would put a regular file in place of
 * /dev/null, a disk's node or a FIFO.
 */
static int write_target(const char *path, const char *what, char *out, size_t len,
			struct ss_error *err)
{
	struct stat st;

	if (!path[0])
		return ss_error_set(err, -EINVAL, "%s: no file name given", what);
	if ((size_t)snprintf(out, len, "%s", path) >= len)
		return ss_error_set(err, -ENAMETOOLONG, "%s %s: path too long", what, path);
	if (path[strlen(path) - 1] == '/')
		return ss_error_set(err, -EISDIR, "%s %s: is a directory, give a file name", what,
				    path);
	if (lstat(path, &st))
		return 0; /* a new file */
	if (S_ISLNK(st.st_mode)) {
		char real[PATH_MAX];

		if (!realpath(path, real))
			return ss_error_set(err, -errno, "%s %s: a symbolic link to %s: %s", what,
					    path, errno == ENOENT ? "nothing" : "a path",
					    strerror(errno));
		if ((size_t)snprintf(out, len, "%s", real) >= len)
			return ss_error_set(err, -ENAMETOOLONG, "%s %s: path too long", what, path);
		if (stat(real, &st))
			return ss_error_set(err, -errno, "%s %s: %s", what, path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return ss_error_set(err, -EISDIR, "%s %s: is a directory, give a file name", what,
				    path);
	if (!S_ISREG(st.st_mode))
		return ss_error_set(err, -EINVAL,
				    "%s %s: is %s, not a file to write; give a file "
				    "name",
				    what, path, kind_of(st.st_mode));
	return 0;
}

int file_check_writable(const char *path, const char *what, struct ss_error *err)
{
	char buf[4096];
	const char *dir;
	struct stat st;
	int rc;

	rc = write_target(path, what, buf, sizeof(buf), err);
	if (rc)
		return rc;
	dir = dirname(buf);
	if (stat(dir, &st))
		return ss_error_set(err, -errno, "%s %s: directory %s: %s", what, path, dir,
				    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ss_error_set(err, -ENOTDIR, "%s %s: %s is not a directory", what, path, dir);
	if (access(dir, W_OK | X_OK))
		return ss_error_set(err, -errno, "%s %s: cannot write in %s: %s", what, path, dir,
				    strerror(errno));
	return 0;
}

int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode, const char *what,
		      struct ss_error *err)
{
	char target[4096], tmp[4096];
	const char *p = data;
	size_t off = 0;
	int fd, rc = 0;

	rc = write_target(path, what, target, sizeof(target), err);
	if (rc)
		return rc;
	path = target;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= sizeof(tmp))
		return ss_error_set(err, -ENAMETOOLONG, "%s: path too long", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return ss_error_set(err, -errno, "cannot write %s %s: %s", what, path,
				    strerror(errno));
	while (off < len) {
		ssize_t w = write(fd, p + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			rc = -errno;
			break;
		}
		off += (size_t)w;
	}
	if (!rc && fchmod(fd, mode))
		rc = -errno;
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		return ss_error_set(err, rc, "cannot write %s %s: %s", what, path, strerror(-rc));
	}
	file_sync_parent(path);
	return 0;
}

int file_lock_try(const char *path, int *fd, struct ss_error *err)
{
	int rc;

	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0)
		return ss_error_set(err, -errno, "cannot open %s: %s", path, strerror(errno));
	if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
	close(*fd);
	*fd = -1;
	if (rc == -EBUSY)
		return rc;
	return ss_error_set(err, rc, "cannot lock %s: %s", path, strerror(-rc));
}
