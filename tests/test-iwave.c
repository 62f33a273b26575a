/* test-iwave.c — interactive water: iWave's kernel against its closed form,
 * the operator's corrections, dispersion and damping measured from runs,
 * exact symmetries (reflecting walls as mirrors, translation), walls that
 * block, direct and FFT convolutions agreeing, ambient coupling, and the
 * obstacle-mask and source nodes. Simulation tests run on both backends.
 *
 * Longer than ~600 lines: iWave's physics, edges, obstacles and sources are
 * one suite sharing the measuring helpers at its top.
 */
#include "wg-test-util.h"
#include "wg-iwave.h"
#include "wg-image-io.h"
#include "wg-node-private.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define G 9.81

/* ---------------------------------------------------------------------------
 * The operator
 * ------------------------------------------------------------------------- */

/* The paper's kernel is a Riemann sum of ∫ q² e^{−q²} J0(qr) dq / ∫ q² e^{−q²} dq
 * = ₁F₁(3/2; 1; −r²/4) (Gradshteyn & Ryzhik 6.631.1), summed here as a series. */
static double
kernel_closed_form (double r)
{
  double z = -r * r / 4, term = 1, sum = 1;
  for (int n = 0; n < 200; n++)
    {
      term *= (1.5 + n) / ((1.0 + n) * (1.0 + n)) * z;
      sum += term;
    }
  return sum;
}

static void
test_kernel_closed_form (void)
{
  const int P = 6, side = 2 * P + 1;
  double taps[side * side];
  wg_iwave_kernel (P, 0, taps);
  for (int l = -P; l <= P; l++)
    for (int k = -P; k <= P; k++)
      {
        double expect = kernel_closed_form (sqrt ((double) (k * k + l * l)));
        g_assert_cmpfloat_with_epsilon (taps[(l + P) * side + k + P], expect, 2e-6);
      }
  /* The paper's normalisation: G(0, 0) = 1; its published values. */
  g_assert_cmpfloat_with_epsilon (taps[P * side + P], 1.0, 1e-9);
  const struct {
    int k, l;
    double g;
  } published[] = { { 1, 0, 0.67828 }, { 1, 1, 0.44456 }, { 2, 0, 0.15642 }, { 3, 0, -0.06533 } };
  for (guint i = 0; i < G_N_ELEMENTS (published); i++)
    g_assert_cmpfloat_with_epsilon (taps[(published[i].l + P) * side + published[i].k + P],
                                    published[i].g, 1e-3);
}

/* κ e^{−κ²}: the kernel's continuous transform 8√π κ e^{−κ²} with the
 * operator's scale 1/(8√π Δ), Δ = 1 (κ in rad per cell). */
static double
ideal_response (double kappa)
{
  return kappa * exp (-kappa * kappa);
}

static double *
make_operator (int P, double surface_tension, double cell)
{
  const int side = 2 * P + 1;
  double *kernel = g_new (double, side * side), *op = g_new (double, side * side);
  wg_iwave_kernel ((guint) P, surface_tension, kernel);
  wg_iwave_operator ((guint) P, kernel, cell, op, NULL);
  g_free (kernel);
  return op;
}

static void
test_operator (void)
{
  const struct {
    int P;
    double shortest, longest, tolerance; /* wavelengths (cells) resolved within tolerance */
  } cases[] = { { 6, 4, 6.5, 0.06 }, { 12, 3.6, 13, 0.04 }, { 32, 3, 30, 0.02 } };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const int P = cases[c].P, side = 2 * P + 1;
      g_autofree double *op = make_operator (P, 0, 1.0);
      double sum = 0, largest = 0, min, max;
      for (int i = 0; i < side * side; i++)
        {
          sum += op[i];
          largest = fmax (largest, fabs (op[i]));
        }
      /* A uniform raise of the water is not a wave. */
      g_assert_cmpfloat (fabs (sum), <, 1e-12 * largest);
      /* The largest eigenvalue, which sets the sub-steps: κ e^{−κ²} peaks at
       * 0.4289 (κ = 1/√2). */
      wg_iwave_response_extremes ((guint) P, op, &min, &max);
      g_assert_cmpfloat (max, >, 0.39);
      g_assert_cmpfloat (max, <, 0.44);
      for (double lambda = cases[c].shortest; lambda <= cases[c].longest; lambda *= 1.1)
        {
          double kappa = 2 * G_PI / lambda;
          /* Along an axis and a diagonal: the operator is isotropic. */
          double d_axis = wg_iwave_response ((guint) P, op, kappa, 0);
          double d_diag = wg_iwave_response ((guint) P, op, kappa / G_SQRT2, kappa / G_SQRT2);
          double ideal = ideal_response (kappa);
          g_assert_cmpfloat (fabs (d_axis / ideal - 1), <, cases[c].tolerance);
          g_assert_cmpfloat (fabs (d_diag / ideal - 1), <, cases[c].tolerance);
        }
    }
}

/* No mode grows: the operator's response is ≥ 0 at every wave number a grid
 * can hold, checked here on a finer lattice (1000 steps per axis, not
 * aligned with the 512 the lift is fitted on), for short kernels and with
 * surface tension, where the truncated kernel dips most. */
static void
test_operator_stable (void)
{
  const int radii[] = { 1, 2, 3, 4, 6 };
  const double tensions[] = { 0, 3 };
  const int S = 1000;
  for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
    for (guint t = 0; t < G_N_ELEMENTS (tensions); t++)
      {
        g_autofree double *op = make_operator (radii[r], tensions[t], 1.0);
        double min = INFINITY, max = -INFINITY;
        for (int a = 0; a <= S; a++)
          for (int b = 0; b <= a; b++)
            {
              double d = wg_iwave_response (radii[r], op, G_PI * a / S, G_PI * b / S);
              min = fmin (min, d);
              max = fmax (max, d);
            }
        g_assert_cmpfloat (max, >, 0.04);
        g_assert_cmpfloat (min, >=, -1e-12 * max);
      }
}

/* Surface tension multiplies the response by √(1 + κ² L_T²). */
static void
test_surface_tension (void)
{
  const int P = 32;
  const double lt = 3.0; /* cells */
  g_autofree double *plain = make_operator (P, 0, 1.0);
  g_autofree double *capillary = make_operator (P, lt, 1.0);
  for (double lambda = 4; lambda <= 24; lambda *= 1.25)
    {
      double kappa = 2 * G_PI / lambda;
      double ratio = wg_iwave_response (P, capillary, kappa, 0) / wg_iwave_response (P, plain, kappa, 0);
      g_assert_cmpfloat (fabs (ratio / sqrt (1 + kappa * kappa * lt * lt) - 1), <, 0.03);
    }
}

/* ---------------------------------------------------------------------------
 * Simulation helpers
 * ------------------------------------------------------------------------- */

