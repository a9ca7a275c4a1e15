/* resize.c - the scsi-resize method: SCSI MODE SELECT of the block count in
 * the block descriptor (SBC), the one auto takes on SCSI drives; restore
 * selects the maximum (all ones). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "capacity_priv.h"
#include "shortstroke/sector.h"

#define MODE_BUF 256

static int mode_sense_bd(struct cap_ctx *c, uint8_t *buf, size_t *len, struct scsi_mode10 *m,
			 struct ss_error *err)
{
	uint8_t cdb[10];
	unsigned n;
	int rc;

	/* page 0x01 with its block descriptor, long LBA asked for */
	n = scsi_build_mode_sense10(cdb, true, false, 0, 0x01, 0, MODE_BUF);
	rc = drive_scsi_in(c->d, cdb, n, buf, MODE_BUF, len, NULL, err);
	if (rc)
		return rc;
	if (scsi_parse_mode_sense10(buf, *len, m) || !m->has_bd)
		return ss_error_set(err, -EPROTO,
				    "%s: MODE SENSE returned no block descriptor; the drive "
				    "cannot be resized this way",
				    cap_dev(c));
	return 0;
}

/* MODE SELECT the block count (UINT64_MAX: the drive's maximum) and, when
 * block_len is not 0, a new block length (for the next FORMAT UNIT). */
static int select_bd(struct cap_ctx *c, uint64_t blocks, uint32_t block_len, struct ss_error *err)
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
				    cap_dev(c), blocks);
	if (!rc && block_len)
		rc = sector_mode_set_length(out, out_len, block_len);
	if (rc)
		return ss_error_set(err, rc, "%s: malformed MODE SENSE answer", cap_dev(c));
	for (int sp = 1; sp >= 0; sp--) {
		memset(&x, 0, sizeof(x));
		x.cdb_len = scsi_build_mode_select10(x.cdb, true, sp, (uint16_t)out_len);
		x.dir = XFER_TO_DEV;
		x.data = out;
		x.data_len = out_len;
		rc = cap_send_scsi(c, &x,
				   block_len
				       ? (sp ? "MODE SELECT(10) PF=1 SP=1: block descriptor length"
					     : "MODE SELECT(10) PF=1 SP=0: block descriptor length")
				   : sp ? "MODE SELECT(10) PF=1 SP=1: block descriptor count"
					: "MODE SELECT(10) PF=1 SP=0: block descriptor count",
				   &sense, err);
		/* a drive that cannot save pages says ILLEGAL REQUEST: retry SP=0 */
		if (!(rc && sp && sense.valid && sense.key == SK_ILLEGAL_REQUEST))
			break;
	}
	return rc;
}

int cap_scsi_select_blocks(struct cap_ctx *c, uint64_t blocks, struct ss_error *err)
{
	return select_bd(c, blocks, 0, err);
}

int cap_scsi_select_length(struct cap_ctx *c, uint32_t block_len, struct ss_error *err)
{
	return select_bd(c, UINT64_MAX, block_len, err);
}

static int resize_set(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	return cap_scsi_select_blocks(c, blocks, err);
}

const struct cap_method_ops cap_resize_ops = {
	.id = CAP_SCSI_RESIZE,
	.name = "scsi-resize",
	.command = "MODE SELECT",
	.help = "SCSI MODE SELECT of the block count in the block descriptor",
	.need = METHOD_SCSI_RESIZE,
	.flags = CAPM_AUTO | CAPM_SCSI,
	.set = resize_set,
	.restore = resize_set,
};
