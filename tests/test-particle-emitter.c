/* test-particle-emitter.c — particle-emitter against water-wave physics
 * (papers/004 §3.2–3.5), on both backends: a drop's ring spreads at the
 * group speed of ω² = g k tanh(k d) computed here, stays round through
 * subdivisions, keeps its total amplitude (volume), reflects off a wall as
 * the ring of a mirrored source (image method); the GPU's set holds the
 * CPU's particles (in another order) and splats to the same field; on the
 * CPU, plan states and thread counts change nothing, bit for bit, and a
 * particle lost at the capacity is counted once. */
#include "wg-test-util.h"
#include "wg-test-tmp.h"

#include <math.h>
#include <string.h>

/* A 64 m pool of 128 × 128 cells at 10 fps with one emitter "drop" of
 * particles of radius 1 m (two cells; λ = 2 m). */
static WgGraph *
emitter_graph (const char *drops, const char *walls, const char *min_amplitude)
{
  WgGraph *g = wg_test_graph (128, 64, 10, 1);
  g_autofree char *d = g_strdup_printf ("drops=%s", drops);
  wg_test_add (g, "particle-emitter", "drop", d, "radius=1", "ring=4", walls, min_amplitude,
               NULL);
  return g;
}

/* emitter_graph() and a splat-filter "splat" (on llvmpipe, most of a
 * frame's time). */
static WgGraph *
drop_graph (const char *drops, const char *walls, const char *min_amplitude)
{
  WgGraph *g = emitter_graph (drops, walls, min_amplitude);
  wg_test_add (g, "splat-filter", "splat", "radius=1", "strength=0",
               strcmp (walls, "walls=true") == 0 ? "edges=walls" : "edges=open", NULL);
  wg_test_link (g, "drop:particles", "splat:particles");
  return g;
}

/* The set of "drop" after frames @from … @to. */
static const WgParticleSet *
run_frames (WgPlan *plan, gint64 from, gint64 to)
{
  return wg_test_step_particles (plan, from, to, "drop");
}

/* Group speed of λ = 2r in deep water: half of √(g/k), k = π/r. */
static double
deep_group_speed (double r)
{
  return 0.5 * sqrt (9.81 * r / G_PI);
}

/* A drop in deep still water: after 32 s the ring's radius is c_g t within
 * 0.1% on the particles and 2% on the splatted field's crest (cells of
 * 0.5 m), its spread under 5 cm (the issue asks one cell) after
 * five generations of subdivision, and Σ A as emitted. */
static void
test_ring (void)
{
  const double r = 1.0, c = deep_group_speed (r);
  const char *drops = "[{\"x\": 32, \"y\": 32, \"time\": 0, \"volume\": 0.2}]";
  g_autoptr (WgGraph) g = drop_graph (drops, "walls=false", "min_amplitude=0");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const double a0 = 0.2 / (4 * r * r * (G_PI / 2 - 2 / G_PI));
  const gint64 frames = 320;
  const WgParticleSet *set = run_frames (plan, 0, frames);
  double lo = INFINITY, hi = 0, sum = 0, sum_a = 0;
  float smallest = INFINITY;
  for (guint k = 0; k < set->count; k++)
    {
      const WgParticle *q = &set->particles[k];
      double d = hypot (q->x - 32, q->y - 32);
      lo = MIN (lo, d);
      hi = MAX (hi, d);
      sum += d;
      sum_a += q->amplitude;
      smallest = MIN (smallest, q->dispersion);
    }
  const double t = frames / 10.0, mean = sum / set->count;
  /* Five generations: the dispersion went from 2π/4 to 2π/4 / 3⁵ or less. */
  const int generations = (int) lround (log ((G_PI / 2) / smallest) / log (3));
  g_test_message ("%u particles, %d generations: ring radius %.4f m (%.4f…%.4f), c_g t = %.4f m; "
                  "Σ A = %.9g, emitted %.9g", set->count, generations, mean, lo, hi, c * t, sum_a,
                  4 * a0);
  g_assert_cmpint (generations, >=, 5);
  /* The issue asks for 2% and one cell (0.5 m); 2e-5 and 1 mm measured. */
  g_assert_cmpfloat (fabs (mean - c * t), <=, 1e-3 * c * t);
  g_assert_cmpfloat (hi - lo, <=, 0.05);
  g_assert_cmpfloat (fabs (sum_a - 4 * a0), <=, 1e-5 * 4 * a0);

  /* The field's crest along 16 rays: the cell of largest h (cells of 0.5 m). */
  const float *h = wg_test_eval (plan, frames, "splat:displacement");
  for (int ray = 0; ray < 16; ray++)
    {
      double best = -1, at = 0;
      for (double d = 1; d < 31; d += 0.25)
        {
          int i = (int) lround (2 * (32 + d * cos (ray * G_PI / 8)));
          int j = (int) lround (2 * (32 + d * sin (ray * G_PI / 8)));
          double v = h[3 * (j * 128 + i) + 2];
          if (v > best)
            best = v, at = hypot (i - 64, j - 64) / 2;
        }
      g_assert_cmpfloat (fabs (at - c * t), <=, 0.02 * c * t);
    }
}

