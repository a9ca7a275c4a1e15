/* bench.c - b: benchmark the selected (or marked) drives with every option
 * of `bench`: the workload (sequential read or write, random access or
 * write, the IOMeter profiles), the queue depths, the span (the outer part
 * of the disk a limit would keep), the time per queue depth, the request
 * size and the seed. Their checks are bench's (ops/bench.c): a workload
 * that writes needs Destructive ticked, and then the same refusals as the
 * CLI (protected, in use, a zoned disk) and its own confirmation, the
 * serial of each drive typed. Each drive runs as a job with a progress bar
 * in the table. When the last ends, the results: a table per drive, a
 * chart of IOPS by queue depth, and the drive's previous run of the same
 * workload side by side with the change in %; each run is kept per disk in
 * the state directory (<state>/bench/SERIAL.jsonl). No curses here. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "front/glyphs.h"
#include "shortstroke/bench.h"
#include "shortstroke/io.h"
#include "shortstroke/units.h"
#include "tui.h"

#define MAX_TARGETS TUI_MAX_TASKS
#define CHART_W 40

enum { BF_WORKLOAD, BF_QD, BF_SPAN, BF_TIME, BF_BS, BF_SEED, BF_DESTRUCTIVE };

/* A drive checked in the form, its device open for the job. */
struct tb_drive {
	char spec[256];
	struct dev_entry e;
	struct io_dev *io;
	struct io_job job;
	char plan[400];
};

/* The form's state, then the run's (setup takes the drives). */
struct tb_form {
	struct bench_opts o;
	bool write;
	size_t n, next;
	struct tb_drive d[MAX_TARGETS];
};

struct tb_flow {
	struct bench_opts o;
	char state_dir[4096];
	size_t n;
	struct tb_drive d[MAX_TARGETS];
	struct tui_lines out;
	bool virtual_time;
};

struct tb_op {
	struct tb_drive d;
	struct bench_opts o;
	struct io_result res[BENCH_QD_MAX];
	unsigned done;
	bool virtual_time;
	const struct progress_sink *outer;
	unsigned cur;
	const char *state_dir;
};

static void form_free(void *arg)
{
	struct tb_form *f = arg;

	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		io_dev_close(f->d[i].io);
	free(f);
}

/* ---- the job ------------------------------------------------------------------ */

static void sub_report(void *arg, double fr, const char *phase, double eta)
{
	struct tb_op *op = arg;
	char text[64];

	(void)phase;
	(void)eta;
	snprintf(text, sizeof(text), "%s QD %u", io_workload_name(op->o.wl), op->o.qd[op->cur]);
	progress_report(op->outer, (op->cur + fr) / op->o.nqd, text, -1);
}

static bool sub_cancelled(void *arg)
{
	struct tb_op *op = arg;

	return progress_cancelled(op->outer);
}

static int tb_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct tb_op *op = arg;
	struct progress_sink sub = { sub_report, sub_cancelled, op };
	int rc = 0;

	op->outer = sink;
	op->virtual_time = io_dev_engine(op->d.io)->caps & IO_CAP_VIRTUAL_TIME;
	op->d.job.progress = &sub;
	for (op->cur = 0; op->cur < op->o.nqd; op->cur++) {
		op->d.job.qd = op->o.qd[op->cur];
		rc = io_dev_run(op->d.io, &op->d.job, &op->res[op->cur], err);
		if (rc)
			break;
		op->done++;
	}
	io_dev_close(op->d.io);
	op->d.io = NULL;
	return rc;
}

/* ---- the results ----------------------------------------------------------------- */

static void change_text(double now, double before, char *buf, size_t len)
{
	if (before > 0)
		snprintf(buf, len, "%+.1f%%", 100.0 * (now - before) / before);
	else
		snprintf(buf, len, "-");
}

