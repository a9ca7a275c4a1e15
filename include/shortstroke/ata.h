/* ata.h - ATA commands as task files, and the IDENTIFY DEVICE parser.
 * Task files are pure data; sat.h turns one into an ATA PASS-THROUGH (16)
 * CDB and reads the returned registers back. */
#ifndef SHORTSTROKE_ATA_H
#define SHORTSTROKE_ATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/sense.h"

/* Command opcodes */
#define ATA_IDENTIFY 0xec
#define ATA_READ_NATIVE_MAX 0xf8
#define ATA_READ_NATIVE_MAX_EXT 0x27
#define ATA_SET_MAX 0xf9 /* features: 0 address, 1 set pw, 2 lock, 3 unlock, 4 freeze lock */
#define ATA_SET_MAX_EXT 0x37
#define ATA_AMAC 0x78 /* features: 0 get native, 1 set accessible, 2 freeze */
#define ATA_DCO 0xb1  /* features: 0xc0 restore, 0xc1 freeze, 0xc2 identify, 0xc3 set */
#define ATA_SMART 0xb0
#define ATA_READ_LOG_EXT 0x2f
#define ATA_READ_LOG_DMA_EXT 0x47
#define ATA_SECURITY_FREEZE_LOCK 0xf5
#define ATA_CHECK_POWER_MODE 0xe5
#define ATA_ZAC_MGMT_IN 0x4a /* REPORT ZONES EXT: feature 0x00 */
#define ATA_READ_DMA_EXT 0x25
#define ATA_WRITE_DMA_EXT 0x35
#define ATA_READ_VERIFY_EXT 0x42
#define ATA_FLUSH_CACHE_EXT 0xea
#define ATA_DSM 0x06 /* DATA SET MANAGEMENT: feature bit 0 TRIM */

/* Status / error register bits */
#define ATA_STAT_ERR 0x01
#define ATA_STAT_DRQ 0x08
#define ATA_STAT_DF 0x20
#define ATA_STAT_DRDY 0x40
#define ATA_STAT_BSY 0x80
#define ATA_ERR_ABRT 0x04
#define ATA_ERR_IDNF 0x10

/* ATA protocols as SAT encodes them in the PROTOCOL field */
enum ata_proto {
	ATA_PROTO_NON_DATA = 3,
	ATA_PROTO_PIO_IN = 4,
	ATA_PROTO_PIO_OUT = 5,
	ATA_PROTO_DMA = 6,
	ATA_PROTO_DEV_DIAG = 8,
	ATA_PROTO_DEV_RESET = 9,
	ATA_PROTO_UDMA_IN = 10,
	ATA_PROTO_UDMA_OUT = 11,
	ATA_PROTO_FPDMA = 12,
	ATA_PROTO_RETURN_RESP = 15,
};

/* A command as the ATA task file holds it. */
struct ata_tf {
	uint8_t command;
	uint16_t feature; /* 15:8 only with ext */
	uint16_t count;	  /* 15:8 only with ext */
	uint64_t lba;	  /* 27:0 (28-bit) or 47:0 (ext) */
	uint8_t device;	  /* bit 6 LBA mode; 3:0 LBA 27:24 for 28-bit */
	bool ext;	  /* a 48-bit command */
	enum ata_proto proto;
	unsigned xfer_blocks; /* 512-byte blocks of data (PIO/DMA) */
	bool write;	      /* data goes to the device */
};

/* Task-file builders. Pure: they fill tf and nothing else. */
void ata_tf_identify(struct ata_tf *tf);
void ata_tf_read_native_max(struct ata_tf *tf, bool ext);
/* SET MAX ADDRESS: lba is the new max LBA; volatile_ => VV bit clear */
void ata_tf_set_max_address(struct ata_tf *tf, bool ext, uint64_t max_lba, bool volatile_);
void ata_tf_set_max_freeze_lock(struct ata_tf *tf);
void ata_tf_amac_get_native(struct ata_tf *tf);
void ata_tf_amac_set_accessible(struct ata_tf *tf, uint64_t max_lba);
void ata_tf_amac_freeze(struct ata_tf *tf);
void ata_tf_dco_identify(struct ata_tf *tf);
void ata_tf_dco_restore(struct ata_tf *tf);
void ata_tf_dco_freeze(struct ata_tf *tf);
void ata_tf_dco_set(struct ata_tf *tf);
/* SMART: feature 0xd0 read data, 0xd1 thresholds, 0xda return status,
 * 0xd5 read log (log address, blocks), 0xd6 write log, 0xd4 execute
 * offline (subcommand in lba_low). Data commands carry their block count
 * in count (SAT takes T_LENGTH from it); 0xd0/0xd1 always 1. */
