/* test-velocity.c — the water's velocity, checked against physics rather
 * than against the nodes' own formulas:
 *  - spectrum-evolve's "velocity" per mode against ∂/∂t of linear waves
 *    whose frequency the test computes itself, ω² = g k tanh(k d) (loop
 *    quantisation, time scale, offset and their keys included);
 *  - the velocity at a real time t against the central difference of the
 *    surface at t ± ε (wg_plan_evaluate_time), through fft and
 *    choppy-displacement to the displaced surface point's motion;
 *  - the simulations' velocity (iwave, ripple) against their state:
 *    (h − previous)/Δt of the last (sub-)step, zero on still water, and in
 *    step with the frames' motion; CPU against GPU.
 */
#include "wg-test-util.h"
#include "wg-iwave.h"

#include <complex.h>
#include <math.h>

#define G 9.81

/* Evaluates @plan at real time @t. */
static void
eval_at (WgPlan *plan, double t)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_evaluate_time (plan, t, &error));
  g_assert_no_error (error);
}

/* A copy of node:port (requested before the first evaluation) as the last
 * evaluation left it. */
static float *
read_copy (WgPlan *plan, const char *node_port, gsize *n)
{
  g_auto (GStrv) np = g_strsplit (node_port, ":", 2);
  WgBuffer *b = wg_plan_get_node_output (plan, np[0], np[1]);
  g_assert_nonnull (b);
  g_autoptr (GError) error = NULL;
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  gsize count = (gsize) wg_buffer_get_width (b) * wg_buffer_get_height (b) *
                wg_buffer_get_channels (b);
  if (n)
    *n = count;
  return g_memdup2 (data, count * sizeof (float));
}

static void
request (WgPlan *plan, const char *node, const char *port)
{
  g_assert_nonnull (wg_plan_get_node_output (plan, node, port));
}

/* ω of linear water waves of wave number @k (rad/m) on depth @d (m, inf: deep). */
static double
omega_of (double k, double d)
{
  return isinf (d) ? sqrt (G * k) : sqrt (G * k * tanh (k * d));
}

/* ---------------------------------------------------------------------------
 * Spectral velocity, mode by mode
 * ------------------------------------------------------------------------- */

typedef struct {
  const char *spectrum[5]; /* ocean-spectrum "name=value" settings */
  double depth;            /* as set on the spectrum (inf: deep) */
  double loop, scale, offset;
  gboolean keyed;          /* time_scale keyed linearly 0.5 → 1.5 over 0–20 s */
  gboolean one_way;        /* no energy against the wind: h̃0(−k) = 0 for kx > 0 */
} ModeCase;

static const ModeCase mode_cases[] = {
  { { "model=phillips", "opposing=0", NULL }, INFINITY, 0, 1, 0, FALSE, TRUE },
  { { "model=phillips", "opposing=0", "depth=4", NULL }, 4, 0, 0.7, 3.25, FALSE, TRUE },
  { { "model=jonswap", "spreading=cos2s", "spread=2", NULL }, INFINITY, 0, 1, 0, FALSE, FALSE },
  { { "model=jonswap", "spreading=cos2s", "depth=6", NULL }, 6, 8, 1.3, -2, FALSE, FALSE },
  { { "model=jonswap", "spreading=cos2s", NULL }, INFINITY, 0, 1, 5, TRUE, FALSE },
};

/* Per half-spectrum cell, with a = h̃0(k), b = h̃0(−k) and the evolution
 * time τ = t s(t) + o (mod T): h̃ = a e^{−iωτ} + conj(b) e^{iωτ}, a wave
 * along +k and one along −k, and ∂h̃/∂t = τ' ω (−i a e^{−iωτ} + i conj(b)
 * e^{iωτ}), τ' = s + t s'. For a lone wave (b = 0) that is −iωτ' h̃. */