static WgGraph *
iwave_graph (guint n, double extent, double fps, const char *const *params)
{
  WgGraph *g = wg_test_graph (n, extent, fps, 1);
  /* The tests of the scheme check it against the paper's kernel, whose
   * response they compute; the exact and fitted operators have their own. */
  wg_test_add (g, "iwave", "water", "operator=paper", NULL);
  for (guint i = 0; params && params[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (params[i], "=", 2);
      g_autoptr (GError) error = NULL;
      if (!wg_graph_set_param_from_text (g, "water", kv[0], kv[1], &error))
        g_error ("%s", error->message);
    }
  return g;
}

/* Sets an output of a node between evaluations (the simulation state). */
static void
set_field (WgPlan *plan, const char *node, const char *port, const float *data)
{
  WgBuffer *b = wg_plan_get_node_output (plan, node, port);
  g_assert_nonnull (b);
  memcpy (wg_buffer_data (b), data, (gsize) b->width * b->height * b->channels * sizeof (float));
}

/* Evaluates frame 0 (the simulation starts from rest), then puts @h0 in
 * both height and previous: the next frames start from a still surface
 * shaped as @h0. */
static void
start_from (WgPlan *plan, const float *h0)
{
  wg_test_eval (plan, 0, "water:height");
  set_field (plan, "water", "height", h0);
  set_field (plan, "water", "previous", h0);
}

/* Steps frames 1 … @last after start_from(); returns the last height. */
static const float *
advance (WgPlan *plan, gint64 last)
{
  for (gint64 f = 1; f < last; f++)
    wg_test_eval (plan, f, "water:height");
  return wg_test_eval (plan, last, "water:height");
}

/* A few smooth bumps of varied size and sign, on an n × n grid. */
static float *
bumps (guint n)
{
  float *h = g_new0 (float, (gsize) n * n);
  const double spots[][4] = { { 0.3, 0.4, 3, 0.02 }, { 0.7, 0.25, 2, -0.015 },
                              { 0.55, 0.8, 4, 0.01 }, { 0.05, 0.9, 2.5, 0.012 } };
  for (guint s = 0; s < G_N_ELEMENTS (spots); s++)
    for (guint j = 0; j < n; j++)
      for (guint i = 0; i < n; i++)
        {
          double dx = i - spots[s][0] * n, dy = j - spots[s][1] * n;
          h[(gsize) j * n + i] += (float) (spots[s][3] * exp (-(dx * dx + dy * dy) /
                                                             (2 * spots[s][2] * spots[s][2])));
        }
  return h;
}

static double
max_abs (const float *a, gsize n)
{
  double m = 0;
  for (gsize i = 0; i < n; i++)
    m = fmax (m, fabs (a[i]));
  return m;
}

static double
max_diff (const float *a, const float *b, gsize n)
{
  double m = 0;
  for (gsize i = 0; i < n; i++)
    m = fmax (m, fabs ((double) a[i] - b[i]));
  return m;
}

/* ---------------------------------------------------------------------------
 * Simulation
 * ------------------------------------------------------------------------- */

/* A standing wave cos(kx) started at rest: each step is the recurrence
 * x⁺ = (2 − g Δt² D) x − x⁻ with D the operator's response at k, so after n
 * steps x = A cos((n + ½) θ) / cos(θ / 2), cos θ = 1 − g Δt² D / 2 — and θ/Δt
 * is iWave's dispersion ω² = g k e^{−(kΔ)²} for the waves the kernel
 * resolves. */
static void
test_dispersion (void)
{
  const guint n = 128;
  const double cell = 1.0, fps = 10, dt = 1 / fps, amplitude = 0.01;
  const struct {
    int P;
    double wavelength; /* cells */
    double tolerance;  /* of ω against g k e^{−(kΔ)²} */
  } cases[] = { { 32, 128.0 / 3, 0.03 }, { 32, 128.0 / 6, 0.012 }, { 32, 32, 0.012 },
                { 32, 16, 0.012 }, { 32, 8, 0.012 }, { 6, 4, 0.03 }, { 6, 128.0 / 20, 0.03 } };
  double omegas[G_N_ELEMENTS (cases)];
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const int P = cases[c].P;
      g_autofree char *radius = g_strdup_printf ("kernel_radius=%d", P);
      const char *params[] = { radius, "damping=0", "boundary=periodic", NULL };
      g_autoptr (WgGraph) g = iwave_graph (n, n * cell, fps, params);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);

      const double kappa = 2 * G_PI / cases[c].wavelength, k = kappa / cell;
      g_autofree double *op = make_operator (P, 0, cell);
      double d = wg_iwave_response (P, op, kappa, 0), dmin, dmax;
      wg_iwave_response_extremes (P, op, &dmin, &dmax);
      /* One step per frame here: well inside the stability limit. */
      g_assert_cmpfloat (G * dt * dt * dmax, <, 2.0);
      const double theta = acos (1 - G * dt * dt * d / 2);

      g_autofree float *h0 = g_new (float, (gsize) n * n);
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          h0[(gsize) j * n + i] = (float) (amplitude * cos (kappa * i));
      start_from (plan, h0);
      const guint frames = 60;
      for (guint f = 1; f <= frames; f++)
        {
          const float *h = wg_test_eval (plan, f, "water:height");
          double expect = amplitude * cos ((f + 0.5) * theta) / cos (theta / 2);
          g_assert_cmpfloat (fabs (h[0] - expect), <, 2e-4 * amplitude);
          /* Still a plane wave: every row alike, nodes still. */
          g_assert_cmpfloat (fabs (h[(gsize) (n / 2) * n] - h[0]), <, 1e-5 * amplitude);
        }
      double omega = theta / dt, ideal = sqrt (G * k * exp (-k * k * cell * cell));
      g_assert_cmpfloat (fabs (omega / ideal - 1), <, cases[c].tolerance);
      omegas[c] = omega;
    }
  /* Gravity waves: doubling k multiplies ω by √2 (the first two cases,
   * 42.7 and 21.3 cells long, are long enough for e^{−(kΔ)²} to matter
   * little). */
  g_assert_cmpfloat (fabs (omegas[1] / omegas[0] / G_SQRT2 - 1), <, 0.05);
}

/* The vertical derivative the node computes — by the symmetric direct sum
 * or the FFT product — is the plain (2P+1)² sum of the operator's taps over
 * the height with the boundary rule, evaluated here in double. */
static int
mirror_index (int i, int n, int boundary)
{
  if (i >= 0 && i < n)
    return i;
  if (boundary == 0)
    return ((i % n) + n) % n;
  if (boundary == 1)
    {
      int m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
  return -1;
}

static void
test_convolution_is_plain_sum (void)
{
  const int n = 64, P = 7, side = 2 * P + 1;
  const double cell = 0.5;
  const char *boundaries[] = { "periodic", "reflecting", "zero" };
  const char *methods[] = { "method=direct", "method=fft" };
  g_autofree double *op = make_operator (P, 0, cell);
  g_autofree float *h0 = bumps (n);
  for (int b = 0; b < 3; b++)
    for (int m = 0; m < 2; m++)
      {
        g_autofree char *boundary = g_strdup_printf ("boundary=%s", boundaries[b]);
        const char *params[] = { "kernel_radius=7", methods[m], boundary, NULL };
        g_autoptr (WgGraph) g = iwave_graph (n, n * cell, 30, params);
        g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
        start_from (plan, h0);
        const float *vd = wg_test_eval (plan, 1, "water:vertical_derivative");
        double worst = 0, scale = 0;
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++)
            {
              double sum = 0;
              for (int l = -P; l <= P; l++)
                for (int k = -P; k <= P; k++)
                  {
                    int ii = mirror_index (i + k, n, b), jj = mirror_index (j + l, n, b);
                    if (ii >= 0 && jj >= 0)
                      sum += op[(l + P) * side + k + P] * h0[jj * n + ii];
                  }
              worst = fmax (worst, fabs (vd[j * n + i] - sum));
              scale = fmax (scale, fabs (sum));
            }
        g_assert_cmpfloat (scale, >, 1e-3);
        g_assert_cmpfloat (worst, <, 2e-6 * scale);
      }
}

/* With damping α a wave's amplitude decays as e^{−αt/2} and it rings at
 * ω_d = √(ω² − α²/4): measured from the crests' sampled peaks (each within
 * half a frame of the true one) near the start and 5 s later. A raised
 * pool stays raised: damping restores nothing (the paper's pseudo-code,
 * with 2 − αΔt, would make it slosh at √(2α/Δt)). */
static void
test_damping (void)
{
  const guint n = 64;
  const double cell = 0.25, fps = 30, alpha = 0.2, amplitude = 0.01;
  const char *params[] = { "kernel_radius=6", "damping=0.2", "boundary=periodic", NULL };
  g_autoptr (WgGraph) g = iwave_graph (n, n * cell, fps, params);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const double kappa = 2 * G_PI / 8;
  g_autofree double *op = make_operator (6, 0, cell);
  const double omega = sqrt (G * wg_iwave_response (6, op, kappa, kappa));
  const double omega_d = sqrt (omega * omega - alpha * alpha / 4);
  const guint frames = 200, later = 150;

  g_autofree float *h0 = g_new (float, (gsize) n * n);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      h0[(gsize) j * n + i] = (float) (amplitude * cos (kappa * i) * cos (kappa * j));
  start_from (plan, h0);
  double x[frames + 1];
  for (guint f = 1; f <= frames; f++)
    x[f] = fabs (wg_test_eval (plan, f, "water:height")[0]);
  /* The first sampled crest (a local maximum of |h|) after frame 5 and
   * after frame 150. */
  guint early_at = 0, late_at = 0;
  for (guint f = 6; f < frames; f++)
    if (x[f] >= x[f - 1] && x[f] >= x[f + 1])
      {
        if (early_at == 0)
          early_at = f;
        if (f > later && late_at == 0)
          late_at = f;
      }
  g_assert_cmpuint (late_at, >, 0);
  const double early = x[early_at], late = x[late_at], span = (late_at - early_at) / fps;
  g_assert_cmpfloat (fabs (late / early / exp (-alpha * span / 2) - 1), <, 0.01);
  /* Peaks of |x| come every half period. */
  const double half_periods = span * omega_d / G_PI;
  g_assert_cmpfloat (fabs (half_periods - round (half_periods)), <, 0.1);
  g_assert_cmpfloat (round (half_periods), >=, 4);

  g_autofree float *level = g_new (float, (gsize) n * n);
  for (gsize p = 0; p < (gsize) n * n; p++)
    level[p] = (float) amplitude;
  g_autoptr (WgPlan) pool = wg_test_plan (g, 0);
  start_from (pool, level);
  /* Float taps sum to ~1e-8 of their size, not 0: a slow drift remains. */
  for (guint f = 1; f <= 60; f++)
    g_assert_cmpfloat (fabs (wg_test_eval (pool, f, "water:height")[0] - amplitude), <,
                       1e-3 * amplitude);
}

