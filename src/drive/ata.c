/*
 * ata.c - ATA commands as task files (pure: fill a struct ata_tf and
 * nothing else) and the IDENTIFY DEVICE parser (ACS-3 / ACS-4 words).
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/ata.h"

#define ATA_DEV_LBA 0x40	       /* device register: LBA mode */
#define SMART_LBA_MID_HIGH 0xc24f00ULL /* SMART signature in LBA 23:8 */
#define ID_MAX_SECTOR_WORDS 0x8000     /* 64 KiB logical sectors at most */

static void tf_init(struct ata_tf *tf, uint8_t command, enum ata_proto proto, bool ext);
static void tf_set_lba28(struct ata_tf *tf, uint64_t lba);
static uint16_t id_word(const uint8_t *buf, unsigned w);
static uint32_t id_dword(const uint8_t *buf, unsigned w);
static uint64_t id_qword(const uint8_t *buf, unsigned w);
static bool id_valid(uint16_t w);

static void tf_init(struct ata_tf *tf, uint8_t command, enum ata_proto proto, bool ext)
{
	memset(tf, 0, sizeof(*tf));
	tf->command = command;
	tf->proto = proto;
	tf->ext = ext;
}

/* 28-bit addressing: LBA 23:0 in the LBA registers, 27:24 in device 3:0. */
static void tf_set_lba28(struct ata_tf *tf, uint64_t lba)
{
	tf->lba = lba & 0x00ffffff;
	tf->device = (uint8_t)(ATA_DEV_LBA | ((lba >> 24) & 0x0f));
}

void ata_tf_identify(struct ata_tf *tf)
{
	tf_init(tf, ATA_IDENTIFY, ATA_PROTO_PIO_IN, false);
	tf->count = 1;
	tf->xfer_blocks = 1;
}

void ata_tf_read_native_max(struct ata_tf *tf, bool ext)
{
	tf_init(tf, ext ? ATA_READ_NATIVE_MAX_EXT : ATA_READ_NATIVE_MAX, ATA_PROTO_NON_DATA, ext);
	tf->device = ATA_DEV_LBA;
}

void ata_tf_set_max_address(struct ata_tf *tf, bool ext, uint64_t max_lba, bool volatile_)
{
	tf_init(tf, ext ? ATA_SET_MAX_EXT : ATA_SET_MAX, ATA_PROTO_NON_DATA, ext);
	/* COUNT bit 0 is VV (value volatile): set = keep over power cycles */
	tf->count = volatile_ ? 0 : 1;
	if (ext) {
		tf->lba = max_lba & 0xffffffffffffULL;
		tf->device = ATA_DEV_LBA;
	} else {
		tf_set_lba28(tf, max_lba);
	}
}

void ata_tf_set_max_freeze_lock(struct ata_tf *tf)
{
	tf_init(tf, ATA_SET_MAX, ATA_PROTO_NON_DATA, false);
	tf->feature = 0x04;
}

void ata_tf_amac_get_native(struct ata_tf *tf)
{
	tf_init(tf, ATA_AMAC, ATA_PROTO_NON_DATA, true);
	tf->feature = 0x0000;
	tf->device = ATA_DEV_LBA;
}

void ata_tf_amac_set_accessible(struct ata_tf *tf, uint64_t max_lba)
{
	tf_init(tf, ATA_AMAC, ATA_PROTO_NON_DATA, true);
	tf->feature = 0x0001;
	tf->lba = max_lba & 0xffffffffffffULL;
	tf->device = ATA_DEV_LBA;
}

void ata_tf_amac_freeze(struct ata_tf *tf)
{
	tf_init(tf, ATA_AMAC, ATA_PROTO_NON_DATA, true);
	tf->feature = 0x0002;
	tf->device = ATA_DEV_LBA;
}

void ata_tf_dco_identify(struct ata_tf *tf)
{
	tf_init(tf, ATA_DCO, ATA_PROTO_PIO_IN, false);
	tf->feature = 0xc2;
	tf->count = 1; /* SAT takes T_LENGTH from the count field */
	tf->xfer_blocks = 1;
}

