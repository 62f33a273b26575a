/* test-beauty.c — every example graph's beauty pass (its surface-shade
 * node) at 640 × 360 on the CPU (a ray march) and the GPU (a LOD mesh, two
 * independent ways to find the surface) agrees to a PSNR of at least 35 dB
 * on the sRGB codes a PNG would hold. Both pictures and their difference
 * (×8) are kept under $WG_TEST_ARTIFACTS/beauty/ for a person to look at. */
#include "wg-test-util.h"
#include "wg-image-io.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#define W 640
#define H 360
/* Examples on grids finer than this run on it: the same looks, a CI's time. */
#define MAX_GRID 256
/* Stateful graphs run up to it frame by frame: ripples have spread by then. */
#define FRAME 12

static float *
beauty (const WgGraph *graph, WgBackend backend)
{
  g_autoptr (WgPlan) plan = wg_test_plan_on (graph, backend);
  for (gint64 f = 0; f < FRAME; f++)
    wg_test_eval (plan, f, "shade:image");
  gsize n;
  float *img = wg_test_eval_copy (plan, FRAME, "shade:image", &n);
  g_assert_cmpuint (n, ==, (gsize) W * H * 4);
  return img;
}

/* @img's RGB as 8-bit sRGB codes (unrounded) into @codes. */
static void
to_codes (const float *img, double *codes)
{
  for (gsize p = 0; p < (gsize) W * H; p++)
    for (int c = 0; c < 3; c++)
      codes[p * 3 + c] = 255.0 * wg_srgb_from_linear (CLAMP (img[p * 4 + c], 0.0f, 1.0f));
}

static void
save (const char *dir, const char *name, const double *codes, double scale)
{
  g_autofree guint16 *px = g_new (guint16, (gsize) W * H * 3);
  for (gsize i = 0; i < (gsize) W * H * 3; i++)
    px[i] = (guint16) CLAMP (lround (codes[i] * scale), 0, 255);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, path, W, H, 3, 8, px, TRUE, &error));
  g_assert_no_error (error);
}

static void
test_parity (gconstpointer data)
{
  const char *name = data;
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = wg_test_load_example (name, 0);
  WgSettings settings = *wg_graph_get_settings (g);
  g_autoptr (GError) error = NULL;
  settings.grid[0] = MIN (settings.grid[0], MAX_GRID);
  settings.grid[1] = MIN (settings.grid[1], MAX_GRID);
  g_assert_true (wg_graph_set_settings (g, &settings, &error));
  g_assert_true (wg_graph_set_param_int (g, "shade", "width", W, &error));
  g_assert_true (wg_graph_set_param_int (g, "shade", "height", H, &error));
  g_autofree float *cpu = beauty (g, WG_BACKEND_CPU);
  g_autofree float *gpu = beauty (g, WG_BACKEND_GPU);
  g_autofree double *a = g_new (double, (gsize) W * H * 3);
  g_autofree double *b = g_new (double, (gsize) W * H * 3);
  to_codes (cpu, a);
  to_codes (gpu, b);
  double se = 0;
  for (gsize i = 0; i < (gsize) W * H * 3; i++)
    {
      se += (a[i] - b[i]) * (a[i] - b[i]);
      b[i] = fabs (a[i] - b[i]);
    }
  double mse = se / ((double) W * H * 3);
  double psnr = mse > 0 ? 10 * log10 (255.0 * 255.0 / mse) : INFINITY;
  g_test_message ("%s: PSNR %.2f dB", name, psnr);
  const char *root = g_getenv ("WG_TEST_ARTIFACTS");
  if (root)
    {
      g_autofree char *stem = g_strndup (name, strlen (name) - 5);
      g_autofree char *dir = g_build_filename (root, "beauty", stem, NULL);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      save (dir, "cpu.png", a, 1);
      to_codes (gpu, a);
      save (dir, "gpu.png", a, 1);
      save (dir, "difference-x8.png", b, 8);
    }
  g_assert_cmpfloat (psnr, >=, 35.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GPtrArray) names = wg_test_example_graphs ();
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strconcat ("/beauty/parity/", (char *) names->pdata[i], NULL);
      g_test_add_data_func (path, names->pdata[i], test_parity);
    }
  return g_test_run ();
}
