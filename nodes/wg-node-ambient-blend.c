/* ambient-blend — couples waves from elsewhere with a simulation's grid
 * (Tessendorf, "Interactive Water Surfaces", papers/000, "Ambient Waves").
 * The ambient field (an FFT ocean, any grid and extent) is resampled onto
 * the height's grid by world position (wg-resample.h: bilinear, tiling or
 * clamped) and
 *  - subtract: h − a (1 − obstruction), the paper's step: inside obstacles
 *    the ambient waves are cancelled, open water is untouched;
 *  - add: (h + a) · obstruction, the visible surface of an iWave run over
 *    ambient swell (obstruction optional).
 * a is the resampled ambient times the scale.
 */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "wg-resample.h"
#include "ambient-blend.h"

#include <stddef.h>

enum { IN_HEIGHT, IN_AMBIENT, IN_OBSTRUCTION };
enum { P_MODE, P_SCALE, P_WRAP, N_PARAMS };
enum { MODE_SUBTRACT, MODE_ADD };

static const char *const modes[] = { "subtract", "add", NULL };

typedef struct {
  int mode;
  double scale;
  gboolean wrap;
} AmbientBlendParams;

#define OFFSET(x) offsetof (AmbientBlendParams, x)

/* Kernels by mode, built in prepare: the mode may be a graph input. */
typedef struct {
  WgGpuKernel kernels[2];
} AmbientBlendState;

static const WgParamSpec params[N_PARAMS] = {
  [P_MODE] = { "mode", "Mode", WG_PARAM_ENUM, "",
               "subtract: h − a (1 − obstruction), the paper's coupling; add: (h + a) · "
               "obstruction, the surface you see",
               MODE_SUBTRACT, .choices = modes, .offset = OFFSET (mode) },
  [P_SCALE] = { "scale", "Ambient scale", WG_PARAM_FLOAT, "", "Multiplies the ambient waves", 1,
                -100, 100, 0, 2, .offset = OFFSET (scale) },
  [P_WRAP] = { "wrap", "Tile ambient", WG_PARAM_BOOL, "",
               "The ambient field repeats (a periodic ocean tile); off: clamp at its edges", 1,
               .offset = OFFSET (wrap) },
};

static const WgPortSpec inputs[] = {
  { "height", WG_PORT_FIELD, 1, FALSE, "Height on the simulation grid (m)" },
  { "ambient", WG_PORT_FIELD, 1, FALSE, "Ambient waves (m), any grid, resampled" },
  { "obstruction", WG_PORT_FIELD, 1, TRUE, "Mask on the height's grid: 1 water, 0 solid" },
};
static const WgPortSpec outputs[] = {
  { "height", WG_PORT_FIELD, 1, FALSE, "Blended height (m)" },
};

static gboolean
ambient_blend_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *h = wg_ctx_input (ctx, IN_HEIGHT), *o = wg_ctx_input (ctx, IN_OBSTRUCTION);
  if (o && (o->width != h->width || o->height != h->height))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "input \"obstruction\" is %u×%u, \"height\" %u×%u", o->width, o->height,
                    h->width, h->height);
      return FALSE;
    }
  wg_ctx_define_field (ctx, 0, h->width, h->height, 1, h->extent);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    return TRUE;
  AmbientBlendState *st = g_new0 (AmbientBlendState, 1);
  wg_ctx_set_state (ctx, st);
  const char *obstruction = o ? "#define OBSTRUCTION 1\n" : "";
  g_autofree char *add = g_strconcat (obstruction, "#define ADD 1\n", NULL);
  return wg_gpu_kernel_init (&st->kernels[MODE_SUBTRACT], gpu, "ambient-blend.comp", obstruction,
                             sizeof (AmbientBlendUniforms), error) &&
         wg_gpu_kernel_init (&st->kernels[MODE_ADD], gpu, "ambient-blend.comp", add,
                             sizeof (AmbientBlendUniforms), error);
}

