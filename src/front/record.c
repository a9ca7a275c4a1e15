/* record.c - the record renderer (record.h). */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "front_priv.h"
#include "record.h"
#include "table.h"
#include "xalloc.h"

enum line_kind {
	L_FIELD, /* "Label: text" */
	L_LINE,	 /* text as it is */
	L_CHILD, /* a nested record's lines */
	L_TABLE, /* a table */
};

struct line {
	enum line_kind kind;
	char *label;
	char *text;
	struct record *child;
	struct table *t;
};

struct record {
	json_object *obj; /* an object, or an array (a list) */
	bool list;
	struct line *lines;
	unsigned n;
	unsigned indent;
	int width;
	bool colon;
};

static struct record *new_record(bool list)
{
	struct record *r = xcalloc(1, sizeof(*r));

	r->obj = list ? json_object_new_array() : json_object_new_object();
	r->list = list;
	r->width = -1;
	r->colon = true;
	return r;
}

struct record *record_new(void)
{
	return new_record(false);
}

void record_free(struct record *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->n; i++) {
		free(r->lines[i].label);
		free(r->lines[i].text);
		record_free(r->lines[i].child);
		table_free(r->lines[i].t);
	}
	free(r->lines);
	json_object_put(r->obj);
	free(r);
}

void record_style(struct record *r, unsigned indent, int width, bool colon)
{
	r->indent = indent;
	r->width = width;
	r->colon = colon;
}

static struct line *add_line(struct record *r, enum line_kind kind)
{
	struct line *l;

	r->lines = xrealloc(r->lines, (r->n + 1) * sizeof(*r->lines));
	l = &r->lines[r->n++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	return l;
}

static void add_field(struct record *r, const char *label, const char *text)
{
	struct line *l = add_line(r, L_FIELD);

	l->label = xstrdup(label);
	l->text = xstrdup(text && *text ? text : "-");
}

/* The JSON member (or element) v; r takes it. */
static void add_json(struct record *r, const char *key, json_object *v)
{
	if (r->list) {
		assert(!key);
		json_object_array_add(r->obj, v);
	} else {
		assert(key);
		json_object_object_add(r->obj, key, v);
	}
}

/* ---- both forms ---- */

void record_str(struct record *r, const char *label, const char *key, const char *v)
{
	if (label)
		add_field(r, label, v);
	if (key)
		add_json(r, key, v && *v ? json_object_new_string(v) : NULL);
}

void record_u64(struct record *r, const char *label, const char *key, uint64_t v, const char *unit)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%" PRIu64 "%s%s", v, unit ? " " : "", unit ? unit : "");
	if (label)
		add_field(r, label, buf);
	if (key)
		add_json(r, key, json_object_new_uint64(v));
}

void record_bool(struct record *r, const char *label, const char *key, bool v)
{
	if (label)
		add_field(r, label, v ? "yes" : "no");
	if (key)
		add_json(r, key, json_object_new_boolean(v));
}

void record_null(struct record *r, const char *label, const char *key, const char *text)
{
	if (label)
		add_field(r, label, text);
	if (key)
		add_json(r, key, NULL);
}

/* ---- JSON only ---- */

void record_set_json(struct record *r, const char *key, json_object *v)
{
	add_json(r, key, v);
}

void record_set_str(struct record *r, const char *key, const char *v)
{
	add_json(r, key, v ? json_object_new_string(v) : NULL);
}

void record_set_u64(struct record *r, const char *key, uint64_t v)
{
	add_json(r, key, json_object_new_uint64(v));
}

void record_set_i64(struct record *r, const char *key, int64_t v)
{
	add_json(r, key, json_object_new_int64(v));
}

void record_set_double(struct record *r, const char *key, double v)
{
	add_json(r, key, json_object_new_double(v));
}

void record_set_bool(struct record *r, const char *key, bool v)
{
	add_json(r, key, json_object_new_boolean(v));
}

void record_set_null(struct record *r, const char *key)
{
	add_json(r, key, NULL);
}

static struct record *nest(struct record *r, const char *key, bool list)
{
	struct record *c = new_record(list);

	record_adopt(r, key, c);
	return c;
}

void record_adopt(struct record *r, const char *key, struct record *child)
{
	add_json(r, key, json_object_get(child->obj));
	add_line(r, L_CHILD)->child = child;
}

struct record *record_set_object(struct record *r, const char *key)
{
	return nest(r, key, false);
}

struct record *record_set_list(struct record *r, const char *key)
{
	return nest(r, key, true);
}

void record_set_json_text(struct record *r, const char *key, const char *text)
{
	add_json(r, key, text ? json_tokener_parse(text) : NULL);
}

void record_set_table(struct record *r, const char *key, const struct table *t)
{
	add_json(r, key, table_json_rows(t));
}

/* ---- text only ---- */

void record_text(struct record *r, const char *label, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	add_field(r, label, text);
	free(text);
}

void record_line(struct record *r, const char *fmt, ...)
{
	struct line *l = add_line(r, L_LINE);
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&l->text, fmt, ap) < 0)
		l->text = NULL;
	va_end(ap);
	if (!l->text)
		l->text = xstrdup("");
}

void record_table(struct record *r, struct table *t)
{
	add_line(r, L_TABLE)->t = t;
}

/* ---- printing ---- */

static void print_text(const struct record *r, FILE *f, unsigned flags)
{
	size_t w = 0;

	for (unsigned i = 0; r->width < 0 && i < r->n; i++)
		if (r->lines[i].kind == L_FIELD && strlen(r->lines[i].label) > w)
			w = strlen(r->lines[i].label);
	for (unsigned i = 0; i < r->n; i++) {
		const struct line *l = &r->lines[i];
		int pad;

		switch (l->kind) {
		case L_FIELD:
			/* "%s:%*s %s": the label, its colon, the padding, one space */
			if (r->width < 0)
				pad = (int)(w - strlen(l->label));
			else if (r->width > 0)
				pad = r->width - (int)strlen(l->label) - (r->colon ? 1 : 0);
			else
				pad = 0;
			fprintf(f, "%*s%s%s%*s %s\n", (int)r->indent, "", l->label,
				r->colon ? ":" : "", pad > 0 ? pad : 0, "", l->text);
			break;
		case L_LINE:
			fprintf(f, "%s\n", l->text);
			break;
		case L_CHILD:
			print_text(l->child, f, flags);
			break;
		case L_TABLE:
			table_print(l->t, f, flags & ~TABLE_JSON, "");
			break;
		}
	}
}

void record_print(const struct record *r, FILE *f, unsigned flags)
{
	if (flags & TABLE_JSON)
		front_json_print(r->obj, f);
	else
		print_text(r, f, flags);
}

void front_json_print(json_object *o, FILE *f)
{
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_SPACED |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
}

static const struct line *nth_line(const struct record *r, unsigned i)
{
	for (unsigned k = 0; k < r->n; k++)
		if ((r->lines[k].kind == L_FIELD || r->lines[k].kind == L_LINE) && i-- == 0)
			return &r->lines[k];
	return NULL;
}

unsigned record_count(const struct record *r)
{
	unsigned n = 0;

	for (unsigned k = 0; k < r->n; k++)
		n += r->lines[k].kind == L_FIELD || r->lines[k].kind == L_LINE;
	return n;
}

void record_get_line(const struct record *r, unsigned i, const char **label, const char **text)
{
	const struct line *l = nth_line(r, i);

	*label = l && l->label ? l->label : "";
	*text = l ? l->text : "";
}
