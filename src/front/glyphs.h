/* glyphs.h - the characters frames, bars and charts are drawn with: Unicode
 * box drawing and block elements where the locale is UTF-8 and the TUI asked
 * for them (glyphs_pick), plain ASCII otherwise (the CLI's output, the C
 * locale, a serial console). Chosen once, at start; every drawer reads them. */
#ifndef SHORTSTROKE_FRONT_GLYPHS_H
#define SHORTSTROKE_FRONT_GLYPHS_H

#include <stdbool.h>
#include <stddef.h>

struct glyphs {
	bool utf8;		       /* the strings below may be multibyte */
	const char *h, *v;	       /* a frame's lines: "-" "|", "─" "│" */
	const char *tl, *tr, *bl, *br; /* its corners */
	const char *lt, *rt;	       /* a rule meeting a frame: "├" "┤" */
	/* a column of a chart filled k eighths, k = 0..8 (ASCII: ' ' below
	 * half, '#' from half on) */
	const char *vblock[9];
	/* a bar's cell filled k eighths from the left (ASCII: as vblock) */
	const char *hblock[9];
	const char *empty;		 /* a progress bar's empty cell: "." "░" */
	const char *before;		 /* the earlier run's bar cell: "=" "▒" */
	const char *more_up, *more_down; /* text above, below: "^" "v", "▲" "▼" */
	const char *cut;		 /* the end of a text cut short: "~" (as mc), "…" */
};

/* The glyphs chosen (ASCII until glyphs_pick chose others). */
const struct glyphs *glyphs(void);
/* Choose by the locale setlocale set: Unicode where its codeset is UTF-8. */
void glyphs_pick(void);
/* Force one set (tests; SHORTSTROKE_ASCII). */
void glyphs_use(bool utf8);

/* Display columns of s (a code point is one column: the glyphs above are). */
size_t glyphs_cols(const char *s);
/* Bytes of s that fill at most cols columns, never cutting a character. */
size_t glyphs_bytes(const char *s, size_t cols);

/* A horizontal bar of v on a scale of max, w cells, into buf (len bytes: at
 * least 3 * w + 1 for Unicode): whole cells and the last one in eighths (fill
 * NULL), or whole cells of fill; the rest of the row blank (pad) or empty
 * cells (!pad: a progress bar). */
void glyphs_bar(double v, double max, unsigned w, const char *fill, bool pad, char *buf,
		size_t len);

#endif
