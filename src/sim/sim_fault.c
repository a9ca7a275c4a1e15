/* sim_fault.c - fault specs: "abort:f9:2", "medium-error:1000-1999", ...
 * (docs/simulator.md lists them). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_priv.h"

/* Whole-string unsigned decimal (or hex when hex) number. */
static int parse_u64(const char *s, size_t n, bool hex, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = hex ? 16 : 10;
	size_t i;

	if (n == 0 || n > 20)
		return -1;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		unsigned dv;

		if (ch >= '0' && ch <= '9')
			dv = (unsigned)(ch - '0');
		else if (hex && ch >= 'a' && ch <= 'f')
			dv = (unsigned)(ch - 'a' + 10);
		else if (hex && ch >= 'A' && ch <= 'F')
			dv = (unsigned)(ch - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - dv) / base)
			return -1;
		v = v * base + dv;
	}
	*out = v;
	return 0;
}

__attribute__((format(printf, 3, 4))) static int fail(char *msg, size_t msglen, const char *fmt,
						      ...)
{
	va_list ap;

	if (msg && msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The length of arg up to its first colon (*colon: it, or NULL). */
static size_t up_to_colon(const char *arg, const char **colon)
{
	*colon = strchr(arg, ':');
	return *colon ? (size_t)(*colon - arg) : strlen(arg);
}

/* delay:<ms>[:<opcode-hex>]: the answer comes ms of real time later (to every
 * command, or to those of the opcode, matched as abort matches it) */
static int parse_delay(const char *spec, const char *arg, struct sim_fault *f, char *msg,
		       size_t msglen)
{
	const char *colon = arg ? strchr(arg, ':') : NULL;
	size_t n = colon ? (size_t)(colon - arg) : arg ? strlen(arg) : 0;
	uint64_t a, op;

	if (!arg || parse_u64(arg, n, false, &a) || a == 0 || a > 600000)
		return fail(msg, msglen,
			    "fault \"%s\": expected delay:<ms 1-600000>[:<opcode-hex>]", spec);
	f->delay_ms = (unsigned)a;
	f->any_op = !colon;
	if (colon) {
		const char *o = colon + 1;

		if (!strncmp(o, "0x", 2) || !strncmp(o, "0X", 2))
			o += 2;
		if (strlen(o) > 2 || parse_u64(o, strlen(o), true, &op))
			return fail(msg, msglen, "fault \"%s\": opcode must be one hex byte", spec);
		f->opcode = (uint8_t)op;
	}
	return 0;
}

/* Each fault's parser: spec the whole spec (for messages), arg what follows
 * the name's colon (NULL: none); f->kind is set already. */
typedef int (*fault_parse_fn)(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			      size_t msglen);

static int parse_abort(const char *spec, const char *arg, struct sim_fault *f, char *msg,
		       size_t msglen)
{
	const char *colon;
	uint64_t a, b;
	size_t n;

	f->count = -1;
	if (!arg)
		return fail(msg, msglen, "fault \"%s\": expected abort:<opcode-hex>[:count]", spec);
	n = up_to_colon(arg, &colon);
	if (n > 2 && arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X')) {
		arg += 2;
		n -= 2;
	}
	if (n > 2 || parse_u64(arg, n, true, &a))
		return fail(msg, msglen, "fault \"%s\": opcode must be one hex byte", spec);
	f->opcode = (uint8_t)a;
	if (colon) {
		if (parse_u64(colon + 1, strlen(colon + 1), false, &b) || b == 0 || b > 1000000000)
			return fail(msg, msglen, "fault \"%s\": count must be a positive integer",
				    spec);
		f->count = (int64_t)b;
	}
	return 0;
}

static int parse_medium_error(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			      size_t msglen)
{
	const char *dash;
	uint64_t a, b;
	size_t n;

	if (!arg)
		return fail(msg, msglen, "fault \"%s\": expected medium-error:<lba>[-<lba>]", spec);
	dash = strchr(arg, '-');
	n = dash ? (size_t)(dash - arg) : strlen(arg);
	if (parse_u64(arg, n, false, &a))
		return fail(msg, msglen, "fault \"%s\": LBA must be a decimal number", spec);
	b = a;
	if (dash && parse_u64(dash + 1, strlen(dash + 1), false, &b))
		return fail(msg, msglen, "fault \"%s\": LBA must be a decimal number", spec);
	if (b < a)
		return fail(msg, msglen, "fault \"%s\": range ends before it starts", spec);
	f->lba_first = a;
	f->lba_last = b;
	return 0;
}

static int parse_vanish_after(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			      size_t msglen)
{
	uint64_t a;

	if (!arg || parse_u64(arg, strlen(arg), false, &a) || a > 1000000000000ULL)
		return fail(msg, msglen, "fault \"%s\": expected vanish-after:<n>", spec);
	f->count = (int64_t)a;
	return 0;
}

static int parse_format_power_loss(const char *spec, const char *arg, struct sim_fault *f,
				   char *msg, size_t msglen)
{
	uint64_t a;

	f->percent = 50;
	if (arg) {
		if (parse_u64(arg, strlen(arg), false, &a) || a > 99)
			return fail(msg, msglen,
				    "fault \"%s\": expected format-power-loss[:<percent 0-99>]",
				    spec);
		f->percent = (unsigned)a;
	}
	return 0;
}

static int parse_slow(const char *spec, const char *arg, struct sim_fault *f, char *msg,
		      size_t msglen)
{
	char *end = NULL;
	double v;

	if (!arg || !*arg)
		return fail(msg, msglen, "fault \"%s\": expected slow:<factor>", spec);
	v = strtod(arg, &end);
	if (!end || *end || !isfinite(v) || v < 1.0 || v > 1e6)
		return fail(msg, msglen, "fault \"%s\": factor must be a number from 1 to 1e6",
			    spec);
	f->factor = v;
	return 0;
}

static int parse_smart_degrade(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			       size_t msglen)
{
	const char *colon;
	uint64_t a, b = 0;
	size_t n;

	if (!arg)
		return fail(msg, msglen,
			    "fault \"%s\": expected smart-degrade:<reallocated>[:<pending>]", spec);
	n = up_to_colon(arg, &colon);
	if (parse_u64(arg, n, false, &a) || a > 0xffffffffULL ||
	    (colon && (parse_u64(colon + 1, strlen(colon + 1), false, &b) || b > 0xffffffffULL)))
		return fail(msg, msglen,
			    "fault \"%s\": counts must be decimal numbers up to 4294967295", spec);
	f->reallocated = a;
	f->pending = colon ? b : 0;
	return 0;
}

static int parse_selftest_fail(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			       size_t msglen)
{
	uint64_t a;

	if (!arg || parse_u64(arg, strlen(arg), false, &a))
		return fail(msg, msglen, "fault \"%s\": expected selftest-fail:<lba>", spec);
	f->lba_first = a;
	return 0;
}

static int parse_slow_block(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			    size_t msglen)
{
	const char *c2 = arg ? strrchr(arg, ':') : NULL, *dash;
	char *end = NULL;
	uint64_t a, b = 0;
	double ms;
	size_t n;

	if (!arg || !c2)
		return fail(msg, msglen, "fault \"%s\": expected slow-block:<lba>[-<lba>]:<ms>",
			    spec);
	dash = memchr(arg, '-', (size_t)(c2 - arg));
	n = dash ? (size_t)(dash - arg) : (size_t)(c2 - arg);
	if (parse_u64(arg, n, false, &a) ||
	    (dash && parse_u64(dash + 1, (size_t)(c2 - dash - 1), false, &b)))
		return fail(msg, msglen, "fault \"%s\": LBA must be a decimal number", spec);
	if (!dash)
		b = a;
	if (b < a)
		return fail(msg, msglen, "fault \"%s\": range ends before it starts", spec);
	ms = strtod(c2 + 1, &end);
	if (!c2[1] || !end || *end || !isfinite(ms) || ms <= 0 || ms > 600000)
		return fail(msg, msglen,
			    "fault \"%s\": the delay must be a number of ms above 0 and at most "
			    "600000",
			    spec);
	f->lba_first = a;
	f->lba_last = b;
	f->extra_ms = ms;
	return 0;
}

static int parse_weak_head(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			   size_t msglen)
{
	const char *colon;
	uint64_t a, b = 0;
	size_t n;

	f->percent = 60;
	if (!arg)
		return fail(msg, msglen, "fault \"%s\": expected weak-head:<head>[:<rate %%>]",
			    spec);
	n = up_to_colon(arg, &colon);
	if (parse_u64(arg, n, false, &a) || a > 31)
		return fail(msg, msglen, "fault \"%s\": the head is a number from 0 to 31", spec);
	if (colon && (parse_u64(colon + 1, strlen(colon + 1), false, &b) || b < 5 || b > 99))
		return fail(
		    msg, msglen,
		    "fault \"%s\": the weak surface's rate is a percent of the others' from "
		    "5 to 99",
		    spec);
	f->head = (unsigned)a;
	if (colon)
		f->percent = (unsigned)b;
	return 0;
}

static int parse_reject(const char *spec, const char *arg, struct sim_fault *f, char *msg,
			size_t msglen)
{
	uint64_t a;

	if (arg && (!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2)))
		arg += 2;
	if (!arg || strlen(arg) > 2 || parse_u64(arg, strlen(arg), true, &a))
		return fail(msg, msglen, "fault \"%s\": expected reject:<opcode-hex>", spec);
	f->opcode = (uint8_t)a;
	return 0;
}

/* The faults by name, in the order the unknown-fault message lists them;
 * parse NULL: the fault takes no argument (a spec with one is unknown). */
static const struct {
	const char *name;
	enum sim_fault_kind kind;
	fault_parse_fn parse;
} faults[] = {
	{ "abort", SIM_FAULT_ABORT, parse_abort },
	{ "ignore-mode-select", SIM_FAULT_IGNORE_MODE_SELECT, NULL },
	{ "medium-error", SIM_FAULT_MEDIUM_ERROR, parse_medium_error },
	{ "vanish-after", SIM_FAULT_VANISH_AFTER, parse_vanish_after },
	{ "format-power-loss", SIM_FAULT_FORMAT_POWER_LOSS, parse_format_power_loss },
	{ "frozen", SIM_FAULT_FROZEN, NULL },
	{ "slow", SIM_FAULT_SLOW, parse_slow },
	{ "slow-block", SIM_FAULT_SLOW_BLOCK, parse_slow_block },
	{ "weak-head", SIM_FAULT_WEAK_HEAD, parse_weak_head },
	{ "smart-degrade", SIM_FAULT_SMART_DEGRADE, parse_smart_degrade },
	{ "smart-fail", SIM_FAULT_SMART_FAIL, NULL },
	{ "selftest-fail", SIM_FAULT_SELFTEST_FAIL, parse_selftest_fail },
	{ "no-smart", SIM_FAULT_NO_SMART, NULL },
	{ "delay", SIM_FAULT_DELAY, parse_delay },
	{ "reject", SIM_FAULT_REJECT, parse_reject },
	{ "drop-registers", SIM_FAULT_DROP_REGISTERS, NULL },
	{ "drop-mode-select", SIM_FAULT_DROP_MODE_SELECT, NULL },
};
#define N_FAULTS (sizeof(faults) / sizeof(faults[0]))

const char *sim_fault_name_at(size_t k)
{
	return k < N_FAULTS ? faults[k].name : NULL;
}

int sim_fault_parse(const char *spec, struct sim_fault *f, char *msg, size_t msglen)
{
	const char *colon, *arg;
	char names[256];
	size_t n, off = 0;

	memset(f, 0, sizeof(*f));
	if (!spec || !*spec)
		return fail(msg, msglen, "empty fault spec%s", "");
	if (strlen(spec) > 100)
		return fail(msg, msglen, "fault spec too long%s", "");
	colon = strchr(spec, ':');
	n = colon ? (size_t)(colon - spec) : strlen(spec);
	arg = colon ? colon + 1 : NULL;
	for (size_t k = 0; k < N_FAULTS; k++) {
		if (strlen(faults[k].name) != n || strncmp(spec, faults[k].name, n))
			continue;
		if (!faults[k].parse && arg)
			break;
		f->kind = faults[k].kind;
		return faults[k].parse ? faults[k].parse(spec, arg, f, msg, msglen) : 0;
	}
	names[0] = '\0';
	for (size_t k = 0; k < N_FAULTS && off < sizeof(names); k++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", k ? ", " : "",
					faults[k].name);
	return fail(msg, msglen, "unknown fault \"%s\" (%s)", spec, names);
}

void sim_fault_format(const struct sim_fault *f, char *buf, size_t len)
{
	switch (f->kind) {
	case SIM_FAULT_ABORT:
		if (f->count < 0)
			snprintf(buf, len, "abort:%02x", f->opcode);
		else
			snprintf(buf, len, "abort:%02x:%" PRId64, f->opcode, f->count);
		break;
	case SIM_FAULT_IGNORE_MODE_SELECT:
		snprintf(buf, len, "ignore-mode-select");
		break;
	case SIM_FAULT_MEDIUM_ERROR:
		if (f->lba_first == f->lba_last)
			snprintf(buf, len, "medium-error:%" PRIu64, f->lba_first);
		else
			snprintf(buf, len, "medium-error:%" PRIu64 "-%" PRIu64, f->lba_first,
				 f->lba_last);
		break;
	case SIM_FAULT_VANISH_AFTER:
		snprintf(buf, len, "vanish-after:%" PRId64, f->count);
		break;
	case SIM_FAULT_FORMAT_POWER_LOSS:
		snprintf(buf, len, "format-power-loss:%u", f->percent);
		break;
	case SIM_FAULT_FROZEN:
		snprintf(buf, len, "frozen");
		break;
	case SIM_FAULT_SLOW:
		snprintf(buf, len, "slow:%.17g", f->factor);
		break;
	case SIM_FAULT_SMART_DEGRADE:
		snprintf(buf, len, "smart-degrade:%" PRIu64 ":%" PRIu64, f->reallocated,
			 f->pending);
		break;
	case SIM_FAULT_SMART_FAIL:
		snprintf(buf, len, "smart-fail");
		break;
	case SIM_FAULT_SELFTEST_FAIL:
		snprintf(buf, len, "selftest-fail:%" PRIu64, f->lba_first);
		break;
	case SIM_FAULT_NO_SMART:
		snprintf(buf, len, "no-smart");
		break;
	case SIM_FAULT_WEAK_HEAD:
		snprintf(buf, len, "weak-head:%u:%u", f->head, f->percent);
		break;
	case SIM_FAULT_SLOW_BLOCK:
		if (f->lba_first == f->lba_last)
			snprintf(buf, len, "slow-block:%" PRIu64 ":%.17g", f->lba_first,
				 f->extra_ms);
		else
			snprintf(buf, len, "slow-block:%" PRIu64 "-%" PRIu64 ":%.17g", f->lba_first,
				 f->lba_last, f->extra_ms);
		break;
	case SIM_FAULT_DELAY:
		if (f->any_op)
			snprintf(buf, len, "delay:%u", f->delay_ms);
		else
			snprintf(buf, len, "delay:%u:%02x", f->delay_ms, f->opcode);
		break;
	case SIM_FAULT_REJECT:
		snprintf(buf, len, "reject:%02x", f->opcode);
		break;
	case SIM_FAULT_DROP_REGISTERS:
		snprintf(buf, len, "drop-registers");
		break;
	case SIM_FAULT_DROP_MODE_SELECT:
		snprintf(buf, len, "drop-mode-select");
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
}

int sim_fault_add(struct sim_fault *arr, unsigned *n, const struct sim_fault *f)
{
	if (*n >= SIM_MAX_FAULTS)
		return -ENOSPC;
	arr[(*n)++] = *f;
	return 0;
}
