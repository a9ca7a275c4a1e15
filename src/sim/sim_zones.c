/* sim_zones.c - zones of a simulated drive: the ZBC/ZAC zones of a zoned
 * drive with their write pointers (REPORT ZONES, REPORT ZONES EXT, RESET
 * WRITE POINTER, FINISH ZONE; the sequential-write-required rules of a
 * host-managed drive), and the recording zones (notches) of the media
 * model that a SAS drive describes in its Notch mode page.
 *
 * Zone geometry from the rig: zone_size_mb zones, the first
 * conventional_zones of them conventional, the rest sequential write
 * required (host-managed) or preferred (host-aware); the last zone may be
 * shorter. A zone's condition follows from its write pointer: empty at
 * the start, full at the end, implicitly open in between. Reads are not
 * checked against the write pointer (they return what the medium holds,
 * zeros where nothing was written, as with URSWRZ set).
 * Layouts: ZBC-2 (big-endian) and ZAC-2 (the same, little-endian).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/sense.h"
#include "sim/sim_priv.h"

#define ZONE_CONV 0x1
#define ZONE_SWR 0x2
#define ZONE_SWP 0x3
#define COND_NOT_WP 0x0
#define COND_EMPTY 0x1
#define COND_IMP_OPEN 0x2
#define COND_FULL 0xe
#define COND_OFFLINE 0xf

#define ZBC_REPORT_ZONES 0x00
#define ZONE_CLOSE 0x01
#define ZONE_FINISH 0x02
#define ZONE_OPEN 0x03
#define ZONE_RESET 0x04

#define NOTCH_MIN 16
#define NOTCH_MAX 30

uint64_t sim_zone_blocks(const struct sim_drive *d)
{
	uint64_t zb = (uint64_t)d->cfg.zone_mb * 1048576 / d->cfg.lblock;

	return zb ? zb : 1;
}

int sim_zones_init(struct sim_drive *d)
{
	uint64_t zb = sim_zone_blocks(d), n;

	d->zone_wp = NULL;
	d->nzones = 0;
	if (d->cfg.zoned == SIM_ZONED_NONE)
		return 0;
	n = (d->cfg.blocks + zb - 1) / zb;
	if (n == 0 || n > UINT32_MAX)
		return -EINVAL;
	d->zone_wp = malloc(n * sizeof(*d->zone_wp));
	if (!d->zone_wp)
		return -ENOMEM;
	d->nzones = (uint32_t)n;
	sim_zones_reset_all(d);
	return 0;
}

void sim_zones_fini(struct sim_drive *d)
{
	free(d->zone_wp);
	d->zone_wp = NULL;
	d->nzones = 0;
}

static uint64_t zone_start(const struct sim_drive *d, uint32_t z)
{
	return (uint64_t)z * sim_zone_blocks(d);
}

static uint64_t zone_len(const struct sim_drive *d, uint32_t z)
{
	uint64_t s = zone_start(d, z), zb = sim_zone_blocks(d);

	return d->cfg.blocks - s < zb ? d->cfg.blocks - s : zb;
}

static bool zone_conv(const struct sim_drive *d, uint32_t z)
{
	return z < d->cfg.conv_zones;
}

static uint8_t zone_type(const struct sim_drive *d, uint32_t z)
{
	if (zone_conv(d, z))
		return ZONE_CONV;
	return d->cfg.zoned == SIM_ZONED_HOST_MANAGED ? ZONE_SWR : ZONE_SWP;
}

/* The element (head + 1) a zone lies on: zones go round the surfaces */
static uint32_t sim_zone_element(const struct sim_drive *d, uint32_t z)
{
	unsigned heads = d->cfg.unit.heads ? d->cfg.unit.heads : 1;

	return z % heads + 1;
}

static uint8_t zone_cond(const struct sim_drive *d, uint32_t z)
{
	uint64_t s = zone_start(d, z);

	if (d->st.zones_mask & (1u << (sim_zone_element(d, z) - 1)))
		return COND_OFFLINE;
	if (zone_conv(d, z))
		return COND_NOT_WP;
	if (d->zone_wp[z] <= s)
		return COND_EMPTY;
	if (d->zone_wp[z] >= s + zone_len(d, z))
		return COND_FULL;
	return COND_IMP_OPEN;
}

