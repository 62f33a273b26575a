/* wg-query-gpu.c — wg_plan_query() on a GPU plan: one compute pass
 * (shaders/query.comp) reads the outputs where they already are, on the
 * GPU, and only the results come back — 64 bytes a point instead of the
 * fields. The program variant (which outputs, filter, edges) is built on
 * first use and kept with the plan, as are the point and result buffers,
 * grown to the largest batch asked for. */
#include "wg-query.h"
#include "wg-gpu-kernel.h"
#include "query.h"

#include <math.h>

#define VARIANT_BITS 6
/* Points per dispatch: the results of a batch are 64 MiB. */
#define BATCH (1u << 20)

struct _WgQueryGpu {
  WgGpuKernel kernels[1u << VARIANT_BITS];
  GLuint points, results;
  gsize capacity; /* points the buffers hold */
};

void
wg_query_gpu_free (struct _WgQueryGpu *q)
{
  if (q == NULL)
    return;
  for (guint v = 0; v < G_N_ELEMENTS (q->kernels); v++)
    wg_gpu_kernel_clear (&q->kernels[v]);
  if (q->points)
    glDeleteBuffers (1, &q->points);
  if (q->results)
    glDeleteBuffers (1, &q->results);
  g_free (q);
}

/* The variant's kernel, built the first time it is asked for. */
static WgGpuKernel *
kernel_for (WgPlan *plan, const WgQuerySetup *s, GError **error)
{
  const gboolean has[VARIANT_BITS] = {
    s->displacement != NULL, s->normal != NULL, s->velocity != NULL,
    (s->flags & WG_QUERY_BICUBIC) != 0, (s->flags & WG_QUERY_WRAP) != 0,
    (s->flags & WG_QUERY_NO_INVERSION) != 0,
  };
  static const char *const names[VARIANT_BITS] = {
    "DISPLACEMENT", "NORMAL", "VELOCITY", "BICUBIC", "WRAP", "NO_INVERSION",
  };
  guint variant = 0;
  GString *defines = g_string_new (NULL);
  for (guint b = 0; b < VARIANT_BITS; b++)
    if (has[b])
      {
        variant |= 1u << b;
        g_string_append_printf (defines, "#define %s 1\n", names[b]);
      }
  WgGpuKernel *k = &plan->query_gpu->kernels[variant];
  gboolean ok = k->program != 0 ||
                wg_gpu_kernel_init (k, plan->gpu, "query.comp", defines->str,
                                    sizeof (QueryUniforms), error);
  g_string_free (defines, TRUE);
  return ok ? k : NULL;
}

static void
field_uniforms (const WgBuffer *b, guint32 size[2], float spacing[2])
{
  if (b == NULL)
    return;
  size[0] = b->width, size[1] = b->height;
  spacing[0] = (float) (b->extent[0] / b->width);
  spacing[1] = (float) (b->extent[1] / b->height);
}

/* Grows the point and result buffers to @n points. */
static void
reserve (WgPlan *plan, gsize n)
{
  struct _WgQueryGpu *q = plan->query_gpu;
  if (q->capacity >= n)
    return;
  if (q->points)
    glDeleteBuffers (1, &q->points);
  if (q->results)
    glDeleteBuffers (1, &q->results);
  q->points = wg_gpu_buffer_new (plan->gpu, n * 2 * sizeof (float), NULL, GL_STREAM_DRAW);
  q->results = wg_gpu_buffer_new (plan->gpu, n * 16 * sizeof (float), NULL, GL_STREAM_READ);
  q->capacity = n;
}

gboolean
wg_query_gpu_run (WgPlan *plan, const WgQuerySetup *s, const float *xy, const double *offset,
                  gsize n, WgQueryResult *results, GError **error)
{
  if (plan->query_gpu == NULL)
    plan->query_gpu = g_new0 (struct _WgQueryGpu, 1);
  WgGpuKernel *k = kernel_for (plan, s, error);
  if (k == NULL)
    return FALSE;
  QueryUniforms u = { 0 };
  field_uniforms (s->displacement, u.u_disp_size, u.u_disp_spacing);
  field_uniforms (s->height, u.u_height_size, u.u_height_spacing);
  field_uniforms (s->normal, u.u_normal_size, u.u_normal_spacing);
  field_uniforms (s->velocity, u.u_velocity_size, u.u_velocity_spacing);
  u.u_velocity_channels = s->velocity ? s->velocity->channels : 0;
  u.u_max_iterations = s->max_iterations;
  u.u_tolerance = (float) s->tolerance;

  /* The outputs' storage buffers, uploaded first where a CPU node made them. */
  WgBuffer *const fields[] = { s->displacement,
                               s->displacement ? NULL : s->height, s->normal, s->velocity };
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    if (fields[f])
      {
        GLuint ssbo = wg_buffer_gpu (fields[f], error);
        if (ssbo == 0)
          return FALSE;
        wg_gpu_bind (2 + f, ssbo);
      }

  reserve (plan, MIN (n, BATCH));
  g_autofree float *out = g_new (float, MIN (n, BATCH) * 16);
  for (gsize first = 0; first < n; first += BATCH)
    {
      gsize m = MIN (BATCH, n - first);
      u.u_n = (guint32) m;
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, plan->query_gpu->points);
      glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) (m * 2 * sizeof (float)),
                       xy + 2 * first);
      wg_gpu_bind (0, plan->query_gpu->results);
      wg_gpu_bind (1, plan->query_gpu->points);
      wg_gpu_kernel_dispatch (k, &u, (guint) ((m + QUERY_GROUP - 1) / QUERY_GROUP), 1, 1);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, plan->query_gpu->results);
      glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) (m * 16 * sizeof (float)),
                          out);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
      if (!wg_gpu_check ("query", error))
        return FALSE;
      for (gsize i = 0; i < m; i++)
        {
          const float *o = out + 16 * i;
          WgQueryResult *r = &results[first + i];
          const double *off = offset + 2 * (first + i);
          *r = (WgQueryResult) {
            .height = o[3],
            .displacement = { o[0], o[1], o[2] },
            .normal = { o[4], o[5], o[6] },
            .residual = o[7],
            .velocity = { o[8], o[9], o[10] },
            .iterations = (guint) o[11],
            .rest = { (float) (o[12] + off[0]), (float) (o[13] + off[1]) },
            .converged = o[14] != 0,
          };
          if (s->velocity == NULL)
            r->velocity[0] = r->velocity[1] = r->velocity[2] = NAN;
        }
    }
  return TRUE;
}
