/* sim_priv.h - the simulator's insides: drive configuration (from the rig
 * file), mutable state (persisted in the state directory), faults, the
 * media model and the command handlers. */
#ifndef SHORTSTROKE_SIM_PRIV_H
#define SHORTSTROKE_SIM_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/ata.h"
#include "shortstroke/cpr.h"
#include "shortstroke/error.h"
#include "shortstroke/sat.h"
#include "shortstroke/sim.h"
#include "shortstroke/transport.h"

#define SIM_ID_MAX 32
#define SIM_MAX_FAULTS 32
#define SIM_MAX_DRIVES 256

enum sim_zoned {
	SIM_ZONED_NONE = 0,
	SIM_ZONED_HOST_AWARE,
	SIM_ZONED_HOST_MANAGED,
};

/* Mechanics, in the rig's units, plus what is derived from them. */
struct sim_media {
	double avg_seek_ms, t2t_ms, full_ms;
	double outer_mbps, inner_mbps; /* MB = 10^6 bytes */
	double cache_mb;
	/* derived by sim_media_fit() */
	double seek_a_ms, seek_b_ms; /* t(x) = T + a x + b sqrt(x) */
	double k;		     /* inner/outer radius (rate) ratio */
	double rev_ns;		     /* one revolution, 0 when not rotating */
};

/* A saved IDENTIFY + SMART blob, the record format libatasmart's
 * sk_disk_get_blob writes (skdump --save): records of a 4-byte tag
 * ("IDFY", "SMST", "SMDT", "SMTH"), a 4-byte big-endian length and the
 * payload. sim_blob.c. */
#define SIM_BLOB_MAX (64u << 10)
struct sim_blob {
	uint8_t identify[512];
	bool has_data, has_thr, has_status;
	bool status_good;  /* SMST: the drive's RETURN STATUS said good */
	uint8_t data[512]; /* SMART READ DATA */
	uint8_t thr[512];  /* SMART READ THRESHOLDS */
};

struct sim_smart {
	bool supported, enabled;
	uint32_t temperature;
	uint64_t power_on_hours;
	uint64_t reallocated, pending, offline_uncorrectable, crc_errors;
};

enum sim_fault_kind {
	SIM_FAULT_ABORT = 1,
	SIM_FAULT_IGNORE_MODE_SELECT,
	SIM_FAULT_MEDIUM_ERROR,
	SIM_FAULT_VANISH_AFTER,
	SIM_FAULT_FORMAT_POWER_LOSS,
	SIM_FAULT_FROZEN,
	SIM_FAULT_SLOW,
	SIM_FAULT_SMART_DEGRADE,
	SIM_FAULT_SMART_FAIL,
	SIM_FAULT_SELFTEST_FAIL,
	SIM_FAULT_NO_SMART,
	SIM_FAULT_SLOW_BLOCK,
	SIM_FAULT_WEAK_HEAD,
	SIM_FAULT_DELAY,
	/* a bridge in the path (probe): */
	SIM_FAULT_REJECT,	    /* reject:<op>: ILLEGAL REQUEST, INVALID COMMAND OPCODE */
	SIM_FAULT_DROP_REGISTERS,   /* CK_COND ignored: GOOD, no registers */
	SIM_FAULT_DROP_MODE_SELECT, /* MODE SELECT: GOOD, nothing taken or applied */
};

struct sim_fault {
	enum sim_fault_kind kind;
	uint8_t opcode;	    /* abort */
	int64_t count;	    /* abort: times left, -1 forever; vanish-after: commands left */
	uint64_t lba_first; /* medium-error; selftest-fail: the failing LBA */
	uint64_t lba_last;
	uint64_t reallocated, pending; /* smart-degrade: added to the counters */
	unsigned percent;	       /* format-power-loss: where the power goes */
	unsigned delay_ms;	       /* delay: real time before the answer */
	bool any_op;		       /* delay: every command, not only opcode's */
	double factor;		       /* slow */
	double extra_ms;	       /* slow-block: added to a read of the range */
	unsigned head;		       /* weak-head: which surface (its rate: percent) */
};

/* How one unit differs from its model's nominal figures (sim_unit.c,
 * docs/simulator.md "Units"): a media latency distribution per zone (reads
 * that need re-reads), each seeded by the unit's serial so that a drive
 * behaves the same on every run. */
struct sim_unit {
	uint64_t seed;		/* the serial hashed with the rig's "seed" */
	double retry_ppm_outer; /* "retries": 64 KiB granules of the medium that read */
	double retry_ppm_inner; /* only after re-reads, per million, at the outer and the
				 * inner edge (linear between: the zones in between) */
	/* "spread": the model's spread, each a standard deviation in % */
	double seek_pct, rate_pct, rpm_pct, overhead_pct;
	/* what this unit drew from it: its figures over the model's */
	double seek_f, rate_f, rpm_f, overhead_f;
	unsigned heads; /* "heads": the surfaces the LBAs are laid across */
};

/* A flash drive (the rig's "flash", docs/flash.md): its NAND and how TRIM
 * and UNMAP leave what they free. */
enum sim_trim {
	SIM_TRIM_NONE = 0, /* no TRIM / UNMAP */
	SIM_TRIM_NONDET,   /* supported, reads after it not deterministic */
	SIM_TRIM_DRAT,	   /* deterministic read after TRIM (some fixed data) */
	SIM_TRIM_RZAT,	   /* deterministic, reads zeros */
};

