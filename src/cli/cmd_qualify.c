/* qualify - pre-deployment qualification of a batch of disks: identity,
 * SMART, a short self-test, a surface read scan, the zone profile, access
 * time and IOPS, each against thresholds, then disks of the same model
 * compared. Many disks in parallel, a progress line each and an overall
 * ETA; text, -J, and an HTML report. Reads only (src/ops/qualify.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "front/drives.h"
#include "front/profile.h"
#include "front/qualify.h"
#include "front/record.h"
#include "front/table.h"
#include "front/xalloc.h"
#include "shortstroke/bench.h"
#include "shortstroke/enclosure.h"
#include "shortstroke/fileio.h"
#include "shortstroke/io.h"
#include "shortstroke/qualify.h"
#include "shortstroke/units.h"

struct q_item {
	const struct qualify_opts *o;
	struct io_dev *io;
	bool raw; /* a block device that is not a SCSI/ATA disk */
	bool ran;
	char note[320]; /* in use / protected: said so */
	struct qualify_result res;
	/* --locate-failed: the failed disk's slot, its locate LED lit, or why not */
	bool locate_tried, located;
	struct encl_slot slot;
	char locate_err[400];
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke qualify [options] DEVICE...\n"
	    "       shortstroke qualify --print-thresholds\n"
	    "\n"
	    "Qualify disks before they go into service, all named disks in parallel:\n"
	    "identity, SMART verdict (temperature, reallocated and pending sectors, SCSI\n"
	    "grown defects), a short self-test, a surface read scan that grades every\n"
	    "128 KiB block by latency (classes, slowest blocks) and lists unreadable ones, the\n"
	    "zone profile (sequential read across the disk), access time and IOPS (random\n"
	    "4 KiB reads), each PASS or FAIL against thresholds; then disks of the same\n"
	    "model are compared and one clearly slower than its siblings is flagged.\n"
	    "Reads only (unless --remap): nothing is written, so disks in use or protected\n"
	    "are qualified too (and the output says so). On simulated drives it runs in\n"
	    "virtual time.\n"
	    "\n"
	    "Options:\n"
	    "  -p, --profile P       quick (default): sampled scan (256 MiB), 40-point\n"
	    "                        profile, QD 1 and 32 for 2 s, no self-test;\n"
	    "                        standard: short self-test, 10%% of the disk scanned,\n"
	    "                        QD 1, 4, 16, 32 for 3 s; full: short self-test, the\n"
	    "                        whole disk scanned, 200-point profile, 5 s per QD;\n"
	    "                        burnin: full, with a selective self-test of the\n"
	    "                        accessible span instead of the short one (after\n"
	    "                        'limit': the kept region; SCSI: the extended test,\n"
	    "                        over the whole disk), then a butterfly seek test\n"
	    "                        (1 min) and a random-read soak at QD 32 (10 min)\n"
	    "      --butterfly T, --soak T   burnin: their durations (30s, 2m, 1h)\n"
	    "  -t, --thresholds FILE thresholds ('key = value' lines) over the defaults\n"
	    "      --print-thresholds  print the thresholds in effect as a file to copy\n"
	    "      --report FILE     also write a self-contained HTML report with charts\n"
	    "      --seed N          seed of the random reads (default 1)\n"
	    "      --model PATTERN, --serial SERIAL   select disks as 'list' shows them\n"
	    "      --remap           DESTRUCTIVE: after the scan, rewrite the blocks it found\n"
	    "                        unreadable or slow, so that the drive reassigns them\n"
	    "                        (ATA: a WRITE of the block, zeros where unreadable;\n"
	    "                        SCSI: REASSIGN BLOCKS, or a WRITE of its own data for a\n"
	    "                        slow one), then read them again: before and after per\n"
	    "                        block. Confirmed as 'limit' is (the serial typed,\n"
	    "                        or -y); a disk in use or protected needs -f\n"
	    "      --remap-above MS  slow means read in MS or more (default 150)\n"
	    "      --locate-failed   light the locate LED of each failed disk's enclosure\n"
	    "                        slot (SES, as 'shortstroke locate' does)\n"
	    "  -y, --yes             with --remap: do not ask (scripts)\n"
	    "  -f, --force           with --remap: also a disk in use or protected\n"
	    "  -J, --json            JSON: every check, figure and bad block per disk\n"
	    "  -h, --help            this help\n"
	    "\n"
	    "Exit status: 0 every disk passed, 1 every disk failed, 2 usage error (a bad\n"
	    "thresholds file or a --report that cannot be written is reported before\n"
	    "any I/O; a report that fails to be written at the end is 2 as well), 4\n"
	    "some passed and some failed.\n"
	    "Examples:\n"
	    "  shortstroke qualify --profile full --report burnin.html /dev/sd[b-e]\n"
	    "  shortstroke qualify --print-thresholds > thr.conf; shortstroke qualify -t thr.conf "
	    "/dev/sdb\n");
}

