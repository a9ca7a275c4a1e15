/* sim_elem.c - storage element depopulation (SBC-4, ACS-4/5) on a
 * simulated drive whose rig entry says "depop": true.
 *
 * The elements are the drive's surfaces ("heads", sim_unit.c): element
 * N + 1 is head N. Each serves a 1/heads share of every one of the 64 bands
 * across the stroke, so removing one takes that share of every band away:
 * the native capacity becomes (heads - removed) / heads of the factory one
 * (a multiple of the physical block), the stroke stays whole, and the
 * media model lays the LBAs over the surfaces that are left.
 *
 * Health: each surface's share of 64 KiB granules that read only after
 * re-reads (the unit's "retries" at mid-stroke, and the weak-head fault's
 * 3 %) against the drive's limit of 3 %: 1 per cent of the limit is health
 * 1, the limit itself 64h ("at the manufacturer's limit"), beyond it up to
 * CFh. Depopulated elements read FFh, the one being removed FEh, FCh while
 * elements are restored.
 *
 * REMOVE ELEMENT AND TRUNCATE (9Eh/18h, ATA 7Ch) checks the element (it
 * exists and serves data, it is not the last one) and the requested
 * capacity (0: the drive's choice, else at most what is left), then ends
 * at once (GOOD) and removes the element in the background for as long as
 * a format of the new capacity takes, in virtual time: meanwhile READ
 * CAPACITY, IDENTIFY, INQUIRY, REQUEST SENSE, MODE SENSE, READ LOG and GET
 * PHYSICAL ELEMENT STATUS answer (the capacity already the new one), other
 * commands get NOT READY, LOGICAL UNIT NOT READY, DEPOPULATION IN PROGRESS
 * (04h/24h) with the progress in the sense-key specific bytes, as REQUEST
 * SENSE gives it. At the end the medium is erased, the capacity is the
 * new one (a SATA drive's native and accessible maximum both, any HPA
 * gone). RESTORE ELEMENTS AND REBUILD (9Eh/19h, 7Dh) brings every removed
 * element back the same way (04h/25h while it runs), to the factory
 * capacity, erased. A drive without the feature answers INVALID COMMAND
 * OPERATION CODE (SCSI) or ABORT (ATA).
 *
 * REMOVE ELEMENT AND MODIFY ZONES (ATA 7Eh) on a zoned drive: the same
 * checks, then the element is gone at once: its zones (zone z lies on
 * element z % heads + 1, sim_zones.c) report OFFLINE, the capacity and the
 * other zones stay as they are; RESTORE ELEMENTS AND REBUILD brings them
 * back with the rest. The SCSI form (ZBC-2) is not emulated (refused as
 * unsupported), nor is the ATA one on a drive that is not zoned.
 */
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/elem.h"
#include "shortstroke/sense.h"
#include "sim/sim_priv.h"

#define ELEM_LIMIT_PPM 30000.0

/* The rig says "depop": the element commands are answered */
static bool sim_elem_supported(const struct sim_drive *d)
{
	return d->cfg.depop;
}

static unsigned removed_count(uint32_t mask)
{
	return (unsigned)__builtin_popcount(mask);
}

unsigned sim_elem_live(const struct sim_drive *d)
{
	unsigned heads = d->cfg.unit.heads ? d->cfg.unit.heads : 1;

	return heads - removed_count(d->st.depop_mask | d->st.zones_mask);
}

/* The native capacity with mask's elements removed */
static uint64_t blocks_without(const struct sim_drive *d, uint32_t mask)
{
	unsigned heads = d->cfg.unit.heads ? d->cfg.unit.heads : 1;
	uint64_t per = d->cfg.pblock / d->cfg.lblock, n;

	if (!mask)
		return d->cfg.blocks;
	n = d->cfg.blocks / heads * (heads - removed_count(mask));
	return per > 1 ? n - n % per : n;
}

uint64_t sim_native_blocks(const struct sim_drive *d)
{
	return blocks_without(d, d->st.depop_mask);
}

unsigned sim_elem_head(const struct sim_drive *d, unsigned k)
{
	unsigned heads = d->cfg.unit.heads ? d->cfg.unit.heads : 1;

	for (unsigned h = 0; h < heads; h++) {
		if (d->st.depop_mask & (1u << h))
			continue;
		if (k-- == 0)
			return h;
	}
	return 0;
}

