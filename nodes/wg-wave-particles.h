/* wg-wave-particles.h — wave-particle maths shared by the particle nodes
 * (papers/004, after Yuksel, House and Keyser 2007, "Wave Particles"): the
 * cosine bump of eq. 2 and its longitudinal twin (eq. 4), written as sums of
 * separable 1D kernels (eq. 8–9) for the splat-and-filter evaluation. */
#pragma once

#include "wavegraph.h"

#include <math.h>

G_BEGIN_DECLS

/* Splat channels: a particle's amplitude A and A·c², A·c·s, A·s² of its
 * direction (c, s) = (cos α, sin α). */
enum { WG_SPLAT_A, WG_SPLAT_CC, WG_SPLAT_CS, WG_SPLAT_SS, WG_SPLAT_CHANNELS };

/* One separable term: out[o] += Σ_b col[b] Σ_a row[a] · splat[src](g − (a, b)). */
typedef struct {
  guint32 src, out, row, col; /* splat channel, output channel, offsets into coefs */
} WgSplatTerm;

/**
 * WgSplatKernel:
 * The filter of splat-filter for bumps of one radius r on a grid of spacing
 * (dx, dy): the sampled kernels
 *   K(d)  = ½ (cos(π|d|/r) + 1) Π(|d|/2r)                    (eq. 2 without A)
 *   Kx(d) = (d_x/|d|) sin(π|d|/r) K(d), Ky(d) = (d_y/|d|) sin(π|d|/r) K(d)
 * on the (2 ry + 1) × (2 rx + 1) cells within r, each decomposed exactly (to
 * double rounding, terms below 1e-10 of the largest singular value dropped)
 * into a sum of products of 1D kernels by a singular-value decomposition
 * (WG_SPLAT_FILTER_EXACT), or replaced by one such product each, eq. 8–9
 * (WG_SPLAT_FILTER_SEPARABLE); and the five convolutions of the output
 * channels (λDx, λDy, h) with the splat channels:
 *   h  = K ∗ A,   Dx = −s (Kx ∗ Acc + Ky ∗ Acs),   Dy = −s (Kx ∗ Acs + Ky ∗ Ass)
 * (s: the node's strength, applied by the caller). Row kernels have 2 rx + 1
 * coefficients (index a + rx), column kernels 2 ry + 1 (index b + ry).
 */
typedef struct {
  guint rx, ry;
  guint n_terms;
  WgSplatTerm *terms;
  guint n_coefs;
  float *coefs;
} WgSplatKernel;

/**
 * WgSplatFilter:
 * @WG_SPLAT_FILTER_EXACT: eq. 2's radial bump (and our eq. 4) as their
 *   singular-value terms: equal to the direct sum, to float rounding.
 * @WG_SPLAT_FILTER_SEPARABLE: eq. 8–9 as the paper writes them, one
 *   product of 1D factors per kernel: K ≈ d(x) d(y) with
 *   d(p) = ½ (cos(πp/r) + 1), Kx ≈ sin(πx/r) d(x) d(y), Ky likewise. Equal
 *   to the exact kernels on the axes through the particle; elsewhere the
 *   bump is squarer (d(x) d(y) ≥ K): its volume is A r², 7% above eq. 2's
 *   A r² (π/2 − 2/π). Five terms in place of the exact filter's 6 to 35
 *   (radius 2 to 8 cells).
 */
typedef enum { WG_SPLAT_FILTER_EXACT, WG_SPLAT_FILTER_SEPARABLE } WgSplatFilter;

/**
 * wg_splat_kernel_init:
 * Builds @k for bumps of @radius (m) on cells of @dx × @dy (m) with the
 * @filter's kernels; the radius must span at least one cell and at most
 * WG_SPLAT_MAX_CELLS along each axis (the caller checks). Freed with
 * wg_splat_kernel_clear().
 */
#define WG_SPLAT_MAX_CELLS 64
/* Radii one splat-filter buckets its particles by, at most. */
#define WG_SPLAT_MAX_BUCKETS 8

/**
 * wg_splat_bucket:
 * The bucket of a particle of radius @r (m): how many of the @n ascending
 * @bounds (the radii between neighbouring buckets) lie below it. Branch-free;
 * shaders/splat-filter.comp's SPLAT pass does the same.
 */
static inline guint
wg_splat_bucket (float r, const float *bounds, guint n)
{
  guint b = 0;
  for (guint k = 0; k < n; k++)
    b += r > bounds[k];
  return b;
}

/**
 * wg_splat_radius_other:
 * Whether a particle of radius @r (m) is more than 0.1% off the radius of
 * its bucket (wg_splat_bucket() of the @n ascending @bounds; @radius: the
 * n + 1 buckets' radii, ascending): filtered with a bump not its own.
 */
static inline gboolean
wg_splat_radius_other (float r, const float *bounds, guint n, const double *radius)
{
  const guint b = wg_splat_bucket (r, bounds, n);
  return fabs (r - radius[b]) > 1e-3 * radius[b];
}

void wg_splat_kernel_init (WgSplatKernel *k, double radius, double dx, double dy,
                           WgSplatFilter filter);
/**
 * wg_splat_kernel_init_tolerance:
 * wg_splat_kernel_init() keeping the terms whose singular value exceeds
 * @tolerance × the largest of their kernel (wg_splat_kernel_init(): 1e-10);
 * for measuring what dropping terms costs (bench/wg-bench-particles.c).
 */
