/*
 * fuzz_rig.c - the rig file parser (json-c, then the position walker and
 * every field check) on any text. A rig that loads must be usable.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_rig *rig = NULL;
	struct ss_error err;
	char *text;
	unsigned i;

	if (size > (1u << 20))
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (sim_rig_load_string(text, "fuzz.json", NULL, &rig, &err) == 0) {
		if (!rig || sim_rig_count(rig) == 0)
			abort();
		for (i = 0; i < sim_rig_count(rig); i++) {
			struct sim_drive *d = sim_rig_drive(rig, i);
			uint8_t cdb_rc16[16] = {0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32};
			uint8_t buf[32];
			struct xcmd c;

			if (sim_rig_find(rig, sim_drive_id(d)) != d)
				abort();
			memset(&c, 0, sizeof(c));
			memcpy(c.cdb, cdb_rc16, sizeof(cdb_rc16));
			c.cdb_len = 16;
			c.dir = XFER_FROM_DEV;
			c.data = buf;
			c.data_len = sizeof(buf);
			if (sim_drive_exec(d, &c, &err) == 0 && c.status == 0 &&
			    sim_drive_capacity(d) == 0)
				abort();
		}
		sim_rig_free(rig);
	} else if (rig) {
		abort(); /* nothing is half-loaded */
	}
	free(text);
	return 0;
}
