/*
 * fuzz_cpr.c - the concurrent positioning ranges parsers: the first byte
 * picks the ATA log (even) or the VPD page (odd); the rest is the answer.
 * What parses must hold no more than CPR_MAX ranges, build back into the
 * same ranges, and answer the checks without reading past them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/cpr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpr_ranges r, back;
	uint8_t buf[CPR_HDR + CPR_MAX * CPR_DESC + 512];
	size_t n;
	int rc;

	if (size < 1)
		return 0;
	rc = data[0] & 1 ? cpr_parse_vpd(data + 1, size - 1, &r)
			 : cpr_parse_ata_log(data + 1, size - 1, &r);
	if (rc)
		return 0;
	if (r.n > CPR_MAX)
		abort();
	n = data[0] & 1 ? cpr_build_vpd(&r, buf, sizeof(buf))
			: cpr_build_ata_log(&r, buf, sizeof(buf));
	if (!n)
		abort();
	if ((data[0] & 1 ? cpr_parse_vpd(buf, n, &back) : cpr_parse_ata_log(buf, n, &back)) ||
	    memcmp(&r, &back, sizeof(r)))
		abort();
	cpr_valid(&r, 0);
	if (r.n && cpr_range_of(&r, r.r[0].lba) < 0 && r.r[0].blocks)
		abort();
	return 0;
}
