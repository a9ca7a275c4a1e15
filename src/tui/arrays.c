/* arrays.c - arrays from the TUI: the planner's chosen layout applied to its
 * drives (array_apply of src/ops, on a job, with a bar per member), and the
 * arrays screen (A) with the records apply wrote, where u undoes one. The
 * dialogs check everything a real run checks before anything is changed.
 * No curses here: view.c draws struct tui_applying and struct tui_arrays. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/array.h"
#include "shortstroke/fileio.h"
#include "shortstroke/planfile.h"
#include "shortstroke/units.h"
#include "tui.h"

/* ---- apply: the dialogs ----------------------------------------------------- */

struct apply_flow {
	struct plan *plan;
	char name[ARRAY_NAME_MAX + 1];
	char mkfs[8]; /* "" none */
	char plan_path[4096];
	struct array_apply_result *chk; /* what the check found (members, plans) */
	size_t next;			/* the member whose serial is asked */
};

static void flow_free(void *arg)
{
	struct apply_flow *f = arg;

	if (!f)
		return;
	plan_free(f->plan);
	array_apply_result_fini(f->chk);
	free(f->chk);
	free(f);
}

static struct array_apply_opts flow_opts(const struct apply_flow *f)
{
	return (struct array_apply_opts){
		.plan = f->plan,
		.plan_path = f->plan_path,
		.name = f->name,
		.mkfs = f->mkfs[0] ? f->mkfs : NULL,
		.method = CAP_AUTO,
	};
}

/* Every member's reason, one sentence after the other. */
static void member_reasons(const struct array_apply_result *res, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < res->n && used < len; i++)
		if (!res->m[i].ready)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "; " : "",
						 res->m[i].err.msg[0] ? res->m[i].err.msg
								      : "failed");
}

static void ap_member(void *arg, size_t i, double fraction, const char *phase)
{
	struct tui_applying *ap = arg;
	double sum = 0;

	pthread_mutex_lock(&ap->lock);
	if (i < ap->n) {
		ap->m[i].fraction = fraction;
		snprintf(ap->m[i].phase, sizeof(ap->m[i].phase), "%s", phase ? phase : "");
	}
	for (size_t k = 0; k < ap->n; k++)
		sum += ap->m[k].fraction;
	pthread_mutex_unlock(&ap->lock);
	progress_report(ap->sink, ap->n ? 0.9 * sum / (double)ap->n : 0, "limiting", -1);
}

static void ap_step(void *arg, const char *step)
{
	struct tui_applying *ap = arg;

	pthread_mutex_lock(&ap->lock);
	snprintf(ap->step, sizeof(ap->step), "%s", step);
	pthread_mutex_unlock(&ap->lock);
}

static int apply_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct tui_applying *ap = arg;
	struct array_apply_opts o = {
		.plan = ap->plan,
		.plan_path = ap->plan_path,
		.name = ap->name,
		.mkfs = ap->mkfs[0] ? ap->mkfs : NULL,
		.method = CAP_AUTO,
		.yes = true, /* every member's serial was typed */
	};
	struct array_apply_cb cb = { .member = ap_member, .step = ap_step, .arg = ap };

	ap->sink = sink;
	return array_apply(&ap->ctx, &o, &cb, ap->res, err);
}

