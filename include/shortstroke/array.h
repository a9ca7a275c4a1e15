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
	unsigned rpm;	/* its rotation rate when it joined (0 unknown, 1 solid state) */
	char tran[8];	/* its transport when it joined ("sata", "sas"; "" unknown) */
	char todo[256]; /* what remains to do for it ("" nothing): a member replaced while
			   md still held it, or whose restore failed */
	enum array_mstate state;
};

/* One inner array of a nested level (RAID 50, 60: a RAID 5/6 per group; RAID
 * 0+1: a RAID 0 per stripe set), /dev/md/NAME.K: a name no array can take
 * (array_name_check refuses the dot). */
#define ARRAY_MAX_INNER 32
struct array_inner {
	char md_dev[64]; /* /dev/md/NAME.K */
	char uuid[64];	 /* MD_UUID once created */
};

struct array_rec {
	char name[ARRAY_NAME_MAX + 1];
	char plan[1024]; /* the plan file applied (absolute path) */
	char level[8];	 /* "0", "1", "10", "5", "6"; nested: "50", "60", "0+1" */
	unsigned copies; /* RAID 10, 0+1 */
	uint64_t chunk_bytes;
	char md_dev[64]; /* /dev/md/NAME */
	char uuid[64];	 /* MD_UUID once created */
	char fs[8];	 /* "", "ext4", "xfs" */
	char conf[1024]; /* the file the ARRAY line was appended to (--conf), "" none */
	enum array_state state;
	char step[256];	    /* the step started last, for the user */
	char remains[2048]; /* after a failed rollback: what is left to do */
	char created[32];   /* ISO 8601 UTC */
	size_t n;	    /* members: the layout's slots first, then those replaced */
	struct array_member m[ARRAY_MAX_MEMBERS];
	size_t n_inner; /* nested levels: the inner arrays, in order; 0 for one md device */
	struct array_inner inner[ARRAY_MAX_INNER];
};

/* The layout's slots: the members not replaced (they come first). */
size_t array_slots(const struct array_rec *r);
/* A nested level (RAID 50, 60, 0+1): inner arrays under the array. */
bool array_nested(const struct array_rec *r);
/* md's level of the array itself (nested: the outer RAID 0 or 1) and of
 * its inner arrays (nested: RAID 5, 6 or 0; else the array's). */
const char *array_outer_level(const struct array_rec *r);
const char *array_inner_level(const struct array_rec *r);
/* The md device slot i is a member of: its inner array, or the array. */
const char *array_slot_md(const struct array_rec *r, size_t i);
/* "RAID 10 over 4 members"; nested: "RAID 50 over 6 members: RAID 0 over 2
 * RAID 5 arrays of 3" (the slots, not the members replaced). */
void array_shape_text(const struct array_rec *r, char *buf, size_t len);
/* Fill r->n_inner and the inner arrays' names of a nested level (r->name,
 * r->level, r->copies or groups, r->n set). */
void array_set_inner(struct array_rec *r, unsigned groups);

/* A name md and this program accept: 1..32 of [A-Za-z0-9_-]. */
int array_name_check(const char *name, struct ss_error *err);

/* Load a record; -ENOENT when there is none. */
int array_rec_load(const char *state_dir, const char *name, struct array_rec *out,
		   struct ss_error *err);
/* A record from its text (len bytes; what names it in errors) with the checks
 * array_rec_load makes but the file's name; its text as array_rec_save writes
 * it (malloc'd; NULL: out of memory). */
int array_rec_parse(const char *text, size_t len, const char *what, struct array_rec *out,
		    struct ss_error *err);
char *array_rec_text(const struct array_rec *r);
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

/* The rpm class of a rotation rate: 5400, 7200, 10000 or 15000; 1 for a
 * solid-state disk, 0 unknown. */
unsigned array_rpm_class(double rpm);

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

/* Can md build this plan's level? Every level the planner offers: RAID 50
 * and 60 as a RAID 0 over RAID 5/6 arrays, 0+1 as a RAID 1 over RAID 0
 * arrays; a host-managed SMR member cannot hold an md array (-EOPNOTSUPP).
 * infos may be NULL. */
int array_level_check(const struct plan *p, const struct drive_info *const *infos,
		      struct ss_error *err);
/* The record's level for a plan level ("10", "50", "0+1"), NULL for none. */
const char *array_md_level(int rp_level);
/* Data-bearing members of the stripe (for the filesystem's alignment). */
unsigned array_data_disks(const struct array_rec *r);

/* The programs run: $SHORTSTROKE_MDADM or "mdadm", $SHORTSTROKE_MODPROBE or
 * "modprobe" (tests point them at fakes). */
