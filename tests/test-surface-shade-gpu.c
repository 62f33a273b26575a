/* test-surface-shade-gpu.c — surface-shade's GPU path (papers/003 §5.1's
 * LOD mesh, nodes/wg-surface-shade-gpu.c) against what it must show: water
 * at every pixel below the horizon and sky above it from many camera poses,
 * a mesh that moves only in whole coarse steps, and a flat mirror sea whose
 * pixels are exactly the sky map's reflection times the Fresnel reflectance
 * (the C port of the shading, runtime/wg-shading.c). Skipped without an
 * OpenGL context unless WAVEGRAPH_REQUIRE_GPU=1. */
#include "wg-test-util.h"
#include "wg-gpu.h"
#include "wg-image-io.h"
#include "wg-surface-shade.h"

#include <math.h>

#define W 320
#define H 180

/* A flat sea (a zero height field, 64 m tiled; with @bump, a 1.5 m bump at
 * (20, 30) m on it) into surface-shade at W × H, with @sky (an EXR path) as
 * its sky map when given: linear radiance, no haze, no sun glint. */
static WgGraph *
sea_graph (const char *sky, gboolean bump)
{
  WgGraph *g = wg_test_graph (64, 64, 24, 1);
  wg_test_add (g, "source", "flat", bump ? "amplitude=1.5" : "amplitude=0", "radius=9", "x=20",
               "y=30", NULL);
  wg_test_add (g, "surface-shade", "shade", "width=" G_STRINGIFY (W), "height=" G_STRINGIFY (H),
               "tone_mapping=none", "exposure=0", "haze_distance=0", "sun_intensity=0",
               "scattering=0", NULL);
  wg_test_link (g, "flat:source", "shade:displacement");
  if (sky)
    {
      g_autofree char *path = g_strconcat ("path=", sky, NULL);
      wg_test_add (g, "image-in", "sky", path, NULL);
      wg_test_link (g, "sky:image", "shade:sky");
    }
  return g;
}

static void
set (WgGraph *g, const char *param, double value)
{
  g_autoptr (GError) error = NULL;
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_dtostr (text, sizeof text, value);
  g_assert_true (wg_graph_set_param_from_text (g, "shade", param, text, &error));
  g_assert_no_error (error);
}

typedef struct {
  double z, pitch, yaw, fov;
} Pose;

/* Renders @pose (degrees) with @plan, made from @g, and resolves its view. */
static const float *
render (WgPlan *plan, WgGraph *g, const Pose *pose, WgShadeView *view)
{
  set (g, "camera_x", 11.3);
  set (g, "camera_y", -7.6);
  set (g, "camera_z", pose->z);
  set (g, "pitch", pose->pitch);
  set (g, "yaw", pose->yaw);
  set (g, "fov", pose->fov);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_no_error (error);
  WgSurfaceShadeParams p = {
    .camera_x = 11.3, .camera_y = -7.6, .camera_z = pose->z, .aim = WG_SHADE_AIM_YAW_PITCH,
    .yaw = pose->yaw * G_PI / 180, .pitch = pose->pitch * G_PI / 180,
    .fov = pose->fov * G_PI / 180, .width = W, .height = H, .ior = 1.333,
    .tone_mapping = WG_TONE_NONE, .crest_height = 1, .repeat = TRUE, .fade_start = 400,
    .detail_distance = 1500,
  };
  g_assert_true (wg_surface_shade_view (NULL, &p, view, NULL));
  return wg_test_eval (plan, 0, "shade:image");
}

/* (a) From 20 poses (2–200 m up, pitch −80° … +5°, fov 30°–90°) every pixel
 * whose ray points below the horizon shows water, every one above it sky,
 * and the horizon crosses the middle column where the pitch puts it. Water
 * is red here (deep-water colour (10, 0, 0), reflectance ≤ 0.9 before the
 * horizon), the analytic sky never redder than 0.52 with the sun below. */