void ata_tf_dco_restore(struct ata_tf *tf)
{
	tf_init(tf, ATA_DCO, ATA_PROTO_NON_DATA, false);
	tf->feature = 0xc0;
}

void ata_tf_dco_freeze(struct ata_tf *tf)
{
	tf_init(tf, ATA_DCO, ATA_PROTO_NON_DATA, false);
	tf->feature = 0xc1;
}

void ata_tf_dco_set(struct ata_tf *tf)
{
	tf_init(tf, ATA_DCO, ATA_PROTO_PIO_OUT, false);
	tf->feature = 0xc3;
	tf->count = 1;
	tf->xfer_blocks = 1;
	tf->write = true;
}

void ata_tf_smart(struct ata_tf *tf, uint8_t feature, uint8_t lba_low, uint8_t count)
{
	tf_init(tf, ATA_SMART, ATA_PROTO_NON_DATA, false);
	tf->feature = feature;
	tf->count = count;
	tf->lba = SMART_LBA_MID_HIGH | lba_low;
	switch (feature) {
	case 0xd0: /* READ DATA */
	case 0xd1: /* READ THRESHOLDS (obsolete, still common) */
		tf->proto = ATA_PROTO_PIO_IN;
		tf->count = 1; /* one block, whatever count said */
		tf->xfer_blocks = 1;
		break;
	case 0xd5: /* READ LOG */
		tf->proto = ATA_PROTO_PIO_IN;
		tf->xfer_blocks = count;
		break;
	case 0xd6: /* WRITE LOG */
		tf->proto = ATA_PROTO_PIO_OUT;
		tf->xfer_blocks = count;
		tf->write = true;
		break;
	default: /* 0xd4 EXECUTE OFFLINE, 0xd8/0xd9 enable/disable, 0xda STATUS */
		break;
	}
}

void ata_tf_read_log_ext(struct ata_tf *tf, uint8_t log, uint16_t page, uint16_t blocks)
{
	tf_init(tf, ATA_READ_LOG_EXT, ATA_PROTO_PIO_IN, true);
	tf->count = blocks;
	/* LBA 7:0 log address, 15:8 page 7:0, 39:32 page 15:8 */
	tf->lba = (uint64_t)log | (uint64_t)(page & 0xff) << 8 | (uint64_t)(page >> 8) << 32;
	tf->xfer_blocks = blocks ? blocks : 65536;
}

void ata_tf_security_freeze_lock(struct ata_tf *tf)
{
	tf_init(tf, ATA_SECURITY_FREEZE_LOCK, ATA_PROTO_NON_DATA, false);
}

void ata_tf_check_power_mode(struct ata_tf *tf)
{
	tf_init(tf, ATA_CHECK_POWER_MODE, ATA_PROTO_NON_DATA, false);
}

void ata_tf_flush_cache_ext(struct ata_tf *tf)
{
	tf_init(tf, ATA_FLUSH_CACHE_EXT, ATA_PROTO_NON_DATA, true);
}

void ata_tf_read_verify_ext(struct ata_tf *tf, uint64_t lba, uint32_t blocks)
{
	tf_init(tf, ATA_READ_VERIFY_EXT, ATA_PROTO_NON_DATA, true);
	tf->count = (uint16_t)blocks; /* 65536 -> 0 */
	tf->lba = lba & 0xffffffffffffULL;
	tf->device = ATA_DEV_LBA;
}

void ata_tf_report_zones_ext(struct ata_tf *tf, uint64_t start_lba, uint16_t pages, uint8_t options,
			     bool partial)
{
	tf_init(tf, ATA_ZAC_MGMT_IN, ATA_PROTO_DMA, true);
	/* FEATURE 7:0 action 0x00 REPORT ZONES, 15:8 PARTIAL + options */
	tf->feature = (uint16_t)(((partial ? 0x80 : 0) | (options & 0x3f)) << 8);
	tf->count = pages;
	tf->lba = start_lba & 0xffffffffffffULL;
	tf->device = ATA_DEV_LBA;
	tf->xfer_blocks = pages ? pages : 65536;
}

