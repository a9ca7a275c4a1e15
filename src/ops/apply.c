/* apply.c - the apply transaction and the undo of an array, for every front
 * end: bind and check the members, limit each, mdadm --create, mkfs, the
 * record at each step, and the rollback of what a failed run did. Progress
 * and the plans to confirm go to the caller's callbacks, the log of what was
 * run into the result; nothing is printed here. See docs/arrays.md. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "shortstroke/array.h"
#include "shortstroke/capacity.h"
#include "shortstroke/fileio.h"
#include "shortstroke/job.h"
#include "shortstroke/journal.h"
#include "array_priv.h"

/* ---- the record and the journal ------------------------------------------------ */

void array_journal(const char *state_dir, const struct array_rec *r, const char *event)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct array_member *m = &r->m[i];
		struct journal_entry e = { 0 };

		if (!m->serial[0] && !m->wwn[0])
			continue;
		snprintf(e.event, sizeof(e.event), "%s", event);
		snprintf(e.device, sizeof(e.device), "%s", m->spec);
		snprintf(e.node, sizeof(e.node), "%s", m->node);
		snprintf(e.serial, sizeof(e.serial), "%s", m->serial);
		snprintf(e.wwn, sizeof(e.wwn), "%s", m->wwn);
		snprintf(e.model, sizeof(e.model), "%s", m->model);
		snprintf(e.method, sizeof(e.method), "md:%s", r->name);
		e.block_len = m->block_len;
		e.original_blocks = m->before_blocks;
		e.target_blocks = m->limit_blocks;
		journal_append(state_dir, &e, NULL);
	}
}

int array_rec_step(const char *state_dir, struct array_rec *r, enum array_state st,
		   const char *step, struct ss_error *err)
{
	r->state = st;
	snprintf(r->step, sizeof(r->step), "%s", step);
	return array_rec_save(state_dir, r, err);
}

static void now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The running apply: the callbacks get each step as it is saved. */
struct tx {
	struct ss_ctx *ctx;
	const struct array_apply_cb *cb;
};

static void tell_step(const struct tx *t, const char *step)
{
	if (t && t->cb && t->cb->step)
		t->cb->step(t->cb->arg, step);
}

static int save_step(const struct tx *t, struct array_rec *r, enum array_state st, const char *step,
		     struct ss_error *err)
{
	tell_step(t, step);
	return array_rec_step(ctx_state_dir(t->ctx), r, st, step, err);
}

/* ---- teardown: rollback and undo ------------------------------------------- */

static void add_remains(struct array_rec *r, const char *what, const char *why)
{
	size_t used = strlen(r->remains);

	snprintf(r->remains + used, sizeof(r->remains) - used, "%s%s%s%s", used ? "; " : "", what,
		 what[0] ? ": " : "", why);
}

static bool is_blockdev(const char *p)
{
	struct stat st;

	return p[0] == '/' && stat(p, &st) == 0 && S_ISBLK(st.st_mode);
}

/* Is the md device /dev/md/NAME there (by its link, or mdadm knows it)? */
static bool array_md_present(struct ss_ctx *ctx, const char *md_dev)
{
	struct array_detail d;

	return array_md_exists(ctx->sysroot, md_dev + strlen("/dev/md/")) ||
	       array_detail_read(md_dev, &d, NULL) == 0;
}

/* The disk found under name is still the member the record describes
 * (device names move at a reboot): 0, or -EPERM with why in err. */
static int member_identity(const struct array_member *m, const char *name,
			   const struct drive_info *i, struct ss_error *err)
{
	if ((m->serial[0] && strcmp(m->serial, i->serial)) ||
	    (m->wwn[0] && i->wwn[0] && strcasecmp(m->wwn, i->wwn)))
		return ss_error_set(err, -EPERM,
				    "%s is now serial %s, not the member %s: not touched", name,
				    i->serial, m->serial);
	return 0;
}

/* Before mdadm --zero-superblock of a member's node: is the disk there the
 * member? One that cannot be identified is left to mdadm as before. */
int array_member_at_node(struct ss_ctx *ctx, const struct array_member *m, struct ss_error *err)
{
	struct ss_error ignored = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;

	if (device_open(ctx, m->node, false, &d, &e, &ignored))
		return 0;
	drive_free(d);
	return member_identity(m, m->node, &e.info, err);
}

/* Restore one member to its journaled original; 0 done (or untouched). */
int array_member_restore(struct ss_ctx *ctx, const char *array, struct array_member *m,
			 bool dry_run, FILE *log, struct ss_error *err)
{
	struct journal_entry orig;
	struct dev_entry e;
	struct drive *d = NULL;
	struct cap_result res;
	struct cap_ctx c;
	int rc;

	if (!strcmp(m->method, ARRAY_METHOD_WHOLE)) {
		fprintf(log, "%s: used whole: nothing to restore\n", m->spec);
		return 0;
	}
	rc = device_open(ctx, m->spec, !dry_run, &d, &e, err);
	if (rc)
		goto out;
	rc = member_identity(m, m->spec, &e.info, err);
	if (rc)
		goto out;
	rc = -EPERM;
	/* a member that left (replaced) may be in another array by now */
	if (m->state == AM_REPLACED &&
	    array_member_elsewhere(ctx_state_dir(ctx), array, &e.info, err))
		goto out;
	/* a partition member's disk holds the GPT the limit wrote, and its
	 * partition md's superblock (if md did not wipe it): its only use */
	if (!cap_label_is_ours(ctx_state_dir(ctx), &e, true) && device_check_safe(&e, false, err))
		goto out;
	if (journal_original(ctx_state_dir(ctx), e.info.serial, e.info.wwn, &orig, NULL) &&
	    e.info.capacity_blocks == m->before_blocks) {
		fprintf(log, "%s: untouched: still %" PRIu64 " blocks\n", m->spec,
			e.info.capacity_blocks);
		rc = 0;
		goto out;
	}
	c = (struct cap_ctx){ .d = d, .e = &e, .state_dir = ctx_state_dir(ctx), .dry_run = dry_run };
	rc = cap_restore(&c, CAP_AUTO, false, &res, err);
	if (rc == 0)
		fprintf(log, "%s: %s\n", m->spec, res.message);
out:
	/* every reason names the member once */
	if (rc)
		ss_error_subject(err, m->spec);
	drive_free(d);
	return rc;
}

/* mdadm --stop of one md device of r, when it is there: 0, or -EIO with
 * what remains added to r. */
static int stop_md(struct ss_ctx *ctx, struct array_rec *r, const char *md, bool dry_run, FILE *log)
{
	char *argv[] = { (char *)array_mdadm_prog(), "--stop", (char *)md, NULL };
	struct ss_error err = { 0 };
	char out[4096];

	if (!array_md_present(ctx, md))
		return 0;
	if (dry_run) {
		fprintf(log, "would run: %s --stop %s\n", argv[0], md);
		return 0;
	}
	if (array_exec(argv, out, sizeof(out), &err)) {
		add_remains(r, md, err.msg);
		return -EIO;
	}
	fprintf(log, "%s: stopped\n", md);
	return 0;
}

