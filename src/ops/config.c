/* config.c - the configuration file, /etc/shortstroke/shortstroke.conf. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/capacity.h"
#include "shortstroke/config.h"
#include "shortstroke/units.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

#define KEYS "state_dir, protect_file, limit_method, limit_align"

/* The slot a path key fills, or NULL for a key that is no path. */
static char *slot_of(struct ss_config *cfg, const char *key)
{
	if (!strcmp(key, "state_dir"))
		return cfg->state_dir;
	if (!strcmp(key, "protect_file"))
		return cfg->protect_file;
	return NULL;
}

/* limit_method and limit_align: 1 taken, 0 not such a key, or -errno */
static int parse_default(struct ss_config *cfg, const char *key, const char *val, unsigned n,
			 struct ss_error *err)
{
	enum cap_method m;
	struct size_spec sz;
	struct ss_error e = { 0 };

	if (!strcmp(key, "limit_method")) {
		if (cfg->limit_method[0])
			return ss_error_usage(err, -EINVAL, "%s line %u: %s is set twice",
					      cfg->path, n, key);
		if (cap_method_parse(val, &m) || strlen(val) >= sizeof(cfg->limit_method)) {
			char names[128];

			cap_method_names(names, sizeof(names), 0);
			return ss_error_usage(err, -EINVAL,
					      "%s line %u: unknown limit_method '%s' (%s)",
					      cfg->path, n, val, names);
		}
		strcpy(cfg->limit_method, val);
		return 1;
	}
	if (!strcmp(key, "limit_align")) {
		if (cfg->limit_align)
			return ss_error_usage(err, -EINVAL, "%s line %u: %s is set twice",
					      cfg->path, n, key);
		if (size_parse(val, &sz, &e) || sz.kind == SIZE_PERCENT ||
		    (sz.kind == SIZE_BYTES && !sz.bytes) || (sz.kind == SIZE_BLOCKS && !sz.blocks))
			return ss_error_usage(err, -EINVAL, "%s line %u: limit_align: %s",
					      cfg->path, n,
					      e.msg[0] ? e.msg : "give a size, as 1MiB");
		cfg->limit_align = sz.kind == SIZE_BLOCKS ? sz.blocks * 512 : sz.bytes;
		return 1;
	}
	return 0;
}

static int parse_line(struct ss_config *cfg, char *line, unsigned n, struct ss_error *err)
{
	char *s = trim(line), *eq, *key, *val, *slot;

	if (!*s || *s == '#')
		return 0;
	if (!(eq = strchr(s, '=')))
		return ss_error_usage(err, -EINVAL, "%s line %u: not KEY = VALUE: '%s'", cfg->path,
				      n, s);
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (!(slot = slot_of(cfg, key))) {
		int rc = parse_default(cfg, key, val, n, err);

		if (rc)
			return rc < 0 ? rc : 0;
		return ss_error_usage(err, -EINVAL, "%s line %u: unknown key '%s' (" KEYS ")",
				      cfg->path, n, key);
	}
	if (*slot)
		return ss_error_usage(err, -EINVAL, "%s line %u: %s is set twice", cfg->path, n,
				      key);
	if (*val != '/')
		return ss_error_usage(err, -EINVAL, "%s line %u: %s must be an absolute path%s",
				      cfg->path, n, key, *val ? ", not a relative one" : "");
	if (strlen(val) >= CONFIG_PATH_MAX)
		return ss_error_usage(err, -ENAMETOOLONG, "%s line %u: %s is too long", cfg->path,
				      n, key);
	strcpy(slot, val);
	if (slot == cfg->protect_file)
		snprintf(cfg->protect_origin, sizeof(cfg->protect_origin), "%s: protect_file",
			 cfg->path);
	return 0;
}

int config_parse(const char *text, size_t len, const char *path, struct ss_config *cfg,
		 struct ss_error *err)
{
	char line[CONFIG_PATH_MAX + 64];
	unsigned n = 0;
	size_t i = 0;
	int rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->path, sizeof(cfg->path), "%s", path);
	cfg->present = true;
	while (!rc && i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (text + i)) : len - i;

		n++;
		if (l >= sizeof(line))
			return ss_error_usage(err, -EINVAL, "%s line %u: too long", path, n);
		if (memchr(text + i, '\0', l))
			return ss_error_usage(err, -EINVAL, "%s line %u: a NUL byte", path, n);
		memcpy(line, text + i, l);
		line[l] = '\0';
		rc = parse_line(cfg, line, n, err);
		i += l + 1;
	}
	return rc;
}

int config_load(const char *path, bool must_exist, struct ss_config *cfg, struct ss_error *err)
{
	char *buf, *more;
	size_t len = 0, cap = 4096;
	int rc = 0;
	FILE *f;

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->path, sizeof(cfg->path), "%s", path);
	if (!(f = fopen(path, "re"))) {
		rc = -errno;
		if (rc == -ENOENT && !must_exist)
			return 0;
		return ss_error_usage(err, rc, "configuration file %s: %s", path, strerror(-rc));
	}
	if (!(buf = malloc(cap))) {
		fclose(f);
		return ss_error_nomem(err);
	}
	for (;;) {
		size_t got = fread(buf + len, 1, cap - len, f);

		len += got;
		if (len < cap)
			break;
		if (cap >= (size_t)1 << 20) { /* a configuration file, not a disk image */
			rc = ss_error_usage(err, -EFBIG, "configuration file %s: larger than 1 MiB",
					    path);
			break;
		}
		if (!(more = realloc(buf, cap * 2))) {
			rc = ss_error_nomem(err);
			break;
		}
		buf = more;
		cap *= 2;
	}
	if (!rc && ferror(f))
		rc = ss_error_set(err, -EIO, "configuration file %s: read error", path);
	fclose(f);
	if (!rc)
		rc = config_parse(buf, len, path, cfg, err);
	free(buf);
	return rc;
}
