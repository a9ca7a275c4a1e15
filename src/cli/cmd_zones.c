/* zones - what a drive tells about its zones: the ZBC/ZAC zones of a
 * zoned (SMR) drive, or the recording zones (notches) and geometry a
 * conventional drive reports in its mode pages. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "record.h"
#include "table.h"
#include "shortstroke/units.h"
#include "shortstroke/zones.h"

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
		"Options:\n"
		"  -a, --all             every zone of a zoned drive (START, LENGTH, TYPE,\n"
		"                        CONDITION, WP)\n"
		"  -J, --json            JSON output\n"
		"  -o, --output LIST     columns of the zone (or notch) table; +LIST appends\n"
		"  -n, --noheadings, -r, --raw, -b, --bytes    as for 'list'\n"
		"      --list-columns    the tables' columns\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status: 0 shown; 1 the drive reports no zone information (not zoned and\n"
		"no geometry pages) or could not be read; 2 usage error.\n");
}

static json_object *table_json(struct table *t, const char *key)
{
	json_object *root, *arr = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	table_print(t, f, TABLE_JSON, key);
	fclose(f);
	root = json_tokener_parse(buf);
	free(buf);
	if (root && json_object_object_get_ex(root, key, &arr))
		json_object_get(arr);
	json_object_put(root);
	return arr;
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
		    unsigned flags, bool all)
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
	if (flags & TABLE_JSON) {
		if (t)
			record_mixed(r, NULL, NULL, "zone_list", table_json(t, "zones"));
		record_print(r, stdout, true);
	} else {
		record_print(r, stdout, false);
		if (t) {
			printf("\n");
			table_print(t, stdout, flags, "zones");
		}
	}
	table_free(t);
	record_free(r);
	return EXIT_DONE;
}

/* ---- geometry pages ---- */

/*
 * A measured transfer-rate profile, when one was taken: the zones as the
 * heads see them, beside the drive's own account. zones_geometry() leaves
 * it empty; the measurement (zones --measure, a later addition) fills
 * g->measured and this prints it.
 */
static void show_measured(struct record *r, const struct zone_geometry *g, unsigned flags)
{
	json_object *arr;

	if (!g->nmeasured)
		return;
	arr = json_object_new_array();
	for (size_t i = 0; i < g->nmeasured; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "lba", json_object_new_uint64(g->measured[i].lba));
		json_object_object_add(o, "blocks", json_object_new_uint64(g->measured[i].blocks));
		json_object_object_add(o, "mib_per_s",
				       json_object_new_double(g->measured[i].mib_per_s));
		json_object_array_add(arr, o);
	}
	record_mixed(r, "Measured", "see the profile below", "measured", arr);
	(void)flags;
}

static int show_geometry(const struct dev_entry *e, const struct zone_geometry *g,
			 const char *sel, unsigned flags)
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
	show_measured(r, g, flags);

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
			record_mixed(r, NULL, NULL, "notch_list", table_json(t, "notches"));
		record_print(r, stdout, true);
	} else {
		record_print(r, stdout, false);
		if (t) {
			printf("\n");
			table_print(t, stdout, flags, "notches");
		}
		if (g->nmeasured) {
			printf("\nMeasured transfer rate:\n");
			for (size_t i = 0; i < g->nmeasured; i++)
				printf("  LBA %12" PRIu64 "  %8.1f MiB/s\n", g->measured[i].lba,
				       g->measured[i].mib_per_s);
		}
	}
	table_free(t);
	record_free(r);
	return EXIT_DONE;
}

static int zones_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = { OUT_LONG_OPTS,
					       { "all", no_argument, NULL, 'a' },
					       { "help", no_argument, NULL, 'h' },
					       { NULL, 0, NULL, 0 } };
	struct out_opts out = { 0 };
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;
	bool all = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, OUT_SHORT_OPTS "ah", lopts, NULL)) != -1) {
		if (out_opts_take(&out, c, optarg))
			continue;
		if (c == 'a') {
			all = true;
		} else if (c == 'h') {
			usage(stdout);
			return EXIT_DONE;
		} else {
			return cli_usage_error("zones", "unknown option");
		}
	}
	if (out.list_columns) {
		printf("Zone table (zoned drives, --all):\n");
		table_list_columns(zone_cols, sizeof(zone_cols) / sizeof(zone_cols[0]), stdout);
		printf("Notch table (drives with a Notch page):\n");
		table_list_columns(notch_cols, sizeof(notch_cols) / sizeof(notch_cols[0]), stdout);
		return EXIT_DONE;
	}
	if (optind >= argc)
		return cli_usage_error("zones", "name a device (see 'shortstroke list')");
	if (optind + 1 < argc)
		return cli_usage_error("zones", "one device at a time");
	rc = device_open(ctx, argv[optind], false, &d, &e, &err);
	if (rc) {
		cli_error("%s", err.msg);
		return cli_exit_code(rc);
	}

	/* the drive's own account of its zones: ZBC/ZAC zones, or the geometry
	 * pages; a measured profile is a separate path (see show_measured) */
	if (e.info.zoned == ZONED_HOST_MANAGED || e.info.zoned == ZONED_HOST_AWARE) {
		struct zone_report z;

		rc = zones_report(d, &e.info, &z, &err);
		if (rc == 0) {
			rc = show_zbc(&e, &z, out.columns, out.flags, all);
			zone_report_free(&z);
		}
	} else {
		struct zone_geometry g;

		rc = zones_geometry(d, &e.info, &g, &err);
		if (rc == -EOPNOTSUPP)
			ss_error_set(&err, rc,
				     "%s: reports no zone information: not a zoned drive, and no "
				     "geometry mode pages (03h, 04h, 0Ch)%s",
				     e.spec,
				     e.info.ata ? "; an ATA disk behind a SATL keeps its recording "
						  "zones to itself"
						: "");
		if (rc == 0) {
			rc = show_geometry(&e, &g, out.columns, out.flags);
			zone_geometry_free(&g);
		}
	}
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