void ata_tf_dsm_trim(struct ata_tf *tf, uint16_t pages)
{
	tf_init(tf, ATA_DSM, ATA_PROTO_DMA, true);
	tf->feature = 0x0001; /* TRIM */
	tf->count = pages;
	tf->device = ATA_DEV_LBA;
	tf->write = true;
	tf->xfer_blocks = pages;
}

uint64_t ata_dsm_trim_ranges(uint8_t *buf, size_t len, uint64_t lba, uint64_t blocks)
{
	uint64_t done = 0;
	size_t i;

	memset(buf, 0, len);
	for (i = 0; i + 8 <= len && done < blocks; i += 8) {
		uint64_t n = blocks - done > 0xffff ? 0xffff : blocks - done;
		uint64_t e = ((lba + done) & 0xffffffffffffULL) | (n << 48);

		for (unsigned b = 0; b < 8; b++)
			buf[i + b] = (uint8_t)(e >> (8 * b));
		done += n;
	}
	return done;
}

uint64_t ata_regs_lba(const struct ata_regs *r, bool ext)
{
	if (ext)
		return r->lba & 0xffffffffffffULL;
	return (r->lba & 0x00ffffff) | (uint64_t)(r->device & 0x0f) << 24;
}

/* ---- IDENTIFY DEVICE --------------------------------------------------- */

/* IDENTIFY data: little-endian words, numbered from 0 */
static uint16_t id_word(const uint8_t *buf, unsigned w)
{
	return sg_get_unaligned_le16(buf + 2 * w);
}

static uint32_t id_dword(const uint8_t *buf, unsigned w)
{
	return sg_get_unaligned_le32(buf + 2 * w);
}

static uint64_t id_qword(const uint8_t *buf, unsigned w)
{
	return sg_get_unaligned_le64(buf + 2 * w);
}

/* Words 83, 84, 87, 106, 119...: bit 15 clear and bit 14 set = valid. */
static bool id_valid(uint16_t w)
{
	return (w & 0xc000) == 0x4000;
}

