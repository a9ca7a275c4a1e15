/* replace.c - array replace for every front end: a member of an array
 * apply created taken out and a new disk put in its place, checked as
 * apply checks a member, limited to the members' limit, given to md; the
 * member taken out let go (md metadata wiped, capacity restored) or kept in
 * the record with what remains to do. Progress and the plan to confirm go
 * to the caller's callbacks, the log of what was run into the result;
 * nothing is printed here. See docs/arrays.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "shortstroke/array.h"
#include "shortstroke/capacity.h"
#include "shortstroke/journal.h"
#include "array_priv.h"

static int array_rebuild_wait(struct ss_ctx *ctx, const char *md_dev,
			      void (*tick)(void *arg, const char *md_dev,
					   const struct array_sysfs *s),
			      void *arg, struct array_sysfs *end, struct ss_error *err);

/* The run: its options, callbacks, record and log. */
struct rx {
	struct ss_ctx *ctx;
	const struct array_replace_opts *o;
	const struct array_replace_cb *cb;
	struct array_replace_result *res;
	FILE *log;
};

static const char *state_dir(const struct rx *x)
{
	return ctx_state_dir(x->ctx);
}

/* The active member named spec (its device or the node md has), or -1. */
static int find_member(const struct array_rec *r, const char *spec)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->m[i].state != AM_REPLACED &&
		    (!strcmp(r->m[i].spec, spec) || !strcmp(r->m[i].node, spec)))
			return (int)i;
	return -1;
}

/* Is disk i another disk than member m (its serial, or WWN where both have one)? */
static bool not_member(const struct array_member *m, const struct drive_info *i)
{
	return (m->serial[0] && strcmp(m->serial, i->serial)) ||
	       (m->wwn[0] && i->wwn[0] && strcasecmp(m->wwn, i->wwn));
}

static void refuse(struct array_apply_member *am, int rc, enum array_refusal how)
{
	am->ready = false;
	am->rc = rc;
	am->refusal = how;
}

/* The class of the member replaced: its rpm and transport when it joined
 * (the record's), else what its drive says now, else what every other
 * member has (a record of an earlier version, the drive gone). */
static void slot_class(struct ss_ctx *ctx, const struct array_rec *r, size_t slot, unsigned *rpm,
		       char *tran, size_t len)
{
	const struct array_member *om = &r->m[slot];
	struct ss_error ignored = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;
	bool mixed = false;

	*rpm = om->rpm;
	snprintf(tran, len, "%s", om->tran);
	if (!*rpm || !tran[0]) {
		if (device_open(ctx, om->spec, false, &d, &e, &ignored) == 0 &&
		    !not_member(om, &e.info)) {
			if (!*rpm)
				*rpm = e.info.rpm;
			if (!tran[0])
				snprintf(tran, len, "%s", drive_tran_name(e.info.tran));
		}
		drive_free(d);
	}
	for (size_t i = 0; (!*rpm || !tran[0]) && i < r->n; i++) {
		const struct array_member *m = &r->m[i];

		if (m->state == AM_REPLACED || i == slot || !m->rpm)
			continue;
		mixed |= array_rpm_class(m->rpm) != array_rpm_class(r->m[0].rpm) ||
			 strcmp(m->tran, r->m[0].tran);
	}
	for (size_t i = 0; !mixed && (!*rpm || !tran[0]) && i < r->n; i++) {
		if (r->m[i].state == AM_REPLACED || i == slot)
			continue;
		if (!*rpm)
			*rpm = r->m[i].rpm;
		if (!tran[0])
			snprintf(tran, len, "%s", r->m[i].tran);
	}
}

/* The new disk of another rpm class or transport than the member it
 * replaces: refused, unless --force (then said in the plan). */
