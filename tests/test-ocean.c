/* test-ocean.c — physics of the FFT ocean: spectra calibrated against their
 * published significant wave heights, Parseval, dispersion measured from
 * frames, exact loops, determinism, resolution independence, measured buoy
 * spectra, and the choppy/normal/foam chain.
 *
 * Longer than ~600 lines: the ocean chain's physics, one suite sharing the
 * spectral measuring helpers at its top.
 */
#include "wg-test-util.h"
#include "wg-ndbc.h"
#include "wg-ocean.h"

#include <fftw3.h>
#include <math.h>
#include <string.h>

#define G 9.81

/* spectrum → evolve → fft, with extra "name=value" params for the spectrum. */
static WgGraph *
chain (guint n, double extent, double fps, guint64 seed, const char *const *spectrum_params)
{
  WgGraph *g = wg_test_graph (n, extent, fps, seed);
  wg_test_add (g, "ocean-spectrum", "spec", NULL);
  for (guint i = 0; spectrum_params && spectrum_params[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (spectrum_params[i], "=", 2);
      g_autoptr (GError) error = NULL;
      if (!wg_graph_set_param_from_text (g, "spec", kv[0], kv[1], &error))
        g_error ("%s", error->message);
    }
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  return g;
}

static double
height_variance (WgPlan *plan, gint64 frame)
{
  WgBuffer *b = wg_plan_get_node_output (plan, "fft", "height");
  const float *h = wg_test_eval (plan, frame, "fft:height");
  double mean, var;
  wg_test_moments (h, (gsize) b->width * b->height, 1, 0, &mean, &var);
  g_assert_cmpfloat (fabs (mean), <, 1e-6 + 1e-3 * sqrt (var));
  return var;
}

/* ---------------------------------------------------------------------------
 * Building blocks
 * ------------------------------------------------------------------------- */

static void
test_dispersion_relation (void)
{
  const double depths[] = { INFINITY, 100, 5, 0.5 };
  for (guint d = 0; d < G_N_ELEMENTS (depths); d++)
    for (double k = 0.001; k < 50; k *= 1.7)
      {
        double w = wg_dispersion_omega (k, depths[d], G);
        double expect = isinf (depths[d]) ? sqrt (G * k) : sqrt (G * k * tanh (k * depths[d]));
        g_assert_cmpfloat_with_epsilon (w, expect, 1e-12 * expect);
        double k2 = wg_dispersion_wavenumber (w, depths[d], G);
        g_assert_cmpfloat_with_epsilon (k2, k, 1e-9 * k);
        /* Group velocity against a central difference of ω(k). */
        double h = 1e-6 * k;
        double cg = (wg_dispersion_omega (k + h, depths[d], G) -
                     wg_dispersion_omega (k - h, depths[d], G)) / (2 * h);
        g_assert_cmpfloat_with_epsilon (wg_dispersion_group_velocity (k, depths[d], G), cg,
                                        1e-5 * cg);
      }
  /* Shallow-water limit: c = √(g d). */
  double c = wg_dispersion_omega (1e-4, 2.0, G) / 1e-4;
  g_assert_cmpfloat_with_epsilon (c, sqrt (G * 2.0), 1e-6 * c);
}

static double
integrate_direction (double (*fn) (double, gpointer), gpointer data)
{
  const int n = 200000;
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += fn (-G_PI + (i + 0.5) * 2 * G_PI / n, data);
  return sum * 2 * G_PI / n;
}

static double
cos2s_fn (double t, gpointer s)
{
  return wg_spreading_cos2s (t, *(double *) s);
}

static double
aligned_fn (double t, gpointer p)
{
  double *ao = p;
  return wg_spreading_aligned (t, ao[0], ao[1]);
}

static void
test_spreading_normalised (void)
{
  double ss[] = { 0, 0.5, 3, 10, 60, 400 };
  for (guint i = 0; i < G_N_ELEMENTS (ss); i++)
    g_assert_cmpfloat_with_epsilon (integrate_direction (cos2s_fn, &ss[i]), 1.0, 1e-6);
  double ao[][2] = { { 2, 0 }, { 2, 1 }, { 8, 0.3 }, { 0.5, 0.07 } };
  for (guint i = 0; i < G_N_ELEMENTS (ao); i++)
    g_assert_cmpfloat_with_epsilon (integrate_direction (aligned_fn, ao[i]), 1.0, 1e-5);
  /* cos-2s points downwind: all energy within ±90° for large s. */
  g_assert_cmpfloat (wg_spreading_cos2s (0, 10), >, 1e3 * wg_spreading_cos2s (G_PI * 0.9, 10));
}

static void
test_tma_factor (void)
{
  /* Deep water: no attenuation; shallow: Kitaigorodskii's ½ ωh². */
  g_assert_cmpfloat (fabs (wg_tma_depth_factor (1.0, INFINITY, G) - 1.0), <, 1e-12);
  g_assert_cmpfloat (fabs (wg_tma_depth_factor (3.0, 1000, G) - 1.0), <, 1e-9);
  for (double wh = 0.02; wh < 0.2; wh *= 1.5)
    {
      double d = 10.0, w = wh / sqrt (d / G);
      double phi = wg_tma_depth_factor (w, d, G);
      g_assert_cmpfloat_with_epsilon (phi, 0.5 * wh * wh, 0.02 * 0.5 * wh * wh);
    }
}

/* ---------------------------------------------------------------------------
 * Calibration: Hs = 4 std(h)
 * ------------------------------------------------------------------------- */

/* PM with the grid resolving the spectrum: Δk = kp/8, k_Nyquist = 32 kp. */
static double
pm_variance (double wind, guint64 seed, gboolean random_amplitude)
{
  double kp = pow (wg_pm_peak_omega (wind, G), 2) / G;
  double extent = 8 * 2 * G_PI / kp;
  g_autofree char *u = g_strdup_printf ("wind_speed=%g", wind);
  const char *params[] = { "model=pierson-moskowitz", u, "spreading=mitsuyasu",
                           random_amplitude ? "random_amplitude=true" : "random_amplitude=false",
                           NULL };
  g_autoptr (WgGraph) g = chain (512, extent, 30, seed, params);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  return height_variance (plan, 0);
}

static void
test_pm_significant_wave_height (void)
{
  const double winds[] = { 10, 20 };
  for (guint i = 0; i < G_N_ELEMENTS (winds); i++)
    {
      double U = winds[i];
      double expect = 0.209 * U * U / G;
      double hs = 4 * sqrt (pm_variance (U, 7, FALSE));
      g_test_message ("PM U=%g: Hs %.4f m, 0.209 U²/g = %.4f m (%.2f%%)", U, hs, expect,
                      100 * (hs / expect - 1));
      g_assert_cmpfloat (fabs (hs / expect - 1), <, 0.03);
    }
}

/* With Gaussian amplitudes each realisation's variance is random (a χ² over
 * the energetic modes); the mean over seeds converges to the spectrum's. */
static void
test_pm_rayleigh_ensemble (void)
{
  const double U = 10, expect = 0.209 * U * U / G;
  double sum = 0;
  const int seeds = 16;
  for (int s = 0; s < seeds; s++)
    sum += pm_variance (U, 100 + s, TRUE);
  double hs = 4 * sqrt (sum / seeds);
  g_test_message ("PM U=10 Rayleigh, %d seeds: Hs %.4f m vs %.4f m", seeds, hs, expect);
  g_assert_cmpfloat (fabs (hs / expect - 1), <, 0.03);
}

static float *
spectrum_h0 (guint n, double extent, const char *const *params, gsize *count)
{
  WgGraph *g = wg_test_graph (n, extent, 30, 3);
  wg_test_add (g, "ocean-spectrum", "spec", NULL);
  for (guint i = 0; params[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (params[i], "=", 2);
      g_autoptr (GError) error = NULL;
      if (!wg_graph_set_param_from_text (g, "spec", kv[0], kv[1], &error))
        g_error ("%s", error->message);
    }
  WgPlan *plan = wg_test_plan (g, 0);
  float *h0 = wg_test_eval_copy (plan, 0, "spec:spectrum", count);
  wg_plan_free (plan);
  wg_graph_free (g);
  return h0;
}

static void
assert_spectra_equal (const float *a, const float *b, gsize n, double rel)
{
  double peak = 0, diff = 0, energy = 0;
  for (gsize i = 0; i < n; i++)
    {
      peak = fmax (peak, fabs (a[i]));
      diff = fmax (diff, fabs (a[i] - b[i]));
      energy += (double) a[i] * a[i];
    }
  g_assert_cmpfloat (energy, >, 0);
  g_assert_cmpfloat (diff, <=, rel * peak);
}

static void
test_jonswap_gamma1_is_pm (void)
{
  const char *pm[] = { "model=pierson-moskowitz", "wind_speed=14", "spreading=hasselmann", NULL };
  const char *js[] = { "model=jonswap", "wind_speed=14", "gamma=1", "fetch=inf",
                       "spreading=hasselmann", NULL };
  gsize n1, n2;
  g_autofree float *a = spectrum_h0 (128, 800, pm, &n1);
  g_autofree float *b = spectrum_h0 (128, 800, js, &n2);
  g_assert_cmpuint (n1, ==, n2);
  assert_spectra_equal (a, b, n1, 1e-5);

  /* Peak enhancement adds energy at the peak: γ = 3.3 carries more. */
  const char *js33[] = { "model=jonswap", "wind_speed=14", "gamma=3.3", "fetch=inf",
                         "spreading=hasselmann", NULL };
  g_autofree float *c = spectrum_h0 (128, 800, js33, &n2);
  double ea = 0, ec = 0;
  for (gsize i = 0; i < n1; i++)
    {
      ea += (double) a[i] * a[i];
      ec += (double) c[i] * c[i];
    }
  g_assert_cmpfloat (ec, >, 1.2 * ea);
}

static void
test_belyaev_reduces_to_phillips (void)
{
  const char *ph[] = { "model=phillips", "wind_speed=9", "alignment=2", "opposing=1",
                       "small_wave_cutoff=0.3", NULL };
  const char *be[] = { "model=belyaev", "wind_speed=9", "gamma_plus=2", "gamma_minus=2",
                       "small_wave_cutoff=0.3", NULL };
  gsize n;
  g_autofree float *a = spectrum_h0 (128, 300, ph, &n);
  g_autofree float *b = spectrum_h0 (128, 300, be, &n);
  assert_spectra_equal (a, b, n, 1e-5);

  /* γ± shape the two half-planes: with fixed amplitudes the energy against
   * the wind over the energy with it is ∫cos¹²θ dθ / ∫cos²θ dθ over a half
   * plane, Γ(6.5)/Γ(7) / (Γ(1.5)/Γ(2)) = 0.4506; k* removes long waves. */
  const char *be2[] = { "model=belyaev", "wind_speed=9", "gamma_plus=2", "gamma_minus=12",
                        "min_wavenumber=0.05", "random_amplitude=false", NULL };
  g_autofree float *c = spectrum_h0 (128, 300, be2, &n);
  double with = 0, against = 0;
  for (guint j = 0; j < 128; j++)
    for (guint i = 0; i < 128; i++)
      {
        int kx = i < 64 ? (int) i : (int) i - 128, ky = j < 64 ? (int) j : (int) j - 128;
        gsize p = 2 * ((gsize) j * 128 + i);
        double e = (double) c[p] * c[p] + (double) c[p + 1] * c[p + 1];
        double k = hypot (kx, ky) * 2 * G_PI / 300;
        if (k <= 0.05)
          g_assert_cmpfloat (e, ==, 0);
        if (kx > 0)
          with += e;
        else if (kx < 0)
          against += e;
      }
  double expect = exp (lgamma (6.5) - lgamma (7.0) - lgamma (1.5) + lgamma (2.0));
  g_test_message ("Belyaev γ+ = 2, γ− = 12: against/with %.4f, expected %.4f", against / with,
                  expect);
  g_assert_cmpfloat (fabs (against / with / expect - 1), <, 0.05);
}

/* Mean direction and first circular moment r1 = |E[e^{iθ}]| of the modes'
 * energies (FFT-ordered n×n h̃0). */
static void
directional_moments (const float *h0, guint n, double *mean_dir, double *r1)
{
  double e = 0, c = 0, s = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double kx = i < n / 2 ? (double) i : (double) i - n;
        double ky = j < n / 2 ? (double) j : (double) j - n;
        if (kx == 0 && ky == 0)
          continue;
        const float *v = h0 + 2 * ((gsize) j * n + i);
        double w = (double) v[0] * v[0] + (double) v[1] * v[1], k = hypot (kx, ky);
        e += w;
        c += w * kx / k;
        s += w * ky / k;
      }
  *mean_dir = atan2 (s, c);
  *r1 = hypot (c, s) / e;
}

/* The modes' directions follow D(θ) in all four quadrants: with every mode
 * at its expected energy (random_amplitude=false), the mean direction is the
 * wind's and r1 is D's: s/(s+1) for cos-2s (Longuet-Higgins et al. 1963),
 * (1 − o)/(1 + o) · I(a+1)/I(a) for Phillips' |cos θ|^a with opposing o,
 * I(a) = ∫_{−π/2}^{π/2} cos^a θ dθ. */
static void
test_directional_moments (void)
{
  const struct {
    const char *model;
    double wind_direction, spread, alignment, opposing;
  } cases[] = {
    { "jonswap", 30, 4, 0, 0 },
    { "jonswap", -120, 20, 0, 0 },
    { "phillips", 135, 0, 2, 0.25 },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *model = g_strdup_printf ("model=%s", cases[c].model);
      g_autofree char *dir = g_strdup_printf ("wind_direction=%g", cases[c].wind_direction);
      g_autofree char *spread = g_strdup_printf ("spread=%g", cases[c].spread);
      g_autofree char *align = g_strdup_printf ("alignment=%g", cases[c].alignment);
      g_autofree char *opp = g_strdup_printf ("opposing=%g", cases[c].opposing);
      const char *params[] = { model, "wind_speed=12", dir, "spreading=cos2s", spread,
                               align, opp, "random_amplitude=false", NULL };
      if (cases[c].alignment > 0)
        params[4] = "spreading=phillips";
      const guint n = 256;
      gsize count;
      g_autofree float *h0 = spectrum_h0 (n, 2000, params, &count);
      double mean_dir, r1, expect;
      directional_moments (h0, n, &mean_dir, &r1);
      if (cases[c].alignment > 0)
        {
          double a = cases[c].alignment, o = cases[c].opposing;
          expect = (1 - o) / (1 + o) *
                   exp (lgamma (0.5 * (a + 2)) - lgamma (0.5 * a + 1.5) - lgamma (0.5 * (a + 1)) +
                        lgamma (0.5 * a + 1));
        }
      else
        expect = cases[c].spread / (cases[c].spread + 1);
      double dir_err = remainder (mean_dir - cases[c].wind_direction * G_PI / 180, 2 * G_PI);
      g_test_message ("%s: mean direction off by %.3g°, r1 %.4f, expected %.4f", params[0],
                      dir_err * 180 / G_PI, r1, expect);
      g_assert_cmpfloat (fabs (dir_err), <, 0.2 * G_PI / 180);
      g_assert_cmpfloat (fabs (r1 / expect - 1), <, 0.003);
    }
}

/* Parseval: the surface's variance is the spectrum's integral over the band
 * the grid resolves. The integral is a 4× finer quadrature of the same F. */
static void
test_parseval (void)
{
  const char *p[] = { "model=jonswap", "wind_speed=8", "fetch=50000", "spreading=mitsuyasu",
                      "random_amplitude=false", NULL };
  const guint n = 256;
  const double L = 600;
  g_autoptr (WgGraph) g = chain (n, L, 30, 5, p);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  double var = height_variance (plan, 3);

  /* Discrete Parseval of the synthesis itself: var = Σ|h̃(k, t)|². */
  WgBuffer *hb = wg_plan_get_node_output (plan, "evolve", "spectrum");
  const float *h = wg_buffer_read (hb, NULL);
  double sum = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i <= n / 2; i++)
      {
        const float *c = h + 2 * ((gsize) j * (n / 2 + 1) + i);
        double w = (i == 0 || i == n / 2) ? 1 : 2;
        if (!(i == 0 && j == 0))
          sum += w * ((double) c[0] * c[0] + (double) c[1] * c[1]);
      }
  g_assert_cmpfloat_with_epsilon (var, sum, 1e-4 * sum);

  /* ∫F over the resolved square band |kx|, |ky| < π/Δ, by a quadrature 4×
   * finer in k: the same band on a 4× larger patch with 4× the cells, where
   * each fixed-amplitude mode holds |h̃0|² = F Δk²/2. */
  gsize count;
  g_autofree float *fine = spectrum_h0 (4 * n, 4 * L, p, &count);
  double integral = 0;
  for (gsize i = 0; i < count / 2; i++)
    integral += 2.0 * ((double) fine[2 * i] * fine[2 * i] + (double) fine[2 * i + 1] * fine[2 * i + 1]);
  g_test_message ("Parseval: var(h) %.6g m², ∫F dk %.6g m² (%.3f%%)", var, integral,
                  100 * (var / integral - 1));
  g_assert_cmpfloat (fabs (var / integral - 1), <, 0.01);
}

