/* qualify.c - Q: qualify the selected (or marked) drives with the options
 * of `qualify`: the profile (quick, standard, full), a thresholds file over
 * the defaults, an HTML report and the seed, each checked before any disk
 * is read (the thresholds parsed, the report's path writable, as the CLI
 * does). Each drive is a job with a progress bar in the table (reads
 * only). When the last ends, the siblings are compared, the report is
 * written, and the results open: the table of one row per disk that
 * `qualify` prints, the sibling outliers marked, then every check of each
 * disk. No curses here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "front/glyphs.h"
#include "front/qualify.h"
#include "front/table.h"
#include "shortstroke/fileio.h"
#include "shortstroke/io.h"
#include "shortstroke/qualify.h"
#include "shortstroke/units.h"
#include "tui.h"

enum { QF_PROFILE, QF_THRESHOLDS, QF_REPORT, QF_SEED };

/* What the form gave. */
struct tq_form {
	struct qualify_opts o;
	struct qualify_thresholds thr;
	char report[4096];
};

struct tq_flow {
	struct qualify_thresholds thr;
	struct qualify_opts o;
	char report[4096];
	unsigned n;
	struct qualify_result *res[TUI_MAX_TASKS];
};

struct tq_op {
	struct drive *d;
	struct dev_entry e;
	struct dev_env *env; /* where it came from, for the I/O engine */
	struct qualify_opts o;
	struct qualify_result *res;
};

static int tq_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct tq_op *op = arg;
	struct qualify_opts o = op->o;
	struct io_dev *io = NULL;
	int rc;

	o.progress = sink;
	rc = io_dev_open_name(op->e.node, op->env, false, &io, err);
	if (rc)
		return rc;
	rc = qualify_disk(op->d, io, &o, op->res, err);
	io_dev_close(io);
	return rc;
}

/* Every check of each disk, under the table. */
static void checks_text(struct tq_flow *f, struct tui_lines *out)
{
	char outlier[96];

	for (unsigned i = 0; i < f->n; i++) {
		const struct qualify_result *r = f->res[i];

		tui_lines_add(out, "%s  %s  %s  %s", r->device, r->info.model, r->info.serial,
			      r->pass ? "PASS" : "FAIL");
		if (qualify_outlier_text(r, outlier, sizeof(outlier)))
			tui_lines_add(out, "  << outlier: %s than the other %u disk%s of its model",
				      outlier, r->siblings - 1, r->siblings == 2 ? "" : "s");
		for (int c = 0; c < QC_COUNT; c++)
			tui_lines_add(out, "  %-9s %-4s  %s",
				      qualify_check_name((enum qualify_check)c),
				      qualify_status_name(r->check[c].status), r->check[c].detail);
		tui_lines_add(out, "%s", "");
	}
}

/* The table of columns cols (a comma list), as qualify prints it; NULL:
 * out of memory. */
static char *table_of(struct tq_flow *f, const char *cols)
{
	struct table *t = qualify_summary_new(cols);
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (!t)
		return NULL;
	for (unsigned i = 0; i < f->n; i++)
		qualify_summary_row(t, f->res[i]->device, &f->res[i]->info, f->res[i]);
	mem = open_memstream(&text, &len);
	if (mem) {
		table_print(t, mem, 0, "qualify");
		fclose(mem);
	}
	table_free(t);
	return text;
}

/* Its widest line, in columns. */
static size_t text_width(const char *text)
{
	size_t w = 0;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		if (line && glyphs_cols(line) > w)
			w = glyphs_cols(line);
		free(line);
		p += n + (p[n] == '\n');
	}
	return w;
}

/* The columns, and the order they are left out in when the screen is too
 * narrow for a row (each disk's checks below say them all). */
static const char *const tq_cols[] = { "DEVICE", "SERIAL", "IDENTITY", "SMART",	 "SELFTEST", "SCAN",
				       "ZONES",	 "ACCESS", "SIBLINGS", "RESULT", "OUTLIER" };
static const char *const tq_drop[] = { "OUTLIER",  "SERIAL",   "SIBLINGS",
				       "IDENTITY", "SELFTEST", "ZONES" };

/* The table qualify prints (the model is under it), an OUTLIER column
 * added, and the outliers said above it; a column left out for each that
 * a row of width columns (0: any) has no room for. */
