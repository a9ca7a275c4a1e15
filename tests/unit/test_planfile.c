/* Unit tests of the plan file: round trip write -> load, limits, and every
 * validation error naming its field. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "raidplan.h"
#include "shortstroke/planfile.h"

#include "fixture.h"

#define MIB (1024ull * 1024)

/* RAID 10 of four 15k disks (the last one 4Kn), database workload, 25 %. */
static struct plan *make_plan(void)
{
	struct plan *p = plan_new();
	struct ss_error err = { 0 };
	struct rp_eval *ev = NULL;
	struct rp_disk rd[4];

	assert_non_null(p);
	snprintf(p->created, sizeof(p->created), "2024-05-01T12:00:00Z");
	p->n_disks = 4;
	p->disks = calloc(4, sizeof(*p->disks));
	assert_non_null(p->disks);
	for (int i = 0; i < 4; i++) {
		struct plan_disk *d = &p->disks[i];

		snprintf(d->device, sizeof(d->device), "sim:d%d", i);
		snprintf(d->serial, sizeof(d->serial), "SER%d", i);
		snprintf(d->wwn, sizeof(d->wwn), "5000cca00b3c1f2%d", i);
		snprintf(d->model, sizeof(d->model), "HUS154545VLS300");
		d->block_size = i == 3 ? 4096 : 512;
		d->capacity_blocks = 879097968ull * 512 / d->block_size;
		rp_disk_init(&d->rp);
		d->rp.rpm = 15000;
		d->rp.seek_avg_ms = i == 0 ? 3.3 : 0;
		d->rp.capacity = d->capacity_blocks * d->block_size;
		rd[i] = d->rp;
	}
	p->layout.level = RP_LEVEL_10;
	p->layout.n_disks = 4;
	p->layout.copies = 2;
	p->layout.chunk_bytes = 65536;
	p->layout.stroke = 0.25;
	snprintf(p->profile, sizeof(p->profile), "database");
	assert_int_equal(rp_workload_profile(RP_PROFILE_DATABASE, 16, &p->workload, NULL), 0);
	p->goals.min_capacity = 200e9;
	p->goals.min_failures = 1;
	p->goals.level_mask = RP_LEVEL_BIT(RP_LEVEL_10) | RP_LEVEL_BIT(RP_LEVEL_01);
	p->path.controller_mbps = 1000;
	assert_int_equal(rp_evaluate(rd, 4, &p->path, &p->layout, &p->workload, &ev, NULL), 0);
	for (int id = 0; id < plan_figure_count(); id++) {
		p->predicted[id] = rp_eval_value(ev, id);
		p->predicted_set[id] = rp_eval_figure(ev, id)->valid;
	}
	rp_eval_free(ev);
	snprintf(p->notes[p->n_notes++], sizeof(p->notes[0]), "a note");
	assert_int_equal(plan_set_limits(p, &err), 0);
	return p;
}

static char *plan_text(const struct plan *p)
{
	char *text = NULL;

	assert_int_equal(planfile_format(p, &text, NULL), 0);
	return text;
}

static void test_limits(void **state)
{
	struct plan *p;

	(void)state;
	assert_true(plan_limit_bytes(0.25, 1000 * MIB + 7) == 250 * MIB);
	assert_true(plan_limit_bytes(0.2501, 1000 * MIB) == 250 * MIB);
	assert_true(plan_limit_bytes(1.0, 1000 * MIB + 7) == 1000 * MIB + 7);
	assert_true(plan_limit_bytes(0.99, 1000 * MIB + 7) == 990 * MIB);
	assert_true(plan_limit_bytes(1e-9, 1000 * MIB) == 0);
	assert_true(plan_limit_bytes(0, 1000 * MIB) == 0);
	p = make_plan();
	/* floor(0.25 x 450098159616) = 112524539904 -> 107311 MiB */
	assert_true(p->limit_bytes == 107311 * MIB);
	assert_true(p->disks[0].limit_blocks == 107311 * MIB / 512);
	assert_true(p->disks[3].limit_blocks == 107311 * MIB / 4096);
	p->layout.stroke = 1e-9;
	assert_int_equal(plan_set_limits(p, NULL), -EINVAL);
	plan_free(p);
}

