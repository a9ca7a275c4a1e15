/* raidplan.h - the shared RAID planning library (libraidplan).
 *
 * Pure computation: numbers in, numbers out. No I/O, no device knowledge,
 * no printing. Every input is validated; a function either returns 0 or a
 * negative errno-style code and, when the caller passes one, fills a
 * struct rp_error with a sentence a person can act on.
 *
 * Units: bytes for sizes, MB/s (10^6 bytes per second) for rates,
 * milliseconds for times, hours for MTTF/MTTDL/rebuild times.
 * The model is described in docs/planning-model.md.
 *
 * ABI (docs/planning-model.md, "The library's ABI"): every struct the
 * library reads from the caller starts with `uint32_t size`, set by its
 * rp_*_init() (or RP_SIZED() in an initializer) to the size the program was
 * built with. The library reads what that size covers: a program built
 * against an older 2.x header gets defaults for the fields it does not
 * have; one built against a newer header gets -E2BIG when it sets a field
 * this library does not know. Arrays of such structs are read with the
 * stride of element 0's size. Structs the library returns by const pointer
 * (rp_figure, rp_warning, rp_eval_layout's layout) may grow at the end:
 * read only the fields your header has, and keep a copy with RP_COPY().
 */
#ifndef RAIDPLAN_H
#define RAIDPLAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(RP_STATIC)
#define RP_EXPORT __attribute__((visibility("default")))
#else
#define RP_EXPORT
#endif

/* API version: bumped on incompatible changes of a struct or a function,
 * with the soname (libraidplan.so.RP_API_VERSION). A field appended to a
 * sized struct, a function or an enumerator added is a compatible change:
 * the version string's minor number grows. */
#define RP_API_VERSION 2
#define RP_VERSION_STRING "2.3.0"

/* The API version the library was built with (compare with RP_API_VERSION). */
RP_EXPORT int rp_api_version(void);
/* "2.3.0" */
RP_EXPORT const char *rp_version(void);

/* ---- sized structs ----------------------------------------------------- */

/* In an initializer: struct rp_path p = {RP_SIZED(struct rp_path), .bus_mbps = 3200}; */
#define RP_SIZED(type) .size = sizeof(type)

/* Zero *p (every field its default) and set its size. Inline: the size is
 * the one this program was built with, whatever library it runs with. */
#define RP_INIT_SIZED(p)                                                                           \
	do {                                                                                       \
		memset((p), 0, sizeof(*(p)));                                                      \
		(p)->size = sizeof(*(p));                                                          \
	} while (0)

/* Element i of an array of sized structs that the library made (a
 * profile's sizes): its stride is element 0's size, which may be larger
 * than this header's struct when the library is newer. */
static inline const void *rp_elem(const void *array, size_t i)
{
	uint32_t size;

	memcpy(&size, array, sizeof(size));
	return (const char *)array + i * size;
}
#define RP_ELEM(type, array, i) ((const type *)rp_elem((array), (i)))

/* Copy a sized struct the library returned (rp_eval_layout) into one of
 * this program's own: the fields both know, the rest 0, size set to this
 * program's. An assignment (*dst = *src) would keep the library's size,
 * which may be larger than dst. */
static inline void rp_copy_sized(void *dst, size_t dst_size, const void *src)
{
	uint32_t size, own = (uint32_t)dst_size;

	memcpy(&size, src, sizeof(size));
	memset(dst, 0, dst_size);
	memcpy(dst, src, size < dst_size ? size : dst_size);
	memcpy(dst, &own, sizeof(own));
}
#define RP_COPY(dst, src) rp_copy_sized((dst), sizeof(*(dst)), (src))

/* ---- errors ---------------------------------------------------------- */

/* Filled by the library in the caller's storage: fixed for libraidplan.so.2. */
struct rp_error {
	int code; /* negative errno, 0 when no error */
	char msg[256];
};

/* A short text for a return code (-EINVAL -> "invalid input", ...).
 * -E2BIG: too many points, sizes or disks, or a struct sets a field this
 * library does not know (the program was built against a newer header). */
RP_EXPORT const char *rp_strerror(int code);

/* ---- disks ----------------------------------------------------------- */

/* A point of a measured curve. */
struct rp_point {
	uint32_t size; /* rp_point_init() */
	double x;
	double y;
};

