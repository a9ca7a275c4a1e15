/* table.c - the table renderer (table.h). */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "drives.h"
#include "front_priv.h"
#include "shortstroke/error.h"
#include "shortstroke/units.h"
#include "table.h"
#include "xalloc.h"

struct cell {
	bool set;
	char *s;
	uint64_t u;
	double d;
	bool b;
	json_object *j; /* COL_LIMIT: its JSON (NULL: null) */
	char *brief;	/* COL_LIMIT: the share alone, for a narrow column */
};

struct table {
	const struct col_def *defs;
	unsigned ndefs;
	unsigned *cols; /* selected column indexes into defs */
	unsigned ncols;
	struct cell *cells; /* nrows * ncols */
	unsigned nrows, cap;
};

static void cell_clear(struct cell *c)
{
	free(c->s);
	free(c->brief);
	json_object_put(c->j);
	memset(c, 0, sizeof(*c));
}

/* JSON key of a column name: "LOG-SEC" -> "log-sec" (lsblk's rule). */
static void col_json_key(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = (char)tolower((unsigned char)name[i]);
	buf[i] = '\0';
}

static int find_def(const struct col_def *defs, unsigned ndefs, const char *name, size_t n)
{
	for (unsigned i = 0; i < ndefs; i++)
		if (strlen(defs[i].name) == n && !strncasecmp(defs[i].name, name, n))
			return (int)i;
	return -1;
}

/* The columns of list (a comma list) after those selected; ours: the
 * caller's own list (its defaults), where a name the registry does not have
 * is a programming error, not the user's. */
static int add_cols(struct table *t, const char *list, bool ours, struct ss_error *err)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		int idx = find_def(t->defs, t->ndefs, p, n);

		if (n == 0) {
			p++;
			continue;
		}
		if (idx < 0) {
			assert(!ours && "a default column names no column of the registry");
			return ss_error_usage(
			    err, -EINVAL, "unknown column: %.*s (see --list-columns)", (int)n, p);
		}
		t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
		t->cols[t->ncols++] = (unsigned)idx;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

struct table *table_new(const struct col_def *defs, unsigned ndefs, const char *defaults,
			const char *selection, struct ss_error *err)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->defs = defs;
	t->ndefs = ndefs;
	if (!selection || selection[0] == '+') {
		if (add_cols(t, defaults, true, err))
			goto fail;
		if (selection && add_cols(t, selection + 1, false, err))
			goto fail;
	} else if (add_cols(t, selection, false, err)) {
		goto fail;
	}
	if (t->ncols == 0) {
		ss_error_usage(err, -EINVAL, "no columns selected");
		goto fail;
	}
	return t;
fail:
	table_free(t);
	return NULL;
}

int table_check_columns(const struct col_def *defs, unsigned ndefs, const char *defaults,
			const char *selection, struct ss_error *err)
{
	struct table *t = table_new(defs, ndefs, defaults, selection, err);

	if (!t)
		return -EINVAL;
	table_free(t);
	return 0;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->nrows * t->ncols; i++)
		cell_clear(&t->cells[i]);
	free(t->cells);
	free(t->cols);
	free(t);
}

