/* wg-test-util.c — helpers shared by the test suites. */
#include "wg-test-util.h"
#include "wg-gpu.h"

#include <gio/gio.h>

#include <math.h>
#include <stdarg.h>
#include <string.h>

WgGraph *
wg_test_graph (guint n, double extent, double fps, guint64 seed)
{
  WgGraph *g = wg_graph_new ();
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = s.grid[1] = n;
  s.extent[0] = s.extent[1] = extent;
  s.fps = fps;
  s.seed = seed;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_settings (g, &s, &error));
  g_assert_no_error (error);
  return g;
}

void
wg_test_add (WgGraph *graph, const char *type, const char *id, ...)
{
  g_autoptr (GError) error = NULL;
  g_assert_nonnull (wg_graph_add_node (graph, type, id, &error));
  g_assert_no_error (error);
  va_list args;
  va_start (args, id);
  const char *pair;
  while ((pair = va_arg (args, const char *)))
    {
      g_auto (GStrv) kv = g_strsplit (pair, "=", 2);
      g_assert_nonnull (kv[1]);
      if (!wg_graph_set_param_from_text (graph, id, kv[0], kv[1], &error))
        g_error ("%s.%s: %s", id, kv[0], error->message);
    }
  va_end (args);
}

void
wg_test_link (WgGraph *graph, const char *from, const char *to)
{
  g_auto (GStrv) f = g_strsplit (from, ":", 2);
  g_auto (GStrv) t = g_strsplit (to, ":", 2);
  g_autoptr (GError) error = NULL;
  if (!wg_graph_link (graph, f[0], f[1], t[0], t[1], &error))
    g_error ("link %s -> %s: %s", from, to, error->message);
}

WgBackend wg_test_backend = WG_BACKEND_CPU;

gboolean
wg_test_gpu_available (void)
{
  static int available = -1;
  static char *reason;
  if (available < 0)
    {
      g_autoptr (GError) error = NULL;
      WgGpuContext *gpu = wg_gpu_context_new_headless (&error);
      available = gpu != NULL;
      if (gpu)
        wg_gpu_context_free (gpu);
      else
        reason = g_strdup (error->message);
    }
  if (available)
    return TRUE;
  if (g_strcmp0 (g_getenv ("WAVEGRAPH_REQUIRE_GPU"), "1") == 0)
    {
      g_test_message ("WAVEGRAPH_REQUIRE_GPU=1 but no OpenGL 4.3 context: %s", reason);
      g_test_fail ();
    }
  else
    g_test_skip_printf ("no OpenGL 4.3 context: %s", reason);
  return FALSE;
}

typedef struct {
  GTestFunc func;
  WgBackend backend;
} BothCase;

static void
run_both_case (gconstpointer data)
{
  const BothCase *c = data;
  if (c->backend == WG_BACKEND_GPU && !wg_test_gpu_available ())
    return;
  wg_test_backend = c->backend;
  c->func ();
  wg_test_backend = WG_BACKEND_CPU;
}

void
wg_test_add_both (const char *suite, const char *name, GTestFunc func)
{
  for (int b = 0; b < 2; b++)
    {
      BothCase *c = g_new (BothCase, 1);
      c->func = func;
      c->backend = b == 0 ? WG_BACKEND_CPU : WG_BACKEND_GPU;
      g_autofree char *path = g_strdup_printf ("/%s/%s/%s", suite, b == 0 ? "cpu" : "gpu", name);
      g_test_add_data_func_full (path, c, run_both_case, g_free);
    }
}

WgPlan *
wg_test_plan (const WgGraph *graph, int threads)
{
  WgPlanOptions o = { wg_test_backend, threads, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  WgPlan *plan = wg_plan_new (graph, &o, &error);
  g_assert_no_error (error);
  g_assert_nonnull (plan);
  return plan;
}

WgPlan *
wg_test_plan_on (const WgGraph *graph, WgBackend backend)
{
  WgPlanOptions o = { .backend = backend };
  g_autoptr (GError) error = NULL;
  WgPlan *plan = wg_plan_new (graph, &o, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wg_plan_get_backend (plan), ==, backend);
  return plan;
}

const float *
wg_test_eval (WgPlan *plan, gint64 frame, const char *node_port)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) np = g_strsplit (node_port, ":", 2);
  WgBuffer *b = wg_plan_get_node_output (plan, np[0], np[1]);
  g_assert_nonnull (b);
  g_assert_true (wg_plan_evaluate (plan, frame, &error));
  g_assert_no_error (error);
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  return data;
}

float *
wg_test_eval_copy (WgPlan *plan, gint64 frame, const char *node_port, gsize *n)
{
  const float *data = wg_test_eval (plan, frame, node_port);
  g_auto (GStrv) np = g_strsplit (node_port, ":", 2);
  WgBuffer *b = wg_plan_get_node_output (plan, np[0], np[1]);
  gsize count = (gsize) b->width * b->height * b->channels;
  if (n)
    *n = count;
  return g_memdup2 (data, count * sizeof (float));
}