static void
ambient_blend_free_state (gpointer data)
{
  AmbientBlendState *st = data;
  for (guint m = 0; m < G_N_ELEMENTS (st->kernels); m++)
    wg_gpu_kernel_clear (&st->kernels[m]);
  g_free (st);
}

static gboolean
ambient_blend_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *hb = wg_ctx_input (ctx, IN_HEIGHT), *ab = wg_ctx_input (ctx, IN_AMBIENT);
  WgBuffer *ob = wg_ctx_input (ctx, IN_OBSTRUCTION);
  const float *h = wg_buffer_cpu (hb, error);
  const float *a = h ? wg_buffer_cpu (ab, error) : NULL;
  const float *o = ob && a ? wg_buffer_cpu (ob, error) : NULL;
  if (!h || !a || (ob && !o))
    return FALSE;
  const AmbientBlendParams *p = wg_ctx_params (ctx);
  float *out = wg_buffer_data (wg_ctx_output (ctx, 0));
  WgResampler r = { a, ab->width, ab->height, (float) (ab->width / ab->extent[0]),
                    (float) (ab->height / ab->extent[1]), p->wrap };
  const float dx = (float) (hb->extent[0] / hb->width), dy = (float) (hb->extent[1] / hb->height);
  const float scale = (float) p->scale;
  const gboolean add = p->mode == MODE_ADD;

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hb->height; j++)
    for (guint i = 0; i < hb->width; i++)
      {
        gsize c = (gsize) j * hb->width + i;
        float amb = scale * wg_resample (&r, i * dx, j * dy);
        float mask = o ? o[c] : 1.0f;
        out[c] = add ? (h[c] + amb) * mask : h[c] - amb * (1.0f - mask);
      }
  return TRUE;
}

static gboolean
ambient_blend_process_gpu (WgNodeContext *ctx, GError **error)
{
  const AmbientBlendParams *p = wg_ctx_params (ctx);
  const AmbientBlendState *st = wg_ctx_get_state (ctx);
  WgBuffer *hb = wg_ctx_input (ctx, IN_HEIGHT), *ab = wg_ctx_input (ctx, IN_AMBIENT);
  WgBuffer *ob = wg_ctx_input (ctx, IN_OBSTRUCTION);
  GLuint out, h, a, o;
  if (!(out = wg_buffer_gpu_write (wg_ctx_output (ctx, 0), error)) ||
      !(h = wg_buffer_gpu (hb, error)) || !(a = wg_buffer_gpu (ab, error)) ||
      !(o = ob ? wg_buffer_gpu (ob, error) : out))
    return FALSE;
  const AmbientBlendUniforms u = {
    .u_size = { hb->width, hb->height },
    .u_spacing = { (float) (hb->extent[0] / hb->width), (float) (hb->extent[1] / hb->height) },
    .u_ambient_size = { ab->width, ab->height },
    .u_ambient_inv_spacing = { (float) (ab->width / ab->extent[0]),
                               (float) (ab->height / ab->extent[1]) },
    .u_ambient_wrap = p->wrap,
    .u_scale = (float) p->scale,
  };
  wg_gpu_bind (0, out);
  wg_gpu_bind (1, h);
  wg_gpu_bind (2, a);
  wg_gpu_bind (3, o);
  wg_gpu_kernel_dispatch_field (&st->kernels[p->mode], &u, hb->width, hb->height);
  return TRUE;
}

const WgNodeType wg_node_ambient_blend = {
  .name = "ambient-blend",
  .title = "Ambient Blend",
  .category = "Interaction",
  .description = "Cancels ambient waves (e.g. an FFT ocean, resampled) inside obstacles, as "
                 "iWave's coupling, or adds them to a simulation for the visible surface.",
  .reference = "Tessendorf, Interactive Water Surfaces (papers/000), Ambient Waves",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = ambient_blend_prepare,
  .process_cpu = ambient_blend_process_cpu,
  .process_gpu = ambient_blend_process_gpu,
  .free_state = ambient_blend_free_state,
  .params_size = sizeof (AmbientBlendParams),
};
