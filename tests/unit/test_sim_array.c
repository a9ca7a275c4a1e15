/* test_sim_array.c - simulated md arrays: the rig's "arrays" (fields, errors
 * with their line and field), md's layouts (array blocks to member commands
 * for RAID 0, 1, 10 near, 5 and 6 left-symmetric, 50), parity rotation,
 * read-modify-write against reconstruct-write row by row, and the simulated
 * engine on an array (striping, mirrored reads, the path cap, the controller
 * latency, full stripes from a sequential stream, errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "shortstroke/io.h"
#include "shortstroke/sim.h"
#include "sim/sim_priv.h"

#include "fixture.h"

/* ---- rigs ------------------------------------------------------------------------ */

/* n SAS drives d0..d(n-1) of the 15K class (each with the fields in extra,
 * "" or ", \"key\": value"), then "arrays": [arrays] */
static char *rig_json_with(unsigned n, const char *extra, const char *arrays)
{
	size_t cap = 4096 + n * (300 + strlen(extra)) + strlen(arrays);
	char *s = malloc(cap);
	size_t l;

	assert_non_null(s);
	l = (size_t)snprintf(s, cap, "{\"time_scale\": 0, \"drives\": [");
	for (unsigned i = 0; i < n; i++)
		l += (size_t)snprintf(s + l, cap - l,
				      "%s\n{\"id\": \"d%u\", \"personality\": \"sas\", "
				      "\"vendor\": \"HITACHI\", \"model\": \"HUS154545VLS300\", "
				      "\"serial\": \"SA%04u\", \"firmware\": \"A5B0\", "
				      "\"wwn\": \"5000cca0000%05x\", \"blocks\": 879097968, "
				      "\"rpm\": 15000%s}",
				      i ? "," : "", i, i, i, extra);
	snprintf(s + l, cap - l, "],\n\"arrays\": [%s]}", arrays);
	return s;
}

static char *rig_json(unsigned n, const char *arrays)
{
	return rig_json_with(n, "", arrays);
}

static struct sim_rig *rig_load_with(unsigned n, const char *extra, const char *arrays)
{
	struct sim_rig *rig = NULL;
	char *json = rig_json_with(n, extra, arrays);

	assert_int_equal(fixture_rig_load(json, NULL, &rig), 0);
	free(json);
	return rig;
}

static struct sim_rig *rig_load(unsigned n, const char *arrays)
{
	return rig_load_with(n, "", arrays);
}

/* The rig must fail with a message holding msg. */
static void rig_refused(unsigned n, const char *arrays, const char *msg)
{
	struct sim_rig *rig = NULL;
	struct ss_error err = { 0 };
	char *json = rig_json(n, arrays);

	assert_int_equal(sim_rig_load_string(json, "test.json", NULL, &rig, &err), -EINVAL);
	assert_null(rig);
	if (!strstr(err.msg, msg))
		fail_msg("expected \"%s\" in \"%s\"", msg, err.msg);
	free(json);
}

static void test_rig_arrays(void **state)
{
	struct sim_rig *rig;
	struct sim_array *a;
	double rd, wr;

	(void)state;
	rig = rig_load(8, "{\"name\": \"r5\", \"level\": 5, \"members\": [\"d2\", \"d0\", \"d1\"],"
			  " \"chunk_kib\": 64, \"layout\": \"left-symmetric\","
			  " \"path\": {\"read_mbps\": 800, \"write_mbps\": 400},"
			  " \"controller\": {\"latency_us\": 50, \"per_member_us\": 10}},"
			  "{\"name\": \"m\", \"level\": \"raid10\", \"members\": [\"d0\", \"d1\", "
			  "\"d2\", \"d3\", \"d4\"], \"layout\": \"near\"},"
			  "{\"name\": \"big\", \"level\": \"RAID 60\", \"groups\": 2, \"members\": "
			  "[\"d0\", \"d1\", \"d2\", \"d3\", \"d4\", \"d5\", \"d6\", \"d7\"]},"
			  "{\"name\": \"mirror\", \"level\": 1, \"members\": [\"d6\", \"d7\"]}");
	assert_int_equal(sim_rig_array_count(rig), 4);
	assert_null(sim_rig_find_array(rig, "nope"));
	a = sim_rig_find_array(rig, "r5");
	assert_ptr_equal(a, sim_rig_array(rig, 0));
	assert_string_equal(sim_array_name(a), "r5");
	assert_string_equal(sim_array_level_text(a), "RAID 5");
	assert_int_equal(sim_array_members(a), 3);
	/* members in the rig's order, which is md's */
	assert_ptr_equal(sim_array_member(a, 0), sim_rig_find(rig, "d2"));
	assert_ptr_equal(sim_array_member(a, 2), sim_rig_find(rig, "d1"));
	assert_null(sim_array_member(a, 3));
	sim_array_path(a, &rd, &wr);
	assert_true(rd == 800 && wr == 400);
	assert_int_equal(sim_array_stripe_cache(a), 256); /* md's default */
	assert_int_equal(sim_array_latency_ns(a), 80000); /* 50 + 3 x 10 us */
	a = sim_rig_find_array(rig, "m");
	assert_string_equal(sim_array_level_text(a), "RAID 10");
	assert_int_equal(a->copies, 2);
	assert_int_equal(a->chunk_kib, 512); /* md's default */
	a = sim_rig_find_array(rig, "big");
	assert_string_equal(sim_array_level_text(a), "RAID 60");
	assert_int_equal(a->groups, 2);
	a = sim_rig_find_array(rig, "mirror");
	assert_int_equal(a->copies, 2);
	sim_array_path(a, &rd, &wr);
	assert_true(rd == 0 && wr == 0);
	assert_int_equal(sim_array_latency_ns(a), 0);
	sim_rig_free(rig);
}

