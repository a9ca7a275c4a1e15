/* job.h - run an operation on its own thread, with progress and cancel.
 * Shared by the CLI (progress lines) and the TUI (progress bars). */
#ifndef SHORTSTROKE_JOB_H
#define SHORTSTROKE_JOB_H

#include <stdbool.h>

#include "shortstroke/error.h"
#include "shortstroke/progress.h" /* the sink a job reports into */

struct job;

/* The operation: runs on the job's thread; returns 0 or negative errno
 * with err filled. It must poll progress_cancelled(sink) in long loops. */
typedef int (*job_fn)(void *arg, const struct progress_sink *sink, struct ss_error *err);

struct job_status {
	bool done;
	bool cancel_requested;
	double fraction; /* 0..1 */
	char phase[96];
	double elapsed_s;
	double eta_s;	     /* < 0 unknown */
	int result;	     /* valid when done */
	struct ss_error err; /* valid when done and result != 0 */
};

int job_start(const char *name, job_fn fn, void *arg, struct job **out, struct ss_error *err);
const char *job_name(const struct job *j);
void job_cancel(struct job *j);
/* A consistent snapshot, safe to call from any thread. */
void job_status(struct job *j, struct job_status *st);
/* Wait for the end; returns the operation's result and copies its error. */
int job_wait(struct job *j, struct ss_error *err);
/* Wait (if running) and free. */
void job_free(struct job *j);

#endif
