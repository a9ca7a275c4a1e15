/* transport.h - send one CDB to a drive, get status, sense and data back.
 *
 * Two backends plug in through struct transport_ops: "sgio" (SG_IO via
 * sg3_utils' pass-through object) and "sim" (the in-process simulator).
 * Nothing above this layer knows which one it has.
 */
#ifndef SHORTSTROKE_TRANSPORT_H
#define SHORTSTROKE_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"

enum xfer_dir {
	XFER_NONE = 0,
	XFER_FROM_DEV, /* data-in: drive to host */
	XFER_TO_DEV,   /* data-out: host to drive */
};

/* SCSI status bytes we act on */
#define SCSI_STATUS_GOOD 0x00
#define SCSI_STATUS_CHECK_CONDITION 0x02
#define SCSI_STATUS_BUSY 0x08
#define SCSI_STATUS_RESERVATION_CONFLICT 0x18
#define SCSI_STATUS_TASK_ABORTED 0x40

#define XCMD_SENSE_MAX 96

/* What a command is: a CDB (SCSI, or ATA through SAT), or an NVMe admin or
 * I/O command (the submission entry's fields a host sets; the completion's
 * dword 0 and status come back). A zeroed xcmd is a CDB. */
enum xcmd_kind {
	XCMD_CDB = 0,
	XCMD_NVME_ADMIN,
	XCMD_NVME_IO,
};

struct xcmd_nvme {
	uint8_t opcode;
	uint32_t nsid;
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
	/* the answer */
	uint32_t result; /* completion dword 0 */
	uint16_t status; /* status field: SC bits 7:0, SCT 10:8, CRD 12:11, M 13, DNR 14 */
};

/* One command. The caller fills the first block; the transport the second. */
struct xcmd {
	enum xcmd_kind kind;
	struct xcmd_nvme nvme; /* kind XCMD_NVME_*: the command instead of cdb */
	uint8_t cdb[32];
	unsigned cdb_len;
	enum xfer_dir dir;
	void *data;
	size_t data_len;
	unsigned timeout_ms; /* 0: the transport's default (60 s) */
	/* a read whose data the caller never looks at (a scan, a benchmark):
	 * the transport may leave data as it was, as SG_FLAG_NO_DXFER does;
	 * status, sense, resid and timing are those of the full read */
	bool discard;

	uint8_t status; /* SCSI status byte (an NVMe command: GOOD, or CHECK CONDITION
			   when nvme.status is not 0) */
	uint8_t sense[XCMD_SENSE_MAX];
	unsigned sense_len;   /* bytes of sense returned */
	size_t resid;	      /* data_len minus bytes actually moved */
	uint64_t duration_ns; /* as the transport measured it (virtual on sim) */
};

struct transport;

#define TRANSPORT_CDB (1u << 0)
#define TRANSPORT_NVME (1u << 1)

struct transport_ops {
	const char *name; /* "sgio", "sim", "nvme" */
	/*
	 * Deliver the command. Returns 0 when the drive answered, whatever
	 * its status (CHECK CONDITION is a device answer, not an OS error);
	 * a negative errno when the command could not be delivered (device
	 * gone, host/driver error, timeout), with err filled.
	 */
	int (*exec)(struct transport *t, struct xcmd *c, struct ss_error *err);
	void (*close)(struct transport *t);
	/* the kinds of command it carries: TRANSPORT_CDB (0 says the same),
	 * TRANSPORT_NVME */
	unsigned kinds;
};

struct transport {
	const struct transport_ops *ops;
	void *priv;
	char name[128]; /* the device as the user named it */
	uint32_t nsid;	/* NVMe: the namespace the node names (0: none or not known) */
};

/* Validate ops (name, exec and close are required) and fill t. */
int transport_init(struct transport *t, const struct transport_ops *ops, void *priv,
		   const char *name, struct ss_error *err);

/* Send through t->ops->exec, then call the watch hook (transport_set_watch). */
int transport_exec(struct transport *t, struct xcmd *c, struct ss_error *err);

/*
 * A hook every transport calls after every command it delivered (or
 * failed to deliver): --verbose installs one, so
 * that nothing above the transport has to remember to log. Set it once,
 * before any command is sent or thread started; NULL removes it. fn may
 * be called from several threads at once (a batch): it serialises itself.
 */
typedef void (*transport_watch_fn)(void *arg, const struct transport *t, const struct xcmd *c,
				   int rc);
void transport_set_watch(transport_watch_fn fn, void *arg);

/* Close and free a transport returned by one of the openers. NULL is fine. */
void transport_close(struct transport *t);

/* SG_IO backend. Opens path read-write (O_NONBLOCK) unless read_only. */
int transport_open_sgio(const char *path, bool read_only, struct transport **out,
			struct ss_error *err);

/* NVMe backend (libnvme's passthrough ioctls): path is a namespace's block
 * device (/dev/nvme0n1) or a controller's character device (/dev/nvme0);
 * admin commands go to the controller, whose node is opened beside a
 * namespace's so that a namespace deleted and created again is still
 * reachable. Read-only unless asked. */
int transport_open_nvme(const char *path, bool read_only, struct transport **out,
			struct ss_error *err);

/* Whether t carries commands of kind (TRANSPORT_CDB, TRANSPORT_NVME). A
 * backend that names no kinds carries CDBs. */
bool transport_carries(const struct transport *t, unsigned kind);

/* Direction as text: "none", "in", "out". */
const char *xfer_dir_name(enum xfer_dir d);

#endif
