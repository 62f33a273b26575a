/* test-shade-mesh.c — the mesh hulls surface-shade draws for floating
 * bodies of shape mesh: the bounding volume hierarchy against every
 * triangle tried in double, built once per serial (ahead on other
 * threads too), the plan's meshes found by their bodies' ids,
 * and pictures: a box given as a mesh drawn as the analytic box is (both
 * paths), the dinghy of floating-boxes.json the same on both paths. */
#include "wg-test-util.h"
#include "wg-surface-shade.h"
#include "wg-floating-body.h"

#include <math.h>
#include <string.h>

#define W 192
#define H 108
/* Serials of the meshes made here, apart from the plans' (counted from 1):
 * renderers share hierarchies process-wide by serial. */
#define HAND_SERIAL (G_GUINT64_CONSTANT (1) << 62)

/* @hull's triangles in floats, as the floating-body node shares them. */
static WgHullMesh
mesh_of (const WgHull *hull, guint64 serial)
{
  float *v = g_new (float, 3 * (gsize) hull->n_vertices);
  for (gsize k = 0; k < 3 * (gsize) hull->n_vertices; k++)
    v[k] = (float) hull->vertices[k];
  return (WgHullMesh) { hull->n_vertices, hull->n_triangles, v,
                        g_memdup2 (hull->triangles, 3 * sizeof (guint32) * hull->n_triangles),
                        serial };
}

static void
mesh_free (WgHullMesh *m)
{
  g_free ((gpointer) m->vertices);
  g_free ((gpointer) m->triangles);
}

/* A WgHullMeshFunc over one mesh, its id 7. */
static const WgHullMesh *
one_mesh (gpointer data, guint32 id)
{
  return id == 7 ? data : NULL;
}

/* A set of one body of shape mesh, id @id, at the origin unturned. */
static WgBodySet *
mesh_body (guint32 id)
{
  WgBodySet *set = g_malloc0 (sizeof (WgBodySet) + sizeof (WgBody));
  set->count = set->capacity = 1;
  set->bodies[0].shape = WG_BODY_SHAPE_MESH;
  set->bodies[0].mesh = id;
  set->bodies[0].orientation[3] = 1;
  return set;
}

/* The nearest front face of @m along @d from @o, every triangle tried in
 * double: its distance (or −1), @edge the smallest barycentric coordinate
 * of that hit (how near a triangle's edge the ray passes) and @face its
 * unit normal. */
static double
brute_entry (const WgHullMesh *m, const double o[3], const double d[3], double *edge,
             double face[3])
{
  double best = -1;
  *edge = 1;
  for (guint t = 0; t < m->n_triangles; t++)
    {
      double v[3][3];
      for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
          v[c][k] = m->vertices[3 * m->triangles[3 * t + c] + k];
      double e1[3], e2[3], p[3], s[3], q[3];
      for (int k = 0; k < 3; k++)
        e1[k] = v[1][k] - v[0][k], e2[k] = v[2][k] - v[0][k], s[k] = o[k] - v[0][k];
      p[0] = d[1] * e2[2] - d[2] * e2[1];
      p[1] = d[2] * e2[0] - d[0] * e2[2];
      p[2] = d[0] * e2[1] - d[1] * e2[0];
      const double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
      if (det <= 0)
        continue;
      const double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
      q[0] = s[1] * e1[2] - s[2] * e1[1];
      q[1] = s[2] * e1[0] - s[0] * e1[2];
      q[2] = s[0] * e1[1] - s[1] * e1[0];
      const double w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
      const double th = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
      const double margin = fmin (fmin (u, w), 1 - u - w);
      /* Near an edge the float test may take either side: kept as a hit,
       * with its margin, so that the comparison can tell. */
      if (margin > -1e-4 && th > 0 && (best < 0 || th < best))
        {
          best = th;
          *edge = margin;
          face[0] = e1[1] * e2[2] - e1[2] * e2[1];
          face[1] = e1[2] * e2[0] - e1[0] * e2[2];
          face[2] = e1[0] * e2[1] - e1[1] * e2[0];
          const double l = sqrt (face[0] * face[0] + face[1] * face[1] + face[2] * face[2]);
          for (int k = 0; k < 3; k++)
            face[k] /= l;
        }
    }
  return best;
}

