/* sim_ses.c - a simulated SES enclosure (SES-3): the rig's "enclosures",
 * each a set of slots holding drives of the rig. It answers INQUIRY
 * (peripheral device type 0Dh, ENCSERV), TEST UNIT READY, REQUEST SENSE,
 * RECEIVE DIAGNOSTIC RESULTS of pages 00h, 01h, 02h, 07h, 0Ah and SEND
 * DIAGNOSTIC of the Enclosure Control page (02h): each slot's locate
 * (IDENT) and fault (FAULT REQSTD) LEDs, kept in <state>/<id>.encl. The
 * elements: two power supplies (02h), then the slots as array device slots
 * (17h); the SAS address of a slot is its drive's target port (a SAS
 * drive's WWN + 1, as its VPD page 83h says) or, for a SATA drive, its WWN. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <scsi/sg_unaligned.h>

#include "shortstroke/fileio.h"
#include "shortstroke/sense.h"
#include "shortstroke/ses.h"
#include "sim/sim_priv.h"

#define NPSU 2
#define GENERATION 0
#define PAGE_MAX 4096

/* ---- the rig's "enclosures" --------------------------------------------- */

__attribute__((format(printf, 5, 6))) static int bad(struct ss_error *err, const char *origin,
						     unsigned i, const char *field, const char *fmt,
						     ...)
{
	char what[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ss_error_set(err, -EINVAL, "%s: enclosure #%u: field \"%s\": %s", origin, i + 1,
			    field, what);
}

static int str_field(struct json_object *o, const char *k, size_t max, char *out, bool need,
		     struct ss_error *err, const char *origin, unsigned i)
{
	struct json_object *x;
	const char *s;
	size_t n;

	if (!json_object_object_get_ex(o, k, &x))
		return need ? bad(err, origin, i, k, "missing") : 0;
	if (!json_object_is_type(x, json_type_string))
		return bad(err, origin, i, k, "expected a string");
	s = json_object_get_string(x);
	n = strlen(s);
	if (n == 0 || n > max)
		return bad(err, origin, i, k, "expected 1 to %zu characters", max);
	for (size_t j = 0; j < n; j++)
		if (s[j] < 0x20 || s[j] > 0x7e || (s[j] == ' ' && !strcmp(k, "id")))
			return bad(err, origin, i, k,
				   "only printable ASCII characters are allowed");
	memcpy(out, s, n + 1);
	return 0;
}

static int parse_slots(struct json_object *v, const struct sim_config *cfgs, size_t n,
		       struct sim_rig *rig, struct sim_encl *e, struct ss_error *err,
		       const char *origin, unsigned i)
{
	size_t ns;

	if (!json_object_is_type(v, json_type_array) || (ns = json_object_array_length(v)) == 0 ||
	    ns > SIM_ENCL_MAX_SLOTS)
		return bad(err, origin, i, "slots",
			   "expected an array of 1 to %d drive ids (null: an empty slot)",
			   SIM_ENCL_MAX_SLOTS);
	e->nslots = (unsigned)ns;
	for (size_t s = 0; s < ns; s++) {
		struct json_object *x = json_object_array_get_idx(v, s);
		const char *id;
		size_t k;

		e->slot_idx[s] = -1;
		if (!x)
			continue;
		if (!json_object_is_type(x, json_type_string))
			return bad(err, origin, i, "slots", "slot %zu: expected a drive id or null",
				   s);
		id = json_object_get_string(x);
		for (k = 0; k < n && strcmp(cfgs[k].id, id); k++)
			;
		if (k == n)
			return bad(err, origin, i, "slots", "slot %zu: no drive \"%s\" in the rig",
				   s, id);
		/* a drive sits in one slot of one enclosure */
		for (unsigned q = 0; q <= rig->nencls; q++) {
			const struct sim_encl *o = &rig->encls[q];

			for (unsigned r = 0; r < (q == rig->nencls ? (unsigned)s : o->nslots); r++)
				if (o->slot_idx[r] == (int)k)
					return bad(err, origin, i, "slots",
						   "slot %zu: drive \"%s\" is already in a slot", s,
						   id);
		}
		e->slot_idx[s] = (int)k;
	}
	return 0;
}

static uint64_t id_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

int sim_encl_parse(struct json_object *v, const struct sim_config *cfgs, size_t n,
		   struct sim_rig *rig, const char *origin, struct ss_error *err)
{
	static const char *const keys[] = { "id",  "vendor", "product", "serial",
					    "wwn", "slots",  NULL };
	size_t ne;
	int rc;

	if (!json_object_is_type(v, json_type_array) || (ne = json_object_array_length(v)) == 0 ||
	    ne > SIM_MAX_ENCLS)
		return ss_error_set(err, -EINVAL,
				    "%s: field \"enclosures\": expected an array of 1 to %d "
				    "enclosures",
				    origin, SIM_MAX_ENCLS);
	rig->encls = calloc(ne, sizeof(*rig->encls));
	if (!rig->encls)
		return ss_error_set(err, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < ne; i++) {
		struct json_object *o = json_object_array_get_idx(v, i), *x;
		struct sim_encl *e = &rig->encls[i];
		char wwn[20] = "";

		if (!json_object_is_type(o, json_type_object))
			return ss_error_set(err, -EINVAL, "%s: enclosure #%u: expected an object",
					    origin, i + 1);
		json_object_object_foreach(o, k, val)
		{
			unsigned q;

			(void)val;
			for (q = 0; keys[q] && strcmp(keys[q], k); q++)
				;
			if (!keys[q])
				return bad(err, origin, i, k, "unknown field");
		}
		snprintf(e->vendor, sizeof(e->vendor), "SIMENCL");
		snprintf(e->product, sizeof(e->product), "SAS JBOD");
		if ((rc = str_field(o, "id", SIM_ID_MAX, e->id, true, err, origin, i)) ||
		    (rc = str_field(o, "vendor", 8, e->vendor, false, err, origin, i)) ||
		    (rc = str_field(o, "product", 16, e->product, false, err, origin, i)) ||
		    (rc = str_field(o, "serial", 20, e->serial, false, err, origin, i)) ||
		    (rc = str_field(o, "wwn", 16, wwn, false, err, origin, i)))
			return rc;
		if (strchr(e->id, ':') || strchr(e->id, '/'))
			return bad(err, origin, i, "id", "no ':' or '/' in an id");
		for (size_t d = 0; d < n; d++)
			if (!strcmp(cfgs[d].id, e->id))
				return bad(err, origin, i, "id", "\"%s\" is a drive's id", e->id);
		for (unsigned q = 0; q < i; q++)
			if (!strcmp(rig->encls[q].id, e->id))
				return bad(err, origin, i, "id", "\"%s\" is used twice", e->id);
		if (wwn[0]) {
			char *end = NULL;

			e->wwn = strtoull(wwn, &end, 16);
			if (strlen(wwn) != 16 || *end || (e->wwn >> 60) != 5)
				return bad(err, origin, i, "wwn",
					   "expected 16 hex digits of a NAA 5 name (5...)");
		} else {
			/* NAA 5, an OUI of no one's, the id hashed */
			e->wwn = 0x5000000000000000ULL | (id_hash(e->id) & 0x0000000fffffffc0ULL);
		}
		if (!e->serial[0])
			snprintf(e->serial, sizeof(e->serial), "ENC%016" PRIx64, e->wwn);
		if (!json_object_object_get_ex(o, "slots", &x))
			return bad(err, origin, i, "slots", "missing");
		rc = parse_slots(x, cfgs, n, rig, e, err, origin, i);
		if (rc)
			return rc;
		pthread_mutex_init(&e->lock, NULL);
		rig->nencls++;
	}
	return 0;
}

int sim_encl_bind(struct sim_rig *rig, const char *state_dir, struct ss_error *err)
{
	for (unsigned i = 0; i < rig->nencls; i++) {
		struct sim_encl *e = &rig->encls[i];

		for (unsigned s = 0; s < e->nslots; s++)
			e->slot[s] = e->slot_idx[s] >= 0 ? rig->drives[e->slot_idx[s]] : NULL;
		if (state_dir && asprintf(&e->state_path, "%s/%s.encl", state_dir, e->id) < 0) {
			e->state_path = NULL;
			return ss_error_set(err, -ENOMEM, "out of memory");
		}
	}
	return 0;
}

void sim_encl_free_all(struct sim_rig *rig)
{
	for (unsigned i = 0; i < rig->nencls; i++) {
		free(rig->encls[i].state_path);
		pthread_mutex_destroy(&rig->encls[i].lock);
	}
	free(rig->encls);
	rig->encls = NULL;
	rig->nencls = 0;
}

unsigned sim_rig_encl_count(const struct sim_rig *rig)
{
	return rig ? rig->nencls : 0;
}

struct sim_encl *sim_rig_encl(struct sim_rig *rig, unsigned i)
{
	return rig && i < rig->nencls ? &rig->encls[i] : NULL;
}

struct sim_encl *sim_rig_find_encl(struct sim_rig *rig, const char *id)
{
	for (unsigned i = 0; rig && id && i < rig->nencls; i++)
		if (!strcmp(rig->encls[i].id, id))
			return &rig->encls[i];
	return NULL;
}

const char *sim_encl_id(const struct sim_encl *e)
{
	return e->id;
}

unsigned sim_encl_slots(const struct sim_encl *e)
{
	return e->nslots;
}

struct sim_drive *sim_encl_slot_drive(const struct sim_encl *e, unsigned slot)
{
	return slot < e->nslots ? e->slot[slot] : NULL;
}

/* The SAS address the enclosure reports for the drive (a SAS drive's target
 * port, WWN + 1; a SATA drive's WWN; 0 without a WWN). */
static uint64_t sim_drive_sas_addr(const struct sim_drive *d)
{
	if (!d->cfg.has_wwn)
		return 0;
	return d->cfg.sata ? d->cfg.wwn : d->cfg.wwn + 1;
}

/* ---- the LEDs' state ------------------------------------------------------ */

/* "ident=0100...\nfault=0000...\n"; a missing file: all off. */
static void state_load(struct sim_encl *e)
{
	char buf[2 * (SIM_ENCL_MAX_SLOTS + 8)], *f;
	ssize_t n;
	int fd;

	memset(e->ident, 0, sizeof(e->ident));
	memset(e->fault, 0, sizeof(e->fault));
	if (!e->state_path)
		return;
	fd = file_open_private(e->state_path, O_RDONLY, 0, "the simulated enclosure's state", NULL);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (!strncmp(buf, "ident=", 6))
		for (unsigned s = 0; s < e->nslots && buf[6 + s] >= '0'; s++)
			e->ident[s] = buf[6 + s] == '1';
	f = strstr(buf, "\nfault=");
	if (f)
		for (unsigned s = 0; s < e->nslots && f[7 + s] >= '0'; s++)
			e->fault[s] = f[7 + s] == '1';
}

static int state_save(struct sim_encl *e, struct ss_error *err)
{
	char buf[2 * (SIM_ENCL_MAX_SLOTS + 8)];
	size_t n = 0;

	if (!e->state_path)
		return 0;
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "ident=");
	for (unsigned s = 0; s < e->nslots; s++)
		buf[n++] = e->ident[s] ? '1' : '0';
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\nfault=");
	for (unsigned s = 0; s < e->nslots; s++)
		buf[n++] = e->fault[s] ? '1' : '0';
	buf[n++] = '\n';
	return file_write_private(e->state_path, buf, n, 0644, "the simulated enclosure's state",
				  err);
}