static void
check_modes (const ModeCase *c, double *worst_out)
{
  const guint n = 64;
  const double L = 200, t = 12.345678, dk = 2 * G_PI / L;
  g_autoptr (WgGraph) g = wg_test_graph (n, L, 30, 4);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=9", NULL);
  g_autoptr (GError) error = NULL;
  for (guint i = 0; c->spectrum[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (c->spectrum[i], "=", 2);
      g_assert_true (wg_graph_set_param_from_text (g, "spec", kv[0], kv[1], &error));
    }
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  g_assert_true (wg_graph_set_param_double (g, "evolve", "loop_period", c->loop, &error));
  g_assert_true (wg_graph_set_param_double (g, "evolve", "time_offset", c->offset, &error));
  double s = c->scale, ds = 0;
  if (c->keyed)
    {
      const double times[] = { 0, 20 }, values[] = { 0.5, 1.5 };
      g_assert_true (wg_graph_set_param_keyframes (g, "evolve", "time_scale", times, values, 2,
                                                   &error));
      ds = 1.0 / 20;
      s = 0.5 + t * ds;
    }
  else
    g_assert_true (wg_graph_set_param_double (g, "evolve", "time_scale", c->scale, &error));

  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  request (plan, "evolve", "spectrum");
  request (plan, "evolve", "velocity");
  eval_at (plan, t);
  g_autofree float *h0 = read_copy (plan, "spec:spectrum", NULL);
  g_autofree float *hs = read_copy (plan, "evolve:spectrum", NULL);
  g_autofree float *vs = read_copy (plan, "evolve:velocity", NULL);

  double tau = t * s + c->offset;
  if (c->loop > 0)
    tau -= floor (tau / c->loop) * c->loop;
  const double rate = s + t * ds;
  double worst_h = 0, worst_v = 0, worst_lone = 0;
  guint lone = 0, waves = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i <= n / 2; i++)
      {
        const int mi = i < n / 2 ? (int) i : (int) i - (int) n;
        const int mj = j < n / 2 ? (int) j : (int) j - (int) n;
        double w = omega_of (hypot (mi * dk, mj * dk), c->depth);
        if (c->loop > 0)
          w = rint (w * c->loop / (2 * G_PI)) * (2 * G_PI / c->loop);
        const float *pa = h0 + 2 * ((gsize) j * n + i);
        const float *pb = h0 + 2 * ((gsize) ((n - j) % n) * n + (n - i) % n);
        const double complex a = pa[0] + I * pa[1], b = pb[0] + I * pb[1];
        const double complex e = cexp (-I * w * tau);
        const double complex h = a * e + conj (b) * conj (e);
        const double complex v = rate * w * (-I * a * e + I * conj (b) * conj (e));
        const gsize cell = 2 * ((gsize) j * (n / 2 + 1) + i);
        const double complex got_h = hs[cell] + I * hs[cell + 1];
        const double complex got_v = vs[cell] + I * vs[cell + 1];
        const double amp = cabs (a) + cabs (b);
        if (amp == 0)
          {
            g_assert_cmpfloat (cabs (got_v), ==, 0);
            continue;
          }
        waves++;
        worst_h = fmax (worst_h, cabs (got_h - h) / amp);
        worst_v = fmax (worst_v, cabs (got_v - v) / (amp * rate * w + 1e-30));
        if (c->one_way && mi > 0 && mi < (int) n / 2)
          {
            /* Waves against the wind have no energy: each cell is one wave. */
            g_assert_cmpfloat (cabs (b), ==, 0);
            worst_lone = fmax (worst_lone, cabs (got_v - (-I * w * rate * got_h)) /
                                             (rate * w * cabs (got_h) + 1e-30));
            lone += cabs (a) > 0;
          }
      }
  g_test_message ("depth %g, loop %g s, τ' %.4f: %u waves; |Δh̃|/|h̃0| %.2g, |Δ∂h̃/∂t|/(τ'ω|h̃0|) "
                  "%.2g; lone waves ∂h̃/∂t = −iωτ'h̃ within %.2g (%u)", c->depth, c->loop, rate,
                  waves, worst_h, worst_v, worst_lone, lone);
  g_assert_cmpuint (waves, >, n * n / 8);
  g_assert_cmpfloat (worst_h, <, 1e-5);
  g_assert_cmpfloat (worst_v, <, 1e-5);
  if (c->one_way)
    {
      g_assert_cmpuint (lone, >, n * n / 8);
      g_assert_cmpfloat (worst_lone, <, 1e-5);
    }
  *worst_out = fmax (*worst_out, worst_v);
}

static void
test_spectrum_modes (void)
{
  double worst = 0;
  for (guint c = 0; c < G_N_ELEMENTS (mode_cases); c++)
    check_modes (&mode_cases[c], &worst);
  g_test_message ("all cases: velocity within %.2g of τ'ω|h̃0|", worst);
}

/* ---------------------------------------------------------------------------
 * The time derivative itself
 * ------------------------------------------------------------------------- */

/* max |v − (x(t+ε) − x(t−ε))/2ε| / max |v| over @n values. */
static double
central_difference_error (const float *v, const float *before, const float *after, gsize n,
                          double eps, double *peak_out)
{
  double peak = 0, worst = 0;
  for (gsize i = 0; i < n; i++)
    {
      double fd = ((double) after[i] - before[i]) / (2 * eps);
      peak = fmax (peak, fabs (v[i]));
      worst = fmax (worst, fabs (v[i] - fd));
    }
  *peak_out = peak;
  return worst / peak;
}

