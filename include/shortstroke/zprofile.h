/* zprofile.h - the measured zone-bit-recording profile (as zcav does):
 * sequential read rate sampled at many positions across the LBA range,
 * zone boundaries found from the steps in the curve, and cut points to
 * short-stroke at (the end of zone k: capacity kept, worst rate kept).
 * Works on any I/O engine (io.h): a real disk or a simulated one. */
#ifndef SHORTSTROKE_ZPROFILE_H
#define SHORTSTROKE_ZPROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "shortstroke/error.h"
#include "shortstroke/io.h"
#include "shortstroke/job.h"

#define ZPROFILE_POINTS_MIN 2u
#define ZPROFILE_POINTS_MAX 10000u
#define ZPROFILE_POINTS_DEFAULT 200u
#define ZPROFILE_SAMPLE_DEFAULT (4u << 20)
#define ZPROFILE_STEP_DEFAULT 3.0  /* % of the outer rate */
#define ZPROFILE_KEEP_DEFAULT 90.0 /* % of the outer rate a recommended cut keeps */

struct zprofile_opts {
	unsigned points;       /* samples across the disk (0: default) */
	uint64_t sample_bytes; /* read at each sample (0: default, 4 MiB) */
	uint32_t bs;	       /* request size (0: 1 MiB, or the sample if smaller) */
	double step_pct;       /* a new zone starts where the rate left the current
				 * zone's level by more than this % of the outer rate
				 * (0: default 3) */
	double keep_pct;       /* recommend the deepest cut whose worst rate is at
				 * least this % of the outer rate (0: default 90) */
	const struct progress_sink *progress;
};

struct zprofile_point {
	uint64_t lba;	    /* where the sample starts */
	double mbps;	    /* as measured (10^6 B/s) */
	double smooth_mbps; /* median of 3 neighbours: what zoning uses */
	bool error;	    /* the sample failed (read error): mbps 0 */
};

struct zprofile_zone {
	uint64_t first_lba, end_lba; /* [first, end) */
	unsigned first_point, npoints;
	double avg_mbps, min_mbps, max_mbps;
};

/* Short-stroke at the end of zone `zone`. */
struct zprofile_cut {
	unsigned zone;
	uint64_t blocks; /* capacity kept, logical blocks (1 MiB aligned) */
	uint64_t bytes;
	double capacity_pct; /* of the whole disk */
	double worst_mbps;   /* the slowest sample kept */
	double worst_pct;    /* worst_mbps as % of the outer rate */
	double avg_mbps;     /* mean rate over what is kept */
	bool recommended;
};

struct zprofile {
	uint32_t lblock;
	uint64_t blocks;
	bool virtual_time; /* measured on the simulator's clock */
	double elapsed_s;  /* time the sweep took (virtual on the simulator) */
	double outer_mbps, inner_mbps;
	unsigned errors; /* samples that failed */
	unsigned npoints;
	struct zprofile_point *points;
	unsigned nzones;
	struct zprofile_zone *zones;
	unsigned ncuts;
	struct zprofile_cut *cuts;
	int recommended; /* index into cuts, -1 none */
};

/* Sweep the device. Bad options (-EINVAL) before any I/O. A sample that
 * fails is marked and the sweep goes on; -ECANCELED when cancelled. */
int zprofile_measure(struct io_dev *dev, const struct zprofile_opts *o, struct zprofile **out,
		     struct ss_error *err);
/* The same on a drive: node opened read-only through env's device sources
 * (io_dev_open_name), a message in err starting with "spec: ". */
int zprofile_measure_node(const char *node, const char *spec, struct dev_env *env,
			  const struct zprofile_opts *o, struct zprofile **out,
			  struct ss_error *err);

/* Zoning and cuts from given samples (points[].lba and .mbps; sorted by
 * LBA): what zprofile_measure does after measuring. Copies points. */
int zprofile_from_points(const struct zprofile_point *points, unsigned n, uint64_t blocks,
			 uint32_t lblock, const struct zprofile_opts *o, struct zprofile **out,
			 struct ss_error *err);

void zprofile_free(struct zprofile *z);

#endif
