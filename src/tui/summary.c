/* summary.c - a batch's end (no curses): every drive an action ran on (limit,
 * restore, a self-test, bench, qualify) reports here how it ended; once the
 * last has, the summary: "N done, M failed", each failed drive with its
 * reason and each done one with its result, as the CLI prints them, in a
 * dialog that scrolls; the failed drives marked (and the done ones not), so
 * that the same key retries them; the status line says so; the table is
 * rescanned for the drives' new state. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

static void tui_batch_end(struct tui_model *m, struct tui_batch *b);

struct tui_batch *tui_batch_new(const char *what, const char *title, int key)
{
	struct tui_batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	snprintf(b->what, sizeof(b->what), "%s", what);
	snprintf(b->title, sizeof(b->title), "%s", title);
	b->key = key;
	b->held = true;
	return b;
}

void tui_batch_free(struct tui_batch *b)
{
	if (!b)
		return;
	free(b->items);
	free(b);
}

/* "spec: text", unless text already starts with the drive's name */
static void named(char *buf, size_t len, const char *spec, const char *text)
{
	size_t n = strlen(spec);

	if (!strncmp(text, spec, n) && (text[n] == ':' || text[n] == ' '))
		snprintf(buf, len, "%s", text);
	else
		snprintf(buf, len, "%s: %s", spec, text);
}

static struct tui_batch_item *item_of(struct tui_batch *b, const char *spec)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->items[i].spec, spec))
			return &b->items[i];
	return NULL;
}

static struct tui_batch_item *item_add(struct tui_batch *b, const char *spec)
{
	struct tui_batch_item *it = item_of(b, spec), *v;

