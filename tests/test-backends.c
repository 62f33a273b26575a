/* test-backends.c — the GPU backend computes what the CPU backend computes,
 * for every example graph, and says clearly when it cannot run. */
#include "wg-test-util.h"
#include "wg-gpu.h"

#include <math.h>
#include <string.h>

typedef struct {
  const char *output;
  gboolean unit;    /* normals: compare absolutely, not relative to Hs */
  gboolean coverage; /* foam: compare by the fraction of differing pixels */
  gboolean own_scale; /* velocities: relative to their own 4·RMS, not to Hs */
} Compared;

static const Compared compared[] = {
  { "height", FALSE, FALSE, FALSE },
  { "displacement", FALSE, FALSE, FALSE },
  { "normal", TRUE, FALSE, FALSE },
  { "foam", FALSE, TRUE, FALSE },
  { "velocity", FALSE, FALSE, TRUE },
};

/* 4·RMS of @n values: Hs's counterpart for a velocity (m/s). */
static double
four_rms (const float *x, gsize n)
{
  double s = 0;
  for (gsize i = 0; i < n; i++)
    s += (double) x[i] * x[i];
  return 4 * sqrt (s / (double) n);
}

/* max |gpu − cpu| ≤ 1e-4·Hs for heights and displacements, ≤ 1e-4 for unit
 * normals, ≤ 1e-4·(4 RMS) for velocities; foam may differ (by more than
 * 1e-3) on at most 0.1% of pixels — a Jacobian right at the threshold can
 * fall either way in float; image outputs are equal. */
static void
check_graph (gconstpointer data)
{
  const char *name = data;
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_test_load_example (name, 0);
  g_autoptr (WgPlan) cpu = wg_test_plan_on (graph, WG_BACKEND_CPU);
  g_autoptr (WgPlan) gpu = wg_test_plan_on (graph, WG_BACKEND_GPU);

  guint checked = 0;
  for (gint64 frame = 0; frame < 4; frame++)
    {
      g_assert_true (wg_plan_evaluate (cpu, frame, &error));
      g_assert_true (wg_plan_evaluate (gpu, frame, &error));
      g_assert_no_error (error);
      /* The height: output "height", or h of "displacement" (wave particles). */
      WgBuffer *hb = wg_plan_get_output (cpu, "height");
      if (hb == NULL)
        hb = wg_plan_get_output (cpu, "displacement");
      g_assert_nonnull (hb);
      const guint channels = wg_buffer_get_channels (hb);
      double mean, var;
      wg_test_moments (wg_buffer_read (hb, NULL),
                       (gsize) wg_buffer_get_width (hb) * wg_buffer_get_height (hb), channels,
                       channels - 1, &mean, &var);
      const double hs = 4.0 * sqrt (var);
      g_assert_cmpfloat (hs, >, 0);

      for (guint c = 0; c < G_N_ELEMENTS (compared); c++)
        {
          WgBuffer *a = wg_plan_get_output (cpu, compared[c].output);
          WgBuffer *b = wg_plan_get_output (gpu, compared[c].output);
          if (a == NULL)
            continue;
          const float *x = wg_buffer_read (a, &error), *y = wg_buffer_read (b, &error);
          g_assert_no_error (error);
          gsize n = (gsize) wg_buffer_get_width (a) * wg_buffer_get_height (a) *
                    wg_buffer_get_channels (a);
          double worst = 0;
          gsize differing = 0;
          for (gsize i = 0; i < n; i++)
            {
              double d = fabs ((double) x[i] - y[i]);
              worst = fmax (worst, d);
              differing += d > 1e-3;
            }
          const double scale = compared[c].unit ? 1 : compared[c].own_scale ? four_rms (x, n) : hs;
          if (frame == 3)
            g_test_message ("%s frame %" G_GINT64_FORMAT " %s: max |gpu − cpu| %.3g (scale %.3g), "
                            "%" G_GSIZE_FORMAT " values differ by > 1e-3",
                            name, frame, compared[c].output, worst, scale, differing);
          if (compared[c].coverage)
            g_assert_cmpfloat ((double) differing / (double) n, <=, 1e-3);
          else
            g_assert_cmpfloat (worst, <=, 1e-4 * scale);
          checked++;
        }
      /* Images read from files (sky maps) are copies: bit for bit. Rendered
       * ones (surface-shade's ray march and LOD mesh) are compared by their
       * PSNR in test-beauty.c. */
      const WgGraph *g = wg_plan_get_graph (cpu);
      for (guint o = 0; o < wg_graph_get_n_outputs (g); o++)
        {
          const char *output, *node;
          wg_graph_get_output (g, o, &output, &node, NULL);
          WgBuffer *a = wg_plan_get_output (cpu, output), *b = wg_plan_get_output (gpu, output);
          if (wg_buffer_get_kind (a) != WG_PORT_IMAGE ||
              g_strcmp0 (wg_graph_get_node_type (g, node)->name, "surface-shade") == 0)
            continue;
          gsize bytes = (gsize) wg_buffer_get_width (a) * wg_buffer_get_height (a) * 4 *
                        sizeof (float);
          const float *x = wg_buffer_read (a, &error), *y = wg_buffer_read (b, &error);
          g_assert_no_error (error);
          g_assert_cmpmem (x, bytes, y, bytes);
          checked++;
        }
    }
  g_assert_cmpuint (checked, >=, 4);
}

