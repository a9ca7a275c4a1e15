/* record.h - one object printed as "Label: value" lines or as JSON, from
 * the same calls (info and the other single-drive commands). */
#ifndef SHORTSTROKE_FRONT_RECORD_H
#define SHORTSTROKE_FRONT_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

struct record;

struct record *record_new(void);
void record_free(struct record *r);
/* A field in both forms; a NULL or empty value prints "-" and JSON null. */
void record_str(struct record *r, const char *label, const char *key, const char *v);
void record_u64(struct record *r, const char *label, const char *key, uint64_t v,
		const char *unit);
void record_bool(struct record *r, const char *label, const char *key, bool v);
void record_null(struct record *r, const char *label, const char *key, const char *text);
/* Separate forms where text and JSON differ: text may be NULL (JSON only),
 * json may be NULL (text only); the record takes json. */
void record_mixed(struct record *r, const char *label, const char *text, const char *key,
		  json_object *json);
void record_print(struct record *r, FILE *f, bool json);
/* The text lines, for other renderers (the TUI's detail pane). */
unsigned record_count(const struct record *r);
void record_line(const struct record *r, unsigned i, const char **label, const char **text);

#endif
