/* run.c - views filled by the command-line front end: the TUI runs
 * "shortstroke <global options> <command>" as a child on a job and shows
 * what it printed. One renderer per report, shared by both front ends. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui.h"

extern char **environ;

struct view_run {
	char *argv[40];
	int nargs;
	char title[160];
	char *out;
	size_t len;
	int status;
	bool stopped;		/* cancelled: the child was stopped */
};

static void view_run_free(struct view_run *v)
{
	for (int i = 0; i < v->nargs; i++)
		free(v->argv[i]);
	free(v->out);
	free(v);
}

static int view_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct view_run *v = arg;
	posix_spawn_file_actions_t fa;
	int pipefd[2], rc;
	pid_t pid;
	char buf[4096];
	ssize_t n;

	progress_report(sink, 0, "running", -1);
	if (pipe2(pipefd, O_CLOEXEC))
		return ss_error_set(err, -errno, "pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, v->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc) {
		close(pipefd[0]);
		return ss_error_set(err, -rc, "cannot run %s: %s", v->argv[0], strerror(rc));
	}
	for (;;) {
		struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
		char *o;

		if (progress_cancelled(sink)) {
			/* the abort key, or quitting: stop the child */
			kill(pid, SIGTERM);
			v->stopped = true;
			break;
		}
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = read(pipefd[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		o = realloc(v->out, v->len + (size_t)n + 1);
		if (!o)
			break;
		v->out = o;
		memcpy(v->out + v->len, buf, (size_t)n);
		v->len += (size_t)n;
		v->out[v->len] = '\0';
	}
	close(pipefd[0]);
	waitpid(pid, &v->status, 0);
	return 0;
}

static void view_finish(struct tui_model *m, struct tui_task *t, int rc,
			const struct ss_error *err)
{
	struct view_run *v = t->arg;

	if (rc)
		tui_alert(m, v->title, "%s", err->msg);
	else if (v->stopped)
		tui_status(m, "%s: stopped", t->spec);
	else
		tui_pager_open(m, v->title, v->out ? v->out : "(no output)");
	view_run_free(v);
	m->rescan_pending = true;
}

static void add(struct view_run *v, const char *a)
{
	if (v->nargs < (int)(sizeof(v->argv) / sizeof(v->argv[0])) - 1)
		v->argv[v->nargs++] = strdup(a);
}

int tui_run_view(struct tui_model *m, const char *spec, const char *title,
		 const char *const *args)
{
	struct view_run *v = calloc(1, sizeof(*v));
	const struct ss_ctx *c = m->ctx;
	int rc;

	if (!v)
		return -ENOMEM;
	snprintf(v->title, sizeof(v->title), "%s", title);
	add(v, "shortstroke");
	if (c->demo)
		add(v, "--demo");
	if (c->rig_file) {
		add(v, "--rig");
		add(v, c->rig_file);
	}
	if (c->state_dir) {
		add(v, "--state-dir");
		add(v, c->state_dir);
	}
	if (c->sysroot) {
		add(v, "--sysroot");
		add(v, c->sysroot);
	}
	if (c->protect_file) {
		add(v, "--protect-file");
		add(v, c->protect_file);
	}
	for (const char *const *a = args; *a; a++)
		add(v, *a);
	rc = tui_task_start(m, spec, "view", view_job, v, view_finish);
	if (rc)
		view_run_free(v);
	return rc;
}
