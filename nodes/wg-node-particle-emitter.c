/* particle-emitter — wave particles from impulses (drops), moved, subdivided,
 * reflected and deleted each step (papers/004 §3.2–3.5, after Yuksel et al.
 * 2007), on the CPU or the GPU (shaders/particle-step.comp).
 *
 * - Emission: a drop of volume V at (x, y) and time T becomes a ring of n
 *   particles at its point, propagation angles 2πk/n, dispersion 2π/n, each
 *   of amplitude V / (n · r² (π/2 − 2/π)) so that the bumps carry V. The
 *   rings of the drops in (t − dt, t] are staged (wg-particle-step.h) at
 *   their position at t; so are the wakes of the bodies linked in (moving
 *   objects, floating bodies: wg_wake_emit() on each waterline sample,
 *   Yuksel et al. 2007 §5's direct and indirect effects, papers/004 §4.4).
 * - Speed: every particle moves at one speed c from ω² = g k tanh(k d) with
 *   λ = 2r (k = π/r): the group speed by default — a particle is one bump,
 *   not a wave train, and carries its volume (energy) outward as a packet's
 *   envelope does, which moves at c_g — or the phase speed. The paper moves
 *   all particles at a constant speed without naming it.
 * - The step (wg-particle-step.h): live particles advance by c dt and
 *   reflect (eq. 6–7) at walls through the grid's first and last cells
 *   (x = 0 and x = (W − 1) Δx, the same in y; splat-filter's edges
 *   "walls") and, when an obstacle mask is linked, off its ½ level
 *   (wg_particle_reflect_obstacle(): curved walls move the front's centre
 *   and change δ); particles staged this step meet obstacles from the
 *   next one; then live and staged particles are deleted (|A| below
 *   min_amplitude) or subdivided (eq. 5: neighbours of a ring lie δ·|x − o|
 *   apart; past threshold · r a particle becomes three, itself and two at
 *   α ± δ/3 on the same circle about its origin, each with A/3 and δ/3).
 * The set lives in the output buffer, stepped into a second one of the
 * same capacity that then takes its place (a ping-pong on both backends),
 * so plan states resume it bit for bit. The CPU set is the same for any
 * thread count; the GPU's holds the same particles in another order.
 */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "wg-os.h"
#include "wg-particle-step.h"
#include "wg-particle-wake.h"
#include "wg-wave-particles.h"
#include "particle-step.h"

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
  P_WAKE_STRENGTH,
  N_PARAMS
};
enum { SPEED_GROUP, SPEED_PHASE };

typedef struct {
  double x, y, time, volume, radius;
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
  double wake_strength;
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
  { "radius", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = 0, .min = 0, .max = 1e4,
    .offset = offsetof (Drop, radius) },
};

static const WgParamSpec params[N_PARAMS] = {
  [P_DROPS] = { "drops", "Drops", WG_PARAM_LIST, "",
                "Impulses, up to 256 of {\"x\": m, \"y\": m, \"time\": s, \"volume\": m³, "
                "\"radius\": m}: at its time each becomes a ring of particles carrying its "
                "volume (negative: a depression), of its radius (0 or absent: the node's); at "
                "most 8 radii in all, each moving at its own speed",
                .default_string = "[{\"x\": 8, \"y\": 8, \"time\": 0, \"volume\": 0.05}]",
                .min = 0, .max = 256, .fields = drop_fields, .n_fields = G_N_ELEMENTS (drop_fields),
                .record_size = sizeof (Drop), .offset = OFFSET (drops) },
  [P_RING] = { "ring", "Particles per ring", WG_PARAM_INT, "",
               "Particles a drop starts with, evenly spaced in angle (dispersion 2π/n)", 8, 3,
               4096, 3, 64, .offset = OFFSET (ring) },
  [P_RADIUS] = { "radius", "Particle radius", WG_PARAM_FLOAT, "m",
                 "Radius r of the particles' bumps (the drops' unless they give theirs, and "
                 "the wakes'); wavelength 2r. Give splat-filter the same radius, and the "
                 "drops' other radii as its `radii`",
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
                   "Particle slots (a second set of as many is the step's scratch); when they "
                   "run out, the particle crossing the end stays unsubdivided and later ones are "
                   "lost, each counted once in the set's dropped count (the node's note on the "
                   "CPU; `wavegraph run` warns at the end of a bake on either backend)",
                   65536, 16, WG_MAX_PARTICLES, 1024, 1 << 20,
                   .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (capacity) },
  [P_WAKE_STRENGTH] = { "wake_strength", "Wake strength", WG_PARAM_FLOAT, "",
                        "Fraction of the water a body's hull moves (and of its change of "
                        "submerged volume) that leaves as waves: 1, all of it (Yuksel's model); "
                        "less, the rest flows round the hull",
                        1, 0, 10, 0, 1, .offset = OFFSET (wake_strength) },
};