void ata_id_string(const uint8_t *buf, unsigned word, unsigned nwords, char *out, size_t outlen)
{
	char tmp[128];
	size_t n = 0, start = 0, end, i, o = 0;

	if (!outlen)
		return;
	/* each word holds two characters, the first in the high byte */
	for (i = 0; i < nwords && n + 2 <= sizeof(tmp); i++) {
		tmp[n++] = (char)buf[2 * (word + i) + 1];
		tmp[n++] = (char)buf[2 * (word + i)];
	}
	end = n;
	while (start < end && (tmp[start] == ' ' || tmp[start] == '\0'))
		start++;
	while (end > start && (tmp[end - 1] == ' ' || tmp[end - 1] == '\0'))
		end--;
	for (i = start; i < end && o + 1 < outlen; i++) {
		unsigned char c = (unsigned char)tmp[i];

		out[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	out[o] = '\0';
}

static uint8_t sum511(const uint8_t *buf)
{
	uint8_t sum = 0;

	for (unsigned i = 0; i < 511; i++)
		sum = (uint8_t)(sum + buf[i]);
	return sum;
}

bool ata_checksum_ok(const uint8_t *buf)
{
	return (uint8_t)(sum511(buf) + buf[511]) == 0;
}

void ata_checksum_set(uint8_t *buf)
{
	buf[511] = (uint8_t)(0x100 - sum511(buf));
}

int ata_parse_identify(const uint8_t *buf, size_t len, struct ata_identify *out)
{
	uint16_t w69, w83, w84, w85, w86, w87, w106, w119, w128, w255;
	bool v82, v84, bad = false;

	memset(out, 0, sizeof(*out));
	if (!buf || len < 512)
		return -EPROTO;

	ata_id_string(buf, 10, 10, out->serial, sizeof(out->serial));
	ata_id_string(buf, 23, 4, out->firmware, sizeof(out->firmware));
	ata_id_string(buf, 27, 20, out->model, sizeof(out->model));

	w69 = id_word(buf, 69);
	w83 = id_word(buf, 83);
	w84 = id_word(buf, 84);
	w85 = id_word(buf, 85);
	w86 = id_word(buf, 86);
	w87 = id_word(buf, 87);
	w106 = id_word(buf, 106);
	w119 = id_word(buf, 119);
	w128 = id_word(buf, 128);
	w255 = id_word(buf, 255);

	/* words 82/83 are valid when 83 says so; 84 likewise, 85-87 by 87 */
	v82 = id_valid(w83);
	v84 = id_valid(w84);
	if (v82) {
		uint16_t w82 = id_word(buf, 82);

		out->smart_supported = w82 & 0x0001;
		out->sec_supported = w82 & 0x0002;
		out->hpa_supported = w82 & 0x0400;
		out->lba48 = w83 & 0x0400;
		out->dco_supported = w83 & 0x0800;
	}
	if (v84) {
		out->smart_selftest = w84 & 0x0002;
		out->gpl = w84 & 0x0020;
	}
	if (id_valid(w87)) {
		out->smart_enabled = w85 & 0x0001;
		out->hpa_enabled = w85 & 0x0400;
		if (!out->lba48)
			out->lba48 = w86 & 0x0400;
	}
	if ((w86 & 0x8000) && id_valid(w119))
		out->amac_supported = w119 & 0x0100;

	out->major_version = id_word(buf, 80);
	out->zoned = w69 & 0x3;
	out->ncq = id_word(buf, 76) & 0x0100;
	if (out->ncq)
		out->ncq_depth = (uint8_t)((id_word(buf, 75) & 0x1f) + 1);

	/* word 128: security status */
	out->sec_supported = out->sec_supported || (w128 & 0x0001);
	out->sec_enabled = w128 & 0x0002;
	out->sec_locked = w128 & 0x0004;
	out->sec_frozen = w128 & 0x0008;
	out->sec_count_expired = w128 & 0x0010;

	out->capacity28 = id_dword(buf, 60) & 0x0fffffff;
	out->capacity48 = id_qword(buf, 100) & 0xffffffffffffULL;
	if (w69 & 0x0008)
		out->capacity_ext = id_qword(buf, 230) & 0xffffffffffffULL;
	if (out->capacity_ext)
		out->capacity = out->capacity_ext;
	else if (out->lba48 && out->capacity48)
		out->capacity = out->capacity48;
	else
		out->capacity = out->capacity28;

	/* word 106: logical / physical sector size */
	out->logical_size = 512;
	out->physical_size = 512;
	if (id_valid(w106)) {
		if (w106 & 0x1000) {
			uint32_t words = id_dword(buf, 117);

			/* "longer than 256 words"; beyond 64 KiB is garbage */
			if (words < 256 || words > ID_MAX_SECTOR_WORDS)
				bad = true;
			else
				out->logical_size = words * 2;
		}
		out->physical_size = out->logical_size;
		if (w106 & 0x2000)
			out->physical_size = out->logical_size << (w106 & 0x0f);
	}

	/* words 108-111: WWN, NAA in the top nibble of word 108 */
	if (v84 && (w84 & 0x0100))
		out->wwn = (uint64_t)id_word(buf, 108) << 48 | (uint64_t)id_word(buf, 109) << 32 |
			   (uint64_t)id_word(buf, 110) << 16 | id_word(buf, 111);

	out->form_factor = id_word(buf, 168) & 0x0f;
	out->rotation_rate = id_word(buf, 217);
	out->trim = id_word(buf, 169) & 0x0001;
	out->trim_drat = out->trim && (id_word(buf, 69) & 0x4000);
	out->trim_rzat = out->trim && (id_word(buf, 69) & 0x0020);
	out->dsm_max_pages = id_word(buf, 105) == 0xffff ? 0 : id_word(buf, 105);

	/* word 255: signature 0xa5 in 7:0, then all 512 bytes sum to 0 */
	out->checksum_valid = true;
	if ((w255 & 0xff) == 0xa5 && !ata_checksum_ok(buf)) {
		out->checksum_valid = false;
		return -EPROTO;
	}
	return bad ? -EPROTO : 0;
}
