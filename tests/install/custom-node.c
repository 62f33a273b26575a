/* custom-node.c — "swell": one deep-water sine wave crossing the patch,
 *   h(x, y, t) = A cos(kx·x + ky·y − ω t),  k = 2π (1 / Lx, 1 / Ly),  ω = √(g |k|),
 * one wavelength along each side of the Lx × Ly patch, so that it tiles.
 * Written against the installed <wavegraph.h> only ("Writing nodes"): a
 * parameter struct, ports, a prepare that defines the output on the
 * graph's grid and a CPU process; docs/custom-nodes.md explains it. */
#include "custom-node.h"

#include <math.h>
#include <stddef.h>

#define GRAVITY 9.81 /* m/s² */
/* Beyond this steepness A·|k| a sine is no longer a fair linear wave. */
#define MAX_STEEPNESS 0.3

enum { P_AMPLITUDE };

typedef struct {
  double amplitude;
} SwellParams;

static const WgParamSpec swell_params[] = {
  [P_AMPLITUDE] = { .name = "amplitude", .label = "Amplitude", .type = WG_PARAM_FLOAT,
                    .unit = "m", .description = "Crest height above the mean level",
                    .default_value = 0.5, .min = 0, .max = 10, .ui_min = 0, .ui_max = 2,
                    .offset = offsetof (SwellParams, amplitude) },
};

static const WgPortSpec swell_outputs[] = {
  { .name = "height", .type = WG_PORT_FIELD, .channels = 1,
    .description = "Surface height (m) on the graph's grid" },
};

/* The wave numbers (rad/m) of the patch @extent. */
static void
wave_numbers (const double extent[2], double *kx, double *ky)
{
  *kx = 2 * G_PI / extent[0];
  *ky = 2 * G_PI / extent[1];
}

/* Checked when the plan is built and every frame: the amplitude may be a
 * graph input, set between frames without a new prepare. */
static gboolean
check_steepness (WgNodeContext *ctx, GError **error)
{
  const SwellParams *p = wg_ctx_params (ctx);
  double kx, ky;
  wave_numbers (wg_ctx_settings (ctx)->extent, &kx, &ky);
  const double steepness = p->amplitude * hypot (kx, ky);
  if (steepness <= MAX_STEEPNESS)
    return TRUE;
  wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_AMPLITUDE,
                "steepness A·k = %.2f is above %.1f: not a linear wave", steepness,
                MAX_STEEPNESS);
  return FALSE;
}

static gboolean
swell_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  wg_ctx_define_field (ctx, 0, s->grid[0], s->grid[1], 1, s->extent);
  return check_steepness (ctx, error);
}

static gboolean
swell_process (WgNodeContext *ctx, GError **error)
{
  if (!check_steepness (ctx, error))
    return FALSE;
  const SwellParams *p = wg_ctx_params (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  const guint w = wg_buffer_get_width (out), h = wg_buffer_get_height (out);
  double extent[2], kx, ky;
  wg_buffer_get_extent (out, extent);
  wave_numbers (extent, &kx, &ky);
  const double omega = sqrt (GRAVITY * hypot (kx, ky)), t = wg_ctx_time (ctx);
  float *height = wg_buffer_data (out);
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      height[(size_t) j * w + i] =
        (float) (p->amplitude * cos (kx * i * extent[0] / w + ky * j * extent[1] / h - omega * t));
  return TRUE;
}

const WgNodeType swell_node_type = {
  .name = "swell",
  .title = "Swell",
  .category = "Game",
  .description = "One deep-water sine wave crossing the patch diagonally, tiling it.",
  .outputs = swell_outputs,
  .n_outputs = 1,
  .params = swell_params,
  .n_params = 1,
  .params_size = sizeof (SwellParams),
  .flags = WG_NODE_TIME_DEPENDENT,
  .prepare = swell_prepare,
  .process_cpu = swell_process,
};
