/* wg-export-gltf.c — the package's water.glb: glTF 2.0 binary with a
 * flat mesh of one patch, a PBR water material whose normal map is frame 0
 * (tangent space, 8 bit, embedded) and, in the material's extras, the
 * animation a game plays over it (docs/export.md). Axes: glTF is y-up, so
 * wavegraph's (x, y, z) becomes glTF's (x, z, −y), in metres. */
#include "wg-export-private.h"
#include "wg-image-io.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>

/* Quads per side of the mesh at most: the texture carries the detail, the
 * mesh only needs vertices enough for a vertex shader's displacement. */
#define MAX_QUADS 128

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

#define GL_FLOAT 5126
#define GL_UNSIGNED_INT 5125
#define GL_ARRAY_BUFFER 34962
#define GL_ELEMENT_ARRAY_BUFFER 34963
#define GL_LINEAR 9729
#define GL_LINEAR_MIPMAP_LINEAR 9987
#define GL_REPEAT 10497

typedef struct {
  gsize offset, length;
  int target; /* 0: none (the image) */
} View;

typedef struct {
  int component_type;
  guint count;
  const char *type;
  guint n_bounds; /* components with min and max (0: none) */
  double min[3], max[3];
} Accessor;

/* The BIN chunk being filled: every view starts on 4 bytes, as glTF asks
 * for the accessors' floats and indices. Accessor i reads view i. */
typedef struct {
  GByteArray *bin;
  View views[6];
  Accessor accessors[5];
  guint n_views;
} Bin;

static guint
add_view (Bin *b, const void *data, gsize length, int target)
{
  static const guint8 zeros[3] = { 0 };
  g_byte_array_append (b->bin, zeros, (4 - b->bin->len % 4) % 4);
  View *v = &b->views[b->n_views];
  v->offset = b->bin->len;
  v->length = length;
  v->target = target;
  g_byte_array_append (b->bin, data, length);
  return b->n_views++;
}

/* Adds @count floats of @n components each as a vertex attribute; the
 * first @n_bounds components get min and max (of the floats as stored). */
static void
add_floats (Bin *b, const float *data, guint count, guint n, const char *type, guint n_bounds)
{
  Accessor *a = &b->accessors[b->n_views];
  *a = (Accessor) { GL_FLOAT, count, type, n_bounds, { 0 }, { 0 } };
  for (guint c = 0; c < n_bounds; c++)
    {
      a->min[c] = INFINITY;
      a->max[c] = -INFINITY;
      for (guint i = 0; i < count; i++)
        {
          a->min[c] = MIN (a->min[c], data[(gsize) i * n + c]);
          a->max[c] = MAX (a->max[c], data[(gsize) i * n + c]);
        }
    }
  add_view (b, data, (gsize) count * n * sizeof (float), GL_ARRAY_BUFFER);
}

/* A grid of @nq × @nq quads over the @lx × @ly m patch, at rest (flat):
 * positions, normals (up), tangents, texture coordinates (0 … 1 over the
 * patch, v along wavegraph's +y as the textures' rows are) and two
 * counter-clockwise triangles (seen from above) per quad. The tangent is
 * +x with w = −1: v runs down the image, so the image's "up" (tangent-space
 * +y) is wavegraph's −y, as MikkTSpace would derive from these coordinates. */