/* In 0.3 m of water at the phase speed: c = √(g/k · tanh(k d)), k = π/r,
 * and at the group speed c/2 (1 + 2kd / sinh 2kd): ring radius after 10 s
 * within 0.1%, under the Earth's gravity and Mars's (3.71 m/s²). */
static void
test_shallow_speeds (void)
{
  const double k = G_PI / 1.0, depth = 0.3, gravity[] = { 9.81, 3.71 };
  for (guint gi = 0; gi < G_N_ELEMENTS (gravity); gi++)
    {
      const double phase = sqrt (gravity[gi] / k * tanh (k * depth));
      const double group = 0.5 * phase * (1 + 2 * k * depth / sinh (2 * k * depth));
      g_assert_cmpfloat (group, <, 0.9 * phase);
      for (int p = 0; p < 2; p++)
        {
          g_autoptr (WgGraph) g = emitter_graph ("[{\"x\": 32, \"y\": 32, \"volume\": 0.1}]",
                                                 "walls=false", "min_amplitude=0");
          g_assert_true (wg_graph_set_param_from_text (g, "drop", "depth", "0.3", NULL));
          g_assert_true (
            wg_graph_set_param_from_text (g, "drop", "speed", p ? "phase" : "group", NULL));
          g_assert_true (wg_graph_set_param_double (g, "drop", "gravity", gravity[gi], NULL));
          g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
          const WgParticleSet *set = run_frames (plan, 0, 100);
          const double expected = (p ? phase : group) * 10.0;
          for (guint q = 0; q < set->count; q++)
            {
              const WgParticle *w = &set->particles[q];
              g_assert_cmpfloat (fabs (hypot (w->x - 32, w->y - 32) - expected), <=,
                                 1e-3 * expected);
            }
          g_test_message ("g %.2f m/s², depth %g m, %s speed: ring %.4f m after 10 s (%.4f)",
                          gravity[gi], depth, p ? "phase" : "group",
                          hypot (set->particles[0].x - 32, set->particles[0].y - 32), expected);
        }
    }
}

/* Drops of three radii (the node's 1 m, 0.5 m and 2 m) in deep water:
 * after 10 s each ring is c_g(r) t from its drop within 0.1%, every particle
 * keeps its drop's radius and satisfies eq. 5 with it (δ |x − o| ≤
 * threshold · r), each ring's Σ A is its volume / (4 V(r)); splat-filter
 * with the radii as buckets has nothing to say. A ninth radius is refused
 * at the drop that brings it. */