static void
test_covers_below_horizon (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = sea_graph (NULL, FALSE);
  wg_graph_set_param_from_text (g, "shade", "water_r", "10", NULL);
  wg_graph_set_param_from_text (g, "shade", "water_g", "0", NULL);
  wg_graph_set_param_from_text (g, "shade", "water_b", "0", NULL);
  wg_graph_set_param_from_text (g, "shade", "sun_elevation", "-90", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan_on (g, WG_BACKEND_GPU);
  g_autoptr (GRand) rng = g_rand_new_with_seed (20);
  guint water_total = 0;
  for (int k = 0; k < 20; k++)
    {
      Pose pose = { 2 * pow (100, k / 19.0), -80 + 85 * (k % 7) / 6.0,
                    g_rand_double_range (rng, -180, 180), 30 + 60 * ((k * 3) % 10) / 9.0 };
      WgShadeView view;
      const float *image = render (plan, g, &pose, &view);
      guint water = 0;
      for (guint j = 0; j < H; j++)
        for (guint i = 0; i < W; i++)
          {
            float dir[3], red = image[4 * (j * W + i)];
            wg_shade_view_ray (&view, i, j, dir);
            if (dir[2] < -1e-3f && !(red > 0.8f))
              g_error ("pose %d (%g m, pitch %g°, yaw %g°, fov %g°): pixel (%u, %u) looks "
                       "down (dir.z %g) but shows no water (red %g)",
                       k, pose.z, pose.pitch, pose.yaw, pose.fov, i, j, dir[2], red);
            if (dir[2] > 1e-3f && !(red < 0.6f))
              g_error ("pose %d: pixel (%u, %u) looks up (dir.z %g) but is not sky (red %g)", k,
                       i, j, dir[2], red);
            water += dir[2] < -1e-3f;
          }
      water_total += water;
      /* The middle column's horizon: ray height y = −tan(pitch) there. */
      double tan_y = tan (0.5 * pose.fov * G_PI / 180);
      double row = 0.5 * H * (1 + tan (pose.pitch * G_PI / 180) / tan_y);
      if (row > 1 && row < H - 1)
        {
          guint first = H;
          for (guint j = 0; j < H && first == H; j++)
            if (image[4 * (j * W + W / 2) + 4 * 0] > 0.8f)
              first = j;
          g_assert_cmpfloat (fabs (first - row), <=, 1.0);
        }
    }
  g_assert_cmpuint (water_total, >, 20 * W * H / 4);
}

/* (b) The mesh moves in whole coarse steps: moves of the eye within one
 * quantum keep its centre, crossing one moves it by exactly one; the centre
 * is a multiple of the quantum, so every level's vertices (the centre plus
 * whole steps of that level) stay on that level's lattice; and the mesh
 * reaches beyond the detail distance from the eye. */
static void
test_lod_quantised (void)
{
  WgShadeView view = { .eye = { 100.3f, -20.7f, 12 }, .fade_start = 400,
                       .detail_distance = 1500 };
  const double extent[2] = { 256, 256 };
  const guint cells[2] = { 512, 512 };
  WgShadeLod lod;
  wg_shade_lod (&view, extent, cells, &lod);
  g_assert_cmpfloat (lod.step0, ==, 0.5);
  g_assert_cmpfloat (lod.quantum, ==, lod.step0 * (1u << (lod.levels - 1)));
  g_assert_cmpfloat (fmod (lod.centre[0], lod.quantum), ==, 0);
  g_assert_cmpfloat (fmod (lod.centre[1], lod.quantum), ==, 0);
  g_assert_cmpfloat (lod.half_size - 0.5 * lod.quantum, >=, view.detail_distance);
  /* The quanta are binary fractions: exact in double. */
  double c0 = lod.centre[0], c1 = lod.centre[1], q = lod.quantum;
  for (int k = 0; k < 50; k++)
    {
      WgShadeView moved = view;
      double dx = (k / 49.0 - 0.5) * 0.98 * q, dy = (k % 7 / 6.0 - 0.5) * 0.98 * q;
      moved.eye[0] = (float) (c0 + dx);
      moved.eye[1] = (float) (c1 + dy);
      WgShadeLod m;
      wg_shade_lod (&moved, extent, cells, &m);
      g_assert_cmpfloat (m.centre[0], ==, c0);
      g_assert_cmpfloat (m.centre[1], ==, c1);
      g_assert_cmpuint (m.levels, ==, lod.levels);
    }
  view.eye[0] = (float) (c0 + 0.51 * q);
  wg_shade_lod (&view, extent, cells, &lod);
  g_assert_cmpfloat (lod.centre[0], ==, c0 + q);

  /* A far detail distance grows the step rather than the levels past the cap. */
  view.detail_distance = 1e6f;
  wg_shade_lod (&view, extent, cells, &lod);
  g_assert_cmpuint (lod.levels, <=, WG_SHADE_MAX_LEVELS);
  g_assert_cmpfloat (lod.half_size - 0.5 * lod.quantum, >=, view.detail_distance);
}

/* (b) on the GPU: a bump tiled every 64 m seen from an eye and from the eye
 * moved by one period (a multiple of the 4 m quantum) is the same picture:
 * the mesh moved with the camera in whole steps and sampled the same points
 * of the surface. */
static void
test_period_move_same_picture (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = sea_graph (NULL, TRUE);
  wg_graph_set_param_from_text (g, "shade", "detail_distance", "300", NULL);
  wg_graph_set_param_from_text (g, "shade", "fade_start", "200", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan_on (g, WG_BACKEND_GPU);
  Pose pose = { 6, -20, 30, 60 };
  WgShadeView view;
  gsize n = (gsize) W * H * 4;
  g_autofree float *a = g_memdup2 (render (plan, g, &pose, &view), n * sizeof (float));
  set (g, "camera_x", 11.3 + 64);
  set (g, "camera_y", -7.6 - 128);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_update_params (plan, g, &error));
  const float *b = wg_test_eval (plan, 0, "shade:image");
  double worst = 0, sum = 0;
  for (gsize i = 0; i < n; i++)
    {
      worst = MAX (worst, fabs (a[i] - b[i]));
      sum += a[i];
    }
  g_test_message ("period move: worst difference %.2e (mean value %.3f)", worst, sum / n);
  g_assert_cmpfloat (worst, <, 2e-3);
}

/* Frames after the first create no GL object and look up no program (a
 * changed parameter prepares the node again, so the camera stays), and
 * the host's GL state (viewport, framebuffer, depth test) is as it
 * was: the editor shares the context. */
static void
test_steady_and_state (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = sea_graph (NULL, FALSE);
  g_autoptr (WgPlan) plan = wg_test_plan_on (g, WG_BACKEND_GPU);
  WgGpuContext *gpu = wg_plan_get_gpu_context (plan);
  Pose pose = { 20, -15, 10, 50 };
  WgShadeView view;
  render (plan, g, &pose, &view);
  guint64 objects0, lookups0, objects1, lookups1;
  wg_gpu_context_get_counts (gpu, &objects0, &lookups0);
  glViewport (1, 2, 3, 4);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LESS);
  guint runs0, runs1;
  double seconds;
  wg_plan_get_node_stats (plan, "shade", &runs0, &seconds);
  for (int k = 1; k <= 5; k++)
    wg_test_eval (plan, k, "shade:image");
  wg_plan_get_node_stats (plan, "shade", &runs1, &seconds);
  g_assert_cmpuint (runs1, ==, runs0 + 5);
  wg_gpu_context_get_counts (gpu, &objects1, &lookups1);
  g_assert_cmpuint (objects1, ==, objects0);
  g_assert_cmpuint (lookups1, ==, lookups0);
  GLint viewport[4], fb, func;
  glGetIntegerv (GL_VIEWPORT, viewport);
  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &fb);
  glGetIntegerv (GL_DEPTH_FUNC, &func);
  g_assert_cmpint (viewport[0], ==, 1);
  g_assert_cmpint (viewport[3], ==, 4);
  g_assert_cmpint (fb, ==, 0);
  g_assert_cmpint (func, ==, GL_LESS);
  g_assert_true (glIsEnabled (GL_DEPTH_TEST));
}

