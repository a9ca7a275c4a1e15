/* format - an NVMe namespace formatted to another LBA format (512 <-> 4096
 * bytes), where the controller offers several. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "front/xalloc.h"
#include "shortstroke/capacity.h"
#include "shortstroke/units.h"

struct fmt_job {
	struct batch *b;
	int lbaf;	    /* < 0: by block size */
	uint32_t block_len; /* --sector-size */
};

static void format_usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke format (--lba-format N | --sector-size SIZE) [options] DEVICE...\n"
	    "\n"
	    "Format NVMe namespaces to another LBA format the controller offers (NVMe\n"
	    "Format NVM): 512-byte blocks to 4096 and back. 'info' lists the formats a\n"
	    "drive offers. It destroys every byte on the namespace.\n"
	    "\n"
	    "Format (one of):\n"
	    "      --lba-format N    the controller's LBA format N (0, 1, ...)\n"
	    "      --sector-size SIZE  the LBA format of SIZE bytes (512, 4096, 4K)\n"
	    "\n"
	    "Options:\n"
	    "      --dry-run         print every command that would be sent; send none\n"
	    "  -y, --yes             do not ask (scripts); without it a terminal asks for\n"
	    "                        each disk's serial number\n"
	    "  -f, --force           allow a disk that is in use or protected (the serial is\n"
	    "                        still asked on a terminal)\n"
	    "      --model PATTERN, --serial SERIAL   select disks as 'list' shows them\n"
	    "  -J, --json            one result object per disk\n"
	    "  -h, --help            this help\n"
	    "\n"
	    "Exit status: 0 done, 1 failed, 2 usage error, 3 refused (protected, in use,\n"
	    "not confirmed), 4 some disks failed.\n"
	    "Example:\n"
	    "  shortstroke format --sector-size 4096 --yes /dev/nvme0n1\n");
}

static int format_job_run(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct fmt_job *j = it->op;
	struct cap_result res;
	struct cap_ctx c;
	struct record *o = it->rec;
	int rc;

	batch_cap_ctx(&c, j->b, it, sink);
	rc = cap_nvme_format(&c, j->lbaf, j->block_len, &res, err);
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s", res.message);
	record_set_u64(o, "block_len", res.block_len);
	record_set_u64(o, "blocks", res.after);
	record_set_bool(o, "changed", !res.noop && !res.dry_run);
	record_set_bool(o, "dry_run", res.dry_run);
	record_set_str(o, "message", res.message);
	return 0;
}

/* Each disk checked before any is formatted: an NVMe drive offering the
 * format (a dry run of the same call) */
static void plan_all(struct batch *b, const struct fmt_job *tmpl)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		struct cap_result res;
		struct cap_ctx c = { .d = it->d, .e = &it->e, .dry_run = true };

		if (!it->ready)
			continue;
		it->op = xcalloc(1, sizeof(*tmpl));
		memcpy(it->op, tmpl, sizeof(*tmpl));
		if (cap_nvme_format(&c, tmpl->lbaf, tmpl->block_len, &res, &it->err)) {
			it->ready = false;
			it->rc = it->err.code;
			it->exit_hint = it->err.usage ? EXIT_USAGE : EXIT_FAILED;
			continue;
		}
		snprintf(it->plan, sizeof(it->plan),
			 "%s %s (%s): %" PRIu32 " -> %" PRIu32 " byte blocks%s", it->e.info.model,
			 it->e.info.serial, drive_tran_name(it->e.info.tran),
			 it->e.info.logical_block, res.block_len,
			 res.noop ? " (already)" : ", destroys all data");
	}
}

static int format_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "lba-format", required_argument, NULL, 'L' },
		{ "sector-size", required_argument, NULL, 'S' },
		{ "model", required_argument, NULL, 'M' },
		{ "serial", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		{ "yes", no_argument, NULL, 'y' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct batch b = { .cmd = "format", .ctx = ctx, .verbose = ctx->verbose };
	struct fmt_job tmpl = { .b = &b, .lbaf = -1 };
	int c, rc, given = 0;
	char *end;

	while ((c = getopt_long(argc, argv, ":yfJh", opts, NULL)) != -1) {
		switch (c) {
		case 'L': {
			long v = strtol(optarg, &end, 10);

			if (!*optarg || *end || v < 0 || v > 63)
				return cli_usage_error(
				    "format", "--lba-format: give 0 to 63, not '%s'", optarg);
			tmpl.lbaf = (int)v;
			given++;
			break;
		}
		case 'S': {
			struct size_spec s;
			struct ss_error e = { 0 };
			uint64_t v;

			if (size_parse(optarg, &s, &e) || s.kind == SIZE_PERCENT)
				return cli_usage_error("format", "--sector-size: %s",
						       e.msg[0] ? e.msg : "give a size");
			v = s.kind == SIZE_BLOCKS ? s.blocks : s.bytes;
			if (v < 512 || v > 65536 || (v & (v - 1)))
				return cli_usage_error("format",
						       "--sector-size: a power of two from 512 to "
						       "65536, not '%s'",
						       optarg);
			tmpl.block_len = (uint32_t)v;
			given++;
			break;
		}
		case 'M':
			if (batch_filter(&b, &b.model_glob, "--model", optarg))
				return EXIT_USAGE;
			break;
		case 's':
			if (batch_filter(&b, &b.serial_filter, "--serial", optarg))
				return EXIT_USAGE;
			break;
		case CLI_OPT_DRY_RUN:
			b.dry_run = true;
			break;
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
			format_usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("format", c, argv);
		}
	}
	if (given != 1)
		return cli_usage_error("format",
				       given ? "give only one of --lba-format, --sector-size"
					     : "which format? --lba-format N or "
					       "--sector-size SIZE");
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	batch_open(&b);
	plan_all(&b, &tmpl);
	if (!batch_check_all(&b))
		return batch_finish(&b);
	rc = batch_confirm(&b, "format");
	if (rc == EXIT_DONE)
		batch_run(&b, format_job_run);
	return batch_finish(&b);
}

const struct cli_cmd cmd_format = {
	.name = "format",
	.summary = "format NVMe namespaces to another LBA format (512 <-> 4096)",
	.run = format_run,
};
