/* eval.c - rp_evaluate: one layout's figures, their explanations, warnings. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raidplan/raidplan_priv.h"

static const struct {
	const char *key, *label, *unit;
} fig_meta[RP_FIG_COUNT] = {
	[RP_FIG_USABLE_CAPACITY] = { "usable_capacity", "usable capacity", "B" },
	[RP_FIG_RADIAL_STROKE] = { "radial_stroke", "arm travel used", "fraction" },
	[RP_FIG_BAND_SEEK] = { "band_seek", "average seek in the band", "ms" },
	[RP_FIG_ROTATION] = { "rotation", "average rotational latency", "ms" },
	[RP_FIG_SEQ_READ_START] = { "seq_read_start", "sequential read, band start", "MB/s" },
	[RP_FIG_SEQ_READ_END] = { "seq_read_end", "sequential read, band end", "MB/s" },
	[RP_FIG_SEQ_WRITE_START] = { "seq_write_start", "sequential write, band start", "MB/s" },
	[RP_FIG_SEQ_WRITE_END] = { "seq_write_end", "sequential write, band end", "MB/s" },
	[RP_FIG_RAND_READ_QD1] = { "rand_read_qd1", "random read, QD 1", "IOPS" },
	[RP_FIG_RAND_READ_QD] = { "rand_read_qd", "random read, workload QD", "IOPS" },
	[RP_FIG_RAND_WRITE_QD1] = { "rand_write_qd1", "random write, QD 1", "IOPS" },
	[RP_FIG_RAND_WRITE_QD] = { "rand_write_qd", "random write, workload QD", "IOPS" },
	[RP_FIG_MIXED_IOPS] = { "mixed_iops", "workload IOPS", "IOPS" },
	[RP_FIG_ACCESS_TIME] = { "access_time", "average access time", "ms" },
	[RP_FIG_FAILURES_TOLERATED] = { "failures_tolerated", "failures tolerated", "disks" },
	[RP_FIG_REBUILD_TIME] = { "rebuild_time", "rebuild time", "h" },
	[RP_FIG_MTTDL] = { "mttdl", "mean time to data loss", "h" },
	[RP_FIG_URE_REBUILD] = { "ure_rebuild", "P(unrecoverable read error in rebuild)", "" },
	[RP_FIG_QUEUE_POSITION] = { "queue_position", "positioning at the workload's queue", "ms" },
	[RP_FIG_PATH_LATENCY] = { "path_latency", "controller and host latency", "ms" },
	[RP_FIG_DEGRADED_IOPS] = { "degraded_iops", "workload IOPS, one member lost", "IOPS" },
	[RP_FIG_DEGRADED2_IOPS] = { "degraded2_iops", "workload IOPS, two members lost", "IOPS" },
	[RP_FIG_REBUILD_IOPS] = { "rebuild_iops", "workload IOPS during a rebuild", "IOPS" },
	[RP_FIG_REBUILD_LOADED] = { "rebuild_loaded_time", "rebuild time under the workload", "h" },
	[RP_FIG_WRITE_BURST] = { "write_burst", "write burst into the controller cache", "MB/s" },
	[RP_FIG_RISK] = { "risk", "risk band (0 low, 1 medium, 2 high)", "" },
	[RP_FIG_CACHED_WRITE] = { "cached_write", "a write into the disks' write cache", "ms" },
	[RP_FIG_DISK_BUSY] = { "disk_busy", "share of the time a disk is busy at the queue", "" },
	[RP_FIG_CONTROLLER] = { "controller", "controller (0 md, 1 hba, 2 hw-raid)", "" },
	[RP_FIG_STROKE_GAIN] = { "stroke_gain", "workload IOPS over the full stroke's", "" },
};

static const char *const warn_keys[RP_WARN_COUNT] = {
	[RP_WARN_DEFAULTS] = "defaults",
	[RP_WARN_SEEK_FIT] = "seek-fit",
	[RP_WARN_CAP_CONTROLLER] = "cap-controller",
	[RP_WARN_CAP_BUS] = "cap-bus",
	[RP_WARN_CAP_LINK] = "cap-link",
	[RP_WARN_CAP_INTERFACE] = "cap-interface",
	[RP_WARN_MIXED_SIZES] = "mixed-sizes",
	[RP_WARN_RAID5_WIDE] = "raid5-wide",
	[RP_WARN_CHUNK_SMALL] = "chunk-small",
	[RP_WARN_CAPACITY_TINY] = "capacity-tiny",
	[RP_WARN_URE_LIKELY] = "ure-likely",
	[RP_WARN_RAID6_WIDE] = "raid6-wide",
	[RP_WARN_URE_POSSIBLE] = "ure-possible",
	[RP_WARN_MTTDL_LOW] = "mttdl-low",
	[RP_WARN_ZONED] = "zoned",
};

int rp_figure_count(void)
{
	return RP_FIG_COUNT;
}

const char *rp_figure_key(int id)
{
	return id >= 0 && id < RP_FIG_COUNT ? fig_meta[id].key : NULL;
}

int rp_warning_count(void)
{
	return RP_WARN_COUNT;
}

const char *rp_warning_key(int id)
{
	return id >= 0 && id < RP_WARN_COUNT ? warn_keys[id] : NULL;
}

static const char *const cap_names[] = {
	[RP_CAP_NONE] = "nothing",
	[RP_CAP_CONTROLLER] = "the controller",
	[RP_CAP_BUS] = "the bus",
	[RP_CAP_LINK] = "a shared link",
	[RP_CAP_INTERFACE] = "the disks' links",
	[RP_CAP_DISKS] = "the disks",
};

static struct rp_figure *fig(struct rp_eval *ev, int id, double value, const char *formula,
			     const char *source)
{
	struct rp_figure *f = &ev->fig[id];

	f->id = id;
	f->key = fig_meta[id].key;
	f->label = fig_meta[id].label;
	f->unit = fig_meta[id].unit;
	f->value = isfinite(value) ? value : 0;
	f->valid = isfinite(value);
	f->formula = formula;
	f->source = source;
	f->n_inputs = 0;
	return f;
}

static void in(struct rp_figure *f, const char *name, const char *unit, double v)
{
	if (f->n_inputs >= RP_FIGURE_MAX_INPUTS)
		return;
	f->inputs[f->n_inputs].name = name;
	f->inputs[f->n_inputs].unit = unit;
	f->inputs[f->n_inputs].value = v;
	f->n_inputs++;
}

static void warn(struct rp_eval *ev, int id, double value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void warn(struct rp_eval *ev, int id, double value, const char *fmt, ...)
{
	struct rp_warning *w;
	va_list ap;
	size_t i;

	for (i = 0; i < ev->n_warn; i++)
		if (ev->warn[i].id == id)
			return;
	if (ev->n_warn >= RP_WARN_COUNT)
		return;
	w = &ev->warn[ev->n_warn++];
	w->id = id;
	w->value = value;
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof(w->text), fmt, ap);
	va_end(ap);
}

static int cap_warning_id(int which)
{
	switch (which) {
	case RP_CAP_CONTROLLER:
		return RP_WARN_CAP_CONTROLLER;
	case RP_CAP_BUS:
		return RP_WARN_CAP_BUS;
	case RP_CAP_LINK:
		return RP_WARN_CAP_LINK;
	case RP_CAP_INTERFACE:
		return RP_WARN_CAP_INTERFACE;
	default:
		return -1;
	}
}

static const char *mttdl_formula(int level)
{
	switch (level) {
	case RP_LEVEL_0:
		return "MTTF / N";
	case RP_LEVEL_1:
		return "MTTF^D / (D! MTTR^(D-1)), D copies (D = 2: MTTF^2 / (2 MTTR))";
	case RP_LEVEL_10:
		return "mirror set's MTTF^D / (D! MTTR^(D-1)) / (N/D) (D = 2: MTTF^2 / (N MTTR))";
	case RP_LEVEL_01:
		return "MTTF^D / (N (D-1)! w^(D-1) MTTR^(D-1)), w = N/D disks per stripe set";
	case RP_LEVEL_5:
		return "MTTF^2 / (N (N-1) MTTR)";
	case RP_LEVEL_6:
		return "MTTF^3 / (N (N-1) (N-2) MTTR^2)";
	case RP_LEVEL_50:
		return "group's MTTF^2 / (g (g-1) MTTR), divided by the G groups";
	default:
		return "group's MTTF^3 / (g (g-1) (g-2) MTTR^2), divided by the G groups";
	}
}

/* The controller's figures (docs/planning-model.md 2.6), each with where it
 * came from: given, or the controller's default and its measurement. */
