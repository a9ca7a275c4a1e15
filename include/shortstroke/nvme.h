/* nvme.h - the NVMe codec: pure builders of admin and I/O commands (an xcmd
 * of kind XCMD_NVME_*) and parsers of what a controller answers (Identify
 * Controller and Namespace, the SMART / Health Information log, the Device
 * Self-test log), over libnvme's structures and constants. No I/O: the
 * executor is drive_nvme (drive.h); the simulator decodes with the same. */
#ifndef SHORTSTROKE_NVME_H
#define SHORTSTROKE_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/transport.h"

#define NVME_ID_LEN 4096       /* an Identify data structure */
#define NVME_SMART_LOG_LEN 512 /* SMART / Health Information (02h) */
#define NVME_ST_LOG_LEN 564    /* Device Self-test (06h): 4 + 20 x 28 */
#define NVME_ST_LOG_ENTRIES 20 /* results it holds */
#define NVME_LBAF_MAX 64       /* LBA formats an Identify Namespace can list */
#define NVME_NSID_ALL_NS 0xffffffffu

/* Device self-test codes (Device Self-test command, CDW10 bits 3:0) */
enum nvme_st {
	NVME_ST_SHORT = 0x1,
	NVME_ST_EXTENDED = 0x2,
	NVME_ST_ABORT = 0xf,
};

/* ---- builders: each fills c (zeroed first) and nothing else ---- */

/* Identify: cns 00h namespace (nsid), 01h controller, 02h active
 * namespace list (from nsid), 10h allocated list; buf of NVME_ID_LEN. */
void nvme_build_identify(struct xcmd *c, uint8_t cns, uint32_t nsid, void *buf);
/* Get Log Page lid for nsid into buf (len bytes, a multiple of 4). */
void nvme_build_get_log(struct xcmd *c, uint8_t lid, uint32_t nsid, void *buf, uint32_t len);
/* Device Self-test: code (enum nvme_st) on nsid (all: NVME_NSID_ALL_NS). */
void nvme_build_selftest(struct xcmd *c, uint32_t nsid, uint8_t code);
/* Format NVM of nsid to LBA format lbaf (0..63), ses 0 none, 1 user data
 * erase. */
void nvme_build_format(struct xcmd *c, uint32_t nsid, uint8_t lbaf, uint8_t ses);
/* Namespace Management create: buf (NVME_ID_LEN, zeroed and filled here) the
 * host's part of an Identify Namespace: size nsze = capacity ncap blocks of
 * LBA format lbaf. The new nsid comes back in the completion's dword 0. */
void nvme_build_ns_create(struct xcmd *c, void *buf, uint64_t nsze, uint8_t lbaf);
void nvme_build_ns_delete(struct xcmd *c, uint32_t nsid);
/* Namespace Attachment: attach (or detach) nsid to the controller cntlid;
 * buf (NVME_ID_LEN) gets the controller list. */
void nvme_build_ns_attach(struct xcmd *c, uint32_t nsid, bool attach, uint16_t cntlid, void *buf);
/* Read or Write of nlb blocks (1..65536) at slba; buf of len bytes. */
void nvme_build_rw(struct xcmd *c, bool write, uint32_t nsid, uint64_t slba, uint32_t nlb,
		   void *buf, size_t len);

/* ---- what the controller answers ---- */

struct nvme_ctrl_info {
	uint16_t vid, ssvid;
	char serial[21], model[41], firmware[9]; /* trimmed */
	uint8_t ieee[3];
	uint16_t cntlid;
	uint32_t ver; /* 0x00010400: 1.4 */
	uint16_t oacs;
	bool can_format, can_ns_mgmt, can_selftest; /* OACS bits 1, 3, 4 */
	uint8_t fna;				    /* Format NVM Attributes */
	uint16_t edstt;				    /* extended self-test time, minutes */
	uint16_t wctemp, cctemp;		    /* kelvin, 0 unreported */
	uint64_t tnvmcap, unvmcap;		    /* bytes (low 64 bits of the 128-bit fields) */
	uint32_t nn;				    /* namespaces the controller may have */
	uint8_t vwc;				    /* a volatile write cache (bit 0) */
};

