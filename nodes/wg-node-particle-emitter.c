/* particle-emitter — wave particles from impulses (drops), moved, subdivided,
 * reflected and deleted each step (papers/004 §3.2–3.5, after Yuksel et al.
 * 2007). CPU only: in GPU plans the set is uploaded once per frame when
 * splat-filter's kernels read it (wg_buffer_gpu()), never read back.
 *
 * - Emission: a drop of volume V at (x, y) and time T becomes a ring of n
 *   particles at its point, propagation angles 2πk/n, dispersion 2π/n, each
 *   of amplitude V / (n · r² (π/2 − 2/π)) so that the bumps carry V.
 * - Speed: every particle moves at one speed c from ω² = g k tanh(k d) with
 *   λ = 2r (k = π/r): the group speed by default — a particle is one bump,
 *   not a wave train, and carries its volume (energy) outward as a packet's
 *   envelope does, which moves at c_g — or the phase speed. The paper moves
 *   all particles at a constant speed without naming it.
 * - Subdivision (eq. 5): neighbours of a ring lie δ·|x − o| apart; past
 *   threshold · r the particle becomes three: itself and two at angles
 *   α ± δ/3 on the same circle about its origin, each with A/3 (volume
 *   conserved) and δ/3.
 * - Reflection (eq. 6–7) at walls through the grid's first and last cells
 *   (x = 0 and x = (W − 1) Δx, the same in y; splat-filter's edges "walls"):
 *   position, direction and origin mirrored; δ' = δ r_δ / r'_δ (1 for these
 *   straight walls, kept for the general form).
 * - Deletion: |A| below min_amplitude.
 * The set lives in the output buffer only, so plan states resume it bit for
 * bit; the steps are serial in particle order, the same for any thread count.
 */
#include "wg-node-private.h"
#include "wg-wave-particles.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum {
  P_DROPS,
  P_RING,
  P_RADIUS,
  P_SPEED,
  P_DEPTH,
  P_GRAVITY,
  P_THRESHOLD,
  P_MIN_AMPLITUDE,
  P_WALLS,
  P_CAPACITY,
  N_PARAMS
};
enum { SPEED_GROUP, SPEED_PHASE };

typedef struct {
  double x, y, time, volume;
} Drop;

typedef struct {
  WgList drops;
  gint64 ring;
  double radius;
  int speed;
  double depth;
  double gravity;
  double threshold;
  double min_amplitude;
  gboolean walls;
  gint64 capacity;
} EmitterParams;

#define OFFSET(x) offsetof (EmitterParams, x)

static const char *const speeds[] = { "group", "phase", NULL };

static const WgParamSpec drop_fields[] = {
  { "x", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -1e6, .max = 1e6,
    .offset = offsetof (Drop, x) },
  { "y", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -1e6, .max = 1e6,
    .offset = offsetof (Drop, y) },
  { "time", .type = WG_PARAM_FLOAT, .unit = "s", .default_value = 0, .min = 0, .max = 1e6,
    .offset = offsetof (Drop, time) },
  { "volume", .type = WG_PARAM_FLOAT, .unit = "m³", .default_value = NAN, .min = -1e6,
    .max = 1e6, .offset = offsetof (Drop, volume) },
};

