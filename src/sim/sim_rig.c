/* sim_rig.c - rig files: JSON in, simulated drives out.
 *
 * The text is parsed by json-c (strict mode); a second pass over the same
 * text (sim_jpos.c) records where every key and value starts, so that an
 * error names its line: "rig.json:14: drive "sata1": field "blocks":
 * expected a positive integer". Members are validated in the order they
 * appear in the file, so the first mistake in the file is the one
 * reported. Nothing is kept from a rig that fails.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "shortstroke/fileio.h"
#include "sim/sim_priv.h"

#define RIG_MAX_BYTES (16u << 20)
#define ATA48_MAX_BLOCKS (1ULL << 48)
#define ATA28_MAX_BLOCKS (1ULL << 28)

/* Queue depth and command overhead by personality (docs/simulator.md,
 * "Queue depth, command overhead, write cache", gives the sources) */
#define SATA_QUEUE 32u		   /* NCQ: 32 tags */
#define SAS_QUEUE 64u		   /* issue 16's figure: SAS itself sets no limit */
#define SATA_OVERHEAD_NS 500000ULL /* 0.5 ms: HGST Deskstar 7K3000, read miss */
#define FLASH_OVERHEAD_NS 0ULL	   /* the 20 us every command takes suffices: docs/flash.md */
#define SAS_OVERHEAD_NS 200000ULL  /* 0.2 ms: Seagate Constellation.2 SAS */
#define NVME_QUEUE 64u		   /* of the 64K an NVMe queue may hold: the scheduler's cost */
#define NVME_OVERHEAD_NS 10000ULL  /* 10 us: a 4 KiB read of a TLC NVMe drive, ~90 us in all */

struct rp {
	const char *origin;
	const char *text;
	struct ss_error *err;
	char label[64]; /* drive "sas0" */
	int rc;
	/* the rig's defaults for every drive (docs/simulator.md, "Units") */
	uint64_t seed;
	struct sim_unit unit;
};

__attribute__((format(printf, 4, 5))) static int rp_fail(struct rp *p, const struct jpos *pos,
							 const char *field, const char *fmt, ...)
{
	char what[300];
	unsigned line = pos ? jpos_line(p->text, pos->key_off) : 1;
	va_list ap;

	if (p->rc)
		return p->rc;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->label[0] && field)
		ss_error_set(p->err, -EINVAL, "%s:%u: %s: field \"%s\": %s", p->origin, line,
			     p->label, field, what);
	else if (p->label[0])
		ss_error_set(p->err, -EINVAL, "%s:%u: %s: %s", p->origin, line, p->label, what);
	else if (field)
		ss_error_set(p->err, -EINVAL, "%s:%u: field \"%s\": %s", p->origin, line, field,
			     what);
	else
		ss_error_set(p->err, -EINVAL, "%s:%u: %s", p->origin, line, what);
	p->rc = -EINVAL;
	return p->rc;
}

/* ---- value readers: 0 or the error ---- */

static int rd_bool(struct rp *p, struct json_object *v, const struct jpos *pos, const char *f,
		   bool *out)
{
	if (!json_object_is_type(v, json_type_boolean))
		return rp_fail(p, pos, f, "expected true or false");
	*out = json_object_get_boolean(v);
	return 0;
}

static int rd_u64(struct rp *p, struct json_object *v, const struct jpos *pos, const char *f,
		  uint64_t min, uint64_t max, uint64_t *out)
{
	int64_t n;

	if (!json_object_is_type(v, json_type_int))
		goto bad;
	errno = 0;
	n = json_object_get_int64(v);
	if (n < 0 || (uint64_t)n < min || (uint64_t)n > max ||
	    (n == INT64_MAX && json_object_get_uint64(v) != (uint64_t)INT64_MAX))
		goto bad;
	*out = (uint64_t)n;
	return 0;
bad:
	if (min == 1 && max >= (uint64_t)INT64_MAX)
		return rp_fail(p, pos, f, "expected a positive integer");
	if (min == 0 && max >= (uint64_t)INT64_MAX)
		return rp_fail(p, pos, f, "expected a non-negative integer");
	return rp_fail(p, pos, f, "expected an integer from %" PRIu64 " to %" PRIu64, min, max);
}

static int rd_num(struct rp *p, struct json_object *v, const struct jpos *pos, const char *f,
		  double min, double max, double *out)
{
	double d;

	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return rp_fail(p, pos, f, "expected a number");
	d = json_object_get_double(v);
	if (!isfinite(d) || d < min || d > max)
		return rp_fail(p, pos, f, "expected a number from %g to %g", min, max);
	*out = d;
	return 0;
}

static int rd_str(struct rp *p, struct json_object *v, const struct jpos *pos, const char *f,
		  size_t maxlen, char *out)
{
	const char *s;
	size_t n, i;

	if (!json_object_is_type(v, json_type_string))
		return rp_fail(p, pos, f, "expected a string");
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (n == 0 || n > maxlen)
		return rp_fail(p, pos, f, "expected 1 to %zu characters", maxlen);
	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return rp_fail(p, pos, f, "only printable ASCII characters are allowed");
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/* Members of an object must all be known. */
static int check_keys(struct rp *p, struct json_object *o, const struct jpos *pos,
		      const char *prefix, const char *const *known)
{
	struct json_object_iterator it = json_object_iter_begin(o);
	struct json_object_iterator end = json_object_iter_end(o);
	char name[160];
	unsigned i;

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *k = json_object_iter_peek_name(&it);
		bool ok = false;

		for (i = 0; known[i]; i++)
			if (strcmp(known[i], k) == 0)
				ok = true;
		if (!ok) {
			snprintf(name, sizeof(name), "%s%s", prefix, k);
			return rp_fail(p, jpos_member(pos, k), NULL, "unknown field \"%s\"", name);
		}
	}
	return 0;
}

static int rd_wwn(struct rp *p, struct json_object *v, const struct jpos *pos, uint64_t *out)
{
	const char *s;
	uint64_t w = 0;
	size_t n, i;

	if (!json_object_is_type(v, json_type_string))
		return rp_fail(p, pos, "wwn", "expected a string of 16 hex digits");
	s = json_object_get_string(v);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (n != 16)
		goto bad;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		unsigned dv;

		if (ch >= '0' && ch <= '9')
			dv = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			dv = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			dv = (unsigned)(ch - 'A' + 10);
		else
			goto bad;
		w = w << 4 | dv;
	}
	if ((w >> 60) != 5)
		return rp_fail(p, pos, "wwn",
			       "expected an NAA 5 (IEEE registered) name, "
			       "16 hex digits starting with 5");
	*out = w;
	return 0;
bad:
	return rp_fail(p, pos, "wwn", "expected a string of 16 hex digits");
}

static int rd_form_factor(struct rp *p, struct json_object *v, const struct jpos *pos, uint8_t *out)
{
	static const struct {
		const char *txt;
		double num;
		uint8_t code;
	} ff[] = {
		{ "5.25", 5.25, 1 },
		{ "3.5", 3.5, 2 },
		{ "2.5", 2.5, 3 },
		{ "1.8", 1.8, 4 },
	};
	unsigned i;

	for (i = 0; i < sizeof(ff) / sizeof(ff[0]); i++) {
		if (json_object_is_type(v, json_type_string) &&
		    strcmp(json_object_get_string(v), ff[i].txt) == 0)
			break;
		if (json_object_is_type(v, json_type_double) &&
		    fabs(json_object_get_double(v) - ff[i].num) < 1e-9)
			break;
	}
	if (i == sizeof(ff) / sizeof(ff[0]))
		return rp_fail(p, pos, "form_factor",
			       "expected \"5.25\", \"3.5\", \"2.5\" or \"1.8\"");
	*out = ff[i].code;
	return 0;
}

/* hpa: true/false or {"supported":bool,"max":blocks} */
static int rd_hpa(struct rp *p, struct sim_config *c, struct json_object *v, const struct jpos *pos)
{
	static const char *const keys[] = { "supported", "max", NULL };
	struct json_object *x;
	uint64_t n;

	if (json_object_is_type(v, json_type_boolean))
		return rd_bool(p, v, pos, "hpa", &c->hpa);
	if (!json_object_is_type(v, json_type_object))
		return rp_fail(p, pos, "hpa", "expected true, false or an object");
	if (check_keys(p, v, pos, "hpa.", keys))
		return p->rc;
	c->hpa = true;
	if (json_object_object_get_ex(v, "supported", &x) &&
	    rd_bool(p, x, jpos_member(pos, "supported"), "hpa.supported", &c->hpa))
		return p->rc;
	if (json_object_object_get_ex(v, "max", &x)) {
		if (rd_u64(p, x, jpos_member(pos, "max"), "hpa.max", 1, INT64_MAX, &n))
			return p->rc;
		if (!c->hpa)
			return rp_fail(p, jpos_member(pos, "max"), "hpa.max",
				       "an HPA limit needs \"supported\": true");
		c->hpa_blocks = n;
	}
	return 0;
}