static void test_rig_errors(void **state)
{
	(void)state;
	rig_refused(4, "{\"name\": \"a\", \"level\": 5, \"members\": [\"d0\", \"dx\", \"d1\"]}",
		    "test.json:6: array \"a\": field \"members[1]\": no drive \"dx\" in the rig");
	rig_refused(4, "{\"name\": \"a\", \"level\": 5, \"members\": [\"d0\", \"d1\"]}",
		    "array \"a\": field \"members\": RAID 5 needs at least 3 members, it has 2");
	rig_refused(4, "{\"name\": \"a\", \"level\": 6, \"members\": [\"d0\", \"d1\", \"d2\"]}",
		    "field \"members\": RAID 6 needs at least 4 members, it has 3");
	rig_refused(4, "{\"name\": \"a\", \"level\": 0, \"members\": [\"d0\"]}",
		    "RAID 0 needs at least 2 members, it has 1");
	rig_refused(8,
		    "{\"name\": \"a\", \"level\": 50, \"members\": [\"d0\", \"d1\", \"d2\", "
		    "\"d3\", \"d4\"]}",
		    "field \"members\": RAID 50 in 2 groups needs a multiple of 2 members with at "
		    "least 3 in each group, it has 5");
	rig_refused(8,
		    "{\"name\": \"a\", \"level\": 50, \"groups\": 3, \"members\": [\"d0\", "
		    "\"d1\", \"d2\", \"d3\", \"d4\", \"d5\"]}",
		    "field \"groups\": RAID 50 in 3 groups needs");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 10, \"copies\": 3, \"members\": [\"d0\", "
		    "\"d1\"]}",
		    "field \"copies\": RAID 10 with 3 near copies needs at least 3 members");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 5, \"copies\": 2, \"members\": [\"d0\", "
		    "\"d1\", \"d2\"]}",
		    "field \"copies\": RAID 5 keeps no copies");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 6, \"groups\": 2, \"members\": [\"d0\", "
		    "\"d1\", \"d2\", \"d3\"]}",
		    "field \"groups\": RAID 6 has no groups");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 1, \"chunk_kib\": 64, \"members\": [\"d0\", "
		    "\"d1\"]}",
		    "field \"chunk_kib\": RAID 1 has no chunks");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 0, \"stripe_cache\": 64, \"members\": "
		    "[\"d0\", \"d1\"]}",
		    "field \"stripe_cache\": RAID 0 has no stripe cache");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 5, \"stripe_cache\": 16, \"members\": "
		    "[\"d0\", \"d1\", \"d2\"]}",
		    "field \"stripe_cache\": expected an integer from 17 to 32768");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 10, \"layout\": \"far\", \"members\": [\"d0\", "
		    "\"d1\"]}",
		    "field \"layout\": RAID 10 is modelled with \"near\" copies only");
	rig_refused(4, "{\"name\": \"a\", \"level\": 4, \"members\": [\"d0\", \"d1\"]}",
		    "field \"level\": expected 0, 1, 10, 5, 6, 50 or 60");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 0, \"chunk_kib\": 96, \"members\": [\"d0\", "
		    "\"d1\"]}",
		    "field \"chunk_kib\": expected a power of two from 4 to 4096 (KiB)");
	rig_refused(4, "{\"name\": \"a\", \"level\": 0, \"members\": [\"d0\", \"d0\"]}",
		    "field \"members[1]\": drive \"d0\" is already member 0");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 0, \"members\": [\"d0\", \"d1\"], \"speed\": 1}",
		    "array \"a\": unknown field \"speed\"");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 0, \"members\": [\"d0\", \"d1\"], "
		    "\"path\": {\"read_mbps\": 0}}",
		    "field \"path.read_mbps\": expected a number from 0.001 to 1e+06");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 0, \"members\": [\"d0\", \"d1\"], "
		    "\"controller\": {\"latency_ms\": 1}}",
		    "unknown field \"controller.latency_ms\"");
	rig_refused(4,
		    "{\"name\": \"a\", \"level\": 0, \"members\": [\"d0\", \"d1\"]},"
		    "{\"name\": \"a\", \"level\": 1, \"members\": [\"d2\", \"d3\"]}",
		    "array \"a\": field \"name\": the name is already used by array #1");
	rig_refused(4, "{\"level\": 0, \"members\": [\"d0\", \"d1\"]}",
		    "array #1: missing field \"name\"");
	rig_refused(4, "{\"name\": \"a:b\", \"level\": 0, \"members\": [\"d0\", \"d1\"]}",
		    "field \"name\": expected 1 to 32 letters");
	rig_refused(4, "{\"name\": \"a\", \"members\": [\"d0\", \"d1\"]}",
		    "array \"a\": missing field \"level\"");
	rig_refused(4, "{\"name\": \"a\", \"level\": 0}", "array \"a\": missing field \"members\"");
	rig_refused(4, "{\"name\": \"a\", \"level\": 0, \"members\": []}",
		    "field \"members\": expected a non-empty array of drive ids");
}

/* Members must have one block size; md cannot use a host-managed drive. */
static void test_rig_member_kinds(void **state)
{
	static const char json[] =
	    "{\"time_scale\": 0, \"drives\": ["
	    "{\"id\": \"a\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\","
	    " \"serial\": \"S1\", \"firmware\": \"F001\", \"wwn\": \"5000000000000001\","
	    " \"blocks\": 1000000},"
	    "{\"id\": \"b\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\","
	    " \"serial\": \"S2\", \"firmware\": \"F001\", \"wwn\": \"5000000000000002\","
	    " \"blocks\": 1000000, \"logical_block\": 4096},"
	    "{\"id\": \"z\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\","
	    " \"serial\": \"S3\", \"firmware\": \"F001\", \"wwn\": \"5000000000000003\","
	    " \"blocks\": 1000000, \"zoned\": \"host-managed\"}],"
	    "\"arrays\": [{\"name\": \"x\", \"level\": 0, \"members\": [\"a\", \"%s\"]}]}";
	struct sim_rig *rig = NULL;
	struct ss_error err = { 0 };
	char buf[2048];

	(void)state;
	snprintf(buf, sizeof(buf), json, "b");
	assert_int_equal(sim_rig_load_string(buf, "t.json", NULL, &rig, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "field \"members[1]\": drive \"b\" has 4096-byte blocks"));
	snprintf(buf, sizeof(buf), json, "z");
	assert_int_equal(sim_rig_load_string(buf, "t.json", NULL, &rig, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "drive \"z\" is host-managed zoned: md cannot use it"));
}

/* ---- layouts ------------------------------------------------------------------------ */

#define C 8 /* a chunk of 4 KiB in 512-byte blocks */

/* A layout by hand (what sim_array_md builds from a rig's array). */
static void md_of(struct sim_md *g, int level, unsigned n, unsigned copies, unsigned groups,
		  uint64_t member_chunks)
{
	struct sim_array a;
	struct ss_error err = { 0 };

	memset(&a, 0, sizeof(a));
	snprintf(a.name, sizeof(a.name), "t");
	a.level = level;
	a.n = n;
	a.copies = copies;
	a.groups = groups;
	a.chunk_kib = 4;
	assert_int_equal(sim_array_md(&a, member_chunks * C, 512, g, &err), 0);
}

