/* reports.c - s and z: the selected drive's SMART report and its zones, read
 * by a job (tui_bg) with a context of its own into a pager that shows a
 * spinner until then (Esc stops it); the text is what `smart -a -l` and
 * `zones --measure` print, rendered from the data by the same code
 * (src/front). No curses here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/record.h"
#include "front/smart.h"
#include "front/zones.h"
#include "shortstroke/smart.h"
#include "shortstroke/zones.h"
#include "shortstroke/zprofile.h"
#include "tui.h"

enum report_kind { REPORT_SMART, REPORT_ZONES };

/* One report, from the key to the pager: what the job read. */
struct report {
	enum report_kind kind;
	struct ss_ctx ctx; /* the job's own */
	char spec[256];
	char what[160]; /* "reading SMART of sim:sata250" */
	struct dev_entry e;
	bool read; /* smart or zones (and zp) are filled */
	struct smart_report smart;
	struct zones_info zones;
	struct zprofile *zp;
	const struct progress_sink *outer; /* the job's, under the profile's */
};

static void report_free(struct report *r)
{
	if (!r)
		return;
	if (r->read && r->kind == REPORT_SMART)
		smart_report_fini(&r->smart);
	if (r->read && r->kind == REPORT_ZONES)
		zones_info_fini(&r->zones);
	zprofile_free(r->zp);
	ctx_fini(&r->ctx);
	free(r);
}

/* The zone profile's progress as the pager shows it. */
static void sweep_report(void *arg, double fraction, const char *phase, double eta_s)
{
	struct report *r = arg;
	char text[200];

	(void)phase;
	snprintf(text, sizeof(text), "%s: measuring the zone profile %.0f%%", r->what,
		 fraction * 100.0);
	progress_report(r->outer, fraction, text, eta_s);
}

static bool sweep_cancelled(void *arg)
{
	struct report *r = arg;

	return progress_cancelled(r->outer);
}

/* Off the UI thread: open the drive read-only and read what the report shows. */
static int report_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct report *r = arg;
	struct progress_sink sweep = { sweep_report, sweep_cancelled, r };
	struct zprofile_opts zo = { .progress = &sweep };
	struct drive *d = NULL;
	int rc;

	r->outer = sink;
	progress_report(sink, 0, r->what, -1);
	rc = device_open(&r->ctx, r->spec, false, &d, &r->e, err);
	if (rc) {
		drive_free(d);
		return rc;
	}
	if (r->kind == REPORT_SMART) {
		rc = smart_read(d, &r->e.info, &r->smart, err);
	} else {
		/* as zones --measure (no --force: the notches of a disk in use or
		 * protected are not walked, a MODE SELECT): the profile, then the
		 * drive's own account */
		rc = zprofile_measure_node(r->e.node, r->spec, ctx_sources(&r->ctx), &zo, &r->zp,
					   err);
		if (!rc)
			rc = zones_read(d, r->spec, &r->e.info, r->e.state == DEV_FREE, true,
					&r->zones, err);
	}
	r->read = rc == 0;
	drive_free(d);
	return rc;
}

/* The attribute table's columns below 90 columns: RAW left out (PRETTY has
 * it in a unit), so that a row is one line. */
#define SMART_NARROW_COLS "ID,NAME,VALUE,WORST,THRESH,PRETTY,FLAGS,STATUS"

/* What the command prints for it, as text, for a screen cols wide (NULL:
 * out of memory). */
static char *report_text(const struct report *r, int cols)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (r->kind == REPORT_SMART) {
		bool narrow = cols > 0 && cols < 90 && r->smart.nattrs;
		const struct smart_view v = { .attrs = true,
					      .log = true,
					      .columns = narrow ? SMART_NARROW_COLS : NULL };
		struct record *rec = record_new();

		smart_disk_record(rec, &r->e, &r->smart, &v);
		record_print(rec, f, 0);
		record_free(rec);
		if (narrow)
			fprintf(f,
				"\n(RAW left out at this width: 'shortstroke smart -a %s' "
				"prints it)\n",
				r->spec);
	} else {
		const struct zones_show z = { &r->e, &r->zones, r->zp, NULL, 0, false };
		struct ss_error err = { 0 };

		if (zones_print(f, &z, &err))
			fprintf(f, "%s\n", err.msg);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* On the UI thread: the text into the pager that waits for it (when it is
 * still open). */
static void report_done(struct tui_model *m, struct tui_bg *b, void *arg, int rc,
			const struct ss_error *err)
{
	struct report *r = arg;
	struct tui_pager *p = tui_screen_find(m, &tui_pager_screen);
	char *text;

	if (!p || p->loading != b) {
		report_free(r); /* closed meanwhile */
		return;
	}
	p->loading = NULL;
	if (rc) {
		tui_screen_close(m, p);
		tui_notice(m, r->kind == REPORT_SMART ? "SMART" : "Zones", "%s", err->msg);
		report_free(r);
		return;
	}
	text = report_text(r, m->cols);
	tui_pager_set_text(p, text ? text : "out of memory");
	free(text);
	tui_status(m, "%s: %s read", r->spec, r->kind == REPORT_SMART ? "SMART" : "zones");
	report_free(r);
}

static enum tui_action report_open(struct tui_model *m, enum report_kind kind)
{
	const char *name = kind == REPORT_SMART ? "SMART" : "Zones";
	struct ss_error err = { 0 };
	struct tui_pager *p;
	struct report *r;
	const char *spec;

	if (!m->n)
		return TUI_NONE;
	spec = m->devs[m->sel].spec;
	if (tui_task_for(m, spec))
		return tui_alert(m, "Busy", "%s: a job is running on it; wait for it to end.",
				 spec);
	r = calloc(1, sizeof(*r));
	p = calloc(1, sizeof(*p));
	if (!r || !p) {
		free(r);
		free(p);
		return tui_alert(m, name, "out of memory");
	}
	r->kind = kind;
	ctx_init_copy(&r->ctx, m->ctx);
	snprintf(r->spec, sizeof(r->spec), "%s", spec);
	snprintf(r->what, sizeof(r->what), "%s %s",
		 kind == REPORT_SMART ? "reading SMART of" : "reading the zones of", spec);
	snprintf(p->title, sizeof(p->title), "%s of %s  (q closes, arrows scroll)", name, spec);
	p->loading = tui_bg_start(m, r->what, report_job, r, report_done, &err);
	if (!p->loading) {
		report_free(r);
		free(p);
		return tui_alert(m, name, "%s: cannot start: %s", spec, err.msg);
	}
	return tui_pager_show(m, p);
}

enum tui_action tui_report_smart(struct tui_model *m)
{
	return report_open(m, REPORT_SMART);
}

enum tui_action tui_report_zones(struct tui_model *m)
{
	return report_open(m, REPORT_ZONES);
}
