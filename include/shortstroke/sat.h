/* sat.h - ATA commands carried in SCSI: ATA PASS-THROUGH (16), SAT-3. */
#ifndef SHORTSTROKE_SAT_H
#define SHORTSTROKE_SAT_H

#include <stdbool.h>
#include <stdint.h>

#include "shortstroke/ata.h"
#include "shortstroke/sense.h"

/*
 * Build ATA PASS-THROUGH (16) (opcode 0x85) for tf. ck_cond asks the SATL
 * to return the registers in sense even on success (needed for READ
 * NATIVE MAX and friends). T_LENGTH is taken from the sector count field
 * (T_LENGTH=2, BYT_BLOK=1) for data commands. Returns 16.
 */
unsigned sat_build_ata_pt16(uint8_t cdb[16], const struct ata_tf *tf, bool ck_cond);

/* Decode a SAT CDB back into a task file (used by the simulator and by
 * --dry-run's decoder). Returns 0, or -EINVAL for a CDB that is not a
 * well-formed ATA PASS-THROUGH (12 or 16). ck_cond may be NULL. */
int sat_parse_ata_pt(const uint8_t *cdb, unsigned len, struct ata_tf *tf, bool *ck_cond);

/* Fill sense (descriptor format when desc, fixed otherwise) the way a SATL
 * returns registers: sense key RECOVERED ERROR (or ABORTED COMMAND when
 * regs->status has ERR), ASC/ASCQ 0x00/0x1D, ATA Status Return descriptor
 * 0x09. Returns the sense length. Used by the simulator. */
unsigned sat_build_ata_return_sense(uint8_t *sense, unsigned max, bool desc,
				    const struct ata_regs *regs);

#endif
