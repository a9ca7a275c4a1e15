/* sat.h - ATA commands carried in SCSI: ATA PASS-THROUGH (16), SAT-3. */
#ifndef SHORTSTROKE_SAT_H
#define SHORTSTROKE_SAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata.h"
#include "shortstroke/sense.h"

/*
 * Build ATA PASS-THROUGH (16) (opcode 0x85) for tf. ck_cond asks the SATL
 * to return the registers in sense even on success (needed for READ
 * NATIVE MAX and friends). T_LENGTH is taken from the sector count field
 * (T_LENGTH=2, BYT_BLOK=1, T_TYPE=0: 512-byte units) for data commands.
 * For a 28-bit tf (!tf->ext) LBA 27:24 are ORed into DEVICE 3:0 and the
 * HOB bytes stay zero. Returns 16.
 */
unsigned sat_build_ata_pt16(uint8_t cdb[16], const struct ata_tf *tf, bool ck_cond);

/* Decode a SAT CDB back into a task file (used by the simulator and by
 * --dry-run's decoder). Returns 0, or -EINVAL for a CDB that is not a
 * well-formed ATA PASS-THROUGH (12 or 16). ck_cond may be NULL.
 *
 * Well-formed: opcode 0xA1 with len 12 or 0x85 with len 16; a defined
 * PROTOCOL (not 2, 7, 13, 14); T_LENGTH zero exactly for the non-data
 * protocols; T_DIR set for the data-in protocols and clear for data-out.
 * For a 28-bit command (0xA1, or 0x85 without EXTEND) tf->lba holds
 * LBA 27:0 with bits 27:24 taken from DEVICE 3:0 (sat_build_ata_pt16 puts
 * them there), and tf->device is the DEVICE byte as sent.
 * tf->xfer_blocks is the transfer length in 512-byte units when the CDB
 * states it (T_LENGTH != 0), rounded up from bytes when BYT_BLOK is 0;
 * with T_TYPE set the unit is the logical sector, which only the device
 * knows: use sat_parse_ata_pt_fields() for that. */
int sat_parse_ata_pt(const uint8_t *cdb, unsigned len, struct ata_tf *tf, bool *ck_cond);

/* The transfer fields of an ATA PASS-THROUGH CDB, raw. */
struct sat_pt_fields {
	uint8_t protocol; /* enum ata_proto */
	uint8_t multiple_count;
	uint8_t off_line;
	bool extend;
	bool ck_cond;
	bool t_type;	  /* 1: T_LENGTH counts logical sectors, 0: 512 bytes */
	bool t_dir;	  /* 1: from the device */
	bool byt_blok;	  /* 1: T_LENGTH counts blocks, 0: bytes */
	uint8_t t_length; /* 0 none, 1 FEATURES, 2 COUNT, 3 TPSIU */
	uint32_t t_value; /* the value of the field T_LENGTH names (0 for 0/3) */
};

/* As sat_parse_ata_pt, also returning the raw transfer fields (f may be
 * NULL). Same validation. */
int sat_parse_ata_pt_fields(const uint8_t *cdb, unsigned len, struct ata_tf *tf,
			    struct sat_pt_fields *f);

/* Fill sense (descriptor format when desc, fixed otherwise) the way a SATL
 * returns registers: sense key RECOVERED ERROR (or ABORTED COMMAND when
 * regs->status has ERR), ASC/ASCQ 0x00/0x1D, ATA Status Return descriptor
 * 0x09. Returns the sense length. Used by the simulator.
 *
 * Descriptor format (22 bytes): 72h, key, 00h, 1Dh, 0, 0, 0, 0Eh, then the
 * descriptor 09h 0Ch EXTEND ERROR COUNT(15:8) COUNT(7:0) LBA(31:24)
 * LBA(7:0) LBA(39:32) LBA(15:8) LBA(47:40) LBA(23:16) DEVICE STATUS; the
 * high bytes are zero unless regs->ext.
 * Fixed format (18 bytes, SAT-3): F0h (VALID set: INFORMATION is defined),
 * INFORMATION = ERROR STATUS DEVICE COUNT(7:0), additional length 0Ah,
 * COMMAND-SPECIFIC INFORMATION = [EXTEND<<7 | COUNT UPPER NONZERO<<6 |
 * LBA UPPER NONZERO<<5] LBA(7:0) LBA(15:8) LBA(23:16), ASC/ASCQ 00h/1Dh.
 * At most max bytes are written; the return value is the bytes written. */
unsigned sat_build_ata_return_sense(uint8_t *sense, unsigned max, bool desc,
				    const struct ata_regs *regs);

/* The command a CDB carries, for a trace: the ATA command of an ATA
 * PASS-THROUGH ("ATA IDENTIFY DEVICE", "ATA SMART READ DATA"), else the SCSI
 * command as sg_lib names it ("Inquiry", "Read capacity(16)"). */
void sat_cdb_describe(const uint8_t *cdb, unsigned len, char *buf, size_t n);

/* A read, write or verify of the medium (SCSI READ, WRITE, VERIFY, WRITE AND
 * VERIFY of 6, 10, 12 and 16 bytes; inside an ATA PASS-THROUGH, the READ,
 * WRITE and READ VERIFY commands of ACS-4): the traffic of a benchmark or a
 * scan, which a log of commands keeps apart from the others. */
bool sat_cdb_is_media(const uint8_t *cdb, unsigned len);

#endif
