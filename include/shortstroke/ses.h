/* ses.h - the SCSI Enclosure Services codec (SES-3): RECEIVE DIAGNOSTIC
 * RESULTS and SEND DIAGNOSTIC builders, and the diagnostic pages a tool
 * needs to find a disk's slot and light its LEDs: 01h Configuration, 02h
 * Enclosure Status (and the Enclosure Control page sent back), 07h Element
 * Descriptor, 0Ah Additional Element Status (the SAS addresses in each
 * slot). Pure: no I/O; parsers never read past the length given and return
 * 0, -EPROTO for a malformed page or -ESTALE when a page's generation code
 * is not the configuration's. */
#ifndef SHORTSTROKE_SES_H
#define SHORTSTROKE_SES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCSI_RECEIVE_DIAGNOSTIC 0x1c
#define PDT_ENCLOSURE 0x0d

#define SES_PAGE_SUPPORTED 0x00
#define SES_PAGE_CONFIG 0x01
#define SES_PAGE_STATUS 0x02 /* Enclosure Status in, Enclosure Control out */
#define SES_PAGE_ELEMENT_DESC 0x07
#define SES_PAGE_ADDL_STATUS 0x0a

#define SES_TYPE_DEVICE_SLOT 0x01
#define SES_TYPE_ARRAY_DEVICE_SLOT 0x17

#define SES_MAX_TYPES 64
#define SES_MAX_ADDL 256

/* RECEIVE DIAGNOSTIC RESULTS with PCV=1 for page; SEND DIAGNOSTIC with
 * PF=1 and a parameter list of param_len bytes. */
unsigned ses_build_receive_diag(uint8_t cdb[6], uint8_t page, uint16_t alloc);
unsigned ses_build_send_diag(uint8_t cdb[6], uint16_t param_len);

struct ses_type {
	uint8_t type;	/* element type: 01h device slot, 17h array device slot ... */
	uint8_t count;	/* number of possible elements */
	uint8_t subenc; /* subenclosure identifier */
};

/* 01h Configuration: the primary subenclosure's identity and every type
 * descriptor header, in the order the other pages follow. */
struct ses_config {
	uint32_t generation;
	uint64_t logical_id; /* ENCLOSURE LOGICAL IDENTIFIER (a NAA name) */
	char vendor[9], product[17], revision[5];
	unsigned nsubenc; /* subenclosures, the primary one included */
	unsigned ntypes;
	struct ses_type types[SES_MAX_TYPES];
};
int ses_parse_config(const uint8_t *buf, size_t len, struct ses_config *out);

/* An element by its type header and its place in the type (0-based), and
 * the element index SES counts without the overall elements. */
struct ses_elem {
	unsigned type_index;
	unsigned nth;
};
/* The element index (overall elements not counted) of e; -1 when e is not
 * in c. */
int ses_elem_index(const struct ses_config *c, struct ses_elem e);
/* The element of index (overall elements not counted, or counted when
 * with_overall): 0 or -ENOENT. */
int ses_elem_at(const struct ses_config *c, unsigned index, bool with_overall,
		struct ses_elem *out);
/* Whether the type header of e is a device slot or an array device slot. */
bool ses_elem_is_slot(const struct ses_config *c, struct ses_elem e);

/* A device slot's (or array device slot's) status element, 02h. */
struct ses_slot_status {
	uint8_t code;	    /* ELEMENT STATUS CODE: 1 OK, 2 critical, 5 not installed ... */
	bool ident;	    /* the locate LED (IDENT) */
	bool fault_reqstd;  /* the fault LED asked for (FAULT REQSTD) */
	bool fault_sensed;  /* the enclosure sensed a fault (FAULT SENSED) */
	bool device_off;    /* DEVICE OFF */
	bool do_not_remove; /* DO NOT REMOVE */
	uint8_t raw[4];
};
int ses_parse_slot_status(const uint8_t *buf, size_t len, const struct ses_config *c,
			  struct ses_elem e, struct ses_slot_status *out);
/* "OK", "critical", "not installed", ... (SES-3 element status codes) */
const char *ses_status_code_name(uint8_t code);

/* 07h Element Descriptor: the text of e ("Slot 03"), trimmed, into out. */
int ses_parse_element_desc(const uint8_t *buf, size_t len, const struct ses_config *c,
			   struct ses_elem e, char *out, size_t outlen);

/* 0Ah Additional Element Status, SAS descriptors: the element each one is
 * of, its device slot number and the SAS addresses of its phys (the
 * address of the device in the slot). Descriptors without an element index
 * (EIP clear) are taken in order of the device slot and array device slot
 * elements. Other protocols and invalid descriptors are skipped. */
struct ses_addl {
	struct ses_elem elem;
	int slot; /* DEVICE SLOT NUMBER, -1 when not given */
	unsigned nphys;
	uint64_t sas_addr[2]; /* of phys 0 and 1 (0: none) */
};
int ses_parse_addl(const uint8_t *buf, size_t len, const struct ses_config *c, struct ses_addl *out,
		   unsigned max, unsigned *n);

/*
 * The Enclosure Control page (02h out) that sets e's locate (IDENT) and
 * fault (FAULT) requests as asked and changes nothing else: from the status
 * page as read (its generation code, the expected one), every other element
 * not selected, e's control element SELECT with DO NOT REMOVE and DEVICE OFF
 * as the status says (and an array device slot's byte 1, its RQST OK ... bits). ident/fault: -1 keep, 0 off, 1 on. out_len: the
 * parameter list's length.
 */
int ses_build_slot_control(const uint8_t *status, size_t len, const struct ses_config *c,
			   struct ses_elem e, int ident, int fault, uint8_t *out, size_t out_max,
			   size_t *out_len);

#endif
