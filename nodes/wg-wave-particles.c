/* wg-wave-particles.c — the wave-particle bump (papers/004 eq. 2 and 4) as
 * separable filters (eq. 8–9), and the CPU splat and filter.
 *
 * Eq. 8–9 write the filter as products of 1D cosines, but eq. 2's bump is
 * radial: ½ (cos(π|d|/r) + 1) is not the product ½ (cos(πx/r) + 1) ·
 * ½ (cos(πy/r) + 1). Sampled on the grid, though, any kernel is a matrix,
 * and a matrix is exactly the sum of its singular-value terms σ_k u_k v_kᵀ,
 * each a column kernel times a row kernel: so the splat texture filtered
 * by those terms, one 1D pass along rows and one along columns each, is
 * eq. 2's sum at every cell, to float rounding — with the particle at the
 * position the splat gives it (below). The smooth bump has few significant
 * terms (its numerical rank is well below 2r/dx + 1).
 *
 * Eq. 4's longitudinal deviation −v̂ sin(πu/r) d_v with u the signed
 * distance along v̂ (the transcription's u = |x − x_i| would move every
 * point the same way; the figure's sharpened crests need the sign) is not a
 * fixed kernel, since v̂ differs per particle. We use
 * −v̂ (v̂·d̂) sin(π|d|/r) d_v instead: equal to eq. 4 on the particle's axis
 * (d ∥ v̂, where both are −v̂ sin(πu/r) d_v), and a sum of the two fixed
 * kernels Kx = d̂x sin(π|d|/r) K, Ky = d̂y sin(π|d|/r) K weighted by the
 * particle's A c², A c s, A s²; so it splats and filters like the height.
 */
#include "wg-wave-particles.h"
#include "splat-filter.h"
#include "wg-simd.h"
#include "wg-trig.h"

#include <math.h>
#include <omp.h>
#include <string.h>

double
wg_bump (double rho, double r)
{
  return rho < r ? 0.5 * (cos (G_PI * rho / r) + 1.0) : 0.0;
}

double
wg_bump_volume (double r)
{
  /* 2π ∫₀^r ½ (cos(πρ/r) + 1) ρ dρ = π (r²/2 − 2r²/π²) */
  return r * r * (G_PI / 2.0 - 2.0 / G_PI);
}

/* One-sided Jacobi SVD of the m × n row-major matrix @a (overwritten by
 * A V, whose columns are σ_k u_k) with @v (n × n, row-major) the right
 * singular vectors: A = Σ_k (A V)[:, k] V[:, k]ᵀ. */
static void
jacobi_svd (double *a, double *v, guint m, guint n)
{
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      v[i * n + j] = i == j;
  for (int sweep = 0; sweep < 60; sweep++)
    {
      gboolean rotated = FALSE;
      for (guint p = 0; p + 1 < n; p++)
        for (guint q = p + 1; q < n; q++)
          {
            double alpha = 0, beta = 0, gamma = 0;
            for (guint i = 0; i < m; i++)
              {
                alpha += a[i * n + p] * a[i * n + p];
                beta += a[i * n + q] * a[i * n + q];
                gamma += a[i * n + p] * a[i * n + q];
              }
            if (gamma == 0 || fabs (gamma) <= 1e-15 * sqrt (alpha * beta))
              continue;
            rotated = TRUE;
            double zeta = (beta - alpha) / (2 * gamma);
            double t = (zeta >= 0 ? 1.0 : -1.0) / (fabs (zeta) + sqrt (1 + zeta * zeta));
            double c = 1 / sqrt (1 + t * t), s = c * t;
            for (guint i = 0; i < m; i++)
              {
                double x = a[i * n + p], y = a[i * n + q];
                a[i * n + p] = c * x - s * y;
                a[i * n + q] = s * x + c * y;
              }
            for (guint i = 0; i < n; i++)
              {
                double x = v[i * n + p], y = v[i * n + q];
                v[i * n + p] = c * x - s * y;
                v[i * n + q] = s * x + c * y;
              }
          }
      if (!rotated)
        break;
    }
}

