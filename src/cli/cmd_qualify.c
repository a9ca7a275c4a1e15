/* qualify - pre-deployment qualification of a batch of disks: identity,
 * SMART, a short self-test, a surface read scan, the zone profile, access
 * time and IOPS, each against thresholds, then disks of the same model
 * compared. Many disks in parallel, a progress line each and an overall
 * ETA; text, -J, and an HTML report. Reads only (src/ops/qualify.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "shortstroke/fileio.h"
#include "shortstroke/io.h"
#include "shortstroke/qualify.h"
#include "shortstroke/units.h"
#include "table.h"
#include "xalloc.h"

struct q_item {
	const struct qualify_opts *o;
	struct io_dev *io;
	bool raw; /* a block device that is not a SCSI/ATA disk */
	bool ran;
	char note[320]; /* in use / protected: said so */
	struct qualify_result res;
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke qualify [options] DEVICE...\n"
	    "       shortstroke qualify --print-thresholds\n"
	    "\n"
	    "Qualify disks before they go into service, all named disks in parallel:\n"
	    "identity, SMART verdict (temperature, reallocated and pending sectors), a\n"
	    "short self-test, a surface read scan with a list of unreadable blocks, the\n"
	    "zone profile (sequential read across the disk), access time and IOPS (random\n"
	    "4 KiB reads), each PASS or FAIL against thresholds; then disks of the same\n"
	    "model are compared and one clearly slower than its siblings is flagged.\n"
	    "Reads only: nothing is written, so disks in use or protected are qualified\n"
	    "too (and the output says so). On simulated drives it runs in virtual time.\n"
	    "\n"
	    "Options:\n"
	    "  -p, --profile P       quick (default): sampled scan (256 MiB), 40-point\n"
	    "                        profile, QD 1 and 32 for 2 s, no self-test;\n"
	    "                        standard: short self-test, 10%% of the disk scanned,\n"
	    "                        QD 1, 4, 16, 32 for 3 s; full: short self-test, the\n"
	    "                        whole disk scanned, 200-point profile, 5 s per QD\n"
	    "  -t, --thresholds FILE thresholds ('key = value' lines) over the defaults\n"
	    "      --print-thresholds  print the thresholds in effect as a file to copy\n"
	    "      --report FILE     also write a self-contained HTML report with charts\n"
	    "      --seed N          seed of the random reads (default 1)\n"
	    "      --model PATTERN, --serial SERIAL   select disks as 'list' shows them\n"
	    "  -J, --json            JSON: every check, figure and bad block per disk\n"
	    "  -h, --help            this help\n"
	    "\n"
	    "Exit status: 0 every disk passed, 1 every disk failed, 2 usage error (a bad\n"
	    "thresholds file is reported before any I/O), 4 some passed and some failed.\n"
	    "Examples:\n"
	    "  shortstroke qualify --profile full --report burnin.html /dev/sd[b-e]\n"
	    "  shortstroke qualify --print-thresholds > thr.conf; shortstroke qualify -t thr.conf "
	    "/dev/sdb\n");
}

/* Read-only opens: nothing is refused for being in use or protected, but
 * the note says so. */
static void open_item(struct batch *b, struct batch_item *it)
{
	struct q_item *qi = it->op;
	char st[300];

	if (batch_open_reading(b, it, &qi->raw, &qi->io))
		return;
	if (it->e.state != DEV_FREE) {
		dev_state_text(&it->e, st, sizeof(st));
		snprintf(qi->note, sizeof(qi->note),
			 "%s: qualified anyway, read-only (nothing is written)", st);
	}
	if (qi->raw) {
		const struct io_geom *g = io_dev_geom(qi->io);

		snprintf(it->e.info.model, sizeof(it->e.info.model), "block device");
		it->e.info.logical_block = g->lblock;
		it->e.info.capacity_blocks = g->blocks;
	}
	qualify_result_init(&qi->res, it->e.spec, &it->e.info, qi->o->profile);
	it->ready = true;
}

static int q_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct q_item *qi = it->op;
	struct qualify_opts o = *qi->o;
	int rc;

	o.progress = sink;
	qi->ran = true;
	rc = qualify_disk(it->d, qi->io, &o, &qi->res, err);
	io_dev_close(qi->io);
	qi->io = NULL;
	return rc;
}

/* ---- output --------------------------------------------------------------------------- */

static json_object *num_or_null(const struct smart_num *n)
{
	return n->known ? json_object_new_int64(n->value) : NULL;
}

