/* tty.h - progress lines on a terminal, drawn with the terminal's own
 * capabilities (terminfo, through the ncurses the TUI links): none when
 * stdout or stderr is not a terminal, or the terminal cannot move the cursor
 * up and clear a line (TERM=dumb, unknown). Lines go to stderr. */
#ifndef SHORTSTROKE_CLI_TTY_H
#define SHORTSTROKE_CLI_TTY_H

#include <stdbool.h>

/* Whether progress lines are drawn: stdout and stderr are terminals and
 * $TERM's terminfo entry has cuu1 (or cuu), el and cr. Decided once. */
bool tty_progress(void);
/* The cursor n lines up (nothing for 0). */
void tty_up(unsigned n);
/* The cursor n lines down, at the start of the line (nothing for 0). */
void tty_down(unsigned n);
/* To the start of the line, which is cleared. */
void tty_clear_line(void);

#endif
