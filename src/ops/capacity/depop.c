/* depop.c - storage element depopulation: read a drive's elements and
 * their health, retire one (REMOVE ELEMENT AND TRUNCATE: erased, smaller;
 * on a zoned ATA disk REMOVE ELEMENT AND MODIFY ZONES: the element's zones
 * go offline, the capacity stays, verified with a zone report), bring them all back (RESTORE ELEMENTS AND REBUILD). Journaled before the
 * command is sent ("depop" / "elements-restore", the element, the native
 * and current capacity before and the capacity the drive's figures say it
 * ends with), locked per disk, watched to its end through REQUEST SENSE,
 * verified (the element's new state, the new capacity, the kernel's view)
 * and closed ("depop-done" / "elements-restore-done"). A disk with an open
 * limit is refused: the limit's journaled original would no longer be
 * true. The new native capacity is what later limits start from (the
 * drive reports it). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capacity_priv.h"
#include "shortstroke/depop.h"
#include "shortstroke/journal.h"
#include "shortstroke/sense.h"
#include "shortstroke/units.h"
#include "shortstroke/zones.h"

#define STATUS_PAGES 4 /* 2 KiB: the header and 63 elements */

int depop_read(struct drive *d, const struct drive_info *i, struct depop_status *out,
	       struct ss_error *err)
{
	uint8_t buf[STATUS_PAGES * 512];
	struct elem_status_hdr h;
	struct ss_error e2 = { 0 };
	size_t got = sizeof(buf);
	int rc;

	memset(out, 0, sizeof(*out));
	memset(buf, 0, sizeof(buf));
	if (i->ata) {
		struct ata_tf tf;

		elem_tf_get_status(&tf, 0, STATUS_PAGES, ELEM_FILTER_ALL, ELEM_REPORT_PHYSICAL);
		rc = drive_ata(d, &tf, false, buf, NULL, &e2);
	} else {
		uint8_t cdb[16];
		unsigned n = elem_build_get_status(cdb, 0, sizeof(buf), ELEM_FILTER_ALL,
						   ELEM_REPORT_PHYSICAL);

		rc = drive_scsi_in(d, cdb, n, buf, sizeof(buf), &got, NULL, &e2);
	}
	if (rc == -EOPNOTSUPP)
		return 0; /* the drive does not know it */
	if (rc) {
		if (err)
			*err = e2;
		return rc;
	}
	rc = elem_parse_status(buf, got, i->ata, &h, out->e, DEPOP_MAX_ELEMS, &out->n);
	if (rc)
		return ss_error_set(err, rc, "%s: malformed GET PHYSICAL ELEMENT STATUS answer",
				    drive_name(d));
	out->supported = true;
	out->total = h.total;
	out->busy_id = h.depop_id;
	out->max_depop = h.max_depop;
	out->depopulated = h.depopulated;
	out->busy = h.depop_id != 0;
	for (size_t k = 0; k < out->n; k++) {
		enum elem_health_class hc = elem_health_class(out->e[k].health);

		if (hc == ELEM_DEPOPULATING || hc == ELEM_RESTORING)
			out->busy = true;
	}
	return 0;
}

/* The element with this identifier, or NULL */
static const struct elem_desc *depop_find(const struct depop_status *s, uint32_t id)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->e[k].id == id)
			return &s->e[k];
	return NULL;
}

/* Elements that serve data */
static unsigned depop_in_service(const struct depop_status *s)
{
	unsigned n = 0;

	for (size_t k = 0; k < s->n; k++)
		n += elem_health_in_service(s->e[k].health);
	return n;
}

double depop_share(const struct elem_desc *e, uint64_t native)
{
	if (!native || e->capacity == ELEM_CAPACITY_UNSPECIFIED || e->capacity > native)
		return 0;
	return (double)e->capacity / (double)native;
}

static uint64_t native_of(const struct drive_info *i)
{
	return i->native_blocks ? i->native_blocks : i->capacity_blocks;
}

/* The elements as the drive reads them, or why it cannot say. */
static int read_status(struct cap_ctx *c, struct depop_status *s, struct ss_error *err)
{
	int rc = depop_read(c->d, &c->e->info, s, err);

	if (rc)
		return ss_error_prefix(err, "%s: reading its storage elements: ", cap_dev(c));
	if (!s->supported)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive reports no storage elements (it does not "
				    "answer GET PHYSICAL ELEMENT STATUS): it cannot retire a "
				    "head; nothing sent",
				    cap_dev(c));
	return 0;
}

