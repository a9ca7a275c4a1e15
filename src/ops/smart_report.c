/*
 * smart_report.c - what both halves of the SMART operations share: the
 * names of verdicts, self-test kinds and page states, the verdict rule
 * (the worst finding wins) and the self-test rule, the pretty value of an
 * attribute. smart.c (ATA) and smart_scsi.c (SCSI) build on it; it calls
 * neither.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/smart.h"

const char *smart_verdict_name(enum smart_verdict v)
{
	switch (v) {
	case SMART_PASSED:
		return "PASSED";
	case SMART_WARNING:
		return "WARNING";
	case SMART_FAILED:
		return "FAILED";
	default:
		return "UNKNOWN";
	}
}

const char *selftest_kind_name(enum selftest_kind k)
{
	switch (k) {
	case SELFTEST_SHORT:
		return "short";
	case SELFTEST_EXTENDED:
		return "extended";
	case SELFTEST_CONVEYANCE:
		return "conveyance";
	case SELFTEST_SELECTIVE:
		return "selective";
	default:
		return "other";
	}
}

const char *smart_page_state_name(enum smart_page_state s)
{
	switch (s) {
	case SMART_PAGE_OK:
		return "ok";
	case SMART_PAGE_ERROR:
		return "error";
	default:
		return "not supported";
	}
}

__attribute__((format(printf, 3, 0))) static void verdict_v(struct smart_report *r,
							    enum smart_verdict v, const char *fmt,
							    va_list ap)
{
	if (v < r->verdict || (v == r->verdict && r->reason[0]))
		return;
	r->verdict = v;
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
}

void smart_report_verdict(struct smart_report *r, enum smart_verdict v, const char *fmt, ...)
{
	va_list ap;

	if (v == SMART_WARNING)
		r->warn_other = true;
	va_start(ap, fmt);
	verdict_v(r, v, fmt, ap);
	va_end(ap);
}

void smart_report_count_warning(struct smart_report *r, const char *fmt, ...)
{
	va_list ap;

	r->warn_counts = true;
	va_start(ap, fmt);
	verdict_v(r, SMART_WARNING, fmt, ap);
	va_end(ap);
}

void smart_report_fini(struct smart_report *r)
{
	if (!r)
		return;
	free(r->attrs);
	r->attrs = NULL;
	r->nattrs = 0;
}

void smart_attr_pretty(const struct smart_attr *a, char *buf, size_t len)
{
	const char *u = a->pretty_unit;
	unsigned long long v = (unsigned long long)a->pretty;

	if (!strcmp(u, "mK"))
		snprintf(buf, len, "%.0f C", ((double)a->pretty - 273150.0) / 1000.0);
	else if (!strcmp(u, "ms") && a->pretty >= 3600000ULL)
		snprintf(buf, len, "%.1f h", (double)a->pretty / 3600000.0);
	else if (!strcmp(u, "ms") && a->pretty >= 1000ULL)
		snprintf(buf, len, "%.1f s", (double)a->pretty / 1000.0);
	else if (!strcmp(u, "?"))
		snprintf(buf, len, "%llu", (unsigned long long)sg_get_unaligned_le48(a->raw));
	else if (!strcmp(u, "%"))
		snprintf(buf, len, "%llu%%", v);
	else if (u[0])
		snprintf(buf, len, "%llu %s", v, u);
	else
		snprintf(buf, len, "%llu", v);
}

void smart_report_selftests_verdict(struct smart_report *r)
{
	bool newest = true;

	for (size_t i = 0; i < r->nselftests; i++) {
		const struct selftest_entry *e = &r->selftests[i];
		char at[48] = "";

		if (e->running)
			continue;
		if (e->failed) {
			if (e->lba_valid)
				snprintf(at, sizeof(at), " at LBA %" PRIu64, e->failing_lba);
			if (newest)
				smart_report_verdict(r, SMART_FAILED,
						     "the last self-test (%s) ended in error: %s%s",
						     selftest_kind_name(e->kind), e->result, at);
			else
				smart_report_verdict(r, SMART_WARNING,
						     "an earlier self-test (%s, at %" PRIu32
						     " power-on hours) ended in error: %s%s",
						     selftest_kind_name(e->kind), e->power_on_hours,
						     e->result, at);
			return;
		}
		newest = false;
	}
}
