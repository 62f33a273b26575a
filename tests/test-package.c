/* test-package.c — wg_package_query(): a server querying an exported
 * package (no graph, no FFT) sees the live graph's surface, within what
 * half floats and linear interpolation in time cost — bounds derived from
 * the live graph's fields, not measured — and a damaged package is refused
 * with located errors. */
#include "wg-test-export.h"
#include "wg-image-io.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#define N_POINTS 2000
#define DT (1.0 / FPS)
/* Half floats round to nearest with an 11-bit significand: relative error
 * ≤ 2^-11; below 2^-14 (subnormals) the step is 2^-24, half of it 2^-25. */
#define HALF_REL 0x1p-11
#define HALF_ABS 0x1p-25
/* Both inversions stop within this residual (m). */
#define TOL 1e-6

/* Bounds of the live graph's displacement over the loop, per channel:
 * M = max |d|, A = max |∂²d/∂t²| (second differences at step DT/4), and
 * G = the largest gradient of the bilinear interpolant (its derivatives are
 * convex combinations of neighbouring cell differences, so the largest
 * difference / Δx bounds them exactly); Gxy the Frobenius norm of ∇D_xy's
 * bound. */
typedef struct {
  double M[3], A[3], G[3], Gxy;
} Bounds;

static void
live_bounds (WgPlan *plan, Bounds *b)
{
  g_autoptr (GError) error = NULL;
  const double h = DT / 4, dx = 64.0 / GRID;
  const guint steps = (guint) lround (LOOP / h);
  const gsize cells = (gsize) GRID * GRID * 3;
  g_autofree float *prev = g_new (float, cells);
  g_autofree float *cur = g_new (float, cells);
  double gx[3][2] = { { 0 } };
  memset (b, 0, sizeof *b);
  WgBuffer *out = wg_plan_get_output (plan, "displacement");
  for (guint s = 0; s <= steps + 1; s++)
    {
      g_assert_true (wg_plan_evaluate_time (plan, s * h, &error));
      const float *next = wg_buffer_read (out, &error);
      g_assert_no_error (error);
      for (gsize i = 0; s >= 2 && i < cells; i++)
        b->A[i % 3] = MAX (b->A[i % 3], fabs (next[i] - 2.0 * cur[i] + prev[i]) / (h * h));
      for (guint y = 0; y < GRID; y++)
        for (guint x = 0; x < GRID; x++)
          for (guint c = 0; c < 3; c++)
            {
              double v = next[((gsize) y * GRID + x) * 3 + c];
              double r = next[((gsize) y * GRID + (x + 1) % GRID) * 3 + c];
              double d = next[((gsize) ((y + 1) % GRID) * GRID + x) * 3 + c];
              b->M[c] = MAX (b->M[c], fabs (v));
              gx[c][0] = MAX (gx[c][0], fabs (r - v) / dx);
              gx[c][1] = MAX (gx[c][1], fabs (d - v) / dx);
            }
      memcpy (prev, cur, cells * sizeof *cur);
      memcpy (cur, next, cells * sizeof *cur);
    }
  for (guint c = 0; c < 3; c++)
    b->G[c] = hypot (gx[c][0], gx[c][1]);
  b->Gxy = sqrt (gx[0][0] * gx[0][0] + gx[0][1] * gx[0][1] + gx[1][0] * gx[1][0] +
                 gx[1][1] * gx[1][1]);
  g_assert_cmpfloat (b->Gxy, <, 0.5);
}

typedef struct {
  double d[3], rest, vel;
} Errors;

/* Queries @pkg and the live @plan at @t (the live plan evaluated at
 * @t_live, the same surface) and checks every point against the bound:
 * the field differs by e_c ≤ HALF_REL·M_c + HALF_ABS (rounding) +
 * a(1−a)·DT²/2·A_c (linear interpolation, a the fraction between frames);
 * the inversion moves the rest point by ≤ K·(|e_xy| + 2·TOL), K = 1/(1 − Gxy)
 * bounding ‖J⁻¹‖; the value there by ≤ e_c + G_c·that. */
