/* capacity.h - short-stroking: limit a drive's capacity to its outer zones
 * and restore it, by ATA AMAC, HPA (SET MAX), DCO, SCSI MODE SELECT resize,
 * SCSI FORMAT UNIT to a block count, or a GPT partition on the outer part.
 * The original state is journaled before any change. */
#ifndef SHORTSTROKE_CAPACITY_H
#define SHORTSTROKE_CAPACITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/devices.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/job.h"
#include "shortstroke/journal.h"
#include "shortstroke/transport.h"

enum cap_method {
	CAP_AUTO = 0, /* AMAC, else HPA, else SCSI resize; never partition */
	CAP_AMAC,
	CAP_HPA,
	CAP_DCO,
	CAP_SCSI_RESIZE,
	CAP_SCSI_FORMAT,
	CAP_PARTITION,
	CAP_NVME_NS, /* NVMe: the namespace deleted and created smaller */
};
const char *cap_method_name(enum cap_method m); /* "amac", "hpa", ... "auto" */
int cap_method_parse(const char *s, enum cap_method *out);

enum cap_by {
	CAP_BY_BYTES,
	CAP_BY_PERCENT,
	CAP_BY_BLOCKS,
	CAP_BY_LBA, /* the new max LBA: blocks = lba + 1 */
};

struct cap_request {
	enum cap_method method;
	enum cap_by by;
	uint64_t bytes;
	double percent; /* of the native (or journaled original) capacity */
	uint64_t blocks;
	uint64_t lba;
	uint64_t align; /* bytes; 0 means 1 MiB; the limit is rounded down to it */
	bool volatile_; /* HPA only: a power cycle undoes it */
	bool force;	/* allow less than 1 GiB */
};

#define CAP_MIN_BYTES (1ULL << 30)

