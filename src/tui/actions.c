/* actions.c - what the keys of the main screen start. Each action builds
 * dialogs and jobs on the model; none of it touches curses. */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shortstroke/capacity.h"
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
	char refused[320];	/* restore: why it would be refused (nothing to confirm) */
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

/* A drive of the flow with nothing to confirm: on to the next one. */
static enum tui_action skip_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct cap_flow *f = d->arg;

	cap_op_free(f->ops[f->next++]);
	d->arg = NULL;
	d->free_arg = NULL;
	return confirm_next(m, f);
}

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
	} else {
		struct tui_task *t = tui_task_for(m, op->e.spec);

		if (op->plan.method == CAP_SCSI_FORMAT)
			snprintf(t->no_abort, sizeof(t->no_abort),
				 "a format in progress cannot be aborted: FORMAT UNIT runs inside "
				 "the drive to the end (a power cycle leaves the medium unreadable)");
		else
			snprintf(t->no_abort, sizeof(t->no_abort),
				 "a %s cannot be aborted halfway; it ends in a moment",
				 f->restore ? "restore" : "limit");
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
	if (f->restore && (op->refused[0] || op->plan.noop)) {
		/* nothing to confirm: say why, Enter goes on to the next drive */
		if (op->refused[0])
			tui_dialog_error(d, "Refused: %s", op->refused);
		else
			tui_dialog_error(d, "Nothing to do: already at %s.", op->plan.note);
		d->submit = skip_submit;
		d->arg = f;
		d->free_arg = cap_flow_free;
		m->dlg = d;
		return TUI_REDRAW;
	}
	if (f->restore) {
		tui_dialog_line(d, "Now %s; gets back %s by %s.",
				size_human(op->plan.current * op->plan.block_len, h1, sizeof(h1)),
				op->plan.note, cap_method_name(op->plan.method));
		if (op->plan.method == CAP_SCSI_FORMAT)
			tui_dialog_line(d, "FORMAT UNIT destroys every byte on the drive.");
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
		    device_check_safe(&op->e, false, &err) ||
		    device_check_serial(m->ctx, &op->e, false, &err)) {
			tui_alert(m, "Refused", "%s", err.msg);
			goto fail;
		}
	}
	return f;
fail:
	cap_flow_free(f);
	return NULL;
}

/* "spec: msg", unless msg already starts with the drive's name */
static const char *named(const char *spec, const char *msg, char *buf, size_t len)
{
	if (!strncmp(msg, spec, strlen(spec)))
		return msg;
	snprintf(buf, len, "%s: %s", spec, msg);
	return buf;
}

static enum tui_action limit_submit(struct tui_model *m, struct tui_dialog *d)
{
	char buf[sizeof(d->error)];
	struct cap_flow *f = d->arg;
	struct cap_request req = { 0 };
	struct ss_error err = { 0 };
	struct size_spec s;

	if (size_parse(d->text, &s, &err))
		return tui_dialog_error(d, "%s", err.msg);
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
		    cap_plan_limit(&op->e.info, have ? &orig : NULL, &req, &op->plan, &err))
			return tui_dialog_error(d, "%s", named(op->e.spec, err.msg, buf,
								      sizeof(buf)));
		if (op->plan.noop)
			return tui_dialog_error(d, "Nothing to do: %s: %s", op->e.spec,
						op->plan.note);
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
	for (size_t i = 0; i < f->n; i++) {
		struct cap_op *op = f->ops[i];
		struct cap_ctx c = { .d = op->d, .e = &op->e, .state_dir = op->state_dir };
		struct ss_error err = { 0 };

		if (cap_plan_restore(&c, CAP_AUTO, false, &op->plan, &err))
			snprintf(op->refused, sizeof(op->refused), "%s", err.msg);
	}
	return confirm_next(m, f);
}