/* An open limit: its journaled original would be wrong after an erase. */
static int open_limit(struct cap_ctx *c, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry o;

	if (journal_original(c->state_dir, i->serial, i->wwn, &o, NULL))
		return 0;
	return ss_error_set(err, -EPERM,
			    "%s: the disk is limited (by %s, journaled at %s): 'shortstroke "
			    "restore %s' first; a depopulation erases it and changes its native "
			    "capacity, so the limit's original could not be restored; nothing sent",
			    cap_dev(c), o.method, o.time, c->e->spec);
}

static void plan_base(struct cap_ctx *c, struct depop_plan *p, const struct depop_status *s)
{
	memset(p, 0, sizeof(*p));
	p->block_len = c->e->info.logical_block;
	p->current = c->e->info.capacity_blocks;
	p->busy = s->busy;
}

int depop_plan_remove(struct cap_ctx *c, uint32_t element, struct depop_plan *p,
		      struct ss_error *err)
{
	struct depop_status s;
	const struct elem_desc *e;
	char ids[160] = "", h1[32], h2[32];
	size_t l = 0;
	bool zoned;
	int rc;

	rc = read_status(c, &s, err);
	if (rc)
		return rc;
	zoned = c->e->info.zoned == ZONED_HOST_MANAGED || c->e->info.zoned == ZONED_HOST_AWARE;
	if (zoned && !c->e->info.ata)
		return ss_error_set(
		    err, -EOPNOTSUPP,
		    "%s: a zoned disk loses an element's zones by REMOVE ELEMENT "
		    "AND MODIFY ZONES, which shortstroke sends to ATA (ZAC) disks only, "
		    "not yet as the SCSI (ZBC) command; nothing sent",
		    cap_dev(c));
	plan_base(c, p, &s);
	p->element = element;
	p->zones = zoned;
	e = depop_find(&s, element);
	if (!e) {
		for (size_t k = 0; k < s.n && l < sizeof(ids) - 12; k++)
			l += (size_t)snprintf(ids + l, sizeof(ids) - l, "%s%" PRIu32, k ? ", " : "",
					      s.e[k].id);
		return ss_error_usage(err, -EINVAL,
				      "%s: the drive has no element %" PRIu32 " (its elements: %s)",
				      cap_dev(c), element, ids);
	}
	if (s.busy && s.busy_id == element) {
		snprintf(p->note, sizeof(p->note),
			 "element %" PRIu32 " is being removed: watch it to its end", element);
		return 0;
	}
	if (!elem_health_in_service(e->health)) {
		p->noop = !s.busy;
		snprintf(p->note, sizeof(p->note),
			 "element %" PRIu32 " is %s already; nothing to send", element,
			 elem_health_name(e->health));
		if (p->noop)
			return 0;
	}
	if (depop_in_service(&s) <= 1)
		return ss_error_set(err, -EINVAL,
				    "%s: element %" PRIu32 " is the last one that holds data; "
				    "nothing sent",
				    cap_dev(c), element);
	if (s.max_depop && s.depopulated >= s.max_depop)
		return ss_error_set(err, -EINVAL,
				    "%s: the drive allows %u depopulated elements and has %u; "
				    "nothing sent",
				    cap_dev(c), s.max_depop, s.depopulated);
	rc = open_limit(c, err);
	if (rc)
		return rc;
	if (p->zones) {
		p->expected = p->current;
		snprintf(p->note, sizeof(p->note),
			 "retire element %" PRIu32 " (health %s, %u) by REMOVE ELEMENT AND MODIFY "
			 "ZONES: its zones go offline and their data is lost, the capacity stays "
			 "%s%s",
			 element, elem_health_name(e->health), e->health,
			 size_human(p->current * p->block_len, h1, sizeof(h1)),
			 s.busy ? " (after the operation in progress ends)" : "");
		return 0;
	}
	if (e->capacity != ELEM_CAPACITY_UNSPECIFIED && e->capacity < native_of(&c->e->info))
		p->expected = native_of(&c->e->info) - e->capacity;
	snprintf(p->note, sizeof(p->note),
		 "retire element %" PRIu32 " (health %s, %u): erase all data, %s -> %s%s", element,
		 elem_health_name(e->health), e->health,
		 size_human(p->current * p->block_len, h1, sizeof(h1)),
		 p->expected ? size_human(p->expected * p->block_len, h2, sizeof(h2))
			     : "the size the drive picks",
		 s.busy ? " (after the operation in progress ends)" : "");
	return 0;
}

