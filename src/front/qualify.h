/* qualify.h - qualification results as both front ends show them: the
 * table of one row per disk that `qualify` opens with and the TUI's
 * results show (with the sibling outliers marked), and the HTML report's
 * page details. */
#ifndef SHORTSTROKE_FRONT_QUALIFY_H
#define SHORTSTROKE_FRONT_QUALIFY_H

#include <stddef.h>

#include "shortstroke/qualify.h"

struct table;

enum qualify_sum_col {
	QS_DEVICE,
	QS_MODEL,
	QS_SERIAL,
	QS_CHECK, /* QC_COUNT columns, one per check */
	QS_RESULT = QS_CHECK + QC_COUNT,
	QS_OUTLIER, /* slower than its siblings: by how much, and in what */
	QS_COUNT
};
#define QUALIFY_SUM_COLS                                                                           \
	"DEVICE,MODEL,SERIAL,IDENTITY,SMART,SELFTEST,SCAN,ZONES,ACCESS,SIBLINGS,RESULT"

/* The table with the columns of selection (NULL: QUALIFY_SUM_COLS). */
struct table *qualify_summary_new(const char *selection);
/* A disk's row; r NULL: it was not qualified (checks "-", FAIL). */
void qualify_summary_row(struct table *t, const char *spec, const struct drive_info *i,
			 const struct qualify_result *r);
/* Slower than its siblings by more than the threshold (its sibling check
 * FAILed): "23% slower in sequential read"; else false. */
bool qualify_outlier_text(const struct qualify_result *r, char *buf, size_t len);

/* The report's page details: generated now (UTC, into when) on this host
 * (into host, when it has a name). */
void qualify_report_meta_now(struct qualify_report_meta *m, char *when, size_t wlen, char *host,
			     size_t hlen);

#endif
