/* form.c - dialogs of typed fields (form.h): text, choices with the options
 * not offered and why, check boxes, a preview pane. No curses here. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "form.h"

struct tui_form *tui_dialog_form(struct tui_dialog *d)
{
	struct tui_form *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	tui_form_free(d->form);
	f->bad = -1;
	d->form = f;
	d->input = false;
	return f;
}

struct tui_form *tui_form_open(struct tui_model *m, const char *title, void *arg,
			       void (*free_arg)(void *arg),
			       enum tui_action (*submit)(struct tui_model *m, struct tui_dialog *d))
{
	struct tui_dialog *d = tui_dialog_new(title);
	struct tui_form *f = d ? tui_dialog_form(d) : NULL;

	if (!f) {
		tui_dialog_free(d);
		if (free_arg)
			free_arg(arg);
		tui_alert(m, title, "out of memory");
		return NULL;
	}
	d->arg = arg;
	d->free_arg = free_arg;
	d->submit = submit;
	tui_dialog_free(m->dlg);
	m->dlg = d;
	return f;
}

struct tui_form *tui_targets_form(
    struct tui_model *m, const char *title, size_t size, void (*free_arg)(void *arg),
    enum tui_action (*submit)(struct tui_model *m, struct tui_dialog *d), enum tui_action *a)
{
	size_t idx[1];
	void *arg;

	*a = TUI_REDRAW;
	if (!tui_targets(m, idx, 1)) {
		*a = TUI_NONE;
		return NULL;
	}
	if (tui_targets_busy(m))
		return NULL;
	arg = calloc(1, size);
	if (!arg) {
		tui_alert(m, title, "out of memory");
		return NULL;
	}
	return tui_form_open(m, title, arg, free_arg, submit);
}

void tui_lines_clear(struct tui_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

char *tui_lines_join(const struct tui_lines *l)
{
	size_t len = 0, at = 0;
	char *t;

	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + 1;
	t = malloc(len + 1);
	if (!t)
		return NULL;
	for (size_t i = 0; i < l->n; i++) {
		size_t k = strlen(l->v[i]);

		memcpy(t + at, l->v[i], k);
		at += k;
		t[at++] = '\n';
	}
	t[at] = '\0';
	return t;
}

void tui_lines_add(struct tui_lines *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tui_lines_vadd(l, fmt, ap);
	va_end(ap);
}

void tui_lines_vadd(struct tui_lines *l, const char *fmt, va_list ap)
{
	char **nv;
	char *line;

	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	if (!line)
		return;
	nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	if (!nv) {
		free(line);
		return;
	}
	l->v = nv;
	l->v[l->n++] = line;
}

void tui_form_free(struct tui_form *f)
{
	if (!f)
		return;
	tui_lines_clear(&f->pane);
	free(f);
}

static struct tui_field *field_add(struct tui_form *f, enum tui_field_kind kind, const char *label,
				   const char *hint)
{
	struct tui_field *x;

	if (!f || f->n >= TUI_FORM_FIELDS)
		return NULL;
	x = &f->f[f->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->match = -1;
	snprintf(x->label, sizeof(x->label), "%s", label);
	snprintf(x->hint, sizeof(x->hint), "%s", hint ? hint : "");
	return x;
}

struct tui_field *tui_form_text(struct tui_form *f, const char *label, const char *def,
				const char *hint)
{
	struct tui_field *x = field_add(f, TUI_FIELD_TEXT, label, hint);

	if (x && def && def[0]) {
		snprintf(x->text, sizeof(x->text), "%s", def);
		x->pristine = true;
	}
	return x;
}

struct tui_field *tui_form_choice(struct tui_form *f, const char *label, const char *hint)
{
	return field_add(f, TUI_FIELD_CHOICE, label, hint);
}

struct tui_field *tui_form_check(struct tui_form *f, const char *label, bool on, const char *hint)
{
	struct tui_field *x = field_add(f, TUI_FIELD_CHECK, label, hint);

	if (x)
		x->on = on;
	return x;
}

static bool offered(const struct tui_field *x, unsigned k)
{
	return k < x->nchoices && !x->choice[k].why_not[0];
}

void tui_field_option(struct tui_field *x, const char *name, const char *why_not)
{
	struct tui_choice *c;
	bool first = true;

	if (!x || x->nchoices >= TUI_FORM_CHOICES)
		return;
	for (unsigned k = 0; k < x->nchoices; k++)
		first &= !offered(x, k);
	c = &x->choice[x->nchoices];
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->why_not, sizeof(c->why_not), "%s", why_not ? why_not : "");
	if (first && !c->why_not[0])
		x->cur = x->nchoices;
	x->nchoices++;
}

bool tui_field_select(struct tui_field *x, const char *name)
{
	for (unsigned k = 0; k < x->nchoices; k++) {
		if (strcmp(x->choice[k].name, name))
			continue;
		if (!offered(x, k))
			return false;
		x->cur = k;
		x->typed[0] = '\0';
		x->match = -1;
		return true;
	}
	return false;
}

const char *tui_field_choice(const struct tui_field *x)
{
	return offered(x, x->cur) ? x->choice[x->cur].name : "";
}

void tui_field_not_offered(const struct tui_field *x, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned k = 0; k < x->nchoices && used < len; k++)
		if (!offered(x, k))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "; " : "",
						 x->choice[k].why_not);
}

enum tui_action tui_form_refuse(struct tui_dialog *d, unsigned k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->error, sizeof(d->error), fmt, ap);
	va_end(ap);
	d->alert = true;
	if (d->form && k < d->form->n) {
		d->form->focus = k;
		d->form->bad = (int)k;
	}
	return TUI_REDRAW;
}

/* "a, b or c": the options of a choice. */
static void option_names(const struct tui_field *x, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < x->nchoices && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 !k			? ""
					 : k + 1 == x->nchoices ? " or "
								: ", ",
					 x->choice[k].name);
}

