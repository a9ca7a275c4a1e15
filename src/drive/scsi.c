/*
 * scsi.c - SCSI command builders (pure: they fill a CDB and nothing else)
 * and parsers of the answers (SPC-4, SBC-3/4, ZBC). Parsers check every
 * length against the buffer they are given and never read past it.
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/scsi.h"

static void text_copy(const uint8_t *src, size_t n, char *out, size_t outlen);
static void hex_copy(const uint8_t *src, size_t n, char *out, size_t outlen);
static int vpd_header(const uint8_t *buf, size_t len, uint8_t page, size_t *plen);
static int devid_rank(uint8_t code_set, uint8_t type, const uint8_t *d, size_t dlen);
unsigned scsi_build_read_defect10(uint8_t cdb[10], bool plist, bool glist, uint8_t format,
				  uint16_t alloc)
{
	memset(cdb, 0, 10);
	cdb[0] = SCSI_READ_DEFECT10;
	cdb[2] = (uint8_t)((plist ? 0x10 : 0) | (glist ? 0x08 : 0) | (format & 0x07));
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

unsigned scsi_build_read_defect12(uint8_t cdb[12], bool plist, bool glist, uint8_t format,
				  uint32_t index, uint32_t alloc)
{
	memset(cdb, 0, 12);
	cdb[0] = SCSI_READ_DEFECT12;
	cdb[1] = (uint8_t)((plist ? 0x10 : 0) | (glist ? 0x08 : 0) | (format & 0x07));
	sg_put_unaligned_be32(index, cdb + 2);
	sg_put_unaligned_be32(alloc, cdb + 6);
	return 12;
}

/* Bytes per descriptor of a defect list format, 0 for vendor/reserved. */
static unsigned scsi_defect_desc_len(uint8_t format)
{
	switch (format) {
	case SCSI_DEFECT_SHORT_BLOCK:
		return 4;
	case SCSI_DEFECT_EXT_BYTES_INDEX:
	case SCSI_DEFECT_EXT_PHYS_SECTOR:
	case SCSI_DEFECT_LONG_BLOCK:
	case SCSI_DEFECT_BYTES_FROM_INDEX:
	case SCSI_DEFECT_PHYS_SECTOR:
		return 8;
	default:
		return 0;
	}
}

int scsi_parse_defect_header(const uint8_t *buf, size_t len, bool twelve,
			     struct scsi_defect_list *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < (twelve ? 8u : 4u))
		return -EPROTO;
	out->plist = buf[1] & 0x10;
	out->glist = buf[1] & 0x08;
	out->format = buf[1] & 0x07;
	if (twelve) {
		out->generation = sg_get_unaligned_be16(buf + 2);
		out->length = sg_get_unaligned_be32(buf + 4);
	} else {
		out->length = sg_get_unaligned_be16(buf + 2);
	}
	out->desc_len = scsi_defect_desc_len(out->format);
	out->count_known = out->desc_len != 0;
	out->count = out->desc_len ? out->length / out->desc_len : 0;
	return 0;
}

unsigned scsi_build_reassign_blocks(uint8_t cdb[6])
{
	memset(cdb, 0, 6);
	cdb[0] = SCSI_REASSIGN_BLOCKS;
	cdb[1] = 0x03; /* LONGLBA, LONGLIST */
	return 6;
}

size_t scsi_build_reassign_list(const uint64_t *lba, unsigned n, uint8_t *out, size_t out_max)
{
	size_t need = 4 + 8 * (size_t)n;

	if (need > out_max || 8 * (uint64_t)n > UINT32_MAX)
		return 0;
	sg_put_unaligned_be32((uint32_t)(8 * n), out);
	for (unsigned i = 0; i < n; i++)
		sg_put_unaligned_be64(lba[i], out + 4 + 8 * (size_t)i);
	return need;
}

static unsigned build_rw10(uint8_t cdb[10], uint8_t op, uint32_t lba, uint16_t blocks, bool fua);
static unsigned build_rw16(uint8_t cdb[16], uint8_t op, uint64_t lba, uint32_t blocks, bool fua);