static void class_check(struct rx *x, const struct array_rec *r, size_t slot)
{
	struct array_apply_member *am = &x->res->m;
	const struct drive_info *i = &am->e.info;
	const char *tran_new = drive_tran_name(i->tran);
	char tran[16], why[256] = "";
	unsigned rpm;

	slot_class(x->ctx, r, slot, &rpm, tran, sizeof(tran));
	if (array_rpm_class(rpm) && array_rpm_class(i->rpm) &&
	    array_rpm_class(rpm) != array_rpm_class(i->rpm))
		snprintf(why, sizeof(why), "a %u rpm disk in the place of a %u rpm member", i->rpm,
			 rpm);
	else if (tran[0] && strcmp(tran, "unknown") && strcmp(tran_new, "unknown") &&
		 strcmp(tran, tran_new))
		snprintf(why, sizeof(why), "a %s disk in the place of a %s member", tran_new, tran);
	if (!why[0])
		return;
	if (x->o->force) {
		snprintf(x->res->class_note, sizeof(x->res->class_note), "%s (--force)", why);
		return;
	}
	ss_error_set(&am->err, -EPERM,
		     "%s: %s: md would run at the pace of the slowest and the plan's figures no "
		     "longer hold; --force takes it all the same",
		     am->e.spec, why);
	refuse(am, -EPERM, AR_REFUSED);
}

/* What md gets of a member limited to limit blocks: the whole limit, or its
 * partition (from the first MiB). */
static uint64_t md_blocks(bool part, uint32_t block_len, uint64_t limit)
{
	return part ? limit - cap_partition_start(block_len) : limit;
}

/* A new member limited by the partition method: the same partition as the
 * others, with room for it, and never smaller than the member it replaces
 * gave md (a whole disk gives it the first MiB too). */
static void partition_fits(const struct array_member *om, struct array_apply_member *am)
{
	bool was = cap_method_flags(om->method) & CAPM_KEEPS_SIZE;
	uint64_t need = md_blocks(was, om->block_len, om->limit_blocks);
	uint64_t got = md_blocks(array_by_partition(am->plan.method), am->e.info.logical_block,
				 om->limit_blocks);

	if (!array_by_partition(am->plan.method))
		return;
	if (cap_partition_fits(&am->e.info, om->limit_blocks, &am->err)) {
		ss_error_prefix(&am->err, "%s: the partition method: ", am->e.spec);
		refuse(am, am->err.code, AR_FAILED);
	} else if (got < need) {
		ss_error_set(&am->err, -EPERM,
			     "%s: only a partition can limit it, which would give md %" PRIu64
			     " blocks, fewer than the %" PRIu64 " of the member it replaces (%s, "
			     "the whole disk limited by %s)",
			     am->e.spec, got, need, om->spec, om->method);
		refuse(am, -EPERM, AR_REFUSED);
	}
}

/* The limit the new disk gets: exactly the members' (OLD's method where NEW
 * has it, else its best), or none for a full-stroke array's. */
static void plan_member(struct rx *x, const struct array_member *om, bool whole)
{
	struct array_apply_member *am = &x->res->m;
	struct cap_request req = { .by = CAP_BY_BLOCKS, .force = true, .blocks = om->limit_blocks };
	struct journal_entry orig;
	bool have = journal_original(state_dir(x), am->e.info.serial, am->e.info.wwn, &orig,
				     NULL) == 0;

	if (whole) {
		am->whole = true;
		snprintf(am->plan_text, sizeof(am->plan_text),
			 "replaces %s in %s: used whole (a full-stroke array): no limit", om->spec,
			 x->res->md_dev);
		return;
	}
	if (!x->o->dry_run) {
		struct cap_ctx c = { .d = am->d, .e = &am->e };

		if (cap_refresh_native(&c, &am->err)) {
			refuse(am, am->err.code, AR_FAILED);
			return;
		}
	}
	if (cap_method_parse(om->method, &req.method) ||
	    cap_plan_limit(&am->e.info, have ? &orig : NULL, &req, &am->plan, NULL)) {
		req.method = array_auto_method(&am->e.info);
		if (cap_plan_limit(&am->e.info, have ? &orig : NULL, &req, &am->plan, &am->err)) {
			ss_error_prefix(&am->err, "%s: ", am->e.spec);
			refuse(am, am->err.code, am->err.code == -EPERM ? AR_REFUSED : AR_FAILED);
			return;
		}
	}
	if (am->plan.target != om->limit_blocks) {
		ss_error_set(&am->err, -EINVAL,
			     "%s: its limit would be %" PRIu64 " blocks, not the members' %" PRIu64,
			     am->e.spec, am->plan.target, om->limit_blocks);
		refuse(am, -EINVAL, AR_FAILED);
		return;
	}
	partition_fits(om, am);
	if (!am->ready)
		return;
	snprintf(am->plan_text, sizeof(am->plan_text), "replaces %s in %s: %s by %s%s%s", om->spec,
		 x->res->md_dev, am->plan.noop ? "already limited" : am->plan.note,
		 cap_method_name(am->plan.method), x->res->class_note[0] ? "; " : "",
		 x->res->class_note);
}

