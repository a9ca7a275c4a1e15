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
int sim_rig_load_file(const char *path, const char *state_dir, struct sim_rig **out,
		      struct ss_error *err);
int sim_rig_load_string(const char *json, const char *origin, const char *state_dir,
			struct sim_rig **out, struct ss_error *err);
/* The built-in demo rig. */
int sim_rig_demo(const char *state_dir, struct sim_rig **out, struct ss_error *err);
/* The demo rig as JSON text (what `--demo` loads; for users to copy). */
const char *sim_rig_demo_json(void);
void sim_rig_free(struct sim_rig *rig);

unsigned sim_rig_count(const struct sim_rig *rig);
struct sim_drive *sim_rig_drive(struct sim_rig *rig, unsigned i);
struct sim_drive *sim_rig_find(struct sim_rig *rig, const char *id);

const char *sim_drive_id(const struct sim_drive *d);
/* Its serial number (trimmed) and WWN (16 hex digits, "" without one) as the
 * rig gave them and as it answers them: read without a command. */
void sim_drive_ids(const struct sim_drive *d, char *serial, size_t slen, char *wwn, size_t wlen);
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
/* The name of the k-th fault a spec may start with (NULL past the last):
 * "abort", "medium-error", ... (sim fault --list). */
const char *sim_fault_name_at(size_t k);
/* Remove every injected fault (and those the rig listed). */
void sim_drive_clear_faults(struct sim_drive *d);

/* The drive's virtual clock (ns). It advances by each command's duration
 * and, while the process runs, by real time x the rig's "time_scale"
 * (default 1000: a real millisecond is a virtual second). */
uint64_t sim_drive_clock_ns(struct sim_drive *d);
/* Let ns of virtual time pass (a format in progress moves on, the write
 * cache destages: sim_drive_idle). */
void sim_drive_advance_clock(struct sim_drive *d, uint64_t ns);

/* Positioning time (virtual ns) the drive needs from where its heads are
 * to start a transfer at lba: seek plus rotational wait, 0 when lba
 * continues the previous transfer. Changes nothing. What a drive with
 * command queuing compares to pick the next queued command (shortest
 * positioning time first); the simulated I/O engine uses it. */
uint64_t sim_drive_position_ns(const struct sim_drive *d, uint64_t lba);

/* A command a drive holds, as its scheduler sees it: where, how much, and
 * how long it has waited in the drive's queue (virtual ns). */
struct sim_queued {
	uint64_t lba;
	uint32_t blocks;
	bool write;
	uint64_t wait_ns;
};
#define SIM_SCHED_DESTAGE 0xffffffffu
/* The drive's scheduler (docs/simulator.md, "Scheduling"): of the n
 * commands the drive holds (q[0] the oldest), the index of the one it
 * serves next, or SIM_SCHED_DESTAGE when it first writes a piece of its
 * write cache to the medium (sim_drive_destage). A write the cache takes
 * while it has room goes first; the others by aged shortest positioning
 * time, a run of commands that continue each other from its first; the
 * destager competes with them as the cache fills. Remembers whether
 * commands that need the mechanics wait (the destager then leaves them the
 * time of a cached write's transfer). */
unsigned sim_drive_schedule(struct sim_drive *d, const struct sim_queued *q, unsigned n);
/* The drive writes the piece of its write cache nearest its heads to the
 * medium (or ends the piece under way); returns how long that took
 * (virtual ns, also added to its clock; 0 with nothing cached). */
uint64_t sim_drive_destage(struct sim_drive *d);

/* A multi-actuator drive's head stacks (the rig's "actuators"; 1 for
 * others), and which one serves lba: commands of different actuators are
 * served at the same time (each takes the time the drive says, on its
 * actuator's own clock). */
unsigned sim_drive_actuators(const struct sim_drive *d);
unsigned sim_drive_actuator_of(const struct sim_drive *d, uint64_t lba);

/* How many commands the drive holds at once (its NCQ or TCQ depth, the
 * rig's "queue_depth"); more wait in the host's queue. */
unsigned sim_drive_queue_depth(const struct sim_drive *d);

