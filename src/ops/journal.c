/* journal.c - the journal of capacity changes: JSON lines in
 * <state_dir>/journal.jsonl, appended under <state_dir>/journal.lock,
 * compacted past a size (the history moved to <state_dir>/journal.d).
 *
 * Writers: one write() of record + newline on an O_APPEND descriptor under
 * the exclusive flock (flock, not fcntl: threads of one process each open
 * their own descriptor and exclude one another too), then fsync before the
 * caller sends the command. A tail torn by a crash is closed with a newline
 * first, so the next record starts a line of its own.
 *
 * Readers: under the shared flock, complete lines only. What has been read
 * is kept per journal (the records and the lines that could not be read),
 * so that a batch over hundreds of disks reads each byte once; a journal
 * replaced (another inode: compacted) or shortened is read again from the
 * start. A torn record (incomplete JSON, or NUL bytes a power loss left
 * where a write was never fsynced) is skipped with one warning wherever it
 * sits; the record after it on the same line is read.
 *
 * Compaction (under the exclusive flock): the records each reader of the
 * history needs (keep_for_query) are written to a new file, the old one is
 * linked into journal.d, and the new one renamed over it; each step
 * fsynced. A kill -9 between any two leaves the old journal or the new one,
 * and the history in journal.d once (see archive_live).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "shortstroke/fileio.h"
#include "shortstroke/journal.h"

#define LINE_MAX_BYTES (1 << 16)

void journal_path(const char *state_dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/journal.jsonl", state_dir);
}

static void lock_path(const char *state_dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/journal.lock", state_dir);
}

void journal_history_dir(const char *state_dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/journal.d", state_dir);
}

static void journal_twin(const char *state_dir, char *out, size_t len);
static void journal_twin_of(const char *journal, char *out, size_t len);

/* ---- warnings ------------------------------------------------------------ */

static pthread_mutex_t warn_mu = PTHREAD_MUTEX_INITIALIZER;
static journal_warn_fn warn_fn;
static void *warn_arg;

void journal_set_warn(journal_warn_fn fn, void *arg)
{
	pthread_mutex_lock(&warn_mu);
	warn_fn = fn;
	warn_arg = arg;
	pthread_mutex_unlock(&warn_mu);
}

static void warn(const char *msg)
{
	pthread_mutex_lock(&warn_mu);
	if (warn_fn)
		warn_fn(warn_arg, msg);
	pthread_mutex_unlock(&warn_mu);
}

/* ---- records as JSON ------------------------------------------------------ */

static json_object *entry_to_json(const struct journal_entry *e)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "time", json_object_new_string(e->time));
	json_object_object_add(o, "event", json_object_new_string(e->event));
	json_object_object_add(o, "device", json_object_new_string(e->device));
	if (e->node[0])
		json_object_object_add(o, "node", json_object_new_string(e->node));
	json_object_object_add(o, "serial", json_object_new_string(e->serial));
	json_object_object_add(o, "wwn", json_object_new_string(e->wwn));
	json_object_object_add(o, "model", json_object_new_string(e->model));
	json_object_object_add(o, "method", json_object_new_string(e->method));
	json_object_object_add(o, "block_len", json_object_new_uint64(e->block_len));
	json_object_object_add(o, "native_blocks", json_object_new_uint64(e->native_blocks));
	json_object_object_add(o, "original_blocks", json_object_new_uint64(e->original_blocks));
	json_object_object_add(o, "target_blocks", json_object_new_uint64(e->target_blocks));
	json_object_object_add(o, "volatile", json_object_new_boolean(e->volatile_));
	if (e->cause[0])
		json_object_object_add(o, "cause", json_object_new_string(e->cause));
	if (e->element)
		json_object_object_add(o, "element", json_object_new_uint64(e->element));
	if (e->to_block_len)
		json_object_object_add(o, "to_block_len", json_object_new_uint64(e->to_block_len));
	if (e->snapshot)
		json_object_object_add(o, "snapshot", json_object_new_boolean(true));
	return o;
}

static const char *plain(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						     JSON_C_TO_STRING_NOSLASHESCAPE);
}

void journal_entry_text(const struct journal_entry *e, char *buf, size_t len)
{
	json_object *o = entry_to_json(e);

	snprintf(buf, len, "%s", o ? plain(o) : "?");
	json_object_put(o);
}

static int get_str(json_object *o, const char *key, char *dst, size_t len, bool required,
		   struct ss_error *err)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v)) {
		dst[0] = '\0';
		return required ? ss_error_set(err, -EINVAL, "field \"%s\" is missing", key) : 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return ss_error_set(err, -EINVAL, "field \"%s\": expected a string", key);
	snprintf(dst, len, "%s", json_object_get_string(v));
	return 0;
}

static int get_u64(json_object *o, const char *key, uint64_t *dst, struct ss_error *err)
{
	json_object *v;

	*dst = 0;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return ss_error_set(err, -EINVAL, "field \"%s\": expected a whole number >= 0",
				    key);
	*dst = json_object_get_uint64(v);
	return 0;
}

