/* front_priv.h - what the renderers of src/front share among themselves: the
 * JSON they build (json-c) stays inside this folder. */
#ifndef SHORTSTROKE_FRONT_PRIV_H
#define SHORTSTROKE_FRONT_PRIV_H

#include <stdio.h>

#include <json-c/json.h>

struct table;
struct dev_entry;

/* The rows of a table as a JSON array (the objects -J prints). */
json_object *table_json_rows(const struct table *t);
/* How a drive is limited as JSON: an object, or NULL (null) when it is not;
 * in a few characters: the share alone ("20.0%"), "no" or "-". */
void limit_brief(const struct dev_entry *e, char *buf, size_t len);
json_object *limit_json(const struct dev_entry *e);
/* A JSON member (or element) of r made by hand; r takes v (NULL: null). */
struct record;
void record_set_json(struct record *r, const char *key, json_object *v);
/* Print o the way every command prints JSON: pretty, spaced, "/" as is. */
void front_json_print(json_object *o, FILE *f);

#endif
