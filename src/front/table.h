/* table.h - one renderer for every table and record both front ends print:
 * text (aligned), raw (space separated, no alignment) and JSON, from the
 * same rows. Columns come from a registry each command declares once. */
#ifndef SHORTSTROKE_FRONT_TABLE_H
#define SHORTSTROKE_FRONT_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum col_type {
	COL_STR,	/* text; JSON string */
	COL_U64,	/* integer; JSON number */
	COL_SIZE,	/* bytes: text "450 GB", JSON number (bytes) */
	COL_BOOL,	/* text yes/no; JSON true/false */
	COL_DOUBLE,	/* text with the column's precision; JSON number */
	COL_LIMIT,	/* text as given; JSON an object, or null when not limited */
};

struct col_def {
	const char *name;	/* upper case: "DEVICE" */
	enum col_type type;
	bool right;		/* right-aligned in text */
	int precision;		/* COL_DOUBLE: digits after the point */
	const char *help;
};

struct table;

enum table_flags {
	TABLE_JSON = 1 << 0,
	TABLE_RAW = 1 << 1,
	TABLE_NOHEADINGS = 1 << 2,
	TABLE_BYTES = 1 << 3,	/* sizes as plain byte counts in text */
};

/*
 * Column selection the lsblk way: "A,B,C" replaces the defaults, "+A,B"
 * appends to them. defaults is a comma list. On an unknown column name
 * returns NULL and puts a message in errbuf.
 */
struct table *table_new(const struct col_def *defs, unsigned ndefs, const char *defaults,
			const char *selection, char *errbuf, size_t errlen);
/* The same check of a selection without keeping the table: a command calls
 * it before any I/O, so that a mistyped column costs nothing. 0 or -EINVAL. */
int table_check_columns(const struct col_def *defs, unsigned ndefs, const char *defaults,
			const char *selection, char *errbuf, size_t errlen);
void table_free(struct table *t);
void table_add_row(struct table *t);
/* Set a cell of the current row by column name; unselected columns are ignored. */
void table_set_str(struct table *t, const char *col, const char *v);	/* NULL: null */
void table_set_u64(struct table *t, const char *col, uint64_t v);
void table_set_size(struct table *t, const char *col, uint64_t bytes);
void table_set_bool(struct table *t, const char *col, bool v);
void table_set_double(struct table *t, const char *col, double v);
/* COL_LIMIT: the text, and the JSON (taken; NULL for null). */
struct json_object;
void table_set_limit(struct table *t, const char *col, const char *text, struct json_object *j);
/* Print. JSON: {"<root_key>": [ {col: value, ...}, ... ]} with lower-case keys. */
int table_print(struct table *t, FILE *f, unsigned flags, const char *root_key);

/* The rows as a JSON array (the same objects -J prints), for commands that
 * nest a table inside a larger JSON document. The caller owns it. */
struct json_object *table_json_rows(struct table *t);

/* --list-columns */
void table_list_columns(const struct col_def *defs, unsigned ndefs, FILE *f);

/* JSON key of a column name: "LOG-SEC" -> "log-sec" (lsblk's rule). */
void col_json_key(const char *name, char *buf, size_t len);

#endif
