/* drives.h - a drive as both front ends show it: everything `info` prints
 * (also the TUI's detail pane), and how the drive is limited. */
#ifndef SHORTSTROKE_FRONT_DRIVES_H
#define SHORTSTROKE_FRONT_DRIVES_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/devices.h"

struct record;
struct json_object;

/* All of `info` about one drive into a record. */
void describe_drive(struct record *r, const struct dev_entry *e);

/* How a disk is limited (limit.c): "20.0% of 450 GB, scsi-resize
 * (journal)", "no", or "-" when nothing tells (a SCSI disk reports no native
 * capacity and the journal holds no limit); its JSON object (NULL: null). */
bool limit_known(const struct dev_entry *e);
void limit_text(const struct dev_entry *e, char *buf, size_t len);
struct json_object *limit_json(const struct dev_entry *e);

#endif
