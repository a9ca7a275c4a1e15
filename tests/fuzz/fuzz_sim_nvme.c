/*
 * fuzz_sim_nvme.c - random NVMe admin and I/O commands and data buffers into
 * the demo rig's NVMe drive (no state directory). The input is a script, per
 * command: kind (bit 0: I/O, else admin; 0xff power-cycles the drive),
 * opcode, nsid (mod 4: 0, 1, 2, FFFFFFFFh), CDW10, CDW11, CDW12 (4 bytes each,
 * little-endian), direction (mod 3), data length (2 bytes, mod 16 KiB), and
 * for a data-out command as many data bytes as the input still has. Every
 * answer must be sane: resid within data_len, an NVMe status exactly when
 * the SCSI-side status says CHECK CONDITION, and the namespace never beyond
 * the drive.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/sim.h"

#define MAX_CMDS 32
#define MAX_DATA 16384

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t nsids[4] = { 0, 1, 2, 0xffffffffu };
	static uint8_t buf[MAX_DATA];
	struct sim_rig *rig = NULL;
	struct sim_drive *d;
	struct ss_error err;
	uint64_t full;
	size_t pos = 0;

	if (sim_rig_demo(NULL, &rig, &err))
		return 0;
	d = sim_rig_find(rig, "nvme");
	if (!d)
		abort();
	full = sim_drive_capacity(d); /* at 512 bytes: the most blocks it can have */
	for (unsigned n = 0; n < MAX_CMDS && pos + 18 <= size; n++) {
		struct xcmd c;
		size_t len, take;

		if (data[pos] == 0xff) {
			sim_drive_power_cycle(d);
			pos++;
			continue;
		}
		memset(&c, 0, sizeof(c));
		c.kind = data[pos] & 1 ? XCMD_NVME_IO : XCMD_NVME_ADMIN;
		c.nvme.opcode = data[pos + 1];
		c.nvme.nsid = nsids[data[pos + 2] % 4];
		c.nvme.cdw10 = le32(data + pos + 3);
		c.nvme.cdw11 = le32(data + pos + 7);
		c.nvme.cdw12 = le32(data + pos + 11);
		c.dir = (enum xfer_dir)(data[pos + 15] % 3);
		len = (size_t)(data[pos + 16] | data[pos + 17] << 8) % MAX_DATA;
		pos += 18;
		memset(buf, 0, len);
		if (c.dir == XFER_TO_DEV) {
			take = size - pos < len ? size - pos : len;
			memcpy(buf, data + pos, take);
			pos += take;
		}
		if (!len)
			c.dir = XFER_NONE;
		c.data = len ? buf : NULL;
		c.data_len = len;
		if (sim_drive_exec(d, &c, &err) == 0) {
			if (c.resid > c.data_len)
				abort();
			if ((c.nvme.status != 0) != (c.status == 2))
				abort();
		}
		if (sim_drive_capacity(d) > full)
			abort();
	}
	sim_rig_free(rig);
	return 0;
}
