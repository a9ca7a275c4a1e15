/* sim_smart.c - SMART of a simulated drive: the ATA SMART command set
 * (READ DATA, READ THRESHOLDS, RETURN STATUS, ENABLE/DISABLE OPERATIONS,
 * EXECUTE OFF-LINE IMMEDIATE, READ LOG), READ LOG EXT, the self-test
 * engine both personalities share, and the summary error log.
 * Layouts: ACS-3 7.48 (SMART), A.14 (self-test logs), A.20 (summary
 * error log), A.2 (log directory).
 *
 * The attributes come from the rig's smart seeds (the state's counters)
 * plus a smart-degrade fault; power-on hours advance with the virtual
 * clock. Self-tests run against the virtual clock: short 2 minutes,
 * conveyance 5, extended the time to read the whole surface at the
 * average transfer rate. A short or extended test stops at the first LBA
 * a medium-error fault covers (or at a selftest-fail fault's LBA), at the
 * time its sweep from LBA 0 reaches it, with status 7 (read failure).
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/sector.h"
#include "sim/sim_priv.h"

#define SMART_READ_DATA 0xd0
#define SMART_READ_THRESHOLDS 0xd1
#define SMART_AUTOSAVE 0xd2
#define SMART_EXEC_OFFLINE 0xd4
#define SMART_READ_LOG 0xd5
#define SMART_WRITE_LOG 0xd6
#define SMART_ENABLE 0xd8
#define SMART_DISABLE 0xd9
#define SMART_RETURN_STATUS 0xda
#define SMART_AUTO_OFFLINE 0xdb

#define NS_PER_S 1000000000ULL
#define NS_PER_HOUR (3600ULL * NS_PER_S)
#define SHORT_S 120
#define CONVEYANCE_S 300
#define DEFAULT_TEMP_C 35
#define REALLOC_PER_POINT 20 /* attribute 5 loses a point per 20 reallocations */
#define REALLOC_THRESHOLD 36 /* ... and fails at 36: 1280 reallocated sectors */

const struct sim_fault *sim_fault_active(const struct sim_drive *d, enum sim_fault_kind k)
{
	unsigned i;

	for (i = 0; i < d->st.nfaults; i++)
		if (d->st.faults[i].kind == k)
			return &d->st.faults[i];
	return NULL;
}

bool sim_smart_supported(const struct sim_drive *d)
{
	return d->cfg.smart.supported && !sim_fault_active(d, SIM_FAULT_NO_SMART);
}

uint32_t sim_power_on_hours(const struct sim_drive *d, uint64_t now)
{
	uint64_t h = d->st.smart.power_on_hours + now / NS_PER_HOUR;

	return h > UINT32_MAX ? UINT32_MAX : (uint32_t)h;
}

void sim_smart_now(const struct sim_drive *d, struct sim_smart *out)
{
	const struct sim_fault *f = sim_fault_active(d, SIM_FAULT_SMART_DEGRADE);

	*out = d->st.smart;
	out->power_on_hours = sim_power_on_hours(d, sim_clock_now(d));
	if (!out->temperature)
		out->temperature = DEFAULT_TEMP_C;
	if (f) {
		out->reallocated += f->reallocated;
		out->pending += f->pending;
	}
}

static uint8_t realloc_value(uint64_t reallocated)
{
	uint64_t lost = reallocated / REALLOC_PER_POINT;

	return lost >= 99 ? 1 : (uint8_t)(100 - lost);
}

/* A drive seeded from a blob: what the blob's RETURN STATUS said, else a
 * pre-failure attribute at or below its (non-zero) threshold */
static bool blob_failing(const struct sim_drive *d)
{
	const struct sim_blob *b = &d->cfg.bl;

	if (b->has_status)
		return !b->status_good;
	for (unsigned i = 0; b->has_thr && i < 30; i++) {
		const uint8_t *a = b->data + 2 + 12 * i, *t = b->thr + 2 + 12 * i;

		if (a[0] && t[0] == a[0] && (a[1] & 0x01) && t[1] && a[3] <= t[1])
			return true;
	}
	return false;
}

