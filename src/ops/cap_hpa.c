/* cap_hpa.c - what the journal says about the HPA rule of one permanent
 * SET MAX ADDRESS per power cycle, before the confirmation is asked for. */
#include <stdio.h>
#include <string.h>

#include "shortstroke/capacity.h"
#include "shortstroke/journal.h"

struct last_change {
	bool hpa_nv;		/* the last change was a permanent SET MAX */
	char when[32];
};

static int see(void *arg, const struct journal_entry *e)
{
	struct last_change *l = arg;
	bool done = !strcmp(e->event, "limit-done") || !strcmp(e->event, "restore-done");

	if (!done || e->original_blocks == e->target_blocks)
		return 0; /* a record of intent, or a no-op: nothing was set */
	l->hpa_nv = !strcmp(e->method, "hpa") && !e->volatile_;
	snprintf(l->when, sizeof(l->when), "%s", e->time);
	return 0;
}

bool cap_hpa_changed_before(const char *state_dir, const struct drive_info *i, char *when,
			    size_t len)
{
	struct last_change l = { 0 };

	if (journal_for_disk(state_dir, i->serial, i->wwn, see, &l, NULL) || !l.hpa_nv)
		return false;
	snprintf(when, len, "%s", l.when);
	return true;
}
