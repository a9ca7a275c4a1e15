/*
 * elem.c - the storage element codec: GET PHYSICAL ELEMENT STATUS, REMOVE
 * ELEMENT AND TRUNCATE, RESTORE ELEMENTS AND REBUILD, REMOVE ELEMENT AND
 * MODIFY ZONES (SBC-4 5.x, ACS-4/5 7.x).
 *
 * The answer (both command sets, SCSI big-endian, ATA little-endian):
 * header of 32 bytes - NUMBER OF DESCRIPTORS (0-3), NUMBER OF DESCRIPTORS
 * RETURNED (4-7), IDENTIFIER OF ELEMENT BEING DEPOPULATED (8-11), CURRENT
 * MAXIMUM NUMBER OF DEPOPULATED ELEMENTS (12-13), CURRENT NUMBER OF
 * DEPOPULATED ELEMENTS (14-15) - then descriptors of 32 bytes: ELEMENT
 * IDENTIFIER (4-7), RALWD (13 bit 0), PHYSICAL ELEMENT TYPE (14),
 * PHYSICAL ELEMENT HEALTH (15), ASSOCIATED CAPACITY (16-23).
 *
 * SCSI CDBs (SERVICE ACTION IN (16)): GET PHYSICAL ELEMENT STATUS - STARTING
 * ELEMENT (6-9), ALLOCATION LENGTH (10-13), FILTER (14 bits 7:6), REPORT
 * TYPE (14 bits 3:0); REMOVE ELEMENT AND TRUNCATE - REQUESTED CAPACITY
 * (2-9), ELEMENT IDENTIFIER (10-13); REMOVE ELEMENT AND MODIFY ZONES -
 * ELEMENT IDENTIFIER (10-13). ATA: GET PHYSICAL ELEMENT STATUS (12h, DMA)
 * - FILTER and REPORT TYPE in FEATURE 15:8, STARTING ELEMENT in the LBA,
 * pages in COUNT; REMOVE ELEMENT AND TRUNCATE (7Ch) and REMOVE ELEMENT AND
 * MODIFY ZONES (7Eh) - ELEMENT IDENTIFIER 15:0 in COUNT, 31:16 in FEATURE,
 * the requested maximum LBA (7Ch) in the LBA; RESTORE ELEMENTS AND REBUILD
 * (7Dh) carries nothing.
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/elem.h"
#include "shortstroke/scsi.h"

#define ATA_DEV_LBA 0x40

static uint32_t field32(const uint8_t *p, bool le)
{
	return le ? sg_get_unaligned_le32(p) : sg_get_unaligned_be32(p);
}

static uint16_t field16(const uint8_t *p, bool le)
{
	return le ? sg_get_unaligned_le16(p) : sg_get_unaligned_be16(p);
}

static uint64_t field64(const uint8_t *p, bool le)
{
	return le ? sg_get_unaligned_le64(p) : sg_get_unaligned_be64(p);
}

enum elem_health_class elem_health_class(uint8_t h)
{
	if (h == 0)
		return ELEM_NOT_REPORTED;
	if (h < ELEM_HEALTH_AT_LIMIT)
		return ELEM_OK;
	if (h == ELEM_HEALTH_AT_LIMIT)
		return ELEM_AT_LIMIT;
	if (h <= ELEM_HEALTH_OVER_MAX)
		return ELEM_OVER_LIMIT;
	switch (h) {
	case ELEM_HEALTH_RESTORE_ERROR:
		return ELEM_RESTORE_ERROR;
	case ELEM_HEALTH_RESTORING:
		return ELEM_RESTORING;
	case ELEM_HEALTH_DEPOP_ERROR:
		return ELEM_DEPOP_ERROR;
	case ELEM_HEALTH_DEPOPULATING:
		return ELEM_DEPOPULATING;
	case ELEM_HEALTH_DEPOPULATED:
		return ELEM_DEPOPULATED;
	default:
		return ELEM_RESERVED;
	}
}

const char *elem_health_name(uint8_t h)
{
	static const char *const names[] = {
		[ELEM_NOT_REPORTED] = "not reported",
		[ELEM_OK] = "ok",
		[ELEM_AT_LIMIT] = "at limit",
		[ELEM_OVER_LIMIT] = "over limit",
		[ELEM_DEPOPULATED] = "depopulated",
		[ELEM_DEPOPULATING] = "depopulating",
		[ELEM_DEPOP_ERROR] = "depopulated with errors",
		[ELEM_RESTORING] = "restoring",
		[ELEM_RESTORE_ERROR] = "restore failed",
		[ELEM_RESERVED] = "reserved",
	};

	return names[elem_health_class(h)];
}

bool elem_health_near_limit(uint8_t h)
{
	enum elem_health_class k = elem_health_class(h);

	return (k == ELEM_OK && h >= ELEM_HEALTH_NEAR) || k == ELEM_AT_LIMIT ||
	       k == ELEM_OVER_LIMIT;
}

bool elem_health_in_service(uint8_t h)
{
	enum elem_health_class k = elem_health_class(h);

	return k == ELEM_NOT_REPORTED || k == ELEM_OK || k == ELEM_AT_LIMIT ||
	       k == ELEM_OVER_LIMIT || k == ELEM_RESERVED;
}

int elem_parse_status(const uint8_t *buf, size_t len, bool ata, struct elem_status_hdr *hdr,
		      struct elem_desc *desc, size_t max, size_t *count)
{
	size_t avail, n;

	memset(hdr, 0, sizeof(*hdr));
	*count = 0;
	if (!buf || len < 16)
		return -EPROTO;
	hdr->total = field32(buf, ata);
	hdr->returned = field32(buf + 4, ata);
	hdr->depop_id = field32(buf + 8, ata);
	hdr->max_depop = field16(buf + 12, ata);
	hdr->depopulated = field16(buf + 14, ata);
	avail = len < ELEM_HDR_LEN ? 0 : (len - ELEM_HDR_LEN) / ELEM_DESC_LEN;
	n = avail < hdr->returned ? avail : hdr->returned;
	hdr->here = (uint32_t)n;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *d = buf + ELEM_HDR_LEN + i * ELEM_DESC_LEN;
		struct elem_desc *e = &desc[i];

		e->id = field32(d + 4, ata);
		e->restore_ok = d[13] & 0x01;
		e->type = d[14];
		e->health = d[15];
		e->capacity = field64(d + 16, ata);
	}
	*count = n;
	return 0;
}

static void sai16(uint8_t cdb[16], uint8_t sa)
{
	memset(cdb, 0, 16);
	cdb[0] = SCSI_SERVICE_ACTION_IN16;
	cdb[1] = sa & 0x1f;
}

unsigned elem_build_get_status(uint8_t cdb[16], uint32_t start, uint32_t alloc, uint8_t filter,
			       uint8_t report)
{
	sai16(cdb, SCSI_SAI_GET_ELEM_STATUS);
	sg_put_unaligned_be32(start, cdb + 6);
	sg_put_unaligned_be32(alloc, cdb + 10);
	cdb[14] = (uint8_t)((filter & 0x03) << 6 | (report & 0x0f));
	return 16;
}

unsigned elem_build_remove(uint8_t cdb[16], uint32_t element, uint64_t requested)
{
	sai16(cdb, SCSI_SAI_REMOVE_ELEM);
	sg_put_unaligned_be64(requested, cdb + 2);
	sg_put_unaligned_be32(element, cdb + 10);
	return 16;
}

unsigned elem_build_restore(uint8_t cdb[16])
{
	sai16(cdb, SCSI_SAI_RESTORE_ELEMS);
	return 16;
}

unsigned elem_build_remove_zones(uint8_t cdb[16], uint32_t element)
{
	sai16(cdb, SCSI_SAI_REMOVE_ELEM_ZONES);
	sg_put_unaligned_be32(element, cdb + 10);
	return 16;
}

static void tf_clear(struct ata_tf *tf, uint8_t command, enum ata_proto proto)
{
	memset(tf, 0, sizeof(*tf));
	tf->command = command;
	tf->proto = proto;
	tf->ext = true;
	tf->device = ATA_DEV_LBA;
}

void elem_tf_get_status(struct ata_tf *tf, uint32_t start, uint16_t pages, uint8_t filter,
			uint8_t report)
{
	tf_clear(tf, ATA_GET_PHYS_ELEM_STATUS, ATA_PROTO_DMA);
	tf->feature = (uint16_t)(((filter & 0x03) << 6 | (report & 0x0f)) << 8);
	tf->lba = start;
	tf->count = pages;
	tf->xfer_blocks = pages ? pages : 65536;
}

static void tf_element(struct ata_tf *tf, uint32_t element)
{
	tf->count = (uint16_t)(element & 0xffff);
	tf->feature = (uint16_t)(element >> 16);
}

void elem_tf_remove(struct ata_tf *tf, uint32_t element, uint64_t max_lba)
{
	tf_clear(tf, ATA_REMOVE_ELEM_TRUNCATE, ATA_PROTO_NON_DATA);
	tf_element(tf, element);
	tf->lba = max_lba & 0xffffffffffffULL;
}

void elem_tf_restore(struct ata_tf *tf)
{
	tf_clear(tf, ATA_RESTORE_ELEMS_REBUILD, ATA_PROTO_NON_DATA);
}

void elem_tf_remove_zones(struct ata_tf *tf, uint32_t element)
{
	tf_clear(tf, ATA_REMOVE_ELEM_ZONES, ATA_PROTO_NON_DATA);
	tf_element(tf, element);
}

uint32_t elem_tf_element(const struct ata_tf *tf)
{
	return (uint32_t)tf->feature << 16 | tf->count;
}
