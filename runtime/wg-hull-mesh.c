/* wg-hull-mesh.c — the plan's hull meshes: the triangles of bodies of shape
 * mesh, kept by the node that made them and found by their id, which the
 * bodies port's records carry (the port is plain data, saved and synced to
 * the GPU as it is, so it holds no pointers). */
#include "wg-plan-private.h"

#include <string.h>

/* An id: the making node's index in the graph, plus one, above the hull's
 * index among that node's. */
#define SLOT_BITS 12
G_STATIC_ASSERT (WG_MAX_BODIES == 1u << SLOT_BITS);

static void
hull_mesh_free (gpointer data)
{
  WgHullMesh *mesh = data;
  g_free ((gpointer) mesh->vertices);
  g_free ((gpointer) mesh->triangles);
  g_free (mesh);
}

guint32
wg_ctx_add_hull_mesh (WgNodeContext *ctx, const float *vertices, guint n_vertices,
                      const guint32 *triangles, guint n_triangles)
{
  g_return_val_if_fail (ctx != NULL && vertices != NULL && triangles != NULL, 0);
  g_return_val_if_fail (ctx->graph_index < (G_MAXUINT32 >> SLOT_BITS) - 1, 0);
  for (gsize k = 0; k < 3 * (gsize) n_triangles; k++)
    g_return_val_if_fail (triangles[k] < n_vertices, 0);
  if (ctx->hull_meshes == NULL)
    ctx->hull_meshes = g_ptr_array_new_with_free_func (hull_mesh_free);
  if (ctx->hull_meshes->len >= WG_MAX_BODIES)
    return 0;
  static guint64 serials;
  WgHullMesh *mesh = g_new (WgHullMesh, 1);
  *mesh = (WgHullMesh) {
    .n_vertices = n_vertices,
    .n_triangles = n_triangles,
    .vertices = g_memdup2 (vertices, 3 * sizeof (float) * (gsize) n_vertices),
    .triangles = g_memdup2 (triangles, 3 * sizeof (guint32) * (gsize) n_triangles),
    .serial = __atomic_add_fetch (&serials, 1, __ATOMIC_RELAXED),
  };
  g_ptr_array_add (ctx->hull_meshes, mesh);
  return ((ctx->graph_index + 1) << SLOT_BITS) | (ctx->hull_meshes->len - 1);
}

const WgHullMesh *
wg_plan_get_hull_mesh (gpointer data, guint32 id)
{
  WgPlan *plan = data;
  g_return_val_if_fail (plan != NULL, NULL);
  const guint32 node = id >> SLOT_BITS, slot = id & (WG_MAX_BODIES - 1);
  if (node == 0 || node > plan->graph->nodes->len)
    return NULL;
  WgNodeContext *ctx =
    wg_plan_context_for (plan, g_ptr_array_index (plan->graph->nodes, node - 1));
  if (ctx == NULL || ctx->hull_meshes == NULL || slot >= ctx->hull_meshes->len)
    return NULL;
  return g_ptr_array_index (ctx->hull_meshes, slot);
}

const WgHullMesh *
wg_ctx_get_hull_mesh (WgNodeContext *ctx, guint32 id)
{
  g_return_val_if_fail (ctx != NULL, NULL);
  return wg_plan_get_hull_mesh (ctx->plan, id);
}

void
wg_node_context_drop_hull_meshes (WgNodeContext *ctx)
{
  g_clear_pointer (&ctx->hull_meshes, g_ptr_array_unref);
}
