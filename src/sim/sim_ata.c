/* sim_ata.c - the ATA device behind the SATL: ATA PASS-THROUGH (12)/(16)
 * commands, IDENTIFY DEVICE and the DCO structure (ACS-2/ACS-3 layouts).
 *
 * Capacity model: native_max (DCO may lower it from the factory value),
 * nv_max (the non-volatile accessible max set by SET MAX ADDRESS with
 * VV=1 or by SET ACCESSIBLE MAX ADDRESS), and a volatile SET MAX value
 * that lasts until the next power cycle. IDENTIFY reports the accessible
 * max + 1 in words 60-61 and 100-103.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/sat.h"
#include "shortstroke/sense.h"
#include "shortstroke/elem.h"
#include "shortstroke/sector.h"
#include "sim/sim_priv.h"

#define ST_OK (ATA_STAT_DRDY | 0x10)		     /* 0x50 */
#define ST_ERR (ATA_STAT_DRDY | 0x10 | ATA_STAT_ERR) /* 0x51 */
#define ERR_UNC 0x40

#define ATA_SET_FEATURES 0xef
#define SF_WCE_ON 0x02
#define SF_WCE_OFF 0x82

#define DCO_RESTORE 0xc0
#define DCO_FREEZE 0xc1
#define DCO_IDENTIFY 0xc2
#define DCO_SET 0xc3

/* IDENTIFY and DCO data are little-endian words */
static void w16(uint8_t *b, unsigned word, uint16_t v)
{
	sg_put_unaligned_le16(v, b + 2 * word);
}

static uint16_t r16(const uint8_t *b, unsigned word)
{
	return sg_get_unaligned_le16(b + 2 * word);
}

static void w64(uint8_t *b, unsigned word, uint64_t v)
{
	sg_put_unaligned_le64(v, b + 2 * word);
}

/* ATA string: space padded, two characters per word, first in the high byte */
static void wstr(uint8_t *b, unsigned word, unsigned nwords, const char *s)
{
	size_t l = strlen(s), i;

	for (i = 0; i < 2 * (size_t)nwords; i++) {
		char ch = i < l ? s[i] : ' ';

		b[2 * word + (i ^ 1)] = (uint8_t)ch;
	}
}

/* word 255: signature A5h and checksum */
static void checksum(uint8_t *b)
{
	b[510] = 0xa5;
	ata_checksum_set(b);
}

static bool hpa_in_effect(const struct sim_drive *d)
{
	return sim_ata_accessible_max(d) < d->st.native_max;
}

/* The fields of IDENTIFY that the rig and the drive's state own. On a drive
 * seeded from a blob, a field whose value the simulator would now give
 * differs from what it gives for the blob's own configuration at power-on
 * (a rig override, a limit set, SMART or the write cache turned off) is
 * written over the blob's IDENTIFY; everything else stays the blob's as
 * the real drive sent it, bit for bit. */
static const struct {
	uint8_t word, n;
	uint16_t mask;
} owned[] = {
	{ 10, 10, 0xffff }, /* serial */
	{ 23, 4, 0xffff },  /* firmware */
	{ 27, 20, 0xffff }, /* model */
	{ 60, 2, 0xffff },  /* capacity, 28-bit */
	{ 69, 1, 0x000b },  /* zoned, extended capacity words valid */
	{ 75, 1, 0x001f },  /* queue depth */
	{ 76, 1, 0x0100 },  /* NCQ */
	{ 82, 1, 0x0423 },  /* SMART, security, write cache, HPA supported */
	{ 83, 1, 0x0c00 },  /* 48-bit, DCO supported */
	{ 84, 1, 0x0103 },  /* SMART error log, self-test, WWN supported */
	{ 85, 1, 0x0423 },  /* SMART, security, write cache, HPA enabled */
	{ 86, 1, 0x0c00 },  /* 48-bit, DCO enabled */
	{ 87, 1, 0x0103 },  /* SMART error log, self-test, WWN enabled */
	{ 100, 4, 0xffff }, /* capacity, 48-bit */
	{ 106, 1, 0xf00f }, /* sector sizes */
	{ 108, 4, 0xffff }, /* WWN */
	{ 117, 2, 0xffff }, /* logical sector size */
	{ 119, 1, 0x0100 }, /* AMAC supported */
	{ 120, 1, 0x0100 }, /* AMAC enabled */
	{ 128, 1, 0x000f }, /* security state */
	{ 168, 1, 0x000f }, /* form factor */
	{ 217, 1, 0xffff }, /* rotation rate */
	{ 230, 4, 0xffff }, /* extended capacity */
};

