/* secfmt.h - changing a drive's logical sector size (512e <-> 4Kn): the
 * sizes it offers, and the change (ATA SET SECTOR CONFIGURATION EXT; SCSI
 * MODE SELECT of the block length and a fast FORMAT UNIT), journaled,
 * locked and verified (READ CAPACITY, IDENTIFY, the kernel's view) as a
 * limit is (src/ops/capacity/secfmt.c, the codec sector.h). Destroys every
 * byte; the drive's new block count is what later limits and plans start
 * from. */
#ifndef SHORTSTROKE_SECFMT_H
#define SHORTSTROKE_SECFMT_H

#include <stdbool.h>
#include <stdint.h>

#include "shortstroke/capacity.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/sector.h"

/*
 * The logical sector sizes the drive offers (SCSI: VPD B7h; ATA: the
 * Sector Configuration log). A drive that offers none (no such page or
 * log) gives 0 with out->n 0. Read-only.
 */
int secfmt_read(struct drive *d, const struct drive_info *i, struct sector_sizes *out,
		struct ss_error *err);

struct secfmt_plan {
	uint32_t from, to;	 /* bytes */
	struct sector_size size; /* the size as the drive offers it */
	bool noop;
	uint64_t current;  /* blocks now */
	uint64_t expected; /* blocks after (the native bytes in the new size) */
	char note[256];
};

/*
 * What secfmt_run would do, sending nothing but reads: the size is one the
 * drive offers (-EINVAL, a usage error, listing them; -EOPNOTSUPP when it
 * offers none); the path passed the pass-through probe (ATA: IDENTIFY and
 * READ NATIVE MAX's registers came back through SAT; SCSI: the MODE SENSE
 * block descriptor says the length READ CAPACITY says): -EPERM otherwise,
 * unless force; no limit is journaled for the disk (-EPERM: restore it
 * first); noop when the drive has the size already.
 */
int secfmt_plan(struct cap_ctx *c, uint32_t bytes, bool force, struct secfmt_plan *p,
		struct ss_error *err);

struct secfmt_result {
	uint32_t from, to;
	uint64_t before, after; /* blocks, before in the old size */
	bool noop, dry_run;
	char message[512];
};

/* Carry it out: lock, journal ("sector-size"), send, watch a format to its
 * end, verify the new size (READ CAPACITY and IDENTIFY say it, the capacity
 * is the bytes in it, the kernel sees it), journal ("sector-size-done"). A
 * drive that ends with another size is an error saying what it has. */
int secfmt_run(struct cap_ctx *c, const struct secfmt_plan *p, struct secfmt_result *res,
	       struct ss_error *err);

#endif
