/*
 * fuzz_protect.c - the protect file parser on any bytes, then the matcher
 * on what it accepted: never a crash, a read past len, or an entry that
 * does not match itself.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/protect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct protect_list *l = NULL;
	struct ss_error err;
	enum protect_kind kind;
	const char *value;
	unsigned line, last = 0;
	char *copy;

	/* an exact-size copy, so ASan sees a read past the length */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (protect_parse(copy, size, "fuzz", &l, &err) == 0) {
		for (size_t i = 0; i < protect_count(l); i++) {
			if (protect_get(l, i, &kind, &value, &line) != 0)
				abort();
			if (!*value || line <= last)
				abort();
			last = line;
			/* every entry protects what it names */
			if (kind != PROTECT_WWN && !protect_match(l, value, NULL))
				abort();
			if (kind == PROTECT_WWN && !protect_match(l, NULL, value))
				abort();
		}
		{
			char s[80];
			size_t n = size < sizeof(s) - 1 ? size : sizeof(s) - 1;

			memcpy(s, data, n);
			s[n] = '\0';
			protect_match(l, s, s);
		}
		protect_free(l);
	} else if (l != NULL || err.code >= 0 || !err.msg[0]) {
		abort();
	}
	free(copy);
	return 0;
}
