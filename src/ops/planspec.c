/* planspec.c - the planner's command-line specs as libraidplan's structs:
 * custom workloads, disk mechanics, path caps, latency and cache
 * (include/shortstroke/planspec.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/planspec.h"
#include "shortstroke/units.h"

#define SPEC_MAX 512

/* A byte count: a size with a unit (64K, 4KiB, 512B) or a bare number of bytes. */
static int bytes_parse(const char *text, uint64_t *out)
{
	struct size_spec sp;

	if (size_parse(text, &sp, NULL))
		return -EINVAL;
	if (sp.kind == SIZE_BYTES)
		*out = sp.bytes;
	else if (sp.kind == SIZE_BLOCKS)
		*out = sp.blocks; /* a bare number: bytes here */
	else
		return -EINVAL;
	return 0;
}

/* A share: 0.7 or 70% (0 .. 1). */
static int share_parse(const char *text, double *out)
{
	const char *rest;
	double v;

	if (decimal_parse(text, &v, &rest))
		return -EINVAL;
	if (!strcmp(rest, "%"))
		v /= 100;
	else if (*rest)
		return -EINVAL;
	if (v > 1)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A positive number with nothing after it. */
static int number_parse(const char *text, double *out)
{
	return decimal_parse(text, out, NULL);
}

/* Copy spec into buf (at most SPEC_MAX - 1 characters). */
static int spec_copy(const char *spec, char *buf, const char *what, struct ss_error *err)
{
	if (!spec || !*spec)
		return ss_error_set(err, -EINVAL, "%s: empty", what);
	if (strlen(spec) >= SPEC_MAX)
		return ss_error_set(err, -EINVAL, "%s: longer than %d characters", what,
				    SPEC_MAX - 1);
	memcpy(buf, spec, strlen(spec) + 1);
	return 0;
}

/* bs=SIZE[:WEIGHT][/SIZE:WEIGHT...] into w's sizes. */
static int sizes_parse(char *val, struct plan_workload *w, struct ss_error *err)
{
	char *save = NULL;
	size_t n = 0;

	for (char *tok = strtok_r(val, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		char *colon = strchr(tok, ':');
		uint64_t b;
		double weight = 1;

		if (n >= PLAN_MAX_SIZES)
			return ss_error_set(err, -EINVAL, "custom workload: more than %u sizes",
					    PLAN_MAX_SIZES);
		if (colon)
			*colon = '\0';
		if (bytes_parse(tok, &b) || b < 1 || b > (1ull << 30))
			return ss_error_set(err, -EINVAL,
					    "custom workload: bs: '%s' is not a request size "
					    "(512B .. 1G, e.g. 64K)",
					    tok);
		if (colon && (number_parse(colon + 1, &weight) || !(weight > 0) || weight > 1e9))
			return ss_error_set(err, -EINVAL,
					    "custom workload: bs: the weight of %s must be a "
					    "number above 0, got '%s'",
					    tok, colon + 1);
		rp_size_share_init(&w->sizes[n]);
		w->sizes[n].bytes = b;
		w->sizes[n].share = weight;
		n++;
	}
	if (!n)
		return ss_error_set(err, -EINVAL, "custom workload: bs: no size given");
	if (n == 1) {
		w->wl.request_bytes = w->sizes[0].bytes;
		w->wl.n_sizes = 0;
		w->wl.sizes = NULL;
	} else {
		w->wl.request_bytes = 0;
		w->wl.n_sizes = n;
		w->wl.sizes = w->sizes;
	}
	return 0;
}

void plan_workload_fix(struct plan_workload *w)
{
	/* a profile's sizes are the library's, a custom mix's are ours */
	if (w->profile < 0 && w->wl.n_sizes)
		w->wl.sizes = w->sizes;
}

static void workload_text(struct plan_workload *w)
{
	char b[32];
	int n;

	if (!w->wl.n_sizes)
		n = snprintf(w->text, sizeof(w->text), "custom: %s",
			     size_human(w->wl.request_bytes, b, sizeof(b)));
	else
		n = snprintf(w->text, sizeof(w->text), "custom: %zu sizes", w->wl.n_sizes);
	snprintf(w->text + n, sizeof(w->text) - (size_t)n, ", %.0f %% reads, %.0f %% random",
		 100 * w->wl.read_share, 100 * w->wl.random_share);
}

int plan_workload_parse(const char *spec, unsigned qd, struct plan_workload *out,
			struct ss_error *err)
{
	char buf[SPEC_MAX], *save = NULL;
	struct rp_error rerr = { 0 };
	bool have_bs = false;
	int rc;

	memset(out, 0, sizeof(*out));
	rp_workload_init(&out->wl);
	if (!spec || strncmp(spec, "custom:", 7)) {
		if (rp_profile_parse(spec, &out->profile, &rerr))
			return ss_error_set(err, -EINVAL,
					    "unknown workload '%s': use database, fileserver, "
					    "webserver, workstation, seq-read, seq-write, "
					    "random-access or custom:bs=SIZE,read=R,random=X",
					    spec ? spec : "");
		if (rp_workload_profile(out->profile, qd, &out->wl, &rerr))
			return ss_error_set(err, -EINVAL, "%s", rerr.msg);
		snprintf(out->text, sizeof(out->text), "%s", rp_profile_name(out->profile));
		return 0;
	}
	out->profile = -1;
	out->wl.queue_depth = qd;
	out->wl.read_share = 1;
	out->wl.random_share = 1;
	if ((rc = spec_copy(spec + 7, buf, "custom workload", err)))
		return rc;
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');

		if (!eq)
			return ss_error_set(err, -EINVAL,
					    "custom workload: '%s' is not KEY=VALUE (bs, read, "
					    "random)",
					    kv);
		*eq = '\0';
		if (!strcmp(kv, "bs")) {
			if ((rc = sizes_parse(eq + 1, out, err)))
				return rc;
			have_bs = true;
		} else if (!strcmp(kv, "read") || !strcmp(kv, "random")) {
			double *dst = kv[1] == 'e' ? &out->wl.read_share : &out->wl.random_share;

			if (share_parse(eq + 1, dst))
				return ss_error_set(
				    err, -EINVAL,
				    "custom workload: %s: expected a share (0.7) or "
				    "a percentage (70%%) from 0 to 1, got '%s'",
				    kv, eq + 1);
		} else {
			return ss_error_set(err, -EINVAL,
					    "custom workload: unknown key '%s' (bs, read, random)",
					    kv);
		}
	}
	if (!have_bs)
		return ss_error_set(err, -EINVAL,
				    "custom workload: give the request size, bs=SIZE (e.g. "
				    "custom:bs=64K,read=0,random=1)");
	workload_text(out);
	return 0;
}

/* One mechanics key: where in rp_disk, and its range. */
static const struct mech_key {
	const char *key;
	size_t off;
	double max;
	const char *what;
} mech_keys[] = {
	{ "t2t", offsetof(struct rp_disk, seek_t2t_ms), 1000, "track-to-track seek, ms" },
	{ "avg", offsetof(struct rp_disk, seek_avg_ms), 1000, "average seek, ms" },
	{ "full", offsetof(struct rp_disk, seek_full_ms), 1000, "full-stroke seek, ms" },
	{ "outer", offsetof(struct rp_disk, outer_mbps), 1e5, "outer rate, MB/s" },
	{ "inner", offsetof(struct rp_disk, inner_mbps), 1e5, "inner rate, MB/s" },
	{ "overhead", offsetof(struct rp_disk, overhead_ms), 100, "command overhead, ms" },
	{ "cache", offsetof(struct rp_disk, cache_mb), 1e6, "write cache, MB" },
	{ "link", offsetof(struct rp_disk, link_mbps), 1e6, "link, MB/s" },
	{ "mttf", offsetof(struct rp_disk, mttf_hours), 1e9, "MTTF, hours" },
	{ "ure", offsetof(struct rp_disk, ure_per_bit), 1e-3, "URE rate, per bit" },
};

int plan_mech_parse(const char *spec, struct rp_disk *d, struct ss_error *err)
{
	char buf[SPEC_MAX], *save = NULL;
	int rc;

	if ((rc = spec_copy(spec, buf, "--mech", err)))
		return rc;
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		size_t i;
		double v;

		if (!eq)
			return ss_error_set(err, -EINVAL, "--mech: '%s' is not KEY=VALUE", kv);
		*eq = '\0';
		if (!strcmp(kv, "queue")) {
			uint64_t q;

			if (u64_parse(eq + 1, &q) || q < 1 || q > 1024)
				return ss_error_set(err, -EINVAL,
						    "--mech: queue: expected the commands the disk "
						    "queues, 1 .. 1024, got '%s'",
						    eq + 1);
			d->queue_depth = (unsigned)q;
			continue;
		}
		if (!strcmp(kv, "wcache")) {
			if (!strcmp(eq + 1, "on"))
				d->write_cache = RP_WCACHE_ON;
			else if (!strcmp(eq + 1, "off"))
				d->write_cache = RP_WCACHE_OFF;
			else
				return ss_error_set(err, -EINVAL,
						    "--mech: wcache: expected on or off, got '%s'",
						    eq + 1);
			continue;
		}
		for (i = 0; i < sizeof(mech_keys) / sizeof(mech_keys[0]); i++)
			if (!strcmp(kv, mech_keys[i].key))
				break;
		if (i == sizeof(mech_keys) / sizeof(mech_keys[0]))
			return ss_error_set(
			    err, -EINVAL,
			    "--mech: unknown key '%s' (t2t, avg, full, outer, inner, "
			    "overhead, queue, cache, wcache, link, mttf, ure)",
			    kv);
		if (!strcmp(kv, "ure")) {
			/* 1e-15: the one key written with an exponent */
			char *end;

			v = strtod(eq + 1, &end);
			rc = end == eq + 1 || *end || !isfinite(v) ? -EINVAL : 0;
		} else {
			rc = number_parse(eq + 1, &v);
		}
		if (rc || !(v > 0) || v > mech_keys[i].max)
			return ss_error_set(
			    err, -EINVAL,
			    "--mech: %s (%s): expected a number above 0 and at most "
			    "%g, got '%s'",
			    kv, mech_keys[i].what, mech_keys[i].max, eq + 1);
		*(double *)((char *)d + mech_keys[i].off) = v;
	}
	return 0;
}

