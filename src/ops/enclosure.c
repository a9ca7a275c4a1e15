/* enclosure.c - a disk's enclosure slot and LEDs through SES. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/enclosure.h"

#define PAGE_BUF 16384

/* One enclosure, opened, with its configuration read. */
struct encl {
	struct drive *d;
	struct ses_config cfg;
	uint8_t *buf;
};

void encl_slot_text(const struct encl_slot *s, char *buf, size_t len)
{
	char slot[16] = "?";

	if (s->slot >= 0)
		snprintf(slot, sizeof(slot), "%d", s->slot);
	snprintf(buf, len, "%s slot %s%s%s%s", s->encl, slot, s->desc[0] ? " (" : "", s->desc,
		 s->desc[0] ? ")" : "");
}

static int read_page(struct encl *x, const char *name, uint8_t page, size_t *got,
		     struct ss_error *err)
{
	uint8_t cdb[6];
	unsigned n = ses_build_receive_diag(cdb, page, PAGE_BUF);
	int rc = drive_scsi_in(x->d, cdb, n, x->buf, PAGE_BUF, got, NULL, err);

	if (rc)
		return rc;
	if (*got < 8 || x->buf[0] != page)
		return ss_error_set(err, -EPROTO,
				    "%s: RECEIVE DIAGNOSTIC RESULTS of page %02xh gave %s", name,
				    page, *got < 8 ? "too little" : "another page");
	return 0;
}

static void encl_close(struct encl *x)
{
	drive_free(x->d);
	free(x->buf);
	memset(x, 0, sizeof(*x));
}

static int encl_open(struct dev_env *env, const struct dev_source_ops *src,
		     const struct dev_encl *de, struct encl *x, struct ss_error *err)
{
	struct transport *t = NULL;
	size_t got;
	int rc;

	memset(x, 0, sizeof(*x));
	x->buf = malloc(PAGE_BUF);
	if (!x->buf)
		return ss_error_set(err, -ENOMEM, "out of memory");
	rc = src->open_encl(env, de, &t, err);
	if (!rc)
		rc = drive_new(t, TRAN_UNKNOWN, &x->d, err);
	if (!rc)
		rc = read_page(x, de->name, SES_PAGE_CONFIG, &got, err);
	if (!rc && ses_parse_config(x->buf, got, &x->cfg))
		rc = ss_error_set(err, -EPROTO, "%s: malformed SES configuration page", de->name);
	if (rc)
		encl_close(x);
	return rc;
}

/* The disk's SAS addresses as far as it tells: its target port (VPD 83h), and
 * its WWN (a SATA disk's name, which an enclosure of the simulator reports). */
static unsigned disk_addrs(const struct dev_entry *e, uint64_t a[2])
{
	unsigned n = 0;
	char *end = NULL;
	uint64_t w;

	if (e->info.sas_addr)
		a[n++] = e->info.sas_addr;
	if (strlen(e->info.wwn) == 16) {
		w = strtoull(e->info.wwn, &end, 16);
		if (end && !*end && w)
			a[n++] = w;
	}
	return n;
}

/* The slot number the kernel's enclosure class links the disk to, or -2. */
static int kernel_link(const struct dev_encl *de, const struct dev_entry *e)
{
	for (unsigned i = 0; i < de->nlinks && i < DEV_ENCL_LINKS; i++)
		if (!strcmp(de->links[i].node, e->node))
			return de->links[i].slot;
	return -2;
}

/* Fill s from the enclosure's pages for element el. */
static int slot_fill(struct encl *x, const struct dev_encl *de, struct ses_elem el, int slot,
		     struct encl_slot *s, struct ss_error *err)
{
	size_t got;
	int rc;

	memset(s, 0, sizeof(*s));
	snprintf(s->encl, sizeof(s->encl), "%s", de->name);
	snprintf(s->encl_id, sizeof(s->encl_id), "%016" PRIx64, x->cfg.logical_id);
	snprintf(s->vendor, sizeof(s->vendor), "%s", x->cfg.vendor);
	snprintf(s->product, sizeof(s->product), "%s", x->cfg.product);
	s->elem = el;
	s->slot = slot;
	if (read_page(x, de->name, SES_PAGE_ELEMENT_DESC, &got, NULL) == 0)
		ses_parse_element_desc(x->buf, got, &x->cfg, el, s->desc, sizeof(s->desc));
	rc = read_page(x, de->name, SES_PAGE_STATUS, &got, err);
	if (rc)
		return rc;
	if (ses_parse_slot_status(x->buf, got, &x->cfg, el, &s->st))
		return ss_error_set(err, -EPROTO, "%s: malformed SES status page", de->name);
	return 0;
}

/* Look for the disk in one enclosure: 1 found, 0 not there, or an error. */
static int search(struct encl *x, const struct dev_encl *de, const struct dev_entry *e,
		  struct encl_slot *out, struct ss_error *err)
{
	struct ses_addl *a = calloc(SES_MAX_ADDL, sizeof(*a));
	uint64_t want[2];
	unsigned n = 0, nw = disk_addrs(e, want);
	int link = kernel_link(de, e), rc;
	size_t got;

