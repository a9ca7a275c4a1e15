/* table.h - one renderer for every table both front ends print: text
 * (aligned), raw (space separated, no alignment) and JSON, from the same
 * rows, and the text of one cell for a screen (the TUI). Columns come from a
 * registry each table declares once: an enum of its columns and an array of
 * struct col_def indexed by it. Cells are set by that enum and typed: a
 * value of the wrong type for its column is a programming error (assert). */
#ifndef SHORTSTROKE_FRONT_TABLE_H
#define SHORTSTROKE_FRONT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum col_type {
	COL_STR,    /* text; JSON string */
	COL_U64,    /* integer; JSON number */
	COL_SIZE,   /* bytes: text "450 GB", JSON number (bytes) */
	COL_BOOL,   /* text yes/no; JSON true/false */
	COL_DOUBLE, /* text with the column's precision; JSON number */
	COL_LIMIT,  /* how a drive is limited: text "20.0% of 450 GB, hpa", "no" or
			 * "-"; JSON an object, or null when not limited */
};

struct col_def {
	const char *name; /* upper case: "DEVICE" */
	enum col_type type;
	bool right;    /* right-aligned in text */
	int precision; /* COL_DOUBLE: digits after the point */
	int width;     /* width hint of a fixed layout (the TUI's table); 0: the
				 * rest of the line */
	const char *help;
};

struct table;
struct dev_entry;
struct ss_error;

enum table_flags {
	TABLE_JSON = 1 << 0,
	TABLE_RAW = 1 << 1,
	TABLE_NOHEADINGS = 1 << 2,
	TABLE_BYTES = 1 << 3, /* sizes as plain byte counts in text */
	TABLE_PAIRS = 1 << 4, /* lsblk -P: KEY="value" pairs, a line per row, for eval */
};

/*
 * Column selection the lsblk way: "A,B,C" replaces the defaults, "+A,B"
 * appends to them. defaults is a comma list. On an unknown column name in
 * the selection returns NULL with err (usage; err may be NULL); one in
 * defaults is the caller's bug (assert).
 */
struct table *table_new(const struct col_def *defs, unsigned ndefs, const char *defaults,
			const char *selection, struct ss_error *err);
/* The same check of a selection without keeping the table: a command calls
 * it before any I/O, so that a mistyped column costs nothing. 0 or -EINVAL. */
int table_check_columns(const struct col_def *defs, unsigned ndefs, const char *defaults,
			const char *selection, struct ss_error *err);
void table_free(struct table *t);
void table_add_row(struct table *t);
/* Set a cell of the current row by the registry's index (its enum); a
 * column that is not selected is left out. */
void table_set_str(struct table *t, unsigned col, const char *v); /* NULL: unset */
void table_set_u64(struct table *t, unsigned col, uint64_t v);
void table_set_size(struct table *t, unsigned col, uint64_t bytes);
void table_set_bool(struct table *t, unsigned col, bool v);
void table_set_double(struct table *t, unsigned col, double v);
void table_set_limit(struct table *t, unsigned col, const struct dev_entry *e);
/* Print. JSON: {"<root_key>": [ {col: value, ...}, ... ]} with lower-case keys. */
int table_print(struct table *t, FILE *f, unsigned flags, const char *root_key);

/* For a renderer of its own (the TUI): the selected columns, the registry
 * index of column i, and the text of a cell (unset: "-"), as the text table
 * prints it with flags (TABLE_RAW, TABLE_BYTES). In a column width wide
 * (0: any) a limit longer than that is its share alone ("20.0%"); any other
 * cell is the renderer's to cut. */
unsigned table_cols(const struct table *t);
unsigned table_rows(const struct table *t);
const struct col_def *table_col(const struct table *t, unsigned i);
unsigned table_col_id(const struct table *t, unsigned i);
/* Whether the registry's column col is among the selected ones: what costs
 * commands of its own is read only for a column that asks for it (as lsblk
 * does). */
bool table_has_col(const struct table *t, unsigned col);
const char *table_cell_text(const struct table *t, unsigned row, unsigned i, unsigned flags,
			    int width, char *buf, size_t len);

/* The order of rows ra and rb by column i, typed: sizes and numbers as
 * numbers, text with its numbers as numbers (d2 before d10), a limit by the
 * share in use (then not limited, then not known); an unset cell first.
 * <0, 0, >0 as strcmp. */
int table_cell_cmp(const struct table *t, unsigned ra, unsigned rb, unsigned i);

/* --list-columns */
void table_list_columns(const struct col_def *defs, unsigned ndefs, FILE *f);

#endif
