/* error.h - the error struct every library function fills in. */
#ifndef SHORTSTROKE_ERROR_H
#define SHORTSTROKE_ERROR_H

#include <stddef.h>

/*
 * Library functions return 0 or a negative errno-style code, and put a
 * sentence a person can act on into a struct ss_error the caller passes.
 * Library code never prints and never exits; only front ends do.
 * A NULL error pointer is allowed: the message is then dropped.
 */
struct ss_error {
	int code;		/* negative errno, 0 when no error */
	char msg[512];
};

/* Set code and message (printf-style); returns code so callers can
 * write `return ss_error_set(err, -EINVAL, "...")`. */
int ss_error_set(struct ss_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message: "sim:sas0: " + old message. Returns code. */
int ss_error_prefix(struct ss_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void ss_error_clear(struct ss_error *err);

/* The sentence for what getopt_long() returned on a bad option, for a
 * program that turned getopt's own message off (opterr = 0) and starts its
 * option string with ':'. c is '?' (unknown option) or ':' (missing value),
 * opt is getopt's optopt, word is argv[optind - 1]. Sets -EINVAL. */
int ss_error_getopt(struct ss_error *err, int c, int opt, const char *word);

#endif
