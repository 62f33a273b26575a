/* wg-iwave-fit.c — the vertical-derivative operator iWave should apply:
 * the exact response of linear water waves, and a compact kernel fitted to
 * it for the direct sum (see wg-iwave.h). */
#include "wg-iwave.h"

#include <math.h>
#include <string.h>

double
wg_iwave_exact_response (double kx, double ky, double cell, double depth, double capillary)
{
  const double k = hypot (kx, ky) / cell;
  const double shallow = depth > 0 ? tanh (k * depth) : 1.0;
  return k * shallow * (1.0 + capillary * capillary * k * k);
}

/* Σ over the distinct offsets (±k, ±l), (±l, ±k) of cos(κx dx + κy dy): the
 * response of one symmetry group of taps of weight 1. */
static double
group_response (int k, int l, double kx, double ky)
{
  const int xs[] = { k, -k, k, -k, l, -l, l, -l };
  const int ys[] = { l, l, -l, -l, k, k, -k, -k };
  double sum = 0;
  for (int s = 0; s < 8; s++)
    {
      gboolean seen = FALSE;
      for (int e = 0; e < s; e++)
        seen |= xs[e] == xs[s] && ys[e] == ys[s];
      if (!seen)
        sum += cos (kx * xs[s] + ky * ys[s]);
    }
  return sum;
}

/* Cholesky solve of the normal equations A x = b (n × n, symmetric
 * positive definite); FALSE when A is not. */
static gboolean
solve_spd (double *a, double *b, int n)
{
  for (int j = 0; j < n; j++)
    {
      double d = a[j * n + j];
      for (int k = 0; k < j; k++)
        d -= a[j * n + k] * a[j * n + k];
      if (d <= 0)
        return FALSE;
      d = sqrt (d);
      a[j * n + j] = d;
      for (int i = j + 1; i < n; i++)
        {
          double s = a[i * n + j];
          for (int k = 0; k < j; k++)
            s -= a[i * n + k] * a[j * n + k];
          a[i * n + j] = s / d;
        }
    }
  for (int i = 0; i < n; i++)
    {
      double s = b[i];
      for (int k = 0; k < i; k++)
        s -= a[i * n + k] * b[k];
      b[i] = s / a[i * n + i];
    }
  for (int i = n - 1; i >= 0; i--)
    {
      double s = b[i];
      for (int k = i + 1; k < n; k++)
        s -= a[k * n + i] * b[k];
      b[i] = s / a[i * n + i];
    }
  return TRUE;
}

#define DIRECTIONS 9 /* sample directions over [0, π/4] (the rest by symmetry) */
/* Weight of the waves shorter than 4 cells against the band's, and the
 * ridge (of the normal matrix's mean diagonal): chosen so that P = 4 … 16
 * all keep a positive response (a stable step) with the widest band. */
#define FIT_SHORT_WEIGHT 0.05
#define FIT_RIDGE 1e-10

/* Largest relative error of @w's response against the exact one over
 * wavelengths [4, @longest] cells, in every sampled direction. */
static double
band_error (int P, const double *w, double cell, double depth, double capillary, double longest,
            double step, int directions)
{
  double worst = 0;
  for (double L = 4; L <= longest * 1.0001; L *= step)
    for (int d = 0; d < directions; d++)
      {
        const double a = G_PI / 4 * d / (directions - 1), kappa = 2 * G_PI / L;
        const double kx = kappa * cos (a), ky = kappa * sin (a);
        double r = 0;
        int g = 0;
        for (int k = 0; k <= P; k++)
          for (int l = 0; l <= k; l++)
            r += w[g++] * group_response (k, l, kx, ky);
        const double exact = wg_iwave_exact_response (kx, ky, cell, depth, capillary) * cell;
        worst = fmax (worst, fabs (r / exact - 1));
      }
  return worst;
}

/* Least-squares weights per symmetry group for the band [4, @longest]
 * cells: relative error, zero response at κ = 0 (a raised pool stays
 * still), and the grid-scale waves below 4 cells pulled toward the exact
 * response lightly (they must only stay positive). Kernel units (1/cell). */
