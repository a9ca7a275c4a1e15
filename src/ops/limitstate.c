/* limitstate.c - is a disk limited, by what, and what did it have before:
 * from the drive where it reports it, from the journal where it cannot
 * (list, info, the TUI, the planner and limit all ask the same). */
#include <stdio.h>
#include <string.h>

#include "shortstroke/capacity.h"

const char *cap_full_source_name(enum cap_full_source s)
{
	switch (s) {
	case CAP_FULL_NATIVE:
		return "the native maximum";
	case CAP_FULL_JOURNAL:
		return "the journaled original";
	default:
		return "the current capacity";
	}
}

/* The journal's record still describes the disk as it is now. */
static bool orig_matches(const struct drive_info *i, const struct journal_entry *orig)
{
	if (!orig || !orig->original_blocks || orig->block_len != i->logical_block)
		return false;
	if (cap_method_flags(orig->method) & CAPM_KEEPS_SIZE) /* a label, not a capacity */
		return i->capacity_blocks == orig->original_blocks &&
		       orig->target_blocks < orig->original_blocks;
	return i->capacity_blocks < orig->original_blocks;
}

enum cap_full_source cap_full_capacity(const struct drive_info *i, const struct journal_entry *orig,
				       uint64_t *blocks)
{
	if (i->native_blocks) {
		*blocks = i->native_blocks;
		return CAP_FULL_NATIVE;
	}
	if (orig && orig->original_blocks && orig->block_len == i->logical_block &&
	    i->capacity_blocks <= orig->original_blocks) {
		*blocks = orig->native_blocks ? orig->native_blocks : orig->original_blocks;
		return CAP_FULL_JOURNAL;
	}
	*blocks = i->capacity_blocks;
	return CAP_FULL_CURRENT;
}

/* The method of a kind of limit the drive shows in its registers, which do
 * not say which method made it: of the methods with every flag of want, the
 * one the drive supports (the first with a volatile form: others' tools set
 * an HPA), else the first with a volatile form, else the first. */
static const char *shown_by(const struct drive_info *i, unsigned want)
{
	const struct cap_method_ops *o, *best = NULL;
	int best_rank = -1;

	for (size_t k = 0; (o = cap_method_at(k)); k++) {
		int rank = ((i->methods & o->need) ? 2 : 0) + ((o->flags & CAPM_VOLATILE) ? 1 : 0);

		if ((o->flags & want) == want && rank > best_rank) {
			best = o;
			best_rank = rank;
		}
	}
	return best ? best->name : "?";
}

/* What the drive itself says: an accessible max under the native max
 * (CAPM_ACCESSIBLE: HPA or AMAC), a native max under the factory maximum
 * (CAPM_SETS_NATIVE: DCO). */
static bool drive_limit(const struct drive_info *i, struct dev_limit *out)
{
	if (i->native_blocks && i->dco_max_blocks > i->native_blocks) {
		snprintf(out->method, sizeof(out->method), "%s", shown_by(i, CAPM_SETS_NATIVE));
		out->original_blocks = i->dco_max_blocks;
	} else if (i->native_blocks && i->capacity_blocks < i->native_blocks) {
		snprintf(out->method, sizeof(out->method), "%s", shown_by(i, CAPM_ACCESSIBLE));
		out->original_blocks = i->native_blocks;
	} else {
		return false;
	}
	out->limited = true;
	out->limit_blocks = i->capacity_blocks;
	return true;
}

void cap_limit_state(const struct drive_info *i, const struct journal_entry *orig,
		     struct dev_limit *out)
{
	bool match = orig_matches(i, orig);

	memset(out, 0, sizeof(*out));
	if (drive_limit(i, out)) {
		/* the journal knows AMAC from HPA, which the registers do not */
		if (match && (cap_method_flags(orig->method) & CAPM_ACCESSIBLE) &&
		    (cap_method_flags(out->method) & CAPM_ACCESSIBLE))
			snprintf(out->method, sizeof(out->method), "%s", orig->method);
		return;
	}
	if (!match)
		return;
	out->limited = true;
	out->from_journal = true;
	snprintf(out->method, sizeof(out->method), "%s", orig->method);
	out->original_blocks = orig->original_blocks;
	out->limit_blocks = cap_method_flags(orig->method) & CAPM_KEEPS_SIZE ? orig->target_blocks
									     : i->capacity_blocks;
}

bool cap_limit_volatile(const struct drive_info *i, const struct dev_limit *l,
			const struct journal_entry *last)
{
	return l->limited && (cap_method_flags(l->method) & CAPM_VOLATILE) && last &&
	       last->volatile_ && !strcmp(last->event, "limit-done") &&
	       !strcmp(last->method, l->method) && last->block_len == i->logical_block &&
	       last->target_blocks == i->capacity_blocks;
}

bool cap_label_is_ours(const char *state_dir, const struct dev_entry *e, bool md_member)
{
	struct journal_entry orig;

	if (e->state != DEV_IN_USE || !e->label_only || (md_member ? e->part_not_md : e->part_data))
		return false;
	if (journal_original(state_dir, e->info.serial, e->info.wwn, &orig, NULL))
		return false;
	return (cap_method_flags(orig.method) & CAPM_KEEPS_SIZE) != 0;
}
