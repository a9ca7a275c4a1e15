/* journal.c - the journal of capacity changes: JSON lines in
 * <state_dir>/journal.jsonl, appended under <state_dir>/journal.lock.
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
 * replaced (another inode) or shortened is read again from the start.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	uint64_t bl;
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
	    (rc = get_u64(o, "block_len", &bl, err)) ||
	    (rc = get_u64(o, "native_blocks", &out->native_blocks, err)) ||
	    (rc = get_u64(o, "original_blocks", &out->original_blocks, err)) ||
	    (rc = get_u64(o, "target_blocks", &out->target_blocks, err)))
		return rc;
	if (bl > UINT32_MAX)
		return ss_error_set(err, -EINVAL, "field \"block_len\": out of range");
	out->block_len = (uint32_t)bl;
	if (json_object_object_get_ex(o, "volatile", &v))
		out->volatile_ = json_object_get_boolean(v);
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
		return ss_error_set(err, -ENOMEM, "out of memory");
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

static void fsync_dir(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

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
	char path[4096], *buf;
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
		return ss_error_set(err, -ENOMEM, "out of memory");
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
	fd = file_open_private(path, O_RDWR | O_APPEND | O_CREAT, 0644, "the journal", err);
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
	if (st.st_size == 0)
		fsync_dir(state_dir);
	return 0;
}

/* ---- reading ------------------------------------------------------------------- */

/* A line that gave no record. */
struct jbad {
	unsigned line;
	bool torn; /* incomplete JSON: a write cut short */
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

/* One complete line: every record on it (old journals may hold two,
 * "}{", from appends that interleaved), or what is wrong with it. */
static int parse_line_into(struct jcache *c, const char *line, size_t len, unsigned lineno)
{
	struct json_tokener *tok;
	size_t pos = 0;
	int rc = 0;

	if (len > LINE_MAX_BYTES)
		return push_bad(c, lineno, line, len, false, NULL, "line too long");
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	while (!rc) {
		enum json_tokener_error jerr;
		struct journal_entry e;
		struct ss_error e2 = { 0 };
		json_object *o;

		while (pos < len && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r'))
			pos++;
		if (pos == len)
			break;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, line + pos, (int)(len - pos));
		jerr = json_tokener_get_error(tok);
		if (!o && jerr == json_tokener_continue) {
			rc = push_bad(c, lineno, line + pos, len - pos, true, NULL,
				      "an incomplete record");
			break;
		}
		if (!o || jerr != json_tokener_success) {
			rc = push_bad(c, lineno, line + pos, len - pos, false, NULL,
				      o ? json_tokener_error_desc(jerr) : "not a JSON object");
			json_object_put(o);
			break;
		}
		if (entry_from_json(o, &e, &e2)) {
			rc = push_bad(c, lineno, line + pos, len - pos, false, o, e2.msg);
			json_object_put(o);
			break;
		}
		json_object_put(o);
		e.line = lineno;
		rc = push_entry(c, &e);
		pos += json_tokener_get_parse_end(tok);
	}
	json_tokener_free(tok);
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

/* Read what was appended since the last time. Called under cache_mu and
 * the journal's shared lock. */
static int cache_update(struct jcache *c, struct ss_error *err)
{
	char *buf = NULL;
	struct stat st;
	size_t len, start = 0;
	ssize_t r;
	int fd, rc = 0;

	fd = file_open_private(c->path, O_RDONLY, 0, "the journal", err);
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

		if (!nl) {
			warn_tail(c, c->lines + 1);
			break;
		}
		c->lines++;
		if (nl > buf + start)
			rc = parse_line_into(c, buf + start, (size_t)(nl - buf - start), c->lines);
		start = (size_t)(nl - buf) + 1;
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
		if (b->warned)
			continue;
		b->warned = true;
		if (b->torn)
			snprintf(msg, sizeof(msg),
				 "%s:%u: an incomplete record (a write cut short by a crash) is "
				 "ignored: it was never complete, so the command it describes "
				 "was never sent",
				 c->path, b->line);
		else
			snprintf(msg, sizeof(msg),
				 "%s:%u: a line that cannot be read (%s) is ignored: it concerns "
				 "another disk (serial %s%s%s)",
				 c->path, b->line, b->why, b->serial[0] ? b->serial : "-",
				 b->wwn[0] ? ", WWN " : "", b->wwn);
		warn(msg);
	}
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
	rc = c ? cache_update(c, err) : ss_error_set(err, -ENOMEM, "out of memory");
	lock_drop(lfd);
	if (!rc)
		rc = check_bad(c, serial, wwn, c->nbad, err);
	if (!rc && c->n) {
		mine = malloc(c->n * sizeof(*mine));
		if (!mine)
			rc = ss_error_set(err, -ENOMEM, "out of memory");
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
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "the state directory %s", state_dir);
	fd = file_dir_check(state_dir, true, path, err);
	lock_path(state_dir, path, sizeof(path));
	if (!fd)
		fd = file_open_private(path, O_RDONLY, 0, "the journal's lock", err);
	if (fd >= 0)
		close(fd);
	journal_path(state_dir, path, sizeof(path));
	if (fd >= 0 || fd == -ENOENT)
		fd = file_open_private(path, O_RDONLY, 0, "the journal", err);
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
	rc = file_lock_try(path, fd, err);
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
