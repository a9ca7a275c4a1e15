/* sim_drive.c - one simulated drive: executing a command (faults, the
 * virtual clock, persisting), sense data, power cycles. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shortstroke/sat.h"
#include "shortstroke/sense.h"
#include "sim/sim_priv.h"

#define SPIN_UP_NS 8000000000ULL

const char *sim_drive_id(const struct sim_drive *d)
{
	return d ? d->cfg.id : "";
}

void sim_drive_ids(const struct sim_drive *d, char *serial, size_t slen, char *wwn, size_t wlen)
{
	const char *s = d->cfg.serial;
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	snprintf(serial, slen, "%.*s", (int)n, s);
	if (d->cfg.has_wwn)
		snprintf(wwn, wlen, "%016llx", (unsigned long long)d->cfg.wwn);
	else if (wlen)
		wwn[0] = '\0';
}

const char *sim_drive_personality(const struct sim_drive *d)
{
	return !d ? "sas" : d->cfg.sata ? "sata" : d->cfg.nvme ? "nvme" : "sas";
}

bool sim_dsense(const struct sim_drive *d)
{
	return d->st.dsense;
}

uint64_t sim_ata_accessible_max(const struct sim_drive *d)
{
	uint64_t m = d->st.vol_active ? d->st.vol_max : d->st.nv_max;

	return m > d->st.native_max ? d->st.native_max : m;
}

uint64_t sim_capacity(const struct sim_drive *d)
{
	if (d->cfg.nvme) /* the namespace, in the drive's units */
		return sim_nvme_block(d) ? d->st.nv.nsze * (sim_nvme_block(d) / d->cfg.lblock) : 0;
	return d->cfg.sata ? sim_ata_accessible_max(d) + 1 : d->st.scsi_blocks;
}

uint32_t sim_format_progress(const struct sim_drive *d, uint64_t now)
{
	const struct sim_state *s = &d->st;
	uint64_t total, done;
	double f;

	if (!s->fmt_active || s->fmt_end_ns <= s->fmt_start_ns)
		return 0;
	total = s->fmt_end_ns - s->fmt_start_ns;
	done = now > s->fmt_start_ns ? now - s->fmt_start_ns : 0;
	f = (double)done / (double)total * 65536.0;
	return f >= 65535 ? 65535 : (uint32_t)f;
}

bool sim_medium_error(const struct sim_drive *d, uint64_t lba, uint64_t n, uint64_t *bad)
{
	uint64_t first = UINT64_MAX, last = lba + n - 1;
	unsigned i;

	if (n == 0)
		return false;
	for (i = 0; i < d->st.nfaults; i++) {
		const struct sim_fault *f = &d->st.faults[i];

		if (f->kind != SIM_FAULT_MEDIUM_ERROR)
			continue;
		if (f->lba_last < lba || f->lba_first > last)
			continue;
		if ((f->lba_first > lba ? f->lba_first : lba) < first)
			first = f->lba_first > lba ? f->lba_first : lba;
	}
	if (first == UINT64_MAX)
		return false;
	*bad = first;
	return true;
}

/* ---- sense data ---- */