static void apply_finish(struct tui_model *m, struct tui_task *t, int rc,
			 const struct ss_error *err)
{
	struct tui_applying *ap = t->arg;
	const struct array_rec *r = &ap->res->rec;

	pthread_mutex_lock(&ap->lock);
	ap->done = true;
	ap->rc = rc;
	if (rc == 0) {
		for (size_t i = 0; i < ap->n; i++)
			ap->m[i].fraction = 1;
		char shape[256];

		array_shape_text(r, shape, sizeof(shape));
		snprintf(ap->result, sizeof(ap->result), "%s: created: %s%s%s; state %s.",
			 r->md_dev, shape, r->fs[0] ? ", " : "", r->fs, array_state_name(r->state));
		snprintf(ap->step, sizeof(ap->step), "done");
	} else if (ap->res->stage == AAS_MEMBERS) {
		member_reasons(ap->res, ap->result, sizeof(ap->result));
	} else {
		snprintf(ap->result, sizeof(ap->result), "%s%s%s", err->msg,
			 r->name[0] ? "; state " : "",
			 r->name[0] ? array_state_name(r->state) : "");
	}
	pthread_mutex_unlock(&ap->lock);
	array_apply_result_fini(ap->res);
	ctx_fini(&ap->ctx);
	tui_status(m, "%s", rc ? "apply failed" : ap->result);
	m->rescan_pending = true;
}

static void tui_applying_free(struct tui_applying *a)
{
	if (!a)
		return;
	plan_free(a->plan);
	free(a->res);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* All confirmed: write the plan where the record can name it, then the job. */
static enum tui_action start_apply(struct tui_model *m, struct apply_flow *f)
{
	struct tui_applying *ap = calloc(1, sizeof(*ap));
	struct ss_error err = { 0 };
	char spec[300];

	if (!ap || !(ap->res = calloc(1, sizeof(*ap->res)))) {
		free(ap);
		return tui_alert(m, "Apply", "out of memory");
	}
	pthread_mutex_init(&ap->lock, NULL);
	snprintf(ap->name, sizeof(ap->name), "%s", f->name);
	snprintf(ap->mkfs, sizeof(ap->mkfs), "%s", f->mkfs);
	snprintf(ap->plan_path, sizeof(ap->plan_path), "%s", f->plan_path);
	snprintf(ap->title, sizeof(ap->title), "RAID %s over %zu drives%s%s", f->chk->rec.level,
		 f->chk->n, f->mkfs[0] ? ", " : "", f->mkfs);
	ap->n = f->chk->n;
	for (size_t i = 0; i < ap->n; i++) {
		snprintf(ap->m[i].spec, sizeof(ap->m[i].spec), "%s", f->chk->m[i].e.spec);
		snprintf(ap->m[i].serial, sizeof(ap->m[i].serial), "%s",
			 f->chk->m[i].e.info.serial);
	}
	snprintf(ap->step, sizeof(ap->step), "starting");
	ap->plan = f->plan;
	f->plan = NULL;
	/* the drives the check opened are closed before the job opens them */
	array_apply_result_fini(f->chk);
	/* <state>/plans: made and checked as the state directory's own */
	if (file_state_dir(ctx_state_dir(m->ctx), "plans", &err) ||
	    planfile_write(ap->plan_path, ap->plan, &err)) {
		tui_applying_free(ap);
		return tui_alert(m, "Apply", "%s; nothing was changed", err.msg);
	}
	ctx_init_copy(&ap->ctx, m->ctx); /* the job's own (its rig loaded afresh) */
	snprintf(spec, sizeof(spec), "md:%s", ap->name);
	if (tui_task_start(m, spec, "apply", apply_job, ap, apply_finish)) {
		ctx_fini(&ap->ctx);
		tui_applying_free(ap);
		return tui_alert(m, "Apply", "cannot start the job; nothing was changed");
	}
	snprintf(tui_task_for(m, spec)->no_abort, sizeof(tui_task_for(m, spec)->no_abort),
		 "an apply runs to its end (a failed step is rolled back)");
	/* the job has ap: the screen frees it only once the job has ended
	 * (it stays until then, and the TUI waits for jobs before quitting) */
	return tui_screen_open(m, &tui_applying_screen, ap);
}

static enum tui_action serial_dialog(struct tui_model *m, struct apply_flow *f);

static enum tui_action serial_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct apply_flow *f = d->arg;
	const struct array_apply_member *am = &f->chk->m[f->next];

	if (strcmp(d->text, am->e.info.serial) || !am->e.info.serial[0]) {
		d->text[0] = '\0';
		return tui_dialog_error(d,
					"Not the serial of %s: type %s to go ahead (Esc "
					"cancels; nothing was changed).",
					am->e.spec, am->e.info.serial);
	}
	f->next++;
	d->arg = NULL; /* the flow moves on; the caller frees d */
	d->free_arg = NULL;
	if (f->next < f->chk->n)
		return serial_dialog(m, f);
	m->dlg = NULL;
	{
		enum tui_action a = start_apply(m, f);

		flow_free(f);
		return a;
	}
}

