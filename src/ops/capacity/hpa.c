/* hpa.c - the hpa method: the Host Protected Area (ATA SET MAX ADDRESS),
 * the one with a volatile form (a trial a power cycle undoes); also the
 * native max read through registers, and what the journal says about the
 * rule of one permanent SET MAX ADDRESS per power cycle. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shortstroke/journal.h"
#include "capacity_priv.h"

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
		return ss_error_set(err, -EPROTO, "%s: not identified as an ATA drive", cap_dev(c));
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
				    cap_dev(c));
	rc = drive_ata(c->d, &tf, true, NULL, &r, err);
	if (rc == 0)
		*native = ata_regs_lba(&r, tf.ext) + 1;
	rc2 = drive_set_d_sense(c->d, dsense, NULL);
	if (rc == 0 && rc2)
		rc = ss_error_set(err, rc2, "%s: could not switch D_SENSE back off", cap_dev(c));
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
	if (rc == -EPROTO) {
		/* a path that drops the registers: the native max stays unknown,
		 * and limit's path check (cap_plan_path) refuses the methods that
		 * need them, leaving the partition method */
		ss_error_clear(err);
		return 0;
	}
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
				    cap_dev(c));
	ata_tf_read_native_max(&rd, ext);
	ata_tf_set_max_address(&set, ext, blocks - 1, vol);
	/* READ NATIVE MAX must come right before SET MAX: retry the pair once
	 * when the drive aborts, in case another command slipped in between. */
	for (int attempt = 0; attempt < 2; attempt++) {
		rc = cap_send_ata(
		    c, &rd, false, NULL, NULL,
		    ext ? "ATA READ NATIVE MAX ADDRESS EXT" : "ATA READ NATIVE MAX ADDRESS", err);
		if (rc)
			return rc;
		rc = cap_send_ata(c, &set, false, NULL, NULL,
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
				    cap_dev(c));
	return rc;
}

static int hpa_plan(const struct drive_info *i, bool restore, const char *dev, struct ss_error *err)
{
	if (i->sec_frozen)
		return ss_error_set(err, -EACCES,
				    "%s: the drive is security-frozen, so it will refuse SET MAX "
				    "ADDRESS until it is powered up without the BIOS freezing it",
				    dev);
	return 0;
}

/*
 * A BIOS freezes a drive's security at every power-on, so a power cycle or
 * a reboot freezes it again. What brings it up unfrozen is power that the
 * BIOS does not follow: a hot-plug (the controller brings the drive up) or
 * suspend to RAM and resume (the firmware does not run again). Which one
 * the drive's state allows: a disk in use (the system's, mounted, held, an
 * array's member) is not unplugged; a USB disk is unplugged at its bridge; a
 * SATA disk behind a SAS HBA sits in a bay made for it; on a SATA port,
 * hot-plug needs the port to allow it.
 */
int cap_frozen_advice(struct cap_ctx *c, int rc, struct ss_error *err)
{
	const struct dev_entry *e = c->e;
	enum drive_tran t = e->tran_hint != TRAN_UNKNOWN ? e->tran_hint : e->info.tran;
	const char *how;

	if (rc != -EACCES || !e->info.sec_frozen)
		return rc;
	if (e->state == DEV_PROTECTED)
		how = "it is protected, so not one to unplug: suspend the machine to RAM and "
		      "resume it (systemctl suspend)";
	else if (e->state != DEV_FREE && !e->label_only)
		how = "it is in use, so not one to unplug: suspend the machine to RAM and "
		      "resume it (systemctl suspend)";
	else if (t == TRAN_USB)
		how = "unplug its USB bridge and plug it back in";
	else if (t == TRAN_SAS)
		how = "pull it from its bay and put it back (the SAS controller brings it up), "
		      "or suspend the machine to RAM and resume it";
	else
		how = "hot-plug it (out of its bay, or its power cable, and back; the SATA port "
		      "must allow hot-plug), or suspend the machine to RAM and resume it";
	return ss_error_set(
	    err, rc,
	    "%s: the drive is security-frozen, by a BIOS that freezes it at every "
	    "power-on (a power cycle or reboot does not help): %s, then retry%s",
	    cap_dev(c), how,
	    e->sim ? " (a simulated drive: 'shortstroke sim power-cycle' does that for it)" : "");
}

const struct cap_method_ops cap_hpa_ops = {
	.id = CAP_HPA,
	.name = "hpa",
	.command = "SET MAX ADDRESS",
	.help =
	    "ATA SET MAX ADDRESS, the Host Protected Area (--volatile: a trial a power cycle undoes)",
	.need = METHOD_HPA,
	.flags = CAPM_AUTO | CAPM_ATA | CAPM_VOLATILE | CAPM_POWER_CYCLE | CAPM_PROBE_UNDO |
		 CAPM_ACCESSIBLE,
	.plan = hpa_plan,
	.set = hpa_set,
	.restore = hpa_set, /* to the native max */
};

/* ---- one permanent SET MAX per power cycle: what the journal says ---- */

struct last_change {
	bool hpa_nv; /* the last change was a permanent SET MAX */
	char when[32];
};

static int see(void *arg, const struct journal_entry *e)
{
	struct last_change *l = arg;
	bool done = !strcmp(e->event, "limit-done") || !strcmp(e->event, "restore-done");

	if (!done || e->original_blocks == e->target_blocks)
		return 0; /* a record of intent, or a no-op: nothing was set */
	l->hpa_nv = (cap_method_flags(e->method) & CAPM_POWER_CYCLE) && !e->volatile_;
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
