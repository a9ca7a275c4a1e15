/* raidplan_priv.h - internals of libraidplan, shared by its .c files. */
#ifndef RAIDPLAN_PRIV_H
#define RAIDPLAN_PRIV_H

#include <stdbool.h>

#include "raidplan.h"

#define RP_HIDDEN __attribute__((visibility("hidden")))

/* How many of each enum this library has (the public header has functions:
 * rp_level_count(), ...). An id added goes before its count. */
#define RP_LEVEL_COUNT (RP_LEVEL_60 + 1)
#define RP_PROFILE_COUNT (RP_PROFILE_RANDOM_ACCESS + 1)
#define RP_FIG_COUNT (RP_FIG_STROKE_GAIN + 1)
#define RP_WARN_COUNT (RP_WARN_ZONED + 1)
#define RP_GOAL_COUNT (RP_GOAL_LEVEL + 1)

/* Input limits: beyond them the model means nothing, and the arithmetic
 * stays far from overflow. */
#define RP_MAX_DISKS 65536u
#define RP_MAX_CAPACITY 1.152921504606846976e18 /* 2^60 bytes */
#define RP_MIN_CAPACITY 65536.0
#define RP_MAX_REQUEST (1ull << 30)
#define RP_MIN_CHUNK 512ull
#define RP_MAX_CHUNK (1ull << 30)
#define RP_MAX_QD 65536u
#define RP_MAX_SIZES 64u

#define RP_DEF_CHUNK (512ull * 1024)
#define RP_DEF_REBUILD_MBPS 204.8 /* md sync_speed_max 200,000 KiB/s */
#define RP_DEF_REPLACE_H 24.0
/* Command overhead by class: the simulator's defaults by personality
 * (docs/simulator.md), enterprise (>= 10k rpm: SAS) 0.2 ms, desktop
 * (SATA) 0.5 ms */
#define RP_DEF_OVERHEAD_ENT_MS 0.2
#define RP_DEF_OVERHEAD_DESK_MS 0.5
/* Risk bands (docs/planning-model.md 3.1): parity group widths, and the
 * probabilities that make a layout medium / high risk */
#define RP_RAID5_WIDE 14u   /* wider: medium (HPE, docs/models.md; issue 28.2) */
#define RP_RAID6_MEDIUM 20u /* wider: medium (NetApp: RAID-DP groups of 12 - 20 HDDs) */
#define RP_RAID6_WIDE 28u   /* wider: high (NetApp's recommended top, for SSDs) */
#define RP_RISK_MEDIUM_P 0.01
#define RP_RISK_HIGH_P 0.10
#define RP_SERVICE_LIFE_H 43830.0 /* 5 years: an enterprise disk's warranty */
/* md's resync floor under load: sync_speed_min 1000 KiB/s per device, in
 * requests of RESYNC_BLOCK_SIZE (64 KiB) */
#define RP_MD_SYNC_MIN_BPS 1024000.0
#define RP_MD_RESYNC_IO 65536.0

/* Bits of rp_dmodel.defaults: which fields took a default. */
enum {
	RP_DEF_RPM = 1u << 0,
	RP_DEF_SEEK = 1u << 1,
	RP_DEF_RATE = 1u << 2,
	RP_DEF_OVERHEAD = 1u << 3,
	RP_DEF_MTTF = 1u << 4,
	RP_DEF_URE = 1u << 5,
	RP_DEF_QUEUE = 1u << 6,
	RP_DEF_WCACHE = 1u << 7,
};

#define RP_MAX_QUEUE 1024u	/* a disk's queue depth: 1 .. 1024 */
#define RP_QUEUE_DESKTOP 32u	/* SATA NCQ: 32 tags (ATA8-ACS) */
#define RP_QUEUE_ENTERPRISE 64u /* SAS TCQ: no protocol limit; 64, a common per-device depth */
#define RP_DEF_DISK_CACHE_MB 16.0
/* a cached write's transfer when no link is given: SATA 3 Gb/s */
#define RP_DEF_DISK_LINK_MBPS 300.0
/* Aged SPTF against starvation (Worthington, Ganger & Patt 1994): a request
 * that has waited longer than a revolution per request queued gains this
 * much positioning time per unit of time waited beyond (the simulator's
 * scheduler: AGE_WEIGHT in src/sim/sim_sched.c) */
