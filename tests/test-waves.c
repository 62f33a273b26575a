/* test-waves.c — wave-train boxes (gerstner) against the equations of
 * Yrjölä & Larsson (papers/002) on both backends, the sea floor they read
 * (bathymetry), land damping behind an obstacle, depth refraction, culling
 * that leaves the visible surface unchanged, and located errors for bad
 * boxes and frustums.
 *
 * Longer than ~600 lines: one suite for the wave-train node and the floor it
 * reads, sharing the box-building helpers.
 */
#include "wg-test-util.h"
#include "wg-ocean.h"
#include "wg-rng.h"

#include <math.h>
#include <string.h>

#define G 9.81

/* One train for the references: λ (m), A (m), direction (°, absolute), Q, Φ (°). */
typedef struct {
  double wavelength, amplitude, direction, steepness, phase;
} Ref;

/* Eq. 2–3 for @r at (x, y), time t, water depth @depth (INFINITY: eq. 5),
 * with amplitude scale @scale and an extra phase @extra (rad), added to h, dx, dy. */
static void
ref_add (const Ref *r, double x, double y, double t, double depth, double scale, double extra,
         double out[3])
{
  double k = 2 * G_PI / r->wavelength, dir = r->direction * G_PI / 180;
  double omega = isinf (depth) ? sqrt (G * k) : sqrt (G * k * tanh (k * depth));
  double theta = k * (cos (dir) * x + sin (dir) * y) - omega * t + r->phase * G_PI / 180 + extra;
  double a = scale * r->amplitude;
  out[0] += a * cos (theta);
  out[1] -= r->steepness * a * cos (dir) * sin (theta);
  out[2] -= r->steepness * a * sin (dir) * sin (theta);
}

/* Sets "param=value" pairs (NULL-terminated) on node @id. */
static void
set_params (WgGraph *g, const char *id, const char *const *settings)
{
  for (guint i = 0; settings && settings[i]; i++)
    {
      g_auto (GStrv) p = g_strsplit (settings[i], "=", 2);
      g_autoptr (GError) error = NULL;
      if (!wg_graph_set_param_from_text (g, id, p[0], p[1], &error))
        g_error ("%s.%s: %s", id, p[0], error->message);
    }
}

/* n×n grid over n metres (Δ = 1 m) at 30 fps, seed 5, with a gerstner node
 * "waves" (hard box edges unless @settings say otherwise). */
static WgGraph *
waves_graph (guint n, const char *boxes, const char *const *settings)
{
  WgGraph *g = wg_test_graph (n, n, 30, 5);
  g_autofree char *b = g_strdup_printf ("boxes=%s", boxes);
  wg_test_add (g, "gerstner", "waves", b, "margin=0", NULL);
  set_params (g, "waves", settings);
  return g;
}

/* Adds a bathymetry node "floor" with @settings, linked into waves:depth. */
static void
add_floor (WgGraph *g, const char *const *settings)
{
  wg_test_add (g, "bathymetry", "floor", NULL);
  set_params (g, "floor", settings);
  wg_test_link (g, "floor:depth", "waves:depth");
}

/* Height and displacement of frame @frame. */
static void
evaluate (WgPlan *plan, gint64 frame, float **h, float **d)
{
  wg_plan_get_node_output (plan, "waves", "displacement");
  *h = wg_test_eval_copy (plan, frame, "waves:height", NULL);
  *d = wg_test_eval_copy (plan, frame, "waves:displacement", NULL);
}

/* Largest difference between the node's cell (i, j) and @ref (h, dx, dy). */
static double
cell_error (const float *h, const float *d, guint n, guint i, guint j, const double ref[3])
{
  gsize c = (gsize) j * n + i;
  double e = fabs (h[c] - ref[0]);
  e = fmax (e, fabs (d[3 * c] - ref[1]));
  e = fmax (e, fabs (d[3 * c + 1] - ref[2]));
  return fmax (e, fabs (d[3 * c + 2] - h[c]));
}

/* ---------------------------------------------------------------------------
 * Equations
 * ------------------------------------------------------------------------- */

/* A single train is eq. 2–3 (Q = 1: exactly the paper's; Q < 1 scales the
 * horizontal motion), deep (eq. 5) and at 5 m depth (eq. 4), at t = 0.23 s
 * and t = 3333 s; several trains and overlapping boxes add up (eq. 6–7). */
