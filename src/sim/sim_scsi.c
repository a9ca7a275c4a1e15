/* sim_scsi.c - the SCSI command set of a simulated drive: what a SAS drive
 * answers, and what a SATL (libata, a SAS HBA) answers for a SATA drive.
 * Field layouts: SPC-4 / SBC-3 / SAT-3. */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/sense.h"
#include "shortstroke/elem.h"
#include "shortstroke/sector.h"
#include "sim/sim_priv.h"

#define OP_TUR 0x00
#define OP_REASSIGN 0x07
#define OP_READ_DEFECT10 0x37
#define OP_READ_DEFECT12 0xb7
#define OP_REQ_SENSE 0x03
#define OP_FORMAT 0x04
#define OP_SEND_DIAG 0x1d
#define OP_INQUIRY 0x12
#define OP_MSEL6 0x15
#define OP_MSENSE6 0x1a
#define OP_RC10 0x25
#define OP_READ10 0x28
#define OP_WRITE10 0x2a
#define OP_VERIFY10 0x2f
#define OP_SYNC10 0x35
#define OP_LOG_SENSE 0x4d
#define OP_MSEL10 0x55
#define OP_MSENSE10 0x5a
#define OP_ATA16 0x85
#define OP_READ16 0x88
#define OP_WRITE16 0x8a
#define OP_VERIFY16 0x8f
#define OP_SYNC16 0x91
#define OP_ZBC_OUT 0x94
#define OP_ZBC_IN 0x95
#define OP_SAI16 0x9e
#define OP_REPORT_LUNS 0xa0
#define OP_ATA12 0xa1
#define OP_WRITE_SAME10 0x41
#define OP_UNMAP 0x42
#define OP_WRITE_SAME16 0x93

/* Space-padded, not terminated */
static void put_text(uint8_t *p, const char *s, size_t n)
{
	size_t l = strlen(s);

	memset(p, ' ', n);
	memcpy(p, s, l < n ? l : n);
}

static bool is_zbc(const struct sim_drive *d)
{
	return d->cfg.zoned == SIM_ZONED_HOST_MANAGED;
}

static uint8_t pdt(const struct sim_drive *d)
{
	return is_zbc(d) ? 0x14 : 0x00;
}

static unsigned cdb_need(uint8_t op)
{
	switch (op >> 5) {
	case 0:
		return 6;
	case 1:
	case 2:
		return 10;
	case 4:
		return 16;
	case 5:
		return 12;
	default:
		return 6;
	}
}

static bool supported(const struct sim_drive *d, uint8_t op)
{
	switch (op) {
	case OP_TUR:
	case OP_REQ_SENSE:
	case OP_INQUIRY:
	case OP_MSEL6:
	case OP_MSENSE6:
	case OP_RC10:
	case OP_READ10:
	case OP_WRITE10:
	case OP_VERIFY10:
	case OP_SYNC10:
	case OP_MSEL10:
	case OP_MSENSE10:
	case OP_READ16:
	case OP_WRITE16:
	case OP_VERIFY16:
	case OP_SYNC16:
	case OP_SAI16:
	case OP_REPORT_LUNS:
		return true;
	case OP_FORMAT:
	case OP_SEND_DIAG:
	case OP_REASSIGN:
	case OP_READ_DEFECT10:
	case OP_READ_DEFECT12:
		return !d->cfg.sata;
	case OP_LOG_SENSE:
		return !d->cfg.sata && sim_smart_supported(d);
	case OP_ZBC_IN:
	case OP_ZBC_OUT:
		return d->cfg.zoned != SIM_ZONED_NONE;
	case OP_ATA16:
	case OP_ATA12:
		return d->cfg.sata;
	case OP_WRITE_SAME16:
		return true;
	case OP_WRITE_SAME10:
		return !d->cfg.sata; /* libata translates the 16-byte one only */
	case OP_UNMAP:
		return !d->cfg.sata && sim_flash_on(d) && d->cfg.flash.trim != SIM_TRIM_NONE &&
		       d->cfg.flash.unmap;
	default:
		return false;
	}
}

static void not_ready_formatting(struct sim_cmd *sc)
{
	struct sim_sense_x x = { .sks_valid = true };
	uint32_t p = sim_format_progress(sc->d, sc->now_ns);

	x.sks[1] = (uint8_t)(p >> 8);
	x.sks[2] = (uint8_t)p;
	sim_sense_x(sc, SK_NOT_READY, 0x04, 0x04, &x);
}

/* ---- INQUIRY ---- */

static void ata_serial20(const struct sim_drive *d, uint8_t *p)
{
	put_text(p, d->cfg.serial, 20);
}

