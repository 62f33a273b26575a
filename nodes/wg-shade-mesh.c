/* wg-shade-mesh.c — mesh hulls as surface-shade draws them: each mesh's
 * bounding volume hierarchy (built here, once per mesh: shared by serial
 * across lists and threads), all the drawn meshes' hierarchies and
 * triangles in one array of uvec4 for both paths, and the C port of
 * shaders/shade-hulls.glsl's wg_mesh_entry(), operation for operation
 * (change the two together).
 *
 * Layout (WgShadeHulls.mesh, in 16-byte words): a node is two words,
 * (lo.xyz, a) and (hi.xyz, b), its box [lo, hi] in the body's frame; an
 * inner node has b = 0 and its children at words a and a + 2; a leaf has
 * b ≥ 1 triangles from word a, each six words: v0, v1 − v0, v2 − v0, then
 * the shading normals n0, n1, n2 of its corners (xyz; w 0). Coordinates
 * are float bits: the GPU reads uvec4s, so that no index is ever a float.
 *
 * A corner's normal averages (area-weighted) the faces at its position within
 * 30° of its own face, as Blender's Auto Smooth does by default: a curved
 * hull looks smooth, a box's or a deck's edges stay sharp. */
#include "wg-surface-shade.h"
#include "surface-shade.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A leaf's most triangles, and the deepest node: the traversal's stack
 * (WG_SHADE_MESH_STACK) holds one entry per level. */
#define LEAF_TRIANGLES 4
#define MAX_DEPTH (WG_SHADE_MESH_STACK - 2)
/* Words of a triangle, and the cosine of the crease angle (30°). */
#define TRIANGLE_WORDS 6
#define CREASE_COS 0.86602540378443865
/* The most faces at one point that a corner's normal averages. */
#define MAX_SMOOTH_FACES 1024u

/* A mesh's hierarchy and triangles, shared by every list that draws the
 * mesh (and by whoever built it ahead: wg_shade_mesh_prepare()): counted,
 * and found by serial in the process's table while counted. */
struct _WgShadeMesh {
  guint64 serial;
  guint32 (*words)[4]; /* nodes, then triangles; indices from the block's start */
  guint n_words, n_node_words;
  float bound; /* the farthest vertex from the body's origin (m) */
  guint refs;  /* under bvh_lock */
};
typedef WgShadeMesh MeshBvh;

/* A list's use of a hierarchy. */
typedef struct {
  MeshBvh *bvh;
  guint base; /* where its words start in WgShadeHulls.mesh */
  gboolean used;
} MeshBlock;

typedef struct {
  float lo[3], hi[3];
  guint32 a, count; /* leaf: first triangle (in order), count; inner: first child, 0 */
} BuildNode;

typedef struct {
  const WgHullMesh *mesh;
  float (*centroid)[3];
  guint *order; /* triangles, reordered so that each node's are together */
  BuildNode *nodes;
  guint n_nodes;
} Build;

static inline guint32
float_bits (float f)
{
  guint32 u;
  memcpy (&u, &f, sizeof u);
  return u;
}

static inline float
bits_float (guint32 u)
{
  float f;
  memcpy (&f, &u, sizeof f);
  return f;
}

static const float *
vertex (const WgHullMesh *m, guint t, int c)
{
  return m->vertices + 3 * (gsize) m->triangles[3 * (gsize) t + c];
}

/* Whether triangle @x's centroid is before @y's along @axis (ties by
 * index: a strict order, the same hierarchy every time). */
static inline gboolean
before (const Build *b, guint x, guint y, int axis)
{
  const float cx = b->centroid[x][axis], cy = b->centroid[y][axis];
  return cx < cy || (cx == cy && x < y);
}

static inline void
swap (guint *v, gint i, gint j)
{
  const guint t = v[i];
  v[i] = v[j];
  v[j] = t;
}

