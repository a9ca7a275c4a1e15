/* depop.h - storage element depopulation: a drive's elements (heads) and
 * their health, retiring one (REMOVE ELEMENT AND TRUNCATE: the drive is
 * erased and comes back smaller) and bringing them all back (RESTORE
 * ELEMENTS AND REBUILD), journaled, locked and verified as a limit is
 * (src/ops/capacity/depop.c, the codec elem.h). */
#ifndef SHORTSTROKE_DEPOP_H
#define SHORTSTROKE_DEPOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/capacity.h"
#include "shortstroke/drive.h"
#include "shortstroke/elem.h"
#include "shortstroke/error.h"

#define DEPOP_MAX_ELEMS 64

/* What GET PHYSICAL ELEMENT STATUS says of a drive */
struct depop_status {
	bool supported;	    /* the drive answered the command */
	uint32_t total;	    /* elements the drive has */
	uint32_t busy_id;   /* the element being removed, 0 none */
	bool busy;	    /* a removal or a restoration runs */
	uint16_t max_depop; /* how many may be removed at most, 0 not said */
	uint16_t depopulated;
	size_t n;
	struct elem_desc e[DEPOP_MAX_ELEMS];
};

/*
 * Read the elements (ATA or SCSI as the drive is). A drive that does not
 * know the command (INVALID COMMAND OPERATION CODE, INVALID FIELD, an ATA
 * ABORT) gives 0 with supported false; other failures a negative errno.
 * Read-only.
 */
int depop_read(struct drive *d, const struct drive_info *i, struct depop_status *out,
	       struct ss_error *err);

/* The share of the capacity an element holds (0..1; 0 when the drive does
 * not say) of a drive of native blocks */
double depop_share(const struct elem_desc *e, uint64_t native);

struct depop_result {
	uint32_t element; /* 0: a restore */
	uint32_t block_len;
	uint64_t before; /* blocks */
	uint64_t after;	 /* blocks, verified */
	bool noop;
	bool dry_run;
	bool watched;		/* an operation in progress was watched to its end first */
	uint64_t offline_zones; /* MODIFY ZONES: zones that read offline after */
	char message[512];
};

/*
 * What depop_remove would do, sending nothing but reads: the element
 * exists, serves data and is not the last one; nothing runs on the drive
 * (else it is watched first, plan->busy); the journal holds no open limit
 * of the disk (restore it first: its original would no longer be true).
 * note says the plan in one line. -EOPNOTSUPP for a drive without the
 * feature, -EINVAL for an element it does not have, -EPERM for an open
 * limit, with the reason.
 */
struct depop_plan {
	uint32_t element;
	bool restore;
	bool noop;
	bool busy;  /* a removal or restoration already runs: watched first */
	bool zones; /* a zoned (ATA) disk: REMOVE ELEMENT AND MODIFY ZONES */
	uint32_t block_len;
	uint64_t current;
	uint64_t expected; /* blocks after, as the drive's figures say (0 unknown) */
	char note[256];
};
int depop_plan_remove(struct cap_ctx *c, uint32_t element, struct depop_plan *plan,
		      struct ss_error *err);
/* The same for RESTORE ELEMENTS AND REBUILD: elements removed, and the
 * drive allows restoring them (RALWD); noop when none is removed. */
int depop_plan_restore(struct cap_ctx *c, struct depop_plan *plan, struct ss_error *err);

/*
 * Carry a plan out: lock the disk, journal the state before ("depop" or
 * "elements-restore"), send the command (c->dry_run: show it only), watch
 * the drive's progress (REQUEST SENSE, NOT READY 04h/24h or 04h/25h) to
 * its end, check the element's new state and the new capacity (and that
 * the kernel sees it), journal the end. Stopped while the drive works
 * (c->progress cancelled): -ECANCELED saying it goes on inside the drive
 * and that the same command watches it to its end and records it.
 */
int depop_run(struct cap_ctx *c, const struct depop_plan *plan, struct depop_result *res,
	      struct ss_error *err);

#endif
