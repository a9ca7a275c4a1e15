/* profile - the measured zone-bit-recording profile of a disk (as zcav):
 * a chart of the read rate across the disk, the zones found in it, and
 * where a short-stroke limit could cut. Reads only. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch.h"
#include "front/table.h"
#include "front/xalloc.h"
#include "shortstroke/io.h"
#include "shortstroke/units.h"
#include "shortstroke/zprofile.h"

#define CHART_W 64
#define CHART_H 12

struct prof_item {
	struct zprofile_opts zo;
	struct io_dev *io;
	struct zprofile *z;
	bool raw;
};

enum zone_col {
	ZC_ZONE,
	ZC_START,
	ZC_END,
	ZC_SAMPLES,
	ZC_AVG_MB_S,
	ZC_MIN_MB_S,
	ZC_MAX_MB_S,
	ZC_COUNT
};
static const struct col_def zone_cols[ZC_COUNT] = {
	[ZC_ZONE] = { "ZONE", COL_U64, true, 0, 0, "zone number, 0 outermost" },
	[ZC_START] = { "START", COL_SIZE, true, 0, 0, "where the zone starts" },
	[ZC_END] = { "END", COL_SIZE, true, 0, 0, "where it ends" },
	[ZC_SAMPLES] = { "SAMPLES", COL_U64, true, 0, 0, "samples in the zone" },
	[ZC_AVG_MB_S] = { "AVG-MB/S", COL_DOUBLE, true, 1, 0, "mean read rate" },
	[ZC_MIN_MB_S] = { "MIN-MB/S", COL_DOUBLE, true, 1, 0, "slowest sample" },
	[ZC_MAX_MB_S] = { "MAX-MB/S", COL_DOUBLE, true, 1, 0, "fastest sample" },
};

enum cut_col {
	CC_CUT,
	CC_KEEP,
	CC_KEEP_PCT,
	CC_WORST_MB_S,
	CC_WORST_PCT,
	CC_AVG_MB_S,
	CC_BLOCKS,
	CC_NOTE,
	CC_COUNT
};
static const struct col_def cut_cols[CC_COUNT] = {
	[CC_CUT] = { "CUT", COL_STR, false, 0, 0, "limit at the end of this zone" },
	[CC_KEEP] = { "KEEP", COL_SIZE, true, 0, 0, "capacity kept" },
	[CC_KEEP_PCT] = { "KEEP-%", COL_DOUBLE, true, 1, 0, "capacity kept, % of the disk" },
	[CC_WORST_MB_S] = { "WORST-MB/S", COL_DOUBLE, true, 1, 0, "slowest rate kept" },
	[CC_WORST_PCT] = { "WORST-%", COL_DOUBLE, true, 1, 0,
			   "slowest rate kept, % of the outer rate" },
	[CC_AVG_MB_S] = { "AVG-MB/S", COL_DOUBLE, true, 1, 0, "mean rate over what is kept" },
	[CC_BLOCKS] = { "BLOCKS", COL_U64, true, 0, 0, "for 'shortstroke limit --blocks'" },
	[CC_NOTE] = { "NOTE", COL_STR, false, 0, 0, "the recommended cut" },
};

static void profile_usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke profile [options] DEVICE\n"
		"\n"
		"Measure the read rate at many positions across the disk (as zcav does), find\n"
		"the recording zones from the steps in the curve, and list the cut points a\n"
		"short-stroke limit could use: the capacity kept and the worst rate kept.\n"
		"Reads only. On a simulated drive the sweep runs in virtual time.\n"
		"\n"
		"Options:\n"
		"  -p, --points N        samples across the disk, 2 to 10000 (default 200)\n"
		"      --sample SIZE     read at each sample (default 4M)\n"
		"      --step PCT        a new zone where the rate moves by more than PCT %% of\n"
		"                        the outer rate (default 3)\n"
		"      --keep PCT        recommend the deepest cut keeping PCT %% of the outer\n"
		"                        rate (default 90)\n"
		"  -J, --json            JSON: samples, zones and cuts, numbers as numbers\n"
		"  -b, --bytes           sizes in bytes\n"
		"  -h, --help            this help\n"
		"Example:\n"
		"  shortstroke profile --points 500 /dev/sdb\n");
}

/* Read-only open; a block device that is not a SCSI/ATA disk is swept as
 * it is. Then the engine. */
