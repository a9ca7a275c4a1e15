/* zones.h - what a drive tells about its zones (shortstroke/zones.h's
 * zones_read) as both front ends show it: `zones` and the TUI's zone view
 * print the same record, and the measured profile after it. */
#ifndef SHORTSTROKE_FRONT_ZONES_H
#define SHORTSTROKE_FRONT_ZONES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "table.h"

struct dev_entry;
struct ss_error;
struct zones_info;
struct zprofile;

/* The zone table of a zoned drive (--all): an index into zone_table_cols. */
enum zone_col { ZN_START, ZN_LENGTH, ZN_SIZE, ZN_TYPE, ZN_CONDITION, ZN_WP, ZN_WRITTEN, ZN_COUNT };
extern const struct col_def zone_table_cols[ZN_COUNT];
#define ZONE_DEFAULT "START,LENGTH,TYPE,CONDITION,WP"

/* The notch table of a drive with a Notch page: an index into notch_table_cols. */
enum notch_col { NC_ZONE, NC_FIRST_LBA, NC_LAST_LBA, NC_SIZE, NC_SPT, NC_COUNT };
extern const struct col_def notch_table_cols[NC_COUNT];
#define NOTCH_DEFAULT "ZONE,FIRST-LBA,LAST-LBA,SIZE,SPT"

/* -o names columns of the zone table or of the notch table (which one
 * prints depends on the drive): 0, or -EINVAL with err (usage) for a name
 * in neither (checked before the drive is opened). */
int zones_check_columns(const char *sel, struct ss_error *err);

/* What zones_print prints: the zones of e as read by zones_read, and the
 * profile zp measured on it (NULL: none), as text or JSON (flags, as a
 * table's): sel the columns of the zone or notch table, all the table of
 * every zone of a zoned drive. */
struct zones_show {
	const struct dev_entry *e;
	const struct zones_info *zi;
	const struct zprofile *zp;
	const char *sel;
	unsigned flags;
	bool all;
};

/* z into f. 0, or -EINVAL with err (usage) when sel names a column that
 * table has not (nothing printed). */
int zones_print(FILE *f, const struct zones_show *z, struct ss_error *err);

#endif
