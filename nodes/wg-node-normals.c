/* normals — unit surface normals of the displaced surface.
 *
 * The displaced surface is P(x0) = (x0 + λDx, y0 + λDy, h). Its normal is
 * ∂P/∂x0 × ∂P/∂y0 (Belyaev, papers/003, eq. 12–13, which solves the same
 * 2×2 system by Cramer's rule; the transcription's "δx_{i+1j} − δx_{i+1j}"
 * reads δx_{i+1,j} − δx_{ij}):
 *   ∂P/∂x0 = (1 + ∂Dx/∂x, ∂Dy/∂x, ∂h/∂x),  ∂P/∂y0 = (∂Dx/∂y, 1 + ∂Dy/∂y, ∂h/∂y)
 *  - spectral: ∂h/∂x, ∂h/∂y from the exact FFT slopes, the displacement
 *    derivatives by central differences;
 *  - finite-difference: Belyaev's forward differences of all of P.
 * Without displacement both reduce to normalize(−∂h/∂x, −∂h/∂y, 1), which is
 * what a plain height field (input "height", e.g. from iwave or ripple)
 * gets: slopes from the slope input (spectral) or central differences of h
 * (finite-difference; one-sided at clamped edges). +z is up.
 */
#include "wg-node-private.h"
#include "wg-rows.h"
#include "wg-simd.h"
#include "wg-gpu-kernel.h"
#include "normals.h"

#include <math.h>
#include <omp.h>
#include <stddef.h>

enum { IN_DISPLACEMENT, IN_SLOPE, IN_HEIGHT };
enum { P_METHOD, P_WRAP, N_PARAMS };
enum { METHOD_SPECTRAL, METHOD_FINITE_DIFFERENCE };

static const char *const methods[] = { "spectral", "finite-difference", NULL };

typedef struct {
  int method;
  gboolean wrap;
} NormalsParams;

#define OFFSET(x) offsetof (NormalsParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_METHOD] = { "method", "Method", WG_PARAM_ENUM, "",
                 "spectral: exact slopes from the fft node with the displaced grid's Jacobian; "
                 "finite-difference: Belyaev's eq. 12 from the displacement map alone",
                 METHOD_SPECTRAL, .choices = methods, .offset = OFFSET (method) },
  [P_WRAP] = { "wrap", "Periodic edges", WG_PARAM_BOOL, "",
               "Differences wrap around the edges (tiling ocean); off: one-sided at the edges", 1,
               .offset = OFFSET (wrap) },
};

static const WgPortSpec inputs[] = {
  { "displacement", WG_PORT_FIELD, 3, TRUE,
    "Vector displacement (λDx, λDy, h) (m); or link \"height\"" },
  { "slope", WG_PORT_FIELD, 2, TRUE, "Slope (∂h/∂x, ∂h/∂y) from fft, for the spectral method" },
  { "height", WG_PORT_FIELD, 1, TRUE, "A height field without displacement (m): iwave, ripple" },
};
static const WgPortSpec outputs[] = {
  { "normal", WG_PORT_FIELD, 3, FALSE, "Unit normal (nx, ny, nz) of the displaced surface" },
};

/* The surface (displacement or height) after checking the inputs against
 * the method; NULL with @error set. Checked when the plan is built and per
 * frame: the method can be a graph input. */
static WgBuffer *
checked_surface (WgNodeContext *ctx, GError **error)
{
  WgBuffer *s = wg_ctx_input (ctx, IN_SLOPE), *hb = wg_ctx_input (ctx, IN_HEIGHT);
  WgBuffer *d = wg_ctx_input (ctx, IN_DISPLACEMENT);
  if ((d == NULL) == (hb == NULL))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    d ? "link \"displacement\" or \"height\", not both"
                      : "link input \"displacement\" (choppy surfaces) or \"height\" (height "
                        "fields)");
      return NULL;
    }
  const char *surface = d ? "displacement" : "height";
  if (d == NULL)
    d = hb;
  const NormalsParams *p = wg_ctx_params (ctx);
  if (p->method == METHOD_SPECTRAL)
    {
      if (s == NULL)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_METHOD,
                        "the spectral method needs input \"slope\" linked (from fft:slope); use "
                        "\"finite-difference\" for the %s alone", surface);
          return NULL;
        }
      if (s->width != d->width || s->height != d->height)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "inputs \"%s\" (%u×%u) and \"slope\" (%u×%u) differ in size", surface,
                        d->width, d->height, s->width, s->height);
          return NULL;
        }
    }
  return d;
}

