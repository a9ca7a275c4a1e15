/* devices.c - name -> drive, with the safety verdict; and the drive list. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shortstroke/capacity.h"
#include "shortstroke/devices.h"
#include "shortstroke/journal.h"
#include "shortstroke/protect.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sim.h"
#include "shortstroke/sysdisk.h"

void ctx_init(struct ss_ctx *ctx)
{
	const char *v;

	memset(ctx, 0, sizeof(*ctx));
	if ((v = getenv("SHORTSTROKE_RIG")) && *v)
		ctx->rig_file = v;
	if ((v = getenv("SHORTSTROKE_STATE_DIR")) && *v)
		ctx->state_dir = v;
	if ((v = getenv("SHORTSTROKE_SYSROOT")) && *v)
		ctx->sysroot = v;
	if ((v = getenv("SHORTSTROKE_PROTECT_FILE")) && *v) {
		ctx->protect_file = v;
		ctx->protect_origin = "SHORTSTROKE_PROTECT_FILE";
	}
}

void ctx_fini(struct ss_ctx *ctx)
{
	sim_rig_free(ctx->rig);
	ctx->rig = NULL;
	protect_free(ctx->protect);
	ctx->protect = NULL;
}

bool ctx_simulated(const struct ss_ctx *ctx)
{
	return ctx->demo || ctx->rig_file;
}

const char *ctx_state_dir(struct ss_ctx *ctx)
{
	const char *v;

	if (ctx->state_dir)
		return ctx->state_dir;
	if (geteuid() == 0)
		return "/var/lib/shortstroke";
	if ((v = getenv("XDG_STATE_HOME")) && *v)
		snprintf(ctx->state_buf, sizeof(ctx->state_buf), "%s/shortstroke", v);
	else
		snprintf(ctx->state_buf, sizeof(ctx->state_buf), "%s/.local/state/shortstroke",
			 getenv("HOME") ? getenv("HOME") : "/tmp");
	return ctx->state_buf;
}

/* mkdir -p */
static int make_dirs(const char *path, struct ss_error *err)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return ss_error_set(err, -ENAMETOOLONG, "state directory path too long");
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return ss_error_set(err, -errno, "cannot create %s: %s", buf,
					    strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return ss_error_set(err, -errno, "cannot create %s: %s", buf, strerror(errno));
	return 0;
}

int ctx_rig(struct ss_ctx *ctx, struct sim_rig **out, struct ss_error *err)
{
	char dir[PATH_MAX], name[128];
	const char *base;
	int rc;

	*out = NULL;
	if (ctx->rig) {
		*out = ctx->rig;
		return 0;
	}
	if (!ctx_simulated(ctx))
		return ss_error_usage(err, -ENODEV,
				      "no rig of simulated drives: give --demo or --rig FILE");
	if (ctx->demo) {
		snprintf(name, sizeof(name), "demo");
	} else {
		base = strrchr(ctx->rig_file, '/');
		base = base ? base + 1 : ctx->rig_file;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), base);
	}
	snprintf(dir, sizeof(dir), "%s/sim/%s", ctx_state_dir(ctx), name);
	rc = make_dirs(dir, err);
	if (rc)
		return rc;
	if (ctx->demo) {
		rc = sim_rig_demo(dir, &ctx->rig, err);
	} else {
		rc = sim_rig_load_file(ctx->rig_file, dir, &ctx->rig, err);
		if (rc && rc != -ENOMEM)
			ss_error_mark_usage(err); /* the rig file named is wrong */
	}
	if (rc)
		return rc;
	*out = ctx->rig;
	return 0;
}

static const char *protect_path(const struct ss_ctx *ctx)
{
	return ctx->protect_file ? ctx->protect_file : protect_default_path();
}

