/* bench.c - bench's options, its checks before any I/O, and the runs kept
 * per disk in the state directory (bench.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "shortstroke/bench.h"
#include "shortstroke/fileio.h"
#include "json_priv.h"

void bench_opts_default(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->wl = IO_WL_SEQ_READ;
	o->qd[0] = 1;
	o->qd[1] = 4;
	o->qd[2] = 16;
	o->qd[3] = 64;
	o->nqd = 4;
	o->time_ns = 30ull * 1000000000ull;
	o->seed = 1;
}

static int time_refused(const char *s, int rc, struct ss_error *err)
{
	return ss_error_usage(err, rc,
			      "'%s': give a duration of 1ms to 24h, such as 30s, 500ms or 2m", s);
}

int bench_parse_time(const char *s, uint64_t *ns, struct ss_error *err)
{
	const char *end;
	double v, mul = 1e9;

	if (decimal_parse(s, &v, &end) || !(v > 0))
		return time_refused(s, -EINVAL, err);
	if (!strcmp(end, "ms"))
		mul = 1e6;
	else if (!strcmp(end, "s") || !*end)
		mul = 1e9;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mul = 60e9;
	else if (!strcmp(end, "h"))
		mul = 3600e9;
	else
		return time_refused(s, -EINVAL, err);
	if (v * mul > (double)BENCH_TIME_MAX_NS || v * mul < 1e6)
		return time_refused(s, -ERANGE, err);
	*ns = (uint64_t)(v * mul);
	return 0;
}

static int qd_refused(const char *s, struct ss_error *err)
{
	return ss_error_usage(err, -EINVAL,
			      "'%s': give queue depths of 1 to %u, comma separated (at most %u)", s,
			      IO_QD_MAX, BENCH_QD_MAX);
}

int bench_parse_qd(const char *s, struct bench_opts *o, struct ss_error *err)
{
	const char *p = s;

	o->nqd = 0;
	while (*p) {
		char *end;
		unsigned long v;

		if (o->nqd >= BENCH_QD_MAX || *p < '0' || *p > '9')
			return qd_refused(s, err);
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v < 1 || v > IO_QD_MAX || (*end && *end != ','))
			return qd_refused(s, err);
		o->qd[o->nqd++] = (unsigned)v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return qd_refused(s, err);
	}
	return o->nqd ? 0 : qd_refused(s, err);
}

static int bs_refused(const char *s, int rc, struct ss_error *err)
{
	return ss_error_usage(err, rc,
			      "'%s': block sizes of 512 B to 4 MiB in multiples of 512 are "
			      "supported",
			      s);
}

int bench_parse_bs(const char *s, uint32_t *bs, struct ss_error *err)
{
	struct size_spec sp;
	uint64_t v;

	if (size_parse(s, &sp, NULL) || sp.kind == SIZE_PERCENT)
		return bs_refused(s, -EINVAL, err);
	v = sp.kind == SIZE_BLOCKS ? sp.blocks : sp.bytes; /* a bare number: bytes */
	if (v < IO_BS_MIN || v > IO_BS_MAX || v % 512)
		return bs_refused(s, -ERANGE, err);
	*bs = (uint32_t)v;
	return 0;
}

const char *bench_bs_text(const struct io_job *job, char *buf, size_t len)
{
	if (!job->bs)
		return "mixed";
	if (job->bs % (1u << 20) == 0)
		snprintf(buf, len, "%uM", job->bs >> 20);
	else if (job->bs % 1024 == 0)
		snprintf(buf, len, "%uK", job->bs >> 10);
	else
		snprintf(buf, len, "%u", job->bs);
	return buf;
}

int bench_opts_check(const struct bench_opts *o, struct ss_error *err)
{
	if (o->bs && !io_workload_fixed_size(o->wl))
		return ss_error_usage(err, -EINVAL,
				      "--bs: the %s profile fixes its own request sizes",
				      io_workload_name(o->wl));
	if (io_workload_writes(o->wl) && !o->destructive)
		return ss_error_usage(
		    err, -EINVAL,
		    "the %s workload writes to the disk and destroys its data: add "
		    "--destructive",
		    io_workload_name(o->wl));
	return 0;
}

