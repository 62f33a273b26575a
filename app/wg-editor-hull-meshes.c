/* wg-editor-hull-meshes.c — the meshes of the shaded bodies, copied out of
 * the plan for the viewport: the plan's own are freed when its node is
 * prepared again on the evaluating thread, while the viewport draws a
 * result on the main thread. A copy is shared (atomically counted) by the
 * results that show the same mesh, so a body moving from frame to frame
 * copies nothing; it holds the mesh's hierarchy, built with the copy on
 * the evaluating thread, so the viewport's draw finds it built (a large
 * hull would stall the window for as long as the build takes). */
#include "wg-editor-eval-private.h"

typedef struct {
  guint32 id;
  WgHullMesh mesh;
  WgShadeMesh *prepared; /* wg_shade_mesh_prepare()'s */
} HullMeshCopy;

static void
copy_clear (gpointer data)
{
  HullMeshCopy *c = data;
  wg_shade_mesh_unprepare (c->prepared);
  g_free ((gpointer) c->mesh.vertices);
  g_free ((gpointer) c->mesh.triangles);
}

static void
copy_release (gpointer data)
{
  g_atomic_rc_box_release_full (data, copy_clear);
}

static HullMeshCopy *
find_copy (GPtrArray *copies, guint32 id, guint64 serial)
{
  for (guint k = 0; copies && k < copies->len; k++)
    {
      HullMeshCopy *c = g_ptr_array_index (copies, k);
      if (c->id == id && c->mesh.serial == serial)
        return c;
    }
  return NULL;
}

GPtrArray *
wg_eval_hull_meshes (GPtrArray **cache, WgPlan *plan, const WgBodySet *set)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (copy_release);
  for (guint b = 0; set && b < set->count; b++)
    {
      const WgBody *body = &set->bodies[b];
      const WgHullMesh *mesh =
        body->shape == WG_BODY_SHAPE_MESH ? wg_plan_get_hull_mesh (plan, body->mesh) : NULL;
      if (mesh == NULL || find_copy (out, body->mesh, mesh->serial))
        continue;
      HullMeshCopy *c = find_copy (*cache, body->mesh, mesh->serial);
      if (c)
        c = g_atomic_rc_box_acquire (c);
      else
        {
          c = g_atomic_rc_box_new0 (HullMeshCopy);
          c->id = body->mesh;
          c->mesh = *mesh;
          c->mesh.vertices = g_memdup2 (mesh->vertices, 3 * sizeof (float) * mesh->n_vertices);
          c->mesh.triangles =
            g_memdup2 (mesh->triangles, 3 * sizeof (guint32) * mesh->n_triangles);
          c->prepared = wg_shade_mesh_prepare (&c->mesh);
        }
      g_ptr_array_add (out, c);
    }
  /* The cache keeps what this result shows. */
  if (*cache)
    g_ptr_array_unref (*cache);
  *cache = g_ptr_array_ref (out);
  return out;
}

/* The copy of id @id in a result's @copies, or NULL. */
static const HullMeshCopy *
copy_of (gpointer copies, guint32 id)
{
  for (guint k = 0; copies && k < ((GPtrArray *) copies)->len; k++)
    {
      const HullMeshCopy *c = g_ptr_array_index ((GPtrArray *) copies, k);
      if (c->id == id)
        return c;
    }
  return NULL;
}

const WgHullMesh *
wg_eval_hull_mesh (gpointer copies, guint32 id)
{
  const HullMeshCopy *c = copy_of (copies, id);
  return c ? &c->mesh : NULL;
}

gboolean
wg_eval_hull_mesh_prepared (gpointer copies, guint32 id)
{
  const HullMeshCopy *c = copy_of (copies, id);
  return c && c->prepared;
}
