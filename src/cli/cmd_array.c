/* apply, array - create the planned short-stroked md array as one journaled
 * transaction (limit every member, mdadm --create, mkfs), and look after it
 * later (list, status, replace, undo). The record of each array lives in
 * <state>/arrays/NAME.json (src/ops/array.c); every member's original
 * capacity is in the journal, written by the limit code before it changes
 * anything. See docs/arrays.md. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "shortstroke/array.h"
#include "shortstroke/capacity.h"
#include "shortstroke/fileio.h"
#include "shortstroke/journal.h"
#include "shortstroke/planfile.h"
#include "shortstroke/units.h"
#include "xalloc.h"

struct apply_opts {
	const char *plan_path;
	const char *name;
	const char *mkfs;
	const char *conf;
	char **members;
	int n_members;
	enum cap_method method;
	bool dry_run, yes, force, json;
};

struct mjob {
	struct cap_plan plan;
	struct cap_result res;
	struct batch *b;
};

static void apply_usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke apply [options] PLAN.json --name NAME [--members DEVICE...]\n"
		"\n"
		"Create the short-stroked md array a plan file describes, as one journaled\n"
		"transaction: every member is limited to the plan's limit (the limit code of\n"
		"'shortstroke limit', same rules), verified, then mdadm creates the array\n"
		"(metadata 1.2, the plan's level, member order and chunk, an internal bitmap\n"
		"for redundant levels), and --mkfs makes a filesystem aligned to the stripe.\n"
		"Everything is checked before the first change; a failure after it rolls\n"
		"back what this run did. 'shortstroke array undo NAME' undoes the array.\n"
		"\n"
		"Options:\n"
		"      --name NAME       the array's name: /dev/md/NAME (letters, digits, _ -)\n"
		"      --members DEV...  the disks, in layout order: all of the plan's members,\n"
		"                        or only its placeholders (plan --disks N); the\n"
		"                        plan's own devices are used when not given\n"
		"      --mkfs FS         ext4 (stride, stripe_width) or xfs (su, sw)\n"
		"      --conf FILE       append the ARRAY line to FILE (mdadm.conf); else printed\n"
		"  -m, --method M        the limit method (default auto, as 'limit')\n"
		"  -n, --dry-run         print every CDB per member and the mdadm and mkfs\n"
		"                        steps, with the reason a real run would stop; change\n"
		"                        nothing\n"
		"  -y, --yes             do not ask (scripts)\n"
		"  -f, --force           allow members that are in use or protected\n"
		"  -J, --json            the result as JSON\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status: 0 done (or already applied), 1 failed (rolled back), 2 usage\n"
		"error, 3 refused (a member in use, protected, not the disk the plan recorded,\n"
		"not confirmed).\n"
		"Examples:\n"
		"  shortstroke plan --level 1 --stroke 25%% /dev/sdb /dev/sdc -O r1.json\n"
		"  shortstroke apply r1.json --name fast0 --dry-run\n");
}

static void array_usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke array list [-J]\n"
		"       shortstroke array status NAME [-J]\n"
		"       shortstroke array undo NAME [--yes] [--dry-run]\n"
		"       shortstroke array replace NAME OLD NEW [--yes] [--wait]\n"
		"\n"
		"The md arrays 'shortstroke apply' created.\n"
		"  list      each array: state, level, members, the stroke\n"
		"  status    md's state (sysfs md/, mdadm --detail --export), sync or rebuild\n"
		"            progress, each member's limit as the drive reports it\n"
		"  undo      stop the array, wipe its md metadata (mdadm --zero-superblock),\n"
		"            restore every member to its journaled original capacity; also\n"
		"            finishes an apply that was interrupted or whose rollback failed.\n"
		"            Refused when the array is mounted or held (LVM, another md).\n"
		"  replace   limit NEW to exactly the members' limit, then mdadm --add it in\n"
		"            the place of OLD (--replace when OLD is still active)\n"
		"\n"
		"Options:\n"
		"  -y, --yes             do not ask (scripts)\n"
		"  -n, --dry-run         undo, replace: say what would be done; change nothing\n"
		"  -w, --wait            replace: wait for the rebuild, with its progress\n"
		"  -J, --json            JSON output\n"
		"  -h, --help            this help\n"
		"Examples:\n"
		"  shortstroke array list\n"
		"  shortstroke array list -J\n");
}

/* ---- journal ----------------------------------------------------------------- */

/* One journal entry per member: the array's steps are on each disk's record. */
static void journal_array(struct ss_ctx *ctx, const struct array_rec *r, const char *event)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct array_member *m = &r->m[i];
		struct journal_entry e = { 0 };

		if (!m->serial[0] && !m->wwn[0])
			continue;
		snprintf(e.event, sizeof(e.event), "%s", event);
		snprintf(e.device, sizeof(e.device), "%s", m->spec);
		snprintf(e.serial, sizeof(e.serial), "%s", m->serial);
		snprintf(e.wwn, sizeof(e.wwn), "%s", m->wwn);
		snprintf(e.model, sizeof(e.model), "%s", m->model);
		snprintf(e.method, sizeof(e.method), "md:%s", r->name);
		e.block_len = m->block_len;
		e.original_blocks = m->before_blocks;
		e.target_blocks = m->limit_blocks;
		journal_append(ctx_state_dir(ctx), &e, NULL);
	}
}

static void now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int save_step(struct ss_ctx *ctx, struct array_rec *r, enum array_state st,
		     const char *step, struct ss_error *err)
{
	r->state = st;
	snprintf(r->step, sizeof(r->step), "%s", step);
	return array_rec_save(ctx_state_dir(ctx), r, err);
}

/* ---- teardown: rollback and undo ------------------------------------------- */

static void add_remains(struct array_rec *r, const char *what, const char *why)
{
	size_t used = strlen(r->remains);

	snprintf(r->remains + used, sizeof(r->remains) - used, "%s%s%s%s", used ? "; " : "",
		 what, what[0] ? ": " : "", why);
}

static bool is_blockdev(const char *p)
{
	struct stat st;

	return p[0] == '/' && stat(p, &st) == 0 && S_ISBLK(st.st_mode);
}

static bool md_present(struct ss_ctx *ctx, const struct array_rec *r)
{
	struct array_detail d;

	return array_md_exists(ctx->sysroot, r->name) ||
	       array_detail_read(r->md_dev, &d, NULL) == 0;
}

/* Restore one member to its journaled original; 0 done (or untouched). */
static int restore_member(struct ss_ctx *ctx, struct array_member *m, bool dry_run, FILE *log,
			  struct ss_error *err)
{
	struct journal_entry orig;
	struct dev_entry e;
	struct drive *d = NULL;
	struct cap_result res;
	struct cap_ctx c;
	int rc;