static void table_text(struct tq_flow *f, struct tui_lines *out, int width)
{
	char *text = NULL, *line, *save = NULL, outlier[96], cols[160], left[96] = "";
	size_t nd = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < f->n; i++) {
		if (!qualify_outlier_text(f->res[i], outlier, sizeof(outlier)))
			continue;
		if (!k++)
			tui_lines_add(out, "Outliers, slower than the other disks of their model:");
		tui_lines_add(out, "  << %s: %s", f->res[i]->device, outlier);
	}
	if (k)
		tui_lines_add(out, "%s", "");
	for (;;) {
		size_t used = 0;

		cols[0] = '\0';
		for (size_t c = 0; c < sizeof(tq_cols) / sizeof(tq_cols[0]); c++) {
			bool out_ = false;

			for (size_t d = 0; d < nd; d++)
				out_ |= !strcmp(tq_cols[c], tq_drop[d]);
			if (!out_)
				used += (size_t)snprintf(cols + used, sizeof(cols) - used, "%s%s",
							 used ? "," : "", tq_cols[c]);
		}
		free(text);
		text = table_of(f, cols);
		if (!text || width <= 0 || text_width(text) <= (size_t)width ||
		    nd == sizeof(tq_drop) / sizeof(tq_drop[0]))
			break;
		nd++;
	}
	for (size_t d = 0, used = 0; d < nd && used < sizeof(left); d++)
		used += (size_t)snprintf(left + used, sizeof(left) - used, "%s%s",
					 d ? (d + 1 == nd ? " and " : ", ") : "", tq_drop[d]);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		tui_lines_add(out, "%s", line);
	if (left[0])
		tui_lines_add(out, "(%s left out at this width: each disk's checks below)", left);
	free(text);
}

static void tq_done(struct tui_model *m, void *flow, void *arg, int rc, const struct ss_error *err,
		    char *result, size_t len)
{
	struct tq_op *op = arg;

	(void)flow;
	(void)m;
	if (rc && !op->res->vanished)
		snprintf(op->res->check[QC_IDENTITY].detail,
			 sizeof(op->res->check[QC_IDENTITY].detail), "%s", err->msg);
	snprintf(result, len, "qualified: %s", op->res->pass ? "PASS" : "FAIL (found problems)");
	drive_free(op->d);
}

/* The siblings compared, the report written, the results in a pager. */
static void tq_end(struct tui_model *m, void *flow, unsigned started, const struct tui_batch *b)
{
	struct tq_flow *f = flow;
	struct qualify_report_meta meta = { .profile = f->o.profile, .thr = &f->thr };
	struct tui_lines out = { 0 };
	struct ss_error err = { 0 };
	unsigned passed = 0;
	char title[160], when[64], host[256], head[64] = "";
	char *text;

	if (started) {
		qualify_compare_siblings((struct qualify_result *const *)f->res, f->n, &f->thr);
		for (unsigned i = 0; i < f->n; i++)
			passed += qualify_result_verdict(f->res[i]);
		if (b) { /* how each drive ended first: the failed ones with why */
			tui_batch_headline(b, head, sizeof(head));
			tui_batch_lines(b, &out, false);
			tui_lines_add(&out, "%s", "");
		}
		table_text(f, &out, m->cols);
		tui_lines_add(&out, "%s", "");
		tui_lines_add(&out, "qualify (%s profile%s): %u of %u disk%s passed",
			      qualify_profile_name(f->o.profile),
			      f->n && f->res[0]->virtual_time ? ", virtual time" : "", passed, f->n,
			      f->n == 1 ? "" : "s");
		if (f->report[0]) {
			qualify_report_meta_now(&meta, when, sizeof(when), host, sizeof(host));
			if (qualify_report_write(f->report, &meta,
						 (const struct qualify_result *const *)f->res, f->n,
						 &err))
				tui_notice(m, "Qualification report", "%s", err.msg);
			else
				tui_lines_add(&out, "report written to %s", f->report);
		}
		tui_lines_add(&out, "%s", "");
		checks_text(f, &out);
		text = tui_lines_join(&out);
		snprintf(title, sizeof(title), "Qualification (%s profile, read-only)%s%s",
			 qualify_profile_name(f->o.profile), head[0] ? ": " : "", head);
		tui_pager_open(m, title, text ? text : "out of memory");
		free(text);
		tui_lines_clear(&out);
	}
	for (unsigned i = 0; i < f->n; i++) {
		qualify_result_fini(f->res[i]);
		free(f->res[i]);
	}
}

static void tq_setup(void *flow, void *arg)
{
	struct tq_flow *f = flow;
	const struct tq_form *fo = arg;

	f->thr = fo->thr;
	f->o = fo->o;
	f->o.thr = &f->thr;
	snprintf(f->report, sizeof(f->report), "%s", fo->report);
}