/* Reorders @v[0, @n) so that its @k-th is in place, those before it
 * before it (quickselect). The pivot is drawn by a xorshift generator
 * seeded from @n and @k: the same hierarchy every time, and no triangle
 * order (meshes often run out and back along an axis) makes it quadratic
 * but by chance. */
static void
select_kth (const Build *b, guint *v, gint n, gint k, int axis)
{
  gint lo = 0, hi = n - 1;
  guint32 draw = ((guint32) n * 2654435761u) ^ ((guint32) k + 0x9e3779b9u);
  while (lo < hi)
    {
      draw ^= draw << 13;
      draw ^= draw >> 17;
      draw ^= draw << 5;
      swap (v, lo + (gint) (draw % (guint32) (hi - lo + 1)), hi);
      const guint pivot = v[hi];
      gint store = lo;
      for (gint i = lo; i < hi; i++)
        if (before (b, v[i], pivot, axis))
          swap (v, i, store++);
      swap (v, store, hi);
      if (k == store)
        return;
      if (k < store)
        hi = store - 1;
      else
        lo = store + 1;
    }
}

/* Node @node over triangles @order[@first, @first + @count): a leaf, or two
 * children split at the median centroid along the widest axis of the
 * centroids. */
static void
build_node (Build *b, guint node, guint first, guint count, guint depth)
{
  float clo[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, chi[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
  BuildNode *n = &b->nodes[node];
  for (int c = 0; c < 3; c++)
    n->lo[c] = FLT_MAX, n->hi[c] = -FLT_MAX;
  for (guint k = first; k < first + count; k++)
    for (int c = 0; c < 3; c++)
      {
        for (int v = 0; v < 3; v++)
          {
            n->lo[c] = fminf (n->lo[c], vertex (b->mesh, b->order[k], v)[c]);
            n->hi[c] = fmaxf (n->hi[c], vertex (b->mesh, b->order[k], v)[c]);
          }
        clo[c] = fminf (clo[c], b->centroid[b->order[k]][c]);
        chi[c] = fmaxf (chi[c], b->centroid[b->order[k]][c]);
      }
  int axis = 0;
  for (int c = 1; c < 3; c++)
    if (chi[c] - clo[c] > chi[axis] - clo[axis])
      axis = c;
  if (count <= LEAF_TRIANGLES || depth >= MAX_DEPTH || !(chi[axis] > clo[axis]))
    {
      n->a = first;
      n->count = count;
      return;
    }
  const guint half = count / 2, child = b->n_nodes;
  b->n_nodes += 2;
  select_kth (b, b->order + first, (gint) count, (gint) half, axis);
  n->a = child;
  n->count = 0;
  build_node (b, child, first, half, depth + 1);
  build_node (b, child + 1, first + half, count - half, depth + 1);
}

static guint
position_hash (gconstpointer p)
{
  const float *v = p;
  guint h = 5381;
  for (int c = 0; c < 3; c++)
    h = h * 33 + float_bits (v[c] + 0.0f);
  return h;
}

static gboolean
position_equal (gconstpointer a, gconstpointer b)
{
  const float *u = a, *v = b;
  return u[0] == v[0] && u[1] == v[1] && u[2] == v[2];
}

/* @m's vertices at one position made one (a mesh's vertices are often split
 * where its texture coordinates are): each vertex's first at its position. */
static guint *
weld (const WgHullMesh *m)
{
  guint *first = g_new (guint, MAX (m->n_vertices, 1));
  g_autoptr (GHashTable) seen = g_hash_table_new (position_hash, position_equal);
  for (guint v = 0; v < m->n_vertices; v++)
    {
      const float *p = m->vertices + 3 * (gsize) v;
      gpointer at;
      if (g_hash_table_lookup_extended (seen, p, NULL, &at))
        first[v] = GPOINTER_TO_UINT (at);
      else
        {
          g_hash_table_insert (seen, (gpointer) p, GUINT_TO_POINTER (v));
          first[v] = v;
        }
    }
  return first;
}

/* The shading normal of each corner of @m's triangles into @out (unit;
 * see the top of the file), in double. */
static void
corner_normals (const WgHullMesh *m, float (*out)[3][3])
{
  const guint n = m->n_triangles, nv = m->n_vertices;
  g_autofree guint *first = weld (m);
  double (*face)[3] = g_malloc_n (MAX (n, 1), sizeof (double[3]));
  double *length = g_new (double, MAX (n, 1));
  guint *start = g_new0 (guint, nv + 1), *at = g_new (guint, 3 * (gsize) MAX (n, 1));
  for (guint t = 0; t < n; t++)
    {
      double a[3], b[3];
      for (int c = 0; c < 3; c++)
        {
          a[c] = (double) vertex (m, t, 1)[c] - vertex (m, t, 0)[c];
          b[c] = (double) vertex (m, t, 2)[c] - vertex (m, t, 0)[c];
        }
      face[t][0] = a[1] * b[2] - a[2] * b[1];
      face[t][1] = a[2] * b[0] - a[0] * b[2];
      face[t][2] = a[0] * b[1] - a[1] * b[0];
      length[t] = sqrt (face[t][0] * face[t][0] + face[t][1] * face[t][1] +
                        face[t][2] * face[t][2]);
      for (int c = 0; c < 3; c++)
        start[first[m->triangles[3 * (gsize) t + c]] + 1]++;
    }
  /* The triangles at each position, in triangle order. */
  for (guint v = 0; v < nv; v++)
    start[v + 1] += start[v];
  g_autofree guint *fill = g_memdup2 (start, nv * sizeof (guint));
  for (guint t = 0; t < n; t++)
    for (int c = 0; c < 3; c++)
      at[fill[first[m->triangles[3 * (gsize) t + c]]]++] = t;
  for (guint t = 0; t < n; t++)
    for (int c = 0; c < 3; c++)
      {
        const guint v = first[m->triangles[3 * (gsize) t + c]];
        double sum[3] = { 0, 0, 0 };
        /* A point shared by very many faces (a fan's hub) keeps the face's
         * own normal: every corner there would try every face. */
        const guint end = start[v + 1] - start[v] > MAX_SMOOTH_FACES ? start[v] : start[v + 1];
        if (end == start[v])
          for (int i = 0; i < 3; i++)
            sum[i] = face[t][i];
        for (guint k = start[v]; k < end; k++)
          {
            const double *f = face[at[k]];
            if (f[0] * face[t][0] + f[1] * face[t][1] + f[2] * face[t][2] >=
                CREASE_COS * length[at[k]] * length[t])
              for (int i = 0; i < 3; i++)
                sum[i] += f[i];
          }
        double l = sqrt (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
        /* A face of no area, never hit: any unit normal. */
        if (!(l > 0))
          sum[0] = sum[1] = 0, sum[2] = l = 1;
        for (int i = 0; i < 3; i++)
          out[t][c][i] = (float) (sum[i] / l);
      }
  g_free (face);
  g_free (length);
  g_free (start);
  g_free (at);
}

/* @mesh's hierarchy and triangles into @block's words. */
static void
build_bvh (const WgHullMesh *mesh, MeshBvh *block)
{
  const guint n = mesh->n_triangles;
  Build b = { .mesh = mesh,
              .centroid = g_malloc_n (MAX (n, 1), sizeof (float[3])),
              .order = g_new (guint, MAX (n, 1)),
              /* A binary tree of leaves of ≥ 1 triangle. */
              .nodes = g_new (BuildNode, 2 * (gsize) MAX (n, 1)),
              .n_nodes = 1 };
  for (guint t = 0; t < n; t++)
    {
      b.order[t] = t;
      for (int c = 0; c < 3; c++)
        b.centroid[t][c] =
          (vertex (mesh, t, 0)[c] + vertex (mesh, t, 1)[c] + vertex (mesh, t, 2)[c]) / 3.0f;
    }
  build_node (&b, 0, 0, n, 0);
  float (*normals)[3][3] = g_malloc_n (MAX (n, 1), sizeof (float[3][3]));
  corner_normals (mesh, normals);
  const guint tri0 = 2 * b.n_nodes;
  block->n_node_words = tri0;
  block->n_words = tri0 + TRIANGLE_WORDS * n;
  block->words = g_malloc0_n (block->n_words, sizeof (guint32[4]));
  for (guint k = 0; k < b.n_nodes; k++)
    {
      const BuildNode *node = &b.nodes[k];
      for (int c = 0; c < 3; c++)
        {
          block->words[2 * k][c] = float_bits (node->lo[c]);
          block->words[2 * k + 1][c] = float_bits (node->hi[c]);
        }
      block->words[2 * k][3] = node->count ? tri0 + TRIANGLE_WORDS * node->a : 2 * node->a;
      block->words[2 * k + 1][3] = node->count;
    }
  for (guint k = 0; k < n; k++)
    {
      const float *v0 = vertex (mesh, b.order[k], 0), *v1 = vertex (mesh, b.order[k], 1),
                  *v2 = vertex (mesh, b.order[k], 2);
      guint32 (*w)[4] = block->words + tri0 + TRIANGLE_WORDS * k;
      for (int c = 0; c < 3; c++)
        {
          w[0][c] = float_bits (v0[c]);
          w[1][c] = float_bits (v1[c] - v0[c]);
          w[2][c] = float_bits (v2[c] - v0[c]);
          for (int corner = 0; corner < 3; corner++)
            w[3 + corner][c] = float_bits (normals[b.order[k]][corner][c]);
        }
    }
  g_free (normals);
  float r2 = 0.0f;
  for (guint v = 0; v < mesh->n_vertices; v++)
    {
      const float *p = mesh->vertices + 3 * (gsize) v;
      r2 = fmaxf (r2, p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    }
  block->bound = sqrtf (r2);
  g_free (b.centroid);
  g_free (b.order);
  g_free (b.nodes);
}

static GMutex bvh_lock;
static GHashTable *bvh_table; /* serial → MeshBvh, those counted */
static guint64 bvh_builds;

WgShadeMesh *
wg_shade_mesh_prepare (const WgHullMesh *mesh)
{
  g_return_val_if_fail (mesh != NULL, NULL);
  MeshBvh *bvh = NULL, *built = NULL;
  for (;;)
    {
      g_mutex_lock (&bvh_lock);
      if (bvh_table == NULL)
        bvh_table = g_hash_table_new (g_int64_hash, g_int64_equal);
      bvh = g_hash_table_lookup (bvh_table, &mesh->serial);
      if (bvh == NULL && built)
        {
          bvh = built;
          built = NULL;
          g_hash_table_insert (bvh_table, &bvh->serial, bvh);
          bvh_builds++;
        }
      if (bvh)
        bvh->refs++;
      g_mutex_unlock (&bvh_lock);
      if (bvh)
        break;
      /* Built outside the lock (a large mesh takes a second): another
       * thread may build the same meanwhile, and one of the two is kept. */
      built = g_new0 (MeshBvh, 1);
      built->serial = mesh->serial;
      build_bvh (mesh, built);
    }
  if (built)
    {
      g_free (built->words);
      g_free (built);
    }
  return bvh;
}

void
wg_shade_mesh_unprepare (WgShadeMesh *b)
{
  if (b == NULL)
    return;
  g_mutex_lock (&bvh_lock);
  const gboolean last = --b->refs == 0;
  if (last)
    g_hash_table_remove (bvh_table, &b->serial);
  g_mutex_unlock (&bvh_lock);
  if (last)
    {
      g_free (b->words);
      g_free (b);
    }
}

guint64
wg_shade_mesh_bvh_builds (void)
{
  g_mutex_lock (&bvh_lock);
  const guint64 n = bvh_builds;
  g_mutex_unlock (&bvh_lock);
  return n;
}

static void
block_free (gpointer data)
{
  MeshBlock *block = data;
  wg_shade_mesh_unprepare (block->bvh);
  g_free (block);
}

static MeshBlock *
find_block (const WgShadeHulls *list, guint64 serial)
{
  for (guint k = 0; list->blocks && k < list->blocks->len; k++)
    {
      MeshBlock *block = g_ptr_array_index (list->blocks, k);
      if (block->bvh->serial == serial)
        return block;
    }
  return NULL;
}

/* The mesh of @body through @lookup, when it has one with triangles. */
static const WgHullMesh *
body_mesh (const WgBody *body, WgHullMeshFunc lookup, gpointer data)
{
  if (body->shape != WG_BODY_SHAPE_MESH || body->mesh == 0 || lookup == NULL)
    return NULL;
  const WgHullMesh *mesh = lookup (data, body->mesh);
  return mesh && mesh->n_triangles > 0 ? mesh : NULL;
}

void
wg_shade_meshes_gather (WgShadeHulls *list, const WgBodySet *set, WgHullMeshFunc lookup,
                        gpointer data)
{
  if (list->blocks == NULL)
    list->blocks = g_ptr_array_new_with_free_func (block_free);
  for (guint k = 0; k < list->blocks->len; k++)
    ((MeshBlock *) g_ptr_array_index (list->blocks, k))->used = FALSE;
  gboolean changed = FALSE;
  for (guint b = 0; b < set->count; b++)
    {
      const WgHullMesh *mesh = body_mesh (&set->bodies[b], lookup, data);
      if (mesh == NULL)
        continue;
      MeshBlock *block = find_block (list, mesh->serial);
      if (block == NULL)
        {
          block = g_new0 (MeshBlock, 1);
          block->bvh = wg_shade_mesh_prepare (mesh);
          g_ptr_array_add (list->blocks, block);
          changed = TRUE;
        }
      block->used = TRUE;
    }
  for (guint k = list->blocks->len; k-- > 0;)
    if (!((MeshBlock *) g_ptr_array_index (list->blocks, k))->used)
      {
        g_ptr_array_remove_index (list->blocks, k);
        changed = TRUE;
      }
  if (!changed)
    return;
  /* The blocks one after another, their indices moved by where each starts. */
  guint n = 0;
  for (guint k = 0; k < list->blocks->len; k++)
    n += ((MeshBlock *) g_ptr_array_index (list->blocks, k))->bvh->n_words;
  g_free (list->mesh);
  list->mesh = g_malloc_n (MAX (n, 1), sizeof (guint32[4]));
  list->n_mesh = 0;
  for (guint k = 0; k < list->blocks->len; k++)
    {
      MeshBlock *block = g_ptr_array_index (list->blocks, k);
      const MeshBvh *bvh = block->bvh;
      block->base = list->n_mesh;
      memcpy (list->mesh + block->base, bvh->words, bvh->n_words * sizeof *bvh->words);
      for (guint w = 0; w < bvh->n_node_words; w += 2)
        list->mesh[block->base + w][3] += block->base;
      list->n_mesh += bvh->n_words;
    }
  list->mesh_stamp++;
}

gboolean
wg_shade_mesh_place (const WgShadeHulls *list, const WgBody *body, WgHullMeshFunc lookup,
                     gpointer data, float *root, float *bound)
{
  const WgHullMesh *mesh = body_mesh (body, lookup, data);
  const MeshBlock *block = mesh ? find_block (list, mesh->serial) : NULL;
  /* The root's index as a float (WgShadeHull.a) is exact below 2^24. */
  if (block == NULL || block->base >= (1u << 24))
    return FALSE;
  *root = (float) block->base;
  *bound = block->bvh->bound;
  return TRUE;
}

void
wg_shade_meshes_clear (WgShadeHulls *list)
{
  g_clear_pointer (&list->blocks, g_ptr_array_unref);
  g_clear_pointer (&list->mesh, g_free);
  list->n_mesh = 0;
}

static inline void
word_xyz (const guint32 w[4], float v[3])
{
  for (int c = 0; c < 3; c++)
    v[c] = bits_float (w[c]);
}

/* GLSL wg_triangle_entry(): the distance along @d from @o to the triangle
 * of words @t (Möller and Trumbore 1997), its front face only (seen from
 * outside: an eye inside the hull sees none), or −1; the hit's barycentric
 * coordinates of v1 and v2 in @uv. */
static float
triangle_entry (const guint32 (*t)[4], const float o[3], const float d[3], float uv[2])
{
  float v0[3], e1[3], e2[3], p[3], s[3], q[3];
  word_xyz (t[0], v0);
  word_xyz (t[1], e1);
  word_xyz (t[2], e2);
  wg_shade_cross (d, e2, p);
  float det = wg_shade_dot (e1, p);
  if (!(det > 0.0f))
    return -1.0f;
  float inv = 1.0f / det;
  for (int c = 0; c < 3; c++)
    s[c] = o[c] - v0[c];
  float u = wg_shade_dot (s, p) * inv;
  if (u < 0.0f || u > 1.0f)
    return -1.0f;
  wg_shade_cross (s, e1, q);
  float v = wg_shade_dot (d, q) * inv;
  if (v < 0.0f || u + v > 1.0f)
    return -1.0f;
  float t_hit = wg_shade_dot (e2, q) * inv;
  uv[0] = u;
  uv[1] = v;
  return t_hit > 0.0f ? t_hit : -1.0f;
}

float
wg_shade_mesh_entry (const guint32 (*mesh)[4], guint root, const float o[3], const float d[3],
                     float n[3])
{
  float inv[3];
  for (int c = 0; c < 3; c++)
    inv[c] = 1.0f / (fabsf (d[c]) > 1e-12f ? d[c] : (d[c] < 0.0f ? -1e-12f : 1e-12f));
  float best = -1.0f, best_uv[2] = { 0.0f, 0.0f };
  guint hit = 0;
  guint stack[WG_SHADE_MESH_STACK];
  guint sp = 0, node = root;
  for (;;)
    {
      float lo[3], hi[3];
      word_xyz (mesh[node], lo);
      word_xyz (mesh[node + 1], hi);
      float near = -FLT_MAX, far = FLT_MAX;
      for (int c = 0; c < 3; c++)
        {
          float t1 = (lo[c] - o[c]) * inv[c], t2 = (hi[c] - o[c]) * inv[c];
          near = fmaxf (near, fminf (t1, t2));
          far = fminf (far, fmaxf (t1, t2));
        }
      if (near <= far && far > 0.0f && (best < 0.0f || near < best))
        {
          const guint a = mesh[node][3], count = mesh[node + 1][3];
          if (count == 0)
            {
              stack[sp++] = a + 2;
              node = a;
              continue;
            }
          for (guint k = 0; k < count; k++)
            {
              float uv[2];
              float t = triangle_entry (mesh + a + TRIANGLE_WORDS * k, o, d, uv);
              if (t > 0.0f && (best < 0.0f || t < best))
                {
                  best = t;
                  hit = a + TRIANGLE_WORDS * k;
                  best_uv[0] = uv[0];
                  best_uv[1] = uv[1];
                }
            }
        }
      if (sp == 0)
        break;
      node = stack[--sp];
    }
  if (best > 0.0f)
    {
      /* The corners' normals interpolated at the hit. */
      float n0[3], n1[3], n2[3];
      word_xyz (mesh[hit + 3], n0);
      word_xyz (mesh[hit + 4], n1);
      word_xyz (mesh[hit + 5], n2);
      const float w0 = 1.0f - best_uv[0] - best_uv[1];
      for (int c = 0; c < 3; c++)
        n[c] = n0[c] * w0 + n1[c] * best_uv[0] + n2[c] * best_uv[1];
      float l = sqrtf (wg_shade_dot (n, n));
      for (int c = 0; c < 3; c++)
        n[c] = n[c] / l;
    }
  return best;
}
