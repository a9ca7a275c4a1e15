/* queue.c - command queuing: the expected positioning time of a disk that
 * serves, of the q requests queued at it, the one whose positioning (seek
 * + rotational wait) is shortest (SPTF/SATF: Jacobson & Wilkes 1991,
 * Worthington, Ganger & Patt 1994). docs/planning-model.md, 1.8, has the
 * derivation.
 *
 * One queued request at seek distance u (band units) and angular distance
 * phi from the heads positions in X = Y + W past the track-to-track time
 * T: Y = alpha u + beta sqrt(u) the seek beyond T (the band's fit), W the
 * rotational wait, uniform on [0, R) whatever the seek (the platter turns
 * on while the heads move). Random requests in the band have distance
 * density 2(1 - u), so (v = sqrt(u))
 *   G(y) = P(Y <= y) = 2u - u^2,  H(y) = Int_0^y G
 *        = alpha v^4 + (2 beta / 3) v^3 - (alpha / 3) v^6 - (beta / 5) v^5
 * for y <= y1 = alpha + beta, and H1 + (y - y1) beyond (H1 = 2 alpha / 3 +
 * 7 beta / 15). X's distribution is F(x) = (H(x) - H(x - R)) / R, and the
 * shortest of q independent ones has the mean
 *   E_q = Int_0^(y1 + R) (1 - F(x))^q dx.
 * E_1 = E[Y] + R / 2, the positioning at queue depth 1. A queue is not q
 * independent requests: those passed over stay, nearer the back (in
 * angle: a revolution away) and farther (in radius) than fresh ones, so
 * the drive chooses as from q_eff = q^0.92 fresh ones (the exponent from a
 * Monte Carlo of the exact rule, docs/planning-model.md).
 *
 * The model's positioning at queue depth q is T + (E(1) - T) r(q), with
 * r(q) = E_(q_eff) / E_1 computed by Gauss-Legendre quadrature at q = 2^(j/2)
 * (j = 0 .. 24, q <= 4096) and interpolated (cubic in log q) in between;
 * one table per band, memoised by the search, each point computed when
 * first needed.
 */
#include <math.h>
#include <string.h>

#include "raidplan/raidplan_priv.h"

/* 8-point Gauss-Legendre on [-1, 1] */
static const double gl_x[8] = { -0.9602898564975363, -0.7966664774136267, -0.5255324099163290,
				-0.1834346424956498, 0.1834346424956498,  0.5255324099163290,
				0.7966664774136267,  0.9602898564975363 };
static const double gl_w[8] = { 0.1012285362903763, 0.2223810344533745, 0.3137066458778873,
				0.3626837833783620, 0.3626837833783620, 0.3137066458778873,
				0.2223810344533745, 0.1012285362903763 };

/* The band's seek excess and its integral, as functions of v = sqrt(u). */
struct band_fn {
	double alpha, beta, r;
	double y1, h1; /* y at u = 1; H(y1) */
};

static double v_of(const struct band_fn *b, double y)
{
	double d;

	if (y <= 0)
		return 0;
	if (y >= b->y1)
		return 1;
	/* alpha v^2 + beta v = y, the root without cancellation */
	d = sqrt(b->beta * b->beta + 4.0 * b->alpha * y);
	return 2.0 * y / (b->beta + d);
}

static double h_of_v(const struct band_fn *b, double v)
{
	double v2 = v * v, v3 = v2 * v;

	return b->alpha * v2 * v2 + (2.0 / 3.0) * b->beta * v3 - (b->alpha / 3.0) * v3 * v3 -
	       (b->beta / 5.0) * v2 * v3;
}

static double h_of(const struct band_fn *b, double y)
{
	if (y <= 0)
		return 0;
	if (y >= b->y1)
		return b->h1 + (y - b->y1);
	return h_of_v(b, v_of(b, y));
}

