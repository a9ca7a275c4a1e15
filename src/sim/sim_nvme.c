/* sim_nvme.c - the simulator's NVMe personality: a controller with one
 * namespace (NN 1) answering NVMe admin and I/O commands, not CDBs:
 * Identify (controller, namespace, the active and allocated lists), Get Log
 * Page (SMART / Health, Device Self-test, Error Information), Device
 * Self-test, Format NVM to any LBA format it offers, Namespace Management
 * and Attachment (OACS bit 3, when the rig leaves it on), Read, Write,
 * Flush. docs/simulator.md, "NVMe". The medium is the flash model of a
 * non-rotating drive (sim_media.c); the namespace's blocks are laid over
 * the drive's units of cfg.lblock bytes (the smallest format). */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "shortstroke/nvme.h"
#include "sim/sim_priv.h"

/* status codes (NVMe base specification, Figures "Generic Command Status"
 * and "Command Specific Status"): SCT in bits 10:8, DNR bit 14 */
#define SCT_GENERIC 0x0
#define SCT_CMD 0x1
#define SCT_MEDIA 0x2
#define DNR 0x4000u
#define SC_INVALID_OPCODE 0x01
#define SC_INVALID_FIELD 0x02
#define SC_ABORT_REQ 0x07
#define SC_INVALID_NS 0x0b
#define SC_LBA_RANGE 0x80
#define SC_INVALID_FORMAT 0x0a
#define SC_NS_INSUFFICIENT_CAP 0x15
#define SC_NS_ID_UNAVAILABLE 0x16
#define SC_NS_ALREADY_ATTACHED 0x18
#define SC_NS_NOT_ATTACHED 0x1a
#define SC_THIN_PROV_NOT_SUPP 0x1b
#define SC_SELFTEST_IN_PROGRESS 0x1d
#define SC_READ_ERROR 0x81

#define FORMAT_NS 2000000000ULL /* a Format NVM: 2 s (the FTL's mapping erased) */
#define NS_PER_HOUR (3600ULL * 1000000000ULL)

static void status(struct sim_cmd *sc, unsigned sct, unsigned code)
{
	sc->c->nvme.status = (uint16_t)((sct & 0x7u) << 8 | (code & 0xffu) | DNR);
	sc->c->status = SCSI_STATUS_CHECK_CONDITION;
}

uint32_t sim_nvme_block(const struct sim_drive *d)
{
	const struct sim_nvme_state *n = &d->st.nv;

	return n->nsid && n->lbaf < d->cfg.nv.nlbaf ? d->cfg.nv.lbaf[n->lbaf] : 0;
}

/* the namespace's blocks in the drive's units */
static uint64_t units_per_block(const struct sim_drive *d)
{
	uint32_t b = sim_nvme_block(d);

	return b ? b / d->cfg.lblock : 1;
}

static void put_le16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, 2);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static void put_str(uint8_t *p, size_t n, const char *s)
{
	size_t l = strlen(s);

	memset(p, ' ', n);
	memcpy(p, s, l < n ? l : n);
}

/* ---- Identify ---- */

/* Offsets of Identify Controller (NVMe base specification, Figure
 * "Identify Controller Data Structure") */