/* Read-only opens: nothing is refused for being in use or protected, but
 * the note says so. */
static void open_item(struct batch *b, struct batch_item *it)
{
	struct q_item *qi = it->op;
	char st[300];

	if (batch_open_reading(b, it, &qi->raw, &qi->io))
		return;
	if (it->e.volume) {
		/* a simulated array: qualification is of drives */
		ss_error_usage(&it->err, -EOPNOTSUPP,
			       "%s is a simulated array, not a drive: qualify its members",
			       it->e.spec);
		io_dev_close(qi->io);
		qi->io = NULL;
		it->ready = false;
		it->rc = -EOPNOTSUPP;
		it->exit_hint = EXIT_USAGE;
		return;
	}
	if (it->e.state != DEV_FREE) {
		dev_state_text(&it->e, st, sizeof(st));
		snprintf(qi->note, sizeof(qi->note),
			 "%s: qualified anyway, read-only (nothing is written)", st);
	}
	if (qi->raw) {
		const struct io_geom *g = io_dev_geom(qi->io);

		snprintf(it->e.info.model, sizeof(it->e.info.model), "block device");
		it->e.info.logical_block = g->lblock;
		it->e.info.capacity_blocks = g->blocks;
	}
	qualify_result_init(&qi->res, it->e.spec, &it->e.info, qi->o->profile);
	it->ready = true;
}

/* --remap: the disk opened read-write and checked as `limit` checks it
 * (batch_open), the scan's I/O engine read-only beside it. */
static void open_item_remap(struct batch *b, struct batch_item *it)
{
	struct q_item *qi = it->op;

	if (!it->ready)
		return;
	if (it->e.info.zoned == ZONED_HOST_MANAGED) {
		ss_error_usage(&it->err, -EOPNOTSUPP,
			       "--remap cannot rewrite blocks of a host-managed zoned disk "
			       "(its sequential zones take writes only at the write pointer)");
		ss_error_subject(&it->err, it->e.spec);
		it->ready = false;
		it->rc = -EOPNOTSUPP;
		it->exit_hint = EXIT_USAGE;
		return;
	}
	if (io_dev_open_name(it->e.node, ctx_sources(b->ctx), false, &qi->io, &it->err)) {
		ss_error_subject(&it->err, it->e.spec);
		it->ready = false;
		it->rc = it->err.code ? it->err.code : -EIO;
		it->exit_hint = cli_exit_code(it->rc, &it->err);
		return;
	}
	snprintf(it->plan, sizeof(it->plan),
		 "qualify, then rewrite the blocks the scan finds unreadable or read in %g ms "
		 "or more (--remap: their data is lost where unreadable)",
		 qi->o->remap_above_ms);
	qualify_result_init(&qi->res, it->e.spec, &it->e.info, qi->o->profile);
}

static int q_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct q_item *qi = it->op;
	struct qualify_opts o = *qi->o;
	int rc;

	o.progress = sink;
	qi->ran = true;
	rc = qualify_disk(it->d, qi->io, &o, &qi->res, err);
	io_dev_close(qi->io);
	qi->io = NULL;
	return rc;
}

/* ---- output --------------------------------------------------------------------------- */

static void num_or_null(struct record *r, const char *key, const struct smart_num *n)
{
	if (n->known)
		record_set_i64(r, key, n->value);
	else
		record_set_null(r, key);
}

static void double_or_null(struct record *r, const char *key, bool known, double v)
{
	if (known)
		record_set_double(r, key, v);
	else
		record_set_null(r, key);
}

/* An item's error for a line under its disk's own heading: the subject
 * named (ss_error_subject), then left out (the name once, not twice). */
static const char *item_error(const struct batch_item *it, struct ss_error *tmp)
{
	*tmp = it->err;
	ss_error_subject(tmp, it->e.spec);
	return ss_error_bare(tmp);
}

/* Every check: "  identity  PASS  detail" lines, {"result", "detail"} objects. */
static void checks_record(struct record *d, const struct qualify_result *r)
{
	struct record *checks = record_set_object(d, "checks");

	record_style(checks, 2, 9, false);
	for (unsigned c = 0; c < QC_COUNT; c++) {
		const char *name = qualify_check_name((enum qualify_check)c);
		const char *status = qualify_status_name(r->check[c].status);
		struct record *x = record_set_object(checks, name);

		record_text(checks, name, "%s  %s", status, r->check[c].detail);
		record_set_str(x, "result", status);
		record_set_str(x, "detail", r->check[c].detail);
	}
}

