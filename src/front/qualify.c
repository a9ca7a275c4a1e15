/* qualify.c - qualification results as both front ends show them. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "qualify.h"
#include "table.h"

_Static_assert(QC_COUNT == 7, "the summary has a column for every check");
static const struct col_def sum_cols[QS_COUNT] = {
	[QS_DEVICE] = { "DEVICE", COL_STR, false, 0, 0, "the device as named" },
	[QS_MODEL] = { "MODEL", COL_STR, false, 0, 0, "model" },
	[QS_SERIAL] = { "SERIAL", COL_STR, false, 0, 0, "serial number" },
	[QS_CHECK +
	    QC_IDENTITY] = { "IDENTITY", COL_STR, false, 0, 0, "the drive identifies itself" },
	[QS_CHECK + QC_SMART] = { "SMART", COL_STR, false, 0, 0,
				  "SMART verdict, temperature, reallocated/pending sectors" },
	[QS_CHECK +
	    QC_SELFTEST] = { "SELFTEST", COL_STR, false, 0, 0, "short self-test (standard, full)" },
	[QS_CHECK +
	    QC_SCAN] = { "SCAN", COL_STR, false, 0, 0, "surface read scan: unreadable blocks" },
	[QS_CHECK +
	    QC_ZONES] = { "ZONES", COL_STR, false, 0, 0, "zone profile: sequential read rates" },
	[QS_CHECK + QC_ACCESS] = { "ACCESS", COL_STR, false, 0, 0, "access time and IOPS" },
	[QS_CHECK + QC_SIBLINGS] = { "SIBLINGS", COL_STR, false, 0, 0,
				     "not slower than the other disks of its model" },
	[QS_RESULT] = { "RESULT", COL_STR, false, 0, 0, "overall" },
	[QS_OUTLIER] = { "OUTLIER", COL_STR, false, 0, 0,
			 "slower than the other disks of its model: by how much, in what" },
};

struct table *qualify_summary_new(const char *selection)
{
	return table_new(sum_cols, QS_COUNT, QUALIFY_SUM_COLS, selection, NULL);
}

bool qualify_outlier_text(const struct qualify_result *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!r || r->check[QC_SIBLINGS].status != QUALIFY_FAIL || !r->slowdown_metric[0])
		return false;
	snprintf(buf, len, "%.0f%% slower in %s", r->slowdown_pct, r->slowdown_metric);
	return true;
}

void qualify_summary_row(struct table *t, const char *spec, const struct drive_info *i,
			 const struct qualify_result *r)
{
	char out[96];

	table_add_row(t);
	table_set_str(t, QS_DEVICE, spec);
	table_set_str(t, QS_MODEL, i->model[0] ? i->model : "-");
	table_set_str(t, QS_SERIAL, i->serial[0] ? i->serial : "-");
	for (unsigned c = 0; c < QC_COUNT; c++)
		table_set_str(t, QS_CHECK + c, r ? qualify_status_name(r->check[c].status) : "-");
	table_set_str(t, QS_RESULT, r && r->pass ? "PASS" : "FAIL");
	table_set_str(t, QS_OUTLIER, qualify_outlier_text(r, out, sizeof(out)) ? out : "-");
}

void qualify_report_meta_now(struct qualify_report_meta *m, char *when, size_t wlen, char *host,
			     size_t hlen)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(when, wlen, "%Y-%m-%d %H:%M UTC", &tm);
	m->generated = when;
	if (hlen && gethostname(host, hlen) == 0) {
		host[hlen - 1] = '\0';
		m->host = host;
	}
}