/* NEW: open, safe, the disk apply would take for OLD's place. */
static void check_new(struct rx *x, const struct array_rec *r, size_t slot)
{
	const struct array_member *om = &r->m[slot];
	struct array_apply_member *am = &x->res->m;
	struct plan_disk pd = { 0 };
	bool whole = !strcmp(om->method, ARRAY_METHOD_WHOLE);
	int rc;

	snprintf(am->e.spec, sizeof(am->e.spec), "%s", x->o->new_spec);
	am->ready = true;
	rc = device_open(x->ctx, x->o->new_spec, true, &am->d, &am->e, &am->err);
	if (rc && am->e.state != DEV_FREE && !x->o->force) {
		/* the safety verdict is the more important news */
		device_check_safe(&am->e, false, &am->err);
		refuse(am, -EPERM, AR_REFUSED);
		return;
	}
	if (rc) {
		refuse(am, rc, AR_BY_RC);
		return;
	}
	if (device_check_safe(&am->e, x->o->force, &am->err) ||
	    device_check_serial(x->ctx, &am->e, x->o->force, &am->err)) {
		refuse(am, -EPERM, AR_REFUSED);
		return;
	}
	if (find_member(r, am->e.spec) >= 0 || find_member(r, am->e.node) >= 0) {
		ss_error_usage(&am->err, -EINVAL, "%s is already a member of %s", x->o->new_spec,
			       r->name);
		refuse(am, -EINVAL, AR_BY_RC);
		return;
	}
	if (array_member_elsewhere(state_dir(x), r->name, &am->e.info, &am->err)) {
		ss_error_prefix(&am->err, "%s: ", x->o->new_spec);
		refuse(am, -EPERM, AR_REFUSED);
		return;
	}
	/* like the member it replaces: block size, room for the limit (for a
	 * full-stroke array, md's smallest member); the class is checked here */
	pd.placeholder = true;
	pd.block_size = om->block_len;
	pd.limit_blocks = om->limit_blocks;
	pd.capacity_blocks = om->limit_blocks;
	for (size_t k = 0; whole && k < r->n; k++)
		if (r->m[k].state != AM_REPLACED && r->m[k].limit_blocks < pd.capacity_blocks)
			pd.capacity_blocks = r->m[k].limit_blocks;
	snprintf(pd.model_of, sizeof(pd.model_of), "%s", om->spec);
	if (array_member_check(&pd, &am->e.info, array_full_blocks(x->ctx, &am->e.info),
			       &am->err)) {
		ss_error_prefix(&am->err, "%s: ", x->o->new_spec);
		refuse(am, -EPERM, AR_REFUSED);
		return;
	}
	class_check(x, r, slot);
	if (am->ready)
		plan_member(x, om, whole);
}

/* The record's entry of the new member, at the old one's place. */
static void new_member(const struct rx *x, const struct array_member *om, struct array_member *nm)
{
	const struct array_apply_member *am = &x->res->m;

	memset(nm, 0, sizeof(*nm));
	snprintf(nm->spec, sizeof(nm->spec), "%s", am->e.spec);
	if (array_by_partition(am->plan.method))
		cap_partition_node(&am->e, nm->node, sizeof(nm->node));
	else
		snprintf(nm->node, sizeof(nm->node), "%s", am->e.sim ? am->e.spec : am->e.node);
	snprintf(nm->serial, sizeof(nm->serial), "%s", am->e.info.serial);
	snprintf(nm->wwn, sizeof(nm->wwn), "%s", am->e.info.wwn);
	snprintf(nm->model, sizeof(nm->model), "%s", am->e.info.model);
	snprintf(nm->method, sizeof(nm->method), "%s",
		 am->whole ? ARRAY_METHOD_WHOLE : cap_method_name(am->plan.method));
	snprintf(nm->tran, sizeof(nm->tran), "%s", drive_tran_name(am->e.info.tran));
	nm->rpm = am->e.info.rpm;
	nm->block_len = am->e.info.logical_block;
	nm->before_blocks = am->e.info.capacity_blocks;
	nm->limit_blocks = am->whole ? nm->before_blocks : om->limit_blocks;
	nm->state = AM_LIMITING;
}