static enum tui_action serial_dialog(struct tui_model *m, struct apply_flow *f)
{
	const struct array_apply_member *am = &f->chk->m[f->next];
	struct tui_dialog *d = tui_dialog_new("Confirm apply");
	char h1[32];

	tui_dialog_line(d, "/dev/md/%s: RAID %s over %zu drives%s%s.", f->name, f->chk->rec.level,
			f->chk->n, f->mkfs[0] ? ", mkfs " : "", f->mkfs);
	tui_dialog_line(d, "Member %zu of %zu: %s  %s  serial %s", f->next + 1, f->chk->n,
			am->e.spec, am->e.info.model, am->e.info.serial);
	tui_dialog_line(d, "Now %s; after: %s by %s.",
			size_human(am->plan.current * am->plan.block_len, h1, sizeof(h1)),
			am->plan.noop ? "already limited" : am->plan.note,
			cap_method_name(am->plan.method));
	tui_dialog_line(d, "Data beyond the new end becomes unreachable; md overwrites the rest.");
	tui_dialog_line(d, "Esc cancels. Enter with the serial number goes ahead.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Type the serial (%s):", am->e.info.serial);
	d->submit = serial_submit;
	d->arg = f;
	d->free_arg = flow_free;
	m->dlg = d;
	return TUI_REDRAW;
}

/* The filesystem typed: every check of a real run, then the serials. */
static enum tui_action mkfs_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct apply_flow *f = d->arg;
	struct ss_error err = { 0 };
	struct array_apply_opts o;
	char why[sizeof(d->error)];
	int rc;

	if (!d->text[0] || !strcmp(d->text, "none"))
		f->mkfs[0] = '\0';
	else if (!strcmp(d->text, "ext4") || !strcmp(d->text, "xfs"))
		snprintf(f->mkfs, sizeof(f->mkfs), "%s", d->text);
	else
		return tui_dialog_error(d, "'%s': type none, ext4 or xfs.", d->text);
	if (!f->chk && !(f->chk = calloc(1, sizeof(*f->chk))))
		return tui_dialog_error(d, "out of memory");
	array_apply_result_fini(f->chk);
	o = flow_opts(f);
	o.check_only = true;
	rc = array_apply(m->ctx, &o, NULL, f->chk, &err);
	if (rc) {
		if (f->chk->stage == AAS_MEMBERS) {
			member_reasons(f->chk, why, sizeof(why) - 40);
			array_apply_result_fini(f->chk);
			return tui_dialog_error(d, "Refused: %s. Nothing was changed.", why);
		}
		array_apply_result_fini(f->chk);
		return tui_dialog_error(d, "Refused: %s", err.msg);
	}
	if (f->chk->already) {
		array_apply_result_fini(f->chk);
		return tui_dialog_error(d,
					"/dev/md/%s is already applied from this plan: nothing "
					"to do.",
					f->name);
	}
	d->arg = NULL;
	d->free_arg = NULL;
	f->next = 0;
	return serial_dialog(m, f);
}

