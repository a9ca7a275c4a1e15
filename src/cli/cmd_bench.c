/* bench - what a disk does under a workload: MB/s, IOPS and latency per
 * queue depth, on the whole disk or inside a span (what a short-stroke
 * limit would give, without setting one). Workloads that write need
 * --destructive and go through the same protections and confirmation as
 * limit (batch.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "batch.h"
#include "front/table.h"
#include "front/xalloc.h"
#include "output.h"
#include "shortstroke/bench.h"
#include "shortstroke/io.h"
#include "shortstroke/sysdisk.h"
#include "shortstroke/units.h"

struct bench_item {
	const struct bench_opts *o;
	struct io_dev *io;
	struct io_job job;
	bool raw;      /* a block device, not a SCSI/ATA disk (loop, md, NVMe ...) */
	unsigned done; /* queue depths measured */
	struct io_result res[BENCH_QD_MAX];
	/* progress mapping */
	const struct progress_sink *outer;
	unsigned cur;
};

enum bench_col {
	BC_DEVICE,
	BC_WORKLOAD,
	BC_QD,
	BC_BS,
	BC_MB_S,
	BC_IOPS,
	BC_AVG_MS,
	BC_P50_MS,
	BC_P90_MS,
	BC_P99_MS,
	BC_P99_9_MS,
	BC_MAX_MS,
	BC_ERRORS,
	BC_TIME_S,
	BC_CPU_S,
	BC_VIRTUAL,
	BC_COUNT
};
static const struct col_def bench_cols[BC_COUNT] = {
	[BC_DEVICE] = { "DEVICE", COL_STR, false, 0, 0, "the device as named" },
	[BC_WORKLOAD] = { "WORKLOAD", COL_STR, false, 0, 0, "the access pattern" },
	[BC_QD] = { "QD", COL_U64, true, 0, 0, "queue depth: requests in flight" },
	[BC_BS] = { "BS", COL_STR, true, 0, 0, "request size (mixed: the profile's distribution)" },
	[BC_MB_S] = { "MB/S", COL_DOUBLE, true, 1, 0, "throughput, 10^6 bytes per second" },
	[BC_IOPS] = { "IOPS", COL_DOUBLE, true, 0, 0, "requests per second" },
	[BC_AVG_MS] = { "AVG-MS", COL_DOUBLE, true, 2, 0, "mean latency of a request, ms" },
	[BC_P50_MS] = { "P50-MS", COL_DOUBLE, true, 2, 0, "median latency, ms" },
	[BC_P90_MS] = { "P90-MS", COL_DOUBLE, true, 2, 0, "90th percentile latency, ms" },
	[BC_P99_MS] = { "P99-MS", COL_DOUBLE, true, 2, 0, "99th percentile latency, ms" },
	[BC_P99_9_MS] = { "P99.9-MS", COL_DOUBLE, true, 2, 0, "99.9th percentile latency, ms" },
	[BC_MAX_MS] = { "MAX-MS", COL_DOUBLE, true, 2, 0, "slowest request, ms" },
	[BC_ERRORS] = { "ERRORS", COL_U64, true, 0, 0, "failed requests" },
	[BC_TIME_S] = { "TIME-S", COL_DOUBLE, true, 1, 0,
			"time measured (virtual on a simulated drive)" },
	[BC_CPU_S] = { "CPU-S", COL_DOUBLE, true, 2, 0, "CPU seconds the run used" },
	[BC_VIRTUAL] = { "VIRTUAL", COL_BOOL, false, 0, 0,
			 "times are the simulator's virtual clock" },
};
#define BENCH_DEFAULT_COLS "DEVICE,WORKLOAD,QD,BS,MB/S,IOPS,AVG-MS,P50-MS,P99-MS"

/* -w and --list-workloads in the help, from the engine's table */
static void workload_help(FILE *f)
{
	struct bench_opts d;
	char names[256], text[384];

	bench_opts_default(&d);
	io_workload_names(names, sizeof(names));
	snprintf(text, sizeof(text), "%s (default %s)", names, io_workload_name(d.wl));
	fprintf(f, "  -w, --workload W      ");
	cli_print_wrapped(f, text, 79, 24, 24);
	fprintf(f, "      --list-workloads  each workload: its request sizes, reads and random\n"
		   "                        share\n");
}

