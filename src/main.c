/* main.c - shortstroke: global options, then a subcommand (or the TUI). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "shortstroke/journal.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define VERSION                                                                                    \
	STR(SHORTSTROKE_VERSION_MAJOR)                                                             \
	"." STR(SHORTSTROKE_VERSION_MINOR) "." STR(SHORTSTROKE_VERSION_PATCH)

static void usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke [global options] <command> [options] [DEVICE...]\n"
		   "\n"
		   "Limit disks to their fast outer zones (HPA, AMAC, DCO, SCSI resize or\n"
		   "format), restore them, read SMART and zones, qualify disks, plan arrays.\n"
		   "With no command on a terminal, opens the interactive TUI.\n"
		   "\n"
		   "Commands:\n");
	for (const struct cli_cmd *const *c = cli_commands; *c; c++)
		fprintf(f, "  %-10s %s\n", (*c)->name, (*c)->summary);
	fprintf(
	    f,
	    "\n"
	    "Global options (anywhere on the line):\n"
	    "  --demo              use the built-in demo rig of simulated drives\n"
	    "  --rig FILE          use the simulated drives described in FILE (JSON)\n"
	    "  --state-dir DIR     journal and simulator state (default /var/lib/shortstroke\n"
	    "                      for root, else ~/.local/state/shortstroke); refused when\n"
	    "                      another user could write in it\n"
	    "  --sysroot DIR       read sysfs, /dev and /proc under DIR (for tests)\n"
	    "  --protect-file FILE disks never to touch (default /etc/shortstroke/protect.conf);\n"
	    "                      a FILE named here that cannot be read is an error\n"
	    "                      (/etc/shortstroke/shortstroke.conf may set both: see\n"
	    "                      'shortstroke config')\n"
	    "  -v, --verbose       print every command sent to a drive (CDB, status,\n"
	    "                      sense) on stderr\n"
	    "  -h, --help          this help; 'shortstroke COMMAND --help' for a command\n"
	    "  -V, --version       print the version\n"
	    "\n"
	    "Devices: /dev/sdX, /dev/disk/by-id/..., or sim:ID for a drive of the rig.\n"
	    "Environment: SHORTSTROKE_RIG, SHORTSTROKE_STATE_DIR, SHORTSTROKE_SYSROOT,\n"
	    "SHORTSTROKE_PROTECT_FILE, SHORTSTROKE_CONFIG (another configuration file).\n"
	    "Exit status: 0 done, 1 failed, 2 usage error, 3 refused for safety,\n"
	    "4 some disks of a batch failed.\n");
}

/* Pull the global options out of argv (they may appear anywhere before
 * "--"), leaving the command and its own options. Returns -1 on error. */
static int take_globals(struct ss_ctx *ctx, int *argc, char **argv, bool *help, bool *version)
{
	static const struct {
		const char *name;
		int has_arg;
	} globals[] = {
		{ "--demo", 0 },    { "--rig", 1 },	     { "--state-dir", 1 },
		{ "--sysroot", 1 }, { "--protect-file", 1 }, { "--verbose", 0 },
		{ "-v", 0 },	    { "--version", 0 },	     { "-V", 0 },
	};
	int out = 1;
	bool cmd_seen = false;

	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		size_t g, n = sizeof(globals) / sizeof(globals[0]);

		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		for (g = 0; g < n; g++) {
			size_t len = strlen(globals[g].name);

			if (!strncmp(a, globals[g].name, len) &&
			    (a[len] == '\0' || (globals[g].has_arg && a[len] == '=')))
				break;
		}
		if (g == n) {
			if (!cmd_seen && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
				*help = true;
				continue;
			}
			if (a[0] != '-')
				cmd_seen = true;
			argv[out++] = argv[i];
			continue;
		}
		if (globals[g].has_arg) {
			const char *eq = strchr(a, '=');

			if (eq) {
				val = eq + 1;
			} else if (i + 1 < *argc) {
				val = argv[++i];
			} else {
				cli_usage_error(NULL, "option '%s' needs a value", a);
				return -1;
			}
			if (!*val) {
				/* an unset shell variable: --state-dir "" put the
				 * journal in /, --sysroot "" read the real machine */
				cli_usage_error(NULL,
						"option '%s' needs a value, not an empty "
						"string",
						globals[g].name);
				return -1;
			}
		}
		if (!strcmp(globals[g].name, "--demo"))
			ctx->demo = true;
		else if (!strcmp(globals[g].name, "--rig"))
			ctx->rig_file = val;
		else if (!strcmp(globals[g].name, "--state-dir"))
			ctx->state_dir = val;
		else if (!strcmp(globals[g].name, "--sysroot"))
			ctx->sysroot = val;
		else if (!strcmp(globals[g].name, "--protect-file")) {
			ctx->protect_file = val;
			ctx->protect_origin = "--protect-file";
		} else if (!strcmp(globals[g].name, "--verbose") || !strcmp(globals[g].name, "-v"))
			ctx->verbose = true;
		else
			*version = true;
	}
	argv[out] = NULL;
	*argc = out;
	if (ctx->demo && ctx->rig_file) {
		cli_usage_error(NULL, "--demo and --rig both name a rig; use one");
		return -1;
	}
	return 0;
}