int bench_write_fits(const struct drive_info *info, const char *spec, struct ss_error *err)
{
	if (info && info->zoned == ZONED_HOST_MANAGED)
		/* the drive would fail it part-way (UNALIGNED WRITE COMMAND) */
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: a host-managed zoned disk takes writes in its sequential "
				    "zones only at each zone's write pointer; write benchmarks are "
				    "not run on it",
				    spec);
	return 0;
}

int bench_job_plan(const struct bench_opts *o, struct io_dev *dev, bool write, const char *spec,
		   struct io_job *job, struct ss_error *err)
{
	const struct io_geom *g = io_dev_geom(dev);
	char h1[32], h2[32];
	uint64_t end;
	int rc;

	io_job_init(job);
	io_job_set_workload(job, o->wl);
	if (o->bs)
		job->bs = o->bs;
	job->time_ns = o->time_ns;
	job->seed = o->seed;
	end = g->blocks;
	if (o->span_given) {
		if (o->span.kind == SIZE_PERCENT)
			end = (uint64_t)((double)g->blocks * o->span.percent / 100.0);
		else if (o->span.kind == SIZE_BYTES)
			end = o->span.bytes / g->lblock;
		else
			end = o->span.blocks;
		if (end > g->blocks)
			return ss_error_set(err, -ERANGE, "%s: --span %s is beyond the disk (%s)",
					    spec, size_human(end * g->lblock, h1, sizeof(h1)),
					    size_human(g->blocks * g->lblock, h2, sizeof(h2)));
	}
	job->end_lba = end;
	for (unsigned k = 0; k < o->nqd; k++) {
		job->qd = o->qd[k];
		rc = io_job_check(job, g, write, err);
		if (rc) {
			ss_error_subject(err, spec);
			return rc;
		}
	}
	return 0;
}

int bench_prepare(struct ss_ctx *ctx, const struct bench_opts *o, struct bench_target *t,
		  struct ss_error *err)
{
	int rc = 0;

	t->io = NULL;
	t->step = BENCH_STEP_OPEN;
	if (!t->opened) {
		struct drive *d = NULL;

		rc = device_open(ctx, t->spec, t->write, &d, t->e, err);
		drive_free(d);
		if (!rc && t->write) {
			t->step = BENCH_STEP_SAFE;
			rc = device_check_safe(t->e, false, err);
		}
		if (rc)
			return rc;
	}
	t->step = BENCH_STEP_FITS;
	if (t->write && !t->raw && (rc = bench_write_fits(&t->e->info, t->spec, err)))
		return rc;
	t->step = BENCH_STEP_IO;
	rc = io_dev_open_name(t->e->node, ctx_sources(ctx), t->write, &t->io, err);
	if (rc) {
		ss_error_subject(err, t->spec);
		return rc;
	}
	t->step = BENCH_STEP_PLAN;
	rc = bench_job_plan(o, t->io, t->write, t->spec, &t->job, err);
	if (rc) {
		io_dev_close(t->io);
		t->io = NULL;
		return rc;
	}
	t->step = BENCH_STEP_READY;
	return 0;
}

void bench_plan_text(const struct bench_opts *o, const struct io_job *job, const struct io_geom *g,
		     const char *who, bool write, char *buf, size_t len)
{
	char h1[32], h2[32], bsb[16];

	snprintf(buf, len, "%s: %s, %s requests, over %s (%.3g%% of %s)%s", who,
		 io_workload_name(o->wl), bench_bs_text(job, bsb, sizeof(bsb)),
		 size_human(job->end_lba * g->lblock, h1, sizeof(h1)),
		 100.0 * (double)job->end_lba / (double)g->blocks,
		 size_human(g->blocks * g->lblock, h2, sizeof(h2)),
		 write ? ": the data there is overwritten" : "");
}

