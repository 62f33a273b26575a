/* test-floating-body.c — floating-body against hydrostatics (papers/004
 * §4.3): Archimedes' equilibrium of a box and of a sphere (the spherical
 * cap's volume computed here), rest stays rest, the heave frequency
 * √(ρ g A_wp / m) of a box (no added mass, drag 0), the waterline contour
 * of a box; plan states and thread counts change no byte; bad bodies are
 * refused with their JSON path through the CLI (exit 2). */
#include "wg-test-util.h"
#include "wg-test-tmp.h"
#include "wg-floating-body.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A 64 m patch of 64² cells on calm water (surface unlinked) at @fps, one
 * floating-body "float" with "bodies=@bodies" and further "name=value"s. */
static WgGraph *
calm_graph (double fps, const char *bodies, const char *more1, const char *more2)
{
  WgGraph *g = wg_test_graph (64, 64, fps, 1);
  g_autofree char *b = g_strdup_printf ("bodies=%s", bodies);
  wg_test_add (g, "floating-body", "float", b, "water_density=1000", more1, more2, NULL);
  return g;
}

static const WgBodySet *
run_frames (WgPlan *plan, gint64 from, gint64 to)
{
  g_autoptr (GError) error = NULL;
  for (gint64 f = from; f <= to; f++)
    g_assert_true (wg_plan_evaluate (plan, f, &error));
  g_assert_no_error (error);
  const WgBodySet *set =
    wg_buffer_read_bodies (wg_plan_get_node_output (plan, "float", "bodies"), &error);
  g_assert_no_error (error);
  return set;
}

/* The one body of @bodies after 60 s on calm water at 30 fps, damped by drag 4. */
static WgBody
settled (const char *bodies)
{
  g_autoptr (WgGraph) g = calm_graph (30, bodies, "drag=4", "lift=0");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = run_frames (plan, 0, 1800);
  g_assert_cmpuint (set->count, ==, 1);
  return set->bodies[0];
}

/* Density 500 in water of 1000 floats half submerged: a 2 × 1 × 0.5 m box
 * dropped from 10 cm above its equilibrium (drag 4 damps it) has after 60 s
 * a draft of 0.25 m and displaces m / ρ = 0.5 m³, both within 1%; so does
 * one given a mass of 500 kg, which wins over its density (9999). */
static void
test_box_settles (void)
{
  for (int by_mass = 0; by_mass < 2; by_mass++)
    {
      const WgBody body = settled (
        by_mass ? "[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 9999, "
                  "\"mass\": 500, \"position\": [32, 32, 0.1]}]"
                : "[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 500, "
                  "\"position\": [32, 32, 0.1]}]");
      const WgBody *b = &body;
      const double draft = 0.25 - b->position[2];
      g_test_message ("draft %.6f m (0.25), submerged %.6f m³ (0.5)", draft, b->submerged_volume);
      g_assert_cmpfloat (fabs (draft - 0.25), <, 0.01 * 0.25);
      g_assert_cmpfloat (fabs (b->submerged_volume - 0.5), <, 0.01 * 0.5);
    }
}

/* A box of density 5 released half submerged (its equilibrium draft is
 * 2.5 mm) leaps out: buoyancy's work ρ g A d²/2 over the d = 0.25 m it
 * drops to nothing lifts it by at most ρ A d² / 2m = 12.5 m (no drag on
 * the way up: no submerged face meets the flow). Its drag, stiff for so
 * light a hull at 30 fps, is taken implicitly: every frame stays finite
 * and below that height (3% for the steps' energy error: 1.7% measured),
 * and after 60 s it floats at its draft (within 1 mm). With the drag
 * explicit it came back down at 16 m/s and flew off to 540 km. */
