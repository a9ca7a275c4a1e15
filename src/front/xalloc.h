/* xalloc.h - allocation wrappers for front ends: exit on failure.
 * Library code must not use these; it returns -ENOMEM. */
#ifndef SHORTSTROKE_FRONT_XALLOC_H
#define SHORTSTROKE_FRONT_XALLOC_H

#include <stddef.h>

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif
