/* capacity.c - limit and restore a drive's capacity (short-stroking): the
 * engine. It plans (the target, the rules every method shares), journals,
 * locks the disk, watches a format in progress, and verifies; what each
 * method sends is its struct cap_method_ops, one file each in this folder. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shortstroke/capacity.h"
#include "shortstroke/probe.h"
#include "shortstroke/sat.h"
#include "shortstroke/sysdisk.h"
#include "shortstroke/units.h"
#include "capacity_priv.h"

/* The methods in the order auto prefers them. */
static const struct cap_method_ops *const methods[] = {
	&cap_amac_ops,	 &cap_hpa_ops,	   &cap_dco_ops,       &cap_resize_ops,
	&cap_format_ops, &cap_nvme_ns_ops, &cap_partition_ops,
};
#define N_METHODS (sizeof(methods) / sizeof(methods[0]))

const struct cap_method_ops *cap_method_at(size_t k)
{
	return k < N_METHODS ? methods[k] : NULL;
}

const struct cap_method_ops *cap_method_get(enum cap_method m)
{
	for (size_t k = 0; k < N_METHODS; k++)
		if (methods[k]->id == m)
			return methods[k];
	return NULL;
}

const char *cap_method_name(enum cap_method m)
{
	const struct cap_method_ops *o = cap_method_get(m);

	return o ? o->name : m == CAP_AUTO ? "auto" : "?";
}

int cap_method_parse(const char *s, enum cap_method *out)
{
	if (!strcmp(s, "auto")) {
		*out = CAP_AUTO;
		return 0;
	}
	for (size_t k = 0; k < N_METHODS; k++) {
		if (!strcmp(s, methods[k]->name)) {
			*out = methods[k]->id;
			return 0;
		}
	}
	return -EINVAL;
}

unsigned cap_method_flags(const char *name)
{
	enum cap_method m;

	return cap_method_parse(name, &m) || m == CAP_AUTO ? 0 : cap_method_get(m)->flags;
}

unsigned cap_flags(enum cap_method m)
{
	const struct cap_method_ops *o = cap_method_get(m);

	return o ? o->flags : 0;
}

/* The names of the methods whose need is in bits (0: any), with every flag
 * of with and none of without, joined by sep. */
static void join(char *buf, size_t len, unsigned bits, unsigned with, unsigned without,
		 const char *sep)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t k = 0; k < N_METHODS && off < len; k++) {
		const struct cap_method_ops *o = methods[k];

		if ((!bits || (bits & o->need)) && (o->flags & with) == with &&
		    !(o->flags & without))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? sep : "",
						o->name);
	}
}

void cap_method_list(char *buf, size_t len, unsigned with, unsigned without, const char *sep)
{
	join(buf, len, 0, with, without, sep);
}

void cap_methods_text(unsigned bits, char *buf, size_t len)
{
	if (!bits && len)
		buf[0] = '\0';
	else
		join(buf, len, bits, 0, 0, ",");
}

void cap_method_names(char *buf, size_t len, unsigned without)
{
	size_t off = (size_t)snprintf(buf, len, "auto");

	for (size_t k = 0; k < N_METHODS && off < len; k++)
		if (!(methods[k]->flags & without))
			off += (size_t)snprintf(buf + off, len - off, ", %s", methods[k]->name);
}

/* Whether the drive reports the capability m needs. */
static bool supports(const struct drive_info *i, const struct cap_method_ops *o)
{
	return (i->methods & o->need) != 0;
}

const struct cap_method_ops *cap_method_pick(const struct drive_info *i, bool prefer_volatile)
{
	const struct cap_method_ops *first = NULL;

	for (size_t k = 0; k < N_METHODS; k++) {
		const struct cap_method_ops *o = methods[k];
		unsigned family = i->ata ? CAPM_ATA : CAPM_SCSI;

		if (!(o->flags & CAPM_AUTO) || !(o->flags & family) || !supports(i, o))
			continue;
		if (!prefer_volatile || (o->flags & CAPM_VOLATILE))
			return o;
		if (!first)
			first = o; /* no volatile form: taken if none has one */
	}
	return first;
}

/* The ops of a plan's method (never CAP_AUTO there). */
static const struct cap_method_ops *ops_of(enum cap_method m)
{
	return cap_method_get(m);
}

static const char *human(uint64_t bytes, char *buf, size_t len)
{
	return size_human(bytes, buf, len);
}

/* ---- planning (pure) ------------------------------------------------------ */

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint64_t lcm(uint64_t a, uint64_t b)
{
	if (!a || !b)
		return a ? a : (b ? b : 1);
	return a / gcd(a, b) * b;
}

static enum cap_method pick_method(const struct drive_info *i, const struct cap_request *r)
{
	const struct cap_method_ops *o;

	if (r->method != CAP_AUTO)
		return r->method;
	/* AMAC has no volatile form: a trial run uses HPA */
	o = cap_method_pick(i, r->volatile_);
	return o ? o->id : CAP_AUTO;
}

int cap_locked_error(const char *dev, struct ss_error *err)
{
	return ss_error_set(err, -EACCES,
			    "%s: the drive is security-locked; unlock it first (hdparm "
			    "--security-unlock)",
			    dev);
}

/* The method's own rules for a limit, and a locked drive. */
static int method_rules(const struct drive_info *i, const struct cap_method_ops *o, const char *dev,
			struct ss_error *err)
{
	int rc;

	rc = o->plan ? o->plan(i, false, dev, err) : 0;
	if (rc)
		return rc;
	if (i->sec_locked)
		return cap_locked_error(dev, err);
	return 0;
}

static int check_method_rules(const struct drive_info *i, const struct cap_method_ops *o, bool vol,
			      const char *dev, struct ss_error *err)
{
	if (vol && !(o->flags & CAPM_VOLATILE))
		return ss_error_usage(err, -EINVAL,
				      "%s: --volatile needs the HPA method (SET MAX ADDRESS); %s "
				      "changes are permanent",
				      dev, o->name);
	return method_rules(i, o, dev, err);
}

/* NVMe has no HPA nor any limit that keeps the data: what it offers instead */
static int nvme_no_auto(const struct drive_info *i, const char *dev, struct ss_error *err)
{
	if (i->methods & METHOD_NVME_NS)
		return ss_error_set(
		    err, -EOPNOTSUPP,
		    "%s: an NVMe drive has no Host Protected Area; --method nvme-ns "
		    "deletes the namespace and creates a smaller one (destroys all "
		    "data), --method partition limits it with a partition instead",
		    dev);
	return ss_error_set(err, -EOPNOTSUPP,
			    "%s: an NVMe drive has no Host Protected Area, and this controller "
			    "does not offer namespace management (OACS bit 3): its capacity "
			    "cannot be made smaller; --method partition limits it with a "
			    "partition instead",
			    dev);
}

/* A drive that can never take the method, or does not report it. */
static int method_fits(const struct drive_info *i, const struct cap_method_ops *o, const char *dev,
		       struct ss_error *err)
{
	char h1[96];
	int rc;

