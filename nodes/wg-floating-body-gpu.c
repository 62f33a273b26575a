/* wg-floating-body-gpu.c — floating-body's GPU forces (shaders/
 * floating-body.comp): the hulls uploaded once in prepare, the bodies'
 * states each sub-step, one work group per chunk of a hull's triangles,
 * and 16 floats a chunk read back, added up per body for the integration
 * on the CPU. */
#include "wg-floating-body-gpu.h"
#include "../shaders/floating-body.h"

#include <string.h>

gboolean
wg_floating_gpu_init (WgFloatingGpu *g, WgGpuContext *gpu, const WgHull *hulls, guint n,
                      GError **error)
{
  memset (g, 0, sizeof *g);
  g->n = n;
  if (!wg_gpu_kernel_init (&g->kernel, gpu, "floating-body.comp", NULL,
                           sizeof (FloatingUniforms), error))
    return FALSE;
  gsize nv = 0, nt = 0;
  for (guint i = 0; i < n; i++)
    nv += hulls[i].n_vertices, nt += hulls[i].n_triangles;
  g_autofree float *vertices = g_new0 (float, 4 * MAX (nv, 1));
  g_autofree guint32 *triangles = g_new0 (guint32, 4 * MAX (nt, 1));
  g_autoptr (GArray) chunks = g_array_new (FALSE, FALSE, 4 * sizeof (guint32));
  g->first_chunk = g_new (guint, n + 1);
  gsize v0 = 0, t0 = 0;
  for (guint i = 0; i < n; i++)
    {
      const WgHull *h = &hulls[i];
      for (guint v = 0; v < h->n_vertices; v++)
        for (int k = 0; k < 3; k++)
          vertices[4 * (v0 + v) + k] = (float) h->vertices[3 * v + k];
      for (guint t = 0; t < h->n_triangles; t++)
        for (int k = 0; k < 3; k++)
          triangles[4 * (t0 + t) + k] = h->triangles[3 * t + k];
      g->first_chunk[i] = chunks->len;
      for (guint t = 0; t < h->n_triangles; t += WG_FLOAT_CHUNK)
        {
          const guint32 chunk[4] = { i, (guint32) (t0 + t),
                                     MIN (WG_FLOAT_CHUNK, h->n_triangles - t), (guint32) v0 };
          g_array_append_val (chunks, chunk);
        }
      v0 += h->n_vertices, t0 += h->n_triangles;
    }
  g->first_chunk[n] = g->n_chunks = chunks->len;
  g->vertices = wg_gpu_buffer_new (gpu, 4 * MAX (nv, 1) * sizeof (float), vertices, GL_STATIC_DRAW);
  g->triangles = wg_gpu_buffer_new (gpu, 4 * MAX (nt, 1) * sizeof (guint32), triangles,
                                    GL_STATIC_DRAW);
  g->chunks = wg_gpu_buffer_new (gpu, 4 * MAX (g->n_chunks, 1) * sizeof (guint32), chunks->data,
                                 GL_STATIC_DRAW);
  g->states = wg_gpu_buffer_new (gpu, 16 * MAX (n, 1) * sizeof (float), NULL, GL_DYNAMIC_DRAW);
  g->sums = wg_gpu_buffer_new (gpu, 16 * MAX (g->n_chunks, 1) * sizeof (float), NULL,
                               GL_DYNAMIC_READ);
  g->staging = g_new0 (float, 16 * MAX (MAX (n, g->n_chunks), 1));
  return wg_gpu_check ("floating-body's buffers", error);
}

void
wg_floating_gpu_clear (WgFloatingGpu *g)
{
  const GLuint buffers[] = { g->vertices, g->triangles, g->chunks, g->states, g->sums };
  for (guint k = 0; k < G_N_ELEMENTS (buffers); k++)
    if (buffers[k])
      glDeleteBuffers (1, &buffers[k]);
  wg_gpu_kernel_clear (&g->kernel);
  g_free (g->staging);
  g_free (g->first_chunk);
  memset (g, 0, sizeof *g);
}

gboolean
wg_floating_gpu_forces (WgFloatingGpu *g, GLuint surface, GLuint velocity, const WgWater *water,
                        const WgFluid *fluid, const WgBodyState *states, float *sums,
                        GError **error)
{
  if (g->n == 0)
    return TRUE;
  for (guint i = 0; i < g->n; i++)
    for (int k = 0; k < 4; k++)
      {
        g->staging[16 * i + k] = k < 3 ? (float) states[i].x[k] : 0;
        g->staging[16 * i + 4 + k] = (float) states[i].q[k];
        g->staging[16 * i + 8 + k] = k < 3 ? (float) states[i].v[k] : 0;
        g->staging[16 * i + 12 + k] = k < 3 ? (float) states[i].w[k] : 0;
      }
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, g->states);
  glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, 16 * g->n * sizeof (float), g->staging);
  FloatingUniforms u = {
    .u_size = { surface ? water->w : 0, water->h },
    .u_cell = { (float) water->dx, (float) water->dy },
    .u_channels = water->ch,
    .u_wrap = water->wrap,
    .u_density = (float) fluid->density,
    .u_gravity = (float) fluid->gravity,
    .u_drag = (float) fluid->drag,
    .u_lift = (float) fluid->lift,
    .u_velocity_k = (float) fluid->velocity_k,
    .u_chunks = g->n_chunks,
  };
  if (velocity && water->velocity)
    {
      u.u_vsize[0] = water->velocity->w;
      u.u_vsize[1] = water->velocity->h;
      u.u_vcell[0] = (float) water->velocity->dx;
      u.u_vcell[1] = (float) water->velocity->dy;
      u.u_vchannels = water->velocity->ch;
    }
  /* A calm sea binds the vertices as a stand-in surface nobody reads. */
  wg_gpu_bind (0, surface ? surface : g->vertices);
  wg_gpu_bind (1, g->vertices);
  wg_gpu_bind (2, g->triangles);
  wg_gpu_bind (3, g->chunks);
  wg_gpu_bind (4, g->states);
  wg_gpu_bind (5, g->sums);
  wg_gpu_bind (6, velocity ? velocity : g->vertices);
  memset (sums, 0, 16 * g->n * sizeof (float));
  if (g->n_chunks == 0)
    return TRUE;
  /* In rows of at most 65535 groups (GL's guaranteed count per dimension). */
  const guint gx = MIN (g->n_chunks, 65535u);
  wg_gpu_kernel_dispatch (&g->kernel, &u, gx, (g->n_chunks + gx - 1) / gx, 1);
  glMemoryBarrier (GL_ALL_BARRIER_BITS);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, g->sums);
  glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, 16 * g->n_chunks * sizeof (float), g->staging);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  /* Each body's chunks in order, in double: the same sums whatever the
   * GPU's scheduling. */
  for (guint i = 0; i < g->n; i++)
    for (int k = 0; k < 16; k++)
      {
        double sum = 0;
        for (guint c = g->first_chunk[i]; c < g->first_chunk[i + 1]; c++)
          sum += g->staging[16 * c + k];
        sums[16 * i + k] = (float) sum;
      }
  return wg_gpu_check ("floating-body's forces", error);
}
