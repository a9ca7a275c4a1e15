/* fileio.c - whole files written atomically, directories made, locks taken,
 * and files opened so that nothing another user planted is followed (see
 * fileio.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
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

/* The same for the directory that holds path. */
static int file_sync_parent(const char *path)
{
	char buf[PATH_MAX];

	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return -ENAMETOOLONG;
	return file_sync_dir(dirname(buf));
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
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

/* ---- who controls a directory ------------------------------------------------ */

/* root, or the user this process acts as */
static bool owner_ok(uid_t u)
{
	return u == 0 || u == geteuid();
}

/* "nobody (uid 65534)" */
static void user_text(uid_t u, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	if (getpwuid_r(u, &pw, tmp, sizeof(tmp), &res) == 0 && res)
		snprintf(buf, len, "user %s (uid %u)", res->pw_name, (unsigned)u);
	else
		snprintf(buf, len, "uid %u", (unsigned)u);
}

/* The directory part of path ("." when none, "/" for "/x"), in buf. */
static int dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash)
		return snprintf(buf, len, ".") >= (int)len ? -ENAMETOOLONG : 0;
	n = (size_t)(slash - path);
	if (!n)
		n = 1;
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, path, n);
	buf[n] = '\0';
	return 0;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* One directory of the chain (st: what lstat/stat said of it). */
static int dir_ok(const char *d, const struct stat *st, bool leaf, bool strict, const char *what,
		  struct ss_error *err)
{
	char who[160];

	if (!owner_ok(st->st_uid)) {
		user_text(st->st_uid, who, sizeof(who));
		return ss_error_usage(err, -EPERM,
				      "%s: refused: directory %s belongs to %s, not to root or "
				      "you, so that user could plant links in it that shortstroke "
				      "would follow; use a directory of your own, or give it to "
				      "root (chown root %s)",
				      what, d, who, d);
	}
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	if ((st->st_mode & S_ISVTX) && !(leaf && strict))
		return 0; /* as /tmp: nobody removes or renames what is not theirs */
	return ss_error_usage(err, -EPERM,
			      "%s: refused: directory %s is writable by %s (mode %04o), so another "
			      "user could plant links in it that shortstroke would follow; make "
			      "it private: chmod go-w %s%s",
			      what, d,
			      (st->st_mode & S_IWGRP) && (st->st_mode & S_IWOTH)
				  ? "group and others"
			      : (st->st_mode & S_IWGRP) ? "its group"
							: "others",
			      (unsigned)(st->st_mode & 07777), d,
			      leaf && strict ? "" : " (or chmod +t, as /tmp has)");
}

/* One step of the walk: the prefix p of the path, at its end when leaf.
 * *link is set when p is a symbolic link, *missing when nothing is there. */
static int step_ok(const char *p, bool leaf, bool strict, const char *what, bool *link,
		   bool *missing, struct ss_error *err)
{
	char who[160];
	struct stat st;

	if (lstat(p, &st)) {
		if (errno == ENOENT) {
			*missing = true;
			return 0;
		}
		return ss_error_set(err, -errno, "%s: cannot look at %s: %s", what, p,
				    strerror(errno));
	}
	if (S_ISLNK(st.st_mode)) {
		if (!owner_ok(st.st_uid)) {
			user_text(st.st_uid, who, sizeof(who));
			return ss_error_usage(err, -EPERM,
					      "%s: refused: %s is a symbolic link that belongs to "
					      "%s, not to root or you; use the directory it points "
					      "to, or remove the link",
					      what, p, who);
		}
		*link = true; /* where it leads is judged on the real path */
		if (stat(p, &st)) {
			if (errno == ENOENT) {
				*missing = true;
				return 0;
			}
			return ss_error_set(err, -errno, "%s: cannot look at %s: %s", what, p,
					    strerror(errno));
		}
		return S_ISDIR(st.st_mode)
			   ? 0
			   : ss_error_set(err, -ENOTDIR, "%s: %s is not a directory", what, p);
	}
	if (!S_ISDIR(st.st_mode))
		return ss_error_set(err, -ENOTDIR, "%s: %s is not a directory", what, p);
	return dir_ok(p, &st, leaf, strict, what, err);
}