/* graphs/ocean-calm.json at a time between frames: its "velocity" output,
 * (λ ∂Dx/∂t, λ ∂Dy/∂t, ∂h/∂t) through an fft and a choppy-displacement, is
 * the rate at which its "displacement" output (λ Dx, λ Dy, h) moves.
 * Measured 5e-5 of max |v| on the CPU, 4e-5 on llvmpipe (6e-4 while the
 * GPU's f·t relied on an fma that llvmpipe does not fuse, which lost
 * ~2.5e-7·t rad of phase: test-backends' evolve-phase checks it); the
 * truncation error ω²ε²/6 is below 3e-5 even for the grid's shortest
 * waves. Any error in the formula (a factor, a sign, a missed chain rule)
 * is of order one. */
static void
test_ocean_central_difference (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("ocean-calm.json", 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const double t = 37.123, eps = 1e-3;
  eval_at (plan, t - eps);
  gsize n;
  g_autofree float *before = read_copy (plan, "choppy:displacement", &n);
  eval_at (plan, t + eps);
  g_autofree float *after = read_copy (plan, "choppy:displacement", NULL);
  eval_at (plan, t);
  g_autofree float *v = read_copy (plan, "velocity:displacement", NULL);
  WgBuffer *vb = wg_plan_get_output (plan, "velocity");
  g_assert_cmpuint (wg_buffer_get_channels (vb), ==, 3);
  double peak;
  double err = central_difference_error (v, before, after, n, eps, &peak);
  /* Each channel on its own, so a wrong λ or a missing horizontal part shows. */
  double channel_err[3], channel_peak[3];
  for (guint c = 0; c < 3; c++)
    {
      g_autofree float *vc = g_new (float, n / 3), *bc = g_new (float, n / 3),
                       *ac = g_new (float, n / 3);
      for (gsize i = 0; i < n / 3; i++)
        vc[i] = v[3 * i + c], bc[i] = before[3 * i + c], ac[i] = after[3 * i + c];
      channel_err[c] = central_difference_error (vc, bc, ac, n / 3, eps, &channel_peak[c]);
      g_assert_cmpfloat (channel_peak[c], >, 0.02);
      g_assert_cmpfloat (channel_err[c], <, 3e-3);
    }
  g_test_message ("ocean-calm at t = %g s: max |v| %.3f m/s, |v − central difference (ε = %g s)| "
                  "≤ %.2g of it (x %.2g, y %.2g, z %.2g)", t, peak, eps, err, channel_err[0],
                  channel_err[1], channel_err[2]);
  g_assert_cmpfloat (err, <, 2e-3);
}

/* The spectrum's derivative with everything that bends time: a loop
 * period, a depth, a time scale keyed smoothly and a keyed offset, so that
 * τ' = s + t s' + o' (t s' alone is about as large as s here). Bounds as
 * above (measured: CPU 3.5e-5, llvmpipe 7.5e-4). */
static void
test_keyed_central_difference (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 120, 30, 2);
  wg_test_add (g, "ocean-spectrum", "spec", "model=jonswap", "wind_speed=11", "depth=8", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", "loop_period=20", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  g_autoptr (GError) error = NULL;
  const double st[] = { 0, 10, 30 }, sv[] = { 0.8, 1.6, 0.9 };
  const double ot[] = { 0, 30 }, ov[] = { 0, 12 };
  g_assert_true (wg_graph_set_param_keyframes (g, "evolve", "time_scale", st, sv, 3, &error));
  g_assert_true (wg_graph_set_param_interpolation (g, "evolve", "time_scale",
                                                   WG_INTERPOLATION_SMOOTH, &error));
  g_assert_true (wg_graph_set_param_keyframes (g, "evolve", "time_offset", ot, ov, 2, &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  request (plan, "evolve", "spectrum");
  request (plan, "evolve", "velocity");
  const double times[] = { 4.321, 12.345, 27.5 }, eps = 1e-3;
  for (guint k = 0; k < G_N_ELEMENTS (times); k++)
    {
      eval_at (plan, times[k] - eps);
      gsize n;
      g_autofree float *before = read_copy (plan, "evolve:spectrum", &n);
      eval_at (plan, times[k] + eps);
      g_autofree float *after = read_copy (plan, "evolve:spectrum", NULL);
      eval_at (plan, times[k]);
      g_autofree float *v = read_copy (plan, "evolve:velocity", NULL);
      double peak, err = central_difference_error (v, before, after, n, eps, &peak);
      g_test_message ("keyed time scale at t = %g s: |∂h̃/∂t − central difference| ≤ %.2g of "
                      "max |∂h̃/∂t|", times[k], err);
      g_assert_cmpfloat (err, <, 2e-3);
    }
}

/* ---------------------------------------------------------------------------
 * Simulations: the velocity from the state
 * ------------------------------------------------------------------------- */

/* A 64² pool of @cell m cells at @fps, the exact operator (deep water, no
 * surface tension), a rock: a poke and then free waves. */
static WgGraph *
iwave_graph (double cell, double fps, gboolean poke)
{
  WgGraph *g = wg_test_graph (64, 64 * cell, fps, 1);
  g_autofree char *rx = g_strdup_printf ("x=%g", 45 * cell), *ry = g_strdup_printf ("y=%g", 40 * cell);
  g_autofree char *rr = g_strdup_printf ("radius=%g", 6 * cell);
  wg_test_add (g, "obstacle-mask", "rock", "shape=circle", rx, ry, rr, NULL);
  wg_test_add (g, "iwave", "water", "operator=exact", "boundary=periodic", "damping=0.2", NULL);
  wg_test_link (g, "rock:mask", "water:obstruction");
  if (poke)
    {
      g_autofree char *px = g_strdup_printf ("x=%g", 20 * cell), *py = g_strdup_printf ("y=%g", 30 * cell);
      g_autofree char *pr = g_strdup_printf ("radius=%g", 10 * cell);
      wg_test_add (g, "source", "poke", "mode=impulse", px, py, pr, "amplitude=0.002", "start=0",
                   NULL);
      wg_test_link (g, "poke:source", "water:source");
    }
  return g;
}

/* The sub-steps iwave takes per frame by the stability rule it documents:
 * g Δt² λmax ≤ 4 with a 10% margin, λmax the exact operator's response at
 * the grid's shortest (checkerboard) wave. */
static guint
iwave_substeps (double cell, double fps)
{
  const double lambda = wg_iwave_exact_response (G_PI, G_PI, cell, 0, 0);
  return (guint) ceil ((1 / fps) / (0.9 * 2 / sqrt (G * lambda)));
}

/* velocity = (height − previous)/Δt_sub: exactly the float (h − h⁻) ·
 * (1/Δt_sub) on both backends (a float product is correctly rounded in
 * GLSL too), and within two roundings of the exact quotient. */
static void
check_state_rate (const float *h, const float *prev, const float *v, gsize n, double dt)
{
  const float inv = (float) (1 / dt);
  double peak = 0;
  for (gsize p = 0; p < n; p++)
    {
      g_assert_cmpfloat (v[p], ==, (h[p] - prev[p]) * inv);
      double exact = ((double) h[p] - prev[p]) / dt;
      g_assert_cmpfloat (fabs (v[p] - exact), <=, 2.5e-7 * fabs (exact));
      peak = fmax (peak, fabs (v[p]));
    }
  g_assert_cmpfloat (peak, >, 0);
}

/* Relative RMS difference ‖a − b‖/‖b‖. */
static double
rms_difference (const float *a, const float *b, gsize n)
{
  double e2 = 0, b2 = 0;
  for (gsize p = 0; p < n; p++)
    {
      e2 += ((double) a[p] - b[p]) * ((double) a[p] - b[p]);
      b2 += (double) b[p] * b[p];
    }
  return sqrt (e2 / b2);
}

/* After a poke, every frame, the velocity is the last sub-step's: with
 * four sub-steps per frame (1 cm cells at 10 fps) and with one (2 cm at
 * 60 fps). At 60 fps the frames resolve the waves (ω Δt ≈ 0.25), and once
 * the poke's shortest waves have faded (frame 5 on) the velocity follows
 * the central difference of heights a frame either side: correlated
 * ≥ 0.96, within 27% RMS, as a backward difference half a step early must
 * be (a sign, a field or a unit wrong would be far off). */
static void
test_iwave_state (void)
{
  const struct {
    double cell, fps;
    guint substeps;
  } cases[] = { { 0.01, 10, 4 }, { 0.02, 60, 1 } };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const double cell = cases[c].cell, fps = cases[c].fps;
      const guint substeps = iwave_substeps (cell, fps);
      g_assert_cmpuint (substeps, ==, cases[c].substeps);
      g_autoptr (WgGraph) g = iwave_graph (cell, fps, TRUE);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      request (plan, "water", "previous");
      request (plan, "water", "velocity");
      gsize n;
      g_autofree float *h_before = wg_test_eval_copy (plan, 0, "water:height", &n);
      g_autofree float *h = wg_test_eval_copy (plan, 1, "water:height", NULL);
      double lowest = 1, farthest = 0;
      for (gint64 f = 2; f < 12; f++)
        {
          g_autofree float *prev = read_copy (plan, "water:previous", NULL);
          g_autofree float *v = read_copy (plan, "water:velocity", NULL);
          check_state_rate (h, prev, v, n, 1 / (fps * substeps));
          g_autofree float *h_after = wg_test_eval_copy (plan, f, "water:height", NULL);
          g_autofree float *fd = g_new (float, n);
          for (gsize p = 0; p < n; p++)
            fd[p] = (float) ((h_after[p] - h_before[p]) * (fps / 2));
          if (f > 5)
            {
              lowest = fmin (lowest, wg_test_correlation (v, fd, n));
              farthest = fmax (farthest, rms_difference (v, fd, n));
            }
          g_free (h_before);
          h_before = g_steal_pointer (&h);
          h = g_steal_pointer (&h_after);
        }
      g_test_message ("%g m cells at %g fps, %u sub-steps: velocity = (h − h⁻)/Δt_sub", cell,
                      fps, substeps);
      if (substeps > 1)
        continue;
      g_test_message ("against the frames' central difference: correlation ≥ %.3f, RMS "
                      "difference ≤ %.3f", lowest, farthest);
      g_assert_cmpfloat (lowest, >, 0.95);
      g_assert_cmpfloat (farthest, <, 0.35);
    }
}

/* Still water (no source, an obstacle in it) does not move. */
static void
test_iwave_still (void)
{
  g_autoptr (WgGraph) g = iwave_graph (0.01, 10, FALSE);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  for (gint64 f = 0; f < 4; f++)
    {
      const float *v = wg_test_eval (plan, f, "water:velocity");
      for (gsize p = 0; p < 64 * 64; p++)
        g_assert_cmpfloat (v[p], ==, 0);
    }
}

/* The velocity on the GPU is the CPU's to float rounding (the heights'
 * own differences, divided by a 25 ms sub-step). */
static void
test_iwave_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = iwave_graph (0.01, 10, TRUE);
  g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
  g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
  double worst = 0, peak = 0;
  for (gint64 f = 0; f < 6; f++)
    {
      gsize n;
      g_autofree float *a = wg_test_eval_copy (cpu, f, "water:velocity", &n);
      const float *b = wg_test_eval (gpu, f, "water:velocity");
      for (gsize p = 0; p < n; p++)
        {
          peak = fmax (peak, fabs (a[p]));
          worst = fmax (worst, fabs ((double) a[p] - b[p]));
        }
    }
  g_test_message ("iwave: max |gpu − cpu| velocity %.3g m/s of max %.3g m/s", worst, peak);
  g_assert_cmpfloat (peak, >, 0);
  g_assert_cmpfloat (worst, <=, 1e-4 * peak);
}

/* ripple: Δt = 1/(fps · steps_per_frame), odd and even step counts (an odd
 * one ends with the swap pass). */
static void
test_ripple_state (void)
{
  const int steps[] = { 2, 3 };
  for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
    {
      g_autoptr (WgGraph) g = wg_test_graph (64, 8, 30, 5);
      g_autofree char *spf = g_strdup_printf ("steps_per_frame=%d", steps[s]);
      wg_test_add (g, "ripple", "pond", spf, "drop_rate=20", "drop_radius=0.5",
                   "drop_strength=0.02", "edges=clamp", NULL);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      request (plan, "pond", "previous");
      for (gint64 f = 0; f < 5; f++)
        {
          gsize n;
          g_autofree float *v = wg_test_eval_copy (plan, f, "pond:velocity", &n);
          g_autofree float *h = read_copy (plan, "pond:height", NULL);
          g_autofree float *prev = read_copy (plan, "pond:previous", NULL);
          check_state_rate (h, prev, v, n, 1.0 / (30.0 * steps[s]));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("velocity", "spectrum-modes", test_spectrum_modes);
  wg_test_add_both ("velocity", "ocean-central-difference", test_ocean_central_difference);
  wg_test_add_both ("velocity", "keyed-central-difference", test_keyed_central_difference);
  wg_test_add_both ("velocity", "iwave-state", test_iwave_state);
  wg_test_add_both ("velocity", "iwave-still", test_iwave_still);
  g_test_add_func ("/velocity/iwave-parity", test_iwave_parity);
  wg_test_add_both ("velocity", "ripple-state", test_ripple_state);
  return g_test_run ();
}