static void blob_merge(const struct sim_drive *d, uint8_t *gen)
{
	const uint8_t *base = d->cfg.blob_base;
	uint8_t t[512];

	memcpy(t, d->cfg.bl.identify, sizeof(t));
	for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
		uint16_t m = owned[i].mask;
		unsigned w, end = owned[i].word + owned[i].n;
		bool changed = false;

		for (w = owned[i].word; w < end; w++)
			changed = changed || ((r16(gen, w) ^ r16(base, w)) & m);
		for (w = owned[i].word; changed && w < end; w++)
			w16(t, w, (uint16_t)((r16(t, w) & ~m) | (r16(gen, w) & m)));
	}
	memcpy(gen, t, sizeof(t));
}

int sim_ata_identify_cfg(const struct sim_config *c, uint8_t buf[512])
{
	struct sim_drive *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->cfg = *c;
	d->cfg.blob = false;
	sim_state_init(d);
	sim_ata_identify(d, buf);
	free(d);
	return 0;
}

void sim_ata_identify(const struct sim_drive *d, uint8_t b[512])
{
	const struct sim_config *c = &d->cfg;
	const struct sim_state *s = &d->st;
	uint64_t cap = sim_ata_accessible_max(d) + 1;
	bool modern = c->amac || c->zoned != SIM_ZONED_NONE;
	uint16_t w82, w83, w84, w85, w86, w87, w106, w128 = 0;
	unsigned exp = 0;

	memset(b, 0, 512);
	w16(b, 0, 0x0040); /* fixed device */
	w16(b, 1, 16383);  /* obsolete CHS: 16383/16/63 */
	w16(b, 2, 0xc837);
	w16(b, 3, 16);
	w16(b, 6, 63);
	wstr(b, 10, 10, c->serial);
	wstr(b, 23, 4, c->firmware);
	wstr(b, 27, 20, c->model);
	w16(b, 47, 0x8010); /* READ/WRITE MULTIPLE: 16 sectors */
	w16(b, 48, 0x4000);
	w16(b, 49, 0x2f00); /* LBA, DMA, IORDY, standby timer */
	w16(b, 50, 0x4000);
	w16(b, 53, 0x0007); /* words 64-70 and 88 valid */
	w16(b, 54, 16383);
	w16(b, 55, 16);
	w16(b, 56, 63);
	w16(b, 59, 0x0110);
	w16(b, 60, (uint16_t)(cap > 0x0fffffff ? 0xffff : cap));
	w16(b, 61, (uint16_t)(cap > 0x0fffffff ? 0x0fff : cap >> 16));
	w16(b, 63, 0x0007); /* multiword DMA 0-2 */
	w16(b, 64, 0x0003); /* PIO 3-4 */
	w16(b, 65, 120);
	w16(b, 66, 120);
	w16(b, 67, 120);
	w16(b, 68, 120);
	/* word 69: zoned capabilities 1:0 (host-aware 01b; host-managed is
	 * told by the signature), bit 3 extended number of user addressable
	 * sectors (words 230-233) */
	w16(b, 69,
	    (uint16_t)((c->zoned == SIM_ZONED_HOST_AWARE ? 0x0001 : 0) |
		       (c->amac || c->blob_ext_cap ? 0x0008 : 0)));
	/* NCQ with its queue depth (none at depth 1), SATA gen 1/2(/3), PHY
	 * events */
	w16(b, 75, (uint16_t)(c->queue_depth > 1 ? (c->queue_depth - 1) & 0x1f : 0));
	w16(b, 76,
	    (uint16_t)((modern ? 0x850e : 0x0506) & (c->queue_depth > 1 ? 0xffff : ~0x0100)));
	w16(b, 77, 0);
	w16(b, 78, 0x0044); /* SSP, DIPM */
	w16(b, 79, 0x0040);
	w16(b, 80, modern ? 0x0ff0 : 0x01f0); /* ATA-4..ATA8-ACS (..ACS-4) */
	w16(b, 81, 0);

	w82 = 0x4000 | 0x2000 | 0x1000 | 0x0040 | 0x0020 | 0x0008; /* NOP, buffers, look-ahead,
							      write cache, PM */
	if (sim_smart_supported(d))
		w82 |= 0x0001;
	if (c->sec)
		w82 |= 0x0002;
	if (c->hpa)
		w82 |= 0x0400;
	w83 = 0x4000 | 0x1000 | 0x0008; /* FLUSH CACHE, APM */
	if (c->lba48)
		w83 |= 0x2000 | 0x0400; /* FLUSH EXT, 48-bit */
	if (c->dco)
		w83 |= 0x0800;
	w84 = 0x4000 | 0x0020; /* GPL */
	if (c->has_wwn)
		w84 |= 0x0100;
	if (sim_smart_supported(d))
		w84 |= 0x0003; /* error log, self-test */
	w85 = (uint16_t)(w82 & ~0x0003 & ~0x0020);
	if (sim_smart_supported(d) && s->smart.enabled)
		w85 |= 0x0001;
	if (s->sec_enabled)
		w85 |= 0x0002;
	if (s->wce)
		w85 |= 0x0020;
	w86 = (uint16_t)((w83 & ~0x4000) | 0x8000); /* words 119-120 valid */
	w87 = w84;
	w16(b, 82, w82);
	w16(b, 83, w83);
	w16(b, 84, w84);
	w16(b, 85, w85);
	w16(b, 86, w86);
	w16(b, 87, w87);
	w16(b, 88, 0x407f); /* UDMA 0-6, mode 6 selected */
	if (c->sec) {
		w16(b, 89, 0x0050); /* security erase time */
		w16(b, 90, 0x0050);
		w16(b, 92, 0xfffe); /* master password id */
	}
	w16(b, 93, 0);
	if (c->lba48)
		w64(b, 100, cap);
	/* sector sizes */
	while ((c->lblock << exp) < c->pblock && exp < 15)
		exp++;
	w106 = 0x4000;
	if (exp)
		w106 |= 0x2000 | exp;
	if (c->lblock > 512)
		w106 |= 0x1000;
	w16(b, 106, w106);
	if (c->has_wwn) {
		/* words 108-111: the NAA name, most significant word first */
		w16(b, 108, (uint16_t)(c->wwn >> 48));
		w16(b, 109, (uint16_t)(c->wwn >> 32));
		w16(b, 110, (uint16_t)(c->wwn >> 16));
		w16(b, 111, (uint16_t)c->wwn);
	}
	if (c->lblock > 512) {
		w16(b, 117, (uint16_t)(c->lblock / 2));
		w16(b, 118, (uint16_t)(c->lblock / 2 >> 16));
	}
	w16(b, 119, (uint16_t)(0x4000 | (c->amac ? 0x0100 : 0)));
	w16(b, 120, (uint16_t)(0x4000 | (c->amac ? 0x0100 : 0)));
	if (c->sec) {
		w128 = 0x0001 | 0x0020; /* supported, enhanced erase */
		if (s->sec_enabled)
			w128 |= 0x0002;
		if (s->sec_locked)
			w128 |= 0x0004;
		if (s->sec_frozen)
			w128 |= 0x0008;
	}
	w16(b, 128, w128);
	w16(b, 168, c->form_factor & 0x0f);
	w16(b, 209, 0x4000); /* logical sector 0 is aligned */
	w16(b, 217, c->rpm);
	if (c->flash.on && c->flash.trim != SIM_TRIM_NONE) {
		/* DSM TRIM (169 bit 0), 8 pages of ranges a command (105), and
		 * deterministic read after TRIM (69 bit 14), zeros (bit 5) */
		w16(b, 169, 0x0001);
		w16(b, 105, 8);
		w16(b, 69,
		    (uint16_t)(r16(b, 69) | (c->flash.trim >= SIM_TRIM_DRAT ? 0x4000 : 0) |
			       (c->flash.trim == SIM_TRIM_RZAT ? 0x0020 : 0)));
	}
	w16(b, 222, 0x103f); /* SATA: ATA8-AST, SATA 1.0a .. 3.0 */
	if (c->amac || c->blob_ext_cap)
		w64(b, 230, cap);
	if (c->blob)
		blob_merge(d, b);
	checksum(b);
}

