/* progress.c - the two calls of a progress sink, each safe on NULL. */
#include "shortstroke/progress.h"

void progress_report(const struct progress_sink *p, double fraction, const char *phase,
		     double eta_s)
{
	if (p && p->report)
		p->report(p->arg, fraction, phase, eta_s);
}

bool progress_cancelled(const struct progress_sink *p)
{
	return p && p->cancelled && p->cancelled(p->arg);
}
