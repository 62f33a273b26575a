/* wg-particle-step.h — one step of a wave-particle set (papers/004 §3.2–3.5,
 * after Yuksel et al. 2007), shared by particle-emitter's CPU path, its GPU
 * twin (shaders/particle-step.comp, the same float operations) and every
 * emission source.
 *
 * A step from t − dt to t is two things:
 *  1. Emission: sources (drops, moving objects) append the particles born in
 *     (t − dt, t] to a staging array (wg_particle_stage_reserve()), each
 *     already at its position at t (wg_particle_advance() by c (t − T)).
 *  2. The step proper (wg_particle_step_cpu()): every live particle advances
 *     by c dt and reflects (eq. 6–7); then live and staged particles alike
 *     are deleted (|A| < min_amplitude) or subdivided (eq. 5) and written,
 *     in order, to the new set.
 */
#pragma once

#include "wavegraph.h"
#include "wg-resample.h"
#include "particle-step.h" /* WG_PARTICLE_BISECTIONS … */
#include "wg-trig.h"

#include <stdint.h>

G_BEGIN_DECLS

/* Most subdivisions of one particle in one step (3⁶ = 729 particles); past
 * it, the rest waits for the next step. */
#define WG_PARTICLE_MAX_GENERATIONS 6

/* Particle radii one step moves at their own speeds, at most. */
#define WG_PARTICLE_MAX_RADII 8

/**
 * WgParticleMotion:
 * What moves a set in a step: @step[k] = c(r) dt (m) for live particles
 * of radius @radius[k] (k < @n_radii, NAN past them; a particle of a
 * radius not in the table moves by @step[0]); walls at x = @low, x = @wall_x, y = @low,
 * y = @wall_y (@low 0 in a pool; without walls −∞, +∞, +∞, so that the
 * loops have no branch); subdivision when δ |x − o| > @threshold · r
 * (m, eq. 5, r the particle's radius); deletion when |A| < @min_amplitude
 * (m); @obstacles, when not NULL, an obstacle mask (1 water, 0 solid,
 * clamped outside its grid) that live particles reflect off
 * (wg_particle_reflect_obstacle()).
 */
typedef struct {
  guint n_radii;
  float radius[WG_PARTICLE_MAX_RADII];
  float step[WG_PARTICLE_MAX_RADII];
  float low, wall_x, wall_y;
  float threshold;
  float min_amplitude;
  const WgResampler *obstacles;
} WgParticleMotion;

/**
 * wg_particle_reflect_obstacle:
 * Reflects @q, just advanced from (@x0, @y0), off the obstacle mask @mask
 * (papers/004 §3.5, eq. 6–7) when it ended in solid (mask < ½) from water:
 *  - the crossing c of the ½ level on the segment, by
 *    WG_PARTICLE_BISECTIONS bisections of the mask along it;
 *  - the normal n at c (into the water), the mask's gradient by central
 *    differences ½ a mask cell apart, and the wall's curvature κ (1/m,
 *    > 0 concave seen from the water) as the change of n along the tangent
 *    t over ±h = ±WG_PARTICLE_CURVATURE_CELLS cells:
 *    κ = −(n(c + h t) − n(c − h t))·t / 2h;
 *  - position and direction mirrored across the tangent line at c; the
 *    origin put where the reflected front's centre is, by the mirror
 *    equation 1/s + 1/s' = 2κ / cos θ with s the incoming front's signed
 *    radius (the distance along its ray d from the origin o to the tangent
 *    line, s = (c − o)·n / d·n) and cos θ = −d·n (clamped to
 *    WG_PARTICLE_MIN_COS): o' = o + s d − v d', 1/v = 1/s − 2κ / cos θ; a
 *    straight wall (κ = 0) mirrors the origin across it; a concave one
 *    gives v < 0, an origin ahead of the particle (a converging front,
 *    which its subdivisions follow, see wg_particle_step_cpu());
 *  - eq. 6–7: the spacing w = δ |x − o| kept, δ' = δ |x − o| / |x' − o'|.
 * Children a subdivision places across the wall reflect likewise, about
 * the crossing of the chord from their parent (wg_particle_step_cpu()).
 * A particle whose mirrored position is still solid (a corner, a wall
 * thinner than its step) is put at the crossing's water side (the last
 * bisection point in water), direction, origin and δ' as above: it leaves
 * the wall at its next step. A particle that starts the step in solid
 * too (a child a subdivision placed across the wall: it should have
 * reflected already) reflects about the ½ level found along the gradient,
 * c = x + n (½ − M) / |∇M| (exact where M ramps linearly, within the
 * border: children land at most threshold · r past their parent, so the
 * border should be at least that wide); one deep in solid (no gradient),
 * or already heading into the water, is left as it is. Amplitude and
 * radius are kept (the obstacle conserves Σ A).
 * Scalar float operations and no libm but sqrtf and atan2f; the GPU step
 * repeats them.
 */
void wg_particle_reflect_obstacle (WgParticle *q, float x0, float y0, const WgResampler *mask);

/**
 * wg_particle_stage_reserve:
 * Appends @n particles to the staging array @stage (a GArray of WgParticle)
 * and returns the first of them, uninitialised, for the caller to fill
 * (valid until the next append). Staged particles join the set, after the
 * live ones and in staging order, at the next wg_particle_step_cpu() (or
 * the GPU step); fill them at their position at the step's end time.
 */
WgParticle *wg_particle_stage_reserve (GArray *stage, guint n);

/* 1/2π in float: angles become turns for wg_sincos_turns(). */
#define WG_PARTICLE_INV_TWO_PI 0.159154943091895335769f

/* @c ? @a : @b by bit masks, both computed: with a float select GCC
 * computes the taken side under a branch, which -ftrapping-math (the
 * default) then keeps from being vectorised. */
