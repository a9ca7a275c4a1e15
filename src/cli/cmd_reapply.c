/* reapply - put the journaled volatile limits back after a power cycle (at
 * boot, or when a disk is hot-added), on the disk that carries the same
 * serial/WWN; verify the permanent ones; report missing and changed disks
 * without touching them. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
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
		   "With DEVICE (as a udev rule passes a hot-added disk), only that disk.\n"
		   "No confirmation is asked: the disk gets back the limit it was given before.\n"
		   "Protected disks and disks in use (mounted, md/LVM member) are refused; a\n"
		   "disk whose only use is a partition table or signature is not in use.\n"
		   "\n"
		   "Options:\n"
		   "      --dry-run         print every command that would be sent; send none\n"
		   "  -J, --json            one result object per journaled disk\n"
		   "  -h, --help            this help\n"
		   "\n"
		   "Exit status: 0 every limit in place (missing disks too), 1 failed or a disk\n"
		   "changed, 2 usage error, 3 refused (protected, in use), 4 some failed.\n"
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

/* The disk a person named, among those listed: by spec, node or the node a
 * /dev/disk/by-id link points at. */
static int find_named(const char *arg, const struct dev_entry *devs, size_t n)
{
	char real[PATH_MAX];
	bool have_real = arg[0] == '/' && realpath(arg, real);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(arg, devs[i].spec) || !strcmp(arg, devs[i].node) ||
		    (have_real && !strcmp(real, devs[i].node)))
			return (int)i;
	return -1;
}

/* Open the disk for writing and check, on what it answers now, that it is
 * still the journaled disk, still needs the limit, and may be changed. */
static void open_needed(struct batch *b, struct batch_item *it)
{
	struct ra_job *j = it->op;
	struct cap_request req = {
		.method = CAP_HPA,
		.by = CAP_BY_BLOCKS,
		.blocks = j->rec.target_blocks,
		.align = j->rec.block_len,
		.volatile_ = true,
		.force = true, /* the journaled limit passed the rules when it was set */
	};
	struct cap_ctx c = { 0 };
	char spec[sizeof(it->e.spec)], why[400];
	int rc;

	snprintf(spec, sizeof(spec), "%s", it->e.spec);
	rc = device_open(b->ctx, spec, true, &it->d, &it->e, &it->err);
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
		ss_error_prefix(&it->err, "%s: ", it->e.spec);
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

/* One item per journaled disk (restricted to the named ones). */
static void add_record(struct batch *b, const struct journal_entry *r, bool incomplete,
		       const struct dev_entry *devs, size_t nd, const bool *named, bool any_named)
{
	int idx = reapply_find(r, devs, nd);
	char why[400], lim[96];
	struct batch_item *it;
	struct ra_job *j;

	if (idx == REAPPLY_AMBIGUOUS) {
		/* several attached disks carry the identity: a limit on the wrong
		 * one would cut its data short, so none is touched (reported under
		 * each one named, else under the serial) */
		for (size_t i = 0; i <= nd; i++) {
			if (i < nd &&
			    !(any_named && named[i] && devs[i].identified &&
			      reapply_same_disk(r, devs[i].info.serial, devs[i].info.wwn)))
				continue;
			if (i == nd && any_named)
				break;
			it = batch_add(b, i < nd	 ? devs[i].spec
					  : r->serial[0] ? r->serial
							 : r->wwn);
			if (!it)
				continue;
			if (i < nd)
				it->e = devs[i];
			settle(it, r, "failed", -EEXIST, EXIT_FAILED,
			       "more than one attached disk has serial %s%s%s (journaled as %s, "
			       "%s): which one was limited cannot be told, so none is touched",
			       r->serial[0] ? r->serial : "-", r->wwn[0] ? " / WWN " : "", r->wwn,
			       r->device, r->model);
		}
		return;
	}
	if (any_named && (idx < 0 || !named[idx]))
		return;
	it = batch_add(b, idx >= 0 ? devs[idx].spec : (r->serial[0] ? r->serial : r->wwn));
	if (!it)
		return;
	reapply_limit_text(r, lim, sizeof(lim));
	if (idx < 0) {
		unsigned unknown = 0;

		for (size_t i = 0; i < nd; i++)
			unknown += !devs[i].identified;
		settle(it, r, "missing", 0, 0,
		       "missing: no attached disk has serial %s%s%s (journaled as %s, %s %s); "
		       "nothing done%s",
		       r->serial[0] ? r->serial : "-", r->wwn[0] ? " / WWN " : "", r->wwn,
		       r->device, r->model, lim,
		       unknown ? " (some disks could not be identified: see 'shortstroke list')"
			       : "");
		return;
	}
	it->e = devs[idx];
	record_set_u64(it->rec, "current_blocks", it->e.info.capacity_blocks);
	if (incomplete) {
		settle(it, r, "incomplete", 0, 0,
		       "the last limit (%s, journaled %s) never completed; nothing to re-apply",
		       lim, r->time);
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

static int reapply_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct batch b = { .cmd = "reapply", .ctx = ctx, .verbose = ctx->verbose };
	struct journal_entry *pend = NULL, *stale = NULL;
	struct ss_error err = { 0 };
	struct dev_entry *devs = NULL;
	size_t np = 0, ns = 0, nd = 0;
	bool *named;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":nJh", opts, NULL)) != -1) {
		switch (c) {
		case CLI_OPT_DRY_RUN:
			b.dry_run = true;
			break;
		case 'n':
			return cli_dash_n("reapply");
		case 'J':
			b.json = true;
			break;
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
	if (!rc)
		rc = devices_list(ctx, &devs, &nd, &err);
	if (rc) {
		cli_error("reapply: %s", err.msg);
		free(pend);
		free(stale);
		return cli_exit_code(rc, &err);
	}
	named = xcalloc(nd + 1, sizeof(*named));
	for (int i = optind; i < argc; i++) {
		int idx = find_named(argv[i], devs, nd);

		if (idx < 0) {
			struct batch_item *it = batch_add(&b, argv[i]);

			if (it)
				settle(it, NULL, "failed", -ENODEV, EXIT_FAILED,
				       "not a disk shortstroke can talk to");
			continue;
		}
		named[idx] = true;
	}
	for (size_t i = 0; i < np; i++)
		add_record(&b, &pend[i], false, devs, nd, named, optind < argc);
	for (size_t i = 0; i < ns; i++)
		add_record(&b, &stale[i], true, devs, nd, named, optind < argc);
	for (size_t i = 0; i < nd; i++) {
		struct batch_item *it;

		if (!named[i] || !(it = batch_add(&b, devs[i].spec)))
			continue; /* already there: it has a record */
		it->e = devs[i];
		if (!devs[i].identified)
			settle(it, NULL, "failed", -EIO, EXIT_FAILED,
			       "could not be identified, so not matched with the journal: %s",
			       devs[i].error);
		else
			settle(it, NULL, "none", 0, 0, "nothing journaled for this disk");
	}
	if (b.n == 0 && !b.json)
		printf("reapply: nothing to re-apply: the journal holds no open limit\n");
	if (b.dry_run)
		batch_confirm(&b, "reapply"); /* prints the plans, asks nothing */
	batch_run(&b, ra_job_run);
	free(named);
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
