/* wg-buffer.c — data flowing on links: fields, spectra, images, particle
 * and body sets, on the CPU, the GPU or both, copied lazily between them (see struct _WgBuffer),
 * and the GL textures renderers sample them through. */
#include "wg-node-private.h"
#include "wg-gpu.h"
#include "wg-gpu-kernel.h"
#include "wg-os.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static WgBuffer *
buffer_alloc (WgPortType kind, guint width, guint height, guint channels,
              const double extent[2], WgGpuContext *gpu)
{
  WgBuffer *b = g_new0 (WgBuffer, 1);
  b->kind = kind;
  b->width = width;
  b->height = height;
  b->channels = channels;
  b->extent[0] = extent[0];
  b->extent[1] = extent[1];
  b->n_floats = (gsize) width * height * channels;
  b->depth = INFINITY;
  b->gravity = 9.81;
  b->grid[0] = width;
  b->grid[1] = height;
  b->gpu = gpu;
  /* Neither copy exists yet: the first side used gets zeroed storage. */
  return b;
}

WgBuffer *
wg_buffer_new_field (guint width, guint height, guint channels, const double extent[2],
                     WgGpuContext *gpu)
{
  return buffer_alloc (WG_PORT_FIELD, width, height, channels, extent, gpu);
}

WgBuffer *
wg_buffer_new_spectrum (guint nx, guint ny, gboolean half, const double extent[2],
                        WgGpuContext *gpu)
{
  WgBuffer *b = buffer_alloc (WG_PORT_SPECTRUM, half ? nx / 2 + 1 : nx, ny, 2, extent, gpu);
  b->grid[0] = nx;
  b->grid[1] = ny;
  b->half = half;
  return b;
}

WgBuffer *
wg_buffer_new_image (guint width, guint height, WgGpuContext *gpu)
{
  static const double none[2] = { 0, 0 };
  return buffer_alloc (WG_PORT_IMAGE, width, height, 4, none, gpu);
}

WgBuffer *
wg_buffer_new_particles (guint capacity, const double extent[2], WgGpuContext *gpu)
{
  G_STATIC_ASSERT (sizeof (WgParticle) == 8 * sizeof (float));
  G_STATIC_ASSERT (offsetof (WgParticleSet, particles) == sizeof (WgParticle));
  WgBuffer *b = buffer_alloc (WG_PORT_PARTICLES, capacity, 1, 8, extent, gpu);
  /* The header is one more particle's worth of floats. */
  b->n_floats = (gsize) (capacity + 1) * 8;
  return b;
}

WgBuffer *
wg_buffer_new_like (const WgBuffer *src)
{
  WgBuffer *b = g_new (WgBuffer, 1);
  *b = *src;
  b->data = NULL;
  b->mapped_bytes = 0;
  b->window_edge = b->window_ring = 0;
  b->cpu_valid = FALSE;
  b->ssbo = 0;
  b->gpu_valid = FALSE;
  b->texture = 0;
  b->texture_current = FALSE;
  b->texture_fills = 0;
  return b;
}

gboolean
wg_buffer_same_shape (const WgBuffer *a, const WgBuffer *b)
{
  return a->kind == b->kind && a->width == b->width && a->height == b->height &&
         a->channels == b->channels && a->n_floats == b->n_floats &&
         a->extent[0] == b->extent[0] && a->extent[1] == b->extent[1];
}

WgBuffer *
wg_buffer_new_bodies (guint capacity, const double extent[2], WgGpuContext *gpu)
{
  G_STATIC_ASSERT (sizeof (WgBody) % sizeof (float) == 0);
  G_STATIC_ASSERT (offsetof (WgBodySet, bodies) == 8 * sizeof (float));
  const guint per_body = sizeof (WgBody) / sizeof (float);
  WgBuffer *b = buffer_alloc (WG_PORT_BODIES, capacity, 1, per_body, extent, gpu);
  b->n_floats = (gsize) capacity * per_body + 8;
  return b;
}

static void
release_cpu_storage (WgBuffer *b)
{
  if (b->mapped_bytes)
    wg_os_view_release ((char *) b->data, b->mapped_bytes);
  else
    wg_os_aligned_free (b->data);
  b->data = NULL;
  b->mapped_bytes = 0;
  b->window_edge = b->window_ring = 0;
  b->cpu_valid = FALSE;
}

