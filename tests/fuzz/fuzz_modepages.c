/*
 * fuzz_modepages.c - the geometry mode page parsers (0x03, 0x04, 0x0C),
 * the Control page's self-test time and the notch MODE SELECT builder,
 * on pages found in a MODE SENSE (10) answer and on the raw input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/scsi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void pages(const uint8_t *p, size_t len)
{
	struct scsi_format_page f;
	struct scsi_rigid_page r;
	struct scsi_notch_page np;
	uint8_t out[512];
	uint16_t secs;
	size_t n;

	scsi_parse_format_page(p, len, &f);
	scsi_parse_rigid_page(p, len, &r);
	if (scsi_parse_notch_page(p, len, &np) == 0 &&
	    scsi_build_notch_select(p, len, 5, out, sizeof(out), &n) == 0) {
		if (n > sizeof(out) || n < 8 + 24 || n - 8 > len || out[8] & 0xc0)
			abort();
		if (scsi_parse_notch_page(out + 8, n - 8, &np) || np.active_notch != 5)
			abort();
	}
	scsi_parse_control_selftest_time(p, len, &secs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t codes[] = { MODE_PAGE_FORMAT, MODE_PAGE_RIGID, MODE_PAGE_NOTCH,
					 MODE_PAGE_CONTROL };
	struct scsi_mode10 m;
	const uint8_t *p;
	size_t plen;

	pages(data, size);
	if (scsi_parse_mode_sense10(data, size, &m))
		return 0;
	for (size_t i = 0; i < sizeof(codes); i++) {
		p = scsi_mode_find_page(data, size, &m, codes[i], 0, &plen);
		if (!p)
			continue;
		if (p < data || p + plen > data + size)
			abort();
		pages(p, plen);
	}
	return 0;
}