static void id_ctrl(const struct sim_drive *d, uint8_t *b)
{
	const struct sim_config *c = &d->cfg;
	uint64_t total = c->blocks * c->lblock;
	uint64_t used = d->st.nv.nsid ? d->st.nv.nsze * sim_nvme_block(d) : 0;
	uint16_t oacs = 1u << 1 | 1u << 4; /* Format NVM, Device Self-test */
	uint64_t ext_min = (sim_selftest_seconds(d, SIM_ST_EXTENDED) + 59) / 60;

	if (c->nv.ns_mgmt)
		oacs |= 1u << 3;
	put_str(b + 4, 20, c->serial);
	put_str(b + 24, 40, c->model);
	put_str(b + 64, 8, c->firmware);
	put_le16(b + 78, 1);	       /* CNTLID */
	put_le32(b + 80, 0x00010400u); /* VER 1.4 */
	put_le16(b + 256, oacs);
	b[258] = 3;		/* ACL */
	b[259] = 3;		/* AERL */
	b[261] = 0x02;		/* LPA: extended data for Get Log Page */
	put_le16(b + 266, 343); /* WCTEMP: 70 C */
	put_le16(b + 268, 358); /* CCTEMP: 85 C */
	if (c->nv.ns_mgmt) {
		put_le64(b + 280, total);			    /* TNVMCAP */
		put_le64(b + 296, total > used ? total - used : 0); /* UNVMCAP */
	}
	put_le16(b + 316, (uint16_t)(ext_min > 0xffff ? 0xffff : ext_min)); /* EDSTT */
	b[318] = 0x01;			 /* DSTO: one self-test at a time */
	b[512] = 0x66;			 /* SQES */
	b[513] = 0x44;			 /* CQES */
	put_le32(b + 516, 1);		 /* NN */
	b[525] = c->write_cache ? 1 : 0; /* VWC */
	put_str(b + 768, 32, "nqn.2014-08.org.nvmexpress:sim");
	for (size_t i = 768 + 30; i < 768 + 32; i++)
		b[i] = 0;
}

static void id_formats(const struct sim_drive *d, uint8_t *b)
{
	const struct sim_config *c = &d->cfg;

	b[25] = (uint8_t)(c->nv.nlbaf - 1);
	b[26] = c->nv.lbaf_init & 0xfu;
	for (unsigned i = 0; i < c->nv.nlbaf; i++) {
		b[128 + 4 * i + 2] = (uint8_t)__builtin_ctz(c->nv.lbaf[i]);
		b[128 + 4 * i + 3] = c->nv.lbaf[i] >= 4096 ? 0 : 2;
	}
}

static void id_ns(const struct sim_drive *d, uint8_t *b)
{
	const struct sim_config *c = &d->cfg;
	const struct sim_nvme_state *n = &d->st.nv;
	uint32_t bytes = sim_nvme_block(d);

	put_le64(b + 0, n->nsze);
	put_le64(b + 8, n->nsze);
	put_le64(b + 16, n->nsze);
	b[25] = (uint8_t)(c->nv.nlbaf - 1); /* NLBAF, 0's based */
	put_le64(b + 48, n->nsze * bytes);  /* NVMCAP */
	if (c->has_wwn)
		for (unsigned i = 0; i < 8; i++)
			b[120 + i] = (uint8_t)(c->wwn >> (56 - 8 * i)); /* EUI64 */
	id_formats(d, b);
	b[26] = n->lbaf & 0xfu; /* FLBAS */
}

static bool nsid_is(const struct sim_drive *d, uint32_t nsid, bool attached)
{
	return nsid && nsid == d->st.nv.nsid && (!attached || d->st.nv.attached);
}

static void cmd_identify(struct sim_cmd *sc)
{
	const struct xcmd_nvme *n = &sc->c->nvme;
	struct sim_drive *d = sc->d;
	uint8_t b[NVME_ID_LEN];

	memset(b, 0, sizeof(b));
	switch (n->cdw10 & 0xffu) {
	case 0x00: /* namespace: zeros for one not active */
		if (n->nsid == 0 || (n->nsid != NVME_NSID_ALL_NS && n->nsid > 1)) {
			status(sc, SCT_GENERIC, SC_INVALID_NS);
			return;
		}
		if (nsid_is(d, n->nsid, true))
			id_ns(d, b);
		else if (n->nsid == NVME_NSID_ALL_NS) /* what every namespace has: the formats */
			id_formats(d, b);
		break;
	case 0x01:
		id_ctrl(d, b);
		break;
	case 0x02: /* active namespaces above nsid */
		if (d->st.nv.attached && d->st.nv.nsid > n->nsid)
			put_le32(b, d->st.nv.nsid);
		break;
	case 0x10: /* allocated namespaces above nsid */
		if (!d->cfg.nv.ns_mgmt) {
			status(sc, SCT_GENERIC, SC_INVALID_FIELD);
			return;
		}
		if (d->st.nv.nsid > n->nsid)
			put_le32(b, d->st.nv.nsid);
		break;
	case 0x11: /* an allocated namespace, attached or not */
		if (!d->cfg.nv.ns_mgmt) {
			status(sc, SCT_GENERIC, SC_INVALID_FIELD);
			return;
		}
		if (nsid_is(d, n->nsid, false))
			id_ns(d, b);
		break;
	default:
		status(sc, SCT_GENERIC, SC_INVALID_FIELD);
		return;
	}
	sim_data_in(sc, b, sizeof(b));
}