int array_zero_superblock(const char *node, bool dry_run, FILE *log, struct ss_error *err)
{
	char *argv[] = { (char *)array_mdadm_prog(), "--zero-superblock", (char *)node, NULL };
	char out[4096];
	int rc;

	if (dry_run) {
		fprintf(log, "would run: %s --zero-superblock %s\n", argv[0], node);
		return 0;
	}
	rc = array_exec(argv, out, sizeof(out), err);
	/* nothing md wrote can be on what is not a block device; and mdadm says
	 * "Unrecognised md component" where no superblock is */
	if (rc && is_blockdev(node) && !strstr(out, "Unrecognised"))
		return -EIO;
	if (rc == 0)
		fprintf(log, "%s: md metadata wiped\n", node);
	ss_error_clear(err);
	return 0;
}

/* The same, with what remains added to r. */
static int zero_node(struct array_rec *r, const char *node, bool dry_run, FILE *log)
{
	struct ss_error err = { 0 };

	if (array_zero_superblock(node, dry_run, log, &err) == 0)
		return 0;
	add_remains(r, node, err.msg);
	return -EIO;
}

/* Stop the array and its inner arrays (the array first, its superblocks on
 * the inner arrays wiped before they stop), then wipe every member's md
 * metadata; wiped[i] says which members md let go. Returns 0 when md no
 * longer holds any member. */
static int teardown_md(const struct tx *t, struct array_rec *r, bool dry_run, FILE *log,
		       bool *wiped)
{
	struct ss_ctx *ctx = t->ctx;
	int rc = stop_md(ctx, r, r->md_dev, dry_run, log);

	for (size_t k = 0; rc == 0 && k < r->n_inner; k++)
		if (array_md_present(ctx, r->inner[k].md_dev))
			zero_node(r, r->inner[k].md_dev, dry_run, log);
	for (size_t k = 0; rc == 0 && k < r->n_inner; k++)
		rc |= stop_md(ctx, r, r->inner[k].md_dev, dry_run, log);
	if (rc)
		return rc;
	for (size_t i = 0; i < r->n; i++) {
		struct ss_error err = { 0 };

		wiped[i] = true;
		if (r->m[i].state == AM_REPLACED && !is_blockdev(r->m[i].node))
			continue;
		if (array_member_at_node(ctx, &r->m[i], &err)) {
			add_remains(r, "", err.msg);
			wiped[i] = false;
			continue;
		}
		wiped[i] = zero_node(r, r->m[i].node, dry_run, log) == 0;
	}
	return 0;
}

/* A member teardown restores: one this run (or apply) limited, or one
 * replaced that is still to be restored (its todo says so). */
static bool to_restore(const struct array_member *m)
{
	if (m->state == AM_REPLACED)
		return m->todo[0] != '\0';
	return m->state == AM_LIMITING || m->state == AM_LIMITED;
}

/*
 * Stop the array (when it exists), wipe the md metadata this program's
 * mdadm wrote, restore every member it limited: every one that can be,
 * going on past one that refuses (an HPA member before its power cycle).
 * What could not be done goes into r->remains (and each such member's
 * todo), and the record stays "rollback-incomplete". Returns 0 when
 * everything was undone.
 */
static int teardown(const struct tx *t, struct array_rec *r, bool dry_run, FILE *log)
{
	struct ss_ctx *ctx = t->ctx;
	bool md_touched = r->state == AS_CREATING || r->state == AS_MKFS || r->state == AS_DONE ||
			  r->uuid[0] || strstr(r->step, "mdadm");
	bool wiped[ARRAY_MAX_MEMBERS];
	int md_rc = 0;

	r->remains[0] = '\0';
	for (size_t i = 0; i < r->n; i++)
		wiped[i] = true;
	if (!dry_run) {
		save_step(t, r, AS_ROLLING_BACK, "rolling back", NULL);
		array_journal(ctx_state_dir(ctx), r, "array-undo");
	}
	if (md_touched)
		md_rc = teardown_md(t, r, dry_run, log, wiped);
	for (size_t i = 0; i < r->n; i++) {
		struct array_member *m = &r->m[i];
		struct ss_error err = { 0 };

		if (r->actuators > 1 && i % r->actuators) {
			/* the same disk as the slot before: restored with it */
			const struct array_member *first = &r->m[i - i % r->actuators];

			if (!dry_run && to_restore(m) && first->state == AM_RESTORED) {
				m->todo[0] = '\0';
				m->state = AM_RESTORED;
			}
			continue;
		}
		if (!to_restore(m))
			continue;
		for (size_t j = 1; r->actuators > 1 && j < r->actuators && i + j < r->n; j++)
			wiped[i] = wiped[i] && wiped[i + j]; /* every partition of the disk */
		if (md_rc || !wiped[i]) { /* md may still hold it: its restore waits */
			add_remains(r, m->spec,
				    md_rc ? "still to restore (md holds it)"
					  : "still to restore (its md metadata first)");
			continue;
		}
		if (!dry_run)
			tell_step(t, m->spec);
		if (array_member_restore(ctx, r->name, m, dry_run, log, &err)) {
			add_remains(r, "", err.msg);
			/* (the reason names the member: once is enough) */
			fprintf(log, "%s: NOT restored: %s\n", m->spec, ss_error_bare(&err));
			if (!dry_run)
				snprintf(m->todo, sizeof(m->todo), "restore: %s", err.msg);
		} else if (!dry_run) {
			m->todo[0] = '\0';
			if (m->state != AM_REPLACED)
				m->state = AM_RESTORED;
		}
	}
	if (dry_run)
		return r->remains[0] ? -EIO : 0;
	if (r->remains[0]) {
		save_step(t, r, AS_ROLLBACK_INCOMPLETE, "rollback incomplete", NULL);
		return -EIO;
	}
	save_step(t, r, AS_UNDONE, "undone", NULL);
	array_journal(ctx_state_dir(ctx), r, "array-undone");
	return 0;
}

/* ---- undo -------------------------------------------------------------------- */

/* A member by the partition method whose partition holds more than md's
 * superblock (a filesystem made in it since): its GPT is not the undo's to
 * wipe. -EPERM saying what is there; 0 otherwise (a disk that cannot be
 * opened, or is another disk now, is the teardown's to report). */
static int member_partition_check(struct ss_ctx *ctx, const struct array_member *m, size_t i,
				  struct ss_error *err)
{
	struct ss_error ignored = { 0 };
	enum cap_method meth;
	struct dev_entry e;
	struct drive *d = NULL;
	char state[300];

	if (m->state == AM_PENDING || m->state == AM_RESTORED || m->state == AM_REPLACED ||
	    cap_method_parse(m->method, &meth) || !array_by_partition(meth))
		return 0;
	if (device_open(ctx, m->spec, false, &d, &e, &ignored))
		return 0;
	drive_free(d);
	if (member_identity(m, m->spec, &e.info, &ignored) || !e.part_not_md)
		return 0;
	dev_state_text(&e, state, sizeof(state));
	return ss_error_set(err, -EPERM,
			    "refused: %s (member %zu) is %s: more than this array's md superblock; "
			    "nothing was changed",
			    m->spec, i + 1, state);
}

/* Inner array k of a nested level: mounted (someone mounted it alone), or
 * held by anything but the array over it (outer, its kernel name). */
static int inner_check(struct ss_ctx *ctx, const struct array_rec *r, size_t k, const char *outer,
		       struct ss_error *err)
{
	const char *md = r->inner[k].md_dev;
	char kname[64] = "", path[4096], where[1024];
	struct array_sysfs s;

