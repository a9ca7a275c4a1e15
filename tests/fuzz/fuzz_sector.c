/*
 * fuzz_sector.c - the sector size parsers: VPD B7h (first byte even) and
 * the ATA Sector Configuration log (odd); the rest is the answer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "shortstroke/sector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sector_sizes s;
	int rc;

	if (size < 1)
		return 0;
	rc = data[0] & 1 ? sector_parse_ata_log(data + 1, size - 1, &s)
			 : sector_parse_vpd_b7(data + 1, size - 1, &s);
	if (rc == 0) {
		if (s.n > SECTOR_SIZES_MAX)
			abort();
		for (unsigned i = 0; i < s.n; i++)
			if (!s.s[i].bytes || sector_find(&s, s.s[i].bytes) == NULL)
				abort();
	}
	return 0;
}