bool sim_smart_failing(const struct sim_drive *d, bool *too_many_reassigns)
{
	struct sim_smart s;
	bool many;

	if (d->cfg.blob_smart) {
		if (too_many_reassigns)
			*too_many_reassigns = false;
		return blob_failing(d) || sim_fault_active(d, SIM_FAULT_SMART_FAIL);
	}
	sim_smart_now(d, &s);
	many = realloc_value(s.reallocated) <= REALLOC_THRESHOLD;
	if (too_many_reassigns)
		*too_many_reassigns = many;
	return many || sim_fault_active(d, SIM_FAULT_SMART_FAIL);
}

/* ---- the attribute table ---- */

struct attr_def {
	uint8_t id;
	uint16_t flags; /* bit 0 pre-failure, 1 online, 2 performance, 3 error rate,
			 * 4 event count, 5 self-preserving */
	uint8_t threshold;
};

static const struct attr_def attrs[] = {
	{ 1, 0x000b, 16 },		  /* raw read error rate */
	{ 3, 0x0007, 24 },		  /* spin-up time */
	{ 4, 0x0012, 0 },		  /* start/stop count */
	{ 5, 0x0033, REALLOC_THRESHOLD }, /* reallocated sectors */
	{ 7, 0x000b, 67 },		  /* seek error rate */
	{ 9, 0x0012, 0 },		  /* power-on hours */
	{ 10, 0x0013, 60 },		  /* spin retry count */
	{ 12, 0x0032, 0 },		  /* power cycle count */
	{ 193, 0x0012, 0 },		  /* load/unload cycles */
	{ 194, 0x0002, 0 },		  /* temperature */
	{ 196, 0x0032, 0 },		  /* reallocation events */
	{ 197, 0x0022, 0 },		  /* current pending sectors */
	{ 198, 0x0030, 0 },		  /* offline uncorrectable */
	{ 199, 0x000a, 0 },		  /* UDMA CRC errors */
};
#define NATTRS (sizeof(attrs) / sizeof(attrs[0]))

static void attr_value(const struct sim_drive *d, const struct sim_smart *s, uint8_t id,
		       uint8_t *value, uint64_t *raw)
{
	uint64_t cycles = d->st.power_cycles + s->power_on_hours / 50 + 12;

	*value = 100;
	*raw = 0;
	switch (id) {
	case 3:
		*raw = d->cfg.rpm > 1 ? 350 : 0;
		break;
	case 4:
	case 12:
		*raw = cycles;
		break;
	case 5:
		*value = realloc_value(s->reallocated);
		*raw = s->reallocated;
		break;
	case 9:
		*value = s->power_on_hours >= 99000 ? 1 : (uint8_t)(100 - s->power_on_hours / 1000);
		*raw = s->power_on_hours;
		break;
	case 193:
		*raw = cycles * 3;
		break;
	case 194: {
		uint64_t t = s->temperature, lo = t > 15 ? t - 15 : 0, hi = t + 10;

		*value = (uint8_t)t;
		*raw = t | lo << 16 | hi << 32; /* current, min, max */
		break;
	}
	case 196:
		*value = realloc_value(s->reallocated);
		*raw = s->reallocated;
		break;
	case 197:
		*raw = s->pending;
		break;
	case 198:
		*raw = s->offline_uncorrectable;
		break;
	case 199:
		*value = 200;
		*raw = s->crc_errors;
		break;
	default:
		break;
	}
}