static void inquiry_std(struct sim_cmd *sc, unsigned alloc)
{
	const struct sim_drive *d = sc->d;
	uint8_t b[96];
	const char *fw = d->cfg.firmware;

	memset(b, 0, sizeof(b));
	b[0] = pdt(d);
	b[4] = sizeof(b) - 5;
	if (d->cfg.sata) {
		/* as libata's SATL: vendor "ATA", product = model[0..15] */
		b[2] = is_zbc(d) ? 0x07 : 0x05;
		b[3] = 0x02;
		b[7] = 0x02;
		put_text(b + 8, "ATA", 8);
		put_text(b + 16, d->cfg.model, 16);
		/* revision: the last four characters of the 8-character firmware */
		if (strlen(fw) > 4 && fw[4] != ' ')
			put_text(b + 32, fw + 4, 4);
		else
			put_text(b + 32, fw, 4);
		sg_put_unaligned_be16(0x0060, b + 58); /* SAM-3 */
		sg_put_unaligned_be16(0x0300, b + 60); /* SPC-3 */
		sg_put_unaligned_be16(0x0320, b + 62); /* SBC-2 */
		sg_put_unaligned_be16(0x1ea0, b + 64); /* SAT-2 */
		if (is_zbc(d))
			sg_put_unaligned_be16(0x0600, b + 66); /* ZBC */
	} else {
		b[2] = 0x06; /* SPC-4 */
		b[3] = 0x12; /* HISUP, response data format 2 */
		b[6] = 0x10; /* MULTIP: dual-ported */
		b[7] = 0x02; /* CMDQUE */
		put_text(b + 8, d->cfg.vendor, 8);
		put_text(b + 16, d->cfg.model, 16);
		put_text(b + 32, d->cfg.firmware, 4);
		put_text(b + 36, d->cfg.serial, 20);
		sg_put_unaligned_be16(0x00a0, b + 58); /* SAM-5 */
		sg_put_unaligned_be16(0x0460, b + 60); /* SPC-4 */
		sg_put_unaligned_be16(0x04c0, b + 62); /* SBC-3 */
		sg_put_unaligned_be16(0x0c00, b + 64); /* SAS */
		if (is_zbc(d))
			sg_put_unaligned_be16(0x0600, b + 66); /* ZBC */
	}
	sim_data_in(sc, b, alloc < sizeof(b) ? alloc : sizeof(b));
}

static unsigned vpd_list(const struct sim_drive *d, uint8_t *pages)
{
	unsigned n = 0;

	pages[n++] = 0x00;
	pages[n++] = 0x80;
	pages[n++] = 0x83;
	if (d->cfg.sata)
		pages[n++] = 0x89;
	if (sim_flash_on(d))
		pages[n++] = 0xb0;
	pages[n++] = 0xb1;
	if (sim_flash_on(d))
		pages[n++] = 0xb2;
	if (d->cfg.nsizes && !d->cfg.sata)
		pages[n++] = VPD_BLOCK_LENGTHS;
	if (d->cfg.ranges.n > 1) /* a SAS drive's, or libata's from the ATA log */
		pages[n++] = VPD_CPR;
	return n;
}

static unsigned designator(uint8_t *p, uint8_t proto_codeset, uint8_t piv_assoc_type,
			   const void *val, unsigned len)
{
	p[0] = proto_codeset;
	p[1] = piv_assoc_type;
	p[2] = 0;
	p[3] = (uint8_t)len;
	memcpy(p + 4, val, len);
	return 4 + len;
}

static unsigned vpd_devid(const struct sim_drive *d, uint8_t *b)
{
	uint8_t v[80];
	unsigned n = 4;

	if (d->cfg.sata) {
		/* libata: unit serial (vendor specific, ASCII), T10 "ATA" + model +
		 * serial, then the NAA name from IDENTIFY words 108-111 */
		ata_serial20(d, v);
		n += designator(b + n, 0x02, 0x00, v, 20);
		put_text(v, "ATA", 8);
		put_text(v + 8, d->cfg.model, 40);
		put_text(v + 48, d->cfg.serial, 20);
		n += designator(b + n, 0x02, 0x01, v, 68);
		if (d->cfg.has_wwn) {
			sg_put_unaligned_be64(d->cfg.wwn, v);
			n += designator(b + n, 0x01, 0x03, v, 8);
		}
	} else {
		/* the logical unit's NAA name */
		sg_put_unaligned_be64(d->cfg.wwn, v);
		n += designator(b + n, 0x01, 0x03, v, 8);
		/* target port: SAS address (protocol 6, PIV, association 1, NAA) */
		sg_put_unaligned_be64(d->cfg.wwn + 1, v);
		n += designator(b + n, 0x61, 0x93, v, 8);
		/* relative target port identifier 1 */
		sg_put_unaligned_be32(1, v);
		n += designator(b + n, 0x61, 0x94, v, 4);
		/* target device name (association 2) */
		sg_put_unaligned_be64(d->cfg.wwn + 3, v);
		n += designator(b + n, 0x61, 0xa3, v, 8);
	}
	sg_put_unaligned_be16((uint16_t)(n - 4), b + 2);
	return n;
}