typedef struct {
  int status;
  char *err;
} Run;

/* The CLI with an environment variable added. */
static Run
run_cli_env (const char *const *args, const char *var, const char *value)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) g_getenv ("WAVEGRAPH_BIN"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), var, value, TRUE);
  Run r = { 0, NULL };
  int wait_status;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                               NULL, NULL, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  return r;
}

/* With no usable OpenGL (glvnd finds no EGL vendor), --backend gpu fails
 * with exit 1 saying what was tried, and --backend auto bakes on the CPU and
 * says so. */
static void
test_no_gpu (void)
{
  g_autofree char *graph = wg_test_source_path ("graphs", "ocean-calm.json", NULL);
  g_autofree char *dir = wg_test_tmp_dir ();
  const char *gpu_args[] = { "run", graph, "--backend", "gpu", "--frames", "0-0", "--out", dir,
                             "--no-contact-sheet", NULL };
  Run r = run_cli_env (gpu_args, "__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/vendor.json");
  g_test_message ("gpu without a context: exit %d: %s", r.status, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "the GPU backend needs an OpenGL 4.3 context: "));
  g_assert_nonnull (strstr (r.err, "EGL"));
  g_free (r.err);

  const char *auto_args[] = { "run", graph, "--backend", "auto", "--frames", "0-0", "--out", dir,
                              "--no-contact-sheet", NULL };
  r = run_cli_env (auto_args, "__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/vendor.json");
  g_test_message ("auto without a context: exit %d: %s", r.status, r.err);
  g_assert_cmpint (r.status, ==, 0);
  /* The description names the CPU FFT library, then the reason. */
  g_assert_nonnull (strstr (r.err, "backend cpu (" WG_FFT_LIBRARY_NAME " "));
  g_assert_nonnull (strstr (r.err, "; no usable GPU: "));
  g_free (r.err);

  /* With llvmpipe only, auto prefers the CPU too: software GL is slower. */
  if (wg_test_gpu_available ())
    {
      r = run_cli_env (auto_args, "WAVEGRAPH_TEST", "1");
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (strstr (r.err, "backend gpu (") != NULL ||
                     strstr (r.err, "is a software rasteriser") != NULL);
      g_free (r.err);
    }
  g_autofree char *frame = g_build_filename (dir, "calm", "height.0000.exr", NULL);
  g_assert_true (g_file_test (frame, G_FILE_TEST_EXISTS));
}

/* A plan asked to adopt the caller's context fails cleanly when there is none. */
static void
test_adopt_without_context (void)
{
  g_autoptr (WgGraph) graph = wg_test_graph (64, 64, 30, 1);
  wg_test_add (graph, "ocean-spectrum", "spec", NULL);
  WgPlanOptions o = { WG_BACKEND_GPU, 0, FALSE, NULL, TRUE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &o, &error);
  g_assert_null (plan);
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, "the GPU backend needs an OpenGL 4.3 context"));
}

/* A plan adopting the caller's current context (an editor's GtkGLArea, a
 * game's) computes the same as one with its own context, and leaves the
 * caller's context alive and current. */
