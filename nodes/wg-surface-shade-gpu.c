/* wg-surface-shade-gpu.c — the surface-shade node's GPU path: papers/003
 * (Belyaev 2003) §5.1's LOD mesh rasterised (shaders/surface-shade.vert,
 * .frag). Square blocks of WG_SHADE_BLOCK² quads around the camera, the
 * vertex step doubling from one ring of blocks to the next, the blocks
 * culled by the view frustum and drawn front to back; the whole mesh moves
 * in steps of its coarsest level's step (wg_shade_lod()) so the surface does
 * not swim under a moving camera, "a rabbit inside a boa". Odd vertices on a
 * side that meets the coarser ring sit on the coarser edge (no cracks), and
 * a flat skirt carries the calm sea from the mesh's edge, beyond the detail
 * distance, to the horizon. The node renders into its own float
 * framebuffer with reversed depth and reads it into the output image's
 * storage buffer, row 0 at the top; a host (the editor's viewport) renders
 * the same into its own framebuffer (wg-shade-renderer.c). */
#include "wg-surface-shade.h"
#include "wg-gpu-kernel.h"
#include "wg-shade-gl-state.h"
#include "surface-shade.h"

#include <math.h>
#include <stdlib.h>

/* The near plane (m): reversed float depth keeps the far sea exact. */
#define NEAR_PLANE 0.05

/* Level 0 is 4 × 4 blocks, each further level a ring of 12. */
#define MAX_BLOCKS (16 + 12 * (WG_SHADE_MAX_LEVELS - 1))

/* The texture units the shaders' samplers are bound to. */
enum { UNIT_SURFACE, UNIT_NORMAL, UNIT_FOAM, UNIT_SKY, UNIT_DEPTH, N_UNITS };
G_STATIC_ASSERT ((int) N_UNITS == (int) WG_SHADE_N_TEXTURES);
G_STATIC_ASSERT ((int) N_UNITS == WG_SHADE_GL_UNITS);

typedef struct {
  float block[4]; /* a_block: origin x, y and step in finest steps, stitched sides */
  float key;      /* squared distance from the eye, for the front-to-back order */
} Block;

struct _WgShadeGpu {
  WgGpuContext *gpu;
  WgGpuKernel kernel; /* the render program and its uniform block */
  WgGpuKernel hull_kernel; /* the hull pass's program (WG_SHADE_HULL_PASS) */
  GLint mode_location;
  GLuint framebuffer, colour, depth;
  GLuint vao, instances, indices;
  guint width, height;
  gboolean clip_control; /* glClipControl: depth 0 … 1, where reversed depth pays */
  Block blocks[MAX_BLOCKS];
  float upload[MAX_BLOCKS][4];
  /* Normal and foam with their mip levels (wg_shade_mip_levels()), filled
   * from the inputs' storage buffers each frame: 0 where not linked. */
  GLuint mips[2];
  guint levels;
  /* The bodies' hulls (WgShadeHull), refilled each frame: a storage buffer
   * for the fragments, instance attributes (centre, bound) for the squares. */
  GLuint hulls, hull_vao;
  WgShadeHulls hull_list;
  GLuint pieces; /* the prisms' outline pieces (WgShadeHulls.pieces) */
  GLuint meshes; /* the meshes' words (WgShadeHulls.mesh), uploaded when they change */
  guint64 mesh_stamp;
  GLint64 max_block;    /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE (bytes) */
  guint64 mesh_dropped; /* the last frame's mesh words (bytes) past it: none drawn, or 0 */
};

/* The inputs filtered through mip levels, and their textures' formats. */
static const guint mip_inputs[2] = { WG_SHADE_IN_NORMAL, WG_SHADE_IN_FOAM };
static const GLenum mip_formats[2] = { GL_RGBA32F, GL_R32F };
static const GLenum mip_layouts[2] = { GL_RGB, GL_RED };

/* The mipmapped textures of the linked normal and foam inputs. RGBA, not
 * RGB, for normals: glGenerateMipmap needs a colour-renderable format. */
