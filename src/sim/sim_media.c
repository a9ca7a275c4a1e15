/* sim_media.c - the media timing model and the virtual clock.
 *
 * Access time = command overhead + seek(distance) + rotational wait +
 * bytes / transfer rate (docs/models.md). A sequential access (starting where
 * the previous one ended) costs neither seek nor rotational latency.
 * Seek: t(x) = T + a x + b sqrt(x), x the fraction of the full stroke,
 * fitted to the average (A), track-to-track (T) and full-stroke (F) times.
 * Radius: capacity outside radius r grows as Ro^2 - r^2 (zone bit
 * recording), so LBA fraction c sits at stroke fraction
 * s = (1 - sqrt(1 - c (1 - k^2))) / (1 - k), k = inner/outer rate, and the
 * rate there is outer * (1 - s (1 - k)).
 * Rotational position: a track at stroke fraction s holds rate(s) x one
 * revolution of data, so LBA l sits at angle frac(l / blocks_per_track(s)).
 * The platter turns while the heads seek; the wait is the angle still to
 * go when they arrive. The head's angle is taken where the previous
 * transfer ended (idle time between commands is not counted, so the model
 * stays deterministic whatever the rig's time_scale), turned on by what an
 * engine with its own virtual clock says the drive idled (sim_drive_idle:
 * drives of an array that wait for each other; the write cache destages
 * first). Averaged over random targets the wait is half a revolution;
 * with several commands queued the drive's scheduler (sim_sched.c) picks
 * by the seek + wait (sim_media_position). The command overhead is the
 * drive's (cfg.overhead_ns, "overhead_ms" in the rig); a write the write
 * cache takes is timed by sim_cache.c.
 * A drive with several actuators ("actuators" in the rig) has as many
 * head stacks, each with its own range of the LBAs (cfg.ranges) laid
 * across the whole stroke of its own surfaces, its own position, rotation
 * angle and read-ahead; a command moves only the stack of its range
 * (sim_media_select makes it the current one), so the engine may keep one
 * command under way per actuator (src/io/simeng.c).
 */
#include <math.h>
#include <time.h>

#include "sim/sim_priv.h"

void sim_media_defaults(struct sim_media *m, uint16_t rpm, uint8_t form_factor)
{
	bool small = form_factor >= 3; /* 2.5" and smaller: shorter stroke */

	if (rpm == 1) { /* non-rotating */
		m->avg_seek_ms = 0.05;
		m->t2t_ms = 0.05;
		m->full_ms = 0.05;
		m->outer_mbps = 500;
		m->inner_mbps = 500;
	} else if (rpm >= 15000) {
		m->avg_seek_ms = 3.4;
		m->t2t_ms = 0.2;
		m->full_ms = 6.6;
		m->outer_mbps = 150;
		m->inner_mbps = 100;
	} else if (rpm >= 10000) {
		m->avg_seek_ms = 4.2;
		m->t2t_ms = 0.3;
		m->full_ms = 8.5;
		m->outer_mbps = 130;
		m->inner_mbps = 85;
	} else if (rpm >= 7200) {
		m->avg_seek_ms = small ? 7.0 : 8.5;
		m->t2t_ms = 0.8;
		m->full_ms = small ? 14.0 : 16.0;
		m->outer_mbps = 120;
		m->inner_mbps = 60;
	} else {
		m->avg_seek_ms = 12.0;
		m->t2t_ms = 1.0;
		m->full_ms = 22.0;
		m->outer_mbps = 100;
		m->inner_mbps = 50;
	}
	m->cache_mb = 16;
}

void sim_media_fit(struct sim_media *m, uint16_t rpm)
{
	double A = m->avg_seek_ms, T = m->t2t_ms, F = m->full_ms;
	double a, b;

	/* E[x] = 1/3, E[sqrt x] = 8/15 over all pairs; t(1) = F */
	b = 5 * A - (5.0 / 3) * F - (10.0 / 3) * T;
	a = (8.0 / 3) * F - 5 * A + (7.0 / 3) * T;
	if (a < 0) {
		a = 0;
		b = 15 * (A - T) / 8;
	}
	if (b < 0) {
		b = 0;
		a = 3 * (A - T);
	}
	if (a < 0)
		a = 0;
	m->seek_a_ms = a;
	m->seek_b_ms = b;
	m->k = m->outer_mbps > 0 ? m->inner_mbps / m->outer_mbps : 1.0;
	if (m->k > 1.0)
		m->k = 1.0;
	m->rev_ns = rpm > 1 ? 60e9 / rpm : 0;
}

