/* reapply.h - after a power cycle: which journaled limits a disk should
 * carry, which attached disk carries it (by serial/WWN, never by name), and
 * whether that disk still has it, lost it, or was changed by someone else.
 * Pure bookkeeping over the journal; the change itself is cap_limit's. */
#ifndef SHORTSTROKE_REAPPLY_H
#define SHORTSTROKE_REAPPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/devices.h"
#include "shortstroke/error.h"
#include "shortstroke/journal.h"

/*
 * Every disk whose journal holds a completed limit ("limit-done") that the
 * user did not restore since: one entry per disk, its last "limit-done", in
 * the order of the journal. What the tool wrote itself on the way (a
 * "restore-done" with a cause: the volatile limit found undone by a power
 * cycle, a limit that failed; a "limit" of the same limit again: a re-apply)
 * does not close it, so a killed reapply leaves it wanted.
 * A disk whose last limit is another one that never completed (the user's,
 * killed) is in *stale (may be NULL) with that "limit" record instead:
 * whether it should carry it is for the caller to tell from the drive.
 * *out and *stale are malloc'ed (NULL when empty). A missing journal is not
 * an error.
 */
int reapply_pending(const char *state_dir, struct journal_entry **out, size_t *n,
		    struct journal_entry **stale, size_t *n_stale, struct ss_error *err);

/* True when a disk with this serial and WWN is the journaled one: every
 * identifier both have is equal (WWN case-insensitive), and they share at
 * least one. */
bool reapply_same_disk(const struct journal_entry *e, const char *serial, const char *wwn);

/* Index in devs of the identified disk that carries e's serial/WWN, -1 when
 * none does, REAPPLY_AMBIGUOUS when more than one does (disks behind USB
 * bridges that give one serial and no WWN): then none is the journaled one. */
#define REAPPLY_AMBIGUOUS (-2)
int reapply_find(const struct journal_entry *e, const struct dev_entry *devs, size_t n);

enum reapply_state {
	REAPPLY_IN_PLACE, /* the disk has the journaled limit */
	REAPPLY_NEEDED,	  /* a volatile limit undone by a power cycle */
	REAPPLY_LOST,	  /* a permanent limit gone: someone restored it */
	REAPPLY_CHANGED,  /* another model, block size, native or capacity */
};
const char *reapply_state_name(enum reapply_state s); /* "in-place", ... */

/* Compare the journaled limit with the disk as identified now; why says
 * what differs (for LOST and CHANGED). */
enum reapply_state reapply_check(const struct journal_entry *e, const struct drive_info *i,
				 char *why, size_t len);

#endif
