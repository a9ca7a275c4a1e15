/* tui.h - the interactive front end. The model is filled by code that never
 * touches curses; views only draw from the model; key handlers return what
 * happened. The screens are a stack of hook tables over the drive table
 * (struct tui_screen_ops, stack.c), each answering from its key table.
 * tui.c alone starts and stops curses. Work that takes time runs as a job
 * (job.h) and reports progress into the model. */
#ifndef SHORTSTROKE_TUI_H
#define SHORTSTROKE_TUI_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "raidplan.h"
#include "shortstroke/array.h"
#include "shortstroke/devices.h"
#include "shortstroke/job.h"
#include "shortstroke/planning.h"

struct tui_model;
struct tui_batch;
struct table;
struct tui_form;
struct tui_logview;
struct cmdlog;

/* Run the TUI on the terminal until the user quits (`shortstroke tui`, or no
 * command on a terminal): 0, or a negative errno with err (no terminal). */
int tui_main(struct ss_ctx *ctx, struct ss_error *err);

enum tui_action {
	TUI_NONE, /* key not handled */
	TUI_REDRAW,
	TUI_RESCAN,
	TUI_QUIT,
};

/* Lines of text a screen owns (a dialog's, a preview, a report). */
struct tui_lines {
	char **v;
	size_t n;
};
void tui_lines_add(struct tui_lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tui_lines_vadd(struct tui_lines *l, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
void tui_lines_clear(struct tui_lines *l);
/* The lines as one text, a newline after each (free() it; NULL: out of memory). */
char *tui_lines_join(const struct tui_lines *l);

/* The lines a dialog that lists jobs (abort, quit) shows of them at most. */
#define TUI_DIALOG_LINES 12

/* A dialog over the screen: text, an optional input field, and what
 * Enter does. Pure model: view.c draws it, model.c feeds it keys. */
struct tui_dialog {
	char title[96];
	struct tui_lines lines; /* its text, a paragraph each (wrapped to the box) */
	bool input;		/* has an input field */
	char prompt[64];
	char text[128];	 /* what was typed */
	bool alert;	 /* an error or refusal: drawn in the alert colour */
	char error[640]; /* why the last Enter was refused, an alert's text (wrapped) */
	/* Enter: returns what to do next; may replace m->dlg (the dialog is
	 * freed by the caller when m->dlg no longer points at it). A submit
	 * that puts the reason of a refusal into error (tui_dialog_error)
	 * keeps the dialog open for another try. */
	enum tui_action (*submit)(struct tui_model *m, struct tui_dialog *d);
	void *arg;
	void (*free_arg)(void *arg);
	/* set while submit runs: tui_dialog_free then only marks it dead and
	 * the key handler frees it (with arg) once submit has returned */
	bool busy, dead;
	/* typed fields and a preview pane instead of the one input (form.h);
	 * freed with the dialog */
	struct tui_form *form;
	/* its text's first row shown, the last that still fills the box and
	 * the rows shown (the view sets them; arrows and PgUp/PgDn scroll when
	 * top_max is not 0, PgUp/PgDn by a page) */
	size_t top, top_max, page;
	struct tui_dialog *next; /* the one shown after it (tui_notice) */
};

/* One job running on a drive. */
struct tui_task {
	struct job *job;
	char spec[256];
	char what[32]; /* "limit", "restore", ... */
	void *arg;
	/* called on the UI thread when the job has ended: sets the status
	 * line, frees arg */
	void (*finish)(struct tui_model *m, struct tui_task *t, int rc, const struct ss_error *err);
	/* the abort key: no_abort set: it cannot be stopped, this says why;
	 * else abort (NULL: job_cancel) stops it */
	void (*abort)(struct tui_task *t);
	char no_abort[160];
};

#define TUI_MAX_TASKS 64

/*
 * Work off the UI thread whose result the UI thread takes in: a rescan, a
 * report, whatever a screen needs read before it can draw it. run runs on a
 * job thread (job.h) with arg, which holds everything it reads and fills
 * (a context of its own: ctx_init_copy), never the model. On the UI thread,
 * tui_bg_poll (every tick, whatever is open) reaps a job that has ended and
 * calls its done, which swaps the result into the model and frees arg;
 * while it runs, tui_bg_line gives a spinner and what it is doing for the
 * view to draw. A slot is the job's until done has run: whoever keeps a
 * pointer to it (m->scan, a pager's loading) lets go in done.
 */
struct tui_bg;
typedef void (*tui_bg_done)(struct tui_model *m, struct tui_bg *b, void *arg, int rc,
			    const struct ss_error *err);
struct tui_bg {
	struct job *job; /* NULL: a free slot */
	char what[128];	 /* shown until the job reports a phase of its own */
	void *arg;
	tui_bg_done done;
};

#define TUI_MAX_BG 8
#define TUI_HEALTH_LEN 200

/* A full-screen text view (SMART report, zones, a benchmark's table). */
struct tui_pager {
	char title[160];
	char **lines;
	size_t n;
	size_t top;
	/* the view's: the lines the last draw showed (a page), and the last
	 * top that still fills the screen */
	size_t page, top_max;
	struct tui_bg *loading; /* the job that reads what it shows; its spinner
				 * shows until then, Esc cancels it */
};

/* The planner screen (planner.c fills it, view.c draws it): goals typed
 * into a form, libraidplan re-solving on every change, the ranked
 * layouts, and the chosen one saved as a plan file. */
enum tui_plan_field {
	TPF_LEVEL, /* a choice: any, 0, 1, 10, ... */
	TPF_CAPACITY,
	TPF_IOPS,
	TPF_ACCESS,
	TPF_TOLERATE,
	TPF_STROKE,	/* one layout at this share of each disk (a level chosen) */
	TPF_WORKLOAD,	/* a choice: database, fileserver, ... */
	TPF_CONTROLLER, /* a choice: md, hba, hw-raid */
	TPF_COUNT
};

#define TUI_PLAN_ROWS 10
#define TUI_PLAN_QD 16

struct tui_plan_row {
	char level[24]; /* "10", "10 (3 copies)", "50 (2 groups)" */
	unsigned disks;
	double stroke;	   /* capacity fraction */
	uint64_t capacity; /* usable bytes */
	double iops;	   /* the workload's IOPS at TUI_PLAN_QD */
	double access_ms;
	unsigned tolerates;
	double mttdl_h;	    /* NaN: not applicable */
	char shortfall[64]; /* closest layouts: how far from the goals */
};

struct tui_planner {
	size_t n; /* the drives planned with */
	struct plan_disk *pool;
	struct rp_disk *rd;
	struct plan_notes notes;
	unsigned field;		  /* enum tui_plan_field with the cursor */
	int level;		  /* -1: any */
	int profile;		  /* enum rp_profile */
	int controller;		  /* enum rp_controller */
	char text[TPF_COUNT][24]; /* what was typed in the text fields */
	char error[200];	  /* a field that does not parse */
	struct rp_solution *sol;
	struct rp_eval *one; /* the one layout a Stroke asks for (no search) */
	bool met;	     /* rows meet every goal (else: closest) */
	char message[320];   /* the solver's sentence */
	char unmet[96];	     /* goals no layout meets, by name */
	const struct rp_eval *evs[TUI_PLAN_ROWS];
	struct tui_plan_row rows[TUI_PLAN_ROWS];
	size_t nrows;
	size_t chosen; /* the row s/Enter saves */
	size_t evaluated;
	char saved[300]; /* "plan written to FILE" */
};

/* A running apply (arrays.c runs it, view.c draws it): one bar per member,
 * the step, then the array's state. The job writes under lock. */
struct tui_apply_member {
	char spec[256];
	char serial[48];
	double fraction;
	char phase[96];
};

struct tui_applying {
	pthread_mutex_t lock;
	char name[ARRAY_NAME_MAX + 1];
	char title[160]; /* "RAID 10 over 4 drives, ext4" */
	size_t n;
	struct tui_apply_member m[ARRAY_MAX_MEMBERS];
	char step[256];
	bool done;
	int rc;
	char result[640]; /* when done: the array's state, or why it failed */
	/* the job's own: its context, the plan, the result */
	struct ss_ctx ctx;
	struct plan *plan;
	char plan_path[4096];
	char mkfs[8];
	const struct progress_sink *sink;
	struct array_apply_result *res;
};

/* The arrays screen (A): the records of the arrays apply created. */
struct tui_arrays {
	size_t n, sel;
	struct array_rec *recs;
	char error[512]; /* the records could not be read */
	char busy[300];	 /* an undo running: "undoing fast0 ..." */
};

/* A label of the key bar on the screen: a click on it is its key. */
struct tui_hit {
	int y, x0, x1; /* the row, the columns [x0, x1) */
	int key;
};
#define TUI_MAX_HITS 24

/*
 * A line of a screen's key table: the keys it takes, what they do as the
 * help box, `tui --help` and the man page say it, and what runs. A line
 * whose key is 0 takes no key of its own and only says what the screen's
 * key hook does with the rest ("any other key").
 */
struct tui_key {
	int key;	  /* TK_* or a character; 0: none (said only) */
	const char *name; /* the keys as the help shows them: "R, F5" */
	const char *help; /* what they do */
	enum tui_action (*act)(struct tui_model *m);
	bool drives; /* acts on the drive list: "scanning, wait" until the
		       * first scan has ended, refused while the filter shows none */
	int more[3]; /* other keys that do the same (F5 for R); 0 ends */
	/* instead of act: given the screen's state and the key pressed */
	enum tui_action (*run)(struct tui_model *m, void *data, int key);
};

/* A label of the bottom key bar: the key as shown, what it does, and the
 * key a click on it sends (0: none). */
struct tui_keylabel {
	const char *key, *label;
	int code;
};

/*
 * A screen (stack.c): a table of hooks and the state it owns (data), pushed
 * over the drive table (tui_main_screen, at the bottom, never closed). Keys
 * go to the one on top, ticks too; the view draws from the last screen that
 * fills the terminal up; a click on a row of the list the top one drew is
 * its click. A dialog (m->dlg) is not pushed: it sits over whatever is on
 * top and takes the keys first, so that a screen a job opens when it ends
 * (a benchmark's results) goes under the question being asked.
 */
enum {
	TUI_SCREEN_OVERLAY = 1, /* a box drawn over the screen below it */
};

struct tui_screen_ops {
	const char *title; /* "the planner": the heading of its keys in tui --help */
	unsigned flags;
	const struct tui_key *keys; /* its key table, ended by a NULL name */
	/* the key bar it draws (the labels that fit, from the first) */
	const struct tui_keylabel *bar;
	size_t nbar;
	/* what the help says after its keys (NULL: nothing) */
	const char *about;
	/* A key (not a tick, not a resize: every screen redraws at the new
	 * size). NULL: its key table alone; else the hook decides, and gives
	 * the keys it does not take itself to tui_keys_run. */
	enum tui_action (*key)(struct tui_model *m, void *data, int key);
	/* Four times a second while it is on top; TUI_REDRAW when it changed. */
	enum tui_action (*tick)(struct tui_model *m, void *data);
	/* Draw it (a view: curses); an overlay draws over the one below. */
	void (*draw)(const struct tui_model *m, void *data);
	/* A click on the row-th row of the list it drew (m->rows_y, rows_n). */
	enum tui_action (*click)(struct tui_model *m, void *data, size_t row);
	/* Free data: it was closed, or the TUI quits. */
	void (*close)(void *data);
};

struct tui_screen {
	const struct tui_screen_ops *ops;
	void *data;
};

#define TUI_MAX_SCREENS 12

struct tui_model {
	struct ss_ctx *ctx;
	struct dev_entry *devs;
	size_t n;
	struct table *drives;		/* the drive table: a row per entry of devs */
	bool *marked;			/* n entries: drives picked with Space */
	bool *failmark;			/* n entries: marked because its last batch failed on it
			 * (a batch that then goes well on it unmarks it) */
	char (*health)[TUI_HEALTH_LEN]; /* n entries: SMART verdict and key figures */
	size_t sel;			/* selected row */
	size_t top;			/* first row shown */
	size_t page;			/* the table's rows on the screen (view.c): PgDn */
	int cols, lines;		/* the screen's size at the last draw (view.c) */
	/* the last action's message (the next key clears it); empty: the main
	 * screen's status line says how many drives there are and are marked */
	char status[320];
	char source[128];	   /* "demo rig", "rig FILE", "this machine" */
	struct tui_dialog *dlg;	   /* over whatever screen is on top */
	struct tui_dialog *queued; /* shown one after the other once dlg closes */
	/* the screens over the drive table, the last on top (stack.c) */
	struct tui_screen screens[TUI_MAX_SCREENS];
	unsigned nscreens;
	struct tui_task tasks[TUI_MAX_TASKS];
	unsigned ntasks;
	struct tui_bg bg[TUI_MAX_BG]; /* jobs whose results the UI thread swaps in */
	struct tui_bg *scan;	      /* the rescan running, NULL: none */
	bool scanned;		      /* the first scan has ended: devs is the drive list */
	bool rescan_pending;	      /* rescan once no job (and no scan) is running */
	struct cmdlog *cmdlog;	      /* every command sent this session (tui_main's) */
	/* what the view drew where, for the mouse (screen.c): the key bar's
	 * labels and the drive table's rows on the screen */
	struct tui_hit hits[TUI_MAX_HITS];
	unsigned nhits;
	int rows_y;	 /* the screen row of the first row shown of the list on
				 * top (the drive table, the log, the arrays); -1: none */
	unsigned rows_n; /* its rows shown */
	bool detail_off; /* d: the detail pane hidden, the table takes the screen */
	/* many disks (select.c): the rows shown, sorted and filtered; sel is
	 * always one of them while any is shown, top a position in view */
	size_t *view; /* indexes into devs, in the order shown */
	size_t nview;
	unsigned sort_by; /* 0: scan order, else the registry's column (enum
				 * drive_col) + 1 */
	bool sort_desc;
	char filter[64];       /* a drive shows when any of its names has it */
	bool filtering;	       /* the filter is being typed (/): keys go to it */
	char columns[256];     /* the table's columns ("": tui_cols), from tui.conf */
	unsigned conf_sort_by; /* the sort tui.conf holds: saved on quitting when changed */
	bool conf_sort_desc;
	bool conf_bad; /* tui.conf has a mistake: not written over on quitting */
};

/* The column chooser (Setup, C or F2): every column of the registry, those
 * shown first in their order. */
struct tui_setup {
	unsigned ids[32]; /* enum drive_col, in the order listed */
	bool on[32];
	unsigned n, cur;
	char msg[200]; /* a refusal ("STATE stays: ..."), a hint */
};

/* q: quit at once, or with jobs running ask first (self-tests go on in the
 * drives); refused while a job that cannot be left (a format) runs. */
enum tui_action tui_quit(struct tui_model *m);

/* The drive table's columns: names of the registry `list` uses
 * (front/drives.h), each with the screen width it needs to be shown; the
 * widths are the registry's. NULL name ends it. */
struct tui_col {
	const char *name;
	int min_cols;
};
extern const struct tui_col tui_cols[];
/* An empty drive table of tui_cols; NULL with err when a name is not a
 * column of the registry. */
struct table *tui_drive_table(struct ss_error *err);

/* jobs.c (no curses): jobs whose results the UI thread swaps in */
/* Start run(arg) in a free slot; done runs on the UI thread once it has
 * ended. NULL with err when no slot is free or the thread cannot start
 * (arg stays the caller's). */
struct tui_bg *tui_bg_start(struct tui_model *m, const char *what, job_fn run, void *arg,
			    tui_bg_done done, struct ss_error *err);
/* Ask it to stop (its done still runs, with what the job returned). */
void tui_bg_cancel(struct tui_bg *b);
/* Reap every job that has ended, calling its done; true when any ran or
 * ended (a spinner moved: redraw). */
bool tui_bg_poll(struct tui_model *m);
/* "/ scanning 3/6 drives": a spinner that turns with the time it has run
 * and the job's phase (else what). */
void tui_bg_line(const struct tui_bg *b, char *buf, size_t len);
/* Stop every job (on the way out): cancel, wait up to timeout_s for them
 * to end and call their done; one that does not end in time is left to the
 * process's exit. */
void tui_bg_stop_all(struct tui_model *m, double timeout_s);

/* Rescan (the first load, R/F5, after a job ended): devices_list and the
 * SMART verdicts run as a job (a spinner and "scanning N/M drives" in the
 * status line) and the list is swapped in when it ends. A request while a
 * job or a scan runs is coalesced into one scan after it. 0, or why the
 * job could not start (also in the status line). */
int tui_model_refresh(struct tui_model *m);
/* The rows of those drives read again now (a job of its own), where the
 * rescan waits for other jobs to end: a batch's drives show their new state
 * while a long self-test runs on another. Drives a job works on are left
 * out; nothing when a scan runs (it reads them all). */
void tui_rows_refresh(struct tui_model *m, const char (*specs)[256], size_t n);
/* Take a scan's drives into the model (UI thread): the table rebuilt, the
 * selection and the marks kept on the same disks (by serial, else WWN,
 * else name) wherever their rows moved; a disk that vanished loses its
 * mark (the status line, when it has no message, counts them).
 * Takes devs and health (n entries each). */
void tui_model_swap(struct tui_model *m, struct dev_entry *devs, size_t n,
		    char (*health)[TUI_HEALTH_LEN]);

/* model.c (no curses) */
void tui_model_fini(struct tui_model *m);
void tui_model_move(struct tui_model *m, long delta);
/* PgUp/PgDn: a page back or on, the rows shown (page: the view's last
 * count of them; at least one). */
long tui_page_step(int key, size_t page);
enum tui_action tui_handle_key(struct tui_model *m, int key);
/* The running task on a drive, or NULL. */
struct tui_task *tui_task_for(struct tui_model *m, const char *spec);
int tui_task_start(struct tui_model *m, const char *spec, const char *what, job_fn fn, void *arg,
		   void (*finish)(struct tui_model *, struct tui_task *, int,
				  const struct ss_error *));
/* The drives an action applies to: the marked ones, else the selected one.
 * Returns how many indexes were written. */
size_t tui_targets(const struct tui_model *m, size_t *idx, size_t max);
/* A job runs on one of them: an alert says which (true). */
bool tui_targets_busy(struct tui_model *m);

/*
 * A job on each drive an action applies to (tui_targets), each a task with
 * its progress in the table, and the results once the last has ended
 * (bench.c, qualify.c). The skeleton allocates the run's state (flow) and
 * each drive's (op), zeroed, and frees them; the hooks fill and release
 * what they hold.
 */
struct tui_fanout_ops {
	const char *what;  /* the task's name in the table: "bench" */
	const char *title; /* of the alert when it cannot start, of the summary: "Benchmark" */
	int key;	   /* the key that starts it (the summary's retry) */
	size_t flow_size, op_size;
	/* Optional: the run's state from what the caller passed (the options
	 * of its form), before the first prepare. */
	void (*setup)(void *flow, void *arg);
	/* One drive's job into op; non-zero with err: the drive is left out and
	 * the status line says why. */
	int (*prepare)(struct tui_model *m, void *flow, const struct dev_entry *e, void *op,
		       struct ss_error *err);
	job_fn run; /* off the UI thread, with op */
	/* On the UI thread when a drive's job has ended (or could not start):
	 * its result into flow, a line of it into result (for the summary;
	 * when rc is not 0, err says why); releases what op holds. */
	void (*done)(struct tui_model *m, void *flow, void *op, int rc, const struct ss_error *err,
		     char *result, size_t len);
	/* Optional: whether the run changes drives (a rescan after it shows
	 * them); NULL: it only reads. */
	bool (*changes)(const void *flow);
	/* When the last has ended (started: how many jobs ran; 0: none could
	 * start): the results (b: how each drive ended, for their head);
	 * releases what flow holds. Then the batch's summary. */
	void (*end)(struct tui_model *m, void *flow, unsigned started, const struct tui_batch *b);
};
/*
 * A batch (summary.c): the drives an action runs on, each reporting how it
 * ended; after the last, the summary: "N done, M failed" in the status
 * line, and a dialog (queued behind an open one) with each failed drive and
 * its reason and each done one with its result, as the CLI prints them; the
 * failed drives marked and the done ones unmarked (a retry is one key); a
 * rescan, so that the rows show the drives' new state.
 */
struct tui_batch_item {
	char spec[256];
	bool running, ended;
	int rc;
	char text[640]; /* "spec: the result" or "spec: why it failed" */
};
struct tui_batch {
	char what[32];	    /* "limit": the status line's */
	char title[64];	    /* "Limit": the summary's */
	int key;	    /* the key that retries it (0: none) */
	bool results_shown; /* the results show elsewhere (a pager): the
				     * dialog only when one failed */
	bool reads_only;    /* it changed no drive: no rescan after it */
	bool held;	    /* still starting: not ended with its last job */
	size_t n, pending;
	struct tui_batch_item *items;
};
/* NULL: out of memory (every tui_batch_* call takes NULL and does nothing). */
struct tui_batch *tui_batch_new(const char *what, const char *title, int key);
void tui_batch_free(struct tui_batch *b);
/* A drive whose job started. */
void tui_batch_add(struct tui_batch *b, const char *spec);
/* How a drive ended (rc 0: done, with its result; -ECANCELED: stopped by
 * the abort key; else why it failed; a drive that never started is added
 * ended); after the last, the summary, and b is freed. */
void tui_batch_ended(struct tui_model *m, struct tui_batch *b, const char *spec, int rc,
		     const char *text);
/* Every job started: if all have ended already, the summary now (b freed). */
void tui_batch_seal(struct tui_model *m, struct tui_batch *b);
/* The summary's lines into out: the failed drives and, with done_too, the
 * done ones (the dialog's), else a head ("bench: 1 done, 2 failed.") and the
 * failed ones (a report's); the counts; "1 done, 7 failed". */
void tui_batch_lines(const struct tui_batch *b, struct tui_lines *out, bool done_too);
void tui_batch_headline(const struct tui_batch *b, char *buf, size_t len);

/* Start it (arg goes to setup); *started says how many jobs run (the
 * status line is the caller's). */
enum tui_action tui_fanout_start(struct tui_model *m, const struct tui_fanout_ops *ops, void *arg,
				 unsigned *started);

struct tui_dialog *tui_dialog_new(const char *title);
void tui_dialog_line(struct tui_dialog *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tui_dialog_free(struct tui_dialog *d);
/* A refusal shown inside d (wrapped, in the alert colour); d stays open. */
enum tui_action tui_dialog_error(struct tui_dialog *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Show a message box that any key closes (it replaces an open dialog: for
 * what a key asked). */
enum tui_action tui_alert(struct tui_model *m, const char *title, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* What a job that ended has to say: a message box shown now when no dialog
 * is open, else once the open one (and those queued before) closed. */
void tui_notice(struct tui_model *m, const char *title, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tui_notice_dialog(struct tui_model *m, struct tui_dialog *d);
void tui_status(struct tui_model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Open a pager on text (split at newlines; the pager copies it). */
void tui_pager_open(struct tui_model *m, const char *title, const char *text);
/* Show p (the caller's until then): over the screen on top, or in the
 * place of the pager on top (one report at a time). */
enum tui_action tui_pager_show(struct tui_model *m, struct tui_pager *p);
/* Its text (replacing what it had). */
void tui_pager_set_text(struct tui_pager *p, const char *text);

/* reports.c (no curses): s and z, the selected drive's SMART report and its
 * zones (with the measured profile), read by a job (tui_bg) into a pager
 * that shows a spinner until then; the text is what `smart -a -l` and
 * `zones --measure` print, from the same renderers (src/front). */
enum tui_action tui_report_smart(struct tui_model *m);
enum tui_action tui_report_zones(struct tui_model *m);

/* planner.c (no curses): p opens it over the selected or marked drives */
enum tui_action tui_planner_open(struct tui_model *m);
extern const char *const tui_plan_field_names[TPF_COUNT];

/* The plan of the chosen layout (for saving or applying); NULL with err. */
struct plan *tui_planner_plan(const struct tui_planner *p, struct ss_error *err);

/* arrays.c (no curses): a in the planner applies the chosen layout (name,
 * filesystem, every member's serial typed, then a job); A opens the
 * arrays screen, where u undoes the selected array */
enum tui_action tui_apply_open(struct tui_model *m);
enum tui_action tui_arrays_open(struct tui_model *m);

/* bench.c: b benchmarks the selected or marked drives (random reads) */
enum tui_action tui_bench_start(struct tui_model *m);
/* qualify.c: Q, quick read-only qualification of the selected or marked drives. */
enum tui_action tui_qualify_start(struct tui_model *m);

/* screen.c (no curses): d, and the mouse. A click (button 1 pressed) on a
 * key bar label is its key, on a row of the drive table selects it; the
 * wheel is three Up or Down keys to whatever is on top. */
enum tui_mouse_kind { TUI_CLICK, TUI_WHEEL_UP, TUI_WHEEL_DOWN };
enum tui_action tui_mouse(struct tui_model *m, enum tui_mouse_kind kind, int y, int x);
/* The drive table's click: the row shown there selected. */
enum tui_action tui_main_click(struct tui_model *m, void *data, size_t row);
enum tui_action tui_detail_toggle(struct tui_model *m);
/* Enter: every field of the selected drive (what the detail pane has no
 * room for) in a pager, as `info` prints them. */
enum tui_action tui_detail_open(struct tui_model *m);
/* ^N in the planner: its notes, every one, in a pager over it. */
enum tui_action tui_planner_notes(struct tui_model *m);
/* select.c (no curses): many disks */
/* The position of sel in view (0 when not shown). */
size_t tui_view_pos(const struct tui_model *m);
/* Select the pos-th row shown (a click on the table: pos = top + its row);
 * false when there is none there. */
bool tui_view_select(struct tui_model *m, size_t pos);
bool tui_filter_match(const struct dev_entry *e, const char *filter);
/* The drive table on m->columns again (rows from devs), then the view. */
void tui_table_rebuild(struct tui_model *m);
/* DEVICE, SIZE, LIMITED, STATE: the table always shows them. */
bool tui_col_required(unsigned id);
/* The screen width a column of the registry needs to be shown. */
int tui_col_min(unsigned id);
/* The status line when it has no message: "24 drives, 3 marked: actions
 * apply to them" (and how many marks the filter hides). */
void tui_count_line(const struct tui_model *m, char *buf, size_t len);
/* "sort SIZE desc, filter 'st4': 5 of 24" (empty: neither). */
void tui_select_line(const struct tui_model *m, char *buf, size_t len);
/* $XDG_CONFIG_HOME/shortstroke/tui.conf, else ~/.config/...; -ENOENT: neither. */
int tui_conf_path(char *buf, size_t len);
/* Read tui.conf into m (columns, sort); 0, or an error with what is wrong in err
 * (a misspelt column: the defaults are used). No file: 0. */
int tui_conf_load(struct tui_model *m, struct ss_error *err);
/* On quitting: a sort changed since tui.conf was read (or written) is
 * written there with the columns, unless the file had a mistake. 0, or an
 * error with why in err. */
int tui_conf_quit(struct tui_model *m, struct ss_error *err);
enum tui_action tui_sort_next(struct tui_model *m);    /* > */
enum tui_action tui_sort_prev(struct tui_model *m);    /* < */
enum tui_action tui_sort_invert(struct tui_model *m);  /* I */
enum tui_action tui_mark_shown(struct tui_model *m);   /* * */
enum tui_action tui_mark_invert(struct tui_model *m);  /* i */
enum tui_action tui_mark_none(struct tui_model *m);    /* U */
enum tui_action tui_filter_start(struct tui_model *m); /* / */
enum tui_action tui_filter_clear(struct tui_model *m);
/* A key while the filter is typed: TUI_NONE for what it does not take. */
enum tui_action tui_filter_key(struct tui_model *m, int key);
enum tui_action tui_setup_open(struct tui_model *m); /* C, F2 */
void tui_setup_columns(const struct tui_setup *s, char *buf, size_t len);

/* ---- screens (stack.c, no curses) ---- */
extern const struct tui_screen_ops tui_main_screen; /* the drive table (actions.c) */
extern const struct tui_screen_ops tui_help_screen; /* the help box (model.c) */
/* a dialog, and a dialog with a form (m->dlg; model.c) */
extern const struct tui_screen_ops tui_dialog_screen, tui_form_screen;
extern const struct tui_screen_ops tui_pager_screen;	/* a report (model.c) */
extern const struct tui_screen_ops tui_planner_screen;	/* planner.c */
extern const struct tui_screen_ops tui_arrays_screen;	/* arrays.c */
extern const struct tui_screen_ops tui_applying_screen; /* an apply's progress, arrays.c */
extern const struct tui_screen_ops tui_log_screen;	/* log.c */
extern const struct tui_screen_ops tui_setup_screen;	/* the column chooser, select.c */
/* Every screen, in the order tui --help lists their keys; NULL ends it. */
extern const struct tui_screen_ops *const tui_screen_list[];

/* Push a screen with its state over the one on top: TUI_REDRAW; when the
 * stack is full, data is closed and an alert says so. */
enum tui_action tui_screen_open(struct tui_model *m, const struct tui_screen_ops *ops, void *data);
/* Close the screen whose state is data (its close hook frees it), wherever
 * it is on the stack; NULL or a state no screen has: nothing. */
void tui_screen_close(struct tui_model *m, void *data);
/* Close every screen, the top first (on the way out). */
void tui_screen_close_all(struct tui_model *m);
/* The state of the topmost screen of that kind, or NULL. */
void *tui_screen_find(const struct tui_model *m, const struct tui_screen_ops *ops);
/* The screen on top of the stack (the drive table when none is pushed). */
struct tui_screen tui_screen_top(const struct tui_model *m);
/* What keys and clicks go to: the dialog when one is open, else the top. */
struct tui_screen tui_screen_focus(const struct tui_model *m);
/* A key to the screen in focus (a resize redraws, a tick goes to its tick). */
enum tui_action tui_screen_key(struct tui_model *m, int key);
/* Draw the screens: from the last that fills the terminal up, then the
 * dialog (the hooks draw; no curses here). */
void tui_screens_draw(const struct tui_model *m);
/* The line of a key table that takes key, or NULL. */
const struct tui_key *tui_key_find(const struct tui_key *keys, int key);
/* Run the line of the table that takes key: TUI_NONE when none does. */
enum tui_action tui_keys_run(struct tui_model *m, const struct tui_key *keys, void *data, int key);

/* A line a key of the screen's table ("  NAME  what they do", the name in
 * width columns), as the help box and tui --help show them. */
void tui_keys_lines(const struct tui_screen_ops *ops, int width, struct tui_lines *out);
/* What the help box over a screen says: its keys, then what they are about. */
void tui_help_text(const struct tui_screen_ops *of, struct tui_lines *out);

/* The help box over a screen: its keys (model.c). */
struct tui_help {
	const struct tui_screen_ops *of; /* the screen whose keys it lists */
	size_t top;			 /* its first row shown (it scrolls on a short screen) */
	size_t max;			 /* the last top that still fills the box (view.c) */
	size_t page;			 /* its rows shown (view.c) */
};
enum tui_action tui_help_open(struct tui_model *m, const struct tui_screen_ops *of);

/* view.c */
void tui_colors_init(void);
void tui_draw(const struct tui_model *m);
/* the screens' draw hooks (view.c, view_forms.c, view_setup.c) */
void tui_draw_main(const struct tui_model *m, void *data);
void tui_draw_help(const struct tui_model *m, void *data);
void tui_draw_dialog(const struct tui_model *m, void *data);
void tui_draw_pager(const struct tui_model *m, void *data);
void tui_draw_planner(const struct tui_model *m, void *data);
void tui_draw_arrays(const struct tui_model *m, void *data);
void tui_draw_applying(const struct tui_model *m, void *data);
void tui_draw_log(const struct tui_model *m, void *data);
void tui_draw_setup(const struct tui_model *m, void *data);

/* keys the model understands (curses KEY_* are mapped to these in tui.c) */
enum {
	TK_UP = 0x1001,
	TK_DOWN,
	TK_HOME,
	TK_END,
	TK_PGUP,
	TK_PGDN,
	TK_RESIZE,
	TK_F5,
	TK_ENTER,
	TK_ESC,
	TK_BACKSPACE,
	TK_TICK, /* no key: the periodic refresh */
	TK_LEFT,
	TK_RIGHT,
	TK_TAB,
	TK_BTAB, /* Shift-Tab */
	TK_F2,	 /* Setup */
	TK_F4,	 /* filter */
};

#endif
