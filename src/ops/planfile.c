/* planfile.c - the plan file: writer (json-c, atomic) and a validating
 * parser that names the first bad field. Format: docs/plan-file.md. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "shortstroke/capacity.h"
#include "shortstroke/fileio.h"
#include "shortstroke/planfile.h"

#define PLAN_GENERATOR "shortstroke 0.1.0"

/* The optional model figures of a disk: key and offset in struct rp_disk. */
static const struct {
	const char *key;
	size_t off;
	double max;
} disk_figs[] = {
	{ "seek_t2t_ms", offsetof(struct rp_disk, seek_t2t_ms), 1000 },
	{ "seek_avg_ms", offsetof(struct rp_disk, seek_avg_ms), 1000 },
	{ "seek_full_ms", offsetof(struct rp_disk, seek_full_ms), 1000 },
	{ "outer_mbps", offsetof(struct rp_disk, outer_mbps), 1e6 },
	{ "inner_mbps", offsetof(struct rp_disk, inner_mbps), 1e6 },
	{ "cache_mb", offsetof(struct rp_disk, cache_mb), 1e9 },
	{ "link_mbps", offsetof(struct rp_disk, link_mbps), 1e9 },
	{ "overhead_ms", offsetof(struct rp_disk, overhead_ms), 1000 },
	{ "mttf_hours", offsetof(struct rp_disk, mttf_hours), 1e12 },
	{ "ure_per_bit", offsetof(struct rp_disk, ure_per_bit), 1 },
};
#define N_DISK_FIGS (sizeof(disk_figs) / sizeof(disk_figs[0]))

/* The path's optional fields (libraidplan 2.1). */
static const struct {
	const char *key;
	size_t off;
	double max;
} path_figs[] = {
	{ "controller_write_mbps", offsetof(struct rp_path, controller_write_mbps), 1e9 },
	{ "bus_write_mbps", offsetof(struct rp_path, bus_write_mbps), 1e9 },
	{ "latency_ms", offsetof(struct rp_path, latency_ms), 1000 },
	{ "latency_per_disk_ms", offsetof(struct rp_path, latency_per_disk_ms), 100 },
	{ "cache_mb", offsetof(struct rp_path, cache_mb), 1e7 },
	{ "cache_mbps", offsetof(struct rp_path, cache_mbps), 1e9 },
	/* 2.2 */
	{ "member_efficiency", offsetof(struct rp_path, member_efficiency), 1 },
	{ "write_ratio", offsetof(struct rp_path, write_ratio), 1 },
};
#define N_PATH_FIGS (sizeof(path_figs) / sizeof(path_figs[0]))

static double *path_fig(const struct rp_path *p, size_t i)
{
	return (double *)((char *)p + path_figs[i].off);
}

static double *disk_fig(struct rp_disk *d, size_t i)
{
	return (double *)((char *)d + disk_figs[i].off);
}

static double disk_fig_get(const struct rp_disk *d, size_t i)
{
	return *(const double *)((const char *)d + disk_figs[i].off);
}

int plan_figure_count(void)
{
	return rp_figure_count() < PLAN_MAX_FIGURES ? rp_figure_count() : PLAN_MAX_FIGURES;
}

struct plan *plan_new(void)
{
	struct plan *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	rp_layout_init(&p->layout);
	rp_workload_init(&p->workload);
	for (size_t i = 0; i < PLAN_MAX_SIZES; i++)
		rp_size_share_init(&p->sizes[i]);
	rp_path_init(&p->path);
	rp_goals_init(&p->goals);
	p->version = PLAN_VERSION;
	snprintf(p->generator, sizeof(p->generator), "%s, libraidplan %s", PLAN_GENERATOR,
		 rp_version());
	return p;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	free(p->disks);
	free(p);
}

uint64_t plan_limit_bytes(double stroke, uint64_t min_capacity)
{
	double used;

	if (!(stroke > 0) || min_capacity == 0)
		return 0;
	if (stroke >= 1)
		return min_capacity;
	used = floor(stroke * (double)min_capacity);
	if (used >= (double)min_capacity)
		return min_capacity;
	return (uint64_t)used / PLAN_LIMIT_ALIGN * PLAN_LIMIT_ALIGN;
}

static uint64_t plan_min_capacity(const struct plan *p)
{
	uint64_t cmin = UINT64_MAX;

	for (size_t i = 0; i < p->n_disks; i++) {
		uint64_t c = p->disks[i].capacity_blocks * p->disks[i].block_size;

		if (c < cmin)
			cmin = c;
	}
	return p->n_disks ? cmin : 0;
}

/* The per-member limit of a plan: plan_limit_bytes, or whole zones when a
 * member is zoned (the planner's stroke is whole zones of the largest). */
static uint64_t plan_limit(const struct plan *p)
{
	uint64_t cmin = plan_min_capacity(p), zone = 0, k;

	for (size_t i = 0; i < p->n_disks; i++)
		if (p->disks[i].rp.zone_bytes > zone)
			zone = p->disks[i].rp.zone_bytes;
	if (!zone || !(p->layout.stroke > 0))
		return plan_limit_bytes(p->layout.stroke, cmin);
	k = (uint64_t)llround(p->layout.stroke * (double)cmin / (double)zone);
	if (k < 1)
		k = 1;
	return k * zone < cmin ? k * zone : cmin;
}