static const WgPortSpec inputs[] = {
  { "bodies", WG_PORT_BODIES, 0, TRUE,
    "Moving objects and floating bodies: their waterlines make wakes (the direct and indirect "
    "effects of Yuksel et al. 2007 §5)" },
  { "obstacles", WG_PORT_FIELD, 1, TRUE,
    "Obstacle mask (obstacle-mask's output: 1 water, 0 solid; any grid, sampled by world "
    "position, clamped outside it): live particles that step into solid (mask < ½) reflect "
    "off its ½ level, the front's centre moved by the wall's curvature (eq. 6–7)" },
};
enum { IN_BODIES, IN_OBSTACLES };
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

typedef struct {
  GArray *stage;          /* WgParticle: this step's emissions */
  GByteArray *fates;      /* CPU: the step's scratch */
  float *spare;           /* CPU: the set the step writes, then swapped in */
  WgGpuKernel passes[4];  /* GPU: BEGIN, STEP, FINISH, STEP with obstacles */
  GLuint spare_ssbo, staged_ssbo, args_ssbo;
  guint staged_room;      /* particles staged_ssbo holds */
} EmitterState;

enum { PASS_BEGIN, PASS_STEP, PASS_FINISH, PASS_STEP_OBSTACLES };

static void
emitter_state_free (gpointer data)
{
  EmitterState *st = data;
  for (guint k = 0; k < G_N_ELEMENTS (st->passes); k++)
    wg_gpu_kernel_clear (&st->passes[k]);
  GLuint buffers[] = { st->spare_ssbo, st->staged_ssbo, st->args_ssbo };
  if (st->spare_ssbo)
    glDeleteBuffers (G_N_ELEMENTS (buffers), buffers);
  g_array_unref (st->stage);
  g_byte_array_unref (st->fates);
  wg_os_aligned_free (st->spare);
  g_free (st);
}

static gboolean
emitter_prepare (WgNodeContext *ctx, GError **error)
{
  const EmitterParams *p = wg_ctx_params (ctx);
  const guint capacity = (guint) p->capacity;
  wg_ctx_define_particles (ctx, 0, capacity);
  EmitterState *st = g_new0 (EmitterState, 1);
  wg_ctx_set_state (ctx, st);
  st->stage = g_array_new (FALSE, FALSE, sizeof (WgParticle));
  st->fates = g_byte_array_new ();
  const gsize bytes = ((gsize) capacity + 1) * sizeof (WgParticle);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    {
      st->spare = wg_os_aligned_alloc (bytes);
      if (st->spare == NULL)
        g_error ("out of memory allocating %u particles", capacity);
      return TRUE;
    }
  /* The obstacles' code in a variant of its own: without, the step is
   * the one it was (no cost even where a uniform branch has one). */
  static const char *const defines[] = { "#define BEGIN 1\n", "#define STEP 1\n",
                                         "#define FINISH 1\n",
                                         "#define STEP 1\n#define OBSTACLES 1\n" };
  for (guint k = 0; k < G_N_ELEMENTS (st->passes); k++)
    if (!wg_gpu_kernel_init (&st->passes[k], gpu, "particle-step.comp", defines[k],
                             k == PASS_STEP || k == PASS_STEP_OBSTACLES
                               ? sizeof (ParticleStepUniforms) : 0, error))
      return FALSE;
  st->spare_ssbo = wg_gpu_buffer_new (gpu, bytes, NULL, GL_DYNAMIC_COPY);
  st->staged_room = 1024;
  st->staged_ssbo = wg_gpu_buffer_new (gpu, st->staged_room * sizeof (WgParticle), NULL,
                                       GL_STREAM_DRAW);
  st->args_ssbo = wg_gpu_buffer_new (gpu, 4 * sizeof (guint32), NULL, GL_DYNAMIC_COPY);
  return TRUE;
}