struct cap_plan {
	enum cap_method method; /* never CAP_AUTO */
	uint32_t block_len;
	uint32_t phys_block;
	uint64_t current; /* blocks now */
	uint64_t native;  /* blocks at full capacity (0: unknown) */
	uint64_t target;  /* blocks after the change */
	bool volatile_;
	bool trial;	  /* restore: every open limit was a trial (volatile) and the
			   * drive still has it: restored by a volatile SET MAX, or
			   * (noop) a power cycle already undid it */
	bool noop;	  /* the drive already has this capacity: nothing to send */
	bool wait_format; /* a format runs: cap_limit watches it to its end, then
				   plans again from req (target unknown until then) */
	struct cap_request req;
	char note[256]; /* how target was derived, or why noop */
	/* a flash drive (docs/flash.md): the range the limit hides is TRIMmed /
	 * UNMAPped first; what that does to its data, or why not (any drive that
	 * does not rotate: "" for a disk) */
	bool discard;
	char discard_note[320];
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

/* Where the full capacity of a disk comes from. */
enum cap_full_source {
	CAP_FULL_NATIVE,  /* the drive's native max */
	CAP_FULL_JOURNAL, /* the journaled original: the drive reports none */
	CAP_FULL_CURRENT, /* neither: the current capacity */
};
/* "the native maximum", "the journaled original", "the current capacity" */
const char *cap_full_source_name(enum cap_full_source s);

/*
 * The full capacity a stroke or a percentage is a share of, in blocks:
 * the native max where the drive reports one, else the original capacity
 * of orig (the journal's open limit for this disk, may be NULL) when its
 * block size matches, else the current capacity.
 */
enum cap_full_source cap_full_capacity(const struct drive_info *i, const struct journal_entry *orig,
				       uint64_t *blocks);

/*
 * Whether the disk is limited and its original capacity (see struct
 * dev_limit): from the drive where it can say (native max, DCO maximum),
 * else from orig (the journal's open limit, may be NULL) when that record
 * still matches the drive (same block size; a smaller capacity, or the
 * full one with the partition method).
 */
void cap_limit_state(const struct drive_info *i, const struct journal_entry *orig,
		     struct dev_limit *out);
/* A limit by HPA that the journal's newest record of the disk (last, may be
 * NULL) says was set volatile, to the capacity the drive has now: a power
 * cycle undoes it. Nothing on the drive tells a volatile SET MAX from a
 * permanent one. */
bool cap_limit_volatile(const struct drive_info *i, const struct dev_limit *l,
			const struct journal_entry *last);

/*
 * The disk is in use only for a label (a partition table or signature:
 * nothing mounted, held or swapped), its partitions hold no filesystem,
 * RAID or LVM signature, and the journal's open limit is by a method that
 * keeps the size: the label is the one the partition method wrote, which
 * restore (and array undo) may take back. md_member: the disk is a member
 * of an array over partitions that is being taken down, whose md superblock
 * its partition may hold (md's state decides; see apply.c's teardown).
 */
bool cap_label_is_ours(const char *state_dir, const struct dev_entry *e, bool md_member);

/*
 * On a zoned disk (host-managed or host-aware SMR) a limit ends on a zone
 * boundary: read the zones (REPORT ZONES, read-only) and round plan->target
 * down to the start of the zone it falls in, saying so in plan->note (a
 * plan that ends up at the current capacity becomes a no-op). Other disks
 * and no-op plans are left as they are.
 */
int cap_plan_zones(struct drive *d, const struct drive_info *info, struct cap_plan *plan,
		   struct ss_error *err);

/*
 * True when the last change journaled for the disk was a permanent SET MAX
 * ADDRESS (HPA, non-volatile), with its time in when. Drives take one such
 * change per power cycle: unless the disk was power-cycled since, another
 * will be refused. (Nothing on the drive tells; the journal is a hint.)
 */
bool cap_hpa_changed_before(const char *state_dir, const struct drive_info *info, char *when,
			    size_t len);

/* Called for each command of a change: in dry-run instead of sending it,
 * otherwise before sending it (for --verbose). what decodes it. */
typedef void (*cap_show_fn)(void *arg, const struct xcmd *c, const char *what);
/* A command of a change as --dry-run lists it: "85 07 00 ... 37 00  ATA SET
 * MAX ADDRESS EXT (volatile)", the CDB in hex and what decodes it. */
void cap_cmd_text(const struct xcmd *c, const char *what, char *buf, size_t len);

struct cap_ctx {
	struct drive *d;
	struct dev_entry *e;   /* identified; e->info is refreshed after a change */
	const char *state_dir; /* the journal lives here */
	bool dry_run;
	cap_show_fn show;
	void *show_arg;
	const struct progress_sink *progress;
	bool to_native; /* restore: with nothing journaled, go to the
					   native maximum (else refused) */
};

/*
 * What `limit` plans for a drive opened through c (c->d, c->e, c->state_dir),
 * as every front end does: cap_plan_limit with the journal's open limit of
 * the disk as its original state, then cap_plan_zones (a zoned disk's limit
 * on a zone boundary; reads the zones), and cap_plan_path. Sends nothing
 * that changes it.
 */
int cap_plan_limit_drive(struct cap_ctx *c, const struct cap_request *req, struct cap_plan *plan,
			 struct ss_error *err);

/* The step of limit's checks that asks whether the path (HBA, bridge)
 * carries plan's method: the harmless commands of `probe` it needs, sent
 * to c->d (no MODE SELECT in a dry run). -EOPNOTSUPP saying why and what
 * to do when a step failed; an inconclusive one is not held against it.
 * apply runs it for each member before the first change. */
int cap_plan_path(struct cap_ctx *c, const struct cap_plan *plan, struct ss_error *err);

struct cap_result {
	enum cap_method method;
	uint32_t block_len;
	uint64_t before; /* blocks */
	uint64_t after;	 /* blocks, verified */
	uint64_t native;
	bool noop;
	bool dry_run;
	bool watched_format; /* a format in progress was watched to its end first */
	char message[512];   /* one line for the user */
};

/*
 * The limit methods are one table of ops (src/ops/capacity/: a file per
 * method), in the order auto prefers them. Front ends read the name and the
 * flags; the hooks are the engine's (cap_limit, cap_restore), which journals,
 * locks and verifies around them.
 */
enum {
	CAPM_AUTO = 1u << 0,	    /* auto may pick it (the first one the drive supports) */
	CAPM_ATA = 1u << 1,	    /* ATA commands: auto picks it on ATA drives only */
	CAPM_SCSI = 1u << 2,	    /* SCSI commands: auto picks it on SCSI drives only */
	CAPM_VOLATILE = 1u << 3,    /* has a form a power cycle undoes (--volatile) */
	CAPM_POWER_CYCLE = 1u << 4, /* a drive takes one permanent change per power cycle */
	CAPM_DESTROYS = 1u << 5,    /* destroys every byte on the drive */
	CAPM_FORMATS = 1u << 6,	    /* formats the medium: the one method a corrupted medium
					   or a new block size takes */
	CAPM_SETS_NATIVE = 1u << 7, /* moves the native max itself, up to the factory max,
					   which restore goes back to */
	CAPM_KEEPS_SIZE = 1u << 8,  /* the drive keeps its capacity: the kernel sees the
					   limit through a label on the disk */
	CAPM_PROBE_UNDO = 1u << 9,  /* the kernel may undo it when it probes the disk
					   (libata.ignore_hpa=1 lifts an HPA) */
	CAPM_ACCESSIBLE = 1u << 10, /* lowers the accessible max under the native max: the
					   drive's registers show the limit, not which method */
	CAPM_NVME = 1u << 11,	    /* NVMe admin commands: NVMe drives only */
};
/* A restore by a method with any of these undoes what another tool may have
 * done (the factory maximum, a GPT, a format): with nothing journaled, only
 * with --to-native. */
#define CAPM_RESTORE_NEEDS_NATIVE (CAPM_SETS_NATIVE | CAPM_KEEPS_SIZE | CAPM_FORMATS)

struct cap_method_ops {
	enum cap_method id;
	const char *name;    /* as --method and the journal spell it */
	const char *command; /* the command that makes the change, as warnings name
				it: "SET MAX ADDRESS" */
	const char *help;    /* what it is, one line of limit --list-methods */
	unsigned need;	     /* the METHOD_* bit the drive must report */
	unsigned flags;	     /* CAPM_* */
	/* Optional: why this drive can never take the method, checked before
	 * the METHOD_* bit when a limit is planned. */
	int (*fits)(const struct drive_info *i, const char *dev, struct ss_error *err);
	/* Optional: the method's own rules, checked when a limit (restore
	 * false) or a restore is planned, after the generic ones. */
	int (*plan)(const struct drive_info *i, bool restore, const char *dev,
		    struct ss_error *err);
	/* Limit to blocks; restore to blocks (UINT64_MAX: the drive's maximum). */
	int (*set)(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err);
	int (*restore)(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err);
	/* Optional: check the drive after a change (default: the drive and the
	 * kernel report want blocks), res->after set. */
	int (*verify)(struct cap_ctx *c, bool restore, uint64_t want, struct cap_result *res,
		      struct ss_error *err);
	/* Optional: nothing the method writes is on the disk (default: the
	 * capacity says it all). */
	bool (*undone)(struct cap_ctx *c);
};

/* The method m (NULL for CAP_AUTO or none), and the k-th of the table in
 * preference order (NULL past its end). */
const struct cap_method_ops *cap_method_get(enum cap_method m);
const struct cap_method_ops *cap_method_at(size_t k);
/* The first method auto takes on this drive (NULL: none it supports);
 * prefer_volatile picks the first with a volatile form when there is one. */
const struct cap_method_ops *cap_method_pick(const struct drive_info *i, bool prefer_volatile);
/*
 * Whether a limit by o is offered on this drive, whatever the size: the
 * method's fits hook, the capability the drive reports (METHOD_*), the
 * method's rules (DCO behind an HPA, HPA on a security-frozen drive) and a
 * locked drive, as cap_plan_limit checks them. 0, or why not in err (dev
 * names the drive).
 */
int cap_method_usable(const struct drive_info *i, const struct cap_method_ops *o, const char *dev,
		      struct ss_error *err);
/* The method's flags; 0 for an unknown name (cap_flags: for CAP_AUTO). */
unsigned cap_method_flags(const char *name);
unsigned cap_flags(enum cap_method m);
/* "auto, amac, hpa, ...": the names --method takes, but those with any of
 * the flags without (0: every one). */
void cap_method_names(char *buf, size_t len, unsigned without);
/* The names of the methods whose METHOD_* bit is in methods (what a drive
 * reports it supports), in the table's order: "amac,hpa,dco". */
void cap_methods_text(unsigned methods, char *buf, size_t len);
/* The names of the methods, in the table's order, that have every flag of
 * with and none of without, joined by sep ("amac, else hpa, else
 * scsi-resize"; "" when none). */
void cap_method_list(char *buf, size_t len, unsigned with, unsigned without, const char *sep);

/*
 * What front ends say about a change of the capacity, written once
 * (src/ops/capacity/warnings.c), from the method's flags:
 * - cap_change_warning: before the change is confirmed: that it destroys
 *   every byte (CAPM_DESTROYS), that data beyond the new end becomes
 *   unreachable (a limit), what a restore removes, or that it loses
 *   nothing.
 * - cap_no_abort_text: why a running change cannot be aborted (a format
 *   runs inside the drive to its end, CAPM_FORMATS).
 * - cap_power_cycle_note: for a permanent change by a method a drive takes
 *   once per power cycle (CAPM_POWER_CYCLE), the note when the journal says
 *   one was sent already (cap_hpa_changed_before); false otherwise.
 */
void cap_change_warning(enum cap_method m, bool restore, char *buf, size_t len);
void cap_no_abort_text(enum cap_method m, bool restore, char *buf, size_t len);
bool cap_power_cycle_note(const char *state_dir, const struct drive_info *info, enum cap_method m,
			  bool vol, char *buf, size_t len);

/*
 * The partition method's partition as an md member (src/ops/capacity/
 * partition.c): partition 1 of a GPT, from cap_partition_start (1 MiB)
 * to the limit, so md gets (limit - start) blocks of the outer band.
 */
uint64_t cap_partition_start(uint32_t block_len);
/*
 * The partitions the method writes for a limit of target blocks: one from
 * cap_partition_start to target; on a drive with several actuators
 * (cpr_multi of i->ranges) one at the outer edge of each actuator's range,
 * each the same share of its range as target is of all the ranges (N % of
 * each), from the range's first MiB boundary, its end rounded down to a
 * MiB. Partition k is out[k] (blocks, end exclusive). Returns how many
 * (1 to CPR_MAX), or -EINVAL with why in err (a range's share too small
 * for a partition, no room for the backup GPT).
 */
struct cap_part {
	uint64_t start, end;
};
int cap_partition_layout(const struct drive_info *i, uint64_t target, struct cap_part *out,
			 struct ss_error *err);
/* Room for it: past the first MiB, and the backup GPT after it (-EINVAL). */
int cap_partition_fits(const struct drive_info *i, uint64_t limit, struct ss_error *err);
/* Its node: /dev/sdb1 (/dev/nvme0n1p1 where the disk's name ends in a
 * digit, as the kernel names them); sim:ID-part1 for a simulated disk. */
void cap_partition_node(const struct dev_entry *e, char *buf, size_t len);
/* The same of partition k (1-based): a disk of several actuators has one
 * per actuator (cap_partition_layout). */
void cap_partition_node_k(const struct dev_entry *e, unsigned k, char *buf, size_t len);
/* Where partition k (1-based) of the GPT on the drive ends (exclusive,
 * blocks), read through the drive; -ENOENT without a GPT or partition k. */
int cap_partition_end_k(struct drive *d, struct dev_entry *e, unsigned k, uint64_t *end,
			struct ss_error *err);
/*
 * After a limit by the partition method: wait (up to timeout_ms) until the
 * kernel shows the partition (every one, on a disk of several actuators)
 * as a block device of the size written, asking
 * it to re-read the table (BLKRRPART) each second; node gets its name. A
 * simulated disk has nothing to wait for. -ETIMEDOUT when it does not
 * appear, -EIO when its size is not the partition's, with the reason.
 */
int cap_partition_wait(const struct dev_entry *e, uint64_t limit, unsigned timeout_ms, char *node,
		       size_t len, struct ss_error *err);

/* For an ATA drive whose native max could not be read at identification
 * (registers in fixed-format sense), read it with descriptor sense switched
 * on for the command, into c->e->info.native_blocks. No-op otherwise. */
int cap_refresh_native(struct cap_ctx *c, struct ss_error *err);

/*
 * An NVMe namespace formatted to another LBA format (Format NVM): lbaf its
 * index, or, with lbaf < 0, the one of block_len bytes (no metadata) the
 * controller offers. Checked first (an NVMe drive with Format NVM, OACS bit 1;
 * a format it offers; not the one in use: a no-op said so in res), then sent
 * (shown, and only shown in a dry run), the drive re-read, the kernel's
 * namespaces rescanned, the new block size verified. Destroys every byte.
 */
int cap_nvme_format(struct cap_ctx *c, int lbaf, uint32_t block_len, struct cap_result *res,
		    struct ss_error *err);

/* Apply a plan: journal the original state, send the change, make the
 * kernel see the new size, verify it. */
int cap_limit(struct cap_ctx *c, const struct cap_plan *plan, struct cap_result *res,
	      struct ss_error *err);

/*
 * Bring the drive back to its journaled original capacity by the method
 * that limited it; without a journal entry, to the native maximum by the
 * method the drive supports when c->to_native is set (method may force one;
 * CAP_AUTO otherwise). The plan is made (and checked) by cap_plan_restore.
 */
int cap_restore(struct cap_ctx *c, enum cap_method method, bool volatile_, struct cap_result *res,
		struct ss_error *err);

/* What cap_restore would do, without sending anything: the method, the
 * target (UINT64_MAX: the drive's maximum, known only once it is there),
 * noop when the drive is already there, and in note the size it gets back
 * ("97679360 blocks (50.0 GB), the journaled original"). Fails with the
 * reason cap_restore would refuse with: with nothing journaled the disk was
 * not limited by this tool (a vendor's HPA, another tool): -EPERM saying its
 * current and native sizes, unless c->to_native asks for the native
 * maximum; a method the drive does not support, --volatile off HPA, a
 * security-frozen or locked drive. */
int cap_plan_restore(struct cap_ctx *c, enum cap_method method, bool volatile_,
		     struct cap_plan *plan, struct ss_error *err);

#endif