static void
test_equations (void)
{
  const guint n = 128;
  const Ref single[] = { { 12.5, 0.4, 30, 1.0, 20 }, { 12.5, 0.4, 30, 0.7, 20 } };
  const double depths[] = { INFINITY, 5 };
  const gint64 frames[] = { 7, 100000 };
  double worst = 0;
  for (guint s = 0; s < G_N_ELEMENTS (single); s++)
    for (guint dd = 0; dd < G_N_ELEMENTS (depths); dd++)
      {
        g_autofree char *boxes = g_strdup_printf (
          "[{\"center\": [64, 64], \"size\": [400, 400], \"direction\": 30, \"trains\": "
          "[{\"wavelength\": 12.5, \"amplitude\": 0.4, \"steepness\": %g, \"phase\": 20}]}]",
          single[s].steepness);
        g_autofree char *depth = g_strdup_printf ("depth=%g", depths[dd]);
        g_autoptr (WgGraph) g = waves_graph (n, boxes, (const char *[]) { depth, NULL });
        g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
        for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
          {
            g_autofree float *h = NULL, *d = NULL;
            evaluate (plan, frames[f], &h, &d);
            double t = frames[f] / 30.0, err = 0;
            for (guint j = 0; j < n; j++)
              for (guint i = 0; i < n; i++)
                {
                  double ref[3] = { 0, 0, 0 };
                  ref_add (&single[s], i, j, t, depths[dd], 1, 0, ref);
                  err = fmax (err, cell_error (h, d, n, i, j, ref));
                }
            g_test_message ("Q %g depth %g t %.2f s: max error %.3g m", single[s].steepness,
                            depths[dd], t, err);
            worst = fmax (worst, err);
          }
      }
  g_assert_cmpfloat (worst, <, 2e-6);

  /* Eq. 6–7: three trains in one box plus a second, overlapping box. */
  const Ref trains[] = { { 20, 0.5, 10, 0.8, 0 }, { 9, 0.2, 10 + 25, 0.5, 90 },
                         { 5.5, 0.1, 10 - 40, 1.0, -45 }, { 30, 0.3, -100, 0.6, 10 } };
  g_autoptr (WgGraph) g = waves_graph (
    n,
    "[{\"center\": [64, 64], \"size\": [300, 300], \"direction\": 10, \"trains\": ["
    "{\"wavelength\": 20, \"amplitude\": 0.5, \"steepness\": 0.8},"
    "{\"wavelength\": 9, \"amplitude\": 0.2, \"angle\": 25, \"steepness\": 0.5, \"phase\": 90},"
    "{\"wavelength\": 5.5, \"amplitude\": 0.1, \"angle\": -40, \"phase\": -45}]},"
    "{\"center\": [60, 70], \"size\": [300, 300], \"direction\": -100, \"trains\": ["
    "{\"wavelength\": 30, \"amplitude\": 0.3, \"steepness\": 0.6, \"phase\": 10}]}]", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *h = NULL, *d = NULL;
  evaluate (plan, 45, &h, &d);
  double err = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double ref[3] = { 0, 0, 0 };
        for (guint r = 0; r < G_N_ELEMENTS (trains); r++)
          ref_add (&trains[r], i, j, 1.5, INFINITY, 1, 0, ref);
        err = fmax (err, cell_error (h, d, n, i, j, ref));
      }
  g_test_message ("eq. 6–7, 4 trains in 2 boxes: max error %.3g m", err);
  g_assert_cmpfloat (err, <, 4e-6);
}

/* Box coordinates (u, v) of (x, y) in a box with centre @c, size @size, direction @deg. */
static void
box_uv (const double c[2], const double size[2], double deg, double x, double y, double *u,
        double *v)
{
  double ux = cos (deg * G_PI / 180), uy = sin (deg * G_PI / 180);
  double ox = c[0] - 0.5 * size[0] * ux + 0.5 * size[1] * uy;
  double oy = c[1] - 0.5 * size[0] * uy - 0.5 * size[1] * ux;
  *u = (x - ox) * ux + (y - oy) * uy;
  *v = (y - oy) * ux - (x - ox) * uy;
}

/* The smoothing margin fades the waves linearly over its width inside the
 * box's sides; outside the box the sea is flat. */
static void
test_margin (void)
{
  const guint n = 128;
  const double c[2] = { 60, 70 }, size[2] = { 80, 50 };
  const Ref r = { 10, 0.3, 25, 0.9, 0 };
  g_autoptr (WgGraph) g = waves_graph (
    n, "[{\"center\": [60, 70], \"size\": [80, 50], \"direction\": 25, \"trains\": "
       "[{\"wavelength\": 10, \"amplitude\": 0.3, \"steepness\": 0.9}]}]",
    (const char *[]) { "margin=12", NULL });
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *h = NULL, *d = NULL;
  evaluate (plan, 3, &h, &d);
  double err = 0;
  guint inside = 0, faded = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double u, v;
        box_uv (c, size, 25, i, j, &u, &v);
        double m = fmin (fmin (u, size[0] - u), fmin (v, size[1] - v));
        double scale = CLAMP (m / 12, 0, 1), ref[3] = { 0, 0, 0 };
        ref_add (&r, i, j, 0.1, INFINITY, scale, 0, ref);
        err = fmax (err, cell_error (h, d, n, i, j, ref));
        inside += m > 0;
        faded += m > 0 && m < 12;
      }
  g_test_message ("margin: %u cells inside, %u in the margin, max error %.3g m", inside, faded, err);
  g_assert_cmpuint (faded, >, 1000);
  g_assert_cmpfloat (err, <, 2e-6);
}

