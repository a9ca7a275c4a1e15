/* tui - the interactive screen (src/tui), as a command. Its help lists every
 * screen's keys from the screens' key tables, which the TUI answers from. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tui/tui.h"

enum { HELP_COLS = 79 };

/* Each screen's keys under its title, the names in a column as wide as
 * its longest. */
static void print_keys(void)
{
	for (const struct tui_screen_ops *const *s = tui_screen_list; *s; s++) {
		struct tui_lines l = { 0 };
		int w = 0;

		for (const struct tui_key *k = (*s)->keys; k && k->name; k++)
			if (k->help && (int)strlen(k->name) > w)
				w = (int)strlen(k->name);
		tui_keys_lines(*s, w + 1, &l); /* two spaces before what they do */
		printf("\n%s:\n", (*s)->title);
		for (size_t i = 0; i < l.n; i++)
			cli_print_wrapped(stdout, l.v[i], HELP_COLS, 0, w + 4);
		tui_lines_clear(&l);
	}
}

/* --list-keys: a line a key of every screen, SCREEN<tab>KEYS<tab>WHAT, in
 * the order of the help (what t_man.sh holds the man page to). */
static void list_keys(void)
{
	for (const struct tui_screen_ops *const *s = tui_screen_list; *s; s++)
		for (const struct tui_key *k = (*s)->keys; k && k->name; k++)
			if (k->help)
				printf("%s\t%s\t%s\n", (*s)->title, k->name, k->help);
}

static int tui_run(struct ss_ctx *ctx, int argc, char **argv)
{
	struct ss_error err = { 0 };
	int rc;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf(
		    "Usage: shortstroke tui [--list-keys]\n"
		    "\n"
		    "Open the interactive screen: a table of the drives and a detail pane for\n"
		    "the selected one. What a key opens (a form, a report, the planner, the log)\n"
		    "goes over the table, and q or Esc closes it again. 'shortstroke' with no\n"
		    "command on a terminal does the same. With --demo it opens on the built-in\n"
		    "rig of simulated drives.\n"
		    "\n"
		    "Options:\n"
		    "  --list-keys  the keys below, one a line: SCREEN, KEYS and WHAT they do,\n"
		    "               separated by tabs\n"
		    "\n"
		    "Keys, screen by screen (? shows those of the drive table, and the bar at\n"
		    "the bottom those of the screen on top):\n");
		print_keys();
		return EXIT_DONE;
	}
	if (argc == 2 && !strcmp(argv[1], "--list-keys")) {
		list_keys();
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
	.flags = CLI_CMD_NO_TRACE,
};
