/* tty.c - progress lines with terminfo (tty.h). */
#include <curses.h>
#include <stdio.h>
#include <term.h>
#include <unistd.h>

#include "tty.h"

static int state; /* 0: not decided, 1: progress lines, -1: none */
static const char *cap_cuu, *cap_cuu1, *cap_el, *cap_cr;

static const char *cap(const char *name)
{
	char *s = tigetstr(name);

	return s && s != (char *)-1 && *s ? s : NULL;
}

static int out(int c)
{
	return fputc(c, stderr);
}

bool tty_progress(void)
{
	int err;

	if (state)
		return state > 0;
	state = -1;
	if (!isatty(STDOUT_FILENO) || !isatty(STDERR_FILENO))
		return false;
	if (setupterm(NULL, STDERR_FILENO, &err) != OK)
		return false;
	cap_cuu = cap("cuu");
	cap_cuu1 = cap("cuu1");
	cap_el = cap("el");
	cap_cr = cap("cr");
	if ((cap_cuu || cap_cuu1) && cap_el && cap_cr)
		state = 1;
	return state > 0;
}

void tty_up(unsigned n)
{
	if (state <= 0 || !n)
		return;
	if (cap_cuu)
		tputs(tiparm(cap_cuu, (int)n), 1, out);
	else
		while (n--)
			tputs(cap_cuu1, 1, out);
}

void tty_down(unsigned n)
{
	if (state <= 0)
		return;
	/* a newline moves down where cud1 may not scroll; the lines below the
	 * one drawn are the progress lines already there */
	while (n--)
		fputc('\n', stderr);
	tputs(cap_cr, 1, out);
}

void tty_clear_line(void)
{
	if (state <= 0)
		return;
	tputs(cap_cr, 1, out);
	tputs(cap_el, 1, out);
}
