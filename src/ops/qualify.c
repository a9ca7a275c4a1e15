/* qualify.c - pre-deployment qualification: the thresholds file, the
 * profiles, the checks on one disk, the comparison of siblings and the
 * verdict. Reads only. docs/qualify.md. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qualify_priv.h"
#include "shortstroke/fileio.h"
#include "shortstroke/qualify.h"
#include "shortstroke/units.h"

static void qualify_set_check(struct qualify_result *r, enum qualify_check c, enum qualify_status s,
			      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define MIB (1024ull * 1024)

/* ---- names ---------------------------------------------------------------------- */

static const char *const profile_names[] = { "quick", "standard", "full", "burnin" };
#define NPROFILES (sizeof(profile_names) / sizeof(profile_names[0]))

const char *qualify_profile_name(enum qualify_profile p)
{
	return (unsigned)p < NPROFILES ? profile_names[p] : "?";
}

int qualify_profile_parse(const char *s, enum qualify_profile *out)
{
	for (unsigned i = 0; i < NPROFILES; i++) {
		if (!strcmp(s, profile_names[i])) {
			*out = (enum qualify_profile)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *qualify_status_name(enum qualify_status s)
{
	switch (s) {
	case QUALIFY_PASS:
		return "PASS";
	case QUALIFY_FAIL:
		return "FAIL";
	default:
		return "SKIP";
	}
}

static const char *const check_names[QC_COUNT] = {
	"identity", "smart", "selftest", "scan", "zones", "access", "siblings",
};

const char *qualify_check_name(enum qualify_check c)
{
	return (unsigned)c < QC_COUNT ? check_names[c] : "?";
}

/* ---- profiles ----------------------------------------------------------------------- */

void qualify_plan_for(enum qualify_profile p, uint64_t capacity_bytes, struct qualify_plan *o)
{
	memset(o, 0, sizeof(*o));
	o->scan_bs = QUALIFY_SCAN_BLOCK;
	o->qd[0] = 1;
	switch (p) {
	case QUALIFY_QUICK:
		o->scan_stripes = 64;
		o->scan_stripe_bytes = 4 * MIB;
		o->zone_points = 40;
		o->zone_sample = 2 * MIB;
		o->qd[1] = 32;
		o->nqd = 2;
		o->access_ns = 2000000000ull;
		break;
	case QUALIFY_STANDARD:
		o->selftest = true;
		o->scan_stripes = 100;
		o->scan_stripe_bytes = capacity_bytes / 1000 / MIB * MIB; /* 10 % in all */
		o->zone_points = 100;
		o->zone_sample = 4 * MIB;
		o->qd[1] = 4;
		o->qd[2] = 16;
		o->qd[3] = 32;
		o->nqd = 4;
		o->access_ns = 3000000000ull;
		break;
	default: /* full, burnin */
		o->selftest = true;
		o->scan_stripes = 1;
		o->scan_stripe_bytes = capacity_bytes;
		if (p == QUALIFY_BURNIN) {
			o->selective = true;
			o->butterfly_ns = 60000000000ull;
			o->soak_ns = 600000000000ull;
			o->soak_qd = 32;
		}
		o->zone_points = 200;
		o->zone_sample = 4 * MIB;
		o->qd[1] = 4;
		o->qd[2] = 16;
		o->qd[3] = 32;
		o->nqd = 4;
		o->access_ns = 5000000000ull;
		break;
	}
	if (o->scan_stripe_bytes < MIB)
		o->scan_stripe_bytes = MIB;
	/* a small disk: fewer stripes, or all of it */
	if ((uint64_t)o->scan_stripes * o->scan_stripe_bytes >= capacity_bytes) {
		o->scan_stripes = 1;
		o->scan_stripe_bytes = capacity_bytes;
	}
	o->scan_share_pct = capacity_bytes
				? 100.0 * (double)o->scan_stripes * (double)o->scan_stripe_bytes /
				      (double)capacity_bytes
				: 0;
	if (o->scan_share_pct > 100)
		o->scan_share_pct = 100;
}

/* ---- thresholds ---------------------------------------------------------------------- */

struct thr_key {
	const char *key;
	size_t off;
	bool integer;
	double min, max;
	const char *help;
	unsigned n; /* values: 1, or a list of n increasing ones */
};

/* clang-format off */
#define TK(k, i, lo, hi, h) { #k, offsetof(struct qualify_thresholds, k), i, lo, hi, h, 1 }
#define TKL(k, n, lo, hi, h) { #k, offsetof(struct qualify_thresholds, k), false, lo, hi, h, n }
/* clang-format on */
static const struct thr_key thr_keys[] = {
	TK(max_temperature_c, true, 0, 150, "hottest the drive may report, degrees C"),
	TK(max_reallocated, true, 0, 1e12, "reallocated sectors (SMART 5 / SCSI grown defects)"),
	TK(max_pending, true, 0, 1e12, "sectors pending reallocation (SMART 197)"),
	TK(max_offline_uncorrectable, true, 0, 1e12, "offline uncorrectable sectors (SMART 198)"),
	TK(max_bad_blocks, true, 0, 1e15, "unreadable blocks the surface scan may find"),
	TK(max_slow_500ms, true, 0, 1e15,
	   "scan blocks (128 KiB) read in 500 ms or more (MHDD: none on a healthy drive)"),
	TK(max_slow_150ms_per_gib, false, 0, 1e6,
	   "scan blocks read in 150 ms or more, per GiB scanned"),
	TKL(scan_classes_ms, QUALIFY_CLASS_EDGES, 0.001, 1e6,
	    "the scan's latency classes: 5 increasing edges, ms (MHDD, whdd: 3, 10, 50, 150, "
	    "500; Victoria: 5, 20, 50, 200, 600)"),
	TK(min_seq_read_mbps, false, 0, 1e6,
	   "sequential read in the outer zone, MB/s (10^6 B/s); 0: not checked"),
	TK(min_inner_read_mbps, false, 0, 1e6,
	   "sequential read in the innermost zone, MB/s; 0: not checked"),
	TK(max_access_ms, false, 0, 1e6,
	   "mean random 4 KiB read at queue depth 1, ms; 0: not checked"),
	TK(min_iops_qd32, false, 0, 1e9,
	   "random 4 KiB read IOPS at queue depth 32; 0: not checked"),
	TK(sibling_slowdown_pct, false, 0, 100,
	   "flag a disk slower than the median of its model by more than this %"),
	TK(profile_dip_pct, false, 1, 100,
	   "a zone profile sample this % below the median of its neighbours is a dip"),
	TK(max_profile_dips_pct, false, 0, 100,
	   "dips a zone profile may have, % of its samples (2 are always allowed)"),
};
#define NKEYS (sizeof(thr_keys) / sizeof(thr_keys[0]))

static double *thr_field(struct qualify_thresholds *t, const struct thr_key *k)
{
	return (double *)((char *)t + k->off);
}

void qualify_thresholds_default(struct qualify_thresholds *t)
{
	*t = (struct qualify_thresholds){
		.max_temperature_c = 55,
		.max_reallocated = 0,
		.max_pending = 0,
		.max_offline_uncorrectable = 0,
		.max_bad_blocks = 0,
		.max_slow_500ms = 0,
		.max_slow_150ms_per_gib = 0.01,
		.scan_classes_ms = { 3, 10, 50, 150, 500 },
		.min_seq_read_mbps = 80,
		.min_inner_read_mbps = 0,
		.max_access_ms = 15,
		.min_iops_qd32 = 0,
		.sibling_slowdown_pct = 15,
		.profile_dip_pct = 10,
		.max_profile_dips_pct = 5,
	};
}

const char *qualify_thresholds_key(unsigned i, const struct qualify_thresholds *t, double *value)
{
	if (i >= NKEYS)
		return NULL;
	if (value)
		*value = *thr_field((struct qualify_thresholds *)t, &thr_keys[i]);
	return thr_keys[i].key;
}

unsigned qualify_thresholds_values(unsigned i, const struct qualify_thresholds *t,
				   const double **values)
{
	if (i >= NKEYS)
		return 0;
	*values = thr_field((struct qualify_thresholds *)t, &thr_keys[i]);
	return thr_keys[i].n;
}

static int parse_value(const char *v, bool integer, double *out);

/* A list value: k->n numbers separated by commas and/or blanks, each in
 * range, increasing. */
static int parse_list(const struct thr_key *k, char *val, double *out, const char *name,
		      unsigned line, struct ss_error *err)
{
	unsigned n = 0;
	char *save = NULL;

	for (char *tok = strtok_r(val, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		double d;

		if (n == k->n)
			return ss_error_set(err, -EINVAL, "%s:%u: %s: more than %u values", name,
					    line, k->key, k->n);
		if (parse_value(tok, false, &d))
			return ss_error_set(err, -EINVAL, "%s:%u: %s: '%s' is not a number", name,
					    line, k->key, tok);
		if (d < k->min || d > k->max)
			return ss_error_set(err, -EINVAL,
					    "%s:%u: %s: %s is out of range (%g to %g)", name, line,
					    k->key, tok, k->min, k->max);
		if (n && d <= out[n - 1])
			return ss_error_set(err, -EINVAL,
					    "%s:%u: %s: the values must increase (%s after %g)",
					    name, line, k->key, tok, out[n - 1]);
		out[n++] = d;
	}
	if (n != k->n)
		return ss_error_set(err, -EINVAL, "%s:%u: %s: %u values expected, %u given", name,
				    line, k->key, k->n, n);
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Copy [s, e) trimmed into buf; false when it does not fit. */
static bool trimmed(const char *s, const char *e, char *buf, size_t len)
{
	while (s < e && is_blank(*s))
		s++;
	while (e > s && is_blank(e[-1]))
		e--;
	if ((size_t)(e - s) >= len)
		return false;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return true;
}

static int parse_value(const char *v, bool integer, double *out)
{
	char *end;
	double d;

	if (!*v || isspace((unsigned char)*v))
		return -EINVAL;
	for (const char *p = v; *p; p++)
		if (!strchr("0123456789+-.eE", *p))
			return -EINVAL;
	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(d))
		return -EINVAL;
	if (integer && d != floor(d))
		return -EDOM;
	*out = d;
	return 0;
}

int qualify_thresholds_parse(const char *text, size_t len, const char *name,
			     struct qualify_thresholds *t, struct ss_error *err)
{
	struct qualify_thresholds tmp = *t;
	unsigned seen[NKEYS] = { 0 };
	const char *p = text, *end = text + len;
	unsigned line = 0;

	if (!name)
		name = "thresholds";
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *eq, *hash;
		char key[64], val[64];
		const struct thr_key *k = NULL;
		double d;
		int rc;

		line++;
		if (memchr(p, '\0', (size_t)(le - p)))
			return ss_error_set(err, -EINVAL, "%s:%u: a NUL byte: not a text file",
					    name, line);
		/* a comment runs to the end of the line */
		hash = memchr(p, '#', (size_t)(le - p));
		if (hash)
			le = hash;
		eq = memchr(p, '=', (size_t)(le - p));
		if (!eq) {
			const char *s = p;

			while (s < le && is_blank(*s))
				s++;
			if (s != le)
				return ss_error_set(err, -EINVAL,
						    "%s:%u: expected 'key = value' (such as "
						    "'max_temperature_c = 55')",
						    name, line);
			p = nl ? nl + 1 : end;
			continue;
		}
		if (!trimmed(p, eq, key, sizeof(key)) || !key[0])
			return ss_error_set(err, -EINVAL, "%s:%u: %s before '='", name, line,
					    key[0] ? "a key too long" : "no key");
		for (unsigned i = 0; i < NKEYS; i++)
			if (!strcmp(key, thr_keys[i].key))
				k = &thr_keys[i];
		if (!k) {
			char known[512] = "";

			for (unsigned i = 0; i < NKEYS; i++) {
				size_t l = strlen(known);

				snprintf(known + l, sizeof(known) - l, "%s%s", i ? ", " : "",
					 thr_keys[i].key);
			}
			return ss_error_set(err, -EINVAL, "%s:%u: unknown key '%.63s' (known: %s)",
					    name, line, key, known);
		}
		if (seen[k - thr_keys])
			return ss_error_set(err, -EINVAL,
					    "%s:%u: %s given twice (first on line %u)", name, line,
					    k->key, seen[k - thr_keys]);
		seen[k - thr_keys] = line;
		if (!trimmed(eq + 1, le, val, sizeof(val)))
			return ss_error_set(err, -EINVAL, "%s:%u: %s: the value is too long", name,
					    line, k->key);
		if (k->n > 1) {
			double v[QUALIFY_CLASS_EDGES];

			rc = parse_list(k, val, v, name, line, err);
			if (rc)
				return rc;
			memcpy(thr_field(&tmp, k), v, k->n * sizeof(v[0]));
			p = nl ? nl + 1 : end;
			continue;
		}
		rc = parse_value(val, k->integer, &d);
		if (rc == -EDOM)
			return ss_error_set(err, -EINVAL, "%s:%u: %s: '%s' is not a whole number",
					    name, line, k->key, val);
		if (rc)
			return ss_error_set(err, -EINVAL, "%s:%u: %s: '%s' is not a number%s", name,
					    line, k->key, val,
					    val[0] ? "" : " (the value is missing)");
		if (d < k->min || d > k->max)
			return ss_error_set(err, -EINVAL,
					    "%s:%u: %s: %s is out of range (%g to %g)", name, line,
					    k->key, val, k->min, k->max);
		*thr_field(&tmp, k) = d;
		p = nl ? nl + 1 : end;
	}
	*t = tmp;
	return 0;
}

int qualify_thresholds_load(const char *path, struct qualify_thresholds *t, struct ss_error *err)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd = file_open_input(path, "the thresholds file", err), rc;

	if (fd == -ENOENT || fd == -EACCES) /* "FILE: why", as a missing file is said */
		return ss_error_set(err, fd, "%s: %s", path, strerror(-fd));
	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap >= (1u << 20)) {
				close(fd);
				free(buf);
				return ss_error_set(
				    err, -EFBIG, "%s: too large for a thresholds file (over 1 MiB)",
				    path);
			}
			cap = cap ? cap * 2 : 4096;
			nb = realloc(buf, cap);
			if (!nb) {
				close(fd);
				free(buf);
				return ss_error_nomem(err);
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			close(fd);
			free(buf);
			return ss_error_set(err, rc, "%s: %s", path, strerror(-rc));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	rc = qualify_thresholds_parse(buf ? buf : "", len, path, t, err);
	free(buf);
	return rc;
}

int qualify_thresholds_format(const struct qualify_thresholds *t, char **out, struct ss_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return ss_error_nomem(err);
	fprintf(f, "# shortstroke qualify thresholds: 'key = value', '#' starts a comment.\n"
		   "# Copy this file, edit it, and pass it with --thresholds FILE.\n");
	for (unsigned i = 0; i < NKEYS; i++) {
		const double *vals = thr_field((struct qualify_thresholds *)t, &thr_keys[i]);
		double v = vals[0];

		fprintf(f, "\n# %s\n", thr_keys[i].help);
		if (thr_keys[i].n > 1) {
			fprintf(f, "%s =", thr_keys[i].key);
			for (unsigned j = 0; j < thr_keys[i].n; j++)
				fprintf(f, "%s %.17g", j ? "," : "", vals[j]);
			fputc('\n', f);
		} else if (thr_keys[i].integer)
			fprintf(f, "%s = %.0f\n", thr_keys[i].key, v);
		else
			fprintf(f, "%s = %.17g\n", thr_keys[i].key, v);
	}
	if (fclose(f)) {
		free(buf);
		return ss_error_nomem(err);
	}
	*out = buf;
	return 0;
}

/* ---- results --------------------------------------------------------------------------- */

void qualify_result_init(struct qualify_result *r, const char *device,
			 const struct drive_info *info, enum qualify_profile p)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->device, sizeof(r->device), "%s", device ? device : "");
	if (info)
		r->info = *info;
	r->profile = p;
	io_hist_init(&r->hist);
	for (unsigned i = 0; i < QC_COUNT; i++)
		snprintf(r->check[i].detail, sizeof(r->check[i].detail), "not run");
}

