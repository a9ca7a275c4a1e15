/* zones.h - zone information of a drive: the ZBC/ZAC zones of SMR disks
 * (REPORT ZONES, REPORT ZONES EXT; the codec is zbc.h), and the recording
 * zones a disk describes in its geometry mode pages (Format Device, Rigid
 * Disk Geometry, Notch).
 *
 * The operations (src/ops/zones.c) send read-only commands, except that
 * listing the notches selects each notch in turn and restores the active
 * one, which a caller allows only on a disk it may change.
 */
#ifndef SHORTSTROKE_ZONES_H
#define SHORTSTROKE_ZONES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/scsi.h"
#include "shortstroke/zbc.h"

#define ZONES_MAX_ZONES (1u << 24) /* a sanity bound against a runaway device */

struct zone_report {
	enum zoned_model model;
	bool zac;     /* read with ATA REPORT ZONES EXT (little-endian) */
	uint8_t same; /* of the first answer */
	uint64_t max_lba;
	struct zone_desc *zones; /* owned */
	size_t count;
	struct zone_summary summary;
};

/*
 * Read every zone: REPORT ZONES (SCSI) or, on an ATA disk, REPORT ZONES
 * EXT through SAT, page by page from LBA 0 until the list ends. A disk
 * that is not zoned (or drive-managed, which hides its zones) gives
 * -EOPNOTSUPP "<dev>: not a zoned drive (no ZBC/ZAC zones)". Release with
 * zone_report_fini.
 */
int zones_report(struct drive *d, const struct drive_info *info, struct zone_report *out,
		 struct ss_error *err);
void zone_report_fini(struct zone_report *r);

/* One recording zone (notch) as the Notch page describes it. */
struct zone_notch {
	uint16_t notch; /* 1..max */
	bool lba;	/* LPN: start/end are LBAs; else cylinder<<8|head */
	uint32_t start, end;
	bool has_format; /* Format Device page read for this notch */
	uint16_t sectors_per_track;
	uint16_t tracks_per_zone;
};

struct zone_geometry {
	bool has_format;
	struct scsi_format_page format; /* as the drive reports it now */
	bool has_rigid;
	struct scsi_rigid_page rigid;
	bool has_notch;
	struct scsi_notch_page notch; /* with the original active notch */
	struct zone_notch *notches;   /* owned; empty if not notched */
	size_t nnotches;
	bool notches_skipped; /* notched, but not walked (walk false) */
	char note[256];	      /* why something is missing, "" if nothing */
};

/*
 * Read the geometry mode pages 0x03, 0x04 and 0x0C (current values). On
 * a notched drive (ND set), with walk, list every notch: MODE SELECT the
 * notch page with ACTIVE NOTCH = n, MODE SENSE 0x0C (and 0x03 for its
 * sectors per track) for n = 1..max, then restore the original active
 * notch, also when a step failed. Nothing else is changed. Without walk
 * (a disk in use or protected: MODE SELECT changes a setting of it) only
 * MODE SENSE is sent, and notches_skipped says the list is missing. A
 * page the drive does not report is left out (has_* false) with a word in
 * note; a drive that reports none of them gives -EOPNOTSUPP (the usual
 * answer of an ATA disk behind SAT, whose SATL emulates no geometry pages).
 */
int zones_geometry(struct drive *d, const struct drive_info *info, bool walk,
		   struct zone_geometry *out, struct ss_error *err);
void zone_geometry_fini(struct zone_geometry *g);

/* What a drive tells about its zones, as `zones` shows it: the zone report
 * of a zoned drive (host-managed or host-aware), else its geometry pages. */
struct zones_info {
	bool zoned; /* report is filled, else geometry */
	struct zone_report report;
	struct zone_geometry geometry;
};

/*
 * Read it (spec names the drive in messages). walk as for zones_geometry:
 * false for a disk in use or protected (no MODE SELECT is sent to it; the
 * notch list is left out, notches_skipped). A drive that is not zoned and
 * reports no geometry pages gives -EOPNOTSUPP ("reports no zone
 * information"), unless measured (its zone profile was measured instead):
 * then 0 with no pages and a note that says so. Release with zones_info_fini
 * (also after a failure).
 */
int zones_read(struct drive *d, const char *spec, const struct drive_info *info, bool walk,
	       bool measured, struct zones_info *out, struct ss_error *err);
void zones_info_fini(struct zones_info *zi);

#endif
