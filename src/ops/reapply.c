/* reapply.c - which journaled limits to put back after a power cycle, and
 * on which disk (see reapply.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shortstroke/capacity.h"
#include "shortstroke/reapply.h"

/*
 * One disk's records, folded (in journal order) into what it should carry:
 *   done: its last completed limit ("limit-done") that the user did not
 *         restore since ("restore", or a "restore-done" without a cause);
 *   open: a later "limit" that is not the done one again (a new limit the
 *         user started) and that neither completed nor failed cleanly (a
 *         "restore-done" with cause "failed").
 * A "restore-done" with cause "lapsed" (written when a limit found the drive
 * back at its original: a power cycle undid the volatile limit) changes
 * neither: it is what re-applying a limit writes first. So whatever a
 * killed reapply left (a lapsed close, a "limit" of the same limit, no
 * "limit-done"), the done limit is still wanted.
 */
struct slot {
	struct journal_entry key; /* the disk's first record: its serial/WWN */
	struct journal_entry done, open;
	bool has_done, has_open;
};

struct slots {
	struct slot *v;
	size_t n;
};

bool reapply_same_disk(const struct journal_entry *e, const char *serial, const char *wwn)
{
	bool wwn_both = wwn && *wwn && e->wwn[0];
	bool serial_both = serial && *serial && e->serial[0];

	if (!wwn_both && !serial_both)
		return false;
	if (wwn_both && strcasecmp(wwn, e->wwn))
		return false;
	return !(serial_both && strcmp(serial, e->serial));
}

static struct slot *slot_for(struct slots *s, const struct journal_entry *e)
{
	struct slot *v;

	for (size_t i = 0; i < s->n; i++)
		if (reapply_same_disk(&s->v[i].key, e->serial, e->wwn))
			return &s->v[i];
	v = realloc(s->v, (s->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	s->v = v;
	memset(&v[s->n], 0, sizeof(v[0]));
	v[s->n].key = *e;
	return &v[s->n++];
}

/* The same limit: a re-apply of the done one (whoever ran it). */
static bool same_limit(const struct journal_entry *a, const struct journal_entry *b)
{
	return !strcmp(a->method, b->method) && a->target_blocks == b->target_blocks &&
	       a->block_len == b->block_len && a->volatile_ == b->volatile_;
}

static int take(struct slots *s, bool open, struct journal_entry **out, size_t *n)
{
	size_t k = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < s->n; i++)
		k += open ? s->v[i].has_open : s->v[i].has_done && !s->v[i].has_open;
	if (!k)
		return 0;
	*out = calloc(k, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		if (open && s->v[i].has_open)
			(*out)[(*n)++] = s->v[i].open;
		else if (!open && s->v[i].has_done && !s->v[i].has_open)
			(*out)[(*n)++] = s->v[i].done;
	}
	return 0;
}

/* One journal entry into its disk's slot (see struct slot). */
static int scan_entry(void *arg, const struct journal_entry *e)
{
	struct slots *s = arg;
	struct slot *sl = slot_for(s, e);
	bool rdone = !strcmp(e->event, "restore-done");

	if (!sl)
		return -ENOMEM;
	if (!strcmp(e->event, "restore") || (rdone && !e->cause[0])) {
		sl->has_done = sl->has_open = false; /* the user's restore */
	} else if (rdone && !strcmp(e->cause, JOURNAL_CAUSE_FAILED)) {
		sl->has_open = false; /* the limit failed; the drive did not take it */
	} else if (!strcmp(e->event, "limit-done")) {
		sl->done = *e;
		sl->has_done = true;
		sl->has_open = false;
	} else if (!strcmp(e->event, "limit")) {
		sl->has_open = !(sl->has_done && same_limit(e, &sl->done));
		if (sl->has_open)
			sl->open = *e;
	}
	return 0;
}

int reapply_pending(const char *state_dir, struct journal_entry **out, size_t *n,
		    struct journal_entry **stale, size_t *n_stale, struct ss_error *err)
{
	struct slots s = { 0 };
	int rc;

	*out = NULL;
	*n = 0;
	if (stale) {
		*stale = NULL;
		*n_stale = 0;
	}
	rc = journal_for_each(state_dir, scan_entry, &s, err);
	if (!rc)
		rc = take(&s, false, out, n);
	if (!rc && stale)
		rc = take(&s, true, stale, n_stale);
	free(s.v);
	if (rc == -ENOMEM)
		ss_error_set(err, rc, "out of memory");
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int reapply_find(const struct journal_entry *e, const struct dev_entry *devs, size_t n)
{
	int found = -1;

	for (size_t i = 0; i < n; i++) {
		if (!devs[i].identified ||
		    !reapply_same_disk(e, devs[i].info.serial, devs[i].info.wwn))
			continue;
		if (found >= 0)
			return REAPPLY_AMBIGUOUS;
		found = (int)i;
	}
	return found;
}

const char *reapply_state_name(enum reapply_state s)
{
	switch (s) {
	case REAPPLY_IN_PLACE:
		return "in-place";
	case REAPPLY_NEEDED:
		return "needed";
	case REAPPLY_LOST:
		return "lost";
	default:
		return "changed";
	}
}

enum reapply_state reapply_check(const struct journal_entry *e, const struct drive_info *i,
				 char *why, size_t len)
{
	snprintf(why, len, "%s", "");
	if (cap_method_flags(e->method) & CAPM_KEEPS_SIZE) {
		/* the limit is a GPT partition: the capacity never changed */
		snprintf(why, len, "a partition limit: nothing a power cycle undoes");
		return REAPPLY_IN_PLACE;
	}
	if (e->model[0] && i->model[0] && strcmp(e->model, i->model)) {
		snprintf(why, len, "the disk is now a %s, the journal recorded a %s", i->model,
			 e->model);
		return REAPPLY_CHANGED;
	}
	if (e->block_len != i->logical_block) {
		snprintf(why, len, "the disk now has %u-byte blocks, the journal recorded %u",
			 i->logical_block, e->block_len);
		return REAPPLY_CHANGED;
	}
	/* DCO lowers the native max itself */
	if (e->native_blocks && i->native_blocks && e->native_blocks != i->native_blocks &&
	    !(cap_method_flags(e->method) & CAPM_SETS_NATIVE)) {
		snprintf(why, len,
			 "the native capacity is now %" PRIu64
			 " blocks, the journal recorded %" PRIu64 " (a DCO change?)",
			 i->native_blocks, e->native_blocks);
		return REAPPLY_CHANGED;
	}
	if (i->capacity_blocks == e->target_blocks)
		return REAPPLY_IN_PLACE;
	if (i->capacity_blocks == e->original_blocks) {
		if (e->volatile_ && (cap_method_flags(e->method) & CAPM_VOLATILE))
			return REAPPLY_NEEDED;
		snprintf(why, len,
			 "the permanent %s limit of %" PRIu64 " blocks is gone: the disk reports "
			 "its original %" PRIu64 " blocks (restored by another tool, or a kernel "
			 "booted with libata.ignore_hpa=1)",
			 e->method, e->target_blocks, e->original_blocks);
		return REAPPLY_LOST;
	}
	snprintf(why, len,
		 "the disk reports %" PRIu64 " blocks: neither the journaled limit (%" PRIu64
		 ") nor the original (%" PRIu64 "); something else changed it",
		 i->capacity_blocks, e->target_blocks, e->original_blocks);
	return REAPPLY_CHANGED;
}