static void
test_adopt_current_context (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuContext) host = wg_gpu_context_new_headless (&error);
  g_assert_no_error (error);
  g_assert_true (wg_gpu_context_make_current (host, &error));

  g_autofree char *path = wg_test_source_path ("graphs", "ocean-calm.json", NULL);
  g_autoptr (WgGraph) graph = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  WgPlanOptions adopt = { WG_BACKEND_GPU, 0, FALSE, NULL, TRUE };
  WgPlan *plan = wg_plan_new (graph, &adopt, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate (plan, 2, &error));
  const float *a = wg_buffer_read (wg_plan_get_output (plan, "height"), &error);
  g_assert_no_error (error);
  g_autofree float *adopted = g_memdup2 (a, 256 * 256 * sizeof (float));
  wg_plan_free (plan);

  g_autoptr (WgPlan) own = wg_test_plan_on (graph, WG_BACKEND_GPU);
  g_assert_true (wg_plan_evaluate (own, 2, &error));
  const float *b = wg_buffer_read (wg_plan_get_output (own, "height"), &error);
  g_assert_cmpmem (adopted, 256 * 256 * sizeof (float), b, 256 * 256 * sizeof (float));

  /* The host context still works after the adopting plan is gone. */
  g_assert_true (wg_gpu_context_make_current (host, &error));
  g_assert_nonnull (glGetString (GL_VERSION));
  g_assert_cmpint (glGetError (), ==, GL_NO_ERROR);
}

/* Nodes build their GPU programs and buffers in prepare: once a GPU plan
 * has run its first frames, a hundred more create no GL object (programs,
 * storage and uniform buffers, all counted by the context) and look no
 * program up by name (which built and hashed a string per kernel per
 * frame before). The heap is not checked: llvmpipe allocates on the calling
 * thread now and then by itself (6.5 KB in one run of a hundred frames of
 * pool.json, nothing in most), which would make such a check flaky. Every
 * example graph, on a 64² grid so that a hundred frames stay quick on
 * llvmpipe. */
static void
check_steady (gconstpointer data)
{
  const char *name = data;
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_test_load_example (name, 64);
  g_autoptr (WgPlan) plan = wg_test_plan_on (graph, WG_BACKEND_GPU);
  WgGpuContext *gpu = wg_plan_get_gpu_context (plan);
  g_assert_nonnull (gpu);

  gint64 frame = wg_graph_get_settings (graph)->frames[0];
  for (int k = 0; k < 3; k++, frame++)
    g_assert_true (wg_plan_evaluate (plan, frame, &error));
  g_assert_no_error (error);
  guint64 objects0, lookups0, objects1, lookups1;
  wg_gpu_context_get_counts (gpu, &objects0, &lookups0);
  for (int k = 0; k < 100; k++, frame++)
    g_assert_true (wg_plan_evaluate (plan, frame, &error));
  g_assert_no_error (error);
  wg_gpu_context_get_counts (gpu, &objects1, &lookups1);
  g_test_message ("%s: %" G_GUINT64_FORMAT " GL objects, %" G_GUINT64_FORMAT
                  " program lookups over 100 frames", name, objects1 - objects0,
                  lookups1 - lookups0);
  g_assert_cmpuint (objects1, ==, objects0);
  g_assert_cmpuint (lookups1, ==, lookups0);
}

/* Copy of node:port as the last evaluation of @plan left it. */
static float *
port_copy (WgPlan *plan, const char *node, const char *port)
{
  WgBuffer *b = wg_plan_get_node_output (plan, node, port);
  g_assert_nonnull (b);
  g_autoptr (GError) error = NULL;
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  return g_memdup2 (data, (gsize) wg_buffer_get_width (b) * wg_buffer_get_height (b) *
                            wg_buffer_get_channels (b) * sizeof (float));
}

/* Largest |h̃ − h̃_exact| / (|a| + |b|) over the half-spectrum cells of
 * @plan's spectrum-evolve output at time @t, h̃_exact = a e^{−iωt} +
 * conj(b) e^{iωt} in double from the plan's own h̃0 (a = h̃0(k), b =
 * h̃0(−k)), ω² = g k tanh(k d) (rounded to a multiple of 2π/T with a loop
 * period T, t taken mod T). It bounds the phase error δ (rad): a plain float
 * product ω·t, or one whose rounding error is lost (an fma that is not
 * fused), is off by about 1e-7·t rad — 1.2e-3 rad at 1e4 s. Each plan
 * against its own h̃0: a GPU's spectrum differs from the CPU's in the last
 * bits of small cells (its exp and pow), which is not a phase. */
