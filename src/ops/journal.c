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

#include "shortstroke/journal.h"

void journal_path(const char *state_dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/journal.jsonl", state_dir);
}

static json_object *entry_to_json(const struct journal_entry *e)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "time", json_object_new_string(e->time));
	json_object_object_add(o, "event", json_object_new_string(e->event));
	json_object_object_add(o, "device", json_object_new_string(e->device));
	json_object_object_add(o, "serial", json_object_new_string(e->serial));
	json_object_object_add(o, "wwn", json_object_new_string(e->wwn));
	json_object_object_add(o, "model", json_object_new_string(e->model));
	json_object_object_add(o, "method", json_object_new_string(e->method));
	json_object_object_add(o, "block_len", json_object_new_uint64(e->block_len));
	json_object_object_add(o, "native_blocks", json_object_new_uint64(e->native_blocks));
	json_object_object_add(o, "original_blocks",
			       json_object_new_uint64(e->original_blocks));
	json_object_object_add(o, "target_blocks", json_object_new_uint64(e->target_blocks));
	json_object_object_add(o, "volatile", json_object_new_boolean(e->volatile_));
	return o;
}

static int mkdir_p(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int journal_append(const char *state_dir, struct journal_entry *e, struct ss_error *err)
{
	char path[4096];
	json_object *o;
	const char *text;
	struct stat st;
	bool created;
	time_t now = time(NULL);
	struct tm tm;
	size_t len;
	int fd, rc;

	rc = mkdir_p(state_dir);
	if (rc)
		return ss_error_set(err, rc, "cannot create the state directory %s: %s",
				    state_dir, strerror(-rc));
	gmtime_r(&now, &tm);
	strftime(e->time, sizeof(e->time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	journal_path(state_dir, path, sizeof(path));
	created = stat(path, &st) != 0;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return ss_error_set(err, -errno, "cannot open the journal %s: %s", path,
				    strerror(errno));
	o = entry_to_json(e);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	len = strlen(text);
	rc = 0;
	if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1 || fsync(fd))
		rc = ss_error_set(err, -errno ? -errno : -EIO,
				  "cannot write the journal %s: %s; nothing was changed", path,
				  strerror(errno ? errno : EIO));
	json_object_put(o);
	close(fd);
	if (!rc && created) {
		int dfd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	return rc;
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

int journal_parse_line(const char *line, size_t len, struct journal_entry *out,
		       struct ss_error *err)
{
	struct json_tokener *tok;
	json_object *o, *v;
	uint64_t bl;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (len > 1 << 16)
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
	if ((rc = get_str(o, "time", out->time, sizeof(out->time), false, err)) ||
	    (rc = get_str(o, "event", out->event, sizeof(out->event), true, err)) ||
	    (rc = get_str(o, "device", out->device, sizeof(out->device), false, err)) ||
	    (rc = get_str(o, "serial", out->serial, sizeof(out->serial), false, err)) ||
	    (rc = get_str(o, "wwn", out->wwn, sizeof(out->wwn), false, err)) ||
	    (rc = get_str(o, "model", out->model, sizeof(out->model), false, err)) ||
	    (rc = get_str(o, "method", out->method, sizeof(out->method), false, err)) ||
	    (rc = get_u64(o, "block_len", &bl, err)) ||
	    (rc = get_u64(o, "native_blocks", &out->native_blocks, err)) ||
	    (rc = get_u64(o, "original_blocks", &out->original_blocks, err)) ||
	    (rc = get_u64(o, "target_blocks", &out->target_blocks, err)))
		goto out;
	if (bl > UINT32_MAX) {
		rc = ss_error_set(err, -EINVAL, "field \"block_len\": out of range");
		goto out;
	}
	out->block_len = (uint32_t)bl;
	if (json_object_object_get_ex(o, "volatile", &v))
		out->volatile_ = json_object_get_boolean(v);
	if (!out->serial[0] && !out->wwn[0])
		rc = ss_error_set(err, -EINVAL, "entry names no serial and no WWN");
out:
	json_object_put(o);
	return rc;
}

static bool same_disk(const struct journal_entry *e, const char *serial, const char *wwn)
{
	if (wwn && *wwn && e->wwn[0] && !strcasecmp(wwn, e->wwn))
		return true;
	return serial && *serial && e->serial[0] && !strcmp(serial, e->serial);
}

int journal_for_disk(const char *state_dir, const char *serial, const char *wwn,
		     int (*fn)(void *arg, const struct journal_entry *e), void *arg,
		     struct ss_error *err)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;
	FILE *f;
	int rc = 0;

	journal_path(state_dir, path, sizeof(path));
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return ss_error_set(err, -errno, "cannot read the journal %s: %s", path,
				    strerror(errno));
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct journal_entry e;

		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		rc = journal_parse_line(line, (size_t)n, &e, err);
		if (rc) {
			ss_error_prefix(err, "%s:%u: ", path, lineno);
			break;
		}
		if (!same_disk(&e, serial, wwn))
			continue;
		rc = fn(arg, &e);
		if (rc)
			break;
	}
	free(line);
	fclose(f);
	return rc;
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

int journal_original(const char *state_dir, const char *serial, const char *wwn,
		     struct journal_entry *out, struct ss_error *err)
{
	struct original_scan s;
	int rc;

	memset(&s, 0, sizeof(s));
	rc = journal_for_disk(state_dir, serial, wwn, original_cb, &s, err);
	if (rc)
		return rc;
	if (!s.open)
		return -ENOENT;
	*out = s.first;
	return 0;
}
