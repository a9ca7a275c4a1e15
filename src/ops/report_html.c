/* report_html.c - the qualification report: one self-contained HTML page
 * (inline CSS, inline SVG charts drawn here, no scripts, no external
 * resources), every text escaped, written atomically. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shortstroke/fileio.h"
#include "shortstroke/qualify.h"
#include "shortstroke/units.h"

/* ---- text ---- */

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* control characters are dropped: not valid in HTML */
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				fputc(*s, f);
			break;
		}
	}
}

static const char *status_class(enum qualify_status s)
{
	return s == QUALIFY_PASS ? "pass" : s == QUALIFY_FAIL ? "fail" : "skip";
}

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px;"
    "color:#1d2330;background:#fff;max-width:1180px}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
    "border-bottom:1px solid #d5d9e0;padding-bottom:4px}"
    "h3{font-size:14px;margin:12px 0 4px;color:#4a5468}"
    ".meta{color:#5b6577;font-size:13px;margin-bottom:16px}"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0}"
    "th,td{border:1px solid #d5d9e0;padding:4px 8px;text-align:left;vertical-align:top}"
    "th{background:#f1f3f7}"
    "td.pass,span.pass{background:#dff3e3;color:#17612b;font-weight:600}"
    "td.fail,span.fail{background:#fbe0e0;color:#9b1c1c;font-weight:600}"
    "td.skip,span.skip{background:#f3f4f6;color:#6b7280}"
    "span.pass,span.fail,span.skip{padding:2px 8px;border-radius:4px;font-size:13px}"
    ".note{font-size:13px;color:#7a4b00;background:#fff6e0;padding:4px 8px;"
    "border-radius:4px;display:inline-block;margin:4px 0}"
    ".charts{display:flex;flex-wrap:wrap;gap:12px}"
    ".chart{border:1px solid #e3e6eb;border-radius:6px;padding:6px}"
    ".chart svg{display:block}"
    "svg text{font-family:system-ui,sans-serif;font-size:11px;fill:#374151}"
    "svg .title{font-size:13px;font-weight:600;fill:#1d2330}"
    "svg .grid{stroke:#e5e7eb;stroke-width:1}"
    "svg .axis{stroke:#6b7280;stroke-width:1;fill:none}"
    "svg .line{fill:none;stroke:#2563eb;stroke-width:2}"
    "svg .bars{fill:#60a5fa;stroke:#2563eb;stroke-width:0.5}"
    "svg .dot{fill:#2563eb}svg .bad{fill:#dc2626}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "td.warn{background:#fff6e0;color:#7a4b00;font-weight:600}"
    ".swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;"
    "vertical-align:-1px}"
    "td.reason{font-size:12px;color:#4a5468;max-width:420px}"
    ".chart.wide{margin:10px 0;display:inline-block}"
    "svg .band{fill:#dcfce7}svg .median{stroke:#16a34a;stroke-dasharray:4 3;fill:none}"
    "svg .out{stroke:#dc2626;stroke-width:2}svg .slow{fill:#f97316}"
    /* printed: no chart or table split across pages, the disks one after
     * another without the screen's width limit */
    "@media print{body{margin:0;max-width:none;font-size:11px}"
    ".chart,table,.charts>div,h3{break-inside:avoid;page-break-inside:avoid}"
    "h2,h3{break-after:avoid;page-break-after:avoid}"
    ".charts{display:block}.chart{margin:6px 0}"
    "h2[id^=disk]{break-before:page;page-break-before:always}"
    "a{color:inherit;text-decoration:none}}";

/* ---- charts ---- */

#define CW 540
#define CH 250
#define ML 58
#define MR 16
#define MT 28
#define MB 42
#define PW (CW - ML - MR)
#define PH (CH - MT - MB)

static double nice_step(double range, int n)
{
	double raw = range / n, mag, f;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void svg_open(FILE *f, const char *title, const char *label)
{
	fprintf(f,
		"<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
		CW, CH, CW, CH);
	esc(f, label);
	fprintf(f, "\"><text class=\"title\" x=\"%d\" y=\"16\">", ML);
	esc(f, title);
	fputs("</text>\n", f);
}

static void svg_close(FILE *f)
{
	fputs("</svg></div>\n", f);
}

/* y axis from 0 to ymax with grid lines; returns the top value used */
static double y_axis(FILE *f, double ymax, const char *label)
{
	double step = nice_step(ymax > 0 ? ymax : 1, 5), top;

	top = ceil((ymax > 0 ? ymax : 1) / step) * step;
	for (double v = 0; v <= top + step / 2; v += step) {
		double y = MT + PH - v / top * PH;

		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", ML,
			y, ML + PW, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", ML - 5,
			y + 4, v);
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", ML, MT, ML,
		MT + PH);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ML, MT + PH,
		ML + PW, MT + PH);
	fprintf(f,
		"<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">",
		MT + PH / 2, MT + PH / 2);
	esc(f, label);
	fputs("</text>\n", f);
	return top;
}

