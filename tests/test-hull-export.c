/* test-hull-export.c — body-track-out's hull files: each floating body's
 * hull written once as an OBJ in its own frame, which read back are the
 * plan's triangles bit for bit and enclose the body's volume about its
 * centre of mass (the origin the track's poses place). */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

/* An OBJ's vertices and triangles (v and f lines; 1-based indices). */
typedef struct {
  GArray *v; /* float */
  GArray *f; /* guint32, 0-based */
} Obj;

static Obj
obj_read (const char *path)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  Obj o = { g_array_new (FALSE, FALSE, sizeof (float)), g_array_new (FALSE, FALSE, sizeof (guint32)) };
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint l = 0; lines[l]; l++)
    {
      g_auto (GStrv) w = g_strsplit (lines[l], " ", -1);
      if (g_strcmp0 (w[0], "v") == 0)
        for (int k = 1; k <= 3; k++)
          {
            const float x = (float) g_ascii_strtod (w[k], NULL);
            g_array_append_val (o.v, x);
          }
      else if (g_strcmp0 (w[0], "f") == 0)
        for (int k = 1; k <= 3; k++)
          {
            const guint32 i = (guint32) g_ascii_strtoull (w[k], NULL, 10) - 1;
            g_array_append_val (o.f, i);
          }
      else
        g_assert_true (lines[l][0] == '\0' || lines[l][0] == '#' || lines[l][0] == 'o');
    }
  return o;
}

static void
obj_clear (Obj *o)
{
  g_array_unref (o->v);
  g_array_unref (o->f);
}

/* Volume (m³) and centroid of the closed mesh @o by the divergence theorem
 * (signed tetrahedra from the origin), in double. */
static double
obj_volume (const Obj *o, double centroid[3])
{
  double vol = 0, first[3] = { 0, 0, 0 };
  const float *v = (const float *) o->v->data;
  const guint32 *f = (const guint32 *) o->f->data;
  for (guint t = 0; t < o->f->len / 3; t++)
    {
      const float *a = v + 3 * f[3 * t], *b = v + 3 * f[3 * t + 1], *c = v + 3 * f[3 * t + 2];
      const double det = a[0] * ((double) b[1] * c[2] - (double) b[2] * c[1]) -
                         a[1] * ((double) b[0] * c[2] - (double) b[2] * c[0]) +
                         a[2] * ((double) b[0] * c[1] - (double) b[1] * c[0]);
      vol += det / 6;
      for (int k = 0; k < 3; k++)
        first[k] += det / 24 * ((double) a[k] + b[k] + c[k]);
    }
  for (int k = 0; k < 3; k++)
    centroid[k] = first[k] / vol;
  return vol;
}

/* A box (2 × 1 × 0.5 m), a sphere (1 m) and the dinghy (its file copied
 * beside the graph) baked for frames 1–2 (not the graph's first: a chunk
 * of a farm bake) with two tracks, one without hulls: the first writes
 * t/track.body0–2.obj with its first frame, counted among the files the
 * bake reports; they read back as the plan's hull triangles (vertices the
 * same floats, faces the same indices), closed around the volume the body
 * was given (box 1 m³, sphere π/6 m³: its facets scaled to the sphere's
 * volume) with the centre of mass at the origin (to 1e-6 m). */