struct sim_flash_cfg {
	bool on;
	unsigned page_kib;    /* a NAND page of one plane */
	unsigned planes;      /* programmed together (multi-plane) */
	unsigned block_pages; /* pages of an erase block (one plane's) */
	unsigned dies;	      /* working in parallel */
	double read_us, program_us, erase_ms;
	double spare_pct; /* raw flash beyond the native capacity, % of it */
	bool fresh;	  /* "state": "new": nothing mapped at first */
	enum sim_trim trim;
	bool unmap; /* SAS: UNMAP too, not only WRITE SAME with UNMAP */
};

/* The NVMe personality's own figures (the rig's "nvme" member, sim_nvme.c) */
#define SIM_NVME_LBAF_MAX 16
struct sim_nvme_cfg {
	uint32_t lbaf[SIM_NVME_LBAF_MAX]; /* the LBA formats offered: block bytes */
	unsigned nlbaf;
	uint8_t lbaf_init; /* the format at manufacture */
	bool ns_mgmt;	   /* OACS bit 3: namespace management */
	uint8_t spare, spare_threshold, percentage_used;
	uint64_t media_errors;
	unsigned dies; /* flash dies that serve commands in parallel */
};

/* Storage element depopulation (sim_elem.c): what runs */
enum sim_elem_op {
	SIM_ELEM_IDLE = 0,
	SIM_ELEM_REMOVING,  /* REMOVE ELEMENT AND TRUNCATE */
	SIM_ELEM_RESTORING, /* RESTORE ELEMENTS AND REBUILD */
};

/* What the rig file says about a drive; never changes after loading. */
struct sim_config {
	char id[SIM_ID_MAX + 1];
	bool sata;
	bool nvme; /* the NVMe personality: NVMe commands, no CDBs; lblock is the
		      smallest LBA format's size and blocks count those */
	struct sim_nvme_cfg nv;
	char vendor[9];
	char model[41];
	char serial[21];
	char firmware[9];
	uint64_t wwn;
	bool has_wwn;
	uint64_t blocks; /* native capacity at "manufacture", logical blocks */
	uint32_t lblock, pblock;
	uint16_t rpm;
	uint8_t form_factor; /* as VPD B1 / IDENTIFY 168 encode it */
	bool lba48;
	bool hpa;
	uint64_t hpa_blocks; /* 0: no HPA set initially */
	bool amac;
	bool dco;
	bool dco_frozen;
	uint64_t dco_factory; /* factory capacity (>= blocks) */
	bool sec, sec_enabled, sec_frozen, sec_locked;
	struct sim_smart smart;
	enum sim_zoned zoned;
	uint32_t zone_mb;
	uint32_t conv_zones;
	bool d_sense;
	bool depop; /* "depop": storage element depopulation (sim_elem.c) */
	/* "sector_sizes": the logical sector sizes it may be formatted to
	 * (sim_sector.c); the rig's own figures, kept when one is applied */
	uint32_t sizes[4];
	unsigned nsizes;
	uint32_t rig_lblock, rig_pblock; /* 0 until a size is applied */
	uint64_t rig_blocks, rig_dco;
	struct sim_media media;
	struct sim_unit unit;
	struct sim_fault faults[SIM_MAX_FAULTS];
	unsigned nfaults;
	/* queuing and caching (docs/simulator.md, "Queue, overhead, write
	 * cache") */
	unsigned queue_depth; /* commands the drive holds (NCQ / TCQ) */
	uint64_t overhead_ns; /* added to every read, write and verify */
	bool write_cache;     /* WCE at power-on (the default) */
	double cache_mib;     /* write cache size */
	/* seeded from a saved IDENTIFY + SMART blob ("smart_blob") */
	bool blob;
	bool blob_smart;   /* SMART data, thresholds, status from the blob */
	bool blob_ext_cap; /* the blob's IDENTIFY word 69 bit 3 */
	struct sim_blob bl;
	/* what the simulator's IDENTIFY says for the blob's own configuration
	 * at power-on: where the drive's answer still says the same, the
	 * blob's words are kept as the real drive sent them */
	uint8_t blob_base[512];
	struct sim_flash_cfg flash;
	/* "actuators": head stacks that position independently, each serving
	 * its range of the LBAs (equal shares of blocks, in order), as the
	 * Concurrent Positioning Ranges log and VPD page B9h report them;
	 * 1: an ordinary drive, and ranges.n 0 */
	unsigned actuators;
	struct cpr_ranges ranges;
};

/* --- self-tests (sim_smart.c): one engine for both personalities --- */

enum sim_st_kind {
	SIM_ST_SHORT = 1,
	SIM_ST_EXTENDED = 2,
	SIM_ST_CONVEYANCE = 3, /* ATA only */
	SIM_ST_SELECTIVE = 4,  /* ATA only: the spans of the selective log */
};

enum sim_st_outcome {
	SIM_ST_OK = 0,
	SIM_ST_ABORTED,	    /* by the host */
	SIM_ST_INTERRUPTED, /* by a power cycle (ATA "reset") */
	SIM_ST_READ_FAIL,   /* stopped at the first unreadable LBA */
};

struct sim_st_entry {
	uint8_t kind; /* enum sim_st_kind */
	bool captive; /* ATA captive / SCSI foreground */
	uint8_t outcome;
	uint32_t hours; /* power-on hours when it ended */
	bool lba_valid;
	uint64_t lba;
};

#define SIM_ST_LOG 21 /* the ATA self-test log's descriptors */

struct sim_selftest {
	bool active;
	uint8_t kind;
	uint64_t start_ns, end_ns;
	bool fails; /* stops at fail_lba, at fail_ns */
	uint64_t fail_lba, fail_ns;
	struct sim_st_entry log[SIM_ST_LOG]; /* ring: the newest at (total - 1) % SIM_ST_LOG */
	uint32_t total;
	/* the selective self-test log (SMART log 09h): its spans */
	uint64_t sel_first[5], sel_last[5];
	unsigned sel_n;
};