static void
compare_at (WgPackage *pkg, WgPlan *plan, const Bounds *b, double t, double t_live,
            const double *xy, Errors *worst)
{
  g_autoptr (GError) error = NULL;
  const WgQueryOptions o = { WG_QUERY_WRAP, TOL, 64, NULL, NULL, NULL, NULL };
  g_autofree WgQueryResult *got = g_new (WgQueryResult, N_POINTS);
  g_autofree WgQueryResult *want = g_new (WgQueryResult, N_POINTS);
  g_assert_true (wg_package_query (pkg, t, &o, xy, N_POINTS, got, &error));
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate_time (plan, t_live, &error));
  g_assert_true (wg_plan_query (plan, &o, xy, N_POINTS, want, &error));
  g_assert_no_error (error);

  double f = fmod (t_live, LOOP) * FPS, a = f - floor (f);
  a = a < 1e-6 || a > 1 - 1e-6 ? 0 : a;
  double e[3];
  for (guint c = 0; c < 3; c++)
    e[c] = HALF_REL * b->M[c] + HALF_ABS + a * (1 - a) * DT * DT / 2 * b->A[c];
  const double shift = (hypot (e[0], e[1]) + 2 * TOL) / (1 - b->Gxy);
  Errors m = { { 0 } };
  for (gsize i = 0; i < N_POINTS; i++)
    {
      g_assert_true (got[i].converged);
      g_assert_true (want[i].converged);
      g_assert_true (got[i].inside);
      for (guint c = 0; c < 3; c++)
        {
          double err = fabs (got[i].displacement[c] - want[i].displacement[c]);
          g_assert_cmpfloat (err, <=, e[c] + b->G[c] * shift);
          m.d[c] = MAX (m.d[c], err);
        }
      g_assert_cmpfloat (got[i].height, ==, got[i].displacement[2]);
      /* float rest positions up to 256 m: 2^-24 · 256 each. */
      double r = hypot (got[i].rest[0] - want[i].rest[0], got[i].rest[1] - want[i].rest[1]);
      g_assert_cmpfloat (r, <=, shift + 3e-5);
      m.rest = MAX (m.rest, r);
      double n = sqrt (got[i].normal[0] * got[i].normal[0] + got[i].normal[1] * got[i].normal[1] +
                       got[i].normal[2] * got[i].normal[2]);
      g_assert_cmpfloat (fabs (n - 1), <=, 1e-6);
      g_assert_cmpfloat (got[i].normal[2], >, 0.9);
    }
  g_test_message ("t = %g (a = %.2f): max error dx %.2e dy %.2e dz %.2e rest %.2e m; "
                  "bound dz %.2e rest %.2e", t, a, m.d[0], m.d[1], m.d[2], m.rest,
                  e[2] + b->G[2] * shift, shift + 3e-5);
  if (a == 0)
    {
      /* Velocity at a frame: (D_{k+1} − D_k)·fps at the rest point; the
       * live fields' difference there, read without inversion, within
       * twice the rounding, ×fps. */
      g_autofree double *rest = g_new (double, 2 * N_POINTS);
      for (gsize i = 0; i < N_POINTS; i++)
        rest[2 * i] = got[i].rest[0], rest[2 * i + 1] = got[i].rest[1];
      const WgQueryOptions raw = { WG_QUERY_WRAP | WG_QUERY_NO_INVERSION, 0, 0, NULL, NULL,
                                   NULL, NULL };
      g_autofree WgQueryResult *d0 = g_new (WgQueryResult, N_POINTS);
      g_autofree WgQueryResult *d1 = g_new (WgQueryResult, N_POINTS);
      g_assert_true (wg_plan_query (plan, &raw, rest, N_POINTS, d0, &error));
      g_assert_true (wg_plan_evaluate_time (plan, t_live + DT, &error));
      g_assert_true (wg_plan_query (plan, &raw, rest, N_POINTS, d1, &error));
      g_assert_no_error (error);
      for (gsize i = 0; i < N_POINTS; i++)
        for (guint c = 0; c < 3; c++)
          {
            double v = (d1[i].displacement[c] - d0[i].displacement[c]) * FPS;
            double err = fabs (got[i].velocity[c] - v);
            g_assert_cmpfloat (err, <=, 2 * (HALF_REL * b->M[c] + HALF_ABS) * FPS + 1e-5);
            m.vel = MAX (m.vel, err);
          }
    }
  for (guint c = 0; c < 3; c++)
    worst->d[c] = MAX (worst->d[c], m.d[c]);
  worst->rest = MAX (worst->rest, m.rest);
  worst->vel = MAX (worst->vel, m.vel);
}

