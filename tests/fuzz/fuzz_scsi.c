/*
 * fuzz_scsi.c - every SCSI answer parser (INQUIRY, VPD, READ CAPACITY, MODE
 * SENSE, READ DEFECT DATA, Block Limits and Logical Block Provisioning),
 * fed from one input. The first
 * byte selects the parser, the rest is the device's answer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/scsi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_mode(const uint8_t *buf, size_t len)
{
	static const uint8_t want[][2] = {
		{ 0x08, 0 }, { 0x0a, 0 }, { 0x0a, 1 }, { 0x1c, 0 }, { 0x03, 0 }, { 0x04, 0 },
	};
	struct scsi_mode10 m;
	const uint8_t *p;
	uint8_t out[512];
	size_t plen, n, i;

	if (scsi_parse_mode_sense10(buf, len, &m) == 0) {
		for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			p = scsi_mode_find_page(buf, len, &m, want[i][0], want[i][1], &plen);
			/* the page must lie inside the answer */
			if (p && (p < buf + m.pages_off || p + plen > buf + len))
				abort();
		}
	}
	if (scsi_mode_set_bd_blocks(buf, len, 1000000, out, sizeof(out), &n) == 0 &&
	    (n > sizeof(out) || n > len || out[0] || out[1]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scsi_inquiry inq;
	struct scsi_devid id;
	struct scsi_bdc bdc;
	struct scsi_capacity cap;
	struct scsi_defect_list dl;
	struct scsi_block_limits bl;
	struct scsi_lbp lbp;
	uint8_t pages[64];
	unsigned count;
	char serial[64];
	const uint8_t *buf;
	uint8_t *copy;
	size_t len;

	if (!size)
		return 0;
	/* an exact-size heap copy, so that ASan sees any read past len */
	len = size - 1;
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, len);
	buf = copy;

	switch (data[0] % 12) {
	case 0:
		scsi_parse_inquiry(buf, len, &inq);
		break;
	case 1:
		if (scsi_parse_vpd_supported(buf, len, pages, sizeof(pages), &count) == 0 &&
		    count > sizeof(pages))
			abort();
		break;
	case 2:
		if (scsi_parse_vpd_serial(buf, len, serial, sizeof(serial)) == 0 &&
		    strlen(serial) >= sizeof(serial))
			abort();
		break;
	case 3:
		if (scsi_parse_vpd_devid(buf, len, &id) == 0 &&
		    strnlen(id.lu_id, sizeof(id.lu_id)) == sizeof(id.lu_id))
			abort();
		break;
	case 4:
		scsi_parse_vpd_bdc(buf, len, &bdc);
		break;
	case 5:
		scsi_parse_read_capacity10(buf, len, &cap);
		break;
	case 6:
		scsi_parse_read_capacity16(buf, len, &cap);
		break;
	case 8:
	case 9:
		/* READ DEFECT DATA (10) / (12): the count never exceeds what the
		 * length says */
		if (scsi_parse_defect_header(buf, len, data[0] % 12 == 9, &dl) == 0 &&
		    dl.count_known && (uint64_t)dl.count * dl.desc_len > dl.length)
			abort();
		break;
	case 10:
		scsi_parse_vpd_block_limits(buf, len, &bl);
		break;
	case 11:
		/* LBPRZ is a 3-bit field */
		if (scsi_parse_vpd_lbp(buf, len, &lbp) == 0 && (lbp.lbprz > 7 || lbp.ptype > 7))
			abort();
		break;
	default:
		fuzz_mode(buf, len);
		break;
	}
	free(copy);
	return 0;
}
