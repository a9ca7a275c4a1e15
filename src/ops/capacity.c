/* capacity.c - limit and restore a drive's capacity (short-stroking). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shortstroke/capacity.h"
#include "shortstroke/sat.h"
#include "shortstroke/scsi.h"
#include "shortstroke/sysdisk.h"
#include "shortstroke/units.h"
#include "capacity_priv.h"

static const char *const method_names[] = {
	[CAP_AUTO] = "auto",		[CAP_AMAC] = "amac",
	[CAP_HPA] = "hpa",		[CAP_DCO] = "dco",
	[CAP_SCSI_RESIZE] = "scsi-resize", [CAP_SCSI_FORMAT] = "scsi-format",
	[CAP_PARTITION] = "partition",
};

const char *cap_method_name(enum cap_method m)
{
	return (unsigned)m < sizeof(method_names) / sizeof(method_names[0]) ? method_names[m]
									      : "?";
}

int cap_method_parse(const char *s, enum cap_method *out)
{
	for (unsigned i = 0; i < sizeof(method_names) / sizeof(method_names[0]); i++) {
		if (!strcmp(s, method_names[i])) {
			*out = (enum cap_method)i;
			return 0;
		}
	}
	return -EINVAL;
}

static unsigned method_bit(enum cap_method m)
{
	switch (m) {
	case CAP_AMAC:
		return METHOD_AMAC;
	case CAP_HPA:
		return METHOD_HPA;
	case CAP_DCO:
		return METHOD_DCO;
	case CAP_SCSI_RESIZE:
		return METHOD_SCSI_RESIZE;
	case CAP_SCSI_FORMAT:
		return METHOD_SCSI_FORMAT;
	case CAP_PARTITION:
		return METHOD_PARTITION;
	default:
		return 0;
	}
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
	if (r->method != CAP_AUTO)
		return r->method;
	if (i->ata) {
		/* AMAC has no volatile form: a trial run uses HPA */
		if ((i->methods & METHOD_AMAC) && !(r->volatile_ && (i->methods & METHOD_HPA)))
			return CAP_AMAC;
		if (i->methods & METHOD_HPA)
			return CAP_HPA;
		return CAP_AUTO;
	}
	if (i->methods & METHOD_SCSI_RESIZE)
		return CAP_SCSI_RESIZE;
	return CAP_AUTO;
}

static int check_method_rules(const struct drive_info *i, enum cap_method m, bool vol,
			      const char *dev, struct ss_error *err)
{
	if (vol && m != CAP_HPA)
		return ss_error_set(err, -EINVAL,
				    "%s: --volatile needs the HPA method (SET MAX ADDRESS); %s "
				    "changes are permanent",
				    dev, cap_method_name(m));
	if (m == CAP_HPA && i->sec_frozen)
		return ss_error_set(err, -EACCES,
				    "%s: the drive is security-frozen (the BIOS froze it at "
				    "boot), so it will refuse SET MAX ADDRESS; power-cycle it or "
				    "suspend and resume the machine, then retry",
				    dev);
	if (i->sec_locked)
		return ss_error_set(err, -EACCES,
				    "%s: the drive is security-locked; unlock it first (hdparm "
				    "--security-unlock)",
				    dev);
	return 0;
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
		 "a format is in progress%s: watching it to its end, then limiting by %s",
		 pct, cap_method_name(p->method));
	return 0;
}

