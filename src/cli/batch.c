/* batch.c - the machinery shared by the commands that change disks. */
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include "batch.h"
#include "front/table.h"
#include "front/xalloc.h"
#include "shortstroke/capacity.h"
#include "shortstroke/io.h"
#include "shortstroke/journal.h"
#include "shortstroke/units.h"
#include "tty.h"

static struct batch_item *add_item(struct batch *b, const char *spec)
{
	struct batch_item *it;

	for (unsigned i = 0; i < b->n; i++)
		if (!strcmp(b->items[i].e.spec, spec))
			return NULL; /* named twice: once is enough */
	b->items = xrealloc(b->items, (b->n + 1) * sizeof(*b->items));
	it = &b->items[b->n++];
	memset(it, 0, sizeof(*it));
	snprintf(it->e.spec, sizeof(it->e.spec), "%s", spec);
	it->rec = record_new();
	return it;
}

struct batch_item *batch_add(struct batch *b, const char *spec)
{
	return add_item(b, spec);
}

/* Set --model or --serial (opt) to value: a usage error (the exit code) when
 * it was given already, else EXIT_DONE. */
static int batch_filter(struct batch *b, const char **slot, const char *opt, const char *value)
{
	if (ss_text_control(value))
		return cli_usage_error(b->cmd,
				       "%s '%s' holds a control character; give it "
				       "without one",
				       opt, value); /* printed escaped */
	if (*slot)
		return cli_usage_error(b->cmd,
				       "%s given twice (it takes one value); name several "
				       "disks as DEVICE arguments",
				       opt);
	*slot = value;
	return EXIT_DONE;
}

bool batch_opts_take(struct batch *b, int opt, const char *arg, int *rc)
{
	*rc = EXIT_DONE;
	switch (opt) {
	case BATCH_OPT_MODEL:
		*rc = batch_filter(b, &b->model_glob, "--model", arg);
		return true;
	case BATCH_OPT_SERIAL:
		*rc = batch_filter(b, &b->serial_filter, "--serial", arg);
		return true;
	case 'y':
		b->yes = true;
		return true;
	case 'f':
		b->force = true;
		return true;
	case 'J':
		b->json = true;
		return true;
	default:
		return false;
	}
}

int batch_collect(struct batch *b, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		add_item(b, argv[i]);
	if (b->model_glob || b->serial_filter) {
		struct ss_error err = { 0 };
		struct dev_entry *devs;
		size_t n;
		int rc = devices_list(b->ctx, &devs, &n, &err);

		if (rc) {
			cli_error("%s: %s", b->cmd, err.msg);
			return cli_exit_code(rc, &err);
		}
		for (size_t i = 0; i < n; i++) {
			if (b->model_glob && fnmatch(b->model_glob, devs[i].info.model, 0))
				continue;
			if (b->serial_filter && strcmp(b->serial_filter, devs[i].info.serial))
				continue;
			add_item(b, devs[i].spec);
		}
		free(devs);
	}
	if (b->n == 0) {
		if (b->model_glob || b->serial_filter) {
			/* a serial or model that names no disk is a bad name: exit 2 */
			cli_error("%s: no disk has %s%s%s%s%s (see 'shortstroke list')", b->cmd,
				  b->serial_filter ? "serial " : "",
				  b->serial_filter ? b->serial_filter : "",
				  b->serial_filter && b->model_glob ? " and " : "",
				  b->model_glob ? "a model matching " : "",
				  b->model_glob ? b->model_glob : "");
			return EXIT_USAGE;
		}
		return cli_usage_error(b->cmd, "name at least one device (or --model/--serial)");
	}
	return EXIT_DONE;
}

static void item_fail(struct batch_item *it, int rc, int exit_hint)
{
	it->ready = false;
	it->rc = rc ? rc : -EIO;
	it->exit_hint = exit_hint;
	drive_free(it->d);
	it->d = NULL;
}

/* A journaled change reads the journal first: one that cannot be read
 * safely (a planted link, a FIFO, a state directory others can write)
 * stops every disk before anything is opened. */
static bool journal_usable(struct batch *b)
{
	struct ss_error err = { 0 };
	int rc = journal_check(ctx_state_dir(b->ctx), &err);

	for (unsigned i = 0; rc && i < b->n; i++) {
		struct batch_item *it = &b->items[i];

		ss_error_set(&it->err, rc, "%s: %s", it->e.spec, err.msg);
		item_fail(it, rc, cli_exit_code(rc, &err));
	}
	return rc == 0;
}

