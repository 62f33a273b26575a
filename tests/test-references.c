/* test-references.c — values computed once on the host and used by both
 * backends, checked against independent references (published known
 * answers, closed forms, numbers computed by hand) rather than CPU/GPU
 * parity, which cannot see a bug both sides share. */
#include "wg-test-util.h"
#include "wg-ocean.h"
#include "wg-rng.h"
#include "wg-gpu.h"
#include "wg-image-io.h"

#include <math.h>
#include <string.h>

/* Philox4x32-10 against Random123's published known-answer vectors
 * (kat_vectors: "philox4x32 10 …"). */
static void
test_philox_known_answers (void)
{
  static const guint32 kat[][10] = {
    { 0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 },
    { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
      0x41c83b0e, 0xa20bc7c6, 0x6d5451fd },
    { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
      0x94fdcceb, 0x5001e420, 0x24126ea1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (kat); i++)
    {
      const guint32 *v = kat[i];
      WgPhilox4 r = wg_philox4x32 (v[0], v[1], v[2], v[3], v[4], v[5]);
      for (int w = 0; w < 4; w++)
        g_assert_cmphex (r.v[w], ==, v[6 + w]);
    }
}

/* Spreading exponents at hand-computed points: U = 10 m/s, ωp = 1 rad/s,
 * g = 9.81 (U/cp = 1.0194). Mitsuyasu et al. 1975: sp = 11.5 (U/cp)^−2.5 =
 * 10.9615, ×(1/2)⁵ below, ×2^−2.5 above; Hasselmann et al. 1980: 6.97 ·
 * (1/2)^4.06 below, 9.77 · 2^μ above with μ = −2.33 − 1.45 (U/cp − 1.17). */
static void
test_spreading_exponents (void)
{
  g_assert_cmpfloat_with_epsilon (wg_spreading_mitsuyasu_s (1.0, 1.0, 10, 9.81), 10.961509, 1e-5);
  g_assert_cmpfloat_with_epsilon (wg_spreading_mitsuyasu_s (0.5, 1.0, 10, 9.81), 0.342547, 1e-5);
  g_assert_cmpfloat_with_epsilon (wg_spreading_mitsuyasu_s (2.0, 1.0, 10, 9.81), 1.937739, 1e-5);
  g_assert_cmpfloat_with_epsilon (wg_spreading_hasselmann_s (0.5, 1.0, 10, 9.81), 0.417879, 1e-5);
  g_assert_cmpfloat_with_epsilon (wg_spreading_hasselmann_s (2.0, 1.0, 10, 9.81), 2.260708, 1e-5);
  /* cos 2s: D(0) = Q(s) = 2^{2s−1} Γ(s+1)² / (π Γ(2s+1)); s = 1: 1/π · 2 · 1 / 2 = 1/π … */
  g_assert_cmpfloat_with_epsilon (wg_spreading_cos2s (0, 1), 2.0 / (3.0 * G_PI) * 1.5, 1e-12);
  /* … and s = 2: 2³ · 4 / (π · 24) = 4/(3π). */
  g_assert_cmpfloat_with_epsilon (wg_spreading_cos2s (0, 2), 4.0 / (3.0 * G_PI), 1e-12);
}

/* JONSWAP's peak enhancement γ^r, r = exp(−(ω − ωp)²/(2σ²ωp²)) (Hasselmann
 * et al. 1973), against the same spectrum with γ = 1: γ at the peak, and
 * by hand one and two widths off it (σb = 0.09 above, σa = 0.07 below):
 * 3.3^e^(−1/2) = 2.06298, 3.3^e^(−2) = 1.17537. */
static void
test_jonswap_peak_enhancement (void)
{
  const double wp = 1.2, a = 0.0081, g = 9.81;
  const struct {
    double omega, ratio;
  } cases[] = { { wp, 3.3 }, { wp * 1.09, 2.062978 }, { wp * 0.86, 1.175366 } };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      double with = wg_spectrum_jonswap (cases[c].omega, a, wp, 3.3, 0.07, 0.09, g);
      double without = wg_spectrum_jonswap (cases[c].omega, a, wp, 1.0, 0.07, 0.09, g);
      g_assert_cmpfloat_with_epsilon (with / without, cases[c].ratio, 1e-5);
    }
}

