/* limit.c - l and r: limit and restore the selected (or marked) drives.
 *
 * A form with every option of the command (limit: size or percent, method,
 * volatile, alignment; restore: to the journaled original or the native
 * maximum, method, volatile), the methods a drive does not offer listed
 * with why; Enter plans every drive as `limit` does (cap_plan_limit_drive,
 * cap_plan_restore) and refuses inside the form; then, drive by drive, a
 * preview of the plan (now, after, what restore gives back) with the
 * commands as `--dry-run` lists them (the same engine run dry) and the
 * serial typed to confirm; once every drive is confirmed, a job on each.
 * Esc at any step cancels all of them: nothing has been sent. No curses
 * here. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "shortstroke/capacity.h"
#include "shortstroke/units.h"
#include "tui.h"

#define MAX_TARGETS 64

enum { LF_SIZE, LF_METHOD, LF_VOLATILE, LF_ALIGN };
enum { RF_TO, RF_METHOD, RF_VOLATILE };

/* One drive of a limit or restore, from the form to the end of its job. */
struct cap_op {
	struct drive *d;
	struct dev_entry e;
	struct cap_plan plan;
	bool restore;
	enum cap_method method;	  /* restore: forced (CAP_AUTO: the journal's) */
	bool to_native;		  /* restore: nothing journaled: the native maximum */
	char refused[400];	  /* restore: why it would be refused (nothing to confirm) */
	struct tui_lines preview; /* the plan and the commands, for its confirmation */
	char state_dir[4096];
	struct tui_batch *batch; /* the summary it ends in */
	struct cap_result res;	 /* the job's */
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
	tui_lines_clear(&op->preview);
	drive_free(op->d);
	free(op);
}

static void cap_flow_free(void *arg)
{
	struct cap_flow *f = arg;

	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		cap_op_free(f->ops[i]);
	free(f);
}

static void cap_ctx_of(struct cap_op *op, struct cap_ctx *c)
{
	*c = (struct cap_ctx){
		.d = op->d,
		.e = &op->e,
		.state_dir = op->state_dir,
		.to_native = op->to_native,
	};
}

static int cap_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct cap_op *op = arg;
	struct cap_ctx c;

	cap_ctx_of(op, &c);
	c.progress = sink;
	if (op->restore)
		return cap_restore(&c, op->method, op->plan.volatile_, &op->res, err);
	return cap_limit(&c, &op->plan, &op->res, err);
}

/* A drive's end: into the batch's summary (the CLI's line for it). */
static void cap_finish(struct tui_model *m, struct tui_task *t, int rc, const struct ss_error *err)
{
	struct cap_op *op = t->arg;

	tui_batch_ended(m, op->batch, op->e.spec, rc, rc ? err->msg : op->res.message);
	cap_op_free(op);
	m->rescan_pending = true;
}

/* Every drive confirmed: a job on each (the flow gives them up); a drive
 * with nothing to do, or refused, ends in the summary as it is. */
static void start_jobs(struct tui_model *m, struct cap_flow *f)
{
	struct tui_batch *b = f->restore ? tui_batch_new("restore", "Restore", 'r')
					 : tui_batch_new("limit", "Limit", 'l');

	for (size_t i = 0; i < f->n; i++) {
		struct cap_op *op = f->ops[i];
		struct tui_task *t;
		char text[sizeof(op->plan.note) + 64];

		if (op->refused[0] || op->plan.noop) {
			snprintf(text, sizeof(text), "%s%s",
				 op->refused[0] ? "" : "nothing to do: already at ",
				 op->refused[0] ? op->refused : op->plan.note);
			tui_batch_ended(m, b, op->e.spec, op->refused[0] ? -EPERM : 0, text);
			continue;
		}
		f->ops[i] = NULL;
		op->batch = b;
		if (tui_task_start(m, op->e.spec, f->restore ? "restore" : "limit", cap_job, op,
				   cap_finish)) {
			tui_batch_ended(m, b, op->e.spec, -EBUSY, "cannot start the job");
			cap_op_free(op);
			continue;
		}
		tui_batch_add(b, op->e.spec);
		t = tui_task_for(m, op->e.spec);
		cap_no_abort_text(op->plan.method, f->restore, t->no_abort, sizeof(t->no_abort));
	}
	tui_batch_seal(m, b);
}