/*
 * Copy n bytes of device text into out: leading and trailing spaces and
 * NULs dropped, other non-printable bytes turned into '?', always NUL
 * terminated (truncated to outlen - 1).
 */
static void text_copy(const uint8_t *src, size_t n, char *out, size_t outlen)
{
	size_t start = 0, end = n, i, o = 0;

	if (!outlen)
		return;
	while (start < end && (src[start] == ' ' || src[start] == '\0'))
		start++;
	while (end > start && (src[end - 1] == ' ' || src[end - 1] == '\0'))
		end--;
	for (i = start; i < end && o + 1 < outlen; i++)
		out[o++] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
	out[o] = '\0';
}

/* ---- builders ---------------------------------------------------------- */

unsigned scsi_build_test_unit_ready(uint8_t cdb[6])
{
	memset(cdb, 0, 6);
	cdb[0] = SCSI_TEST_UNIT_READY;
	return 6;
}

unsigned scsi_build_request_sense(uint8_t cdb[6], bool desc, uint8_t alloc)
{
	memset(cdb, 0, 6);
	cdb[0] = SCSI_REQUEST_SENSE;
	cdb[1] = desc ? 0x01 : 0x00;
	cdb[4] = alloc;
	return 6;
}

unsigned scsi_build_inquiry(uint8_t cdb[6], bool evpd, uint8_t page, uint16_t alloc)
{
	memset(cdb, 0, 6);
	cdb[0] = SCSI_INQUIRY;
	cdb[1] = evpd ? 0x01 : 0x00;
	cdb[2] = evpd ? page : 0;
	sg_put_unaligned_be16(alloc, cdb + 3);
	return 6;
}

unsigned scsi_build_read_capacity10(uint8_t cdb[10])
{
	memset(cdb, 0, 10);
	cdb[0] = SCSI_READ_CAPACITY10;
	return 10;
}

unsigned scsi_build_read_capacity16(uint8_t cdb[16], uint32_t alloc)
{
	memset(cdb, 0, 16);
	cdb[0] = SCSI_SERVICE_ACTION_IN16;
	cdb[1] = SCSI_SAI_READ_CAPACITY16;
	sg_put_unaligned_be32(alloc, cdb + 10);
	return 16;
}