static int tq_prepare(struct tui_model *m, void *flow, const struct dev_entry *e, void *arg,
		      struct ss_error *err)
{
	struct tq_flow *f = flow;
	struct tq_op *op = arg;
	struct qualify_result *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return ss_error_nomem(err);
	rc = device_open(m->ctx, e->spec, false, &op->d, &op->e, err);
	if (rc) {
		drive_free(op->d);
		free(r);
		return rc;
	}
	qualify_result_init(r, e->spec, &op->e.info, f->o.profile);
	op->env = ctx_sources(m->ctx);
	op->o = f->o;
	op->res = r;
	f->res[f->n++] = r;
	return 0;
}

static const struct tui_fanout_ops tq_ops = {
	.what = "qualify",
	.title = "Qualify",
	.key = 'Q',
	.flow_size = sizeof(struct tq_flow),
	.op_size = sizeof(struct tq_op),
	.setup = tq_setup,
	.prepare = tq_prepare,
	.run = tq_job,
	.done = tq_done,
	.end = tq_end,
};

static enum tui_action form_submit(struct tui_model *m, struct tui_dialog *d)
{
	struct tq_form *f = d->arg;
	struct tui_form *fm = d->form;
	struct ss_error err = { 0 };
	const char *s;
	unsigned started;
	enum tui_action a;

	memset(&f->o, 0, sizeof(f->o));
	if (qualify_profile_parse(tui_field_choice(&fm->f[QF_PROFILE]), &f->o.profile))
		return tui_form_refuse(d, QF_PROFILE, "Pick a profile.");
	/* the thresholds and the report's path before any disk is read */
	qualify_thresholds_default(&f->thr);
	s = fm->f[QF_THRESHOLDS].text;
	if (s[0] && qualify_thresholds_load(s, &f->thr, &err))
		return tui_form_refuse(d, QF_THRESHOLDS, "%s", err.msg);
	s = fm->f[QF_REPORT].text;
	if (s[0] && file_check_writable(s, "Report", &err))
		return tui_form_refuse(d, QF_REPORT, "%s", err.msg);
	snprintf(f->report, sizeof(f->report), "%s", s);
	s = fm->f[QF_SEED].text;
	if (u64_parse(s, &f->o.seed))
		return tui_form_refuse(d, QF_SEED, "Seed '%s' is not a number", s);
	m->dlg = NULL; /* the caller frees d */
	a = tui_fanout_start(m, &tq_ops, f, &started);
	if (started)
		tui_status(m, "qualification (%s profile) started on %u drive%s",
			   qualify_profile_name(f->o.profile), started, started == 1 ? "" : "s");
	return a;
}

enum tui_action tui_qualify_start(struct tui_model *m)
{
	size_t idx[TUI_MAX_TASKS], n = tui_targets(m, idx, TUI_MAX_TASKS);
	struct tui_dialog *d;
	struct tui_form *fm;
	struct tui_field *x;
	enum tui_action a;

	fm = tui_targets_form(m, "Qualify", sizeof(struct tq_form), free, form_submit, &a);
	if (!fm)
		return a;
	d = m->dlg;
	tui_dialog_line(d, "Identity, SMART, a surface read scan, the zone profile, access time "
			   "and IOPS, each against thresholds; then disks of the same model "
			   "compared.");
	tui_dialog_line(d, "Reads only, %zu drive%s, each a job with its progress in the table.", n,
			n == 1 ? "" : "s");
	x = tui_form_choice(fm, "Profile",
			    "quick: a sampled scan, QD 1 and 32, no self-test; standard: a short "
			    "self-test, 10% of the disk scanned; full: the whole disk scanned; "
			    "burnin: full, a selective self-test of the kept span, a butterfly "
			    "seek test (1 min) and a random-read soak (10 min)");
	for (int p = QUALIFY_QUICK; p <= QUALIFY_BURNIN; p++)
		tui_field_option(x, qualify_profile_name((enum qualify_profile)p), NULL);
	tui_form_text(fm, "Thresholds", NULL,
		      "a file of 'key = value' lines over the defaults (qualify "
		      "--print-thresholds writes one); empty: the defaults");
	tui_form_text(fm, "HTML report", NULL,
		      "write a self-contained HTML report with charts to this file; empty: none");
	tui_form_text(fm, "Seed", "1", "of the random reads");
	return TUI_REDRAW;
}