/* A SCSI drive's log pages beside the verdict, null on ATA. */
static void scsi_health_record(struct record *x, const struct qualify_result *r)
{
	static const char *const what[3] = { "read", "write", "verify" };
	const struct qualify_scsi_health *h = &r->scsi;
	struct record *c, *u;

	if (r->nvme_read) { /* smartctl's names */
		struct record *o = record_set_object(x, "nvme");

		record_set_u64(o, "critical_warning", r->nvme.critical_warning);
		record_set_u64(o, "available_spare", r->nvme.available_spare);
		record_set_u64(o, "available_spare_threshold", r->nvme.available_spare_threshold);
		record_set_u64(o, "percentage_used", r->nvme.percentage_used);
		record_set_u64(o, "media_errors", r->nvme.media_errors);
		record_set_u64(o, "data_units_written", r->nvme.data_units_written);
	} else {
		record_set_null(x, "nvme");
	}
	if (!h->read) {
		record_set_null(x, "grown_defects");
		record_set_null(x, "scsi");
		return;
	}
	num_or_null(x, "grown_defects", &r->reallocated);
	x = record_set_object(x, "scsi");
	c = record_set_object(x, "corrected_errors");
	u = record_set_object(x, "uncorrected_errors");
	for (unsigned i = 0; i < 3; i++) {
		if (h->has_counters[i]) {
			record_set_u64(c, what[i], h->corrected[i]);
			record_set_u64(u, what[i], h->uncorrected[i]);
		} else {
			record_set_null(c, what[i]);
			record_set_null(u, what[i]);
		}
	}
	num_or_null(x, "non_medium_errors", &h->non_medium);
	num_or_null(x, "start_stop_cycles", &h->start_stop_cycles);
	if (h->bg_scan) {
		record_set_u64(x, "background_scans", h->bg_scans);
		record_set_u64(x, "background_medium_errors", h->bg_medium_errors);
	} else {
		record_set_null(x, "background_scans");
		record_set_null(x, "background_medium_errors");
	}
}

/* The scan's latency classes, error kinds, slowest blocks and map. */
static void scan_class_records(struct record *x, const struct qualify_result *r)
{
	struct record *a, *o;
	char line[512];
	size_t l = 0;

	record_set_u64(x, "block_bytes", r->scan_block_bytes);
	a = record_set_list(x, "classes");
	for (unsigned c = 0; c < QUALIFY_CLASSES; c++) {
		o = record_set_object(a, NULL);
		record_set_double(o, "from_ms", c ? r->scan_classes_ms[c - 1] : 0);
		if (c < QUALIFY_CLASS_EDGES)
			record_set_double(o, "below_ms", r->scan_classes_ms[c]);
		else
			record_set_null(o, "below_ms");
		record_set_u64(o, "blocks", r->scan_class[c]);
		l += (size_t)snprintf(line + l, sizeof(line) - l, "%s%s%g ms %" PRIu64,
				      c ? ", " : "", c < QUALIFY_CLASS_EDGES ? "<" : ">=",
				      c < QUALIFY_CLASS_EDGES ? r->scan_classes_ms[c]
							      : r->scan_classes_ms[c - 1],
				      r->scan_class[c]);
	}
	o = record_set_object(x, "errors");
	for (unsigned k = 0; k < QE_KINDS; k++) {
		record_set_u64(o, qualify_err_kind_name((enum qualify_err_kind)k), r->scan_err[k]);
		if (l < sizeof(line))
			l += (size_t)snprintf(line + l, sizeof(line) - l, "%s%s %" PRIu64,
					      k ? ", " : "; failed reads: ",
					      qualify_err_kind_name((enum qualify_err_kind)k),
					      r->scan_err[k]);
	}
	if (r->scan_block_bytes)
		record_line(x, "  scan blocks (%u KiB) by latency: %s", r->scan_block_bytes >> 10,
			    line);
	o = record_set_object(x, "bad_blocks_by_kind");
	for (unsigned k = 0; k < QE_KINDS; k++)
		record_set_u64(o, qualify_err_kind_name((enum qualify_err_kind)k), r->bad_kind[k]);
	record_set_u64(x, "slow_150ms", r->slow_150ms);
	record_set_u64(x, "slow_500ms", r->slow_500ms);
	a = record_set_list(x, "slowest");
	l = 0;
	line[0] = '\0';
	for (unsigned i = 0; i < r->nslowest; i++) {
		o = record_set_object(a, NULL);
		record_set_u64(o, "lba", r->slowest[i].lba);
		record_set_u64(o, "blocks", r->slowest[i].blocks);
		record_set_double(o, "ms", r->slowest[i].ms);
		if (i < 5 && l < sizeof(line))
			l += (size_t)snprintf(line + l, sizeof(line) - l,
					      "%sLBA %" PRIu64 " %.1f ms", i ? ", " : "",
					      r->slowest[i].lba, r->slowest[i].ms);
	}
	if (r->nslowest)
		record_line(x, "  slowest blocks: %s", line);
	o = record_set_object(x, "map");
	record_set_u64(o, "bins", QUALIFY_MAP_BINS);
	a = record_set_list(o, "cells");
	for (unsigned b = 0; b < QUALIFY_MAP_BINS; b++) {
		struct record *cell = record_set_list(a, NULL);

		for (unsigned c = 0; c <= QUALIFY_CLASSES; c++)
			record_set_u64(cell, NULL, r->scan_map[b][c]);
	}
}

