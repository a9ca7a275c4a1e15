/* enclosure.h - the enclosure slot a disk sits in, and its locate and fault
 * LEDs, through SES (ses.h): the enclosures of the disk's device source (a
 * rig's, or the machine's: /sys/class/enclosure, else every SCSI generic
 * device of type 0Dh), the disk's element found by its SAS address in the
 * Additional Element Status page (or by the kernel's enclosure class link),
 * the LEDs set through the Enclosure Control page and read back. */
#ifndef SHORTSTROKE_ENCLOSURE_H
#define SHORTSTROKE_ENCLOSURE_H

#include <stdbool.h>

#include "shortstroke/devices.h"
#include "shortstroke/error.h"
#include "shortstroke/ses.h"

struct encl_slot {
	char encl[256];	  /* the enclosure as its source names it: "sim:encl0", "/dev/sg3" */
	char encl_id[20]; /* its logical identifier, hex */
	char vendor[9], product[17];
	int slot;      /* DEVICE SLOT NUMBER (0Ah), -1 when not given */
	char desc[64]; /* the element's descriptor (07h): "Slot 03", "" */
	struct ses_elem elem;
	struct ses_slot_status st; /* as last read */
	bool by_kernel;		   /* found through the kernel's enclosure class link */
};

/* "sim:encl0 slot 3 (Slot 03)" */
void encl_slot_text(const struct encl_slot *s, char *buf, size_t len);

/*
 * The slot that holds the disk e (identified): 0 with out filled; -ENOENT
 * when it is in none, err saying whether any SES enclosure exists
 * ("no SES enclosure is attached") or which were searched; another negative
 * errno when an enclosure could not be read. Reads only (RECEIVE
 * DIAGNOSTIC RESULTS); sends nothing to the disk.
 */
int encl_find(struct ss_ctx *ctx, const struct dev_entry *e, struct encl_slot *out,
	      struct ss_error *err);

/*
 * Turn the slot's locate (ident) and fault LEDs on (1), off (0) or leave
 * them (-1): SEND DIAGNOSTIC of the Enclosure Control page, then the status
 * read back into s->st; -EIO when the enclosure did not take it.
 */
int encl_set_leds(struct ss_ctx *ctx, struct encl_slot *s, int ident, int fault,
		  struct ss_error *err);

#endif
