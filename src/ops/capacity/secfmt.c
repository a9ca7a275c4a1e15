/* secfmt.c - a drive's logical sector size changed (512e <-> 4Kn): ATA SET
 * SECTOR CONFIGURATION EXT with the descriptor's check and index; SCSI a
 * MODE SELECT of the block length, then FORMAT UNIT with FFMT 01b (fast:
 * the medium is not written), watched to its end. Journaled before the
 * command ("sector-size": the old length in block_len, the new one in
 * to_block_len, the capacity before and the one expected), locked per
 * disk, verified and closed ("sector-size-done"). Users report sizes
 * silently not applied and drives bricked behind bridges: the path is
 * checked first, and the result is read back from the drive. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capacity_priv.h"
#include "shortstroke/journal.h"
#include "shortstroke/probe.h"
#include "shortstroke/secfmt.h"
#include "shortstroke/units.h"

int secfmt_read(struct drive *d, const struct drive_info *i, struct sector_sizes *out,
		struct ss_error *err)
{
	uint8_t buf[512];
	size_t got = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(buf, 0, sizeof(buf));
	if (i->ata) {
		struct ata_tf tf;

		ata_tf_read_log_ext(&tf, ATA_LOG_SECTOR_CONFIG, 0, 1);
		rc = drive_ata(d, &tf, false, buf, NULL, NULL);
		got = sizeof(buf);
	} else {
		uint8_t cdb[6];
		unsigned n = scsi_build_inquiry(cdb, true, VPD_BLOCK_LENGTHS, 252);

		rc = drive_scsi_in(d, cdb, n, buf, 252, &got, NULL, NULL);
	}
	if (rc)
		return 0; /* no such page or log: nothing offered */
	rc = i->ata ? sector_parse_ata_log(buf, got, out) : sector_parse_vpd_b7(buf, got, out);
	if (rc)
		return ss_error_set(err, rc, "%s: malformed %s", drive_name(d),
				    i->ata ? "Sector Configuration log" : "VPD page B7h");
	return 0;
}

/* Will the path carry the change, and say the truth back? The harmless
 * steps of `probe` (probe.h) it needs: ATA the returned registers and the
 * IDENTIFY data through SAT, SCSI MODE SENSE and (not in a dry run) a MODE
 * SELECT that changes nothing. A step that failed refuses the change. */
static int path_check(struct cap_ctx *c, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct probe_report pr;
	unsigned steps;
	int rc;

	if (i->ata)
		steps = PROBE_STEP_BIT(PROBE_NATIVE_MAX) | PROBE_STEP_BIT(PROBE_IDENTIFY);
	else
		steps = PROBE_STEP_BIT(PROBE_MODE_SENSE) |
			(c->dry_run ? 0 : PROBE_STEP_BIT(PROBE_MODE_SELECT));
	rc = probe_path(c->d, i, steps, &pr, err);
	if (rc)
		return rc;
	for (unsigned s = 0; s < PROBE_NSTEPS; s++)
		if ((steps & PROBE_STEP_BIT(s)) && pr.verdict[s] == PROBE_FAILED)
			return ss_error_set(
			    err, -EPERM,
			    "%s: this path failed the pass-through check (%s: %s); a "
			    "sector size change behind it may not be applied or may "
			    "leave the drive unusable; nothing sent (--force "
			    "overrides)",
			    cap_dev(c), probe_step_name((enum probe_step)s), pr.detail[s]);
	return 0;
}

static void offered(const struct sector_sizes *s, char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < s->n && l < len; k++)
		l += (size_t)snprintf(buf + l, len - l, "%s%" PRIu32, k ? ", " : "", s->s[k].bytes);
}

int secfmt_plan(struct cap_ctx *c, uint32_t bytes, bool force, struct secfmt_plan *p,
		struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	const struct sector_size *sz;
	struct sector_sizes s;
	struct journal_entry o;
	uint64_t native = i->native_blocks ? i->native_blocks : i->capacity_blocks;
	char list[96], h1[32];
	int rc;

	memset(p, 0, sizeof(*p));
	p->from = i->logical_block;
	p->to = bytes;
	p->current = i->capacity_blocks;
	rc = secfmt_read(c->d, i, &s, err);
	if (rc)
		return rc;
	if (!s.n)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive offers no other sector size (no %s); "
				    "nothing sent",
				    cap_dev(c),
				    i->ata ? "Sector Configuration log" : "VPD page B7h");
	offered(&s, list, sizeof(list));
	sz = sector_find(&s, bytes);
	if (!sz)
		return ss_error_usage(err, -EINVAL,
				      "%s: the drive does not offer %" PRIu32 "-byte sectors (it "
				      "offers %s)",
				      cap_dev(c), bytes, list);
	p->size = *sz;
	if (bytes == i->logical_block) {
		p->noop = true;
		snprintf(p->note, sizeof(p->note),
			 "already %" PRIu32 "-byte sectors; nothing to send", bytes);
		return 0;
	}
	if (!force) {
		rc = path_check(c, err);
		if (rc)
			return rc;
	}
	if (!journal_original(c->state_dir, i->serial, i->wwn, &o, NULL))
		return ss_error_set(err, -EPERM,
				    "%s: the disk is limited (by %s, journaled at %s): "
				    "'shortstroke restore %s' first; a new sector size erases it "
				    "and changes its block count; nothing sent",
				    cap_dev(c), o.method, o.time, c->e->spec);
	p->expected = native * p->from / bytes;
	snprintf(p->note, sizeof(p->note),
		 "%" PRIu32 "-byte sectors -> %" PRIu32 " (%s): erase all data, %" PRIu64
		 " blocks of %" PRIu32 " (about: the drive says)",
		 p->from, bytes, size_human(p->expected * bytes, h1, sizeof(h1)), p->expected,
		 bytes);
	return 0;
}