/* Rays at @m from outside (aimed near its middle) and from its centre
 * (inside: no hit): the hierarchy's hit against brute_entry(), except where
 * the nearest hit is within 1e-4 (barycentric) of a triangle's edge; its
 * shading normal within the crease angle (30°) of the face's. With
 * @sphere, the shading normal against the radial direction at the hit:
 * within @sphere degrees. */
static void
check_rays (const WgHullMesh *m, double reach, double sphere, GRand *rng)
{
  WgShadeHulls list = { 0 };
  g_autofree WgBodySet *set = mesh_body (7);
  wg_shade_meshes_gather (&list, set, one_mesh, (gpointer) m);
  float root, bound;
  g_assert_true (wg_shade_mesh_place (&list, &set->bodies[0], one_mesh, (gpointer) m, &root, &bound));
  g_assert_cmpfloat (fabs (bound - reach), <, 1e-3 * reach);
  guint hits = 0, edges = 0, n = 4000;
  double worst = 0, worst_face = 0;
  for (guint r = 0; r < n; r++)
    {
      double o[3], d[3], aim[3], l = 0;
      const gboolean inside = r % 8 == 0;
      for (int k = 0; k < 3; k++)
        {
          o[k] = inside ? 0 : g_rand_double_range (rng, -2.5, 2.5) * reach;
          aim[k] = g_rand_double_range (rng, -0.6, 0.6) * reach;
          d[k] = aim[k] - o[k];
          l += d[k] * d[k];
        }
      l = sqrt (l);
      float of[3], df[3], nrm[3];
      for (int k = 0; k < 3; k++)
        {
          d[k] /= l;
          of[k] = (float) o[k];
          df[k] = (float) d[k];
          o[k] = of[k];
          d[k] = df[k];
        }
      double edge, face[3];
      const double want = brute_entry (m, o, d, &edge, face);
      const float got = wg_shade_mesh_entry ((const guint32 (*)[4]) list.mesh, (guint) root, of, df, nrm);
      if (inside)
        {
          g_assert_cmpfloat (want, <, 0);
          g_assert_cmpfloat (got, <, 0);
          continue;
        }
      if (want > 0 && edge < 1e-4)
        {
          edges++;
          continue;
        }
      if (want < 0)
        {
          g_assert_cmpfloat (got, <, 0);
          continue;
        }
      hits++;
      g_assert_cmpfloat (fabs (got - want), <=, 1e-5 * (reach + want));
      g_assert_cmpfloat (fabs (nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2] - 1), <, 1e-6);
      g_assert_cmpfloat (nrm[0] * face[0] + nrm[1] * face[1] + nrm[2] * face[2], >=,
                         cos (30 * G_PI / 180) - 1e-6);
      if (sphere > 0)
        {
          double p[3], r2 = 0, c = 0, cf = 0;
          for (int k = 0; k < 3; k++)
            p[k] = o[k] + want * d[k], r2 += p[k] * p[k];
          for (int k = 0; k < 3; k++)
            c += nrm[k] * p[k] / sqrt (r2), cf += face[k] * p[k] / sqrt (r2);
          worst = fmax (worst, acos (fmin (c, 1)) * 180 / G_PI);
          worst_face = fmax (worst_face, acos (fmin (cf, 1)) * 180 / G_PI);
        }
    }
  if (sphere > 0)
    {
      g_test_message ("sphere: shading normals within %.2f° of radial (faces within %.2f°)",
                      worst, worst_face);
      g_assert_cmpfloat (worst, <, sphere);
      g_assert_cmpfloat (worst_face, >, 2 * sphere);
    }
  g_test_message ("%u triangles: %u of %u rays hit, %u near edges", m->n_triangles, hits, n,
                  edges);
  g_assert_cmpuint (hits, >, n / 4);
  g_assert_cmpuint (edges, <, n / 100);
  wg_shade_hulls_clear (&list);
}

/* A sphere of 1024 triangles (its shading normals radial: smooth) and the
 * dinghy of floating-boxes.json (its file, as the node loads it) against
 * check_rays(). */