/* --list-workloads: "NAME  what it is" (as --list-columns) */
static void list_workloads(void)
{
	char text[160];

	for (unsigned i = 0; i < IO_WL_COUNT; i++) {
		io_workload_text((enum io_workload)i, text, sizeof(text));
		printf("%13s  %s\n", io_workload_name((enum io_workload)i), text);
	}
}

static void bench_usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke bench [options] DEVICE...\n"
		   "\n"
		   "Measure throughput, IOPS and latency under a workload, at each queue depth.\n"
		   "On a simulated drive (sim:ID) the run takes virtual time: a 30 s test costs\n"
		   "milliseconds. DEVICE may also be any block device (loop, md, NVMe); one\n"
		   "written to must not be mounted, the system's, swap or held by md/dm, and\n"
		   "without --force must have no partitions or signature; it takes --yes.\n"
		   "\n"
		   "Options:\n");
	workload_help(f);
	fprintf(
	    f,
	    "  -q, --qd LIST         queue depths, 1 to 256 (default 1,4,16,64)\n"
	    "  -t, --time T          per queue depth: 30s, 500ms, 2m (default 30s)\n"
	    "  -s, --span SIZE       only the outer SIZE of the disk: 10%%, 100GB, or a block\n"
	    "                        count; shows what a limit would give without setting it\n"
	    "      --bs SIZE         request size for seq-read, seq-write, random-access and\n"
	    "                        random-write: 512 to 4M (default 1M sequential, 4K random)\n"
	    "      --seed N          seed of the random offsets (default 1: reproducible)\n"
	    "      --destructive     allow workloads that write: the data in the span is lost\n"
	    "  -y, --yes             with --destructive: do not ask (scripts); without it a\n"
	    "                        terminal asks for each disk's serial number\n"
	    "  -f, --force           with --destructive: allow a disk in use or protected\n"
	    "      --model PATTERN, --serial SERIAL   select disks as 'list' shows them\n" OUT_HELP
	    "  -h, --help            this help\n"
	    "\n"
	    "Exit status: 0 done, 1 failed, 2 usage error, 3 refused, 4 some disks failed.\n"
	    "Examples:\n"
	    "  shortstroke bench --workload random-access --qd 1,32 --time 10s /dev/sdb\n"
	    "  shortstroke bench --workload database --span 10%% --destructive --yes /dev/sdc\n");
}

/* ---- opening ------------------------------------------------------------------ */

static void item_refuse(struct batch_item *it, int rc, int hint)
{
	it->ready = false;
	it->rc = rc ? rc : -EIO;
	it->exit_hint = hint;
}

/* Reads only: see batch_open_reading. */
static void open_for_reading(struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct bench_item *bi = b->items[i].op;

		batch_open_reading(b, &b->items[i], &bi->raw, NULL);
	}
}

/*
 * A write benchmark on a block device that is not a SCSI/ATA disk (a loop
 * device, md, NVMe): batch_open refused it (-EOPNOTSUPP). It gets the
 * checks a disk gets, from sysfs, mountinfo and a libblkid probe; what is
 * mounted, the system's, swap or held by md/dm is refused even with
 * --force (a benchmark has no business there), partitions or a signature
 * only without it. Without a serial a terminal cannot confirm it: --yes.
 */
static void open_raw_for_writing(struct batch *b, struct batch_item *it)
{
	struct bench_item *bi = it->op;
	struct sysdisk d;
	struct sysdisk_usage u;
	struct stat st;
	char spec[sizeof(it->e.spec)];
	int rc;

	snprintf(spec, sizeof(spec), "%s", it->e.spec);
	if (it->rc == -EOPNOTSUPP && it->e.volume) {
		/* a simulated array: every member gets a drive's checks */
		ss_error_clear(&it->err);
		rc = device_volume_check(b->ctx, spec, b->force, &it->err);
		if (rc) {
			item_refuse(it, rc,
				    rc == -EPERM ? EXIT_REFUSED : cli_exit_code(rc, &it->err));
			return;
		}
		bi->raw = true;
		it->rc = 0;
		it->ready = true;
		return;
	}
	if (it->rc != -EOPNOTSUPP || spec[0] != '/' || stat(spec, &st) || !S_ISBLK(st.st_mode))
		return;
	memset(&d, 0, sizeof(d));
	snprintf(d.devnode, sizeof(d.devnode), "%s", spec);
	d.major = major(st.st_rdev);
	d.minor = minor(st.st_rdev);
	memset(&it->e, 0, sizeof(it->e));
	snprintf(it->e.spec, sizeof(it->e.spec), "%s", spec);
	snprintf(it->e.node, sizeof(it->e.node), "%s", spec);
	ss_error_clear(&it->err);
	if (sysdisk_in_use(b->ctx->sysroot, &d, true, &u, &it->err)) {
		item_refuse(it, it->err.code, EXIT_REFUSED);
		return;
	}
	if (u.in_use) {
		bool hard = u.mounted || u.system || u.swap || u.held || u.unprobed;

		it->e.state = DEV_IN_USE;
		snprintf(it->e.why, sizeof(it->e.why), "%s", u.reason);
		if (hard || !b->force) {
			ss_error_set(&it->err, -EPERM, "%s: refused, the device is in use: %s%s",
				     spec, u.reason, hard ? "" : " (--force overrides)");
			item_refuse(it, -EPERM, EXIT_REFUSED);
			return;
		}
	}
	bi->raw = true;
	it->rc = 0;
	it->ready = true;
}