uint64_t sim_selftest_seconds(const struct sim_drive *d, uint8_t kind)
{
	const struct sim_media *m = &d->cfg.media;
	double rate, s;
	uint64_t min;

	if (d->cfg.blob_smart) {
		/* the polling times the blob's SMART data gives (bytes 372-376) */
		const uint8_t *b = d->cfg.bl.data;
		unsigned mins = kind == SIM_ST_SHORT	    ? b[372]
				: kind == SIM_ST_CONVEYANCE ? b[374]
				: b[373] == 0xff	    ? (unsigned)(b[375] | b[376] << 8)
							    : b[373];

		if (mins)
			return (uint64_t)mins * 60;
	}
	switch (kind) {
	case SIM_ST_SHORT:
		return SHORT_S;
	case SIM_ST_CONVEYANCE:
		return CONVEYANCE_S;
	default:
		break;
	}
	/* the whole surface (a selective test: its spans) at the average
	 * rate, in whole minutes */
	rate = (m->outer_mbps + m->inner_mbps) / 2 * 1e6;
	if (!(rate > 0))
		rate = 100e6;
	s = (double)d->cfg.blocks * d->cfg.lblock / rate;
	if (kind == SIM_ST_SELECTIVE) {
		const struct sim_selftest *t = &d->st.test;
		double blocks = 0;

		for (unsigned i = 0; i < t->sel_n; i++)
			blocks += (double)(t->sel_last[i] - t->sel_first[i] + 1);
		s = blocks * d->cfg.lblock / rate;
	}
	min = (uint64_t)(s / 60) + 1;
	return min * 60;
}

static uint8_t remaining_nibble(const struct sim_drive *d, uint64_t now)
{
	uint32_t p = sim_selftest_progress(d, now);
	unsigned rem = (unsigned)((65536 - (uint64_t)p) * 10 + 65535) / 65536;

	if (rem > 9)
		rem = 9;
	if (rem < 1)
		rem = 1;
	return (uint8_t)rem;
}

static uint8_t ata_status_nibble(uint8_t outcome)
{
	switch (outcome) {
	case SIM_ST_ABORTED:
		return 0x1;
	case SIM_ST_INTERRUPTED:
		return 0x2;
	case SIM_ST_READ_FAIL:
		return 0x7;
	default:
		return 0x0;
	}
}

/* The self-test execution status byte (SMART data byte 363) */
static uint8_t selftest_byte(const struct sim_drive *d, uint64_t now)
{
	const struct sim_st_entry *e;

	if (d->st.test.active)
		return (uint8_t)(0xf0 | remaining_nibble(d, now));
	e = sim_selftest_last(d, 0);
	return e ? (uint8_t)(ata_status_nibble(e->outcome) << 4) : 0;
}

static void smart_data(const struct sim_drive *d, uint64_t now, uint8_t *b)
{
	struct sim_smart s;
	uint64_t ext_min = sim_selftest_seconds(d, SIM_ST_EXTENDED) / 60;
	unsigned i;

	if (d->cfg.blob_smart) {
		/* the blob's, as the real drive sent it; the self-test status
		 * is the simulator's once a self-test ran here */
		memcpy(b, d->cfg.bl.data, 512);
		if (d->st.test.active || d->st.test.total) {
			b[363] = selftest_byte(d, now);
			ata_checksum_set(b);
		}
		return;
	}
	sim_smart_now(d, &s);
	memset(b, 0, 512);
	sg_put_unaligned_le16(0x0010, b); /* revision */
	for (i = 0; i < NATTRS; i++) {
		uint8_t *p = b + 2 + 12 * i, value;
		uint64_t raw;

		attr_value(d, &s, attrs[i].id, &value, &raw);
		p[0] = attrs[i].id;
		sg_put_unaligned_le16(attrs[i].flags, p + 1);
		p[3] = value;
		p[4] = value; /* worst */
		sg_put_unaligned_le48(raw, p + 5);
	}
	b[362] = 0x82; /* off-line data collection completed, auto off-line on */
	b[363] = selftest_byte(d, now);
	sg_put_unaligned_le16(600, b + 364); /* off-line data collection: 600 s */
	b[367] = 0x7b; /* immediate, auto, read scan, self-test, conveyance, selective */
	sg_put_unaligned_le16(0x0003, b + 368); /* saves data before power saving, autosave */
	b[370] = 0x01;				/* error logging */
	b[372] = SHORT_S / 60;
	if (ext_min >= 0xff) {
		b[373] = 0xff;
		sg_put_unaligned_le16(ext_min > 0xffff ? 0xffff : (uint16_t)ext_min, b + 375);
	} else {
		b[373] = (uint8_t)ext_min;
		sg_put_unaligned_le16((uint16_t)ext_min, b + 375);
	}
	b[374] = CONVEYANCE_S / 60;
	ata_checksum_set(b);
}

