/* flash.c - a flash drive's sustained random writes (docs/flash.md): the
 * write amplification of greedy garbage collection under uniform random
 * writes, from the spare factor alone, and the IOPS the NAND's program,
 * read and erase times and the dies give with it. */
#include <errno.h>
#include <math.h>

#include "raidplan/raidplan_priv.h"

/* W0(x), the principal branch of Lambert's W, for -1/e <= x < 0 */
static double lambert_w0(double x)
{
	double w, p;

	if (x <= -1 / M_E)
		return -1;
	/* the branch point's series, then Halley's iteration */
	p = sqrt(2 * (M_E * x + 1));
	w = x > -0.25 ? x * (1 - x) : -1 + p - p * p / 3 + 11 * p * p * p / 72;
	for (int i = 0; i < 50; i++) {
		double e = exp(w), f = w * e - x;
		double d = e * (w + 1) - (w + 2) * f / (2 * w + 2);

		if (d == 0)
			break;
		d = f / d;
		w -= d;
		if (fabs(d) < 1e-14 * (1 + fabs(w)))
			break;
	}
	return w;
}

/* The cleaned block holds the fraction u of valid pages that solves
 * u = exp(-a (1 - u)), a = 1 + spare the physical over the user pages
 * (Hu et al. 2009 and Desnoyers 2012 for LRU/FIFO cleaning, which greedy
 * approaches as the pages per block grow; Xiang and Kurkoski 2012 for
 * greedy): u = -W0(-a e^-a) / a, and each page written costs 1 / (1 - u)
 * pages programmed. */
double rp_flash_write_amp(double spare)
{
	double a = 1 + spare, u;

	if (!(spare > 0) || !isfinite(spare))
		return NAN;
	u = -lambert_w0(-a * exp(-a)) / a;
	return u >= 1 ? INFINITY : 1 / (1 - u);
}

static double or_default(double v, double d)
{
	return v > 0 ? v : d;
}

int rp_flash_random_write_iops(const struct rp_flash *f, double used, uint64_t bs, double *iops,
			       struct rp_error *err)
{
	struct rp_flash z = { 0 };
	double page, planes, np, dies, tr, tp, te, spare, alpha, wa, units, back, front, link;

	if (!f) {
		rp_flash_init(&z);
		f = &z;
	}
	if (!iops)
		return rp_err(err, -EINVAL, "no place for the result");
	*iops = NAN;
	if (f->size < sizeof(uint32_t))
		return rp_err(err, -EINVAL, "struct rp_flash: size not set (rp_flash_init)");
	if (f->size > sizeof(*f))
		return rp_err(err, -E2BIG, "struct rp_flash is newer than this library");
	if (!(used > 0 && used <= 1))
		return rp_err(err, -EINVAL, "the share of the drive used must be in (0, 1], not %g",
			      used);
	if (!bs)
		bs = 4096;
	page = or_default(f->page_kib, 8);
	planes = or_default(f->planes, 2);
	np = or_default(f->block_pages, 256) * page / 4; /* 4 KiB pages a block */
	dies = or_default(f->dies, 8);
	tr = or_default(f->read_us, 75) * 1e3;
	tp = or_default(f->program_us, 1300) * 1e3;
	te = or_default(f->erase_ms, 3.8) * 1e6;
	spare = or_default(f->spare, 0.0737);
	link = or_default(f->link_mbps, 600);
	alpha = (1 + spare) / used;
	wa = rp_flash_write_amp(alpha - 1);
	if (!isfinite(wa))
		return rp_err(err, -ERANGE, "no spare area: garbage collection cannot work");
	units = ceil((double)bs / 4096);
	/* the dies' time for a request: its programs, and garbage collection's
	 * reads, programs and erases, over the dies working in parallel */
	back = units * (wa * tp / (page * planes / 4) + (wa - 1) * tr / (page / 4) + wa * te / np) /
	       dies;
	/* the host side: the command's own time and the transfer */
	front = or_default(f->command_us, 20) * 1e3 + (double)bs / (link * 1e6 / 1e9);
	*iops = 1e9 / (back > front ? back : front);
	return 0;
}
