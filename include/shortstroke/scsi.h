/* scsi.h - SCSI command builders (pure: fill a CDB, nothing else) and
 * parsers of the answers. Builders return the CDB length. Parsers return
 * 0 or -EINVAL / -EPROTO on a truncated or malformed answer and never read
 * past the length they are given. */
#ifndef SHORTSTROKE_SCSI_H
#define SHORTSTROKE_SCSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCSI_TEST_UNIT_READY 0x00
#define SCSI_REQUEST_SENSE 0x03
#define SCSI_FORMAT_UNIT 0x04
#define SCSI_INQUIRY 0x12
#define SCSI_MODE_SELECT10 0x55
#define SCSI_MODE_SENSE10 0x5a
#define SCSI_READ_CAPACITY10 0x25
#define SCSI_SERVICE_ACTION_IN16 0x9e
#define SCSI_SAI_READ_CAPACITY16 0x10
#define SCSI_ATA_PT16 0x85
#define SCSI_LOG_SENSE 0x4d
#define SCSI_SEND_DIAGNOSTIC 0x1d
#define SCSI_READ10 0x28
#define SCSI_WRITE10 0x2a
#define SCSI_READ16 0x88
#define SCSI_WRITE16 0x8a
#define SCSI_SYNC_CACHE10 0x35
#define SCSI_UNMAP 0x42
#define SCSI_WRITE_SAME16 0x93
#define SCSI_ZBC_IN 0x95
#define SCSI_ZBC_OUT 0x94
#define SCSI_REASSIGN_BLOCKS 0x07
#define SCSI_READ_DEFECT10 0x37
#define SCSI_READ_DEFECT12 0xb7

/* VPD pages */
#define VPD_SUPPORTED 0x00
#define VPD_UNIT_SERIAL 0x80
#define VPD_DEVICE_ID 0x83
#define VPD_ATA_INFO 0x89
#define VPD_BLOCK_CHARS 0xb1

/* Peripheral device types */
#define PDT_DISK 0x00
#define PDT_ZBC 0x14

unsigned scsi_build_test_unit_ready(uint8_t cdb[6]);
unsigned scsi_build_request_sense(uint8_t cdb[6], bool desc, uint8_t alloc);
/* evpd=false: standard INQUIRY (page must be 0) */
unsigned scsi_build_inquiry(uint8_t cdb[6], bool evpd, uint8_t page, uint16_t alloc);
unsigned scsi_build_read_capacity10(uint8_t cdb[10]);
unsigned scsi_build_read_capacity16(uint8_t cdb[16], uint32_t alloc);
/* pc: 0 current, 1 changeable, 2 default, 3 saved */
unsigned scsi_build_mode_sense10(uint8_t cdb[10], bool llbaa, bool dbd, uint8_t pc, uint8_t page,
				 uint8_t subpage, uint16_t alloc);
/* MODE SELECT (10): pf = page format (set it), sp = save pages. */
unsigned scsi_build_mode_select10(uint8_t cdb[10], bool pf, bool sp, uint16_t param_len);
/*
 * FORMAT UNIT. fmtdata: a parameter list follows (see
 * scsi_build_format_param_header); cmplst: the grown defect list is
 * replaced; dlf: defect list format (bits 2:0, 0 when no list).
 * fmtpinfo (bits 1:0) selects the protection type, 0 for none.
 */
unsigned scsi_build_format_unit(uint8_t cdb[6], uint8_t fmtpinfo, bool fmtdata, bool cmplst,
				uint8_t dlf);
/* Short (4-byte) FORMAT UNIT parameter list header, no defect list.
 * immed: return at once, progress is then read with REQUEST SENSE.
 * Returns 4. */
unsigned scsi_build_format_param_header(uint8_t buf[4], bool immed);
/* LOG SENSE: pc as for MODE SENSE (1 = current cumulative). */
unsigned scsi_build_log_sense(uint8_t cdb[10], bool sp, uint8_t pc, uint8_t page, uint8_t subpage,
			      uint16_t param_ptr, uint16_t alloc);
/* SEND DIAGNOSTIC: self_test_code 1 background short, 2 background
 * extended, 4 abort background, 5 foreground short, 6 foreground
 * extended (0 with selftest=true: the default self-test). */
#define SCSI_SELFTEST_BG_SHORT 1
#define SCSI_SELFTEST_BG_EXTENDED 2
#define SCSI_SELFTEST_BG_ABORT 4
#define SCSI_SELFTEST_FG_SHORT 5
#define SCSI_SELFTEST_FG_EXTENDED 6
unsigned scsi_build_send_diagnostic(uint8_t cdb[6], uint8_t self_test_code, bool pf, bool selftest,
				    uint16_t param_len);