/* ---- logs ---- */

static void put_u128(uint8_t *p, uint64_t v)
{
	put_le64(p, v);
	memset(p + 8, 0, 8);
}

static void smart_log(struct sim_drive *d, uint8_t *b)
{
	const struct sim_config *c = &d->cfg;
	const struct sim_fault *deg = sim_fault_active(d, SIM_FAULT_SMART_DEGRADE);
	struct sim_smart sm;
	unsigned spare = c->nv.spare;
	uint8_t cw = 0;
	uint64_t media = c->nv.media_errors + d->st.nv.media_errors;

	sim_smart_now(d, &sm);
	/* a degrading drive: its reallocated blocks came out of the spare
	 * area (a point per 100), its pending ones are media errors */
	if (deg) {
		uint64_t lost = deg->reallocated / 100;

		spare = lost >= spare ? 0 : spare - (unsigned)lost;
		media += deg->pending;
	}
	if (spare < c->nv.spare_threshold)
		cw |= NVME_CW_SPARE;
	if (sm.temperature + 273 >= 343)
		cw |= NVME_CW_TEMPERATURE;
	if (sim_fault_active(d, SIM_FAULT_SMART_FAIL))
		cw |= NVME_CW_DEGRADED;
	b[0] = cw;
	put_le16(b + 1, (uint16_t)(sm.temperature + 273));
	b[3] = (uint8_t)spare;
	b[4] = c->nv.spare_threshold;
	b[5] = c->nv.percentage_used;
	/* data units: thousands of 512-byte units, rounded up */
	put_u128(b + 32, (d->st.ctr.read_bytes / 512 + 999) / 1000);
	put_u128(b + 48, (d->st.ctr.write_bytes / 512 + 999) / 1000);
	put_u128(b + 64, d->st.nv.reads);
	put_u128(b + 80, d->st.nv.writes);
	put_u128(b + 96, sim_clock_now(d) / 60000000000ULL / 100); /* busy minutes: 1 % */
	put_u128(b + 112, d->st.power_cycles + 1);
	put_u128(b + 128, sm.power_on_hours);
	put_u128(b + 160, media);
	put_u128(b + 176, media);
	put_le16(b + 200, (uint16_t)(sm.temperature + 273)); /* sensor 1 */
}

static uint8_t st_result(uint8_t outcome)
{
	switch (outcome) {
	case SIM_ST_OK:
		return 0x0;
	case SIM_ST_ABORTED:
		return 0x1;
	case SIM_ST_INTERRUPTED:
		return 0x2;
	default:
		return 0x7; /* a known segment failed */
	}
}

static void st_log(struct sim_drive *d, uint8_t *b, uint64_t now)
{
	const struct sim_selftest *t = &d->st.test;
	uint64_t upb = units_per_block(d);

	if (t->active) {
		b[0] = t->kind == SIM_ST_SHORT ? 1 : 2;
		b[1] = (uint8_t)(sim_selftest_progress(d, now) * 100u / 65536u);
	}
	for (unsigned i = 0; i < NVME_ST_LOG_ENTRIES; i++) {
		const struct sim_st_entry *e = sim_selftest_last(d, i);
		uint8_t *r = b + 4 + 28 * i;

		if (!e) {
			r[0] = 0x0f; /* not used */
			continue;
		}
		r[0] = (uint8_t)((e->kind == SIM_ST_SHORT ? 1 : 2) << 4 | st_result(e->outcome));
		r[1] = e->outcome == SIM_ST_READ_FAIL ? 2 : 0; /* the read segment */
		put_le64(r + 4, e->hours);
		if (e->lba_valid) {
			r[2] = 0x01 | 0x02 | 0x04 | 0x08; /* NSID, FLBA, SCT, SC */
			put_le32(r + 12, d->st.nv.nsid);
			put_le64(r + 16, e->lba / upb);
			r[24] = SCT_MEDIA;
			r[25] = SC_READ_ERROR;
		}
	}
}

