/* error.h - the error struct every library function fills in. */
#ifndef SHORTSTROKE_ERROR_H
#define SHORTSTROKE_ERROR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Library functions return 0 or a negative errno-style code, and put a
 * sentence a person can act on into a struct ss_error the caller passes.
 * Library code never prints and never exits; only front ends do.
 * A NULL error pointer is allowed: the message is then dropped.
 */
struct ss_error {
	int code;   /* negative errno, 0 when no error */
	bool usage; /* about what the user typed (a name, a size, a
				   file named), not about what a drive did */
	/* What the error is about, a device as the user named it ("sim:h1"),
	 * once ss_error_subject named it; msg then starts with "subject: ". */
	char subject[128];
	char msg[512];
};

/* Set code and message (printf-style); returns code so callers can
 * write `return ss_error_set(err, -EINVAL, "...")`. Clears usage: an
 * errno says nothing about who is at fault, a drive can answer -EINVAL. */
int ss_error_set(struct ss_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same, for input the user gave that is wrong (an unknown device, a
 * size beyond the disk, a malformed file they named): marks err->usage,
 * which front ends turn into the usage exit code. Set where the input is
 * checked, never inferred from the errno later. */
int ss_error_usage(struct ss_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* -ENOMEM and "out of memory". */
int ss_error_nomem(struct ss_error *err);

/*
 * Name the error's subject (the device it is about) once: msg becomes
 * "subject: msg" and subject is kept, unless the error has its subject
 * already (a layer below named it: the innermost layer that knew the device
 * wins) or its sentence starts with "subject: " (set so by a layer that
 * writes the device into its sentences: then only recorded). A front end
 * calls it for every error of a device it prints, and never prints
 * "sim:h1: sim:h1: ...". Returns err->code (0 for NULL).
 */
int ss_error_subject(struct ss_error *err, const char *subject);

/* The sentence without its "subject: " (for a line under the subject's own
 * heading): msg itself when no subject was named. */
const char *ss_error_bare(const struct ss_error *err);

/* Mark an error already set as the user's (a parser of a file they named
 * reports through ss_error_set). Returns err->code (or 0 for NULL). */
int ss_error_mark_usage(struct ss_error *err);

/* Prefix an existing message: "sim:sas0: " + old message. Returns code. */
int ss_error_prefix(struct ss_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void ss_error_clear(struct ss_error *err);

/* Control characters (bytes below 0x20, and 0x7f) in text a user typed: a
 * name holding a newline printed in a message could forge a line of output.
 * ss_text_control: the first one in s, or NULL. ss_text_escape: s with each
 * written as \n, \r, \t or \xHH into buf (cut to len); returns buf. */
const char *ss_text_control(const char *s);
const char *ss_text_escape(const char *s, char *buf, size_t len);

/* The sentence for what getopt_long() returned on a bad option, for a
 * program that turned getopt's own message off (opterr = 0) and starts its
 * option string with ':'. c is '?' (unknown option) or ':' (missing value),
 * opt is getopt's optopt, word is argv[optind - 1]. Sets -EINVAL. */
int ss_error_getopt(struct ss_error *err, int c, int opt, const char *word);

#endif
