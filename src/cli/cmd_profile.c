/* profile - the measured zone-bit-recording profile of a disk (as zcav):
 * a chart of the read rate across the disk, the zones found in it, and
 * where a short-stroke limit could cut. Reads only. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch.h"
#include "front/profile.h"
#include "front/table.h"
#include "front/xalloc.h"
#include "shortstroke/io.h"
#include "shortstroke/units.h"
#include "shortstroke/zprofile.h"

struct prof_item {
	struct zprofile_opts zo;
	struct io_dev *io;
	struct zprofile *z;
	bool raw;
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
			    (sp.kind == SIZE_BYTES &&
			     (sp.bytes < 4096 || sp.bytes > (1u << 30) || sp.bytes % 4096)))
				return cli_usage_error("profile",
						       "--sample '%s': give 4K to 1G in "
						       "multiples of 4K",
						       optarg);
			tmpl.zo.sample_bytes = sp.kind == SIZE_BYTES ? sp.bytes : sp.blocks * 512;
			break;
		case OPT_STEP:
			if (parse_pct(optarg, &tmpl.zo.step_pct))
				return cli_usage_error("profile", "--step '%s': a percentage",
						       optarg);
			break;
		case OPT_KEEP:
			if (parse_pct(optarg, &tmpl.zo.keep_pct))
				return cli_usage_error("profile", "--keep '%s': a percentage",
						       optarg);
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
			profile_print(stdout, b.items[i].e.spec, pi->z, pi->zo.keep_pct,
				      flags & TABLE_BYTES);
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