int cap_plan_limit(const struct drive_info *i, const struct journal_entry *orig,
		   const struct cap_request *r, struct cap_plan *p, struct ss_error *err)
{
	const char *dev = i->model[0] ? i->model : "drive";
	uint64_t ref, target, unit, align_blocks;
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
	if (p->method == CAP_AUTO)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: supports none of AMAC, HPA or a SCSI resize; "
				    "--method partition limits it with a partition instead",
				    dev);
	if (!(i->methods & method_bit(p->method))) {
		drive_methods_text(i->methods, h1, sizeof(h1));
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive does not support the %s method (it supports: %s)",
				    dev, cap_method_name(p->method), h1);
	}
	rc = check_method_rules(i, p->method, r->volatile_, dev, err);
	if (rc)
		return rc;
	if (i->format == DRIVE_FORMAT_RUNNING)
		return plan_after_format(i, r, p);
	if (i->format == DRIVE_FORMAT_CORRUPT && p->method != CAP_SCSI_FORMAT)
		return corrupt_error(dev, err);

	/* the full capacity a percentage and the upper bound refer to */
	if (i->native_blocks)
		p->native = i->native_blocks;
	else if (orig && orig->original_blocks && orig->block_len == i->logical_block)
		p->native = orig->native_blocks ? orig->native_blocks : orig->original_blocks;
	ref = p->native ? p->native : p->current;

	switch (r->by) {
	case CAP_BY_BYTES:
		target = r->bytes / p->block_len;
		break;
	case CAP_BY_PERCENT:
		if (!(r->percent > 0 && r->percent <= 100))
			return ss_error_set(err, -EINVAL, "percentage must be in (0, 100]");
		target = (uint64_t)floor((double)ref * r->percent / 100.0);
		break;
	case CAP_BY_BLOCKS:
		target = r->blocks;
		break;
	case CAP_BY_LBA:
		if (r->lba == UINT64_MAX)
			return ss_error_set(err, -ERANGE, "LBA out of range");
		target = r->lba + 1;
		break;
	default:
		return ss_error_set(err, -EINVAL, "no size given");
	}
	if (target == 0 || (r->by == CAP_BY_BYTES && r->bytes == 0) ||
	    (r->by == CAP_BY_BLOCKS && r->blocks == 0))
		return ss_error_set(err, -EINVAL, "a limit of zero would leave nothing usable");
	if (target > ref) {
		if (p->native)
			return ss_error_set(err, -ERANGE,
					    "%s: %" PRIu64 " blocks (%s) is beyond the native maximum "
					    "of %" PRIu64 " blocks (%s)",
					    dev, target, human(target * p->block_len, h1, sizeof(h1)),
					    ref, human(ref * p->block_len, h2, sizeof(h2)));
		return ss_error_set(err, -ERANGE,
				    "%s: %" PRIu64 " blocks (%s) is beyond the current capacity of "
				    "%" PRIu64 " blocks (%s), and the drive reports no native "
				    "maximum; restore it first",
				    dev, target, human(target * p->block_len, h1, sizeof(h1)), ref,
				    human(ref * p->block_len, h2, sizeof(h2)));
	}

	/* round down to the physical block and to the alignment */
	align_blocks = (r->align ? r->align : (1u << 20)) / p->block_len;
	unit = lcm(p->phys_block / p->block_len, align_blocks ? align_blocks : 1);
	if (unit > 1)
		target -= target % unit;
	if (target == 0)
		return ss_error_set(err, -EINVAL,
				    "%s: the limit is smaller than one alignment unit (%" PRIu64
				    " blocks); nothing would be left",
				    dev, unit);
	if (target * p->block_len < CAP_MIN_BYTES && !r->force)
		return ss_error_set(err, -EINVAL,
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
	snprintf(p->note, sizeof(p->note), "%" PRIu64 " blocks (%s, %.1f%% of %s)", target,
		 human(target * p->block_len, h1, sizeof(h1)),
		 100.0 * (double)target / (double)ref,
		 human(ref * p->block_len, h2, sizeof(h2)));
	return 0;
}

/* ---- sending the change -------------------------------------------------- */

static void show(struct cap_ctx *c, const struct xcmd *x, const char *what)
{
	if (c->show)
		c->show(c->show_arg, x, what);
}

/* A SCSI command that changes the drive: shown, and sent unless dry-run. */
static int change_scsi(struct cap_ctx *c, struct xcmd *x, const char *what,
		       struct scsi_sense *sense, struct ss_error *err)
{
	show(c, x, what);
	if (c->dry_run)
		return 0;
	return drive_scsi(c->d, x, sense, err);
}