/* ---- the pages ------------------------------------------------------------- */

static void put_text(uint8_t *p, const char *s, size_t n)
{
	size_t l = strlen(s);

	memset(p, ' ', n);
	memcpy(p, s, l < n ? l : n);
}

static size_t page_done(uint8_t *b, uint8_t code, size_t n)
{
	b[0] = code;
	sg_put_unaligned_be16((uint16_t)(n - 4), b + 2);
	sg_put_unaligned_be32(GENERATION, b + 4);
	return n;
}

static size_t page_config(const struct sim_encl *e, uint8_t *b)
{
	static const char psu[] = "Power Supply", slot[] = "Array Device Slot";
	size_t n = 8;

	b[n] = 0x11; /* relative ESP id 1, one ESP */
	b[n + 1] = 0;
	b[n + 2] = 2; /* type descriptor headers */
	b[n + 3] = 36;
	sg_put_unaligned_be64(e->wwn, b + n + 4);
	put_text(b + n + 12, e->vendor, 8);
	put_text(b + n + 20, e->product, 16);
	put_text(b + n + 36, "0001", 4);
	n += 40;
	b[n] = 0x02;
	b[n + 1] = NPSU;
	b[n + 3] = sizeof(psu) - 1;
	b[n + 4] = 0x17;
	b[n + 5] = (uint8_t)e->nslots;
	b[n + 7] = sizeof(slot) - 1;
	n += 8;
	memcpy(b + n, psu, sizeof(psu) - 1);
	n += sizeof(psu) - 1;
	memcpy(b + n, slot, sizeof(slot) - 1);
	n += sizeof(slot) - 1;
	return page_done(b, SES_PAGE_CONFIG, n);
}