/* The evolved spectrum of a sea under another gravity (Mars, 3.71 m/s²),
 * with and without a loop period: each mode turns at ω = √(g k) (deep
 * water), or at its nearest multiple of 2π/T — computed here, from the
 * spectrum node's h̃0, as h̃(k, t) = h̃0(k) e^{−iωt} + conj(h̃0(−k)) e^{iωt}. */
static void
test_evolve_gravity_and_loop (void)
{
  const double periods[] = { 0, 30 };
  for (guint c = 0; c < G_N_ELEMENTS (periods); c++)
    {
      const guint n = 32;
      const double extent = 40, g = 3.71, t = 2.5;
      g_autoptr (WgGraph) graph = wg_test_graph (n, extent, 10, 3);
      wg_test_add (graph, "ocean-spectrum", "spec", "gravity=3.71", "wind_speed=6", NULL);
      g_autofree char *loop = g_strdup_printf ("loop_period=%g", periods[c]);
      wg_test_add (graph, "spectrum-evolve", "evolve", loop, NULL);
      wg_test_link (graph, "spec:spectrum", "evolve:spectrum");
      g_autoptr (WgPlan) plan = wg_test_plan (graph, 0);
      const gint64 frame = (gint64) (t * 10);
      /* The evolved spectrum first: asking for it makes the plan compute it. */
      g_autofree float *h = wg_test_eval_copy (plan, frame, "evolve:spectrum", NULL);
      const float *h0 = wg_test_eval (plan, frame, "spec:spectrum");
      const guint hw = n / 2 + 1;
      double worst = 0, scale = 0;
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < hw; i++)
          {
            const int kn = i < n / 2 ? (int) i : (int) i - (int) n;
            const int km = j < n / 2 ? (int) j : (int) j - (int) n;
            const double k = 2 * G_PI / extent * hypot (kn, km);
            double w = sqrt (g * k);
            if (periods[c] > 0)
              w = rint (w / (2 * G_PI / periods[c])) * (2 * G_PI / periods[c]);
            const float *a = h0 + 2 * (j * n + i);
            const float *b = h0 + 2 * (((n - j) % n) * n + (n - i) % n);
            const double cr = cos (w * t), sn = sin (w * t);
            /* a e^{−iωt} + conj(b) e^{iωt} */
            const double re = a[0] * cr + a[1] * sn + b[0] * cr + b[1] * sn;
            const double im = a[1] * cr - a[0] * sn - b[1] * cr + b[0] * sn;
            const double d = hypot (h[2 * (j * hw + i)] - re, h[2 * (j * hw + i) + 1] - im);
            worst = fmax (worst, d);
            scale = fmax (scale, hypot (re, im));
          }
      g_test_message ("T = %g: worst %.3g of %.3g", periods[c], worst, scale);
      g_assert_cmpfloat (scale, >, 0);
      g_assert_cmpfloat (worst, <, 1e-5 * scale);
    }
}

/* iWave's source is a kick: each frame's height enters h but not h⁻ (the
 * paper's "h += source" before the step), split evenly over the frame's
 * sub-steps so that the kick does not depend on them. The mean level has
 * no restoring force, so after the source stops the water's volume grows
 * at the rate the kicks gave it: Σ (source volume per frame) / Δt_frame —
 * whatever the number of sub-steps. The bump (1 − (r/R)²)² holds π R²/3 per
 * unit amplitude. */