/* Eq. 8 (irregular height, as the node reads it: a wave group
 * sin 2π(u − c_g t)/Λ travelling with the train) and eq. 10 (round waves,
 * phase k (v − W/2)²/W). */
static void
test_irregular_and_round (void)
{
  const guint n = 128;
  const double c[2] = { 64, 64 }, size[2] = { 300, 200 }, a = 0.6, spacing = 40;
  const Ref r = { 16, 0.5, -30, 0.5, 0 };
  g_autoptr (WgGraph) g = waves_graph (
    n, "[{\"center\": [64, 64], \"size\": [300, 200], \"direction\": -30, \"trains\": "
       "[{\"wavelength\": 16, \"amplitude\": 0.5, \"steepness\": 0.5}]}]",
    (const char *[]) { "irregular_height=0.6", "irregular_spacing=40", "round_waves=true", NULL });
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const gint64 frame = 250;
  const double t = frame / 30.0, k = 2 * G_PI / r.wavelength;
  const double cg = 0.5 * sqrt (G * k) / k;
  g_autofree float *h = NULL, *d = NULL;
  evaluate (plan, frame, &h, &d);
  double err = 0, lo = INFINITY, hi = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double u, v, ref[3] = { 0, 0, 0 };
        box_uv (c, size, -30, i, j, &u, &v);
        double scale = 1 - a * sin (2 * G_PI * (u - cg * t) / spacing) * sin (2 * G_PI * v / spacing);
        double round = k * (v - 0.5 * size[1]) * (v - 0.5 * size[1]) / size[1];
        ref_add (&r, i, j, t, INFINITY, scale, round, ref);
        err = fmax (err, cell_error (h, d, n, i, j, ref));
        lo = fmin (lo, scale);
        hi = fmax (hi, scale);
      }
  g_test_message ("eq. 8 + 10: amplitude scale %.2f … %.2f, max error %.3g m", lo, hi, err);
  g_assert_cmpfloat (lo, <, 0.5);
  g_assert_cmpfloat (hi, >, 1.5);
  g_assert_cmpfloat (err, <, 1e-5);
}

/* Eq. 9: without boxes the surface is the noise alone, b sin(r t + φ) with
 * r = r_max ρ, (ρ, φ) drawn per cell from Philox (seed, i, j). */
static void
test_noise (void)
{
  const guint n = 64;
  const double b = 0.04, rmax = 3;
  g_autoptr (WgGraph) g = waves_graph (
    n, "[]", (const char *[]) { "noise_amplitude=0.04", "noise_frequency=3", "seed=9", NULL });
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const gint64 frame = 123;
  const double t = frame / 30.0;
  g_autofree float *h = NULL, *d = NULL;
  evaluate (plan, frame, &h, &d);
  double err = 0, mean, var;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        WgPhilox4 w = wg_philox4x32 (i, j, 0x47455253u, 0, 5, 9);
        double rho = wg_rng_uniform (w.v[0]), phi = 2 * G_PI * wg_rng_uniform (w.v[1]);
        double ref[3] = { b * sin (rmax * rho * t + phi), 0, 0 };
        err = fmax (err, cell_error (h, d, n, i, j, ref));
      }
  wg_test_moments (h, (gsize) n * n, 1, 0, &mean, &var);
  g_test_message ("eq. 9: rms %.4f m (b/√2 = %.4f), max error %.3g m", sqrt (var), b / sqrt (2), err);
  g_assert_cmpfloat (fabs (sqrt (var) / (b / sqrt (2)) - 1), <, 0.05);
  g_assert_cmpfloat (err, <, 1e-6);
}

/* ---------------------------------------------------------------------------
 * Depth: land damping and refraction
 * ------------------------------------------------------------------------- */

/* The local amplitude factor of a single train along +x: h = f A cos θ,
 * dx = −Q f A sin θ, so f = √(h² + (dx/Q)²)/A exactly. */
static double
amplitude_factor (const float *h, const float *d, guint n, guint i, guint j, double a, double q)
{
  gsize c = (gsize) j * n + i;
  return hypot (h[c], d[3 * c] / q) / a;
}

/* An island in deep water, waves along +x: land and the shadow S behind it
 * are flat, the waves grow back over R as f = (s − S)/R, and the sea beside,
 * upwind and far downwind is eq. 2–3 untouched. */
