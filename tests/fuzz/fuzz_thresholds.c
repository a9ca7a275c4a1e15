/* Fuzz the qualify thresholds parser: any bytes, never a crash, a leak or
 * a read past len; what parses formats and parses again to the same
 * values. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/qualify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qualify_thresholds t, u;
	struct ss_error err;
	char *copy = malloc(size ? size : 1), *text = NULL;

	if (!copy)
		return 0;
	memcpy(copy, data, size); /* exactly size bytes: no NUL after them */
	qualify_thresholds_default(&t);
	if (qualify_thresholds_parse(copy, size, "fuzz", &t, &err) == 0) {
		if (qualify_thresholds_format(&t, &text, &err) == 0) {
			memset(&u, 0, sizeof(u));
			if (qualify_thresholds_parse(text, strlen(text), "again", &u, &err))
				abort(); /* what we write, we read */
			if (memcmp(&t, &u, sizeof(t)))
				abort(); /* and it is the same */
			free(text);
		}
	}
	free(copy);
	return 0;
}
