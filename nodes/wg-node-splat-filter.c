/* splat-filter — a wave-particle set as a displacement field (papers/004
 * §3, §4.2, after Yuksel et al. 2007): h is eq. 1–2's sum of cosine bumps,
 * (λDx, λDy) the longitudinal deviation of eq. 4 times a strength, computed
 * as the paper does: particles splatted into a texture, then a separable
 * filter. nodes/wg-wave-particles.c has the maths and says what is exact:
 * the field equals the direct sum of eq. 2 (and our form of eq. 4) over
 * particles at the position the splat gives them — exactly so, to float
 * rounding, for a particle on a cell; between cells the bilinear splat
 * blends the bumps of the four cells around it (same volume, same centre
 * of mass). Every particle is filtered with the node's radius: particles
 * of several radii need one splat-filter per radius (bucketed), summed. */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "wg-wave-particles.h"
#include "splat-filter.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum { P_RADIUS, P_STRENGTH, P_EDGES, P_FILTER, N_PARAMS };

static const char *const edge_modes[] = { "open", "wrap", "walls", NULL };
static const char *const filters[] = { "exact", "separable", NULL };

typedef struct {
  double radius;
  double strength;
  int edges;
  int filter;
} SplatFilterParams;

#define OFFSET(x) offsetof (SplatFilterParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_RADIUS] = { "radius", "Particle radius", WG_PARAM_FLOAT, "m",
                 "Radius r of every particle's cosine bump (eq. 2); between 1 and 64 cells of "
                 "the graph's grid",
                 0.25, 1e-4, 1e4, 0.01, 5, .flags = WG_PARAM_FLAG_PREPARE,
                 .offset = OFFSET (radius) },
  [P_STRENGTH] = { "strength", "Longitudinal strength", WG_PARAM_FLOAT, "",
                   "Scale s of the horizontal (choppy) displacement of eq. 4: 0 is a pure "
                   "height field; large values with large amplitude / radius fold the surface",
                   1, 0, 10, 0, 4, .offset = OFFSET (strength) },
  [P_EDGES] = { "edges", "Edges", WG_PARAM_ENUM, "",
                "Beyond the grid: open (bumps end at the edge), wrap (they come back on the "
                "other side: a tiling patch) or walls (through the first and last cells, as "
                "particle-emitter's: a bump near a wall adds its mirror image)",
                WG_SPLAT_EDGES_WALLS, .choices = edge_modes, .offset = OFFSET (edges) },
  [P_FILTER] = { "filter", "Filter", WG_PARAM_ENUM, "",
                 "exact: eq. 2's round bump, equal to the direct sum over the particles (6 to "
                 "35 separable terms at radii of 2 to 8 cells); separable: the paper's eq. 8–9, "
                 "a product of 1D cosines per kernel (5 terms, 2–7 times faster), equal on the "
                 "axes through each particle but squarer off them, 7% more volume",
                 WG_SPLAT_FILTER_EXACT, .choices = filters, .flags = WG_PARAM_FLAG_PREPARE,
                 .offset = OFFSET (filter) },
};

static const WgPortSpec inputs[] = {
  { "particles", WG_PORT_PARTICLES, 8, FALSE, "Wave particles (from particle-emitter)" },
};
static const WgPortSpec outputs[] = {
  { "displacement", WG_PORT_FIELD, 3, FALSE,
    "Displacement (λDx, λDy, h) (m) of the particles' bumps on the graph's grid" },
};

typedef struct {
  WgSplatKernel kernel;
  float *splat;     /* CPU: wg_splat_size() floats */
  WgGpuKernel passes[3];
  GLuint splat_ssbo, terms_ssbo, coefs_ssbo, tmp_ssbo;
} SplatFilterState;

enum { PASS_SPLAT, PASS_ROWS, PASS_COLS };

static void
splat_filter_state_free (gpointer data)
{
  SplatFilterState *st = data;
  for (guint k = 0; k < G_N_ELEMENTS (st->passes); k++)
    wg_gpu_kernel_clear (&st->passes[k]);
  GLuint buffers[] = { st->splat_ssbo, st->terms_ssbo, st->coefs_ssbo, st->tmp_ssbo };
  if (st->splat_ssbo)
    glDeleteBuffers (G_N_ELEMENTS (buffers), buffers);
  wg_splat_kernel_clear (&st->kernel);
  g_free (st->splat);
  g_free (st);
}

static gboolean
splat_filter_prepare (WgNodeContext *ctx, GError **error)
{
  const SplatFilterParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  const guint w = s->grid[0], h = s->grid[1];
  const double dx = s->extent[0] / w, dy = s->extent[1] / h;
  const double cells = p->radius / MAX (dx, dy), most = p->radius / MIN (dx, dy);
  if (cells < 1 || most > WG_SPLAT_MAX_CELLS)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_RADIUS,
                    "%g m is %.3g cells of the grid (%g × %g m cells); the bump needs 1 to %d",
                    p->radius, cells < 1 ? cells : most, dx, dy, WG_SPLAT_MAX_CELLS);
      return FALSE;
    }
  wg_ctx_define_field (ctx, 0, w, h, 3, s->extent);
  SplatFilterState *st = g_new0 (SplatFilterState, 1);
  wg_ctx_set_state (ctx, st);
  wg_splat_kernel_init (&st->kernel, p->radius, dx, dy, p->filter);
  const gsize plane = (gsize) w * h;
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    {
      st->splat = g_new (float, wg_splat_size (w, h));
      return TRUE;
    }
  static const char *const defines[] = { "#define SPLAT 1\n", "#define ROWS 1\n", "" };
  for (guint k = 0; k < G_N_ELEMENTS (st->passes); k++)
    if (!wg_gpu_kernel_init (&st->passes[k], gpu, "splat-filter.comp", defines[k],
                             sizeof (SplatFilterUniforms), error))
      return FALSE;
  st->splat_ssbo = wg_gpu_buffer_new (gpu, WG_SPLAT_CHANNELS * plane * sizeof (gint32), NULL,
                                      GL_DYNAMIC_COPY);
  st->terms_ssbo = wg_gpu_buffer_new (gpu, st->kernel.n_terms * sizeof (WgSplatTerm),
                                      st->kernel.terms, GL_STATIC_DRAW);
  st->coefs_ssbo = wg_gpu_buffer_new (gpu, st->kernel.n_coefs * sizeof (float), st->kernel.coefs,
                                      GL_STATIC_DRAW);
  st->tmp_ssbo = wg_gpu_buffer_new (gpu, plane * sizeof (float), NULL, GL_DYNAMIC_COPY);
  return TRUE;
}