static char *
export_package (const char *dir, char **graph_path)
{
  *graph_path = small_calm (dir, LOOP);
  char *out = g_build_filename (dir, "pkg", NULL);
  Run r = run_export ((const char *[]) { *graph_path, "--out", out, NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  return out;
}

static void
test_query_matches_live (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph_path = NULL;
  g_autofree char *out = export_package (dir, &graph_path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPackage) pkg = wg_package_open (out, &error);
  g_assert_no_error (error);
  double ext[2];
  wg_package_get_extent (pkg, ext);
  g_assert_cmpfloat (ext[0], ==, 64);
  g_assert_cmpfloat (ext[1], ==, 64);
  g_assert_cmpfloat (wg_package_get_loop_period (pkg), ==, LOOP);
  g_assert_cmpuint (wg_package_get_frame_count (pkg), ==, N_FRAMES);
  g_assert_cmpfloat (wg_package_get_frame_rate (pkg), ==, FPS);

  g_autoptr (WgGraph) graph = wg_graph_load_file (graph_path, &error);
  g_assert_no_error (error);
  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &po, &error);
  g_assert_no_error (error);
  Bounds b;
  live_bounds (plan, &b);
  g_test_message ("live: max |d| %.3f %.3f %.3f m, max |d''| %.3f %.3f %.3f m/s², "
                  "max |grad| %.3f %.3f %.3f", b.M[0], b.M[1], b.M[2], b.A[0], b.A[1], b.A[2],
                  b.G[0], b.G[1], b.G[2]);

  /* Points over several tiles, negative ones included. */
  g_autoptr (GRand) rand = g_rand_new_with_seed (21);
  g_autofree double *xy = g_new (double, 2 * N_POINTS);
  for (gsize i = 0; i < 2 * N_POINTS; i++)
    xy[i] = g_rand_double_range (rand, -100, 200);

  /* Frames, between frames (1.96: between the last frame and frame 0 of
   * the next loop), a loop later and before time 0. */
  static const double frames[] = { 0.0, 0.7, 1.9 }, between[] = { 0.73, 1.25, 1.96, 0.05 };
  Errors at_frames = { { 0 } }, at_between = { { 0 } };
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      compare_at (pkg, plan, &b, frames[i], frames[i], xy, &at_frames);
      compare_at (pkg, plan, &b, frames[i] + 3 * LOOP, frames[i] + 3 * LOOP, xy, &at_frames);
    }
  for (guint i = 0; i < G_N_ELEMENTS (between); i++)
    {
      compare_at (pkg, plan, &b, between[i], between[i], xy, &at_between);
      compare_at (pkg, plan, &b, between[i] + 3 * LOOP, between[i] + 3 * LOOP, xy, &at_between);
      compare_at (pkg, plan, &b, between[i] - LOOP, between[i], xy, &at_between);
    }
  g_test_message ("at frames: max error dx %.2e dy %.2e dz %.2e rest %.2e velocity %.2e",
                  at_frames.d[0], at_frames.d[1], at_frames.d[2], at_frames.rest, at_frames.vel);
  g_test_message ("between frames: max error dx %.2e dy %.2e dz %.2e rest %.2e",
                  at_between.d[0], at_between.d[1], at_between.d[2], at_between.rest);
  g_assert_cmpfloat (at_frames.rest, <=, 5e-3);

  /* Frames exactly on t are used as they are: a second query agrees to the bit. */
  const WgQueryOptions o = { 0, TOL, 64, NULL, NULL, NULL, NULL };
  WgQueryResult r1, r2;
  g_assert_true (wg_package_query (pkg, 0.7, &o, xy, 1, &r1, &error));
  g_assert_true (wg_package_query (pkg, 0.7 + LOOP, &o, xy, 1, &r2, &error));
  g_assert_cmpfloat (r1.height, ==, r2.height);
  g_assert_false (wg_package_query (pkg, NAN, &o, xy, 1, &r1, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
}

static void
assert_open_fails (const char *dir, GQuark domain, int code, const char *expected)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPackage) pkg = wg_package_open (dir, &error);
  g_assert_null (pkg);
  g_assert_error (error, domain, code);
  g_autofree char *manifest = g_build_filename (dir, "manifest.json", NULL);
  g_assert_true (g_str_has_prefix (error->message, manifest));
  g_assert_nonnull (strstr (error->message, expected));
}

