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
#include "front/record.h"
#include "front/table.h"
#include "output.h"
#include "shortstroke/io.h"
#include "shortstroke/units.h"
#include "shortstroke/zones.h"
#include "shortstroke/zprofile.h"

enum zone_col {
	ZN_START,
	ZN_LENGTH,
	ZN_SIZE,
	ZN_TYPE,
	ZN_CONDITION,
	ZN_WP,
	ZN_WRITTEN,
	ZN_COUNT
};
static const struct col_def zone_cols[ZN_COUNT] = {
	[ZN_START] = { "START", COL_U64, true, 0, 0, "first LBA of the zone" },
	[ZN_LENGTH] = { "LENGTH", COL_U64, true, 0, 0, "zone length, logical blocks" },
	[ZN_SIZE] = { "SIZE", COL_SIZE, true, 0, 0, "zone size" },
	[ZN_TYPE] = { "TYPE", COL_STR, false, 0, 0,
		      "conventional, seq-required, seq-preferred, ..." },
	[ZN_CONDITION] = { "CONDITION", COL_STR, false, 0, 0,
			   "empty, implicitly-open, full, not-write-pointer, ..." },
	[ZN_WP] = { "WP", COL_U64, true, 0, 0, "write pointer LBA (none for conventional zones)" },
	[ZN_WRITTEN] = { "WRITTEN", COL_SIZE, true, 0, 0, "data below the write pointer" },
};
#define ZONE_DEFAULT "START,LENGTH,TYPE,CONDITION,WP"

enum notch_col {
	NC_ZONE,
	NC_FIRST_LBA,
	NC_LAST_LBA,
	NC_SIZE,
	NC_SPT,
	NC_COUNT
};
static const struct col_def notch_cols[NC_COUNT] = {
	[NC_ZONE] = { "ZONE", COL_U64, true, 0, 0, "notch number (1 is the outermost)" },
	[NC_FIRST_LBA] = { "FIRST-LBA", COL_U64, true, 0, 0, "first LBA of the recording zone" },
	[NC_LAST_LBA] = { "LAST-LBA", COL_U64, true, 0, 0, "last LBA" },
	[NC_SIZE] = { "SIZE", COL_SIZE, true, 0, 0, "capacity of the zone" },
	[NC_SPT] = { "SPT", COL_U64, true, 0, 0,
		     "sectors per track (Format Device page for the notch)" },
};
#define NOTCH_DEFAULT "ZONE,FIRST-LBA,LAST-LBA,SIZE,SPT"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke zones [options] DEVICE\n"
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
		"  -J, --json            JSON output\n"
		"  -o, --output LIST     columns of the zone (or notch) table; +LIST appends\n"
		"  -n, --noheadings, -r, --raw, -b, --bytes    as for 'list'\n"
		"      --list-columns    the tables' columns\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status: 0 shown; 1 the drive reports no zone information (not zoned and\n"
		"no geometry pages, and no --measure) or could not be read; 2 usage error.\n");
}

/* "524 conventional, 51632 seq-required" and {"conventional": 524, ...} */
static void count_add(struct record *o, char *text, size_t len, const char *name,
		      const char *key, uint64_t n)
{
	size_t l = strlen(text);

	if (!n)
		return;
	snprintf(text + l, len - l, "%s%" PRIu64 " %s", l ? ", " : "", n, name);
	record_set_u64(o, key, n);
}

/* ---- zoned drives ---- */