static void
check_source_volume (void)
{
  const double fps_cases[] = { 30, 2 }; /* 1 and 4 sub-steps per frame */
  for (guint c = 0; c < G_N_ELEMENTS (fps_cases); c++)
    {
      const guint n = 128;
      const double cell = 0.25, R = 2, amplitude = 0.01, fps = fps_cases[c];
      g_autoptr (WgGraph) g = wg_test_graph (n, n * cell, fps, 1);
      wg_test_add (g, "source", "poke", "x=16", "y=16", "radius=2", "amplitude=0.01",
                   "duration=0.9", NULL);
      wg_test_add (g, "iwave", "water", "operator=exact", "damping=0", "boundary=periodic", NULL);
      wg_test_link (g, "poke:source", "water:source");
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      /* An impulse source acts on the frames whose time lies in [start,
       * start + duration) = [0, 0.9) s. */
      const guint active = (guint) ceil (0.9 * fps - 1e-9);
      double volume[2], per_frame = 0;
      for (gint64 f = 0; f <= active + 4; f++)
        {
          if (f == 0)
            {
              const float *src = wg_test_eval (plan, f, "poke:source");
              for (gsize q = 0; q < (gsize) n * n; q++)
                per_frame += src[q] * cell * cell;
            }
          const float *h = wg_test_eval (plan, f, "water:height");
          if (f < active + 3)
            continue;
          double v = 0;
          for (gsize q = 0; q < (gsize) n * n; q++)
            v += h[q] * cell * cell;
          volume[f - active - 3] = v;
        }
      /* The grid's bump holds the closed form's volume to its sampling. */
      g_assert_cmpfloat (fabs (per_frame / (amplitude * G_PI * R * R / 3) - 1), <, 0.05);
      const double rate = (volume[1] - volume[0]) * fps, expect = active * per_frame * fps;
      g_test_message ("fps %g: %u frames of %.5g m³, volume grows at %.6g m³/s, expected %.6g",
                      fps, active, per_frame, rate, expect);
      g_assert_cmpfloat (fabs (rate / expect - 1), <, 1e-3);
    }
}

static void
test_source_volume (void)
{
  check_source_volume ();
}

/* A box rotated by 30° masks exactly the cells whose centres lie inside
 * the rotated rectangle (away from the anti-aliased border). */
static void
check_rotated_box (void)
{
  const guint n = 64;
  g_autoptr (WgGraph) g = wg_test_graph (n, 32, 10, 1);
  wg_test_add (g, "obstacle-mask", "box", "shape=box", "x=16", "y=16", "width=12", "height=4",
               "rotation=30", "border=0", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const float *m = wg_test_eval (plan, 0, "box:mask");
  const double a = 30 * G_PI / 180;
  guint checked = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        const double x = (i + 0.5) * 0.5 - 16, y = (j + 0.5) * 0.5 - 16;
        const double u = x * cos (a) + y * sin (a), v = -x * sin (a) + y * cos (a);
        const double inside = fmin (6 - fabs (u), 2 - fabs (v)); /* m from the edge */
        if (fabs (inside) < 0.4)
          continue;
        checked++;
        if ((inside > 0 ? 0.0f : 1.0f) != m[j * n + i])
          g_error ("cell (%u, %u) at (%.2f, %.2f): mask %g, %s the rotated box", i, j, x, y,
                   m[j * n + i], inside > 0 ? "inside" : "outside");
      }
  g_assert_cmpuint (checked, >, 3000);
}

static void
test_rotated_box (void)
{
  check_rotated_box ();
}

/* Belyaev's finite-difference displacement (papers/003 eq. 11), computed
 * here from the height on non-square cells (2 m × 1 m): (λ Δx (h_{i+1,j} −
 * h_ij), λ Δy (h_{i,j+1} − h_ij), h), wrapping at the edges — a wrong λ
 * scale, a flipped or swapped axis shows. */
static void
check_finite_difference_choppy (void)
{
  const guint n = 64; /* the GPU FFT's smallest */
  const double lambda = 0.7, dx = 2, dy = 1;
  g_autoptr (WgGraph) g = wg_test_graph (n, n * dx, 10, 5);
  WgSettings s = *wg_graph_get_settings (g);
  s.extent[1] = n * dy;
  g_assert_true (wg_graph_set_settings (g, &s, NULL));
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=7", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "choppy-displacement", "chop", "method=finite-difference", "choppiness=0.7",
               "wrap=true", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_link (g, "fft:height", "chop:height");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *d = wg_test_eval_copy (plan, 3, "chop:displacement", NULL);
  const float *h = wg_test_eval (plan, 3, "fft:height");
  double worst = 0, scale = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        const double c = h[j * n + i];
        const double ex = lambda * dx * (h[j * n + (i + 1) % n] - c);
        const double ey = lambda * dy * (h[((j + 1) % n) * n + i] - c);
        const float *got = d + 3 * (j * n + i);
        worst = fmax (worst, fmax (fabs (got[0] - ex), fmax (fabs (got[1] - ey), fabs (got[2] - c))));
        scale = fmax (scale, fmax (fabs (ex), fabs (ey)));
      }
  g_test_message ("worst %.3g of %.3g", worst, scale);
  g_assert_cmpfloat (scale, >, 0);
  g_assert_cmpfloat (worst, <, 1e-5 * scale);
}