static void test_roundtrip(void **state)
{
	struct plan *p = make_plan(), *q = NULL;
	struct ss_error err = { 0 };
	char path[300];
	struct stat st;
	DIR *d;
	struct dirent *de;
	int files = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/plan.json", fixture_dir);
	assert_int_equal(planfile_write(path, p, &err), 0);
	assert_int_equal(planfile_write(path, p, &err), 0); /* replaces it */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	d = opendir(fixture_dir);
	while ((de = readdir(d)))
		files += de->d_name[0] != '.';
	closedir(d);
	assert_int_equal(files, 1); /* no temp file left */

	assert_int_equal(planfile_load(path, &q, &err), 0);
	assert_int_equal(q->version, PLAN_VERSION);
	assert_string_equal(q->created, "2024-05-01T12:00:00Z");
	assert_int_equal(q->n_disks, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(q->disks[i].device, p->disks[i].device);
		assert_string_equal(q->disks[i].serial, p->disks[i].serial);
		assert_string_equal(q->disks[i].wwn, p->disks[i].wwn);
		assert_string_equal(q->disks[i].model, p->disks[i].model);
		assert_true(q->disks[i].capacity_blocks == p->disks[i].capacity_blocks);
		assert_int_equal(q->disks[i].block_size, p->disks[i].block_size);
		assert_true(q->disks[i].limit_blocks == p->disks[i].limit_blocks);
		assert_true(q->disks[i].rp.rpm == 15000);
		assert_true(q->disks[i].rp.capacity == p->disks[i].rp.capacity);
		assert_true(q->disks[i].rp.seek_avg_ms == p->disks[i].rp.seek_avg_ms);
	}
	assert_int_equal(q->layout.level, RP_LEVEL_10);
	assert_int_equal(q->layout.n_disks, 4);
	assert_int_equal(q->layout.copies, 2);
	assert_true(q->layout.chunk_bytes == 65536);
	assert_true(q->layout.stroke == 0.25);
	assert_true(q->limit_bytes == p->limit_bytes);
	assert_string_equal(q->profile, "database");
	assert_true(q->workload.read_share == p->workload.read_share);
	assert_true(q->workload.request_bytes == p->workload.request_bytes);
	assert_int_equal(q->workload.queue_depth, 16);
	assert_true(q->goals.min_capacity == 200e9);
	assert_int_equal(q->goals.min_failures, 1);
	assert_int_equal(q->goals.level_mask, p->goals.level_mask);
	assert_true(q->path.controller_mbps == 1000);
	for (int id = 0; id < plan_figure_count(); id++) {
		assert_int_equal(q->predicted_set[id], p->predicted_set[id]);
		if (p->predicted_set[id])
			assert_true(q->predicted[id] == p->predicted[id]); /* exact */
	}
	assert_int_equal(q->n_notes, 1);
	assert_string_equal(q->notes[0], "a note");
	plan_free(q);

	/* a placeholder and a size mix survive too */
	p->disks[2].device[0] = '\0';
	p->disks[2].serial[0] = '\0';
	p->disks[2].wwn[0] = '\0';
	p->disks[2].placeholder = true;
	snprintf(p->disks[2].model_of, sizeof(p->disks[2].model_of), "sim:d0");
	snprintf(p->disks[1].method, sizeof(p->disks[1].method), "partition");
	snprintf(p->profile, sizeof(p->profile), "fileserver");
	assert_int_equal(rp_workload_profile(RP_PROFILE_FILESERVER, 4, &p->workload, NULL), 0);
	assert_int_equal(planfile_write(path, p, &err), 0);
	assert_int_equal(planfile_load(path, &q, &err), 0);
	assert_true(q->disks[2].placeholder);
	assert_string_equal(q->disks[2].device, "");
	assert_string_equal(q->disks[2].model_of, "sim:d0");
	assert_string_equal(q->disks[1].method, "partition");
	assert_string_equal(q->disks[0].method, ""); /* auto: not written */
	assert_int_equal(q->workload.n_sizes, p->workload.n_sizes);
	assert_ptr_equal(q->workload.sizes, q->sizes);
	for (size_t i = 0; i < p->workload.n_sizes; i++) {
		assert_true(q->sizes[i].bytes == p->workload.sizes[i].bytes);
		assert_true(q->sizes[i].share == p->workload.sizes[i].share);
	}
	plan_free(q);

	/* libraidplan 2.1's inputs: written when set, read back */
	p->disks[0].rp.queue_depth = 32;
	p->disks[0].rp.write_cache = RP_WCACHE_ON;
	p->disks[1].rp.write_cache = RP_WCACHE_OFF;
	p->path.controller_write_mbps = 400;
	p->path.latency_ms = 0.05;
	p->path.latency_per_disk_ms = 0.01;
	p->path.cache_mb = 1024;
	p->path.cache_mbps = 1500;
	assert_int_equal(planfile_write(path, p, &err), 0);
	assert_int_equal(planfile_load(path, &q, &err), 0);
	assert_int_equal(q->disks[0].rp.queue_depth, 32);
	assert_int_equal(q->disks[0].rp.write_cache, RP_WCACHE_ON);
	assert_int_equal(q->disks[1].rp.write_cache, RP_WCACHE_OFF);
	assert_int_equal(q->disks[3].rp.write_cache, RP_WCACHE_DEFAULT);
	assert_true(q->path.controller_write_mbps == 400 && q->path.latency_ms == 0.05 &&
		    q->path.latency_per_disk_ms == 0.01 && q->path.cache_mb == 1024 &&
		    q->path.cache_mbps == 1500);
	plan_free(q);
	plan_free(p);
}