static void cmd_get_log(struct sim_cmd *sc)
{
	const struct xcmd_nvme *n = &sc->c->nvme;
	struct sim_drive *d = sc->d;
	uint8_t b[NVME_ST_LOG_LEN > NVME_SMART_LOG_LEN ? 4096 : 4096];
	uint32_t len = (((n->cdw10 >> 16) | (n->cdw11 & 0xffffu) << 16) + 1) * 4;

	memset(b, 0, sizeof(b));
	switch (n->cdw10 & 0xffu) {
	case 0x01: /* Error Information: none kept */
		break;
	case 0x02:
		if (n->nsid && n->nsid != NVME_NSID_ALL_NS && !nsid_is(d, n->nsid, true)) {
			status(sc, SCT_GENERIC, SC_INVALID_NS);
			return;
		}
		smart_log(d, b);
		break;
	case 0x06:
		st_log(d, b, sc->now_ns);
		break;
	default:
		status(sc, SCT_CMD, 0x09); /* Invalid Log Page */
		return;
	}
	sim_data_in(sc, b, len < sizeof(b) ? len : sizeof(b));
}

/* ---- Device Self-test ---- */

static void cmd_selftest(struct sim_cmd *sc)
{
	const struct xcmd_nvme *n = &sc->c->nvme;
	struct sim_drive *d = sc->d;
	unsigned code = n->cdw10 & 0xfu;
	uint64_t dur;
	int rc;

	if (n->nsid && n->nsid != NVME_NSID_ALL_NS && !nsid_is(d, n->nsid, true)) {
		status(sc, SCT_GENERIC, SC_INVALID_NS);
		return;
	}
	if (code == NVME_ST_ABORT) {
		sim_selftest_abort(d, sc->now_ns);
		return;
	}
	if (code != NVME_ST_SHORT && code != NVME_ST_EXTENDED) {
		status(sc, SCT_GENERIC, SC_INVALID_FIELD);
		return;
	}
	rc = sim_selftest_start(d, code == NVME_ST_SHORT ? SIM_ST_SHORT : SIM_ST_EXTENDED, false,
				sc->now_ns, &dur);
	if (rc == -EBUSY)
		status(sc, SCT_CMD, SC_SELFTEST_IN_PROGRESS);
	else if (rc)
		status(sc, SCT_GENERIC, SC_INVALID_FIELD);
}

/* ---- Format NVM, namespace management ---- */

static void ns_erase(struct sim_drive *d)
{
	sim_selftest_abort(d, sim_clock_now(d));
	sim_store_wipe(d);
	sim_cache_drop(d);
	d->st.head_lba = d->st.next_lba = 0;
}

static void cmd_format(struct sim_cmd *sc)
{
	const struct xcmd_nvme *n = &sc->c->nvme;
	struct sim_drive *d = sc->d;
	struct sim_nvme_state *s = &d->st.nv;
	unsigned lbaf = (n->cdw10 & 0xfu) | (n->cdw10 >> 12 & 0x3u) << 4;
	uint64_t bytes;

	if ((n->nsid != NVME_NSID_ALL_NS && !nsid_is(d, n->nsid, true)) ||
	    (n->nsid == NVME_NSID_ALL_NS && !s->attached)) {
		status(sc, SCT_GENERIC, SC_INVALID_NS);
		return;
	}
	if (lbaf >= d->cfg.nv.nlbaf || (n->cdw10 >> 5 & 0xfu) /* MSET, PI, PIL */) {
		status(sc, SCT_CMD, SC_INVALID_FORMAT);
		return;
	}
	if (d->st.test.active) {
		status(sc, SCT_CMD, SC_SELFTEST_IN_PROGRESS);
		return;
	}
	bytes = s->nsze * sim_nvme_block(d);
	ns_erase(d);
	s->lbaf = (uint8_t)lbaf;
	s->nsze = bytes / d->cfg.nv.lbaf[lbaf];
	sc->media_ns = FORMAT_NS;
	d->dirty = true;
}