/* The one command a piece of a read becomes. */
static void read_at(const struct sim_md *g, uint64_t lba, uint32_t blocks, unsigned *member,
		    uint64_t *mlba)
{
	struct sim_md_ops ops = { 0 };

	assert_int_equal(sim_md_map(g, lba, blocks, false, NULL, NULL, &ops), 0);
	assert_int_equal(ops.n, 1);
	assert_false(ops.v[0].write);
	assert_int_equal(ops.v[0].blocks, blocks);
	*member = ops.v[0].member;
	*mlba = ops.v[0].lba;
	free(ops.v);
}

static void test_raid0(void **state)
{
	struct sim_md g;
	struct sim_md_ops ops = { 0 };
	unsigned m;
	uint64_t l;

	(void)state;
	md_of(&g, 0, 3, 0, 0, 100);
	assert_int_equal(g.blocks, 300 * C);
	for (uint64_t c = 0; c < 9; c++) {
		read_at(&g, c * C + 3, 2, &m, &l);
		assert_int_equal(m, c % 3);
		assert_int_equal(l, c / 3 * C + 3);
	}
	/* split at chunk boundaries; contiguous pieces on a member merged */
	md_of(&g, 0, 2, 0, 0, 100);
	assert_int_equal(sim_md_map(&g, 4, 4 * C, true, NULL, NULL, &ops), 0);
	assert_int_equal(ops.n, 2);
	/* chunk 0 [4, 8), chunk 2, chunk 4 [0, 4): rows 0-2 of member 0, one command */
	assert_int_equal(ops.v[0].member, 0);
	assert_int_equal(ops.v[0].lba, 4);
	assert_int_equal(ops.v[0].blocks, 16);
	assert_int_equal(ops.v[1].member, 1); /* chunks 1 and 3 */
	assert_int_equal(ops.v[1].lba, 0);
	assert_int_equal(ops.v[1].blocks, 16);
	assert_true(ops.v[1].write && !ops.v[1].after);
	free(ops.v);
}

/* md(4)'s examples of the near layout: 4 devices, 2 copies ("0 0 1 1 / 2 2 3 3")
 * and 5 devices ("0 0 1 1 2 / 2 3 3 4 4"). */
static void test_raid10_near(void **state)
{
	static const unsigned five[2][5] = { { 0, 0, 1, 1, 2 }, { 2, 3, 3, 4, 4 } };
	struct sim_md g;
	struct sim_md_ops ops = { 0 };

	(void)state;
	md_of(&g, 10, 4, 2, 0, 100);
	assert_int_equal(g.blocks, 200 * C);
	assert_int_equal(sim_md_map(&g, 3 * C, C, true, NULL, NULL, &ops), 0);
	assert_int_equal(ops.n, 2); /* chunk 3: row 1 of members 2 and 3 */
	assert_int_equal(ops.v[0].member, 2);
	assert_int_equal(ops.v[1].member, 3);
	assert_int_equal(ops.v[0].lba, C);
	assert_int_equal(ops.v[1].lba, C);
	free(ops.v);
	ops = (struct sim_md_ops){ 0 };
	md_of(&g, 10, 5, 2, 0, 100);
	assert_int_equal(g.blocks, 250 * C); /* 5 x 100 chunks, 2 copies */
	for (unsigned row = 0; row < 2; row++) {
		for (unsigned dev = 0; dev < 5; dev++) {
			unsigned c = five[row][dev];
			bool found = false;

			ops.n = 0;
			assert_int_equal(sim_md_map(&g, c * C, C, true, NULL, NULL, &ops), 0);
			assert_int_equal(ops.n, 2);
			for (unsigned k = 0; k < ops.n; k++)
				found |= ops.v[k].member == dev && ops.v[k].lba == row * C;
			if (!found)
				fail_msg("chunk %u is not at row %u of device %u", c, row, dev);
		}
	}
	free(ops.v);
}

/* Reads of mirrored data: one copy, the one the chooser picks. */
static unsigned pick_last(void *arg, const unsigned *member, const uint64_t *lba, unsigned k,
			  uint32_t blocks)
{
	unsigned *calls = arg;

	(*calls)++;
	assert_int_equal(blocks, C);
	assert_true(k >= 2);
	assert_true(member[0] != member[1]);
	(void)lba;
	return k - 1;
}