static void
mips_create (WgNodeContext *ctx, WgShadeGpu *gpu)
{
  WgBuffer *surface = wg_ctx_input (ctx, WG_SHADE_IN_DISPLACEMENT);
  gpu->levels = wg_shade_mip_levels (surface->width, surface->height);
  GLint bound = 0;
  glGetIntegerv (GL_TEXTURE_BINDING_2D, &bound);
  for (int k = 0; k < 2; k++)
    {
      if (wg_ctx_input (ctx, mip_inputs[k]) == NULL)
        continue;
      glGenTextures (1, &gpu->mips[k]);
      glBindTexture (GL_TEXTURE_2D, gpu->mips[k]);
      glTexStorage2D (GL_TEXTURE_2D, (GLsizei) gpu->levels, mip_formats[k],
                      (GLsizei) surface->width, (GLsizei) surface->height);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, (GLint) gpu->levels - 1);
      wg_gpu_context_count_object (gpu->gpu);
    }
  glBindTexture (GL_TEXTURE_2D, (GLuint) bound);
}

/* This frame's normal and foam into level 0 of their textures, straight
 * from the storage buffers, and the levels below by glGenerateMipmap (the
 * 2 × 2 means the CPU path takes), bound to their units. */
static gboolean
mips_fill (WgNodeContext *ctx, WgShadeGpu *gpu, GError **error)
{
  static const GLenum unpack[] = { GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                                   GL_UNPACK_SKIP_PIXELS, GL_UNPACK_ALIGNMENT };
  GLint saved[G_N_ELEMENTS (unpack)], saved_buffer = 0;
  for (guint i = 0; i < G_N_ELEMENTS (unpack); i++)
    glGetIntegerv (unpack[i], &saved[i]);
  glGetIntegerv (GL_PIXEL_UNPACK_BUFFER_BINDING, &saved_buffer);
  for (guint i = 0; i < G_N_ELEMENTS (unpack); i++)
    glPixelStorei (unpack[i], i == 3 ? 4 : 0);
  glMemoryBarrier (GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
  gboolean ok = TRUE;
  for (int k = 0; k < 2 && ok; k++)
    {
      if (gpu->mips[k] == 0)
        continue;
      WgBuffer *b = wg_ctx_input (ctx, mip_inputs[k]);
      GLuint ssbo = wg_buffer_gpu (b, error);
      if (ssbo == 0)
        {
          ok = FALSE;
          break;
        }
      glBindBuffer (GL_PIXEL_UNPACK_BUFFER, ssbo);
      glActiveTexture (GL_TEXTURE0 + mip_inputs[k]);
      glBindTexture (GL_TEXTURE_2D, gpu->mips[k]);
      glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei) b->width, (GLsizei) b->height,
                       mip_layouts[k], GL_FLOAT, NULL);
      glGenerateMipmap (GL_TEXTURE_2D);
    }
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, (GLuint) saved_buffer);
  for (guint i = 0; i < G_N_ELEMENTS (unpack); i++)
    glPixelStorei (unpack[i], saved[i]);
  return ok;
}

void
wg_shade_lod (const WgShadeView *view, const double extent[2], const guint cells[2],
              WgShadeLod *lod)
{
  const double b = WG_SHADE_BLOCK;
  double step = MIN (extent[0] / cells[0], extent[1] / cells[1]);
  /* The eye is within half the coarsest step of the centre on each axis, so
   * the mesh's edge is at least (2B − ½) coarse steps from it. */
  double reach = MAX (view->detail_distance, 1.0) / (2.0 * b - 0.5);
  guint levels = 1;
  while (step * (double) (1u << (levels - 1)) < reach)
    {
      if (levels == WG_SHADE_MAX_LEVELS)
        step *= 2.0;
      else
        levels++;
    }
  lod->step0 = step;
  lod->levels = levels;
  lod->quantum = step * (double) (1u << (levels - 1));
  lod->half_size = 2.0 * b * lod->quantum;
  for (int k = 0; k < 2; k++)
    lod->centre[k] = round (view->eye[k] / lod->quantum) * lod->quantum;
}