#define RP_AGE_WEIGHT 0.02

/* A point of a curve inside the library (struct rp_point without its size). */
struct rp_xy {
	double x, y;
};

/* A disk with every default resolved: the model's view. Zeroed before it
 * is filled, so that two equal disks compare equal with memcmp. */
struct rp_dmodel {
	double cap; /* bytes */
	double rpm;
	double trev;	       /* ms per revolution */
	double ovh;	       /* ms */
	double t2t;	       /* ms, shortest seek */
	double seek_a, seek_b; /* fit t(x) = t2t + a x + b sqrt(x) */
	double seek_avg, seek_full;
	double ro, k;	 /* outer rate MB/s, inner/outer ratio */
	double iface;	 /* MB/s, 0: none */
	double mttf;	 /* hours */
	double ure;	 /* per bit */
	double cache_mb; /* the write cache's size */
	double zone_b;	 /* zone size, bytes; 0: not zoned */
	unsigned qdepth; /* commands queued at the disk */
	int zoned;	 /* RP_ZONED_* */
	bool wcache;	 /* volatile write cache on */
	/* a flash drive (docs/flash.md): its NAND, every field filled */
	bool flash;
	double fl_spare;   /* its own spare factor */
	double fl_read_ms; /* a page read */
	struct rp_flash fl;
	unsigned link;	   /* 0: none, else 1-based shared link (same_class skips it) */
	unsigned defaults; /* RP_DEF_* */
	bool seek_fallback;
	unsigned n_seek, n_zone;
	struct rp_xy seek[RP_CURVE_MAX]; /* monotone, t(0) = 0 */
	struct rp_xy zone[RP_CURVE_MAX]; /* non-increasing */
};

/* Per-disk figures inside the used band (capacity fraction c). */
struct rp_band {
	double sigma;	   /* radial fraction of the stroke */
	double seek;	   /* ms, average seek between random points */
	double rate_start; /* MB/s at the band's outer edge */
	double rate_end;   /* MB/s at the band's inner edge */
	double rate_h;	   /* MB/s, harmonic mean over the band */
	double alpha,
	    beta; /* ms: the band's seek beyond T, alpha u + beta sqrt(u), u in band units */
};

/* Aggregate of the members of an array at one stroke. */
struct rp_agg {
	unsigned n;
	double cmin, cmax, csum;
	double used;		       /* bytes per member = stroke * cmin */
	double sigma;		       /* mean radial stroke */
	double seek, t2t, ovh, trev;   /* means */
	double alpha, beta;	       /* means of the band's seek fit (rp_band) */
	double inv_rate;	       /* mean of 1 / harmonic band rate */
	double k;		       /* mean inner/outer rate ratio */
	double rs_min, re_min, rh_min; /* slowest member, after its link */
	double rh_media_min;	       /* slowest harmonic media rate (rebuild) */
	double inv_mttf;	       /* mean 1 / MTTF */
	double ure;		       /* worst per-bit URE */
	double qlim;		       /* smallest queue depth of a member */
	double wcache_mb;	       /* smallest member write cache; 0: some member has none */
	double link_min;	       /* slowest member link (MB/s); 0: none given */
	double zone;		       /* largest zone of a member, bytes; 0: none zoned */
	bool host_managed;	       /* a host-managed zoned member */
	unsigned defaults;
	bool seek_fallback;
	bool iface_bound; /* some member's link caps its media rate */
	/* flash members (docs/flash.md): how many, and the means of their die
	 * time per 4 KiB written at the stroke's spare and of a page read (ms) */
	unsigned n_flash;
	double fl_w_unit, fl_read;
};

