/* change.c - the frame of depop and format (change.h). */
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "front/xalloc.h"

#define MAX_OPTS 16

static void plan_all(struct batch *b, const struct change_cmd *k, const void *tmpl)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		struct cap_ctx c = { 0 };
		const char *note = "";
		void *j;
		int rc;

		if (!it->ready)
			continue;
		j = xcalloc(1, k->job_size);
		memcpy(j, tmpl, k->job_size);
		it->op = j;
		c.d = it->d;
		c.e = &it->e;
		c.state_dir = ctx_state_dir(b->ctx);
		rc = k->plan(b, it, j, &c, &note);
		if (!rc)
			snprintf(it->plan, sizeof(it->plan), "%s %s (%s): %s", it->e.info.model,
				 it->e.info.serial, drive_tran_name(it->e.info.tran), note);
		if (rc) {
			it->ready = false;
			it->rc = rc;
			it->exit_hint = cli_exit_code(rc, &it->err);
		}
	}
}

int change_main(struct ss_ctx *ctx, int argc, char **argv, const struct change_cmd *k, void *tmpl)
{
	static const struct option common[] = {
		BATCH_LONG_SELECT,
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		BATCH_LONG_CONFIRM,
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
	};
	struct option opts[MAX_OPTS + sizeof(common) / sizeof(common[0]) + 1];
	struct batch b = { .cmd = k->name, .ctx = ctx, .verbose = ctx->verbose, .journaled = true };
	char shortopts[64];
	size_t n = 0;
	int c, rc;

	memset(opts, 0, sizeof(opts));
	for (; k->opts[n].name && n < MAX_OPTS; n++)
		opts[n] = k->opts[n];
	memcpy(opts + n, common, sizeof(common));
	snprintf(shortopts, sizeof(shortopts), ":%snyfJh", k->shortopts);
	*(struct batch **)tmpl = &b;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
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
			return cli_dash_n(k->name);
		case 'h':
			k->usage(stdout);
			return EXIT_DONE;
		case ':':
		case '?':
			return cli_bad_option(k->name, c, argv);
		default:
			rc = k->option(tmpl, c, optarg);
			if (rc)
				return rc;
			break;
		}
	}
	rc = k->ready(tmpl);
	if (rc)
		return rc;
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	batch_open(&b);
	plan_all(&b, k, tmpl);
	if (!batch_check_all(&b))
		return batch_finish(&b);
	rc = batch_confirm(&b, k->action);
	if (rc == EXIT_DONE)
		batch_run(&b, k->run);
	return batch_finish(&b);
}