/* ATA summary error log: the last 5 errors */
#define SIM_ERR_LOG 5
struct sim_ata_err {
	uint8_t command, error, status;
	uint64_t lba;
	uint32_t hours;
};

struct sim_errlog {
	struct sim_ata_err e[SIM_ERR_LOG]; /* ring, like the self-test log */
	uint32_t total;
};

/* SCSI error counter log pages; updated without marking the state dirty
 * (saved with the next change or when the rig is freed) */
struct sim_counters {
	uint64_t read_bytes, write_bytes, verify_bytes;
	uint64_t read_unc, verify_unc;
	uint64_t read_delayed; /* reads the drive recovered by re-reading (retries) */
	uint64_t non_medium;   /* commands failed for another reason than the medium */
};

enum sim_rnm {
	SIM_RNM_NONE = 0,
	SIM_RNM_28, /* the previous ATA command was READ NATIVE MAX */
	SIM_RNM_48, /* ... READ NATIVE MAX EXT */
};

/* Everything that changes. All of it is persisted (volatile settings too,
 * with their flag: a new process is not a power cycle). */
struct sim_state {
	/* ATA capacity: max LBAs */
	uint64_t native_max; /* DCO-configured native max LBA */
	uint64_t nv_max;     /* accessible max as stored (non-volatile) */
	bool vol_active;     /* a volatile SET MAX is in effect */
	uint64_t vol_max;
	bool nv_setmax_done; /* non-volatile SET MAX since power-on */
	enum sim_rnm rnm;
	bool setmax_frozen, amac_frozen, dco_frozen;
	bool sec_enabled, sec_frozen, sec_locked;
	/* SCSI */
	uint64_t scsi_blocks; /* SAS: current capacity */
	bool wce, saved_wce;
	bool dsense, saved_dsense;
	/* FORMAT UNIT */
	bool fmt_active;
	uint64_t fmt_start_ns, fmt_end_ns, fmt_blocks;
	bool fmt_corrupt;
	bool lost_power; /* format-power-loss fired: gone until power cycle */
	/* storage elements (sim_elem.c): bit h, head h removed; what runs */
	uint32_t depop_mask;
	/* bit h: head h removed by REMOVE ELEMENT AND MODIFY ZONES (a zoned
	 * drive): its zones read offline, the capacity stays */
	uint32_t zones_mask;
	enum sim_elem_op elem_op;
	uint32_t elem_id; /* the element being removed (head + 1) */
	uint64_t elem_blocks, elem_start_ns, elem_end_ns;
	/* the logical sector size a change set (0: the rig's), and one a
	 * MODE SELECT made pending for the next FORMAT UNIT (0: none) */
	uint32_t lblock, pending_lblock;
	bool vanished;
	uint64_t power_cycles;
	struct sim_smart smart;
	struct sim_selftest test;
	struct sim_errlog errlog;
	struct sim_counters ctr;
	uint16_t active_notch; /* SAS notch page; 0 = all notches */
	struct sim_fault faults[SIM_MAX_FAULTS];
	unsigned nfaults;
	/* NVMe: the namespace (one: NN is 1) */
	struct sim_nvme_state {
		uint32_t nsid;		/* 0: none allocated */
		bool attached;		/* to the controller: active */
		uint64_t nsze;		/* blocks of its format */
		uint8_t lbaf;		/* its LBA format */
		uint64_t reads, writes; /* host read and write commands */
		uint64_t media_errors;	/* unrecovered reads since manufacture */
	} nv;
	uint64_t head_lba; /* media model: where the heads are */
	uint64_t next_lba; /* first LBA after the last transfer */
};

/* Written data: sparse, in memory or in <state_dir>/<id>.img. */
struct sim_chunk {
	uint64_t key;
	uint8_t *data;
};

struct sim_store {
	/* in memory: open-addressing hash of 64 KiB chunks */
	struct sim_chunk *tab;
	size_t cap, used;
	/* on disk */
	int fd; /* -1 until opened */
	char *path;
	uint64_t size; /* bytes the image spans */
	bool absent;   /* the image was found missing: reads give zeros */
	/* a range of the image known to be a hole (reads give zeros without
	 * reading the file); empty when hole_end <= hole_start */
	uint64_t hole_start, hole_end;
	uint64_t file_read; /* bytes read from the image file (tests, bench) */
};

/* The write cache (sim_cache.c): dirty extents waiting to be destaged,
 * in buckets by LBA so that the destager's shortest-positioning-time
 * search looks only near the heads. Runtime only: a new process starts
 * with it empty (as after a flush). */
struct sim_wc_ent {
	uint64_t lba;
	uint32_t blocks;
};

struct sim_wc_bucket {
	struct sim_wc_ent *e;
	uint32_t n, cap;
};

struct sim_wcache {
	struct sim_wc_bucket *b; /* NULL until the first cached write */
	double *edge_s;		 /* stroke fraction at each bucket edge (nb + 1) */
	unsigned nb;
	uint64_t span;	    /* blocks the buckets cover */
	uint64_t cap_bytes; /* the cache's size */
	double link_bps;    /* host link, bytes per ns */
	uint64_t dirty;	    /* bytes not yet on the medium (the piece under way too) */
	uint64_t nent;
	uint64_t credit_ns;  /* media time the destager had while the host link worked */
	bool busy;	     /* a destage piece is under way */
	uint64_t busy_ns;    /* its time still to go */
	uint64_t busy_bytes; /* freed when it ends */
	/* the piece: where, its positioning and whole time, and where the
	 * heads were before it (to give it up while it positions) */
	uint64_t busy_lba, busy_pos_ns, busy_total_ns;
	uint32_t busy_blocks;
	uint64_t from_head_lba, from_next_lba;
	double from_spin;
	bool last_valid; /* the extent the last write went into, for merging */
	uint64_t last_lba, last_end;
	uint64_t destaged; /* bytes written to the medium from the cache */
};

