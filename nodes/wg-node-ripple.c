/* ripple — height-field ripples by the modified Hugo Elias method (papers/001).
 *
 * Update (papers/001, "Next = (2 * (Flow*Factor + Current)/(Factor+1) -
 * Previous) * Dampening"; the transcription's equations agree with its
 * pseudocode and with each other, none needed repair):
 *   next = d · (2 (F·flow + cur) / (F + 1) − prev),  flow = mean of the 4 neighbours
 * with flow factor F and dampening d. Written as
 *   next = d · (2·cur − prev + C² L cur),  L = 5-point Laplacian in cells,
 *   C² = F / (2 (F + 1)),
 * it is the leapfrog wave equation at Courant number C: waves cross C cells
 * per step, c = C·Δ·steps_per_frame·fps m/s (F = 1: half a cell per step).
 *
 * Stability: a Fourier mode with L-eigenvalue −λ, λ ∈ [0, 8], evolves by
 * r² − d·a·r + d = 0, a = 2 − C²λ ∈ [2 (1 − F)/(1 + F), 2]. |a| ≤ 2 for every
 * F ≥ 0, so for d ∈ [0, 1] both roots have |r| = √d: amplitudes shrink by √d
 * and the energy E = |cur|² − d·cur·M·prev + d·|prev|² (M = 2 + C² L,
 * symmetric on both edge modes) by exactly d per step. F is held to the
 * paper's [0, 1]; F → ∞ is Elias' original (Next = 2·Flow − Previous), where
 * the checkerboard mode reaches a = −2 and grows linearly at d = 1. At d = 1
 * the mean level (and, for F = 0, every mode) is only neutrally stable: a
 * drop adds to the current height alone, which gives the mean level a rise
 * per step that never stops; any d < 1 brings it back to rest.
 *
 * Time: the scheme has no dt of its own; the paper sets wave speed by the
 * update rate, so each frame (dt = 1/fps) takes steps_per_frame steps. Before
 * the frame's first step the optional `source` field and the frame's drops
 * are added to the height, as the paper's force ("current = current +
 * force"), so a source does not depend on steps_per_frame.
 *
 * Drops: drop k falls at t = k / drop_rate; frame f takes the drops with
 * ⌈f·rate/fps⌉ ≤ k < ⌈(f+1)·rate/fps⌉. Its cell (ci, cj) comes from Philox
 * (runtime/wg-rng.h) at counter (k lo, k hi, 1, 0), key (seed lo, seed hi ^
 * seed offset): ci = ⌊word0·W / 2³²⌋, cj = ⌊word1·H / 2³²⌋. It adds
 * strength · (1 − r²/R²)² within radius R (r from the cell, wrapped on wrap
 * edges), a smooth bump without transcendentals, so both backends round it
 * alike. The host draws the cells and hands them to the GPU.
 *
 * Edges: wrap (periodic) or clamp (a missing neighbour is the edge cell
 * itself, as a clamped texture: a reflecting wall half a cell outside).
 *
 * State is the height and previous outputs. A step overwrites the older
 * buffer in place (it reads only its own cell there), so buffers alternate
 * roles; after an odd number of steps one swap pass puts the newest height
 * back in `height`. "velocity" is (height − previous)/Δt of the last step,
 * Δt = 1/(fps·steps_per_frame) (wg-height-rate.h).
 * Heights below 1e-30 m become 0: decaying water would otherwise fill with
 * subnormal floats, which many CPUs handle through slow microcode assists
 * and GPUs may flush to zero on their own; flushed alike, the backends agree.
 */
#include "wg-node-private.h"
#include "wg-simd.h"
#include "wg-gpu-kernel.h"
#include "wg-height-rate.h"
#include "wg-rng.h"
#include "ripple.h"

#include <math.h>
#include <stddef.h>

enum { IN_SOURCE };
enum { OUT_HEIGHT, OUT_PREVIOUS, OUT_VELOCITY };
enum { P_FLOW_FACTOR, P_DAMPENING, P_EDGES, P_STEPS, P_DROP_RATE, P_DROP_RADIUS,
       P_DROP_STRENGTH, P_SEED, N_PARAMS };
enum { EDGES_WRAP, EDGES_CLAMP };

/* Drops one frame may take; the GPU receives them as a uniform array. */
#define RIPPLE_MAX_DROPS WG_RIPPLE_MAX_DROPS
#define RIPPLE_FLUSH 1e-30f
#define RIPPLE_DROP_STREAM 1u

static const char *const edge_modes[] = { "wrap", "clamp", NULL };