typedef enum { KERNEL_BUMP, KERNEL_X, KERNEL_Y } KernelKind;

/* Appends the significant terms of kernel @kind feeding output @out from
 * splat channel @src. */
static void
add_kernel (WgSplatKernel *k, GArray *terms, GArray *coefs, KernelKind kind, double radius,
            double dx, double dy, guint src, guint out, double tolerance)
{
  const guint m = 2 * k->ry + 1, n = 2 * k->rx + 1;
  g_autofree double *a = g_new (double, (gsize) m * n);
  g_autofree double *v = g_new (double, (gsize) n * n);
  for (guint b = 0; b < m; b++)
    for (guint c = 0; c < n; c++)
      {
        double x = ((double) c - k->rx) * dx, y = ((double) b - k->ry) * dy;
        double rho = hypot (x, y), value = wg_bump (rho, radius);
        if (kind != KERNEL_BUMP)
          value = rho > 0 ? value * sin (G_PI * rho / radius) * (kind == KERNEL_X ? x : y) / rho
                          : 0;
        a[b * n + c] = value;
      }
  jacobi_svd (a, v, m, n);
  double sigma_max = 0;
  g_autofree double *sigma = g_new (double, n);
  for (guint c = 0; c < n; c++)
    {
      double s2 = 0;
      for (guint b = 0; b < m; b++)
        s2 += a[b * n + c] * a[b * n + c];
      sigma[c] = sqrt (s2);
      sigma_max = MAX (sigma_max, sigma[c]);
    }
  for (guint c = 0; c < n; c++)
    {
      if (sigma[c] <= tolerance * sigma_max)
        continue;
      WgSplatTerm t = { src, out, coefs->len, coefs->len + n };
      for (guint i = 0; i < n; i++)
        {
          float f = (float) v[i * n + c];
          g_array_append_val (coefs, f);
        }
      for (guint b = 0; b < m; b++)
        {
          float f = (float) a[b * n + c];
          g_array_append_val (coefs, f);
        }
      g_array_append_val (terms, t);
    }
}

void
wg_splat_kernel_init (WgSplatKernel *k, double radius, double dx, double dy)
{
  wg_splat_kernel_init_tolerance (k, radius, dx, dy, 1e-10);
}

void
wg_splat_kernel_init_tolerance (WgSplatKernel *k, double radius, double dx, double dy,
                                double tolerance)
{
  memset (k, 0, sizeof *k);
  /* Cells strictly inside the radius; the bump is 0 at |d| = r. */
  k->rx = MIN ((guint) ceil (radius / dx) - 1, WG_SPLAT_MAX_CELLS);
  k->ry = MIN ((guint) ceil (radius / dy) - 1, WG_SPLAT_MAX_CELLS);
  GArray *terms = g_array_new (FALSE, FALSE, sizeof (WgSplatTerm));
  GArray *coefs = g_array_new (FALSE, FALSE, sizeof (float));
  add_kernel (k, terms, coefs, KERNEL_BUMP, radius, dx, dy, WG_SPLAT_A, 2, tolerance);
  add_kernel (k, terms, coefs, KERNEL_X, radius, dx, dy, WG_SPLAT_CC, 0, tolerance);
  add_kernel (k, terms, coefs, KERNEL_Y, radius, dx, dy, WG_SPLAT_CS, 0, tolerance);
  add_kernel (k, terms, coefs, KERNEL_X, radius, dx, dy, WG_SPLAT_CS, 1, tolerance);
  add_kernel (k, terms, coefs, KERNEL_Y, radius, dx, dy, WG_SPLAT_SS, 1, tolerance);
  k->n_terms = terms->len;
  k->terms = (WgSplatTerm *) g_array_free (terms, FALSE);
  k->n_coefs = coefs->len;
  k->coefs = (float *) g_array_free (coefs, FALSE);
}