int plan_rate_pair_parse(const char *spec, double *read, double *write, struct ss_error *err)
{
	const char *slash = spec ? strchr(spec, '/') : NULL;
	char r[64];

	*read = *write = 0;
	if (!spec || !*spec || strlen(spec) >= sizeof(r))
		return ss_error_set(err, -EINVAL, "expected MB/s, or READ/WRITE MB/s (1200/800)");
	snprintf(r, sizeof(r), "%.*s", slash ? (int)(slash - spec) : (int)strlen(spec), spec);
	if (number_parse(r, read) || !(*read > 0) || *read > 1e9 ||
	    (slash && (number_parse(slash + 1, write) || !(*write > 0) || *write > 1e9)))
		return ss_error_set(err, -EINVAL,
				    "'%s': expected MB/s above 0, or READ/WRITE MB/s (1200/800)",
				    spec);
	return 0;
}

int plan_latency_parse(const char *spec, double *ms, double *per_disk_ms, struct ss_error *err)
{
	const char *rest;

	*ms = *per_disk_ms = 0;
	if (!spec || decimal_parse(spec, ms, &rest) || *ms > 1000)
		goto bad;
	if (!*rest)
		return 0;
	if (*rest != '+' || decimal_parse(rest + 1, per_disk_ms, &rest) || *per_disk_ms > 100 ||
	    (*rest && strcmp(rest, "/disk")))
		goto bad;
	return 0;
bad:
	return ss_error_set(err, -EINVAL,
			    "'%s': expected MS (0 .. 1000) or MS+MS_PER_DISK (0.05+0.01)",
			    spec ? spec : "");
}