	rc = o->fits ? o->fits(i, dev, err) : 0;
	if (rc)
		return rc;
	if (!supports(i, o) && i->tran == TRAN_NVME && o->id != CAP_NVME_NS)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the %s method is not for NVMe drives (NVMe has no Host "
				    "Protected Area nor mode pages): --method %s",
				    dev, o->name,
				    i->methods & METHOD_NVME_NS ? "nvme-ns or partition"
								: "partition");
	if (!supports(i, o) && o->id == CAP_NVME_NS)
		return ss_error_set(
		    err, -EOPNOTSUPP, "%s: %s", dev,
		    i->tran == TRAN_NVME
			? "the controller does not offer namespace management (OACS "
			  "bit 3): no namespace can be made smaller, and NVMe has no "
			  "Host Protected Area; --method partition limits it with a "
			  "partition instead"
			: "the nvme-ns method is for NVMe drives only");
	if (!supports(i, o)) {
		cap_methods_text(i->methods, h1, sizeof(h1));
		return ss_error_set(
		    err, -EOPNOTSUPP,
		    "%s: the drive does not support the %s method (it supports: %s)", dev, o->name,
		    h1);
	}
	return 0;
}

int cap_method_usable(const struct drive_info *i, const struct cap_method_ops *o, const char *dev,
		      struct ss_error *err)
{
	int rc = method_fits(i, o, dev, err);

	return rc ? rc : method_rules(i, o, dev, err);
}

static int corrupt_error(const char *dev, struct ss_error *err)
{
	return ss_error_set(err, -EIO,
			    "%s: MEDIUM FORMAT CORRUPTED: a format was interrupted (power loss?). "
			    "The drive needs a new format: run 'shortstroke limit --method "
			    "scsi-format' (or 'restore --method scsi-format') on it",
			    dev);
}

/* A format runs: nothing can be known of the drive's size until it ends. */
static int plan_after_format(const struct drive_info *i, const struct cap_request *r,
			     struct cap_plan *p)
{
	char pct[32] = "";

	p->wait_format = true;
	p->req = *r;
	if (i->format_progress >= 0)
		snprintf(pct, sizeof(pct), " (%.0f %%)", 100.0 * i->format_progress);
	snprintf(p->note, sizeof(p->note),
		 "a format is in progress%s: watching it to its end, then limiting by %s", pct,
		 cap_method_name(p->method));
	return 0;
}

/* What a percentage was of, for the plan line: the native max goes unsaid. */
static const char *ref_source(enum cap_full_source full, bool dco_ref)
{
	if (dco_ref)
		return ", the DCO maximum";
	if (full == CAP_FULL_JOURNAL)
		return ", the journaled original";
	if (full == CAP_FULL_CURRENT)
		return ", the current capacity";
	return "";
}

/*
 * A limit lowers a disk: it never gives back more than the disk had before
 * shortstroke limited it (the journaled original), or, with nothing
 * journaled, more than it has now. Above that lies what a vendor's HPA or
 * DCO, or another tool, hid: restore --to-native gives that back, after its
 * own checks.
 */
static int above_own(const struct drive_info *i, const struct journal_entry *orig, uint64_t target,
		     const char *dev, struct ss_error *err)
{
	bool journaled = orig && orig->original_blocks && orig->block_len == i->logical_block;
	uint64_t bound = i->capacity_blocks;
	char h1[32], h2[32];

	if (journaled && orig->original_blocks > bound)
		bound = orig->original_blocks;
	if (target <= bound || !i->capacity_blocks)
		return 0;
	return ss_error_usage(err, -ERANGE,
			      "%s: %" PRIu64 " blocks (%s) is more than the %" PRIu64
			      " blocks (%s) "
			      "it %s; a limit does not give back what shortstroke did not hide (a "
			      "vendor's HPA or DCO, another tool): restore --to-native does",
			      dev, target, human(target * i->logical_block, h1, sizeof(h1)), bound,
			      human(bound * i->logical_block, h2, sizeof(h2)),
			      journaled ? "had before shortstroke limited it" : "has now");
}

/* A drive with several actuators serves each range of its LBAs with a head
 * stack of its own (cpr.h): a method that cuts the end of the LBAs off
 * takes the last actuators' ranges away, and their share of the random
 * IOPS with them. Refused unless forced, offering the partition method. */
static int multi_actuator_refusal(const struct drive_info *i, const struct cap_method_ops *o,
				  const struct cap_request *r, const char *dev,
				  struct ss_error *err)
{
	const struct cpr_ranges *c = &i->ranges;

	if (!cpr_multi(c) || (o->flags & CAPM_KEEPS_SIZE) || r->force)
		return 0;
	return ss_error_set(
	    err, -EPERM,
	    "%s: has %u actuators, each serving its own range of the LBAs (actuator 1's from "
	    "LBA %" PRIu64 "); %s cuts the end of the LBAs off, so the outer band kept would be "
	    "actuator 0's alone and actuator 1's range cut away: random IOPS halved. "
	    "--method partition puts a partition at the outer edge of each actuator's range "
	    "(the same share of each), which 'apply' stripes with md RAID 0; --force cuts the "
	    "end all the same",
	    dev, c->n, c->r[1].lba, o->name);
}