unsigned scsi_build_read10(uint8_t cdb[10], uint32_t lba, uint16_t blocks, bool fua);
unsigned scsi_build_write10(uint8_t cdb[10], uint32_t lba, uint16_t blocks, bool fua);
unsigned scsi_build_read16(uint8_t cdb[16], uint64_t lba, uint32_t blocks, bool fua);
unsigned scsi_build_write16(uint8_t cdb[16], uint64_t lba, uint32_t blocks, bool fua);
unsigned scsi_build_sync_cache10(uint8_t cdb[10]);

/* READ DEFECT DATA (10) and (12) (SBC-3 5.13, 5.14): the primary (plist)
 * and/or grown (glist) defect list in a DEFECT LIST FORMAT (bits 2:0). */
#define SCSI_DEFECT_SHORT_BLOCK 0      /* 4-byte LBAs */
#define SCSI_DEFECT_EXT_BYTES_INDEX 1  /* 8 bytes */
#define SCSI_DEFECT_EXT_PHYS_SECTOR 2  /* 8 bytes */
#define SCSI_DEFECT_LONG_BLOCK 3       /* 8-byte LBAs */
#define SCSI_DEFECT_BYTES_FROM_INDEX 4 /* 8 bytes: cylinder, head, bytes */
#define SCSI_DEFECT_PHYS_SECTOR 5      /* 8 bytes: cylinder, head, sector */
#define SCSI_DEFECT_VENDOR 6
unsigned scsi_build_read_defect10(uint8_t cdb[10], bool plist, bool glist, uint8_t format,
				  uint16_t alloc);
unsigned scsi_build_read_defect12(uint8_t cdb[12], bool plist, bool glist, uint8_t format,
				  uint32_t index, uint32_t alloc);

/* The header of a READ DEFECT DATA answer (4 bytes for the (10), 8 for
 * the (12)): which lists it holds, their format and length. count is the
 * number of descriptors the length says (count_known false for a vendor
 * or reserved format, whose descriptor size is not standard). -EPROTO
 * when the header is short. */
struct scsi_defect_list {
	bool plist, glist;   /* PLISTV, GLISTV */
	uint8_t format;	     /* DEFECT LIST FORMAT */
	uint16_t generation; /* (12): GENERATION CODE, 0 for the (10) */
	uint32_t length;     /* DEFECT LIST LENGTH, bytes */
	unsigned desc_len;   /* bytes per descriptor, 0 unknown */
	bool count_known;
	uint32_t count; /* length / desc_len */
};
int scsi_parse_defect_header(const uint8_t *buf, size_t len, bool twelve,
			     struct scsi_defect_list *out);

/* REASSIGN BLOCKS (SBC-3 5.20) with 8-byte LBAs and a 4-byte list length
 * (LONGLBA and LONGLIST set); the parameter list for n LBAs is built by
 * scsi_build_reassign_list into out (4 + 8 n bytes). */
unsigned scsi_build_reassign_blocks(uint8_t cdb[6]);
size_t scsi_build_reassign_list(const uint64_t *lba, unsigned n, uint8_t *out, size_t out_max);
/* ZBC IN / REPORT ZONES: options = REPORTING OPTIONS (0 all zones). */
#define SCSI_ZBC_IN_REPORT_ZONES 0x00
unsigned scsi_build_report_zones(uint8_t cdb[16], uint64_t start_lba, uint32_t alloc,
				 uint8_t options, bool partial);

struct scsi_inquiry {
	uint8_t pdt; /* peripheral device type */
	uint8_t qualifier;
	bool removable;
	uint8_t version;
	char vendor[9]; /* trimmed, NUL terminated */
	char product[17];
	char revision[5];
};
int scsi_parse_inquiry(const uint8_t *buf, size_t len, struct scsi_inquiry *out);

/*
 * Strings out of the parsers below are trimmed of leading and trailing
 * spaces (and NUL padding), NUL terminated; other non-printable bytes
 * become '?'. What each parser insists on (-EPROTO otherwise):
 * INQUIRY 36 bytes; VPD pages the right page code and a PAGE LENGTH that
 * fits in len (B1 at least 4 bytes of page); READ CAPACITY (10) 8 bytes,
 * (16) 16 bytes, a non-zero block length; MODE SENSE (10) the 8-byte
 * header and every block descriptor (the page area may be cut short by
 * the allocation length: pages_len says what is there).
 */

/* VPD 0x00: list of supported pages. Stores at most max codes; *count is
 * the number stored. */
int scsi_parse_vpd_supported(const uint8_t *buf, size_t len, uint8_t *pages, unsigned max,
			     unsigned *count);