bool plan_full_stroke(const struct plan *p)
{
	return p->n_disks && p->limit_bytes >= plan_min_capacity(p);
}

int plan_set_limits(struct plan *p, struct ss_error *err)
{
	uint64_t cmin = plan_min_capacity(p);

	p->limit_bytes = plan_limit(p);
	if (!p->limit_bytes)
		return ss_error_set(err, -EINVAL,
				    "a %.4g %% stroke of %" PRIu64
				    " bytes is less than 1 MiB per disk; nothing to limit to",
				    100 * p->layout.stroke, cmin);
	for (size_t i = 0; i < p->n_disks; i++)
		p->disks[i].limit_blocks = p->limit_bytes / p->disks[i].block_size;
	return 0;
}

/* ---- writer ------------------------------------------------------------ */

/* A double in its shortest text that reads back to the same value. */
static json_object *jdouble(double v)
{
	char buf[40];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return json_object_new_double_s(v, buf);
}

static json_object *jstr_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static json_object *disk_json(const struct plan_disk *d)
{
	json_object *o = json_object_new_object();

	add(o, "device", jstr_or_null(d->device));
	add(o, "placeholder", json_object_new_boolean(d->placeholder));
	add(o, "model_of", jstr_or_null(d->model_of));
	add(o, "serial", jstr_or_null(d->serial));
	add(o, "wwn", jstr_or_null(d->wwn));
	add(o, "model", jstr_or_null(d->model));
	if (d->method[0])
		add(o, "method", json_object_new_string(d->method));
	add(o, "capacity_blocks", json_object_new_uint64(d->capacity_blocks));
	add(o, "block_size", json_object_new_uint64(d->block_size));
	add(o, "limit_blocks", json_object_new_uint64(d->limit_blocks));
	add(o, "rpm", jdouble(d->rp.rpm));
	for (size_t i = 0; i < N_DISK_FIGS; i++)
		if (disk_fig_get(&d->rp, i) != 0)
			add(o, disk_figs[i].key, jdouble(disk_fig_get(&d->rp, i)));
	/* libraidplan 2.1's fields, only when set: older plans read as before */
	if (d->rp.queue_depth)
		add(o, "queue_depth", json_object_new_uint64(d->rp.queue_depth));
	if (d->rp.write_cache)
		add(o, "write_cache",
		    json_object_new_string(d->rp.write_cache == RP_WCACHE_ON ? "on" : "off"));
	if (d->rp.zoned)
		add(o, "zoned",
		    json_object_new_string(d->rp.zoned == RP_ZONED_HOST_AWARE ? "host-aware"
									      : "host-managed"));
	if (d->rp.zone_bytes)
		add(o, "zone_bytes", json_object_new_uint64(d->rp.zone_bytes));
	if (d->flash) /* only when set: older plans read as before */
		add(o, "flash", json_object_new_boolean(true));
	return o;
}

void plan_disk_rp(const struct plan_disk *pd, struct rp_disk *out)
{
	static const struct rp_flash nand = { RP_SIZED(struct rp_flash) };

	*out = pd->rp;
	out->flash = pd->flash ? &nand : NULL;
}

static json_object *layout_json(const struct plan *p)
{
	const struct rp_layout *l = &p->layout;
	json_object *o = json_object_new_object();

	add(o, "level", json_object_new_string(rp_level_name(l->level)));
	add(o, "copies", json_object_new_uint64(l->copies));
	add(o, "groups", json_object_new_uint64(l->groups));
	add(o, "chunk_bytes", json_object_new_uint64(l->chunk_bytes));
	add(o, "stroke", jdouble(l->stroke));
	add(o, "limit_bytes", json_object_new_uint64(p->limit_bytes));
	add(o, "rebuild_mbps", jdouble(l->rebuild_mbps));
	add(o, "replace_hours", jdouble(l->replace_hours));
	return o;
}

static json_object *workload_json(const struct plan *p)
{
	const struct rp_workload *w = &p->workload;
	json_object *o = json_object_new_object(), *arr;

	add(o, "profile", jstr_or_null(p->profile));
	add(o, "read_share", jdouble(w->read_share));
	add(o, "random_share", jdouble(w->random_share));
	add(o, "request_bytes", json_object_new_uint64(w->request_bytes));
	arr = json_object_new_array();
	for (size_t i = 0; i < w->n_sizes; i++) {
		json_object *s = json_object_new_object();

		add(s, "bytes", json_object_new_uint64(w->sizes[i].bytes));
		add(s, "share", jdouble(w->sizes[i].share));
		json_object_array_add(arr, s);
	}
	add(o, "sizes", arr);
	add(o, "queue_depth", json_object_new_uint64(w->queue_depth));
	return o;
}

