/* capacity.h - short-stroking: limit a drive's capacity to its outer zones
 * and restore it, by ATA AMAC, HPA (SET MAX), DCO, SCSI MODE SELECT resize,
 * SCSI FORMAT UNIT to a block count, or a GPT partition on the outer part.
 * The original state is journaled before any change. */
#ifndef SHORTSTROKE_CAPACITY_H
#define SHORTSTROKE_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>

#include "shortstroke/devices.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/job.h"
#include "shortstroke/journal.h"
#include "shortstroke/transport.h"

enum cap_method {
	CAP_AUTO = 0,		/* AMAC, else HPA, else SCSI resize; never partition */
	CAP_AMAC,
	CAP_HPA,
	CAP_DCO,
	CAP_SCSI_RESIZE,
	CAP_SCSI_FORMAT,
	CAP_PARTITION,
};
const char *cap_method_name(enum cap_method m);	/* "amac", "hpa", ... "auto" */
int cap_method_parse(const char *s, enum cap_method *out);

enum cap_by {
	CAP_BY_BYTES,
	CAP_BY_PERCENT,
	CAP_BY_BLOCKS,
	CAP_BY_LBA,	/* the new max LBA: blocks = lba + 1 */
};

struct cap_request {
	enum cap_method method;
	enum cap_by by;
	uint64_t bytes;
	double percent;		/* of the native (or journaled original) capacity */
	uint64_t blocks;
	uint64_t lba;
	uint64_t align;		/* bytes; 0 means 1 MiB; the limit is rounded down to it */
	bool volatile_;		/* HPA only: a power cycle undoes it */
	bool force;		/* allow less than 1 GiB */
};

#define CAP_MIN_BYTES (1ULL << 30)

struct cap_plan {
	enum cap_method method;	/* never CAP_AUTO */
	uint32_t block_len;
	uint32_t phys_block;
	uint64_t current;	/* blocks now */
	uint64_t native;	/* blocks at full capacity (0: unknown) */
	uint64_t target;	/* blocks after the change */
	bool volatile_;
	bool noop;		/* the drive already has this capacity: nothing to send */
	bool wait_format;	/* a format runs: cap_limit watches it to its end, then
				   plans again from req (target unknown until then) */
	struct cap_request req;
	char note[256];		/* how target was derived, or why noop */
};

/*
 * Work out what `limit` would do, without sending anything: the method
 * (auto picks AMAC, HPA, SCSI resize in that order), the target rounded
 * down to the physical block and the alignment, and every rule a user can
 * break (zero, beyond native, under 1 GiB without force, method not
 * supported, volatile on a method that has no volatile form, security or
 * DCO frozen). orig (may be NULL) is the journaled original state, the
 * reference for a percentage on SCSI disks that report no native capacity.
 * A SCSI disk in the middle of a format gives a plan with wait_format set;
 * one with a corrupted medium can only be limited by scsi-format, which is
 * then never a no-op.
 */
int cap_plan_limit(const struct drive_info *info, const struct journal_entry *orig,
		   const struct cap_request *req, struct cap_plan *plan, struct ss_error *err);

/* Called for each command of a change: in dry-run instead of sending it,
 * otherwise before sending it (for --verbose). what decodes it. */
typedef void (*cap_show_fn)(void *arg, const struct xcmd *c, const char *what);

struct cap_ctx {
	struct drive *d;
	struct dev_entry *e;		/* identified; e->info is refreshed after a change */
	const char *state_dir;		/* the journal lives here */
	bool dry_run;
	cap_show_fn show;
	void *show_arg;
	const struct progress_sink *progress;
};

struct cap_result {
	enum cap_method method;
	uint32_t block_len;
	uint64_t before;		/* blocks */
	uint64_t after;			/* blocks, verified */
	uint64_t native;
	bool noop;
	bool dry_run;
	bool watched_format;		/* a format in progress was watched to its end first */
	char message[512];		/* one line for the user */
};

/* For an ATA drive whose native max could not be read at identification
 * (registers in fixed-format sense), read it with descriptor sense switched
 * on for the command, into c->e->info.native_blocks. No-op otherwise. */
int cap_refresh_native(struct cap_ctx *c, struct ss_error *err);

/* Apply a plan: journal the original state, send the change, make the
 * kernel see the new size, verify it. */
int cap_limit(struct cap_ctx *c, const struct cap_plan *plan, struct cap_result *res,
	      struct ss_error *err);

/*
 * Bring the drive back to its journaled original capacity by the method
 * that limited it; without a journal entry, to the native maximum by the
 * method the drive supports (method may force one; CAP_AUTO otherwise).
 */
int cap_restore(struct cap_ctx *c, enum cap_method method, bool volatile_,
		struct cap_result *res, struct ss_error *err);

/* What cap_restore would do, without sending anything: the method, the
 * target (UINT64_MAX: the drive's maximum, known only once it is there),
 * noop when the drive is already there, and in note the size it gets back
 * ("97679360 blocks (50.0 GB), the journaled original"). Fails with the
 * reason cap_restore would refuse with. */
int cap_plan_restore(struct cap_ctx *c, enum cap_method method, bool volatile_,
		     struct cap_plan *plan, struct ss_error *err);

#endif