static inline void rp_point_init(struct rp_point *p)
{
	RP_INIT_SIZED(p);
}

#define RP_CURVE_MAX 64 /* most points of a measured curve */

struct rp_flash; /* a flash drive's NAND, below ("flash drives") */

/*
 * One disk as the caller knows it. A field left 0 takes a datasheet-style
 * default by rpm and size (see docs/planning-model.md); the evaluation
 * then says that defaults were used. Only capacity is required.
 */
struct rp_disk {
	uint32_t size;	      /* rp_disk_init() */
	unsigned shared_link; /* 0: none; k: behind path->links[k-1] */
	uint64_t capacity;    /* bytes, required */
	double rpm;	      /* 0: 7200 assumed */
	double seek_t2t_ms;   /* track-to-track seek */
	double seek_avg_ms;   /* datasheet average (all-pairs) seek */
	double seek_full_ms;  /* full-stroke seek */
	/* Measured seek curve: x = distance as a fraction of the full stroke
	 * (0 < x <= 1, increasing), y = ms. Overrides the three figures above. */
	const struct rp_point *seek_curve;
	size_t n_seek_curve;
	double outer_mbps; /* media rate at the outer edge (LBA 0) */
	double inner_mbps; /* media rate at the inner edge */
	/* Measured zone profile: x = capacity fraction (0 <= x <= 1,
	 * increasing), y = MB/s. Overrides outer/inner. */
	const struct rp_point *zone_profile;
	size_t n_zone_profile;
	double cache_mb;    /* the disk's write cache, MB; 0: 16 */
	double link_mbps;   /* the disk's own interface link; 0: no cap */
	double overhead_ms; /* command + controller overhead; 0: by class
			       (enterprise 0.2 ms, desktop 0.5 ms) */
	double mttf_hours;  /* 0: by class (enterprise 1.0M h, desktop 0.5M h) */
	double ure_per_bit; /* 0: by class (1e-15 enterprise, 1e-14 desktop) */
	/* 2.1 */
	unsigned queue_depth; /* commands the disk queues and reorders (NCQ, TCQ);
			       * 0: by class (32 desktop: SATA NCQ; 64 enterprise: SAS) */
	int write_cache;      /* RP_WCACHE_*; 0: by class (on desktop/SATA, off enterprise/SAS) */
	uint64_t zone_bytes;  /* a zoned disk's zone size (strokes are whole zones); 0: none */
	int zoned;	      /* RP_ZONED_*; host-managed disks cannot be md members */
	uint32_t reserved;    /* 0 */
	/* 2.3: a flash drive (an SSD; docs/flash.md): no stroke, no seek, no
	 * rotation; the layout's stroke is the share of it the host uses, the
	 * rest (TRIMmed and hidden) spare area, and random writes cost the
	 * write amplification of that spare (rp_flash_write_amp). NULL: a disk.
	 * The seek, rate and rpm fields are then not read; a layout does not
	 * mix flash drives and disks. */
	const struct rp_flash *flash;
};

/* rp_disk.write_cache: the disk's volatile write cache (0: by class) */
enum rp_wcache {
	RP_WCACHE_DEFAULT,
	RP_WCACHE_ON,
	RP_WCACHE_OFF,
};

/* rp_disk.zoned: the ZBC/ZAC zone model */
enum rp_zoned {
	RP_ZONED_NONE,
	RP_ZONED_HOST_AWARE,
	RP_ZONED_HOST_MANAGED,
};

/* Every field its default; size set. */
static inline void rp_disk_init(struct rp_disk *d)
{
	RP_INIT_SIZED(d);
}

/* A link shared by a group of disks, e.g. a SATA port multiplier. */
struct rp_link {
	uint32_t size; /* rp_link_init() */
	double mbps;
};

static inline void rp_link_init(struct rp_link *l)
{
	RP_INIT_SIZED(l);
}