static uint8_t health_of(const struct sim_drive *d, unsigned head)
{
	const struct sim_unit *u = &d->cfg.unit;
	const struct sim_fault *f = sim_fault_active(d, SIM_FAULT_WEAK_HEAD);
	double ppm = (u->retry_ppm_outer + u->retry_ppm_inner) / 2, h;

	uint32_t removed = d->st.depop_mask | d->st.zones_mask;

	if (d->st.elem_op == SIM_ELEM_RESTORING && (removed & (1u << head)))
		return ELEM_HEALTH_RESTORING;
	if (d->st.elem_op == SIM_ELEM_REMOVING && d->st.elem_id == head + 1)
		return ELEM_HEALTH_DEPOPULATING;
	if (removed & (1u << head))
		return ELEM_HEALTH_DEPOPULATED;
	if (f && f->head == head)
		ppm += 30000.0; /* sim_unit.c's weak surface */
	h = 100.0 * ppm / ELEM_LIMIT_PPM + 0.5;
	if (h < 1)
		h = 1;
	if (h > ELEM_HEALTH_OVER_MAX)
		h = ELEM_HEALTH_OVER_MAX;
	return (uint8_t)h;
}

static uint32_t sim_elem_progress(const struct sim_drive *d, uint64_t now)
{
	const struct sim_state *s = &d->st;
	double f;

	if (s->elem_op == SIM_ELEM_IDLE || s->elem_end_ns <= s->elem_start_ns)
		return 0;
	f = now > s->elem_start_ns
		? (double)(now - s->elem_start_ns) / (double)(s->elem_end_ns - s->elem_start_ns)
		: 0;
	return f >= 1 ? 65535 : (uint32_t)(f * 65536);
}

static void finish(struct sim_drive *d)
{
	struct sim_state *s = &d->st;

	if (s->elem_op == SIM_ELEM_REMOVING)
		s->depop_mask |= 1u << (s->elem_id - 1);
	else
		s->depop_mask = s->zones_mask = 0;
	s->elem_op = SIM_ELEM_IDLE;
	s->elem_id = 0;
	s->native_max = s->elem_blocks - 1;
	s->nv_max = s->native_max;
	s->vol_active = false;
	s->scsi_blocks = s->elem_blocks;
	s->fmt_corrupt = false;
	sim_cache_drop(d);
	sim_store_wipe(d);
	sim_zones_reset_all(d);
	d->dirty = true;
}

void sim_elem_tick(struct sim_drive *d, uint64_t now)
{
	if (d->st.elem_op != SIM_ELEM_IDLE && now >= d->st.elem_end_ns)
		finish(d);
}

bool sim_elem_busy(const struct sim_drive *d)
{
	return d->st.elem_op != SIM_ELEM_IDLE;
}

/* The sense of a drive removing or restoring elements: NOT READY, 04h/24h
 * or 04h/25h, the progress in the sense-key specific bytes. */
static void busy_sense(const struct sim_drive *d, uint64_t now, uint8_t *ascq,
		       struct sim_sense_x *x)
{
	uint32_t p = sim_elem_progress(d, now);

	memset(x, 0, sizeof(*x));
	x->sks_valid = true;
	x->sks[1] = (uint8_t)(p >> 8);
	x->sks[2] = (uint8_t)p;
	*ascq = d->st.elem_op == SIM_ELEM_REMOVING ? 0x24 : 0x25;
}

void sim_elem_not_ready(struct sim_cmd *sc)
{
	struct sim_sense_x x;
	uint8_t ascq;

	busy_sense(sc->d, sc->now_ns, &ascq, &x);
	sim_sense_x(sc, SK_NOT_READY, 0x04, ascq, &x);
}

unsigned sim_elem_request_sense(const struct sim_drive *d, uint64_t now, uint8_t *buf, unsigned max,
				bool desc)
{
	struct sim_sense_x x;
	uint8_t ascq;

	busy_sense(d, now, &ascq, &x);
	return sim_sense_build(buf, max, desc, SK_NOT_READY, 0x04, ascq, &x);
}

/* The answer: header and one descriptor per element from start on (filter
 * 1: those not within the limits, or removed). Returns its length. */