/* A flash drive at run time (sim_flash.c): the FTL, built on first use,
 * the host pages it does not map (persisted, in the FTL's pages), and the
 * back end's timing. */
struct sim_ftl;
struct sim_flash_ext {
	uint32_t first, last; /* FTL pages, inclusive */
};
struct sim_flash_io {
	uint64_t done_ns;
	uint64_t bytes;
};
struct sim_flash {
	struct sim_ftl *ftl;	   /* NULL until built */
	struct sim_flash_ext *ext; /* unmapped pages while ftl is NULL */
	uint32_t next, next_cap;   /* extents */
	uint64_t t_ns;		   /* the model's clock: command times and idle time */
	uint64_t backend_ns;	   /* the dies are busy until */
	struct sim_flash_io *fifo; /* buffered writes until programmed */
	uint32_t fhead, fn, fcap;  /* ring */
	uint64_t buffered;	   /* bytes in the write buffer */
	uint64_t saved_mapped;	   /* mapped pages when the state was last marked to save */
};

struct sim_rig;

struct sim_drive {
	struct sim_rig *rig;
	struct sim_config cfg;
	struct sim_state st;
	struct sim_store store;
	char *state_path; /* NULL without a state directory */
	/* sharing the state directory (sim_state.c): <id>.lock, -1 until
	 * opened; the save count of the state we hold; the counters as saved */
	int lock_fd;
	bool lock_ro;
	bool loaded;
	uint64_t gen;
	struct sim_counters ctr_saved;
	/* virtual clock: base + (real elapsed) * time_scale */
	uint64_t clock_base_ns;
	uint64_t mono_base_ns;
	bool dirty;
	/* zoned drives: each zone's write pointer (sim_zones.c); persisted as
	 * the list of zones that are not empty */
	uint64_t *zone_wp;
	uint32_t nzones;
	/* one command at a time, whichever thread sends it (the TUI's jobs,
	 * a batch's parallel jobs on different drives of one rig) */
	pthread_mutex_t lock;
	struct sim_wcache wc;
	/* revolutions the platter turned since the last transfer ended while
	 * the drive idled (sim_drive_idle); runtime only */
	double spin;
	/* its scheduler last saw commands that need the mechanics waiting
	 * (sim_sched.c): the destager then leaves them the mechanics */
	bool mech_waiting;
	struct sim_flash fl;
	/* a multi-actuator drive (cfg.actuators > 1): where each head stack
	 * is (sim_media.c). st.head_lba, st.next_lba and spin are those of
	 * actuator cur_act; the others wait here. Runtime only */
	struct sim_act {
		uint64_t head_lba, next_lba;
		double spin;
		bool valid; /* else at its range's outer edge, nothing read ahead */
	} act[CPR_MAX];
	unsigned cur_act;
};

/* A simulated md array (the rig's "arrays"): members in md's order and the
 * layout's settings; what a request becomes on them is sim_array.c's, its
 * timing the simulated I/O engine's (src/io). */
#define SIM_MAX_ARRAYS 64

struct sim_array {
	char name[SIM_ID_MAX + 1];
	int level;  /* 0, 1, 10, 5, 6, 50, 60 */
	unsigned n; /* members */
	struct sim_drive *member[SIM_ARRAY_MAX_MEMBERS];
	uint32_t chunk_kib;    /* RAID 0, 10, 5, 6, 50, 60 */
	unsigned copies;       /* RAID 1 (n), 10 (near copies); 1 otherwise */
	unsigned groups;       /* RAID 50, 60; 1 otherwise */
	double read_mbps;      /* path cap on member reads, 0 none */
	double write_mbps;     /* ... on member writes */
	double latency_us;     /* controller latency per array request */
	double per_member_us;  /* ... and per member */
	unsigned stripe_cache; /* RAID 5, 6, 50, 60: md's stripe_cache_size */
};

/* A simulated SES enclosure (the rig's "enclosures", sim_ses.c): slots
 * holding drives of the rig, their locate and fault LEDs kept in
 * <state>/<id>.encl.json. */
#define SIM_ENCL_MAX_SLOTS 64
#define SIM_MAX_ENCLS 8
struct sim_encl {
	char id[SIM_ID_MAX + 1];
	char vendor[9], product[17], serial[21];
	uint64_t wwn; /* the enclosure's logical identifier */
	unsigned nslots;
	struct sim_drive *slot[SIM_ENCL_MAX_SLOTS]; /* NULL: empty */
	int slot_idx[SIM_ENCL_MAX_SLOTS];	    /* while the rig is built: drive index, -1 */
	bool ident[SIM_ENCL_MAX_SLOTS], fault[SIM_ENCL_MAX_SLOTS];
	char *state_path;
	pthread_mutex_t lock;
};

struct sim_rig {
	struct sim_encl *encls;
	unsigned nencls;
	struct sim_drive **drives;
	unsigned count;
	double time_scale;
	char *state_dir;
	struct sim_array *arrays;
	unsigned narrays;
};

/* --- enclosures (sim_ses.c) --- */
struct json_object;
/* The rig's "enclosures" (v) over the drives cfgs[0..n): into rig->encls,
 * slot_idx set; origin names the file in err. */
