/* devices.h - finding and opening the drives a user names, with the safety
 * verdict (free / in use / protected) worked out before anything is sent. */
#ifndef SHORTSTROKE_DEVICES_H
#define SHORTSTROKE_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/drive.h"
#include "shortstroke/error.h"

struct sim_rig;
struct protect_list;

/* Where drives come from and where state lives. Filled from the
 * environment (SHORTSTROKE_RIG, SHORTSTROKE_STATE_DIR, SHORTSTROKE_SYSROOT,
 * SHORTSTROKE_PROTECT_FILE) by ctx_init, then from options. */
struct ss_ctx {
	const char *rig_file;	/* a rig of simulated drives (JSON) */
	bool demo;		/* the built-in demo rig */
	const char *state_dir;	/* NULL: the default (see ctx_state_dir) */
	const char *sysroot;	/* NULL: the running system */
	const char *protect_file; /* NULL: /etc/shortstroke/protect.conf */
	bool verbose;

	/* loaded lazily */
	struct sim_rig *rig;
	struct protect_list *protect;
	bool protect_loaded;
	char state_buf[4096];
};

void ctx_init(struct ss_ctx *ctx);
void ctx_fini(struct ss_ctx *ctx);
/* True when drives come from a rig (demo or --rig) rather than the system. */
bool ctx_simulated(const struct ss_ctx *ctx);
/* The state directory: --state-dir, $SHORTSTROKE_STATE_DIR, /var/lib/shortstroke
 * for root, else $XDG_STATE_HOME/shortstroke or ~/.local/state/shortstroke. */
const char *ctx_state_dir(struct ss_ctx *ctx);
/* Load the rig if the context names one (sim state under <state>/sim/<name>). */
int ctx_rig(struct ss_ctx *ctx, struct sim_rig **out, struct ss_error *err);

enum dev_state {
	DEV_FREE = 0,
	DEV_IN_USE,
	DEV_PROTECTED,
	DEV_UNKNOWN,	/* could not be checked: treated as in use */
};

struct dev_entry {
	char spec[256];		/* as named: "/dev/sda", "sim:sas15k" */
	char node[256];		/* resolved: "/dev/sda" (by-id links followed) */
	bool sim;
	enum dev_state state;
	char why[256];		/* reason for IN_USE / PROTECTED / UNKNOWN */
	bool label_only;	/* IN_USE only for a partition table or signature:
				   nothing mounted, held, swapped or the system */
	enum drive_tran tran_hint;	/* from sysfs for real disks */
	char sys_serial[65];	/* serial and WWN as sysfs/udev show them */
	char sys_wwn[65];
	bool identified;
	struct drive_info info;
	char error[512];	/* why it could not be identified */
};

/* "free", "in-use: mounted at /srv", "protected: serial in protect.conf";
 * a SCSI disk's medium when it is not ready: "formatting 42 %", "medium
 * format corrupted" */
void dev_state_text(const struct dev_entry *e, char *buf, size_t len);

/*
 * Every drive we can talk to: the rig's drives when the context is
 * simulated, else the machine's SCSI/ATA disks. Each is identified with
 * read-only commands and given its safety state. Disks that cannot be
 * talked to are left out. *out is freed with free().
 */
int devices_list(struct ss_ctx *ctx, struct dev_entry **out, size_t *n, struct ss_error *err);

/*
 * Resolve, validate and open one named device: "sim:<id>" (needs a rig),
 * a /dev path or /dev/disk/by-id link. Bad names (unknown, a partition, a
 * file, a loop or virtio disk) fail with one clear line and nothing sent.
 * The entry gets the safety state; for_write opens read-write. The caller
 * decides whether to refuse (see device_check_safe).
 */
int device_open(struct ss_ctx *ctx, const char *spec, bool for_write, struct drive **out,
		struct dev_entry *entry, struct ss_error *err);

/* -EPERM with a message when the entry is protected or in use and force is
 * false; 0 otherwise. */
int device_check_safe(const struct dev_entry *e, bool force, struct ss_error *err);

#endif