unsigned sim_sense_build(uint8_t *buf, unsigned max, bool desc, uint8_t key, uint8_t asc,
			 uint8_t ascq, const struct sim_sense_x *x)
{
	uint8_t b[40];
	unsigned n;

	memset(b, 0, sizeof(b));
	if (desc) {
		b[0] = 0x72;
		b[1] = key & 0x0f;
		b[2] = asc;
		b[3] = ascq;
		n = 8;
		if (x && x->info_valid) {
			b[n] = 0x00; /* information descriptor */
			b[n + 1] = 0x0a;
			b[n + 2] = 0x80; /* VALID */
			for (int i = 0; i < 8; i++)
				b[n + 4 + i] = (uint8_t)(x->info >> (56 - 8 * i));
			n += 12;
		}
		if (x && x->sks_valid) {
			b[n] = 0x02; /* sense key specific descriptor */
			b[n + 1] = 0x06;
			b[n + 4] = 0x80 | x->sks[0];
			b[n + 5] = x->sks[1];
			b[n + 6] = x->sks[2];
			n += 8;
		}
		b[7] = (uint8_t)(n - 8);
	} else {
		b[0] = 0x70;
		b[2] = key & 0x0f;
		if (x && x->info_valid && x->info <= 0xffffffffULL) {
			b[0] |= 0x80;
			b[3] = (uint8_t)(x->info >> 24);
			b[4] = (uint8_t)(x->info >> 16);
			b[5] = (uint8_t)(x->info >> 8);
			b[6] = (uint8_t)x->info;
		}
		b[7] = 10;
		b[12] = asc;
		b[13] = ascq;
		if (x && x->sks_valid) {
			b[15] = 0x80 | x->sks[0];
			b[16] = x->sks[1];
			b[17] = x->sks[2];
		}
		n = 18;
	}
	if (n > max)
		n = max;
	if (buf)
		memcpy(buf, b, n);
	return n;
}

void sim_sense_x(struct sim_cmd *sc, uint8_t key, uint8_t asc, uint8_t ascq,
		 const struct sim_sense_x *x)
{
	struct xcmd *c = sc->c;

	c->status = SCSI_STATUS_CHECK_CONDITION;
	memset(c->sense, 0, sizeof(c->sense));
	c->sense_len = sim_sense_build(c->sense, sizeof(c->sense), sim_dsense(sc->d), key, asc,
				       ascq, x);
}

void sim_sense(struct sim_cmd *sc, uint8_t key, uint8_t asc, uint8_t ascq)
{
	sim_sense_x(sc, key, asc, ascq, NULL);
}

void sim_bad_cdb(struct sim_cmd *sc, unsigned byte, int bit)
{
	struct sim_sense_x x = { .sks_valid = true };

	x.sks[0] = 0x40 | (bit >= 0 ? (uint8_t)(0x08 | (bit & 7)) : 0);
	x.sks[1] = (uint8_t)(byte >> 8);
	x.sks[2] = (uint8_t)byte;
	sim_sense_x(sc, SK_ILLEGAL_REQUEST, 0x24, 0x00, &x);
}

void sim_bad_param(struct sim_cmd *sc, unsigned byte)
{
	struct sim_sense_x x = { .sks_valid = true };

	x.sks[1] = (uint8_t)(byte >> 8);
	x.sks[2] = (uint8_t)byte;
	sim_sense_x(sc, SK_ILLEGAL_REQUEST, 0x26, 0x00, &x);
}

void sim_bad_opcode(struct sim_cmd *sc)
{
	struct sim_sense_x x = { .sks_valid = true };

	x.sks[0] = 0x40;
	sim_sense_x(sc, SK_ILLEGAL_REQUEST, 0x20, 0x00, &x);
}

void sim_data_in(struct sim_cmd *sc, const void *src, size_t n)
{
	if (!sc->in)
		return;
	if (n > sc->in_len)
		n = sc->in_len;
	memcpy(sc->in, src, n);
	sc->moved = n;
}

/* ---- execution ---- */

static void fault_remove(struct sim_drive *d, unsigned i)
{
	struct sim_state *s = &d->st;

	memmove(&s->faults[i], &s->faults[i + 1], (s->nfaults - i - 1) * sizeof(s->faults[0]));
	s->nfaults--;
	d->dirty = true;
}

static struct sim_fault *fault_find(struct sim_drive *d, enum sim_fault_kind k, unsigned *idx)
{
	unsigned i;

	for (i = 0; i < d->st.nfaults; i++) {
		if (d->st.faults[i].kind == k) {
			if (idx)
				*idx = i;
			return &d->st.faults[i];
		}
	}
	return NULL;
}

static void format_complete(struct sim_drive *d)
{
	struct sim_state *s = &d->st;

	s->scsi_blocks = s->fmt_blocks ? s->fmt_blocks : s->scsi_blocks;
	s->fmt_active = false;
	s->fmt_corrupt = false;
	sim_store_wipe(d);
	sim_zones_reset_all(d);
	if (s->pending_lblock)
		sim_sector_apply(d, s->pending_lblock); /* a new block length */
	d->dirty = true;
}