/* The fft node's five outputs (height, Dx, Dy, ∂h/∂x, ∂h/∂y) checked
 * against double-precision FFTW c2c transforms of the full spectrum: a half
 * spectrum (@half) is expanded by Hermitian symmetry, a full grid folded to
 * ½(X(k) + conj X(−k)), whose transform is the real part of X's. The
 * derivatives i k h̃ and i (k/|k|) h̃ drop the Nyquist row and column and
 * k = 0, the node's convention. Returns the share of the slopes' energy
 * those dropped Nyquist terms would add, so callers can check the input
 * exercises them. */
static double
check_fft_outputs (WgPlan *plan, const char *spectrum_port, guint n, double L, gboolean half)
{
  gsize count;
  g_autofree float *x = wg_test_eval_copy (plan, 0, spectrum_port, &count);
  const guint hw = n / 2 + 1;
  g_assert_cmpuint (count, ==, 2 * (gsize) n * (half ? hw : n));

  /* Reference arrays: h, Dx, Dy, ∂h/∂x, ∂h/∂y, then both slopes with their Nyquist terms. */
  enum { N_REF = 7 };
  fftw_complex *ref[N_REF];
  for (int a = 0; a < N_REF; a++)
    ref[a] = fftw_alloc_complex ((gsize) n * n);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        gsize p = (gsize) j * n + i;
        guint im = (n - i) % n, jm = (n - j) % n;
        double re, imag;
        if (half)
          {
            const float *v = i < hw ? x + 2 * ((gsize) j * hw + i) : x + 2 * ((gsize) jm * hw + im);
            re = v[0];
            imag = i < hw ? v[1] : -v[1];
          }
        else
          {
            const float *a = x + 2 * p, *z = x + 2 * ((gsize) jm * n + im);
            re = 0.5 * ((double) a[0] + z[0]);
            imag = 0.5 * ((double) a[1] - z[1]);
          }
        double kx = 2 * G_PI / L * (i < n / 2 ? (double) i : (double) i - n);
        double ky = 2 * G_PI / L * (j < n / 2 ? (double) j : (double) j - n);
        gboolean keep = i != n / 2 && j != n / 2 && p != 0;
        double inv = keep ? 1.0 / hypot (kx, ky) : 0.0;
        double sx[2] = { -kx * imag, kx * re }, sy[2] = { -ky * imag, ky * re };
        ref[0][p][0] = re, ref[0][p][1] = imag;
        for (int c = 0; c < 2; c++)
          {
            ref[1][p][c] = sx[c] * inv;
            ref[2][p][c] = sy[c] * inv;
            ref[3][p][c] = keep ? sx[c] : 0.0;
            ref[4][p][c] = keep ? sy[c] : 0.0;
            ref[5][p][c] = sx[c];
            ref[6][p][c] = sy[c];
          }
      }
  for (int a = 0; a < N_REF; a++)
    {
      fftw_plan fp = fftw_plan_dft_2d ((int) n, (int) n, ref[a], ref[a], FFTW_BACKWARD,
                                       FFTW_ESTIMATE);
      fftw_execute (fp);
      fftw_destroy_plan (fp);
    }

  const float *height = wg_test_eval (plan, 0, "fft:height");
  const float *disp = wg_test_eval (plan, 0, "fft:displacement");
  const float *slope = wg_test_eval (plan, 0, "fft:slope");
  double err[5] = { 0 }, norm[5] = { 0 }, nyquist = 0, slope_norm = 0;
  for (gsize p = 0; p < (gsize) n * n; p++)
    {
      const double got[5] = { height[p], disp[2 * p], disp[2 * p + 1], slope[2 * p],
                              slope[2 * p + 1] };
      for (int a = 0; a < 5; a++)
        {
          err[a] += (got[a] - ref[a][p][0]) * (got[a] - ref[a][p][0]);
          norm[a] += ref[a][p][0] * ref[a][p][0];
        }
      for (int a = 3; a < 5; a++)
        {
          nyquist += (ref[a + 2][p][0] - ref[a][p][0]) * (ref[a + 2][p][0] - ref[a][p][0]);
          slope_norm += ref[a][p][0] * ref[a][p][0];
        }
    }
  for (int a = 0; a < 5; a++)
    {
      g_test_message ("output %d: relative L2 error %.3g", a, sqrt (err[a] / norm[a]));
      g_assert_cmpfloat (norm[a], >, 0);
      g_assert_cmpfloat (sqrt (err[a] / norm[a]), <, 1e-5);
    }
  for (int a = 0; a < N_REF; a++)
    fftw_free (ref[a]);
  return sqrt (nyquist / slope_norm);
}