	rc = device_open(ctx, m->spec, !dry_run, &d, &e, err);
	if (rc)
		return rc;
	rc = -EPERM;
	if (m->serial[0] && strcmp(m->serial, e.info.serial)) {
		ss_error_set(err, -EPERM, "%s is now serial %s, not the member %s: not touched",
			     m->spec, e.info.serial, m->serial);
		goto out;
	}
	if (device_check_safe(&e, false, err))
		goto out;
	if (journal_original(ctx_state_dir(ctx), e.info.serial, e.info.wwn, &orig, NULL) &&
	    e.info.capacity_blocks == m->before_blocks) {
		fprintf(log, "%s: untouched: still %" PRIu64 " blocks\n", m->spec,
			e.info.capacity_blocks);
		rc = 0;
		goto out;
	}
	c = (struct cap_ctx){ .d = d, .e = &e, .state_dir = ctx_state_dir(ctx),
			      .dry_run = dry_run };
	rc = cap_restore(&c, CAP_AUTO, false, &res, err);
	if (rc == 0)
		fprintf(log, "%s: %s\n", m->spec, res.message);
	else
		ss_error_prefix(err, "%s: ", m->spec);
out:
	drive_free(d);
	return rc;
}

/*
 * Stop the array (when it exists), wipe the md metadata this program's
 * mdadm wrote, restore every member it limited. What could not be done
 * goes into r->remains and the record stays "rollback-incomplete".
 * Returns 0 when everything was undone.
 */
static int teardown(struct ss_ctx *ctx, struct array_rec *r, bool dry_run, FILE *log)
{
	char out[4096];
	bool md_touched = r->state == AS_CREATING || r->state == AS_MKFS || r->state == AS_DONE ||
			  r->uuid[0] || strstr(r->step, "mdadm");

	r->remains[0] = '\0';
	if (!dry_run) {
		save_step(ctx, r, AS_ROLLING_BACK, "rolling back", NULL);
		journal_array(ctx, r, "array-undo");
	}
	if (md_touched && md_present(ctx, r)) {
		char *argv[] = { (char *)array_mdadm_prog(), "--stop", r->md_dev, NULL };
		struct ss_error err = { 0 };

		if (dry_run)
			fprintf(log, "would run: %s --stop %s\n", argv[0], r->md_dev);
		else if (array_exec(argv, out, sizeof(out), &err))
			add_remains(r, r->md_dev, err.msg);
		else
			fprintf(log, "%s: stopped\n", r->md_dev);
	}
	for (size_t i = 0; md_touched && !r->remains[0] && i < r->n; i++) {
		char *argv[] = { (char *)array_mdadm_prog(), "--zero-superblock", r->m[i].node,
				 NULL };
		struct ss_error err = { 0 };
		int rc;

		if (r->m[i].state == AM_REPLACED && !is_blockdev(r->m[i].node))
			continue;
		if (dry_run) {
			fprintf(log, "would run: %s --zero-superblock %s\n", argv[0], r->m[i].node);
			continue;
		}
		rc = array_exec(argv, out, sizeof(out), &err);
		/* nothing md wrote can be on what is not a block device; and mdadm
		 * says "Unrecognised md component" where no superblock is */
		if (rc && is_blockdev(r->m[i].node) && !strstr(out, "Unrecognised"))
			add_remains(r, r->m[i].node, err.msg);
		else if (rc == 0)
			fprintf(log, "%s: md metadata wiped\n", r->m[i].node);
	}
	for (size_t i = 0; !r->remains[0] && i < r->n; i++) {
		struct array_member *m = &r->m[i];
		struct ss_error err = { 0 };

		if (m->state == AM_PENDING || m->state == AM_RESTORED || m->state == AM_REPLACED)
			continue;
		if (restore_member(ctx, m, dry_run, log, &err))
			add_remains(r, "", err.msg);
		else if (!dry_run)
			m->state = AM_RESTORED;
	}
	/* members not reached stay as they were: the record says what remains */
	for (size_t i = 0; r->remains[0] && i < r->n; i++)
		if (r->m[i].state == AM_LIMITING || r->m[i].state == AM_LIMITED)
			add_remains(r, r->m[i].spec, "still to restore");
	if (dry_run)
		return r->remains[0] ? -EIO : 0;
	if (r->remains[0]) {
		save_step(ctx, r, AS_ROLLBACK_INCOMPLETE, "rollback incomplete", NULL);
		return -EIO;
	}
	save_step(ctx, r, AS_UNDONE, "undone", NULL);
	journal_array(ctx, r, "array-undone");
	return 0;
}

/* ---- apply ------------------------------------------------------------------- */

/* --members takes every word after it that is not an option. */
static int split_members(int argc, char **argv, struct apply_opts *o, char **rest)
{
	int n = 0;

	o->members = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--members")) {
			while (i + 1 < argc && argv[i + 1][0] != '-')
				o->members[o->n_members++] = argv[++i];
			continue;
		}
		if (!strncmp(argv[i], "--members=", 10)) {
			o->members[o->n_members++] = argv[i] + 10;
			continue;
		}
		rest[n++] = argv[i];
	}
	rest[n] = NULL;
	return n;
}

static int bind_members(const struct plan *p, const struct apply_opts *o, const char **specs)
{
	size_t ph = 0, k = 0;

	for (size_t i = 0; i < p->n_disks; i++)
		ph += p->disks[i].placeholder;
	if ((size_t)o->n_members == p->n_disks) {
		for (size_t i = 0; i < p->n_disks; i++)
			specs[i] = o->members[i];
		return 0;
	}
	if (o->n_members && (size_t)o->n_members != ph)
		return cli_usage_error("apply",
				       "the plan has %zu members (%zu placeholders): give "
				       "--members with %zu devices, or %zu for the placeholders",
				       p->n_disks, ph, p->n_disks, ph);
	if (!o->n_members && ph)
		return cli_usage_error("apply",
				       "the plan has %zu placeholder%s: name %s with --members, "
				       "in layout order", ph, ph == 1 ? "" : "s",
				       ph == 1 ? "it" : "them");
	for (size_t i = 0; i < p->n_disks; i++)
		specs[i] = p->disks[i].placeholder ? o->members[k++] : p->disks[i].device;
	return 0;
}

static int member_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct mjob *j = it->op;
	struct cap_ctx c;
	int rc;

	batch_cap_ctx(&c, j->b, it, sink);
	rc = cap_limit(&c, &j->plan, &j->res, err);
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s", j->res.message);
	return 0;
}

static void close_drives(struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		drive_free(b->items[i].d);
		b->items[i].d = NULL;
	}
}