static size_t page_status(const struct sim_encl *e, uint8_t *b)
{
	size_t n = 8 + 4; /* the power supplies' overall element */

	for (unsigned k = 0; k < NPSU; k++, n += 4)
		b[n] = 0x01; /* OK */
	n += 4;		     /* the slots' overall element */
	for (unsigned s = 0; s < e->nslots; s++, n += 4) {
		b[n] = e->slot[s] ? 0x01 : 0x05; /* OK, NOT INSTALLED */
		b[n + 2] = e->ident[s] ? 0x02 : 0;
		b[n + 3] = e->fault[s] ? 0x20 : 0;
	}
	return page_done(b, SES_PAGE_STATUS, n);
}

static size_t desc(uint8_t *b, size_t n, const char *text)
{
	size_t l = strlen(text);

	sg_put_unaligned_be16((uint16_t)l, b + n + 2);
	memcpy(b + n + 4, text, l);
	return n + 4 + l;
}

static size_t page_element_desc(const struct sim_encl *e, uint8_t *b)
{
	char t[16];
	size_t n = desc(b, 8, "Power Supplies");

	for (unsigned k = 0; k < NPSU; k++) {
		snprintf(t, sizeof(t), "PSU %u", k);
		n = desc(b, n, t);
	}
	n = desc(b, n, "Drive Slots");
	for (unsigned s = 0; s < e->nslots; s++) {
		snprintf(t, sizeof(t), "Slot %02u", s);
		n = desc(b, n, t);
	}
	return page_done(b, SES_PAGE_ELEMENT_DESC, n);
}

