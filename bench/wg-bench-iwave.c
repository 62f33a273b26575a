/* wg-bench-iwave — ms per step of the iwave node (papers/000) by grid,
 * kernel radius, convolution (direct symmetric sum vs FFT product) and
 * threads, the GPU backend, and what the "auto" cost model picks; then the
 * per-frame cost of graphs/harbor.json. Prints tables; asserts nothing.
 *
 * Each case is a reflecting pool with an oscillating poke and a round
 * obstacle, one step per frame; each frame is timed alone (GPU: up to a
 * glFinish, no read-back) and the table shows the median.
 *
 * Usage: wg-bench-iwave [--quick]
 */
#include "wg-bench-util.h"

#include <math.h>
#include <stdio.h>

static WgGraph *
pool (guint n, int radius, const char *method)
{
  WgGraph *g = wg_graph_new ();
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = s.grid[1] = n;
  s.extent[0] = s.extent[1] = n * 0.5;
  wg_graph_set_settings (g, &s, NULL);
  const double mid = n * 0.25;
  wg_graph_add_node (g, "source", "poke", NULL);
  wg_graph_set_param_string (g, "poke", "mode", "oscillator", NULL);
  wg_graph_set_param_double (g, "poke", "x", mid * 0.5, NULL);
  wg_graph_set_param_double (g, "poke", "y", mid, NULL);
  wg_graph_set_param_double (g, "poke", "duration", INFINITY, NULL);
  wg_graph_add_node (g, "obstacle-mask", "rock", NULL);
  wg_graph_set_param_double (g, "rock", "x", mid, NULL);
  wg_graph_set_param_double (g, "rock", "y", mid, NULL);
  wg_graph_add_node (g, "iwave", "water", NULL);
  wg_graph_set_param_int (g, "water", "kernel_radius", radius, NULL);
  wg_graph_set_param_string (g, "water", "method", method, NULL);
  wg_graph_link (g, "poke", "source", "water", "source", NULL);
  wg_graph_link (g, "rock", "mask", "water", "obstruction", NULL);
  wg_graph_set_output (g, "height", "water", "height", NULL);
  return g;
}

/* Open water (no obstacle, zero edges: where auto takes the exact
 * operator) with the vertical derivative @op and, for kernels, radius P. */
static WgGraph *
open_water (guint n, const char *op, int radius)
{
  WgGraph *g = pool (n, radius, "auto");
  wg_graph_remove_node (g, "rock", NULL);
  wg_graph_set_param_string (g, "water", "operator", op, NULL);
  wg_graph_set_param_string (g, "water", "boundary", "zero", NULL);
  return g;
}

/* Median ms/frame (wg_bench_median_frame_ms()), or < 0 when the plan cannot
 * be built (the reason printed to stderr). */
static double
measure (const WgGraph *g, WgBackend backend, int threads, int frames, char **runs_on)
{
  g_autofree char *why = NULL;
  double ms = wg_bench_median_frame_ms (g, backend, threads, frames, runs_on, &why);
  if (ms < 0)
    fprintf (stderr, "%s\n", why);
  return ms;
}

/* What "auto" picked: it runs the same code as one of the two methods, so
 * its time is the closer one's. */
static const char *
auto_choice (double t_auto, double t_direct, double t_fft)
{
  return fabs (t_auto - t_direct) <= fabs (t_auto - t_fft) ? "direct" : "fft";
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && g_str_equal (argv[1], "--quick");
  const guint sizes[] = { 256, 512, 1024, 2048 };
  const int radii[] = { 6, 12 };

  printf ("## iwave, CPU, ms per step (reflecting pool, poke + obstacle)\n\n");
  printf ("| grid | P | threads | direct | fft | auto | auto picks | best |\n");
  printf ("|---|---|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
      for (int threads = 1; threads <= 2; threads++)
        {
          if (quick && sizes[s] > 1024)
            continue;
          int frames = quick ? 3 : MAX (3, (int) (16 * 1024 / sizes[s]));
          g_autoptr (WgGraph) gd = pool (sizes[s], radii[r], "direct");
          g_autoptr (WgGraph) gf = pool (sizes[s], radii[r], "fft");
          g_autoptr (WgGraph) ga = pool (sizes[s], radii[r], "auto");
          double d = measure (gd, WG_BACKEND_CPU, threads, frames, NULL);
          double f = measure (gf, WG_BACKEND_CPU, threads, frames, NULL);
          double a = measure (ga, WG_BACKEND_CPU, threads, frames, NULL);
          printf ("| %u² | %d | %d | %.2f | %.2f | %.2f | %s | %s |\n", sizes[s], radii[r], threads,
                  d, f, a, auto_choice (a, d, f), d <= f ? "direct" : "fft");
          fflush (stdout);
        }

  printf ("\n## iwave operators on open water (zero edges), CPU 2 threads, ms per step\n\n");
  printf ("| grid | exact | fitted P=6 | fitted P=12 | paper P=6 |\n|---|---|---|---|---|\n");
  for (guint s = 1; s < G_N_ELEMENTS (sizes); s++)
    {
      if (quick && sizes[s] > 1024)
        continue;
      int frames = quick ? 3 : MAX (3, (int) (16 * 1024 / sizes[s]));
      g_autoptr (WgGraph) ge = open_water (sizes[s], "exact", 6);
      g_autoptr (WgGraph) gf6 = open_water (sizes[s], "fitted", 6);
      g_autoptr (WgGraph) gf12 = open_water (sizes[s], "fitted", 12);
      g_autoptr (WgGraph) gp = open_water (sizes[s], "paper", 6);
      printf ("| %u² | %.2f | %.2f | %.2f | %.2f |\n", sizes[s],
              measure (ge, WG_BACKEND_CPU, 2, frames, NULL),
              measure (gf6, WG_BACKEND_CPU, 2, frames, NULL),
              measure (gf12, WG_BACKEND_CPU, 2, frames, NULL),
              measure (gp, WG_BACKEND_CPU, 2, frames, NULL));
      fflush (stdout);
    }

  g_autofree char *gpu = NULL;
  printf ("\n## iwave, GPU backend, ms per step\n\n");
  printf ("| grid | P | direct | fft |\n|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes) - 1; s++)
    for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
      {
        int frames = quick ? 3 : 5;
        g_autoptr (WgGraph) gd = pool (sizes[s], radii[r], "direct");
        g_autoptr (WgGraph) gf = pool (sizes[s], radii[r], "fft");
        double d = measure (gd, WG_BACKEND_GPU, 0, frames, &gpu);
        if (d < 0)
          break;
        double f = measure (gf, WG_BACKEND_GPU, 0, frames, &gpu);
        printf ("| %u² | %d | %.2f | %.2f |\n", sizes[s], radii[r], d, f);
        fflush (stdout);
      }
  printf ("\nGPU: %s\n", gpu ? gpu : "none");

  g_autofree char *harbor = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) hg = wg_graph_load_file (harbor, &error);
  if (hg == NULL)
    g_error ("%s", error->message);
  printf ("\n## graphs/harbor.json (512², ocean ambient 256², boat wake), ms per frame, "
          "no files written\n\n| backend | threads | ms/frame |\n|---|---|---|\n");
  for (int threads = 1; threads <= 2; threads++)
    printf ("| cpu | %d | %.2f |\n", threads,
            measure (hg, WG_BACKEND_CPU, threads, quick ? 3 : 20, NULL));
  double ms = measure (hg, WG_BACKEND_GPU, 0, quick ? 2 : 5, NULL);
  if (ms >= 0)
    printf ("| gpu | — | %.2f |\n", ms);
  return 0;
}