/* Stroke fraction of an LBA fraction c */
static double stroke_of(const struct sim_media *m, double c)
{
	double k = m->k, v;

	if (c <= 0)
		return 0;
	if (c >= 1)
		return 1;
	if (k >= 0.999999)
		return c;
	v = 1 - c * (1 - k * k);
	if (v < 0)
		v = 0;
	return (1 - sqrt(v)) / (1 - k);
}

/* bytes per ns at stroke fraction s */
static double rate_at(const struct sim_media *m, double s)
{
	double mbps = m->outer_mbps * (1 - s * (1 - m->k));

	if (mbps < 1)
		mbps = 1;
	return mbps * 1e6 / 1e9;
}

static double seek_ns(const struct sim_media *m, double x)
{
	if (x <= 0)
		return 0;
	if (x > 1)
		x = 1;
	return (m->t2t_ms + m->seek_a_ms * x + m->seek_b_ms * sqrt(x)) * 1e6;
}

static uint64_t span_blocks(const struct sim_drive *d)
{
	uint64_t n = d->cfg.dco_factory > d->cfg.blocks ? d->cfg.dco_factory : d->cfg.blocks;
	unsigned heads = d->cfg.unit.heads;

	/* removed elements (sim_elem.c) take their share of every band */
	if (d->st.depop_mask && heads)
		n = n / heads * sim_elem_live(d);
	return n ? n : 1;
}

/* The actuator whose range holds lba (0 on a drive with one; past the
 * last range, the last) */
static unsigned act_of(const struct sim_drive *d, uint64_t lba)
{
	int a;

	if (d->cfg.ranges.n < 2)
		return 0;
	a = cpr_range_of(&d->cfg.ranges, lba);
	return a < 0 ? d->cfg.ranges.n - 1 : (unsigned)a;
}

unsigned sim_drive_actuator_of(const struct sim_drive *d, uint64_t lba)
{
	return d ? act_of(d, lba) : 0;
}

unsigned sim_drive_actuators(const struct sim_drive *d)
{
	return d && d->cfg.ranges.n > 1 ? d->cfg.ranges.n : 1;
}

/* lba as a fraction of the LBAs its head stack serves: of the drive's,
 * or of its actuator's range */
static double lba_frac(const struct sim_drive *d, uint64_t lba, unsigned a)
{
	const struct cpr_range *r;

	if (d->cfg.ranges.n < 2)
		return (double)lba / (double)span_blocks(d);
	r = &d->cfg.ranges.r[a];
	if (lba <= r->lba)
		return 0;
	return (double)(lba - r->lba) / (double)r->blocks;
}

/* A multi-actuator drive: the head stack of lba's range becomes the
 * current one (st.head_lba, st.next_lba, spin); the others keep theirs. */
static void sim_media_select(struct sim_drive *d, uint64_t lba)
{
	unsigned a = act_of(d, lba);
	struct sim_act *o, *n;

	if (a == d->cur_act)
		return;
	o = &d->act[d->cur_act];
	n = &d->act[a];
	*o = (struct sim_act){ d->st.head_lba, d->st.next_lba, d->spin, true };
	if (!n->valid)
		*n = (struct sim_act){ d->cfg.ranges.r[a].lba, UINT64_MAX, 0, true };
	d->st.head_lba = n->head_lba;
	d->st.next_lba = n->next_lba;
	d->spin = n->spin;
	d->cur_act = a;
}

void sim_media_actuators_reset(struct sim_drive *d)
{
	for (unsigned a = 0; a < CPR_MAX; a++)
		d->act[a].valid = false;
	d->act[d->cur_act].valid = true; /* its state is st's */
}