/* The radius of drop @d's particles. */
static double
drop_radius (const EmitterParams *p, const Drop *d)
{
  return d->radius > 0 ? d->radius : p->radius;
}

/* The step's motion for a step of @dt s: the node's radius first in its
 * table of radii, then the drops' other radii; FALSE past
 * WG_PARTICLE_MAX_RADII of them. @speed: the node's radius' speed. */
static gboolean
emitter_motion (WgNodeContext *ctx, double dt, double *speed, WgParticleMotion *m,
                GError **error)
{
  const EmitterParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  *speed = particle_speed (p->radius, p->depth, p->gravity, p->speed == SPEED_GROUP);
  *m = (WgParticleMotion) {
    .n_radii = 1,
    .radius = { (float) p->radius },
    .step = { (float) (*speed * dt) },
    .low = p->walls ? 0.0f : -INFINITY,
    .wall_x = p->walls ? (float) (s->extent[0] * (s->grid[0] - 1) / s->grid[0]) : INFINITY,
    .wall_y = p->walls ? (float) (s->extent[1] * (s->grid[1] - 1) / s->grid[1]) : INFINITY,
    .threshold = (float) p->threshold,
    .min_amplitude = (float) p->min_amplitude,
  };
  for (guint k = 1; k < WG_PARTICLE_MAX_RADII; k++)
    m->radius[k] = NAN;
  const Drop *drops = p->drops.items;
  for (gsize d = 0; d < p->drops.n; d++)
    {
      /* The node's own radius has this floor too: smaller ones overflow a
       * ring's amplitude, volume / r² (compared in double: 1e-4 as a float
       * is below 1e-4). */
      if (!(drop_radius (p, &drops[d]) >= params[P_RADIUS].min))
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_DROPS,
                        "[%" G_GSIZE_FORMAT "].radius: %g m is below the smallest particle "
                        "radius, %g m (0: the node's)", d, drops[d].radius, params[P_RADIUS].min);
          return FALSE;
        }
      const float r = (float) drop_radius (p, &drops[d]);
      guint k = 0;
      while (k < m->n_radii && m->radius[k] != r)
        k++;
      if (k < m->n_radii)
        continue;
      if (k == WG_PARTICLE_MAX_RADII)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_DROPS,
                        "[%" G_GSIZE_FORMAT "].radius: %g m is the %dth particle radius "
                        "(the node's own counted); the step moves at most %d", d, r,
                        WG_PARTICLE_MAX_RADII + 1,
                        WG_PARTICLE_MAX_RADII);
          return FALSE;
        }
      m->radius[k] = r;
      m->step[k] = (float) (particle_speed (r, p->depth, p->gravity, p->speed == SPEED_GROUP) * dt);
      m->n_radii++;
    }
  return TRUE;
}

/* Stages the rings of the drops whose time falls in (t − dt, t], each
 * particle advanced by c(r) (t − T) (walls included), r its drop's. */
static void
stage_drops (WgNodeContext *ctx, GArray *stage, const WgParticleMotion *motion)
{
  const EmitterParams *p = wg_ctx_params (ctx);
  const double t = wg_ctx_time (ctx), dt = wg_ctx_dt (ctx);
  const Drop *drops = p->drops.items;
  for (gsize d = 0; d < p->drops.n; d++)
    {
      if (!(drops[d].time > t - dt && drops[d].time <= t))
        continue;
      const double r = drop_radius (p, &drops[d]);
      const double amplitude_per_volume = 1.0 / (p->ring * wg_bump_volume (r));
      const double speed = particle_speed (r, p->depth, p->gravity, p->speed == SPEED_GROUP);
      WgParticle *ring = wg_particle_stage_reserve (stage, (guint) p->ring);
      const float x = (float) drops[d].x, y = (float) drops[d].y;
      for (int k = 0; k < p->ring; k++)
        {
          ring[k] = (WgParticle) { x, y, x, y, (float) (2 * G_PI * k / p->ring),
                                   (float) (2 * G_PI / p->ring),
                                   (float) (drops[d].volume * amplitude_per_volume), (float) r };
          wg_particle_advance (&ring[k], (float) (speed * (t - drops[d].time)), motion);
        }
    }
}