static void
test_radii (void)
{
  const double radius[] = { 1.0, 0.5, 2.0 }, cx[] = { 16, 46, 30 }, cy[] = { 16, 20, 44 };
  g_autoptr (WgGraph) g = drop_graph ("[{\"x\": 16, \"y\": 16, \"volume\": 0.1}, "
                                      "{\"x\": 46, \"y\": 20, \"volume\": 0.1, \"radius\": 0.5}, "
                                      "{\"x\": 30, \"y\": 44, \"volume\": -0.1, \"radius\": 2}]",
                                      "walls=false", "min_amplitude=0");
  g_assert_true (wg_graph_set_param_from_text (g, "splat", "radii",
                                               "[{\"radius\": 0.5}, {\"radius\": 2}]", NULL));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const gint64 frames = 100;
  const WgParticleSet *set = run_frames (plan, 0, frames);
  double sum_a[3] = { 0 }, worst[3] = { 0 };
  guint count[3] = { 0 };
  for (guint k = 0; k < set->count; k++)
    {
      const WgParticle *q = &set->particles[k];
      guint d = 0;
      while (d < 3 && q->radius != (float) radius[d])
        d++;
      g_assert_cmpuint (d, <, 3);
      const double c = deep_group_speed (radius[d]), dist = hypot (q->x - cx[d], q->y - cy[d]);
      worst[d] = MAX (worst[d], fabs (dist - c * frames / 10.0) / (c * frames / 10.0));
      g_assert_cmpfloat (q->dispersion * dist, <=, 0.5 * radius[d] * (1 + 1e-5));
      sum_a[d] += q->amplitude;
      count[d]++;
    }
  for (guint d = 0; d < 3; d++)
    {
      const double volume = d == 2 ? -0.1 : 0.1;
      const double emitted = volume / (radius[d] * radius[d] * (G_PI / 2 - 2 / G_PI));
      g_test_message ("r = %g m: %u particles, ring within %.2g%% of c_g(r) t = %.3f m, Σ A = "
                      "%.9g (emitted %.9g)", radius[d], count[d], 100 * worst[d],
                      deep_group_speed (radius[d]) * frames / 10.0, sum_a[d], emitted);
      g_assert_cmpuint (count[d], >, 4);
      g_assert_cmpfloat (worst[d], <=, 1e-3);
      g_assert_cmpfloat (fabs (sum_a[d] - emitted), <=, 1e-5 * fabs (emitted));
    }
  wg_test_eval (plan, frames + 1, "splat:displacement");
  g_assert_null (wg_plan_get_node_note (plan, "splat", NULL));

  g_autoptr (GString) drops = g_string_new ("[");
  for (int k = 0; k < 9; k++)
    g_string_append_printf (drops, "%s{\"x\": 8, \"y\": 8, \"volume\": 0.1, \"radius\": %g}",
                            k ? ", " : "", 1 + 0.25 * k);
  g_string_append (drops, "]");
  g_autoptr (WgGraph) many = emitter_graph (drops->str, "walls=false", "min_amplitude=0");
  WgPlanOptions o = { .backend = wg_test_backend, .threads = 1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) refused = wg_plan_new (many, &o, &error);
  g_assert_nonnull (refused);
  g_assert_false (wg_plan_evaluate (refused, 0, &error));
  g_assert_cmpstr (error->message, ==, "nodes[0] (\"drop\").params.drops[8].radius: 3 m is the "
                                       "9th particle radius (the node's own counted); the step "
                                       "moves at most 8");

  /* At the node's floor (a radius of 0: the node's, here 1e-4 m) drops are
   * taken; below it a ring's amplitude, volume / r², overflows. */
  g_autoptr (WgGraph) floor = emitter_graph (
    "[{\"x\": 8, \"y\": 8, \"volume\": 1e-9}, {\"x\": 8, \"y\": 8, \"volume\": 1e-9, "
    "\"radius\": 1e-4}]", "walls=false", "min_amplitude=0");
  g_assert_true (wg_graph_set_param_double (floor, "drop", "radius", 1e-4, NULL));
  g_clear_error (&error);
  g_autoptr (WgPlan) floor_plan = wg_plan_new (floor, &o, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate (floor_plan, 0, &error));
  g_assert_no_error (error);
  g_autoptr (WgGraph) tiny = emitter_graph (
    "[{\"x\": 8, \"y\": 8, \"volume\": 0.1}, {\"x\": 8, \"y\": 8, \"volume\": 0.1, "
    "\"radius\": 1e-300}]", "walls=false", "min_amplitude=0");
  g_clear_error (&error);
  g_autoptr (WgPlan) tiny_plan = wg_plan_new (tiny, &o, &error);
  g_assert_nonnull (tiny_plan);
  g_assert_false (wg_plan_evaluate (tiny_plan, 0, &error));
  g_assert_cmpstr (error->message, ==, "nodes[0] (\"drop\").params.drops[1].radius: 1e-300 m is "
                                       "below the smallest particle radius, 0.0001 m (0: the "
                                       "node's)");
}

