/*
 * zbc.c - the zone list that REPORT ZONES (ZBC, big-endian) and REPORT
 * ZONES EXT (ZAC, the same layout little-endian) return, the builders
 * of both commands, and the summary by zone type and condition.
 *
 * Layout (ZBC-2 / ZAC-2): a 64-byte header - ZONE LIST LENGTH (bytes
 * 0-3), SAME (byte 4, bits 3:0), MAXIMUM LBA (bytes 8-15) - then 64-byte
 * descriptors: ZONE TYPE (byte 0, 3:0), ZONE CONDITION (byte 1, 7:4),
 * NON_SEQ (byte 1 bit 1), RESET (byte 1 bit 0), ZONE LENGTH (8-15),
 * ZONE START LBA (16-23), WRITE POINTER LBA (24-31).
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/scsi.h"
#include "shortstroke/zbc.h"

static uint32_t field32(const uint8_t *p, bool le);
static uint64_t field64(const uint8_t *p, bool le);
static void count_cond(struct zone_summary *s, const struct zone_desc *z);

/* ZBC fields are big-endian, ZAC's the same fields little-endian */
static uint32_t field32(const uint8_t *p, bool le)
{
	return le ? sg_get_unaligned_le32(p) : sg_get_unaligned_be32(p);
}

static uint64_t field64(const uint8_t *p, bool le)
{
	return le ? sg_get_unaligned_le64(p) : sg_get_unaligned_be64(p);
}

int zones_parse_list(const uint8_t *buf, size_t len, bool zac, struct zone_list_hdr *hdr,
		     struct zone_desc *zones, size_t max, size_t *count)
{
	size_t avail, n;

	memset(hdr, 0, sizeof(*hdr));
	*count = 0;
	if (!buf || len < ZONES_HDR_LEN)
		return -EPROTO;
	hdr->list_len = field32(buf, zac);
	hdr->same = buf[4] & 0x0f;
	hdr->max_lba = field64(buf + 8, zac);
	hdr->total = hdr->list_len / ZONES_DESC_LEN;

	avail = (len - ZONES_HDR_LEN) / ZONES_DESC_LEN;
	if ((len - ZONES_HDR_LEN) % ZONES_DESC_LEN && avail < hdr->total)
		hdr->truncated = true;
	n = avail < hdr->total ? avail : hdr->total;
	hdr->here = (uint32_t)n;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *d = buf + ZONES_HDR_LEN + i * ZONES_DESC_LEN;
		struct zone_desc *z = &zones[i];

		z->type = d[0] & 0x0f;
		z->cond = d[1] >> 4;
		z->non_seq = d[1] & 0x02;
		z->reset = d[1] & 0x01;
		z->len = field64(d + 8, zac);
		z->start = field64(d + 16, zac);
		z->wp = field64(d + 24, zac);
	}
	*count = n;
	return 0;
}

unsigned zones_build_report_scsi(uint8_t cdb[16], uint64_t start_lba, uint32_t alloc)
{
	return scsi_build_report_zones(cdb, start_lba, alloc, 0, false);
}

void zones_tf_report(struct ata_tf *tf, uint64_t start_lba, uint16_t pages)
{
	ata_tf_report_zones_ext(tf, start_lba, pages, 0, false);
}

const char *zone_type_name(uint8_t type)
{
	switch (type) {
	case ZONE_TYPE_CONVENTIONAL:
		return "conventional";
	case ZONE_TYPE_SEQ_REQUIRED:
		return "seq-required";
	case ZONE_TYPE_SEQ_PREFERRED:
		return "seq-preferred";
	case ZONE_TYPE_SEQ_OR_BEFORE:
		return "seq-or-before-required";
	case ZONE_TYPE_GAP:
		return "gap";
	default:
		return "reserved";
	}
}

const char *zone_cond_name(uint8_t cond)
{
	switch (cond) {
	case ZONE_COND_NOT_WP:
		return "not-write-pointer";
	case ZONE_COND_EMPTY:
		return "empty";
	case ZONE_COND_IMP_OPEN:
		return "implicitly-open";
	case ZONE_COND_EXP_OPEN:
		return "explicitly-open";
	case ZONE_COND_CLOSED:
		return "closed";
	case ZONE_COND_INACTIVE:
		return "inactive";
	case ZONE_COND_READ_ONLY:
		return "read-only";
	case ZONE_COND_FULL:
		return "full";
	case ZONE_COND_OFFLINE:
		return "offline";
	default:
		return "reserved";
	}
}

static void count_cond(struct zone_summary *s, const struct zone_desc *z)
{
	switch (z->cond) {
	case ZONE_COND_NOT_WP:
		s->not_wp++;
		break;
	case ZONE_COND_EMPTY:
		s->empty++;
		break;
	case ZONE_COND_IMP_OPEN:
		s->imp_open++;
		break;
	case ZONE_COND_EXP_OPEN:
		s->exp_open++;
		break;
	case ZONE_COND_CLOSED:
		s->closed++;
		break;
	case ZONE_COND_INACTIVE:
		s->inactive++;
		break;
	case ZONE_COND_READ_ONLY:
		s->read_only++;
		break;
	case ZONE_COND_FULL:
		s->full++;
		break;
	case ZONE_COND_OFFLINE:
		s->offline++;
		break;
	default:
		s->other_cond++;
		break;
	}
}

void zones_summarize(const struct zone_desc *zones, size_t n, struct zone_summary *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		const struct zone_desc *z = &zones[i];

		s->zones++;
		switch (z->type) {
		case ZONE_TYPE_CONVENTIONAL:
			s->conventional++;
			s->conventional_blocks += z->len;
			break;
		case ZONE_TYPE_SEQ_REQUIRED:
			s->seq_required++;
			s->sequential_blocks += z->len;
			break;
		case ZONE_TYPE_SEQ_PREFERRED:
			s->seq_preferred++;
			s->sequential_blocks += z->len;
			break;
		case ZONE_TYPE_SEQ_OR_BEFORE:
			s->seq_or_before++;
			s->sequential_blocks += z->len;
			break;
		case ZONE_TYPE_GAP:
			s->gap++;
			break;
		default:
			s->other_type++;
			break;
		}
		count_cond(s, z);
		if (z->type != ZONE_TYPE_CONVENTIONAL && z->type != ZONE_TYPE_GAP &&
		    (z->cond == ZONE_COND_IMP_OPEN || z->cond == ZONE_COND_EXP_OPEN ||
		     z->cond == ZONE_COND_CLOSED) &&
		    z->wp > z->start && z->wp - z->start <= z->len)
			s->written_blocks += z->wp - z->start;
		else if (z->type != ZONE_TYPE_CONVENTIONAL && z->cond == ZONE_COND_FULL)
			s->written_blocks += z->len;
	}
}