/* Grid-scale damping: a 2-cell checkerboard's step velocity loses the
 * share f = 1 − e^{−rate Δt} per step (the recurrence below, with the
 * operator's own response there), while a 16-cell wave, whose velocity loses
 * f·(2 − 2 cos(2π/16))²/64 = 1.0e-4 per step, keeps its height to
 * e^{−60·1.0e-4/2} = 99.7% over 2 s. */
static void
test_smoothing (void)
{
  const guint n = 64;
  const double cell = 0.25, fps = 30, amplitude = 0.01, rate = 10;
  const char *smooth[] = { "kernel_radius=6", "damping=0", "smoothing=10", "boundary=periodic",
                           NULL };
  const char *plain[] = { "kernel_radius=6", "damping=0", "boundary=periodic", NULL };
  g_autoptr (WgGraph) gs = iwave_graph (n, n * cell, fps, smooth);
  g_autoptr (WgGraph) gp = iwave_graph (n, n * cell, fps, plain);

  g_autofree double *op = make_operator (6, 0, cell);
  const double c = G / (fps * fps) * wg_iwave_response (6, op, G_PI, G_PI);
  const double keep = exp (-rate / fps);
  g_autofree float *checker = g_new (float, (gsize) n * n);
  g_autofree float *zero = g_new0 (float, (gsize) n * n);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      checker[(gsize) j * n + i] = (float) ((i + j) % 2 ? -amplitude : amplitude);
  /* Kicked: height at the checkerboard, the previous step flat. */
  g_autoptr (WgPlan) ps = wg_test_plan (gs, 0);
  g_autoptr (WgPlan) pp = wg_test_plan (gp, 0);
  WgPlan *plans[] = { ps, pp };
  for (guint i = 0; i < 2; i++)
    {
      wg_test_eval (plans[i], 0, "water:height");
      set_field (plans[i], "water", "height", checker);
      set_field (plans[i], "water", "previous", zero);
    }
  double x = amplitude, x_prev = 0, free_x = amplitude, free_prev = 0;
  for (gint64 f = 1; f <= 30; f++)
    {
      double v = x - x_prev - c * x, free_v = free_x - free_prev - c * free_x;
      x_prev = x;
      x = x + v * keep;
      free_prev = free_x;
      free_x = free_x + free_v;
      const float *h = wg_test_eval (ps, f, "water:height");
      g_assert_cmpfloat (fabs (h[0] - x), <, 1e-4 * amplitude);
      g_assert_cmpfloat (fabs (h[1] + x), <, 1e-4 * amplitude);
      g_assert_cmpfloat (fabs (wg_test_eval (pp, f, "water:height")[0] - free_x), <,
                         1e-4 * free_x);
    }
  /* Without it the kick's velocity stays (the operator barely restores
   * this mode): the checkerboard keeps rising, past 10× here. */
  const double unsmoothed = wg_test_eval (pp, 30, "water:height")[0];
  g_assert_cmpfloat (unsmoothed, >, 10 * amplitude);
  g_assert_cmpfloat (wg_test_eval (ps, 30, "water:height")[0], <, 0.4 * unsmoothed);

  g_autofree float *wave = g_new (float, (gsize) n * n);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      wave[(gsize) j * n + i] = (float) (amplitude * cos (2 * G_PI * i / 16.0));
  g_autoptr (WgPlan) a = wg_test_plan (gs, 0);
  g_autoptr (WgPlan) b = wg_test_plan (gp, 0);
  start_from (a, wave);
  start_from (b, wave);
  for (gint64 f = 1; f <= 60; f++)
    {
      g_autofree float *x1 = wg_test_eval_copy (a, f, "water:height", NULL);
      const float *x2 = wg_test_eval (b, f, "water:height");
      g_assert_cmpfloat (max_diff (x1, x2, (gsize) n * n), <, 4e-3 * amplitude);
    }
}

/* A reflecting grid evolves as a quarter of a periodic grid twice as wide
 * holding the mirrored field (the walls sit at the grid's edges). */
static void
test_reflecting_is_mirror (void)
{
  const guint n = 64, frames = 20;
  const char *refl[] = { "kernel_radius=6", "method=direct", "boundary=reflecting", NULL };
  const char *peri[] = { "kernel_radius=6", "method=direct", "boundary=periodic", NULL };
  g_autoptr (WgGraph) gr = iwave_graph (n, 16, 30, refl);
  g_autoptr (WgGraph) gp = iwave_graph (2 * n, 32, 30, peri);
  g_autoptr (WgPlan) pr = wg_test_plan (gr, 0);
  g_autoptr (WgPlan) pp = wg_test_plan (gp, 0);
  g_autofree float *h0 = bumps (n), *mirrored = g_new (float, (gsize) 4 * n * n);
  for (guint j = 0; j < 2 * n; j++)
    for (guint i = 0; i < 2 * n; i++)
      {
        guint si = i < n ? i : 2 * n - 1 - i, sj = j < n ? j : 2 * n - 1 - j;
        mirrored[(gsize) j * 2 * n + i] = h0[(gsize) sj * n + si];
      }
  start_from (pr, h0);
  start_from (pp, mirrored);
  for (guint f = 1; f <= frames; f++)
    {
      const float *a = wg_test_eval (pr, f, "water:height");
      const float *b = wg_test_eval (pp, f, "water:height");
      double worst = 0, scale = max_abs (a, (gsize) n * n);
      for (guint j = 0; j < n; j++)
        worst = fmax (worst, max_diff (a + (gsize) j * n, b + (gsize) j * 2 * n, n));
      /* Bit-exact on the CPU; llvmpipe may fuse the tile sums differently
       * per workgroup (1 ulp seen). */
      g_assert_cmpfloat (worst, <=, wg_test_backend == WG_BACKEND_CPU ? 0.0 : 1e-6 * scale);
    }
  g_assert_cmpfloat (max_abs (wg_test_eval (pr, frames, "water:height"), (gsize) n * n), >, 1e-3);
}

/* On a periodic grid, shifting the start shifts the result: exactly for the
 * direct sum, to float rounding through the FFT. */
static void
test_translation (void)
{
  const guint n = 64, sx = 5, sy = 3, frames = 15;
  const char *methods[] = { "method=direct", "method=fft" };
  for (guint m = 0; m < 2; m++)
    {
      const char *params[] = { "kernel_radius=6", methods[m], "boundary=periodic", NULL };
      g_autoptr (WgGraph) g = iwave_graph (n, 16, 30, params);
      g_autoptr (WgPlan) a = wg_test_plan (g, 0);
      g_autoptr (WgPlan) b = wg_test_plan (g, 0);
      g_autofree float *h0 = bumps (n), *shifted = g_new (float, (gsize) n * n);
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          shifted[(gsize) ((j + sy) % n) * n + (i + sx) % n] = h0[(gsize) j * n + i];
      start_from (a, h0);
      start_from (b, shifted);
      g_autofree float *ha = g_memdup2 (advance (a, frames), (gsize) n * n * sizeof (float));
      const float *hb = advance (b, frames);
      g_assert_cmpfloat (max_abs (ha, (gsize) n * n), >, 1e-3);
      double worst = 0;
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          worst = fmax (worst, fabs (ha[(gsize) j * n + i] -
                                     hb[(gsize) ((j + sy) % n) * n + (i + sx) % n]));
      g_assert_cmpfloat (worst, <=, m == 0 ? 0.0 : 1e-5 * max_abs (ha, (gsize) n * n));
    }
}

