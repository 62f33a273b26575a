/* test-surface-shade.c — the surface-shade node against optics computed
 * here, independently of the node: a flat sea under a sky map reflects the
 * sky at the mirror direction times the Fresnel reflectance of the Fresnel
 * equations (Snell's law and the amplitude coefficients, in double), and
 * the horizon lies on the row the camera's pitch puts it; through shallow
 * water the bottom shows by Beer–Lambert along the refracted ray; errors
 * are located; threads do not change a picture. Each on both backends. */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

/* The picture's size: small enough for llvmpipe and one thread. */
#define W 160
#define H 96

/* Reflectance of unpolarised light from air onto water of index @n at
 * incidence cosine @k: the mean of |rs|², |rp|² from Snell's law. */
static double
fresnel (double k, double n)
{
  double sin_t = sqrt (1 - k * k) / n, cos_t = sqrt (1 - sin_t * sin_t);
  double rs = (k - n * cos_t) / (k + n * cos_t), rp = (cos_t - n * k) / (cos_t + n * k);
  return 0.5 * (rs * rs + rp * rp);
}

/* The camera's ray through pixel (i, j) of a level-roll pinhole camera at
 * @yaw, @pitch (rad) with vertical field of view @fov (rad), in double. */
static void
ray (double yaw, double pitch, double fov, double i, double j, double d[3])
{
  wg_test_camera_ray (yaw, pitch, fov, W, H, i, j, d);
}

/* The sky map @sky (w × h) along unit @d: its azimuth and angle from the
 * zenith, then the GPU's bilinear sampling (wg_test_sky_sample()). */
static void
sky_lookup (const float *sky, guint w, guint h, const double d[3], double out[3])
{
  double az = atan2 (d[1], d[0]) / (2 * G_PI);
  wg_test_sky_sample (sky, w, h, az - floor (az), acos (CLAMP (d[2], -1.0, 1.0)) / G_PI, out);
}

/* A flat sea (a ripple tank left alone) seen by surface-shade under
 * graphs/data/sky.exr, the water's own light and the sun's glint off, no
 * haze, linear output: what is left is the sky and its reflection. */
static WgGraph *
mirror_graph (double yaw_deg, double pitch_deg, double fov_deg)
{
  WgGraph *g = wg_test_graph (64, 64, 24, 1);
  g_autofree char *sky = wg_test_source_path ("graphs", "data", "sky.exr", NULL);
  g_autofree char *path = g_strconcat ("path=", sky, NULL);
  g_autofree char *yaw = g_strdup_printf ("yaw=%g", yaw_deg);
  g_autofree char *pitch = g_strdup_printf ("pitch=%g", pitch_deg);
  g_autofree char *fov = g_strdup_printf ("fov=%g", fov_deg);
  wg_test_add (g, "ripple", "sea", NULL);
  wg_test_add (g, "image-in", "sky", path, NULL);
  wg_test_add (g, "surface-shade", "shade", "camera_x=20", "camera_y=30", "camera_z=5", yaw,
               pitch, fov, "width=" G_STRINGIFY (W), "height=" G_STRINGIFY (H), "water_r=0",
               "water_g=0", "water_b=0", "scattering=0", "sun_intensity=0", "haze_distance=0",
               "tone_mapping=none", NULL);
  wg_test_link (g, "sea:height", "shade:displacement");
  wg_test_link (g, "sky:image", "shade:sky");
  return g;
}

/* The flat sea is a mirror: every pixel below the horizon is the sky along
 * the mirrored ray times the exact Fresnel reflectance at its incidence,
 * every pixel above it the sky itself; the boundary is where the pitch puts
 * the horizon, within a pixel. */
