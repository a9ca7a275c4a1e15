/* devices.h - finding and opening the drives a user names, with the safety
 * verdict (free / in use / protected) worked out before anything is sent. */
#ifndef SHORTSTROKE_DEVICES_H
#define SHORTSTROKE_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/devsrc.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/progress.h"

struct protect_list;
struct ss_config;

/* Where drives come from and where state lives. Filled from the
 * environment (SHORTSTROKE_RIG, SHORTSTROKE_STATE_DIR, SHORTSTROKE_SYSROOT,
 * SHORTSTROKE_PROTECT_FILE) by ctx_init, then from the configuration file
 * (ctx_load_config: what neither the environment nor an option set), then
 * from options. */
struct ss_ctx {
	const char *rig_file;	    /* a rig of simulated drives (JSON) */
	bool demo;		    /* the built-in demo rig */
	const char *state_dir;	    /* NULL: the default (see ctx_state_dir) */
	const char *sysroot;	    /* NULL: the running system */
	const char *protect_file;   /* NULL: /etc/shortstroke/protect.conf */
	const char *protect_origin; /* who named protect_file: "--protect-file",
				       "SHORTSTROKE_PROTECT_FILE", "FILE: protect_file" */
	struct ss_config *config;   /* the configuration file read (ctx_load_config) */
	bool verbose;

	/* loaded lazily */
	struct dev_env sources; /* the device sources and their state (ctx_sources) */
	struct protect_list *protect;
	bool protect_loaded;
	bool protect_missing; /* the file does not exist */
	bool protect_editing; /* 'protect' edits (creates) the file: a named
				   file may be missing */
	char state_buf[4096];
};

void ctx_init(struct ss_ctx *ctx);
/*
 * Read the configuration file ($SHORTSTROKE_CONFIG, else
 * /etc/shortstroke/shortstroke.conf, config.h) and take from it what the
 * environment did not set; options set after this call win. A missing
 * default file sets nothing; a file $SHORTSTROKE_CONFIG names must exist.
 * -EINVAL (marked usage) for a file that does not parse.
 */
int ctx_load_config(struct ss_ctx *ctx, struct ss_error *err);
/* A context with src's options (where drives come from, the state
 * directory, the protect file), nothing loaded yet: what a job thread works
 * with, so that no context serves two threads at once. ctx_fini it. */
void ctx_init_copy(struct ss_ctx *ctx, const struct ss_ctx *src);
void ctx_fini(struct ss_ctx *ctx);
/* The state directory: --state-dir, $SHORTSTROKE_STATE_DIR, /var/lib/shortstroke
 * for root, else $XDG_STATE_HOME/shortstroke or ~/.local/state/shortstroke. */
const char *ctx_state_dir(struct ss_ctx *ctx);
/*
 * Load the protect file now, to refuse a bad one before anything is sent: a
 * file named by --protect-file or SHORTSTROKE_PROTECT_FILE must exist and be
 * readable (-ENOENT, -EACCES ...); any file there must parse (-EINVAL). A
 * missing default file is no error: nothing is protected then.
 */
int ctx_protect_check(struct ss_ctx *ctx, struct ss_error *err);
/* The protect file in force, or NULL when there is none (the default file
 * does not exist). Loads it if needed. */
const char *ctx_protect_in_force(struct ss_ctx *ctx);
/* Whether to say that no protect file is in force: with --verbose always,
 * else once per boot (the kernel's boot id, kept in STATE/protect-note;
 * a state directory that cannot be written: every time). */
bool ctx_protect_note_due(struct ss_ctx *ctx);
/*
 * The device sources (devsrc.h) with the context's options: a rig of
 * simulated drives (src/sim, its state under <state>/sim/<name>), then the
 * machine's disks (src/sys). What the I/O engine opens a drive through
 * (io_dev_open_name); sources load their state (a rig) on first use.
 */
struct dev_env *ctx_sources(struct ss_ctx *ctx);
/* Forget what the sources loaded (a rig): the next use reads it again from
 * the state directory, with what other processes changed. Nothing opened
 * from them may be in use. */
void ctx_sources_release(struct ss_ctx *ctx);

/*
 * Whether a disk is limited, by what, and its capacity before: what the
 * drive reports where it can (an ATA native max above the accessible one,
 * a DCO maximum above the native one), else the journal's open record (a
 * SCSI resize or format, the partition method), checked against the drive.
 */
struct dev_limit {
	bool limited;
	bool from_journal;	  /* the drive cannot tell: the journal's record */
	char method[24];	  /* the method's name (struct cap_method_ops), "" none */
	uint64_t original_blocks; /* the full capacity, before any limit */
	uint64_t limit_blocks;	  /* what is in use now (the partition, for "partition") */
	bool volatile_;		  /* a volatile HPA (the journal's newest record says so):
				   a power cycle undoes it */
};

enum dev_state {
	DEV_FREE = 0,
	DEV_IN_USE,
	DEV_PROTECTED,
	DEV_UNKNOWN, /* could not be checked: treated as in use */
};