/* The journal's readers warn (a torn last line, another disk's unreadable
 * line); the commands print it, the TUI does not take over the terminal
 * until later and keeps its own messages. */
static void journal_warning(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "shortstroke: warning: %s\n", msg);
}

/* A protect file that was named but cannot be read (a typo protects
 * nothing), or one that does not parse: exit 2 before anything is sent.
 * A command that edits the file (and creates it: protect) is let through
 * (CLI_CMD_NO_PROTECT_CHECK). */
static bool protect_file_ok(struct ss_ctx *ctx, const struct cli_cmd *cmd)
{
	struct ss_error err = { 0 };

	if (cmd && (cmd->flags & CLI_CMD_NO_PROTECT_CHECK))
		return true;
	if (ctx_protect_check(ctx, &err) == 0)
		return true;
	cli_error("%s", err.msg);
	return false;
}

/* The configuration file (/etc/shortstroke/shortstroke.conf): what neither
 * an option nor the environment set; one that does not parse is exit 2. */
static bool config_ok(struct ss_ctx *ctx)
{
	struct ss_error err = { 0 };

	if (ctx_load_config(ctx, &err) == 0)
		return true;
	cli_error("%s", err.msg);
	return false;
}

int main(int argc, char **argv)
{
	struct ss_ctx ctx;
	bool help = false, version = false;
	int rc;

	ctx_init(&ctx);
	journal_set_warn(journal_warning, NULL);
	if (take_globals(&ctx, &argc, argv, &help, &version)) {
		ctx_fini(&ctx);
		return EXIT_USAGE;
	}
	if (version) {
		printf("shortstroke %s\n", VERSION);
		ctx_fini(&ctx);
		return 0;
	}
	if (help || (argc >= 2 && !strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		ctx_fini(&ctx);
		return 0;
	}
	if (!config_ok(&ctx)) {
		ctx_fini(&ctx);
		return EXIT_USAGE;
	}
	if (argc < 2) {
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
			journal_set_warn(NULL, NULL); /* not over the screen */
			if (!protect_file_ok(&ctx, NULL)) {
				ctx_fini(&ctx);
				return EXIT_USAGE;
			}
			rc = cmd_tui.run(&ctx, 1, argv);
			ctx_fini(&ctx);
			return rc;
		}
		usage(stderr);
		ctx_fini(&ctx);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc >= 3) {
		/* "shortstroke help list" = "shortstroke list --help" */
		argv[1] = argv[2];
		argv[2] = "--help";
	}
	for (const struct cli_cmd *const *c = cli_commands; *c; c++) {
		if (strcmp((*c)->name, argv[1]))
			continue;
		if (ctx.verbose && !((*c)->flags & CLI_CMD_NO_TRACE))
			cli_trace_install(); /* not under curses: it owns the terminal */
		if (!protect_file_ok(&ctx, *c)) {
			ctx_fini(&ctx);
			return EXIT_USAGE;
		}
		optind = 1;
		opterr = 0; /* a bad option gets one line, from cli_bad_option() */
		rc = (*c)->run(&ctx, argc - 1, argv + 1);
		ctx_fini(&ctx);
		return rc;
	}
	rc = cli_usage_error(NULL, "unknown %s '%s'", argv[1][0] == '-' ? "option" : "command",
			     argv[1]);
	ctx_fini(&ctx);
	return rc;
}