void qualify_result_fini(struct qualify_result *r)
{
	if (!r)
		return;
	free(r->bad);
	r->bad = NULL;
	r->nbad = 0;
	free(r->remap);
	r->remap = NULL;
	r->nremap = 0;
	zprofile_free(r->zp);
	r->zp = NULL;
}

void qualify_result_add_bad(struct qualify_result *r, uint64_t lba, uint64_t blocks)
{
	unsigned i;

	if (!blocks)
		return;
	/* the first range that ends at or after lba */
	for (i = 0; i < r->nbad && r->bad[i].lba + r->bad[i].blocks < lba; i++)
		;
	if (i < r->nbad && r->bad[i].lba <= lba + blocks) {
		/* overlaps or touches: grow it, then swallow followers */
		uint64_t lo = r->bad[i].lba < lba ? r->bad[i].lba : lba;
		uint64_t hi = r->bad[i].lba + r->bad[i].blocks;

		if (lba + blocks > hi)
			hi = lba + blocks;
		while (i + 1 < r->nbad && r->bad[i + 1].lba <= hi) {
			uint64_t e = r->bad[i + 1].lba + r->bad[i + 1].blocks;

			if (e > hi)
				hi = e;
			memmove(&r->bad[i + 1], &r->bad[i + 2],
				(r->nbad - i - 2) * sizeof(r->bad[0]));
			r->nbad--;
		}
		r->bad[i].lba = lo;
		r->bad[i].blocks = hi - lo;
	} else {
		struct qualify_bad_range *nb;

		if (r->nbad >= QUALIFY_BAD_RANGES_MAX) {
			r->bad_truncated = true;
			return;
		}
		nb = realloc(r->bad, (r->nbad + 1) * sizeof(*nb));
		if (!nb) {
			r->bad_truncated = true;
			return;
		}
		r->bad = nb;
		memmove(&r->bad[i + 1], &r->bad[i], (r->nbad - i) * sizeof(*nb));
		r->bad[i].lba = lba;
		r->bad[i].blocks = blocks;
		r->nbad++;
	}
	r->bad_blocks = 0;
	for (unsigned k = 0; k < r->nbad; k++)
		r->bad_blocks += r->bad[k].blocks;
}