/* This evaluation's pointers and constants, from begin_rows; on the GPU a
 * kernel per method, built in prepare (the method may be a graph input, so
 * it can change without the node being prepared again). */
typedef struct {
  const float *surface; /* displacement (3 channels) or height (1) */
  const float *slope;   /* NULL: finite differences */
  float *out;
  gboolean height;      /* the surface is a plain height field */
  guint w, hh;
  float dx, dy;
  gboolean wrap;
  float *scratch;       /* per thread: wg-rows.h planes */
  WgGpuKernel kernels[2]; /* by method; spectral only when a slope is linked */
} NormalsState;

static void
normals_state_free (gpointer data)
{
  NormalsState *st = data;
  for (guint m = 0; m < G_N_ELEMENTS (st->kernels); m++)
    wg_gpu_kernel_clear (&st->kernels[m]);
  g_free (st->scratch);
  g_free (st);
}

static gboolean
normals_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *d = checked_surface (ctx, error);
  if (d == NULL)
    return FALSE;
  wg_ctx_define_field (ctx, 0, d->width, d->height, 3, d->extent);
  NormalsState *st = g_new0 (NormalsState, 1);
  wg_ctx_set_state (ctx, st);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    {
      st->scratch = g_new (float, 6 * (gsize) d->width * wg_ctx_threads (ctx));
      return TRUE;
    }
  const char *height = wg_ctx_input (ctx, IN_HEIGHT) ? "#define HEIGHT 1\n" : "";
  g_autofree char *spectral = g_strconcat ("#define SPECTRAL 1\n", height, NULL);
  return wg_gpu_kernel_init (&st->kernels[METHOD_FINITE_DIFFERENCE], gpu, "normals.comp",
                             height, sizeof (NormalsUniforms), error) &&
         (wg_ctx_input (ctx, IN_SLOPE) == NULL ||
          wg_gpu_kernel_init (&st->kernels[METHOD_SPECTRAL], gpu, "normals.comp", spectral,
                              sizeof (NormalsUniforms), error));
}

/* The unit normal a × b of the displaced surface's tangents
 * a = ∂P/∂x0 = (1 + ∂Dx/∂x, ∂Dy/∂x, ∂h/∂x), b = ∂P/∂y0 = (∂Dx/∂y, 1 + ∂Dy/∂y, ∂h/∂y). */
static inline void
store_normal (float *restrict n, float ax, float ay, float az, float bx, float by, float bz)
{
  float cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  float inv = 1.0f / sqrtf (cx * cx + cy * cy + cz * cz);
  n[0] = cx * inv;
  n[1] = cy * inv;
  n[2] = cz * inv;
}

/* Spectral method at column i: displacement derivatives by differences of
 * the neighbours w, e (same row) and s, n (rows j∓1), scaled by sx, sy. */
static inline void
spectral_at (float *restrict out, const float *w, const float *e, const float *s, const float *n,
             const float *slope, float sx, float sy)
{
  store_normal (out, 1.0f + sx * (e[0] - w[0]), sx * (e[1] - w[1]), slope[0],
                sy * (n[0] - s[0]), 1.0f + sy * (n[1] - s[1]), slope[1]);
}

/* One row of the spectral method from split rows (wg-rows.h): λDx, λDy of
 * this row (cx, cy) and of rows j∓1 (sx_, sy_ and nx_, ny_). The row's
 * first and last columns (whose neighbours wrap or clamp) are the caller's. */