static void test_mirror_reads(void **state)
{
	struct sim_md g;
	struct sim_md_ops ops = { 0 };
	unsigned calls = 0;

	(void)state;
	md_of(&g, 10, 4, 2, 0, 100);
	assert_int_equal(sim_md_map(&g, 2 * C, 2 * C, false, pick_last, &calls, &ops), 0);
	assert_int_equal(calls, 2); /* one choice per chunk */
	assert_int_equal(ops.n, 2);
	assert_int_equal(ops.v[0].member, 1); /* chunk 2: members 0 and 1, row 1 */
	assert_int_equal(ops.v[0].lba, C);
	assert_int_equal(ops.v[1].member, 3);
	free(ops.v);
	/* RAID 1: no chunks, every member holds it at the same LBA */
	md_of(&g, 1, 3, 0, 0, 100);
	assert_int_equal(g.blocks, 100 * C);
	ops = (struct sim_md_ops){ 0 };
	calls = 0;
	assert_int_equal(sim_md_map(&g, 5, C, false, pick_last, &calls, &ops), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(ops.n, 1);
	assert_int_equal(ops.v[0].member, 2);
	assert_int_equal(ops.v[0].lba, 5);
	ops.n = 0;
	assert_int_equal(sim_md_map(&g, 5, 3 * C, true, NULL, NULL, &ops), 0);
	assert_int_equal(ops.n, 3); /* a write goes to every member, whole */
	assert_int_equal(ops.v[2].blocks, 3 * C);
	free(ops.v);
}

/* Left-symmetric RAID 5 of 5 as the Veritas Volume Manager guide draws it
 * (the parity from the last column leftwards, the data after it, wrapping). */
static void test_raid5_left_symmetric(void **state)
{
	static const int rows[5][5] = {
		{ 0, 1, 2, 3, -1 },	{ 5, 6, 7, -1, 4 },	{ 10, 11, -1, 8, 9 },
		{ 15, -1, 12, 13, 14 }, { -1, 16, 17, 18, 19 },
	};
	struct sim_md g;
	unsigned data[8], m;
	uint64_t l;
	int p, q;

	(void)state;
	md_of(&g, 5, 5, 0, 0, 100);
	assert_int_equal(g.blocks, 400 * C);
	assert_int_equal(g.dg, 4);
	for (unsigned s = 0; s < 5; s++) {
		sim_md_stripe_members(&g, 0, s, data, &p, &q);
		assert_int_equal(q, -1);
		assert_int_equal(rows[s][p], -1);
		for (unsigned dev = 0; dev < 5; dev++) {
			if (rows[s][dev] < 0)
				continue;
			read_at(&g, (uint64_t)rows[s][dev] * C + 1, 1, &m, &l);
			assert_int_equal(m, dev);
			assert_int_equal(l, s * C + 1);
		}
	}
	/* the rotation repeats every 5 stripes */
	sim_md_stripe_members(&g, 0, 7, data, &p, &q);
	assert_int_equal(p, 2);
	assert_int_equal(data[0], 3);
}

/* Left-symmetric RAID 6 (md's ALGORITHM_LEFT_SYMMETRIC): Q follows P, the
 * data follows Q. Of 5 members: stripe 0 is Q D0 D1 D2 P, stripe 1 D3 D4 D5 P Q,
 * stripe 2 D7 D8 P Q D6. */
static void test_raid6_left_symmetric(void **state)
{
	struct sim_md g;
	unsigned data[8];
	int p, q;

	(void)state;
	md_of(&g, 6, 5, 0, 0, 100);
	assert_int_equal(g.blocks, 300 * C);
	for (unsigned s = 0; s < 10; s++) {
		unsigned pd = 4 - s % 5;

		sim_md_stripe_members(&g, 0, s, data, &p, &q);
		assert_int_equal(p, pd);
		assert_int_equal(q, (pd + 1) % 5);
		for (unsigned i = 0; i < 3; i++)
			assert_int_equal(data[i], (pd + 2 + i) % 5);
	}
	sim_md_stripe_members(&g, 0, 2, data, &p, &q);
	assert_int_equal(data[0], 4); /* D6 */
	assert_int_equal(data[1], 0); /* D7 */
	assert_int_equal(data[2], 1); /* D8 */
}

/* RAID 50: RAID 0 with the chunk over groups of RAID 5; parts per group stripe. */
static void test_raid50(void **state)
{
	struct sim_md g;
	struct sim_md_part parts[8];
	unsigned m;
	uint64_t l;

	(void)state;
	md_of(&g, 50, 6, 0, 2, 100);
	assert_int_equal(g.gsize, 3);
	assert_int_equal(g.dg, 2);
	assert_int_equal(g.blocks, 400 * C);
	/* chunk 5: group 1's chunk 2 = its stripe 1, data 0; stripe 1's parity is on
	 * the group's member 1, the data after it: member 2 of the group, 5 in all */
	read_at(&g, 5 * C, C, &m, &l);
	assert_int_equal(m, 5);
	assert_int_equal(l, C);
	/* six chunks from chunk 0: each group's stripe 0 whole, and the first chunk of
	 * its stripe 1 */
	assert_int_equal(sim_md_parts(&g, 0, 6 * C, parts, 8), 4);
	assert_true(parts[0].group == 0 && parts[0].stripe == 0 && parts[0].start == 0 &&
		    parts[0].end == 2 * C);
	assert_true(parts[1].group == 1 && parts[1].stripe == 0 && parts[1].end == 2 * C);
	assert_true(parts[2].group == 0 && parts[2].stripe == 1 && parts[2].start == 0 &&
		    parts[2].end == C);
	assert_true(parts[3].group == 1 && parts[3].stripe == 1 && parts[3].end == C);
	/* fewer slots than parts: the count is still right */
	assert_int_equal(sim_md_parts(&g, 2, 6 * C, parts, 1), 4);
	assert_true(parts[0].group == 0 && parts[0].start == 2 && parts[0].end == 2 * C);
}

/* The commands of one stripe write, counted by kind. */
struct tally {
	unsigned reads, writes, after;
	uint64_t read_blocks, write_blocks;
	bool member_read[16], member_write[16];
};

static void stripe_write(const struct sim_md *g, uint64_t stripe, uint64_t start, uint64_t end,
			 struct tally *t, struct sim_md_how *how)
{
	struct sim_md_part part = { 0, stripe, start, end };
	struct sim_md_ops ops = { 0 };

	memset(t, 0, sizeof(*t));
	assert_int_equal(
	    sim_md_stripe_write(g, &(struct sim_md_write){ 0, stripe, &part, 1, NULL }, &ops, how),
	    0);
	for (unsigned i = 0; i < ops.n; i++) {
		const struct sim_md_op *o = &ops.v[i];

		assert_true(o->lba >= stripe * g->chunk &&
			    o->lba + o->blocks <= (stripe + 1) * g->chunk);
		if (o->write) {
			t->writes++;
			t->write_blocks += o->blocks;
			t->member_write[o->member] = true;
			/* a write waits for reads exactly when there are reads */
			t->after += o->after;
		} else {
			t->reads++;
			t->read_blocks += o->blocks;
			t->member_read[o->member] = true;
			assert_false(o->after);
		}
	}
	free(ops.v);
}

/* md takes read-modify-write only when it reads fewer blocks than
 * reconstruct-write; a tie goes to reconstruct-write. */
static void test_rmw_or_rcw(void **state)
{
	struct sim_md g;
	struct sim_md_how how;
	struct tally t;
	unsigned data[8];
	int p, q;

	(void)state;
	/* RAID 5 of 5 (4 data): one chunk written: RMW reads 2 (old data, parity),
	 * RCW would read 3 */
	md_of(&g, 5, 5, 0, 0, 100);
	sim_md_stripe_members(&g, 0, 0, data, &p, &q);
	stripe_write(&g, 0, C, 2 * C, &t, &how);
	assert_int_equal(how.rmw, C);
	assert_int_equal(how.rcw + how.full, 0);
	assert_int_equal(t.reads, 2);
	assert_int_equal(t.writes, 2);
	assert_int_equal(t.after, 2);
	assert_true(t.member_read[data[1]] && t.member_read[p]);
	assert_true(t.member_write[data[1]] && t.member_write[p]);
	/* two chunks of four: RMW reads 3, RCW 2: RCW reads the other two */
	stripe_write(&g, 0, 0, 2 * C, &t, &how);
	assert_int_equal(how.rcw, C);
	assert_int_equal(t.reads, 2);
	assert_true(t.member_read[data[2]] && t.member_read[data[3]] && !t.member_read[p]);
	assert_int_equal(t.writes, 3);
	/* the whole stripe: no reads, every member written at once */
	stripe_write(&g, 0, 0, 4 * C, &t, &how);
	assert_int_equal(how.full, C);
	assert_int_equal(t.reads, 0);
	assert_int_equal(t.writes, 5);
	assert_int_equal(t.after, 0);

	/* RAID 5 of 4 (3 data), one chunk: RMW and RCW both read 2: RCW */
	md_of(&g, 5, 4, 0, 0, 100);
	stripe_write(&g, 3, 0, C / 2, &t, &how);
	assert_int_equal(how.rcw, C / 2);
	assert_int_equal(t.read_blocks, 2 * (C / 2));
	/* RAID 5 of 3: RCW reads 1 */
	md_of(&g, 5, 3, 0, 0, 100);
	stripe_write(&g, 1, C, 2 * C, &t, &how);
	assert_int_equal(how.rcw, C);
	assert_int_equal(t.reads, 1);

	/* RAID 6 of 7 (5 data), one chunk: RMW reads 3 (data, P, Q) < RCW's 4 */
	md_of(&g, 6, 7, 0, 0, 100);
	sim_md_stripe_members(&g, 0, 2, data, &p, &q);
	stripe_write(&g, 2, 2 * C, 3 * C, &t, &how);
	assert_int_equal(how.rmw, C);
	assert_int_equal(t.reads, 3);
	assert_true(t.member_read[p] && t.member_read[q] && t.member_read[data[2]]);
	assert_int_equal(t.writes, 3);
	/* RAID 6 of 6 (4 data), one chunk: 3 against 3: RCW */
	md_of(&g, 6, 6, 0, 0, 100);
	stripe_write(&g, 0, 0, C, &t, &how);
	assert_int_equal(how.rcw, C);
	assert_int_equal(t.reads, 3);
	assert_int_equal(t.writes, 3);
}

/* Row by row: a write that fills the stripe in some rows only. */
static void test_partial_rows(void **state)
{
	struct sim_md g;
	struct sim_md_how how;
	struct sim_md_part parts[2];
	struct sim_md_ops ops = { 0 };
	struct tally t;
	unsigned data[8];
	int p, q;

	(void)state;
	md_of(&g, 5, 4, 0, 0, 100);
	sim_md_stripe_members(&g, 0, 0, data, &p, &q);
	/* the second half of chunk 0 and chunks 1, 2: rows [C/2, C) full, rows
	 * [0, C/2) have two of three chunks written (RCW reads chunk 0's first half) */
	stripe_write(&g, 0, C / 2, 3 * C, &t, &how);
	assert_int_equal(how.full, C / 2);
	assert_int_equal(how.rcw, C / 2);
	assert_int_equal(t.reads, 1);
	assert_true(t.member_read[data[0]]);
	assert_int_equal(t.read_blocks, C / 2);
	/* the full rows written at once (3 data, parity), the others after the read
	 * (chunks 1, 2 and parity in rows [0, C/2)) */
	assert_int_equal(t.writes, 7);
	assert_int_equal(t.after, 3);
	/* two parts of one stripe that together fill it: no reads */
	parts[0] = (struct sim_md_part){ 0, 4, 0, C + 3 };
	parts[1] = (struct sim_md_part){ 0, 4, C + 3, 3 * C };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 0, 4, parts, 2, NULL }, &ops, &how), 0);
	assert_int_equal(how.full, C);
	for (unsigned i = 0; i < ops.n; i++)
		assert_true(ops.v[i].write && !ops.v[i].after);
	assert_int_equal(ops.n, 4); /* merged: one command per member */
	free(ops.v);
	ops = (struct sim_md_ops){ 0 };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 1, 0, parts, 1, NULL }, &ops, NULL),
	    -EINVAL);
	assert_int_equal(sim_md_map(&g, 0, 1, true, NULL, NULL, &ops), -EINVAL);
	free(ops.v);
}