/* An ATA command of a change, through SAT. */
static int change_ata(struct cap_ctx *c, const struct ata_tf *tf, bool ck_cond, void *buf,
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

static int journal_event(struct cap_ctx *c, const char *event, enum cap_method m,
			 uint64_t native, uint64_t original, uint64_t target, bool vol,
			 struct ss_error *err)
{
	struct journal_entry j;
	const struct drive_info *i = &c->e->info;

	if (c->dry_run)
		return 0;
	memset(&j, 0, sizeof(j));
	snprintf(j.event, sizeof(j.event), "%s", event);
	snprintf(j.device, sizeof(j.device), "%s", c->e->spec);
	snprintf(j.serial, sizeof(j.serial), "%s", i->serial);
	snprintf(j.wwn, sizeof(j.wwn), "%s", i->wwn);
	snprintf(j.model, sizeof(j.model), "%s", i->model);
	snprintf(j.method, sizeof(j.method), "%s", cap_method_name(m));
	j.block_len = i->logical_block;
	j.native_blocks = native;
	j.original_blocks = original;
	j.target_blocks = target;
	j.volatile_ = vol;
	return journal_append(c->state_dir, &j, err);
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
	return journal_event(c, "restore-done", m, orig.native_blocks, orig.original_blocks,
			     orig.original_blocks, orig.volatile_, err);
}

/* ---- ATA: HPA, AMAC, DCO ---------------------------------------------------- */

static const char *dev_name(struct cap_ctx *c)
{
	return c->e->spec;
}

/* The native max through registers; switches D_SENSE on for the command
 * when the SAT layer answers in fixed format (which drops LBA 47:24). */
static int ata_read_native(struct cap_ctx *c, uint64_t *native, struct ss_error *err)
{
	const struct ata_identify *id = drive_ata_identify(c->d);
	struct ata_tf tf;
	struct ata_regs r;
	bool dsense;
	int rc, rc2;

	if (!id)
		return ss_error_set(err, -EPROTO, "%s: not identified as an ATA drive",
				    dev_name(c));
	if (id->amac_supported)
		ata_tf_amac_get_native(&tf);
	else
		ata_tf_read_native_max(&tf, id->lba48);
	rc = drive_ata(c->d, &tf, true, NULL, &r, err);
	if (rc != -EOVERFLOW) {
		if (rc == 0)
			*native = ata_regs_lba(&r, tf.ext) + 1;
		return rc;
	}
	/* fixed-format sense: turn descriptor sense on for this command */
	rc = drive_get_d_sense(c->d, &dsense, err);
	if (rc == 0)
		rc = drive_set_d_sense(c->d, true, err);
	if (rc)
		return ss_error_set(err, rc,
				    "%s: the SAT layer returns ATA registers in fixed-format "
				    "sense (LBA bits 47:24 lost) and refuses to switch to "
				    "descriptor sense; cannot read the native max address safely",
				    dev_name(c));
	rc = drive_ata(c->d, &tf, true, NULL, &r, err);
	if (rc == 0)
		*native = ata_regs_lba(&r, tf.ext) + 1;
	rc2 = drive_set_d_sense(c->d, dsense, NULL);
	if (rc == 0 && rc2)
		rc = ss_error_set(err, rc2, "%s: could not switch D_SENSE back off", dev_name(c));
	return rc;
}

int cap_refresh_native(struct cap_ctx *c, struct ss_error *err)
{
	struct drive_info *i = &c->e->info;
	uint64_t native = 0;
	int rc;

	if (!i->ata || i->native_blocks || !(i->methods & (METHOD_HPA | METHOD_AMAC)))
		return 0;
	rc = ata_read_native(c, &native, err);
	if (rc)
		return rc;
	i->native_blocks = native;
	return 0;
}

static int hpa_set(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	const struct ata_identify *id = drive_ata_identify(c->d);
	bool ext = id->lba48;
	struct ata_tf rd, set;
	int rc = 0;

	if (!ext && blocks - 1 > 0x0fffffff)
		return ss_error_set(err, -ERANGE,
				    "%s: the drive has no 48-bit addressing; 28-bit SET MAX "
				    "reaches 128 GiB at most",
				    dev_name(c));
	ata_tf_read_native_max(&rd, ext);
	ata_tf_set_max_address(&set, ext, blocks - 1, vol);
	/* READ NATIVE MAX must come right before SET MAX: retry the pair once
	 * when the drive aborts, in case another command slipped in between. */
	for (int attempt = 0; attempt < 2; attempt++) {
		rc = change_ata(c, &rd, false, NULL, NULL,
				ext ? "ATA READ NATIVE MAX ADDRESS EXT"
				    : "ATA READ NATIVE MAX ADDRESS",
				err);
		if (rc)
			return rc;
		rc = change_ata(c, &set, false, NULL, NULL,
				vol ? (ext ? "ATA SET MAX ADDRESS EXT (volatile)"
					   : "ATA SET MAX ADDRESS (volatile)")
				    : (ext ? "ATA SET MAX ADDRESS EXT (non-volatile)"
					   : "ATA SET MAX ADDRESS (non-volatile)"),
				err);
		if (rc != -EOPNOTSUPP)
			break;
	}
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EACCES,
				    "%s: the drive refused SET MAX ADDRESS twice. Drives allow one "
				    "permanent change per power cycle and refuse all after SET MAX "
				    "FREEZE LOCK or a security freeze: power-cycle the drive and "
				    "retry",
				    dev_name(c));
	return rc;
}

