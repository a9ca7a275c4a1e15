/* drives.h - a drive as both front ends show it: the drive table's column
 * registry and its rows (`list`, the TUI's table), everything `info` prints
 * (also the TUI's detail pane), and how the drive is limited. */
#ifndef SHORTSTROKE_FRONT_DRIVES_H
#define SHORTSTROKE_FRONT_DRIVES_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/devices.h"
#include "table.h"

struct record;

/* The drive table's columns: an index into drive_cols. */
enum drive_col {
	DRV_DEVICE,
	DRV_TRAN,
	DRV_VENDOR,
	DRV_MODEL,
	DRV_SERIAL,
	DRV_FIRMWARE,
	DRV_WWN,
	DRV_SIZE,
	DRV_NATIVE,
	DRV_LIMITED,
	DRV_RPM,
	DRV_LOG_SEC,
	DRV_PHY_SEC,
	DRV_METHODS,
	DRV_ZONED,
	DRV_SPARE,
	DRV_USED,
	DRV_STATE,
	DRV_ACTUATORS,
	DRV_OP, /* flash drives: over-provisioning (docs/flash.md) */
	DRV_HEALTH,
	DRV_SLOT,
	DRV_COUNT
};
extern const struct col_def drive_cols[DRV_COUNT];
#define DRIVE_COLS_DEFAULT "DEVICE,TRAN,MODEL,SERIAL,FIRMWARE,SIZE,NATIVE,LIMITED,RPM,STATE"

/* A row of the drive table for e: every selected column set; health is the
 * SMART verdict ("PASSED", ...; NULL: not read), which costs commands of its
 * own: read only when the HEALTH column is selected (table_has_col). */
void drive_row(struct table *t, const struct dev_entry *e, const char *health);

/* All of `info` about one drive into a record. */
void describe_drive(struct record *r, const struct dev_entry *e);

/* How a disk is limited (limit.c): "20.0% of 450 GB, scsi-resize
 * (journal)", "no", or "-" when nothing tells (a SCSI disk reports no native
 * capacity and the journal holds no limit); limit_known says whether
 * anything tells. */
bool limit_known(const struct dev_entry *e);
void limit_text(const struct dev_entry *e, char *buf, size_t len);
/* The same as JSON under key: an object, or null when the disk is not limited. */
void limit_record(struct record *r, const char *key, const struct dev_entry *e);

struct encl_slot;
/* The enclosure slot of a disk as JSON, under key of r: its enclosure's name, id,
 * vendor and product, the slot, its element descriptor, status and LEDs. */
void encl_slot_record(struct record *r, const char *key, const struct encl_slot *s);

#endif
