/* splat-filter — a wave-particle set as a displacement field (papers/004
 * §3, §4.2, after Yuksel et al. 2007): h is eq. 1–2's sum of cosine bumps,
 * (λDx, λDy) the longitudinal deviation of eq. 4 times a strength, computed
 * as the paper does: particles splatted into a texture, then a separable
 * filter. nodes/wg-wave-particles.c has the maths and says what is exact:
 * the field equals the direct sum of eq. 2 (and our form of eq. 4) over
 * particles at the position the splat gives them — exactly so, to float
 * rounding, for a particle on a cell; between cells the bilinear splat
 * blends the bumps of the four cells around it (same volume, same centre
 * of mass). Particles of several radii are bucketed by radius: the node's
 * `radius` and its `radii` make the buckets, each particle goes to the
 * bucket of the nearest radius (in ratio), and each bucket has its own
 * splat and kernels; the buckets' fields are summed. */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "wg-wave-particles.h"
#include "splat-filter.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum { P_RADIUS, P_RADII, P_STRENGTH, P_EDGES, P_FILTER, N_PARAMS };

static const char *const edge_modes[] = { "open", "wrap", "walls", NULL };
static const char *const filters[] = { "exact", "separable", NULL };

typedef struct {
  double radius;
} Radius;

static const WgParamSpec radius_fields[] = {
  { "radius", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 1e-4,
    .max = 1e4, .offset = offsetof (Radius, radius) },
};

typedef struct {
  double radius;
  WgList radii;
  double strength;
  int edges;
  int filter;
} SplatFilterParams;

#define OFFSET(x) offsetof (SplatFilterParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_RADIUS] = { "radius", "Particle radius", WG_PARAM_FLOAT, "m",
                 "Radius r of the particles' cosine bumps (eq. 2); between 1 and 64 cells of "
                 "the graph's grid",
                 0.25, 1e-4, 1e4, 0.01, 5, .flags = WG_PARAM_FLAG_PREPARE,
                 .offset = OFFSET (radius) },
  [P_RADII] = { "radii", "More radii", WG_PARAM_LIST, "",
                "Further particle radii, up to 7 of {\"radius\": m}: with `radius` they make "
                "buckets, each particle filtered with the bucket of the nearest radius (in "
                "ratio), each bucket exact for particles of its radius; all distinct by 0.1% "
                "and 1 to 64 cells",
                .default_string = "[]", .min = 0, .max = WG_SPLAT_MAX_BUCKETS - 1,
                .fields = radius_fields, .n_fields = G_N_ELEMENTS (radius_fields),
                .record_size = sizeof (Radius), .flags = WG_PARAM_FLAG_PREPARE,
                .offset = OFFSET (radii) },
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
  guint n_buckets;
  double radius[WG_SPLAT_MAX_BUCKETS]; /* ascending */
  float bounds[WG_SPLAT_MAX_BUCKETS];  /* between buckets b and b + 1: √(r_b r_b+1) */
  WgSplatKernel kernel[WG_SPLAT_MAX_BUCKETS];
  float *splat;                        /* CPU: n_buckets × wg_splat_size(…, 4) floats */
  WgSplatBalance balance;              /* CPU: where last frame's particles were */
  WgGpuKernel passes[4];
  /* GPU: every bucket's terms (their splat channels b·4 + c, tap radii
   * after each), the height's first (@n_height of them), filtered @group
   * at a time into as many planes of tmp */
  guint n_terms, n_height, group;
  GLuint splat_ssbo, terms_ssbo, coefs_ssbo, tmp_ssbo;
} SplatFilterState;

/* The GPU's planes of terms filtered by rows in one pass (then by columns
 * in one): at most 8, and at most 64 MiB of them. */
#define GPU_TERMS_PER_PASS 8u
#define GPU_PLANES_BYTES (64u << 20)

enum { PASS_CLEAR, PASS_SPLAT, PASS_ROWS, PASS_COLS };

