/* sim_sched.c - the drive's command scheduler: which of the commands a
 * drive holds it serves next (docs/simulator.md, "Scheduling").
 *
 * A write the write cache takes while it has room needs no mechanics: the
 * oldest such is taken first (the host link moves its data while the
 * destager uses the mechanics, sim_cache.c). One that finds the cache full
 * costs the positioning of the destage it waits for.
 *
 * The commands that need the mechanics (reads, writes the cache does not
 * take) are ordered by aged shortest positioning time first: each one's
 * seek + rotational wait, less a credit for waiting (Worthington, Ganger
 * and Patt's ASPTF, T_eff = T_pos - W x T_wait), counted here only from a
 * bound on: the time the drive needs to give every command it holds one
 * revolution (n x rev). Below the bound the order is pure SPTF, so the
 * queueing gains stay; beyond it a command that keeps losing (a far one
 * while the heads work elsewhere) gains AGE_WEIGHT of positioning time per
 * unit of time waited, and is served within about Tmax / AGE_WEIGHT. A
 * run of commands that continue each other is served from its first: the
 * later ones are no candidates while their predecessor waits (else the
 * one just behind the heads, nearly a revolution away, loses to each newer
 * request that continues the stream at no cost).
 */
#include "sim/sim_priv.h"

#define AGE_WEIGHT 0.02 /* positioning time credited per time waited beyond the bound */

/* Another command that needs the mechanics ends where command j starts:
 * the drive serves the run from its first */
static bool continues(const struct sim_drive *d, const struct sim_queued *q, unsigned n,
		      unsigned j)
{
	for (unsigned i = 0; i < n; i++)
		if (i != j && q[i].lba + q[i].blocks == q[j].lba && q[i].write == q[j].write &&
		    !(q[i].write && sim_media_cacheable(d, q[i].blocks)))
			return true;
	return false;
}

/* Positioning time credited to a command that waited wait_ns among n */
static double age_credit(const struct sim_drive *d, uint64_t wait_ns, unsigned n)
{
	double rev = d->cfg.media.rev_ns > 0 ? d->cfg.media.rev_ns : 1e6;
	double over = (double)wait_ns - (double)n * rev;

	return over > 0 ? AGE_WEIGHT * over : 0;
}

unsigned sim_drive_schedule(struct sim_drive *d, const struct sim_queued *q, unsigned n)
{
	struct sim_head h;
	double best = 0, t;
	unsigned b = 0, i;
	long room = -1, blocked = -1;
	bool mech = false, have = false;

	if (!d || !n)
		return 0;
	for (i = 0; i < n; i++) {
		if (!q[i].write || !sim_media_cacheable(d, q[i].blocks))
			mech = true;
		else if (sim_cache_has_room(d, (uint64_t)q[i].blocks * d->cfg.lblock))
			room = room < 0 ? (long)i : room;
		else
			blocked = blocked < 0 ? (long)i : blocked;
	}
	if (room >= 0)
		return (unsigned)room;
	if (blocked >= 0) {
		/* the cache is full: the write costs the destage it waits for */
		best = sim_cache_next_position(d) - age_credit(d, q[blocked].wait_ns, n);
		b = (unsigned)blocked;
		have = true;
	}
	if (!mech)
		return b;
	sim_media_head(d, &h);
	for (i = 0; i < n; i++) {
		double c;

		if (q[i].write && sim_media_cacheable(d, q[i].blocks))
			continue;
		c = age_credit(d, q[i].wait_ns, n);
		t = sim_media_position(d, &h, q[i].lba, (double)d->cfg.overhead_ns,
				       have ? best + c : 1e300) -
		    c;
		if ((!have || t < best) && !continues(d, q, n, i)) {
			best = t;
			b = i;
			have = true;
		}
	}
	return b;
}

unsigned sim_drive_queue_pick(const struct sim_drive *d, const uint64_t *lba, unsigned n)
{
	struct sim_head h;
	double best = 1e300, t;
	unsigned b = 0, i;

	if (!d || n <= 1)
		return 0;
	sim_media_head(d, &h);
	for (i = 0; i < n; i++) {
		t = sim_media_position(d, &h, lba[i], (double)d->cfg.overhead_ns, best);
		if (t < best) {
			best = t;
			b = i;
			if (t <= 0)
				break;
		}
	}
	return b;
}