static int show_zbc(const struct dev_entry *e, const struct zone_report *z, const char *sel,
		    unsigned flags, bool all, const struct zprofile *zp)
{
	const struct zone_summary *s = &z->summary;
	uint32_t bs = e->info.logical_block;
	struct record *r, *types, *conds;
	struct table *t = NULL;
	char text[320], h[32], h2[32], eb[256];

	if (all) {
		t = table_new(zone_cols, ZN_COUNT, ZONE_DEFAULT, sel, eb, sizeof(eb));
		if (!t)
			return cli_usage_error("zones", "%s", eb);
	}
	r = record_new();
	record_str(r, "Device", "device", e->spec);
	record_str(r, "Zoned", "zoned", zoned_model_name(z->model));
	record_str(r, "Zone report", "source", z->zac ? "REPORT ZONES EXT (ZAC)" : "REPORT ZONES (ZBC)");
	snprintf(text, sizeof(text), "%" PRIu64, s->zones);
	if (z->count && z->zones[0].len) {
		snprintf(text, sizeof(text), "%" PRIu64 " (%s each%s)", s->zones,
			 size_human(z->zones[z->count > 1 ? 1 : 0].len * bs, h, sizeof(h)),
			 z->same == 1 || z->same == 3 ? "" : ", the last may be shorter");
	}
	record_text(r, "Zones", "%s", text);
	record_set_u64(r, "zones", s->zones);
	if (z->count)
		record_set_u64(r, "zone_blocks", z->zones[z->count > 1 ? 1 : 0].len);
	else
		record_set_null(r, "zone_blocks");
	record_set_u64(r, "max_lba", z->max_lba);
	text[0] = '\0';
	types = record_set_object(r, "types");
	count_add(types, text, sizeof(text), "conventional", "conventional", s->conventional);
	count_add(types, text, sizeof(text), "seq-required", "seq_required", s->seq_required);
	count_add(types, text, sizeof(text), "seq-preferred", "seq_preferred", s->seq_preferred);
	count_add(types, text, sizeof(text), "seq-or-before-required", "seq_or_before",
		  s->seq_or_before);
	count_add(types, text, sizeof(text), "gap", "gap", s->gap);
	count_add(types, text, sizeof(text), "other", "other", s->other_type);
	record_text(r, "By type", "%s", text);
	text[0] = '\0';
	conds = record_set_object(r, "conditions");
	count_add(conds, text, sizeof(text), "not-write-pointer", "not_write_pointer", s->not_wp);
	count_add(conds, text, sizeof(text), "empty", "empty", s->empty);
	count_add(conds, text, sizeof(text), "implicitly-open", "implicitly_open", s->imp_open);
	count_add(conds, text, sizeof(text), "explicitly-open", "explicitly_open", s->exp_open);
	count_add(conds, text, sizeof(text), "closed", "closed", s->closed);
	count_add(conds, text, sizeof(text), "full", "full", s->full);
	count_add(conds, text, sizeof(text), "read-only", "read_only", s->read_only);
	count_add(conds, text, sizeof(text), "offline", "offline", s->offline);
	count_add(conds, text, sizeof(text), "inactive", "inactive", s->inactive);
	count_add(conds, text, sizeof(text), "other", "other", s->other_cond);
	record_text(r, "By condition", "%s", text);
	record_text(r, "Capacity", "%s conventional, %s sequential",
		    size_human(s->conventional_blocks * bs, h, sizeof(h)),
		    size_human(s->sequential_blocks * bs, h2, sizeof(h2)));
	record_set_u64(r, "conventional_blocks", s->conventional_blocks);
	record_set_u64(r, "sequential_blocks", s->sequential_blocks);
	record_text(r, "Written", "%s", size_human(s->written_blocks * bs, h, sizeof(h)));
	record_set_u64(r, "written_blocks", s->written_blocks);

	for (size_t i = 0; t && i < z->count; i++) {
		const struct zone_desc *d = &z->zones[i];
		bool wp = d->type != ZONE_TYPE_CONVENTIONAL && d->cond != ZONE_COND_NOT_WP;

		table_add_row(t);
		table_set_u64(t, ZN_START, d->start);
		table_set_u64(t, ZN_LENGTH, d->len);
		table_set_size(t, ZN_SIZE, d->len * bs);
		table_set_str(t, ZN_TYPE, zone_type_name(d->type));
		table_set_str(t, ZN_CONDITION, zone_cond_name(d->cond));
		if (wp)
			table_set_u64(t, ZN_WP, d->wp);
		if (wp && d->wp >= d->start)
			table_set_size(t, ZN_WRITTEN,
				       (d->wp - d->start > d->len ? d->len : d->wp - d->start) * bs);
	}
	if (zp) {
		record_text(r, "Measured", "see the profile below");
		profile_record(r, "profile", zp);
	}
	if (t) {
		record_set_table(r, "zone_list", t);
		record_line(r, "%s", "");
		record_table(r, t);
	}
	record_print(r, stdout, flags);
	if (zp && !(flags & TABLE_JSON)) {
		printf("\n");
		profile_print(e->spec, zp, 0, flags & TABLE_BYTES);
	}
	record_free(r);
	return EXIT_DONE;
}

/* ---- geometry pages ---- */

/*
 * A measured transfer-rate profile, when one was taken (zones --measure):
 * the zones as the heads see them, beside the drive's own account. One
 * point per sample (LBA, blocks to the next sample, MiB/s) in the record;
 * the chart and tables follow the record.
 */