static enum tui_action name_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct apply_flow *f = d->arg;
	struct ss_error err = { 0 };
	struct array_rec *r;
	struct tui_dialog *nd;

	if (array_name_check(d->text, &err))
		return tui_dialog_error(d, "%s", err.msg);
	r = calloc(1, sizeof(*r));
	if (!r)
		return tui_dialog_error(d, "out of memory");
	if (array_rec_load(ctx_state_dir(m->ctx), d->text, r, &err) == 0 && r->state != AS_UNDONE) {
		enum tui_action a = tui_dialog_error(
		    d,
		    "An array named %s exists (%s, from %s): choose another name, or "
		    "undo it on the arrays screen (A) first.",
		    d->text, array_state_name(r->state), r->plan);

		free(r);
		return a;
	}
	free(r);
	snprintf(f->name, sizeof(f->name), "%s", d->text);
	snprintf(f->plan_path, sizeof(f->plan_path), "%s/plans/%s.json", ctx_state_dir(m->ctx),
		 f->name);
	nd = tui_dialog_new("Apply: filesystem");
	tui_dialog_line(nd, "/dev/md/%s: RAID %s over %zu drives.", f->name,
			array_md_level(f->plan->layout.level), f->plan->n_disks);
	tui_dialog_line(nd, "A filesystem on the array, aligned to its stripe: none, ext4 or xfs.");
	nd->input = true;
	snprintf(nd->prompt, sizeof(nd->prompt), "Filesystem [none]:");
	nd->submit = mkfs_submit;
	nd->arg = f;
	nd->free_arg = flow_free;
	d->arg = NULL;
	d->free_arg = NULL;
	m->dlg = nd;
	return TUI_REDRAW;
}

enum tui_action tui_apply_open(struct tui_model *m)
{
	struct tui_planner *p = tui_screen_find(m, &tui_planner_screen);
	struct ss_error err = { 0 };
	struct apply_flow *f;
	struct tui_dialog *d;

	if (!p || !p->met || !p->nrows)
		return tui_alert(m, "Apply",
				 "No layout meets the goals: nothing to apply. Change "
				 "a goal first.");
	f = calloc(1, sizeof(*f));
	if (!f)
		return tui_alert(m, "Apply", "out of memory");
	f->plan = tui_planner_plan(p, &err);
	if (!f->plan) {
		flow_free(f);
		return tui_alert(m, "Apply", "%s", err.msg);
	}
	d = tui_dialog_new("Apply layout: create the md array");
	tui_dialog_line(d, "Layout %zu: RAID %s on %u drive%s, stroke %.1f %%.", p->chosen + 1,
			p->rows[p->chosen].level, p->rows[p->chosen].disks,
			p->rows[p->chosen].disks == 1 ? "" : "s", 100 * p->rows[p->chosen].stroke);
	for (size_t i = 0; i < f->plan->n_disks && i < 6; i++)
		tui_dialog_line(d, "  member %zu: %s  %s  serial %s", i + 1,
				f->plan->disks[i].device, f->plan->disks[i].model,
				f->plan->disks[i].serial);
	if (f->plan->n_disks > 6)
		tui_dialog_line(d, "  ... and %zu more", f->plan->n_disks - 6);
	tui_dialog_line(d, "Every member is limited, then mdadm creates /dev/md/NAME; a failed");
	tui_dialog_line(d, "step rolls back. Next: the filesystem, then each member's serial.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Array name:");
	d->submit = name_submit;
	d->arg = f;
	d->free_arg = flow_free;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

/* The progress screen: it stays until the job has ended, then any key
 * goes to the arrays screen. */
static enum tui_action applying_key(struct tui_model *m, void *data, int key)
{
	struct tui_applying *ap = data;