/* The path from host to disks. 0 means "no cap". */
struct rp_path {
	uint32_t size;		/* rp_path_init() */
	double controller_mbps; /* reads (and writes, unless the write cap is given) */
	double bus_mbps;
	const struct rp_link *links; /* referenced by rp_disk.shared_link */
	size_t n_links;
	/* 2.1 */
	double controller_write_mbps; /* the controller's cap on writes; 0: controller_mbps */
	double bus_write_mbps;	      /* the bus's cap on writes; 0: bus_mbps */
	double latency_ms;	      /* controller and host time per request; 0: none */
	double latency_per_disk_ms;   /* ... and per member of the array */
	double cache_mb;	      /* the controller's write-back cache; 0: none */
	double cache_mbps;	      /* the rate it takes writes at; 0: the path's write cap */
	/* 2.2: what does the RAID (docs/planning-model.md 2.6); a field left 0
	 * takes the controller's default, shown by rp_eval_figure(RP_FIG_CONTROLLER) */
	int controller;		  /* RP_CTRL_*: 0 md (Linux software RAID) */
	uint32_t reserved;	  /* 0 */
	double member_efficiency; /* a member's sequential rate through the controller over the
				   * disk's own, (0, 1]; 0: by controller (md, hba 1) */
	double write_ratio;	  /* the controller's write cap over its read cap when only the
				   * read cap is given, (0, 1]; 0: by controller (md, hba 1) */
	int full_stripe;	  /* RP_STRIPE_*: how sequential parity writes are written */
	uint32_t reserved2;	  /* 0 */
};

/* rp_path.controller */
enum rp_controller {
	RP_CTRL_MD,	 /* Linux md on the host: the default */
	RP_CTRL_HBA,	 /* a host bus adapter: md on the host, nothing in between */
	RP_CTRL_HW_RAID, /* a hardware RAID controller */
};

/* rp_path.full_stripe */
enum rp_stripe {
	RP_STRIPE_DEFAULT, /* by controller: md's stripe cache assembles full stripes; a
			    * hardware controller does with a write-back cache, without one
			    * it reads, modifies and writes each chunk */
	RP_STRIPE_FULL,
	RP_STRIPE_RMW,
};

static inline void rp_path_init(struct rp_path *p)
{
	RP_INIT_SIZED(p);
}

/* "md", "hba", "hw-raid"; NULL for an unknown controller. Since 2.2. */
RP_EXPORT const char *rp_controller_name(int controller);
/* Accepts the names above ("hwraid", "hw_raid" too); 0 or -EINVAL. Since 2.2. */
RP_EXPORT int rp_controller_parse(const char *s, int *controller, struct rp_error *err);

/* ---- layouts --------------------------------------------------------- */

/* Levels; more may follow (rp_level_count()). */
enum rp_level {
	RP_LEVEL_0,
	RP_LEVEL_1,
	RP_LEVEL_10,
	RP_LEVEL_01, /* 0+1: a mirror of stripe sets */
	RP_LEVEL_5,
	RP_LEVEL_6,
	RP_LEVEL_50,
	RP_LEVEL_60,
};

#define RP_LEVEL_BIT(l) (1u << (l))

/* How many levels this library has: 0 .. rp_level_count() - 1. */
RP_EXPORT int rp_level_count(void);
/* "0", "1", "10", "0+1", "5", "6", "50", "60"; NULL for an unknown level. */
RP_EXPORT const char *rp_level_name(int level);
/* Parse "10", "raid10", "RAID 0+1", "01", ...; 0 or -EINVAL. */
RP_EXPORT int rp_level_parse(const char *s, int *level, struct rp_error *err);

/*
 * One array. The members are the first n_disks of the disk list, or the
 * disks named by members[] (indices into the disk list, no repeats).
 * Member order matters for mirrors and groups: RAID 10 mirror set i is
 * members [i*copies, (i+1)*copies); 0+1 stripe set j is the j-th run of
 * n_disks/copies members; RAID 50/60 group j is the j-th run of
 * n_disks/groups members.
 */
struct rp_layout {
	uint32_t size; /* rp_layout_init() */
	int level;     /* enum rp_level */
	unsigned n_disks;
	unsigned groups;	 /* RAID 50/60: groups (0: 2) */
	unsigned copies;	 /* RAID 10 / 0+1: copies (0: 2); RAID 1: n_disks */
	const unsigned *members; /* NULL: disks 0 .. n_disks-1 */
	uint64_t chunk_bytes;	 /* 0: 512 KiB (md's default) */
	double stroke;		 /* capacity fraction used per disk, 0 < s <= 1 */
	double rebuild_mbps;	 /* rebuild rate limit; 0: 200 MB/s (md) */
	double replace_hours;	 /* detection + replacement before rebuild; 0: 24 h */
};

