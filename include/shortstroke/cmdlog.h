/* cmdlog.h - the commands sent to drives, as --verbose shows them.
 *
 * An entry is one command a transport delivered (or could not deliver):
 * the device, the CDB, the data moved, the status and the sense. Its text
 * is what `-v` prints (the CDB in hex and by name, the ATA command inside
 * an ATA PASS-THROUGH, the data and residual, the status and the sense
 * decoded and in hex). The CLI's -v prints each entry as it is sent; the
 * TUI keeps the newest in a log (struct cmdlog) that its log screen shows.
 * Both hook the transport layer's watch (transport_set_watch), so every
 * command of every operation is seen and nothing above the transport has
 * to remember to log.
 */
#ifndef SHORTSTROKE_CMDLOG_H
#define SHORTSTROKE_CMDLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "shortstroke/transport.h"

struct cmdlog_entry {
	uint64_t seq;	      /* 1, 2, ... in the order a log took them (0: none) */
	struct timespec when; /* CLOCK_REALTIME when the answer came */
	char dev[128];	      /* the transport's name: the device as the user named it */
	uint8_t cdb[32];
	unsigned cdb_len;
	enum xcmd_kind kind;   /* an NVMe command: nvme instead of cdb */
	struct xcmd_nvme nvme; /* its fields and its completion */
	enum xfer_dir dir;
	size_t data_len;
	size_t resid;
	int rc; /* 0: the drive answered (any status); < 0: not delivered */
	uint8_t status;
	uint8_t sense[XCMD_SENSE_MAX];
	unsigned sense_len;
	uint64_t duration_ns; /* as the transport measured it (virtual on a sim drive) */
};

/* The entry of command c sent through t with result rc (seq stays 0). */
void cmdlog_entry_set(struct cmdlog_entry *e, const struct transport *t, const struct xcmd *c,
		      int rc);

/* The parts of -v's line. */
struct cmdlog_text {
	char cdb[3 * 32 + 1]; /* "85 07 00 ..." */
	char name[96];	      /* "ATA SET MAX ADDRESS EXT", "Read capacity(16)" */
	char data[64];	      /* "no data", "in 512 bytes", "in 255 bytes, resid 246" */
	char answer[600];     /* "GOOD (0x00)", "CHECK CONDITION (0x02): <sense>; sense: <hex>",
				   "not delivered: <errno text>" */
	char status[40];      /* "GOOD", "CHECK CONDITION", "CHECK CONDITION (recovered)",
				   "not delivered" */
};
void cmdlog_entry_text(const struct cmdlog_entry *e, struct cmdlog_text *out);

/* -v's line, without a newline: "DEV: cdb: HEX  [NAME] DATA -> ANSWER". */
void cmdlog_entry_line(const struct cmdlog_entry *e, char *buf, size_t len);

/* Delivered and done: GOOD, or CHECK CONDITION with RECOVERED ERROR (an
 * ATA PASS-THROUGH returning the registers it was asked for). */
bool cmdlog_entry_ok(const struct cmdlog_entry *e);

/* A read or write of the medium (sat_cdb_is_media): a benchmark's or a
 * scan's traffic, kept apart by the log so that it does not push the other
 * commands out. */
bool cmdlog_entry_media(const struct cmdlog_entry *e);

/*
 * A log of the newest commands, in memory: up to keep commands and, apart,
 * up to keep_media reads and writes of the medium; an older entry goes when
 * a newer one of its kind comes. Safe to add to from several threads at
 * once and to read meanwhile.
 */
struct cmdlog;
#define CMDLOG_KEEP 4096
#define CMDLOG_KEEP_MEDIA 1024

/* NULL when out of memory. */
struct cmdlog *cmdlog_new(size_t keep, size_t keep_media);
void cmdlog_free(struct cmdlog *l);

/* Take one command (a transport_watch_fn: arg is the log). */
void cmdlog_add(void *log, const struct transport *t, const struct xcmd *c, int rc);

/* Make l the transport's watch hook (transport_set_watch): every command
 * sent from now on goes into it. Once, before any command is sent or
 * thread started; NULL removes it (l must then outlive every thread that
 * may still be sending). */
void cmdlog_install(struct cmdlog *l);

/* The seq of the newest entry: it changes when one is added (0: none yet). */
uint64_t cmdlog_last(struct cmdlog *l);

/* What is kept, oldest first, in *out (free() it): both kinds merged by
 * seq; *dropped (may be NULL) counts the entries no longer kept. 0, or
 * -ENOMEM. */
int cmdlog_copy(struct cmdlog *l, struct cmdlog_entry **out, size_t *n, uint64_t *dropped);

#endif