/* Whether the box [lo, hi] lies wholly outside one of the view frustum's
 * planes (the four sides and the near plane). */
static gboolean
box_culled (const WgShadeView *v, const double lo[3], const double hi[3])
{
  double planes[5][3];
  for (int k = 0; k < 3; k++)
    {
      planes[0][k] = v->tan_x * v->forward[k] + v->right[k];
      planes[1][k] = v->tan_x * v->forward[k] - v->right[k];
      planes[2][k] = v->tan_y * v->forward[k] + v->up[k];
      planes[3][k] = v->tan_y * v->forward[k] - v->up[k];
      planes[4][k] = v->forward[k];
    }
  for (int p = 0; p < 5; p++)
    {
      /* The box's corner farthest along the plane's normal. */
      double d = 0;
      for (int k = 0; k < 3; k++)
        d += planes[p][k] * ((planes[p][k] > 0 ? hi[k] : lo[k]) - v->eye[k]);
      if (d < (p == 4 ? NEAR_PLANE : 0.0))
        return TRUE;
    }
  return FALSE;
}

static int
block_compare (const void *a, const void *b)
{
  float ka = ((const Block *) a)->key, kb = ((const Block *) b)->key;
  return (ka > kb) - (ka < kb);
}

/* Fills gpu->upload with the visible blocks of @lod, nearest first, and
 * returns how many. @margin (m): how far waves may move a vertex. */
static guint
blocks_visible (WgShadeGpu *gpu, const WgShadeView *view, const WgShadeLod *lod, double margin)
{
  guint n = 0;
  for (guint l = 0; l < lod->levels; l++)
    {
      double step = lod->step0 * (double) (1u << l), side = WG_SHADE_BLOCK * step;
      gboolean stitched = l + 1 < lod->levels;
      for (int a = 0; a < 4; a++)
        for (int c = 0; c < 4; c++)
          {
            if (l > 0 && (a == 1 || a == 2) && (c == 1 || c == 2))
              continue; /* level l − 1 is there */
            double x = lod->centre[0] + (a - 2) * side, y = lod->centre[1] + (c - 2) * side;
            double lo[3] = { x - margin, y - margin, -margin };
            double hi[3] = { x + side + margin, y + side + margin, margin };
            if (box_culled (view, lo, hi))
              continue;
            int mask = stitched ? (a == 0) | (a == 3) << 1 | (c == 0) << 2 | (c == 3) << 3 : 0;
            double dx = x + 0.5 * side - view->eye[0], dy = y + 0.5 * side - view->eye[1];
            float scale = (float) (1u << l), place = (float) WG_SHADE_BLOCK * scale;
            gpu->blocks[n++] = (Block){ { (a - 2) * place, (c - 2) * place, scale, (float) mask },
                                        (float) (dx * dx + dy * dy) };
          }
    }
  qsort (gpu->blocks, n, sizeof (Block), block_compare);
  for (guint i = 0; i < n; i++)
    memcpy (gpu->upload[i], gpu->blocks[i].block, sizeof gpu->upload[i]);
  return n;
}

static void
block_indices (GLushort *out)
{
  const guint n = WG_SHADE_BLOCK + 1;
  for (guint j = 0; j < WG_SHADE_BLOCK; j++)
    for (guint i = 0; i < WG_SHADE_BLOCK; i++)
      {
        GLushort a = (GLushort) (j * n + i), b = a + 1, c = a + n, d = c + 1;
        const GLushort quad[6] = { a, b, d, a, d, c };
        memcpy (out, quad, sizeof quad);
        out += 6;
      }
}

