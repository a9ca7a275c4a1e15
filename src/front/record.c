#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "xalloc.h"

struct line {
	char *label;
	char *text;
};

struct record {
	json_object *obj;
	struct line *lines;
	unsigned n;
};

struct record *record_new(void)
{
	struct record *r = xcalloc(1, sizeof(*r));

	r->obj = json_object_new_object();
	return r;
}

void record_free(struct record *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->n; i++) {
		free(r->lines[i].label);
		free(r->lines[i].text);
	}
	free(r->lines);
	json_object_put(r->obj);
	free(r);
}

static void add_line(struct record *r, const char *label, const char *text)
{
	r->lines = xrealloc(r->lines, (r->n + 1) * sizeof(*r->lines));
	r->lines[r->n].label = xstrdup(label);
	r->lines[r->n].text = xstrdup(text && *text ? text : "-");
	r->n++;
}

void record_mixed(struct record *r, const char *label, const char *text, const char *key,
		  json_object *json)
{
	if (label && text)
		add_line(r, label, text);
	if (key)
		json_object_object_add(r->obj, key, json);
	else
		json_object_put(json);
}

void record_str(struct record *r, const char *label, const char *key, const char *v)
{
	record_mixed(r, label, v ? v : "", key, v && *v ? json_object_new_string(v) : NULL);
}

void record_u64(struct record *r, const char *label, const char *key, uint64_t v,
		const char *unit)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%" PRIu64 "%s%s", v, unit ? " " : "", unit ? unit : "");
	record_mixed(r, label, buf, key, json_object_new_uint64(v));
}

void record_bool(struct record *r, const char *label, const char *key, bool v)
{
	record_mixed(r, label, v ? "yes" : "no", key, json_object_new_boolean(v));
}

void record_null(struct record *r, const char *label, const char *key, const char *text)
{
	record_mixed(r, label, text, key, NULL);
}

void record_print(struct record *r, FILE *f, bool json)
{
	size_t w = 0;

	if (json) {
		fprintf(f, "%s\n",
			json_object_to_json_string_ext(r->obj, JSON_C_TO_STRING_PRETTY |
								       JSON_C_TO_STRING_SPACED |
								       JSON_C_TO_STRING_NOSLASHESCAPE));
		return;
	}
	for (unsigned i = 0; i < r->n; i++)
		if (strlen(r->lines[i].label) > w)
			w = strlen(r->lines[i].label);
	for (unsigned i = 0; i < r->n; i++)
		fprintf(f, "%s:%*s %s\n", r->lines[i].label,
			(int)(w - strlen(r->lines[i].label)), "", r->lines[i].text);
}

unsigned record_count(const struct record *r)
{
	return r->n;
}

void record_line(const struct record *r, unsigned i, const char **label, const char **text)
{
	*label = r->lines[i].label;
	*text = r->lines[i].text;
}