/* The FFT product computes the direct sum, for every boundary rule. */
static void
test_methods_agree (void)
{
  const guint n = 64, frames = 25;
  const char *boundaries[] = { "boundary=periodic", "boundary=reflecting", "boundary=zero" };
  const char *radii[] = { "kernel_radius=6", "kernel_radius=9" };
  g_autofree float *h0 = bumps (n);
  for (guint b = 0; b < G_N_ELEMENTS (boundaries); b++)
    for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
      {
        const char *direct[] = { radii[r], "method=direct", boundaries[b], NULL };
        const char *fft[] = { radii[r], "method=fft", boundaries[b], NULL };
        g_autoptr (WgGraph) gd = iwave_graph (n, 16, 30, direct);
        g_autoptr (WgGraph) gf = iwave_graph (n, 16, 30, fft);
        g_autoptr (WgPlan) pd = wg_test_plan (gd, 0);
        g_autoptr (WgPlan) pf = wg_test_plan (gf, 0);
        start_from (pd, h0);
        start_from (pf, h0);
        g_autofree float *a = g_memdup2 (advance (pd, frames), (gsize) n * n * sizeof (float));
        const float *c = advance (pf, frames);
        double scale = max_abs (a, (gsize) n * n);
        g_assert_cmpfloat (scale, >, 1e-3);
        g_assert_cmpfloat (max_diff (a, c, (gsize) n * n), <, 2e-5 * scale);
      }
}

/* A wall thicker than the kernel is a perfect barrier: nothing reaches the
 * far side (exactly, summing directly; to the FFT's rounding, ~1e-7 of the
 * waves, through it), solids stay exactly flat, and the waves it turns back
 * reshape the near side (without it they run on to the far side). */
static void
test_wall_blocks (void)
{
  const guint n = 64;
  const double cell = 0.25;
  g_autofree float *open_near = g_new0 (float, (gsize) n * n);
  for (int run = 0; run < 3; run++)
    {
      const int wall = run > 0;
      const gboolean fft = run == 2;
      g_autoptr (WgGraph) g = wg_test_graph (n, n * cell, 30, 1);
      wg_test_add (g, "source", "poke", "x=4", "y=8", "radius=1", "amplitude=0.05", NULL);
      wg_test_add (g, "iwave", "water", "kernel_radius=6", "damping=0",
                   fft ? "method=fft" : "method=direct", NULL);
      wg_test_link (g, "poke:source", "water:source");
      /* 3 m of wall (12 cells, twice P) across x = 6.5 … 9.5 m. */
      wg_test_add (g, "obstacle-mask", "wall", "shape=box", "x=8", "y=8", "width=3",
                   "height=40", "border=0.25", wall ? "scale=1" : "x=-100", NULL);
      wg_test_link (g, "wall:mask", "water:obstruction");
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      for (gint64 f = 0; f < 90; f++)
        wg_test_eval (plan, f, "water:height");
      const float *h = wg_test_eval (plan, 90, "water:height");
      const float *mask = wg_test_eval (plan, 90, "wall:mask");
      double near = 0, far = 0, solid = 0, changed = 0;
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          {
            gsize p = (gsize) j * n + i;
            double x = i * cell;
            if (x < 6)
              {
                near = fmax (near, fabs (h[p]));
                changed = fmax (changed, fabs (h[p] - open_near[p]));
                if (!wall)
                  open_near[p] = h[p];
              }
            else if (x > 10)
              far = fmax (far, fabs (h[p]));
            if (mask[p] == 0)
              solid = fmax (solid, fabs (h[p]));
          }
      g_assert_cmpfloat (near, >, 1e-3);
      if (wall)
        {
          g_assert_cmpfloat (far, <=, fft ? 1e-5 * near : 0.0);
          g_assert_cmpfloat (solid, ==, 0);
          g_test_message ("near side changed by the wall: %.3f of its waves", changed / near);
          g_assert_cmpfloat (changed, >, 0.3 * near);
        }
      else
        {
          g_assert_cmpfloat (far, >, 1e-4);
        }
    }
}

/* Stability: frames far longer than the stable step are split into
 * sub-steps. 1 fps on 1 cm cells takes 12 sub-steps per frame; a single step
 * (g Δt² λmax ≈ 390 ≫ 4) would grow the shortest waves ~400-fold per step.
 * Bounded: a poke is height per frame, a kick that rings at most a few
 * times its own height. */
static void
test_substeps (void)
{
  const guint n = 64;
  g_autoptr (WgGraph) g = wg_test_graph (n, 0.64, 1, 1);
  wg_test_add (g, "source", "poke", "x=0.32", "y=0.32", "radius=0.05", "amplitude=0.002", NULL);
  wg_test_add (g, "iwave", "water", "damping=0", NULL);
  wg_test_link (g, "poke:source", "water:source");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  for (gint64 f = 0; f < 4; f++)
    {
      const float *h = wg_test_eval (plan, f, "water:height");
      double m = max_abs (h, (gsize) n * n);
      g_assert_true (isfinite (m));
      g_assert_cmpfloat (m, <, 0.02);
    }
  g_assert_cmpfloat (max_abs (wg_test_eval (plan, 3, "water:height"), (gsize) n * n), >, 1e-6);
}

/* Ambient waves alone leave open water untouched (iWave holds the
 * difference from them); an obstacle in them scatters waves, and the
 * composite surface (add) is flat inside it and the ambient where the
 * scattered waves have not arrived. */
static void
test_ambient (void)
{
  const guint n = 64;
  for (int obstacle = 0; obstacle < 2; obstacle++)
    {
      g_autoptr (WgGraph) g = wg_test_graph (n, 32, 30, 3);
      /* The ambient ocean on a coarser, larger tile: resampled. */
      wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=6", "resolution=64", "patch_size=48",
                   NULL);
      wg_test_add (g, "spectrum-evolve", "evolve", NULL);
      wg_test_add (g, "fft", "fft", NULL);
      wg_test_link (g, "spec:spectrum", "evolve:spectrum");
      wg_test_link (g, "evolve:spectrum", "fft:spectrum");
      wg_test_add (g, "obstacle-mask", "rock", "shape=circle", "x=16", "y=16", "radius=3",
                   "border=0.5", obstacle ? "scale=1" : "x=-100", NULL);
      /* Summed directly, nothing is touched beyond the kernel's reach. */
      wg_test_add (g, "iwave", "water", "kernel_radius=6", "method=direct", NULL);
      wg_test_link (g, "fft:height", "water:ambient");
      wg_test_link (g, "rock:mask", "water:obstruction");
      wg_test_add (g, "ambient-blend", "surface", "mode=add", NULL);
      wg_test_link (g, "water:height", "surface:height");
      wg_test_link (g, "fft:height", "surface:ambient");
      wg_test_link (g, "rock:mask", "surface:obstruction");
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      for (gint64 f = 0; f < 10; f++)
        {
          g_autofree float *h = wg_test_eval_copy (plan, f, "water:height", NULL);
          g_autofree float *s = wg_test_eval_copy (plan, f, "surface:height", NULL);
          const float *mask = wg_test_eval (plan, f, "rock:mask");
          double scattered = max_abs (h, (gsize) n * n), solid = 0;
          for (gsize p = 0; p < (gsize) n * n; p++)
            if (mask[p] == 0)
              solid = fmax (solid, fabs (s[p]));
          if (!obstacle)
            {
              g_assert_cmpfloat (scattered, ==, 0);
              continue;
            }
          g_assert_cmpfloat (scattered, >, 1e-4);
          g_assert_cmpfloat (solid, ==, 0);
          if (f == 0)
            {
              /* One step: nothing beyond the kernel's reach (P cells along the
               * axes, P√2 along diagonals) from the rock's border moved. */
              double far = 0;
              for (guint j = 0; j < n; j++)
                for (guint i = 0; i < n; i++)
                  {
                    double r = hypot (i * 0.5 - 16, j * 0.5 - 16);
                    if (r > 3 + 0.25 + 6 * G_SQRT2 * 0.5 + 0.05)
                      far = fmax (far, fabs (h[(gsize) j * n + i]));
                  }
              g_assert_cmpfloat (far, ==, 0);
            }
        }
    }
}

/* The paper's subtraction: open water untouched, h − a inside solids. */
static void
test_ambient_subtract (void)
{
  const guint n = 64;
  g_autoptr (WgGraph) g = wg_test_graph (n, 32, 30, 3);
  wg_test_add (g, "source", "bump", "mode=impulse", "x=12", "y=16", "radius=8",
               "amplitude=0.3", "duration=inf", NULL);
  wg_test_add (g, "source", "swell", "mode=oscillator", "x=20", "y=16", "radius=10",
               "amplitude=0.5", "frequency=0.5", "start=-0.5", "duration=inf", NULL);
  wg_test_add (g, "obstacle-mask", "rock", "x=16", "y=16", "radius=4", "border=1", NULL);
  wg_test_add (g, "ambient-blend", "blend", "mode=subtract", "scale=2", NULL);
  wg_test_link (g, "bump:source", "blend:height");
  wg_test_link (g, "swell:source", "blend:ambient");
  wg_test_link (g, "rock:mask", "blend:obstruction");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *h = wg_test_eval_copy (plan, 0, "bump:source", NULL);
  g_autofree float *a = wg_test_eval_copy (plan, 0, "swell:source", NULL);
  g_autofree float *m = wg_test_eval_copy (plan, 0, "rock:mask", NULL);
  const float *out = wg_test_eval (plan, 0, "blend:height");
  guint open = 0, solid = 0;
  for (gsize p = 0; p < (gsize) n * n; p++)
    {
      g_assert_cmpfloat (fabs (out[p] - (h[p] - 2 * a[p] * (1 - m[p]))), <, 1e-6);
      if (m[p] == 1)
        {
          g_assert_cmpfloat (out[p], ==, h[p]);
          open++;
        }
      solid += m[p] == 0;
    }
  g_assert_cmpuint (open, >, 1000);
  g_assert_cmpuint (solid, >, 100);
}