static void qualify_set_check(struct qualify_result *r, enum qualify_check c, enum qualify_status s,
			      const char *fmt, ...)
{
	va_list ap;

	r->check[c].status = s;
	va_start(ap, fmt);
	vsnprintf(r->check[c].detail, sizeof(r->check[c].detail), fmt, ap);
	va_end(ap);
}

/* Append "; text" to a detail line (or set it when it is empty). */
void qualify_add_detail(char *buf, size_t len, const char *fmt, ...)
{
	size_t l = strlen(buf);
	va_list ap;

	if (l && l + 2 < len) {
		memcpy(buf + l, "; ", 3);
		l += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + l, len - l, fmt, ap);
	va_end(ap);
}

bool qualify_result_verdict(struct qualify_result *r)
{
	bool pass = !r->vanished;

	for (unsigned i = 0; i < QC_COUNT; i++)
		if (r->check[i].status == QUALIFY_FAIL)
			pass = false;
	r->pass = pass;
	return pass;
}

/* ---- running: progress over the phases ------------------------------------------------- */

void qualify_report(struct qrun *q, double f, const char *text)
{
	double done = q->before[q->phase] + f * q->weight[q->phase];

	progress_report(q->o->progress, q->total > 0 ? done / q->total : 0, text, -1);
}

void qualify_sub_report(void *arg, double f, const char *phase, double eta)
{
	struct qrun *q = arg;
	char text[96];

	(void)eta;
	if (q->phase == PH_SCAN) {
		double per = 1.0 / q->plan.scan_stripes;

		f = q->stripe * per + f * per;
		snprintf(text, sizeof(text), "surface scan %.0f%%", f * 100);
	} else if (q->phase == PH_SELFTEST) {
		snprintf(text, sizeof(text), "short self-test %.0f%%", f * 100);
	} else if (q->phase == PH_ZONES) {
		snprintf(text, sizeof(text), "zone profile %.0f%%", f * 100);
	} else {
		if (q->phase == PH_ACCESS && q->plan.nqd)
			f = (q->cur + f) / q->plan.nqd;
		snprintf(text, sizeof(text), "%s", q->text[0] ? q->text : phase ? phase : "");
	}
	qualify_report(q, f, text);
}

bool qualify_sub_cancelled(void *arg)
{
	struct qrun *q = arg;

	return progress_cancelled(q->o->progress);
}

/* ---- the checks ------------------------------------------------------------------------ */

static void check_identity(struct qrun *q)
{
	struct qualify_result *r = q->r;
	const struct drive_info *i = &r->info;
	char cap[32], nat[32];

	if (!i->model[0] || !i->capacity_blocks) {
		qualify_set_check(r, QC_IDENTITY, QUALIFY_FAIL,
				  "the drive did not identify itself");
		return;
	}
	qualify_set_check(r, QC_IDENTITY, i->serial[0] ? QUALIFY_PASS : QUALIFY_FAIL,
			  "%s%s%s, serial %s, firmware %s, %s, %s%s",
			  i->vendor[0] && !i->ata ? i->vendor : "",
			  i->vendor[0] && !i->ata ? " " : "", i->model,
			  i->serial[0] ? i->serial : "none", i->firmware[0] ? i->firmware : "?",
			  size_human(i->capacity_blocks * i->logical_block, cap, sizeof(cap)),
			  i->ata		? "ATA"
			  : i->tran == TRAN_SAS ? "SAS"
						: drive_tran_name(i->tran),
			  i->serial[0] ? "" : " (no serial number)");
	if (i->native_blocks > i->capacity_blocks)
		qualify_add_detail(
		    r->check[QC_IDENTITY].detail, sizeof(r->check[QC_IDENTITY].detail),
		    "capacity limited (native %s): only the accessible part is qualified",
		    size_human(i->native_blocks * i->logical_block, nat, sizeof(nat)));
}