/* Open the engine and check the job at every queue depth: bad spans and
 * sizes are usage errors, found before any I/O. */
static void plan_item(struct batch *b, struct batch_item *it, bool write)
{
	struct bench_item *bi = it->op;
	const struct bench_opts *o = bi->o;
	struct bench_target t = {
		.spec = it->e.spec, .write = write, .opened = true, .raw = bi->raw, .e = &it->e
	};
	char who[sizeof(it->e.info.model) + sizeof(it->e.info.serial) + 2];
	int rc;

	rc = bench_prepare(b->ctx, o, &t, &it->err);
	bi->io = t.io;
	bi->job = t.job;
	if (rc) {
		if (t.step == BENCH_STEP_FITS)
			item_refuse(it, -EOPNOTSUPP, EXIT_FAILED);
		else if (t.step == BENCH_STEP_IO)
			item_refuse(it, rc,
				    rc == -EBUSY ? EXIT_REFUSED : cli_exit_code(rc, &it->err));
		else
			item_refuse(it, rc, rc == -EPERM ? EXIT_REFUSED : EXIT_USAGE);
		return;
	}
	snprintf(who, sizeof(who), "%s %s",
		 it->e.volume ? "simulated array"
		 : bi->raw    ? "block device"
			      : it->e.info.model,
		 bi->raw ? "" : it->e.info.serial);
	bench_plan_text(o, &bi->job, io_dev_geom(bi->io), who, write, it->plan, sizeof(it->plan));
}

/* ---- running ------------------------------------------------------------------ */

static void sub_report(void *arg, double f, const char *phase, double eta)
{
	struct bench_item *bi = arg;
	char text[96];

	(void)phase;
	(void)eta;
	snprintf(text, sizeof(text), "%s QD %u", io_workload_name(bi->o->wl), bi->o->qd[bi->cur]);
	progress_report(bi->outer, (bi->cur + f) / bi->o->nqd, text, -1);
}

static bool sub_cancelled(void *arg)
{
	struct bench_item *bi = arg;

	return progress_cancelled(bi->outer);
}

static void run_record(struct record *o, unsigned qd, const struct io_result *r)
{
	record_set_i64(o, "qd", (int)qd);
	record_set_double(o, "mbps", r->mbps);
	record_set_double(o, "iops", r->iops);
	record_set_u64(o, "bytes", r->bytes);
	record_set_u64(o, "ios", r->ios);
	record_set_u64(o, "reads", r->reads);
	record_set_u64(o, "writes", r->writes);
	record_set_u64(o, "errors", r->errors);
	record_set_double(o, "elapsed_s", (double)r->elapsed_ns / 1e9);
	record_set_double(o, "lat_avg_ms", r->lat_avg_ns / 1e6);
	record_set_double(o, "lat_p50_ms", (double)r->lat_p50_ns / 1e6);
	record_set_double(o, "lat_p90_ms", (double)r->lat_p90_ns / 1e6);
	record_set_double(o, "lat_p99_ms", (double)r->lat_p99_ns / 1e6);
	record_set_double(o, "lat_p99_9_ms", (double)r->lat_p999_ns / 1e6);
	record_set_double(o, "lat_max_ms", (double)r->lat_max_ns / 1e6);
	record_set_double(o, "cpu_s", r->cpu_s);
}