static int open_item(struct batch *b, struct batch_item *it)
{
	struct prof_item *pi = it->op;

	return batch_open_reading(b, it, &pi->raw, &pi->io);
}

void profile_samples(struct record *r, const struct zprofile *z)
{
	struct record *a = record_set_list(r, "samples");

	for (unsigned i = 0; i < z->npoints; i++) {
		struct record *p = record_set_object(a, NULL);

		record_set_u64(p, "lba", z->points[i].lba);
		if (z->points[i].error)
			record_set_null(p, "mbps");
		else
			record_set_double(p, "mbps", z->points[i].mbps);
	}
}

/* The profile under key: samples, zones and cuts (also zones --measure). */
void profile_record(struct record *r, const char *key, const struct zprofile *z)
{
	struct record *o = record_set_object(r, key), *a;

	record_set_u64(o, "capacity_bytes", z->blocks * z->lblock);
	record_set_i64(o, "logical_block", z->lblock);
	record_set_bool(o, "virtual_time", z->virtual_time);
	record_set_double(o, "elapsed_s", z->elapsed_s);
	record_set_double(o, "outer_mbps", z->outer_mbps);
	record_set_double(o, "inner_mbps", z->inner_mbps);
	record_set_i64(o, "failed_samples", z->errors);
	profile_samples(o, z);
	a = record_set_list(o, "zones");
	for (unsigned k = 0; k < z->nzones; k++) {
		const struct zprofile_zone *zn = &z->zones[k];
		struct record *p = record_set_object(a, NULL);

		record_set_i64(p, "zone", k);
		record_set_u64(p, "first_lba", zn->first_lba);
		record_set_u64(p, "end_lba", zn->end_lba);
		record_set_i64(p, "samples", zn->npoints);
		record_set_double(p, "avg_mbps", zn->avg_mbps);
		record_set_double(p, "min_mbps", zn->min_mbps);
		record_set_double(p, "max_mbps", zn->max_mbps);
	}
	a = record_set_list(o, "cuts");
	for (unsigned k = 0; k < z->ncuts; k++) {
		const struct zprofile_cut *c = &z->cuts[k];
		struct record *p = record_set_object(a, NULL);

		record_set_i64(p, "zone", c->zone);
		record_set_u64(p, "blocks", c->blocks);
		record_set_u64(p, "bytes", c->bytes);
		record_set_double(p, "capacity_percent", c->capacity_pct);
		record_set_double(p, "worst_mbps", c->worst_mbps);
		record_set_double(p, "worst_percent", c->worst_pct);
		record_set_double(p, "avg_mbps", c->avg_mbps);
		record_set_bool(p, "recommended", c->recommended);
	}
	if (z->recommended >= 0)
		record_set_i64(o, "recommended_cut", z->recommended);
	else
		record_set_null(o, "recommended_cut");
}

static int profile_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct prof_item *pi = it->op;
	char t[32];
	int rc;

	pi->zo.progress = sink;
	rc = zprofile_measure(pi->io, &pi->zo, &pi->z, err);
	io_dev_close(pi->io);
	pi->io = NULL;
	if (rc)
		return rc;
	profile_record(it->rec, "profile", pi->z);
	snprintf(it->result, sizeof(it->result), "%u samples, %u zones, swept in %s%s",
		 pi->z->npoints, pi->z->nzones, duration_human(pi->z->elapsed_s, t, sizeof(t)),
		 pi->z->virtual_time ? " (virtual time)" : "");
	return 0;
}

