/* planfile.h - the plan file: what `shortstroke plan --output-plan` writes
 * and what `plan --check` and `apply` read. JSON (json-c), one object,
 * format "shortstroke-plan" version 1; see docs/plan-file.md.
 *
 * The parser validates every field and names the first bad one
 * ("plan.json: layout.stroke: expected a number in (0, 1], got 1.5");
 * it never trusts the file: it is fuzzed (tests/fuzz/fuzz_planfile.c). */
#ifndef SHORTSTROKE_PLANFILE_H
#define SHORTSTROKE_PLANFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "raidplan.h"
#include "shortstroke/error.h"

#define PLAN_FORMAT "shortstroke-plan"
#define PLAN_VERSION 1
#define PLAN_MAX_BYTES (16u << 20) /* larger files are refused */
#define PLAN_MAX_DISKS 4096u
#define PLAN_LIMIT_ALIGN (1u << 20) /* per-disk limits are multiples of 1 MiB */
#define PLAN_MAX_SIZES 64u	    /* request sizes of a workload */
#define PLAN_MAX_NOTES 64u
#define PLAN_MAX_FIGURES 64 /* predicted figures kept (libraidplan has 18) */

/* One member of the planned array, in layout order. */
struct plan_disk {
	char device[256];	  /* "/dev/sdb", "sim:sas15k"; "" for a placeholder */
	char serial[48];	  /* "" unknown */
	char wwn[48];		  /* "" unknown */
	char model[48];		  /* "" unknown */
	char model_of[256];	  /* placeholder: the device it copies, or "" */
	char method[24];	  /* the limit method apply uses ("partition", ...); "" auto */
	bool placeholder;	  /* a disk still to be named (--disks N) */
	uint64_t capacity_blocks; /* the full capacity planned on (native max) */
	uint32_t block_size;	  /* bytes per logical block */
	uint64_t limit_blocks;	  /* the capacity to limit the disk to */
	/* The model figures of the disk (0: library default). capacity is
	 * capacity_blocks * block_size; pointer members stay NULL. */
	struct rp_disk rp;
	bool flash; /* a flash drive (docs/flash.md): its NAND the library's defaults */
};

/* The rp_disk the library takes for a plan's disk: pd->rp, with a flash
 * drive's rp_flash (pd->rp's pointers stay NULL) */
void plan_disk_rp(const struct plan_disk *pd, struct rp_disk *out);

struct plan {
	unsigned version;   /* PLAN_VERSION */
	char created[32];   /* ISO 8601 UTC, "2024-05-01T12:00:00Z" */
	char generator[64]; /* "shortstroke 0.1.0, libraidplan 2.0.0" */
	size_t n_disks;
	struct plan_disk *disks; /* the members, in layout order */
	/* members NULL (disks 0 .. n_disks-1); n_disks == plan.n_disks */
	struct rp_layout layout;
	uint64_t limit_bytes;	     /* used bytes per member: floor(stroke x Cmin) to 1 MiB */
	char profile[32];	     /* "database", ..., or "" for a custom workload */
	struct rp_workload workload; /* sizes point into .sizes */
	struct rp_size_share sizes[PLAN_MAX_SIZES];
	struct rp_path path; /* links unused (NULL) */
	struct rp_goals goals;
	/* The figures predicted when the plan was made (RP_FIG_* order), the
	 * first plan_figure_count(). */
	double predicted[PLAN_MAX_FIGURES];
	bool predicted_set[PLAN_MAX_FIGURES];
	size_t n_notes; /* free-text notes (defaults used, ...) */
	char notes[PLAN_MAX_NOTES][256];
};

/* How many of libraidplan's figures a plan keeps: rp_figure_count(), at
 * most PLAN_MAX_FIGURES. */
int plan_figure_count(void);

/* A new empty plan (version and generator set, its libraidplan structs
 * initialised), or NULL. */
struct plan *plan_new(void);
void plan_free(struct plan *p);

/*
 * The per-member limit for a stroke: floor(stroke x min_capacity) rounded
 * down to PLAN_LIMIT_ALIGN; the whole min_capacity at stroke >= 1.
 * 0 when the band is smaller than the alignment.
 */
uint64_t plan_limit_bytes(double stroke, uint64_t min_capacity);

/* Fill limit_bytes and every disk's limit_blocks from layout.stroke.
 * -EINVAL (with err) when the band rounds to nothing. A short stroke's
 * limit is rounded here, once, to what a limit method sets
 * (PLAN_LIMIT_ALIGN, a multiple of every block size); a full stroke's is
 * the smallest member's whole capacity (plan_full_stroke). */
int plan_set_limits(struct plan *p, struct ss_error *err);

/* The plan uses every member whole: its limit is the smallest member's
 * whole capacity, which md takes of each member by itself; nothing is to
 * be sent to a drive's capacity. */
bool plan_full_stroke(const struct plan *p);

/*
 * Parse and validate a plan. text need not be NUL-terminated; origin (a
 * file name, may be NULL) prefixes messages. On success *out is a new plan
 * for plan_free(). Every error is -EINVAL (or -ENOMEM) with one line in err
 * naming the field.
 */
int planfile_parse(const char *text, size_t len, const char *origin, struct plan **out,
		   struct ss_error *err);

/* Read and parse a file ("-" is stdin). */
int planfile_load(const char *path, struct plan **out, struct ss_error *err);

/* The plan as JSON text (pretty); *text is freed with free(). */
int planfile_format(const struct plan *p, char **text, struct ss_error *err);

/* Write atomically: PATH.tmp.XXXXXX, fsync, rename over PATH, fsync the
 * directory. Sets created when it is empty. */
int planfile_write(const char *path, struct plan *p, struct ss_error *err);

#endif