/* The fixed colour and depth buffers the node renders into. */
static gboolean
framebuffer_create (WgShadeGpu *gpu, GError **error)
{
  GLint bound_fb = 0, bound_rb = 0;
  glGetIntegerv (GL_FRAMEBUFFER_BINDING, &bound_fb);
  glGetIntegerv (GL_RENDERBUFFER_BINDING, &bound_rb);
  glGenFramebuffers (1, &gpu->framebuffer);
  glGenRenderbuffers (1, &gpu->colour);
  glGenRenderbuffers (1, &gpu->depth);
  for (int i = 0; i < 3; i++)
    wg_gpu_context_count_object (gpu->gpu);
  glBindRenderbuffer (GL_RENDERBUFFER, gpu->colour);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA32F, (GLsizei) gpu->width, (GLsizei) gpu->height);
  glBindRenderbuffer (GL_RENDERBUFFER, gpu->depth);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, (GLsizei) gpu->width,
                         (GLsizei) gpu->height);
  glBindFramebuffer (GL_FRAMEBUFFER, gpu->framebuffer);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gpu->colour);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, gpu->depth);
  GLenum status = glCheckFramebufferStatus (GL_FRAMEBUFFER);
  glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) bound_fb);
  glBindRenderbuffer (GL_RENDERBUFFER, (GLuint) bound_rb);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND,
                   "the %u×%u RGBA32F framebuffer is incomplete (status 0x%04x)", gpu->width,
                   gpu->height, status);
      return FALSE;
    }
  return TRUE;
}

WgShadeGpu *
wg_shade_gpu_new_renderer (WgGpuContext *context, GError **error)
{
  WgShadeGpu *gpu = g_new0 (WgShadeGpu, 1);
  gpu->gpu = context;
  if (!wg_gpu_kernel_init_render (&gpu->kernel, gpu->gpu, "surface-shade.vert",
                                  "surface-shade.frag", NULL, sizeof (ShadeUniforms), error))
    {
      wg_shade_gpu_free (gpu);
      return NULL;
    }
  if (!wg_gpu_kernel_init_render (&gpu->hull_kernel, gpu->gpu, "surface-shade.vert",
                                  "surface-shade.frag", "#define WG_SHADE_HULL_PASS 1\n",
                                  sizeof (ShadeUniforms), error))
    {
      wg_shade_gpu_free (gpu);
      return NULL;
    }
  gpu->mode_location = glGetUniformLocation (gpu->kernel.program, "u_mode");
  gpu->clip_control = epoxy_gl_version () >= 45 || epoxy_has_gl_extension ("GL_ARB_clip_control");
  glGetInteger64v (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &gpu->max_block);
  /* A smaller block, to see a bake as a GPU of that limit gives it. */
  const char *limit = g_getenv ("WAVEGRAPH_GPU_STORAGE_BLOCK");
  guint64 bytes;
  if (limit && g_ascii_string_to_unsigned (limit, 10, 1, G_MAXINT64, &bytes, NULL))
    gpu->max_block = MIN (gpu->max_block, (GLint64) bytes);

  GLint bound_vao = 0, bound_array = 0, bound_storage = 0;
  glGetIntegerv (GL_VERTEX_ARRAY_BINDING, &bound_vao);
  glGetIntegerv (GL_ARRAY_BUFFER_BINDING, &bound_array);
  glGetIntegerv (GL_SHADER_STORAGE_BUFFER_BINDING, &bound_storage);
  /* One block's grid of indices; the blocks are its instances. */
  glGenVertexArrays (1, &gpu->vao);
  glBindVertexArray (gpu->vao);
  glGenBuffers (1, &gpu->instances);
  glBindBuffer (GL_ARRAY_BUFFER, gpu->instances);
  glBufferData (GL_ARRAY_BUFFER, sizeof gpu->upload, NULL, GL_STREAM_DRAW);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
  glVertexAttribDivisor (0, 1);
  g_autofree GLushort *indices = g_new (GLushort, 6 * WG_SHADE_BLOCK * WG_SHADE_BLOCK);
  block_indices (indices);
  glGenBuffers (1, &gpu->hulls);
  glGenBuffers (1, &gpu->pieces);
  glGenBuffers (1, &gpu->meshes);
  /* Never empty: a binding needs a buffer with storage. */
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, gpu->meshes);
  glBufferData (GL_SHADER_STORAGE_BUFFER, sizeof (guint32[4]), NULL, GL_STATIC_DRAW);
  wg_gpu_context_count_object (gpu->gpu);
  glGenVertexArrays (1, &gpu->hull_vao);
  glBindVertexArray (gpu->hull_vao);
  glBindBuffer (GL_ARRAY_BUFFER, gpu->hulls);
  for (GLuint a = 1; a <= 2; a++)
    {
      glEnableVertexAttribArray (a);
      glVertexAttribPointer (a, 4, GL_FLOAT, GL_FALSE, sizeof (WgShadeHull),
                             (const void *) (a == 1 ? offsetof (WgShadeHull, centre)
                                                    : offsetof (WgShadeHull, a)));
      glVertexAttribDivisor (a, 1);
    }
  glBindVertexArray (gpu->vao);
  for (int i = 0; i < 2; i++)
    wg_gpu_context_count_object (gpu->gpu);
  glGenBuffers (1, &gpu->indices);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, gpu->indices);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, 6 * WG_SHADE_BLOCK * WG_SHADE_BLOCK * sizeof (GLushort),
                indices, GL_STATIC_DRAW);
  for (int i = 0; i < 3; i++)
    wg_gpu_context_count_object (gpu->gpu);
  glBindVertexArray ((GLuint) bound_vao);
  glBindBuffer (GL_ARRAY_BUFFER, (GLuint) bound_array);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, (GLuint) bound_storage);
  if (!wg_gpu_check ("surface-shade: building the mesh", error))
    {
      wg_shade_gpu_free (gpu);
      return NULL;
    }
  return gpu;
}