/* Stateful resumption: saved after frame 9 and restored into a new plan,
 * frames 10 … 19 are bit-identical to an uninterrupted run. */
static void
test_save_restore (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 16, 30, 1);
  wg_test_add (g, "source", "poke", "mode=oscillator", "x=5", "y=7", "radius=1",
               "amplitude=0.01", "frequency=1.3", "duration=inf", NULL);
  wg_test_add (g, "obstacle-mask", "post", "x=9", "y=9", "radius=1.5", "border=0.3", NULL);
  wg_test_add (g, "iwave", "water", "damping=0.1", NULL);
  wg_test_link (g, "poke:source", "water:source");
  wg_test_link (g, "post:mask", "water:obstruction");
  g_autoptr (WgPlan) a = wg_test_plan (g, 0);
  for (gint64 f = 0; f < 10; f++)
    wg_test_eval (a, f, "water:height");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) state = wg_plan_save_state (a, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) b = wg_test_plan (g, 0);
  g_assert_true (wg_plan_restore_state (b, state, &error));
  g_assert_no_error (error);
  for (gint64 f = 10; f < 20; f++)
    {
      gsize n;
      g_autofree float *x = wg_test_eval_copy (a, f, "water:height", &n);
      const float *y = wg_test_eval (b, f, "water:height");
      g_assert_cmpmem (x, n * sizeof (float), y, n * sizeof (float));
    }
}

/* One thread or two, the same bits. */
static void
test_thread_determinism (void)
{
  const char *methods[] = { "method=direct", "method=fft" };
  for (guint m = 0; m < 2; m++)
    {
      const char *params[] = { "kernel_radius=7", methods[m], "boundary=zero", NULL };
      g_autoptr (WgGraph) g = iwave_graph (128, 32, 30, params);
      g_autoptr (WgPlan) one = wg_test_plan (g, 1);
      g_autoptr (WgPlan) two = wg_test_plan (g, 2);
      g_autofree float *h0 = bumps (128);
      start_from (one, h0);
      start_from (two, h0);
      const gsize n = 128 * 128;
      g_autofree float *a = g_memdup2 (advance (one, 10), n * sizeof (float));
      const float *b = advance (two, 10);
      g_assert_cmpfloat (max_abs (a, n), >, 1e-3);
      g_assert_cmpmem (a, n * sizeof (float), b, n * sizeof (float));
    }
}

/* Parameters set per frame as graph inputs take effect like edits: those
 * that shape the plan (kernel radius, surface tension, edges, method)
 * rebuild it, keeping the water's state; the rest apply from the next step.
 * Changing gravity re-derives the sub-steps (raising it 100-fold on 1 cm
 * cells would otherwise blow up); switching a source to wake without a
 * mask, or normals to spectral without slopes, is an error, not a crash. */
static WgPlan *
plan_with_input (WgGraph *g, const char *node, const char *param)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_input (g, param, node, param, &error));
  g_assert_no_error (error);
  return wg_test_plan (g, 0);
}

static void
set_live (WgPlan *plan, const char *name, const char *text)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_set_input_from_text (plan, name, text, &error));
  g_assert_no_error (error);
}

static void
test_live_inputs (void)
{
  const guint n = 64;
  g_autofree float *h0 = bumps (n);
  const char *changes[][2] = { { "kernel_radius", "9" }, { "surface_tension", "0.5" },
                               { "boundary", "zero" }, { "method", "fft" }, { "damping", "1.5" } };
  for (guint c = 0; c < G_N_ELEMENTS (changes); c++)
    {
      /* Live: two frames as built, then the change; fresh: built with it. */
      const char *params[] = { "boundary=periodic", "method=direct", NULL };
      g_autoptr (WgGraph) g = iwave_graph (n, 16, 30, params);
      g_autoptr (WgPlan) live = plan_with_input (g, "water", changes[c][0]);
      start_from (live, h0);
      advance (live, 2);
      g_autofree float *h2 = wg_test_eval_copy (live, 2, "water:height", NULL);
      g_autofree float *p2 = wg_test_eval_copy (live, 2, "water:previous", NULL);
      set_live (live, changes[c][0], changes[c][1]);
      g_autofree float *a = wg_test_eval_copy (live, 3, "water:height", NULL);

      g_assert_true (wg_graph_set_param_from_text (g, "water", changes[c][0], changes[c][1], NULL));
      g_autoptr (WgPlan) fresh = wg_test_plan (g, 0);
      wg_test_eval (fresh, 0, "water:height");
      set_field (fresh, "water", "height", h2);
      set_field (fresh, "water", "previous", p2);
      const float *b = wg_test_eval (fresh, 1, "water:height");
      double scale = max_abs (a, (gsize) n * n);
      if (max_diff (a, b, (gsize) n * n) > 1e-6 * scale)
        g_error ("%s=%s set live differs from a plan built with it by %g (scale %g)",
                 changes[c][0], changes[c][1], max_diff (a, b, (gsize) n * n), scale);
    }

  /* Gravity 1 → 100 m/s² on 1 cm cells at 10 fps: 1 → 10 sub-steps. */
  g_autoptr (WgGraph) gg = wg_test_graph (n, 0.64, 10, 1);
  wg_test_add (gg, "source", "poke", "x=0.32", "y=0.32", "radius=0.05", "amplitude=0.002", NULL);
  wg_test_add (gg, "iwave", "water", "damping=0", "gravity=1", NULL);
  wg_test_link (gg, "poke:source", "water:source");
  g_autoptr (WgPlan) pg = plan_with_input (gg, "water", "gravity");
  wg_test_eval (pg, 0, "water:height");
  set_live (pg, "gravity", "100");
  for (gint64 f = 1; f <= 10; f++)
    g_assert_cmpfloat (max_abs (wg_test_eval (pg, f, "water:height"), (gsize) n * n), <, 0.02);

  g_autoptr (WgGraph) gs = wg_test_graph (n, 16, 30, 1);
  wg_test_add (gs, "source", "poke", "x=8", "y=8", NULL);
  wg_test_add (gs, "normals", "shade", "method=finite-difference", NULL);
  wg_test_link (gs, "poke:source", "shade:height");
  g_assert_true (wg_graph_set_input (gs, "mode", "poke", "mode", NULL));
  g_autoptr (WgPlan) ps = plan_with_input (gs, "shade", "method");
  wg_test_eval (ps, 0, "shade:normal");
  const char *bad[][3] = { { "mode", "wake", "obstruction" }, { "method", "spectral", "slope" } };
  for (guint b = 0; b < G_N_ELEMENTS (bad); b++)
    {
      set_live (ps, bad[b][0], bad[b][1]);
      g_autoptr (GError) error = NULL;
      g_assert_false (wg_plan_evaluate (ps, b + 1, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, bad[b][2]));
      set_live (ps, bad[b][0], b == 0 ? "impulse" : "finite-difference");
    }
  g_assert_nonnull (wg_test_eval (ps, 5, "shade:normal"));
}

/* Two GPU plans in one process: going back to frame 0 on one clears its
 * own water (in its own context), so it starts over exactly. */
static void
test_interleaved_plans (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 16, 30, 1);
  wg_test_add (g, "source", "poke", "mode=oscillator", "x=6", "y=7", "radius=1",
               "amplitude=0.01", "frequency=1", "duration=inf", NULL);
  wg_test_add (g, "iwave", "water", NULL);
  wg_test_link (g, "poke:source", "water:source");
  g_autoptr (WgPlan) a = wg_test_plan (g, 0);
  g_autoptr (WgPlan) b = wg_test_plan (g, 0);
  gsize n;
  g_autofree float *first = wg_test_eval_copy (a, 0, "water:height", &n);
  for (gint64 f = 1; f < 10; f++)
    wg_test_eval (a, f, "water:height");
  for (gint64 f = 0; f < 10; f++)
    wg_test_eval (b, f, "water:height");
  const float *again = wg_test_eval (a, 0, "water:height");
  g_assert_cmpmem (first, n * sizeof (float), again, n * sizeof (float));
}