static void free_batch(struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		drive_free(b->items[i].d);
		json_object_put(b->items[i].json);
		free(b->items[i].log);
		free(b->items[i].op);
	}
	free(b->items);
	b->items = NULL;
}

/* Every member's failure before the first change; the exit code. */
static int report_unready(struct batch *b)
{
	int code = EXIT_DONE;

	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		int c;

		if (it->ready)
			continue;
		cli_error("apply: %s", it->err.msg[0] ? it->err.msg : "failed");
		c = it->exit_hint ? it->exit_hint : cli_exit_code(it->rc, &it->err);
		if (c == EXIT_DONE)
			c = EXIT_FAILED;
		if (code == EXIT_DONE || c == EXIT_REFUSED)
			code = c;
	}
	return code;
}

/* changed: this run sent a change to a disk or md, or rewrote the record
 * (false for --dry-run and for the no-op re-run). */
static void json_out(const struct array_rec *r, bool ok, bool changed, const char *error,
		     const char *log)
{
	json_object *o = json_object_new_object();
	char *rec = array_rec_json(r);

	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	json_object_object_add(o, "changed", json_object_new_boolean(changed));
	json_object_object_add(o, "error", error && *error ? json_object_new_string(error) : NULL);
	json_object_object_add(o, "array", json_tokener_parse(rec));
	json_object_object_add(o, "log", json_object_new_string(log ? log : ""));
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_SPACED |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	free(rec);
}

/* mdadm --create, check what md built, mkfs, the ARRAY line. */
static int create_array(struct ss_ctx *ctx, struct array_rec *r, const struct apply_opts *o,
			FILE *log, struct ss_error *err)
{
	struct array_argv a;
	struct array_detail d;
	char out[8192], line[2048], want[16];
	int rc;

	array_create_argv(r, &a);
	array_argv_text(&a, line, sizeof(line));
	rc = save_step(ctx, r, AS_CREATING, "mdadm --create", err);
	if (rc)
		return rc;
	journal_array(ctx, r, "array-create");
	fprintf(log, "running: %s\n", line);
	rc = array_exec(a.argv, out, sizeof(out), err);
	if (rc)
		return ss_error_prefix(err, "creating the array: "), -EIO;
	rc = array_detail_read(r->md_dev, &d, err);
	if (rc)
		return ss_error_prefix(err, "the array was created but: "), rc ? rc : -EIO;
	snprintf(want, sizeof(want), "raid%s", r->level);
	if (strcmp(d.level, want) || d.devices != r->n)
		return ss_error_set(err, -EIO,
				    "mdadm --detail %s says %s over %u devices, not %s over %zu",
				    r->md_dev, d.level, d.devices, want, r->n);
	snprintf(r->uuid, sizeof(r->uuid), "%s", d.uuid);
	if (o->mkfs) {
		rc = save_step(ctx, r, AS_MKFS, "mkfs", err);
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
	snprintf(line, sizeof(line), "ARRAY %s metadata=1.2 UUID=%s name=%s\n", r->md_dev,
		 d.uuid, d.name[0] ? d.name : r->name);
	if (o->conf) {
		int fd = open(o->conf, O_WRONLY | O_APPEND | O_CREAT, 0644);

		if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line) ||
		    fsync(fd)) {
			rc = ss_error_set(err, -errno, "%s: cannot append the ARRAY line: %s",
					  o->conf, strerror(errno));
			if (fd >= 0)
				close(fd);
			return rc;
		}
		close(fd);
		fprintf(log, "ARRAY line appended to %s\n", o->conf);
	} else {
		fputs(line, log);
	}
	return 0;
}

/* The checks of every later step (md, name, mkfs, --conf); "" when all pass. */
static void later_steps_check(struct ss_ctx *ctx, const struct array_rec *r,
			      const struct apply_opts *o, char *why, size_t len)
{
	struct ss_error err = { 0 };
	const char *fsprog = o->mkfs ? (!strcmp(o->mkfs, "xfs") ? "mkfs.xfs" : "mkfs.ext4") : NULL;

	why[0] = '\0';
	if (array_md_check(ctx->sysroot, r->level, &err))
		snprintf(why, len, "%s", err.msg);
	else if (array_md_exists(ctx->sysroot, r->name))
		snprintf(why, len, "%s already exists: the name is taken", r->md_dev);
	else if (fsprog && !array_prog_found(fsprog))
		snprintf(why, len, "--mkfs %s: %s is not installed", o->mkfs, fsprog);
	else if (o->conf && file_check_writable(o->conf, "--conf", &err))
		snprintf(why, len, "%s", err.msg);
}

static bool same_plan(const struct array_rec *r, const char *plan_abs)
{
	return !strcmp(r->plan, plan_abs);
}

