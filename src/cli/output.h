/* output.h - the lsblk-style output options every listing command takes. */
#ifndef SHORTSTROKE_CLI_OUTPUT_H
#define SHORTSTROKE_CLI_OUTPUT_H

#include <getopt.h>
#include <stdbool.h>

struct out_opts {
	unsigned flags;	     /* TABLE_* */
	const char *columns; /* -o */
	bool list_columns;
};

#define OUT_OPT_LIST_COLUMNS 0x1001
#define OUT_SHORT_OPTS "JPo:nrb"
/* a list fragment as a macro body */
/* clang-format off */
#define OUT_LONG_OPTS                                                    \
	{ "json", no_argument, NULL, 'J' },                              \
	{ "pairs", no_argument, NULL, 'P' },                             \
	{ "output", required_argument, NULL, 'o' },                      \
	{ "noheadings", no_argument, NULL, 'n' },                        \
	{ "raw", no_argument, NULL, 'r' },                               \
	{ "bytes", no_argument, NULL, 'b' },                             \
	{ "list-columns", no_argument, NULL, OUT_OPT_LIST_COLUMNS }
/* clang-format on */

#define OUT_HELP                                                                                   \
	"  -J, --json            JSON output (numbers as numbers, sizes in bytes)\n"               \
	"  -P, --pairs           KEY=\"value\" pairs, a line per row, for eval (as lsblk -P)\n"    \
	"  -o, --output LIST     columns to print; +LIST appends to the default\n"                 \
	"  -n, --noheadings      no header line\n"                                                 \
	"  -r, --raw             raw output: one space between columns, no alignment\n"            \
	"  -b, --bytes           sizes in bytes instead of human units\n"                          \
	"      --list-columns    the columns and what they mean\n"

/* Returns true when opt was one of the output options. */
bool out_opts_take(struct out_opts *o, int opt, const char *arg);

#endif