/* A zoned member's limit is whole zones (the planner's stroke is). */
static void test_zoned_limits(void **state)
{
	struct plan *p = make_plan();
	uint64_t zone = 256 * MIB, cmin = 879097968ull * 512;

	(void)state;
	for (size_t i = 0; i < p->n_disks; i++)
		p->disks[i].rp.zone_bytes = zone;
	/* a stroke of 100 zones, as the planner gives it, in floating point */
	p->layout.stroke = 100.0 * (double)zone / (double)cmin;
	assert_int_equal(plan_set_limits(p, NULL), 0);
	assert_true(p->limit_bytes == 100 * zone);
	assert_true(p->disks[0].limit_blocks == 100 * zone / 512);
	plan_free(p);
}

/* The writer's figure keys are libraidplan's. */
static void test_figure_keys(void **state)
{
	struct plan *p = make_plan();
	char *text = plan_text(p);
	json_object *o = json_tokener_parse(text), *pr;
	struct rp_disk d;
	struct rp_layout l = { RP_SIZED(struct rp_layout), .level = RP_LEVEL_0, .n_disks = 1,
			       .stroke = 1 };
	struct rp_workload w;
	struct rp_eval *ev = NULL;

	(void)state;
	rp_disk_init(&d);
	d.capacity = 1000000000000ull;
	rp_workload_init(&w);
	assert_int_equal(rp_workload_profile(RP_PROFILE_DATABASE, 1, &w, NULL), 0);
	assert_int_equal(rp_evaluate(&d, 1, NULL, &l, &w, &ev, NULL), 0);
	assert_true(json_object_object_get_ex(o, "predicted", &pr));
	assert_int_equal(plan_figure_count(), rp_figure_count());
	for (int id = 0; id < rp_figure_count(); id++)
		assert_true(json_object_object_get_ex(pr, rp_eval_figure(ev, id)->key, NULL));
	assert_int_equal(json_object_object_length(pr), rp_figure_count());
	rp_eval_free(ev);
	json_object_put(o);
	free(text);
	plan_free(p);
}

/* ---- validation ---------------------------------------------------------- */

/* Walk "a.b[2].c" to the parent object/array of the last component. */
static json_object *walk(json_object *root, const char *path, char *last, size_t len, int *idx)
{
	char buf[128], *save = NULL;
	json_object *cur = root;
	char *tok, *next;

	snprintf(buf, sizeof(buf), "%s", path);
	tok = strtok_r(buf, ".", &save);
	while (tok) {
		char *br = strchr(tok, '[');
		int i = -1;

		next = strtok_r(NULL, ".", &save);
		if (br) {
			*br = '\0';
			i = atoi(br + 1);
		}
		if (!next && i < 0) {
			snprintf(last, len, "%s", tok);
			*idx = -1;
			return cur;
		}
		assert_true(json_object_object_get_ex(cur, tok, &cur));
		if (i >= 0) {
			if (!next) {
				last[0] = '\0';
				*idx = i;
				return cur;
			}
			cur = json_object_array_get_idx(cur, (size_t)i);
		}
		tok = next;
	}
	return NULL;
}

