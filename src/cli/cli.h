/* cli.h - the command-line front end: global context and the command table. */
#ifndef SHORTSTROKE_CLI_H
#define SHORTSTROKE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "shortstroke/devices.h"

/* the program's version (--version, smart -J's "shortstroke" object) */
#define SHORTSTROKE_VERSION_MAJOR 0
#define SHORTSTROKE_VERSION_MINOR 1
#define SHORTSTROKE_VERSION_PATCH 0

/* Exit codes (docs/architecture.md, "Exit codes") */
enum {
	EXIT_DONE = 0,
	EXIT_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_REFUSED = 3,
	EXIT_PARTIAL = 4,
};

/* What main does around a command, by its flags (cli_cmd.flags) */
enum {
	/* no protect-file check first: the command edits the file (protect) */
	CLI_CMD_NO_PROTECT_CHECK = 1u << 0,
	/* --verbose installs no command trace: the command owns the terminal (tui) */
	CLI_CMD_NO_TRACE = 1u << 1,
};

struct cli_cmd {
	const char *name;
	const char *summary; /* one line for `shortstroke --help` */
	int (*run)(struct ss_ctx *ctx, int argc, char **argv);
	unsigned flags; /* CLI_CMD_* */
};

extern const struct cli_cmd *const cli_commands[];
extern const struct cli_cmd cmd_list, cmd_info, cmd_limit, cmd_restore, cmd_protect, cmd_sim,
    cmd_tui;
extern const struct cli_cmd cmd_plan;
extern const struct cli_cmd cmd_apply, cmd_array;
extern const struct cli_cmd cmd_smart, cmd_selftest, cmd_zones;
extern const struct cli_cmd cmd_bench;
extern const struct cli_cmd cmd_profile;
extern const struct cli_cmd cmd_qualify;
extern const struct cli_cmd cmd_reapply;
extern const struct cli_cmd cmd_config;
extern const struct cli_cmd cmd_depop;
extern const struct cli_cmd cmd_format;
extern const struct cli_cmd cmd_probe;
extern const struct cli_cmd cmd_locate, cmd_fault;
/* Print "shortstroke: <msg>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error of a disk's error, its subject named (ss_error_subject: "DEV:
 * msg", the name once). Every error line of a batch names its disk. */
void cli_error_named(const char *dev, struct ss_error *err);
/* Print a usage error plus "Try 'shortstroke CMD --help'." and return EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The one line for what getopt_long() returned on a bad option: c is '?'
 * (unknown) or ':' (missing value; the option string starts with ':').
 * getopt's own message is off (opterr = 0 in main). Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv);
/* -n given to a command that changes disks: it is --noheadings everywhere
 * (lsblk's), a dry run is --dry-run spelled out. A usage error that says
 * so, nothing done: a script that passed -n for a dry run is never run for
 * real. */
int cli_dash_n(const char *cmd);
/* The getopt value of --dry-run (no short letter). */
#define CLI_OPT_DRY_RUN 0x2100
/* Every device name of names[0..n) checked before any disk is read or
 * changed (device_lookup, which sends nothing): each bad one printed as
 * "CMD: why"; EXIT_USAGE when one was bad, else EXIT_DONE. */
int cli_check_names(struct ss_ctx *ctx, const char *cmd, char *const *names, int n);
/* An option that takes one value: *slot = value, EXIT_DONE; given a second
 * time it is a usage error (printed; EXIT_USAGE), not the last one silently. */
int cli_option_once(const char *cmd, const char **slot, const char *opt, const char *value);
/* The exit code of a failed operation: EXIT_REFUSED for an -EPERM safety
 * refusal, EXIT_USAGE when err is marked as the user's input (ss_error_usage),
 * else EXIT_FAILED, whatever the errno. */
int cli_exit_code(int rc, const struct ss_error *err);
/* s in rows of at most width columns, cut at spaces (ASCII text): the first
 * row goes on from column at (printed already), the rows after it are
 * indented by ind. */
void cli_print_wrapped(FILE *f, const char *s, int width, int at, int ind);

/* SIGINT and SIGTERM while a batch runs (stop.c): cli_stop_catch installs
 * the handler (the first signal asks the batch to stop, a second Ctrl-C
 * within 2 s stops at once), cli_stop_release puts the old ones back;
 * cli_stop_signal is the signal that came (0: none), cli_stop_name its
 * name. A stopped batch exits 128 + the signal (130, 143). */
void cli_stop_catch(void);
void cli_stop_release(void);
int cli_stop_signal(void);
const char *cli_stop_name(void);

/* The kernel will undo an HPA limit on this disk (libata.ignore_hpa=1, now
 * or at the next boot; e NULL: on any libata disk): the warning, and what to
 * do, in buf (cli_hpa_warning) or as a line on stderr (cli_hpa_warn). */
bool cli_hpa_warning(struct ss_ctx *ctx, const struct dev_entry *e, char *buf, size_t len);
void cli_hpa_warn(struct ss_ctx *ctx, const struct dev_entry *e);
/* --verbose: print every command sent to a drive (CDB, data, status, sense)
 * to stderr, through the transport layer's watch hook (trace.c). */
void cli_trace_install(void);

#endif