WgShadeGpu *
wg_shade_gpu_new (WgNodeContext *ctx, GError **error)
{
  WgShadeGpu *gpu = wg_shade_gpu_new_renderer (wg_ctx_gpu (ctx), error);
  if (gpu == NULL)
    {
      wg_ctx_prefix_error (ctx, error, -1);
      return NULL;
    }
  WgBuffer *out = wg_ctx_output (ctx, 0);
  gpu->width = out->width;
  gpu->height = out->height;
  mips_create (ctx, gpu);
  if (!framebuffer_create (gpu, error) ||
      !wg_gpu_check ("surface-shade: building the framebuffer", error))
    {
      wg_ctx_prefix_error (ctx, error, -1);
      wg_shade_gpu_free (gpu);
      return NULL;
    }
  return gpu;
}

static void
set4 (float out[4], const float xyz[3], float w)
{
  out[0] = xyz[0];
  out[1] = xyz[1];
  out[2] = xyz[2];
  out[3] = w;
}

static void
set_rgb (float out[4], WgVec3 c, float w)
{
  const float xyz[3] = { c.x, c.y, c.z };
  set4 (out, xyz, w);
}

static void
uniforms_fill (ShadeUniforms *u, const WgShadeView *v, const WgShadeLod *lod,
               const WgShadeInputs *in)
{
  const WgShadingParams *s = &v->shading;
  memset (u, 0, sizeof *u);
  set4 (u->u_eye, v->eye, (float) NEAR_PLANE);
  set4 (u->u_forward, v->forward, v->tan_x);
  set4 (u->u_right, v->right, v->tan_y);
  set4 (u->u_up, v->up, (float) lod->step0);
  set_rgb (u->u_sun, s->sun, s->sun_intensity);
  set_rgb (u->u_absorption, s->absorption, s->ior);
  set_rgb (u->u_bottom, s->bottom, s->alpha);
  set_rgb (u->u_foam_colour, s->foam, s->scattering);
  set_rgb (u->u_water, s->water, v->exposure);
  const float field[4] = { (float) in->extent[0], (float) in->extent[1], (float) in->width,
                           (float) in->height };
  memcpy (u->u_field, field, sizeof field);
  /* The skirt overlaps the mesh's outer quads (no seam to crack) and reaches
   * so far that the sea's edge is well under a pixel below the horizon. */
  const float skirt[4] = { (float) lod->centre[0], (float) lod->centre[1],
                           (float) (lod->half_size - lod->quantum),
                           (float) MAX (1e7, 1e5 * fabs ((double) v->eye[2])) };
  memcpy (u->u_skirt, skirt, sizeof skirt);
  u->u_picture[0] = (float) v->width;
  u->u_picture[1] = (float) v->height;
  u->u_crest_height = v->crest_height;
  u->u_fade_start = v->fade_start;
  u->u_detail_distance = v->detail_distance;
  u->u_haze_distance = v->haze_distance;
  u->u_max_level = (float) (wg_shade_mip_levels (in->width, in->height) - 1);
  u->u_fresnel = s->fresnel;
  u->u_tone = v->tone_mapping;
  u->u_channels = (int32_t) in->channels;
  u->u_repeat = v->repeat != FALSE;
  u->u_has_normal = in->textures[WG_SHADE_IN_NORMAL] != 0;
  u->u_has_foam = in->textures[WG_SHADE_IN_FOAM] != 0;
  u->u_has_sky = in->textures[WG_SHADE_IN_SKY] != 0;
  u->u_has_depth = in->textures[WG_SHADE_IN_DEPTH] != 0;
  u->u_encode = v->encode != FALSE;
}