static json_object *result_json(const struct batch_item *it)
{
	const struct q_item *qi = it->op;
	const struct qualify_result *r = &qi->res;
	json_object *o = json_object_new_object(), *checks, *x, *a;

	json_object_object_add(o, "device", json_object_new_string(it->e.spec));
	json_object_object_add(o, "model", json_object_new_string(it->e.info.model));
	json_object_object_add(o, "serial", json_object_new_string(it->e.info.serial));
	json_object_object_add(o, "firmware", json_object_new_string(it->e.info.firmware));
	json_object_object_add(
	    o, "capacity_bytes",
	    json_object_new_uint64(it->e.info.capacity_blocks * it->e.info.logical_block));
	json_object_object_add(o, "logical_block", json_object_new_int64(it->e.info.logical_block));
	json_object_object_add(o, "note", qi->note[0] ? json_object_new_string(qi->note) : NULL);
	json_object_object_add(o, "verdict",
			       json_object_new_string(qi->ran && r->pass ? "PASS" : "FAIL"));
	json_object_object_add(o, "pass", json_object_new_boolean(qi->ran && r->pass));
	json_object_object_add(o, "error", it->rc ? json_object_new_string(it->err.msg) : NULL);
	if (!qi->ran)
		return o;
	json_object_object_add(o, "vanished", json_object_new_boolean(r->vanished));
	json_object_object_add(o, "virtual_time", json_object_new_boolean(r->virtual_time));
	checks = json_object_new_object();
	for (unsigned c = 0; c < QC_COUNT; c++) {
		x = json_object_new_object();
		json_object_object_add(
		    x, "result", json_object_new_string(qualify_status_name(r->check[c].status)));
		json_object_object_add(x, "detail", json_object_new_string(r->check[c].detail));
		json_object_object_add(checks, qualify_check_name((enum qualify_check)c), x);
	}
	json_object_object_add(o, "checks", checks);

	x = json_object_new_object();
	json_object_object_add(x, "read", json_object_new_boolean(r->smart_read));
	json_object_object_add(
	    x, "verdict",
	    r->smart_read ? json_object_new_string(smart_verdict_name(r->smart_verdict)) : NULL);
	json_object_object_add(x, "temperature_c", num_or_null(&r->temperature_c));
	json_object_object_add(x, "reallocated", num_or_null(&r->reallocated));
	json_object_object_add(x, "pending", num_or_null(&r->pending));
	json_object_object_add(x, "offline_uncorrectable", num_or_null(&r->offline_uncorrectable));
	json_object_object_add(x, "power_on_hours", num_or_null(&r->power_on_hours));
	json_object_object_add(o, "smart", x);

	x = json_object_new_object();
	json_object_object_add(x, "bytes_read", json_object_new_uint64(r->scan_bytes));
	json_object_object_add(x, "share_percent", json_object_new_double(r->scan_share_pct));
	json_object_object_add(x, "mbps", json_object_new_double(r->scan_mbps));
	json_object_object_add(x, "failed_requests", json_object_new_uint64(r->scan_errors));
	json_object_object_add(x, "bad_blocks", json_object_new_uint64(r->bad_blocks));
	a = json_object_new_array();
	for (unsigned i = 0; i < r->nbad; i++) {
		json_object *b = json_object_new_object();

		json_object_object_add(b, "first_lba", json_object_new_uint64(r->bad[i].lba));
		json_object_object_add(
		    b, "last_lba", json_object_new_uint64(r->bad[i].lba + r->bad[i].blocks - 1));
		json_object_object_add(b, "blocks", json_object_new_uint64(r->bad[i].blocks));
		json_object_array_add(a, b);
	}
	json_object_object_add(x, "bad_ranges", a);
	json_object_object_add(x, "bad_ranges_truncated",
			       json_object_new_boolean(r->bad_truncated));
	json_object_object_add(o, "scan", x);

	if (r->zp) {
		x = json_object_new_object();
		json_object_object_add(x, "outer_mbps", json_object_new_double(r->zp->outer_mbps));
		json_object_object_add(x, "inner_mbps", json_object_new_double(r->zp->inner_mbps));
		json_object_object_add(x, "mean_mbps", json_object_new_double(r->mean_mbps));
		json_object_object_add(x, "zones", json_object_new_int64(r->zp->nzones));
		json_object_object_add(x, "failed_samples", json_object_new_int64(r->zp->errors));
		a = json_object_new_array();
		for (unsigned i = 0; i < r->zp->npoints; i++) {
			json_object *p = json_object_new_object();

			json_object_object_add(p, "lba",
					       json_object_new_uint64(r->zp->points[i].lba));
			json_object_object_add(p, "mbps",
					       r->zp->points[i].error
						   ? NULL
						   : json_object_new_double(r->zp->points[i].mbps));
			json_object_array_add(a, p);
		}
		json_object_object_add(x, "samples", a);
		json_object_object_add(o, "zone_profile", x);
	} else {
		json_object_object_add(o, "zone_profile", NULL);
	}

	x = json_object_new_object();
	json_object_object_add(x, "access_ms",
			       r->nqd ? json_object_new_double(r->access_ms) : NULL);
	json_object_object_add(x, "failed_reads", json_object_new_uint64(r->access_errors));
	a = json_object_new_array();
	for (unsigned k = 0; k < r->nqd; k++) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "qd", json_object_new_int64(r->qd[k]));
		json_object_object_add(p, "iops", json_object_new_double(r->iops[k]));
		json_object_object_add(p, "lat_avg_ms", json_object_new_double(r->lat_avg_ms[k]));
		json_object_object_add(p, "lat_p99_ms", json_object_new_double(r->lat_p99_ms[k]));
		json_object_array_add(a, p);
	}
	json_object_object_add(x, "runs", a);
	json_object_object_add(o, "access", x);

	x = json_object_new_object();
	json_object_object_add(x, "count", json_object_new_int64(r->siblings));
	json_object_object_add(x, "slowdown_percent",
			       r->slowdown_metric[0] ? json_object_new_double(r->slowdown_pct)
						     : NULL);
	json_object_object_add(
	    x, "metric", r->slowdown_metric[0] ? json_object_new_string(r->slowdown_metric) : NULL);
	json_object_object_add(o, "siblings", x);
	return o;
}