static enum tui_action confirm_next(struct tui_model *m, struct cap_flow *f);

/* Hand the flow on from dialog d (which the key handler frees once m->dlg
 * has moved on). */
static enum tui_action flow_next(struct tui_model *m, struct tui_dialog *d, struct cap_flow *f)
{
	d->arg = NULL;
	d->free_arg = NULL;
	return confirm_next(m, f);
}

/* A drive of the flow with nothing to confirm: on to the next one. */
static enum tui_action skip_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct cap_flow *f = d->arg;

	f->next++;
	return flow_next(m, d, f);
}

static enum tui_action confirm_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct cap_flow *f = d->arg;
	struct cap_op *op = f->ops[f->next];
	struct tui_field *x = &d->form->f[0];

	if (strcmp(x->text, op->e.info.serial) || !op->e.info.serial[0]) {
		x->text[0] = '\0';
		return tui_form_refuse(d, 0, "Not the serial. Type %s to confirm, Esc to cancel%s.",
				       op->e.info.serial, f->n > 1 ? " them all" : "");
	}
	f->next++;
	return flow_next(m, d, f);
}

/* The drive f->next asks for its serial (or says why there is nothing to
 * confirm); after the last one, the jobs. */
static enum tui_action confirm_next(struct tui_model *m, struct cap_flow *f)
{
	const char *verb = f->restore ? "restore" : "limit";
	struct tui_dialog *d;
	struct tui_form *fm;
	struct cap_op *op;
	char title[96], label[96], warn[160];

	if (f->next >= f->n) {
		start_jobs(m, f);
		cap_flow_free(f);
		m->dlg = NULL;
		return TUI_REDRAW;
	}
	op = f->ops[f->next];
	if (f->n > 1)
		snprintf(title, sizeof(title), "Confirm %s (drive %zu of %zu)", verb, f->next + 1,
			 f->n);
	else
		snprintf(title, sizeof(title), "Confirm %s", verb);
	m->dlg = NULL; /* the one before: the key handler frees it */
	fm = tui_form_open(m, title, f, cap_flow_free,
			   f->restore && (op->refused[0] || op->plan.noop) ? skip_submit
									   : confirm_submit);
	if (!fm)
		return TUI_REDRAW;
	d = m->dlg;
	tui_dialog_line(d, "%s  %s  serial %s", op->e.spec, op->e.info.model, op->e.info.serial);
	snprintf(fm->pane_title, sizeof(fm->pane_title), "Preview: what %s will do", verb);
	for (size_t i = 0; i < op->preview.n; i++)
		tui_lines_add(&fm->pane, "%s", op->preview.v[i]);
	if (f->restore && (op->refused[0] || op->plan.noop)) {
		/* nothing to confirm: say why, Enter goes on to the next drive */
		if (op->refused[0])
			tui_dialog_error(d, "Refused: %s", op->refused);
		else
			tui_dialog_error(d, "Nothing to do: already at %s.", op->plan.note);
		tui_dialog_line(d, "Enter goes on%s, Esc cancels%s.",
				f->next + 1 < f->n ? " to the next drive" : "",
				f->n > 1 ? " them all" : "");
		return TUI_REDRAW;
	}
	cap_change_warning(op->plan.method, f->restore, warn, sizeof(warn));
	tui_dialog_line(d, "%s", warn);
	tui_dialog_line(d,
			"Esc cancels%s: nothing has been sent. Enter with the serial number "
			"goes ahead%s.",
			f->n > 1 ? " them all" : "",
			f->next + 1 < f->n ? " to the next drive" : "");
	snprintf(label, sizeof(label), "Type the serial (%s):", op->e.info.serial);
	tui_form_text(fm, label, NULL, NULL);
	return TUI_REDRAW;
}

