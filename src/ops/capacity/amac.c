/* amac.c - the amac method: ATA Accessible Max Address Configuration
 * (SET ACCESSIBLE MAX ADDRESS, ACS-3), the preferred one on ATA drives that
 * have it. Permanent only: a trial (--volatile) takes HPA. */
#include <errno.h>
#include <inttypes.h>

#include "capacity_priv.h"

static int amac_set(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	struct ata_tf tf;
	int rc;

	ata_tf_amac_set_accessible(&tf, blocks - 1);
	rc = cap_send_ata(c, &tf, false, NULL, NULL, "ATA SET ACCESSIBLE MAX ADDRESS", err);
	/* ABRT says no more than "refused": a freeze is one reason, not the
	 * known one (nothing in IDENTIFY reports an AMAC freeze) */
	if (rc == -EOPNOTSUPP)
		return ss_error_set(err, -EACCES,
				    "%s: the drive aborted SET ACCESSIBLE MAX ADDRESS to %" PRIu64
				    " blocks (ATA ABRT) and gives no reason; a FREEZE ACCESSIBLE "
				    "MAX ADDRESS since power-on (some BIOSes send one) would do "
				    "that. Power-cycle the drive and retry; if it still refuses, "
				    "the drive does not take the change",
				    cap_dev(c), blocks);
	return rc;
}

const struct cap_method_ops cap_amac_ops = {
	.id = CAP_AMAC,
	.name = "amac",
	.command = "SET ACCESSIBLE MAX ADDRESS",
	.help = "ATA SET ACCESSIBLE MAX ADDRESS (ACS-3 and later)",
	.need = METHOD_AMAC,
	.flags = CAPM_AUTO | CAPM_ATA | CAPM_ACCESSIBLE,
	.set = amac_set,
	.restore = amac_set, /* to the native max */
};