static void smart_thresholds(const struct sim_drive *d, uint8_t *b)
{
	unsigned i;

	if (d->cfg.blob_smart) {
		memcpy(b, d->cfg.bl.thr, 512);
		return;
	}
	memset(b, 0, 512);
	sg_put_unaligned_le16(0x0010, b);
	for (i = 0; i < NATTRS; i++) {
		b[2 + 12 * i] = attrs[i].id;
		b[3 + 12 * i] = attrs[i].threshold;
	}
	ata_checksum_set(b);
}

/* ---- self-tests ---- */

const struct sim_st_entry *sim_selftest_last(const struct sim_drive *d, unsigned back)
{
	const struct sim_selftest *t = &d->st.test;

	if (back >= t->total || back >= SIM_ST_LOG)
		return NULL;
	return &t->log[(t->total - 1 - back) % SIM_ST_LOG];
}

static void log_entry(struct sim_drive *d, uint8_t kind, bool captive, uint8_t outcome,
		      uint64_t when, bool lba_valid, uint64_t lba)
{
	struct sim_selftest *t = &d->st.test;
	struct sim_st_entry *e = &t->log[t->total % SIM_ST_LOG];

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->captive = captive;
	e->outcome = outcome;
	e->hours = sim_power_on_hours(d, when);
	e->lba_valid = lba_valid;
	e->lba = lba_valid ? lba : 0;
	t->total++;
	d->dirty = true;
}

uint32_t sim_selftest_progress(const struct sim_drive *d, uint64_t now)
{
	const struct sim_selftest *t = &d->st.test;
	double f;

	if (!t->active || t->end_ns <= t->start_ns)
		return 0;
	f = now > t->start_ns ? (double)(now - t->start_ns) / (double)(t->end_ns - t->start_ns) : 0;
	f *= 65536.0;
	return f >= 65535 ? 65535 : (uint32_t)f;
}

/* Where (and whether) a test of this kind fails, as a fraction of its sweep */
static bool will_fail(const struct sim_drive *d, uint8_t kind, uint64_t *lba)
{
	const struct sim_fault *f = sim_fault_active(d, SIM_FAULT_SELFTEST_FAIL);
	uint64_t cap = sim_capacity(d), bad;
	bool found = false;

	if (f) {
		*lba = f->lba_first < cap ? f->lba_first : cap - 1;
		found = true;
	}
	if (kind == SIM_ST_SELECTIVE) {
		const struct sim_selftest *t = &d->st.test;

		for (unsigned i = 0; i < t->sel_n; i++) {
			uint64_t last = t->sel_last[i] < cap ? t->sel_last[i] : cap - 1;

			if (cap && t->sel_first[i] <= last &&
			    sim_medium_error(d, t->sel_first[i], last - t->sel_first[i] + 1,
					     &bad) &&
			    (!found || bad < *lba)) {
				*lba = bad;
				found = true;
			}
		}
		return found;
	}
	if (kind != SIM_ST_CONVEYANCE && cap && sim_medium_error(d, 0, cap, &bad) &&
	    (!found || bad < *lba)) {
		*lba = bad;
		found = true;
	}
	return found;
}

