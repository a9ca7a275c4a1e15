/* cpr.c - the concurrent positioning ranges codec (cpr.h): the ATA log 47h
 * (ACS-5: byte 0 the number of descriptors; little-endian fields) and SCSI
 * VPD page B9h (SBC-5: the usual 4-byte VPD header with the page length;
 * big-endian fields). Both put 32-byte descriptors from byte 64 on: byte 0
 * the range number, byte 1 its storage elements, bytes 8-15 the first LBA,
 * bytes 16-23 the number of LBAs. */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/cpr.h"

#define ATA_PAGE 512u

static int fill(const uint8_t *desc, unsigned n, bool be, struct cpr_ranges *out)
{
	if (n > CPR_MAX)
		return -EPROTO;
	for (unsigned i = 0; i < n; i++, desc += CPR_DESC) {
		struct cpr_range *r = &out->r[i];

		if (desc[0] != i) /* numbered from 0, in order */
			return -EPROTO;
		r->elements = desc[1];
		r->lba = be ? sg_get_unaligned_be64(desc + 8) : sg_get_unaligned_le64(desc + 8);
		r->blocks = be ? sg_get_unaligned_be64(desc + 16)
			       : sg_get_unaligned_le64(desc + 16);
	}
	out->n = n;
	return 0;
}

int cpr_parse_ata_log(const uint8_t *buf, size_t len, struct cpr_ranges *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < ATA_PAGE)
		return -EPROTO;
	if (CPR_HDR + (size_t)buf[0] * CPR_DESC > len)
		return -EPROTO;
	return fill(buf + CPR_HDR, buf[0], false, out);
}

int cpr_parse_vpd(const uint8_t *buf, size_t len, struct cpr_ranges *out)
{
	size_t plen;

	memset(out, 0, sizeof(*out));
	if (!buf || len < 4 || buf[1] != VPD_CPR)
		return -EPROTO;
	plen = (size_t)sg_get_unaligned_be16(buf + 2) + 4;
	if (plen > len || plen < CPR_HDR || (plen - CPR_HDR) % CPR_DESC)
		return -EPROTO;
	return fill(buf + CPR_HDR, (unsigned)((plen - CPR_HDR) / CPR_DESC), true, out);
}

static void put_desc(uint8_t *p, unsigned i, const struct cpr_range *r, bool be)
{
	p[0] = (uint8_t)i;
	p[1] = r->elements;
	if (be) {
		sg_put_unaligned_be64(r->lba, p + 8);
		sg_put_unaligned_be64(r->blocks, p + 16);
	} else {
		sg_put_unaligned_le64(r->lba, p + 8);
		sg_put_unaligned_le64(r->blocks, p + 16);
	}
}

size_t cpr_build_ata_log(const struct cpr_ranges *r, uint8_t *buf, size_t len)
{
	if (len < ATA_PAGE || r->n > CPR_MAX)
		return 0;
	memset(buf, 0, ATA_PAGE);
	buf[0] = (uint8_t)r->n;
	for (unsigned i = 0; i < r->n; i++)
		put_desc(buf + CPR_HDR + i * CPR_DESC, i, &r->r[i], false);
	return ATA_PAGE;
}

size_t cpr_build_vpd(const struct cpr_ranges *r, uint8_t *buf, size_t len)
{
	size_t total = CPR_HDR + (size_t)r->n * CPR_DESC;

	if (len < total || r->n > CPR_MAX)
		return 0;
	memset(buf, 0, total);
	buf[1] = VPD_CPR;
	sg_put_unaligned_be16((uint16_t)(total - 4), buf + 2);
	for (unsigned i = 0; i < r->n; i++)
		put_desc(buf + CPR_HDR + i * CPR_DESC, i, &r->r[i], true);
	return total;
}

bool cpr_valid(const struct cpr_ranges *r, uint64_t blocks)
{
	uint64_t next = 0;

	if (!r->n || r->n > CPR_MAX)
		return false;
	for (unsigned i = 0; i < r->n; i++) {
		if (!r->r[i].blocks || r->r[i].lba != next ||
		    r->r[i].blocks > UINT64_MAX - r->r[i].lba)
			return false;
		next = r->r[i].lba + r->r[i].blocks;
	}
	return !blocks || next == blocks;
}

bool cpr_multi(const struct cpr_ranges *r)
{
	return r && r->n > 1;
}

int cpr_range_of(const struct cpr_ranges *r, uint64_t lba)
{
	for (unsigned i = 0; i < r->n && i < CPR_MAX; i++)
		if (lba >= r->r[i].lba && lba - r->r[i].lba < r->r[i].blocks)
			return (int)i;
	return -1;
}

void cpr_split(struct cpr_ranges *r, unsigned n, uint64_t blocks, uint8_t elements)
{
	uint64_t each;

	memset(r, 0, sizeof(*r));
	if (n < 1 || n > CPR_MAX || blocks < n)
		return;
	each = blocks / n;
	for (unsigned i = 0; i < n; i++) {
		r->r[i].lba = (uint64_t)i * each;
		r->r[i].blocks = i + 1 == n ? blocks - r->r[i].lba : each;
		r->r[i].elements = elements;
	}
	r->n = n;
}