typedef struct {
  double flow_factor, dampening;
  int edges;
  gint64 steps_per_frame;
  double drop_rate, drop_radius, drop_strength;
  gint64 seed;
} RippleParams;

#define OFFSET(x) offsetof (RippleParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_FLOW_FACTOR] = { "flow_factor", "Flow factor", WG_PARAM_FLOAT, "",
                      "The paper's flow factor F: weight of the neighbours' mean against the "
                      "current height; waves cross √(F/(2(F+1))) cells per step (0: none, "
                      "1: half a cell); stable over the whole range",
                      1, 0, 1, 0, 1, .offset = OFFSET (flow_factor) },
  [P_DAMPENING] = { "dampening", "Dampening", WG_PARAM_FLOAT, "",
                    "Factor applied to the new height each step (1: no loss); wave energy "
                    "falls by this factor per step",
                    0.99, 0, 1, 0.9, 1, .offset = OFFSET (dampening) },
  [P_EDGES] = { "edges", "Edges", WG_PARAM_ENUM, "",
                "wrap: periodic (tiling water); clamp: the edge cell stands in for its missing "
                "neighbour, so waves reflect off the borders",
                EDGES_WRAP, .choices = edge_modes, .offset = OFFSET (edges) },
  [P_STEPS] = { "steps_per_frame", "Steps per frame", WG_PARAM_INT, "",
                "Updates per frame (the paper's update rate): wave speed is "
                "√(F/(2(F+1)))·Δ·steps·fps m/s",
                2, 1, 64, 1, 8, .offset = OFFSET (steps_per_frame) },
  [P_DROP_RATE] = { "drop_rate", "Drop rate", WG_PARAM_FLOAT, "1/s",
                    "Built-in drops per second at seeded random cells (0: none)", 0, 0, 1000, 0,
                    10, .offset = OFFSET (drop_rate) },
  [P_DROP_RADIUS] = { "drop_radius", "Drop radius", WG_PARAM_FLOAT, "m",
                      "Radius R of a drop's bump strength·(1 − r²/R²)²", 1, 0.001, 10000, 0.1,
                      10, .offset = OFFSET (drop_radius) },
  [P_DROP_STRENGTH] = { "drop_strength", "Drop strength", WG_PARAM_FLOAT, "m",
                        "Height a drop adds at its centre (negative: a dent)", 0.1, -100, 100,
                        -1, 1, .offset = OFFSET (drop_strength) },
  [P_SEED] = { "seed", "Seed offset", WG_PARAM_INT, "",
               "Combined with the graph's seed: different values drop at different places", 0,
               0, 2147483647.0, 0, 1000, .offset = OFFSET (seed) },
};

static const WgPortSpec inputs[] = {
  { "source", WG_PORT_FIELD, 1, TRUE,
    "Height added to the water each frame before stepping (m), the paper's force" },
};
static const WgPortSpec outputs[] = {
  { "height", WG_PORT_FIELD, 1, FALSE, "Water height (m)" },
  { "previous", WG_PORT_FIELD, 1, FALSE,
    "Height one step (1/(fps·steps_per_frame) s) earlier (m); part of the state" },
  { "velocity", WG_PORT_FIELD, 1, FALSE,
    "Vertical velocity of the last step, (height − previous)·fps·steps_per_frame (m/s). "
    "Computed only when linked" },
};

typedef struct {
  float k_cur, k_flow, damp;
} RippleCoeffs;

typedef struct {
  guint n;
  guint cells[RIPPLE_MAX_DROPS][2];
} RippleDrops;

/* The GPU passes, built in prepare, and the velocity (on both backends). */
typedef struct {
  WgGpuKernel add, step, swap;
  WgHeightRate rate;
} RippleKernels;

static RippleCoeffs
ripple_coeffs (WgNodeContext *ctx)
{
  /* 2 (F·flow + cur)/(F + 1) = (2/(F + 1))·cur + (F/(2 (F + 1)))·Σ neighbours. */
  const RippleParams *p = wg_ctx_params (ctx);
  const double F = p->flow_factor;
  return (RippleCoeffs) { (float) (2.0 / (F + 1.0)), (float) (F / (2.0 * (F + 1.0))),
                          (float) p->dampening };
}

/* First drop index of frame @frame: ⌈frame·rate/fps⌉. */
static gint64
first_drop (gint64 frame, double rate, double fps)
{
  return (gint64) ceil ((double) frame * rate / fps);
}

