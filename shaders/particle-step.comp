/* particle-step.comp — GPU path of particle-emitter's step
 * (nodes/wg-node-particle-emitter.c; nodes/wg-particle-step.h has the CPU
 * twin, whose float operations these repeat): papers/004 §3.2–3.5's
 * propagate, reflect (eq. 6–7), subdivide (eq. 5) and delete, from the
 * current set (binding 0) into the other of a ping-pong pair (binding 1),
 * the GL 4.3 form of the paper's transform-feedback chain. Three passes:
 * BEGIN (one invocation) writes the new header and the STEP dispatch's
 * size from the live count; STEP advances a live particle (or takes a
 * staged one as it is) and appends what it becomes, each work group
 * reserving its slots with one atomic add; FINISH ends the set where the
 * capacity cut it. Order within the set depends on the GPU's scheduling. */
#include "particle-step.h"

struct Particle {
  vec2 position;
  vec2 origin;
  float angle, dispersion, amplitude, radius;
};

/* WgParticleSet; the GPU uses reserved[0] ("end") during a step (FINISH
 * puts 0 back): where the particle crossing the capacity ended the set. */
layout (std430, binding = 0) restrict readonly buffer Current {
  uint count, capacity, dropped, end, reserved[4];
  Particle p[];
} src;
layout (std430, binding = 1) restrict buffer Next {
  uint count, capacity, dropped, end, reserved[4];
  Particle p[];
} dst;

#ifdef BEGIN
layout (local_size_x = 1) in;
layout (std430, binding = 3) restrict writeonly buffer Args { uint args[4]; };

void
main ()
{
  dst.count = 0u;
  dst.capacity = src.capacity;
  dst.dropped = src.dropped;
  dst.end = src.capacity;
  /* Rows of at most 65535 groups (GL's guaranteed count per dimension). */
  uint groups = (min (src.count, src.capacity) + WG_PARTICLE_GROUP - 1u) / WG_PARTICLE_GROUP;
  uint gx = min (groups, 65535u);
  args[0] = gx;
  args[1] = gx == 0u ? 0u : (groups + gx - 1u) / gx;
  args[2] = 1u;
}
#endif

#ifdef FINISH
layout (local_size_x = 1) in;

void
main ()
{
  dst.count = min (dst.count, dst.end);
  dst.end = 0u;
}
#endif

#ifdef STEP
#include "wg-trig.glsl"

layout (local_size_x = WG_PARTICLE_GROUP) in;
layout (std430, binding = 2) restrict readonly buffer Staged { Particle staged[]; };

const float INV_TWO_PI = 0.159154943091895335769;

float
radius2 (Particle q)
{
  vec2 d = q.position - q.origin;
  return d.x * d.x + d.y * d.y;
}

/* wg_particle_advance(). */
Particle
advance (Particle q)
{
  vec2 sc = wg_sincos_turns (q.angle * INV_TWO_PI);
  float x = q.position.x + u_step * sc.y, y = q.position.y + u_step * sc.x;
  float ox = q.origin.x, oy = q.origin.y;
  bool lo_x = x < u_low, hi_x = x > u_wall_x, lo_y = y < u_low, hi_y = y > u_wall_y;
  bool mx = lo_x || hi_x, my = lo_y || hi_y, hit = mx || my;
  float wx = hi_x ? 2.0 * u_wall_x : 2.0 * u_low, wy = hi_y ? 2.0 * u_wall_y : 2.0 * u_low;
  x = mx ? wx - x : x;
  ox = mx ? wx - ox : ox;
  y = my ? wy - y : y;
  oy = my ? wy - oy : oy;
  float ax = mx ? 3.14159265358979323846 - q.angle : q.angle;
  float a = my ? -ax : ax;
  q.angle = hit ? a - 6.28318530717958647692 * roundEven (a * INV_TWO_PI) : a;
  q.position = vec2 (x, y);
  q.origin = vec2 (ox, oy);
  return q;
}

/* wg_particle_split_count(): 0, or 3^g. */
uint
split_count (Particle q)
{
  float spread2 = q.dispersion * q.dispersion * radius2 (q);
  uint n = 1u;
  float limit = u_split;
  for (int i = 0; i < 6; i++, limit *= 3.0)
    n *= spread2 > limit * limit ? 3u : 1u;
  return abs (q.amplitude) < u_min_amplitude ? 0u : n;
}

shared uint group_total, group_first;

void
main ()
{
  if (gl_LocalInvocationIndex == 0u)
    group_total = 0u;
  barrier ();
  uint k = gl_WorkGroupID.y * gl_NumWorkGroups.x * uint (WG_PARTICLE_GROUP) +
           gl_GlobalInvocationID.x;
  Particle q;
  uint n = 0u;
  bool skipped = false;
  if (u_n_staged != 0u)
    {
      if (k < u_n_staged)
        {
          q = staged[k];
          n = 1u;
        }
    }
  else if (k < min (src.count, src.capacity))
    {
      q = src.p[k];
      /* It needed subdividing before the step: a subdivision of it was
       * skipped (and counted) in an earlier one. */
      skipped = q.dispersion * q.dispersion * radius2 (q) > u_split * u_split;
      q = advance (q);
      n = 1u;
    }
  if (n != 0u)
    n = split_count (q);
  uint local = n != 0u ? atomicAdd (group_total, n) : 0u;
  barrier ();
  if (gl_LocalInvocationIndex == 0u)
    group_first = group_total != 0u ? atomicAdd (dst.count, group_total) : 0u;
  barrier ();
  if (n == 0u)
    return;
  /* The count runs past the capacity by what was lost (FINISH cuts it);
   * it wraps only past 2³² slots asked for in one step. */
  uint slot = group_first + local, capacity = dst.capacity;
  if (slot >= capacity)
    {
      atomicAdd (dst.dropped, 1u);
      return;
    }
  if (slot + n > capacity)
    {
      /* The one particle crossing the capacity stays whole. */
      dst.p[slot] = q;
      dst.end = slot + 1u;
      if (!skipped)
        atomicAdd (dst.dropped, n - 1u);
      return;
    }
  for (uint g = n; g > 1u; g /= 3u)
    {
      q.amplitude /= 3.0;
      q.dispersion /= 3.0;
    }
  dst.p[slot] = q;
  float d = sqrt (radius2 (q));
  for (uint i = 1u; i <= n / 2u; i++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        Particle c = q;
        c.angle = q.angle + float (sign * int (i)) * q.dispersion;
        vec2 sc = wg_sincos_turns (c.angle * INV_TWO_PI);
        c.position = q.origin + d * vec2 (sc.y, sc.x);
        dst.p[slot + 2u * i - (sign < 0 ? 1u : 0u)] = c;
      }
}
#endif