int cap_plan_limit(const struct drive_info *i, const struct journal_entry *orig,
		   const struct cap_request *r, struct cap_plan *p, struct ss_error *err)
{
	const char *dev = i->model[0] ? i->model : "drive";
	const struct cap_method_ops *o;
	uint64_t ref, target, unit, align_blocks;
	enum cap_full_source full;
	bool dco_ref;
	char h1[96], h2[32];
	int rc;

	memset(p, 0, sizeof(*p));
	if (!i->logical_block && i->format != DRIVE_FORMAT_RUNNING)
		return ss_error_set(err, -EPROTO, "%s: unknown block size", dev);
	p->block_len = i->logical_block;
	p->phys_block = i->physical_block >= i->logical_block ? i->physical_block
							      : i->logical_block;
	p->current = i->capacity_blocks;
	p->volatile_ = r->volatile_;
	p->method = pick_method(i, r);
	if (p->method == CAP_AUTO && i->tran == TRAN_NVME)
		return nvme_no_auto(i, dev, err);
	if (p->method == CAP_AUTO)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: supports none of AMAC, HPA or a SCSI resize; "
				    "--method partition limits it with a partition instead",
				    dev);
	o = ops_of(p->method);
	if (!o)
		return ss_error_set(err, -EINVAL, "%s: no such method", dev);
	rc = method_fits(i, o, dev, err);
	if (rc)
		return rc;
	rc = check_method_rules(i, o, r->volatile_, dev, err);
	if (rc)
		return rc;
	rc = multi_actuator_refusal(i, o, r, dev, err);
	if (rc)
		return rc;
	if (i->format == DRIVE_FORMAT_RUNNING)
		return plan_after_format(i, r, p);
	if (i->format == DRIVE_FORMAT_CORRUPT && !(o->flags & CAPM_FORMATS))
		return corrupt_error(dev, err);

	/* the full capacity a percentage and the upper bound refer to */
	full = cap_full_capacity(i, orig, &ref);
	dco_ref = (o->flags & CAPM_SETS_NATIVE) && i->dco_max_blocks > ref;
	if (dco_ref)
		ref = i->dco_max_blocks; /* DCO sets the native max itself, up to this */
	p->native = full == CAP_FULL_CURRENT ? 0 : ref;

	switch (r->by) {
	case CAP_BY_BYTES:
		target = r->bytes / p->block_len;
		break;
	case CAP_BY_PERCENT:
		if (!(r->percent > 0 && r->percent <= 100))
			return ss_error_usage(err, -EINVAL, "percentage must be in (0, 100]");
		target = (uint64_t)floor((double)ref * r->percent / 100.0);
		break;
	case CAP_BY_BLOCKS:
		target = r->blocks;
		break;
	case CAP_BY_LBA:
		if (r->lba == UINT64_MAX)
			return ss_error_usage(err, -ERANGE, "LBA out of range");
		target = r->lba + 1;
		break;
	default:
		return ss_error_usage(err, -EINVAL, "no size given");
	}
	if (target == 0 || (r->by == CAP_BY_BYTES && r->bytes == 0) ||
	    (r->by == CAP_BY_BLOCKS && r->blocks == 0))
		return ss_error_usage(err, -EINVAL, "a limit of zero would leave nothing usable");
	if (target > ref) {
		if (p->native)
			return ss_error_usage(
			    err, -ERANGE,
			    "%s: %" PRIu64 " blocks (%s) is beyond %s of %" PRIu64 " blocks (%s)",
			    dev, target, human(target * p->block_len, h1, sizeof(h1)),
			    dco_ref ? "the DCO maximum" : cap_full_source_name(full), ref,
			    human(ref * p->block_len, h2, sizeof(h2)));
		return ss_error_usage(err, -ERANGE,
				      "%s: %" PRIu64
				      " blocks (%s) is beyond the current capacity of "
				      "%" PRIu64 " blocks (%s), and the drive reports no native "
				      "maximum; restore it first",
				      dev, target, human(target * p->block_len, h1, sizeof(h1)),
				      ref, human(ref * p->block_len, h2, sizeof(h2)));
	}
	rc = above_own(i, orig, target, dev, err);
	if (rc)
		return rc;

	/* round down to the physical block and to the alignment */
	align_blocks = (r->align ? r->align : (1u << 20)) / p->block_len;
	unit = lcm(p->phys_block / p->block_len, align_blocks ? align_blocks : 1);
	if (unit > 1)
		target -= target % unit;
	if (target == 0)
		return ss_error_usage(err, -EINVAL,
				      "%s: the limit is smaller than one alignment unit (%" PRIu64
				      " blocks); nothing would be left",
				      dev, unit);
	if (target * p->block_len < CAP_MIN_BYTES && !r->force)
		return ss_error_usage(
		    err, -EINVAL,
		    "%s: a limit of %s is under 1 GiB, almost certainly a mistake; "
		    "--force allows it",
		    dev, human(target * p->block_len, h1, sizeof(h1)));
	p->target = target;
	if (target == p->current && i->format == DRIVE_FORMAT_CORRUPT) {
		snprintf(p->note, sizeof(p->note),
			 "%" PRIu64 " blocks (%s) again (the medium is corrupted: a format was "
			 "interrupted)",
			 target, human(target * p->block_len, h1, sizeof(h1)));
		return 0;
	}
	if (target == p->current) {
		p->noop = true;
		snprintf(p->note, sizeof(p->note),
			 "already limited to %" PRIu64 " blocks (%s); nothing sent", target,
			 human(target * p->block_len, h1, sizeof(h1)));
		return 0;
	}
	snprintf(p->note, sizeof(p->note), "%" PRIu64 " blocks (%s, %.1f%% of %s%s%s)", target,
		 human(target * p->block_len, h1, sizeof(h1)), 100.0 * (double)target / (double)ref,
		 human(ref * p->block_len, h2, sizeof(h2)), ref_source(full, dco_ref),
		 cpr_multi(&i->ranges) && (o->flags & CAPM_KEEPS_SIZE)
		     ? "; the same share of each actuator's range, at its outer edge"
		     : "");
	cap_plan_discard(i, p);
	return 0;
}

int cap_plan_limit_drive(struct cap_ctx *c, const struct cap_request *r, struct cap_plan *p,
			 struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry orig;
	int rc = journal_original(c->state_dir, i->serial, i->wwn, &orig, err);

	/* a journal that cannot be read is no "nothing journaled" */
	if (rc && rc != -ENOENT)
		return rc;
	ss_error_clear(err);
	rc = cap_plan_limit(i, rc == 0 ? &orig : NULL, r, p, err);
	if (rc)
		return cap_frozen_advice(c, rc, err);
	rc = cap_plan_path(c, p, err);
	return rc ? rc : cap_plan_zones(c->d, i, p, err);
}

/* Will the path carry the method's commands? The harmless steps of
 * `probe` the method needs (probe.h), before anything is changed; a dry
 * run sends no MODE SELECT, not even one that changes nothing. */
/* The step of limit's checks that asks whether the path (HBA, bridge)
 * carries plan's method: the harmless commands of `probe` it needs, sent
 * to c->d (no MODE SELECT in a dry run). -EOPNOTSUPP saying why and what
 * to do when a step failed; an inconclusive one is not held against it. */
int cap_plan_path(struct cap_ctx *c, const struct cap_plan *p, struct ss_error *err)
{
	const struct cap_method_ops *o = cap_method_get(p->method);
	struct probe_report pr;
	unsigned steps;
	int rc;

	if (!o || p->noop || p->wait_format)
		return 0;
	steps = probe_steps_for(o->need);
	if (c->dry_run)
		steps &= ~PROBE_STEP_BIT(PROBE_MODE_SELECT);
	if (!steps)
		return 0;
	rc = probe_path(c->d, &c->e->info, steps, &pr, err);
	return rc ? rc : probe_method_check(&pr, o->need, cap_dev(c), err);
}

/* ---- sending the change -------------------------------------------------- */

void cap_cmd_text(const struct xcmd *x, const char *what, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	if (x->kind != XCMD_CDB) { /* NVMe: opcode, namespace, CDW10, CDW11 */
		snprintf(buf, len, "nvme %s opc %02x nsid %x cdw10 %08x cdw11 %08x  %s",
			 x->kind == XCMD_NVME_ADMIN ? "admin" : "io", x->nvme.opcode, x->nvme.nsid,
			 x->nvme.cdw10, x->nvme.cdw11, what ? what : "");
		return;
	}
	for (unsigned k = 0; k < x->cdb_len && k < sizeof(x->cdb) && at + 4 <= len; k++)
		at += (size_t)snprintf(buf + at, len - at, k ? " %02x" : "%02x", x->cdb[k]);
	if (at < len)
		snprintf(buf + at, len - at, "  %s", what ? what : "");
}

