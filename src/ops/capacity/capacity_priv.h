/* capacity_priv.h - the limit methods of src/ops/capacity/ (one file each)
 * and what the engine (capacity.c) lends them. */
#ifndef SHORTSTROKE_CAPACITY_PRIV_H
#define SHORTSTROKE_CAPACITY_PRIV_H

#include "shortstroke/capacity.h"
#include "shortstroke/scsi.h"

/* The methods, one per file; the engine's table lists them in the order
 * auto prefers them. */
extern const struct cap_method_ops cap_amac_ops;      /* amac.c */
extern const struct cap_method_ops cap_hpa_ops;	      /* hpa.c */
extern const struct cap_method_ops cap_dco_ops;	      /* dco.c */
extern const struct cap_method_ops cap_resize_ops;    /* resize.c */
extern const struct cap_method_ops cap_format_ops;    /* format.c */
extern const struct cap_method_ops cap_partition_ops; /* partition.c */
extern const struct cap_method_ops cap_nvme_ns_ops;   /* nvme_ns.c */

/* ---- the engine (capacity.c) ---- */

/* The disk's name in messages. */
const char *cap_dev(const struct cap_ctx *c);
/* A command of a change: shown (dry run, --verbose), and sent unless dry run. */
int cap_send_scsi(struct cap_ctx *c, struct xcmd *x, const char *what, struct scsi_sense *sense,
		  struct ss_error *err);
int cap_send_nvme(struct cap_ctx *c, struct xcmd *x, const char *what, struct ss_error *err);
int cap_send_ata(struct cap_ctx *c, const struct ata_tf *tf, bool ck_cond, void *buf,
		 struct ata_regs *regs, const char *what, struct ss_error *err);
/* A journal record of the disk: event, method, device, serial, WWN, model
 * and block length filled, the rest zero (the caller sets its numbers). */
struct journal_entry;
void cap_journal_entry(const struct cap_ctx *c, const char *event, const char *method,
		       struct journal_entry *j);
/* Appended to buf (depop.c): "; N storage elements retired: 'shortstroke
 * depop --restore DEV' ..." when the drive has depopulated elements it may
 * bring back; nothing otherwise (a read-only GET PHYSICAL ELEMENT STATUS). */
void cap_depop_hint(struct cap_ctx *c, char *buf, size_t len);
/* A security-locked drive refuses every change. */
int cap_locked_error(const char *dev, struct ss_error *err);
/* A plan refused (rc) for a security-frozen drive: the advice made to fit
 * the drive's state (hpa.c). Returns rc. */
int cap_frozen_advice(struct cap_ctx *c, int rc, struct ss_error *err);
/* Re-read the drive and, for a real disk, make the kernel see want blocks;
 * res->after is what the drive has. */
int cap_verify(struct cap_ctx *c, uint64_t want, struct cap_result *res, struct ss_error *err);

/* ---- discard.c: a flash drive's hidden range handed back first ---- */

/* p->discard and p->discard_note: whether limit TRIMs / UNMAPs the range it
 * hides, and what that does to the data there (pure) */
void cap_plan_discard(const struct drive_info *i, struct cap_plan *p);
/* TRIM / UNMAP [p->target, p->current) when p->discard */
int cap_discard(struct cap_ctx *c, const struct cap_plan *p, struct ss_error *err);

/* ---- resize.c, format.c: shared by the SCSI methods and the engine ---- */

/* MODE SELECT the block count (UINT64_MAX: the drive's maximum). */
int cap_scsi_select_blocks(struct cap_ctx *c, uint64_t blocks, struct ss_error *err);
/* MODE SELECT a new block length (the count all ones: the most it holds),
 * which the next FORMAT UNIT formats to. */
int cap_scsi_select_length(struct cap_ctx *c, uint32_t block_len, struct ss_error *err);
/* TEST UNIT READY: 0 ready; 1 formatting; 2 medium format corrupted. */
int cap_unit_state(struct cap_ctx *c, struct scsi_sense *s, struct ss_error *err);
/* Poll REQUEST SENSE (naps growing to 1 s) while busy says the drive works,
 * reporting its progress as phase; *done is the last fraction it said (-1
 * none). 0 when it ends; -ECANCELED, err untouched, when c->progress asks
 * to stop. */
int cap_watch_sense(struct cap_ctx *c, bool (*busy)(const struct scsi_sense *s), const char *phase,
		    double *done, struct ss_error *err);
/* Poll REQUEST SENSE for the progress of a format until it ends. */
int cap_format_wait(struct cap_ctx *c, struct ss_error *err);

#endif