/* The node's inputs as textures: normal and foam through their mip levels. */
static gboolean
inputs_get (WgNodeContext *ctx, WgShadeGpu *gpu, WgShadeInputs *in, GError **error)
{
  WgBuffer *surface = wg_ctx_input (ctx, WG_SHADE_IN_DISPLACEMENT);
  *in = (WgShadeInputs){ .width = surface->width, .height = surface->height,
                         .channels = surface->channels,
                         .extent = { surface->extent[0], surface->extent[1] } };
  for (int u = 0; u < N_UNITS; u++)
    {
      WgBuffer *b = wg_ctx_input (ctx, (guint) u);
      in->textures[u] = b ? wg_buffer_get_gl_texture (b, error) : 0;
      if (b && in->textures[u] == 0)
        return FALSE;
    }
  for (int k = 0; k < 2; k++)
    if (gpu->mips[k])
      in->textures[mip_inputs[k]] = gpu->mips[k];
  WgBuffer *bodies = wg_ctx_input (ctx, WG_SHADE_IN_BODIES);
  if (bodies && (in->bodies = wg_buffer_read_bodies (bodies, error)) == NULL)
    return FALSE;
  in->hull_mesh = wg_shade_ctx_hull_mesh;
  in->hull_mesh_data = ctx;
  return mips_fill (ctx, gpu, error);
}

/* The hulls of @in's bodies (none: none) into the hulls' buffer, a prism's
 * outline pieces into theirs, the meshes' words into theirs when they
 * changed; how many hulls. */
static guint
hulls_upload (WgShadeGpu *gpu, const WgShadeInputs *in)
{
  const WgBodySet *bodies = in->bodies;
  if (bodies == NULL || bodies->count == 0)
    return 0;
  guint n = wg_shade_hulls (bodies, in->hull_mesh, in->hull_mesh_data, &gpu->hull_list);
  const guint64 mesh_bytes = (guint64) gpu->hull_list.n_mesh * sizeof *gpu->hull_list.mesh;
  gpu->mesh_dropped = mesh_bytes > (guint64) gpu->max_block ? mesh_bytes : 0;
  /* Meshes past what one storage block may hold are not drawn (the CPU
   * path draws them): the node says so. */
  guint kept = 0;
  for (guint k = 0; k < n; k++)
    if (!gpu->mesh_dropped || gpu->hull_list.hull[k].shape != (float) WG_BODY_SHAPE_MESH)
      gpu->hull_list.hull[kept++] = gpu->hull_list.hull[k];
  n = kept;
  if (gpu->hull_list.mesh_stamp != gpu->mesh_stamp && gpu->hull_list.n_mesh > 0 &&
      !gpu->mesh_dropped)
    {
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, gpu->meshes);
      glBufferData (GL_SHADER_STORAGE_BUFFER,
                    (GLsizeiptr) (gpu->hull_list.n_mesh * sizeof *gpu->hull_list.mesh),
                    gpu->hull_list.mesh, GL_STATIC_DRAW);
      gpu->mesh_stamp = gpu->hull_list.mesh_stamp;
    }
  if (n > 0)
    {
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, gpu->hulls);
      glBufferData (GL_SHADER_STORAGE_BUFFER, (GLsizeiptr) (n * sizeof (WgShadeHull)),
                    gpu->hull_list.hull, GL_STREAM_DRAW);
      /* Never empty: a binding needs a buffer with storage. */
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, gpu->pieces);
      glBufferData (GL_SHADER_STORAGE_BUFFER,
                    (GLsizeiptr) (MAX (gpu->hull_list.n_pieces, 1) * sizeof (float[4])),
                    gpu->hull_list.n_pieces ? (const void *) gpu->hull_list.pieces : NULL,
                    GL_STREAM_DRAW);
    }
  return n;
}

