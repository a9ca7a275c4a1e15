/* zbc.h - the ZBC/ZAC zone codec (ZBC-2, ZAC-2): zone types and
 * conditions, the zone list REPORT ZONES (SCSI, big-endian fields) and
 * REPORT ZONES EXT (ATA, the same layout little-endian) return, the
 * builders of both commands, and the summary of a list by type and
 * condition. Pure (src/drive/zbc.c); the operation that reads a drive's
 * zones is zones.h.
 */
#ifndef SHORTSTROKE_ZBC_H
#define SHORTSTROKE_ZBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata.h"

/* ZONE TYPE (ZBC-2 / ZAC-2) */
#define ZONE_TYPE_CONVENTIONAL 0x1
#define ZONE_TYPE_SEQ_REQUIRED 0x2
#define ZONE_TYPE_SEQ_PREFERRED 0x3
#define ZONE_TYPE_SEQ_OR_BEFORE 0x4 /* sequential or before required */
#define ZONE_TYPE_GAP 0x5

/* ZONE CONDITION */
#define ZONE_COND_NOT_WP 0x0
#define ZONE_COND_EMPTY 0x1
#define ZONE_COND_IMP_OPEN 0x2
#define ZONE_COND_EXP_OPEN 0x3
#define ZONE_COND_CLOSED 0x4
#define ZONE_COND_INACTIVE 0x5
#define ZONE_COND_READ_ONLY 0xd
#define ZONE_COND_FULL 0xe
#define ZONE_COND_OFFLINE 0xf

#define ZONES_HDR_LEN 64
#define ZONES_DESC_LEN 64

struct zone_desc {
	uint8_t type;	/* ZONE_TYPE_* */
	uint8_t cond;	/* ZONE_COND_* */
	bool non_seq;	/* NON_SEQ: written out of order (host aware) */
	bool reset;	/* RESET: a reset write pointer is recommended */
	uint64_t len;	/* blocks */
	uint64_t start; /* first LBA */
	uint64_t wp;	/* write pointer; meaningless for NOT_WP/conventional */
};

/* The 64-byte header of a zone list. */
struct zone_list_hdr {
	uint32_t list_len; /* ZONE LIST LENGTH: bytes of descriptors (all of them) */
	uint8_t same;	   /* SAME (3:0) */
	uint64_t max_lba;  /* MAXIMUM LBA (ZBC) / max LBA (ZAC) */
	uint32_t total;	   /* list_len / 64: zones the device reports from the start LBA */
	uint32_t here;	   /* descriptors present in this buffer */
	bool truncated;	   /* a partial descriptor at the end was dropped */
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

const char *zone_type_name(uint8_t type); /* "conventional", "seq-required", ... */
const char *zone_cond_name(uint8_t cond); /* "empty", "full", ... */

struct zone_summary {
	uint64_t zones;
	uint64_t conventional, seq_required, seq_preferred, seq_or_before, gap, other_type;
	uint64_t not_wp, empty, imp_open, exp_open, closed, inactive, read_only, full, offline,
	    other_cond;
	uint64_t conventional_blocks, sequential_blocks;
	uint64_t written_blocks; /* sum of (wp - start) in open/closed/full zones */
};
void zones_summarize(const struct zone_desc *zones, size_t n, struct zone_summary *s);

#endif
