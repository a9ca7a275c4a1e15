/* format - change the logical sector size of disks (512e <-> 4Kn; an NVMe
 * namespace to another LBA format): destructive, confirmed and journaled as
 * limit is. */
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
	uint32_t bytes; /* --sector-size (0: by --lba-format) */
	int lbaf;	/* --lba-format, NVMe (-1: by size) */
	struct secfmt_plan plan;
};

static void format_usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke format (--sector-size BYTES | --lba-format N) [options] DEVICE...\n"
	    "\n"
	    "Change the logical sector size of disks that offer another one (512e <-> 4Kn):\n"
	    "ATA SET SECTOR CONFIGURATION EXT; SCSI a MODE SELECT of the block length and a\n"
	    "fast FORMAT UNIT (FFMT); NVMe a Format NVM to another LBA format of the\n"
	    "controller. 'shortstroke info' lists the sizes a disk offers. The change is\n"
	    "read back (READ CAPACITY, IDENTIFY) and the kernel made to see it; later\n"
	    "limits and plans start from the new block count. DESTROYS ALL DATA.\n"
	    "\n"
	    "Options:\n"
	    "  -b, --sector-size BYTES   the new logical sector size (512, 4096, 4K)\n"
	    "      --lba-format N    NVMe: the controller's LBA format N (0, 1, ...)\n"
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
	struct cap_result res;
	struct cap_ctx dry = *c;

	*note = j->plan.note;
	if (it->e.info.tran != TRAN_NVME) {
		if (j->lbaf >= 0)
			return ss_error_usage(&it->err, -EINVAL,
					      "--lba-format is NVMe's: give --sector-size");
		return secfmt_plan(c, j->bytes, b->force, &j->plan, &it->err);
	}
	/* NVMe: the same call, sending nothing */
	dry.dry_run = true;
	if (cap_nvme_format(&dry, j->lbaf, j->bytes, &res, &it->err))
		return it->err.code;
	snprintf(j->plan.note, sizeof(j->plan.note), "%" PRIu32 " -> %" PRIu32 " byte blocks%s",
		 it->e.info.logical_block, res.block_len,
		 res.noop ? " (already)" : ", destroys all data");
	return 0;
}

/* NVMe: Format NVM to the LBA format asked for */
static int fmt_nvme_run(struct batch_item *it, struct fmt_job *j, struct cap_ctx *c,
			struct ss_error *err)
{
	struct cap_result res;
	int rc = cap_nvme_format(c, j->lbaf, j->bytes, &res, err);

	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s", res.message);
	record_set_u64(it->rec, "block_len", res.block_len);
	record_set_u64(it->rec, "blocks", res.after);
	record_set_bool(it->rec, "changed", !res.noop && !res.dry_run);
	record_set_bool(it->rec, "dry_run", res.dry_run);
	record_set_str(it->rec, "message", res.message);
	return 0;
}

static int fmt_job_run(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	struct fmt_job *j = it->op;
	struct secfmt_result res;
	struct cap_ctx c;
	int rc;

	batch_cap_ctx(&c, j->b, it, sink);
	if (it->e.info.tran == TRAN_NVME)
		return fmt_nvme_run(it, j, &c, err);
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
	struct ss_error e = { 0 };
	struct size_spec sz;
	uint64_t v;
	char *end;

	if (c == 'L') { /* --lba-format */
		long n = strtol(arg, &end, 10);

		if (!*arg || *end || n < 0 || n > 63)
			return cli_usage_error("format", "--lba-format: give 0 to 63, not '%s'",
					       arg);
		t->lbaf = (int)n;
		return 0;
	}
	/* --sector-size: bytes, or a size as users write them (4K) */
	if (size_parse(arg, &sz, &e) || sz.kind == SIZE_PERCENT)
		v = 0;
	else
		v = sz.kind == SIZE_BLOCKS ? sz.blocks : sz.bytes;
	if (v < 512 || v > 65536 || (v & (v - 1)))
		return cli_usage_error("format",
				       "--sector-size: '%s' is not a sector size (512, 4096)", arg);
	t->bytes = (uint32_t)v;
	return 0;
}

static int fmt_ready(const void *tmpl)
{
	const struct fmt_job *t = tmpl;

	if (t->bytes && t->lbaf >= 0)
		return cli_usage_error("format", "give only one of --sector-size, --lba-format");
	return t->bytes || t->lbaf >= 0
		   ? 0
		   : cli_usage_error("format", "which size? --sector-size 512 or 4096 "
					       "(NVMe: or --lba-format N)");
}

static int format_main(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sector-size", required_argument, NULL, 'b' },
		{ "lba-format", required_argument, NULL, 'L' },
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
	struct fmt_job tmpl = { .lbaf = -1 };

	return change_main(ctx, argc, argv, &k, &tmpl);
}

const struct cli_cmd cmd_format = {
	.name = "format",
	.summary = "change the logical sector size of disks (512e <-> 4Kn, NVMe LBA formats)",
	.run = format_main,
};
