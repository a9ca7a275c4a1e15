/* journal.h - the record of every capacity change, written before the
 * change is sent: JSON lines, one object per event, fsynced, in
 * <state_dir>/journal.jsonl. `restore` and idempotent re-runs read it. */
#ifndef SHORTSTROKE_JOURNAL_H
#define SHORTSTROKE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"

struct journal_entry {
	char time[32];		/* ISO 8601 UTC, filled by journal_append */
	char event[24];		/* "limit", "limit-done", "restore", "restore-done", "format-start" */
	char device[256];	/* as the user named it */
	char serial[48];
	char wwn[48];
	char model[48];
	char method[24];	/* "amac", "hpa", "dco", "scsi-resize", "scsi-format", "partition" */
	uint32_t block_len;
	uint64_t native_blocks;		/* 0: unknown */
	uint64_t original_blocks;	/* capacity before this change */
	uint64_t target_blocks;		/* capacity asked for */
	bool volatile_;		/* HPA volatile: a power cycle undoes it */
};

/* Path of the journal in a state directory. */
void journal_path(const char *state_dir, char *buf, size_t len);

/* Append one entry (time is set here), fsync the file and, when it was
 * created, its directory. The directory is created when missing. */
int journal_append(const char *state_dir, struct journal_entry *e, struct ss_error *err);

/* Parse one line. -EINVAL on anything malformed (err says what). */
int journal_parse_line(const char *line, size_t len, struct journal_entry *out,
		       struct ss_error *err);

/*
 * Call fn for every entry of the disk with this serial/WWN (either may be
 * empty; a disk matches when a non-empty serial or WWN is equal), oldest
 * first. A missing journal is not an error (fn is never called).
 * A malformed line is an error naming file:line.
 */
int journal_for_disk(const char *state_dir, const char *serial, const char *wwn,
		     int (*fn)(void *arg, const struct journal_entry *e), void *arg,
		     struct ss_error *err);

/*
 * The disk's original state: the first "limit" entry after its last
 * "restore-done" (or ever). -ENOENT when the journal holds no open limit.
 */
int journal_original(const char *state_dir, const char *serial, const char *wwn,
		     struct journal_entry *out, struct ss_error *err);

#endif
