/* sat.c - ATA PASS-THROUGH (12)/(16) CDBs and the ATA Status Return sense
 * data a SATL sends back (SAT-3 12.2.2). */
#include <errno.h>
#include <string.h>

#include "shortstroke/sat.h"

#define SAT_PT12 0xa1
#define SAT_PT16 0x85

static bool proto_is_data(unsigned p)
{
	return p == ATA_PROTO_PIO_IN || p == ATA_PROTO_PIO_OUT || p == ATA_PROTO_DMA ||
	       p == ATA_PROTO_UDMA_IN || p == ATA_PROTO_UDMA_OUT || p == ATA_PROTO_FPDMA;
}

static bool proto_is_valid(unsigned p)
{
	return p <= 15 && p != 2 && p != 7 && p != 13 && p != 14;
}

unsigned sat_build_ata_pt16(uint8_t cdb[16], const struct ata_tf *tf, bool ck_cond)
{
	unsigned proto = tf->proto;
	bool data = proto_is_data(proto) && tf->xfer_blocks > 0;
	uint8_t device = tf->device;
	uint64_t lba = tf->lba;

	memset(cdb, 0, 16);
	cdb[0] = SAT_PT16;
	cdb[1] = (uint8_t)((proto & 0x0f) << 1) | (tf->ext ? 0x01 : 0);
	cdb[2] = ck_cond ? 0x20 : 0;
	if (data) {
		/* T_DIR, BYT_BLOK=1, T_LENGTH=2 (COUNT), T_TYPE=0 */
		cdb[2] |= (tf->write ? 0 : 0x08) | 0x04 | 0x02;
	}
	if (!tf->ext)
		device |= (uint8_t)((lba >> 24) & 0x0f);
	cdb[4] = (uint8_t)tf->feature;
	cdb[6] = (uint8_t)tf->count;
	cdb[8] = (uint8_t)lba;
	cdb[10] = (uint8_t)(lba >> 8);
	cdb[12] = (uint8_t)(lba >> 16);
	if (tf->ext) {
		cdb[3] = (uint8_t)(tf->feature >> 8);
		cdb[5] = (uint8_t)(tf->count >> 8);
		cdb[7] = (uint8_t)(lba >> 24);
		cdb[9] = (uint8_t)(lba >> 32);
		cdb[11] = (uint8_t)(lba >> 40);
	}
	cdb[13] = device;
	cdb[14] = tf->command;
	return 16;
}

int sat_parse_ata_pt_fields(const uint8_t *cdb, unsigned len, struct ata_tf *tf,
			    struct sat_pt_fields *f)
{
	struct sat_pt_fields x;
	struct ata_tf t;
	bool data, in_proto, out_proto;

	if (!cdb || !tf)
		return -EINVAL;
	if (!((cdb[0] == SAT_PT16 && len == 16) || (cdb[0] == SAT_PT12 && len == 12)))
		return -EINVAL;
	memset(&x, 0, sizeof(x));
	memset(&t, 0, sizeof(t));
	x.multiple_count = cdb[1] >> 5;
	x.protocol = (cdb[1] >> 1) & 0x0f;
	x.extend = cdb[0] == SAT_PT16 && (cdb[1] & 0x01);
	x.off_line = cdb[2] >> 6;
	x.ck_cond = cdb[2] & 0x20;
	x.t_type = cdb[2] & 0x10;
	x.t_dir = cdb[2] & 0x08;
	x.byt_blok = cdb[2] & 0x04;
	x.t_length = cdb[2] & 0x03;
	if (!proto_is_valid(x.protocol))
		return -EINVAL;
	data = proto_is_data(x.protocol);
	in_proto = x.protocol == ATA_PROTO_PIO_IN || x.protocol == ATA_PROTO_UDMA_IN;
	out_proto = x.protocol == ATA_PROTO_PIO_OUT || x.protocol == ATA_PROTO_UDMA_OUT;
	if (data != (x.t_length != 0))
		return -EINVAL;
	if ((in_proto && !x.t_dir) || (out_proto && x.t_dir))
		return -EINVAL;