static size_t status_answer(const struct sim_drive *d, uint32_t start, uint8_t filter, bool le,
			    uint8_t *b, size_t max)
{
	unsigned heads = d->cfg.unit.heads ? d->cfg.unit.heads : 1, n = 0, total = 0;
	uint64_t per = d->cfg.blocks - blocks_without(d, 1);
	size_t off = ELEM_HDR_LEN;

	memset(b, 0, max);
	for (unsigned h = 0; h < heads; h++) {
		uint8_t health = health_of(d, h);
		uint8_t *p = b + off;

		if (h + 1 < start ||
		    (filter == ELEM_FILTER_OUT_OF_SPEC && elem_health_class(health) == ELEM_OK))
			continue;
		total++;
		if (off + ELEM_DESC_LEN > max)
			continue;
		if (le) {
			sg_put_unaligned_le32(h + 1, p + 4);
			sg_put_unaligned_le64(per, p + 16);
		} else {
			sg_put_unaligned_be32(h + 1, p + 4);
			sg_put_unaligned_be64(per, p + 16);
		}
		p[13] = !elem_health_in_service(health); /* RALWD: may come back */
		p[14] = ELEM_TYPE_STORAGE;
		p[15] = health;
		off += ELEM_DESC_LEN;
		n++;
	}
	if (le) {
		sg_put_unaligned_le32(total, b);
		sg_put_unaligned_le32(n, b + 4);
		sg_put_unaligned_le32(d->st.elem_op == SIM_ELEM_REMOVING ? d->st.elem_id : 0,
				      b + 8);
		sg_put_unaligned_le16((uint16_t)(heads - 1), b + 12);
		sg_put_unaligned_le16((uint16_t)removed_count(d->st.depop_mask | d->st.zones_mask),
				      b + 14);
	} else {
		sg_put_unaligned_be32(total, b);
		sg_put_unaligned_be32(n, b + 4);
		sg_put_unaligned_be32(d->st.elem_op == SIM_ELEM_REMOVING ? d->st.elem_id : 0,
				      b + 8);
		sg_put_unaligned_be16((uint16_t)(heads - 1), b + 12);
		sg_put_unaligned_be16((uint16_t)removed_count(d->st.depop_mask | d->st.zones_mask),
				      b + 14);
	}
	return off;
}

enum elem_verdict {
	ELEM_GO = 0,
	ELEM_BAD_ELEMENT, /* no such element, or it serves no data */
	ELEM_LAST,	  /* the last element left */
	ELEM_BAD_CAPACITY,
	ELEM_NOTHING, /* restore: nothing removed */
	ELEM_BUSY,
};

static void start(struct sim_drive *d, enum sim_elem_op op, uint32_t id, uint64_t blocks,
		  uint64_t now)
{
	struct sim_state *s = &d->st;

	s->elem_op = op;
	s->elem_id = id;
	s->elem_blocks = blocks;
	s->elem_start_ns = now;
	s->elem_end_ns = now + sim_media_format_ns(d, blocks);
	/* the capacity is truncated at once; the data is gone */
	s->native_max = blocks - 1;
	s->nv_max = s->native_max;
	s->vol_active = false;
	s->scsi_blocks = blocks;
	d->dirty = true;
}

/* Either removal: the drive idle, the element there and serving data, not
 * the last one */
static enum elem_verdict may_remove(const struct sim_drive *d, uint32_t id)
{
	unsigned heads = d->cfg.unit.heads ? d->cfg.unit.heads : 1;

	if (sim_elem_busy(d))
		return ELEM_BUSY;
	if (id == 0 || id > heads || !elem_health_in_service(health_of(d, id - 1)))
		return ELEM_BAD_ELEMENT;
	if (sim_elem_live(d) <= 1)
		return ELEM_LAST;
	return ELEM_GO;
}

static enum elem_verdict remove_elem(struct sim_drive *d, uint32_t id, uint64_t requested,
				     uint64_t now)
{
	enum elem_verdict v = may_remove(d, id);
	uint64_t left;

	if (v != ELEM_GO)
		return v;
	left = blocks_without(d, d->st.depop_mask | 1u << (id - 1));
	if (requested > left)
		return ELEM_BAD_CAPACITY;
	start(d, SIM_ELEM_REMOVING, id, requested ? requested : left, now);
	return ELEM_GO;
}

/* REMOVE ELEMENT AND MODIFY ZONES: the element's zones go offline now */
static enum elem_verdict remove_zones(struct sim_drive *d, uint32_t id)
{
	enum elem_verdict v = may_remove(d, id);

