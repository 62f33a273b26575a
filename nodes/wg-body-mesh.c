/* wg-body-mesh.c — a floating body's hull from a mesh file (OBJ, glTF/GLB
 * and the other formats assimp reads).
 *
 * The file is read into memory by us and handed to assimp from there, so
 * assimp opens no other file: a graph reads only inside its folder
 * (wg-confine.c), and a .gltf's external buffers or an .obj's .mtl are not
 * followed (use .glb or embedded buffers; materials are not needed). */
#include "wg-floating-body.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

/* Every directed edge (a, b) of a closed, consistently wound surface has
 * its twin (b, a). */
static gboolean
check_closed (const WgHull *h, const char *path, GError **error)
{
  g_autoptr (GHashTable) edges = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, 3 * (gsize) h->n_triangles);
  for (guint t = 0; t < h->n_triangles; t++)
    for (int k = 0; k < 3; k++)
      {
        const guint a = h->triangles[3 * t + k], b = h->triangles[3 * t + (k + 1) % 3];
        gint64 *key = &keys[3 * t + k];
        *key = (gint64) a << 32 | b;
        g_hash_table_add (edges, key);
      }
  for (guint t = 0; t < h->n_triangles; t++)
    for (int k = 0; k < 3; k++)
      {
        const guint a = h->triangles[3 * t + k], b = h->triangles[3 * t + (k + 1) % 3];
        const gint64 twin = (gint64) b << 32 | a;
        if (!g_hash_table_contains (edges, &twin))
          {
            g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                         "%s: not a closed surface: the edge from vertex %u to %u of "
                         "triangle %u has no neighbour wound the other way", path, a, b, t);
            return FALSE;
          }
      }
  return TRUE;
}

gboolean
wg_hull_load_mesh (WgHull *hull, const char *path, const double size[3], GError **error)
{
  g_autofree char *bytes = NULL;
  gsize length = 0;
  wg_hull_clear (hull);
  GStatBuf st;
  if (g_stat (path, &st) == 0 && (guint64) st.st_size > WG_MESH_FILE_LIMIT)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "%s: %" G_GUINT64_FORMAT " bytes, more than a mesh file may have (%u MiB)",
                   path, (guint64) st.st_size, (guint) (WG_MESH_FILE_LIMIT >> 20));
      return FALSE;
    }
  if (!g_file_get_contents (path, &bytes, &length, error))
    return FALSE;
  const char *dot = strrchr (path, '.');
  const struct aiScene *scene =
    aiImportFileFromMemory (bytes, (unsigned) length,
                            aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                              aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure,
                            dot ? dot + 1 : "");
  if (scene == NULL)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA, "%s: not a mesh assimp can read (%s)",
                   path, aiGetErrorString ());
      return FALSE;
    }
  /* The scene's meshes, one vertex list; JoinIdenticalVertices works per
   * mesh, so meshes meet only through their own closed surfaces. */
  for (unsigned m = 0; m < scene->mNumMeshes; m++)
    {
      const struct aiMesh *mesh = scene->mMeshes[m];
      const guint base = hull->n_vertices;
      hull->vertices = g_renew (double, hull->vertices, 3 * (gsize) (base + mesh->mNumVertices));
      for (unsigned v = 0; v < mesh->mNumVertices; v++)
        {
          hull->vertices[3 * (gsize) (base + v)] = mesh->mVertices[v].x;
          hull->vertices[3 * (gsize) (base + v) + 1] = mesh->mVertices[v].y;
          hull->vertices[3 * (gsize) (base + v) + 2] = mesh->mVertices[v].z;
        }
      hull->n_vertices += mesh->mNumVertices;
      for (unsigned f = 0; f < mesh->mNumFaces; f++)
        {
          if (mesh->mFaces[f].mNumIndices != 3)
            continue;
          hull->triangles = g_renew (guint, hull->triangles, 3 * (gsize) (hull->n_triangles + 1));
          for (int k = 0; k < 3; k++)
            hull->triangles[3 * (gsize) hull->n_triangles + k] = base + mesh->mFaces[f].mIndices[k];
          hull->n_triangles++;
        }
    }
  aiReleaseImport (scene);
  if (hull->n_triangles < 4)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "%s: %u triangle%s, not a closed surface", path, hull->n_triangles,
                   hull->n_triangles == 1 ? "" : "s");
      return FALSE;
    }
  if (!check_closed (hull, path, error))
    return FALSE;
  /* Scale the bounding box to @size. */
  double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
  for (guint v = 0; v < hull->n_vertices; v++)
    for (int k = 0; k < 3; k++)
      {
        lo[k] = MIN (lo[k], hull->vertices[3 * v + k]);
        hi[k] = MAX (hi[k], hull->vertices[3 * v + k]);
      }
  for (int k = 0; k < 3; k++)
    if (!(hi[k] - lo[k] > 0) || !isfinite (hi[k] - lo[k]))
      {
        g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                     "%s: the mesh is flat or not finite along %c", path, "xyz"[k]);
        return FALSE;
      }
  for (guint v = 0; v < hull->n_vertices; v++)
    for (int k = 0; k < 3; k++)
      hull->vertices[3 * v + k] = (hull->vertices[3 * v + k] - (lo[k] + hi[k]) / 2) *
                                  size[k] / (hi[k] - lo[k]);
  return TRUE;
}