static void
test_mirror (void)
{
  static const double poses[][3] = { { 30, -10, 50 }, { 200, -3, 40 }, { -75, -25, 70 } };
  g_autoptr (WgGraph) skyg = wg_test_graph (16, 16, 24, 1);
  g_autofree char *sky_path = wg_test_source_path ("graphs", "data", "sky.exr", NULL);
  g_autofree char *set = g_strconcat ("path=", sky_path, NULL);
  wg_test_add (skyg, "image-in", "sky", set, NULL);
  g_autoptr (WgPlan) skyp = wg_test_plan (skyg, 1);
  gsize n_sky;
  g_autofree float *sky = wg_test_eval_copy (skyp, 0, "sky:image", &n_sky);
  const guint sw = 128, sh = 64;
  g_assert_cmpuint (n_sky, ==, sw * sh * 4);
  for (guint k = 0; k < G_N_ELEMENTS (poses); k++)
    {
      const double yaw = poses[k][0] * G_PI / 180, pitch = poses[k][1] * G_PI / 180;
      const double fov = poses[k][2] * G_PI / 180;
      g_autoptr (WgGraph) g = mirror_graph (poses[k][0], poses[k][1], poses[k][2]);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
      const float *img = wg_test_eval (plan, 0, "shade:image");
      double worst = 0;
      for (guint j = 0; j < H; j++)
        for (guint i = 0; i < W; i++)
          {
            double d[3], want[3];
            ray (yaw, pitch, fov, i, j, d);
            /* Within asin(0.02) = 1.15° of the horizon the shading tilts
             * the normal toward the eye (wg_surface_point()): no mirror. */
            if (d[2] < 0 && d[2] > -0.021)
              continue;
            if (d[2] < 0)
              {
                double m[3] = { d[0], d[1], -d[2] };
                sky_lookup (sky, sw, sh, m, want);
                double f = fresnel (-d[2], 1.333);
                for (int c = 0; c < 3; c++)
                  want[c] *= f;
              }
            else
              sky_lookup (sky, sw, sh, d, want);
            const float *got = img + ((gsize) j * W + i) * 4;
            for (int c = 0; c < 3; c++)
              worst = fmax (worst, fabs (got[c] - want[c]) / fmax (want[c], 1e-3));
            g_assert_cmpfloat (got[3], ==, 1.0f);
          }
      g_test_message ("pose %u: worst relative error %.2e", k, worst);
      g_assert_cmpfloat (worst, <, 2e-3);
      /* The horizon on the middle column: the camera's pitch puts the
       * horizontal direction at y = −tan(pitch)/tan(fov/2) in the picture. */
      double row = 0.5 * H * (1 + tan (pitch) / tan (fov / 2));
      guint first_water = H;
      for (guint j = 0; j < H && first_water == H; j++)
        {
          double d[3], s[3];
          ray (yaw, pitch, fov, W / 2, j, d);
          d[2] = fabs (d[2]);
          sky_lookup (sky, sw, sh, d, s);
          const float *px = img + ((gsize) j * W + W / 2) * 4;
          if (fabs (px[2] - s[2]) > 1e-4 * s[2])
            first_water = j;
        }
      g_assert_cmpfloat (fabs (first_water - row), <=, 1.0);
    }
}

/* Through a flat sea of depth D the bottom (albedo b) shows: the view ray
 * refracts by Snell's law and runs D/cos θt down, the sun's light D/sin(elevation):
 *   (1 − F) · (b (0.2 + I sin e · e^(−σ D / sin e)) e^(−σ D / cos θt))
 * plus F times the sky (here the analytic one, read off a mirror sea with
 * the bottom out of sight). */
static void
test_shallow_bottom (void)
{
  const double depth = 1.5, sigma[3] = { 0.4, 0.07, 0.05 }, albedo[3] = { 0.45, 0.40, 0.30 };
  const double sun_e = 50 * G_PI / 180, pitch = -30 * G_PI / 180, fov = 40 * G_PI / 180;
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 24, 1);
  g_autofree char *d = g_strdup_printf ("depth=%g", depth);
  wg_test_add (g, "ripple", "sea", NULL);
  wg_test_add (g, "bathymetry", "bottom", d, NULL);
  for (int with_bottom = 0; with_bottom < 2; with_bottom++)
    {
      g_autofree char *id = g_strdup_printf ("shade%d", with_bottom);
      wg_test_add (g, "surface-shade", id, "camera_x=32", "camera_y=32", "camera_z=3", "yaw=0",
                   "pitch=-30", "fov=40", "width=" G_STRINGIFY (W), "height=" G_STRINGIFY (H),
                   "sun_azimuth=180", "sun_elevation=50", "water_r=0", "water_g=0", "water_b=0",
                   "scattering=0", "haze_distance=0", "tone_mapping=none", NULL);
      g_autofree char *to = g_strconcat (id, ":displacement", NULL);
      wg_test_link (g, "sea:height", to);
      if (with_bottom)
        wg_test_link (g, "bottom:depth", "shade1:depth");
    }
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  gsize n;
  g_autofree float *open = wg_test_eval_copy (plan, 0, "shade0:image", &n);
  const float *shallow = wg_test_eval (plan, 0, "shade1:image");
  double worst = 0;
  for (guint j = H / 2; j < H; j += 7)
    for (guint i = 0; i < W; i += 9)
      {
        double r[3];
        ray (0, pitch, fov, i, j, r);
        double k = -r[2], f = fresnel (k, 1.333);
        double cos_t = sqrt (1 - (1 - k * k) / (1.333 * 1.333));
        gsize p = ((gsize) j * W + i) * 4;
        for (int c = 0; c < 3; c++)
          {
            double lit = albedo[c] * (0.2 + sin (sun_e) * exp (-sigma[c] * depth / sin (sun_e)));
            double want = open[p + c] + (1 - f) * lit * exp (-sigma[c] * depth / cos_t);
            worst = fmax (worst, fabs (shallow[p + c] - want) / want);
          }
      }
  g_test_message ("worst relative error %.2e", worst);
  g_assert_cmpfloat (worst, <, 1e-4);
}