static void
test_fft_full_grid (void)
{
  const guint n = 64;
  const double L = 64;
  g_autoptr (WgGraph) g = wg_test_graph (n, L, 30, 5);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=6", "small_wave_cutoff=4", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_link (g, "spec:spectrum", "fft:spectrum");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  g_assert_nonnull (wg_plan_get_node_output (plan, "spec", "spectrum"));
  check_fft_outputs (plan, "spec:spectrum", n, L, FALSE);
}

static void
cancel_at_fft (guint done, guint total, const char *node, gpointer cancellable)
{
  if (g_strcmp0 (node, "fft") == 0)
    g_cancellable_cancel (cancellable);
}

/* The usual input, spectrum-evolve's half spectrum, replaced by the r2c
 * transform of white noise: unlike ocean-spectrum's output it has energy at
 * the Nyquist row and column, which the derivatives must drop (the CPU
 * slopes subtract the Nyquist row back out of a column transform shared
 * with the height). A cancelled evaluation stops before the fft node, which
 * stays marked; the spectrum is replaced without evaluating, and the next
 * evaluation runs only fft, on the injected spectrum. 3 threads: bands of
 * uneven length. */
static void
test_fft_half_spectrum (void)
{
  const guint n = 64, hw = n / 2 + 1;
  const double L = 32;
  g_autoptr (WgGraph) g = wg_test_graph (n, L, 30, 9);
  wg_test_add (g, "ocean-spectrum", "spec", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 3);
  /* Every output wanted from the start: a new one would re-prepare fft and
   * let it run on the original spectrum first. */
  const char *const ports[] = { "height", "displacement", "slope" };
  for (guint p = 0; p < G_N_ELEMENTS (ports); p++)
    g_assert_nonnull (wg_plan_get_node_output (plan, "fft", ports[p]));
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_plan_evaluate_cancellable (plan, 0, cancel, cancel_at_fft, cancel, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  double *noise = fftw_alloc_real ((gsize) n * n);
  fftw_complex *half = fftw_alloc_complex ((gsize) n * hw);
  GRand *rand = g_rand_new_with_seed (17);
  for (gsize p = 0; p < (gsize) n * n; p++)
    noise[p] = g_rand_double_range (rand, -1, 1) / n;
  g_rand_free (rand);
  fftw_plan fp = fftw_plan_dft_r2c_2d ((int) n, (int) n, noise, half, FFTW_ESTIMATE);
  fftw_execute (fp);
  fftw_destroy_plan (fp);
  WgBuffer *spectrum = wg_plan_get_node_output (plan, "evolve", "spectrum");
  g_assert_true (spectrum->half);
  g_assert_cmpuint (spectrum->n_floats, ==, 2 * (gsize) n * hw);
  g_assert_nonnull (wg_buffer_read (spectrum, NULL)); /* a current CPU copy, not evaluating */
  for (gsize p = 0; p < (gsize) n * hw; p++)
    {
      spectrum->data[2 * p] = (float) half[p][0];
      spectrum->data[2 * p + 1] = (float) half[p][1];
    }
  spectrum->cpu_valid = TRUE;
  spectrum->gpu_valid = FALSE;
  fftw_free (noise);
  fftw_free (half);

  double nyquist = check_fft_outputs (plan, "evolve:spectrum", n, L, TRUE);
  g_test_message ("Nyquist terms: %.3g of the slopes", nyquist);
  g_assert_cmpfloat (nyquist, >, 0.1);
}

/* ---------------------------------------------------------------------------
 * Dispersion measured from frames
 * ------------------------------------------------------------------------- */

typedef struct {
  double amp;
  guint i, j;
} Mode;

static int
mode_cmp (gconstpointer a, gconstpointer b)
{
  double x = ((const Mode *) a)->amp, y = ((const Mode *) b)->amp;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Phase speed of the strongest modes from the change of their Fourier phase
 * between two frames: a wave along +k gains phase −ωΔt. */
static void
check_phase_speed (const char *depth)
{
  const guint n = 256;
  const double L = 400, fps = 10, dt = 1.0;
  const double d = g_ascii_strtod (depth, NULL);
  g_autofree char *dp = g_strdup_printf ("depth=%s", depth);
  const char *p[] = { "model=pierson-moskowitz", "wind_speed=10", "spreading=cos2s",
                      "spread=40", "random_amplitude=false", dp, NULL };
  g_autoptr (WgGraph) g = chain (n, L, fps, 11, p);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *h1 = wg_test_eval_copy (plan, 0, "fft:height", NULL);
  g_autofree float *h2 = wg_test_eval_copy (plan, (gint64) (dt * fps), "fft:height", NULL);

  /* The reference transform in double: FFTW's, independent of the build's FFT. */
  const gsize cells = (gsize) n * n, hw = n / 2 + 1;
  double *h = fftw_alloc_real (cells);
  fftw_complex *X1 = fftw_alloc_complex (n * hw), *X2 = fftw_alloc_complex (n * hw);
  fftw_plan p1 = fftw_plan_dft_r2c_2d ((int) n, (int) n, h, X1, FFTW_ESTIMATE);
  fftw_plan p2 = fftw_plan_dft_r2c_2d ((int) n, (int) n, h, X2, FFTW_ESTIMATE);
  for (gsize c = 0; c < cells; c++)
    h[c] = h1[c];
  fftw_execute (p1);
  for (gsize c = 0; c < cells; c++)
    h[c] = h2[c];
  fftw_execute (p2);

  /* Wind along +x: the waves' modes have kx > 0. */
  g_autoptr (GArray) modes = g_array_new (FALSE, FALSE, sizeof (Mode));
  for (guint j = 0; j < n; j++)
    for (guint i = 1; i < n / 2; i++)
      {
        Mode m = { hypot (X1[j * hw + i][0], X1[j * hw + i][1]), i, j };
        g_array_append_val (modes, m);
      }
  g_array_sort (modes, mode_cmp);
  for (guint q = 0; q < 25; q++)
    {
      const Mode *m = &g_array_index (modes, Mode, q);
      const fftw_complex *a = &X1[m->j * hw + m->i], *b = &X2[m->j * hw + m->i];
      /* arg(b / a) */
      double re = (*b)[0] * (*a)[0] + (*b)[1] * (*a)[1];
      double im = (*b)[1] * (*a)[0] - (*b)[0] * (*a)[1];
      double omega = -atan2 (im, re) / dt;
      int ky = m->j < n / 2 ? (int) m->j : (int) m->j - (int) n;
      double k = hypot ((double) m->i, (double) ky) * 2 * G_PI / L;
      double c_theory = isinf (d) ? sqrt (G / k) : sqrt (G * tanh (k * d) / k);
      double c = omega / k;
      if (q < 3)
        g_test_message ("depth %s: k %.4f rad/m, c %.4f m/s, theory %.4f m/s", depth, k, c,
                        c_theory);
      g_assert_cmpfloat (fabs (c / c_theory - 1), <, 0.01);
    }
  fftw_destroy_plan (p1);
  fftw_destroy_plan (p2);
  fftw_free (h);
  fftw_free (X1);
  fftw_free (X2);
}

static void
test_dispersion_deep (void)
{
  check_phase_speed ("inf");
}

static void
test_dispersion_finite_depth (void)
{
  check_phase_speed ("5");
}

static void
test_loop (void)
{
  const char *p[] = { "model=jonswap", "wind_speed=10", NULL };
  g_autoptr (WgGraph) g = chain (128, 200, 10, 2, p);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_double (g, "evolve", "loop_period", 4.0, &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  gsize n;
  g_autofree float *f0 = wg_test_eval_copy (plan, 0, "fft:height", &n);
  g_autofree float *f20 = wg_test_eval_copy (plan, 20, "fft:height", NULL);
  g_autofree float *f40 = wg_test_eval_copy (plan, 40, "fft:height", NULL);
  g_autofree float *f80 = wg_test_eval_copy (plan, 80, "fft:height", NULL);
  g_assert_cmpmem (f0, n * sizeof (float), f40, n * sizeof (float));
  g_assert_cmpmem (f0, n * sizeof (float), f80, n * sizeof (float));
  g_assert_cmpfloat (wg_test_correlation (f0, f20, n), <, 0.9);
}

/* ---------------------------------------------------------------------------
 * Determinism and resolution
 * ------------------------------------------------------------------------- */

static WgGraph *
full_chain (guint n, double extent)
{
  const char *p[] = { "model=jonswap", "wind_speed=12", "fetch=80000", "swell=0.4", NULL };
  WgGraph *g = chain (n, extent, 24, 9, p);
  wg_test_add (g, "choppy-displacement", "chop", "choppiness=1.5", NULL);
  wg_test_add (g, "normals", "normals", NULL);
  wg_test_add (g, "foam", "foam", "threshold=0.7", NULL);
  wg_test_link (g, "fft:height", "chop:height");
  wg_test_link (g, "fft:displacement", "chop:displacement");
  wg_test_link (g, "chop:displacement", "normals:displacement");
  wg_test_link (g, "fft:slope", "normals:slope");
  wg_test_link (g, "chop:displacement", "foam:displacement");
  return g;
}

static void
test_thread_determinism (void)
{
  g_autoptr (WgGraph) g = full_chain (256, 256);
  g_autoptr (WgPlan) p1 = wg_test_plan (g, 1);
  g_autoptr (WgPlan) p2 = wg_test_plan (g, 2);
  const char *outs[] = { "fft:height", "chop:displacement", "normals:normal", "foam:foam" };
  for (gint64 f = 0; f < 4; f++)
    for (guint o = 0; o < G_N_ELEMENTS (outs); o++)
      {
        gsize n;
        g_autofree float *a = wg_test_eval_copy (p1, f, outs[o], &n);
        g_autofree float *b = wg_test_eval_copy (p2, f, outs[o], NULL);
        g_assert_cmpmem (a, n * sizeof (float), b, n * sizeof (float));
      }
}

static void
test_resolution_independence (void)
{
  const char *p[] = { "model=jonswap", "wind_speed=10", "fetch=100000", NULL };
  g_autoptr (WgGraph) g1 = chain (256, 256, 30, 21, p);
  g_autoptr (WgGraph) g2 = chain (512, 256, 30, 21, p);
  g_autoptr (WgPlan) p1 = wg_test_plan (g1, 0);
  g_autoptr (WgPlan) p2 = wg_test_plan (g2, 0);
  const float *a = wg_test_eval (p1, 12, "fft:height");
  const float *b = wg_test_eval (p2, 12, "fft:height");
  /* The coarse grid's points are the fine grid's even points. */
  g_autofree float *down = g_new (float, 256 * 256);
  for (guint j = 0; j < 256; j++)
    for (guint i = 0; i < 256; i++)
      down[j * 256 + i] = b[(2 * j) * 512 + 2 * i];
  double r = wg_test_correlation (a, down, 256 * 256);
  g_test_message ("256² vs 512²: correlation %.5f", r);
  g_assert_cmpfloat (r, >, 0.99);
  /* A different seed is a different sea. */
  g_autoptr (WgGraph) g3 = chain (256, 256, 30, 22, p);
  g_autoptr (WgPlan) p3 = wg_test_plan (g3, 0);
  g_assert_cmpfloat (fabs (wg_test_correlation (a, wg_test_eval (p3, 12, "fft:height"), 256 * 256)),
                     <, 0.2);
}

/* ---------------------------------------------------------------------------
 * Measured buoy spectrum
 * ------------------------------------------------------------------------- */

static void
test_measured_hs (void)
{
  g_autofree char *path = wg_test_source_path ("graphs", "data", "ndbc-2018-01-01.txt", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgNdbcFile) file = wg_ndbc_file_load (path, &error);
  g_assert_no_error (error);
  const char *hours[] = { "2018-01-01 00:40", "2018-01-01 05:40", "2018-01-01 11:40",
                          "2018-01-01 17:40", "2018-01-01 23:40" };
  for (guint h = 0; h < G_N_ELEMENTS (hours); h++)
    {
      int rec = wg_ndbc_file_find_record (file, hours[h], &error);
      g_assert_no_error (error);
      double hm0 = wg_ndbc_file_hm0 (file, (guint) rec, &error);
      g_assert_no_error (error);

      g_autofree char *bf = g_strdup_printf ("buoy_file=%s", path);
      g_autofree char *bt = g_strdup_printf ("buoy_time=%s", hours[h]);
      const char *p[] = { "model=measured", bf, bt, "spreading=cos2s", "spread=8",
                          "random_amplitude=false", "samples=4", NULL };
      g_autoptr (WgGraph) g = chain (512, 1000, 30, 4, p);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      double hs = 4 * sqrt (height_variance (plan, 0));
      g_test_message ("%s: Hs %.4f m, file Hm0 %.4f m (%.2f%%)", hours[h], hs, hm0,
                      100 * (hs / hm0 - 1));
      g_assert_cmpfloat (fabs (hs / hm0 - 1), <, 0.03);
    }
}

/* ---------------------------------------------------------------------------
 * Choppy displacement, normals, foam
 * ------------------------------------------------------------------------- */

static void
test_choppy_sharpens_crests (void)
{
  g_autoptr (WgGraph) g = full_chain (256, 200);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const gsize n = 256 * 256;
  WgBuffer *jb = wg_plan_get_node_output (plan, "foam", "jacobian");
  const float *h = wg_test_eval (plan, 5, "fft:height");
  WgBuffer *db = wg_plan_get_node_output (plan, "fft", "displacement");
  WgBuffer *sb = wg_plan_get_node_output (plan, "fft", "slope");
  const float *J = wg_buffer_read (jb, NULL), *D = wg_buffer_read (db, NULL),
              *S = wg_buffer_read (sb, NULL);
  double mean, var;
  wg_test_moments (h, n, 1, 0, &mean, &var);
  double sd = sqrt (var), crest = 0, trough = 0, uphill = 0;
  guint nc = 0, nt = 0;
  for (gsize p = 0; p < n; p++)
    {
      if (h[p] > sd)
        crest += J[p], nc++;
      else if (h[p] < -sd)
        trough += J[p], nt++;
      uphill += D[2 * p] * S[2 * p] + D[2 * p + 1] * S[2 * p + 1];
    }
  crest /= nc;
  trough /= nt;
  g_test_message ("mean Jacobian: crests %.3f, troughs %.3f", crest, trough);
  /* Points crowd into crests (J < 1) and spread in troughs (J > 1), and the
   * horizontal displacement points uphill, as in a Gerstner wave. */
  g_assert_cmpfloat (crest, <, 0.97);
  g_assert_cmpfloat (trough, >, 1.03);
  g_assert_cmpfloat (uphill, >, 0);

  /* The spectral map is exactly (λDx, λDy, h), cell by cell (λ = 1.5). */
  const float *chop = wg_buffer_read (wg_plan_get_node_output (plan, "chop", "displacement"), NULL);
  for (gsize p = 0; p < n; p++)
    if (chop[3 * p] != 1.5f * D[2 * p] || chop[3 * p + 1] != 1.5f * D[2 * p + 1] ||
        chop[3 * p + 2] != h[p])
      g_error ("chop:displacement at cell %" G_GSIZE_FORMAT ": (%g, %g, %g), want (%g, %g, %g)",
               p, chop[3 * p], chop[3 * p + 1], chop[3 * p + 2], 1.5f * D[2 * p],
               1.5f * D[2 * p + 1], h[p]);

  /* Belyaev's shortcut moves points the same way. */
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g2 = wg_graph_copy (g);
  g_assert_true (wg_graph_set_param_string (g2, "chop", "method", "finite-difference", &error));
  g_autoptr (WgPlan) plan2 = wg_test_plan (g2, 0);
  const float *d_fd = wg_test_eval (plan2, 5, "chop:displacement");
  const float *d_sp = wg_test_eval (plan, 5, "chop:displacement");
  double dot = 0;
  for (gsize p = 0; p < n; p++)
    dot += d_fd[3 * p] * d_sp[3 * p] + d_fd[3 * p + 1] * d_sp[3 * p + 1];
  g_assert_cmpfloat (dot, >, 0);
}

static void
test_normals (void)
{
  /* λ = 0: the normal is normalize(−∂h/∂x, −∂h/∂y, 1) from the exact slopes. */
  g_autoptr (WgGraph) g = full_chain (128, 128);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 0.0, &error));
  g_assert_true (wg_graph_set_param_double (g, "spec", "small_wave_cutoff", 1.5, &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const gsize n = 128 * 128;
  const float *N = wg_test_eval (plan, 0, "normals:normal");
  const float *S = wg_buffer_read (wg_plan_get_node_output (plan, "fft", "slope"), NULL);
  for (gsize p = 0; p < n; p++)
    {
      double inv = 1.0 / sqrt (1.0 + S[2 * p] * S[2 * p] + S[2 * p + 1] * S[2 * p + 1]);
      g_assert_cmpfloat (fabs (N[3 * p] + S[2 * p] * inv), <, 1e-6);
      g_assert_cmpfloat (fabs (N[3 * p + 1] + S[2 * p + 1] * inv), <, 1e-6);
      g_assert_cmpfloat (fabs (N[3 * p + 2] - inv), <, 1e-6);
    }

  /* With choppiness: unit length, and Belyaev's finite differences agree
   * with the spectral normals on a well-resolved sea. */
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 1.0, &error));
  g_autoptr (WgPlan) sp = wg_test_plan (g, 0);
  g_assert_true (wg_graph_set_param_string (g, "normals", "method", "finite-difference", &error));
  g_autoptr (WgPlan) fd = wg_test_plan (g, 0);
  const float *a = wg_test_eval (sp, 0, "normals:normal");
  const float *b = wg_test_eval (fd, 0, "normals:normal");
  double mean_dot = 0;
  for (gsize p = 0; p < n; p++)
    {
      double la = sqrt (a[3 * p] * a[3 * p] + a[3 * p + 1] * a[3 * p + 1] + a[3 * p + 2] * a[3 * p + 2]);
      g_assert_cmpfloat (fabs (la - 1), <, 1e-5);
      mean_dot += a[3 * p] * b[3 * p] + a[3 * p + 1] * b[3 * p + 1] + a[3 * p + 2] * b[3 * p + 2];
    }
  mean_dot /= (double) n;
  g_test_message ("spectral vs finite-difference normals: mean cos %.6f", mean_dot);
  g_assert_cmpfloat (mean_dot, >, 0.998);
}

/* A plain height field (input "height"): with the fft's slopes the normals
 * are the λ = 0 normals of the displaced surface; by central differences
 * they are the differences' normals exactly, and close to the spectral ones
 * on a well-resolved sea. Clamped edges use one-sided differences. */
static void
test_height_normals (void)
{
  g_autoptr (WgGraph) g = full_chain (128, 128);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 0.0, &error));
  g_assert_true (wg_graph_set_param_double (g, "spec", "small_wave_cutoff", 1.5, &error));
  wg_test_add (g, "normals", "hs", NULL);
  wg_test_link (g, "fft:height", "hs:height");
  wg_test_link (g, "fft:slope", "hs:slope");
  wg_test_add (g, "normals", "hd", "method=finite-difference", NULL);
  wg_test_link (g, "fft:height", "hd:height");
  wg_test_add (g, "normals", "he", "method=finite-difference", "wrap=false", NULL);
  wg_test_link (g, "fft:height", "he:height");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const guint w = 128;
  const gsize n = (gsize) w * w;
  g_autofree float *ref = wg_test_eval_copy (plan, 0, "normals:normal", NULL);
  g_autofree float *hs = wg_test_eval_copy (plan, 0, "hs:normal", NULL);
  g_autofree float *hd = wg_test_eval_copy (plan, 0, "hd:normal", NULL);
  g_autofree float *he = wg_test_eval_copy (plan, 0, "he:normal", NULL);
  const float *h = wg_test_eval (plan, 0, "fft:height");
  double mean_dot = 0;
  for (gsize p = 0; p < 3 * n; p++)
    g_assert_cmpfloat (fabs (hs[p] - ref[p]), <, 1e-6);
  for (guint j = 0; j < w; j++)
    for (guint i = 0; i < w; i++)
      {
        gsize p = (gsize) j * w + i;
        /* Δ = 1 m: central differences, wrapped; one-sided at clamped edges. */
        double gx = (h[j * w + (i + 1) % w] - h[j * w + (i + w - 1) % w]) / 2;
        double gy = (h[((j + 1) % w) * w + i] - h[((j + w - 1) % w) * w + i]) / 2;
        double inv = 1 / sqrt (1 + gx * gx + gy * gy);
        g_assert_cmpfloat (fabs (hd[3 * p] + gx * inv), <, 1e-5);
        g_assert_cmpfloat (fabs (hd[3 * p + 1] + gy * inv), <, 1e-5);
        g_assert_cmpfloat (fabs (hd[3 * p + 2] - inv), <, 1e-5);
        mean_dot += hd[3 * p] * ref[3 * p] + hd[3 * p + 1] * ref[3 * p + 1] +
                    hd[3 * p + 2] * ref[3 * p + 2];
        if (i == 0 && j > 0 && j + 1 < w)
          {
            double ex = h[j * w + 1] - h[j * w];
            double ie = 1 / sqrt (1 + ex * ex + gy * gy);
            g_assert_cmpfloat (fabs (he[3 * p] + ex * ie), <, 1e-5);
          }
        else if (i > 0 && i + 1 < w && j > 0 && j + 1 < w)
          g_assert_cmpfloat (fabs (he[3 * p] - hd[3 * p]), <, 1e-7);
      }
  mean_dot /= (double) n;
  g_assert_cmpfloat (mean_dot, >, 0.999);

  /* Exactly one of displacement and height. */
  wg_test_link (g, "chop:displacement", "hd:displacement");
  WgPlanOptions o = { wg_test_backend, 0, FALSE, NULL, FALSE };
  g_autoptr (WgPlan) both = wg_plan_new (g, &o, &error);
  g_assert_null (both);
  g_assert_nonnull (strstr (error->message, "not both"));
}

