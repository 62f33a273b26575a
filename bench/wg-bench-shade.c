/* wg-bench-shade — ms/frame of the surface-shade node on graphs/ocean.json's
 * 512² surface at 1280×720 and 1920×1080, from a low and a high camera, and
 * from the low one with 16 floating boxes' hulls in view (its bodies
 * input), and 16 mesh hulls (graphs/data/dinghy.obj, 236 triangles) in
 * their place: its CPU path (the ray march) on 1 and 2 threads, its GPU path
 * (papers/003 §5.1's LOD mesh, rasterised). Prints a table; asserts
 * nothing.
 *
 * The node's own time, not the ocean chain before it. On the GPU it is
 * taken with glFinish after the node (wg_plan_set_gpu_sync_timing), so it
 * includes the render and the copy into the output image, not a read-back.
 * On Mesa's llvmpipe the GPU numbers only show that the path works.
 *
 * Then the time to build a mesh hull's bounding volume hierarchy (once per
 * mesh, on the thread that draws) for spheres of 10k to 1M triangles in
 * their ring order.
 *
 * Usage: wg-bench-shade [--quick] [--backend cpu|gpu] [--threads N] [--size WxH]
 */
#include "wg-private.h"
#include "wg-surface-shade.h"
#include "wg-floating-body.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The hulls shade_graph() floats: none, boxes, or meshes. */
typedef enum { HULLS_NONE, HULLS_BOX, HULLS_MESH } Hulls;

/* ocean.json without its file sinks, its surface-shade at @width × @height
 * seen from @camera_z m at @pitch degrees; with @hulls, 16 boxes (or
 * meshes) of 6 × 2.5 × 1.5 m float 20 to 200 m ahead of the camera (which
 * looks along 105°), linked into its bodies input. */
static WgGraph *
shade_graph (guint width, guint height, double camera_z, double pitch, Hulls hulls)
{
  g_autoptr (GError) error = NULL;
  WgGraph *g = wg_graph_load_file (WG_SOURCE_DIR "/graphs/ocean.json", &error);
  if (g == NULL)
    g_error ("%s", error->message);
  for (const char *const *id = (const char *const[]){ "displacement_out", "normal_out",
                                                      "foam_out", "beauty_out", NULL };
       *id; id++)
    wg_graph_remove_node (g, *id, NULL);
  if (!wg_graph_set_param_int (g, "shade", "width", width, &error) ||
      !wg_graph_set_param_int (g, "shade", "height", height, &error) ||
      !wg_graph_set_param_double (g, "shade", "camera_z", camera_z, &error) ||
      !wg_graph_set_param_double (g, "shade", "pitch", pitch, &error))
    g_error ("%s", error->message);
  if (hulls)
    {
      GString *bodies = g_string_new ("[");
      for (int k = 0; k < 16; k++)
        {
          const double d = 20 + 12 * k, a = (105 + 12 * ((k % 5) - 2)) * G_PI / 180;
          g_string_append_printf (bodies,
                                  "%s{\"shape\": \"%s\", \"size\": [6, 2.5, 1.5], "
                                  "\"density\": 500, \"position\": [%.3f, %.3f, 0], "
                                  "\"yaw\": %d}",
                                  k ? ", " : "", hulls == HULLS_MESH ? "mesh" : "box",
                                  d * cos (a), d * sin (a), 20 * k);
        }
      g_string_append (bodies, "]");
      g_autofree char *list = g_string_free (bodies, FALSE);
      if (!wg_graph_add_node (g, "floating-body", "boats", &error) ||
          !wg_graph_set_param_from_text (g, "boats", "bodies", list, &error) ||
          !wg_graph_set_param_int (g, "boats", "capacity", 16, &error) ||
          (hulls == HULLS_MESH &&
           !wg_graph_set_param_from_text (g, "boats", "mesh", "data/dinghy.obj", &error)) ||
          !wg_graph_link (g, "boats", "bodies", "shade", "bodies", &error))
        g_error ("%s", error->message);
    }
  return g;
}

