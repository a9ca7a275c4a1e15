/*
 * fuzz_sense.c - sense decoding (sg_lib underneath) and the one-line
 * description, on any input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/ata.h"
#include "shortstroke/sense.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scsi_sense s;
	char line[256], tiny[5];
	uint8_t *copy;
	int rc;

	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	rc = scsi_sense_decode(copy, size, &s);
	if (rc == 0 && !s.valid)
		abort();
	if (rc && s.valid)
		abort();
	if (s.progress_valid && s.progress > 65535)
		abort();
	if (s.ata_valid) {
		(void)ata_regs_lba(&s.ata, s.ata.ext);
		if (!s.ata.ext && (s.ata.count > 0xff || s.ata.lba > 0xffffff))
			abort();
	}
	scsi_sense_describe(&s, line, sizeof(line));
	if (strnlen(line, sizeof(line)) == sizeof(line))
		abort();
	scsi_sense_describe(&s, tiny, sizeof(tiny));
	if (strnlen(tiny, sizeof(tiny)) == sizeof(tiny))
		abort();
	free(copy);
	return 0;
}