/* ---------------------------------------------------------------------------
 * Obstacles
 * ------------------------------------------------------------------------- */

/* The mask of a single obstacle-mask node with "name=value" params. */
static float *
mask_of (gint64 frame, const char *first, ...)
{
  g_autoptr (WgGraph) g = wg_test_graph (128, 64, 10, 1);
  wg_test_add (g, "obstacle-mask", "m", NULL);
  va_list args;
  va_start (args, first);
  for (const char *pair = first; pair; pair = va_arg (args, const char *))
    {
      g_auto (GStrv) kv = g_strsplit (pair, "=", 2);
      g_autoptr (GError) error = NULL;
      if (!wg_graph_set_param_from_text (g, "m", kv[0], kv[1], &error))
        g_error ("%s", error->message);
    }
  va_end (args);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  return wg_test_eval_copy (plan, frame, "m:mask", NULL);
}

/* Solid area Σ (1 − mask) in m² on the 128² grid of 0.5 m cells. */
static double
solid_area (const float *mask)
{
  double a = 0;
  for (gsize p = 0; p < 128 * 128; p++)
    a += 1 - mask[p];
  return a * 0.25;
}

static void
test_obstacle_shapes (void)
{
  g_autofree float *circle = mask_of (0, "shape=circle", "x=32", "y=32", "radius=10", "border=1", NULL);
  g_assert_cmpfloat_with_epsilon (solid_area (circle), G_PI * 100, 0.01 * G_PI * 100);
  g_assert_cmpfloat (circle[64 * 128 + 64], ==, 0);
  g_assert_cmpfloat (circle[0], ==, 1);
  /* The outline, 10 m right of the centre (cell 84), is half water. */
  g_assert_cmpfloat_with_epsilon (circle[64 * 128 + 84], 0.5, 1e-5);
  g_assert_cmpfloat_with_epsilon (circle[64 * 128 + 85], 1.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (circle[64 * 128 + 83], 0.0, 1e-5);

  g_autofree float *scaled = mask_of (0, "x=32", "y=32", "radius=5", "scale=2", "border=1", NULL);
  g_assert_cmpfloat (max_diff (circle, scaled, 128 * 128), <, 1e-5);

  g_autofree float *box = mask_of (0, "shape=box", "x=30", "y=34", "width=20", "height=8",
                                   "border=0.5", NULL);
  g_autofree float *turned = mask_of (0, "shape=box", "x=30", "y=34", "width=8", "height=20",
                                      "rotation=90", "border=0.5", NULL);
  g_assert_cmpfloat_with_epsilon (solid_area (box), 160, 1.6);
  /* An 8 × 20 box turned a quarter is the 20 × 8 box. */
  g_assert_cmpfloat (max_diff (box, turned, 128 * 128), <, 1e-4);
  /* Turned 30° counter-clockwise: (38, 38.5) m lies 0.8 m inside, 0.5 m
   * outside the unturned box. */
  g_autofree float *tilted = mask_of (0, "shape=box", "x=30", "y=34", "width=20", "height=8",
                                      "rotation=30", "border=0.5", NULL);
  g_assert_cmpfloat_with_epsilon (solid_area (tilted), 160, 1.6);
  g_assert_cmpfloat (tilted[77 * 128 + 76], ==, 0);
  g_assert_cmpfloat (box[77 * 128 + 76], ==, 1);

  g_autofree float *polygon = mask_of (0, "shape=polygon", "x=30", "y=34",
                                       "points=-10,-4 10,-4 10,4 -10,4", "border=0.5", NULL);
  g_assert_cmpfloat (max_diff (box, polygon, 128 * 128), <, 1e-4);

  g_autofree float *capsule = mask_of (0, "shape=capsule", "x=32", "y=32", "radius=4",
                                       "length=20", "border=1", NULL);
  g_assert_cmpfloat_with_epsilon (solid_area (capsule), G_PI * 16 + 8 * 20,
                                  0.01 * (G_PI * 16 + 8 * 20));

  /* A concave polygon (an L) by the even-odd rule: area 6·2 + 2·4 = 20 m²·4. */
  g_autofree float *ell = mask_of (0, "shape=polygon", "x=32", "y=32", "scale=2",
                                   "points=0,0 6,0 6,2 2,2 2,6 0,6", "border=0.5", NULL);
  g_assert_cmpfloat_with_epsilon (solid_area (ell), 80, 0.8);
}

/* Keyframed position: the obstacle is where the keys say at each frame. */
static void
test_obstacle_keyframes (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (128, 64, 10, 1);
  wg_test_add (g, "obstacle-mask", "boat", "shape=capsule", "y=32", "radius=2", "length=6",
               "border=0.5", NULL);
  const double times[] = { 0, 2 }, xs[] = { 16, 48 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_keyframes (g, "boat", "x", times, xs, 2, &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const gint64 frames[] = { 0, 5, 10, 20, 30 };
  const double expect[] = { 16, 24, 32, 48, 48 };
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      const float *m = wg_test_eval (plan, frames[f], "boat:mask");
      double sx = 0, s = 0;
      for (guint j = 0; j < 128; j++)
        for (guint i = 0; i < 128; i++)
          {
            double w = 1 - m[j * 128 + i];
            sx += w * i * 0.5;
            s += w;
          }
      g_assert_cmpfloat_with_epsilon (sx / s, expect[f], 0.01);
    }
}

/* An image obstacle: a disc drawn at twice the grid's resolution gives the
 * disc's mask, its ramp from the distance transform; invert swaps sides. */
static void
test_obstacle_image (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "disc.png", NULL);
  const guint s = 256;
  g_autofree float *img = g_new (float, s * s);
  for (guint j = 0; j < s; j++)
    for (guint i = 0; i < s; i++)
      {
        /* Pixel centres in metres (the image covers the 64 m grid). */
        double x = (i + 0.5) * 0.25, y = (j + 0.5) * 0.25;
        img[j * s + i] = hypot (x - 32.25, y - 32.25) < 10 ? 0.0f : 1.0f;
      }
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write16 (path, s, s, 1, img, 0, 1, &error));
  g_autofree char *image = g_strdup_printf ("image=%s", path);
  g_autofree float *from_image = mask_of (0, "shape=image", image, "border=1", NULL);
  /* The same disc as a shape: cell (i, j) of the image's grid is centred at
   * ((i + ½) Δ, (j + ½) Δ), which the shape sees at (iΔ, jΔ). */
  g_autofree float *shape = mask_of (0, "shape=circle", "x=32", "y=32", "radius=10", "border=1", NULL);
  g_assert_cmpfloat_with_epsilon (solid_area (from_image), G_PI * 100, 0.02 * G_PI * 100);
  guint disagree = 0;
  for (gsize p = 0; p < 128 * 128; p++)
    disagree += fabs (from_image[p] - shape[p]) > 0.3;
  g_assert_cmpuint (disagree, <, 20);
  g_autofree float *inverted = mask_of (0, "shape=image", image, "invert=true", "border=0", NULL);
  g_assert_cmpfloat (inverted[64 * 128 + 64], ==, 1);
  g_assert_cmpfloat (inverted[0], ==, 0);
  g_unlink (path);
  g_rmdir (dir);
}

/* Bad obstacle input: the error names the node and parameter and says what
 * was wrong; with keep_going an interactive session survives a bad image
 * path set live and recovers when it is fixed. */