static void
test_rays (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (11);
  WgHull sphere = { 0 }, dinghy = { 0 };
  wg_hull_sphere (&sphere, 2, 32);
  g_autofree char *path = wg_test_source_path ("graphs", "data", "dinghy.obj", NULL);
  g_autoptr (GError) error = NULL;
  const double size[3] = { 3.2, 1.4, 0.7 };
  g_assert_true (wg_hull_load_mesh (&dinghy, path, size, &error));
  g_assert_no_error (error);
  g_assert_true (wg_hull_finish (&dinghy, 300, 0));
  const WgHull *hulls[2] = { &sphere, &dinghy };
  for (int h = 0; h < 2; h++)
    {
      WgHullMesh m = mesh_of (hulls[h], HAND_SERIAL + 100 + h);
      double reach = 0;
      for (guint v = 0; v < m.n_vertices; v++)
        reach = fmax (reach, sqrt (m.vertices[3 * v] * m.vertices[3 * v] +
                                   m.vertices[3 * v + 1] * m.vertices[3 * v + 1] +
                                   m.vertices[3 * v + 2] * m.vertices[3 * v + 2]));
      check_rays (&m, reach, h == 0 ? 2.5 : 0, rng);
      mesh_free (&m);
    }
  wg_hull_clear (&sphere);
  wg_hull_clear (&dinghy);
}

/* The words are built once per serial: the same words again for the same
 * mesh (no new stamp), the same words for a copy under a new serial (a new
 * stamp: the GPU uploads), none once no body uses a mesh, and a body whose
 * id finds nothing is not drawn. */
static void
test_cache (void)
{
  WgHull sphere = { 0 };
  wg_hull_sphere (&sphere, 2, 16);
  WgHullMesh a = mesh_of (&sphere, HAND_SERIAL + 1), b = mesh_of (&sphere, HAND_SERIAL + 2);
  g_autofree WgBodySet *set = mesh_body (7);
  WgShadeHulls list = { 0 };
  g_assert_cmpuint (wg_shade_hulls (set, one_mesh, &a, &list), ==, 1);
  const guint64 stamp = list.mesh_stamp;
  const guint n = list.n_mesh;
  g_autofree guint32 (*words)[4] = g_memdup2 (list.mesh, n * sizeof *list.mesh);
  g_assert_cmpuint (wg_shade_hulls (set, one_mesh, &a, &list), ==, 1);
  g_assert_cmpuint (list.mesh_stamp, ==, stamp);
  g_assert_cmpuint (wg_shade_hulls (set, one_mesh, &b, &list), ==, 1);
  g_assert_cmpuint (list.mesh_stamp, >, stamp);
  g_assert_cmpuint (list.n_mesh, ==, n);
  g_assert_cmpmem (list.mesh, n * sizeof *list.mesh, words, n * sizeof *words);
  set->bodies[0].mesh = 8;
  g_assert_cmpuint (wg_shade_hulls (set, one_mesh, &b, &list), ==, 0);
  g_assert_cmpuint (list.n_mesh, ==, 0);
  g_assert_false (wg_body_hull_drawn (&(WgBody) { .shape = WG_BODY_SHAPE_MESH,
                                                  .orientation = { 0, 0, 0, 1 },
                                                  .size = { 1, 1, 1 } }));
  g_assert_true (wg_body_hull_drawn (&set->bodies[0]));
  wg_shade_hulls_clear (&list);
  mesh_free (&a);
  mesh_free (&b);
  wg_hull_clear (&sphere);
}

static gpointer
prepare_thread (gpointer mesh)
{
  return wg_shade_mesh_prepare (mesh);
}

/* A hierarchy prepared on other threads (wg_shade_mesh_prepare(), as the
 * editor's evaluating thread does) is the one a list gathers on this one:
 * built once, two threads preparing a new serial at once get the same; a
 * list's gather builds nothing while it is held, and the same words as a
 * build of its own once it is given back. */