/* Angle of an LBA at stroke fraction s, as a fraction of a revolution */
static double angle_at(const struct sim_drive *d, uint64_t lba, double s)
{
	const struct sim_media *m = &d->cfg.media;
	double per_track = rate_at(m, s) * m->rev_ns / d->cfg.lblock;

	if (per_track < 1)
		per_track = 1;
	return fmod((double)lba / per_track, 1.0);
}

/* Where the heads are: stroke fraction and angle at the end of the last
 * transfer. */
void sim_media_head(const struct sim_drive *d, struct sim_head *h)
{
	h->span = (double)span_blocks(d);
	h->act = d->cur_act;
	h->s = stroke_of(&d->cfg.media, lba_frac(d, d->st.head_lba, d->cur_act));
	h->angle = d->cfg.media.rev_ns > 0 ? fmod(angle_at(d, d->st.head_lba, h->s) + d->spin, 1.0)
					   : 0;
}

double sim_drive_rev_ns(const struct sim_drive *d)
{
	return d ? d->cfg.media.rev_ns : 0;
}

static void turn(struct sim_drive *d, uint64_t ns)
{
	if (d->cfg.media.rev_ns > 0)
		d->spin = fmod(d->spin + (double)ns / d->cfg.media.rev_ns, 1.0);
}

void sim_drive_idle(struct sim_drive *d, uint64_t ns)
{
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	/* the destager works; the time it leaves turns the platter */
	turn(d, sim_cache_idle_ns(d, ns));
	pthread_mutex_unlock(&d->lock);
}

void sim_drive_turn(struct sim_drive *d, uint64_t ns)
{
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	turn(d, ns);
	pthread_mutex_unlock(&d->lock);
}

/* Seek + rotational wait from the heads to lba, when the command's own
 * overhead of before_ns passes first; > limit_ns (early out) when the
 * seek alone is longer than limit_ns. */
double sim_media_position(const struct sim_drive *d, const struct sim_head *h, uint64_t lba,
			  double before_ns, double limit_ns)
{
	const struct sim_media *m = &d->cfg.media;
	unsigned act = act_of(d, lba);
	struct sim_head other;
	double s_to, seek, a;

	if (act != h->act) { /* another head stack: from where it is */
		const struct sim_act *x = &d->act[act];
		uint64_t at = x->valid ? x->head_lba : d->cfg.ranges.r[act].lba;

		if (x->valid && lba == x->next_lba)
			return 0;
		other.span = h->span;
		other.act = act;
		other.s = stroke_of(m, lba_frac(d, at, act));
		other.angle = m->rev_ns > 0
				  ? fmod(angle_at(d, at, other.s) + (x->valid ? x->spin : 0), 1.0)
				  : 0;
		h = &other;
	} else if (lba == d->st.next_lba) {
		return 0;
	}
	s_to = stroke_of(m, lba_frac(d, lba, act));
	seek = seek_ns(m, fabs(s_to - h->s));
	if (m->rev_ns <= 0 || seek > limit_ns)
		return seek;
	a = angle_at(d, lba, s_to) - h->angle - (before_ns + seek) / m->rev_ns;
	a -= floor(a);
	return seek + a * m->rev_ns;
}

double sim_media_rate_mbps(const struct sim_drive *d, uint64_t lba)
{
	return rate_at(&d->cfg.media, sim_media_stroke(d, lba)) * 1e3;
}

double sim_media_stroke(const struct sim_drive *d, uint64_t lba)
{
	return stroke_of(&d->cfg.media, lba_frac(d, lba, act_of(d, lba)));
}

double sim_media_seek(const struct sim_drive *d, double dx)
{
	return seek_ns(&d->cfg.media, fabs(dx));
}

uint64_t sim_media_span(const struct sim_drive *d)
{
	return span_blocks(d);
}

bool sim_media_cacheable(const struct sim_drive *d, uint64_t blocks)
{
	return d->st.wce && !sim_flash_on(d) &&
	       (double)blocks * d->cfg.lblock <= d->cfg.cache_mib * 1048576.0;
}