static void
test_obstacle_errors (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *text = g_build_filename (dir, "notes.png", NULL);
  g_assert_true (g_file_set_contents (text, "not an image\n", -1, NULL));
  g_autofree char *good = g_build_filename (dir, "good.png", NULL);
  float px[16 * 16];
  for (guint i = 0; i < 256; i++)
    px[i] = i < 128 ? 0.0f : 1.0f;
  g_assert_true (wg_png_write16 (good, 16, 16, 1, px, 0, 1, NULL));

  const struct {
    const char *param, *value, *expect;
  } cases[] = {
    { "image", "/nonexistent/harbour.png", "harbour.png" },
    { "image", text, "not" },
    { "image", "", "needs an image" },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
      wg_test_add (g, "obstacle-mask", "harbour", "shape=image", NULL);
      g_assert_true (wg_graph_set_param_from_text (g, "harbour", cases[c].param, cases[c].value, NULL));
      WgPlanOptions o = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
      g_autoptr (GError) error = NULL;
      g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
      g_assert_null (plan);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "harbour"));
      g_assert_nonnull (strstr (error->message, cases[c].expect));
    }

  /* Too few points: planning fails; a malformed point is refused when set. */
  {
    g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
    wg_test_add (g, "obstacle-mask", "pier", "shape=polygon", NULL);
    g_assert_true (wg_graph_set_param_from_text (g, "pier", "points", "0,0 1,0", NULL));
    WgPlanOptions o = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
    g_autoptr (GError) error = NULL;
    g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
    g_assert_null (plan);
    g_assert_nonnull (strstr (error->message, "pier"));
    g_assert_nonnull (strstr (error->message, "points"));
    g_assert_nonnull (strstr (error->message, "at least 3 points"));
  }
  {
    g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
    wg_test_add (g, "obstacle-mask", "pier", "shape=polygon", NULL);
    g_autoptr (GError) error = NULL;
    g_assert_false (wg_graph_set_param_from_text (g, "pier", "points", "0,0 1,x 2,2", &error));
    g_assert_nonnull (strstr (error->message, "pier.points: point 1"));
  }

  /* Live: the image path is a graph input. */
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
  wg_test_add (g, "obstacle-mask", "harbour", "shape=image", NULL);
  g_assert_true (wg_graph_set_param_from_text (g, "harbour", "image", good, NULL));
  wg_test_add (g, "iwave", "water", NULL);
  wg_test_add (g, "source", "poke", "x=40", "y=32", "radius=4", "duration=inf", NULL);
  wg_test_link (g, "harbour:mask", "water:obstruction");
  g_assert_true (wg_graph_set_input (g, "chart", "harbour", "image", NULL));
  WgPlanOptions o = { wg_test_backend, 0, FALSE, NULL, FALSE, TRUE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate (plan, 0, &error));
  g_assert_true (wg_plan_set_input_from_text (plan, "chart", "/nonexistent/chart.png", &error));
  g_assert_no_error (error);
  wg_plan_evaluate (plan, 1, &error);
  g_clear_error (&error);
  const GError *node_error = wg_plan_get_node_error (plan, "harbour");
  g_assert_nonnull (node_error);
  g_assert_nonnull (strstr (node_error->message, "chart.png"));
  g_assert_nonnull (wg_plan_get_node_error (plan, "water"));
  /* The poke, which does not depend on it, still ran. */
  g_assert_null (wg_plan_get_node_error (plan, "poke"));
  g_assert_true (wg_plan_set_input_from_text (plan, "chart", good, &error));
  g_assert_true (wg_plan_evaluate (plan, 2, &error));
  g_assert_no_error (error);
  g_assert_null (wg_plan_get_node_error (plan, "harbour"));
  const float *mask = wg_test_eval (plan, 2, "harbour:mask");
  g_assert_cmpfloat (mask[0], ==, 0);
  g_assert_cmpfloat (mask[63 * 64 + 63], ==, 1);

  g_unlink (text);
  g_unlink (good);
  g_rmdir (dir);
}

/* ---------------------------------------------------------------------------
 * Sources
 * ------------------------------------------------------------------------- */

static double
field_sum (const float *f, gsize n)
{
  double s = 0;
  for (gsize i = 0; i < n; i++)
    s += f[i];
  return s;
}

static void
test_source_windows (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (128, 64, 10, 1);
  wg_test_add (g, "source", "once", "x=20", "y=30", "radius=6", "amplitude=0.2", "start=1", NULL);
  wg_test_add (g, "source", "while", "x=40", "y=30", "radius=3", "amplitude=0.1", "start=2",
               "duration=0.5", NULL);
  wg_test_add (g, "source", "always", "x=30", "y=50", "radius=2", "amplitude=-0.1", "start=0.5",
               "duration=inf", NULL);
  wg_test_add (g, "source", "pulse", "mode=oscillator", "x=10", "y=10", "radius=4",
               "amplitude=0.3", "frequency=0.75", "start=0", "duration=inf", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  /* ∫ (1 − r²/R²)² dA = π R² / 3 (cells of 0.25 m²). */
  for (gint64 f = 0; f < 40; f++)
    {
      double t = f / 10.0;
      double once = field_sum (wg_test_eval (plan, f, "once:source"), 128 * 128) * 0.25;
      double during = field_sum (wg_test_eval (plan, f, "while:source"), 128 * 128) * 0.25;
      double always = field_sum (wg_test_eval (plan, f, "always:source"), 128 * 128) * 0.25;
      const float *pulse = wg_test_eval (plan, f, "pulse:source");
      g_assert_cmpfloat_with_epsilon (once, f == 10 ? 0.2 * G_PI * 36 / 3 : 0, 0.01 * 0.2 * G_PI * 12);
      g_assert_cmpfloat_with_epsilon (during, f >= 20 && f < 25 ? 0.1 * G_PI * 9 / 3 : 0,
                                      0.01 * 0.1 * G_PI * 3);
      g_assert_cmpfloat_with_epsilon (always, f >= 5 ? -0.1 * G_PI * 4 / 3 : 0,
                                      0.02 * 0.1 * G_PI * 4 / 3);
      /* The centre (10 m, 10 m) is cell (20, 20). */
      g_assert_cmpfloat_with_epsilon (pulse[20 * 128 + 20], 0.3 * sin (2 * G_PI * 0.75 * t), 1e-5);
    }
}

static void
test_source_wake_and_chain (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 32, 10, 1);
  wg_test_add (g, "obstacle-mask", "hull", "shape=capsule", "x=16", "y=16", "radius=2",
               "length=6", "border=1", NULL);
  wg_test_add (g, "source", "bow", "x=8", "y=8", "radius=3", "amplitude=0.05", NULL);
  wg_test_add (g, "source", "wake", "mode=wake", "amplitude=0.02", "duration=inf", NULL);
  wg_test_link (g, "hull:mask", "wake:obstruction");
  wg_test_link (g, "bow:source", "wake:source");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *bow = wg_test_eval_copy (plan, 0, "bow:source", NULL);
  g_autofree float *mask = wg_test_eval_copy (plan, 0, "hull:mask", NULL);
  const float *wake = wg_test_eval (plan, 0, "wake:source");
  for (gsize p = 0; p < 64 * 64; p++)
    g_assert_cmpfloat (fabs (wake[p] - (bow[p] + 0.02f * (1 - mask[p]))), <, 1e-7);
  g_assert_cmpfloat (field_sum (bow, 64 * 64), >, 0);

  /* The wake mode without the hull's mask is an error that says so. */
  g_autoptr (WgGraph) bad = wg_test_graph (64, 32, 10, 1);
  wg_test_add (bad, "source", "wake", "mode=wake", NULL);
  WgPlanOptions o = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) none = wg_plan_new (bad, &o, &error);
  g_assert_null (none);
  g_assert_nonnull (strstr (error->message, "wake"));
  g_assert_nonnull (strstr (error->message, "obstruction"));
}

/* Parameters the grid cannot honour. */
static void
test_iwave_errors (void)
{
  const struct {
    guint nx, ny;
    double fps; /* 0: the default */
    const char *param, *expect;
  } cases[] = {
    { 64, 64, 0, "kernel_radius=32", "below half the grid" },
    { 64, 32, 0, "kernel_radius=6", "square cells" },
    /* Cells far too small for the frame rate: refused, not hours per frame. */
    { 64, 64, 1e-6, "kernel_radius=6",
      "nodes[0] (\"water\"): cells of 0.25 m at 1e-06 frames/s need more than 4096 sub-steps "
      "per frame" },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (WgGraph) g = wg_graph_new ();
      WgSettings s = *wg_graph_get_settings (g);
      s.grid[0] = cases[c].nx;
      s.grid[1] = cases[c].ny;
      s.extent[0] = s.extent[1] = 16;
      if (cases[c].fps > 0)
        s.fps = cases[c].fps;
      g_assert_true (wg_graph_set_settings (g, &s, NULL));
      wg_test_add (g, "iwave", "water", cases[c].param, NULL);
      WgPlanOptions o = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
      g_autoptr (GError) error = NULL;
      g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
      g_assert_null (plan);
      g_assert_nonnull (strstr (error->message, "water"));
      g_assert_nonnull (strstr (error->message, cases[c].expect));
    }

  /* What shapes the plan cannot be keyframed (it can be a graph input). */
  g_autoptr (WgGraph) g = wg_test_graph (64, 16, 30, 1);
  wg_test_add (g, "iwave", "water", NULL);
  const double times[] = { 0, 1 }, values[] = { 0, 0.5 };
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_graph_set_param_keyframes (g, "water", "surface_tension", times, values, 2,
                                                &error));
  g_assert_nonnull (strstr (error->message, "water.surface_tension: cannot be animated"));
  g_clear_error (&error);
  g_assert_true (wg_graph_set_param_keyframes (g, "water", "gravity", times + 1, values + 1, 1,
                                               &error));
  g_assert_no_error (error);
}