/* ---- the preview: the plan and the commands, as --dry-run lists them --------- */

static void show_cmd(void *arg, const struct xcmd *c, const char *what)
{
	char text[3 * 32 + 256];

	cap_cmd_text(c, what, text, sizeof(text));
	tui_lines_add(&((struct cap_op *)arg)->preview, "    %s", text);
}

static const char *blocks_text(uint64_t blocks, uint32_t block_len, char *buf, size_t len)
{
	char h[32];

	snprintf(buf, len, "%" PRIu64 " blocks (%s)", blocks,
		 size_human(blocks * block_len, h, sizeof(h)));
	return buf;
}

/* The engine run dry: the commands it would send, or why it would not. */
static void preview_commands(struct cap_op *op)
{
	struct cap_result res;
	struct ss_error err = { 0 };
	struct cap_ctx c;
	size_t at;
	int rc;

	cap_ctx_of(op, &c);
	c.dry_run = true;
	c.show = show_cmd;
	c.show_arg = op;
	tui_lines_add(&op->preview, "  Commands that would be sent (as %s --dry-run lists them):",
		      op->restore ? "restore" : "limit");
	at = op->preview.n;
	rc = op->restore ? cap_restore(&c, op->method, op->plan.volatile_, &res, &err)
			 : cap_limit(&c, &op->plan, &res, &err);
	if (rc)
		tui_lines_add(&op->preview, "    (none: %s)", err.msg);
	else if (op->preview.n == at)
		tui_lines_add(&op->preview, "    (none: %s)", res.message);
}

/* The note of a drive that takes one permanent change per power cycle, as
 * the CLI says it before its confirmation. */
static void preview_note(struct cap_op *op)
{
	const struct cap_plan *p = &op->plan;
	char note[256];

	if (!p->noop && cap_power_cycle_note(op->state_dir, &op->e.info, p->method, p->volatile_,
					     note, sizeof(note)))
		tui_lines_add(&op->preview, "  %s", note);
}

static void preview_limit(struct cap_op *op)
{
	const struct cap_plan *p = &op->plan;
	struct journal_entry orig;
	uint64_t back = p->current;
	bool journaled;
	char b[96];

	journaled = journal_original(op->state_dir, op->e.info.serial, op->e.info.wwn, &orig,
				     NULL) == 0 &&
		    orig.block_len == p->block_len;
	if (journaled)
		back = orig.original_blocks;
	tui_lines_add(&op->preview, "%s  %s  serial %s", op->e.spec, op->e.info.model,
		      op->e.info.serial);
	tui_lines_add(&op->preview, "  Now:      %s",
		      blocks_text(p->current, p->block_len, b, sizeof(b)));
	tui_lines_add(&op->preview, "  After:    %s by %s%s", p->note, cap_method_name(p->method),
		      p->volatile_ ? " (volatile: a power cycle undoes it)" : "");
	tui_lines_add(&op->preview, "  Restore:  gets back %s, %s",
		      blocks_text(back, p->block_len, b, sizeof(b)),
		      journaled ? "the journaled original (the disk was limited before)"
				: "the capacity it has now");
	preview_note(op);
	if (p->discard_note[0]) /* a flash drive: what happens to the range hidden */
		tui_lines_add(&op->preview, "  Flash:    %s", p->discard_note);
	preview_commands(op);
}

static void preview_restore(struct cap_op *op)
{
	const struct cap_plan *p = &op->plan;
	char b[96];

	tui_lines_add(&op->preview, "%s  %s  serial %s", op->e.spec, op->e.info.model,
		      op->e.info.serial);
	if (op->refused[0]) {
		tui_lines_add(&op->preview, "  Refused: %s", op->refused);
		return;
	}
	tui_lines_add(&op->preview, "  Now:      %s",
		      blocks_text(p->current, p->block_len, b, sizeof(b)));
	if (p->noop && p->trial)
		tui_lines_add(&op->preview, "  After:    %s", p->note);
	else
		tui_lines_add(&op->preview, "  After:    gets back %s by %s%s", p->note,
			      cap_method_name(p->method),
			      p->trial	     ? " (volatile, as the trial limit was)"
			      : p->volatile_ ? " (volatile: a power cycle undoes it)"
					     : "");
	if (op->to_native)
		tui_lines_add(&op->preview,
			      "  --to-native: what a vendor's HPA or DCO, or another tool, hid "
			      "comes back too");
	if (p->noop)
		return;
	preview_note(op);
	preview_commands(op);
}

