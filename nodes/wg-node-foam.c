/* foam — whitecaps where the choppy surface folds, with per-frame decay.
 *
 * Tessendorf 2001 §4.6: the displaced grid x = x0 + λD folds over where the
 * Jacobian J = (1 + ∂Dx/∂x)(1 + ∂Dy/∂y) − (∂Dx/∂y)(∂Dy/∂x) drops below 0;
 * crests about to break have small J. Fresh foam is
 *   f = clamp((threshold − J) / falloff, 0, 1)
 * and foam persists: foam_t = max(f, decay · foam_{t−1}). The node is
 * stateful (it steps frame by frame); bakes warm it up with settings.preroll.
 */
#include "wg-node-private.h"

#include <math.h>
#include <string.h>

enum { OUT_FOAM, OUT_JACOBIAN };
enum { P_THRESHOLD, P_FALLOFF, P_DECAY, P_WRAP, N_PARAMS };

static const WgParamSpec params[N_PARAMS] = {
  [P_THRESHOLD] = { "threshold", "Coverage threshold", WG_PARAM_FLOAT, "",
                    "Jacobian value below which foam forms (1: flat water; 0: folding); higher "
                    "covers more of the sea",
                    0.5, -2, 2, -0.5, 1.5 },
  [P_FALLOFF] = { "falloff", "Falloff", WG_PARAM_FLOAT, "",
                  "Drop of the Jacobian below the threshold over which foam ramps to full", 0.5,
                  0.001, 10, 0.01, 2 },
  [P_DECAY] = { "decay", "Decay per frame", WG_PARAM_FLOAT, "",
                "Fraction of last frame's foam that remains (0: no memory)", 0.9, 0, 1, 0, 1 },
  [P_WRAP] = { "wrap", "Periodic edges", WG_PARAM_BOOL, "",
               "Differences wrap around the edges (tiling ocean); off: one-sided at the edges", 1 },
};

static const WgPortSpec inputs[] = {
  { "displacement", WG_PORT_FIELD, 3, FALSE, "Vector displacement (λDx, λDy, h) (m)" },
};
static const WgPortSpec outputs[] = {
  { "foam", WG_PORT_FIELD, 1, FALSE, "Foam coverage, 0 to 1" },
  { "jacobian", WG_PORT_FIELD, 1, FALSE, "Jacobian J of the displaced grid (1: undistorted)" },
};

static gboolean
foam_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *d = wg_ctx_input (ctx, 0);
  wg_ctx_define_field (ctx, OUT_FOAM, d->width, d->height, 1, d->extent);
  wg_ctx_define_field (ctx, OUT_JACOBIAN, d->width, d->height, 1, d->extent);
  return TRUE;
}

static void
foam_reset (WgNodeContext *ctx)
{
  WgBuffer *foam = wg_ctx_output (ctx, OUT_FOAM);
  memset (wg_buffer_data (foam), 0, foam->n_floats * sizeof (float));
}

static gboolean
foam_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *db = wg_ctx_input (ctx, 0);
  const float *d = wg_buffer_cpu (db, error);
  if (d == NULL)
    return FALSE;
  float *foam = wg_buffer_data (wg_ctx_output (ctx, OUT_FOAM));
  float *jac = wg_buffer_data (wg_ctx_output (ctx, OUT_JACOBIAN));
  const guint w = db->width, hh = db->height;
  const float idx = (float) (w / db->extent[0]), idy = (float) (hh / db->extent[1]);
  const float threshold = (float) wg_ctx_double (ctx, P_THRESHOLD);
  const float inv_falloff = (float) (1.0 / wg_ctx_double (ctx, P_FALLOFF));
  const float decay = (float) wg_ctx_double (ctx, P_DECAY);
  const gboolean wrap = wg_ctx_bool (ctx, P_WRAP);

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hh; j++)
    {
      guint jn = j + 1 < hh ? j + 1 : (wrap ? 0 : j);
      guint jp = j > 0 ? j - 1 : (wrap ? hh - 1 : j);
      float sy = (jn == j || jp == j) && !wrap ? idy : 0.5f * idy;
      for (guint i = 0; i < w; i++)
        {
          guint in = i + 1 < w ? i + 1 : (wrap ? 0 : i);
          guint ip = i > 0 ? i - 1 : (wrap ? w - 1 : i);
          float sx = (in == i || ip == i) && !wrap ? idx : 0.5f * idx;
          const float *e = d + 3 * ((gsize) j * w + in), *wv = d + 3 * ((gsize) j * w + ip);
          const float *no = d + 3 * ((gsize) jn * w + i), *so = d + 3 * ((gsize) jp * w + i);
          float jxx = 1.0f + sx * (e[0] - wv[0]), jyy = 1.0f + sy * (no[1] - so[1]);
          float jxy = sy * (no[0] - so[0]), jyx = sx * (e[1] - wv[1]);
          float J = jxx * jyy - jxy * jyx;
          gsize p = (gsize) j * w + i;
          float fresh = fminf (fmaxf ((threshold - J) * inv_falloff, 0.0f), 1.0f);
          jac[p] = J;
          foam[p] = fmaxf (fresh, decay * foam[p]);
        }
    }
  return TRUE;
}

const WgNodeType wg_node_foam = {
  .name = "foam",
  .title = "Foam",
  .category = "Ocean",
  .description = "Foam where the choppy surface compresses or folds (Jacobian below a "
                 "threshold), accumulated over frames with a per-frame decay.",
  .reference = "Tessendorf 2001 §4.6; Belyaev 2003 §3 (papers/003)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_STATEFUL,
  .prepare = foam_prepare,
  .process_cpu = foam_process_cpu,
  .reset = foam_reset,
};