/* ---------------------------------------------------------------------------
 * Both backends
 * ------------------------------------------------------------------------- */

/* CPU/GPU parity of every mode of the interaction nodes in one graph: box,
 * polygon and image obstacles chained, impulse/oscillator/wake sources,
 * iwave periodic-direct and reflecting-FFT with smoothing and an ambient,
 * both blends; every output over 12 frames within 1e-5 of its scale, and
 * 1e-4 downstream of the ambient ocean, whose own backends differ by up to
 * 4e-5 of its largest wave here (test-backends allows 1e-4·Hs). */
static void
test_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autofree char *image = wg_test_source_path ("graphs", "data", "harbor-mask.png", NULL);
  g_autofree char *image_param = g_strdup_printf ("image=%s", image);
  g_autoptr (WgGraph) g = wg_test_graph (128, 64, 30, 5);
  wg_test_add (g, "ocean-spectrum", "sea", "wind_speed=5", "resolution=64", "patch_size=20", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_link (g, "sea:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_add (g, "obstacle-mask", "chart", "shape=image", image_param, "border=1", NULL);
  wg_test_add (g, "obstacle-mask", "pier", "shape=box", "x=40", "y=20", "width=3", "height=12",
               "rotation=20", "border=0.5", NULL);
  wg_test_add (g, "obstacle-mask", "rock", "shape=polygon", "x=20", "y=40",
               "points=0,0 4,-1 5,3 1,4", "border=0.5", NULL);
  wg_test_add (g, "obstacle-mask", "boat", "shape=capsule", "y=30", "radius=1", "length=4",
               "border=1", NULL);
  const double times[] = { 0, 1 }, xs[] = { 10, 30 };
  g_assert_true (wg_graph_set_param_keyframes (g, "boat", "x", times, xs, 2, NULL));
  wg_test_link (g, "chart:mask", "pier:mask");
  wg_test_link (g, "pier:mask", "rock:mask");
  wg_test_link (g, "rock:mask", "boat:mask");
  wg_test_add (g, "obstacle-mask", "hull", "shape=capsule", "y=30", "radius=1", "length=4",
               "border=1", NULL);
  g_assert_true (wg_graph_set_param_keyframes (g, "hull", "x", times, xs, 2, NULL));
  wg_test_add (g, "source", "drop", "x=50", "y=45", "radius=2", "amplitude=0.05", NULL);
  wg_test_add (g, "source", "buoy", "mode=oscillator", "x=30", "y=50", "radius=1.5",
               "amplitude=0.02", "frequency=0.8", "duration=inf", NULL);
  wg_test_add (g, "source", "wake", "mode=wake", "amplitude=0.01", "duration=inf", NULL);
  wg_test_link (g, "drop:source", "buoy:source");
  wg_test_link (g, "buoy:source", "wake:source");
  wg_test_link (g, "hull:mask", "wake:obstruction");
  wg_test_add (g, "iwave", "bay", "kernel_radius=12", "method=fft", "boundary=reflecting",
               "smoothing=8", NULL);
  wg_test_link (g, "wake:source", "bay:source");
  wg_test_link (g, "boat:mask", "bay:obstruction");
  wg_test_link (g, "fft:height", "bay:ambient");
  wg_test_add (g, "iwave", "pond", "kernel_radius=5", "method=direct", "boundary=periodic",
               "surface_tension=0.3", NULL);
  wg_test_link (g, "drop:source", "pond:source");
  wg_test_add (g, "ambient-blend", "cut", "mode=subtract", "scale=0.5", NULL);
  wg_test_link (g, "bay:height", "cut:height");
  wg_test_link (g, "fft:height", "cut:ambient");
  wg_test_link (g, "boat:mask", "cut:obstruction");
  wg_test_add (g, "ambient-blend", "view", "mode=add", "wrap=false", NULL);
  wg_test_link (g, "bay:height", "view:height");
  wg_test_link (g, "fft:height", "view:ambient");

  WgPlanOptions cpu_options = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
  WgPlanOptions gpu_options = { WG_BACKEND_GPU, 0, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) cpu = wg_plan_new (g, &cpu_options, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) gpu = wg_plan_new (g, &gpu_options, &error);
  g_assert_no_error (error);
  const char *outputs[] = { "boat:mask", "wake:source", "pond:height", "fft:height",
                            "bay:height", "bay:vertical_derivative", "cut:height", "view:height" };
  const guint first_ambient = 3;
  double worst[G_N_ELEMENTS (outputs)] = { 0 };
  for (gint64 f = 0; f < 12; f++)
    for (guint o = 0; o < G_N_ELEMENTS (outputs); o++)
      {
        gsize n;
        g_autofree float *a = wg_test_eval_copy (cpu, f, outputs[o], &n);
        g_autofree float *b = wg_test_eval_copy (gpu, f, outputs[o], NULL);
        double scale = max_abs (a, n);
        g_assert_cmpfloat (scale, >, 0);
        worst[o] = fmax (worst[o], max_diff (a, b, n) / scale);
        if (max_diff (a, b, n) > (o >= first_ambient ? 1e-4 : 1e-5) * scale)
          g_error ("%s, frame %" G_GINT64_FORMAT ": CPU and GPU differ by %g (scale %g)",
                   outputs[o], f, max_diff (a, b, n), scale);
      }
  for (guint o = 0; o < G_N_ELEMENTS (outputs); o++)
    g_test_message ("%s: max |gpu − cpu| = %.2g of its scale", outputs[o], worst[o]);
}

/* An obstacle that leaves no water says so, the same on both backends; a
 * real one says nothing. The mask it makes is all solid (0). */
static void
test_obstacle_covers_all (void)
{
  g_autofree char *path = g_build_filename (WG_SOURCE_DIR, "graphs", "pool.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  {
    g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
    wg_test_eval (plan, 0, "pillar:mask");
    g_assert_null (wg_plan_get_node_note (plan, "pillar", NULL));
  }
  g_assert_true (wg_graph_set_param_double (g, "pillar", "radius", 99999, &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const float *mask = wg_test_eval (plan, 0, "pillar:mask");
  const WgSettings *s = wg_graph_get_settings (g);
  for (gsize p = 0; p < (gsize) s->grid[0] * s->grid[1]; p++)
    g_assert_cmpfloat (mask[p], ==, 0);
  gboolean warning = FALSE;
  const char *note = wg_plan_get_node_note (plan, "pillar", &warning);
  g_assert_cmpstr (note, ==, "the obstacle covers the whole 16 × 16 m patch: no water is left "
                             "(check its size, scale and position)");
  g_assert_true (warning);
}

static void
add_both (const char *name, GTestFunc func)
{
  wg_test_add_both ("iwave", name, func);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/iwave/kernel-closed-form", test_kernel_closed_form);
  g_test_add_func ("/iwave/operator", test_operator);
  g_test_add_func ("/iwave/operator-stable", test_operator_stable);
  g_test_add_func ("/iwave/surface-tension", test_surface_tension);
  g_test_add_func ("/iwave/errors", test_iwave_errors);
  g_test_add_func ("/iwave/cpu/thread-determinism", test_thread_determinism);
  g_test_add_func ("/iwave/parity", test_parity);
  add_both ("convolution-is-plain-sum", test_convolution_is_plain_sum);
  add_both ("dispersion", test_dispersion);
  add_both ("damping", test_damping);
  add_both ("smoothing", test_smoothing);
  add_both ("reflecting-is-mirror", test_reflecting_is_mirror);
  add_both ("translation", test_translation);
  add_both ("methods-agree", test_methods_agree);
  add_both ("wall-blocks", test_wall_blocks);
  add_both ("substeps", test_substeps);
  add_both ("ambient", test_ambient);
  add_both ("ambient-subtract", test_ambient_subtract);
  add_both ("save-restore", test_save_restore);
  add_both ("obstacle-covers-all", test_obstacle_covers_all);
  add_both ("live-inputs", test_live_inputs);
  add_both ("interleaved-plans", test_interleaved_plans);
  add_both ("obstacle-shapes", test_obstacle_shapes);
  add_both ("obstacle-keyframes", test_obstacle_keyframes);
  add_both ("obstacle-image", test_obstacle_image);
  add_both ("obstacle-errors", test_obstacle_errors);
  add_both ("source-windows", test_source_windows);
  add_both ("source-wake-and-chain", test_source_wake_and_chain);
  return g_test_run ();
}
