/* choppy-displacement — the vector displacement map (λDx, λDy, h).
 *
 * Belyaev (papers/003) eq. 9: x = x0 + λ D(x0, t). Two ways to get D:
 *  - spectral: D from the fft node (eq. 10, one more transform);
 *  - finite-difference: Belyaev's shortcut eq. 11,
 *      D_ij = (S/N) (h_{i+1,j} − h_ij, h_{i,j+1} − h_ij),
 *    with S/N the grid spacing Δ (m). D then has units m², so λ carries 1/m
 *    and is not interchangeable with the spectral λ; for a wave A cos(kx) the
 *    shortcut gives −Δ²kA sin(kx) against the spectral −A sin(kx).
 * Positive λ moves points toward crests in both (see the fft node).
 */
#include "wg-node-private.h"
#include "wg-simd.h"
#include "wg-gpu-kernel.h"
#include "choppy-displacement.h"

#include <stddef.h>
#include <string.h>

enum { IN_HEIGHT, IN_DISPLACEMENT };
enum { P_METHOD, P_CHOPPINESS, P_WRAP, N_PARAMS };
enum { METHOD_SPECTRAL, METHOD_FINITE_DIFFERENCE };

static const char *const methods[] = { "spectral", "finite-difference", NULL };

typedef struct {
  int method;
  double choppiness;
  gboolean wrap;
} ChoppyParams;

#define OFFSET(x) offsetof (ChoppyParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_METHOD] = { "method", "Method", WG_PARAM_ENUM, "",
                 "spectral: D = i k/|k| h̃ from the fft node (eq. 10); finite-difference: "
                 "Belyaev's shortcut from the height map alone (eq. 11)",
                 METHOD_SPECTRAL, .choices = methods, .flags = WG_PARAM_FLAG_PREPARE,
                 .offset = OFFSET (method) },
  [P_CHOPPINESS] = { "choppiness", "Choppiness λ", WG_PARAM_FLOAT, "",
                     "Scale λ of the horizontal displacement; too large folds the surface "
                     "(foam marks where)",
                     1, -20, 20, 0, 2, .offset = OFFSET (choppiness) },
  [P_WRAP] = { "wrap", "Periodic edges", WG_PARAM_BOOL, "",
               "Finite differences wrap around the edges (tiling ocean); off: clamp", 1,
               .visible_when = "method=finite-difference", .offset = OFFSET (wrap) },
};

static const WgPortSpec inputs[] = {
  { "height", WG_PORT_FIELD, 1, FALSE, "Height h (m)" },
  { "displacement", WG_PORT_FIELD, 2, TRUE,
    "Spectral horizontal displacement D (fft:displacement), needed by the spectral method" },
};
static const WgPortSpec outputs[] = {
  { "displacement", WG_PORT_FIELD, 3, FALSE,
    "Vector displacement (λDx, λDy, h) (m): where each grid point moves" },
};

/* This evaluation's pointers and constants, from begin_rows, and the GPU
 * kernel built in prepare. */
typedef struct {
  const float *h, *d; /* d: NULL for the finite-difference method */
  float *out;
  guint w, hh;
  float lambda, sx, sy;
  gboolean wrap;
  WgGpuKernel kernel;
} ChoppyState;

static void
choppy_free_state (gpointer data)
{
  ChoppyState *st = data;
  wg_gpu_kernel_clear (&st->kernel);
  g_free (st);
}

static gboolean
choppy_prepare (WgNodeContext *ctx, GError **error)
{
  const ChoppyParams *p = wg_ctx_params (ctx);
  WgBuffer *h = wg_ctx_input (ctx, IN_HEIGHT), *d = wg_ctx_input (ctx, IN_DISPLACEMENT);
  if (p->method == METHOD_SPECTRAL)
    {
      if (d == NULL)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_METHOD,
                        "the spectral method needs input \"displacement\" linked (from "
                        "fft:displacement); use \"finite-difference\" for the height alone");
          return FALSE;
        }
      if (d->width != h->width || d->height != h->height)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "inputs \"height\" (%u×%u) and \"displacement\" (%u×%u) differ in size",
                        h->width, h->height, d->width, d->height);
          return FALSE;
        }
    }
  wg_ctx_define_field (ctx, 0, h->width, h->height, 3, h->extent);
  ChoppyState *st = g_new0 (ChoppyState, 1);
  wg_ctx_set_state (ctx, st);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  return gpu == NULL ||
         wg_gpu_kernel_init (&st->kernel, gpu, "choppy-displacement.comp",
                             p->method == METHOD_SPECTRAL ? "#define SPECTRAL 1\n" : NULL,
                             sizeof (ChoppyUniforms), error);
}

static gboolean
choppy_begin_rows (WgNodeContext *ctx, GError **error)
{
  const ChoppyParams *p = wg_ctx_params (ctx);
  ChoppyState *st = wg_ctx_get_state (ctx);
  WgBuffer *hb = wg_ctx_input (ctx, IN_HEIGHT);
  st->h = wg_buffer_cpu (hb, error);
  if (st->h == NULL)
    return FALSE;
  st->d = NULL;
  if (p->method == METHOD_SPECTRAL &&
      (st->d = wg_buffer_cpu (wg_ctx_input (ctx, IN_DISPLACEMENT), error)) == NULL)
    return FALSE;
  st->out = wg_buffer_data (wg_ctx_output (ctx, 0));
  st->w = hb->width;
  st->hh = hb->height;
  st->lambda = (float) p->choppiness;
  st->sx = (float) (hb->extent[0] / hb->width) * st->lambda;
  st->sy = (float) (hb->extent[1] / hb->height) * st->lambda;
  st->wrap = p->wrap;
  return TRUE;
}