/* @pkg's manifest with maps.displacement.@member set to @value, in @dir. */
static void
damage_manifest (const char *pkg, const char *dir, const char *member, JsonNode *value)
{
  g_autofree char *src = g_build_filename (pkg, "manifest.json", NULL);
  g_autofree char *dst = g_build_filename (dir, "manifest.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, src, &error));
  JsonObject *maps = json_object_get_object_member (
    json_node_get_object (json_parser_get_root (parser)), "maps");
  json_object_set_member (json_object_get_object_member (maps, "displacement"), member, value);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (gen, dst, &error));
}

static void
test_damaged (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph_path = NULL;
  g_autofree char *out = export_package (dir, &graph_path);

  /* A folder that is not a package. */
  assert_open_fails (dir, G_FILE_ERROR, G_FILE_ERROR_NOENT, "not an exported package");

  g_autofree char *bad = g_build_filename (dir, "bad", NULL);
  g_assert_cmpint (g_mkdir (bad, 0755), ==, 0);
  damage_manifest (out, bad, "frames", json_node_init_int (json_node_alloc (), 5));
  assert_open_fails (bad, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "manifest.json: maps.displacement.frames: not a string");
  damage_manifest (out, bad, "frames", json_node_init_string (json_node_alloc (), "d/%s%04d"));
  assert_open_fails (bad, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "maps.displacement.frames: not a relative path with one \"%04d\"");
  damage_manifest (out, bad, "width", json_node_init_int (json_node_alloc (), -3));
  assert_open_fails (bad, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "maps.displacement.width: -3, must be > 0");
  g_autofree char *manifest = g_build_filename (bad, "manifest.json", NULL);
  g_assert_true (g_file_set_contents (manifest, "{\"format\": \"wavegraph-export\", ", -1, NULL));
  assert_open_fails (bad, G_FILE_ERROR, G_FILE_ERROR_INVAL, "not JSON");

  /* A frame of another size: found when a query reads it. */
  g_autoptr (GError) error = NULL;
  g_autofree char *f5 = g_build_filename (out, "displacement", "displacement.0005.exr", NULL);
  float small[4 * 4 * 3] = { 0 };
  g_assert_true (wg_exr_write (f5, 4, 4, 3, small, (const char *[]) { "R", "G", "B" },
                               WG_EXR_HALF, WG_EXR_ZIP, -1, 1, &error));
  g_autoptr (WgPackage) pkg = wg_package_open (out, &error);
  g_assert_no_error (error);
  const double xy[2] = { 1, 2 };
  WgQueryResult r;
  g_assert_true (wg_package_query (pkg, 0.2, NULL, xy, 1, &r, &error));
  g_assert_false (wg_package_query (pkg, 0.45, NULL, xy, 1, &r, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_nonnull (strstr (error->message, "displacement.0005.exr: 4×4 pixels"));
  g_clear_error (&error);

  /* A missing frame: named when the package opens. */
  g_assert_cmpint (g_remove (f5), ==, 0);
  assert_open_fails (out, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                     "maps.displacement.frames: frame 5 of 20");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/package/query-matches-live", test_query_matches_live);
  g_test_add_func ("/package/damaged", test_damaged);
  return g_test_run ();
}