static void x_label(FILE *f, const char *label)
{
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + PW / 2, CH - 6);
	esc(f, label);
	fputs("</text>\n", f);
}

static void chart_profile(FILE *f, const struct qualify_result *r)
{
	const struct zprofile *z = r->zp;
	double ymax = 0, top;
	unsigned good = 0;

	for (unsigned i = 0; i < z->npoints; i++) {
		if (!z->points[i].error && z->points[i].mbps > ymax)
			ymax = z->points[i].mbps;
		good += !z->points[i].error;
	}
	svg_open(f, "Zone profile: sequential read across the disk", "zone profile chart");
	top = y_axis(f, ymax * 1.05, "MB/s");
	for (int p = 0; p <= 100; p += 20) {
		double x = ML + PW * p / 100.0;

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d%%</text>", x,
			MT + PH + 15, p);
	}
	x_label(f, "position on the disk (0 % = outer edge, LBA 0)");
	if (good) {
		fputs("<polyline class=\"line\" points=\"", f);
		for (unsigned i = 0; i < z->npoints; i++) {
			double x, y;

			if (z->points[i].error)
				continue;
			x = ML +
			    PW * (double)z->points[i].lba / (double)(z->blocks ? z->blocks : 1);
			y = MT + PH - z->points[i].mbps / top * PH;
			fprintf(f, "%.1f,%.1f ", x, y);
		}
		fputs("\"/>\n", f);
	}
	for (unsigned i = 0; i < z->npoints; i++) {
		if (!z->points[i].error)
			continue;
		fprintf(f, "<circle class=\"bad\" cx=\"%.1f\" cy=\"%d\" r=\"3\"/>",
			ML + PW * (double)z->points[i].lba / (double)(z->blocks ? z->blocks : 1),
			MT + PH - 3);
	}
	svg_close(f);
}

#define HBINS 40

static void chart_latency(FILE *f, const struct io_hist *h, const char *title)
{
	double lo = log10((double)(h->min_ns ? h->min_ns : 1) / 1e6);
	double hi = log10((double)(h->max_ns ? h->max_ns : 1) / 1e6), top, bins[HBINS] = { 0 };
	double ymax = 0;

	if (hi - lo < 0.3) {
		double mid = (hi + lo) / 2;

		lo = mid - 0.15;
		hi = mid + 0.15;
	}
	lo = floor(lo * 10) / 10;
	hi = ceil(hi * 10) / 10;
	for (unsigned b = 0; b < IO_HIST_BUCKETS; b++) {
		uint64_t a, e;
		double v;
		int k;

		if (!h->bucket[b])
			continue;
		io_hist_bucket_range(b, &a, &e);
		v = log10(((double)a + (double)e) / 2 / 1e6);
		k = (int)((v - lo) / (hi - lo) * HBINS);
		if (k < 0)
			k = 0;
		if (k >= HBINS)
			k = HBINS - 1;
		bins[k] += 100.0 * (double)h->bucket[b] / (double)h->count;
	}
	for (int k = 0; k < HBINS; k++)
		if (bins[k] > ymax)
			ymax = bins[k];
	svg_open(f, title, "latency histogram chart");
	top = y_axis(f, ymax * 1.05, "% of requests");
	/* decade and half-decade ticks on the log axis */
	for (double d = floor(lo); d <= hi; d += 1) {
		static const double m[] = { 1, 2, 5 };

		for (unsigned i = 0; i < 3; i++) {
			double v = d + log10(m[i]), x;

			if (v < lo - 1e-9 || v > hi + 1e-9)
				continue;
			x = ML + PW * (v - lo) / (hi - lo);
			fprintf(
			    f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
			    x, MT, x, MT + PH);
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>", x,
				MT + PH + 15, pow(10, v));
		}
	}
	x_label(f, "latency, ms (log scale)");
	fputs("<path class=\"bars\" d=\"", f);
	for (int k = 0; k < HBINS; k++) {
		double x0 = ML + PW * (double)k / HBINS, w = (double)PW / HBINS;
		double y = MT + PH - bins[k] / top * PH;

		if (bins[k] <= 0)
			continue;
		fprintf(f, "M%.1f %dV%.1fH%.1fV%dZ", x0, MT + PH, y, x0 + w - 1, MT + PH);
	}
	fputs("\"/>\n", f);
	svg_close(f);
}