/* The particles the bodies' waterlines emit over the step (wg_wake_emit():
 * each sample's share of the volume its hull pushed, and of the change of
 * its submerged volume), at the waterline at t. */
static gboolean
stage_bodies (WgNodeContext *ctx, GArray *stage, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, IN_BODIES);
  if (in == NULL)
    return TRUE;
  const WgBodySet *set = wg_buffer_read_bodies (in, error);
  if (set == NULL)
    return FALSE;
  const EmitterParams *p = wg_ctx_params (ctx);
  /* Smaller would be deleted in the step anyway. */
  const double min_volume = p->min_amplitude * wg_bump_volume (p->radius);
  for (guint b = 0; b < set->count; b++)
    {
      const WgBody *body = &set->bodies[b];
      const guint n = MIN (body->n_contour, (guint) WG_BODY_CONTOUR);
      guint lost = 0;
      WgParticle *out = wg_particle_stage_reserve (stage, n);
      const guint made = wg_wake_emit (body->contour, n, body->volume_rate, wg_ctx_dt (ctx),
                                       p->wake_strength, p->radius, min_volume, out, n, &lost);
      g_array_set_size (stage, stage->len - (n - made));
    }
  return TRUE;
}

/* This step's motion and speed *@c, with its emissions staged in @st. */
static gboolean
begin_step (WgNodeContext *ctx, EmitterState *st, double *c, WgParticleMotion *motion,
            GError **error)
{
  if (!emitter_motion (ctx, wg_ctx_dt (ctx), c, motion, error))
    return FALSE;
  g_array_set_size (st->stage, 0);
  stage_drops (ctx, st->stage, motion);
  return stage_bodies (ctx, st->stage, error);
}

/* How the step samples the obstacle mask @mask (values @data): clamped
 * outside its grid. */
static WgResampler
obstacle_resampler (const WgBuffer *mask, const float *data)
{
  return (WgResampler) { data, mask->width, mask->height, (float) (mask->width / mask->extent[0]),
                         (float) (mask->height / mask->extent[1]), FALSE };
}

