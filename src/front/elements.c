/* elements.c - a drive's storage elements as info shows them. */
#include <inttypes.h>
#include <stdio.h>

#include "front/elements.h"
#include "shortstroke/units.h"

static void elements_record(struct record *r, const struct depop_status *s, uint32_t block_len)
{
	struct record *o, *list;
	unsigned near = 0;

	if (!s->supported)
		return;
	for (size_t k = 0; k < s->n; k++)
		near += elem_health_near_limit(s->e[k].health);
	if (s->max_depop)
		record_text(r, "Elements",
			    "%" PRIu32 " storage elements, %u depopulated (at most %u)%s", s->total,
			    s->depopulated, s->max_depop,
			    s->busy ? ", an operation in progress" : "");
	else
		record_text(r, "Elements", "%" PRIu32 " storage elements, %u depopulated%s",
			    s->total, s->depopulated, s->busy ? ", an operation in progress" : "");
	o = record_set_object(r, "elements");
	record_set_u64(o, "total", s->total);
	record_set_u64(o, "depopulated", s->depopulated);
	if (s->max_depop)
		record_set_u64(o, "max_depopulated", s->max_depop);
	else
		record_set_null(o, "max_depopulated");
	record_set_u64(o, "near_limit", near);
	if (s->busy_id)
		record_set_u64(o, "being_depopulated", s->busy_id);
	else
		record_set_null(o, "being_depopulated");
	list = record_set_list(o, "list");
	for (size_t k = 0; k < s->n; k++) {
		const struct elem_desc *e = &s->e[k];
		struct record *x = record_set_object(list, NULL);
		char label[32], h[32] = "size not said";

		if (e->capacity != ELEM_CAPACITY_UNSPECIFIED)
			size_human(e->capacity * block_len, h, sizeof(h));
		snprintf(label, sizeof(label), "  element %" PRIu32, e->id);
		record_text(r, label, "%s (health %u), %s%s%s", elem_health_name(e->health),
			    e->health, h, e->restore_ok ? ", may be restored" : "",
			    elem_health_near_limit(e->health) ? "  <- near its limit" : "");
		record_set_u64(x, "id", e->id);
		record_set_u64(x, "type", e->type);
		record_set_u64(x, "health", e->health);
		record_set_str(x, "state", elem_health_name(e->health));
		record_set_bool(x, "near_limit", elem_health_near_limit(e->health));
		record_set_bool(x, "restore_allowed", e->restore_ok);
		if (e->capacity != ELEM_CAPACITY_UNSPECIFIED)
			record_set_u64(x, "capacity_blocks", e->capacity);
		else
			record_set_null(x, "capacity_blocks");
	}
}

static void sector_sizes_record(struct record *r, const struct sector_sizes *s, uint32_t now)
{
	struct record *list;
	char buf[128];
	size_t l = 0;

	if (!s->n)
		return;
	buf[0] = '\0';
	for (unsigned k = 0; k < s->n && l < sizeof(buf); k++)
		l += (size_t)snprintf(buf + l, sizeof(buf) - l, "%s%" PRIu32 "%s", k ? ", " : "",
				      s->s[k].bytes, s->s[k].bytes == now ? " (now)" : "");
	record_text(r, "Sector sizes", "%s", buf);
	list = record_set_list(r, "sector_sizes");
	for (unsigned k = 0; k < s->n; k++)
		record_set_u64(list, NULL, s->s[k].bytes);
}

void drive_elements_record(struct record *r, struct drive *d, const struct drive_info *i)
{
	struct depop_status es;
	struct sector_sizes ss;

	if (depop_read(d, i, &es, NULL) == 0)
		elements_record(r, &es, i->logical_block);
	if (secfmt_read(d, i, &ss, NULL) == 0)
		sector_sizes_record(r, &ss, i->logical_block);
}
