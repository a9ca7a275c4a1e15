/* limit, restore - short-stroke disks and bring them back. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "front/xalloc.h"
#include "shortstroke/config.h"
#include "shortstroke/capacity.h"
#include "shortstroke/units.h"

struct cap_job {
	struct batch *b;
	struct cap_request req;
	struct cap_plan plan;
	bool restore;
	enum cap_method method;
	bool volatile_;
	bool to_native; /* restore: nothing journaled, go to the native max */
};

enum { HELP_COLS = 79, HELP_IND = 24 };

/* -m and --list-methods in a help, from the method table: the names, what
 * auto picks, which destroy data and (restore) which need --to-native. */
static void method_help(FILE *f, bool restore)
{
	char text[768], autos[128], names[256], native[128];
	size_t off = 0;

	cap_method_list(autos, sizeof(autos), CAPM_AUTO, 0, ", else ");
	for (size_t k = 0; cap_method_at(k) && off < sizeof(names); k++) {
		const struct cap_method_ops *o = cap_method_at(k);

		off += (size_t)snprintf(names + off, sizeof(names) - off, ", %s%s", o->name,
					o->flags & CAPM_DESTROYS ? " (destroys data)" : "");
	}
	if (restore) {
		native[0] = '\0';
		off = 0;
		for (size_t k = 0; cap_method_at(k) && off < sizeof(native); k++) {
			const struct cap_method_ops *o = cap_method_at(k);

			if (o->flags & CAPM_RESTORE_NEEDS_NATIVE)
				off += (size_t)snprintf(native + off, sizeof(native) - off, "%s%s",
							off ? ", " : "", o->name);
		}
		snprintf(text, sizeof(text),
			 "force a method: auto (the journal's)%s; with nothing journaled %s need "
			 "--to-native",
			 names, native);
	} else {
		snprintf(text, sizeof(text), "auto (default: %s)%s", autos, names);
	}
	fprintf(f, "  -m, --method M        ");
	cli_print_wrapped(f, text, HELP_COLS, HELP_IND, HELP_IND);
	fprintf(f, "      --list-methods    each method and what it does (restore: what it gets\n"
		   "                        back)\n");
}

/* --volatile: the methods with a volatile form */
static void volatile_help(FILE *f, const char *what)
{
	char text[256], vol[64];

	cap_method_list(vol, sizeof(vol), CAPM_VOLATILE, 0, ", ");
	snprintf(text, sizeof(text), "%s only: %s", vol, what);
	fprintf(f, "      --volatile        ");
	cli_print_wrapped(f, text, HELP_COLS, HELP_IND, HELP_IND);
}

/* --list-methods: "NAME  what it is", auto first (as --list-columns). */
static void list_methods(void)
{
	char autos[128];

	cap_method_list(autos, sizeof(autos), CAPM_AUTO, 0, ", else ");
	printf("%11s  %s: the first the drive supports (the default)\n", "auto", autos);
	for (size_t k = 0; cap_method_at(k); k++)
		printf("%11s  %s\n", cap_method_at(k)->name, cap_method_at(k)->help);
}

static void limit_usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke limit [options] DEVICE...\n"
		   "       shortstroke limit [options] --model PATTERN | --serial SERIAL\n"
		   "\n"
		   "Limit disks to the outer part of their capacity (short-stroke them): the\n"
		   "disk then reports the smaller size, and only its fast outer zones are used.\n"
		   "The original state is journaled first; 'shortstroke restore' undoes it.\n"
		   "\n"
		   "Size (one of):\n"
		   "  -s, --size SIZE       44GB (10^9), 41G or 41GiB (2^30), ...\n"
		   "  -p, --percent P       P %% of the native capacity\n"
		   "      --blocks N        N logical blocks (decimal)\n"
		   "      --lba LBA         the new maximum LBA, decimal (N = LBA + 1)\n"
		   "The limit is rounded down to the physical block and to --align.\n"
		   "On a drive that does not rotate (an SSD) the range hidden is TRIMmed or\n"
		   "UNMAPped first, so it becomes spare area: its data is discarded, and the\n"
		   "plan says what it reads back after a restore (docs/flash.md).\n"
		   "\n"
		   "Options:\n");
	method_help(f, false);
	fprintf(f, "      --align SIZE      round the limit down to a multiple (default 1MiB)\n"
		   "                        (limit_method and limit_align in shortstroke.conf\n"
		   "                        change both defaults: shortstroke config)\n");
	volatile_help(f, "a trial that a power cycle undoes");
	fprintf(f, "      --model PATTERN   every disk whose model matches (shell pattern)\n"
		   "      --serial SERIAL   the disk with this serial number\n"
		   "      --dry-run         print every command that would be sent; send none\n"
		   "  -y, --yes             do not ask (scripts); without it a terminal asks for\n"
		   "                        each disk's serial number\n"
		   "  -f, --force           allow a limit under 1 GiB, an end cut of a disk of\n"
		   "                        several actuators, and a disk that is in use,\n"
		   "                        protected, or has the serial of another attached disk\n"
		   "                        (the serial is still asked on a terminal)\n"
		   "  -J, --json            one result object per disk\n"
		   "  -h, --help            this help\n"
		   "\n"
		   "Exit status: 0 done, 1 failed, 2 usage error, 3 refused (protected, in use,\n"
		   "not confirmed), 4 some disks failed.\n"
		   "Examples:\n"
		   "  shortstroke limit --percent 20 /dev/sdb\n"
		   "  shortstroke limit --size 100GB --yes --model 'HUS154545*' -J\n");
}