static int amac_set(struct cap_ctx *c, uint64_t blocks, struct ss_error *err)
{
	struct ata_tf tf;
	int rc;

	ata_tf_amac_set_accessible(&tf, blocks - 1);
	rc = change_ata(c, &tf, false, NULL, NULL, "ATA SET ACCESSIBLE MAX ADDRESS", err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EACCES,
				    "%s: the drive refused SET ACCESSIBLE MAX ADDRESS: the "
				    "accessible max address is frozen (FREEZE ACCESSIBLE MAX "
				    "ADDRESS, often by the BIOS); power-cycle the drive and retry",
				    dev_name(c));
	return rc;
}

static void dco_put_max(uint8_t *buf, uint64_t max_lba)
{
	uint8_t sum = 0;

	for (int w = 3; w <= 6; w++) {
		buf[2 * w] = (uint8_t)(max_lba >> (16 * (w - 3)));
		buf[2 * w + 1] = (uint8_t)(max_lba >> (16 * (w - 3) + 8));
	}
	/* word 255: signature A5h and checksum (ACS: two's complement of the sum) */
	buf[510] = 0xa5;
	for (int b = 0; b < 511; b++)
		sum = (uint8_t)(sum + buf[b]);
	buf[511] = (uint8_t)(0x100 - sum);
}

static const char *const dco_refused =
	"%s: the drive refused DEVICE CONFIGURATION %s: DCO is frozen (DEVICE "
	"CONFIGURATION FREEZE LOCK, often set by the BIOS), or an HPA is set (restore "
	"it first); power-cycle the drive and retry";

static int dco_set(struct cap_ctx *c, uint64_t blocks, struct ss_error *err)
{
	uint8_t buf[512];
	struct ata_tf tf;
	int rc;

	memset(buf, 0, sizeof(buf));
	ata_tf_dco_identify(&tf);
	rc = drive_ata(c->d, &tf, false, buf, NULL, err); /* read-only */
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EACCES, dco_refused, dev_name(c), "IDENTIFY");
	if (rc)
		return rc;
	dco_put_max(buf, blocks - 1);
	ata_tf_dco_set(&tf);
	rc = change_ata(c, &tf, false, buf, NULL, "ATA DEVICE CONFIGURATION SET", err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EACCES, dco_refused, dev_name(c), "SET");
	return rc;
}

static int dco_restore(struct cap_ctx *c, struct ss_error *err)
{
	struct ata_tf tf;
	int rc;

	ata_tf_dco_restore(&tf);
	rc = change_ata(c, &tf, false, NULL, NULL, "ATA DEVICE CONFIGURATION RESTORE", err);
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EACCES, dco_refused, dev_name(c), "RESTORE");
	return rc;
}

/* ---- SCSI: MODE SELECT resize, FORMAT UNIT --------------------------------- */

#define MODE_BUF 256

static int mode_sense_bd(struct cap_ctx *c, uint8_t *buf, size_t *len, struct scsi_mode10 *m,
			 struct ss_error *err)
{
	struct xcmd x;
	int rc;

	memset(&x, 0, sizeof(x));
	memset(buf, 0, MODE_BUF);
	/* page 0x01 with its block descriptor, long LBA asked for */
	x.cdb_len = scsi_build_mode_sense10(x.cdb, true, false, 0, 0x01, 0, MODE_BUF);
	x.dir = XFER_FROM_DEV;
	x.data = buf;
	x.data_len = MODE_BUF;
	rc = drive_scsi(c->d, &x, NULL, err);
	if (rc)
		return rc;
	*len = MODE_BUF - (x.resid < MODE_BUF ? x.resid : MODE_BUF);
	if (scsi_parse_mode_sense10(buf, *len, m) || !m->has_bd)
		return ss_error_set(err, -EPROTO,
				    "%s: MODE SENSE returned no block descriptor; the drive "
				    "cannot be resized this way",
				    dev_name(c));
	return 0;
}

