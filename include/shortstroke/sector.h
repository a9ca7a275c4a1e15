/* sector.h - the sector size codec (512e <-> 4Kn): what sizes a drive
 * offers (SCSI: the Supported Block Lengths and Protection Types VPD page
 * B7h, SBC-4; ATA: the Sector Configuration log 2Fh, ACS-4) and the
 * commands that change it (SCSI: a MODE SELECT block descriptor with the
 * new length, then FORMAT UNIT with FFMT, fast format; ATA: SET SECTOR
 * CONFIGURATION EXT). Pure (src/drive/sector.c); parsers never read past
 * the length they are given. */
#ifndef SHORTSTROKE_SECTOR_H
#define SHORTSTROKE_SECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata.h"

#define VPD_BLOCK_LENGTHS 0xb7
#define ATA_LOG_SECTOR_CONFIG 0x2f
#define ATA_SET_SECTOR_CONFIG_EXT 0xb2

#define SECTOR_SIZES_MAX 16
#define SECTOR_ATA_DESCRIPTORS 8 /* SET SECTOR CONFIGURATION's index is 3 bits */
#define SECTOR_ATA_DESC_LEN 16

struct sector_size {
	uint32_t bytes; /* logical block length */
	uint16_t check; /* ATA: the descriptor's COMMAND CHECK, 0 for SCSI */
	uint8_t index;	/* ATA: the descriptor's index (SET SECTOR CONFIGURATION) */
	bool pi;	/* SCSI: protection information may be used with it */
};

struct sector_sizes {
	unsigned n;
	struct sector_size s[SECTOR_SIZES_MAX];
};

/* VPD B7h: descriptors of 8 bytes - LOGICAL BLOCK LENGTH (0-3, big-endian),
 * P_I_I_SUP and the checks (4), T3PS..T0PS (5). -EPROTO for another page
 * or a PAGE LENGTH past len; sizes of 0 are skipped. */
int sector_parse_vpd_b7(const uint8_t *buf, size_t len, struct sector_sizes *out);
/* Log 2Fh page 0: 8 descriptors of 16 bytes - DESCRIPTOR CHECK (2-3),
 * LENGTH OF LOGICAL SECTOR in words (4-7), little-endian; a descriptor
 * with either 0 is not offered. -EPROTO when len < 128. */
int sector_parse_ata_log(const uint8_t *buf, size_t len, struct sector_sizes *out);
/* The size of bytes among them, or NULL */
const struct sector_size *sector_find(const struct sector_sizes *s, uint32_t bytes);

/* SET SECTOR CONFIGURATION EXT: COMMAND CHECK in FEATURE, the descriptor
 * index in COUNT 2:0 */
void sector_tf_set_config(struct ata_tf *tf, uint16_t check, uint8_t index);
/* FORMAT UNIT with a parameter list (FMTDATA) and FFMT 01b: a fast format
 * that sets the new block length without writing the medium. Returns 6. */
unsigned sector_build_fast_format(uint8_t cdb[6]);
/* Set the block length of the first block descriptor of a MODE SELECT
 * (10) parameter list (as scsi_mode_set_bd_blocks builds it, len bytes).
 * -EPROTO when it holds no descriptor. */
int sector_mode_set_length(uint8_t *param, size_t len, uint32_t block_len);

#endif