static inline void rp_layout_init(struct rp_layout *l)
{
	RP_INIT_SIZED(l);
}

/* Smallest number of disks a level takes (with default groups/copies). */
RP_EXPORT unsigned rp_level_min_disks(int level);

/* ---- workloads ------------------------------------------------------- */

struct rp_size_share {
	uint32_t size; /* rp_size_share_init() */
	uint64_t bytes;
	double share; /* weights; normalised to sum 1 */
};

static inline void rp_size_share_init(struct rp_size_share *s)
{
	RP_INIT_SIZED(s);
}

struct rp_workload {
	uint32_t size;		/* rp_workload_init() */
	unsigned queue_depth;	/* outstanding requests on the array, >= 1 */
	double read_share;	/* 0..1 */
	double random_share;	/* 0..1 */
	uint64_t request_bytes; /* used when n_sizes == 0 */
	const struct rp_size_share *sizes;
	size_t n_sizes;
};

static inline void rp_workload_init(struct rp_workload *w)
{
	RP_INIT_SIZED(w);
}

/* IOMeter-style profiles; more may follow (rp_profile_count()). */
enum rp_profile {
	RP_PROFILE_DATABASE,
	RP_PROFILE_FILESERVER,
	RP_PROFILE_WEBSERVER,
	RP_PROFILE_WORKSTATION,
	RP_PROFILE_SEQ_READ,
	RP_PROFILE_SEQ_WRITE,
	RP_PROFILE_RANDOM_ACCESS,
};

/* How many profiles this library has: 0 .. rp_profile_count() - 1. */
RP_EXPORT int rp_profile_count(void);
/* "database", "fileserver", ...; NULL for an unknown profile. */
RP_EXPORT const char *rp_profile_name(int profile);
/* Accepts the names above and "file-server", "web-server", ...; 0 or -EINVAL. */
RP_EXPORT int rp_profile_parse(const char *s, int *profile, struct rp_error *err);
/* Fill *wl (initialised with rp_workload_init()) with an IOMeter-style
 * profile at queue depth qd. The fields the library knows are set, the
 * others keep their values; sizes point to the library's static storage
 * (index them with RP_ELEM()). */
RP_EXPORT int rp_workload_profile(int profile, unsigned qd, struct rp_workload *wl,
				  struct rp_error *err);

/* ---- evaluation ------------------------------------------------------ */

/* Figures; more may follow (rp_figure_count()). */
enum rp_figure_id {
	RP_FIG_USABLE_CAPACITY, /* bytes */
	RP_FIG_RADIAL_STROKE,	/* fraction of the arm's travel used */
	RP_FIG_BAND_SEEK,	/* ms, average seek inside the band */
	RP_FIG_ROTATION,	/* ms, average rotational latency */
	RP_FIG_SEQ_READ_START,	/* MB/s at the outer edge of the band */
	RP_FIG_SEQ_READ_END,	/* MB/s at the inner edge of the band */
	RP_FIG_SEQ_WRITE_START,
	RP_FIG_SEQ_WRITE_END,
	RP_FIG_RAND_READ_QD1, /* IOPS, the workload's sizes */
	RP_FIG_RAND_READ_QD,  /* IOPS at the workload's queue depth */
	RP_FIG_RAND_WRITE_QD1,
	RP_FIG_RAND_WRITE_QD,
	RP_FIG_MIXED_IOPS,	   /* the workload's mix at its queue depth */
	RP_FIG_ACCESS_TIME,	   /* ms, average random access at QD1 */
	RP_FIG_FAILURES_TOLERATED, /* disks that may fail, any of them */
	RP_FIG_REBUILD_TIME,	   /* hours */
	RP_FIG_MTTDL,		   /* hours */
	RP_FIG_URE_REBUILD,	   /* probability 0..1 */
	/* 2.1 */
	RP_FIG_QUEUE_POSITION, /* ms, a member's positioning at the workload's queue (SPTF) */
	RP_FIG_PATH_LATENCY,   /* ms, controller and host time per request */
	RP_FIG_DEGRADED_IOPS,  /* the workload's IOPS with one member lost */
	RP_FIG_DEGRADED2_IOPS, /* ... with two lost (when the level survives it) */
	RP_FIG_REBUILD_IOPS,   /* ... with one lost, rebuilding under the workload */
	RP_FIG_REBUILD_LOADED, /* hours, that rebuild (md's floor, sync_speed_min) */
	RP_FIG_WRITE_BURST,    /* MB/s, writes into the controller's cache until it fills */
	RP_FIG_RISK,	       /* risk band: 0 low, 1 medium, 2 high */
	RP_FIG_CACHED_WRITE,   /* ms, a write the disks' write cache takes (t_w) */
	RP_FIG_DISK_BUSY,      /* share of the time a disk has work, random reads at the queue */
	/* 2.2 */
	RP_FIG_CONTROLLER,  /* the controller (enum rp_controller) and its figures */
	RP_FIG_STROKE_GAIN, /* the workload's IOPS at this stroke over the full stroke's */
};