static int bench_job_run(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct bench_item *bi = it->op;
	const struct bench_opts *o = bi->o;
	const struct io_geom *g = io_dev_geom(bi->io);
	struct progress_sink sub = { sub_report, sub_cancelled, bi };
	struct record *runs;
	char tbuf[32];
	int rc = 0;

	bi->outer = sink;
	bi->job.progress = &sub;
	for (bi->cur = 0; bi->cur < o->nqd; bi->cur++) {
		bi->job.qd = o->qd[bi->cur];
		rc = io_dev_run(bi->io, &bi->job, &bi->res[bi->cur], err);
		if (rc)
			break;
		bi->done++;
	}
	record_set_str(it->rec, "workload", io_workload_name(o->wl));
	if (bi->job.bs)
		record_set_i64(it->rec, "block_size", bi->job.bs);
	else
		record_set_null(it->rec, "block_size");
	record_set_i64(it->rec, "logical_block", g->lblock);
	record_set_u64(it->rec, "span_blocks", bi->job.end_lba);
	record_set_u64(it->rec, "capacity_blocks", g->blocks);
	record_set_double(it->rec, "span_percent",
			  100.0 * (double)bi->job.end_lba / (double)g->blocks);
	record_set_str(it->rec, "engine", io_dev_engine(bi->io)->name);
	record_set_bool(it->rec, "virtual_time", io_dev_engine(bi->io)->caps & IO_CAP_VIRTUAL_TIME);
	record_set_u64(it->rec, "seed", o->seed);
	runs = record_set_list(it->rec, "runs");
	for (unsigned k = 0; k < bi->done; k++)
		run_record(record_set_object(runs, NULL), o->qd[k], &bi->res[k]);
	snprintf(it->result, sizeof(it->result), "%s, %u queue depth%s, %s each%s",
		 io_workload_name(o->wl), bi->done, bi->done == 1 ? "" : "s",
		 duration_human((double)o->time_ns / 1e9, tbuf, sizeof(tbuf)),
		 io_dev_engine(bi->io)->caps & IO_CAP_VIRTUAL_TIME ? " (virtual time)" : "");
	io_dev_close(bi->io);
	bi->io = NULL;
	return rc;
}

static int print_table(struct batch *b, const struct out_opts *oo)
{
	struct ss_error terr = { 0 };
	char bsb[16];
	struct table *t;
	unsigned rows = 0;

	t = table_new(bench_cols, BC_COUNT, BENCH_DEFAULT_COLS, oo->columns, &terr);
	if (!t)
		return cli_usage_error("bench", "%s", terr.msg);
	for (unsigned i = 0; i < b->n; i++) {
		struct bench_item *bi = b->items[i].op;

		for (unsigned k = 0; bi && k < bi->done; k++) {
			const struct io_result *r = &bi->res[k];

			table_add_row(t);
			rows++;
			table_set_str(t, BC_DEVICE, b->items[i].e.spec);
			table_set_str(t, BC_WORKLOAD, io_workload_name(bi->o->wl));
			table_set_u64(t, BC_QD, bi->o->qd[k]);
			table_set_str(t, BC_BS, bench_bs_text(&bi->job, bsb, sizeof(bsb)));
			table_set_double(t, BC_MB_S, r->mbps);
			table_set_double(t, BC_IOPS, r->iops);
			table_set_double(t, BC_AVG_MS, r->lat_avg_ns / 1e6);
			table_set_double(t, BC_P50_MS, (double)r->lat_p50_ns / 1e6);
			table_set_double(t, BC_P90_MS, (double)r->lat_p90_ns / 1e6);
			table_set_double(t, BC_P99_MS, (double)r->lat_p99_ns / 1e6);
			table_set_double(t, BC_P99_9_MS, (double)r->lat_p999_ns / 1e6);
			table_set_double(t, BC_MAX_MS, (double)r->lat_max_ns / 1e6);
			table_set_u64(t, BC_ERRORS, r->errors);
			table_set_double(t, BC_TIME_S, (double)r->elapsed_ns / 1e9);
			table_set_double(t, BC_CPU_S, r->cpu_s);
			table_set_bool(t, BC_VIRTUAL, r->virtual_time);
		}
	}
	if (rows)
		table_print(t, stdout, oo->flags & ~TABLE_JSON, "bench");
	table_free(t);
	return EXIT_DONE;
}

/* ---- the command ------------------------------------------------------------------ */

