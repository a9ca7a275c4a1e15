/*
 * fuzz_zones.c - the zone list parser (both byte orders) and the summary.
 * The first byte picks ZBC (even) or ZAC (odd) and how many descriptors
 * the caller has room for; the rest is the answer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "shortstroke/zbc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zone_desc z[64];
	struct zone_list_hdr h;
	struct zone_summary s;
	size_t n, max;
	bool zac;

	if (size < 1)
		return 0;
	zac = data[0] & 1;
	max = (data[0] >> 1) % 65;
	if (zones_parse_list(data + 1, size - 1, zac, &h, z, max, &n) == 0) {
		if (n > max || n > h.here || h.here > h.total ||
		    64 + (size_t)h.here * 64 > size - 1)
			abort();
		zones_summarize(z, n, &s);
		if (s.zones != n)
			abort();
		for (size_t i = 0; i < n; i++) {
			zone_type_name(z[i].type);
			zone_cond_name(z[i].cond);
		}
	}
	return 0;
}
