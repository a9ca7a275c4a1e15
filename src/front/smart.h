/* smart.h - a disk's health (shortstroke/smart.h's report) as both front
 * ends show it: `smart` and the TUI's SMART view print the same record. */
#ifndef SHORTSTROKE_FRONT_SMART_H
#define SHORTSTROKE_FRONT_SMART_H

#include <stdbool.h>
#include <stdint.h>

#include "table.h"

struct record;
struct dev_entry;
struct smart_report;

/* The ATA attribute table's columns: an index into smart_attr_cols. */
enum smart_attr_col {
	AC_ID,
	AC_NAME,
	AC_VALUE,
	AC_WORST,
	AC_THRESH,
	AC_RAW,
	AC_PRETTY,
	AC_FLAGS,
	AC_TYPE,
	AC_STATUS,
	AC_COUNT
};
extern const struct col_def smart_attr_cols[AC_COUNT];
#define SMART_ATTR_DEFAULT "ID,NAME,VALUE,WORST,THRESH,RAW,PRETTY,FLAGS,STATUS"

/* What the text shows besides the verdict and the key figures (JSON has
 * everything). */
struct smart_view {
	bool attrs;	     /* the attribute table (ATA) or the error counters (SCSI) */
	bool log;	     /* the self-test log and the ATA error log */
	const char *columns; /* the attribute table's (-o; checked with
				 * table_check_columns first), NULL: the default */
};

/* One disk's health into d: the verdict, the key figures, the attribute
 * table (ATA) or the log pages (SCSI), the self-test log. */
void smart_disk_record(struct record *d, const struct dev_entry *e, const struct smart_report *r,
		       const struct smart_view *v);

/* The keys a script written for smartctl's JSON (json_format_version 1)
 * finds, beside ours, into a disk's record d: model_name, serial_number,
 * firmware_version, user_capacity {blocks, bytes}, logical_block_size,
 * smart_status.passed, temperature.current, power_on_time.hours,
 * ata_smart_attributes {table: [{id, name (smartctl's), value, worst,
 * thresh, flags {value, string, prefailure, ...}, raw {value, string}}]},
 * scsi_grown_defect_list. */
void smart_smartctl_keys(struct record *d, const struct dev_entry *e, const struct smart_report *r);

/* The short health summary `info` shows after a drive's identity (text on
 * r, JSON under "health"): the verdict, and on SCSI the grown defect list,
 * the error counters, start-stop cycles and background scans; on ATA the
 * reallocated and pending sectors. rep NULL: why not in why (null). */
void smart_health_record(struct record *r, const struct smart_report *rep, const char *why);

#endif