static void
test_foam (void)
{
  g_autoptr (WgGraph) g = full_chain (128, 100);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 2.5, &error));
  g_assert_true (wg_graph_set_param_double (g, "foam", "decay", 0.8, &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  wg_plan_get_node_output (plan, "foam", "jacobian");
  const gsize n = 128 * 128;
  const float thr = 0.7f, inv_falloff = 1.0f / 0.5f, decay = 0.8f;
  g_autofree float *prev = g_new0 (float, n);
  double covered = 0;
  for (gint64 f = 0; f < 6; f++)
    {
      const float *foam = wg_test_eval (plan, f, "foam:foam");
      const float *J = wg_buffer_read (wg_plan_get_node_output (plan, "foam", "jacobian"), NULL);
      for (gsize p = 0; p < n; p++)
        {
          float fresh = fminf (fmaxf ((thr - J[p]) * inv_falloff, 0.0f), 1.0f);
          g_assert_cmpfloat (foam[p], ==, fmaxf (fresh, decay * prev[p]));
          covered += foam[p] > 0.5f;
        }
      memcpy (prev, foam, n * sizeof (float));
    }
  g_assert_cmpfloat (covered, >, 0);

  /* A jump in time starts the foam over (no memory of unrelated frames). */
  const float *again = wg_test_eval (plan, 100, "foam:foam");
  const float *J = wg_buffer_read (wg_plan_get_node_output (plan, "foam", "jacobian"), NULL);
  for (gsize p = 0; p < n; p++)
    g_assert_cmpfloat (again[p], ==, fminf (fmaxf ((thr - J[p]) * inv_falloff, 0.0f), 1.0f));

  /* Without choppiness nothing folds: J = 1 and no foam below threshold 1. */
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 0.0, &error));
  g_autoptr (WgPlan) flat = wg_test_plan (g, 0);
  wg_plan_get_node_output (flat, "foam", "jacobian");
  const float *foam = wg_test_eval (flat, 0, "foam:foam");
  J = wg_buffer_read (wg_plan_get_node_output (flat, "foam", "jacobian"), NULL);
  for (gsize p = 0; p < n; p++)
    {
      g_assert_cmpfloat (J[p], ==, 1.0f);
      g_assert_cmpfloat (foam[p], ==, 0.0f);
    }
}