static size_t page_addl(const struct sim_encl *e, uint8_t *b)
{
	size_t n = 8;

	for (unsigned s = 0; s < e->nslots; s++, n += 36) {
		const struct sim_drive *d = e->slot[s];
		uint8_t *p = b + n;

		p[0] = 0x16; /* EIP, SAS */
		p[1] = 34;
		p[3] = (uint8_t)(NPSU + s); /* element index, overall elements not counted */
		p[4] = 1;		    /* one phy */
		p[7] = (uint8_t)s;	    /* device slot number */
		if (d) {
			p[8] = 0x10;			   /* end device */
			p[11] = d->cfg.sata ? 0x01 : 0x08; /* SATA device / SSP target */
			sg_put_unaligned_be64(e->wwn + 0x10 + s, p + 12); /* expander phy */
			sg_put_unaligned_be64(sim_drive_sas_addr(d), p + 20);
		}
		p[28] = (uint8_t)s; /* phy identifier */
	}
	return page_done(b, SES_PAGE_ADDL_STATUS, n);
}

static size_t page_supported(uint8_t *b)
{
	static const uint8_t pages[] = { 0x00, 0x01, 0x02, 0x07, 0x0a };

	memcpy(b + 4, pages, sizeof(pages));
	b[0] = 0;
	sg_put_unaligned_be16(sizeof(pages), b + 2);
	return 4 + sizeof(pages);
}