static int record(struct cap_ctx *c, const char *event, const struct secfmt_plan *p,
		  uint64_t native, uint64_t after, struct ss_error *err)
{
	struct journal_entry j;

	if (c->dry_run)
		return 0;
	cap_journal_entry(c, event, "sector-size", &j);
	j.block_len = p->from;
	j.to_block_len = p->to;
	j.native_blocks = native;
	j.original_blocks = p->current;
	j.target_blocks = after;
	return journal_append(c->state_dir, &j, err);
}

static int send_change(struct cap_ctx *c, const struct secfmt_plan *p, struct ss_error *err)
{
	uint8_t param[4];
	struct xcmd x;
	int rc;

	if (c->e->info.ata) {
		struct ata_tf tf;
		struct ata_regs regs;

		sector_tf_set_config(&tf, p->size.check, p->size.index);
		return cap_send_ata(c, &tf, false, NULL, &regs,
				    "SET SECTOR CONFIGURATION EXT (destroys all data)", err);
	}
	rc = cap_scsi_select_length(c, p->to, err);
	if (rc)
		return rc;
	memset(&x, 0, sizeof(x));
	x.cdb_len = sector_build_fast_format(x.cdb);
	scsi_build_format_param_header(param, true);
	x.dir = XFER_TO_DEV;
	x.data = param;
	x.data_len = sizeof(param);
	x.timeout_ms = 120 * 1000;
	progress_report(c->progress, 0, "starting format", -1);
	rc = cap_send_scsi(c, &x, "FORMAT UNIT FMTDATA=1 FFMT=01b IMMED=1 (destroys all data)",
			   NULL, err);
	if (!rc && !c->dry_run)
		rc = cap_format_wait(c, err);
	return rc;
}

/* READ CAPACITY and (ATA) IDENTIFY say the new size and its block count */
static int check_end(struct cap_ctx *c, const struct secfmt_plan *p, struct secfmt_result *res,
		     struct ss_error *err)
{
	struct drive_info now;
	struct cap_result cr;
	int rc;

	rc = drive_identify(c->d, &now, err);
	if (rc)
		return rc;
	if (now.logical_block != p->to) {
		char h[32];

		return ss_error_set(
		    err, -EIO,
		    "%s: the drive reports %" PRIu32 "-byte sectors after the "
		    "change, not %" PRIu32 " (%" PRIu64 " blocks, %s): it did not "
		    "take it. Power-cycle it and check with 'shortstroke info'",
		    cap_dev(c), now.logical_block, p->to, now.capacity_blocks,
		    size_human(now.capacity_blocks * now.logical_block, h, sizeof(h)));
	}
	rc = cap_verify(c, now.capacity_blocks, &cr, err);
	if (rc)
		return rc;
	res->after = cr.after;
	return 0;
}

static int run_locked(struct cap_ctx *c, const struct secfmt_plan *p, struct secfmt_result *res,
		      struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint64_t native = i->native_blocks ? i->native_blocks : i->capacity_blocks;
	char h1[32];
	int rc;

	if (p->noop) {
		res->noop = true;
		res->after = p->current;
		snprintf(res->message, sizeof(res->message), "%s", p->note);
		return 0;
	}
	if (progress_cancelled(c->progress))
		return ss_error_set(err, -ECANCELED,
				    "%s: stopped before anything was sent to it; not changed",
				    cap_dev(c));
	rc = record(c, "sector-size", p, native, p->expected, err);
	if (rc)
		return ss_error_prefix(err, "%s: nothing sent: ", cap_dev(c));
	rc = send_change(c, p, err);
	if (rc)
		return rc;
	if (c->dry_run) {
		res->after = p->expected;
		snprintf(res->message, sizeof(res->message),
			 "dry run: would change %s; nothing "
			 "was sent",
			 p->note);
		return 0;
	}
	rc = check_end(c, p, res, err);
	if (rc)
		return rc;
	rc = record(c, "sector-size-done", p, res->after, res->after, err);
	if (rc)
		return ss_error_prefix(err,
				       "%s: the disk WAS changed (now %" PRIu32
				       "-byte sectors), but "
				       "its journal record could not be closed: ",
				       cap_dev(c), p->to);
	snprintf(res->message, sizeof(res->message),
		 "now %" PRIu32 "-byte sectors: %" PRIu64 " blocks (%s), erased; later limits "
		 "start from this block count",
		 p->to, res->after, size_human(res->after * p->to, h1, sizeof(h1)));
	return 0;
}

int secfmt_run(struct cap_ctx *c, const struct secfmt_plan *p, struct secfmt_result *res,
	       struct ss_error *err)
{
	int fd = -1, rc;

	memset(res, 0, sizeof(*res));
	res->from = p->from;
	res->to = p->to;
	res->before = p->current;
	res->dry_run = c->dry_run;
	if (!c->dry_run) {
		rc = journal_lock_disk(c->state_dir, c->e->info.serial, c->e->info.wwn, &fd, err);
		if (rc)
			return rc;
	}
	rc = run_locked(c, p, res, err);
	journal_unlock_disk(fd);
	return rc;
}
