/* Fuzz the plan-file parser: any bytes, never a crash, a leak or a read
 * past len; a plan that parses formats and parses again. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/planfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_error err;
	struct plan *p = NULL, *q = NULL;
	char *copy = malloc(size ? size : 1), *text = NULL;

	if (!copy)
		return 0;
	memcpy(copy, data, size); /* exactly size bytes: no NUL after them */
	if (planfile_parse(copy, size, "fuzz", &p, &err) == 0) {
		if (planfile_format(p, &text, &err) == 0) {
			if (planfile_parse(text, strlen(text), "again", &q, &err))
				abort(); /* what we write, we read */
			plan_free(q);
			free(text);
		}
		plan_free(p);
	}
	free(copy);
	return 0;
}
