/* protect.c - the protect file: parse, match, and rewrite it atomically. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shortstroke/fileio.h"
#include "shortstroke/protect.h"

#define PROTECT_VALUE_MAX 64
#define PROTECT_FILE_MAX (1u << 20)

struct protect_entry {
	enum protect_kind kind;
	unsigned line;
	char value[PROTECT_VALUE_MAX + 1]; /* as written */
	char wnorm[PROTECT_VALUE_MAX + 1]; /* normalized WWN, "" if none */
};

struct protect_list {
	struct protect_entry *e;
	size_t n, cap;
};

/* Text being rewritten: the bytes of the file and its parse. */
struct protect_text {
	char *buf;
	size_t len;
	struct protect_list *list;
	mode_t mode;
	bool exists;
};

static int wwn_norm(const char *in, char *out, size_t len);
static int parse_line(char *s, unsigned line, const char *origin, struct protect_list *l,
		      struct ss_error *err);
static int list_push(struct protect_list *l, const struct protect_entry *e);
static bool entry_equal(const struct protect_entry *a, const struct protect_entry *b);
static int read_all(const char *path, char **buf, size_t *len, mode_t *mode, struct ss_error *err);
static int text_load(const char *path, struct protect_text *t, struct ss_error *err);
static void text_fini(struct protect_text *t);
static int write_atomic(const char *path, const char *buf, size_t len, mode_t mode,
			struct ss_error *err);
static int entry_make(enum protect_kind kind, const char *value, struct protect_entry *e,
		      struct ss_error *err);

const char *protect_default_path(void)
{
	return "/etc/shortstroke/protect.conf";
}

const char *protect_kind_name(enum protect_kind k)
{
	switch (k) {
	case PROTECT_SERIAL:
		return "serial";
	case PROTECT_WWN:
		return "wwn";
	case PROTECT_ANY:
		break;
	}
	return "any";
}

static bool is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool has_prefix_ci(const char *s, const char *p)
{
	return !strncasecmp(s, p, strlen(p));
}

/*
 * "0x5000C500A1B2C3D4", "naa.5000c500…", "wwn-0x5000c500…" ->
 * "5000c500a1b2c3d4"; "eui.0025385B…" -> "eui.0025385b…". -EINVAL when
 * what is left is not 1-32 hex digits.
 */
static int wwn_norm(const char *in, char *out, size_t len)
{
	const char *p = in;
	size_t o = 0, n;

	if (has_prefix_ci(p, "wwn-"))
		p += 4;
	if (has_prefix_ci(p, "0x")) {
		p += 2;
	} else if (has_prefix_ci(p, "naa.")) {
		p += 4;
	} else if (has_prefix_ci(p, "eui.")) {
		if (len < 5)
			return -EINVAL;
		memcpy(out, "eui.", 4);
		o = 4;
		p += 4;
	}
	n = strlen(p);
	if (!n || n > 32 || o + n >= len)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return -EINVAL;
		out[o++] = (char)tolower((unsigned char)p[i]);
	}
	out[o] = '\0';
	return 0;
}

static int list_push(struct protect_list *l, const struct protect_entry *e)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct protect_entry *ne = realloc(l->e, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		l->e = ne;
		l->cap = cap;
	}
	l->e[l->n++] = *e;
	return 0;
}

/* Check one value of a given kind and fill e; message without location. */
static int entry_make(enum protect_kind kind, const char *value, struct protect_entry *e,
		      struct ss_error *err)
{
	size_t n = strlen(value);

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	if (!n)
		return ss_error_set(err, -EINVAL, "%s entry has no value", protect_kind_name(kind));
	if (n > PROTECT_VALUE_MAX)
		return ss_error_set(err, -EINVAL, "value is %zu characters long, more than %d", n,
				    PROTECT_VALUE_MAX);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)value[i];

		if (is_blank(c))
			return ss_error_set(
			    err, -EINVAL, "\"%s\" has whitespace in it; one serial or WWN per line",
			    value);
		if (c < 0x21 || c > 0x7e)
			return ss_error_set(err, -EINVAL,
					    "value has a non-printable character (0x%02x)", c);
	}
	memcpy(e->value, value, n + 1);
	if (kind == PROTECT_SERIAL)
		return 0;
	if (wwn_norm(value, e->wnorm, sizeof(e->wnorm)) < 0) {
		e->wnorm[0] = '\0';
		if (kind == PROTECT_WWN)
			return ss_error_set(
			    err, -EINVAL,
			    "\"%s\" is not a WWN (hex digits, optionally after 0x, naa. or eui.)",
			    value);
	}
	return 0;
}