void ata_tf_smart(struct ata_tf *tf, uint8_t feature, uint8_t lba_low, uint8_t count);
void ata_tf_read_log_ext(struct ata_tf *tf, uint8_t log, uint16_t page, uint16_t blocks);
void ata_tf_security_freeze_lock(struct ata_tf *tf);
void ata_tf_check_power_mode(struct ata_tf *tf);
void ata_tf_flush_cache_ext(struct ata_tf *tf);
/* READ VERIFY SECTORS EXT: blocks 0 means 65536. */
void ata_tf_read_verify_ext(struct ata_tf *tf, uint64_t lba, uint32_t blocks);
/* ZAC MANAGEMENT IN / REPORT ZONES EXT: pages of 512 bytes to read,
 * options = REPORTING OPTIONS (bits 5:0), partial = PARTIAL bit. */
void ata_tf_report_zones_ext(struct ata_tf *tf, uint64_t start_lba, uint16_t pages, uint8_t options,
			     bool partial);

/* Max LBA out of the registers a READ NATIVE MAX / GET NATIVE MAX returned. */
uint64_t ata_regs_lba(const struct ata_regs *r, bool ext);

/* DATA SET MANAGEMENT with TRIM, pages 512-byte pages of range entries
 * (DMA out) */
void ata_tf_dsm_trim(struct ata_tf *tf, uint16_t pages);
/* Range entries for TRIM of [lba, lba+blocks) into buf (len bytes, a
 * multiple of 512, zeroed first): at most 65535 blocks an entry. Returns the
 * blocks covered (less than asked when buf is full). */
uint64_t ata_dsm_trim_ranges(uint8_t *buf, size_t len, uint64_t lba, uint64_t blocks);

/* IDENTIFY DEVICE, parsed. */
struct ata_identify {
	char model[41]; /* byte-swapped and trimmed */
	char serial[21];
	char firmware[9];
	uint64_t wwn; /* words 108-111, 0 when absent */
	bool lba48;
	uint64_t capacity28;   /* words 60-61: user addressable sectors (28-bit) */
	uint64_t capacity48;   /* words 100-103 */
	uint64_t capacity_ext; /* words 230-233 when word 69 bit 3, else 0 */
	uint64_t capacity;     /* the one that applies, in logical sectors:
				   capacity_ext, else capacity48 with lba48,
				   else capacity28 */
	uint32_t logical_size; /* bytes per logical sector (512 unless word 106 says) */
	uint32_t physical_size;
	uint16_t rotation_rate; /* word 217: 0 not reported, 1 non-rotating */
	uint8_t form_factor;	/* word 168 bits 3:0 */
	uint16_t major_version; /* word 80 */
	bool smart_supported, smart_enabled;
	bool hpa_supported, hpa_enabled; /* word 82 bit 10 / word 85 bit 10 */
	bool amac_supported;		 /* word 119 bit 8 (ACS-3) */
	bool dco_supported;		 /* word 83 bit 11 */
	bool sec_supported, sec_enabled, sec_locked, sec_frozen, sec_count_expired;
	bool ncq;		/* word 76 bit 8 */
	uint8_t ncq_depth;	/* word 75 + 1 */
	uint8_t zoned;		/* word 69 bits 1:0: 0 none, 1 host aware, 2 drive managed */
	bool zac_host_managed;	/* host-managed: major device type / signature not in IDENTIFY;
				   set by the caller from the signature, kept here */
	bool smart_selftest;	/* word 84 bit 1 */
	bool gpl;		/* word 84 bit 5: general purpose logging */
	bool checksum_valid;	/* word 255: signature 0xa5 and checksum good, or no signature */
	bool trim;		/* word 169 bit 0: DATA SET MANAGEMENT TRIM */
	bool trim_drat;		/* word 69 bit 14: deterministic read after TRIM */
	bool trim_rzat;		/* word 69 bit 5: reads zeros after TRIM */
	uint16_t dsm_max_pages; /* word 105: 512-byte pages of ranges a command (0: 1) */
};
/* buf: 512 bytes of IDENTIFY data as the device sent it (little-endian
 * words). Returns 0; -EPROTO when len < 512, when word 255 carries the
 * 0xa5 signature and the checksum is wrong (checksum_valid false), or when
 * words 117-118 give a logical sector size outside 512 B..64 KiB (then
 * logical_size stays 512); out is filled in all the same. Strings are trimmed of leading and trailing
 * spaces; non-printable bytes become '?'. */
int ata_parse_identify(const uint8_t *buf, size_t len, struct ata_identify *out);

/* The 512-byte data structures of ATA (IDENTIFY, SMART data and logs, the
 * DCO structure) end in a checksum: byte 511 makes all 512 bytes sum to 0
 * (mod 256). ok: they do; set: write byte 511 so that they do (a structure
 * with a signature byte 510 gets it first). */
bool ata_checksum_ok(const uint8_t *buf);
void ata_checksum_set(uint8_t *buf);

/* ATA string field (byte-swapped words) to trimmed C string. buf must
 * hold at least (word + nwords) * 2 bytes. */
void ata_id_string(const uint8_t *buf, unsigned word, unsigned nwords, char *out, size_t outlen);

#endif
