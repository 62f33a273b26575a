/* wg-body-mesh.c — a floating body's hull from a mesh file (OBJ, glTF/GLB
 * and the other formats assimp reads).
 *
 * The file is read into memory by us (a regular file only: a FIFO would
 * block for ever) and handed to assimp through file callbacks that serve
 * that one file and refuse every other name, so assimp opens nothing
 * itself: a graph reads only inside its folder (wg-confine.c), and a
 * .gltf's external buffers or an .obj's .mtl are not followed (use .glb or
 * embedded buffers; materials are not needed). */
#include "wg-floating-body.h"

#include <assimp/cfileio.h>
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

/* The mesh file's bytes for assimp, and the first other file it asked for. */
typedef struct {
  const char *name; /* the name assimp is given for the mesh file */
  const char *bytes;
  gsize length;
  char *refused;
} MeshFiles;

/* A read position in MeshFiles' bytes: one per open. */
typedef struct {
  const MeshFiles *files;
  gsize at;
} MeshCursor;

static size_t
mesh_read (struct aiFile *f, char *buffer, size_t size, size_t count)
{
  MeshCursor *c = (MeshCursor *) f->UserData;
  if (size == 0)
    return 0;
  const size_t n = MIN (count, (c->files->length - c->at) / size);
  memcpy (buffer, c->files->bytes + c->at, n * size);
  c->at += n * size;
  return n;
}

static size_t
mesh_write (struct aiFile *f, const char *buffer, size_t size, size_t count)
{
  return 0;
}

static size_t
mesh_tell (struct aiFile *f)
{
  return ((MeshCursor *) f->UserData)->at;
}

static size_t
mesh_size (struct aiFile *f)
{
  return ((MeshCursor *) f->UserData)->files->length;
}

static void
mesh_flush (struct aiFile *f)
{
}

/* As assimp's own memory stream: from the end the offset counts back, and
 * from the current position a backward move arrives wrapped. */
static enum aiReturn
mesh_seek (struct aiFile *f, size_t offset, enum aiOrigin origin)
{
  MeshCursor *c = (MeshCursor *) f->UserData;
  const gsize length = c->files->length;
  gsize to;
  if (origin == aiOrigin_END)
    {
      if (offset > length)
        return aiReturn_FAILURE;
      to = length - offset;
    }
  else
    to = (origin == aiOrigin_CUR ? c->at : 0) + offset;
  if (to > length)
    return aiReturn_FAILURE;
  c->at = to;
  return aiReturn_SUCCESS;
}

static struct aiFile *
mesh_open (struct aiFileIO *io, const char *name, const char *mode)
{
  MeshFiles *files = (MeshFiles *) io->UserData;
  if (strcmp (name, files->name) != 0 || strpbrk (mode, "wa+") != NULL)
    {
      if (files->refused == NULL)
        files->refused = g_strdup (name);
      return NULL;
    }
  MeshCursor *c = g_new0 (MeshCursor, 1);
  c->files = files;
  struct aiFile *f = g_new0 (struct aiFile, 1);
  *f = (struct aiFile) { mesh_read, mesh_write, mesh_tell, mesh_size, mesh_seek, mesh_flush,
                         (aiUserData) c };
  return f;
}

static void
mesh_close (struct aiFileIO *io, struct aiFile *f)
{
  g_free (f->UserData);
  g_free (f);
}

gboolean
wg_hull_load_mesh (WgHull *hull, const char *path, const double size[3], GError **error)
{
  g_autofree char *bytes = NULL;
  gsize length = 0;
  wg_hull_clear (hull);
  GStatBuf st;
  const gboolean known = g_stat (path, &st) == 0;
  if (known && !S_ISREG (st.st_mode))
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA, "%s: not a regular file", path);
      return FALSE;
    }
  if (known && (guint64) st.st_size > WG_MESH_FILE_LIMIT)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "%s: %" G_GUINT64_FORMAT " bytes, more than a mesh file may have (%u MiB)",
                   path, (guint64) st.st_size, (guint) (WG_MESH_FILE_LIMIT >> 20));
      return FALSE;
    }
  if (!g_file_get_contents (path, &bytes, &length, error))
    return FALSE;
  if (length == 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA, "%s: empty, not a mesh", path);
      return FALSE;
    }
  /* assimp picks the format by the name's extension, then its bytes. */
  g_autofree char *file = g_path_get_basename (path);
  const char *dot = strrchr (file, '.');
  g_autofree char *name = g_strdup_printf ("mesh.%s", dot ? dot + 1 : "");
  MeshFiles files = { name, bytes, length, NULL };
  struct aiFileIO io = { mesh_open, mesh_close, (aiUserData) &files };
  const struct aiScene *scene =
    aiImportFileEx (name,
                    aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                      aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure,
                    &io);
  g_autofree char *refused = files.refused;
  if (scene == NULL)
    {
      if (refused != NULL)
        g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                     "%s: refers to another file (\"%s\"), which is not read: embed it (a .glb, "
                     "or a .gltf with data: URIs); assimp says: %s", path, refused,
                     aiGetErrorString ());
      else
        g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                     "%s: not a mesh assimp can read (%s)", path, aiGetErrorString ());
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
          const struct aiVector3D p = mesh->mVertices[v];
          if (!isfinite (p.x) || !isfinite (p.y) || !isfinite (p.z))
            {
              g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                           "%s: vertex %u of mesh %u is not a finite number", path, v, m);
              aiReleaseImport (scene);
              return FALSE;
            }
          hull->vertices[3 * (gsize) (base + v)] = p.x;
          hull->vertices[3 * (gsize) (base + v) + 1] = p.y;
          hull->vertices[3 * (gsize) (base + v) + 2] = p.z;
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
