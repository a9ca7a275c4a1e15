/* protect.h - the protect file: disks nothing is ever sent to.
 *
 * One disk per line, by serial number or WWN:
 *
 *	# the boot mirror
 *	serial:ZFL0ABCD
 *	wwn:0x5000c500a1b2c3d4
 *	WD-WCC7K1234567		# no prefix: matched as serial and as WWN
 *
 * '#' starts a comment (at the start of a line or after whitespace);
 * blank lines are ignored; whitespace around a value is trimmed. A value
 * is one word of printable characters. WWNs are hex, compared without
 * case and with or without a "0x", "naa." or "wwn-0x" prefix ("eui."
 * values are kept and compared as they are, without case). Serials are
 * compared without case, too: on a safety list, a near miss should
 * protect rather than not.
 */
#ifndef SHORTSTROKE_PROTECT_H
#define SHORTSTROKE_PROTECT_H

#include <stdbool.h>
#include <stddef.h>

#include "shortstroke/error.h"

enum protect_kind {
	PROTECT_ANY = 0, /* no prefix: serial or WWN */
	PROTECT_SERIAL,
	PROTECT_WWN,
};

struct protect_list;

/* "/etc/shortstroke/protect.conf" */
const char *protect_default_path(void);

/*
 * Load a protect file. A missing file is an empty list, not an error; an
 * unreadable or malformed one is (-EACCES, -EIO, -EINVAL ...), with
 * "path:line: why" in err.
 */
int protect_load(const char *path, struct protect_list **out, struct ss_error *err);

/* Parse text (len bytes, need not be NUL-terminated). origin names it in
 * messages ("protect.conf:3: ..."). */
int protect_parse(const char *text, size_t len, const char *origin, struct protect_list **out,
		  struct ss_error *err);

void protect_free(struct protect_list *l);

/* True when serial or wwn (either may be NULL or "") is listed. A NULL
 * list matches nothing. */
bool protect_match(const struct protect_list *l, const char *serial, const char *wwn);

size_t protect_count(const struct protect_list *l);
/* Entry i: its kind, its value as written, its line. -ERANGE past the end. */
int protect_get(const struct protect_list *l, size_t i, enum protect_kind *kind, const char **value,
		unsigned *line);

/* "serial", "wwn", "any" */
const char *protect_kind_name(enum protect_kind k);

/*
 * Add or remove an entry, rewriting the file atomically (temporary file
 * in the same directory, fsync, rename, fsync of the directory); every
 * other line, comments included, is kept as it was. The file (and its
 * directory, one level) is created when missing.
 *   protect_add:    -EEXIST when an equal entry is already listed;
 *                   -EINVAL for a value that is not a valid entry.
 *   protect_remove: removes every line with an equal value (kinds must
 *                   agree unless one of them is PROTECT_ANY); -ENOENT
 *                   when there was none.
 * The existing file must parse, or nothing is written.
 */
int protect_add(const char *path, enum protect_kind kind, const char *value, struct ss_error *err);
int protect_remove(const char *path, enum protect_kind kind, const char *value,
		   struct ss_error *err);

#endif
