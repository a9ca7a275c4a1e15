/* progress.h - what a long operation reports into: progress and a way to
 * ask it to stop. Used by the I/O engine and the operations alike. */
#ifndef SHORTSTROKE_PROGRESS_H
#define SHORTSTROKE_PROGRESS_H

#include <stdbool.h>

/* Operations take a (possibly NULL) pointer to one and call
 * progress_report()/progress_cancelled(). */
struct progress_sink {
	/* eta_s < 0: let the receiver estimate from elapsed time */
	void (*report)(void *arg, double fraction, const char *phase, double eta_s);
	bool (*cancelled)(void *arg);
	void *arg;
};

void progress_report(const struct progress_sink *p, double fraction, const char *phase,
		     double eta_s);
bool progress_cancelled(const struct progress_sink *p);

#endif