/* Let a running format progress to the drive's current time. */
static void format_tick(struct sim_drive *d, uint64_t now)
{
	struct sim_state *s = &d->st;
	struct sim_fault *f;
	unsigned idx;

	if (!s->fmt_active || s->lost_power)
		return;
	f = fault_find(d, SIM_FAULT_FORMAT_POWER_LOSS, &idx);
	if (f) {
		uint64_t at = s->fmt_start_ns +
			      (s->fmt_end_ns - s->fmt_start_ns) / 100 * f->percent;

		if (now >= at) {
			s->lost_power = true; /* the format stays interrupted */
			fault_remove(d, idx);
			d->dirty = true;
			return;
		}
	}
	if (now >= s->fmt_end_ns)
		format_complete(d);
}

static int gone(struct sim_drive *d, struct ss_error *err)
{
	if (d->st.lost_power)
		return ss_error_set(err, -ENODEV,
				    "sim:%s: the drive lost power during a format "
				    "(format-power-loss fault); power-cycle it",
				    d->cfg.id);
	return ss_error_set(err, -ENODEV,
			    "sim:%s: the drive does not answer any more "
			    "(vanish-after fault)",
			    d->cfg.id);
}

/* Does fault f's opcode name the command? For a pass-through CDB the ATA
 * command is matched first (*ata set), then the SCSI opcode. */
static bool fault_op_matches(const struct sim_cmd *sc, const struct sim_fault *f, bool *ata)
{
	const uint8_t *cdb = sc->c->cdb;
	bool pt = sc->d->cfg.sata && ((cdb[0] == 0x85 && sc->c->cdb_len >= 15) ||
				      (cdb[0] == 0xa1 && sc->c->cdb_len >= 10));
	uint8_t ata_op = pt ? (cdb[0] == 0x85 ? cdb[14] : cdb[9]) : 0;

	if (sc->c->kind != XCMD_CDB) { /* an NVMe command: its opcode */
		*ata = false;
		return f->opcode == sc->c->nvme.opcode;
	}
	*ata = pt && f->opcode == ata_op;
	return *ata || f->opcode == cdb[0];
}

/* The real time a delay fault holds the command's answer back (0: none). */
static unsigned fault_delay_ms(const struct sim_cmd *sc)
{
	unsigned ms = 0;
	bool ata;

	for (unsigned i = 0; i < sc->d->st.nfaults; i++) {
		const struct sim_fault *f = &sc->d->st.faults[i];

		if (f->kind == SIM_FAULT_DELAY && (f->any_op || fault_op_matches(sc, f, &ata)))
			ms += f->delay_ms;
	}
	return ms;
}

/* The answer held back, in real time, the drive's lock not held (a signal
 * does not cut the wait short: the command is still in flight). */