static int rd_dco(struct rp *p, struct sim_config *c, struct json_object *v, const struct jpos *pos)
{
	static const char *const keys[] = { "supported", "frozen", "factory_blocks", NULL };
	struct json_object *x;

	if (json_object_is_type(v, json_type_boolean))
		return rd_bool(p, v, pos, "dco", &c->dco);
	if (!json_object_is_type(v, json_type_object))
		return rp_fail(p, pos, "dco", "expected true, false or an object");
	if (check_keys(p, v, pos, "dco.", keys))
		return p->rc;
	c->dco = true;
	if (json_object_object_get_ex(v, "supported", &x) &&
	    rd_bool(p, x, jpos_member(pos, "supported"), "dco.supported", &c->dco))
		return p->rc;
	if (json_object_object_get_ex(v, "frozen", &x) &&
	    rd_bool(p, x, jpos_member(pos, "frozen"), "dco.frozen", &c->dco_frozen))
		return p->rc;
	if (json_object_object_get_ex(v, "factory_blocks", &x) &&
	    rd_u64(p, x, jpos_member(pos, "factory_blocks"), "dco.factory_blocks", 1, INT64_MAX,
		   &c->dco_factory))
		return p->rc;
	return 0;
}

static int rd_security(struct rp *p, struct sim_config *c, struct json_object *v,
		       const struct jpos *pos)
{
	static const char *const keys[] = { "supported", "enabled", "frozen", "locked", NULL };
	static const char *const names[] = { "security.supported", "security.enabled",
					     "security.frozen", "security.locked" };
	bool *dst[] = { &c->sec, &c->sec_enabled, &c->sec_frozen, &c->sec_locked };
	struct json_object *x;
	unsigned i;

	if (json_object_is_type(v, json_type_boolean))
		return rd_bool(p, v, pos, "security", &c->sec);
	if (!json_object_is_type(v, json_type_object))
		return rp_fail(p, pos, "security", "expected true, false or an object");
	if (check_keys(p, v, pos, "security.", keys))
		return p->rc;
	c->sec = true;
	for (i = 0; i < 4; i++)
		if (json_object_object_get_ex(v, keys[i], &x) &&
		    rd_bool(p, x, jpos_member(pos, keys[i]), names[i], dst[i]))
			return p->rc;
	if (!c->sec && (c->sec_enabled || c->sec_frozen || c->sec_locked))
		return rp_fail(p, pos, "security", "a state needs \"supported\": true");
	return 0;
}

static int rd_smart(struct rp *p, struct sim_config *c, struct json_object *v,
		    const struct jpos *pos)
{
	static const char *const keys[] = {
		"supported",   "enabled", "temperature",	   "power_on_hours",
		"reallocated", "pending", "offline_uncorrectable", "crc_errors",
		NULL
	};
	struct sim_smart *s = &c->smart;
	uint64_t *cnt[] = { &s->power_on_hours, &s->reallocated, &s->pending,
			    &s->offline_uncorrectable, &s->crc_errors };
	struct json_object *x;
	char name[64];
	uint64_t t;
	unsigned i;

	if (json_object_is_type(v, json_type_boolean)) {
		if (rd_bool(p, v, pos, "smart", &s->supported))
			return p->rc;
		s->enabled = s->supported;
		return 0;
	}
	if (!json_object_is_type(v, json_type_object))
		return rp_fail(p, pos, "smart", "expected true, false or an object");
	if (check_keys(p, v, pos, "smart.", keys))
		return p->rc;
	s->supported = s->enabled = true;
	if (json_object_object_get_ex(v, "supported", &x) &&
	    rd_bool(p, x, jpos_member(pos, "supported"), "smart.supported", &s->supported))
		return p->rc;
	s->enabled = s->supported;
	if (json_object_object_get_ex(v, "enabled", &x) &&
	    rd_bool(p, x, jpos_member(pos, "enabled"), "smart.enabled", &s->enabled))
		return p->rc;
	if (json_object_object_get_ex(v, "temperature", &x)) {
		if (rd_u64(p, x, jpos_member(pos, "temperature"), "smart.temperature", 0, 127, &t))
			return p->rc;
		s->temperature = (uint32_t)t;
	}
	for (i = 0; i < 5; i++) {
		if (!json_object_object_get_ex(v, keys[3 + i], &x))
			continue;
		snprintf(name, sizeof(name), "smart.%s", keys[3 + i]);
		if (rd_u64(p, x, jpos_member(pos, keys[3 + i]), name, 0, 0xffffffffffffULL, cnt[i]))
			return p->rc;
	}
	return 0;
}

static int rd_media(struct rp *p, struct sim_config *c, struct json_object *v,
		    const struct jpos *pos)
{
	static const char *const keys[] = { "avg_seek_ms", "track_to_track_ms", "full_stroke_ms",
					    "outer_mbps",  "inner_mbps",	"cache_mb",
					    NULL };
	struct sim_media *m = &c->media;
	double *dst[] = { &m->avg_seek_ms, &m->t2t_ms,	   &m->full_ms,
			  &m->outer_mbps,  &m->inner_mbps, &m->cache_mb };
	static const double maxv[] = { 1000, 1000, 1000, 100000, 100000, 1048576 };
	struct json_object *x;
	char name[64];
	unsigned i;

	if (!json_object_is_type(v, json_type_object))
		return rp_fail(p, pos, "media", "expected an object");
	if (check_keys(p, v, pos, "media.", keys))
		return p->rc;
	for (i = 0; keys[i]; i++) {
		if (!json_object_object_get_ex(v, keys[i], &x))
			continue;
		snprintf(name, sizeof(name), "media.%s", keys[i]);
		if (rd_num(p, x, jpos_member(pos, keys[i]), name, i == 5 ? 0 : 0.001, maxv[i],
			   dst[i]))
			return p->rc;
	}
	return 0;
}

/* Fill what the rig left out from the rpm table, then check the whole. */
static int media_finish(struct rp *p, struct sim_config *c, const struct jpos *pos)
{
	struct sim_media *m = &c->media, def;
	/* a drive that does not report its rpm still turns: 7200 for the
	 * mechanics */
	uint16_t rpm = c->rpm ? c->rpm : 7200;

	sim_media_defaults(&def, rpm, c->form_factor);
	if (isnan(m->avg_seek_ms))
		m->avg_seek_ms = def.avg_seek_ms;
	if (isnan(m->t2t_ms))
		m->t2t_ms = def.t2t_ms;
	if (isnan(m->full_ms))
		m->full_ms = def.full_ms;
	if (isnan(m->outer_mbps))
		m->outer_mbps = def.outer_mbps;
	if (isnan(m->inner_mbps))
		m->inner_mbps = m->outer_mbps * def.inner_mbps / def.outer_mbps;
	if (isnan(m->cache_mb))
		m->cache_mb = def.cache_mb;
	if (m->t2t_ms > m->avg_seek_ms || m->avg_seek_ms > m->full_ms) {
		if (m->full_ms < m->avg_seek_ms && pos && !jpos_member(pos, "full_stroke_ms"))
			m->full_ms = 2 * m->avg_seek_ms;
		if (m->t2t_ms > m->avg_seek_ms && pos && !jpos_member(pos, "track_to_track_ms"))
			m->t2t_ms = m->avg_seek_ms / 4;
	}
	if (m->t2t_ms > m->avg_seek_ms || m->avg_seek_ms > m->full_ms)
		return rp_fail(p, pos, "media",
			       "seek times must satisfy track_to_track_ms <= avg_seek_ms <= "
			       "full_stroke_ms");
	if (m->inner_mbps > m->outer_mbps)
		return rp_fail(p, pos, "media", "inner_mbps must not exceed outer_mbps");
	sim_media_fit(m, rpm);
	return 0;
}

