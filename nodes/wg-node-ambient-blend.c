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

enum { IN_HEIGHT, IN_AMBIENT, IN_OBSTRUCTION };
enum { P_MODE, P_SCALE, P_WRAP, N_PARAMS };
enum { MODE_SUBTRACT, MODE_ADD };

static const char *const modes[] = { "subtract", "add", NULL };

static const WgParamSpec params[N_PARAMS] = {
  [P_MODE] = { "mode", "Mode", WG_PARAM_ENUM, "",
               "subtract: h − a (1 − obstruction), the paper's coupling; add: (h + a) · "
               "obstruction, the surface you see",
               MODE_SUBTRACT, .choices = modes },
  [P_SCALE] = { "scale", "Ambient scale", WG_PARAM_FLOAT, "", "Multiplies the ambient waves", 1,
                -100, 100, 0, 2 },
  [P_WRAP] = { "wrap", "Tile ambient", WG_PARAM_BOOL, "",
               "The ambient field repeats (a periodic ocean tile); off: clamp at its edges", 1 },
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
  return TRUE;
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
  float *out = wg_buffer_data (wg_ctx_output (ctx, 0));
  WgResampler r = { a, ab->width, ab->height, (float) (ab->width / ab->extent[0]),
                    (float) (ab->height / ab->extent[1]), wg_ctx_bool (ctx, P_WRAP) };
  const float dx = (float) (hb->extent[0] / hb->width), dy = (float) (hb->extent[1] / hb->height);
  const float scale = (float) wg_ctx_double (ctx, P_SCALE);
  const gboolean add = wg_ctx_enum (ctx, P_MODE) == MODE_ADD;

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hb->height; j++)
    for (guint i = 0; i < hb->width; i++)
      {
        gsize p = (gsize) j * hb->width + i;
        float amb = scale * wg_resample (&r, i * dx, j * dy);
        float mask = o ? o[p] : 1.0f;
        out[p] = add ? (h[p] + amb) * mask : h[p] - amb * (1.0f - mask);
      }
  return TRUE;
}

static gboolean
ambient_blend_process_gpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *hb = wg_ctx_input (ctx, IN_HEIGHT), *ab = wg_ctx_input (ctx, IN_AMBIENT);
  WgBuffer *ob = wg_ctx_input (ctx, IN_OBSTRUCTION);
  GString *defines = g_string_new (NULL);
  if (ob)
    g_string_append (defines, "#define OBSTRUCTION 1\n");
  if (wg_ctx_enum (ctx, P_MODE) == MODE_ADD)
    g_string_append (defines, "#define ADD 1\n");
  GLuint program, out, h, a, o;
  gboolean ok =
    (program = wg_gpu_program (wg_ctx_gpu (ctx), "ambient-blend.comp", defines->str, error)) &&
    (out = wg_buffer_gpu_write (wg_ctx_output (ctx, 0), error)) &&
    (h = wg_buffer_gpu (hb, error)) && (a = wg_buffer_gpu (ab, error)) &&
    (o = ob ? wg_buffer_gpu (ob, error) : out);
  g_string_free (defines, TRUE);
  if (!ok)
    return FALSE;
  wg_gpu_set_uvec2 (program, "u_size", hb->width, hb->height);
  wg_gpu_set_vec2 (program, "u_spacing", (float) (hb->extent[0] / hb->width),
                   (float) (hb->extent[1] / hb->height));
  wg_gpu_set_uvec2 (program, "u_ambient_size", ab->width, ab->height);
  wg_gpu_set_vec2 (program, "u_ambient_inv_spacing", (float) (ab->width / ab->extent[0]),
                   (float) (ab->height / ab->extent[1]));
  wg_gpu_set_int (program, "u_ambient_wrap", wg_ctx_bool (ctx, P_WRAP));
  wg_gpu_set_float (program, "u_scale", (float) wg_ctx_double (ctx, P_SCALE));
  wg_gpu_bind (0, out);
  wg_gpu_bind (1, h);
  wg_gpu_bind (2, a);
  wg_gpu_bind (3, o);
  wg_gpu_dispatch_field (program, hb->width, hb->height);
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
};
