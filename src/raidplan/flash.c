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

void rp_flash_defaults(struct rp_flash *f)
{
	f->spare = or_default(f->spare, 0.0737);
	f->dies = or_default(f->dies, 8);
	f->planes = or_default(f->planes, 2);
	f->page_kib = or_default(f->page_kib, 8);
	f->block_pages = or_default(f->block_pages, 256);
	f->read_us = or_default(f->read_us, 75);
	f->program_us = or_default(f->program_us, 1300);
	f->erase_ms = or_default(f->erase_ms, 3.8);
	f->command_us = or_default(f->command_us, 20);
	f->link_mbps = or_default(f->link_mbps, 600);
}

/* the dies' time for a 4 KiB page written at write amplification wa: its
 * programs (a multi-plane program takes page x planes), garbage
 * collection's reads of the pages it moves and its erases (a block of
 * block_pages x page 4 KiB pages), over the dies */
double rp_flash_write_unit_ms(const struct rp_flash *f, double spare)
{
	double wa = rp_flash_write_amp(spare);
	double per_prog = f->page_kib * f->planes / 4, per_read = f->page_kib / 4;
	double per_block = f->block_pages * f->page_kib / 4;

	if (!isfinite(wa))
		return INFINITY;
	return (wa * f->program_us / per_prog + (wa - 1) * f->read_us / per_read) / 1e3 / f->dies +
	       wa * f->erase_ms / per_block / f->dies;
}

int rp_flash_random_write_iops(const struct rp_flash *f, double used, uint64_t bs, double *iops,
			       struct rp_error *err)
{
	struct rp_flash z;
	double back, front;
	int rc;

	if (!iops)
		return rp_err(err, -EINVAL, "no place for the result");
	*iops = NAN;
	rp_flash_init(&z);
	if (f && (rc = rp_in_flash(f, &z, err)))
		return rc;
	rp_flash_defaults(&z);
	if (!(used > 0 && used <= 1))
		return rp_err(err, -EINVAL, "the share of the drive used must be in (0, 1], not %g",
			      used);
	if (!bs)
		bs = 4096;
	back = ceil((double)bs / 4096) * rp_flash_write_unit_ms(&z, (1 + z.spare) / used - 1);
	if (!isfinite(back))
		return rp_err(err, -ERANGE, "no spare area: garbage collection cannot work");
	/* the host side: the command's own time and the transfer */
	front = z.command_us / 1e3 + (double)bs / (z.link_mbps * 1e3);
	*iops = 1e3 / (back > front ? back : front);
	return 0;
}