/* Caps of the path on the total member traffic (MB/s, 0: none). */
enum rp_cap {
	RP_CAP_NONE,
	RP_CAP_CONTROLLER,
	RP_CAP_BUS,
	RP_CAP_LINK,
	RP_CAP_INTERFACE,
	RP_CAP_DISKS, /* not a cap: the disks themselves */
};

struct rp_caps {
	double controller, bus, link; /* 0: none */
	unsigned link_id;	      /* the binding shared link (1-based) */
	double total;		      /* smallest of the above; 0: none */
	int which;		      /* enum rp_cap of total */
	double controller_w, bus_w;   /* the caps on writes (the read caps when not given) */
	double total_w;		      /* smallest cap on writes; 0: none */
	int which_w;
	double lat;		     /* ms per request: latency + per member x N */
	double cache_mb, cache_mbps; /* the controller's write-back cache; 0: none */
	/* what does the RAID (docs/planning-model.md 2.6) */
	int ctrl;      /* RP_CTRL_* */
	double eff;    /* a member's sequential rate through it over the disk's own */
	double wratio; /* its write cap over its read cap (applied when only the read cap is given) */
	bool rmw;      /* sequential parity writes read, modify and write each chunk */
};

/* A hardware RAID controller's figures where the caller gives none
 * (docs/planning-model.md 2.6 has the measurements): Chung, Gray, Horst and
 * Worthington, "Windows 2000 Disk IO Performance", MSR-TR-2000-55, 2000, a
 * 3ware hardware RAID 0 of IDE disks: writes plateau at 41 MB/s where reads
 * reach 55 MB/s, and three disks read 55 MB/s where two read 39 (18.3
 * against 19.5 MB/s a member). */
#define RP_HW_WRITE_RATIO 0.75
#define RP_HW_EFFICIENCY 0.94

/* The array geometry of a validated layout. */
struct rp_geom {
	int level;
	unsigned n;	 /* members */
	unsigned copies; /* mirrors: copies of each chunk */
	unsigned groups; /* parity groups (1 for 5/6) */
	unsigned gsize;	 /* members per parity group */
	unsigned parity; /* parity chunks per group stripe */
	unsigned ndata;	 /* data chunks per full stripe */
	double chunk;	 /* bytes */
	double stroke;
	double rebuild_mbps, replace_h; /* resolved */
};

/*
 * Values of the model's costly pure functions that the search asks for
 * again and again: the same arguments give the same bits, so a value found
 * here is the value computed. Direct-mapped; a slot whose key differs is
 * recomputed and replaced.
 */
#define RP_MEMO_SLOTS 512
#define RP_SPTF_QPTS 25	   /* r(q) at q = 2^(j/2), j = 0 .. 24 (q <= 4096) */
#define RP_SPTF_SLOTS 64   /* bands whose tables a search keeps */
#define RP_SPTF_GAMMA 0.92 /* a queue of q chooses as q^0.92 fresh requests */
#define RP_SPTF_WHOLE 64   /* the table keeps r at whole q up to this, interpolated once */
/* One band's SPTF table (queue.c): the quadrature of E_q and the ratios
 * r(q) at the table's points, each computed when first needed (NAN until
 * then). */
#define RP_SPTF_NODES 64
struct rp_sptf {
	double alpha, beta, trev;
	bool valid;
	double e1; /* E_1 */
	unsigned n;
	double w[RP_SPTF_NODES], l[RP_SPTF_NODES]; /* weights, log(1 - F) */
	bool lin;				   /* a piece with F linear in x */
	double lin_a, lin_b;			   /* 1 - F at its ends */
	double r[RP_SPTF_QPTS];
	double rq[RP_SPTF_WHOLE + 1]; /* r at whole q as interpolated; 0: not yet */
};
/* A disk's time per operation at each queue length (model.c, op_ms) for a
 * band, a size and the share of the queue the drive chooses among: every
 * figure and layout at that stroke asks for the same. */