/* ---- opening the drives ----------------------------------------------------------- */

/* Open every target read-write and check it is safe; an alert says why not. */
static struct cap_flow *open_targets(struct tui_model *m, bool restore)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct cap_flow *f = calloc(1, sizeof(*f));
	struct ss_error err = { 0 };

	if (!f || tui_targets_busy(m))
		goto fail;
	f->restore = restore;
	for (size_t i = 0; i < n; i++) {
		const char *spec = m->devs[idx[i]].spec;
		struct cap_op *op;

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

/* The drives of the flow, a line each (the first six). */
static void drive_lines(struct tui_dialog *d, const struct cap_flow *f)
{
	char h1[32], methods[96];

	for (size_t i = 0; i < f->n && i < 6; i++) {
		const struct drive_info *in = &f->ops[i]->e.info;

		cap_methods_text(in->methods, methods, sizeof(methods));
		tui_dialog_line(d, "%s  %s  %s  (%s)", f->ops[i]->e.spec, in->model,
				size_human(in->capacity_blocks * in->logical_block, h1, sizeof(h1)),
				methods);
	}
	if (f->n > 6)
		tui_dialog_line(d, "... and %zu more", f->n - 6);
}

/* The method choice: auto, then every method of the table, each offered
 * when every drive of the flow can take it, else with why not. */
static void method_options(struct tui_field *x, const struct cap_flow *f)
{
	tui_field_option(x, "auto", NULL);
	for (size_t k = 0; cap_method_at(k); k++) {
		const struct cap_method_ops *o = cap_method_at(k);
		struct ss_error why = { 0 };

		for (size_t i = 0; i < f->n && !why.msg[0]; i++)
			if (cap_method_usable(&f->ops[i]->e.info, o, f->ops[i]->e.spec, &why) &&
			    !why.msg[0])
				snprintf(why.msg, sizeof(why.msg), "%s: not usable",
					 f->ops[i]->e.spec);
		tui_field_option(x, o->name, why.msg);
	}
}

/* The methods with a volatile form, from the table: "HPA", or with their
 * commands "HPA (SET MAX ADDRESS)". */
static void volatile_names(char *buf, size_t len, bool commands)
{
	const struct cap_method_ops *o;
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; (o = cap_method_at(k)) && off < len; k++) {
		if (!(o->flags & CAPM_VOLATILE))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s", off ? " or " : "");
		for (const char *c = o->name; *c && off + 1 < len; c++)
			buf[off++] = (char)toupper((unsigned char)*c);
		buf[off < len ? off : len - 1] = '\0';
		if (commands)
			off += (size_t)snprintf(buf + off, len - off, " (%s)", o->command);
	}
}

/* Volatile: only where the method has a volatile form (auto: every drive's
 * pick for a volatile limit has one). */
static void volatile_fits(struct tui_dialog *d, unsigned method_field, unsigned vol_field)
{
	struct tui_form *fm = d->form;
	const struct cap_flow *f = d->arg;
	const char *name = tui_field_choice(&fm->f[method_field]);
	struct tui_field *v = &fm->f[vol_field];
	unsigned flags = cap_method_flags(name);
	char vol[96];

	v->why_off[0] = '\0';
	volatile_names(vol, sizeof(vol), strcmp(name, "auto") != 0);
	if (!strcmp(name, "auto")) {
		for (size_t i = 0; f && i < f->n; i++) {
			const struct cap_method_ops *o = cap_method_pick(&f->ops[i]->e.info, true);

			if (!o || !(o->flags & CAPM_VOLATILE)) {
				snprintf(v->why_off, sizeof(v->why_off),
					 "%s has no method with a volatile form (%s): its changes "
					 "are permanent",
					 f->ops[i]->e.spec, vol);
				break;
			}
		}
	} else if (!(flags & CAPM_VOLATILE)) {
		snprintf(v->why_off, sizeof(v->why_off),
			 "only %s has a volatile form; %s changes are permanent", vol,
			 name[0] ? name : "these");
	}
	if (v->why_off[0])
		v->on = false;
}

