/* wg-bench-ocean — speed and memory of the CPU ocean chain. Prints tables;
 * asserts nothing (targets are stated next to the numbers).
 *
 *  1. ms/frame of the chain spectrum-evolve + fft (height, displacement,
 *     slopes) + choppy-displacement + normals + foam at 256², 512², 1024² on
 *     1 and 2 threads with the build's FFT library (meson -Dfft; named in
 *     the table), next to a bare-FFTW reference timed in the same run:
 *     fill five half spectra from h̃ and run five 2D c2r transforms with
 *     FFTW's own threaded plans. Target: chain ≤ 1.25 × reference. The
 *     chain also runs with row fusion off (fft, choppy, normals and foam one
 *     after another, every intermediate whole rather than in row windows)
 *     to show what fusing them gains. The three take turns
 *     in runs of frames, the steady state of a bake (see bench_chain); the
 *     ratio when they alternate every frame, caches cold, is shown too.
 *  2. ms/frame of a 1024² bake to the three half-float EXR maps Blender's
 *     ocean bake writes (displacement, normal, foam) with ZIP, RLE and no
 *     compression. Targets: ZIP ≤ 130 ms, none/RLE ≤ 45 ms.
 *     The bakes run as `wavegraph run` processes, as users run them; their
 *     peak RSS is reported too. Target ≤ 200 MB.
 *
 * Usage: WAVEGRAPH_BIN=build/runtime/wavegraph wg-bench-ocean [--quick] [chain] [bake]
 */
#include "wg-private.h"
#include "wg-fft-cpu.h"

#include <fftw3.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

/* The rest of the chain is compiled code: tables comparing builds name it. */
#ifdef __clang__
#define COMPILER "clang " __clang_version__
#else
#define COMPILER "gcc " __VERSION__
#endif

