/*
 * fuzz_ses.c - the SES codec: a configuration page (01h) and a second page
 * (02h, 07h or 0Ah, whichever its first byte says) parsed against it, every
 * slot's status, descriptor and the control page that would light it. The
 * first two bytes give the configuration page's share of the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "shortstroke/ses.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ses_addl a[SES_MAX_ADDL];
	static uint8_t out[8192];
	struct ses_slot_status st;
	struct ses_config c;
	const uint8_t *pg;
	size_t cl, pl, olen;
	unsigned n = 0, total = 0;
	char desc[64];

	if (size < 2)
		return 0;
	cl = ((size_t)data[0] << 8 | data[1]) % (size - 1);
	pg = data + 2 + cl;
	pl = size - 2 - cl;
	if (ses_parse_config(data + 2, cl, &c))
		return 0;
	if (c.ntypes > SES_MAX_TYPES)
		abort();
	for (unsigned t = 0; t < c.ntypes; t++)
		total += c.types[t].count;
	if (ses_parse_addl(pg, pl, &c, a, SES_MAX_ADDL, &n) == 0) {
		if (n > SES_MAX_ADDL)
			abort();
		for (unsigned i = 0; i < n; i++)
			if (!ses_elem_is_slot(&c, a[i].elem) || ses_elem_index(&c, a[i].elem) < 0 ||
			    a[i].nphys > 255)
				abort();
	}
	for (unsigned i = 0; i < total && i < 512; i++) {
		struct ses_elem e;

		if (ses_elem_at(&c, i, false, &e) || ses_elem_index(&c, e) != (int)i)
			abort();
		ses_parse_element_desc(pg, pl, &c, e, desc, sizeof(desc));
		if (ses_parse_slot_status(pg, pl, &c, e, &st) == 0) {
			ses_status_code_name(st.code);
			if (ses_build_slot_control(pg, pl, &c, e, 1, 0, out, sizeof(out), &olen) ==
				0 &&
			    (olen > pl || olen > sizeof(out) || !(out[0] == 0x02)))
				abort();
		}
	}
	return 0;
}
