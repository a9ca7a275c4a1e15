/* tui - the interactive screen (src/tui), as a command. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tui/tui.h"

static int tui_run(struct ss_ctx *ctx, int argc, char **argv)
{
	struct ss_error err = { 0 };
	int rc;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("Usage: shortstroke tui\n"
		       "\n"
		       "Open the interactive screen: a table of the drives and a detail pane for\n"
		       "the selected one. Keys: arrows or j/k move, Space marks drives, l limits\n"
		       "and r restores the selected or marked drives (with the serial typed to\n"
		       "confirm, progress shown in the table), p plans an array of them\n"
		       "(goals, ranked layouts, the plan saved to a file), b benchmarks them\n"
		       "(random reads at QD 1 and 16), a aborts their job (a self-test stops\n"
		       "inside the drive; a format cannot be aborted), ? help, R rescan, q quit\n"
		       "(with self-tests running it asks first; they go on inside the drives).\n"
		       "'shortstroke' with no command on a terminal does the same.\n"
		       "With --demo it opens on the built-in rig of simulated drives.\n");
		return EXIT_DONE;
	}
	if (argc > 1)
		return cli_usage_error("tui", "unexpected argument '%s'", argv[1]);
	rc = tui_main(ctx, &err);
	if (rc)
		cli_error("tui: %s", err.msg);
	return cli_exit_code(rc, &err);
}

const struct cli_cmd cmd_tui = {
	.name = "tui",
	.summary = "the interactive screen (also: no command on a terminal)",
	.run = tui_run,
};
