/* actions.c - what the keys of the main screen start. Each action builds
 * dialogs and jobs on the model; none of it touches curses. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/capacity.h"
#include "shortstroke/sim.h"
#include "shortstroke/smart.h"
#include "shortstroke/units.h"
#include "tui.h"

#define MAX_TARGETS 64

/* One drive of a limit or restore, from the dialog to the end of its job. */
struct cap_op {
	struct drive *d;
	struct dev_entry e;
	struct cap_plan plan;
	bool restore;
	char state_dir[4096];
};

struct cap_flow {
	bool restore;
	size_t n, next;
	struct cap_op *ops[MAX_TARGETS];
};

static void cap_op_free(struct cap_op *op)
{
	if (!op)
		return;
	drive_free(op->d);
	free(op);
}

static void cap_flow_free(void *arg)
{
	struct cap_flow *f = arg;

	if (!f)
		return;
	for (size_t i = f->next; i < f->n; i++)
		cap_op_free(f->ops[i]);
	free(f);
}

static int cap_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct cap_op *op = arg;
	struct cap_result res;
	struct cap_ctx c = {
		.d = op->d,
		.e = &op->e,
		.state_dir = op->state_dir,
		.progress = sink,
	};

	if (op->restore)
		return cap_restore(&c, CAP_AUTO, false, &res, err);
	return cap_limit(&c, &op->plan, &res, err);
}

static void cap_finish(struct tui_model *m, struct tui_task *t, int rc,
		       const struct ss_error *err)
{
	struct cap_op *op = t->arg;

	if (rc)
		tui_alert(m, op->restore ? "Restore failed" : "Limit failed", "%s", err->msg);
	else
		tui_status(m, "%s: %s done", op->e.spec, op->restore ? "restore" : "limit");
	cap_op_free(op);
	m->rescan_pending = true;
}

static enum tui_action confirm_next(struct tui_model *m, struct cap_flow *f);

static enum tui_action confirm_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct cap_flow *f = d->arg;
	struct cap_op *op = f->ops[f->next];

	if (strcmp(d->text, op->e.info.serial) || !op->e.info.serial[0]) {
		snprintf(d->prompt, sizeof(d->prompt), "Not the serial. Type %s:",
			 op->e.info.serial);
		d->text[0] = '\0';
		d->alert = true;
		return TUI_REDRAW;
	}
	f->next++;
	if (tui_task_start(m, op->e.spec, f->restore ? "restore" : "limit", cap_job, op,
			   cap_finish)) {
		tui_status(m, "%s: cannot start the job", op->e.spec);
		cap_op_free(op);
	}
	/* the dialog is freed by the caller once m->dlg moves on; keep the
	 * remaining ops alive in a fresh dialog */
	d->arg = NULL;
	d->free_arg = NULL;
	return confirm_next(m, f);
}

static enum tui_action confirm_next(struct tui_model *m, struct cap_flow *f)
{
	struct tui_dialog *d;
	struct cap_op *op;
	char h1[32];

	if (f->next >= f->n) {
		cap_flow_free(f);
		m->dlg = NULL;
		return TUI_REDRAW;
	}
	op = f->ops[f->next];
	d = tui_dialog_new(f->restore ? "Confirm restore" : "Confirm limit");
	tui_dialog_line(d, "%s  %s  serial %s", op->e.spec, op->e.info.model, op->e.info.serial);
	if (f->restore) {
		tui_dialog_line(d, "Restore to the journaled original (or native) capacity.");
	} else {
		tui_dialog_line(d, "Now %s; after: %s by %s%s.",
				size_human(op->plan.current * op->plan.block_len, h1, sizeof(h1)),
				op->plan.note, cap_method_name(op->plan.method),
				op->plan.volatile_ ? " (volatile)" : "");
		if (op->plan.method == CAP_SCSI_FORMAT)
			tui_dialog_line(d, "FORMAT UNIT destroys every byte on the drive.");
		else
			tui_dialog_line(d, "Data beyond the new end becomes unreachable.");
	}
	tui_dialog_line(d, "Esc cancels. Enter with the serial number goes ahead.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Type the serial (%s):", op->e.info.serial);
	d->submit = confirm_submit;
	d->arg = f;
	d->free_arg = cap_flow_free;
	m->dlg = d;
	return TUI_REDRAW;
}

/* Open every target read-write and check it is safe; an alert says why not. */
static struct cap_flow *open_targets(struct tui_model *m, bool restore)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct cap_flow *f = calloc(1, sizeof(*f));
	struct ss_error err = { 0 };

	if (!f)
		return NULL;
	f->restore = restore;
	for (size_t i = 0; i < n; i++) {
		const char *spec = m->devs[idx[i]].spec;
		struct cap_op *op;

		if (tui_task_for(m, spec)) {
			tui_alert(m, "Busy", "%s: a job is running on it; wait for it to end.", spec);
			goto fail;
		}
		op = calloc(1, sizeof(*op));
		if (!op)
			goto fail;
		f->ops[f->n++] = op;
		op->restore = restore;
		snprintf(op->state_dir, sizeof(op->state_dir), "%s", ctx_state_dir(m->ctx));
		if (device_open(m->ctx, spec, true, &op->d, &op->e, &err) ||
		    device_check_safe(&op->e, false, &err)) {
			tui_alert(m, "Refused", "%s", err.msg);
			goto fail;
		}
	}
	return f;