uint64_t sim_drive_position_ns(const struct sim_drive *d, uint64_t lba)
{
	struct sim_head h;
	double t;

	if (!d)
		return 0;
	sim_media_head(d, &h);
	t = sim_media_position(d, &h, lba, (double)d->cfg.overhead_ns, 1e300);
	return t > 1e15 ? (uint64_t)1e15 : (uint64_t)t;
}

unsigned sim_drive_queue_depth(const struct sim_drive *d)
{
	return d ? d->cfg.queue_depth : 0;
}

/* Positioning after before_ns of the command's own time (in *pos_ns when
 * not NULL), then the transfer; the heads end where it ends. */
static uint64_t access_ns(struct sim_drive *d, uint64_t lba, uint64_t blocks, double before_ns,
			  uint64_t *pos_ns)
{
	const struct sim_media *m = &d->cfg.media;
	double s_to, t = before_ns, pos;
	double bytes = (double)blocks * d->cfg.lblock;
	struct sim_head h;

	sim_media_select(d, lba);
	sim_media_head(d, &h);
	s_to = stroke_of(m, lba_frac(d, lba, d->cur_act));
	pos = sim_media_position(d, &h, lba, before_ns, 1e300);
	if (pos_ns)
		*pos_ns = pos > 1e15 ? (uint64_t)1e15 : (uint64_t)pos;
	t += pos;
	t += bytes / rate_at(m, s_to);
	d->st.head_lba = lba + blocks;
	d->st.next_lba = lba + blocks;
	d->spin = 0; /* the heads are where the transfer ended */
	if (t > 1e15)
		t = 1e15;
	return (uint64_t)t;
}

uint64_t sim_media_destage_ns(struct sim_drive *d, uint64_t lba, uint64_t blocks, uint64_t *pos_ns)
{
	return access_ns(d, lba, blocks, 0, pos_ns);
}

uint64_t sim_media_io_ns(struct sim_drive *d, uint64_t lba, uint64_t blocks, bool write, bool fua)
{
	uint64_t wait;
	double ovh = (double)d->cfg.overhead_ns;

	if (sim_flash_on(d))
		return sim_flash_io_ns(d, lba, blocks, write, fua);
	if (write && !fua && sim_media_cacheable(d, blocks))
		return sim_cache_write_ns(d, lba, blocks);
	/* the mechanics: a destage under way gives way or ends first */
	wait = sim_cache_yield_ns(d);
	/* a read that continues the last transfer finds its data read ahead:
	 * the media streamed on while the command was processed */
	if (!write && lba == d->st.next_lba)
		ovh = 0;
	return wait + access_ns(d, lba, blocks, ovh, NULL);
}

/* Time to write every block of [0, blocks) once, in slices. */
uint64_t sim_media_format_ns(const struct sim_drive *d, uint64_t blocks)
{
	const struct sim_media *m = &d->cfg.media;
	double span = (double)span_blocks(d), t = 0, per, c;
	int i, slices = 64;

	per = (double)blocks / slices;
	for (i = 0; i < slices; i++) {
		uint64_t l = (uint64_t)(per * (i + 0.5));

		c = d->cfg.ranges.n > 1 ? lba_frac(d, l, act_of(d, l)) : per * (i + 0.5) / span;
		t += per * d->cfg.lblock / rate_at(m, stroke_of(m, c));
	}
	/* one revolution per track switch is folded into a 10 % margin */
	t *= 1.1;
	t += 2e9; /* start and finish */
	if (t > 1e18)
		t = 1e18;
	return (uint64_t)t;
}

uint64_t sim_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t sim_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t sim_clock_now(const struct sim_drive *d)
{
	double scale = d->rig ? d->rig->time_scale : 0;
	uint64_t now = d->clock_base_ns;

	if (scale > 0) {
		double el = (double)(sim_mono_ns() - d->mono_base_ns) * scale;

		if (el > 1e18)
			el = 1e18;
		now += (uint64_t)el;
	}
	return now;
}

void sim_clock_advance(struct sim_drive *d, uint64_t ns)
{
	d->clock_base_ns += ns;
}