static void inquiry_vpd(struct sim_cmd *sc, uint8_t page, unsigned alloc)
{
	const struct sim_drive *d = sc->d;
	uint8_t b[600], pages[16];
	unsigned n, i, cnt;

	memset(b, 0, sizeof(b));
	b[0] = pdt(d);
	b[1] = page;
	switch (page) {
	case 0x00:
		cnt = vpd_list(d, pages);
		for (i = 0; i < cnt; i++)
			b[4 + i] = pages[i];
		b[3] = (uint8_t)cnt;
		n = 4 + cnt;
		break;
	case 0x80:
		if (d->cfg.sata) {
			ata_serial20(d, b + 4);
			b[3] = 20;
			n = 24;
		} else {
			i = (unsigned)strlen(d->cfg.serial);
			memcpy(b + 4, d->cfg.serial, i);
			b[3] = (uint8_t)i;
			n = 4 + i;
		}
		break;
	case 0x83:
		n = vpd_devid(d, b);
		break;
	case 0x89:
		if (!d->cfg.sata)
			goto bad;
		sg_put_unaligned_be16(0x238, b + 2);
		put_text(b + 8, "linux", 8);
		put_text(b + 16, "libata", 16);
		put_text(b + 32, "sim", 4);
		/* device signature: a Register D2H FIS */
		b[36] = 0x34;
		b[38] = 0x50; /* status */
		b[39] = 0x01; /* error */
		b[40] = 0x01; /* LBA 7:0 */
		if (is_zbc(d)) {
			b[41] = 0xcd; /* LBA 15:8 */
			b[42] = 0xab; /* LBA 23:16: the ZAC host-managed signature */
		}
		b[48] = 0x01; /* count */
		b[56] = 0xec; /* IDENTIFY DEVICE */
		sim_ata_identify(d, b + 60);
		n = 572;
		break;
	case 0xb0:
	case 0xb2:
		if (!sim_flash_on(d))
			goto bad;
		n = page == 0xb0 ? sim_flash_vpd_b0(d, b) : sim_flash_vpd_b2(d, b);
		break;
	case 0xb1:
		sg_put_unaligned_be16(0x3c, b + 2);
		sg_put_unaligned_be16(d->cfg.rpm, b + 4);
		b[7] = d->cfg.form_factor & 0x0f;
		if (d->cfg.zoned == SIM_ZONED_HOST_AWARE)
			b[8] = 0x10;
		n = 64;
		break;
	case VPD_CPR:
		n = d->cfg.ranges.n > 1 ? (unsigned)cpr_build_vpd(&d->cfg.ranges, b, sizeof(b)) : 0;
		if (!n)
			goto bad;
		b[0] = pdt(d);
		break;
	case VPD_BLOCK_LENGTHS:
		if (!d->cfg.nsizes || d->cfg.sata)
			goto bad;
		n = sim_sector_vpd_b7(d, b);
		break;
	default:
		goto bad;
	}
	sim_data_in(sc, b, alloc < n ? alloc : n);
	return;
bad:
	sim_bad_cdb(sc, 2, -1);
}

static void cmd_inquiry(struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb;
	unsigned alloc = sg_get_unaligned_be16(cdb + 3);

	if (cdb[1] & 0x02) {
		sim_bad_cdb(sc, 1, 1); /* CMDDT */
		return;
	}
	if (!(cdb[1] & 0x01)) {
		if (cdb[2]) {
			sim_bad_cdb(sc, 2, -1);
			return;
		}
		inquiry_std(sc, alloc);
		return;
	}
	inquiry_vpd(sc, cdb[2], alloc);
}

/* ---- small commands ---- */

static void cmd_request_sense(struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb;
	bool desc = cdb[1] & 0x01;
	struct sim_sense_x x = { 0 };
	uint8_t b[40];
	unsigned n;

	if (sim_elem_busy(sc->d)) {
		n = sim_elem_request_sense(sc->d, sc->now_ns, b, sizeof(b), desc);
	} else if (sc->d->st.fmt_active) {
		uint32_t p = sim_format_progress(sc->d, sc->now_ns);

		x.sks_valid = true;
		x.sks[1] = (uint8_t)(p >> 8);
		x.sks[2] = (uint8_t)p;
		n = sim_sense_build(b, sizeof(b), desc, SK_NOT_READY, 0x04, 0x04, &x);
	} else if (!sc->d->cfg.sata && sc->d->st.test.active) {
		/* a background self-test: NO SENSE, SELF-TEST IN PROGRESS, progress */
		uint32_t p = sim_selftest_progress(sc->d, sc->now_ns);

		x.sks_valid = true;
		x.sks[1] = (uint8_t)(p >> 8);
		x.sks[2] = (uint8_t)p;
		n = sim_sense_build(b, sizeof(b), desc, SK_NO_SENSE, 0x04, 0x09, &x);
	} else {
		n = sim_sense_build(b, sizeof(b), desc, SK_NO_SENSE, 0x00, 0x00, NULL);
	}
	sim_data_in(sc, b, cdb[4] < n ? cdb[4] : n);
}

static void cmd_report_luns(struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb;
	uint32_t alloc = sg_get_unaligned_be32(cdb + 6);
	uint8_t b[16];

	if (cdb[2] > 2) {
		sim_bad_cdb(sc, 2, -1);
		return;
	}
	if (alloc < 16) {
		sim_bad_cdb(sc, 6, -1);
		return;
	}
	memset(b, 0, sizeof(b));
	sg_put_unaligned_be32(8, b);
	sim_data_in(sc, b, sizeof(b));
}

static void cmd_read_capacity10(struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb;
	uint64_t last = sim_capacity(sc->d) - 1;
	uint8_t b[8];

	if (!(cdb[8] & 0x01) && sg_get_unaligned_be32(cdb + 2)) {
		sim_bad_cdb(sc, 2, -1);
		return;
	}
	sg_put_unaligned_be32(last > 0xfffffffeULL ? 0xffffffffU : (uint32_t)last, b);
	sg_put_unaligned_be32(sc->d->cfg.lblock, b + 4);
	sim_data_in(sc, b, sizeof(b));
}

