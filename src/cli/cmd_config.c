/* config - the settings in force and where each comes from: the option,
 * the environment, /etc/shortstroke/shortstroke.conf or the default; and
 * the boot unit's condition (is there a journal to re-apply). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "front/record.h"
#include "front/table.h"
#include "shortstroke/config.h"
#include "shortstroke/protect.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke config [-J] [--has-journal]\n"
		   "\n"
		   "Show the configuration in force: the configuration file read\n"
		   "(" CONFIG_DEFAULT_PATH ", or $SHORTSTROKE_CONFIG), the\n"
		   "state directory and the protect file, each with where it comes from\n"
		   "(an option, the environment, the configuration file, the default), and\n"
		   "whether the journal and the protect file exist, and the defaults the file\n"
		   "gives limit's --method and --align. An option or the environment wins over\n"
		   "the file; the file over the default.\n"
		   "\n"
		   "Options:\n"
		   "      --has-journal     print nothing; exit 0 when the state directory holds\n"
		   "                        a journal, 1 when not (the boot unit's condition)\n"
		   "  -J, --json            JSON output\n"
		   "  -h, --help            this help\n"
		   "\n"
		   "Exit status: 0 shown (or a journal), 1 no journal (--has-journal), 2 usage\n"
		   "error or a configuration file that does not parse.\n");
}

/* Where a setting in force came from: the pointer says (the configuration
 * file's strings live in ctx->config, the environment's in environ). */
static const char *origin(const struct ss_ctx *ctx, const char *v, const char *cfg_v,
			  const char *env, const char *opt)
{
	const char *e = getenv(env);

	if (!v)
		return "default";
	if (ctx->config && v == cfg_v)
		return "configuration file";
	if (e && v == e)
		return env;
	return opt;
}

static void add_path(struct record *r, const char *label, const char *key, const char *path,
		     const char *from)
{
	char k[64];

	bool here = access(path, F_OK) == 0;

	if (from)
		record_text(r, label, "%s (%s; %s)", path, from, here ? "present" : "not present");
	else
		record_text(r, label, "%s (%s)", path, here ? "present" : "not present");
	record_set_str(r, key, path);
	snprintf(k, sizeof(k), "%s_from", key);
	if (from)
		record_set_str(r, k, from);
	snprintf(k, sizeof(k), "%s_present", key);
	record_set_bool(r, k, here);
}

static int run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "has-journal", no_argument, NULL, 'j' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const struct ss_config *cfg = ctx->config;
	bool json = false, has_journal = false;
	char journal[CONFIG_PATH_MAX + 16];
	const char *state = ctx_state_dir(ctx), *protect;
	struct record *r;
	int c;

	while ((c = getopt_long(argc, argv, ":Jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			has_journal = true;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("config", c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("config", "unexpected argument '%s'", argv[optind]);
	snprintf(journal, sizeof(journal), "%s/journal.jsonl", state);
	if (has_journal)
		return access(journal, F_OK) == 0 ? EXIT_DONE : EXIT_FAILED;
	protect = ctx->protect_file ? ctx->protect_file : protect_default_path();
	r = record_new();
	if (cfg && cfg->path[0]) {
		record_text(r, "Configuration file", "%s (%s)", cfg->path,
			    cfg->present ? "read" : "not present");
		record_set_str(r, "config_file", cfg->path);
		record_set_bool(r, "config_file_present", cfg->present);
	}
	add_path(r, "State directory", "state_dir", state,
		 origin(ctx, ctx->state_dir, cfg ? cfg->state_dir : NULL, "SHORTSTROKE_STATE_DIR",
			"--state-dir"));
	add_path(r, "Journal", "journal", journal, NULL);
	add_path(r, "Protect file", "protect_file", protect,
		 origin(ctx, ctx->protect_file, cfg ? cfg->protect_file : NULL,
			"SHORTSTROKE_PROTECT_FILE", "--protect-file"));
	if (cfg && cfg->limit_method[0]) {
		record_text(r, "Limit method", "%s (configuration file)", cfg->limit_method);
		record_set_str(r, "limit_method", cfg->limit_method);
	} else {
		record_text(r, "Limit method", "auto (default)");
		record_set_str(r, "limit_method", "auto");
	}
	if (cfg && cfg->limit_align)
		record_text(r, "Limit alignment", "%" PRIu64 " bytes (configuration file)",
			    cfg->limit_align);
	else
		record_text(r, "Limit alignment", "1048576 bytes (default)");
	record_set_u64(r, "limit_align", cfg && cfg->limit_align ? cfg->limit_align : 1048576);
	record_print(r, stdout, json ? TABLE_JSON : 0);
	record_free(r);
	return EXIT_DONE;
}

const struct cli_cmd cmd_config = {
	.name = "config",
	.summary = "the configuration in force (state directory, protect file) and its origin",
	.run = run,
};
