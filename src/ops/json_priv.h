/* json_priv.h - reading the JSON records ops keeps (the arrays' records,
 * the benchmark runs): a string field, or "" when it is missing or no
 * string. */
#ifndef SHORTSTROKE_OPS_JSON_PRIV_H
#define SHORTSTROKE_OPS_JSON_PRIV_H

#include <stdio.h>

#include <json-c/json.h>

static inline void ops_json_str(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v;

	buf[0] = '\0';
	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		snprintf(buf, len, "%s", json_object_get_string(v));
}

#endif