/* MODE SELECT the block count (UINT64_MAX: the drive's maximum). */
static int scsi_select_blocks(struct cap_ctx *c, uint64_t blocks, struct ss_error *err)
{
	uint8_t buf[MODE_BUF], out[MODE_BUF];
	struct scsi_mode10 m;
	struct scsi_sense sense;
	size_t len, out_len;
	struct xcmd x;
	int rc;

	rc = mode_sense_bd(c, buf, &len, &m, err);
	if (rc)
		return rc;
	if (blocks == UINT64_MAX && !m.longlba)
		blocks = 0xffffffff; /* all ones in a short descriptor: the maximum */
	rc = scsi_mode_set_bd_blocks(buf, len, blocks, out, sizeof(out), &out_len);
	if (rc == -EOVERFLOW)
		return ss_error_set(err, rc,
				    "%s: %" PRIu64 " blocks do not fit the drive's short block "
				    "descriptor and it refuses long LBA descriptors",
				    dev_name(c), blocks);
	if (rc)
		return ss_error_set(err, rc, "%s: malformed MODE SENSE answer", dev_name(c));
	for (int sp = 1; sp >= 0; sp--) {
		memset(&x, 0, sizeof(x));
		x.cdb_len = scsi_build_mode_select10(x.cdb, true, sp, (uint16_t)out_len);
		x.dir = XFER_TO_DEV;
		x.data = out;
		x.data_len = out_len;
		rc = change_scsi(c, &x,
				 sp ? "MODE SELECT(10) PF=1 SP=1: block descriptor count"
				    : "MODE SELECT(10) PF=1 SP=0: block descriptor count",
				 &sense, err);
		/* a drive that cannot save pages says ILLEGAL REQUEST: retry SP=0 */
		if (!(rc && sp && sense.valid && sense.key == SK_ILLEGAL_REQUEST))
			break;
	}
	return rc;
}

static bool format_in_progress(const struct scsi_sense *s)
{
	return s->valid && s->asc == 0x04 && s->ascq == 0x04;
}