	snprintf(path, sizeof(path), "%s%s", ctx->sysroot ? ctx->sysroot : "", md);
	array_md_kname(path, kname, sizeof(kname));
	if (array_mounted(ctx->sysroot, md, kname, where, sizeof(where)))
		return ss_error_set(err, -EPERM,
				    "refused: %s (an inner array of %s) is mounted on %s; "
				    "unmount it first",
				    md, r->md_dev, where);
	if (kname[0] && array_sysfs_read(ctx->sysroot, kname, &s) == 0 && s.holders[0] &&
	    strcmp(s.holders, outer))
		return ss_error_set(err, -EPERM,
				    "refused: %s (an inner array of %s) is held by %s; take it out "
				    "of there first",
				    md, r->md_dev, s.holders);
	return 0;
}

int array_undo_check(struct ss_ctx *ctx, const char *name, struct array_rec *r,
		     struct ss_error *err)
{
	struct array_sysfs s;
	char kname[64] = "", mdpath[4096], where[1024], sig[200];
	int rc;

	rc = array_rec_load(ctx_state_dir(ctx), name, r, err);
	if (rc)
		return rc;
	if (r->state == AS_UNDONE)
		return 0;
	snprintf(mdpath, sizeof(mdpath), "%s%s", ctx->sysroot ? ctx->sysroot : "", r->md_dev);
	array_md_kname(mdpath, kname, sizeof(kname));
	if (array_mounted(ctx->sysroot, r->md_dev, kname, where, sizeof(where)))
		return ss_error_set(err, -EPERM, "refused: %s is mounted on %s; unmount it first",
				    r->md_dev, where);
	if (kname[0] && array_sysfs_read(ctx->sysroot, kname, &s) == 0 && s.holders[0])
		return ss_error_set(err, -EPERM,
				    "refused: %s (%s) is held by %s (LVM, dm or another md "
				    "array); take it out of there first",
				    r->md_dev, kname, s.holders);
	for (size_t k = 0; k < r->n_inner; k++) {
		rc = inner_check(ctx, r, k, kname, err);
		if (rc)
			return rc;
	}
	if (array_signature(mdpath, sig, sizeof(sig)))
		return ss_error_set(err, -EPERM,
				    "refused: %s holds %s (its label is on the array; the volume "
				    "group or the outer array is not active); take it out of there "
				    "first (pvremove, or mdadm --zero-superblock %s)",
				    r->md_dev, sig, r->md_dev);
	for (size_t i = 0; i < r->n; i++) {
		rc = member_partition_check(ctx, &r->m[i], i, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* Undo of an array whose ARRAY line apply appended to a file (--conf): the
 * line of its UUID taken out again (rewritten beside it, then renamed), so
 * that mdadm and the initramfs do not look for an array that is gone. A file
 * that cannot be rewritten is said, not fatal: the members are restored. */
/* An ARRAY line of r (the array's, or an inner array's): by its UUID. */
static bool line_of(const struct array_rec *r, const char *line)
{
	char key[sizeof(r->uuid) + 8];

	if (strncmp(line, "ARRAY ", 6))
		return false;
	for (size_t k = 0; k <= r->n_inner; k++) {
		const char *uuid = k < r->n_inner ? r->inner[k].uuid : r->uuid;

		snprintf(key, sizeof(key), "UUID=%s", uuid);
		if (uuid[0] && strstr(line, key))
			return true;
	}
	return false;
}

static void conf_remove(const struct array_rec *r, bool dry_run, FILE *log)
{
	char tmp[sizeof(r->conf) + 16], *line = NULL;
	size_t cap = 0;
	unsigned removed = 0;
	struct stat st;
	FILE *in, *out;
	bool bad;
	int fd;

	if (!r->conf[0] || !r->uuid[0])
		return;
	if (dry_run) {
		fprintf(log, "would remove the ARRAY line%s of %s (UUID=%s%s) from %s\n",
			r->n_inner ? "s" : "", r->md_dev, r->uuid,
			r->n_inner ? " and its inner arrays'" : "", r->conf);
		return;
	}
	in = fopen(r->conf, "r");
	if (!in || fstat(fileno(in), &st)) {
		fprintf(log, "%s: cannot read it to remove the ARRAY line of %s: %s\n", r->conf,
			r->md_dev, strerror(errno));
		if (in)
			fclose(in);
		return;
	}
	/* A new file of our own: a stale one (a crash here) is removed first, and
	 * O_EXCL | O_NOFOLLOW refuse whatever appears in its place (a link planted
	 * there is never followed, nor a file of someone else's truncated). */
	snprintf(tmp, sizeof(tmp), "%s.ss-tmp", r->conf);
	if (unlink(tmp) && errno != ENOENT)
		fprintf(log, "%s: cannot remove a stale copy: %s\n", tmp, strerror(errno));
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 07777);
	if (fd >= 0 && fchown(fd, st.st_uid, st.st_gid))
		fprintf(log, "%s: its owner not kept: %s\n", r->conf, strerror(errno));
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out) {
		fprintf(log, "%s: cannot rewrite it to remove the ARRAY line of %s: %s\n", r->conf,
			r->md_dev, strerror(errno));
		if (fd >= 0)
			close(fd);
		fclose(in);
		return;
	}
	while (getline(&line, &cap, in) > 0) {
		if (line_of(r, line)) {
			removed++;
			continue;
		}
		fputs(line, out);
	}
	free(line);
	fclose(in);
	bad = fflush(out) || fsync(fileno(out));
	bad = fclose(out) || bad;
	if (bad || rename(tmp, r->conf)) {
		fprintf(log, "%s: cannot rewrite it to remove the ARRAY line of %s: %s\n", r->conf,
			r->md_dev, strerror(errno));
		unlink(tmp);
		return;
	}
	fprintf(log, "%s: %s\n", r->conf,
		removed ? "the ARRAY line removed"
			: "no ARRAY line "
			  "of this array left to remove");
}

int array_undo_run(struct ss_ctx *ctx, struct array_rec *r, bool dry_run, char **log, bool *changed,
		   struct ss_error *err)
{
	struct tx t = { .ctx = ctx };
	size_t len = 0;
	FILE *f;
	int rc, lock = -1;