static void chart_iops(FILE *f, const struct qualify_result *r)
{
	double ymax = 0, top, lo = log2(r->qd[0]), hi = log2(r->qd[r->nqd - 1]);

	if (hi - lo < 1) {
		lo -= 0.5;
		hi += 0.5;
	}
	for (unsigned k = 0; k < r->nqd; k++)
		if (r->iops[k] > ymax)
			ymax = r->iops[k];
	svg_open(f, "Random 4 KiB read IOPS against queue depth", "IOPS against queue depth chart");
	top = y_axis(f, ymax * 1.15, "IOPS");
	x_label(f, "queue depth (log scale)");
	for (unsigned k = 0; k < r->nqd; k++) {
		double x = ML + 20 + (PW - 40) * (log2(r->qd[k]) - lo) / (hi - lo);

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%u</text>", x,
			MT + PH + 15, r->qd[k]);
	}
	fputs("<polyline class=\"line\" points=\"", f);
	for (unsigned k = 0; k < r->nqd; k++)
		fprintf(f, "%.1f,%.1f ", ML + 20 + (PW - 40) * (log2(r->qd[k]) - lo) / (hi - lo),
			MT + PH - r->iops[k] / top * PH);
	fputs("\"/>\n", f);
	for (unsigned k = 0; k < r->nqd; k++) {
		double x = ML + 20 + (PW - 40) * (log2(r->qd[k]) - lo) / (hi - lo);
		double y = MT + PH - r->iops[k] / top * PH;

		fprintf(f, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"/>", x, y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", x,
			y - 8, r->iops[k]);
	}
	svg_close(f);
}

/* The scan map, as MHDD's and Victoria's grids: the position across the
 * disk (x) against the latency class (y, fastest at the top, failed reads
 * at the bottom), each cell shaded by how many blocks fell there (log
 * scale), in those tools' colours. */
static const char *const class_fill[QUALIFY_CLASSES + 1] = {
	"#d1d5db", "#9ca3af", "#4b5563", "#16a34a", "#f97316", "#dc2626", "#7c3aed",
};

static void class_label(const struct qualify_result *r, unsigned c, char *buf, size_t len)
{
	if (c == QUALIFY_CLASSES)
		snprintf(buf, len, "failed");
	else if (c < QUALIFY_CLASS_EDGES)
		snprintf(buf, len, "< %g ms", r->scan_classes_ms[c]);
	else
		snprintf(buf, len, "\u2265 %g ms", r->scan_classes_ms[c - 1]);
}

static void chart_scan_map(FILE *f, const struct qualify_result *r)
{
	const unsigned rows = QUALIFY_CLASSES + 1;
	double cw = (double)PW / QUALIFY_MAP_BINS, rh = (double)PH / rows;
	uint32_t max = 0;

	for (unsigned b = 0; b < QUALIFY_MAP_BINS; b++)
		for (unsigned c = 0; c < rows; c++)
			if (r->scan_map[b][c] > max)
				max = r->scan_map[b][c];
	svg_open(f, "Surface scan map: blocks by latency class across the disk",
		 "surface scan map chart");
	for (unsigned c = 0; c < rows; c++) {
		char label[32];
		double y = MT + rh * c;

		class_label(r, c, label, sizeof(label));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", ML - 5,
			y + rh / 2 + 4);
		esc(f, label);
		fputs("</text>\n", f);
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", ML,
			y, ML + PW, y);
	}
	for (int p = 0; p <= 100; p += 20)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d%%</text>",
			ML + PW * p / 100.0, MT + PH + 15, p);
	x_label(f, "position on the disk (0 % = outer edge, LBA 0)");
	/* one path per class and shade: cells with blocks, darker for more */
	for (unsigned c = 0; c < rows; c++) {
		for (int shade = 1; shade <= 4; shade++) {
			bool any = false;

			for (unsigned b = 0; b < QUALIFY_MAP_BINS; b++) {
				uint32_t n = r->scan_map[b][c];
				int sh;

				if (!n)
					continue;
				sh = 1 + (int)(3.0 * log1p((double)n) / log1p((double)max) + 0.5);
				if (sh > 4)
					sh = 4;
				if (sh != shade)
					continue;
				if (!any)
					fprintf(f, "<path fill=\"%s\" fill-opacity=\"%.2f\" d=\"",
						class_fill[c], 0.25 * shade);
				any = true;
				fprintf(f, "M%.1f %.1fh%.2fv%.1fh%.2fZ", ML + cw * b,
					MT + rh * c + 1, cw, rh - 2, -cw);
			}
			if (any)
				fputs("\"/>\n", f);
		}
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ML, MT + PH,
		ML + PW, MT + PH);
	svg_close(f);
}