static void
test_prepared (void)
{
  WgHull sphere = { 0 };
  wg_hull_sphere (&sphere, 2, 24);
  WgHullMesh m = mesh_of (&sphere, HAND_SERIAL + 3);
  const guint64 builds = wg_shade_mesh_bvh_builds ();
  GThread *a = g_thread_new ("prepare-a", prepare_thread, &m);
  GThread *b = g_thread_new ("prepare-b", prepare_thread, &m);
  WgShadeMesh *pa = g_thread_join (a), *pb = g_thread_join (b);
  g_assert_nonnull (pa);
  g_assert_true (pa == pb);
  g_assert_cmpuint (wg_shade_mesh_bvh_builds (), ==, builds + 1);
  g_autofree WgBodySet *set = mesh_body (7);
  WgShadeHulls list = { 0 };
  g_assert_cmpuint (wg_shade_hulls (set, one_mesh, &m, &list), ==, 1);
  g_assert_cmpuint (wg_shade_mesh_bvh_builds (), ==, builds + 1);
  g_assert_cmpuint (list.n_mesh, >, 2 * sphere.n_triangles);
  const guint n = list.n_mesh;
  g_autofree guint32 (*words)[4] = g_memdup2 (list.mesh, n * sizeof *list.mesh);
  wg_shade_hulls_clear (&list);
  wg_shade_mesh_unprepare (pa);
  wg_shade_mesh_unprepare (pb);
  g_assert_cmpuint (wg_shade_hulls (set, one_mesh, &m, &list), ==, 1);
  g_assert_cmpuint (wg_shade_mesh_bvh_builds (), ==, builds + 2);
  g_assert_cmpmem (list.mesh, list.n_mesh * sizeof *list.mesh, words, n * sizeof *words);
  wg_shade_hulls_clear (&list);
  wg_shade_mesh_unprepare (NULL);
  mesh_free (&m);
  wg_hull_clear (&sphere);
}

/* A floating-body of a mesh body and a box, chained after another of a
 * mesh body: the bodies carry ids that wg_plan_get_hull_mesh() finds (the
 * dinghy's triangles, its vertices about its centre of mass; the box's);
 * ids of no mesh find nothing; preparing the node again (its
 * capacity changed) keeps the ids and makes new meshes (new serials). */
static void
test_plan_ids (void)
{
  g_autofree char *dir = wg_test_source_path ("graphs", NULL);
  g_autoptr (WgGraph) g = wg_test_graph (32, 64, 24, 1);
  wg_graph_set_base_dir (g, dir);
  wg_test_add (g, "floating-body", "first",
               "bodies=[{\"shape\": \"mesh\", \"size\": [3.2, 1.4, 0.7], \"position\": [20, 20, 0]}]",
               "mesh=data/dinghy.obj", NULL);
  wg_test_add (g, "floating-body", "second",
               "bodies=[{\"shape\": \"box\", \"size\": [2, 1, 1], \"position\": [40, 40, 0]}, "
               "{\"shape\": \"mesh\", \"size\": [6.4, 2.8, 1.4], \"position\": [30, 30, 0]}]",
               "mesh=data/dinghy.obj", NULL);
  wg_test_link (g, "first:bodies", "second:bodies");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = (const WgBodySet *) wg_test_eval (plan, 0, "second:bodies");
  g_assert_cmpuint (set->count, ==, 3);
  const guint32 box = set->bodies[0].mesh, big = set->bodies[1].mesh, small = set->bodies[2].mesh;
  /* Every floating body has its hull's triangles (body-track-out's OBJ). */
  g_assert_cmpuint (box, !=, 0);
  g_assert_cmpuint (wg_plan_get_hull_mesh (plan, box)->n_triangles, >=, 12);
  g_assert_cmpuint (big, !=, 0);
  g_assert_cmpuint (small, !=, 0);
  g_assert_cmpuint (big, !=, small);
  const WgHullMesh *m[2] = { wg_plan_get_hull_mesh (plan, small), wg_plan_get_hull_mesh (plan, big) };
  guint64 serial[2];
  for (int k = 0; k < 2; k++)
    {
      g_assert_nonnull (m[k]);
      g_assert_cmpuint (m[k]->n_triangles, ==, 236);
      serial[k] = m[k]->serial;
      double lo = INFINITY, hi = -INFINITY;
      for (guint v = 0; v < m[k]->n_vertices; v++)
        lo = fmin (lo, m[k]->vertices[3 * v]), hi = fmax (hi, m[k]->vertices[3 * v]);
      /* Its length along x, the size asked for; the origin inside. */
      g_assert_cmpfloat (fabs (hi - lo - 3.2 * (k + 1)), <, 1e-5);
      g_assert_cmpfloat (lo, <, 0);
      g_assert_cmpfloat (hi, >, 0);
    }
  g_assert_cmpuint (serial[0], !=, serial[1]);
  g_assert_null (wg_plan_get_hull_mesh (plan, 0));
  g_assert_null (wg_plan_get_hull_mesh (plan, big + 1));
  g_assert_null (wg_plan_get_hull_mesh (plan, big + (100u << 12)));
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_from_text (g, "second", "capacity", "5", &error));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_no_error (error);
  set = (const WgBodySet *) wg_test_eval (plan, 1, "second:bodies");
  g_assert_cmpuint (set->bodies[1].mesh, ==, big);
  g_assert_cmpuint (set->bodies[2].mesh, ==, small);
  g_assert_cmpuint (wg_plan_get_hull_mesh (plan, big)->serial, >, serial[1]);
  g_assert_cmpuint (wg_plan_get_hull_mesh (plan, small)->serial, ==, serial[0]);
}

