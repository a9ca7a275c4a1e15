/* jobs.c - work off the UI thread whose result the UI thread swaps in
 * (struct tui_bg), and the rescan that runs as one: the drive list and the
 * SMART verdicts read by a job with a context of its own, the list swapped
 * into the model when it ends with the selection and the marks kept on the
 * same disks. No curses here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "front/drives.h"
#include "shortstroke/enclosure.h"
#include "shortstroke/smart.h"
#include "tui.h"

/* ---- jobs whose results the UI thread swaps in ---------------------------------- */

struct tui_bg *tui_bg_start(struct tui_model *m, const char *what, job_fn run, void *arg,
			    tui_bg_done done, struct ss_error *err)
{
	struct tui_bg *b = NULL;
	int rc;

	for (size_t i = 0; i < TUI_MAX_BG && !b; i++)
		if (!m->bg[i].job)
			b = &m->bg[i];
	if (!b) {
		ss_error_set(err, -EBUSY, "too many jobs running; wait for one to end");
		return NULL;
	}
	rc = job_start(what, run, arg, &b->job, err);
	if (rc) {
		b->job = NULL;
		return NULL;
	}
	snprintf(b->what, sizeof(b->what), "%s", what);
	b->arg = arg;
	b->done = done;
	return b;
}

void tui_bg_cancel(struct tui_bg *b)
{
	if (b && b->job)
		job_cancel(b->job);
}

/* The slot is free again before done runs: done may start another job. */
static void bg_reap(struct tui_model *m, struct tui_bg *b)
{
	struct ss_error err = { 0 };
	tui_bg_done done = b->done;
	void *arg = b->arg;
	int rc;

	rc = job_wait(b->job, &err);
	job_free(b->job);
	memset(b, 0, sizeof(*b));
	done(m, b, arg, rc, &err);
}

bool tui_bg_poll(struct tui_model *m)
{
	bool any = false;

	for (size_t i = 0; i < TUI_MAX_BG; i++) {
		struct tui_bg *b = &m->bg[i];
		struct job_status st;

		if (!b->job)
			continue;
		any = true;
		job_status(b->job, &st);
		if (st.done)
			bg_reap(m, b);
	}
	return any;
}

void tui_bg_line(const struct tui_bg *b, char *buf, size_t len)
{
	static const char spin[] = "|/-\\";
	struct job_status st;

	if (!b->job) {
		snprintf(buf, len, "%s", b->what);
		return;
	}
	job_status(b->job, &st);
	/* a quarter turn per tick of the UI (250 ms) */
	snprintf(buf, len, "%c %s", spin[(unsigned long)(st.elapsed_s * 4.0) % 4],
		 st.phase[0] ? st.phase : b->what);
}

void tui_bg_stop_all(struct tui_model *m, double timeout_s)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	double waited = 0;

	for (size_t i = 0; i < TUI_MAX_BG; i++)
		tui_bg_cancel(&m->bg[i]);
	for (;;) {
		bool running = false;

		for (size_t i = 0; i < TUI_MAX_BG; i++) {
			struct job_status st;

			if (!m->bg[i].job)
				continue;
			job_status(m->bg[i].job, &st);
			if (st.done)
				bg_reap(m, &m->bg[i]);
			else
				running = true;
		}
		if (!running || waited >= timeout_s)
			break;
		nanosleep(&tick, NULL);
		waited += 0.01;
	}
	/* a job stuck in a drive's command: the process ends without it (its
	 * thread, and what it holds, go with the exit) */
	for (size_t i = 0; i < TUI_MAX_BG; i++)
		memset(&m->bg[i], 0, sizeof(m->bg[i]));
	m->scan = NULL;
}

/* ---- the rescan ------------------------------------------------------------------ */

struct scan {
	struct ss_ctx ctx; /* the job's own: the UI thread keeps the model's */
	struct dev_entry *devs;
	size_t n;
	char (*health)[TUI_HEALTH_LEN];
};