int sim_encl_parse(struct json_object *v, const struct sim_config *cfgs, size_t n,
		   struct sim_rig *rig, const char *origin, struct ss_error *err);
/* After the drives exist: slots point at them, the state file named. */
int sim_encl_bind(struct sim_rig *rig, const char *state_dir, struct ss_error *err);
void sim_encl_free_all(struct sim_rig *rig);

/* --- rig parsing (sim_rig.c, sim_jpos.c) --- */

/* Positions of values in the JSON text, mirrored from its structure. */
struct jpos {
	size_t key_off; /* offset of the key (objects' members), else value */
	size_t val_off;
	char *key; /* NULL for array elements */
	struct jpos *kids;
	unsigned nkids;
};
/* Walk JSON text (already accepted by json-c) and record positions.
 * Returns 0, or -1 when the text is not understood (positions unknown). */
int jpos_build(const char *text, size_t len, struct jpos *root);
void jpos_fini(struct jpos *p);
/* Member by key (last occurrence, as json-c keeps it), or NULL. */
const struct jpos *jpos_member(const struct jpos *p, const char *key);
const struct jpos *jpos_index(const struct jpos *p, unsigned i);
/* 1-based line of an offset. */
unsigned jpos_line(const char *text, size_t off);

/* --- faults (sim_fault.c) --- */
int sim_fault_parse(const char *spec, struct sim_fault *f, char *msg, size_t msglen);
void sim_fault_format(const struct sim_fault *f, char *buf, size_t len);
int sim_fault_add(struct sim_fault *arr, unsigned *n, const struct sim_fault *f);

/* --- state (sim_state.c) --- */
void sim_state_init(struct sim_drive *d);
/* Before a command or change: the drive's lock, shared by every process
 * using the state directory, and the state another process saved since
 * (loaded the first time). After it: saved when this process changed the
 * drive (dirty; with_counters: the traffic counters moved too), unlocked.
 * Without a state directory both do nothing. */
int sim_state_lock(struct sim_drive *d, struct ss_error *err);
int sim_state_unlock(struct sim_drive *d, bool with_counters, struct ss_error *err);
/* Something this process changed is not saved yet. */
bool sim_state_unsaved(const struct sim_drive *d);
/* Remove <id>.json.tmp.* left by a process killed in the middle of a save. */
void sim_state_clean_tmp(struct sim_rig *rig);
void sim_store_init(struct sim_store *s);
/* An image already at the drive's image path must be one this program
 * made (fileio.h, file_open_private): 0, or why not in err. */
int sim_store_check(struct sim_drive *d, struct ss_error *err);
void sim_store_fini(struct sim_store *s);
int sim_store_read(struct sim_drive *d, uint64_t off, void *buf, size_t len);
int sim_store_write(struct sim_drive *d, uint64_t off, const void *buf, size_t len);
int sim_store_wipe(struct sim_drive *d);
/* Zeros over [off, off+len): stored pieces cleared, holes in the image */
int sim_store_discard(struct sim_drive *d, uint64_t off, uint64_t len);

/* Every command's own time, media or not (sim_drive.c); a read or write
 * adds the drive's overhead_ns and the media time. */
#define CONTROL_CMD_NS 20000ULL

/* --- media model and clock (sim_media.c) --- */
void sim_media_defaults(struct sim_media *m, uint16_t rpm, uint8_t form_factor);
void sim_media_fit(struct sim_media *m, uint16_t rpm);
/* A read, write or verify of [lba, lba+blocks): the command overhead,
 * then a write the write cache takes (sim_cache_write_ns), or the media
 * access after the destage under way ends. Moves the heads. */
uint64_t sim_media_io_ns(struct sim_drive *d, uint64_t lba, uint64_t blocks, bool write, bool fua);
/* The medium alone: positioning (in *pos_ns when not NULL) and transfer,
 * no command overhead (a destage). Moves the heads. */
uint64_t sim_media_destage_ns(struct sim_drive *d, uint64_t lba, uint64_t blocks, uint64_t *pos_ns);
/* Where the heads are, for a positioning search */
struct sim_head {
	double s, angle, span;
	unsigned act; /* whose head stack (multi-actuator drives) */
};
void sim_media_actuators_reset(struct sim_drive *d);
void sim_media_head(const struct sim_drive *d, struct sim_head *h);
/* Seek + rotational wait from h to lba (0 when lba continues the last
 * transfer); more than limit_ns when the seek alone is */
double sim_media_position(const struct sim_drive *d, const struct sim_head *h, uint64_t lba,
			  double before_ns, double limit_ns);
/* The media rate at an LBA, MB/s (10^6 B/s) */
double sim_media_rate_mbps(const struct sim_drive *d, uint64_t lba);
/* Stroke fraction of an LBA, and the seek time over a stroke distance */
double sim_media_stroke(const struct sim_drive *d, uint64_t lba);
double sim_media_seek(const struct sim_drive *d, double dx);
uint64_t sim_media_span(const struct sim_drive *d);
uint64_t sim_media_format_ns(const struct sim_drive *d, uint64_t blocks);
uint64_t sim_mono_ns(void);
uint64_t sim_real_ns(void);
uint64_t sim_clock_now(const struct sim_drive *d);
void sim_clock_advance(struct sim_drive *d, uint64_t ns);

/* --- write cache (sim_cache.c) --- */

/* A write the cache takes (no larger than the cache): waits for room
 * (destaging), then the command overhead and the transfer over the host
 * link, while the destager works. */