static const WgParamSpec params[N_PARAMS] = {
  [P_DROPS] = { "drops", "Drops", WG_PARAM_LIST, "",
                "Impulses, up to 256 of {\"x\": m, \"y\": m, \"time\": s, \"volume\": m³}: "
                "at its time each becomes a ring of particles carrying its volume "
                "(negative: a depression)",
                .default_string = "[{\"x\": 8, \"y\": 8, \"time\": 0, \"volume\": 0.05}]",
                .min = 0, .max = 256, .fields = drop_fields, .n_fields = G_N_ELEMENTS (drop_fields),
                .record_size = sizeof (Drop), .offset = OFFSET (drops) },
  [P_RING] = { "ring", "Particles per ring", WG_PARAM_INT, "",
               "Particles a drop starts with, evenly spaced in angle (dispersion 2π/n)", 8, 3,
               4096, 3, 64, .offset = OFFSET (ring) },
  [P_RADIUS] = { "radius", "Particle radius", WG_PARAM_FLOAT, "m",
                 "Radius r of every particle's bump; its wavelength is 2r (link splat-filter "
                 "with the same radius)",
                 0.25, 1e-4, 1e4, 0.01, 5, .offset = OFFSET (radius) },
  [P_SPEED] = { "speed", "Speed", WG_PARAM_ENUM, "",
                "group: particles move at the group speed of λ = 2r (where a packet's "
                "energy goes); phase: at its phase speed",
                SPEED_GROUP, .choices = speeds, .offset = OFFSET (speed) },
  [P_DEPTH] = { "depth", "Water depth", WG_PARAM_FLOAT, "m",
                "Depth d of ω² = g k tanh(k d); \"inf\": deep water", INFINITY, 1e-3, 1e4, 0.1,
                100, .flags = WG_PARAM_FLAG_ALLOW_INF, .offset = OFFSET (depth) },
  [P_GRAVITY] = { "gravity", "Gravity", WG_PARAM_FLOAT, "m/s²", "Gravitational acceleration g",
                  9.81, 0.1, 100, 1, 25, .offset = OFFSET (gravity) },
  [P_THRESHOLD] = { "threshold", "Subdivision distance", WG_PARAM_FLOAT, "radii",
                    "Neighbours further apart than this many radii subdivide (eq. 5)", 0.5,
                    0.05, 4, 0.1, 2, .offset = OFFSET (threshold) },
  [P_MIN_AMPLITUDE] = { "min_amplitude", "Deletion amplitude", WG_PARAM_FLOAT, "m",
                        "Particles with |A| below this are deleted", 1e-5, 0, 1, 0, 1e-3,
                        .offset = OFFSET (min_amplitude) },
  [P_WALLS] = { "walls", "Walls", WG_PARAM_BOOL, "",
                "Particles reflect off walls through the grid's first and last cells (a pool; "
                "link splat-filter with edges \"walls\"); off: they leave it", 1,
                .offset = OFFSET (walls) },
  [P_CAPACITY] = { "capacity", "Capacity", WG_PARAM_INT, "",
                   "Particle slots; subdivisions and emissions beyond it are skipped and "
                   "counted in the node's note",
                   65536, 16, WG_MAX_PARTICLES, 1024, 1 << 20,
                   .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (capacity) },
};

static const WgPortSpec outputs[] = {
  { "particles", WG_PORT_PARTICLES, 8, FALSE, "The live wave particles" },
};

/* Speed (m/s) of a particle of radius @r (λ = 2r, k = π/r) in water of
 * depth @depth (INFINITY: deep) under gravity @g: the group speed
 * dω/dk = (c/2)(1 + 2kd / sinh 2kd) or the phase speed c = ω/k of
 * ω² = g k tanh(k d). */
static double
particle_speed (double r, double depth, double g, gboolean group)
{
  const double k = G_PI / r;
  const double kd = isinf (depth) ? INFINITY : k * depth;
  const double c = sqrt (g / k * (isinf (kd) ? 1.0 : tanh (kd)));
  if (!group)
    return c;
  return 0.5 * c * (kd > 40 ? 1.0 : 1.0 + 2 * kd / sinh (2 * kd));
}

static gboolean
emitter_prepare (WgNodeContext *ctx, GError **error)
{
  const EmitterParams *p = wg_ctx_params (ctx);
  wg_ctx_define_particles (ctx, 0, (guint) p->capacity);
  return TRUE;
}

/* Mirrors coordinate *x (and the origin's *o) into [0, l]; TRUE when it did. */
static gboolean
mirror (float *x, float *o, double l)
{
  if (*x < 0)
    {
      *x = -*x;
      *o = -*o;
      return TRUE;
    }
  if (*x > l)
    {
      *x = (float) (2 * l - *x);
      *o = (float) (2 * l - *o);
      return TRUE;
    }
  return FALSE;
}

/* Moves @q by @step m and reflects it off the walls x = 0, x = @wall[0],
 * y = 0, y = @wall[1] (eq. 6–7). */
static void
advance (WgParticle *q, double step, gboolean walls, const double wall[2])
{
  q->x += (float) (step * cos (q->angle));
  q->y += (float) (step * sin (q->angle));
  if (!walls)
    return;
  const double before = hypot (q->x - q->origin_x, q->y - q->origin_y);
  gboolean hit = FALSE;
  if (mirror (&q->x, &q->origin_x, wall[0]))
    {
      q->angle = (float) (G_PI - q->angle);
      hit = TRUE;
    }
  if (mirror (&q->y, &q->origin_y, wall[1]))
    {
      q->angle = -q->angle;
      hit = TRUE;
    }
  if (!hit)
    return;
  q->angle = (float) remainder (q->angle, 2 * G_PI);
  const double after = hypot (q->x - q->origin_x, q->y - q->origin_y);
  if (after > 0)
    q->dispersion = (float) (q->dispersion * before / after);
}