/* The quadrature of Int (1 - F(x))^q dx (struct rp_sptf): weights w and
 * log(1 - F) at each node (-inf when F = 1), and a piece where F is linear
 * in x, integrated in closed form. */
#define MAX_NODES RP_SPTF_NODES

static void add_node(struct rp_sptf *nd, double w, double f)
{
	if (nd->n >= MAX_NODES || w <= 0)
		return;
	nd->w[nd->n] = w;
	nd->l[nd->n] = f >= 1 ? -INFINITY : log1p(-f);
	nd->n++;
}

/* [x0, x1] with x <= min(y1, R): F = H(x) / R, integrated in v. */
static void piece_v(const struct band_fn *b, double v0, double v1, struct rp_sptf *nd)
{
	double c = (v0 + v1) / 2, h = (v1 - v0) / 2;
	int i;

	for (i = 0; i < 8; i++) {
		double v = c + h * gl_x[i];

		add_node(nd, gl_w[i] * h * (2.0 * b->alpha * v + b->beta), h_of_v(b, v) / b->r);
	}
}

/* [x0, x1] beyond R: F = (H(x) - H(x - R)) / R, integrated in x. */
static void piece_x(const struct band_fn *b, double x0, double x1, struct rp_sptf *nd)
{
	double c = (x0 + x1) / 2, h = (x1 - x0) / 2;
	int i;

	for (i = 0; i < 8; i++) {
		double x = c + h * gl_x[i];

		add_node(nd, gl_w[i] * h, (h_of(b, x) - h_of(b, x - b->r)) / b->r);
	}
}

static void build_nodes(const struct band_fn *b, struct rp_sptf *nd)
{
	double lo = fmin(b->y1, b->r), hi = fmax(b->y1, b->r), vlo;

	nd->n = 0;
	nd->lin = false;
	if (b->y1 > 0) {
		/* x in [0, min(y1, R)]: graded towards 0, where a deep queue's
		 * shortest positioning lies */
		vlo = v_of(b, lo);
		piece_v(b, 0, vlo / 16, nd);
		piece_v(b, vlo / 16, vlo / 4, nd);
		piece_v(b, vlo / 4, vlo, nd);
	}
	if (b->y1 <= b->r) {
		/* [y1, R]: H(x) = H1 + x - y1, F linear */
		nd->lin = hi > lo;
		nd->lin_a = 1.0 - (b->h1) / b->r;
		nd->lin_b = 1.0 - (b->h1 + (b->r - b->y1)) / b->r;
	} else {
		/* [R, y1]: both ends of H inside the band */
		piece_x(b, lo, (lo + hi) / 2, nd);
		piece_x(b, (lo + hi) / 2, hi, nd);
	}
	/* [max(y1, R), y1 + R] */
	piece_x(b, hi, b->y1 + b->r, nd);
}

/* E_q = Int (1 - F)^q dx for a real q >= 1 */
static double e_q(const struct rp_sptf *nd, double r, double q)
{
	double s = 0;
	unsigned i;

	for (i = 0; i < nd->n; i++)
		if (nd->l[i] > -INFINITY)
			s += nd->w[i] * exp(q * nd->l[i]);
	if (nd->lin) {
		/* Int (a - (x - y1) / R)^q dx over [y1, R] = R / (q + 1) (a^(q+1) - b^(q+1)) */
		double a = nd->lin_a > 0 ? exp((q + 1) * log(nd->lin_a)) : 0;
		double b = nd->lin_b > 0 ? exp((q + 1) * log(nd->lin_b)) : 0;

		s += r / (q + 1) * (a - b);
	}
	return s;
}

/* The effective number of independent requests in a queue of q. */
static double q_eff(double q)
{
	return exp(RP_SPTF_GAMMA * log(q));
}