/* A bar per column: the mean of the samples that fall in it. */
static void print_chart(const struct zprofile *z)
{
	double col[CHART_W], lo = 1e300, hi = 0, range;
	unsigned w = z->npoints < CHART_W ? z->npoints : CHART_W;

	for (unsigned c = 0; c < w; c++) {
		unsigned a = c * z->npoints / w, e = (c + 1) * z->npoints / w, good = 0;
		double sum = 0;

		for (unsigned i = a; i < e; i++) {
			if (z->points[i].error)
				continue;
			sum += z->points[i].mbps;
			good++;
		}
		col[c] = good ? sum / good : -1;
		if (good && col[c] < lo)
			lo = col[c];
		if (good && col[c] > hi)
			hi = col[c];
	}
	if (hi <= 0)
		return;
	lo = floor(lo * 0.9);
	range = hi - lo > 1e-9 ? hi - lo : 1;
	printf("Read rate across the disk, MB/s (%u samples):\n", z->npoints);
	for (int r = CHART_H; r >= 1; r--) {
		double level = lo + range * (r - 0.5) / CHART_H;

		if (r == CHART_H)
			printf("%7.1f |", hi);
		else if (r == 1)
			printf("%7.1f |", lo);
		else
			printf("        |");
		for (unsigned c = 0; c < w; c++)
			putchar(col[c] < 0 ? 'x' : col[c] >= level ? '#' : ' ');
		putchar('\n');
	}
	printf("        +");
	for (unsigned c = 0; c < w; c++)
		putchar('-');
	printf("\n         0%%%*s\n", (int)w - 2, "100%");
}

/* Chart, zone table and cut table (also zones --measure). keep_pct: what
 * the recommendation used, 0 for the default. */
void profile_print(const char *spec, const struct zprofile *z, double keep_pct, unsigned flags)
{
	double keep = keep_pct > 0 ? keep_pct : ZPROFILE_KEEP_DEFAULT;
	char errbuf[128], name[32];
	struct table *t;

	printf("%s: outer %.1f MB/s, inner %.1f MB/s (%.0f%%)%s\n", spec, z->outer_mbps,
	       z->inner_mbps, z->outer_mbps > 0 ? 100.0 * z->inner_mbps / z->outer_mbps : 0,
	       z->errors ? ", some samples failed (x)" : "");
	print_chart(z);
	putchar('\n');
	t = table_new(zone_cols, ZC_COUNT,
		      "ZONE,START,END,SAMPLES,AVG-MB/S,MIN-MB/S,MAX-MB/S", NULL, errbuf,
		      sizeof(errbuf));
	for (unsigned k = 0; t && k < z->nzones; k++) {
		const struct zprofile_zone *zn = &z->zones[k];

		table_add_row(t);
		table_set_u64(t, ZC_ZONE, k);
		table_set_size(t, ZC_START, zn->first_lba * z->lblock);
		table_set_size(t, ZC_END, zn->end_lba * z->lblock);
		table_set_u64(t, ZC_SAMPLES, zn->npoints);
		table_set_double(t, ZC_AVG_MB_S, zn->avg_mbps);
		table_set_double(t, ZC_MIN_MB_S, zn->min_mbps);
		table_set_double(t, ZC_MAX_MB_S, zn->max_mbps);
	}
	if (t)
		table_print(t, stdout, flags, "zones");
	table_free(t);
	putchar('\n');
	t = table_new(cut_cols, CC_COUNT,
		      "CUT,KEEP,KEEP-%,WORST-MB/S,WORST-%,AVG-MB/S,BLOCKS,NOTE", NULL, errbuf,
		      sizeof(errbuf));
	for (unsigned k = 0; t && k < z->ncuts; k++) {
		const struct zprofile_cut *c = &z->cuts[k];

		table_add_row(t);
		snprintf(name, sizeof(name), k + 1 == z->ncuts ? "whole disk" : "zone %u", c->zone);
		table_set_str(t, CC_CUT, name);
		table_set_size(t, CC_KEEP, c->bytes);
		table_set_double(t, CC_KEEP_PCT, c->capacity_pct);
		table_set_double(t, CC_WORST_MB_S, c->worst_mbps);
		table_set_double(t, CC_WORST_PCT, c->worst_pct);
		table_set_double(t, CC_AVG_MB_S, c->avg_mbps);
		table_set_u64(t, CC_BLOCKS, c->blocks);
		table_set_str(t, CC_NOTE, c->recommended ? "recommended" : "");
	}
	if (t)
		table_print(t, stdout, flags, "cuts");
	table_free(t);
	if (z->recommended < 0 && z->ncuts && z->cuts[z->ncuts - 1].worst_pct >= keep)
		printf("\nNo cut recommended: the whole disk keeps %.0f%% of the outer rate.\n",
		       z->cuts[z->ncuts - 1].worst_pct);
	else if (z->recommended < 0)
		printf("\nNo cut recommended: no zone keeps %.0f%% of the outer rate (an uneven "
		       "profile: try more --points or a larger --sample).\n", keep);
	putchar('\n');
}