void
wg_buffer_free (WgBuffer *buffer)
{
  if (buffer == NULL)
    return;
  release_cpu_storage (buffer);
  if (buffer->ssbo)
    glDeleteBuffers (1, &buffer->ssbo);
  if (buffer->texture)
    glDeleteTextures (1, &buffer->texture);
  g_free (buffer);
}

static gsize
buffer_bytes (const WgBuffer *b)
{
  return MAX (b->n_floats, 1) * sizeof (float);
}

/* Bytes of the live particles of set @b whose header b->data holds. */
static gsize
live_particle_bytes (const WgBuffer *b)
{
  const WgParticleSet *set = (const WgParticleSet *) b->data;
  return (gsize) MIN (set->count, b->width) * sizeof (WgParticle);
}

/* Particle and body sets start with a 32-byte header: count, capacity, … */
static gboolean
is_set (const WgBuffer *b)
{
  return b->kind == WG_PORT_PARTICLES || b->kind == WG_PORT_BODIES;
}

/* The zeroed contents of a set's header: all zeros but the capacity. */
static void
set_header (const WgBuffer *b, guint32 header[8])
{
  G_STATIC_ASSERT (offsetof (WgParticleSet, capacity) == offsetof (WgBodySet, capacity));
  memset (header, 0, 8 * sizeof (guint32));
  header[offsetof (WgParticleSet, capacity) / sizeof (guint32)] = b->width;
}

static void
ensure_cpu_storage (WgBuffer *b)
{
  if (b->data)
    return;
  void *mem = wg_os_aligned_alloc (buffer_bytes (b));
  if (mem == NULL)
    g_error ("out of memory allocating a %u×%u×%u buffer", b->width, b->height, b->channels);
  b->data = mem;
  if (is_set (b))
    set_header (b, mem);
}

static void
write_gpu_set_header (const WgBuffer *b)
{
  guint32 header[8];
  set_header (b, header);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, b->ssbo);
  glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, sizeof header, header);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
}

/* Maps @rows rows of the window at row @row onto the memory file at @offset. */
static gboolean
map_rows (char *base, gsize row_bytes, guint row, guint rows, WgOsMemFile *file, gsize offset)
{
  return rows == 0 ||
         wg_os_view_map (base + (gsize) row * row_bytes, (gsize) rows * row_bytes, file, offset);
}

gboolean
wg_buffer_set_row_window (WgBuffer *b, guint n_bands, const guint *band_start, guint edge_rows,
                          guint ring_rows)
{
  g_return_val_if_fail (b->kind == WG_PORT_FIELD && b->gpu == NULL && n_bands > 0, FALSE);
  const gsize page = wg_os_page_size ();
  const gsize row_bytes = (gsize) b->width * b->channels * sizeof (float);
  /* Every mapping starts and ends on a page. */
  if (ring_rows == 0 || (gsize) ring_rows * row_bytes % page || (gsize) edge_rows * row_bytes % page)
    return FALSE;
  for (guint t = 0; t <= n_bands; t++)
    if ((gsize) band_start[t] * row_bytes % page ||
        (t < n_bands && band_start[t + 1] - band_start[t] < 2 * edge_rows + ring_rows))
      return FALSE;
  if (band_start[0] != 0 || band_start[n_bands] != b->height)
    return FALSE;

  const guint per_band = 2 * edge_rows + ring_rows;
  const gsize virtual_bytes = (gsize) b->height * row_bytes;
  WgOsMemFile *file = wg_os_memfile_new ((gsize) n_bands * per_band * row_bytes);
  if (file == NULL)
    return FALSE;
  /* Reserve the whole range, then map each piece over it. */
  char *base = wg_os_view_reserve (virtual_bytes);
  gboolean ok = base != NULL;
  for (guint t = 0; ok && t < n_bands; t++)
    {
      const guint j0 = band_start[t], j1 = band_start[t + 1];
      const gsize own = (gsize) t * per_band * row_bytes;
      ok &= map_rows (base, row_bytes, j0, edge_rows, file, own);
      for (guint j = j0 + edge_rows; ok && j < j1 - edge_rows; j += ring_rows)
        ok &= map_rows (base, row_bytes, j, MIN (ring_rows, j1 - edge_rows - j), file,
                        own + (gsize) edge_rows * row_bytes);
      ok &= map_rows (base, row_bytes, j1 - edge_rows, edge_rows, file,
                      own + (gsize) (edge_rows + ring_rows) * row_bytes);
    }
  wg_os_memfile_free (file);
  if (!ok)
    {
      if (base != NULL)
        wg_os_view_release (base, virtual_bytes);
      return FALSE;
    }
  release_cpu_storage (b);
  b->data = (float *) base;
  b->mapped_bytes = virtual_bytes;
  b->window_edge = edge_rows;
  b->window_ring = ring_rows;
  return TRUE;
}