/* Walk dir from "/" down, with lstat: each directory as dir_ok wants it,
 * each symbolic link on the way root's or ours; when a link was passed,
 * the real path it leads to is walked too. A part not there yet ends the
 * walk (it will be made by us). */
static int chain_ok(const char *dir, bool strict, const char *what, int depth, struct ss_error *err)
{
	char abs[PATH_MAX], real[PATH_MAX];
	bool link = false, missing = false;
	size_t len;
	int rc;

	if (dir[0] == '/') {
		if ((size_t)snprintf(abs, sizeof(abs), "%s", dir) >= sizeof(abs))
			return ss_error_set(err, -ENAMETOOLONG, "%s: path too long", what);
	} else {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof(cwd)))
			return ss_error_set(err, -errno,
					    "%s: cannot tell the current directory: %s", what,
					    strerror(errno));
		if ((size_t)snprintf(abs, sizeof(abs), "%s/%s", cwd, dir) >= sizeof(abs))
			return ss_error_set(err, -ENAMETOOLONG, "%s: path too long", what);
	}
	len = strlen(abs);
	while (len > 1 && abs[len - 1] == '/')
		abs[--len] = '\0';
	rc = step_ok("/", len == 1, strict, what, &link, &missing, err);
	for (size_t i = 2; !rc && !missing && i <= len; i++) {
		char save = abs[i];

		if ((i < len && save != '/') || abs[i - 1] == '/')
			continue;
		abs[i] = '\0';
		rc = step_ok(abs, i == len, strict, what, &link, &missing, err);
		abs[i] = save;
	}
	if (rc || !link || depth > 0)
		return rc;
	/* the real path, without links (the part of it that exists) */
	if (realpath(abs, real))
		return chain_ok(real, strict, what, depth + 1, err);
	if (dir_of(abs, real, sizeof(real)) == 0 && realpath(real, abs))
		return chain_ok(abs, false, what, depth + 1, err);
	return missing ? 0
		       : ss_error_set(err, -errno, "%s: cannot resolve %s: %s", what, dir,
				      strerror(errno));
}

int file_dir_check(const char *dir, bool strict, const char *what, struct ss_error *err)
{
	return chain_ok(dir, strict, what ? what : dir, 0, err);
}

/* file_dir_check (strict) of a directory this program keeps, made (mkdir
 * -p, 0755) when missing: the check of what exists comes first, so that
 * nothing is made in a directory another user controls. */
static int file_mkdirs_private(const char *dir, const char *what, struct ss_error *err)
{
	int rc = file_dir_check(dir, true, what, err);

	if (!rc || rc == -ENOTDIR) /* a file on the way: mkdir says which */
		rc = file_mkdirs(dir, err);
	if (!rc)
		rc = file_dir_check(dir, true, what, err);
	return rc;
}

int file_state_dir(const char *state_dir, const char *sub, struct ss_error *err)
{
	char what[PATH_MAX + 64], dir[PATH_MAX];
	int rc;

	snprintf(what, sizeof(what), "the state directory %s", state_dir);
	rc = file_mkdirs_private(state_dir, what, err);
	if (rc || !sub)
		return rc;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", state_dir, sub) >= sizeof(dir))
		return ss_error_set(err, -ENAMETOOLONG, "%s/%s: path too long", state_dir, sub);
	snprintf(what, sizeof(what), "the state directory's %s", dir);
	return file_mkdirs_private(dir, what, err);
}

/* ---- opening ------------------------------------------------------------------- */

#define OPEN_SAFE (O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

static int blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

/* The end of an open: fd made blocking and returned, or closed on an
 * error (rc). */