static double
now (void)
{
  return (double) g_get_monotonic_time () / 1e3;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static WgGraph *
ocean_graph (guint n, const char *compression, int zip_level, gboolean outputs)
{
  WgGraph *g = wg_graph_new ();
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = s.grid[1] = n;
  s.extent[0] = s.extent[1] = 512;
  s.fps = 24;
  wg_graph_set_settings (g, &s, NULL);
  struct { const char *type, *id; } nodes[] = {
    { "ocean-spectrum", "spectrum" }, { "spectrum-evolve", "evolve" }, { "fft", "fft" },
    { "choppy-displacement", "choppy" }, { "normals", "normals" }, { "foam", "foam" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    wg_graph_add_node (g, nodes[i].type, nodes[i].id, NULL);
  wg_graph_set_param_double (g, "spectrum", "wind_speed", 14, NULL);
  wg_graph_set_param_double (g, "evolve", "loop_period", 20, NULL);
  wg_graph_link (g, "spectrum", "spectrum", "evolve", "spectrum", NULL);
  wg_graph_link (g, "evolve", "spectrum", "fft", "spectrum", NULL);
  wg_graph_link (g, "fft", "height", "choppy", "height", NULL);
  wg_graph_link (g, "fft", "displacement", "choppy", "displacement", NULL);
  wg_graph_link (g, "choppy", "displacement", "normals", "displacement", NULL);
  wg_graph_link (g, "fft", "slope", "normals", "slope", NULL);
  wg_graph_link (g, "choppy", "displacement", "foam", "displacement", NULL);
  wg_graph_set_output (g, "height", "fft", "height", NULL);
  wg_graph_set_output (g, "normal", "normals", "normal", NULL);
  wg_graph_set_output (g, "foam", "foam", "foam", NULL);
  if (outputs)
    {
      const char *maps[][3] = { { "disp_out", "choppy", "ocean/disp_%04d.exr" },
                                { "normal_out", "normals", "ocean/normal_%04d.exr" },
                                { "foam_out", "foam", "ocean/foam_%04d.exr" } };
      const char *ports[] = { "displacement", "normal", "foam" };
      for (int i = 0; i < 3; i++)
        {
          wg_graph_add_node (g, "field-out", maps[i][0], NULL);
          wg_graph_set_param_string (g, maps[i][0], "path", maps[i][2], NULL);
          wg_graph_set_param_string (g, maps[i][0], "compression", compression, NULL);
          wg_graph_set_param_int (g, maps[i][0], "zip_level", zip_level, NULL);
          wg_graph_link (g, maps[i][1], ports[i], maps[i][0], "field", NULL);
        }
    }
  return g;
}

static const char *const chain_nodes[] = { "evolve", "fft", "choppy", "normals", "foam" };

static WgPlan *
chain_plan (guint n, int threads, gboolean fuse)
{
  g_autoptr (WgGraph) g = ocean_graph (n, "zip", 1, FALSE);
  WgPlanOptions o = { WG_BACKEND_CPU, threads, FALSE, NULL };
  g_autoptr (GError) error = NULL;
  WgPlan *plan = wg_plan_new (g, &o, &error);
  if (plan == NULL)
    g_error ("%s", error->message);
  wg_plan_set_row_fusion (plan, fuse);
  return plan;
}

/* One frame of the chain (h̃0 was computed at the first frame, as in a bake). */
static double
chain_step (WgPlan *plan, gint64 frame)
{
  g_autoptr (GError) error = NULL;
  double t0 = now ();
  if (!wg_plan_evaluate (plan, frame, &error))
    g_error ("%s", error->message);
  return now () - t0;
}

/* The reference a hand-written FFTW program would do per frame: fill five
 * half spectra (h̃, i kx h̃/k, i ky h̃/k, i kx h̃, i ky h̃) and run five 2D c2r
 * transforms with FFTW's threaded planner (its OpenMP build). */
typedef struct {
  guint n;
  fftwf_complex *h, *in[5];
  float *out[5];
  fftwf_plan plans[5];
} Reference;

static Reference *
reference_new (guint n, int threads)
{
  Reference *r = g_new0 (Reference, 1);
  const gsize nc = (gsize) n * (n / 2 + 1);
  r->n = n;
  fftwf_plan_with_nthreads (threads);
  /* Measured afresh, as a hand-written program would: the wisdom the chain's
   * plans loaded may hold reference plans of an earlier run, and a slow pick
   * kept there (on this busy 2-core machine, threaded ones at twice the
   * time) would flatter the ratio in every later run. */
  fftwf_forget_wisdom ();
  r->h = fftwf_alloc_complex (nc);
  for (int a = 0; a < 5; a++)
    {
      r->in[a] = fftwf_alloc_complex (nc);
      r->out[a] = fftwf_alloc_real ((gsize) n * n);
      r->plans[a] = fftwf_plan_dft_c2r_2d ((int) n, (int) n, r->in[a], r->out[a], FFTW_MEASURE);
    }
  for (gsize i = 0; i < nc; i++)
    {
      r->h[i][0] = (float) sin (0.001 * (double) i);
      r->h[i][1] = (float) cos (0.0013 * (double) i);
    }
  return r;
}

static double
reference_step (Reference *r)
{
  const guint n = r->n, hw = n / 2 + 1;
  fftwf_complex *h = r->h, **in = r->in;
  double t0 = now ();
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < n; j++)
    {
      float ky = (float) (j < n / 2 ? (int) j : (int) j - (int) n);
      for (guint i = 0; i < hw; i++)
        {
          gsize p = (gsize) j * hw + i;
          float kx = (float) i, re = h[p][0], im = h[p][1];
          float inv = (i == 0 && j == 0) ? 0.0f : 1.0f / sqrtf (kx * kx + ky * ky);
          in[0][p][0] = re;
          in[0][p][1] = im;
          in[1][p][0] = -kx * im * inv;
          in[1][p][1] = kx * re * inv;
          in[2][p][0] = -ky * im * inv;
          in[2][p][1] = ky * re * inv;
          in[3][p][0] = -kx * im;
          in[3][p][1] = kx * re;
          in[4][p][0] = -ky * im;
          in[4][p][1] = ky * re;
        }
    }
  for (int a = 0; a < 5; a++)
    fftwf_execute (r->plans[a]);
  return now () - t0;
}

static void
reference_free (Reference *r)
{
  for (int a = 0; a < 5; a++)
    {
      fftwf_destroy_plan (r->plans[a]);
      fftwf_free (r->in[a]);
      fftwf_free (r->out[a]);
    }
  fftwf_free (r->h);
  g_free (r);
}

typedef struct {
  double chain, unfused, reference; /* medians of the warm runs, ms/frame */
  double ratio;      /* median over rounds of (chain run / reference run), warm */
  double ratio_cold; /* median of per-frame ratios when the three alternate every frame */
} ChainResult;

enum { REFERENCE, FUSED, UNFUSED, N_VARIANTS };
#define RUN_FRAMES 6 /* timed frames per warm run, after one untimed frame */

typedef struct {
  Reference *ref;
  WgPlan *plan[N_VARIANTS]; /* FUSED, UNFUSED */
  gint64 frame[N_VARIANTS];
} ChainVariants;

static double
variant_step (ChainVariants *v, int k)
{
  return k == REFERENCE ? reference_step (v->ref) : chain_step (v->plan[k], v->frame[k]++);
}

/* The chain (fused and unfused) and the reference take turns in a rotating
 * order, so a slow spell of this shared machine hits all three alike.
 * Warm: each turn is a run of RUN_FRAMES frames after one untimed frame,
 * the steady state of a bake, and the ratio is the median over rounds of
 * the ratio of run medians. Cold: a turn is one frame, so every frame
 * starts with caches holding the other two variants' data; the chain's
 * working set is larger than the reference's, so this penalises it.
 * @per_node (optional) gets each node's mean ms/frame in the fused chain. */
static ChainResult
bench_chain (guint n, int threads, int rounds, double *per_node)
{
  omp_set_num_threads (threads);
  g_autoptr (WgPlan) fused = chain_plan (n, threads, TRUE);
  g_autoptr (WgPlan) unfused = chain_plan (n, threads, FALSE);
  ChainVariants v = { reference_new (n, threads), { NULL, fused, unfused }, { 0, 0, 0 } };
  for (int f = 0; f < 2; f++)
    for (int k = 0; k < N_VARIANTS; k++)
      variant_step (&v, k);

  double *run[N_VARIANTS], *ratio = g_new (double, rounds);
  double frame_ms[RUN_FRAMES];
  for (int k = 0; k < N_VARIANTS; k++)
    run[k] = g_new (double, rounds);
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < N_VARIANTS; i++)
      {
        int k = (r + i) % N_VARIANTS;
        variant_step (&v, k);
        for (int f = 0; f < RUN_FRAMES; f++)
          frame_ms[f] = variant_step (&v, k);
        run[k][r] = median (frame_ms, RUN_FRAMES);
      }
  for (int r = 0; r < rounds; r++)
    ratio[r] = run[FUSED][r] / run[REFERENCE][r];
  ChainResult res = { median (run[FUSED], rounds), median (run[UNFUSED], rounds),
                      median (run[REFERENCE], rounds), median (ratio, rounds), 0 };

  /* Cold: as many frames again, one at a time. */
  const int frames = rounds * RUN_FRAMES;
  double *cold = g_new (double, frames);
  for (int f = 0; f < frames; f++)
    {
      double t[N_VARIANTS];
      for (int i = 0; i < N_VARIANTS; i++)
        {
          int k = (f + i) % N_VARIANTS;
          t[k] = variant_step (&v, k);
        }
      cold[f] = t[FUSED] / t[REFERENCE];
    }
  res.ratio_cold = median (cold, frames);
  g_free (cold);
  g_free (ratio);
  for (int k = 0; k < N_VARIANTS; k++)
    g_free (run[k]);
  for (guint i = 0; per_node && i < G_N_ELEMENTS (chain_nodes); i++)
    {
      guint runs;
      double seconds;
      wg_plan_get_node_stats (fused, chain_nodes[i], &runs, &seconds);
      per_node[i] = 1e3 * seconds / runs;
    }
  reference_free (v.ref);
  return res;
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        remove_tree (p);
      else
        g_unlink (p);
    }
  g_rmdir (dir);
}