/* The class counts, the slowest blocks, what --remap did. */
static void scan_tables(FILE *f, const struct qualify_result *r)
{
	char label[32];

	if (!r->scan_block_bytes)
		return;
	fprintf(f,
		"<h3>Surface scan: %u KiB blocks by latency</h3>\n<table class=\"classes\"><thead>"
		"<tr>",
		r->scan_block_bytes >> 10);
	for (unsigned c = 0; c <= QUALIFY_CLASSES; c++) {
		class_label(r, c, label, sizeof(label));
		fprintf(f, "<th><span class=\"swatch\" style=\"background:%s\"></span>",
			class_fill[c]);
		esc(f, label);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody><tr>", f);
	for (unsigned c = 0; c <= QUALIFY_CLASSES; c++) {
		uint64_t n = 0;

		if (c < QUALIFY_CLASSES)
			n = r->scan_class[c];
		else
			for (unsigned k = 0; k < QE_KINDS; k++)
				n += r->scan_err[k];
		fprintf(f, "<td class=\"num%s\">%" PRIu64 "</td>",
			n && c >= QUALIFY_CLASS_EDGES - 1 ? " warn" : "", n);
	}
	fputs("</tr></tbody></table>\n<div class=\"meta\">Failed reads by kind:", f);
	for (unsigned k = 0; k < QE_KINDS; k++)
		fprintf(f, "%s %s %" PRIu64, k ? "," : "",
			qualify_err_kind_name((enum qualify_err_kind)k), r->scan_err[k]);
	fputs("</div>\n", f);
	if (r->nslowest) {
		fputs("<h3>Slowest blocks</h3>\n<table><thead><tr><th>LBA</th><th>Blocks</th>"
		      "<th>ms</th></tr></thead><tbody>\n",
		      f);
		for (unsigned i = 0; i < r->nslowest; i++)
			fprintf(f,
				"<tr><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%u</td>"
				"<td class=\"num%s\">%.1f</td></tr>\n",
				r->slowest[i].lba, r->slowest[i].blocks,
				r->slowest[i].ms >= 150 ? " warn" : "", r->slowest[i].ms);
		fputs("</tbody></table>\n", f);
	}
	if (!r->remap_ran)
		return;
	fputs("<h3>Remap (--remap)</h3>\n", f);
	if (!r->nremap) {
		fputs("<div class=\"meta\">Nothing to remap.</div>\n", f);
		return;
	}
	fputs("<table><thead><tr><th>LBA</th><th>Blocks</th><th>Before</th><th>Sent</th>"
	      "<th>After</th></tr></thead><tbody>\n",
	      f);
	for (unsigned i = 0; i < r->nremap; i++) {
		const struct qualify_remap *m = &r->remap[i];

		fprintf(f, "<tr><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%u</td><td>",
			m->lba, m->blocks);
		if (m->why == QR_UNREADABLE)
			fprintf(f, "unreadable (%s)",
				qualify_err_kind_name((enum qualify_err_kind)m->before_kind));
		else
			fprintf(f, "%.1f ms", m->before_ms);
		fputs("</td><td>", f);
		esc(f, m->action);
		if (m->rc) {
			fputs(": failed, ", f);
			esc(f, m->error);
		}
		if (m->after_ok)
			fprintf(f, "</td><td class=\"num%s\">%.1f ms</td></tr>\n",
				m->after_ms >= 150 ? " warn" : "", m->after_ms);
		else
			fprintf(f, "</td><td class=\"fail\">unreadable (%s)</td></tr>\n",
				qualify_err_kind_name((enum qualify_err_kind)m->after_kind));
	}
	fputs("</tbody></table>\n", f);
}

/* ---- the page ---- */

/* Why a disk failed, in a line: each failed check and its detail (cut),
 * or that it passed. */
static void reason(FILE *f, const struct qualify_result *r)
{
	unsigned shown = 0;

	if (r->pass) {
		fputs("all checks passed", f);
		return;
	}
	if (r->vanished)
		fputs("the disk stopped answering; ", f);
	for (unsigned c = 0; c < QC_COUNT; c++) {
		char d[132];

		if (r->check[c].status != QUALIFY_FAIL)
			continue;
		snprintf(d, sizeof(d), "%s", r->check[c].detail);
		if (strlen(r->check[c].detail) >= sizeof(d))
			memcpy(d + sizeof(d) - 4, "...", 4);
		fprintf(f, "%s<b>", shown++ ? "<br>" : "");
		esc(f, qualify_check_name((enum qualify_check)c));
		fputs("</b>: ", f);
		esc(f, d);
	}
}

/* The model's median of a figure over the disks of r's model that have it
 * (at least two), 0 when there are not two. */
static double model_median(const struct qualify_result *const *r, unsigned n, unsigned i,
			   double (*fig)(const struct qualify_result *))
{
	double v[256];
	unsigned m = 0;

	for (unsigned k = 0; k < n && m < 256; k++)
		if (!strcmp(r[k]->info.model, r[i]->info.model) && fig(r[k]) > 0)
			v[m++] = fig(r[k]);
	return m >= 2 ? qualify_median(v, m) : 0;
}

static double fig_rate(const struct qualify_result *x)
{
	return x->zp && !x->vanished ? x->zp->outer_mbps : 0;
}

static double fig_iops1(const struct qualify_result *x)
{
	return x->nqd && x->qd[0] == 1 ? x->iops[0] : 0;
}

static double fig_iops_deep(const struct qualify_result *x)
{
	return x->nqd > 1 ? x->iops[x->nqd - 1] : 0;
}

/* One chart comparing the disks: outer rate, IOPS at QD 1 and at the
 * deepest queue depth, each as a percent of its model's median, against
 * the sibling band (the slowdown allowed, sibling_slowdown_pct); below,
 * each disk's slow blocks (50 ms or more) and failed reads, log scale. */
static void chart_compare(FILE *f, const struct qualify_result *const *r, unsigned n,
			  const struct qualify_thresholds *thr)
{
	double (*figs[3])(const struct qualify_result *) = { fig_rate, fig_iops1, fig_iops_deep };
	static const char *const fig_name[4] = { "outer rate", "IOPS QD 1", "IOPS deepest QD",
						 "zone profile" };
	static const char *const fig_fill[4] = { "#2563eb", "#0d9488", "#a855f7", "#f59e0b" };
	double band = thr ? thr->sibling_slowdown_pct : 15, lo = 40, hi = 130;
	int w = 100 + (int)n * 46, h = 340, top = 44, ph = 170, sy = top + ph + 24, sh = 50;
	double slot = (double)(w - 80) / n;
	uint64_t maxslow = 1;
	bool any = false;

	if (w < 540)
		w = 540, slot = (double)(w - 80) / n;
	if (w > 1150)
		w = 1150, slot = (double)(w - 80) / n;
	for (unsigned i = 0; i < n; i++) {
		uint64_t s = r[i]->scan_class[3] + r[i]->scan_class[4] + r[i]->scan_class[5];

		for (unsigned k = 0; k < QE_KINDS; k++)
			s += r[i]->scan_err[k];
		if (s > maxslow)
			maxslow = s;
		for (unsigned m = 0; m < 3; m++)
			any = any || model_median(r, n, i, figs[m]) > 0;
	}
	fprintf(f,
		"<div class=\"chart wide\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"disks compared "
		"with their siblings\"><text class=\"title\" x=\"60\" y=\"16\">The disks "
		"against the median of their model (the band: within %g%%)</text>\n",
		w, h, w, h, band);
	/* the band and the axis, percent of the median */
	fprintf(f,
		"<rect class=\"band\" x=\"60\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"/>"
		"<path class=\"median\" d=\"M60 %.1fH%d\"/>\n",
		top + ph * (hi - 100 - band) / (hi - lo), w - 80, ph * 2 * band / (hi - lo),
		top + ph * (hi - 100) / (hi - lo), w - 20);
	for (int p = 40; p <= 120; p += 20)
		fprintf(f, "<text x=\"55\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>",
			top + ph * (hi - p) / (hi - lo) + 4, p);
	for (unsigned i = 0; i < n; i++) {
		double x0 = 60 + slot * i + slot * 0.15, bw = slot * 0.7 / 4;
		uint64_t s = r[i]->scan_class[3] + r[i]->scan_class[4] + r[i]->scan_class[5];

		for (unsigned k = 0; k < QE_KINDS; k++)
			s += r[i]->scan_err[k];
		for (unsigned m = 0; m < 4; m++) {
			double med = m < 3 ? model_median(r, n, i, figs[m]) : 100, pct, y, v;

			/* the zone profile: what a tenth of its samples reach against the
			 * model's median profile */
			v = m < 3		     ? figs[m](r[i])
			    : r[i]->profile_compared ? 100 - r[i]->profile_slowdown_pct
						     : 0;
			if (med <= 0 || v <= 0)
				continue;
			pct = 100.0 * v / med;
			if (pct < lo)
				pct = lo;
			if (pct > hi)
				pct = hi;
			y = top + ph * (hi - pct) / (hi - lo);
			fprintf(f, "<path fill=\"%s\"%s d=\"M%.1f %dV%.1fH%.1fV%dZ\"><title>",
				fig_fill[m], pct < 100 - band ? " class=\"out\"" : "", x0 + bw * m,
				top + ph, y, x0 + bw * (m + 1) - 1, top + ph);
			esc(f, r[i]->device);
			fprintf(f, ": %s %.0f%% of the median</title></path>", fig_name[m],
				100.0 * v / med);
		}
		/* slow blocks and failed reads, log scale */
		if (s)
			fprintf(f, "<path class=\"slow\" d=\"M%.1f %dV%.1fH%.1fV%dZ\"/>", x0,
				sy + sh, sy + sh - sh * log1p((double)s) / log1p((double)maxslow),
				x0 + slot * 0.7, sy + sh);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
			"transform=\"rotate(-35 %.1f %d)\">",
			x0 + slot * 0.35, sy + sh + 14, x0 + slot * 0.35, sy + sh + 14);
		esc(f, r[i]->device);
		fputs("</text>\n", f);
	}
	fprintf(f,
		"<path class=\"axis\" d=\"M60 %dV%dH%d\"/><path class=\"axis\" d=\"M60 %dH%d\"/>"
		"<text x=\"55\" y=\"%d\" text-anchor=\"end\">slow</text>\n",
		top, top + ph, w - 20, sy + sh, w - 20, sy + sh / 2 + 4);
	for (unsigned m = 0; m < 4; m++)
		fprintf(f,
			"<rect x=\"%d\" y=\"22\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"31\">%s</text>",
			60 + 125 * (int)m, fig_fill[m], 74 + 125 * (int)m, fig_name[m]);
	if (!any)
		fprintf(f,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no model with two disks "
			"to compare</text>",
			w / 2, top + ph / 2);
	fputs("</svg><div class=\"meta\">Bars: a disk's figure as a percent of its model's "
	      "median (the zone profile: what a tenth of its samples reach against the model's "
	      "median profile); below the band it is an outlier (red outline). Bottom row: blocks "
	      "the scan read in 50 ms or more, and failed reads (log scale).</div></div>\n",
	      f);
}

