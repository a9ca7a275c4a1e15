/* sim_log.c - what a SAS drive tells about its health: LOG SENSE pages
 * (SPC-4 7.3, SBC-3 6.4) and self-tests by SEND DIAGNOSTIC (SPC-4 6.42).
 *
 * Pages: 00h supported pages (and 00h/FFh with subpages), 02h/03h/05h
 * write/read/verify error counters, 06h non-medium errors, 0Dh
 * temperature, 0Eh start-stop cycles, 10h self-test results, 15h
 * background scan results, 2Fh informational exceptions. The counters
 * come from the SMART seeds, the faults and the traffic the drive saw:
 * reallocated sectors and reads the drive recovered by re-reading count
 * as errors corrected with delay, pending ones (and reads that hit a
 * medium-error fault) as uncorrected errors; commands an abort fault
 * failed as non-medium errors.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/sense.h"
#include "sim/sim_priv.h"

#define LOG_MAX 1024
#define REF_TEMP_C 60

static const uint8_t pages[] = { 0x00, 0x02, 0x03, 0x05, 0x06, 0x0d, 0x0e, 0x10, 0x15, 0x2f };

struct pagebuf {
	uint8_t b[LOG_MAX];
	unsigned n;
};

/* Append a parameter; returns its value bytes */
static uint8_t *param(struct pagebuf *pb, uint16_t code, uint8_t control, uint8_t len)
{
	uint8_t *p;

	if (pb->n + 4u + len > sizeof(pb->b))
		return NULL;
	p = pb->b + pb->n;
	sg_put_unaligned_be16(code, p);
	p[2] = control;
	p[3] = len;
	memset(p + 4, 0, len);
	pb->n += 4u + len;
	return p + 4;
}

static void counter(struct pagebuf *pb, uint16_t code, uint64_t v)
{
	uint8_t *p = param(pb, code, 0x02, 8);

	if (p)
		sg_put_unaligned_be64(v, p);
}

static void error_page(const struct sim_drive *d, uint8_t page, struct pagebuf *pb)
{
	const struct sim_counters *c = &d->st.ctr;
	struct sim_smart s;
	uint64_t bytes, fixed, delayed = 0, unc = 0;

	sim_smart_now(d, &s);
	switch (page) {
	case 0x02:
		bytes = c->write_bytes;
		break;
	case 0x03:
		bytes = c->read_bytes;
		delayed = s.reallocated + c->read_delayed;
		unc = c->read_unc + s.pending;
		break;
	default:
		bytes = c->verify_bytes;
		unc = c->verify_unc;
		break;
	}
	fixed = bytes >> 30; /* an ECC correction on the fly per GiB */
	counter(pb, 0x0000, fixed);
	counter(pb, 0x0001, delayed);
	counter(pb, 0x0002, delayed);
	counter(pb, 0x0003, fixed + delayed);
	counter(pb, 0x0004, fixed + delayed);
	counter(pb, 0x0005, bytes);
	counter(pb, 0x0006, unc);
}

static uint8_t st_code(const struct sim_st_entry *e)
{
	uint8_t k = e->kind == SIM_ST_EXTENDED ? 2 : 1;

	return e->captive ? (uint8_t)(k + 4) : k;
}

static void st_param(struct pagebuf *pb, uint16_t code, const struct sim_st_entry *e, bool running)
{
	uint8_t *p = param(pb, code, 0x03, 0x10);
	uint8_t res;

	if (!p)
		return;
	if (!e)
		return; /* an unused slot: all zero */
	switch (e->outcome) {
	case SIM_ST_ABORTED:
		res = 0x1;
		break;
	case SIM_ST_INTERRUPTED:
		res = 0x2;
		break;
	case SIM_ST_READ_FAIL:
		res = 0x7;
		break;
	default:
		res = 0x0;
		break;
	}
	if (running)
		res = 0xf;
	p[0] = (uint8_t)(st_code(e) << 5 | res);
	p[1] = res == 0x7 ? 4 : 0; /* segment: the read scan */
	sg_put_unaligned_be16((uint16_t)(e->hours > 0xffff ? 0xffff : e->hours), p + 2);
	sg_put_unaligned_be64(e->lba_valid ? e->lba : UINT64_MAX, p + 4);
	if (res == 0x7) {
		p[12] = SK_MEDIUM_ERROR;
		p[13] = 0x11;
	}
}