/* Set path to the JSON value text (NULL: delete it). */
static char *mutate(const char *path, const char *value)
{
	struct plan *p = make_plan();
	char *text = plan_text(p), last[64], *out;
	json_object *root = json_tokener_parse(text), *parent, *v = NULL;
	int idx = -1;

	plan_free(p);
	free(text);
	parent = walk(root, path, last, sizeof(last), &idx);
	assert_non_null(parent);
	if (value) {
		v = json_tokener_parse(value);
		if (!v)
			assert_string_equal(value, "null");
	}
	if (idx >= 0)
		json_object_array_put_idx(parent, (size_t)idx, v);
	else if (value)
		json_object_object_add(parent, last, v);
	else
		json_object_object_del(parent, last);
	out = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	json_object_put(root);
	return out;
}

static void expect_bad_text(const char *text, size_t len, const char *want)
{
	struct ss_error err = { 0 };
	struct plan *p = (struct plan *)1;
	int rc = planfile_parse(text, len, "plan.json", &p, &err);

	if (rc != -EINVAL || !strstr(err.msg, want) || strncmp(err.msg, "plan.json: ", 11))
		fail_msg("want -EINVAL and \"%s\", got %d \"%s\"", want, rc, err.msg);
	assert_null(p);
}

static void expect_bad(const char *path, const char *value, const char *want)
{
	char *text = mutate(path, value);

	expect_bad_text(text, strlen(text), want);
	free(text);
}

static void test_valid_plan_parses(void **state)
{
	struct plan *p = make_plan(), *q = NULL;
	char *text = plan_text(p);
	struct ss_error err = { 0 };

	(void)state;
	assert_int_equal(planfile_parse(text, strlen(text), "x", &q, &err), 0);
	plan_free(q);
	/* not NUL-terminated: the parser keeps to len (ASan sees an overread) */
	{
		size_t n = strlen(text);
		char *exact = malloc(n);

		memcpy(exact, text, n);
		assert_int_equal(planfile_parse(exact, n, "x", &q, &err), 0);
		plan_free(q);
		free(exact);
	}
	free(text);
	/* optional parts may be left out */
	text = mutate("layout.rebuild_mbps", NULL);
	assert_int_equal(planfile_parse(text, strlen(text), "x", &q, &err), 0);
	plan_free(q);
	free(text);
	text = mutate("goals", NULL);
	assert_int_equal(planfile_parse(text, strlen(text), "x", &q, &err), 0);
	plan_free(q);
	free(text);
	plan_free(p);
}

static void test_bad_json(void **state)
{
	static const char nul[] = "{\"format\": \"shortstroke-plan\"\0}";
	char deep[400], *big;
	size_t n = 0;

	(void)state;
	expect_bad_text("", 0, "not valid JSON at line 1, column 1");
	expect_bad_text("{\n  \"format\": ", 14, "not valid JSON at line 2");
	expect_bad_text("[1, 2]", 6, "expected a JSON object, got an array");
	expect_bad_text("{} x", 4, "at line 1, column 4");
	expect_bad_text(nul, sizeof(nul) - 1, "NUL byte");
	expect_bad_text("{\"a\": 1,}", 9, "not valid JSON"); /* strict */
	expect_bad_text("{}", 2, "not a shortstroke plan");
	expect_bad_text("{\"format\": \"other\"}", 19, "not a shortstroke plan");
	for (int i = 0; i < 100; i++)
		deep[n++] = '[';
	for (int i = 0; i < 100; i++)
		deep[n++] = ']';
	expect_bad_text(deep, n, "not valid JSON");
	big = malloc(PLAN_MAX_BYTES + 2);
	memset(big, ' ', PLAN_MAX_BYTES + 2);
	big[0] = '{';
	big[PLAN_MAX_BYTES + 1] = '}';
	expect_bad_text(big, PLAN_MAX_BYTES + 2, "larger than 16 MiB");
	free(big);
}

