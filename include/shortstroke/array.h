/* array.h - short-stroked md arrays: what `apply` and `array` need below the
 * front end. The array record (one JSON file per array in
 * <state_dir>/arrays/NAME.json, rewritten atomically before each step), the
 * checks a plan's members must pass, the checks that md can build the array
 * on this machine, and mdadm run by an argument vector (fork/execvp, never a
 * shell). md superblocks are only ever written by mdadm. See docs/arrays.md. */
#ifndef SHORTSTROKE_ARRAY_H
#define SHORTSTROKE_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/capacity.h"
#include "shortstroke/devices.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/planfile.h"

#define ARRAY_NAME_MAX 20 /* "md:NAME" fits a journal entry's method */
#define ARRAY_MAX_MEMBERS 64
/* How long apply waits for the kernel (and udev) to show a partition
 * member's partition after its table was written. */
#define ARRAY_PART_WAIT_MS 15000

/* A member's progress through a transaction. */
enum array_mstate {
	AM_PENDING = 0, /* nothing done to it yet */
	AM_LIMITING,	/* its limit was (maybe) sent */
	AM_LIMITED,	/* limited and verified */
	AM_RESTORED,	/* back to its original capacity */
	AM_REPLACED,	/* left the array (array replace); restored or not */
	AM_MSTATE_COUNT
};
const char *array_mstate_name(enum array_mstate s);

/* The array's progress. */
enum array_state {
	AS_LIMITING = 0,	/* members being limited */
	AS_CREATING,		/* mdadm --create running or done */
	AS_MKFS,		/* the filesystem being made */
	AS_DONE,		/* applied */
	AS_ROLLING_BACK,	/* a failure is being undone */
	AS_ROLLBACK_INCOMPLETE, /* a rollback or undo failed: `array undo` finishes */
	AS_UNDONE,		/* rolled back or undone: the name is free again */
	AS_STATE_COUNT
};
const char *array_state_name(enum array_state s);

struct array_member {
	char spec[256]; /* as the user named it */
	char node[256]; /* what mdadm is given: /dev/sdX, or its partition /dev/sdX1
				   when limited by the partition method; for a simulated
				   disk its spec (sim:ID, sim:ID-part1) */
	char serial[48];
	char wwn[48];
	char model[48];
	uint32_t block_len;
	uint64_t before_blocks; /* its capacity when this program first found it */
	uint64_t limit_blocks;	/* the plan's limit */
	char method[24];	/* the limit method used ("" before) */
	bool volatile_;
	enum array_mstate state;
};

struct array_rec {
	char name[ARRAY_NAME_MAX + 1];
	char plan[1024]; /* the plan file applied (absolute path) */
	char level[8];	 /* "0", "1", "10", "5", "6" */
	unsigned copies; /* RAID 10 */
	uint64_t chunk_bytes;
	char md_dev[64]; /* /dev/md/NAME */
	char uuid[64];	 /* MD_UUID once created */
	char fs[8];	 /* "", "ext4", "xfs" */
	char conf[1024]; /* the file the ARRAY line was appended to (--conf), "" none */
	enum array_state state;
	char step[256];	   /* the step started last, for the user */
	char remains[512]; /* after a failed rollback: what is left to do */
	char created[32];  /* ISO 8601 UTC */
	size_t n;
	struct array_member m[ARRAY_MAX_MEMBERS];
};

/* A name md and this program accept: 1..32 of [A-Za-z0-9_-]. */
int array_name_check(const char *name, struct ss_error *err);

/* <state_dir>/arrays/NAME.json */
void array_rec_path(const char *state_dir, const char *name, char *buf, size_t len);
/* Load a record; -ENOENT when there is none. */
int array_rec_load(const char *state_dir, const char *name, struct array_rec *out,
		   struct ss_error *err);
/* Write a record atomically (temporary file, fsync, rename, fsync of the directory). */
int array_rec_save(const char *state_dir, const struct array_rec *r, struct ss_error *err);
/* The names of every record, sorted; *names freed with free() (one block). */
int array_rec_names(const char *state_dir, char (**names)[ARRAY_NAME_MAX + 1], size_t *n,
		    struct ss_error *err);
/* The record as JSON text (for -J); freed with free(). */
char *array_rec_json(const struct array_rec *r);

