/* depop - retire a storage element (a weak head) of a disk, or bring the
 * retired ones back: destructive, confirmed and journaled as limit is. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
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

static int depop_plan_one(struct batch *b, struct batch_item *it, void *job, struct cap_ctx *c,
			  const char **note)
{
	struct depop_job *j = job;

	(void)b;
	*note = j->plan.note;
	return j->restore ? depop_plan_restore(c, &j->plan, &it->err)
			  : depop_plan_remove(c, j->element, &j->plan, &it->err);
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

static int depop_option(void *tmpl, int c, const char *arg)
{
	struct depop_job *t = tmpl;
	uint64_t v;

	if (c == 'R') {
		t->restore = true;
		return 0;
	}
	if (u64_parse(arg, &v) || v == 0 || v > UINT32_MAX)
		return cli_usage_error("depop",
				       "--element: '%s' is not an element identifier (1 and up, as "
				       "'shortstroke info' lists them)",
				       arg);
	t->element = (uint32_t)v;
	return 0;
}

static int depop_ready(const void *tmpl)
{
	const struct depop_job *t = tmpl;

	if (!t->element == !t->restore)
		return cli_usage_error("depop", t->element
						    ? "give --element N or --restore, not both"
						    : "which element? --element N (or --restore)");
	return 0;
}

static int depop_main(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "element", required_argument, NULL, 'e' },
		{ "restore", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct change_cmd k = {
		.name = "depop",
		.action = "depopulate",
		.shortopts = "e:",
		.opts = opts,
		.usage = depop_usage,
		.option = depop_option,
		.ready = depop_ready,
		.job_size = sizeof(struct depop_job),
		.plan = depop_plan_one,
		.run = depop_job_run,
	};
	struct depop_job tmpl = { 0 };

	return change_main(ctx, argc, argv, &k, &tmpl);
}

const struct cli_cmd cmd_depop = {
	.name = "depop",
	.summary = "retire a weak head (storage element depopulation) or bring it back",
	.run = depop_main,
};