static unsigned log2u(uint32_t v)
{
	unsigned n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

static void cmd_sai16(struct sim_cmd *sc)
{
	const struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	uint32_t alloc = sg_get_unaligned_be32(cdb + 10);
	uint8_t b[32];

	if ((cdb[1] & 0x1f) != 0x10) {
		sim_scsi_elem(sc); /* the storage element service actions */
		return;
	}
	memset(b, 0, sizeof(b));
	sg_put_unaligned_be64(sim_capacity(d) - 1, b);
	sg_put_unaligned_be32(d->cfg.lblock, b + 8);
	b[12] = 0x10; /* RC BASIS 01b: the capacity of the logical unit */
	b[13] = (uint8_t)(log2u(d->cfg.pblock / d->cfg.lblock) & 0x0f);
	b[14] = sim_flash_rc16_bits(d); /* LBPME, LBPRZ */
	sim_data_in(sc, b, alloc < sizeof(b) ? alloc : sizeof(b));
}

/* ---- mode pages ---- */

enum { PC_CUR = 0, PC_CHG = 1, PC_DEF = 2, PC_SAVED = 3 };

static unsigned page_codes(const struct sim_drive *d, uint8_t *codes)
{
	unsigned n = 0;

	codes[n++] = 0x01;
	if (!d->cfg.sata) {
		codes[n++] = 0x03;
		codes[n++] = 0x04;
	}
	codes[n++] = 0x08;
	codes[n++] = 0x0a;
	if (!d->cfg.sata && sim_notch_count(d))
		codes[n++] = 0x0c;
	if (!d->cfg.sata && sim_smart_supported(d))
		codes[n++] = 0x1c;
	return n;
}

static void geometry(const struct sim_drive *d, unsigned *heads, unsigned *spt, uint32_t *cyl)
{
	const struct sim_media *m = &d->cfg.media;
	double rps = d->cfg.rpm > 1 ? d->cfg.rpm / 60.0 : 120.0;
	double bytes = (m->outer_mbps + m->inner_mbps) / 2 * 1e6 / rps;
	uint64_t c;

	*heads = d->cfg.form_factor == 2 ? 8 : 4;
	*spt = (unsigned)(bytes / d->cfg.lblock);
	if (*spt < 1)
		*spt = 1;
	if (*spt > 0xffff)
		*spt = 0xffff;
	c = d->cfg.blocks / ((uint64_t)*heads * *spt) + 1;
	*cyl = c > 0xffffff ? 0xffffff : (uint32_t)c;
}

/* Build one page for a page control value; returns its length or 0. */
static unsigned build_page(const struct sim_drive *d, uint8_t code, int pc, uint8_t *p)
{
	const struct sim_state *s = &d->st;
	bool sas = !d->cfg.sata;
	bool wce, dsense;
	unsigned heads, spt, len;
	uint32_t cyl;

	switch (pc) {
	case PC_DEF:
		wce = d->cfg.write_cache;
		dsense = d->cfg.d_sense;
		break;
	case PC_SAVED:
		wce = s->saved_wce;
		dsense = s->saved_dsense;
		break;
	default:
		wce = s->wce;
		dsense = s->dsense;
		break;
	}
	switch (code) {
	case 0x01:
		len = 12;
		break;
	case 0x03:
	case 0x04:
		if (!sas)
			return 0;
		len = 24;
		break;
	case 0x08:
		len = 20;
		break;
	case 0x0a:
		len = 12;
		break;
	case 0x0c:
		if (!sas || !sim_notch_count(d))
			return 0;
		len = 24;
		break;
	case 0x1c:
		if (!sas || !sim_smart_supported(d))
			return 0;
		len = 12;
		break;
	default:
		return 0;
	}
	memset(p, 0, len);
	p[0] = code | (sas ? 0x80 : 0); /* PS: SAS drives save parameters */
	p[1] = (uint8_t)(len - 2);
	if (pc == PC_CHG) {
		if (code == 0x08 || code == 0x0a)
			p[2] = 0x04; /* WCE; D_SENSE */
		if (code == 0x0c)
			sg_put_unaligned_be16(0xffff, p + 6); /* ACTIVE NOTCH */
		if (code == 0x1c)
			p[2] = 0x08; /* DEXCPT */
		return len;
	}
	switch (code) {
	case 0x01:
		p[2] = 0xc0; /* AWRE, ARRE */
		if (sas) {
			p[3] = 0x1b; /* read retry count */
			p[8] = 0x18; /* write retry count */
		}
		break;
	case 0x03:
		geometry(d, &heads, &spt, &cyl);
		if (pc == PC_CUR && s->active_notch && sim_notch_count(d)) {
			uint64_t first, last;

			sim_notch_bounds(d, s->active_notch, &first, &last, &spt);
		}
		sg_put_unaligned_be16(1, p + 2); /* tracks per zone */
		sg_put_unaligned_be16((uint16_t)spt, p + 10);
		sg_put_unaligned_be16((uint16_t)d->cfg.lblock, p + 12);
		sg_put_unaligned_be16(1, p + 14); /* interleave */
		p[20] = 0x40;			  /* HSEC */
		break;
	case 0x04:
		geometry(d, &heads, &spt, &cyl);
		sg_put_unaligned_be24(cyl, p + 2);
		p[5] = (uint8_t)heads;
		sg_put_unaligned_be16(d->cfg.rpm > 1 ? d->cfg.rpm : 0, p + 20);
		break;
	case 0x08:
		p[2] = wce ? 0x04 : 0;
		sg_put_unaligned_be16(0xffff, p + 4);  /* disable pre-fetch transfer length */
		sg_put_unaligned_be16(0xffff, p + 8);  /* maximum pre-fetch */
		sg_put_unaligned_be16(0xffff, p + 10); /* maximum pre-fetch ceiling */
		p[13] = sas ? 0x10 : 0;		       /* cache segments */
		break;
	case 0x0a:
		p[2] = (dsense ? 0x04 : 0) | (sas ? 0x02 : 0); /* D_SENSE, GLTSD */
		p[3] = 0x10;				       /* unrestricted reordering */
		sg_put_unaligned_be16(0xffff, p + 8);	       /* busy timeout period */
		/* extended self-test completion time, seconds */
		if (sas) {
			uint64_t st = sim_selftest_seconds(d, SIM_ST_EXTENDED);

			sg_put_unaligned_be16(st > 0xffff ? 0xffff : (uint16_t)st, p + 10);
		} else {
			sg_put_unaligned_be16(30 * 60, p + 10);
		}
		break;
	case 0x0c: {
		uint16_t an = pc == PC_CUR ? s->active_notch : 0;
		uint64_t first, last;
		unsigned nspt;

		p[2] = 0xc0; /* ND, LPN */
		sg_put_unaligned_be16((uint16_t)sim_notch_count(d), p + 4);
		sg_put_unaligned_be16(an, p + 6);
		if (an) {
			sim_notch_bounds(d, an, &first, &last, &nspt);
		} else {
			first = 0;
			last = d->cfg.blocks - 1;
		}
		sg_put_unaligned_be32((uint32_t)first, p + 8);
		sg_put_unaligned_be32((uint32_t)last, p + 12);
		p[23] = 0x08; /* pages notched: 03h */
		break;
	}
	case 0x1c:
		p[2] = s->smart.enabled ? 0 : 0x08; /* DEXCPT */
		p[3] = 0x06;			    /* MRIE: report on request */
		break;
	default:
		break;
	}
	return len;
}

static void cmd_mode_sense(struct sim_cmd *sc, bool ten)
{
	const struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	bool dbd = cdb[1] & 0x08, llbaa = ten && (cdb[1] & 0x10);
	int pc = cdb[2] >> 6;
	uint8_t page = cdb[2] & 0x3f, sub = cdb[3];
	unsigned alloc = ten ? sg_get_unaligned_be16(cdb + 7) : cdb[4];
	unsigned hdr = ten ? 8 : 4, n, bdlen = 0, i, cnt;
	uint8_t b[512], codes[8];
	uint64_t blocks;

	if (pc == PC_SAVED && d->cfg.sata) {
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x39, 0x00); /* saving not supported */
		return;
	}
	if (sub && !(page == 0x3f && sub == 0xff)) {
		sim_bad_cdb(sc, 3, -1);
		return;
	}
	memset(b, 0, sizeof(b));
	n = hdr;
	if (!dbd) {
		switch (pc) {
		case PC_CHG:
			blocks = d->cfg.sata ? 0 : UINT64_MAX;
			break;
		case PC_DEF:
			blocks = d->cfg.sata ? sim_capacity(d) : sim_native_blocks(d);
			break;
		default:
			blocks = sim_capacity(d);
			break;
		}
		if (llbaa) {
			bdlen = 16;
			sg_put_unaligned_be64(blocks, b + n);
			if (pc != PC_CHG)
				sg_put_unaligned_be32(d->cfg.lblock, b + n + 12);
		} else {
			bdlen = 8;
			sg_put_unaligned_be32(
			    blocks > 0xffffffffULL ? 0xffffffffU : (uint32_t)blocks, b + n);
			if (pc != PC_CHG) {
				sg_put_unaligned_be24(d->cfg.lblock, b + n + 5);
			}
		}
		n += bdlen;
	}
	if (page == 0x3f) {
		cnt = page_codes(d, codes);
		for (i = 0; i < cnt; i++)
			n += build_page(d, codes[i], pc, b + n);
	} else {
		unsigned l = build_page(d, page, pc, b + n);

		if (!l) {
			sim_bad_cdb(sc, 2, 5);
			return;
		}
		n += l;
	}
	if (ten) {
		sg_put_unaligned_be16((uint16_t)(n - 2), b);
		b[3] = 0x10; /* DPOFUA */
		b[4] = llbaa && bdlen ? 0x01 : 0;
		sg_put_unaligned_be16((uint16_t)bdlen, b + 6);
	} else {
		b[0] = (uint8_t)(n - 1);
		b[2] = 0x10;
		b[3] = (uint8_t)bdlen;
	}
	sim_data_in(sc, b, alloc < n ? alloc : n);
}