void
wg_buffer_clear_row_window (WgBuffer *b)
{
  if (b->mapped_bytes)
    release_cpu_storage (b);
}

static void
ensure_gpu_storage (WgBuffer *b)
{
  if (b->ssbo)
    return;
  b->ssbo = wg_gpu_buffer_new (b->gpu, buffer_bytes (b), NULL, GL_DYNAMIC_COPY);
  if (is_set (b))
    write_gpu_set_header (b);
}

/* The current contents on the CPU side. */
static gboolean
sync_to_cpu (WgBuffer *b, GError **error)
{
  ensure_cpu_storage (b);
  if (b->cpu_valid)
    return TRUE;
  if (b->gpu_valid)
    {
      /* Kernels that wrote the buffer must finish before the copy (all
       * bits: NVIDIA's driver returned a buffer's earlier contents to a
       * second read-back after GL_BUFFER_UPDATE_BARRIER_BIT alone). */
      glMemoryBarrier (GL_ALL_BARRIER_BITS);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, b->ssbo);
      if (b->kind == WG_PORT_PARTICLES)
        {
          /* The header, then only the live particles. */
          glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, sizeof (WgParticleSet), b->data);
          glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, sizeof (WgParticleSet),
                              (GLsizeiptr) live_particle_bytes (b),
                              (char *) b->data + sizeof (WgParticleSet));
        }
      else
        glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) buffer_bytes (b), b->data);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
      if (!wg_gpu_check ("reading a buffer back from the GPU", error))
        return FALSE;
    }
  b->cpu_valid = TRUE;
  return TRUE;
}

static gboolean
sync_to_gpu (WgBuffer *b, GError **error)
{
  if (b->gpu == NULL)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND,
                   "a GPU kernel ran in a plan without a GPU context");
      return FALSE;
    }
  ensure_gpu_storage (b);
  if (b->gpu_valid)
    return TRUE;
  if (b->cpu_valid)
    {
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, b->ssbo);
      /* A particle set: the header and the live particles only. */
      const gsize bytes = b->kind == WG_PORT_PARTICLES
                            ? sizeof (WgParticleSet) + live_particle_bytes (b)
                            : buffer_bytes (b);
      glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) bytes, b->data);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
      if (!wg_gpu_check ("uploading a buffer to the GPU", error))
        return FALSE;
    }
  b->gpu_valid = TRUE;
  return TRUE;
}

gboolean
wg_buffer_copy (WgBuffer *dst, WgBuffer *src, GError **error)
{
  g_return_val_if_fail (wg_buffer_same_shape (dst, src), FALSE);
  if (src->gpu_valid && dst->gpu)
    {
      /* GPU to GPU: no round trip through the CPU. */
      ensure_gpu_storage (dst);
      glMemoryBarrier (GL_BUFFER_UPDATE_BARRIER_BIT);
      glBindBuffer (GL_COPY_READ_BUFFER, src->ssbo);
      glBindBuffer (GL_COPY_WRITE_BUFFER, dst->ssbo);
      glCopyBufferSubData (GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                           (GLsizeiptr) buffer_bytes (src));
      glBindBuffer (GL_COPY_READ_BUFFER, 0);
      glBindBuffer (GL_COPY_WRITE_BUFFER, 0);
      if (!wg_gpu_check ("copying a buffer on the GPU", error))
        return FALSE;
      dst->gpu_valid = TRUE;
      dst->cpu_valid = FALSE;
    }
  else
    {
      const float *data = wg_buffer_cpu (src, error);
      if (data == NULL)
        return FALSE;
      ensure_cpu_storage (dst);
      memcpy (dst->data, data, buffer_bytes (src));
      dst->cpu_valid = TRUE;
      dst->gpu_valid = FALSE;
    }
  dst->depth = src->depth;
  dst->gravity = src->gravity;
  dst->texture_current = FALSE;
  return TRUE;
}