/* ---- commands ---------------------------------------------------------------- */

static void sense(struct xcmd *c, uint8_t key, uint8_t asc, uint8_t ascq)
{
	c->status = SCSI_STATUS_CHECK_CONDITION;
	memset(c->sense, 0, sizeof(c->sense));
	c->sense_len = (uint8_t)sim_sense_build(c->sense, sizeof(c->sense), false, key, asc, ascq,
						NULL);
}

static size_t data_in(struct xcmd *c, const uint8_t *b, size_t n, size_t alloc)
{
	size_t m = n < alloc ? n : alloc;

	if (m > c->data_len)
		m = c->data_len;
	if (c->dir != XFER_FROM_DEV || !c->data)
		m = 0;
	if (m)
		memcpy(c->data, b, m);
	return m;
}

static size_t inquiry(const struct sim_encl *e, struct xcmd *c, uint8_t *b)
{
	const uint8_t *cdb = c->cdb;
	size_t n;

	if (cdb[1] & 0x01) {
		b[0] = PDT_ENCLOSURE;
		b[1] = cdb[2];
		switch (cdb[2]) {
		case 0x00:
			b[3] = 3;
			b[4] = 0x00;
			b[5] = 0x80;
			b[6] = 0x83;
			return 7;
		case 0x80:
			n = strlen(e->serial);
			b[3] = (uint8_t)n;
			memcpy(b + 4, e->serial, n);
			return 4 + n;
		case 0x83:
			/* the logical unit's NAA name, and its SAS target port */
			b[4] = 0x01;
			b[5] = 0x03;
			b[7] = 8;
			sg_put_unaligned_be64(e->wwn, b + 8);
			b[16] = 0x61;
			b[17] = 0x93;
			b[19] = 8;
			sg_put_unaligned_be64(e->wwn + 1, b + 20);
			sg_put_unaligned_be16(24, b + 2);
			return 28;
		default:
			sense(c, SK_ILLEGAL_REQUEST, 0x24, 0x00);
			return 0;
		}
	}
	if (cdb[2]) {
		sense(c, SK_ILLEGAL_REQUEST, 0x24, 0x00);
		return 0;
	}
	b[0] = PDT_ENCLOSURE;
	b[2] = 0x06; /* SPC-4 */
	b[3] = 0x02;
	b[4] = 91;
	b[6] = 0x40; /* ENCSERV */
	put_text(b + 8, e->vendor, 8);
	put_text(b + 16, e->product, 16);
	put_text(b + 32, "0001", 4);
	return 96;
}

static void send_diag(struct sim_encl *e, struct xcmd *c, struct ss_error *err)
{
	const uint8_t *p = c->data;
	size_t len = sg_get_unaligned_be16(c->cdb + 3), off;
	bool changed = false;

	if (c->cdb[1] & 0x04) /* SELFTEST: nothing to test */
		return;
	if (!len)
		return;
	if (!(c->cdb[1] & 0x10) || c->dir != XFER_TO_DEV || !p || c->data_len < len) {
		sense(c, SK_ILLEGAL_REQUEST, 0x24, 0x00);
		return;
	}
	c->resid = c->data_len - len;
	if (len < 8 || p[0] != SES_PAGE_STATUS || 4 + (size_t)sg_get_unaligned_be16(p + 2) > len) {
		sense(c, SK_ILLEGAL_REQUEST, 0x26, 0x00); /* INVALID FIELD IN PARAMETER LIST */
		return;
	}
	if (sg_get_unaligned_be32(p + 4) != GENERATION) {
		sense(c, SK_ILLEGAL_REQUEST, 0x26, 0x00);
		return;
	}
	len = 4 + (size_t)sg_get_unaligned_be16(p + 2);
	off = 8 + 4 * (1 + NPSU) + 4;
	for (unsigned s = 0; s < e->nslots && off + 4 <= len; s++, off += 4) {
		if (!(p[off] & 0x80)) /* SELECT */
			continue;
		changed = changed || e->ident[s] != !!(p[off + 2] & 0x02) ||
			  e->fault[s] != !!(p[off + 3] & 0x20);
		e->ident[s] = p[off + 2] & 0x02;
		e->fault[s] = p[off + 3] & 0x20;
	}
	if (changed && state_save(e, err))
		sense(c, SK_HARDWARE_ERROR, 0x35, 0x01); /* an enclosure services failure */
}