uint64_t sim_cache_write_ns(struct sim_drive *d, uint64_t lba, uint64_t blocks);
/* Before the mechanics serve a host command: the destager uses the time it
 * was given; then a piece under way that is still positioning is given up
 * (it stays cached; the heads are back where it started), one that is
 * writing ends. Returns the wait. */
uint64_t sim_cache_yield_ns(struct sim_drive *d);
/* The same without the wait: a piece still positioning is given up, one
 * writing goes on (before the scheduler looks at where the heads are) */
void sim_cache_give_way(struct sim_drive *d);
/* Everything to the medium (FLUSH CACHE, SYNCHRONIZE CACHE, WCE turned
 * off). Returns the time it takes. */
uint64_t sim_cache_flush_ns(struct sim_drive *d);
/* Forget what is cached (power cycle, format: timing only, the data is
 * already in the store) */
void sim_cache_drop(struct sim_drive *d);
void sim_cache_fini(struct sim_drive *d);
/* A write of bytes is taken without waiting for destaging */
bool sim_cache_has_room(const struct sim_drive *d, uint64_t bytes);
/* Positioning time from the heads to what the destager writes next (huge
 * when the cache is empty) */
double sim_cache_next_position(const struct sim_drive *d);
/* One piece to the medium (or the end of the piece under way): its time */
uint64_t sim_cache_destage_ns(struct sim_drive *d);
/* The drive idles for ns: the destager works; returns the time left idle */
uint64_t sim_cache_idle_ns(struct sim_drive *d, uint64_t ns);
/* A write of this many blocks goes to the write cache */
bool sim_media_cacheable(const struct sim_drive *d, uint64_t blocks);

/* --- flash (sim_flash.c, docs/flash.md) --- */

struct sim_cmd;
struct sim_ata;

/* The drive is a flash drive (the rig's "flash") */
bool sim_flash_on(const struct sim_drive *d);
/* Defaults of a flash drive's NAND (Micron MT29F64G08CBAAA's figures) */
void sim_flash_defaults(struct sim_flash_cfg *f);
/* Its state before the first load: everything mapped ("used") or nothing */
int sim_flash_init(struct sim_drive *d);
void sim_flash_fini(struct sim_drive *d);
/* A read or write of [lba, lba+n): the FTL's work, its time (command
 * overhead, transfer, the write buffer, the dies) */
uint64_t sim_flash_io_ns(struct sim_drive *d, uint64_t lba, uint64_t n, bool write, bool fua);
/* Everything buffered programmed: the wait */
uint64_t sim_flash_flush_ns(struct sim_drive *d);
/* The drive idled for ns */
void sim_flash_idle(struct sim_drive *d, uint64_t ns);
/* Persisted: the unmapped pages, as a JSON array of [first, last] */
struct json_object;
struct json_object *sim_flash_to_json(const struct sim_drive *d);
/* ... loaded (NULL: as saved by a version without it: nothing changes);
 * an FTL built from another state is dropped */
int sim_flash_from_json(struct sim_drive *d, struct json_object *arr);
/* SCSI: UNMAP, WRITE SAME (10/16) with UNMAP, and the VPD pages B0h
 * (Block Limits) and B2h (Logical Block Provisioning) */
void sim_scsi_unmap(struct sim_cmd *sc);
void sim_scsi_write_same(struct sim_cmd *sc, bool sixteen);
unsigned sim_flash_vpd_b0(const struct sim_drive *d, uint8_t *b);
unsigned sim_flash_vpd_b2(const struct sim_drive *d, uint8_t *b);
/* ATA DATA SET MANAGEMENT (06h) TRIM */
void sim_ata_dsm(struct sim_ata *a);
/* READ CAPACITY (16) byte 14: LBPME, LBPRZ */
uint8_t sim_flash_rc16_bits(const struct sim_drive *d);

/* --- saved IDENTIFY + SMART blobs (sim_blob.c) --- */

/* Parse a blob. 0, or -EINVAL with the reason in err. */
int sim_blob_parse(const uint8_t *buf, size_t len, struct sim_blob *out, struct ss_error *err);
/* Seed a SATA drive's configuration from a parsed blob: identity,
 * capacity, sector sizes, rpm, form factor, features, queue depth, write
 * cache, SMART. 0, or -EINVAL with the reason in err (a sector size the
 * simulator does not model, no capacity). */
int sim_blob_apply(struct sim_config *c, const struct sim_blob *b, struct ss_error *err);
/* Read and parse a blob file. 0, or a negative errno with the reason in err. */
int sim_blob_load(const char *path, struct sim_blob *out, struct ss_error *err);

/* --- command execution (sim_drive.c, sim_scsi.c, sim_ata.c) --- */

/* One command in flight. */
struct sim_cmd {
	struct sim_drive *d;
	struct xcmd *c;
	uint8_t *in; /* data-in buffer, NULL when none */
	size_t in_len;
	const uint8_t *out; /* data-out buffer */
	size_t out_len;
	size_t moved;
	uint64_t media_ns; /* time the media took, 0 for a control command */
	uint64_t now_ns;   /* virtual time when the command arrived */
	int rc;		   /* negative errno: the drive did not answer */
};

struct sim_sense_x {
	bool info_valid;
	uint64_t info;
	bool sks_valid;
	uint8_t sks[3]; /* byte 0 without SKSV */
};

void sim_sense(struct sim_cmd *sc, uint8_t key, uint8_t asc, uint8_t ascq);
void sim_sense_x(struct sim_cmd *sc, uint8_t key, uint8_t asc, uint8_t ascq,
		 const struct sim_sense_x *x);
