/* ata_smart.h - what the ATA SMART commands return, parsed (ACS-3): SMART
 * READ DATA (the fields outside the attribute table), the self-test logs
 * (SMART log 06h, GPL log 07h), the summary error log (01h) and the
 * registers of SMART RETURN STATUS. Pure: bytes in, fields out; nothing
 * is sent (src/drive/ata_smart.c). The attribute table and thresholds are
 * read by libatasmart (smart.h), the task files are built by ata.h.
 */
#ifndef SHORTSTROKE_ATA_SMART_H
#define SHORTSTROKE_ATA_SMART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata.h"

#define ATA_SMART_SECTOR 512

/* SMART READ DATA, the fields outside the attribute table. */
struct ata_smart_data {
	uint8_t offline_status;	    /* byte 362 */
	uint8_t selftest_byte;	    /* byte 363: status (7:4), remaining/10 (3:0) */
	uint16_t offline_seconds;   /* bytes 364-365 */
	uint8_t offline_caps;	    /* byte 367 */
	uint16_t smart_caps;	    /* bytes 368-369 */
	bool errlog_supported;	    /* byte 370 bit 0 */
	bool selftest_supported;    /* byte 367 bit 4 */
	bool conveyance_supported;  /* byte 367 bit 5 */
	bool abort_supported;	    /* byte 367 bit 0 (execute offline immediate) */
	uint8_t short_minutes;	    /* byte 372 */
	uint16_t extended_minutes;  /* byte 373, or bytes 375-376 when it is 0xFF */
	uint8_t conveyance_minutes; /* byte 374 */
	bool checksum_ok;	    /* byte 511 makes the sector sum to 0 */
};
/* -EPROTO when len < 512 (out zeroed); a bad checksum is checksum_ok false. */
int ata_smart_parse_data(const uint8_t *buf, size_t len, struct ata_smart_data *out);

/* The self-test status nibble (7:4 of the execution status byte and of a
 * log descriptor's status): 0 completed without error, 1-2 aborted,
 * 3-8 failed, ATA_SELFTEST_IN_PROGRESS running. */
#define ATA_SELFTEST_IN_PROGRESS 0xf
const char *ata_smart_selftest_status_text(uint8_t status);

/* One descriptor of a self-test log, as the drive wrote it. */
struct ata_selftest_desc {
	uint8_t test;	/* byte 0: the LBA low of the EXECUTE OFF-LINE that ran it
				   (01h short, 02h extended, 03h conveyance, +80h captive) */
	uint8_t status; /* byte 1: status nibble (7:4), remaining / 10 (3:0) */
	uint16_t hours; /* bytes 2-3: life timestamp, power-on hours */
	uint64_t lba;	/* failing LBA: bytes 5-8 (06h) or 5-10 (07h) */
	bool lba_unset; /* the LBA field is all ones (or 0FFFFFFFh in 06h): none */
};
/* Self-test log: SMART log 06h (21 descriptors of 24 bytes, 28-bit LBA)
 * or, ext, GPL log 07h (19 of 26 bytes a 512-byte page, 48-bit LBA).
 * Descriptors newest first (from the descriptor index), unused slots
 * skipped; at most max stored, *count says how many. -EPROTO when len <
 * 512. */
int ata_smart_parse_selftest_log(const uint8_t *buf, size_t len, bool ext,
				 struct ata_selftest_desc *out, size_t max, size_t *count);

/* Summary SMART error log (log 01h): 5 error data structures. */
struct ata_smart_error {
	uint8_t command; /* the command that failed (5th command structure) */
	uint8_t feature;
	uint8_t error, status;
	uint32_t lba; /* 28-bit, from the error structure */
	uint8_t state;
	uint16_t power_on_hours;
};
struct ata_smart_errlog {
	uint16_t error_count; /* DEVICE ERROR COUNT (bytes 452-453) */
	unsigned count;	      /* entries stored, newest first */
	struct ata_smart_error e[5];
	bool checksum_ok;
};
/* -EPROTO when len < 512. */
int ata_smart_parse_error_log(const uint8_t *buf, size_t len, struct ata_smart_errlog *out);

/* SMART RETURN STATUS as registers: 1 good (LBA mid/high 4Fh/C2h),
 * 0 threshold exceeded (F4h/2Ch), -EPROTO for anything else. */
int ata_smart_status_from_regs(const struct ata_regs *r);

/* The selective self-test log (ACS-3 A.19, SMART log 09h): revision 1, up
 * to ATA_SELECTIVE_SPANS spans of [first, last] LBAs (little-endian, from
 * byte 2), the checksum. Pure; n larger than the log holds: -EINVAL. */
#define ATA_SELECTIVE_SPANS 5
int ata_smart_build_selective_log(uint8_t buf[ATA_SMART_SECTOR], const uint64_t *first,
				  const uint64_t *last, unsigned n);

#endif
