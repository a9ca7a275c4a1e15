/* journal.h - the record of every capacity change, written before the
 * change is sent: JSON lines, one object per event, fsynced, in
 * <state_dir>/journal.jsonl. `restore` and idempotent re-runs read it.
 *
 * Every process using a state directory shares <state_dir>/journal.lock
 * (flock): an append is one write() of the record and its newline on an
 * O_APPEND descriptor under the exclusive lock, fsynced before the caller
 * sends the command; readers read under the shared lock, so they never see
 * half a record. A record torn by a crash or a power loss (incomplete JSON,
 * or NUL bytes where a file system lost the data of a write that was never
 * fsynced) is ignored with one warning wherever it sits, and old journals
 * with two records on one line are read whole.
 *
 * Compaction: once the journal passes a size (journal_set_compact_bytes),
 * an append rewrites it, under the exclusive lock, as the records that still
 * decide something about each disk (marked "snapshot": its open limit, its
 * last restore, its last completed change, its newest record; see
 * journal_compact) and moves the whole file before it to
 * <state_dir>/journal.d/journal.NNNNNN.jsonl, so the history stays readable
 * there. Every reader of the history reads the same answer from the
 * compacted journal as from the whole one: a new reader must say what it
 * needs kept (keep_for_query in journal.c). docs/journal.md describes the
 * files. */
#ifndef SHORTSTROKE_JOURNAL_H
#define SHORTSTROKE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"

struct journal_entry {
	char time[32];	  /* ISO 8601 UTC, filled by journal_append */
	char event[24];	  /* "limit", "limit-done", "restore", "restore-done", "format-start",
			     "depop", "depop-done", "elements-restore", "elements-restore-done" */
	char device[256]; /* as the user named it */
	char node[256];	  /* array events: what md was given ("/dev/sdb1" for a
				   partition member); "" (not written) otherwise */
	char serial[48];
	char wwn[48];
	char model[48];
	char method[24]; /* the method's name (struct cap_method_ops: limit --list-methods) */
	uint32_t block_len;
	uint64_t native_blocks;	  /* 0: unknown */
	uint64_t original_blocks; /* capacity before this change */
	uint64_t target_blocks;	  /* capacity asked for */
	bool volatile_;		  /* HPA volatile: a power cycle undoes it */
	/* a "restore-done" the tool wrote itself, not the user's restore
	 * (JOURNAL_CAUSE_*); "" (not written) for every other record */
	char cause[16];
	/* "depop", "depop-done": the storage element removed; 0 (not written)
	 * for every other record */
	uint32_t element;
	/* "sector-size", "sector-size-done": the new logical block length
	 * (block_len is the old one); 0 (not written) for every other record */
	uint32_t to_block_len;
	bool snapshot; /* a copy kept by compaction (its history is in journal.d) */
	unsigned line; /* where the reader found it (1-based), 0 when not read */
};

/* Why the tool closed an open limit by itself: the drive was found at its
 * original capacity (a power cycle undid a volatile limit, or another tool
 * restored it), or a limit failed and the drive did not take it. reapply
 * does not take these for the user's restore. */
#define JOURNAL_CAUSE_LAPSED "lapsed"
#define JOURNAL_CAUSE_FAILED "failed"

/* Path of the journal in a state directory. */
void journal_path(const char *state_dir, char *buf, size_t len);

/* Append one entry (time is set here), fsync the file and, when it was
 * created, its directory. The directory is created when missing. Past the
 * compaction size the journal is compacted under the same lock (a failed
 * compaction is a warning: the record is written all the same). */
int journal_append(const char *state_dir, struct journal_entry *e, struct ss_error *err);

/* The journal's size past which an append compacts it (bytes; default
 * JOURNAL_COMPACT_BYTES, 0 for the default; the journal is compacted when it
 * is also more than twice its last snapshot). Process-wide. */
#define JOURNAL_COMPACT_BYTES (1u << 20)
void journal_set_compact_bytes(size_t bytes);

/* Compact now, whatever the size: 0, or a negative errno with err filled
 * (nothing changed). A journal holding a line that cannot be read (not a
 * torn record) is left as it is: -EBADMSG. Kill -9 at any point leaves the
 * journal whole: the old one, or the new one with the old in journal.d. */
int journal_compact(const char *state_dir, struct ss_error *err);

/* Where compaction moves the history: <state_dir>/journal.d */
void journal_history_dir(const char *state_dir, char *buf, size_t len);

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