static void
test_light (void)
{
  g_autoptr (WgGraph) g = calm_graph (
    30, "[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 5, "
        "\"position\": [32, 32, 0]}]", NULL, NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  double highest = -INFINITY;
  const WgBody *b = NULL;
  for (gint64 f = 0; f <= 1800; f++)
    {
      b = &run_frames (plan, f, f)->bodies[0];
      for (int k = 0; k < 3; k++)
        g_assert_true (isfinite (b->position[k]));
      highest = MAX (highest, b->position[2]);
    }
  g_test_message ("highest %.4f m (≤ 12.5), after 60 s z = %.6f m (0.2475)", highest,
                  b->position[2]);
  g_assert_cmpfloat (highest, >, 1);
  g_assert_cmpfloat (highest, <=, 12.5 * 1.03);
  g_assert_cmpfloat (fabs (b->position[2] - 0.2475), <, 1e-3);
}

/* A box placed at its equilibrium at rest stays there for 60 s (default
 * drag and lift): drift under 1 mm, tilt under 1e-5 rad. */
static void
test_rest (void)
{
  g_autoptr (WgGraph) g = calm_graph (
    30, "[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 500, "
        "\"position\": [20.5, 40.25, 0], \"yaw\": 30}]", NULL, NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = run_frames (plan, 0, 1800);
  const WgBody *b = &set->bodies[0];
  const double drift = sqrt (pow (b->position[0] - 20.5, 2) + pow (b->position[1] - 40.25, 2) +
                             pow (b->position[2], 2));
  double q0[4];
  wg_quat_from_euler (30 * G_PI / 180, 0, 0, q0);
  /* The rotation from q0 to q: 2 atan2 (|r⃗|, |r_w|) of r = q0* q. */
  const float *q = b->orientation;
  const double rv[3] = { q0[3] * q[0] - q[3] * q0[0] - (q0[1] * q[2] - q0[2] * q[1]),
                         q0[3] * q[1] - q[3] * q0[1] - (q0[2] * q[0] - q0[0] * q[2]),
                         q0[3] * q[2] - q[3] * q0[2] - (q0[0] * q[1] - q0[1] * q[0]) };
  const double rw = q0[0] * q[0] + q0[1] * q[1] + q0[2] * q[2] + q0[3] * q[3];
  const double tilt = 2 * atan2 (sqrt (rv[0] * rv[0] + rv[1] * rv[1] + rv[2] * rv[2]), fabs (rw));
  g_test_message ("drift %.3g m, rotation %.3g rad after 60 s", drift, tilt);
  g_assert_cmpfloat (drift, <, 1e-3);
  g_assert_cmpfloat (tilt, <, 1e-5);
}

/* Pushed 5 cm down and released without drag, a 2 × 2 × 1 m box of 2000 kg
 * (A_wp = 4 m²) heaves at ω = √(ρ g A_wp / m) (no added mass: the node has
 * none), measured from the upward zero crossings over 10 s, within 0.1%
 * (1e-6 measured), under the Earth's gravity and Mars's (3.71 m/s²). */
static void
test_heave (void)
{
  const double fps = 100, gravity[] = { 9.81, 3.71 };
  for (guint k = 0; k < G_N_ELEMENTS (gravity); k++)
    {
      g_autoptr (WgGraph) g = calm_graph (
        fps, "[{\"shape\": \"box\", \"size\": [2, 2, 1], \"density\": 500, "
             "\"position\": [32, 32, -0.05]}]", "drag=0", "lift=0");
      g_assert_true (wg_graph_set_param_double (g, "float", "gravity", gravity[k], NULL));
      g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
      double prev = -0.05, first = -1, last = -1;
      int crossings = 0;
      for (gint64 f = 1; f <= 1000; f++)
        {
          const double z = run_frames (plan, f == 1 ? 0 : f, f)->bodies[0].position[2];
          if (prev < 0 && z >= 0)
            {
              const double t = (f - 1 + prev / (prev - z)) / fps;
              if (first < 0)
                first = t;
              last = t;
              crossings++;
            }
          prev = z;
        }
      const double omega = 2 * G_PI * (crossings - 1) / (last - first);
      const double expected = sqrt (1000 * gravity[k] * 4 / 2000.0);
      g_test_message ("g %.2f: heave ω %.5f rad/s, √(ρ g A / m) = %.5f (error %.3g%%)",
                      gravity[k], omega, expected, 100 * (omega / expected - 1));
      g_assert_cmpint (crossings, >=, 3);
      g_assert_cmpfloat (fabs (omega / expected - 1), <, 1e-3);
    }
}

/* The motor (drag and lift 0, response τ = 1 s) on a capsule boat floating
 * at its waterline: the forward speed follows v*(1 − e^(−t/τ)) (2 m/s, at
 * t = 1 s within 1%); turning alone, the yaw rate ω*(1 − e^(−t/τ)) gives the
 * heading ω* (t − τ (1 − e^(−t/τ))) (20°/s, at t = 3 s within 1%). */
static void
test_motor (void)
{
  const char *const bodies[2] = {
    "[{\"shape\": \"capsule\", \"size\": [6, 1.6, 1.6], \"density\": 500, "
    "\"position\": [32, 32, 0], \"yaw\": 30, \"speed\": 2}]",
    "[{\"shape\": \"capsule\", \"size\": [6, 1.6, 1.6], \"density\": 500, "
    "\"position\": [32, 32, 0], \"yaw\": 30, \"turn_rate\": 20}]",
  };
  for (int m = 0; m < 2; m++)
    {
      g_autoptr (WgGraph) g = calm_graph (50, bodies[m], "drag=0", "lift=0");
      g_autoptr (GError) error = NULL;
      g_assert_true (wg_graph_set_param_double (g, "float", "response", 1, &error));
      g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
      const double t = m == 0 ? 1 : 3;
      const WgBody *b = &run_frames (plan, 0, (gint64) (t * 50))->bodies[0];
      const float *q = b->orientation;
      const double yaw = atan2 (2 * (q[3] * q[2] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
      if (m == 0)
        {
          const double heading[2] = { cos (G_PI / 6), sin (G_PI / 6) };
          const double v = b->velocity[0] * heading[0] + b->velocity[1] * heading[1];
          const double expected = 2 * (1 - exp (-t));
          g_test_message ("forward speed %.5f m/s at 1 s, v*(1 − 1/e) = %.5f", v, expected);
          g_assert_cmpfloat (fabs (v / expected - 1), <, 0.01);
          g_assert_cmpfloat (fabs (yaw - G_PI / 6), <, 1e-6);
        }
      else
        {
          const double w = 20 * G_PI / 180, expected = G_PI / 6 + w * (t - (1 - exp (-t)));
          g_test_message ("heading %.5f rad at 3 s, expected %.5f", yaw, expected);
          g_assert_cmpfloat (fabs ((yaw - G_PI / 6) / (expected - G_PI / 6) - 1), <, 0.01);
        }
    }
}

/* Volume of a spherical cap of height @h on a sphere of radius @r. */
static double
cap_volume (double r, double h)
{
  return G_PI * h * h * (3 * r - h) / 3;
}

/* A 1 m sphere of density 300 in water of 1000 settles where the cap below
 * the water holds 0.3 of its volume (draft by bisection here), within 1%. */
static void
test_sphere (void)
{
  const WgBody body = settled ("[{\"shape\": \"sphere\", \"size\": [1, 1, 1], \"density\": "
                               "300, \"position\": [32, 32, 0]}]");
  const WgBody *b = &body;
  const double r = 0.5, target = 0.3 * 4.0 / 3 * G_PI * r * r * r;
  double lo = 0, hi = 2 * r;
  for (int it = 0; it < 60; it++)
    {
      const double mid = (lo + hi) / 2;
      *(cap_volume (r, mid) < target ? &lo : &hi) = mid;
    }
  const double draft = r - b->position[2];
  g_test_message ("sphere draft %.5f m, cap volume's %.5f m (error %.3g%%)", draft, lo,
                  100 * (draft / lo - 1));
  g_assert_cmpfloat (fabs (draft / lo - 1), <, 0.01);
}

/* A 2 × 1 × 0.5 m box at rest half submerged: 64 samples whose lengths add
 * up to the waterline's perimeter 6 m (1e-5 m), unit normals pointing outward
 * (away from the centre) and perpendicular to the side they sit on, draft
 * 0.25 m, velocity 0. */
static void
test_contour (void)
{
  g_autoptr (WgGraph) g = calm_graph (
    30, "[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 500, "
        "\"position\": [32, 32, 0]}]", NULL, NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBody *b = &run_frames (plan, 0, 3)->bodies[0];
  g_assert_cmpuint (b->n_contour, ==, WG_BODY_CONTOUR);
  double perimeter = 0;
  for (guint k = 0; k < b->n_contour; k++)
    {
      const WgContourSample *c = &b->contour[k];
      perimeter += c->length;
      const double rx = c->x - 32, ry = c->y - 32;
      g_assert_cmpfloat (fabs (hypot (c->nx, c->ny) - 1), <, 1e-6);
      g_assert_cmpfloat (rx * c->nx + ry * c->ny, >, 0);
      /* On a side x = ±1 the normal is ±x̂; on y = ±0.5 it is ±ŷ. */
      if (fabs (fabs (rx) - 1) < 1e-4)
        g_assert_cmpfloat (fabs (c->nx), >, 0.9999);
      else
        {
          g_assert_cmpfloat (fabs (fabs (ry) - 0.5), <, 1e-4);
          g_assert_cmpfloat (fabs (c->ny), >, 0.9999);
        }
      g_assert_cmpfloat (fabs (c->draft - 0.25), <, 1e-4);
      g_assert_cmpfloat (hypot (c->vx, c->vy), <, 1e-6);
    }
  g_test_message ("contour length %.6f m (6)", perimeter);
  g_assert_cmpfloat (fabs (perimeter - 6), <, 1e-5);
}

/* Σ (v·n) draft length over the contour samples facing the motion of a
 * hull moving at 1 m/s in calm water: the submerged section it sweeps,
 * whatever its tessellation — π R²/2 for a sphere of radius 0.5 m centred
 * on the waterline (32 to 128 segments, within 0.5%; the deepest vertex near
 * the waterline gave +12% at 16 segments to −46% at 128), 0.5 m² for a
 * 1 m box half under moving along x and 0.5 √2 m² at 45°, exactly; the
 * samples behind it as much, negative (the sphere's within 0.1%). */
static void
test_swept_section (void)
{
  const guint segments[] = { 32, 64, 128 };
  for (guint k = 0; k < 4; k++)
    {
      WgHull hull = { 0 };
      double exact, heading = 0;
      if (k < 3)
        wg_hull_sphere (&hull, 1, segments[k]), exact = G_PI * 0.25 / 2;
      else
        wg_hull_box (&hull, 1, 1, 1, 8), exact = 0.5 * G_SQRT2, heading = G_PI / 4;
      g_assert_true (wg_hull_finish (&hull, 500, 0));
      for (int turn = 0; turn < (k < 3 ? 1 : 2); turn++)
        {
          const double a = turn ? 0 : heading, expected = turn ? 0.5 : exact;
          WgBodyState s = { .x = { 5, 5, 0 }, .q = { 0, 0, 0, 1 }, .v = { cos (a), sin (a), 0 } };
          const WgWater calm = { 0 };
          g_autofree WgBody *body = g_new0 (WgBody, 1);
          g_autofree double *scratch = g_new (double, wg_hull_scratch_size (&hull));
          wg_body_contour (&hull, &s, &calm, body, scratch);
          g_assert_cmpuint (body->n_contour, ==, WG_BODY_CONTOUR);
          double front = 0, back = 0;
          for (guint c = 0; c < body->n_contour; c++)
            {
              const WgContourSample *q = &body->contour[c];
              const double f = ((double) q->vx * q->nx + (double) q->vy * q->ny) * q->draft *
                               q->length;
              *(f > 0 ? &front : &back) += f;
            }
          g_test_message ("%s, heading %.0f°: swept %.5f m² (%.5f), behind %.5f",
                          k < 3 ? "sphere" : "box", a * 180 / G_PI, front, expected, back);
          g_assert_cmpfloat (fabs (front - expected), <=, (k < 3 ? 5e-3 : 1e-5) * expected);
          g_assert_cmpfloat (fabs (front + back), <=, (k < 3 ? 1e-3 : 1e-5) * expected);
        }
      wg_hull_clear (&hull);
    }
}

/* The footprint of a 2 × 1 m box turned 30°, half submerged, on a 32 m
 * patch of 256² cells: its area Σ f Δx Δy is 2 m² within 1%, 1 at every
 * cell more than two cells inside the turned rectangle, 0 at every cell
 * more than two cells outside it. */
static void
test_footprint (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (256, 32, 30, 1);
  wg_test_add (g, "floating-body", "float", "water_density=1000",
               "bodies=[{\"size\": [2, 1, 0.5], \"density\": 500, \"position\": [16, 16, 0], "
               "\"yaw\": 30}]", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const float *f = wg_test_eval (plan, 2, "float:footprint");
  const double cell = 32.0 / 256;
  double area = 0;
  for (guint k = 0; k < 256 * 256; k++)
    area += f[k] * cell * cell;
  g_test_message ("footprint area %.5f m² (2)", area);
  g_assert_cmpfloat (fabs (area / 2 - 1), <, 0.01);
  const double c30 = cos (G_PI / 6), s30 = sin (G_PI / 6);
  guint inside = 0;
  for (guint j = 0; j < 256; j++)
    for (guint i = 0; i < 256; i++)
      {
        const double x = i * cell - 16, y = j * cell - 16;
        const double lx = fabs (x * c30 + y * s30), ly = fabs (-x * s30 + y * c30);
        if (lx < 1 - 2 * cell && ly < 0.5 - 2 * cell)
          {
            g_assert_cmpfloat (f[j * 256 + i], ==, 1);
            inside++;
          }
        else if (lx > 1 + 2 * cell || ly > 0.5 + 2 * cell)
          g_assert_cmpfloat (f[j * 256 + i], ==, 0);
      }
  g_assert_cmpuint (inside, >=, 40); /* (2 − 4 cells)(1 − 4 cells) = 0.75 m²: 48 cells */
}

/* The example's bodies on its FFT ocean (64²): a plan restored from frame
 * 20's state and one with 2 threads give frame 40's bodies byte for byte. */
static void
test_resume (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("floating-boxes.json", 64);
  g_autoptr (WgPlan) first = wg_test_plan (g, 1);
  g_autoptr (WgPlan) other = wg_test_plan (g, 2);
  g_autoptr (WgPlan) resumed = wg_test_plan (g, 1);
  g_autoptr (GError) error = NULL;
  run_frames (first, 0, 20);
  g_autoptr (GBytes) state = wg_plan_save_state (first, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_restore_state (resumed, state, &error));
  g_assert_no_error (error);
  const WgBodySet *sets[3];
  WgPlan *plans[3] = { first, other, resumed };
  for (int p = 0; p < 3; p++)
    sets[p] = run_frames (plans[p], p == 1 ? 0 : 21, 40);
  g_assert_cmpuint (sets[0]->count, >=, 2);
  /* They moved: the waves rock them. */
  g_assert_cmpfloat (fabs (sets[0]->bodies[0].velocity[2]), >, 0);
  const gsize bytes = sizeof *sets[0] + sets[0]->count * sizeof (WgBody);
  g_assert_cmpmem (sets[0], bytes, sets[1], bytes);
  g_assert_cmpmem (sets[0], bytes, sets[2], bytes);
}

/* The example's bodies on its FFT ocean (64²) after 30 frames: the GPU's
 * forces (float, summed by a reduction per chunk of 1024 triangles, the
 * chunks in double) against the CPU's (double, in triangle order),
 * surfaces made by each backend: positions within 0.1 mm, quaternions
 * within 1e-5, submerged volumes within 1e-4 (llvmpipe: 2e-7 m, 3e-8 and
 * 6e-7; the margin is for GPUs that fuse multiply-adds); with its box,
 * sphere and capsule tessellated at @segments (0: the example's, each
 * hull one chunk; 20: 4800 triangles a body, five chunks). */
static void
gpu_parity (int segments)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = wg_test_load_example ("floating-boxes.json", 64);
  if (segments)
    g_assert_true (wg_graph_set_param_int (g, "float", "segments", segments, NULL));
  /* Its picture takes most of the time on llvmpipe and tells nothing here. */
  for (guint k = 0; k < 3; k++)
    g_assert_true (wg_graph_remove_node (g, (const char *[]) { "shade", "beauty_out", "normals" }[k],
                                         NULL));
  g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
  g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
  const WgBodySet *a = run_frames (cpu, 0, 30), *b = run_frames (gpu, 0, 30);
  /* Three bodies, then the dinghy's mesh hull passed on from its node. */
  g_assert_cmpuint (a->count, ==, 4);
  g_assert_cmpuint (b->count, ==, 4);
  double dx = 0, dq = 0, dv = 0;
  for (guint i = 0; i < a->count; i++)
    {
      for (int k = 0; k < 3; k++)
        dx = MAX (dx, fabs (a->bodies[i].position[k] - b->bodies[i].position[k]));
      for (int k = 0; k < 4; k++)
        dq = MAX (dq, fabs (a->bodies[i].orientation[k] - b->bodies[i].orientation[k]));
      dv = MAX (dv, fabs (a->bodies[i].submerged_volume / b->bodies[i].submerged_volume - 1));
    }
  g_test_message ("GPU vs CPU after 30 frames: position %.3g m, quaternion %.3g, volume %.3g",
                  dx, dq, dv);
  g_assert_cmpfloat (dx, <, 1e-4);
  g_assert_cmpfloat (dq, <, 1e-5);
  g_assert_cmpfloat (dv, <, 1e-4);
}

static void
test_gpu_parity (void)
{
  gpu_parity (0);
  gpu_parity (20);
}

/* Another node's bodies on the bodies input are passed on after the own
 * ones, byte for byte as that node gives them; the own bodies move byte for
 * byte as they do alone (their hull's id names their node), and the
 * footprint is theirs alone. */
static void
test_chain (void)
{
  g_autofree char *box = g_strdup (
    "bodies=[{\"size\": [2, 1, 0.5], \"density\": 500, \"position\": [10, 16, 0.1]}]");
  g_autofree char *ball = g_strdup (
    "bodies=[{\"shape\": \"sphere\", \"size\": [1.5, 1.5, 1.5], \"density\": 300, "
    "\"position\": [22, 16, 0.3], \"yaw\": 40}]");
  g_autoptr (WgGraph) alone = wg_test_graph (128, 32, 30, 1);
  wg_test_add (alone, "floating-body", "float", "water_density=1000", box, NULL);
  g_autoptr (WgGraph) chain = wg_test_graph (128, 32, 30, 1);
  wg_test_add (chain, "floating-body", "ball", "water_density=1000", ball, NULL);
  wg_test_add (chain, "floating-body", "float", "water_density=1000", box, NULL);
  wg_test_link (chain, "ball:bodies", "float:bodies");
  g_autoptr (WgPlan) a = wg_test_plan (alone, 1), c = wg_test_plan (chain, 2);
  const WgBodySet *own = run_frames (a, 0, 30), *both = run_frames (c, 0, 30);
  g_autoptr (GError) error = NULL;
  const WgBodySet *passed =
    wg_buffer_read_bodies (wg_plan_get_node_output (c, "ball", "bodies"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (own->count, ==, 1);
  g_assert_cmpuint (both->count, ==, 2);
  g_assert_cmpuint (both->capacity, ==, 32);
  /* It heaved: the comparison is of a moving body. */
  g_assert_cmpfloat (fabs (own->bodies[0].position[2] - 0.1), >, 1e-3);
  /* Byte for byte but the hull's id, which names the node (graph index 0
   * alone, 1 in the chain). */
  WgBody mine = both->bodies[0];
  g_assert_cmpuint (mine.mesh, !=, own->bodies[0].mesh);
  g_assert_nonnull (wg_plan_get_hull_mesh (c, mine.mesh));
  mine.mesh = own->bodies[0].mesh;
  g_assert_cmpint (memcmp (&mine, &own->bodies[0], sizeof (WgBody)), ==, 0);
  g_assert_cmpint (memcmp (&both->bodies[1], &passed->bodies[0], sizeof (WgBody)), ==, 0);
  g_assert_cmpfloat (fabs (both->bodies[1].position[0] - 22), <, 0.01);
  gboolean warning = TRUE;
  g_assert_cmpstr (wg_plan_get_node_note (c, "float", &warning), ==, "1 body");
  const float *f = wg_test_eval (c, 31, "float:footprint");
  g_assert_cmpfloat (f[64 * 128 + 40], ==, 1); /* the box's centre (10, 16) */
  g_assert_cmpfloat (f[64 * 128 + 88], ==, 0); /* the ball's (22, 16) */
}

/* `wavegraph validate` on a graph with one bad body: exit 2, and stderr
 * names the JSON path (and the mesh file). */
static void
check_refused (const char *dir, const char *bodies, const char *extra, const char *expect)
{
  g_autofree char *json = g_strdup_printf (
    "{\"format\": \"wavegraph\", \"version\": 1, \"settings\": {\"grid\": [32, 32], "
    "\"extent\": [32, 32], \"fps\": 10, \"frames\": [0, 1]}, \"nodes\": [{\"id\": \"float\", "
    "\"type\": \"floating-body\", \"params\": {\"bodies\": %s%s}}]}", bodies, extra);
  g_autofree char *path = g_build_filename (dir, "bad.json", NULL);
  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  const char *argv[] = { "wavegraph", "validate", "bad.json", NULL };
  WgTestRun r = wg_test_run (dir, argv);
  g_test_message ("%s", r.err);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, expect));
  wg_test_run_clear (&r);
}

/* check_refused() of a mesh body whose file @name in @dir holds @text. */
static void
refuse_mesh (const char *dir, const char *name, const char *text, const char *expect)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_autofree char *extra = g_strdup_printf (", \"mesh\": \"%s\"", name);
  check_refused (dir, "[{\"shape\": \"mesh\", \"size\": [1, 1, 1], \"position\": [1, 1, 0]}]",
                 extra, expect);
}

static void
test_refused (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const char *box = "[{\"size\": [1, 1, 1], \"position\": [1, 1, 0]}]";
  check_refused (dir, box, ", \"capacity\": 0", "nodes[0] (\"float\").params.capacity");
  check_refused (dir, "[{\"size\": [1, 1, 1], \"position\": [1, 1, 0]}, "
                      "{\"size\": [1, 1, 1], \"position\": [5, 1, 0]}]", ", \"capacity\": 1",
                 "nodes[0] (\"float\").params.capacity: 1 slots for 2 bodies");
  check_refused (dir, "[{\"size\": [1, -1, 1], \"position\": [1, 1, 0]}]", "",
                 "nodes[0] (\"float\").params.bodies[0].size[1]");
  check_refused (dir, "[{\"size\": [1, 1, 1], \"density\": 0, \"position\": [1, 1, 0]}]", "",
                 "nodes[0] (\"float\").params.bodies[0].density: 0 kg/m³; give a density in [1, "
                 "100000] or a mass (kg, > 0)");
  const char *mesh = "[{\"shape\": \"mesh\", \"size\": [1, 1, 1], \"position\": [1, 1, 0]}]";
  check_refused (dir, mesh, ", \"mesh\": \"missing.obj\"", "nodes[0] (\"float\").params.mesh");
  check_refused (dir, mesh, ", \"mesh\": \"missing.obj\"", "missing.obj");
  /* An open surface: one face of a tetrahedron is missing. */
  refuse_mesh (dir, "open.obj",
               "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 1 1 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 5\n",
               "open.obj: not a closed surface");
  refuse_mesh (dir, "junk.obj", "this is no mesh\n\x01\x02\n", "nodes[0] (\"float\").params.mesh: ");
  check_refused (dir, mesh, ", \"mesh\": \"junk.obj\"", "junk.obj");
  check_refused (dir, mesh, "",
                 "nodes[0] (\"float\").params.bodies[0].shape: \"mesh\" needs the node's "
                 "mesh file (params.mesh)");
  /* The closed tetrahedron of open.obj (and its missing face), each face
   * wound inward. */
  refuse_mesh (dir, "inward.obj",
               "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 4 2\nf 1 3 4\nf 2 4 3\n",
               "inward.obj: encloses no volume (its triangles face inward?)");
  refuse_mesh (dir, "one.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
               "one.obj: 1 triangle, not a closed surface");
  /* A square, both sides: closed, but flat. */
  refuse_mesh (dir, "flat.obj",
               "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\nf 1 3 2\nf 1 4 3\n",
               "flat.obj: the mesh is flat or not finite along z");
}

/* A unit cube's 8 corners and its 6 faces wound outward (0-based corners). */
static const float cube_corners[8][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 },
                                          { 0, 0, 1 }, { 1, 0, 1 }, { 1, 1, 1 }, { 0, 1, 1 } };
static const guint16 cube_faces[6][4] = { { 0, 3, 2, 1 }, { 4, 5, 6, 7 }, { 0, 1, 5, 4 },
                                          { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 } };

/* The cube as OBJ text. */
static char *
cube_obj (void)
{
  GString *s = g_string_new (NULL);
  for (int v = 0; v < 8; v++)
    g_string_append_printf (s, "v %g %g %g\n", cube_corners[v][0], cube_corners[v][1],
                            cube_corners[v][2]);
  for (int f = 0; f < 6; f++)
    g_string_append_printf (s, "f %d %d %d %d\n", cube_faces[f][0] + 1, cube_faces[f][1] + 1,
                            cube_faces[f][2] + 1, cube_faces[f][3] + 1);
  return g_string_free (s, FALSE);
}

/* The cube as glTF 2.0 with its buffer embedded (a data: URI). */
static char *
cube_gltf (void)
{
  guint8 bytes[96 + 72];
  guint16 index[36];
  for (int f = 0; f < 6; f++)
    {
      const guint16 *q = cube_faces[f];
      const guint16 tri[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
      memcpy (index + 6 * f, tri, sizeof tri);
    }
  memcpy (bytes, cube_corners, 96);
  memcpy (bytes + 96, index, 72);
  g_autofree char *b64 = g_base64_encode (bytes, sizeof bytes);
  return g_strdup_printf (
    "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], "
    "\"nodes\": [{\"mesh\": 0}], \"meshes\": [{\"primitives\": [{\"attributes\": "
    "{\"POSITION\": 0}, \"indices\": 1}]}], \"buffers\": [{\"byteLength\": 168, \"uri\": "
    "\"data:application/octet-stream;base64,%s\"}], \"bufferViews\": [{\"buffer\": 0, "
    "\"byteOffset\": 0, \"byteLength\": 96}, {\"buffer\": 0, \"byteOffset\": 96, "
    "\"byteLength\": 72}], \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, "
    "\"count\": 8, \"type\": \"VEC3\", \"min\": [0, 0, 0], \"max\": [1, 1, 1]}, "
    "{\"bufferView\": 1, \"componentType\": 5123, \"count\": 36, \"type\": \"SCALAR\"}]}",
    b64);
}

/* A closed mesh (the unit cube as OBJ and as glTF) scaled to 2 × 1 × 0.5 m
 * has the box's volume, mass and inertia m (b² + c²) / 12, and floating flat
 * at half its height feels no net force or torque; in a plan the OBJ hull
 * stays at that equilibrium. */
static void
test_mesh (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *obj = g_build_filename (dir, "cube.obj", NULL);
  g_autofree char *gltf = g_build_filename (dir, "cube.gltf", NULL);
  g_autofree char *obj_text = cube_obj (), *gltf_text = cube_gltf ();
  g_assert_true (g_file_set_contents (obj, obj_text, -1, NULL));
  g_assert_true (g_file_set_contents (gltf, gltf_text, -1, NULL));
  const char *files[] = { obj, gltf };
  for (int f = 0; f < 2; f++)
    {
      WgHull hull = { 0 };
      const double size[3] = { 2, 1, 0.5 };
      g_autoptr (GError) error = NULL;
      g_assert_true (wg_hull_load_mesh (&hull, files[f], size, &error));
      g_assert_no_error (error);
      g_assert_true (wg_hull_finish (&hull, 500, 0));
      g_assert_cmpfloat (fabs (hull.volume - 1.0), <, 1e-12);
      g_assert_cmpfloat (fabs (hull.mass - 500), <, 1e-9);
      g_assert_cmpfloat (fabs (hull.inertia[0] - 500 * (1 + 0.25) / 12), <, 1e-9);
      WgBodyState s = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
      const WgFluid fluid = { 1000, 9.81, 1, 0.2 };
      g_autofree double *scratch = g_new (double, wg_hull_scratch_size (&hull));
      double force[3], torque[3], volume;
      wg_body_forces (&hull, &s, NULL, &fluid, force, torque, &volume, NULL, scratch);
      g_assert_cmpfloat (fabs (volume - 0.5), <, 1e-12);
      for (int k = 0; k < 3; k++)
        {
          g_assert_cmpfloat (fabs (force[k]), <, 1e-9);
          g_assert_cmpfloat (fabs (torque[k]), <, 1e-9);
        }
      wg_hull_clear (&hull);
    }
  g_autofree char *mesh = g_strdup_printf ("mesh=%s", obj);
  g_autoptr (WgGraph) g = calm_graph (
    30, "[{\"shape\": \"mesh\", \"size\": [2, 1, 0.5], \"density\": 500, "
        "\"position\": [32, 32, 0]}]", mesh, NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBody *b = &run_frames (plan, 0, 60)->bodies[0];
  g_assert_cmpfloat (fabs (b->position[2]), <, 1e-6);
  g_assert_cmpfloat (fabs (b->submerged_volume - 0.5), <, 1e-6);
  gboolean warning = TRUE;
  g_assert_cmpstr (wg_plan_get_node_note (plan, "float", &warning), ==, "1 body");
  g_assert_false (warning);

  /* A mesh file given while every body is a box: said, not passed over. */
  g_autoptr (WgGraph) boxes = calm_graph (
    30, "[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 500, "
        "\"position\": [32, 32, 0]}]", mesh, NULL);
  g_autoptr (WgPlan) box_plan = wg_test_plan (boxes, 1);
  run_frames (box_plan, 0, 1);
  g_autofree char *expect =
    g_strdup_printf ("1 body; the mesh %s is not used: no body's shape is \"mesh\"", obj);
  g_assert_cmpstr (wg_plan_get_node_note (box_plan, "float", &warning), ==, expect);
  g_assert_true (warning);
}

/* Mesh files a graph must not be trusted with, each refused with its
 * path: an empty one, a FIFO (a read would wait for ever), a vertex that
 * is not a number, and a glTF whose buffer is another file — here beside
 * it, refused all the same: the loader reads the mesh file alone. */
static void
test_mesh_files (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  refuse_mesh (dir, "empty.obj", "", "empty.obj: empty, not a mesh");
  refuse_mesh (dir, "nan.obj",
               "v nan nan nan\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
               "nan.obj: vertex 0 of mesh 0 is not a finite number");
  g_autofree char *fifo = g_build_filename (dir, "fifo.obj", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  check_refused (dir, "[{\"shape\": \"mesh\", \"size\": [1, 1, 1], \"position\": [1, 1, 0]}]",
                 ", \"mesh\": \"fifo.obj\"",
                 "nodes[0] (\"float\").params.mesh: \"fifo.obj\" is not a regular file");
  /* cube_gltf() with its buffer moved out to cube.bin. */
  g_autofree char *text = cube_gltf ();
  char *uri = strstr (text, "data:"), *end = strchr (uri, '"');
  const char *b64 = strstr (uri, "base64,") + strlen ("base64,");
  g_autofree char *encoded = g_strndup (b64, end - b64);
  gsize n;
  g_autofree guchar *bin = g_base64_decode (encoded, &n);
  g_autofree char *bin_path = g_build_filename (dir, "cube.bin", NULL);
  g_assert_true (g_file_set_contents (bin_path, (const char *) bin, (gssize) n, NULL));
  *uri = '\0';
  g_autofree char *external = g_strdup_printf ("%scube.bin%s", text, end);
  refuse_mesh (dir, "external.gltf", external,
               "external.gltf: refers to another file (\"cube.bin\"), which is not read");
}

/* `wavegraph run` with a body-track-out writes one CSV and one JSON file a
 * frame whose poses read back as the plan's floats, bit for bit (the
 * hulls, which the two would both write, from the CSV's alone). */
static void
test_track (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  static const char json[] =
    "{\"format\": \"wavegraph\", \"version\": 1, \"settings\": {\"grid\": [32, 32], "
    "\"extent\": [32, 32], \"fps\": 10, \"frames\": [0, 2]}, \"nodes\": [{\"id\": \"float\", "
    "\"type\": \"floating-body\", \"params\": {\"bodies\": [{\"size\": [2, 1, 0.5], "
    "\"position\": [10, 11, 0.2], \"roll\": 20}, {\"shape\": \"sphere\", \"size\": [1, 1, 1], "
    "\"position\": [20, 20, -0.3]}]}}, {\"id\": \"csv\", \"type\": \"body-track-out\", "
    "\"params\": {\"path\": \"t/track.%03d.csv\"}}, {\"id\": \"json\", \"type\": "
    "\"body-track-out\", \"params\": {\"path\": \"t/track.%03d.json\", \"hulls\": false}}], "
    "\"links\": ["
    "{\"from\": \"float:bodies\", \"to\": \"csv:bodies\"}, {\"from\": \"float:bodies\", "
    "\"to\": \"json:bodies\"}]}";
  g_autofree char *path = g_build_filename (dir, "track.json", NULL);
  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  const char *argv[] = { "wavegraph", "run", "track.json", "--out", "out", NULL };
  WgTestRun r = wg_test_run (dir, argv);
  g_assert_cmpint (r.status, ==, 0);
  wg_test_run_clear (&r);

  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = run_frames (plan, 0, 2);
  g_autofree char *csv_path = g_build_filename (dir, "out", "t", "track.002.csv", NULL);
  g_autofree char *csv = NULL;
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "frame,time,body,x,y,z,qx,qy,qz,qw");
  g_assert_cmpuint (g_strv_length (lines), ==, 4); /* header, 2 bodies, "" after the last \n */
  for (guint i = 0; i < 2; i++)
    {
      g_auto (GStrv) v = g_strsplit (lines[1 + i], ",", -1);
      g_assert_cmpuint (g_strv_length (v), ==, 10);
      g_assert_cmpstr (v[0], ==, "2");
      g_assert_cmpfloat (g_ascii_strtod (v[1], NULL), ==, 0.2);
      g_assert_cmpint (atoi (v[2]), ==, i);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat ((float) g_ascii_strtod (v[3 + k], NULL), ==, set->bodies[i].position[k]);
      for (int k = 0; k < 4; k++)
        g_assert_cmpfloat ((float) g_ascii_strtod (v[6 + k], NULL), ==,
                           set->bodies[i].orientation[k]);
    }
  /* The JSON file parses and holds the same poses. */
  g_autofree char *json_path = g_build_filename (dir, "out", "t", "track.002.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (parser, json_path, &error));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "frame"), ==, 2);
  JsonArray *bodies = json_object_get_array_member (root, "bodies");
  g_assert_cmpuint (json_array_get_length (bodies), ==, 2);
  JsonArray *pos = json_object_get_array_member (json_array_get_object_element (bodies, 1),
                                                 "position");
  g_assert_cmpfloat ((float) json_array_get_double_element (pos, 2), ==,
                     set->bodies[1].position[2]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/floating-body/box-settles", test_box_settles);
  wg_test_add_both ("floating-body", "light", test_light);
  g_test_add_func ("/floating-body/rest", test_rest);
  g_test_add_func ("/floating-body/heave", test_heave);
  g_test_add_func ("/floating-body/sphere", test_sphere);
  g_test_add_func ("/floating-body/motor", test_motor);
  g_test_add_func ("/floating-body/contour", test_contour);
  g_test_add_func ("/floating-body/swept-section", test_swept_section);
  g_test_add_func ("/floating-body/mesh", test_mesh);
  g_test_add_func ("/floating-body/mesh-files", test_mesh_files);
  g_test_add_func ("/floating-body/footprint", test_footprint);
  g_test_add_func ("/floating-body/chain", test_chain);
  g_test_add_func ("/floating-body/resume", test_resume);
  g_test_add_func ("/floating-body/gpu-parity", test_gpu_parity);
  g_test_add_func ("/floating-body/refused", test_refused);
  g_test_add_func ("/floating-body/track", test_track);
  return g_test_run ();
}
