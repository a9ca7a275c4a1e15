/* tui.c - owns curses: start, stop, the fatal path, the event loop. */
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "form.h"
#include "front/glyphs.h"
#include "front/table.h"
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

/* Ctrl-C is a key like q: it asks first when jobs run (tui_quit), and the
 * terminal is given back as it was. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
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
	case KEY_F(2):
		return TK_F2;
	case KEY_F(4):
		return TK_F4;
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

/* A mouse event to the model: a click (button 1 pressed; its release is
 * dropped) or the wheel (buttons 4 and 5). */
static enum tui_action mouse_event(struct tui_model *m)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return TUI_NONE;
	if (ev.bstate & BUTTON1_PRESSED)
		return tui_mouse(m, TUI_CLICK, ev.y, ev.x);
	if (ev.bstate & BUTTON4_PRESSED)
		return tui_mouse(m, TUI_WHEEL_UP, ev.y, ev.x);
	if (ev.bstate & BUTTON5_PRESSED)
		return tui_mouse(m, TUI_WHEEL_DOWN, ev.y, ev.x);
	return TUI_NONE;
}

int tui_main(struct ss_ctx *ctx, struct ss_error *err)
{
	struct tui_model m;
	int sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGTERM, SIGHUP };
	struct table *t;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return ss_error_usage(err, -ENOTTY, "needs a terminal");
	t = tui_drive_table(err); /* its columns are names: one misspelt is an error */
	if (!t)
		return err->code;
	table_free(t);
	/* the terminal's character set (UTF-8: box drawing and block elements,
	 * else ASCII); numbers stay as the C locale writes and reads them */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	glyphs_pick();
	memset(&m, 0, sizeof(m));
	m.rows_y = -1;
	m.ctx = ctx;
	m.cmdlog = tui_cmdlog_start(); /* before the first command: the log screen's */
	/* the columns chosen in Setup; what is wrong in the file is said */
	{
		struct ss_error cerr = { 0 };

		if (tui_conf_load(&m, &cerr))
			snprintf(m.status, sizeof(m.status), "%s", cerr.msg);
	}
	tui_model_refresh(&m);

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_fatal_signal);
	signal(SIGINT, on_interrupt);
	atexit(tui_stop);
	if (!initscr()) {
		tui_model_fini(&m);
		return ss_error_set(err, -EIO, "cannot initialise the terminal");
	}
	curses_on = true;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	/* Esc alone after 25 ms, unless ESCDELAY says otherwise (as ncurses
	 * reads it: over a slow link, or a terminal driven by another program,
	 * the bytes of one key can arrive further apart) */
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	timeout(250); /* wake up to draw job progress */
	tui_colors_init();
	/* clicks and the wheel; presses and releases as they come (no click
	 * timing), in the terminal's SGR mode where terminfo says so */
	mouseinterval(0);
	mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);

	tui_draw(&m);
	for (;;) {
		enum tui_action a;

		int ch = getch();

		if (interrupted) { /* getch woke up (EINTR) or timed out */
			interrupted = 0;
			a = tui_quit(&m);
		} else if (ch == KEY_MOUSE) {
			a = mouse_event(&m);
		} else {
			a = tui_handle_key(&m, map_key(ch));
		}
		if (a == TUI_QUIT)
			break;
		if (a == TUI_RESCAN)
			tui_model_refresh(&m);
		if (a != TUI_NONE)
			tui_draw(&m);
	}
	tui_stop();
	{
		struct ss_error cerr = { 0 };

		if (tui_conf_quit(&m, &cerr)) /* the sort, for the next start */
			fprintf(stderr, "shortstroke: %s\n", cerr.msg);
	}
	tui_model_fini(&m);
	return 0;
}