double sim_link_mbps(const struct sim_drive *d)
{
	uint8_t b[512];
	uint16_t w76;

	if (!d->cfg.sata)
		return 600; /* SAS-2, 6 Gb/s */
	sim_ata_identify(d, b);
	w76 = r16(b, 76);
	/* word 76: bit 3 Gen3 (6 Gb/s), bit 2 Gen2 (3 Gb/s), bit 1 Gen1 */
	if (w76 != 0xffff && (w76 & 0x0008))
		return 600;
	if (w76 != 0xffff && (w76 & 0x0004))
		return 300;
	return 150;
}

/* The DEVICE CONFIGURATION IDENTIFY data structure */
static void dco_identify(const struct sim_drive *d, uint8_t b[512])
{
	const struct sim_config *c = &d->cfg;
	uint16_t w7 = 0;

	memset(b, 0, 512);
	w16(b, 0, 0x0002);	       /* revision */
	w16(b, 1, 0x0007);	       /* multiword DMA modes */
	w16(b, 2, 0x007f);	       /* UDMA modes */
	w64(b, 3, c->dco_factory - 1); /* the maximum LBA DCO SET may configure */
	if (c->smart.supported)
		w7 |= 0x0007; /* SMART, self-test, error log */
	if (c->sec)
		w7 |= 0x0008;
	if (c->hpa)
		w7 |= 0x0080;
	if (c->lba48)
		w7 |= 0x0100;
	w16(b, 7, w7);
	w16(b, 8, 0x0001); /* NCQ */
	checksum(b);
}