static int run_mdadm(struct rx *x, char *const argv[], struct ss_error *err)
{
	char out[4096], line[1024];
	struct array_argv a = { .n = 0 };

	for (size_t i = 0; argv[i] && i < ARRAY_ARGV_MAX; i++)
		a.argv[a.n++] = argv[i];
	array_argv_text(&a, line, sizeof(line));
	fprintf(x->log, "running: %s\n", line);
	return array_exec(argv, out, sizeof(out), err);
}

/* The old member out of md's hands: its md metadata wiped, its capacity
 * restored; what cannot be done goes into its todo. */
static void let_go(struct rx *x, struct array_rec *r, struct array_member *om)
{
	struct ss_error err = { 0 };

	if (!strcmp(om->method, ARRAY_METHOD_WHOLE)) {
		om->todo[0] = '\0';
		fprintf(x->log, "%s: left the array (used whole: nothing to restore)\n", om->spec);
		return;
	}
	if (array_member_at_node(x->ctx, om, &err) ||
	    array_zero_superblock(om->node, false, x->log, &err)) {
		snprintf(om->todo, sizeof(om->todo), "wipe its md metadata and restore it: %s",
			 err.msg);
		fprintf(x->log, "%s: NOT restored: %s\n", om->spec, om->todo);
		return;
	}
	if (array_member_restore(x->ctx, r->name, om, false, x->log, &err)) {
		snprintf(om->todo, sizeof(om->todo), "restore: %s", err.msg);
		fprintf(x->log, "%s: NOT restored: %s\n", om->spec, err.msg);
		return;
	}
	om->todo[0] = '\0';
}

/* md gives NEW the slot: OLD removed (it has failed) and NEW added, else NEW
 * a spare and a copy from OLD onto it (OLD still active). *copy: the
 * latter, where OLD stays in md until the copy ends. */
static int md_swap(struct rx *x, const char *md, const char *old_node, const char *new_node,
		   bool *copy, struct ss_error *err)
{
	char *prog = (char *)array_mdadm_prog();
	char *rm[] = { prog, (char *)md, "--remove", (char *)old_node, NULL };
	char *add[] = { prog, (char *)md, "--add", (char *)new_node, NULL };
	char *spare[] = { prog, (char *)md, "--add-spare", (char *)new_node, NULL };
	char *repl[] = { prog,	   (char *)md,	     "--replace", (char *)old_node,
			 "--with", (char *)new_node, NULL };
	int rc;

	*copy = false;
	if (run_mdadm(x, rm, NULL) == 0) {
		fprintf(x->log, "%s: %s removed\n", md, old_node);
		return run_mdadm(x, add, err);
	}
	*copy = true;
	rc = run_mdadm(x, spare, err);
	return rc ? rc : run_mdadm(x, repl, err);
}

static void tick(void *arg, const char *md_dev, const struct array_sysfs *s)
{
	const struct rx *x = arg;

	if (x->cb && x->cb->rebuild)
		x->cb->rebuild(x->cb->arg, md_dev, s);
}

/* With --wait after a --replace: md ends the copy with OLD marked faulty,
 * still in the array: take it out, then let it go. */
static void after_copy(struct rx *x, struct array_rec *r, struct array_member *om)
{
	char *rm[] = { (char *)array_mdadm_prog(), x->res->md_dev, "--remove", om->node, NULL };
	struct ss_error err = { 0 };

	if (run_mdadm(x, rm, &err)) {
		char todo[sizeof(om->todo)];

		snprintf(todo, sizeof(todo),
			 "md did not let it go after the copy (%s): 'mdadm %s --remove %s', then "
			 "'shortstroke restore %s'",
			 err.msg, x->res->md_dev, om->node, om->spec);
		memcpy(om->todo, todo, sizeof(todo));
		return;
	}
	fprintf(x->log, "%s: %s removed\n", x->res->md_dev, om->node);
	let_go(x, r, om);
}