static void
test_finite_difference_choppy (void)
{
  check_finite_difference_choppy ();
}

/* Preroll steps the stateful nodes before the first baked frame: a bake of
 * frame F with preroll P writes what a plan evaluating frames F − P … F
 * holds at F (foam accumulates over frames, so one frame short shows). */
static void
test_preroll (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (32, 32, 10, 2);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=14", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "choppy-displacement", "chop", "choppiness=2", NULL);
  wg_test_add (g, "foam", "foam", "decay=0.9", "threshold=0.9", NULL);
  wg_test_add (g, "field-out", "out", "path=foam.%04d.exr", "pixel_type=float", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_link (g, "fft:height", "chop:height");
  wg_test_link (g, "fft:displacement", "chop:displacement");
  wg_test_link (g, "chop:displacement", "foam:displacement");
  wg_test_link (g, "foam:foam", "out:field");
  WgSettings s = *wg_graph_get_settings (g);
  s.preroll = 6;
  g_assert_true (wg_graph_set_settings (g, &s, NULL));
  g_autofree char *dir = wg_test_tmp_dir ();
  WgBakeOptions o = { 10, 10, dir, WG_BACKEND_CPU, 1, FALSE };
  WgBakeStats stats;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_bake (g, &o, &stats, &error));
  g_assert_no_error (error);
  g_free (stats.backend);
  g_autofree char *path = g_build_filename (dir, "foam.0010.exr", NULL);
  guint w, hh, ch;
  g_autofree float *baked = wg_exr_read (path, &w, &hh, &ch, NULL, &error);
  g_assert_no_error (error);
  double results[3];
  const guint starts[] = { 4, 5, 3 }; /* exactly 6 frames before 10; one short; one long */
  for (guint c = 0; c < G_N_ELEMENTS (starts); c++)
    {
      g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
      const float *f = NULL;
      for (gint64 frame = starts[c]; frame <= 10; frame++)
        f = wg_test_eval (plan, frame, "foam:foam");
      double diff = 0;
      for (guint q = 0; q < 32 * 32; q++)
        diff = fmax (diff, fabs (f[q] - baked[q]));
      results[c] = diff;
    }
  g_test_message ("from frame 4: %g, from 5: %g, from 3: %g", results[0], results[1], results[2]);
  g_assert_cmpfloat (results[0], ==, 0);
  g_assert_cmpfloat (results[1], >, 0);
  g_assert_cmpfloat (results[2], >, 0);
  wg_test_remove_tree (dir);
}

/* A Gerstner train (no steepness, so a pure sinusoid) in the middle of a
 * large box oscillates at the dispersion relation's frequency for the
 * node's gravity and depth: √(g k tanh(k D)), read from the zero crossings
 * of the height at one cell — the train table's frequencies, checked
 * against physics rather than against the other backend. */