	*log = NULL;
	if (changed)
		*changed = false;
	if (!dry_run && array_lock(ctx_state_dir(ctx), r->name, &lock, err))
		return err->code;
	/* the record as it is now that no other run can change it */
	if (!dry_run && array_rec_load(ctx_state_dir(ctx), r->name, r, err)) {
		array_unlock(lock);
		return err->code;
	}
	f = open_memstream(log, &len);
	if (!f) {
		array_unlock(lock);
		return ss_error_nomem(err);
	}
	rc = teardown(&t, r, dry_run, f);
	if (rc == 0)
		conf_remove(r, dry_run, f);
	array_unlock(lock);
	fclose(f);
	if (changed)
		*changed = !dry_run;
	if (rc) {
		size_t left = 0, all = 0;

		for (size_t i = 0; i < r->n; i++) {
			all += r->m[i].state != AM_PENDING &&
			       strcmp(r->m[i].method, ARRAY_METHOD_WHOLE);
			left += to_restore(&r->m[i]);
		}
		return ss_error_set(
		    err, -EIO,
		    "%s: undo incomplete, %zu of %zu members still to restore: %.300s; "
		    "'shortstroke array undo %s' again finishes it",
		    r->md_dev, left, all, r->remains, r->name);
	}
	return 0;
}

/* ---- apply ------------------------------------------------------------------- */

/*
 * The devices of a plan's members, in layout order: given names every
 * member, or only the placeholders (plan --disks N), or none (the plan's
 * own devices). -EINVAL with err->usage set when the count does not fit.
 */
static int array_bind_members(const struct plan *p, const char *const *given, size_t n_given,
			      const char **specs, struct ss_error *err)
{
	size_t ph = 0, k = 0;

	for (size_t i = 0; i < p->n_disks; i++)
		ph += p->disks[i].placeholder;
	if (given && n_given == p->n_disks) {
		for (size_t i = 0; i < p->n_disks; i++)
			specs[i] = given[i];
		return 0;
	}
	if (n_given && n_given != ph && ph == p->n_disks)
		return ss_error_usage(err, -EINVAL,
				      "%zu devices given, but the plan's layout has %zu members "
				      "(all placeholders): give --members with %zu devices, in "
				      "layout order (the planner may use fewer disks than "
				      "--disks; 'plan --level L --stroke S' plans one layout over "
				      "all of them)",
				      n_given, p->n_disks, p->n_disks);
	if (n_given && !ph)
		return ss_error_usage(
		    err, -EINVAL,
		    "%zu device%s given, but the plan has %zu members, all named: "
		    "give --members with %zu devices, in layout order, or none "
		    "(the plan's own devices)",
		    n_given, n_given == 1 ? "" : "s", p->n_disks, p->n_disks);
	if (n_given && n_given != ph)
		return ss_error_usage(err, -EINVAL,
				      "the plan has %zu members (%zu placeholders): give "
				      "--members with %zu devices, or %zu for the placeholders",
				      p->n_disks, ph, p->n_disks, ph);
	if (!n_given && ph)
		return ss_error_usage(err, -EINVAL,
				      "the plan has %zu placeholder%s: name %s with --members, "
				      "in layout order",
				      ph, ph == 1 ? "" : "s", ph == 1 ? "it" : "them");
	for (size_t i = 0; i < p->n_disks; i++)
		specs[i] = p->disks[i].placeholder ? given[k++] : p->disks[i].device;
	return 0;
}

static void member_fail(struct array_apply_member *am, int rc, enum array_refusal how)
{
	am->ready = false;
	am->rc = rc;
	am->refusal = how;
}

/* A line of a dry run's log (the member's stream). */
static void mlog(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mlog(FILE *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* A dry run's command: "  CDB hex  decoded" into the member's log. */
static void show_cmd(void *arg, const struct xcmd *c, const char *what)
{
	char hex[3 * 32 + 1];

	for (unsigned i = 0; i < c->cdb_len && i < 32; i++)
		snprintf(hex + 3 * i, sizeof(hex) - 3 * i, "%02x ", c->cdb[i]);
	hex[c->cdb_len ? 3 * c->cdb_len - 1 : 0] = '\0';
	mlog(arg, "  %s  %s", hex, what ? what : "");
}

/* One member's limit (a job of its own, or in order for a dry run). */
struct mrun {
	struct array_apply_member *am;
	const char *state_dir;
	bool dry_run;
	FILE *log; /* a dry run's: the member's log */
};

static int member_limit(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct mrun *r = arg;
	struct array_apply_member *am = r->am;
	struct cap_ctx c = {
		.d = am->d,
		.e = &am->e,
		.state_dir = r->state_dir,
		.dry_run = r->dry_run,
		.show = r->dry_run ? show_cmd : NULL,
		.show_arg = r->log,
		.progress = sink,
	};
	int rc;

	if (r->dry_run)
		mlog(r->log, "%s: commands that would be sent:", am->e.spec);
	rc = cap_limit(&c, &am->plan, &am->res, err);
	if (rc == 0)
		snprintf(am->result, sizeof(am->result), "%s", am->res.message);
	return rc;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

void array_limit_all(const char *state_dir, struct array_apply_member *ms, size_t n, bool dry_run,
		     const struct array_apply_cb *cb)
{
	struct job *jobs[ARRAY_MAX_MEMBERS] = { 0 };
	struct mrun runs[ARRAY_MAX_MEMBERS];
	unsigned started = 0;

	for (size_t i = 0; i < n; i++) {
		struct array_apply_member *am = &ms[i];

		if (am->whole) {
			snprintf(am->result, sizeof(am->result),
				 "used whole (a full-stroke plan): no limit sent");
			continue;
		}
		if (dry_run) { /* in order: each member's commands into its log */
			runs[i] = (struct mrun){ am, state_dir, true, NULL };
			runs[i].log = open_memstream(&am->log, &am->log_len);
			am->rc = member_limit(&runs[i], NULL, &am->err);
			if (runs[i].log)
				fclose(runs[i].log);
			continue;
		}
		if (!am->ready)
			continue;
		runs[i] = (struct mrun){ am, state_dir, false, NULL };
		if (job_start(am->e.spec, member_limit, &runs[i], &jobs[i], &am->err)) {
			am->rc = am->err.code ? am->err.code : -EIO;
			continue;
		}
		started++;
	}
	while (started) {
		bool all = true;

		for (size_t i = 0; i < n; i++) {
			struct job_status st;

			if (!jobs[i])
				continue;
			job_status(jobs[i], &st);
			all &= st.done;
			if (cb && cb->member)
				cb->member(cb->arg, i, st.done && !st.result ? 1.0 : st.fraction,
					   st.phase);
		}
		if (all)
			break;
		nap_ms(100);
	}
	for (size_t i = 0; i < n; i++) {
		if (!jobs[i])
			continue;
		ms[i].rc = job_wait(jobs[i], &ms[i].err);
		job_free(jobs[i]);
	}
}

static void close_drives(struct array_apply_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		drive_free(res->m[i].d);
		res->m[i].d = NULL;
	}
}

void array_apply_result_fini(struct array_apply_result *res)
{
	if (!res)
		return;
	close_drives(res);
	for (size_t i = 0; i < res->n; i++) {
		free(res->m[i].log);
		res->m[i].log = NULL;
	}
	free(res->log);
	res->log = NULL;
}

/* mdadm --create of one md device of r (k < 0: the array itself, else inner
 * array k), then what md built checked, its UUID kept and its ARRAY line
 * added to lines. */
static int create_md(const struct tx *t, struct array_rec *r, int k, char *lines, size_t len,
		     FILE *log, struct ss_error *err)
{
	bool inner = k >= 0;
	const char *md = inner ? r->inner[k].md_dev : r->md_dev;
	char *uuid = inner ? r->inner[k].uuid : r->uuid;
	size_t slots = array_slots(r), used = strlen(lines);
	size_t devs = inner ? slots / r->n_inner : r->n_inner ? r->n_inner : slots;
	struct array_argv a;
	struct array_detail d;
	char out[8192], line[2048], want[16];
	int rc;

	array_create_argv(r, k, &a);
	array_argv_text(&a, line, sizeof(line));
	fprintf(log, "running: %s\n", line);
	rc = array_exec(a.argv, out, sizeof(out), err);
	if (rc)
		return ss_error_prefix(err, "creating %s: ", md), -EIO;
	rc = array_detail_read(md, &d, err);
	if (rc)
		return ss_error_prefix(err, "%s was created but: ", md), rc ? rc : -EIO;
	snprintf(want, sizeof(want), "raid%s", inner ? array_inner_level(r) : array_outer_level(r));
	if (strcmp(d.level, want) || d.devices != devs)
		return ss_error_set(err, -EIO,
				    "mdadm --detail %s says %s over %u devices, not %s over %zu",
				    md, d.level, d.devices, want, devs);
	snprintf(uuid, 64, "%s", d.uuid);
	snprintf(lines + used, len - used, "ARRAY %s metadata=1.2 UUID=%s name=%s\n", md, d.uuid,
		 d.name[0] ? d.name : md + strlen("/dev/md/"));
	/* an inner array is saved with its UUID before the next is made */
	if (inner)
		array_rec_save(ctx_state_dir(t->ctx), r, NULL);
	return 0;
}

/* The ARRAY lines (inner arrays first: mdadm assembles in file order),
 * appended to --conf or into the log. */
static int conf_lines(struct array_rec *r, const struct array_apply_opts *o, const char *lines,
		      FILE *log, struct ss_error *err)
{
	int fd, rc;

	if (!o->conf) {
		fputs(lines, log);
		return 0;
	}
	fd = open(o->conf, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, lines, strlen(lines)) != (ssize_t)strlen(lines) || fsync(fd)) {
		rc = ss_error_set(err, -errno, "%s: cannot append the ARRAY line%s: %s", o->conf,
				  r->n_inner ? "s" : "", strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	close(fd);
	if (!realpath(o->conf, r->conf))
		snprintf(r->conf, sizeof(r->conf), "%s", o->conf);
	fprintf(log, "ARRAY line%s appended to %s\n", r->n_inner ? "s" : "", o->conf);
	return 0;
}

/* mdadm --create (a nested level: each inner array, then the array over
 * them), check what md built, mkfs, the ARRAY lines. */
static int create_array(const struct tx *t, struct array_rec *r, const struct array_apply_opts *o,
			FILE *log, struct ss_error *err)
{
	struct array_argv a;
	char out[8192], line[2048], lines[(ARRAY_MAX_INNER + 1) * 200] = "";
	int rc;

	rc = save_step(t, r, AS_CREATING, "mdadm --create", err);
	if (rc)
		return rc;
	array_journal(ctx_state_dir(t->ctx), r, "array-create");
	for (size_t k = 0; k < r->n_inner; k++) {
		rc = create_md(t, r, (int)k, lines, sizeof(lines), log, err);
		if (rc)
			return rc;
	}
	rc = create_md(t, r, -1, lines, sizeof(lines), log, err);
	if (rc)
		return rc;
	if (o->mkfs) {
		rc = save_step(t, r, AS_MKFS, "mkfs", err);
		if (rc)
			return rc;
		rc = array_mkfs_argv(r, &a, err);
		if (rc)
			return rc;
		array_argv_text(&a, line, sizeof(line));
		fprintf(log, "running: %s\n", line);
		rc = array_exec(a.argv, out, sizeof(out), err);
		if (rc)
			return ss_error_prefix(err, "making the filesystem: "), -EIO;
	}
	return conf_lines(r, o, lines, log, err);
}

/* An inner array's name in use (a stopped array of an earlier run whose
 * link is left, or someone's md device of that name). */
static bool inner_taken(struct ss_ctx *ctx, const struct array_rec *r, char *why, size_t len)
{
	for (size_t k = 0; k < r->n_inner; k++)
		if (array_md_exists(ctx->sysroot, r->inner[k].md_dev + strlen("/dev/md/"))) {
			snprintf(why, len,
				 "%s (an inner array of RAID %s) already exists: the name "
				 "is taken",
				 r->inner[k].md_dev, r->level);
			return true;
		}
	return false;
}

/* The checks of every later step (md, name, mkfs, --conf); "" when all pass. */
static void later_steps_check(struct ss_ctx *ctx, const struct array_rec *r,
			      const struct array_apply_opts *o, char *why, size_t len)
{
	struct ss_error err = { 0 };
	const char *fsprog = o->mkfs ? (!strcmp(o->mkfs, "xfs") ? "mkfs.xfs" : "mkfs.ext4") : NULL;

	why[0] = '\0';
	if (array_md_check(ctx->sysroot, r->level, &err))
		snprintf(why, len, "%s", err.msg);
	else if (array_md_exists(ctx->sysroot, r->name))
		snprintf(why, len, "%s already exists: the name is taken", r->md_dev);
	else if (inner_taken(ctx, r, why, len))
		;
	else if (fsprog && !array_prog_found(fsprog))
		snprintf(why, len, "--mkfs %s: %s is not installed", o->mkfs, fsprog);
	else if (o->conf && file_check_writable(o->conf, "--conf", &err))
		snprintf(why, len, "%s", err.msg);
}

/* Is the recorded array old the one this plan would make? */
/* (array replace keeps the layout's slots first, the members that left them
 * after: a replaced member still makes it the array this plan made) */
static bool same_array(const struct array_rec *old, const struct array_apply_opts *o)
{
	const struct plan *p = o->plan;
	bool same = !strcmp(old->plan, o->plan_path) && old->n >= p->n_disks;

	for (size_t k = p->n_disks; same && k < old->n; k++)
		same = old->m[k].state == AM_REPLACED;
	for (size_t i = 0; same && i < p->n_disks; i++) {
		same = !p->disks[i].serial[0] || !strcmp(p->disks[i].serial, old->m[i].serial);
		for (size_t k = p->n_disks; !same && k < old->n; k++)
			same = !strcmp(p->disks[i].serial, old->m[k].serial);
	}
	return same;
}

/* An array of this name already recorded: 1 go on, 0 done (already
 * applied), < 0 refused. An interrupted earlier apply of the same plan is
 * rolled back first. */
static int check_old(const struct tx *t, const struct array_apply_opts *o,
		     struct array_apply_result *res, struct ss_error *err)
{
	struct array_rec *old = calloc(1, sizeof(*old));
	char line[512];
	int rc;

	if (!old)
		return ss_error_nomem(err);
	rc = array_rec_load(ctx_state_dir(t->ctx), o->name, old, err);
	if (rc == -ENOENT || (rc == 0 && old->state == AS_UNDONE)) {
		ss_error_clear(err);
		free(old);
		return 1;
	}
	if (rc)
		goto out;
	if (old->state == AS_DONE) {
		if (same_array(old, o)) {
			res->already = true;
			res->rec = *old;
			rc = 0;
		} else {
			rc = ss_error_set(err, -EEXIST,
					  "the name %s is taken by an array shortstroke created "
					  "from %s; 'shortstroke array undo %s' first, or choose "
					  "another name",
					  o->name, old->plan, o->name);
		}
		goto out;
	}
	if (strcmp(old->plan, o->plan_path)) {
		rc = ss_error_set(err, -EEXIST,
				  "an apply of %s from %s stopped at '%s'; finish it with "
				  "'shortstroke array undo %s' first",
				  o->name, old->plan, old->step, o->name);
		goto out;
	}
	snprintf(line, sizeof(line),
		 "an earlier apply of %s stopped at '%s': rolling it back "
		 "first",
		 o->name, old->step);
	if (t->cb && t->cb->note)
		t->cb->note(t->cb->arg, line);
	rc = 1;
	if (!o->dry_run && !o->check_only) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		int trc;

		if (!f) {
			rc = ss_error_nomem(err);
			goto out;
		}
		trc = teardown(t, old, false, f);
		fclose(f);
		if (text && text[0] && t->cb && t->cb->note)
			t->cb->note(t->cb->arg, text);
		free(text);
		if (trc)
			rc = ss_error_set(err, -EIO,
					  "the earlier apply could not be rolled back: "
					  "%s; 'shortstroke array undo %s' finishes it",
					  old->remains, o->name);
	}
out:
	free(old);
	return rc;
}

enum cap_method array_auto_method(const struct drive_info *i)
{
	const struct cap_method_ops *o;

	/* a disk of several actuators: an end cut would take the last ones'
	 * ranges away; a partition per actuator, striped, serves it */
	if (cap_method_pick(i, false) && !cpr_multi(&i->ranges))
		return CAP_AUTO;
	/* none auto takes: the one that keeps the size (a label) where the
	 * drive can take it */
	for (size_t k = 0; (o = cap_method_at(k)); k++)
		if ((o->flags & CAPM_KEEPS_SIZE) && (i->methods & o->need))
			return o->id;
	return CAP_AUTO;
}

bool array_by_partition(enum cap_method m)
{
	const struct cap_method_ops *o = cap_method_get(m);

	return o && (o->flags & CAPM_KEEPS_SIZE);
}

/* The limit method of a member: --method, else the plan's, else auto (or
 * the partition method where auto has none). */
static enum cap_method member_method(const struct array_apply_opts *o, const struct plan_disk *pd,
				     const struct drive_info *i)
{
	enum cap_method m = CAP_AUTO;

	if (o->method != CAP_AUTO)
		return o->method;
	if (pd->method[0] && cap_method_parse(pd->method, &m) == 0 && m != CAP_AUTO)
		return m;
	return array_auto_method(i);
}

/* Member i's disk is one of the members before it under another name (a
 * placeholder bound to /dev/sdb and the plan's by-id link of it): a usage
 * error, found before anything is sent. */
static bool named_before(const struct array_apply_result *res, size_t i, struct ss_error *err)
{
	for (size_t k = 0; k < i; k++)
		if (res->m[k].d && device_named_twice(&res->m[k].e, &res->m[i].e, err))
			return true;
	return false;
}

uint64_t array_full_blocks(struct ss_ctx *ctx, const struct drive_info *i)
{
	struct journal_entry orig;
	bool have = journal_original(ctx_state_dir(ctx), i->serial, i->wwn, &orig, NULL) == 0;
	uint64_t full = 0;

	cap_full_capacity(i, have ? &orig : NULL, &full);
	return full;
}

/* Every member: open, safe, the planned disk, a limit that works. */
static void check_members(struct ss_ctx *ctx, const struct array_apply_opts *o,
			  struct array_apply_result *res, const struct drive_info **infos)
{
	const struct plan *p = o->plan;

	for (size_t i = 0; i < res->n; i++) {
		struct array_apply_member *am = &res->m[i];
		const struct plan_disk *pd = &p->disks[i];
		struct cap_request req = { .method = o->method,
					   .by = CAP_BY_BLOCKS,
					   .blocks = pd->limit_blocks,
					   .force = true };
		struct journal_entry orig;
		char spec[sizeof(am->e.spec)], node[sizeof(am->e.node) + 8], part[300];
		struct cap_ctx c;
		int rc;

		snprintf(spec, sizeof(spec), "%s", am->e.spec);
		rc = device_open(ctx, spec, true, &am->d, &am->e, &am->err);
		if (rc && am->e.state != DEV_FREE && !o->force) {
			/* the safety verdict is the more important news */
			device_check_safe(&am->e, false, &am->err);
			member_fail(am, -EPERM, AR_REFUSED);
			continue;
		}
		if (rc) {
			member_fail(am, rc, AR_BY_RC);
			continue;
		}
		if (named_before(res, i, &am->err)) {
			member_fail(am, -EINVAL, AR_BY_RC);
			continue;
		}
		if (device_check_safe(&am->e, o->force, &am->err) ||
		    device_check_serial(ctx, &am->e, o->force, &am->err)) {
			member_fail(am, -EPERM, AR_REFUSED);
			continue;
		}
		infos[i] = &am->e.info;
		if (array_member_elsewhere(ctx_state_dir(ctx), o->name, &am->e.info, &am->err) ||
		    array_member_check(pd, &am->e.info, array_full_blocks(ctx, &am->e.info),
				       &am->err)) {
			ss_error_prefix(&am->err, "%s (member %zu): ", am->e.spec, i + 1);
			member_fail(am, -EPERM, AR_REFUSED);
			continue;
		}
		if (plan_full_stroke(p)) {
			/* md takes the smallest member's size of each by itself */
			if (am->e.info.capacity_blocks < pd->limit_blocks) {
				ss_error_set(
				    &am->err, -EPERM,
				    "%s: %" PRIu64 " blocks, fewer than the plan's full "
				    "stroke of %" PRIu64 " (limited since it was planned?): "
				    "'shortstroke restore' it first",
				    am->e.spec, am->e.info.capacity_blocks, pd->limit_blocks);
				member_fail(am, -EPERM, AR_REFUSED);
				continue;
			}
			am->whole = am->ready = true;
			snprintf(am->plan_text, sizeof(am->plan_text),
				 "member %zu, %s %s: used whole (a full-stroke plan): no limit",
				 i + 1, am->e.info.model, am->e.info.serial);
			continue;
		}
		req.method = member_method(o, pd, &am->e.info);
		c = (struct cap_ctx){ .d = am->d, .e = &am->e };
		if (!o->dry_run && cap_refresh_native(&c, &am->err)) {
			member_fail(am, am->err.code, AR_BY_RC);
			continue;
		}
		if (cap_plan_limit(&am->e.info,
				   journal_original(ctx_state_dir(ctx), am->e.info.serial,
						    am->e.info.wwn, &orig, NULL) == 0
				       ? &orig
				       : NULL,
				   &req, &am->plan, &am->err) ||
		    (am->plan.target != pd->limit_blocks &&
		     ss_error_set(&am->err, -EINVAL,
				  "the limit rounds to %" PRIu64 " blocks, not the plan's %" PRIu64,
				  am->plan.target, pd->limit_blocks))) {
			ss_error_prefix(&am->err, "%s: ", am->e.spec);
			member_fail(am, am->err.code,
				    am->err.code == -EPERM ? AR_REFUSED : AR_FAILED);
			continue;
		}
		/* will the path carry the method? (probe.h; no MODE SELECT in a dry run) */
		c.dry_run = o->dry_run;
		if (cap_plan_path(&c, &am->plan, &am->err)) {
			member_fail(am, am->err.code, AR_FAILED);
			continue;
		}
		part[0] = '\0';
		if (array_by_partition(am->plan.method)) {
			if (cap_partition_fits(&am->e.info, pd->limit_blocks, &am->err)) {
				ss_error_prefix(&am->err, "%s: the partition method: ", am->e.spec);
				member_fail(am, am->err.code, AR_FAILED);
				continue;
			}
			cap_partition_node(&am->e, node, sizeof(node));
			if (cpr_multi(&am->e.info.ranges))
				snprintf(part, sizeof(part),
					 "; md gets its %u partitions, one per actuator, from %s, "
					 "striped (RAID 0)",
					 am->e.info.ranges.n, node);
			else
				snprintf(part, sizeof(part), "; md gets its partition %s", node);
		}
		am->ready = true;
		snprintf(am->plan_text, sizeof(am->plan_text), "member %zu, %s %s: %s by %s%s",
			 i + 1, am->e.info.model, am->e.info.serial,
			 am->plan.noop ? "already limited" : am->plan.note,
			 cap_method_name(am->plan.method), part);
	}
}

/* Stop before the first change when a member is not ready. */
static int members_ready(struct array_apply_result *res, struct ss_error *err)
{
	for (size_t i = 0; i < res->n; i++) {
		if (res->m[i].ready)
			continue;
		res->stage = AAS_MEMBERS;
		ss_error_set(err, res->m[i].rc ? res->m[i].rc : -EIO, "%s",
			     res->m[i].err.msg[0] ? res->m[i].err.msg : "failed");
		err->usage = res->m[i].err.usage;
		return err->code;
	}
	return 0;
}

/* The record's slots per member: a disk of several actuators limited by
 * the partition method gives md a partition per actuator (array_level_check
 * made sure every member has as many); 1 otherwise. */
static unsigned slots_per_member(const struct array_apply_result *res)
{
	const struct array_apply_member *am = &res->m[0];
	unsigned a = am->e.info.ranges.n;

	if (!res->n || am->whole || !array_by_partition(am->plan.method) || a < 2 ||
	    res->n * a > ARRAY_MAX_MEMBERS)
		return 1;
	return a;
}

static void fill_record(const struct array_apply_opts *o, struct array_apply_result *res)
{
	const struct plan *p = o->plan;
	struct array_rec *r = &res->rec;

	snprintf(r->name, sizeof(r->name), "%s", o->name);
	snprintf(r->md_dev, sizeof(r->md_dev), "/dev/md/%s", o->name);
	snprintf(r->plan, sizeof(r->plan), "%s", o->plan_path);
	snprintf(r->level, sizeof(r->level), "%s", array_md_level(p->layout.level));
	snprintf(r->fs, sizeof(r->fs), "%s", o->mkfs ? o->mkfs : "");
	r->copies = p->layout.copies ? p->layout.copies : 2;
	r->chunk_bytes = p->layout.chunk_bytes;
	now_iso(r->created, sizeof(r->created));
	r->actuators = slots_per_member(res);
	r->n = res->n * r->actuators;
	array_set_inner(r, p->layout.groups);
	for (size_t s = 0; s < r->n; s++) {
		size_t i = s / r->actuators;
		const struct array_apply_member *am = &res->m[i];
		struct array_member *m = &r->m[s];

		snprintf(m->spec, sizeof(m->spec), "%s", am->e.spec);
		if (array_by_partition(am->plan.method))
			cap_partition_node_k(&am->e, (unsigned)(s % r->actuators) + 1, m->node,
					     sizeof(m->node));
		else
			snprintf(m->node, sizeof(m->node), "%s",
				 am->e.sim ? am->e.spec : am->e.node);
		snprintf(m->serial, sizeof(m->serial), "%s", am->e.info.serial);
		snprintf(m->wwn, sizeof(m->wwn), "%s", am->e.info.wwn);
		snprintf(m->model, sizeof(m->model), "%s", am->e.info.model);
		snprintf(m->method, sizeof(m->method), "%s", cap_method_name(am->plan.method));
		m->block_len = am->e.info.logical_block;
		m->rpm = am->e.info.rpm;
		snprintf(m->tran, sizeof(m->tran), "%s", drive_tran_name(am->e.info.tran));
		m->before_blocks = am->e.info.capacity_blocks;
		m->limit_blocks = am->whole ? m->before_blocks : p->disks[i].limit_blocks;
		if (am->whole)
			snprintf(m->method, sizeof(m->method), "%s", ARRAY_METHOD_WHOLE);
	}
}

/* The dry run: every member's commands, then the md and mkfs steps. */
static void dry_run(const struct array_apply_opts *o, struct array_apply_result *res,
		    const char *state_dir, FILE *log)
{
	struct array_rec *r = &res->rec;
	struct array_argv a;
	struct ss_error err = { 0 };
	char line[2048];

	array_limit_all(state_dir, res->m, res->n, true, NULL);
	for (size_t i = 0; i < res->n; i++) {
		struct array_apply_member *am = &res->m[i];
		const struct array_member *m = &r->m[i * (r->actuators > 1 ? r->actuators : 1)];

		fputs(am->log ? am->log : "", log);
		if (am->whole)
			fprintf(log, "%s: used whole (a full-stroke plan): no limit sent\n",
				am->e.spec);
		else if (am->rc)
			fprintf(log, "%s: %s\n", am->e.spec, am->err.msg);
		else if (array_by_partition(am->plan.method))
			fprintf(log,
				"%s: would wait for %s: partition 1, blocks %" PRIu64 "..%" PRIu64
				" (%" PRIu64 " blocks for md)\n",
				am->e.spec, m->node, cap_partition_start(m->block_len),
				m->limit_blocks - 1,
				m->limit_blocks - cap_partition_start(m->block_len));
		if (!am->rc && !am->whole && r->actuators > 1)
			fprintf(
			    log,
			    "%s: and for each of its %u actuators a partition at the outer edge "
			    "of its range, the same share of each, striped by md RAID 0\n",
			    am->e.spec, r->actuators);
	}
	for (size_t k = 0; k <= r->n_inner; k++) {
		int which = k < r->n_inner ? (int)k : -1; /* the inner arrays, then the array */
		size_t slots = array_slots(r);

		array_create_argv(r, which, &a);
		array_argv_text(&a, line, sizeof(line));
		fprintf(log, "would run: %s\n", line);
		fprintf(log, "would check: %s --detail --export %s (level raid%s, %zu devices)\n",
			array_mdadm_prog(), which >= 0 ? r->inner[k].md_dev : r->md_dev,
			which >= 0 ? array_inner_level(r) : array_outer_level(r),
			which >= 0   ? slots / r->n_inner
			: r->n_inner ? r->n_inner
				     : slots);
	}
	if (o->mkfs && array_mkfs_argv(r, &a, &err) == 0) {
		array_argv_text(&a, line, sizeof(line));
		fprintf(log, "would run: %s\n", line);
	}
	fprintf(log, "would %s the ARRAY line%s%s%s\n", o->conf ? "append" : "print",
		r->n_inner ? "s" : "", o->conf ? " to " : "", o->conf ? o->conf : "");
	if (res->why[0]) {
		fprintf(log, "a real run would stop before the first change: %s\n", res->why);
		return;
	}
	for (size_t i = 0; i < res->n; i++)
		if (res->m[i].rc) { /* the dry run of its limit failed: so would a real one */
			snprintf(res->why, sizeof(res->why), "%s: %s", res->m[i].e.spec,
				 res->m[i].err.msg);
			fprintf(log, "a real run would fail: %s\n", res->why);
			return;
		}
	fprintf(log, "dry run: nothing was sent\n");
}

/* The transaction, once everything is checked and confirmed. */
static int transact(const struct tx *t, const struct array_apply_opts *o,
		    struct array_apply_result *res, FILE *log, struct ss_error *err)
{
	struct array_rec *r = &res->rec;
	char failed[512], shape[256];
	int rc;

	for (size_t i = 0; i < r->n; i++)
		r->m[i].state = AM_LIMITING;
	if (save_step(t, r, AS_LIMITING, "limiting the members", err)) {
		snprintf(failed, sizeof(failed), "%s", err->msg);
		ss_error_set(err, err->code ? err->code : -EIO, "%.470s; nothing was changed",
			     failed);
		res->stage = AAS_CHECKS;
		return err->code;
	}
	array_journal(ctx_state_dir(t->ctx), r, "array-apply");
	array_limit_all(ctx_state_dir(t->ctx), res->m, res->n, false, t->cb);
	ss_error_clear(err);
	for (size_t i = 0; i < res->n; i++) {
		struct array_apply_member *am = &res->m[i];
		size_t per = r->actuators > 1 ? r->actuators : 1;
		struct array_member *m = &r->m[i * per];

		if (am->rc == 0) {
			for (size_t j = 0; j < per; j++)
				m[j].state = AM_LIMITED;
			/* the kernel may have given the disk a new node on the re-read */
			if (!am->e.sim && !array_by_partition(am->plan.method))
				snprintf(m->node, sizeof(m->node), "%s", am->e.node);
			m->volatile_ = (cap_flags(am->res.method) & CAPM_VOLATILE) &&
				       am->plan.volatile_;
			fprintf(log, "%s: %s\n", am->e.spec, am->result);
			if (array_by_partition(am->plan.method))
				am->rc = cap_partition_wait(&am->e, m->limit_blocks,
							    ARRAY_PART_WAIT_MS, m->node,
							    sizeof(m->node), &am->err);
			for (size_t j = 1; am->rc == 0 && j < per; j++)
				cap_partition_node_k(&am->e, (unsigned)j + 1, m[j].node,
						     sizeof(m[j].node));
			for (size_t j = 0;
			     am->rc == 0 && j < per && array_by_partition(am->plan.method); j++)
				fprintf(log, "%s: md gets %s\n", am->e.spec, m[j].node);
		}
		if (am->rc == 0) {
			continue;
		} else if (!err->msg[0]) {
			ss_error_set(err, am->rc, "%s", am->err.msg);
		} else {
			fprintf(log, "%s: also failed: %s\n", am->e.spec, am->err.msg);
		}
	}
	close_drives(res);
	rc = err->msg[0] ? -EIO : save_step(t, r, AS_LIMITING, "members limited", err);
	if (rc == 0)
		rc = create_array(t, r, o, log, err);
	if (rc == 0) {
		save_step(t, r, AS_DONE, "done", NULL);
		array_journal(ctx_state_dir(t->ctx), r, "array-created");
		array_shape_text(r, shape, sizeof(shape));
		fprintf(log, "%s: created: %s%s%s\n", r->md_dev, shape, r->fs[0] ? ", " : "",
			r->fs);
		res->changed = true;
		return 0;
	}
	snprintf(failed, sizeof(failed), "%s", err->msg);
	fprintf(log, "failed: %s\nrolling back:\n", failed);
	res->stage = AAS_RUN;
	if (teardown(t, r, false, log) == 0) {
		snprintf(err->msg, sizeof(err->msg),
			 "%.400s; rolled back: every member is "
			 "back to its original capacity",
			 failed);
	} else {
		snprintf(err->msg, sizeof(err->msg),
			 "%.200s; the rollback is incomplete: %.200s; "
			 "'shortstroke array undo %s' finishes it",
			 failed, r->remains, r->name);
		res->changed = true;
	}
	err->code = rc < 0 ? rc : -EIO;
	return err->code;
}

static int apply_locked(struct ss_ctx *ctx, const struct array_apply_opts *o,
			const struct array_apply_cb *cb, struct array_apply_result *res,
			struct ss_error *err)
{
	const struct plan *p = o->plan;
	struct tx t = { .ctx = ctx, .cb = cb };
	const char *specs[ARRAY_MAX_MEMBERS];
	const struct drive_info *infos[ARRAY_MAX_MEMBERS] = { 0 };
	size_t loglen = 0;
	FILE *log = NULL;
	int rc;

	memset(res, 0, sizeof(*res));
	res->stage = AAS_CHECKS;
	if (p->n_disks > ARRAY_MAX_MEMBERS)
		return ss_error_set(err, -E2BIG, "%zu members: at most %d", p->n_disks,
				    ARRAY_MAX_MEMBERS);
	if (array_name_check(o->name, err)) {
		res->stage = AAS_INPUT;
		return ss_error_mark_usage(err);
	}
	rc = array_bind_members(p, o->members, o->n_members, specs, err);
	if (rc) {
		res->stage = AAS_INPUT;
		return rc;
	}
	rc = check_old(&t, o, res, err);
	if (rc <= 0) {
		if (rc == 0)
			res->stage = AAS_DONE;
		return rc;
	}

	tell_step(&t, "checking the members");
	for (size_t i = 0; i < p->n_disks; i++) {
		for (size_t k = 0; k < i; k++)
			if (!strcmp(specs[k], specs[i])) {
				res->stage = AAS_INPUT;
				return ss_error_usage(err, -EINVAL, "%s is named twice", specs[i]);
			}
		snprintf(res->m[i].e.spec, sizeof(res->m[i].e.spec), "%s", specs[i]);
	}
	res->n = p->n_disks;
	check_members(ctx, o, res, infos);
	rc = members_ready(res, err);
	if (rc)
		return rc;
	if (array_level_check(p, infos, err)) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return ss_error_set(err, err->code, "refused: %.470s; nothing was changed", why);
	}
	fill_record(o, res);
	later_steps_check(ctx, &res->rec, o, res->why, sizeof(res->why));
	if (res->why[0] && !o->dry_run)
		return ss_error_set(err, -EOPNOTSUPP,
				    "cannot build the array: %.450s; nothing "
				    "was changed",
				    res->why);
	if (o->check_only) {
		res->stage = AAS_DONE;
		return 0;
	}
	if (cb && cb->confirm)
		cb->confirm(cb->arg, res);
	else if (!o->yes && !o->dry_run)
		for (size_t i = 0; i < res->n; i++) {
			ss_error_set(&res->m[i].err, -EPERM, "%s: not confirmed", res->m[i].e.spec);
			member_fail(&res->m[i], -EPERM, AR_REFUSED);
		}
	log = open_memstream(&res->log, &loglen);
	if (!log)
		return ss_error_nomem(err);
	if (o->dry_run) {
		dry_run(o, res, ctx_state_dir(ctx), log);
		fclose(log);
		res->stage = AAS_DONE;
		return 0;
	}
	rc = members_ready(res, err);
	if (rc == 0) {
		rc = transact(&t, o, res, log, err);
		if (rc == 0)
			res->stage = AAS_DONE;
	}
	fclose(log);
	return rc;
}

int array_apply(struct ss_ctx *ctx, const struct array_apply_opts *o,
		const struct array_apply_cb *cb, struct array_apply_result *res,
		struct ss_error *err)
{
	int fd = -1, rc;

	/* the name is checked first: it names the lock file; a dry run or a
	 * check changes nothing (nor rolls anything back): no lock */
	if (!o->dry_run && !o->check_only && array_name_check(o->name, err) == 0 &&
	    array_lock(ctx_state_dir(ctx), o->name, &fd, err)) {
		memset(res, 0, sizeof(*res));
		res->stage = AAS_CHECKS;
		return err->code;
	}
	ss_error_clear(err);
	rc = apply_locked(ctx, o, cb, res, err);
	array_unlock(fd);
	return rc;
}
