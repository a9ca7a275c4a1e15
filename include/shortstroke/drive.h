/* drive.h - one drive, whatever transport it sits behind: identity and
 * the helpers that send SCSI and ATA commands and turn answers into
 * errors. */
#ifndef SHORTSTROKE_DRIVE_H
#define SHORTSTROKE_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "shortstroke/ata.h"
#include "shortstroke/cpr.h"
#include "shortstroke/error.h"
#include "shortstroke/sense.h"
#include "shortstroke/transport.h"

enum drive_tran {
	TRAN_UNKNOWN = 0,
	TRAN_SATA,
	TRAN_SAS,
	TRAN_ATA, /* parallel ATA */
	TRAN_USB,
	TRAN_SCSI, /* parallel SCSI or unknown SCSI transport */
	TRAN_FC,
	TRAN_ISCSI,
	TRAN_VIRTIO,
	TRAN_NVME,
};
const char *drive_tran_name(enum drive_tran t); /* "sata", "sas", ... */

/* Capacity-limiting methods a drive supports */
enum {
	METHOD_HPA = 1u << 0,
	METHOD_AMAC = 1u << 1,
	METHOD_DCO = 1u << 2,
	METHOD_SCSI_RESIZE = 1u << 3,
	METHOD_SCSI_FORMAT = 1u << 4,
	METHOD_PARTITION = 1u << 5,
	METHOD_NVME_NS = 1u << 6, /* NVMe namespace management (OACS bit 3) */
};

enum zoned_model {
	ZONED_NONE = 0,
	ZONED_HOST_AWARE,
	ZONED_HOST_MANAGED,
	ZONED_DEVICE_MANAGED,
};
const char *zoned_model_name(enum zoned_model z); /* "none", "host-aware", ... */

/* A SCSI disk's medium, as TEST UNIT READY tells it */
enum drive_format {
	DRIVE_FORMAT_NONE = 0,
	DRIVE_FORMAT_RUNNING, /* FORMAT UNIT in progress (NOT READY 04h/04h): the
				   capacity and block size are unknown until it ends */
	DRIVE_FORMAT_CORRUPT, /* MEDIUM FORMAT CORRUPTED (31h): a format was
				   interrupted; only a new format cures it */
};

/* How a drive is told that blocks hold nothing any more (docs/flash.md) */
enum drive_discard {
	DISCARD_NONE,
	DISCARD_ATA_TRIM,   /* DATA SET MANAGEMENT, TRIM (IDENTIFY word 169 bit 0) */
	DISCARD_SCSI_UNMAP, /* UNMAP (VPD B2h LBPU) */
	DISCARD_SCSI_WS16,  /* WRITE SAME (16) with UNMAP (VPD B2h LBPWS) */
};

/* What a read of discarded blocks returns */
enum drive_discard_read {
	DISCARD_READ_UNDEFINED,	    /* not deterministic: old data, zeros, anything */
	DISCARD_READ_DETERMINISTIC, /* the same each time, not said what */
	DISCARD_READ_ZEROS,	    /* zeros */
};

struct drive_info {
	char vendor[9];
	char model[41];
	char serial[41];
	char firmware[9];
	char wwn[40];	   /* hex, "" when unknown */
	uint64_t sas_addr; /* the SAS target port (VPD 83h), 0 none: an enclosure's key */
	enum drive_tran tran;
	bool ata; /* answers ATA PASS-THROUGH (a SATA disk behind SAT) */
	uint32_t logical_block;
	uint32_t physical_block;
	uint64_t capacity_blocks; /* current, as READ CAPACITY says */
	uint64_t native_blocks;	  /* 0 when the drive does not report it */
	uint64_t dco_max_blocks;  /* DCO factory maximum, 0 unknown */
	uint16_t rpm;		  /* 0 unknown, 1 non-rotating */
	uint8_t form_factor;	  /* as VPD B1 encodes it */
	unsigned methods;	  /* METHOD_* */
	bool lba48;
	bool hpa_enabled;
	bool sec_supported, sec_enabled, sec_locked, sec_frozen;
	bool smart_supported, smart_enabled;
	bool ncq;
	enum zoned_model zoned;
	enum drive_format format;
	double format_progress; /* 0..1 while RUNNING (-1: not reported) */
	/* TRIM / UNMAP: how, what reads return after it, and the most a command
	 * takes: blocks (0: no limit said), DSM pages or UNMAP descriptors */
	enum drive_discard discard;
	enum drive_discard_read discard_read;
	uint64_t discard_max_blocks;
	uint32_t discard_max_descs;
	/* NVMe (tran TRAN_NVME): the namespace and what the controller offers */
	struct drive_nvme {
		uint32_t nsid;
		uint16_t cntlid;
		uint16_t oacs;
		bool ns_mgmt, format, selftest; /* OACS bits 3, 1, 4 */
		uint8_t lbaf;			/* the LBA format in use */
		unsigned nlbaf;			/* formats offered */
		uint32_t lbaf_bytes[16];	/* each one's block size (0: not offered) */
		uint16_t lbaf_meta[16];		/* its metadata bytes */
		uint64_t tnvmcap, unvmcap;	/* bytes, 0 when not reported */
		uint16_t edstt;			/* extended self-test minutes */
		char version[12];		/* "1.4" */
	} nvme;
	/* the LBA ranges of its actuators (ATA log 47h, VPD B9h; a kernel disk's
	 * queue/independent_access_ranges when the drive does not tell):
	 * n > 1 on a multi-actuator drive, 0 when none is reported */
	struct cpr_ranges ranges;
};