void
wg_test_moments (const float *data, gsize n, guint channels, guint c, double *mean, double *var)
{
  double s = 0, s2 = 0;
  for (gsize i = 0; i < n; i++)
    s += data[i * channels + c];
  double m = s / (double) n;
  for (gsize i = 0; i < n; i++)
    {
      double d = data[i * channels + c] - m;
      s2 += d * d;
    }
  *mean = m;
  *var = s2 / (double) n;
}

double
wg_test_correlation (const float *a, const float *b, gsize n)
{
  double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
  for (gsize i = 0; i < n; i++)
    {
      ma += a[i];
      mb += b[i];
    }
  ma /= (double) n;
  mb /= (double) n;
  for (gsize i = 0; i < n; i++)
    {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) * (a[i] - ma);
      sbb += (b[i] - mb) * (b[i] - mb);
    }
  return sab / sqrt (saa * sbb);
}

char *
wg_test_source_path (const char *first, ...)
{
  va_list args;
  va_start (args, first);
  g_autoptr (GPtrArray) parts = g_ptr_array_new ();
  g_ptr_array_add (parts, (gpointer) WG_SOURCE_DIR);
  for (const char *p = first; p; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

GPtrArray *
wg_test_example_graphs (void)
{
  g_autofree char *dir = wg_test_source_path ("graphs", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

WgGraph *
wg_test_load_example (const char *name, guint grid)
{
  g_autofree char *path = wg_test_source_path ("graphs", name, NULL);
  g_autoptr (GError) error = NULL;
  WgGraph *graph = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  if (grid == 0)
    return graph;
  WgSettings settings = *wg_graph_get_settings (graph);
  settings.grid[0] = settings.grid[1] = grid;
  g_assert_true (wg_graph_set_settings (graph, &settings, &error));
  g_assert_no_error (error);
  /* Pictures shrink with the grid: 160 × 90 keeps a shaded frame's look. */
  for (guint k = 0; k < wg_graph_get_n_nodes (graph); k++)
    {
      const char *id = wg_graph_get_node_id (graph, k);
      if (g_strcmp0 (wg_graph_get_node_type (graph, id)->name, "surface-shade") != 0)
        continue;
      g_assert_true (wg_graph_set_param_int (graph, id, "width", 160, &error));
      g_assert_true (wg_graph_set_param_int (graph, id, "height", 90, &error));
    }
  return graph;
}

void
wg_test_sky_sample (const float *sky, guint w, guint h, double u, double v, double out[3])
{
  double x = u * w - 0.5, y = v * h - 0.5;
  double fx = x - floor (x), fy = y - floor (y);
  long i0 = (long) floor (x), j0 = (long) floor (y);
  for (int c = 0; c < 3; c++)
    {
      double sum = 0;
      for (int b = 0; b < 2; b++)
        for (int a = 0; a < 2; a++)
          {
            long i = ((i0 + a) % (long) w + (long) w) % (long) w;
            long j = CLAMP (j0 + b, 0, (long) h - 1);
            sum += (a ? fx : 1 - fx) * (b ? fy : 1 - fy) * sky[((gsize) j * w + (gsize) i) * 4 + c];
          }
      out[c] = sum;
    }
}

guint32
wg_test_crc32 (const guint8 *p, gsize n)
{
  guint32 c = 0xffffffffu;
  for (gsize i = 0; i < n; i++)
    {
      c ^= p[i];
      for (int k = 0; k < 8; k++)
        c = (c >> 1) ^ (0xedb88320u & -(c & 1u));
    }
  return c ^ 0xffffffffu;
}

WgTestRun
wg_test_run (const char *cwd, const char *const *argv)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  for (guint i = 0; argv[i]; i++)
    g_ptr_array_add (args, (gpointer) (i == 0 && strcmp (argv[0], "wavegraph") == 0
                                         ? g_getenv ("WAVEGRAPH_BIN") : argv[i]));
  g_ptr_array_add (args, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_cwd (launcher, cwd);
  g_autoptr (GSubprocess) proc =
    g_subprocess_launcher_spawnv (launcher, (const char *const *) args->pdata, &error);
  g_assert_no_error (error);
  g_autoptr (GBytes) out = NULL, err = NULL;
  g_assert_true (g_subprocess_communicate (proc, NULL, NULL, &out, &err, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  WgTestRun r = { g_subprocess_get_exit_status (proc) };
  /* GBytes from a pipe are not NUL-terminated: copies that are. */
  r.out_len = g_bytes_get_size (out);
  r.out = g_malloc (r.out_len + 1);
  memcpy (r.out, g_bytes_get_data (out, NULL), r.out_len);
  r.out[r.out_len] = '\0';
  gsize n = g_bytes_get_size (err);
  r.err = g_malloc (n + 1);
  memcpy (r.err, g_bytes_get_data (err, NULL), n);
  r.err[n] = '\0';
  return r;
}

void
wg_test_run_clear (WgTestRun *r)
{
  g_free (r->out);
  g_free (r->err);
}

const WgParticleSet *
wg_test_step_particles (WgPlan *plan, gint64 from, gint64 to, const char *node)
{
  g_autoptr (GError) error = NULL;
  for (gint64 f = from; f <= to; f++)
    g_assert_true (wg_plan_evaluate (plan, f, &error));
  g_assert_no_error (error);
  const WgParticleSet *set =
    wg_buffer_read_particles (wg_plan_get_node_output (plan, node, "particles"), &error);
  g_assert_no_error (error);
  return set;
}

/* Whether particle @a of one backend is @b of the other: a distance over
 * position (m), origin (m) and angle (rad, around the circle). */
static double
particle_distance (const WgParticle *a, const WgParticle *b)
{
  const double da = remainder ((double) a->angle - b->angle, 2 * G_PI);
  return hypot (a->x - b->x, a->y - b->y) + hypot (a->origin_x - b->origin_x,
                                                   a->origin_y - b->origin_y) + fabs (da);
}

double
wg_test_match_particles (const WgParticleSet *a, const WgParticleSet *b,
                         double dispersion_rel)
{
  g_autofree gboolean *used = g_new0 (gboolean, b->count);
  double worst = 0;
  for (guint i = 0; i < a->count; i++)
    {
      guint best = 0;
      double best_d = INFINITY;
      for (guint j = 0; j < b->count; j++)
        {
          const double d = particle_distance (&a->particles[i], &b->particles[j]);
          if (d < best_d)
            best_d = d, best = j;
        }
      g_assert_false (used[best]);
      used[best] = TRUE;
      const WgParticle *p = &a->particles[i], *q = &b->particles[best];
      worst = MAX (worst, hypot (p->x - q->x, p->y - q->y));
      g_assert_cmpfloat (fabs (p->amplitude - q->amplitude), <=, 1e-5 * fabs (p->amplitude));
      g_assert_cmpfloat (fabs (p->dispersion - q->dispersion), <=,
                         dispersion_rel * p->dispersion);
    }
  return worst;
}

void
wg_test_particles_resume (WgPlan *first, WgPlan *other, WgPlan *resumed, const char *node,
                          gint64 save, gint64 end)
{
  g_autoptr (GError) error = NULL;
  wg_test_step_particles (first, 0, save, node);
  g_autoptr (GBytes) state = wg_plan_save_state (first, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_restore_state (resumed, state, &error));
  g_assert_no_error (error);
  const WgParticleSet *sets[3];
  WgPlan *plans[3] = { first, other, resumed };
  for (int p = 0; p < 3; p++)
    {
      sets[p] = wg_test_step_particles (plans[p], p == 1 ? 0 : save + 1, end, node);
      g_assert_cmpuint (sets[p]->count, >, 100);
    }
  const gsize bytes = sizeof *sets[0] + sets[0]->count * sizeof (WgParticle);
  for (int p = 1; p < 3; p++)
    g_assert_cmpmem (sets[0], bytes, sets[p], sizeof *sets[p] + sets[p]->count * sizeof (WgParticle));
}

void
wg_test_add_shade (WgGraph *graph, const char *id, const double camera[6], guint w, guint h)
{
  static const char *const names[6] = { "camera_x", "camera_y", "camera_z", "yaw", "pitch",
                                        "fov" };
  char *cam[6];
  for (int k = 0; k < 6; k++)
    cam[k] = g_strdup_printf ("%s=%.17g", names[k], camera[k]);
  g_autofree char *width = g_strdup_printf ("width=%u", w), *height = g_strdup_printf ("height=%u", h);
  wg_test_add (graph, "surface-shade", id, cam[0], cam[1], cam[2], cam[3], cam[4], cam[5], width,
               height, "haze_distance=0", "tone_mapping=none", NULL);
  for (int k = 0; k < 6; k++)
    g_free (cam[k]);
}

void
wg_test_camera_ray (double yaw, double pitch, double fov, guint w, guint h, double i, double j,
                    double d[3])
{
  double f[3] = { cos (pitch) * cos (yaw), cos (pitch) * sin (yaw), sin (pitch) };
  double r[3] = { sin (yaw), -cos (yaw), 0 };
  double u[3] = { r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0] };
  double ty = tan (fov / 2), tx = ty * w / h;
  double x = (2 * (i + 0.5) / w - 1) * tx, y = (1 - 2 * (j + 0.5) / h) * ty;
  double l = 0;
  for (int k = 0; k < 3; k++)
    {
      d[k] = f[k] + x * r[k] + y * u[k];
      l += d[k] * d[k];
    }
  for (int k = 0; k < 3; k++)
    d[k] /= sqrt (l);
}