/* Draws @view of @in into @framebuffer (bound as it is), its viewport the
 * view's picture: the LOD mesh, the skirt, the hulls ray-cast over them
 * (a square around each; the depth test keeps the nearer), then the sky
 * where nothing is. */
static void
draw (WgShadeGpu *gpu, const WgShadeView *view, const WgShadeInputs *in, GLuint framebuffer)
{
  WgShadeLod lod;
  guint per_step = MAX (in->mesh_cells, 1u);
  const guint cells[2] = { MAX (in->width / per_step, 1u), MAX (in->height / per_step, 1u) };
  wg_shade_lod (view, in->extent, cells, &lod);
  /* How far waves may carry a vertex out of its block's box. */
  double margin = 0.1 * MAX (in->extent[0], in->extent[1]) + 2.0 * view->crest_height;
  guint n_blocks = blocks_visible (gpu, view, &lod, margin);
  for (int u = 0; u < N_UNITS; u++)
    {
      glActiveTexture (GL_TEXTURE0 + u);
      glBindTexture (GL_TEXTURE_2D, in->textures[u]);
    }
  ShadeUniforms u;
  uniforms_fill (&u, view, &lod, in);
  const guint n_hulls = hulls_upload (gpu, in);
  const float hull[4] = { view->hull.x, view->hull.y, view->hull.z, gpu->clip_control ? 1 : 0 };
  memcpy (u.u_hull, hull, sizeof hull);
  wg_gpu_kernel_use (&gpu->kernel, &u);

  glBindFramebuffer (GL_FRAMEBUFFER, framebuffer);
  glViewport (0, 0, (GLsizei) view->width, (GLsizei) view->height);
  if (gpu->clip_control)
    glClipControl (GL_LOWER_LEFT, GL_ZERO_TO_ONE);
  glDisable (GL_BLEND);
  glDisable (GL_CULL_FACE);
  glDisable (GL_SCISSOR_TEST);
  glEnable (GL_DEPTH_TEST);
  glDepthMask (GL_TRUE);
  glClearColor (0, 0, 0, 1);
  /* Reversed depth: near/z, 0 at infinity. */
  glClearDepthf (0.0f);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glBindVertexArray (gpu->vao);
  glBindBuffer (GL_ARRAY_BUFFER, gpu->instances);
  glBufferSubData (GL_ARRAY_BUFFER, 0, (GLsizeiptr) (n_blocks * sizeof gpu->upload[0]),
                   gpu->upload);

  glDepthFunc (GL_GREATER);
  glUniform1i (gpu->mode_location, WG_SHADE_MODE_MESH);
  glDrawElementsInstanced (GL_TRIANGLES, 6 * WG_SHADE_BLOCK * WG_SHADE_BLOCK, GL_UNSIGNED_SHORT,
                           NULL, (GLsizei) n_blocks);
  glUniform1i (gpu->mode_location, WG_SHADE_MODE_SKIRT);
  glDrawArrays (GL_TRIANGLES, 0, 24);
  if (n_hulls > 0)
    {
      glBindBufferBase (GL_SHADER_STORAGE_BUFFER, WG_SHADE_HULLS_BINDING, gpu->hulls);
      glBindBufferBase (GL_SHADER_STORAGE_BUFFER, WG_SHADE_PIECES_BINDING, gpu->pieces);
      glBindBufferBase (GL_SHADER_STORAGE_BUFFER, WG_SHADE_MESHES_BINDING, gpu->meshes);
      wg_gpu_kernel_use (&gpu->hull_kernel, &u);
      glBindVertexArray (gpu->hull_vao);
      glDrawArraysInstanced (GL_TRIANGLE_STRIP, 0, 4, (GLsizei) n_hulls);
      glBindVertexArray (gpu->vao);
      wg_gpu_kernel_use (&gpu->kernel, &u);
    }
  /* The sky at depth 0 fills what no water or hull covered. */
  glDepthFunc (GL_GEQUAL);
  glUniform1i (gpu->mode_location, WG_SHADE_MODE_SKY);
  glDrawArrays (GL_TRIANGLES, 0, 3);
}

