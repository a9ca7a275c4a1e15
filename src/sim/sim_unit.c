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
 * The seed: the serial number, hashed with the rig's "seed" (0 by
 * default), so that a drive is the same unit on every run and a rig of
 * the same serials with another seed is another batch of units.
 */
#include <math.h>
#include <string.h>

#include "sim/sim_priv.h"

#define GRANULE_BYTES 65536u
#define MAX_REREADS 8

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void sim_unit_seed(struct sim_config *c, uint64_t rig_seed)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a of the serial */

	for (const char *p = c->serial; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	c->unit.seed = mix(h ^ mix(rig_seed));
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
	uint64_t per = GRANULE_BYTES / d->cfg.lblock, extra = 0;

	if (!per)
		per = 1;
	if (n && (u->retry_ppm_outer > 0 || u->retry_ppm_inner > 0) && d->cfg.media.rev_ns > 0) {
		for (uint64_t g = lba / per; g <= (lba + n - 1) / per; g++) {
			double s = sim_media_stroke(d, g * per);
			double ppm = u->retry_ppm_outer +
				     (u->retry_ppm_inner - u->retry_ppm_outer) * s;
			unsigned k = ppm > 0 ? rereads(d, g, ppm) : 0;

			if (k) {
				extra += (uint64_t)(k * d->cfg.media.rev_ns);
				d->st.ctr.read_delayed++;
			}
		}
	}
	return extra + sim_slow_block_ns(d, lba, n);
}