void
wg_buffer_zero (WgBuffer *b)
{
  /* Zeros uploaded, not glClearBufferData: NVIDIA's driver ran that clear
   * after a later upload (wg_gpu_buffer_new()). A set is empty once its
   * header says so. */
  if (b->ssbo && !is_set (b))
    {
      g_autofree void *zeros = g_malloc0 (buffer_bytes (b));
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, b->ssbo);
      glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) buffer_bytes (b), zeros);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
    }
  if (b->data)
    memset (b->data, 0, buffer_bytes (b));
  if (is_set (b))
    {
      if (b->ssbo)
        write_gpu_set_header (b);
      if (b->data)
        set_header (b, (guint32 *) b->data);
    }
  /* Whatever storage exists now holds the (zero) contents. */
  b->cpu_valid = b->data != NULL;
  b->gpu_valid = b->ssbo != 0;
  b->texture_current = FALSE;
}

/* After a swap, the side @gpu is current and the other stale. */
static void
set_current_side (WgBuffer *b, gboolean gpu)
{
  b->gpu_valid = gpu;
  b->cpu_valid = !gpu;
  b->texture_current = FALSE;
}

float *
wg_buffer_swap_particles (WgBuffer *b, float *other)
{
  g_return_val_if_fail (b->kind == WG_PORT_PARTICLES && other != NULL, NULL);
  ensure_cpu_storage (b);
  float *old = b->data;
  b->data = other;
  set_current_side (b, FALSE);
  return old;
}

guint
wg_buffer_swap_particles_gpu (WgBuffer *b, guint other)
{
  g_return_val_if_fail (b->kind == WG_PORT_PARTICLES && b->gpu != NULL && other != 0, 0);
  ensure_gpu_storage (b);
  const guint old = b->ssbo;
  b->ssbo = other;
  set_current_side (b, TRUE);
  return old;
}

WgPortType
wg_buffer_get_kind (const WgBuffer *buffer)
{
  return buffer->kind;
}

guint
wg_buffer_get_width (const WgBuffer *buffer)
{
  return buffer->width;
}

guint
wg_buffer_get_height (const WgBuffer *buffer)
{
  return buffer->height;
}

guint
wg_buffer_get_channels (const WgBuffer *buffer)
{
  return buffer->channels;
}

void
wg_buffer_get_extent (const WgBuffer *buffer, double extent[2])
{
  extent[0] = buffer->extent[0];
  extent[1] = buffer->extent[1];
}

const float *
wg_buffer_read (WgBuffer *buffer, GError **error)
{
  return wg_buffer_cpu (buffer, error);
}

float *
wg_buffer_data (WgBuffer *buffer)
{
  /* Read-modify-write access (foam keeps last frame's values): sync first.
   * A read-back failure leaves zeros; the GPU error shows on the next check. */
  sync_to_cpu (buffer, NULL);
  buffer->gpu_valid = FALSE;
  buffer->texture_current = FALSE;
  return buffer->data;
}

const float *
wg_buffer_cpu (WgBuffer *buffer, GError **error)
{
  return sync_to_cpu (buffer, error) ? buffer->data : NULL;
}

WgParticleSet *
wg_buffer_particles (WgBuffer *buffer)
{
  if (buffer->kind != WG_PORT_PARTICLES)
    return NULL;
  return (WgParticleSet *) wg_buffer_data (buffer);
}

const WgParticleSet *
wg_buffer_read_particles (WgBuffer *buffer, GError **error)
{
  if (buffer->kind != WG_PORT_PARTICLES)
    return NULL;
  return (const WgParticleSet *) wg_buffer_cpu (buffer, error);
}

WgBodySet *
wg_buffer_bodies (WgBuffer *buffer)
{
  if (buffer->kind != WG_PORT_BODIES)
    return NULL;
  return (WgBodySet *) wg_buffer_data (buffer);
}