static void restore_usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke restore [options] DEVICE...\n"
		   "\n"
		   "Bring disks back to their journaled original capacity, by the method that\n"
		   "limited them. A disk with nothing journaled was not limited by shortstroke\n"
		   "(a vendor's recovery area, another tool) and is refused, with its current\n"
		   "and native sizes; --to-native takes it to its native maximum (ATA: AMAC or\n"
		   "HPA; SCSI: MODE SELECT to the maximum block count).\n"
		   "\n"
		   "Options:\n");
	method_help(f, true);
	volatile_help(f, "undone by a power cycle (a trial limit is restored volatile "
			 "without it: its permanent maximum was never changed)");
	fprintf(f, "      --to-native       with nothing journaled, go to the native maximum\n"
		   "      --model PATTERN, --serial SERIAL   select disks as 'list' shows them\n"
		   "      --dry-run         print every command that would be sent; send none\n"
		   "  -y, --yes             do not ask (scripts)\n"
		   "  -f, --force           override in-use and protected (and a serial another\n"
		   "                        attached disk has)\n"
		   "  -J, --json            one result object per disk\n"
		   "  -h, --help            this help\n");
}

static void plan_line(struct batch_item *it, const struct cap_plan *p)
{
	char h1[32];

	if (p->noop || p->wait_format)
		snprintf(it->plan, sizeof(it->plan), "%s", p->note);
	else
		snprintf(it->plan, sizeof(it->plan), "%s %s (%s): %s -> %s by %s%s",
			 it->e.info.model, it->e.info.serial, drive_tran_name(it->e.info.tran),
			 size_human(p->current * p->block_len, h1, sizeof(h1)), p->note,
			 cap_method_name(p->method), p->volatile_ ? " (volatile)" : "");
	if (p->discard_note[0] && !p->noop) { /* a flash drive (docs/flash.md) */
		size_t l = strlen(it->plan);

		snprintf(it->plan + l, sizeof(it->plan) - l, "\n  flash: %s", p->discard_note);
	}
}

/* The kernel will undo this HPA: said on stderr and in the JSON. */
static void hpa_warn_item(struct batch *b, struct batch_item *it)
{
	char w[1024];

	if (!cli_hpa_warning(b->ctx, &it->e, w, sizeof(w)))
		return;
	fprintf(stderr, "shortstroke: %s: %s\n", it->e.spec, w);
	record_set_str(it->rec, "warning", w);
}

/* Said before the confirmation: the note of a drive that may refuse a
 * second permanent change in one power cycle, and what the change costs. */
static void warn_item(struct batch *b, struct batch_item *it, const struct cap_plan *p,
		      bool restore)
{
	size_t l = strlen(it->plan);
	char note[256];

	cap_change_warning(p->method, restore, it->warning, sizeof(it->warning));
	if (!p->noop && cap_power_cycle_note(ctx_state_dir(b->ctx), &it->e.info, p->method,
					     p->volatile_, note, sizeof(note)))
		snprintf(it->plan + l, sizeof(it->plan) - l, "\n  %s", note);
}

/* An item whose plan was refused: not run, with the right exit code. */
static void plan_failed(struct batch_item *it)
{
	it->ready = false;
	it->rc = it->err.code;
	it->exit_hint = cli_exit_code(it->rc, &it->err);
}

/* restore: the size each disk gets back, and every refusal, before the
 * confirmation */
static void plan_restore(struct batch *b, struct batch_item *it, struct cap_job *j,
			 struct cap_ctx *c)
{
	struct cap_plan p;

	c->state_dir = ctx_state_dir(b->ctx);
	c->to_native = j->to_native;
	if (cap_plan_restore(c, j->method, j->volatile_, &p, &it->err)) {
		plan_failed(it);
		return;
	}
	if (p.noop && p.trial)
		snprintf(it->plan, sizeof(it->plan), "%s %s: %s", it->e.info.model,
			 it->e.info.serial, p.note);
	else
		snprintf(it->plan, sizeof(it->plan), "%s %s: restore to %s by %s%s",
			 it->e.info.model, it->e.info.serial, p.note, cap_method_name(p.method),
			 p.trial ? " (volatile, as the trial limit was)" : "");
	warn_item(b, it, &p, true);
}