/*
 * A plan's member against the disk bound to it. A recorded serial, WWN or
 * model must match (a WWN without case or "0x"); a placeholder must be like
 * the disk it copies: the same block size, at least the planned capacity,
 * the same rpm class. The capacity is full_blocks, the disk's whole
 * capacity (a disk limited now is judged by its journaled original, as the
 * planner does: cap_full_capacity), or, when 0, its native max else its
 * current capacity. -EPERM with the reason in err (the disk is not the one
 * planned: refused for safety).
 */
int array_member_check(const struct plan_disk *pd, const struct drive_info *i, uint64_t full_blocks,
		       struct ss_error *err);

/*
 * One process per array: an exclusive lock on STATE/arrays/NAME.lock for the
 * whole of an apply, undo or replace of it, so that a record found
 * unfinished belongs to a run that is gone (killed, power lost; the kernel
 * drops the lock) and never to one still running. -EBUSY (saying so) when
 * another process holds it; array_unlock(fd) releases it (fd -1: nothing).
 */
int array_lock(const char *state_dir, const char *name, int *fd, struct ss_error *err);
void array_unlock(int fd);

/*
 * A disk's whole capacity in blocks, as the planner takes it: its native
 * max, else its journaled original (a SCSI disk limited by resize reports
 * only its current size), else its current capacity.
 */
uint64_t array_full_blocks(struct ss_ctx *ctx, const struct drive_info *i);

/*
 * Whether the records show disk i as a member of an array other than except
 * (NULL: any): one not undone, where the member was not replaced or
 * restored (the same WWN where both have one, else the same serial). -EPERM
 * with the array's name in err; 0 when none. md marks such a disk in use by
 * its superblock, but only where md wrote one: the records hold for every
 * disk. A record that cannot be read is left out.
 */
int array_member_elsewhere(const char *state_dir, const char *except, const struct drive_info *i,
			   struct ss_error *err);

/*
 * The method auto takes for a member: CAP_AUTO (AMAC, HPA or a SCSI resize,
 * as limit picks them) where the drive has one, else the partition method
 * (a disk behind a controller that blocks them, scsi_debug, an emulated
 * disk), which limit's auto never picks.
 */
enum cap_method array_auto_method(const struct drive_info *i);
/* A method that keeps the drive's size (the partition method): md is given
 * the member's partition (cap_partition_node), not the whole disk. */
bool array_by_partition(enum cap_method m);

/* Can md build this plan's level? RAID 50/60 and 0+1 are nested arrays,
 * which apply does not build (-EOPNOTSUPP with the reason); a host-managed
 * SMR member cannot hold an md array (-EOPNOTSUPP). infos may be NULL. */
int array_level_check(const struct plan *p, const struct drive_info *const *infos,
		      struct ss_error *err);
/* The md level for a plan level ("10" for RAID 10), NULL for none. */
const char *array_md_level(int rp_level);
/* Data-bearing members of the stripe (for the filesystem's alignment). */
unsigned array_data_disks(const char *level, size_t n, unsigned copies);

/* The programs run: $SHORTSTROKE_MDADM or "mdadm", $SHORTSTROKE_MODPROBE or
 * "modprobe" (tests point them at fakes). */
const char *array_mdadm_prog(void);
/* Is prog an executable (a path, or found in $PATH)? */
bool array_prog_found(const char *prog);

/*
 * md on this machine: mdadm present, the md driver (sysroot/proc/mdstat,
 * else `modprobe -n md_mod`) and the level's personality (listed in
 * /proc/mdstat, else `modprobe -n raidN`). -EOPNOTSUPP with the reason.
 */
int array_md_check(const char *sysroot, const char *level, struct ss_error *err);

/* Is the name in use: /dev/md/NAME exists, and when it is a link, the md
 * device it points to is still in sysroot's /sys/block (a stopped array
 * leaves a stale link where no udev removes it)? */
bool array_md_exists(const char *sysroot, const char *name);

/*
 * Run argv[0] with argv (fork/execvp; no shell), stdin /dev/null, stdout and
 * stderr captured into out (NUL-terminated, truncated to len). Returns the
 * exit status (0..255), or a negative errno when it could not run (-ENOENT:
 * not found), with err set on a non-zero status too.
 */