	if (it)
		return it;
	v = realloc(b->items, (b->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	b->items = v;
	it = &b->items[b->n++];
	memset(it, 0, sizeof(*it));
	snprintf(it->spec, sizeof(it->spec), "%s", spec);
	return it;
}

void tui_batch_add(struct tui_batch *b, const char *spec)
{
	struct tui_batch_item *it;

	if (!b || !(it = item_add(b, spec)) || it->running)
		return;
	it->running = true;
	b->pending++;
}

void tui_batch_ended(struct tui_model *m, struct tui_batch *b, const char *spec, int rc,
		     const char *text)
{
	struct tui_batch_item *it;

	if (!b)
		return;
	it = item_add(b, spec);
	if (it) {
		if (it->running && b->pending)
			b->pending--;
		it->running = false;
		it->ended = true;
		it->rc = rc;
		named(it->text, sizeof(it->text), spec,
		      text && text[0] ? text
		      : rc	      ? "failed"
				      : "done");
	}
	if (!b->held && !b->pending)
		tui_batch_end(m, b);
}

void tui_batch_seal(struct tui_model *m, struct tui_batch *b)
{
	if (!b)
		return;
	b->held = false;
	if (!b->pending)
		tui_batch_end(m, b);
}

/* Stopped by the abort key: neither done nor failed. */
static bool stopped(const struct tui_batch_item *it)
{
	return it->rc == -ECANCELED;
}

static void tui_batch_count(const struct tui_batch *b, unsigned *done, unsigned *failed,
			    unsigned *halted)
{
	*done = *failed = *halted = 0;
	for (size_t i = 0; i < b->n; i++) {
		if (!b->items[i].ended)
			continue;
		if (stopped(&b->items[i]))
			(*halted)++;
		else if (b->items[i].rc)
			(*failed)++;
		else
			(*done)++;
	}
}

void tui_batch_headline(const struct tui_batch *b, char *buf, size_t len)
{
	unsigned done, failed, halted;
	size_t used;

	tui_batch_count(b, &done, &failed, &halted);
	used = (size_t)snprintf(buf, len, "%u done", done);
	if (failed && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", %u failed", failed);
	if (halted && used < len)
		snprintf(buf + used, len - used, ", %u stopped", halted);
}

void tui_batch_lines(const struct tui_batch *b, struct tui_lines *out, bool done_too)
{
	unsigned done, failed, halted;
	char head[64];

	tui_batch_count(b, &done, &failed, &halted);
	tui_batch_headline(b, head, sizeof(head));
	if (!done_too) /* the head of a report (the dialog's title says it) */
		tui_lines_add(out, "%s: %s.", b->what, head);
	if (failed) {
		if (b->key)
			tui_lines_add(out, "Failed, marked (%c retries %s):", b->key,
				      failed == 1 ? "it" : "them");
		else
			tui_lines_add(out, "Failed:");
		for (size_t i = 0; i < b->n; i++)
			if (b->items[i].ended && b->items[i].rc && !stopped(&b->items[i]))
				tui_lines_add(out, "  %s", b->items[i].text);
	}
	if (halted) {
		tui_lines_add(out, "Stopped (the abort key):");
		for (size_t i = 0; i < b->n; i++)
			if (b->items[i].ended && stopped(&b->items[i]))
				tui_lines_add(out, "  %s", b->items[i].text);
	}
	if (done && done_too) {
		tui_lines_add(out, "Done:");
		for (size_t i = 0; i < b->n; i++)
			if (b->items[i].ended && !b->items[i].rc)
				tui_lines_add(out, "  %s", b->items[i].text);
	}
}

/* The marks after a batch, so that a retry is one key: a drive it failed
 * on is marked; when it failed on one, the others it ran on are unmarked
 * (the key then retries the failed ones alone); else a drive it went well
 * on (or was stopped on) loses a mark a failure had made, and keeps the
 * user's. Drives outside the batch keep theirs. The failed ones marked. */
static unsigned marks_update(struct tui_model *m, const struct tui_batch *b, unsigned failed)
{
	unsigned marked = 0;

	for (size_t i = 0; m->marked && i < b->n; i++) {
		const struct tui_batch_item *it = &b->items[i];
		bool bad = it->rc && !stopped(it);

		if (!it->ended)
			continue;
		for (size_t k = 0; k < m->n; k++) {
			bool by_failure = m->failmark && m->failmark[k];

			if (strcmp(m->devs[k].spec, it->spec))
				continue;
			if (bad || failed || by_failure)
				m->marked[k] = bad;
			if (m->failmark)
				m->failmark[k] = bad;
			marked += bad;
		}
	}
	return marked;
}

static void rows_refresh(struct tui_model *m, const struct tui_batch *b)
{
	char(*specs)[256] = calloc(b->n ? b->n : 1, sizeof(*specs));

	if (!specs)
		return;
	for (size_t i = 0; i < b->n; i++)
		snprintf(specs[i], sizeof(specs[i]), "%s", b->items[i].spec);
	tui_rows_refresh(m, (const char(*)[256])specs, b->n);
	free(specs);
}

/* The summary now (tui_batch_ended calls it after the last); frees b. */
static void tui_batch_end(struct tui_model *m, struct tui_batch *b)
{
	unsigned done, failed, halted, marked;
	struct tui_dialog *d;
	char head[64], title[96];

	tui_batch_count(b, &done, &failed, &halted);
	tui_batch_headline(b, head, sizeof(head));
	marked = marks_update(m, b, failed);
	if (failed && b->key)
		tui_status(m, "%s: %s; the %u failed %s marked: %c retries %s", b->what, head,
			   marked, marked == 1 ? "is" : "are", b->key, marked == 1 ? "it" : "them");
	else if (failed)
		tui_status(m, "%s: %s", b->what, head);
	else if (b->n == 1)
		tui_status(m, "%s", b->items[0].text);
	else
		tui_status(m, "%s: %s", b->what, head);
	if (!b->reads_only) {
		/* the rows show what the drives are now: the rescan once no job
		 * runs, these drives' rows now when other jobs go on */
		m->rescan_pending = true;
		if (m->ntasks)
			rows_refresh(m, b);
	}
	/* the summary: whenever one failed; for more than one drive when the
	 * results are not shown elsewhere (bench and qualify open theirs) and
	 * not all were stopped by the user */
	if (failed || (b->n > 1 && !b->results_shown && done)) {
		d = tui_dialog_new("");
		if (d) {
			snprintf(title, sizeof(title), "%s: %s", b->title, head);
			snprintf(d->title, sizeof(d->title), "%s", title);
			tui_batch_lines(b, &d->lines, true);
			d->alert = failed != 0;
			tui_notice_dialog(m, d);
		}
	}
	tui_batch_free(b); /* the rescan: once no job runs (tui_tasks_poll, the next tick) */
}