static int apply_main(struct ss_ctx *ctx, struct apply_opts *o)
{
	struct batch b = { .cmd = "apply", .ctx = ctx, .verbose = ctx->verbose };
	struct ss_error err = { 0 };
	struct plan *p = NULL;
	struct array_rec *r = xcalloc(1, sizeof(*r)), *old = xcalloc(1, sizeof(*old));
	const char **specs = NULL;
	const struct drive_info **infos = NULL;
	char plan_abs[PATH_MAX], why[1024], line[2048];
	char *logbuf = NULL;
	size_t loglen = 0;
	FILE *log = NULL;
	int rc, code = EXIT_FAILED;

	rc = planfile_load(o->plan_path, &p, &err);
	if (rc) {
		cli_error("apply: %s", err.msg);
		code = rc == -ENOENT || rc == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
		goto out;
	}
	if (!realpath(o->plan_path, plan_abs))
		snprintf(plan_abs, sizeof(plan_abs), "%s", o->plan_path);
	if (p->n_disks > ARRAY_MAX_MEMBERS) {
		cli_error("apply: %zu members: at most %d", p->n_disks, ARRAY_MAX_MEMBERS);
		goto out;
	}
	specs = xcalloc(p->n_disks, sizeof(*specs));
	code = bind_members(p, o, specs);
	if (code)
		goto out;
	code = EXIT_FAILED;

	/* an array of this name already recorded */
	rc = array_rec_load(ctx_state_dir(ctx), o->name, old, &err);
	if (rc && rc != -ENOENT) {
		cli_error("apply: %s", err.msg);
		goto out;
	}
	if (rc == 0 && old->state == AS_DONE) {
		bool same = same_plan(old, plan_abs) && old->n == p->n_disks;

		for (size_t i = 0; same && i < old->n; i++)
			same = !p->disks[i].serial[0] || !strcmp(p->disks[i].serial, old->m[i].serial);
		if (same) {
			if (o->json)
				json_out(old, true, false, NULL, "already applied: nothing to do");
			else
				printf("%s: already applied from %s (%s over %zu members): nothing "
				       "to do\n", old->md_dev, old->plan, old->level, old->n);
			code = EXIT_DONE;
		} else {
			cli_error("apply: the name %s is taken by an array shortstroke created from "
				  "%s; 'shortstroke array undo %s' first, or choose another name",
				  o->name, old->plan, o->name);
		}
		goto out;
	}
	if (rc == 0 && old->state != AS_UNDONE) {
		if (!same_plan(old, plan_abs)) {
			cli_error("apply: an apply of %s from %s stopped at '%s'; finish it with "
				  "'shortstroke array undo %s' first", o->name, old->plan, old->step,
				  o->name);
			goto out;
		}
		fprintf(stderr, "shortstroke: apply: an earlier apply of %s stopped at '%s': "
				"rolling it back first\n", o->name, old->step);
		if (!o->dry_run && teardown(ctx, old, false, stderr)) {
			cli_error("apply: the earlier apply could not be rolled back: %s; "
				  "'shortstroke array undo %s' finishes it", old->remains, o->name);
			goto out;
		}
	}

	/* every member: safe, the planned disk, a limit that works */
	for (size_t i = 0; i < p->n_disks; i++)
		if (!batch_add(&b, specs[i])) {
			code = cli_usage_error("apply", "%s is named twice", specs[i]);
			goto out;
		}
	b.dry_run = o->dry_run;
	b.yes = o->yes;
	b.force = o->force;
	b.json = o->json;
	batch_open(&b);
	infos = xcalloc(p->n_disks, sizeof(*infos));
	for (unsigned i = 0; i < b.n; i++) {
		struct batch_item *it = &b.items[i];
		const struct plan_disk *pd = &p->disks[i];
		struct cap_request req = { .method = o->method, .by = CAP_BY_BLOCKS,
					   .blocks = pd->limit_blocks, .force = true };
		struct journal_entry orig;
		struct mjob *j;
		struct cap_ctx c = { .d = it->d, .e = &it->e };

		if (!it->ready)
			continue;
		infos[i] = &it->e.info;
		if (array_member_check(pd, &it->e.info, &it->err)) {
			ss_error_prefix(&it->err, "%s (member %u): ", it->e.spec, i + 1);
			it->ready = false;
			it->rc = -EPERM;
			it->exit_hint = EXIT_REFUSED;
			continue;
		}
		j = xcalloc(1, sizeof(*j));
		j->b = &b;
		it->op = j;
		if (!o->dry_run && cap_refresh_native(&c, &it->err)) {
			it->ready = false;
			it->rc = it->err.code;
			continue;
		}
		if (cap_plan_limit(&it->e.info,
				   journal_original(ctx_state_dir(ctx), it->e.info.serial,
						    it->e.info.wwn, &orig, NULL) == 0 ? &orig : NULL,
				   &req, &j->plan, &it->err) ||
		    (j->plan.target != pd->limit_blocks &&
		     ss_error_set(&it->err, -EINVAL, "the limit rounds to %" PRIu64
			     " blocks, not the plan's %" PRIu64, j->plan.target,
			     pd->limit_blocks))) {
			ss_error_prefix(&it->err, "%s: ", it->e.spec);
			it->ready = false;
			it->rc = it->err.code;
			it->exit_hint = it->rc == -EPERM ? EXIT_REFUSED : EXIT_FAILED;
			continue;
		}
		snprintf(it->plan, sizeof(it->plan), "member %u, %s %s: %s by %s", i + 1,
			 it->e.info.model, it->e.info.serial, j->plan.noop ? "already limited"
									 : j->plan.note,
			 cap_method_name(j->plan.method));
	}
	code = report_unready(&b);
	if (code != EXIT_DONE)
		goto out;
	code = EXIT_FAILED;
	if (array_level_check(p, infos, &err)) {
		cli_error("apply: refused: %s; nothing was changed", err.msg);
		goto out;
	}

	/* the record of this run */
	snprintf(r->name, sizeof(r->name), "%s", o->name);
	snprintf(r->md_dev, sizeof(r->md_dev), "/dev/md/%s", o->name);
	snprintf(r->plan, sizeof(r->plan), "%s", plan_abs);
	snprintf(r->level, sizeof(r->level), "%s", array_md_level(p->layout.level));
	snprintf(r->fs, sizeof(r->fs), "%s", o->mkfs ? o->mkfs : "");
	r->copies = p->layout.copies ? p->layout.copies : 2;
	r->chunk_bytes = p->layout.chunk_bytes;
	now_iso(r->created, sizeof(r->created));
	r->n = b.n;
	for (unsigned i = 0; i < b.n; i++) {
		struct batch_item *it = &b.items[i];
		struct array_member *m = &r->m[i];
		struct mjob *j = it->op;

		snprintf(m->spec, sizeof(m->spec), "%s", it->e.spec);
		snprintf(m->node, sizeof(m->node), "%s", it->e.sim ? it->e.spec : it->e.node);
		snprintf(m->serial, sizeof(m->serial), "%s", it->e.info.serial);
		snprintf(m->wwn, sizeof(m->wwn), "%s", it->e.info.wwn);
		snprintf(m->model, sizeof(m->model), "%s", it->e.info.model);
		snprintf(m->method, sizeof(m->method), "%s", cap_method_name(j->plan.method));
		m->block_len = it->e.info.logical_block;
		m->before_blocks = it->e.info.capacity_blocks;
		m->limit_blocks = p->disks[i].limit_blocks;
	}
	later_steps_check(ctx, r, o, why, sizeof(why));
	if (why[0] && !o->dry_run) {
		cli_error("apply: cannot build the array: %s; nothing was changed", why);
		goto out;
	}

	log = open_memstream(&logbuf, &loglen);
	if (o->dry_run) {
		struct array_argv a;

		batch_confirm(&b, "limit");
		for (unsigned i = 0; i < b.n; i++)
			b.items[i].rc = member_job(&b.items[i], NULL, &b.items[i].err);
		for (unsigned i = 0; i < b.n; i++) {
			struct batch_item *it = &b.items[i];

			fputs(it->log ? it->log : "", log);
			if (it->rc)
				fprintf(log, "%s: %s\n", it->e.spec, it->err.msg);
		}
		array_create_argv(r, &a);
		array_argv_text(&a, line, sizeof(line));
		fprintf(log, "would run: %s\n", line);
		fprintf(log, "would check: %s --detail --export %s (level raid%s, %zu devices)\n",
			array_mdadm_prog(), r->md_dev, r->level, r->n);
		if (o->mkfs && array_mkfs_argv(r, &a, &err) == 0) {
			array_argv_text(&a, line, sizeof(line));
			fprintf(log, "would run: %s\n", line);
		}
		fprintf(log, "would %s the ARRAY line%s%s\n", o->conf ? "append" : "print",
			o->conf ? " to " : "", o->conf ? o->conf : "");
		if (why[0])
			fprintf(log, "a real run would stop before the first change: %s\n", why);
		else
			fprintf(log, "dry run: nothing was sent\n");
		fflush(log);
		if (o->json)
			json_out(r, !why[0], false, why, logbuf);
		else
			fputs(logbuf, stdout);
		code = why[0] ? EXIT_FAILED : EXIT_DONE;
		goto out;
	}

	if (!o->json)
		printf("array %s: RAID %s over %zu members, chunk %" PRIu64 " KiB%s%s\n", r->md_dev,
		       r->level, r->n, r->chunk_bytes / 1024, o->mkfs ? ", mkfs " : "",
		       o->mkfs ? o->mkfs : "");
	batch_confirm(&b, "limit for the md array");
	code = report_unready(&b);
	if (code != EXIT_DONE)
		goto out;
	code = EXIT_FAILED;

	/* the transaction */
	for (size_t i = 0; i < r->n; i++)
		r->m[i].state = AM_LIMITING;
	if (save_step(ctx, r, AS_LIMITING, "limiting the members", &err)) {
		cli_error("apply: %s; nothing was changed", err.msg);
		goto out;
	}
	journal_array(ctx, r, "array-apply");
	batch_run(&b, member_job);
	err.msg[0] = '\0';
	for (unsigned i = 0; i < b.n; i++) {
		struct batch_item *it = &b.items[i];
		struct mjob *j = it->op;

		if (it->rc == 0) {
			r->m[i].state = AM_LIMITED;
			/* the kernel may have given the disk a new node on the re-read */
			if (!it->e.sim)
				snprintf(r->m[i].node, sizeof(r->m[i].node), "%s", it->e.node);
			r->m[i].volatile_ = j->res.method == CAP_HPA && j->plan.volatile_;
			fprintf(log, "%s: %s\n", it->e.spec, it->result);
		} else if (!err.msg[0]) {
			ss_error_set(&err, it->rc, "%s", it->err.msg);
		} else {
			fprintf(log, "%s: also failed: %s\n", it->e.spec, it->err.msg);
		}
	}
	close_drives(&b);
	rc = err.msg[0] ? -EIO : save_step(ctx, r, AS_LIMITING, "members limited", &err);
	if (rc == 0)
		rc = create_array(ctx, r, o, log, &err);
	if (rc) {
		char failed[512];

		snprintf(failed, sizeof(failed), "%s", err.msg);
		fprintf(log, "failed: %s\nrolling back:\n", failed);
		if (teardown(ctx, r, false, log) == 0)
			snprintf(err.msg, sizeof(err.msg), "%s; rolled back: every member is "
				 "back to its original capacity", failed);
		else
			snprintf(err.msg, sizeof(err.msg), "%s; the rollback is incomplete: %s; "
				 "'shortstroke array undo %s' finishes it", failed, r->remains,
				 r->name);
		fflush(log);
		if (o->json)
			json_out(r, false, true, err.msg, logbuf);
		else
			fputs(logbuf, stdout);
		cli_error("apply: %s", err.msg);
		code = EXIT_FAILED;
		goto out;
	}
	save_step(ctx, r, AS_DONE, "done", NULL);
	journal_array(ctx, r, "array-created");
	fprintf(log, "%s: created: RAID %s over %zu members%s%s\n", r->md_dev, r->level, r->n,
		r->fs[0] ? ", " : "", r->fs);
	fflush(log);
	if (o->json)
		json_out(r, true, true, NULL, logbuf);
	else
		fputs(logbuf, stdout);
	code = EXIT_DONE;
out:
	if (log)
		fclose(log);
	free(logbuf);
	free_batch(&b);
	free(infos);
	free(specs);
	plan_free(p);
	free(r);
	free(old);
	return code;
}