static gboolean
emitter_process_cpu (WgNodeContext *ctx, GError **error)
{
  EmitterState *st = wg_ctx_get_state (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  double c;
  WgParticleMotion motion;
  if (!begin_step (ctx, st, &c, &motion, error))
    return FALSE;
  WgBuffer *mask = wg_ctx_input (ctx, IN_OBSTACLES);
  WgResampler obstacles;
  if (mask)
    {
      const float *data = wg_buffer_cpu (mask, error);
      if (data == NULL)
        return FALSE;
      obstacles = obstacle_resampler (mask, data);
      motion.obstacles = &obstacles;
    }
  WgParticleSet *set = wg_buffer_particles (out);
  WgParticleSet *next = (WgParticleSet *) st->spare;
  wg_particle_step_cpu (set, (const WgParticle *) st->stage->data, st->stage->len, &motion,
                        st->fates, next);
  st->spare = wg_buffer_swap_particles (out, st->spare);
  if (next->dropped)
    wg_ctx_note (ctx, TRUE, "%u particles did not fit the capacity of %u (raise capacity)",
                 next->dropped, next->capacity);
  else
    wg_ctx_note (ctx, FALSE, "%u particles, speed %.4g m/s", next->count, c);
  return TRUE;
}

/* The GPU step: BEGIN (one invocation) sets the new set's header from the
 * current one and the STEP dispatch's size; STEP runs over the live set
 * (an indirect dispatch: its count stays on the GPU), then once more over
 * the staged particles, each work group appending its particles with one
 * atomic add; FINISH ends the set where the capacity cut it. */
static gboolean
emitter_process_gpu (WgNodeContext *ctx, GError **error)
{
  EmitterState *st = wg_ctx_get_state (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  double c;
  WgParticleMotion m;
  if (!begin_step (ctx, st, &c, &m, error))
    return FALSE;
  const GLuint current = wg_buffer_gpu (out, error);
  if (current == 0)
    return FALSE;
  WgBuffer *mask = wg_ctx_input (ctx, IN_OBSTACLES);
  const GLuint mask_ssbo = mask ? wg_buffer_gpu (mask, error) : current;
  if (mask_ssbo == 0)
    return FALSE;
  const guint n_staged = st->stage->len;
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, st->staged_ssbo);
  if (n_staged > st->staged_room)
    {
      st->staged_room = MAX (n_staged, 2 * st->staged_room);
      glBufferData (GL_SHADER_STORAGE_BUFFER, (GLsizeiptr) (st->staged_room * sizeof (WgParticle)),
                    NULL, GL_STREAM_DRAW);
    }
  if (n_staged)
    glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) (n_staged * sizeof (WgParticle)),
                     st->stage->data);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  wg_gpu_bind (0, current);
  wg_gpu_bind (1, st->spare_ssbo);
  wg_gpu_bind (2, st->staged_ssbo);
  wg_gpu_bind (3, st->args_ssbo);
  wg_gpu_bind (4, mask_ssbo);
  wg_gpu_kernel_dispatch (&st->passes[PASS_BEGIN], NULL, 1, 1, 1);
  glMemoryBarrier (GL_COMMAND_BARRIER_BIT);
  ParticleStepUniforms u = {
    .u_n_radii = m.n_radii,
    .u_low = m.low,
    .u_wall_x = m.wall_x,
    .u_wall_y = m.wall_y,
    .u_threshold = m.threshold,
    .u_min_amplitude = m.min_amplitude,
  };
  for (guint k = 0; k < m.n_radii; k++)
    {
      u.u_radii[k / 4][k % 4] = m.radius[k];
      u.u_steps[k / 4][k % 4] = m.step[k];
    }
  WgGpuKernel *step = &st->passes[mask ? PASS_STEP_OBSTACLES : PASS_STEP];
  if (mask)
    {
      const WgResampler r = obstacle_resampler (mask, NULL);
      u.u_ambient_size[0] = r.width;
      u.u_ambient_size[1] = r.height;
      u.u_ambient_inv_spacing[0] = r.inv_dx;
      u.u_ambient_inv_spacing[1] = r.inv_dy;
    }
  wg_gpu_kernel_use (step, &u);
  glBindBuffer (GL_DISPATCH_INDIRECT_BUFFER, st->args_ssbo);
  glDispatchComputeIndirect (0);
  glBindBuffer (GL_DISPATCH_INDIRECT_BUFFER, 0);
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT);
  if (n_staged)
    {
      u.u_n_staged = n_staged;
      wg_gpu_kernel_dispatch (step, &u,
                              (n_staged + WG_PARTICLE_GROUP - 1) / WG_PARTICLE_GROUP, 1, 1);
    }
  wg_gpu_kernel_dispatch (&st->passes[PASS_FINISH], NULL, 1, 1, 1);
  st->spare_ssbo = wg_buffer_swap_particles_gpu (out, st->spare_ssbo);
  wg_ctx_note (ctx, FALSE, "%u particles staged, speed %.4g m/s (the count is on the GPU)",
               n_staged, c);
  return wg_gpu_check ("stepping particles", error);
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
  .description = "Wave particles from drops and from the wakes of moving bodies: fronts that "
                 "spread at the waves' speed, subdivide as they grow, reflect off the pool's "
                 "walls and an obstacle mask, and fade out. CPU (deterministic for any thread count) or GPU (compute "
                 "shaders; the set stays on the GPU).",
  .reference = "Yuksel et al. 2007 via Mikeš, §3.2–3.5 and §4.4, eq. 5–7 (papers/004)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_STATEFUL,
  .prepare = emitter_prepare,
  .process_cpu = emitter_process_cpu,
  .process_gpu = emitter_process_gpu,
  .free_state = emitter_state_free,
  .reset = emitter_reset,
  .params_size = sizeof (EmitterParams),
};