/* The stripe cache, as md's on a real kernel (docs/simulator.md, "Arrays"): a
 * second write to a stripe reads only what the first did not leave in it. */
static void test_stripe_cache(void **state)
{
	struct sim_md g;
	struct sim_md_how how;
	struct sim_md_cached *c = calloc(1, sizeof(*c));
	struct sim_md_ops ops = { 0 };
	struct sim_md_part part;
	unsigned data[8];
	int p, q;

	(void)state;
	assert_non_null(c);
	/* RAID 5 of 4, chunk after chunk: the first reconstruct-write reads the
	 * two other chunks; then everything of those rows is cached */
	md_of(&g, 5, 4, 0, 0, 100);
	assert_int_equal(g.row_blocks, 8);
	part = (struct sim_md_part){ 0, 0, 0, C };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 0, 0, &part, 1, c }, &ops, &how), 0);
	assert_int_equal(how.rcw, C);
	assert_int_equal(ops.n, 4); /* two reads, two writes */
	assert_int_equal(sim_md_cached_rows(&g, c), 1);
	ops.n = 0;
	part = (struct sim_md_part){ 0, 0, C, 2 * C };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 0, 0, &part, 1, c }, &ops, &how), 0);
	assert_int_equal(how.cached, C);
	assert_int_equal(ops.n, 2); /* no reads: the new data and the parity */
	assert_true(ops.v[0].write && !ops.v[0].after && ops.v[1].write);
	/* RAID 5 of 5: read-modify-write leaves the parity and the chunk written;
	 * the next chunk then reads only its own old data (1 block, against the
	 * 2 that reconstruct-write would read) */
	memset(c, 0, sizeof(*c));
	md_of(&g, 5, 5, 0, 0, 100);
	sim_md_stripe_members(&g, 0, 0, data, &p, &q);
	ops.n = 0;
	part = (struct sim_md_part){ 0, 0, 0, C };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 0, 0, &part, 1, c }, &ops, &how), 0);
	assert_int_equal(how.rmw, C);
	ops.n = 0;
	part = (struct sim_md_part){ 0, 0, C, 2 * C };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 0, 0, &part, 1, c }, &ops, &how), 0);
	assert_int_equal(how.rmw, C);
	assert_int_equal(ops.n, 3);
	assert_false(ops.v[0].write);
	assert_int_equal(ops.v[0].member, data[1]);
	/* rows the cache holds only some of are decided row by row: chunks of
	 * 64 KiB (128 blocks, 16 rows), the first 8 rows of chunk 0 written, then
	 * all of chunk 1 */
	memset(c, 0, sizeof(*c));
	{
		struct sim_array a;
		struct ss_error err = { 0 };

		memset(&a, 0, sizeof(a));
		a.level = 5;
		a.n = 4;
		a.chunk_kib = 64;
		assert_int_equal(sim_array_md(&a, 100 * 128, 512, &g, &err), 0);
	}
	ops.n = 0;
	part = (struct sim_md_part){ 0, 2, 0, 64 };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 0, 2, &part, 1, c }, &ops, &how), 0);
	assert_int_equal(sim_md_cached_rows(&g, c), 8);
	ops.n = 0;
	part = (struct sim_md_part){ 0, 2, 128, 256 };
	assert_int_equal(
	    sim_md_stripe_write(&g, &(struct sim_md_write){ 0, 2, &part, 1, c }, &ops, &how), 0);
	assert_int_equal(how.cached, 64);
	assert_int_equal(how.rcw, 64);
	assert_int_equal(sim_md_cached_rows(&g, c), 16);
	free(ops.v);
	free(c);
}