static void param_len_error(struct sim_cmd *sc)
{
	sim_sense(sc, SK_ILLEGAL_REQUEST, 0x1a, 0x00);
}

static bool has_fault(const struct sim_drive *d, enum sim_fault_kind k)
{
	unsigned i;

	for (i = 0; i < d->st.nfaults; i++)
		if (d->st.faults[i].kind == k)
			return true;
	return false;
}

static void cmd_mode_select(struct sim_cmd *sc, bool ten)
{
	struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb, *p;
	bool pf = cdb[1] & 0x10, sp = cdb[1] & 0x01;
	unsigned plen = ten ? sg_get_unaligned_be16(cdb + 7) : cdb[4];
	unsigned hdr = ten ? 8 : 4, bdlen, off, i, len, clen;
	bool longlba, wce = d->st.wce, dsense = d->st.dsense, smart_on = d->st.smart.enabled;
	uint16_t notch = d->st.active_notch;
	uint64_t nb, new_blocks = 0;
	uint32_t bl, pending = 0;
	uint8_t cur[64], chg[64];

	if (d->cfg.sata && (!pf || sp)) {
		/* libata wants PF and cannot save */
		sim_bad_cdb(sc, 1, sp ? 0 : 4);
		return;
	}
	if (plen == 0 || has_fault(d, SIM_FAULT_DROP_MODE_SELECT))
		return; /* (a bridge that drops it takes no data: resid is all of it) */
	if (!sc->out || sc->out_len < plen || plen < hdr) {
		param_len_error(sc);
		return;
	}
	p = sc->out;
	sc->moved = plen;
	longlba = ten && (p[4] & 0x01);
	bdlen = ten ? sg_get_unaligned_be16(p + 6) : p[3];
	if (bdlen != 0 && bdlen != (longlba ? 16u : 8u)) {
		sim_bad_param(sc, ten ? 6 : 3);
		return;
	}
	if (hdr + bdlen > plen) {
		param_len_error(sc);
		return;
	}
	if (bdlen) {
		const uint8_t *b = p + hdr;
		bool ones;

		if (longlba) {
			nb = sg_get_unaligned_be64(b);
			bl = sg_get_unaligned_be32(b + 12);
			ones = nb == UINT64_MAX;
		} else {
			nb = sg_get_unaligned_be32(b);
			bl = sg_get_unaligned_be24(b + 5);
			ones = nb == 0xffffffffULL;
		}
		if (bl != d->cfg.lblock && (d->cfg.sata || !sim_sector_offered(d, bl))) {
			sim_bad_param(sc, hdr + (longlba ? 12 : 5));
			return;
		}
		/* A SATL ignores the block count (libata does); a SAS drive
		 * resizes: 0 keeps, all ones restores the native capacity. A new
		 * block length waits for the next FORMAT UNIT (sim_sector.c). */
		if (bl != d->cfg.lblock) {
			pending = bl;
		} else if (!d->cfg.sata) {
			if (ones) {
				new_blocks = sim_native_blocks(d);
			} else if (nb > sim_native_blocks(d)) {
				sim_bad_param(sc, hdr);
				return;
			} else {
				new_blocks = nb;
			}
		}
	}
	for (off = hdr + bdlen; off < plen; off += len) {
		uint8_t code;

		if (plen - off < 2) {
			param_len_error(sc);
			return;
		}
		code = p[off] & 0x3f;
		if (p[off] & 0x40) {
			sim_bad_param(sc, off);
			return;
		}
		len = p[off + 1] + 2u;
		if (off + len > plen) {
			param_len_error(sc);
			return;
		}
		clen = build_page(d, code, PC_CUR, cur);
		if (!clen) {
			sim_bad_param(sc, off);
			return;
		}
		if (len != clen) {
			sim_bad_param(sc, off + 1);
			return;
		}
		build_page(d, code, PC_CHG, chg);
		for (i = 2; i < len; i++) {
			if ((p[off + i] ^ cur[i]) & ~chg[i]) {
				sim_bad_param(sc, off + i);
				return;
			}
		}
		if (code == 0x08)
			wce = p[off + 2] & 0x04;
		if (code == 0x0a)
			dsense = p[off + 2] & 0x04;
		if (code == 0x0c) {
			notch = sg_get_unaligned_be16(p + off + 6);
			if (notch > sim_notch_count(d)) {
				sim_bad_param(sc, off + 6);
				return;
			}
		}
		if (code == 0x1c)
			smart_on = !(p[off + 2] & 0x08);
	}

	/* everything checked: apply (turning the write cache off writes what
	 * it holds first) */
	if (!wce && d->st.wce)
		sc->media_ns = sim_cache_flush_ns(d);
	if (wce != d->st.wce || dsense != d->st.dsense || notch != d->st.active_notch ||
	    smart_on != d->st.smart.enabled)
		d->dirty = true;
	d->st.active_notch = notch;
	d->st.smart.enabled = smart_on;
	d->st.wce = wce;
	d->st.dsense = dsense;
	if (sp && (d->st.saved_wce != wce || d->st.saved_dsense != dsense)) {
		d->st.saved_wce = wce;
		d->st.saved_dsense = dsense;
		d->dirty = true;
	}
	if (pending != d->st.pending_lblock && !has_fault(d, SIM_FAULT_IGNORE_MODE_SELECT)) {
		d->st.pending_lblock = pending;
		d->dirty = true;
	}
	if (new_blocks && new_blocks != d->st.scsi_blocks &&
	    !has_fault(d, SIM_FAULT_IGNORE_MODE_SELECT)) {
		d->st.scsi_blocks = new_blocks;
		d->dirty = true;
	}
}