/* smart_blob: a saved IDENTIFY + SMART blob, relative to the rig file's
 * directory; seeds the drive before the other members (which override) */
/* "flash": true, or its NAND and TRIM (docs/flash.md) */
static int rd_flash(struct rp *p, struct sim_config *c, struct json_object *v,
		    const struct jpos *pos)
{
	static const char *const keys[] = { "page_kib", "planes",     "block_pages", "dies",
					    "read_us",	"program_us", "erase_ms",    "spare_pct",
					    "state",	"trim",	      "unmap",	     NULL };
	static const double min[] = { 1, 1, 2, 1, 1, 1, 0.01, 0.1 };
	static const double max[] = { 64, 8, 4096, 1024, 10000, 100000, 1000, 400 };
	struct sim_flash_cfg *f = &c->flash;
	double x[8];
	struct json_object *m;
	char name[40];
	unsigned i;

	sim_flash_defaults(f);
	f->on = true;
	if (json_object_is_type(v, json_type_boolean)) {
		f->on = json_object_get_boolean(v);
		return 0;
	}
	if (!json_object_is_type(v, json_type_object))
		return rp_fail(p, pos, "flash", "expected true or an object");
	if (check_keys(p, v, pos, "flash.", keys))
		return p->rc;
	x[0] = f->page_kib;
	x[1] = f->planes;
	x[2] = f->block_pages;
	x[3] = f->dies;
	x[4] = f->read_us;
	x[5] = f->program_us;
	x[6] = f->erase_ms;
	x[7] = f->spare_pct;
	for (i = 0; i < 8; i++) {
		if (!json_object_object_get_ex(v, keys[i], &m))
			continue;
		snprintf(name, sizeof(name), "flash.%s", keys[i]);
		if (rd_num(p, m, jpos_member(pos, keys[i]), name, min[i], max[i], &x[i]))
			return p->rc;
		if (i < 4 && x[i] != (double)(unsigned)x[i])
			return rp_fail(p, jpos_member(pos, keys[i]), name,
				       "expected a whole number");
	}
	f->page_kib = (unsigned)x[0];
	f->planes = (unsigned)x[1];
	f->block_pages = (unsigned)x[2];
	f->dies = (unsigned)x[3];
	f->read_us = x[4];
	f->program_us = x[5];
	f->erase_ms = x[6];
	f->spare_pct = x[7];
	if (f->page_kib & (f->page_kib - 1) || f->page_kib < 4)
		return rp_fail(p, jpos_member(pos, "page_kib"), "flash.page_kib",
			       "expected a power of two from 4 to 64");
	if (json_object_object_get_ex(v, "state", &m)) {
		const char *s = json_object_is_type(m, json_type_string) ? json_object_get_string(m)
									 : "";

		if (strcmp(s, "used") && strcmp(s, "new"))
			return rp_fail(p, jpos_member(pos, "state"), "flash.state",
				       "expected \"used\" or \"new\"");
		f->fresh = !strcmp(s, "new");
	}
	if (json_object_object_get_ex(v, "unmap", &m) &&
	    rd_bool(p, m, jpos_member(pos, "unmap"), "flash.unmap", &f->unmap))
		return p->rc;
	if (json_object_object_get_ex(v, "trim", &m)) {
		static const char *const names[] = { "none", "nondeterministic", "drat", "rzat" };
		const char *s = json_object_is_type(m, json_type_string) ? json_object_get_string(m)
									 : "";

		for (i = 0; i < 4 && strcmp(s, names[i]); i++)
			;
		if (i == 4)
			return rp_fail(p, jpos_member(pos, "trim"), "flash.trim",
				       "expected \"none\", \"nondeterministic\", \"drat\" or "
				       "\"rzat\"");
		f->trim = (enum sim_trim)i;
	}
	return 0;
}

static int rd_blob(struct rp *p, struct sim_config *c, struct json_object *v,
		   const struct jpos *pos)
{
	const char *f = "smart_blob", *name, *slash;
	struct ss_error berr = { 0 };
	char path[4096];
	struct sim_blob *b;
	int rc;

	if (!c->sata)
		return rp_fail(p, pos, f,
			       "an ATA IDENTIFY + SMART blob; only a \"sata\" drive "
			       "takes one");
	if (!json_object_is_type(v, json_type_string) || !json_object_get_string_len(v))
		return rp_fail(p, pos, f, "expected a file name (relative to the rig file)");
	name = json_object_get_string(v);
	slash = strrchr(p->origin, '/');
	if (name[0] == '/' || !slash)
		rc = snprintf(path, sizeof(path), "%s", name);
	else
		rc = snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - p->origin), p->origin,
			      name);
	if (rc < 0 || (size_t)rc >= sizeof(path))
		return rp_fail(p, pos, f, "the file name is too long");
	b = malloc(sizeof(*b));
	if (!b)
		return rp_fail(p, pos, f, "out of memory");
	rc = sim_blob_load(path, b, &berr);
	if (!rc)
		rc = sim_blob_apply(c, b, &berr);
	free(b);
	if (rc)
		return rp_fail(p, pos, f, "%s: %s", path, berr.msg);
	return 0;
}

static int rd_faults(struct rp *p, struct sim_config *c, struct json_object *v,
		     const struct jpos *pos)
{
	char name[32], msg[256];
	size_t i, n;

	if (!json_object_is_type(v, json_type_array))
		return rp_fail(p, pos, "faults", "expected an array of fault strings");
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const struct jpos *ep = jpos_index(pos, (unsigned)i);
		struct sim_fault f;

		snprintf(name, sizeof(name), "faults[%zu]", i);
		if (!json_object_is_type(e, json_type_string))
			return rp_fail(p, ep, name, "expected a fault string");
		if (sim_fault_parse(json_object_get_string(e), &f, msg, sizeof(msg)))
			return rp_fail(p, ep, name, "%s", msg);
		if (sim_fault_add(c->faults, &c->nfaults, &f))
			return rp_fail(p, ep, name, "more than %d faults", SIM_MAX_FAULTS);
	}
	return 0;
}

static bool valid_id(const char *s)
{
	size_t i;

	if (!s[0] || s[0] == '.' || s[0] == '-')
		return false;
	for (i = 0; s[i]; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-'))
			return false;
	}
	return true;
}

/* A number of an object of numbers: its key, where it goes, its range */
struct num_field {
	const char *key; /* NULL ends a list */
	double *dst;
	double min, max;
};
#define NUM_FIELDS_MAX 8

static int rd_numbers(struct rp *p, struct json_object *v, const struct jpos *pos,
		      const char *field, const struct num_field *f);

/* "spread": {"seek_pct", "rate_pct", "rpm_pct", "overhead_pct"} into u */
static int rd_spread(struct rp *p, struct json_object *v, const struct jpos *pos,
		     struct sim_unit *u)
{
	const struct num_field f[] = { { "seek_pct", &u->seek_pct, 0, 20 },
				       { "rate_pct", &u->rate_pct, 0, 20 },
				       { "rpm_pct", &u->rpm_pct, 0, 5 },
				       { "overhead_pct", &u->overhead_pct, 0, 50 },
				       { NULL, NULL, 0, 0 } };

	return rd_numbers(p, v, pos, "spread", f);
}

/* "retries": {"outer_ppm", "inner_ppm"} into u */
static int rd_retries(struct rp *p, struct json_object *v, const struct jpos *pos,
		      struct sim_unit *u)
{
	const struct num_field f[] = { { "outer_ppm", &u->retry_ppm_outer, 0, 1e6 },
				       { "inner_ppm", &u->retry_ppm_inner, 0, 1e6 },
				       { NULL, NULL, 0, 0 } };

	return rd_numbers(p, v, pos, "retries", f);
}