static enum tui_action act_power_cycle(struct tui_model *m)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct ss_error err = { 0 };
	char skipped[320] = "";
	size_t used = 0;
	unsigned done = 0;

	if (!n)
		return TUI_NONE;
	if (device_power_cycle(m->ctx, NULL, true, &err))
		return tui_alert(m, "Power cycle", "Only simulated drives can be power-cycled "
						   "from here: %s", err.msg);
	for (size_t i = 0; i < n; i++) {
		const char *spec = m->devs[idx[i]].spec;
		bool can = !device_power_cycle(m->ctx, spec, true, &err);
		const char *why = !can ? "not a simulated drive"
				  : tui_task_for(m, spec) ? "a job is running on it" : NULL;

		if (why) {
			if (used < sizeof(skipped))
				used += (size_t)snprintf(skipped + used, sizeof(skipped) - used,
							 "%s%s: %s", used ? "; " : "", spec, why);
			continue;
		}
		if (device_power_cycle(m->ctx, spec, false, &err))
			return tui_alert(m, "Power cycle", "%s: %s", spec, err.msg);
		done++;
	}
	tui_status(m, "%u simulated drive%s power-cycled", done, done == 1 ? "" : "s");
	if (skipped[0])
		tui_alert(m, "Power cycle", "%u power-cycled. Not power-cycled: %s", done, skipped);
	return TUI_RESCAN;
}

/* ---- self-test: a job on the drive with a progress bar --------------------------- */

struct st_op {
	struct drive *d;
	struct dev_entry e;
	enum selftest_kind kind;
	atomic_bool abort;	/* set by the abort key: stop it inside the drive too */
};

static int st_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct st_op *op = arg;
	int rc;

	rc = selftest_wait(op->d, &op->e.info, op->kind, sink, err);
	if (rc != -ECANCELED || !atomic_load(&op->abort))
		return rc;
	rc = selftest_abort(op->d, &op->e.info, err);
	if (rc)
		return rc;
	return ss_error_set(err, -ECANCELED, "%s: the %s self-test was aborted on the drive",
			    op->e.spec, selftest_kind_name(op->kind));
}

static void st_abort(struct tui_task *t)
{
	struct st_op *op = t->arg;

	atomic_store(&op->abort, true);
	job_cancel(t->job);
}

static void st_finish(struct tui_model *m, struct tui_task *t, int rc, const struct ss_error *err)
{
	struct st_op *op = t->arg;

	if (rc == -ECANCELED && atomic_load(&op->abort))
		tui_status(m, "%s", err->msg);
	else if (rc)
		tui_alert(m, "Self-test", "%s", err->msg);
	else
		tui_status(m, "%s: %s self-test completed without error", op->e.spec,
			   selftest_kind_name(op->kind));
	drive_free(op->d);
	free(op);
}

/* Start the test on one drive (one command, on this thread, so that a
 * refusal shows in the dialog) and a job that watches it. */
static int st_start_one(struct tui_model *m, const char *spec, enum selftest_kind kind,
			struct ss_error *err)
{
	struct st_op *op;
	int rc;

	if (tui_task_for(m, spec))
		return ss_error_set(err, -EBUSY, "%s: a job is running on it", spec);
	op = calloc(1, sizeof(*op));
	if (!op)
		return ss_error_set(err, -ENOMEM, "out of memory");
	op->kind = kind;
	atomic_init(&op->abort, false);
	rc = device_open(m->ctx, spec, false, &op->d, &op->e, err);
	if (!rc)
		rc = selftest_start(op->d, &op->e.info, kind, err);
	if (!rc && tui_task_start(m, spec, "self-test", st_job, op, st_finish))
		rc = ss_error_set(err, -EBUSY, "%s: cannot start a job", spec);
	if (rc) {
		drive_free(op->d);
		free(op);
		return rc;
	}
	tui_task_for(m, spec)->abort = st_abort;
	return 0;
}

