/* record.h - what a command reports about one thing (a drive, a plan, a
 * batch of disks), filled once and printed as text or as JSON by
 * record_print. A record is a JSON object (or, made by record_set_list, an
 * array) and a list of text lines, each in the order it was filled:
 *
 *   - fields in both forms (record_str, record_u64, ...): a "Label: value"
 *     line and a JSON member;
 *   - JSON only (record_set_*): typed values, nested objects and lists, a
 *     table's rows; a nested record's own text lines print where it was made;
 *   - text only (record_text, record_line, record_table): a "Label: value"
 *     line, a line as it is, a table printed by the table renderer.
 *
 * Nothing here prints until record_print, and the same flags as a table's
 * choose the form (TABLE_JSON; TABLE_RAW and the others for its tables).
 * Records are not shared between threads; one per batch item is fine.
 */
#ifndef SHORTSTROKE_FRONT_RECORD_H
#define SHORTSTROKE_FRONT_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct record;
struct table;

struct record *record_new(void);
void record_free(struct record *r);

/*
 * The text layout of r's "Label: value" lines: indent spaces first; then
 * with width < 0 (the default) the values aligned after the longest label,
 * width 0 one space after the label, width N > 0 the label padded to N
 * columns (as printf's %-Ns); colon false leaves the colon out.
 */
void record_style(struct record *r, unsigned indent, int width, bool colon);

/* Fields in both forms. label NULL: JSON only; key NULL: text only. */
void record_str(struct record *r, const char *label, const char *key, const char *v);
/* ^ NULL or empty: "-" and null */
void record_u64(struct record *r, const char *label, const char *key, uint64_t v, const char *unit);
void record_bool(struct record *r, const char *label, const char *key, bool v);
void record_null(struct record *r, const char *label, const char *key, const char *text);

/* JSON only. In a list, key is NULL (each call adds an element); in an
 * object, a key set twice keeps its place and takes the later value. */
void record_set_str(struct record *r, const char *key, const char *v); /* NULL: null */
void record_set_u64(struct record *r, const char *key, uint64_t v);
void record_set_i64(struct record *r, const char *key, int64_t v);
void record_set_double(struct record *r, const char *key, double v);
void record_set_bool(struct record *r, const char *key, bool v);
void record_set_null(struct record *r, const char *key);
/* A nested object or list, owned by r; its text lines print at this place
 * of r's text. */
struct record *record_set_object(struct record *r, const char *key);
struct record *record_set_list(struct record *r, const char *key);
/* A JSON document another module writes (a plan file, an array's record),
 * as it is; NULL or text that does not parse: null. */
void record_set_json_text(struct record *r, const char *key, const char *text);
/* child, made by record_new, as a nested object of r (r takes it). */
void record_adopt(struct record *r, const char *key, struct record *child);
/* The rows of t as -J prints them (t stays the caller's). */
void record_set_table(struct record *r, const char *key, const struct table *t);

/* Text only. */
void record_text(struct record *r, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void record_line(struct record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* t printed here by the table renderer (with record_print's flags); r takes t. */
void record_table(struct record *r, struct table *t);

/* flags & TABLE_JSON: the JSON (pretty); else the text lines. */
void record_print(const struct record *r, FILE *f, unsigned flags);

/* The "Label: value" lines of r itself, for a renderer of its own (the TUI's
 * detail pane); a line without a label has label "". */
unsigned record_count(const struct record *r);
void record_get_line(const struct record *r, unsigned i, const char **label, const char **text);

#endif