/* ---- FORMAT UNIT ---- */

static void cmd_format(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;
	struct sim_state *s = &d->st;
	const uint8_t *cdb = sc->c->cdb, *p = sc->out;
	bool longlist = cdb[1] & 0x20, fmtdata = cdb[1] & 0x10, immed = false;
	unsigned hdr = longlist ? 8 : 4;
	uint64_t need, dur, at;
	unsigned i;

	if (cdb[1] >> 6) {
		sim_bad_cdb(sc, 1, 7); /* FMTPINFO: no protection information */
		return;
	}
	if (fmtdata) {
		if (!p || sc->out_len < hdr) {
			param_len_error(sc);
			return;
		}
		if (p[0] & 0x07) {
			sim_bad_param(sc, 0);
			return;
		}
		immed = p[1] & 0x02;
		need = hdr +
		       (longlist ? sg_get_unaligned_be32(p + 4) : sg_get_unaligned_be16(p + 2));
		if (p[1] & 0x08) { /* IP: an initialization pattern descriptor */
			if (sc->out_len < hdr + 4) {
				param_len_error(sc);
				return;
			}
			need += 4 + sg_get_unaligned_be16(p + hdr + 2);
		}
		if (sc->out_len < need) {
			param_len_error(sc);
			return;
		}
		sc->moved = (size_t)need;
	}
	s->fmt_blocks = s->scsi_blocks;
	sim_cache_drop(d); /* what was cached is formatted away */
	dur = sim_media_format_ns(d, s->fmt_blocks);
	if (cdb[4] & 0x03)
		dur = 2000000000ULL; /* FFMT: a fast format writes no medium */
	s->fmt_start_ns = sc->now_ns;
	s->fmt_end_ns = sc->now_ns + dur;
	s->fmt_active = true;
	d->dirty = true;
	if (immed)
		return;
	/* the command holds until the format is done (or the power goes) */
	for (i = 0; i < s->nfaults; i++) {
		if (s->faults[i].kind != SIM_FAULT_FORMAT_POWER_LOSS)
			continue;
		at = dur / 100 * s->faults[i].percent;
		sc->media_ns = at;
		s->lost_power = true;
		memmove(&s->faults[i], &s->faults[i + 1],
			(s->nfaults - i - 1) * sizeof(s->faults[0]));
		s->nfaults--;
		sc->rc = -ENODEV;
		return;
	}
	sc->media_ns = dur;
	s->fmt_active = false;
	s->fmt_corrupt = false;
	s->scsi_blocks = s->fmt_blocks;
	sim_store_wipe(d);
	sim_zones_reset_all(d);
	if (s->pending_lblock)
		sim_sector_apply(d, s->pending_lblock);
}