/* --remap: each run of blocks, before and after. */
static void remap_records(struct record *x, const struct qualify_result *r)
{
	struct record *a;

	if (!r->remap_ran) {
		record_set_null(x, "remap");
		return;
	}
	a = record_set_list(x, "remap");
	for (unsigned i = 0; i < r->nremap; i++) {
		const struct qualify_remap *m = &r->remap[i];
		struct record *o = record_set_object(a, NULL);
		char before[48], after[48];

		if (m->why == QR_UNREADABLE)
			snprintf(before, sizeof(before), "unreadable (%s)",
				 qualify_err_kind_name((enum qualify_err_kind)m->before_kind));
		else
			snprintf(before, sizeof(before), "%.1f ms", m->before_ms);
		if (m->after_ok)
			snprintf(after, sizeof(after), "%.1f ms", m->after_ms);
		else
			snprintf(after, sizeof(after), "unreadable (%s)",
				 qualify_err_kind_name((enum qualify_err_kind)m->after_kind));
		record_set_u64(o, "lba", m->lba);
		record_set_u64(o, "blocks", m->blocks);
		record_set_str(o, "before", before);
		record_set_str(o, "action", m->action);
		record_set_str(o, "error", m->rc ? m->error : NULL);
		record_set_bool(o, "after_ok", m->after_ok);
		if (m->after_ok)
			record_set_double(o, "after_ms", m->after_ms);
		else
			record_set_null(o, "after_ms");
		record_set_str(o, "after", after);
		if (i < 20)
			record_line(o,
				    "  remap: LBA %" PRIu64 " (%u block%s): %s; %s%s%s; after: %s",
				    m->lba, m->blocks, m->blocks == 1 ? "" : "s", before, m->action,
				    m->rc ? " failed: " : "", m->rc ? m->error : "", after);
	}
	record_set_bool(x, "remap_truncated", r->remap_truncated);
}

static void smart_scan_records(struct record *d, const struct qualify_result *r)
{
	struct record *x = record_set_object(d, "smart"), *a;

	record_set_bool(x, "read", r->smart_read);
	record_set_str(x, "verdict", r->smart_read ? smart_verdict_name(r->smart_verdict) : NULL);
	num_or_null(x, "temperature_c", &r->temperature_c);
	num_or_null(x, "reallocated", &r->reallocated);
	num_or_null(x, "pending", &r->pending);
	num_or_null(x, "offline_uncorrectable", &r->offline_uncorrectable);
	num_or_null(x, "power_on_hours", &r->power_on_hours);
	scsi_health_record(x, r);
	if (r->elements.supported) {
		struct record *el = record_set_list(x, "elements");

		for (size_t k = 0; k < r->elements.n; k++) {
			struct record *e = record_set_object(el, NULL);

			record_set_u64(e, "id", r->elements.e[k].id);
			record_set_u64(e, "health", r->elements.e[k].health);
			record_set_str(e, "state", elem_health_name(r->elements.e[k].health));
			record_set_bool(e, "near_limit",
					elem_health_near_limit(r->elements.e[k].health));
		}
	} else {
		record_set_null(x, "elements");
	}

	x = record_set_object(d, "scan");
	record_set_u64(x, "bytes_read", r->scan_bytes);
	record_set_double(x, "share_percent", r->scan_share_pct);
	record_set_double(x, "mbps", r->scan_mbps);
	record_set_u64(x, "failed_requests", r->scan_errors);
	record_set_u64(x, "bad_blocks", r->bad_blocks);
	a = record_set_list(x, "bad_ranges");
	for (unsigned i = 0; i < r->nbad; i++) {
		struct record *b = record_set_object(a, NULL);

		record_set_u64(b, "first_lba", r->bad[i].lba);
		record_set_u64(b, "last_lba", r->bad[i].lba + r->bad[i].blocks - 1);
		record_set_u64(b, "blocks", r->bad[i].blocks);
		if (i < 20)
			record_line(
			    b, "  bad blocks: LBA %" PRIu64 "-%" PRIu64 " (%" PRIu64 " block%s)",
			    r->bad[i].lba, r->bad[i].lba + r->bad[i].blocks - 1, r->bad[i].blocks,
			    r->bad[i].blocks == 1 ? "" : "s");
	}
	if (r->nbad > 20)
		record_line(x, "  bad blocks: %u more ranges (-J lists them all)", r->nbad - 20);
	record_set_bool(x, "bad_ranges_truncated", r->bad_truncated);
	scan_class_records(x, r);
	remap_records(x, r);
}