static void
test_land_damping (void)
{
  const guint n = 128;
  const double shadow = 20, recovery = 20, shore = 50 + 8; /* the island's downwind shoreline */
  const Ref r = { 10, 0.3, 0, 0.8, 0 };
  g_autoptr (WgGraph) g = waves_graph (
    n, "[{\"center\": [64, 64], \"size\": [400, 400], \"trains\": "
       "[{\"wavelength\": 10, \"amplitude\": 0.3, \"steepness\": 0.8}]}]",
    (const char *[]) { "land_shadow=20", "land_recovery=20", NULL });
  const char *floor_params[] = { "depth=20", "island_x=50", "island_y=64", "island_radius=8",
                                 "island_slope=0.5", NULL };
  add_floor (g, floor_params);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *h = NULL, *d = NULL;
  evaluate (plan, 11, &h, &d);

  /* Flat: on the island and in the shadow behind its core. */
  guint flat = 0;
  for (guint j = 59; j <= 69; j++)
    for (guint i = 44; i <= 75; i++)
      {
        gsize c = (gsize) j * n + i;
        g_assert_cmpfloat (h[c], ==, 0);
        g_assert_cmpfloat (d[3 * c], ==, 0);
        g_assert_cmpfloat (d[3 * c + 1], ==, 0);
        flat++;
      }
  /* Recovery along the wake's centre line. */
  double worst = 0;
  for (guint i = (guint) (shore + shadow) + 1; i < shore + shadow + recovery; i++)
    {
      double f = amplitude_factor (h, d, n, i, 64, r.amplitude, r.steepness);
      double expect = CLAMP ((i - shore - shadow) / recovery, 0, 1);
      worst = fmax (worst, fabs (f - expect));
    }
  g_test_message ("land: %u cells flat; recovery |f − (s − S)/R| ≤ %.3f", flat, worst);
  g_assert_cmpfloat (worst, <, 0.06);
  /* Untouched: upwind, beside, far downwind. */
  double err = 0;
  const guint cells[][2] = { { 5, 64 }, { 30, 64 }, { 50, 20 }, { 70, 110 }, { 110, 64 }, { 125, 60 } };
  for (guint k = 0; k < G_N_ELEMENTS (cells); k++)
    {
      double ref[3] = { 0, 0, 0 };
      ref_add (&r, cells[k][0], cells[k][1], 11 / 30.0, INFINITY, 1, 0, ref);
      err = fmax (err, cell_error (h, d, n, cells[k][0], cells[k][1], ref));
    }
  g_assert_cmpfloat (err, <, 2e-6);
}

/* k with ω² = g k tanh(k d) for deep-water ω. */
static double
shoal_wavenumber (double k_deep, double d)
{
  return wg_dispersion_wavenumber (sqrt (G * k_deep), d, G);
}

/* A planar beach, waves running up it: with phase refraction the local
 * wave number (the phase gradient along the ray) follows the dispersion
 * relation at the local depth, while the frequency stays the deep-water
 * one. */
static void
test_refraction_phase (void)
{
  const guint n = 128;
  const Ref r = { 20, 0.1, 0, 1.0, 0 };
  const double k = 2 * G_PI / r.wavelength;
  g_autoptr (WgGraph) g = waves_graph (
    n, "[{\"center\": [64, 64], \"size\": [400, 400], \"trains\": "
       "[{\"wavelength\": 20, \"amplitude\": 0.1}]}]",
    (const char *[]) { "refraction=phase", "land_shadow=0", "land_recovery=0", NULL });
  /* Shoreline at x = 110, depth 0.1 (110 − x). */
  const char *floor_params[] = { "depth=30", "shore_distance=46", "slope=0.1", NULL };
  add_floor (g, floor_params);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *h0 = NULL, *d0 = NULL, *h1 = NULL, *d1 = NULL;
  evaluate (plan, 0, &h0, &d0);
  evaluate (plan, 4, &h1, &d1);

  const guint j = 40;
  double theta[128], worst = 0, dt_worst = 0;
  for (guint i = 0; i < n; i++)
    {
      gsize c = (gsize) j * n + i;
      theta[i] = atan2 (-d0[3 * c], h0[c]);
      if (i > 0)
        theta[i] += 2 * G_PI * rint ((theta[i - 1] - theta[i]) / (2 * G_PI));
    }
  for (guint i = 10; i <= 100; i++)
    {
      double depth = 0.1 * (110 - (double) i);
      double k_num = (theta[i + 2] - theta[i - 2]) / 4, k_loc = shoal_wavenumber (k, depth);
      worst = fmax (worst, fabs (k_num / k_loc - 1));
      /* Frequency: the phase at time t advanced by −ω t. */
      gsize c = (gsize) j * n + i;
      double advance = atan2 (-d1[3 * c], h1[c]) - atan2 (-d0[3 * c], h0[c]);
      double expect = -sqrt (G * k) * 4 / 30.0;
      dt_worst = fmax (dt_worst, fabs (remainder (advance - expect, 2 * G_PI)));
    }
  g_test_message ("refraction: k at 1 m depth %.3f rad/m (deep %.3f); |k/k_loc − 1| ≤ %.4f, "
                  "frequency off by ≤ %.2g rad",
                  (theta[102] - theta[98]) / 4, k, worst, dt_worst);
  g_assert_cmpfloat (shoal_wavenumber (k, 1), >, 1.8 * k);
  g_assert_cmpfloat (worst, <, 0.02);
  g_assert_cmpfloat (dt_worst, <, 1e-4);
}

