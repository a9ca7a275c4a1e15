/*
 * sense.c - SCSI sense data normalised into struct scsi_sense.
 *
 * The decoding is sg3_utils' sg_lib: response code, key, ASC/ASCQ,
 * information, progress and the descriptor walk. The only thing decoded
 * here is the content of the ATA registers, the two ways SAT-3 returns them
 * for ATA PASS-THROUGH: the ATA Status Return descriptor (0x09) of
 * descriptor sense, and the fixed-format fields of ASC/ASCQ 0x00/0x1D.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <scsi/sg_lib.h>

#include "shortstroke/sense.h"

/* Largest sense we look at: 8-byte header + 255 additional bytes. */
#define SENSE_MAX (8 + 255)
#define DESC_ATA_RETURN 0x09
#define ASC_ATA_PT_INFO 0x00
#define ASCQ_ATA_PT_INFO 0x1d
#define ASC_PREFIX "Additional sense: "

static void ata_from_desc(const uint8_t *d, struct scsi_sense *out);
static void ata_from_fixed(const uint8_t *sb, struct scsi_sense *out);

/*
 * ATA Status Return descriptor (SAT-3): 0 type 0x09, 1 length 0x0c,
 * 2 EXTEND (bit 0), 3 error, 4 count 15:8, 5 count 7:0, 6 LBA 31:24,
 * 7 LBA 7:0, 8 LBA 39:32, 9 LBA 15:8, 10 LBA 47:40, 11 LBA 23:16,
 * 12 device, 13 status.
 */
static void ata_from_desc(const uint8_t *d, struct scsi_sense *out)
{
	struct ata_regs *r = &out->ata;

	r->ext = d[2] & 0x01;
	r->error = d[3];
	r->count = d[5];
	r->lba = (uint64_t)d[7] | (uint64_t)d[9] << 8 | (uint64_t)d[11] << 16;
	if (r->ext) {
		r->count |= (uint16_t)(d[4] << 8);
		r->lba |= (uint64_t)d[6] << 24 | (uint64_t)d[8] << 32 | (uint64_t)d[10] << 40;
	}
	r->device = d[12];
	r->status = d[13];
	out->ata_valid = true;
}

/*
 * Fixed format for ATA PASS-THROUGH (SAT-3): INFORMATION bytes 3..6 hold
 * error, status, device, count 7:0; COMMAND-SPECIFIC INFORMATION byte 8
 * holds EXTEND (bit 7), COUNT UPPER NONZERO (6), LBA UPPER NONZERO (5),
 * LOG INDEX (3:0), bytes 9..11 LBA 7:0, 15:8, 23:16. The upper halves of
 * count and LBA are not there.
 */
static void ata_from_fixed(const uint8_t *sb, struct scsi_sense *out)
{
	struct ata_regs *r = &out->ata;

	r->error = sb[3];
	r->status = sb[4];
	r->device = sb[5];
	r->count = sb[6];
	r->ext = sb[8] & 0x80;
	out->ata_count_upper_nz = sb[8] & 0x40;
	out->ata_lba_upper_nz = sb[8] & 0x20;
	r->lba = (uint64_t)sb[9] | (uint64_t)sb[10] << 8 | (uint64_t)sb[11] << 16;
	out->ata_valid = true;
	out->ata_fixed = true;
	/* INFORMATION holds registers here, not an LBA */
	out->info_valid = false;
	out->info = 0;
}

int scsi_sense_decode(const uint8_t *buf, size_t len, struct scsi_sense *out)
{
	struct sg_scsi_sense_hdr hdr;
	uint8_t sb[SENSE_MAX];
	const uint8_t *d;
	uint8_t rc;
	int n, progress;
	uint64_t info;

	memset(out, 0, sizeof(*out));
	if (!buf || !len)
		return -EINVAL;
	rc = buf[0] & 0x7f;
	if (rc < 0x70 || rc > 0x73)
		return -EINVAL;
	if (len < 8)
		return -EPROTO;
	/*
	 * sg_lib gets a private zero-padded copy: whatever it reads, it
	 * cannot go past the caller's buffer.
	 */
	n = (int)(len < sizeof(sb) ? len : sizeof(sb));
	memset(sb, 0, sizeof(sb));
	memcpy(sb, buf, (size_t)n);
	if (!sg_scsi_normalize_sense(sb, n, &hdr))
		return -EINVAL;

	out->valid = true;
	out->descriptor = hdr.response_code >= 0x72;
	out->deferred = hdr.response_code & 0x01;
	out->key = hdr.sense_key;
	out->asc = hdr.asc;
	out->ascq = hdr.ascq;

	out->info_valid = sg_get_sense_info_fld(sb, n, &info);
	out->info = out->info_valid ? info : 0;
	if (sg_get_sense_progress_fld(sb, n, &progress) && progress >= 0) {
		out->progress_valid = true;
		out->progress = (uint32_t)progress;
	}

	if (out->descriptor) {
		d = sg_scsi_sense_desc_find(sb, n, DESC_ATA_RETURN);
		/* the whole 14-byte descriptor must be inside what we got */
		if (d && d + 14 <= sb + n && d[1] >= 0x0c)
			ata_from_desc(d, out);
	} else if (out->asc == ASC_ATA_PT_INFO && out->ascq == ASCQ_ATA_PT_INFO) {
		/* bytes 8..11 must be present and covered by ADDITIONAL LENGTH */
		int avail = 8 + sb[7] < n ? 8 + sb[7] : n;

		if (avail >= 12)
			ata_from_fixed(sb, out);
	}
	return 0;
}

void scsi_sense_describe(const struct scsi_sense *s, char *buf, size_t len)
{
	char key[64], asc[128];
	const char *text;
	size_t o;
	int w;

	if (!buf || !len)
		return;
	if (!s || !s->valid) {
		snprintf(buf, len, "no sense data");
		return;
	}
	sg_get_sense_key_str(s->key, (int)sizeof(key), key);
	sg_get_asc_ascq_str(s->asc, s->ascq, (int)sizeof(asc), asc);
	text = asc;
	/* sg_lib says "Additional sense: Invalid field in cdb" */
	if (!strncmp(text, ASC_PREFIX, strlen(ASC_PREFIX)))
		text += strlen(ASC_PREFIX);
	w = snprintf(buf, len, "%s: %s (0x%02x/0x%02x)", key, text, s->asc, s->ascq);
	o = w < 0 ? 0 : (size_t)w;
	if (s->progress_valid && o < len) {
		w = snprintf(buf + o, len - o, ", progress %u%%",
			     (unsigned)((s->progress * 100ULL) / 65536));
		o += w < 0 ? 0 : (size_t)w;
	}
	if (s->ata_valid && o < len)
		snprintf(buf + o, len - o, ", ATA status 0x%02x error 0x%02x", s->ata.status,
			 s->ata.error);
}