int array_exec(char *const argv[], char *out, size_t len, struct ss_error *err);

/* argv for mdadm --create (pointers into r and nodes; argv has room for
 * 16 + n entries; bufs holds the option strings). */
#define ARRAY_ARGV_MAX (16 + ARRAY_MAX_MEMBERS)
struct array_argv {
	char *argv[ARRAY_ARGV_MAX + 1];
	char buf[16][96];
	size_t n;
};
void array_create_argv(const struct array_rec *r, struct array_argv *a);
/* mkfs.ext4 (-E stride=,stripe_width=) or mkfs.xfs (-d su=,sw=) on the array. */
int array_mkfs_argv(const struct array_rec *r, struct array_argv *a, struct ss_error *err);
/* argv as one line for the user ("mdadm --create /dev/md/fast0 ..."). */
void array_argv_text(const struct array_argv *a, char *buf, size_t len);

/* What `mdadm --detail --export DEV` says. */
struct array_detail {
	char level[16];	   /* MD_LEVEL: "raid10" */
	unsigned devices;  /* MD_DEVICES */
	char uuid[64];	   /* MD_UUID */
	char name[96];	   /* MD_NAME */
	char metadata[16]; /* MD_METADATA */
	char devname[64];  /* MD_DEVNAME */
};
int array_detail_parse(const char *text, struct array_detail *out);
int array_detail_read(const char *md_dev, struct array_detail *out, struct ss_error *err);

/* The md kernel device behind /dev/md/NAME ("md127"), from the link. */
int array_md_kname(const char *md_dev, char *buf, size_t len);
/* sysfs md/ of that device: array_state, sync_action, sync_completed, degraded. */
struct array_sysfs {
	char array_state[32];
	char sync_action[32];
	double sync_fraction; /* -1 when idle */
	int degraded;	      /* -1 unknown */
	char holders[256];    /* what holds the array (LVM, another md), "" none */
};
int array_sysfs_read(const char *sysroot, const char *kname, struct array_sysfs *out);
/* Is the array (by any of its names) mounted (sysroot/proc/self/mounts)? */
bool array_mounted(const char *sysroot, const char *md_dev, const char *kname, char *where,
		   size_t len);
/*
 * What the array's first 8 KiB say it holds for another layer, when no
 * holder shows in sysfs (a volume group not active, an outer md array
 * stopped): "an LVM physical volume" (the LABELONE label in one of the
 * first four sectors) or "an md member" (an md 1.1 or 1.2 superblock);
 * NULL for anything else or when path cannot be read.
 */
const char *array_signature(const char *path);

/* ---- the transaction (apply.c) ------------------------------------------------ */

/* One journal entry per member (event "array-apply", "array-undo", ...):
 * the array's steps are on each disk's record. */
void array_journal(const char *state_dir, const struct array_rec *r, const char *event);
/* Set the state and step and save the record. */
int array_rec_step(const char *state_dir, struct array_rec *r, enum array_state st,
		   const char *step, struct ss_error *err);

/*
 * The devices of a plan's members, in layout order: given names every
 * member, or only the placeholders (plan --disks N), or none (the plan's
 * own devices). -EINVAL with err->usage set when the count does not fit.
 */
int array_bind_members(const struct plan *p, const char *const *given, size_t n_given,
		       const char **specs, struct ss_error *err);

struct array_apply_opts {
	const struct plan *plan;
	const char *plan_path;	    /* recorded (absolute); re-applying it is a no-op */
	const char *const *members; /* NULL: the plan's own devices (array_bind_members) */
	size_t n_members;
	const char *name; /* checked with array_name_check */
	const char *mkfs; /* NULL, "ext4" or "xfs" */
	const char *conf; /* append the ARRAY line there; NULL: into the log */
	enum cap_method method;
	bool dry_run;	 /* every step into the log, nothing sent */
	bool check_only; /* every check a real run makes, then stop */
	bool yes;	 /* confirmed by the caller (no confirm callback needed) */
	bool force;	 /* members in use or protected are allowed */
};

