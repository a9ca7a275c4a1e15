/* depop - retire a storage element (a weak head) of a disk, or bring the
 * retired ones back: destructive, confirmed and journaled as limit is. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "front/xalloc.h"
#include "shortstroke/depop.h"
#include "shortstroke/units.h"

struct depop_job {
	struct batch *b;
	uint32_t element;
	bool restore;
	struct depop_plan plan;
};

static void depop_usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke depop [options] --element N DEVICE...\n"
		"       shortstroke depop [options] --restore DEVICE...\n"
		"\n"
		"Retire a storage element (a head and its surface) of a disk that supports\n"
		"storage element depopulation (SBC-4 REMOVE ELEMENT AND TRUNCATE, ATA ACS-4):\n"
		"the drive erases itself and comes back smaller, without the element. Its new\n"
		"native capacity is what later limits and plans start from. 'shortstroke info'\n"
		"lists the elements and their health. DESTROYS ALL DATA on the disk.\n"
		"\n"
		"Options:\n"
		"  -e, --element N       the element to retire (its identifier, as info lists it)\n"
		"      --restore         bring every retired element back (RESTORE ELEMENTS AND\n"
		"                        REBUILD, where the drive allows it): erased again, at\n"
		"                        the factory capacity\n"
		"      --model PATTERN, --serial SERIAL   select disks as 'list' shows them\n"
		"      --dry-run         print every command that would be sent; send none\n"
		"  -y, --yes             do not ask (scripts); without it a terminal asks for\n"
		"                        each disk's serial number\n"
		"  -f, --force           a disk that is in use or protected (the serial is still\n"
		"                        asked on a terminal)\n"
		"  -J, --json            one result object per disk\n"
		"  -h, --help            this help\n"
		"\n"
		"A disk with a limit journaled is refused: restore it first. The command\n"
		"returns when the drive has finished (it reports its progress); stopped\n"
		"(Ctrl-C), the drive goes on, and the same command watches it to its end\n"
		"and records it.\n"
		"Exit status: 0 done, 1 failed, 2 usage error, 3 refused (protected, in use,\n"
		"limited, not confirmed), 4 some disks failed.\n"
		"Examples:\n"
		"  shortstroke --demo info sim:exos-sas\n"
		"  shortstroke --demo depop --element 6 --dry-run sim:exos-sas\n"
		"  shortstroke --demo depop --restore --yes sim:exos-sata\n");
}

static void plan_all(struct batch *b, const struct depop_job *tmpl)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		struct cap_ctx c = { 0 };
		struct depop_job *j;
		int rc;

		if (!it->ready)
			continue;
		j = xcalloc(1, sizeof(*j));
		*j = *tmpl;
		it->op = j;
		c.d = it->d;
		c.e = &it->e;
		c.state_dir = ctx_state_dir(b->ctx);
		rc = j->restore ? depop_plan_restore(&c, &j->plan, &it->err)
				: depop_plan_remove(&c, j->element, &j->plan, &it->err);
		if (rc) {
			it->ready = false;
			it->rc = rc;
			it->exit_hint = cli_exit_code(rc, &it->err);
			continue;
		}
		snprintf(it->plan, sizeof(it->plan), "%s %s (%s): %s", it->e.info.model,
			 it->e.info.serial, drive_tran_name(it->e.info.tran), j->plan.note);
	}
}

static int depop_job_run(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct depop_job *j = it->op;
	struct depop_result res;
	struct cap_ctx c;
	int rc;

	batch_cap_ctx(&c, j->b, it, sink);
	rc = depop_run(&c, &j->plan, &res, err);
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s", res.message);
	if (res.element)
		record_set_u64(it->rec, "element", res.element);
	else
		record_set_null(it->rec, "element");
	record_set_bool(it->rec, "restore", j->restore);
	record_set_u64(it->rec, "block_len", res.block_len);
	record_set_u64(it->rec, "before_blocks", res.before);
	record_set_u64(it->rec, "after_blocks", res.after);
	record_set_bool(it->rec, "changed", !res.noop && !res.dry_run);
	record_set_bool(it->rec, "dry_run", res.dry_run);
	record_set_str(it->rec, "message", res.message);
	return 0;
}

static int depop_main(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "element", required_argument, NULL, 'e' },
		{ "restore", no_argument, NULL, 'R' },
		{ "model", required_argument, NULL, 'M' },
		{ "serial", required_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		{ "yes", no_argument, NULL, 'y' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = "depop";
	struct batch b = { .cmd = cmd, .ctx = ctx, .verbose = ctx->verbose, .journaled = true };
	struct depop_job tmpl = { .b = &b };
	bool have_elem = false;
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":e:nyfJh", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (u64_parse(optarg, &v) || v == 0 || v > UINT32_MAX)
				return cli_usage_error(
				    cmd,
				    "--element: '%s' is not an element identifier "
				    "(1 and up, as 'shortstroke info' lists them)",
				    optarg);
			tmpl.element = (uint32_t)v;
			have_elem = true;
			break;
		case 'R':
			tmpl.restore = true;
			break;
		case 'M':
			if (batch_filter(&b, &b.model_glob, "--model", optarg))
				return EXIT_USAGE;
			break;
		case 'S':
			if (batch_filter(&b, &b.serial_filter, "--serial", optarg))
				return EXIT_USAGE;
			break;
		case CLI_OPT_DRY_RUN:
			b.dry_run = true;
			break;
		case 'n':
			return cli_dash_n(cmd);
		case 'y':
			b.yes = true;
			break;
		case 'f':
			b.force = true;
			break;
		case 'J':
			b.json = true;
			break;
		case 'h':
			depop_usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (have_elem == tmpl.restore)
		return cli_usage_error(cmd, have_elem
						? "give --element N or --restore, not both"
						: "which element? --element N (or --restore)");
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	batch_open(&b);
	plan_all(&b, &tmpl);
	if (!batch_check_all(&b))
		return batch_finish(&b);
	rc = batch_confirm(&b, tmpl.restore ? "restore the elements of" : "depopulate");
	if (rc == EXIT_DONE)
		batch_run(&b, depop_job_run);
	return batch_finish(&b);
}

const struct cli_cmd cmd_depop = {
	.name = "depop",
	.summary = "retire a weak head (storage element depopulation) or bring it back",
	.run = depop_main,
};