static void cmd_ns_mgmt(struct sim_cmd *sc)
{
	const struct xcmd_nvme *n = &sc->c->nvme;
	struct sim_drive *d = sc->d;
	struct sim_nvme_state *s = &d->st.nv;

	if (!d->cfg.nv.ns_mgmt) {
		status(sc, SCT_GENERIC, SC_INVALID_OPCODE);
		return;
	}
	if ((n->cdw10 & 0xfu) == 0) { /* create */
		uint64_t nsze, ncap, total = d->cfg.blocks * d->cfg.lblock;
		unsigned lbaf;

		if (!sc->out || sc->out_len < 384) {
			status(sc, SCT_GENERIC, SC_INVALID_FIELD);
			return;
		}
		memcpy(&nsze, sc->out, 8);
		memcpy(&ncap, sc->out + 8, 8);
		nsze = le64toh(nsze);
		ncap = le64toh(ncap);
		lbaf = (sc->out[26] & 0xfu) | (sc->out[26] >> 5 & 0x3u) << 4;
		if (s->nsid) {
			status(sc, SCT_CMD, SC_NS_ID_UNAVAILABLE);
			return;
		}
		if (lbaf >= d->cfg.nv.nlbaf) {
			status(sc, SCT_CMD, SC_INVALID_FORMAT);
			return;
		}
		if (ncap != nsze) {
			status(sc, SCT_CMD, SC_THIN_PROV_NOT_SUPP);
			return;
		}
		if (!nsze || nsze > total / d->cfg.nv.lbaf[lbaf]) {
			status(sc, SCT_CMD, SC_NS_INSUFFICIENT_CAP);
			return;
		}
		s->nsid = 1;
		s->attached = false;
		s->nsze = nsze;
		s->lbaf = (uint8_t)lbaf;
		sc->c->nvme.result = s->nsid;
		ns_erase(d);
		d->dirty = true;
		return;
	}
	if ((n->cdw10 & 0xfu) == 1) { /* delete */
		if (!(n->nsid == NVME_NSID_ALL_NS ? s->nsid != 0 : nsid_is(d, n->nsid, false))) {
			status(sc, SCT_GENERIC, SC_INVALID_NS);
			return;
		}
		ns_erase(d);
		memset(s, 0, offsetof(struct sim_nvme_state, reads));
		d->dirty = true;
		return;
	}
	status(sc, SCT_GENERIC, SC_INVALID_FIELD);
}

static void cmd_ns_attach(struct sim_cmd *sc)
{
	const struct xcmd_nvme *n = &sc->c->nvme;
	struct sim_drive *d = sc->d;
	struct sim_nvme_state *s = &d->st.nv;
	uint16_t count, id;
	bool attach = (n->cdw10 & 0xfu) == 0;

	if (!d->cfg.nv.ns_mgmt) {
		status(sc, SCT_GENERIC, SC_INVALID_OPCODE);
		return;
	}
	if (!nsid_is(d, n->nsid, false)) {
		status(sc, SCT_GENERIC, SC_INVALID_NS);
		return;
	}
	if (!sc->out || sc->out_len < 4 || (n->cdw10 & 0xfu) > 1) {
		status(sc, SCT_GENERIC, SC_INVALID_FIELD);
		return;
	}
	memcpy(&count, sc->out, 2);
	memcpy(&id, sc->out + 2, 2);
	if (le16toh(count) != 1 || le16toh(id) != 1) {
		status(sc, SCT_CMD, 0x1c); /* Controller List Invalid */
		return;
	}
	if (attach == s->attached) {
		status(sc, SCT_CMD, attach ? SC_NS_ALREADY_ATTACHED : SC_NS_NOT_ATTACHED);
		return;
	}
	s->attached = attach;
	d->dirty = true;
}