/* Limit NEW, give md the slot, let OLD go; the record at each step. */
static int transact(struct rx *x, struct array_rec *r, size_t idx, struct ss_error *err)
{
	struct array_apply_member *am = &x->res->m;
	struct array_apply_cb acb = { .member = x->cb ? x->cb->member : NULL,
				      .arg = x->cb ? x->cb->arg : NULL };
	struct array_member nm, *om;
	bool copy;
	int rc = 0;

	new_member(x, &r->m[idx], &nm);
	/* the new member is recorded before its limit, at the old one's place,
	 * the old one after the slots, with what remains for it */
	r->m[r->n] = r->m[idx];
	r->m[r->n].state = AM_REPLACED;
	snprintf(r->m[r->n].todo, sizeof(r->m[r->n].todo), "still in %s: replace under way",
		 x->res->md_dev);
	r->m[idx] = nm;
	om = &r->m[r->n];
	r->n++;
	x->res->changed = true;
	array_rec_step(state_dir(x), r, AS_DONE, "replace: limiting the new member", NULL);
	array_journal(state_dir(x), r, "array-replace");
	array_limit_all(state_dir(x), am, 1, false, &acb);
	if (am->rc == 0)
		fprintf(x->log, "%s: %s\n", am->e.spec,
			am->whole ? "used whole (a full-stroke array): no limit sent" : am->result);
	if (am->rc == 0 && array_by_partition(am->plan.method))
		am->rc = cap_partition_wait(&am->e, nm.limit_blocks, ARRAY_PART_WAIT_MS,
					    r->m[idx].node, sizeof(r->m[idx].node), &am->err);
	drive_free(am->d);
	am->d = NULL;
	if (am->rc) {
		ss_error_set(err, am->rc, "%s; %s is unchanged", am->err.msg, x->res->md_dev);
		goto undo_record;
	}
	r->m[idx].state = AM_LIMITED;
	array_rec_step(state_dir(x), r, AS_DONE, "replace: mdadm --add", NULL);
	rc = md_swap(x, x->res->md_dev, om->node, r->m[idx].node, &copy, err);
	if (rc) {
		struct array_member back = r->m[idx];

		back.state = AM_LIMITED;
		ss_error_prefix(err, "md did not take %s: ", am->e.spec);
		/* the new disk goes back to what it was */
		if (!am->whole &&
		    array_member_restore(x->ctx, r->name, &back, false, x->log, &am->err) == 0)
			ss_error_prefix(err, "%s restored; ", am->e.spec);
		else if (!am->whole)
			ss_error_prefix(err, "%s stays limited ('shortstroke restore %s'); ",
					am->e.spec, am->e.spec);
		goto undo_record;
	}
	fprintf(x->log, "%s: %s added in the place of %s; md rebuilds it\n", x->res->md_dev,
		am->e.spec, x->o->old_spec);
	if (!copy) {
		let_go(x, r, om);
	} else if (!x->o->wait) {
		char todo[sizeof(om->todo)];

		snprintf(todo, sizeof(todo),
			 "in %s as the source of the copy onto %s until the rebuild ends; then "
			 "'mdadm %s --remove %s' and 'shortstroke restore %s' (or 'shortstroke "
			 "array undo %s' with the array)",
			 x->res->md_dev, am->e.spec, x->res->md_dev, om->node, om->spec, r->name);
		memcpy(om->todo, todo, sizeof(todo));
	}
	array_rec_step(state_dir(x), r, AS_DONE, "done", NULL);
	if (x->o->wait) {
		struct ss_error werr = { 0 };
		struct array_sysfs end = { .array_state = "" };

		if (array_rebuild_wait(x->ctx, x->res->md_dev, tick, x, &end, &werr))
			fprintf(x->log, "%s\n", werr.msg);
		else
			fprintf(x->log, "%s: rebuild done (%s)\n", x->res->md_dev, end.array_state);
		if (copy && !werr.msg[0])
			after_copy(x, r, om);
		else if (copy)
			snprintf(om->todo, sizeof(om->todo),
				 "in %s until the copy onto %s ends: %s", x->res->md_dev,
				 am->e.spec, werr.msg);
		array_rec_step(state_dir(x), r, AS_DONE, "done", NULL);
	}
	return 0;
undo_record:
	r->n--;
	r->m[idx] = r->m[r->n];
	r->m[idx].state = AM_LIMITED;
	r->m[idx].todo[0] = '\0';
	memset(&r->m[r->n], 0, sizeof(r->m[r->n]));
	array_rec_step(state_dir(x), r, AS_DONE, "done", NULL);
	return err->code ? err->code : -EIO;
}