static void stress_record(struct record *b, const char *key, const struct qualify_stress *st)
{
	struct record *x;

	if (!st->ran) {
		record_set_null(b, key);
		return;
	}
	x = record_set_object(b, key);
	record_set_u64(x, "qd", st->qd);
	record_set_double(x, "seconds", (double)st->time_ns / 1e9);
	record_set_u64(x, "reads", st->ios);
	record_set_u64(x, "failed_reads", st->errors);
	record_set_double(x, "iops", st->iops);
	record_set_double(x, "lat_avg_ms", st->avg_ms);
	record_set_double(x, "lat_p99_ms", st->p99_ms);
	record_set_double(x, "lat_max_ms", st->max_ms);
}

/* burnin: the butterfly and the soak; null outside the burnin profile */
static void stress_records(struct record *d, const struct qualify_result *r)
{
	struct record *b;

	if (!r->butterfly.ran && !r->soak.ran) {
		record_set_null(d, "burnin");
		return;
	}
	b = record_set_object(d, "burnin");
	stress_record(b, "butterfly", &r->butterfly);
	stress_record(b, "soak", &r->soak);
}

static void speed_records(struct record *d, const struct qualify_result *r)
{
	struct record *x, *a;

	if (r->zp) {
		x = record_set_object(d, "zone_profile");
		record_set_double(x, "outer_mbps", r->zp->outer_mbps);
		record_set_double(x, "inner_mbps", r->zp->inner_mbps);
		record_set_double(x, "mean_mbps", r->mean_mbps);
		record_set_i64(x, "zones", r->zp->nzones);
		record_set_i64(x, "failed_samples", r->zp->errors);
		record_set_u64(x, "dips", r->profile_dips);
		record_set_double(x, "dip_worst_percent", r->profile_dip_worst_pct);
		profile_samples(x, r->zp);
	} else {
		record_set_null(d, "zone_profile");
	}

	x = record_set_object(d, "access");
	double_or_null(x, "access_ms", r->nqd, r->access_ms);
	record_set_u64(x, "failed_reads", r->access_errors);
	a = record_set_list(x, "runs");
	for (unsigned k = 0; k < r->nqd; k++) {
		struct record *p = record_set_object(a, NULL);

		record_set_i64(p, "qd", r->qd[k]);
		record_set_double(p, "iops", r->iops[k]);
		record_set_double(p, "lat_avg_ms", r->lat_avg_ms[k]);
		record_set_double(p, "lat_p99_ms", r->lat_p99_ms[k]);
	}

	stress_records(d, r);
	x = record_set_object(d, "siblings");
	record_set_i64(x, "count", r->siblings);
	double_or_null(x, "slowdown_percent", r->slowdown_metric[0], r->slowdown_pct);
	record_set_str(x, "metric", r->slowdown_metric[0] ? r->slowdown_metric : NULL);
	double_or_null(x, "profile_slowdown_percent", r->profile_compared, r->profile_slowdown_pct);
}

/* --locate-failed: each failed disk's slot found and its locate LED lit. */
static void locate_failed_disks(struct ss_ctx *ctx, struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		struct q_item *qi = it->op;
		struct ss_error err = { 0 };

		if (qi->ran && qi->res.pass)
			continue;
		qi->locate_tried = true;
		if (encl_find(ctx, &it->e, &qi->slot, &err) == 0 &&
		    encl_set_leds(ctx, &qi->slot, 1, -1, &err) == 0) {
			qi->located = true;
			continue;
		}
		ss_error_subject(&err, it->e.spec);
		snprintf(qi->locate_err, sizeof(qi->locate_err), "%s", ss_error_bare(&err));
	}
}