static bool dco_checksum_ok(const uint8_t *b)
{
	return b[510] == 0xa5 && ata_checksum_ok(b);
}

/* ---- command execution ---- */

static void abrt(struct sim_ata *a, uint8_t error)
{
	a->r.status = ST_ERR;
	a->r.error = error;
}

void sim_ata_abrt(struct sim_ata *a, uint8_t error)
{
	abrt(a, error);
}

static bool data_in_ok(struct sim_ata *a, size_t need)
{
	uint8_t p = a->f.protocol;

	if (!a->f.t_dir || !(p == ATA_PROTO_PIO_IN || p == ATA_PROTO_DMA ||
			     p == ATA_PROTO_UDMA_IN || p == ATA_PROTO_FPDMA))
		return false;
	return a->sc->in && a->sc->in_len >= need;
}

bool sim_ata_data_in_ok(struct sim_ata *a, size_t need)
{
	return data_in_ok(a, need);
}

static bool data_out_ok(struct sim_ata *a, size_t need)
{
	uint8_t p = a->f.protocol;

	if (a->f.t_dir || !(p == ATA_PROTO_PIO_OUT || p == ATA_PROTO_DMA ||
			    p == ATA_PROTO_UDMA_OUT || p == ATA_PROTO_FPDMA))
		return false;
	return a->sc->out && a->sc->out_len >= need;
}

bool sim_ata_data_out_ok(struct sim_ata *a, size_t need)
{
	return data_out_ok(a, need);
}

/* The protocol does not fit the command: the SATL refuses the CDB. */
static void bad_protocol(struct sim_ata *a)
{
	sim_bad_cdb(a->sc, 1, 4);
}

static bool frozen_for_setmax(const struct sim_drive *d)
{
	return d->st.setmax_frozen || d->st.sec_frozen;
}