	(void)key;
	if (!ap->done) {
		tui_status(m, "the apply runs to its end (a failed step is rolled back)");
		return TUI_REDRAW;
	}
	/* the planner it was applied from goes too */
	tui_screen_close(m, ap);
	tui_screen_close(m, tui_screen_find(m, &tui_planner_screen));
	return tui_arrays_open(m);
}

static void applying_close(void *data)
{
	tui_applying_free(data);
}

/* clang-format off */
static const struct tui_key applying_keys[] = {
	{ .name = "any key", .help = "once the apply has ended: the arrays screen (until then it "
				     "runs to its end; a failed step is rolled back)" },
	{ .name = NULL },
};
/* clang-format on */

const struct tui_screen_ops tui_applying_screen = {
	.title = "An apply (^A in the planner)",
	.keys = applying_keys,
	.key = applying_key,
	.draw = tui_draw_applying,
	.close = applying_close,
};

/* ---- the arrays screen ------------------------------------------------------ */

static void tui_arrays_free(struct tui_arrays *a)
{
	if (!a)
		return;
	free(a->recs);
	free(a);
}

static void tui_arrays_reload(struct tui_arrays *a, struct ss_ctx *ctx)
{
	char(*names)[ARRAY_NAME_MAX + 1] = NULL;
	struct ss_error err = { 0 };
	size_t n = 0;

	free(a->recs);
	a->recs = NULL;
	a->n = 0;
	a->error[0] = '\0';
	if (array_rec_names(ctx_state_dir(ctx), &names, &n, &err)) {
		snprintf(a->error, sizeof(a->error), "%s", err.msg);
		return;
	}
	a->recs = calloc(n ? n : 1, sizeof(*a->recs));
	for (size_t i = 0; a->recs && i < n; i++) {
		if (array_rec_load(ctx_state_dir(ctx), names[i], &a->recs[a->n], &err)) {
			snprintf(a->error, sizeof(a->error), "%s", err.msg);
			continue;
		}
		a->n++;
	}
	free(names);
	if (a->sel >= a->n)
		a->sel = a->n ? a->n - 1 : 0;
}

enum tui_action tui_arrays_open(struct tui_model *m)
{
	struct tui_arrays *a = calloc(1, sizeof(*a));

	if (!a)
		return tui_alert(m, "Arrays", "out of memory");
	tui_arrays_reload(a, m->ctx);
	return tui_screen_open(m, &tui_arrays_screen, a);
}

/* Enter: every field of the selected record, a member a line, in a pager. */
static enum tui_action arrays_detail(struct tui_model *m, void *data, int key)
{
	const struct tui_arrays *a = data;
	const struct array_rec *r;
	struct tui_lines l = { 0 };
	char title[160], h1[32], h2[32], *text;

	(void)key;
	if (!a->n)
		return TUI_NONE;
	r = &a->recs[a->sel];
	tui_lines_add(&l, "Array:       %s (%s)", r->name, r->md_dev);
	tui_lines_add(&l, "State:       %s", array_state_name(r->state));
	if (r->copies > 1)
		tui_lines_add(&l, "Level:       RAID %s, %u copies", r->level, r->copies);
	else
		tui_lines_add(&l, "Level:       RAID %s", r->level);
	tui_lines_add(&l, "Chunk:       %" PRIu64 " KiB", r->chunk_bytes / 1024);
	tui_lines_add(&l, "Filesystem:  %s", r->fs[0] ? r->fs : "none");
	tui_lines_add(&l, "UUID:        %s", r->uuid[0] ? r->uuid : "-");
	tui_lines_add(&l, "Created:     %s", r->created);
	tui_lines_add(&l, "Step:        %s", r->step);
	if (r->remains[0])
		tui_lines_add(&l, "Remains:     %s", r->remains);
	tui_lines_add(&l, "Plan:        %s", r->plan[0] ? r->plan : "-");
	tui_lines_add(&l, "mdadm.conf:  %s", r->conf[0] ? r->conf : "none written");
	tui_lines_add(&l, "Members:     %zu", r->n);
	for (size_t k = 0; k < r->n; k++) {
		const struct array_member *mb = &r->m[k];

		tui_lines_add(
		    &l,
		    "  %-14s  %s: %" PRIu64 " of %" PRIu64 " blocks of %u bytes (%.1f%%, %s of %s)"
		    "%s%s%s; serial %s, WWN %s, %s",
		    mb->spec, array_mstate_name(mb->state), mb->limit_blocks, mb->before_blocks,
		    mb->block_len,
		    mb->before_blocks ? 100.0 * (double)mb->limit_blocks / (double)mb->before_blocks
				      : 0,
		    size_human(mb->limit_blocks * mb->block_len, h1, sizeof(h1)),
		    size_human(mb->before_blocks * mb->block_len, h2, sizeof(h2)),
		    mb->method[0] ? " by " : "", mb->method, mb->volatile_ ? ", volatile" : "",
		    mb->serial[0] ? mb->serial : "-", mb->wwn[0] ? mb->wwn : "-",
		    mb->model[0] ? mb->model : "-");
	}
	text = tui_lines_join(&l);
	tui_lines_clear(&l);
	snprintf(title, sizeof(title), "Array %s: every field of its record", r->name);
	tui_pager_open(m, title, text ? text : "out of memory");
	free(text);
	return TUI_REDRAW;
}

struct undo_op {
	struct ss_ctx ctx;
	struct array_rec r;
	char *log;
};

static int undo_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct undo_op *u = arg;
	bool changed;

