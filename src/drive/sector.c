/*
 * sector.c - the sector size codec: the sizes a drive offers (VPD B7h,
 * ATA log 2Fh) and the commands that change it (FORMAT UNIT with FFMT,
 * SET SECTOR CONFIGURATION EXT). SBC-4 6.x (VPD B7h: a 4-byte header,
 * PAGE LENGTH in bytes 2-3, then 8-byte descriptors, LOGICAL BLOCK LENGTH
 * first); ACS-4 9.x (log 2Fh: eight 16-byte descriptors, DESCRIPTOR CHECK
 * at 2, LENGTH OF LOGICAL SECTOR in 16-bit words at 4) and 7.x (B2h:
 * COMMAND CHECK in FEATURE 15:0, SECTOR CONFIGURATION DESCRIPTOR INDEX in
 * COUNT 2:0); FORMAT UNIT's FFMT is byte 4 bits 1:0.
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/scsi.h"
#include "shortstroke/sector.h"

static void add(struct sector_sizes *out, const struct sector_size *s)
{
	if (out->n < SECTOR_SIZES_MAX)
		out->s[out->n++] = *s;
}

int sector_parse_vpd_b7(const uint8_t *buf, size_t len, struct sector_sizes *out)
{
	size_t plen;

	memset(out, 0, sizeof(*out));
	if (!buf || len < 4 || buf[1] != VPD_BLOCK_LENGTHS)
		return -EPROTO;
	plen = sg_get_unaligned_be16(buf + 2);
	if (4 + plen > len)
		return -EPROTO;
	for (size_t off = 4; off + 8 <= 4 + plen; off += 8) {
		struct sector_size s = { .bytes = sg_get_unaligned_be32(buf + off) };

		s.pi = buf[off + 4] & 0x08; /* P_I_I_SUP */
		if (s.bytes)
			add(out, &s);
	}
	return 0;
}

int sector_parse_ata_log(const uint8_t *buf, size_t len, struct sector_sizes *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < SECTOR_ATA_DESCRIPTORS * SECTOR_ATA_DESC_LEN)
		return -EPROTO;
	for (unsigned i = 0; i < SECTOR_ATA_DESCRIPTORS; i++) {
		const uint8_t *d = buf + i * SECTOR_ATA_DESC_LEN;
		uint64_t words = sg_get_unaligned_le32(d + 4);
		struct sector_size s = { .check = sg_get_unaligned_le16(d + 2),
					 .index = (uint8_t)i };

		if (!s.check || !words || words * 2 > UINT32_MAX)
			continue;
		s.bytes = (uint32_t)(words * 2);
		add(out, &s);
	}
	return 0;
}

const struct sector_size *sector_find(const struct sector_sizes *s, uint32_t bytes)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->s[i].bytes == bytes)
			return &s->s[i];
	return NULL;
}

void sector_tf_set_config(struct ata_tf *tf, uint16_t check, uint8_t index)
{
	memset(tf, 0, sizeof(*tf));
	tf->command = ATA_SET_SECTOR_CONFIG_EXT;
	tf->proto = ATA_PROTO_NON_DATA;
	tf->ext = true;
	tf->feature = check;
	tf->count = index & 0x07;
	tf->device = 0x40;
}

unsigned sector_build_fast_format(uint8_t cdb[6])
{
	unsigned n = scsi_build_format_unit(cdb, 0, true, false, 0);

	cdb[4] = (uint8_t)((cdb[4] & ~0x03) | 0x01); /* FFMT 01b */
	return n;
}

int sector_mode_set_length(uint8_t *param, size_t len, uint32_t block_len)
{
	size_t bdlen;
	bool longlba;

	if (!param || len < 8)
		return -EPROTO;
	longlba = param[4] & 0x01;
	bdlen = sg_get_unaligned_be16(param + 6);
	if (bdlen < (longlba ? 16u : 8u) || 8 + bdlen > len)
		return -EPROTO;
	if (longlba)
		sg_put_unaligned_be32(block_len, param + 8 + 12);
	else
		sg_put_unaligned_be24(block_len, param + 8 + 5);
	return 0;
}
