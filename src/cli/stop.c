/* stop.c - SIGINT and SIGTERM while a batch runs: the first asks the batch
 * to stop (no new command is sent; the commands in flight finish and their
 * journal records are closed; each disk says where it stands), a second
 * Ctrl-C within two seconds stops at once, as the default action does. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t stop_sig;	  /* the first signal, 0 while none came */
static volatile sig_atomic_t last_int_ms; /* when the last SIGINT came (a clock in ms) */
static struct sigaction old_int, old_term;
static bool caught;

/* milliseconds on a monotonic clock, wrapping every 11 days (an int) */
static int mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int)((t.tv_sec % 1000000) * 1000 + t.tv_nsec / 1000000);
}

static void say(const char *s)
{
	ssize_t w = write(STDERR_FILENO, s, strlen(s));

	(void)w; /* nothing to do about a terminal gone */
}

/* Only async-signal-safe calls here: clock_gettime, write, signal, raise. */
static void on_stop(int sig)
{
	int saved = errno, now = mono_ms(), since = now - last_int_ms;

	if (sig == SIGINT && stop_sig && since >= 0 && since < 2000) {
		signal(SIGINT, SIG_DFL); /* the second Ctrl-C: at once */
		raise(SIGINT);
		errno = saved;
		return;
	}
	if (sig == SIGINT)
		last_int_ms = now;
	if (!stop_sig) {
		stop_sig = sig;
		say(sig == SIGINT ? "\nshortstroke: interrupted (SIGINT): stopping: no new command "
				    "is sent, the commands in flight finish (Ctrl-C again within "
				    "2 s stops at once)\n"
				  : "\nshortstroke: terminated (SIGTERM): stopping: no new command "
				    "is sent, the commands in flight finish\n");
	} else if (sig == SIGINT) {
		say("shortstroke: still stopping: Ctrl-C again within 2 s stops at once\n");
	}
	errno = saved;
}

void cli_stop_catch(void)
{
	struct sigaction sa;

	if (caught)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* a signal ignored by whoever started us (a shell's background job)
	 * stays ignored */
	if (old_int.sa_handler == SIG_IGN)
		sigaction(SIGINT, &old_int, NULL);
	if (old_term.sa_handler == SIG_IGN)
		sigaction(SIGTERM, &old_term, NULL);
	caught = true;
}

void cli_stop_release(void)
{
	if (!caught)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	caught = false;
}

int cli_stop_signal(void)
{
	return stop_sig;
}

const char *cli_stop_name(void)
{
	return stop_sig == SIGTERM ? "SIGTERM" : stop_sig == SIGINT ? "SIGINT" : "";
}
