/* devices.c - name -> drive through the device sources (devsrc.h), with the safety
 * verdict; and the drive list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shortstroke/capacity.h"
#include "shortstroke/config.h"
#include "shortstroke/devices.h"
#include "shortstroke/fileio.h"
#include "shortstroke/journal.h"
#include "shortstroke/protect.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sim.h"
#include "shortstroke/sysdisk.h"

/* The device sources, in preference order (a rig stands in for the machine's
 * disks). A new source: its file in its folder, and a line here. */
static const struct dev_source_ops *const sources[] = {
	&sim_dev_source,    /* a rig of simulated drives, sim:ID (src/sim/sim_source.c) */
	&kernel_dev_source, /* the machine's disks, by path (src/sys/kernel_source.c) */
};

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

int ctx_load_config(struct ss_ctx *ctx, struct ss_error *err)
{
	const char *v = getenv("SHORTSTROKE_CONFIG");
	bool named = v && *v;
	struct ss_config *cfg = calloc(1, sizeof(*cfg));
	int rc;

	if (!cfg)
		return ss_error_nomem(err);
	rc = config_load(named ? v : CONFIG_DEFAULT_PATH, named, cfg, err);
	if (rc) {
		free(cfg);
		return named ? ss_error_prefix(err, "SHORTSTROKE_CONFIG: ") : rc;
	}
	free(ctx->config);
	ctx->config = cfg;
	if (!ctx->state_dir && cfg->state_dir[0])
		ctx->state_dir = cfg->state_dir;
	if (!ctx->protect_file && cfg->protect_file[0]) {
		ctx->protect_file = cfg->protect_file;
		ctx->protect_origin = cfg->protect_origin;
	}
	return 0;
}

void ctx_init_copy(struct ss_ctx *ctx, const struct ss_ctx *src)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->rig_file = src->rig_file;
	ctx->demo = src->demo;
	ctx->state_dir = src->state_dir;
	ctx->sysroot = src->sysroot;
	ctx->protect_file = src->protect_file;
	ctx->protect_origin = src->protect_origin;
	ctx->verbose = src->verbose;
}