static int entry_from_json(json_object *o, struct journal_entry *out, struct ss_error *err)
{
	json_object *v;
	uint64_t bl, el, tbl;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(o, json_type_object))
		return ss_error_set(err, -EINVAL, "not a JSON object");
	if ((rc = get_str(o, "time", out->time, sizeof(out->time), false, err)) ||
	    (rc = get_str(o, "event", out->event, sizeof(out->event), true, err)) ||
	    (rc = get_str(o, "device", out->device, sizeof(out->device), false, err)) ||
	    (rc = get_str(o, "node", out->node, sizeof(out->node), false, err)) ||
	    (rc = get_str(o, "serial", out->serial, sizeof(out->serial), false, err)) ||
	    (rc = get_str(o, "wwn", out->wwn, sizeof(out->wwn), false, err)) ||
	    (rc = get_str(o, "model", out->model, sizeof(out->model), false, err)) ||
	    (rc = get_str(o, "method", out->method, sizeof(out->method), false, err)) ||
	    (rc = get_str(o, "cause", out->cause, sizeof(out->cause), false, err)) ||
	    (rc = get_u64(o, "block_len", &bl, err)) ||
	    (rc = get_u64(o, "native_blocks", &out->native_blocks, err)) ||
	    (rc = get_u64(o, "original_blocks", &out->original_blocks, err)) ||
	    (rc = get_u64(o, "target_blocks", &out->target_blocks, err)) ||
	    (rc = get_u64(o, "element", &el, err)) || (rc = get_u64(o, "to_block_len", &tbl, err)))
		return rc;
	if (tbl > UINT32_MAX)
		return ss_error_set(err, -EINVAL, "field \"to_block_len\": out of range");
	out->to_block_len = (uint32_t)tbl;
	if (el > UINT32_MAX)
		return ss_error_set(err, -EINVAL, "field \"element\": out of range");
	out->element = (uint32_t)el;
	if (bl > UINT32_MAX)
		return ss_error_set(err, -EINVAL, "field \"block_len\": out of range");
	out->block_len = (uint32_t)bl;
	if (json_object_object_get_ex(o, "volatile", &v))
		out->volatile_ = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "snapshot", &v))
		out->snapshot = json_object_get_boolean(v);
	if (!out->serial[0] && !out->wwn[0])
		return ss_error_set(err, -EINVAL, "entry names no serial and no WWN");
	return 0;
}

int journal_parse_line(const char *line, size_t len, struct journal_entry *out,
		       struct ss_error *err)
{
	struct json_tokener *tok;
	json_object *o;
	int rc;

	memset(out, 0, sizeof(*out));
	if (len > LINE_MAX_BYTES)
		return ss_error_set(err, -EINVAL, "line too long");
	tok = json_tokener_new();
	if (!tok)
		return ss_error_nomem(err);
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(o, json_type_object)) {
		json_tokener_free(tok);
		json_object_put(o);
		return ss_error_set(err, -EINVAL, "not a JSON object");
	}
	json_tokener_free(tok);
	rc = entry_from_json(o, out, err);
	json_object_put(o);
	return rc;
}

int journal_entry_check(const struct journal_entry *e, struct ss_error *err)
{
	uint32_t bl = e->block_len;

	if (bl < 512 || bl > 65536 || (bl & (bl - 1)))
		return ss_error_set(err, -EINVAL, "a block length of %" PRIu32 " bytes", bl);
	if (e->original_blocks == 0)
		return ss_error_set(err, -EINVAL, "an original capacity of 0 blocks");
	if (e->native_blocks && e->original_blocks > e->native_blocks)
		return ss_error_set(err, -EINVAL,
				    "an original capacity of %" PRIu64 " blocks, beyond the native "
				    "%" PRIu64 " it records",
				    e->original_blocks, e->native_blocks);
	if (e->original_blocks > (UINT64_C(1) << 60) / bl ||
	    e->native_blocks > (UINT64_C(1) << 60) / bl)
		return ss_error_set(err, -EINVAL, "a capacity over 2^60 bytes");
	return 0;
}

/* ---- the lock ---------------------------------------------------------------- */

