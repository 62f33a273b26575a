/* wg-height-rate.c — a simulation's ∂h/∂t from its last step (wg-height-rate.h).
 * Both backends multiply by the same float 1/Δt, so they round alike. */
#include "wg-height-rate.h"
#include "height-rate.h"

gboolean
wg_height_rate_prepare (WgHeightRate *rate, WgNodeContext *ctx, guint height, guint previous,
                        guint velocity, GError **error)
{
  rate->height = height;
  rate->previous = previous;
  rate->velocity = velocity;
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL || !wg_ctx_output_used (ctx, velocity))
    return TRUE;
  return wg_gpu_kernel_init (&rate->kernel, gpu, "height-rate.comp", NULL,
                             sizeof (HeightRateUniforms), error);
}

gboolean
wg_height_rate_process (const WgHeightRate *rate, WgNodeContext *ctx, double dt, GError **error)
{
  if (!wg_ctx_output_used (ctx, rate->velocity))
    return TRUE;
  WgBuffer *hb = wg_ctx_output (ctx, rate->height), *pb = wg_ctx_output (ctx, rate->previous);
  WgBuffer *vb = wg_ctx_output (ctx, rate->velocity);
  const float inv_dt = (float) (1.0 / dt);
  if (wg_ctx_gpu (ctx) == NULL)
    {
      const float *h = wg_buffer_cpu (hb, error), *prev = wg_buffer_cpu (pb, error);
      if (h == NULL || prev == NULL)
        return FALSE;
      float *v = wg_buffer_data (vb);
      const gsize n = (gsize) hb->width * hb->height;
#pragma omp parallel for schedule(static)
      for (gsize p = 0; p < n; p++)
        v[p] = (h[p] - prev[p]) * inv_dt;
      return TRUE;
    }
  GLuint h, prev, v;
  if (!(h = wg_buffer_gpu (hb, error)) || !(prev = wg_buffer_gpu (pb, error)) ||
      !(v = wg_buffer_gpu_write (vb, error)))
    return FALSE;
  const HeightRateUniforms u = { .u_size = { hb->width, hb->height }, .u_inv_dt = inv_dt };
  wg_gpu_bind (0, h);
  wg_gpu_bind (1, prev);
  wg_gpu_bind (2, v);
  wg_gpu_kernel_dispatch_field (&rate->kernel, &u, hb->width, hb->height);
  return TRUE;
}

void
wg_height_rate_clear (WgHeightRate *rate)
{
  wg_gpu_kernel_clear (&rate->kernel);
}