static void plan_all(struct batch *b, const struct cap_job *tmpl)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		struct cap_job *j;
		struct cap_ctx c = { 0 };

		if (!it->ready)
			continue;
		j = xcalloc(1, sizeof(*j));
		*j = *tmpl;
		it->op = j;
		c.d = it->d;
		c.e = &it->e;
		c.state_dir = ctx_state_dir(b->ctx);
		c.dry_run = b->dry_run;
		if (j->restore) {
			plan_restore(b, it, j, &c);
			continue;
		}
		/* reading a native max hidden by fixed-format sense toggles D_SENSE:
		 * a mode change, so not in a dry run (a percentage is then of the
		 * current capacity, and the plan says so) */
		if (!b->dry_run && cap_refresh_native(&c, &it->err)) {
			it->ready = false;
			it->rc = it->err.code;
			continue;
		}
		if (cap_plan_limit_drive(&c, &j->req, &j->plan, &it->err)) {
			plan_failed(it);
			ss_error_subject(&it->err, it->e.spec);
			continue;
		}
		plan_line(it, &j->plan);
		if (cap_flags(j->plan.method) & CAPM_PROBE_UNDO)
			hpa_warn_item(b, it);
		warn_item(b, it, &j->plan, false);
	}
}

static void result_fields(struct batch_item *it, const struct cap_result *r)
{
	struct record *o = it->rec;

	record_set_str(o, "method", cap_method_name(r->method));
	record_set_u64(o, "block_len", r->block_len);
	record_set_u64(o, "before_blocks", r->before);
	record_set_u64(o, "after_blocks", r->after);
	if (r->native)
		record_set_u64(o, "native_blocks", r->native);
	else
		record_set_null(o, "native_blocks");
	record_set_bool(o, "changed", !r->noop && !r->dry_run);
	record_set_bool(o, "dry_run", r->dry_run);
	record_set_str(o, "message", r->message);
}

void batch_cap_ctx(struct cap_ctx *c, struct batch *b, struct batch_item *it,
		   const struct progress_sink *sink)
{
	*c = (struct cap_ctx){
		.d = it->d,
		.e = &it->e,
		.state_dir = ctx_state_dir(b->ctx),
		.dry_run = b->dry_run,
		.show = b->dry_run ? batch_show_cmd : NULL, /* -v: the transport trace */
		.show_arg = it,
		.progress = sink,
	};
	if (b->dry_run)
		batch_log(it, "%s: commands that would be sent:", it->e.spec);
}

static int cap_job_run(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct cap_job *j = it->op;
	struct cap_result res;
	struct cap_ctx c;
	int rc;

	batch_cap_ctx(&c, j->b, it, sink);
	c.to_native = j->to_native;
	rc = j->restore ? cap_restore(&c, j->method, j->volatile_, &res, err)
			: cap_limit(&c, &j->plan, &res, err);
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s", res.message);
	result_fields(it, &res);
	return 0;
}

static int parse_size_opt(const char *cmd, int opt, const char *arg, struct cap_request *r,
			  int *given)
{
	struct ss_error err = { 0 };
	struct size_spec s;

	(*given)++;
	switch (opt) {
	case 's':
		if (size_parse(arg, &s, &err))
			return cli_usage_error(cmd, "--size: %s", err.msg);
		if (s.kind == SIZE_PERCENT) {
			r->by = CAP_BY_PERCENT;
			r->percent = s.percent;
		} else if (s.kind == SIZE_BLOCKS) {
			return cli_usage_error(cmd, "--size needs a unit (44GB, 41GiB); "
						    "for a block count use --blocks");
		} else {
			r->by = CAP_BY_BYTES;
			r->bytes = s.bytes;
		}
		return 0;
	case 'p': {
		const char *end = "";
		double p = 0;

		if (decimal_parse(arg, &p, &end) == 0 && *end == '%')
			end++;
		if (*end || !(p > 0 && p <= 100))
			return cli_usage_error(cmd, "--percent: '%s' is not in (0, 100]", arg);
		r->by = CAP_BY_PERCENT;
		r->percent = p;
		return 0;
	}
	case 'B':
		if (u64_parse(arg, &r->blocks) || r->blocks == 0)
			return cli_usage_error(cmd, "--blocks: '%s' is not a positive number", arg);
		r->by = CAP_BY_BLOCKS;
		return 0;
	default: /* 'L' */
		if (u64_parse(arg, &r->lba))
			return cli_usage_error(cmd, "--lba: '%s' is not a number", arg);
		r->by = CAP_BY_LBA;
		return 0;
	}
}