/* The drive did nothing for ns (an engine that keeps its own clock, with
 * drives that wait for each other, says so before the next command): its
 * write cache destaged meanwhile and the platter turned on, so the next
 * command's rotational wait starts from where it turned to (a destage
 * piece still positioning when the next host command comes is given up,
 * one that writes ends first). Otherwise the model takes a command to
 * follow the last one at once. A command that continues the last transfer
 * still needs no positioning. sim_drive_advance_clock idles the drive the
 * same way. */
void sim_drive_idle(struct sim_drive *d, uint64_t ns);
/* The platter alone turned ns further than the model counted (a spindle a
 * little faster than its nominal speed); nothing else changes. */
void sim_drive_turn(struct sim_drive *d, uint64_t ns);
/* One revolution of the platters (ns; 0 for a drive that does not rotate). */
double sim_drive_rev_ns(const struct sim_drive *d);

/* A flash drive whose commands proceed in parallel (the NVMe personality):
 * true with its flash dies (each serves one command at a time, for the
 * time the drive answers it took) and its host link (MB/s, which every
 * transfer shares); false for a disk, whose one actuator serves them in
 * turn (docs/simulator.md, "NVMe personality"). */
bool sim_drive_flash(const struct sim_drive *d, unsigned *dies, double *link_mbps);

/* A flash drive (the rig's "flash", docs/flash.md): what its FTL did since
 * it was built in this process: host pages (4 KiB) written, pages
 * programmed (the host's and garbage collection's), pages garbage
 * collection moved, blocks erased; its logical pages, of them mapped, and
 * the spare factor that leaves (physical pages over mapped ones, less 1).
 * The write amplification is programs / host_pages. */
struct sim_flash_stats {
	uint64_t host_pages, programs, gc_moves, erases;
	uint64_t pages, mapped;
	double spare;
};
/* 0, or -EOPNOTSUPP for a drive that is no flash drive. Builds the FTL
 * when it is not yet. */
int sim_drive_flash_stats(struct sim_drive *d, struct sim_flash_stats *out);
/* Forget the counts (the start of a measurement) */
void sim_drive_flash_stats_reset(struct sim_drive *d);

/* Current capacity in logical blocks (what READ CAPACITY answers). */
uint64_t sim_drive_capacity(const struct sim_drive *d);

/* Persist the drive's state now (also done after every change). */
int sim_drive_save(struct sim_drive *d, struct ss_error *err);

/* The transport over one simulated drive (does not own the drive). */
int transport_open_sim(struct sim_drive *d, struct transport **out, struct ss_error *err);

/*
 * The rig a context names: the demo rig, else the rig file, with its state
 * under <state_dir>/sim/<name> ("demo", or the file's name up to its first
 * '.'), made when missing. Neither named: -ENODEV, a usage error ("give
 * --demo or --rig FILE"); a rig file that does not load is a usage error.
 */
int sim_rig_open(const char *rig_file, bool demo, const char *state_dir, struct sim_rig **out,
		 struct ss_error *err);

/* ---- simulated SES enclosures (the rig's "enclosures", docs/simulator.md) --
 *
 * An enclosure is a SES device (peripheral device type 0Dh) whose slots hold
 * drives of the rig: it answers INQUIRY, RECEIVE DIAGNOSTIC RESULTS (pages
 * 00h, 01h, 02h, 07h, 0Ah) and SEND DIAGNOSTIC (the Enclosure Control page:
 * each slot's locate and fault LEDs, kept in the state directory). */
struct sim_encl;
unsigned sim_rig_encl_count(const struct sim_rig *rig);
struct sim_encl *sim_rig_encl(struct sim_rig *rig, unsigned i);
struct sim_encl *sim_rig_find_encl(struct sim_rig *rig, const char *id);
const char *sim_encl_id(const struct sim_encl *e);
unsigned sim_encl_slots(const struct sim_encl *e);
/* The drive in slot (NULL: empty or no such slot). */
struct sim_drive *sim_encl_slot_drive(const struct sim_encl *e, unsigned slot);
/* One command, as sim_drive_exec. */
int sim_encl_exec(struct sim_encl *e, struct xcmd *c, struct ss_error *err);
/* The transport over one simulated enclosure (does not own it). */
int transport_open_sim_encl(struct sim_encl *e, struct transport **out, struct ss_error *err);