static void num_check(struct qualify_result *r, const struct smart_num *v, double max,
		      const char *what, bool *fail)
{
	char *d = r->check[QC_SMART].detail;
	size_t len = sizeof(r->check[QC_SMART].detail);

	if (!v->known)
		return;
	if ((double)v->value > max) {
		*fail = true;
		qualify_add_detail(d, len, "%s %" PRId64 " (at most %.0f)", what, v->value, max);
	}
}

/* A check whose command the drive refused (-EOPNOTSUPP): SKIP only when the
 * drive does not claim the feature; one that claims it and cannot do it
 * fails the check, with the reason. */
static void set_refused(struct qualify_result *r, enum qualify_check c, bool claimed,
			const char *claim, const struct ss_error *err)
{
	const char *m = err && err->msg[0] ? err->msg : "refused by the drive";

	if (claimed)
		qualify_set_check(r, c, QUALIFY_FAIL,
				  "the drive reports %s but could not do it: %s", claim, m);
	else
		qualify_set_check(r, c, QUALIFY_SKIP, "%s", m);
}

/* Does the drive claim self-tests? ATA: SMART and IDENTIFY word 84 bit 1;
 * SCSI: the Informational Exceptions page (SMART) it answered. */
static bool claims_selftest(struct drive *d, const struct drive_info *i)
{
	const struct ata_identify *id = drive_ata_identify(d);

	if (i->ata)
		return i->smart_supported && id && id->smart_selftest;
	return i->smart_supported;
}

/* What a SCSI drive's log pages say beside the verdict. */
static void scsi_health(const struct smart_report *rep, struct qualify_scsi_health *h)
{
	const struct smart_scsi_pages *p = &rep->scsi;
	const enum smart_page_state st[3] = { p->read_st, p->write_st, p->verify_st };
	const struct log_errors *e[3] = { &p->read_err, &p->write_err, &p->verify_err };

	memset(h, 0, sizeof(*h));
	h->read = true;
	for (unsigned i = 0; i < 3; i++) {
		if (st[i] != SMART_PAGE_OK)
			continue;
		h->has_counters[i] = true;
		h->corrected[i] = e[i]->has[LOG_ERR_TOTAL_CORRECTED]
				      ? e[i]->count[LOG_ERR_TOTAL_CORRECTED]
				      : 0;
		h->uncorrected[i] = e[i]->has[LOG_ERR_UNCORRECTED]
					? e[i]->count[LOG_ERR_UNCORRECTED]
					: 0;
	}
	if (p->non_medium_st == SMART_PAGE_OK && p->non_medium.has_count) {
		h->non_medium.known = true;
		h->non_medium.value = (int64_t)p->non_medium.count;
	}
	if (p->start_stop_st == SMART_PAGE_OK && p->start_stop.has_cycles) {
		h->start_stop_cycles.known = true;
		h->start_stop_cycles.value = p->start_stop.cycles;
	}
	if (p->bg_scan_st == SMART_PAGE_OK && p->bg_scan.has_status) {
		h->bg_scan = true;
		h->bg_scans = p->bg_scan.scans_performed;
		h->bg_medium_errors = p->bg_scan.total;
	}
}

/*
 * The drive's storage elements (GET PHYSICAL ELEMENT STATUS, read-only):
 * one at or beyond the manufacturer's limit fails the SMART check (a head
 * the drive itself gives up on; depop can retire it), one near it
 * (ELEM_HEALTH_NEAR) is named; a weak head shows here as the drive rates
 * it, beside what the zone profile's shape says.
 */
static void elements_check(struct qualify_result *r, struct drive *d, bool *fail)
{
	char *det = r->check[QC_SMART].detail;
	size_t len = sizeof(r->check[QC_SMART].detail);

	if (depop_read(d, &r->info, &r->elements, NULL) || !r->elements.supported)
		return;
	for (size_t k = 0; k < r->elements.n; k++) {
		const struct elem_desc *e = &r->elements.e[k];
		enum elem_health_class hc = elem_health_class(e->health);

		if (!elem_health_in_service(e->health) || !elem_health_near_limit(e->health))
			continue;
		if (hc == ELEM_AT_LIMIT || hc == ELEM_OVER_LIMIT) {
			if (!*fail)
				det[0] = '\0';
			*fail = true;
		}
		qualify_add_detail(
		    det, len,
		    "storage element %u %s (health %u): 'shortstroke depop --element "
		    "%u' retires it",
		    e->id, hc == ELEM_OK ? "near its limit" : elem_health_name(e->health),
		    e->health, e->id);
	}
}

static int check_smart(struct qrun *q, struct drive *d, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	const struct qualify_thresholds *t = q->thr;
	struct smart_report rep;
	char *det = r->check[QC_SMART].detail;
	size_t len = sizeof(r->check[QC_SMART].detail);
	bool fail = false;
	int rc;

	memset(&rep, 0, sizeof(rep));
	qualify_report(q, 0, "SMART");
	rc = smart_read(d, &r->info, &rep, err);
	if (rc == -ENODEV)
		return rc;
	if (rc == -EOPNOTSUPP) {
		set_refused(r, QC_SMART, r->info.smart_supported, "SMART", err);
		smart_report_fini(&rep);
		return 0;
	}
	if (rc) {
		qualify_set_check(r, QC_SMART, QUALIFY_FAIL, "could not read SMART: %s",
				  err ? err->msg : "error");
		smart_report_fini(&rep);
		return 0;
	}
	r->smart_read = true;
	r->smart_verdict = rep.verdict;
	r->temperature_c = rep.temperature_c;
	r->reallocated = rep.reallocated;
	r->pending = rep.pending;
	r->offline_uncorrectable = rep.offline_uncorrectable;
	r->power_on_hours = rep.power_on_hours;
	if (rep.nvme) {
		r->nvme_read = true;
		r->nvme = rep.nv;
	} else if (!rep.ata) {
		scsi_health(&rep, &r->scsi);
	}
	det[0] = '\0';
	/* a WARNING that only counts sectors or defects is judged by the
	 * thresholds of those counts below */
	if (rep.verdict == SMART_FAILED || (rep.verdict == SMART_WARNING && rep.warn_other)) {
		fail = true;
		qualify_add_detail(det, len, "%s: %s", smart_verdict_name(rep.verdict), rep.reason);
	}
	num_check(r, &rep.temperature_c, t->max_temperature_c, "temperature", &fail);
	num_check(r, &rep.reallocated, t->max_reallocated,
		  rep.ata ? "reallocated" : "grown defects", &fail);
	num_check(r, &rep.pending, t->max_pending, "pending", &fail);
	num_check(r, &rep.offline_uncorrectable, t->max_offline_uncorrectable,
		  "offline uncorrectable", &fail);
	if (!fail) {
		size_t l;

		if (rep.verdict == SMART_WARNING)
			snprintf(det, len, "WARNING (%s: within the thresholds)", rep.reason);
		else
			snprintf(det, len, "%s", smart_verdict_name(rep.verdict));
		l = strlen(det);
		if (rep.temperature_c.known)
			l += (size_t)snprintf(det + l, len - l, ", %" PRId64 " C",
					      rep.temperature_c.value);
		if (rep.reallocated.known && l < len)
			l += (size_t)snprintf(det + l, len - l, ", %" PRId64 " %s",
					      rep.reallocated.value,
					      rep.ata ? "reallocated" : "grown defects");
		if (rep.pending.known && l < len)
			l += (size_t)snprintf(det + l, len - l, ", %" PRId64 " pending",
					      rep.pending.value);
		if (r->nvme_read && l < len)
			snprintf(det + l, len - l,
				 ", spare %u%% (threshold %u%%), %u%% used, %" PRIu64
				 " media errors",
				 r->nvme.available_spare, r->nvme.available_spare_threshold,
				 r->nvme.percentage_used, r->nvme.media_errors);
		if (r->scsi.read && l < len)
			snprintf(det + l, len - l,
				 ", errors corrected %" PRIu64 ", uncorrected %" PRIu64,
				 r->scsi.corrected[0] + r->scsi.corrected[1] + r->scsi.corrected[2],
				 r->scsi.uncorrected[0] + r->scsi.uncorrected[1] +
				     r->scsi.uncorrected[2]);
	}
	elements_check(r, d, &fail);
	r->check[QC_SMART].status = fail ? QUALIFY_FAIL : QUALIFY_PASS;
	smart_report_fini(&rep);
	return 0;
}

