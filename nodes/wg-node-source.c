/* source — height added to a simulation each frame: pokes, oscillators and
 * wakes (Tessendorf, "Interactive Water Surfaces", papers/000, "Sources" and
 * "Wakes").
 *
 *  - impulse: amplitude · b(r) on the frames in [start, start + duration)
 *    (duration 0: the one frame at start; "inf": every frame — an editor's
 *    mouse poke sets amplitude while the button is down);
 *  - oscillator: amplitude · sin(2π f (t − start)) · b(r) in that window;
 *  - wake: amplitude · (1 − obstruction), the paper's wake source of a moving
 *    obstacle — its anti-aliased border pushes water as it moves.
 * b(r) = (1 − (r/R)²)² for r < R is a smooth bump of radius R around (x, y).
 * An optional input source is added, so sources combine by chaining.
 */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "source.h"

#include <math.h>
#include <stddef.h>

enum { IN_SOURCE, IN_OBSTRUCTION };
enum { P_MODE, P_X, P_Y, P_RADIUS, P_AMPLITUDE, P_START, P_DURATION, P_FREQUENCY, N_PARAMS };
enum { MODE_IMPULSE, MODE_OSCILLATOR, MODE_WAKE };

static const char *const modes[] = { "impulse", "oscillator", "wake", NULL };

typedef struct {
  int mode;
  double x, y, radius, amplitude, start, duration, frequency;
} SourceParams;

#define OFFSET(x) offsetof (SourceParams, x)

/* GPU kernels built in prepare: the bump (impulse, oscillator) and, when
 * the obstruction is linked, the wake; the mode may be a graph input. */
typedef struct {
  WgGpuKernel bump, wake;
} SourceKernels;

static const WgParamSpec params[N_PARAMS] = {
  [P_MODE] = { "mode", "Mode", WG_PARAM_ENUM, "",
               "impulse: a bump for a while; oscillator: a bump pulsing at a frequency; wake: "
               "the outline of a moving obstacle (needs the obstruction input)",
               MODE_IMPULSE, .choices = modes, .offset = OFFSET (mode) },
  [P_X] = { "x", "Position x", WG_PARAM_FLOAT, "m", "Centre of the bump, x", 0, -1e6, 1e6, 0, 512,
            .visible_when = "mode=impulse|oscillator", .offset = OFFSET (x) },
  [P_Y] = { "y", "Position y", WG_PARAM_FLOAT, "m", "Centre of the bump, y", 0, -1e6, 1e6, 0, 512,
            .visible_when = "mode=impulse|oscillator", .offset = OFFSET (y) },
  [P_RADIUS] = { "radius", "Radius", WG_PARAM_FLOAT, "m", "Radius of the bump", 2, 0, 1e5, 0, 20,
                 .visible_when = "mode=impulse|oscillator", .offset = OFFSET (radius) },
  [P_AMPLITUDE] = { "amplitude", "Amplitude", WG_PARAM_FLOAT, "m",
                    "Height added per frame at the bump's centre (wake: per frame at the "
                    "obstacle's outline)",
                    0.1, -100, 100, -1, 1, .offset = OFFSET (amplitude) },
  [P_START] = { "start", "Start", WG_PARAM_FLOAT, "s", "When the source starts", 0, -1e6, 1e6, 0,
                60, .offset = OFFSET (start) },
  [P_DURATION] = { "duration", "Duration", WG_PARAM_FLOAT, "s",
                   "How long it lasts: 0 one frame, \"inf\" forever", 0, 0, 1e6, 0, 60,
                   .flags = WG_PARAM_FLAG_ALLOW_INF, .offset = OFFSET (duration) },
  [P_FREQUENCY] = { "frequency", "Frequency", WG_PARAM_FLOAT, "Hz", "Oscillator frequency", 1, 0,
                    1000, 0, 10, .visible_when = "mode=oscillator", .offset = OFFSET (frequency) },
};

static const WgPortSpec inputs[] = {
  { "source", WG_PORT_FIELD, 1, TRUE, "Another source to add to (chains sources)" },
  { "obstruction", WG_PORT_FIELD, 1, TRUE, "Mask of the moving obstacle, for the wake mode" },
};
static const WgPortSpec outputs[] = {
  { "source", WG_PORT_FIELD, 1, FALSE, "Height added this frame (m)" },
};

/* The wake mode needs the obstacle's mask; checked when the plan is built
 * and again per frame, the mode being settable as a graph input. */
static gboolean
check_wake (WgNodeContext *ctx, GError **error)
{
  const SourceParams *p = wg_ctx_params (ctx);
  if (p->mode == MODE_WAKE && wg_ctx_input (ctx, IN_OBSTRUCTION) == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_MODE,
                    "the wake mode needs input \"obstruction\" linked (the moving obstacle's mask)");
      return FALSE;
    }
  return TRUE;
}