/* "PASSED  38 C, 31877 h, reallocated 0, pending 0" (read-only commands) */
static void health_line(struct ss_ctx *ctx, const struct dev_entry *e, char *buf, size_t len)
{
	struct smart_report r;
	struct ss_error err = { 0 };
	struct dev_entry fresh;
	struct drive *d = NULL;
	size_t off;

	buf[0] = '\0';
	if (!e->identified || device_open(ctx, e->spec, false, &d, &fresh, &err)) {
		drive_free(d);
		return;
	}
	if (smart_read(d, &fresh.info, &r, &err)) {
		snprintf(buf, len, "%s", err.msg);
		drive_free(d);
		return;
	}
	off = (size_t)snprintf(buf, len, "%s%s%s", smart_verdict_name(r.verdict),
			       r.reason[0] ? ": " : "", r.reason);
	if (r.temperature_c.known && off < len)
		off += (size_t)snprintf(buf + off, len - off, "; %lld C",
					(long long)r.temperature_c.value);
	if (r.power_on_hours.known && off < len)
		off += (size_t)snprintf(buf + off, len - off, ", %lld h",
					(long long)r.power_on_hours.value);
	if (r.reallocated.known && off < len)
		off += (size_t)snprintf(buf + off, len - off, ", reallocated %lld",
					(long long)r.reallocated.value);
	if (r.pending.known && off < len)
		snprintf(buf + off, len - off, ", pending %lld", (long long)r.pending.value);
	smart_report_fini(&r);
	drive_free(d);
}

static void scan_free(struct scan *s)
{
	if (!s)
		return;
	ctx_fini(&s->ctx);
	free(s->devs);
	free(s->health);
	free(s);
}

/* Off the UI thread: identify every drive, then read each one's SMART verdict. */
static int scan_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct scan *s = arg;
	int rc;

	progress_report(sink, 0, "scanning the drives", -1);
	rc = devices_list_progress(&s->ctx, sink, &s->devs, &s->n, err);
	if (rc)
		return rc;
	/* the SLOT column: each enclosure read once (nothing when there is none) */
	encl_fill_slots(&s->ctx, s->devs, s->n, NULL);
	s->health = calloc(s->n ? s->n : 1, sizeof(*s->health));
	if (!s->health)
		return ss_error_nomem(err);
	for (size_t i = 0; i < s->n; i++) {
		char phase[64];

		if (progress_cancelled(sink))
			return ss_error_set(err, -ECANCELED, "the scan was stopped");
		snprintf(phase, sizeof(phase), "reading SMART %zu/%zu drives", i + 1, s->n);
		progress_report(sink, (double)i / (double)s->n, phase, -1);
		health_line(&s->ctx, &s->devs[i], s->health[i], sizeof(s->health[i]));
	}
	return 0;
}

static const char *disk_serial(const struct dev_entry *e)
{
	return e->identified && e->info.serial[0] ? e->info.serial : e->sys_serial;
}

static const char *disk_wwn(const struct dev_entry *e)
{
	return e->identified && e->info.wwn[0] ? e->info.wwn : e->sys_wwn;
}

/* The same disk in two scans: by serial, else by WWN, else by name. */
static bool same_disk(const struct dev_entry *a, const struct dev_entry *b)
{
	if (disk_serial(a)[0] && disk_serial(b)[0])
		return !strcmp(disk_serial(a), disk_serial(b));
	if (disk_wwn(a)[0] && disk_wwn(b)[0])
		return !strcmp(disk_wwn(a), disk_wwn(b));
	return !strcmp(a->spec, b->spec);
}

void tui_model_swap(struct tui_model *m, struct dev_entry *devs, size_t n,
		    char (*health)[TUI_HEALTH_LEN])
{
	bool *marked = calloc(n ? n : 1, sizeof(*marked));
	bool *failmark = calloc(n ? n : 1, sizeof(*failmark));
	size_t sel = m->sel < n ? m->sel : (n ? n - 1 : 0);

	for (size_t k = 0; k < m->n; k++) {
		bool is_sel = k == m->sel, is_marked = m->marked && m->marked[k];

		if (!is_sel && !is_marked)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (!same_disk(&m->devs[k], &devs[i]))
				continue;
			if (is_sel)
				sel = i;
			if (is_marked && marked)
				marked[i] = true;
			if (is_marked && failmark && m->failmark)
				failmark[i] = m->failmark[k];
			break;
		}
	}
	free(m->devs);
	free(m->marked);
	free(m->failmark);
	free(m->health);
	m->devs = devs;
	m->n = n;
	m->marked = marked;
	m->failmark = failmark;
	m->health = health;
	m->sel = sel;
	tui_table_rebuild(m); /* the chosen columns, then the rows sorted and filtered */
}