static void
add_mesh (Bin *b, guint nq, double lx, double ly)
{
  guint side = nq + 1, nv = side * side;
  g_autofree float *pos = g_new (float, (gsize) nv * 3);
  g_autofree float *nrm = g_new (float, (gsize) nv * 3);
  g_autofree float *tan = g_new (float, (gsize) nv * 4);
  g_autofree float *uv = g_new (float, (gsize) nv * 2);
  g_autofree guint32 *idx = g_new (guint32, (gsize) nq * nq * 6);
  for (guint j = 0; j < side; j++)
    for (guint i = 0; i < side; i++)
      {
        gsize v = (gsize) j * side + i;
        pos[v * 3] = (float) (lx * i / nq);
        pos[v * 3 + 1] = 0;
        /* j = 0 gives +0, not −0, so the bounds read 0. */
        pos[v * 3 + 2] = j ? (float) (-ly * j / nq) : 0.0f;
        nrm[v * 3] = nrm[v * 3 + 2] = 0;
        nrm[v * 3 + 1] = 1;
        tan[v * 4] = 1;
        tan[v * 4 + 1] = tan[v * 4 + 2] = 0;
        tan[v * 4 + 3] = -1;
        uv[v * 2] = (float) i / nq;
        uv[v * 2 + 1] = (float) j / nq;
      }
  guint32 *t = idx;
  for (guint j = 0; j < nq; j++)
    for (guint i = 0; i < nq; i++)
      {
        guint32 a = j * side + i, c = a + side;
        guint32 quad[6] = { a, a + 1, c, a + 1, c + 1, c };
        memcpy (t, quad, sizeof quad);
        t += 6;
      }
  add_floats (b, pos, nv, 3, "VEC3", 3);
  add_floats (b, nrm, nv, 3, "VEC3", 0);
  add_floats (b, tan, nv, 4, "VEC4", 0);
  add_floats (b, uv, nv, 2, "VEC2", 0);
  b->accessors[b->n_views] = (Accessor) { GL_UNSIGNED_INT, nq * nq * 6, "SCALAR", 0, { 0 }, { 0 } };
  add_view (b, idx, (gsize) nq * nq * 6 * sizeof (guint32), GL_ELEMENT_ARRAY_BUFFER);
}

/* Writes frame 0's normals (normal_foam's RGB, world space, z up) as
 * @path, an 8-bit RGB PNG in glTF's tangent space of add_mesh()'s flat
 * patch: (nx, −ny, nz), from [−1, 1] to codes 0 … 255, linear. */
static gboolean
write_normal_png (const Export *ex, const char *path, GError **error)
{
  gsize n = (gsize) ex->w * ex->h;
  const float *nf = ex->maps[1].frame0;
  g_autofree guint16 *codes = g_new (guint16, n * 3);
  for (gsize p = 0; p < n; p++)
    for (guint c = 0; c < 3; c++)
      {
        /* The map holds 0.5 n + 0.5; tangent-space y is −y (see add_mesh). */
        double v = c == 1 ? 1.0 - nf[p * 4 + c] : nf[p * 4 + c];
        codes[p * 3 + c] = (guint16) lround (CLAMP (v, 0.0, 1.0) * 255.0);
      }
  return wg_png_write_codes_at (AT_FDCWD, path, ex->w, ex->h, 3, 8, codes, FALSE, error);
}

static void
add_pair (JsonBuilder *b, const char *name, double x, double y)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  json_builder_add_double_value (b, x);
  json_builder_add_double_value (b, y);
  json_builder_end_array (b);
}

/* @m's file names, atlas grid and value range per channel (in its units). */
static void
add_map_extras (JsonBuilder *b, const Export *ex, const Map *m, const char *frames,
                const char *atlas, const char *layout, double scale, double offset)
{
  begin_map (b, m->name, frames, atlas, layout);
  add_int (b, "atlas_columns", ex->cols);
  add_int (b, "atlas_rows", ex->rows);
  add_int (b, "atlas_tile_width", ex->tw);
  add_int (b, "atlas_tile_height", ex->th);
  for (guint k = 0; k < 2; k++)
    {
      json_builder_set_member_name (b, k ? "max" : "min");
      json_builder_begin_array (b);
      for (guint c = 0; c < m->channels; c++)
        json_builder_add_double_value (b, (k ? m->range.max[c] : m->range.min[c]) * scale + offset);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

/* The material's extras.wavegraph: what animates the water. */
static void
add_extras (JsonBuilder *b, const Export *ex, const WgSettings *s)
{
  json_builder_set_member_name (b, "extras");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "wavegraph");
  json_builder_begin_object (b);
  add_string (b, "manifest", "manifest.json");
  add_pair (b, "patch_size_m", s->extent[0], s->extent[1]);
  add_string (b, "axes", "glTF (x, y, z) = wavegraph (x, z, -y), metres; texture u along +x, "
                         "v along wavegraph +y (glTF -z), one patch per 0..1, REPEAT");
  add_int (b, "frame_count", ex->n_frames);
  add_double (b, "frame_rate", ex->fps);
  add_double (b, "first_time_s", ex->t0);
  add_double (b, "loop_period_s", ex->loops ? ex->n_frames / ex->fps : 0);
  json_builder_set_member_name (b, "seamless_loop");
  json_builder_add_boolean_value (b, ex->loops);
  add_string (b, "displacement_channels", "R = dx along wavegraph +x (glTF +x), G = dy along "
                                          "wavegraph +y (glTF -z), B = dz up (glTF +y), metres");
  add_string (b, "normal_foam_channels", "RGB = world normal (wavegraph axes) * 0.5 + 0.5, "
                                         "A = foam coverage");
  add_map_extras (b, ex, &ex->maps[0], DISP_FRAMES, DISP_ATLAS, DISP_LAYOUT, 1, 0);
  add_map_extras (b, ex, &ex->maps[1], NF_FRAMES, NF_ATLAS, NF_LAYOUT, 2, -1);
  add_string (b, "normal_texture", "water-normal.png (embedded): frame 0, tangent space of "
                                   "this mesh, 8 bit");
  json_builder_end_object (b);
  json_builder_end_object (b);
}

/* Opens member @member, an array, and its one object, named @name. */
static void
begin_one (JsonBuilder *b, const char *member, const char *name)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_string (b, "name", name);
}

