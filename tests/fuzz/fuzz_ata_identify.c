/*
 * fuzz_ata_identify.c - the IDENTIFY DEVICE parser on any input, and the
 * ATA string helper on whatever 512 bytes there are.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/ata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ata_identify id;
	uint8_t *copy;

	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (ata_parse_identify(copy, size, &id) == 0 || size >= 512) {
		if (strnlen(id.model, sizeof(id.model)) == sizeof(id.model) ||
		    strnlen(id.serial, sizeof(id.serial)) == sizeof(id.serial) ||
		    strnlen(id.firmware, sizeof(id.firmware)) == sizeof(id.firmware))
			abort();
		if (id.logical_size < 512 || id.physical_size < id.logical_size)
			abort();
	}
	free(copy);
	return 0;
}