static void lower(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	for (; s[i] && i + 1 < len; i++)
		buf[i] = (char)tolower((unsigned char)s[i]);
	buf[i] = '\0';
}

bool tui_form_resolve(struct tui_dialog *d)
{
	struct tui_form *f = d->form;
	char names[400], noun[64];

	for (unsigned i = 0; f && i < f->n; i++) {
		struct tui_field *x = &f->f[i];

		if (x->kind != TUI_FIELD_CHOICE)
			continue;
		lower(x->label, noun, sizeof(noun));
		if (x->typed[0] && x->match < 0) {
			option_names(x, names, sizeof(names));
			tui_form_refuse(d, i, "'%s' is not a %s: %s", x->typed, noun, names);
			return true;
		}
		if (x->typed[0] && !offered(x, (unsigned)x->match)) {
			tui_form_refuse(d, i, "%s: not offered: %s", x->choice[x->match].name,
					x->choice[x->match].why_not);
			return true;
		}
		if (x->typed[0]) {
			x->cur = (unsigned)x->match;
			x->typed[0] = '\0';
			x->match = -1;
		}
		if (!offered(x, x->cur)) {
			tui_field_not_offered(x, names, sizeof(names));
			tui_form_refuse(d, i, "No %s is offered: %s", noun, names);
			return true;
		}
	}
	return false;
}

/* The next offered option after (dir 1) or before (dir -1) the chosen one. */
static void choice_step(struct tui_field *x, int dir)
{
	x->typed[0] = '\0';
	x->match = -1;
	for (unsigned s = 1; s <= x->nchoices; s++) {
		unsigned k = (x->cur + x->nchoices + (unsigned)dir * s) % x->nchoices;

		if (offered(x, k)) {
			x->cur = k;
			return;
		}
	}
}