static void controller_figures(struct rp_eval *ev, const struct rp_geom *g, const struct rp_caps *c)
{
	struct rp_figure *f;

	f = fig(
	    ev, RP_FIG_CONTROLLER, c->ctrl,
	    c->ctrl == RP_CTRL_HW_RAID
		? "a hardware RAID controller: members stream at efficiency x their rate, its "
		  "write cap is the write ratio x its read cap unless a write cap is given, "
		  "latency per request and per member as given (no published figure to take), "
		  "and without a write-back cache it reads, modifies and writes each chunk of "
		  "a sequential parity write (no full stripes)"
	    : c->ctrl == RP_CTRL_HBA
		? "an HBA: md on the host, the adapter passes each command on; as md"
		: "Linux md: the host's software RAID, its stripe cache assembles full stripes",
	    c->ctrl == RP_CTRL_HW_RAID
		? "efficiency 0.94 and write ratio 0.75: Chung, Gray, Horst, Worthington, "
		  "Windows 2000 Disk IO Performance, MSR-TR-2000-55 (3ware RAID 0: 3 disks "
		  "read 55 MB/s where 2 read 39; writes plateau at 41 MB/s); read-modify-write "
		  "without a cache: What PC? RAID tests, whatpc.co.uk/2160752 (RAID 5 of 3 writes 7 "
		  "MB/s, reads 86); docs/planning-model.md 2.6"
		: "docs/planning-model.md 2.2, 2.6");
	in(f, "member efficiency", "", c->eff);
	in(f, "write ratio (write cap / read cap)", "", c->wratio);
	in(f, "controller read cap", "MB/s", c->controller);
	in(f, "controller write cap", "MB/s", c->controller_w);
	in(f, "latency per request + per member x N", "ms", c->lat);
	in(f, "members N", "", g->n);
	in(f, "write-back cache", "MB", c->cache_mb);
	in(f, "full stripes (0: read-modify-write each chunk)", "", c->rmw ? 0 : 1);
}