void batch_open(struct batch *b)
{
	if (b->journaled && !journal_usable(b))
		return;
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		char spec[sizeof(it->e.spec)];
		int rc;

		snprintf(spec, sizeof(spec), "%s", it->e.spec);
		rc = device_open(b->ctx, spec, true, &it->d, &it->e, &it->err);
		if (rc && it->e.state != DEV_FREE && !b->force) {
			/* the safety verdict is the more important news */
			device_check_safe(&it->e, false, &it->err);
			item_fail(it, -EPERM, EXIT_REFUSED);
			continue;
		}
		if (rc) {
			item_fail(it, rc, cli_exit_code(rc, &it->err));
			continue;
		}
		rc = device_check_safe(&it->e, b->force, &it->err);
		if (rc && b->allow_unsafe && b->allow_unsafe(b, it))
			rc = 0;
		if (!rc && b->journaled)
			rc = device_check_serial(b->ctx, &it->e, b->force, &it->err);
		if (rc) {
			item_fail(it, rc, EXIT_REFUSED);
			continue;
		}
		it->ready = true;
	}
}

/* The exit code of an item that failed before it ran. */
static int item_exit(const struct batch_item *it)
{
	int code = it->exit_hint ? it->exit_hint : cli_exit_code(it->rc, &it->err);

	return code == EXIT_DONE ? EXIT_FAILED : code;
}

/* A disk named twice would get two jobs at once, the second refused by the
 * first one's lock as if another process held it: a usage error instead. */
static void refuse_named_twice(struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];

		for (unsigned k = 0; k < i && it->ready; k++) {
			const struct dev_entry *first = &b->items[k].e;

			if (!device_named_twice(first, &it->e, &it->err))
				continue;
			item_fail(it, -EINVAL, EXIT_USAGE);
		}
	}
}

bool batch_check_all(struct batch *b)
{
	unsigned bad = 0;
	int code = EXIT_DONE;

	refuse_named_twice(b);
	for (unsigned i = 0; i < b->n; i++) {
		const struct batch_item *it = &b->items[i];
		int c;

		if (it->ready)
			continue;
		bad++;
		c = item_exit(it);
		if (c == EXIT_REFUSED || code == EXIT_DONE ||
		    (c == EXIT_USAGE && code != EXIT_REFUSED))
			code = c;
	}
	if (!bad)
		return true;
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];

		if (!it->ready)
			continue;
		ss_error_set(&it->err, -ECANCELED,
			     "%s: nothing sent: %u of the %u disks named failed the checks, and "
			     "a batch changes no disk until every one passes",
			     it->e.spec, bad, b->n);
		item_fail(it, -ECANCELED, code);
	}
	b->exit_code = code;
	return false;
}

static bool is_block_device(const char *path)
{
	struct stat st;

	return path[0] == '/' && stat(path, &st) == 0 && S_ISBLK(st.st_mode);
}

int batch_open_reading(struct batch *b, struct batch_item *it, bool *raw, struct io_dev **io)
{
	char spec[sizeof(it->e.spec)];
	int rc;

	*raw = false;
	snprintf(spec, sizeof(spec), "%s", it->e.spec);
	rc = device_open(b->ctx, spec, false, &it->d, &it->e, &it->err);
	if (rc == -EOPNOTSUPP && (is_block_device(spec) || it->e.volume)) {
		bool volume = it->e.volume;

		memset(&it->e, 0, sizeof(it->e));
		snprintf(it->e.spec, sizeof(it->e.spec), "%s", spec);
		snprintf(it->e.node, sizeof(it->e.node), "%s", spec);
		it->e.volume = volume;
		ss_error_clear(&it->err);
		*raw = true;
		rc = 0;
	}
	if (!rc && io) {
		rc = io_dev_open_name(it->e.node, ctx_sources(b->ctx), false, io, &it->err);
		if (rc)
			ss_error_subject(&it->err, it->e.spec);
	}
	if (rc) {
		it->ready = false;
		it->rc = rc;
		it->exit_hint = cli_exit_code(rc, &it->err);
		return rc;
	}
	it->ready = true;
	return 0;
}

static bool read_line(char *buf, size_t len)
{
	if (!fgets(buf, (int)len, stdin))
		return false;
	buf[strcspn(buf, "\r\n")] = '\0';
	return true;
}

