/* config.c - the configuration file, /etc/shortstroke/shortstroke.conf. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/config.h"

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

/* The slot a key fills, or NULL for a key the file may not set. */
static char *slot_of(struct ss_config *cfg, const char *key)
{
	if (!strcmp(key, "state_dir"))
		return cfg->state_dir;
	if (!strcmp(key, "protect_file"))
		return cfg->protect_file;
	return NULL;
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
	if (!(slot = slot_of(cfg, key)))
		return ss_error_usage(err, -EINVAL,
				      "%s line %u: unknown key '%s' (state_dir, protect_file)",
				      cfg->path, n, key);
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

int config_load(const char *path, bool must_exist, struct ss_config *cfg, struct ss_error *err)
{
	char line[CONFIG_PATH_MAX + 64];
	unsigned n = 0;
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
	cfg->present = true;
	while (!rc && fgets(line, sizeof(line), f)) {
		n++;
		if (!strchr(line, '\n') && !feof(f))
			rc = ss_error_usage(err, -EINVAL, "%s line %u: too long", path, n);
		else
			rc = parse_line(cfg, line, n, err);
	}
	if (!rc && ferror(f))
		rc = ss_error_set(err, -EIO, "configuration file %s: read error", path);
	fclose(f);
	return rc;
}