static double
evolve_phase_error (WgPlan *plan, guint n, double extent, double depth, double loop, double t)
{
  g_autofree float *h0 = port_copy (plan, "spec", "spectrum");
  g_autofree float *h = port_copy (plan, "evolve", "spectrum");
  const double g = 9.81, dk = 2 * G_PI / extent;
  if (loop > 0)
    t = fmod (t, loop);
  double worst = 0, peak = 0;
  for (guint c = 0; c < n * n; c++)
    peak = fmax (peak, hypot (h0[2 * c], h0[2 * c + 1]));
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i <= n / 2; i++)
      {
        const float *pa = h0 + 2 * ((gsize) j * n + i);
        const float *pb = h0 + 2 * ((gsize) ((n - j) % n) * n + (n - i) % n);
        const double amp = hypot (pa[0], pa[1]) + hypot (pb[0], pb[1]);
        if (amp < 1e-3 * peak)
          continue;
        const int kx = i < n / 2 ? (int) i : (int) i - (int) n;
        const int ky = j < n / 2 ? (int) j : (int) j - (int) n;
        const double k = dk * hypot (kx, ky);
        double w = sqrt (g * k * tanh (k * depth));
        if (loop > 0)
          w = rint (w * loop / (2 * G_PI)) * 2 * G_PI / loop;
        const double co = cos (w * t), sn = sin (w * t);
        const double re = (pa[0] + pb[0]) * co + (pa[1] + pb[1]) * sn;
        const double im = (pa[1] - pb[1]) * co - (pa[0] - pb[0]) * sn;
        const gsize c = 2 * ((gsize) j * (n / 2 + 1) + i);
        worst = fmax (worst, hypot (h[c] - re, h[c + 1] - im) / amp);
      }
  return worst;
}

/* spectrum-evolve keeps its phase ωt on both backends at large t, with and
 * without a loop period (whose reduction of t is done in double). */
static void
test_evolve_phase (void)
{
  if (!wg_test_gpu_available ())
    return;
  const double times[] = { 12, 123, 1234, 12345 }, loops[] = { 0, 600 };
  const guint n = 64;
  const double extent = 100, depth = 30;
  for (guint l = 0; l < G_N_ELEMENTS (loops); l++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGraph) g = wg_test_graph (n, extent, 30, 3);
      wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=9", "depth=30", "gravity=9.81", NULL);
      wg_test_add (g, "spectrum-evolve", "evolve", NULL);
      wg_test_link (g, "spec:spectrum", "evolve:spectrum");
      g_assert_true (wg_graph_set_param_double (g, "evolve", "loop_period", loops[l], &error));
      g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
      g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
      /* Asked for before evaluating: kept, not reused for later nodes. */
      for (guint b = 0; b < 2; b++)
        {
          g_assert_nonnull (wg_plan_get_node_output (b ? gpu : cpu, "spec", "spectrum"));
          g_assert_nonnull (wg_plan_get_node_output (b ? gpu : cpu, "evolve", "spectrum"));
        }
      for (guint k = 0; k < G_N_ELEMENTS (times); k++)
        {
          g_assert_true (wg_plan_evaluate_time (cpu, times[k], &error));
          g_assert_true (wg_plan_evaluate_time (gpu, times[k], &error));
          g_assert_no_error (error);
          const double ec = evolve_phase_error (cpu, n, extent, depth, loops[l], times[k]);
          const double eg = evolve_phase_error (gpu, n, extent, depth, loops[l], times[k]);
          g_test_message ("loop %g s, t = %g s: phase within %.2g rad (CPU), %.2g rad (GPU) of "
                          "the closed form", loops[l], times[k], ec, eg);
          g_assert_cmpfloat (ec, <=, 2e-6);
          g_assert_cmpfloat (eg, <=, 2e-6);
        }
    }
}

/* GPtrArray compares pointers to its elements. */
int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GPtrArray) names = wg_test_example_graphs ();
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/backends/parity/%s",
                                               (char *) g_ptr_array_index (names, i));
      g_test_add_data_func (path, g_ptr_array_index (names, i), check_graph);
      g_autofree char *steady = g_strdup_printf ("/backends/gpu-steady/%s",
                                                 (char *) g_ptr_array_index (names, i));
      g_test_add_data_func (steady, g_ptr_array_index (names, i), check_steady);
    }
  g_test_add_func ("/backends/evolve-phase", test_evolve_phase);
  g_test_add_func ("/backends/no-gpu", test_no_gpu);
  g_test_add_func ("/backends/adopt-without-context", test_adopt_without_context);
  g_test_add_func ("/backends/adopt-current-context", test_adopt_current_context);
  return g_test_run ();
}
