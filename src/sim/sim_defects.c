/* sim_defects.c - a simulated drive's defects: the grown defect list a SAS
 * drive reports (READ DEFECT DATA (10) and (12), SBC-3 5.13 and 5.14),
 * REASSIGN BLOCKS (SBC-3 5.20), and what a write does to a block that reads
 * badly: the drive reassigns it to a spare, as drives do when a write of a
 * pending or marginal sector fails its verification, so the medium-error
 * or slow-block fault no longer covers it and the grown defect list (SAS)
 * or the reallocated sector count (SATA, attribute 5) grows by one.
 *
 * The grown defect list holds as many entries as the drive's reallocated
 * count (the rig's seed, a smart-degrade fault and the blocks reassigned
 * here): the addresses of seeded entries are made up, spread over the disk
 * from the count, so that the list reads the same every time.
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/sense.h"
#include "sim/sim_priv.h"

#define DEFECT_SPT 1000u /* sectors per track of the made-up addresses */
#define DEFECT_HEADS 4u

/* The primary list is not modelled: a drive that asks for it gets it empty. */

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Descriptor i of the grown list in format fmt (8 or 4 bytes into p). */
static void descriptor(const struct sim_drive *d, uint64_t i, uint8_t fmt, uint8_t *p)
{
	uint64_t cap = sim_capacity(d), lba = cap ? mix(i ^ d->cfg.wwn) % cap : 0;
	uint32_t cyl = (uint32_t)(lba / ((uint64_t)DEFECT_SPT * DEFECT_HEADS));
	uint8_t head = (uint8_t)(lba / DEFECT_SPT % DEFECT_HEADS);
	uint32_t sect = (uint32_t)(lba % DEFECT_SPT);

	switch (fmt) {
	case 0: /* short block */
		sg_put_unaligned_be32(lba > UINT32_MAX ? UINT32_MAX : (uint32_t)lba, p);
		break;
	case 3: /* long block */
		sg_put_unaligned_be64(lba, p);
		break;
	default: /* 4 bytes from index, 5 physical sector: cylinder, head, ... */
		sg_put_unaligned_be24(cyl & 0xffffff, p);
		p[3] = head;
		sg_put_unaligned_be32(fmt == 4 ? sect * d->cfg.lblock : sect, p + 4);
		break;
	}
}

void sim_scsi_read_defect(struct sim_cmd *sc, bool twelve)
{
	struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	uint8_t flags = twelve ? cdb[1] : cdb[2];
	bool plist = flags & 0x10, glist = flags & 0x08;
	uint8_t fmt = flags & 0x07, give = fmt;
	uint32_t alloc = twelve ? sg_get_unaligned_be32(cdb + 6) : sg_get_unaligned_be16(cdb + 7);
	uint32_t index = twelve ? sg_get_unaligned_be32(cdb + 2) : 0;
	unsigned hdr = twelve ? 8 : 4, dlen;
	struct sim_smart s;
	uint64_t count, bytes, max;
	uint8_t buf[4096];
	size_t n = 0;

	/* the formats it keeps; another one is answered in bytes from index,
	 * with RECOVERED ERROR / DEFECT LIST NOT FOUND (SBC-3 5.13) */
	if (fmt != 0 && fmt != 3 && fmt != 4 && fmt != 5)
		give = 4;
	dlen = give == 0 ? 4 : 8;
	sim_smart_now(d, &s);
	count = glist ? s.reallocated : 0;
	if (index > count)
		index = (uint32_t)count;
	bytes = (count - index) * dlen;
	max = twelve ? UINT32_MAX - (UINT32_MAX % dlen) : 0xffff - (0xffff % dlen);
	if (bytes > max)
		bytes = max;
	memset(buf, 0, sizeof(buf));
	buf[1] = (uint8_t)((plist ? 0x10 : 0) | (glist ? 0x08 : 0) | give);
	if (twelve)
		sg_put_unaligned_be32((uint32_t)bytes, buf + 4);
	else
		sg_put_unaligned_be16((uint16_t)bytes, buf + 2);
	n = hdr;
	for (uint64_t i = index; n + dlen <= sizeof(buf) && n + dlen <= alloc && i < count; i++) {
		descriptor(d, i, give, buf + n);
		n += dlen;
	}
	sim_data_in(sc, buf, n < alloc ? n : alloc);
	if (give != fmt)
		sim_sense(sc, SK_RECOVERED_ERROR, 0x1c, 0x00);
}