/* Σ A through subdivisions at every step, within 1e-5, and the splatted
 * field's ∫ h dA over the pool: constant within 1e-5 from the drop on
 * (the GPU: within its fixed point's rounding), through subdivisions and
 * reflections off the walls (no particle is deleted; it was 2.7% short
 * while the ring touched a wall, when a wall's own cell did not count its
 * image), and the drop's volume to the discrete bump's accuracy at a
 * radius of two cells. */
static void
test_conservation (void)
{
  g_autoptr (WgGraph) g = drop_graph (
    "[{\"x\": 20, \"y\": 30, \"time\": 0.5, \"volume\": -0.1}]", "walls=true",
    "min_amplitude=0");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const double emitted = -0.1 / (G_PI / 2 - 2 / G_PI);
  guint most = 0;
  double first = 0, worst = 0;
  for (gint64 f = 0; f <= 300; f += 5)
    {
      const WgParticleSet *set = run_frames (plan, f, f + 4);
      double sum = 0;
      for (guint k = 0; k < set->count; k++)
        sum += set->particles[k].amplitude;
      /* The drop falls at 0.5 s, frame 5. */
      const double expected = f < 5 ? 0 : emitted;
      g_assert_cmpfloat (fabs (sum - expected), <=, 1e-5 * fabs (emitted));
      most = MAX (most, set->count);
      /* The pool is [0, 63.5 m]² between the walls through the first and
       * last cells' centres (cells of 0.5 m): the trapezoid rule, the
       * field being even about each wall. */
      const float *h = wg_test_eval (plan, f + 4, "splat:displacement");
      double volume = 0;
      for (int j = 0; j < 128; j++)
        for (int i = 0; i < 128; i++)
          volume += 0.25 * (i % 127 ? 1 : 0.5) * (j % 127 ? 1 : 0.5) * h[3 * (j * 128 + i) + 2];
      if (f < 5)
        g_assert_cmpfloat (volume, ==, 0);
      else if (f == 5)
        first = volume;
      else
        worst = MAX (worst, fabs (volume / first - 1));
    }
  /* The GPU adds each corner rounded to 2⁻²⁴ m (fixed point): at most half
   * of that a corner, each corner a bump of r² (π/2 − 2/π) m³ a metre. */
  const double bound = wg_test_backend == WG_BACKEND_GPU
                         ? 4.0 * most * 0x1p-25 * (G_PI / 2 - 2 / G_PI) / 0.1
                         : 1e-5;
  g_test_message ("%u particles at most; ∫ h dA %.9g m³ (the drop's −0.1), within %.2g of it "
                  "after (bound %.2g)", most, first, worst, bound);
  g_assert_cmpuint (most, >, 500);
  g_assert_cmpfloat (worst, <=, bound);
  g_assert_cmpfloat (fabs (first + 0.1), <=, 0.02 * 0.1);
}

/* A drop 5 m from the wall x = 0 gives, after reflection, the field of that
 * drop without walls plus a drop at the mirrored point (−5 m), within 1e-3
 * of the peak (the issue asks 2%). */
static void
test_reflection (void)
{
  g_autoptr (WgGraph) walled = drop_graph (
    "[{\"x\": 5, \"y\": 32, \"time\": 0, \"volume\": 0.2}]", "walls=true",
    "min_amplitude=0");
  g_autoptr (WgGraph) image = drop_graph (
    "[{\"x\": 5, \"y\": 32, \"time\": 0, \"volume\": 0.2}, "
    "{\"x\": -5, \"y\": 32, \"time\": 0, \"volume\": 0.2}]", "walls=false",
    "min_amplitude=0");
  g_autoptr (WgPlan) a = wg_test_plan (walled, 2);
  g_autoptr (WgPlan) b = wg_test_plan (image, 2);
  /* 20 s: the ring (17.7 m) has met the wall at x = 0 but no other. */
  run_frames (a, 0, 199);
  run_frames (b, 0, 199);
  gsize n1, n2;
  g_autofree float *x = wg_test_eval_copy (a, 200, "splat:displacement", &n1);
  g_autofree float *y = wg_test_eval_copy (b, 200, "splat:displacement", &n2);
  g_assert_cmpuint (n1, ==, n2);
  /* Cells 3 m and more from the wall: nearer, the open splat of the image
   * graph misses the bumps of particles beyond x = 0. */
  double worst = 0, peak = 0;
  guint worst_i = 0;
  for (gsize k = 0; k < n1 / 3; k++)
    {
      if (k % 128 < 6)
        continue;
      if (fabs (x[3 * k + 2] - y[3 * k + 2]) > worst)
        worst = fabs (x[3 * k + 2] - y[3 * k + 2]), worst_i = k % 128;
      peak = MAX (peak, fabs (y[3 * k + 2]));
    }
  g_test_message ("reflection vs image source: max difference %.3g m (column %u), peak %.3g m",
                  worst, worst_i, peak);
  g_assert_cmpfloat (peak, >, 0);
  g_assert_cmpfloat (worst, <=, 1e-3 * peak);
}