static void print_json(struct batch *b, const struct qualify_opts *o, unsigned passed)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array(), *t;
	double v;
	const char *k;

	json_object_object_add(root, "profile",
			       json_object_new_string(qualify_profile_name(o->profile)));
	t = json_object_new_object();
	for (unsigned i = 0; (k = qualify_thresholds_key(i, o->thr, &v)); i++)
		json_object_object_add(t, k, json_object_new_double(v));
	json_object_object_add(root, "thresholds", t);
	for (unsigned i = 0; i < b->n; i++)
		json_object_array_add(arr, result_json(&b->items[i]));
	json_object_object_add(root, "disks", arr);
	json_object_object_add(root, "passed", json_object_new_int64(passed));
	json_object_object_add(root, "failed", json_object_new_int64(b->n - passed));
	printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_SPACED |
								JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

static const struct col_def sum_cols[] = {
    {"DEVICE", COL_STR, false, 0, "the device as named"},
    {"MODEL", COL_STR, false, 0, "model"},
    {"SERIAL", COL_STR, false, 0, "serial number"},
    {"IDENTITY", COL_STR, false, 0, "the drive identifies itself"},
    {"SMART", COL_STR, false, 0, "SMART verdict, temperature, reallocated/pending sectors"},
    {"SELFTEST", COL_STR, false, 0, "short self-test (standard, full)"},
    {"SCAN", COL_STR, false, 0, "surface read scan: unreadable blocks"},
    {"ZONES", COL_STR, false, 0, "zone profile: sequential read rates"},
    {"ACCESS", COL_STR, false, 0, "access time and IOPS"},
    {"SIBLINGS", COL_STR, false, 0, "not slower than the other disks of its model"},
    {"RESULT", COL_STR, false, 0, "overall"},
};

/* An error message without its leading "DEVICE: ", for a line printed
 * under the device's own heading (the name once, not twice). */
static const char *unnamed(const char *msg, const char *spec)
{
	size_t n = strlen(spec);

	if (n && !strncmp(msg, spec, n) && msg[n] == ':' && msg[n + 1] == ' ')
		return msg + n + 2;
	return msg;
}