/* How many figures an evaluation has: ids 0 .. rp_figure_count() - 1. */
RP_EXPORT int rp_figure_count(void);
/* A figure's machine name ("usable_capacity"); NULL for an unknown id. */
RP_EXPORT const char *rp_figure_key(int id);

#define RP_FIGURE_MAX_INPUTS 10 /* fixed for libraidplan.so.2 */

struct rp_figure_input {
	const char *name;
	const char *unit;
	double value;
};

/* One output figure with what it was computed from, for `plan --explain`.
 * Returned by const pointer; may grow at the end. */
struct rp_figure {
	int id;		   /* enum rp_figure_id */
	const char *key;   /* machine name, e.g. "usable_capacity" */
	const char *label; /* e.g. "usable capacity" */
	const char *unit;  /* "B", "MB/s", "IOPS", "ms", "disks", "h", "" */
	double value;
	int valid;	     /* 0: does not apply (rebuild of RAID 0) */
	const char *formula; /* the formula, in plain text */
	const char *source;  /* docs/models.md, Ruemmler & Wilkes, OSTEP, derived */
	unsigned n_inputs;
	struct rp_figure_input inputs[RP_FIGURE_MAX_INPUTS];
};

/* Warnings; more may follow (rp_warning_count()). */
enum rp_warning_id {
	RP_WARN_DEFAULTS,	/* datasheet-style defaults were used */
	RP_WARN_SEEK_FIT,	/* the seek fit fell back to a = 0 */
	RP_WARN_CAP_CONTROLLER, /* a figure is bounded by the controller */
	RP_WARN_CAP_BUS,
	RP_WARN_CAP_LINK,      /* ... by a shared link */
	RP_WARN_CAP_INTERFACE, /* ... by the disks' own links */
	RP_WARN_MIXED_SIZES,   /* value: bytes wasted */
	RP_WARN_RAID5_WIDE,    /* more than 14 disks in a RAID 5 (group): medium risk (HPE) */
	RP_WARN_CHUNK_SMALL,   /* value: share of requests above chunk */
	RP_WARN_CAPACITY_TINY, /* usable capacity below a request/chunk */
	RP_WARN_URE_LIKELY,    /* value: probability */
	/* 2.1 */
	RP_WARN_RAID6_WIDE,   /* more than 20 (medium) / 28 (high) disks in a RAID 6 (group) */
	RP_WARN_URE_POSSIBLE, /* value: probability, 1 .. 10 % with no redundancy left */
	RP_WARN_MTTDL_LOW,    /* value: P(data loss in 5 years), above 1 % */
	RP_WARN_ZONED,	      /* zoned members: the stroke is whole zones */
};

/* How many warning ids this library has: 0 .. rp_warning_count() - 1 (not
 * the warnings of one evaluation: rp_eval_warning_count()). */
RP_EXPORT int rp_warning_count(void);
/* A warning id's machine name ("defaults", "seek-fit", "cap-controller",
 * ...); NULL for an unknown id. */
RP_EXPORT const char *rp_warning_key(int id);

#define RP_WARNING_TEXT 200 /* fixed for libraidplan.so.2 */

/* Returned by const pointer; may grow at the end. */
struct rp_warning {
	int id; /* enum rp_warning_id */
	double value;
	char text[RP_WARNING_TEXT];
};