/* A particle at angle @angle on the circle of @q's origin through @q. */
static WgParticle
sibling (const WgParticle *q, double angle)
{
  WgParticle c = *q;
  const double d = hypot (q->x - q->origin_x, q->y - q->origin_y);
  c.angle = (float) angle;
  c.x = (float) (q->origin_x + d * cos (angle));
  c.y = (float) (q->origin_y + d * sin (angle));
  return c;
}

static gboolean
emitter_process_cpu (WgNodeContext *ctx, GError **error)
{
  const EmitterParams *p = wg_ctx_params (ctx);
  WgParticleSet *set = wg_buffer_particles (wg_ctx_output (ctx, 0));
  const WgSettings *s = wg_ctx_settings (ctx);
  const double t = wg_ctx_time (ctx), dt = wg_ctx_dt (ctx);
  const double walls[2] = { s->extent[0] * (s->grid[0] - 1) / s->grid[0],
                            s->extent[1] * (s->grid[1] - 1) / s->grid[1] };
  const double c = particle_speed (p->radius, p->depth, p->gravity, p->speed == SPEED_GROUP);
  const double r = p->radius;

  /* Move the particles alive before this step by one step. */
  for (guint k = 0; k < set->count; k++)
    advance (&set->particles[k], c * dt, p->walls, walls);

  /* Drops whose time falls in (t − dt, t]: rings advanced by c (t − T). */
  const Drop *drops = p->drops.items;
  const double amplitude_per_volume = 1.0 / (p->ring * wg_bump_volume (r));
  for (gsize d = 0; d < p->drops.n; d++)
    {
      if (!(drops[d].time > t - dt && drops[d].time <= t))
        continue;
      for (int k = 0; k < p->ring; k++)
        {
          if (set->count == set->capacity)
            {
              set->dropped += (guint32) (p->ring - k);
              break;
            }
          const float x = (float) drops[d].x, y = (float) drops[d].y;
          WgParticle q = { x, y, x, y, (float) (2 * G_PI * k / p->ring),
                           (float) (2 * G_PI / p->ring),
                           (float) (drops[d].volume * amplitude_per_volume), (float) r };
          advance (&q, c * (t - drops[d].time), p->walls, walls);
          set->particles[set->count++] = q;
        }
    }

  /* Subdivide (eq. 5) and delete, in order; children are appended and
   * examined in turn. */
  guint live = 0;
  for (guint k = 0; k < set->count; k++)
    {
      WgParticle q = set->particles[k];
      if (fabsf (q.amplitude) < p->min_amplitude)
        continue;
      while (q.dispersion * hypot (q.x - q.origin_x, q.y - q.origin_y) > p->threshold * r)
        {
          if (set->count + 2 > set->capacity)
            {
              set->dropped += 2;
              break;
            }
          q.amplitude /= 3;
          q.dispersion /= 3;
          set->particles[set->count++] = sibling (&q, q.angle - q.dispersion);
          set->particles[set->count++] = sibling (&q, q.angle + q.dispersion);
        }
      set->particles[live++] = q;
    }
  set->count = live;
  if (set->dropped)
    wg_ctx_note (ctx, TRUE, "%u particles did not fit the capacity of %u (raise capacity)",
                 set->dropped, set->capacity);
  else
    wg_ctx_note (ctx, FALSE, "%u particles, speed %.4g m/s", set->count, c);
  return TRUE;
}

static void
emitter_reset (WgNodeContext *ctx)
{
  wg_buffer_zero (wg_ctx_output (ctx, 0));
}

const WgNodeType wg_node_particle_emitter = {
  .name = "particle-emitter",
  .title = "Particle emitter",
  .category = "Wave particles",
  .description = "Wave particles from drops: rings that spread at the waves' speed, subdivide "
                 "as they grow, reflect off the pool's walls and fade out.",
  .reference = "Yuksel et al. 2007 via Mikeš, §3.2–3.5, eq. 5–7 (papers/004)",
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_STATEFUL,
  .prepare = emitter_prepare,
  .process_cpu = emitter_process_cpu,
  .reset = emitter_reset,
  .params_size = sizeof (EmitterParams),
};
