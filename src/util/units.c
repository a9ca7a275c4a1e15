#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shortstroke/units.h"

int u64_parse(const char *text, uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* digits only: no sign, space, 0x or a leading 0 read as octal */
	if (!text || !*text || text[strspn(text, "0123456789")])
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return errno ? -errno : -EINVAL;
	*out = v;
	return 0;
}

int decimal_parse(const char *text, double *out, const char **rest)
{
	size_t whole, frac = 0;
	char *end;
	double v;

	if (!text)
		return -EINVAL;
	whole = strspn(text, "0123456789");
	if (text[whole] == '.')
		frac = strspn(text + whole + 1, "0123456789");
	if (whole + frac == 0)
		return -EINVAL; /* also "0x10", "inf", "-1", " 1", "1e3" read as 1 */
	errno = 0;
	v = strtod(text, &end);
	if (errno || !isfinite(v) || end != text + whole + (text[whole] == '.' ? 1 + frac : 0))
		return -EINVAL;
	*out = v;
	if (rest)
		*rest = end;
	else if (*end)
		return -EINVAL;
	return 0;
}

static int unit_multiplier(const char *u, uint64_t *mult)
{
	static const char prefixes[] = "KMGTP";
	const char *p;
	uint64_t base;
	int exp;

	if (!*u) {
		*mult = 0; /* no unit */
		return 0;
	}
	if (!strcasecmp(u, "B")) {
		*mult = 1;
		return 0;
	}
	p = strchr(prefixes, toupper((unsigned char)u[0]));
	if (!p || !u[0])
		return -EINVAL;
	exp = (int)(p - prefixes) + 1;
	u++;
	/* util-linux convention: "G" and "GiB" are 2^30, "GB" is 10^9 */
	if (!strcasecmp(u, "B"))
		base = 1000;
	else if (!*u || !strcmp(u, "i") || !strcmp(u, "iB"))
		base = 1024;
	else
		return -EINVAL;
	*mult = 1;
	while (exp--)
		*mult *= base;
	return 0;
}

int size_parse(const char *text, struct size_spec *out, struct ss_error *err)
{
	char num[64], *end;
	const char *unit;
	uint64_t mult;
	double v;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!text || !*text)
		return ss_error_set(err, -EINVAL, "empty size");
	n = strspn(text, "0123456789.");
	if (n == 0 || n >= sizeof(num))
		return ss_error_set(err, -EINVAL,
				    "invalid size '%s': expected a number with an optional unit "
				    "(44G, 41GiB, 10%%) or a block count",
				    text);
	memcpy(num, text, n);
	num[n] = '\0';
	unit = text + n;
	errno = 0;
	v = strtod(num, &end);
	if (errno || *end || !isfinite(v) || strpbrk(unit, "0123456789"))
		/* a digit after the unit's first letter: "0x10G", "1e3G", "1,5G" */
		return ss_error_set(
		    err, -EINVAL,
		    "invalid size '%s': the number cannot be parsed (decimal digits "
		    "and a point, then a unit: 44G, 41GiB, 10%%)",
		    text);
	if (v <= 0)
		return ss_error_set(err, -EINVAL, "invalid size '%s': must be greater than zero",
				    text);
	if (!strcmp(unit, "%")) {
		if (v > 100)
			return ss_error_set(
			    err, -EINVAL, "invalid size '%s': a percentage is at most 100%%", text);
		out->kind = SIZE_PERCENT;
		out->percent = v;
		return 0;
	}
	if (unit_multiplier(unit, &mult))
		return ss_error_set(err, -EINVAL,
				    "invalid size '%s': unknown unit '%s' (KB, MB, GB, TB are "
				    "powers of 1000; K, M, G, T, KiB, GiB... powers of 1024)",
				    text, unit);
	if (mult == 0) {
		if (strchr(num, '.'))
			return ss_error_set(err, -EINVAL,
					    "invalid size '%s': a block count is a whole number",
					    text);
		if (u64_parse(num, &out->blocks))
			return ss_error_set(err, -ERANGE, "invalid size '%s': too large", text);
		out->kind = SIZE_BLOCKS;
		return 0;
	}
	if (v * (double)mult >= 18446744073709551616.0)
		return ss_error_set(err, -ERANGE, "invalid size '%s': too large", text);
	out->kind = SIZE_BYTES;
	out->bytes = (uint64_t)(v * (double)mult);
	if (out->bytes == 0)
		return ss_error_set(err, -EINVAL, "invalid size '%s': must be at least 1 byte",
				    text);
	return 0;
}

const char *size_human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
	double v = (double)bytes;
	unsigned u = 0;

	while (v >= 1000.0 && u < sizeof(units) / sizeof(units[0]) - 1) {
		v /= 1000.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v >= 100.0)
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else if (v >= 10.0)
		snprintf(buf, len, "%.1f %s", v, units[u]);
	else
		snprintf(buf, len, "%.2f %s", v, units[u]);
	return buf;
}

const char *duration_human(double s, char *buf, size_t len)
{
	long t;

	if (!isfinite(s) || s < 0)
		s = 0;
	t = lround(s);
	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
	return buf;
}