/* Mean ms/frame of the shade node over @frames frames, or < 0 (printed why). */
static double
measure (WgBackend backend, int threads, guint width, guint height, double camera_z,
         double pitch, Hulls hulls, int frames)
{
  g_autoptr (WgGraph) g = shade_graph (width, height, camera_z, pitch, hulls);
  WgPlanOptions o = { backend, threads, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  if (plan == NULL)
    {
      printf ("| %s | %u×%u | %s |\n", backend == WG_BACKEND_GPU ? "gpu" : "cpu", width, height,
              error->message);
      return -1;
    }
  /* Warm-up: shader compilation, textures, the spectrum. */
  if (!wg_plan_evaluate (plan, 0, &error))
    g_error ("%s", error->message);
  wg_plan_finish (plan);
  if (backend == WG_BACKEND_GPU)
    wg_plan_set_gpu_sync_timing (plan, TRUE);
  guint runs0, runs;
  double sec0, sec;
  wg_plan_get_node_stats (plan, "shade", &runs0, &sec0);
  for (int f = 1; f <= frames; f++)
    if (!wg_plan_evaluate (plan, f, &error))
      g_error ("%s", error->message);
  wg_plan_get_node_stats (plan, "shade", &runs, &sec);
  return runs > runs0 ? (sec - sec0) * 1e3 / (runs - runs0) : -1;
}

/* A WgHullMeshFunc over one mesh. */
static const WgHullMesh *
the_mesh (gpointer data, guint32 id)
{
  return data;
}

/* Milliseconds to build the hierarchy of a sphere of 2 × @segments² / 2
 * triangles (wg_shade_meshes_gather()), and its triangle count. */
static double
bvh_build (guint segments, guint *triangles)
{
  WgHull hull = { 0 };
  wg_hull_sphere (&hull, 2, segments);
  g_autofree float *v = g_new (float, 3 * (gsize) hull.n_vertices);
  for (gsize k = 0; k < 3 * (gsize) hull.n_vertices; k++)
    v[k] = (float) hull.vertices[k];
  /* A serial apart from the plans' (counted from 1): hierarchies are
   * shared process-wide by serial. */
  const WgHullMesh mesh = { hull.n_vertices, hull.n_triangles, v, hull.triangles,
                            (G_GUINT64_CONSTANT (1) << 62) + segments };
  g_autofree WgBodySet *set = g_malloc0 (sizeof (WgBodySet) + sizeof (WgBody));
  set->count = set->capacity = 1;
  set->bodies[0].shape = WG_BODY_SHAPE_MESH;
  set->bodies[0].mesh = 1;
  WgShadeHulls list = { 0 };
  const gint64 t0 = g_get_monotonic_time ();
  wg_shade_meshes_gather (&list, set, the_mesh, (gpointer) &mesh);
  const double ms = (double) (g_get_monotonic_time () - t0) / 1e3;
  *triangles = hull.n_triangles;
  wg_shade_hulls_clear (&list);
  wg_hull_clear (&hull);
  return ms;
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  g_autofree char *only = NULL, *size = NULL;
  int only_threads = 0;
  const GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "2 frames a measurement instead of 8", NULL },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &only, "Only this backend's rows", "cpu|gpu" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &only_threads, "Only the CPU rows on N threads", "N" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Only this picture size", "WxH" },
    { NULL }
  };
  g_autoptr (GOptionContext) options = g_option_context_new ("— surface-shade's ms/frame");
  g_option_context_add_main_entries (options, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (options, &argc, &argv, &error) ||
      (only && strcmp (only, "cpu") != 0 && strcmp (only, "gpu") != 0))
    {
      fprintf (stderr, "wg-bench-shade: %s\n",
               error ? error->message : "--backend: cpu or gpu");
      return 2;
    }
  int frames = quick ? 2 : 8;
  static const guint sizes[][2] = { { 1280, 720 }, { 1920, 1080 } };
  static const double cameras[][2] = { { 10, -10 }, { 120, -35 } };
  static const struct {
    WgBackend backend;
    int threads;
    const char *name;
  } paths[] = { { WG_BACKEND_CPU, 1, "cpu, 1 thread" },
                { WG_BACKEND_CPU, 2, "cpu, 2 threads" },
                { WG_BACKEND_GPU, 0, "gpu" } };
  printf ("surface-shade, graphs/ocean.json (512² over 256 m), ms/frame of the node\n\n");
  printf ("| path | picture | camera 10 m, pitch −10° | camera 120 m, pitch −35° | "
          "camera 10 m, 16 box hulls | camera 10 m, 16 mesh hulls |\n");
  printf ("|---|---|---|---|---|---|\n");
  for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        g_autofree char *wxh = g_strdup_printf ("%ux%u", sizes[s][0], sizes[s][1]);
        if ((only && (strcmp (only, "gpu") == 0) != (paths[p].backend == WG_BACKEND_GPU)) ||
            (only_threads && paths[p].threads != only_threads) || (size && strcmp (size, wxh)))
          continue;
        double ms[4];
        for (guint c = 0; c < 4; c++)
          ms[c] = measure (paths[p].backend, paths[p].threads, sizes[s][0], sizes[s][1],
                           cameras[c == 1][0], cameras[c == 1][1],
                           c < 2 ? HULLS_NONE : (c == 2 ? HULLS_BOX : HULLS_MESH), frames);
        printf ("| %s | %u×%u | %.1f | %.1f | %.1f | %.1f |\n", paths[p].name, sizes[s][0],
                sizes[s][1], ms[0], ms[1], ms[2], ms[3]);
      }
  printf ("\nmesh hull hierarchy build (spheres in ring order), ms\n\n| triangles | ms |\n"
          "|---|---|\n");
  for (guint segments = 100; segments <= (quick ? 100u : 1000u); segments = segments * 316 / 100)
    {
      guint n;
      const double ms = bvh_build (segments, &n);
      printf ("| %u | %.1f |\n", n, ms);
    }
  return 0;
}