static int apply_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'N' },
		{ "mkfs", required_argument, NULL, 'F' },
		{ "conf", required_argument, NULL, 'C' },
		{ "method", required_argument, NULL, 'm' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "yes", no_argument, NULL, 'y' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct apply_opts o = { 0 };
	struct ss_error err = { 0 };
	char **rest = xcalloc((size_t)argc + 1, sizeof(char *));
	int n = split_members(argc, argv, &o, rest), c, code;

	optind = 1;
	while ((c = getopt_long(n, rest, ":m:nyfJh", opts, NULL)) != -1) {
		switch (c) {
		case 'N':
			o.name = optarg;
			break;
		case 'F':
			o.mkfs = optarg;
			break;
		case 'C':
			o.conf = optarg;
			break;
		case 'm':
			/* md takes the whole disk: a method that keeps the size cannot serve */
			if (cap_method_parse(optarg, &o.method) ||
			    (cap_method_flags(optarg) & CAPM_KEEPS_SIZE)) {
				char names[128];

				cap_method_names(names, sizeof(names), CAPM_KEEPS_SIZE);
				code = cli_usage_error("apply", "unknown method '%s' (%s)", optarg,
						       names);
				goto out;
			}
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 'y':
			o.yes = true;
			break;
		case 'f':
			o.force = true;
			break;
		case 'J':
			o.json = true;
			break;
		case 'h':
			apply_usage(stdout);
			code = EXIT_DONE;
			goto out;
		default:
			code = cli_bad_option("apply", c, rest);
			goto out;
		}
	}
	if (optind != n - 1) {
		code = cli_usage_error("apply", optind >= n ? "name the plan file"
							   : "one plan file; members go after --members");
		goto out;
	}
	o.plan_path = rest[optind];
	if (!o.name) {
		code = cli_usage_error("apply", "name the array: --name NAME (/dev/md/NAME)");
		goto out;
	}
	if (array_name_check(o.name, &err)) {
		code = cli_usage_error("apply", "--name: %s", err.msg);
		goto out;
	}
	if (o.mkfs && strcmp(o.mkfs, "ext4") && strcmp(o.mkfs, "xfs")) {
		code = cli_usage_error("apply", "--mkfs: '%s': ext4 or xfs", o.mkfs);
		goto out;
	}
	code = apply_main(ctx, &o);
out:
	free(o.members);
	free(rest);
	return code;
}

/* ---- array list / status ------------------------------------------------------ */

static double stroke_of(const struct array_member *m)
{
	return m->before_blocks ? (double)m->limit_blocks / (double)m->before_blocks : 0;
}