typedef struct {
  float *pixels;
  guint width, height;
} Sky;

static void
sky_clear (Sky *sky)
{
  g_clear_pointer (&sky->pixels, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Sky, sky_clear)

static WgVec3
sky_along (const Sky *sky, WgVec3 dir)
{
  float uv[2];
  double c[3];
  wg_shade_sky_map_uv (dir, uv);
  wg_test_sky_sample (sky->pixels, sky->width, sky->height, uv[0], uv[1], c);
  return (WgVec3){ (float) c[0], (float) c[1], (float) c[2] };
}

/* Checks @image of a flat mirror sea under @sky seen with @view: below the
 * horizon F · sky(r) hazed and finished as wg_shade_finish() does, above it
 * the sky along the ray, tone mapped; to 1e-3 relative. Returns the worst. */
static double
check_mirror (const float *image, const WgShadeView *view, const Sky *sky)
{
  double worst = 0;
  for (guint j = 0; j < H; j++)
    for (guint i = 0; i < W; i++)
      {
        float d[3];
        wg_shade_view_ray (view, i, j, d);
        if (fabsf (d[2]) < 1e-3f)
          continue;
        WgVec3 dir = { d[0], d[1], d[2] }, c;
        float fresnel = 1, dist = 0;
        if (d[2] < 0)
          {
            WgSurfacePoint p = wg_shade_surface_point ((WgVec3){ 0, 0, 1 },
                                                       (WgVec3){ -d[0], -d[1], -d[2] });
            fresnel = wg_shade_fresnel_exact (p.k, 1.333f);
            WgVec3 r = sky_along (sky, p.r);
            c = (WgVec3){ fresnel * r.x, fresnel * r.y, fresnel * r.z };
            dist = -view->eye[2] / d[2];
          }
        else
          c = sky_along (sky, dir);
        float l = hypotf (d[0], d[1]);
        float hl = sqrtf (l * l + 0.02f * 0.02f);
        WgVec3 haze = sky_along (sky, (WgVec3){ d[0] / hl, d[1] / hl, 0.02f / hl });
        WgVec3 want = wg_shade_finish (c, haze, dist, d[2] < 0 ? view->haze_distance : 0,
                                       view->exposure, view->tone_mapping);
        const float *got = image + 4 * (j * W + i);
        const float w3[3] = { want.x, want.y, want.z };
        for (int k = 0; k < 3; k++)
          {
            double rel = fabs (got[k] - w3[k]) / w3[k];
            worst = MAX (worst, rel);
            if (rel > 1e-3)
              g_error ("pixel (%u, %u) channel %d: %.6f, expected %.6f (F %.5f)", i, j, k,
                       got[k], w3[k], fresnel);
          }
        g_assert_cmpfloat (got[3], ==, 1);
      }
  return worst;
}

/* sea_graph (@bump) under a smooth 64 × 32 sky map (returned in @sky, its
 * pixels the caller's) with no light from below: a mirror. */
static WgGraph *
mirror_graph (gboolean bump, Sky *sky)
{
  const guint sw = 64, sh = 32;
  float *p = g_new (float, 4 * sw * sh);
  *sky = (Sky){ p, sw, sh };
  for (guint j = 0; j < sh; j++)
    for (guint i = 0; i < sw; i++, p += 4)
      {
        p[0] = 0.5f + 0.3f * cosf (2 * G_PI * (i + 0.5f) / sw);
        p[1] = 0.3f + 0.4f * (j + 0.5f) / sh;
        p[2] = 0.6f + 0.1f * sinf (2 * G_PI * (i + 0.5f) / sw);
        p[3] = 1;
      }
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "sky.exr", NULL);
  static const char *const names[] = { "R", "G", "B", "A" };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_exr_write (path, sw, sh, 4, sky->pixels, names, WG_EXR_FLOAT, WG_EXR_NONE, 0,
                               1, &error));
  WgGraph *g = sea_graph (path, bump);
  for (const char *const *c = (const char *const[]){ "water_r", "water_g", "water_b", NULL }; *c;
       c++)
    wg_graph_set_param_from_text (g, "shade", *c, "0", NULL);
  return g;
}