/* s: one line, NUL-terminated, writable. */
static int parse_line(char *s, unsigned line, const char *origin, struct protect_list *l,
		      struct ss_error *err)
{
	enum protect_kind kind = PROTECT_ANY;
	struct protect_entry e;
	char *end, *colon;
	int r;

	/* comment: '#' first or after whitespace */
	for (char *p = s; *p; p++) {
		if (*p == '#' && (p == s || is_blank((unsigned char)p[-1]))) {
			*p = '\0';
			break;
		}
	}
	while (is_blank((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_blank((unsigned char)end[-1]))
		*--end = '\0';
	if (!*s)
		return 0;

	colon = strchr(s, ':');
	if (colon) {
		size_t klen = (size_t)(colon - s);
		bool alpha = klen > 0;

		for (size_t i = 0; i < klen; i++)
			if (!isalpha((unsigned char)s[i]))
				alpha = false;
		if (alpha) {
			if (klen == 6 && !strncasecmp(s, "serial", 6))
				kind = PROTECT_SERIAL;
			else if (klen == 3 && !strncasecmp(s, "wwn", 3))
				kind = PROTECT_WWN;
			else
				return ss_error_set(
				    err, -EINVAL,
				    "%s:%u: unknown kind \"%.*s\" (use serial: or wwn:)", origin,
				    line, (int)(klen > 32 ? 32 : klen), s);
			s = colon + 1;
			while (is_blank((unsigned char)*s))
				s++;
		}
	}
	r = entry_make(kind, s, &e, err);
	if (r)
		return ss_error_prefix(err, "%s:%u: ", origin, line);
	e.line = line;
	r = list_push(l, &e);
	if (r)
		return ss_error_set(err, r, "out of memory");
	return 0;
}

int protect_parse(const char *text, size_t len, const char *origin, struct protect_list **out,
		  struct ss_error *err)
{
	struct protect_list *l;
	char linebuf[512];
	unsigned line = 0;
	size_t pos = 0;
	int r = 0;

	*out = NULL;
	if (!origin)
		origin = "protect file";
	l = calloc(1, sizeof(*l));
	if (!l)
		return ss_error_nomem(err);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		line++;
		if (memchr(text + pos, '\0', n)) {
			r = ss_error_set(err, -EINVAL, "%s:%u: NUL byte in line", origin, line);
			break;
		}
		if (n >= sizeof(linebuf)) {
			r = ss_error_set(err, -EINVAL, "%s:%u: line longer than %zu characters",
					 origin, line, sizeof(linebuf) - 1);
			break;
		}
		memcpy(linebuf, text + pos, n);
		linebuf[n] = '\0';
		r = parse_line(linebuf, line, origin, l, err);
		if (r)
			break;
		pos += n + (nl ? 1 : 0);
	}
	if (r) {
		protect_free(l);
		return r;
	}
	*out = l;
	return 0;
}

void protect_free(struct protect_list *l)
{
	if (!l)
		return;
	free(l->e);
	free(l);
}

size_t protect_count(const struct protect_list *l)
{
	return l ? l->n : 0;
}

int protect_get(const struct protect_list *l, size_t i, enum protect_kind *kind, const char **value,
		unsigned *line)
{
	if (!l || i >= l->n)
		return -ERANGE;
	if (kind)
		*kind = l->e[i].kind;
	if (value)
		*value = l->e[i].value;
	if (line)
		*line = l->e[i].line;
	return 0;
}

/* Copy s without surrounding whitespace into buf; "" when it does not fit. */
static const char *trimmed(const char *s, char *buf, size_t len)
{
	size_t n;

	if (!s)
		return "";
	while (is_blank((unsigned char)*s) || *s == '\n')
		s++;
	n = strlen(s);
	while (n && (is_blank((unsigned char)s[n - 1]) || s[n - 1] == '\n'))
		n--;
	if (n >= len)
		return "";
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

bool protect_match(const struct protect_list *l, const char *serial, const char *wwn)
{
	char sbuf[PROTECT_VALUE_MAX + 1], wbuf[PROTECT_VALUE_MAX + 1];
	char wnorm[PROTECT_VALUE_MAX + 1] = "";
	const char *s, *w;

	if (!l)
		return false;
	s = trimmed(serial, sbuf, sizeof(sbuf));
	w = trimmed(wwn, wbuf, sizeof(wbuf));
	if (*w && wwn_norm(w, wnorm, sizeof(wnorm)) < 0)
		wnorm[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		const struct protect_entry *e = &l->e[i];

		if (e->kind != PROTECT_WWN && *s && !strcasecmp(e->value, s))
			return true;
		if (e->kind != PROTECT_SERIAL && *wnorm && *e->wnorm && !strcmp(e->wnorm, wnorm))
			return true;
	}
	return false;
}

/* Same disk named the same way (kinds compatible, values equal). */
static bool entry_equal(const struct protect_entry *a, const struct protect_entry *b)
{
	if (a->kind != PROTECT_WWN && b->kind != PROTECT_WWN && !strcasecmp(a->value, b->value))
		return true;
	if (a->kind != PROTECT_SERIAL && b->kind != PROTECT_SERIAL && *a->wnorm &&
	    !strcmp(a->wnorm, b->wnorm))
		return true;
	return false;
}

/* ---- loading and writing files ---- */

static int read_all(const char *path, char **buf, size_t *len, mode_t *mode, struct ss_error *err)
{
	struct stat st;
	size_t have = 0;
	char *b;
	int fd, r = 0;

	*buf = NULL;
	*len = 0;
	/* a FIFO or a device is refused before it is opened (an open would wait) */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return ss_error_set(err, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
				    "%s: not a regular file", path);
	fd = file_open_config(path, "the protect file", err);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		r = ss_error_set(err, -errno, "%s: %s", path, strerror(errno));
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return ss_error_set(err, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
				    "%s: not a regular file", path);
	}
	if ((uint64_t)st.st_size > PROTECT_FILE_MAX) {
		close(fd);
		return ss_error_set(err, -EFBIG, "%s: larger than %u bytes", path,
				    PROTECT_FILE_MAX);
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		close(fd);
		return ss_error_nomem(err);
	}
	while (have <= (size_t)st.st_size) {
		ssize_t got = read(fd, b + have, (size_t)st.st_size + 1 - have);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = ss_error_set(err, -errno, "%s: %s", path, strerror(errno));
			break;
		}
		if (got == 0)
			break;
		have += (size_t)got;
	}
	close(fd);
	if (!r && have > (size_t)st.st_size)
		r = ss_error_set(err, -EAGAIN, "%s: changed while being read", path);
	if (r) {
		free(b);
		return r;
	}
	if (mode)
		*mode = st.st_mode & 07777;
	*buf = b;
	*len = have;
	return 0;
}