fail:
	cap_flow_free(f);
	return NULL;
}

static enum tui_action limit_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct cap_flow *f = d->arg;
	struct cap_request req = { 0 };
	struct ss_error err = { 0 };
	struct size_spec s;

	if (size_parse(d->text, &s, &err)) {
		snprintf(d->prompt, sizeof(d->prompt), "Size (e.g. 100GB, 20%%):");
		tui_dialog_line(d, "%s", err.msg);
		d->alert = true;
		return TUI_REDRAW;
	}
	req.method = CAP_AUTO;
	if (s.kind == SIZE_PERCENT) {
		req.by = CAP_BY_PERCENT;
		req.percent = s.percent;
	} else if (s.kind == SIZE_BLOCKS) {
		req.by = CAP_BY_BLOCKS;
		req.blocks = s.blocks;
	} else {
		req.by = CAP_BY_BYTES;
		req.bytes = s.bytes;
	}
	for (size_t i = 0; i < f->n; i++) {
		struct cap_op *op = f->ops[i];
		struct journal_entry orig;
		struct cap_ctx c = { .d = op->d, .e = &op->e, .state_dir = op->state_dir };
		bool have = journal_original(op->state_dir, op->e.info.serial, op->e.info.wwn,
					     &orig, NULL) == 0;

		if (cap_refresh_native(&c, &err) ||
		    cap_plan_limit(&op->e.info, have ? &orig : NULL, &req, &op->plan, &err)) {
			return tui_alert(m, "Cannot limit", "%s: %s", op->e.spec, err.msg);
		}
		if (op->plan.noop)
			return tui_alert(m, "Nothing to do", "%s: %s", op->e.spec, op->plan.note);
	}
	d->arg = NULL; /* the flow moves to the confirmation dialogs */
	d->free_arg = NULL;
	return confirm_next(m, f);
}

static enum tui_action act_limit(struct tui_model *m)
{
	struct cap_flow *f;
	struct tui_dialog *d;
	char h1[32], methods[96];

	if (!m->n)
		return TUI_NONE;
	f = open_targets(m, false);
	if (!f)
		return TUI_REDRAW;
	d = tui_dialog_new("Limit (short-stroke)");
	for (size_t i = 0; i < f->n && i < 6; i++) {
		const struct drive_info *in = &f->ops[i]->e.info;

		drive_methods_text(in->methods, methods, sizeof(methods));
		tui_dialog_line(d, "%s  %s  %s  (%s)", f->ops[i]->e.spec, in->model,
				size_human(in->capacity_blocks * in->logical_block, h1, sizeof(h1)),
				methods);
	}
	if (f->n > 6)
		tui_dialog_line(d, "... and %zu more", f->n - 6);
	tui_dialog_line(d, "Keep how much? A size (100GB, 93GiB) or a percent of native (20%%).");
	tui_dialog_line(d, "The method is picked as 'limit --method auto' does.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Size:");
	d->submit = limit_submit;
	d->arg = f;
	d->free_arg = cap_flow_free;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

static enum tui_action act_restore(struct tui_model *m)
{
	struct cap_flow *f;

	if (!m->n)
		return TUI_NONE;
	f = open_targets(m, true);
	if (!f)
		return TUI_REDRAW;
	return confirm_next(m, f);
}

static enum tui_action act_power_cycle(struct tui_model *m)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct ss_error err = { 0 };
	struct sim_rig *rig;
	unsigned done = 0;

	if (!n)
		return TUI_NONE;
	if (ctx_rig(m->ctx, &rig, &err))
		return tui_alert(m, "Power cycle", "Only simulated drives can be power-cycled "
						   "from here: %s", err.msg);
	for (size_t i = 0; i < n; i++) {
		const char *spec = m->devs[idx[i]].spec;
		struct sim_drive *d = strncmp(spec, "sim:", 4) ? NULL : sim_rig_find(rig, spec + 4);

		if (!d || tui_task_for(m, spec))
			continue;
		sim_drive_power_cycle(d);
		if (sim_drive_save(d, &err))
			return tui_alert(m, "Power cycle", "%s: %s", spec, err.msg);
		done++;
	}
	tui_status(m, "%u simulated drive%s power-cycled", done, done == 1 ? "" : "s");
	return TUI_RESCAN;
}

/* A report of the selected drive, by the command-line renderer. */
static enum tui_action view_of(struct tui_model *m, const char *what, const char *const *args)
{
	const char *spec;
	const char *argv[12];
	char title[160];
	int n = 0;