WG_HOT_KERNEL static void
spectral_row (float *restrict out, const float *restrict cx_, const float *restrict cy_,
              const float *restrict sx_, const float *restrict sy_, const float *restrict nx_,
              const float *restrict ny_, const float *restrict slope, guint w, float sx, float sy)
{
  for (gsize i = 1; i + 1 < w; i++)
    {
      float ax = 1.0f + sx * (cx_[i + 1] - cx_[i - 1]);
      float ay = sx * (cy_[i + 1] - cy_[i - 1]);
      float az = slope[2 * i];
      float bx = sy * (nx_[i] - sx_[i]);
      float by = 1.0f + sy * (ny_[i] - sy_[i]);
      float bz = slope[2 * i + 1];
      float cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
      float inv = 1.0f / sqrtf (cx * cx + cy * cy + cz * cz);
      out[3 * i] = cx * inv;
      out[3 * i + 1] = cy * inv;
      out[3 * i + 2] = cz * inv;
    }
}

/* Belyaev's eq. 12 at column i: forward differences of P = (x0 + Dx, y0 + Dy, h)
 * toward e and n (or backward, f = −1, at a clamped border). */
static inline void
finite_difference_at (float *restrict out, const float *c, const float *e, const float *n,
                      float fx, float fy, float dx, float dy)
{
  store_normal (out, dx + fx * (e[0] - c[0]), fx * (e[1] - c[1]), fx * (e[2] - c[2]),
                fy * (n[0] - c[0]), dy + fy * (n[1] - c[1]), fy * (n[2] - c[2]));
}

/* Row j of a height field's normals: normalize(−∂h/∂x, −∂h/∂y, 1) from the
 * slope input or from central differences. */
static void
height_normals_row (const NormalsState *st, guint j)
{
  const float *h = st->surface, *slope = st->slope;
  const guint w = st->w, hh = st->hh;
  const gboolean wrap = st->wrap;
  guint jn = j + 1 < hh ? j + 1 : (wrap ? 0 : j);
  guint js = j > 0 ? j - 1 : (wrap ? hh - 1 : j);
  const float sy = 1.0f / ((float) (jn == js + 2 || wrap ? 2 : 1) * st->dy);
  for (guint i = 0; i < w; i++)
    {
      gsize c = (gsize) j * w + i;
      float gx, gy;
      if (slope)
        {
          gx = slope[2 * c];
          gy = slope[2 * c + 1];
        }
      else
        {
          guint ie = i + 1 < w ? i + 1 : (wrap ? 0 : i);
          guint iw = i > 0 ? i - 1 : (wrap ? w - 1 : i);
          const float sx = 1.0f / ((float) (ie == iw + 2 || wrap ? 2 : 1) * st->dx);
          gx = (h[(gsize) j * w + ie] - h[(gsize) j * w + iw]) * sx;
          gy = (h[(gsize) jn * w + i] - h[(gsize) js * w + i]) * sy;
        }
      store_normal (st->out + 3 * c, 1.0f, 0.0f, gx, 0.0f, 1.0f, gy);
    }
}

/* Row j of the displaced surface's normals. */
static void
displaced_normals_row (const NormalsState *st, WgSplitRows *split, guint j)
{
  const guint w = st->w, hh = st->hh;
  const float dx = st->dx, dy = st->dy;
  const gboolean wrap = st->wrap;
  /* Neighbour rows: wrapped, or clamped with one-sided differences. */
  guint jn = j + 1 < hh ? j + 1 : (wrap ? 0 : j);
  guint js = j > 0 ? j - 1 : (wrap ? hh - 1 : j);
  const float *d = st->surface;
  const float *c = d + 3 * (gsize) j * w, *n = d + 3 * (gsize) jn * w, *s = d + 3 * (gsize) js * w;
  float *o = st->out + 3 * (gsize) j * w;
  if (st->slope)
    {
      const float *slope = st->slope + 2 * (gsize) j * w;
      const float sx = 0.5f / dx, sx1 = wrap ? sx : 1.0f / dx;
      const float sy = (jn == j || js == j) && !wrap ? 1.0f / dy : 0.5f / dy;
      WgRowStencil r = wg_split_rows_stencil (split, js, j, jn);
      spectral_row (o, r.cx, r.cy, r.sx, r.sy, r.nx, r.ny, slope, w, sx, sy);
      const float *last = c + 3 * (w - 1);
      spectral_at (o, wrap ? last : c, c + 3, s, n, slope, sx1, sy);
      spectral_at (o + 3 * (w - 1), c + 3 * (w - 2), wrap ? c : last, s + 3 * (w - 1),
                   n + 3 * (w - 1), slope + 2 * (w - 1), sx1, sy);
    }
  else
    {
      const float *nr = jn != j ? n : s;
      const float fy = jn != j ? 1.0f : -1.0f;
      for (guint i = 0; i < w; i++)
        {
          guint ie = i + 1 < w ? i + 1 : (wrap ? 0 : i - 1);
          float fx = ie > i || (wrap && i + 1 == w) ? 1.0f : -1.0f;
          finite_difference_at (o + 3 * i, c + 3 * i, c + 3 * ie, nr + 3 * i, fx, fy, dx, dy);
        }
    }
}