static void show_measured(struct record *r, const struct zprofile *zp)
{
	struct record *arr;

	if (!zp || !zp->npoints)
		return;
	record_text(r, "Measured", "see the profile below");
	arr = record_set_list(r, "measured");
	for (unsigned i = 0; i < zp->npoints; i++) {
		const struct zprofile_point *p = &zp->points[i];
		uint64_t end = i + 1 < zp->npoints ? zp->points[i + 1].lba : zp->blocks;
		struct record *o = record_set_object(arr, NULL);

		record_set_u64(o, "lba", p->lba);
		record_set_u64(o, "blocks", end > p->lba ? end - p->lba : 0);
		record_set_double(o, "mib_per_s", p->error ? 0 : p->mbps * 1e6 / 1048576.0);
	}
	profile_record(r, "profile", zp);
}

static void measure_report(void *arg, double f, const char *phase, double eta)
{
	(void)arg;
	(void)eta;
	fprintf(stderr, "\r\033[2K%s: %3.0f%%", phase ? phase : "zone profile", f * 100);
	fflush(stderr);
}

/* Sweep the disk (read-only), a progress line on a terminal. */
static int measure(struct ss_ctx *ctx, const struct dev_entry *e, unsigned points,
		   struct zprofile **out, struct ss_error *err)
{
	struct progress_sink sink = { measure_report, NULL, NULL };
	struct zprofile_opts zo = { .points = points };
	struct io_dev *io = NULL;
	bool tty = isatty(STDERR_FILENO);
	int rc;

	rc = io_dev_open_name(e->node, ctx_sources(ctx), false, &io, err);
	if (rc) {
		ss_error_prefix(err, "%s: ", e->spec);
		return rc;
	}
	zo.progress = tty ? &sink : NULL;
	rc = zprofile_measure(io, &zo, out, err);
	if (tty)
		fprintf(stderr, "\r\033[2K");
	io_dev_close(io);
	if (rc)
		ss_error_prefix(err, "%s: ", e->spec);
	return rc;
}

static int show_geometry(const struct dev_entry *e, const struct zone_geometry *g,
			 const char *sel, unsigned flags, const struct zprofile *zp)
{
	uint32_t bs = e->info.logical_block;
	struct record *r = record_new();
	struct table *t = NULL;
	char text[200], eb[256];

	if (g->nnotches) {
		t = table_new(notch_cols, NC_COUNT, NOTCH_DEFAULT, sel, eb, sizeof(eb));
		if (!t) {
			record_free(r);
			return cli_usage_error("zones", "%s", eb);
		}
	}
	record_str(r, "Device", "device", e->spec);
	record_str(r, "Zoned", "zoned", zoned_model_name(e->info.zoned));
	if (g->has_format) {
		record_text(r, "Format device (03h)",
			    "%u sectors/track, %u tracks/zone, %u bytes/sector, interleave %u",
			    g->format.sectors_per_track, g->format.tracks_per_zone,
			    g->format.bytes_per_sector, g->format.interleave);
		record_set_u64(r, "sectors_per_track", g->format.sectors_per_track);
		record_set_u64(r, "tracks_per_zone", g->format.tracks_per_zone);
		record_set_u64(r, "bytes_per_sector", g->format.bytes_per_sector);
	}
	if (g->has_rigid) {
		snprintf(text, sizeof(text), "%" PRIu32 " cylinders, %u heads, %s%u rpm",
			 g->rigid.cylinders, g->rigid.heads, g->rigid.rpm ? "" : "rotation ",
			 g->rigid.rpm);
		if (!g->rigid.rpm)
			snprintf(text, sizeof(text), "%" PRIu32 " cylinders, %u heads",
				 g->rigid.cylinders, g->rigid.heads);
		record_text(r, "Rigid geometry (04h)", "%s", text);
		record_set_u64(r, "cylinders", g->rigid.cylinders);
		record_set_u64(r, "heads", g->rigid.heads);
		if (g->rigid.rpm)
			record_set_u64(r, "rpm", g->rigid.rpm);
		else
			record_set_null(r, "rpm");
	}
	if (g->has_notch) {
		if (g->notch.nd)
			snprintf(text, sizeof(text), "%u recording zones (notches), %s boundaries",
				 g->notch.max_notches, g->notch.lpn ? "LBA" : "cylinder/head");
		else
			snprintf(text, sizeof(text), "not a notched drive");
		record_text(r, "Notch page (0Ch)", "%s", text);
		record_set_u64(r, "notches", g->nnotches);
	} else {
		record_set_null(r, "notches");
	}
	if (g->note[0])
		record_str(r, "Note", "note", g->note);
	show_measured(r, zp);

	for (size_t i = 0; t && i < g->nnotches; i++) {
		const struct zone_notch *n = &g->notches[i];

		table_add_row(t);
		table_set_u64(t, NC_ZONE, n->notch);
		if (n->lba) {
			table_set_u64(t, NC_FIRST_LBA, n->start);
			table_set_u64(t, NC_LAST_LBA, n->end);
			if (n->end >= n->start)
				table_set_size(t, NC_SIZE, ((uint64_t)n->end - n->start + 1) * bs);
		}
		if (n->has_format)
			table_set_u64(t, NC_SPT, n->sectors_per_track);
	}
	if (t) {
		record_set_table(r, "notch_list", t);
		record_line(r, "%s", "");
		record_table(r, t);
	}
	record_print(r, stdout, flags);
	if (!(flags & TABLE_JSON)) {
		if (zp) {
			printf("\n");
			profile_print(e->spec, zp, 0, flags & TABLE_BYTES);
		}
	}
	record_free(r);
	return EXIT_DONE;
}