/* What --locate-failed did for the disk. */
static void locate_record(struct record *d, const struct q_item *qi)
{
	char where[400];

	if (!qi->locate_tried)
		return;
	if (!qi->located) {
		record_set_null(d, "located");
		record_set_str(d, "locate_error", qi->locate_err);
		record_line(d, "  locate LED: not lit: %s", qi->locate_err);
		return;
	}
	encl_slot_record(d, "located", &qi->slot);
	encl_slot_text(&qi->slot, where, sizeof(where));
	record_line(d, "  locate LED: on at %s", where);
}

/* One disk: its heading and every check in text; in JSON every check,
 * figure and bad block. */
static void disk_record(struct record *d, const struct batch_item *it)
{
	const struct q_item *qi = it->op;
	const struct qualify_result *r = &qi->res;
	const struct drive_info *i = &it->e.info;
	bool pass = qi->ran && r->pass;
	struct ss_error tmp;
	char who[320] = "";

	if (i->model[0])
		snprintf(who, sizeof(who), " (%s%s%s)", i->model, i->serial[0] ? ", " : "",
			 i->serial);
	record_line(d, "%s", "");
	record_line(d, "%s%s: %s", it->e.spec, who, pass ? "PASS" : "FAIL");
	record_set_str(d, "device", it->e.spec);
	record_set_str(d, "model", i->model);
	record_set_str(d, "serial", i->serial);
	record_set_str(d, "firmware", i->firmware);
	record_set_u64(d, "capacity_bytes", i->capacity_blocks * i->logical_block);
	record_set_i64(d, "logical_block", i->logical_block);
	record_set_str(d, "note", qi->note[0] ? qi->note : NULL);
	if (qi->note[0])
		record_line(d, "  note: %s", qi->note);
	record_set_str(d, "verdict", pass ? "PASS" : "FAIL");
	record_set_bool(d, "pass", pass);
	record_set_str(d, "error", it->rc ? it->err.msg : NULL);
	locate_record(d, qi);
	if (!qi->ran) {
		record_line(d, "  not qualified: %s", item_error(it, &tmp));
		return;
	}
	record_set_bool(d, "vanished", r->vanished);
	record_set_bool(d, "virtual_time", r->virtual_time);
	record_set_str(d, "selftest_scope", r->selftest_scope[0] ? r->selftest_scope : NULL);
	checks_record(d, r);
	smart_scan_records(d, r);
	speed_records(d, r);
	if (it->rc && it->rc != -ENODEV)
		record_line(d, "  stopped: %s", item_error(it, &tmp));
}

/* The one-line-per-disk table text opens with. */
static struct table *summary_table(struct batch *b)
{
	struct table *t = qualify_summary_new(NULL);

	for (unsigned i = 0; t && i < b->n; i++) {
		const struct batch_item *it = &b->items[i];
		const struct q_item *qi = it->op;

		qualify_summary_row(t, it->e.spec, &it->e.info, qi->ran ? &qi->res : NULL);
	}
	return t;
}

static void print_results(struct batch *b, const struct qualify_opts *o, unsigned passed)
{
	struct record *root = record_new(), *thr, *disks;
	struct table *t = summary_table(b);
	double v;
	const char *k;

	if (t)
		record_table(root, t);
	record_set_str(root, "profile", qualify_profile_name(o->profile));
	thr = record_set_object(root, "thresholds");
	for (unsigned i = 0; (k = qualify_thresholds_key(i, o->thr, &v)); i++) {
		const double *vals;
		unsigned nv = qualify_thresholds_values(i, o->thr, &vals);
		struct record *l;

		if (nv == 1) {
			record_set_double(thr, k, v);
			continue;
		}
		l = record_set_list(thr, k);
		for (unsigned j = 0; j < nv; j++)
			record_set_double(l, NULL, vals[j]);
	}
	disks = record_set_list(root, "disks");
	for (unsigned i = 0; i < b->n; i++)
		disk_record(record_set_object(disks, NULL), &b->items[i]);
	record_set_i64(root, "passed", passed);
	record_set_i64(root, "failed", b->n - passed);
	record_line(root, "%s", "");
	record_line(root, "qualify (%s profile%s): %u of %u disk%s passed",
		    qualify_profile_name(o->profile),
		    b->n && ((struct q_item *)b->items[0].op)->res.virtual_time ? ", virtual time"
										: "",
		    passed, b->n, b->n == 1 ? "" : "s");
	record_print(root, stdout, b->json ? TABLE_JSON : 0);
	record_free(root);
}

