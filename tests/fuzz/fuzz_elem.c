/*
 * fuzz_elem.c - the GET PHYSICAL ELEMENT STATUS parser (both byte orders)
 * and the health names. The first byte picks SCSI (even) or ATA (odd) and
 * how many descriptors the caller has room for; the rest is the answer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "shortstroke/elem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elem_desc d[32];
	struct elem_status_hdr h;
	size_t n, max;
	bool ata;

	if (size < 1)
		return 0;
	ata = data[0] & 1;
	max = (data[0] >> 1) % 33;
	if (elem_parse_status(data + 1, size - 1, ata, &h, d, max, &n) == 0) {
		if (n > max || n > h.here || h.here > h.returned ||
		    (h.here && 32 + (size_t)h.here * 32 > size - 1))
			abort();
		for (size_t i = 0; i < n; i++) {
			if (!elem_health_name(d[i].health))
				abort();
			(void)elem_health_near_limit(d[i].health);
		}
	}
	return 0;
}