const char *cap_dev(const struct cap_ctx *c)
{
	return c->e->spec;
}

static void show(struct cap_ctx *c, const struct xcmd *x, const char *what)
{
	if (c->show)
		c->show(c->show_arg, x, what);
}

/* A SCSI command that changes the drive: shown, and sent unless dry-run. */
int cap_send_scsi(struct cap_ctx *c, struct xcmd *x, const char *what, struct scsi_sense *sense,
		  struct ss_error *err)
{
	show(c, x, what);
	if (c->dry_run)
		return 0;
	return drive_scsi(c->d, x, sense, err);
}

/* An NVMe command of a change: shown, and sent unless dry-run. */
int cap_send_nvme(struct cap_ctx *c, struct xcmd *x, const char *what, struct ss_error *err)
{
	show(c, x, what);
	if (c->dry_run)
		return 0;
	return drive_nvme(c->d, x, err);
}

/* An ATA command of a change, through SAT. */
int cap_send_ata(struct cap_ctx *c, const struct ata_tf *tf, bool ck_cond, void *buf,
		 struct ata_regs *regs, const char *what, struct ss_error *err)
{
	struct xcmd x;

	memset(&x, 0, sizeof(x));
	x.cdb_len = sat_build_ata_pt16(x.cdb, tf, ck_cond);
	if (tf->xfer_blocks) {
		x.dir = tf->write ? XFER_TO_DEV : XFER_FROM_DEV;
		x.data = buf;
		x.data_len = (size_t)tf->xfer_blocks * 512;
	}
	show(c, &x, what);
	if (c->dry_run)
		return 0;
	return drive_ata(c->d, tf, ck_cond, buf, regs, err);
}

void cap_journal_entry(const struct cap_ctx *c, const char *event, const char *method,
		       struct journal_entry *j)
{
	const struct drive_info *i = &c->e->info;

	memset(j, 0, sizeof(*j));
	snprintf(j->event, sizeof(j->event), "%s", event);
	snprintf(j->device, sizeof(j->device), "%s", c->e->spec);
	snprintf(j->serial, sizeof(j->serial), "%s", i->serial);
	snprintf(j->wwn, sizeof(j->wwn), "%s", i->wwn);
	snprintf(j->model, sizeof(j->model), "%s", i->model);
	snprintf(j->method, sizeof(j->method), "%s", method);
	j->block_len = i->logical_block;
}

static int journal_record(struct cap_ctx *c, const char *event, const char *cause,
			  enum cap_method m, uint64_t native, uint64_t original, uint64_t target,
			  bool vol, struct ss_error *err)
{
	struct journal_entry j;

	if (c->dry_run)
		return 0;
	cap_journal_entry(c, event, cap_method_name(m), &j);
	snprintf(j.cause, sizeof(j.cause), "%s", cause);
	j.native_blocks = native;
	j.original_blocks = original;
	j.target_blocks = target;
	j.volatile_ = vol;
	return journal_append(c->state_dir, &j, err);
}

static int journal_event(struct cap_ctx *c, const char *event, enum cap_method m, uint64_t native,
			 uint64_t original, uint64_t target, bool vol, struct ss_error *err)
{
	return journal_record(c, event, "", m, native, original, target, vol, err);
}

/* The tool closes an open limit by itself (cause: JOURNAL_CAUSE_*): the
 * drive has its original capacity, blocks; not the user's restore, which
 * reapply reads apart. */
static int journal_close(struct cap_ctx *c, const char *cause, enum cap_method m, uint64_t native,
			 uint64_t blocks, bool vol, struct ss_error *err)
{
	return journal_record(c, "restore-done", cause, m, native, blocks, blocks, vol, err);
}

/* Asked to stop (a signal, the TUI's abort) before the change was sent. */
static int stopped(struct cap_ctx *c, struct ss_error *err)
{
	return ss_error_set(err, -ECANCELED,
			    "%s: stopped before anything was sent to it; not changed", cap_dev(c));
}

/*
 * The change is on the drive, but the record that it is done could not be
 * appended (the journal's file system full, say): what the user is told is
 * that the disk was changed, and how it is undone or recorded, not that
 * nothing happened. The record written before the change (its original, or
 * the restore begun) stays, so restore knows what to bring back.
 */
static int done_unrecorded(struct cap_ctx *c, const char *done, uint64_t blocks, uint32_t bl,
			   enum cap_method m, struct ss_error *err)
{
	char why[sizeof(err->msg)], h[32];
	int rc = err && err->code ? err->code : -EIO;
	bool limit = done[0] == 'l';

	snprintf(why, sizeof(why), "%s", err ? err->msg : "");
	return ss_error_set(err, rc,
			    "%s: the disk WAS changed: %s %" PRIu64 " blocks (%s) by %s, but the "
			    "journal's record that the %s is done could not be written (%s). %s",
			    cap_dev(c), done, blocks, human(blocks * bl, h, sizeof(h)),
			    cap_method_name(m), limit ? "limit" : "restore", why,
			    limit
				? "Its original capacity is journaled: once the journal's file "
				  "system has room, 'shortstroke restore' undoes the limit"
				: "The journal still shows the disk limited: once its file system "
				  "has room, 'shortstroke restore' finds the disk at its original "
				  "and records it");
}

/*
 * A journaled limit that is no longer on the drive (volatile, undone by a
 * power cycle; or restored by another tool) is closed, so that the next
 * limit's original state is what the drive has now.
 */
static int journal_close_stale(struct cap_ctx *c, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry orig;
	enum cap_method m;
	int rc;

	rc = journal_original(c->state_dir, i->serial, i->wwn, &orig, err);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	if (orig.original_blocks != i->capacity_blocks || orig.block_len != i->logical_block)
		return 0;
	if (cap_method_parse(orig.method, &m))
		m = CAP_AUTO;
	return journal_close(c, JOURNAL_CAUSE_LAPSED, m, orig.native_blocks, orig.original_blocks,
			     orig.volatile_, err);
}

/* ---- verification ------------------------------------------------------------ */

/* What the drive says now, into c->e->info. */
static int reidentify(struct cap_ctx *c, struct ss_error *err)
{
	struct drive_info now;
	int rc;

	rc = drive_identify(c->d, &now, err);
	if (rc)
		return rc;
	if (c->e->tran_hint != TRAN_UNKNOWN)
		now.tran = c->e->tran_hint;
	c->e->info = now;
	return 0;
}