/* VPD 0x80: serial, trimmed; -ENOSPC when max is 0. */
int scsi_parse_vpd_serial(const uint8_t *buf, size_t len, char *serial, size_t max);

/* VPD 0x83: the best logical-unit designator (NAA preferred, then EUI-64,
 * then SCSI name string) as hex text, e.g. "5000cca01234567f" (the
 * name string as text, e.g. "naa.5000CCA01234567F").
 * Also reports whether an association=target-port SAS address exists. */
struct scsi_devid {
	char lu_id[80];	    /* "" when none */
	uint8_t lu_id_type; /* designator type: 3 NAA, 2 EUI-64, 8 name */
	bool has_sas_port;  /* protocol identifier 6 (SAS) seen */
	uint64_t sas_port;  /* that target port's SAS address (NAA), 0 none */
	bool has_ata_info;  /* T10 vendor id "ATA" designator seen */
};
int scsi_parse_vpd_devid(const uint8_t *buf, size_t len, struct scsi_devid *out);

/* VPD 0xB1: block device characteristics */
struct scsi_bdc {
	uint16_t rotation_rate; /* 0 not reported, 1 non-rotating, else rpm */
	uint8_t form_factor;	/* 0 n/a, 1 5.25", 2 3.5", 3 2.5", 4 1.8", 5 <1.8" */
	uint8_t zoned;		/* ZONED field: 0 none, 1 host aware, 2 drive managed */
};
int scsi_parse_vpd_bdc(const uint8_t *buf, size_t len, struct scsi_bdc *out);

/* VPD 0xB0: Block Limits (SBC-4), what concerns unmapping */
struct scsi_block_limits {
	uint32_t max_unmap_lba;	  /* MAXIMUM UNMAP LBA COUNT (0: UNMAP not supported) */
	uint32_t max_unmap_descs; /* MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT */
	uint32_t unmap_granularity;
	uint64_t max_write_same; /* MAXIMUM WRITE SAME LENGTH (0: no limit reported) */
};
int scsi_parse_vpd_block_limits(const uint8_t *buf, size_t len, struct scsi_block_limits *out);

/* VPD 0xB2: Logical Block Provisioning (SBC-4) */
struct scsi_lbp {
	bool lbpu;     /* UNMAP supported */
	bool lbpws;    /* WRITE SAME (16) with UNMAP */
	bool lbpws10;  /* WRITE SAME (10) with UNMAP */
	uint8_t lbprz; /* 0: reads of unmapped blocks not defined; 1: zeros */
	bool anc_sup;  /* anchored */
	uint8_t ptype; /* provisioning type: 0 full, 1 resource, 2 thin */
};
int scsi_parse_vpd_lbp(const uint8_t *buf, size_t len, struct scsi_lbp *out);

/* UNMAP (10) with a parameter list of param_len bytes */
unsigned scsi_build_unmap(uint8_t cdb[10], uint16_t param_len);
/* The UNMAP parameter list of one range [lba, lba+blocks) into buf (24
 * bytes): its length */
unsigned scsi_build_unmap_param(uint8_t buf[24], uint64_t lba, uint32_t blocks);
/* WRITE SAME (16): unmap (the UNMAP bit), ndob (no data-out buffer) */
unsigned scsi_build_write_same16(uint8_t cdb[16], uint64_t lba, uint32_t blocks, bool unmap,
				 bool ndob);

struct scsi_capacity {
	uint64_t last_lba;
	uint64_t blocks; /* last_lba + 1 */
	uint32_t block_len;
	uint8_t phys_exp; /* logical blocks per physical block exponent (RC16) */
	bool prot_en;
	uint8_t rc_basis; /* RC BASIS (RC16) */
	uint16_t lowest_aligned;
	bool lbpme, lbprz; /* RC16: logical block provisioning on, unmapped reads zeros */
};
int scsi_parse_read_capacity10(const uint8_t *buf, size_t len, struct scsi_capacity *out);
/* RC16 also fills lbpme and lbprz (byte 14 bits 7 and 6) */
int scsi_parse_read_capacity16(const uint8_t *buf, size_t len, struct scsi_capacity *out);

/* MODE SENSE (10) header and first block descriptor. */
struct scsi_mode10 {
	uint16_t mode_data_len;
	uint8_t medium_type;
	uint8_t dev_specific;
	bool longlba;
	uint16_t bd_len;       /* block descriptor length */
	uint64_t bd_blocks;    /* first descriptor: number of blocks */
	uint32_t bd_block_len; /* first descriptor: block length */
	bool has_bd;
	size_t pages_off; /* offset of the first mode page in buf */
	size_t pages_len; /* bytes of mode pages available from pages_off */
};
int scsi_parse_mode_sense10(const uint8_t *buf, size_t len, struct scsi_mode10 *out);