static int ctx_protect(struct ss_ctx *ctx, struct ss_error *err)
{
	const char *path = protect_path(ctx);
	int rc;

	if (ctx->protect_loaded)
		return 0;
	ctx->protect_missing = false;
	if (access(path, F_OK) < 0 && errno == ENOENT) {
		/* a named file that is not there protects nothing: a typo */
		if (ctx->protect_file && !ctx->protect_editing)
			return ss_error_usage(err, -ENOENT,
					      "%s %s: no such file; nothing would be protected",
					      ctx->protect_origin ? ctx->protect_origin
								  : "protect file",
					      path);
		ctx->protect_missing = true;
	}
	rc = protect_load(path, &ctx->protect, err);
	if (rc) {
		if (rc != -ENOMEM)
			ss_error_mark_usage(err); /* the protect file is the user's to fix */
		if (ctx->protect_file && ctx->protect_origin)
			ss_error_prefix(err, "%s: ", ctx->protect_origin);
		return rc;
	}
	ctx->protect_loaded = true;
	return 0;
}

/* "formatting 42 %", "medium format corrupted", or "" */
static void medium_text(const struct drive_info *i, char *buf, size_t len)
{
	if (i->format == DRIVE_FORMAT_RUNNING && i->format_progress >= 0)
		snprintf(buf, len, "formatting %.0f %%", 100.0 * i->format_progress);
	else if (i->format == DRIVE_FORMAT_RUNNING)
		snprintf(buf, len, "formatting");
	else if (i->format == DRIVE_FORMAT_CORRUPT)
		snprintf(buf, len, "medium format corrupted");
	else
		buf[0] = '\0';
}

static void protect_forget(struct ss_ctx *ctx)
{
	protect_free(ctx->protect);
	ctx->protect = NULL;
	ctx->protect_loaded = false;
}

int ctx_protect_check(struct ss_ctx *ctx, struct ss_error *err)
{
	protect_forget(ctx);
	return ctx_protect(ctx, err);
}

const char *ctx_protect_in_force(struct ss_ctx *ctx)
{
	struct ss_error err = { 0 };

	if (ctx_protect(ctx, &err) || ctx->protect_missing)
		return NULL;
	return protect_path(ctx);
}

void dev_state_text(const struct dev_entry *e, char *buf, size_t len)
{
	static const char *const names[] = { "free", "in-use", "protected", "unknown" };
	char medium[64];

	medium_text(&e->info, medium, sizeof(medium));
	if (medium[0] && e->state == DEV_FREE && !e->why[0])
		snprintf(buf, len, "%s", medium); /* free, but not usable as it is */
	else if (e->why[0])
		snprintf(buf, len, "%s: %s%s%s", names[e->state], e->why, medium[0] ? "; " : "",
			 medium);
	else
		snprintf(buf, len, "%s%s%s", names[e->state], medium[0] ? ", " : "", medium);
}

static void apply_protect(struct ss_ctx *ctx, struct dev_entry *e)
{
	/* the drive's own answer, and what sysfs/udev show (lsblk's view, which
	 * is what people copy into the file; USB bridges may differ) */
	if (!protect_match(ctx->protect, e->info.serial, e->info.wwn) &&
	    !protect_match(ctx->protect, e->sys_serial, e->sys_wwn))
		return;
	e->state = DEV_PROTECTED;
	snprintf(e->why, sizeof(e->why), "listed in %s", protect_path(ctx));
}

/* Limited or not, from the drive or from the journal (a journal that
 * cannot be read tells nothing here; limit and restore report it). */
static void apply_limit(struct ss_ctx *ctx, struct dev_entry *e)
{
	struct journal_entry orig;
	bool have = journal_original(ctx_state_dir(ctx), e->info.serial, e->info.wwn, &orig,
				     NULL) == 0;

	cap_limit_state(&e->info, have ? &orig : NULL, &e->limit);
}

/* The verdict of a usage check, added to what the entry already has. */
static void apply_verdict(struct dev_entry *e, const struct sysdisk_usage *u)
{
	bool label = !(u->mounted || u->system || u->swap || u->held || u->unprobed);
	size_t l;

	if (!u->in_use)
		return;
	if (e->state == DEV_FREE) {
		e->state = DEV_IN_USE;
		e->label_only = label;
		e->why[0] = '\0';
	} else {
		e->label_only = e->label_only && label;
	}
	l = strlen(e->why);
	snprintf(e->why + l, sizeof(e->why) - l, "%s%s", l ? "; " : "", u->reason);
}

/* Mounts, swap, holders, partitions (sysfs); the stand-in node's
 * signatures too under a captured tree, where no command can be sent. */