	progress_report(sink, 0, "undoing", -1);
	return array_undo_run(&u->ctx, &u->r, false, &u->log, &changed, err);
}

static void undo_finish(struct tui_model *m, struct tui_task *t, int rc, const struct ss_error *err)
{
	struct undo_op *u = t->arg;
	struct tui_arrays *a = tui_screen_find(m, &tui_arrays_screen);

	if (a) {
		a->busy[0] = '\0';
		tui_arrays_reload(a, m->ctx);
	}
	if (rc)
		tui_notice(m, "Undo failed", "%s", err->msg);
	else
		tui_status(m, "%s: undone: every member restored", u->r.md_dev);
	ctx_fini(&u->ctx);
	free(u->log);
	free(u);
	m->rescan_pending = true;
}

static enum tui_action undo_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct tui_arrays *a = tui_screen_find(m, &tui_arrays_screen);
	const char *name = d->arg;
	struct ss_error err = { 0 };
	struct undo_op *u;
	char spec[300];

	if (strcmp(d->text, name)) {
		d->text[0] = '\0';
		return tui_dialog_error(d,
					"Not the name: type %s to undo it (Esc cancels; nothing "
					"was changed).",
					name);
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return tui_dialog_error(d, "out of memory");
	if (array_undo_check(m->ctx, name, &u->r, &err)) {
		free(u);
		return tui_dialog_error(d, "%s", err.msg);
	}
	if (u->r.state == AS_UNDONE) {
		free(u);
		return tui_dialog_error(d, "%s is already undone: nothing to do.", name);
	}
	ctx_init_copy(&u->ctx, m->ctx);
	snprintf(spec, sizeof(spec), "md:%s", name);
	if (tui_task_start(m, spec, "undo", undo_job, u, undo_finish)) {
		ctx_fini(&u->ctx);
		free(u);
		return tui_dialog_error(d, "cannot start the job; nothing was changed");
	}
	snprintf(tui_task_for(m, spec)->no_abort, sizeof(tui_task_for(m, spec)->no_abort),
		 "an undo runs to its end");
	if (a)
		snprintf(a->busy, sizeof(a->busy),
			 "undoing %s: stopping the array, restoring "
			 "its members ...",
			 name);
	m->dlg = NULL; /* the caller frees d */
	return TUI_REDRAW;
}

static enum tui_action arrays_undo(struct tui_model *m, void *data, int key)
{
	const struct tui_arrays *a = data;
	const struct array_rec *r;
	struct tui_dialog *d;
	char *name, shape[256];