/* graphs/ocean.json's beauty pass (a choppy ocean with foam) does not
 * depend on the thread count (CPU) and has every pixel finite and in 0 … 1
 * after tone mapping. */
static void
test_ocean_threads (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("ocean.json", 128);
  gsize n;
  g_autoptr (WgPlan) one = wg_test_plan (g, 1);
  g_autofree float *a = wg_test_eval_copy (one, 3, "shade:image", &n);
  g_autoptr (WgPlan) two = wg_test_plan (g, 2);
  const float *b = wg_test_eval (two, 3, "shade:image");
  g_assert_cmpuint (n, ==, (gsize) 160 * 90 * 4);
  if (wg_test_backend == WG_BACKEND_CPU)
    g_assert_cmpmem (a, n * sizeof (float), b, n * sizeof (float));
  double sea = 0;
  for (gsize p = 0; p < n; p++)
    {
      g_assert_true (isfinite (a[p]) && a[p] >= 0 && a[p] <= 1);
      sea += a[p];
    }
  /* Neither black nor white: a daylight sea. */
  sea /= n;
  g_assert_cmpfloat (sea, >, 0.2);
  g_assert_cmpfloat (sea, <, 0.9);
}

/* The camera keyframes like any float parameter: halfway between two keys
 * of the camera's height and yaw the picture is the one a camera fixed at
 * the interpolated values takes, and it differs from the keys' own. */
static void
test_keyframed_camera (void)
{
  g_autoptr (WgGraph) moving = mirror_graph (0, -10, 50);
  g_autoptr (WgGraph) fixed = mirror_graph (45, -10, 50);
  g_autoptr (GError) error = NULL;
  const double times[] = { 0, 1 }, yaws[] = { 0, 90 }, heights[] = { 3, 7 };
  g_assert_true (wg_graph_set_param_keyframes (moving, "shade", "yaw", times, yaws, 2, &error));
  g_assert_true (
    wg_graph_set_param_keyframes (moving, "shade", "camera_z", times, heights, 2, &error));
  g_assert_true (wg_graph_set_param_double (fixed, "shade", "camera_z", 5, &error));
  g_assert_no_error (error);
  g_autoptr (WgPlan) a = wg_test_plan (moving, 1);
  g_autoptr (WgPlan) b = wg_test_plan (fixed, 1);
  gsize n;
  /* 24 fps: frame 12 is t = 0.5 s, halfway. */
  g_autofree float *first = wg_test_eval_copy (a, 0, "shade:image", &n);
  g_autofree float *half = wg_test_eval_copy (a, 12, "shade:image", &n);
  const float *want = wg_test_eval (b, 12, "shade:image");
  double worst = 0, moved = 0;
  for (gsize p = 0; p < n; p++)
    {
      worst = fmax (worst, fabs (half[p] - want[p]));
      moved = fmax (moved, fabs (half[p] - first[p]));
    }
  g_test_message ("keyframed vs fixed camera: max difference %.2e (moved: %.2e)", worst, moved);
  g_assert_cmpfloat (worst, <=, 1e-6);
  g_assert_cmpfloat (moved, >, 0.05);
}

/* Bad parameters and links are refused where they are. */
static void
test_errors (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (32, 32, 24, 1);
  wg_test_add (g, "ripple", "sea", NULL);
  wg_test_add (g, "surface-shade", "shade", "aim=target", "camera_x=5", "camera_y=5",
               "camera_z=10", "target_x=5", "target_y=5", "target_z=-3", NULL);
  wg_test_link (g, "sea:height", "shade:displacement");
  g_autoptr (GError) error = NULL;
  WgPlanOptions o = { wg_test_backend, 1 };
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  g_assert_no_error (error);
  g_assert_false (wg_plan_evaluate (plan, 0, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "target_x"));
  g_assert_nonnull (strstr (error->message, "straight above or below"));
  g_clear_error (&error);
  /* Two channels are neither a displacement nor a height. */
  g_autoptr (WgGraph) g2 = wg_test_load_example ("ocean.json", 64);
  wg_test_add (g2, "surface-shade", "shade2", NULL);
  wg_test_link (g2, "fft:slope", "shade2:displacement");
  g_autoptr (WgPlan) p2 = wg_plan_new (g2, &o, &error);
  g_assert_null (p2);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "\"shade2\""));
  g_assert_nonnull (strstr (error->message, "2 channels"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("surface-shade", "mirror", test_mirror);
  wg_test_add_both ("surface-shade", "shallow-bottom", test_shallow_bottom);
  wg_test_add_both ("surface-shade", "ocean-threads", test_ocean_threads);
  wg_test_add_both ("surface-shade", "keyframed-camera", test_keyframed_camera);
  wg_test_add_both ("surface-shade", "errors", test_errors);
  return g_test_run ();
}