static void limit_changed(struct tui_dialog *d)
{
	volatile_fits(d, LF_METHOD, LF_VOLATILE);
}

static void restore_changed(struct tui_dialog *d)
{
	volatile_fits(d, RF_METHOD, RF_VOLATILE);
}

/* ---- limit --------------------------------------------------------------------- */

static enum tui_action limit_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct cap_flow *f = d->arg;
	struct tui_form *fm = d->form;
	struct cap_request req = { 0 };
	struct ss_error err = { 0 };
	struct size_spec s;

	if (!fm->f[LF_SIZE].text[0])
		return tui_form_refuse(d, LF_SIZE,
				       "Keep how much? Type a size (100GB, 93GiB), a "
				       "percent of native (20%%) or a block count.");
	if (size_parse(fm->f[LF_SIZE].text, &s, &err))
		return tui_form_refuse(d, LF_SIZE, "%s", err.msg);
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
	if (cap_method_parse(tui_field_choice(&fm->f[LF_METHOD]), &req.method))
		return tui_form_refuse(d, LF_METHOD, "Pick a method.");
	req.volatile_ = fm->f[LF_VOLATILE].on;
	if (fm->f[LF_ALIGN].text[0]) {
		if (size_parse(fm->f[LF_ALIGN].text, &s, &err) || s.kind == SIZE_PERCENT)
			return tui_form_refuse(d, LF_ALIGN, "Align: %s",
					       err.msg[0] ? err.msg : "give a size (1MiB, 4KiB)");
		req.align = s.kind == SIZE_BLOCKS ? s.blocks * 512 : s.bytes;
	}
	for (size_t i = 0; i < f->n; i++) {
		struct cap_op *op = f->ops[i];
		struct cap_ctx c;
		int rc;

		cap_ctx_of(op, &c);
		rc = cap_refresh_native(&c, &err);
		if (!rc)
			rc = cap_plan_limit_drive(&c, &req, &op->plan, &err);
		if (rc) {
			ss_error_subject(&err, op->e.spec);
			return tui_form_refuse(
			    d, rc == -EOPNOTSUPP || rc == -EACCES ? LF_METHOD : LF_SIZE, "%s",
			    err.msg);
		}
		if (op->plan.noop)
			return tui_form_refuse(d, LF_SIZE, "Nothing to do: %s: %s", op->e.spec,
					       op->plan.note);
	}
	for (size_t i = 0; i < f->n; i++) {
		tui_lines_clear(&f->ops[i]->preview);
		preview_limit(f->ops[i]);
	}
	f->next = 0;
	return flow_next(m, d, f);
}

/* The form of limit or restore over the drives opened, a line each, then
 * what it does; NULL: an alert says why not. */
static struct tui_form *cap_form(struct tui_model *m, bool restore, const char *title,
				 enum tui_action (*submit)(struct tui_model *, struct tui_dialog *),
				 const char *what)
{
	struct cap_flow *f;
	struct tui_form *fm;

	if (!m->n)
		return NULL;
	f = open_targets(m, restore);
	if (!f)
		return NULL;
	fm = tui_form_open(m, title, f, cap_flow_free, submit);
	if (!fm)
		return NULL;
	drive_lines(m->dlg, f);
	tui_dialog_line(m->dlg, "%s", what);
	return fm;
}

static enum tui_action act_limit(struct tui_model *m)
{
	struct tui_form *fm;
	struct tui_field *x;
	char names[160], hint[240];

