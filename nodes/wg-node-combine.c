/* combine — adds one field to another: a + scale · b, with b resampled onto
 * a's grid by world position (wg-resample.h: bilinear, tiling or clamped),
 * as a compositor adds layers. What makes one water surface out of several
 * techniques: an FFT ocean's displacement plus the wakes splat-filter makes
 * of wave particles, a Gerstner swell plus iWave ripples.
 * Channels: equal counts add channel by channel; a 1-channel b (a height)
 * adds to a's height channel (the last of 3: displacement is x, y, z) and a
 * 1-channel a takes b's height channel. */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "wg-resample.h"
#include "combine.h"

#include <stddef.h>

enum { IN_A, IN_B };
enum { P_SCALE, P_WRAP, N_PARAMS };

typedef struct {
  double scale;
  gboolean wrap;
} CombineParams;

#define OFFSET(x) offsetof (CombineParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_SCALE] = { "scale", "Scale of b", WG_PARAM_FLOAT, "", "Multiplies b before it is added", 1,
                -100, 100, -2, 2, .offset = OFFSET (scale) },
  [P_WRAP] = { "wrap", "Tile b", WG_PARAM_BOOL, "",
               "b repeats beyond its patch (a periodic ocean tile); off: b's edge values hold "
               "outside it",
               1, .offset = OFFSET (wrap) },
};

static const WgPortSpec inputs[] = {
  { "a", WG_PORT_FIELD, 0, FALSE, "The base field; the output has its grid and channels" },
  { "b", WG_PORT_FIELD, 0, FALSE,
    "Added to a: any grid (resampled by world position), a's channels or 1 (a height)" },
};
static const WgPortSpec outputs[] = {
  { "field", WG_PORT_FIELD, 0, FALSE, "a + scale · b" },
};

/* Which channel one side's height goes to or comes from (see combine.h's
 * u_only): −1 channel by channel, or the channel, or −2 when the counts do
 * not go together. */
static int
height_channel (guint a_channels, guint b_channels)
{
  if (a_channels == b_channels)
    return -1;
  if (b_channels == 1)
    return a_channels == 3 ? 2 : -2;
  if (a_channels == 1)
    return b_channels == 3 ? 2 : -2;
  return -2;
}

static gboolean
combine_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *a = wg_ctx_input (ctx, IN_A), *b = wg_ctx_input (ctx, IN_B);
  if (height_channel (a->channels, b->channels) == -2)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "input \"b\" has %u channels, \"a\" %u: b needs a's count, or either side 1 "
                    "(a height) with the other 3 (a displacement)",
                    b->channels, a->channels);
      return FALSE;
    }
  wg_ctx_define_field (ctx, 0, a->width, a->height, a->channels, a->extent);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    return TRUE;
  WgGpuKernel *kernel = g_new0 (WgGpuKernel, 1);
  wg_ctx_set_state (ctx, kernel);
  return wg_gpu_kernel_init (kernel, gpu, "combine.comp", "", sizeof (CombineUniforms), error);
}

static void
combine_free_state (gpointer data)
{
  wg_gpu_kernel_clear (data);
  g_free (data);
}

static gboolean
combine_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *ab = wg_ctx_input (ctx, IN_A), *bb = wg_ctx_input (ctx, IN_B);
  const float *a = wg_buffer_cpu (ab, error);
  const float *b = a ? wg_buffer_cpu (bb, error) : NULL;
  if (b == NULL)
    return FALSE;
  const CombineParams *p = wg_ctx_params (ctx);
  float *out = wg_buffer_data (wg_ctx_output (ctx, 0));
  const WgResampler r = { b, bb->width, bb->height, (float) (bb->width / bb->extent[0]),
                          (float) (bb->height / bb->extent[1]), p->wrap };
  const float dx = (float) (ab->extent[0] / ab->width), dy = (float) (ab->extent[1] / ab->height);
  const float scale = (float) p->scale;
  const guint n = ab->channels, nb = bb->channels;
  const int only = height_channel (n, nb);

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < ab->height; j++)
    for (guint i = 0; i < ab->width; i++)
      {
        gsize cell[4];
        float wa, wb;
        wg_resample_cells (&r, i * dx, j * dy, cell, &wa, &wb);
        const gsize base = ((gsize) j * ab->width + i) * n;
        for (guint c = 0; c < n; c++)
          {
            float add;
            if (only < 0)
              add = wg_resample_blend (b, nb, c, cell, wa, wb);
            else if (n == 1)
              add = wg_resample_blend (b, nb, (guint) only, cell, wa, wb);
            else
              add = c == (guint) only ? wg_resample_blend (b, 1, 0, cell, wa, wb) : 0.0f;
            out[base + c] = a[base + c] + scale * add;
          }
      }
  return TRUE;
}

static gboolean
combine_process_gpu (WgNodeContext *ctx, GError **error)
{
  const CombineParams *p = wg_ctx_params (ctx);
  WgBuffer *ab = wg_ctx_input (ctx, IN_A), *bb = wg_ctx_input (ctx, IN_B);
  GLuint out, a, b;
  if (!(out = wg_buffer_gpu_write (wg_ctx_output (ctx, 0), error)) ||
      !(a = wg_buffer_gpu (ab, error)) || !(b = wg_buffer_gpu (bb, error)))
    return FALSE;
  const CombineUniforms u = {
    .u_size = { ab->width, ab->height },
    .u_spacing = { (float) (ab->extent[0] / ab->width), (float) (ab->extent[1] / ab->height) },
    .u_ambient_size = { bb->width, bb->height },
    .u_ambient_inv_spacing = { (float) (bb->width / bb->extent[0]),
                               (float) (bb->height / bb->extent[1]) },
    .u_ambient_wrap = p->wrap,
    .u_scale = (float) p->scale,
    .u_channels = ab->channels,
    .u_b_channels = bb->channels,
    .u_only = height_channel (ab->channels, bb->channels),
  };
  wg_gpu_bind (0, out);
  wg_gpu_bind (1, a);
  wg_gpu_bind (2, b);
  wg_gpu_kernel_dispatch_field (wg_ctx_get_state (ctx), &u, ab->width, ab->height);
  return TRUE;
}

const WgNodeType wg_node_combine = {
  .name = "combine",
  .title = "Combine",
  .category = "Interaction",
  .description = "Adds one field to another (resampled onto its grid by world position): an "
                 "ocean's displacement plus particle wakes, a swell plus ripples.",
  .reference = "Tessendorf, Interactive Water Surfaces (papers/000), Ambient Waves: adding "
               "waves computed elsewhere",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = combine_prepare,
  .process_cpu = combine_process_cpu,
  .process_gpu = combine_process_gpu,
  .free_state = combine_free_state,
  .params_size = sizeof (CombineParams),
};
