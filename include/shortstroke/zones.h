/* zones.h - zone information of a drive: ZBC/ZAC zones of SMR disks
 * (REPORT ZONES, REPORT ZONES EXT), and the recording zones a disk
 * describes in its geometry mode pages (Format Device, Rigid Disk
 * Geometry, Notch).
 *
 * Parsers and builders (src/drive/zbc.c) are pure; the operations
 * (src/ops/zones.c) send read-only commands, except that listing the
 * notches selects each notch in turn and restores the active one.
 */
#ifndef SHORTSTROKE_ZONES_H
#define SHORTSTROKE_ZONES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata.h"
#include "shortstroke/drive.h"
#include "shortstroke/error.h"
#include "shortstroke/scsi.h"

/* ZONE TYPE (ZBC-2 / ZAC-2) */
#define ZONE_TYPE_CONVENTIONAL		0x1
#define ZONE_TYPE_SEQ_REQUIRED		0x2
#define ZONE_TYPE_SEQ_PREFERRED		0x3
#define ZONE_TYPE_SEQ_OR_BEFORE		0x4	/* sequential or before required */
#define ZONE_TYPE_GAP			0x5

/* ZONE CONDITION */
#define ZONE_COND_NOT_WP		0x0
#define ZONE_COND_EMPTY			0x1
#define ZONE_COND_IMP_OPEN		0x2
#define ZONE_COND_EXP_OPEN		0x3
#define ZONE_COND_CLOSED		0x4
#define ZONE_COND_INACTIVE		0x5
#define ZONE_COND_READ_ONLY		0xd
#define ZONE_COND_FULL			0xe
#define ZONE_COND_OFFLINE		0xf

#define ZONES_HDR_LEN	64
#define ZONES_DESC_LEN	64

struct zone_desc {
	uint8_t type;		/* ZONE_TYPE_* */
	uint8_t cond;		/* ZONE_COND_* */
	bool non_seq;		/* NON_SEQ: written out of order (host aware) */
	bool reset;		/* RESET: a reset write pointer is recommended */
	uint64_t len;		/* blocks */
	uint64_t start;		/* first LBA */
	uint64_t wp;		/* write pointer; meaningless for NOT_WP/conventional */
};

/* The 64-byte header of a zone list. */
struct zone_list_hdr {
	uint32_t list_len;	/* ZONE LIST LENGTH: bytes of descriptors (all of them) */
	uint8_t same;		/* SAME (3:0) */
	uint64_t max_lba;	/* MAXIMUM LBA (ZBC) / max LBA (ZAC) */
	uint32_t total;		/* list_len / 64: zones the device reports from the start LBA */
	uint32_t here;		/* descriptors present in this buffer */
	bool truncated;		/* a partial descriptor at the end was dropped */
};

/*
 * Parse a zone list as REPORT ZONES (ZBC, big-endian fields, zac false)
 * or REPORT ZONES EXT (ZAC, the same layout in little-endian, zac true)
 * returns it. Stores at most max descriptors in zones (may be NULL with
 * max 0 to read the header only); *count says how many. Returns 0;
 * -EPROTO when len < 64 (no header). Never reads past len; descriptors
 * beyond what list_len announces are ignored.
 */
int zones_parse_list(const uint8_t *buf, size_t len, bool zac, struct zone_list_hdr *hdr,
		     struct zone_desc *zones, size_t max, size_t *count);

/* REPORT ZONES (ZBC IN, all zones, PARTIAL clear) for alloc bytes. */
unsigned zones_build_report_scsi(uint8_t cdb[16], uint64_t start_lba, uint32_t alloc);
/* REPORT ZONES EXT (ZAC MANAGEMENT IN) for pages 512-byte pages. */
void zones_tf_report(struct ata_tf *tf, uint64_t start_lba, uint16_t pages);

const char *zone_type_name(uint8_t type);	/* "conventional", "seq-required", ... */
const char *zone_cond_name(uint8_t cond);	/* "empty", "full", ... */

struct zone_summary {
	uint64_t zones;
	uint64_t conventional, seq_required, seq_preferred, seq_or_before, gap, other_type;
	uint64_t not_wp, empty, imp_open, exp_open, closed, inactive, read_only, full,
		offline, other_cond;
	uint64_t conventional_blocks, sequential_blocks;
	uint64_t written_blocks;	/* sum of (wp - start) in open/closed/full zones */
};
void zones_summarize(const struct zone_desc *zones, size_t n, struct zone_summary *s);

/* ---- operations ---------------------------------------------------------- */

#define ZONES_MAX_ZONES (1u << 24)	/* a sanity bound against a runaway device */

struct zone_report {
	enum zoned_model model;
	bool zac;		/* read with ATA REPORT ZONES EXT (little-endian) */
	uint8_t same;		/* of the first answer */
	uint64_t max_lba;
	struct zone_desc *zones;	/* owned */
	size_t count;
	struct zone_summary summary;
};

/*
 * Read every zone: REPORT ZONES (SCSI) or, on an ATA disk, REPORT ZONES
 * EXT through SAT, page by page from LBA 0 until the list ends. A disk
 * that is not zoned (or drive-managed, which hides its zones) gives
 * -EOPNOTSUPP "<dev>: not a zoned drive (no ZBC/ZAC zones)". Free with
 * zone_report_free.
 */
int zones_report(struct drive *d, const struct drive_info *info, struct zone_report *out,
		 struct ss_error *err);
void zone_report_free(struct zone_report *r);

/* One recording zone (notch) as the Notch page describes it. */
struct zone_notch {
	uint16_t notch;		/* 1..max */
	bool lba;		/* LPN: start/end are LBAs; else cylinder<<8|head */
	uint32_t start, end;
	bool has_format;	/* Format Device page read for this notch */
	uint16_t sectors_per_track;
	uint16_t tracks_per_zone;
};

/*
 * A point of a measured transfer-rate profile. Nothing in this module
 * produces these: the `zones --measure` profile (zone-bit-recording speed
 * measured by reading across the disk) of a later issue fills
 * zone_geometry.measured. zones_geometry() leaves it empty;
 * zone_geometry_free() frees it.
 */
struct zone_rate_point {
	uint64_t lba;		/* first LBA of the measured stretch */
	uint64_t blocks;
	double mib_per_s;
};

struct zone_geometry {
	bool has_format;
	struct scsi_format_page format;		/* as the drive reports it now */
	bool has_rigid;
	struct scsi_rigid_page rigid;
	bool has_notch;
	struct scsi_notch_page notch;		/* with the original active notch */
	struct zone_notch *notches;		/* owned; empty if not notched */
	size_t nnotches;
	char note[256];				/* why something is missing, "" if nothing */
	/* measured profile: see struct zone_rate_point */
	struct zone_rate_point *measured;	/* owned */
	size_t nmeasured;
};

/*
 * Read the geometry mode pages 0x03, 0x04 and 0x0C (current values). On
 * a notched drive (ND set) list every notch: MODE SELECT the notch page
 * with ACTIVE NOTCH = n, MODE SENSE 0x0C (and 0x03 for its sectors per
 * track) for n = 1..max, then restore the original active notch, also
 * when a step failed. Nothing else is changed. A page the drive does not
 * report is left out (has_* false) with a word in note; a drive that
 * reports none of them gives -EOPNOTSUPP (the usual answer of an ATA
 * disk behind SAT, whose SATL emulates no geometry pages).
 */
int zones_geometry(struct drive *d, const struct drive_info *info, struct zone_geometry *out,
		   struct ss_error *err);
void zone_geometry_free(struct zone_geometry *g);

#endif