static int parse_member(struct rp *p, struct sim_config *c, const char *k, struct json_object *v,
			const struct jpos *pos, bool *seen_lblock)
{
	uint64_t n;
	bool b = false;

	if (!strcmp(k, "id") || !strcmp(k, "personality") || !strcmp(k, "smart_blob"))
		return 0; /* done first */
	if (!strcmp(k, "queue_depth")) {
		if (rd_u64(p, v, pos, k, 1, c->sata ? 32 : 256, &n))
			return p->rc;
		c->queue_depth = (unsigned)n;
		return 0;
	}
	if (!strcmp(k, "overhead_ms")) {
		double ms;

		if (rd_num(p, v, pos, k, 0, 100, &ms))
			return p->rc;
		c->overhead_ns = (uint64_t)(ms * 1e6 + 0.5);
		return 0;
	}
	if (!strcmp(k, "write_cache"))
		return rd_bool(p, v, pos, k, &c->write_cache);
	if (!strcmp(k, "cache_mib"))
		return rd_num(p, v, pos, k, 0, 65536, &c->cache_mib);
	if (!strcmp(k, "model"))
		return rd_str(p, v, pos, k, c->sata || c->nvme ? 40 : 16, c->model);
	if (!strcmp(k, "serial"))
		return rd_str(p, v, pos, k, 20, c->serial);
	if (!strcmp(k, "firmware"))
		return rd_str(p, v, pos, k, c->sata || c->nvme ? 8 : 4, c->firmware);
	if (!strcmp(k, "wwn")) {
		if (rd_wwn(p, v, pos, &c->wwn))
			return p->rc;
		c->has_wwn = true;
		return 0;
	}
	if (!strcmp(k, "blocks"))
		return rd_u64(p, v, pos, k, 1, INT64_MAX, &c->blocks);
	if (!strcmp(k, "logical_block")) {
		if (rd_u64(p, v, pos, k, 1, INT64_MAX, &n))
			return p->rc;
		if (n != 512 && n != 4096)
			return rp_fail(p, pos, k, "expected 512 or 4096");
		c->lblock = (uint32_t)n;
		*seen_lblock = true;
		return 0;
	}
	if (!strcmp(k, "physical_block")) {
		if (rd_u64(p, v, pos, k, 1, INT64_MAX, &n))
			return p->rc;
		if (n < 512 || n > 65536 || (n & (n - 1)))
			return rp_fail(p, pos, k, "expected a power of two from 512 to 65536");
		c->pblock = (uint32_t)n;
		return 0;
	}
	if (!strcmp(k, "rpm")) {
		if (rd_u64(p, v, pos, k, 0, 65534, &n))
			return p->rc;
		if (n > 1 && (n < 1000 || n > 30000))
			return rp_fail(
			    p, pos, k,
			    "expected 0 (not reported), 1 (non-rotating) or 1000 to 30000");
		c->rpm = (uint16_t)n;
		return 0;
	}
	if (!strcmp(k, "form_factor"))
		return rd_form_factor(p, v, pos, &c->form_factor);
	if (!strcmp(k, "lba48"))
		return rd_bool(p, v, pos, k, &c->lba48);
	if (!strcmp(k, "hpa") || !strcmp(k, "amac") || !strcmp(k, "dco") ||
	    !strcmp(k, "security")) {
		if (!c->sata)
			return rp_fail(p, pos, k, "an ATA feature; only a \"sata\" drive has it");
		if (!strcmp(k, "hpa"))
			return rd_hpa(p, c, v, pos);
		if (!strcmp(k, "amac"))
			return rd_bool(p, v, pos, k, &c->amac);
		if (!strcmp(k, "dco"))
			return rd_dco(p, c, v, pos);
		return rd_security(p, c, v, pos);
	}
	if (!strcmp(k, "smart")) {
		c->blob_smart = false; /* the simulator's own attributes, from these seeds */
		return rd_smart(p, c, v, pos);
	}
	if (!strcmp(k, "zoned")) {
		const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v)
									 : "";

		if (!strcmp(s, "none"))
			c->zoned = SIM_ZONED_NONE;
		else if (!strcmp(s, "host-aware"))
			c->zoned = SIM_ZONED_HOST_AWARE;
		else if (!strcmp(s, "host-managed"))
			c->zoned = SIM_ZONED_HOST_MANAGED;
		else
			return rp_fail(p, pos, k,
				       "expected \"none\", \"host-aware\" or \"host-managed\"");
		return 0;
	}
	if (!strcmp(k, "zone_size_mb")) {
		if (rd_u64(p, v, pos, k, 1, 65536, &n))
			return p->rc;
		if (n & (n - 1))
			return rp_fail(p, pos, k, "expected a power of two (MiB)");
		c->zone_mb = (uint32_t)n;
		return 0;
	}
	if (!strcmp(k, "conventional_zones")) {
		if (rd_u64(p, v, pos, k, 0, UINT32_MAX, &n))
			return p->rc;
		c->conv_zones = (uint32_t)n;
		return 0;
	}
	if (!strcmp(k, "d_sense")) {
		if (rd_bool(p, v, pos, k, &b))
			return p->rc;
		c->d_sense = b;
		return 0;
	}
	if (!strcmp(k, "media"))
		return rd_media(p, c, v, pos);
	if (!strcmp(k, "flash"))
		return 0; /* done first: it sets defaults */
	if (!strcmp(k, "faults"))
		return rd_faults(p, c, v, pos);
	if (!strcmp(k, "retries"))
		return rd_retries(p, v, pos, &c->unit);
	if (!strcmp(k, "spread"))
		return rd_spread(p, v, pos, &c->unit);
	if (!strcmp(k, "actuators")) {
		if (rd_u64(p, v, pos, k, 1, 4, &n))
			return p->rc;
		c->actuators = (unsigned)n;
		return 0;
	}
	if (!strcmp(k, "depop"))
		return rd_bool(p, v, pos, k, &c->depop);
	if (!strcmp(k, "sector_sizes")) {
		size_t m;

		if (!json_object_is_type(v, json_type_array) ||
		    (m = json_object_array_length(v)) < 1 || m > 4)
			return rp_fail(p, pos, k, "expected a list of 1 to 4 sizes (512, 4096)");
		c->nsizes = 0;
		for (size_t i = 0; i < m; i++) {
			if (rd_u64(p, json_object_array_get_idx(v, i), pos, k, 512, 4096, &n))
				return p->rc;
			if (n != 512 && n != 4096)
				return rp_fail(p, pos, k, "expected 512 or 4096");
			c->sizes[c->nsizes++] = (uint32_t)n;
		}
		return 0;
	}
	if (!strcmp(k, "heads")) {
		if (rd_u64(p, v, pos, k, 1, 32, &n))
			return p->rc;
		c->unit.heads = (unsigned)n;
		return 0;
	}
	return rp_fail(p, pos, NULL, "unknown field \"%s\"", k);
}

static int parse_drive(struct rp *p, struct json_object *o, const struct jpos *pos, unsigned idx,
		       struct sim_config *c)
{
	struct json_object *x, *media = NULL;
	const struct jpos *mp;
	bool seen_lblock = false;
	char vendor_tmp[41] = "";
	int rc;

	snprintf(p->label, sizeof(p->label), "drive #%u", idx + 1);
	if (!json_object_is_type(o, json_type_object))
		return rp_fail(p, pos, NULL, "expected an object");
	memset(c, 0, sizeof(*c));

	if (!json_object_object_get_ex(o, "id", &x))
		return rp_fail(p, pos, NULL, "missing field \"id\"");
	if (!json_object_is_type(x, json_type_string) ||
	    json_object_get_string_len(x) > SIM_ID_MAX || !valid_id(json_object_get_string(x)))
		return rp_fail(p, jpos_member(pos, "id"), "id",
			       "expected 1 to %d letters, digits, '.', '_' or '-'", SIM_ID_MAX);
	snprintf(c->id, sizeof(c->id), "%s", json_object_get_string(x));
	snprintf(p->label, sizeof(p->label), "drive \"%s\"", c->id);

	if (!json_object_object_get_ex(o, "personality", &x))
		return rp_fail(p, pos, NULL, "missing field \"personality\"");
	if (!json_object_is_type(x, json_type_string) ||
	    (strcmp(json_object_get_string(x), "sata") &&
	     strcmp(json_object_get_string(x), "sas") && strcmp(json_object_get_string(x), "nvme")))
		return rp_fail(p, jpos_member(pos, "personality"), "personality",
			       "expected \"sata\", \"sas\" or \"nvme\"");
	c->sata = !strcmp(json_object_get_string(x), "sata");
	c->nvme = !strcmp(json_object_get_string(x), "nvme");