int protect_load(const char *path, struct protect_list **out, struct ss_error *err)
{
	size_t len;
	char *buf;
	int r;

	*out = NULL;
	if (!path)
		path = protect_default_path();
	r = read_all(path, &buf, &len, NULL, err);
	if (r == -ENOENT) {
		ss_error_clear(err); /* no file: nothing protected */
		return protect_parse("", 0, path, out, err);
	}
	if (r < 0)
		return r;
	r = protect_parse(buf, len, path, out, err);
	free(buf);
	return r;
}

static int text_load(const char *path, struct protect_text *t, struct ss_error *err)
{
	int r;

	memset(t, 0, sizeof(*t));
	t->mode = 0644;
	r = read_all(path, &t->buf, &t->len, &t->mode, err);
	if (r == -ENOENT) {
		ss_error_clear(err);
		t->buf = NULL;
		t->len = 0;
	} else if (r < 0) {
		return r;
	} else {
		t->exists = true;
	}
	r = protect_parse(t->buf ? t->buf : "", t->len, path, &t->list, err);
	if (r) {
		ss_error_prefix(err, "not changed: ");
		free(t->buf);
		t->buf = NULL;
	}
	return r;
}

static void text_fini(struct protect_text *t)
{
	free(t->buf);
	protect_free(t->list);
}