/* A simulated drive's mechanics as its rig sets them, for the planner
 * (`plan sim:ID` plans with the rig's drive, not defaults by class). */
struct dev_mechanics; /* devsrc.h */
void sim_drive_mechanics(const struct sim_drive *d, struct dev_mechanics *m);

/* ---- simulated md arrays (the rig's "arrays", docs/simulator.md) ----------
 *
 * An array is a name over member drives of the rig, laid out as md lays RAID
 * 0, 1, 10 (near copies), 5 and 6 (left-symmetric) and 50/60 (RAID 0 over
 * groups of RAID 5/6). It is a model for timing, not a RAID for data: the
 * simulated I/O engine (src/io) runs benchmarks on it in virtual time, each
 * request becoming the member commands md would send (sim_md_*). */
struct sim_array;

#define SIM_ARRAY_MAX_MEMBERS 64

unsigned sim_rig_array_count(const struct sim_rig *rig);
struct sim_array *sim_rig_array(struct sim_rig *rig, unsigned i);
struct sim_array *sim_rig_find_array(struct sim_rig *rig, const char *name);

const char *sim_array_name(const struct sim_array *a);
/* "RAID 5", "RAID 10" */
const char *sim_array_level_text(const struct sim_array *a);
unsigned sim_array_members(const struct sim_array *a);
struct sim_drive *sim_array_member(const struct sim_array *a, unsigned i);
/* The path cap (MB/s, 0: none) on what the members read and what they are
 * written, and the controller's latency per array request (ns: the rig's
 * latency_us + per_member_us x members). */
void sim_array_path(const struct sim_array *a, double *read_mbps, double *write_mbps);
uint64_t sim_array_latency_ns(const struct sim_array *a);
/* md's stripe_cache_size: the 4 KiB rows of stripes its stripe cache holds
 * (RAID 5, 6, 50, 60; per group). */
unsigned sim_array_stripe_cache(const struct sim_array *a);

/* md's layout of an array whose members give member_blocks each (pure). */
struct sim_md {
	int level;		/* 0, 1, 10, 5, 6, 50, 60 */
	unsigned n;		/* members */
	unsigned copies;	/* RAID 1: n; RAID 10: near copies; else 1 */
	unsigned groups;	/* RAID 50/60: groups; else 1 */
	unsigned gsize;		/* members per group (n for RAID 5/6) */
	unsigned parity;	/* parity chunks per stripe: 1 (5, 50), 2 (6, 60), else 0 */
	unsigned dg;		/* data chunks per group stripe (gsize - parity) */
	uint64_t chunk;		/* blocks */
	uint64_t member_blocks; /* what each member gives (whole chunks) */
	uint64_t blocks;	/* the array's capacity */
	uint32_t row_blocks;	/* blocks of a row of md's stripe cache (4 KiB, at least 1) */
};

/* Whether a level takes n members with these copies (RAID 10; 0: 2) and
 * groups (RAID 50/60; 0: 2): 0, or -EINVAL with why in err ("RAID 6 needs
 * at least 4 members, it has 3"). */
int sim_md_check(int level, unsigned n, unsigned copies, unsigned groups, struct ss_error *err);
/* The layout of an array (the rig's settings) over members of member_blocks
 * (the smallest member's capacity) blocks of lblock bytes: -EINVAL when
 * that holds no chunk. */
int sim_array_md(const struct sim_array *a, uint64_t member_blocks, uint32_t lblock,
		 struct sim_md *g, struct ss_error *err);

/* One member command. */
struct sim_md_op {
	unsigned member; /* index in the array, md's role number */
	uint64_t lba;	 /* on the member */
	uint32_t blocks;
	bool write;
	bool after; /* parity: sent once the reads of its stripe are done */
};

/* A growing list of member commands (free v with free()). */
struct sim_md_ops {
	struct sim_md_op *v;
	unsigned n, cap;
};

/* For reads of mirrored data: which of the ncopies copies (member[i] at
 * lba[i]) to read; NULL takes the first. */