int depop_plan_restore(struct cap_ctx *c, struct depop_plan *p, struct ss_error *err)
{
	struct depop_status s;
	unsigned removed = 0, allowed = 0;
	int rc;

	rc = read_status(c, &s, err);
	if (rc)
		return rc;
	plan_base(c, p, &s);
	p->restore = true;
	for (size_t k = 0; k < s.n; k++) {
		enum elem_health_class hc = elem_health_class(s.e[k].health);

		if (hc == ELEM_DEPOPULATED || hc == ELEM_DEPOP_ERROR) {
			removed++;
			allowed += s.e[k].restore_ok;
		}
	}
	if (s.busy) {
		snprintf(p->note, sizeof(p->note),
			 "an element operation is in progress: watch it to its end, then restore");
		return 0;
	}
	if (!removed) {
		p->noop = true;
		snprintf(p->note, sizeof(p->note), "no element is depopulated; nothing to send");
		return 0;
	}
	if (!allowed)
		return ss_error_set(err, -EPERM,
				    "%s: %u element%s depopulated and the drive allows none "
				    "back (RALWD clear); nothing sent",
				    cap_dev(c), removed, removed == 1 ? " is" : "s are");
	rc = open_limit(c, err);
	if (rc)
		return rc;
	snprintf(p->note, sizeof(p->note),
		 "restore %u depopulated element%s (RESTORE ELEMENTS AND REBUILD): erase all "
		 "data, back to the factory capacity",
		 removed, removed == 1 ? "" : "s");
	return 0;
}

static bool elem_busy_sense(const struct scsi_sense *s)
{
	return s->valid && s->key == SK_NOT_READY && s->asc == 0x04 &&
	       (s->ascq == 0x24 || s->ascq == 0x25);
}

/* Stopped while the drive works: it goes on. */
static int stopped_watching(struct cap_ctx *c, bool restore, double done, struct ss_error *err)
{
	char pct[32] = "";

	if (done >= 0)
		snprintf(pct, sizeof(pct), " at %.0f %%", 100.0 * done);
	return ss_error_set(err, -ECANCELED,
			    "%s: stopped watching the %s%s: it cannot be stopped and goes on "
			    "inside the drive; its journal record stays open: 'shortstroke "
			    "depop %s %s' watches it to its end and records it",
			    cap_dev(c), restore ? "restoration" : "depopulation", pct, c->e->spec,
			    restore ? "--restore" : "--element N");
}

/* Watch the drive until it no longer says an element operation runs. */
static int watch(struct cap_ctx *c, bool restore, struct ss_error *err)
{
	double done;
	int rc = cap_watch_sense(c, elem_busy_sense,
				 restore ? "restoring elements" : "depopulating", &done, err);

	if (rc == -ECANCELED)
		return stopped_watching(c, restore, done, err);
	if (rc)
		return rc;
	progress_report(c->progress, 1.0, restore ? "restored" : "depopulated", 0);
	return 0;
}

static int record(struct cap_ctx *c, const char *event, const struct depop_plan *p, uint64_t native,
		  uint64_t before, uint64_t after, struct ss_error *err)
{
	struct journal_entry j;

	if (c->dry_run)
		return 0;
	cap_journal_entry(c, event, "depop", &j);
	j.native_blocks = native;
	j.original_blocks = before;
	j.target_blocks = after;
	j.element = p->restore ? 0 : p->element;
	return journal_append(c->state_dir, &j, err);
}

/* The last record of the disk is the begin of this operation, not closed */
static bool record_open(struct cap_ctx *c, const struct depop_plan *p, uint64_t *native,
			uint64_t *before)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry j;

	if (journal_last(c->state_dir, i->serial, i->wwn, &j, NULL))
		return false;
	if (strcmp(j.event, p->restore ? "elements-restore" : "depop") ||
	    (!p->restore && j.element != p->element))
		return false;
	*native = j.native_blocks;
	*before = j.original_blocks;
	return true;
}

/* After REMOVE ELEMENT AND MODIFY ZONES: the capacity as it was, and zones
 * that read offline now (the element's) in the drive's zone report. */
static int check_zones(struct cap_ctx *c, const struct depop_plan *p, uint64_t before,
		       struct depop_result *res, struct ss_error *err)
{
	struct zone_report r;
	int rc;

