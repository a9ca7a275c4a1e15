/* sim_unit.c - how one simulated drive differs from its model's nominal
 * figures, as real units of one model do (docs/simulator.md, "Units").
 *
 * Media latency per zone ("retries"): a small share of the medium reads
 * only after re-reads (marginal sectors, off-track reads the drive
 * recovers by retrying). The medium is cut into granules of 64 KiB; a
 * granule needs re-reads with probability p(s), s the stroke fraction of
 * its first block, linear from "outer_ppm" to "inner_ppm" per million (the
 * inner zones, with less margin, retry more). Such a granule costs one
 * revolution per re-read: one, and one more with probability 1/2 each time
 * (at most 8), so its read takes 8 ms more on a 7200 rpm drive, 16 ms now
 * and then, rarely 30. Which granules, and how many re-reads, is a hash of
 * the unit's seed and the granule: the same every time it is read, on
 * every run. Each retried granule counts as an error the drive corrected
 * with delay (the SCSI read error counter page).
 *
 * Spread ("spread": seek_pct, rate_pct, rpm_pct, overhead_pct): a unit's
 * seek times, transfer rates, rotational speed and command overhead are
 * the model's times (1 + pct/100 z), z a standard normal draw of its own
 * for each (clipped at 3), so siblings differ by a few percent as real
 * units do. A faster spindle turns the revolution shorter and, the bits
 * per track being the same, the rates higher by as much.
 *
 * Surfaces ("heads", by default 4 on a 3.5" drive, 2 on a smaller one):
 * the LBAs run in 64 bands across the stroke, each band laid out in turn
 * on every surface (a serpentine layout), so a surface serves a chunk of
 * every band. A weak head (fault weak-head:<head>[:<rate %>]) reads its
 * surface at that percent of the rate (the drive retries and re-reads
 * across it) and needs re-reads 3 % of the time: every band it serves
 * reads slower, so the zone profile dips wherever the samples land on it.
 *
 * The seed: the serial number, hashed with the rig's "seed" (0 by
 * default), so that a drive is the same unit on every run and a rig of
 * the same serials with another seed is another batch of units.
 */
#include <math.h>
#include <string.h>

#include "sim/sim_priv.h"

#define GRANULE_BYTES 65536u
#define MAX_REREADS 8
#define BANDS 64
#define WEAK_PPM 30000.0 /* the weak surface's granules that need re-reads */

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A standard normal draw k of the unit (Box-Muller), clipped at 3. */
static double draw(uint64_t seed, unsigned k)
{
	double u1 = ((double)(mix(seed ^ mix(2 * k + 1)) >> 11) + 0.5) * 0x1.0p-53;
	double u2 = (double)(mix(seed ^ mix(2 * k + 2)) >> 11) * 0x1.0p-53;
	double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);

	return z > 3 ? 3 : z < -3 ? -3 : z;
}