int plan_share_parse(const char *spec, double *share, struct ss_error *err)
{
	*share = 0;
	if (spec && !share_parse(spec, share) && *share > 0)
		return 0;
	*share = 0;
	return ss_error_set(err, -EINVAL, "'%s': expected a share above 0, up to 1 (0.94 or 94%%)",
			    spec ? spec : "");
}

int plan_cache_parse(const char *spec, double *mb, double *mbps, struct ss_error *err)
{
	const char *at = spec ? strchr(spec, '@') : NULL;
	char s[64];
	uint64_t b;

	*mb = *mbps = 0;
	if (!spec || !*spec || strlen(spec) >= sizeof(s))
		goto bad;
	snprintf(s, sizeof(s), "%.*s", at ? (int)(at - spec) : (int)strlen(spec), spec);
	if (bytes_parse(s, &b) || b < 1000000 || b > 10000000000000ull)
		goto bad;
	*mb = (double)b / 1e6;
	if (at && (number_parse(at + 1, mbps) || !(*mbps > 0) || *mbps > 1e9))
		goto bad;
	return 0;
bad:
	return ss_error_set(err, -EINVAL,
			    "'%s': expected a cache size (1MB .. 10TB), optionally @MBPS (its "
			    "rate: 2G@1500)",
			    spec ? spec : "");
}