/* The run as it is kept. */
static void run_of(const struct tb_op *op, struct bench_run *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->device, sizeof(r->device), "%s", op->d.spec);
	snprintf(r->serial, sizeof(r->serial), "%s", op->d.e.info.serial);
	snprintf(r->wwn, sizeof(r->wwn), "%s", op->d.e.info.wwn);
	snprintf(r->model, sizeof(r->model), "%s", op->d.e.info.model);
	snprintf(r->workload, sizeof(r->workload), "%s", io_workload_name(op->o.wl));
	r->bs = op->d.job.bs;
	r->lblock = op->d.e.info.logical_block;
	r->span_blocks = op->d.job.end_lba;
	r->capacity_blocks = op->d.e.info.capacity_blocks;
	r->time_ns = op->o.time_ns;
	r->virtual_time = op->virtual_time;
	for (unsigned k = 0; k < op->done && k < BENCH_QD_MAX; k++) {
		struct bench_point *p = &r->p[r->n++];

		p->qd = op->o.qd[k];
		p->iops = op->res[k].iops;
		p->mbps = op->res[k].mbps;
		p->lat_avg_ms = op->res[k].lat_avg_ns / 1e6;
		p->lat_p99_ms = (double)op->res[k].lat_p99_ns / 1e6;
	}
}

/* A drive's results: the table, the earlier run beside it, the chart. */
static void results_text(struct tui_lines *out, const struct bench_run *r,
			 const struct bench_run *prev)
{
	char h1[32], h2[32], chg[16], b[4 * CHART_W + 1], pb[4 * CHART_W + 1], bsb[16];
	struct io_job j = { .bs = r->bs };
	double max = 0;

	tui_lines_add(out, "%s  %s  %s", r->device, r->model, r->serial);
	tui_lines_add(
	    out, "  %s, %s requests, over %s (%.3g%% of %s)", r->workload,
	    bench_bs_text(&j, bsb, sizeof(bsb)),
	    size_human(r->span_blocks * r->lblock, h1, sizeof(h1)),
	    r->capacity_blocks ? 100.0 * (double)r->span_blocks / (double)r->capacity_blocks : 0,
	    size_human(r->capacity_blocks * r->lblock, h2, sizeof(h2)));
	if (prev)
		tui_lines_add(out, "  before: the run of %s over %s (%.3g%% of %s)", prev->time,
			      size_human(prev->span_blocks * prev->lblock, h1, sizeof(h1)),
			      prev->capacity_blocks ? 100.0 * (double)prev->span_blocks /
							  (double)prev->capacity_blocks
						    : 0,
			      size_human(prev->capacity_blocks * prev->lblock, h2, sizeof(h2)));
	else
		tui_lines_add(out, "  before: no earlier %s run of this disk is kept", r->workload);
	tui_lines_add(out, "  %4s %9s %8s %8s %8s %9s %8s", "QD", "IOPS", "MB/S", "AVG-MS",
		      "P99-MS", "BEFORE", "CHANGE");
	for (unsigned k = 0; k < r->n; k++) {
		const struct bench_point *p = &r->p[k];
		const struct bench_point *q = prev ? bench_run_at(prev, p->qd) : NULL;
		char before[16] = "-";

		if (q)
			snprintf(before, sizeof(before), "%.0f", q->iops);
		change_text(p->iops, q ? q->iops : 0, chg, sizeof(chg));
		tui_lines_add(out, "  %4u %9.0f %8.1f %8.2f %8.2f %9s %8s", p->qd, p->iops, p->mbps,
			      p->lat_avg_ms, p->lat_p99_ms, before, chg);
		max = p->iops > max ? p->iops : max;
		max = q && q->iops > max ? q->iops : max;
	}
	tui_lines_add(out, "  IOPS by queue depth (%s: now%s%s%s)", glyphs()->hblock[8],
		      prev ? ", " : "", prev ? glyphs()->before : "", prev ? ": before" : "");
	for (unsigned k = 0; k < r->n; k++) {
		const struct bench_point *p = &r->p[k];
		const struct bench_point *q = prev ? bench_run_at(prev, p->qd) : NULL;

		glyphs_bar(p->iops, max, CHART_W, NULL, true, b, sizeof(b));
		tui_lines_add(out, "  QD %3u %s%s%s %.0f", p->qd, glyphs()->v, b, glyphs()->v,
			      p->iops);
		if (q) {
			glyphs_bar(q->iops, max, CHART_W, glyphs()->before, true, pb, sizeof(pb));
			tui_lines_add(out, "         %s%s%s %.0f before", glyphs()->v, pb,
				      glyphs()->v, q->iops);
		}
	}
	tui_lines_add(out, "%s", "");
}

/* A drive's end: its run kept, compared with the one before; its line for
 * the summary (IOPS at the first and the last queue depth). */
