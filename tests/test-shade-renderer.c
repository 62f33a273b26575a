/* test-shade-renderer.c — WgShadeRenderer, the surface-shade GPU path that
 * hosts (the editor's viewport, a game) draw with: given the node's camera
 * and, as textures, the fields the node shades (a displacement, a sky map,
 * a bathymetry), it draws the node's beauty pass, gamma-encoded for a
 * display; without the sky map or the depth it draws what the node draws
 * without them; given the node's bodies it draws their hulls as the node
 * does. Skipped without an OpenGL context unless
 * WAVEGRAPH_REQUIRE_GPU=1. */
#include "wg-test-util.h"
#include "wg-gpu.h"
#include "wg-image-io.h"
#include "wg-surface-shade.h"

#include <math.h>

#define W 256
#define H 144

/* A 1.5 m bump on a 64 m patch over 1.2 m of water, under a sky map that
 * varies with azimuth and elevation, seen from 6 m up, a box and a capsule
 * floating in view; @sky, @depth and @bodies: link the sky map, the
 * bathymetry and the bodies into the shade node. */
static WgGraph *
scene (const char *sky_path, gboolean sky, gboolean depth, gboolean bodies)
{
  WgGraph *g = wg_test_graph (64, 64, 24, 1);
  wg_test_add (g, "source", "bump", "amplitude=1.5", "radius=6", "x=30", "y=28", NULL);
  wg_test_add (g, "bathymetry", "bottom", "depth=1.2", NULL);
  g_autofree char *path = g_strconcat ("path=", sky_path, NULL);
  wg_test_add (g, "image-in", "sky", path, NULL);
  wg_test_add (g, "surface-shade", "shade", "width=" G_STRINGIFY (W), "height=" G_STRINGIFY (H),
               "camera_x=8", "camera_y=6", "camera_z=6", "yaw=40", "pitch=-28", "fov=60",
               "sun_azimuth=200", "sun_elevation=35", "haze_distance=0", NULL);
  wg_test_add (g, "floating-body", "boats",
               "bodies=[{\"size\": [3, 1.5, 1], \"position\": [15, 14, 0.2], \"yaw\": 30}, "
               "{\"shape\": \"capsule\", \"size\": [4, 1.2, 1.2], \"position\": [20, 9, 0], "
               "\"yaw\": -20, \"roll\": 10}]",
               NULL);
  wg_test_link (g, "bump:source", "shade:displacement");
  if (bodies)
    wg_test_link (g, "boats:bodies", "shade:bodies");
  if (sky)
    wg_test_link (g, "sky:image", "shade:sky");
  if (depth)
    wg_test_link (g, "bottom:depth", "shade:depth");
  return g;
}

static char *
write_sky (void)
{
  const guint sw = 64, sh = 32;
  g_autofree float *p = g_new (float, 4 * sw * sh);
  for (guint j = 0; j < sh; j++)
    for (guint i = 0; i < sw; i++)
      {
        float *t = p + 4 * ((gsize) j * sw + i);
        t[0] = 0.9f + 0.6f * cosf (2 * G_PI * (i + 0.5f) / sw);
        t[1] = 0.2f + 0.9f * (j + 0.5f) / sh;
        t[2] = 1.2f + 0.3f * sinf (4 * G_PI * (i + 0.5f) / sw);
        t[3] = 1;
      }
  g_autofree char *dir = wg_test_tmp_dir ();
  char *path = g_build_filename (dir, "sky.exr", NULL);
  static const char *const names[] = { "R", "G", "B", "A" };
  g_autoptr (GError) error = NULL;
  g_assert_true (
    wg_exr_write (path, sw, sh, 4, p, names, WG_EXR_FLOAT, WG_EXR_NONE, 0, 1, &error));
  return path;
}

static GLuint
texture_of (WgPlan *plan, const char *node, const char *port)
{
  g_autoptr (GError) error = NULL;
  GLuint tex = wg_buffer_get_gl_texture (wg_plan_get_node_output (plan, node, port), &error);
  g_assert_no_error (error);
  return tex;
}

/* The node's picture of @g (linear, row 0 at the top) and the renderer's
 * through the same camera with @sky and @depth textures (RGBA float, GL's
 * rows: row 0 at the bottom), both W × H × 4, in the current context. */