static void selftest_page(const struct sim_drive *d, uint64_t now, struct pagebuf *pb)
{
	const struct sim_selftest *t = &d->st.test;
	uint16_t code = 1;
	unsigned back = 0;

	if (t->active) {
		struct sim_st_entry run = { .kind = t->kind,
					    .hours = sim_power_on_hours(d, now),
					    .outcome = SIM_ST_OK };

		st_param(pb, code++, &run, true);
	}
	for (; code <= 20; code++)
		st_param(pb, code, sim_selftest_last(d, back++), false);
}

static void bg_scan_page(const struct sim_drive *d, struct pagebuf *pb)
{
	struct sim_smart s;
	uint8_t *p;
	uint16_t code = 1, weeks;
	uint32_t minutes;
	unsigned i;

	sim_smart_now(d, &s);
	minutes = (uint32_t)(s.power_on_hours * 60 > UINT32_MAX ? UINT32_MAX
								: s.power_on_hours * 60);
	weeks = (uint16_t)(s.power_on_hours / 168 > 0xffff ? 0xffff : s.power_on_hours / 168);
	p = param(pb, 0x0000, 0x03, 12);
	if (!p)
		return;
	sg_put_unaligned_be32(minutes, p);
	p[5] = 0x00; /* no scan active */
	sg_put_unaligned_be16(weeks, p + 6);
	sg_put_unaligned_be16(weeks, p + 10);
	/* what the scans found: each medium-error range's first LBA */
	for (i = 0; i < d->st.nfaults && code <= 0x800; i++) {
		const struct sim_fault *f = &d->st.faults[i];

		if (f->kind != SIM_FAULT_MEDIUM_ERROR)
			continue;
		p = param(pb, code++, 0x03, 20);
		if (!p)
			return;
		sg_put_unaligned_be32(minutes, p);
		p[4] = 0x10 | SK_MEDIUM_ERROR; /* reassign status 1: not reassigned yet */
		p[5] = 0x11;
		sg_put_unaligned_be64(f->lba_first, p + 12);
	}
}

/* Build page (code) into pb, without the 4-byte header. 0, or -ENOENT. */
static int build(const struct sim_drive *d, uint8_t page, bool subpages, uint64_t now,
		 struct pagebuf *pb)
{
	struct sim_smart s;
	bool many = false;
	uint8_t *p;
	unsigned i;

	pb->n = 0;
	sim_smart_now(d, &s);
	switch (page) {
	case 0x00:
		for (i = 0; i < sizeof(pages); i++) {
			pb->b[pb->n++] = pages[i];
			if (subpages) {
				pb->b[pb->n++] = 0x00;
				if (pages[i] == 0x00) {
					pb->b[pb->n++] = 0x00;
					pb->b[pb->n++] = 0xff;
				}
			}
		}
		return 0;
	case 0x02:
	case 0x03:
	case 0x05:
		error_page(d, page, pb);
		return 0;
	case 0x06:
		counter(pb, 0x0000, d->st.ctr.non_medium);
		return 0;
	case 0x0d:
		p = param(pb, 0x0000, 0x03, 2);
		p[1] = (uint8_t)s.temperature;
		p = param(pb, 0x0001, 0x03, 2);
		p[1] = REF_TEMP_C;
		return 0;
	case 0x0e: {
		/* a spin-up per power cycle, and the ones before the rig seeded the drive */
		uint32_t cycles = (uint32_t)(d->st.power_cycles + d->cfg.smart.power_on_hours / 50 +
					     12);

		p = param(pb, 0x0001, 0x01, 6);
		memcpy(p, "200923", 6); /* manufactured: 2009, week 23 */
		p = param(pb, 0x0002, 0x01, 6);
		memcpy(p, "      ", 6); /* accounting date: not set */
		p = param(pb, 0x0003, 0x03, 4);
		sg_put_unaligned_be32(50000, p);
		p = param(pb, 0x0004, 0x03, 4);
		sg_put_unaligned_be32(cycles, p);
		p = param(pb, 0x0005, 0x03, 4);
		sg_put_unaligned_be32(600000, p);
		p = param(pb, 0x0006, 0x03, 4);
		sg_put_unaligned_be32(cycles * 3, p);
		return 0;
	}
	case 0x10:
		selftest_page(d, now, pb);
		return 0;
	case 0x15:
		bg_scan_page(d, pb);
		return 0;
	case 0x2f:
		p = param(pb, 0x0000, 0x03, 4);
		if (sim_smart_failing(d, &many)) {
			p[0] = 0x5d;		   /* FAILURE PREDICTION THRESHOLD EXCEEDED */
			p[1] = many ? 0x14 : 0x00; /* ... TOO MANY BLOCK REASSIGNS */
		}
		p[2] = (uint8_t)s.temperature;
		return 0;
	default:
		return -ENOENT;
	}
}

