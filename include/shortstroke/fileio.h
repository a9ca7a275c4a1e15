/* fileio.h - writing a whole file so that a crash leaves the old one or the
 * new one, never half of either; making the directories it goes in; a lock
 * file. */
#ifndef SHORTSTROKE_FILEIO_H
#define SHORTSTROKE_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

#include "shortstroke/error.h"

/* Write len bytes to path: a temporary file beside it, fsync, rename over
 * path, fsync of the directory. what names the file in messages ("the
 * plan", "the report"). A symbolic link is written through (the file it
 * points to is replaced, the link stays); anything but a regular file at
 * path (a device such as /dev/null, a FIFO, a directory) is refused. */
int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode, const char *what,
		      struct ss_error *err);

/* Can file_write_atomic() write path? Its directory must exist and be
 * writable, and path must be a regular file or none: checked before the work whose
 * result goes there, so that a typo fails first rather than last.
 * 0, or a negative errno with "what path: why" in err. */
int file_check_writable(const char *path, const char *what, struct ss_error *err);

/* mkdir -p: path and every directory above it that is missing (mode 0755),
 * each one's parent fsynced after it was made (a crash does not lose it).
 * 0, or a negative errno with "cannot create DIR: why" in err (DIR the one
 * that failed). */
int file_mkdirs(const char *path, struct ss_error *err);

/* Open path (created 0644) and take an exclusive flock on it without
 * waiting; *fd holds it until closed. 0; -EBUSY when another process holds
 * it (err untouched: the caller says who); another negative errno with
 * "cannot open/lock PATH: why" in err. *fd is -1 on failure. */
int file_lock_try(const char *path, int *fd, struct ss_error *err);

/* open(path, flags), creating it (mode) when it is missing; a file created
 * is made durable at once (its directory fsynced), so a crash cannot lose
 * it. The descriptor, or -1 with errno set. */
int file_open_or_create(const char *path, int flags, mode_t mode);

/* fsync the directory dir: what was created, renamed or linked in it is
 * durable. 0 or a negative errno. */
int file_sync_dir(const char *dir);

/* The same for the directory that holds path. */
int file_sync_parent(const char *path);

#endif
