/* dco.c - the dco method: ATA Device Configuration Overlay (DEVICE
 * CONFIGURATION SET with a lower maximum LBA). It moves the native max
 * itself, up to the factory maximum, which DEVICE CONFIGURATION RESTORE
 * brings back. Drives refuse both while an HPA is in effect. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "capacity_priv.h"

static void dco_put_max(uint8_t *buf, uint64_t max_lba)
{
	sg_put_unaligned_le64(max_lba, buf + 2 * 3); /* words 3-6 */
	/* word 255: signature A5h and checksum */
	buf[510] = 0xa5;
	ata_checksum_set(buf);
}

/* DCO aborted (ATA ABRT): an HPA in effect is a known reason (the drive
 * shows it); a DCO freeze lock is only a possible one (nothing reports it). */
static int dco_refused(struct cap_ctx *c, const char *what, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;

	if (i->native_blocks && i->capacity_blocks < i->native_blocks)
		return ss_error_set(err, -EACCES,
				    "%s: the drive aborted DEVICE CONFIGURATION %s: an HPA is set "
				    "(accessible max below the native max), and DCO refuses to "
				    "work under one; restore the HPA first",
				    cap_dev(c), what);
	return ss_error_set(err, -EACCES,
			    "%s: the drive aborted DEVICE CONFIGURATION %s (ATA ABRT) and gives "
			    "no reason; a DEVICE CONFIGURATION FREEZE LOCK since power-on (some "
			    "BIOSes send one) would do that. Power-cycle the drive and retry; if "
			    "it still refuses, the drive does not take the change",
			    cap_dev(c), what);
}

static int dco_set(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	uint8_t buf[512];
	struct ata_tf tf;
	int rc;

	memset(buf, 0, sizeof(buf));
	ata_tf_dco_identify(&tf);
	rc = drive_ata(c->d, &tf, false, buf, NULL, err); /* read-only */
	if (rc == -EOPNOTSUPP)
		return dco_refused(c, "IDENTIFY", err);
	if (rc)
		return rc;
	dco_put_max(buf, blocks - 1);
	ata_tf_dco_set(&tf);
	rc = cap_send_ata(c, &tf, false, buf, NULL, "ATA DEVICE CONFIGURATION SET", err);
	if (rc == -EOPNOTSUPP)
		return dco_refused(c, "SET", err);
	return rc;
}

static int dco_restore(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	struct ata_tf tf;
	int rc;

	ata_tf_dco_restore(&tf);
	rc = cap_send_ata(c, &tf, false, NULL, NULL, "ATA DEVICE CONFIGURATION RESTORE", err);
	if (rc == -EOPNOTSUPP)
		return dco_refused(c, "RESTORE", err);
	return rc;
}

/* DCO SET and RESTORE abort while an HPA is in effect; a locked drive
 * refuses a restore too. */
static int dco_plan(const struct drive_info *i, bool restore, const char *dev, struct ss_error *err)
{
	if (i->native_blocks && i->capacity_blocks < i->native_blocks)
		return ss_error_set(err, -EACCES,
				    "%s: an HPA is in effect (%" PRIu64 " of %" PRIu64 " blocks), "
				    "and drives refuse DEVICE CONFIGURATION SET and RESTORE until "
				    "it is removed: restore the HPA first",
				    dev, i->capacity_blocks, i->native_blocks);
	if (restore && i->sec_locked)
		return cap_locked_error(dev, err);
	return 0;
}

const struct cap_method_ops cap_dco_ops = {
	.id = CAP_DCO,
	.name = "dco",
	.command = "DEVICE CONFIGURATION SET",
	.help =
	    "ATA Device Configuration Overlay: lowers the native maximum itself (restore: the factory maximum)",
	.need = METHOD_DCO,
	.flags = CAPM_ATA | CAPM_SETS_NATIVE,
	.plan = dco_plan,
	.set = dco_set,
	.restore = dco_restore, /* to the factory maximum */
};
