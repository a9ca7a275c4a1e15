/* sim_sector.c - changing a simulated drive's logical sector size (512e
 * <-> 4Kn) on a drive whose rig entry lists "sector_sizes".
 *
 * SAS: VPD B7h lists the sizes; a MODE SELECT block descriptor with one of
 * them makes it pending, and the next FORMAT UNIT formats to it (FFMT 01b,
 * a fast format, takes seconds; a full one as long as a format does); a
 * size not offered is INVALID FIELD IN PARAMETER LIST, as before. SATA: the
 * Sector Configuration log (2Fh) lists them, each with its COMMAND CHECK;
 * SET SECTOR CONFIGURATION EXT with a descriptor's index and check changes
 * the size at once (a wrong check or an empty descriptor: ABORT).
 *
 * The drive keeps its bytes: the rig's capacity in blocks of its own size
 * becomes as many bytes in blocks of the new one (rounded down), every
 * limit is gone (the native and accessible maximum and the SCSI block
 * count are the new full capacity, less removed elements), the medium is
 * erased and the physical block is at least the logical one. The state
 * file keeps the size ("sector_size"), which a new process applies to the
 * drive's configuration before anything else.
 */
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/sector.h"
#include "sim/sim_priv.h"

/* The COMMAND CHECK of descriptor i (any non-zero value the drive picks) */
static uint16_t check_of(unsigned i, uint32_t bytes)
{
	return (uint16_t)(0x5a00 | (i << 4) | ((bytes >> 9) & 0x0f));
}

bool sim_sector_offered(const struct sim_drive *d, uint32_t bytes)
{
	for (unsigned i = 0; i < d->cfg.nsizes; i++)
		if (d->cfg.sizes[i] == bytes)
			return true;
	return false;
}

void sim_sector_config(struct sim_drive *d, uint32_t bytes)
{
	struct sim_config *c = &d->cfg;

	if (!c->rig_lblock) {
		c->rig_lblock = c->lblock;
		c->rig_blocks = c->blocks;
		c->rig_dco = c->dco_factory;
		c->rig_pblock = c->pblock;
	}
	c->lblock = bytes;
	c->blocks = c->rig_blocks * c->rig_lblock / bytes;
	c->dco_factory = c->rig_dco * c->rig_lblock / bytes;
	c->pblock = c->rig_pblock < bytes ? bytes : c->rig_pblock;
	c->hpa_blocks = 0;
}

void sim_sector_apply(struct sim_drive *d, uint32_t bytes)
{
	struct sim_state *s = &d->st;
	uint64_t n;

	if (bytes != d->cfg.lblock)
		sim_sector_config(d, bytes);
	n = sim_native_blocks(d);
	s->lblock = bytes;
	s->pending_lblock = 0;
	s->native_max = n - 1;
	s->nv_max = s->native_max;
	s->vol_active = false;
	s->scsi_blocks = n;
	s->fmt_blocks = n;
	s->head_lba = s->next_lba = 0;
	sim_cache_drop(d);
	sim_store_wipe(d);
	d->dirty = true;
}

unsigned sim_sector_vpd_b7(const struct sim_drive *d, uint8_t *b)
{
	unsigned n = 4;

	for (unsigned i = 0; i < d->cfg.nsizes; i++, n += 8)
		sg_put_unaligned_be32(d->cfg.sizes[i], b + n);
	sg_put_unaligned_be16((uint16_t)(n - 4), b + 2);
	return n;
}

void sim_sector_log(const struct sim_drive *d, uint8_t b[512])
{
	for (unsigned i = 0; i < d->cfg.nsizes && i < SECTOR_ATA_DESCRIPTORS; i++) {
		uint8_t *p = b + i * SECTOR_ATA_DESC_LEN;

		sg_put_unaligned_le16(check_of(i, d->cfg.sizes[i]), p + 2);
		sg_put_unaligned_le32(d->cfg.sizes[i] / 2, p + 4);
	}
}

void sim_ata_set_sector_config(struct sim_ata *a)
{
	struct sim_drive *d = a->sc->d;
	unsigned i = a->tf.count & 0x07;

	if (!a->tf.ext || !d->cfg.nsizes || i >= d->cfg.nsizes ||
	    a->tf.feature != check_of(i, d->cfg.sizes[i]) || d->st.sec_locked) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	sim_sector_apply(d, d->cfg.sizes[i]);
	a->sc->media_ns = 2000000000ULL; /* the drive rewrites its tables */
}
