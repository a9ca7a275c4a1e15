/* planning.c - a drive as a planner disk, and a plan from a layout: what
 * `plan` (src/cli/cmd_plan.c) and the TUI planner (src/tui/planner.c) share. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/array.h"
#include "shortstroke/capacity.h"
#include "shortstroke/depop.h"
#include "shortstroke/journal.h"
#include "shortstroke/planning.h"
#include "shortstroke/zones.h"

static void plan_note_for(struct plan_notes *notes, const char *disk, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The note of text base (a new one when there is none): its index, or -1
 * when the notes are full. */
static int note_of(struct plan_notes *notes, const char *base)
{
	for (size_t i = 0; i < notes->n; i++)
		if (!strcmp(notes->base[i], base))
			return (int)i;
	if (notes->n >= PLAN_MAX_NOTES)
		return -1;
	snprintf(notes->base[notes->n], sizeof(notes->base[0]), "%s", base);
	snprintf(notes->text[notes->n], sizeof(notes->text[0]), "%s", base);
	return (int)notes->n++;
}

void plan_note(struct plan_notes *notes, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	note_of(notes, buf);
}

/* A note about disk (a name, or a name with its figures: "sim:a (1048576
 * blocks)"): added to the note of the same text, or a new one. */
static void plan_note_for(struct plan_notes *notes, const char *disk, const char *fmt, ...)
{
	char buf[256];
	char *t;
	size_t used;
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	i = note_of(notes, buf);
	if (i < 0)
		return;
	t = notes->text[i];
	used = strlen(t);
	/* (a disk planned with and copied by the placeholders is read twice) */
	for (const char *at = t + strlen(notes->base[i]); (at = strstr(at, disk)); at++)
		if ((at[-1] == ' ') && (!at[strlen(disk)] || at[strlen(disk)] == ','))
			return;
	/* "TEXT: a, b, c"; a list longer than the note ends in "..." once */
	if (used + strlen(disk) + 8 < sizeof(notes->text[0]))
		snprintf(t + used, sizeof(notes->text[0]) - used, "%s%s",
			 strcmp(t, notes->base[i]) ? ", " : ": ", disk);
	else if (strcmp(t + used - 3, "..."))
		snprintf(t + used, sizeof(notes->text[0]) - used, ", ...");
}

void plan_note_left_out(struct plan_notes *notes, const char *spec, const struct ss_error *why)
{
	const char *m = why->msg;
	size_t n = strlen(spec);

	/* the reason without the disk's name: one note per reason */
	if (!strncmp(m, spec, n) && !strncmp(m + n, ": ", 2))
		m += n + 2;
	plan_note_for(notes, spec, "left out, 'apply' would refuse it (%s)", m);
}

/* Plan on the whole disk: the stroke is a share of it. The native max
 * where the drive reports one, else the journaled original (a SCSI disk
 * limited by resize or format reports only its current size), else the
 * current capacity; a note says which. A disk limited by someone else (a
 * vendor's HPA, another tool: nothing journaled) is planned on what it has
 * now: apply never raises a disk above that (only restore --to-native
 * does), and a full-stroke plan uses it whole. */
/*
 * A drive with storage elements: each element (a head and its surface)
 * holds its share of every band across the stroke, so a retired one takes
 * that share of the capacity and leaves the stroke whole, at the same rates:
 * the plan takes the native capacity the drive reports now (a stroke of N %
 * of it spans N % of the platters), and says so; an element near its limit
 * is named with the share retiring it would take.
 */
static void elements_notes(struct plan_notes *notes, const char *spec, const struct depop_status *s,
			   uint64_t native)
{
	if (!s->supported)
		return;
	if (s->depopulated)
		plan_note_for(notes, spec,
			      "%u of %u storage elements retired: the plan takes the native "
			      "capacity it has now; each took its share of every band, so a "
			      "stroke of N %% of it still spans N %% of the platters at the same "
			      "rates",
			      s->depopulated, s->total);
	for (size_t k = 0; k < s->n; k++) {
		const struct elem_desc *e = &s->e[k];
		double share = depop_share(e, native);

		if (!elem_health_in_service(e->health) || !elem_health_near_limit(e->health))
			continue;
		plan_note_for(notes, spec,
			      "storage element %u is near its limit (health %u): retiring it "
			      "('depop --element %u') would take %.1f %% of the capacity from "
			      "every band",
			      e->id, e->health, e->id, share * 100);
	}
}

static uint64_t full_capacity(struct ss_ctx *ctx, const struct dev_entry *e,
			      struct plan_notes *notes)
{
	const struct drive_info *i = &e->info;
	struct journal_entry orig;
	bool have = journal_original(ctx_state_dir(ctx), i->serial, i->wwn, &orig, NULL) == 0;
	uint64_t full;
	enum cap_full_source src = cap_full_capacity(i, have ? &orig : NULL, &full);

	char item[320];