unsigned scsi_build_mode_sense10(uint8_t cdb[10], bool llbaa, bool dbd, uint8_t pc, uint8_t page,
				 uint8_t subpage, uint16_t alloc)
{
	memset(cdb, 0, 10);
	cdb[0] = SCSI_MODE_SENSE10;
	cdb[1] = (uint8_t)((llbaa ? 0x10 : 0) | (dbd ? 0x08 : 0));
	cdb[2] = (uint8_t)(((pc & 0x3) << 6) | (page & 0x3f));
	cdb[3] = subpage;
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

unsigned scsi_build_mode_select10(uint8_t cdb[10], bool pf, bool sp, uint16_t param_len)
{
	memset(cdb, 0, 10);
	cdb[0] = SCSI_MODE_SELECT10;
	cdb[1] = (uint8_t)((pf ? 0x10 : 0) | (sp ? 0x01 : 0));
	sg_put_unaligned_be16(param_len, cdb + 7);
	return 10;
}

unsigned scsi_build_format_unit(uint8_t cdb[6], uint8_t fmtpinfo, bool fmtdata, bool cmplst,
				uint8_t dlf)
{
	memset(cdb, 0, 6);
	cdb[0] = SCSI_FORMAT_UNIT;
	cdb[1] = (uint8_t)(((fmtpinfo & 0x3) << 6) | (fmtdata ? 0x10 : 0) | (cmplst ? 0x08 : 0) |
			   (dlf & 0x7));
	return 6;
}

unsigned scsi_build_format_param_header(uint8_t buf[4], bool immed)
{
	memset(buf, 0, 4);
	buf[1] = immed ? 0x02 : 0x00;
	return 4;
}

unsigned scsi_build_log_sense(uint8_t cdb[10], bool sp, uint8_t pc, uint8_t page, uint8_t subpage,
			      uint16_t param_ptr, uint16_t alloc)
{
	memset(cdb, 0, 10);
	cdb[0] = SCSI_LOG_SENSE;
	cdb[1] = sp ? 0x01 : 0x00;
	cdb[2] = (uint8_t)(((pc & 0x3) << 6) | (page & 0x3f));
	cdb[3] = subpage;
	sg_put_unaligned_be16(param_ptr, cdb + 5);
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

unsigned scsi_build_send_diagnostic(uint8_t cdb[6], uint8_t self_test_code, bool pf, bool selftest,
				    uint16_t param_len)
{
	memset(cdb, 0, 6);
	cdb[0] = SCSI_SEND_DIAGNOSTIC;
	cdb[1] = (uint8_t)(((self_test_code & 0x7) << 5) | (pf ? 0x10 : 0) | (selftest ? 0x04 : 0));
	sg_put_unaligned_be16(param_len, cdb + 3);
	return 6;
}

static unsigned build_rw10(uint8_t cdb[10], uint8_t op, uint32_t lba, uint16_t blocks, bool fua)
{
	memset(cdb, 0, 10);
	cdb[0] = op;
	cdb[1] = fua ? 0x08 : 0x00;
	sg_put_unaligned_be32(lba, cdb + 2);
	sg_put_unaligned_be16(blocks, cdb + 7);
	return 10;
}

static unsigned build_rw16(uint8_t cdb[16], uint8_t op, uint64_t lba, uint32_t blocks, bool fua)
{
	memset(cdb, 0, 16);
	cdb[0] = op;
	cdb[1] = fua ? 0x08 : 0x00;
	sg_put_unaligned_be64(lba, cdb + 2);
	sg_put_unaligned_be32(blocks, cdb + 10);
	return 16;
}

unsigned scsi_build_read10(uint8_t cdb[10], uint32_t lba, uint16_t blocks, bool fua)
{
	return build_rw10(cdb, SCSI_READ10, lba, blocks, fua);
}

unsigned scsi_build_write10(uint8_t cdb[10], uint32_t lba, uint16_t blocks, bool fua)
{
	return build_rw10(cdb, SCSI_WRITE10, lba, blocks, fua);
}

unsigned scsi_build_read16(uint8_t cdb[16], uint64_t lba, uint32_t blocks, bool fua)
{
	return build_rw16(cdb, SCSI_READ16, lba, blocks, fua);
}

unsigned scsi_build_write16(uint8_t cdb[16], uint64_t lba, uint32_t blocks, bool fua)
{
	return build_rw16(cdb, SCSI_WRITE16, lba, blocks, fua);
}

unsigned scsi_build_sync_cache10(uint8_t cdb[10])
{
	memset(cdb, 0, 10);
	cdb[0] = SCSI_SYNC_CACHE10;
	return 10;
}

unsigned scsi_build_report_zones(uint8_t cdb[16], uint64_t start_lba, uint32_t alloc,
				 uint8_t options, bool partial)
{
	memset(cdb, 0, 16);
	cdb[0] = SCSI_ZBC_IN;
	cdb[1] = SCSI_ZBC_IN_REPORT_ZONES;
	sg_put_unaligned_be64(start_lba, cdb + 2);
	sg_put_unaligned_be32(alloc, cdb + 10);
	cdb[14] = (uint8_t)((partial ? 0x80 : 0) | (options & 0x3f));
	return 16;
}

/* ---- parsers ----------------------------------------------------------- */

int scsi_parse_inquiry(const uint8_t *buf, size_t len, struct scsi_inquiry *out)
{
	memset(out, 0, sizeof(*out));
	/* SPC: standard INQUIRY data is at least 36 bytes. */
	if (!buf || len < 36)
		return -EPROTO;
	out->qualifier = buf[0] >> 5;
	out->pdt = buf[0] & 0x1f;
	out->removable = buf[1] & 0x80;
	out->version = buf[2];
	text_copy(buf + 8, 8, out->vendor, sizeof(out->vendor));
	text_copy(buf + 16, 16, out->product, sizeof(out->product));
	text_copy(buf + 32, 4, out->revision, sizeof(out->revision));
	return 0;
}

/* Check a VPD page header: the page code, and a page length that fits. */
static int vpd_header(const uint8_t *buf, size_t len, uint8_t page, size_t *plen)
{
	if (!buf || len < 4)
		return -EPROTO;
	if (buf[1] != page)
		return -EPROTO;
	*plen = sg_get_unaligned_be16(buf + 2);
	if (4 + *plen > len)
		return -EPROTO;
	return 0;
}

int scsi_parse_vpd_supported(const uint8_t *buf, size_t len, uint8_t *pages, unsigned max,
			     unsigned *count)
{
	size_t plen, i;
	int rc;

	*count = 0;
	rc = vpd_header(buf, len, VPD_SUPPORTED, &plen);
	if (rc)
		return rc;
	for (i = 0; i < plen && *count < max; i++)
		pages[(*count)++] = buf[4 + i];
	return 0;
}

int scsi_parse_vpd_serial(const uint8_t *buf, size_t len, char *serial, size_t max)
{
	size_t plen;
	int rc;

	if (!max)
		return -ENOSPC;
	serial[0] = '\0';
	rc = vpd_header(buf, len, VPD_UNIT_SERIAL, &plen);
	if (rc)
		return rc;
	text_copy(buf + 4, plen, serial, max);
	return 0;
}

static void hex_copy(const uint8_t *src, size_t n, char *out, size_t outlen)
{
	static const char digits[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < n && o + 2 < outlen; i++) {
		out[o++] = digits[src[i] >> 4];
		out[o++] = digits[src[i] & 0xf];
	}
	out[o] = '\0';
}

/* Rank of a logical-unit designator: higher is better, 0 unusable. */
static int devid_rank(uint8_t code_set, uint8_t type, const uint8_t *d, size_t dlen)
{
	switch (type) {
	case 3: /* NAA: binary; IEEE Registered Extended (6) beats the rest */
		if (code_set != 1 || !dlen)
			return 0;
		return (d[0] >> 4) == 6 ? 6 : 5;
	case 2: /* EUI-64 based: binary */
		return code_set == 1 && dlen ? 4 : 0;
	case 8: /* SCSI name string: UTF-8 */
		return code_set == 3 && dlen ? 3 : 0;
	default:
		return 0;
	}
}

int scsi_parse_vpd_devid(const uint8_t *buf, size_t len, struct scsi_devid *out)
{
	size_t plen, off, dlen;
	int rc, best = 0, rank;

	memset(out, 0, sizeof(*out));
	rc = vpd_header(buf, len, VPD_DEVICE_ID, &plen);
	if (rc)
		return rc;
	for (off = 4; off < 4 + plen; off += 4 + dlen) {
		const uint8_t *h = buf + off, *d = buf + off + 4;
		uint8_t proto, code_set, piv, assoc, type;

		if (off + 4 > 4 + plen)
			return -EPROTO;
		dlen = h[3];
		if (off + 4 + dlen > 4 + plen)
			return -EPROTO;
		proto = h[0] >> 4;
		code_set = h[0] & 0x0f;
		piv = h[1] & 0x80;
		assoc = (h[1] >> 4) & 0x3;
		type = h[1] & 0x0f;

		if (piv && assoc == 1 && proto == 6) {
			out->has_sas_port = true;
			if (type == 3 && dlen == 8 && !out->sas_port)
				out->sas_port = sg_get_unaligned_be64(d);
		}
		if (assoc == 0 && type == 1 && dlen >= 3 && !memcmp(d, "ATA", 3) &&
		    (dlen == 3 || d[3] == ' '))
			out->has_ata_info = true;
		if (assoc != 0)
			continue;
		rank = devid_rank(code_set, type, d, dlen);
		if (rank <= best)
			continue;
		best = rank;
		out->lu_id_type = type;
		if (type == 8)
			text_copy(d, dlen, out->lu_id, sizeof(out->lu_id));
		else
			hex_copy(d, dlen, out->lu_id, sizeof(out->lu_id));
	}
	return 0;
}

int scsi_parse_vpd_bdc(const uint8_t *buf, size_t len, struct scsi_bdc *out)
{
	size_t plen;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = vpd_header(buf, len, VPD_BLOCK_CHARS, &plen);
	if (rc)
		return rc;
	/* rotation rate (4-5) and form factor (7) at least */
	if (plen < 4)
		return -EPROTO;
	out->rotation_rate = sg_get_unaligned_be16(buf + 4);
	out->form_factor = buf[7] & 0x0f;
	if (plen >= 5)
		out->zoned = (buf[8] >> 4) & 0x3;
	return 0;
}

int scsi_parse_read_capacity10(const uint8_t *buf, size_t len, struct scsi_capacity *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < 8)
		return -EPROTO;
	out->last_lba = sg_get_unaligned_be32(buf);
	out->block_len = sg_get_unaligned_be32(buf + 4);
	if (!out->block_len)
		return -EPROTO;
	out->blocks = out->last_lba + 1;
	return 0;
}

int scsi_parse_read_capacity16(const uint8_t *buf, size_t len, struct scsi_capacity *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < 16)
		return -EPROTO;
	out->last_lba = sg_get_unaligned_be64(buf);
	out->block_len = sg_get_unaligned_be32(buf + 8);
	if (!out->block_len || out->last_lba == UINT64_MAX)
		return -EPROTO;
	out->blocks = out->last_lba + 1;
	out->rc_basis = (buf[12] >> 4) & 0x3;
	out->prot_en = buf[12] & 0x01;
	out->phys_exp = buf[13] & 0x0f;
	out->lowest_aligned = sg_get_unaligned_be16(buf + 14) & 0x3fff;
	out->lbpme = buf[14] & 0x80;
	out->lbprz = buf[14] & 0x40;
	return 0;
}