void sim_zones_reset_all(struct sim_drive *d)
{
	uint32_t z;

	for (z = 0; z < d->nzones; z++)
		d->zone_wp[z] = zone_start(d, z);
}

uint8_t sim_zone_write_check(const struct sim_drive *d, uint64_t lba, uint64_t n)
{
	uint64_t zb = sim_zone_blocks(d), z0, z1;

	if (!d->nzones || d->cfg.zoned != SIM_ZONED_HOST_MANAGED || n == 0)
		return 0;
	z0 = lba / zb;
	z1 = (lba + n - 1) / zb;
	if (z0 >= d->nzones)
		return 0;
	if (z1 >= d->nzones)
		z1 = d->nzones - 1;
	if (z0 == z1) {
		if (zone_conv(d, (uint32_t)z0))
			return 0;
		return lba == d->zone_wp[z0] ? 0 : 0x04; /* UNALIGNED WRITE COMMAND */
	}
	/* across zones: fine among conventional zones only */
	if (zone_conv(d, (uint32_t)z1))
		return 0;
	return 0x05; /* WRITE BOUNDARY VIOLATION */
}

void sim_zone_written(struct sim_drive *d, uint64_t lba, uint64_t n)
{
	uint64_t zb = sim_zone_blocks(d), z, end = lba + n;

	if (!d->nzones || n == 0)
		return;
	for (z = lba / zb; z < d->nzones && zone_start(d, (uint32_t)z) < end; z++) {
		uint64_t zend = zone_start(d, (uint32_t)z) + zone_len(d, (uint32_t)z);
		uint64_t w = end < zend ? end : zend;

		if (zone_conv(d, (uint32_t)z))
			continue;
		if (w > d->zone_wp[z])
			d->zone_wp[z] = w; /* saved with the next change or at the end */
	}
}

/* ---- REPORT ZONES ---- */

static bool matches(const struct sim_drive *d, uint32_t z, uint8_t opt)
{
	uint8_t c = zone_cond(d, z);

	switch (opt) {
	case 0x00:
		return true;
	case 0x01:
		return c == COND_EMPTY;
	case 0x02:
		return c == COND_IMP_OPEN;
	case 0x05:
		return c == COND_FULL;
	case 0x3f:
		return c == COND_NOT_WP;
	case 0x07:
		return c == COND_OFFLINE;
	default: /* explicitly open, closed, read only, RWP, non-seq */
		return false;
	}
}

static bool option_ok(uint8_t opt)
{
	return opt <= 0x07 || opt == 0x10 || opt == 0x11 || opt == 0x3f;
}

/* ZBC fields are big-endian, ZAC's the same fields little-endian */
static void set_field32(uint8_t *p, uint32_t v, bool le)
{
	if (le)
		sg_put_unaligned_le32(v, p);
	else
		sg_put_unaligned_be32(v, p);
}

static void set_field64(uint8_t *p, uint64_t v, bool le)
{
	if (le)
		sg_put_unaligned_le64(v, p);
	else
		sg_put_unaligned_be64(v, p);
}

/* The SAME field: 1 all zones alike, 2 alike but the last shorter,
 * 3 lengths alike but types differ, 0 anything goes */
static uint8_t same_code(const struct sim_drive *d)
{
	bool short_last = d->cfg.blocks % sim_zone_blocks(d) != 0;
	bool mixed = d->cfg.conv_zones > 0 && d->cfg.conv_zones < d->nzones;

	if (mixed)
		return short_last ? 0 : 3;
	return short_last ? 2 : 1;
}

/* The zone list from the zone holding start: header and as many
 * descriptors as max bytes hold. Returns the bytes built. */
