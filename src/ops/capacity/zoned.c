/* cap_zoned.c - limits on zoned (SMR) disks end on a zone boundary. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shortstroke/capacity.h"
#include "shortstroke/units.h"
#include "shortstroke/zones.h"

/* The zone holding block lba - 1 (the last block that stays), or NULL. */
static const struct zone_desc *zone_ending(const struct zone_report *r, uint64_t lba)
{
	size_t lo = 0, hi = r->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct zone_desc *z = &r->zones[mid];

		if (lba - 1 < z->start)
			hi = mid;
		else if (lba - 1 >= z->start + z->len)
			lo = mid + 1;
		else
			return z;
	}
	return NULL;
}

int cap_plan_zones(struct drive *d, const struct drive_info *i, struct cap_plan *p,
		   struct ss_error *err)
{
	const struct zone_desc *z;
	struct zone_report r;
	uint64_t ref = p->native ? p->native : p->current, target;
	char h1[32], h2[32], h3[32];
	int rc;

	if (p->noop || !p->target ||
	    (i->zoned != ZONED_HOST_MANAGED && i->zoned != ZONED_HOST_AWARE))
		return 0;
	rc = zones_report(d, i, &r, err);
	if (rc)
		return rc;
	z = zone_ending(&r, p->target);
	if (!z || z->start + z->len == p->target) {
		zone_report_fini(&r);
		return 0; /* on a boundary already (or past the zones: not ours to judge) */
	}
	target = z->start;
	if (target == 0) {
		rc = ss_error_set(
		    err, -EINVAL,
		    "%s: the limit lies in the first zone (%" PRIu64 " blocks); a "
		    "zoned disk is limited on a zone boundary, so nothing would be left",
		    i->model[0] ? i->model : "drive", z->len);
		zone_report_fini(&r);
		return rc;
	}
	p->target = target;
	snprintf(p->note, sizeof(p->note),
		 "%" PRIu64 " blocks (%s, %.1f%% of %s), rounded down to a zone boundary "
		 "(the start of zone %zu; zones of %s)",
		 target, size_human(target * p->block_len, h1, sizeof(h1)),
		 100.0 * (double)target / (double)ref,
		 size_human(ref * p->block_len, h2, sizeof(h2)), (size_t)(z - r.zones),
		 size_human(z->len * p->block_len, h3, sizeof(h3)));
	if (target == p->current) {
		p->noop = true;
		snprintf(p->note, sizeof(p->note),
			 "already limited to %" PRIu64 " blocks (%s, on a zone boundary); nothing "
			 "sent",
			 target, size_human(target * p->block_len, h1, sizeof(h1)));
	}
	zone_report_fini(&r);
	return 0;
}