const WgBodySet *
wg_buffer_read_bodies (WgBuffer *buffer, GError **error)
{
  if (buffer->kind != WG_PORT_BODIES)
    return NULL;
  return (const WgBodySet *) wg_buffer_cpu (buffer, error);
}

/* What a renderer can take from @b only in a GPU plan. */
static gboolean
check_gpu_plan (const WgBuffer *b, GError **error)
{
  if (b->gpu)
    return TRUE;
  g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND,
               "the buffer belongs to a CPU plan; read it with wg_buffer_read()");
  return FALSE;
}

guint
wg_buffer_get_gl_buffer (WgBuffer *buffer, GError **error)
{
  return check_gpu_plan (buffer, error) ? wg_buffer_gpu (buffer, error) : 0;
}

guint
wg_buffer_gpu (WgBuffer *buffer, GError **error)
{
  return sync_to_gpu (buffer, error) ? buffer->ssbo : 0;
}

guint
wg_buffer_gpu_write (WgBuffer *buffer, GError **error)
{
  if (!sync_to_gpu (buffer, error))
    return 0;
  buffer->cpu_valid = FALSE;
  buffer->texture_current = FALSE;
  return buffer->ssbo;
}

/* The texture's storage: one level of the float format with the buffer's
 * channels, sampled linearly and tiling like the patch; an image repeats
 * across only, as an equirectangular sky's longitude does. */
static void
texture_create (WgBuffer *b)
{
  static const GLenum formats[] = { GL_R32F, GL_RG32F, GL_RGB32F, GL_RGBA32F };
  glGenTextures (1, &b->texture);
  glBindTexture (GL_TEXTURE_2D, b->texture);
  glTexStorage2D (GL_TEXTURE_2D, 1, formats[b->channels - 1], (GLsizei) b->width,
                  (GLsizei) b->height);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T,
                   b->kind == WG_PORT_IMAGE ? GL_CLAMP_TO_EDGE : GL_REPEAT);
  wg_gpu_context_count_object (b->gpu);
}

guint
wg_buffer_get_gl_texture (WgBuffer *buffer, GError **error)
{
  if (!check_gpu_plan (buffer, error))
    return 0;
  if (is_set (buffer))
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND,
                   "a %s set is no picture: read its storage buffer (wg_buffer_gpu())",
                   wg_port_type_name (buffer->kind));
      return 0;
    }
  if (buffer->texture && buffer->texture_current)
    return buffer->texture;
  guint ssbo = wg_buffer_gpu (buffer, error);
  if (ssbo == 0)
    return 0;
  /* The host's bindings and unpack state (a game's renderer) are restored. */
  static const GLenum unpack[] = { GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH,
                                   GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS };
  static const GLint packed[] = { 4, 0, 0, 0 };
  GLint bound_texture = 0, bound_unpack = 0, saved[G_N_ELEMENTS (unpack)];
  glGetIntegerv (GL_TEXTURE_BINDING_2D, &bound_texture);
  glGetIntegerv (GL_PIXEL_UNPACK_BUFFER_BINDING, &bound_unpack);
  for (guint k = 0; k < G_N_ELEMENTS (unpack); k++)
    {
      glGetIntegerv (unpack[k], &saved[k]);
      glPixelStorei (unpack[k], packed[k]);
    }
  if (buffer->texture == 0)
    texture_create (buffer);
  else
    glBindTexture (GL_TEXTURE_2D, buffer->texture);
  static const GLenum layouts[] = { GL_RED, GL_RG, GL_RGB, GL_RGBA };
  /* Kernels wrote the storage buffer; the copy reads it as pixels. */
  glMemoryBarrier (GL_PIXEL_BUFFER_BARRIER_BIT);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, ssbo);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei) buffer->width, (GLsizei) buffer->height,
                   layouts[buffer->channels - 1], GL_FLOAT, NULL);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, (GLuint) bound_unpack);
  glBindTexture (GL_TEXTURE_2D, (GLuint) bound_texture);
  for (guint k = 0; k < G_N_ELEMENTS (unpack); k++)
    glPixelStorei (unpack[k], saved[k]);
  if (!wg_gpu_check ("filling a buffer's texture", error))
    return 0;
  buffer->texture_current = TRUE;
  buffer->texture_fills++;
  return buffer->texture;
}