static void tb_done(struct tui_model *m, void *flow, void *arg, int rc, const struct ss_error *err,
		    char *result, size_t len)
{
	struct tb_flow *f = flow;
	struct tb_op *op = arg;
	struct bench_run r, prev;
	struct ss_error e2 = { 0 };
	bool have = false;

	(void)m;
	io_dev_close(op->d.io);
	f->virtual_time |= op->virtual_time;
	if (!op->done) {
		tui_lines_add(&f->out, "%s: benchmark failed: %s", op->d.spec, err->msg);
		tui_lines_add(&f->out, "%s", "");
		return;
	}
	run_of(op, &r);
	have = !bench_history_last(f->state_dir, r.serial, r.wwn, r.workload, r.bs, &prev, NULL);
	results_text(&f->out, &r, have ? &prev : NULL);
	if (rc)
		tui_lines_add(&f->out, "  stopped after %u of %u queue depths: %s", op->done,
			      op->o.nqd, err->msg);
	if (!rc && bench_history_append(f->state_dir, &r, &e2))
		tui_lines_add(&f->out, "  not kept for a later comparison: %s", e2.msg);
	if (r.n > 1)
		snprintf(result, len, "%s QD %u %.0f IOPS ... QD %u %.0f IOPS",
			 io_workload_name(op->o.wl), r.p[0].qd, r.p[0].iops, r.p[r.n - 1].qd,
			 r.p[r.n - 1].iops);
	else
		snprintf(result, len, "%s QD %u %.0f IOPS", io_workload_name(op->o.wl), r.p[0].qd,
			 r.p[0].iops);
}

static void tb_end(struct tui_model *m, void *flow, unsigned started, const struct tui_batch *b)
{
	struct tb_flow *f = flow;
	struct tui_lines out = { 0 };
	char title[200], t[32], head[64] = "";
	char *text;

	for (size_t i = 0; i < f->n; i++)
		io_dev_close(f->d[i].io); /* a drive whose job could not start */
	if (started) {
		if (b) { /* how each drive ended first: the failed ones with why */
			tui_batch_headline(b, head, sizeof(head));
			tui_batch_lines(b, &out, false);
			tui_lines_add(&out, "%s", "");
		}
		for (size_t i = 0; i < f->out.n; i++)
			tui_lines_add(&out, "%s", f->out.v[i]);
		text = tui_lines_join(&out);
		if (f->o.time_ns < 60000000000ull)
			snprintf(t, sizeof(t), "%gs", (double)f->o.time_ns / 1e9);
		else
			duration_human((double)f->o.time_ns / 1e9, t, sizeof(t));
		snprintf(title, sizeof(title), "Benchmark: %s, %s per queue depth%s%s%s",
			 io_workload_name(f->o.wl), t, f->virtual_time ? " (virtual time)" : "",
			 head[0] ? ": " : "", head);
		tui_pager_open(m, title, text ? text : "out of memory");
		free(text);
		tui_lines_clear(&out);
	}
	tui_lines_clear(&f->out);
}

static void tb_setup(void *flow, void *arg)
{
	struct tb_flow *f = flow;
	struct tb_form *fo = arg;

	f->o = fo->o;
	f->n = fo->n;
	memcpy(f->d, fo->d, fo->n * sizeof(f->d[0]));
	fo->n = 0; /* the devices are the run's now */
}

static int tb_prepare(struct tui_model *m, void *flow, const struct dev_entry *e, void *arg,
		      struct ss_error *err)
{
	struct tb_flow *f = flow;
	struct tb_op *op = arg;

	for (size_t i = 0; i < f->n; i++) {
		if (strcmp(f->d[i].spec, e->spec) || !f->d[i].io)
			continue;
		op->d = f->d[i];
		f->d[i].io = NULL; /* the job's */
		op->o = f->o;
		snprintf(f->state_dir, sizeof(f->state_dir), "%s", ctx_state_dir(m->ctx));
		return 0;
	}
	return ss_error_set(err, -ENODEV, "%s: not checked in the form", e->spec);
}

/* A workload that writes changes the drives (their signatures may go). */
static bool tb_changes(const void *flow)
{
	const struct tb_flow *f = flow;

	return io_workload_writes(f->o.wl);
}

static const struct tui_fanout_ops tb_ops = {
	.what = "bench",
	.title = "Benchmark",
	.key = 'b',
	.flow_size = sizeof(struct tb_flow),
	.op_size = sizeof(struct tb_op),
	.setup = tb_setup,
	.prepare = tb_prepare,
	.run = tb_job,
	.changes = tb_changes,
	.done = tb_done,
	.end = tb_end,
};