static gboolean
normals_begin_rows (WgNodeContext *ctx, GError **error)
{
  const NormalsParams *p = wg_ctx_params (ctx);
  NormalsState *st = wg_ctx_get_state (ctx);
  WgBuffer *sb = checked_surface (ctx, error);
  if (sb == NULL || (st->surface = wg_buffer_cpu (sb, error)) == NULL)
    return FALSE;
  st->slope = NULL;
  if (p->method == METHOD_SPECTRAL &&
      (st->slope = wg_buffer_cpu (wg_ctx_input (ctx, IN_SLOPE), error)) == NULL)
    return FALSE;
  st->out = wg_buffer_data (wg_ctx_output (ctx, 0));
  st->height = wg_ctx_input (ctx, IN_HEIGHT) != NULL;
  st->w = sb->width;
  st->hh = sb->height;
  st->dx = (float) (sb->extent[0] / sb->width);
  st->dy = (float) (sb->extent[1] / sb->height);
  st->wrap = p->wrap;
  return TRUE;
}

static void
normals_process_rows (WgNodeContext *ctx, guint row0, guint row1)
{
  const NormalsState *st = wg_ctx_get_state (ctx);
  WgSplitRows split;
  wg_split_rows_init (&split, st->surface, st->w,
                      st->scratch + 6 * (gsize) st->w * (guint) omp_get_thread_num ());
  for (guint j = row0; j < row1; j++)
    {
      if (st->height)
        height_normals_row (st, j);
      else
        displaced_normals_row (st, &split, j);
    }
}

static gboolean
normals_process_gpu (WgNodeContext *ctx, GError **error)
{
  const NormalsParams *p = wg_ctx_params (ctx);
  const NormalsState *st = wg_ctx_get_state (ctx);
  WgBuffer *db = checked_surface (ctx, error);
  if (db == NULL)
    return FALSE;
  gboolean spectral = p->method == METHOD_SPECTRAL;
  GLuint d, s = 0, out;
  if (!(d = wg_buffer_gpu (db, error)) ||
      (spectral && !(s = wg_buffer_gpu (wg_ctx_input (ctx, IN_SLOPE), error))) ||
      !(out = wg_buffer_gpu_write (wg_ctx_output (ctx, 0), error)))
    return FALSE;
  const NormalsUniforms u = {
    .u_size = { db->width, db->height },
    .u_spacing = { (float) (db->extent[0] / db->width), (float) (db->extent[1] / db->height) },
    .u_wrap = p->wrap,
  };
  wg_gpu_bind (0, d);
  wg_gpu_bind (1, s);
  wg_gpu_bind (2, out);
  wg_gpu_kernel_dispatch_field (&st->kernels[p->method], &u, db->width, db->height);
  return TRUE;
}

const WgNodeType wg_node_normals = {
  .name = "normals",
  .title = "Normals",
  .category = "Ocean",
  .description = "Unit normals of the choppy (displaced) surface, from exact spectral slopes "
                 "or from Belyaev's finite differences; or of a plain height field.",
  .reference = "Belyaev 2003 eq. 12–13 (papers/003)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = normals_prepare,
  .process_gpu = normals_process_gpu,
  .free_state = normals_state_free,
  .begin_rows = normals_begin_rows,
  .process_rows = normals_process_rows,
  .row_halo = 1,
  .params_size = sizeof (NormalsParams),
};
