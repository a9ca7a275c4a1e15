/* elements.h - a drive's storage elements (heads) and their health, as
 * info prints them and qualify reads them. */
#ifndef SHORTSTROKE_FRONT_ELEMENTS_H
#define SHORTSTROKE_FRONT_ELEMENTS_H

#include "front/record.h"
#include "shortstroke/depop.h"
#include "shortstroke/secfmt.h"

/* A drive's storage elements ("Elements:" and a line per element with its
 * health and share; JSON "elements") and the logical sector sizes it offers
 * ("Sector sizes:", the current one marked; "sector_sizes"), read from it
 * (harmless reads: GET PHYSICAL ELEMENT STATUS, the sector sizes VPD page or
 * log), as info and the TUI's details show them; nothing for what the
 * drive does not report. */
void drive_elements_record(struct record *r, struct drive *d, const struct drive_info *i);

#endif