int sim_selftest_start(struct sim_drive *d, uint8_t kind, bool captive, uint64_t now,
		       uint64_t *dur_ns)
{
	struct sim_selftest *t = &d->st.test;
	uint64_t dur, lba = 0, cap = sim_capacity(d);
	bool fails;

	*dur_ns = 0;
	if (kind < SIM_ST_SHORT || kind > SIM_ST_SELECTIVE ||
	    (kind == SIM_ST_SELECTIVE && !t->sel_n))
		return -EINVAL;
	sim_selftest_tick(d, now);
	if (t->active)
		return -EBUSY;
	dur = sim_selftest_seconds(d, kind) * NS_PER_S;
	fails = will_fail(d, kind, &lba);
	if (captive) {
		uint64_t at = dur;

		if (fails && cap)
			at = (uint64_t)((double)dur * ((double)lba / (double)cap));
		*dur_ns = at;
		log_entry(d, kind, true, fails ? SIM_ST_READ_FAIL : SIM_ST_OK, now + at, fails,
			  lba);
		return 0;
	}
	t->active = true;
	t->kind = kind;
	t->start_ns = now;
	t->end_ns = now + dur;
	t->fails = fails;
	t->fail_lba = lba;
	t->fail_ns = fails && cap ? now + (uint64_t)((double)dur * ((double)lba / (double)cap)) : 0;
	d->dirty = true;
	return 0;
}

void sim_selftest_tick(struct sim_drive *d, uint64_t now)
{
	struct sim_selftest *t = &d->st.test;

	if (!t->active)
		return;
	if (t->fails && now >= t->fail_ns) {
		t->active = false;
		log_entry(d, t->kind, false, SIM_ST_READ_FAIL, t->fail_ns, true, t->fail_lba);
	} else if (now >= t->end_ns) {
		t->active = false;
		log_entry(d, t->kind, false, SIM_ST_OK, t->end_ns, false, 0);
	}
}

bool sim_selftest_abort(struct sim_drive *d, uint64_t now)
{
	struct sim_selftest *t = &d->st.test;

	sim_selftest_tick(d, now);
	if (!t->active)
		return false;
	t->active = false;
	log_entry(d, t->kind, false, SIM_ST_ABORTED, now, false, 0);
	return true;
}

void sim_selftest_interrupt(struct sim_drive *d, uint64_t now)
{
	struct sim_selftest *t = &d->st.test;

	sim_selftest_tick(d, now);
	if (!t->active)
		return;
	t->active = false;
	log_entry(d, t->kind, false, SIM_ST_INTERRUPTED, now, false, 0);
}

/* ---- logs ---- */

/* SMART log 0x06: revision 1, 21 descriptors of 24 bytes from byte 2,
 * the index of the newest at 508, checksum. */
static void selftest_log(const struct sim_drive *d, uint8_t *b)
{
	const struct sim_selftest *t = &d->st.test;
	uint32_t n = t->total < SIM_ST_LOG ? t->total : SIM_ST_LOG, k;

	memset(b, 0, 512);
	sg_put_unaligned_le16(0x0001, b);
	for (k = 0; k < n; k++) {
		uint32_t num = t->total - 1 - k; /* entry number, 0-based */
		const struct sim_st_entry *e = &t->log[num % SIM_ST_LOG];
		uint8_t *p = b + 2 + 24 * (num % SIM_ST_LOG);
		uint32_t lba = e->lba_valid ? (uint32_t)(e->lba > 0x0fffffff ? 0x0fffffff : e->lba)
					    : 0xffffffff;

		p[0] = (uint8_t)(e->kind | (e->captive ? 0x80 : 0));
		p[1] = (uint8_t)(ata_status_nibble(e->outcome) << 4);
		sg_put_unaligned_le16((uint16_t)(e->hours > 0xffff ? 0xffff : e->hours), p + 2);
		p[4] = 0;
		sg_put_unaligned_le32(lba, p + 5);
	}
	b[508] = n ? (uint8_t)((t->total - 1) % SIM_ST_LOG + 1) : 0;
	ata_checksum_set(b);
}

/* GPL log 0x07, page 0: revision 1, descriptor index at 2-3, 19
 * descriptors of 26 bytes from byte 4 (48-bit failing LBA). */