static void scan_done(struct tui_model *m, struct tui_bg *b, void *arg, int rc,
		      const struct ss_error *err)
{
	struct scan *s = arg;
	bool first = !m->scanned;

	(void)b;
	m->scan = NULL;
	m->scanned = true;
	if (m->ctx->demo)
		snprintf(m->source, sizeof(m->source), "demo rig");
	else if (m->ctx->rig_file)
		snprintf(m->source, sizeof(m->source), "rig %s", m->ctx->rig_file);
	else
		snprintf(m->source, sizeof(m->source), "this machine");
	if (rc) {
		/* the old list stays */
		tui_status(m, "%s%s",
			   first ? "" : "rescan failed, the list is as it was: ", err->msg);
		scan_free(s);
		return;
	}
	tui_model_swap(m, s->devs, s->n, s->health);
	s->devs = NULL;
	s->health = NULL;
	scan_free(s);
	if (!m->dlg && !m->ntasks) {
		/* simulated drives: the UI thread's context reloads them from the
		 * state directory on its next use, so that what other processes
		 * did (sim power-cycle, limit) shows there too */
		ctx_sources_release(m->ctx);
	}
}

/* ---- the rows of a batch's drives, while other jobs run ------------------------ */

struct rows {
	struct ss_ctx ctx; /* the job's own */
	size_t n;
	char (*spec)[256];
	struct dev_entry *devs;
	bool *ok;
	char (*health)[TUI_HEALTH_LEN];
};

static void rows_free(struct rows *r)
{
	if (!r)
		return;
	ctx_fini(&r->ctx);
	free(r->spec);
	free(r->devs);
	free(r->ok);
	free(r->health);
	free(r);
}

/* Off the UI thread: each drive identified again (read-only), its SMART verdict. */
static int rows_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct rows *r = arg;

	(void)err;
	for (size_t i = 0; i < r->n && !progress_cancelled(sink); i++) {
		struct ss_error e = { 0 };
		struct drive *d = NULL;

		progress_report(sink, (double)i / (double)r->n, "reading the drives' new state",
				-1);
		r->ok[i] = !device_open(&r->ctx, r->spec[i], false, &d, &r->devs[i], &e);
		drive_free(d);
		if (r->ok[i])
			health_line(&r->ctx, &r->devs[i], r->health[i], sizeof(r->health[i]));
	}
	return 0;
}

/* On the UI thread: each row that is still the same disk, with no job on it
 * now, takes what was read. */
static void rows_done(struct tui_model *m, struct tui_bg *b, void *arg, int rc,
		      const struct ss_error *err)
{
	struct rows *r = arg;
	bool any = false;

	(void)b;
	(void)err;
	for (size_t i = 0; !rc && i < r->n; i++) {
		if (!r->ok[i] || tui_task_for(m, r->spec[i]))
			continue;
		for (size_t k = 0; k < m->n; k++) {
			if (strcmp(m->devs[k].spec, r->spec[i]) ||
			    !same_disk(&m->devs[k], &r->devs[i]))
				continue;
			m->devs[k] = r->devs[i];
			memcpy(m->health[k], r->health[i], sizeof(m->health[k]));
			any = true;
		}
	}
	if (any)
		tui_table_rebuild(m);
	rows_free(r);
}

void tui_rows_refresh(struct tui_model *m, const char (*specs)[256], size_t n)
{
	struct ss_error err = { 0 };
	struct rows *r;
	size_t k = 0;

	if (!n || m->scan || !m->health)
		return; /* a scan reads them all anyway */
	r = calloc(1, sizeof(*r));
	if (r) {
		r->spec = calloc(n, sizeof(*r->spec));
		r->devs = calloc(n, sizeof(*r->devs));
		r->ok = calloc(n, sizeof(*r->ok));
		r->health = calloc(n, sizeof(*r->health));
	}
	if (!r || !r->spec || !r->devs || !r->ok || !r->health) {
		rows_free(r);
		return;
	}
	for (size_t i = 0; i < n; i++) /* never a drive a job works on */
		if (!tui_task_for(m, specs[i]))
			snprintf(r->spec[k++], sizeof(r->spec[0]), "%s", specs[i]);
	r->n = k;
	ctx_init_copy(&r->ctx, m->ctx);
	if (!k || !tui_bg_start(m, "reading the drives' new state", rows_job, r, rows_done, &err))
		rows_free(r);
}

int tui_model_refresh(struct tui_model *m)
{
	struct ss_error err = { 0 };
	struct scan *s;

	if (m->ntasks || m->scan) {
		/* never talk to a drive a job is working on, and one scan at a
		 * time: once they have ended */
		m->rescan_pending = true;
		return 0;
	}
	m->rescan_pending = false;
	s = calloc(1, sizeof(*s));
	if (!s) {
		tui_status(m, "rescan: out of memory");
		return -ENOMEM;
	}
	ctx_init_copy(&s->ctx, m->ctx);
	m->scan = tui_bg_start(m, "scanning the drives", scan_job, s, scan_done, &err);
	if (!m->scan) {
		scan_free(s);
		tui_status(m, "rescan: %s", err.msg);
		return err.code ? err.code : -EBUSY;
	}
	return 0;
}
