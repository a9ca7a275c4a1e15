/* devsrc.h - where drives come from: the device sources (the machine's disks, a rig of
 * simulated drives), each a table of hooks, and the registry that naming, opening and
 * listing drives (src/ops/devices.c) and the I/O engine (src/io) go through. Nothing
 * above a source knows which one a name belongs to.
 *
 * A registry is a struct dev_env: the sources in preference order, checked when added,
 * the options they read (set by the caller) and each source's state (a loaded rig),
 * made on first use and dropped by dev_env_release. The front ends' context holds one
 * (see ctx_sources in devices.h), with the built-in sources of src/ops/devices.c.
 */
#ifndef SHORTSTROKE_DEVSRC_H
#define SHORTSTROKE_DEVSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/transport.h"

#define DEV_SOURCES_MAX 8

/* What a source is: its capability flags */
enum {
	/* its drives are simulated: no kernel node, no host that probes them */
	DEVSRC_SIMULATED = 1u << 0,
	/* it claims every name no other source claims (one source at most; it needs no
	 * claims hook): the kernel's disks, named by a path */
	DEVSRC_ANY_NAME = 1u << 1,
	DEVSRC_ALL = DEVSRC_SIMULATED | DEVSRC_ANY_NAME,
};

/* Why the system says a drive must not be touched, found before anything is sent to it. */
struct dev_usage {
	bool in_use;
	bool label_only;  /* in use only for a partition table or a signature: nothing
				   mounted, held, swapped or the system */
	bool part_data;	  /* a partition holds a filesystem, RAID or LVM signature */
	bool part_not_md; /* ... one that is no md superblock */
	bool unknown;	  /* it could not be checked: in use, to be safe */
	char why[400];	  /* "mounted at /srv; has partitions sdb1", "" */
};

/* One drive of a source, as the source knows it before anything is sent to it. */
struct dev_found {
	char name[256];		/* as named, or as the source lists it: "/dev/sda", "sim:sas15k" */
	char node[256];		/* what the name resolves to ("/dev/sda": by-id links followed);
				   the name itself for a drive without a node */
	enum drive_tran tran;	/* how it is attached, as far as the source knows (TRAN_UNKNOWN:
				   the drive tells) */
	bool mute;		/* no command can be sent to it (a disk of a captured tree): known
				   only by what the system shows */
	bool described;		/* the system describes it: the fields below are set */
	struct drive_info info; /* its identity and size as the system shows them */
	char sys_serial[65];	/* serial and WWN as the system shows them (sysfs, udev) */
	char sys_wwn[65];
	struct dev_usage usage;
	bool volume; /* not a drive but a volume made of drives (a simulated
				   array): only the I/O engine runs on it (see find) */
};

/* What the I/O engine needs to run on a drive (see io_dev_open_name in io.h). */
struct dev_io {
	const char *engine; /* the I/O engine's name: "uring", "sim" */
	const char *path;   /* the node, for an engine that opens one */
	void *drive;	    /* the drive itself, for an engine that runs on one in-process */
	void *array;	    /* or the simulated array (a volume of such drives) */
};

/* A drive's mechanics as its source knows them without asking it (a
 * simulated drive's model): what the planner needs of it. */
struct dev_mechanics {
	double t2t_ms, avg_ms, full_ms; /* seek */
	double outer_mbps, inner_mbps;
	double overhead_ms; /* a read's or write's own time: overhead + every command's */
	unsigned queue_depth;
	bool write_cache; /* on now */
	double cache_mb;  /* 10^6 bytes */
	double link_mbps; /* the host link */
};

/* A SES enclosure a source offers, as it knows it before anything is sent. */
#define DEV_ENCL_LINKS 64
struct dev_encl {
	char name[256]; /* "sim:encl0", "/dev/sg3" */
	char sys[256];	/* its entry in /sys/class/enclosure, "" */
	/* the slots the kernel's enclosure class linked to a disk: the disk's node and the
	 * slot's number (what the kernel matched by SAS address; none in a rig) */
	unsigned nlinks;
	struct {
		char node[64];
		int slot;
	} links[DEV_ENCL_LINKS];
};

struct dev_env;

/*
 * A device source. Hooks return 0 or a negative errno with err filled (a name the user
 * got wrong is a usage error, ss_error_usage); name is a device as the user wrote it.
 */