/* @n cells of (λDx, λDy, h) from D and h, four cells at a time as three
 * whole vectors: compilers leave the plain loop's stride-3 stores scalar.
 * 17-23% faster with AVX2 (measured at 512² and 1024²) and level on the
 * baseline build; eight-cell vectors were faster still with AVX2 but four
 * times slower on the baseline, which has no 32-byte shuffles. */
WG_HOT_KERNEL static void
interleave (const float *restrict d, const float *restrict h, float lambda, gsize n,
            float *restrict out)
{
  gsize p = 0;
  for (; p + 4 <= n; p += 4)
    {
      WgFloat4 d0, d1, hv;
      memcpy (&d0, d + 2 * p, sizeof d0);
      memcpy (&d1, d + 2 * p + 4, sizeof d1);
      memcpy (&hv, h + p, sizeof hv);
      d0 *= lambda;
      d1 *= lambda;
      /* Indices 4-7 pick from the second operand (__builtin_shufflevector:
       * clang, and GCC from 12). */
      WgFloat4 o0 = __builtin_shufflevector (d0, hv, 0, 1, 4, 2);
      WgFloat4 t = __builtin_shufflevector (d0, d1, 3, 0, 4, 5);
      WgFloat4 o1 = __builtin_shufflevector (t, hv, 0, 5, 2, 3);
      WgFloat4 o2 = __builtin_shufflevector (d1, hv, 6, 2, 3, 7);
      memcpy (out + 3 * p, &o0, sizeof o0);
      memcpy (out + 3 * p + 4, &o1, sizeof o1);
      memcpy (out + 3 * p + 8, &o2, sizeof o2);
    }
  for (; p < n; p++)
    {
      out[3 * p] = lambda * d[2 * p];
      out[3 * p + 1] = lambda * d[2 * p + 1];
      out[3 * p + 2] = h[p];
    }
}

static void
choppy_process_rows (WgNodeContext *ctx, guint row0, guint row1)
{
  const ChoppyState *st = wg_ctx_get_state (ctx);
  const float *h = st->h, *d = st->d;
  float *out = st->out;
  const guint w = st->w, hh = st->hh;
  if (d)
    {
      gsize p = (gsize) row0 * w;
      interleave (d + 2 * p, h + p, st->lambda, (gsize) (row1 - row0) * w, out + 3 * p);
      return;
    }
  for (guint j = row0; j < row1; j++)
    {
      guint j1 = j + 1 < hh ? j + 1 : (st->wrap ? 0 : j);
      for (guint i = 0; i < w; i++)
        {
          guint i1 = i + 1 < w ? i + 1 : (st->wrap ? 0 : i);
          gsize p = (gsize) j * w + i;
          out[3 * p] = st->sx * (h[(gsize) j * w + i1] - h[p]);
          out[3 * p + 1] = st->sy * (h[(gsize) j1 * w + i] - h[p]);
          out[3 * p + 2] = h[p];
        }
    }
}

static gboolean
choppy_process_gpu (WgNodeContext *ctx, GError **error)
{
  const ChoppyParams *p = wg_ctx_params (ctx);
  const ChoppyState *st = wg_ctx_get_state (ctx);
  WgBuffer *hb = wg_ctx_input (ctx, IN_HEIGHT);
  gboolean spectral = p->method == METHOD_SPECTRAL;
  GLuint h = wg_buffer_gpu (hb, error);
  GLuint d = spectral ? wg_buffer_gpu (wg_ctx_input (ctx, IN_DISPLACEMENT), error) : 0;
  GLuint out = wg_buffer_gpu_write (wg_ctx_output (ctx, 0), error);
  if (h == 0 || (spectral && d == 0) || out == 0)
    return FALSE;
  const float lambda = (float) p->choppiness;
  const ChoppyUniforms u = {
    .u_size = { hb->width, hb->height },
    .u_step = { (float) (hb->extent[0] / hb->width) * lambda,
                (float) (hb->extent[1] / hb->height) * lambda },
    .u_lambda = lambda,
    .u_wrap = p->wrap,
  };
  wg_gpu_bind (0, h);
  wg_gpu_bind (1, d);
  wg_gpu_bind (2, out);
  wg_gpu_kernel_dispatch_field (&st->kernel, &u, hb->width, hb->height);
  return TRUE;
}

const WgNodeType wg_node_choppy_displacement = {
  .name = "choppy-displacement",
  .title = "Choppy Displacement",
  .category = "Ocean",
  .description = "Combines height and horizontal displacement into the vector displacement "
                 "map (λDx, λDy, h) that sharpens crests; spectral or Belyaev's "
                 "finite-difference shortcut.",
  .reference = "Belyaev 2003 eq. 9–11 (papers/003); Tessendorf 2001 §4.6",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = choppy_prepare,
  .process_gpu = choppy_process_gpu,
  .free_state = choppy_free_state,
  .begin_rows = choppy_begin_rows,
  .process_rows = choppy_process_rows,
  .row_halo = 1,
  .params_size = sizeof (ChoppyParams),
};