static int arr_list(struct ss_ctx *ctx, bool json)
{
	char (*names)[ARRAY_NAME_MAX + 1];
	struct ss_error err = { 0 };
	json_object *arr = json ? json_object_new_array() : NULL;
	size_t n;
	int code = EXIT_DONE;

	if (array_rec_names(ctx_state_dir(ctx), &names, &n, &err)) {
		cli_error("array list: %s", err.msg);
		json_object_put(arr);
		return EXIT_FAILED;
	}
	if (!json)
		printf("%-20s %-19s %-5s %-7s %-10s %s\n", "NAME", "STATE", "LEVEL", "STROKE",
		       "LIMIT", "MEMBERS");
	for (size_t i = 0; i < n; i++) {
		struct array_rec *r = xcalloc(1, sizeof(*r));
		char h[32], members[2048] = "";

		if (array_rec_load(ctx_state_dir(ctx), names[i], r, &err)) {
			cli_error("array list: %s", err.msg);
			code = EXIT_FAILED;
			free(r);
			continue;
		}
		if (json) {
			char *s = array_rec_json(r);

			json_object_array_add(arr, json_tokener_parse(s));
			free(s);
		} else {
			for (size_t k = 0; k < r->n; k++) {
				size_t used = strlen(members);

				if (r->m[k].state == AM_REPLACED)
					continue;
				snprintf(members + used, sizeof(members) - used, "%s%s",
					 used ? "," : "", r->m[k].spec);
			}
			printf("%-20s %-19s %-5s %5.1f%%  %-10s %s\n", r->name,
			       array_state_name(r->state), r->level,
			       r->n ? 100.0 * stroke_of(&r->m[0]) : 0,
			       r->n ? size_human(r->m[0].limit_blocks * r->m[0].block_len, h,
						 sizeof(h))
				    : "-",
			       members);
		}
		free(r);
	}
	if (json) {
		json_object *root = json_object_new_object();

		json_object_object_add(root, "arrays", arr);
		printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
									    JSON_C_TO_STRING_SPACED |
									    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	}
	free(names);
	return code;
}

static int arr_status(struct ss_ctx *ctx, const char *name, bool json)
{
	struct array_rec *r = xcalloc(1, sizeof(*r));
	struct ss_error err = { 0 };
	struct array_detail d;
	struct array_sysfs s;
	char kname[64] = "", mdpath[4096];
	json_object *o = json_object_new_object(), *ms = json_object_new_array();
	bool have_detail, have_sysfs = false;
	int code = EXIT_DONE;

	if (array_rec_load(ctx_state_dir(ctx), name, r, &err)) {
		cli_error("array status: %s", err.msg);
		free(r);
		json_object_put(o);
		json_object_put(ms);
		return err.code == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	have_detail = array_detail_read(r->md_dev, &d, NULL) == 0;
	snprintf(mdpath, sizeof(mdpath), "%s%s", ctx->sysroot ? ctx->sysroot : "", r->md_dev);
	if (array_md_kname(mdpath, kname, sizeof(kname)) == 0)
		have_sysfs = array_sysfs_read(ctx->sysroot, kname, &s) == 0;
	if (!json) {
		printf("%s: RAID %s, %zu members, chunk %" PRIu64 " KiB; %s (step: %s)\n",
		       r->md_dev, r->level, r->n, r->chunk_bytes / 1024, array_state_name(r->state),
		       r->step);
		if (r->remains[0])
			printf("remains: %s\n", r->remains);
		if (have_detail)
			printf("md: %s over %u devices, UUID %s, name %s\n", d.level, d.devices,
			       d.uuid, d.name);
		else
			printf("md: %s is not active (mdadm --detail finds no array)\n", r->md_dev);
		if (have_sysfs) {
			printf("md: %s state %s, sync %s", kname, s.array_state, s.sync_action);
			if (s.sync_fraction >= 0)
				printf(" %.1f%%", 100 * s.sync_fraction);
			if (s.degraded >= 0)
				printf(", degraded %d", s.degraded);
			printf("\n");
		}
	}
	json_object_object_add(o, "name", json_object_new_string(r->name));
	json_object_object_add(o, "state", json_object_new_string(array_state_name(r->state)));
	json_object_object_add(o, "md_active", json_object_new_boolean(have_detail));
	json_object_object_add(o, "md_level", have_detail ? json_object_new_string(d.level) : NULL);
	json_object_object_add(o, "array_state",
			       have_sysfs ? json_object_new_string(s.array_state) : NULL);
	json_object_object_add(o, "sync_action",
			       have_sysfs ? json_object_new_string(s.sync_action) : NULL);
	json_object_object_add(o, "sync_fraction", have_sysfs && s.sync_fraction >= 0
							   ? json_object_new_double(s.sync_fraction)
							   : NULL);
	for (size_t i = 0; i < r->n; i++) {
		struct array_member *m = &r->m[i];
		struct dev_entry e;
		struct drive *dr = NULL;
		json_object *j = json_object_new_object();
		bool ok;

		if (m->state == AM_REPLACED) {
			json_object_put(j);
			continue;
		}
		ok = device_open(ctx, m->spec, false, &dr, &e, &err) == 0;
		json_object_object_add(j, "device", json_object_new_string(m->spec));
		json_object_object_add(j, "limit_blocks", json_object_new_uint64(m->limit_blocks));
		json_object_object_add(j, "capacity_blocks",
				       ok ? json_object_new_uint64(e.info.capacity_blocks) : NULL);
		json_object_object_add(j, "limited", ok ? json_object_new_boolean(
								  e.info.capacity_blocks ==
								  m->limit_blocks) : NULL);
		json_object_array_add(ms, j);
		if (!json) {
			if (ok)
				printf("%s: %" PRIu64 " blocks (the limit is %" PRIu64 ": %s)%s\n",
				       m->spec, e.info.capacity_blocks, m->limit_blocks,
				       e.info.capacity_blocks == m->limit_blocks ? "limited"
				       : m->state == AM_RESTORED ? "restored"
								 : "NOT limited",
				       m->volatile_ ? "; volatile" : "");
			else
				printf("%s: cannot be read: %s\n", m->spec, err.msg);
		}
		if (ok && e.info.capacity_blocks != m->limit_blocks && r->state == AS_DONE)
			code = EXIT_FAILED;
		drive_free(dr);
	}
	json_object_object_add(o, "members", ms);
	if (json)
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_SPACED |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	free(r);
	return code;
}

/* ---- undo ------------------------------------------------------------------------- */

static bool confirm_name(bool yes, const char *what, const char *name)
{
	char line[128];

	if (yes)
		return true;
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO)) {
		cli_error("array %s: not confirmed: pass --yes in scripts", what);
		return false;
	}
	fprintf(stderr, "Type the array's name (%s) to %s it: ", name, what);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	line[strcspn(line, "\r\n")] = '\0';
	return !strcmp(line, name);
}