/* A flat sea seen from @camera (x, y, z; yaw, pitch in degrees; fov) with
 * a floating-body of @bodies (JSON, its mesh file box.obj or
 * ../graphs/data/dinghy.obj from the graph's folder @dir) linked to the
 * picture; the picture after frame 0, and the shade node's note in @note
 * (optional). */
static float *
picture_noted (const char *dir, const double camera[6], const char *bodies, const char *mesh,
               char **note)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 24, 1);
  wg_graph_set_base_dir (g, dir);
  g_autofree char *b = g_strdup_printf ("bodies=%s", bodies);
  g_autofree char *m = g_strdup_printf ("mesh=%s", mesh);
  wg_test_add (g, "ripple", "sea", NULL);
  wg_test_add (g, "floating-body", "boats", b, m, NULL);
  wg_test_add_shade (g, "shade", camera, W, H);
  wg_test_link (g, "sea:height", "shade:displacement");
  wg_test_link (g, "boats:bodies", "shade:bodies");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  gsize n;
  float *img = wg_test_eval_copy (plan, 0, "shade:image", &n);
  g_assert_cmpuint (n, ==, W * H * 4);
  if (note)
    *note = g_strdup (wg_plan_get_node_note (plan, "shade", NULL));
  return img;
}

static float *
picture (const char *dir, const double camera[6], const char *bodies, const char *mesh)
{
  return picture_noted (dir, camera, bodies, mesh, NULL);
}

/* Pixels of @a and @b that differ by more than 1e-4 of their value. */
static guint
differ (const float *a, const float *b)
{
  guint n = 0;
  for (gsize p = 0; p < (gsize) W * H; p++)
    {
      gboolean same = TRUE;
      for (int c = 0; c < 3; c++)
        same = same && fabsf (a[4 * p + c] - b[4 * p + c]) <= 1e-4f * fabsf (b[4 * p + c]) + 1e-6f;
      n += !same;
    }
  return n;
}

/* A 4 × 2 × 1 m box as an OBJ of 12 triangles (its size set by the node)
 * and as the analytic box, from above and from the side at two corners:
 * the same picture apart from the pixels where a ray grazes an edge (the
 * faces are the same planes, their normals the same axes), and unlike the
 * picture of a sphere in its place. */