void
wg_splat_kernel_clear (WgSplatKernel *k)
{
  g_free (k->terms);
  g_free (k->coefs);
  memset (k, 0, sizeof *k);
}

/* Adds the particles' corners that fall in rows [@row0, @row1) of @splat. */
static void
splat_rows (float *splat, guint w, guint h, double dx, double dy, gboolean wrap,
            const WgParticle *particles, guint count, double row0, double row1)
{
  for (guint p = 0; p < count; p++)
    {
      const WgParticle *q = &particles[p];
      const double fy = q->y / dy, j0 = floor (fy);
      /* Neither of its rows in the band (wrapped as below): next. */
      const double ja = wrap ? j0 - floor (j0 / h) * h : j0;
      const double jb = wrap ? (j0 + 1) - floor ((j0 + 1) / h) * h : j0 + 1;
      if ((ja < row0 || ja >= row1) && (jb < row0 || jb >= row1))
        continue;
      const double fx = q->x / dx, i0 = floor (fx);
      const double tx = fx - i0, ty = fy - j0;
      float c, s;
      wg_sincos_turns (q->angle * 0.159154943091895335769f, &s, &c);
      const float amp = q->amplitude;
      const float value[WG_SPLAT_CHANNELS] = { amp, amp * c * c, amp * c * s, amp * s * s };
      for (int corner = 0; corner < 4; corner++)
        {
          const int di = corner & 1, dj = corner >> 1;
          double i = i0 + di, j = j0 + dj;
          const float weight = (float) ((di ? tx : 1 - tx) * (dj ? ty : 1 - ty));
          if (wrap)
            {
              i -= floor (i / w) * w;
              j -= floor (j / h) * h;
            }
          else if (i < 0 || j < 0 || i >= w || j >= h)
            continue;
          if (j < row0 || j >= row1)
            continue;
          float *cell = splat + WG_SPLAT_CHANNELS * ((gsize) j * w + (gsize) i);
          for (guint ch = 0; ch < WG_SPLAT_CHANNELS; ch++)
            cell[ch] += weight * value[ch];
        }
    }
}

void
wg_splat_cpu (float *splat, guint w, guint h, double dx, double dy, gboolean wrap,
              const WgParticle *particles, guint count)
{
  /* Each thread adds the corners in its band of rows, going through all
   * the particles in order: every cell sums in particle order. */
#pragma omp parallel
  {
    const int n = omp_get_num_threads (), t = omp_get_thread_num ();
    splat_rows (splat, w, h, dx, dy, wrap, particles, count, (double) h * t / n,
                (double) h * (t + 1) / n);
  }
}

/* Index @i + @d along an axis of @n cells: wrapped, mirrored at walls
 * through the first and last cells (k < 0 reads −k: the image of a bump
 * near the wall, the wall's own cell counted once), or -1 outside. */
static inline long
axis_index (long i, long d, long n, int edges)
{
  long k = i + d;
  if (k >= 0 && k < n)
    return k;
  if (edges == WG_SPLAT_EDGES_WRAP)
    {
      k %= n;
      return k < 0 ? k + n : k;
    }
  if (edges == WG_SPLAT_EDGES_WALLS)
    k = k < 0 ? -k : 2 * (n - 1) - k;
  return edges == WG_SPLAT_EDGES_WALLS && k >= 0 && k < n ? k : -1;
}

/* A wall's image of a particle has its direction mirrored across the wall:
 * A c s changes sign (A c², A s² and A do not). −1 for that channel read
 * at @k in place of @virtual_k beyond a wall. */
G_STATIC_ASSERT (WG_SPLAT_CS == WG_SPLAT_CHANNEL_CS);

static inline float
image_sign (guint src, long k, long virtual_k, int edges)
{
  return src == WG_SPLAT_CS && edges == WG_SPLAT_EDGES_WALLS && k != virtual_k ? -1.0f : 1.0f;
}

/* The row pass at cell @i of row @in (channel @src of a splat row), taps
 * reaching past the edges. */