/* Re-read the drive and, for a real disk, make the kernel see the size. */
int cap_verify(struct cap_ctx *c, uint64_t want, struct cap_result *res, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct drive_info now;
	char h1[32], h2[32];
	int rc;

	rc = reidentify(c, err);
	if (rc)
		return rc;
	now = *i;
	res->after = now.capacity_blocks;
	if (now.capacity_blocks != want)
		return ss_error_set(
		    err, -EIO,
		    "%s: the drive reports %" PRIu64 " blocks (%s) after the change, "
		    "not %" PRIu64 " (%s): it did not take it. Power-cycle the drive "
		    "and check with 'shortstroke info'",
		    cap_dev(c), now.capacity_blocks,
		    human(now.capacity_blocks * now.logical_block, h1, sizeof(h1)), want,
		    human(want * now.logical_block, h2, sizeof(h2)));
	if (!c->e->sim) {
		const char *name = strrchr(c->e->node, '/');
		struct sysdisk_reread rr = { 0 };

		rr.name = name ? name + 1 : c->e->node;
		snprintf(rr.node, sizeof(rr.node), "%s", c->e->node);
		rr.reprobe = c->e->tran_hint == TRAN_SATA || c->e->tran_hint == TRAN_ATA;
		rr.expected_bytes = want * now.logical_block;
		rr.timeout_ms = 30000;
		if (now.tran == TRAN_NVME)
			rc = sysdisk_nvme_rescan(NULL, rr.name, rr.expected_bytes, rr.timeout_ms,
						 &rr.size_bytes, err);
		else
			rc = sysdisk_reread_capacity(&rr, err);
		if (rc)
			return rc;
		if (rr.size_bytes != want * now.logical_block)
			return ss_error_set(
			    err, -EIO,
			    "%s: the drive took the new capacity (%s) but the kernel "
			    "still sees %s; reboot or power-cycle before using it",
			    cap_dev(c), human(want * now.logical_block, h1, sizeof(h1)),
			    human(rr.size_bytes, h2, sizeof(h2)));
		if (strcmp(rr.node, c->e->node))
			snprintf(c->e->node, sizeof(c->e->node), "%s", rr.node);
	}
	return 0;
}

/* ---- limit and restore ------------------------------------------------------- */

/* A SCSI drive busy formatting (a run interrupted earlier): watch it to
 * the end first. A corrupted format only a new format can cure. */
static int scsi_settle(struct cap_ctx *c, const struct cap_method_ops *o, bool *corrupt,
		       struct ss_error *err)
{
	struct scsi_sense s;
	int st;

	*corrupt = false;
	if (c->e->info.ata || c->e->info.tran == TRAN_NVME) /* no FORMAT UNIT to watch */
		return 0;
	st = cap_unit_state(c, &s, err);
	*corrupt = st == 2;
	if (st == 1) {
		progress_report(c->progress, 0, "format in progress: watching", -1);
		return cap_format_wait(c, err);
	}
	if (st == 2 && !(o && (o->flags & CAPM_FORMATS)))
		return corrupt_error(cap_dev(c), err);
	return st < 0 ? st : 0;
}

/* One process at a time changes a disk (a dry run changes nothing). */
static int disk_lock(struct cap_ctx *c, int *fd, struct ss_error *err)
{
	*fd = -1;
	if (c->dry_run)
		return 0;
	return journal_lock_disk(c->state_dir, c->e->info.serial, c->e->info.wwn, fd, err);
}

/*
 * The change failed on a disk that had no open journal record before it.
 * When the drive shows it did not take (the capacity is the original one
 * and, for the partition method, no GPT header is there), the record is
 * closed, so that no restore is needed for it. Else it stays open for
 * restore to undo. (On a disk limited before, the open record keeps the
 * original state, which a failed change does not alter.)
 */
static void limit_failed(struct cap_ctx *c, const struct cap_plan *p)
{
	const struct cap_method_ops *o = ops_of(p->method);
	struct drive_info now;

	if (c->dry_run || drive_identify(c->d, &now, NULL))
		return;
	if (now.capacity_blocks != p->current || now.logical_block != p->block_len)
		return;
	if (o->undone && !o->undone(c))
		return;
	journal_close(c, JOURNAL_CAUSE_FAILED, p->method, p->native, p->current, p->volatile_,
		      NULL);
}

/* A plan for a zoned disk that was not rounded by cap_plan_zones. */
static int zone_guard(struct cap_ctx *c, const struct cap_plan *p, struct ss_error *err)
{
	struct cap_plan q = *p;
	int rc;

	rc = cap_plan_zones(c->d, &c->e->info, &q, err);
	if (rc || q.target == p->target)
		return rc;
	return ss_error_set(err, -EINVAL,
			    "%s: %" PRIu64 " blocks is not on a zone boundary of this zoned disk "
			    "(the zone starts at block %" PRIu64 "); nothing sent",
			    cap_dev(c), p->target, q.target);
}

/* The method's check of the drive after a change, or the capacity's. */
static int verify_by(struct cap_ctx *c, const struct cap_method_ops *o, bool restore, uint64_t want,
		     struct cap_result *res, struct ss_error *err)
{
	if (o->verify)
		return o->verify(c, restore, want, res, err);
	return cap_verify(c, want, res, err);
}

static int limit_locked(struct cap_ctx *c, const struct cap_plan *p, struct cap_result *res,
			struct ss_error *err)
{
	const struct cap_method_ops *o = ops_of(p->method);
	struct journal_entry orig;
	bool corrupt, was_open;
	char h1[32];
	int rc;

	memset(res, 0, sizeof(*res));
	res->method = p->method;
	res->block_len = p->block_len;
	res->before = p->current;
	res->native = p->native;
	res->dry_run = c->dry_run;
	if (!o)
		return ss_error_set(err, -EINVAL, "%s: the plan names no method", cap_dev(c));
	if (progress_cancelled(c->progress))
		return stopped(c, err);
	rc = zone_guard(c, p, err);
	if (rc)
		return rc;
	rc = scsi_settle(c, o, &corrupt, err);
	if (rc)
		return rc;
	if (p->noop && !corrupt) { /* a corrupted medium needs the format all the same */
		res->noop = true;
		res->after = p->current;
		snprintf(res->message, sizeof(res->message), "%s", p->note);
		return 0;
	}
	if (progress_cancelled(c->progress))
		return stopped(c, err);
	rc = journal_close_stale(c, err);
	if (rc)
		return rc;
	was_open = journal_original(c->state_dir, c->e->info.serial, c->e->info.wwn, &orig, NULL) ==
		   0;
	rc = journal_event(c, "limit", p->method, p->native, p->current, p->target, p->volatile_,
			   err);
	if (rc)
		return ss_error_prefix(err, "%s: nothing sent: ", cap_dev(c));
	if (progress_cancelled(c->progress)) {
		/* journaled, not sent: the record is closed (the disk has what it had;
		 * on a disk limited before, the open record still holds its original) */
		if (!was_open)
			journal_event(c, "restore-done", p->method, p->native, p->current,
				      p->current, p->volatile_, NULL);
		return stopped(c, err);
	}
	/* a flash drive: told the range is free while it can still be reached */
	rc = cap_discard(c, p, err);
	if (!rc && p->discard && progress_cancelled(c->progress)) {
		/* stopped between the two: the size is what it was */
		if (!was_open)
			journal_event(c, "restore-done", p->method, p->native, p->current,
				      p->current, p->volatile_, NULL);
		return stopped(c, err);
	}
	if (!rc) {
		progress_report(c->progress, 0, cap_method_name(p->method), -1);
		rc = o->set(c, p->target, p->volatile_, err);
	}
	if (rc) {
		/* stopped while a format runs on: the record stays open, and no
		 * command is sent to look */
		if (!was_open && !progress_cancelled(c->progress))
			limit_failed(c, p);
		return rc;
	}
	if (c->dry_run) {
		res->after = p->target;
		snprintf(res->message, sizeof(res->message),
			 "dry run: would limit to %s by %s; nothing was sent", p->note,
			 cap_method_name(p->method));
		return 0;
	}
	rc = verify_by(c, o, false, p->target, res, err);
	if (rc)
		return rc;
	rc = journal_event(c, "limit-done", p->method, p->native, p->current, p->target,
			   p->volatile_, err);
	if (rc)
		return done_unrecorded(c, "limited to", res->after, p->block_len, p->method, err);
	snprintf(res->message, sizeof(res->message), "limited to %" PRIu64 " blocks (%s) by %s%s",
		 res->after, human(res->after * p->block_len, h1, sizeof(h1)),
		 cap_method_name(p->method),
		 p->volatile_ ? " (volatile: a power cycle undoes it)" : "");
	return 0;
}