static inline float
wg_particle_select (int c, float a, float b)
{
  union { float f; uint32_t u; } x = { a }, y = { b };
  const uint32_t mask = -(uint32_t) (c != 0);
  x.u = (x.u & mask) | (y.u & ~mask);
  return x.f;
}

/**
 * wg_particle_advance:
 * Moves @q by @step m along its direction and reflects it off @m's walls
 * (eq. 6–7): position, origin and direction mirrored (x' = 2w − x at the
 * wall w crossed), the angle brought back to [−π, π]. Eq. 7's dispersion
 * ratio |x − o| before / after is 1 for these straight walls (mirroring
 * the particle and its origin keeps their distance), so δ is kept.
 * Branch-free float operations without libm, each field read and written
 * once, so loops over it vectorise; shaders/particle-step.comp does the
 * same.
 */
static inline void
wg_particle_advance (WgParticle *q, float step, const WgParticleMotion *m)
{
  float s, c;
  wg_sincos_turns (q->angle * WG_PARTICLE_INV_TWO_PI, &s, &c);
  float x = q->x + step * c, y = q->y + step * s, ox = q->origin_x, oy = q->origin_y;
  const int lo_x = x < m->low, hi_x = x > m->wall_x, lo_y = y < m->low, hi_y = y > m->wall_y;
  const int mx = lo_x | hi_x, my = lo_y | hi_y, hit = mx | my;
  const float wx = wg_particle_select (hi_x, 2 * m->wall_x, 2 * m->low);
  const float wy = wg_particle_select (hi_y, 2 * m->wall_y, 2 * m->low);
  x = wg_particle_select (mx, wx - x, x);
  ox = wg_particle_select (mx, wx - ox, ox);
  y = wg_particle_select (my, wy - y, y);
  oy = wg_particle_select (my, wy - oy, oy);
  const float ax = wg_particle_select (mx, 3.14159265358979323846f - q->angle, q->angle);
  const float a = wg_particle_select (my, -ax, ax);
  const float wrapped = a - 6.28318530717958647692f * rintf (a * WG_PARTICLE_INV_TWO_PI);
  q->angle = wg_particle_select (hit, wrapped, a);
  q->x = x;
  q->y = y;
  q->origin_x = ox;
  q->origin_y = oy;
}

/* @m's step for a particle of radius @r: exact float matches in the
 * table, branch-free over the whole table (a constant count, so that the
 * step's loops vectorise; entries past n_radii hold NAN, which matches no
 * radius). The GPU repeats it. */
static inline float
wg_particle_step_of (const WgParticleMotion *m, float r)
{
  float step = m->step[0];
  for (guint k = 1; k < WG_PARTICLE_MAX_RADII; k++)
    step = wg_particle_select (r == m->radius[k], m->step[k], step);
  return step;
}

/* Squared distance of @q from its origin (m²). */
static inline float
wg_particle_radius2 (const WgParticle *q)
{
  return (q->x - q->origin_x) * (q->x - q->origin_x) + (q->y - q->origin_y) * (q->y - q->origin_y);
}

/**
 * wg_particle_split_count:
 * How many particles @q becomes this step: 0 when |A| < min_amplitude, else
 * 3^g with g the subdivisions eq. 5 asks for, the number of i in 0 … 5
 * with δ² |x − o|² > (3^i · split)², split = threshold · r (after g of them
 * δ / 3^g · |x − o| ≤ split). Branch-free (comparisons, no loop, no square root): the same on
 * the GPU.
 */
static inline guint
wg_particle_split_count (const WgParticle *q, const WgParticleMotion *m)
{
  const float spread2 = q->dispersion * q->dispersion * wg_particle_radius2 (q);
  guint n = 1;
  float limit = m->threshold * q->radius;
  for (int i = 0; i < WG_PARTICLE_MAX_GENERATIONS; i++, limit *= 3)
    n *= spread2 > limit * limit ? 3 : 1;
  return fabsf (q->amplitude) < m->min_amplitude ? 0 : n;
}

/* g of a wg_particle_split_count() of 3^g. */
static inline guint
wg_particle_generations (guint count)
{
  return (count > 1) + (count > 3) + (count > 9) + (count > 27) + (count > 81) + (count > 243);
}

/**
 * wg_particle_step_cpu:
 * One step (see the top of this file) from set @in to set @out (a set of the
 * same capacity; its particles and header overwritten): @in's particles
 * advanced by @m (in place: @in is scratch afterwards), then with the
 * @n_staged particles of @staged (not advanced) deleted or subdivided into
 * 3^g: the particle itself with A / 3^g
 * and δ / 3^g, then its children at angles α ∓ i δ / 3^g on the circle
 * about its origin through it (on the far side of the origin when the
 * origin is ahead of the particle: a front converging after a concave
 * obstacle), written in input order. With @m's obstacles, live particles
 * also reflect off them after the vectorised advance
 * (wg_particle_reflect_obstacle(), one particle at a time), and so do
 * children placed across a wall. Where the capacity
 * ends, the particle that would cross it stays whole (unsubdivided), and
 * the particles after it are lost: @out->dropped is @in's plus, counted
 * once each, the particles lost (1 each) and the children a skipped
 * subdivision would have made (3^g − 1, in the step it is first skipped).
 * The set is split into fixed blocks shared among the OpenMP threads, with
 * per-block counts and a prefix sum: @out is the same for any thread count.
 * @scratch (resized as needed) holds a byte per particle.
 */
void wg_particle_step_cpu (WgParticleSet *in, const WgParticle *staged, guint n_staged,
                           const WgParticleMotion *m, GByteArray *scratch, WgParticleSet *out);

G_END_DECLS