int scsi_parse_vpd_block_limits(const uint8_t *buf, size_t len, struct scsi_block_limits *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < 4 || buf[1] != 0xb0)
		return -EPROTO;
	if (len > 4 + (size_t)sg_get_unaligned_be16(buf + 2))
		len = 4 + (size_t)sg_get_unaligned_be16(buf + 2);
	if (len >= 32) {
		out->max_unmap_lba = sg_get_unaligned_be32(buf + 20);
		out->max_unmap_descs = sg_get_unaligned_be32(buf + 24);
		out->unmap_granularity = sg_get_unaligned_be32(buf + 28);
	}
	if (len >= 44)
		out->max_write_same = sg_get_unaligned_be64(buf + 36);
	return 0;
}

int scsi_parse_vpd_lbp(const uint8_t *buf, size_t len, struct scsi_lbp *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < 8 || buf[1] != 0xb2)
		return -EPROTO;
	out->lbpu = buf[5] & 0x80;
	out->lbpws = buf[5] & 0x40;
	out->lbpws10 = buf[5] & 0x20;
	out->lbprz = (buf[5] >> 2) & 0x07;
	out->anc_sup = buf[5] & 0x02;
	out->ptype = buf[6] & 0x07;
	return 0;
}

unsigned scsi_build_unmap(uint8_t cdb[10], uint16_t param_len)
{
	memset(cdb, 0, 10);
	cdb[0] = SCSI_UNMAP;
	sg_put_unaligned_be16(param_len, cdb + 7);
	return 10;
}

