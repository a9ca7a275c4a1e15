/*
 * fuzz_config.c - the configuration file parser on any bytes: never a crash
 * or a read past len; what it accepts is what a configuration file may
 * hold (absolute paths, a method it knows, an alignment above 0).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/capacity.h"
#include "shortstroke/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_config cfg;
	struct ss_error err;
	enum cap_method m;
	char *copy;

	/* an exact-size copy, so ASan sees a read past the length */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (config_parse(copy, size, "fuzz", &cfg, &err) == 0) {
		if ((cfg.state_dir[0] && cfg.state_dir[0] != '/') ||
		    (cfg.protect_file[0] && cfg.protect_file[0] != '/'))
			abort();
		if (cfg.limit_method[0] && cap_method_parse(cfg.limit_method, &m))
			abort();
	} else if (!err.msg[0] || err.code >= 0) {
		abort();
	}
	free(copy);
	return 0;
}