/* restore may take back a GPT that limit --method partition wrote: that
 * partition table is the disk's only "use" (nothing mounted or held, and its
 * partition holds no filesystem, RAID or LVM signature) */
static bool restore_own_label(struct batch *b, struct batch_item *it)
{
	return cap_label_is_ours(ctx_state_dir(b->ctx), &it->e, false);
}

static int capacity_main(struct ss_ctx *ctx, int argc, char **argv, bool restore)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "percent", required_argument, NULL, 'p' },
		{ "blocks", required_argument, NULL, 'B' },
		{ "lba", required_argument, NULL, 'L' },
		{ "method", required_argument, NULL, 'm' },
		{ "align", required_argument, NULL, 'A' },
		{ "volatile", no_argument, NULL, 'V' },
		{ "to-native", no_argument, NULL, 'T' },
		BATCH_LONG_SELECT,
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		BATCH_LONG_CONFIRM,
		{ "json", no_argument, NULL, 'J' },
		{ "list-methods", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = restore ? "restore" : "limit";
	struct batch b = { .cmd = cmd, .ctx = ctx, .verbose = ctx->verbose, .journaled = true };
	struct cap_job tmpl = { .b = &b, .restore = restore };
	struct ss_error err = { 0 };
	int c, rc, sizes = 0;

	/* the configuration file's defaults (shortstroke.conf); the options win */
	if (!restore && ctx->config && ctx->config->limit_method[0] &&
	    !cap_method_parse(ctx->config->limit_method, &tmpl.req.method))
		tmpl.method = tmpl.req.method;
	if (!restore && ctx->config)
		tmpl.req.align = ctx->config->limit_align;
	while ((c = getopt_long(argc, argv, restore ? ":m:nyfJh" : ":s:p:m:nyfJh", opts, NULL)) !=
	       -1) {
		if (batch_opts_take(&b, c, optarg, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case 's':
		case 'p':
		case 'B':
		case 'L':
			if (restore)
				return cli_usage_error(cmd, "restore takes no size: it goes back "
							    "to the journaled original");
			rc = parse_size_opt(cmd, c, optarg, &tmpl.req, &sizes);
			if (rc)
				return rc;
			break;
		case 'm':
			if (cap_method_parse(optarg, &tmpl.req.method)) {
				char names[128];

				cap_method_names(names, sizeof(names), 0);
				return cli_usage_error(cmd, "unknown method '%s' (%s)", optarg,
						       names);
			}
			tmpl.method = tmpl.req.method;
			break;
		case 'A': {
			struct size_spec s;

			if (size_parse(optarg, &s, &err) || s.kind == SIZE_PERCENT)
				return cli_usage_error(cmd, "--align: %s",
						       err.msg[0] ? err.msg : "give a size");
			tmpl.req.align = s.kind == SIZE_BLOCKS ? s.blocks * 512 : s.bytes;
			break;
		}
		case 'V':
			tmpl.req.volatile_ = tmpl.volatile_ = true;
			break;
		case 'T':
			if (!restore)
				return cli_usage_error(cmd, "--to-native goes with restore");
			tmpl.to_native = true;
			break;
		case CLI_OPT_DRY_RUN:
			b.dry_run = true;
			break;
		case 'n':
			return cli_dash_n(cmd);
		case 'h':
			(restore ? restore_usage : limit_usage)(stdout);
			return EXIT_DONE;
		case 'l':
			list_methods();
			return EXIT_DONE;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	tmpl.req.force = b.force;
	if (!restore && sizes != 1)
		return cli_usage_error(cmd, sizes ? "give only one of --size, --percent, "
						    "--blocks, --lba"
						  : "how much to keep? --size, --percent, --blocks "
						    "or --lba");
	if (restore)
		b.allow_unsafe = restore_own_label;
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	batch_open(&b);
	plan_all(&b, &tmpl);
	if (!batch_check_all(&b))
		return batch_finish(&b);
	rc = batch_confirm(&b, restore ? "restore" : "limit");
	if (rc == EXIT_DONE)
		batch_run(&b, cap_job_run);
	return batch_finish(&b);
}

static int limit_run(struct ss_ctx *ctx, int argc, char **argv)
{
	return capacity_main(ctx, argc, argv, false);
}

static int restore_run(struct ss_ctx *ctx, int argc, char **argv)
{
	return capacity_main(ctx, argc, argv, true);
}

const struct cli_cmd cmd_limit = {
	.name = "limit",
	.summary = "short-stroke disks: limit them to their outer capacity",
	.run = limit_run,
};

const struct cli_cmd cmd_restore = {
	.name = "restore",
	.summary = "bring limited disks back to their original capacity",
	.run = restore_run,
};