void wg_splat_kernel_init_tolerance (WgSplatKernel *k, double radius, double dx, double dy,
                                     double tolerance);
void wg_splat_kernel_clear (WgSplatKernel *k);

/** wg_bump_volume: ∫ K dA of eq. 2's bump of radius @r and unit amplitude: r² (π/2 − 2/π) (m³/m). */
double wg_bump_volume (double r);

/** wg_bump: eq. 2 without A at distance @rho from the centre: ½ (cos(πρ/r) + 1) for ρ < r, else 0. */
double wg_bump (double rho, double r);

/**
 * wg_splat_row_stride, wg_splat_size:
 * The layout of the CPU splat: h rows of w cells of @channels floats
 * (WG_SPLAT_CHANNELS, a cell's channels together; or 1, A alone, for the
 * height only), rows wg_splat_row_stride(w, channels) floats apart,
 * wg_splat_size(w, h, channels) floats in all. Rows are padded by a cache
 * line (16 floats): with w a power of two they would start 4 KiB apart,
 * and the splat's loads of one row would wait on stores to the other
 * (4 KiB aliasing).
 */
static inline gsize
wg_splat_row_stride (guint w, guint channels)
{
  return channels * (gsize) w + 16;
}

static inline gsize
wg_splat_size (guint w, guint h, guint channels)
{
  return wg_splat_row_stride (w, channels) * h;
}

/** wg_wrap_index: index @k of an axis of @n cells wrapped into [0, n). */
static inline long
wg_wrap_index (long k, long n)
{
  k %= n;
  return k < 0 ? k + n : k;
}

/**
 * WgSplatBalance:
 * Where a CPU splat's particles were: per block of WG_SPLAT_BALANCE_ROWS
 * rows, how many had their upper corners there, so that the next splat
 * gives each thread a band of rows with about as many (the sums do not
 * depend on the bands). Zero-initialise; wg_splat_balance_clear() frees it.
 */
#define WG_SPLAT_BALANCE_ROWS 16
typedef struct {
  guint n_blocks;
  guint32 *count;
} WgSplatBalance;

void wg_splat_balance_clear (WgSplatBalance *balance);

/**
 * wg_splat_cpu:
 * Clears @n_buckets splats (each wg_splat_size(@w, @h, @channels) floats,
 * one after the other; see wg_splat_row_stride(); cells of @dx × @dy m,
 * cell (i, j) at (i dx, j dy)) and adds the @count particles bilinearly
 * into their bucket's: bucket b holds the particles whose radius exceeds b
 * of the @n_buckets − 1 ascending @bounds. Each particle's four channel
 * values (A, A c², A c s, A s² of its amplitude and direction (c, s)), or
 * A alone when @channels is 1 (the height only: eq. 1–2 need no
 * direction), are shared among the four cells around it by the bilinear
 * weights (sum 1, centre of mass kept). Cells beyond the edge wrap when
 * @wrap, else are dropped; particles off the grid by more than 10⁹ cells
 * (or not at a number) add nothing. Each OpenMP thread clears and adds the
 * corners in its band of rows, going through the particles in order, so
 * every cell sums in particle order whatever the thread count; A sums the
 * same with 1 channel as with 4. The bands are whole blocks of
 * WG_SPLAT_BALANCE_ROWS rows: even shares of the rows, or with @balance
 * (NULL: none) even shares of the last call's particles, and @balance
 * counts this call's. The direction's cosine and sine come from
 * wg-trig.h, as on the GPU. Returns how many particles have a radius more
 * than 0.1% off their bucket's (@radius: the @n_buckets radii, ascending;
 * NULL: 0, not counted), counted as the splat reads them.
 * (nodes/wg-splat-cpu.c)
 */
guint wg_splat_cpu (float *splat, guint channels, guint n_buckets, const float *bounds,
                    const double *radius, guint w, guint h, double dx, double dy, gboolean wrap,
                    const WgParticle *particles, guint count, WgSplatBalance *balance);

/**
 * wg_splat_filter_cpu:
 * @out (@w × @h cells of 3 floats: λDx, λDy, h) = the sum over the
 * @n_buckets (1 to WG_SPLAT_MAX_BUCKETS) buckets of @kernels[b] applied to
 * wg_splat_cpu()'s splat b, Dx and Dy scaled by −@strength (with @strength
 * 0 their terms are skipped: exactly zero, and the splat has 1 channel,
 * read in place; else WG_SPLAT_CHANNELS), @edges a WG_SPLAT_EDGES_*
 * (shaders/splat-filter.h). Row by row, each thread a band of rows: for
 * each bucket and term in order, the term's column kernel (vertical taps
 * over the splat rows around the row, as the edges have them) into a row
 * buffer, then its row kernel over that buffer, added to the term's output
 * channel. Each cell sums its terms and taps in one fixed order: the result
 * does not depend on the thread count. Working set per thread: 2 ry + 1
 * splat rows per bucket (copied into per-channel rows unless the splat has
 * one channel), one buffered row and three output rows.
 * (nodes/wg-splat-filter-cpu.c)
 */
void wg_splat_filter_cpu (float *out, const float *splat, guint n_buckets,
                          const WgSplatKernel *kernels, guint w, guint h, int edges,
                          float strength);

G_END_DECLS
