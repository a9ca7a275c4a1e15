/* fileio.h - writing a whole file so that a crash leaves the old one or the
 * new one, never half of either; making the directories it goes in; a lock
 * file; and opening files so that nothing another user planted is followed,
 * read or written:
 *
 * - the files this program keeps (the state directory's: journal, locks,
 *   simulated drives' state and images, bench history, array records) are
 *   "private": their directory, and every directory above it, belongs to
 *   root or to this process's user and no other user can write in it (a
 *   directory above may be writable by all when it has the sticky bit, as
 *   /tmp); no symbolic link is followed to them; what is opened is a regular
 *   file of root's or ours with one name (no hard link to another file);
 * - a file the user names to read (a rig, a plan, thresholds) is opened
 *   without blocking and must be a regular file (a FIFO or a device is
 *   refused, never waited on);
 * - a configuration file (the protect file) is read as a private file, but a
 *   symbolic link of root's or ours into a directory no other user controls
 *   is followed;
 * - an output the user names (a report, a plan) is written beside its
 *   target, through a symbolic link only when that link is root's or ours
 *   and points into a directory no other user controls. */
#ifndef SHORTSTROKE_FILEIO_H
#define SHORTSTROKE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "shortstroke/error.h"

/* Write len bytes to path: a temporary file beside it (created O_EXCL),
 * fsync, rename over path, fsync of the directory. what names the file in
 * messages ("the plan", "the report"). A symbolic link is written through
 * (the file it points to is replaced, the link stays) when the link belongs
 * to root or to this user and the file it points to is in a directory no
 * other user controls; else it is refused. Anything but a regular file at
 * path (a device such as /dev/null, a FIFO, a directory) is refused. */
int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode, const char *what,
		      struct ss_error *err);

/* Can file_write_atomic() write path? Its directory must exist and be
 * writable, and path must be a regular file or none (or a link it may
 * follow): checked before the work whose result goes there, so that a typo
 * fails first rather than last.
 * 0, or a negative errno with "what path: why" in err. */
int file_check_writable(const char *path, const char *what, struct ss_error *err);

/* mkdir -p: path and every directory above it that is missing (mode 0755),
 * each one's parent fsynced after it was made (a crash does not lose it).
 * 0, or a negative errno with "cannot create DIR: why" in err (DIR the one
 * that failed). */
int file_mkdirs(const char *path, struct ss_error *err);

/* May files be kept in directory dir, safe from other users? dir and every
 * directory above it must belong to root or to this process's user (a
 * symbolic link on the way too); none may be writable by group or others,
 * except, above dir, one with the sticky bit (/tmp). With strict, dir
 * itself may not be writable by others even with the sticky bit. A dir not
 * there yet is checked from the nearest directory that is. 0, or -EPERM
 * with a sentence in err that names the directory and says what to change;
 * another negative errno when a directory cannot be looked at. what names
 * the file or directory the check is for ("the state directory /x"). */
int file_dir_check(const char *dir, bool strict, const char *what, struct ss_error *err);

/* The state directory (state_dir), and its subdirectory sub when sub is
 * not NULL ("locks", "sim/demo"): file_dir_check (strict) of what exists
 * first, so that nothing is made in a directory another user controls,
 * then made (mkdir -p, 0755) when missing; state_dir is named "the state
 * directory" in a refusal. */
int file_state_dir(const char *state_dir, const char *sub, struct ss_error *err);

/* Open a file this program keeps (see above): flags as open(2) takes them
 * (O_RDONLY, O_RDWR, O_WRONLY, O_APPEND, O_CREAT, O_TRUNC); a file created
 * is created with O_EXCL (mode), O_TRUNC is done only once the file is
 * known to be ours. Its directory is checked with file_dir_check (strict).
 * The descriptor (close-on-exec, blocking) or a negative errno with err
 * filled: -ENOENT when there is no such file and O_CREAT was not given
 * (err then says so, for callers for whom that is an error), -EPERM for a
 * refusal (a symbolic link, a FIFO or device, a file of another user's,
 * hard links, an unsafe directory), with a sentence that says what to do. */
int file_open_private(const char *path, int flags, mode_t mode, const char *what,
		      struct ss_error *err);

/* file_open_private(), for a file that may have one second name, twin (a
 * path; NULL: none): the same inode under both names, as a journal linked
 * into its history and not yet replaced (a compaction stopped between the
 * two steps) has. Any other hard link is refused as file_open_private()
 * refuses it. */
int file_open_private_twin(const char *path, int flags, mode_t mode, const char *twin,
			   const char *what, struct ss_error *err);

/* file_write_atomic() for a file this program keeps: the directory checked
 * as file_open_private() does, and a symbolic link (or anything but a
 * regular file of root's or ours) at path refused, never followed. */
int file_write_private(const char *path, const void *data, size_t len, mode_t mode,
		       const char *what, struct ss_error *err);

/* Open a file the user named, to read: without blocking (a FIFO or a
 * device is refused, not waited on), a regular file only; symbolic links
 * are followed (the user named it). The descriptor (close-on-exec,
 * blocking) or a negative errno with "what path: why" in err. */
int file_open_input(const char *path, const char *what, struct ss_error *err);

/* Open a configuration file that decides what is safe (the protect file),
 * to read: as file_open_private(), except that a symbolic link of root's
 * or ours in a safe directory, to a file in a safe directory, is followed;
 * the directories may have the sticky bit. */
int file_open_config(const char *path, const char *what, struct ss_error *err);

/* Open path (created 0644) and take an exclusive flock on it without
 * waiting; *fd holds it until closed. path is a private file (see
 * file_open_private). 0; -EBUSY when another process holds it (err
 * untouched: the caller says who); another negative errno with "cannot
 * open/lock PATH: why" in err. *fd is -1 on failure. */
int file_lock_try(const char *path, int *fd, struct ss_error *err);

/* fsync the directory dir: what was created, renamed or linked in it is
 * durable. 0 or a negative errno. */
int file_sync_dir(const char *dir);

#endif
