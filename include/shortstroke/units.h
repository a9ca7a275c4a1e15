/* units.h - sizes as users write them and as we print them. */
#ifndef SHORTSTROKE_UNITS_H
#define SHORTSTROKE_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"

enum size_kind {
	SIZE_BYTES,   /* "44G", "44GB", "41GiB", "1000000000" with a unit */
	SIZE_PERCENT, /* "10%" */
	SIZE_BLOCKS,  /* a plain number: a block count */
};

struct size_spec {
	enum size_kind kind;
	uint64_t bytes;	 /* SIZE_BYTES */
	double percent;	 /* SIZE_PERCENT, 0 < p <= 100 */
	uint64_t blocks; /* SIZE_BLOCKS */
};

/*
 * Parse a size the util-linux way: "44GB" is decimal (10^9, as disk makers
 * count), "41G", "41Gi" and "41GiB" binary (2^30); K M G T P; "10%"; a bare
 * number is a block count. Zero, negative, overflow and junk are errors naming the input.
 */
int size_parse(const char *text, struct size_spec *out, struct ss_error *err);

/* Parse a plain unsigned decimal number, the whole string: digits only (no
 * sign, space, 0x hex, and a leading 0 is not octal). */
int u64_parse(const char *text, uint64_t *out);

/*
 * A decimal number at the start of text: "12", "1.5", ".5", "2." (no sign,
 * exponent, hex, inf or nan, which strtod takes). With rest, *rest points
 * past the number (a unit may follow); without it the whole string must be
 * the number. -EINVAL otherwise.
 */
int decimal_parse(const char *text, double *out, const char **rest);

/* Human size: "450 GB" (decimal, 3 significant digits) into buf. */
const char *size_human(uint64_t bytes, char *buf, size_t len);

/* Duration: "1h02m", "3m07s", "12s". */
const char *duration_human(double seconds, char *buf, size_t len);

#endif