static gsize
tree_bytes (const char *dir)
{
  gsize total = 0;
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      GStatBuf st;
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        total += tree_bytes (p);
      else if (g_stat (p, &st) == 0)
        total += (gsize) st.st_size;
    }
  return total;
}

typedef struct {
  double ms, eval_ms, mb_per_frame, rss_mb;
} BakeResult;

/* Bakes @frames frames of the 1024² graph with `wavegraph run`, as users do,
 * and reads its summary line and peak RSS. Best of two runs: the machine may
 * be shared. */
static BakeResult
bench_bake (const char *cli, const char *compression, int zip_level, int frames)
{
  g_autoptr (WgGraph) g = ocean_graph (1024, compression, zip_level, TRUE);
  g_autofree char *dir = g_dir_make_tmp ("wg-bench-XXXXXX", NULL);
  g_autofree char *graph = g_build_filename (dir, "graph.json", NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *range = g_strdup_printf ("0-%d", frames - 1);
  g_autofree char *log = g_build_filename (dir, "log.txt", NULL);
  if (!wg_graph_save_file (g, graph, NULL))
    g_error ("cannot write %s", graph);
  BakeResult best = { G_MAXDOUBLE, 0, 0, 0 };
  for (int r = 0; r < 2; r++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        {
          if (freopen (log, "w", stderr) == NULL)
            _exit (126);
          execl (cli, cli, "run", graph, "--frames", range, "--out", out, "--no-contact-sheet",
                 (char *) NULL);
          _exit (127);
        }
      int status;
      struct rusage ru;
      if (wait4 (pid, &status, 0, &ru) < 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
        g_error ("%s run failed (see %s)", cli, log);
      g_autofree char *text = NULL;
      g_file_get_contents (log, &text, NULL, NULL);
      const char *p = text ? strstr (text, " s: ") : NULL;
      BakeResult res = { 0, 0, 0, (double) ru.ru_maxrss / 1024.0 };
      if (p == NULL || sscanf (p, " s: %lf ms/frame (%lf ms evaluating", &res.ms, &res.eval_ms) != 2)
        g_error ("unexpected summary from %s: %s", cli, text ? text : "");
      res.mb_per_frame = (double) tree_bytes (out) / (double) frames / 1e6;
      double rss = MAX (best.rss_mb, res.rss_mb);
      if (res.ms < best.ms)
        best = res;
      best.rss_mb = rss;
    }
  remove_tree (dir);
  return best;
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE, want[2] = { FALSE, FALSE }, any = FALSE;
  const char *sections[] = { "chain", "bake" };
  for (int a = 1; a < argc; a++)
    {
      if (g_str_equal (argv[a], "--quick"))
        quick = TRUE;
      for (int k = 0; k < 2; k++)
        if (g_str_equal (argv[a], sections[k]))
          want[k] = any = TRUE;
    }
  if (!any)
    want[0] = want[1] = TRUE;
  const char *cli = g_getenv ("WAVEGRAPH_BIN");
  fftwf_init_threads ();

  if (want[0])
    {
      printf ("## Ocean chain, CPU, FFT: %s, %s (%d cores available)\n\n", wg_fft_cpu_library (),
              COMPILER, omp_get_num_procs ());
      printf ("| grid | threads | chain ms/frame (%s) | unfused | FFTW reference ms/frame | "
              "ratio, warm runs (target ≤ 1.25) | ratio, alternate frames (caches cold) |\n",
              wg_fft_cpu_library ());
      printf ("|---|---|---|---|---|---|---|\n");
      const guint sizes[] = { 256, 512, 1024 };
      double per_node[2][G_N_ELEMENTS (chain_nodes)];
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        for (int threads = 1; threads <= 2; threads++)
          {
            guint n = sizes[s];
            int rounds = ((quick ? 8 : 100) * (int) (1024 / n) / 2 + 15) / RUN_FRAMES + 1;
            ChainResult r = bench_chain (n, threads, rounds,
                                         n == 1024 ? per_node[threads - 1] : NULL);
            printf ("| %u² | %d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", n, threads, r.chain,
                    r.unfused, r.reference, r.ratio, r.ratio_cold);
            fflush (stdout);
          }
      printf ("\n1024² per node, mean ms/frame (fused nodes: the first thread's time in each):"
              "\n\n| threads |");
      for (guint i = 0; i < G_N_ELEMENTS (chain_nodes); i++)
        printf (" %s |", chain_nodes[i]);
      printf ("\n|---|---|---|---|---|---|\n");
      for (int t = 0; t < 2; t++)
        {
          printf ("| %d |", t + 1);
          for (guint i = 0; i < G_N_ELEMENTS (chain_nodes); i++)
            printf (" %.2f |", per_node[t][i]);
          printf ("\n");
        }
    }

  if (want[1] && cli == NULL)
    printf ("\nBake: set WAVEGRAPH_BIN to the wavegraph binary to measure bakes\n");
  else if (want[1])
    {
      printf ("\n## 1024² bake with `wavegraph run` to half-float EXR: displacement (3 ch), "
              "normal (3 ch), foam (1 ch)\n\n");
      printf ("| compression | ms/frame (target) | of which evaluation | MB/frame written | "
              "peak RSS MB (target ≤ 200) |\n");
      printf ("|---|---|---|---|---|\n");
      const struct {
        const char *label, *compression;
        int zip_level;
        const char *target;
      } bakes[] = { { "zip, level 1 (default)", "zip", 1, "≤ 130" },
                    { "zip, level 4", "zip", 4, "≤ 130" },
                    { "rle", "rle", 1, "≤ 45" },
                    { "none", "none", 1, "≤ 45" } };
      for (guint c = 0; c < G_N_ELEMENTS (bakes); c++)
        {
          BakeResult r = bench_bake (cli, bakes[c].compression, bakes[c].zip_level,
                                     quick ? 8 : 36);
          printf ("| %s | %.1f (%s) | %.1f | %.2f | %.0f |\n", bakes[c].label, r.ms,
                  bakes[c].target, r.eval_ms, r.mb_per_frame, r.rss_mb);
          fflush (stdout);
        }
    }
  return 0;
}