static void hold_answer(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (ms && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* abort:<op> faults (fault_op_matches). Returns true when the command was
 * answered. */
static bool fault_abort(struct sim_cmd *sc)
{
	struct sim_drive *d = sc->d;
	const uint8_t *cdb = sc->c->cdb;
	unsigned i;

	for (i = 0; i < d->st.nfaults; i++) {
		struct sim_fault *f = &d->st.faults[i];
		bool ata;

		if (f->kind == SIM_FAULT_REJECT && f->opcode == cdb[0]) {
			/* a bridge that does not pass the opcode at all */
			sim_sense(sc, SK_ILLEGAL_REQUEST, 0x20, 0x00);
			return true;
		}
		if (f->kind != SIM_FAULT_ABORT || !fault_op_matches(sc, f, &ata))
			continue;
		d->st.ctr.non_medium++;
		if (f->count > 0 && --f->count == 0)
			fault_remove(d, i);
		else if (f->count > 0)
			d->dirty = true;
		if (ata) {
			struct ata_regs r = { .status = ATA_STAT_DRDY | 0x10 | ATA_STAT_ERR,
					      .error = ATA_ERR_ABRT,
					      .device = 0x40,
					      .ext = cdb[0] == 0x85 && (cdb[1] & 1) };

			sc->c->status = SCSI_STATUS_CHECK_CONDITION;
			memset(sc->c->sense, 0, sizeof(sc->c->sense));
			sc->c->sense_len = sat_build_ata_return_sense(
			    sc->c->sense, sizeof(sc->c->sense), sim_dsense(d), &r);
		} else {
			sim_sense(sc, SK_ABORTED_COMMAND, 0x00, 0x00);
		}
		return true;
	}
	return false;
}

int sim_drive_exec(struct sim_drive *d, struct xcmd *c, struct ss_error *err)
{
	struct sim_cmd sc;
	struct sim_fault *f;
	uint64_t dur;
	unsigned idx, hold = 0;
	int rc;

	if (!d || !c)
		return ss_error_set(err, -EINVAL, "no drive or no command");
	c->status = SCSI_STATUS_GOOD;
	c->sense_len = 0;
	c->resid = c->data_len;
	c->duration_ns = 0;
	/* what another process did to the drive comes first */
	rc = sim_state_lock(d, err);
	if (rc)
		return rc;
	memset(&sc, 0, sizeof(sc));
	sc.d = d;
	sc.c = c;
	sc.now_ns = sim_clock_now(d);
	format_tick(d, sc.now_ns);
	sim_elem_tick(d, sc.now_ns);
	sim_selftest_tick(d, sc.now_ns);

	if (d->st.vanished || d->st.lost_power) {
		rc = gone(d, err);
		goto out;
	}
	f = fault_find(d, SIM_FAULT_VANISH_AFTER, &idx);
	if (f) {
		if (f->count <= 0) {
			d->st.vanished = true;
			fault_remove(d, idx);
			rc = gone(d, err);
			goto out;
		}
		f->count--;
		d->dirty = true;
	}

	if (c->data && c->dir == XFER_FROM_DEV) {
		sc.in = c->data;
		sc.in_len = c->data_len;
	} else if (c->data && c->dir == XFER_TO_DEV) {
		sc.out = c->data;
		sc.out_len = c->data_len;
	}
	if (c->cdb_len > sizeof(c->cdb))
		c->cdb_len = sizeof(c->cdb);

	if (d->cfg.nvme != (c->kind != XCMD_CDB)) {
		/* the wrong command set: the host's driver would never send it */
		rc = ss_error_set(err, -EOPNOTSUPP, "sim:%s: %s", d->cfg.id,
				  d->cfg.nvme ? "an NVMe drive takes no SCSI or ATA commands"
					      : "not an NVMe drive: it takes no NVMe commands");
		goto out;
	}
	if (d->cfg.nvme)
		sim_nvme_exec(&sc);
	else if (c->cdb_len == 0)
		sim_bad_opcode(&sc);
	else if (!fault_abort(&sc))
		sim_scsi_exec(&sc);
	if (c->cdb_len || d->cfg.nvme)
		hold = fault_delay_ms(&sc);

	dur = CONTROL_CMD_NS + sc.media_ns;
	f = fault_find(d, SIM_FAULT_SLOW, NULL);
	if (f) {
		double t = (double)dur * f->factor;

		dur = t > 1e18 ? (uint64_t)1e18 : (uint64_t)t;
	}
	c->duration_ns = dur;
	sim_clock_advance(d, dur);
	c->resid = c->data_len - (sc.moved > c->data_len ? c->data_len : sc.moved);
	rc = sc.rc;
	if (rc) {
		if (d->st.lost_power || d->st.vanished)
			gone(d, err);
		else
			ss_error_set(err, rc, "sim:%s: %s", d->cfg.id, strerror(-rc));
	}
out : {
	int src = sim_state_unlock(d, false, rc ? NULL : err);

	if (src && !rc)
		rc = src;
}
	hold_answer(hold);
	return rc;
}

void sim_drive_power_cycle(struct sim_drive *d)
{
	struct sim_state *s;

	if (!d || sim_state_lock(d, NULL))
		return;
	s = &d->st;
	s->vol_active = false;
	s->vol_max = 0;
	s->nv_setmax_done = false;
	s->rnm = SIM_RNM_NONE;
	s->setmax_frozen = false;
	s->amac_frozen = false;
	s->dco_frozen = false;
	s->sec_frozen = false;
	s->sec_locked = s->sec_enabled;
	s->wce = s->saved_wce;
	s->dsense = s->saved_dsense;
	if (s->fmt_active) {
		s->fmt_active = false;
		s->fmt_corrupt = true;
	}
	sim_selftest_interrupt(d, sim_clock_now(d));
	s->active_notch = 0;
	s->lost_power = false;
	s->vanished = false;
	s->power_cycles++;
	if (fault_find(d, SIM_FAULT_FROZEN, NULL)) {
		/* a BIOS that freezes everything at every boot */
		s->sec_frozen = d->cfg.sec;
		s->setmax_frozen = d->cfg.hpa;
		s->amac_frozen = d->cfg.amac;
		s->dco_frozen = d->cfg.dco;
	}
	s->next_lba = UINT64_MAX;
	sim_media_actuators_reset(d);
	sim_cache_drop(d); /* timing only: the data is already in the store */
	sim_clock_advance(d, d->cfg.rpm > 1 ? SPIN_UP_NS : 100000000ULL);
	d->dirty = true;
	sim_state_unlock(d, false, NULL);
}

int sim_drive_inject(struct sim_drive *d, const char *spec, struct ss_error *err)
{
	struct sim_fault f;
	char msg[256];
	int rc;

	if (!d)
		return ss_error_set(err, -EINVAL, "no drive");
	rc = sim_fault_parse(spec, &f, msg, sizeof(msg));
	if (rc)
		return ss_error_set(err, rc, "sim:%s: %s", d->cfg.id, msg);
	rc = sim_state_lock(d, err);
	if (rc)
		return rc;
	rc = sim_fault_add(d->st.faults, &d->st.nfaults, &f);
	if (rc) {
		sim_state_unlock(d, false, NULL);
		return ss_error_set(err, rc, "sim:%s: more than %d faults", d->cfg.id,
				    SIM_MAX_FAULTS);
	}
	if (f.kind == SIM_FAULT_FROZEN) {
		d->st.sec_frozen = d->cfg.sec;
		d->st.setmax_frozen = d->cfg.hpa;
		d->st.amac_frozen = d->cfg.amac;
		d->st.dco_frozen = d->cfg.dco;
	}
	d->dirty = true;
	return sim_state_unlock(d, false, err);
}

void sim_drive_clear_faults(struct sim_drive *d)
{
	if (!d || sim_state_lock(d, NULL))
		return;
	d->st.nfaults = 0;
	d->dirty = true;
	sim_state_unlock(d, false, NULL);
}

int sim_drive_save(struct sim_drive *d, struct ss_error *err)
{
	int rc;

	if (!d)
		return ss_error_set(err, -EINVAL, "no drive");
	if (!sim_state_unsaved(d))
		return 0;
	rc = sim_state_lock(d, err);
	return rc ? rc : sim_state_unlock(d, true, err);
}

uint64_t sim_drive_clock_ns(struct sim_drive *d)
{
	return d ? sim_clock_now(d) : 0;
}

void sim_drive_advance_clock(struct sim_drive *d, uint64_t ns)
{
	if (!d || sim_state_lock(d, NULL))
		return;
	sim_clock_advance(d, ns);
	d->dirty = true; /* time that passed is the drive's to keep */
	format_tick(d, sim_clock_now(d));
	sim_selftest_tick(d, sim_clock_now(d));
	sim_state_unlock(d, false, NULL);
	sim_drive_idle(d, ns); /* no command meanwhile: the write cache destages */
}

uint64_t sim_drive_capacity(const struct sim_drive *d)
{
	if (d && d->cfg.nvme)
		return d->st.nv.nsid ? d->st.nv.nsze : 0;
	return d ? sim_capacity(d) : 0;
}