	/* defaults */
	c->unit = p->unit; /* the rig's, which the drive's own members override */
	c->lblock = 512;
	c->rpm = 7200;
	c->form_factor = 2;
	c->lba48 = true;
	c->d_sense = c->sata;
	c->zone_mb = 256;
	c->media.avg_seek_ms = c->media.t2t_ms = c->media.full_ms = NAN;
	c->media.outer_mbps = c->media.inner_mbps = c->media.cache_mb = NAN;
	c->queue_depth = c->sata ? SATA_QUEUE : SAS_QUEUE;
	c->overhead_ns = c->sata ? SATA_OVERHEAD_NS : SAS_OVERHEAD_NS;
	c->write_cache = c->sata;
	c->cache_mib = NAN;
	if (c->nvme) { /* sim_nvme.c: figures of a flash drive */
		c->rpm = 1;
		c->form_factor = 0;
		c->queue_depth = NVME_QUEUE;
		c->overhead_ns = NVME_OVERHEAD_NS;
		c->write_cache = true;
		c->nv.lbaf[0] = 512;
		c->nv.lbaf[1] = 4096;
		c->nv.nlbaf = 2;
		c->nv.ns_mgmt = true;
		c->nv.spare = 100;
		c->nv.spare_threshold = 10;
		c->nv.dies = 32; /* 4 channels of 8 dies: a 1 TB TLC drive */
		/* a TLC drive on PCIe 3.0 x4: 3 GB/s, 80 us to the first byte */
		c->media.avg_seek_ms = c->media.t2t_ms = c->media.full_ms = 0.08;
		c->media.outer_mbps = c->media.inner_mbps = 3000;
	}

	c->actuators = 1;
	json_object_object_get_ex(o, "media", &media);
	/* a flash drive: its defaults before the members that override them */
	if (json_object_object_get_ex(o, "flash", &x)) {
		if (rd_flash(p, c, x, jpos_member(pos, "flash")))
			return p->rc;
		if (c->flash.on) {
			c->rpm = 1;
			c->overhead_ns = FLASH_OVERHEAD_NS;
		}
	}
	/* a drive seeded from a saved blob: the other members override it */
	if (json_object_object_get_ex(o, "smart_blob", &x) &&
	    rd_blob(p, c, x, jpos_member(pos, "smart_blob")))
		return p->rc;

	/* every member, in file order */
	{
		struct json_object_iterator it = json_object_iter_begin(o);
		struct json_object_iterator end = json_object_iter_end(o);

		for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
			const char *k = json_object_iter_peek_name(&it);
			struct json_object *v = json_object_iter_peek_value(&it);
			const struct jpos *kp = jpos_member(pos, k);

			if (!strcmp(k, "vendor")) {
				rc = rd_str(p, v, kp, k, c->sata ? 40 : 8,
					    c->sata ? vendor_tmp : c->vendor);
			} else if (!strcmp(k, "media")) {
				rc = rd_media(p, c, v, kp);
			} else if (!strcmp(k, "nvme") && c->nvme) {
				char msg[200];

				rc = sim_nvme_parse(c, v, msg, sizeof(msg))
					 ? rp_fail(p, kp, k, "%s", msg)
					 : 0;
			} else {
				rc = parse_member(p, c, k, v, kp, &seen_lblock);
			}
			if (rc)
				return p->rc;
		}
	}
	if (c->sata)
		snprintf(c->vendor, sizeof(c->vendor), "ATA");

	/* required members */
	if (!c->model[0])
		return rp_fail(p, pos, NULL, "missing field \"model\"");
	if (!c->serial[0])
		return rp_fail(p, pos, NULL, "missing field \"serial\"");
	if (!c->firmware[0])
		return rp_fail(p, pos, NULL, "missing field \"firmware\"");
	if (!c->blocks)
		return rp_fail(p, pos, NULL, "missing field \"blocks\"");
	if (c->nvme) {
		char msg[200];

		if (c->zoned != SIM_ZONED_NONE)
			return rp_fail(p, jpos_member(pos, "zoned"), "zoned",
				       "the NVMe personality has no zones");
		if (sim_nvme_finish(c, msg, sizeof(msg)))
			return rp_fail(p, jpos_member(pos, "nvme"), "nvme", "%s", msg);
	}
	if (!c->sata && !c->nvme && !c->vendor[0])
		return rp_fail(p, pos, NULL, "missing field \"vendor\"");
	if (!c->sata && !c->nvme && !c->has_wwn)
		return rp_fail(p, pos, NULL, "missing field \"wwn\" (a SAS drive has a name)");

	/* consistency */
	if (!c->pblock)
		c->pblock = c->lblock;
	if (c->pblock < c->lblock || c->pblock / c->lblock > 32768)
		return rp_fail(p, jpos_member(pos, "physical_block"), "physical_block",
			       "must be a multiple of logical_block (%u)", c->lblock);
	if (c->sata) {
		uint64_t lim = c->lba48 ? ATA48_MAX_BLOCKS : ATA28_MAX_BLOCKS;

		if (c->blocks > lim)
			return rp_fail(p, jpos_member(pos, "blocks"), "blocks",
				       "more than %s addressing allows (%" PRIu64 ")",
				       c->lba48 ? "48-bit" : "28-bit", lim);
	} else if (c->blocks > (1ULL << 56)) {
		return rp_fail(p, jpos_member(pos, "blocks"), "blocks", "too large");
	}
	if (c->blocks > UINT64_MAX / c->lblock / 2)
		return rp_fail(p, jpos_member(pos, "blocks"), "blocks", "too large");
	if (c->hpa_blocks > c->blocks)
		return rp_fail(p, jpos_member(jpos_member(pos, "hpa"), "max"), "hpa.max",
			       "%" PRIu64 " is beyond the native capacity (%" PRIu64 " blocks)",
			       c->hpa_blocks, c->blocks);
	if (c->hpa_blocks == c->blocks)
		c->hpa_blocks = 0;
	if (!c->dco_factory)
		c->dco_factory = c->blocks;
	if (c->dco_factory < c->blocks)
		return rp_fail(p, jpos_member(jpos_member(pos, "dco"), "factory_blocks"),
			       "dco.factory_blocks", "smaller than \"blocks\" (%" PRIu64 ")",
			       c->blocks);
	if (c->dco_factory > c->blocks && !c->dco)
		return rp_fail(p, jpos_member(pos, "dco"), "dco",
			       "factory_blocks beyond blocks needs \"supported\": true");
	if (c->sata && c->lba48 && c->dco_factory > ATA48_MAX_BLOCKS)
		return rp_fail(p, jpos_member(pos, "dco"), "dco.factory_blocks", "too large");
	if (!c->sata && c->dco_factory != c->blocks)
		c->dco_factory = c->blocks;
	if (c->nsizes) {
		bool own = false;

		for (unsigned i = 0; i < c->nsizes; i++)
			own |= c->sizes[i] == c->lblock;
		if (!own || c->zoned != SIM_ZONED_NONE || c->dco_factory != c->blocks)
			return rp_fail(
			    p, jpos_member(pos, "sector_sizes"), "sector_sizes",
			    "must list the drive's own logical_block, on a drive that is "
			    "not zoned and has no DCO factory size");
	}
	if (c->zoned != SIM_ZONED_NONE) {
		uint64_t zb = (uint64_t)c->zone_mb * 1048576 / c->lblock;
		uint64_t zones = (c->blocks + zb - 1) / zb;

		if (c->conv_zones > zones)
			return rp_fail(p, jpos_member(pos, "conventional_zones"),
				       "conventional_zones",
				       "more than the drive's %" PRIu64 " zones", zones);
		if (zones > (1u << 24))
			return rp_fail(p, jpos_member(pos, "zone_size_mb"), "zone_size_mb",
				       "too small: more than 16777216 zones");
	}

	if (c->flash.on && c->rpm != 1)
		return rp_fail(p, jpos_member(pos, "rpm"), "rpm",
			       "a flash drive does not rotate: 1");
	if (c->flash.on && c->zoned != SIM_ZONED_NONE)
		return rp_fail(p, jpos_member(pos, "zoned"), "zoned",
			       "a zoned flash drive is not modelled");

	if (c->actuators > 1 && c->zoned != SIM_ZONED_NONE)
		return rp_fail(p, jpos_member(pos, "actuators"), "actuators",
			       "a zoned drive with several actuators is not simulated");
	if (c->actuators > 1 && c->dco_factory != c->blocks)
		return rp_fail(p, jpos_member(pos, "actuators"), "actuators",
			       "a drive with several actuators and a DCO below its factory "
			       "capacity is not simulated");

	/* media: the rig's figures, the rest from the rpm table */
	mp = media ? jpos_member(pos, "media") : NULL;
	if (!isnan(c->cache_mib) && !isnan(c->media.cache_mb))
		return rp_fail(p, jpos_member(pos, "cache_mib"), "cache_mib",
			       "give \"cache_mib\" or \"media\": {\"cache_mb\"} (its older name), "
			       "not both");
	if (media_finish(p, c, mp ? mp : pos))
		return p->rc;
	if (isnan(c->cache_mib))
		c->cache_mib = c->media.cache_mb;
	c->media.cache_mb = c->cache_mib;
	sim_unit_setup(c, p->seed);
	if (c->actuators > 1) /* the surfaces shared out among the head stacks */
		cpr_split(
		    &c->ranges, c->actuators, c->blocks,
		    (uint8_t)(c->unit.heads / c->actuators ? c->unit.heads / c->actuators : 1));
	p->label[0] = '\0';
	return 0;
}