/* Refraction "frequency" is eq. 4 with the local depth: over a uniform 3 m
 * floor the surface equals eq. 2–4 with D = 3 m, and equals the node with
 * depth = 3 and no refraction. */
static void
test_refraction_frequency (void)
{
  const guint n = 64;
  const char *boxes = "[{\"center\": [32, 32], \"size\": [200, 200], \"direction\": 45, "
                      "\"trains\": [{\"wavelength\": 14, \"amplitude\": 0.2, \"steepness\": 0.5}]}]";
  const Ref r = { 14, 0.2, 45, 0.5, 0 };
  g_autoptr (WgGraph) g = waves_graph (n, boxes, (const char *[]) { "refraction=frequency", NULL });
  const char *floor_params[] = { "depth=3", NULL };
  add_floor (g, floor_params);
  g_autoptr (WgGraph) uniform = waves_graph (n, boxes, (const char *[]) { "depth=3", NULL });
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autoptr (WgPlan) plan_uniform = wg_test_plan (uniform, 0);
  const gint64 frame = 900;
  g_autofree float *h = NULL, *d = NULL, *hu = NULL, *du = NULL;
  evaluate (plan, frame, &h, &d);
  evaluate (plan_uniform, frame, &hu, &du);
  double err = 0, diff = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double ref[3] = { 0, 0, 0 };
        ref_add (&r, i, j, frame / 30.0, 3, 1, 0, ref);
        err = fmax (err, cell_error (h, d, n, i, j, ref));
        diff = fmax (diff, fabs (h[j * n + i] - hu[j * n + i]));
      }
  g_test_message ("eq. 4 with the local depth: max error %.3g m, vs uniform depth %.3g m", err, diff);
  g_assert_cmpfloat (err, <, 2e-6);
  g_assert_cmpfloat (diff, <, 2e-6);
}

/* ---------------------------------------------------------------------------
 * Culling
 * ------------------------------------------------------------------------- */

/* Culling against a frustum changes no grid point whose displaced position
 * lies inside it (bit for bit), and does skip the box outside. */
static void
test_culling (void)
{
  const guint n = 128;
  const char *boxes =
    "[{\"center\": [30, 64], \"size\": [50, 120], \"direction\": 80, \"trains\": "
    "[{\"wavelength\": 9, \"amplitude\": 0.3, \"steepness\": 0.7}, {\"wavelength\": 5, "
    "\"amplitude\": 0.1, \"angle\": 20}]},"
    "{\"center\": [105, 64], \"size\": [40, 120], \"direction\": 180, \"trains\": "
    "[{\"wavelength\": 12, \"amplitude\": 0.4, \"steepness\": 0.6}]},"
    "{\"center\": [64, 64], \"size\": [90, 60], \"direction\": -20, \"trains\": "
    "[{\"wavelength\": 7, \"amplitude\": 0.2}]}]";
  /* 8 ≤ x ≤ 70, 10 ≤ y ≤ 118, z ≥ −20: the second box (x ≥ 85) is outside. */
  const char *frustum = "[[1, 0, 0, -8], [-1, 0, 0, 70], [0, 1, 0, -10], [0, -1, 0, 118], "
                        "[0.1, 0, 1, 20]]";
  const double planes[][4] = { { 1, 0, 0, -8 }, { -1, 0, 0, 70 }, { 0, 1, 0, -10 },
                               { 0, -1, 0, 118 }, { 0.1, 0, 1, 20 } };
  g_autoptr (WgGraph) g = waves_graph (
    n, boxes, (const char *[]) { "margin=8", "noise_amplitude=0.01", "irregular_height=0.3", NULL });
  g_autoptr (WgPlan) all = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_string (g, "waves", "frustum", frustum, &error));
  g_autoptr (WgPlan) culled = wg_test_plan (g, 0);
  g_autofree float *h = NULL, *d = NULL, *hc = NULL, *dc = NULL;
  evaluate (all, 17, &h, &d);
  evaluate (culled, 17, &hc, &dc);
  guint visible = 0, changed = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        gsize c = (gsize) j * n + i;
        double p[3] = { i + d[3 * c], j + d[3 * c + 1], d[3 * c + 2] };
        gboolean inside = TRUE;
        for (guint k = 0; k < G_N_ELEMENTS (planes); k++)
          inside &= planes[k][0] * p[0] + planes[k][1] * p[1] + planes[k][2] * p[2] + planes[k][3] >= 0;
        changed += h[c] != hc[c];
        if (!inside)
          continue;
        visible++;
        g_assert_cmpmem (&h[c], sizeof (float), &hc[c], sizeof (float));
        g_assert_cmpmem (&d[3 * c], 3 * sizeof (float), &dc[3 * c], 3 * sizeof (float));
      }
  g_test_message ("culling: %u visible cells identical, %u cells elsewhere changed", visible,
                  changed);
  g_assert_cmpuint (visible, >, 6000);
  g_assert_cmpuint (changed, >, 1000);
}