static void
check_gerstner_frequency (void)
{
  const struct {
    double gravity, depth;
  } cases[] = { { 9.81, 0 }, { 3.71, 0 }, { 9.81, 1.5 } };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const double fps = 60, wavelength = 8;
      g_autoptr (WgGraph) g = wg_test_graph (64, 64, fps, 1);
      wg_test_add (g, "gerstner", "waves", "margin=0", "irregular_height=0", "noise_amplitude=0",
                   NULL);
      g_autofree char *gravity = g_strdup_printf ("%g", cases[c].gravity);
      g_autofree char *depth = cases[c].depth > 0 ? g_strdup_printf ("%g", cases[c].depth)
                                                  : g_strdup ("inf");
      g_assert_true (wg_graph_set_param_from_text (g, "waves", "gravity", gravity, NULL));
      g_assert_true (wg_graph_set_param_from_text (g, "waves", "depth", depth, NULL));
      g_autoptr (GError) error = NULL;
      g_assert_true (wg_graph_set_param_from_text (
        g, "waves", "boxes",
        "[{\"center\": [32, 32], \"size\": [400, 400], \"direction\": 0, \"trains\": "
        "[{\"wavelength\": 8, \"amplitude\": 0.1, \"angle\": 0, \"steepness\": 0, "
        "\"phase\": 0}]}]", &error));
      g_assert_no_error (error);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      double last = 0, first = -1, cross = -1;
      guint crossings = 0;
      for (gint64 f = 0; f < 2000 && crossings < 9; f++)
        {
          const double v = wg_test_eval (plan, f, "waves:height")[32 * 64 + 32];
          if (f > 0 && (v < 0) != (last < 0))
            {
              cross = (f - 1) + last / (last - v);
              if (first < 0)
                first = cross;
              crossings++;
            }
          last = v;
        }
      g_assert_cmpuint (crossings, ==, 9);
      const double omega = G_PI / ((cross - first) / (crossings - 1) / fps);
      const double k = 2 * G_PI / wavelength, d = cases[c].depth;
      const double expect = sqrt (cases[c].gravity * k * (d > 0 ? tanh (k * d) : 1.0));
      g_test_message ("g = %g, D = %g: ω = %.5f, theory %.5f", cases[c].gravity, d, omega, expect);
      g_assert_cmpfloat (fabs (omega / expect - 1), <, 1e-3);
    }
}

static void
test_gerstner_frequency (void)
{
  check_gerstner_frequency ();
}

/* The contact sheet's layout and pixels: 5 frames of a 32² height in a
 * 3 × 2 grid of 32-pixel tiles 2 pixels apart, each tile the frame's
 * height mapped linearly from [−peak, peak] (peak: the largest |h| of the
 * frames shown) to the PNG's 16 bits, the gaps at −peak — checked against
 * the float EXR frames the same bake wrote. */
static void
test_contact_sheet (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (32, 32, 10, 4);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=9", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "field-out", "out", "path=h.%04d.exr", "pixel_type=float", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_link (g, "fft:height", "out:field");
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_output (g, "height", "fft", "height", &error));
  g_autofree char *dir = wg_test_tmp_dir ();
  WgBakeOptions o = { 0, 4, dir, WG_BACKEND_CPU, 1, TRUE };
  WgBakeStats stats;
  g_assert_true (wg_bake (g, &o, &stats, &error));
  g_assert_no_error (error);
  g_assert_nonnull (stats.contact_sheet);
  guint w, h, c;
  g_autofree float *sheet = wg_png_read (stats.contact_sheet, &w, &h, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w, ==, 3 * 32 + 4 * 2);
  g_assert_cmpuint (h, ==, 2 * 32 + 3 * 2);
  g_assert_cmpuint (c, ==, 1);
  float *frames[5];
  double peak = 0;
  for (int f = 0; f < 5; f++)
    {
      g_autofree char *path = g_strdup_printf ("%s/h.%04d.exr", dir, f);
      guint fw, fh, fc;
      frames[f] = wg_exr_read (path, &fw, &fh, &fc, NULL, &error);
      g_assert_no_error (error);
      for (guint q = 0; q < 32 * 32; q++)
        peak = fmax (peak, fabs (frames[f][q]));
    }
  double worst = 0;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        const guint col = (x - 2) / 34, row = (y - 2) / 34, tx = (x - 2) % 34, ty = (y - 2) % 34;
        const guint k = row * 3 + col;
        const gboolean in_tile = x >= 2 && y >= 2 && tx < 32 && ty < 32 && col < 3 && k < 5;
        const double v = in_tile ? frames[k][ty * 32 + tx] : -peak;
        worst = fmax (worst, fabs (sheet[y * w + x] - (v + peak) / (2 * peak)));
      }
  g_test_message ("peak %.4g m, worst pixel error %.3g", peak, worst);
  g_assert_cmpfloat (worst, <, 1.0 / 65535);
  for (int f = 0; f < 5; f++)
    g_free (frames[f]);
  g_free (stats.contact_sheet);
  g_free (stats.backend);
  wg_test_remove_tree (dir);
}

