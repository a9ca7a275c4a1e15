/* cpr.h - concurrent positioning ranges: the LBA ranges a drive's actuators
 * serve independently (dual-actuator disks: Seagate MACH.2, WD's
 * dual-actuator Ultrastar). ATA reports them in the Concurrent Positioning
 * Ranges log (47h, ACS-5), SCSI in VPD page B9h (SBC-5); Linux shows them in
 * /sys/block/X/queue/independent_access_ranges/. Pure codec: parsers of
 * both answers, the builders the simulator answers with, and the checks. */
#ifndef SHORTSTROKE_CPR_H
#define SHORTSTROKE_CPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPR_LOG 0x47 /* ATA: the Concurrent Positioning Ranges log */
#define VPD_CPR 0xb9 /* SCSI: the Concurrent Positioning Ranges VPD page */
#define CPR_HDR 64   /* both: header, then 32-byte descriptors */
#define CPR_DESC 32
#define CPR_MAX 14 /* what one 512-byte page of the ATA log holds */

struct cpr_range {
	uint64_t lba;	  /* first LBA, logical blocks */
	uint64_t blocks;  /* LBAs in the range */
	uint8_t elements; /* storage elements (heads) of the range, 0 unknown */
};

struct cpr_ranges {
	unsigned n; /* 0: the drive reports none (one actuator) */
	struct cpr_range r[CPR_MAX];
};

/* The log (buf, len bytes, a whole number of 512-byte pages) or the VPD
 * page, into out. 0; -EPROTO for an answer that is not one (wrong page
 * code, a length past the buffer, descriptors numbered out of order, more
 * than CPR_MAX). A drive with one range says so with n = 1. */
int cpr_parse_ata_log(const uint8_t *buf, size_t len, struct cpr_ranges *out);
int cpr_parse_vpd(const uint8_t *buf, size_t len, struct cpr_ranges *out);

/* The answers a drive with ranges r gives: bytes written (0 when len is
 * too small). The ATA log is one 512-byte page; the VPD page 64 + 32 n. */
size_t cpr_build_ata_log(const struct cpr_ranges *r, uint8_t *buf, size_t len);
size_t cpr_build_vpd(const struct cpr_ranges *r, uint8_t *buf, size_t len);

/* Whether r is what Linux accepts: ranges in LBA order, none empty, each
 * starting where the one before ended, the first at 0, the last ending at
 * blocks (when blocks is not 0). */
bool cpr_valid(const struct cpr_ranges *r, uint64_t blocks);

/* More than one range: the drive has several actuators. */
bool cpr_multi(const struct cpr_ranges *r);

/* The range holding lba, or -1. */
int cpr_range_of(const struct cpr_ranges *r, uint64_t lba);

/* r split into n equal ranges of blocks (the last takes the rest), each
 * with elements heads; n from 1 to CPR_MAX. */
void cpr_split(struct cpr_ranges *r, unsigned n, uint64_t blocks, uint8_t elements);

#endif