unsigned scsi_build_unmap_param(uint8_t buf[24], uint64_t lba, uint32_t blocks)
{
	memset(buf, 0, 24);
	sg_put_unaligned_be16(22, buf);	    /* UNMAP DATA LENGTH: what follows it */
	sg_put_unaligned_be16(16, buf + 2); /* one block descriptor */
	sg_put_unaligned_be64(lba, buf + 8);
	sg_put_unaligned_be32(blocks, buf + 16);
	return 24;
}

unsigned scsi_build_write_same16(uint8_t cdb[16], uint64_t lba, uint32_t blocks, bool unmap,
				 bool ndob)
{
	memset(cdb, 0, 16);
	cdb[0] = SCSI_WRITE_SAME16;
	cdb[1] = (uint8_t)((unmap ? 0x08 : 0) | (ndob ? 0x01 : 0));
	sg_put_unaligned_be64(lba, cdb + 2);
	sg_put_unaligned_be32(blocks, cdb + 10);
	return 16;
}

int scsi_parse_mode_sense10(const uint8_t *buf, size_t len, struct scsi_mode10 *out)
{
	size_t total, bd_end, dsz;

	memset(out, 0, sizeof(*out));
	if (!buf || len < 8)
		return -EPROTO;
	out->mode_data_len = sg_get_unaligned_be16(buf);
	out->medium_type = buf[2];
	out->dev_specific = buf[3];
	out->longlba = buf[4] & 0x01;
	out->bd_len = sg_get_unaligned_be16(buf + 6);
	/* Bytes the device says it has, limited to what we were given. */
	total = (size_t)out->mode_data_len + 2;
	if (total < 8)
		return -EPROTO;
	if (total > len)
		total = len;
	dsz = out->longlba ? 16 : 8;
	if (out->bd_len % dsz)
		return -EPROTO;
	bd_end = 8 + (size_t)out->bd_len;
	if (bd_end > total)
		return -EPROTO;
	if (out->bd_len) {
		const uint8_t *bd = buf + 8;

		out->has_bd = true;
		if (out->longlba) {
			out->bd_blocks = sg_get_unaligned_be64(bd);
			out->bd_block_len = sg_get_unaligned_be32(bd + 12);
		} else {
			out->bd_blocks = sg_get_unaligned_be32(bd);
			out->bd_block_len = sg_get_unaligned_be32(bd + 4) & 0x00ffffff;
		}
	}
	out->pages_off = bd_end;
	out->pages_len = total - bd_end;
	return 0;
}

