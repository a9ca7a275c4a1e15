/* sense.h - SCSI sense data normalised into one small struct.
 * Decoding goes through sg3_utils' sg_lib (sg_scsi_normalize_sense,
 * sg_get_sense_progress_fld, sg_scsi_sense_desc_find); no private tables. */
#ifndef SHORTSTROKE_SENSE_H
#define SHORTSTROKE_SENSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sense keys */
#define SK_NO_SENSE 0x0
#define SK_RECOVERED_ERROR 0x1
#define SK_NOT_READY 0x2
#define SK_MEDIUM_ERROR 0x3
#define SK_HARDWARE_ERROR 0x4
#define SK_ILLEGAL_REQUEST 0x5
#define SK_UNIT_ATTENTION 0x6
#define SK_DATA_PROTECT 0x7
#define SK_ABORTED_COMMAND 0xb

/* Registers an ATA device returned (the ATA Status Return descriptor,
 * type 0x09, or the fixed-format equivalent of SAT). */
struct ata_regs {
	uint8_t status;
	uint8_t error;
	uint8_t device;
	uint16_t count; /* 15:8 only valid when ext */
	uint64_t lba;	/* 47:24 only valid when ext */
	bool ext;	/* EXTEND bit: the HOB bytes are valid */
};

struct scsi_sense {
	bool valid;	 /* a recognised response code (0x70-0x73) */
	bool descriptor; /* descriptor format (0x72/0x73) */
	bool deferred;	 /* 0x71/0x73 */
	uint8_t key, asc, ascq;
	bool info_valid;
	uint64_t info;
	bool progress_valid;
	uint32_t progress;	 /* 0..65536, as in the sense-key-specific field */
	bool ata_valid;		 /* ATA registers present */
	bool ata_fixed;		 /* came from fixed format: LBA 47:24 lost */
	bool ata_count_upper_nz; /* fixed format: COUNT 15:8 was non-zero */
	bool ata_lba_upper_nz;	 /* fixed format: LBA 47:24 was non-zero */
	struct ata_regs ata;
};

/*
 * Decode len bytes of sense. Returns 0, or -EINVAL when buf holds no
 * recognisable sense (out->valid is then false), -EPROTO when it is
 * shorter than the 8-byte header. Never reads past len.
 * ATA registers come from the ATA Status Return descriptor (0x09) of
 * descriptor sense, or, for fixed sense with ASC/ASCQ 0x00/0x1D (ATA
 * PASS-THROUGH information available), from the fixed fields as SAT
 * places them (ata_fixed set; info_valid is then false, since the
 * INFORMATION field holds registers). When ext is false, the HOB halves
 * (count 15:8, lba 47:24) are zero.
 */
int scsi_sense_decode(const uint8_t *buf, size_t len, struct scsi_sense *out);

/* One line, e.g. "Illegal Request: Invalid field in cdb (0x24/0x00)",
 * followed by ", progress 42%" and ", ATA status 0x51 error 0x04" when
 * those are valid; "no sense data" when s->valid is false. */
void scsi_sense_describe(const struct scsi_sense *s, char *buf, size_t len);

#endif