/* Find mode page (page, subpage) in the page area of a parsed MODE SENSE
 * answer; returns a pointer into buf and its total length, or NULL. */
const uint8_t *scsi_mode_find_page(const uint8_t *buf, size_t len, const struct scsi_mode10 *m,
				   uint8_t page, uint8_t subpage, size_t *page_len);

/*
 * Turn a MODE SENSE (10) answer (buf, len: as returned, with a block
 * descriptor) into a MODE SELECT (10) parameter list that sets the first
 * block descriptor's NUMBER OF LOGICAL BLOCKS to blocks: mode data length
 * zeroed (SPC: reserved in MODE SELECT), medium type and device-specific
 * parameter zeroed, block descriptors kept, mode pages dropped. Works in
 * place (out may equal buf). Returns 0 and *out_len (8 + block descriptor
 * length); -EPROTO for a malformed answer or one without a block
 * descriptor, -EOVERFLOW when blocks does not fit a short (8-byte)
 * descriptor (0xffffffff itself is allowed), -ENOSPC when out_max is too
 * small.
 */
int scsi_mode_set_bd_blocks(const uint8_t *buf, size_t len, uint64_t blocks, uint8_t *out,
			    size_t out_max, size_t *out_len);

/* ---- geometry mode pages (SBC-2; obsolete in later SBC but still
 * reported by many disks). Parsers take one page as scsi_mode_find_page
 * returns it (header included) and insist on the page code and on a
 * PAGE LENGTH that covers the fields and fits in len; -EPROTO otherwise.
 * Implemented in src/drive/geometry.c. */
#define MODE_PAGE_FORMAT 0x03
#define MODE_PAGE_RIGID 0x04
#define MODE_PAGE_NOTCH 0x0c
#define MODE_PAGE_CONTROL 0x0a

/* 0x03 Format Device. With a notched drive the values are those of the
 * active notch. */
struct scsi_format_page {
	uint16_t tracks_per_zone;
	uint16_t alt_sectors_per_zone;
	uint16_t alt_tracks_per_zone;
	uint16_t alt_tracks_per_lu;
	uint16_t sectors_per_track;
	uint16_t bytes_per_sector; /* data bytes per physical sector */
	uint16_t interleave;
	uint16_t track_skew;
	uint16_t cylinder_skew;
	bool ssec, hsec, rmb, surf;
};
int scsi_parse_format_page(const uint8_t *page, size_t len, struct scsi_format_page *out);

/* 0x04 Rigid Disk Geometry */
struct scsi_rigid_page {
	uint32_t cylinders; /* 24 bits */
	uint8_t heads;
	uint32_t write_precomp_cyl;
	uint32_t reduced_current_cyl;
	uint16_t step_rate;
	uint32_t landing_zone_cyl;
	uint8_t rpl; /* rotational position locking */
	uint8_t rotational_offset;
	uint16_t rpm; /* MEDIUM ROTATION RATE, 0 not reported */
};
int scsi_parse_rigid_page(const uint8_t *page, size_t len, struct scsi_rigid_page *out);

/* 0x0C Notch and Partition. notch 0 as the ACTIVE NOTCH refers to the
 * parameters common to all notches; notches are numbered 1..max. With
 * LPN the boundaries are LBAs; without it each is a physical address:
 * cylinder in bits 31:8 and head in 7:0. */
struct scsi_notch_page {
	bool nd;  /* notched drive */
	bool lpn; /* logical (LBA) boundaries */
	uint16_t max_notches;
	uint16_t active_notch;
	uint32_t start;		/* STARTING BOUNDARY of the active notch */
	uint32_t end;		/* ENDING BOUNDARY */
	uint64_t pages_notched; /* bit n: mode page n differs per notch */
};
int scsi_parse_notch_page(const uint8_t *page, size_t len, struct scsi_notch_page *out);

/* The MODE SELECT (10) parameter list that makes notch the active one:
 * an 8-byte header (no block descriptor) and the notch page as sensed
 * (page, plen) with PS cleared and ACTIVE NOTCH set. Pure. Returns 0 and
 * *out_len; -EPROTO for a page that is not a valid notch page, -ENOSPC
 * when out_max is too small. */
int scsi_build_notch_select(const uint8_t *page, size_t plen, uint16_t notch, uint8_t *out,
			    size_t out_max, size_t *out_len);

/* Control mode page (0x0A): EXTENDED SELF-TEST COMPLETION TIME in
 * seconds (bytes 10-11); -EPROTO when the page is too short to hold it. */
int scsi_parse_control_selftest_time(const uint8_t *page, size_t len, uint16_t *seconds);

#endif