static enum tui_action st_submit(struct tui_model *m, struct tui_dialog *d)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	enum selftest_kind kind;
	char failed[sizeof(d->error)] = "";
	size_t used = 0;
	unsigned started = 0;

	if (!strcmp(d->text, "s") || !strcmp(d->text, "short") || !d->text[0])
		kind = SELFTEST_SHORT;
	else if (!strcmp(d->text, "l") || !strcmp(d->text, "long"))
		kind = SELFTEST_EXTENDED;
	else if (!strcmp(d->text, "c") || !strcmp(d->text, "conveyance"))
		kind = SELFTEST_CONVEYANCE;
	else
		return tui_dialog_error(d, "'%s' is not a kind: type s (short), l (long) or c "
					   "(conveyance)", d->text);
	for (size_t i = 0; i < n; i++) {
		struct ss_error err = { 0 };

		if (!st_start_one(m, m->devs[idx[i]].spec, kind, &err))
			started++;
		else if (used < sizeof(failed))
			used += (size_t)snprintf(failed + used, sizeof(failed) - used, "%s%s",
						 used ? "; " : "", err.msg);
	}
	tui_status(m, "%s self-test started on %u drive%s", selftest_kind_name(kind), started,
		   started == 1 ? "" : "s");
	if (!failed[0]) {
		m->dlg = NULL; /* the caller frees d */
		return TUI_REDRAW;
	}
	if (started)
		return tui_dialog_error(d, "Started on %u of %zu drives. %s", started, n, failed);
	return tui_dialog_error(d, "%s", failed);
}

static enum tui_action act_selftest(struct tui_model *m)
{
	struct tui_dialog *d;

	if (!m->n)
		return TUI_NONE;
	d = tui_dialog_new("SMART self-test");
	tui_dialog_line(d, "Runs on the selected (or marked) drives; progress shows in the table.");
	tui_dialog_line(d, "s: short (about 2 min)   l: long (hours)   c: conveyance (ATA)");
	tui_dialog_line(d, "a aborts a running test; q leaves it running inside the drive.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Kind [s]:");
	d->submit = st_submit;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

/* ---- the abort key and quitting while jobs run ------------------------------------ */

static bool said_yes(const char *t)
{
	return !strcasecmp(t, "y") || !strcasecmp(t, "yes");
}

/* One line about a running job, e.g. sim:sata250: self-test 40% 1 h 12 min left */
static void task_line(struct tui_task *t, char *buf, size_t len)
{
	struct job_status st;
	char eta[24] = "";

	job_status(t->job, &st);
	if (st.eta_s >= 0)
		duration_human(st.eta_s, eta, sizeof(eta));
	snprintf(buf, len, "%s: %s %.0f%%%s%s", t->spec, t->what, st.fraction * 100.0,
		 eta[0] ? ", left " : "", eta);
}

/* The specs the abort dialog was opened on (the jobs may end meanwhile). */
struct abort_list {
	size_t n;
	char spec[MAX_TARGETS][256];
};

static enum tui_action abort_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct abort_list *l = d->arg;
	unsigned done = 0;

	if (!said_yes(d->text)) {
		m->dlg = NULL;
		tui_status(m, "nothing aborted");
		return TUI_REDRAW;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct tui_task *t = tui_task_for(m, l->spec[i]);

		if (!t || t->no_abort[0])
			continue;
		if (t->abort)
			t->abort(t);
		else
			job_cancel(t->job);
		done++;
	}
	m->dlg = NULL;
	tui_status(m, "aborting %u job%s...", done, done == 1 ? "" : "s");
	return TUI_REDRAW;
}