static size_t build_report(const struct sim_drive *d, uint64_t start, uint8_t opt, bool partial,
			   uint8_t *buf, size_t max, bool le)
{
	uint32_t z, first = (uint32_t)(start / sim_zone_blocks(d));
	uint64_t total = 0, here = 0;
	size_t n = 64;

	memset(buf, 0, max);
	for (z = first; z < d->nzones; z++) {
		uint8_t *p;

		if (!matches(d, z, opt))
			continue;
		total++;
		if (n + 64 > max)
			continue;
		p = buf + n;
		p[0] = zone_type(d, z);
		p[1] = (uint8_t)(zone_cond(d, z) << 4);
		set_field64(p + 8, zone_len(d, z), le);
		set_field64(p + 16, zone_start(d, z), le);
		/* an offline zone's write pointer is invalid */
		set_field64(p + 24,
			    zone_conv(d, z) || zone_cond(d, z) == COND_OFFLINE ? UINT64_MAX
									       : d->zone_wp[z],
			    le);
		n += 64;
		here++;
	}
	if (max >= 64) {
		uint64_t listed = partial ? here : total;

		set_field32(buf, (uint32_t)(listed * 64 > UINT32_MAX ? UINT32_MAX : listed * 64),
			    le);
		buf[4] = same_code(d);
		set_field64(buf + 8, d->cfg.blocks - 1, le);
	}
	return n < max ? n : max;
}

/* Allocation of the answer: what the command asks, never more than the
 * whole list */
static size_t answer_len(const struct sim_drive *d, uint64_t alloc)
{
	uint64_t all = 64 + (uint64_t)d->nzones * 64;

	return (size_t)(alloc < all ? alloc : all);
}

void sim_scsi_zbc_in(struct sim_cmd *sc)
{
	const struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	uint64_t start, alloc;
	uint8_t opt = cdb[14] & 0x3f, *buf;
	size_t len, n;

	if ((cdb[1] & 0x1f) != ZBC_REPORT_ZONES) {
		sim_bad_cdb(sc, 1, 4);
		return;
	}
	start = sg_get_unaligned_be64(cdb + 2);
	alloc = sg_get_unaligned_be32(cdb + 10);
	if (start >= d->cfg.blocks) {
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x21, 0x00);
		return;
	}
	if (!option_ok(opt)) {
		sim_bad_cdb(sc, 14, 5);
		return;
	}
	len = answer_len(d, alloc);
	if (len < 64) {
		uint8_t hdr[64];

		build_report(d, start, opt, cdb[14] & 0x80, hdr, sizeof(hdr), false);
		sim_data_in(sc, hdr, len);
		return;
	}
	buf = malloc(len);
	if (!buf) {
		sim_sense(sc, SK_HARDWARE_ERROR, 0x44, 0x00);
		return;
	}
	n = build_report(d, start, opt, cdb[14] & 0x80, buf, len, false);
	sim_data_in(sc, buf, n);
	free(buf);
}

void sim_ata_zac_in(struct sim_ata *a)
{
	struct sim_cmd *sc = a->sc;
	const struct sim_drive *d = sc->d;
	uint8_t action = (uint8_t)a->tf.feature, opt = (uint8_t)(a->tf.feature >> 8);
	unsigned pages = a->tf.count ? a->tf.count : 65536;
	size_t len = (size_t)pages * 512, n;
	uint8_t *buf;

	if (!d->nzones || action != ZBC_REPORT_ZONES || !option_ok(opt & 0x3f) ||
	    a->tf.lba >= d->cfg.blocks) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (!sim_ata_data_in_ok(a, len)) {
		sim_bad_cdb(sc, 1, 4);
		return;
	}
	buf = malloc(len);
	if (!buf) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	n = build_report(d, a->tf.lba, opt & 0x3f, opt & 0x80, buf, len, true);
	memset(buf + n, 0, len - n);
	sim_data_in(sc, buf, len);
	free(buf);
}

/* ---- zone management ---- */

/* RESET WRITE POINTER / FINISH / OPEN / CLOSE: 0, or -EINVAL for a bad
 * zone id (not the start of a sequential zone), -ERANGE beyond the end */
