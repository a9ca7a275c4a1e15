/* profile.c - the measured zone profile's chart, tables and record
 * (profile.h). */
#include <math.h>
#include <stdio.h>

#include "glyphs.h"
#include "profile.h"
#include "record.h"
#include "shortstroke/zprofile.h"
#include "table.h"

#define CHART_W 64
#define CHART_H 12

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

/* A chart's cell of a column of value v in the row whose middle is level,
 * step high: ASCII '#' from the middle up, else the eighths filled. */
static const char *chart_cell(double v, double level, double step)
{
	const struct glyphs *g = glyphs();
	double frac = (v - (level - step / 2)) / step;

	if (!g->utf8)
		return v >= level ? "#" : " ";
	if (frac <= 0)
		return g->vblock[0];
	return g->vblock[frac >= 1 ? 8 : (int)(frac * 8 + 0.5)];
}

/* A bar per column: the mean of the samples that fall in it. */
static void print_chart(FILE *f, const struct zprofile *z)
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
	fprintf(f, "Read rate across the disk, MB/s (%u samples):\n", z->npoints);
	for (int r = CHART_H; r >= 1; r--) {
		double level = lo + range * (r - 0.5) / CHART_H;

		if (r == CHART_H)
			fprintf(f, "%7.1f %s", hi, glyphs()->v);
		else if (r == 1)
			fprintf(f, "%7.1f %s", lo, glyphs()->v);
		else
			fprintf(f, "        %s", glyphs()->v);
		for (unsigned c = 0; c < w; c++)
			fputs(col[c] < 0 ? "x" : chart_cell(col[c], level, range / CHART_H), f);
		fputc('\n', f);
	}
	fprintf(f, "        %s", glyphs()->bl);
	for (unsigned c = 0; c < w; c++)
		fputs(glyphs()->h, f);
	fprintf(f, "\n         0%%%*s\n", (int)w - 2, "100%");
}

void profile_print(FILE *f, const char *spec, const struct zprofile *z, double keep_pct,
		   unsigned flags)
{
	double keep = keep_pct > 0 ? keep_pct : ZPROFILE_KEEP_DEFAULT;
	char name[32];
	struct table *t;

	fprintf(f, "%s: outer %.1f MB/s, inner %.1f MB/s (%.0f%%)%s\n", spec, z->outer_mbps,
		z->inner_mbps, z->outer_mbps > 0 ? 100.0 * z->inner_mbps / z->outer_mbps : 0,
		z->errors ? ", some samples failed (x)" : "");
	print_chart(f, z);
	fputc('\n', f);
	t = table_new(zone_cols, ZC_COUNT, "ZONE,START,END,SAMPLES,AVG-MB/S,MIN-MB/S,MAX-MB/S",
		      NULL, NULL);
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
		table_print(t, f, flags, "zones");
	table_free(t);
	fputc('\n', f);
	t = table_new(cut_cols, CC_COUNT, "CUT,KEEP,KEEP-%,WORST-MB/S,WORST-%,AVG-MB/S,BLOCKS,NOTE",
		      NULL, NULL);
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
		table_print(t, f, flags, "cuts");
	table_free(t);
	if (z->recommended < 0 && z->ncuts && z->cuts[z->ncuts - 1].worst_pct >= keep)
		fprintf(f, "\nNo cut recommended: the whole disk keeps %.0f%% of the outer rate.\n",
			z->cuts[z->ncuts - 1].worst_pct);
	else if (z->recommended < 0)
		fprintf(f,
			"\nNo cut recommended: no zone keeps %.0f%% of the outer rate (an uneven "
			"profile: try more --points or a larger --sample).\n",
			keep);
	fputc('\n', f);
}