typedef unsigned (*sim_md_choose_fn)(void *arg, const unsigned *member, const uint64_t *lba,
				     unsigned ncopies, uint32_t blocks);

/*
 * The member commands of a read, or of a write to RAID 0, 1 or 10, of
 * [lba, lba + blocks) (inside the array): split at chunk boundaries (RAID 1
 * is not), every copy written, one copy read (choose), contiguous pieces on
 * one member merged. Parity writes go by stripe (sim_md_parts). Appends to
 * ops; 0 or -ENOMEM.
 */
int sim_md_map(const struct sim_md *g, uint64_t lba, uint32_t blocks, bool write,
	       sim_md_choose_fn choose, void *arg, struct sim_md_ops *ops);

/* The part of a write that falls in one stripe of one group: [start, end)
 * blocks of the stripe's data (dg chunks, in md's data order). */
struct sim_md_part {
	unsigned group;
	uint64_t stripe;
	uint64_t start, end;
};

/* The stripes a parity write of [lba, lba + blocks) touches, in order:
 * how many there are (parts gets at most max of them). */
unsigned sim_md_parts(const struct sim_md *g, uint64_t lba, uint32_t blocks,
		      struct sim_md_part *parts, unsigned max);

/* How md wrote a stripe: row ranges by way, in blocks per member. */
struct sim_md_how {
	uint64_t full;	 /* every data block of the row written: no reads */
	uint64_t rmw;	 /* read-modify-write: old data and parity read */
	uint64_t rcw;	 /* reconstruct-write: the other data read */
	uint64_t cached; /* what either way needed was in the stripe cache */
};

/* What md's stripe cache holds of one stripe: for each block of it (its data
 * chunks in md's data order, then P, then Q), the 4 KiB rows that are up to
 * date (read, or written, since the stripe came into the cache). */
#define SIM_MD_ROWS_MAX 1024 /* rows of the largest chunk, 4 MiB */
struct sim_md_cached {
	uint64_t up[SIM_ARRAY_MAX_MEMBERS][SIM_MD_ROWS_MAX / 64];
};

/* The rows of which a stripe's cache entry holds something. */
unsigned sim_md_cached_rows(const struct sim_md *g, const struct sim_md_cached *c);

/*
 * The member commands that write the parts [r[i].start, r[i].end) of one
 * stripe (one group's; sorted or not, they may touch): row by row, the way
 * md's stripe cache chooses. Each way counts the blocks it would read that
 * the cache does not hold: read-modify-write the old data written and the
 * parity, reconstruct-write the data not written. Read-modify-write when it
 * reads fewer (and some), reconstruct-write when it reads as few or fewer
 * (and some), else no reads (a row all of whose data is written, or one the
 * cache holds enough of); then the new data and the parity are written.
 * Rows that go the same way merge. Appends to ops (the writes that wait for
 * reads have after set); how (may be NULL) gets the rows by way. cache (may
 * be NULL: nothing cached) is what the stripe cache holds of the stripe, and
 * afterwards what it holds then: what was read and what was written.
 * 0 or -ENOMEM (-EINVAL: no parity array, or no group of it).
 */
struct sim_md_write {
	unsigned group;
	uint64_t stripe;
	const struct sim_md_part *parts; /* the r[] above */
	unsigned nparts;
	struct sim_md_cached *cache;
};
int sim_md_stripe_write(const struct sim_md *g, const struct sim_md_write *w,
			struct sim_md_ops *ops, struct sim_md_how *how);

/* Where data chunk i (0 .. dg-1) and the parity chunks of a stripe of a
 * group are: member indices (q is -1 without a second parity). */
void sim_md_stripe_members(const struct sim_md *g, unsigned group, uint64_t stripe, unsigned *data,
			   int *p, int *q);

/* The simulated-rig device source (devsrc.h, src/sim/sim_source.c): the
 * drives of the rig env names (sim_rig_open), named "sim:ID"; they can be
 * power-cycled. */
extern const struct dev_source_ops sim_dev_source;
/* Its rig in env, loaded on first use (env keeps it; dev_env_release frees it). */
int sim_source_rig(struct dev_env *env, struct sim_rig **out, struct ss_error *err);

#endif