static int bench_run(struct ss_ctx *ctx, int argc, char **argv)
{
	enum { OPT_BS = 0x2001, OPT_SEED, OPT_DESTRUCTIVE, OPT_LIST_WL };
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "qd", required_argument, NULL, 'q' },
		{ "time", required_argument, NULL, 't' },
		{ "span", required_argument, NULL, 's' },
		{ "bs", required_argument, NULL, OPT_BS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "destructive", no_argument, NULL, OPT_DESTRUCTIVE },
		{ "list-workloads", no_argument, NULL, OPT_LIST_WL },
		BATCH_LONG_SELECT,
		BATCH_LONG_CONFIRM,
		{ "help", no_argument, NULL, 'h' },
		OUT_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts o;
	struct batch b = { .cmd = "bench", .ctx = ctx, .verbose = ctx->verbose };
	struct out_opts oo = { 0 };
	struct ss_error err = { 0 };
	struct ss_error terr = { 0 };
	bool write;
	int c, rc;

	bench_opts_default(&o);
	while ((c = getopt_long(argc, argv, ":w:q:t:s:yfh" OUT_SHORT_OPTS, opts, NULL)) != -1) {
		if (out_opts_take(&oo, c, optarg))
			continue;
		if (batch_opts_take(&b, c, optarg, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case 'w':
			if (io_workload_parse(optarg, &o.wl, &err))
				return cli_usage_error("bench", "%s", err.msg);
			break;
		case 'q':
			if (bench_parse_qd(optarg, &o, &err))
				return cli_usage_error("bench", "--qd %s", err.msg);
			break;
		case 't':
			if (bench_parse_time(optarg, &o.time_ns, &err))
				return cli_usage_error("bench", "--time %s", err.msg);
			break;
		case 's':
			if (size_parse(optarg, &o.span, &err))
				return cli_usage_error("bench", "--span: %s", err.msg);
			o.span_given = true;
			break;
		case OPT_BS:
			if (bench_parse_bs(optarg, &o.bs, &err))
				return cli_usage_error("bench", "--bs %s", err.msg);
			break;
		case OPT_SEED:
			if (u64_parse(optarg, &o.seed))
				return cli_usage_error("bench", "--seed '%s' is not a number",
						       optarg);
			break;
		case OPT_DESTRUCTIVE:
			o.destructive = true;
			break;
		case 'h':
			bench_usage(stdout);
			return EXIT_DONE;
		case OPT_LIST_WL:
			list_workloads();
			return EXIT_DONE;
		default:
			return cli_bad_option("bench", c, argv);
		}
	}
	if (oo.list_columns) {
		table_list_columns(bench_cols, BC_COUNT, stdout);
		return EXIT_DONE;
	}
	/* the columns before any I/O: a typo must not cost a benchmark */
	if (table_check_columns(bench_cols, BC_COUNT, BENCH_DEFAULT_COLS, oo.columns, &terr))
		return cli_usage_error("bench", "%s", terr.msg);
	b.json = oo.flags & TABLE_JSON;
	write = io_workload_writes(o.wl);
	if (bench_opts_check(&o, &err))
		return cli_usage_error("bench", "%s", err.msg);
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	for (unsigned i = 0; i < b.n; i++) {
		struct bench_item *bi = xcalloc(1, sizeof(*bi));

		bi->o = &o;
		b.items[i].op = bi;
	}
	if (write) {
		batch_open(&b);
		for (unsigned i = 0; i < b.n; i++)
			if (!b.items[i].ready)
				open_raw_for_writing(&b, &b.items[i]);
	} else {
		open_for_reading(&b);
	}
	for (unsigned i = 0; i < b.n; i++)
		if (b.items[i].ready)
			plan_item(&b, &b.items[i], write);
	/* a write benchmark changes disks: every one must pass before any runs */
	if (write && !batch_check_all(&b))
		rc = b.exit_code;
	else
		rc = write ? batch_confirm(&b, "write benchmark data over the span of") : EXIT_DONE;
	if (rc == EXIT_DONE)
		batch_run(&b, bench_job_run);
	for (unsigned i = 0; i < b.n; i++) {
		struct bench_item *bi = b.items[i].op;

		io_dev_close(bi->io); /* not run: refused or not confirmed */
		bi->io = NULL;
	}
	if (!b.json)
		print_table(&b, &oo);
	return batch_finish(&b);
}

const struct cli_cmd cmd_bench = {
	.name = "bench",
	.summary = "measure MB/s, IOPS and latency per queue depth under a workload",
	.run = bench_run,
};
