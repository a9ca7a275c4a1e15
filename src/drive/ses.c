/* ses.c - SCSI Enclosure Services (SES-3) codec: the diagnostic pages that
 * find a disk's slot (01h, 07h, 0Ah) and light its LEDs (02h). */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/ses.h"

#define HDR 8 /* page code, flags, length, generation code */
#define ELEM 4

unsigned ses_build_receive_diag(uint8_t cdb[6], uint8_t page, uint16_t alloc)
{
	memset(cdb, 0, 6);
	cdb[0] = SCSI_RECEIVE_DIAGNOSTIC;
	cdb[1] = 0x01; /* PCV */
	cdb[2] = page;
	sg_put_unaligned_be16(alloc, cdb + 3);
	return 6;
}

unsigned ses_build_send_diag(uint8_t cdb[6], uint16_t param_len)
{
	memset(cdb, 0, 6);
	cdb[0] = 0x1d; /* SEND DIAGNOSTIC */
	cdb[1] = 0x10; /* PF */
	sg_put_unaligned_be16(param_len, cdb + 3);
	return 6;
}

/* A page's length as its header says (4 + PAGE LENGTH), 0 when len < 4:
 * how much to ask for when the first answer was cut. */
static size_t ses_page_full_len(const uint8_t *buf, size_t len)
{
	return len < 4 ? 0 : 4 + (size_t)sg_get_unaligned_be16(buf + 2);
}

/* The page's header: its code, and the length it can be read to. */
static int page_header(const uint8_t *buf, size_t len, uint8_t page, size_t *end)
{
	size_t full;

	if (!buf || len < HDR || buf[0] != page)
		return -EPROTO;
	full = ses_page_full_len(buf, len);
	*end = full < len ? full : len;
	return *end < HDR ? -EPROTO : 0;
}