/* The result of an evaluation (opaque). */
struct rp_eval;

/*
 * Evaluate one layout. disks: the available disks (the layout picks its
 * members from them); path may be NULL (no caps). On success *out holds a
 * new evaluation that the caller frees with rp_eval_free().
 */
RP_EXPORT int rp_evaluate(const struct rp_disk *disks, size_t n_disks, const struct rp_path *path,
			  const struct rp_layout *layout, const struct rp_workload *wl,
			  struct rp_eval **out, struct rp_error *err);
RP_EXPORT void rp_eval_free(struct rp_eval *ev);

/* The layout as evaluated, defaults filled in (members never NULL); its
 * size is the library's (RP_COPY() keeps a copy of it). */
RP_EXPORT const struct rp_layout *rp_eval_layout(const struct rp_eval *ev);
/* A figure by id; NULL for an unknown id. */
RP_EXPORT const struct rp_figure *rp_eval_figure(const struct rp_eval *ev, int id);
/* Shorthand for rp_eval_figure(ev, id)->value; NaN for an unknown id. */
RP_EXPORT double rp_eval_value(const struct rp_eval *ev, int id);
RP_EXPORT size_t rp_eval_warning_count(const struct rp_eval *ev);
RP_EXPORT const struct rp_warning *rp_eval_warning(const struct rp_eval *ev, size_t i);
/* 1 when a warning of this id was raised. */
RP_EXPORT int rp_eval_has_warning(const struct rp_eval *ev, int id);

/*
 * Whether the layout still holds all data after the given members failed
 * (failed[] are positions 0 .. n_disks-1 inside the layout, not disk
 * indices). Returns 1 (survives), 0 (data lost) or a negative error.
 */
RP_EXPORT int rp_layout_survives(const struct rp_layout *layout, const unsigned *failed,
				 size_t n_failed, struct rp_error *err);

/* ---- solver ---------------------------------------------------------- */

/* Goals; more may follow (rp_goal_count()). */
enum rp_goal_id {
	RP_GOAL_CAPACITY,
	RP_GOAL_IOPS,
	RP_GOAL_ACCESS,
	RP_GOAL_FAILURES,
	RP_GOAL_DISKS,
	RP_GOAL_LEVEL,
};

#define RP_GOAL_BIT(g) (1u << (g))

/* How many goals this library has: ids 0 .. rp_goal_count() - 1. */
RP_EXPORT int rp_goal_count(void);
/* "capacity", "iops", "access", "failures", "disks", "level"; NULL if unknown. */
RP_EXPORT const char *rp_goal_name(int goal);

/* What the caller asks for. 0 in a field means "no goal". */
struct rp_goals {
	uint32_t size;	       /* rp_goals_init() */
	unsigned min_failures; /* failures tolerated */
	unsigned max_disks;    /* 0: any number of the available disks */
	unsigned level_mask;   /* RP_LEVEL_BIT()s to try; 0: all levels */
	unsigned max_results;  /* 0: 10; at most 1000 */
	double min_capacity;   /* usable bytes */
	double min_iops;       /* the workload's mixed IOPS */
	double max_access_ms;  /* average random access time at QD1 */
	uint64_t chunk_bytes;  /* 0: try 4 KiB .. 1 MiB (powers of two) */
	double rebuild_mbps;   /* copied into every layout (see rp_layout) */
	double replace_hours;
};

static inline void rp_goals_init(struct rp_goals *g)
{
	RP_INIT_SIZED(g);
}

/* The result of rp_solve (opaque). */
struct rp_solution;

/*
 * Search levels, disk counts (the best n of the available disks), strokes
 * and chunk sizes for layouts that meet the goals; rank the Pareto-best.
 * An unsatisfiable goal set is not an error: the solution then has no
 * layouts, names the goals that cannot be met and lists the closest ones.
 */
RP_EXPORT int rp_solve(const struct rp_disk *disks, size_t n_disks, const struct rp_path *path,
		       const struct rp_workload *wl, const struct rp_goals *goals,
		       struct rp_solution **out, struct rp_error *err);
RP_EXPORT void rp_solution_free(struct rp_solution *sol);

