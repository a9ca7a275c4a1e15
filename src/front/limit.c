/* limit.c - how a disk is limited, as list, info and the TUI show it: one
 * text and one JSON object from the dev_limit devices.c worked out. */
#include <stdio.h>

#include "drives.h"
#include "front_priv.h"
#include "record.h"
#include "shortstroke/units.h"

static double limit_percent(const struct dev_limit *l)
{
	return l->original_blocks ? 100.0 * (double)l->limit_blocks / (double)l->original_blocks
				  : 0;
}

bool limit_known(const struct dev_entry *e)
{
	return e->limit.limited || e->info.native_blocks;
}

void limit_text(const struct dev_entry *e, char *buf, size_t len)
{
	const struct dev_limit *l = &e->limit;
	char h[32];

	if (!l->limited) {
		snprintf(buf, len, "%s", limit_known(e) ? "no" : "-");
		return;
	}
	snprintf(buf, len, "%.1f%% of %s, %s%s%s", limit_percent(l),
		 size_human(l->original_blocks * e->info.logical_block, h, sizeof(h)), l->method,
		 l->volatile_ ? ", volatile" : "", l->from_journal ? " (journal)" : "");
}

void limit_brief(const struct dev_entry *e, char *buf, size_t len)
{
	if (!e->limit.limited)
		snprintf(buf, len, "%s", limit_known(e) ? "no" : "-");
	else
		snprintf(buf, len, "%.1f%%", limit_percent(&e->limit));
}

json_object *limit_json(const struct dev_entry *e)
{
	const struct dev_limit *l = &e->limit;
	uint32_t bs = e->info.logical_block;
	json_object *o;

	if (!l->limited)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "method", json_object_new_string(l->method));
	json_object_object_add(o, "source",
			       json_object_new_string(l->from_journal ? "journal" : "drive"));
	json_object_object_add(o, "original_blocks", json_object_new_uint64(l->original_blocks));
	json_object_object_add(o, "original_bytes",
			       json_object_new_uint64(l->original_blocks * bs));
	json_object_object_add(o, "limit_blocks", json_object_new_uint64(l->limit_blocks));
	json_object_object_add(o, "limit_bytes", json_object_new_uint64(l->limit_blocks * bs));
	json_object_object_add(o, "percent", json_object_new_double(limit_percent(l)));
	json_object_object_add(o, "volatile", json_object_new_boolean(l->volatile_));
	return o;
}

void limit_record(struct record *r, const char *key, const struct dev_entry *e)
{
	record_set_json(r, key, limit_json(e));
}