/* The directory part of path ("." when none), in buf. */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		snprintf(buf, len, ".");
		return;
	}
	n = (size_t)(slash - path);
	if (!n)
		n = 1; /* "/file" */
	if (n >= len)
		n = len - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
}

static int write_atomic(const char *path, const char *buf, size_t len, mode_t mode,
			struct ss_error *err)
{
	char dir[PATH_MAX], what[PATH_MAX + 32];
	int rc;

	/* no other user may control where it is (a symbolic link of root's to
	 * a safe place is written through: file_write_atomic) */
	dir_of(path, dir, sizeof(dir));
	snprintf(what, sizeof(what), "the protect file %s", path);
	rc = file_dir_check(dir, false, what, err);
	if (rc)
		return rc;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return ss_error_set(err, -errno, "cannot create %s: %s", dir, strerror(errno));
	return file_write_atomic(path, buf, len, mode, "the protect file", err);
}

int protect_add(const char *path, enum protect_kind kind, const char *value, struct ss_error *err)
{
	struct protect_entry e;
	struct protect_text t;
	char *nbuf;
	size_t nlen, at;
	int r;

	if (!path)
		path = protect_default_path();
	r = entry_make(kind, value ? value : "", &e, err);
	if (r)
		return r;
	r = text_load(path, &t, err);
	if (r)
		return r;
	for (size_t i = 0; i < t.list->n; i++) {
		if (entry_equal(&t.list->e[i], &e)) {
			r = ss_error_set(err, -EEXIST, "%s is already protected (%s:%u)", value,
					 path, t.list->e[i].line);
			goto out;
		}
	}
	/* old text, a newline if it lacked one, "kind:value\n" */
	nlen = t.len + 1 + strlen("serial:") + strlen(e.value) + 1;
	nbuf = malloc(nlen + 1);
	if (!nbuf) {
		r = ss_error_nomem(err);
		goto out;
	}
	at = t.len;
	if (t.len)
		memcpy(nbuf, t.buf, t.len);
	if (t.len && t.buf[t.len - 1] != '\n')
		nbuf[at++] = '\n';
	at += (size_t)snprintf(nbuf + at, nlen + 1 - at, "%s%s%s\n",
			       kind == PROTECT_ANY ? "" : protect_kind_name(kind),
			       kind == PROTECT_ANY ? "" : ":", e.value);
	r = write_atomic(path, nbuf, at, t.mode, err);
	free(nbuf);
out:
	text_fini(&t);
	return r;
}

int protect_remove(const char *path, enum protect_kind kind, const char *value,
		   struct ss_error *err)
{
	struct protect_entry e;
	struct protect_text t;
	size_t pos = 0, at = 0, removed = 0;
	unsigned line = 0;
	char *nbuf = NULL;
	int r;

	if (!path)
		path = protect_default_path();
	r = entry_make(kind, value ? value : "", &e, err);
	if (r)
		return r;
	r = text_load(path, &t, err);
	if (r)
		return r;
	nbuf = malloc(t.len + 1);
	if (!nbuf) {
		r = ss_error_nomem(err);
		goto out;
	}
	/* entries are in line order: walk lines and entries together */
	for (size_t i = 0; pos < t.len;) {
		const char *nl = memchr(t.buf + pos, '\n', t.len - pos);
		size_t n = nl ? (size_t)(nl - (t.buf + pos)) + 1 : t.len - pos;
		bool drop = false;

		line++;
		while (i < t.list->n && t.list->e[i].line < line)
			i++;
		if (i < t.list->n && t.list->e[i].line == line && entry_equal(&t.list->e[i], &e))
			drop = true;
		if (drop) {
			removed++;
		} else {
			memcpy(nbuf + at, t.buf + pos, n);
			at += n;
		}
		pos += n;
	}
	if (!removed) {
		r = ss_error_set(err, -ENOENT, "%s is not listed in %s", value, path);
		goto out;
	}
	r = write_atomic(path, nbuf, at, t.mode, err);
out:
	free(nbuf);
	text_fini(&t);
	return r;
}
