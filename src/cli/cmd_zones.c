/* zones - what a drive tells about its zones: the ZBC/ZAC zones of a
 * zoned (SMR) drive, or the recording zones (notches) and geometry a
 * conventional drive reports in its mode pages. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "front/table.h"
#include "front/zones.h"
#include "output.h"
#include "shortstroke/units.h"
#include "shortstroke/zones.h"
#include "shortstroke/zprofile.h"
#include "tty.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke zones [options] DEVICE\n"
		   "\n"
		   "Show what a drive reports about its zones.\n"
		   "Zoned (SMR) drives, host-managed or host-aware: the zones by type\n"
		   "(conventional, sequential write required/preferred) and by condition (empty,\n"
		   "open, full, ...) from REPORT ZONES (ZBC) or REPORT ZONES EXT (ZAC, through\n"
		   "SAT); --all lists every zone with its write pointer.\n"
		   "Other drives: the recording zones (notches) with their first and last LBA,\n"
		   "and the Format Device (03h) and Rigid Disk Geometry (04h) figures, where the\n"
		   "drive still reports those mode pages (many SAS drives do; ATA disks behind\n"
		   "a SATL do not). Listing the notches selects each one in turn (MODE SELECT\n"
		   "of the Notch page) and puts the active notch back; nothing else changes.\n"
		   "On a disk that is in use or protected that is a setting changed all the\n"
		   "same: only the pages are read and the notch list is left out (--force).\n"
		   "\n"
		   "With --measure, also the measured zone-bit-recording profile (as 'profile'\n"
		   "does): the read rate sampled across the disk, a chart, the zones found in it\n"
		   "and the cut points a short-stroke limit could use. Reads only; works on\n"
		   "drives that report no zones too.\n"
		   "\n"
		   "Options:\n"
		   "  -m, --measure         measure the transfer-rate profile across the disk\n"
		   "  -p, --points N        with --measure: samples, 2 to 10000 (default 200)\n"
		   "  -a, --all             every zone of a zoned drive (START, LENGTH, TYPE,\n"
		   "                        CONDITION, WP)\n"
		   "  -f, --force           list the notches of a disk in use or protected too\n"
		   "  -J, --json            JSON output\n"
		   "  -o, --output LIST     columns of the zone (or notch) table; +LIST appends\n"
		   "  -n, --noheadings, -r, --raw, -b, --bytes    as for 'list'\n"
		   "      --list-columns    the tables' columns\n"
		   "  -h, --help            this help\n"
		   "\n"
		   "Exit status: 0 shown; 1 the drive reports no zone information (not zoned and\n"
		   "no geometry pages, and no --measure) or could not be read; 2 usage error.\n");
}

static void measure_report(void *arg, double f, const char *phase, double eta)
{
	(void)arg;
	(void)eta;
	tty_clear_line();
	fprintf(stderr, "%s: %3.0f%%", phase ? phase : "zone profile", f * 100);
	fflush(stderr);
}

/* Sweep the disk (read-only), a progress line on a terminal. */
static int measure(struct ss_ctx *ctx, const struct dev_entry *e, unsigned points,
		   struct zprofile **out, struct ss_error *err)
{
	struct progress_sink sink = { measure_report, NULL, NULL };
	struct zprofile_opts zo = { .points = points };
	bool tty = tty_progress();
	int rc;

	zo.progress = tty ? &sink : NULL;
	rc = zprofile_measure_node(e->node, e->spec, ctx_sources(ctx), &zo, out, err);
	if (tty)
		tty_clear_line();
	return rc;
}

static int zones_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = { OUT_LONG_OPTS,
					       { "all", no_argument, NULL, 'a' },
					       { "measure", no_argument, NULL, 'm' },
					       { "force", no_argument, NULL, 'f' },
					       { "points", required_argument, NULL, 'p' },
					       { "help", no_argument, NULL, 'h' },
					       { NULL, 0, NULL, 0 } };
	struct out_opts out = { 0 };
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;
	struct zprofile *zp = NULL;
	struct zones_info zi;
	bool all = false, measuring = false, force = false;
	unsigned points = 0;
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":" OUT_SHORT_OPTS "amfp:h", lopts, NULL)) != -1) {
		if (out_opts_take(&out, c, optarg))
			continue;
		if (c == 'a') {
			all = true;
		} else if (c == 'm') {
			measuring = true;
		} else if (c == 'f') {
			force = true;
		} else if (c == 'p') {
			if (u64_parse(optarg, &v) || v < ZPROFILE_POINTS_MIN ||
			    v > ZPROFILE_POINTS_MAX)
				return cli_usage_error("zones", "--points '%s': give %u to %u",
						       optarg, ZPROFILE_POINTS_MIN,
						       ZPROFILE_POINTS_MAX);
			points = (unsigned)v;
		} else if (c == 'h') {
			usage(stdout);
			return EXIT_DONE;
		} else {
			return cli_bad_option("zones", c, argv);
		}
	}
	if (out.list_columns) {
		printf("Zone table (zoned drives, --all):\n");
		table_list_columns(zone_table_cols, ZN_COUNT, stdout);
		printf("Notch table (drives with a Notch page):\n");
		table_list_columns(notch_table_cols, NC_COUNT, stdout);
		return EXIT_DONE;
	}
	if (zones_check_columns(out.columns, &err))
		return cli_usage_error("zones", "%s", err.msg);
	if (optind >= argc)
		return cli_usage_error("zones", "name a device (see 'shortstroke list')");
	if (optind + 1 < argc)
		return cli_usage_error("zones", "one device at a time");
	if (points && !measuring)
		return cli_usage_error("zones", "--points goes with --measure");
	rc = device_open(ctx, argv[optind], false, &d, &e, &err);
	if (rc) {
		cli_error("%s", err.msg);
		return cli_exit_code(rc, &err);
	}
	if (measuring) {
		rc = measure(ctx, &e, points, &zp, &err);
		if (rc) {
			drive_free(d);
			cli_error("%s", err.msg);
			return cli_exit_code(rc, &err);
		}
	}

	/* the drive's own account of its zones (ZBC/ZAC zones, or the geometry
	 * pages), and the measured profile after it; the notch walk is a MODE
	 * SELECT: not on a disk we may not change */
	rc = zones_read(d, e.spec, &e.info, e.state == DEV_FREE || force, zp != NULL, &zi, &err);
	drive_free(d);
	if (rc == 0) {
		const struct zones_show z = { &e, &zi, zp, out.columns, out.flags, all };
		struct ss_error perr = { 0 };

		if (zones_print(stdout, &z, &perr))
			rc = cli_usage_error("zones", "%s", perr.msg);
	}
	zones_info_fini(&zi);
	zprofile_free(zp);
	if (rc < 0) {
		cli_error("%s", err.msg);
		return EXIT_FAILED;
	}
	return rc;
}

const struct cli_cmd cmd_zones = {
	.name = "zones",
	.summary = "zones of a drive: SMR zones (ZBC/ZAC), recording zones from mode pages",
	.run = zones_run,
};