static int arr_undo(struct ss_ctx *ctx, const char *name, bool yes, bool dry_run, bool json)
{
	struct array_rec *r = xcalloc(1, sizeof(*r));
	struct ss_error err = { 0 };
	struct array_sysfs s;
	char kname[64] = "", mdpath[4096], where[1024], *logbuf = NULL;
	size_t loglen = 0;
	FILE *log;
	int code = EXIT_FAILED;

	if (array_rec_load(ctx_state_dir(ctx), name, r, &err)) {
		cli_error("array undo: %s", err.msg);
		free(r);
		return err.code == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	if (r->state == AS_UNDONE) {
		if (json)
			json_out(r, true, false, NULL, "already undone: nothing to do");
		else
			printf("%s: already undone: nothing to do\n", r->md_dev);
		free(r);
		return EXIT_DONE;
	}
	snprintf(mdpath, sizeof(mdpath), "%s%s", ctx->sysroot ? ctx->sysroot : "", r->md_dev);
	array_md_kname(mdpath, kname, sizeof(kname));
	if (array_mounted(ctx->sysroot, r->md_dev, kname, where, sizeof(where))) {
		cli_error("array undo: refused: %s is mounted on %s; unmount it first", r->md_dev,
			  where);
		free(r);
		return EXIT_REFUSED;
	}
	if (kname[0] && array_sysfs_read(ctx->sysroot, kname, &s) == 0 && s.holders[0]) {
		cli_error("array undo: refused: %s (%s) is held by %s (LVM, dm or another md "
			  "array); take it out of there first", r->md_dev, kname, s.holders);
		free(r);
		return EXIT_REFUSED;
	}
	if (!dry_run && !confirm_name(yes, "undo", name)) {
		free(r);
		return EXIT_REFUSED;
	}
	log = open_memstream(&logbuf, &loglen);
	if (teardown(ctx, r, dry_run, log) == 0) {
		fprintf(log, "%s: %s\n", r->md_dev,
			dry_run ? "dry run: nothing was changed" : "undone: every member restored");
		code = EXIT_DONE;
	} else {
		snprintf(err.msg, sizeof(err.msg), "%s: undo incomplete: %s", r->md_dev,
			 r->remains);
	}
	fclose(log);
	if (json)
		json_out(r, code == EXIT_DONE, !dry_run, code ? err.msg : NULL, logbuf);
	else
		fputs(logbuf, stdout);
	if (code)
		cli_error("array undo: %s", err.msg);
	free(logbuf);
	free(r);
	return code;
}

/* ---- replace ---------------------------------------------------------------------- */

static int find_member(const struct array_rec *r, const char *spec)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->m[i].state != AM_REPLACED &&
		    (!strcmp(r->m[i].spec, spec) || !strcmp(r->m[i].node, spec)))
			return (int)i;
	return -1;
}

static void wait_rebuild(struct ss_ctx *ctx, const char *md_dev)
{
	char kname[64], mdpath[4096];
	struct array_sysfs s;

	snprintf(mdpath, sizeof(mdpath), "%s%s", ctx->sysroot ? ctx->sysroot : "", md_dev);
	if (array_md_kname(mdpath, kname, sizeof(kname)))
		return;
	for (;;) {
		struct timespec ts = { 0, 500000000L };

		if (array_sysfs_read(ctx->sysroot, kname, &s) || !strcmp(s.sync_action, "idle"))
			break;
		if (s.sync_fraction >= 0)
			fprintf(stderr, "%s: %s %.1f%%\n", md_dev, s.sync_action,
				100 * s.sync_fraction);
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "%s: rebuild done (%s)\n", md_dev, s.array_state);
}

