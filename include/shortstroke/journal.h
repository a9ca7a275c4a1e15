/* journal.h - the record of every capacity change, written before the
 * change is sent: JSON lines, one object per event, fsynced, in
 * <state_dir>/journal.jsonl. `restore` and idempotent re-runs read it.
 *
 * Every process using a state directory shares <state_dir>/journal.lock
 * (flock): an append is one write() of the record and its newline on an
 * O_APPEND descriptor under the exclusive lock, fsynced before the caller
 * sends the command; readers read under the shared lock, so they never see
 * half a record. A last line cut short by a crash is ignored with a
 * warning, and old journals with two records on one line are read whole. */
#ifndef SHORTSTROKE_JOURNAL_H
#define SHORTSTROKE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"

struct journal_entry {
	char time[32];	  /* ISO 8601 UTC, filled by journal_append */
	char event[24];	  /* "limit", "limit-done", "restore", "restore-done", "format-start" */
	char device[256]; /* as the user named it */
	char node[256];	  /* array events: what md was given ("/dev/sdb1" for a
				   partition member); "" (not written) otherwise */
	char serial[48];
	char wwn[48];
	char model[48];
	char method[24]; /* "amac", "hpa", "dco", "scsi-resize", "scsi-format", "partition" */
	uint32_t block_len;
	uint64_t native_blocks;	  /* 0: unknown */
	uint64_t original_blocks; /* capacity before this change */
	uint64_t target_blocks;	  /* capacity asked for */
	bool volatile_;		  /* HPA volatile: a power cycle undoes it */
	unsigned line;		  /* where the reader found it (1-based), 0 when not read */
};

/* Path of the journal in a state directory. */
void journal_path(const char *state_dir, char *buf, size_t len);

/* Append one entry (time is set here), fsync the file and, when it was
 * created, its directory. The directory is created when missing. */
int journal_append(const char *state_dir, struct journal_entry *e, struct ss_error *err);

/* Warnings of the readers (a torn last line, an unreadable line of another
 * disk): library code does not print, a front end may take them. Each is
 * given once per process. NULL drops them (the default). */
typedef void (*journal_warn_fn)(void *arg, const char *msg);
void journal_set_warn(journal_warn_fn fn, void *arg);

/* Parse one line holding one record. -EINVAL on anything malformed (err says what). */
int journal_parse_line(const char *line, size_t len, struct journal_entry *out,
		       struct ss_error *err);

/*
 * Call fn for every entry of the disk with this serial/WWN (either may be
 * empty; a disk matches when a non-empty serial or WWN is equal), oldest
 * first. A missing journal is not an error (fn is never called).
 * A line that cannot be read is an error (-EBADMSG) naming file:line when it concerns
 * this disk or its disk cannot be told, and a warning when it names another
 * disk; a record torn by a crash (incomplete JSON) is a warning: it was
 * never fsynced, so the command it describes was never sent.
 */
int journal_for_disk(const char *state_dir, const char *serial, const char *wwn,
		     int (*fn)(void *arg, const struct journal_entry *e), void *arg,
		     struct ss_error *err);

/* Every entry of every disk, oldest first, read as journal_for_disk reads
 * them (a line that names no disk is an error, one of a disk a warning). */
int journal_for_each(const char *state_dir, int (*fn)(void *arg, const struct journal_entry *e),
		     void *arg, struct ss_error *err);

/* Can the journal be read, safely? The state directory checked (fileio.h,
 * file_dir_check) and the journal, when there is one, opened as a private
 * file: 0, or the refusal in err (a listing says it rather than show disks
 * as if nothing were journaled). Nothing is parsed. */
int journal_check(const char *state_dir, struct ss_error *err);

/*
 * The disk's original state: the first "limit" entry after its last
 * "restore-done" (or ever). -ENOENT when the journal holds no open limit.
 */
int journal_original(const char *state_dir, const char *serial, const char *wwn,
		     struct journal_entry *out, struct ss_error *err);

/* The disk's newest record. -ENOENT when the journal holds none. */
int journal_last(const char *state_dir, const char *serial, const char *wwn,
		 struct journal_entry *out, struct ss_error *err);

/*
 * Is the record plausible on its own: a block length that is a power of two
 * from 512 to 64 KiB, an original capacity that is not 0, not beyond the
 * native capacity it names, and under 2^60 bytes? -EINVAL with what is wrong
 * otherwise. (restore also checks it against the drive.)
 */
int journal_entry_check(const struct journal_entry *e, struct ss_error *err);

/* The record as one line of JSON, as the journal holds it (for messages). */
void journal_entry_text(const struct journal_entry *e, char *buf, size_t len);

/*
 * Only one process changes a disk at a time: an exclusive, non-blocking
 * lock on <state_dir>/locks/<WWN or serial>.lock. -EBUSY when another
 * process holds it. *fd is -1 when the disk names neither (nothing to lock
 * by). journal_unlock_disk(-1) does nothing.
 */
int journal_lock_disk(const char *state_dir, const char *serial, const char *wwn, int *fd,
		      struct ss_error *err);
void journal_unlock_disk(int fd);

#endif