static int write_report(struct batch *b, const struct qualify_opts *o, const char *path)
{
	const struct qualify_result **r = xcalloc(b->n ? b->n : 1, sizeof(*r));
	struct qualify_report_meta m = { .profile = o->profile, .thr = o->thr };
	struct qualify_result *unopened = xcalloc(b->n ? b->n : 1, sizeof(*unopened));
	struct ss_error err = { 0 };
	struct ss_error tmp;
	char when[64], host[256];
	int rc;

	qualify_report_meta_now(&m, when, sizeof(when), host, sizeof(host));
	for (unsigned i = 0; i < b->n; i++) {
		struct q_item *qi = b->items[i].op;

		if (qi->ran) {
			r[i] = &qi->res;
			continue;
		}
		/* not opened: a row that says why */
		qualify_result_init(&unopened[i], b->items[i].e.spec, &b->items[i].e.info,
				    o->profile);
		snprintf(unopened[i].check[QC_IDENTITY].detail, sizeof(unopened[i].check[0].detail),
			 "%s", item_error(&b->items[i], &tmp));
		unopened[i].check[QC_IDENTITY].status = QUALIFY_FAIL;
		qualify_result_verdict(&unopened[i]);
		r[i] = &unopened[i];
	}
	rc = qualify_report_write(path, &m, r, b->n, &err);
	if (rc)
		cli_error("%s", err.msg);
	free(r);
	free(unopened);
	return rc;
}