static void dry_run(struct rx *x, const struct array_rec *r, size_t idx)
{
	struct array_apply_member *am = &x->res->m;
	const struct array_member *om = &r->m[idx];
	struct array_member nm;
	const char *md = x->res->md_dev, *prog = array_mdadm_prog();

	new_member(x, om, &nm);
	if (am->whole) {
		fprintf(x->log, "%s: used whole (a full-stroke array): no limit sent\n",
			am->e.spec);
	} else {
		array_limit_all(state_dir(x), am, 1, true, NULL);
		fputs(am->log ? am->log : "", x->log);
		if (am->rc)
			fprintf(x->log, "a real run would fail: %s\n", am->err.msg);
	}
	if (array_by_partition(am->plan.method))
		fprintf(x->log, "would wait for %s: partition 1, blocks %" PRIu64 "..%" PRIu64 "\n",
			nm.node, cap_partition_start(nm.block_len), nm.limit_blocks - 1);
	fprintf(x->log,
		"would run: %s %s --remove %s (or, while it is active, --add-spare %s and "
		"--replace %s --with %s)\nwould run: %s %s --add %s\n",
		prog, md, om->node, nm.node, om->node, nm.node, prog, md, nm.node);
	fprintf(x->log,
		"would let %s go: %s --zero-superblock %s, then restore it from the journal "
		"(once md's copy from it ends, when it is still active)\n",
		om->spec, prog, om->node);
}

static int replace_locked(struct rx *x, struct ss_error *err)
{
	const struct array_replace_opts *o = x->o;
	struct array_replace_result *res = x->res;
	struct array_rec *r = &res->rec;
	int idx;

	res->stage = AAS_INPUT;
	if (array_rec_load(state_dir(x), o->name, r, err))
		return err->code == -ENOENT ? ss_error_mark_usage(err) : err->code;
	idx = find_member(r, o->old_spec);
	if (idx < 0)
		return ss_error_usage(err, -EINVAL, "%s is not a member of %s", o->old_spec,
				      o->name);
	res->stage = AAS_CHECKS;
	if (r->actuators > 1)
		return ss_error_set(
		    err, -EOPNOTSUPP,
		    "%s: its members are the actuators' partitions of disks of %u "
		    "actuators: replacing one such disk (its RAID 0 under the array) "
		    "is not done by shortstroke yet; use mdadm",
		    r->md_dev, r->actuators);
	if (r->state != AS_DONE)
		return ss_error_set(err, -EINVAL, "%s is %s, not a complete array", r->md_dev,
				    array_state_name(r->state));
	if (r->n >= ARRAY_MAX_MEMBERS)
		return ss_error_set(err, -E2BIG,
				    "%s: its record holds %d members (those replaced too): no room "
				    "for another",
				    r->md_dev, ARRAY_MAX_MEMBERS);
	res->slot = (size_t)idx;
	snprintf(res->md_dev, sizeof(res->md_dev), "%s", array_slot_md(r, (size_t)idx));
	if (!o->dry_run && array_md_check(x->ctx->sysroot, r->level, err)) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return ss_error_set(err, err->code, "%.450s; nothing was changed", why);
	}
	res->stage = AAS_MEMBERS;
	check_new(x, r, (size_t)idx);
	if (!res->m.ready)
		return ss_error_set(err, res->m.rc ? res->m.rc : -EIO, "%s", res->m.err.msg);
	if (x->cb && x->cb->confirm)
		x->cb->confirm(x->cb->arg, res);
	else if (!o->yes && !o->dry_run) {
		ss_error_set(&res->m.err, -EPERM, "%s: not confirmed", res->m.e.spec);
		refuse(&res->m, -EPERM, AR_REFUSED);
	}
	if (!res->m.ready)
		return ss_error_set(err, res->m.rc ? res->m.rc : -EPERM, "%s", res->m.err.msg);
	res->stage = AAS_DONE;
	if (o->dry_run) {
		dry_run(x, r, (size_t)idx);
		/* the dry run of its limit failed: so would a real one */
		return res->m.rc ? ss_error_set(err, res->m.rc, "%s", res->m.err.msg) : 0;
	}
	res->stage = AAS_RUN;
	if (transact(x, r, (size_t)idx, err))
		return err->code;
	res->stage = AAS_DONE;
	return 0;
}