/* ---- the runs kept per disk ---------------------------------------------------- */

int bench_history_path(const char *state_dir, const char *serial, const char *wwn, char *buf,
		       size_t len)
{
	const char *id = serial && serial[0] ? serial : wwn;
	char key[128];
	size_t k = 0;

	if (!id || !id[0])
		return -ENOENT;
	for (; *id && k + 1 < sizeof(key); id++) {
		char c = *id;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';

		key[k++] = ok ? c : '_';
	}
	key[k] = '\0';
	if (key[0] == '.')
		key[0] = '_'; /* never "." or ".." */
	snprintf(buf, len, "%s/bench/%s.jsonl", state_dir, key);
	return 0;
}

static json_object *run_to_json(const struct bench_run *r)
{
	json_object *o = json_object_new_object(), *pts = json_object_new_array();

	json_object_object_add(o, "time", json_object_new_string(r->time));
	json_object_object_add(o, "device", json_object_new_string(r->device));
	json_object_object_add(o, "serial", json_object_new_string(r->serial));
	json_object_object_add(o, "wwn", json_object_new_string(r->wwn));
	json_object_object_add(o, "model", json_object_new_string(r->model));
	json_object_object_add(o, "workload", json_object_new_string(r->workload));
	json_object_object_add(o, "block_size", json_object_new_int64(r->bs));
	json_object_object_add(o, "logical_block", json_object_new_int64(r->lblock));
	json_object_object_add(o, "span_blocks", json_object_new_int64((int64_t)r->span_blocks));
	json_object_object_add(o, "capacity_blocks",
			       json_object_new_int64((int64_t)r->capacity_blocks));
	json_object_object_add(o, "time_per_qd_s",
			       json_object_new_double((double)r->time_ns / 1e9));
	json_object_object_add(o, "virtual_time", json_object_new_boolean(r->virtual_time));
	for (unsigned k = 0; k < r->n; k++) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "qd", json_object_new_int(r->p[k].qd));
		json_object_object_add(p, "iops", json_object_new_double(r->p[k].iops));
		json_object_object_add(p, "mbps", json_object_new_double(r->p[k].mbps));
		json_object_object_add(p, "lat_avg_ms", json_object_new_double(r->p[k].lat_avg_ms));
		json_object_object_add(p, "lat_p99_ms", json_object_new_double(r->p[k].lat_p99_ms));
		json_object_array_add(pts, p);
	}
	json_object_object_add(o, "runs", pts);
	return o;
}

static double num_of(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return -1;
	return json_object_get_double(v);
}

/* A line as a run; -EINVAL when it is not one. */
static int run_from_json(json_object *o, struct bench_run *r)
{
	json_object *pts, *v;
	double d;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "runs", &pts) ||
	    !json_object_is_type(pts, json_type_array))
		return -EINVAL;
	ops_json_str(o, "time", r->time, sizeof(r->time));
	ops_json_str(o, "device", r->device, sizeof(r->device));
	ops_json_str(o, "serial", r->serial, sizeof(r->serial));
	ops_json_str(o, "wwn", r->wwn, sizeof(r->wwn));
	ops_json_str(o, "model", r->model, sizeof(r->model));
	ops_json_str(o, "workload", r->workload, sizeof(r->workload));
	if (!r->workload[0] || (d = num_of(o, "block_size")) < 0 || d > IO_BS_MAX)
		return -EINVAL;
	r->bs = (uint32_t)d;
	d = num_of(o, "logical_block");
	r->lblock = d > 0 && d <= 65536 ? (uint32_t)d : 0;
	d = num_of(o, "span_blocks");
	r->span_blocks = d > 0 ? (uint64_t)d : 0;
	d = num_of(o, "capacity_blocks");
	r->capacity_blocks = d > 0 ? (uint64_t)d : 0;
	d = num_of(o, "time_per_qd_s");
	r->time_ns = d > 0 ? (uint64_t)(d * 1e9) : 0;
	r->virtual_time = json_object_object_get_ex(o, "virtual_time", &v) &&
			  json_object_get_boolean(v);
	for (size_t k = 0; k < json_object_array_length(pts) && r->n < BENCH_QD_MAX; k++) {
		json_object *p = json_object_array_get_idx(pts, k);
		struct bench_point *bp = &r->p[r->n];

		d = num_of(p, "qd");
		if (d < 1 || d > IO_QD_MAX)
			continue;
		bp->qd = (unsigned)d;
		bp->iops = num_of(p, "iops");
		bp->mbps = num_of(p, "mbps");
		bp->lat_avg_ms = num_of(p, "lat_avg_ms");
		bp->lat_p99_ms = num_of(p, "lat_p99_ms");
		r->n++;
	}
	return r->n ? 0 : -EINVAL;
}

