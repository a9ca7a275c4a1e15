/*
 * fuzz_logpage.c - every LOG SENSE page parser, fed the same answer: the
 * generic walk and each typed accessor must stay inside the buffer and
 * keep their counts within their arrays.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "shortstroke/logpage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct log_page pg;
	struct log_param p;
	struct log_supported sup;
	struct log_errors e;
	struct log_non_medium nm;
	struct log_temperature t;
	struct log_start_stop ss;
	struct log_selftest st;
	struct log_bgscan bg;
	struct log_ie ie;
	size_t off = 0;
	uint64_t v;

	if (logpage_parse(data, size, &pg) == 0) {
		if (4 + pg.len > size)
			abort();
		while (logpage_next_param(&pg, &off, &p) == 1) {
			if (p.val < data || p.val + p.len > data + size)
				abort();
			log_param_u64(&p, &v);
		}
	}
	if (logpage_parse_supported(data, size, &sup) == 0 && sup.count > sizeof(sup.pages))
		abort();
	logpage_parse_errors(data, size, &e);
	logpage_parse_non_medium(data, size, &nm);
	logpage_parse_temperature(data, size, &t);
	logpage_parse_start_stop(data, size, &ss);
	if (logpage_parse_selftest(data, size, &st) == 0 && st.count > LOG_SELFTEST_ENTRIES)
		abort();
	if (logpage_parse_bg_scan(data, size, &bg) == 0 &&
	    (bg.count > LOG_BGSCAN_MAX || bg.count > bg.total))
		abort();
	logpage_parse_ie(data, size, &ie);
	return 0;
}
