/*
 * fuzz_smart_blob.c - the saved IDENTIFY + SMART blob parser (skdump --save's
 * record format, rig "smart_blob") on any bytes, then a drive seeded from
 * what it accepts: sim_blob_parse and sim_blob_apply say why they refuse,
 * and a blob they accept loads through a rig (or fails with a rig error
 * naming a field) into a drive whose IDENTIFY gives back the blob's model,
 * serial and capacity.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shortstroke/ata.h"
#include "shortstroke/sat.h"
#include "shortstroke/sim.h"
#include "sim/sim_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_file(void)
{
	unlink(path);
}

static int blob_file(const uint8_t *data, size_t size)
{
	static int fd = -1;

	if (fd < 0) {
		snprintf(path, sizeof(path), "/tmp/fuzz_smart_blob.XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			return -1;
		atexit(remove_file);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return -1;
	return 0;
}

static void check_drive(struct sim_drive *d, const struct sim_config *c)
{
	struct ata_tf tf;
	struct ata_identify id;
	struct ss_error err;
	uint8_t buf[512];
	struct xcmd x;

	memset(&x, 0, sizeof(x));
	ata_tf_identify(&tf);
	x.cdb_len = sat_build_ata_pt16(x.cdb, &tf, false);
	x.dir = XFER_FROM_DEV;
	x.data = buf;
	x.data_len = sizeof(buf);
	if (sim_drive_exec(d, &x, &err) || x.status != 0 || x.resid)
		abort();
	ata_parse_identify(buf, sizeof(buf), &id);
	if (!id.checksum_valid || strcmp(id.model, c->model) || strcmp(id.serial, c->serial) ||
	    id.capacity != sim_drive_capacity(d))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sim_blob b;
	static struct sim_config c;
	struct sim_rig *rig = NULL;
	struct ss_error err, why = { 0 };
	char json[256];

	if (size > SIM_BLOB_MAX)
		return 0;
	if (sim_blob_parse(data, size, &b, &why)) {
		if (!why.msg[0])
			abort();
		return 0;
	}
	memset(&c, 0, sizeof(c));
	c.sata = true;
	if (sim_blob_apply(&c, &b, &why)) {
		if (!why.msg[0])
			abort();
		return 0;
	}
	if (!c.blocks || (c.lblock != 512 && c.lblock != 4096) || c.pblock < c.lblock ||
	    c.queue_depth < 1 || c.queue_depth > 32)
		abort();
	if (blob_file(data, size))
		return 0;
	snprintf(json, sizeof(json),
		 "{\"time_scale\": 0, \"drives\": [{\"id\": \"f\", \"personality\": \"sata\", "
		 "\"smart_blob\": \"%s\"}]}",
		 path);
	if (sim_rig_load_string(json, "fuzz.json", NULL, &rig, &err) == 0) {
		check_drive(sim_rig_find(rig, "f"), &c);
		sim_rig_free(rig);
	} else if (rig || !strstr(err.msg, "field \"")) {
		abort(); /* nothing half-loaded; a rig error names its field */
	}
	return 0;
}
