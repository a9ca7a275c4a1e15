/* planning.h - planning an array over real drives, for every front end
 * (`plan` and the TUI planner): a drive's parameters as a planner disk (with
 * notes saying what the model takes from the drive and what it defaults),
 * and the plan made from an evaluated layout. One mapping, so both front
 * ends plan alike. */
#ifndef SHORTSTROKE_PLANNING_H
#define SHORTSTROKE_PLANNING_H

#include <stddef.h>

#include "raidplan.h"
#include "shortstroke/devices.h"
#include "shortstroke/planfile.h"

/* Notes about the disks (defaults used, limits ignored, disks left out,
 * ...); each text once, at most PLAN_MAX_NOTES: a note about disks is one
 * note with the disks it concerns ("TEXT: sim:a, sim:b"), not one per disk.
 * text[i] is the note as printed. */
#define PLAN_NOTE_MAX 1024
struct plan_notes {
	size_t n;
	char base[PLAN_MAX_NOTES][256];		  /* the note without its disks */
	char text[PLAN_MAX_NOTES][PLAN_NOTE_MAX]; /* as printed */
};

void plan_note(struct plan_notes *notes, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* What the planner is to take a drive for. */
struct plan_pick {
	bool member;  /* a member of the array planned (not only a model to copy): left
			 out when apply would refuse it now */
	unsigned rpm; /* the rpm class asked (plan --rpm with DEVICEs): a drive of another
			 class is left out; 0 any */
};

/*
 * Identify spec (read-only commands) into a pool entry: device, serial,
 * WWN, model, block size, native capacity, and the rp_disk the model
 * uses (capacity and rpm from the drive, the rest defaults by class).
 * Errors: what device_open returns; -ENOTSUP for a solid-state disk;
 * -EIO for a drive that reports no capacity. err says why. With
 * pick->member (pick may be NULL), -EBUSY when `apply` would refuse the
 * drive as a member now (protected, in use, a member of another array by
 * the records, security-frozen or otherwise unable to take a limit, another
 * rpm class than pick->rpm): err says why, the caller leaves it out.
 */
int plan_disk_from_device(struct ss_ctx *ctx, const char *spec, const struct plan_pick *pick,
			  struct plan_disk *pd, struct plan_notes *notes, struct ss_error *err);

/* A left-out drive's note ("left out (apply would refuse it): ..."), once
 * per reason with the drives it concerns. */
void plan_note_left_out(struct plan_notes *notes, const char *spec, const struct ss_error *why);

/* A drive's mechanics as its source models them (device_mechanics) as the planner's
 * disk figures: seek times, rates, overhead, queue depth, write cache,
 * link. Capacity and rpm are left as they are. */
void plan_disk_mechanics(const struct dev_mechanics *m, struct rp_disk *rp);

/* What a plan file is made of besides the layout. */
struct plan_source {
	const struct plan_disk *pool; /* the disks the layout's members index */
	int profile;		      /* enum rp_profile, or -1 for a custom workload */
	const struct rp_workload *wl;
	const struct rp_path *path;
	const struct rp_goals *goals;
	const struct plan_notes *notes;
};

/* A plan of an evaluated layout (limits set), for planfile_write(); NULL
 * with err filled when it cannot be made. */
struct plan *plan_from_eval(const struct plan_source *src, const struct rp_eval *ev,
			    struct ss_error *err);

#endif