static inline float
row_edge_cell (const float *in, const float *row, long rx, long w, long i, guint src, int edges)
{
  float sum = 0;
  for (long a = -rx; a <= rx; a++)
    {
      long c = axis_index (i, -a, w, edges);
      if (c >= 0)
        sum += row[a + rx] * image_sign (src, c, i - a, edges) * in[WG_SPLAT_CHANNELS * c];
    }
  return sum;
}

/* The row pass of one term over splat row @in (channel @src) into @o:
 * o[i] = Σ_a row[a] · in[i − a], a from −rx to rx in that order. Cells
 * whose taps all lie inside the row take a loop without edge handling,
 * which vectorises; both add in the same order. */
static WG_HOT_KERNEL void
row_pass (float *restrict o, const float *restrict in, const float *restrict row, long rx,
          long w, guint src, int edges)
{
  const long lo = MIN (rx, w), hi = MAX (lo, w - rx);
  for (long i = lo; i < hi; i++)
    o[i] = 0;
  for (long a = -rx; a <= rx; a++)
    {
      const float c = row[a + rx];
      for (long i = lo; i < hi; i++)
        o[i] += c * in[WG_SPLAT_CHANNELS * (i - a)];
    }
  for (long i = 0; i < lo; i++)
    o[i] = row_edge_cell (in, row, rx, w, i, src, edges);
  for (long i = hi; i < w; i++)
    o[i] = row_edge_cell (in, row, rx, w, i, src, edges);
}

/* The column pass of one term at row @j, added to output channel @oc of
 * @out: the taps in order, summed per cell in @acc first, as the sums of
 * the GPU's COLS pass are. */
static WG_HOT_KERNEL void
column_pass (float *restrict out, float *restrict acc, const float *restrict tmp,
             const float *restrict col, long ry, long w, long h, long j, guint src, guint oc,
             int edges)
{
  for (long i = 0; i < w; i++)
    acc[i] = 0;
  for (long b = -ry; b <= ry; b++)
    {
      const long r = axis_index (j, -b, h, edges);
      if (r < 0)
        continue;
      const float c = col[b + ry] * image_sign (src, r, j - b, edges);
      const float *t = tmp + (gsize) r * w;
      for (long i = 0; i < w; i++)
        acc[i] += c * t[i];
    }
  float *o = out + 3 * (gsize) j * w + oc;
  for (long i = 0; i < w; i++)
    o[3 * i] += acc[i];
}

void
wg_splat_filter_cpu (float *out, float *tmp, const float *splat, guint w, guint h,
                     int edges, const WgSplatKernel *k, float strength)
{
  const long rx = k->rx, ry = k->ry, W = w, H = h;
  memset (out, 0, 3 * sizeof (float) * w * h);
  /* One term at a time (the scratch is one plane whatever the radius): its
   * row kernel over its splat channel, then its column kernel added to its
   * output channel, so every cell sums its terms in term order. */
  for (guint t = 0; t < k->n_terms; t++)
    {
      const float *row = k->coefs + k->terms[t].row, *col = k->coefs + k->terms[t].col;
      const guint src = k->terms[t].src, o = k->terms[t].out;
#pragma omp parallel for schedule(static)
      for (long j = 0; j < H; j++)
        row_pass (tmp + (gsize) j * w, splat + WG_SPLAT_CHANNELS * (gsize) j * w + src, row, rx,
                  W, src, edges);
#pragma omp parallel
      {
        g_autofree float *acc = g_new (float, w);
#pragma omp for schedule(static)
        for (long j = 0; j < H; j++)
          column_pass (out, acc, tmp, col, ry, W, H, j, src, o, edges);
      }
    }
  const gsize cells = (gsize) w * h;
#pragma omp parallel for schedule(static)
  for (gsize c = 0; c < cells; c++)
    {
      out[3 * c] *= -strength;
      out[3 * c + 1] *= -strength;
    }
}