static void apply_usage(const char *sysroot, const struct sysdisk *sd, bool probe_node,
			struct dev_entry *e)
{
	struct sysdisk_usage u;
	struct ss_error err = { 0 };

	if (sysdisk_in_use(sysroot, sd, probe_node, &u, &err)) {
		e->state = DEV_UNKNOWN;
		snprintf(e->why, sizeof(e->why), "cannot check whether it is in use: %s",
			 err.msg);
		return;
	}
	apply_verdict(e, &u);
}

/* One READ(16) at most: 64 KiB, which every host adapter takes in one
 * command (SG_IO refuses what exceeds a queue's segment or sector limits) */
#define PROBE_CHUNK (64u << 10)

/* Read blocks [lba, lba + n) through the drive into the same offset of fd. */
static int probe_copy(struct drive *d, int fd, uint64_t lba, uint32_t n, uint32_t bs,
		      struct scsi_sense *sense, struct ss_error *err)
{
	uint32_t per = PROBE_CHUNK / bs ? PROBE_CHUNK / bs : 1;
	uint8_t *buf = malloc((size_t)per * bs);
	int rc = 0;

	if (!buf)
		return ss_error_set(err, -ENOMEM, "out of memory");
	for (uint32_t done = 0; done < n && rc == 0; done += per) {
		uint32_t k = n - done < per ? n - done : per;
		size_t len = (size_t)k * bs;
		uint8_t cdb[16];
		unsigned nc = scsi_build_read16(cdb, lba + done, k, false);

		rc = drive_scsi_in(d, cdb, nc, buf, len, NULL, sense, err);
		if (rc == 0 && pwrite(fd, buf, len, (off_t)((lba + done) * bs)) != (ssize_t)len)
			rc = ss_error_set(err, -errno, "cannot keep the blocks read: %s",
					  strerror(errno));
	}
	free(buf);
	return rc;
}

/*
 * Partition tables and signatures, read through the drive like every other
 * command (simulated disks, pass-through and kernel disks alike): the first
 * and last PROBE_SPAN bytes (MBR, GPT and its backup, filesystem and LVM
 * labels, md superblocks at either end) are read with READ(16) into a
 * sparse memfd of the disk's size, which libblkid then probes.
 */
#define PROBE_SPAN (1u << 20)

static void probe_through_drive(struct drive *d, const struct drive_info *i,
				struct sysdisk_usage *u)
{
	uint64_t blocks = i->capacity_blocks;
	uint32_t bs = i->logical_block, n;
	struct ss_error err = { 0 };
	struct scsi_sense sense = { 0 };
	int fd, rc;

