/*
 * fuzz_rig.c - the rig file parser (json-c, then the position walker and
 * every field check, the "arrays" section too) on any text. A rig that
 * loads must be usable: every drive answers READ CAPACITY, every array's
 * members are drives of the rig and md's layout of it maps blocks inside
 * its members.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every member command of a request lies inside its member. */
static void check_ops(const struct sim_md *g, const struct sim_md_ops *ops)
{
	for (unsigned k = 0; k < ops->n; k++)
		if (ops->v[k].member >= g->n || !ops->v[k].blocks ||
		    ops->v[k].lba + ops->v[k].blocks > g->member_blocks)
			abort();
}

/* An array of a rig that loaded: its members are the rig's drives, and a
 * read and a write at each end of it map inside the members. */
static void check_array(struct sim_rig *rig, struct sim_array *a)
{
	struct ss_error err;
	struct sim_md g;
	uint64_t min = UINT64_MAX;
	unsigned n = sim_array_members(a);

	if (n < 2 || n > SIM_ARRAY_MAX_MEMBERS || sim_rig_find_array(rig, sim_array_name(a)) != a)
		abort();
	for (unsigned i = 0; i < n; i++) {
		struct sim_drive *d = sim_array_member(a, i);

		if (!d || sim_rig_find(rig, sim_drive_id(d)) != d)
			abort();
		if (sim_drive_capacity(d) < min)
			min = sim_drive_capacity(d);
	}
	if (sim_array_md(a, min, 512, &g, &err))
		return; /* members too small for a chunk: the engine refuses to open it */
	for (int end = 0; end < 2; end++) {
		uint32_t blocks = g.blocks < 2048 ? (uint32_t)g.blocks : 2048;
		uint64_t lba = end ? g.blocks - blocks : 0;
		struct sim_md_ops ops = { 0 };
		struct sim_md_part parts[8];
		unsigned np;

		if (sim_md_map(&g, lba, blocks, false, NULL, NULL, &ops))
			abort();
		if (!g.parity && sim_md_map(&g, lba, blocks, true, NULL, NULL, &ops))
			abort();
		np = g.parity ? sim_md_parts(&g, lba, blocks, parts, 8) : 0;
		for (unsigned k = 0; k < np && k < 8; k++)
			if (sim_md_stripe_write(&g,
						&(struct sim_md_write){ parts[k].group,
									parts[k].stripe, &parts[k],
									1, NULL },
						&ops, NULL))
				abort();
		check_ops(&g, &ops);
		free(ops.v);
	}
}

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
			uint8_t cdb_rc16[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32 };
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
		for (i = 0; i < sim_rig_array_count(rig); i++)
			check_array(rig, sim_rig_array(rig, i));
		sim_rig_free(rig);
	} else if (rig) {
		abort(); /* nothing is half-loaded */
	}
	free(text);
	return 0;
}