static int parse_pct(const char *s, double *out)
{
	const char *end;
	double v;

	if (decimal_parse(s, &v, &end) || (*end && strcmp(end, "%")) || !(v > 0 && v < 100))
		return -EINVAL;
	*out = v;
	return 0;
}

static int profile_run(struct ss_ctx *ctx, int argc, char **argv)
{
	enum { OPT_SAMPLE = 0x2101, OPT_STEP, OPT_KEEP };
	static const struct option opts[] = {
		{ "points", required_argument, NULL, 'p' },
		{ "sample", required_argument, NULL, OPT_SAMPLE },
		{ "step", required_argument, NULL, OPT_STEP },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "json", no_argument, NULL, 'J' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct batch b = { .cmd = "profile", .ctx = ctx, .verbose = ctx->verbose };
	struct prof_item tmpl = { 0 };
	struct ss_error err = { 0 };
	struct size_spec sp;
	unsigned flags = 0;
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":p:Jbh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (u64_parse(optarg, &v) || v < ZPROFILE_POINTS_MIN ||
			    v > ZPROFILE_POINTS_MAX)
				return cli_usage_error("profile", "--points '%s': give %u to %u",
						       optarg, ZPROFILE_POINTS_MIN,
						       ZPROFILE_POINTS_MAX);
			tmpl.zo.points = (unsigned)v;
			break;
		case OPT_SAMPLE:
			if (size_parse(optarg, &sp, &err) || sp.kind == SIZE_PERCENT ||
			    (sp.kind == SIZE_BYTES && (sp.bytes < 4096 || sp.bytes > (1u << 30) ||
						       sp.bytes % 4096)))
				return cli_usage_error("profile", "--sample '%s': give 4K to 1G in "
						       "multiples of 4K", optarg);
			tmpl.zo.sample_bytes = sp.kind == SIZE_BYTES ? sp.bytes : sp.blocks * 512;
			break;
		case OPT_STEP:
			if (parse_pct(optarg, &tmpl.zo.step_pct))
				return cli_usage_error("profile", "--step '%s': a percentage", optarg);
			break;
		case OPT_KEEP:
			if (parse_pct(optarg, &tmpl.zo.keep_pct))
				return cli_usage_error("profile", "--keep '%s': a percentage", optarg);
			break;
		case 'J':
			flags |= TABLE_JSON;
			break;
		case 'b':
			flags |= TABLE_BYTES;
			break;
		case 'h':
			profile_usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("profile", c, argv);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("profile", "name one device");
	b.json = flags & TABLE_JSON;
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	for (unsigned i = 0; i < b.n; i++) {
		struct prof_item *pi = xcalloc(1, sizeof(*pi));

		*pi = tmpl;
		b.items[i].op = pi;
		open_item(&b, &b.items[i]);
	}
	batch_run(&b, profile_job);
	for (unsigned i = 0; i < b.n; i++) {
		struct prof_item *pi = b.items[i].op;

		io_dev_close(pi->io);
		pi->io = NULL;
		if (pi->z && !b.json && b.items[i].rc == 0)
			profile_print(b.items[i].e.spec, pi->z, pi->zo.keep_pct, flags & TABLE_BYTES);
		zprofile_free(pi->z);
		pi->z = NULL;
	}
	return batch_finish(&b);
}

const struct cli_cmd cmd_profile = {
	.name = "profile",
	.summary = "measure the zone profile (read rate across the disk) and cut points",
	.run = profile_run,
};