/* The jobs (the dialog goes: its caller frees it). */
static enum tui_action start(struct tui_model *m, struct tb_form *f)
{
	unsigned started;
	enum tui_action a;

	m->dlg = NULL;
	a = tui_fanout_start(m, &tb_ops, f, &started);
	if (started)
		tui_status(m, "benchmark started on %u drive%s (%s, QD %u%s)", started,
			   started == 1 ? "" : "s", io_workload_name(f->o.wl), f->o.qd[0],
			   f->o.nqd > 1 ? " and more" : "");
	return a;
}

/* ---- writes: each drive's serial typed ------------------------------------------ */

static enum tui_action confirm_next(struct tui_model *m, struct tui_dialog *old, struct tb_form *f);

static enum tui_action confirm_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct tb_form *f = d->arg;
	struct tb_drive *x = &f->d[f->next];
	struct tui_field *s = &d->form->f[0];

	if (strcmp(s->text, x->e.info.serial) || !x->e.info.serial[0]) {
		s->text[0] = '\0';
		return tui_form_refuse(d, 0,
				       "Not the serial. Type %s to write over its span, Esc "
				       "to cancel%s.",
				       x->e.info.serial, f->n > 1 ? " them all" : "");
	}
	f->next++;
	return confirm_next(m, d, f);
}

static enum tui_action confirm_next(struct tui_model *m, struct tui_dialog *old, struct tb_form *f)
{
	struct tui_dialog *d;
	struct tui_form *fm;
	struct tb_drive *x;
	char title[96], label[96];

	old->arg = NULL; /* the flow goes on in the next dialog */
	old->free_arg = NULL;
	if (f->next >= f->n) {
		enum tui_action a = start(m, f);

		form_free(f);
		return a;
	}
	x = &f->d[f->next];
	snprintf(title, sizeof(title), "Confirm write benchmark");
	if (f->n > 1)
		snprintf(title, sizeof(title), "Confirm write benchmark (drive %zu of %zu)",
			 f->next + 1, f->n);
	m->dlg = NULL; /* old: the key handler frees it */
	fm = tui_form_open(m, title, f, form_free, confirm_submit);
	if (!fm)
		return TUI_REDRAW;
	d = m->dlg;
	tui_dialog_line(d, "%s", x->plan);
	tui_dialog_line(d,
			"Every block written over the span is lost. Esc cancels%s: nothing has "
			"been written.",
			f->n > 1 ? " them all" : "");
	snprintf(label, sizeof(label), "Type the serial (%s):", x->e.info.serial);
	tui_form_text(fm, label, NULL, NULL);
	return TUI_REDRAW;
}

/* ---- the form ------------------------------------------------------------------ */