/* ---- arrays ---------------------------------------------------------------- */

/* 0, 1, 10, 5, 6, 50, 60: a number, or a string of one ("5", "raid5", "RAID 5") */
static int rd_level(struct rp *p, struct json_object *v, const struct jpos *pos, int *out)
{
	static const int levels[] = { 0, 1, 10, 5, 6, 50, 60 };
	int64_t l = -1;

	if (json_object_is_type(v, json_type_int)) {
		l = json_object_get_int64(v);
	} else if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		char *end;

		if (!strncasecmp(s, "raid", 4))
			s += 4 + (s[4] == ' ');
		if (*s >= '0' && *s <= '9') {
			l = strtol(s, &end, 10);
			if (*end)
				l = -1;
		}
	}
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		if (l == levels[i]) {
			*out = levels[i];
			return 0;
		}
	}
	return rp_fail(p, pos, "level", "expected 0, 1, 10, 5, 6, 50 or 60");
}

/* The members, drive ids of the rig in md's order: their indices in idx. */
static int rd_members(struct rp *p, struct json_object *v, const struct jpos *pos,
		      const struct sim_config *cfgs, size_t ncfg, unsigned *idx, unsigned *n)
{
	size_t len;
	char name[32];

	if (!json_object_is_type(v, json_type_array) || (len = json_object_array_length(v)) == 0)
		return rp_fail(p, pos, "members", "expected a non-empty array of drive ids");
	if (len > SIM_ARRAY_MAX_MEMBERS)
		return rp_fail(p, pos, "members", "at most %d members", SIM_ARRAY_MAX_MEMBERS);
	for (size_t i = 0; i < len; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const struct jpos *ep = jpos_index(pos, (unsigned)i);
		const char *id;
		size_t j;

		snprintf(name, sizeof(name), "members[%zu]", i);
		if (!json_object_is_type(e, json_type_string))
			return rp_fail(p, ep, name, "expected a drive id");
		id = json_object_get_string(e);
		for (j = 0; j < ncfg && strcmp(cfgs[j].id, id); j++)
			;
		if (j == ncfg)
			return rp_fail(p, ep, name, "no drive \"%.32s\" in the rig", id);
		for (size_t k = 0; k < i; k++)
			if (idx[k] == j)
				return rp_fail(p, ep, name, "drive \"%s\" is already member %zu",
					       id, k);
		if (cfgs[j].zoned == SIM_ZONED_HOST_MANAGED)
			return rp_fail(p, ep, name,
				       "drive \"%s\" is host-managed zoned: md cannot use it", id);
		if (i && cfgs[j].lblock != cfgs[idx[0]].lblock)
			return rp_fail(
			    p, ep, name,
			    "drive \"%s\" has %u-byte blocks, member 0 %u-byte ones: the "
			    "members must have one block size",
			    id, cfgs[j].lblock, cfgs[idx[0]].lblock);
		idx[i] = (unsigned)j;
	}
	*n = (unsigned)len;
	return 0;
}

/* An object of numbers: each f[i].key into *f[i].dst, from f[i].min to f[i].max. */
static int rd_numbers(struct rp *p, struct json_object *v, const struct jpos *pos,
		      const char *field, const struct num_field *f)
{
	const char *keys[NUM_FIELDS_MAX + 1];
	char prefix[40], name[80];
	struct json_object *x;
	unsigned n = 0;

	while (n < NUM_FIELDS_MAX && f[n].key) {
		keys[n] = f[n].key;
		n++;
	}
	keys[n] = NULL;
	if (!json_object_is_type(v, json_type_object))
		return rp_fail(p, pos, field, "expected an object");
	snprintf(prefix, sizeof(prefix), "%s.", field);
	if (check_keys(p, v, pos, prefix, keys))
		return p->rc;
	for (unsigned i = 0; i < n; i++) {
		if (!json_object_object_get_ex(v, keys[i], &x))
			continue;
		snprintf(name, sizeof(name), "%s.%s", field, keys[i]);
		if (rd_num(p, x, jpos_member(pos, keys[i]), name, f[i].min, f[i].max, f[i].dst))
			return p->rc;
	}
	return 0;
}

/* An array being read: where it goes, the drive indices of its members, its
 * "layout", and the rig's drives they are taken from. */
struct array_in {
	struct sim_array *a;
	unsigned *members;
	char layout[32];
	const struct sim_config *cfgs;
	size_t ncfg;
};

/* One field of an array, checked for its type and range only. */
static int parse_array_member(struct rp *p, struct array_in *ai, const char *k,
			      struct json_object *v, const struct jpos *kp)
{
	struct sim_array *a = ai->a;
	const struct num_field path[] = { { "read_mbps", &a->read_mbps, 0.001, 1e6 },
					  { "write_mbps", &a->write_mbps, 0.001, 1e6 },
					  { NULL, NULL, 0, 0 } };
	const struct num_field ctl[] = { { "latency_us", &a->latency_us, 0, 1e6 },
					 { "per_member_us", &a->per_member_us, 0, 1e6 },
					 { NULL, NULL, 0, 0 } };
	uint64_t n;

	if (!strcmp(k, "name"))
		return 0; /* done first */
	if (!strcmp(k, "level"))
		return rd_level(p, v, kp, &a->level);
	if (!strcmp(k, "members"))
		return rd_members(p, v, kp, ai->cfgs, ai->ncfg, ai->members, &a->n);
	if (!strcmp(k, "chunk_kib")) {
		if (rd_u64(p, v, kp, k, 4, 4096, &n))
			return p->rc;
		if (n & (n - 1))
			return rp_fail(p, kp, k, "expected a power of two from 4 to 4096 (KiB)");
		a->chunk_kib = (uint32_t)n;
		return 0;
	}
	if (!strcmp(k, "copies") || !strcmp(k, "groups")) {
		if (rd_u64(p, v, kp, k, 2, SIM_ARRAY_MAX_MEMBERS, &n))
			return p->rc;
		*(!strcmp(k, "copies") ? &a->copies : &a->groups) = (unsigned)n;
		return 0;
	}
	if (!strcmp(k, "layout"))
		return rd_str(p, v, kp, k, sizeof(ai->layout) - 1, ai->layout);
	if (!strcmp(k, "stripe_cache")) {
		/* md's stripe_cache_size and its limits (md.rst) */
		if (rd_u64(p, v, kp, k, 17, 32768, &n))
			return p->rc;
		a->stripe_cache = (unsigned)n;
		return 0;
	}
	if (!strcmp(k, "path"))
		return rd_numbers(p, v, kp, k, path);
	if (!strcmp(k, "controller"))
		return rd_numbers(p, v, kp, k, ctl);
	return rp_fail(p, kp, NULL, "unknown field \"%s\"", k);
}

/* A field that the array's level does not take. */
static int not_for_level(struct rp *p, const struct jpos *pos, const char *field,
			 const struct sim_array *a, const char *what)
{
	return rp_fail(p, jpos_member(pos, field), field, "RAID %d %s", a->level, what);
}

static int parse_array(struct rp *p, struct json_object *o, const struct jpos *pos, unsigned idx,
		       struct array_in *ai)
{
	struct sim_array *a = ai->a;
	const char *layout = ai->layout;
	struct ss_error merr = { 0 };
	struct json_object *x;
	const char *field;
	bool mirror, parity;