const uint8_t *scsi_mode_find_page(const uint8_t *buf, size_t len, const struct scsi_mode10 *m,
				   uint8_t page, uint8_t subpage, size_t *page_len)
{
	size_t off, end, plen;

	if (page_len)
		*page_len = 0;
	if (!buf || !m || m->pages_off > len || m->pages_len > len - m->pages_off)
		return NULL;
	off = m->pages_off;
	end = m->pages_off + m->pages_len;
	while (off + 2 <= end) {
		const uint8_t *p = buf + off;
		bool spf = p[0] & 0x40;
		uint8_t code = p[0] & 0x3f, sub = 0;

		if (spf) {
			if (off + 4 > end)
				return NULL;
			sub = p[1];
			plen = 4 + (size_t)sg_get_unaligned_be16(p + 2);
		} else {
			plen = 2 + (size_t)p[1];
		}
		if (off + plen > end)
			return NULL;
		if (code == (page & 0x3f) && sub == subpage) {
			if (page_len)
				*page_len = plen;
			return p;
		}
		off += plen;
	}
	return NULL;
}

int scsi_mode_set_bd_blocks(const uint8_t *buf, size_t len, uint64_t blocks, uint8_t *out,
			    size_t out_max, size_t *out_len)
{
	struct scsi_mode10 m;
	size_t n;
	int rc;

	*out_len = 0;
	rc = scsi_parse_mode_sense10(buf, len, &m);
	if (rc)
		return rc;
	if (!m.has_bd)
		return -EPROTO;
	if (!m.longlba && blocks > UINT32_MAX)
		return -EOVERFLOW;
	n = 8 + (size_t)m.bd_len;
	if (n > out_max)
		return -ENOSPC;
	memmove(out, buf, n);
	out[0] = 0; /* MODE DATA LENGTH: reserved in MODE SELECT */
	out[1] = 0;
	out[2] = 0;	/* MEDIUM TYPE: 0 for direct access */
	out[3] = 0;	/* WP ignored, DPOFUA reserved for MODE SELECT */
	out[4] &= 0x01; /* keep LONGLBA only */
	out[5] = 0;
	if (m.longlba)
		sg_put_unaligned_be64(blocks, out + 8);
	else
		sg_put_unaligned_be32((uint32_t)blocks, out + 8);
	*out_len = n;
	return 0;
}