static int opened(int fd, int rc, const char *what, const char *path, struct ss_error *err)
{
	if (!rc && blocking(fd))
		rc = ss_error_set(err, -errno, "cannot open %s %s: %s", what, path,
				  strerror(errno));
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

/* What an opened (or lstat'ed) private file must be. */
/* twin: a second name this file may have (NULL: none), the same inode */
static bool twin_of(const struct stat *st, const char *twin)
{
	struct stat t;

	return twin && st->st_nlink == 2 && !lstat(twin, &t) && t.st_dev == st->st_dev &&
	       t.st_ino == st->st_ino;
}

static int private_ok_twin(const char *path, const struct stat *st, const char *twin,
			   const char *what, struct ss_error *err)
{
	char who[160];

	if (S_ISLNK(st->st_mode))
		return ss_error_usage(err, -EPERM,
				      "%s %s: refused: it is a symbolic link, and shortstroke "
				      "follows none to the files it keeps (another user may have "
				      "planted it); remove it",
				      what, path);
	if (!S_ISREG(st->st_mode))
		return ss_error_usage(err, S_ISDIR(st->st_mode) ? -EISDIR : -EPERM,
				      "%s %s: refused: it is %s, not a regular file (another user "
				      "may have planted it); remove it",
				      what, path, kind_of(st->st_mode));
	if (!owner_ok(st->st_uid)) {
		user_text(st->st_uid, who, sizeof(who));
		return ss_error_usage(err, -EPERM,
				      "%s %s: refused: it belongs to %s, not to root or you, so "
				      "shortstroke did not write it (it may have been planted); "
				      "remove it",
				      what, path, who);
	}
	if (st->st_nlink > 1 && !twin_of(st, twin))
		return ss_error_usage(err, -EPERM,
				      "%s %s: refused: it has %lu hard links, so it may be another "
				      "file planted under this name (shortstroke makes none); "
				      "remove it",
				      what, path, (unsigned long)st->st_nlink);
	return 0;
}

static int private_ok(const char *path, const struct stat *st, const char *what,
		      struct ss_error *err)
{
	return private_ok_twin(path, st, NULL, what, err);
}

/* open(2) of a file that must be private, at path (its directory checked
 * by the caller), that may have the second name twin. O_CREAT creates with
 * O_EXCL; O_TRUNC waits for the checks. */
static int open_checked_twin(const char *path, int flags, mode_t mode, const char *twin,
			     const char *what, struct ss_error *err)
{
	int base = (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | OPEN_SAFE;
	struct stat st;
	bool created = false;
	int fd = -1, rc;

	/* nothing but a regular file is opened at all (a FIFO, a device) */
	if (lstat(path, &st) == 0) {
		rc = private_ok_twin(path, &st, twin, what, err);
		if (rc)
			return rc;
	}
	for (int tries = 0; tries < 8; tries++) {
		fd = open(path, base);
		if (fd >= 0 || errno != ENOENT || !(flags & O_CREAT))
			break;
		fd = open(path, base | O_CREAT | O_EXCL, mode);
		created = fd >= 0;
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		rc = -errno;
		if ((rc == -ELOOP || rc == -ENXIO) && lstat(path, &st) == 0) {
			int why = private_ok_twin(path, &st, twin, what, err);

			if (why)
				return why;
		}
		if (rc == -ENOENT && !(flags & O_CREAT))
			return ss_error_set(err, rc, "%s %s: no such file", what, path);
		return ss_error_set(err, rc, "cannot open %s %s: %s", what, path, strerror(-rc));
	}
	if (fstat(fd, &st))
		rc = ss_error_set(err, -errno, "cannot open %s %s: %s", what, path,
				  strerror(errno));
	else
		rc = private_ok_twin(path, &st, twin, what, err);
	if (!rc && (flags & O_TRUNC) && st.st_size && ftruncate(fd, 0))
		rc = ss_error_set(err, -errno, "cannot write %s %s: %s", what, path,
				  strerror(errno));
	if (!rc && created)
		file_sync_parent(path); /* a file made is durable at once: a crash cannot lose it */
	return opened(fd, rc, what, path, err);
}

static int open_checked(const char *path, int flags, mode_t mode, const char *what,
			struct ss_error *err)
{
	return open_checked_twin(path, flags, mode, NULL, what, err);
}

/* file_dir_check of the directory file is in, for what shown names */
static int parent_ok(const char *file, const char *shown, bool strict, const char *what,
		     struct ss_error *err)
{
	char dir[PATH_MAX], label[PATH_MAX + 64];

	if (dir_of(file, dir, sizeof(dir)))
		return ss_error_set(err, -ENAMETOOLONG, "%s %s: path too long", what, shown);
	snprintf(label, sizeof(label), "%s %s", what, shown);
	return file_dir_check(dir, strict, label, err);
}

int file_open_private(const char *path, int flags, mode_t mode, const char *what,
		      struct ss_error *err)
{
	int rc = parent_ok(path, path, true, what, err);

	return rc ? rc : open_checked(path, flags, mode, what, err);
}

int file_open_private_twin(const char *path, int flags, mode_t mode, const char *twin,
			   const char *what, struct ss_error *err)
{
	int rc = parent_ok(path, path, true, what, err);

	return rc ? rc : open_checked_twin(path, flags, mode, twin, what, err);
}

int file_open_input(const char *path, const char *what, struct ss_error *err)
{
	struct stat st;
	int fd, rc = 0;

	/* stat first: a FIFO or a device is never opened at all */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return ss_error_usage(err, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
				      "%s %s: is %s, not a file to read", what, path,
				      kind_of(st.st_mode));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return ss_error_set(err, -errno, "cannot open %s %s: %s", what, path,
				    strerror(errno));
	if (fstat(fd, &st))
		rc = ss_error_set(err, -errno, "cannot open %s %s: %s", what, path,
				  strerror(errno));
	else if (!S_ISREG(st.st_mode)) /* swapped in since the stat */
		rc = ss_error_usage(err, -EINVAL, "%s %s: is %s, not a file to read", what, path,
				    kind_of(st.st_mode));
	return opened(fd, rc, what, path, err);
}

/*
 * The file a write to (or read of) path reaches, in out: path itself, or
 * what the symbolic link path points to when the link is root's or ours
 * and the file it points to sits in a directory no other user controls.
 * Anything but a regular file or nothing there is refused.
 */
static int follow_trusted(const char *path, const char *what, const char *verb, char *out,
			  size_t len, struct ss_error *err)
{
	char dir[PATH_MAX], label[PATH_MAX + 64], who[160];
	struct stat st;
	int rc;

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

		if (!owner_ok(st.st_uid)) {
			user_text(st.st_uid, who, sizeof(who));
			return ss_error_usage(err, -EACCES,
					      "%s %s: refused: it is a symbolic link that belongs "
					      "to %s, not to root or you, so it is not %s "
					      "through (it may have been planted); remove it or "
					      "name the file it points to",
					      what, path, who, verb);
		}
		if (!realpath(path, real)) {
			if (errno != ENOENT)
				return ss_error_set(err, -errno, "%s %s: a symbolic link: %s", what,
						    path, strerror(errno));
			return ss_error_set(err, -ENOENT, "%s %s: a symbolic link to nothing: %s",
					    what, path, strerror(ENOENT));
		}
		if (dir_of(real, dir, sizeof(dir)))
			return ss_error_set(err, -ENAMETOOLONG, "%s %s: path too long", what, path);
		snprintf(label, sizeof(label), "%s %s (a symbolic link to %s): not %s through",
			 what, path, real, verb);
		rc = file_dir_check(dir, false, label, err);
		if (rc == -EPERM)
			rc = err ? (err->code = -EACCES) : -EACCES; /* as any path not to write */
		if (rc)
			return rc;
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
				    "%s %s: is %s, not a file to %s; give a file name", what, path,
				    kind_of(st.st_mode), verb[0] == 'w' ? "write" : "read");
	return 0;
}

int file_open_config(const char *path, const char *what, struct ss_error *err)
{
	char target[PATH_MAX];
	int rc;

	rc = follow_trusted(path, what, "read", target, sizeof(target), err);
	if (!rc)
		rc = parent_ok(target, path, false, what, err);
	return rc ? rc : open_checked(target, O_RDONLY, 0, what, err);
}

int file_check_writable(const char *path, const char *what, struct ss_error *err)
{
	char buf[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	int rc;

	rc = follow_trusted(path, what, "written", buf, sizeof(buf), err);
	if (rc)
		return rc;
	if (dir_of(buf, dir, sizeof(dir)))
		return ss_error_set(err, -ENAMETOOLONG, "%s %s: path too long", what, path);
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

/* ---- writing ------------------------------------------------------------------- */

/* A new file named NAME.tmp.XXXXXX in dfd, made with O_EXCL. */
static int tmp_create(int dfd, const char *name, char *tmp, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		char suf[7];
		int fd;

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			for (size_t k = 0; k < sizeof(r); k++)
				r[k] = (unsigned char)rand();
		for (size_t k = 0; k < sizeof(r); k++)
			suf[k] = set[r[k] % (sizeof(set) - 1)];
		suf[6] = '\0';
		if ((size_t)snprintf(tmp, len, "%s.tmp.%s", name, suf) >= len)
			return -ENAMETOOLONG;
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

static int write_all(int fd, const char *p, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, p + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		off += (size_t)w;
	}
	return 0;
}

/* The whole write in the directory dfd: a temporary file beside name, its
 * data, mode and fsync, renamed over name; the directory fsynced. */
static int write_in(int dfd, const char *name, const void *data, size_t len, mode_t mode)
{
	char tmp[NAME_MAX + 32];
	int fd, rc;

	fd = tmp_create(dfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	rc = write_all(fd, data, len);
	if (!rc && fchmod(fd, mode))
		rc = -errno;
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && renameat(dfd, tmp, dfd, name))
		rc = -errno;
	if (rc) {
		unlinkat(dfd, tmp, 0);
		return rc;
	}
	fsync(dfd);
	return 0;
}

static int open_dir(const char *path, const char *what, const char *shown, struct ss_error *err)
{
	char dir[PATH_MAX];
	int dfd;

	if (dir_of(path, dir, sizeof(dir)))
		return ss_error_set(err, -ENAMETOOLONG, "%s %s: path too long", what, shown);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return ss_error_set(err, -errno, "cannot write %s %s: %s", what, shown,
				    strerror(errno));
	return dfd;
}

int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode, const char *what,
		      struct ss_error *err)
{
	char target[PATH_MAX];
	struct stat st;
	int dfd, rc;

	rc = follow_trusted(path, what, "written", target, sizeof(target), err);
	if (rc)
		return rc;
	dfd = open_dir(target, what, target, err);
	if (dfd < 0)
		return dfd;
	/* the directory is held: a FIFO or device put there since is not replaced */
	if (!fstatat(dfd, base_of(target), &st, AT_SYMLINK_NOFOLLOW) && !S_ISREG(st.st_mode) &&
	    !S_ISLNK(st.st_mode)) {
		close(dfd);
		return ss_error_set(err, -EINVAL, "%s %s: is %s, not a file to write", what, target,
				    kind_of(st.st_mode));
	}
	rc = write_in(dfd, base_of(target), data, len, mode);
	close(dfd);
	if (rc)
		return ss_error_set(err, rc, "cannot write %s %s: %s", what, target, strerror(-rc));
	return 0;
}

int file_write_private(const char *path, const void *data, size_t len, mode_t mode,
		       const char *what, struct ss_error *err)
{
	struct stat st;
	int dfd, rc;

	rc = parent_ok(path, path, true, what, err);
	if (rc)
		return rc;
	dfd = open_dir(path, what, path, err);
	if (dfd < 0)
		return dfd;
	if (!fstatat(dfd, base_of(path), &st, AT_SYMLINK_NOFOLLOW)) {
		rc = private_ok(path, &st, what, err);
		/* one hard link too many is no reason to keep a file we replace */
		if (rc && S_ISREG(st.st_mode) && owner_ok(st.st_uid))
			rc = 0;
		if (rc) {
			close(dfd);
			return rc;
		}
	}
	rc = write_in(dfd, base_of(path), data, len, mode);
	close(dfd);
	if (rc)
		return ss_error_set(err, rc, "cannot write %s %s: %s", what, path, strerror(-rc));
	return 0;
}

int file_lock_try(const char *path, int *fd, struct ss_error *err)
{
	int rc;

	*fd = file_open_private(path, O_RDWR | O_CREAT, 0644, "the lock file", err);
	if (*fd < 0) {
		rc = *fd;
		*fd = -1;
		return rc;
	}
	if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
	close(*fd);
	*fd = -1;
	if (rc == -EBUSY)
		return rc;
	return ss_error_set(err, rc, "cannot lock %s: %s", path, strerror(-rc));
}
