/*
 * ata_smart.c - parsers of what the ATA SMART commands return (ACS-3):
 * SMART READ DATA, the self-test logs, the summary error log and the
 * RETURN STATUS registers. Every read is within the 512 bytes checked
 * first.
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/ata_smart.h"

int ata_smart_parse_data(const uint8_t *buf, size_t len, struct ata_smart_data *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < ATA_SMART_SECTOR)
		return -EPROTO;
	out->offline_status = buf[362];
	out->selftest_byte = buf[363];
	out->offline_seconds = sg_get_unaligned_le16(buf + 364);
	out->offline_caps = buf[367];
	out->smart_caps = sg_get_unaligned_le16(buf + 368);
	out->errlog_supported = buf[370] & 0x01;
	out->abort_supported = buf[367] & 0x01;
	out->selftest_supported = buf[367] & 0x10;
	out->conveyance_supported = buf[367] & 0x20;
	out->short_minutes = buf[372];
	out->extended_minutes = buf[373] == 0xff ? sg_get_unaligned_le16(buf + 375) : buf[373];
	out->conveyance_minutes = buf[374];
	out->checksum_ok = ata_checksum_ok(buf);
	return 0;
}

const char *ata_smart_selftest_status_text(uint8_t status)
{
	switch (status) {
	case 0x0:
		return "completed without error";
	case 0x1:
		return "aborted by the host";
	case 0x2:
		return "interrupted by a reset";
	case 0x3:
		return "fatal error: the test could not complete";
	case 0x4:
		return "an unknown test element failed";
	case 0x5:
		return "the electrical element failed";
	case 0x6:
		return "the servo/seek element failed";
	case 0x7:
		return "the read element failed";
	case 0x8:
		return "handling damage suspected";
	case ATA_SELFTEST_IN_PROGRESS:
		return "in progress";
	default:
		return "reserved status";
	}
}

/*
 * Log 06h: revision (0-1), 21 descriptors of 24 bytes from byte 2,
 * descriptor index at 508. Log 07h (per 512-byte page): revision (0),
 * descriptor index (2-3, over the whole log), 19 descriptors of 26 bytes
 * from byte 4. Descriptor: test (LBA low) 0, status 1, life timestamp
 * 2-3, checkpoint 4, failing LBA 5-8 (06h) or 5-10 (07h).
 */
int ata_smart_parse_selftest_log(const uint8_t *buf, size_t len, bool ext,
				 struct ata_selftest_desc *out, size_t max, size_t *count)
{
	size_t slots, dlen, index, pages;

	*count = 0;
	if (!buf || len < ATA_SMART_SECTOR)
		return -EPROTO;
	pages = len / ATA_SMART_SECTOR;
	if (ext) {
		slots = 19 * pages;
		dlen = 26;
		index = sg_get_unaligned_le16(buf + 2);
	} else {
		slots = 21;
		dlen = 24;
		index = buf[508];
	}
	if (index == 0)
		return 0; /* no descriptor written yet */
	if (index > slots)
		index = slots; /* the newest is beyond what we read */
	for (size_t k = 0; k < slots && *count < max; k++) {
		size_t slot = (index - 1 + slots - k) % slots;
		struct ata_selftest_desc *o = &out[*count];
		const uint8_t *d;

		if (ext)
			d = buf + (slot / 19) * ATA_SMART_SECTOR + 4 + (slot % 19) * dlen;
		else
			d = buf + 2 + slot * dlen;
		if (d[0] == 0 && d[1] == 0)
			continue; /* unused */
		memset(o, 0, sizeof(*o));
		o->test = d[0];
		o->status = d[1];
		o->hours = sg_get_unaligned_le16(d + 2);
		if (ext) {
			o->lba = sg_get_unaligned_le48(d + 5);
			o->lba_unset = o->lba == 0xffffffffffffULL;
		} else {
			o->lba = sg_get_unaligned_le32(d + 5);
			o->lba_unset = o->lba == 0xffffffffULL || o->lba == 0x0fffffffULL;
		}
		(*count)++;
	}
	return 0;
}

/*
 * Summary error log (01h): version 0, index of the newest error data
 * structure 1 (1..5, 0 none), five structures of 90 bytes from byte 2,
 * device error count 452-453. A structure: five 12-byte command
 * structures (the fifth the failing command: features 1, command 7),
 * then error 61, count 62, LBA 63-65, device 66, status 67, state 87,
 * life timestamp 88-89.
 */
int ata_smart_parse_error_log(const uint8_t *buf, size_t len, struct ata_smart_errlog *out)
{
	unsigned index;

	memset(out, 0, sizeof(*out));
	if (!buf || len < ATA_SMART_SECTOR)
		return -EPROTO;
	out->error_count = sg_get_unaligned_le16(buf + 452);
	out->checksum_ok = ata_checksum_ok(buf);
	index = buf[1];
	if (index == 0 || index > 5)
		return 0;
	for (unsigned k = 0; k < 5; k++) {
		unsigned slot = (index - 1 + 5 - k) % 5;
		const uint8_t *s = buf + 2 + slot * 90;
		const uint8_t *cmd = s + 4 * 12;
		const uint8_t *e = s + 60;
		struct ata_smart_error *o;
		bool used = false;

		for (unsigned i = 0; i < 90; i++)
			used = used || s[i];
		if (!used)
			continue;
		o = &out->e[out->count++];
		o->feature = cmd[1];
		o->command = cmd[7];
		o->error = e[1];
		o->status = e[7];
		o->lba = sg_get_unaligned_le24(e + 3) | (uint32_t)(e[6] & 0x0f) << 24;
		o->state = e[27];
		o->power_on_hours = sg_get_unaligned_le16(e + 28);
	}
	return 0;
}

int ata_smart_status_from_regs(const struct ata_regs *r)
{
	uint8_t mid = (uint8_t)(r->lba >> 8), high = (uint8_t)(r->lba >> 16);

	if (mid == 0x4f && high == 0xc2)
		return 1;
	if (mid == 0xf4 && high == 0x2c)
		return 0;
	return -EPROTO;
}

int ata_smart_build_selective_log(uint8_t buf[ATA_SMART_SECTOR], const uint64_t *first,
				  const uint64_t *last, unsigned n)
{
	if (n > ATA_SELECTIVE_SPANS)
		return -EINVAL;
	memset(buf, 0, ATA_SMART_SECTOR);
	sg_put_unaligned_le16(1, buf); /* data structure revision */
	for (unsigned i = 0; i < n; i++) {
		sg_put_unaligned_le64(first[i], buf + 2 + 16 * i);
		sg_put_unaligned_le64(last[i], buf + 10 + 16 * i);
	}
	ata_checksum_set(buf);
	return 0;
}
