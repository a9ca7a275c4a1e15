/* array_priv.h - what the array transactions of src/ops share: apply and
 * undo (apply.c), replace (replace.c). */
#ifndef SHORTSTROKE_ARRAY_PRIV_H
#define SHORTSTROKE_ARRAY_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "shortstroke/array.h"

/* mdadm --zero-superblock of node (a line into log; a dry run only says
 * it): 0 when wiped or when there is nothing md wrote there (mdadm says
 * "Unrecognised md component"; what is not a block device holds none),
 * else -EIO with err. */
int array_zero_superblock(const char *node, bool dry_run, FILE *log, struct ss_error *err);

/* Before mdadm --zero-superblock of a member's node: is the disk there the
 * member (names move at a reboot)? 0, or -EPERM saying whose it is; a disk
 * that cannot be identified is left to mdadm. */
int array_member_at_node(struct ss_ctx *ctx, const struct array_member *m, struct ss_error *err);

/* Limit every ready member of ms (n of them) by its plan, in parallel, each
 * one's progress to cb->member; a dry run goes in order, each member's
 * commands into its log. Each member's rc, err, res and result are set. */
void array_limit_all(const char *state_dir, struct array_apply_member *ms, size_t n, bool dry_run,
		     const struct array_apply_cb *cb);

/* Restore member m of the array named array to its journaled original (a
 * line into log): refused when the disk is now another one, in use, or
 * (a member that left) in another array; a disk still at its original
 * is left alone. err names the member. */
int array_member_restore(struct ss_ctx *ctx, const char *array, struct array_member *m,
			 bool dry_run, FILE *log, struct ss_error *err);

#endif
