/* planspec.h - what a user writes on the command line for the planner
 * (`plan --workload custom:...`, `--mech`, `--controller-mbps R/W`,
 * `--controller-latency`, `--controller-cache`) as libraidplan's structs.
 * One parser, so that every front end reads them alike; the syntax is in
 * docs/planning-model.md ("On the command line") and `plan --help`. */
#ifndef SHORTSTROKE_PLANSPEC_H
#define SHORTSTROKE_PLANSPEC_H

#include "raidplan.h"
#include "shortstroke/error.h"
#include "shortstroke/planfile.h"

/* A workload: a profile, or a custom one (profile -1). */
struct plan_workload {
	int profile; /* enum rp_profile, or -1 */
	struct rp_workload wl;
	struct rp_size_share sizes[PLAN_MAX_SIZES]; /* wl.sizes points here */
	char text[160];				    /* "custom: 64 KiB, 0 % reads, 100 % random" */
};

/*
 * A profile name (database, ...) or
 *   custom:bs=SIZE[:WEIGHT][/SIZE:WEIGHT...][,read=R][,random=X]
 * R and X are shares (0.7) or percentages (70%); read defaults to 1 (all
 * reads) and random to 1. Sizes take the units of size_parse (64K, 4KiB,
 * 512B is 512 bytes), the weights are relative. 0, or -EINVAL with the
 * reason (naming the bad part).
 */
int plan_workload_parse(const char *spec, unsigned qd, struct plan_workload *out,
			struct ss_error *err);

/* After the struct was copied: a custom mix's wl.sizes points into
 * out->sizes again (a profile's point to the library's own). */
void plan_workload_fix(struct plan_workload *w);

/*
 * A disk's mechanics, KEY=VALUE[,KEY=VALUE...], applied to d (only the
 * keys given): t2t, avg, full (seek ms), outer, inner (MB/s), overhead
 * (ms), queue (commands), cache (MB), wcache (on|off), link (MB/s), mttf
 * (hours), ure (per bit). 0, or -EINVAL naming the bad key.
 */
int plan_mech_parse(const char *spec, struct rp_disk *d, struct ss_error *err);

/* "R" or "R/W" MB/s: read (and write) caps; W 0 when not given. */
int plan_rate_pair_parse(const char *spec, double *read, double *write, struct ss_error *err);

/* "MS" or "MS+MS_PER_DISK" (also "MS+MS/disk"). */
int plan_latency_parse(const char *spec, double *ms, double *per_disk_ms, struct ss_error *err);

/* A share in (0, 1]: 0.94 or 94%. */
int plan_share_parse(const char *spec, double *share, struct ss_error *err);

/* "SIZE" or "SIZE@MBPS": a controller cache (MB) and its rate (0: none given). */
int plan_cache_parse(const char *spec, double *mb, double *mbps, struct ss_error *err);

/*
 * The planner's goals as a user types them (plan's options, the TUI
 * planner's fields): one parser and one sentence for each refusal, so
 * that every front end takes and refuses alike. what names the option or
 * the field ("--capacity", "Capacity") at the start of the message; each
 * returns 0 or -EINVAL (a usage error, err->usage set).
 */
/* A size with a unit (500G, 2TB, 1.5TiB): bytes. */
int plan_size_parse(const char *what, const char *text, uint64_t *bytes, struct ss_error *err);
/* A number above 0 (IOPS, ms, rpm). */
int plan_positive_parse(const char *what, const char *text, double *out, struct ss_error *err);
/* A whole number min .. max (disks, failures tolerated). */
int plan_count_parse(const char *what, const char *text, unsigned min, unsigned max, unsigned *out,
		     struct ss_error *err);
/* A stroke: a percent (25%) or a fraction (0.25), above 0 and at most 1. */
int plan_stroke_parse(const char *what, const char *text, double *out, struct ss_error *err);

/*
 * The failures a search asks layouts to survive when none is given: one,
 * unless a level asked for includes RAID 0 (level_mask, 0 for any); note
 * gets the sentence that says so ("" when the default is 0). what: how the
 * user gives one ("--tolerate", "Tolerates").
 */
unsigned plan_tolerate_default(unsigned level_mask, const char *what, char *note, size_t len);

#endif
