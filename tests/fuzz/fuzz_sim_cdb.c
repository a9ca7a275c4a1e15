/*
 * fuzz_sim_cdb.c - random CDBs and data buffers into the demo drives (no
 * state directory). The input is a script:
 *   byte 0: drive index (mod the rig's count)
 *   then, per command: cdb_len (mod 33), direction (mod 3), data length
 *   (2 bytes, little-endian, mod 16 KiB), cdb_len CDB bytes, and for a
 *   data-out command as many data bytes as the input still has (zero
 *   filled to the length); byte 0xff as cdb_len power-cycles the drive.
 * Every answer must be sane: resid within data_len, sense within its
 * buffer, CHECK CONDITION with sense.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/sim.h"

#define MAX_CMDS 32
#define MAX_DATA 16384

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[MAX_DATA];
	struct sim_rig *rig = NULL;
	struct sim_drive *d;
	struct ss_error err;
	size_t pos = 1;
	unsigned n;

	if (size < 1 || sim_rig_demo(NULL, &rig, &err))
		return 0;
	d = sim_rig_drive(rig, data[0] % sim_rig_count(rig));
	for (n = 0; n < MAX_CMDS && pos + 4 <= size; n++) {
		struct xcmd c;
		size_t len, take;

		if (data[pos] == 0xff) {
			sim_drive_power_cycle(d);
			pos++;
			continue;
		}
		memset(&c, 0, sizeof(c));
		c.cdb_len = data[pos] % 33;
		c.dir = (enum xfer_dir)(data[pos + 1] % 3);
		len = (size_t)(data[pos + 2] | data[pos + 3] << 8) % MAX_DATA;
		pos += 4;
		take = size - pos < c.cdb_len ? size - pos : c.cdb_len;
		memcpy(c.cdb, data + pos, take);
		pos += take;
		memset(buf, 0, len);
		if (c.dir == XFER_TO_DEV) {
			take = size - pos < len ? size - pos : len;
			memcpy(buf, data + pos, take);
			pos += take;
		}
		c.data = len ? buf : NULL;
		c.data_len = len;
		if (sim_drive_exec(d, &c, &err) == 0) {
			if (c.resid > c.data_len || c.sense_len > sizeof(c.sense))
				abort();
			if (c.status == 2 && c.sense_len < 8)
				abort();
		}
	}
	sim_rig_free(rig);
	return 0;
}