int array_replace(struct ss_ctx *ctx, const struct array_replace_opts *o,
		  const struct array_replace_cb *cb, struct array_replace_result *res,
		  struct ss_error *err)
{
	struct rx x = { .ctx = ctx, .o = o, .cb = cb, .res = res };
	size_t len = 0;
	int fd = -1, rc;

	memset(res, 0, sizeof(*res));
	res->stage = AAS_INPUT;
	if (array_name_check(o->name, err))
		return ss_error_mark_usage(err);
	/* one replace (or apply, or undo) of an array at a time; a dry run
	 * changes nothing: no lock */
	if (!o->dry_run && array_lock(ctx_state_dir(ctx), o->name, &fd, err)) {
		res->stage = AAS_CHECKS;
		return err->code;
	}
	x.log = open_memstream(&res->log, &len);
	if (!x.log) {
		array_unlock(fd);
		return ss_error_nomem(err);
	}
	rc = replace_locked(&x, err);
	fclose(x.log);
	array_unlock(fd);
	return rc;
}

void array_replace_result_fini(struct array_replace_result *res)
{
	if (!res)
		return;
	drive_free(res->m.d);
	res->m.d = NULL;
	free(res->m.log);
	res->m.log = NULL;
	free(res->log);
	res->log = NULL;
}

/* ---- the rebuild ----------------------------------------------------------------- */

/*
 * Follow md's rebuild of md_dev in sysfs until it is over, tick each half
 * second: right after mdadm --add md may still say "idle" (the recovery is
 * queued), so a degraded array is waited for until md started and ended
 * it, a --replace (not degraded) for up to 3 s before it starts. -EIO with
 * err when it ends still degraded or never starts (10 s); -ENOENT when md's
 * state cannot be read. end (may be NULL): md's state at the end.
 */
static int array_rebuild_wait(struct ss_ctx *ctx, const char *md_dev,
			      void (*tickfn)(void *arg, const char *md_dev,
					     const struct array_sysfs *s),
			      void *arg, struct array_sysfs *end, struct ss_error *err)
{
	char kname[64], mdpath[4096];
	struct array_sysfs s;
	bool seen = false;
	unsigned waited_ms = 0;

	snprintf(mdpath, sizeof(mdpath), "%s%s", ctx->sysroot ? ctx->sysroot : "", md_dev);
	if (array_md_kname(mdpath, kname, sizeof(kname)))
		return ss_error_set(err, -ENOENT,
				    "%s: cannot follow the rebuild (no md device behind it); "
				    "'shortstroke array status' shows it",
				    md_dev);
	for (;; waited_ms += 500) {
		struct timespec ts = { 0, 500000000L };
		bool idle;

		if (array_sysfs_read(ctx->sysroot, kname, &s))
			return ss_error_set(err, -ENOENT, "%s: md's state cannot be read any more",
					    md_dev);
		if (end)
			*end = s;
		idle = !strcmp(s.sync_action, "idle") || !s.sync_action[0];
		seen = seen || !idle;
		if (idle && s.degraded <= 0 && (seen || waited_ms >= 3000))
			return 0;
		if (idle && seen && s.degraded > 0)
			return ss_error_set(
			    err, -EIO,
			    "%s: the rebuild ended, but the array is still degraded "
			    "(%d); see 'shortstroke array status'",
			    md_dev, s.degraded);
		if (idle && !seen && waited_ms >= 10000)
			return ss_error_set(err, -EIO,
					    "%s: md has not started the rebuild (degraded %d); see "
					    "'shortstroke array status'",
					    md_dev, s.degraded);
		if (!idle && tickfn)
			tickfn(arg, md_dev, &s);
		nanosleep(&ts, NULL);
	}
}
