/* form.h - dialogs of typed fields, and the screens built on them: the
 * options of limit, restore, bench, qualify and the self-tests, and the log
 * of the commands sent to drives. No curses here (view_forms.c draws).
 *
 * A form hangs off a dialog (struct tui_dialog's form): the dialog keeps
 * its title, its lines (said above the fields), its error (a refusal, shown
 * in the dialog, which stays open) and its submit (Enter). The form adds
 * the fields and a preview pane:
 *   - text: what is typed; a default is shown and the first key typed
 *     replaces it (Backspace clears it), as in cfdisk's prompts;
 *   - choice: one of a list; an option that is not offered is listed with
 *     why not, and cannot be picked by Left/Right; typing a name picks it
 *     (the first that starts with what was typed), and Enter refuses a name
 *     that is no option or one not offered, with the reason;
 *   - check: on or off (Space, Left/Right, y/n); one that cannot be set
 *     says why when it is tried.
 * Tab, Down and Up, Shift-Tab move between fields; PgUp/PgDn scroll the
 * pane; Enter checks the choices and calls submit; Esc cancels.
 */
#ifndef SHORTSTROKE_TUI_FORM_H
#define SHORTSTROKE_TUI_FORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui.h"

enum tui_field_kind {
	TUI_FIELD_TEXT,
	TUI_FIELD_CHOICE,
	TUI_FIELD_CHECK,
};

#define TUI_FORM_FIELDS 8
#define TUI_FORM_CHOICES 12

struct tui_choice {
	char name[32];
	char why_not[400]; /* "": offered */
};

struct tui_field {
	enum tui_field_kind kind;
	char label[64]; /* "Size", "Type the serial (X):" */
	char hint[240]; /* said under the fields while it has the focus */
	/* text */
	char text[256];
	bool pristine; /* the default: the first key typed replaces it */
	/* choice */
	struct tui_choice choice[TUI_FORM_CHOICES];
	unsigned nchoices, cur; /* cur: the option chosen (an offered one) */
	char typed[32];		/* a name being typed; "" none */
	int match;		/* the option typed names, -1 none */
	/* check */
	bool on;
	char why_off[320]; /* "": it can be set; else why not */
};

struct tui_form {
	struct tui_field f[TUI_FORM_FIELDS];
	unsigned n, focus;
	int bad; /* the field the last refusal is about, -1 none */
	/* the preview pane: its lines, its title, the first line shown */
	struct tui_lines pane;
	size_t pane_top;
	size_t pane_max; /* the last pane_top that still fills the pane (the view) */
	char pane_title[96];
	/* after a field changed (d->form is the form): another field's
	 * options, the preview */
	void (*changed)(struct tui_dialog *d);
};

/* A dialog with a form, titled title, over the screen (m->dlg, replacing
 * any), with its arg (freed with it by free_arg) and submit; the caller adds
 * its lines and fields. NULL when out of memory: arg freed, an alert says so. */
struct tui_form *tui_form_open(struct tui_model *m, const char *title, void *arg,
			       void (*free_arg)(void *arg),
			       enum tui_action (*submit)(struct tui_model *m,
							 struct tui_dialog *d));
/* tui_form_open for the drives an action applies to (tui_targets), with a
 * zeroed arg of size bytes (m->dlg->arg): NULL with *a TUI_NONE when there
 * is no drive, TUI_REDRAW when an alert says why not (a job runs on one,
 * out of memory). */
struct tui_form *tui_targets_form(
    struct tui_model *m, const char *title, size_t size, void (*free_arg)(void *arg),
    enum tui_action (*submit)(struct tui_model *m, struct tui_dialog *d), enum tui_action *a);
/* A form on d (replacing any); NULL when out of memory. */
struct tui_form *tui_dialog_form(struct tui_dialog *d);
void tui_form_free(struct tui_form *f);

/* Fields, in the order they show; NULL when the form is full. */
struct tui_field *tui_form_text(struct tui_form *f, const char *label, const char *def,
				const char *hint);
struct tui_field *tui_form_choice(struct tui_form *f, const char *label, const char *hint);
struct tui_field *tui_form_check(struct tui_form *f, const char *label, bool on, const char *hint);
/* An option of a choice; why_not NULL or "": offered. The first offered
 * option added is chosen. */
void tui_field_option(struct tui_field *x, const char *name, const char *why_not);
/* Choose the option named (an offered one); false when it is not. */
bool tui_field_select(struct tui_field *x, const char *name);
/* The chosen option's name ("" when none is offered). */
const char *tui_field_choice(const struct tui_field *x);
/* The options that are not offered, "name: why; name: why", into buf. */
void tui_field_not_offered(const struct tui_field *x, char *buf, size_t len);

/* A refusal about field k: the reason in the dialog, the focus on it. */
enum tui_action tui_form_refuse(struct tui_dialog *d, unsigned k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Enter, before submit: a choice typed to a name that is no option, or to
 * one not offered, is refused (true: refused, the reason in d->error). */
bool tui_form_resolve(struct tui_dialog *d);
/* A key for the form (not Enter, Esc): TUI_NONE when it is not one of its. */
enum tui_action tui_form_key(struct tui_dialog *d, int key);

/* view_forms.c: a dialog with a form, drawn over the screen */
void tui_draw_form(const struct tui_dialog *d);

/* limit.c: l and r, the limit and restore forms, their previews, the
 * serials typed, the jobs */
enum tui_action tui_limit_open(struct tui_model *m);
enum tui_action tui_restore_open(struct tui_model *m);

/* ---- the log screen (log.c): every command sent this session ---- */

struct cmdlog;
struct cmdlog_entry;

struct tui_logview {
	struct cmdlog_entry *e; /* a copy of what the log keeps (cmdlog_copy) */
	size_t n;
	uint64_t dropped; /* entries the log no longer keeps */
	uint64_t last;	  /* the log's newest seq when copied */
	size_t *rows;	  /* the entries the filter lets through, oldest first */
	size_t nrows;
	size_t sel, top;  /* in rows */
	bool follow;	  /* on the newest: stay there as commands come */
	bool media;	  /* show the medium's reads and writes too */
	char filter[128]; /* a part of a device's or a command's name ("" all) */
	bool editing;	  /* the filter is being typed */
};

/* The session's log, made and hooked to the transport on the first call
 * (tui_main's, before any command is sent); NULL when out of memory. */
struct cmdlog *tui_cmdlog_start(void);
/* L: open it on the model's log (m->cmdlog). */
enum tui_action tui_log_open(struct tui_model *m);

#endif