int sim_encl_exec(struct sim_encl *e, struct xcmd *c, struct ss_error *err)
{
	uint8_t *b;
	size_t n = 0;

	if (!e || !c)
		return ss_error_set(err, -EINVAL, "no enclosure or no command");
	b = calloc(1, PAGE_MAX);
	if (!b)
		return ss_error_set(err, -ENOMEM, "out of memory");
	c->status = SCSI_STATUS_GOOD;
	c->sense_len = 0;
	c->resid = c->data_len;
	c->duration_ns = 100000;
	pthread_mutex_lock(&e->lock);
	state_load(e);
	switch (c->cdb_len ? c->cdb[0] : 0xff) {
	case 0x00: /* TEST UNIT READY */
		break;
	case 0x03: /* REQUEST SENSE: nothing pending */
		b[0] = 0x70;
		b[7] = 10;
		n = data_in(c, b, 18, c->cdb[4]);
		break;
	case 0x12:
		n = inquiry(e, c, b);
		n = c->status ? 0 : data_in(c, b, n, sg_get_unaligned_be16(c->cdb + 3));
		break;
	case SCSI_RECEIVE_DIAGNOSTIC:
		if (!(c->cdb[1] & 0x01)) {
			sense(c, SK_ILLEGAL_REQUEST, 0x24, 0x00);
			break;
		}
		switch (c->cdb[2]) {
		case 0x00:
			n = page_supported(b);
			break;
		case SES_PAGE_CONFIG:
			n = page_config(e, b);
			break;
		case SES_PAGE_STATUS:
			n = page_status(e, b);
			break;
		case SES_PAGE_ELEMENT_DESC:
			n = page_element_desc(e, b);
			break;
		case SES_PAGE_ADDL_STATUS:
			n = page_addl(e, b);
			break;
		default:
			sense(c, SK_ILLEGAL_REQUEST, 0x24, 0x00);
			break;
		}
		n = c->status ? 0 : data_in(c, b, n, sg_get_unaligned_be16(c->cdb + 3));
		break;
	case 0x1d: /* SEND DIAGNOSTIC */
		send_diag(e, c, err);
		break;
	default:
		sense(c, SK_ILLEGAL_REQUEST, 0x20, 0x00);
		break;
	}
	pthread_mutex_unlock(&e->lock);
	if (c->dir == XFER_FROM_DEV)
		c->resid = c->data_len - n;
	else if (c->dir == XFER_NONE)
		c->resid = 0;
	free(b);
	return 0;
}

/* ---- its transport ------------------------------------------------------------- */

static int encl_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	return sim_encl_exec(t->priv, c, err);
}

static void encl_close(struct transport *t)
{
	free(t);
}

static const struct transport_ops encl_ops = {
	.name = "sim",
	.exec = encl_exec,
	.close = encl_close,
};

int transport_open_sim_encl(struct sim_encl *e, struct transport **out, struct ss_error *err)
{
	struct transport *t;
	char name[64];
	int rc;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return ss_error_set(err, -ENOMEM, "out of memory");
	snprintf(name, sizeof(name), "sim:%s", e->id);
	rc = transport_init(t, &encl_ops, e, name, err);
	if (rc) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}