static void
end_one (JsonBuilder *b)
{
  json_builder_end_object (b);
  json_builder_end_array (b);
}

static void
add_material (JsonBuilder *b, const Export *ex, const WgSettings *s)
{
  begin_one (b, "materials", "water");
  json_builder_set_member_name (b, "pbrMetallicRoughness");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "baseColorFactor");
  json_builder_begin_array (b);
  /* Deep sea water's colour: what the sea shows under the reflections. */
  static const double water[4] = { 0.02, 0.08, 0.11, 1.0 };
  for (guint c = 0; c < 4; c++)
    json_builder_add_double_value (b, water[c]);
  json_builder_end_array (b);
  add_double (b, "metallicFactor", 0);
  add_double (b, "roughnessFactor", 0.05);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "normalTexture");
  json_builder_begin_object (b);
  add_int (b, "index", 0);
  json_builder_end_object (b);
  add_extras (b, ex, s);
  end_one (b);
}

/* One object with integer members @names = @values, as an array's element. */
static void
add_object (JsonBuilder *b, const char *const *names, const gint64 *values, guint n)
{
  json_builder_begin_object (b);
  for (guint i = 0; i < n; i++)
    add_int (b, names[i], values[i]);
  json_builder_end_object (b);
}

static void
add_bin_json (JsonBuilder *b, const Bin *bin)
{
  json_builder_set_member_name (b, "buffers");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_int (b, "byteLength", bin->bin->len);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "bufferViews");
  json_builder_begin_array (b);
  static const char *const view_keys[] = { "buffer", "byteOffset", "byteLength", "target" };
  for (guint i = 0; i < bin->n_views; i++)
    {
      const View *v = &bin->views[i];
      gint64 values[] = { 0, v->offset, v->length, v->target };
      add_object (b, view_keys, values, v->target ? 4 : 3);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "accessors");
  json_builder_begin_array (b);
  for (guint i = 0; i + 1 < bin->n_views; i++)
    {
      const Accessor *a = &bin->accessors[i];
      json_builder_begin_object (b);
      add_int (b, "bufferView", i);
      add_int (b, "componentType", a->component_type);
      add_int (b, "count", a->count);
      add_string (b, "type", a->type);
      for (guint k = 0; k < 2 && a->n_bounds; k++)
        {
          json_builder_set_member_name (b, k ? "max" : "min");
          json_builder_begin_array (b);
          for (guint c = 0; c < a->n_bounds; c++)
            json_builder_add_double_value (b, k ? a->max[c] : a->min[c]);
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The glTF document: scene → node → mesh (accessors 0 … 4 of add_mesh())
 * → material → texture → image (view 5), sampler. */
static JsonNode *
build_json (const Export *ex, const WgSettings *s, const Bin *bin)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "asset");
  json_builder_begin_object (b);
  add_string (b, "version", "2.0");
  add_string (b, "generator", "wavegraph " WG_VERSION);
  json_builder_end_object (b);
  add_int (b, "scene", 0);
  begin_one (b, "scenes", "water");
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, 0);
  json_builder_end_array (b);
  end_one (b);
  begin_one (b, "nodes", "water");
  add_int (b, "mesh", 0);
  end_one (b);
  begin_one (b, "meshes", "water");
  json_builder_set_member_name (b, "primitives");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "attributes");
  static const char *const attributes[] = { "POSITION", "NORMAL", "TANGENT", "TEXCOORD_0" };
  static const gint64 attribute_accessors[] = { 0, 1, 2, 3 };
  add_object (b, attributes, attribute_accessors, 4);
  add_int (b, "indices", 4);
  add_int (b, "material", 0);
  end_one (b);
  end_one (b);
  add_material (b, ex, s);
  json_builder_set_member_name (b, "textures");
  json_builder_begin_array (b);
  static const char *const texture_keys[] = { "sampler", "source" };
  static const gint64 texture_values[] = { 0, 0 };
  add_object (b, texture_keys, texture_values, 2);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "samplers");
  json_builder_begin_array (b);
  static const char *const sampler_keys[] = { "magFilter", "minFilter", "wrapS", "wrapT" };
  static const gint64 sampler_values[] = { GL_LINEAR, GL_LINEAR_MIPMAP_LINEAR, GL_REPEAT, GL_REPEAT };
  add_object (b, sampler_keys, sampler_values, 4);
  json_builder_end_array (b);
  begin_one (b, "images", "water-normal");
  add_int (b, "bufferView", 5);
  add_string (b, "mimeType", "image/png");
  end_one (b);
  add_bin_json (b, bin);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
