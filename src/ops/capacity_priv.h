/* capacity_priv.h - shared between capacity.c and partition.c. */
#ifndef SHORTSTROKE_CAPACITY_PRIV_H
#define SHORTSTROKE_CAPACITY_PRIV_H

#include "shortstroke/capacity.h"

/* Partition method: a GPT with one partition covering blocks [2048-ish,
 * blocks) of the disk, written through the drive's transport. */
int part_limit(struct cap_ctx *c, uint64_t blocks, struct ss_error *err);
/* Wipe the GPT part_limit wrote (primary and backup). */
int part_restore(struct cap_ctx *c, struct ss_error *err);
/* The end (exclusive, in blocks) of partition 1 of the GPT on the drive;
 * -ENOENT when there is no GPT. */
int part_read_end(struct cap_ctx *c, uint64_t *end, struct ss_error *err);

#endif