static void test_check(void **state)
{
	struct ss_error err = { 0 };

	(void)state;
	assert_int_equal(sim_md_check(4, 3, 0, 0, &err), -EINVAL);
	assert_string_equal(err.msg, "RAID 4 is not modelled: give 0, 1, 10, 5, 6, 50 or 60");
	assert_int_equal(sim_md_check(5, 65, 0, 0, &err), -EINVAL);
	assert_string_equal(err.msg, "at most 64 members, it has 65");
	assert_int_equal(sim_md_check(1, 3, 2, 0, &err), -EINVAL);
	assert_int_equal(sim_md_check(10, 3, 0, 0, &err), 0); /* md allows odd */
	assert_int_equal(sim_md_check(60, 8, 0, 0, &err), 0);
	assert_int_equal(sim_md_check(60, 6, 0, 0, &err), -EINVAL);
	assert_int_equal(sim_md_check(50, 9, 0, 3, &err), 0);
}

/* ---- the engine on an array -------------------------------------------------------- */

struct run {
	double mbps, iops, avg_ms, max_ms;
	uint64_t errors;
};

/* A job on an array of rig (or, with array NULL, on drive id), for ms of virtual
 * time (0: 400 requests). */
static int run_job(struct sim_rig *rig, const char *array, const char *id, unsigned read_pct,
		   unsigned random_pct, uint32_t bs, unsigned qd, uint64_t ms, struct run *out,
		   struct ss_error *err)
{
	struct io_target t = { .write = read_pct < 100 };
	struct io_dev *dev = NULL;
	struct io_result res;
	struct io_job j;
	int rc;

	t.array = array ? sim_rig_find_array(rig, array) : NULL;
	t.sim = array ? NULL : sim_rig_find(rig, id);
	rc = io_dev_open(array ? "sim-array" : "sim", &t, &dev, err);
	if (rc)
		return rc;
	io_job_init(&j);
	j.read_pct = read_pct;
	j.random_pct = random_pct;
	j.bs = bs;
	j.qd = qd;
	j.time_ns = ms * 1000000;
	if (!ms)
		j.bytes = 400ULL * bs; /* 400 requests, however long they take */
	j.continue_on_error = true;
	rc = io_dev_run(dev, &j, &res, err);
	assert_true(res.virtual_time);
	out->mbps = res.mbps;
	out->iops = res.iops;
	out->avg_ms = res.lat_avg_ns / 1e6;
	out->max_ms = (double)res.lat_max_ns / 1e6;
	out->errors = res.errors;
	io_dev_close(dev);
	return rc;
}

static void measure(struct sim_rig *rig, const char *array, const char *id, unsigned read_pct,
		    unsigned random_pct, uint32_t bs, unsigned qd, uint64_t ms, struct run *out)
{
	struct ss_error err = { 0 };

	if (run_job(rig, array, id, read_pct, random_pct, bs, qd, ms, out, &err))
		fail_msg("run: %s", err.msg);
}

static void near(double got, double want, double tol, const char *what)
{
	if (got < want * (1 - tol) || got > want * (1 + tol))
		fail_msg("%s: %.3f, expected %.3f within %.0f %%", what, got, want, 100 * tol);
}

/* RAID 0 of 4: a full-stripe sequential read is four drives' worth. */
static void test_engine_striping(void **state)
{
	struct sim_rig *rig;
	struct run one, four;

	(void)state;
	rig = rig_load(4, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\", \"d2\","
			  " \"d3\"]}");
	measure(rig, NULL, "d0", 100, 0, 512 * 1024, 2, 1000, &one);
	measure(rig, "r0", NULL, 100, 0, 2 << 20, 2, 1000, &four);
	near(four.mbps, 4 * one.mbps, 0.03, "RAID 0 of 4, MB/s");
	sim_rig_free(rig);
}

/* RAID 1: a sequential stream stays on one member (md(4)); random reads at a
 * queue depth spread over both. */
static void test_engine_mirror(void **state)
{
	struct sim_rig *rig;
	struct run one, seq, rnd1, rnd;

	(void)state;
	rig = rig_load(2, "{\"name\": \"r1\", \"level\": 1, \"members\": [\"d0\", \"d1\"]}");
	measure(rig, NULL, "d0", 100, 0, 1 << 20, 4, 1000, &one);
	measure(rig, "r1", NULL, 100, 0, 1 << 20, 4, 1000, &seq);
	near(seq.mbps, one.mbps, 0.03, "RAID 1 sequential read, MB/s");
	measure(rig, NULL, "d0", 100, 100, 4096, 16, 2000, &rnd1);
	measure(rig, "r1", NULL, 100, 100, 4096, 16, 2000, &rnd);
	if (rnd.iops < 1.6 * rnd1.iops)
		fail_msg("RAID 1 random reads at QD 16: %.0f IOPS, one drive %.0f", rnd.iops,
			 rnd1.iops);
	sim_rig_free(rig);
	/* writes go to both members and wait for the slower of two spindles that
	 * turn independently: 2/3 of a revolution on average instead of 1/2 */
	rig = rig_load(2, "{\"name\": \"r1\", \"level\": 1, \"members\": [\"d0\", \"d1\"]}");
	measure(rig, "r1", NULL, 0, 100, 65536, 1, 10000, &rnd);
	near((double)sim_rig_find(rig, "d1")->st.ctr.write_bytes, rnd.mbps * 1e7, 0.002,
	     "RAID 1 writes on member 1, bytes");
	near((double)sim_rig_find(rig, "d0")->st.ctr.write_bytes, rnd.mbps * 1e7, 0.002,
	     "RAID 1 writes on member 0, bytes");
	sim_rig_free(rig);
	rig = rig_load(2, "{\"name\": \"r1\", \"level\": 1, \"members\": [\"d0\", \"d1\"]}");
	measure(rig, NULL, "d0", 0, 100, 65536, 1, 10000, &rnd1);
	near(rnd.avg_ms - rnd1.avg_ms, (2.0 / 3 - 0.5) * 4.0, 0.2,
	     "RAID 1 write: the slower of two rotations, ms more");
	sim_rig_free(rig);
}

/* The path cap bounds what crosses it, reads and writes separately; the
 * controller's latency adds to every request. */