/* ILLEGAL REQUEST, INVALID FIELD IN CDB, field pointer at byte/bit */
void sim_bad_cdb(struct sim_cmd *sc, unsigned byte, int bit);
/* ILLEGAL REQUEST, INVALID FIELD IN PARAMETER LIST, pointer at byte */
void sim_bad_param(struct sim_cmd *sc, unsigned byte);
void sim_bad_opcode(struct sim_cmd *sc);
/* Build len bytes of sense into buf the way REQUEST SENSE returns it */
unsigned sim_sense_build(uint8_t *buf, unsigned max, bool desc, uint8_t key, uint8_t asc,
			 uint8_t ascq, const struct sim_sense_x *x);
void sim_data_in(struct sim_cmd *sc, const void *src, size_t n);
bool sim_dsense(const struct sim_drive *d);

/* Current capacity in logical blocks as READ CAPACITY reports it */
uint64_t sim_capacity(const struct sim_drive *d);
/* ATA: current accessible max LBA */
uint64_t sim_ata_accessible_max(const struct sim_drive *d);
/* Format progress 0..65535 when a format runs */
uint32_t sim_format_progress(const struct sim_drive *d, uint64_t now);

/* medium-error fault covering [lba, lba+n): returns true and the first bad LBA */
bool sim_medium_error(const struct sim_drive *d, uint64_t lba, uint64_t n, uint64_t *bad);

void sim_scsi_exec(struct sim_cmd *sc);
/* An NVMe admin or I/O command (sim_nvme.c) */
void sim_nvme_exec(struct sim_cmd *sc);
/* The namespace's block size (0: none) */
uint32_t sim_nvme_block(const struct sim_drive *d);
/* Parse the rig's "nvme" member into c->nv (sim_rig.c hands it over); the
 * formats checked against c->lblock afterwards by sim_nvme_finish. 0, or -EINVAL
 * with why in msg. */
struct json_object;
int sim_nvme_parse(struct sim_config *c, struct json_object *o, char *msg, size_t len);
int sim_nvme_finish(struct sim_config *c, char *msg, size_t len);
void sim_ata_exec(struct sim_cmd *sc);
/* Build the 512-byte IDENTIFY DEVICE data (a blob drive's, with what the
 * rig overrides and the current state written into it) */
void sim_ata_identify(const struct sim_drive *d, uint8_t buf[512]);
/* The simulator's own IDENTIFY for a configuration at power-on (no blob
 * merged): a blob drive's baseline. 0 or -ENOMEM. */
int sim_ata_identify_cfg(const struct sim_config *c, uint8_t buf[512]);
/* The host link rate (MB/s): SATA from IDENTIFY word 76, SAS 600 */
double sim_link_mbps(const struct sim_drive *d);
/* Read or write blocks through the data store (shared by SCSI and ATA) */
int sim_media_read(struct sim_cmd *sc, uint64_t lba, uint64_t n, uint8_t *dst);
int sim_media_write(struct sim_cmd *sc, uint64_t lba, uint64_t n, const uint8_t *src);

/* --- ATA commands handled outside sim_ata.c --- */

/* One ATA command in flight (sim_ata.c fills it; handlers set r). */
struct sim_ata {
	struct sim_cmd *sc;
	struct ata_tf tf;
	struct sat_pt_fields f;
	struct ata_regs r;
	enum sim_rnm prev_rnm;
};
/* status ERR with this error (ABRT, IDNF, UNC) */
void sim_ata_abrt(struct sim_ata *a, uint8_t error);
/* the pass-through's protocol and buffer fit a data-in command of need bytes */
bool sim_ata_data_in_ok(struct sim_ata *a, size_t need);
/* ... a data-out command */
bool sim_ata_data_out_ok(struct sim_ata *a, size_t need);

/* --- SMART (sim_smart.c) --- */

/* The fault of this kind the drive has, or NULL */
const struct sim_fault *sim_fault_active(const struct sim_drive *d, enum sim_fault_kind k);
/* SMART supported (the rig says so and no no-smart fault) */
bool sim_smart_supported(const struct sim_drive *d);
/* The counters as the drive reports them now: the state's, smart-degrade
 * added, power-on hours advanced by the virtual clock, a temperature */
void sim_smart_now(const struct sim_drive *d, struct sim_smart *out);
/* The health check fails: smart-fail, or a pre-failure attribute at or
 * below its threshold (too many reallocated sectors) */
bool sim_smart_failing(const struct sim_drive *d, bool *too_many_reassigns);
/* SMART (B0h) */
void sim_ata_smart(struct sim_ata *a);
/* READ LOG EXT / READ LOG DMA EXT */
void sim_ata_read_log_ext(struct sim_ata *a);
/* Record an ATA error in the summary error log */
void sim_errlog_add(struct sim_drive *d, uint8_t command, uint8_t error, uint64_t lba);

/* Self-tests. Start: 0, or -EBUSY (one runs), -EINVAL (unknown kind);
 * captive runs it to the end now and returns its duration in *dur_ns. */
int sim_selftest_start(struct sim_drive *d, uint8_t kind, bool captive, uint64_t now,
		       uint64_t *dur_ns);
/* Abort the running one: true when one ran */
bool sim_selftest_abort(struct sim_drive *d, uint64_t now);
/* Let time pass: a running self-test ends (or fails) when its time comes */
void sim_selftest_tick(struct sim_drive *d, uint64_t now);
/* A power cycle interrupts a running self-test */
void sim_selftest_interrupt(struct sim_drive *d, uint64_t now);
/* Seconds a self-test of this kind takes on this drive */
uint64_t sim_selftest_seconds(const struct sim_drive *d, uint8_t kind);
/* Progress of the running self-test, 0..65535 */
uint32_t sim_selftest_progress(const struct sim_drive *d, uint64_t now);
/* The newest finished self-test, or NULL */
const struct sim_st_entry *sim_selftest_last(const struct sim_drive *d, unsigned back);
uint32_t sim_power_on_hours(const struct sim_drive *d, uint64_t now);