static void ext_selftest_log(const struct sim_drive *d, uint8_t *b)
{
	const struct sim_selftest *t = &d->st.test;
	uint32_t n = t->total < 19 ? t->total : 19, k;

	memset(b, 0, 512);
	b[0] = 0x01;
	for (k = 0; k < n; k++) {
		uint32_t num = t->total - 1 - k;
		const struct sim_st_entry *e = &t->log[num % SIM_ST_LOG];
		uint8_t *p = b + 4 + 26 * (num % 19);
		uint64_t lba = e->lba_valid ? e->lba : 0xffffffffffffULL;

		p[0] = (uint8_t)(e->kind | (e->captive ? 0x80 : 0));
		p[1] = (uint8_t)(ata_status_nibble(e->outcome) << 4);
		sg_put_unaligned_le16((uint16_t)(e->hours > 0xffff ? 0xffff : e->hours), p + 2);
		sg_put_unaligned_le48(lba, p + 5);
	}
	sg_put_unaligned_le16((uint16_t)(n ? (t->total - 1) % 19 + 1 : 0), b + 2);
}

void sim_errlog_add(struct sim_drive *d, uint8_t command, uint8_t error, uint64_t lba)
{
	struct sim_errlog *l = &d->st.errlog;
	struct sim_ata_err *e = &l->e[l->total % SIM_ERR_LOG];

	e->command = command;
	e->error = error;
	e->status = 0x51;
	e->lba = lba;
	e->hours = sim_power_on_hours(d, sim_clock_now(d));
	l->total++;
	d->dirty = true;
}

/* Summary error log (0x01): version 1, index of the newest error data
 * structure, five of 90 bytes from byte 2, device error count 452-453. */
static void error_log(const struct sim_drive *d, uint8_t *b)
{
	const struct sim_errlog *l = &d->st.errlog;
	uint32_t n = l->total < SIM_ERR_LOG ? l->total : SIM_ERR_LOG, k;

	memset(b, 0, 512);
	b[0] = 0x01;
	for (k = 0; k < n; k++) {
		uint32_t num = l->total - 1 - k;
		const struct sim_ata_err *e = &l->e[num % SIM_ERR_LOG];
		uint8_t *s = b + 2 + 90 * (num % SIM_ERR_LOG);
		uint8_t *cmd = s + 4 * 12, *er = s + 60;
		uint32_t lba = (uint32_t)(e->lba & 0x0fffffff);

		/* the command that failed: the fifth command data structure */
		cmd[1] = 0;
		cmd[2] = 8;
		sg_put_unaligned_le24(lba, cmd + 3);
		cmd[6] = (uint8_t)(0x40 | ((lba >> 24) & 0x0f));
		cmd[7] = e->command;
		er[1] = e->error;
		er[2] = 8;
		sg_put_unaligned_le24(lba, er + 3);
		er[6] = (uint8_t)(0x40 | ((lba >> 24) & 0x0f));
		er[7] = e->status;
		er[27] = 0x03; /* active or idle */
		sg_put_unaligned_le16((uint16_t)(e->hours > 0xffff ? 0xffff : e->hours), er + 28);
	}
	b[1] = n ? (uint8_t)((l->total - 1) % SIM_ERR_LOG + 1) : 0;
	sg_put_unaligned_le16((uint16_t)(l->total > 0xffff ? 0xffff : l->total), b + 452);
	ata_checksum_set(b);
}

/* ---- the SMART command ---- */