/* A format that ran when the command began: watched to its end, and the
 * drive seen as it is after it. */
static int settle_format(struct cap_ctx *c, struct cap_result *res, struct ss_error *err)
{
	int rc;

	progress_report(c->progress, 0, "format in progress: watching", -1);
	rc = cap_format_wait(c, err);
	if (!rc)
		rc = reidentify(c, err);
	if (!rc && c->e->info.format == DRIVE_FORMAT_RUNNING)
		rc = ss_error_set(err, -EBUSY, "%s: the drive still reports a format in progress",
				  cap_dev(c));
	res->watched_format = !rc;
	return rc;
}

/* The plan made while the format ran, made again now that it is over. */
static int replan(struct cap_ctx *c, const struct cap_plan *p, struct cap_plan *fresh,
		  struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry orig;
	bool have;
	int rc;

	rc = cap_refresh_native(c, err);
	if (rc)
		return rc;
	have = journal_original(c->state_dir, i->serial, i->wwn, &orig, NULL) == 0;
	rc = cap_plan_limit(i, have ? &orig : NULL, &p->req, fresh, err);
	if (rc)
		ss_error_prefix(err, "after the format in progress: ");
	return rc;
}

/* A dry run does not wait for a format (it may take hours). */
static int dry_run_formatting(enum cap_method m, struct cap_result *res)
{
	res->dry_run = true;
	res->method = m;
	snprintf(res->message, sizeof(res->message),
		 "dry run: the drive is in the middle of a format; what to send is known "
		 "when it ends; nothing was sent");
	return 0;
}

static void note_watched(struct cap_result *res)
{
	char msg[sizeof(res->message)];

	if (!res->watched_format)
		return;
	snprintf(msg, sizeof(msg), "%s", res->message);
	snprintf(res->message, sizeof(res->message),
		 "watched the format in progress to its end; %s", msg);
}

int cap_limit(struct cap_ctx *c, const struct cap_plan *p, struct cap_result *res,
	      struct ss_error *err)
{
	struct cap_plan fresh;
	bool watched;
	int fd, rc;

	memset(res, 0, sizeof(*res));
	if (p->wait_format && c->dry_run)
		return dry_run_formatting(p->method, res);
	rc = disk_lock(c, &fd, err);
	if (rc)
		return rc;
	if (p->wait_format) {
		rc = settle_format(c, res, err);
		if (!rc)
			rc = replan(c, p, &fresh, err);
		p = &fresh;
	}
	watched = res->watched_format;
	if (!rc)
		rc = limit_locked(c, p, res, err);
	journal_unlock_disk(fd);
	res->watched_format = watched;
	note_watched(res);
	return rc;
}

/*
 * A journal record is checked against the drive before restore trusts it:
 * an original of 0 or beyond the native maximum, or smaller than what the
 * drive has now (restore would shrink it), is refused with the record.
 */
static int record_check(struct cap_ctx *c, const struct journal_entry *o, enum cap_method m,
			struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	const struct cap_method_ops *mo = ops_of(m);
	/* DCO lowers the native max itself: its bound is the factory max */
	uint64_t max = mo && (mo->flags & CAPM_SETS_NATIVE) ? i->dco_max_blocks : i->native_blocks;
	struct ss_error why = { 0 };
	char text[700];
	int rc;

	rc = journal_entry_check(o, &why);
	if (!rc && o->block_len == i->logical_block) {
		if (o->original_blocks < i->capacity_blocks)
			rc = ss_error_set(&why, -EINVAL,
					  "an original capacity of %" PRIu64
					  " blocks, less than the "
					  "%" PRIu64 " the drive has now",
					  o->original_blocks, i->capacity_blocks);
		else if (max && o->original_blocks > max)
			rc = ss_error_set(&why, -EINVAL,
					  "an original capacity of %" PRIu64 " blocks, beyond the "
					  "drive's native maximum of %" PRIu64,
					  o->original_blocks, max);
	}
	if (!rc)
		return 0;
	journal_entry_text(o, text, sizeof(text));
	return ss_error_set(err, -EPERM,
			    "%s: refused: the journal's record (line %u) says %s; it does not "
			    "describe this drive, so restore will not trust it. The record: %s",
			    cap_dev(c), o->line, why.msg, text);
}

/* No journal record: this tool did not limit the disk. Say what it has. */
static int restore_unjournaled(struct cap_ctx *c, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	bool dco = i->native_blocks && i->dco_max_blocks > i->native_blocks;
	char h1[32], h2[32], native[128], hint[160];

	if (dco)
		snprintf(native, sizeof(native),
			 "a native maximum of %" PRIu64 " blocks (%s), lowered by a DCO from "
			 "%" PRIu64 " blocks",
			 i->native_blocks,
			 human(i->native_blocks * i->logical_block, h2, sizeof(h2)),
			 i->dco_max_blocks);
	else if (i->native_blocks)
		snprintf(native, sizeof(native), "a native maximum of %" PRIu64 " blocks (%s)",
			 i->native_blocks,
			 human(i->native_blocks * i->logical_block, h2, sizeof(h2)));
	else
		snprintf(native, sizeof(native), "no native maximum reported by the drive");
	hint[0] = '\0';
	cap_depop_hint(c, hint, sizeof(hint));
	return ss_error_set(err, -EPERM,
			    "%s: refused: nothing journaled, so shortstroke did not limit this "
			    "disk (a vendor's recovery area or another tool may have). It has "
			    "%" PRIu64 " blocks (%s) and %s; --to-native takes it to its native "
			    "maximum%s%s",
			    cap_dev(c), i->capacity_blocks,
			    human(i->capacity_blocks * i->logical_block, h1, sizeof(h1)), native,
			    dco ? ", --to-native --method dco to the DCO's factory maximum" : "",
			    hint);
}