/* ---- I/O ---- */

static void cmd_rw(struct sim_cmd *sc, bool write)
{
	const struct xcmd_nvme *n = &sc->c->nvme;
	struct sim_drive *d = sc->d;
	uint64_t slba = n->cdw10 | (uint64_t)n->cdw11 << 32;
	uint64_t nlb = (n->cdw12 & 0xffffu) + 1, upb, bytes, bad;
	uint32_t bs = sim_nvme_block(d);
	int rc;

	if (!nsid_is(d, n->nsid, true)) {
		status(sc, SCT_GENERIC, SC_INVALID_NS);
		return;
	}
	if (slba > d->st.nv.nsze || nlb > d->st.nv.nsze - slba) {
		status(sc, SCT_GENERIC, SC_LBA_RANGE);
		return;
	}
	bytes = nlb * bs;
	if ((write && (!sc->out || sc->out_len < bytes)) ||
	    (!write && (!sc->in || sc->in_len < bytes))) {
		status(sc, SCT_GENERIC, SC_INVALID_FIELD);
		return;
	}
	upb = units_per_block(d);
	sc->media_ns = sim_media_io_ns(d, slba * upb, nlb * upb, write, n->cdw12 >> 30 & 1);
	if (write) {
		d->st.nv.writes++;
		rc = sim_store_write(d, slba * bs, sc->out, (size_t)bytes);
		if (rc) {
			sc->rc = rc;
			return;
		}
		sim_remap(d, slba * upb, nlb * upb, false);
		d->st.ctr.write_bytes += bytes;
		sc->moved = (size_t)bytes;
		return;
	}
	d->st.nv.reads++;
	sc->media_ns += sim_unit_read_ns(d, slba * upb, nlb * upb);
	if (sim_medium_error(d, slba * upb, nlb * upb, &bad)) {
		d->st.ctr.read_unc++;
		d->st.nv.media_errors++;
		d->dirty = true;
		status(sc, SCT_MEDIA, SC_READ_ERROR);
		return;
	}
	if (!sc->c->discard) {
		rc = sim_store_read(d, slba * bs, sc->in, (size_t)bytes);
		if (rc) {
			sc->rc = rc;
			return;
		}
	}
	d->st.ctr.read_bytes += bytes;
	sc->moved = (size_t)bytes;
}

/* an "abort" fault on this opcode: Command Abort Requested */
static bool aborted(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;

	for (unsigned i = 0; i < d->st.nfaults; i++) {
		struct sim_fault *f = &d->st.faults[i];

		if (f->kind != SIM_FAULT_ABORT || f->opcode != sc->c->nvme.opcode)
			continue;
		if (f->count > 0 && --f->count == 0) {
			d->st.faults[i] = d->st.faults[--d->st.nfaults];
		}
		d->dirty = true;
		status(sc, SCT_GENERIC, SC_ABORT_REQ);
		return true;
	}
	return false;
}

void sim_nvme_exec(struct sim_cmd *sc)
{
	const struct xcmd *c = sc->c;

	if (aborted(sc))
		return;
	if (c->kind == XCMD_NVME_IO) {
		switch (c->nvme.opcode) {
		case 0x00: /* Flush */
			if (!nsid_is(sc->d, c->nvme.nsid, true) && c->nvme.nsid != NVME_NSID_ALL_NS)
				status(sc, SCT_GENERIC, SC_INVALID_NS);
			else
				sc->media_ns = sim_cache_flush_ns(sc->d);
			return;
		case 0x01:
			cmd_rw(sc, true);
			return;
		case 0x02:
			cmd_rw(sc, false);
			return;
		default:
			status(sc, SCT_GENERIC, SC_INVALID_OPCODE);
			return;
		}
	}
	switch (c->nvme.opcode) {
	case 0x02:
		cmd_get_log(sc);
		break;
	case 0x06:
		cmd_identify(sc);
		break;
	case 0x0d:
		cmd_ns_mgmt(sc);
		break;
	case 0x14:
		cmd_selftest(sc);
		break;
	case 0x15:
		cmd_ns_attach(sc);
		break;
	case 0x80:
		cmd_format(sc);
		break;
	default:
		status(sc, SCT_GENERIC, SC_INVALID_OPCODE);
		break;
	}
}