static void test_bad_fields(void **state)
{
	(void)state;
	expect_bad("version", "2", "version: plan format 2 is not known");
	expect_bad("version", "\"1\"", "version: expected a whole number, got a string");
	expect_bad("version", NULL, "version: missing");
	expect_bad("bogus", "1", "bogus: unknown field");
	expect_bad("created", NULL, "created: missing");
	expect_bad("created", "\"\"", "created: empty");
	expect_bad("disks", NULL, "disks: missing");
	expect_bad("disks", "{}", "disks: expected an array, got an object");
	expect_bad("disks", "[]", "disks: empty");
	expect_bad("disks[0]", "7", "disks[0]: expected an object, got a number");
	expect_bad("disks[1].capacity_blocks", "0", "disks[1].capacity_blocks: 0 is out of range");
	expect_bad("disks[1].capacity_blocks", "-5",
		   "disks[1].capacity_blocks: must not be negative");
	expect_bad("disks[1].capacity_blocks", "1.5", "expected a whole number, got a number");
	expect_bad("disks[1].capacity_blocks", NULL, "disks[1].capacity_blocks: missing");
	expect_bad("disks[0].capacity_blocks", "18446744073709551615",
		   "disks[0].capacity_blocks: 18446744073709551615 is out of range");
	expect_bad("disks[0].block_size", "1000",
		   "disks[0].block_size: 1000 is not a power of two");
	expect_bad("disks[0].block_size", "256", "disks[0].block_size: 256 is out of range");
	expect_bad("disks[0].limit_blocks", "879097969", "disks[0].limit_blocks: 879097969 is out");
	expect_bad("disks[2].limit_blocks", "1000", "disks[2].limit_blocks: 1000 does not match");
	expect_bad("disks[0].device", "null", "disks[0].device: missing (or set \"placeholder\"");
	expect_bad("disks[0].device", "42", "disks[0].device: expected a string, got a number");
	expect_bad("disks[1].placeholder", "true", "disks[1].device: a placeholder disk names no");
	expect_bad("disks[1].placeholder", "\"yes\"", "disks[1].placeholder: expected true or");
	expect_bad("disks[1].model_of", "\"sim:d0\"", "disks[1].model_of: only a placeholder");
	expect_bad("disks[1].method", "\"gpt\"",
		   "disks[1].method: unknown method 'gpt' (auto, amac, hpa, dco, scsi-resize, "
		   "scsi-format, nvme-ns, partition)");
	expect_bad("disks[1].method", "7", "disks[1].method: expected a string, got a number");
	expect_bad("disks[1].device", "\"sim:d0\"", "disks[1].device: the same disk as disks[0]");
	expect_bad("disks[3].serial", "\"SER1\"", "disks[3].serial: the same disk as disks[1]");
	expect_bad("disks[2].wwn", "\"5000CCA00B3C1F20\"",
		   "disks[2].wwn: the same disk as disks[0]");
	expect_bad("disks[0].serial", "\"A\\u0001B\"", "disks[0].serial: contains a control");
	expect_bad("disks[0].model", "\"0123456789012345678901234567890123456789012345678\"",
		   "disks[0].model: too long (at most 47 characters)");
	expect_bad("disks[0].rpm", "\"fast\"", "disks[0].rpm: expected a number, got a string");
	expect_bad("disks[0].rpm", "100", "the plan does not evaluate");
	expect_bad("disks[0].seek_avg_ms", "-1", "disks[0].seek_avg_ms: expected a number in [0");
	expect_bad("disks[0].seek_avg_ms", "1e300", "disks[0].seek_avg_ms: expected a number in");
	expect_bad("disks[0].colour", "\"red\"", "disks[0].colour: unknown field");
	expect_bad("disks[0].queue_depth", "2000", "disks[0].queue_depth: 2000 is out of range");
	expect_bad("disks[0].write_cache", "\"maybe\"",
		   "disks[0].write_cache: expected \"on\" or \"off\"");
	expect_bad("disks[0].write_cache", "true",
		   "disks[0].write_cache: expected a string, got a boolean");
	expect_bad("disks[0].zoned", "\"drive-managed\"",
		   "disks[0].zoned: expected \"host-aware\" or \"host-managed\"");
	expect_bad("disks[0].zoned", "\"host-managed\"", "the plan does not evaluate");
	expect_bad("path.latency_ms", "5000", "path.latency_ms: expected a number in [0");
	expect_bad("path.cache_mbps", "-1", "path.cache_mbps: expected a number in [0");
	expect_bad("layout", NULL, "layout: missing");
	expect_bad("layout", "[]", "layout: expected an object, got an array");
	expect_bad("layout.level", "\"7\"", "layout.level: unknown RAID level");
	expect_bad("layout.level", "10", "layout.level: expected a string, got a number");
	expect_bad("layout.level", "\"60\"", "the plan does not evaluate");
	expect_bad("layout.copies", "3", "the plan does not evaluate");
	expect_bad("layout.stroke", "0", "layout.stroke: expected a number in (0, 1], got 0");
	expect_bad("layout.stroke", "1.5", "layout.stroke: expected a number in (0, 1], got 1.5");
	expect_bad("layout.stroke", "1e-12", "layout.stroke: 1e-12 of the smallest disk is less");
	expect_bad("layout.stroke", "0.5", "layout.limit_bytes: 112523739136 does not match");
	expect_bad("layout.stroke", NULL, "layout.stroke: missing");
	/* json-c reads NaN and Infinity even in strict mode: the ranges catch them */
	expect_bad("layout.stroke", "NaN", "layout.stroke: expected a number in (0, 1], got nan");
	expect_bad("predicted.mttdl", "Infinity", "predicted.mttdl: expected a number in");
	expect_bad("layout.limit_bytes", "1048576", "layout.limit_bytes: 1048576 does not match");
	expect_bad("layout.chunk_bytes", "3000", "layout.chunk_bytes: 3000 is out of range");
	expect_bad("layout.chunk_bytes", "12288",
		   "layout.chunk_bytes: 12288 is not a power of two");
	expect_bad("layout.members", "[0]", "layout.members: unknown field");
	expect_bad("workload", NULL, "workload: missing");
	expect_bad("workload.read_share", "1.5",
		   "workload.read_share: expected a number in [0, 1]");
	expect_bad("workload.queue_depth", "0", "workload.queue_depth: 0 is out of range");
	expect_bad("workload.profile", "\"foo\"", "workload.profile: unknown");
	expect_bad("workload.request_bytes", NULL, "workload.request_bytes: missing (give");
	expect_bad("workload.sizes", "[{\"bytes\": 0, \"share\": 1}]",
		   "workload.sizes[0].bytes: 0 is out of range");
	expect_bad("workload.sizes", "[{\"bytes\": 4096, \"share\": 0}]",
		   "workload.sizes: the shares add up to 0");
	expect_bad("workload.sizes", "[7]", "workload.sizes[0]: expected an object");
	expect_bad("goals.levels", "[\"7\"]", "goals.levels: entry 0 is not a RAID level");
	expect_bad("goals.iops", "-1", "goals.iops: expected a number in [0");
	expect_bad("goals.wish", "1", "goals.wish: unknown field");
	expect_bad("path.bus_mbps", "-1", "path.bus_mbps: expected a number in [0");
	expect_bad("path.links", "[]", "path.links: unknown field");
	expect_bad("predicted.mttdl", "\"x\"", "predicted.mttdl: expected a number, got a string");
	expect_bad("notes", "[1]", "notes: entry 0 is not a string");
	expect_bad("notes", "\"n\"", "notes: expected an array");
}

static void test_load_errors(void **state)
{
	struct ss_error err = { 0 };
	struct plan *p = NULL;
	char path[300];

	(void)state;
	snprintf(path, sizeof(path), "%s/missing.json", fixture_dir);
	assert_int_equal(planfile_load(path, &p, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "cannot open the plan"));
	assert_int_equal(planfile_load(fixture_dir, &p, &err), -EISDIR);
	snprintf(path, sizeof(path), "%s/no/such/fixture_dir/plan.json", fixture_dir);
	p = make_plan();
	assert_int_equal(planfile_write(path, p, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "cannot write the plan"));
	plan_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits),	    cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_figure_keys), cmocka_unit_test(test_valid_plan_parses),
		cmocka_unit_test(test_bad_json),    cmocka_unit_test(test_bad_fields),
		cmocka_unit_test(test_load_errors), cmocka_unit_test(test_zoned_limits),
	};

	return cmocka_run_group_tests(tests, fixture_dir_setup, fixture_dir_teardown);
}