static json_object *goals_json(const struct rp_goals *g)
{
	json_object *o = json_object_new_object(), *lv = json_object_new_array();

	add(o, "capacity_bytes", jdouble(g->min_capacity));
	add(o, "iops", jdouble(g->min_iops));
	add(o, "access_ms", jdouble(g->max_access_ms));
	add(o, "tolerate", json_object_new_uint64(g->min_failures));
	add(o, "max_disks", json_object_new_uint64(g->max_disks));
	for (int l = 0; l < rp_level_count(); l++)
		if (g->level_mask & RP_LEVEL_BIT(l))
			json_object_array_add(lv, json_object_new_string(rp_level_name(l)));
	add(o, "levels", lv);
	add(o, "chunk_bytes", json_object_new_uint64(g->chunk_bytes));
	return o;
}

static json_object *plan_json(const struct plan *p)
{
	json_object *o = json_object_new_object(), *arr, *pr, *path;

	add(o, "format", json_object_new_string(PLAN_FORMAT));
	add(o, "version", json_object_new_int(PLAN_VERSION));
	add(o, "created", json_object_new_string(p->created));
	add(o, "generator", json_object_new_string(p->generator));
	arr = json_object_new_array();
	for (size_t i = 0; i < p->n_disks; i++)
		json_object_array_add(arr, disk_json(&p->disks[i]));
	add(o, "disks", arr);
	add(o, "layout", layout_json(p));
	add(o, "workload", workload_json(p));
	path = json_object_new_object();
	add(path, "controller_mbps", jdouble(p->path.controller_mbps));
	add(path, "bus_mbps", jdouble(p->path.bus_mbps));
	for (size_t i = 0; i < N_PATH_FIGS; i++)
		if (*path_fig(&p->path, i) != 0)
			add(path, path_figs[i].key, jdouble(*path_fig(&p->path, i)));
	if (p->path.controller)
		add(path, "controller",
		    json_object_new_string(rp_controller_name(p->path.controller)));
	add(o, "path", path);
	add(o, "goals", goals_json(&p->goals));
	pr = json_object_new_object();
	for (int i = 0; i < plan_figure_count(); i++)
		add(pr, rp_figure_key(i), p->predicted_set[i] ? jdouble(p->predicted[i]) : NULL);
	add(o, "predicted", pr);
	arr = json_object_new_array();
	for (size_t i = 0; i < p->n_notes; i++)
		json_object_array_add(arr, json_object_new_string(p->notes[i]));
	add(o, "notes", arr);
	return o;
}

int planfile_format(const struct plan *p, char **text, struct ss_error *err)
{
	json_object *o = plan_json(p);
	const char *s;

	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						  JSON_C_TO_STRING_NOSLASHESCAPE);
	*text = s ? malloc(strlen(s) + 2) : NULL;
	if (!*text) {
		json_object_put(o);
		return ss_error_nomem(err);
	}
	sprintf(*text, "%s\n", s);
	json_object_put(o);
	return 0;
}