/* Start the profile's self-test: short, or (burnin) the accessible span's
 * selective self-test (after a limit, the kept region; SCSI: the extended
 * one over the whole disk). Says in r->selftest_scope what it covers. */
static int selftest_begin(struct qrun *q, struct drive *d, enum selftest_kind *kind,
			  struct ss_error *err)
{
	struct qualify_result *r = q->r;
	uint64_t last = r->info.capacity_blocks ? r->info.capacity_blocks - 1 : 0;
	int rc;

	if (!q->plan.selective) {
		*kind = SELFTEST_SHORT;
		qualify_report(q, 0, "short self-test");
		snprintf(r->selftest_scope, sizeof(r->selftest_scope), "short self-test");
		return selftest_start(d, &r->info, SELFTEST_SHORT, err);
	}
	qualify_report(q, 0, "self-test");
	rc = selftest_start_span(d, &r->info, 0, last, kind, err);
	if (*kind == SELFTEST_SELECTIVE)
		snprintf(r->selftest_scope, sizeof(r->selftest_scope),
			 "selective self-test of LBA 0-%" PRIu64 ", the accessible span%s", last,
			 r->info.native_blocks > r->info.capacity_blocks ? " (the kept region)"
									 : "");
	else
		snprintf(r->selftest_scope, sizeof(r->selftest_scope),
			 "extended self-test: it covered the whole disk (SCSI has no selective "
			 "self-test)");
	return rc;
}

static int check_selftest(struct qrun *q, struct drive *d, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	struct progress_sink sub = { qualify_sub_report, qualify_sub_cancelled, q };
	enum selftest_kind kind = SELFTEST_SHORT;
	int rc;

	if (!q->plan.selftest) {
		qualify_set_check(r, QC_SELFTEST, QUALIFY_SKIP, "not in the %s profile",
				  qualify_profile_name(q->o->profile));
		return 0;
	}
	rc = selftest_begin(q, d, &kind, err);
	if (rc == -ENODEV)
		return rc;
	if (rc == -EOPNOTSUPP) {
		set_refused(r, QC_SELFTEST, claims_selftest(d, &r->info), "self-tests", err);
		return 0;
	}
	if (rc) {
		qualify_set_check(r, QC_SELFTEST, QUALIFY_FAIL, "could not start: %s", err->msg);
		return 0;
	}
	rc = selftest_wait(d, &r->info, kind, &sub, err);
	if (rc == -ENODEV)
		return rc;
	if (rc == -ECANCELED && progress_cancelled(q->o->progress)) {
		selftest_abort(d, &r->info, NULL);
		return rc;
	}
	if (rc) {
		const char *m = err->msg, *dev = drive_name(d);
		size_t l = dev ? strlen(dev) : 0;

		if (l && !strncmp(m, dev, l) && !strncmp(m + l, ": ", 2))
			m += l + 2; /* the table says which disk */
		if (q->plan.selective)
			qualify_set_check(r, QC_SELFTEST, QUALIFY_FAIL, "%s: %s", r->selftest_scope,
					  m);
		else
			qualify_set_check(r, QC_SELFTEST, QUALIFY_FAIL, "%s", m);
		return 0;
	}
	qualify_set_check(r, QC_SELFTEST, QUALIFY_PASS, "%s%s completed without error",
			  r->selftest_scope, q->plan.selective ? ":" : "");
	return 0;
}

static double dips_allowed(const struct qualify_thresholds *t, unsigned npoints)
{
	double n = floor(t->max_profile_dips_pct / 100 * npoints);

	return n < 2 ? 2 : n;
}

/* The profile's shape: a healthy disk's rate falls smoothly from the outer
 * edge in; a sample far below the median of its neighbours (3 on each side)
 * is a dip. Many dips: one surface reads slower in every band it serves.
 * On a disk of several actuators the rate falls from the outer edge in
 * each actuator's range again: neighbours are those of the same range.
 * Returns true when there are more than the thresholds allow. */
static bool profile_shape(struct qualify_result *r, const struct qualify_thresholds *t)
{
	const struct zprofile *z = r->zp;
	double near[6];

	r->profile_dips = 0;
	r->profile_dip_worst_pct = 0;
	for (unsigned i = 0; i < z->npoints; i++) {
		unsigned n = 0;
		double med, drop;

		if (z->points[i].error)
			continue;
		for (unsigned j = i >= 3 ? i - 3 : 0; j <= i + 3 && j < z->npoints; j++)
			if (j != i && !z->points[j].error &&
			    cpr_range_of(&r->info.ranges, z->points[j].lba) ==
				cpr_range_of(&r->info.ranges, z->points[i].lba))
				near[n++] = z->points[j].mbps;
		if (n < 2)
			continue;
		med = qualify_median(near, n);
		drop = med > 0 ? 100.0 * (med - z->points[i].mbps) / med : 0;
		if (drop <= t->profile_dip_pct)
			continue;
		r->profile_dips++;
		if (drop > r->profile_dip_worst_pct)
			r->profile_dip_worst_pct = drop;
	}
	return r->profile_dips > dips_allowed(t, z->npoints);
}