	snprintf(p->label, sizeof(p->label), "array #%u", idx + 1);
	if (!json_object_is_type(o, json_type_object))
		return rp_fail(p, pos, NULL, "expected an object");
	memset(a, 0, sizeof(*a));
	a->level = -1;
	a->chunk_kib = 512;
	if (!json_object_object_get_ex(o, "name", &x))
		return rp_fail(p, pos, NULL, "missing field \"name\"");
	if (!json_object_is_type(x, json_type_string) ||
	    json_object_get_string_len(x) > SIM_ID_MAX || !valid_id(json_object_get_string(x)))
		return rp_fail(p, jpos_member(pos, "name"), "name",
			       "expected 1 to %d letters, digits, '.', '_' or '-'", SIM_ID_MAX);
	snprintf(a->name, sizeof(a->name), "%s", json_object_get_string(x));
	snprintf(p->label, sizeof(p->label), "array \"%s\"", a->name);
	{
		struct json_object_iterator it = json_object_iter_begin(o);
		struct json_object_iterator end = json_object_iter_end(o);

		for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
			const char *k = json_object_iter_peek_name(&it);

			if (parse_array_member(p, ai, k, json_object_iter_peek_value(&it),
					       jpos_member(pos, k)))
				return p->rc;
		}
	}
	if (a->level < 0)
		return rp_fail(p, pos, NULL, "missing field \"level\"");
	if (!a->n)
		return rp_fail(p, pos, NULL, "missing field \"members\"");
	mirror = a->level == 1 || a->level == 10;
	parity = a->level != 0 && !mirror;
	if (a->copies && !mirror)
		return not_for_level(p, pos, "copies", a, "keeps no copies (RAID 1 and 10 do)");
	if (a->groups && a->level != 50 && a->level != 60)
		return not_for_level(p, pos, "groups", a, "has no groups (RAID 50 and 60 do)");
	if (a->level == 1 && jpos_member(pos, "chunk_kib"))
		return not_for_level(p, pos, "chunk_kib", a, "has no chunks");
	if (a->stripe_cache && !parity)
		return not_for_level(p, pos, "stripe_cache", a,
				     "has no stripe cache (RAID 5, 6, 50 and 60 do)");
	if (parity && !a->stripe_cache)
		a->stripe_cache = 256; /* md's default */
	if (layout[0] && !(a->level == 10 && !strcmp(layout, "near")) &&
	    !(parity && !strcmp(layout, "left-symmetric")))
		return rp_fail(p, jpos_member(pos, "layout"), "layout",
			       a->level == 10 ? "RAID 10 is modelled with \"near\" copies only"
			       : parity	      ? "RAID 5 and 6 are modelled \"left-symmetric\" "
						"(md's default) only"
					      : "RAID 0 and 1 have no layout to choose");
	if (sim_md_check(a->level, a->n, a->copies, a->groups, &merr)) {
		field = a->copies ? "copies" : a->groups ? "groups" : "members";
		return rp_fail(p, jpos_member(pos, field), field, "%s", merr.msg);
	}
	if (a->level == 1)
		a->copies = a->n;
	else if (a->level == 10 && !a->copies)
		a->copies = 2;
	else if (!mirror)
		a->copies = 1;
	if (a->level == 50 || a->level == 60)
		a->groups = a->groups ? a->groups : 2;
	else
		a->groups = 1;
	p->label[0] = '\0';
	return 0;
}

/* The "arrays" of a rig over its drives' configurations; members[i] holds the
 * drive indices of array i. */
static int parse_arrays(struct rp *p, struct json_object *v, const struct jpos *pos,
			const struct sim_config *cfgs, size_t ncfg, struct sim_rig *rig,
			unsigned (*members)[SIM_ARRAY_MAX_MEMBERS])
{
	size_t n;

	if (!json_object_is_type(v, json_type_array))
		return rp_fail(p, pos, "arrays", "expected an array of arrays");
	n = json_object_array_length(v);
	if (n > SIM_MAX_ARRAYS)
		return rp_fail(p, pos, "arrays", "more than %d arrays", SIM_MAX_ARRAYS);
	for (size_t i = 0; i < n; i++) {
		const struct jpos *ep = jpos_index(pos, (unsigned)i);
		struct sim_array *a = &rig->arrays[i];
		struct array_in ai = { a, members[i], "", cfgs, ncfg };

		if (parse_array(p, json_object_array_get_idx(v, i), ep, (unsigned)i, &ai))
			return p->rc;
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(rig->arrays[j].name, a->name)) {
				snprintf(p->label, sizeof(p->label), "array \"%s\"", a->name);
				return rp_fail(p, jpos_member(ep, "name"), "name",
					       "the name is already used by array #%zu", j + 1);
			}
		}
		rig->narrays++;
	}
	return 0;
}

static struct sim_drive *drive_new(struct sim_rig *rig, const struct sim_config *c)
{
	struct sim_drive *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->rig = rig;
	d->cfg = *c;
	sim_store_init(&d->store);
	d->lock_fd = -1;
	d->store.size = c->dco_factory * c->lblock;
	sim_state_init(d);
	d->mono_base_ns = sim_mono_ns();
	if (sim_zones_init(d) || sim_flash_init(d)) {
		sim_zones_fini(d);
		free(d);
		return NULL;
	}
	pthread_mutex_init(&d->lock, NULL);
	return d;
}

static void drive_free(struct sim_drive *d)
{
	if (!d)
		return;
	sim_store_fini(&d->store);
	sim_zones_fini(d);
	sim_cache_fini(d);
	sim_flash_fini(d);
	free(d->state_path);
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

void sim_rig_free(struct sim_rig *rig)
{
	unsigned i;

	if (!rig)
		return;
	for (i = 0; i < rig->count; i++) {
		struct sim_drive *d = rig->drives[i];

		/* only what this process changed: saving every drive would undo
		 * what another process did to the others meanwhile */
		if (d && sim_state_unsaved(d) && sim_state_lock(d, NULL) == 0)
			sim_state_unlock(d, true, NULL);
		drive_free(d);
	}
	sim_encl_free_all(rig);
	free(rig->drives);
	free(rig->arrays);
	free(rig->state_dir);
	free(rig);
}

static int make_state_dir(const char *dir, struct ss_error *err)
{
	struct stat sb;

	if (stat(dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode))
			return ss_error_set(err, -ENOTDIR,
					    "%s: the state directory is not a directory", dir);
		return 0;
	}
	if (errno != ENOENT)
		return ss_error_set(err, -errno, "%s: %s", dir, strerror(errno));
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return ss_error_set(err, -errno, "%s: cannot create the state directory: %s", dir,
				    strerror(errno));
	return 0;
}

/* The drives' state directory: there, and no other user's to plant links in. */
static int open_state_dir(const char *dir, struct ss_error *err)
{
	char what[PATH_MAX + 64];
	int rc = make_state_dir(dir, err);

	snprintf(what, sizeof(what), "the simulated drives' state directory %s", dir);
	return rc ? rc : file_dir_check(dir, true, what, err);
}