/* A plan restored from frame 40's state, and one with another thread
 * count, give the same particle bytes at frame 90, and the same saved
 * state. */
static void
test_resume (void)
{
  g_autoptr (WgGraph) g = drop_graph (
    "[{\"x\": 12, \"y\": 40, \"time\": 0, \"volume\": 0.2}, "
    "{\"x\": 50, \"y\": 9, \"time\": 6, \"volume\": -0.1}]", "walls=true",
    "min_amplitude=1e-4");
  g_autoptr (WgPlan) first = wg_test_plan (g, 1);
  g_autoptr (WgPlan) other = wg_test_plan (g, 3);
  g_autoptr (WgPlan) resumed = wg_test_plan (g, 2);
  g_autoptr (GError) error = NULL;
  wg_test_particles_resume (first, other, resumed, "drop", 40, 90);
  /* Their saved states too, slots past the count included (saved as zeros
   * whatever earlier steps left there). */
  g_autoptr (GBytes) s0 = wg_plan_save_state (first, &error);
  g_autoptr (GBytes) s1 = wg_plan_save_state (other, &error);
  g_autoptr (GBytes) s2 = wg_plan_save_state (resumed, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (s0, s1));
  g_assert_true (g_bytes_equal (s0, s2));
}

/* Three rings of 8 at once into a set of 16. */
static WgGraph *
overflow_graph (void)
{
  WgGraph *g = wg_test_graph (64, 64, 10, 1);
  wg_test_add (g, "particle-emitter", "drop", "capacity=16", "ring=8",
               "drops=[{\"x\": 32, \"y\": 32, \"volume\": 0.1}, "
               "{\"x\": 10, \"y\": 10, \"volume\": 0.1}, {\"x\": 50, \"y\": 10, \"volume\": 0.1}]",
               NULL);
  return g;
}

/* A full set counts what it could not make and says so in the note. */
static void
test_overflow (void)
{
  g_autoptr (WgGraph) g = overflow_graph ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgParticleSet *set = run_frames (plan, 0, 0);
  g_assert_cmpuint (set->count, ==, 16);
  g_assert_cmpuint (set->dropped, ==, 8);
  if (wg_test_backend == WG_BACKEND_GPU)
    return;
  gboolean warning = FALSE;
  const char *note = wg_plan_get_node_note (plan, "drop", &warning);
  g_assert_true (warning);
  g_assert_cmpstr (note, ==, "8 particles did not fit the capacity of 16 (raise capacity)");
}

/* A bake of overflow_graph() says what did not fit: on the CPU the
 * node's warning with the frames it was given on, on the GPU (whose count
 * stays there) the set's dropped count at the end. */
static void
test_bake_warns (void)
{
  g_autoptr (WgGraph) g = overflow_graph ();
  g_assert_true (wg_graph_set_output (g, "particles", "drop", "particles", NULL));
  g_autofree char *dir = wg_test_tmp_dir ();
  WgBakeOptions o = { 0, 2, dir, wg_test_backend, 1, FALSE };
  WgBakeStats stats;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_bake (g, &o, &stats, &error));
  g_assert_no_error (error);
  g_assert_nonnull (stats.warnings);
  g_test_message ("%s", stats.warnings[0]);
  if (wg_test_backend == WG_BACKEND_CPU)
    g_assert_cmpstr (stats.warnings[0], ==, "nodes[0] (\"drop\") on 3 of 3 frames, first at frame "
                     "0: 8 particles did not fit the capacity of 16 (raise capacity)");
  else
    g_assert_cmpstr (stats.warnings[0], ==, "nodes[0] (\"drop\"): 8 particles did not fit the "
                     "capacity of 16 over the bake (raise capacity)");
  g_assert_null (stats.warnings[1]);
  wg_bake_stats_clear (&stats);
}