static void
test_hulls (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *src = wg_test_source_path ("graphs", "data", "dinghy.obj", NULL);
  g_autofree char *dinghy = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (src, &dinghy, &len, NULL));
  g_autofree char *copy = g_build_filename (dir, "dinghy.obj", NULL);
  g_assert_true (g_file_set_contents (copy, dinghy, (gssize) len, NULL));
  static const char json[] =
    "{\"format\": \"wavegraph\", \"version\": 1, \"settings\": {\"grid\": [32, 32], "
    "\"extent\": [32, 32], \"fps\": 10, \"frames\": [0, 2]}, \"nodes\": [{\"id\": \"float\", "
    "\"type\": \"floating-body\", \"params\": {\"bodies\": [{\"size\": [2, 1, 0.5], "
    "\"position\": [10, 11, 0.2], \"roll\": 20}, {\"shape\": \"sphere\", \"size\": [1, 1, 1], "
    "\"position\": [20, 20, -0.3]}, {\"shape\": \"mesh\", \"size\": [3.2, 1.4, 0.7], "
    "\"density\": 300, \"position\": [8, 24, 0]}], \"mesh\": \"dinghy.obj\"}}, "
    "{\"id\": \"csv\", \"type\": \"body-track-out\", \"params\": {\"path\": "
    "\"t/track.%03d.csv\"}}, {\"id\": \"bare\", \"type\": \"body-track-out\", \"params\": "
    "{\"path\": \"bare/%03d.csv\", \"hulls\": false}}], \"links\": ["
    "{\"from\": \"float:bodies\", \"to\": \"csv:bodies\"}, {\"from\": \"float:bodies\", "
    "\"to\": \"bare:bodies\"}]}";
  g_autofree char *path = g_build_filename (dir, "hulls.json", NULL);
  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  const char *argv[] = { "wavegraph", "run", "hulls.json", "--out", "out", "--frames", "1-2",
                         NULL };
  WgTestRun r = wg_test_run (dir, argv);
  g_assert_cmpint (r.status, ==, 0);
  /* 2 frames × 2 tracks, 3 hulls, a contact sheet of no pictures: none. */
  g_assert_nonnull (strstr (r.err, " 7 files in "));
  wg_test_run_clear (&r);
  g_autofree char *bare = g_build_filename (dir, "out", "bare", NULL);
  g_assert_cmpuint (wg_test_count_files (bare), ==, 2);

  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = (const WgBodySet *) wg_test_eval (plan, 0, "float:bodies");
  g_assert_cmpuint (set->count, ==, 3);
  const double volume[3] = { 1.0, G_PI / 6, -1 };
  for (guint b = 0; b < 3; b++)
    {
      g_autofree char *name = g_strdup_printf ("track.body%u.obj", b);
      g_autofree char *obj_path = g_build_filename (dir, "out", "t", name, NULL);
      Obj o = obj_read (obj_path);
      const WgHullMesh *m = wg_plan_get_hull_mesh (plan, set->bodies[b].mesh);
      g_assert_nonnull (m);
      g_assert_cmpmem (o.v->data, o.v->len * sizeof (float), m->vertices,
                       3 * m->n_vertices * sizeof (float));
      g_assert_cmpmem (o.f->data, o.f->len * sizeof (guint32), m->triangles,
                       3 * m->n_triangles * sizeof (guint32));
      double c[3];
      const double vol = obj_volume (&o, c);
      g_test_message ("body %u: %u triangles, %.9g m³, centroid (%.2g, %.2g, %.2g)", b,
                      m->n_triangles, vol, c[0], c[1], c[2]);
      if (volume[b] > 0)
        g_assert_cmpfloat (fabs (vol / volume[b] - 1), <, 1e-6);
      else /* the dinghy: inside its 3.2 × 1.4 × 0.7 m box */
        g_assert_true (vol > 0.1 && vol < 3.2 * 1.4 * 0.7);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat (fabs (c[k]), <, 1e-6);
      obj_clear (&o);
    }
}

/* A CSV and a JSON track of one stem would write the same hull files:
 * refused (exit 2), located at the second's hulls parameter and naming the
 * first; with its hulls off, accepted. */
static void
test_same_stem (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  for (int off = 0; off < 2; off++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"format\": \"wavegraph\", \"version\": 1, \"settings\": {\"grid\": [16, 16], "
        "\"extent\": [16, 16], \"fps\": 10, \"frames\": [0, 1]}, \"nodes\": [{\"id\": "
        "\"float\", \"type\": \"floating-body\"}, {\"id\": \"csv\", \"type\": "
        "\"body-track-out\", \"params\": {\"path\": \"t/track.%%03d.csv\"}}, {\"id\": "
        "\"json\", \"type\": \"body-track-out\", \"params\": {\"path\": "
        "\"t/track.%%03d.json\", \"hulls\": %s}}], \"links\": [{\"from\": \"float:bodies\", "
        "\"to\": \"csv:bodies\"}, {\"from\": \"float:bodies\", \"to\": \"json:bodies\"}]}",
        off ? "false" : "true");
      g_autofree char *path = g_build_filename (dir, "stem.json", NULL);
      g_assert_true (g_file_set_contents (path, json, -1, NULL));
      const char *argv[] = { "wavegraph", "validate", "stem.json", NULL };
      WgTestRun r = wg_test_run (dir, argv);
      if (off)
        g_assert_cmpint (r.status, ==, 0);
      else
        {
          g_assert_cmpint (r.status, ==, 2);
          g_assert_nonnull (strstr (r.err, "params.hulls"));
          g_assert_nonnull (strstr (r.err, "track.body<index>.obj"));
          g_assert_nonnull (strstr (r.err, "nodes[1] (\"csv\")"));
        }
      wg_test_run_clear (&r);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hull-export/hulls", test_hulls);
  g_test_add_func ("/hull-export/same-stem", test_same_stem);
  return g_test_run ();
}