/* (c) A flat mirror sea (no light from below, no sun) under a sky map: each
 * pixel below the horizon is sky(r) · F with r the mirror direction and F
 * eq. 16 at the ray's incidence, each above it the sky along the ray, to
 * 1e-3 relative: first linear (no haze, tone none, 0 EV), then with haze
 * toward the horizon's sky, +1 EV and the ACES curve. */
static void
test_mirror_sea (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_auto (Sky) sky = { 0 };
  g_autoptr (WgGraph) g = mirror_graph (FALSE, &sky);
  g_autoptr (WgPlan) plan = wg_test_plan_on (g, WG_BACKEND_GPU);
  const Pose poses[] = { { 3, -12, 40, 50 }, { 60, -45, -120, 70 }, { 15, 2, 170, 40 } };
  for (guint k = 0; k < G_N_ELEMENTS (poses); k++)
    {
      WgShadeView view;
      const float *image = render (plan, g, &poses[k], &view);
      g_test_message ("pose %u: worst relative error %.2e", k, check_mirror (image, &view, &sky));
    }
  set (g, "haze_distance", 300);
  set (g, "exposure", 1);
  g_assert_true (wg_graph_set_param_from_text (g, "shade", "tone_mapping", "aces", NULL));
  WgShadeView view;
  const float *image = render (plan, g, &poses[0], &view);
  view.haze_distance = 300;
  view.exposure = 2;
  view.tone_mapping = WG_TONE_ACES;
  g_test_message ("haze, +1 EV, ACES: worst relative error %.2e",
                  check_mirror (image, &view, &sky));
}