static void
splat_filter_state_free (gpointer data)
{
  SplatFilterState *st = data;
  for (guint k = 0; k < G_N_ELEMENTS (st->passes); k++)
    wg_gpu_kernel_clear (&st->passes[k]);
  GLuint buffers[] = { st->splat_ssbo, st->terms_ssbo, st->coefs_ssbo, st->tmp_ssbo };
  if (st->splat_ssbo)
    glDeleteBuffers (G_N_ELEMENTS (buffers), buffers);
  for (guint b = 0; b < st->n_buckets; b++)
    wg_splat_kernel_clear (&st->kernel[b]);
  g_free (st->splat);
  wg_splat_balance_clear (&st->balance);
  g_free (st);
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The buckets' radii, checked and sorted, into @st. */
static gboolean
collect_radii (WgNodeContext *ctx, const SplatFilterParams *p, double dx, double dy,
               SplatFilterState *st, GError **error)
{
  const Radius *more = p->radii.items;
  st->n_buckets = 1 + (guint) p->radii.n;
  for (guint b = 0; b < st->n_buckets; b++)
    {
      const double r = b == 0 ? p->radius : more[b - 1].radius;
      const double cells = r / MAX (dx, dy), most = r / MIN (dx, dy);
      if (cells < 1 || most > WG_SPLAT_MAX_CELLS)
        {
          g_autofree char *which = b == 0 ? g_strdup ("") : g_strdup_printf ("[%u].radius: ", b - 1);
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, b == 0 ? P_RADIUS : P_RADII,
                        "%s%g m is %.3g cells of the grid (%g × %g m cells); the bump needs 1 "
                        "to %d", which, r, cells < 1 ? cells : most, dx, dy, WG_SPLAT_MAX_CELLS);
          return FALSE;
        }
      st->radius[b] = r;
      for (guint o = 0; o < b; o++)
        if (MAX (r, st->radius[o]) < 1.001 * MIN (r, st->radius[o]))
          {
            g_autofree char *other = o == 0 ? g_strdup ("the node's radius")
                                            : g_strdup_printf ("radii[%u].radius", o - 1);
            wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_RADII,
                          "[%u].radius: %g m is within 0.1%% of %s (%g m): one bucket is enough",
                          b - 1, r, other, st->radius[o]);
            return FALSE;
          }
    }
  qsort (st->radius, st->n_buckets, sizeof (double), compare_doubles);
  for (guint b = 0; b + 1 < st->n_buckets; b++)
    st->bounds[b] = (float) sqrt (st->radius[b] * st->radius[b + 1]);
  return TRUE;
}

/* The GPU's buffers: one splat per bucket, every bucket's terms in one
 * list (splat channel b·4 + c, coefficient offsets into one array; each
 * term two uvec4: src, out, row, col, then rx, ry), and the planes of a
 * pass's terms. */
static gboolean
prepare_gpu (WgGpuContext *gpu, SplatFilterState *st, gsize plane, GError **error)
{
  static const char *const defines[] = { "#define CLEAR 1\n", "#define SPLAT 1\n",
                                         "#define ROWS 1\n", "" };
  for (guint k = 0; k < G_N_ELEMENTS (st->passes); k++)
    if (!wg_gpu_kernel_init (&st->passes[k], gpu, "splat-filter.comp", defines[k],
                             sizeof (SplatFilterUniforms), error))
      return FALSE;
  g_autoptr (GArray) terms = g_array_new (FALSE, FALSE, 8 * sizeof (guint32));
  g_autoptr (GArray) coefs = g_array_new (FALSE, FALSE, sizeof (float));
  /* The height's terms first, then Dx's and Dy's, each in bucket and term
   * order: an output channel sums its terms in the CPU's order, and with
   * strength 0 the first n_height terms are all there is to filter. */
  for (int height = 1; height >= 0; height--)
    {
      guint offset = 0;
      for (guint b = 0; b < st->n_buckets; b++)
        {
          const WgSplatKernel *k = &st->kernel[b];
          for (guint t = 0; t < k->n_terms; t++)
            {
              const WgSplatTerm *term = &k->terms[t];
              const guint32 gpu_term[8] = { term->src + b * WG_SPLAT_CHANNELS, term->out,
                                            term->row + offset, term->col + offset,
                                            k->rx, k->ry, 0, 0 };
              if ((term->out == 2) == height)
                g_array_append_val (terms, gpu_term);
            }
          offset += k->n_coefs;
        }
      if (height)
        st->n_height = terms->len;
    }
  for (guint b = 0; b < st->n_buckets; b++)
    g_array_append_vals (coefs, st->kernel[b].coefs, st->kernel[b].n_coefs);
  st->n_terms = terms->len;
  st->group = CLAMP (GPU_PLANES_BYTES / (plane * sizeof (float)), 1, GPU_TERMS_PER_PASS);
  st->splat_ssbo = wg_gpu_buffer_new (gpu, st->n_buckets * WG_SPLAT_CHANNELS * plane *
                                             sizeof (gint32), NULL, GL_DYNAMIC_COPY);
  st->terms_ssbo = wg_gpu_buffer_new (gpu, terms->len * 8 * sizeof (guint32), terms->data,
                                      GL_STATIC_DRAW);
  st->coefs_ssbo = wg_gpu_buffer_new (gpu, coefs->len * sizeof (float), coefs->data,
                                      GL_STATIC_DRAW);
  st->tmp_ssbo = wg_gpu_buffer_new (gpu, st->group * plane * sizeof (float), NULL,
                                    GL_DYNAMIC_COPY);
  return TRUE;
}

