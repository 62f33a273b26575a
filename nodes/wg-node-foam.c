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
#include "wg-rows.h"
#include "wg-simd.h"
#include "wg-gpu-kernel.h"
#include "foam.h"

#include <math.h>
#include <omp.h>
#include <stddef.h>
#include <string.h>

enum { OUT_FOAM, OUT_JACOBIAN };
enum { P_THRESHOLD, P_FALLOFF, P_DECAY, P_WRAP, N_PARAMS };

typedef struct {
  double threshold, falloff, decay;
  gboolean wrap;
} FoamParams;

#define OFFSET(x) offsetof (FoamParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_THRESHOLD] = { "threshold", "Coverage threshold", WG_PARAM_FLOAT, "",
                    "Jacobian value below which foam forms (1: flat water; 0: folding); higher "
                    "covers more of the sea",
                    0.5, -2, 2, -0.5, 1.5, .offset = OFFSET (threshold) },
  [P_FALLOFF] = { "falloff", "Falloff", WG_PARAM_FLOAT, "",
                  "Drop of the Jacobian below the threshold over which foam ramps to full", 0.5,
                  0.001, 10, 0.01, 2, .offset = OFFSET (falloff) },
  [P_DECAY] = { "decay", "Decay per frame", WG_PARAM_FLOAT, "",
                "Fraction of last frame's foam that remains (0: no memory)", 0.9, 0, 1, 0, 1,
                .offset = OFFSET (decay) },
  [P_WRAP] = { "wrap", "Periodic edges", WG_PARAM_BOOL, "",
               "Differences wrap around the edges (tiling ocean); off: one-sided at the edges", 1,
               .offset = OFFSET (wrap) },
};

static const WgPortSpec inputs[] = {
  { "displacement", WG_PORT_FIELD, 3, FALSE, "Vector displacement (λDx, λDy, h) (m)" },
};
static const WgPortSpec outputs[] = {
  { "foam", WG_PORT_FIELD, 1, FALSE, "Foam coverage, 0 to 1" },
  { "jacobian", WG_PORT_FIELD, 1, FALSE, "Jacobian J of the displaced grid (1: undistorted)" },
};

/* The kernel's constants in float, as the GPU path computes them. */
typedef struct {
  float threshold, inv_falloff, decay;
} FoamConstants;

/* This evaluation's pointers and constants, from begin_rows, and the GPU
 * kernel built in prepare. */
typedef struct {
  const float *d;
  float *foam;
  float *jac;     /* NULL when nothing consumes the Jacobian */
  float *scratch; /* per thread: 7 rows, a Jacobian row (when jac is NULL) and
                   * the wg-rows.h planes */
  guint w, hh;
  float sx, sx1, idy;
  gboolean wrap;
  FoamConstants fp;
  WgGpuKernel kernel;
} FoamState;

static void
foam_state_free (gpointer data)
{
  FoamState *st = data;
  wg_gpu_kernel_clear (&st->kernel);
  g_free (st->scratch);
  g_free (st);
}

static gboolean
foam_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *d = wg_ctx_input (ctx, 0);
  FoamState *st = g_new0 (FoamState, 1);
  wg_ctx_set_state (ctx, st);
  wg_ctx_define_field (ctx, OUT_FOAM, d->width, d->height, 1, d->extent);
  wg_ctx_define_field (ctx, OUT_JACOBIAN, d->width, d->height, 1, d->extent);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    {
      st->scratch = g_new (float, 7 * (gsize) d->width * wg_ctx_threads (ctx));
      return TRUE;
    }
  /* Whether the Jacobian is consumed is fixed for the plan: asking for it
   * later (wg_plan_get_node_output) prepares the node again. */
  return wg_gpu_kernel_init (&st->kernel, gpu, "foam.comp",
                             wg_ctx_output_used (ctx, OUT_JACOBIAN) ? "#define KEEP_JACOBIAN 1\n"
                                                                   : NULL,
                             sizeof (FoamUniforms), error);
}

static void
foam_reset (WgNodeContext *ctx)
{
  wg_buffer_zero (wg_ctx_output (ctx, OUT_FOAM));
}

/* Jacobian and foam at one column from its neighbours w, e, s, n. */
static inline void
foam_at (const FoamConstants *fp, const float *w, const float *e, const float *s, const float *n,
         float sx, float sy, float *restrict jac, float *restrict foam)
{
  float jxx = 1.0f + sx * (e[0] - w[0]), jyy = 1.0f + sy * (n[1] - s[1]);
  float jxy = sy * (n[0] - s[0]), jyx = sx * (e[1] - w[1]);
  float J = jxx * jyy - jxy * jyx;
  float fresh = (fp->threshold - J) * fp->inv_falloff;
  fresh = fresh > 0.0f ? fresh : 0.0f;
  fresh = fresh < 1.0f ? fresh : 1.0f;
  float kept = fp->decay * *foam;
  *jac = J;
  *foam = fresh > kept ? fresh : kept;
}

/* One row's interior columns from split rows (wg-rows.h): λDx, λDy of this
 * row (cx, cy) and of rows j∓1 (sx_, sy_ and nx_, ny_). The two border
 * columns are the caller's. */