/* The option whose name starts with what was typed: an offered one first. */
static void choice_match(struct tui_field *x)
{
	size_t n = strlen(x->typed);

	x->match = -1;
	for (int pass = 0; pass < 2 && x->match < 0; pass++)
		for (unsigned k = 0; k < x->nchoices; k++)
			if (!strncasecmp(x->choice[k].name, x->typed, n) &&
			    (pass || offered(x, k))) {
				x->match = (int)k;
				break;
			}
	if (x->match >= 0 && offered(x, (unsigned)x->match))
		x->cur = (unsigned)x->match;
}

static bool check_set(struct tui_dialog *d, struct tui_field *x, bool on)
{
	if (on && x->why_off[0]) {
		tui_form_refuse(d, d->form->focus, "%s: %s", x->label, x->why_off);
		return false;
	}
	x->on = on;
	return true;
}

/* An edit of the field with the focus; true when it changed. */
static bool field_key(struct tui_dialog *d, struct tui_field *x, int key)
{
	size_t len = strlen(x->text), tl = strlen(x->typed);

	switch (x->kind) {
	case TUI_FIELD_TEXT:
		if (key == TK_BACKSPACE) {
			if (x->pristine)
				x->text[0] = '\0';
			else if (len)
				x->text[len - 1] = '\0';
			x->pristine = false;
			return true;
		}
		if (key >= 0x20 && key < 0x7f) {
			if (x->pristine)
				len = 0;
			x->pristine = false;
			if (len + 1 < sizeof(x->text)) {
				x->text[len] = (char)key;
				x->text[len + 1] = '\0';
			}
			return true;
		}
		return false;
	case TUI_FIELD_CHOICE:
		if (key == TK_LEFT || key == TK_RIGHT || key == ' ') {
			choice_step(x, key == TK_LEFT ? -1 : 1);
			return true;
		}
		if (key == TK_BACKSPACE) {
			if (tl)
				x->typed[tl - 1] = '\0';
			if (x->typed[0])
				choice_match(x);
			else
				x->match = -1;
			return true;
		}
		if (key > 0x20 && key < 0x7f && tl + 1 < sizeof(x->typed)) {
			x->typed[tl] = (char)key;
			x->typed[tl + 1] = '\0';
			choice_match(x);
			return true;
		}
		return false;
	case TUI_FIELD_CHECK:
		if (key == ' ' || key == TK_LEFT || key == TK_RIGHT || key == 'x')
			return check_set(d, x, !x->on);
		if (key == 'y' || key == 'Y')
			return check_set(d, x, true);
		if (key == 'n' || key == 'N')
			return check_set(d, x, false);
		return false;
	}
	return false;
}

enum tui_action tui_form_key(struct tui_dialog *d, int key)
{
	struct tui_form *f = d->form;
	char old[sizeof(d->error)];
	bool alert;
	int bad;

	if (!f)
		return TUI_NONE;
	switch (key) {
	case TK_TAB:
	case TK_DOWN:
		if (f->n)
			f->focus = (f->focus + 1) % f->n;
		return TUI_REDRAW;
	case TK_BTAB:
	case TK_UP:
		if (f->n)
			f->focus = (f->focus + f->n - 1) % f->n;
		return TUI_REDRAW;
	case TK_PGUP:
		f->pane_top = f->pane_top > 10 ? f->pane_top - 10 : 0;
		return TUI_REDRAW;
	case TK_PGDN:
		f->pane_top = f->pane_top + 10 < f->pane_max ? f->pane_top + 10 : f->pane_max;
		return TUI_REDRAW;
	default:
		break;
	}
	if (!f->n)
		return TUI_NONE;
	/* an edit clears the last refusal; a key that is no edit leaves it */
	memcpy(old, d->error, sizeof(old));
	alert = d->alert;
	bad = f->bad;
	d->error[0] = '\0';
	d->alert = false;
	f->bad = -1;
	if (!field_key(d, &f->f[f->focus], key)) {
		if (d->error[0])
			return TUI_REDRAW; /* a box that cannot be set: why */
		memcpy(d->error, old, sizeof(old));
		d->alert = alert;
		f->bad = bad;
		return TUI_NONE;
	}
	if (f->changed)
		f->changed(d);
	return TUI_REDRAW;
}