int batch_confirm(struct batch *b, const char *action)
{
	bool tty = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
	unsigned ready = 0;
	char line[256];

	for (unsigned i = 0; i < b->n; i++)
		ready += b->items[i].ready;
	if (!ready)
		return EXIT_DONE;
	if (!b->json || b->dry_run) {
		for (unsigned i = 0; i < b->n; i++)
			if (b->items[i].ready)
				fprintf(b->json ? stderr : stdout, "%s: %s\n", b->items[i].e.spec,
					b->items[i].plan);
	}
	if (b->dry_run)
		return EXIT_DONE;
	/* An override of a protected or in-use disk always needs the serial
	 * typed on a terminal, --yes or not. */
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		bool override = it->ready && it->e.state != DEV_FREE;

		if (!it->ready || (b->yes && !override))
			continue;
		if (!tty) {
			if (override && b->yes)
				continue; /* scripts: --force --yes is the explicit override */
			snprintf(it->err.msg, sizeof(it->err.msg),
				 "%s: not confirmed: %s destroys data; pass --yes in scripts",
				 it->e.spec, action);
			item_fail(it, -EPERM, EXIT_REFUSED);
			continue;
		}
		fprintf(stderr,
			"%s%s will %s %s (%s%s%s). %s\n"
			"Type its serial number (%s) to go ahead, anything else to skip: ",
			override ? "WARNING: overriding the safety check: " : "", it->e.spec,
			action, it->e.info.model, it->e.info.serial, override ? "; " : "",
			override ? it->e.why : "",
			it->warning[0] ? it->warning : "All data on it may be lost.",
			it->e.info.serial);
		fflush(stderr);
		if (!read_line(line, sizeof(line)) || strcmp(line, it->e.info.serial) ||
		    !it->e.info.serial[0]) {
			snprintf(it->err.msg, sizeof(it->err.msg), "%s: not confirmed; skipped",
				 it->e.spec);
			item_fail(it, -EPERM, EXIT_REFUSED);
		}
	}
	return EXIT_DONE;
}

void batch_log(struct batch_item *it, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	it->log = xrealloc(it->log, it->log_len + (size_t)n + 2);
	memcpy(it->log + it->log_len, line, (size_t)n);
	it->log_len += (size_t)n;
	it->log[it->log_len++] = '\n';
	it->log[it->log_len] = '\0';
}

void batch_show_cmd(void *arg, const struct xcmd *c, const char *what)
{
	struct batch_item *it = arg;
	char text[3 * 32 + 256];

	cap_cmd_text(c, what, text, sizeof(text));
	batch_log(it, "  %s", text);
}

/* ---- running ------------------------------------------------------------------ */

struct run {
	struct batch *b;
	struct batch_item *it;
	job_fn fn;
};

static int run_item(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct run *r = arg;

	return r->fn(r->it, sink, err);
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void bar(char *buf, double f)
{
	unsigned fill = (unsigned)(f * 20.0 + 0.5);

	for (unsigned k = 0; k < 20; k++)
		buf[k] = k < fill ? '#' : '.';
	buf[20] = '\0';
}

/* A line per disk (bar, percent, ETA, phase) and, when b->overall is set,
 * a last line for the whole batch: the mean progress and the longest ETA. */
static void draw(struct batch *b, struct job **jobs, unsigned lines_before)
{
	double sum = 0, eta_max = 0;
	unsigned n = 0;
	bool eta_known = true, all = true;
	char eta[32], bb[24];

	tty_up(lines_before);
	for (unsigned i = 0; i < b->n; i++) {
		struct job_status st;
		double f;

		if (!jobs[i])
			continue;
		job_status(jobs[i], &st);
		f = st.done && !st.result ? 1.0 : st.fraction;
		n++;
		sum += st.done ? 1.0 : f;
		all &= st.done;
		if (st.done)
			snprintf(eta, sizeof(eta), "%s", st.result ? "failed" : "done");
		else if (st.eta_s >= 0)
			duration_human(st.eta_s, eta, sizeof(eta));
		else
			snprintf(eta, sizeof(eta), "--");
		if (!st.done && st.eta_s < 0)
			eta_known = false;
		if (!st.done && st.eta_s > eta_max)
			eta_max = st.eta_s;
		bar(bb, f);
		tty_clear_line();
		fprintf(stderr, "%-18.18s [%s] %3.0f%%  %-8s %s\n", b->items[i].e.spec, bb,
			f * 100.0, eta, st.phase);
	}
	if (b->overall) {
		bar(bb, n ? sum / n : 0);
		if (all)
			snprintf(eta, sizeof(eta), "done");
		else if (eta_known)
			duration_human(eta_max, eta, sizeof(eta));
		else
			snprintf(eta, sizeof(eta), "--");
		tty_clear_line();
		fprintf(stderr, "%-18.18s [%s] %3.0f%%  %-8s %u disk%s\n", "overall", bb,
			n ? 100.0 * sum / n : 0, eta, n, n == 1 ? "" : "s");
	}
	fflush(stderr);
}

/* A disk the batch did not start on: a signal came first. */
static void not_started(struct batch_item *it)
{
	it->rc = ss_error_set(&it->err, -ECANCELED,
			      "%s: not started: stopped by %s before anything was sent to it; "
			      "not changed",
			      it->e.spec, cli_stop_name());
}

/* SIGINT and SIGTERM go to this thread, not to the jobs': theirs are blocked
 * (a thread inherits the mask), so no command of theirs is interrupted. */
static void signals_to_jobs(bool block, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (block)
		pthread_sigmask(SIG_BLOCK, &set, old);
	else
		pthread_sigmask(SIG_SETMASK, old, NULL);
}

void batch_run(struct batch *b, job_fn fn)
{
	struct job **jobs = xcalloc(b->n, sizeof(*jobs));
	struct run *runs = xcalloc(b->n, sizeof(*runs));
	bool tty = !b->dry_run && tty_progress(), cancelled = false;
	unsigned started = 0, lines = 0;
	sigset_t old;

	/* from here, a signal stops the batch cleanly (batch_finish says how) */
	cli_stop_catch();
	signals_to_jobs(true, &old);
	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];

		if (!it->ready)
			continue;
		runs[i] = (struct run){ b, it, fn };
		if (cli_stop_signal()) {
			not_started(it);
			continue;
		}
		if (b->dry_run) {
			/* sequential: the command log reads in order */
			it->rc = fn(it, NULL, &it->err);
			continue;
		}
		if (job_start(it->e.spec, run_item, &runs[i], &jobs[i], &it->err)) {
			it->rc = it->err.code;
			continue;
		}
		started++;
	}
	signals_to_jobs(false, &old);
	while (started) {
		bool all = true;

		if (cli_stop_signal() && !cancelled) {
			/* each job sends no new command: it stops at its next step */
			for (unsigned i = 0; i < b->n; i++)
				if (jobs[i])
					job_cancel(jobs[i]);
			cancelled = true;
		}
		for (unsigned i = 0; i < b->n; i++) {
			struct job_status st;

			if (!jobs[i])
				continue;
			job_status(jobs[i], &st);
			all &= st.done;
		}
		if (tty) {
			draw(b, jobs, lines);
			lines = started + (b->overall ? 1 : 0);
		}
		if (all)
			break;
		nap_ms(tty ? 200 : 50);
	}
	/* the jobs are over: a signal now has its default effect again (what
	 * came meanwhile is kept for batch_finish) */
	cli_stop_release();
	for (unsigned i = 0; i < b->n; i++) {
		if (!jobs[i])
			continue;
		b->items[i].rc = job_wait(jobs[i], &b->items[i].err);
		job_free(jobs[i]);
	}
	free(jobs);
	free(runs);
}