void sim_scsi_reassign(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb, *p = sc->out;
	bool longlba = cdb[1] & 0x02, longlist = cdb[1] & 0x01;
	unsigned hdr = 4, each = longlba ? 8 : 4;
	uint64_t len, cap = sim_capacity(d);

	if (!p || sc->out_len < hdr) {
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x1a, 0x00); /* PARAMETER LIST LENGTH ERROR */
		return;
	}
	len = longlist ? sg_get_unaligned_be32(p) : sg_get_unaligned_be16(p + 2);
	if (len % each || hdr + len > sc->out_len) {
		sim_bad_param(sc, longlist ? 0 : 2);
		return;
	}
	sc->moved = (size_t)(hdr + len);
	for (uint64_t off = 0; off < len; off += each) {
		uint64_t lba = longlba ? sg_get_unaligned_be64(p + hdr + off)
				       : sg_get_unaligned_be32(p + hdr + off);

		if (lba >= cap) {
			struct sim_sense_x x = { .info_valid = true, .info = lba };

			sim_sense_x(sc, SK_ILLEGAL_REQUEST, 0x21, 0x00, &x);
			return;
		}
		sim_remap(d, lba, 1, true);
		/* a revolution to find the spare, one to write it */
		sc->media_ns += (uint64_t)(2 * d->cfg.media.rev_ns) + 1000000ULL;
	}
}

/* Remove [lba, lba + n) from the faults of a kind; returns the blocks they
 * covered. A range cut in two needs a free slot; without one its upper
 * part heals too (a fault never grows). */
static uint64_t cut(struct sim_drive *d, enum sim_fault_kind k, uint64_t lba, uint64_t n)
{
	struct sim_state *s = &d->st;
	uint64_t last = lba + n - 1, covered = 0;

	for (unsigned i = 0; i < s->nfaults; i++) {
		struct sim_fault *f = &s->faults[i];
		uint64_t lo, hi;

		if (f->kind != k || f->lba_last < lba || f->lba_first > last)
			continue;
		lo = f->lba_first > lba ? f->lba_first : lba;
		hi = f->lba_last < last ? f->lba_last : last;
		covered += hi - lo + 1;
		if (f->lba_first >= lo && f->lba_last <= hi) {
			memmove(f, f + 1, (s->nfaults - i - 1) * sizeof(*f));
			s->nfaults--;
			i--;
		} else if (f->lba_first >= lo) {
			f->lba_first = hi + 1;
		} else if (f->lba_last <= hi) {
			f->lba_last = lo - 1;
		} else {
			struct sim_fault upper = *f;

			upper.lba_first = hi + 1;
			f->lba_last = lo - 1;
			/* no free slot: the upper part heals with the rest */
			(void)sim_fault_add(s->faults, &s->nfaults, &upper);
		}
	}
	return covered;
}

uint64_t sim_remap(struct sim_drive *d, uint64_t lba, uint64_t n, bool force)
{
	uint64_t bad, slow, moved;

	if (!n)
		return 0;
	bad = cut(d, SIM_FAULT_MEDIUM_ERROR, lba, n);
	slow = cut(d, SIM_FAULT_SLOW_BLOCK, lba, n);
	moved = force ? n : (bad > slow ? bad : slow);
	if (!moved)
		return 0;
	d->st.smart.reallocated += moved;
	d->dirty = true;
	return moved;
}

uint64_t sim_slow_block_ns(const struct sim_drive *d, uint64_t lba, uint64_t n)
{
	double worst = 0;

	if (!n)
		return 0;
	for (unsigned i = 0; i < d->st.nfaults; i++) {
		const struct sim_fault *f = &d->st.faults[i];

		if (f->kind == SIM_FAULT_SLOW_BLOCK && f->lba_last >= lba &&
		    f->lba_first <= lba + n - 1 && f->extra_ms > worst)
			worst = f->extra_ms;
	}
	return (uint64_t)(worst * 1e6);
}