int planfile_write(const char *path, struct plan *p, struct ss_error *err)
{
	char *text = NULL;
	int rc;

	if (!p->created[0]) {
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(p->created, sizeof(p->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	rc = planfile_format(p, &text, err);
	if (rc)
		return rc;
	rc = file_write_atomic(path, text, strlen(text), 0644, "the plan", err);
	free(text);
	return rc;
}

/* ---- parser ------------------------------------------------------------ */

struct pctx {
	const char *origin;
	struct ss_error *err;
};

/* An object being read: its JSON and its name in messages ("layout",
 * "disks[2]"; "" for the root). */
struct obj {
	json_object *o;
	char name[48];
};

static int bad(struct pctx *c, const struct obj *ob, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad(struct pctx *c, const struct obj *ob, const char *key, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ss_error_set(c->err, -EINVAL, "%s%s%s%s%s%s%s", c->origin ? c->origin : "",
			    c->origin ? ": " : "", ob && ob->name[0] ? ob->name : "",
			    ob && ob->name[0] && key ? "." : "", key ? key : "",
			    (ob && ob->name[0]) || key ? ": " : "", what);
}

static const char *type_name(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
	case json_type_int:
		return "a number";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "something else";
}

/* Every key of ob must be in the NULL-terminated list. */
static int only_keys(struct pctx *c, const struct obj *ob, const char *const *keys)
{
	json_object_object_foreach(ob->o, k, v)
	{
		const char *const *p;

		(void)v;
		for (p = keys; *p && strcmp(*p, k); p++)
			;
		if (!*p)
			return bad(c, ob, k, "unknown field (a typo? see docs/plan-file.md)");
	}
	return 0;
}

static int get_obj(struct pctx *c, const struct obj *ob, const char *key, bool required,
		   struct obj *out)
{
	json_object *v = NULL;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s%s%s", ob->name, ob->name[0] ? "." : "", key);
	if (!json_object_object_get_ex(ob->o, key, &v) || !v) {
		if (required)
			return bad(c, ob, key, "missing (an object is required)");
		return 0;
	}
	if (!json_object_is_type(v, json_type_object))
		return bad(c, ob, key, "expected an object, got %s", type_name(v));
	out->o = v;
	return 0;
}

/* A string; absent or null gives "" unless required. */
static int get_str(struct pctx *c, const struct obj *ob, const char *key, bool required, char *dst,
		   size_t len)
{
	json_object *v = NULL;
	const char *s;
	size_t n;

	dst[0] = '\0';
	if (!json_object_object_get_ex(ob->o, key, &v) || !v) {
		if (required)
			return bad(c, ob, key, "missing (a string is required)");
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return bad(c, ob, key, "expected a string, got %s", type_name(v));
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (n >= len)
		return bad(c, ob, key, "too long (at most %zu characters)", len - 1);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return bad(c, ob, key, "contains a control character");
	if (required && n == 0)
		return bad(c, ob, key, "empty");
	memcpy(dst, s, n + 1);
	return 0;
}

static int get_u64(struct pctx *c, const struct obj *ob, const char *key, bool required,
		   uint64_t min, uint64_t max, uint64_t *dst)
{
	json_object *v = NULL;
	uint64_t u;

	*dst = 0;
	if (!json_object_object_get_ex(ob->o, key, &v) || !v) {
		if (required)
			return bad(c, ob, key, "missing (a whole number is required)");
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return bad(c, ob, key, "expected a whole number, got %s", type_name(v));
	if (json_object_get_int64(v) < 0)
		return bad(c, ob, key, "must not be negative");
	errno = 0;
	u = json_object_get_uint64(v);
	if (errno == ERANGE)
		return bad(c, ob, key, "too large");
	if (u < min || u > max)
		return bad(c, ob, key, "%" PRIu64 " is out of range (%" PRIu64 " .. %" PRIu64 ")",
			   u, min, max);
	*dst = u;
	return 0;
}

static int get_uint(struct pctx *c, const struct obj *ob, const char *key, bool required,
		    unsigned min, unsigned max, unsigned *dst)
{
	uint64_t u;
	int rc = get_u64(c, ob, key, required, min, max, &u);

	*dst = (unsigned)u;
	return rc;
}

/* A finite number in [min, max] (or (min, max] with open_min). */
static int get_num(struct pctx *c, const struct obj *ob, const char *key, bool required, double min,
		   bool open_min, double max, double *dst)
{
	json_object *v = NULL;
	double d;

	*dst = 0;
	if (!json_object_object_get_ex(ob->o, key, &v) || !v) {
		if (required)
			return bad(c, ob, key, "missing (a number is required)");
		return 0;
	}
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return bad(c, ob, key, "expected a number, got %s", type_name(v));
	d = json_object_get_double(v);
	if (!isfinite(d) || d < min || (open_min && d == min) || d > max)
		return bad(c, ob, key, "expected a number in %c%g, %g], got %g",
			   open_min ? '(' : '[', min, max, d);
	*dst = d;
	return 0;
}

static int get_bool(struct pctx *c, const struct obj *ob, const char *key, bool *dst)
{
	json_object *v = NULL;

	*dst = false;
	if (!json_object_object_get_ex(ob->o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return bad(c, ob, key, "expected true or false, got %s", type_name(v));
	*dst = json_object_get_boolean(v);
	return 0;
}

static int get_array(struct pctx *c, const struct obj *ob, const char *key, bool required,
		     size_t max, json_object **out)
{
	json_object *v = NULL;

	*out = NULL;
	if (!json_object_object_get_ex(ob->o, key, &v) || !v) {
		if (required)
			return bad(c, ob, key, "missing (an array is required)");
		return 0;
	}
	if (!json_object_is_type(v, json_type_array))
		return bad(c, ob, key, "expected an array, got %s", type_name(v));
	if (json_object_array_length(v) > max)
		return bad(c, ob, key, "more than %zu entries", max);
	*out = v;
	return 0;
}

/* A disk's queue depth, write cache and zones (libraidplan 2.1; absent: defaults). */
static int parse_disk_2_1(struct pctx *c, const struct obj *ob, struct plan_disk *d)
{
	char wc[8] = "", zm[16] = "";
	int rc;

	if ((rc = get_uint(c, ob, "queue_depth", false, 0, 1024, &d->rp.queue_depth)) ||
	    (rc = get_str(c, ob, "write_cache", false, wc, sizeof(wc))) ||
	    (rc = get_str(c, ob, "zoned", false, zm, sizeof(zm))) ||
	    (rc = get_u64(c, ob, "zone_bytes", false, 0, d->capacity_blocks * d->block_size,
			  &d->rp.zone_bytes)))
		return rc;
	if (wc[0] && strcmp(wc, "on") && strcmp(wc, "off"))
		return bad(c, ob, "write_cache", "expected \"on\" or \"off\", got \"%s\"", wc);
	d->rp.write_cache = !wc[0]		? RP_WCACHE_DEFAULT
			    : !strcmp(wc, "on") ? RP_WCACHE_ON
						: RP_WCACHE_OFF;
	if (zm[0] && strcmp(zm, "host-aware") && strcmp(zm, "host-managed"))
		return bad(c, ob, "zoned",
			   "expected \"host-aware\" or \"host-managed\", got \"%s\"", zm);
	d->rp.zoned = !zm[0]			  ? RP_ZONED_NONE
		      : !strcmp(zm, "host-aware") ? RP_ZONED_HOST_AWARE
						  : RP_ZONED_HOST_MANAGED;
	return 0;
}

static int parse_disk(struct pctx *c, json_object *v, size_t i, struct plan_disk *d)
{
	static const char *const keys[] = {
		"device",
		"placeholder",
		"model_of",
		"serial",
		"wwn",
		"model",
		"capacity_blocks",
		"block_size",
		"limit_blocks",
		"rpm",
		"seek_t2t_ms",
		"seek_avg_ms",
		"seek_full_ms",
		"outer_mbps",
		"inner_mbps",
		"cache_mb",
		"link_mbps",
		"overhead_ms",
		"mttf_hours",
		"ure_per_bit",
		"method",
		"queue_depth",
		"write_cache",
		"zoned",
		"zone_bytes",
		"flash",
		NULL,
	};
	enum cap_method m;
	struct obj ob = { .o = v };
	uint64_t bs;
	int rc;

	snprintf(ob.name, sizeof(ob.name), "disks[%zu]", i);
	rp_disk_init(&d->rp);
	if (!json_object_is_type(v, json_type_object))
		return bad(c, &ob, NULL, "expected an object, got %s", type_name(v));
	if ((rc = only_keys(c, &ob, keys)) ||
	    (rc = get_str(c, &ob, "device", false, d->device, sizeof(d->device))) ||
	    (rc = get_bool(c, &ob, "placeholder", &d->placeholder)) ||
	    (rc = get_str(c, &ob, "model_of", false, d->model_of, sizeof(d->model_of))) ||
	    (rc = get_str(c, &ob, "serial", false, d->serial, sizeof(d->serial))) ||
	    (rc = get_str(c, &ob, "wwn", false, d->wwn, sizeof(d->wwn))) ||
	    (rc = get_str(c, &ob, "model", false, d->model, sizeof(d->model))) ||
	    (rc = get_str(c, &ob, "method", false, d->method, sizeof(d->method))) ||
	    (rc = get_u64(c, &ob, "block_size", true, 512, 65536, &bs)) ||
	    (rc = get_u64(c, &ob, "capacity_blocks", true, 1, UINT64_MAX / bs,
			  &d->capacity_blocks)) ||
	    (rc = get_u64(c, &ob, "limit_blocks", true, 1, d->capacity_blocks, &d->limit_blocks)) ||
	    (rc = get_num(c, &ob, "rpm", false, 0, false, 100000, &d->rp.rpm)))
		return rc;
	if (bs & (bs - 1))
		return bad(c, &ob, "block_size", "%" PRIu64 " is not a power of two", bs);
	d->block_size = (uint32_t)bs;
	for (size_t k = 0; k < N_DISK_FIGS; k++)
		if ((rc = get_num(c, &ob, disk_figs[k].key, false, 0, false, disk_figs[k].max,
				  disk_fig(&d->rp, k))))
			return rc;
	if ((rc = parse_disk_2_1(c, &ob, d)) || (rc = get_bool(c, &ob, "flash", &d->flash)))
		return rc;
	if (d->placeholder && d->device[0])
		return bad(c, &ob, "device",
			   "a placeholder disk names no device (it is chosen at apply time)");
	if (!d->placeholder && !d->device[0])
		return bad(c, &ob, "device", "missing (or set \"placeholder\": true)");
	if (!d->placeholder && d->model_of[0])
		return bad(c, &ob, "model_of", "only a placeholder disk is a model of another");
	if (d->method[0] && cap_method_parse(d->method, &m)) {
		char names[160];

		cap_method_names(names, sizeof(names), 0);
		return bad(c, &ob, "method", "unknown method '%s' (%s)", d->method, names);
	}
	d->rp.capacity = d->capacity_blocks * d->block_size;
	return 0;
}

static int same_text(const char *a, const char *b, bool nocase)
{
	return *a && *b && (nocase ? !strcasecmp(a, b) : !strcmp(a, b));
}

static int parse_disks(struct pctx *c, const struct obj *root, struct plan *p)
{
	json_object *arr;
	size_t n;
	int rc;

	if ((rc = get_array(c, root, "disks", true, PLAN_MAX_DISKS, &arr)))
		return rc;
	n = json_object_array_length(arr);
	if (n == 0)
		return bad(c, root, "disks", "empty: a plan needs at least one disk");
	p->disks = calloc(n, sizeof(*p->disks));
	if (!p->disks)
		return ss_error_nomem(c->err);
	p->n_disks = n;
	for (size_t i = 0; i < n; i++) {
		if ((rc = parse_disk(c, json_object_array_get_idx(arr, i), i, &p->disks[i])))
			return rc;
		for (size_t j = 0; j < i; j++) {
			const struct plan_disk *a = &p->disks[j], *b = &p->disks[i];
			const char *what = same_text(a->device, b->device, false)   ? "device"
					   : same_text(a->serial, b->serial, false) ? "serial"
					   : same_text(a->wwn, b->wwn, true)	    ? "wwn"
										    : NULL;
			struct obj ob;

			if (!what)
				continue;
			snprintf(ob.name, sizeof(ob.name), "disks[%zu]", i);
			return bad(c, &ob, what, "the same disk as disks[%zu]", j);
		}
	}
	return 0;
}

static int parse_layout(struct pctx *c, const struct obj *root, struct plan *p)
{
	static const char *const keys[] = { "level",	    "copies",	     "groups",
					    "chunk_bytes",  "stroke",	     "limit_bytes",
					    "rebuild_mbps", "replace_hours", NULL };
	struct rp_layout *l = &p->layout;
	struct rp_error rerr = { 0 };
	struct obj ob;
	char level[16];
	int rc;

	if ((rc = get_obj(c, root, "layout", true, &ob)) || (rc = only_keys(c, &ob, keys)) ||
	    (rc = get_str(c, &ob, "level", true, level, sizeof(level))))
		return rc;
	if (rp_level_parse(level, &l->level, &rerr))
		return bad(c, &ob, "level", "%s", rerr.msg);
	if ((rc = get_uint(c, &ob, "copies", false, 0, PLAN_MAX_DISKS, &l->copies)) ||
	    (rc = get_uint(c, &ob, "groups", false, 0, PLAN_MAX_DISKS, &l->groups)) ||
	    (rc = get_u64(c, &ob, "chunk_bytes", true, 4096, 1ull << 30, &l->chunk_bytes)) ||
	    (rc = get_num(c, &ob, "stroke", true, 0, true, 1, &l->stroke)) ||
	    (rc = get_u64(c, &ob, "limit_bytes", true, 1, UINT64_MAX, &p->limit_bytes)) ||
	    (rc = get_num(c, &ob, "rebuild_mbps", false, 0, false, 1e6, &l->rebuild_mbps)) ||
	    (rc = get_num(c, &ob, "replace_hours", false, 0, false, 1e6, &l->replace_hours)))
		return rc;
	if (l->chunk_bytes & (l->chunk_bytes - 1))
		return bad(c, &ob, "chunk_bytes", "%" PRIu64 " is not a power of two",
			   l->chunk_bytes);
	l->n_disks = (unsigned)p->n_disks;
	l->members = NULL;
	return 0;
}

static int parse_workload(struct pctx *c, const struct obj *root, struct plan *p)
{
	static const char *const keys[] = {
		"profile",     "read_share", "random_share", "request_bytes", "sizes",
		"queue_depth", NULL
	};
	struct rp_workload *w = &p->workload;
	struct rp_error rerr = { 0 };
	json_object *arr;
	struct obj ob;
	double sum = 0;
	int prof, rc;

	if ((rc = get_obj(c, root, "workload", true, &ob)) || (rc = only_keys(c, &ob, keys)) ||
	    (rc = get_str(c, &ob, "profile", false, p->profile, sizeof(p->profile))) ||
	    (rc = get_num(c, &ob, "read_share", true, 0, false, 1, &w->read_share)) ||
	    (rc = get_num(c, &ob, "random_share", true, 0, false, 1, &w->random_share)) ||
	    (rc = get_u64(c, &ob, "request_bytes", false, 0, 1ull << 40, &w->request_bytes)) ||
	    (rc = get_uint(c, &ob, "queue_depth", true, 1, 65536, &w->queue_depth)) ||
	    (rc = get_array(c, &ob, "sizes", false, PLAN_MAX_SIZES, &arr)))
		return rc;
	if (p->profile[0] && rp_profile_parse(p->profile, &prof, &rerr))
		return bad(c, &ob, "profile", "%s", rerr.msg);
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		static const char *const skeys[] = { "bytes", "share", NULL };
		struct obj so = { .o = json_object_array_get_idx(arr, i) };

		snprintf(so.name, sizeof(so.name), "workload.sizes[%zu]", i);
		if (!json_object_is_type(so.o, json_type_object))
			return bad(c, &so, NULL, "expected an object, got %s", type_name(so.o));
		if ((rc = only_keys(c, &so, skeys)) ||
		    (rc = get_u64(c, &so, "bytes", true, 1, 1ull << 40, &p->sizes[i].bytes)) ||
		    (rc = get_num(c, &so, "share", true, 0, false, 1e6, &p->sizes[i].share)))
			return rc;
		sum += p->sizes[i].share;
		w->n_sizes++;
	}
	if (w->n_sizes && !(sum > 0))
		return bad(c, &ob, "sizes", "the shares add up to 0");
	if (!w->n_sizes && !w->request_bytes)
		return bad(c, &ob, "request_bytes", "missing (give request_bytes or sizes)");
	w->sizes = w->n_sizes ? p->sizes : NULL;
	return 0;
}

static int parse_goals(struct pctx *c, const struct obj *root, struct plan *p)
{
	static const char *const keys[] = { "capacity_bytes", "iops",	"access_ms",   "tolerate",
					    "max_disks",      "levels", "chunk_bytes", NULL };
	struct rp_goals *g = &p->goals;
	json_object *arr;
	struct obj ob;
	int rc;

	if ((rc = get_obj(c, root, "goals", false, &ob)) || !ob.o)
		return rc;
	if ((rc = only_keys(c, &ob, keys)) ||
	    (rc = get_num(c, &ob, "capacity_bytes", false, 0, false, 1e30, &g->min_capacity)) ||
	    (rc = get_num(c, &ob, "iops", false, 0, false, 1e15, &g->min_iops)) ||
	    (rc = get_num(c, &ob, "access_ms", false, 0, false, 1e6, &g->max_access_ms)) ||
	    (rc = get_uint(c, &ob, "tolerate", false, 0, PLAN_MAX_DISKS, &g->min_failures)) ||
	    (rc = get_uint(c, &ob, "max_disks", false, 0, 65536, &g->max_disks)) ||
	    (rc = get_u64(c, &ob, "chunk_bytes", false, 0, 1ull << 30, &g->chunk_bytes)) ||
	    (rc = get_array(c, &ob, "levels", false, (size_t)rp_level_count() * 4, &arr)))
		return rc;
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i);
		struct rp_error rerr = { 0 };
		int level;

		if (!json_object_is_type(v, json_type_string) ||
		    rp_level_parse(json_object_get_string(v), &level, &rerr))
			return bad(c, &ob, "levels", "entry %zu is not a RAID level", i);
		g->level_mask |= RP_LEVEL_BIT(level);
	}
	return 0;
}

static int parse_rest(struct pctx *c, const struct obj *root, struct plan *p)
{
	static const char *const pkeys[] = {
		"controller_mbps", "bus_mbps",	 "controller_write_mbps",
		"bus_write_mbps",  "latency_ms", "latency_per_disk_ms",
		"cache_mb",	   "cache_mbps", "member_efficiency",
		"write_ratio",	   "controller", NULL
	};
	char ctrl[16] = "";
	json_object *arr;
	struct obj ob;
	int rc;

	if ((rc = get_obj(c, root, "path", false, &ob)))
		return rc;
	if (ob.o && ((rc = only_keys(c, &ob, pkeys)) ||
		     (rc = get_num(c, &ob, "controller_mbps", false, 0, false, 1e9,
				   &p->path.controller_mbps)) ||
		     (rc = get_num(c, &ob, "bus_mbps", false, 0, false, 1e9, &p->path.bus_mbps))))
		return rc;
	for (size_t i = 0; ob.o && i < N_PATH_FIGS; i++)
		if ((rc = get_num(c, &ob, path_figs[i].key, false, 0, false, path_figs[i].max,
				  path_fig(&p->path, i))))
			return rc;
	if (ob.o && (rc = get_str(c, &ob, "controller", false, ctrl, sizeof(ctrl))))
		return rc;
	if (ctrl[0] && rp_controller_parse(ctrl, &p->path.controller, NULL))
		return bad(c, &ob, "controller",
			   "expected \"md\", \"hba\" or \"hw-raid\", got \"%s\"", ctrl);
	/* predicted figures: informational; known keys must be numbers */
	if ((rc = get_obj(c, root, "predicted", false, &ob)))
		return rc;
	for (int i = 0; ob.o && i < plan_figure_count(); i++) {
		json_object *v = NULL;

		if (!json_object_object_get_ex(ob.o, rp_figure_key(i), &v) || !v)
			continue;
		if ((rc = get_num(c, &ob, rp_figure_key(i), false, -1e308, false, 1e308,
				  &p->predicted[i])))
			return rc;
		p->predicted_set[i] = true;
	}
	if ((rc = get_array(c, root, "notes", false, 100000, &arr)))
		return rc;
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(v, json_type_string))
			return bad(c, root, "notes", "entry %zu is not a string", i);
		if (p->n_notes < PLAN_MAX_NOTES)
			snprintf(p->notes[p->n_notes++], sizeof(p->notes[0]), "%s",
				 json_object_get_string(v));
	}
	return 0;
}

/* Limits agree with the stroke, and the layout evaluates. */
static int cross_check(struct pctx *c, struct plan *p)
{
	struct obj lo = { .name = "layout" };
	uint64_t cmin = plan_min_capacity(p), want;
	struct rp_disk *rd;
	struct rp_error rerr = { 0 };
	struct rp_eval *ev = NULL;
	int rc;

	want = plan_limit(p);
	if (!want)
		return bad(c, &lo, "stroke", "%g of the smallest disk is less than 1 MiB",
			   p->layout.stroke);
	if (p->limit_bytes != want)
		return bad(c, &lo, "limit_bytes",
			   "%" PRIu64 " does not match the stroke %.17g of the smallest disk "
			   "(%" PRIu64 " bytes): expected %" PRIu64,
			   p->limit_bytes, p->layout.stroke, cmin, want);
	for (size_t i = 0; i < p->n_disks; i++) {
		struct obj dob;

		if (p->disks[i].limit_blocks == p->limit_bytes / p->disks[i].block_size)
			continue;
		snprintf(dob.name, sizeof(dob.name), "disks[%zu]", i);
		return bad(c, &dob, "limit_blocks",
			   "%" PRIu64 " does not match layout.limit_bytes: expected %" PRIu64,
			   p->disks[i].limit_blocks, p->limit_bytes / p->disks[i].block_size);
	}
	rd = calloc(p->n_disks, sizeof(*rd));
	if (!rd)
		return ss_error_nomem(c->err);
	for (size_t i = 0; i < p->n_disks; i++)
		plan_disk_rp(&p->disks[i], &rd[i]);
	rc = rp_evaluate(rd, p->n_disks, &p->path, &p->layout, &p->workload, &ev, &rerr);
	rp_eval_free(ev);
	free(rd);
	if (rc == -ENOMEM)
		return ss_error_set(c->err, rc, "out of memory");
	if (rc)
		return bad(c, NULL, NULL, "the plan does not evaluate: %s", rerr.msg);
	return 0;
}

static void offset_pos(const char *text, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int parse_json(struct pctx *c, const char *text, size_t len, json_object **out)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	json_object *o;
	unsigned line, col;
	size_t end;
	int rc;

	*out = NULL;
	if (len > PLAN_MAX_BYTES)
		return bad(c, NULL, NULL, "larger than %u MiB: not a plan file",
			   PLAN_MAX_BYTES >> 20);
	if (memchr(text, '\0', len))
		return bad(c, NULL, NULL, "contains a NUL byte: not a plan file");
	tok = json_tokener_new_ex(16);
	if (!tok)
		return ss_error_nomem(c->err);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!o && jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		json_object_put(o);
		offset_pos(text, end > len ? len : end, &line, &col);
		return bad(c, NULL, NULL, "not valid JSON at line %u, column %u: %s", line, col,
			   json_tokener_error_desc(jerr));
	}
	for (; end < len; end++) {
		if (!strchr(" \t\r\n", text[end])) {
			json_object_put(o);
			offset_pos(text, end, &line, &col);
			return bad(c, NULL, NULL,
				   "text after the plan object at line %u, column %u", line, col);
		}
	}
	if (!json_object_is_type(o, json_type_object)) {
		rc = bad(c, NULL, NULL, "expected a JSON object, got %s", type_name(o));
		json_object_put(o);
		return rc;
	}
	*out = o;
	return 0;
}

int planfile_parse(const char *text, size_t len, const char *origin, struct plan **out,
		   struct ss_error *err)
{
	static const char *const keys[] = { "format", "version",   "created",  "generator",
					    "disks",  "layout",	   "workload", "path",
					    "goals",  "predicted", "notes",    NULL };
	struct pctx c = { .origin = origin, .err = err };
	struct obj root = { 0 };
	char format[32];
	struct plan *p;
	uint64_t ver;
	int rc;

	*out = NULL;
	if (!text)
		return bad(&c, NULL, NULL, "no text");
	rc = parse_json(&c, text, len, &root.o);
	if (rc)
		return rc;
	p = plan_new();
	if (!p) {
		json_object_put(root.o);
		return ss_error_nomem(err);
	}
	if ((rc = get_str(&c, &root, "format", false, format, sizeof(format))))
		goto out;
	if (strcmp(format, PLAN_FORMAT)) {
		rc = bad(&c, NULL, NULL, "not a shortstroke plan (\"format\" is not \"%s\")",
			 PLAN_FORMAT);
		goto out;
	}
	if ((rc = get_u64(&c, &root, "version", true, 1, UINT32_MAX, &ver)))
		goto out;
	if (ver != PLAN_VERSION) {
		rc = bad(&c, &root, "version",
			 "plan format %" PRIu64 " is not known to this shortstroke (it reads %d)",
			 ver, PLAN_VERSION);
		goto out;
	}
	p->version = (unsigned)ver;
	if ((rc = only_keys(&c, &root, keys)) ||
	    (rc = get_str(&c, &root, "created", true, p->created, sizeof(p->created))) ||
	    (rc = get_str(&c, &root, "generator", false, p->generator, sizeof(p->generator))) ||
	    (rc = parse_disks(&c, &root, p)) || (rc = parse_layout(&c, &root, p)) ||
	    (rc = parse_workload(&c, &root, p)) || (rc = parse_goals(&c, &root, p)) ||
	    (rc = parse_rest(&c, &root, p)) || (rc = cross_check(&c, p)))
		goto out;
	*out = p;
	p = NULL;
out:
	plan_free(p);
	json_object_put(root.o);
	return rc;
}

int planfile_load(const char *path, struct plan **out, struct ss_error *err)
{
	size_t cap = 65536, len = 0;
	char *buf;
	int fd, rc;
	bool is_stdin = !strcmp(path, "-");

	*out = NULL;
	fd = is_stdin ? STDIN_FILENO : file_open_input(path, "the plan", err);
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	for (rc = 0; buf;) {
		ssize_t n;

		if (len == cap) {
			char *nb = cap > PLAN_MAX_BYTES ? NULL : realloc(buf, cap * 2);

			if (!nb) {
				rc = cap > PLAN_MAX_BYTES
					 ? ss_error_set(err, -EINVAL,
							"%s: larger than %u MiB: not a plan file",
							path, PLAN_MAX_BYTES >> 20)
					 : ss_error_nomem(err);
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = ss_error_set(err, -errno, "cannot read the plan %s: %s", path,
					  strerror(errno));
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (!is_stdin)
		close(fd);
	if (!buf)
		return ss_error_nomem(err);
	if (!rc)
		rc = planfile_parse(buf, len, is_stdin ? "<stdin>" : path, out, err);
	free(buf);
	return rc;
}