static void figures(struct rp_eval *ev, const struct rp_geom *g, const struct rp_agg *a,
		    const struct rp_caps *c, const struct rp_wl *w, const struct rp_dmodel *m0)
{
	const struct rp_numbers *o = &ev->num;
	struct rp_figure *f;
	static const char *const seq_formula[4] = {
		"streams x slowest member's rate at the band's outer edge, capped by "
		"min(controller, bus, shared links)",
		"streams x slowest member's rate at the band's inner edge Ro sqrt(1 - c(1-k^2)), "
		"capped by min(controller, bus, shared links)",
		"streams x slowest member's rate at the band's outer edge, capped by "
		"min(controller, bus, shared links) / write amplification",
		"streams x slowest member's rate at the band's inner edge, capped by "
		"min(controller, bus, shared links) / write amplification",
	};
	const char *src_arr =
	    "docs/models.md, Arrays; OSTEP ch. 38; derived (docs/planning-model.md)";
	int i;

	f = fig(ev, RP_FIG_USABLE_CAPACITY, o->usable,
		"data members x stroke x smallest member's capacity", "docs/models.md, Arrays");
	in(f, "data members", "", g->ndata);
	in(f, "stroke", "", g->stroke);
	in(f, "smallest member", "B", a->cmin);
	in(f, "sum of members", "B", a->csum);

	f = fig(ev, RP_FIG_RADIAL_STROKE, a->sigma,
		"s = c (1 + k) / (1 + sqrt(1 - c (1 - k^2))), c = stroke x smallest / member "
		"capacity; mean over members",
		"docs/models.md, zone bit recording");
	in(f, "capacity fraction c", "", g->stroke * a->cmin / (a->csum / a->n));
	in(f, "k = inner/outer rate", "", a->k);

	f = fig(ev, RP_FIG_BAND_SEEK, a->seek,
		m0->n_seek
		    ? "Int 2(1-u) t(f u) du over the measured seek curve t, f = radial stroke"
		    : "T + a f/3 + (8/15) b sqrt(f), f = radial stroke; "
		      "a, b fitted to track-to-track T, average A, full stroke F",
		"Ruemmler & Wilkes 1994; docs/models.md (derived)");
	in(f, "radial stroke f", "", a->sigma);
	in(f, "track-to-track T", "ms", a->t2t);
	in(f, "average seek A (member 0)", "ms", m0->seek_avg);
	in(f, "full stroke F (member 0)", "ms", m0->seek_full);
	if (!m0->n_seek) {
		in(f, "a (member 0)", "ms", m0->seek_a);
		in(f, "b (member 0)", "ms", m0->seek_b);
	}

	f = fig(ev, RP_FIG_ROTATION, a->trev / 2, "60000 / rpm / 2", "docs/models.md");
	in(f, "revolution", "ms", a->trev);
	in(f, "rpm (member 0)", "rpm", m0->rpm);

	for (i = 0; i < 4; i++) {
		f = fig(ev, RP_FIG_SEQ_READ_START + i, o->seq[i], seq_formula[i], src_arr);
		in(f, "streams", "disks", i < 2 ? o->streams_r : o->streams_w);
		in(f, "per-disk rate", "MB/s", (i & 1) ? a->re_min : a->rs_min);
		in(f, "uncapped", "MB/s", o->seq_raw[i]);
		in(f, i < 2 ? "path cap" : "path write cap", "MB/s", i < 2 ? c->total : c->total_w);
		if (i >= 2)
			in(f, "write amplification", "", o->amp_w);
	}

	for (i = 0; i < 4; i++) {
		double v = i == 0 ? o->rr1 : i == 1 ? o->rrq : i == 2 ? o->rw1 : o->rwq;

		f = fig(ev, RP_FIG_RAND_READ_QD1 + i, v,
			i < 2 ? "min(q / latency, X / ops, cap / (ops x bytes per op)); X: the "
				"disks' operations with m outstanding, Binomial(m, 1/N) at a "
				"disk, 1 / t_op at its queue when it has any; m from q x ops = "
				"X (latency + H(k) x wait + service + rev (k/(k+1) - 1/2)) "
				"for the k operations a request sends at once; t_op = "
				"overhead + positioning at the disk's queue (queue_position) "
				"+ bytes / rate; harmonic mean over the workload's sizes"
			      : "min(q / latency, X / ops, cap / (ops x bytes per op)); X: the "
				"disks' operations with m outstanding, Binomial(m, 1/N) at a "
				"disk, 1 / t_op at its queue when it has any; m from q x ops = "
				"X (latency + per phase H(k) x wait + service + rev (k/(k+1) "
				"- 1/2)), a parity write's reads and then its writes; t_op = "
				"overhead + positioning at the disk's queue (queue_position) "
				"+ bytes / rate; a write the disks' caches take keeps them "
				"busy at N / (ops x t_w), t_w = max(overhead + bytes / link, "
				"destage of the nearest of cache / bytes extents); harmonic "
				"mean over the workload's sizes",
			i < 2 ? "docs/models.md (write penalty); derived (docs/planning-model.md "
				"1.8, 2.3); fork-join: Nelson & Tantawi 1988"
			      : "docs/models.md (write penalty); derived (docs/planning-model.md "
				"1.8, 1.9, 2.3); fork-join: Nelson & Tantawi 1988");
		in(f, "members N", "", g->n);
		in(f, "queue depth q", "", (i & 1) ? w->qd : 1);
		in(f, i < 2 ? "ops per read" : "ops per write", "", i < 2 ? o->m1 : o->ops_w1);
		in(f, "chunks touched", "", o->m1);
		in(f, "positioning (QD1)", "ms", o->pos1);
		in(f, "command overhead", "ms", a->ovh);
		in(f, "harmonic band rate", "MB/s", 1 / a->inv_rate);
		in(f, "mean request", "B", w->mean_bytes);
		in(f, i < 2 ? "path cap" : "path write cap", "MB/s", i < 2 ? c->total : c->total_w);
		in(f, "controller latency", "ms", c->lat);
	}

	f = fig(ev, RP_FIG_QUEUE_POSITION, o->qi.pos,
		"T + (E1 - T) r(q_eff); E1 = band seek + rev/2; r = E[shortest of q_eff "
		"seek(u) + rotational wait] / E1 over the band, q_eff = q^0.92, q = min(a busy "
		"disk's mean queue in the random IOPS' loop, the disk's queue depth); ageing "
		"serves a request at E1 once it waited q revolutions + (full seek + rev - "
		"positioning) / 0.02",
		"derived (docs/planning-model.md 1.8); SPTF: Jacobson & Wilkes 1991, "
		"Worthington, Ganger & Patt 1994");
	in(f, "requests queued per disk q", "", o->qi.qd);
	in(f, "disk queue depth", "", a->qlim);
	in(f, "effective fresh requests q_eff", "", o->qi.qeff);
	in(f, "r(q_eff)", "", o->qi.ratio);
	in(f, "positioning at QD 1, E1", "ms", o->pos1);
	in(f, "track-to-track T", "ms", a->t2t);
	in(f, "band seek beyond T: alpha (x u)", "ms", a->alpha);
	in(f, "band seek beyond T: beta (x sqrt u)", "ms", a->beta);
	in(f, "share served by ageing", "", o->qi.age);
	in(f, "time per disk operation", "ms", o->qi.top);

	f = fig(ev, RP_FIG_PATH_LATENCY, c->lat,
		"controller latency + per-member latency x N, added to every request's latency "
		"(QD 1 access time, Little's law)",
		"derived (docs/planning-model.md 2.2)");
	in(f, "members N", "", g->n);
	in(f, "controller cache", "MB", c->cache_mb);

	f = fig(ev, RP_FIG_MIXED_IOPS, o->mixed,
		"1 / sum over sizes of share x (random (r / IOPS_r + w / IOPS_w) + sequential "
		"(r S / seq_r + w S / seq_w)); for one size and no cap = N R / (r + F w)",
		"docs/models.md, mixed reads and writes; derived");
	in(f, "read share r", "", w->read);
	in(f, "random share", "", w->rnd);
	in(f, "random read IOPS at q", "IOPS", o->rrq);
	in(f, "random write IOPS at q", "IOPS", o->rwq);
	in(f, "write ops per request F", "", o->ops_w1);
	in(f, "sequential read, mid band", "MB/s", o->seq_mid_r);
	in(f, "sequential write, mid band", "MB/s", o->seq_mid_w);
	in(f, "mean request", "B", w->mean_bytes);
	in(f, "queue depth", "", w->qd);

	f = fig(ev, RP_FIG_ACCESS_TIME, o->access,
		"controller latency + overhead + seek + revolution x wait(slowest of m disks, "
		"nearest of D copies) + bytes / rate; writes add parity reads (or go to the "
		"controller's cache); averaged over the workload's reads, writes and sizes",
		"docs/models.md, access time, slowest-of-n; derived");
	in(f, "controller latency", "ms", c->lat);
	in(f, "command overhead", "ms", a->ovh);
	in(f, "band seek", "ms", a->seek);
	in(f, "revolution", "ms", a->trev);
	in(f, "harmonic band rate", "MB/s", 1 / a->inv_rate);
	in(f, "read share", "", w->read);
	in(f, "mean request", "B", w->mean_bytes);
	in(f, "chunk", "B", g->chunk);

	f = fig(ev, RP_FIG_FAILURES_TOLERATED, o->tolerated,
		"guaranteed, any members: RAID 0: 0; 1, 10, 0+1: copies - 1; 5, 50: 1; 6, 60: 2",
		"docs/models.md, Arrays");
	in(f, "copies", "", g->copies);
	in(f, "parity per group", "", g->parity);
	in(f, "groups", "", g->groups);

	f = fig(ev, RP_FIG_REBUILD_TIME, o->rebuild_h,
		"used bytes per member / min(slowest band rate, rebuild limit, path cap / "
		"members involved)",
		"docs/models.md, reliability");
	in(f, "used per member", "B", a->used);
	in(f, "rebuild rate", "MB/s", o->rebuild_rate);
	in(f, "rebuild limit", "MB/s", g->rebuild_mbps);

	f = fig(ev, RP_FIG_MTTDL, o->mttdl_h, mttdl_formula(g->level),
		"docs/models.md, reliability");
	in(f, "MTTF", "h", o->mttf_h);
	in(f, "MTTR = replace + rebuild", "h", o->mttr_h);
	in(f, "members N", "", g->n);
	in(f, "group size g", "", g->gsize);
	in(f, "groups G", "", g->groups);
	in(f, "copies D", "", g->copies);

	f = fig(ev, RP_FIG_URE_REBUILD, o->ure_p,
		"1 - (1 - p)^B, B = 8 x used bytes x members read to rebuild one disk",
		"docs/models.md, reliability");
	in(f, "p per bit", "", a->ure);
	in(f, "bits read B", "bit", o->ure_bits);
	in(f, "redundancy left in rebuild", "disks", o->ure_left);

	for (i = 0; i < 2; i++) {
		f = fig(ev, i ? RP_FIG_DEGRADED2_IOPS : RP_FIG_DEGRADED_IOPS, i ? o->deg2 : o->deg1,
			"1 / sum over sizes of share x (random (r L_r / IOPS_r + w L_w / IOPS_w) + "
			"sequential); L: per-disk load of the group that lost members over the "
			"healthy one (mirrors D / (D - f); parity reads ((g - f) + f (g - P)) / "
			"(g - f), writes by reconstruct/parity-lost/read-modify-write shares)",
			"derived (docs/planning-model.md 2.5)");
		in(f, "members lost f", "", i + 1);
		in(f, "read load L_r", "", i ? o->load_r2 : o->load_r1);
		in(f, "write load L_w", "", i ? o->load_w2 : o->load_w1);
		in(f, "healthy workload IOPS", "IOPS", o->mixed);
		in(f, "group size g", "", g->gsize);
		in(f, "copies D", "", g->copies);
	}
	f = fig(ev, RP_FIG_REBUILD_IOPS, o->rb_iops,
		"one member lost x (1 - rebuild share); rebuild share = (sync_speed_min / 64 KiB) "
		"x (overhead + seek + rev/2 + 64 KiB / rate): md resyncs at its floor while the "
		"array is busy, each 64 KiB request a seek away from the workload",
		"Linux md(4) (sync_speed_min, 1000 KiB/s per device); derived "
		"(docs/planning-model.md 2.5)");
	in(f, "one member lost", "IOPS", o->deg1);
	in(f, "rebuild share of a member's time", "", o->rb_share);
	in(f, "sync_speed_min", "B/s", RP_MD_SYNC_MIN_BPS);
	f = fig(ev, RP_FIG_REBUILD_LOADED, o->rb_loaded_h,
		"used bytes per member / sync_speed_min (md under load)",
		"Linux md(4); docs/planning-model.md 2.5");
	in(f, "used per member", "B", a->used);
	in(f, "sync_speed_min", "B/s", RP_MD_SYNC_MIN_BPS);
	f = fig(ev, RP_FIG_WRITE_BURST, o->burst,
		"min(cache rate, path write cap), until the cache is full: cache / (burst - "
		"sustained sequential write) seconds",
		"derived (docs/planning-model.md 2.2)");
	in(f, "controller cache", "MB", c->cache_mb);
	in(f, "cache rate", "MB/s", c->cache_mbps);
	in(f, "seconds until full", "s", o->burst_s);
	in(f, "sustained sequential write", "MB/s", o->seq[2]);

	f = fig(ev, RP_FIG_CACHED_WRITE, o->ci.t_w,
		"t_w = max(overhead + bytes / link, destage); destage = T + (E1 - T) r(n) + "
		"bytes / rate, the nearest of the n = cache / bytes extents cached (SPTF, as "
		"queue_position); a write's cost to a disk with its write cache on; 0: the "
		"disks write through (cache off)",
		"derived (docs/planning-model.md 1.9); the simulator's write cache "
		"(docs/simulator.md)");
	in(f, "disk write cache (0: off)", "MB", a->wcache_mb);
	in(f, "bytes per operation", "B", o->ci.bytes);
	in(f, "extents cached n", "", o->ci.extents);
	in(f, "r(n)", "", o->ci.ratio);
	in(f, "destage", "ms", o->ci.destage);
	in(f, "command overhead", "ms", a->ovh);
	in(f, "disk link", "MB/s", a->link_min);
	in(f, "host wait: overhead + bytes / link", "ms", o->ci.host);

	f = fig(ev, RP_FIG_DISK_BUSY, o->qi.busy,
		"1 - (1 - 1/N)^m: m operations outstanding in the random reads' closed loop at "
		"the workload's queue, each at one of the N disks at random; a busy disk holds m "
		"/ N / busy on average (queue_position's q)",
		"derived (docs/planning-model.md 2.3); occupancy: Feller 1968; fork-join: "
		"Nelson & Tantawi 1988");
	in(f, "members N", "", g->n);
	in(f, "queue depth q", "", w->qd);
	in(f, "ops per read", "", o->m1);
	in(f, "operations outstanding m", "", o->qi.held);
	in(f, "a busy disk's mean queue", "", o->qi.qd);
	in(f, "time per disk operation", "ms", o->qi.top);
	in(f, "controller latency", "ms", c->lat);

	controller_figures(ev, g, c);
	f = fig(ev, RP_FIG_STROKE_GAIN, o->full.mixed > 0 ? o->mixed / o->full.mixed : NAN,
		"workload IOPS at this stroke / the same layout's at the full stroke: a short "
		"stroke shortens the seek (band seek, and the queue's positioning) and the "
		"destage of cached writes; the rotational wait, the command overhead and the "
		"transfer stay, so the gain is the seek's share of each request's time",
		"derived (docs/planning-model.md 7.3)");
	in(f, "workload IOPS at the full stroke", "IOPS", o->full.mixed);
	in(f, "workload IOPS here", "IOPS", o->mixed);
	in(f, "access time at the full stroke", "ms", o->full.access);
	in(f, "access time here", "ms", o->access);
	in(f, "band seek at the full stroke", "ms", o->full.seek);
	in(f, "band seek here", "ms", a->seek);
	in(f, "positioning at the queue, full stroke", "ms", o->full.pos);
	in(f, "positioning at the queue here", "ms", o->qi.pos);
	in(f, "cached write at the full stroke", "ms", o->full.t_w);
	in(f, "cached write here", "ms", o->ci.t_w);

	f = fig(ev, RP_FIG_RISK, o->risk,
		"the highest of: parity group width (RAID 5/50: over 14 medium; RAID 6/60: over "
		"20 medium, over 28 high), P(URE in a rebuild with no redundancy left) and "
		"P(data loss in 5 years) (over 1 % medium, over 10 % high)",
		"HPE (RAID 5 over 14: medium), NetApp ONTAP (RAID-DP groups of 12 - 20 HDDs); "
		"derived "
		"(docs/planning-model.md 3.1)");
	in(f, "width band", "", o->risk_width);
	in(f, "URE band", "", o->risk_ure);
	in(f, "MTTDL band", "", o->risk_mttdl);
	in(f, "group size g", "", g->gsize);
	in(f, "P(URE in rebuild)", "", o->ure_p);
	in(f, "P(data loss in 5 years)", "", o->p_loss_life);
}

