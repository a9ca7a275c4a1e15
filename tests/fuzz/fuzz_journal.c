/* Fuzz the journal line parser: any bytes, never a crash or a read past len. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal_entry e;
	struct ss_error err;
	char *copy = malloc(size + 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size); /* the parser is given a length, not a C string */
	copy[size] = '\0';
	journal_parse_line(copy, size, &e, &err);
	free(copy);
	return 0;
}