/* What restore will aim for and how, from the journal or from the drive. */
static int restore_plan(struct cap_ctx *c, enum cap_method forced, enum cap_method *m,
			uint64_t *target, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry orig;
	int rc;

	rc = journal_original(c->state_dir, i->serial, i->wwn, &orig, err);
	if (rc && rc != -ENOENT)
		return rc;
	if (rc == 0) {
		if (forced != CAP_AUTO)
			*m = forced;
		else if (cap_method_parse(orig.method, m))
			return ss_error_set(err, -EINVAL, "journal names an unknown method '%s'",
					    orig.method);
		rc = record_check(c, &orig, *m, err);
		if (rc)
			return rc;
		if (orig.block_len != i->logical_block && !(cap_flags(*m) & CAPM_FORMATS))
			return ss_error_set(
			    err, -EINVAL,
			    "%s: the journal recorded %u-byte blocks, the drive now "
			    "has %u; restore it with --method scsi-format",
			    cap_dev(c), orig.block_len, i->logical_block);
		*target = orig.original_blocks;
		return 0;
	}
	/* nothing journaled: back to the drive's native maximum, if asked to */
	if (!c->to_native && !(i->native_blocks && i->capacity_blocks == i->native_blocks))
		return restore_unjournaled(c, err); /* (at the native max: nothing to do) */
	*m = forced;
	if (*m == CAP_AUTO) {
		const struct cap_method_ops *o = cap_method_pick(i, false);

		if (!o)
			return ss_error_set(err, -EOPNOTSUPP,
					    "%s: nothing journaled and no method to restore with",
					    cap_dev(c));
		*m = o->id;
	}
	/* at the native max, where there is nothing to undo; but a method whose
	 * restore does more than set the capacity would undo what a vendor or
	 * another tool did (DCO RESTORE: the factory maximum; the partition
	 * method: wipe the GPT there, whoever wrote it; a format): only with
	 * --to-native */
	if (!c->to_native && (cap_flags(*m) & CAPM_RESTORE_NEEDS_NATIVE))
		return restore_unjournaled(c, err);
	if (i->ata && !(cap_flags(*m) & CAPM_SETS_NATIVE)) {
		if (!i->native_blocks)
			return ss_error_set(err, -EOPNOTSUPP,
					    "%s: nothing journaled and the drive does not report "
					    "its native max address",
					    cap_dev(c));
		*target = i->native_blocks;
	} else {
		*target = UINT64_MAX; /* SCSI: the maximum; DCO: factory max */
	}
	return 0;
}

/* The drive has the size restore aims for and nothing else to undo (o is
 * NULL for a restore already done). */
static bool at_target(struct cap_ctx *c, const struct cap_method_ops *o, uint64_t target)
{
	if (target != c->e->info.capacity_blocks)
		return false;
	return !o || (!(o->flags & CAPM_SETS_NATIVE) && (!o->undone || o->undone(c)));
}

/* The rules a restore by m must meet, known before anything is sent. */
static int restore_rules(struct cap_ctx *c, enum cap_method m, bool vol, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;

	const struct cap_method_ops *o = ops_of(m);

	if (vol && !(cap_flags(m) & CAPM_VOLATILE))
		return ss_error_usage(err, -EINVAL, "%s: --volatile needs the HPA method",
				      cap_dev(c));
	if (!o || !supports(i, o))
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive does not support the %s method", cap_dev(c),
				    cap_method_name(m));
	return o->plan ? cap_frozen_advice(c, o->plan(i, true, cap_dev(c), err), err) : 0;
}

/* The journal's newest record of the disk is the "restore-done" of the
 * size it has now, and no limit is open: a restore already happened. */
static bool last_restore_holds(struct cap_ctx *c, enum cap_method forced,
			       struct journal_entry *last)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry orig;

	return forced == CAP_AUTO && i->format == DRIVE_FORMAT_NONE &&
	       journal_original(c->state_dir, i->serial, i->wwn, &orig, NULL) == -ENOENT &&
	       !journal_last(c->state_dir, i->serial, i->wwn, last, NULL) &&
	       !strcmp(last->event, "restore-done") && last->target_blocks == i->capacity_blocks &&
	       last->block_len == i->logical_block;
}

/* The limits journaled since the disk's last restore-done: whether every
 * one was a trial (volatile), and the newest one's size. */
struct trial_scan {
	bool open, all_volatile;
	uint64_t target;
};

static int trial_cb(void *arg, const struct journal_entry *e)
{
	struct trial_scan *s = arg;

	if (!strcmp(e->event, "restore-done")) {
		s->open = false;
	} else if (!strcmp(e->event, "limit")) {
		s->all_volatile = (s->open ? s->all_volatile : true) && e->volatile_;
		s->open = true;
		s->target = e->target_blocks;
	}
	return 0;
}

/*
 * Is what restore undoes a trial? Every limit journaled since the last
 * restore was volatile, so the drive's permanent maximum is still the
 * original. Then, by the drive's current and native max: 1 when it still
 * has the newest trial's size (not power-cycled since, or reapply put it
 * back): the restore is a trial too, a volatile SET MAX that leaves the one
 * permanent change a drive takes per power cycle to the limit that usually
 * follows; 2 when it is back at the original (a power cycle undid it):
 * nothing to send; 0 otherwise (not a trial, or a size nobody journaled:
 * the permanent restore).
 */
static int trial_state(struct cap_ctx *c, enum cap_method m, uint64_t original)
{
	const struct drive_info *i = &c->e->info;
	struct trial_scan s = { 0 };

	if (!(cap_flags(m) & CAPM_VOLATILE) ||
	    journal_for_disk(c->state_dir, i->serial, i->wwn, trial_cb, &s, NULL) || !s.open ||
	    !s.all_volatile || (i->native_blocks && original > i->native_blocks))
		return 0;
	if (i->capacity_blocks == original)
		return 2;
	return i->capacity_blocks == s.target ? 1 : 0;
}