static enum tui_action form_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct tb_form *f = d->arg;
	struct tui_form *fm = d->form;
	struct bench_opts *o = &f->o;
	struct ss_error err = { 0 };
	size_t idx[MAX_TARGETS], n;
	const char *s;

	bench_opts_default(o);
	if (io_workload_parse(tui_field_choice(&fm->f[BF_WORKLOAD]), &o->wl, NULL))
		return tui_form_refuse(d, BF_WORKLOAD, "Pick a workload.");
	s = fm->f[BF_QD].text;
	if (bench_parse_qd(s, o, &err))
		return tui_form_refuse(d, BF_QD, "Queue depths %s", err.msg);
	s = fm->f[BF_SPAN].text;
	if (s[0] && strcmp(s, "100%")) {
		if (size_parse(s, &o->span, &err))
			return tui_form_refuse(d, BF_SPAN, "Span: %s", err.msg);
		o->span_given = true;
	}
	s = fm->f[BF_TIME].text;
	if (bench_parse_time(s, &o->time_ns, &err))
		return tui_form_refuse(d, BF_TIME, "Time %s", err.msg);
	s = fm->f[BF_BS].text;
	if (s[0] && bench_parse_bs(s, &o->bs, &err))
		return tui_form_refuse(d, BF_BS, "Request size %s", err.msg);
	s = fm->f[BF_SEED].text;
	if (u64_parse(s, &o->seed))
		return tui_form_refuse(d, BF_SEED, "Seed '%s' is not a number", s);
	o->destructive = fm->f[BF_DESTRUCTIVE].on;
	f->write = io_workload_writes(o->wl);
	if (f->write && !o->destructive)
		return tui_form_refuse(
		    d, BF_DESTRUCTIVE,
		    "The %s workload writes to the disk and destroys the data in "
		    "the span: tick Destructive (Space) to allow it; each drive's "
		    "serial is then asked for.",
		    io_workload_name(o->wl));
	if (bench_opts_check(o, &err))
		return tui_form_refuse(d, BF_BS, "%s", err.msg);

	/* every drive checked before any is sent a request */
	for (size_t i = 0; i < f->n; i++)
		io_dev_close(f->d[i].io);
	f->n = 0;
	n = tui_targets(m, idx, MAX_TARGETS);
	for (size_t i = 0; i < n; i++) {
		struct tb_drive *x = &f->d[f->n];
		struct bench_target t = { .write = f->write };
		char who[200];
		int rc;

		memset(x, 0, sizeof(*x));
		snprintf(x->spec, sizeof(x->spec), "%s", m->devs[idx[i]].spec);
		if (tui_task_for(m, x->spec))
			return tui_dialog_error(
			    d, "%s: a job is running on it; wait for it to end.", x->spec);
		t.spec = x->spec;
		t.e = &x->e;
		rc = bench_prepare(m->ctx, o, &t, &err);
		if (rc)
			return tui_form_refuse(d, rc == -ERANGE ? BF_SPAN : BF_WORKLOAD, "%s",
					       err.msg);
		x->io = t.io;
		x->job = t.job;
		f->n++;
		snprintf(who, sizeof(who), "%s  %s %s", x->spec, x->e.info.model, x->e.info.serial);
		bench_plan_text(o, &x->job, io_dev_geom(x->io), who, f->write, x->plan,
				sizeof(x->plan));
	}
	f->next = 0;
	if (f->write)
		return confirm_next(m, d, f);
	d->arg = NULL;
	d->free_arg = NULL;
	{
		enum tui_action a = start(m, f);

		form_free(f);
		return a;
	}
}

static void workloads(struct tui_field *x)
{
	for (int w = 0; w < IO_WL_COUNT; w++)
		tui_field_option(x, io_workload_name((enum io_workload)w), NULL);
}

enum tui_action tui_bench_start(struct tui_model *m)
{
	size_t idx[MAX_TARGETS], n = tui_targets(m, idx, MAX_TARGETS);
	struct tui_dialog *d;
	struct tui_form *fm;
	struct tui_field *x;
	enum tui_action a;

	fm = tui_targets_form(m, "Benchmark", sizeof(struct tb_form), form_free, form_submit, &a);
	if (!fm)
		return a;
	d = m->dlg;
	if (n == 1)
		tui_dialog_line(d, "%s  %s", m->devs[idx[0]].spec, m->devs[idx[0]].info.model);
	else
		tui_dialog_line(d, "%zu drives, each a job with its progress in the table", n);
	tui_dialog_line(d, "IOPS, MB/s and latency at each queue depth; the results compare "
			   "with the drive's last run of the same workload.");
	x = tui_form_choice(fm, "Workload",
			    "seq-read, seq-write: 1 MiB sequential; random-access, random-write: "
			    "4 KiB random; database, fileserver, webserver, workstation: the "
			    "IOMeter access specifications");
	workloads(x);
	tui_field_select(x, "random-access");
	tui_form_text(fm, "Queue depths", "1,4,16,32",
		      "requests in flight, 1 to 256, comma "
		      "separated");
	tui_form_text(fm, "Span", "100%",
		      "only the outer part of the disk (20%, 100GB): what a limit would give, "
		      "without setting one");
	tui_form_text(fm, "Time", "5s",
		      "per queue depth: 30s, 500ms, 2m (virtual time on a "
		      "simulated drive)");
	tui_form_text(fm, "Request size", NULL,
		      "empty: the workload's (1M sequential, 4K random); 512 to 4M; the IOMeter "
		      "profiles fix their own");
	tui_form_text(fm, "Seed", "1", "of the random offsets: the same seed, the same offsets");
	tui_form_check(fm, "Destructive", false,
		       "allow a workload that writes: the data in the span is lost (each drive's "
		       "serial is asked for)");
	return TUI_REDRAW;
}