struct dev_source_ops {
	const char *name; /* required: "kernel", "sim" */
	unsigned caps;	  /* DEVSRC_* */
	/* Whether name is one of its drives' names ("sim:ID"); required unless
	 * DEVSRC_ANY_NAME. At most one source may claim a name. */
	bool (*claims)(const char *name);
	/* Optional: whether env names drives of this source (a rig is given); listing
	 * takes the first active source in preference order. Without it: always. */
	bool (*active)(const struct dev_env *env);
	/* Optional, with unload: make the source's state from env's options (load a rig),
	 * once, on first use (see dev_env_state); unload frees it. */
	int (*load)(const struct dev_env *env, void **state, struct ss_error *err);
	void (*unload)(void *state);
	/* Required: the drives it offers in env; *out is malloc'ed (free(); it may be
	 * NULL when n is 0). */
	int (*list)(struct dev_env *env, struct dev_found **out, size_t *n, struct ss_error *err);
	/* Required: resolve a name to one of its drives, or say why not. Sends nothing.
	 * A volume (a simulated array) is no drive: -EOPNOTSUPP, a usage error saying
	 * what runs on it, with out->name and out->volume set. */
	int (*find)(struct dev_env *env, const char *name, struct dev_found *out,
		    struct ss_error *err);
	/* Required: a transport to a drive find or list gave (read-only unless for_write). */
	int (*open)(struct dev_env *env, const struct dev_found *f, bool for_write,
		    struct transport **out, struct ss_error *err);
	/* Optional: the serial number and WWN of a drive list gave, from what the
	 * source keeps of it, sending nothing (a simulated drive's rig record);
	 * out->serial and out->wwn set, the rest zero. 0, or a negative errno. */
	int (*ids)(struct dev_env *env, const struct dev_found *f, struct drive_info *out);
	/* Optional: the mechanics of the drive name (a simulated drive's model),
	 * sending nothing. 0, or a negative errno (-ENOENT: no such drive). */
	int (*mechanics)(struct dev_env *env, const char *name, struct dev_mechanics *out);
	/* Required: what the I/O engine needs to run on the drive name. */
	int (*io)(struct dev_env *env, const char *name, struct dev_io *out, struct ss_error *err);
	/* Optional: the drives a volume is made of, as list gives them (*out
	 * malloc'ed). -EOPNOTSUPP when name is no volume. */
	int (*members)(struct dev_env *env, const char *name, struct dev_found **out, size_t *n,
		       struct ss_error *err);
	/* Optional: power the drive name off and on and keep its state (simulated drives).
	 * With check, only whether it could: 0, or -ENOENT for no such drive. With name
	 * NULL (and check), whether the source has drives it can power-cycle in env. */
	int (*power_cycle)(struct dev_env *env, const char *name, bool check, struct ss_error *err);
	/* Optional, both or neither: the SES enclosures it offers (*out malloc'ed, NULL
	 * when n is 0), and a transport to one of them. */
	int (*enclosures)(struct dev_env *env, struct dev_encl **out, size_t *n,
			  struct ss_error *err);
	int (*open_encl)(struct dev_env *env, const struct dev_encl *e, struct transport **out,
			 struct ss_error *err);
};

struct dev_env {
	/* the options sources read; the caller sets them (ops: from struct ss_ctx) */
	const char *rig_file;  /* a rig of simulated drives (JSON) */
	bool demo;	       /* the built-in demo rig */
	const char *state_dir; /* where sources keep state */
	const char *sysroot;   /* NULL or "/": the running system; else a captured tree */
	/* the registry: sources in preference order, and each one's state */
	unsigned n;
	const struct dev_source_ops *src[DEV_SOURCES_MAX];
	void *state[DEV_SOURCES_MAX];
};

/* Add a source (after the others): refused (-EINVAL) without a name, without a required
 * hook, with unknown capability bits or load without unload; -EEXIST for a name taken or
 * a second DEVSRC_ANY_NAME source; -ENOSPC past DEV_SOURCES_MAX. */
int dev_env_add(struct dev_env *env, const struct dev_source_ops *ops, struct ss_error *err);

/* The one source a name belongs to: the source that claims it, else the DEVSRC_ANY_NAME
 * one. -EINVAL when two claim it, -ENOENT when none does. */
int dev_env_source(const struct dev_env *env, const char *name, const struct dev_source_ops **out,
		   struct ss_error *err);

/* The source whose drives a listing shows: the first active one, or NULL. */
const struct dev_source_ops *dev_env_listed(const struct dev_env *env);

/* A source's state, made by its load hook on first use (any thread may ask; a slow load
 * keeps no other registry waiting). *out is NULL for a source without load. -ENOENT when
 * src is not in env. */
int dev_env_state(struct dev_env *env, const struct dev_source_ops *src, void **out,
		  struct ss_error *err);

/* Free every source's state: the next use loads it again (a rig re-read from its state
 * directory). Nothing may use what a source gave (a transport, a drive) after this. */
void dev_env_release(struct dev_env *env);

#endif