int cap_plan_restore(struct cap_ctx *c, enum cap_method forced, bool vol, struct cap_plan *p,
		     struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	const struct cap_method_ops *o;
	struct journal_entry orig;
	bool journaled;
	char h1[32];
	int rc, trial;

	memset(p, 0, sizeof(*p));
	p->block_len = i->logical_block;
	p->phys_block = i->physical_block;
	p->current = i->capacity_blocks;
	p->native = i->native_blocks;
	p->volatile_ = vol;
	if (last_restore_holds(c, forced, &orig)) { /* a re-run after a kill */
		if (cap_method_parse(orig.method, &p->method))
			p->method = CAP_AUTO;
		p->target = p->current;
		p->noop = true;
		snprintf(p->note, sizeof(p->note),
			 "%" PRIu64 " blocks (%s, already restored: journal line %u)", p->target,
			 human(p->target * i->logical_block, h1, sizeof(h1)), orig.line);
		return 0;
	}
	rc = restore_plan(c, forced, &p->method, &p->target, err);
	if (rc)
		return rc;
	journaled = journal_original(c->state_dir, i->serial, i->wwn, &orig, NULL) == 0;
	trial = journaled ? trial_state(c, p->method, p->target) : 0;
	p->trial = trial != 0;
	if (trial == 1)
		p->volatile_ = vol = true;
	rc = restore_rules(c, p->method, vol, err);
	if (rc)
		return rc;
	o = ops_of(p->method);
	p->noop = at_target(c, o, p->target);
	if (p->noop && trial == 2)
		snprintf(p->note, sizeof(p->note),
			 "already at %" PRIu64 " blocks (%s, the journaled original): a power "
			 "cycle undid the trial (volatile) limit; nothing to send",
			 p->target, human(p->target * i->logical_block, h1, sizeof(h1)));
	else if (p->target == UINT64_MAX || (o->flags & CAPM_SETS_NATIVE))
		snprintf(p->note, sizeof(p->note), "the drive's %s maximum",
			 (o->flags & CAPM_SETS_NATIVE) ? "factory" : "native");
	else
		snprintf(p->note, sizeof(p->note), "%" PRIu64 " blocks (%s, the %s)", p->target,
			 human(p->target * i->logical_block, h1, sizeof(h1)),
			 journaled ? "journaled original" : "native maximum");
	if (p->noop)
		cap_depop_hint(c, p->note, sizeof(p->note));
	return 0;
}

static int restore_locked(struct cap_ctx *c, enum cap_method forced, bool vol,
			  struct cap_result *res, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint64_t target, before = i->capacity_blocks, native = i->native_blocks;
	const struct cap_method_ops *o;
	struct cap_plan plan;
	enum cap_method m;
	bool corrupt;
	char h1[32];
	int rc;

	memset(res, 0, sizeof(*res));
	res->before = before;
	res->block_len = i->logical_block;
	res->native = native;
	res->dry_run = c->dry_run;
	rc = cap_plan_restore(c, forced, vol, &plan, err);
	if (rc)
		return rc;
	m = res->method = plan.method;
	o = ops_of(m);
	target = plan.target;
	vol = plan.volatile_; /* a trial's restore is a trial (cap_plan_restore) */
	if (progress_cancelled(c->progress))
		return stopped(c, err);
	rc = scsi_settle(c, o, &corrupt, err);
	if (rc)
		return rc;
	if (!corrupt && at_target(c, o, target)) {
		res->noop = true;
		res->after = before;
		snprintf(res->message, sizeof(res->message),
			 "already at %" PRIu64 " blocks (%s)%s; nothing sent", before,
			 human(before * i->logical_block, h1, sizeof(h1)),
			 plan.trial ? ": a power cycle already undid the trial (volatile) limit"
				    : "");
		/* the user's restore, which reapply must see: a failure to say it is one */
		return journal_event(c, "restore-done", m, native, before, before, false, err);
	}
	if (!o)
		return ss_error_set(err, -EINVAL, "%s: no method to restore with", cap_dev(c));
	if (progress_cancelled(c->progress))
		return stopped(c, err);
	rc = journal_event(c, "restore", m, native, before, target, vol, err);
	if (rc)
		return ss_error_prefix(err, "%s: nothing sent: ", cap_dev(c));
	if (progress_cancelled(c->progress)) /* a restore begun and not sent closes nothing */
		return stopped(c, err);
	rc = o->restore(c, target, vol, err);
	if (rc)
		return rc;
	if (c->dry_run) {
		res->after = target == UINT64_MAX ? 0 : target;
		snprintf(res->message, sizeof(res->message),
			 "dry run: would restore to %s by %s%s; nothing was sent", plan.note,
			 cap_method_name(m),
			 plan.trial ? " (volatile, as the trial limit was)" : "");
		return 0;
	}
	if (target == UINT64_MAX || (o->flags & (CAPM_SETS_NATIVE | CAPM_KEEPS_SIZE))) {
		struct drive_info now;

		rc = drive_identify(c->d, &now, err);
		if (rc)
			return rc;
		target = now.capacity_blocks;
		if (now.native_blocks && (o->flags & CAPM_SETS_NATIVE))
			target = now.native_blocks;
	}
	rc = verify_by(c, o, true, target, res, err);
	if (rc)
		return rc;
	rc = journal_event(c, "restore-done", m, native, before, res->after, vol, err);
	if (rc)
		return done_unrecorded(c, "restored to", res->after, i->logical_block, m, err);
	snprintf(res->message, sizeof(res->message), "restored to %" PRIu64 " blocks (%s) by %s%s",
		 res->after, human(res->after * i->logical_block, h1, sizeof(h1)),
		 cap_method_name(m),
		 plan.trial ? " (volatile, as the trial limit was: the drive's permanent maximum "
			      "was never changed)"
		 : vol	    ? " (volatile: a power cycle undoes it)"
			    : "");
	return 0;
}

/*
 * A re-run of a restore (a batch run again after a kill): the journal's
 * newest record of the disk is the "restore-done" of the size it has now,
 * so there is nothing to bring back. True with the result filled in. When
 * the tool wrote that record itself (a limit found its volatile limit
 * undone), the user's restore is journaled now, so reapply leaves the disk
 * alone from then on; *rc says whether that failed.
 */
static bool restored_already(struct cap_ctx *c, enum cap_method forced, struct cap_result *res,
			     int *rc, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry last;
	char h1[32];

	*rc = 0;
	if (!last_restore_holds(c, forced, &last))
		return false;
	if (last.cause[0]) {
		enum cap_method m;

		if (cap_method_parse(last.method, &m))
			m = CAP_AUTO;
		*rc = journal_event(c, "restore-done", m, i->native_blocks, i->capacity_blocks,
				    i->capacity_blocks, false, err);
	}
	res->noop = true;
	res->before = res->after = i->capacity_blocks;
	res->block_len = i->logical_block;
	res->native = i->native_blocks;
	res->dry_run = c->dry_run;
	if (cap_method_parse(last.method, &res->method))
		res->method = CAP_AUTO;
	snprintf(res->message, sizeof(res->message),
		 "already restored to %" PRIu64 " blocks (%s; journal line %u); nothing sent",
		 i->capacity_blocks, human(i->capacity_blocks * i->logical_block, h1, sizeof(h1)),
		 last.line);
	return true;
}

int cap_restore(struct cap_ctx *c, enum cap_method forced, bool vol, struct cap_result *res,
		struct ss_error *err)
{
	bool watched = false;
	int fd, rc;

	memset(res, 0, sizeof(*res));
	if (c->e->info.format == DRIVE_FORMAT_RUNNING && c->dry_run)
		return dry_run_formatting(forced, res);
	rc = disk_lock(c, &fd, err);
	if (rc)
		return rc;
	if (c->e->info.format == DRIVE_FORMAT_RUNNING) {
		rc = settle_format(c, res, err);
		watched = !rc;
	}
	if (!rc && !restored_already(c, forced, res, &rc, err))
		rc = restore_locked(c, forced, vol, res, err);
	journal_unlock_disk(fd);
	res->watched_format = watched;
	note_watched(res);
	return rc;
}