/* ---- media access ---- */

enum rw_kind { RW_READ, RW_WRITE, RW_VERIFY };

int sim_media_read(struct sim_cmd *sc, uint64_t lba, uint64_t n, uint8_t *dst)
{
	uint32_t lb = sc->d->cfg.lblock;

	if (sc->c->discard)
		return 0; /* the host does not want the data: nothing to copy */
	return sim_store_read(sc->d, lba * lb, dst, (size_t)(n * lb));
}

int sim_media_write(struct sim_cmd *sc, uint64_t lba, uint64_t n, const uint8_t *src)
{
	uint32_t lb = sc->d->cfg.lblock;

	return sim_store_write(sc->d, lba * lb, src, (size_t)(n * lb));
}

static void cmd_rw(struct sim_cmd *sc, enum rw_kind kind, bool sixteen)
{
	struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	uint64_t lba = sixteen ? sg_get_unaligned_be64(cdb + 2) : sg_get_unaligned_be32(cdb + 2);
	uint64_t n = sixteen ? sg_get_unaligned_be32(cdb + 10) : sg_get_unaligned_be16(cdb + 7);
	uint64_t cap = sim_capacity(d), bad, bytes;
	uint32_t lb = d->cfg.lblock;
	unsigned lenbyte = sixteen ? 10 : 7;
	int rc = 0;

	if (cdb[1] >> 5) {
		sim_bad_cdb(sc, 1, 7); /* RDPROTECT/WRPROTECT/VRPROTECT */
		return;
	}
	if (kind == RW_VERIFY && (cdb[1] & 0x06)) {
		sim_bad_cdb(sc, 1, 2); /* BYTCHK: compare not emulated */
		return;
	}
	if (lba > cap || n > cap - lba) {
		sim_sense(sc, SK_ILLEGAL_REQUEST, 0x21, 0x00);
		return;
	}
	if (d->st.fmt_corrupt) {
		sim_sense(sc, SK_MEDIUM_ERROR, 0x31, 0x00);
		return;
	}
	if (d->cfg.sata && d->st.sec_locked) {
		/* the ATA command aborts; the SATL reports ABORTED COMMAND */
		sim_sense(sc, SK_ABORTED_COMMAND, 0x00, 0x00);
		return;
	}
	if (n == 0)
		return;
	bytes = n * lb;
	if ((kind == RW_READ && (!sc->in || sc->in_len < bytes)) ||
	    (kind == RW_WRITE && (!sc->out || sc->out_len < bytes))) {
		sim_bad_cdb(sc, lenbyte, -1);
		return;
	}
	if (kind == RW_WRITE) {
		uint8_t zq = sim_zone_write_check(d, lba, n);

		if (zq) {
			/* UNALIGNED WRITE COMMAND / WRITE BOUNDARY VIOLATION */
			sim_sense(sc, SK_ILLEGAL_REQUEST, 0x21, zq);
			return;
		}
	}
	/* FUA (byte 1 bit 3) writes through the cache */
	sc->media_ns = sim_media_io_ns(d, lba, n, kind == RW_WRITE, cdb[1] & 0x08);
	if (kind != RW_WRITE)
		sc->media_ns += sim_unit_read_ns(d, lba, n);
	if (kind != RW_WRITE && sim_medium_error(d, lba, n, &bad)) {
		struct sim_sense_x x = { .info_valid = true, .info = bad };

		if (kind == RW_READ && bad > lba) {
			rc = sim_media_read(sc, lba, bad - lba, sc->in);
			if (!rc)
				sc->moved = (size_t)((bad - lba) * lb);
		}
		if (kind == RW_READ) {
			d->st.ctr.read_bytes += sc->moved;
			d->st.ctr.read_unc++;
		} else {
			d->st.ctr.verify_unc++;
		}
		if (d->cfg.sata) /* the SATL sent READ/VERIFY EXT; the drive logs it */
			sim_errlog_add(d, kind == RW_READ ? ATA_READ_DMA_EXT : ATA_READ_VERIFY_EXT,
				       0x40, bad);
		sim_sense_x(sc, SK_MEDIUM_ERROR, 0x11, 0x00, &x);
		return;
	}
	if (kind == RW_READ) {
		rc = sim_media_read(sc, lba, n, sc->in);
		if (!rc) {
			sc->moved = (size_t)bytes;
			d->st.ctr.read_bytes += bytes;
		}
	} else if (kind == RW_WRITE) {
		rc = sim_media_write(sc, lba, n, sc->out);
		if (!rc) {
			sc->moved = (size_t)bytes;
			d->st.ctr.write_bytes += bytes;
			sim_zone_written(d, lba, n);
			sim_remap(d, lba, n, false);
		}
	} else {
		d->st.ctr.verify_bytes += bytes;
	}
	if (rc) {
		sc->moved = 0;
		sim_sense(sc, SK_HARDWARE_ERROR, 0x44, 0x00);
	}
}