static void set_max(struct sim_ata *a, bool ext)
{
	struct sim_drive *d = a->sc->d;
	struct sim_state *s = &d->st;
	uint64_t lba = a->tf.lba & (ext ? 0xffffffffffffULL : 0x0fffffffULL);
	bool vv = a->tf.count & 0x01;

	if (!d->cfg.hpa || (ext && !d->cfg.lba48) || frozen_for_setmax(d) ||
	    a->prev_rnm != (ext ? SIM_RNM_48 : SIM_RNM_28) || (vv && s->nv_setmax_done) ||
	    lba > s->native_max) {
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (vv) {
		s->nv_max = lba;
		s->vol_active = false;
		s->nv_setmax_done = true;
	} else {
		s->vol_active = true;
		s->vol_max = lba;
	}
	d->dirty = true;
	a->r.lba = lba;
	if (!ext)
		a->r.device = (uint8_t)(0x40 | ((lba >> 24) & 0x0f));
}

static void read_native_max(struct sim_ata *a, bool ext)
{
	struct sim_drive *d = a->sc->d;
	uint64_t m = d->st.native_max;

	if (!d->cfg.hpa || (ext && !d->cfg.lba48)) {
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (!ext) {
		if (m > 0x0fffffff)
			m = 0x0fffffff;
		a->r.device = (uint8_t)(0x40 | ((m >> 24) & 0x0f));
	}
	a->r.lba = m;
	d->st.rnm = ext ? SIM_RNM_48 : SIM_RNM_28;
	d->dirty = true;
}

static void cmd_set_max_28(struct sim_ata *a)
{
	struct sim_drive *d = a->sc->d;

	switch (a->tf.feature & 0xff) {
	case 0x00:
		set_max(a, false);
		break;
	case 0x04: /* SET MAX FREEZE LOCK */
		if (!d->cfg.hpa) {
			abrt(a, ATA_ERR_ABRT);
			break;
		}
		d->st.setmax_frozen = true;
		d->dirty = true;
		break;
	default: /* SET MAX SET PASSWORD / LOCK / UNLOCK: not supported */
		abrt(a, ATA_ERR_ABRT);
		break;
	}
}

static void cmd_amac(struct sim_ata *a)
{
	struct sim_drive *d = a->sc->d;
	struct sim_state *s = &d->st;
	uint64_t lba = a->tf.lba;

	if (!d->cfg.amac) {
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	switch (a->tf.feature) {
	case 0x0000: /* GET NATIVE MAX ADDRESS EXT */
		a->r.lba = s->native_max;
		break;
	case 0x0001: /* SET ACCESSIBLE MAX ADDRESS EXT */
		if (s->amac_frozen || lba > s->native_max) {
			abrt(a, ATA_ERR_ABRT);
			break;
		}
		s->nv_max = lba;
		s->vol_active = false;
		d->dirty = true;
		break;
	case 0x0002: /* FREEZE ACCESSIBLE MAX ADDRESS EXT */
		s->amac_frozen = true;
		d->dirty = true;
		break;
	default:
		abrt(a, ATA_ERR_ABRT);
		break;
	}
}

static void cmd_dco(struct sim_ata *a)
{
	struct sim_cmd *sc = a->sc;
	struct sim_drive *d = sc->d;
	struct sim_state *s = &d->st;
	uint8_t buf[512];
	uint64_t max;

	if (!d->cfg.dco) {
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	switch (a->tf.feature & 0xff) {
	case DCO_IDENTIFY:
		if (!data_in_ok(a, 512)) {
			bad_protocol(a);
			return;
		}
		dco_identify(d, buf);
		sim_data_in(sc, buf, 512);
		break;
	case DCO_SET:
		if (!data_out_ok(a, 512)) {
			bad_protocol(a);
			return;
		}
		sc->moved = 512;
		max = sg_get_unaligned_le64(sc->out + 2 * 3);
		if (s->dco_frozen || hpa_in_effect(d) || !dco_checksum_ok(sc->out) ||
		    max >= d->cfg.dco_factory || max == 0) {
			abrt(a, ATA_ERR_ABRT);
			break;
		}
		s->native_max = max;
		s->nv_max = max;
		s->vol_active = false;
		d->dirty = true;
		break;
	case DCO_RESTORE:
		if (s->dco_frozen || hpa_in_effect(d)) {
			abrt(a, ATA_ERR_ABRT);
			break;
		}
		s->native_max = d->cfg.dco_factory - 1;
		s->nv_max = s->native_max;
		s->vol_active = false;
		d->dirty = true;
		break;
	case DCO_FREEZE:
		if (s->dco_frozen) {
			abrt(a, ATA_ERR_ABRT);
			break;
		}
		s->dco_frozen = true;
		d->dirty = true;
		break;
	default:
		abrt(a, ATA_ERR_ABRT);
		break;
	}
}

/* SET FEATURES: 02h enables the volatile write cache, 82h disables it
 * (what is cached is written first); a power cycle restores the default.
 * Other subcommands are not emulated. */
static void set_features(struct sim_ata *a)
{
	struct sim_drive *d = a->sc->d;
	uint8_t sub = (uint8_t)a->tf.feature;

	if (sub != SF_WCE_ON && sub != SF_WCE_OFF) {
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (sub == SF_WCE_OFF)
		a->sc->media_ns = sim_cache_flush_ns(d);
	if (d->st.wce != (sub == SF_WCE_ON)) {
		d->st.wce = sub == SF_WCE_ON;
		d->dirty = true;
	}
}

/* READ/WRITE (DMA|SECTORS) EXT, READ VERIFY SECTORS (EXT) */
static void cmd_rw(struct sim_ata *a, bool write, bool verify)
{
	struct sim_cmd *sc = a->sc;
	struct sim_drive *d = sc->d;
	uint64_t lba = a->tf.lba, n, bad, max = sim_ata_accessible_max(d);
	size_t bytes;

	if (a->tf.ext) {
		if (!d->cfg.lba48) {
			abrt(a, ATA_ERR_ABRT);
			return;
		}
		n = a->tf.count ? a->tf.count : 65536;
	} else {
		lba &= 0x0fffffff;
		n = (a->tf.count & 0xff) ? (a->tf.count & 0xff) : 256;
	}
	bytes = (size_t)(n * d->cfg.lblock);
	if (!verify && !(write ? data_out_ok(a, bytes) : data_in_ok(a, bytes))) {
		bad_protocol(a);
		return;
	}
	if (d->st.sec_locked) {
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (lba > max || n - 1 > max - lba) {
		abrt(a, ATA_ERR_IDNF);
		a->r.error = ATA_ERR_IDNF | ATA_ERR_ABRT;
		return;
	}
	if (write && sim_zone_write_check(d, lba, n)) {
		/* a host-managed zone written off its write pointer, or across
		 * a zone boundary: the ZAC device aborts the command */
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	sc->media_ns = sim_media_io_ns(d, lba, n, write, false);
	if (!write)
		sc->media_ns += sim_unit_read_ns(d, lba, n);
	if (!write && sim_medium_error(d, lba, n, &bad)) {
		if (!verify && bad > lba && !sim_media_read(sc, lba, bad - lba, sc->in))
			sc->moved = (size_t)((bad - lba) * d->cfg.lblock);
		abrt(a, ERR_UNC);
		a->r.lba = bad;
		if (!a->tf.ext)
			a->r.device = (uint8_t)(0x40 | ((bad >> 24) & 0x0f));
		sim_errlog_add(d, a->tf.command, ERR_UNC, bad);
		return;
	}
	if (verify)
		return;
	if (write ? sim_media_write(sc, lba, n, sc->out) : sim_media_read(sc, lba, n, sc->in)) {
		abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (write) {
		sim_zone_written(d, lba, n);
		sim_remap(d, lba, n, false);
	}
	sc->moved = bytes;
}

void sim_ata_exec(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;
	struct sim_ata a;
	uint8_t buf[512];

	memset(&a, 0, sizeof(a));
	a.sc = sc;
	if (sat_parse_ata_pt_fields(sc->c->cdb, sc->c->cdb_len, &a.tf, &a.f)) {
		sim_bad_cdb(sc, sc->c->cdb_len == 16 || sc->c->cdb[0] == 0x85 ? 1 : 0, -1);
		return;
	}
	if (a.f.t_length == 3 || a.f.protocol <= 1 || a.f.protocol == ATA_PROTO_DEV_RESET ||
	    a.f.protocol == ATA_PROTO_RETURN_RESP || a.f.protocol == ATA_PROTO_DEV_DIAG) {
		/* TPSIU lengths, resets, diagnostics, return response: not emulated */
		sim_bad_cdb(sc, a.f.t_length == 3 ? 2 : 1, -1);
		return;
	}
	a.prev_rnm = d->st.rnm;
	if (d->st.rnm != SIM_RNM_NONE) {
		d->st.rnm = SIM_RNM_NONE;
		d->dirty = true;
	}
	a.r.status = ST_OK;
	a.r.device = 0x40;
	a.r.ext = a.tf.ext;

	switch (a.tf.command) {
	case ATA_IDENTIFY:
		if (!data_in_ok(&a, 512)) {
			bad_protocol(&a);
			return;
		}
		sim_ata_identify(d, buf);
		sim_data_in(sc, buf, 512);
		break;
	case ATA_READ_NATIVE_MAX:
		read_native_max(&a, false);
		break;
	case ATA_READ_NATIVE_MAX_EXT:
		read_native_max(&a, true);
		break;
	case ATA_SET_MAX:
		cmd_set_max_28(&a);
		break;
	case ATA_SET_MAX_EXT:
		set_max(&a, true);
		break;
	case ATA_AMAC:
		cmd_amac(&a);
		break;
	case ATA_DCO:
		cmd_dco(&a);
		break;
	case ATA_SECURITY_FREEZE_LOCK:
		if (!d->cfg.sec || d->st.sec_locked) {
			abrt(&a, ATA_ERR_ABRT);
			break;
		}
		d->st.sec_frozen = true;
		d->dirty = true;
		break;
	case ATA_CHECK_POWER_MODE:
		a.r.count = 0xff; /* active or idle */
		break;
	case ATA_SMART:
		sim_ata_smart(&a);
		break;
	case ATA_READ_LOG_EXT:
	case ATA_READ_LOG_DMA_EXT:
		sim_ata_read_log_ext(&a);
		break;
	case ATA_ZAC_MGMT_IN:
		sim_ata_zac_in(&a);
		break;
	case 0x9f: /* ZAC MANAGEMENT OUT */
		sim_ata_zac_out(&a);
		break;
	case ATA_READ_DMA_EXT:
	case 0x24: /* READ SECTORS EXT */
	case 0xc8: /* READ DMA */
	case 0x20: /* READ SECTORS */
		cmd_rw(&a, false, false);
		break;
	case ATA_WRITE_DMA_EXT:
	case 0x34: /* WRITE SECTORS EXT */
	case 0xca: /* WRITE DMA */
	case 0x30: /* WRITE SECTORS */
		cmd_rw(&a, true, false);
		break;
	case ATA_READ_VERIFY_EXT:
	case 0x40: /* READ VERIFY SECTORS */
		cmd_rw(&a, false, true);
		break;
	case ATA_FLUSH_CACHE_EXT:
	case 0xe7: /* FLUSH CACHE */
		sc->media_ns = sim_cache_flush_ns(d);
		break;
	case ATA_SET_FEATURES:
		set_features(&a);
		break;
	case ATA_DSM:
		sim_ata_dsm(&a);
		break;
	case ATA_SET_SECTOR_CONFIG_EXT:
		sim_ata_set_sector_config(&a);
		break;
	case ATA_GET_PHYS_ELEM_STATUS:
	case ATA_REMOVE_ELEM_TRUNCATE:
	case ATA_RESTORE_ELEMS_REBUILD:
	case ATA_REMOVE_ELEM_ZONES:
		sim_ata_elem(&a);
		break;
	default:
		abrt(&a, ATA_ERR_ABRT);
		break;
	}
	if (sc->c->status != SCSI_STATUS_GOOD)
		return; /* the SATL itself refused the CDB */
	/* a bridge that ignores CK_COND: a command that went well comes back
	 * GOOD, its registers lost */
	if (!(a.r.status & ATA_STAT_ERR) && sim_fault_active(d, SIM_FAULT_DROP_REGISTERS))
		return;
	if ((a.r.status & ATA_STAT_ERR) || a.f.ck_cond) {
		sc->c->status = SCSI_STATUS_CHECK_CONDITION;
		memset(sc->c->sense, 0, sizeof(sc->c->sense));
		sc->c->sense_len = sat_build_ata_return_sense(sc->c->sense, sizeof(sc->c->sense),
							      sim_dsense(d), &a.r);
	}
}
