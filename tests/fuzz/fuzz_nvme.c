/*
 * fuzz_nvme.c - the NVMe parsers fed one answer: Identify Controller and
 * Namespace, the SMART / Health log, the Device Self-test log and the
 * namespace list must stay inside the buffer, keep their counts within
 * their arrays and give only block sizes that are powers of two.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/nvme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvme_ctrl_info ci;
	struct nvme_ns_info ns;
	struct nvme_health h;
	struct nvme_st_log st;
	uint32_t list[16];
	char text[256];
	/* a short answer is what the transport leaves of a whole structure */
	uint8_t *buf = calloc(1, NVME_ID_LEN);

	if (!buf)
		return 0;
	memcpy(buf, data, size < NVME_ID_LEN ? size : NVME_ID_LEN);
	if (nvme_parse_id_ctrl(data, size, &ci) == 0 &&
	    (strlen(ci.serial) > 20 || strlen(ci.model) > 40 || strlen(ci.firmware) > 8))
		abort();
	if (nvme_parse_id_ns(buf, NVME_ID_LEN, &ns) == 0) {
		if (ns.nlbaf < 1 || ns.nlbaf > NVME_LBAF_MAX)
			abort();
		for (unsigned i = 0; i < ns.nlbaf; i++)
			if (ns.lbaf[i].bytes & (ns.lbaf[i].bytes - 1))
				abort();
	}
	if (nvme_parse_smart_log(data, size, &h) == 0) {
		nvme_critical_warning_text(h.critical_warning, text, sizeof(text));
		if (strlen(text) >= sizeof(text))
			abort();
	}
	if (nvme_parse_st_log(data, size, &st) == 0) {
		if (st.n > NVME_ST_LOG_ENTRIES)
			abort();
		for (unsigned i = 0; i < st.n; i++)
			if (!nvme_st_result_text(st.e[i].result))
				abort();
	}
	if (nvme_parse_ns_list(data, size, list, 16) > 16)
		abort();
	free(buf);
	return 0;
}