static void exec_offline(struct sim_ata *a)
{
	struct sim_cmd *sc = a->sc;
	struct sim_drive *d = sc->d;
	uint8_t sub = (uint8_t)a->tf.lba;
	uint64_t dur;
	int rc;

	switch (sub) {
	case 0x00: /* off-line data collection: instant here */
		return;
	case 0x7f:
		sim_selftest_abort(d, sc->now_ns);
		return;
	case 0x01:
	case 0x02:
	case 0x03:
	case 0x04:
	case 0x81:
	case 0x82:
	case 0x83:
	case 0x84:
		rc = sim_selftest_start(d, sub & 0x7f, sub & 0x80, sc->now_ns, &dur);
		if (rc) {
			sim_ata_abrt(a, ATA_ERR_ABRT);
			return;
		}
		if (sub & 0x80) {
			const struct sim_st_entry *e = sim_selftest_last(d, 0);

			sc->media_ns = dur;
			if (e && e->outcome != SIM_ST_OK) {
				sim_ata_abrt(a, ATA_ERR_ABRT);
				a->r.lba = 0x2cf400 | (a->tf.lba & 0xff);
			}
		}
		return;
	default: /* the rest: not emulated */
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
}

/* SMART log 09h, the selective self-test log: revision 1, the spans from
 * byte 2, the checksum. */
static void selective_log(const struct sim_drive *d, uint8_t *b)
{
	const struct sim_selftest *t = &d->st.test;

	memset(b, 0, 512);
	sg_put_unaligned_le16(1, b);
	for (unsigned i = 0; i < t->sel_n; i++) {
		sg_put_unaligned_le64(t->sel_first[i], b + 2 + 16 * i);
		sg_put_unaligned_le64(t->sel_last[i], b + 10 + 16 * i);
	}
	ata_checksum_set(b);
}

/* SMART WRITE LOG: only the selective self-test log takes writes. */
static void write_log(struct sim_ata *a)
{
	struct sim_cmd *sc = a->sc;
	struct sim_selftest *t = &sc->d->st.test;
	const uint8_t *b = sc->out;

	if ((uint8_t)a->tf.lba != 0x09 || (uint8_t)a->tf.count != 1) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (!sim_ata_data_out_ok(a, 512)) {
		sim_bad_cdb(sc, 1, 4);
		return;
	}
	/* a bad checksum or revision, a span that ends before it starts:
	 * the drive aborts (ACS-3 A.19) */
	if (!ata_checksum_ok(b) || sg_get_unaligned_le16(b) != 1) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	t->sel_n = 0;
	for (unsigned i = 0; i < 5; i++) {
		uint64_t f = sg_get_unaligned_le64(b + 2 + 16 * i);
		uint64_t l = sg_get_unaligned_le64(b + 10 + 16 * i);

		if (!f && !l)
			continue;
		if (l < f) {
			sim_ata_abrt(a, ATA_ERR_ABRT);
			t->sel_n = 0;
			return;
		}
		t->sel_first[t->sel_n] = f;
		t->sel_last[t->sel_n] = l;
		t->sel_n++;
	}
	sc->moved = 512;
	sc->d->dirty = true;
}

static void read_log(struct sim_ata *a)
{
	struct sim_cmd *sc = a->sc;
	struct sim_drive *d = sc->d;
	uint8_t log = (uint8_t)a->tf.lba, n = (uint8_t)a->tf.count;
	uint8_t b[512];

	if (!n || !sim_ata_data_in_ok(a, 512u * n)) {
		sim_bad_cdb(sc, 1, 4);
		return;
	}
	memset(b, 0, sizeof(b));
	switch (log) {
	case 0x00: /* SMART log directory */
		sg_put_unaligned_le16(0x0001, b);
		sg_put_unaligned_le16(1, b + 2 * 0x01);
		sg_put_unaligned_le16(1, b + 2 * 0x06);
		sg_put_unaligned_le16(1, b + 2 * 0x09);
		break;
	case 0x01:
		if (n != 1)
			goto abort;
		error_log(d, b);
		break;
	case 0x06:
		if (n != 1)
			goto abort;
		selftest_log(d, b);
		break;
	case 0x09:
		if (n != 1)
			goto abort;
		selective_log(d, b);
		break;
	default:
		goto abort;
	}
	sim_data_in(sc, b, sizeof(b));
	return;
abort:
	sim_ata_abrt(a, ATA_ERR_ABRT);
}

void sim_ata_smart(struct sim_ata *a)
{
	struct sim_cmd *sc = a->sc;
	struct sim_drive *d = sc->d;
	uint8_t feature = (uint8_t)a->tf.feature, b[512];
	uint32_t midhigh = (uint32_t)(a->tf.lba >> 8) & 0xffff;
	bool bad, many;

	if (!sim_smart_supported(d) || midhigh != 0xc24f) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	if (!d->st.smart.enabled && feature != SMART_ENABLE) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	switch (feature) {
	case SMART_READ_DATA:
	case SMART_READ_THRESHOLDS:
		if (!sim_ata_data_in_ok(a, 512)) {
			sim_bad_cdb(sc, 1, 4);
			return;
		}
		if (feature == SMART_READ_THRESHOLDS && d->cfg.blob_smart && !d->cfg.bl.has_thr) {
			sim_ata_abrt(a, ATA_ERR_ABRT); /* the blob has none */
			return;
		}
		if (feature == SMART_READ_DATA)
			smart_data(d, sc->now_ns, b);
		else
			smart_thresholds(d, b);
		sim_data_in(sc, b, sizeof(b));
		break;
	case SMART_READ_LOG:
		read_log(a);
		break;
	case SMART_EXEC_OFFLINE:
		exec_offline(a);
		break;
	case SMART_WRITE_LOG:
		write_log(a);
		break;
	case SMART_ENABLE:
	case SMART_DISABLE:
		if (d->st.smart.enabled != (feature == SMART_ENABLE)) {
			d->st.smart.enabled = feature == SMART_ENABLE;
			d->dirty = true;
		}
		break;
	case SMART_AUTOSAVE:
	case SMART_AUTO_OFFLINE:
		break;
	case SMART_RETURN_STATUS:
		bad = sim_smart_failing(d, &many);
		a->r.lba = (bad ? 0x2cf400 : 0xc24f00) | (a->tf.lba & 0xff);
		break;
	default:
		sim_ata_abrt(a, ATA_ERR_ABRT);
		break;
	}
}

/* READ LOG EXT: LBA 7:0 the log, 15:8 and 39:32 the page, count pages.
 * The GPL directory, the extended self-test log (one page) and, on a
 * drive with several actuators, the Concurrent Positioning Ranges log. */
void sim_ata_read_log_ext(struct sim_ata *a)
{
	struct sim_cmd *sc = a->sc;
	struct sim_drive *d = sc->d;
	uint8_t log = (uint8_t)a->tf.lba, b[512];
	unsigned page = (unsigned)((a->tf.lba >> 8) & 0xff) | (unsigned)((a->tf.lba >> 32) & 0xff)
								  << 8;
	unsigned n = a->tf.count ? a->tf.count : 65536;

	if (!sim_ata_data_in_ok(a, 512u * n)) {
		sim_bad_cdb(sc, 1, 4);
		return;
	}
	memset(b, 0, sizeof(b));
	if (page != 0 || n != 1) {
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	switch (log) {
	case 0x00: /* GPL directory: version, then pages per log */
		sg_put_unaligned_le16(0x0001, b);
		if (sim_smart_supported(d))
			sg_put_unaligned_le16(1, b + 2 * 0x07);
		if (d->cfg.ranges.n > 1)
			sg_put_unaligned_le16(1, b + 2 * CPR_LOG);
		if (d->cfg.nsizes)
			sg_put_unaligned_le16(1, b + 2 * ATA_LOG_SECTOR_CONFIG);
		break;
	case CPR_LOG:
		if (d->cfg.ranges.n < 2 || !cpr_build_ata_log(&d->cfg.ranges, b, sizeof(b))) {
			sim_ata_abrt(a, ATA_ERR_ABRT);
			return;
		}
		break;
	case ATA_LOG_SECTOR_CONFIG:
		if (!d->cfg.nsizes) {
			sim_ata_abrt(a, ATA_ERR_ABRT);
			return;
		}
		sim_sector_log(d, b);
		break;
	case 0x07:
		if (!sim_smart_supported(d) || !d->st.smart.enabled) {
			sim_ata_abrt(a, ATA_ERR_ABRT);
			return;
		}
		ext_selftest_log(d, b);
		break;
	default:
		sim_ata_abrt(a, ATA_ERR_ABRT);
		return;
	}
	sim_data_in(sc, b, sizeof(b));
}