static void
draw_both (WgGraph *g, gboolean sky, gboolean depth, gboolean bodies, float **node_image,
           float **drawn)
{
  WgPlanOptions o = { WG_BACKEND_GPU, 1, FALSE, NULL, TRUE, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  g_assert_no_error (error);
  /* Requested before evaluating: computed whole and kept. */
  wg_plan_get_node_output (plan, "bump", "source");
  wg_plan_get_node_output (plan, "sky", "image");
  wg_plan_get_node_output (plan, "bottom", "depth");
  wg_plan_get_node_output (plan, "boats", "bodies");
  *node_image = wg_test_eval_copy (plan, 0, "shade:image", NULL);

  WgSurfaceShadeParams p;
  wg_surface_shade_params_fill (&p, g, "shade", 0);
  WgShadeView view;
  g_assert_true (wg_surface_shade_view (NULL, &p, &view, &error));
  WgShadeCamera camera = { .tan_x = view.tan_x, .tan_y = view.tan_y, .width = W, .height = H };
  for (int k = 0; k < 3; k++)
    {
      camera.eye[k] = view.eye[k];
      camera.forward[k] = view.forward[k];
      camera.right[k] = view.right[k];
      /* GL rows run bottom up: the node's pixel (i, j) is the host's (i, H − 1 − j). */
      camera.up[k] = view.up[k];
    }
  WgBuffer *d = wg_plan_get_node_output (plan, "bump", "source");
  WgShadeFields fields = {
    .surface = texture_of (plan, "bump", "source"),
    .width = wg_buffer_get_width (d),
    .height = wg_buffer_get_height (d),
    .channels = wg_buffer_get_channels (d),
    .repeat = TRUE,
    .sky = sky ? texture_of (plan, "sky", "image") : 0,
    .depth = depth ? texture_of (plan, "bottom", "depth") : 0,
    .bodies = bodies ? wg_buffer_read_bodies (wg_plan_get_node_output (plan, "boats", "bodies"),
                                              &error)
                     : NULL,
  };
  g_assert_no_error (error);
  wg_buffer_get_extent (d, fields.extent);

  GLuint colour, depth_rb, fbo;
  glGenTextures (1, &colour);
  glBindTexture (GL_TEXTURE_2D, colour);
  glTexStorage2D (GL_TEXTURE_2D, 1, GL_RGBA32F, W, H);
  glGenRenderbuffers (1, &depth_rb);
  glBindRenderbuffer (GL_RENDERBUFFER, depth_rb);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, W, H);
  glGenFramebuffers (1, &fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour, 0);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_rb);
  g_assert_cmpint (glCheckFramebufferStatus (GL_FRAMEBUFFER), ==, GL_FRAMEBUFFER_COMPLETE);

  WgShadeRenderer *r = wg_shade_renderer_new (&error);
  g_assert_no_error (error);
  wg_shade_renderer_set_look (r, g, "shade", 0);
  g_assert_true (wg_shade_renderer_draw (r, &camera, &fields, fbo, &error));
  g_assert_no_error (error);
  *drawn = g_new (float, (gsize) W * H * 4);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glReadPixels (0, 0, W, H, GL_RGBA, GL_FLOAT, *drawn);
  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  wg_shade_renderer_free (r);
  glDeleteFramebuffers (1, &fbo);
  glDeleteRenderbuffers (1, &depth_rb);
  glDeleteTextures (1, &colour);
}

/* Pixels of the renderer's picture further than @tol from the node's
 * gamma-encoded one (any channel), and the largest difference. */
static guint
differing (const float *node_image, const float *drawn, float tol, float *worst)
{
  guint n = 0;
  *worst = 0;
  for (guint j = 0; j < H; j++)
    for (guint i = 0; i < W; i++)
      {
        const float *a = node_image + 4 * ((gsize) j * W + i);
        const float *b = drawn + 4 * ((gsize) (H - 1 - j) * W + i);
        float e = 0;
        for (int c = 0; c < 3; c++)
          e = fmaxf (e, fabsf (powf (fmaxf (a[c], 0.0f), 1 / 2.2f) - b[c]));
        *worst = fmaxf (*worst, e);
        n += e > tol;
      }
  return n;
}

static void
test_draws_the_beauty_pass (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  WgGpuContext *ctx = wg_gpu_context_new_headless (&error);
  g_assert_no_error (error);
  g_assert_true (wg_gpu_context_make_current (ctx, &error));
  g_autofree char *sky_path = write_sky ();
  static const gboolean cases[][3] = { { TRUE, TRUE, FALSE },
                                        { FALSE, TRUE, FALSE },
                                        { TRUE, FALSE, FALSE },
                                        { TRUE, TRUE, TRUE } };
  g_autofree float *full_node = NULL, *full_drawn = NULL;
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr (WgGraph) g = scene (sky_path, cases[k][0], cases[k][1], cases[k][2]);
      g_autofree float *node_image = NULL, *drawn = NULL;
      draw_both (g, cases[k][0], cases[k][1], cases[k][2], &node_image, &drawn);
      /* The same mesh and shading in float: equal but for rasterisation at
       * a few crest and horizon edges. */
      float worst;
      guint n = differing (node_image, drawn, 2e-3f, &worst);
      g_test_message ("sky %d depth %d bodies %d: %u of %u pixels differ by more than 2e-3 "
                      "(worst %.2e)",
                      cases[k][0], cases[k][1], cases[k][2], n, W * H, worst);
      g_assert_cmpuint (n, <=, W * H / 1000);
      if (k == 0)
        {
          full_node = g_steal_pointer (&node_image);
          full_drawn = g_steal_pointer (&drawn);
          continue;
        }
      /* Leaving out the sky map (or the bottom) changes much of the picture,
       * the hulls a part of it: the renderer did use what it was given. */
      n = differing (full_node, drawn, 0.02f, &worst);
      g_test_message ("  against sky and depth alone: %u pixels differ by more than 0.02", n);
      g_assert_cmpuint (n, >, cases[k][2] ? W * H / 100 : W * H / 10);
    }
  wg_gpu_context_release_current (ctx);
  wg_gpu_context_free (ctx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shade-renderer/draws-the-beauty-pass", test_draws_the_beauty_pass);
  return g_test_run ();
}
