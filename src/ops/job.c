#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shortstroke/job.h"

struct job {
	char name[128];
	job_fn fn;
	void *arg;
	pthread_t thread;
	bool joined;
	pthread_mutex_t lock;
	struct timespec start;
	struct job_status st;
	struct progress_sink sink;
};

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void job_on_report(void *arg, double fraction, const char *phase, double eta_s)
{
	struct job *j = arg;

	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	pthread_mutex_lock(&j->lock);
	j->st.fraction = fraction;
	if (phase)
		snprintf(j->st.phase, sizeof(j->st.phase), "%s", phase);
	j->st.eta_s = eta_s;
	pthread_mutex_unlock(&j->lock);
}

static bool job_on_cancelled(void *arg)
{
	struct job *j = arg;
	bool c;

	pthread_mutex_lock(&j->lock);
	c = j->st.cancel_requested;
	pthread_mutex_unlock(&j->lock);
	return c;
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	struct ss_error err = { 0 };
	int rc;

	rc = j->fn(j->arg, &j->sink, &err);
	pthread_mutex_lock(&j->lock);
	j->st.result = rc;
	j->st.err = err;
	if (rc == 0)
		j->st.fraction = 1.0;
	j->st.elapsed_s = since(&j->start);
	j->st.done = true;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

int job_start(const char *name, job_fn fn, void *arg, struct job **out, struct ss_error *err)
{
	struct job *j;
	int rc;

	*out = NULL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return ss_error_nomem(err);
	snprintf(j->name, sizeof(j->name), "%s", name ? name : "");
	j->fn = fn;
	j->arg = arg;
	j->st.eta_s = -1;
	j->sink.report = job_on_report;
	j->sink.cancelled = job_on_cancelled;
	j->sink.arg = j;
	pthread_mutex_init(&j->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &j->start);
	rc = pthread_create(&j->thread, NULL, job_main, j);
	if (rc) {
		pthread_mutex_destroy(&j->lock);
		free(j);
		return ss_error_set(err, -rc, "cannot start a thread: %s", strerror(rc));
	}
	*out = j;
	return 0;
}

const char *job_name(const struct job *j)
{
	return j->name;
}

void job_cancel(struct job *j)
{
	pthread_mutex_lock(&j->lock);
	j->st.cancel_requested = true;
	pthread_mutex_unlock(&j->lock);
}

void job_status(struct job *j, struct job_status *st)
{
	pthread_mutex_lock(&j->lock);
	*st = j->st;
	if (!st->done)
		st->elapsed_s = since(&j->start);
	pthread_mutex_unlock(&j->lock);
	/* Estimate when the operation gave no ETA of its own. */
	if (!st->done && st->eta_s < 0 && st->fraction > 0.01 && st->elapsed_s > 0.5)
		st->eta_s = st->elapsed_s * (1.0 - st->fraction) / st->fraction;
}

int job_wait(struct job *j, struct ss_error *err)
{
	if (!j->joined) {
		pthread_join(j->thread, NULL);
		j->joined = true;
	}
	if (err && j->st.result)
		*err = j->st.err;
	return j->st.result;
}

void job_free(struct job *j)
{
	if (!j)
		return;
	job_wait(j, NULL);
	pthread_mutex_destroy(&j->lock);
	free(j);
}