static gboolean
fit_groups (int P, double cell, double depth, double capillary, double longest, double *w)
{
  const int n = (P + 1) * (P + 2) / 2;
  g_autofree double *a = g_new0 (double, (gsize) n * n);
  g_autofree double *row = g_new (double, n);
  memset (w, 0, n * sizeof (double));
  /* Rows: the band (relative error, weight 1); waves shorter than 4 cells
   * over the whole quadrant up to the Nyquist corner, lightly (they need
   * only stay positive); κ = 0 heavily (a raised pool stays still). */
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (double) * 3);
  for (double L = 4; L <= longest * 1.0001; L *= 1.01)
    for (int d = 0; d < DIRECTIONS; d++)
      {
        const double ang = G_PI / 4 * d / (DIRECTIONS - 1), kappa = 2 * G_PI / L;
        const double r[3] = { kappa * cos (ang), kappa * sin (ang), 1 };
        g_array_append_vals (rows, r, 1);
      }
  const int S = 32;
  for (int ia = 0; ia <= S; ia++)
    for (int ib = 0; ib <= ia; ib++)
      {
        const double r[3] = { G_PI * ia / S, G_PI * ib / S, FIT_SHORT_WEIGHT };
        if (hypot (r[0], r[1]) > G_PI / 2)
          g_array_append_vals (rows, r, 1);
      }
  const double origin[3] = { 0, 0, -1 };
  g_array_append_vals (rows, origin, 1);
  for (guint q = 0; q < rows->len; q++)
    {
      const double *r = &g_array_index (rows, double, 3 * q);
      const double kx = r[0], ky = r[1];
      const double exact = wg_iwave_exact_response (kx, ky, cell, depth, capillary) * cell;
      const double weight = r[2] < 0 ? 1e3 : r[2] / exact;
      int g = 0;
      for (int k = 0; k <= P; k++)
        for (int l = 0; l <= k; l++)
          row[g++] = group_response (k, l, kx, ky) * weight;
      const double target = exact * weight;
      for (int i = 0; i < n; i++)
        {
          w[i] += row[i] * target;
          for (int j = 0; j < n; j++)
            a[i * n + j] += row[i] * row[j];
        }
    }
  g_array_unref (rows);
  /* A light ridge keeps the weights of far taps small: the system is
   * ill-conditioned (neighbouring groups respond alike to long waves). */
  double trace = 0;
  for (int i = 0; i < n; i++)
    trace += a[i * n + i];
  for (int i = 0; i < n; i++)
    a[i * n + i] += FIT_RIDGE * trace / n;
  return solve_spd (a, w, n);
}

/* Expands group weights to the (2P+1)² taps (kernel units). */
static void
expand (int P, const double *w, double *op)
{
  const int side = 2 * P + 1;
  memset (op, 0, (gsize) side * side * sizeof (double));
  int g = 0;
  for (int k = 0; k <= P; k++)
    for (int l = 0; l <= k; l++, g++)
      {
        const int xs[] = { k, -k, k, -k, l, -l, l, -l };
        const int ys[] = { l, l, -l, -l, k, k, -k, -k };
        for (int s = 0; s < 8; s++)
          op[(ys[s] + P) * side + xs[s] + P] = w[g];
      }
}

/* Fits already made, by "P cell depth L" (a P = 16 fit takes ~1 s and the
 * editor re-plans on every edit): kernel units, band, error. */
static GHashTable *fit_cache;
G_LOCK_DEFINE_STATIC (fit_cache);

static gboolean fit (int P, double cell, double depth, double capillary, double *op,
                     double *band_cells, double *band_error_out);

gboolean
wg_iwave_fit (guint radius, double cell, double depth, double capillary, double *op,
              double *band_cells, double *band_error_out)
{
  const int P = (int) radius, side = 2 * P + 1;
  if (P < 2 || P > WG_IWAVE_FIT_MAX_RADIUS)
    return FALSE;
  const gsize n = (gsize) side * side;
  g_autofree char *key = g_strdup_printf ("%d %a %a %a", P, cell, depth, capillary);
  G_LOCK (fit_cache);
  if (fit_cache == NULL)
    fit_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const double *hit = g_hash_table_lookup (fit_cache, key);
  if (hit)
    {
      memcpy (op, hit, n * sizeof (double));
      *band_cells = hit[n];
      *band_error_out = hit[n + 1];
    }
  G_UNLOCK (fit_cache);
  if (hit)
    return TRUE;
  if (!fit (P, cell, depth, capillary, op, band_cells, band_error_out))
    return FALSE;
  double *entry = g_new (double, n + 2);
  memcpy (entry, op, n * sizeof (double));
  entry[n] = *band_cells;
  entry[n + 1] = *band_error_out;
  G_LOCK (fit_cache);
  if (g_hash_table_size (fit_cache) >= 16)
    g_hash_table_remove_all (fit_cache);
  g_hash_table_replace (fit_cache, g_steal_pointer (&key), entry);
  G_UNLOCK (fit_cache);
  return TRUE;
}

static gboolean
fit (int P, double cell, double depth, double capillary, double *op, double *band_cells,
     double *band_error_out)
{
  const int side = 2 * P + 1, n = (P + 1) * (P + 2) / 2;
  g_autofree double *w = g_new (double, n), *best = g_new (double, n);
  double best_band = 0, best_error = INFINITY;
  /* The longest wave a compact kernel can follow grows with P; fit a few
   * bands and keep the one whose error stays within WG_IWAVE_FIT_TOLERANCE
   * the furthest (a kernel cannot follow |k| to k → 0: its response there
   * is ∝ k²). */
  for (double f = 1; f <= 12; f *= 1.1)
    {
      const double longest = MAX (6, f * P);
      if (!fit_groups (P, cell, depth, capillary, longest, w))
        continue;
      /* A margin for what lies between the samples; the final error is
       * measured on a finer lattice below. */
      const double err = band_error (P, w, cell, depth, capillary, longest, 1.02, DIRECTIONS);
      if (err <= 0.9 * WG_IWAVE_FIT_TOLERANCE && longest > best_band)
        {
          best_band = longest;
          best_error = err;
          memcpy (best, w, n * sizeof (double));
        }
    }
  if (best_band == 0)
    return FALSE;
  best_error = band_error (P, best, cell, depth, capillary, best_band, 1.004, 46);
  if (best_error > WG_IWAVE_FIT_TOLERANCE)
    return FALSE;
  expand (P, best, op);
  for (int i = 0; i < side * side; i++)
    op[i] /= cell;
  *band_cells = best_band;
  *band_error_out = best_error;
  return TRUE;
}
