/* sim.h - the drive simulator: a rig of emulated SATA (behind SAT) and SAS
 * drives answering CDBs exactly as a drive would. */
#ifndef SHORTSTROKE_SIM_H
#define SHORTSTROKE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"
#include "shortstroke/transport.h"

struct sim_rig;
struct sim_drive;
struct dev_env;
struct dev_source_ops;

/*
 * Load a rig (JSON). state_dir may be NULL (state lives in memory only);
 * otherwise each drive's state (limits, SMART counters, written data as a
 * sparse image) persists there and is reloaded by the next run.
 * A malformed file fails with the line and field in err; nothing is
 * half-loaded.
 */
int sim_rig_load_file(const char *path, const char *state_dir,
		      struct sim_rig **out, struct ss_error *err);
int sim_rig_load_string(const char *json, const char *origin,
			const char *state_dir, struct sim_rig **out,
			struct ss_error *err);
/* The built-in demo rig. */
int sim_rig_demo(const char *state_dir, struct sim_rig **out, struct ss_error *err);
/* The demo rig as JSON text (what `--demo` loads; for users to copy). */
const char *sim_rig_demo_json(void);
void sim_rig_free(struct sim_rig *rig);

unsigned sim_rig_count(const struct sim_rig *rig);
struct sim_drive *sim_rig_drive(struct sim_rig *rig, unsigned i);
struct sim_drive *sim_rig_find(struct sim_rig *rig, const char *id);

const char *sim_drive_id(const struct sim_drive *d);
/* "sata" or "sas" */
const char *sim_drive_personality(const struct sim_drive *d);

/*
 * Execute one command: fills c->status, c->sense/sense_len, the data-in
 * buffer, c->resid and c->duration_ns (virtual time). Returns 0 when the
 * drive answered (any status), or a negative errno when it could not
 * (e.g. -ENODEV for a drive that vanished).
 */
int sim_drive_exec(struct sim_drive *d, struct xcmd *c, struct ss_error *err);

/* Power-cycle: volatile settings are lost, per-power-cycle rules reset,
 * freeze locks released (unless a "frozen" fault re-freezes at power-on),
 * a format in progress is lost (the medium reads MEDIUM FORMAT CORRUPTED),
 * a vanished drive answers again. The clock advances by the spin-up. */
void sim_drive_power_cycle(struct sim_drive *d);

/* Inject a fault by its spec text (see docs/simulator.md). */
int sim_drive_inject(struct sim_drive *d, const char *spec, struct ss_error *err);
/* Remove every injected fault (and those the rig listed). */
void sim_drive_clear_faults(struct sim_drive *d);

/* The drive's virtual clock (ns). It advances by each command's duration
 * and, while the process runs, by real time x the rig's "time_scale"
 * (default 1000: a real millisecond is a virtual second). */
uint64_t sim_drive_clock_ns(struct sim_drive *d);
/* Let ns of virtual time pass (a format in progress moves on). */
void sim_drive_advance_clock(struct sim_drive *d, uint64_t ns);

/* Positioning time (virtual ns) the drive needs from where its heads are
 * to start a transfer at lba: seek plus rotational wait, 0 when lba
 * continues the previous transfer. Changes nothing. What a drive with
 * command queuing compares to pick the next queued command (shortest
 * positioning time first); the simulated I/O engine uses it. */
uint64_t sim_drive_position_ns(const struct sim_drive *d, uint64_t lba);
/* Of n queued commands starting at lba[0..n), the index of the one with
 * the shortest positioning time (the first on a tie). */
unsigned sim_drive_queue_pick(const struct sim_drive *d, const uint64_t *lba, unsigned n);
/* The same for reads and writes (write[i], blocks[i]; both may be NULL
 * for reads only): a write the drive's write cache takes needs no
 * positioning, so the first such one is picked. */
unsigned sim_drive_queue_pick_rw(const struct sim_drive *d, const uint64_t *lba,
				 const uint32_t *blocks, const bool *write, unsigned n);
/* How many commands the drive holds at once (its NCQ or TCQ depth, the
 * rig's "queue_depth"); more wait in the host's queue. */
unsigned sim_drive_queue_depth(const struct sim_drive *d);

/* Current capacity in logical blocks (what READ CAPACITY answers). */
uint64_t sim_drive_capacity(const struct sim_drive *d);

/* Persist the drive's state now (also done after every change). */
int sim_drive_save(struct sim_drive *d, struct ss_error *err);

/* The transport over one simulated drive (does not own the drive). */
int transport_open_sim(struct sim_drive *d, struct transport **out,
		       struct ss_error *err);

/*
 * The rig a context names: the demo rig, else the rig file, with its state
 * under <state_dir>/sim/<name> ("demo", or the file's name up to its first
 * '.'), made when missing. Neither named: -ENODEV, a usage error ("give
 * --demo or --rig FILE"); a rig file that does not load is a usage error.
 */
int sim_rig_open(const char *rig_file, bool demo, const char *state_dir,
		 struct sim_rig **out, struct ss_error *err);

/* A simulated drive's mechanics as its rig sets them, for the planner
 * (`plan sim:ID` plans with the rig's drive, not defaults by class). */
struct sim_mechanics {
	double t2t_ms, avg_ms, full_ms; /* seek */
	double outer_mbps, inner_mbps;
	double overhead_ms; /* a read's or write's own time: overhead + every command's */
	unsigned queue_depth;
	bool write_cache; /* on now */
	double cache_mb;  /* 10^6 bytes */
	double link_mbps; /* the host link */
};
void sim_drive_mechanics(const struct sim_drive *d, struct sim_mechanics *m);

/* The simulated-rig device source (devsrc.h, src/sim/sim_source.c): the
 * drives of the rig env names (sim_rig_open), named "sim:ID"; they can be
 * power-cycled. */
extern const struct dev_source_ops sim_dev_source;
/* Its rig in env, loaded on first use (env keeps it; dev_env_release frees it). */
int sim_source_rig(struct dev_env *env, struct sim_rig **out, struct ss_error *err);

#endif
