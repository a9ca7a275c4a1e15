/* qualify.c - Q: qualify the selected (or marked) drives with the quick
 * profile, each a job with a progress bar in the table (read-only), then
 * compare siblings and show every check in a pager. No curses here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/io.h"
#include "shortstroke/qualify.h"
#include "tui.h"

#define TQ_MAX 64

struct tq_flow {
	unsigned pending;
	unsigned n;
	struct qualify_result *res[TQ_MAX];
};

struct tq_op {
	struct tq_flow *f;
	struct drive *d;
	struct dev_entry e;
	struct dev_env *env;	/* where it came from, for the I/O engine */
	struct qualify_result *res;
};

static int tq_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct tq_op *op = arg;
	struct qualify_opts o = { .profile = QUALIFY_QUICK, .progress = sink };
	struct io_dev *io = NULL;
	int rc;

	rc = io_dev_open_name(op->e.node, op->env, false, &io, err);
	if (rc)
		return rc;
	rc = qualify_disk(op->d, io, &o, op->res, err);
	io_dev_close(io);
	return rc;
}

static void tq_text(struct tq_flow *f, char **out)
{
	size_t cap = 4096, len = 0;
	char *t = malloc(cap);

	if (!t)
		return;
	t[0] = '\0';
	for (unsigned i = 0; i < f->n; i++) {
		const struct qualify_result *r = f->res[i];
		char line[512];

		for (int c = -1; c < QC_COUNT; c++) {
			int k;

			if (c < 0)
				k = snprintf(line, sizeof(line), "%s  %s  %s  %s\n", r->device,
					     r->info.model, r->info.serial, r->pass ? "PASS" : "FAIL");
			else
				k = snprintf(line, sizeof(line), "  %-9s %-4s  %s\n",
					     qualify_check_name((enum qualify_check)c),
					     qualify_status_name(r->check[c].status),
					     r->check[c].detail);
			if (k < 0)
				continue;
			while (len + (size_t)k + 2 > cap) {
				char *nt = realloc(t, cap * 2);

				if (!nt)
					goto out;
				t = nt;
				cap *= 2;
			}
			memcpy(t + len, line, (size_t)k + 1);
			len += (size_t)k;
		}
		if (len + 2 < cap) {
			t[len++] = '\n';
			t[len] = '\0';
		}
	}
out:
	*out = t;
}

static void tq_finish(struct tui_model *m, struct tui_task *t, int rc, const struct ss_error *err)
{
	struct tq_op *op = t->arg;
	struct tq_flow *f = op->f;
	char *text = NULL;

	if (rc && !op->res->vanished)
		snprintf(op->res->check[QC_IDENTITY].detail,
			 sizeof(op->res->check[QC_IDENTITY].detail), "%s", err->msg);
	tui_status(m, "%s: qualification %s", op->e.spec,
		   rc ? "failed" : (op->res->pass ? "passed" : "found problems"));
	drive_free(op->d);
	free(op);
	if (--f->pending)
		return;
	qualify_compare_siblings((struct qualify_result *const *)f->res, f->n, NULL);
	for (unsigned i = 0; i < f->n; i++)
		qualify_result_verdict(f->res[i]);
	tq_text(f, &text);
	tui_pager_open(m, "Qualification (quick profile, read-only)  (q closes)",
		       text ? text : "(no result)");
	free(text);
	for (unsigned i = 0; i < f->n; i++) {
		qualify_result_free(f->res[i]);
		free(f->res[i]);
	}
	free(f);
}

enum tui_action tui_qualify_start(struct tui_model *m)
{
	size_t idx[TQ_MAX], n = tui_targets(m, idx, TQ_MAX);
	struct ss_error err = { 0 };
	struct tq_flow *f;

	if (!n)
		return TUI_NONE;
	for (size_t i = 0; i < n; i++)
		if (tui_task_for(m, m->devs[idx[i]].spec))
			return tui_alert(m, "Busy", "%s: a job is running on it; wait for it to end.",
					 m->devs[idx[i]].spec);
	f = calloc(1, sizeof(*f));
	if (!f)
		return tui_alert(m, "Qualify", "out of memory");
	f->pending = 1; /* held while starting */
	for (size_t i = 0; i < n; i++) {
		const char *spec = m->devs[idx[i]].spec;
		struct tq_op *op = calloc(1, sizeof(*op));
		struct qualify_result *r = calloc(1, sizeof(*r));

		if (!op || !r || device_open(m->ctx, spec, false, &op->d, &op->e, &err)) {
			tui_status(m, "%s: %s", spec, err.msg[0] ? err.msg : "out of memory");
			if (op)
				drive_free(op->d);
			free(op);
			free(r);
			continue;
		}
		qualify_result_init(r, spec, &op->e.info, QUALIFY_QUICK);
		op->env = ctx_sources(m->ctx);
		op->f = f;
		op->res = r;
		f->res[f->n++] = r;
		f->pending++;
		if (tui_task_start(m, spec, "qualify", tq_job, op, tq_finish)) {
			f->pending--;
			drive_free(op->d);
			free(op);
			tui_status(m, "%s: cannot start", spec);
		}
	}
	if (--f->pending == 0) {
		for (unsigned i = 0; i < f->n; i++) {
			qualify_result_free(f->res[i]);
			free(f->res[i]);
		}
		free(f);
	}
	return TUI_REDRAW;
}