/* Layouts meeting every goal, best first. */
RP_EXPORT size_t rp_solution_count(const struct rp_solution *sol);
RP_EXPORT const struct rp_eval *rp_solution_get(const struct rp_solution *sol, size_t i);
/* When nothing meets the goals: the nearest layouts, nearest first. */
RP_EXPORT size_t rp_solution_closest_count(const struct rp_solution *sol);
RP_EXPORT const struct rp_eval *rp_solution_closest(const struct rp_solution *sol, size_t i);
/* How far closest layout i is from a goal: 0 when met, else the relative
 * gap ((want - have) / want), for failures the number of disks missing;
 * NaN for an unknown layout or goal. */
RP_EXPORT double rp_solution_closest_gap(const struct rp_solution *sol, size_t i, int goal);
/* The sum of closest layout i's gaps: the distance the closest are ranked
 * by; NaN for an unknown layout. */
RP_EXPORT double rp_solution_closest_distance(const struct rp_solution *sol, size_t i);
/* RP_GOAL_BIT()s of the goals that no layout meets even on its own. */
RP_EXPORT unsigned rp_solution_unmet(const struct rp_solution *sol);
/* The best value any layout reaches for a goal (capacity bytes, IOPS,
 * access ms, failures, disks); NaN for an unknown goal. */
RP_EXPORT double rp_solution_best(const struct rp_solution *sol, int goal);
/* A sentence about the outcome ("3 layouts meet the goals", "no layout
 * reaches 20 TB: at most 12 TB (RAID 0, 8 disks, full stroke)"). */
RP_EXPORT const char *rp_solution_message(const struct rp_solution *sol);
/* Layouts the search evaluated; whether more Pareto-best ones exist than
 * were returned. */
RP_EXPORT size_t rp_solution_evaluated(const struct rp_solution *sol);
RP_EXPORT int rp_solution_truncated(const struct rp_solution *sol);
/* Why the first layout is first (its risk band, its disks, what a layout
 * with fewer disks risks, what puts it before the second); "" when no
 * layout meets the goals. Since 2.1. */
RP_EXPORT const char *rp_solution_reason(const struct rp_solution *sol);

/* ---- flash drives (docs/flash.md) --------------------------------------- */

/*
 * What a flash drive gains from spare area: the write amplification of
 * greedy garbage collection under uniform random writes at a spare factor
 * (physical flash over the user's pages, less 1; > 0): alpha / (alpha +
 * W0(-alpha e^-alpha)), alpha = 1 + spare (Hu et al. 2009; Desnoyers 2012;
 * Xiang and Kurkoski 2012). NaN for a spare of 0 or less. Since 2.3.
 */
RP_EXPORT double rp_flash_write_amp(double spare);

/* A flash drive's NAND and host side; a field left 0 takes the default in
 * brackets (Micron MT29F64G08CBAAA's figures, docs/flash.md). */
struct rp_flash {
	uint32_t size;	    /* rp_flash_init() */
	uint32_t reserved;  /* 0 */
	double spare;	    /* its own spare: raw flash beyond its capacity, a fraction (0.0737) */
	double dies;	    /* dies working in parallel (8) */
	double planes;	    /* planes programmed together (2) */
	double page_kib;    /* a plane's NAND page (8) */
	double block_pages; /* pages of an erase block (256) */
	double read_us;	    /* page read (75) */
	double program_us;  /* page program (1300) */
	double erase_ms;    /* block erase (3.8) */
	double command_us;  /* the controller's time per command (20) */
	double link_mbps;   /* the host link (600: SATA 6 Gb/s) */
};

static inline void rp_flash_init(struct rp_flash *f)
{
	RP_INIT_SIZED(f);
}

/*
 * Steady-state random writes of bs bytes (0: 4 KiB) a flash drive sustains
 * when the host uses the share `used` of its capacity (0 < used <= 1: the
 * rest, TRIMmed and hidden, is spare area; the stroke of a disk): the dies'
 * time for each request (its programs, and garbage collection's reads,
 * programs and erases at the write amplification above) against the
 * command's own time and transfer, whichever is longer. f NULL: the
 * defaults. 0, or -EINVAL / -ERANGE with why. Since 2.3.
 */
RP_EXPORT int rp_flash_random_write_iops(const struct rp_flash *f, double used, uint64_t bs,
					 double *iops, struct rp_error *err);

#ifdef __cplusplus
}
#endif

#endif
