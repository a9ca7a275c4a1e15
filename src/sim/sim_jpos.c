/* sim_jpos.c - where each value of a JSON text starts.
 *
 * json-c parses the rig file but keeps no positions. This walker runs over
 * the same text (after json-c accepted it, so it only has to understand
 * valid JSON) and builds a tree of offsets with the same shape: objects'
 * members by key, arrays' elements by index. Error messages then name the
 * line of the offending key or value. The walker is defensive anyway: on
 * anything it does not understand it stops and reports -1.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_priv.h"

#define JPOS_DEPTH_MAX 64

struct walker {
	const char *s;
	size_t len, i;
};

static int walk_value(struct walker *w, struct jpos *p, unsigned depth);

static void skip_ws(struct walker *w)
{
	while (w->i < w->len) {
		char ch = w->s[w->i];

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
			w->i++;
		else
			break;
	}
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static int read_u4(struct walker *w, unsigned *out)
{
	unsigned v = 0;
	int k, h;

	if (w->i + 4 > w->len)
		return -1;
	for (k = 0; k < 4; k++) {
		h = hexval(w->s[w->i + k]);
		if (h < 0)
			return -1;
		v = v << 4 | (unsigned)h;
	}
	w->i += 4;
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at w->i (the opening quote). With out, decode it (malloc'd). */
static int walk_string(struct walker *w, char **out)
{
	size_t start = ++w->i, n = 0;
	char *buf = NULL;
	unsigned cp, lo;

	if (out) {
		/* decoded text is never longer than the source */
		size_t end = start;

		while (end < w->len && w->s[end] != '"') {
			if (w->s[end] == '\\')
				end++;
			end++;
		}
		buf = malloc(end - start + 1);
		if (!buf)
			return -1;
	}
	while (w->i < w->len && w->s[w->i] != '"') {
		char ch = w->s[w->i++];

		if (ch != '\\') {
			if (buf)
				buf[n++] = ch;
			continue;
		}
		if (w->i >= w->len)
			goto bad;
		ch = w->s[w->i++];
		switch (ch) {
		case 'b':
			ch = '\b';
			break;
		case 'f':
			ch = '\f';
			break;
		case 'n':
			ch = '\n';
			break;
		case 'r':
			ch = '\r';
			break;
		case 't':
			ch = '\t';
			break;
		case '"':
		case '\\':
		case '/':
			break;
		case 'u':
			if (read_u4(w, &cp))
				goto bad;
			if (cp >= 0xd800 && cp < 0xdc00 && w->i + 6 <= w->len &&
			    w->s[w->i] == '\\' && w->s[w->i + 1] == 'u') {
				size_t save = w->i;

				w->i += 2;
				if (read_u4(w, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				else
					w->i = save;
			}
			if (buf) {
				/* 6 source bytes (\uXXXX) always cover <= 4 out */
				n += put_utf8(buf + n, cp);
			}
			continue;
		default:
			goto bad;
		}
		if (buf)
			buf[n++] = ch;
	}
	if (w->i >= w->len)
		goto bad;
	w->i++; /* closing quote */
	if (out) {
		buf[n] = '\0';
		*out = buf;
	}
	return 0;
bad:
	free(buf);
	return -1;
}

static int add_kid(struct jpos *p, struct jpos **kid)
{
	struct jpos *k;

	if (p->nkids % 8 == 0) {
		k = realloc(p->kids, (p->nkids + 8) * sizeof(*k));
		if (!k)
			return -1;
		p->kids = k;
	}
	*kid = &p->kids[p->nkids++];
	memset(*kid, 0, sizeof(**kid));
	return 0;
}

static int walk_object(struct walker *w, struct jpos *p, unsigned depth)
{
	struct jpos *kid;
	size_t key_off;
	char *key;

	w->i++;
	skip_ws(w);
	if (w->i < w->len && w->s[w->i] == '}') {
		w->i++;
		return 0;
	}
	for (;;) {
		skip_ws(w);
		if (w->i >= w->len || w->s[w->i] != '"')
			return -1;
		key_off = w->i;
		if (walk_string(w, &key))
			return -1;
		if (add_kid(p, &kid)) {
			free(key);
			return -1;
		}
		kid->key = key;
		kid->key_off = key_off;
		skip_ws(w);
		if (w->i >= w->len || w->s[w->i] != ':')
			return -1;
		w->i++;
		if (walk_value(w, kid, depth + 1))
			return -1;
		skip_ws(w);
		if (w->i >= w->len)
			return -1;
		if (w->s[w->i] == ',') {
			w->i++;
			continue;
		}
		if (w->s[w->i] == '}') {
			w->i++;
			return 0;
		}
		return -1;
	}
}

static int walk_array(struct walker *w, struct jpos *p, unsigned depth)
{
	struct jpos *kid;

	w->i++;
	skip_ws(w);
	if (w->i < w->len && w->s[w->i] == ']') {
		w->i++;
		return 0;
	}
	for (;;) {
		if (add_kid(p, &kid))
			return -1;
		if (walk_value(w, kid, depth + 1))
			return -1;
		kid->key_off = kid->val_off;
		skip_ws(w);
		if (w->i >= w->len)
			return -1;
		if (w->s[w->i] == ',') {
			w->i++;
			continue;
		}
		if (w->s[w->i] == ']') {
			w->i++;
			return 0;
		}
		return -1;
	}
}

static int walk_value(struct walker *w, struct jpos *p, unsigned depth)
{
	char ch;

	if (depth > JPOS_DEPTH_MAX)
		return -1;
	skip_ws(w);
	if (w->i >= w->len)
		return -1;
	p->val_off = w->i;
	ch = w->s[w->i];
	if (ch == '{')
		return walk_object(w, p, depth);
	if (ch == '[')
		return walk_array(w, p, depth);
	if (ch == '"')
		return walk_string(w, NULL);
	/* number, true, false, null: up to the next delimiter */
	while (w->i < w->len) {
		ch = w->s[w->i];
		if (ch == ',' || ch == '}' || ch == ']' || ch == ' ' || ch == '\t' || ch == '\n' ||
		    ch == '\r')
			break;
		w->i++;
	}
	return w->i > p->val_off ? 0 : -1;
}

void jpos_fini(struct jpos *p)
{
	unsigned i;

	if (!p)
		return;
	for (i = 0; i < p->nkids; i++)
		jpos_fini(&p->kids[i]);
	free(p->kids);
	free(p->key);
	p->kids = NULL;
	p->key = NULL;
	p->nkids = 0;
}

int jpos_build(const char *text, size_t len, struct jpos *root)
{
	struct walker w = { .s = text, .len = len, .i = 0 };

	memset(root, 0, sizeof(*root));
	if (walk_value(&w, root, 0)) {
		jpos_fini(root);
		memset(root, 0, sizeof(*root));
		return -1;
	}
	return 0;
}

const struct jpos *jpos_member(const struct jpos *p, const char *key)
{
	unsigned i;

	if (!p)
		return NULL;
	for (i = p->nkids; i-- > 0;)
		if (p->kids[i].key && strcmp(p->kids[i].key, key) == 0)
			return &p->kids[i];
	return NULL;
}

const struct jpos *jpos_index(const struct jpos *p, unsigned i)
{
	if (!p || i >= p->nkids)
		return NULL;
	return &p->kids[i];
}

unsigned jpos_line(const char *text, size_t off)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < off && text[i]; i++)
		if (text[i] == '\n')
			line++;
	return line;
}