static gboolean
source_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  if (!check_wake (ctx, error))
    return FALSE;
  for (guint p = 0; p < G_N_ELEMENTS (inputs); p++)
    {
      WgBuffer *b = wg_ctx_input (ctx, p);
      if (b && (b->width != s->grid[0] || b->height != s->grid[1]))
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "input \"%s\" is %u×%u, the graph's grid %u×%u", inputs[p].name, b->width,
                        b->height, s->grid[0], s->grid[1]);
          return FALSE;
        }
    }
  wg_ctx_define_field (ctx, 0, s->grid[0], s->grid[1], 1, s->extent);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    return TRUE;
  SourceKernels *k = g_new0 (SourceKernels, 1);
  wg_ctx_set_state (ctx, k);
  const char *input = wg_ctx_input (ctx, IN_SOURCE) ? "#define INPUT_SOURCE 1\n" : "";
  g_autofree char *wake = g_strconcat (input, "#define WAKE 1\n", NULL);
  return wg_gpu_kernel_init (&k->bump, gpu, "source.comp", input, sizeof (SourceUniforms),
                             error) &&
         (wg_ctx_input (ctx, IN_OBSTRUCTION) == NULL ||
          wg_gpu_kernel_init (&k->wake, gpu, "source.comp", wake, sizeof (SourceUniforms), error));
}

static void
source_free_state (gpointer data)
{
  SourceKernels *k = data;
  wg_gpu_kernel_clear (&k->bump);
  wg_gpu_kernel_clear (&k->wake);
  g_free (k);
}

/* The bump's scale this frame: 0 outside the active window. */
static double
activity (WgNodeContext *ctx)
{
  const SourceParams *p = wg_ctx_params (ctx);
  double t = wg_ctx_time (ctx), start = p->start;
  double duration = MAX (p->duration, wg_ctx_dt (ctx));
  /* Half a frame of slack: frame times are f / fps in floating point. */
  double eps = 0.5 * wg_ctx_dt (ctx);
  if (t < start - eps || t >= start + duration - eps)
    return 0.0;
  double a = p->amplitude;
  if (p->mode == MODE_OSCILLATOR)
    a *= sin (2.0 * G_PI * p->frequency * (t - start));
  return a;
}

static gboolean
source_process_cpu (WgNodeContext *ctx, GError **error)
{
  if (!check_wake (ctx, error))
    return FALSE;
  WgBuffer *out = wg_ctx_output (ctx, 0);
  WgBuffer *ib = wg_ctx_input (ctx, IN_SOURCE), *obb = wg_ctx_input (ctx, IN_OBSTRUCTION);
  const float *in = ib ? wg_buffer_cpu (ib, error) : NULL;
  const float *obs = obb ? wg_buffer_cpu (obb, error) : NULL;
  if ((ib && in == NULL) || (obb && obs == NULL))
    return FALSE;
  const SourceParams *sp = wg_ctx_params (ctx);
  float *o = wg_buffer_data (out);
  const guint w = out->width, h = out->height;
  const float a = (float) activity (ctx);
  const gboolean wake = sp->mode == MODE_WAKE;
  const float dx = (float) (out->extent[0] / w), dy = (float) (out->extent[1] / h);
  const float cx = (float) sp->x, cy = (float) sp->y;
  const float r = (float) sp->radius;
  const float inv_r2 = r > 0 ? 1.0f / (r * r) : 0.0f;

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      {
        gsize p = (gsize) j * w + i;
        float v;
        if (wake)
          v = a * (1.0f - obs[p]);
        else
          {
            float ex = i * dx - cx, ey = j * dy - cy;
            float q = 1.0f - (ex * ex + ey * ey) * inv_r2;
            v = (r > 0 && q > 0.0f) ? a * q * q : 0.0f;
          }
        o[p] = in ? in[p] + v : v;
      }
  return TRUE;
}

static gboolean
source_process_gpu (WgNodeContext *ctx, GError **error)
{
  if (!check_wake (ctx, error))
    return FALSE;
  const SourceParams *p = wg_ctx_params (ctx);
  const SourceKernels *k = wg_ctx_get_state (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  WgBuffer *ib = wg_ctx_input (ctx, IN_SOURCE), *obb = wg_ctx_input (ctx, IN_OBSTRUCTION);
  const gboolean wake = p->mode == MODE_WAKE;
  GLuint o, in, obs;
  if (!(o = wg_buffer_gpu_write (out, error)) || !(in = ib ? wg_buffer_gpu (ib, error) : o) ||
      !(obs = wake ? wg_buffer_gpu (obb, error) : o))
    return FALSE;
  const float r = (float) p->radius;
  const SourceUniforms u = {
    .u_size = { out->width, out->height },
    .u_spacing = { (float) (out->extent[0] / out->width), (float) (out->extent[1] / out->height) },
    .u_center = { (float) p->x, (float) p->y },
    .u_radius = r,
    .u_inv_r2 = r > 0 ? 1.0f / (r * r) : 0.0f,
    .u_amplitude = (float) activity (ctx),
  };
  wg_gpu_bind (0, o);
  wg_gpu_bind (1, in);
  wg_gpu_bind (2, obs);
  wg_gpu_kernel_dispatch_field (wake ? &k->wake : &k->bump, &u, out->width, out->height);
  return TRUE;
}

const WgNodeType wg_node_source = {
  .name = "source",
  .title = "Source",
  .category = "Interaction",
  .roles = WG_NODE_ROLE_POKE,
  .description = "Height pushed into a simulation each frame: timed impulses, oscillators, or "
                 "the wake of a moving obstacle; chains to combine several.",
  .reference = "Tessendorf, Interactive Water Surfaces (papers/000), Sources and Wakes",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_TIME_DEPENDENT,
  .prepare = source_prepare,
  .process_cpu = source_process_cpu,
  .process_gpu = source_process_gpu,
  .free_state = source_free_state,
  .params_size = sizeof (SourceParams),
};