static int flock_retry(int fd, int op)
{
	while (flock(fd, op) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* The journal's lock, taken; -1 (and no lock) when a reader cannot create
 * it in a read-only state directory: readers tolerate a torn tail anyway. */
static int lock_take(const char *state_dir, bool exclusive, struct ss_error *err)
{
	char path[4096];
	int fd, rc;

	lock_path(state_dir, path, sizeof(path));
	fd = file_open_private(path, O_RDWR | O_CREAT, 0644, "the journal's lock",
			       exclusive ? err : NULL);
	if (fd < 0 && !exclusive)
		fd = file_open_private(path, O_RDONLY, 0, "the journal's lock", NULL);
	if (fd < 0)
		return exclusive ? fd : -1; /* a reader goes on: the journal's open says why not */
	rc = flock_retry(fd, exclusive ? LOCK_EX : LOCK_SH);
	if (rc) {
		close(fd);
		if (!exclusive)
			return -1;
		return ss_error_set(err, rc, "cannot lock the journal (%s): %s", path,
				    strerror(-rc));
	}
	return fd;
}

static void lock_drop(int fd)
{
	if (fd >= 0)
		close(fd); /* releases the flock */
}

/* ---- appending ------------------------------------------------------------ */

static size_t compact_bytes = JOURNAL_COMPACT_BYTES;

void journal_set_compact_bytes(size_t bytes)
{
	compact_bytes = bytes ? bytes : JOURNAL_COMPACT_BYTES;
}

static void maybe_compact(const char *state_dir, const char *path, bool now);

/* Under the lock: does the journal end in the middle of a line? */
static bool torn_tail(int fd, off_t size)
{
	char c;

	return size > 0 && pread(fd, &c, 1, size - 1) == 1 && c != '\n';
}

/* One write() of the whole buffer; on a short one, the journal is cut back
 * to where it was (we hold the lock: nothing came after). */
static int append_once(int fd, const char *buf, size_t len, off_t size)
{
	ssize_t w = write(fd, buf, len);
	int rc;

	if (w == (ssize_t)len)
		return 0;
	rc = w < 0 ? -errno : -ENOSPC;
	if (ftruncate(fd, size) < 0) {
		/* the torn tail stays; the next append closes its line */
	}
	return rc;
}

int journal_append(const char *state_dir, struct journal_entry *e, struct ss_error *err)
{
	char path[4096], twin[4200], *buf;
	json_object *o;
	const char *text;
	struct stat st;
	time_t now = time(NULL);
	struct tm tm;
	size_t len;
	int fd, lfd, rc;

	rc = file_state_dir(state_dir, NULL, err);
	if (rc)
		return rc;
	gmtime_r(&now, &tm);
	strftime(e->time, sizeof(e->time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	journal_path(state_dir, path, sizeof(path));
	o = entry_to_json(e);
	text = o ? plain(o) : NULL;
	len = text ? strlen(text) : 0;
	buf = text ? malloc(len + 3) : NULL;
	if (!buf) {
		json_object_put(o);
		return ss_error_nomem(err);
	}
	buf[0] = '\n';
	memcpy(buf + 1, text, len);
	buf[len + 1] = '\n';
	json_object_put(o);

	lfd = lock_take(state_dir, true, err);
	if (lfd < 0) {
		free(buf);
		return lfd;
	}
	journal_twin(state_dir, twin, sizeof(twin));
	fd = file_open_private_twin(path, O_RDWR | O_APPEND | O_CREAT, 0644, twin, "the journal",
				    err);
	if (fd < 0) {
		lock_drop(lfd);
		free(buf);
		return fd;
	}
	rc = fstat(fd, &st) ? -errno : 0;
	if (!rc) {
		bool torn = torn_tail(fd, st.st_size);

		rc = append_once(fd, torn ? buf : buf + 1, len + (torn ? 2 : 1), st.st_size);
	}
	/* under the lock; the record is in either file. A journal with a
	 * second name is in journal.d already: a compaction was stopped between
	 * its link and its rename, and is finished now. */
	if (!rc && ((size_t)st.st_size + len + 2 > compact_bytes || st.st_nlink > 1))
		maybe_compact(state_dir, path, st.st_nlink > 1);
	lock_drop(lfd);
	/* durable before the caller sends the command; outside the lock, so
	 * that parallel appenders' fsyncs can share the filesystem's commit */
	if (!rc && fsync(fd))
		rc = -errno;
	close(fd);
	free(buf);
	if (rc)
		return ss_error_set(err, rc, "cannot write the journal %s: %s", path,
				    strerror(-rc));
	return 0;
}

/* ---- reading ------------------------------------------------------------------- */

/* A line that gave no record. */
struct jbad {
	unsigned line;
	bool torn; /* incomplete JSON or NUL bytes: a write cut short */
	bool warned;
	char serial[48], wwn[48]; /* whose it is, where that can be told */
	char why[160];
	char excerpt[88];
};

struct jcache {
	char path[4096];
	dev_t dev;
	ino_t ino;
	off_t off; /* bytes read: complete lines only */
	unsigned lines;
	struct journal_entry *v;
	size_t n, cap;
	struct jbad *bad;
	size_t nbad, capbad;
	unsigned tail_warned; /* the unterminated last line warned about */
	off_t snap_end;	      /* where the leading snapshot records end */
	bool snap_run;	      /* the lines read so far are all snapshot records */
	bool compact_warned;
	struct jcache *next;
};

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static struct jcache *caches;

static struct jcache *cache_get(const char *path)
{
	struct jcache *c;

	for (c = caches; c; c = c->next)
		if (!strcmp(c->path, path))
			return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->snap_run = true;
	c->next = caches;
	caches = c;
	return c;
}

static void cache_reset(struct jcache *c)
{
	free(c->v);
	free(c->bad);
	c->v = NULL;
	c->bad = NULL;
	c->n = c->cap = c->nbad = c->capbad = 0;
	c->off = 0;
	c->lines = 0;
	c->tail_warned = 0;
	c->snap_end = 0;
	c->snap_run = true;
	c->dev = 0;
	c->ino = 0;
}

static int push_entry(struct jcache *c, const struct journal_entry *e)
{
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 64;
		struct journal_entry *nv = realloc(c->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		c->v = nv;
		c->cap = nc;
	}
	c->v[c->n++] = *e;
	return 0;
}

/* The value of "key":"..." in text that is not (all) JSON. */
static void sniff(const char *text, size_t len, const char *key, char *dst, size_t dlen)
{
	char pat[32];
	const char *p, *end = text + len;
	size_t k = 0;

	dst[0] = '\0';
	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = memmem(text, len, pat, strlen(pat));
	if (!p)
		return;
	for (p += strlen(pat); p < end && *p != '"' && k + 1 < dlen; p++)
		dst[k++] = *p;
	dst[k] = '\0';
	if (p >= end || *p != '"')
		dst[0] = '\0'; /* cut off: not to be trusted */
}

static int push_bad(struct jcache *c, unsigned line, const char *text, size_t len, bool torn,
		    json_object *o, const char *why)
{
	struct jbad *b;
	size_t k;

	if (c->nbad == c->capbad) {
		size_t nc = c->capbad ? c->capbad * 2 : 8;
		struct jbad *nb = realloc(c->bad, nc * sizeof(*nb));

		if (!nb)
			return -ENOMEM;
		c->bad = nb;
		c->capbad = nc;
	}
	b = &c->bad[c->nbad++];
	memset(b, 0, sizeof(*b));
	b->line = line;
	b->torn = torn;
	snprintf(b->why, sizeof(b->why), "%s", why);
	if (o && json_object_is_type(o, json_type_object)) {
		struct ss_error e2;

		get_str(o, "serial", b->serial, sizeof(b->serial), false, &e2);
		get_str(o, "wwn", b->wwn, sizeof(b->wwn), false, &e2);
	} else {
		sniff(text, len, "serial", b->serial, sizeof(b->serial));
		sniff(text, len, "wwn", b->wwn, sizeof(b->wwn));
	}
	for (k = 0; k < len && k + 1 < sizeof(b->excerpt); k++)
		b->excerpt[k] = (text[k] >= 0x20 && text[k] < 0x7f) ? text[k] : '?';
	b->excerpt[k] = '\0';
	return 0;
}

/* How journal_append begins every record. No JSON string holds it (its
 * quotes would be escaped there), so where it appears in the middle of a
 * line, a record torn short ends and the next one begins. */
static const char rec_start[] = "{\"time\":\"";

/* Is text the beginning of a JSON value, cut short? */
static bool json_prefix(struct json_tokener *tok, const char *text, size_t len)
{
	json_object *o;

	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, text, (int)len);
	json_object_put(o);
	return !o && json_tokener_get_error(tok) == json_tokener_continue;
}

/*
 * One run of a line without NUL bytes: every record in it (old journals may
 * hold two, "}{", from appends that interleaved), a record torn short (where
 * the next begins on the same line, or at the end), or what is wrong with
 * it. damaged: NUL bytes beside the run (a power loss lost what was written
 * there, never fsynced): what cannot be read in it is torn too.
 */
static int parse_run(struct jcache *c, struct json_tokener *tok, const char *line, size_t len,
		     unsigned lineno, bool damaged)
{
	size_t pos = 0;
	int rc = 0;

	if (len > LINE_MAX_BYTES)
		return push_bad(c, lineno, line, len, damaged, NULL, "line too long");
	while (!rc) {
		enum json_tokener_error jerr;
		struct journal_entry e;
		struct ss_error e2 = { 0 };
		const char *next;
		json_object *o;
		size_t seg;
		bool got;

		while (pos < len && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r'))
			pos++;
		if (pos == len)
			break;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, line + pos, (int)(len - pos));
		jerr = json_tokener_get_error(tok);
		if (o && jerr == json_tokener_success) {
			if (entry_from_json(o, &e, &e2)) {
				rc = push_bad(c, lineno, line + pos, len - pos, damaged, o, e2.msg);
				json_object_put(o);
				break;
			}
			json_object_put(o);
			e.line = lineno;
			rc = push_entry(c, &e);
			pos += json_tokener_get_parse_end(tok);
			continue;
		}
		got = o != NULL;
		json_object_put(o);
		/* where the next record begins, if one does on this line */
		next = memmem(line + pos + 1, len - pos - 1, rec_start, sizeof(rec_start) - 1);
		seg = next ? (size_t)(next - line) - pos : len - pos;
		if (damaged ||
		    (next ? json_prefix(tok, line + pos, seg) : jerr == json_tokener_continue)) {
			rc = push_bad(c, lineno, line + pos, seg, true, NULL,
				      "an incomplete record");
			if (!next)
				break;
			pos += seg;
			continue;
		}
		rc = push_bad(c, lineno, line + pos, len - pos, false, NULL,
			      got ? json_tokener_error_desc(jerr) : "not a JSON object");
		break;
	}
	return rc;
}

/* One complete line: its runs between NUL bytes. */
static int parse_line_into(struct jcache *c, const char *line, size_t len, unsigned lineno)
{
	bool damaged = memchr(line, '\0', len) != NULL;
	struct json_tokener *tok = json_tokener_new();
	size_t pos = 0, nbad = c->nbad;
	int rc = 0;

	if (!tok)
		return -ENOMEM;
	while (pos < len && !rc) {
		size_t end = pos;

		while (end < len && line[end])
			end++;
		if (end > pos)
			rc = parse_run(c, tok, line + pos, end - pos, lineno, damaged);
		for (pos = end; pos < len && !line[pos]; pos++)
			;
	}
	json_tokener_free(tok);
	if (!rc && damaged && c->nbad == nbad) /* NUL bytes alone: what was lost is torn */
		rc = push_bad(c, lineno, line, len, true, NULL, "NUL bytes");
	return rc;
}

static void warn_tail(struct jcache *c, unsigned lineno)
{
	char msg[600];

	if (c->tail_warned == lineno)
		return;
	c->tail_warned = lineno;
	snprintf(msg, sizeof(msg),
		 "%s:%u: the last line is incomplete (a write cut short by a crash); it is "
		 "ignored: it was never complete, so the command it describes was never sent",
		 c->path, lineno);
	warn(msg);
}

/* After a line: do the lines read so far still hold snapshot records only? */
static void snap_track(struct jcache *c, size_t before, off_t end)
{
	bool all = c->n > before;

	for (size_t k = before; k < c->n; k++)
		all = all && c->v[k].snapshot;
	if (!c->snap_run)
		return;
	if (all)
		c->snap_end = end;
	else
		c->snap_run = false;
}

/* Read what was appended since the last time. Called under cache_mu and
 * the journal's shared lock. */
static int cache_update(struct jcache *c, struct ss_error *err)
{
	char *buf = NULL, twin[4200];
	struct stat st;
	size_t len, start = 0;
	ssize_t r;
	int fd, rc = 0;

	journal_twin_of(c->path, twin, sizeof(twin));
	fd = file_open_private_twin(c->path, O_RDONLY, 0, twin, "the journal", err);
	if (fd == -ENOENT) {
		ss_error_clear(err);
		cache_reset(c);
		return 0;
	}
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	if (st.st_dev != c->dev || st.st_ino != c->ino || st.st_size < c->off) {
		cache_reset(c);
		c->dev = st.st_dev;
		c->ino = st.st_ino;
	}
	if (st.st_size == c->off)
		goto out;
	len = (size_t)(st.st_size - c->off);
	buf = malloc(len + 1);
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	r = pread(fd, buf, len, c->off);
	if (r < 0) {
		rc = -errno;
		goto out;
	}
	len = (size_t)r;
	buf[len] = '\0';
	while (start < len && !rc) {
		char *nl = memchr(buf + start, '\n', len - start);
		size_t before = c->n;

		if (!nl) {
			warn_tail(c, c->lines + 1);
			break;
		}
		c->lines++;
		if (nl > buf + start)
			rc = parse_line_into(c, buf + start, (size_t)(nl - buf - start), c->lines);
		start = (size_t)(nl - buf) + 1;
		snap_track(c, before, c->off + (off_t)start);
	}
	c->off += (off_t)start;
out:
	if (rc)
		ss_error_set(err, rc, "cannot read the journal %s: %s", c->path, strerror(-rc));
	free(buf);
	close(fd);
	return rc;
}

/* One disk: the WWN decides when both sides have one (two disks behind a
 * bridge may share a serial, never a WWN); else the serial. */
static bool same_disk_ids(const char *eserial, const char *ewwn, const char *serial,
			  const char *wwn)
{
	if (wwn && *wwn && ewwn[0])
		return !strcasecmp(wwn, ewwn);
	return serial && *serial && eserial[0] && !strcmp(serial, eserial);
}

static bool same_disk(const struct journal_entry *e, const char *serial, const char *wwn)
{
	return same_disk_ids(e->serial, e->wwn, serial, wwn);
}

/* The torn records not warned about yet: one warning for all of them. */
static void warn_torn(struct jcache *c)
{
	char msg[700], lines[200] = "";
	unsigned first = 0, count = 0, last = 0;
	size_t l = 0;

	for (size_t i = 0; i < c->nbad; i++) {
		struct jbad *b = &c->bad[i];

		if (!b->torn || b->warned)
			continue;
		b->warned = true;
		if (b->line == last)
			continue; /* one line, several pieces */
		last = b->line;
		if (!count++)
			first = b->line;
		if (count <= 8 && l < sizeof(lines))
			l += (size_t)snprintf(lines + l, sizeof(lines) - l, "%s%u",
					      count > 1 ? ", " : "", b->line);
		else if (count == 9 && l < sizeof(lines))
			l += (size_t)snprintf(lines + l, sizeof(lines) - l, ", ...");
	}
	if (!count)
		return;
	if (count == 1)
		snprintf(msg, sizeof(msg),
			 "%s:%u: an incomplete record (a write cut short by a crash or a power "
			 "loss) is ignored: it was never complete, so the command it describes "
			 "was never sent",
			 c->path, first);
	else
		snprintf(msg, sizeof(msg),
			 "%s: %u incomplete records (lines %s: writes cut short by a crash or a "
			 "power loss) are ignored: none was ever complete, so the commands they "
			 "describe were never sent",
			 c->path, count, lines);
	warn(msg);
}

/* The lines that gave no record, as they bear on this disk: torn records
 * and other disks' lines are warnings; a line of this disk, or of a disk
 * that cannot be told, is the error. */
static int check_bad(struct jcache *c, const char *serial, const char *wwn, size_t upto,
		     struct ss_error *err)
{
	char msg[700];

	for (size_t i = 0; i < upto; i++) {
		struct jbad *b = &c->bad[i];
		bool told = b->serial[0] || b->wwn[0];
		bool mine = same_disk_ids(b->serial, b->wwn, serial, wwn);

		if (!b->torn && (mine || !told))
			return ss_error_set(err, -EBADMSG,
					    "%s:%u: a line that cannot be read (%s) %s: '%s'; "
					    "nothing is guessed from the journal until it is "
					    "repaired",
					    c->path, b->line, b->why,
					    mine ? "concerns this disk" : "names no disk",
					    b->excerpt);
		if (b->warned || b->torn)
			continue;
		b->warned = true;
		snprintf(msg, sizeof(msg),
			 "%s:%u: a line that cannot be read (%s) is ignored: it concerns "
			 "another disk (serial %s%s%s)",
			 c->path, b->line, b->why, b->serial[0] ? b->serial : "-",
			 b->wwn[0] ? ", WWN " : "", b->wwn);
		warn(msg);
	}
	warn_torn(c);
	return 0;
}

static int for_entries(const char *state_dir, const char *serial, const char *wwn, bool all,
		       int (*fn)(void *arg, const struct journal_entry *e), void *arg,
		       struct ss_error *err)
{
	struct journal_entry *mine = NULL;
	char path[4096];
	struct jcache *c;
	size_t n = 0;
	int lfd, rc;

	journal_path(state_dir, path, sizeof(path));
	lfd = lock_take(state_dir, false, NULL);
	pthread_mutex_lock(&cache_mu);
	c = cache_get(path);
	rc = c ? cache_update(c, err) : ss_error_nomem(err);
	lock_drop(lfd);
	if (!rc)
		rc = check_bad(c, serial, wwn, c->nbad, err);
	if (!rc && c->n) {
		mine = malloc(c->n * sizeof(*mine));
		if (!mine)
			rc = ss_error_nomem(err);
		for (size_t i = 0; mine && i < c->n; i++)
			if (all || same_disk(&c->v[i], serial, wwn))
				mine[n++] = c->v[i];
	}
	pthread_mutex_unlock(&cache_mu);
	/* the callbacks run without the cache's lock: they may read it too */
	for (size_t i = 0; !rc && i < n; i++)
		rc = fn(arg, &mine[i]);
	free(mine);
	return rc;
}

int journal_for_disk(const char *state_dir, const char *serial, const char *wwn,
		     int (*fn)(void *arg, const struct journal_entry *e), void *arg,
		     struct ss_error *err)
{
	return for_entries(state_dir, serial, wwn, false, fn, arg, err);
}

int journal_for_each(const char *state_dir, int (*fn)(void *arg, const struct journal_entry *e),
		     void *arg, struct ss_error *err)
{
	return for_entries(state_dir, NULL, NULL, true, fn, arg, err);
}

int journal_check(const char *state_dir, struct ss_error *err)
{
	char path[4096], twin[4200];
	int fd;

	snprintf(path, sizeof(path), "the state directory %s", state_dir);
	fd = file_dir_check(state_dir, true, path, err);
	lock_path(state_dir, path, sizeof(path));
	if (!fd)
		fd = file_open_private(path, O_RDONLY, 0, "the journal's lock", err);
	if (fd >= 0)
		close(fd);
	journal_path(state_dir, path, sizeof(path));
	journal_twin(state_dir, twin, sizeof(twin));
	if (fd >= 0 || fd == -ENOENT)
		fd = file_open_private_twin(path, O_RDONLY, 0, twin, "the journal", err);
	if (fd >= 0)
		close(fd);
	if (fd == -ENOENT)
		ss_error_clear(err);
	return fd < 0 && fd != -ENOENT ? fd : 0;
}

struct original_scan {
	struct journal_entry first;
	bool open;
};

static int original_cb(void *arg, const struct journal_entry *e)
{
	struct original_scan *s = arg;

	if (!strcmp(e->event, "restore-done")) {
		s->open = false;
	} else if (!strcmp(e->event, "limit") && !s->open) {
		s->first = *e;
		s->open = true;
	}
	return 0;
}

/* The record cb picks of the disk's, or -ENOENT. */
static int pick(const char *state_dir, const char *serial, const char *wwn,
		int (*cb)(void *arg, const struct journal_entry *e), struct journal_entry *out,
		struct ss_error *err)
{
	struct original_scan s;
	int rc;

	memset(&s, 0, sizeof(s));
	rc = journal_for_disk(state_dir, serial, wwn, cb, &s, err);
	if (rc)
		return rc;
	if (!s.open)
		return -ENOENT;
	*out = s.first;
	return 0;
}

int journal_original(const char *state_dir, const char *serial, const char *wwn,
		     struct journal_entry *out, struct ss_error *err)
{
	return pick(state_dir, serial, wwn, original_cb, out, err);
}

static int last_cb(void *arg, const struct journal_entry *e)
{
	struct original_scan *s = arg;

	s->first = *e;
	s->open = true;
	return 0;
}

int journal_last(const char *state_dir, const char *serial, const char *wwn,
		 struct journal_entry *out, struct ss_error *err)
{
	return pick(state_dir, serial, wwn, last_cb, out, err);
}

/* ---- compaction ------------------------------------------------------------------ */

/*
 * Which records of the journal still decide something. Each reader of the
 * history folds one disk's records (a query: the records a serial and WWN
 * match), and reads from a compacted journal what it read from the whole:
 *   - journal_last: the newest record;
 *   - journal_original: the first "limit" after the last "restore-done";
 *   - cap_hpa_changed_before (hpa.c): the last completed change that
 *     changed the capacity;
 *   - reapply_pending (reapply.c): the last restore by the user ("restore",
 *     or a "restore-done" without a cause), the last "limit-done" after it,
 *     the last "restore-done" of a failed limit after that, and the last
 *     "limit" after all of them.
 * Each fold reads the same from any subsequence that holds these records
 * (what comes between them does not change its answer), so the records
 * kept are their union, over every query that can match the records of a
 * disk: see compact_keep.
 */
#define NONE SIZE_MAX

enum qmode {
	Q_ALL,	 /* every record of the group */
	Q_EXACT, /* this serial and this WWN */
	Q_IDS,	 /* as journal_for_disk matches (same_disk_ids) */
};

static bool q_match(const struct journal_entry *e, enum qmode m, const char *serial,
		    const char *wwn)
{
	if (m == Q_ALL)
		return true;
	if (m == Q_EXACT)
		return !strcmp(e->serial, serial) && !strcasecmp(e->wwn, wwn);
	return same_disk_ids(e->serial, e->wwn, serial, wwn);
}

static bool is_event(const struct journal_entry *e, const char *name)
{
	return !strcmp(e->event, name);
}

/* Mark in keep what the readers need of the records idx[0..m) (one group, in
 * journal order) that the query matches. */
static void keep_for_query(const struct journal_entry *v, const size_t *idx, size_t m,
			   enum qmode mode, const char *serial, const char *wwn, bool *keep)
{
	size_t last = NONE, rdone = NONE, orig = NONE, change = NONE;
	size_t user = NONE, done = NONE, failed = NONE, limit = NONE;
	size_t marks[8];

	for (size_t k = 0; k < m; k++) {
		size_t i = idx[k];
		const struct journal_entry *e = &v[i];
		bool rd = is_event(e, "restore-done");

		if (!q_match(e, mode, serial, wwn))
			continue;
		last = i;
		if (rd) {
			rdone = i;
			orig = NONE;
		}
		if ((rd && !e->cause[0]) || is_event(e, "restore")) {
			user = i;
			done = failed = limit = NONE;
		} else if (rd && !strcmp(e->cause, JOURNAL_CAUSE_FAILED)) {
			failed = i;
			limit = NONE;
		} else if (is_event(e, "limit-done")) {
			done = i;
			failed = limit = NONE;
		} else if (is_event(e, "limit")) {
			if (orig == NONE)
				orig = i;
			limit = i;
		}
		if ((rd || is_event(e, "limit-done")) && e->original_blocks != e->target_blocks)
			change = i;
	}
	marks[0] = last;
	marks[1] = rdone;
	marks[2] = orig;
	marks[3] = change;
	marks[4] = user;
	marks[5] = done;
	marks[6] = failed;
	marks[7] = limit;
	for (size_t k = 0; k < sizeof(marks) / sizeof(marks[0]); k++)
		if (marks[k] != NONE)
			keep[marks[k]] = true;
}

/* A string of the group, once. */
static void add_unique(const char **set, size_t *n, const char *s, bool fold_case)
{
	for (size_t k = 0; k < *n; k++)
		if (fold_case ? !strcasecmp(set[k], s) : !strcmp(set[k], s))
			return;
	set[(*n)++] = s;
}

/*
 * The queries of one group of records (the records whose serials and WWNs
 * link them, so that no disk matches records of two groups): every record;
 * each serial/WWN pair the records carry; and every serial (or none) with
 * every WWN, no WWN, or a WWN no record carries, as journal_for_disk matches.
 */
static int keep_group(const struct journal_entry *v, const size_t *idx, size_t m, bool *keep)
{
	const char **ser = malloc((m + 1) * sizeof(*ser)), **wwn = malloc((m + 2) * sizeof(*wwn));
	size_t ns = 0, nw = 0;

	if (!ser || !wwn) {
		free(ser);
		free(wwn);
		return -ENOMEM;
	}
	keep_for_query(v, idx, m, Q_ALL, "", "", keep);
	for (size_t k = 0; k < m; k++) {
		const struct journal_entry *e = &v[idx[k]];
		bool seen = false;

		for (size_t j = 0; j < k && !seen; j++)
			seen = q_match(&v[idx[j]], Q_EXACT, e->serial, e->wwn);
		if (!seen)
			keep_for_query(v, idx, m, Q_EXACT, e->serial, e->wwn, keep);
		if (e->serial[0])
			add_unique(ser, &ns, e->serial, false);
		if (e->wwn[0])
			add_unique(wwn, &nw, e->wwn, true);
	}
	ser[ns++] = "";
	wwn[nw++] = "";
	wwn[nw++] = "\x01"; /* a WWN no record carries */
	for (size_t a = 0; a < ns; a++)
		for (size_t b = 0; b < nw; b++)
			if (ser[a][0] ||
			    (wwn[b][0] && wwn[b][0] != '\x01')) /* else: matches none */
				keep_for_query(v, idx, m, Q_IDS, ser[a], wwn[b], keep);
	free(ser);
	free(wwn);
	return 0;
}

/* A serial or WWN of a record, to link the records that share one. */
struct idkey {
	const char *key;
	bool wwn;
	size_t rec;
};

static int idkey_cmp(const void *pa, const void *pb)
{
	const struct idkey *a = pa, *b = pb;
	int d = (int)a->wwn - (int)b->wwn;

	if (!d)
		d = a->wwn ? strcasecmp(a->key, b->key) : strcmp(a->key, b->key);
	return d ? d : (a->rec > b->rec) - (a->rec < b->rec);
}

static size_t uf_root(size_t *parent, size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* For sorting the records by group, then by their place in the journal. */
static size_t *sort_root;

static int by_group(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	size_t ra = sort_root[a], rb = sort_root[b];

	if (ra != rb)
		return (ra > rb) - (ra < rb);
	return (a > b) - (a < b);
}

/* keep[i]: record i of v[0..n) is kept by compaction. Called under cache_mu
 * (sort_root is one, as qsort takes no argument). */
static int compact_keep(const struct journal_entry *v, size_t n, bool *keep)
{
	struct idkey *keys = malloc((2 * n + 1) * sizeof(*keys));
	size_t *parent = malloc((n + 1) * sizeof(*parent)),
	       *order = malloc((n + 1) * sizeof(*order));
	size_t nk = 0;
	int rc = 0;

	if (!keys || !parent || !order) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		parent[i] = i;
		order[i] = i;
		if (v[i].serial[0])
			keys[nk++] = (struct idkey){ v[i].serial, false, i };
		if (v[i].wwn[0])
			keys[nk++] = (struct idkey){ v[i].wwn, true, i };
	}
	qsort(keys, nk, sizeof(*keys), idkey_cmp);
	for (size_t k = 1; k < nk; k++) {
		struct idkey a = keys[k - 1], b = keys[k];

		a.rec = b.rec = 0;
		if (!idkey_cmp(&a, &b))
			parent[uf_root(parent, keys[k].rec)] = uf_root(parent, keys[k - 1].rec);
	}
	for (size_t i = 0; i < n; i++)
		parent[i] = uf_root(parent, i);
	sort_root = parent;
	qsort(order, n, sizeof(*order), by_group);
	for (size_t a = 0, b; a < n && !rc; a = b) {
		for (b = a + 1; b < n && parent[order[b]] == parent[order[a]]; b++)
			;
		rc = keep_group(v, order + a, b - a, keep);
	}
out:
	free(keys);
	free(parent);
	free(order);
	return rc;
}

/* The kept records as the new journal's lines, each marked a snapshot. */
static int compact_text(const struct journal_entry *v, size_t n, const bool *keep, char **out,
			size_t *len)
{
	size_t cap = 4096, l = 0;
	char *buf = malloc(cap);

	for (size_t i = 0; buf && i < n; i++) {
		struct journal_entry e = v[i];
		json_object *o;
		const char *t;
		size_t tl;

		if (!keep[i])
			continue;
		e.snapshot = true;
		o = entry_to_json(&e);
		t = o ? plain(o) : NULL;
		tl = t ? strlen(t) : 0;
		if (!t || l + tl + 2 > cap) {
			char *nb = t ? realloc(buf, (cap = (l + tl + 2) * 2)) : NULL;

			if (!nb) {
				json_object_put(o);
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		memcpy(buf + l, t, tl);
		l += tl;
		buf[l++] = '\n';
		json_object_put(o);
	}
	*out = buf;
	*len = l;
	return buf ? 0 : -ENOMEM;
}

/* The number of an archived journal's name, journal.NNNNNN.jsonl, or 0. */
static unsigned archive_number(const char *name)
{
	unsigned n = 0;
	int end = 0;

	if (sscanf(name, "journal.%u.jsonl%n", &n, &end) != 1 || name[end])
		return 0;
	return n;
}

/* The newest archive of journal.d, the one name besides its own that the
 * journal may have (a compaction stopped between its link and its rename:
 * file_open_private_twin); "" when there is none. */
static void journal_twin(const char *state_dir, char *out, size_t len)
{
	char dir[4096];
	unsigned top = 0;
	struct dirent *d;
	DIR *dh;

	out[0] = '\0';
	journal_history_dir(state_dir, dir, sizeof(dir));
	dh = opendir(dir);
	if (!dh)
		return;
	while ((d = readdir(dh)))
		if (archive_number(d->d_name) > top)
			top = archive_number(d->d_name);
	closedir(dh);
	if (top)
		snprintf(out, len, "%s/journal.%06u.jsonl", dir, top);
}

/* The same, for the journal's own path (STATE/journal.jsonl). */
static void journal_twin_of(const char *journal, char *out, size_t len)
{
	char dir[4096];
	const char *slash = strrchr(journal, '/');
	size_t n = slash ? (size_t)(slash - journal) : 1;

	snprintf(dir, sizeof(dir), "%.*s", (int)n, slash ? journal : ".");
	journal_twin(dir, out, len);
}

/*
 * Link the journal as it is into journal.d, under the next number; fsync
 * journal.d. When the newest archive is already this file (a compaction
 * killed between this link and its rename), it is not linked twice.
 */
static int archive_live(const char *state_dir, const char *live, struct ss_error *err)
{
	char dir[4096], path[4200];
	struct stat lst, ast;
	unsigned top = 0;
	struct dirent *d;
	DIR *dh;
	int rc;

	journal_history_dir(state_dir, dir, sizeof(dir));
	rc = file_mkdirs(dir, err);
	if (rc)
		return rc;
	if (stat(live, &lst))
		return ss_error_set(err, -errno, "cannot read the journal %s: %s", live,
				    strerror(errno));
	dh = opendir(dir);
	if (!dh)
		return ss_error_set(err, -errno, "cannot read %s: %s", dir, strerror(errno));
	while ((d = readdir(dh)))
		if (archive_number(d->d_name) > top)
			top = archive_number(d->d_name);
	closedir(dh);
	snprintf(path, sizeof(path), "%s/journal.%06u.jsonl", dir, top);
	if (top && !stat(path, &ast) && ast.st_dev == lst.st_dev && ast.st_ino == lst.st_ino)
		return 0;
	snprintf(path, sizeof(path), "%s/journal.%06u.jsonl", dir, top + 1);
	if (link(live, path))
		return ss_error_set(err, -errno, "cannot keep the journal's history as %s: %s",
				    path, strerror(errno));
	rc = file_sync_dir(dir);
	if (rc)
		return ss_error_set(err, rc, "cannot sync %s: %s", dir, strerror(-rc));
	return 0;
}

/* Temporary files of a compaction killed before its rename (only a
 * compaction, under the exclusive lock, makes them). */
static void remove_stale_temps(const char *state_dir)
{
	static const char stem[] = "journal.jsonl.tmp.";
	struct dirent *d;
	DIR *dh = opendir(state_dir);

	if (!dh)
		return;
	while ((d = readdir(dh))) {
		char path[4400];

		if (strncmp(d->d_name, stem, sizeof(stem) - 1))
			continue;
		snprintf(path, sizeof(path), "%s/%s", state_dir, d->d_name);
		unlink(path);
	}
	closedir(dh);
}

/* Compact the journal c reads: called under the exclusive lock and cache_mu,
 * with c up to date. */
static int compact_locked(const char *state_dir, struct jcache *c, struct ss_error *err)
{
	bool *keep;
	char *text = NULL;
	size_t len = 0;
	int rc;

	for (size_t i = 0; i < c->nbad; i++)
		if (!c->bad[i].torn)
			return ss_error_set(err, -EBADMSG,
					    "%s:%u: a line that cannot be read (%s): the journal "
					    "is not compacted until it is repaired",
					    c->path, c->bad[i].line, c->bad[i].why);
	keep = calloc(c->n + 1, sizeof(*keep));
	if (!keep)
		return ss_error_nomem(err);
	rc = compact_keep(c->v, c->n, keep);
	if (!rc)
		rc = compact_text(c->v, c->n, keep, &text, &len);
	free(keep);
	if (rc) {
		free(text);
		return ss_error_set(err, rc, "out of memory");
	}
	remove_stale_temps(state_dir);
	rc = archive_live(state_dir, c->path, err);
	if (!rc)
		rc = file_write_private(c->path, text, len, 0644, "the journal", err);
	free(text);
	cache_reset(c); /* another file now: read again */
	return rc;
}

/* From journal_append, under the exclusive lock: compact when the journal
 * is past the size and more than twice its snapshot, or now. A failure is
 * warned about once: the record was written. */
static void maybe_compact(const char *state_dir, const char *path, bool now)
{
	struct ss_error e2 = { 0 };
	struct jcache *c;

	pthread_mutex_lock(&cache_mu);
	c = cache_get(path);
	if (c && !cache_update(c, &e2) &&
	    (now || ((size_t)c->off > compact_bytes && c->off > 2 * c->snap_end)) &&
	    compact_locked(state_dir, c, &e2) && !c->compact_warned) {
		c->compact_warned = true;
		warn(e2.msg);
	}
	pthread_mutex_unlock(&cache_mu);
}

int journal_compact(const char *state_dir, struct ss_error *err)
{
	char path[4096];
	struct stat st;
	struct jcache *c;
	int lfd, rc;

	journal_path(state_dir, path, sizeof(path));
	if (stat(path, &st))
		return errno == ENOENT ? 0
				       : ss_error_set(err, -errno, "cannot read the journal %s: %s",
						      path, strerror(errno));
	lfd = lock_take(state_dir, true, err);
	if (lfd < 0)
		return lfd;
	pthread_mutex_lock(&cache_mu);
	c = cache_get(path);
	rc = c ? cache_update(c, err) : ss_error_nomem(err);
	if (!rc)
		rc = compact_locked(state_dir, c, err);
	pthread_mutex_unlock(&cache_mu);
	lock_drop(lfd);
	return rc;
}

/* ---- one process per disk ------------------------------------------------------ */

int journal_lock_disk(const char *state_dir, const char *serial, const char *wwn, int *fd,
		      struct ss_error *err)
{
	const char *id = wwn && *wwn ? wwn : serial;
	char dir[4096], path[4200], name[64];
	size_t k = 0;
	int rc;

	*fd = -1;
	if (!id || !*id)
		return 0;
	for (const char *p = id; *p && k + 1 < sizeof(name); p++)
		name[k++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			     (*p >= '0' && *p <= '9') || *p == '-' || *p == '.')
				? *p
				: '_';
	name[k] = '\0';
	rc = file_state_dir(state_dir, "locks", err);
	if (rc)
		return rc;
	snprintf(dir, sizeof(dir), "%s/locks", state_dir);
	snprintf(path, sizeof(path), "%s/%s.lock", dir, name);
	rc = file_lock_try(path, fd, err); /* made durable when new */
	if (rc == -EBUSY)
		return ss_error_set(err, rc,
				    "another shortstroke process is changing this disk (serial "
				    "%s) right now; let it finish, then run the command again",
				    serial && *serial ? serial : wwn);
	return rc;
}

void journal_unlock_disk(int fd)
{
	if (fd >= 0)
		close(fd);
}