gboolean
wg_shade_gpu_render (WgShadeGpu *gpu, const WgShadeView *view, const WgShadeInputs *in,
                     GLuint framebuffer, GError **error)
{
  WgShadeGlState saved;
  wg_shade_gl_state_save (&saved, gpu->clip_control);
  draw (gpu, view, in, framebuffer);
  wg_shade_gl_state_restore (&saved, gpu->clip_control);
  return wg_gpu_check ("surface-shade: rendering", error);
}

gboolean
wg_shade_gpu_process (WgNodeContext *ctx, WgShadeGpu *gpu, const WgShadeView *view,
                      GError **error)
{
  GLuint out = wg_buffer_gpu_write (wg_ctx_output (ctx, 0), error);
  if (out == 0)
    return FALSE;
  WgShadeGlState saved;
  wg_shade_gl_state_save (&saved, gpu->clip_control);
  WgShadeInputs in;
  if (!inputs_get (ctx, gpu, &in, error))
    {
      wg_shade_gl_state_restore (&saved, gpu->clip_control);
      return FALSE;
    }
  draw (gpu, view, &in, gpu->framebuffer);
  if (gpu->mesh_dropped)
    {
      g_autofree char *need = g_format_size_full (gpu->mesh_dropped, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *have =
        g_format_size_full ((guint64) gpu->max_block, G_FORMAT_SIZE_IEC_UNITS);
      wg_ctx_note (ctx, TRUE,
                   "the mesh hulls (%s of hierarchy and triangles) exceed this GPU's storage "
                   "block (%s): not drawn; the CPU backend draws them", need, have);
    }
  else
    wg_ctx_note (ctx, FALSE, NULL);
  glBindFramebuffer (GL_READ_FRAMEBUFFER, gpu->framebuffer);
  glReadBuffer (GL_COLOR_ATTACHMENT0);
  glBindBuffer (GL_PIXEL_PACK_BUFFER, out);
  for (int i = 0; i < 3; i++)
    glPixelStorei (wg_shade_pack_params[i], 0);
  glReadPixels (0, 0, (GLsizei) gpu->width, (GLsizei) gpu->height, GL_RGBA, GL_FLOAT, NULL);
  wg_shade_gl_state_restore (&saved, gpu->clip_control);
  if (!wg_gpu_check ("surface-shade: rendering", error))
    {
      wg_ctx_prefix_error (ctx, error, -1);
      return FALSE;
    }
  return TRUE;
}

void
wg_shade_gpu_free (WgShadeGpu *gpu)
{
  if (gpu == NULL)
    return;
  wg_gpu_kernel_clear (&gpu->kernel);
  wg_gpu_kernel_clear (&gpu->hull_kernel);
  glDeleteTextures (2, gpu->mips);
  glDeleteFramebuffers (1, &gpu->framebuffer);
  glDeleteRenderbuffers (1, &gpu->colour);
  glDeleteRenderbuffers (1, &gpu->depth);
  glDeleteVertexArrays (1, &gpu->vao);
  glDeleteBuffers (1, &gpu->instances);
  glDeleteBuffers (1, &gpu->indices);
  glDeleteBuffers (1, &gpu->hulls);
  glDeleteBuffers (1, &gpu->pieces);
  glDeleteBuffers (1, &gpu->meshes);
  glDeleteVertexArrays (1, &gpu->hull_vao);
  wg_shade_hulls_clear (&gpu->hull_list);
  g_free (gpu);
}