	if (res->after != before)
		return ss_error_set(err, -EIO,
				    "%s: the drive reports %" PRIu64 " blocks after REMOVE ELEMENT "
				    "AND MODIFY ZONES, %" PRIu64 " before; it should keep its "
				    "capacity",
				    cap_dev(c), res->after, before);
	rc = zones_report(c->d, &c->e->info, &r, err);
	if (rc)
		return ss_error_prefix(
		    err, "%s: reading its zones after the depopulation: ", cap_dev(c));
	res->offline_zones = r.summary.offline;
	zone_report_fini(&r);
	if (!res->offline_zones)
		return ss_error_set(err, -EIO,
				    "%s: element %" PRIu32 " reads depopulated, but no zone "
				    "reads offline; check with 'shortstroke zones %s'",
				    cap_dev(c), p->element, c->e->spec);
	return 0;
}

/* After the drive ends: the element's state and the capacity, which the
 * kernel is made to see. */
static int check_end(struct cap_ctx *c, const struct depop_plan *p, uint64_t before,
		     struct depop_result *res, struct ss_error *err)
{
	struct depop_status s;
	struct cap_result cr;
	struct drive_info now;
	int rc;

	rc = read_status(c, &s, err);
	if (rc)
		return rc;
	for (size_t k = 0; k < s.n; k++) {
		uint8_t h = s.e[k].health;

		if ((!p->restore && s.e[k].id == p->element && h != ELEM_HEALTH_DEPOPULATED) ||
		    (p->restore && !elem_health_in_service(h)))
			return ss_error_set(
			    err, -EIO,
			    "%s: element %" PRIu32 " reads '%s' (%u) after the %s: "
			    "the drive did not complete it; check with 'shortstroke "
			    "info %s'",
			    cap_dev(c), s.e[k].id, elem_health_name(h), h,
			    p->restore ? "restoration" : "depopulation", c->e->spec);
	}
	rc = drive_identify(c->d, &now, err);
	if (rc)
		return rc;
	rc = cap_verify(c, now.capacity_blocks, &cr, err);
	if (rc)
		return rc;
	res->after = cr.after;
	if (p->zones)
		return check_zones(c, p, before, res, err);
	if (p->restore ? res->after < before : res->after >= before)
		return ss_error_set(err, -EIO,
				    "%s: the drive reports %" PRIu64 " blocks after the %s, "
				    "%" PRIu64 " before",
				    cap_dev(c), res->after,
				    p->restore ? "restoration" : "depopulation", before);
	return 0;
}

