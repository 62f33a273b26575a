/* wg-iwave.c — iWave's vertical-derivative operator (see wg-iwave.h). */
#include "wg-iwave.h"

#include <math.h>
#include <string.h>

#define DQ 0.001
#define SIGMA 1.0
/* The paper sums n = 1 … 10000 (q up to 10); past q = 7 the terms are below
 * e^{−49} ≈ 5e-22 of the largest even with a surface-tension length of 10⁴
 * cells, so they are left out (a third of the Bessel evaluations). */
#define N_TERMS 7000

/* Kernels already computed, by "P L_T": a plan is rebuilt on every edit of
 * the graph and a P = 32 kernel takes ~4·10⁶ Bessel evaluations. Small and
 * cleared when full (a slider dragged over surface tension). */
#define CACHE_MAX 16
static GHashTable *kernel_cache;
G_LOCK_DEFINE_STATIC (kernel_cache);

static void compute_kernel (int P, double surface_tension, double *taps);

void
wg_iwave_kernel (guint radius, double surface_tension, double *taps)
{
  const gsize bytes = (gsize) (2 * radius + 1) * (2 * radius + 1) * sizeof (double);
  g_autofree char *key = g_strdup_printf ("%u %a", radius, surface_tension);
  G_LOCK (kernel_cache);
  if (kernel_cache == NULL)
    kernel_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const double *hit = g_hash_table_lookup (kernel_cache, key);
  if (hit)
    memcpy (taps, hit, bytes);
  G_UNLOCK (kernel_cache);
  if (hit)
    return;

  compute_kernel ((int) radius, surface_tension, taps);
  G_LOCK (kernel_cache);
  if (g_hash_table_size (kernel_cache) >= CACHE_MAX)
    g_hash_table_remove_all (kernel_cache);
  g_hash_table_replace (kernel_cache, g_steal_pointer (&key), g_memdup2 (taps, bytes));
  G_UNLOCK (kernel_cache);
}

static void
compute_kernel (int P, double surface_tension, double *taps)
{
  const int side = 2 * P + 1;
  g_autofree double *weight = g_new (double, N_TERMS);
  double g0 = 0;
  for (int n = 1; n <= N_TERMS; n++)
    {
      double q = n * DQ, base = q * q * exp (-SIGMA * q * q);
      g0 += base;
      weight[n - 1] = base * sqrt (1.0 + q * q * surface_tension * surface_tension);
    }
  /* G depends on r only: each distinct (k ≥ l ≥ 0) once, then mirrored. */
  const int n_distinct = (P + 1) * (P + 2) / 2;
#pragma omp parallel for schedule(dynamic)
  for (int d = 0; d < n_distinct; d++)
    {
      /* d enumerates (k, l), l ≤ k, row by row: d = k(k+1)/2 + l. */
      int k = (int) ((sqrt (8.0 * d + 1) - 1) / 2);
      while (k * (k + 1) / 2 > d)
        k--;
      while ((k + 1) * (k + 2) / 2 <= d)
        k++;
      const int l = d - k * (k + 1) / 2;
      double r = sqrt ((double) (k * k + l * l)), sum = 0;
      for (int n = 1; n <= N_TERMS; n++)
        sum += weight[n - 1] * j0 (n * DQ * r);
      double g = sum / g0;
      const int xs[] = { k, -k, k, -k, l, -l, l, -l };
      const int ys[] = { l, l, -l, -l, k, k, -k, -k };
      for (int s = 0; s < 8; s++)
        taps[(ys[s] + P) * side + xs[s] + P] = g;
    }
}

/* cos(κ k), k = −P … P, for κ = π a / S: one row per lattice index a. */
static double *
cos_table (int P, int S)
{
  const int side = 2 * P + 1;
  double *c = g_new (double, (gsize) (S + 1) * side);
  for (int a = 0; a <= S; a++)
    for (int k = -P; k <= P; k++)
      c[a * side + k + P] = cos (G_PI * a / S * k);
  return c;
}

/* Σ_k op(k, l) cos(κx k) for every row l: the inner sum of the response. */
static void
row_sums (int P, const double *op, const double *cx, double *t)
{
  const int side = 2 * P + 1;
  for (int l = 0; l < side; l++)
    {
      double row = 0;
      for (int k = 0; k < side; k++)
        row += op[l * side + k] * cx[k];
      t[l] = row;
    }
}

static double
dot (const double *a, const double *b, int n)
{
  double d = 0;
  for (int i = 0; i < n; i++)
    d += a[i] * b[i];
  return d;
}

