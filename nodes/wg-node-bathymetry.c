/* bathymetry — an analytic sea floor: water depth over the graph's grid.
 *
 * The depth is the shallowest of three surfaces,
 *   d(p) = min(D, m_b (s₀ − (p − c)·n̂), m_i (|p − q| − R)),
 * an open sea of depth D, a planar beach rising with slope m_b toward n̂ =
 * (cos φ, sin φ) whose still-water shoreline lies s₀ from the patch centre
 * c, and a conical island of slope m_i around q with shoreline radius R.
 * Negative depths are land (its height above the still water line), the
 * convention of the nodes that read depth (gerstner). Stateless; the whole
 * field is a closed formula, evaluated in float on both backends.
 */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "bathymetry.h"

#include <math.h>
#include <stddef.h>

enum {
  P_DEPTH,
  P_SHORE_DIRECTION,
  P_SHORE_DISTANCE,
  P_SLOPE,
  P_ISLAND_X,
  P_ISLAND_Y,
  P_ISLAND_RADIUS,
  P_ISLAND_SLOPE,
  N_PARAMS
};

typedef struct {
  double depth, shore_direction, shore_distance, slope;
  double island_x, island_y, island_radius, island_slope;
} BathymetryParams;

#define OFFSET(x) offsetof (BathymetryParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_DEPTH] = { "depth", "Open-sea depth", WG_PARAM_FLOAT, "m",
                "Water depth D away from the beach and the island", 20, 0.01, 11000, 1, 100,
                .offset = OFFSET (depth) },
  [P_SHORE_DIRECTION] = { "shore_direction", "Shore direction", WG_PARAM_FLOAT, "°",
                          "Direction toward land, counter-clockwise from +x", 0, -360, 360, -180,
                          180, .flags = WG_PARAM_FLAG_DEGREES,
                          .offset = OFFSET (shore_direction) },
  [P_SHORE_DISTANCE] = { "shore_distance", "Shoreline distance", WG_PARAM_FLOAT, "m",
                         "Signed distance s₀ of the beach's still-water shoreline from the "
                         "patch centre, along the shore direction (\"inf\": no beach)",
                         INFINITY, -1e6, 1e6, -500, 500, .flags = WG_PARAM_FLAG_ALLOW_INF,
                         .offset = OFFSET (shore_distance) },
  [P_SLOPE] = { "slope", "Beach slope", WG_PARAM_FLOAT, "",
                "Rise m_b of the beach per metre toward land (tangent of its angle)", 0.05, 1e-4,
                10, 0.005, 0.5, .offset = OFFSET (slope) },
  [P_ISLAND_X] = { "island_x", "Island x", WG_PARAM_FLOAT, "m", "Centre of the island, x", 0,
                   -1e6, 1e6, 0, 1000, .offset = OFFSET (island_x) },
  [P_ISLAND_Y] = { "island_y", "Island y", WG_PARAM_FLOAT, "m", "Centre of the island, y", 0,
                   -1e6, 1e6, 0, 1000, .offset = OFFSET (island_y) },
  [P_ISLAND_RADIUS] = { "island_radius", "Island radius", WG_PARAM_FLOAT, "m",
                        "Radius R of the island's still-water shoreline (0: no island)", 0, 0,
                        1e6, 0, 100, .offset = OFFSET (island_radius) },
  [P_ISLAND_SLOPE] = { "island_slope", "Island slope", WG_PARAM_FLOAT, "",
                       "Rise m_i of the island's flanks per metre toward its centre", 0.3, 1e-4,
                       100, 0.01, 2, .offset = OFFSET (island_slope) },
};

static const WgPortSpec outputs[] = {
  { "depth", WG_PORT_FIELD, 1, FALSE, "Water depth (m); negative on land" },
};

/* The formula's constants in the float precision both backends use: the
 * GPU's uniform block, which the CPU loop reads too. */
static BathymetryUniforms
seabed_from_params (WgNodeContext *ctx, const WgBuffer *out)
{
  const BathymetryParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  const gboolean beach = !isinf (p->shore_distance);
  return (BathymetryUniforms) {
    .u_size = { out->width, out->height },
    .u_spacing = { (float) (out->extent[0] / out->width), (float) (out->extent[1] / out->height) },
    .u_centre = { (float) (0.5 * s->extent[0]), (float) (0.5 * s->extent[1]) },
    .u_normal = { (float) cos (p->shore_direction), (float) sin (p->shore_direction) },
    .u_island_centre = { (float) p->island_x, (float) p->island_y },
    .u_depth = (float) p->depth,
    .u_shore = beach ? (float) p->shore_distance : 0.0f,
    .u_slope = (float) p->slope,
    .u_island_radius = (float) p->island_radius,
    .u_island_slope = (float) p->island_slope,
    .u_beach = beach,
    .u_island = (float) p->island_radius > 0.0f,
  };
}

static gboolean
bathymetry_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  wg_ctx_define_field (ctx, 0, s->grid[0], s->grid[1], 1, s->extent);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    return TRUE;
  WgGpuKernel *kernel = g_new0 (WgGpuKernel, 1);
  wg_ctx_set_state (ctx, kernel);
  return wg_gpu_kernel_init (kernel, gpu, "bathymetry.comp", NULL, sizeof (BathymetryUniforms),
                             error);
}

static void
bathymetry_free_state (gpointer state)
{
  wg_gpu_kernel_clear (state);
  g_free (state);
}

static gboolean
bathymetry_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *out = wg_ctx_output (ctx, 0);
  float *d = wg_buffer_data (out);
  const guint w = out->width, hh = out->height;
  const BathymetryUniforms sb = seabed_from_params (ctx, out);
  const float dx = sb.u_spacing[0], dy = sb.u_spacing[1];

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hh; j++)
    for (guint i = 0; i < w; i++)
      {
        float x = (float) i * dx, y = (float) j * dy, depth = sb.u_depth;
        if (sb.u_beach)
          {
            float s = (x - sb.u_centre[0]) * sb.u_normal[0] + (y - sb.u_centre[1]) * sb.u_normal[1];
            depth = fminf (depth, sb.u_slope * (sb.u_shore - s));
          }
        if (sb.u_island)
          {
            float ex = x - sb.u_island_centre[0], ey = y - sb.u_island_centre[1];
            depth = fminf (depth,
                           sb.u_island_slope * (sqrtf (ex * ex + ey * ey) - sb.u_island_radius));
          }
        d[(gsize) j * w + i] = depth;
      }
  return TRUE;
}

static gboolean
bathymetry_process_gpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *out = wg_ctx_output (ctx, 0);
  GLuint d = wg_buffer_gpu_write (out, error);
  if (d == 0)
    return FALSE;
  const BathymetryUniforms u = seabed_from_params (ctx, out);
  wg_gpu_bind (0, d);
  wg_gpu_kernel_dispatch_field (wg_ctx_get_state (ctx), &u, out->width, out->height);
  return TRUE;
}

const WgNodeType wg_node_bathymetry = {
  .name = "bathymetry",
  .title = "Bathymetry",
  .category = "Terrain",
  .description = "Water depth of an analytic sea floor: open sea, a planar beach and a conical "
                 "island; negative depth is land. Feeds the depth input of wave nodes.",
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = bathymetry_prepare,
  .process_cpu = bathymetry_process_cpu,
  .process_gpu = bathymetry_process_gpu,
  .free_state = bathymetry_free_state,
  .params_size = sizeof (BathymetryParams),
};