/* Where an apply stopped, for the front end's exit code. */
enum array_apply_stage {
	AAS_INPUT = 0, /* what was given: the binding, a member named twice (usage) */
	AAS_MEMBERS,   /* a member failed its checks or was not confirmed: see m[] */
	AAS_CHECKS,    /* the plan, the name or this machine cannot take it */
	AAS_RUN,       /* the transaction failed and was rolled back (rec.remains: not all) */
	AAS_DONE,      /* applied, already applied, checked, or a dry run */
};

/* How a member's failure before any change counts. */
enum array_refusal {
	AR_BY_RC = 0, /* by its error code (-EPERM refused, err.usage, else failed) */
	AR_REFUSED,   /* refused for safety: in use, protected, not the planned disk */
	AR_FAILED,    /* failed */
};

/* array_member.method of a member a full-stroke plan uses whole: no limit */
#define ARRAY_METHOD_WHOLE "none"

struct array_apply_member {
	struct dev_entry e;
	struct drive *d; /* open while the apply runs */
	bool ready;	 /* passed every check: will be (was) limited */
	bool whole;	 /* a full-stroke plan: used whole, no limit sent */
	int rc;
	enum array_refusal refusal;
	struct ss_error err;
	struct cap_plan plan;
	struct cap_result res;
	char plan_text[512]; /* "member 1, MODEL SERIAL: ... by amac" */
	char result[512];    /* after the limit */
	char *log;	     /* a dry run's commands */
	size_t log_len;
};

struct array_apply_result {
	enum array_apply_stage stage;
	bool already;	      /* applied before from the same plan: nothing done */
	bool changed;	      /* an array was made (or a failed rollback left changes) */
	char why[1024];	      /* a dry run: why a real run would stop ("" none) */
	struct array_rec rec; /* the record (the old one when already applied) */
	size_t n;
	struct array_apply_member m[ARRAY_MAX_MEMBERS];
	char *log; /* what was run and done, one line each */
};

struct array_apply_cb {
	/* a member's limit: progress while it runs (on the caller's thread) */
	void (*member)(void *arg, size_t i, double fraction, const char *phase);
	/* a step starts: "checking the members", "limiting the members",
	 * "mdadm --create", "mkfs", "rolling back", "done" ... */
	void (*step)(void *arg, const char *step);
	/* every check passed, nothing changed yet (a dry run too): show the
	 * plans and get the go-ahead; a member not confirmed gets ready false
	 * and its err set. NULL: opts.yes decides. */
	void (*confirm)(void *arg, struct array_apply_result *res);
	/* news before the transaction (an earlier interrupted apply rolled back) */
	void (*note)(void *arg, const char *text);
	void *arg;
};

/*
 * Apply a plan as one journaled transaction: bind and open the members,
 * check each is safe and the planned disk and that its limit works, check
 * md, the name, mkfs and the conf file, confirm, then limit every member
 * (in parallel), mdadm --create, check what md built, mkfs, the ARRAY line,
 * the record at each step; a failure after the first change rolls back
 * what this run did. Returns 0 (res->stage AAS_DONE) or a negative errno
 * with err filled and res->stage saying where it stopped. res is the
 * caller's (large: allocate it); array_apply_result_fini releases what it
 * holds (the caller frees res itself).
 */
int array_apply(struct ss_ctx *ctx, const struct array_apply_opts *o,
		const struct array_apply_cb *cb, struct array_apply_result *res,
		struct ss_error *err);
void array_apply_result_fini(struct array_apply_result *res);

/*
 * Undo an array: load its record (-ENOENT: no such array) and refuse
 * (-EPERM) when it is mounted or held (LVM, dm, another md), or when the
 * partition of a member by the partition method holds more than md's
 * superblock (a filesystem made in it: its GPT is not the undo's to wipe).
 * An undone
 * array loads fine (r->state AS_UNDONE: nothing to do).
 */
int array_undo_check(struct ss_ctx *ctx, const char *name, struct array_rec *r,
		     struct ss_error *err);
/*
 * Stop the array, wipe its md metadata (mdadm --zero-superblock), restore
 * every member to its journaled original. *log gets what was done (freed
 * with free()). -EIO with err "MD: undo incomplete: ..." and r->remains
 * when something is left. *changed: the record or a member changed.
 */
int array_undo_run(struct ss_ctx *ctx, struct array_rec *r, bool dry_run, char **log, bool *changed,
		   struct ss_error *err);

#endif