#define RP_TOP_KEYS 10
#define RP_TOP_SLOTS 64
struct rp_top_memo {
	double key[RP_TOP_KEYS];      /* all 0: empty */
	double top[RP_MAX_QUEUE + 1]; /* 0: not yet computed */
};
/* The closed loop's operations per ms (model.c, fork_join_rate) for every
 * input it reads: the members, the band's times per operation, the
 * controller's latency, the request's operations and phases, the queue.
 * Levels and group counts whose requests send the same operations to the
 * same number of disks (reads on RAID 0, 5, 6, 50, 60 of n disks; parity
 * writes of every group count whose groups read-modify-write) share it. */
#define RP_LGAMMA_MEMO 8192
#define RP_FJ_KEYS 16
#define RP_FJ_SLOTS 2048
struct rp_fj_memo {
	double key[RP_FJ_KEYS]; /* all 0: empty (a key's members are >= 1) */
	double x;
};
struct rp_memo {
	struct {
		double m, copies, v;
	} rot[RP_MEMO_SLOTS];
	struct rp_sptf sptf[RP_SPTF_SLOTS];
	struct {
		double alpha, beta, trev, q, r; /* the last rp_sptf_ratio asked; q 0: none */
	} last;
	struct rp_top_memo top[RP_TOP_SLOTS];
	struct rp_fj_memo fj[RP_FJ_SLOTS];
	/* lgamma(k) of whole k, as lgamma computes it (the closed loop's
	 * binomial terms); 0: not yet (lgamma(1) and lgamma(2) are 0 anyway) */
	double lgam[RP_LGAMMA_MEMO];
};

/* A validated workload: sizes normalised. */
struct rp_wl {
	struct rp_memo *memo; /* NULL: none (rp_wl_build); the search sets one */
	/* the search's pruning (solve.c): the closed loop replaced by an upper
	 * bound of it, so that the IOPS figures are upper bounds */
	bool bound;
	double read, rnd;
	unsigned qd;
	unsigned n;
	double bytes[RP_MAX_SIZES];
	double share[RP_MAX_SIZES];
	double max_bytes, mean_bytes;
};

/* Every number of an evaluation, and the intermediate values the
 * explanations quote. */
struct rp_numbers {
	double usable;
	double streams_r, streams_w, amp_w;
	double seq_raw[4], seq[4]; /* read start/end, write start/end */
	int seq_cap[4];
	double seq_mid_r, seq_mid_w;
	double rr1, rrq, rw1, rwq, mixed, access;
	int rnd_cap;	   /* binding limit of random at QD */
	double m1, ops_w1; /* chunks touched, write ops (smallest size) */
	double pos1;	   /* ms, QD1 positioning */
	double tolerated;
	double rebuild_h, rebuild_rate, mttr_h, mttf_h, mttdl_h;
	double ure_bits, ure_p, ure_left;
	double chunk_small_share;
	/* command queuing at the workload's depth (the first size's reads) */
	struct rp_queue_info {
		double qd;    /* requests queued per disk */
		double qeff;  /* as many fresh ones: qd^RP_SPTF_GAMMA */
		double ratio; /* positioning beyond T over QD 1's */
		double pos;   /* ms, positioning */
		double age;   /* share served by ageing */
		double top;   /* ms per disk operation */
		double held;  /* operations outstanding at the disks */
		double busy;  /* share of the time a disk has work */
	} qi;
	/* a write the disks' caches take (the first size; docs/planning-model.md 1.9) */
	struct rp_cache_info {
		double t_w;	/* ms; 0: the disks write through */
		double bytes;	/* per disk operation */
		double extents; /* cached extents to choose from */
		double ratio;	/* r(extents) */
		double destage; /* ms */
		double host;	/* ms, overhead + bytes / link */
	} ci;
	/* degraded and rebuilding (docs/planning-model.md 2.5) */
	double deg1, deg2;	 /* workload IOPS, one / two members lost; NAN: not survived */
	double load_r1, load_w1; /* per-disk load of the bottleneck group, one lost */
	double load_r2, load_w2;
	double rb_iops;	       /* with one lost, rebuilding at md's floor */
	double rb_share;       /* a rebuilding member's time the rebuild takes */
	double rb_loaded_h;    /* the rebuild at md's floor */
	double burst, burst_s; /* the controller cache's write rate and how long it lasts */
	/* risk bands: 0 low, 1 medium, 2 high */
	int risk, risk_width, risk_ure, risk_mttdl;
	double p_loss_life; /* P(data loss within RP_SERVICE_LIFE_H) */
	/* the same layout at the full stroke (rp_eval_models; the stroke's gain) */
	struct rp_full_stroke {
		double mixed, access, seek, pos, t_w;
	} full;
};