/* Central differences of channel @ch of the displacement map at (i, j):
 * periodic with @wrap, else one-sided at the borders. */
static void
displacement_gradient (const float *d, guint w, guint h, double dx, double dy, gboolean wrap,
                       guint i, guint j, guint ch, double *ddx, double *ddy)
{
  guint ie = i + 1 < w ? i + 1 : (wrap ? 0 : i), iw = i > 0 ? i - 1 : (wrap ? w - 1 : i);
  guint jn = j + 1 < h ? j + 1 : (wrap ? 0 : j), js = j > 0 ? j - 1 : (wrap ? h - 1 : j);
  double sx = (wrap || ie == iw + 2) ? 2 * dx : dx, sy = (wrap || jn == js + 2) ? 2 * dy : dy;
  *ddx = ((double) d[3 * ((gsize) j * w + ie) + ch] - d[3 * ((gsize) j * w + iw) + ch]) / sx;
  *ddy = ((double) d[3 * ((gsize) jn * w + i) + ch] - d[3 * ((gsize) js * w + i) + ch]) / sy;
}

/* Every cell's Jacobian (foam) and normal (spectral method) is the one of
 * the displaced surface P = (x0 + λDx, y0 + λDy, h): tangents from central
 * differences of the displacement map and the fft's exact slopes, worked
 * here in double. Pins the stencils' rows, columns and borders, periodic
 * and clamped. */