static int qualify_run(struct ss_ctx *ctx, int argc, char **argv)
{
	enum {
		OPT_PRINT = 0x2201,
		OPT_REPORT,
		OPT_SEED,
		OPT_REMAP,
		OPT_REMAP_ABOVE,
		OPT_BUTTERFLY,
		OPT_SOAK,
		OPT_LOCATE_FAILED
	};
	static const struct option opts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "thresholds", required_argument, NULL, 't' },
		{ "print-thresholds", no_argument, NULL, OPT_PRINT },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "seed", required_argument, NULL, OPT_SEED },
		BATCH_LONG_SELECT,
		{ "remap", no_argument, NULL, OPT_REMAP },
		{ "butterfly", required_argument, NULL, OPT_BUTTERFLY },
		{ "soak", required_argument, NULL, OPT_SOAK },
		{ "remap-above", required_argument, NULL, OPT_REMAP_ABOVE },
		{ "locate-failed", no_argument, NULL, OPT_LOCATE_FAILED },
		BATCH_LONG_CONFIRM,
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct batch b = { .cmd = "qualify", .ctx = ctx, .verbose = ctx->verbose };
	struct qualify_thresholds thr;
	struct qualify_opts o = {
		.profile = QUALIFY_QUICK, .thr = &thr, .seed = 1, .remap_above_ms = 150
	};
	bool remap_above = false, stress_opt = false;
	struct ss_error err = { 0 };
	const char *thr_file = NULL, *report = NULL;
	bool print_thr = false, report_failed = false, locate_failed = false;
	unsigned passed = 0, ran = 0;
	int c, rc, worst = EXIT_DONE;

	qualify_thresholds_default(&thr);
	while ((c = getopt_long(argc, argv, ":p:t:yfJh", opts, NULL)) != -1) {
		if (batch_opts_take(&b, c, optarg, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case 'p':
			if (qualify_profile_parse(optarg, &o.profile))
				return cli_usage_error("qualify",
						       "unknown profile '%s' (quick, "
						       "standard, full, burnin)",
						       optarg);
			break;
		case 't':
			thr_file = optarg;
			break;
		case OPT_PRINT:
			print_thr = true;
			break;
		case OPT_REPORT:
			report = optarg;
			break;
		case OPT_SEED:
			if (u64_parse(optarg, &o.seed))
				return cli_usage_error("qualify", "--seed '%s' is not a number",
						       optarg);
			break;
		case OPT_REMAP:
			o.remap = true;
			break;
		case OPT_LOCATE_FAILED:
			locate_failed = true;
			break;
		case OPT_BUTTERFLY:
		case OPT_SOAK:
			if (bench_parse_time(optarg, c == OPT_SOAK ? &o.soak_ns : &o.butterfly_ns,
					     NULL))
				return cli_usage_error("qualify",
						       "%s '%s': give a duration such as 30s, 10m "
						       "or 1h",
						       c == OPT_SOAK ? "--soak" : "--butterfly",
						       optarg);
			stress_opt = true;
			break;
		case OPT_REMAP_ABOVE:
			if (decimal_parse(optarg, &o.remap_above_ms, NULL) ||
			    o.remap_above_ms <= 0 || o.remap_above_ms > 600000)
				return cli_usage_error("qualify",
						       "--remap-above '%s': give a latency in ms "
						       "above 0 (such as 150 or 500)",
						       optarg);
			remap_above = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("qualify", c, argv);
		}
	}
	/* the thresholds before anything reaches a disk */
	if (thr_file && qualify_thresholds_load(thr_file, &thr, &err)) {
		cli_error("qualify: %s", err.msg);
		return EXIT_USAGE;
	}
	if (print_thr && optind < argc)
		return cli_usage_error("qualify",
				       "--print-thresholds takes no device ('%s'): it "
				       "prints the thresholds, then exits",
				       argv[optind]);
	if (print_thr) {
		char *text = NULL;

		if (qualify_thresholds_format(&thr, &text, &err)) {
			cli_error("qualify: %s", err.msg);
			return EXIT_FAILED;
		}
		fputs(text, stdout);
		free(text);
		return EXIT_DONE;
	}
	if (report && !report[0])
		return cli_usage_error("qualify", "--report: give a file name");
	if (stress_opt && o.profile != QUALIFY_BURNIN)
		return cli_usage_error("qualify",
				       "--butterfly and --soak go with --profile burnin");
	if (!o.remap && (remap_above || b.yes || b.force))
		return cli_usage_error("qualify", "%s goes with --remap (qualify alone only reads)",
				       remap_above ? "--remap-above"
				       : b.yes	   ? "--yes"
						   : "--force");
	/* where the report goes, before a disk is read: not after an hour's scan */
	if (report && file_check_writable(report, "--report", &err)) {
		cli_error("qualify: %s", err.msg);
		return EXIT_USAGE;
	}
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	for (unsigned i = 0; i < b.n; i++) {
		struct q_item *qi = xcalloc(1, sizeof(*qi));

		qi->o = &o;
		b.items[i].op = qi;
	}
	if (o.remap) {
		/* writes: every disk opened for writing and checked before any is
		 * read, then the go-ahead */
		batch_open(&b);
		for (unsigned i = 0; i < b.n; i++)
			open_item_remap(&b, &b.items[i]);
		if (!batch_check_all(&b) || batch_confirm(&b, "remap") != EXIT_DONE) {
			for (unsigned i = 0; i < b.n; i++)
				if (b.items[i].rc)
					cli_error("%s", b.items[i].err.msg);
			rc = b.exit_code ? b.exit_code : EXIT_REFUSED;
			goto out;
		}
	} else {
		for (unsigned i = 0; i < b.n; i++)
			open_item(&b, &b.items[i]);
	}
	b.overall = true;
	batch_run(&b, q_job);
	/* the siblings: every disk that ran */
	{
		struct qualify_result **rs = xcalloc(b.n ? b.n : 1, sizeof(*rs));
		unsigned n = 0;

		for (unsigned i = 0; i < b.n; i++) {
			struct q_item *qi = b.items[i].op;

			if (qi->ran)
				rs[n++] = &qi->res;
		}
		qualify_compare_siblings(rs, n, &thr);
		free(rs);
	}
	for (unsigned i = 0; i < b.n; i++) {
		struct batch_item *it = &b.items[i];
		struct q_item *qi = it->op;

		if (qi->ran) {
			ran++;
			passed += qi->res.pass;
		} else if (it->exit_hint && (worst == EXIT_DONE || it->exit_hint == EXIT_FAILED)) {
			worst = it->exit_hint;
		}
		if (it->rc)
			cli_error_named(it->e.spec, &it->err);
	}
	if (locate_failed)
		locate_failed_disks(ctx, &b);
	print_results(&b, &o, passed);
	if (report && write_report(&b, &o, report))
		report_failed = true;
	rc = EXIT_DONE;
out:
	for (unsigned i = 0; i < b.n; i++) {
		struct q_item *qi = b.items[i].op;

		io_dev_close(qi->io);
		qualify_result_fini(&qi->res);
		drive_free(b.items[i].d);
		record_free(b.items[i].rec);
		free(b.items[i].log);
		free(qi);
	}
	free(b.items);
	if (rc)
		return rc;
	if (cli_stop_signal()) /* each disk's line says where it stands */
		return 128 + cli_stop_signal();
	if (report_failed)
		return EXIT_USAGE; /* an output path that cannot be written, as --report checked first */
	if (!ran)
		return worst == EXIT_DONE ? EXIT_FAILED : worst;
	if (passed == b.n)
		return EXIT_DONE;
	if (passed == 0)
		return EXIT_FAILED;
	return EXIT_PARTIAL;
}

const struct cli_cmd cmd_qualify = {
	.name = "qualify",
	.summary = "qualify disks before deployment: health, surface scan, speed, outliers",
	.run = qualify_run,
};