/* --- defects (sim_defects.c): the grown defect list, reassigning blocks,
 * and what a write does to a block that reads badly --- */

/* READ DEFECT DATA (10) / (12), REASSIGN BLOCKS */
void sim_scsi_read_defect(struct sim_cmd *sc, bool twelve);
void sim_scsi_reassign(struct sim_cmd *sc);
/* Blocks of [lba, lba+n) that a medium-error or slow-block fault covers are
 * reassigned (the fault no longer covers them, the grown defect list and
 * the reallocated count grow by as many): what a write of them does.
 * Returns how many. force: every block of the range (REASSIGN BLOCKS). */
uint64_t sim_remap(struct sim_drive *d, uint64_t lba, uint64_t n, bool force);
/* The time slow-block faults add to a read of [lba, lba+n) */
uint64_t sim_slow_block_ns(const struct sim_drive *d, uint64_t lba, uint64_t n);

/* --- a unit's own figures (sim_unit.c) --- */

/* The unit's seed from its serial and the rig's seed, and what it drew
 * from the model's spread applied to its figures (after the media were
 * fitted); heads defaulted. */
void sim_unit_setup(struct sim_config *c, uint64_t rig_seed);
/* What a read of [lba, lba+n) takes beyond the media model's time: the
 * re-reads of granules that need them (counted as errors corrected with
 * delay), slow-block faults. Deterministic. */
uint64_t sim_unit_read_ns(struct sim_drive *d, uint64_t lba, uint64_t n);

/* --- storage elements (sim_elem.c) --- */

/* Surfaces that serve data, and the k-th of them (0-based) */
unsigned sim_elem_live(const struct sim_drive *d);
unsigned sim_elem_head(const struct sim_drive *d, unsigned k);
/* The native capacity with the removed elements gone */
uint64_t sim_native_blocks(const struct sim_drive *d);
/* An element is being removed or restored; its progress 0..65535 */
bool sim_elem_busy(const struct sim_drive *d);
/* Let time pass: the removal or restoration ends when its time comes */
void sim_elem_tick(struct sim_drive *d, uint64_t now);
/* NOT READY, 04h/24h (removing) or 04h/25h (restoring), with progress */
void sim_elem_not_ready(struct sim_cmd *sc);
unsigned sim_elem_request_sense(const struct sim_drive *d, uint64_t now, uint8_t *buf, unsigned max,
				bool desc);
/* SERVICE ACTION IN (16) 17h-1Ah; ATA 12h, 7Ch-7Eh */
void sim_scsi_elem(struct sim_cmd *sc);
struct sim_ata;
void sim_ata_elem(struct sim_ata *a);

/* --- logical sector size (sim_sector.c) --- */

/* The rig's "sector_sizes" lists bytes */
bool sim_sector_offered(const struct sim_drive *d, uint32_t bytes);
/* The configuration for a logical sector of bytes (capacity in bytes kept) */
void sim_sector_config(struct sim_drive *d, uint32_t bytes);
/* Format to it: configuration, capacity, limits gone, erased */
void sim_sector_apply(struct sim_drive *d, uint32_t bytes);
/* VPD B7h (b zeroed, 4 + 8 per size; returns the length), log 2Fh */
unsigned sim_sector_vpd_b7(const struct sim_drive *d, uint8_t *b);
void sim_sector_log(const struct sim_drive *d, uint8_t b[512]);
/* SET SECTOR CONFIGURATION EXT */
void sim_ata_set_sector_config(struct sim_ata *a);

/* --- SCSI log pages and diagnostics (sim_log.c) --- */
void sim_scsi_log_sense(struct sim_cmd *sc);
void sim_scsi_send_diag(struct sim_cmd *sc);

/* --- zones (sim_zones.c) --- */

/* Allocate the write pointers of a zoned drive (all zones empty) */
int sim_zones_init(struct sim_drive *d);
void sim_zones_fini(struct sim_drive *d);
uint64_t sim_zone_blocks(const struct sim_drive *d);
/* Every write pointer back to its zone's start (a format, a reset-all) */
void sim_zones_reset_all(struct sim_drive *d);
/* A write of [lba, lba+n) breaks the sequential-write rules: 0 fine, or
 * the ASCQ under ASC 21h (04h unaligned write, 05h write boundary
 * violation) */
uint8_t sim_zone_write_check(const struct sim_drive *d, uint64_t lba, uint64_t n);
/* A write of [lba, lba+n) happened: move the write pointers */
void sim_zone_written(struct sim_drive *d, uint64_t lba, uint64_t n);
/* ZBC IN / ZBC OUT (SCSI; a SATL translates them as libata does) */
void sim_scsi_zbc_in(struct sim_cmd *sc);
void sim_scsi_zbc_out(struct sim_cmd *sc);
/* ZAC MANAGEMENT IN (REPORT ZONES EXT) / OUT (RESET WRITE POINTER ...) */
void sim_ata_zac_in(struct sim_ata *a);
void sim_ata_zac_out(struct sim_ata *a);

/* Notches (SAS): the recording zones of the media model */
unsigned sim_notch_count(const struct sim_drive *d);
/* Notch n (1..count): first and last LBA, sectors per track */
void sim_notch_bounds(const struct sim_drive *d, unsigned n, uint64_t *first, uint64_t *last,
		      unsigned *spt);

#endif