static int check_zones(struct qrun *q, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	const struct qualify_thresholds *t = q->thr;
	struct progress_sink sub = { qualify_sub_report, qualify_sub_cancelled, q };
	struct zprofile_opts zo = { .points = q->plan.zone_points,
				    .sample_bytes = q->plan.zone_sample,
				    .progress = &sub };
	const struct io_geom *g = io_dev_geom(q->io);
	char *d = r->check[QC_ZONES].detail;
	size_t len = sizeof(r->check[QC_ZONES].detail);
	double sum = 0, w = 0;
	bool fail = false;
	int rc;

	if ((uint64_t)zo.points * (zo.sample_bytes + MIB) > g->blocks * g->lblock)
		zo.points = ZPROFILE_POINTS_MIN;
	rc = zprofile_measure(q->io, &zo, &r->zp, err);
	if (rc == -ENODEV) {
		ss_error_set(err, rc,
			     "the disk stopped answering during the zone profile: it "
			     "vanished or its link went down");
		return rc;
	}
	if (rc == -ECANCELED)
		return rc;
	if (rc) {
		qualify_set_check(r, QC_ZONES, QUALIFY_FAIL, "%s", err->msg);
		return 0;
	}
	if (r->zp->virtual_time)
		r->virtual_time = true;
	for (unsigned k = 0; k < r->zp->nzones; k++) {
		double b = (double)(r->zp->zones[k].end_lba - r->zp->zones[k].first_lba);

		sum += r->zp->zones[k].avg_mbps * b;
		w += b;
	}
	r->mean_mbps = w > 0 ? sum / w : 0;
	snprintf(d, len, "outer %.1f MB/s, inner %.1f MB/s, mean %.1f MB/s, %u zones",
		 r->zp->outer_mbps, r->zp->inner_mbps, r->mean_mbps, r->zp->nzones);
	if (t->min_seq_read_mbps > 0 && r->zp->outer_mbps < t->min_seq_read_mbps) {
		fail = true;
		qualify_add_detail(d, len, "outer rate below %.1f MB/s", t->min_seq_read_mbps);
	}
	if (t->min_inner_read_mbps > 0 && r->zp->inner_mbps < t->min_inner_read_mbps) {
		fail = true;
		qualify_add_detail(d, len, "inner rate below %.1f MB/s", t->min_inner_read_mbps);
	}
	if (r->zp->errors)
		qualify_add_detail(d, len, "%u sample%s failed to read", r->zp->errors,
				   r->zp->errors == 1 ? "" : "s");
	if (profile_shape(r, t)) {
		fail = true;
		qualify_add_detail(d, len,
				   "%u of %u samples read up to %.0f%% slower than their "
				   "neighbours (at most %.0f allowed): one surface slower in every "
				   "band it serves (a weak head?)",
				   r->profile_dips, r->zp->npoints, r->profile_dip_worst_pct,
				   dips_allowed(t, r->zp->npoints));
	}
	r->check[QC_ZONES].status = fail ? QUALIFY_FAIL : QUALIFY_PASS;
	return 0;
}

static int access_error(void *arg, uint64_t first, uint32_t blocks, bool write, int error)
{
	(void)arg;
	(void)first;
	(void)blocks;
	(void)write;
	(void)error;
	return 0;
}

static int check_access(struct qrun *q, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	const struct qualify_thresholds *t = q->thr;
	struct progress_sink sub = { qualify_sub_report, qualify_sub_cancelled, q };
	char *d = r->check[QC_ACCESS].detail;
	size_t len = sizeof(r->check[QC_ACCESS].detail);
	double iops32 = -1;
	bool fail = false;
	int rc;

	for (unsigned k = 0; k < q->plan.nqd; k++) {
		struct io_result res;
		struct io_job job;

		io_job_init(&job);
		io_job_set_workload(&job, IO_WL_RANDOM_ACCESS);
		job.qd = q->plan.qd[k];
		job.time_ns = q->plan.access_ns;
		job.seed = q->o->seed ? q->o->seed : 1;
		job.continue_on_error = true;
		job.on_error = access_error;
		job.progress = &sub;
		snprintf(q->text, sizeof(q->text), "random reads QD %u", job.qd);
		memset(&res, 0, sizeof(res));
		q->cur = k;
		rc = io_dev_run(q->io, &job, &res, err);
		if (rc == -ENODEV) {
			ss_error_set(err, rc,
				     "the disk stopped answering during the access-time "
				     "test: it vanished or its link went down");
			return rc;
		}
		if (rc == -ECANCELED)
			return rc;
		if (rc) {
			qualify_set_check(r, QC_ACCESS, QUALIFY_FAIL, "%s", err->msg);
			return 0;
		}
		if (res.virtual_time)
			r->virtual_time = true;
		r->qd[r->nqd] = job.qd;
		r->iops[r->nqd] = res.iops;
		r->lat_avg_ms[r->nqd] = res.lat_avg_ns / 1e6;
		r->lat_p99_ms[r->nqd] = (double)res.lat_p99_ns / 1e6;
		r->nqd++;
		r->access_errors += res.errors;
		if (job.qd == 1) {
			r->access_ms = res.lat_avg_ns / 1e6;
			r->hist = res.hist;
		}
		if (job.qd == 32)
			iops32 = res.iops;
		qualify_report(q, (double)(k + 1) / q->plan.nqd, q->text);
	}
	q->text[0] = '\0';
	snprintf(d, len, "access %.2f ms (QD 1, %.0f IOPS)", r->access_ms,
		 r->nqd ? r->iops[0] : 0.0);
	if (iops32 >= 0)
		qualify_add_detail(d, len, "%.0f IOPS at QD 32", iops32);
	if (t->max_access_ms > 0 && r->access_ms > t->max_access_ms) {
		fail = true;
		qualify_add_detail(d, len, "access time above %.2f ms", t->max_access_ms);
	}
	if (t->min_iops_qd32 > 0 && iops32 >= 0 && iops32 < t->min_iops_qd32) {
		fail = true;
		qualify_add_detail(d, len, "below %.0f IOPS at QD 32", t->min_iops_qd32);
	}
	if (r->access_errors)
		qualify_add_detail(d, len, "%" PRIu64 " read%s failed", r->access_errors,
				   r->access_errors == 1 ? "" : "s");
	r->check[QC_ACCESS].status = fail ? QUALIFY_FAIL : QUALIFY_PASS;
	return 0;
}

/* One burnin stress run: a butterfly at QD 1 or random reads at qd, for
 * ns; its figures and histogram into st. */
static int stress(struct qrun *q, bool butterfly, unsigned qd, uint64_t ns,
		  struct qualify_stress *st, struct ss_error *err)
{
	struct progress_sink sub = { qualify_sub_report, qualify_sub_cancelled, q };
	struct io_result res;
	struct io_job job;
	int rc;

	io_job_init(&job);
	io_job_set_workload(&job, IO_WL_RANDOM_ACCESS);
	job.butterfly = butterfly;
	job.qd = qd;
	job.time_ns = ns;
	job.seed = q->o->seed ? q->o->seed : 1;
	job.continue_on_error = true;
	job.on_error = access_error;
	job.progress = &sub;
	snprintf(q->text, sizeof(q->text), "%s",
		 butterfly ? "butterfly seek test" : "random-read soak");
	memset(&res, 0, sizeof(res));
	rc = io_dev_run(q->io, &job, &res, err);
	if (rc)
		return rc;
	if (res.virtual_time)
		q->r->virtual_time = true;
	st->ran = true;
	st->qd = qd;
	st->time_ns = res.elapsed_ns;
	st->ios = res.ios;
	st->errors = res.errors;
	st->iops = res.iops;
	st->avg_ms = res.lat_avg_ns / 1e6;
	st->p99_ms = (double)res.lat_p99_ns / 1e6;
	st->max_ms = (double)res.lat_max_ns / 1e6;
	st->hist = res.hist;
	return 0;
}

/* burnin: the butterfly seek test and the soak, judged with the access
 * check: a read that fails in either fails it. */