static void size_text(char *buf, size_t len, double bytes)
{
	static const char *const u[] = { "B", "KB", "MB", "GB", "TB", "PB", "EB" };
	int i = 0;

	while (bytes >= 1000 && i < 6) {
		bytes /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g %s", bytes, u[i]);
}

static void warnings(struct rp_eval *ev, const struct rp_geom *g, const struct rp_agg *a,
		     const struct rp_caps *c, const struct rp_wl *w)
{
	const struct rp_numbers *o = &ev->num;
	static const char *const seq_names[4] = {
		"sequential read at the band start",
		"sequential read at the band end",
		"sequential write at the band start",
		"sequential write at the band end",
	};
	char b1[32], b2[32];
	int i;

	if (a->defaults) {
		static const struct {
			unsigned bit;
			const char *name;
		} def_names[] = {
			{ RP_DEF_RPM, "rpm" },
			{ RP_DEF_SEEK, "seek times" },
			{ RP_DEF_RATE, "transfer rates" },
			{ RP_DEF_OVERHEAD, "command overhead" },
			{ RP_DEF_MTTF, "MTTF" },
			{ RP_DEF_URE, "URE rate" },
			{ RP_DEF_QUEUE, "queue depth" },
			{ RP_DEF_WCACHE, "write cache" },
		};
		char list[160];
		size_t n = 0;

		list[0] = '\0';
		for (i = 0; i < (int)(sizeof(def_names) / sizeof(def_names[0])); i++)
			if (a->defaults & def_names[i].bit)
				n += (size_t)snprintf(list + n,
						      n < sizeof(list) ? sizeof(list) - n : 0,
						      "%s%s", n ? ", " : "", def_names[i].name);
		warn(ev, RP_WARN_DEFAULTS, a->defaults,
		     "datasheet-style defaults used for: %s (see docs/planning-model.md)", list);
	}
	if (a->seek_fallback)
		warn(ev, RP_WARN_SEEK_FIT, 0,
		     "the seek figures do not fit t(x) = T + a x + b sqrt(x) with a, b >= 0; the "
		     "fit keeps the average seek and drops the full-stroke figure");
	for (i = 0; i < 4; i++) {
		int id = cap_warning_id(o->seq_cap[i]);

		if (id >= 0)
			warn(ev, id, o->seq[i],
			     "%s is capped by %s at %.0f MB/s (the disks could deliver %.0f MB/s)",
			     seq_names[i], cap_names[o->seq_cap[i]], o->seq[i], o->seq_raw[i]);
	}
	if (cap_warning_id(o->rnd_cap) >= 0)
		warn(ev, cap_warning_id(o->rnd_cap), c->total,
		     "random I/O at queue depth %u is bounded by %s (%.0f MB/s)", w->qd,
		     cap_names[o->rnd_cap], c->total);
	if (a->iface_bound)
		warn(ev, RP_WARN_CAP_INTERFACE, a->rs_min,
		     "a member's own link is slower than its media: %.0f MB/s per disk", a->rs_min);
	if (a->cmax > a->cmin) {
		double waste = a->csum - a->n * a->cmin;

		size_text(b1, sizeof(b1), waste);
		warn(ev, RP_WARN_MIXED_SIZES, waste,
		     "mixed disk sizes: %s of the members lie beyond the smallest disk and "
		     "cannot be used",
		     b1);
	}
	if (g->parity == 1 && o->risk_width)
		warn(ev, RP_WARN_RAID5_WIDE, g->gsize,
		     "RAID 5 %s of %u disks: medium risk (HPE's array tools rate RAID 5 of more "
		     "than %u drives a medium risk)",
		     g->level == RP_LEVEL_5 ? "array" : "groups", g->gsize, RP_RAID5_WIDE);
	if (g->parity == 2 && o->risk_width)
		warn(ev, RP_WARN_RAID6_WIDE, g->gsize,
		     "RAID 6 %s of %u disks: %s risk (NetApp advises RAID-DP groups of 12 - %u "
		     "disks; over %u: high)",
		     g->level == RP_LEVEL_6 ? "array" : "groups", g->gsize,
		     o->risk_width > 1 ? "high" : "medium", RP_RAID6_MEDIUM, RP_RAID6_WIDE);
	if (o->chunk_small_share > 0) {
		size_text(b1, sizeof(b1), g->chunk);
		size_text(b2, sizeof(b2), w->max_bytes);
		warn(ev, RP_WARN_CHUNK_SMALL, o->chunk_small_share,
		     "chunk %s is smaller than %.0f %% of the requests (up to %s): they span "
		     "several disks",
		     b1, 100 * o->chunk_small_share, b2);
	}
	if (o->usable < w->max_bytes || a->used < g->chunk) {
		size_text(b1, sizeof(b1), o->usable);
		warn(ev, RP_WARN_CAPACITY_TINY, o->usable,
		     "the stroke is so short that the array holds only %s, below a request or "
		     "a chunk",
		     b1);
	}
	if (o->risk_ure > 1)
		warn(ev, RP_WARN_URE_LIKELY, o->ure_p,
		     "a rebuild reads %.3g bits with no redundancy left: an unrecoverable read "
		     "error is %.0f %% likely",
		     o->ure_bits, 100 * o->ure_p);
	else if (o->risk_ure)
		warn(ev, RP_WARN_URE_POSSIBLE, o->ure_p,
		     "a rebuild reads %.3g bits with no redundancy left: an unrecoverable read "
		     "error is %.1f %% likely (medium risk)",
		     o->ure_bits, 100 * o->ure_p);
	if (o->risk_mttdl)
		warn(ev, RP_WARN_MTTDL_LOW, o->p_loss_life,
		     "data loss within 5 years is %.1f %% likely (MTTDL %.3g years): %s risk",
		     100 * o->p_loss_life, o->mttdl_h / 8766.0,
		     o->risk_mttdl > 1 ? "high" : "medium");
	if (a->zone > 0)
		warn(ev, RP_WARN_ZONED, a->zone,
		     "zoned members: the stroke is whole zones of %.4g MB (a capacity goal "
		     "rounds up, a speed goal down)",
		     a->zone / 1e6);
}

static int check_members(const struct rp_layout *l, size_t n_disks, unsigned *members,
			 struct rp_error *err)
{
	unsigned char *seen;
	unsigned i;

	if (!l->members) {
		for (i = 0; i < l->n_disks; i++)
			members[i] = i;
		return 0;
	}
	seen = calloc(n_disks, 1);
	if (!seen)
		return rp_err(err, -ENOMEM, "out of memory");
	for (i = 0; i < l->n_disks; i++) {
		unsigned d = l->members[i];

		if (d >= n_disks) {
			free(seen);
			return rp_err(err, -EINVAL, "member %u: disk %u does not exist (%zu given)",
				      i, d, n_disks);
		}
		if (seen[d]) {
			free(seen);
			return rp_err(err, -EINVAL, "member %u: disk %u is listed twice", i, d);
		}
		seen[d] = 1;
		members[i] = d;
	}
	free(seen);
	return 0;
}

/* Caps of a member set: shared links' worst share and the slowest own link. */
static int member_caps(const struct rp_path *path, const struct rp_dmodel *dm,
		       const unsigned *members, unsigned n, struct rp_caps *c, struct rp_error *err)
{
	unsigned *count = NULL, i, link_id = 0;
	double ratio = 0, iface = 0;
	size_t nl = path ? path->n_links : 0;

	if (nl) {
		count = calloc(nl + 1, sizeof(*count));
		if (!count)
			return rp_err(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		const struct rp_dmodel *m = &dm[members[i]];

		if (m->link)
			count[m->link]++;
		if (m->iface > 0 && (iface == 0 || m->iface < iface))
			iface = m->iface;
	}
	for (i = 1; i <= nl; i++) {
		double r;

		if (!count[i])
			continue;
		r = path->links[i - 1].mbps / count[i];
		if (ratio == 0 || r < ratio) {
			ratio = r;
			link_id = i;
		}
	}
	free(count);
	rp_caps_build(path, iface * n, ratio, link_id, n, c);
	return 0;
}

static int rp_eval_run(const struct rp_disk *disks, size_t n_disks, const struct rp_path *path,
		       const struct rp_layout *layout, const struct rp_workload *wl,
		       struct rp_eval **out, struct rp_error *err)
{
	struct rp_size_share sizes[RP_MAX_SIZES];
	struct rp_link *links = NULL;
	struct rp_dmodel *dm = NULL;
	struct rp_layout l;
	struct rp_workload wc;
	struct rp_path pc;
	struct rp_disk d;
	struct rp_geom g;
	struct rp_wl w;
	unsigned i;
	int rc;

	if (out)
		*out = NULL;
	if (!disks || !layout || !wl || !out)
		return rp_err(err, -EINVAL, "rp_evaluate: %s is NULL",
			      !disks	? "the disk list"
			      : !layout ? "the layout"
			      : !wl	? "the workload"
					: "the result pointer");
	if (n_disks < 1 || n_disks > RP_MAX_DISKS)
		return rp_err(err, -EINVAL, "%zu disks given: 1 .. %u are modelled", n_disks,
			      RP_MAX_DISKS);
	/* the caller's structs as the library's (abi.c) */
	if ((rc = rp_in_path(path, &pc, &links, err)) ||
	    (rc = rp_in_workload(wl, &wc, sizes, err)) || (rc = rp_in_layout(layout, &l, err)))
		goto out;
	path = path ? &pc : NULL;
	/* the layout's errors come before the disks' (rp_eval_models checks
	 * them again, at no cost) */
	if ((rc = rp_path_check(path, err)) || (rc = rp_wl_build(&wc, &w, err)) ||
	    (rc = rp_geom_build(&l, n_disks, &g, err)))
		goto out;
	dm = calloc(n_disks, sizeof(*dm));
	if (!dm) {
		rc = rp_err(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n_disks; i++)
		if ((rc = rp_in_disk(disks, i, &d, err)) ||
		    (rc = rp_dmodel_build(&d, i, path, &dm[i], err)))
			goto out;
	rc = rp_eval_models(dm, n_disks, path, &l, &wc, out, err);
out:
	free(dm);
	free(links);
	return rc;
}

/* The same layout's figures at the full stroke, for the stroke's gain. */
static void full_stroke(const struct rp_dmodel *dm, const unsigned *members,
			const struct rp_geom *g, const struct rp_caps *c, const struct rp_wl *w,
			struct rp_numbers *o)
{
	struct rp_geom gf = *g;
	struct rp_numbers f;
	struct rp_agg a;
	double cmin = 0;
	unsigned i;

	gf.stroke = 1;
	for (i = 0; i < g->n; i++)
		if (i == 0 || dm[members[i]].cap < cmin)
			cmin = dm[members[i]].cap;
	rp_agg_reset(&a);
	for (i = 0; i < g->n; i++)
		rp_agg_add(&a, &dm[members[i]], 1, cmin, 1.0);
	rp_agg_finish(&a, 1.0);
	memset(&f, 0, sizeof(f));
	rp_numbers_speed(&gf, &a, c, w, &f);
	o->full.mixed = f.mixed;
	o->full.access = f.access;
	o->full.seek = a.seek;
	o->full.pos = f.qi.pos;
	o->full.t_w = f.ci.t_w;
}

int rp_eval_models(const struct rp_dmodel *dm, size_t n_disks, const struct rp_path *path,
		   const struct rp_layout *layout, const struct rp_workload *wl,
		   struct rp_eval **out, struct rp_error *err)
{
	struct rp_eval *ev = NULL;
	struct rp_geom g;
	struct rp_wl w;
	struct rp_agg a;
	struct rp_caps c;
	double cmin = 0, zone = 0;
	unsigned i;
	int rc;

	*out = NULL;
	if ((rc = rp_path_check(path, err)) || (rc = rp_wl_build(wl, &w, err)) ||
	    (rc = rp_geom_build(layout, n_disks, &g, err)))
		return rc;
	/* the queueing model asks for the SPTF ratio at many queues of one band */
	w.memo = rp_memo_new();
	ev = calloc(1, sizeof(*ev));
	if (ev)
		ev->members = calloc(g.n, sizeof(*ev->members));
	if (!w.memo || !ev || !ev->members) {
		rc = rp_err(err, -ENOMEM, "out of memory");
		goto fail;
	}
	if ((rc = check_members(layout, n_disks, ev->members, err)))
		goto fail;
	for (i = 0; i < g.n; i++) {
		const struct rp_dmodel *m = &dm[ev->members[i]];

		if (m->zoned == RP_ZONED_HOST_MANAGED) {
			rc = rp_err(
			    err, -EINVAL,
			    "member %u: disk %u is a host-managed zoned disk: its sequential "
			    "zones take only sequential writes and Linux md (every level) "
			    "writes in place, so it cannot be an md member",
			    i, ev->members[i]);
			goto fail;
		}
		if (i == 0 || m->cap < cmin)
			cmin = m->cap;
		zone = fmax(zone, m->zone_b);
	}
	/* zoned members are limited on a zone boundary: whole zones */
	g.stroke = rp_zone_stroke(g.stroke, cmin, zone, true);
	rp_agg_reset(&a);
	for (i = 0; i < g.n; i++)
		rp_agg_add(&a, &dm[ev->members[i]], 1, cmin, g.stroke);
	rp_agg_finish(&a, g.stroke);
	if (a.n_flash && a.n_flash != a.n) {
		rc = rp_err(err, -EINVAL,
			    "the layout mixes flash drives and disks: not modelled (plan them "
			    "apart)");
		goto fail;
	}
	if ((rc = member_caps(path, dm, ev->members, g.n, &c, err)))
		goto fail;
	rp_numbers(&g, &a, &c, &w, &ev->num);
	full_stroke(dm, ev->members, &g, &c, &w, &ev->num);

	ev->layout = *layout;
	ev->layout.size = sizeof(ev->layout);
	ev->layout.members = ev->members;
	ev->layout.copies = g.level == RP_LEVEL_0 || g.parity ? 0 : g.copies;
	ev->layout.groups = g.level == RP_LEVEL_50 || g.level == RP_LEVEL_60 ? g.groups : 0;
	ev->layout.chunk_bytes = (uint64_t)g.chunk;
	ev->layout.stroke = g.stroke;
	ev->layout.rebuild_mbps = g.rebuild_mbps;
	ev->layout.replace_hours = g.replace_h;
	figures(ev, &g, &a, &c, &w, &dm[ev->members[0]]);
	warnings(ev, &g, &a, &c, &w);
	free(w.memo);
	*out = ev;
	return 0;
fail:
	free(w.memo);
	rp_eval_free(ev);
	return rc;
}

int rp_evaluate(const struct rp_disk *disks, size_t n_disks, const struct rp_path *path,
		const struct rp_layout *layout, const struct rp_workload *wl, struct rp_eval **out,
		struct rp_error *err)
{
	return rp_eval_run(disks, n_disks, path, layout, wl, out, err);
}

void rp_eval_free(struct rp_eval *ev)
{
	if (!ev)
		return;
	free(ev->members);
	free(ev);
}

const struct rp_layout *rp_eval_layout(const struct rp_eval *ev)
{
	return ev ? &ev->layout : NULL;
}

const struct rp_figure *rp_eval_figure(const struct rp_eval *ev, int id)
{
	if (!ev || id < 0 || id >= RP_FIG_COUNT)
		return NULL;
	return &ev->fig[id];
}

double rp_eval_value(const struct rp_eval *ev, int id)
{
	const struct rp_figure *f = rp_eval_figure(ev, id);

	return f ? f->value : NAN;
}

size_t rp_eval_warning_count(const struct rp_eval *ev)
{
	return ev ? ev->n_warn : 0;
}

const struct rp_warning *rp_eval_warning(const struct rp_eval *ev, size_t i)
{
	if (!ev || i >= ev->n_warn)
		return NULL;
	return &ev->warn[i];
}

int rp_eval_has_warning(const struct rp_eval *ev, int id)
{
	size_t i;

	for (i = 0; ev && i < ev->n_warn; i++)
		if (ev->warn[i].id == id)
			return 1;
	return 0;
}

int rp_layout_survives(const struct rp_layout *layout, const unsigned *failed, size_t n_failed,
		       struct rp_error *err)
{
	struct rp_layout l;
	struct rp_geom g;
	unsigned char *down;
	unsigned i, j, unit, ok = 1, n_down = 0;
	int rc;

	if (!layout || (n_failed && !failed))
		return rp_err(err, -EINVAL, "rp_layout_survives: %s is NULL",
			      !layout ? "the layout" : "the failed list");
	if ((rc = rp_in_layout(layout, &l, err)))
		return rc;
	l.stroke = 1;
	l.chunk_bytes = 0;
	l.rebuild_mbps = l.replace_hours = 0;
	if ((rc = rp_geom_build(&l, l.n_disks, &g, err)))
		return rc;
	down = calloc(g.n, 1);
	if (!down)
		return rp_err(err, -ENOMEM, "out of memory");
	for (i = 0; i < n_failed; i++) {
		if (failed[i] >= g.n) {
			free(down);
			return rp_err(err, -EINVAL, "failed member %u is not in the %u-disk layout",
				      failed[i], g.n);
		}
		if (!down[failed[i]])
			n_down++;
		down[failed[i]] = 1;
	}
	switch (g.level) {
	case RP_LEVEL_0:
		ok = n_down == 0;
		break;
	case RP_LEVEL_1:
		ok = n_down < g.n;
		break;
	case RP_LEVEL_10:
		/* lost when every copy of one mirror set is down */
		for (i = 0; i < g.n && ok; i += g.copies) {
			unsigned cnt = 0;

			for (j = 0; j < g.copies; j++)
				cnt += down[i + j];
			ok = cnt < g.copies;
		}
		break;
	case RP_LEVEL_01:
		/* alive while one stripe set is whole */
		unit = g.n / g.copies;
		ok = 0;
		for (i = 0; i < g.n && !ok; i += unit) {
			unsigned cnt = 0;

			for (j = 0; j < unit; j++)
				cnt += down[i + j];
			ok = cnt == 0;
		}
		break;
	default:
		for (i = 0; i < g.n && ok; i += g.gsize) {
			unsigned cnt = 0;

			for (j = 0; j < g.gsize; j++)
				cnt += down[i + j];
			ok = cnt <= g.parity;
		}
		break;
	}
	free(down);
	return (int)ok;
}
