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
	err->subject[0] = '\0';
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return code;
}

int ss_error_nomem(struct ss_error *err)
{
	return ss_error_set(err, -ENOMEM, "out of memory");
}

static bool starts_with_subject(const char *msg, const char *subject)
{
	size_t n = strlen(subject);

	return !strncmp(msg, subject, n) && msg[n] == ':' && msg[n + 1] == ' ';
}

int ss_error_subject(struct ss_error *err, const char *subject)
{
	if (!err)
		return 0;
	if (err->subject[0] || !subject || !subject[0])
		return err->code;
	snprintf(err->subject, sizeof(err->subject), "%s", subject);
	if (!starts_with_subject(err->msg, err->subject))
		ss_error_prefix(err, "%s: ", err->subject);
	return err->code;
}

const char *ss_error_bare(const struct ss_error *err)
{
	if (err->subject[0] && starts_with_subject(err->msg, err->subject))
		return err->msg + strlen(err->subject) + 2;
	return err->msg;
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

const char *ss_text_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

const char *ss_text_escape(const char *s, char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return buf;
	for (; *s && at + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		size_t n;

		if (c >= 0x20 && c != 0x7f) {
			buf[at++] = (char)c;
			continue;
		}
		n = (size_t)snprintf(esc, sizeof(esc), "%s",
				     c == '\n'	 ? "\\n"
				     : c == '\r' ? "\\r"
				     : c == '\t' ? "\\t"
						 : "");
		if (!n)
			n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
		if (at + n >= len)
			break;
		memcpy(buf + at, esc, n);
		at += n;
	}
	buf[at] = '\0';
	return buf;
}

void ss_error_clear(struct ss_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->usage = false;
	err->subject[0] = '\0';
	err->msg[0] = '\0';
}
