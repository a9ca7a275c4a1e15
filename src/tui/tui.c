/* tui.c - owns curses: start, stop, the fatal path, the event loop. */
#include <curses.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "tui.h"

static bool curses_on;

static void tui_stop(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

static void on_fatal_signal(int sig)
{
	tui_stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int map_key(int ch)
{
	switch (ch) {
	case KEY_UP:
		return TK_UP;
	case KEY_DOWN:
		return TK_DOWN;
	case KEY_HOME:
		return TK_HOME;
	case KEY_LEFT:
		return TK_LEFT;
	case KEY_RIGHT:
		return TK_RIGHT;
	case '\t':
		return TK_TAB;
	case KEY_BTAB:
		return TK_BTAB;
	case KEY_END:
		return TK_END;
	case KEY_PPAGE:
		return TK_PGUP;
	case KEY_NPAGE:
		return TK_PGDN;
	case KEY_RESIZE:
		return TK_RESIZE;
	case KEY_F(5):
		return TK_F5;
	case KEY_ENTER:
	case '\n':
	case '\r':
		return TK_ENTER;
	case 27:
		return TK_ESC;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		return TK_BACKSPACE;
	case ERR:
		return TK_TICK;
	default:
		return ch;
	}
}

int tui_main(struct ss_ctx *ctx)
{
	struct tui_model m;
	int sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGTERM, SIGHUP };

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_error("tui: needs a terminal");
		return EXIT_USAGE;
	}
	memset(&m, 0, sizeof(m));
	m.ctx = ctx;
	tui_model_refresh(&m);

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_fatal_signal);
	atexit(tui_stop);
	if (!initscr()) {
		cli_error("tui: cannot initialise the terminal");
		tui_model_free(&m);
		return EXIT_FAILED;
	}
	curses_on = true;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(250); /* wake up to draw job progress */
	tui_colors_init();

	tui_draw(&m);
	for (;;) {
		enum tui_action a;

		a = tui_handle_key(&m, map_key(getch()));
		if (a == TUI_QUIT)
			break;
		if (a == TUI_RESCAN)
			tui_model_refresh(&m);
		if (a != TUI_NONE)
			tui_draw(&m);
	}
	tui_stop();
	tui_model_free(&m);
	return EXIT_DONE;
}

static int tui_run(struct ss_ctx *ctx, int argc, char **argv)
{
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
	return tui_main(ctx);
}

const struct cli_cmd cmd_tui = {
	.name = "tui",
	.summary = "the interactive screen (also: no command on a terminal)",
	.run = tui_run,
};