static int arr_replace(struct ss_ctx *ctx, const char *name, const char *old_spec,
			 const char *new_spec, bool yes, bool dry_run, bool wait)
{
	struct batch b = { .cmd = "array replace", .ctx = ctx, .yes = yes, .dry_run = dry_run };
	struct array_rec *r = xcalloc(1, sizeof(*r));
	struct ss_error err = { 0 };
	struct plan_disk pd = { 0 };
	struct batch_item *it;
	struct mjob *j;
	struct array_member *om, nm;
	struct journal_entry orig;
	struct cap_request req = { .by = CAP_BY_BLOCKS, .force = true };
	char out[4096], why[1024];
	int idx, code = EXIT_FAILED;

	if (array_rec_load(ctx_state_dir(ctx), name, r, &err)) {
		cli_error("array replace: %s", err.msg);
		free(r);
		return err.code == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	idx = find_member(r, old_spec);
	if (idx < 0 || r->state != AS_DONE || r->n >= ARRAY_MAX_MEMBERS) {
		if (idx < 0)
			code = cli_usage_error("array", "%s is not a member of %s", old_spec, name);
		else
			cli_error("array replace: %s is %s, not a complete array",
				  r->md_dev, array_state_name(r->state));
		free(r);
		return code;
	}
	om = &r->m[idx];
	if (array_md_check(ctx->sysroot, r->level, &err) && !dry_run) {
		cli_error("array replace: %s; nothing was changed", err.msg);
		free(r);
		return EXIT_FAILED;
	}
	it = batch_add(&b, new_spec);
	batch_open(&b);
	/* the new disk must be like the member it replaces */
	pd.placeholder = true;
	pd.block_size = om->block_len;
	pd.limit_blocks = om->limit_blocks;
	pd.capacity_blocks = om->limit_blocks;
	snprintf(pd.model_of, sizeof(pd.model_of), "%s", om->spec);
	if (it->ready && array_member_check(&pd, &it->e.info, &it->err)) {
		ss_error_prefix(&it->err, "%s: ", new_spec);
		it->ready = false;
		it->exit_hint = EXIT_REFUSED;
	}
	if (it->ready && find_member(r, it->e.spec) >= 0) {
		ss_error_set(&it->err, -EINVAL, "%s is already a member of %s", new_spec, name);
		it->ready = false;
		it->exit_hint = EXIT_USAGE;
	}
	j = xcalloc(1, sizeof(*j));
	j->b = &b;
	it->op = j;
	if (it->ready) {
		bool have = journal_original(ctx_state_dir(ctx), it->e.info.serial, it->e.info.wwn,
					     &orig, NULL) == 0;

		req.blocks = om->limit_blocks;
		/* the members' method where the new disk has it, else its best */
		if (cap_method_parse(om->method, &req.method) ||
		    cap_plan_limit(&it->e.info, have ? &orig : NULL, &req, &j->plan, NULL)) {
			req.method = CAP_AUTO;
			if (cap_plan_limit(&it->e.info, have ? &orig : NULL, &req, &j->plan,
					   &it->err)) {
				ss_error_prefix(&it->err, "%s: ", new_spec);
				it->ready = false;
			}
		}
		if (it->ready && j->plan.target != om->limit_blocks) {
			ss_error_set(&it->err, -EINVAL,
				     "%s: its limit would be %" PRIu64 " blocks, not the members' %"
				     PRIu64, new_spec, j->plan.target, om->limit_blocks);
			it->ready = false;
		}
		snprintf(it->plan, sizeof(it->plan), "replaces %s in %s: %s by %s", old_spec,
			 r->md_dev, j->plan.noop ? "already limited" : j->plan.note,
			 cap_method_name(j->plan.method));
	}
	code = report_unready(&b);
	if (code != EXIT_DONE)
		goto out;
	code = EXIT_FAILED;
	batch_confirm(&b, "limit and add to the md array");
	if (!it->ready) {
		code = report_unready(&b);
		goto out;
	}
	memset(&nm, 0, sizeof(nm));
	snprintf(nm.spec, sizeof(nm.spec), "%s", it->e.spec);
	snprintf(nm.node, sizeof(nm.node), "%s", it->e.sim ? it->e.spec : it->e.node);
	snprintf(nm.serial, sizeof(nm.serial), "%s", it->e.info.serial);
	snprintf(nm.wwn, sizeof(nm.wwn), "%s", it->e.info.wwn);
	snprintf(nm.model, sizeof(nm.model), "%s", it->e.info.model);
	snprintf(nm.method, sizeof(nm.method), "%s", cap_method_name(j->plan.method));
	nm.block_len = it->e.info.logical_block;
	nm.before_blocks = it->e.info.capacity_blocks;
	nm.limit_blocks = om->limit_blocks;
	nm.state = AM_LIMITING;
	if (dry_run) {
		it->rc = member_job(it, NULL, &it->err);
		fputs(it->log ? it->log : "", stdout);
		printf("would run: %s %s --remove %s (or, while it is active, --add-spare %s "
		       "and --replace %s --with %s)\nwould run: %s %s --add %s\n",
		       array_mdadm_prog(), r->md_dev, om->node, nm.node, om->node, nm.node,
		       array_mdadm_prog(), r->md_dev, nm.node);
		code = it->rc ? EXIT_FAILED : EXIT_DONE;
		goto out;
	}
	/* the new member is recorded before its limit, at the old one's place */
	r->m[r->n] = *om;
	r->m[r->n].state = AM_REPLACED;
	r->m[idx] = nm;
	om = &r->m[r->n];
	r->n++;
	save_step(ctx, r, AS_DONE, "replace: limiting the new member", NULL);
	journal_array(ctx, r, "array-replace");
	batch_run(&b, member_job);
	if (it->rc) {
		cli_error("array replace: %s; %s is unchanged", it->err.msg, r->md_dev);
		r->m[idx] = *om;
		r->n--;
		save_step(ctx, r, AS_DONE, "done", NULL);
		goto out;
	}
	printf("%s: %s\n", new_spec, it->result);
	r->m[idx].state = AM_LIMITED;
	close_drives(&b);
	save_step(ctx, r, AS_DONE, "replace: mdadm --add", NULL);
	{
		char *rm[] = { (char *)array_mdadm_prog(), r->md_dev, "--remove", om->node, NULL };
		char *add[] = { (char *)array_mdadm_prog(), r->md_dev, "--add", r->m[idx].node,
				NULL };
		char *spare[] = { (char *)array_mdadm_prog(), r->md_dev, "--add-spare",
				  r->m[idx].node, NULL };
		char *repl[] = { (char *)array_mdadm_prog(), r->md_dev, "--replace", om->node,
				 "--with", r->m[idx].node, NULL };
		int rc;

		if (array_exec(rm, out, sizeof(out), NULL) == 0) {
			printf("%s: %s removed\n", r->md_dev, om->node);
			rc = array_exec(add, out, sizeof(out), &err);
		} else {
			rc = array_exec(spare, out, sizeof(out), &err);
			if (rc == 0)
				rc = array_exec(repl, out, sizeof(out), &err);
		}
		if (rc) {
			snprintf(why, sizeof(why), "%s", err.msg);
			cli_error("array replace: %s; %s stays limited (restore it with "
				  "'shortstroke restore %s')", why, new_spec, new_spec);
			r->m[idx] = *om;
			r->m[idx].state = AM_LIMITED;
			r->n--;
			save_step(ctx, r, AS_DONE, "done", NULL);
			goto out;
		}
	}
	save_step(ctx, r, AS_DONE, "done", NULL);
	printf("%s: %s added in the place of %s; md rebuilds it\n", r->md_dev, new_spec,
	       old_spec);
	if (wait)
		wait_rebuild(ctx, r->md_dev);
	code = EXIT_DONE;
out:
	free_batch(&b);
	free(r);
	return code;
}

static int array_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "yes", no_argument, NULL, 'y' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "wait", no_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool yes = false, dry = false, wait = false, json = false;
	const char *sub;
	int c, nargs;

	while ((c = getopt_long(argc, argv, ":ynwJh", opts, NULL)) != -1) {
		switch (c) {
		case 'y':
			yes = true;
			break;
		case 'n':
			dry = true;
			break;
		case 'w':
			wait = true;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			array_usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("array", c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("array", "list, status, undo or replace?");
	sub = argv[optind++];
	nargs = argc - optind;
	if (!strcmp(sub, "list") && nargs == 0)
		return arr_list(ctx, json);
	if (!strcmp(sub, "status") && nargs == 1)
		return arr_status(ctx, argv[optind], json);
	if (!strcmp(sub, "undo") && nargs == 1)
		return arr_undo(ctx, argv[optind], yes, dry, json);
	if (!strcmp(sub, "replace") && nargs == 3)
		return arr_replace(ctx, argv[optind], argv[optind + 1], argv[optind + 2], yes,
				     dry, wait);
	if (strcmp(sub, "list") && strcmp(sub, "status") && strcmp(sub, "undo") &&
	    strcmp(sub, "replace"))
		return cli_usage_error("array", "unknown subcommand '%s' (list, status, undo, "
						"replace)", sub);
	return cli_usage_error("array", "%s: wrong number of arguments", sub);
}

const struct cli_cmd cmd_apply = {
	.name = "apply",
	.summary = "create the short-stroked md array a plan file describes",
	.run = apply_run,
};

const struct cli_cmd cmd_array = {
	.name = "array",
	.summary = "the arrays apply created: list, status, replace, undo",
	.run = array_run,
};