/* ⌈rate/fps⌉ + 1 bounds the drops of any frame, float rounding included.
 * Checked in prepare and again per frame: a rate set as a graph input each
 * frame does not pass through prepare. */
static gboolean
ripple_check_rate (WgNodeContext *ctx, GError **error)
{
  const RippleParams *p = wg_ctx_params (ctx);
  const double rate = p->drop_rate, fps = wg_ctx_settings (ctx)->fps;
  if (ceil (rate / fps) + 1 <= RIPPLE_MAX_DROPS)
    return TRUE;
  wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_DROP_RATE,
                "%g drops/s at %g frames/s is more than %d drops per frame (at most %g drops/s)",
                rate, fps, RIPPLE_MAX_DROPS - 1, (RIPPLE_MAX_DROPS - 1) * fps);
  return FALSE;
}

/* The cells of the drops falling in the current frame. */
static gboolean
ripple_drops (WgNodeContext *ctx, guint w, guint h, RippleDrops *drops, GError **error)
{
  if (!ripple_check_rate (ctx, error))
    return FALSE;
  const RippleParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  const double rate = p->drop_rate;
  const gint64 f = wg_ctx_frame (ctx);
  const gint64 k0 = first_drop (f, rate, s->fps), k1 = first_drop (f + 1, rate, s->fps);
  const guint32 node_seed = (guint32) p->seed;
  drops->n = (guint) (k1 - k0);
  for (gint64 k = k0; k < k1; k++)
    {
      WgPhilox4 r = wg_philox4x32 ((guint32) k, (guint32) ((guint64) k >> 32), RIPPLE_DROP_STREAM,
                                   0u, (guint32) s->seed, (guint32) (s->seed >> 32) ^ node_seed);
      drops->cells[k - k0][0] = (guint) (((guint64) r.v[0] * w) >> 32);
      drops->cells[k - k0][1] = (guint) (((guint64) r.v[1] * h) >> 32);
    }
  return TRUE;
}

static gboolean
ripple_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  WgBuffer *src = wg_ctx_input (ctx, IN_SOURCE);
  if (src && (src->width != s->grid[0] || src->height != s->grid[1]))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "input \"source\" is %u×%u, the graph's grid %u×%u", src->width, src->height,
                    s->grid[0], s->grid[1]);
      return FALSE;
    }
  if (!ripple_check_rate (ctx, error))
    return FALSE;
  for (guint o = 0; o < G_N_ELEMENTS (outputs); o++)
    wg_ctx_define_field (ctx, o, s->grid[0], s->grid[1], 1, s->extent);
  RippleKernels *k = g_new0 (RippleKernels, 1);
  wg_ctx_set_state (ctx, k);
  if (!wg_height_rate_prepare (&k->rate, ctx, OUT_HEIGHT, OUT_PREVIOUS, OUT_VELOCITY, error))
    return FALSE;
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    return TRUE;
  return wg_gpu_kernel_init (&k->add, gpu, "ripple.comp",
                             src ? "#define RIPPLE_ADD 1\n#define HAS_SOURCE 1\n"
                                 : "#define RIPPLE_ADD 1\n",
                             sizeof (RippleAddUniforms), error) &&
         wg_gpu_kernel_init (&k->step, gpu, "ripple.comp", "#define RIPPLE_STEP 1\n",
                             sizeof (RippleStepUniforms), error) &&
         wg_gpu_kernel_init (&k->swap, gpu, "ripple.comp", "#define RIPPLE_SWAP 1\n",
                             sizeof (RippleSwapUniforms), error);
}

static void
ripple_free_state (gpointer data)
{
  RippleKernels *k = data;
  wg_gpu_kernel_clear (&k->add);
  wg_gpu_kernel_clear (&k->step);
  wg_gpu_kernel_clear (&k->swap);
  wg_height_rate_clear (&k->rate);
  g_free (k);
}

static void
ripple_reset (WgNodeContext *ctx)
{
  for (guint o = 0; o < G_N_ELEMENTS (outputs); o++)
    wg_buffer_zero (wg_ctx_output (ctx, o));
}

/* Signed offset from @c to @i along an axis of @n cells: the shorter way
 * round on wrap edges. */
static inline int
ripple_offset (guint i, guint c, guint n, gboolean wrap)
{
  int d = (int) i - (int) c;
  if (wrap && d > (int) (n / 2))
    d -= (int) n;
  else if (wrap && d < -(int) (n / 2))
    d += (int) n;
  return d;
}

typedef struct {
  float sx, sy, inv_r2, strength;
} DropShape;