	if (!a)
		return ss_error_set(err, -ENOMEM, "out of memory");
	rc = read_page(x, de->name, SES_PAGE_ADDL_STATUS, &got, err);
	if (!rc && ses_parse_addl(x->buf, got, &x->cfg, a, SES_MAX_ADDL, &n))
		rc = ss_error_set(err, -EPROTO, "%s: malformed SES additional element status page",
				  de->name);
	for (unsigned i = 0; !rc && i < n; i++) {
		bool hit = link >= 0 && a[i].slot == link;

		for (unsigned k = 0; k < nw && !hit; k++)
			hit = want[k] &&
			      (want[k] == a[i].sas_addr[0] || want[k] == a[i].sas_addr[1]);
		if (!hit)
			continue;
		rc = slot_fill(x, de, a[i].elem, a[i].slot, out, err);
		out->by_kernel = link >= 0 && a[i].slot == link;
		free(a);
		return rc ? rc : 1;
	}
	free(a);
	return rc;
}

/* The enclosures of the disk's source. */
static int enclosures_of(struct ss_ctx *ctx, const char *spec, const struct dev_source_ops **src,
			 struct dev_encl **list, size_t *n, struct ss_error *err)
{
	struct dev_env *env = ctx_sources(ctx);
	int rc = dev_env_source(env, spec, src, err);

	*list = NULL;
	*n = 0;
	if (rc)
		return rc;
	if (!(*src)->enclosures)
		return 0;
	return (*src)->enclosures(env, list, n, err);
}

int encl_find(struct ss_ctx *ctx, const struct dev_entry *e, struct encl_slot *out,
	      struct ss_error *err)
{
	const struct dev_source_ops *src;
	struct dev_encl *list;
	char names[300] = "";
	size_t n, l = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = enclosures_of(ctx, e->spec, &src, &list, &n, err);
	if (rc)
		return rc;
	if (!n)
		return ss_error_set(err, -ENOENT, "%s: no SES enclosure is attached", e->spec);
	for (size_t i = 0; i < n; i++) {
		struct encl x;

		rc = encl_open(ctx_sources(ctx), src, &list[i], &x, err);
		if (!rc) {
			rc = search(&x, &list[i], e, out, err);
			encl_close(&x);
		}
		if (rc) {
			free(list);
			return rc < 0 ? rc : 0;
		}
		if (l < sizeof(names))
			l += (size_t)snprintf(names + l, sizeof(names) - l, "%s%s", i ? ", " : "",
					      list[i].name);
	}
	free(list);
	return ss_error_set(err, -ENOENT, "%s: in no slot of the SES enclosures attached (%s)",
			    e->spec, names);
}

int encl_set_leds(struct ss_ctx *ctx, struct encl_slot *s, int ident, int fault,
		  struct ss_error *err)
{
	const struct dev_source_ops *src;
	struct dev_encl de;
	struct encl x;
	struct xcmd c;
	size_t got, out_len;
	uint8_t *out = NULL;
	int rc;

	rc = dev_env_source(ctx_sources(ctx), s->encl, &src, err);
	if (rc)
		return rc;
	memset(&de, 0, sizeof(de));
	snprintf(de.name, sizeof(de.name), "%s", s->encl);
	if (!src->open_encl)
		return ss_error_set(err, -ENODEV, "%s: not an enclosure", s->encl);
	rc = encl_open(ctx_sources(ctx), src, &de, &x, err);
	if (rc)
		return rc;
	out = malloc(PAGE_BUF);
	if (!out) {
		encl_close(&x);
		return ss_error_set(err, -ENOMEM, "out of memory");
	}
	rc = read_page(&x, s->encl, SES_PAGE_STATUS, &got, err);
	if (!rc && ses_build_slot_control(x.buf, got, &x.cfg, s->elem, ident, fault, out, PAGE_BUF,
					  &out_len))
		rc = ss_error_set(err, -EPROTO, "%s: malformed SES status page", s->encl);
	if (!rc) {
		memset(&c, 0, sizeof(c));
		c.cdb_len = ses_build_send_diag(c.cdb, (uint16_t)out_len);
		c.dir = XFER_TO_DEV;
		c.data = out;
		c.data_len = out_len;
		rc = drive_scsi(x.d, &c, NULL, err);
	}
	if (!rc)
		rc = read_page(&x, s->encl, SES_PAGE_STATUS, &got, err);
	if (!rc && ses_parse_slot_status(x.buf, got, &x.cfg, s->elem, &s->st))
		rc = ss_error_set(err, -EPROTO, "%s: malformed SES status page", s->encl);
	if (!rc && ((ident >= 0 && s->st.ident != (ident > 0)) ||
		    (fault >= 0 && s->st.fault_reqstd != (fault > 0))))
		rc = ss_error_set(err, -EIO,
				  "%s: the enclosure took the request but its status still shows "
				  "locate %s, fault %s",
				  s->encl, s->st.ident ? "on" : "off",
				  s->st.fault_reqstd ? "on" : "off");
	free(out);
	encl_close(&x);
	return rc;
}
