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
#include "output.h"
#include "record.h"
#include "table.h"
#include "shortstroke/io.h"
#include "shortstroke/units.h"
#include "shortstroke/zones.h"
#include "shortstroke/zprofile.h"

static const struct col_def zone_cols[] = {
	{ "START", COL_U64, true, 0, "first LBA of the zone" },
	{ "LENGTH", COL_U64, true, 0, "zone length, logical blocks" },
	{ "SIZE", COL_SIZE, true, 0, "zone size" },
	{ "TYPE", COL_STR, false, 0, "conventional, seq-required, seq-preferred, ..." },
	{ "CONDITION", COL_STR, false, 0, "empty, implicitly-open, full, not-write-pointer, ..." },
	{ "WP", COL_U64, true, 0, "write pointer LBA (none for conventional zones)" },
	{ "WRITTEN", COL_SIZE, true, 0, "data below the write pointer" },
};
#define ZONE_DEFAULT "START,LENGTH,TYPE,CONDITION,WP"

static const struct col_def notch_cols[] = {
	{ "ZONE", COL_U64, true, 0, "notch number (1 is the outermost)" },
	{ "FIRST-LBA", COL_U64, true, 0, "first LBA of the recording zone" },
	{ "LAST-LBA", COL_U64, true, 0, "last LBA" },
	{ "SIZE", COL_SIZE, true, 0, "capacity of the zone" },
	{ "SPT", COL_U64, true, 0, "sectors per track (Format Device page for the notch)" },
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
static void count_add(json_object *o, char *text, size_t len, const char *name, const char *key,
		      uint64_t n)
{
	size_t l = strlen(text);

	if (!n)
		return;
	snprintf(text + l, len - l, "%s%" PRIu64 " %s", l ? ", " : "", n, name);
	json_object_object_add(o, key, json_object_new_uint64(n));
}

/* ---- zoned drives ---- */

static int show_zbc(const struct dev_entry *e, const struct zone_report *z, const char *sel,
		    unsigned flags, bool all, const struct zprofile *zp)
{
	const struct zone_summary *s = &z->summary;
	uint32_t bs = e->info.logical_block;
	json_object *types = json_object_new_object(), *conds = json_object_new_object();
	struct record *r = record_new();
	struct table *t = NULL;
	char text[320], h[32], h2[32], eb[256];

	if (all) {
		t = table_new(zone_cols, sizeof(zone_cols) / sizeof(zone_cols[0]), ZONE_DEFAULT, sel,
			      eb, sizeof(eb));
		if (!t) {
			json_object_put(types);
			json_object_put(conds);
			record_free(r);
			return cli_usage_error("zones", "%s", eb);
		}
	}
	record_str(r, "Device", "device", e->spec);
	record_str(r, "Zoned", "zoned", zoned_model_name(z->model));
	record_str(r, "Zone report", "source", z->zac ? "REPORT ZONES EXT (ZAC)" : "REPORT ZONES (ZBC)");
	snprintf(text, sizeof(text), "%" PRIu64, s->zones);
	if (z->count && z->zones[0].len) {
		snprintf(text, sizeof(text), "%" PRIu64 " (%s each%s)", s->zones,
			 size_human(z->zones[z->count > 1 ? 1 : 0].len * bs, h, sizeof(h)),
			 z->same == 1 || z->same == 3 ? "" : ", the last may be shorter");
	}
	record_mixed(r, "Zones", text, "zones", json_object_new_uint64(s->zones));
	record_mixed(r, NULL, NULL, "zone_blocks",
		     z->count ? json_object_new_uint64(z->zones[z->count > 1 ? 1 : 0].len) : NULL);
	record_mixed(r, NULL, NULL, "max_lba", json_object_new_uint64(z->max_lba));
	text[0] = '\0';
	count_add(types, text, sizeof(text), "conventional", "conventional", s->conventional);
	count_add(types, text, sizeof(text), "seq-required", "seq_required", s->seq_required);
	count_add(types, text, sizeof(text), "seq-preferred", "seq_preferred", s->seq_preferred);
	count_add(types, text, sizeof(text), "seq-or-before-required", "seq_or_before",
		  s->seq_or_before);
	count_add(types, text, sizeof(text), "gap", "gap", s->gap);
	count_add(types, text, sizeof(text), "other", "other", s->other_type);
	record_mixed(r, "By type", text, "types", types);
	text[0] = '\0';
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
	record_mixed(r, "By condition", text, "conditions", conds);
	snprintf(text, sizeof(text), "%s conventional, %s sequential",
		 size_human(s->conventional_blocks * bs, h, sizeof(h)),
		 size_human(s->sequential_blocks * bs, h2, sizeof(h2)));
	record_mixed(r, "Capacity", text, "conventional_blocks",
		     json_object_new_uint64(s->conventional_blocks));
	record_mixed(r, NULL, NULL, "sequential_blocks",
		     json_object_new_uint64(s->sequential_blocks));
	record_mixed(r, "Written", size_human(s->written_blocks * bs, h, sizeof(h)),
		     "written_blocks", json_object_new_uint64(s->written_blocks));

	for (size_t i = 0; t && i < z->count; i++) {
		const struct zone_desc *d = &z->zones[i];
		bool wp = d->type != ZONE_TYPE_CONVENTIONAL && d->cond != ZONE_COND_NOT_WP;

		table_add_row(t);
		table_set_u64(t, "START", d->start);
		table_set_u64(t, "LENGTH", d->len);
		table_set_size(t, "SIZE", d->len * bs);
		table_set_str(t, "TYPE", zone_type_name(d->type));
		table_set_str(t, "CONDITION", zone_cond_name(d->cond));
		if (wp)
			table_set_u64(t, "WP", d->wp);
		if (wp && d->wp >= d->start)
			table_set_size(t, "WRITTEN",
				       (d->wp - d->start > d->len ? d->len : d->wp - d->start) * bs);
	}
	if (zp)
		record_mixed(r, "Measured", "see the profile below", "profile", profile_json(zp));
	if (flags & TABLE_JSON) {
		if (t)
			record_mixed(r, NULL, NULL, "zone_list", table_json_rows(t));
		record_print(r, stdout, true);
	} else {
		record_print(r, stdout, false);
		if (t) {
			printf("\n");
			table_print(t, stdout, flags, "zones");
		}
		if (zp) {
			printf("\n");
			profile_print(e->spec, zp, 0, flags & TABLE_BYTES);
		}
	}
	table_free(t);
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
	json_object *arr;

	if (!zp || !zp->npoints)
		return;
	arr = json_object_new_array();
	for (unsigned i = 0; i < zp->npoints; i++) {
		const struct zprofile_point *p = &zp->points[i];
		uint64_t end = i + 1 < zp->npoints ? zp->points[i + 1].lba : zp->blocks;
		json_object *o = json_object_new_object();

		json_object_object_add(o, "lba", json_object_new_uint64(p->lba));
		json_object_object_add(o, "blocks",
				       json_object_new_uint64(end > p->lba ? end - p->lba : 0));
		json_object_object_add(o, "mib_per_s",
				       json_object_new_double(p->error ? 0 : p->mbps * 1e6 / 1048576.0));
		json_object_array_add(arr, o);
	}
	record_mixed(r, "Measured", "see the profile below", "measured", arr);
	record_mixed(r, NULL, NULL, "profile", profile_json(zp));
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
		t = table_new(notch_cols, sizeof(notch_cols) / sizeof(notch_cols[0]), NOTCH_DEFAULT,
			      sel, eb, sizeof(eb));
		if (!t) {
			record_free(r);
			return cli_usage_error("zones", "%s", eb);
		}
	}
	record_str(r, "Device", "device", e->spec);
	record_str(r, "Zoned", "zoned", zoned_model_name(e->info.zoned));
	if (g->has_format) {
		snprintf(text, sizeof(text),
			 "%u sectors/track, %u tracks/zone, %u bytes/sector, interleave %u",
			 g->format.sectors_per_track, g->format.tracks_per_zone,
			 g->format.bytes_per_sector, g->format.interleave);
		record_mixed(r, "Format device (03h)", text, "sectors_per_track",
			     json_object_new_uint64(g->format.sectors_per_track));
		record_mixed(r, NULL, NULL, "tracks_per_zone",
			     json_object_new_uint64(g->format.tracks_per_zone));
		record_mixed(r, NULL, NULL, "bytes_per_sector",
			     json_object_new_uint64(g->format.bytes_per_sector));
	}
	if (g->has_rigid) {
		snprintf(text, sizeof(text), "%" PRIu32 " cylinders, %u heads, %s%u rpm",
			 g->rigid.cylinders, g->rigid.heads, g->rigid.rpm ? "" : "rotation ",
			 g->rigid.rpm);
		if (!g->rigid.rpm)
			snprintf(text, sizeof(text), "%" PRIu32 " cylinders, %u heads",
				 g->rigid.cylinders, g->rigid.heads);
		record_mixed(r, "Rigid geometry (04h)", text, "cylinders",
			     json_object_new_uint64(g->rigid.cylinders));
		record_mixed(r, NULL, NULL, "heads", json_object_new_uint64(g->rigid.heads));
		record_mixed(r, NULL, NULL, "rpm",
			     g->rigid.rpm ? json_object_new_uint64(g->rigid.rpm) : NULL);
	}
	if (g->has_notch) {
		if (g->notch.nd)
			snprintf(text, sizeof(text), "%u recording zones (notches), %s boundaries",
				 g->notch.max_notches, g->notch.lpn ? "LBA" : "cylinder/head");
		else
			snprintf(text, sizeof(text), "not a notched drive");
		record_mixed(r, "Notch page (0Ch)", text, "notches",
			     json_object_new_uint64(g->nnotches));
	} else {
		record_mixed(r, NULL, NULL, "notches", NULL);
	}
	if (g->note[0])
		record_str(r, "Note", "note", g->note);
	show_measured(r, zp);

	for (size_t i = 0; t && i < g->nnotches; i++) {
		const struct zone_notch *n = &g->notches[i];

		table_add_row(t);
		table_set_u64(t, "ZONE", n->notch);
		if (n->lba) {
			table_set_u64(t, "FIRST-LBA", n->start);
			table_set_u64(t, "LAST-LBA", n->end);
			if (n->end >= n->start)
				table_set_size(t, "SIZE", ((uint64_t)n->end - n->start + 1) * bs);
		}
		if (n->has_format)
			table_set_u64(t, "SPT", n->sectors_per_track);
	}
	if (flags & TABLE_JSON) {
		if (t)
			record_mixed(r, NULL, NULL, "notch_list", table_json_rows(t));
		record_print(r, stdout, true);
	} else {
		record_print(r, stdout, false);
		if (t) {
			printf("\n");
			table_print(t, stdout, flags, "notches");
		}
		if (zp) {
			printf("\n");
			profile_print(e->spec, zp, 0, flags & TABLE_BYTES);
		}
	}
	table_free(t);
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
		return table_check_columns(zone_cols, sizeof(zone_cols) / sizeof(zone_cols[0]),
					   ZONE_DEFAULT, sel, eb, el);
	for (const char *p = sel[0] == '+' ? sel + 1 : sel; *p;) {
		size_t n = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n && table_check_columns(zone_cols, sizeof(zone_cols) / sizeof(zone_cols[0]),
					     ZONE_DEFAULT, name, eb, el) &&
		    table_check_columns(notch_cols, sizeof(notch_cols) / sizeof(notch_cols[0]),
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
		table_list_columns(zone_cols, sizeof(zone_cols) / sizeof(zone_cols[0]), stdout);
		printf("Notch table (drives with a Notch page):\n");
		table_list_columns(notch_cols, sizeof(notch_cols) / sizeof(notch_cols[0]), stdout);
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
