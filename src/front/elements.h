/* elements.h - a drive's storage elements (heads) and their health, as
 * info prints them and qualify reads them. */
#ifndef SHORTSTROKE_FRONT_ELEMENTS_H
#define SHORTSTROKE_FRONT_ELEMENTS_H

#include "front/record.h"
#include "shortstroke/depop.h"
#include "shortstroke/secfmt.h"

/* "Elements:" and a line per element (text), "elements" (JSON); nothing
 * for a drive without the feature. block_len sizes each one's share. */
void elements_record(struct record *r, const struct depop_status *s, uint32_t block_len);
/* "Sector sizes:" the logical sizes a drive offers, the current one
 * marked (text), "sector_sizes" (JSON); nothing when it offers none. */
void sector_sizes_record(struct record *r, const struct sector_sizes *s, uint32_t now);

#endif
