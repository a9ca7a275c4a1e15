/* profile.h - the measured zone profile (zprofile.h) as both front ends show
 * it: `profile`, `zones --measure`, qualify's zone check, the TUI's zone
 * view. */
#ifndef SHORTSTROKE_FRONT_PROFILE_H
#define SHORTSTROKE_FRONT_PROFILE_H

#include <stdio.h>

struct record;
struct zprofile;

/* The chart of the read rate across the disk, the zone table and the cut
 * table, as text into f. keep_pct: what the recommendation used, 0 for the
 * default; flags: the tables' (TABLE_BYTES). */
void profile_print(FILE *f, const char *spec, const struct zprofile *z, double keep_pct,
		   unsigned flags);
/* The profile under key: samples, zones and cuts (JSON only). */
void profile_record(struct record *r, const char *key, const struct zprofile *z);
/* Its samples alone, under "samples" (qualify's zone check too). */
void profile_samples(struct record *r, const struct zprofile *z);

#endif