static void cmd_sync(struct sim_cmd *sc)
{
	sc->media_ns = sim_cache_flush_ns(sc->d);
}

/* ---- dispatch ---- */

static bool reaches_ata(uint8_t op)
{
	switch (op) {
	case OP_READ10:
	case OP_WRITE10:
	case OP_VERIFY10:
	case OP_SYNC10:
	case OP_READ16:
	case OP_WRITE16:
	case OP_VERIFY16:
	case OP_SYNC16:
	case OP_WRITE_SAME16:
		return true;
	default:
		return false;
	}
}

/* What a drive removing or restoring elements still answers: what tells
 * who it is, its capacity and its state (the ATA commands of the same). */
static bool answers_while_depop(const struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb;

	switch (cdb[0]) {
	case OP_INQUIRY:
	case OP_REQ_SENSE:
	case OP_REPORT_LUNS:
	case OP_RC10:
	case OP_SAI16:
	case OP_MSENSE6:
	case OP_MSENSE10:
	case OP_LOG_SENSE:
		return (cdb[0] != OP_SAI16 || (cdb[1] & 0x1f) == 0x10 ||
			(cdb[1] & 0x1f) == SCSI_SAI_GET_ELEM_STATUS);
	case OP_ATA16:
		return sc->c->cdb_len >= 15 &&
		       (cdb[14] == ATA_IDENTIFY || cdb[14] == ATA_READ_LOG_EXT ||
			cdb[14] == ATA_READ_LOG_DMA_EXT || cdb[14] == ATA_GET_PHYS_ELEM_STATUS ||
			cdb[14] == ATA_READ_NATIVE_MAX_EXT || cdb[14] == ATA_AMAC ||
			cdb[14] == ATA_SMART || cdb[14] == ATA_CHECK_POWER_MODE);
	default:
		return false;
	}
}

void sim_scsi_exec(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;
	uint8_t op = sc->c->cdb[0];

	if (!supported(d, op)) {
		sim_bad_opcode(sc);
		return;
	}
	if (sc->c->cdb_len < cdb_need(op)) {
		sim_bad_cdb(sc, sc->c->cdb_len, -1);
		return;
	}
	if (d->st.fmt_active && op != OP_INQUIRY && op != OP_REQ_SENSE && op != OP_REPORT_LUNS) {
		not_ready_formatting(sc);
		return;
	}
	if (sim_elem_busy(d) && !answers_while_depop(sc)) {
		sim_elem_not_ready(sc);
		return;
	}
	/* a translated command reaches the ATA device: the READ NATIVE MAX /
	 * SET MAX sequence is broken */
	if (d->cfg.sata && reaches_ata(op) && d->st.rnm != SIM_RNM_NONE) {
		d->st.rnm = SIM_RNM_NONE;
		d->dirty = true;
	}
	switch (op) {
	case OP_TUR:
		/* after an interrupted format the drive is not ready until a
		 * new format completes */
		if (d->st.fmt_corrupt)
			sim_sense(sc, SK_NOT_READY, 0x31, 0x00);
		break;
	case OP_REQ_SENSE:
		cmd_request_sense(sc);
		break;
	case OP_FORMAT:
		cmd_format(sc);
		break;
	case OP_INQUIRY:
		cmd_inquiry(sc);
		break;
	case OP_MSEL6:
		cmd_mode_select(sc, false);
		break;
	case OP_MSEL10:
		cmd_mode_select(sc, true);
		break;
	case OP_MSENSE6:
		cmd_mode_sense(sc, false);
		break;
	case OP_MSENSE10:
		cmd_mode_sense(sc, true);
		break;
	case OP_RC10:
		cmd_read_capacity10(sc);
		break;
	case OP_SAI16:
		cmd_sai16(sc);
		break;
	case OP_READ10:
		cmd_rw(sc, RW_READ, false);
		break;
	case OP_READ16:
		cmd_rw(sc, RW_READ, true);
		break;
	case OP_WRITE10:
		cmd_rw(sc, RW_WRITE, false);
		break;
	case OP_WRITE16:
		cmd_rw(sc, RW_WRITE, true);
		break;
	case OP_VERIFY10:
		cmd_rw(sc, RW_VERIFY, false);
		break;
	case OP_VERIFY16:
		cmd_rw(sc, RW_VERIFY, true);
		break;
	case OP_SYNC10:
	case OP_SYNC16:
		cmd_sync(sc);
		break;
	case OP_REPORT_LUNS:
		cmd_report_luns(sc);
		break;
	case OP_ATA16:
	case OP_ATA12:
		sim_ata_exec(sc);
		break;
	case OP_LOG_SENSE:
		sim_scsi_log_sense(sc);
		break;
	case OP_SEND_DIAG:
		sim_scsi_send_diag(sc);
		break;
	case OP_REASSIGN:
		sim_scsi_reassign(sc);
		break;
	case OP_READ_DEFECT10:
		sim_scsi_read_defect(sc, false);
		break;
	case OP_READ_DEFECT12:
		sim_scsi_read_defect(sc, true);
		break;
	case OP_ZBC_IN:
		sim_scsi_zbc_in(sc);
		break;
	case OP_ZBC_OUT:
		sim_scsi_zbc_out(sc);
		break;
	case OP_UNMAP:
		sim_scsi_unmap(sc);
		break;
	case OP_WRITE_SAME10:
		sim_scsi_write_same(sc, false);
		break;
	case OP_WRITE_SAME16:
		sim_scsi_write_same(sc, true);
		break;
	default:
		sim_bad_opcode(sc);
		break;
	}
}
