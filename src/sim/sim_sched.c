/* sim_sched.c - the drive's command scheduler: which of the commands a
 * drive holds it serves next, or whether it first writes a piece of its
 * write cache to the medium (docs/simulator.md, "Scheduling").
 *
 * A write the write cache takes while it has room needs no mechanics: the
 * oldest such is taken first (the host link moves its data; the destager
 * may use the mechanics meanwhile, sim_cache.c, unless commands that need
 * them wait).
 *
 * The commands that need the mechanics (reads, writes the cache does not
 * take) are ordered by aged shortest positioning time first: each one's
 * seek + rotational wait, less a credit for waiting (Worthington, Ganger
 * and Patt's ASPTF, T_eff = T_pos - W x T_wait), counted here only from a
 * bound on: the time the drive needs to give every command it holds one
 * revolution (n x rev). Below the bound the order is pure SPTF, so the
 * queueing gains stay; beyond it a command that keeps losing (the one just
 * behind the heads while newer ones continue a sequential stream, a far
 * one while the heads work elsewhere) gains AGE_WEIGHT of positioning time
 * per unit of time waited, and is served within about Tmax / AGE_WEIGHT.
 *
 * The destager writes the cached extent nearest the heads (its positioning
 * time, sim_cache_next_position). Host commands come first while the cache
 * has room; the destager competes with them as the cache fills, as in
 * Varma and Jacobson's linear threshold scheduling and Gill and Modha's WOW
 * (low and high thresholds of 80 % and 90 %): below WC_LOW of the cache it
 * runs only while the mechanics have nothing else to do; between WC_LOW
 * and WC_HIGH it goes first when its positioning time is within a fraction
 * of the best command's that grows linearly from 0 to 1; above WC_HIGH it
 * competes on positioning time alone; a write that finds the cache full
 * waits, and the destage that makes room for it competes with the age of
 * that write.
 */
#include "sim/sim_priv.h"

#define AGE_WEIGHT 0.02 /* positioning time credited per time waited beyond the bound */
#define WC_LOW 0.80
#define WC_HIGH 0.90

/* Another command that needs the mechanics ends where command j starts:
 * the drive serves the run from its first */
static bool continues(const struct sim_drive *d, const struct sim_queued *q, unsigned n, unsigned j)
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
	double best = 0, u, f, td;
	unsigned b = 0, i;
	long room = -1, blocked = -1;
	bool mech = false;

	if (!d || !n || sim_flash_on(d))
		return 0; /* a flash drive serves in order (docs/flash.md) */
	for (i = 0; i < n; i++) {
		if (!q[i].write || !sim_media_cacheable(d, q[i].blocks))
			mech = true;
		else if (sim_cache_has_room(d, (uint64_t)q[i].blocks * d->cfg.lblock))
			room = room < 0 ? (long)i : room;
		else
			blocked = blocked < 0 ? (long)i : blocked;
	}
	d->mech_waiting = mech;
	if (room >= 0)
		return (unsigned)room;
	if (mech) {
		bool have = false;

		sim_cache_give_way(d);
		sim_media_head(d, &h);
		for (i = 0; i < n; i++) {
			double c, t;

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
	}
	if (!d->wc.dirty)
		return b;
	if (blocked >= 0) {
		/* the cache is full: the destage a write waits for */
		if (!mech)
			return SIM_SCHED_DESTAGE;
		td = sim_cache_next_position(d) - age_credit(d, q[blocked].wait_ns, n);
		return td < best ? SIM_SCHED_DESTAGE : b;
	}
	u = (double)d->wc.dirty / (double)d->wc.cap_bytes;
	if (u <= WC_LOW || best <= 0)
		return b;
	f = u >= WC_HIGH ? 1.0 : (u - WC_LOW) / (WC_HIGH - WC_LOW);
	td = sim_cache_next_position(d);
	return td <= f * best ? SIM_SCHED_DESTAGE : b;
}

uint64_t sim_drive_destage(struct sim_drive *d)
{
	uint64_t t;

	if (!d)
		return 0;
	pthread_mutex_lock(&d->lock);
	t = sim_cache_destage_ns(d);
	sim_clock_advance(d, t);
	pthread_mutex_unlock(&d->lock);
	return t;
}