struct dev_entry {
	char spec[256]; /* as named: "/dev/sda", "sim:sas15k" */
	char node[256]; /* resolved: "/dev/sda" (by-id links followed) */
	bool sim;
	enum dev_state state;
	char why[256];		   /* reason for IN_USE / PROTECTED / UNKNOWN */
	bool label_only;	   /* IN_USE only for a partition table or signature:
				   nothing mounted, held, swapped or the system */
	bool part_data;		   /* a partition holds a filesystem, RAID or LVM
				   signature (what the partition table is for) */
	bool part_not_md;	   /* ... one that is no md superblock */
	enum drive_tran tran_hint; /* from sysfs for real disks */
	char sys_serial[65];	   /* serial and WWN as sysfs/udev show them */
	char sys_wwn[65];
	bool identified;
	struct drive_info info;
	struct dev_limit limit; /* worked out when identified */
	char error[512];	/* why it could not be identified */
	bool volume;		/* no drive but a volume of drives (a simulated array):
				   device_open refused it, the I/O engine runs on it */
};

/* "free", "in-use: mounted at /srv", "protected: serial in protect.conf";
 * a SCSI disk's medium when it is not ready: "formatting 42 %", "medium
 * format corrupted" */
void dev_state_text(const struct dev_entry *e, char *buf, size_t len);

/*
 * Every drive we can talk to, from the first device source the context
 * makes active: the rig's drives when it names one, else the machine's
 * SCSI/ATA disks. Each is identified with read-only commands and given its
 * safety state. A drive that does not answer is listed with its error when
 * the system describes it (a kernel disk), else left out. *out is freed
 * with free().
 */
int devices_list(struct ss_ctx *ctx, struct dev_entry **out, size_t *n, struct ss_error *err);
/* The same with progress: "scanning 2/6 drives" and the fraction into sink
 * before each drive is identified, and -ECANCELED between two drives once
 * sink says stop (sink NULL: neither). */
int devices_list_progress(struct ss_ctx *ctx, const struct progress_sink *sink,
			  struct dev_entry **out, size_t *n, struct ss_error *err);

/*
 * Resolve, validate and open one named device through the device source
 * it belongs to: "sim:<id>" (needs a rig), a /dev path or /dev/disk/by-id
 * link. Bad names (unknown, a partition, a
 * file, a loop or virtio disk) fail with one clear line and nothing sent.
 * The entry gets the safety state; for_write opens read-write. The caller
 * decides whether to refuse (see device_check_safe).
 */
int device_open(struct ss_ctx *ctx, const char *spec, bool for_write, struct drive **out,
		struct dev_entry *entry, struct ss_error *err);

/* Whether spec names a drive of a device source, sending nothing to it: 0,
 * or device_open's error for a bad name (unknown, a partition, a real device
 * with --demo; a usage error). For commands that check every name before
 * they read or change any disk. */
int device_lookup(struct ss_ctx *ctx, const char *spec, struct ss_error *err);

/* Whether e names the disk first names already (/dev/sdb and its
 * /dev/disk/by-id link, or two links: the same node, the same WWN, or with
 * no WWN the same model and serial), both identified: then err says so, as
 * a usage error ("name each disk once"). A disk named twice in one command
 * would get two jobs at once, the second refused by the first one's lock. */
bool device_named_twice(const struct dev_entry *first, const struct dev_entry *e,
			struct ss_error *err);

/*
 * Before a change the journal records: -EPERM, naming the other disk, when
 * another attached disk of its source has the entry's serial number and one
 * of the two has no WWN (disks behind USB bridges): the journal,
 * keyed by serial, would give one disk's records to the other. The other
 * disks are known by what their source keeps of them (device_other_match),
 * so nothing is sent to them. 0 when force, or when none does.
 */
int device_check_serial(struct ss_ctx *ctx, const struct dev_entry *e, bool force,
			struct ss_error *err);

/*
 * The first other drive of e's source whose serial and WWN match() takes,
 * known by what the source keeps of it (sysfs as udev has it, a simulated
 * drive's rig record: the ids hook), never by a command: nothing is sent to
 * a drive the user did not name. Drives whose identity cannot be had so are
 * passed over. 1 with its name (and ids, when not NULL) filled, 0 when none
 * matches, or a negative errno with err filled.
 */
typedef bool (*dev_ids_fn)(void *arg, const struct drive_info *ids);
int device_other_match(struct ss_ctx *ctx, const struct dev_entry *e, dev_ids_fn match, void *arg,
		       char *name, size_t len, struct drive_info *ids, struct ss_error *err);

/* -EPERM with a message when the entry is protected or in use and force is
 * false; 0 otherwise. */
int device_check_safe(const struct dev_entry *e, bool force, struct ss_error *err);

/*
 * Before writing to a volume (device_open said entry->volume: a simulated
 * array): every member opened for writing and checked as device_check_safe
 * checks a drive. 0; -EPERM naming the member that is protected or in use
 * (unless force); or why a member could not be opened.
 */
int device_volume_check(struct ss_ctx *ctx, const char *spec, bool force, struct ss_error *err);

/*
 * Power a drive off and on, keeping its state (simulated drives; its source
 * must have the hook). -EOPNOTSUPP when its source cannot, -ENOENT when it
 * has no such drive. With check, only whether it could. With spec NULL (and
 * check): whether the context has drives that can be power-cycled (0, or
 * why not: "no rig of simulated drives ...").
 */
int device_power_cycle(struct ss_ctx *ctx, const char *spec, bool check, struct ss_error *err);

/* The mechanics of the drive spec as its source models them, sending nothing
 * (a simulated drive's); false for a drive whose source has no model of it
 * (a kernel disk: the planner then takes its class's). */
bool device_mechanics(struct ss_ctx *ctx, const char *spec, struct dev_mechanics *out);

#endif