append_chunk (GByteArray *glb, guint32 type, const void *data, gsize len, guint8 pad)
{
  guint32 padded = (guint32) ((len + 3) & ~(gsize) 3);
  guint32 head[2] = { GUINT32_TO_LE (padded), GUINT32_TO_LE (type) };
  g_byte_array_append (glb, (const guint8 *) head, sizeof head);
  g_byte_array_append (glb, data, len);
  for (gsize i = len; i < padded; i++)
    g_byte_array_append (glb, &pad, 1);
}

gboolean
wg_export_write_gltf (const Export *ex, const WgGraph *graph, const char *tmp, GError **error)
{
  const WgSettings *s = wg_graph_get_settings (graph);
  g_autofree char *png_path = g_build_filename (tmp, "water-normal.png", NULL);
  g_autofree char *png = NULL;
  gsize png_len;
  if (!write_normal_png (ex, png_path, error) ||
      !g_file_get_contents (png_path, &png, &png_len, error))
    return FALSE;

  g_autoptr (GByteArray) data = g_byte_array_new ();
  Bin bin = { data, { { 0 } }, { { 0 } }, 0 };
  add_mesh (&bin, MIN (MIN (ex->w, ex->h), MAX_QUADS), s->extent[0], s->extent[1]);
  add_view (&bin, png, png_len, 0);
  static const guint8 zeros[3] = { 0 };
  g_byte_array_append (data, zeros, (4 - data->len % 4) % 4);

  g_autoptr (JsonNode) root = build_json (ex, s, &bin);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, root);
  gsize json_len;
  g_autofree char *json = json_generator_to_data (gen, &json_len);

  g_autoptr (GByteArray) glb = g_byte_array_new ();
  guint32 head[3] = { GUINT32_TO_LE (GLB_MAGIC), GUINT32_TO_LE (2), 0 };
  g_byte_array_append (glb, (const guint8 *) head, sizeof head);
  append_chunk (glb, GLB_CHUNK_JSON, json, json_len, ' ');
  append_chunk (glb, GLB_CHUNK_BIN, data->data, data->len, 0);
  guint32 total = GUINT32_TO_LE (glb->len);
  memcpy (glb->data + 8, &total, sizeof total);
  g_autofree char *path = g_build_filename (tmp, "water.glb", NULL);
  return wg_write_file_atomic (path, glb->data, glb->len, error);
}
