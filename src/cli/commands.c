/* commands.c - the subcommand table. One file per command family. */
#include <stddef.h>

#include "cli.h"

/* one command (family) a line */
/* clang-format off */
const struct cli_cmd *const cli_commands[] = {
	&cmd_list,
	&cmd_info,
	&cmd_probe,
	&cmd_locate, &cmd_fault,
	&cmd_limit,
	&cmd_restore,
	&cmd_depop,
	&cmd_format,
	&cmd_reapply,
	&cmd_protect,
	&cmd_config,
	&cmd_sim,
	&cmd_plan,
	&cmd_apply, &cmd_array,
	&cmd_smart, &cmd_selftest, &cmd_zones,
	&cmd_bench,
	&cmd_profile,
	&cmd_qualify,
	&cmd_tui,
	NULL,
};
/* clang-format on */