static int run_locked(struct cap_ctx *c, const struct depop_plan *p, struct depop_result *res,
		      struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint64_t native = native_of(i), before = i->capacity_blocks;
	struct ata_regs regs;
	struct depop_plan fresh;
	char h1[32];
	bool open;
	int rc;

	if (p->busy) {
		if (c->dry_run) {
			snprintf(res->message, sizeof(res->message),
				 "dry run: an element operation runs on the drive; what to send "
				 "is known when it ends; nothing was sent");
			return 0;
		}
		progress_report(c->progress, 0, "element operation in progress: watching", -1);
		rc = watch(c, false, err);
		if (rc)
			return rc;
		res->watched = true;
		rc = drive_identify(c->d, &c->e->info, err);
		if (!rc)
			rc = p->restore ? depop_plan_restore(c, &fresh, err)
					: depop_plan_remove(c, p->element, &fresh, err);
		if (rc)
			return rc;
		p = &fresh;
		before = i->capacity_blocks;
		native = native_of(i);
	}
	open = !c->dry_run && record_open(c, p, &native, &before);
	if (p->noop && !open) {
		res->noop = true;
		res->after = i->capacity_blocks;
		snprintf(res->message, sizeof(res->message), "%s", p->note);
		return 0;
	}
	if (!p->noop) {
		if (progress_cancelled(c->progress))
			return ss_error_set(err, -ECANCELED,
					    "%s: stopped before anything was sent to it; not "
					    "changed",
					    cap_dev(c));
		rc = record(c, p->restore ? "elements-restore" : "depop", p, native, before,
			    p->restore ? 0 : p->expected, err);
		if (rc)
			return ss_error_prefix(err, "%s: nothing sent: ", cap_dev(c));
		progress_report(c->progress, 0, p->restore ? "restore elements" : "depop", -1);
		if (i->ata) {
			struct ata_tf tf;

			if (p->restore)
				elem_tf_restore(&tf);
			else if (p->zones)
				elem_tf_remove_zones(&tf, p->element);
			else
				elem_tf_remove(&tf, p->element, 0);
			rc = cap_send_ata(
			    c, &tf, false, NULL, &regs,
			    p->restore ? "RESTORE ELEMENTS AND REBUILD (destroys all data)"
			    : p->zones ? "REMOVE ELEMENT AND MODIFY ZONES (the element's zones go "
					 "offline, their data is lost)"
				       : "REMOVE ELEMENT AND TRUNCATE (destroys all data)",
			    err);
			if (rc && p->zones && !c->dry_run)
				ss_error_prefix(err,
						"%s: the drive did not take REMOVE ELEMENT AND "
						"MODIFY ZONES (it may not support it): ",
						cap_dev(c));
		} else {
			struct xcmd x;

			memset(&x, 0, sizeof(x));
			x.cdb_len = p->restore ? elem_build_restore(x.cdb)
					       : elem_build_remove(x.cdb, p->element, 0);
			x.dir = XFER_NONE;
			x.timeout_ms = 60 * 1000;
			rc = cap_send_scsi(c, &x,
					   p->restore
					       ? "RESTORE ELEMENTS AND REBUILD (destroys all data)"
					       : "REMOVE ELEMENT AND TRUNCATE (destroys all data)",
					   NULL, err);
		}
		if (rc)
			return rc; /* the record stays: the next run reads the drive */
		if (c->dry_run) {
			res->after = p->expected;
			snprintf(res->message, sizeof(res->message),
				 "dry run: would %s; nothing was sent", p->note);
			return 0;
		}
		rc = watch(c, p->restore, err);
		if (rc)
			return rc;
	}
	rc = check_end(c, p, before, res, err);
	if (rc)
		return rc;
	rc = record(c, p->restore ? "elements-restore-done" : "depop-done", p, res->after, before,
		    res->after, err);
	if (rc)
		return ss_error_prefix(err,
				       "%s: the disk WAS changed (now %" PRIu64 " blocks), but "
				       "its journal record could not be closed: ",
				       cap_dev(c), res->after);
	if (p->restore)
		snprintf(res->message, sizeof(res->message),
			 "elements restored: %" PRIu64 " blocks (%s), erased", res->after,
			 size_human(res->after * p->block_len, h1, sizeof(h1)));
	else if (p->zones)
		snprintf(res->message, sizeof(res->message),
			 "element %" PRIu32 " depopulated: %" PRIu64 " zones read offline "
			 "('shortstroke zones %s'), the capacity stays %" PRIu64 " blocks (%s)",
			 p->element, res->offline_zones, c->e->spec, res->after,
			 size_human(res->after * p->block_len, h1, sizeof(h1)));
	else
		snprintf(res->message, sizeof(res->message),
			 "element %" PRIu32 " depopulated: %" PRIu64 " blocks (%s), erased; "
			 "later limits start from this native capacity",
			 p->element, res->after,
			 size_human(res->after * p->block_len, h1, sizeof(h1)));
	return 0;
}

int depop_run(struct cap_ctx *c, const struct depop_plan *p, struct depop_result *res,
	      struct ss_error *err)
{
	int fd = -1, rc;

	memset(res, 0, sizeof(*res));
	res->element = p->restore ? 0 : p->element;
	res->block_len = p->block_len;
	res->before = p->current;
	res->dry_run = c->dry_run;
	if (!c->dry_run) {
		rc = journal_lock_disk(c->state_dir, c->e->info.serial, c->e->info.wwn, &fd, err);
		if (rc)
			return rc;
	}
	rc = run_locked(c, p, res, err);
	journal_unlock_disk(fd);
	if (res->watched && !rc) {
		char msg[sizeof(res->message)];

		snprintf(msg, sizeof(msg), "%s", res->message);
		snprintf(res->message, sizeof(res->message),
			 "watched the element operation in progress to its end; %s", msg);
	}
	return rc;
}

void cap_depop_hint(struct cap_ctx *c, char *buf, size_t len)
{
	struct depop_status s;
	unsigned back = 0;
	size_t l = strlen(buf);

	if (depop_read(c->d, &c->e->info, &s, NULL) || !s.supported)
		return;
	for (size_t k = 0; k < s.n; k++)
		back += !elem_health_in_service(s.e[k].health) && s.e[k].restore_ok;
	if (back && l < len)
		snprintf(buf + l, len - l,
			 "; %u storage element%s retired: 'shortstroke depop --restore %s' "
			 "brings %s back (RESTORE ELEMENTS AND REBUILD, erases the disk)",
			 back, back == 1 ? "" : "s", c->e->spec, back == 1 ? "it" : "them");
}
