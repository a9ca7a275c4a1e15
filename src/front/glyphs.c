/* glyphs.c - the characters frames, bars and charts are drawn with
 * (glyphs.h). */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "glyphs.h"

static const struct glyphs ascii = {
	.utf8 = false,
	.h = "-",
	.v = "|",
	.tl = "+",
	.tr = "+",
	.bl = "+",
	.br = "+",
	.lt = "+",
	.rt = "+",
	.vblock = { " ", " ", " ", " ", "#", "#", "#", "#", "#" },
	.hblock = { " ", " ", " ", " ", "#", "#", "#", "#", "#" },
	.empty = ".",
	.before = "=",
	.more_up = "^",
	.more_down = "v",
	.cut = "~",
};

static const struct glyphs unicode = {
	.utf8 = true,
	.h = "─",
	.v = "│",
	.tl = "┌",
	.tr = "┐",
	.bl = "└",
	.br = "┘",
	.lt = "├",
	.rt = "┤",
	.vblock = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" },
	.hblock = { " ", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█" },
	.empty = "░",
	.before = "▒",
	.more_up = "▲",
	.more_down = "▼",
	.cut = "…",
};

static const struct glyphs *chosen = &ascii;

const struct glyphs *glyphs(void)
{
	return chosen;
}

void glyphs_use(bool utf8)
{
	chosen = utf8 ? &unicode : &ascii;
}

void glyphs_pick(void)
{
	const char *cs = nl_langinfo(CODESET);
	const char *force = getenv("SHORTSTROKE_ASCII");

	glyphs_use(cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8")) &&
		   !(force && *force && strcmp(force, "0")));
}

size_t glyphs_cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

size_t glyphs_bytes(const char *s, size_t cols)
{
	size_t b = 0, n = 0;

	while (s[b]) {
		if (((unsigned char)s[b] & 0xc0) != 0x80 && n++ == cols)
			break;
		b++;
	}
	return b;
}

void glyphs_bar(double v, double max, unsigned w, const char *fill, bool pad, char *buf, size_t len)
{
	const struct glyphs *g = chosen;
	double cells = max > 0 && v > 0 ? v / max * w : 0;
	unsigned eighths, whole, part;
	size_t used = 0;

	if (cells > w)
		cells = w;
	eighths = (unsigned)(cells * 8 + 0.5);
	whole = eighths / 8;
	part = eighths % 8;
	if (!g->utf8 || fill) { /* whole cells, rounded */
		whole = (unsigned)(cells + 0.5);
		part = 0;
	}
	for (unsigned i = 0; i < w && len; i++) {
		const char *c = i < whole	     ? (fill ? fill : g->hblock[8])
				: i == whole && part ? g->hblock[part]
				: pad		     ? " "
						     : g->empty;
		size_t l = strlen(c);

		if (used + l >= len)
			break;
		memcpy(buf + used, c, l);
		used += l;
	}
	if (len)
		buf[used] = '\0';
}