/* ---------------------------------------------------------------------------
 * Sea floor, backends, threads
 * ------------------------------------------------------------------------- */

/* Bathymetry is its formula: min(D, m_b (s₀ − (p − c)·n̂), m_i (|p − q| − R)). */
static void
test_bathymetry (void)
{
  const guint n = 64;
  g_autoptr (WgGraph) g = wg_test_graph (n, 128, 30, 1);
  wg_test_add (g, "bathymetry", "floor", "depth=12", "shore_direction=30", "shore_distance=20",
               "slope=0.08", "island_x=40", "island_y=90", "island_radius=9", "island_slope=0.7",
               NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *depth = wg_test_eval_copy (plan, 0, "floor:depth", NULL);
  const double nx = cos (G_PI / 6), ny = sin (G_PI / 6);
  double err = 0, lo = INFINITY;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double x = 2.0 * i, y = 2.0 * j;
        double beach = 0.08 * (20 - ((x - 64) * nx + (y - 64) * ny));
        double island = 0.7 * (hypot (x - 40, y - 90) - 9);
        double expect = fmin (12, fmin (beach, island));
        err = fmax (err, fabs (depth[j * n + i] - expect));
        lo = fmin (lo, expect);
      }
  g_test_message ("bathymetry: max error %.3g m, lowest %.2f m (land)", err, lo);
  g_assert_cmpfloat (lo, <, -3);
  g_assert_cmpfloat (err, <, 1e-5);
}

/* Every effect at once: beach, island, two boxes, refraction (either kind),
 * irregular height, round waves, noise. */
static WgGraph *
everything_graph (const char *refraction)
{
  g_autofree char *r = g_strdup_printf ("refraction=%s", refraction);
  WgGraph *g = waves_graph (
    128,
    "[{\"center\": [50, 64], \"size\": [120, 110], \"direction\": 15, \"trains\": ["
    "{\"wavelength\": 14, \"amplitude\": 0.35, \"steepness\": 0.7},"
    "{\"wavelength\": 9, \"amplitude\": 0.15, \"angle\": 20, \"phase\": 40}]},"
    "{\"center\": [70, 60], \"size\": [150, 90], \"direction\": -10, \"trains\": ["
    "{\"wavelength\": 22, \"amplitude\": 0.25, \"steepness\": 0.5}]}]",
    (const char *[]) { r, "margin=10", "irregular_height=0.3", "round_waves=true",
                       "noise_amplitude=0.01", "land_shadow=8", "land_recovery=25", NULL });
  const char *floor_params[] = { "depth=14", "shore_distance=40", "slope=0.12", "island_x=70",
                                 "island_y=40", "island_radius=6", "island_slope=0.4", NULL };
  add_floor (g, floor_params);
  return g;
}

/* CPU and GPU compute the same surface: within 1e-4·Hs (test-backends'
 * bound for the example graphs), over several frames. */
static void
test_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  const char *modes[] = { "phase", "frequency", "none" };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr (WgGraph) g = everything_graph (modes[m]);
      wg_test_backend = WG_BACKEND_CPU;
      g_autoptr (WgPlan) cpu = wg_test_plan (g, 0);
      wg_test_backend = WG_BACKEND_GPU;
      g_autoptr (WgPlan) gpu = wg_test_plan (g, 0);
      wg_test_backend = WG_BACKEND_CPU;
      double worst = 0, hs = 0;
      for (gint64 f = 0; f < 300; f += 97)
        {
          g_autofree float *ha = NULL, *da = NULL, *hb = NULL, *db = NULL;
          evaluate (cpu, f, &ha, &da);
          evaluate (gpu, f, &hb, &db);
          double mean, var;
          wg_test_moments (ha, 128 * 128, 1, 0, &mean, &var);
          hs = 4 * sqrt (var);
          for (gsize c = 0; c < 128 * 128; c++)
            {
              worst = fmax (worst, fabs (ha[c] - hb[c]) / hs);
              for (guint k = 0; k < 3; k++)
                worst = fmax (worst, fabs (da[3 * c + k] - db[3 * c + k]) / hs);
            }
        }
      g_test_message ("refraction %s: Hs %.3f m, max |gpu − cpu| %.3g·Hs", modes[m], hs, worst);
      g_assert_cmpfloat (worst, <, 2e-5);
    }
}