static int zone_action(struct sim_drive *d, uint8_t action, uint64_t id, bool all)
{
	uint64_t zb = sim_zone_blocks(d);
	uint32_t z, lo = 0, hi = d->nzones;

	if (!all) {
		if (id >= d->cfg.blocks)
			return -ERANGE;
		if (id % zb || zone_conv(d, (uint32_t)(id / zb)))
			return -EINVAL;
		lo = (uint32_t)(id / zb);
		hi = lo + 1;
	}
	for (z = lo; z < hi; z++) {
		if (zone_conv(d, z))
			continue;
		if (action == ZONE_RESET && d->zone_wp[z] != zone_start(d, z)) {
			d->zone_wp[z] = zone_start(d, z);
			d->dirty = true;
		} else if (action == ZONE_FINISH) {
			d->zone_wp[z] = zone_start(d, z) + zone_len(d, z);
			d->dirty = true;
		}
	}
	return 0;
}

static bool action_ok(uint8_t action)
{
	return action == ZONE_CLOSE || action == ZONE_FINISH || action == ZONE_OPEN ||
	       action == ZONE_RESET;
}

void sim_scsi_zbc_out(struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb;
	uint8_t action = cdb[1] & 0x1f;
	uint64_t id;
	int rc;

	if (!action_ok(action)) {
		sim_bad_cdb(sc, 1, 4);
		return;
	}
	id = sg_get_unaligned_be64(cdb + 2);
	rc = zone_action(sc->d, action, id, cdb[14] & 0x01);
	if (rc == -ERANGE)
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x21, 0x00);
	else if (rc)
		sim_bad_cdb(sc, 2, -1);
}

void sim_ata_zac_out(struct sim_ata *a)
{
	struct sim_drive *d = a->sc->d;
	uint8_t action = (uint8_t)a->tf.feature;

	if (!d->nzones || !action_ok(action) || a->tf.proto != ATA_PROTO_NON_DATA ||
	    zone_action(d, action, a->tf.lba, a->tf.feature & 0x0100))
		sim_ata_abrt(a, ATA_ERR_ABRT);
}

/* ---- notches ---- */

unsigned sim_notch_count(const struct sim_drive *d)
{
	const struct sim_media *m = &d->cfg.media;
	double n;

	/* boundaries are 32-bit LBAs (LPN): smaller SAS drives only */
	if (d->cfg.sata || d->cfg.blocks > 0xffffffffULL || d->cfg.blocks < 1000000 ||
	    !(m->inner_mbps > 0) || m->outer_mbps <= m->inner_mbps)
		return 0;
	n = floor((m->outer_mbps / m->inner_mbps - 1) * 30 + 0.5);
	if (n < NOTCH_MIN)
		n = NOTCH_MIN;
	if (n > NOTCH_MAX)
		n = NOTCH_MAX;
	return (unsigned)n;
}

/* LBA fraction at stroke fraction s (the inverse of the media model's
 * mapping): the area swept, outer radius 1, inner k */
static double lba_frac(double k, double s)
{
	double r = 1 - s * (1 - k);

	if (k >= 0.999999)
		return s;
	return (1 - r * r) / (1 - k * k);
}

void sim_notch_bounds(const struct sim_drive *d, unsigned n, uint64_t *first, uint64_t *last,
		      unsigned *spt)
{
	const struct sim_media *m = &d->cfg.media;
	unsigned cnt = sim_notch_count(d);
	double k = m->k, s0, s1, mbps, rev_s;
	uint64_t b = d->cfg.blocks;

	if (!cnt || n < 1 || n > cnt) {
		*first = 0;
		*last = b - 1;
		*spt = 1;
		return;
	}
	s0 = (double)(n - 1) / cnt;
	s1 = (double)n / cnt;
	*first = n == 1 ? 0 : (uint64_t)(lba_frac(k, s0) * (double)b);
	*last = n == cnt ? b - 1 : (uint64_t)(lba_frac(k, s1) * (double)b) - 1;
	if (*last < *first)
		*last = *first;
	mbps = m->outer_mbps * (1 - (s0 + s1) / 2 * (1 - k));
	rev_s = d->cfg.rpm > 1 ? 60.0 / d->cfg.rpm : 1.0 / 120;
	*spt = (unsigned)(mbps * 1e6 * rev_s / d->cfg.lblock);
	if (*spt < 1)
		*spt = 1;
	if (*spt > 0xffff)
		*spt = 0xffff;
}