	fm = cap_form(m, false, "Limit (short-stroke)", limit_submit,
		      "Keep the outer part of the disk: it then reports the smaller size. Enter "
		      "shows what would be sent; nothing is sent before the serial is typed.");
	if (!fm)
		return m->dlg ? TUI_REDRAW : TUI_NONE;
	tui_form_text(fm, "Size", NULL,
		      "how much to keep: a size (100GB is 10^9, 93GiB 2^30), a percent of native "
		      "(20%) or a block count");
	cap_method_list(names, sizeof(names), CAPM_AUTO, 0, ", else ");
	snprintf(hint, sizeof(hint),
		 "auto: %s (as 'limit --method auto'); Left/Right or a name picks another", names);
	x = tui_form_choice(fm, "Method", hint);
	method_options(x, m->dlg->arg);
	volatile_names(names, sizeof(names), true);
	snprintf(hint, sizeof(hint), "a trial that a power cycle undoes (volatile: %s)", names);
	tui_form_check(fm, "Volatile", false, hint);
	tui_form_text(fm, "Align", "1MiB", "the limit is rounded down to a multiple of it");
	fm->changed = limit_changed;
	limit_changed(m->dlg);
	return TUI_REDRAW;
}

/* ---- restore ------------------------------------------------------------------- */

static enum tui_action restore_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct cap_flow *f = d->arg;
	struct tui_form *fm = d->form;
	enum cap_method method;
	bool to_native = !strcmp(tui_field_choice(&fm->f[RF_TO]), "native");

	if (cap_method_parse(tui_field_choice(&fm->f[RF_METHOD]), &method))
		return tui_form_refuse(d, RF_METHOD, "Pick a method.");
	for (size_t i = 0; i < f->n; i++) {
		struct cap_op *op = f->ops[i];
		struct ss_error err = { 0 };
		struct cap_ctx c;

		op->method = method;
		op->to_native = to_native;
		op->refused[0] = '\0';
		cap_ctx_of(op, &c);
		if (cap_plan_restore(&c, method, fm->f[RF_VOLATILE].on, &op->plan, &err))
			snprintf(op->refused, sizeof(op->refused), "%s", err.msg);
		tui_lines_clear(&op->preview);
		preview_restore(op);
	}
	f->next = 0;
	return flow_next(m, d, f);
}

static enum tui_action act_restore(struct tui_model *m)
{
	struct tui_form *fm;
	struct tui_field *x;
	char names[160], hint[240];

	fm = cap_form(m, true, "Restore", restore_submit,
		      "Bring the drives back to their capacity before shortstroke limited them. "
		      "Enter shows what each gets back and what would be sent.");
	if (!fm)
		return m->dlg ? TUI_REDRAW : TUI_NONE;
	x = tui_form_choice(fm, "To",
			    "original: the journaled capacity before the limit; native: with "
			    "nothing journaled, the native maximum (--to-native): a vendor's HPA "
			    "or DCO, or another tool's limit, goes too");
	tui_field_option(x, "original", NULL);
	tui_field_option(x, "native", NULL);
	names[0] = '\0';
	for (size_t k = 0, off = 0; cap_method_at(k) && off < sizeof(names); k++)
		if (cap_method_at(k)->flags & CAPM_RESTORE_NEEDS_NATIVE)
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
						off ? ", " : "", cap_method_at(k)->name);
	snprintf(hint, sizeof(hint),
		 "auto: the method that limited it (the journal's); or one forced: %s undo what "
		 "another tool did too (the factory maximum, a format, a GPT), so with nothing "
		 "journaled they need To: native",
		 names);
	x = tui_form_choice(fm, "Method", hint);
	method_options(x, m->dlg->arg);
	volatile_names(names, sizeof(names), false);
	snprintf(hint, sizeof(hint), "%s only: a power cycle undoes the restore", names);
	tui_form_check(fm, "Volatile", false, hint);
	fm->changed = restore_changed;
	restore_changed(m->dlg);
	return TUI_REDRAW;
}

enum tui_action tui_limit_open(struct tui_model *m)
{
	return act_limit(m);
}

enum tui_action tui_restore_open(struct tui_model *m)
{
	return act_restore(m);
}