void sim_scsi_log_sense(struct sim_cmd *sc)
{
	const uint8_t *cdb = sc->c->cdb;
	uint8_t page = cdb[2] & 0x3f, sub = cdb[3];
	unsigned ptr = sg_get_unaligned_be16(cdb + 5), alloc = sg_get_unaligned_be16(cdb + 7);
	struct pagebuf pb, out;
	unsigned off;

	if (sub && !(page == 0x00 && sub == 0xff)) {
		sim_bad_cdb(sc, 3, -1);
		return;
	}
	if (build(sc->d, page, sub == 0xff, sc->now_ns, &pb)) {
		sim_bad_cdb(sc, 2, 5);
		return;
	}
	/* the parameter pointer: parameters from that code on */
	out.n = 4;
	if (page == 0x00 || ptr == 0) {
		memcpy(out.b + 4, pb.b, pb.n);
		out.n += pb.n;
	} else {
		for (off = 0; off + 4 <= pb.n; off += 4u + pb.b[off + 3]) {
			unsigned code = sg_get_unaligned_be16(pb.b + off);
			unsigned len = 4u + pb.b[off + 3];

			if (code < ptr)
				continue;
			memcpy(out.b + out.n, pb.b + off, len);
			out.n += len;
		}
	}
	out.b[0] = page | (sub == 0xff ? 0x40 : 0);
	out.b[1] = sub;
	sg_put_unaligned_be16((uint16_t)(out.n - 4), out.b + 2);
	sim_data_in(sc, out.b, alloc < out.n ? alloc : out.n);
}

static void selftest_in_progress(struct sim_cmd *sc)
{
	struct sim_sense_x x = { .sks_valid = true };
	uint32_t p = sim_selftest_progress(sc->d, sc->now_ns);

	x.sks[1] = (uint8_t)(p >> 8);
	x.sks[2] = (uint8_t)p;
	sim_sense_x(sc, SK_NOT_READY, 0x04, 0x09, &x);
}

void sim_scsi_send_diag(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	uint8_t code = cdb[1] >> 5;
	bool selftest = cdb[1] & 0x04;
	unsigned plen = sg_get_unaligned_be16(cdb + 3);
	const struct sim_st_entry *e;
	uint64_t dur;
	int rc;

	if (plen) {
		sim_bad_cdb(sc, 3, -1); /* no diagnostic pages */
		return;
	}
	if (selftest) {
		if (code) {
			sim_bad_cdb(sc, 1, 2);
			return;
		}
		sc->media_ns = 2000000000ULL; /* the default self-test: a quick look */
		return;
	}
	if (code == 0)
		return;
	if (!sim_smart_supported(d) || code == 3 || code == 7) {
		sim_bad_cdb(sc, 1, 7);
		return;
	}
	sim_selftest_tick(d, sc->now_ns);
	switch (code) {
	case 4:
		if (!sim_selftest_abort(d, sc->now_ns))
			sim_bad_cdb(sc, 1, 7); /* no background self-test to abort */
		return;
	case 1:
	case 2:
	case 5:
	case 6:
		rc = sim_selftest_start(d, code > 4 ? (uint8_t)(code - 4) : code, code > 4,
					sc->now_ns, &dur);
		if (rc == -EBUSY) {
			selftest_in_progress(sc);
			return;
		}
		if (rc) {
			sim_bad_cdb(sc, 1, 7);
			return;
		}
		if (code > 4) {
			sc->media_ns = dur;
			e = sim_selftest_last(d, 0);
			if (e && e->outcome != SIM_ST_OK)
				sim_sense(sc, SK_HARDWARE_ERROR, 0x3e, 0x03);
		}
		return;
	default:
		sim_bad_cdb(sc, 1, 7);
		return;
	}
}
