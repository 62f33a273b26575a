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
 * Without displacement both reduce to normalize(−∂h/∂x, −∂h/∂y, 1). +z is up.
 */
#include "wg-node-private.h"

#include <math.h>

enum { IN_DISPLACEMENT, IN_SLOPE };
enum { P_METHOD, P_WRAP, N_PARAMS };
enum { METHOD_SPECTRAL, METHOD_FINITE_DIFFERENCE };

static const char *const methods[] = { "spectral", "finite-difference", NULL };

static const WgParamSpec params[N_PARAMS] = {
  [P_METHOD] = { "method", "Method", WG_PARAM_ENUM, "",
                 "spectral: exact slopes from the fft node with the displaced grid's Jacobian; "
                 "finite-difference: Belyaev's eq. 12 from the displacement map alone",
                 METHOD_SPECTRAL, .choices = methods },
  [P_WRAP] = { "wrap", "Periodic edges", WG_PARAM_BOOL, "",
               "Differences wrap around the edges (tiling ocean); off: one-sided at the edges", 1 },
};

static const WgPortSpec inputs[] = {
  { "displacement", WG_PORT_FIELD, 3, FALSE, "Vector displacement (λDx, λDy, h) (m)" },
  { "slope", WG_PORT_FIELD, 2, TRUE, "Slope (∂h/∂x, ∂h/∂y) from fft, for the spectral method" },
};
static const WgPortSpec outputs[] = {
  { "normal", WG_PORT_FIELD, 3, FALSE, "Unit normal (nx, ny, nz) of the displaced surface" },
};

static gboolean
normals_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *d = wg_ctx_input (ctx, IN_DISPLACEMENT), *s = wg_ctx_input (ctx, IN_SLOPE);
  if (wg_ctx_enum (ctx, P_METHOD) == METHOD_SPECTRAL)
    {
      if (s == NULL)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_METHOD,
                        "the spectral method needs input \"slope\" linked (from fft:slope); use "
                        "\"finite-difference\" for the displacement alone");
          return FALSE;
        }
      if (s->width != d->width || s->height != d->height)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "inputs \"displacement\" (%u×%u) and \"slope\" (%u×%u) differ in size",
                        d->width, d->height, s->width, s->height);
          return FALSE;
        }
    }
  wg_ctx_define_field (ctx, 0, d->width, d->height, 3, d->extent);
  return TRUE;
}

static inline void
store_normal (float *n, double ax, double ay, double az, double bx, double by, double bz)
{
  double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  double inv = 1.0 / sqrt (cx * cx + cy * cy + cz * cz);
  n[0] = (float) (cx * inv);
  n[1] = (float) (cy * inv);
  n[2] = (float) (cz * inv);
}

static gboolean
normals_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *db = wg_ctx_input (ctx, IN_DISPLACEMENT);
  const float *d = wg_buffer_cpu (db, error);
  if (d == NULL)
    return FALSE;
  float *out = wg_buffer_data (wg_ctx_output (ctx, 0));
  const guint w = db->width, hh = db->height;
  const double dx = db->extent[0] / w, dy = db->extent[1] / hh;
  const gboolean wrap = wg_ctx_bool (ctx, P_WRAP);
  const gboolean spectral = wg_ctx_enum (ctx, P_METHOD) == METHOD_SPECTRAL;
  const float *s = spectral ? wg_buffer_cpu (wg_ctx_input (ctx, IN_SLOPE), error) : NULL;
  if (spectral && s == NULL)
    return FALSE;

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hh; j++)
    {
      /* Neighbours: wrapped, or clamped (one-sided differences at the border). */
      guint jn = j + 1 < hh ? j + 1 : (wrap ? 0 : j);
      guint jp = j > 0 ? j - 1 : (wrap ? hh - 1 : j);
      double sy = (jn == j || jp == j) && !wrap ? 1.0 : 0.5;
      for (guint i = 0; i < w; i++)
        {
          guint in = i + 1 < w ? i + 1 : (wrap ? 0 : i);
          guint ip = i > 0 ? i - 1 : (wrap ? w - 1 : i);
          const float *c = d + 3 * ((gsize) j * w + i);
          float *n = out + 3 * ((gsize) j * w + i);
          if (spectral)
            {
              double sx = (in == i || ip == i) && !wrap ? 1.0 : 0.5;
              const float *e = d + 3 * ((gsize) j * w + in), *wv = d + 3 * ((gsize) j * w + ip);
              const float *no = d + 3 * ((gsize) jn * w + i), *so = d + 3 * ((gsize) jp * w + i);
              const float *sl = s + 2 * ((gsize) j * w + i);
              double dDx_dx = sx * (e[0] - wv[0]) / dx, dDy_dx = sx * (e[1] - wv[1]) / dx;
              double dDx_dy = sy * (no[0] - so[0]) / dy, dDy_dy = sy * (no[1] - so[1]) / dy;
              store_normal (n, 1.0 + dDx_dx, dDy_dx, sl[0], dDx_dy, 1.0 + dDy_dy, sl[1]);
            }
          else
            {
              /* Forward differences; at a clamped border use the backward one. */
              const float *e = d + 3 * ((gsize) j * w + (in != i ? in : ip));
              const float *no = d + 3 * ((gsize) (jn != j ? jn : jp) * w + i);
              double fx = in != i ? 1.0 : -1.0, fy = jn != j ? 1.0 : -1.0;
              store_normal (n, dx + fx * (e[0] - c[0]), fx * (e[1] - c[1]), fx * (e[2] - c[2]),
                            fy * (no[0] - c[0]), dy + fy * (no[1] - c[1]), fy * (no[2] - c[2]));
            }
        }
    }
  return TRUE;
}

const WgNodeType wg_node_normals = {
  .name = "normals",
  .title = "Normals",
  .category = "Ocean",
  .description = "Unit normals of the choppy (displaced) surface, from exact spectral slopes "
                 "or from Belyaev's finite differences.",
  .reference = "Belyaev 2003 eq. 12–13 (papers/003)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = normals_prepare,
  .process_cpu = normals_process_cpu,
};