static int check_burnin(struct qrun *q, struct ss_error *err)
{
	struct qualify_result *r = q->r;
	uint64_t bf = q->o->butterfly_ns ? q->o->butterfly_ns : q->plan.butterfly_ns;
	uint64_t soak = q->o->soak_ns ? q->o->soak_ns : q->plan.soak_ns;
	char *d = r->check[QC_ACCESS].detail, t[32];
	size_t len = sizeof(r->check[QC_ACCESS].detail);
	int rc;

	q->cur = 0;
	rc = bf ? stress(q, true, 1, bf, &r->butterfly, err) : 0;
	q->cur = 1;
	if (!rc && soak)
		rc = stress(q, false, q->plan.soak_qd, soak, &r->soak, err);
	q->text[0] = '\0';
	if (rc == -ENODEV)
		ss_error_set(err, rc,
			     "the disk stopped answering during the burn-in stress: it vanished or "
			     "its link went down");
	if (rc)
		return rc;
	if (r->butterfly.ran)
		qualify_add_detail(d, len,
				   "butterfly seek test %s: %" PRIu64 " reads, mean %.1f ms, max "
				   "%.1f ms",
				   duration_human((double)r->butterfly.time_ns / 1e9, t, sizeof(t)),
				   r->butterfly.ios, r->butterfly.avg_ms, r->butterfly.max_ms);
	if (r->soak.ran)
		qualify_add_detail(d, len,
				   "soak %s at QD %u: %" PRIu64 " reads, %.0f IOPS, p99 %.1f ms",
				   duration_human((double)r->soak.time_ns / 1e9, t, sizeof(t)),
				   r->soak.qd, r->soak.ios, r->soak.iops, r->soak.p99_ms);
	if (r->butterfly.errors + r->soak.errors) {
		qualify_add_detail(d, len, "%" PRIu64 " stress reads failed",
				   r->butterfly.errors + r->soak.errors);
		r->check[QC_ACCESS].status = QUALIFY_FAIL;
	}
	return 0;
}

int qualify_disk(struct drive *d, struct io_dev *io, const struct qualify_opts *o,
		 struct qualify_result *r, struct ss_error *err)
{
	struct qualify_thresholds defaults;
	struct qrun q;
	const struct io_geom *g = io_dev_geom(io);
	uint64_t cap = g->blocks * g->lblock;
	int rc = 0;

	memset(&q, 0, sizeof(q));
	q.o = o;
	q.r = r;
	q.io = io;
	q.d = d;
	if (o->thr) {
		q.thr = o->thr;
	} else {
		qualify_thresholds_default(&defaults);
		q.thr = &defaults;
	}
	qualify_plan_for(o->profile, cap, &q.plan);
	/* progress weights: rough seconds each phase takes */
	q.weight[PH_SMART] = 1;
	q.weight[PH_SELFTEST] = q.plan.selftest ? 120 : 0;
	q.weight[PH_SCAN] = (double)q.plan.scan_stripes * (double)q.plan.scan_stripe_bytes / 100e6 +
			    q.plan.scan_stripes * 0.01;
	q.weight[PH_REMAP] = o->remap && d ? 1 : 0;
	q.weight[PH_ZONES] = q.plan.zone_points * ((double)q.plan.zone_sample / 100e6 + 0.03);
	q.weight[PH_ACCESS] = q.plan.nqd * (double)q.plan.access_ns / 1e9;
	q.weight[PH_BURNIN] = (double)((o->butterfly_ns ? o->butterfly_ns : q.plan.butterfly_ns) +
				       (o->soak_ns ? o->soak_ns : q.plan.soak_ns)) /
			      1e9;
	for (int i = 0; i < PH_COUNT; i++) {
		q.before[i] = q.total;
		q.total += q.weight[i];
	}
	r->profile = o->profile;
	for (unsigned i = 0; i < QC_COUNT; i++)
		qualify_set_check(r, (enum qualify_check)i, QUALIFY_SKIP, "not run");
	qualify_set_check(r, QC_SIBLINGS, QUALIFY_SKIP, "not compared");

	q.phase = PH_SMART;
	if (d)
		check_identity(&q);
	else
		qualify_set_check(r, QC_IDENTITY, QUALIFY_SKIP,
				  "not a SCSI/ATA disk: read as it is");
	rc = d ? check_smart(&q, d, err) : 0;
	if (!d)
		qualify_set_check(r, QC_SMART, QUALIFY_SKIP, "not a SCSI/ATA disk");
	if (!rc && !progress_cancelled(o->progress)) {
		q.phase = PH_SELFTEST;
		if (d)
			rc = check_selftest(&q, d, err);
		else
			qualify_set_check(r, QC_SELFTEST, QUALIFY_SKIP, "not a SCSI/ATA disk");
	}
	if (!rc && !progress_cancelled(o->progress)) {
		q.phase = PH_SCAN;
		rc = qualify_check_scan(&q, err);
	}
	if (!rc && o->remap && d && !progress_cancelled(o->progress)) {
		q.phase = PH_REMAP;
		rc = qualify_remap_blocks(&q, err);
	}
	if (!rc && !progress_cancelled(o->progress)) {
		q.phase = PH_ZONES;
		rc = check_zones(&q, err);
	}
	if (!rc && !progress_cancelled(o->progress)) {
		q.phase = PH_ACCESS;
		rc = check_access(&q, err);
	}
	if (!rc && q.weight[PH_BURNIN] > 0 && !progress_cancelled(o->progress)) {
		q.phase = PH_BURNIN;
		rc = check_burnin(&q, err);
	}
	if (!rc && progress_cancelled(o->progress))
		rc = ss_error_set(err, -ECANCELED, "%s: qualification cancelled", r->device);
	if (rc == -ENODEV) {
		static const enum qualify_check at[PH_COUNT] = {
			[PH_SMART] = QC_SMART,	 [PH_SELFTEST] = QC_SELFTEST,
			[PH_SCAN] = QC_SCAN,	 [PH_REMAP] = QC_SCAN,
			[PH_ZONES] = QC_ZONES,	 [PH_ACCESS] = QC_ACCESS,
			[PH_BURNIN] = QC_ACCESS,
		};
		enum qualify_check c = at[q.phase];

		r->vanished = true;
		if (err && !strstr(err->msg, "stopped answering"))
			ss_error_set(err, rc,
				     "the disk stopped answering during the %s check: it "
				     "vanished or its link went down",
				     qualify_check_name(c));
		qualify_set_check(r, c, QUALIFY_FAIL, "%s", err ? err->msg : "the disk vanished");
		for (unsigned i = c + 1; i < QC_COUNT; i++)
			qualify_set_check(r, (enum qualify_check)i, QUALIFY_SKIP,
					  "not run: the disk vanished");
		ss_error_subject(err, r->device);
	} else if (rc) {
		ss_error_subject(err, r->device);
	} else {
		qualify_report(&q, 1.0, "done");
	}
	qualify_result_verdict(r);
	return rc;
}