	if (v != ELEM_GO)
		return v;
	d->st.zones_mask |= 1u << (id - 1);
	d->dirty = true;
	return ELEM_GO;
}

static enum elem_verdict restore_elems(struct sim_drive *d, uint64_t now)
{
	if (sim_elem_busy(d))
		return ELEM_BUSY;
	if (!d->st.depop_mask && !d->st.zones_mask)
		return ELEM_NOTHING;
	start(d, SIM_ELEM_RESTORING, 0, d->cfg.blocks, now);
	return ELEM_GO;
}

static void scsi_verdict(struct sim_cmd *sc, enum elem_verdict v, unsigned field)
{
	switch (v) {
	case ELEM_GO:
		break;
	case ELEM_BAD_ELEMENT:
	case ELEM_LAST:
	case ELEM_BAD_CAPACITY:
		sim_bad_cdb(sc, field, -1);
		break;
	case ELEM_NOTHING:
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x2c, 0x00); /* COMMAND SEQUENCE ERROR */
		break;
	case ELEM_BUSY:
		sim_elem_not_ready(sc);
		break;
	}
}

void sim_scsi_elem(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	uint8_t sa = cdb[1] & 0x1f, b[ELEM_HDR_LEN + 32 * ELEM_DESC_LEN];
	uint32_t alloc;
	size_t n;

	if (!sim_elem_supported(d) || d->cfg.sata || sa == SCSI_SAI_REMOVE_ELEM_ZONES) {
		sim_bad_cdb(sc, 1, 4);
		return;
	}
	switch (sa) {
	case SCSI_SAI_GET_ELEM_STATUS:
		alloc = sg_get_unaligned_be32(cdb + 10);
		n = status_answer(d, sg_get_unaligned_be32(cdb + 6), cdb[14] >> 6, false, b,
				  sizeof(b));
		sim_data_in(sc, b, alloc < n ? alloc : n);
		break;
	case SCSI_SAI_REMOVE_ELEM:
		scsi_verdict(sc,
			     remove_elem(d, sg_get_unaligned_be32(cdb + 10),
					 sg_get_unaligned_be64(cdb + 2), sc->now_ns),
			     sg_get_unaligned_be64(cdb + 2) ? 2 : 10);
		break;
	case SCSI_SAI_RESTORE_ELEMS:
		scsi_verdict(sc, restore_elems(d, sc->now_ns), 1);
		break;
	default:
		sim_bad_cdb(sc, 1, 4);
		break;
	}
}

void sim_ata_elem(struct sim_ata *a)
{
	struct sim_drive *d = a->sc->d;
	uint8_t b[512];
	size_t n;

	if (!sim_elem_supported(d) || !a->tf.ext ||
	    (a->tf.command == ATA_REMOVE_ELEM_ZONES && !d->nzones)) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	switch (a->tf.command) {
	case ATA_GET_PHYS_ELEM_STATUS: {
		size_t want = (size_t)a->tf.count * 512;

		if (!a->tf.count || !sim_ata_data_in_ok(a, want)) {
			sim_bad_cdb(a->sc, 1, 4);
			return;
		}
		n = status_answer(d, (uint32_t)a->tf.lba, (uint8_t)(a->tf.feature >> 14), true, b,
				  sizeof(b));
		(void)n;
		sim_data_in(a->sc, b, want < sizeof(b) ? want : sizeof(b));
		if (want > sizeof(b))
			memset(a->sc->in + sizeof(b), 0, want - sizeof(b));
		a->sc->moved = want;
		break;
	}
	case ATA_REMOVE_ELEM_TRUNCATE:
		if (remove_elem(d, elem_tf_element(&a->tf), a->tf.lba ? a->tf.lba + 1 : 0,
				a->sc->now_ns) != ELEM_GO)
			sim_ata_abrt(a, ATA_ERR_ABRT);
		break;
	case ATA_REMOVE_ELEM_ZONES:
		if (remove_zones(d, elem_tf_element(&a->tf)) != ELEM_GO)
			sim_ata_abrt(a, ATA_ERR_ABRT);
		break;
	case ATA_RESTORE_ELEMS_REBUILD:
		if (restore_elems(d, a->sc->now_ns) != ELEM_GO)
			sim_ata_abrt(a, ATA_ERR_ABRT);
		break;
	}
}