/*
 * abi.c: the caller's structs as this library's (docs/planning-model.md,
 * "The library's ABI"). Each copy is the library's full struct: the bytes
 * the caller's size covers, zero beyond them; the size field is the
 * library's. Pointers inside are the caller's, except where said.
 */
RP_HIDDEN int rp_in_layout(const struct rp_layout *src, struct rp_layout *dst,
			   struct rp_error *err);
RP_HIDDEN int rp_in_goals(const struct rp_goals *src, struct rp_goals *dst, struct rp_error *err);
/* A workload and its sizes: dst->sizes points to sizes[] (RP_MAX_SIZES of
 * them), copied when there are 1 .. RP_MAX_SIZES (else left for
 * rp_wl_build to refuse). */
RP_HIDDEN int rp_in_workload(const struct rp_workload *src, struct rp_workload *dst,
			     struct rp_size_share *sizes, struct rp_error *err);
/* A path and its links: dst->links is a new array (*links, freed by the
 * caller) when there are 1 .. RP_MAX_DISKS; NULL src: *dst zeroed. */
RP_HIDDEN int rp_in_path(const struct rp_path *src, struct rp_path *dst, struct rp_link **links,
			 struct rp_error *err);
/* Disk i of an array of n (the stride is disks[0].size, checked with i = 0). */
RP_HIDDEN int rp_in_flash(const struct rp_flash *src, struct rp_flash *dst, struct rp_error *err);
/* A flash drive's die time per 4 KiB page written at a spare factor, ms
 * (flash.c): its programs and garbage collection's reads, programs and
 * erases, over the dies */
RP_HIDDEN double rp_flash_write_unit_ms(const struct rp_flash *f, double spare);
/* The defaults of a flash drive's fields left 0 */
RP_HIDDEN void rp_flash_defaults(struct rp_flash *f);
RP_HIDDEN int rp_in_disk(const struct rp_disk *disks, size_t i, struct rp_disk *dst,
			 struct rp_error *err);
/* n points of a disk's curve (n <= RP_CURVE_MAX) as rp_xy. */
RP_HIDDEN int rp_in_points(const struct rp_point *src, size_t n, struct rp_xy *dst,
			   const char *what, size_t disk, struct rp_error *err);
/* Write a workload into a caller's struct (rp_workload_profile): the
 * bytes its size covers and the library knows. */
RP_HIDDEN int rp_out_workload(const struct rp_workload *src, struct rp_workload *dst,
			      struct rp_error *err);

/* disk.c */
RP_HIDDEN int rp_dmodel_build(const struct rp_disk *d, size_t idx, const struct rp_path *path,
			      struct rp_dmodel *m, struct rp_error *err);
RP_HIDDEN double rp_seek_band(const struct rp_dmodel *m, double f);
RP_HIDDEN void rp_dmodel_band(const struct rp_dmodel *m, double c, struct rp_band *b);
RP_HIDDEN double rp_zbr_stroke(double c, double k);
RP_HIDDEN void rp_seek_fit(double t, double avg, double full, double *a, double *b, bool *fallback);
RP_HIDDEN double rp_rot_wait(struct rp_memo *memo, double m, double copies);
RP_HIDDEN struct rp_memo *rp_memo_new(void);

