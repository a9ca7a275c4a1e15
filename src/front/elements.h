/* elements.h - a drive's storage elements (heads) and their health, as
 * info prints them and qualify reads them. */
#ifndef SHORTSTROKE_FRONT_ELEMENTS_H
#define SHORTSTROKE_FRONT_ELEMENTS_H

#include "front/record.h"
#include "shortstroke/depop.h"

/* "Elements:" and a line per element (text), "elements" (JSON); nothing
 * for a drive without the feature. block_len sizes each one's share. */
void elements_record(struct record *r, const struct depop_status *s, uint32_t block_len);

#endif
