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

#include <math.h>

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

static const WgParamSpec params[N_PARAMS] = {
  [P_DEPTH] = { "depth", "Open-sea depth", WG_PARAM_FLOAT, "m",
                "Water depth D away from the beach and the island", 20, 0.01, 11000, 1, 100 },
  [P_SHORE_DIRECTION] = { "shore_direction", "Shore direction", WG_PARAM_FLOAT, "°",
                          "Direction toward land, counter-clockwise from +x", 0, -360, 360, -180,
                          180, .flags = WG_PARAM_FLAG_DEGREES },
  [P_SHORE_DISTANCE] = { "shore_distance", "Shoreline distance", WG_PARAM_FLOAT, "m",
                         "Signed distance s₀ of the beach's still-water shoreline from the "
                         "patch centre, along the shore direction (\"inf\": no beach)",
                         INFINITY, -1e6, 1e6, -500, 500, .flags = WG_PARAM_FLAG_ALLOW_INF },
  [P_SLOPE] = { "slope", "Beach slope", WG_PARAM_FLOAT, "",
                "Rise m_b of the beach per metre toward land (tangent of its angle)", 0.05, 1e-4,
                10, 0.005, 0.5 },
  [P_ISLAND_X] = { "island_x", "Island x", WG_PARAM_FLOAT, "m", "Centre of the island, x", 0,
                   -1e6, 1e6, 0, 1000 },
  [P_ISLAND_Y] = { "island_y", "Island y", WG_PARAM_FLOAT, "m", "Centre of the island, y", 0,
                   -1e6, 1e6, 0, 1000 },
  [P_ISLAND_RADIUS] = { "island_radius", "Island radius", WG_PARAM_FLOAT, "m",
                        "Radius R of the island's still-water shoreline (0: no island)", 0, 0,
                        1e6, 0, 100 },
  [P_ISLAND_SLOPE] = { "island_slope", "Island slope", WG_PARAM_FLOAT, "",
                       "Rise m_i of the island's flanks per metre toward its centre", 0.3, 1e-4,
                       100, 0.01, 2 },
};

static const WgPortSpec outputs[] = {
  { "depth", WG_PORT_FIELD, 1, FALSE, "Water depth (m); negative on land" },
};

/* The formula's constants, in the float precision both backends use. */
typedef struct {
  float depth, centre_x, centre_y, nx, ny, shore, slope;
  float island_x, island_y, island_radius, island_slope;
  gboolean beach, island;
} Seabed;

static void
seabed_from_params (WgNodeContext *ctx, Seabed *sb)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  double phi = wg_ctx_radians (ctx, P_SHORE_DIRECTION), shore = wg_ctx_double (ctx, P_SHORE_DISTANCE);
  sb->depth = (float) wg_ctx_double (ctx, P_DEPTH);
  sb->centre_x = (float) (0.5 * s->extent[0]);
  sb->centre_y = (float) (0.5 * s->extent[1]);
  sb->nx = (float) cos (phi);
  sb->ny = (float) sin (phi);
  sb->beach = !isinf (shore);
  sb->shore = sb->beach ? (float) shore : 0.0f;
  sb->slope = (float) wg_ctx_double (ctx, P_SLOPE);
  sb->island_x = (float) wg_ctx_double (ctx, P_ISLAND_X);
  sb->island_y = (float) wg_ctx_double (ctx, P_ISLAND_Y);
  sb->island_radius = (float) wg_ctx_double (ctx, P_ISLAND_RADIUS);
  sb->island_slope = (float) wg_ctx_double (ctx, P_ISLAND_SLOPE);
  sb->island = sb->island_radius > 0.0f;
}

static gboolean
bathymetry_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  wg_ctx_define_field (ctx, 0, s->grid[0], s->grid[1], 1, s->extent);
  return TRUE;
}

static gboolean
bathymetry_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *out = wg_ctx_output (ctx, 0);
  float *d = wg_buffer_data (out);
  const guint w = out->width, hh = out->height;
  const float dx = (float) (out->extent[0] / w), dy = (float) (out->extent[1] / hh);
  Seabed sb;
  seabed_from_params (ctx, &sb);

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hh; j++)
    for (guint i = 0; i < w; i++)
      {
        float x = (float) i * dx, y = (float) j * dy, depth = sb.depth;
        if (sb.beach)
          {
            float s = (x - sb.centre_x) * sb.nx + (y - sb.centre_y) * sb.ny;
            depth = fminf (depth, sb.slope * (sb.shore - s));
          }
        if (sb.island)
          {
            float ex = x - sb.island_x, ey = y - sb.island_y;
            depth = fminf (depth, sb.island_slope * (sqrtf (ex * ex + ey * ey) - sb.island_radius));
          }
        d[(gsize) j * w + i] = depth;
      }
  return TRUE;
}

static gboolean
bathymetry_process_gpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *out = wg_ctx_output (ctx, 0);
  GLuint program = wg_gpu_program (wg_ctx_gpu (ctx), "bathymetry.comp", NULL, error);
  GLuint d = wg_buffer_gpu_write (out, error);
  if (program == 0 || d == 0)
    return FALSE;
  Seabed sb;
  seabed_from_params (ctx, &sb);
  wg_gpu_set_uvec2 (program, "u_size", out->width, out->height);
  wg_gpu_set_vec2 (program, "u_spacing", (float) (out->extent[0] / out->width),
                   (float) (out->extent[1] / out->height));
  wg_gpu_set_float (program, "u_depth", sb.depth);
  wg_gpu_set_vec2 (program, "u_centre", sb.centre_x, sb.centre_y);
  wg_gpu_set_vec2 (program, "u_normal", sb.nx, sb.ny);
  wg_gpu_set_int (program, "u_beach", sb.beach);
  wg_gpu_set_float (program, "u_shore", sb.shore);
  wg_gpu_set_float (program, "u_slope", sb.slope);
  wg_gpu_set_int (program, "u_island", sb.island);
  wg_gpu_set_vec2 (program, "u_island_centre", sb.island_x, sb.island_y);
  wg_gpu_set_float (program, "u_island_radius", sb.island_radius);
  wg_gpu_set_float (program, "u_island_slope", sb.island_slope);
  wg_gpu_bind (0, d);
  wg_gpu_dispatch_field (program, out->width, out->height);
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
};
