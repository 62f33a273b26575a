/* wg-wave-particles.c — the wave-particle bump (papers/004 eq. 2 and 4) as
 * separable filters (eq. 8–9); wg-splat-cpu.c applies them.
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

#include <math.h>
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

/* Sample @i of a 1D factor of eq. 8–9 at offset (i − @n) · @d of a bump
 * of radius @r: d(p) = ½ (cos(πp/r) + 1), or sin(πp/r) d(p) when @odd. */
static float
factor (guint i, guint n, double d, double r, gboolean odd)
{
  const double p = ((double) i - n) * d, v = wg_bump (fabs (p), r);
  return (float) (odd ? sin (G_PI * p / r) * v : v);
}

/* Appends the one term (row factor × column factor) from splat channel
 * @src to output @out. */
static void
add_product (WgSplatKernel *k, GArray *terms, GArray *coefs, double radius, double dx,
             double dy, gboolean odd_x, gboolean odd_y, guint src, guint out)
{
  WgSplatTerm t = { src, out, coefs->len, coefs->len + 2 * k->rx + 1 };
  for (guint i = 0; i <= 2 * k->rx; i++)
    {
      float f = factor (i, k->rx, dx, radius, odd_x);
      g_array_append_val (coefs, f);
    }
  for (guint i = 0; i <= 2 * k->ry; i++)
    {
      float f = factor (i, k->ry, dy, radius, odd_y);
      g_array_append_val (coefs, f);
    }
  g_array_append_val (terms, t);
}

void
wg_splat_kernel_init (WgSplatKernel *k, double radius, double dx, double dy, WgSplatFilter filter)
{
  if (filter == WG_SPLAT_FILTER_EXACT)
    {
      wg_splat_kernel_init_tolerance (k, radius, dx, dy, 1e-10);
      return;
    }
  memset (k, 0, sizeof *k);
  k->rx = MIN ((guint) ceil (radius / dx) - 1, WG_SPLAT_MAX_CELLS);
  k->ry = MIN ((guint) ceil (radius / dy) - 1, WG_SPLAT_MAX_CELLS);
  GArray *terms = g_array_new (FALSE, FALSE, sizeof (WgSplatTerm));
  GArray *coefs = g_array_new (FALSE, FALSE, sizeof (float));
  /* In the exact kernels' order: K on A; Kx on A c², Ky on A c s (Dx);
   * Kx on A c s, Ky on A s² (Dy). */
  add_product (k, terms, coefs, radius, dx, dy, FALSE, FALSE, WG_SPLAT_A, 2);
  add_product (k, terms, coefs, radius, dx, dy, TRUE, FALSE, WG_SPLAT_CC, 0);
  add_product (k, terms, coefs, radius, dx, dy, FALSE, TRUE, WG_SPLAT_CS, 0);
  add_product (k, terms, coefs, radius, dx, dy, TRUE, FALSE, WG_SPLAT_CS, 1);
  add_product (k, terms, coefs, radius, dx, dy, FALSE, TRUE, WG_SPLAT_SS, 1);
  k->n_terms = terms->len;
  k->terms = (WgSplatTerm *) g_array_free (terms, FALSE);
  k->n_coefs = coefs->len;
  k->coefs = (float *) g_array_free (coefs, FALSE);
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