	if (!m->n)
		return TUI_NONE;
	spec = m->devs[m->sel].spec;
	if (tui_task_for(m, spec))
		return tui_alert(m, "Busy", "%s: a job is running on it; wait for it to end.", spec);
	for (; args[n] && n < 10; n++)
		argv[n] = args[n];
	argv[n++] = spec;
	argv[n] = NULL;
	snprintf(title, sizeof(title), "%s of %s  (q closes, arrows scroll)", what, spec);
	if (tui_run_view(m, spec, title, argv))
		return tui_alert(m, what, "%s: cannot start", spec);
	tui_status(m, "%s: reading %s...", spec, what);
	return TUI_REDRAW;
}

static enum tui_action act_smart(struct tui_model *m)
{
	static const char *const args[] = { "smart", "--attributes", "--log", NULL };

	return view_of(m, "SMART", args);
}

static enum tui_action act_zones(struct tui_model *m)
{
	static const char *const args[] = { "zones", "--measure", NULL };

	return view_of(m, "Zones", args);
}

/* ---- self-test: a job on the drive with a progress bar --------------------------- */

struct st_op {
	struct drive *d;
	struct dev_entry e;
	enum selftest_kind kind;
};

static int st_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct st_op *op = arg;
	int rc;

	rc = selftest_start(op->d, &op->e.info, op->kind, err);
	if (rc)
		return rc;
	return selftest_wait(op->d, &op->e.info, op->kind, sink, err);
}

static void st_finish(struct tui_model *m, struct tui_task *t, int rc, const struct ss_error *err)
{
	struct st_op *op = t->arg;

	if (rc)
		tui_alert(m, "Self-test", "%s", err->msg);
	else
		tui_status(m, "%s: %s self-test completed without error", op->e.spec,
			   selftest_kind_name(op->kind));
	drive_free(op->d);
	free(op);
}

static enum tui_action st_submit(struct tui_model *m, struct tui_dialog *d)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	enum selftest_kind kind;
	struct ss_error err = { 0 };
	unsigned started = 0;

	if (!strcmp(d->text, "s") || !strcmp(d->text, "short") || !d->text[0])
		kind = SELFTEST_SHORT;
	else if (!strcmp(d->text, "l") || !strcmp(d->text, "long"))
		kind = SELFTEST_EXTENDED;
	else if (!strcmp(d->text, "c") || !strcmp(d->text, "conveyance"))
		kind = SELFTEST_CONVEYANCE;
	else
		return tui_alert(m, "Self-test", "'%s': type s (short), l (long) or c (conveyance)",
				 d->text);
	m->dlg = NULL; /* the caller frees d */
	for (size_t i = 0; i < n; i++) {
		struct st_op *op = calloc(1, sizeof(*op));
		const char *spec = m->devs[idx[i]].spec;

		if (!op)
			break;
		op->kind = kind;
		if (tui_task_for(m, spec) ||
		    device_open(m->ctx, spec, false, &op->d, &op->e, &err) ||
		    tui_task_start(m, spec, "self-test", st_job, op, st_finish)) {
			drive_free(op->d);
			free(op);
			return tui_alert(m, "Self-test", "%s: %s", spec,
					 err.msg[0] ? err.msg : "busy");
		}
		started++;
	}
	tui_status(m, "%s self-test started on %u drive%s", selftest_kind_name(kind), started,
		   started == 1 ? "" : "s");
	return TUI_REDRAW;
}

static enum tui_action act_selftest(struct tui_model *m)
{
	struct tui_dialog *d;

	if (!m->n)
		return TUI_NONE;
	d = tui_dialog_new("SMART self-test");
	tui_dialog_line(d, "Runs on the selected (or marked) drives; progress shows in the table.");
	tui_dialog_line(d, "s: short (about 2 min)   l: long (hours)   c: conveyance (ATA)");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Kind [s]:");
	d->submit = st_submit;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

const struct tui_key_action tui_actions[] = {
	{ 'l', "l", "limit the selected (or marked) drives", act_limit },
	{ 'r', "r", "restore the selected (or marked) drives", act_restore },
	{ 's', "s", "SMART report of the selected drive", act_smart },
	{ 't', "t", "start a self-test on the selected (or marked) drives", act_selftest },
	{ 'z', "z", "zones of the selected drive (ZBC/ZAC zones, recording zones)",
	  act_zones },
	{ 'p', "p", "plan an array of the selected (or marked) drives: goals, layouts, save",
	  tui_planner_open },
	{ 'b', "b", "benchmark the selected (or marked) drives: random reads, QD 1 and 16",
	  tui_bench_start },
	{ 'Q', "Q", "qualify the selected (or marked) drives: quick, read-only checks",
	  tui_qualify_start },
	{ 'P', "P", "power-cycle simulated drives (volatile limits go)", act_power_cycle },
	{ 0, NULL, NULL, NULL },
};