	(void)key;
	if (!a->n)
		return tui_alert(m, "Undo", "No array to undo.");
	if (a->busy[0])
		return tui_alert(m, "Undo", "%s; wait for it to end.", a->busy);
	r = &a->recs[a->sel];
	if (r->state == AS_UNDONE)
		return tui_alert(m, "Undo", "%s is already undone: nothing to do.", r->md_dev);
	name = strdup(r->name);
	if (!name)
		return tui_alert(m, "Undo", "out of memory");
	d = tui_dialog_new("Undo array");
	array_shape_text(r, shape, sizeof(shape));
	tui_dialog_line(d, "%s: %s, %s.", r->md_dev, shape, array_state_name(r->state));
	tui_dialog_line(d, "Stops the array, wipes its md metadata (mdadm --zero-superblock) and");
	tui_dialog_line(d, "restores every member to its journaled original capacity.");
	tui_dialog_line(d, "Everything on the array is lost. Esc cancels.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Type the array's name (%s):", name);
	d->submit = undo_submit;
	d->arg = name;
	d->free_arg = free;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

static enum tui_action arrays_move(struct tui_model *m, void *data, int key)
{
	struct tui_arrays *a = data;

	(void)m;
	if ((key == TK_UP || key == 'k') && a->sel)
		a->sel--;
	if ((key == TK_DOWN || key == 'j') && a->sel + 1 < a->n)
		a->sel++;
	return TUI_REDRAW;
}

static enum tui_action arrays_reload_key(struct tui_model *m, void *data, int key)
{
	struct tui_arrays *a = data;

	(void)key;
	if (!a->busy[0])
		tui_arrays_reload(a, m->ctx);
	return TUI_REDRAW;
}

static enum tui_action arrays_done(struct tui_model *m, void *data, int key)
{
	struct tui_arrays *a = data;

	(void)key;
	if (a->busy[0]) {
		tui_status(m, "%s: wait for it to end", a->busy);
		return TUI_REDRAW;
	}
	tui_screen_close(m, a);
	return TUI_RESCAN;
}

/* A click on an array's row selects it. */
static enum tui_action arrays_click(struct tui_model *m, void *data, size_t row)
{
	struct tui_arrays *a = data;

	(void)m;
	if (row >= a->n)
		return TUI_NONE;
	a->sel = row;
	return TUI_REDRAW;
}

static void arrays_close(void *data)
{
	tui_arrays_free(data);
}

/* clang-format off */
static const struct tui_key arrays_keys[] = {
	{ .key = TK_UP, .more = { 'k', TK_DOWN, 'j' }, .name = "Up/Down, j/k", .run = arrays_move,
	  .help = "select an array" },
	{ .key = TK_ENTER, .name = "Enter", .run = arrays_detail,
	  .help = "every field of the selected array's record, in a report" },
	{ .key = 'u', .name = "u", .run = arrays_undo,
	  .help = "undo the selected array: stop it, wipe its md metadata, restore every "
		  "member (its name typed to confirm)" },
	{ .key = 'R', .more = { TK_F5 }, .name = "R, F5", .run = arrays_reload_key,
	  .help = "read the records again" },
	{ .key = 'q', .more = { TK_ESC }, .name = "q, Esc", .run = arrays_done,
	  .help = "close it (the drives are read again)" },
	{ .name = NULL },
};

static const struct tui_keylabel arrays_bar[] = {
	{ "j/k", "select", 0 }, { "Enter", "detail", TK_ENTER }, { "u", "undo", 'u' },
	{ "q", "close", 'q' },	{ "R", "reload", 'R' },
};
/* clang-format on */

const struct tui_screen_ops tui_arrays_screen = {
	.title = "The arrays screen (A)",
	.keys = arrays_keys,
	.bar = arrays_bar,
	.nbar = sizeof(arrays_bar) / sizeof(arrays_bar[0]),
	.draw = tui_draw_arrays,
	.click = arrays_click,
	.close = arrays_close,
};