/* TEST UNIT READY: 0 ready; 1 formatting; 2 medium format corrupted. */
static int unit_state(struct cap_ctx *c, struct scsi_sense *s, struct ss_error *err)
{
	struct xcmd x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.cdb_len = scsi_build_test_unit_ready(x.cdb);
	rc = drive_scsi(c->d, &x, s, err);
	if (rc == 0)
		return 0;
	if (format_in_progress(s))
		return 1;
	if (s->valid && s->asc == 0x31)
		return 2;
	return rc;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Poll REQUEST SENSE for the progress of a format until it ends. */
static int format_wait(struct cap_ctx *c, struct ss_error *err)
{
	unsigned delay = 50;
	int rc;

	for (;;) {
		uint8_t buf[252];
		struct scsi_sense s;
		struct xcmd x;
		size_t got;

		if (progress_cancelled(c->progress))
			return ss_error_set(err, -ECANCELED,
					    "%s: stopped watching; the format goes on inside the "
					    "drive. Run the same command again to watch it to the end",
					    dev_name(c));
		memset(&x, 0, sizeof(x));
		memset(buf, 0, sizeof(buf));
		x.cdb_len = scsi_build_request_sense(x.cdb, false, sizeof(buf));
		x.dir = XFER_FROM_DEV;
		x.data = buf;
		x.data_len = sizeof(buf);
		rc = drive_scsi(c->d, &x, NULL, err);
		if (rc)
			return rc;
		got = sizeof(buf) - (x.resid < sizeof(buf) ? x.resid : sizeof(buf));
		scsi_sense_decode(buf, got, &s);
		if (!(format_in_progress(&s) || (s.valid && s.key == SK_NO_SENSE &&
						 s.progress_valid)))
			break;
		progress_report(c->progress, s.progress_valid ? s.progress / 65536.0 : 0,
				"formatting", -1);
		nap_ms(delay);
		if (delay < 1000)
			delay *= 2;
	}
	progress_report(c->progress, 1.0, "format complete", 0);
	return 0;
}

/* The drive failed (or vanished) with the block count already changed: a
 * failure of the drive, not of what the user typed, and the next step. */
static int format_failed(struct cap_ctx *c, uint64_t blocks, int rc, struct ss_error *err)
{
	char why[sizeof(err->msg)];
	size_t n = strlen(dev_name(c));
	const char *w = err && err->msg[0] ? err->msg : strerror(-rc);

	if (!strncmp(w, dev_name(c), n) && !strncmp(w + n, ": ", 2))
		w += n + 2; /* named once is enough */
	snprintf(why, sizeof(why), "%s", w);
	return ss_error_set(err, -EIO,
			    "%s: the format did not finish (%s). MODE SELECT had set the block "
			    "count to %" PRIu64 ": once the drive answers again its medium reads "
			    "MEDIUM FORMAT CORRUPTED until a new format; run the same command "
			    "again",
			    dev_name(c), why, blocks);
}

static int scsi_format(struct cap_ctx *c, uint64_t blocks, struct ss_error *err)
{
	uint8_t param[4];
	struct xcmd x;
	int rc;

	rc = scsi_select_blocks(c, blocks, err);
	if (rc)
		return rc;
	memset(&x, 0, sizeof(x));
	x.cdb_len = scsi_build_format_unit(x.cdb, 0, true, false, 0);
	scsi_build_format_param_header(param, true);
	x.dir = XFER_TO_DEV;
	x.data = param;
	x.data_len = sizeof(param);
	x.timeout_ms = 120 * 1000;
	progress_report(c->progress, 0, "starting format", -1);
	rc = change_scsi(c, &x, "FORMAT UNIT FMTDATA=1 IMMED=1 (destroys all data)", NULL, err);
	if (!rc && !c->dry_run)
		rc = format_wait(c, err);
	if (rc && rc != -ECANCELED)
		return format_failed(c, blocks, rc, err);
	return rc;
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
static int verify(struct cap_ctx *c, uint64_t want, struct cap_result *res, struct ss_error *err)
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
		return ss_error_set(err, -EIO,
				    "%s: the drive reports %" PRIu64 " blocks (%s) after the change, "
				    "not %" PRIu64 " (%s): it did not take it. Power-cycle the drive "
				    "and check with 'shortstroke info'",
				    dev_name(c), now.capacity_blocks,
				    human(now.capacity_blocks * now.logical_block, h1, sizeof(h1)),
				    want, human(want * now.logical_block, h2, sizeof(h2)));
	if (!c->e->sim) {
		uint64_t kbytes = 0;
		char node[64];
		const char *name = strrchr(c->e->node, '/');
		bool libata = c->e->tran_hint == TRAN_SATA || c->e->tran_hint == TRAN_ATA;

		name = name ? name + 1 : c->e->node;
		rc = sysdisk_reread_capacity(NULL, name, libata, want * now.logical_block,
					     30000, node, sizeof(node), &kbytes, err);
		if (rc)
			return rc;
		if (kbytes != want * now.logical_block)
			return ss_error_set(err, -EIO,
					    "%s: the drive took the new capacity (%s) but the kernel "
					    "still sees %s; reboot or power-cycle before using it",
					    dev_name(c), human(want * now.logical_block, h1, sizeof(h1)),
					    human(kbytes, h2, sizeof(h2)));
		if (strcmp(node, c->e->node))
			snprintf(c->e->node, sizeof(c->e->node), "%s", node);
	}
	return 0;
}

/* ---- limit and restore ------------------------------------------------------- */

static int apply_method(struct cap_ctx *c, enum cap_method m, uint64_t blocks, bool vol,
			struct ss_error *err)
{
	switch (m) {
	case CAP_HPA:
		return hpa_set(c, blocks, vol, err);
	case CAP_AMAC:
		return amac_set(c, blocks, err);
	case CAP_DCO:
		return dco_set(c, blocks, err);
	case CAP_SCSI_RESIZE:
		return scsi_select_blocks(c, blocks, err);
	case CAP_SCSI_FORMAT:
		return scsi_format(c, blocks, err);
	case CAP_PARTITION:
		return part_limit(c, blocks, err);
	default:
		return ss_error_set(err, -EINVAL, "no method");
	}
}

/* A SCSI drive busy formatting (a run interrupted earlier): watch it to
 * the end first. A corrupted format only a new format can cure. */
static int scsi_settle(struct cap_ctx *c, enum cap_method m, bool *corrupt,
		       struct ss_error *err)
{
	struct scsi_sense s;
	int st;

	*corrupt = false;
	if (c->e->info.ata)
		return 0;
	st = unit_state(c, &s, err);
	*corrupt = st == 2;
	if (st == 1) {
		progress_report(c->progress, 0, "format in progress: watching", -1);
		return format_wait(c, err);
	}
	if (st == 2 && m != CAP_SCSI_FORMAT)
		return corrupt_error(dev_name(c), err);
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

static int limit_locked(struct cap_ctx *c, const struct cap_plan *p, struct cap_result *res,
			struct ss_error *err)
{
	bool corrupt;
	char h1[32];
	int rc;

	memset(res, 0, sizeof(*res));
	res->method = p->method;
	res->block_len = p->block_len;
	res->before = p->current;
	res->native = p->native;
	res->dry_run = c->dry_run;
	rc = scsi_settle(c, p->method, &corrupt, err);
	if (rc)
		return rc;
	if (p->noop && !corrupt) { /* a corrupted medium needs the format all the same */
		res->noop = true;
		res->after = p->current;
		snprintf(res->message, sizeof(res->message), "%s", p->note);
		return 0;
	}
	rc = journal_close_stale(c, err);
	if (rc)
		return rc;
	rc = journal_event(c, "limit", p->method, p->native, p->current, p->target,
			   p->volatile_, err);
	if (rc)
		return rc;
	progress_report(c->progress, 0, cap_method_name(p->method), -1);
	rc = apply_method(c, p->method, p->target, p->volatile_, err);
	if (rc)
		return rc;
	if (c->dry_run) {
		res->after = p->target;
		snprintf(res->message, sizeof(res->message),
			 "dry run: would limit to %s by %s; nothing was sent", p->note,
			 cap_method_name(p->method));
		return 0;
	}
	if (p->method == CAP_PARTITION) {
		uint64_t end = 0;

		rc = part_read_end(c, &end, err);
		if (rc == 0 && end != p->target)
			rc = ss_error_set(err, -EIO,
					  "%s: the partition written ends at block %" PRIu64
					  ", not %" PRIu64,
					  dev_name(c), end, p->target);
		res->after = end;
	} else {
		rc = verify(c, p->target, res, err);
	}
	if (rc)
		return rc;
	rc = journal_event(c, "limit-done", p->method, p->native, p->current, p->target,
			   p->volatile_, err);
	if (rc)
		return rc;
	snprintf(res->message, sizeof(res->message), "limited to %" PRIu64 " blocks (%s) by %s%s",
		 res->after, human(res->after * p->block_len, h1, sizeof(h1)),
		 cap_method_name(p->method), p->volatile_ ? " (volatile: a power cycle undoes it)"
							  : "");
	return 0;
}

/* A format that ran when the command began: watched to its end, and the
 * drive seen as it is after it. */
static int settle_format(struct cap_ctx *c, struct cap_result *res, struct ss_error *err)
{
	int rc;

	progress_report(c->progress, 0, "format in progress: watching", -1);
	rc = format_wait(c, err);
	if (!rc)
		rc = reidentify(c, err);
	if (!rc && c->e->info.format == DRIVE_FORMAT_RUNNING)
		rc = ss_error_set(err, -EBUSY, "%s: the drive still reports a format in progress",
				  dev_name(c));
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
	/* DCO lowers the native max itself: its bound is the factory max */
	uint64_t max = m == CAP_DCO ? i->dco_max_blocks : i->native_blocks;
	struct ss_error why = { 0 };
	char text[700];
	int rc;

	rc = journal_entry_check(o, &why);
	if (!rc && o->block_len == i->logical_block) {
		if (o->original_blocks < i->capacity_blocks)
			rc = ss_error_set(&why, -EINVAL,
					  "an original capacity of %" PRIu64 " blocks, less than the "
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
			    dev_name(c), o->line, why.msg, text);
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
		if (orig.block_len != i->logical_block && *m != CAP_SCSI_FORMAT)
			return ss_error_set(err, -EINVAL,
					    "%s: the journal recorded %u-byte blocks, the drive now "
					    "has %u; restore it with --method scsi-format",
					    dev_name(c), orig.block_len, i->logical_block);
		*target = orig.original_blocks;
		return 0;
	}
	/* nothing journaled: back to the drive's native maximum */
	*m = forced;
	if (*m == CAP_AUTO) {
		if (i->ata && (i->methods & METHOD_AMAC))
			*m = CAP_AMAC;
		else if (i->ata && (i->methods & METHOD_HPA))
			*m = CAP_HPA;
		else if (!i->ata && (i->methods & METHOD_SCSI_RESIZE))
			*m = CAP_SCSI_RESIZE;
		else
			return ss_error_set(err, -EOPNOTSUPP,
					    "%s: nothing journaled and no method to restore with",
					    dev_name(c));
	}
	if (i->ata && *m != CAP_DCO) {
		if (!i->native_blocks)
			return ss_error_set(err, -EOPNOTSUPP,
					    "%s: nothing journaled and the drive does not report "
					    "its native max address",
					    dev_name(c));
		*target = i->native_blocks;
	} else {
		*target = UINT64_MAX; /* SCSI: the maximum; DCO: factory max */
	}
	return 0;
}

int cap_plan_restore(struct cap_ctx *c, enum cap_method forced, bool vol, struct cap_plan *p,
		     struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry orig;
	bool journaled;
	char h1[32];
	int rc;

	memset(p, 0, sizeof(*p));
	p->block_len = i->logical_block;
	p->phys_block = i->physical_block;
	p->current = i->capacity_blocks;
	p->native = i->native_blocks;
	p->volatile_ = vol;
	rc = restore_plan(c, forced, &p->method, &p->target, err);
	if (rc)
		return rc;
	if (vol && p->method != CAP_HPA)
		return ss_error_set(err, -EINVAL, "%s: --volatile needs the HPA method",
				    dev_name(c));
	if (!(i->methods & method_bit(p->method)))
		return ss_error_set(err, -EOPNOTSUPP, "%s: the drive does not support the %s method",
				    dev_name(c), cap_method_name(p->method));
	if (p->method == CAP_HPA && i->sec_frozen)
		return check_method_rules(i, p->method, false, dev_name(c), err);
	p->noop = p->target == p->current && p->method != CAP_DCO && p->method != CAP_PARTITION;
	journaled = journal_original(c->state_dir, i->serial, i->wwn, &orig, NULL) == 0;
	if (p->target == UINT64_MAX)
		snprintf(p->note, sizeof(p->note), "the drive's full capacity");
	else
		snprintf(p->note, sizeof(p->note), "%" PRIu64 " blocks (%s), the %s", p->target,
			 human(p->target * i->logical_block, h1, sizeof(h1)),
			 journaled ? "journaled original" : "native maximum");
	return 0;
}

static int restore_locked(struct cap_ctx *c, enum cap_method forced, bool vol,
			  struct cap_result *res, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint64_t target, before = i->capacity_blocks, native = i->native_blocks;
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
	target = plan.target;
	rc = scsi_settle(c, m, &corrupt, err);
	if (rc)
		return rc;
	if (target == before && m != CAP_DCO && m != CAP_PARTITION && !corrupt) {
		res->noop = true;
		res->after = before;
		snprintf(res->message, sizeof(res->message),
			 "already at %" PRIu64 " blocks (%s); nothing sent", before,
			 human(before * i->logical_block, h1, sizeof(h1)));
		if (!c->dry_run)
			journal_event(c, "restore-done", m, native, before, before, false, NULL);
		return 0;
	}
	rc = journal_event(c, "restore", m, native, before, target, vol, err);
	if (rc)
		return rc;
	switch (m) {
	case CAP_DCO:
		rc = dco_restore(c, err);
		break;
	case CAP_SCSI_RESIZE:
	case CAP_SCSI_FORMAT:
		rc = m == CAP_SCSI_FORMAT ? scsi_format(c, target, err)
					  : scsi_select_blocks(c, target, err);
		break;
	case CAP_PARTITION:
		rc = part_restore(c, err);
		break;
	default:
		rc = apply_method(c, m, target, vol, err);
		break;
	}
	if (rc)
		return rc;
	if (c->dry_run) {
		snprintf(res->message, sizeof(res->message),
			 "dry run: would restore by %s; nothing was sent", cap_method_name(m));
		return 0;
	}
	if (target == UINT64_MAX || m == CAP_DCO || m == CAP_PARTITION) {
		struct drive_info now;

		rc = drive_identify(c->d, &now, err);
		if (rc)
			return rc;
		target = now.capacity_blocks;
		if (now.native_blocks && m == CAP_DCO)
			target = now.native_blocks;
	}
	rc = verify(c, target, res, err);
	if (rc == 0 && m == CAP_PARTITION) {
		uint64_t end;

		if (part_read_end(c, &end, NULL) != -ENOENT)
			rc = ss_error_set(err, -EIO, "%s: the GPT is still there after the wipe",
					  dev_name(c));
	}
	if (rc)
		return rc;
	rc = journal_event(c, "restore-done", m, native, before, res->after, vol, err);
	if (rc)
		return rc;
	snprintf(res->message, sizeof(res->message), "restored to %" PRIu64 " blocks (%s) by %s",
		 res->after, human(res->after * i->logical_block, h1, sizeof(h1)),
		 cap_method_name(m));
	return 0;
}

/*
 * A re-run of a restore (a batch run again after a kill): the journal's
 * newest record of the disk is the "restore-done" of the size it has now,
 * so there is nothing to bring back. True with the result filled in.
 */
static bool restored_already(struct cap_ctx *c, enum cap_method forced, struct cap_result *res)
{
	const struct drive_info *i = &c->e->info;
	struct journal_entry last, orig;
	char h1[32];

	if (forced != CAP_AUTO || i->format != DRIVE_FORMAT_NONE ||
	    journal_original(c->state_dir, i->serial, i->wwn, &orig, NULL) != -ENOENT ||
	    journal_last(c->state_dir, i->serial, i->wwn, &last, NULL) ||
	    strcmp(last.event, "restore-done") || last.target_blocks != i->capacity_blocks ||
	    last.block_len != i->logical_block)
		return false;
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
	if (!rc && !restored_already(c, forced, res))
		rc = restore_locked(c, forced, vol, res, err);
	journal_unlock_disk(fd);
	res->watched_format = watched;
	note_watched(res);
	return rc;
}