static void
test_jacobian_stencil (void)
{
  const guint n = 128;
  const double extent = 100, dx = extent / n;
  for (int wrap = 1; wrap >= 0; wrap--)
    {
      g_autoptr (WgGraph) g = full_chain (n, extent);
      g_autoptr (GError) error = NULL;
      g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 2.5, &error));
      g_assert_true (wg_graph_set_param_bool (g, "normals", "wrap", wrap, &error));
      g_assert_true (wg_graph_set_param_bool (g, "foam", "wrap", wrap, &error));
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      wg_plan_get_node_output (plan, "foam", "jacobian");
      g_autofree float *N = wg_test_eval_copy (plan, 3, "normals:normal", NULL);
      const float *J = wg_buffer_read (wg_plan_get_node_output (plan, "foam", "jacobian"), NULL);
      const float *D = wg_buffer_read (wg_plan_get_node_output (plan, "chop", "displacement"), NULL);
      const float *S = wg_buffer_read (wg_plan_get_node_output (plan, "fft", "slope"), NULL);
      double max_j = 0, max_n = 0, min_j = G_MAXDOUBLE;
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          {
            gsize p = (gsize) j * n + i;
            double dxx, dxy, dyx, dyy;
            displacement_gradient (D, n, n, dx, dx, wrap, i, j, 0, &dxx, &dxy);
            displacement_gradient (D, n, n, dx, dx, wrap, i, j, 1, &dyx, &dyy);
            double ax = 1 + dxx, ay = dyx, az = S[2 * p];
            double bx = dxy, by = 1 + dyy, bz = S[2 * p + 1];
            double jac = ax * by - bx * ay;
            double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
            double len = sqrt (cx * cx + cy * cy + cz * cz);
            max_j = MAX (max_j, fabs (J[p] - jac));
            min_j = MIN (min_j, jac);
            max_n = MAX (max_n, fabs (N[3 * p] - cx / len));
            max_n = MAX (max_n, fabs (N[3 * p + 1] - cy / len));
            max_n = MAX (max_n, fabs (N[3 * p + 2] - cz / len));
          }
      g_test_message ("wrap %d: max |ΔJ| %.3g, max |Δn| %.3g, min J %.3f", wrap, max_j, max_n,
                      min_j);
      /* The sea is choppy enough that the cross terms matter. */
      g_assert_cmpfloat (min_j, <, 0.5);
      g_assert_cmpfloat (max_j, <, 2e-5);
      g_assert_cmpfloat (max_n, <, 2e-5);
    }
}