/* Says how many live particles have a radius other than the node's (they
 * are filtered with the node's all the same). */
static void
note_radius (WgNodeContext *ctx, const WgParticleSet *set, double radius)
{
  guint other = 0;
  const guint count = MIN (set->count, set->capacity);
  for (guint k = 0; k < count; k++)
    other += fabs (set->particles[k].radius - radius) > 1e-3 * radius;
  if (other)
    wg_ctx_note (ctx, TRUE,
                 "%u of %u particles have a radius other than %g m and are filtered with it "
                 "(one splat-filter per radius)", other, count, radius);
  else
    wg_ctx_note (ctx, FALSE, NULL);
}

static gboolean
splat_filter_process_cpu (WgNodeContext *ctx, GError **error)
{
  const SplatFilterParams *p = wg_ctx_params (ctx);
  SplatFilterState *st = wg_ctx_get_state (ctx);
  const WgParticleSet *set = wg_buffer_read_particles (wg_ctx_input (ctx, 0), error);
  if (set == NULL)
    return FALSE;
  note_radius (ctx, set, p->radius);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  const guint w = out->width, h = out->height;
  wg_splat_cpu (st->splat, w, h, out->extent[0] / w, out->extent[1] / h,
                p->edges == WG_SPLAT_EDGES_WRAP,
                set->particles, MIN (set->count, set->capacity));
  wg_splat_filter_cpu (wg_buffer_data (out), st->splat, w, h, p->edges, &st->kernel,
                       (float) p->strength);
  return TRUE;
}

static gboolean
splat_filter_process_gpu (WgNodeContext *ctx, GError **error)
{
  const SplatFilterParams *p = wg_ctx_params (ctx);
  const SplatFilterState *st = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0), *out = wg_ctx_output (ctx, 0);
  GLuint particles, field;
  if (!(particles = wg_buffer_gpu (in, error)) || !(field = wg_buffer_gpu_write (out, error)))
    return FALSE;
  /* The radii are checked where they can be read without a read-back (a
   * CPU producer's set). */
  if (in->cpu_valid)
    note_radius (ctx, (const WgParticleSet *) in->data, p->radius);
  const guint w = out->width, h = out->height;
  SplatFilterUniforms u = {
    .u_size = { w, h },
    .u_inv_spacing = { (float) (w / out->extent[0]), (float) (h / out->extent[1]) },
    .u_edges = p->edges,
    .u_rx = (gint32) st->kernel.rx,
    .u_ry = (gint32) st->kernel.ry,
    .u_n_terms = st->kernel.n_terms,
    .u_strength = (float) p->strength,
  };
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, st->splat_ssbo);
  glClearBufferData (GL_SHADER_STORAGE_BUFFER, GL_R32I, GL_RED_INTEGER, GL_INT, NULL);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  wg_gpu_bind (0, particles);
  wg_gpu_bind (1, st->splat_ssbo);
  wg_gpu_bind (2, st->terms_ssbo);
  wg_gpu_bind (3, st->coefs_ssbo);
  wg_gpu_bind (4, st->tmp_ssbo);
  wg_gpu_bind (5, field);
  /* One invocation per slot, in rows of at most 65535 groups of 64 (GL's
   * guaranteed count per dimension); those past the live count return. */
  const guint groups = (in->width + 63) / 64, gx = MIN (groups, 65535u);
  wg_gpu_kernel_dispatch (&st->passes[PASS_SPLAT], &u, gx, (groups + gx - 1) / gx, 1);
  /* One term at a time, as on the CPU: the scratch is one plane. Term 0
   * (the height's first) clears the output; with strength 0 the terms of
   * Dx and Dy are skipped (they stay zero). */
  for (guint t = 0; t < st->kernel.n_terms; t++)
    {
      if (p->strength == 0 && st->kernel.terms[t].out != 2)
        continue;
      u.u_term = t;
      wg_gpu_kernel_dispatch_field (&st->passes[PASS_ROWS], &u, w, h);
      wg_gpu_kernel_dispatch_field (&st->passes[PASS_COLS], &u, w, h);
    }
  return TRUE;
}

const WgNodeType wg_node_splat_filter = {
  .name = "splat-filter",
  .title = "Splat filter",
  .category = "Wave particles",
  .description = "Wave particles as a displacement field: each particle a cosine bump of its "
                 "amplitude (height) with its longitudinal deviation (choppy x, y), splatted "
                 "into the grid and filtered by separable kernels.",
  .reference = "Yuksel et al. 2007 via Mikeš, eq. 1–4, 8–9 (papers/004)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = splat_filter_prepare,
  .process_cpu = splat_filter_process_cpu,
  .process_gpu = splat_filter_process_gpu,
  .free_state = splat_filter_state_free,
  .params_size = sizeof (SplatFilterParams),
};