static void text(const uint8_t *p, size_t n, char *out, size_t outlen)
{
	size_t i, o = 0;

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\0'))
		n--;
	while (n && *p == ' ') {
		p++;
		n--;
	}
	for (i = 0; i < n && o + 1 < outlen; i++)
		out[o++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	if (outlen)
		out[o] = '\0';
}

int ses_parse_config(const uint8_t *buf, size_t len, struct ses_config *out)
{
	size_t end, off = HDR;
	unsigned nsub, ntypes = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = page_header(buf, len, SES_PAGE_CONFIG, &end);
	if (rc)
		return rc;
	out->generation = sg_get_unaligned_be32(buf + 4);
	nsub = buf[1] + 1u;
	out->nsubenc = nsub;
	for (unsigned s = 0; s < nsub; s++) {
		size_t dlen;

		if (off + 4 > end)
			return -EPROTO;
		dlen = 4 + (size_t)buf[off + 3];
		if (dlen < 40 || off + dlen > end)
			return -EPROTO;
		ntypes += buf[off + 2];
		if (s == 0) {
			out->logical_id = sg_get_unaligned_be64(buf + off + 4);
			text(buf + off + 12, 8, out->vendor, sizeof(out->vendor));
			text(buf + off + 20, 16, out->product, sizeof(out->product));
			text(buf + off + 36, 4, out->revision, sizeof(out->revision));
		}
		off += dlen;
	}
	if (ntypes > SES_MAX_TYPES || off + 4 * (size_t)ntypes > end)
		return -EPROTO;
	for (unsigned t = 0; t < ntypes; t++, off += 4) {
		out->types[t].type = buf[off];
		out->types[t].count = buf[off + 1];
		out->types[t].subenc = buf[off + 2];
	}
	out->ntypes = ntypes;
	return 0;
}

int ses_elem_index(const struct ses_config *c, struct ses_elem e)
{
	unsigned idx = 0;

	if (e.type_index >= c->ntypes || e.nth >= c->types[e.type_index].count)
		return -1;
	for (unsigned t = 0; t < e.type_index; t++)
		idx += c->types[t].count;
	return (int)(idx + e.nth);
}

int ses_elem_at(const struct ses_config *c, unsigned index, bool with_overall, struct ses_elem *out)
{
	for (unsigned t = 0; t < c->ntypes; t++) {
		unsigned n = c->types[t].count + (with_overall ? 1u : 0u);

		if (index < n) {
			if (with_overall && index == 0)
				return -ENOENT; /* the overall element itself */
			out->type_index = t;
			out->nth = index - (with_overall ? 1u : 0u);
			return 0;
		}
		index -= n;
	}
	return -ENOENT;
}

bool ses_elem_is_slot(const struct ses_config *c, struct ses_elem e)
{
	uint8_t t;

	if (e.type_index >= c->ntypes)
		return false;
	t = c->types[e.type_index].type;
	return t == SES_TYPE_DEVICE_SLOT || t == SES_TYPE_ARRAY_DEVICE_SLOT;
}

/* Offset of e's element in a page laid out as 02h is (each type: the
 * overall element, then its elements, 4 bytes each). */
static int elem_offset(const struct ses_config *c, struct ses_elem e, size_t *off)
{
	size_t o = HDR;

	if (e.type_index >= c->ntypes || e.nth >= c->types[e.type_index].count)
		return -ENOENT;
	for (unsigned t = 0; t < e.type_index; t++)
		o += ELEM * (1 + (size_t)c->types[t].count);
	*off = o + ELEM * (1 + (size_t)e.nth);
	return 0;
}

static int status_page(const uint8_t *buf, size_t len, const struct ses_config *c, size_t *end)
{
	int rc = page_header(buf, len, SES_PAGE_STATUS, end);

	if (rc)
		return rc;
	return sg_get_unaligned_be32(buf + 4) == c->generation ? 0 : -ESTALE;
}

int ses_parse_slot_status(const uint8_t *buf, size_t len, const struct ses_config *c,
			  struct ses_elem e, struct ses_slot_status *out)
{
	size_t end, off;
	const uint8_t *p;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = status_page(buf, len, c, &end);
	if (rc)
		return rc;
	if (!ses_elem_is_slot(c, e) || elem_offset(c, e, &off))
		return -ENOENT;
	if (off + ELEM > end)
		return -EPROTO;
	p = buf + off;
	memcpy(out->raw, p, ELEM);
	out->code = p[0] & 0x0f;
	out->do_not_remove = p[2] & 0x40;
	out->ident = p[2] & 0x02;
	out->fault_sensed = p[3] & 0x40;
	out->fault_reqstd = p[3] & 0x20;
	out->device_off = p[3] & 0x10;
	return 0;
}

const char *ses_status_code_name(uint8_t code)
{
	static const char *const names[] = {
		"unsupported",	 "OK",	    "critical",	     "noncritical", "unrecoverable",
		"not installed", "unknown", "not available", "no access",
	};

	return code < sizeof(names) / sizeof(names[0]) ? names[code] : "reserved";
}

int ses_parse_element_desc(const uint8_t *buf, size_t len, const struct ses_config *c,
			   struct ses_elem e, char *out, size_t outlen)
{
	size_t end, off = HDR;
	int rc;

	if (outlen)
		out[0] = '\0';
	rc = page_header(buf, len, SES_PAGE_ELEMENT_DESC, &end);
	if (rc)
		return rc;
	if (sg_get_unaligned_be32(buf + 4) != c->generation)
		return -ESTALE;
	if (e.type_index >= c->ntypes || e.nth >= c->types[e.type_index].count)
		return -ENOENT;
	/* walk: each type's overall descriptor, then its elements' */
	for (unsigned t = 0; t <= e.type_index; t++) {
		unsigned n = 1u + (t == e.type_index ? e.nth + 1u : c->types[t].count);

		for (unsigned k = 0; k < n; k++) {
			size_t dlen;

			if (off + 4 > end)
				return -EPROTO;
			dlen = sg_get_unaligned_be16(buf + off + 2);
			if (off + 4 + dlen > end)
				return -EPROTO;
			if (t == e.type_index && k == n - 1) {
				text(buf + off + 4, dlen, out, outlen);
				return 0;
			}
			off += 4 + dlen;
		}
	}
	return -ENOENT;
}

/* The SAS protocol-specific part of a descriptor (p: its bytes after the
 * element index when eip, else after byte 1; n bytes). */
static void addl_sas(const uint8_t *p, size_t n, bool eip, struct ses_addl *a)
{
	size_t phys_off = eip ? 4 : 2;
	unsigned nphys;

	a->slot = -1;
	if (n < (eip ? 4u : 2u))
		return;
	nphys = p[0];	      /* NUMBER OF PHY DESCRIPTORS */
	if ((p[1] >> 6) != 0) /* descriptor type 0: device slot / array device slot */
		return;
	if (eip)
		a->slot = p[3];
	for (unsigned k = 0; k < nphys; k++) {
		const uint8_t *ph = p + phys_off + 28 * (size_t)k;

		if (phys_off + 28 * (size_t)(k + 1) > n)
			break;
		if (k < 2)
			a->sas_addr[k] = sg_get_unaligned_be64(ph + 12);
		a->nphys = k + 1;
	}
}

int ses_parse_addl(const uint8_t *buf, size_t len, const struct ses_config *c, struct ses_addl *out,
		   unsigned max, unsigned *n)
{
	size_t end, off = HDR;
	unsigned next_slot = 0; /* for descriptors without an element index */
	int rc;

	*n = 0;
	rc = page_header(buf, len, SES_PAGE_ADDL_STATUS, &end);
	if (rc)
		return rc;
	if (sg_get_unaligned_be32(buf + 4) != c->generation)
		return -ESTALE;
	while (off + 2 <= end) {
		const uint8_t *d = buf + off;
		size_t dlen = 2 + (size_t)d[1];
		bool invalid = d[0] & 0x80, eip = d[0] & 0x10;
		unsigned proto = d[0] & 0x0f;
		struct ses_addl a;

		if (off + dlen > end)
			return -EPROTO;
		off += dlen;
		memset(&a, 0, sizeof(a));
		if (eip) {
			if (dlen < 4 || ses_elem_at(c, d[3], d[2] & 0x01, &a.elem))
				continue;
		} else {
			/* in order of the slot elements */
			for (;;) {
				if (ses_elem_at(c, next_slot++, false, &a.elem))
					return 0;
				if (ses_elem_is_slot(c, a.elem))
					break;
			}
		}
		if (invalid || proto != 6 || !ses_elem_is_slot(c, a.elem))
			continue;
		addl_sas(d + (eip ? 4 : 2), dlen - (eip ? 4 : 2), eip, &a);
		if (*n < max)
			out[(*n)++] = a;
	}
	return 0;
}

int ses_build_slot_control(const uint8_t *status, size_t len, const struct ses_config *c,
			   struct ses_elem e, int ident, int fault, uint8_t *out, size_t out_max,
			   size_t *out_len)
{
	struct ses_slot_status st;
	size_t end, off = 0;
	uint8_t *p;
	int rc;

	rc = ses_parse_slot_status(status, len, c, e, &st);
	if (rc)
		return rc;
	rc = status_page(status, len, c, &end);
	if (rc)
		return rc;
	if (end > out_max)
		return -ENOSPC;
	if (elem_offset(c, e, &off) || off + ELEM > end)
		return -EPROTO;
	/* every element not selected: SELECT clear, nothing changes */
	memset(out, 0, end);
	out[0] = SES_PAGE_STATUS;
	sg_put_unaligned_be16((uint16_t)(end - 4), out + 2);
	memcpy(out + 4, status + 4, 4); /* EXPECTED GENERATION CODE */
	p = out + off;
	p[0] = 0x80; /* SELECT */
	/* an array device slot's byte 1 (RQST OK, RQST HOT SPARE ...) sits where its status
	 * says them: kept; a device slot's byte 1 is reserved in control */
	if (c->types[e.type_index].type == SES_TYPE_ARRAY_DEVICE_SLOT)
		p[1] = st.raw[1];
	p[2] = (uint8_t)((st.do_not_remove ? 0x40 : 0) |
			 ((ident < 0 ? st.ident : ident) ? 0x02 : 0));	      /* RQST IDENT */
	p[3] = (uint8_t)(((fault < 0 ? st.fault_reqstd : fault) ? 0x20 : 0) | /* RQST FAULT */
			 (st.device_off ? 0x10 : 0));			      /* DEVICE OFF */
	*out_len = end;
	return 0;
}