	if (cdb[0] == SAT_PT16) {
		t.feature = cdb[4];
		t.count = cdb[6];
		t.lba = (uint64_t)cdb[8] | (uint64_t)cdb[10] << 8 | (uint64_t)cdb[12] << 16;
		t.device = cdb[13];
		t.command = cdb[14];
		if (x.extend) {
			t.feature |= (uint16_t)(cdb[3] << 8);
			t.count |= (uint16_t)(cdb[5] << 8);
			t.lba |= (uint64_t)cdb[7] << 24 | (uint64_t)cdb[9] << 32 |
				 (uint64_t)cdb[11] << 40;
		}
	} else {
		t.feature = cdb[3];
		t.count = cdb[4];
		t.lba = (uint64_t)cdb[5] | (uint64_t)cdb[6] << 8 | (uint64_t)cdb[7] << 16;
		t.device = cdb[8];
		t.command = cdb[9];
	}
	if (!x.extend)
		t.lba |= (uint64_t)(t.device & 0x0f) << 24;
	t.ext = x.extend;
	t.proto = (enum ata_proto)x.protocol;

	switch (x.t_length) {
	case 1:
		x.t_value = t.feature & (x.extend ? 0xffff : 0xff);
		break;
	case 2:
		x.t_value = t.count & (x.extend ? 0xffff : 0xff);
		break;
	default:
		x.t_value = 0;
		break;
	}
	if (x.t_length == 1 || x.t_length == 2)
		t.xfer_blocks = x.byt_blok ? x.t_value : (x.t_value + 511) / 512;
	t.write = data && !x.t_dir;

	*tf = t;
	if (f)
		*f = x;
	return 0;
}

int sat_parse_ata_pt(const uint8_t *cdb, unsigned len, struct ata_tf *tf, bool *ck_cond)
{
	struct sat_pt_fields f;
	int rc;

	rc = sat_parse_ata_pt_fields(cdb, len, tf, &f);
	if (rc == 0 && ck_cond)
		*ck_cond = f.ck_cond;
	return rc;
}

unsigned sat_build_ata_return_sense(uint8_t *sense, unsigned max, bool desc,
				    const struct ata_regs *regs)
{
	uint8_t b[22];
	uint8_t key = (regs->status & ATA_STAT_ERR) ? SK_ABORTED_COMMAND : SK_RECOVERED_ERROR;
	uint64_t lba = regs->lba;
	unsigned n;

	memset(b, 0, sizeof(b));
	if (desc) {
		b[0] = 0x72;
		b[1] = key;
		b[2] = 0x00;
		b[3] = 0x1d;
		b[7] = 14;
		b[8] = 0x09;
		b[9] = 0x0c;
		b[10] = regs->ext ? 0x01 : 0;
		b[11] = regs->error;
		b[13] = (uint8_t)regs->count;
		b[15] = (uint8_t)lba;
		b[17] = (uint8_t)(lba >> 8);
		b[19] = (uint8_t)(lba >> 16);
		if (regs->ext) {
			b[12] = (uint8_t)(regs->count >> 8);
			b[14] = (uint8_t)(lba >> 24);
			b[16] = (uint8_t)(lba >> 32);
			b[18] = (uint8_t)(lba >> 40);
		}
		b[20] = regs->device;
		b[21] = regs->status;
		n = 22;
	} else {
		b[0] = 0xf0;
		b[2] = key;
		b[3] = regs->error;
		b[4] = regs->status;
		b[5] = regs->device;
		b[6] = (uint8_t)regs->count;
		b[7] = 10;
		if (regs->ext) {
			b[8] = 0x80;
			if (regs->count >> 8)
				b[8] |= 0x40;
			if ((lba >> 24) & 0xffffff)
				b[8] |= 0x20;
		}
		b[9] = (uint8_t)lba;
		b[10] = (uint8_t)(lba >> 8);
		b[11] = (uint8_t)(lba >> 16);
		b[12] = 0x00;
		b[13] = 0x1d;
		n = 18;
	}
	if (n > max)
		n = max;
	if (sense && n)
		memcpy(sense, b, n);
	return sense ? n : 0;
}