	if (src == CAP_FULL_CURRENT) {
		snprintf(item, sizeof(item), "%s (%llu blocks)", e->spec,
			 (unsigned long long)i->capacity_blocks);
		plan_note_for(notes, item,
			      "no native max reported and no limit journaled: the plan uses the "
			      "current capacity");
	} else if (full > i->capacity_blocks && !have) {
		snprintf(item, sizeof(item), "%s (%llu of %llu blocks)", e->spec,
			 (unsigned long long)i->capacity_blocks, (unsigned long long)full);
		plan_note_for(notes, item,
			      "limited by another than shortstroke (nothing journaled): the plan "
			      "uses what it has now, as apply can ('restore --to-native' first to "
			      "plan on all of it)");
		full = i->capacity_blocks;
	} else if (full != i->capacity_blocks) {
		snprintf(item, sizeof(item), "%s (%llu of %llu blocks)", e->spec,
			 (unsigned long long)i->capacity_blocks, (unsigned long long)full);
		plan_note_for(notes, item, "limited now: the plan uses %s",
			      cap_full_source_name(src));
	}
	return full;
}

/* The largest zone of a zoned disk, in blocks (REPORT ZONES, read-only); 0
 * when the report cannot be read. */
static uint64_t zone_size(struct drive *d, const struct drive_info *i)
{
	struct zone_report r;
	uint64_t len = 0;

	if (zones_report(d, i, &r, NULL))
		return 0;
	for (size_t k = 0; k < r.count; k++)
		if (r.zones[k].len > len)
			len = r.zones[k].len;
	zone_report_fini(&r);
	return len;
}

void plan_disk_mechanics(const struct dev_mechanics *m, struct rp_disk *rp)
{
	rp->seek_t2t_ms = m->t2t_ms;
	rp->seek_avg_ms = m->avg_ms;
	rp->seek_full_ms = m->full_ms;
	rp->outer_mbps = m->outer_mbps;
	rp->inner_mbps = m->inner_mbps;
	rp->overhead_ms = m->overhead_ms;
	rp->queue_depth = m->queue_depth;
	rp->actuators = m->actuators > 1 ? m->actuators : 0;
	rp->write_cache = m->write_cache ? RP_WCACHE_ON : RP_WCACHE_OFF;
	rp->cache_mb = m->cache_mb;
	rp->link_mbps = m->link_mbps;
}

/* Would apply take the drive as a member now? 0, or -EBUSY with why: the
 * checks apply makes before it changes anything (check_members), and the
 * rpm class asked. */
static int member_refusal(struct ss_ctx *ctx, const struct dev_entry *e,
			  const struct plan_pick *pick, struct ss_error *err)
{
	const struct drive_info *i = &e->info;
	struct journal_entry orig;
	bool have = journal_original(ctx_state_dir(ctx), i->serial, i->wwn, &orig, NULL) == 0;
	struct cap_request req = { .method = array_auto_method(i),
				   .by = CAP_BY_BLOCKS,
				   .blocks = i->capacity_blocks / 2,
				   .force = true };
	struct cap_plan cp;

	if (device_check_safe(e, false, err) ||
	    array_member_elsewhere(ctx_state_dir(ctx), NULL, i, err))
		return err->code = -EBUSY;
	if (pick->rpm && array_rpm_class(i->rpm) &&
	    array_rpm_class(i->rpm) != array_rpm_class(pick->rpm))
		return ss_error_set(err, -EBUSY, "a %u rpm disk, not of the %u rpm class asked",
				    i->rpm, array_rpm_class(pick->rpm));
	/* a limit of the method apply would take (a security freeze, a locked
	 * drive, a DCO or SET MAX freeze refuse every one) */
	if (i->capacity_blocks > 1 && cap_plan_limit(i, have ? &orig : NULL, &req, &cp, err) &&
	    !err->usage) {
		char why[sizeof(err->msg)];

		/* (the limit code names the drive by its model: the note names it) */
		ss_error_subject(err, i->model);
		snprintf(why, sizeof(why), "%s", ss_error_bare(err));
		return ss_error_set(err, -EBUSY, "%s", why);
	}
	ss_error_clear(err);
	return 0;
}

int plan_disk_from_device(struct ss_ctx *ctx, const char *spec, const struct plan_pick *pick,
			  struct plan_disk *pd, struct plan_notes *notes, struct ss_error *err)
{
	struct dev_entry e;
	struct drive *d = NULL;
	const struct drive_info *i = &e.info;
	struct dev_mechanics mech;
	int rc;

	uint64_t zone_blocks = 0;
	struct depop_status els = { 0 };