void sim_unit_setup(struct sim_config *c, uint64_t rig_seed)
{
	struct sim_unit *u = &c->unit;
	struct sim_media *m = &c->media;
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a of the serial */

	for (const char *p = c->serial; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	u->seed = mix(h ^ mix(rig_seed));
	if (!u->heads)
		u->heads = c->form_factor >= 3 ? 2 : 4;
	u->seek_f = 1 + u->seek_pct / 100 * draw(u->seed, 0);
	u->rate_f = 1 + u->rate_pct / 100 * draw(u->seed, 1);
	u->rpm_f = 1 + u->rpm_pct / 100 * draw(u->seed, 2);
	u->overhead_f = 1 + u->overhead_pct / 100 * draw(u->seed, 3);
	if (u->seek_pct > 0) {
		m->avg_seek_ms *= u->seek_f;
		m->t2t_ms *= u->seek_f;
		m->full_ms *= u->seek_f;
	}
	if (u->rate_pct > 0 || u->rpm_pct > 0) {
		m->outer_mbps *= u->rate_f * u->rpm_f;
		m->inner_mbps *= u->rate_f * u->rpm_f;
	}
	if (u->overhead_pct > 0)
		c->overhead_ns = (uint64_t)((double)c->overhead_ns * u->overhead_f + 0.5);
	if (u->seek_pct > 0 || u->rate_pct > 0 || u->rpm_pct > 0)
		sim_media_fit(m, c->rpm ? c->rpm : 7200);
	if (m->rev_ns > 0)
		m->rev_ns /= u->rpm_f;
}

static uint64_t chunk_blocks(const struct sim_drive *d)
{
	uint64_t chunk = sim_media_span(d) / ((uint64_t)BANDS * sim_elem_live(d));

	return chunk ? chunk : 1;
}

/* The surface (head) that holds an LBA */
static unsigned sim_unit_head(const struct sim_drive *d, uint64_t lba)
{
	return sim_elem_head(d, (unsigned)(lba / chunk_blocks(d) % sim_elem_live(d)));
}

/* The weak-head fault, or NULL */
static const struct sim_fault *weak_head(const struct sim_drive *d)
{
	const struct sim_fault *f = sim_fault_active(d, SIM_FAULT_WEAK_HEAD);

	return f && f->head < d->cfg.unit.heads ? f : NULL;
}

/* The extra transfer time of the blocks of [lba, lba+n) on the weak
 * surface: read at its percent of the rate. */
static uint64_t weak_transfer_ns(const struct sim_drive *d, const struct sim_fault *f, uint64_t lba,
				 uint64_t n)
{
	uint64_t chunk = chunk_blocks(d), end = lba + n;
	double ns = 0;

	while (lba < end) {
		uint64_t stop = (lba / chunk + 1) * chunk;

		if (stop > end)
			stop = end;
		if (sim_unit_head(d, lba) == f->head)
			ns += (double)(stop - lba) * d->cfg.lblock /
			      (sim_media_rate_mbps(d, lba) * 1e6) * 1e9 * (100.0 / f->percent - 1);
		lba = stop;
	}
	return (uint64_t)ns;
}

/* Re-reads of granule g (0: it reads at once). */
static unsigned rereads(const struct sim_drive *d, uint64_t g, double ppm)
{
	uint64_t h = mix(d->cfg.unit.seed ^ mix(g));
	unsigned n = 1;

	if ((double)(h >> 11) * 0x1.0p-53 * 1e6 >= ppm)
		return 0;
	h = mix(h);
	while (n < MAX_REREADS && (h & 1)) {
		n++;
		h >>= 1;
	}
	return n;
}

uint64_t sim_unit_read_ns(struct sim_drive *d, uint64_t lba, uint64_t n)
{
	const struct sim_unit *u = &d->cfg.unit;
	const struct sim_fault *weak = weak_head(d);
	uint64_t per = GRANULE_BYTES / d->cfg.lblock, extra = 0;

	if (!per)
		per = 1;
	if (n && weak)
		extra += weak_transfer_ns(d, weak, lba, n);
	if (n && (u->retry_ppm_outer > 0 || u->retry_ppm_inner > 0 || weak) &&
	    d->cfg.media.rev_ns > 0) {
		for (uint64_t g = lba / per; g <= (lba + n - 1) / per; g++) {
			double s = sim_media_stroke(d, g * per);
			double ppm = u->retry_ppm_outer +
				     (u->retry_ppm_inner - u->retry_ppm_outer) * s;
			unsigned k;

			if (weak && sim_unit_head(d, g * per) == weak->head)
				ppm += WEAK_PPM;
			k = ppm > 0 ? rereads(d, g, ppm) : 0;
			if (k) {
				extra += (uint64_t)(k * d->cfg.media.rev_ns);
				d->st.ctr.read_delayed++;
			}
		}
	}
	return extra + sim_slow_block_ns(d, lba, n);
}
