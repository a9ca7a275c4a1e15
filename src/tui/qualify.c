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

struct tq_flow {
	unsigned n;
	struct qualify_result *res[TUI_MAX_TASKS];
};

struct tq_op {
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

static void tq_done(struct tui_model *m, void *flow, void *arg, int rc, const struct ss_error *err)
{
	struct tq_op *op = arg;

	(void)flow;
	if (rc && !op->res->vanished)
		snprintf(op->res->check[QC_IDENTITY].detail,
			 sizeof(op->res->check[QC_IDENTITY].detail), "%s", err->msg);
	tui_status(m, "%s: qualification %s", op->e.spec,
		   rc ? "failed" : (op->res->pass ? "passed" : "found problems"));
	drive_free(op->d);
}

/* The siblings compared, every check in a pager. */
static void tq_end(struct tui_model *m, void *flow, unsigned started)
{
	struct tq_flow *f = flow;
	char *text = NULL;

	if (started) {
		qualify_compare_siblings((struct qualify_result *const *)f->res, f->n, NULL);
		for (unsigned i = 0; i < f->n; i++)
			qualify_result_verdict(f->res[i]);
		tq_text(f, &text);
		tui_pager_open(m, "Qualification (quick profile, read-only)  (q closes)",
			       text ? text : "(no result)");
		free(text);
	}
	for (unsigned i = 0; i < f->n; i++) {
		qualify_result_free(f->res[i]);
		free(f->res[i]);
	}
}

static int tq_prepare(struct tui_model *m, void *flow, const struct dev_entry *e, void *arg,
		      struct ss_error *err)
{
	struct tq_flow *f = flow;
	struct tq_op *op = arg;
	struct qualify_result *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return ss_error_set(err, -ENOMEM, "out of memory");
	rc = device_open(m->ctx, e->spec, false, &op->d, &op->e, err);
	if (rc) {
		drive_free(op->d);
		free(r);
		return rc;
	}
	qualify_result_init(r, e->spec, &op->e.info, QUALIFY_QUICK);
	op->env = ctx_sources(m->ctx);
	op->res = r;
	f->res[f->n++] = r;
	return 0;
}

static const struct tui_fanout_ops tq_ops = {
	.what = "qualify",
	.title = "Qualify",
	.flow_size = sizeof(struct tq_flow),
	.op_size = sizeof(struct tq_op),
	.prepare = tq_prepare,
	.run = tq_job,
	.done = tq_done,
	.end = tq_end,
};

enum tui_action tui_qualify_start(struct tui_model *m)
{
	unsigned started;

	return tui_fanout_start(m, &tq_ops, &started);
}