/* "TRIM", "UNMAP", "WRITE SAME (16) with UNMAP", "" */
const char *drive_discard_name(enum drive_discard d);
/* A sentence on what reads of discarded blocks give, and what that means */
const char *drive_discard_read_text(enum drive_discard_read r);

/* "3.5\"", "2.5\"", ... or "" */
const char *drive_form_factor_name(uint8_t ff);

struct drive;

/* Wrap an open transport; the drive owns it from now on. */
int drive_new(struct transport *t, enum drive_tran tran_hint, struct drive **out,
	      struct ss_error *err);
void drive_free(struct drive *d);
const char *drive_name(const struct drive *d);

/* INQUIRY + VPD, READ CAPACITY (16, falling back to 10), and for ATA
 * disks IDENTIFY DEVICE and READ NATIVE MAX (AMAC or HPA form); for SCSI
 * disks TEST UNIT READY, for the state of a format (while one runs, the
 * capacity and block sizes stay 0 and identification still succeeds).
 * Sends read-only commands only. */
int drive_identify(struct drive *d, struct drive_info *out, struct ss_error *err);

/* READ CAPACITY (16), falling back to (10). */
int drive_read_capacity(struct drive *d, uint64_t *blocks, uint32_t *block_len,
			uint32_t *phys_block, struct ss_error *err);

/* The cached IDENTIFY data of an ATA disk, or NULL. */
const struct ata_identify *drive_ata_identify(const struct drive *d);

/*
 * Send a SCSI command. Returns 0 on GOOD; on CHECK CONDITION returns
 * -EIO (or -EOPNOTSUPP for ILLEGAL REQUEST / invalid opcode or field)
 * with the decoded sense in *sense (may be NULL) and a message in err.
 */
int drive_scsi(struct drive *d, struct xcmd *c, struct scsi_sense *sense, struct ss_error *err);

/*
 * Send a SCSI command that reads data in: cdb (cdb_len bytes) with buf,
 * len bytes, zeroed first, for the answer. *got (may be NULL): the bytes
 * that came (len less the residual), 0 when the command failed. Returns
 * and sense as drive_scsi.
 */
int drive_scsi_in(struct drive *d, const uint8_t *cdb, unsigned cdb_len, void *buf, size_t len,
		  size_t *got, struct scsi_sense *sense, struct ss_error *err);

/*
 * Send an ATA command through SAT. buf/len carry data for PIO/DMA
 * commands (len = tf->xfer_blocks * 512). With ck_cond the returned
 * registers land in *regs. An ATA error (ERR in status) gives -EIO, or
 * -EOPNOTSUPP when ABRT is set, with the registers in *regs.
 */
int drive_ata(struct drive *d, const struct ata_tf *tf, bool ck_cond, void *buf,
	      struct ata_regs *regs, struct ss_error *err);

/*
 * Send an NVMe admin or I/O command (nvme.h builds them). Returns 0 when
 * its status is 0; otherwise -EOPNOTSUPP (invalid opcode or field,
 * invalid format), -EBUSY (a self-test in progress), -ENOSPC (namespace
 * capacity), or -EIO, with the command and the status in err. c->nvme.status
 * and result stay for the caller.
 */
int drive_nvme(struct drive *d, struct xcmd *c, struct ss_error *err);

/*
 * A read or write of n blocks at lba in the drive's own command set:
 * READ (16) / WRITE (16) (FUA when asked), or an NVMe Read / Write of its
 * namespace. c is zeroed first; the caller sets data and data_len.
 */
void drive_build_rw(const struct drive *d, struct xcmd *c, bool write, uint64_t lba, uint32_t n,
		    bool fua);
/*
 * Send what drive_build_rw built: drive_scsi for a CDB; drive_nvme for an
 * NVMe command, whose media errors (status type 2) come back in *sense (may
 * be NULL) as the MEDIUM ERROR the kernel's translation gives (11h/00h
 * unrecovered read error), so one caller serves both.
 */
int drive_rw(struct drive *d, struct xcmd *c, struct scsi_sense *sense, struct ss_error *err);

/* The namespace a namespace created anew got (drive_identify finds it
 * otherwise). */
void drive_nvme_set_nsid(struct drive *d, uint32_t nsid);

/* The Control mode page's D_SENSE bit: descriptor-format sense when set.
 * Needed where ATA registers come back in sense (fixed format loses LBA
 * bits 47:24). */
int drive_get_d_sense(struct drive *d, bool *on, struct ss_error *err);
int drive_set_d_sense(struct drive *d, bool on, struct ss_error *err);

#endif