WG_HOT_KERNEL static void
foam_row (const FoamConstants *fp, const float *restrict cx, const float *restrict cy,
          const float *restrict sx_, const float *restrict sy_, const float *restrict nx_,
          const float *restrict ny_, guint w, float sx, float sy, float *restrict jac,
          float *restrict foam)
{
  /* jac may be a one-row scratch when nothing consumes the Jacobian. */
  const float threshold = fp->threshold, inv_falloff = fp->inv_falloff, decay = fp->decay;
  for (gsize i = 1; i + 1 < w; i++)
    {
      float jxx = 1.0f + sx * (cx[i + 1] - cx[i - 1]);
      float jyx = sx * (cy[i + 1] - cy[i - 1]);
      float jxy = sy * (nx_[i] - sx_[i]);
      float jyy = 1.0f + sy * (ny_[i] - sy_[i]);
      float J = jxx * jyy - jxy * jyx;
      /* Comparisons rather than fminf/fmaxf, which must honour NaN and
       * cannot become MINPS/MAXPS. */
      float fresh = (threshold - J) * inv_falloff;
      fresh = fresh > 0.0f ? fresh : 0.0f;
      fresh = fresh < 1.0f ? fresh : 1.0f;
      float kept = decay * foam[i];
      jac[i] = J;
      foam[i] = fresh > kept ? fresh : kept;
    }
}

static gboolean
foam_begin_rows (WgNodeContext *ctx, GError **error)
{
  const FoamParams *p = wg_ctx_params (ctx);
  FoamState *st = wg_ctx_get_state (ctx);
  WgBuffer *db = wg_ctx_input (ctx, 0);
  if ((st->d = wg_buffer_cpu (db, error)) == NULL)
    return FALSE;
  st->foam = wg_buffer_data (wg_ctx_output (ctx, OUT_FOAM));
  st->jac = wg_ctx_output_used (ctx, OUT_JACOBIAN)
              ? wg_buffer_data (wg_ctx_output (ctx, OUT_JACOBIAN)) : NULL;
  st->w = db->width;
  st->hh = db->height;
  const float idx = (float) (db->width / db->extent[0]);
  st->idy = (float) (db->height / db->extent[1]);
  st->fp = (FoamConstants) { (float) p->threshold, (float) (1.0 / p->falloff),
                             (float) p->decay };
  st->wrap = p->wrap;
  st->sx = 0.5f * idx;
  st->sx1 = st->wrap ? st->sx : idx;
  return TRUE;
}

static void
foam_process_rows (WgNodeContext *ctx, guint row0, guint row1)
{
  const FoamState *st = wg_ctx_get_state (ctx);
  const guint w = st->w, hh = st->hh;
  const gboolean wrap = st->wrap;
  const float *d = st->d;
  float *scratch = st->scratch + 7 * (gsize) w * (guint) omp_get_thread_num ();
  WgSplitRows split;
  wg_split_rows_init (&split, d, w, scratch + w);
  for (guint j = row0; j < row1; j++)
    {
      guint jn = j + 1 < hh ? j + 1 : (wrap ? 0 : j);
      guint js = j > 0 ? j - 1 : (wrap ? hh - 1 : j);
      float sy = (jn == j || js == j) && !wrap ? st->idy : 0.5f * st->idy;
      const float *c = d + 3 * (gsize) j * w, *n = d + 3 * (gsize) jn * w,
                  *s = d + 3 * (gsize) js * w;
      float *jr = st->jac ? st->jac + (gsize) j * w : scratch;
      float *fr = st->foam + (gsize) j * w;
      const float *last = c + 3 * (w - 1);
      WgRowStencil r = wg_split_rows_stencil (&split, js, j, jn);
      foam_row (&st->fp, r.cx, r.cy, r.sx, r.sy, r.nx, r.ny, w, st->sx, sy, jr, fr);
      foam_at (&st->fp, wrap ? last : c, c + 3, s, n, st->sx1, sy, &jr[0], &fr[0]);
      foam_at (&st->fp, c + 3 * (w - 2), wrap ? c : last, s + 3 * (w - 1), n + 3 * (w - 1),
               st->sx1, sy, &jr[w - 1], &fr[w - 1]);
    }
}

static gboolean
foam_process_gpu (WgNodeContext *ctx, GError **error)
{
  const FoamParams *p = wg_ctx_params (ctx);
  const FoamState *st = wg_ctx_get_state (ctx);
  WgBuffer *db = wg_ctx_input (ctx, 0);
  gboolean keep_jacobian = wg_ctx_output_used (ctx, OUT_JACOBIAN);
  GLuint d = wg_buffer_gpu (db, error);
  GLuint foam = wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_FOAM), error);
  GLuint jac = keep_jacobian ? wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_JACOBIAN), error) : 0;
  if (d == 0 || foam == 0 || (keep_jacobian && jac == 0))
    return FALSE;
  const FoamUniforms u = {
    .u_size = { db->width, db->height },
    .u_inv_spacing = { (float) (db->width / db->extent[0]), (float) (db->height / db->extent[1]) },
    .u_threshold = (float) p->threshold,
    .u_inv_falloff = (float) (1.0 / p->falloff),
    .u_decay = (float) p->decay,
    .u_wrap = p->wrap,
  };
  wg_gpu_bind (0, d);
  wg_gpu_bind (1, foam);
  wg_gpu_bind (2, jac);
  wg_gpu_kernel_dispatch_field (&st->kernel, &u, db->width, db->height);
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
  .process_gpu = foam_process_gpu,
  .reset = foam_reset,
  .free_state = foam_state_free,
  .begin_rows = foam_begin_rows,
  .process_rows = foam_process_rows,
  .row_halo = 1,
  .params_size = sizeof (FoamParams),
};