void ctx_fini(struct ss_ctx *ctx)
{
	dev_env_release(&ctx->sources);
	protect_free(ctx->protect);
	ctx->protect = NULL;
	free(ctx->config);
	ctx->config = NULL;
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

struct dev_env *ctx_sources(struct ss_ctx *ctx)
{
	struct dev_env *env = &ctx->sources;

	if (!env->n) /* the first use: the table (test_devsrc checks that each entry is taken) */
		for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
			dev_env_add(env, sources[i], NULL);
	env->rig_file = ctx->rig_file;
	env->demo = ctx->demo;
	env->state_dir = ctx_state_dir(ctx);
	env->sysroot = ctx->sysroot;
	return env;
}

void ctx_sources_release(struct ss_ctx *ctx)
{
	dev_env_release(&ctx->sources);
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
			return ss_error_usage(
			    err, -ENOENT, "%s %s: no such file; nothing would be protected",
			    ctx->protect_origin ? ctx->protect_origin : "protect file", path);
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

bool ctx_protect_note_due(struct ss_ctx *ctx)
{
	char id[64] = "", seen[64] = "", path[4200];
	FILE *f;

	if (ctx->verbose)
		return true;
	f = fopen("/proc/sys/kernel/random/boot_id", "re");
	if (!f)
		return true;
	if (!fgets(id, sizeof(id), f))
		id[0] = '\0';
	fclose(f);
	snprintf(path, sizeof(path), "%s/protect-note", ctx_state_dir(ctx));
	f = fopen(path, "re");
	if (f) {
		if (!fgets(seen, sizeof(seen), f))
			seen[0] = '\0';
		fclose(f);
	}
	if (id[0] && !strcmp(id, seen))
		return false;
	/* said now: not again this boot (a state directory that cannot be
	 * written says it every time) */
	if (id[0] && file_mkdirs(ctx_state_dir(ctx), NULL) == 0)
		file_write_atomic(path, id, strlen(id), 0644, "the protect note's mark", NULL);
	return true;
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
	struct journal_entry orig, last;
	bool have = journal_original(ctx_state_dir(ctx), e->info.serial, e->info.wwn, &orig,
				     NULL) == 0;

	cap_limit_state(&e->info, have ? &orig : NULL, &e->limit);
	e->limit.volatile_ = have &&
			     !journal_last(ctx_state_dir(ctx), e->info.serial, e->info.wwn, &last,
					   NULL) &&
			     cap_limit_volatile(&e->info, &e->limit, &last);
}

/* The verdict of a usage check, added to what the entry already has. */
static void apply_verdict(struct dev_entry *e, const struct dev_usage *u)
{
	size_t l;

	if (u->unknown) {
		e->state = DEV_UNKNOWN;
		snprintf(e->why, sizeof(e->why), "%s", u->why);
		return;
	}
	if (!u->in_use)
		return;
	if (e->state == DEV_FREE) {
		e->state = DEV_IN_USE;
		e->label_only = u->label_only;
		e->why[0] = '\0';
	} else {
		e->label_only = e->label_only && u->label_only;
	}
	e->part_data |= u->part_data;
	e->part_not_md |= u->part_not_md;
	l = strlen(e->why);
	snprintf(e->why + l, sizeof(e->why) - l, "%s%s", l ? "; " : "", u->why);
}

/* The same for what the system found (sysfs, libblkid). */
static void apply_sys_verdict(struct dev_entry *e, const struct sysdisk_usage *u)
{
	struct dev_usage du;

	sysdisk_usage_verdict(u, &du);
	apply_verdict(e, &du);
}

/* One READ(16) at most: 64 KiB, which every host adapter takes in one
 * command (SG_IO refuses what exceeds a queue's segment or sector limits) */
#define PROBE_CHUNK (64u << 10)

/* The reads of one probe: where they go, and how the last one failed. */
struct probe {
	struct drive *d;
	int fd; /* a sparse copy of the disk's blocks */
	uint32_t bs;
	uint64_t blocks;
	struct scsi_sense sense; /* of a read the drive refused */
	bool lost;		 /* a read got no answer: the drive is gone or hung */
	struct ss_error err;
};

static bool all_zero(const uint8_t *buf, size_t len)
{
	return len == 0 || (buf[0] == 0 && !memcmp(buf, buf + 1, len - 1));
}

/* Read blocks [lba, lba + n) through the drive into the same offset of fd. */
static int probe_copy(struct probe *p, uint64_t lba, uint32_t n)
{
	uint32_t per = PROBE_CHUNK / p->bs ? PROBE_CHUNK / p->bs : 1;
	uint8_t *buf = malloc((size_t)per * p->bs);
	int rc = 0;

	if (!buf)
		return ss_error_nomem(&p->err);
	for (uint32_t done = 0; done < n && rc == 0; done += per) {
		uint32_t k = n - done < per ? n - done : per;
		struct xcmd x;

		drive_build_rw(p->d, &x, false, lba + done, k, false);
		x.data = buf;
		x.data_len = (size_t)k * p->bs;
		rc = drive_rw(p->d, &x, &p->sense, &p->err);
		/* no status and no sense: the transport could not deliver it */
		p->lost = rc && x.status == SCSI_STATUS_GOOD && !p->sense.valid;
		/* blocks of zeros are the memfd's holes already: not written (a blank
		 * disk's 2 MiB would be as many pages made and zeroed) */
		if (rc == 0 && !all_zero(buf, x.data_len) &&
		    pwrite(p->fd, buf, x.data_len, (off_t)((lba + done) * p->bs)) !=
			(ssize_t)x.data_len)
			rc = ss_error_set(&p->err, -errno, "cannot keep the blocks read: %s",
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
 * sparse memfd of the disk's size, then the first and last PROBE_SPAN bytes
 * of each partition the table there names (what a partition holds: a
 * filesystem, an md superblock), which libblkid then probes.
 */
#define PROBE_SPAN (1u << 20)

/* The first and last PROBE_SPAN bytes of blocks [first, first + count). */
static int probe_ends(struct probe *p, uint64_t first, uint64_t count)
{
	uint64_t n = PROBE_SPAN / p->bs ? PROBE_SPAN / p->bs : 1;
	int rc;

	if (n > count)
		n = count;
	rc = probe_copy(p, first, (uint32_t)n);
	if (rc == 0 && count > n)
		rc = probe_copy(p, first + count - n, (uint32_t)n);
	return rc;
}

/* The ends of each partition the table read so far names (within the disk). */
static int probe_partitions(struct probe *p)
{
	struct sysdisk_part part[SYSDISK_PROBE_PARTS];
	size_t n = sysdisk_probe_partitions(p->fd, p->bs, part, SYSDISK_PROBE_PARTS);
	int rc = 0;

	for (size_t k = 0; k < n && k < SYSDISK_PROBE_PARTS && rc == 0; k++) {
		uint64_t first = part[k].start / p->bs, count = part[k].size / p->bs;

		if (first >= p->blocks || !count)
			continue;
		if (count > p->blocks - first)
			count = p->blocks - first;
		rc = probe_ends(p, first, count);
	}
	return rc;
}

/* NOT READY, DEPOPULATION (RESTORATION) IN PROGRESS: the drive erases itself */
static bool erasing(const struct scsi_sense *s)
{
	return s->key == SK_NOT_READY && s->asc == 0x04 && (s->ascq == 0x24 || s->ascq == 0x25);
}

/* What the probe found, into u; a drive that stopped answering is no
 * verdict but a failure: its error, with err filled. */
static int probe_through_drive(struct drive *d, const struct drive_info *i, struct sysdisk_usage *u,
			       struct ss_error *err)
{
	struct probe p = { .d = d, .bs = i->logical_block, .blocks = i->capacity_blocks };
	int rc;

	if (!p.bs || !p.blocks)
		return 0; /* nothing to read, nothing to hold a label */
	p.fd = memfd_create("shortstroke-probe", MFD_CLOEXEC);
	if (p.fd < 0 || ftruncate(p.fd, (off_t)(p.blocks * p.bs)) < 0) {
		sysdisk_usage_note_unprobed(u, strerror(errno));
		if (p.fd >= 0)
			close(p.fd);
		return 0;
	}
	rc = probe_ends(&p, 0, p.blocks);
	if (rc == 0)
		rc = probe_partitions(&p);
	if (rc == 0)
		sysdisk_probe_signatures(p.fd, p.bs, u);
	else if (p.lost)
		ss_error_set(err, rc, "%s (reading its labels, to check whether it is in use)",
			     p.err.msg);
	else if (!(p.sense.valid && (p.sense.asc == 0x31 || erasing(&p.sense))))
		sysdisk_usage_note_unprobed(u, p.err.msg);
	/* MEDIUM FORMAT CORRUPTED: no block can be read, so none holds data
	 * to lose; only a new format brings the disk back. A depopulation or a
	 * restoration of elements under way erases the disk itself. */
	close(p.fd);
	return p.lost ? rc : 0;
}

/* Signatures read through the drive (see probe_through_drive). */
static int probe_verdict(struct drive *d, struct dev_entry *e, struct ss_error *err)
{
	struct sysdisk_usage u;
	int rc;

	memset(&u, 0, sizeof(u));
	rc = probe_through_drive(d, &e->info, &u, err);
	if (rc == 0)
		apply_sys_verdict(e, &u);
	return rc;
}

static void unprobed_verdict(struct dev_entry *e, const char *why)
{
	struct sysdisk_usage u;

	memset(&u, 0, sizeof(u));
	sysdisk_usage_note_unprobed(&u, why);
	apply_sys_verdict(e, &u);
}

/* What the source knew before anything was sent: node, attachment, and for a
 * disk the system describes its identity and whether it is in use. */
static void entry_from_found(struct dev_entry *e, const struct dev_source_ops *src,
			     const struct dev_found *f)
{
	snprintf(e->node, sizeof(e->node), "%s", f->node);
	e->sim = src->caps & DEVSRC_SIMULATED;
	e->tran_hint = f->tran;
	if (!f->described)
		return;
	e->info = f->info;
	snprintf(e->sys_serial, sizeof(e->sys_serial), "%s", f->sys_serial);
	snprintf(e->sys_wwn, sizeof(e->sys_wwn), "%s", f->sys_wwn);
	apply_verdict(e, &f->usage);
}

/* A drive over the source's transport, named as the user (or the listing) named it. */
static int open_found(struct dev_env *env, const struct dev_source_ops *src,
		      const struct dev_found *f, bool for_write, struct drive **out,
		      struct ss_error *err)
{
	struct transport *t;
	int rc;

	*out = NULL;
	rc = src->open(env, f, for_write, &t, err);
	if (rc)
		return rc;
	snprintf(t->name, sizeof(t->name), "%s", f->name);
	rc = drive_new(t, f->tran, out, err);
	if (rc)
		transport_close(t);
	return rc;
}

/* --demo reads as a sandbox: while simulated drives are the ones listed (a
 * rig is given), a real disk is never reached through a name. */
static int sandboxed(const struct ss_ctx *ctx, const struct dev_env *env,
		     const struct dev_source_ops *src, const char *spec, struct ss_error *err)
{
	const struct dev_source_ops *listed = dev_env_listed(env);

	if (!listed || !(listed->caps & DEVSRC_SIMULATED) || (src->caps & DEVSRC_SIMULATED))
		return 0;
	return ss_error_usage(err, -ENODEV,
			      "%s names a real device, but %s is given (simulated drives, "
			      "sim:ID); drop it to act on real disks",
			      spec, ctx->demo ? "--demo" : "--rig (or SHORTSTROKE_RIG)");
}

/* A name holding a control character (a newline, an escape) is refused:
 * printed in a message it could forge a line of output. */
static int name_printable(const char *what, const char *name, struct ss_error *err)
{
	char esc[300];

	if (!ss_text_control(name))
		return 0;
	return ss_error_usage(err, -EINVAL,
			      "%s '%s' holds a control character; give it without one", what,
			      ss_text_escape(name, esc, sizeof(esc)));
}

/* The source of a name and what it knows of it, sending nothing. */
static int find_spec(struct ss_ctx *ctx, const char *spec, const struct dev_source_ops **src,
		     struct dev_found *f, struct ss_error *err)
{
	struct dev_env *env = ctx_sources(ctx);
	int rc = name_printable("the device name", spec, err);

	if (!rc)
		rc = ctx_protect(ctx, err);
	if (!rc)
		rc = dev_env_source(env, spec, src, err);
	if (!rc)
		rc = sandboxed(ctx, env, *src, spec, err);
	if (!rc)
		rc = (*src)->find(env, spec, f, err);
	return rc;
}

int device_lookup(struct ss_ctx *ctx, const char *spec, struct ss_error *err)
{
	const struct dev_source_ops *src;
	struct dev_found f;

	return find_spec(ctx, spec, &src, &f, err);
}

/* A drive that does not tell its actuators' ranges through this path: what
 * the system read of them (a kernel disk's independent_access_ranges). */
static void ranges_from_found(struct dev_entry *e, const struct dev_found *f)
{
	if (!e->info.ranges.n && f->described && f->info.logical_block == e->info.logical_block)
		e->info.ranges = f->info.ranges;
}

int device_open(struct ss_ctx *ctx, const char *spec, bool for_write, struct drive **out,
		struct dev_entry *e, struct ss_error *err)
{
	struct dev_env *env = ctx_sources(ctx);
	const struct dev_source_ops *src;
	struct dev_found f;
	int rc;

	*out = NULL;
	memset(e, 0, sizeof(*e));
	memset(&f, 0, sizeof(f));
	snprintf(e->spec, sizeof(e->spec), "%s", spec);
	if (for_write) {
		/* before a change, the protect file as it is now (a long-lived
		 * TUI must see an entry added since it started) */
		protect_forget(ctx);
	}
	rc = find_spec(ctx, spec, &src, &f, err);
	if (rc == -EOPNOTSUPP && f.volume) {
		/* no drive: the caller may still run the I/O engine on it */
		entry_from_found(e, src, &f);
		e->volume = true;
	}
	if (rc)
		return rc;
	entry_from_found(e, src, &f);
	rc = open_found(env, src, &f, for_write, out, err);
	if (rc)
		return rc;
	rc = drive_identify(*out, &e->info, err);
	if (rc) {
		drive_free(*out);
		*out = NULL;
		return rc;
	}
	e->identified = true;
	ranges_from_found(e, &f);
	rc = probe_verdict(*out, e, err);
	if (rc) { /* it stopped answering: a failure, not a verdict */
		drive_free(*out);
		*out = NULL;
		return rc;
	}
	apply_protect(ctx, e);
	apply_limit(ctx, e);
	return 0;
}

/* The same node, the same WWN, or with no WWN the same model and serial. */
static bool same_disk(const struct dev_entry *a, const struct dev_entry *b)
{
	const struct drive_info *x = &a->info, *y = &b->info;

	if (!a->identified || !b->identified)
		return false;
	if (!a->sim && !b->sim && a->node[0] && !strcmp(a->node, b->node))
		return true;
	if (x->wwn[0] && y->wwn[0])
		return !strcasecmp(x->wwn, y->wwn);
	return x->serial[0] && !strcmp(x->serial, y->serial) && !strcmp(x->model, y->model);
}

bool device_named_twice(const struct dev_entry *first, const struct dev_entry *e,
			struct ss_error *err)
{
	if (!same_disk(first, e))
		return false;
	ss_error_usage(err, -EINVAL, "%s: the same disk as %s (serial %s%s%s): name each disk once",
		       e->spec, first->spec, e->info.serial, e->info.wwn[0] ? ", WWN " : "",
		       e->info.wwn);
	return true;
}

/* Serial and WWN of a drive its source lists, never by a command (it is not
 * a disk the user named): what the system describes (sysfs, as udev has
 * them), else what the source keeps of it (a simulated drive's rig record).
 * false when neither can be had. */
static bool found_ids(struct dev_env *env, const struct dev_source_ops *src,
		      const struct dev_found *f, struct drive_info *out)
{
	if (f->described) {
		*out = f->info;
		return true;
	}
	return src->ids && !f->mute && src->ids(env, f, out) == 0;
}

/* Another disk the journal cannot tell from e: the same serial, and not
 * both with a WWN (two WWNs that differ are two disks; the same WWN is e
 * under another name) */
static bool serial_shared(const struct dev_entry *e, const struct drive_info *o)
{
	const char *wwn = e->info.wwn[0] ? e->info.wwn : e->sys_wwn;

	if (!o->serial[0] ||
	    (strcmp(o->serial, e->info.serial) && strcmp(o->serial, e->sys_serial)))
		return false;
	return !(wwn[0] && o->wwn[0]);
}

int device_other_match(struct ss_ctx *ctx, const struct dev_entry *e, dev_ids_fn match, void *arg,
		       char *name, size_t len, struct drive_info *ids, struct ss_error *err)
{
	struct dev_env *env = ctx_sources(ctx);
	const struct dev_source_ops *src;
	struct dev_found *found = NULL;
	size_t n = 0;
	int rc;

	rc = dev_env_source(env, e->spec, &src, err);
	if (!rc)
		rc = src->list(env, &found, &n, err);
	for (size_t i = 0; !rc && i < n; i++) {
		struct drive_info o;

		if (!strcmp(found[i].name, e->spec) || !strcmp(found[i].node, e->node) ||
		    !found_ids(env, src, &found[i], &o) || !match(arg, &o))
			continue;
		snprintf(name, len, "%s", found[i].name);
		if (ids)
			*ids = o;
		rc = 1;
	}
	free(found);
	return rc;
}

static bool shares_serial(void *arg, const struct drive_info *o)
{
	return serial_shared(arg, o);
}

int device_check_serial(struct ss_ctx *ctx, const struct dev_entry *e, bool force,
			struct ss_error *err)
{
	struct drive_info o;
	char name[256];
	int rc;

	if (force || !e->identified || (!e->info.serial[0] && !e->sys_serial[0]))
		return 0;
	rc = device_other_match(ctx, e, shares_serial, (void *)e, name, sizeof(name), &o, err);
	if (rc <= 0)
		return rc;
	return ss_error_set(err, -EPERM,
			    "%s: refused: %s has the same serial number (%s) and no WWN tells "
			    "them apart, so the journal (keyed by serial) would mix up their "
			    "records (--force overrides)",
			    e->spec, name, o.serial);
}

int device_check_safe(const struct dev_entry *e, bool force, struct ss_error *err)
{
	char state[300];

	if (e->state == DEV_FREE || force)
		return 0;
	dev_state_text(e, state, sizeof(state));
	return ss_error_set(err, -EPERM, "%s: refused, the disk is %s (--force overrides)", e->spec,
			    state);
}

int device_volume_check(struct ss_ctx *ctx, const char *spec, bool force, struct ss_error *err)
{
	struct dev_env *env = ctx_sources(ctx);
	const struct dev_source_ops *src;
	struct dev_found *m = NULL;
	size_t n = 0;
	int rc;

	rc = dev_env_source(env, spec, &src, err);
	if (!rc && !src->members)
		rc = ss_error_set(err, -EOPNOTSUPP, "%s: its members are not known", spec);
	if (!rc)
		rc = src->members(env, spec, &m, &n, err);
	for (size_t i = 0; i < n && !rc; i++) {
		struct dev_entry e;
		struct drive *d;

		char state[300];

		rc = device_open(ctx, m[i].name, true, &d, &e, err);
		drive_free(d);
		if (rc) {
			ss_error_prefix(err, "%s: member %s: ", spec, m[i].name);
		} else if (e.state != DEV_FREE && !force) {
			dev_state_text(&e, state, sizeof(state));
			rc = ss_error_set(err, -EPERM,
					  "%s: refused, its member %s is %s (--force overrides)",
					  spec, m[i].name, state);
		}
	}
	free(m);
	return rc;
}

bool device_mechanics(struct ss_ctx *ctx, const char *spec, struct dev_mechanics *out)
{
	struct dev_env *env = ctx_sources(ctx);
	const struct dev_source_ops *src;
	struct ss_error ignored = { 0 };

	return !dev_env_source(env, spec, &src, &ignored) && src->mechanics &&
	       src->mechanics(env, spec, out) == 0;
}

int device_power_cycle(struct ss_ctx *ctx, const char *spec, bool check, struct ss_error *err)
{
	struct dev_env *env = ctx_sources(ctx);
	const struct dev_source_ops *src;
	int rc = -EOPNOTSUPP;

	if (!spec) {
		for (unsigned i = 0; i < env->n; i++)
			if (env->src[i]->power_cycle &&
			    !(rc = env->src[i]->power_cycle(env, NULL, true, err)))
				return 0;
		return rc == -EOPNOTSUPP
			   ? ss_error_set(err, rc, "no drive here can be power-cycled")
			   : rc;
	}
	rc = dev_env_source(env, spec, &src, err);
	if (rc)
		return rc;
	if (!src->power_cycle)
		return ss_error_set(err, -EOPNOTSUPP, "%s: cannot be power-cycled from here", spec);
	return src->power_cycle(env, spec, check, err);
}

/* One listed drive: identified through its source, or (when the system describes
 * it) listed with why it could not be. false: leave it out. */
static bool list_one(struct ss_ctx *ctx, struct dev_env *env, const struct dev_source_ops *src,
		     const struct dev_found *f, struct dev_entry *e)
{
	struct ss_error e2 = { 0 };
	struct drive *d;

	memset(e, 0, sizeof(*e));
	snprintf(e->spec, sizeof(e->spec), "%s", f->name);
	entry_from_found(e, src, f);
	if (!f->mute && open_found(env, src, f, false, &d, &e2) == 0) {
		if (drive_identify(d, &e->info, &e2) == 0) {
			e->identified = true;
			ranges_from_found(e, f);
			if (probe_verdict(d, e, &e2)) /* listed, as one not checked */
				unprobed_verdict(e, e2.msg);
		} else if (f->described) {
			e->info = f->info;
		}
		drive_free(d);
	}
	if (!e->identified && !f->described)
		return false; /* a drive that does not answer is not listed */
	if (!e->identified)
		snprintf(e->error, sizeof(e->error), "%s", e2.msg);
	if (!e->identified && !f->mute)
		unprobed_verdict(e, e2.msg);
	apply_protect(ctx, e);
	apply_limit(ctx, e);
	return true;
}

int devices_list(struct ss_ctx *ctx, struct dev_entry **out, size_t *n, struct ss_error *err)
{
	return devices_list_progress(ctx, NULL, out, n, err);
}

int devices_list_progress(struct ss_ctx *ctx, const struct progress_sink *sink,
			  struct dev_entry **out, size_t *n, struct ss_error *err)
{
	struct dev_env *env = ctx_sources(ctx);
	const struct dev_source_ops *src = dev_env_listed(env);
	struct dev_found *found = NULL;
	struct dev_entry *v;
	size_t count = 0;
	int rc;

	*out = NULL;
	*n = 0;
	protect_forget(ctx); /* a listing shows the file as it is now */
	rc = ctx_protect(ctx, err);
	if (!rc) /* what is limited is read from it: not from a planted file */
		rc = journal_check(ctx_state_dir(ctx), err);
	if (rc)
		return rc;
	if (!src)
		return ss_error_set(err, -ENODEV, "no device source is active");
	rc = src->list(env, &found, &count, err);
	if (rc)
		return rc;
	v = calloc(count ? count : 1, sizeof(*v));
	if (!v) {
		free(found);
		return ss_error_nomem(err);
	}
	for (size_t i = 0; i < count; i++) {
		char phase[64];

		if (progress_cancelled(sink)) {
			free(found);
			free(v);
			*n = 0;
			*out = NULL;
			return ss_error_set(err, -ECANCELED, "the scan was stopped");
		}
		snprintf(phase, sizeof(phase), "scanning %zu/%zu drives", i + 1, count);
		progress_report(sink, (double)i / (double)count, phase, -1);
		if (list_one(ctx, env, src, &found[i], &v[*n]))
			(*n)++;
	}
	free(found);
	*out = v;
	return 0;
}