/* ---- siblings --------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double qualify_median(double *v, unsigned n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { M_SEQ, M_IOPS1, M_IOPSDEEP, M_COUNT };

/* A metric of a disk (higher is better); false when not measured. */
static bool metric(const struct qualify_result *r, int m, double *out, unsigned *qd)
{
	if (r->vanished)
		return false;
	switch (m) {
	case M_SEQ:
		if (!r->zp || r->check[QC_ZONES].status == QUALIFY_SKIP || r->zp->outer_mbps <= 0)
			return false;
		*out = r->zp->outer_mbps;
		return true;
	case M_IOPS1:
		if (!r->nqd || r->qd[0] != 1 || r->iops[0] <= 0)
			return false;
		*out = r->iops[0];
		return true;
	default:
		if (r->nqd < 2 || r->iops[r->nqd - 1] <= 0)
			return false;
		*out = r->iops[r->nqd - 1];
		*qd = r->qd[r->nqd - 1];
		return true;
	}
}

/* Zone profiles measured at the same LBAs */
static bool same_samples(const struct zprofile *a, const struct zprofile *b)
{
	if (!a || !b || a->npoints != b->npoints || !a->npoints)
		return false;
	for (unsigned i = 0; i < a->npoints; i++)
		if (a->points[i].lba != b->points[i].lba)
			return false;
	return true;
}

static int cmp_desc(const void *a, const void *b)
{
	return cmp_double(b, a);
}

/* A model's zone profiles sample by sample: the median of each sample over
 * the disks, and each disk's slowdown against it that a tenth of its
 * samples reach (one slow surface slows a share of the samples in every
 * band; a single slow sample does not count). Disks whose profiles were
 * sampled elsewhere are left out. */
static void profile_siblings(struct qualify_result *const *r, const unsigned *group, unsigned ng)
{
	const struct zprofile *ref = NULL;
	unsigned np, nd = 0;
	double *med, *v, *sl;

	for (unsigned k = 0; k < ng && !ref; k++)
		if (r[group[k]]->zp && !r[group[k]]->vanished)
			ref = r[group[k]]->zp;
	if (!ref)
		return;
	np = ref->npoints;
	for (unsigned k = 0; k < ng; k++)
		nd += !r[group[k]]->vanished && same_samples(ref, r[group[k]]->zp);
	if (nd < 2)
		return;
	med = calloc(np, sizeof(*med));
	v = calloc(ng, sizeof(*v));
	sl = calloc(np, sizeof(*sl));
	if (!med || !v || !sl)
		goto out;
	for (unsigned i = 0; i < np; i++) {
		unsigned m = 0;

		for (unsigned k = 0; k < ng; k++) {
			const struct qualify_result *x = r[group[k]];

			if (!x->vanished && same_samples(ref, x->zp) && !x->zp->points[i].error)
				v[m++] = x->zp->points[i].mbps;
		}
		med[i] = m >= 2 ? qualify_median(v, m) : 0;
	}
	for (unsigned k = 0; k < ng; k++) {
		struct qualify_result *x = r[group[k]];
		unsigned m = 0;

		if (x->vanished || !same_samples(ref, x->zp))
			continue;
		for (unsigned i = 0; i < np; i++)
			if (med[i] > 0 && !x->zp->points[i].error)
				sl[m++] = 100.0 * (med[i] - x->zp->points[i].mbps) / med[i];
		if (!m)
			continue;
		qsort(sl, m, sizeof(*sl), cmp_desc);
		x->profile_slowdown_pct = sl[m / 10];
		x->profile_compared = true;
	}
out:
	free(med);
	free(v);
	free(sl);
}

void qualify_compare_siblings(struct qualify_result *const *r, unsigned n,
			      const struct qualify_thresholds *thr)
{
	struct qualify_thresholds defaults;
	unsigned *group;
	double *vals;
	bool *done;

	if (!thr) {
		qualify_thresholds_default(&defaults);
		thr = &defaults;
	}
	vals = calloc(n ? n : 1, sizeof(*vals));
	done = calloc(n ? n : 1, sizeof(*done));
	group = calloc(n ? n : 1, sizeof(*group));
	if (!vals || !done || !group) {
		free(vals);
		free(done);
		free(group);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned ng = 0;
		double median[M_COUNT];
		bool have[M_COUNT];
		unsigned deep_qd = 0;

		if (done[i])
			continue;
		for (unsigned j = i; j < n; j++) {
			if (!done[j] && !strcmp(r[i]->info.model, r[j]->info.model)) {
				group[ng++] = j;
				done[j] = true;
			}
		}
		for (int m = 0; m < M_COUNT; m++) {
			unsigned nv = 0, qd = 0, first_qd = 0;

			have[m] = true;
			for (unsigned k = 0; k < ng; k++) {
				double v;

				if (metric(r[group[k]], m, &v, &qd)) {
					if (m == M_IOPSDEEP && nv && qd != first_qd)
						continue; /* compare like with like */
					if (!nv)
						first_qd = qd;
					vals[nv++] = v;
				}
			}
			if (m == M_IOPSDEEP)
				deep_qd = first_qd;
			have[m] = nv >= 2;
			median[m] = have[m] ? qualify_median(vals, nv) : 0;
		}
		profile_siblings(r, group, ng);
		for (unsigned k = 0; k < ng; k++) {
			struct qualify_result *x = r[group[k]];
			double worst = -1e300;
			int worst_m = -1;

			x->siblings = ng;
			if (ng < 2) {
				qualify_set_check(x, QC_SIBLINGS, QUALIFY_SKIP,
						  "no other disk of this model");
				continue;
			}
			for (int m = 0; m < M_COUNT; m++) {
				double v, s;
				unsigned qd = 0;

				if (!have[m] || median[m] <= 0 || !metric(x, m, &v, &qd))
					continue;
				if (m == M_IOPSDEEP && qd != deep_qd)
					continue;
				s = 100.0 * (median[m] - v) / median[m];
				if (s > worst) {
					worst = s;
					worst_m = m;
				}
			}
			if (x->profile_compared && x->profile_slowdown_pct > worst) {
				worst = x->profile_slowdown_pct;
				worst_m = M_COUNT;
			}
			if (worst_m < 0) {
				qualify_set_check(
				    x, QC_SIBLINGS, QUALIFY_SKIP,
				    "no other disk of this model (%u in all) has the figures "
				    "to compare with",
				    ng);
				continue;
			}
			x->slowdown_pct = worst;
			if (worst_m == M_SEQ)
				snprintf(x->slowdown_metric, sizeof(x->slowdown_metric),
					 "sequential read");
			else if (worst_m == M_COUNT)
				snprintf(x->slowdown_metric, sizeof(x->slowdown_metric),
					 "a tenth of the zone profile");
			else
				snprintf(x->slowdown_metric, sizeof(x->slowdown_metric),
					 "IOPS at QD %u", worst_m == M_IOPS1 ? 1 : deep_qd);
			if (worst > thr->sibling_slowdown_pct)
				qualify_set_check(
				    x, QC_SIBLINGS, QUALIFY_FAIL,
				    "%.0f%% slower than the median of the %u disks of this "
				    "model in %s (more than %.0f%%)",
				    worst, ng, x->slowdown_metric, thr->sibling_slowdown_pct);
			else
				qualify_set_check(
				    x, QC_SIBLINGS, QUALIFY_PASS,
				    "within %.0f%% of the median of the %u disks of this model "
				    "(worst: %s, %+.1f%%)",
				    thr->sibling_slowdown_pct, ng, x->slowdown_metric,
				    fabs(worst) < 0.05 ? 0.0 : -worst);
		}
		for (unsigned k = 0; k < ng; k++)
			qualify_result_verdict(r[group[k]]);
	}
	free(vals);
	free(done);
	free(group);
}
