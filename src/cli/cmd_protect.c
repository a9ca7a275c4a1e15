/* protect - the list of disks nothing is ever sent to. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "front/table.h"
#include "output.h"
#include "shortstroke/protect.h"

enum protect_col { PR_KIND, PR_VALUE, PR_LINE, PR_COUNT };
static const struct col_def protect_cols[PR_COUNT] = {
	[PR_KIND] = { "KIND", COL_STR, false, 0, 0, "serial, wwn, or any (matched as either)" },
	[PR_VALUE] = { "VALUE", COL_STR, false, 0, 0, "the serial number or WWN as written" },
	[PR_LINE] = { "LINE", COL_U64, true, 0, 0, "line in the protect file" },
};
#define PROTECT_DEFAULT "KIND,VALUE,LINE"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke protect [list] [options]\n"
	    "       shortstroke protect add DEVICE | --serial SERIAL | --wwn WWN\n"
	    "       shortstroke protect remove DEVICE | --serial SERIAL | --wwn WWN\n"
	    "\n"
	    "Show or edit the protect file (default /etc/shortstroke/protect.conf, or\n"
	    "--protect-file FILE): disks listed there by serial or WWN are refused by every\n"
	    "command that changes a disk, whatever else is true of them. 'add DEVICE'\n"
	    "identifies the drive (read-only) and lists its serial and its WWN.\n"
	    "The file is rewritten atomically; comments are kept.\n"
	    "\n"
	    "Options:\n"
	    "      --serial SERIAL   a serial number\n"
	    "      --wwn WWN         a world wide name (hex, 0x or naa. prefix allowed)\n" OUT_HELP
	    "  -h, --help            this help\n");
}

static const char *path_of(struct ss_ctx *ctx)
{
	return ctx->protect_file ? ctx->protect_file : protect_default_path();
}

static int show(struct ss_ctx *ctx, const struct out_opts *out)
{
	struct protect_list *l = NULL;
	struct ss_error err = { 0 };
	struct table *t;
	struct ss_error terr = { 0 };
	int rc;

	if (out->list_columns) {
		table_list_columns(protect_cols, PR_COUNT, stdout);
		return EXIT_DONE;
	}
	t = table_new(protect_cols, PR_COUNT, PROTECT_DEFAULT, out->columns, &terr);
	if (!t)
		return cli_usage_error("protect", "%s", terr.msg);
	rc = protect_load(path_of(ctx), &l, &err);
	if (rc) {
		table_free(t);
		cli_error("%s", err.msg);
		return EXIT_FAILED;
	}
	for (size_t i = 0; i < protect_count(l); i++) {
		enum protect_kind kind;
		const char *value;
		unsigned line;

		protect_get(l, i, &kind, &value, &line);
		table_add_row(t);
		table_set_str(t, PR_KIND, protect_kind_name(kind));
		table_set_str(t, PR_VALUE, value);
		table_set_u64(t, PR_LINE, line);
	}
	table_print(t, stdout, out->flags, "protected");
	table_free(t);
	protect_free(l);
	return EXIT_DONE;
}

static int edit_one(struct ss_ctx *ctx, bool add, enum protect_kind kind, const char *value)
{
	struct ss_error err = { 0 };
	int rc;

	rc = add ? protect_add(path_of(ctx), kind, value, &err)
		 : protect_remove(path_of(ctx), kind, value, &err);
	if (rc == -EEXIST || (rc == 0 && add)) {
		printf("%s %s: %s (%s)\n", protect_kind_name(kind), value,
		       rc ? "already protected" : "protected", path_of(ctx));
		return EXIT_DONE;
	}
	if (rc == 0) {
		printf("%s %s: no longer protected (%s)\n", protect_kind_name(kind), value,
		       path_of(ctx));
		return EXIT_DONE;
	}
	cli_error("%s", err.msg);
	/* a malformed protect file, or one that cannot be written (an output path
	 * that cannot be): the user's to fix */
	return rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
}

static int edit_device(struct ss_ctx *ctx, bool add, const char *spec)
{
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d;
	int rc, worst = EXIT_DONE;

	rc = device_open(ctx, spec, false, &d, &e, &err);
	drive_free(d);
	if (rc) {
		cli_error("%s", err.msg);
		return cli_exit_code(rc, &err);
	}
	if (!e.info.serial[0] && !e.info.wwn[0]) {
		cli_error("%s: reports neither a serial number nor a WWN; nothing to list", spec);
		return EXIT_FAILED;
	}
	if (e.info.serial[0])
		worst = edit_one(ctx, add, PROTECT_SERIAL, e.info.serial);
	if (e.info.wwn[0] && (add || worst == EXIT_DONE)) {
		rc = edit_one(ctx, add, PROTECT_WWN, e.info.wwn);
		/* removing: the WWN may not have been listed; the serial was */
		if (rc != EXIT_DONE && (add || !e.info.serial[0]))
			worst = rc;
	}
	return worst;
}

static int protect_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { OUT_LONG_OPTS,
					      { "serial", required_argument, NULL, 'S' },
					      { "wwn", required_argument, NULL, 'W' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct out_opts out = { 0 };
	const char *serial = NULL, *wwn = NULL, *verb = "list";
	struct ss_error terr = { 0 };
	int c;

	ctx->protect_editing = true; /* add creates a file named but missing */
	while ((c = getopt_long(argc, argv, ":" OUT_SHORT_OPTS "h", opts, NULL)) != -1) {
		if (out_opts_take(&out, c, optarg))
			continue;
		switch (c) {
		case 'S':
			serial = optarg;
			break;
		case 'W':
			wwn = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("protect", c, argv);
		}
	}
	/* the columns whatever the action: a typo is refused before the file changes */
	if (table_check_columns(protect_cols, PR_COUNT, PROTECT_DEFAULT, out.columns, &terr))
		return cli_usage_error("protect", "%s", terr.msg);
	if (optind < argc)
		verb = argv[optind++];
	if (!strcmp(verb, "list")) {
		if (optind < argc || serial || wwn)
			return cli_usage_error("protect", "'list' takes no device");
		return show(ctx, &out);
	}
	if (strcmp(verb, "add") && strcmp(verb, "remove"))
		return cli_usage_error("protect", "unknown action '%s' (list, add, remove)", verb);
	if ((optind < argc) + !!serial + !!wwn != 1 || optind + 1 < argc)
		return cli_usage_error("protect", "%s: name one DEVICE, or --serial, or --wwn",
				       verb);
	if (serial)
		return edit_one(ctx, verb[0] == 'a', PROTECT_SERIAL, serial);
	if (wwn)
		return edit_one(ctx, verb[0] == 'a', PROTECT_WWN, wwn);
	return edit_device(ctx, verb[0] == 'a', argv[optind]);
}

const struct cli_cmd cmd_protect = {
	.name = "protect",
	.summary = "show or edit the list of disks never to touch",
	.run = protect_run,
	.flags = CLI_CMD_NO_PROTECT_CHECK,
};