void table_add_row(struct table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = xrealloc(t->cells, (size_t)t->cap * t->ncols * sizeof(*t->cells));
	}
	memset(&t->cells[(size_t)t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	t->nrows++;
}

/* Every selected cell of registry index col in the current row (a column
 * may be selected twice, as lsblk allows) takes v, which must be of the
 * column's type; its strings are copied and its JSON referenced. */
static void set_cell(struct table *t, unsigned col, enum col_type type, const struct cell *v)
{
	assert(col < t->ndefs && t->defs[col].type == type);
	for (unsigned i = 0; col < t->ndefs && t->nrows && i < t->ncols; i++) {
		struct cell *c = &t->cells[(size_t)(t->nrows - 1) * t->ncols + i];

		if (t->cols[i] != col)
			continue;
		cell_clear(c);
		*c = *v;
		c->s = v->s ? xstrdup(v->s) : NULL;
		c->brief = v->brief ? xstrdup(v->brief) : NULL;
		c->j = json_object_get(v->j);
	}
}

void table_set_str(struct table *t, unsigned col, const char *v)
{
	set_cell(t, col, COL_STR, &(struct cell){ .set = v != NULL, .s = (char *)v });
}

void table_set_u64(struct table *t, unsigned col, uint64_t v)
{
	set_cell(t, col, COL_U64, &(struct cell){ .set = true, .u = v });
}

void table_set_size(struct table *t, unsigned col, uint64_t bytes)
{
	set_cell(t, col, COL_SIZE, &(struct cell){ .set = true, .u = bytes });
}

void table_set_bool(struct table *t, unsigned col, bool v)
{
	set_cell(t, col, COL_BOOL, &(struct cell){ .set = true, .b = v });
}

void table_set_double(struct table *t, unsigned col, double v)
{
	set_cell(t, col, COL_DOUBLE, &(struct cell){ .set = true, .d = v });
}

void table_set_limit(struct table *t, unsigned col, const struct dev_entry *e)
{
	char buf[256], brief[32];
	json_object *j = limit_json(e);

	/* the order of a sort (table_cell_cmp): the share in use of a limited
	 * disk, then the disks not limited, then those nothing tells of */
	double key = e->limit.limited && e->limit.original_blocks
			 ? (double)e->limit.limit_blocks / (double)e->limit.original_blocks
		     : limit_known(e) ? 2.0
				      : 3.0;

	limit_text(e, buf, sizeof(buf));
	limit_brief(e, brief, sizeof(brief));
	set_cell(t, col, COL_LIMIT,
		 &(struct cell){ .set = true, .s = buf, .brief = brief, .j = j, .d = key });
	json_object_put(j);
}

static void cell_text(const struct col_def *def, const struct cell *c, unsigned flags, char *buf,
		      size_t len)
{
	if (!c->set) {
		snprintf(buf, len, "%s", (flags & TABLE_RAW) ? "" : "-");
		return;
	}
	switch (def->type) {
	case COL_STR:
		snprintf(buf, len, "%s", c->s);
		break;
	case COL_U64:
		snprintf(buf, len, "%" PRIu64, c->u);
		break;
	case COL_SIZE:
		if (flags & TABLE_BYTES)
			snprintf(buf, len, "%" PRIu64, c->u);
		else
			size_human(c->u, buf, len);
		break;
	case COL_BOOL:
		snprintf(buf, len, "%s", c->b ? "yes" : "no");
		break;
	case COL_DOUBLE:
		snprintf(buf, len, "%.*f", def->precision, c->d);
		break;
	case COL_LIMIT:
		snprintf(buf, len, "%s", c->s);
		break;
	}
}

static json_object *cell_json(const struct col_def *def, const struct cell *c)
{
	if (!c->set)
		return NULL;
	switch (def->type) {
	case COL_STR:
		return json_object_new_string(c->s);
	case COL_U64:
	case COL_SIZE:
		return json_object_new_uint64(c->u);
	case COL_BOOL:
		return json_object_new_boolean(c->b);
	case COL_DOUBLE:
		return json_object_new_double(c->d);
	case COL_LIMIT:
		return json_object_get(c->j);
	}
	return NULL;
}

json_object *table_json_rows(const struct table *t)
{
	json_object *arr = json_object_new_array();
	char key[64];

	for (unsigned r = 0; r < t->nrows; r++) {
		json_object *o = json_object_new_object();

		for (unsigned i = 0; i < t->ncols; i++) {
			const struct col_def *def = &t->defs[t->cols[i]];

			col_json_key(def->name, key, sizeof(key));
			json_object_object_add(o, key,
					       cell_json(def, &t->cells[(size_t)r * t->ncols + i]));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static int print_json(struct table *t, FILE *f, const char *root_key)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, root_key, table_json_rows(t));
	front_json_print(root, f);
	json_object_put(root);
	return 0;
}

/* lsblk -P: NAME="value" ..., a line per row. The name is the column's with
 * what a shell variable name cannot hold made '_' (LOG-SEC: LOG_SEC); in the
 * value, what double quotes do not keep literal (" $ ` \\) and what is not
 * printable is \\xHH, as lsblk writes it. An unset cell is "". */
static void print_pairs(const struct table *t, FILE *f, unsigned flags)
{
	char buf[256];

	for (unsigned r = 0; r < t->nrows; r++) {
		for (unsigned i = 0; i < t->ncols; i++) {
			const struct col_def *def = &t->defs[t->cols[i]];

			if (i)
				fputc(' ', f);
			for (const char *p = def->name; *p; p++)
				fputc(isalnum((unsigned char)*p) ? *p : '_', f);
			cell_text(def, &t->cells[(size_t)r * t->ncols + i], flags | TABLE_RAW, buf,
				  sizeof(buf));
			fputs("=\"", f);
			for (const char *p = buf; *p; p++) {
				if (strchr("\"$`\\", *p) || !isprint((unsigned char)*p))
					fprintf(f, "\\x%02x", (unsigned char)*p);
				else
					fputc(*p, f);
			}
			fputc('"', f);
		}
		fputc('\n', f);
	}
}

int table_print(struct table *t, FILE *f, unsigned flags, const char *root_key)
{
	size_t *w;
	char buf[256];

	if (flags & TABLE_JSON)
		return print_json(t, f, root_key);
	if (flags & TABLE_PAIRS) {
		print_pairs(t, f, flags);
		return 0;
	}

	w = xcalloc(t->ncols, sizeof(*w));
	for (unsigned i = 0; i < t->ncols; i++) {
		if (!(flags & TABLE_NOHEADINGS))
			w[i] = strlen(t->defs[t->cols[i]].name);
		for (unsigned r = 0; r < t->nrows; r++) {
			cell_text(&t->defs[t->cols[i]], &t->cells[(size_t)r * t->ncols + i], flags,
				  buf, sizeof(buf));
			if (strlen(buf) > w[i])
				w[i] = strlen(buf);
		}
	}
	for (int r = (flags & TABLE_NOHEADINGS) ? 0 : -1; r < (int)t->nrows; r++) {
		for (unsigned i = 0; i < t->ncols; i++) {
			const struct col_def *def = &t->defs[t->cols[i]];
			bool last = i + 1 == t->ncols;

			if (r < 0)
				snprintf(buf, sizeof(buf), "%s", def->name);
			else
				cell_text(def, &t->cells[(size_t)r * t->ncols + i], flags, buf,
					  sizeof(buf));
			if (flags & TABLE_RAW) {
				/* raw: spaces inside values escaped as lsblk does */
				for (const char *p = buf; *p; p++) {
					if (*p == ' ' || *p == '\\' || !isprint((unsigned char)*p))
						fprintf(f, "\\x%02x", (unsigned char)*p);
					else
						fputc(*p, f);
				}
				fputs(last ? "\n" : " ", f);
			} else if (def->right) {
				fprintf(f, "%*s%s", (int)w[i], buf, last ? "\n" : " ");
			} else {
				fprintf(f, "%-*s%s", last ? 0 : (int)w[i], buf, last ? "\n" : " ");
			}
		}
	}
	free(w);
	return 0;
}

unsigned table_cols(const struct table *t)
{
	return t->ncols;
}

unsigned table_rows(const struct table *t)
{
	return t->nrows;
}

const struct col_def *table_col(const struct table *t, unsigned i)
{
	return &t->defs[t->cols[i]];
}

unsigned table_col_id(const struct table *t, unsigned i)
{
	return t->cols[i];
}

bool table_has_col(const struct table *t, unsigned col)
{
	for (unsigned i = 0; i < t->ncols; i++)
		if (t->cols[i] == col)
			return true;
	return false;
}

const char *table_cell_text(const struct table *t, unsigned row, unsigned i, unsigned flags,
			    int width, char *buf, size_t len)
{
	const struct cell *c = &t->cells[(size_t)row * t->ncols + i];

	cell_text(&t->defs[t->cols[i]], c, flags, buf, len);
	if (width > 0 && strlen(buf) > (size_t)width && c->brief)
		snprintf(buf, len, "%s", c->brief);
	return buf;
}

static int cmp_num(double a, double b)
{
	return a < b ? -1 : a > b;
}

int table_cell_cmp(const struct table *t, unsigned ra, unsigned rb, unsigned i)
{
	const struct cell *a = &t->cells[(size_t)ra * t->ncols + i];
	const struct cell *b = &t->cells[(size_t)rb * t->ncols + i];

	if (!a->set || !b->set)
		return (int)a->set - (int)b->set;
	switch (t->defs[t->cols[i]].type) {
	case COL_STR:
		/* numbers inside as numbers: d2 before d10 */
		return strverscmp(a->s, b->s);
	case COL_U64:
	case COL_SIZE:
		return a->u < b->u ? -1 : a->u > b->u;
	case COL_BOOL:
		return (int)a->b - (int)b->b;
	case COL_DOUBLE:
	case COL_LIMIT:
		return cmp_num(a->d, b->d);
	}
	return 0;
}

void table_list_columns(const struct col_def *defs, unsigned ndefs, FILE *f)
{
	for (unsigned i = 0; i < ndefs; i++)
		fprintf(f, "%11s  %s\n", defs[i].name, defs[i].help);
}
