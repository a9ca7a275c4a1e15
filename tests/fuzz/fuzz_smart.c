/*
 * fuzz_smart.c - the ATA SMART parsers (SMART data, self-test logs 0x06
 * and 0x07 as descriptors and as entries, summary error log) and
 * libatasmart through our blob.
 *
 * The input is cut into sectors: IDENTIFY, SMART data, thresholds, a
 * log (missing bytes are zero). IDENTIFY gets the "SMART supported and
 * enabled" bits forced, so that libatasmart goes past them; the last
 * byte picks the SMART status record (good, failing, none).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/ata_smart.h"
#include "shortstroke/smart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sector(const uint8_t *data, size_t size, unsigned i, uint8_t *out)
{
	size_t off = (size_t)i * 512;

	memset(out, 0, 512);
	if (off < size)
		memcpy(out, data + off, size - off < 512 ? size - off : 512);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t id[512], sd[512], thr[512], log[512], blob[SMART_BLOB_MAX];
	struct selftest_entry e[SELFTEST_LOG_MAX];
	struct ata_selftest_desc raw[64];
	struct ata_smart_errlog el;
	struct ata_smart_data d;
	struct smart_report r;
	size_t n, blen;
	int status;

	/* the parsers on the raw input: exact-size buffers catch overreads */
	ata_smart_parse_data(data, size, &d);
	if (smart_ata_parse_selftest_log(data, size, false, e, SELFTEST_LOG_MAX, &n) == 0 &&
	    n > SELFTEST_LOG_MAX)
		abort();
	if (smart_ata_parse_selftest_log(data, size, true, e, 5, &n) == 0 && n > 5)
		abort();
	/* the descriptors themselves, over every page of a long GPL log */
	if (ata_smart_parse_selftest_log(data, size, true, raw, 64, &n) == 0 && n > 64)
		abort();
	if (ata_smart_parse_error_log(data, size, &el) == 0 && el.count > 5)
		abort();

	sector(data, size, 0, id);
	sector(data, size, 1, sd);
	sector(data, size, 2, thr);
	sector(data, size, 3, log);
	id[164] |= 0x01; /* word 82 bit 0: SMART supported */
	id[170] |= 0x01; /* word 85 bit 0: SMART enabled */
	status = size ? (int)(data[size - 1] % 3) - 1 : -1;
	if (smart_ata_build_blob(id, sd, (size & 1) ? NULL : thr, status, blob, sizeof(blob),
				 &blen))
		abort();
	memset(&r, 0, sizeof(r));
	smart_ata_parse_selftest_log(log, sizeof(log), false, r.selftests, SELFTEST_LOG_MAX,
				     &r.nselftests);
	if (smart_ata_evaluate(blob, blen, &r, NULL) == 0) {
		char txt[64];

		if (r.verdict > SMART_FAILED)
			abort();
		for (size_t i = 0; i < r.nattrs; i++)
			smart_attr_pretty(&r.attrs[i], txt, sizeof(txt));
	}
	smart_report_fini(&r);
	return 0;
}