/* A ring of 8 (r = 0.25 m) that subdivides (frame 4: 8 × 3 > 20) in a set of 20: six
 * particles split, the seventh (crossing the capacity) stays whole and the
 * eighth is lost: 19 live, 3 dropped (the eighth and the seventh's two
 * children), on both backends. Later steps, where the seventh still cannot
 * split, count nothing more (CPU). */
static void
test_dropped_once (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
  wg_test_add (g, "particle-emitter", "drop", "capacity=20", "ring=8", "walls=false",
               "min_amplitude=0", "drops=[{\"x\": 32, \"y\": 32, \"volume\": 0.1}]", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const WgParticleSet *set = run_frames (plan, 0, 3);
  g_assert_cmpuint (set->count, ==, 8);
  g_assert_cmpuint (set->dropped, ==, 0);
  set = run_frames (plan, 4, 4);
  g_assert_cmpuint (set->count, ==, 19);
  g_assert_cmpuint (set->dropped, ==, 3);
  double sum = 0;
  for (guint k = 0; k < set->count; k++)
    sum += set->particles[k].amplitude;
  const double a = 0.1 / (8 * 0.25 * 0.25 * (G_PI / 2 - 2 / G_PI));
  /* The whole particles' amplitude: seven of the eight. */
  g_assert_cmpfloat (fabs (sum - 7 * a), <=, 1e-6 * a);
  /* Later steps depend on where the unsubdivided particle lands in the
   * set, which on the GPU is scheduling order. */
  if (wg_test_backend == WG_BACKEND_GPU)
    return;
  /* The next subdivisions are at frame 11. */
  set = run_frames (plan, 5, 10);
  g_assert_cmpuint (set->count, ==, 19);
  g_assert_cmpuint (set->dropped, ==, 3);
}

/* A ring that dies after its first subdivision (frame 4: 8 → 24 of A/3 <
 * min_amplitude, deleted at frame 5) leaves particles in the slots past
 * the count; a plan resumed from frame 5's state never had them, yet both
 * save the same state at frame 6. */
static void
test_state_bytes (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
  wg_test_add (g, "particle-emitter", "drop", "ring=8", "walls=false", "min_amplitude=0.01",
               "drops=[{\"x\": 32, \"y\": 32, \"volume\": 0.01}]", NULL);
  g_autoptr (WgPlan) first = wg_test_plan (g, 1);
  g_autoptr (WgPlan) resumed = wg_test_plan (g, 1);
  g_autoptr (GError) error = NULL;
  g_assert_cmpuint (run_frames (first, 0, 3)->count, ==, 8);
  g_assert_cmpuint (run_frames (first, 4, 4)->count, ==, 24);
  g_assert_cmpuint (run_frames (first, 5, 5)->count, ==, 0);
  g_autoptr (GBytes) state = wg_plan_save_state (first, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_restore_state (resumed, state, &error));
  g_assert_no_error (error);
  run_frames (first, 6, 6);
  run_frames (resumed, 6, 6);
  g_autoptr (GBytes) a = wg_plan_save_state (first, &error);
  g_autoptr (GBytes) b = wg_plan_save_state (resumed, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (a, b));
}

/* Many blocks of the parallel compaction (4096 particles each): 50 rings
 * of 100 (r = 0.25 m, threshold 0.05: subdividing at frames ~5 and ~14)
 * with deletions and the capacity reached: 1 and 3 threads give the same
 * bytes at every step. */
static void
test_threads_blocks (void)
{
  GString *drops = g_string_new ("drops=[");
  for (int d = 0; d < 50; d++)
    g_string_append_printf (drops, "%s{\"x\": %d, \"y\": %d, \"time\": %g, \"volume\": %g}",
                            d ? ", " : "", 5 + d % 7 * 8, 5 + d / 7 * 8, 0.02 * d,
                            0.001 * (1 + d % 9) * (d % 2 ? 1 : -1));
  g_string_append (drops, "]");
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
  wg_test_add (g, "particle-emitter", "drop", "capacity=16000", "ring=100", "threshold=0.05",
               "min_amplitude=1e-4", drops->str, NULL);
  g_string_free (drops, TRUE);
  g_autoptr (WgPlan) one = wg_test_plan (g, 1);
  g_autoptr (WgPlan) three = wg_test_plan (g, 3);
  guint most = 0;
  for (gint64 f = 0; f < 20; f++)
    {
      const WgParticleSet *a = run_frames (one, f, f), *b = run_frames (three, f, f);
      g_assert_cmpuint (a->count, >, 0);
      g_assert_cmpmem (a, sizeof *a + a->count * sizeof (WgParticle), b,
                       sizeof *b + b->count * sizeof (WgParticle));
      most = MAX (most, a->count);
    }
  const WgParticleSet *set = run_frames (one, 20, 20);
  g_test_message ("%u particles at most, %u dropped", most, set->dropped);
  g_assert_cmpuint (most, >, 3 * 4096);
  g_assert_cmpuint (set->dropped, >, 0);
  g_assert_cmpuint (set->count, <=, 16000);
}

/* Two drops in the pool for 100 steps, one of them off the walls, on the
 * CPU and the GPU: the same count and dropped, each CPU particle matched
 * to its own GPU particle (nearest, each used once) within 1e-4 of the
 * pool (6.4 mm) in position, 1e-5 relative in amplitude and dispersion,
 * and the splatted fields within 1e-4 of their largest value. */
static void
test_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = drop_graph (
    "[{\"x\": 6, \"y\": 40, \"time\": 0, \"volume\": 0.2}, "
    "{\"x\": 45, \"y\": 20, \"time\": 2.05, \"volume\": -0.1}]", "walls=true",
    "min_amplitude=1e-4");
  g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
  g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
  const WgParticleSet *a = run_frames (cpu, 0, 99), *b = run_frames (gpu, 0, 99);
  g_assert_cmpuint (a->count, >, 300);
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpuint (a->dropped, ==, b->dropped);
  const double worst = wg_test_match_particles (a, b, 1e-5);
  g_test_message ("%u particles: worst position difference %.3g m", a->count, worst);
  /* The bound is 1e-4 of the domain (6.4 mm); llvmpipe gives 0. */
  g_assert_cmpfloat (worst, <=, 1e-4);
  gsize n1, n2;
  g_autofree float *x = wg_test_eval_copy (cpu, 100, "splat:displacement", &n1);
  g_autofree float *y = wg_test_eval_copy (gpu, 100, "splat:displacement", &n2);
  g_assert_cmpuint (n1, ==, n2);
  double peak = 0, diff = 0;
  for (gsize k = 0; k < n1; k++)
    {
      peak = MAX (peak, fabs (x[k]));
      diff = MAX (diff, fabs (x[k] - y[k]));
    }
  g_test_message ("field: max |cpu − gpu| = %.3g, peak %.3g m", diff, peak);
  g_assert_cmpfloat (peak, >, 0);
  g_assert_cmpfloat (diff, <=, 1e-4 * peak);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("particle-emitter", "ring", test_ring);
  wg_test_add_both ("particle-emitter", "shallow-speeds", test_shallow_speeds);
  wg_test_add_both ("particle-emitter", "radii", test_radii);
  wg_test_add_both ("particle-emitter", "conservation", test_conservation);
  g_test_add_func ("/particle-emitter/reflection", test_reflection);
  wg_test_add_both ("particle-emitter", "overflow", test_overflow);
  wg_test_add_both ("particle-emitter", "bake-warns", test_bake_warns);
  g_test_add_func ("/particle-emitter/resume", test_resume);
  wg_test_add_both ("particle-emitter", "dropped-once", test_dropped_once);
  g_test_add_func ("/particle-emitter/state-bytes", test_state_bytes);
  g_test_add_func ("/particle-emitter/threads-blocks", test_threads_blocks);
  g_test_add_func ("/particle-emitter/parity", test_parity);
  return g_test_run ();
}