/* The physics holds on both backends: each test runs on the CPU and on the
 * GPU (which CI runs on llvmpipe). */
static void
add_both (const char *name, GTestFunc func)
{
  wg_test_add_both ("ocean", name, func);
}

/* GPU runs are reproducible too: two plans give the same bits. */
static void
test_gpu_determinism (void)
{
  if (!wg_test_gpu_available ())
    return;
  wg_test_backend = WG_BACKEND_GPU;
  g_autoptr (WgGraph) g = full_chain (256, 256);
  g_autoptr (WgPlan) p1 = wg_test_plan (g, 0);
  g_autoptr (WgPlan) p2 = wg_test_plan (g, 0);
  const char *outs[] = { "fft:height", "chop:displacement", "normals:normal", "foam:foam" };
  for (gint64 f = 0; f < 3; f++)
    for (guint o = 0; o < G_N_ELEMENTS (outs); o++)
      {
        gsize n;
        g_autofree float *a = wg_test_eval_copy (p1, f, outs[o], &n);
        g_autofree float *b = wg_test_eval_copy (p2, f, outs[o], NULL);
        g_assert_cmpmem (a, n * sizeof (float), b, n * sizeof (float));
      }
  wg_test_backend = WG_BACKEND_CPU;
}

/* A loop period rounds each ω to a multiple of 2π/T: the note states the
 * dominant wave's speed change, which the test finds on its own from the
 * spectrum (its most energetic mode) and ω = √(g k) for deep water. */