/* queue.c: SPTF with q requests queued at a disk whose band seeks
 * alpha u + beta sqrt(u) beyond T and turns in trev ms: the expected
 * positioning beyond T at queue depth q over the one at depth 1
 * (docs/planning-model.md, 1.8). The memo keeps the band's table; the
 * value is the same with or without it. */
RP_HIDDEN double rp_sptf_ratio(struct rp_memo *memo, double alpha, double beta, double trev,
			       double q);
/* The same computed at q itself, not interpolated in the table (tests). */
RP_HIDDEN double rp_sptf_exact(double alpha, double beta, double trev, double q);

/* model.c */
RP_HIDDEN void rp_agg_reset(struct rp_agg *g);
RP_HIDDEN void rp_agg_add(struct rp_agg *g, const struct rp_dmodel *m, unsigned count, double cmin,
			  double stroke);
RP_HIDDEN void rp_agg_finish(struct rp_agg *g, double stroke);
RP_HIDDEN int rp_geom_build(const struct rp_layout *l, size_t n_avail, struct rp_geom *g,
			    struct rp_error *err);
RP_HIDDEN int rp_wl_build(const struct rp_workload *w, struct rp_wl *o, struct rp_error *err);
RP_HIDDEN int rp_path_check(const struct rp_path *p, struct rp_error *err);
RP_HIDDEN void rp_caps_build(const struct rp_path *p, double iface_total, double link_ratio,
			     unsigned link_id, unsigned n, struct rp_caps *c);
RP_HIDDEN void rp_numbers(const struct rp_geom *g, const struct rp_agg *a, const struct rp_caps *c,
			  const struct rp_wl *w, struct rp_numbers *o);
RP_HIDDEN void rp_numbers_speed(const struct rp_geom *g, const struct rp_agg *a,
				const struct rp_caps *c, const struct rp_wl *w,
				struct rp_numbers *o);
/* Only mixed and access (and what they are made of) of rp_numbers_speed:
 * the same values, for less work; the other figures are not set. */
RP_HIDDEN void rp_numbers_mixed(const struct rp_geom *g, const struct rp_agg *a,
				const struct rp_caps *c, const struct rp_wl *w,
				struct rp_numbers *o);
RP_HIDDEN void rp_numbers_safety(const struct rp_geom *g, const struct rp_agg *a,
				 const struct rp_caps *c, struct rp_numbers *o);
RP_HIDDEN double rp_level_tolerated(const struct rp_geom *g);
/* The stroke as whole zones of zone bytes (up or down, at least one) of a
 * member of cmin bytes; the stroke itself when zone is 0. */
RP_HIDDEN double rp_zone_stroke(double stroke, double cmin, double zone, bool up);
/* A RAID 50/60 geometry whose figures rp_numbers_mixed gives are those of
 * every other group count of its members and chunk that this is true of:
 * all random requests (the streams do not count), each touching at most one
 * chunk per group (m <= groups, so k = 1) and read-modify-written (1 + P <
 * g - P - 1): the group count then enters no operation, phase or latency. */
RP_HIDDEN bool rp_speed_same_groups(const struct rp_geom *g, const struct rp_wl *w);

/* common.c */
RP_HIDDEN int rp_err(struct rp_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
RP_HIDDEN bool rp_in(double x, double lo, double hi);

/* eval.c */
struct rp_eval {
	struct rp_layout layout;
	unsigned *members;
	struct rp_figure fig[RP_FIG_COUNT];
	size_t n_warn;
	struct rp_warning warn[RP_WARN_COUNT];
	struct rp_numbers num;
};

/* The same with the disks' models built (rp_dmodel_build) by the caller. */
RP_HIDDEN int rp_eval_models(const struct rp_dmodel *dm, size_t n_disks, const struct rp_path *path,
			     const struct rp_layout *layout, const struct rp_workload *wl,
			     struct rp_eval **out, struct rp_error *err);

#endif
