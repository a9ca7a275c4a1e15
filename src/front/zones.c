/* zones.c - what a drive tells about its zones, as `zones` and the TUI's
 * zone view show it (zones.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile.h"
#include "record.h"
#include "shortstroke/devices.h"
#include "shortstroke/units.h"
#include "shortstroke/zones.h"
#include "shortstroke/zprofile.h"
#include "table.h"
#include "zones.h"

const struct col_def zone_table_cols[ZN_COUNT] = {
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

const struct col_def notch_table_cols[NC_COUNT] = {
	[NC_ZONE] = { "ZONE", COL_U64, true, 0, 0, "notch number (1 is the outermost)" },
	[NC_FIRST_LBA] = { "FIRST-LBA", COL_U64, true, 0, 0, "first LBA of the recording zone" },
	[NC_LAST_LBA] = { "LAST-LBA", COL_U64, true, 0, 0, "last LBA" },
	[NC_SIZE] = { "SIZE", COL_SIZE, true, 0, 0, "capacity of the zone" },
	[NC_SPT] = { "SPT", COL_U64, true, 0, 0,
		     "sectors per track (Format Device page for the notch)" },
};

/* "524 conventional, 51632 seq-required" and {"conventional": 524, ...} */
static void count_add(struct record *o, char *text, size_t len, const char *name, const char *key,
		      uint64_t n)
{
	size_t l = strlen(text);

	if (!n)
		return;
	snprintf(text + l, len - l, "%s%" PRIu64 " %s", l ? ", " : "", n, name);
	record_set_u64(o, key, n);
}

/* ---- zoned drives ---- */

/* A zoned drive's report; t (NULL: none) gets every zone, r takes it. */
static struct record *zbc_record(const struct dev_entry *e, const struct zone_report *z,
				 struct table *t, const struct zprofile *zp)
{
	const struct zone_summary *s = &z->summary;
	uint32_t bs = e->info.logical_block;
	struct record *r, *types, *conds;
	char text[320], h[32], h2[32];

	r = record_new();
	record_str(r, "Device", "device", e->spec);
	record_str(r, "Zoned", "zoned", zoned_model_name(z->model));
	record_str(r, "Zone report", "source",
		   z->zac ? "REPORT ZONES EXT (ZAC)" : "REPORT ZONES (ZBC)");
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
				       (d->wp - d->start > d->len ? d->len : d->wp - d->start) *
					   bs);
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
	return r;
}

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

/* Why the notch list of a disk that may not be changed is left out (the
 * walk is a MODE SELECT: zones --force allows it; the TUI never does). */
static void notches_skipped(struct record *r, const struct dev_entry *e)
{
	const char *state = e->state == DEV_PROTECTED ? "protected"
			    : e->state == DEV_IN_USE  ? "in use"
						      : "not checked";
	char text[128];

	snprintf(text, sizeof(text),
		 "%s: per-zone notch detail needs MODE SELECT; --force to allow", state);
	record_str(r, "Notch list", "notch_list_missing", text);
}

/* Another drive's geometry pages; t (NULL: none) gets the notches, r takes
 * it. */
static struct record *geometry_record(const struct dev_entry *e, const struct zone_geometry *g,
				      struct table *t, const struct zprofile *zp)
{
	uint32_t bs = e->info.logical_block;
	struct record *r = record_new();
	char text[200];

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
	if (g->notches_skipped)
		notches_skipped(r, e);
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
	return r;
}

int zones_check_columns(const char *sel, struct ss_error *err)
{
	char name[64];

	if (!sel)
		return 0;
	if (!sel[0]) { /* "no columns selected" */
		return table_check_columns(zone_table_cols, ZN_COUNT, ZONE_DEFAULT, sel, err);
	}
	for (const char *p = sel[0] == '+' ? sel + 1 : sel; *p;) {
		size_t n = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n && table_check_columns(zone_table_cols, ZN_COUNT, ZONE_DEFAULT, name, err) &&
		    table_check_columns(notch_table_cols, NC_COUNT, NOTCH_DEFAULT, name, err))
			return -EINVAL;
		p += n + (p[n] == ',');
	}
	return 0;
}

int zones_print(FILE *f, const struct zones_show *z, struct ss_error *err)
{
	const struct zones_info *zi = z->zi;
	bool listed = zi->zoned ? z->all : zi->geometry.nnotches > 0;
	struct table *t = NULL;
	struct record *r;

	if (listed) {
		t = zi->zoned ? table_new(zone_table_cols, ZN_COUNT, ZONE_DEFAULT, z->sel, err)
			      : table_new(notch_table_cols, NC_COUNT, NOTCH_DEFAULT, z->sel, err);
		if (!t)
			return -EINVAL;
	}
	if (zi->zoned)
		r = zbc_record(z->e, &zi->report, t, z->zp);
	else
		r = geometry_record(z->e, &zi->geometry, t, z->zp);
	record_print(r, f, z->flags);
	if (z->zp && !(z->flags & TABLE_JSON)) {
		fputc('\n', f);
		profile_print(f, z->e->spec, z->zp, 0, z->flags & TABLE_BYTES);
	}
	record_free(r);
	return 0;
}
