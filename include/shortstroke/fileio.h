/* fileio.h - writing a whole file so that a crash leaves the old one or the
 * new one, never half of either. */
#ifndef SHORTSTROKE_FILEIO_H
#define SHORTSTROKE_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

#include "shortstroke/error.h"

/* Write len bytes to path: a temporary file beside it, fsync, rename over
 * path, fsync of the directory. what names the file in messages ("the
 * plan", "the report"). */
int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode,
		      const char *what, struct ss_error *err);

#endif