static gboolean
splat_filter_prepare (WgNodeContext *ctx, GError **error)
{
  const SplatFilterParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  const guint w = s->grid[0], h = s->grid[1];
  const double dx = s->extent[0] / w, dy = s->extent[1] / h;
  SplatFilterState *st = g_new0 (SplatFilterState, 1);
  wg_ctx_set_state (ctx, st);
  if (!collect_radii (ctx, p, dx, dy, st, error))
    return FALSE;
  wg_ctx_define_field (ctx, 0, w, h, 3, s->extent);
  for (guint b = 0; b < st->n_buckets; b++)
    wg_splat_kernel_init (&st->kernel[b], st->radius[b], dx, dy, p->filter);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    {
      st->splat = g_new (float, st->n_buckets * wg_splat_size (w, h, WG_SPLAT_CHANNELS));
      return TRUE;
    }
  return prepare_gpu (gpu, st, (gsize) w * h, error);
}

/* Says that @other of @count live particles have a radius other than
 * their bucket's (they are filtered with the bucket's all the same). */
static void
note_radius (WgNodeContext *ctx, guint other, guint count, const SplatFilterState *st)
{
  if (other)
    {
      g_autoptr (GString) radii = g_string_new (NULL);
      for (guint b = 0; b < st->n_buckets; b++)
        g_string_append_printf (radii, "%s%g", b ? ", " : "", st->radius[b]);
      wg_ctx_note (ctx, TRUE,
                   "%u of %u particles have a radius other than %s%s m and are filtered with "
                   "%s (add their radii to `radii`)", other, count,
                   st->n_buckets > 1 ? "their bucket's of " : "", radii->str,
                   st->n_buckets > 1 ? "its" : "it");
    }
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
  WgBuffer *out = wg_ctx_output (ctx, 0);
  const guint w = out->width, h = out->height;
  /* With strength 0 (the height only) the splat needs channel A alone;
   * the filter reads it so from the same float. */
  const float strength = (float) p->strength;
  const guint count = MIN (set->count, set->capacity);
  const guint other = wg_splat_cpu (st->splat, strength == 0 ? 1 : WG_SPLAT_CHANNELS,
                                    st->n_buckets, st->bounds, st->radius, w, h,
                                    out->extent[0] / w, out->extent[1] / h,
                                    p->edges == WG_SPLAT_EDGES_WRAP, set->particles, count,
                                    &st->balance);
  note_radius (ctx, other, count, st);
  wg_splat_filter_cpu (wg_buffer_data (out), st->splat, st->n_buckets, st->kernel, w, h,
                       p->edges, strength);
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
    {
      const WgParticleSet *set = (const WgParticleSet *) in->data;
      const guint count = MIN (set->count, set->capacity);
      guint other = 0;
#pragma omp parallel for reduction(+ : other) schedule(static)
      for (guint k = 0; k < count; k++)
        other += wg_splat_radius_other (set->particles[k].radius, st->bounds, st->n_buckets - 1,
                                        st->radius);
      note_radius (ctx, other, count, st);
    }
  const guint w = out->width, h = out->height;
  SplatFilterUniforms u = {
    .u_size = { w, h },
    .u_inv_spacing = { (float) (w / out->extent[0]), (float) (h / out->extent[1]) },
    .u_edges = p->edges,
    .u_strength = (float) p->strength,
    .u_n_bounds = st->n_buckets - 1,
  };
  for (guint b = 0; b + 1 < st->n_buckets; b++)
    u.u_bounds[b / 4][b % 4] = st->bounds[b];
  wg_gpu_bind (0, particles);
  wg_gpu_bind (1, st->splat_ssbo);
  wg_gpu_bind (2, st->terms_ssbo);
  wg_gpu_bind (3, st->coefs_ssbo);
  wg_gpu_bind (4, st->tmp_ssbo);
  wg_gpu_bind (5, field);
  /* In rows of at most 65535 groups (GL's guaranteed count per dimension):
   * CLEAR one invocation per cell of every bucket, SPLAT one per slot
   * (those past the live count return). */
  const guint cells = (st->n_buckets * w * h + 255) / 256, cx = MIN (cells, 65535u);
  wg_gpu_kernel_dispatch (&st->passes[PASS_CLEAR], &u, cx, (cells + cx - 1) / cx, 1);
  const guint groups = (in->width + 63) / 64, gx = MIN (groups, 65535u);
  wg_gpu_kernel_dispatch (&st->passes[PASS_SPLAT], &u, gx, (groups + gx - 1) / gx, 1);
  /* Terms a group at a time: ROWS into a plane each, then COLS adds them
   * to their output channels in term order (the first group sets the
   * output, the last scales Dx, Dy); with strength 0 the height's terms
   * alone (Dx and Dy stay zero). */
  u.u_n_terms = p->strength == 0 ? st->n_height : st->n_terms;
  for (guint t = 0; t < u.u_n_terms; t += st->group)
    {
      u.u_term = t;
      u.u_term_count = MIN (st->group, u.u_n_terms - t);
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
