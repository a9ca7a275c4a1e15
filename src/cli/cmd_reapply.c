/* reapply - put the journaled volatile limits back after a power cycle (at
 * boot, or when a disk is hot-added), on the disk that carries the same
 * serial/WWN; verify the permanent ones; report missing and changed disks
 * without touching them. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "front/xalloc.h"
#include "shortstroke/capacity.h"
#include "shortstroke/reapply.h"
#include "shortstroke/units.h"

struct ra_job {
	struct batch *b;
	struct journal_entry rec;
	struct cap_plan plan;
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke reapply [options] [DEVICE...]\n"
		   "\n"
		   "Put back every volatile limit the journal records (limit --volatile: a\n"
		   "power cycle undoes it), each on the disk that carries the journaled serial\n"
		   "number and WWN (never by device name: names change between boots), then\n"
		   "verify it. Permanent limits are verified only. A journaled disk that is not\n"
		   "attached is reported as missing; one whose model, block size or capacity\n"
		   "differs from the journal is reported as changed; neither is touched; nor\n"
		   "is any disk when more than one carries the journaled serial (and no WWN).\n"
		   "With DEVICE (as a udev rule passes a hot-added disk), only that disk: no\n"
		   "other disk is sent a command (whether another one carries its serial is\n"
		   "read from sysfs, or a rig's record).\n"
		   "No confirmation is asked: the disk gets back the limit it was given before.\n"
		   "A limit stays wanted until you restore it, whatever a run that was killed\n"
		   "left in the journal; a disk whose last limit was started but never\n"
		   "completed, and does not show it, is named: run limit (or restore) again.\n"
		   "Protected disks and disks in use (mounted, md/LVM member) are refused; a\n"
		   "disk whose only use is a partition table or signature is not in use.\n"
		   "One line per disk on stdout, in the order 'shortstroke list' shows them\n"
		   "(the named ones in the order named), then journaled disks not attached;\n"
		   "when some failed, a count on stderr.\n"
		   "\n"
		   "Options:\n"
		   "      --dry-run         print every command that would be sent; send none\n"
		   "  -J, --json            one result object per journaled disk\n"
		   "  -h, --help            this help\n"
		   "\n"
		   "Exit status: 0 every limit in place (missing disks too), 1 failed, a disk\n"
		   "changed or a limit that never completed, 2 usage error, 3 refused\n"
		   "(protected, in use), 4 some failed.\n"
		   "Run at boot by contrib/systemd/shortstroke-reapply.service.\n");
}

static void rec_fields(struct batch_item *it, const struct journal_entry *r, const char *status)
{
	struct record *o = it->rec;

	record_set_str(o, "status", status);
	record_set_str(o, "serial", r->serial);
	record_set_str(o, "wwn", r->wwn);
	record_set_str(o, "model", r->model);
	record_set_str(o, "journaled_device", r->device);
	record_set_str(o, "method", r->method);
	record_set_bool(o, "volatile", r->volatile_);
	record_set_u64(o, "block_len", r->block_len);
	record_set_u64(o, "original_blocks", r->original_blocks);
	record_set_u64(o, "target_blocks", r->target_blocks);
	record_set_bool(o, "changed", false);
}

/* An item settled without sending anything: text and JSON say why. */
static void settle(struct batch_item *it, const struct journal_entry *r, const char *status, int rc,
		   int exit_hint, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void settle(struct batch_item *it, const struct journal_entry *r, const char *status, int rc,
		   int exit_hint, const char *fmt, ...)
{
	char msg[sizeof(it->result)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	it->ready = false;
	it->rc = rc;
	it->exit_hint = exit_hint;
	if (rc)
		snprintf(it->err.msg, sizeof(it->err.msg), "%s: %s", it->e.spec, msg);
	else
		snprintf(it->result, sizeof(it->result), "%s", msg);
	if (r)
		rec_fields(it, r, status);
	else
		record_set_str(it->rec, "status", status);
	record_set_str(it->rec, "message", msg);
}

static const char *reapply_limit_text(const struct journal_entry *r, char *buf, size_t len)
{
	char h[32];

	snprintf(buf, len, "%" PRIu64 " blocks (%s) by %s%s", r->target_blocks,
		 size_human(r->target_blocks * r->block_len, h, sizeof(h)), r->method,
		 r->volatile_ ? ", volatile" : "");
	return buf;
}

/* Open the disk for writing (unless it is: a disk named) and check, on what
 * it answers now, that it is still the journaled disk, still needs the
 * limit, and may be changed. */
static void open_needed(struct batch *b, struct batch_item *it)
{
	struct ra_job *j = it->op;
	struct cap_request req = {
		.method = CAP_AUTO, /* the journaled one, below */
		.by = CAP_BY_BLOCKS,
		.blocks = j->rec.target_blocks,
		.align = j->rec.block_len,
		.volatile_ = true,
		.force = true, /* the journaled limit passed the rules when it was set */
	};
	struct cap_ctx c = { 0 };
	char spec[sizeof(it->e.spec)], why[400];
	int rc;

	/* the journal's method (a volatile one: reapply_check needs it); a name
	 * it does not know leaves auto, which picks the volatile method */
	(void)cap_method_parse(j->rec.method, &req.method);
	snprintf(spec, sizeof(spec), "%s", it->e.spec);
	rc = it->d ? 0 : device_open(b->ctx, spec, true, &it->d, &it->e, &it->err);
	if (rc) {
		it->rc = rc;
		it->exit_hint = cli_exit_code(rc, &it->err);
		record_set_str(it->rec, "status", "failed");
		return;
	}
	if (!reapply_same_disk(&j->rec, it->e.info.serial, it->e.info.wwn) ||
	    reapply_check(&j->rec, &it->e.info, why, sizeof(why)) != REAPPLY_NEEDED) {
		settle(it, &j->rec, "changed", -ESTALE, EXIT_FAILED,
		       "the disk changed while it was being opened; not touched");
		return;
	}
	if (device_check_safe(&it->e, false, &it->err) &&
	    !(it->e.state == DEV_IN_USE && it->e.label_only)) {
		char *force = strstr(it->err.msg, " (--force overrides)");

		if (force)
			*force = '\0'; /* reapply has no --force */
		it->rc = -EPERM;
		it->exit_hint = EXIT_REFUSED;
		record_set_str(it->rec, "status", "refused");
		return;
	}
	ss_error_clear(&it->err);
	c.d = it->d;
	c.e = &it->e;
	if ((!b->dry_run && cap_refresh_native(&c, &it->err)) ||
	    cap_plan_limit(&it->e.info, NULL, &req, &j->plan, &it->err)) {
		it->rc = it->err.code ? it->err.code : -EIO;
		it->exit_hint = cli_exit_code(it->rc, &it->err);
		ss_error_subject(&it->err, it->e.spec);
		record_set_str(it->rec, "status", "failed");
		return;
	}
	cli_hpa_warn(b->ctx, &it->e);
	snprintf(it->plan, sizeof(it->plan), "%s %s: re-apply the volatile limit, %s",
		 it->e.info.model, it->e.info.serial, j->plan.note);
	it->ready = true;
}

static int ra_job_run(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct ra_job *j = it->op;
	struct cap_result res;
	struct cap_ctx c;
	int rc;

	batch_cap_ctx(&c, j->b, it, sink);
	rc = cap_limit(&c, &j->plan, &res, err);
	record_set_str(it->rec, "status",
		       rc	       ? "failed"
		       : j->b->dry_run ? "would-reapply"
				       : "reapplied");
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s%s",
		 j->b->dry_run ? "" : "re-applied: ", res.message);
	record_set_bool(it->rec, "changed", !res.dry_run);
	record_set_u64(it->rec, "after_blocks", res.after);
	record_set_str(it->rec, "message", it->result);
	return 0;
}

/* A limit started and never completed (not the done one again): in place
 * when the disk shows it; else whether it should carry it cannot be told. */
static void judge_incomplete(struct batch_item *it, const struct journal_entry *r, const char *lim)
{
	const struct drive_info *i = &it->e.info;

	if (i->logical_block == r->block_len && i->capacity_blocks == r->target_blocks) {
		settle(it, r, "in-place", 0, 0,
		       "limit in place: %s (its last limit, journaled %s, never recorded its "
		       "end, but the disk has it)",
		       lim, r->time);
		return;
	}
	settle(it, r, "incomplete", -ESTALE, EXIT_FAILED,
	       "the last limit (%s, journaled %s) never completed, and the disk has %" PRIu64
	       " blocks%s: whether it should carry that limit cannot be told, so nothing is "
	       "sent; run 'shortstroke limit' again (or 'shortstroke restore') to settle it",
	       lim, r->time, i->capacity_blocks,
	       i->capacity_blocks == r->original_blocks ? " (its original)" : "");
}

/* The journaled record r against the disk that carries it (it->e): in
 * place, lost, changed, or needed (then opened and planned). */
static void judge(struct batch *b, struct batch_item *it, const struct journal_entry *r,
		  bool incomplete)
{
	char why[400], lim[96];
	struct ra_job *j;

	reapply_limit_text(r, lim, sizeof(lim));
	record_set_u64(it->rec, "current_blocks", it->e.info.capacity_blocks);
	if (incomplete) {
		judge_incomplete(it, r, lim);
		return;
	}
	switch (reapply_check(r, &it->e.info, why, sizeof(why))) {
	case REAPPLY_IN_PLACE:
		settle(it, r, "in-place", 0, 0, "limit in place: %s%s%s", lim, why[0] ? "; " : "",
		       why);
		return;
	case REAPPLY_LOST:
		settle(it, r, "lost", -ESTALE, EXIT_FAILED, "%s; not touched: run limit again",
		       why);
		return;
	case REAPPLY_CHANGED:
		settle(it, r, "changed", -ESTALE, EXIT_FAILED, "%s; not touched", why);
		return;
	case REAPPLY_NEEDED:
		break;
	}
	rec_fields(it, r, "needed");
	j = xcalloc(1, sizeof(*j));
	j->b = b;
	j->rec = *r;
	it->op = j;
	open_needed(b, it);
}

static void settle_ambiguous(struct batch_item *it, const struct journal_entry *r)
{
	settle(it, r, "failed", -EEXIST, EXIT_FAILED,
	       "more than one attached disk has serial %s%s%s (journaled as %s, %s): which one "
	       "was limited cannot be told, so none is touched",
	       r->serial[0] ? r->serial : "-", r->wwn[0] ? " / WWN " : "", r->wwn, r->device,
	       r->model);
}

/* One item per journaled disk, every attached disk identified. */
static void add_record(struct batch *b, const struct journal_entry *r, bool incomplete,
		       const struct dev_entry *devs, size_t nd)
{
	int idx = reapply_find(r, devs, nd);
	struct batch_item *it;
	char lim[96];

	if (idx == REAPPLY_AMBIGUOUS) {
		/* several attached disks carry the identity: a limit on the wrong
		 * one would cut its data short, so none is touched */
		it = batch_add(b, r->serial[0] ? r->serial : r->wwn);
		if (it)
			settle_ambiguous(it, r);
		return;
	}
	it = batch_add(b, idx >= 0 ? devs[idx].spec : (r->serial[0] ? r->serial : r->wwn));
	if (!it)
		return;
	if (idx < 0) {
		unsigned unknown = 0;

		for (size_t i = 0; i < nd; i++)
			unknown += !devs[i].identified;
		settle(it, r, "missing", 0, 0,
		       "missing: no attached disk has serial %s%s%s (journaled as %s, %s %s); "
		       "nothing done%s",
		       r->serial[0] ? r->serial : "-", r->wwn[0] ? " / WWN " : "", r->wwn,
		       r->device, r->model, reapply_limit_text(r, lim, sizeof(lim)),
		       unknown ? " (some disks could not be identified: see 'shortstroke list')"
			       : "");
		return;
	}
	it->e = devs[idx];
	judge(b, it, r, incomplete);
}

static bool carries(void *arg, const struct drive_info *ids)
{
	return reapply_same_disk(arg, ids->serial, ids->wwn);
}

/*
 * reapply DEVICE: the disk named is opened (identified, its labels read: the
 * one disk sent anything) and matched with the journal by its serial/WWN;
 * whether another attached disk carries the same identity is read from what
 * its source keeps of it, never by a command.
 */
static void add_named(struct batch *b, const char *arg, const struct journal_entry *pend, size_t np,
		      const struct journal_entry *stale, size_t ns)
{
	struct batch_item *it = batch_add(b, arg);
	const struct journal_entry *r = NULL;
	struct ss_error e2 = { 0 };
	bool incomplete = false;
	char other[256];
	int rc;

	if (!it)
		return; /* named twice */
	rc = device_open(b->ctx, arg, true, &it->d, &it->e, &e2);
	if (rc) {
		settle(it, NULL, "failed", rc, cli_exit_code(rc, &e2),
		       "could not be identified, so not matched with the journal: %s", e2.msg);
		return;
	}
	for (size_t i = 0; i < np && !r; i++)
		if (reapply_same_disk(&pend[i], it->e.info.serial, it->e.info.wwn))
			r = &pend[i];
	for (size_t i = 0; i < ns && !r; i++)
		if (reapply_same_disk(&stale[i], it->e.info.serial, it->e.info.wwn)) {
			r = &stale[i];
			incomplete = true;
		}
	if (!r) {
		settle(it, NULL, "none", 0, 0, "nothing journaled for this disk");
		return;
	}
	rc = device_other_match(b->ctx, &it->e, carries, (void *)r, other, sizeof(other), NULL,
				&e2);
	if (rc < 0) {
		settle(it, r, "failed", rc, EXIT_FAILED,
		       "cannot tell whether another disk carries its serial: %s", e2.msg);
		return;
	}
	if (rc > 0) {
		settle_ambiguous(it, r);
		return;
	}
	judge(b, it, r, incomplete);
}

/* Items in device order: as the listing has the disks, then the journaled
 * ones not attached (named by serial) in the journal's order. */
struct place {
	size_t dev, seq;
};

static int by_place(const void *pa, const void *pb)
{
	const struct place *a = pa, *b = pb;

	if (a->dev != b->dev)
		return (a->dev > b->dev) - (a->dev < b->dev);
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static void sort_items(struct batch *b, const struct dev_entry *devs, size_t nd)
{
	struct place *p = xcalloc(b->n + 1, sizeof(*p));
	struct batch_item *v = xcalloc(b->n + 1, sizeof(*v));

	for (unsigned i = 0; i < b->n; i++) {
		p[i].seq = i;
		for (p[i].dev = 0; p[i].dev < nd; p[i].dev++)
			if (!strcmp(devs[p[i].dev].spec, b->items[i].e.spec))
				break;
	}
	qsort(p, b->n, sizeof(*p), by_place);
	for (unsigned i = 0; i < b->n; i++)
		v[i] = b->items[p[i].seq];
	free(b->items);
	b->items = v;
	free(p);
}

static int reapply_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct batch b = {
		.cmd = "reapply", .ctx = ctx, .verbose = ctx->verbose, .report_stdout = true
	};
	struct journal_entry *pend = NULL, *stale = NULL;
	struct ss_error err = { 0 };
	struct dev_entry *devs = NULL;
	size_t np = 0, ns = 0, nd = 0;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":nJh", opts, NULL)) != -1) {
		if (batch_opts_take(&b, c, optarg, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case CLI_OPT_DRY_RUN:
			b.dry_run = true;
			break;
		case 'n':
			return cli_dash_n("reapply");
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("reapply", c, argv);
		}
	}
	/* a bad name is a usage error, found before any disk is read */
	if (cli_check_names(ctx, "reapply", argv + optind, argc - optind))
		return EXIT_USAGE;
	rc = reapply_pending(ctx_state_dir(ctx), &pend, &np, &stale, &ns, &err);
	if (!rc && optind == argc)
		rc = devices_list(ctx, &devs, &nd, &err);
	if (rc) {
		cli_error("reapply: %s", err.msg);
		free(pend);
		free(stale);
		return cli_exit_code(rc, &err);
	}
	if (optind < argc) {
		for (int i = optind; i < argc; i++)
			add_named(&b, argv[i], pend, np, stale, ns);
	} else {
		for (size_t i = 0; i < np; i++)
			add_record(&b, &pend[i], false, devs, nd);
		for (size_t i = 0; i < ns; i++)
			add_record(&b, &stale[i], true, devs, nd);
		sort_items(&b, devs, nd);
	}
	if (b.n == 0 && !b.json)
		printf("reapply: nothing to re-apply: the journal holds no open limit\n");
	if (b.dry_run)
		batch_confirm(&b, "reapply"); /* prints the plans, asks nothing */
	batch_run(&b, ra_job_run);
	free(devs);
	free(pend);
	free(stale);
	return batch_finish(&b);
}

const struct cli_cmd cmd_reapply = {
	.name = "reapply",
	.summary = "re-apply volatile limits after a power cycle (boot, hot-add)",
	.run = reapply_run,
};