/* The CPU result does not depend on the thread count. */
static void
test_threads (void)
{
  g_autoptr (WgGraph) g = everything_graph ("phase");
  g_autoptr (WgPlan) one = wg_test_plan (g, 1);
  g_autoptr (WgPlan) two = wg_test_plan (g, 2);
  g_autofree float *ha = NULL, *da = NULL, *hb = NULL, *db = NULL;
  evaluate (one, 42, &ha, &da);
  evaluate (two, 42, &hb, &db);
  g_assert_cmpmem (ha, 128 * 128 * sizeof (float), hb, 128 * 128 * sizeof (float));
  g_assert_cmpmem (da, 3 * 128 * 128 * sizeof (float), db, 3 * 128 * 128 * sizeof (float));
}

/* ---------------------------------------------------------------------------
 * Bad input
 * ------------------------------------------------------------------------- */

/* Planning fails with a located message, exit status 2. */
static void
expect_error (const char *setting, const char *message)
{
  g_autoptr (WgGraph) g = waves_graph (64, "[]", (const char *[]) { setting, NULL });
  WgPlanOptions o = { wg_test_backend, 0, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  g_assert_null (plan);
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
  g_test_message ("%s → %s", setting, error->message);
  if (strstr (error->message, message) == NULL)
    g_error ("expected \"%s\" in \"%s\"", message, error->message);
  g_assert_cmpint (wg_error_exit_code (error), ==, 2);
}

/* Cells of 10 nm under a 40 m land shadow: the rays are sampled coarser
 * than the grid rather than 10^9 times per ray (which asked for 20 GB or
 * never finished); the frame comes out finite. */
static void
test_land_damping_tiny_cells (void)
{
  g_autoptr (WgGraph) g = waves_graph (
    64, "[{\"center\": [0, 0], \"size\": [1, 1], \"trains\": "
        "[{\"wavelength\": 0.5, \"amplitude\": 0.01}]}]",
    (const char *[]) { "land_shadow=10", "land_recovery=30", NULL });
  WgSettings s = *wg_graph_get_settings (g);
  s.extent[0] = s.extent[1] = 64e-8;
  g_assert_true (wg_graph_set_settings (g, &s, NULL));
  const char *floor_params[] = { "depth=20", NULL };
  add_floor (g, floor_params);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *h = NULL, *d = NULL;
  evaluate (plan, 3, &h, &d);
  for (guint i = 0; i < 64 * 64; i++)
    g_assert_true (isfinite (h[i]));
}

/* Structured values are checked when set: refused with a located message,
 * exit status 2. */
static void
expect_set_error (const char *setting, const char *message)
{
  g_autoptr (WgGraph) g = waves_graph (64, "[]", NULL);
  g_auto (GStrv) kv = g_strsplit (setting, "=", 2);
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_graph_set_param_from_text (g, "waves", kv[0], kv[1], &error));
  g_assert_error (error, WG_GRAPH_ERROR, error->code);
  g_test_message ("%s → %s", setting, error->message);
  if (strstr (error->message, message) == NULL)
    g_error ("expected \"%s\" in \"%s\"", message, error->message);
  g_assert_cmpint (wg_error_exit_code (error), ==, 2);
}