static int rig_build(struct rp *p, struct json_object *root, const struct jpos *rpos,
		     const char *state_dir, struct sim_rig **out)
{
	static const char *const top_keys[] = { "drives",  "time_scale", "arrays",     "seed",
						"retries", "spread",	 "enclosures", NULL };
	unsigned(*members)[SIM_ARRAY_MAX_MEMBERS] = NULL;
	struct json_object *drives, *arrays, *x;
	const struct jpos *dpos;
	struct sim_config *cfgs = NULL;
	struct sim_rig *rig = NULL;
	size_t n, i, j;
	int rc;

	if (!json_object_is_type(root, json_type_object))
		return rp_fail(p, rpos, NULL, "expected an object {\"drives\": [...]}");
	if (check_keys(p, root, rpos, "", top_keys))
		return p->rc;
	rig = calloc(1, sizeof(*rig));
	if (!rig)
		return ss_error_nomem(p->err);
	rig->time_scale = 1000;
	if (json_object_object_get_ex(root, "time_scale", &x) &&
	    rd_num(p, x, jpos_member(rpos, "time_scale"), "time_scale", 0, 1e9, &rig->time_scale))
		goto fail;
	if (json_object_object_get_ex(root, "seed", &x) &&
	    rd_u64(p, x, jpos_member(rpos, "seed"), "seed", 0, INT64_MAX, &p->seed))
		goto fail;
	if (json_object_object_get_ex(root, "retries", &x) &&
	    rd_retries(p, x, jpos_member(rpos, "retries"), &p->unit))
		goto fail;
	if (json_object_object_get_ex(root, "spread", &x) &&
	    rd_spread(p, x, jpos_member(rpos, "spread"), &p->unit))
		goto fail;
	if (!json_object_object_get_ex(root, "drives", &drives)) {
		rp_fail(p, rpos, NULL, "missing field \"drives\"");
		goto fail;
	}
	dpos = jpos_member(rpos, "drives");
	if (!json_object_is_type(drives, json_type_array) ||
	    (n = json_object_array_length(drives)) == 0) {
		rp_fail(p, dpos, "drives", "expected a non-empty array of drives");
		goto fail;
	}
	if (n > SIM_MAX_DRIVES) {
		rp_fail(p, dpos, "drives", "more than %d drives", SIM_MAX_DRIVES);
		goto fail;
	}
	cfgs = calloc(n, sizeof(*cfgs));
	rig->drives = calloc(n, sizeof(*rig->drives));
	if (!cfgs || !rig->drives) {
		rc = ss_error_nomem(p->err);
		p->rc = rc;
		goto fail;
	}
	for (i = 0; i < n; i++) {
		const struct jpos *ep = jpos_index(dpos, (unsigned)i);

		if (parse_drive(p, json_object_array_get_idx(drives, i), ep, (unsigned)i, &cfgs[i]))
			goto fail;
		for (j = 0; j < i; j++) {
			if (strcmp(cfgs[j].id, cfgs[i].id) == 0) {
				snprintf(p->label, sizeof(p->label), "drive \"%s\"", cfgs[i].id);
				rp_fail(p, jpos_member(ep, "id"), "id",
					"the id is already used by drive #%zu", j + 1);
				goto fail;
			}
		}
	}
	if (json_object_object_get_ex(root, "arrays", &arrays)) {
		size_t na = json_object_is_type(arrays, json_type_array)
				? json_object_array_length(arrays)
				: 0;

		rig->arrays = calloc(na ? na : 1, sizeof(*rig->arrays));
		members = calloc(na ? na : 1, sizeof(*members));
		if (!rig->arrays || !members) {
			p->rc = ss_error_nomem(p->err);
			goto fail;
		}
		if (parse_arrays(p, arrays, jpos_member(rpos, "arrays"), cfgs, n, rig, members))
			goto fail;
	}
	if (json_object_object_get_ex(root, "enclosures", &x)) {
		rc = sim_encl_parse(x, cfgs, n, rig, p->origin, p->err);
		if (rc) {
			p->rc = rc;
			goto fail;
		}
	}
	if (state_dir) {
		rc = open_state_dir(state_dir, p->err);
		if (rc) {
			p->rc = rc;
			goto fail;
		}
		rig->state_dir = strdup(state_dir);
		if (!rig->state_dir) {
			p->rc = ss_error_nomem(p->err);
			goto fail;
		}
	}
	for (i = 0; i < n; i++) {
		struct sim_drive *d = drive_new(rig, &cfgs[i]);

		if (!d) {
			p->rc = ss_error_nomem(p->err);
			goto fail;
		}
		rig->drives[rig->count++] = d;
		if (state_dir) {
			if (asprintf(&d->state_path, "%s/%s.json", state_dir, d->cfg.id) < 0 ||
			    asprintf(&d->store.path, "%s/%s.img", state_dir, d->cfg.id) < 0) {
				d->state_path = NULL;
				d->store.path = NULL;
				p->rc = ss_error_nomem(p->err);
				goto fail;
			}
			rc = sim_state_lock(d, p->err);
			if (rc) {
				p->rc = rc;
				goto fail;
			}
			rc = sim_store_check(d, p->err);
			sim_state_unlock(d, false, NULL);
			if (rc) {
				p->rc = rc;
				goto fail;
			}
		}
	}
	for (i = 0; i < rig->narrays; i++)
		for (j = 0; j < rig->arrays[i].n; j++)
			rig->arrays[i].member[j] = rig->drives[members[i][j]];
	rc = sim_encl_bind(rig, state_dir, p->err);
	if (rc) {
		p->rc = rc;
		goto fail;
	}
	if (state_dir)
		sim_state_clean_tmp(rig);
	free(members);
	free(cfgs);
	*out = rig;
	return 0;
fail:
	/* nothing was changed on disk: do not save on the way out */
	for (i = 0; rig && i < rig->count; i++) {
		free(rig->drives[i]->state_path);
		rig->drives[i]->state_path = NULL;
	}
	free(members);
	free(cfgs);
	sim_rig_free(rig);
	return p->rc ? p->rc : -EINVAL;
}

int sim_rig_load_string(const char *json, const char *origin, const char *state_dir,
			struct sim_rig **out, struct ss_error *err)
{
	struct rp p = { .origin = origin ? origin : "<rig>", .text = json, .err = err };
	struct json_tokener *tok;
	struct json_object *root;
	struct jpos rpos;
	enum json_tokener_error jerr;
	size_t len, end;
	int rc;

	if (!out)
		return ss_error_set(err, -EINVAL, "no place for the rig");
	*out = NULL;
	if (!json)
		return ss_error_set(err, -EINVAL, "%s: no rig text", p.origin);
	len = strlen(json);
	if (len > RIG_MAX_BYTES)
		return ss_error_set(err, -EFBIG, "%s: rig file larger than %u MiB", p.origin,
				    RIG_MAX_BYTES >> 20);
	tok = json_tokener_new_ex(32);
	if (!tok)
		return ss_error_nomem(err);
	/* trailing text is checked below, for a clearer message */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	root = json_tokener_parse_ex(tok, json, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!root && jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	if (jerr != json_tokener_success || !root) {
		rc = ss_error_set(err, -EINVAL, "%s:%u: JSON syntax error: %s", p.origin,
				  jpos_line(json, end), json_tokener_error_desc(jerr));
		json_tokener_free(tok);
		json_object_put(root);
		return rc;
	}
	json_tokener_free(tok);
	while (end < len &&
	       (json[end] == ' ' || json[end] == '\t' || json[end] == '\n' || json[end] == '\r'))
		end++;
	if (end < len) {
		json_object_put(root);
		return ss_error_set(err, -EINVAL, "%s:%u: JSON syntax error: text after the rig",
				    p.origin, jpos_line(json, end));
	}
	if (jpos_build(json, len, &rpos))
		memset(&rpos, 0, sizeof(rpos)); /* lines fall back to 1 */
	rc = rig_build(&p, root, &rpos, state_dir, out);
	jpos_fini(&rpos);
	json_object_put(root);
	return rc;
}

int sim_rig_load_file(const char *path, const char *state_dir, struct sim_rig **out,
		      struct ss_error *err)
{
	FILE *f;
	char *buf;
	size_t len = 0, n;
	int rc;

	if (!out || !path)
		return ss_error_set(err, -EINVAL, "no rig file given");
	*out = NULL;
	rc = file_open_input(path, "the rig file", err);
	if (rc < 0)
		return rc;
	f = fdopen(rc, "r");
	if (!f) {
		close(rc);
		return ss_error_nomem(err);
	}
	buf = malloc(RIG_MAX_BYTES + 2);
	if (!buf) {
		fclose(f);
		return ss_error_nomem(err);
	}
	while ((n = fread(buf + len, 1, RIG_MAX_BYTES + 1 - len, f)) > 0) {
		len += n;
		if (len > RIG_MAX_BYTES)
			break;
	}
	if (ferror(f)) {
		rc = ss_error_set(err, -EIO, "%s: cannot read the rig file", path);
		goto out;
	}
	if (len > RIG_MAX_BYTES) {
		rc = ss_error_set(err, -EFBIG, "%s: rig file larger than %u MiB", path,
				  RIG_MAX_BYTES >> 20);
		goto out;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		rc = ss_error_set(err, -EINVAL, "%s:%u: a NUL byte in the rig file", path,
				  jpos_line(buf, strlen(buf)));
		goto out;
	}
	rc = sim_rig_load_string(buf, path, state_dir, out, err);
out:
	free(buf);
	fclose(f);
	return rc;
}

unsigned sim_rig_count(const struct sim_rig *rig)
{
	return rig ? rig->count : 0;
}

struct sim_drive *sim_rig_drive(struct sim_rig *rig, unsigned i)
{
	if (!rig || i >= rig->count)
		return NULL;
	return rig->drives[i];
}

struct sim_drive *sim_rig_find(struct sim_rig *rig, const char *id)
{
	unsigned i;

	if (!rig || !id)
		return NULL;
	for (i = 0; i < rig->count; i++)
		if (strcmp(rig->drives[i]->cfg.id, id) == 0)
			return rig->drives[i];
	return NULL;
}