static void test_engine_path_and_latency(void **state)
{
	struct sim_rig *rig;
	struct run r, w, fast, slow;

	(void)state;
	rig = rig_load(4, "{\"name\": \"capped\", \"level\": 0, \"members\": [\"d0\", \"d1\", "
			  "\"d2\", \"d3\"], \"path\": {\"read_mbps\": 200, \"write_mbps\": 120}}");
	measure(rig, "capped", NULL, 100, 0, 2 << 20, 4, 1000, &r);
	near(r.mbps, 200, 0.02, "read cap, MB/s");
	sim_rig_free(rig);
	/* (fresh drives: a stream that starts again behind the heads waits for
	 * the drives' ageing, as shortest-positioning-time-first does) */
	rig = rig_load(4, "{\"name\": \"capped\", \"level\": 0, \"members\": [\"d0\", \"d1\", "
			  "\"d2\", \"d3\"], \"path\": {\"read_mbps\": 200, \"write_mbps\": 120}}");
	measure(rig, "capped", NULL, 0, 0, 2 << 20, 4, 1000, &w);
	near(w.mbps, 120, 0.02, "write cap, MB/s");
	sim_rig_free(rig);
	/* a link that keeps up adds nothing: the data streams as the drive reads */
	rig = rig_load(2, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\"]}");
	measure(rig, "r0", NULL, 100, 100, 65536, 1, 0, &fast);
	sim_rig_free(rig);
	rig = rig_load(2, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\"], "
			  "\"path\": {\"read_mbps\": 600}}");
	measure(rig, "r0", NULL, 100, 100, 65536, 1, 0, &slow);
	near(slow.avg_ms, fast.avg_ms, 1e-9, "latency behind a link that keeps up, ms");
	sim_rig_free(rig);
	/* the same sequential requests (no rotational waits) on the same fresh
	 * mechanics, 0.5 ms later each */
	rig = rig_load(2, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\"]}");
	measure(rig, "r0", NULL, 100, 0, 512 * 1024, 1, 0, &fast);
	sim_rig_free(rig);
	rig = rig_load(2, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\"], "
			  "\"controller\": {\"latency_us\": 300, \"per_member_us\": 100}}");
	measure(rig, "r0", NULL, 100, 0, 512 * 1024, 1, 0, &slow);
	near(slow.avg_ms - fast.avg_ms, 0.5, 1e-6, "controller latency, ms");
	sim_rig_free(rig);
}

static uint64_t member_reads(struct sim_rig *rig, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += sim_rig_drive(rig, i)->st.ctr.read_bytes;
	return sum;
}

static uint64_t member_writes(struct sim_rig *rig, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += sim_rig_drive(rig, i)->st.ctr.write_bytes;
	return sum;
}

/* RAID 5 writes: full stripes read nothing; small random writes read before
 * they write; requests of half a stripe from a sequential stream meet in
 * the stripe cache and go as full stripes. */
static void test_engine_parity_writes(void **state)
{
	struct sim_rig *rig;
	struct run full, half, rnd;
	uint64_t r0, w0;

	(void)state;
	rig = rig_load(5, "{\"name\": \"r5\", \"level\": 5, \"chunk_kib\": 64, \"members\": "
			  "[\"d0\", \"d1\", \"d2\", \"d3\", \"d4\"]}");
	measure(rig, "r5", NULL, 0, 0, 256 * 1024, 2, 500, &full);
	assert_int_equal(member_reads(rig, 5), 0);
	/* 5/4 of what was written went to the members */
	near((double)member_writes(rig, 5), 1.25 * full.mbps * 0.5e6, 0.02, "full-stripe writes");
	r0 = member_reads(rig, 5);
	w0 = member_writes(rig, 5);
	measure(rig, "r5", NULL, 0, 0, 128 * 1024, 4, 500, &half);
	if ((double)(member_reads(rig, 5) - r0) > 0.05 * (double)(member_writes(rig, 5) - w0))
		fail_msg("half-stripe stream: %llu bytes read for %llu written",
			 (unsigned long long)(member_reads(rig, 5) - r0),
			 (unsigned long long)(member_writes(rig, 5) - w0));
	near(half.mbps, full.mbps, 0.1, "half-stripe stream, MB/s");
	r0 = member_reads(rig, 5);
	w0 = member_writes(rig, 5);
	measure(rig, "r5", NULL, 0, 100, 4096, 1, 0, &rnd);
	/* read-modify-write: old data and parity read, new data and parity written */
	near((double)(member_reads(rig, 5) - r0), 2 * 400 * 4096, 1e-9, "RMW reads");
	near((double)(member_writes(rig, 5) - w0), 2 * 400 * 4096, 1e-9, "RMW writes");
	sim_rig_free(rig);
}

/* A drive that idled: the platter turned on, its rotational wait with it. */
static void test_spindle_idle(void **state)
{
	struct sim_rig *rig;
	struct sim_drive *d;
	double rev;
	uint64_t p0, p1;

	(void)state;
	rig = rig_load(1, "");
	d = sim_rig_find(rig, "d0");
	rev = d->cfg.media.rev_ns; /* 4 ms at 15000 rpm */
	assert_true(rev > 3.9e6 && rev < 4.1e6);
	p0 = sim_drive_position_ns(d, 123456789);
	sim_drive_idle(d, (uint64_t)(rev / 4));
	p1 = sim_drive_position_ns(d, 123456789);
	/* the same seek, a quarter turn less to wait (modulo a turn) */
	near(fmod((double)p0 - (double)p1 + 4 * rev, rev), rev / 4, 1e-6, "a quarter turn");
	/* a whole turn changes nothing; continuing the last transfer needs none */
	sim_drive_idle(d, (uint64_t)rev);
	near((double)sim_drive_position_ns(d, 123456789), (double)p1, 1e-6, "a whole turn");
	sim_drive_idle(d, (uint64_t)(rev / 3));
	assert_int_equal(sim_drive_position_ns(d, d->st.next_lba), 0);
	sim_rig_free(rig);
}

/* A member that waits for the others destages its write cache meanwhile: 4 KiB
 * random writes at QD 1 on RAID 0 of 2 cached drives run at about two drives'
 * destage rate, not one's (each member idles while the other works). */
static void test_engine_idle_destage(void **state)
{
	struct sim_rig *rig;
	struct run one, two;

	(void)state;
	rig = rig_load_with(2, ", \"write_cache\": true",
			    "{\"name\": \"r0\", \"level\": 0, \"chunk_kib\": 64, "
			    "\"members\": [\"d0\", \"d1\"]}");
	measure(rig, NULL, "d0", 0, 100, 4096, 1, 30000, &one);
	sim_rig_free(rig);
	rig = rig_load_with(2, ", \"write_cache\": true",
			    "{\"name\": \"r0\", \"level\": 0, \"chunk_kib\": 64, "
			    "\"members\": [\"d0\", \"d1\"]}");
	measure(rig, "r0", NULL, 0, 100, 4096, 1, 30000, &two);
	print_message("4 KiB random writes QD 1, cache on: one drive %.0f IOPS, RAID 0 of 2 %.0f\n",
		      one.iops, two.iops);
	assert_true(two.iops > 1.6 * one.iops);
	sim_rig_free(rig);
}

