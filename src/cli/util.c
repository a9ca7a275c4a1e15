/* util.c - messages and exit codes shared by the commands. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"
#include "shortstroke/error.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("shortstroke: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("shortstroke: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'shortstroke %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
	struct ss_error err;

	ss_error_getopt(&err, c, optopt, optind > 0 ? argv[optind - 1] : "");
	return cli_usage_error(cmd, "%s", err.msg);
}

int cli_exit_code(int rc)
{
	switch (rc) {
	case 0:
		return EXIT_DONE;
	case -EPERM:
		return EXIT_REFUSED;
	case -ENOENT:
	case -ENOTBLK:
	case -EINVAL:
	case -ENOTSUP:
	case -ENODEV:
		return EXIT_USAGE;
	default:
		return EXIT_FAILED;
	}
}
