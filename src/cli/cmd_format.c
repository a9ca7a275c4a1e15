/* format - change the logical sector size of disks (512e <-> 4Kn):
 * destructive, confirmed and journaled as limit is. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "shortstroke/secfmt.h"
#include "shortstroke/units.h"

struct fmt_job {
	struct batch *b;
	uint32_t bytes;
	struct secfmt_plan plan;
};

static void format_usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke format --sector-size BYTES [options] DEVICE...\n"
		"\n"
		"Change the logical sector size of disks that offer another one (512e <-> 4Kn):\n"
		"ATA SET SECTOR CONFIGURATION EXT; SCSI a MODE SELECT of the block length and a\n"
		"fast FORMAT UNIT (FFMT). 'shortstroke info' lists the sizes a disk offers. The\n"
		"change is read back (READ CAPACITY, IDENTIFY) and the kernel made to see it;\n"
		"later limits and plans start from the new block count. DESTROYS ALL DATA.\n"
		"\n"
		"Options:\n"
		"  -b, --sector-size BYTES   the new logical sector size (512, 4096)\n"
		"      --model PATTERN, --serial SERIAL   select disks as 'list' shows them\n"
		"      --dry-run         print every command that would be sent; send none\n"
		"  -y, --yes             do not ask (scripts); without it a terminal asks for\n"
		"                        each disk's serial number\n"
		"  -f, --force           a disk that is in use or protected, or behind a path\n"
		"                        whose pass-through check failed (the serial is still\n"
		"                        asked on a terminal)\n"
		"  -J, --json            one result object per disk\n"
		"  -h, --help            this help\n"
		"\n"
		"A disk with a limit journaled is refused: restore it first.\n"
		"Exit status: 0 done, 1 failed, 2 usage error, 3 refused (protected, in use,\n"
		"limited, an unsafe path, not confirmed), 4 some disks failed.\n"
		"Examples:\n"
		"  shortstroke --demo format --sector-size 4096 --dry-run sim:exos-sata\n");
}

static int fmt_plan_one(struct batch *b, struct batch_item *it, void *job, struct cap_ctx *c,
			const char **note)
{
	struct fmt_job *j = job;

	*note = j->plan.note;
	return secfmt_plan(c, j->bytes, b->force, &j->plan, &it->err);
}

static int fmt_job_run(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct fmt_job *j = it->op;
	struct secfmt_result res;
	struct cap_ctx c;
	int rc;

	batch_cap_ctx(&c, j->b, it, sink);
	rc = secfmt_run(&c, &j->plan, &res, err);
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s", res.message);
	record_set_u64(it->rec, "from_sector_size", res.from);
	record_set_u64(it->rec, "sector_size", res.to);
	record_set_u64(it->rec, "before_blocks", res.before);
	record_set_u64(it->rec, "after_blocks", res.after);
	record_set_bool(it->rec, "changed", !res.noop && !res.dry_run);
	record_set_bool(it->rec, "dry_run", res.dry_run);
	record_set_str(it->rec, "message", res.message);
	return 0;
}

static int fmt_option(void *tmpl, int c, const char *arg)
{
	struct fmt_job *t = tmpl;
	uint64_t v;

	(void)c; /* --sector-size */
	if (u64_parse(arg, &v) || v < 512 || v > 65536 || (v & (v - 1)))
		return cli_usage_error("format",
				       "--sector-size: '%s' is not a sector size (512, 4096)", arg);
	t->bytes = (uint32_t)v;
	return 0;
}

static int fmt_ready(const void *tmpl)
{
	const struct fmt_job *t = tmpl;

	return t->bytes ? 0 : cli_usage_error("format", "which size? --sector-size 512 or 4096");
}

static int format_main(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sector-size", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct change_cmd k = {
		.name = "format",
		.action = "format",
		.shortopts = "b:",
		.opts = opts,
		.usage = format_usage,
		.option = fmt_option,
		.ready = fmt_ready,
		.job_size = sizeof(struct fmt_job),
		.plan = fmt_plan_one,
		.run = fmt_job_run,
	};
	struct fmt_job tmpl = { 0 };

	return change_main(ctx, argc, argv, &k, &tmpl);
}

const struct cli_cmd cmd_format = {
	.name = "format",
	.summary = "change the logical sector size of disks (512e <-> 4Kn)",
	.run = format_main,
};