static DropShape
drop_shape (WgNodeContext *ctx)
{
  const RippleParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  const double r = p->drop_radius;
  return (DropShape) { (float) (s->extent[0] / s->grid[0]), (float) (s->extent[1] / s->grid[1]),
                       (float) (1.0 / (r * r)), (float) p->drop_strength };
}

/* height += source + the frame's drops, in that order on both backends. */
static void
ripple_add_cpu (float *h, const float *src, const RippleDrops *drops, const DropShape *ds,
                guint w, guint hh, gboolean wrap)
{
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hh; j++)
    {
      float *row = h + (gsize) j * w;
      if (src)
        for (guint i = 0; i < w; i++)
          row[i] += src[(gsize) j * w + i];
      for (guint k = 0; k < drops->n; k++)
        {
          float dy = (float) ripple_offset (j, drops->cells[k][1], hh, wrap) * ds->sy;
          /* Rows the bump misses: q ≤ 0 in every column (r² ≥ dy²). */
          if (dy * dy * ds->inv_r2 >= 1.0f)
            continue;
          for (guint i = 0; i < w; i++)
            {
              float dx = (float) ripple_offset (i, drops->cells[k][0], w, wrap) * ds->sx;
              float q = 1.0f - (dx * dx + dy * dy) * ds->inv_r2;
              if (q > 0.0f)
                row[i] += ds->strength * q * q;
            }
        }
    }
}

static inline float
ripple_flush (float v)
{
  return fabsf (v) < RIPPLE_FLUSH ? 0.0f : v;
}

/* One step at a border column from its neighbours e, w (row) and n, s. */
static inline float
ripple_at (const RippleCoeffs *k, float c, float e, float w, float n, float s, float p)
{
  return ripple_flush (k->damp * (k->k_cur * c + k->k_flow * ((e + w) + (n + s)) - p));
}

/* One step of one row's interior columns, written over the older row @p;
 * the two border columns are the caller's. (e + w) + (n + s) keeps the sum
 * exactly symmetric under mirroring and transposing the grid. */
WG_HOT_KERNEL static void
ripple_row (const RippleCoeffs *k, const float *restrict c, const float *restrict n,
            const float *restrict s, float *restrict p, guint w)
{
  const float k_cur = k->k_cur, k_flow = k->k_flow, damp = k->damp;
  for (gsize i = 1; i + 1 < w; i++)
    p[i] = ripple_flush (damp * (k_cur * c[i] + k_flow * ((c[i + 1] + c[i - 1]) + (n[i] + s[i])) -
                                 p[i]));
}

/* One step: @prev becomes the height after @cur. */
static void
ripple_step_cpu (const RippleCoeffs *k, const float *cur, float *prev, guint w, guint hh,
                 gboolean wrap)
{
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < hh; j++)
    {
      guint jn = j + 1 < hh ? j + 1 : (wrap ? 0 : j);
      guint js = j > 0 ? j - 1 : (wrap ? hh - 1 : j);
      const float *c = cur + (gsize) j * w, *n = cur + (gsize) jn * w, *s = cur + (gsize) js * w;
      float *p = prev + (gsize) j * w;
      ripple_row (k, c, n, s, p, w);
      p[0] = ripple_at (k, c[0], c[1], wrap ? c[w - 1] : c[0], n[0], s[0], p[0]);
      p[w - 1] = ripple_at (k, c[w - 1], wrap ? c[0] : c[w - 1], c[w - 2], n[w - 1], s[w - 1],
                            p[w - 1]);
    }
}

/* The velocity output from the frame's last step. */
static gboolean
ripple_velocity (WgNodeContext *ctx, GError **error)
{
  const RippleParams *p = wg_ctx_params (ctx);
  const RippleKernels *k = wg_ctx_get_state (ctx);
  return wg_height_rate_process (&k->rate, ctx, wg_ctx_dt (ctx) / (double) p->steps_per_frame,
                                 error);
}