	if (!bs || !blocks)
		return; /* nothing to read, nothing to hold a label */
	n = PROBE_SPAN / bs ? PROBE_SPAN / bs : 1;
	if (n > blocks)
		n = (uint32_t)blocks;
	fd = memfd_create("shortstroke-probe", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)(blocks * bs)) < 0) {
		sysdisk_usage_note_unprobed(u, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	rc = probe_copy(d, fd, 0, n, bs, &sense, &err);
	if (rc == 0 && blocks > n)
		rc = probe_copy(d, fd, blocks - n, n, bs, &sense, &err);
	if (rc == 0)
		sysdisk_probe_signatures(fd, u);
	else if (!(sense.valid && sense.asc == 0x31))
		sysdisk_usage_note_unprobed(u, err.msg);
	/* MEDIUM FORMAT CORRUPTED: no block can be read, so none holds data
	 * to lose; only a new format brings the disk back */
	close(fd);
}

/* Signatures read through the drive (see probe_through_drive). */
static void probe_verdict(struct drive *d, struct dev_entry *e)
{
	struct sysdisk_usage u;

	memset(&u, 0, sizeof(u));
	probe_through_drive(d, &e->info, &u);
	apply_verdict(e, &u);
}

static void unprobed_verdict(struct dev_entry *e, const char *why)
{
	struct sysdisk_usage u;

	memset(&u, 0, sizeof(u));
	sysdisk_usage_note_unprobed(&u, why);
	apply_verdict(e, &u);
}

/* What sysfs knows, for disks we cannot (or may not) send commands to. */
static bool captured_tree(const struct ss_ctx *ctx)
{
	return ctx->sysroot && *ctx->sysroot && strcmp(ctx->sysroot, "/");
}

static void entry_from_sysfs(struct dev_entry *e, const struct sysdisk *sd)
{
	snprintf(e->node, sizeof(e->node), "%s", sd->devnode);
	snprintf(e->sys_serial, sizeof(e->sys_serial), "%s", sd->serial);
	snprintf(e->sys_wwn, sizeof(e->sys_wwn), "%s", sd->wwn);
	e->tran_hint = sd->tran_id;
}

static void info_from_sysfs(const struct sysdisk *sd, struct drive_info *i)
{
	memset(i, 0, sizeof(*i));
	snprintf(i->vendor, sizeof(i->vendor), "%s", sd->vendor);
	snprintf(i->model, sizeof(i->model), "%s", sd->model);
	snprintf(i->serial, sizeof(i->serial), "%s", sd->serial);
	snprintf(i->firmware, sizeof(i->firmware), "%s", sd->rev);
	snprintf(i->wwn, sizeof(i->wwn), "%s", sd->wwn);
	i->tran = sd->tran_id;
	i->logical_block = sd->logical_block ? sd->logical_block : 512;
	i->physical_block = sd->physical_block ? sd->physical_block : i->logical_block;
	i->capacity_blocks = sd->size_bytes / i->logical_block;
	i->rpm = sd->rotational ? 0 : 1;
}

static int open_sim(struct ss_ctx *ctx, const char *spec, struct drive **out,
		    struct dev_entry *e, struct ss_error *err)
{
	struct sim_rig *rig;
	struct sim_drive *sd;
	struct transport *t;
	int rc;

	rc = ctx_rig(ctx, &rig, err);
	if (rc) {
		if (rc == -ENODEV)
			return ss_error_usage(
			    err, -ENODEV, "%s names a simulated drive; give --demo or --rig FILE",
			    spec);
		return rc;
	}
	sd = sim_rig_find(rig, spec + 4);
	if (!sd)
		return ss_error_usage(
		    err, -ENOENT, "%s: no such drive in the rig (see 'shortstroke list')", spec);
	rc = transport_open_sim(sd, &t, err);
	if (rc)
		return rc;
	snprintf(t->name, sizeof(t->name), "%s", spec);
	e->sim = true;
	snprintf(e->node, sizeof(e->node), "%s", spec);
	return drive_new(t, TRAN_UNKNOWN, out, err);
}

static int open_real(struct ss_ctx *ctx, const char *spec, bool for_write, struct drive **out,
		     struct dev_entry *e, struct ss_error *err)
{
	struct sysdisk sd;
	struct transport *t;
	int rc;

	rc = sysdisk_lookup(ctx->sysroot, spec, &sd, err);
	if (rc)
		return rc;
	entry_from_sysfs(e, &sd);
	info_from_sysfs(&sd, &e->info);
	apply_usage(ctx->sysroot, &sd, captured_tree(ctx), e);
	if (captured_tree(ctx))
		return ss_error_usage(err, -ENODEV,
				      "%s: is part of the captured tree %s; no commands can be "
				      "sent to it",
				      spec, ctx->sysroot);
	rc = transport_open_sgio(sd.devnode, !for_write, &t, err);
	if (rc)
		return rc;
	snprintf(t->name, sizeof(t->name), "%s", spec);
	return drive_new(t, sd.tran_id, out, err);
}

int device_open(struct ss_ctx *ctx, const char *spec, bool for_write, struct drive **out,
		struct dev_entry *e, struct ss_error *err)
{
	int rc;

	*out = NULL;
	memset(e, 0, sizeof(*e));
	snprintf(e->spec, sizeof(e->spec), "%s", spec);
	if (for_write) {
		/* before a change, the protect file as it is now (a long-lived
		 * TUI must see an entry added since it started) */
		protect_forget(ctx);
	}
	rc = ctx_protect(ctx, err);
	if (rc)
		return rc;
	if (!strncmp(spec, "sim:", 4))
		rc = open_sim(ctx, spec, out, e, err);
	else
		rc = open_real(ctx, spec, for_write, out, e, err);
	if (rc)
		return rc;
	rc = drive_identify(*out, &e->info, err);
	if (rc) {
		drive_free(*out);
		*out = NULL;
		return rc;
	}
	e->identified = true;
	probe_verdict(*out, e);
	apply_protect(ctx, e);
	apply_limit(ctx, e);
	return 0;
}

int device_check_safe(const struct dev_entry *e, bool force, struct ss_error *err)
{
	char state[300];

	if (e->state == DEV_FREE || force)
		return 0;
	dev_state_text(e, state, sizeof(state));
	return ss_error_set(err, -EPERM, "%s: refused, the disk is %s (--force overrides)",
			    e->spec, state);
}

static int list_sim(struct ss_ctx *ctx, struct dev_entry **out, size_t *n, struct ss_error *err)
{
	struct sim_rig *rig;
	struct dev_entry *v;
	unsigned count;
	int rc;

	rc = ctx_rig(ctx, &rig, err);
	if (rc)
		return rc;
	count = sim_rig_count(rig);
	v = calloc(count ? count : 1, sizeof(*v));
	if (!v)
		return ss_error_set(err, -ENOMEM, "out of memory");
	*n = 0;
	for (unsigned i = 0; i < count; i++) {
		char spec[160];
		struct drive *d;
		struct ss_error e2 = { 0 };

		snprintf(spec, sizeof(spec), "sim:%s", sim_drive_id(sim_rig_drive(rig, i)));
		if (device_open(ctx, spec, false, &d, &v[*n], &e2))
			continue; /* a drive that does not answer is not listed */
		drive_free(d);
		(*n)++;
	}
	*out = v;
	return 0;
}

static int list_real(struct ss_ctx *ctx, struct dev_entry **out, size_t *n, struct ss_error *err)
{
	struct sysdisk *disks = NULL;
	struct dev_entry *v;
	size_t count = 0;
	bool captured = captured_tree(ctx);
	int rc;

	rc = sysdisk_enumerate(ctx->sysroot, &disks, &count, err);
	if (rc)
		return rc;
	v = calloc(count ? count : 1, sizeof(*v));
	if (!v) {
		sysdisk_free_list(disks);
		return ss_error_set(err, -ENOMEM, "out of memory");
	}
	*n = 0;
	for (size_t i = 0; i < count; i++) {
		struct dev_entry *e = &v[*n];
		struct transport *t;
		struct drive *d;
		struct ss_error e2 = { 0 };

		if (!disks[i].sgio)
			continue; /* virtio, NVMe: not ours to talk to */
		snprintf(e->spec, sizeof(e->spec), "%s", disks[i].devnode);
		entry_from_sysfs(e, &disks[i]);
		info_from_sysfs(&disks[i], &e->info);
		apply_usage(ctx->sysroot, &disks[i], captured, e);
		if (!captured && transport_open_sgio(disks[i].devnode, true, &t, &e2) == 0) {
			if (drive_new(t, disks[i].tran_id, &d, &e2)) {
				transport_close(t);
			} else if (drive_identify(d, &e->info, &e2) == 0) {
				e->identified = true;
				probe_verdict(d, e);
			} else {
				info_from_sysfs(&disks[i], &e->info);
			}
			drive_free(d);
		}
		if (!e->identified)
			snprintf(e->error, sizeof(e->error), "%s", e2.msg);
		if (!e->identified && !captured)
			unprobed_verdict(e, e2.msg);
		apply_protect(ctx, e);
		apply_limit(ctx, e);
		(*n)++;
	}
	sysdisk_free_list(disks);
	*out = v;
	return 0;
}

int devices_list(struct ss_ctx *ctx, struct dev_entry **out, size_t *n, struct ss_error *err)
{
	int rc;

	*out = NULL;
	*n = 0;
	protect_forget(ctx); /* a listing shows the file as it is now */
	rc = ctx_protect(ctx, err);
	if (rc)
		return rc;
	if (ctx_simulated(ctx))
		return list_sim(ctx, out, n, err);
	return list_real(ctx, out, n, err);
}
