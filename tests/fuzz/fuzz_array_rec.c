/* Fuzz the array record's reader (state_dir/arrays/NAME.json, which undo,
 * replace and list trust): any bytes, never a crash, a leak or a read past
 * len; a record that reads writes a text that reads again the same. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/array.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct array_rec r, again; /* large: not on the stack */
	struct ss_error err;
	char *copy = malloc(size ? size : 1), *text, *text2;

	if (!copy)
		return 0;
	memcpy(copy, data, size); /* exactly size bytes: no NUL after them */
	if (array_rec_parse(copy, size, "fuzz", &r, &err) == 0) {
		text = array_rec_text(&r);
		if (!text)
			abort();
		if (array_rec_parse(text, strlen(text), "again", &again, &err))
			abort(); /* what we write, we read */
		text2 = array_rec_text(&again);
		if (!text2 || strcmp(text, text2))
			abort(); /* and the same */
		free(text2);
		free(text);
	}
	free(copy);
	return 0;
}