/* Set up a band's table: its quadrature and E_1; no point computed yet. */
static void table_init(struct rp_sptf *t, double alpha, double beta, double trev)
{
	struct band_fn b;
	int j;

	b.alpha = alpha;
	b.beta = beta;
	b.r = trev;
	b.y1 = alpha + beta;
	b.h1 = 2.0 * alpha / 3.0 + 7.0 * beta / 15.0;
	build_nodes(&b, t);
	t->alpha = alpha;
	t->beta = beta;
	t->trev = trev;
	t->valid = true;
	t->e1 = e_q(t, trev, 1.0);
	t->r[0] = 1;
	for (j = 1; j < RP_SPTF_QPTS; j++)
		t->r[j] = NAN;
	memset(t->rq, 0, sizeof(t->rq));
}

/* r at the table's point j, q = 2^(j/2), computed when first asked for */
static double point(struct rp_sptf *t, int j)
{
	if (isnan(t->r[j]))
		t->r[j] = t->e1 > 0 ? e_q(t, t->trev, q_eff(exp2(j / 2.0))) / t->e1 : 1;
	return t->r[j];
}

/* Cubic (Catmull-Rom) in t = 2 log2(q) between the table's points. */
static double interp(struct rp_sptf *tb, double q)
{
	double t, f, p0, p1, p2, p3;
	int j;

	if (q <= 1)
		return 1;
	t = 2.0 * log2(q);
	if (t >= RP_SPTF_QPTS - 1)
		return point(tb, RP_SPTF_QPTS - 1);
	j = (int)t;
	f = t - j;
	p1 = point(tb, j);
	p2 = point(tb, j + 1);
	p0 = j > 0 ? point(tb, j - 1) : 2 * p1 - p2;
	p3 = j + 2 < RP_SPTF_QPTS ? point(tb, j + 2) : 2 * p2 - p1;
	return p1 +
	       0.5 * f *
		   (p2 - p0 +
		    f * (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3 + f * (3.0 * (p1 - p2) + p3 - p0)));
}

static size_t slot_of(double a, double b, double c)
{
	uint64_t x, y, z;

	memcpy(&x, &a, sizeof(x));
	memcpy(&y, &b, sizeof(y));
	memcpy(&z, &c, sizeof(z));
	x = (x ^ (y * 0xff51afd7ed558ccdULL) ^ (z * 0xc4ceb9fe1a85ec53ULL)) * 0x9e3779b97f4a7c15ULL;
	return (size_t)(x >> 40) % RP_SPTF_SLOTS;
}

double rp_sptf_ratio(struct rp_memo *memo, double alpha, double beta, double trev, double q)
{
	struct rp_sptf one, *t = &one;

	if (q <= 1 || trev <= 0)
		return 1;
	/* the search asks again and again for one band at one queue */
	if (memo && memo->last.q == q && memo->last.alpha == alpha && memo->last.beta == beta &&
	    memo->last.trev == trev)
		return memo->last.r;
	if (memo)
		t = &memo->sptf[slot_of(alpha, beta, trev)];
	if (!memo || !t->valid || t->alpha != alpha || t->beta != beta || t->trev != trev)
		table_init(t, alpha, beta, trev);
	if (!memo)
		return interp(t, q);
	/* a disk's whole queue lengths, asked for by every size and figure */
	if (q <= RP_SPTF_WHOLE && q == floor(q)) {
		if (!(t->rq[(int)q] > 0))
			t->rq[(int)q] = interp(t, q);
		return t->rq[(int)q];
	}
	memo->last.alpha = alpha;
	memo->last.beta = beta;
	memo->last.trev = trev;
	memo->last.q = q;
	return memo->last.r = interp(t, q);
}

double rp_sptf_exact(double alpha, double beta, double trev, double q)
{
	struct rp_sptf t;

	if (q <= 1 || trev <= 0)
		return 1;
	table_init(&t, alpha, beta, trev);
	return t.e1 > 0 ? e_q(&t, trev, q_eff(q)) / t.e1 : 1;
}
