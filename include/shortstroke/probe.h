/* probe.h - will this path pass my commands? A HBA, RAID controller or USB
 * bridge may block or mangle ATA pass-through (no returned registers,
 * CK_COND ignored) or drop MODE SELECT. probe_path sends harmless commands
 * only and says which limit methods the path can carry, before anything is
 * changed. */
#ifndef SHORTSTROKE_PROBE_H
#define SHORTSTROKE_PROBE_H

#include <stdbool.h>

#include "shortstroke/drive.h"
#include "shortstroke/error.h"

enum probe_step {
	PROBE_NATIVE_MAX,  /* READ NATIVE MAX (or AMAC GET NATIVE MAX) with CK_COND:
			     the registers come back, whole (48 bits) and sane */
	PROBE_IDENTIFY,	   /* IDENTIFY DEVICE through SAT: 512 bytes, checksum,
			     the serial identification read */
	PROBE_MODE_SENSE,  /* MODE SENSE (10) with its block descriptor: the
			     block count and length READ CAPACITY gives */
	PROBE_MODE_SELECT, /* MODE SELECT (10) of the block descriptor as read
			      (SP=0, no change): taken whole, and read back the same */
	PROBE_NSTEPS,
};
#define PROBE_STEP_BIT(s) (1u << (s))
#define PROBE_ALL_STEPS ((1u << PROBE_NSTEPS) - 1)

enum probe_verdict {
	PROBE_NOT_RUN = 0, /* not asked, or does not apply to the drive */
	PROBE_PASSED,
	PROBE_FAILED, /* the path cannot carry the command: refused as unsupported
			 (ILLEGAL REQUEST), registers missing or cut, data not taken,
			 an answer that contradicts the drive's own */
	PROBE_UNSURE, /* the command failed in a way that says nothing of the path
			 (ABORTED COMMAND, NOT READY, a medium error): not held
			 against a method */
};

struct probe_report {
	enum probe_verdict verdict[PROBE_NSTEPS];
	char detail[PROBE_NSTEPS][200]; /* what was seen, one sentence */
	unsigned carries;		/* METHOD_* of the drive the path carries */
	unsigned blocked;		/* METHOD_* of the drive it cannot carry */
};

/* "native-max", "identify", "mode-sense", "mode-select"; "passed", ... */
const char *probe_step_name(enum probe_step s);
const char *probe_verdict_name(enum probe_verdict v);

/* The steps (PROBE_STEP_BIT) a limit method (one METHOD_* bit) needs to
 * have passed: the ATA methods the returned registers and the IDENTIFY
 * data, the SCSI ones MODE SENSE and MODE SELECT; partition none. */
unsigned probe_steps_for(unsigned method);

/*
 * Run the steps of mask that apply to the drive (ATA steps on an ATA disk
 * only) and fill r: each step's verdict and detail, and which of the
 * drive's methods (i->methods) the path carries. Sends nothing that changes the drive: reads, and a MODE SELECT
 * of the values just read with SP=0. A failed step is no error: 0 is
 * returned; an error only when the drive stops answering (-ENODEV ...).
 */
int probe_path(struct drive *d, const struct drive_info *i, unsigned mask, struct probe_report *r,
	       struct ss_error *err);

/*
 * Whether the path can carry method (a METHOD_* bit) by the steps of r
 * that ran: 0, or -EOPNOTSUPP with the failed step's detail and what to do
 * (the partition method, another port) in err.
 */
int probe_method_check(const struct probe_report *r, unsigned method, const char *dev,
		       struct ss_error *err);

#endif