/* A sequential run that starts again behind the heads (the second of two
 * from the array's start): no command waits for long while newer ones
 * continue the stream (each member serves a run of commands from its first). */
static void test_engine_restart(void **state)
{
	struct sim_rig *rig;
	struct run first, again;

	(void)state;
	rig = rig_load(4, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\", "
			  "\"d2\", \"d3\"]}");
	measure(rig, "r0", NULL, 100, 0, 2 << 20, 4, 2000, &first);
	measure(rig, "r0", NULL, 100, 0, 2 << 20, 4, 2000, &again);
	print_message("RAID 0 of 4, 2 MiB reads QD 4: %.1f MB/s, max %.1f ms; again %.1f MB/s, "
		      "max %.1f ms\n",
		      first.mbps, first.max_ms, again.mbps, again.max_ms);
	/* four requests of about 3.5 ms each ahead of it, and a seek */
	assert_true(again.max_ms < 30);
	near(again.mbps, first.mbps, 0.03, "MB/s of the second run");
	sim_rig_free(rig);
}

/* 64 KiB writes one after the other at QD 1 on RAID 5 of 4 with 64 KiB chunks:
 * md read 2 chunks per stripe of 3 (the first write's reconstruct-write; the
 * next two found them in its stripe cache), measured on Debian's 6.1 kernel
 * with scsi_debug members (docs/simulator.md); with a cache too small for a
 * stripe's rows, every write reads two chunks. */
static void test_engine_stripe_cache(void **state)
{
	struct sim_rig *rig;
	struct run r;

	(void)state;
	rig = rig_load(4, "{\"name\": \"r5\", \"level\": 5, \"chunk_kib\": 64, \"members\": "
			  "[\"d0\", \"d1\", \"d2\", \"d3\"]}");
	measure(rig, "r5", NULL, 0, 0, 65536, 1, 0, &r);
	near((double)member_reads(rig, 4), 400 * 65536 * 2.0 / 3, 0.01, "reads, default cache");
	sim_rig_free(rig);
	rig = rig_load(4, "{\"name\": \"r5\", \"level\": 5, \"chunk_kib\": 512, "
			  "\"stripe_cache\": 17, \"members\": [\"d0\", \"d1\", \"d2\", \"d3\"]}");
	measure(rig, "r5", NULL, 0, 0, 65536, 1, 0, &r);
	near((double)member_reads(rig, 4), 400 * 65536 * 2.0, 0.01, "reads, 17 rows of cache");
	sim_rig_free(rig);
}

/* A member's medium error fails the array request that touched it. */
static void test_engine_errors(void **state)
{
	struct sim_rig *rig;
	struct ss_error err = { 0 };
	struct run r;

	(void)state;
	rig = rig_load(2, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\"]}");
	assert_int_equal(sim_drive_inject(sim_rig_find(rig, "d1"), "medium-error:0-2000", &err), 0);
	measure(rig, "r0", NULL, 100, 0, 1 << 20, 1, 100, &r);
	assert_true(r.errors > 0);
	assert_true(r.iops > 0);
	sim_rig_free(rig);
}

/* The same seed, the same virtual time: the same figures. */
static void test_engine_deterministic(void **state)
{
	struct sim_rig *rig;
	struct run a, b;

	(void)state;
	rig = rig_load(6, "{\"name\": \"r6\", \"level\": 6, \"members\": [\"d0\", \"d1\", \"d2\","
			  " \"d3\", \"d4\", \"d5\"], \"path\": {\"read_mbps\": 300, "
			  "\"write_mbps\": 300}}");
	measure(rig, "r6", NULL, 50, 100, 65536, 8, 500, &a);
	sim_rig_free(rig);
	rig = rig_load(6, "{\"name\": \"r6\", \"level\": 6, \"members\": [\"d0\", \"d1\", \"d2\","
			  " \"d3\", \"d4\", \"d5\"], \"path\": {\"read_mbps\": 300, "
			  "\"write_mbps\": 300}}");
	measure(rig, "r6", NULL, 50, 100, 65536, 8, 500, &b);
	assert_true(a.iops == b.iops && a.avg_ms == b.avg_ms);
	sim_rig_free(rig);
}

/* Members the array cannot use: no chunk fits. */
static void test_engine_open(void **state)
{
	struct sim_rig *rig;
	struct io_target t = { 0 };
	struct io_dev *dev = NULL;
	struct ss_error err = { 0 };

	(void)state;
	rig = rig_load(2, "{\"name\": \"r0\", \"level\": 0, \"members\": [\"d0\", \"d1\"]}");
	assert_int_equal(io_dev_open("sim-array", &t, &dev, &err), -EINVAL);
	t.array = sim_rig_find_array(rig, "r0");
	assert_int_equal(io_dev_open("sim-array", &t, &dev, &err), 0);
	/* md uses the smallest member's size, in whole chunks */
	assert_int_equal(io_dev_geom(dev)->blocks, 2 * (879097968ULL / 1024 * 1024));
	assert_string_equal(io_dev_engine(dev)->name, "sim-array");
	io_dev_close(dev);
	sim_rig_free(rig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rig_arrays),
		cmocka_unit_test(test_rig_errors),
		cmocka_unit_test(test_rig_member_kinds),
		cmocka_unit_test(test_raid0),
		cmocka_unit_test(test_raid10_near),
		cmocka_unit_test(test_mirror_reads),
		cmocka_unit_test(test_raid5_left_symmetric),
		cmocka_unit_test(test_raid6_left_symmetric),
		cmocka_unit_test(test_raid50),
		cmocka_unit_test(test_rmw_or_rcw),
		cmocka_unit_test(test_partial_rows),
		cmocka_unit_test(test_stripe_cache),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_engine_striping),
		cmocka_unit_test(test_engine_mirror),
		cmocka_unit_test(test_engine_path_and_latency),
		cmocka_unit_test(test_engine_parity_writes),
		cmocka_unit_test(test_engine_stripe_cache),
		cmocka_unit_test(test_engine_errors),
		cmocka_unit_test(test_spindle_idle),
		cmocka_unit_test(test_engine_idle_destage),
		cmocka_unit_test(test_engine_restart),
		cmocka_unit_test(test_engine_deterministic),
		cmocka_unit_test(test_engine_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