/* ---- the rig's "nvme" member ---- */

static int rd_u8(struct json_object *o, const char *k, unsigned max, uint8_t *out, char *msg,
		 size_t len)
{
	struct json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(o, k, &v))
		return 0;
	n = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
	if (n < 0 || n > (int64_t)max) {
		snprintf(msg, len, "\"%s\": expected a whole number from 0 to %u", k, max);
		return -EINVAL;
	}
	*out = (uint8_t)n;
	return 0;
}

int sim_nvme_parse(struct sim_config *c, struct json_object *o, char *msg, size_t len)
{
	static const char *const keys[] = { "lba_formats",     "namespace_management",
					    "available_spare", "available_spare_threshold",
					    "percentage_used", "media_errors" };
	struct json_object *v;
	int rc;

	if (!json_object_is_type(o, json_type_object)) {
		snprintf(msg, len, "expected an object");
		return -EINVAL;
	}
	json_object_object_foreach(o, key, val)
	{
		bool known = false;

		(void)val;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			known |= !strcmp(key, keys[i]);
		if (!known) {
			snprintf(msg, len, "unknown member \"%s\"", key);
			return -EINVAL;
		}
	}
	if (json_object_object_get_ex(o, "lba_formats", &v)) {
		size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v)
								   : 0;

		if (!n || n > SIM_NVME_LBAF_MAX) {
			snprintf(msg, len, "\"lba_formats\": expected 1 to %d block sizes",
				 SIM_NVME_LBAF_MAX);
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i++) {
			struct json_object *e = json_object_array_get_idx(v, i);
			int64_t b = json_object_is_type(e, json_type_int) ? json_object_get_int64(e)
									  : 0;

			if (b < 512 || b > 65536 || (b & (b - 1))) {
				snprintf(msg, len,
					 "\"lba_formats\": %s is not a power of two from 512 to "
					 "65536",
					 json_object_to_json_string(e));
				return -EINVAL;
			}
			c->nv.lbaf[i] = (uint32_t)b;
		}
		c->nv.nlbaf = (unsigned)n;
	}
	if (json_object_object_get_ex(o, "namespace_management", &v)) {
		if (!json_object_is_type(v, json_type_boolean)) {
			snprintf(msg, len, "\"namespace_management\": expected true or false");
			return -EINVAL;
		}
		c->nv.ns_mgmt = json_object_get_boolean(v);
	}
	if ((rc = rd_u8(o, "available_spare", 100, &c->nv.spare, msg, len)) ||
	    (rc = rd_u8(o, "available_spare_threshold", 100, &c->nv.spare_threshold, msg, len)) ||
	    (rc = rd_u8(o, "percentage_used", 255, &c->nv.percentage_used, msg, len)))
		return rc;
	if (json_object_object_get_ex(o, "media_errors", &v)) {
		int64_t m = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;

		if (m < 0) {
			snprintf(msg, len, "\"media_errors\": expected a whole number");
			return -EINVAL;
		}
		c->nv.media_errors = (uint64_t)m;
	}
	return 0;
}

int sim_nvme_finish(struct sim_config *c, char *msg, size_t len)
{
	uint32_t min = c->nv.lbaf[0];
	bool found = false;

	for (unsigned i = 0; i < c->nv.nlbaf; i++) {
		if (c->nv.lbaf[i] < min)
			min = c->nv.lbaf[i];
		if (c->nv.lbaf[i] == c->lblock && !found) {
			c->nv.lbaf_init = (uint8_t)i;
			found = true;
		}
	}
	if (!found) {
		snprintf(msg, len, "\"logical_block\" %u is none of its \"lba_formats\"",
			 c->lblock);
		return -EINVAL;
	}
	/* the drive's units: the smallest format's blocks */
	c->blocks *= c->lblock / min;
	c->lblock = min;
	c->pblock = c->pblock > min ? c->pblock : min;
	return 0;
}
