/* simd_priv.h - shortstroke-simd's insides: the TCMU command ring.
 *
 * The kernel's userspace target (target_core_user) hands SCSI commands to a
 * handler process through one shared memory area per backstore, mapped
 * from /dev/uioN: a mailbox, a command ring and a data area (the layout is
 * <linux/target_core_user.h>'s). simd_ring_process() walks the ring from
 * the mailbox's cmd_tail to its cmd_head once, answers every command
 * through a callback (the simulator) and moves cmd_tail on. It takes a
 * pointer to the mapped area, so the unit test can lay out a ring in plain
 * memory and check what came back.
 */
#ifndef SHORTSTROKE_SIMD_PRIV_H
#define SHORTSTROKE_SIMD_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/transport.h"

/*
 * Answer one command: fill c->status, c->sense/sense_len, the data-in
 * buffer and c->resid, as sim_drive_exec does. Return 0 when the drive
 * answered (any status), a negative errno when it could not (the ring then
 * reports LOGICAL UNIT COMMUNICATION FAILURE to the kernel).
 */
typedef int (*simd_exec_fn)(void *arg, struct xcmd *c);

/* Called after each command entry was answered (for tracing). */
typedef void (*simd_trace_fn)(void *arg, uint16_t cmd_id, const struct xcmd *c, int rc);

struct simd_ring_stats {
	uint64_t cmds;	  /* TCMU_OP_CMD entries answered */
	uint64_t pads;	  /* TCMU_OP_PAD entries skipped */
	uint64_t tmrs;	  /* TCMU_OP_TMR notifications skipped */
	uint64_t unknown; /* entries of an unknown type, completed with UNKNOWN_OP */
	uint64_t bad;	  /* malformed commands answered with an error */
	uint64_t failed;  /* answered with an error because of `fail_all` or exec < 0 */
};

struct simd_ring {
	void *map; /* the mapped area: mailbox at offset 0 */
	size_t map_size;
	simd_exec_fn exec;
	void *exec_arg;
	simd_trace_fn trace; /* may be NULL */
	void *trace_arg;
	/* Answer every command with NOT READY, LOGICAL UNIT COMMUNICATION
	 * FAILURE instead of executing it (the handler is stopping). */
	bool fail_all;
	/* set by exec (e.g. a signal during --pace): fail this command even
	 * though it ran; reset by the ring before each command */
	bool fail_current;
	/* scratch buffer for the data of one command */
	uint8_t *buf;
	size_t buf_cap;
	struct simd_ring_stats stats;
	char why[160]; /* what was wrong when process returned < 0 */
};

/* Largest data transfer of one command we accept (bigger: ILLEGAL REQUEST). */
#define SIMD_MAX_XFER (64u << 20)

/*
 * Check the mailbox: version, ring offset and size inside map_size.
 * Returns 0, or -EPROTO with r->why filled.
 */
int simd_ring_check(struct simd_ring *r);

/*
 * Walk the ring once from cmd_tail to cmd_head: skip PAD and TMR entries,
 * answer CMD entries (through exec, or with an error when fail_all), flag
 * entries of an unknown type with TCMU_UFLAG_UNKNOWN_OP, advancing cmd_tail
 * after each one. Returns the number of entries completed (the caller then
 * kicks the kernel with a 4-byte write to the uio fd when > 0), or -EPROTO
 * when the ring itself is broken (an entry's length would run past the
 * ring): cmd_tail then stays where it was and r->why says why.
 */
int simd_ring_process(struct simd_ring *r);

/* Release the scratch buffer. */
void simd_ring_fini(struct simd_ring *r);

/* The SCSI CDB length the kernel uses for an opcode (scsi_command_size). */
unsigned simd_cdb_len(const uint8_t *cdb);

/* Which way data flows for a CDB that moves data (TCMU does not say). */
enum xfer_dir simd_cdb_dir(const uint8_t *cdb, unsigned cdb_len);

#endif