static void summary(FILE *f, const struct qualify_result *const *r, unsigned n)
{
	fputs("<h2>Summary</h2>\n<table><thead><tr><th>Disk</th><th>Model</th><th>Serial</th>", f);
	for (unsigned c = 0; c < QC_COUNT; c++) {
		fputs("<th>", f);
		esc(f, qualify_check_name((enum qualify_check)c));
		fputs("</th>", f);
	}
	fputs("<th>Overall</th><th>Reason</th></tr></thead>\n<tbody>\n", f);
	for (unsigned i = 0; i < n; i++) {
		fputs("<tr><td><a href=\"#disk", f);
		fprintf(f, "%u\">", i);
		esc(f, r[i]->device);
		fputs("</a></td><td>", f);
		esc(f, r[i]->info.model);
		fputs("</td><td>", f);
		esc(f, r[i]->info.serial);
		fputs("</td>", f);
		for (unsigned c = 0; c < QC_COUNT; c++)
			fprintf(f, "<td class=\"%s\">%s</td>", status_class(r[i]->check[c].status),
				qualify_status_name(r[i]->check[c].status));
		fprintf(f, "<td class=\"%s\">%s</td><td class=\"reason\">",
			r[i]->pass ? "pass" : "fail", r[i]->pass ? "PASS" : "FAIL");
		reason(f, r[i]);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void health_num(FILE *f, const char *label, const struct smart_num *n, const char *unit,
		       bool bad_above_zero)
{
	if (!n->known)
		return;
	fputs("<tr><td>", f);
	esc(f, label);
	fprintf(f, "</td><td class=\"num%s\">%" PRId64 "%s%s</td></tr>\n",
		bad_above_zero && n->value > 0 ? " warn" : "", n->value, unit ? " " : "",
		unit ? unit : "");
}

/* What SMART and the SCSI log pages said: the figures behind the verdict. */
static void health_table(FILE *f, const struct qualify_result *r)
{
	static const char *const what[3] = { "read", "write", "verify" };
	const struct qualify_scsi_health *h = &r->scsi;

	if (!r->smart_read)
		return;
	fputs("<h3>Health</h3>\n<table class=\"health\"><tbody>\n", f);
	fprintf(f, "<tr><td>Verdict</td><td>%s</td></tr>\n", smart_verdict_name(r->smart_verdict));
	health_num(f, "Temperature", &r->temperature_c, "C", false);
	health_num(f, "Power-on hours", &r->power_on_hours, NULL, false);
	if (r->nvme_read) {
		const struct nvme_health *n = &r->nvme;

		fprintf(f, "<tr><td>Critical warning</td><td class=\"num%s\">0x%02x</td></tr>\n",
			n->critical_warning ? " warn" : "", n->critical_warning);
		fprintf(f,
			"<tr><td>Available spare (threshold)</td><td class=\"num%s\">%u %% (%u "
			"%%)</td></tr>\n",
			n->available_spare < n->available_spare_threshold ? " warn" : "",
			n->available_spare, n->available_spare_threshold);
		fprintf(f, "<tr><td>Percentage used</td><td class=\"num%s\">%u %%</td></tr>\n",
			n->percentage_used >= 100 ? " warn" : "", n->percentage_used);
		fprintf(f, "<tr><td>Media errors</td><td class=\"num%s\">%" PRIu64 "</td></tr>\n",
			n->media_errors ? " warn" : "", n->media_errors);
	}
	health_num(f, h->read ? "Grown defects (READ DEFECT DATA)" : "Reallocated sectors",
		   &r->reallocated, NULL, true);
	health_num(f, "Pending sectors", &r->pending, NULL, true);
	health_num(f, "Offline uncorrectable", &r->offline_uncorrectable, NULL, true);
	for (unsigned i = 0; h->read && i < 3; i++) {
		if (!h->has_counters[i])
			continue;
		fprintf(f,
			"<tr><td>%s errors (log page %02Xh): corrected / uncorrected</td>"
			"<td class=\"num%s\">%" PRIu64 " / %" PRIu64 "</td></tr>\n",
			what[i],
			i == 0	 ? 3
			: i == 1 ? 2
				 : 5,
			h->uncorrected[i] ? " warn" : "", h->corrected[i], h->uncorrected[i]);
	}
	if (h->read) {
		health_num(f, "Non-medium errors (06h)", &h->non_medium, NULL, false);
		health_num(f, "Start-stop cycles (0Eh)", &h->start_stop_cycles, NULL, false);
		if (h->bg_scan)
			fprintf(f,
				"<tr><td>Background scans (15h): scans / medium errors</td>"
				"<td class=\"num%s\">%u / %u</td></tr>\n",
				h->bg_medium_errors ? " warn" : "", h->bg_scans,
				h->bg_medium_errors);
	}
	fputs("</tbody></table>\n", f);
}

static void disk_section(FILE *f, const struct qualify_result *r, unsigned idx)
{
	char h[32];

	fprintf(f, "<h2 id=\"disk%u\">", idx);
	esc(f, r->device);
	fputs(" &#8212; ", f);
	esc(f, r->info.model);
	fprintf(f, " <span class=\"%s\">%s</span></h2>\n", r->pass ? "pass" : "fail",
		r->pass ? "PASS" : "FAIL");
	fputs("<div class=\"meta\">Serial ", f);
	esc(f, r->info.serial[0] ? r->info.serial : "-");
	fputs(", firmware ", f);
	esc(f, r->info.firmware[0] ? r->info.firmware : "-");
	fputs(", ", f);
	esc(f, size_human(r->info.capacity_blocks * r->info.logical_block, h, sizeof(h)));
	fprintf(f, ", %u-byte blocks", r->info.logical_block);
	if (r->virtual_time)
		fputs(", measured on a simulated drive (virtual time)", f);
	fputs("</div>\n", f);
	if (r->vanished)
		fputs("<div class=\"note\">The disk stopped answering during the "
		      "qualification.</div>\n",
		      f);
	fputs(
	    "<table><thead><tr><th>Check</th><th>Result</th><th>Detail</th></tr></thead><tbody>\n",
	    f);
	for (unsigned c = 0; c < QC_COUNT; c++) {
		fputs("<tr><td>", f);
		esc(f, qualify_check_name((enum qualify_check)c));
		fprintf(f, "</td><td class=\"%s\">%s</td><td>", status_class(r->check[c].status),
			qualify_status_name(r->check[c].status));
		esc(f, r->check[c].detail);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	health_table(f, r);
	if (r->nbad) {
		fputs("<h3>Unreadable blocks</h3>\n<table><thead><tr><th>First LBA</th><th>Last LBA"
		      "</th><th>Blocks</th></tr></thead><tbody>\n",
		      f);
		for (unsigned i = 0; i < r->nbad; i++)
			fprintf(f,
				"<tr><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%" PRIu64
				"</td><td class=\"num\">%" PRIu64 "</td></tr>\n",
				r->bad[i].lba, r->bad[i].lba + r->bad[i].blocks - 1,
				r->bad[i].blocks);
		fputs("</tbody></table>\n", f);
		if (r->bad_truncated)
			fputs("<div class=\"note\">More ranges than the list holds.</div>\n", f);
	}
	scan_tables(f, r);
	if (r->nqd) {
		fputs("<h3>Random 4 KiB reads</h3>\n<table><thead><tr><th>QD</th><th>IOPS</th>"
		      "<th>Mean ms</th><th>P99 ms</th></tr></thead><tbody>\n",
		      f);
		for (unsigned k = 0; k < r->nqd; k++)
			fprintf(f,
				"<tr><td class=\"num\">%u</td><td class=\"num\">%.0f</td>"
				"<td class=\"num\">%.2f</td><td class=\"num\">%.2f</td></tr>\n",
				r->qd[k], r->iops[k], r->lat_avg_ms[k], r->lat_p99_ms[k]);
		fputs("</tbody></table>\n", f);
	}
	if ((r->zp && r->zp->npoints) || r->hist.count || r->nqd || r->scan_block_bytes) {
		fputs("<div class=\"charts\">\n", f);
		if (r->scan_block_bytes)
			chart_scan_map(f, r);
		if (r->zp && r->zp->npoints)
			chart_profile(f, r);
		if (r->hist.count)
			chart_latency(f, &r->hist, "Latency of random 4 KiB reads at QD 1");
		if (r->nqd)
			chart_iops(f, r);
		if (r->butterfly.ran && r->butterfly.hist.count)
			chart_latency(f, &r->butterfly.hist,
				      "Burn-in: butterfly seek test, latency at QD 1");
		if (r->soak.ran && r->soak.hist.count) {
			char t[96];

			snprintf(t, sizeof(t), "Burn-in: random-read soak, latency at QD %u",
				 r->soak.qd);
			chart_latency(f, &r->soak.hist, t);
		}
		fputs("</div>\n", f);
	}
}

int qualify_report_html(const struct qualify_report_meta *m, const struct qualify_result *const *r,
			unsigned n, char **out, size_t *len, struct ss_error *err)
{
	const char *title = m && m->title ? m->title : "Disk qualification";
	unsigned passed = 0;
	char *buf = NULL;
	size_t l = 0;
	FILE *f = open_memstream(&buf, &l);

	if (!f)
		return ss_error_nomem(err);
	for (unsigned i = 0; i < n; i++)
		passed += r[i]->pass;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	esc(f, title);
	fputs("</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<style>",
	      f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<h1>", f);
	esc(f, title);
	fputs("</h1>\n<div class=\"meta\">", f);
	fprintf(f, "shortstroke qualify, profile %s; %u of %u disk%s passed",
		qualify_profile_name(m ? m->profile : QUALIFY_QUICK), passed, n, n == 1 ? "" : "s");
	if (m && m->host) {
		fputs("; host ", f);
		esc(f, m->host);
	}
	if (m && m->generated) {
		fputs("; ", f);
		esc(f, m->generated);
	}
	fputs("</div>\n", f);
	summary(f, r, n);
	if (n > 1)
		chart_compare(f, r, n, m ? m->thr : NULL);
	for (unsigned i = 0; i < n; i++)
		disk_section(f, r[i], i);
	if (m && m->thr) {
		char *text = NULL;

		fputs("<h2>Thresholds</h2>\n<table><tbody>\n", f);
		if (qualify_thresholds_format(m->thr, &text, NULL) == 0) {
			char *save = NULL;

			for (char *line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				char *eq = strchr(line, '=');

				if (line[0] == '#' || !eq)
					continue;
				eq[-1] = '\0';
				fputs("<tr><td>", f);
				esc(f, line);
				fputs("</td><td class=\"num\">", f);
				esc(f, eq + 2);
				fputs("</td></tr>\n", f);
			}
			free(text);
		}
		fputs("</tbody></table>\n", f);
	}
	fputs("</body>\n</html>\n", f);
	if (fclose(f)) {
		free(buf);
		return ss_error_nomem(err);
	}
	*out = buf;
	if (len)
		*len = l;
	return 0;
}

int qualify_report_write(const char *path, const struct qualify_report_meta *m,
			 const struct qualify_result *const *r, unsigned n, struct ss_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	rc = qualify_report_html(m, r, n, &text, &len, err);
	if (rc)
		return rc;
	rc = file_write_atomic(path, text, len, 0644, "the report", err);
	free(text);
	return rc;
}