static enum tui_action act_abort(struct tui_model *m)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct abort_list *l;
	struct tui_dialog *d;
	char line[200], why[320] = "";
	size_t used = 0;

	if (!n)
		return TUI_NONE;
	l = calloc(1, sizeof(*l));
	if (!l)
		return tui_alert(m, "Abort", "out of memory");
	d = tui_dialog_new("Abort jobs");
	for (size_t i = 0; i < n; i++) {
		struct tui_task *t = tui_task_for(m, m->devs[idx[i]].spec);

		if (!t)
			continue;
		if (t->no_abort[0]) {
			if (used < sizeof(why))
				used += (size_t)snprintf(why + used, sizeof(why) - used, "%s%s: %s",
							 used ? "; " : "", t->spec, t->no_abort);
			continue;
		}
		task_line(t, line, sizeof(line));
		if (l->n < TUI_DIALOG_LINES - 3)
			tui_dialog_line(d, "%s", line);
		snprintf(l->spec[l->n++], sizeof(l->spec[0]), "%s", t->spec);
	}
	if (!l->n) {
		free(l);
		tui_dialog_free(d);
		if (why[0])
			return tui_alert(m, "Abort", "%s", why);
		return tui_alert(m, "Abort", "No job is running on %s.",
				 n == 1 ? m->devs[idx[0]].spec : "the marked drives");
	}
	tui_dialog_line(d, "A self-test is stopped inside the drive; a benchmark or a");
	tui_dialog_line(d, "qualification stops here.");
	if (why[0])
		tui_dialog_error(d, "Not aborted: %s", why);
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Abort %s? [y/N]:",
		 l->n == 1 ? "it" : "them");
	d->submit = abort_submit;
	d->arg = l;
	d->free_arg = free;
	m->dlg = d;
	return TUI_REDRAW;
}

static enum tui_action quit_submit(struct tui_model *m, struct tui_dialog *d)
{
	if (said_yes(d->text))
		return TUI_QUIT;
	m->dlg = NULL;
	tui_status(m, "not quitting: %u job%s running", m->ntasks, m->ntasks == 1 ? "" : "s");
	return TUI_REDRAW;
}

enum tui_action tui_quit(struct tui_model *m)
{
	struct tui_dialog *d;
	char line[200];
	unsigned shown = 0;

	if (!m->ntasks)
		return TUI_QUIT;
	for (unsigned i = 0; i < m->ntasks; i++)
		if (m->tasks[i].no_abort[0])
			return tui_alert(m, "Jobs are running",
					 "%s: a %s is running and cannot be left: %s. Quit once it "
					 "has ended.",
					 m->tasks[i].spec, m->tasks[i].what, m->tasks[i].no_abort);
	d = tui_dialog_new("Quit while jobs run?");
	for (unsigned i = 0; i < m->ntasks; i++) {
		if (shown >= TUI_DIALOG_LINES - 4)
			break;
		task_line(&m->tasks[i], line, sizeof(line));
		tui_dialog_line(d, "%s", line);
		shown++;
	}
	if (shown < m->ntasks)
		tui_dialog_line(d, "... and %u more", m->ntasks - shown);
	tui_dialog_line(d, "Self-tests go on inside the drives ('shortstroke selftest");
	tui_dialog_line(d, "--status' shows them, '--abort' stops them); the rest stops.");
	d->input = true;
	snprintf(d->prompt, sizeof(d->prompt), "Quit? [y/N]:");
	d->submit = quit_submit;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return TUI_REDRAW;
}

const struct tui_key_action tui_actions[] = {
	{ 'l', "l", "limit the selected (or marked) drives", act_limit, true },
	{ 'r', "r", "restore the selected (or marked) drives", act_restore, true },
	{ 's', "s", "SMART report of the selected drive", tui_report_smart, true },
	{ 't', "t", "start a self-test on the selected (or marked) drives", act_selftest, true },
	{ 'z', "z", "zones of the selected drive (ZBC/ZAC zones, recording zones)",
	  tui_report_zones, true },
	{ 'p', "p", "plan an array of the selected (or marked) drives: goals, layouts, save",
	  tui_planner_open, true },
	{ 'A', "A", "the arrays shortstroke created (planner a applies a layout): members, "
		    "state, stroke; u undoes one", tui_arrays_open, false },
	{ 'b', "b", "benchmark the selected (or marked) drives: random reads, QD 1 and 16",
	  tui_bench_start, true },
	{ 'Q', "Q", "qualify the selected (or marked) drives: quick, read-only checks",
	  tui_qualify_start, true },
	{ 'P', "P", "power-cycle simulated drives (volatile limits go)", act_power_cycle, true },
	{ 'a', "a", "abort the job on the selected (or marked) drives (a self-test stops "
		    "inside the drive; a format cannot be aborted)", act_abort, true },
	{ 0, NULL, NULL, NULL, false },
};