/* -o names columns of the zone table or of the notch table (which one
 * prints depends on the drive): a name in neither is refused before the
 * drive is opened. */
static int check_columns(const char *sel, char *eb, size_t el)
{
	char name[64];

	if (!sel)
		return 0;
	if (!sel[0]) /* "no columns selected" */
		return table_check_columns(zone_cols, ZN_COUNT,
					   ZONE_DEFAULT, sel, eb, el);
	for (const char *p = sel[0] == '+' ? sel + 1 : sel; *p;) {
		size_t n = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n && table_check_columns(zone_cols, ZN_COUNT,
					     ZONE_DEFAULT, name, eb, el) &&
		    table_check_columns(notch_cols, NC_COUNT,
					NOTCH_DEFAULT, name, eb, el))
			return -EINVAL;
		p += n + (p[n] == ',');
	}
	return 0;
}

static int zones_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = { OUT_LONG_OPTS,
					       { "all", no_argument, NULL, 'a' },
					       { "measure", no_argument, NULL, 'm' },
					       { "points", required_argument, NULL, 'p' },
					       { "help", no_argument, NULL, 'h' },
					       { NULL, 0, NULL, 0 } };
	struct out_opts out = { 0 };
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;
	struct zprofile *zp = NULL;
	bool all = false, measuring = false;
	unsigned points = 0;
	char eb[256];
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":" OUT_SHORT_OPTS "amp:h", lopts, NULL)) != -1) {
		if (out_opts_take(&out, c, optarg))
			continue;
		if (c == 'a') {
			all = true;
		} else if (c == 'm') {
			measuring = true;
		} else if (c == 'p') {
			if (u64_parse(optarg, &v) || v < ZPROFILE_POINTS_MIN ||
			    v > ZPROFILE_POINTS_MAX)
				return cli_usage_error("zones", "--points '%s': give %u to %u", optarg,
						       ZPROFILE_POINTS_MIN, ZPROFILE_POINTS_MAX);
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
		table_list_columns(zone_cols, ZN_COUNT, stdout);
		printf("Notch table (drives with a Notch page):\n");
		table_list_columns(notch_cols, NC_COUNT, stdout);
		return EXIT_DONE;
	}
	if (check_columns(out.columns, eb, sizeof(eb)))
		return cli_usage_error("zones", "%s", eb);
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

	/* the drive's own account of its zones: ZBC/ZAC zones, or the geometry
	 * pages; a measured profile is a separate path (see show_measured) */
	if (e.info.zoned == ZONED_HOST_MANAGED || e.info.zoned == ZONED_HOST_AWARE) {
		struct zone_report z;

		rc = zones_report(d, &e.info, &z, &err);
		if (rc == 0) {
			rc = show_zbc(&e, &z, out.columns, out.flags, all, zp);
			zone_report_free(&z);
		}
	} else {
		struct zone_geometry g;

		rc = zones_geometry(d, &e.info, &g, &err);
		if (rc == -EOPNOTSUPP && zp) {
			/* nothing reported, but measured */
			memset(&g, 0, sizeof(g));
			snprintf(g.note, sizeof(g.note),
				 "the drive reports no geometry mode pages%s; the profile below is "
				 "measured",
				 e.info.ata ? " (an ATA disk behind a SATL keeps its recording "
					      "zones to itself)"
					    : "");
			rc = 0;
		}
		if (rc == -EOPNOTSUPP)
			ss_error_set(&err, rc,
				     "%s: reports no zone information: not a zoned drive, and no "
				     "geometry mode pages (03h, 04h, 0Ch)%s",
				     e.spec,
				     e.info.ata ? "; an ATA disk behind a SATL keeps its recording "
						  "zones to itself"
						: "");
		if (rc == 0) {
			rc = show_geometry(&e, &g, out.columns, out.flags, zp);
			zone_geometry_free(&g);
		}
	}
	zprofile_free(zp);
	drive_free(d);
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