/* Ripples on non-square cells (4 m × 1 m): a drop's radius is in metres,
 * so its bump spans R/Δx cells across and R/Δy cells along. With flow
 * factor 0 the step does not spread it (C² = 0), so after the frame that
 * drops it the height's second moments about the drop's cell, in metres,
 * are equal: Σh·x² ≈ Σh·y², where swapping Δx and Δy would make them
 * differ sixteen-fold. */
static void
check_ripple_cells (void)
{
  const guint n = 64;
  const double sx = 4, sy = 1;
  g_autoptr (WgGraph) g = wg_test_graph (n, n * sx, 10, 9);
  WgSettings s = *wg_graph_get_settings (g);
  s.extent[1] = n * sy;
  g_assert_true (wg_graph_set_settings (g, &s, NULL));
  wg_test_add (g, "ripple", "r", "drop_rate=10", "drop_radius=8", "drop_strength=0.1",
               "steps_per_frame=1", "flow_factor=0", "dampening=1", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const float *h = wg_test_eval (plan, 0, "r:height");
  guint at = 0;
  for (guint q = 1; q < n * n; q++)
    if (h[q] > h[at])
      at = q;
  const int ci = (int) (at % n), cj = (int) (at / n);
  double mxx = 0, myy = 0;
  for (int j = 0; j < (int) n; j++)
    for (int i = 0; i < (int) n; i++)
      {
        int di = ((i - ci) % (int) n + (int) n + (int) n / 2) % (int) n - (int) n / 2;
        int dj = ((j - cj) % (int) n + (int) n + (int) n / 2) % (int) n - (int) n / 2;
        mxx += h[j * n + i] * (di * sx) * (di * sx);
        myy += h[j * n + i] * (dj * sy) * (dj * sy);
      }
  g_test_message ("second moments: x %.4g m², y %.4g m²", mxx, myy);
  g_assert_cmpfloat (myy, >, 0);
  g_assert_cmpfloat (fabs (mxx / myy - 1), <, 0.2);
}

static void
test_ripple_cells (void)
{
  check_ripple_cells ();
}

/* On a software rasteriser (llvmpipe) auto picks the CPU, always. */
static void
test_auto_prefers_cpu_on_software (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
  g_assert_no_error (error);
  gboolean software = wg_gpu_context_is_software (ctx);
  g_clear_pointer (&ctx, wg_gpu_context_free);
  g_autoptr (WgGraph) g = wg_test_graph (16, 16, 10, 1);
  wg_test_add (g, "ocean-spectrum", "spec", NULL);
  WgPlanOptions o = { WG_BACKEND_AUTO, 1, FALSE, NULL };
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  g_assert_no_error (error);
  const char *chosen = wg_plan_get_backend_description (plan);
  g_test_message ("software %d: auto chose %s", software, chosen);
  if (software)
    g_assert_true (g_str_has_prefix (chosen, "cpu"));
  else
    g_assert_true (g_str_has_prefix (chosen, "gpu"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/references/philox-known-answers", test_philox_known_answers);
  g_test_add_func ("/references/spreading-exponents", test_spreading_exponents);
  g_test_add_func ("/references/jonswap-peak-enhancement", test_jonswap_peak_enhancement);
  g_test_add_func ("/references/evolve-gravity-and-loop", test_evolve_gravity_and_loop);
  wg_test_add_both ("references", "source-volume", test_source_volume);
  wg_test_add_both ("references", "rotated-box", test_rotated_box);
  wg_test_add_both ("references", "finite-difference-choppy", test_finite_difference_choppy);
  g_test_add_func ("/references/preroll", test_preroll);
  g_test_add_func ("/references/contact-sheet", test_contact_sheet);
  wg_test_add_both ("references", "ripple-cells", test_ripple_cells);
  wg_test_add_both ("references", "gerstner-frequency", test_gerstner_frequency);
  g_test_add_func ("/references/auto-prefers-cpu-on-software", test_auto_prefers_cpu_on_software);
  return g_test_run ();
}