double
wg_iwave_response (guint radius, const double *op, double kx, double ky)
{
  const int P = (int) radius, side = 2 * P + 1;
  double cx[2 * WG_IWAVE_MAX_RADIUS + 1], cy[2 * WG_IWAVE_MAX_RADIUS + 1];
  double t[2 * WG_IWAVE_MAX_RADIUS + 1];
  for (int k = -P; k <= P; k++)
    {
      cx[k + P] = cos (kx * k);
      cy[k + P] = cos (ky * k);
    }
  row_sums (P, op, cx, t);
  return dot (t, cy, side);
}

/* Lattice of κ ∈ [0, π]² on which the response is checked: 512 steps per
 * axis (a grid's own wave numbers fall anywhere in between; a 64-step
 * lattice missed dips of −1e-4 that a 256² grid then grew). */
static int
lattice (guint radius)
{
  return 512;
}

/* Calls @fn (a, b, response) for every lattice point with b ≤ a (the taps
 * are symmetric under x ↔ y, so half the quadrant is enough). */
static void
for_each_response (guint radius, const double *op,
                   void (*fn) (int a, int b, int S, double d, gpointer data), gpointer data)
{
  const int P = (int) radius, side = 2 * P + 1, S = lattice (radius);
  g_autofree double *c = cos_table (P, S);
  g_autofree double *t = g_new (double, side);
  for (int a = 0; a <= S; a++)
    {
      row_sums (P, op, c + a * side, t);
      for (int b = 0; b <= a; b++)
        fn (a, b, S, dot (t, c + b * side, side), data);
    }
}

static void
extremes_fn (int a, int b, int S, double d, gpointer data)
{
  double *mm = data;
  mm[0] = fmin (mm[0], d);
  mm[1] = fmax (mm[1], d);
}

void
wg_iwave_response_extremes (guint radius, const double *op, double *min, double *max)
{
  double mm[2] = { INFINITY, -INFINITY };
  for_each_response (radius, op, extremes_fn, mm);
  *min = mm[0];
  *max = mm[1];
}

/* The Laplacian weight that lifts the response at this point to ≥ 0. */
static void
lift_fn (int a, int b, int S, double d, gpointer data)
{
  double *beta = data;
  double lap = 4.0 - 2.0 * cos (G_PI * a / S) - 2.0 * cos (G_PI * b / S);
  if (d < 0 && lap > 0)
    *beta = fmax (*beta, -d / lap);
}

void
wg_iwave_operator (guint radius, const double *kernel, double cell, double *op,
                   double *laplacian_weight)
{
  const int P = (int) radius, side = 2 * P + 1;
  /* The constant response is removed through a Gaussian W of P/3 cells (at
   * least 1.5): its spectrum e^{−κ²σ²/2} must have fallen off by the longest
   * waves the kernel resolves (≈ P cells), or their dispersion bends — a
   * 1.5-cell W on a P = 32 kernel slows 32-cell waves by 14% — while W stays
   * well inside the kernel's support. */
  const double w_sigma = MAX (1.5, P / 3.0);
  double sum = 0, wsum = 0;
  g_autofree double *w = g_new (double, side * side);
  for (int i = 0; i < side * side; i++)
    sum += kernel[i];
  for (int l = -P; l <= P; l++)
    for (int k = -P; k <= P; k++)
      {
        double v = exp (-(k * k + l * l) / (2.0 * w_sigma * w_sigma));
        w[(l + P) * side + k + P] = v;
        wsum += v;
      }
  for (int i = 0; i < side * side; i++)
    op[i] = kernel[i] - sum * w[i] / wsum;

  /* Lift the response to ≥ 0: β L(κ), L = 4 − 2 cos κx − 2 cos κy ≥ 0 (the
   * 5-point Laplacian, 0 only at κ = 0), with β the smallest weight that
   * covers the dip at every κ of the lattice. */
  double beta = 0;
  for_each_response (radius, op, lift_fn, &beta);
  if (beta > 0)
    {
      /* 2% more covers what lies between lattice points (the response is
       * smooth: its error there is second order in the step). */
      beta *= 1.02;
      op[P * side + P] += 4.0 * beta;
      op[P * side + P + 1] -= beta;
      op[P * side + P - 1] -= beta;
      op[(P + 1) * side + P] -= beta;
      op[(P - 1) * side + P] -= beta;
    }
  if (laplacian_weight)
    *laplacian_weight = beta;

  const double scale = 1.0 / (8.0 * sqrt (G_PI) * cell);
  for (int i = 0; i < side * side; i++)
    op[i] *= scale;
}