	rc = device_open(ctx, spec, false, &d, &e, err);
	if (!rc && i->zoned == ZONED_HOST_AWARE)
		zone_blocks = zone_size(d, i); /* a stroke of whole zones */
	if (!rc && depop_read(d, i, &els, NULL))
		els.supported = false;
	drive_free(d);
	if (rc)
		return rc;
	if (pick && pick->member && i->zoned != ZONED_HOST_MANAGED &&
	    member_refusal(ctx, &e, pick, err))
		return -EBUSY;
	if (i->zoned == ZONED_HOST_MANAGED)
		return ss_error_usage(
		    err, -ENOTSUP,
		    "%s is a host-managed SMR disk: its sequential zones take only "
		    "sequential writes and Linux md (at every RAID level) writes in "
		    "place, so it cannot be a member of an md array",
		    spec);
	if (!i->logical_block || !i->capacity_blocks)
		return ss_error_set(err, -EIO, "%s reports no capacity; cannot plan with it", spec);
	memset(pd, 0, sizeof(*pd));
	snprintf(pd->device, sizeof(pd->device), "%s", e.spec);
	snprintf(pd->serial, sizeof(pd->serial), "%s", i->serial);
	snprintf(pd->wwn, sizeof(pd->wwn), "%s", i->wwn);
	snprintf(pd->model, sizeof(pd->model), "%s", i->model);
	pd->block_size = i->logical_block;
	pd->capacity_blocks = full_capacity(ctx, &e, notes);
	rp_disk_init(&pd->rp);
	pd->rp.capacity = pd->capacity_blocks * pd->block_size;
	pd->rp.rpm = i->rpm;
	pd->rp.actuators = i->ranges.n > 1 ? i->ranges.n : 0; /* the drive's own ranges */
	if (i->zoned == ZONED_HOST_AWARE) {
		pd->rp.zoned = RP_ZONED_HOST_AWARE;
		pd->rp.zone_bytes = zone_blocks * pd->block_size;
	}
	if (i->rpm == 1) { /* a flash drive: the stroke is the share used (docs/flash.md) */
		pd->flash = true;
		plan_note_for(notes, spec,
			      "a flash drive: its stroke is the share the host uses, the rest "
			      "TRIMmed spare area; its NAND figures (dies, page, program, read and "
			      "erase times, its own spare) are libraidplan's defaults");
	} else if (device_mechanics(ctx, spec,
				    &mech)) { /* the source models it: a simulated drive */
		plan_disk_mechanics(&mech, &pd->rp);
		plan_note_for(
		    notes, spec,
		    "capacity and rpm from the drive, its seek times, transfer rates, "
		    "command overhead, queue depth and write cache from the rig; MTTF and "
		    "URE rate are defaults for its class");
	} else if (i->rpm) {
		plan_note_for(notes, spec,
			      "capacity and rpm from the drive; seek times, transfer rates, MTTF "
			      "and URE rate are datasheet-style defaults for its class");
	} else {
		plan_note_for(notes, spec,
			      "no rotation rate reported: 7200 rpm and datasheet-style seek times, "
			      "rates, MTTF and URE rate assumed");
	}
	if (i->zoned == ZONED_HOST_MANAGED || i->zoned == ZONED_HOST_AWARE)
		plan_note_for(notes, spec,
			      "a %s SMR disk: the model does not cover SMR; its figures are "
			      "indicative only",
			      zoned_model_name(i->zoned));
	elements_notes(notes, spec, &els, pd->capacity_blocks);
	return 0;
}

struct plan *plan_from_eval(const struct plan_source *src, const struct rp_eval *ev,
			    struct ss_error *err)
{
	const struct rp_layout *l = rp_eval_layout(ev);
	const struct rp_workload *wl = src->wl;
	struct plan *p = plan_new();

	if (!p || !(p->disks = calloc(l->n_disks ? l->n_disks : 1, sizeof(*p->disks)))) {
		plan_free(p);
		ss_error_nomem(err);
		return NULL;
	}
	p->n_disks = l->n_disks;
	for (unsigned i = 0; i < l->n_disks; i++) {
		p->disks[i] = src->pool[l->members[i]];
		p->disks[i].rp.seek_curve = NULL;
		p->disks[i].rp.zone_profile = NULL;
	}
	p->layout = *l;
	p->layout.members = NULL;
	if (src->profile >= 0)
		snprintf(p->profile, sizeof(p->profile), "%s", rp_profile_name(src->profile));
	p->workload = *wl;
	p->workload.n_sizes = wl->n_sizes < PLAN_MAX_SIZES ? wl->n_sizes : PLAN_MAX_SIZES;
	for (size_t i = 0; i < p->workload.n_sizes; i++)
		p->sizes[i] = wl->sizes[i];
	p->workload.sizes = p->workload.n_sizes ? p->sizes : NULL;
	if (src->path)
		p->path = *src->path;
	p->path.links = NULL;
	p->path.n_links = 0;
	p->goals = *src->goals;
	for (int id = 0; id < plan_figure_count(); id++) {
		const struct rp_figure *f = rp_eval_figure(ev, id);

		p->predicted[id] = f ? f->value : NAN;
		p->predicted_set[id] = f && f->valid && isfinite(f->value);
	}
	for (size_t i = 0; src->notes && i < src->notes->n && i < PLAN_MAX_NOTES; i++) {
		char *n = p->notes[p->n_notes++];
		size_t cap = sizeof(p->notes[0]);

		/* a note longer than the plan file keeps ends in "..." */
		if ((size_t)snprintf(n, cap, "%s", src->notes->text[i]) >= cap)
			memcpy(n + cap - 4, "...", 4);
	}
	if (plan_set_limits(p, err)) {
		plan_free(p);
		return NULL;
	}
	return p;
}