static void print_text(struct batch *b, const struct qualify_opts *o, unsigned passed)
{
	static const char *const cols[QC_COUNT] = {"IDENTITY", "SMART",	 "SELFTEST", "SCAN",
						   "ZONES",    "ACCESS", "SIBLINGS"};
	char eb[128];
	struct table *t = table_new(sum_cols, sizeof(sum_cols) / sizeof(sum_cols[0]),
				    "DEVICE,MODEL,SERIAL,IDENTITY,SMART,SELFTEST,SCAN,ZONES,ACCESS,"
				    "SIBLINGS,RESULT",
				    NULL, eb, sizeof(eb));

	for (unsigned i = 0; t && i < b->n; i++) {
		const struct batch_item *it = &b->items[i];
		const struct q_item *qi = it->op;

		table_add_row(t);
		table_set_str(t, "DEVICE", it->e.spec);
		table_set_str(t, "MODEL", it->e.info.model[0] ? it->e.info.model : "-");
		table_set_str(t, "SERIAL", it->e.info.serial[0] ? it->e.info.serial : "-");
		for (unsigned c = 0; c < QC_COUNT; c++)
			table_set_str(t, cols[c],
				      qi->ran ? qualify_status_name(qi->res.check[c].status) : "-");
		table_set_str(t, "RESULT", qi->ran && qi->res.pass ? "PASS" : "FAIL");
	}
	if (t)
		table_print(t, stdout, 0, "disks");
	table_free(t);
	for (unsigned i = 0; i < b->n; i++) {
		const struct batch_item *it = &b->items[i];
		const struct q_item *qi = it->op;
		const struct qualify_result *r = &qi->res;

		printf("\n%s", it->e.spec);
		if (it->e.info.model[0])
			printf(" (%s%s%s)", it->e.info.model, it->e.info.serial[0] ? ", " : "",
			       it->e.info.serial);
		printf(": %s\n", qi->ran && r->pass ? "PASS" : "FAIL");
		if (qi->note[0])
			printf("  note: %s\n", qi->note);
		if (!qi->ran) {
			printf("  not qualified: %s\n", unnamed(it->err.msg, it->e.spec));
			continue;
		}
		for (unsigned c = 0; c < QC_COUNT; c++)
			printf("  %-9s %s  %s\n", qualify_check_name((enum qualify_check)c),
			       qualify_status_name(r->check[c].status), r->check[c].detail);
		for (unsigned k = 0; k < r->nbad && k < 20; k++)
			printf("  bad blocks: LBA %" PRIu64 "-%" PRIu64 " (%" PRIu64 " block%s)\n",
			       r->bad[k].lba, r->bad[k].lba + r->bad[k].blocks - 1,
			       r->bad[k].blocks, r->bad[k].blocks == 1 ? "" : "s");
		if (r->nbad > 20)
			printf("  bad blocks: %u more ranges (-J lists them all)\n", r->nbad - 20);
		if (it->rc && it->rc != -ENODEV)
			printf("  stopped: %s\n", unnamed(it->err.msg, it->e.spec));
	}
	printf("\nqualify (%s profile%s): %u of %u disk%s passed\n",
	       qualify_profile_name(o->profile),
	       b->n && ((struct q_item *)b->items[0].op)->res.virtual_time ? ", virtual time" : "",
	       passed, b->n, b->n == 1 ? "" : "s");
}

static int write_report(struct batch *b, const struct qualify_opts *o, const char *path)
{
	const struct qualify_result **r = xcalloc(b->n ? b->n : 1, sizeof(*r));
	struct qualify_report_meta m = {.profile = o->profile, .thr = o->thr};
	struct qualify_result *unopened = xcalloc(b->n ? b->n : 1, sizeof(*unopened));
	struct ss_error err = {0};
	char when[64], host[256];
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	m.generated = when;
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		m.host = host;
	}
	for (unsigned i = 0; i < b->n; i++) {
		struct q_item *qi = b->items[i].op;

		if (qi->ran) {
			r[i] = &qi->res;
			continue;
		}
		/* not opened: a row that says why */
		qualify_result_init(&unopened[i], b->items[i].e.spec, &b->items[i].e.info, o->profile);
		snprintf(unopened[i].check[QC_IDENTITY].detail, sizeof(unopened[i].check[0].detail), "%s",
			 unnamed(b->items[i].err.msg, b->items[i].e.spec));
		unopened[i].check[QC_IDENTITY].status = QUALIFY_FAIL;
		qualify_result_verdict(&unopened[i]);
		r[i] = &unopened[i];
	}
	rc = qualify_report_write(path, &m, r, b->n, &err);
	if (rc)
		cli_error("%s", err.msg);
	free(r);
	free(unopened);
	return rc;
}

