/* bench.c - b: a quick benchmark of the selected (or marked) drives, each a
 * job with a progress bar in the table: 4 KiB random reads over the whole
 * disk at queue depth 1 and 16, a few seconds each (virtual time on a
 * simulated drive), read-only, with the I/O engine in-process. When the
 * last one ends the results open in a pager. No curses here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/io.h"
#include "shortstroke/units.h"
#include "tui.h"

#define TB_SECONDS 3
static const unsigned tb_qd[] = { 1, 16 };
#define TB_NQD (sizeof(tb_qd) / sizeof(tb_qd[0]))

struct tb_flow {
	char *text;
	size_t len;
	bool virtual_time;
};

struct tb_op {
	char spec[256];
	char node[256];
	struct dev_env *env;	/* where it came from, for the I/O engine */
	struct io_result res[TB_NQD];
	unsigned done;
	bool virtual_time;
	const struct progress_sink *outer;
	unsigned cur;
};

static void flow_add(struct tb_flow *f, const char *line)
{
	size_t n = strlen(line);
	char *t = realloc(f->text, f->len + n + 2);

	if (!t)
		return;
	f->text = t;
	memcpy(f->text + f->len, line, n);
	f->len += n;
	f->text[f->len++] = '\n';
	f->text[f->len] = '\0';
}

static void sub_report(void *arg, double fr, const char *phase, double eta)
{
	struct tb_op *op = arg;
	char text[64];

	(void)phase;
	(void)eta;
	snprintf(text, sizeof(text), "random read QD %u", tb_qd[op->cur]);
	progress_report(op->outer, (op->cur + fr) / TB_NQD, text, -1);
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
	struct io_dev *dev = NULL;
	struct io_job j;
	int rc;

	op->outer = sink;
	rc = io_dev_open_name(op->node, op->env, false, &dev, err);
	if (rc)
		return rc;
	op->virtual_time = io_dev_engine(dev)->caps & IO_CAP_VIRTUAL_TIME;
	io_job_init(&j);
	io_job_set_workload(&j, IO_WL_RANDOM_ACCESS);
	j.time_ns = TB_SECONDS * 1000000000ull;
	j.seed = 1;
	j.progress = &sub;
	for (op->cur = 0; op->cur < TB_NQD; op->cur++) {
		j.qd = tb_qd[op->cur];
		rc = io_dev_run(dev, &j, &op->res[op->cur], err);
		if (rc)
			break;
		op->done++;
	}
	io_dev_close(dev);
	return rc;
}

/* The drive's line of the results and the status line. */
static void tb_done(struct tui_model *m, void *flow, void *arg, int rc, const struct ss_error *err)
{
	struct tb_flow *f = flow;
	struct tb_op *op = arg;
	char line[320];
	size_t used;

	used = (size_t)snprintf(line, sizeof(line), "%-20s", op->spec);
	for (unsigned k = 0; k < op->done && used < sizeof(line); k++)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "  QD %-2u %7.0f IOPS %8.2f ms", tb_qd[k],
					 op->res[k].iops, op->res[k].lat_avg_ns / 1e6);
	if (rc && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "  failed: %s", err->msg);
	flow_add(f, line);
	if (op->done)
		tui_status(m, "%s: random 4K read QD 1 %.0f IOPS, %.2f ms%s", op->spec,
			   op->res[0].iops, op->res[0].lat_avg_ns / 1e6,
			   op->done > 1 ? "; see the results" : "");
	else
		tui_status(m, "%s: benchmark failed: %s", op->spec, err->msg);
	f->virtual_time |= op->virtual_time;
}

/* Every drive's line in a pager. */
static void tb_end(struct tui_model *m, void *flow, unsigned started)
{
	struct tb_flow *f = flow;
	char title[160];

	if (started) {
		snprintf(title, sizeof(title),
			 "Benchmark: 4 KiB random reads, whole disk, %d s per queue depth%s  "
			 "(q closes)",
			 TB_SECONDS, f->virtual_time ? " (virtual time)" : "");
		tui_pager_open(m, title, f->text ? f->text : "(no result)");
	}
	free(f->text);
}

static int tb_prepare(struct tui_model *m, void *flow, const struct dev_entry *e, void *arg,
		      struct ss_error *err)
{
	struct tb_flow *f = flow;
	struct tb_op *op = arg;

	if (!f->len)
		flow_add(f, "DEVICE                random reads of 4 KiB: IOPS and mean latency");
	snprintf(op->spec, sizeof(op->spec), "%s", e->spec);
	snprintf(op->node, sizeof(op->node), "%s", e->node);
	op->env = ctx_sources(m->ctx);
	return 0;
}

static const struct tui_fanout_ops tb_ops = {
	.what = "bench",
	.title = "Benchmark",
	.flow_size = sizeof(struct tb_flow),
	.op_size = sizeof(struct tb_op),
	.prepare = tb_prepare,
	.run = tb_job,
	.done = tb_done,
	.end = tb_end,
};

enum tui_action tui_bench_start(struct tui_model *m)
{
	unsigned started;
	enum tui_action a = tui_fanout_start(m, &tb_ops, &started);

	if (started)
		tui_status(m, "benchmark started on %u drive%s (random 4K reads, QD 1 and 16)",
			   started, started == 1 ? "" : "s");
	return a;
}
