/* util.c - messages and exit codes shared by the commands. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "shortstroke/error.h"

/* One message on one line: what a user typed into it (a device name, a
 * serial) cannot start a line of its own with a newline, nor move the
 * cursor or recolour the terminal. */
__attribute__((format(printf, 1, 0))) static void put_escaped(const char *fmt, va_list ap)
{
	char text[2048], esc[4096];

	vsnprintf(text, sizeof(text), fmt, ap);
	fputs(ss_text_escape(text, esc, sizeof(esc)), stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("shortstroke: ", stderr);
	va_start(ap, fmt);
	put_escaped(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_error_named(const char *dev, struct ss_error *err)
{
	ss_error_subject(err, dev);
	cli_error("%s", err->msg);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("shortstroke: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	put_escaped(fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'shortstroke %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

int cli_check_names(struct ss_ctx *ctx, const char *cmd, char *const *names, int n)
{
	int code = EXIT_DONE;

	for (int i = 0; i < n; i++) {
		struct ss_error err = { 0 };

		if (device_lookup(ctx, names[i], &err) && err.usage) {
			cli_error("%s: %s", cmd, err.msg);
			code = EXIT_USAGE;
		}
	}
	return code;
}

int cli_option_once(const char *cmd, const char **slot, const char *opt, const char *value)
{
	if (*slot)
		return cli_usage_error(cmd, "%s given twice ('%s', then '%s'): it takes one value",
				       opt, *slot, value);
	*slot = value;
	return EXIT_DONE;
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
	struct ss_error err;

	ss_error_getopt(&err, c, optopt, optind > 0 ? argv[optind - 1] : "");
	return cli_usage_error(cmd, "%s", err.msg);
}

int cli_dash_n(const char *cmd)
{
	return cli_usage_error(cmd,
			       "-n is --noheadings (as in lsblk), which %s has none of; a dry "
			       "run is --dry-run, spelled out. Nothing was done",
			       cmd);
}

int cli_exit_code(int rc, const struct ss_error *err)
{
	if (rc == 0)
		return EXIT_DONE;
	if (rc == -EPERM)
		return EXIT_REFUSED;
	/* only what the user typed is a usage error: the code that checked the
	 * input said so; an errno from a drive (-ENODEV for one that vanished,
	 * -EINVAL, -ENOTSUP for a command it refused) is a failure */
	if (err && err->usage)
		return EXIT_USAGE;
	return EXIT_FAILED;
}

void cli_print_wrapped(FILE *f, const char *s, int width, int at, int ind)
{
	int in = at;
	bool first = true;

	while (*s) {
		int room = width - in > 10 ? width - in : 10;
		int cut = (int)strlen(s);

		if (cut > room) {
			for (cut = room; cut > 0 && s[cut] != ' '; cut--)
				;
			if (!cut)
				cut = room;
		}
		fprintf(f, "%*s%.*s\n", first ? 0 : in, "", cut, s);
		s += cut;
		while (*s == ' ')
			s++;
		in = ind;
		first = false;
	}
}