static void
test_loop_note (void)
{
  const double periods[] = { 20, 120 };
  for (guint c = 0; c < G_N_ELEMENTS (periods); c++)
    {
      g_autoptr (WgGraph) g = wg_test_graph (128, 200, 24, 7);
      wg_test_add (g, "ocean-spectrum", "spec", "model=jonswap", "wind_speed=12", NULL);
      g_autofree char *loop = g_strdup_printf ("loop_period=%g", periods[c]);
      wg_test_add (g, "spectrum-evolve", "evolve", loop, NULL);
      wg_test_link (g, "spec:spectrum", "evolve:spectrum");
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      const float *h0 = wg_test_eval (plan, 0, "spec:spectrum");
      double best = 0, k_best = 0;
      for (int j = 0; j < 128; j++)
        for (int i = 0; i < 128; i++)
          {
            const double e = (double) h0[2 * (j * 128 + i)] * h0[2 * (j * 128 + i)] +
                             (double) h0[2 * (j * 128 + i) + 1] * h0[2 * (j * 128 + i) + 1];
            const int n = i < 64 ? i : i - 128, m = j < 64 ? j : j - 128;
            if (e > best)
              best = e, k_best = 2 * G_PI / 200 * hypot (n, m);
          }
      const double omega = sqrt (9.81 * k_best), step = 2 * G_PI / periods[c];
      const double err = 100 * (rint (omega / step) * step / omega - 1);
      gboolean warning;
      const char *note = wg_plan_get_node_note (plan, "evolve", &warning);
      g_assert_nonnull (note);
      g_autofree char *said = g_strdup_printf ("dominant wave %+.1f%%", err);
      g_test_message ("T = %g s: %s (expected %s)", periods[c], note, said);
      g_assert_nonnull (strstr (note, said));
      g_assert_cmpint (warning, ==, fabs (err) > 2);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ocean/dispersion-relation", test_dispersion_relation);
  g_test_add_func ("/ocean/loop-note", test_loop_note);
  g_test_add_func ("/ocean/spreading-normalised", test_spreading_normalised);
  g_test_add_func ("/ocean/tma-depth-factor", test_tma_factor);
  add_both ("pm-significant-wave-height", test_pm_significant_wave_height);
  add_both ("pm-rayleigh-ensemble", test_pm_rayleigh_ensemble);
  add_both ("jonswap-gamma1-is-pm", test_jonswap_gamma1_is_pm);
  add_both ("belyaev-reduces-to-phillips", test_belyaev_reduces_to_phillips);
  add_both ("directional-moments", test_directional_moments);
  add_both ("parseval", test_parseval);
  add_both ("fft-full-grid", test_fft_full_grid);
  add_both ("fft-half-spectrum", test_fft_half_spectrum);
  add_both ("dispersion-deep", test_dispersion_deep);
  add_both ("dispersion-depth-5m", test_dispersion_finite_depth);
  add_both ("loop", test_loop);
  g_test_add_func ("/ocean/cpu/thread-determinism", test_thread_determinism);
  g_test_add_func ("/ocean/gpu/determinism", test_gpu_determinism);
  add_both ("resolution-independence", test_resolution_independence);
  add_both ("measured-hs", test_measured_hs);
  add_both ("choppy-sharpens-crests", test_choppy_sharpens_crests);
  add_both ("normals", test_normals);
  add_both ("height-normals", test_height_normals);
  add_both ("foam", test_foam);
  add_both ("jacobian-stencil", test_jacobian_stencil);
  return g_test_run ();
}