static gboolean
ripple_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *hb = wg_ctx_output (ctx, OUT_HEIGHT);
  const guint w = hb->width, hh = hb->height;
  RippleDrops drops;
  if (!ripple_drops (ctx, w, hh, &drops, error))
    return FALSE;
  WgBuffer *sb = wg_ctx_input (ctx, IN_SOURCE);
  const float *src = sb ? wg_buffer_cpu (sb, error) : NULL;
  if (sb && src == NULL)
    return FALSE;
  const RippleParams *p = wg_ctx_params (ctx);
  float *bufs[2] = { wg_buffer_data (hb), wg_buffer_data (wg_ctx_output (ctx, OUT_PREVIOUS)) };
  const gboolean wrap = p->edges == EDGES_WRAP;
  if (src || drops.n > 0)
    {
      const DropShape ds = drop_shape (ctx);
      ripple_add_cpu (bufs[0], src, &drops, &ds, w, hh, wrap);
    }
  const RippleCoeffs k = ripple_coeffs (ctx);
  const gint64 steps = p->steps_per_frame;
  for (gint64 i = 0; i < steps; i++)
    ripple_step_cpu (&k, bufs[i & 1], bufs[(i + 1) & 1], w, hh, wrap);
  if (steps & 1)
    {
#pragma omp parallel for schedule(static)
      for (gsize i = 0; i < (gsize) w * hh; i++)
        {
          float t = bufs[0][i];
          bufs[0][i] = bufs[1][i];
          bufs[1][i] = t;
        }
    }
  return ripple_velocity (ctx, error);
}

static gboolean
ripple_process_gpu (WgNodeContext *ctx, GError **error)
{
  const RippleParams *p = wg_ctx_params (ctx);
  const RippleKernels *kernels = wg_ctx_get_state (ctx);
  WgBuffer *hb = wg_ctx_output (ctx, OUT_HEIGHT), *sb = wg_ctx_input (ctx, IN_SOURCE);
  const guint w = hb->width, hh = hb->height;
  RippleDrops drops;
  if (!ripple_drops (ctx, w, hh, &drops, error))
    return FALSE;
  GLuint bufs[2] = { wg_buffer_gpu_write (hb, error), 0 };
  if (bufs[0] == 0)
    return FALSE;
  bufs[1] = wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_PREVIOUS), error);
  if (bufs[1] == 0)
    return FALSE;
  const gboolean wrap = p->edges == EDGES_WRAP;

  if (sb || drops.n > 0)
    {
      GLuint src = sb ? wg_buffer_gpu (sb, error) : 0;
      if (sb && src == 0)
        return FALSE;
      const DropShape ds = drop_shape (ctx);
      RippleAddUniforms u = {
        .u_size = { w, hh },
        .u_spacing = { ds.sx, ds.sy },
        .u_n_drops = drops.n,
        .u_inv_radius2 = ds.inv_r2,
        .u_strength = ds.strength,
        .u_wrap = wrap,
      };
      for (guint k = 0; k < drops.n; k++)
        {
          u.u_drops[k][0] = drops.cells[k][0];
          u.u_drops[k][1] = drops.cells[k][1];
        }
      wg_gpu_bind (0, bufs[0]);
      wg_gpu_bind (1, src);
      wg_gpu_kernel_dispatch_field (&kernels->add, &u, w, hh);
    }

  const RippleCoeffs k = ripple_coeffs (ctx);
  const RippleStepUniforms step = {
    .u_size = { w, hh },
    .u_k_cur = k.k_cur,
    .u_k_flow = k.k_flow,
    .u_damp = k.damp,
    .u_wrap = wrap,
  };
  const gint64 steps = p->steps_per_frame;
  for (gint64 i = 0; i < steps; i++)
    {
      wg_gpu_bind (0, bufs[i & 1]);
      wg_gpu_bind (1, bufs[(i + 1) & 1]);
      wg_gpu_kernel_dispatch_field (&kernels->step, &step, w, hh);
    }
  if (steps & 1)
    {
      const RippleSwapUniforms swap = { .u_size = { w, hh } };
      wg_gpu_bind (0, bufs[0]);
      wg_gpu_bind (1, bufs[1]);
      wg_gpu_kernel_dispatch_field (&kernels->swap, &swap, w, hh);
    }
  return ripple_velocity (ctx, error);
}

const WgNodeType wg_node_ripple = {
  .name = "ripple",
  .title = "Ripple",
  .category = "Waves",
  .description = "Ripples on a height field by the modified Hugo Elias method: each step "
                 "next = d·(2(F·flow + cur)/(F + 1) − prev) with the neighbours' mean as flow, "
                 "flow factor F and dampening d; wrap or clamp (reflecting) edges; disturbed by "
                 "a source field and by built-in seeded drops.",
  .reference = "\"Simulating Water Ripples\" (modified Hugo Elias method, papers/001)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_STATEFUL,
  .prepare = ripple_prepare,
  .process_cpu = ripple_process_cpu,
  .process_gpu = ripple_process_gpu,
  .reset = ripple_reset,
  .free_state = ripple_free_state,
  .params_size = sizeof (RippleParams),
};