struct nvme_lbaf_info {
	uint32_t bytes; /* the data size (2^LBADS), 0: not offered */
	uint16_t meta;	/* metadata bytes */
	uint8_t rp;	/* relative performance: 0 best .. 3 degraded */
};

struct nvme_ns_info {
	uint64_t nsze, ncap, nuse; /* blocks */
	unsigned nlbaf;		   /* formats offered (NLBAF + 1) */
	uint8_t flbas;		   /* the format in use (index) */
	struct nvme_lbaf_info lbaf[NVME_LBAF_MAX];
	uint8_t nmic;
	uint8_t eui64[8], nguid[16];
	uint64_t nvmcap; /* bytes */
	uint8_t dps;
};

/* The SMART / Health Information log, as smartctl names its fields
 * (nvme_smart_health_information_log). The 128-bit counters saturate at
 * UINT64_MAX. */
struct nvme_health {
	uint8_t critical_warning;
	int temperature_c; /* composite, Celsius */
	uint16_t temperature_k;
	uint8_t available_spare, available_spare_threshold, percentage_used;
	uint64_t data_units_read, data_units_written; /* thousands of 512-byte units */
	uint64_t host_reads, host_writes;
	uint64_t controller_busy_time, power_cycles, power_on_hours, unsafe_shutdowns;
	uint64_t media_errors, num_err_log_entries;
	uint32_t warning_temp_time, critical_comp_time; /* minutes */
	int temperature_sensors[8];			/* Celsius; a sensor not there: INT32_MIN */
};

/* Critical warning bits */
#define NVME_CW_SPARE (1u << 0)
#define NVME_CW_TEMPERATURE (1u << 1)
#define NVME_CW_DEGRADED (1u << 2)
#define NVME_CW_READ_ONLY (1u << 3)
#define NVME_CW_VOLATILE_BACKUP (1u << 4)
#define NVME_CW_PMR_READ_ONLY (1u << 5)

struct nvme_st_entry {
	uint8_t code;	/* enum nvme_st (1 short, 2 extended) */
	uint8_t result; /* 0 no error .. 9; 0xf unused */
	uint8_t segment;
	bool nsid_valid, flba_valid, sct_valid, sc_valid;
	uint64_t power_on_hours;
	uint32_t nsid;
	uint64_t flba;
	uint8_t sct, sc;
};

struct nvme_st_log {
	uint8_t current;    /* the test running: 0 none, 1 short, 2 extended */
	uint8_t completion; /* percent done of the running one */
	struct nvme_st_entry e[NVME_ST_LOG_ENTRIES];
	unsigned n; /* entries in use, newest first */
};

/* The parsers: 0, or -EPROTO when len is short of the structure. */
int nvme_parse_id_ctrl(const void *buf, size_t len, struct nvme_ctrl_info *out);
int nvme_parse_id_ns(const void *buf, size_t len, struct nvme_ns_info *out);
int nvme_parse_smart_log(const void *buf, size_t len, struct nvme_health *out);
int nvme_parse_st_log(const void *buf, size_t len, struct nvme_st_log *out);
/* The active namespace list: up to max nsids (zero-terminated list). */
unsigned nvme_parse_ns_list(const void *buf, size_t len, uint32_t *out, unsigned max);

/* The critical warning bits as words ("spare below threshold, read-only")
 * into buf; "" when none. */
void nvme_critical_warning_text(uint8_t cw, char *buf, size_t len);
/* A self-test result code as words ("completed without error", ...). */
const char *nvme_st_result_text(uint8_t result);

/* ---- the commands as -v shows them ---- */

/* "Identify (controller)", "Get Log Page (SMART / Health)", "Read" */
void nvme_cmd_describe(const struct xcmd *c, char *buf, size_t len);
/* The completion status as words (libnvme's text) */
const char *nvme_status_text(uint16_t status);

#endif