static void
test_bad_input (void)
{
  const char *train = "{\"wavelength\": 9, \"amplitude\": 0.2}";
  g_autofree char *two_boxes = g_strdup_printf (
    "boxes=[{\"center\": [1, 2], \"size\": [9, 9], \"trains\": [%s]}, {\"center\": [1, 2], "
    "\"size\": [9, 9], \"trains\": [%s, {\"wavelength\": -3, \"amplitude\": 1}]}]", train, train);
  expect_set_error (two_boxes, "waves.boxes[1].trains[1].wavelength: expected a number in "
                               "[0.01, 10000] m, got -3");
  expect_set_error ("boxes=[{\"center\": [1, 2], \"size\": [9, 9], \"trains\": [{\"wavelength\": 9}]}]",
                    "waves.boxes[0].trains[0].amplitude: missing");
  expect_set_error ("boxes=[{\"center\": [1, 2], \"size\": [9, 9], \"trains\": [{\"wavelength\": 9, "
                    "\"amplitude\": 1, \"speed\": 3}]}]",
                    "boxes[0].trains[0].speed: unknown key (expected one of: wavelength, "
                    "amplitude, angle, steepness, phase)");
  expect_set_error ("boxes=[{\"center\": [1, 2], \"size\": [9], \"trains\": []}]",
                    "boxes[0].size: expected [length, width], got an array of 1");
  expect_set_error ("boxes=[{\"center\": [1, 2], \"size\": [9, 0], \"trains\": []}]",
                    "boxes[0].size[1]: expected a number in [0.01, 1000000] m, got 0");
  expect_set_error ("boxes=[{\"center\": [1, 2], \"size\": [9, 9], \"direction\": \"east\", "
                    "\"trains\": []}]",
                    "boxes[0].direction: expected a number, got a string");
  expect_set_error ("boxes=[{\"center\": [1, 2], \"size\": [9, 9], \"trains\": []}]",
                    "boxes[0].trains: expected 1 to 16 elements, got 0");
  expect_set_error ("boxes=[{\"center\": [1, 2", "boxes: not valid JSON: ");
  /* What json-glib would crash on (its parser recurses) or drop. */
  g_autofree char *open = g_strnfill (300, '['), *close = g_strnfill (300, ']');
  g_autofree char *deep = g_strdup_printf ("boxes=%s%s", open, close);
  expect_set_error (deep, "boxes: not valid JSON: <data>:1:257: nested deeper than 256 levels");
  expect_set_error ("boxes=[] []", "boxes: not valid JSON: <data>:1:4: content after the end of "
                                  "the document");
  expect_set_error ("boxes={}", "boxes: expected an array, got an object");
  expect_set_error ("frustum=[[1, 0, 0]]", "frustum[0]: expected [a, b, c, d], got an array of 3");
  expect_set_error ("frustum=[[0, 0, 0, 5]]", "frustum[0]: the plane's normal (a, b, c) is zero");
  expect_error ("refraction=phase", "nodes[0] (\"waves\").params.refraction: refraction \"phase\" "
                                    "needs input \"depth\" linked");
}

/* `boxes` and `frustum` set through graph inputs (a game moving its camera,
 * an editor dragging a box) take effect at the next evaluation, as a new
 * plan would compute them; a bad value is refused, located, when set. */
static void
test_inputs (void)
{
  const char *first = "[{\"center\": [32, 32], \"size\": [90, 90], \"trains\": [{\"wavelength\": 10, "
                      "\"amplitude\": 0.2}]}]";
  const char *second = "[{\"center\": [20, 40], \"size\": [50, 30], \"direction\": 70, \"trains\": "
                       "[{\"wavelength\": 6, \"amplitude\": 0.1}, {\"wavelength\": 13, "
                       "\"amplitude\": 0.3, \"angle\": -10}]}]";
  g_autoptr (WgGraph) g = waves_graph (64, first, (const char *[]) { "margin=5", NULL });
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_input (g, "boxes", "waves", "boxes", &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *before = wg_test_eval_copy (plan, 3, "waves:height", NULL);
  g_assert_true (wg_plan_set_input_from_text (plan, "boxes", second, &error));
  g_assert_no_error (error);
  g_autofree float *after = wg_test_eval_copy (plan, 3, "waves:height", NULL);

  g_autoptr (WgGraph) fresh = waves_graph (64, second, (const char *[]) { "margin=5", NULL });
  g_autoptr (WgPlan) fresh_plan = wg_test_plan (fresh, 0);
  g_autofree float *expect = wg_test_eval_copy (fresh_plan, 3, "waves:height", NULL);
  g_assert_cmpmem (after, 64 * 64 * sizeof (float), expect, 64 * 64 * sizeof (float));
  g_assert_true (memcmp (before, after, 64 * 64 * sizeof (float)) != 0);

  /* A bad value is refused when set; the plan keeps the last good one. */
  g_assert_false (wg_plan_set_input_from_text (plan, "boxes", "[{\"size\": 3}]", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE);
  g_assert_nonnull (strstr (error->message, "boxes[0].center: missing"));
  g_clear_error (&error);
  g_assert_true (wg_plan_evaluate (plan, 4, &error));
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("waves", "equations", test_equations);
  wg_test_add_both ("waves", "margin", test_margin);
  wg_test_add_both ("waves", "irregular-and-round", test_irregular_and_round);
  wg_test_add_both ("waves", "noise", test_noise);
  wg_test_add_both ("waves", "land-damping", test_land_damping);
  wg_test_add_both ("waves", "land-damping-tiny-cells", test_land_damping_tiny_cells);
  wg_test_add_both ("waves", "refraction-phase", test_refraction_phase);
  wg_test_add_both ("waves", "refraction-frequency", test_refraction_frequency);
  wg_test_add_both ("waves", "culling", test_culling);
  wg_test_add_both ("waves", "bathymetry", test_bathymetry);
  g_test_add_func ("/waves/parity", test_parity);
  g_test_add_func ("/waves/cpu/threads", test_threads);
  wg_test_add_both ("waves", "bad-input", test_bad_input);
  wg_test_add_both ("waves", "inputs", test_inputs);
  return g_test_run ();
}