const char *array_mdadm_prog(void);
/* Is prog an executable (a path, or found in $PATH)? */
bool array_prog_found(const char *prog);

/*
 * md on this machine: mdadm present, the md driver (sysroot/proc/mdstat,
 * else `modprobe -n md_mod`) and the level's personalities (listed in
 * /proc/mdstat, else `modprobe -n raidN`; a nested level needs two).
 * -EOPNOTSUPP with the reason.
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
 * 16 + n entries; bufs holds the option strings): of the array itself
 * (k < 0: its members, or a nested level's inner arrays) or of inner array
 * k of a nested level (its slots). */
#define ARRAY_ARGV_MAX (16 + ARRAY_MAX_MEMBERS)
struct array_argv {
	char *argv[ARRAY_ARGV_MAX + 1];
	char buf[16][96];
	size_t n;
};
void array_create_argv(const struct array_rec *r, int k, struct array_argv *a);
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
/* Is the array (by any of its names, or its device number) mounted
 * (sysroot's mountinfo, libmount)? Its mount point into where. */
bool array_mounted(const char *sysroot, const char *md_dev, const char *kname, char *where,
		   size_t len);
/*
 * What the array says it holds for another layer, when no holder shows in
 * sysfs (a volume group not active, an outer md array stopped): "an LVM
 * physical volume" or "an md member (superblock V)" of any version (0.90
 * and 1.0 at its end, 1.1 and 1.2 at its start), by libblkid's probes; 1
 * with the text in buf, 0 for anything else or when path cannot be read.
 */
int array_signature(const char *path, char *buf, size_t len);

/* ---- the transaction (apply.c) ------------------------------------------------ */

/* One journal entry per member (event "array-apply", "array-undo", ...):
 * the array's steps are on each disk's record. */
void array_journal(const char *state_dir, const struct array_rec *r, const char *event);
/* Set the state and step and save the record. */
int array_rec_step(const char *state_dir, struct array_rec *r, enum array_state st,
		   const char *step, struct ss_error *err);

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

/* ---- replace (replace.c) ---------------------------------------------------- */

struct array_replace_opts {
	const char *name;     /* the array */
	const char *old_spec; /* the member taken out: its device or md's node of it */
	const char *new_spec; /* the disk put in its place */
	bool dry_run;	      /* every step into the log, nothing sent */
	bool yes;	      /* confirmed by the caller (no confirm callback needed) */
	bool force;	      /* a new disk in use or protected, or of another rpm class or
				 transport than the array's members */
	bool wait;	      /* follow md's rebuild to its end, then let the old member go */
};

struct array_replace_result {
	enum array_apply_stage stage; /* where it stopped (AAS_MEMBERS: the new disk refused) */
	bool changed;		      /* a disk, md or the record was changed */
	size_t slot;		      /* the old member's place in the layout */
	char md_dev[64];	      /* the md device the slot belongs to (an inner array) */
	char class_note[256];	      /* --force took a disk of another class: what differs */
	struct array_apply_member m;  /* the new disk: checks, plan, limit */
	struct array_rec rec;	      /* the record (as saved at the end) */
	char *log;		      /* what was run and done (or would be), a line each */
};

struct array_replace_cb {
	/* the new disk's limit: progress while it runs */
	void (*member)(void *arg, size_t i, double fraction, const char *phase);
	/* every check passed, nothing changed yet: show res->m.plan_text and get
	 * the go-ahead (res->m.ready false with its err when not); NULL: yes */
	void (*confirm)(void *arg, struct array_replace_result *res);
	/* --wait: md's state while it rebuilds */
	void (*rebuild)(void *arg, const char *md_dev, const struct array_sysfs *s);
	void *arg;
};

/*
 * Replace member OLD of an array by the disk NEW, as one journaled
 * transaction under the array's lock: NEW is checked as apply checks a
 * member (open, safe, not in another array, block size, room for exactly
 * the members' limit, the same rpm class and transport as the members
 * unless force), limited to the members' limit (OLD's method where NEW has
 * it), then md is given it in OLD's place (mdadm --remove OLD and --add NEW
 * when OLD has failed; --add-spare NEW and --replace OLD --with NEW while
 * it is active), in the inner array OLD belongs to for a nested level. The
 * member taken out is then let go: its md metadata wiped and its capacity
 * restored from the journal; where that cannot be done now (md keeps it as
 * the source of the copy until the rebuild ends, without wait; the drive
 * refuses or is gone) the record keeps it with its todo, which `array
 * status` shows and `array undo` finishes. res is the caller's.
 */
int array_replace(struct ss_ctx *ctx, const struct array_replace_opts *o,
		  const struct array_replace_cb *cb, struct array_replace_result *res,
		  struct ss_error *err);
void array_replace_result_fini(struct array_replace_result *res);

#endif