static int qualify_run(struct ss_ctx *ctx, int argc, char **argv)
{
	enum { OPT_PRINT = 0x2201, OPT_REPORT, OPT_SEED, OPT_MODEL, OPT_SERIAL };
	static const struct option opts[] = {
	    {"profile", required_argument, NULL, 'p'},
	    {"thresholds", required_argument, NULL, 't'},
	    {"print-thresholds", no_argument, NULL, OPT_PRINT},
	    {"report", required_argument, NULL, OPT_REPORT},
	    {"seed", required_argument, NULL, OPT_SEED},
	    {"model", required_argument, NULL, OPT_MODEL},
	    {"serial", required_argument, NULL, OPT_SERIAL},
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct batch b = {.cmd = "qualify", .ctx = ctx, .verbose = ctx->verbose};
	struct qualify_thresholds thr;
	struct qualify_opts o = {.profile = QUALIFY_QUICK, .thr = &thr, .seed = 1};
	struct ss_error err = {0};
	const char *thr_file = NULL, *report = NULL;
	bool print_thr = false, report_failed = false;
	unsigned passed = 0, ran = 0;
	int c, rc, worst = EXIT_DONE;

	qualify_thresholds_default(&thr);
	while ((c = getopt_long(argc, argv, ":p:t:Jh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (qualify_profile_parse(optarg, &o.profile))
				return cli_usage_error("qualify",
						       "unknown profile '%s' (quick, "
						       "standard, full)",
						       optarg);
			break;
		case 't':
			thr_file = optarg;
			break;
		case OPT_PRINT:
			print_thr = true;
			break;
		case OPT_REPORT:
			report = optarg;
			break;
		case OPT_SEED:
			if (u64_parse(optarg, &o.seed))
				return cli_usage_error("qualify", "--seed '%s' is not a number",
						       optarg);
			break;
		case OPT_MODEL:
			if (batch_filter(&b, &b.model_glob, "--model", optarg))
				return EXIT_USAGE;
			break;
		case OPT_SERIAL:
			if (batch_filter(&b, &b.serial_filter, "--serial", optarg))
				return EXIT_USAGE;
			break;
		case 'J':
			b.json = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("qualify", c, argv);
		}
	}
	/* the thresholds before anything reaches a disk */
	if (thr_file && qualify_thresholds_load(thr_file, &thr, &err)) {
		cli_error("qualify: %s", err.msg);
		return EXIT_USAGE;
	}
	if (print_thr) {
		char *text = NULL;

		if (qualify_thresholds_format(&thr, &text, &err)) {
			cli_error("qualify: %s", err.msg);
			return EXIT_FAILED;
		}
		fputs(text, stdout);
		free(text);
		return EXIT_DONE;
	}
	if (report && !report[0])
		return cli_usage_error("qualify", "--report: give a file name");
	/* where the report goes, before a disk is read: not after an hour's scan */
	if (report && file_check_writable(report, "--report", &err)) {
		cli_error("qualify: %s", err.msg);
		return EXIT_USAGE;
	}
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	for (unsigned i = 0; i < b.n; i++) {
		struct q_item *qi = xcalloc(1, sizeof(*qi));

		qi->o = &o;
		b.items[i].op = qi;
		open_item(&b, &b.items[i]);
	}
	b.overall = true;
	batch_run(&b, q_job);
	/* the siblings: every disk that ran */
	{
		struct qualify_result **rs = xcalloc(b.n ? b.n : 1, sizeof(*rs));
		unsigned n = 0;

		for (unsigned i = 0; i < b.n; i++) {
			struct q_item *qi = b.items[i].op;

			if (qi->ran)
				rs[n++] = &qi->res;
		}
		qualify_compare_siblings(rs, n, &thr);
		free(rs);
	}
	for (unsigned i = 0; i < b.n; i++) {
		struct batch_item *it = &b.items[i];
		struct q_item *qi = it->op;

		if (qi->ran) {
			ran++;
			passed += qi->res.pass;
		} else if (it->exit_hint && (worst == EXIT_DONE || it->exit_hint == EXIT_FAILED)) {
			worst = it->exit_hint;
		}
		if (it->rc)
			cli_error("%s", it->err.msg);
	}
	if (b.json)
		print_json(&b, &o, passed);
	else
		print_text(&b, &o, passed);
	if (report && write_report(&b, &o, report))
		report_failed = true;
	for (unsigned i = 0; i < b.n; i++) {
		struct q_item *qi = b.items[i].op;

		io_dev_close(qi->io);
		qualify_result_free(&qi->res);
		drive_free(b.items[i].d);
		json_object_put(b.items[i].json);
		free(b.items[i].log);
		free(qi);
	}
	free(b.items);
	if (report_failed)
		return EXIT_FAILED;
	if (!ran)
		return worst == EXIT_DONE ? EXIT_FAILED : worst;
	if (passed == b.n)
		return EXIT_DONE;
	if (passed == 0)
		return EXIT_FAILED;
	return EXIT_PARTIAL;
}

const struct cli_cmd cmd_qualify = {
    .name = "qualify",
    .summary = "qualify disks before deployment: health, surface scan, speed, outliers",
    .run = qualify_run,
};