int batch_finish(struct batch *b)
{
	unsigned ok = 0, failed = 0;
	int worst_fail = EXIT_DONE;
	struct record *root = record_new(), *arr = record_set_list(root, "results");

	for (unsigned i = 0; i < b->n; i++) {
		struct batch_item *it = &b->items[i];
		bool good = it->rc == 0;

		if (good)
			ok++;
		else
			failed++;
		if (!good) {
			int code = item_exit(it);

			if (worst_fail == EXIT_DONE || code == EXIT_FAILED)
				worst_fail = code;
		}
		if (b->json) {
			record_set_str(it->rec, "device", it->e.spec);
			record_set_bool(it->rec, "ok", good);
			record_set_str(it->rec, "error", good ? NULL : it->err.msg);
			if (it->log)
				record_set_str(it->rec, "commands", it->log);
			record_adopt(arr, NULL, it->rec);
			it->rec = NULL;
		} else {
			if (it->log && !b->log_after)
				fputs(it->log, stdout);
			if (good)
				printf("%s: %s\n", it->e.spec, it->result);
			else if (b->report_stdout)
				printf("%s\n", it->err.msg);
			else
				cli_error_named(it->e.spec, &it->err);
			if (it->log && b->log_after)
				fputs(it->log, stdout);
		}
	}
	if (b->json)
		record_print(root, stdout, TABLE_JSON);
	else if (b->report_stdout && failed)
		cli_error("%s: %u of the %u disks failed (see above)", b->cmd, failed, b->n);
	record_free(root);
	for (unsigned i = 0; i < b->n; i++) {
		drive_free(b->items[i].d);
		record_free(b->items[i].rec);
		free(b->items[i].log);
		free(b->items[i].op);
	}
	free(b->items);
	b->items = NULL;
	if (cli_stop_signal()) {
		/* each disk's line above says where it stands */
		cli_error("%s: stopped by %s: %u disk%s done, %u not (see each above)", b->cmd,
			  cli_stop_name(), ok, ok == 1 ? "" : "s", failed);
		return 128 + cli_stop_signal();
	}
	if (b->exit_code)
		return b->exit_code;
	if (failed == 0)
		return EXIT_DONE;
	if (ok == 0)
		return worst_fail;
	return EXIT_PARTIAL;
}