static void
test_box (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *obj = g_build_filename (dir, "box.obj", NULL);
  const char *text = "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\n"
                     "v -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
                     "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
                     "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
  g_assert_true (g_file_set_contents (obj, text, -1, NULL));
  static const double cameras[3][6] = { { 20, 30, 10, 0, -89.9, 40 },
                                        { 12, 24, 3, 37, -14, 40 },
                                        { 27, 37, 2, 220, -8, 40 } };
  const char *shapes[3] = { "mesh", "box", "sphere" };
  for (int c = 0; c < 3; c++)
    {
      float *img[3];
      for (int s = 0; s < 3; s++)
        {
          g_autofree char *bodies = g_strdup_printf (
            "[{\"shape\": \"%s\", \"size\": [4, 2, 1], \"density\": 500, "
            "\"position\": [20, 30, 0.25], \"yaw\": 20}]",
            shapes[s]);
          img[s] = picture (dir, cameras[c], bodies, "box.obj");
        }
      const guint edges = differ (img[0], img[1]), other = differ (img[2], img[1]);
      g_test_message ("camera %d: mesh and box differ in %u pixels, sphere and box in %u", c,
                      edges, other);
      /* An edge's pixels: its length across the picture at most. */
      g_assert_cmpuint (edges, <, W / 4);
      g_assert_cmpuint (other, >, 400);
      for (int s = 0; s < 3; s++)
        g_free (img[s]);
    }
}

/* floating-boxes.json's dinghy (its mesh file, 0.7 m deep), from 6 m off
 * and 2 m up: drawn (the picture differs from the one without it), and the
 * same on the CPU and the GPU apart from edge pixels. */
static void
test_dinghy_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autofree char *dir = wg_test_source_path ("graphs", NULL);
  static const double camera[6] = { 14, 26, 2, 20, -12, 45 };
  const char *bodies = "[{\"shape\": \"mesh\", \"size\": [3.2, 1.4, 0.7], \"density\": 300, "
                       "\"position\": [20, 28, 0], \"yaw\": 120}]";
  const char *none = "[{\"shape\": \"box\", \"size\": [0.1, 0.1, 0.1], \"density\": 300, "
                     "\"position\": [2, 2, 0]}]";
  const WgBackend backends[2] = { WG_BACKEND_CPU, WG_BACKEND_GPU };
  float *img[2], *bare;
  for (int b = 0; b < 2; b++)
    {
      wg_test_backend = backends[b];
      img[b] = picture (dir, camera, bodies, "data/dinghy.obj");
    }
  wg_test_backend = WG_BACKEND_CPU;
  bare = picture (dir, camera, none, "data/dinghy.obj");
  const guint drawn = differ (img[0], bare), apart = differ (img[1], img[0]);
  g_test_message ("dinghy: %u pixels; GPU and CPU differ in %u", drawn, apart);
  g_assert_cmpuint (drawn, >, 500);
  g_assert_cmpuint (apart, <, drawn / 50);
  /* On a GPU whose storage block cannot hold the dinghy's words (26 KiB),
   * the GPU leaves it out and the node says so; the picture is the one
   * without it. */
  wg_test_backend = WG_BACKEND_GPU;
  g_autofree float *gpu_bare = picture (dir, camera, none, "data/dinghy.obj");
  g_setenv ("WAVEGRAPH_GPU_STORAGE_BLOCK", "16384", TRUE);
  g_autofree char *note = NULL;
  g_autofree float *small = picture_noted (dir, camera, bodies, "data/dinghy.obj", &note);
  g_unsetenv ("WAVEGRAPH_GPU_STORAGE_BLOCK");
  wg_test_backend = WG_BACKEND_CPU;
  g_test_message ("GPU of a 16 KiB storage block: %s", note);
  g_assert_cmpuint (differ (small, gpu_bare), ==, 0);
  g_assert_nonnull (note);
  /* (g_format_size() puts a no-break space before the unit.) */
  g_assert_nonnull (strstr (note, "exceed this GPU's storage block (16.0\u00a0KiB): not drawn"));
  g_free (img[0]);
  g_free (img[1]);
  g_free (bare);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shade-mesh/rays", test_rays);
  g_test_add_func ("/shade-mesh/cache", test_cache);
  g_test_add_func ("/shade-mesh/prepared", test_prepared);
  g_test_add_func ("/shade-mesh/plan-ids", test_plan_ids);
  wg_test_add_both ("shade-mesh", "box", test_box);
  g_test_add_func ("/shade-mesh/dinghy-parity", test_dinghy_parity);
  return g_test_run ();
}