/* ---- goals ----------------------------------------------------------------------- */

int plan_size_parse(const char *what, const char *text, uint64_t *bytes, struct ss_error *err)
{
	struct ss_error e = { 0 };
	struct size_spec sp;

	if (size_parse(text, &sp, &e))
		return ss_error_usage(err, -EINVAL, "%s: %s", what, e.msg);
	if (sp.kind != SIZE_BYTES)
		return ss_error_usage(err, -EINVAL,
				      "%s: give a size with a unit (500G, 2TB, 1.5TiB), got '%s'",
				      what, text);
	*bytes = sp.bytes;
	return 0;
}

int plan_positive_parse(const char *what, const char *text, double *out, struct ss_error *err)
{
	double v;

	if (decimal_parse(text, &v, NULL) || !(v > 0) || !isfinite(v))
		return ss_error_usage(err, -EINVAL,
				      "%s: expected a number greater than 0, got '%s'", what, text);
	*out = v;
	return 0;
}

int plan_count_parse(const char *what, const char *text, unsigned min, unsigned max, unsigned *out,
		     struct ss_error *err)
{
	uint64_t v;

	if (u64_parse(text, &v) || v < min || v > max)
		return ss_error_usage(err, -EINVAL,
				      "%s: expected a whole number %u .. %u, got '%s'", what, min,
				      max, text);
	*out = (unsigned)v;
	return 0;
}

int plan_stroke_parse(const char *what, const char *text, double *out, struct ss_error *err)
{
	const char *end;
	double v;

	if (!decimal_parse(text, &v, &end) && v > 0) {
		if (!strcmp(end, "%") && v <= 100) {
			*out = v / 100;
			return 0;
		}
		if (!*end && v <= 1) {
			*out = v;
			return 0;
		}
	}
	return ss_error_usage(err, -EINVAL,
			      "%s: expected a percent (25%%) or a fraction (0.25) above 0 and at "
			      "most 100%%, got '%s'",
			      what, text);
}

unsigned plan_tolerate_default(unsigned level_mask, const char *what, char *note, size_t len)
{
	if (level_mask & RP_LEVEL_BIT(RP_LEVEL_0)) {
		snprintf(note, len, "%s", "");
		return 0;
	}
	snprintf(note, len, "no %s: layouts survive one failed disk; %s 0, or RAID 0, for none",
		 what, what);
	return 1;
}
