/* elem.h - the storage element codec (SBC-4 and ACS-4/5 storage element
 * depopulation): GET PHYSICAL ELEMENT STATUS with each element's health,
 * REMOVE ELEMENT AND TRUNCATE, RESTORE ELEMENTS AND REBUILD and, for
 * zoned disks, REMOVE ELEMENT AND MODIFY ZONES; SCSI (SERVICE ACTION
 * IN (16), big-endian fields) and ATA (the same data little-endian).
 * Pure (src/drive/elem.c): builders fill a CDB or a task file, the parser
 * reads an answer and never reads past the length it is given.
 */
#ifndef SHORTSTROKE_ELEM_H
#define SHORTSTROKE_ELEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata.h"

/* SERVICE ACTION IN (16), opcode 9Eh: the service actions */
#define SCSI_SAI_GET_ELEM_STATUS 0x17
#define SCSI_SAI_REMOVE_ELEM 0x18
#define SCSI_SAI_RESTORE_ELEMS 0x19
#define SCSI_SAI_REMOVE_ELEM_ZONES 0x1a

/* ATA commands (ACS-4, ACS-5) */
#define ATA_GET_PHYS_ELEM_STATUS 0x12 /* DMA, 48-bit */
#define ATA_REMOVE_ELEM_TRUNCATE 0x7c
#define ATA_RESTORE_ELEMS_REBUILD 0x7d
#define ATA_REMOVE_ELEM_ZONES 0x7e

/* The answer: a 32-byte header, then 32-byte descriptors */
#define ELEM_HDR_LEN 32
#define ELEM_DESC_LEN 32

/* FILTER (CDB byte 14 bits 7:6 / ATA FEATURE 15:14) */
#define ELEM_FILTER_ALL 0
#define ELEM_FILTER_OUT_OF_SPEC 1 /* outside the limits or with depopulation news */
/* REPORT TYPE (bits 3:0) */
#define ELEM_REPORT_PHYSICAL 0
#define ELEM_REPORT_STORAGE 1

/* PHYSICAL ELEMENT TYPE */
#define ELEM_TYPE_STORAGE 0x01

/* PHYSICAL ELEMENT HEALTH: 01h-63h within the manufacturer's limits,
 * 64h at the limit, 65h-CFh beyond it, then the depopulation states */
#define ELEM_HEALTH_AT_LIMIT 0x64
#define ELEM_HEALTH_OVER_MAX 0xcf
#define ELEM_HEALTH_RESTORE_ERROR 0xfb
#define ELEM_HEALTH_RESTORING 0xfc
#define ELEM_HEALTH_DEPOP_ERROR 0xfd
#define ELEM_HEALTH_DEPOPULATING 0xfe
#define ELEM_HEALTH_DEPOPULATED 0xff

/* ASSOCIATED CAPACITY all ones: not specified */
#define ELEM_CAPACITY_UNSPECIFIED UINT64_MAX

/* What a health byte says */
enum elem_health_class {
	ELEM_NOT_REPORTED = 0,
	ELEM_OK,	   /* within the limits */
	ELEM_AT_LIMIT,	   /* at the manufacturer's limit */
	ELEM_OVER_LIMIT,   /* beyond it */
	ELEM_DEPOPULATED,  /* removed, no errors */
	ELEM_DEPOPULATING, /* removal in progress */
	ELEM_DEPOP_ERROR,  /* removed, errors detected */
	ELEM_RESTORING,	   /* restoration in progress */
	ELEM_RESTORE_ERROR,
	ELEM_RESERVED,
};
enum elem_health_class elem_health_class(uint8_t health);
/* "ok", "at limit", "over limit", "depopulated", ... */
const char *elem_health_name(uint8_t health);
/* A limit near enough to flag: a health at or above ELEM_HEALTH_NEAR in
 * the in-spec range, or any worse class (qualify warns) */
#define ELEM_HEALTH_NEAR 0x50
bool elem_health_near_limit(uint8_t health);
/* The element serves data (not removed, not being removed) */
bool elem_health_in_service(uint8_t health);

struct elem_status_hdr {
	uint32_t total;	      /* NUMBER OF DESCRIPTORS */
	uint32_t returned;    /* NUMBER OF DESCRIPTORS RETURNED */
	uint32_t depop_id;    /* IDENTIFIER OF ELEMENT BEING DEPOPULATED, 0 none */
	uint16_t max_depop;   /* CURRENT MAXIMUM NUMBER OF DEPOPULATED ELEMENTS, 0 not reported */
	uint16_t depopulated; /* CURRENT NUMBER OF DEPOPULATED ELEMENTS */
	uint32_t here;	      /* descriptors present in the buffer */
};

struct elem_desc {
	uint32_t id;	   /* ELEMENT IDENTIFIER (non-zero) */
	bool restore_ok;   /* RALWD: restoration allowed */
	uint8_t type;	   /* ELEM_TYPE_* */
	uint8_t health;	   /* PHYSICAL ELEMENT HEALTH */
	uint64_t capacity; /* ASSOCIATED CAPACITY: blocks the capacity shrinks by when
			      the element is removed (ELEM_CAPACITY_UNSPECIFIED) */
};

/*
 * Parse an answer (ata: little-endian fields). Stores at most max
 * descriptors; *count says how many. -EPROTO when len < 16 (no counts);
 * descriptors beyond those the header says were returned are ignored, a
 * partial one at the end is dropped.
 */
int elem_parse_status(const uint8_t *buf, size_t len, bool ata, struct elem_status_hdr *hdr,
		      struct elem_desc *desc, size_t max, size_t *count);

/* SCSI builders (16-byte CDBs; return 16) */
unsigned elem_build_get_status(uint8_t cdb[16], uint32_t start, uint32_t alloc, uint8_t filter,
			       uint8_t report);
/* requested: the capacity after the removal in blocks, 0 for the drive's choice */
unsigned elem_build_remove(uint8_t cdb[16], uint32_t element, uint64_t requested);
unsigned elem_build_restore(uint8_t cdb[16]);
unsigned elem_build_remove_zones(uint8_t cdb[16], uint32_t element);

/* ATA task files. pages: 512-byte pages to read. max_lba: the requested
 * maximum LBA after the removal, 0 for the drive's choice. */
void elem_tf_get_status(struct ata_tf *tf, uint32_t start, uint16_t pages, uint8_t filter,
			uint8_t report);
void elem_tf_remove(struct ata_tf *tf, uint32_t element, uint64_t max_lba);
void elem_tf_restore(struct ata_tf *tf);
void elem_tf_remove_zones(struct ata_tf *tf, uint32_t element);
/* The element identifier a REMOVE ELEMENT task file carries (COUNT 15:0,
 * FEATURE 15:0 as identifier bits 15:0 and 31:16) */
uint32_t elem_tf_element(const struct ata_tf *tf);

#endif