/* Without repeat the field covers only its own extent: seen from outside,
 * looking away from it, the sea is the flat mirror; with repeat the bump's
 * copies stand there. */
static void
test_repeat_or_flat (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_auto (Sky) sky = { 0 };
  g_autoptr (WgGraph) g = mirror_graph (TRUE, &sky);
  wg_graph_set_param_from_text (g, "shade", "repeat", "false", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan_on (g, WG_BACKEND_GPU);
  /* At (11.3, −7.6) m, 4 m up, looking along −y: the field is behind. */
  Pose pose = { 4, -15, -90, 60 };
  WgShadeView view;
  gsize n = (gsize) W * H * 4;
  g_autofree float *alone = g_memdup2 (render (plan, g, &pose, &view), n * sizeof (float));
  g_test_message ("no repeat: worst relative error %.2e", check_mirror (alone, &view, &sky));
  wg_graph_set_param_from_text (g, "shade", "repeat", "true", NULL);
  const float *tiled = render (plan, g, &pose, &view);
  guint differ = 0;
  for (gsize i = 0; i < n; i++)
    differ += fabsf (tiled[i] - alone[i]) > 0.01f;
  g_assert_cmpuint (differ, >, n / 50);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/surface-shade-gpu/covers-below-horizon", test_covers_below_horizon);
  g_test_add_func ("/surface-shade-gpu/lod-quantised", test_lod_quantised);
  g_test_add_func ("/surface-shade-gpu/period-move-same-picture", test_period_move_same_picture);
  g_test_add_func ("/surface-shade-gpu/mirror-sea", test_mirror_sea);
  g_test_add_func ("/surface-shade-gpu/repeat-or-flat", test_repeat_or_flat);
  g_test_add_func ("/surface-shade-gpu/steady-and-state", test_steady_and_state);
  return g_test_run ();
}
