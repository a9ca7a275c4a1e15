/* change.h - the frame of a command that changes disks one way (depop,
 * format): its own options, then the usual ones (--model, --serial,
 * --dry-run, --yes, --force, --json), a plan per disk checked before any is
 * changed, the confirmation, the jobs. */
#ifndef SHORTSTROKE_CLI_CHANGE_H
#define SHORTSTROKE_CLI_CHANGE_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "batch.h"
#include "shortstroke/capacity.h"

struct change_cmd {
	const char *name;
	const char *action;	   /* what the confirmation asks for: "depopulate" */
	const char *shortopts;	   /* the command's own, e.g. "e:" */
	const struct option *opts; /* the command's own, NULL-terminated */
	void (*usage)(FILE *f);
	/* one of its own options into the job template: 0, else an exit code */
	int (*option)(void *tmpl, int c, const char *arg);
	/* after the options: 0, else an exit code (a usage error) */
	int (*ready)(const void *tmpl);
	size_t job_size; /* the job (a copy of the template per disk) */
	/* the disk's plan into job and what it does in *note: 0 or an errno (it->err) */
	int (*plan)(struct batch *b, struct batch_item *it, void *job, struct cap_ctx *c,
		    const char **note);
	job_fn run; /* it->op is the job */
};

/* Parse, pick, plan, confirm and run; the batch's exit code. tmpl's first
 * member is the struct batch pointer the jobs reach their batch by. */
int change_main(struct ss_ctx *ctx, int argc, char **argv, const struct change_cmd *k, void *tmpl);

#endif
