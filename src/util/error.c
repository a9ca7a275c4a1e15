#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shortstroke/error.h"

__attribute__((format(printf, 4, 0))) static int error_vset(struct ss_error *err, int code,
							    bool usage, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	err->usage = usage;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return code;
}

int ss_error_set(struct ss_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, code, false, fmt, ap);
	va_end(ap);
	return code;
}

int ss_error_usage(struct ss_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, code, true, fmt, ap);
	va_end(ap);
	return code;
}

int ss_error_mark_usage(struct ss_error *err)
{
	if (!err)
		return 0;
	err->usage = true;
	return err->code;
}

int ss_error_prefix(struct ss_error *err, const char *fmt, ...)
{
	char pre[256], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s%s", pre, old);
	return err->code;
}

int ss_error_getopt(struct ss_error *err, int c, int opt, const char *word)
{
	const char *eq = strchr(word, '=');

	if (c == ':')
		return ss_error_set(err, -EINVAL, "option '%s' needs a value", word);
	if (opt && !strncmp(word, "--", 2) && eq)
		return ss_error_set(err, -EINVAL, "option '%.*s' takes no value", (int)(eq - word),
				    word);
	if (opt > ' ' && opt < 0x7f)
		return ss_error_set(err, -EINVAL, "unknown option '-%c'", opt);
	return ss_error_set(err, -EINVAL, "unknown option '%s'", word);
}

void ss_error_clear(struct ss_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->usage = false;
	err->msg[0] = '\0';
}