int bench_history_append(const char *state_dir, struct bench_run *r, struct ss_error *err)
{
	char path[4096];
	time_t now = time(NULL);
	json_object *o;
	const char *text;
	struct stat st;
	char last = '\n';
	struct tm tm;
	size_t len;
	char *line;
	int fd, rc;

	if (bench_history_path(state_dir, r->serial, r->wwn, path, sizeof(path)))
		return ss_error_set(err, -ENOENT,
				    "%s: no serial number or WWN to keep its benchmark runs by",
				    r->device);
	rc = file_state_dir(state_dir, "bench", err);
	if (rc)
		return rc;
	gmtime_r(&now, &tm);
	strftime(r->time, sizeof(r->time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	o = run_to_json(r);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	len = strlen(text);
	line = malloc(len + 3);
	if (!line) {
		json_object_put(o);
		return ss_error_nomem(err);
	}
	/* made durable when new (file_open_private fsyncs the directory) */
	fd = file_open_private(path, O_RDWR | O_APPEND | O_CREAT, 0644, "the bench history", err);
	if (fd < 0) {
		free(line);
		json_object_put(o);
		return fd;
	}
	/* a line cut short by a crash: the new one starts on a line of its own */
	if (!fstat(fd, &st) && st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) != 1)
		last = '\n';
	len = (size_t)snprintf(line, len + 3, "%s%s\n", last == '\n' ? "" : "\n", text);
	json_object_put(o);
	rc = write(fd, line, len) == (ssize_t)len ? 0 : (errno ? -errno : -EIO);
	if (!rc && fsync(fd))
		rc = -errno;
	free(line);
	if (close(fd) && !rc)
		rc = -errno;
	if (rc)
		return ss_error_set(err, rc, "cannot write %s: %s", path, strerror(-rc));
	return 0;
}

int bench_history_last(const char *state_dir, const char *serial, const char *wwn,
		       const char *workload, uint32_t bs, struct bench_run *out,
		       struct ss_error *err)
{
	char path[4096], *text = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;
	int fd;

	if (bench_history_path(state_dir, serial, wwn, path, sizeof(path)))
		return -ENOENT;
	fd = file_open_private(path, O_RDONLY, 0, "the bench history", err);
	if (fd == -ENOENT)
		ss_error_clear(err);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return ss_error_nomem(err);
	}
	while (getline(&text, &cap, f) > 0) {
		json_object *o = json_tokener_parse(text);
		struct bench_run r;

		if (o && !run_from_json(o, &r) && !strcmp(r.workload, workload) && r.bs == bs) {
			*out = r;
			found = true;
		}
		json_object_put(o);
	}
	free(text);
	fclose(f);
	return found ? 0 : -ENOENT;
}

const struct bench_point *bench_run_at(const struct bench_run *r, unsigned qd)
{
	for (unsigned k = 0; k < r->n; k++)
		if (r->p[k].qd == qd)
			return &r->p[k];
	return NULL;
}
